#!/usr/bin/env python3
"""Seeded command-line fuzzer for blurtool.

Runs the built binary with generated hostile argument lists (sizes, numbers, strings with control characters and
huge lengths, special files, missing files, every option, `compose` and `animate` with generated scene files), each under a time
cap and a memory cap, and reports every outcome a user should never see:

  crash       killed by a signal, or exit 132/134/139 or any status >= 128
  hang        the time cap ran out (a job that asked for many pixels is reported as "slow" instead)
  exit        a status outside {0, 64, 65, 66, 70, 73, 74}; 70 ("internal error") is reported too
  stderr      a line that is not "blurtool: ..." / "Usage: ...", raw control bytes, or a line over 2000 bytes
  stdout      anything but output paths (or the image, when the image goes to stdout); an image on stdout that
              does not end where a JPEG or PNG ends; anything at all on a failure
  leftover    a temporary file (.NAME.blurtool-PID.tmp) left after the run
  special     a FIFO, device or symbolic link replaced by the run

Every case is generated from (seed, index) alone, so `--only N` reruns case N of a seed exactly. Files live in one
temporary directory, removed at the end (`--keep` leaves it for reproducing a finding).

A quarter of the cases animate the real animated scenes (fixtures/*.json, copied beside their images), mutated as
Tools/scenefuzz mutates them (fixture_mutator.py: curves, springs, keyframes, repeat counts, text, emitters, 3D
transforms, curls, transition layers), with --fps, --duration, --at, --loop, --lossy, --scale, --threads up to 32
and every output; `transition FROM TO` runs every --style with hostile --size, --duration, --fps and --curve.

Time: a case that runs past --timeout (20 s) is run again with --recheck seconds (300: README bounds a whole
animation's or transition's work at about four minutes on one core); one that ends then is "slow" (within the
documented bound, reported but not a failure), one that does not is a "hang". --recheck 0 reports every timeout as
a hang at once.

  make fuzz-cli SEED=1 COUNT=300
  python3 Tests/Fuzz/fuzz_cli.py --binary .build/debug/blurtool --seed 1 --count 300
"""

import argparse
import json
import os
import random
import resource
import shlex
import shutil
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

import fixture_mutator

ALLOWED_EXITS = {0, 64, 65, 66, 70, 73, 74}
REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

OPTIONS_WITH_VALUES = [
    "--material", "-m", "--appearance", "-a", "--dim", "--sigma", "-s", "--saturation", "--tint", "--grain",
    "--pixels-per-point", "--edge", "--precision", "--format", "-f", "--quality", "-q", "--chroma",
    "--png-compression", "--max-pixels", "--size", "--fit", "--filter", "--background", "--transform",
    "--threads", "-j", "--output", "-o",
]
FLAGS = ["--progressive", "--optimize", "--no-auto-orient", "--lenient", "--verbose", "-v", "--dither"]
MATERIALS = ["thin", "ultraThin", "regular", "thick", "ultra-thick", "bar", "chrome", "systemThinMaterialDark",
             "extraLight", "dark", "light", "prominent"]
CONTROL = ["\n", "\r", "\x1b[31m", "\x1b]0;title\x07", "\x07", "\x7f", "\x9b", "\u2028", "\u202e", "\t", "\x08"]
HOSTILE_NUMBERS = ["0", "1", "-1", "0.5", ".5", "5.", "1e9", "1e400", "-1e400", "1e-400", "nan", "NaN", "inf",
                   "-inf", "0x1p3", "0x10", "+5", "\uff15", "\u0665", " 5", "5 ", "", "-", ".", "e5", "1e",
                   "9" * 40, "0" * 300 + "1", "1,5", "1_000", "65500", "65501", "256", "257", "100000", "-0"]


class Case:
    """One run: the arguments, standard input, and what the checks need to know."""

    def __init__(self, arguments, stdin=None, image_to_stdout=False, text_stdout=False, pixels=0,
                 binary_stdout=False):
        self.arguments = arguments
        self.stdin = stdin  # None (empty), a path, or bytes
        self.image_to_stdout = image_to_stdout
        self.text_stdout = text_stdout
        self.binary_stdout = binary_stdout  # a video stream (y4m) may go to stdout: any bytes on success
        self.pixels = pixels  # the largest frame asked for, to tell a slow large job from a hang
        self.kind = "other"  # which generator made it, for the outcome table
        self.scratch = []  # files the case wrote for itself (scenes), removed after it unless --keep


