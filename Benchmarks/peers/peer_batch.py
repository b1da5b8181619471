#!/usr/bin/env python3
"""Batch backgrounds: `blurtool batch` against GNU parallel over vipsthumbnail + vips gaussblur, in one run.

    python3 Benchmarks/peers/peer_batch.py [--photos 200] [--trials 3] [--jobs N] [--json OUT]
    python3 Benchmarks/peers/peer_batch.py --resume-check 10000     # the second, journal-only run, timed
    python3 Benchmarks/peers/peer_batch.py --memory-mix             # one 43 MP photo among 200 small: peak RSS

The job: `--photos` (200) 12 MP phone JPEGs to 1170x2532 `thin` backgrounds, JPEG q90. The photos are the two
in /work/shared/photos (apples_4032x3024.jpg, table_3024x4032.jpg), hard-linked (copied where a link fails)
under distinct names into a few folders, one nested, of a temporary directory made for the run and removed
after it (never inside the repository).

- ours: `blurtool batch SRC -o DEST --material thin --size 1170x2532 -j N --quiet`, one process: the folder walked
  recursively, `DEST/<folder>/<stem>-thin.jpg` written for each photo, the whole material (resize, blur,
  saturation, tints, dither). Its peak memory is the process's maximum RSS (wait4's rusage).
- peer: what a user would write instead, GNU `parallel -j N` running per photo
      vipsthumbnail PHOTO --size 1170x2532 --smartcrop centre -o SHM/SLOT.v
      vips gaussblur SHM/SLOT.v 'DEST/<folder>/<stem>-thin.jpg[Q=90,subsample-mode=on]' SIGMA
           --min-ampl 0.005 --precision approximate
  (aspect fill to the frame, the intermediate uncompressed in tmpfs, one file per job slot; the blur writes the
  JPEG itself). It blurs only, no saturation or tints: it does less work than ours. SIGMA is read from ours
  (`blurtool PHOTO --material thin --size 1170x2532 --verbose`: 25 pt at 3 px/pt, 75 px). libvips' `sigma` is
  the Gaussian's σ; its mask is cut where exp(-x²/2σ²) falls below `min-ampl` (default 0.2: 1.79σ, a visibly
  narrow blur, 36 dB against a true Gaussian), so 0.005 (3.25σ; ours truncates at 4σ). In libvips' default
  integer precision the mask is rounded to integers with a peak of 20, which zeroes every tap below 0.025 (the
  blur then reaches 2.71σ whatever min-ampl is), and libvips 8.14's vector path refuses a mask this wide ("too
  inaccurate"; VIPS_INFO=1 shows "convi: using C path"): 6-7 s a photo on two cores. `approximate` (box sums)
  is 14x faster at 52.6 dB inner PSNR, against 54.7 for integer and 54.3 for ours (the apples photo, against a
  float Gaussian, a 4σ border left out). `--vips-precision integer` times libvips' default. At Q90 libvips'
  `auto` subsampling would write 4:4:4; `subsample-mode=on` writes 4:2:0 as ours does. Output folders are made
  before the clock starts (ours makes its own while timed). libvips threads: its default (one per CPU in
  each process) unless `--vips-concurrency`.
  Its peak memory: the largest single process of the timed run's tree (wait4 on parallel: vips, sh and
  parallel's perl alike), and, from an untimed pass over 4 photos with each vips process under
  /usr/bin/time, the largest vipsthumbnail and gaussblur processes, and parallel's own.

The two pipelines alternate over `--trials` (3), each into a fresh output folder; printed per trial: wall time
of the whole pipeline, photos/s, ours/peer (photos/s; above 1: ours is faster); then the medians and the median
of the trials' ratios. Outputs are checked (every file there, 1170x2532) after each run, untimed. The header
names the CPU, its vector extensions, ours' build and route, libvips' and parallel's versions and the load.

`--resume-check N` (off by default): N small JPEGs (32x24, three distinct ones hard-linked N times, 100 a
folder, folders two deep), `blurtool batch` over them once (untimed, `--resume-size`, default 32x24, so the
first run is quick; the journal and the outputs are what the second run checks), then the identical command
again `--trials` times, timed: every output exists, the journal matches, nothing is redone (the outputs'
mtimes are checked unchanged). Target: under 2 s.

`--memory-mix`: one 43 MP JPEG (7600x5700, the apples photo upscaled by `vips resize`, q90) among
`--mix-small` (200) 600x400 ones (the coffee photo, hard-linked), `blurtool batch` over them: its peak RSS,
beside the same batch without the large photo and a single `blurtool LARGE --material thin` of it, for each of
`--mix-sizes` (default `1170x2532,native`): at 1170x2532 the large JPEG is decoded at 1/8 (DCT scaling: the
σ 75 blur hides the detail), so it weighs little; `native` (no --size: every output its photo's size, σ 365 px
for the large one) still decodes it at 1/8 but makes, tints and encodes a 43 MP output.

With either of the last two, only they run. Needs Python's standard library, and Debian's libvips-tools,
parallel and time (`apt-get install -y libvips-tools parallel time`). Without `blurtool batch` (or the binary),
the rows for ours read "unavailable" and the peer still runs.
"""
import argparse
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from machine import describe, summary

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PHOTOS = "/work/shared/photos"
SOURCES = ("apples_4032x3024.jpg", "table_3024x4032.jpg")
SMALL_SOURCE = "coffee_600x400.jpg"
THIN_POINTS = 25.0      # the thin material's blur in points (`blurtool materials`), if --verbose does not say
SCREEN_POINTS = 390.0   # a phone screen's shorter side in points: 1170 px is 3 px/pt
LARGE = (7600, 5700)    # 43.3 MP, the apples photo's 4:3 exactly (scale 1.88492…)
EX_USAGE, EX_NOINPUT, EX_UNAVAILABLE, EX_SOFTWARE = 64, 66, 69, 70
TIME = "/usr/bin/time"


