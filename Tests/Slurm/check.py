#!/usr/bin/env python3
"""Checks a `blurtool batch` destination against the photo set and the tasks' reports (for Tests/Slurm/run.sh).

    check.py PHOTOS.txt SRC DEST MATERIAL LISTS_DIR SHARDS MODE [K=REPORT ...]

PHOTOS.txt lists the photos' paths relative to SRC; LISTS_DIR holds list-K.txt, what `--shard K/SHARDS --list`
printed. A report named K=FILE is shard K's. MODE:
  complete[:K]    every photo has its one output and exactly one "done" among the reports (K: shard K was
                  SIGKILLed before, and the photo it had in flight may be done again);
  stopped:K       shard K was stopped mid-run by SIGTERM: the other shards complete, K partly, no temporary
                  file anywhere, and shard K's outputs are exactly the photos its report calls done;
  killed:K        as stopped, but SIGKILL: temporary files may remain (listed), a photo may be in place
                  without its report line.
Prints one line per check ("ok ..." or "FAIL ..."); exits 1 if any failed. CHECK_LISTS=1 checks the lists too.
"""

import json
import os
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


def relative(path, base):
    """A report's path, however it was written (absolute, BASE/…, or relative to BASE), relative to BASE."""
    if os.path.isabs(path):
        return os.path.relpath(os.path.realpath(path), os.path.realpath(base))
    if path.startswith(base.rstrip("/") + "/"):
        return path[len(base.rstrip("/")) + 1 :]
    return os.path.normpath(path)


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
              f"missing {sample(photos - set(owner))}; not photos {sample(set(owner) - photos)}")

    # What is in DEST: outputs, the journal folder, anything else.
    journal_dir = os.path.join(dest, ".blurtool-batch")
    present, temporary, stray, journal_stray = set(), set(), set(), set()
    for folder, dirs, files in os.walk(dest):
        rel_folder = os.path.relpath(folder, dest)
        if rel_folder == ".blurtool-batch":
            dirs[:] = []
            for name in files:
                if not ((name.startswith("journal-") and name.endswith(".tsv"))
                        or (name.startswith("report-") and name.endswith(".jsonl"))):
                    journal_stray.add(name)
            journal_stray.update(name + "/" for name in dirs)
            continue
        for name in files:
            rel = os.path.normpath(os.path.join(rel_folder, name))
            if name.startswith(".") and name.endswith(".tmp"):
                temporary.add(rel)
            elif rel in expected.values():
                present.add(rel)
            else:
                stray.add(rel)
    check(os.path.isdir(journal_dir), "DEST/.blurtool-batch/ exists")
    check(not stray, "DEST holds nothing but outputs, temporary files and .blurtool-batch/", sample(stray))
    check(not journal_stray, "DEST/.blurtool-batch/ holds only journal-K-of-N.tsv and report-*.jsonl",
          sample(journal_stray))
    cut = {rel for rel in present if not whole_image(os.path.join(dest, rel))}
    check(not cut, "every output in place is a whole JPEG or PNG", sample(cut))
    if kind == "killed":
        print(f"   ..  temporary files left by SIGKILL: {sample(temporary) if temporary else 'none'}")
    else:
        check(not temporary, "no temporary file (.*.tmp) left in DEST", sample(temporary))

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
            absent.append(os.path.basename(path))
            continue
        seen = set()
        lines = open(path, encoding="utf-8").read().splitlines()
        last = len(lines) - 1
        for number, line in enumerate(lines):
            try:
                entry = json.loads(line)
                photo = relative(entry["input"], src)
                status = entry["status"]
                outputs = [relative(output, dest) for output in entry.get("outputs", [])]
                assert status in ("done", "skipped", "failed"), f"status {status!r}"
                assert isinstance(entry.get("ms", 0), (int, float)), "ms is not a number"
            except Exception as error:  # a SIGKILL may cut the last line short
                if not (kind != "stopped" and k == killed and number == last):
                    bad.append(f"{os.path.basename(path)}:{number + 1}: {error}: {line[:120]}")
                continue
            if photo in seen:
                bad.append(f"{os.path.basename(path)}: {photo!r} twice")
            seen.add(photo)
            if photo not in lists[k]:
                bad.append(f"{os.path.basename(path)}: {photo!r} is not shard {k}'s")
            if status == "failed":
                bad.append(f"{os.path.basename(path)}: {photo!r} failed: {entry.get('error')}")
            if status == "done":
                done_count[photo] = done_count.get(photo, 0) + 1
                done_in[path].add(photo)
                if outputs != [expected.get(photo)]:
                    bad.append(f"{os.path.basename(path)}: {photo!r} has outputs {outputs}, "
                               f"not [{expected.get(photo)!r}]")
            reported_outputs.update(outputs)
    check(not absent, f"the {len(report_args)} reports exist", sample(absent))
    check(not bad, "every report line is well formed, of its shard, once, and not failed", sample(bad, 8))
    twice = {photo for photo, count in done_count.items() if count > 1}
    if kind == "complete" and killed is not None and len(twice) == 1 and twice <= lists[killed]:
        # SIGKILL between a photo's rename and its journal line: the rerun does it again, harmlessly.
        print(f"   ..  done twice, in flight when shard {killed} was killed: {sample(twice)}")
        twice = set()
    check(not twice, "no photo done twice (across all reports)", sample(twice))
    check(reported_outputs <= present, "every output a report names is in DEST", sample(reported_outputs - present))

    def complete_shard(k):
        missing_outputs = {photo for photo in lists[k] if expected[photo] not in present}
        not_done = lists[k] - set(done_count)
        return missing_outputs, not_done

    shards_to_be_whole = [k for k in range(shards) if kind == "complete" or k != killed]
    for k in shards_to_be_whole:
        missing_outputs, not_done = complete_shard(k)
        check(not missing_outputs and not not_done,
              f"shard {k}: all {len(lists[k])} photos done once, each with its output",
              f"no output for {sample(missing_outputs)}; not reported done: {sample(not_done)}")
    if kind == "complete":
        check(present == set(expected.values()), f"DEST holds exactly {len(photos)} outputs, one per photo",
              f"{len(present)} outputs")
    else:
        mine = {photo for photo in lists[killed] if expected[photo] in present}
        print(f"   ..  shard {killed}: {len(mine)} of {len(lists[killed])} photos have their output")
        check(len(mine) < len(lists[killed]), f"shard {killed} is incomplete (stopped mid-run)")
        done_here = set().union(*done_in.values()) & lists[killed]
        if kind == "stopped":
            check(mine == done_here, f"shard {killed}: the outputs in place are exactly the photos reported done",
                  f"in place, not reported done: {sample(mine - done_here)}; "
                  f"reported done, not in place: {sample(done_here - mine)}")
        else:
            check(done_here <= mine, f"shard {killed}: every photo reported done has its output",
                  sample(done_here - mine))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