class Fixtures:
    """The files cases point at, made once per run in the temporary directory."""

    def __init__(self, root, binary=None):
        self.root = root
        self.binary = binary
        self.jpeg = self._copy(os.path.join(REPOSITORY, "fixtures", "coffee.jpg"), "photo.jpg")
        self.png = self._write("small.png", png_bytes(48, 32, alpha=True))
        self.opaque_png = self._write("opaque.png", png_bytes(64, 40, alpha=False))
        with open(self.jpeg, "rb") as file:
            jpeg = file.read()
        self.truncated = self._write("cut.jpg", jpeg[: len(jpeg) // 2])
        self.garbage = self._write("garbage.png", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
        self.empty = self._write("empty.jpg", b"")
        # Headers that claim far more pixels than the data holds (decompression bombs).
        self.bomb = self._write("bomb.png", png_header_only(40000, 40000))
        self.bomb_small = self._write("bomb-small.png", png_header_only(12000, 9000))
        self.text = self._write("notes.jpg", b"not an image\n")
        # The animated fixtures, written beside the images they name when a case animates one.
        self.scenes, images = fixture_mutator.load_fixtures(os.path.join(REPOSITORY, "fixtures"))
        for name in images:
            self._copy(os.path.join(REPOSITORY, "fixtures", name), name)
        self.table = os.path.join(root, "table.jpg")
        self.directory = os.path.join(root, "dir")
        os.mkdir(self.directory)
        self.missing = os.path.join(root, "missing.jpg")
        self.fifo_in = os.path.join(root, "fifo-in")  # a partner thread writes the JPEG into it
        self.fifo = os.path.join(root, "fifo-out")  # a partner thread drains it
        os.mkfifo(self.fifo_in)
        os.mkfifo(self.fifo)
        self.link = os.path.join(root, "link.jpg")
        os.symlink("photo.jpg", self.link)
        self.output_link = os.path.join(root, "link-out.png")
        os.symlink("dir/link-target.png", self.output_link)
        self.dangling = os.path.join(root, "dangling.png")
        self.loop = os.path.join(root, "loop.png")
        self.stdout_link = os.path.join(root, "stdout-link")  # a private /dev/stdout
        os.symlink("/proc/self/fd/1", self.stdout_link)
        self.null = self._device("null", 3)
        self.full = self._device("full", 7)
        self.inputs = [self.jpeg, self.png, self.opaque_png, self.truncated, self.garbage, self.empty, self.text,
                       self.bomb, self.bomb_small,
                       self.directory, self.missing, self.fifo_in, self.link, self.dangling, self.loop, "/dev/zero",
                       "/dev/null", self.null, "-"]

    def draws(self, scene):
        """Whether the binary draws the scene's first frame, tiny (a mutated fixture's pre-check)."""
        try:
            completed = subprocess.run([self.binary, "animate", scene, "--at", "0", "--scale", "0.01", "-o",
                                        os.path.join(self.root, "precheck.png")], stdin=subprocess.DEVNULL,
                                       capture_output=True, timeout=20, preexec_fn=limits(4 << 30))
            return completed.returncode == 0
        except subprocess.TimeoutExpired:
            return False

    def reset_links(self):
        """Recreates the special outputs a run may legitimately have filled (a dangling link's target)."""
        for path in (self.dangling, self.loop):
            if os.path.lexists(path):
                os.unlink(path)
        os.symlink("dangling-target.png", self.dangling)
        os.symlink("loop.png", self.loop)
        target = os.path.join(self.root, "dangling-target.png")
        if os.path.exists(target):
            os.unlink(target)

    def special_files_intact(self):
        checks = [(self.fifo, stat.S_ISFIFO, os.lstat), (self.fifo_in, stat.S_ISFIFO, os.lstat),
                  (self.link, stat.S_ISLNK, os.lstat), (self.output_link, stat.S_ISLNK, os.lstat),
                  (self.dangling, stat.S_ISLNK, os.lstat), (self.null, stat.S_ISCHR, os.stat),
                  (self.full, stat.S_ISCHR, os.stat), (self.stdout_link, stat.S_ISLNK, os.lstat),
                  ("/dev/null", stat.S_ISCHR, os.stat)]
        return [path for path, test, get in checks if not test(get(path).st_mode)]

    def _copy(self, source, name):
        path = os.path.join(self.root, name)
        shutil.copyfile(source, path)
        return path

    def _write(self, name, data):
        path = os.path.join(self.root, name)
        with open(path, "wb") as file:
            file.write(data)
        return path

    def _device(self, name, minor):
        """A private twin of /dev/null or /dev/full (root can make one), so a blurtool that replaced its output
        instead of writing to it would harm nothing outside the temporary directory."""
        path = os.path.join(self.root, name)
        try:
            os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
            return path
        except (PermissionError, OSError):
            return "/dev/" + name  # without root, the real device cannot be replaced either


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_header_only(width, height):
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", zlib.compress(b"\x00" * 100))
            + png_chunk(b"IEND", b""))


def png_bytes(width, height, alpha):
    """A small gradient PNG, written here so the fuzzer needs no image library."""
    channels = 4 if alpha else 3
    rows = b"".join(
        b"\x00" + bytes((x * 5 + y * 3 + c * 40) % 256 if c < 3 else (x * 255 // width) for x in range(width)
                        for c in range(channels))
        for y in range(height))

    chunk = png_chunk
    header = struct.pack(">IIBBBBB", width, height, 8, 6 if alpha else 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


class Generator:
    """Hostile but reproducible argument lists: every choice comes from one Random seeded per case."""

    def __init__(self, random_source, fixtures):
        self.r = random_source
        self.f = fixtures
        # Most cases keep their values valid, so runs get past the parser into decoding, rendering and writing;
        # the rest draw every value from the hostile lists.
        self.hostile = self.r.random() < 0.35

    def valid(self):
        return not self.hostile and self.r.random() < 0.9

    def text(self):
        kind = self.r.random()
        if kind < 0.3:
            return self.r.choice(MATERIALS)
        if kind < 0.6:
            return self.r.choice(MATERIALS) + self.r.choice(CONTROL) + self.r.choice(MATERIALS)
        if kind < 0.75:
            return "".join(self.r.choice(CONTROL + ["a", "#", "\u00e9", "\uff26"]) for _ in range(self.r.randint(1, 12)))
        if kind < 0.9:
            return self.r.choice("ab#\x1b\n") * self.r.choice([300, 5000, 100_000])
        return self.r.choice(["", " ", "-", "--", "=", "\u200b"])

    def number(self, low=0.0, high=100.0, integer=False):
        if self.valid():
            value = self.r.uniform(low, min(high, low + 50))
            return str(int(value)) if integer or self.r.random() < 0.5 else f"{value:.3g}"
        kind = self.r.random()
        if kind < 0.4:
            return self.r.choice(HOSTILE_NUMBERS)
        if kind < 0.7:
            return str(self.r.choice([low, high, (low + high) / 2, round(self.r.uniform(low, high), 3)]))
        if kind < 0.9:
            return str(self.r.randint(int(low) - 2, int(high) + 2))
        return self.text()

    def size(self):
        kind = self.r.random()
        if self.valid():
            width, height = self.r.choice([(self.r.randint(1, 400), self.r.randint(1, 400)),
                                           (self.r.randint(1, 2500), self.r.randint(1, 2500))])
            return f"{width}x{height}", width * height
        if kind < 0.5:
            width, height = self.r.randint(1, 300), self.r.randint(1, 300)
        elif kind < 0.7:
            width, height = self.r.choice([(60000, 60000), (20000, 20000), (65500, 2), (2, 65500), (65501, 1),
                                           (1170, 2532), (10001, 10000), (1, 1)])
        else:
            separator = self.r.choice(["x", "X", "*", "\uff58", "x", ""])
            first, second = self.number(0, 70000), self.number(0, 70000)
            return first + separator + second, 0
        return f"{width}x{height}", width * height

    def transform(self):
        functions = ["translate({a},{b})", "scale({a})", "scale({a},{b})", "rotate({a}deg)", "rotate({a})",
                     "skewX({a}deg)", "matrix({a},0,0,{b},1,1)", "translateX({a}px)", "scaleY({a})",
                     "rotate({a}turn)"]
        values = ["0", "1", "-1", "0.5", "2", "1e-9", "1e9", "1e308", "nan", "inf", "90", "0x1p3", "10", "-3"]
        if self.valid():
            values = ["0", "1", "-1", "0.5", "2", "0.01", "90", "10", "-3", "30", "100"]
        parts = [self.r.choice(functions).format(a=self.r.choice(values), b=self.r.choice(values))
                 for _ in range(self.r.randint(1, 3))]
        if self.r.random() < 0.2:
            parts.append(self.text())
        return " ".join(parts)

    def option_value(self, name):
        if name in ("--material", "-m"):
            return self.r.choice(MATERIALS) if self.valid() or self.r.random() < 0.5 else self.text()
        if name in ("--size",):
            return self.size()[0]
        if name in ("--transform",):
            return self.transform()
        if name in ("--tint", "--background") and self.valid():
            return self.r.choice(["#fff", "#00ff0080", "black", "clear", "#123456"])
        if name in ("--tint", "--background"):
            return self.r.choice(["#fff", "#ffffff80", "#\uff26\uff26\uff26", "red", "clear", "#12345", "#ggg",
                                  "#\u0661\u0662\u0663", "RED", "#FFF\n", self.text()])
        valid_choices = {"--edge": ["mirror", "clamp", "wrap", "transparent"], "--precision": ["exact", "fast", "auto"],
                         "--fit": ["fill", "fit", "stretch"], "--filter": ["nearest", "bilinear", "lanczos3", "mitchell"],
                         "--format": ["png", "jpeg"], "-f": ["png", "jpg"], "--appearance": ["light", "dark"],
                         "-a": ["dark"], "--chroma": ["444", "420"]}
        if name in valid_choices and self.valid():
            return self.r.choice(valid_choices[name])
        if name in valid_choices:
            return self.r.choice(["mirror", "clamp", "wrap", "transparent", "exact", "fast", "auto", "fill",
                                  "fit", "stretch", "nearest", "bilinear", "lanczos3", "png", "jpeg", "jpg",
                                  "light", "dark", "444", "420", "4:2:0", self.text()])
        ranges = {"--dim": (0, 1), "--sigma": (0, 200), "-s": (0, 200), "--saturation": (0, 10),
                  "--grain": (0, 1), "--pixels-per-point": (0.01, 100)}
        whole = {"--quality": (1, 100), "-q": (1, 100), "--png-compression": (0, 9), "--threads": (1, 8),
                 "-j": (1, 8)}
        if name in ranges:
            return self.number(*ranges[name])
        if name in whole:
            return self.number(*whole[name], integer=True)
        if name == "--max-pixels":
            return str(self.r.choice([1, 5000, 10**6, 10**8, 10**9])) if self.valid() else self.number(1, 1e12)
        return self.output()

    def output(self):
        root = self.f.root
        return self.r.choice([
            os.path.join(root, "out.png"), os.path.join(root, "out.jpg"), "-", self.f.null, self.f.fifo,
            self.f.output_link, self.f.dangling, self.f.loop, self.f.directory, self.f.directory + "/",
            os.path.join(root, "no", "such", "dir.png"), os.path.join(root, "x" * 300 + ".png"),
            os.path.join(root, "\u00e9" * 125 + ".jpg"), os.path.join(root, "a\nb\x1b.png"), self.f.full, self.f.stdout_link,
            os.path.join(root, "out.bmp"), self.f.link, "/proc/self/mem", os.path.join(root, "dir", "..", "o.png"),
        ])

    def render_case(self):
        arguments = []
        inputs = [self.r.choice(self.f.inputs)]
        if self.r.random() < 0.1:
            inputs += [self.r.choice(self.f.inputs) for _ in range(self.r.randint(1, 3))]
        arguments += inputs
        pixels = 0
        if self.valid() or self.r.random() < 0.8:
            arguments += self.r.choice([["-m", self.r.choice(MATERIALS)], ["--sigma", self.r.choice(["0", "2", "30"])],
                                        ["--size", "64x64"]] + ([] if self.valid() else [[]]))
        for _ in range(self.r.randint(0, 6)):
            if self.r.random() < 0.8:
                name = self.r.choice(OPTIONS_WITH_VALUES)
                value = self.option_value(name)
                if name == "--size":
                    pixels = max(pixels, self.size_pixels(value))
                form = 0 if self.valid() else self.r.random()
                if form < 0.7:
                    arguments += [name, value]
                elif form < 0.9 and name.startswith("--"):
                    arguments.append(name + "=" + value)
                else:
                    arguments.append(name)  # a missing value
            elif self.valid():
                arguments.append(self.r.choice(FLAGS))
            else:
                arguments.append(self.r.choice(FLAGS + ["--nope", "-x", "--", "-", "--help=1", "---"]))
        if self.r.random() < 0.3 and "--max-pixels" not in arguments:
            arguments += ["--max-pixels", str(self.r.choice([1, 100, 5000, 1_000_000]))]
        stdin = None
        if "-" in inputs:
            stdin = self.r.choice([self.f.jpeg, self.f.png, "/dev/zero", b"", b"\xff\xd8\xff" + b"\x00" * 100])
        output = outputs_of(arguments)
        image_to_stdout = output in ("-", self.f.stdout_link) or (output is None and inputs == ["-"])
        # Every input is rendered at the frame size (or its own, 240,000 pixels for the photo).
        return Case(arguments, stdin=stdin, image_to_stdout=image_to_stdout,
                    pixels=max(pixels, 240_000) * len(inputs))

    def size_pixels(self, value):
        parts = value.lower().split("x")
        if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
            return int(parts[0]) * int(parts[1])
        return 0

    def animations(self, kind):
        """A layer's animations, from what a seed writes to hostile values, keys and curves."""
        r = self.r
        valid = self.valid()
        properties = {"image": ["opacity", "transform", "frame", "image", "cornerRadius", "rotation"],
                      "color": ["opacity", "color", "frame"], "shape": ["opacity", "color", "cornerRadius"],
                      "backdrop": ["effect", "blur", "dim", "frame"], "group": ["opacity", "transform", "rotation"],
                      "text": ["opacity", "color", "transform", "frame", "rotation"]}
        curves = ["easeInOut", "linear", "cubic-bezier(0.57,-0.4,0.96,0.87)", "steps(4, jump-end)", "bouncy",
                  "spring(damping: 0.2, velocity: 0.3, duration: 0.8)", "spring(mass: 1, stiffness: 100, damping: 10)",
                  "spring(response: 0.5, dampingFraction: 0.825)"]
        if not valid:
            curves += ["cubic-bezier(2,0,1,1)", "spring(mass: 1e300)", "spring(damping: 0, stiffness: 1e-9)",
                       "steps(0)", "steps(1000000000)", "spring(response: 1e-12)", self.text(), "ease" * 1000]

        def value(prop):
            if prop in ("opacity", "effect", "dim"):
                return r.choice([0, 1, 0.5] if valid else [0, 1, -1, 2, 1e308, "1", None])
            if prop in ("blur", "cornerRadius", "rotation"):
                return r.choice([0, 4, 30, 360] if valid else [0, -5, 1e9, 1e308, 350, "x"])
            if prop == "transform":
                return self.transform() if not valid else r.choice(["scale(1)", "translate(600, 0) scale(5)",
                                                                     "rotate(350deg)", "scale(0.1)"])
            if prop == "frame":
                return {"x": r.choice([0, 5, -1e9]), "y": 3, "width": r.choice([10, 0, 1e9]), "height": 8}
            if prop == "color":
                return r.choice(["#fff", "red", "#12", 5])
            return r.choice(["photo.jpg", "small.png"] if valid else ["missing.png", "/dev/zero", "cut.jpg", 3])

        result = []
        for _ in range(r.randint(1, 3 if valid else 40)):
            prop = r.choice(properties.get(kind, ["opacity"]) + ([] if valid else ["nope", 7]))
            animation = {"property": prop, "curve": r.choice(curves)}
            if r.random() < 0.8:
                animation["to"] = value(prop)
            else:
                count = r.choice([1, 3] if valid else [0, 2, 5000])
                animation["keyframes"] = [{"time": r.choice([0.5, 1, 0, 2, -1]) if not valid else (i + 1) / count,
                                           "value": value(prop)} for i in range(count)]
            if r.random() < 0.3:
                animation["from"] = value(prop)
            animation["duration"] = r.choice([0.2, 0.4, 0.55] if valid else [0, 0.2, 1e9, 3600, -1, "1"])
            for key, choices in [("delay", [0.1, 0, 1e300, -1]), ("repeatCount", [2, "forever", 0, 1e9]),
                                 ("autoreverses", [True, 1]), ("delayFactor", [0.5, 1, 2]),
                                 ("velocity", [0.3, [1, 0.2], [1e9, 1], "x"])]:
                if r.random() < 0.15:
                    animation[key] = choices[0] if valid else r.choice(choices)
            result.append(animation)
        return result

    def scene(self, animated=False):
        """A scene file, from valid to hostile: odd sizes, colours, names, nesting, paths, numbers."""
        r = self.r

        def number():
            if self.valid():
                return r.choice([0, 1, 0.5, 20, 39, 10, 3, 12.5])
            return r.choice([0, 1, -1, 0.5, 20, 390, 1e9, 1e308, -1e308, 65500, 10, 3]) if r.random() < 0.8 else \
                r.choice(["1", None, True, [], {}])

        def color():
            if self.valid():
                return r.choice(["#fff", "red", "clear", "#ffffff80", "transparent", "#204060"])
            return r.choice(["#fff", "red", "#ＦＦＦ", "#12", "clear", "#ffffff80", "transparent", self.text(), 7])

        def layer(depth):
            kind = r.choice(["image", "color", "shape", "backdrop", "group", "text"] + ([] if self.valid() else ["nope", 5]))
            result = {"type": kind}
            if kind == "image":
                result["path"] = r.choice(["photo.jpg", "small.png", "opaque.png", "link.jpg"] if self.valid() else [
                    "photo.jpg", "small.png", "cut.jpg", "missing.png", "/dev/zero", "dir", "fifo-never",
                    "garbage.png", "link.jpg", "loop.png", "/dev/null", "empty.jpg", self.text()])
                if r.random() < 0.3:
                    result["fit"] = r.choice(["fill", "fit", "stretch", self.text()])
            elif kind in ("color", "shape"):
                result["color"] = color()
                if r.random() < 0.3:
                    result["shape"] = r.choice(["capsule", "rectangle", self.text()])
            elif kind == "backdrop":
                result["material"] = r.choice(MATERIALS) if r.random() < 0.7 else self.text()
                if r.random() < 0.3:
                    result["blur"] = number()
            elif kind == "group":
                result["layers"] = [layer(depth + 1) for _ in range(r.randint(0, 2 if depth < 6 else 0))]
            elif kind == "text":
                result["text"] = r.choice(["Rate it", "Awesome", "", "fi AV ffl", "שלום עולם", "مرحبا بالعالم",
                                           "✈ → 漢字", "Show More " * 40]) if self.valid() else self.text()
                if r.random() < 0.4:
                    result["style"] = r.choice(["headline", "largeTitle", "caption2"] if self.valid() else
                                               ["headline", "huge", self.text(), 3])
                if r.random() < 0.4:
                    result["size"] = r.choice([12, 17, 34]) if self.valid() else r.choice(
                        [0, -1, 1e-300, 16384, 16385, 1e308, "17", None])
                if r.random() < 0.3:
                    result["font"] = r.choice(["Inter", "DejaVu Sans", "DejaVu Serif"] if self.valid() else [
                        "Helvetca", "", "photo.jpg", "garbage.png", "/dev/zero", "dir", "fifo-never", "missing.ttf",
                        "/dev/null", self.text(), 7])
                if r.random() < 0.3:
                    result["weight"] = r.choice(["bold", "ultraLight", "black"] if self.valid() else ["bold", "fat", 700])
                if r.random() < 0.3:
                    result["lineLimit"] = r.choice([0, 1, 2]) if self.valid() else r.choice([-1, 1.5, 1e9, 2, "1"])
                if r.random() < 0.2:
                    result["alignment"] = r.choice(["leading", "center", "trailing", "natural"] +
                                                   ([] if self.valid() else ["left", self.text()]))
                if r.random() < 0.2:
                    result["tracking"] = r.choice([-1, 0.5, 2]) if self.valid() else number()
                if r.random() < 0.2:
                    result["lineSpacing"] = r.choice([0, 4]) if self.valid() else number()
                if r.random() < 0.3:
                    result["color"] = color()
            if r.random() < 0.3:
                result["frame"] = {"x": number(), "y": number(), "width": number(), "height": number()}
            if r.random() < 0.2:
                result["blend"] = r.choice(["multiply", "screen", "plusDarker", "copy", self.text()])
            if r.random() < 0.2:
                result["transform"] = self.transform()
            if r.random() < 0.2:
                result["opacity"] = number()
            if r.random() < 0.1 and not self.valid():
                result[self.text()] = 1
            if animated and r.random() < 0.6:
                result["animations"] = self.animations(kind)
            return result

        sizes = [(39, 84), (100, 60), (1, 1), (7, 300)]
        if not self.valid():
            sizes += [(390, 844), (0, 5), (1e9, 1e9), (65500, 65500), (-3, 4), (4000, 4000), (0.4, 0.4)]
        width, height = r.choice(sizes)
        canvas = {"width": width, "height": height}
        if r.random() < 0.5:
            canvas["scale"] = r.choice([1, 2, 3] if self.valid() else [1, 2, 3, 0, -1, 1e9, 0.001])
        if r.random() < 0.5:
            canvas["background"] = color()
        document = {"canvas": canvas, "layers": [layer(0) for _ in range(r.randint(0, 4))]}
        text = json.dumps(document, ensure_ascii=r.random() < 0.5)
        mutation = 1 if self.valid() else r.random()
        if mutation < 0.1:
            text = "[" * r.choice([65, 1000, 100_000]) + "]" * 3
        elif mutation < 0.2:
            cut = r.randint(0, len(text))
            text = text[:cut]
        elif mutation < 0.25:
            text = text.replace("}", "}" + ', "canvas": 1', 1)
        elif mutation < 0.3:
            text = "\ufeff" + text
        return text, abs(width * height) * (canvas.get("scale", 1) if isinstance(canvas.get("scale", 1), (int, float)) else 1) ** 2

    def compose_case(self, index):
        text, pixels = self.scene()
        path = os.path.join(self.f.root, f"scene-{index}.json")
        with open(path, "w", encoding="utf-8", errors="surrogatepass") as file:
            file.write(text)
        scene = path if self.r.random() < 0.85 else "-"
        arguments = ["compose", scene]
        for _ in range(self.r.randint(0, 3)):
            name = self.r.choice(["--output", "-o", "--format", "--quality", "--max-pixels", "--threads",
                                  "--precision", "--png-compression", "-v"] + ([] if self.valid() else ["--size", "-m"]))
            arguments += [name] if name == "-v" else [name, self.option_value(name)]
        output = outputs_of(arguments)
        case = Case(arguments, stdin=path if scene == "-" else None,
                    image_to_stdout=output in ("-", self.f.stdout_link) or (output is None and scene == "-"),
                    pixels=pixels)
        case.scratch.append(path)
        return case

    def animate_case(self, index):
        text, pixels = self.scene(animated=True)
        path = os.path.join(self.f.root, f"animated-{index}.json")
        with open(path, "w", encoding="utf-8", errors="surrogatepass") as file:
            file.write(text)
        r = self.r
        root = self.f.root
        arguments = ["animate", path]
        output = r.choice([os.path.join(root, "anim.png"), os.path.join(root, "anim.webp"),
                           os.path.join(root, "frames") + "/", os.path.join(root, "anim.y4m"), "-",
                           os.path.join(root, "anim.gif"), self.f.null, self.f.directory, None])
        if output is not None:
            arguments += ["-o", output]
        options = {"--fps": ["30", "12", "0", "1000", "nan", "1e9", "-5", self.text()],
                   "--duration": ["0.3", "0", "3600", "-1", "1e300", self.text()],
                   "--at": ["0.1", "0", "3600", "-0", "inf", self.text()],
                   "--loop": ["0", "2", "70000", "-1"], "--scale": ["1", "0.1", "16", "0", "1e9", self.text()],
                   "--format": ["apng", "webp", "frames", "y4m", "png", "jpeg", "gif", self.text()],
                   "--quality": ["80", "0", "101"], "--threads": ["1", "2", "0", "300"],
                   "--png-compression": ["0", "6", "9", "10"]}
        flags = ["--lossy", "--benchmark", "-v"]
        for _ in range(r.randint(0, 3)):
            if r.random() < 0.25:
                arguments.append(r.choice(flags))
            else:
                name = r.choice(list(options))
                arguments += [name, options[name][0] if self.valid() else r.choice(options[name])]
        to_stdout = outputs_of(arguments) == "-" or outputs_of(arguments) in (self.f.stdout_link,)
        # 30 fps for a few seconds of a small canvas at most, unless the arguments ask for more.
        case = Case(arguments, binary_stdout=to_stdout, text_stdout=not to_stdout, pixels=pixels * 30)
        case.scratch.append(path)
        return case

    def transition_case(self):
        """blurtool transition FROM TO: the fixtures' photos and hostile inputs, every style README lists, hostile
        sizes (10000x10000 among them), durations, frame rates and curves."""
        r = self.r
        root = self.f.root
        styles = ["fade", "fadeblack", "fadewhite", "dissolve", "wipeleft", "wiperight", "wipeup", "wipedown",
                  "slideleft", "slideright", "slideup", "slidedown", "smoothleft", "smoothright", "circleopen",
                  "circleclose", "radial", "pixelize", "hblur", "zoomin", "curlup", "curldown", "material"]
        if r.random() < 0.03:  # the earlier hidden fuzzer's case, as it was written
            return Case(["transition", self.f.jpeg, self.f.table, "--size", "10000x10000", "-o",
                         os.path.join(root, "change.png")], text_stdout=True, pixels=10**8 * 61)
        photos = [self.f.jpeg, self.f.table, self.f.png, self.f.opaque_png]
        if self.valid():
            inputs = [r.choice(photos), r.choice(photos)]
        else:
            inputs = [r.choice(self.f.inputs + photos), r.choice(self.f.inputs + photos)]
        arguments = ["transition"] + inputs + ["--style",
                                               r.choice(styles) if self.valid() else r.choice(styles + ["cube", "", "Fade", self.text()])]
        output = r.choice([os.path.join(root, "change.png"), os.path.join(root, "change.apng"),
                           os.path.join(root, "change.webp"), os.path.join(root, "change-frames") + "/",
                           os.path.join(root, "change.y4m"), "-", self.f.null, self.f.directory, None])
        if output is not None:
            arguments += ["-o", output]
        mutator = fixture_mutator.FixtureMutator(r)
        valid = {"--fps": ["10", "5", "12"], "--duration": ["0.5", "1", "0.2"],
                 "--size": ["32x24", "40x30", "64x48", "7x300", "1x1"],
                 "--curve": ["easeInOut", "linear", "steps(3)", "bouncy", "spring(damping: 0.2, velocity: 0.3, duration: 0.8)",
                             "cubic-bezier(0.57, -0.4, 0.96, 0.87)", "spring(response: 0.5, dampingFraction: 0.825)"],
                 "--threads": ["1", "2", "4", "32"], "--max-pixels": ["1000000", "100000000"],
                 "--quality": ["80", "100"], "--loop": ["0", "2"]}
        hostile = {"--fps": ["1", "0.001", "1000", "240", "60", "0", "nan", "-1", "1e9", self.text()],
                   "--duration": ["0", "1e-9", "3600", "72", "-1", "nan", "inf", "1e300", self.text()],
                   "--size": ["10000x10000", "100000x100000", "0x5", "65500x2", "2x65500", "1170x2532", "4000x3000",
                              "1x10000", "10000x1", self.text()],
                   "--curve": [mutator.curve(), mutator.curve(), "steps(1000000000)", "ease" * 1000, self.text()],
                   "--threads": ["0", "33", "300", "-1"], "--max-pixels": ["100", "0", "1e12"],
                   "--quality": ["0", "101"], "--loop": ["65535", "65536", "-1"]}
        # Small frames unless the case asks otherwise: a fuzz case should take a moment, not minutes (a photo's own
        # size, 61 frames of a lossless WebP, takes half a minute: within the documented bound, but slow).
        if self.valid():
            arguments += ["--size", r.choice(valid["--size"]), "--fps", r.choice(valid["--fps"])]
        elif r.random() < 0.6:
            arguments += ["--size", r.choice(valid["--size"])]
        hostile_case = not self.valid()
        for _ in range(r.randint(0, 4)):
            if r.random() < 0.2:
                flags = ["--lossy", "--benchmark", "-v"]
                if not hostile_case:  # the flags that go with this output only, so the frames get drawn
                    flags = ["-v"] + (["--lossy"] if str(output).endswith(".webp") else []) + (
                        ["--benchmark"] if output is None else [])
                arguments.append(r.choice(flags))
            else:
                name = r.choice(list(valid))
                arguments += [name, r.choice(valid[name]) if self.valid() else r.choice(hostile[name] + valid[name])]
        to_stdout = outputs_of(arguments) == "-" or outputs_of(arguments) in (self.f.stdout_link,)
        return Case(arguments, binary_stdout=to_stdout, text_stdout=not to_stdout, pixels=40 * 30 * 10)

    def animate_fixture_case(self, index):
        """blurtool animate over one of the animated fixtures, mutated (fixture_mutator.py), written beside the
        images it names: every output, --fps, --duration, --at, --loop, --lossy, --scale, --threads up to 32."""
        r = self.r
        root = self.f.root
        path = os.path.join(root, f"fixture-{index}.json")
        # A mutation is refused whole for one value out of range, and most mutations could write one: a valid case
        # takes the first of up to four mutated scenes whose first frame the binary draws (one tiny frame each, not
        # checked), so that most get to the frames; the rest test the refusals.
        tries = 4 if self.valid() and r.random() < 0.7 else 1
        for attempt in range(tries):
            scene, pixels = fixture_mutator.FixtureMutator(r).scene(self.f.scenes)
            text = json.dumps(scene, ensure_ascii=r.random() < 0.3)
            if not self.valid() and r.random() < 0.1:
                text = text[:r.randint(0, len(text))]
            with open(path, "w", encoding="utf-8", errors="surrogatepass") as file:
                file.write(text)
            if attempt < tries - 1 and self.f.draws(path):
                break
        arguments = ["animate", path]
        at = r.random() < 0.2
        outputs = ([os.path.join(root, "still.png"), os.path.join(root, "still.jpg"), "-"] if at else
                   [os.path.join(root, "anim.png"), os.path.join(root, "anim.apng"), os.path.join(root, "anim.webp"),
                    os.path.join(root, "frames") + "/", os.path.join(root, "anim.y4m"), "-"])
        output = r.choice(outputs + [self.f.null, None] if not self.valid() else outputs)
        if output is not None:
            arguments += ["-o", output]
        if output == "-" and not at:
            arguments += ["--format", "y4m"]
        # 12 fps and more: an hour-long mutation is then past animate's 36,000 frames and refused at once (at 5 fps
        # it is drawn, 18,000 frames in about 100 s: within the documented bound, but a fuzz case should be quick).
        valid = {"--fps": ["12", "24", "30", "15"], "--duration": ["0.5", "1", "0.2"],
                 "--at": ["0", "0.1", "0.3", "1", "0.05"], "--loop": ["0", "1", "3"],
                 "--scale": ["0.1", "0.2", "0.25", "0.5"], "--threads": ["1", "2", "4", "8", "16", "32"],
                 "--quality": ["80", "100"], "--png-compression": ["0", "5", "9"]}
        hostile = {"--fps": ["60", "240", "1000", "0.001", "0", "nan", "-5", "1e9", self.text()],
                   "--duration": ["0", "3600", "72", "1e300", "-1", "inf", "1e-9", self.text()],
                   "--at": ["3599.5", "3600", "1e9", "inf", "-0", "nan", "72000000", "-1", self.text()],
                   "--loop": ["65535", "65536", "70000", "-1", "1e9"],
                   "--scale": ["1", "3", "16", "0", "1e-9", "1e9", "nan", self.text()],
                   "--threads": ["0", "33", "300", "-2"], "--quality": ["0", "101"], "--png-compression": ["10", "-1"]}
        if at:
            arguments += ["--at", r.choice(valid["--at"]) if self.valid() else r.choice(hostile["--at"])]
        # Mostly small and short, so a case takes a moment: a frame rate and a scale unless the case is hostile (a
        # tiny canvas, as the emitter flood's, keeps its own scale: a tenth of a point would be no pixels at all).
        if self.valid() and r.random() < 0.8 and pixels > 1000:
            arguments += ["--scale", r.choice(valid["--scale"])]
        if self.valid() and not at and r.random() < 0.8:
            arguments += ["--fps", r.choice(valid["--fps"])]
        hostile_case = not self.valid()
        for _ in range(r.randint(0, 4)):
            if r.random() < 0.25:
                flags = ["-v", "--lossy", "--benchmark"]
                if not hostile_case:  # the flags that go with this output only, so the frames get drawn
                    flags = ["-v"] + (["--lossy"] if str(output).endswith(".webp") else []) + (
                        ["--benchmark"] if output is None and not at else [])
                arguments.append(r.choice(flags))
            else:
                names = [n for n in valid if n != "--at" and (hostile_case or not at or n not in ("--duration",))]
                name = r.choice(names)
                arguments += [name, r.choice(valid[name]) if self.valid() else r.choice(hostile[name] + valid[name])]
        to_stdout = outputs_of(arguments) == "-"
        case = Case(arguments, image_to_stdout=to_stdout and at, binary_stdout=to_stdout and not at,
                    text_stdout=not to_stdout, pixels=pixels * 30)
        case.scratch.append(path)
        return case

    def other_case(self):
        choice = self.r.random()
        if choice < 0.4:
            return Case(["info"] + [self.r.choice(self.f.inputs) for _ in range(self.r.randint(1, 3))],
                        stdin=self.f.jpeg, text_stdout=True)
        if choice < 0.7:
            return Case([self.r.choice(["materials", "--help", "-h", "--version", "-V"])]
                        + [self.text() for _ in range(self.r.randint(0, 2))], text_stdout=True)
        return Case([self.text() for _ in range(self.r.randint(0, 4))], text_stdout=True)

    def case(self, index):
        """A quarter of the cases animate a mutated fixture and 15 % are photo transitions; the rest are the
        original mix of renders, compositions, generated animations and other commands."""
        choice = self.r.random()
        if choice < 0.35:
            kind, case = "render", self.render_case()
        elif choice < 0.45:
            kind, case = "compose", self.compose_case(index)
        elif choice < 0.52:
            kind, case = "animate (generated scene)", self.animate_case(index)
        elif choice < 0.77:
            kind, case = "animate (mutated fixture)", self.animate_fixture_case(index)
        elif choice < 0.92:
            kind, case = "transition", self.transition_case()
        else:
            kind, case = "other", self.other_case()
        case.kind = kind
        return case


def outputs_of(arguments):
    """The -o value the tool will see (the last one wins), or None."""
    output = None
    index = 0
    while index < len(arguments):
        argument = arguments[index]
        if argument == "--":
            break
        if argument in ("-o", "--output") and index + 1 < len(arguments):
            output = arguments[index + 1]
            index += 1
        elif argument.startswith("--output="):
            output = argument[len("--output="):]
        elif argument.startswith("-o") and len(argument) > 2:
            output = argument[2:]
        index += 1
    return output


def drain_fifo(path, stop):
    """Holds the output FIFO open for reading and drains it, so blurtool's open for writing never blocks and its
    writes never meet a closed pipe."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        while not stop.is_set():
            try:
                if not os.read(descriptor, 1 << 16):
                    time.sleep(0.005)  # no writer at the moment
            except BlockingIOError:
                time.sleep(0.005)
    finally:
        os.close(descriptor)


def feed_fifo(path, data, stop):
    """Writes `data` into the input FIFO for each blurtool that opens it, then closes it (the reader's EOF)."""
    while not stop.is_set():
        descriptor = os.open(path, os.O_WRONLY)  # blocks until a reader opens it
        try:
            if not stop.is_set():
                os.write(descriptor, data)
        except BrokenPipeError:
            pass
        finally:
            os.close(descriptor)


def limits(memory_bytes):
    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        os.nice(10)
    return apply


def has_raw_control(data):
    text = data.decode("utf-8", errors="replace")
    return any((ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F or c in "\u2028\u2029\u202e" for c in text)


def check(case, completed, timed_out, elapsed, fixtures, rechecked=False):
    """The findings for one run, as (kind, detail) pairs."""
    findings = []
    if timed_out and rechecked:
        return [("hang", f"no exit after {elapsed:.1f} s, past the documented bound ({case.pixels} pixels asked for)")]
    if timed_out:
        # A debug build takes about 10 s per million pixels of exact blur: past that a timeout is slowness.
        kind = "slow" if case.pixels > 1_000_000 else "hang"
        return [(kind, f"no exit after {elapsed:.1f} s ({case.pixels} pixels asked for)")]
    status = completed.returncode
    out, err = completed.stdout, completed.stderr
    if status < 0:
        findings.append(("crash", f"signal {-status} ({signal.Signals(-status).name})"))
    elif status >= 128:
        findings.append(("crash", f"exit {status}"))
    elif status not in ALLOWED_EXITS:
        findings.append(("exit", f"exit {status}"))
    elif status == 70:
        findings.append(("internal", "exit 70"))
    lines = err.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for line in lines:
        if not (line.startswith(b"blurtool: ") or line.startswith(b"Usage: ")):
            findings.append(("stderr", f"line not from blurtool: {line[:120]!r}"))
            break
    if has_raw_control(err):
        findings.append(("stderr", "raw control bytes"))
    if any(len(line) > 2000 for line in lines):
        findings.append(("stderr", f"a line of {max(len(line) for line in lines)} bytes"))
    if status != 0 and status < 128 and not lines:
        findings.append(("stderr", f"exit {status} without a message"))
    if case.binary_stdout:
        if status != 0 and out:
            findings.append(("stdout", f"{len(out)} bytes on a failure"))
    elif case.image_to_stdout:
        if status == 0 and not (is_whole_jpeg(out) or is_whole_png(out)):
            findings.append(("stdout", f"not exactly one image: {len(out)} bytes ending {out[-8:]!r}"))
        if status != 0 and out:
            findings.append(("stdout", f"{len(out)} bytes on a failure"))
    elif case.text_stdout:
        if has_raw_control(out):
            findings.append(("stdout", "raw control bytes in text"))
    else:
        for line in out.split(b"\n"):
            if line and not os.path.exists(line):
                findings.append(("stdout", f"not an output path: {line[:120]!r}"))
                break
    for directory, _, names in os.walk(fixtures.root):
        for name in names:
            if ".blurtool-" in name and name.endswith(".tmp"):
                findings.append(("leftover", os.path.join(directory, name)))
                os.unlink(os.path.join(directory, name))
    for path in fixtures.special_files_intact():
        findings.append(("special", f"{path} replaced"))
    return findings


def is_whole_jpeg(data):
    return data[:3] == b"\xff\xd8\xff" and data[-2:] == b"\xff\xd9"


def is_whole_png(data):
    return data[:8] == b"\x89PNG\r\n\x1a\n" and data[-12:] == b"\x00\x00\x00\x00IEND\xaeB`\x82"


def shell_line(case):
    line = shlex.join(["blurtool"] + case.arguments)
    if isinstance(case.stdin, str):
        line += " < " + shlex.quote(case.stdin)
    elif isinstance(case.stdin, bytes):
        line = f"printf %s {shlex.quote(case.stdin.decode('latin-1'))} | " + line
    return line if len(line) < 600 else line[:600] + f"… ({len(line)} characters)"


def run_case(binary, case, timeout, memory):
    stdin = subprocess.DEVNULL
    data = None
    if isinstance(case.stdin, str):
        stdin = open(case.stdin, "rb")
    elif isinstance(case.stdin, bytes):
        stdin, data = subprocess.PIPE, case.stdin
    start = time.time()
    try:
        process = subprocess.Popen([binary] + case.arguments, stdin=stdin, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, preexec_fn=limits(memory), start_new_session=True)
        try:
            out, err = process.communicate(data, timeout=timeout)
            return subprocess.CompletedProcess(case.arguments, process.returncode, out, err), False, time.time() - start
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            return None, True, time.time() - start
    finally:
        if stdin not in (subprocess.DEVNULL, subprocess.PIPE):
            stdin.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=os.path.join(REPOSITORY, ".build", "debug", "blurtool"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--only", type=int, help="run only case N of the seed")
    parser.add_argument("--timeout", type=float, default=20)
    parser.add_argument("--recheck", type=float, default=300,
                        help="a case past --timeout runs again with this cap: ending within it is slow, not a hang "
                             "(0: every timeout is reported at once, as before)")
    parser.add_argument("--memory", type=int, default=4 << 30, help="address-space cap in bytes (default 4 GiB)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    parser.add_argument("--quiet", action="store_true")
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    if not os.access(binary, os.X_OK):
        sys.exit(f"fuzz_cli: no blurtool binary at {binary}; run 'swift build' first")
    root = tempfile.mkdtemp(prefix="blurtool-fuzz-")
    fixtures = Fixtures(root, binary)
    stop = threading.Event()
    with open(fixtures.jpeg, "rb") as file:
        jpeg = file.read()
    threading.Thread(target=drain_fifo, args=(fixtures.fifo, stop), daemon=True).start()
    threading.Thread(target=feed_fifo, args=(fixtures.fifo_in, jpeg, stop), daemon=True).start()
    indices = [options.only] if options.only is not None else range(options.count)
    findings = []
    outcomes = {}
    by_kind = {}
    started = time.time()
    try:
        for index in indices:
            fixtures.reset_links()
            case = Generator(random.Random(f"{options.seed}/{index}"), fixtures).case(index)
            completed, timed_out, elapsed = run_case(binary, case, options.timeout, options.memory)
            slow = []
            if timed_out and options.recheck > 0:
                # Past the cap: run again under the documented bound; ending within it is slowness, not a hang.
                # The killed run's temporary file is SIGKILL's doing (nothing can clean up after it), not a leftover.
                for directory, _, names in os.walk(root):
                    for name in names:
                        if ".blurtool-" in name and name.endswith(".tmp"):
                            os.unlink(os.path.join(directory, name))
                fixtures.reset_links()
                completed, timed_out, elapsed = run_case(binary, case, options.recheck, options.memory)
                if not timed_out:
                    slow = [("slow", f"past the {options.timeout:g} s cap; ended in {elapsed:.1f} s (exit "
                                     f"{completed.returncode}), within the {options.recheck:g} s bound")]
            status = "timeout" if timed_out else completed.returncode
            outcomes[status] = outcomes.get(status, 0) + 1
            table = by_kind.setdefault(case.kind, {})
            table[status] = table.get(status, 0) + 1
            if not options.quiet and (index + 1) % 100 == 0:
                print(f"fuzz_cli: {index + 1} cases, {len(findings)} findings, {time.time() - started:.0f} s", flush=True)
            results = check(case, completed, timed_out, elapsed, fixtures, options.recheck > 0)
            for kind, detail in slow + results:
                findings.append((index, kind, detail, case))
                if not options.quiet:
                    print(f"[{index}] {kind}: {detail}\n    {shell_line(case)}", flush=True)
            if not options.quiet and completed is not None and options.only is not None:
                sys.stderr.write(completed.stderr.decode("utf-8", "replace")[:2000])
            if not options.keep:
                for path in case.scratch:
                    if os.path.exists(path):
                        os.unlink(path)
            for folder in ("frames", "change-frames"):  # numbered frames of this case: the next starts afresh
                shutil.rmtree(os.path.join(root, folder), ignore_errors=True)
    finally:
        stop.set()
        try:  # unblocks the feeder's open
            os.close(os.open(fixtures.fifo_in, os.O_RDONLY | os.O_NONBLOCK))
        except OSError:
            pass
        if options.keep:
            print(f"fuzz_cli: files kept in {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    summary = ", ".join(f"{key}: {value}" for key, value in sorted(outcomes.items(), key=lambda item: str(item[0])))
    kinds = {}
    for _, kind, _, _ in findings:
        kinds[kind] = kinds.get(kind, 0) + 1
    print(f"fuzz_cli: seed {options.seed}, {len(indices)} cases in {time.time() - started:.0f} s; exits {summary}")
    for kind, table in sorted(by_kind.items()):
        counts = ", ".join(f"{key}: {value}" for key, value in sorted(table.items(), key=lambda item: str(item[0])))
        print(f"  {kind}: {sum(table.values())} cases; exits {counts}")
    print("fuzz_cli: findings " + (", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) or "none"))
    # Slow large jobs are information, not failures: a debug build is slow at 10^8 pixels.
    sys.exit(1 if any(kind != "slow" for kind in kinds) else 0)


if __name__ == "__main__":
    main()