# --- processes ------------------------------------------------------------------------------------------------

def run_measured(command, cwd=None, env=None):
    """(seconds, max RSS in KiB, stdout, stderr) of one process and what it waited for; it must succeed.
    wait4's rusage is the child's own, its ru_maxrss the largest single process of its tree (Linux keeps the
    largest of a process and its waited-for descendants), in KiB."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    if process.returncode != 0:
        tail = (stderr.strip() or stdout.strip())[-600:]
        raise RuntimeError(f"{os.path.basename(command[0])} exited {process.returncode}: {tail}")
    return seconds, usage.ru_maxrss, stdout, stderr


def output_of(command):
    """stdout + stderr of a command, or None where it cannot run."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return (done.stdout + done.stderr).strip()


def uptime():
    """`uptime`'s line: the load averages (others' work shows in the timings)."""
    line = output_of(["uptime"])
    return line or "load average: " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


# --- files ----------------------------------------------------------------------------------------------------

def jpeg_size(path):
    """(width, height) from a JPEG's SOF marker, or None."""
    try:
        with open(path, "rb") as f:
            data = f.read(1 << 16)
    except OSError:
        return None
    if data[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        length = int.from_bytes(data[i + 2:i + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            return int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
        i += 2 + length
    return None


def place(source, target):
    """A hard link to `source` at `target`, or a copy where linking fails (another file system, no permission)."""
    os.makedirs(os.path.dirname(target), exist_ok=True)
    try:
        os.link(source, target)
        return "link"
    except OSError:
        shutil.copyfile(source, target)
        return "copy"


def make_set(root, count, sources, folders):
    """`count` photos under `root`, the sources in turn, spread over `folders` (relative paths); returns the
    photos' relative paths and how they were placed."""
    relatives, how = [], set()
    for i in range(count):
        relative = os.path.join(folders[i % len(folders)], f"IMG_{i + 1:05d}.jpg")
        how.add(place(sources[i % len(sources)], os.path.join(root, relative)))
        relatives.append(relative)
    return relatives, "hard links" if how == {"link"} else "copies" if how == {"copy"} else "links and copies"


def expected_output(relative):
    """Where batch writes a photo's background: the same folder, `<stem>-thin.jpg`."""
    folder, name = os.path.split(relative)
    return os.path.join(folder, os.path.splitext(name)[0] + "-thin.jpg")


def check_outputs(dest, relatives, size, sizes=True, since=None):
    """None when every photo's output is in `dest` (a `size` JPEG, with `sizes`; written at or after the
    time.time() `since`, if given: a run that skipped work would not be timed as one that did it), else what is
    wrong."""
    missing, wrong, old = [], [], []
    for relative in relatives:
        path = os.path.join(dest, expected_output(relative))
        if not os.path.isfile(path):
            missing.append(expected_output(relative))
        elif sizes and jpeg_size(path) != size:
            wrong.append(f"{expected_output(relative)} is {jpeg_size(path)}")
        elif since is not None and os.stat(path).st_mtime < since - 1:
            old.append(expected_output(relative))
    if missing:
        return f"{len(missing)} of {len(relatives)} outputs missing (first {missing[0]})"
    if wrong:
        return f"{len(wrong)} of {len(relatives)} outputs not {size[0]}x{size[1]} (first {wrong[0]})"
    if old:
        return f"{len(old)} of {len(relatives)} outputs older than the run (first {old[0]}): work was skipped"
    return None


def fresh_dir(parent, name):
    path = os.path.join(parent, name)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


# --- ours -----------------------------------------------------------------------------------------------------

def ours_info(args, photo):
    """blurtool's version, whether it has `batch`, and σ and route from one photo `--verbose`."""
    info = {"binary": args.ours, "version": None, "batch": False, "sigma_px": None, "route": None}
    if not os.access(args.ours, os.X_OK):
        info["why_unavailable"] = f"no {args.ours} (make release)"
        return info
    info["version"] = output_of([args.ours, "--version"])
    help_text = output_of([args.ours, "batch", "--help"]) or ""
    info["batch"] = "batch" in help_text.lower()
    if not info["batch"]:
        info["why_unavailable"] = "this blurtool has no batch subcommand"
    with tempfile.TemporaryDirectory(prefix="peer_batch-verbose-") as scratch:
        try:
            _, _, _, stderr = run_measured([args.ours, photo, "--material", "thin", "--size",
                                            f"{args.width}x{args.height}", "-o", os.path.join(scratch, "x.jpg"),
                                            "--verbose"])
        except (RuntimeError, OSError) as error:
            info["verbose_error"] = str(error)
            return info
    found = re.search(r"σ ([\d.]+) px \((.*)\), read", stderr)
    if found:
        info["sigma_px"], info["route"] = float(found.group(1)), found.group(2)
    info["verbose"] = stderr.strip()
    return info


def ours_command(args, source, dest, size=None):
    return [args.ours, "batch", source, "-o", dest, "--material", "thin",
            "--size", size or f"{args.width}x{args.height}", "-j", str(args.jobs), "--quiet"]


# --- peer -----------------------------------------------------------------------------------------------------

def peer_job(args, sigma, shm, dest, wrap=None):
    """The per-photo command parallel runs (in SRC; {} the photo, {.} it without .jpg, {%} the job slot)."""
    intermediate = shlex.quote(os.path.join(shm, "slot")) + "{%}.v"
    timing = (lambda step: f"{TIME} -f %M -a -o {shlex.quote(os.path.join(wrap, step))}.{{%}} ") if wrap else \
        (lambda step: "")
    thumbnail = (f"{timing('thumbnail')}vipsthumbnail {{}} --size {args.width}x{args.height} --smartcrop centre "
                 f"-o {intermediate}")
    blur = (f"{timing('gaussblur')}vips gaussblur {intermediate} {shlex.quote(dest + '/')}{{.}}"
            f"'-thin.jpg[Q=90,subsample-mode=on]' {sigma:g} --min-ampl {args.min_ampl:g} "
            f"--precision {args.vips_precision}")
    return f"{thumbnail} && {blur}"


def peer_command(args, job, listing, jobs=None):
    return ["parallel", "--will-cite", "-j", str(jobs or args.jobs), "--halt", "now,fail=1", "-a", listing, job]


def peer_env(args):
    env = dict(os.environ, PARALLEL_SHELL="/bin/sh")
    if args.vips_concurrency:
        env["VIPS_CONCURRENCY"] = str(args.vips_concurrency)
    return env


def make_output_dirs(dest, relatives):
    for folder in sorted({os.path.dirname(r) for r in relatives}):
        os.makedirs(os.path.join(dest, folder), exist_ok=True)


def peer_memory(args, sigma, work, shm, src, relatives, listing_path):
    """Untimed: each vips process of 4 photos (both sources) under /usr/bin/time, and parallel on its own."""
    report = {}
    if not os.access(TIME, os.X_OK):
        report["note"] = f"no {TIME} (apt-get install time): per-step peak unknown"
        return report
    rss_dir = fresh_dir(work, "peer-rss")
    dest = fresh_dir(work, "peer-rss-out")
    few = relatives[:4]
    with open(listing_path, "w") as f:
        f.write("".join(r + "\n" for r in few))
    make_output_dirs(dest, few)
    run_measured(peer_command(args, peer_job(args, sigma, shm, dest, wrap=rss_dir), listing_path),
                 cwd=src, env=peer_env(args))
    for step in ("thumbnail", "gaussblur"):
        values = []
        for name in os.listdir(rss_dir):
            if name.startswith(step + "."):
                with open(os.path.join(rss_dir, name)) as f:
                    values += [int(line) for line in f if line.strip().isdigit()]
        report[f"{step}_max_rss_kib"] = max(values) if values else None
        report[f"{step}_processes"] = len(values)
    _, report["parallel_alone_max_rss_kib"], _, _ = run_measured(
        ["parallel", "--will-cite", "-j", str(args.jobs), "true", ":::", "1", "2"], env=peer_env(args))
    shutil.rmtree(rss_dir, ignore_errors=True)
    shutil.rmtree(dest, ignore_errors=True)
    return report


def vips_start_ms(photo):
    """Median of 5 `vipsheader PHOTO`: what starting a vips process costs (the peer starts two a photo)."""
    times = []
    for _ in range(5):
        seconds, _, _, _ = run_measured(["vipsheader", photo])
        times.append(seconds * 1000)
    return statistics.median(times)


# --- the three modes ------------------------------------------------------------------------------------------

FOLDERS = ("2023/summer", "2023/winter", "2024", "2024/party/phone", "misc")


def throughput(args, work, shm, ours):
    sources = [os.path.join(args.photos_dir, name) for name in SOURCES]
    src = os.path.join(work, "photos")
    relatives, placed = make_set(src, args.photos, sources, FOLDERS)
    listing = os.path.join(work, "photos.txt")
    with open(listing, "w") as f:
        f.write("".join(r + "\n" for r in relatives))
    size = (args.width, args.height)
    sigma = ours["sigma_px"] or THIN_POINTS * args.width / SCREEN_POINTS
    dest_peer, dest_ours = os.path.join(work, "out-peer"), os.path.join(work, "out-ours")
    job = peer_job(args, sigma, shm, dest_peer)
    report = {"photos": args.photos, "placed": placed, "folders": list(FOLDERS), "sigma_px": sigma,
              "sigma_from": "blurtool --verbose" if ours["sigma_px"] else "25 pt x 3 px/pt (no --verbose line)",
              "peer_command": shlex.join(peer_command(args, "JOB", "LIST")),
              "peer_job": job.replace(shlex.quote(dest_peer + "/"), "DEST/").replace(
                  shlex.quote(os.path.join(shm, "slot")), "SHM/slot"),
              "ours_command": shlex.join(ours_command(args, "SRC", "DEST")), "trials": []}
    report["vips_start_ms"] = vips_start_ms(sources[0])
    with_ours = ours["batch"]
    for trial in range(args.trials):
        order = ["ours", "peer"] if trial % 2 == 0 else ["peer", "ours"]
        row = {"first": order[0] if with_ours else "peer"}
        for side in order:
            if side == "ours" and not with_ours:
                continue
            print(f"peer_batch: trial {trial + 1}/{args.trials}, {side}", file=sys.stderr)
            started = time.time()
            if side == "ours":
                shutil.rmtree(dest_ours, ignore_errors=True)
                seconds, rss, _, _ = run_measured(ours_command(args, src, dest_ours))
                problem = check_outputs(dest_ours, relatives, size, since=started)
                shutil.rmtree(dest_ours, ignore_errors=True)
            else:
                fresh_dir(work, "out-peer")
                make_output_dirs(dest_peer, relatives)
                seconds, rss, _, _ = run_measured(peer_command(args, job, listing), cwd=src, env=peer_env(args))
                problem = check_outputs(dest_peer, relatives, size, since=started)
                shutil.rmtree(dest_peer, ignore_errors=True)
            if problem:
                raise RuntimeError(f"{side}: {problem}")
            row[side] = {"seconds": seconds, "photos_per_second": args.photos / seconds, "max_rss_kib": rss}
        if with_ours:
            row["ratio"] = row["ours"]["photos_per_second"] / row["peer"]["photos_per_second"]
        report["trials"].append(row)
    print("peer_batch: peer memory, 4 photos untimed", file=sys.stderr)
    report["peer_memory"] = peer_memory(args, sigma, work, shm, src, relatives, os.path.join(work, "few.txt"))
    trials = report["trials"]
    for side in ("ours", "peer"):
        if side in trials[0]:
            seconds = statistics.median(t[side]["seconds"] for t in trials)
            report[side] = {"median_seconds": seconds, "photos_per_second": args.photos / seconds,
                            "max_rss_kib": max(t[side]["max_rss_kib"] for t in trials)}
    if with_ours:
        report["median_ratio"] = statistics.median(t["ratio"] for t in trials)
    return report


def small_photos(args, work, count):
    """Three distinct 32x24 JPEGs made from the photos (vipsthumbnail, else ffmpeg)."""
    made = []
    for k, name in enumerate((SMALL_SOURCE,) + SOURCES):
        source, target = os.path.join(args.photos_dir, name), os.path.join(work, f"small-{k}.jpg")
        try:
            run_measured(["vipsthumbnail", source, "--size", "32x24", "--smartcrop", "centre", "-o",
                          target + "[Q=90]"])
        except (RuntimeError, OSError):
            run_measured(["ffmpeg", "-v", "error", "-y", "-i", source, "-vf",
                          "scale=32:24:force_original_aspect_ratio=increase,crop=32:24", "-q:v", "3", target])
        made.append(target)
    return made[:count] if count < len(made) else made


def resume_check(args, work, ours):
    count = args.resume_check
    sources = small_photos(args, work, count)
    src = os.path.join(work, "small")
    relatives, how = [], set()
    for i in range(count):
        relative = os.path.join(f"d{i // 1000:02d}", f"e{i // 100 % 10}", f"P{i:05d}.jpg")
        how.add(place(sources[i % len(sources)], os.path.join(src, relative)))
        relatives.append(relative)
    report = {"photos": count, "folders": len({os.path.dirname(r) for r in relatives}), "size": args.resume_size,
              "placed": "hard links" if how == {"link"} else "copies or links"}
    if not ours["batch"]:
        report["unavailable"] = ours.get("why_unavailable")
        return report
    dest = os.path.join(work, "small-out")
    command = ours_command(args, src, dest, size=args.resume_size)
    report["command"] = shlex.join(ours_command(args, "SRC", "DEST", size=args.resume_size))
    print(f"peer_batch: resume check, first run over {count} photos (untimed)", file=sys.stderr)
    report["first_seconds"], report["first_max_rss_kib"], _, _ = run_measured(command)
    problem = check_outputs(dest, relatives, None, sizes=False)
    if problem:
        raise RuntimeError(f"resume check, first run: {problem}")

    def newest():
        return max(os.stat(os.path.join(dest, expected_output(r))).st_mtime_ns for r in relatives)

    before = newest()
    runs = []
    for trial in range(args.trials):
        print(f"peer_batch: resume check, second run {trial + 1}/{args.trials}", file=sys.stderr)
        seconds, rss, _, _ = run_measured(command)
        runs.append({"seconds": seconds, "max_rss_kib": rss})
    report["reruns"] = runs
    report["rerun_median_seconds"] = statistics.median(r["seconds"] for r in runs)
    report["outputs_untouched"] = newest() == before
    return report


def memory_mix(args, work, ours):
    large = os.path.join(work, "large.jpg")
    apples = os.path.join(args.photos_dir, SOURCES[0])
    print(f"peer_batch: memory mix, making the {LARGE[0]}x{LARGE[1]} photo", file=sys.stderr)
    run_measured(["vips", "resize", apples, large + "[Q=90]", repr(LARGE[0] / 4032)])
    if jpeg_size(large) != LARGE:
        raise RuntimeError(f"vips resize made {jpeg_size(large)}, not {LARGE}")
    small = os.path.join(args.photos_dir, SMALL_SOURCE)
    src, src_small = os.path.join(work, "mix"), os.path.join(work, "mix-small")
    relatives, placed = make_set(src, args.mix_small, [small], FOLDERS)
    make_set(src_small, args.mix_small, [small], FOLDERS)
    middle = os.path.join(FOLDERS[1], "IMG_large.jpg")
    place(large, os.path.join(src, middle))
    report = {"large": f"{LARGE[0]}x{LARGE[1]} ({LARGE[0] * LARGE[1] / 1e6:.1f} MP, "
                       f"{os.path.getsize(large) / 1e6:.1f} MB)", "small": args.mix_small,
              "small_photo": f"{SMALL_SOURCE} ({placed})", "sizes": args.mix_sizes}
    if not ours["batch"]:
        report["unavailable"] = ours.get("why_unavailable")
        return report
    runs = []
    for frame in args.mix_sizes:
        # native: no --size, every output the size of its photo (a 43 MP output for the large one).
        size_options = ["--size", frame] if frame != "native" else []
        cases = [("mix", src, relatives + [middle]), ("small only", src_small, relatives)]
        for name, folder, expect in cases:
            dest = os.path.join(work, "mix-out")
            shutil.rmtree(dest, ignore_errors=True)
            print(f"peer_batch: memory mix, batch over {name}, {frame}", file=sys.stderr)
            command = ours_command(args, folder, dest)
            command[command.index("--size"):command.index("--size") + 2] = size_options
            seconds, rss, _, _ = run_measured(command)
            expected_size = tuple(int(x) for x in frame.split("x")) if frame != "native" else None
            problem = check_outputs(dest, expect, expected_size, sizes=expected_size is not None)
            if not problem and frame == "native" and name == "mix":
                got = jpeg_size(os.path.join(dest, expected_output(middle)))
                problem = None if got == LARGE else f"the large photo's output is {got}"
            shutil.rmtree(dest, ignore_errors=True)
            if problem:
                raise RuntimeError(f"memory mix ({name}, {frame}): {problem}")
            runs.append({"set": name, "size": frame, "photos": len(expect), "seconds": seconds, "max_rss_kib": rss,
                         "command": shlex.join(command[:2] + ["SRC", "-o", "DEST"] + command[5:])})
        command = [args.ours, large, "--material", "thin", *size_options, "-o", os.path.join(work, "large-thin.jpg")]
        seconds, rss, _, _ = run_measured(command)
        runs.append({"set": "large alone", "size": frame, "photos": 1, "seconds": seconds, "max_rss_kib": rss,
                     "command": shlex.join([args.ours, "LARGE", *command[2:-2], "-o", "OUT.jpg"])})
    report["runs"] = runs
    return report


# --- report ---------------------------------------------------------------------------------------------------

def mib(kib):
    return f"{kib / 1024:.0f} MiB" if kib is not None else "?"


def print_report(report):
    ours = report["ours"]
    print(f"peer_batch: {report['job']}")
    print(f"CPU: {summary(report['cpu'])}")
    print(f"ours: {ours['version'] or 'unavailable'}"
          + (f"; one photo --verbose: σ {ours['sigma_px']:g} px ({ours['route']})" if ours.get("route") else "")
          + ("" if ours["batch"] else f"; batch unavailable: {ours.get('why_unavailable')}"))
    print(f"peer: {report['vips_version']}; {report['parallel_version']}; {report['jobs']} jobs"
          f"{'; VIPS_CONCURRENCY=' + str(report['vips_concurrency']) if report['vips_concurrency'] else ''}")
    print(f"uptime: {report['uptime_before']}")
    t = report.get("throughput")
    if t:
        print()
        print(f"{t['photos']} photos ({t['placed']} of {', '.join(SOURCES)}) in {len(t['folders'])} folders; "
              f"σ {t['sigma_px']:g} px from {t['sigma_from']}")
        print(f"  ours: {t['ours_command']}")
        print(f"  peer: {t['peer_command']}   (in SRC; LIST the photos, one a line; JOB:)")
        print(f"        {t['peer_job']}")
        print("  The peer blurs only (no saturation, no tints): it does less work; ours does the whole material.")
        print(f"  A vips process costs {t['vips_start_ms']:.0f} ms to start (`vipsheader`, median of 5); "
              "the peer starts two a photo.")
        print()
        print("| trial | first | ours s | peer s | ours photos/s | peer photos/s | ours/peer |")
        print("|---|---|---|---|---|---|---|")
        for i, row in enumerate(t["trials"]):
            o, p = row.get("ours"), row["peer"]
            print(f"| {i + 1} | {row['first']} | {o['seconds']:.2f} | {p['seconds']:.2f} | "
                  f"{o['photos_per_second']:.2f} | {p['photos_per_second']:.2f} | {row['ratio']:.2f}x |" if o else
                  f"| {i + 1} | peer | unavailable | {p['seconds']:.2f} | unavailable | "
                  f"{p['photos_per_second']:.2f} | |")
        line = f"median: peer {t['peer']['median_seconds']:.2f} s ({t['peer']['photos_per_second']:.2f} photos/s)"
        if "ours" in t:
            line = (f"median: ours {t['ours']['median_seconds']:.2f} s ({t['ours']['photos_per_second']:.2f} "
                    f"photos/s), {line[8:]}; median of the trials' ours/peer {t['median_ratio']:.2f}x "
                    "(above 1: ours is faster)")
        print(line)
        m = t["peer_memory"]
        peak = (f"ours: blurtool's max RSS {mib(t['ours']['max_rss_kib'])}" if "ours" in t else
                "ours: unavailable")
        print(f"peak memory, {peak}; peer: the largest single process of the timed runs' tree "
              f"{mib(t['peer']['max_rss_kib'])}" + (
                  f" (untimed 4-photo pass: vipsthumbnail {mib(m.get('thumbnail_max_rss_kib'))}, "
                  f"vips gaussblur {mib(m.get('gaussblur_max_rss_kib'))}, parallel's perl "
                  f"{mib(m.get('parallel_alone_max_rss_kib'))})" if "note" not in m else f" ({m['note']})"))
    r = report.get("resume_check")
    if r:
        print()
        print(f"resume check: {r['photos']} photos of 32x24 ({r['placed']}), folders: {r['folders']}, "
              f"--size {r['size']}")
        if "unavailable" in r:
            print(f"  ours: unavailable ({r['unavailable']})")
        else:
            print(f"  {r['command']}")
            print(f"  first run {r['first_seconds']:.2f} s (untimed for the figure), max RSS "
                  f"{mib(r['first_max_rss_kib'])}")
            runs = ", ".join(f"{x['seconds']:.3f}" for x in r["reruns"])
            verdict = "under" if r["rerun_median_seconds"] < 2 else "OVER"
            print(f"  second run: {runs} s; median {r['rerun_median_seconds']:.3f} s ({verdict} the 2 s target); "
                  f"max RSS {mib(max(x['max_rss_kib'] for x in r['reruns']))}; outputs untouched: "
                  f"{'yes' if r['outputs_untouched'] else 'NO (something was rewritten)'}")
    x = report.get("memory_mix")
    if x:
        print()
        print(f"memory mix: one {x['large']} among {x['small']} {x['small_photo']}; ours' peak RSS "
              "(\"small only\": the same set without the large photo; \"large alone\": one blurtool process)")
        if "unavailable" in x:
            print(f"  ours: unavailable ({x['unavailable']})")
        else:
            print("| set | --size | photos | s | peak RSS | command |")
            print("|---|---|---|---|---|---|")
            for run in x["runs"]:
                print(f"| {run['set']} | {run['size']} | {run['photos']} | {run['seconds']:.2f} | "
                      f"{mib(run['max_rss_kib'])} | `{run['command']}` |")
    print(f"uptime after: {report['uptime_after']}")


class Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(EX_USAGE, f"peer_batch: {message}\n")


def parse_args(argv):
    p = Parser(description=__doc__.splitlines()[0])
    p.add_argument("--photos", type=int, default=200, help="photos in the set (default: %(default)s)")
    p.add_argument("--trials", type=int, default=3, help="alternating runs of each pipeline (default: %(default)s)")
    p.add_argument("--jobs", type=int, default=os.cpu_count(), help="-j for both (default: the CPUs, %(default)s)")
    p.add_argument("--size", default="1170x2532", help="WIDTHxHEIGHT of the backgrounds (default: %(default)s)")
    p.add_argument("--photos-dir", default=PHOTOS, help="where the 12 MP photos are (default: %(default)s)")
    p.add_argument("--ours", default=os.path.join(ROOT, ".build", "release", "blurtool"))
    p.add_argument("--min-ampl", type=float, default=0.005, help="vips gaussblur --min-ampl (default: %(default)s)")
    p.add_argument("--vips-precision", default="approximate", choices=["integer", "float", "approximate"],
                   help="vips gaussblur --precision (default: %(default)s; libvips' own default is integer)")
    p.add_argument("--vips-concurrency", type=int, help="VIPS_CONCURRENCY for the peer (default: libvips')")
    p.add_argument("--resume-check", type=int, metavar="N", help="time the second batch run over N small photos")
    p.add_argument("--resume-size", default="32x24", help="--size for the resume check (default: %(default)s)")
    p.add_argument("--memory-mix", action="store_true", help="peak RSS with one 43 MP photo among small ones")
    p.add_argument("--mix-small", type=int, default=200, help="small photos in the memory mix (default: %(default)s)")
    p.add_argument("--mix-sizes", default="1170x2532,native",
                   help="--size of the memory mix runs, native for none (default: %(default)s)")
    p.add_argument("--json", help="write every figure to this file")
    args = p.parse_args(argv)
    size = re.fullmatch(r"(\d+)x(\d+)", args.size)
    args.mix_sizes = [x for x in args.mix_sizes.split(",") if x]
    if not size or not re.fullmatch(r"\d+x\d+", args.resume_size) or \
            not all(x == "native" or re.fullmatch(r"\d+x\d+", x) for x in args.mix_sizes):
        p.error("--size and --resume-size take WIDTHxHEIGHT, --mix-sizes WIDTHxHEIGHT or native, comma-separated")
    args.width, args.height = int(size.group(1)), int(size.group(2))
    if args.photos < 1 or args.trials < 1 or args.jobs < 1 or args.mix_small < 1 or \
            (args.resume_check is not None and args.resume_check < 1) or not 0 < args.min_ampl <= 1:
        p.error("--photos, --trials, --jobs, --mix-small and --resume-check take 1 or more; 0 < --min-ampl <= 1")
    return args


def main(argv):
    args = parse_args(argv)
    missing = [tool for tool in ("vips", "vipsthumbnail", "vipsheader", "parallel") if not shutil.which(tool)]
    if missing:
        print(f"peer_batch: needs {', '.join(missing)}: apt-get install -y libvips-tools parallel time",
              file=sys.stderr)
        return EX_UNAVAILABLE
    for name in SOURCES + (SMALL_SOURCE,):
        if not os.path.isfile(os.path.join(args.photos_dir, name)):
            print(f"peer_batch: no {os.path.join(args.photos_dir, name)} (--photos-dir)", file=sys.stderr)
            return EX_NOINPUT
    modes = args.resume_check is not None or args.memory_mix
    job = " and ".join(name for name, on in (("resume check", args.resume_check is not None),
                                              ("memory mix", args.memory_mix)) if on) if modes else \
        f"{args.photos} 12 MP phone JPEGs to {args.width}x{args.height} thin backgrounds, JPEG q90"
    report = {"job": job, "cpu": describe(os.path.dirname(args.ours)),
              "jobs": args.jobs, "vips_concurrency": args.vips_concurrency,
              "vips_version": (output_of(["vips", "--version"]) or "vips ?").splitlines()[0],
              "parallel_version": (output_of(["parallel", "--version"]) or "parallel ?").splitlines()[0],
              "vips_precision": args.vips_precision, "min_ampl": args.min_ampl, "uptime_before": uptime()}
    work = tempfile.mkdtemp(prefix="peer_batch-")
    shm = tempfile.mkdtemp(prefix="peer_batch-", dir="/dev/shm") if os.path.isdir("/dev/shm") else \
        os.path.join(work, "shm")
    os.makedirs(shm, exist_ok=True)
    try:
        report["ours"] = ours = ours_info(args, os.path.join(args.photos_dir, SOURCES[0]))
        if not modes:
            report["throughput"] = throughput(args, work, shm, ours)
        if args.resume_check is not None:
            report["resume_check"] = resume_check(args, work, ours)
        if args.memory_mix:
            report["memory_mix"] = memory_mix(args, work, ours)
        report["uptime_after"] = uptime()
        print_report(report)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(report, f, indent=1)
            print(f"wrote {args.json}")
    except OSError as error:
        print(f"peer_batch: {error}", file=sys.stderr)
        return EX_NOINPUT
    except RuntimeError as error:
        print(f"peer_batch: {error}", file=sys.stderr)
        return EX_SOFTWARE
    finally:
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(shm, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
