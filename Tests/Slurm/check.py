#!/usr/bin/env python3
"""Checks a `blurtool batch` destination against the photo set, its journals and the tasks' reports (for run.sh).

    check.py PHOTOS.txt SRC DEST MATERIAL LISTS_DIR SHARDS MODE [K=REPORT ...]

PHOTOS.txt lists the photos' paths relative to SRC; LISTS_DIR holds list-K.txt, what `--shard K/SHARDS --list`
printed. A report named K=FILE is from a task of shard K. DEST must hold only outputs (SRC's tree, each photo's
stem + "-MATERIAL" + its extension) and .blurtool-batch/journal-K-of-N.tsv. MODE:
  complete[:K]  every photo has its output, is journaled exactly once and reported done at most once (K: shard
                K was SIGKILLed before; its report was never written, the photos it finished are journaled);
  stopped:K     shard K was stopped mid-run by SIGTERM: the other shards complete; K partly, with no temporary
                file, and its outputs, its journal and its report naming the same photos;
  killed:K      as stopped, but SIGKILL: temporary files may remain (listed), and no report.
Prints one line per check ("ok ..." or "FAIL ...", notes "..."); exits 1 if any failed. CHECK_LISTS=1 also checks
that the lists are disjoint and cover the set.
"""

import json
import os
import re
import sys

failures = 0


def check(condition, message, detail=""):
    global failures
    if condition:
        print(f"   ok  {message}")
    else:
        failures += 1
        print(f"   FAIL {message}" + (f": {detail}" if detail else ""))
    return condition


def sample(items, count=5):
    items = sorted(items)
    text = ", ".join(repr(item) for item in items[:count])
    return text + (f" … ({len(items)} in all)" if len(items) > count else "")


def details(**named):
    """'name: sample' for each non-empty set, joined."""
    return "; ".join(f"{name.replace('_', ' ')}: {sample(items)}" for name, items in named.items() if items)


def relative(path, base):
    """A report's path, however it was written (absolute, BASE/…, or relative to BASE), relative to BASE."""
    if os.path.isabs(path):
        return os.path.relpath(os.path.realpath(path), os.path.realpath(base))
    if path.startswith(base.rstrip("/") + "/"):
        return path[len(base.rstrip("/")) + 1 :]
    return os.path.normpath(path)


def unescaped(text):
    """A journal's path: backslash, tab, newline and carriage return escaped."""
    return re.sub(r"\\(.)", lambda m: {"t": "\t", "n": "\n", "r": "\r"}.get(m.group(1), m.group(1)), text)


def output_name(photo, material):
    stem, ext = os.path.splitext(photo)
    return f"{stem}-{material}{ext}"


def whole_image(path):
    """Whether the file is a whole JPEG (SOI … EOI) or PNG (signature … IEND): no output cut short."""
    with open(path, "rb") as f:
        data = f.read()
    if data.startswith(b"\xff\xd8\xff"):
        return data.rstrip(b"\0").endswith(b"\xff\xd9")
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return data[-12:-4] == b"\0\0\0\0IEND"
    return False


def main():
    photos_file, src, dest, material, lists_dir, shards, mode = sys.argv[1:8]
    shards = int(shards)
    report_args = sys.argv[8:]
    kind, _, killed = mode.partition(":")
    killed = int(killed) if killed else None

    photos = set(open(photos_file, encoding="utf-8").read().splitlines())
    expected = {photo: output_name(photo, material) for photo in photos}
    expected_outputs = set(expected.values())

    # The shards' lists: disjoint, covering the set.
    owner = {}
    lists = {}
    twice = set()
    for k in range(shards):
        names = open(os.path.join(lists_dir, f"list-{k}.txt"), encoding="utf-8").read().splitlines()
        lists[k] = {relative(name, src) for name in names if name}
        for photo in lists[k]:
            if photo in owner:
                twice.add(photo)
            owner[photo] = k
    if os.environ.get("CHECK_LISTS") == "1":
        check(not twice, f"the {shards} shards' --list are disjoint", sample(twice))
        check(set(owner) == photos, f"the {shards} shards' --list cover the {len(photos)} photos exactly",
              details(missing=photos - set(owner), not_photos=set(owner) - photos))

    # What is in DEST: outputs, the journal folder, anything else.
    journal_dir = os.path.join(dest, ".blurtool-batch")
    present, temporary, stray, journal_stray = set(), set(), set(), set()
    for folder, dirs, files in os.walk(dest):
        rel_folder = os.path.relpath(folder, dest)
        if rel_folder == ".blurtool-batch":
            dirs[:] = []
            journal_stray.update(name for name in files if not re.fullmatch(r"journal-\d+-of-\d+\.tsv", name))
            journal_stray.update(name + "/" for name in dirs)
            continue
        for name in files:
            rel = os.path.normpath(os.path.join(rel_folder, name))
            if name.startswith(".") and name.endswith(".tmp"):
                temporary.add(rel)
            elif rel in expected_outputs:
                present.add(rel)
            else:
                stray.add(rel)
    check(not stray, "DEST holds nothing but outputs, temporary files and .blurtool-batch/", sample(stray))
    check(os.path.isdir(journal_dir) and not journal_stray, "DEST/.blurtool-batch/ holds only journal-K-of-N.tsv",
          sample(journal_stray))
    cut = {rel for rel in present if not whole_image(os.path.join(dest, rel))}
    check(not cut, "every output in place is a whole JPEG or PNG", sample(cut))
    if kind == "killed":
        print(f"   ..  temporary files left in DEST by SIGKILL: {sample(temporary) if temporary else 'none'}")
    else:
        check(not temporary, "no temporary file (.*.tmp) left in DEST", sample(temporary))

    # The journals: a line per photo finished, whichever attempt finished it.
    journaled = {}
    for name in sorted(os.listdir(journal_dir)) if os.path.isdir(journal_dir) else []:
        if not name.endswith(".tsv"):
            continue
        text = open(os.path.join(journal_dir, name), encoding="utf-8").read()
        for line in text.split("\n")[:-1]:  # a line without its newline was cut short: not read
            fields = line.split("\t")
            if len(fields) == 5 and fields[0] == "v1":
                photo = unescaped(fields[4])
                journaled[photo] = journaled.get(photo, 0) + 1

    # The reports.
    done_count = {}
    done_in = {}
    reported_outputs = set()
    bad, absent = [], []
    for arg in report_args:
        k, _, path = arg.partition("=")
        k = int(k)
        done_in[path] = set()
        if not os.path.isfile(path):
            absent.append((k, os.path.basename(path)))
            continue
        seen = set()
        for number, line in enumerate(open(path, encoding="utf-8").read().splitlines()):
            try:
                entry = json.loads(line)
                photo = relative(entry["input"], src)
                status = entry["status"]
                outputs = [relative(output, dest) for output in entry.get("outputs", [])]
                assert status in ("done", "skipped", "failed"), f"status {status!r}"
                assert isinstance(entry.get("ms", 0), (int, float)), "ms is not a number"
            except Exception as error:
                bad.append(f"{os.path.basename(path)}:{number + 1}: {error!r}: {line[:120]}")
                continue
            if photo in seen:
                bad.append(f"{os.path.basename(path)}: {photo!r} twice")
            seen.add(photo)
            if photo not in lists[k]:
                bad.append(f"{os.path.basename(path)}: {photo!r} is not shard {k}'s")
            if status == "failed":
                bad.append(f"{os.path.basename(path)}: {photo!r} failed: {entry.get('error')}")
            if status != "failed" and outputs != [expected.get(photo)]:
                bad.append(f"{os.path.basename(path)}: {photo!r} has outputs {outputs}, not [{expected.get(photo)!r}]")
            if status == "done":
                done_count[photo] = done_count.get(photo, 0) + 1
                done_in[path].add(photo)
            reported_outputs.update(outputs)
        if kind == "stopped" and k == killed and not seen:
            bad.append(f"{os.path.basename(path)}: empty")
    # The report is renamed into place when blurtool exits: a SIGKILLed attempt leaves none.
    excused = [name for k, name in absent if k == killed and kind != "stopped"]
    if excused:
        print(f"   ..  no report from the SIGKILLed attempt: {sample(excused)}")
    missing = [name for k, name in absent if name not in excused]
    check(not missing, f"the reports exist ({len(report_args) - len(absent)} read)", sample(missing))
    check(not bad, "every report line is well formed, of its shard, once, not failed, with its output",
          sample(bad, 4))
    twice = {photo for photo, count in done_count.items() if count > 1}
    if kind == "complete" and killed is not None and len(twice) == 1 and twice <= lists[killed]:
        # Killed between a photo's rename and its journal line: the rerun does it again, harmlessly.
        print(f"   ..  reported done twice, in flight when shard {killed} was killed: {sample(twice)}")
        twice = set()
    check(not twice, "no photo reported done twice", sample(twice))
    check(reported_outputs <= present, "every output a report names is in DEST", sample(reported_outputs - present))

    if kind == "complete":
        wrong = {photo: count for photo, count in journaled.items() if count != 1 or photo not in photos}
        check(not wrong and set(journaled) == photos, f"every photo journaled exactly once",
              details(not_once=wrong.items(), not_journaled=photos - set(journaled)))
        check(present == expected_outputs, f"DEST holds exactly {len(photos)} outputs, one per photo",
              f"{len(present)} outputs; " + details(missing=expected_outputs - present))
    whole = [k for k in range(shards) if kind == "complete" or k != killed]
    for k in whole:
        missing_outputs = {photo for photo in lists[k] if expected[photo] not in present}
        not_done = lists[k] - set(done_count)
        # Photos the SIGKILLed attempt finished are in its journal but in no report.
        unreported = {photo for photo in not_done if k == killed and excused and journaled.get(photo) == 1}
        if unreported:
            print(f"   ..  shard {k}: {len(unreported)} photos done by the SIGKILLed attempt (journaled, in no report)")
        check(not missing_outputs and not_done == unreported,
              f"shard {k}: all {len(lists[k])} photos done, each with its output",
              details(no_output=missing_outputs, not_reported_done=not_done - unreported))
    if kind != "complete":
        mine = {photo for photo in lists[killed] if expected[photo] in present}
        logged = {photo for photo in lists[killed] if photo in journaled}
        print(f"   ..  shard {killed}: {len(mine)} of {len(lists[killed])} photos have their output, "
              f"{len(logged)} are journaled")
        check(len(mine) < len(lists[killed]), f"shard {killed} is incomplete (stopped mid-run)")
        done_here = set().union(*done_in.values()) & lists[killed]
        if kind == "stopped":
            check(mine == logged == done_here,
                  f"shard {killed}: the outputs in place, the journal and the report name the same photos",
                  f"in place {len(mine)}, journaled {len(logged)}, reported done {len(done_here)}")
        else:
            check(done_here <= logged <= mine, f"shard {killed}: every photo journaled or reported done has its output",
                  f"{sample((done_here | logged) - mine)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
