"""The C interface's cost: a region blur called from C against the same call from Swift, trial by trial.

    python3 Benchmarks/capi/c_against_swift.py --library-prefix PREFIX [--input PHOTO] [--pairs N] [--threads N]

`region_blur` (built against PREFIX through pkg-config) and `blurbench --serve` each keep a decoded photo, a
destination and a workspace; each pair is one C trial then one Swift trial of the bottom third blurred at the same
σ, so both share the machine's state (see Benchmarks/peers/alternating.py). Above 1: the C call is slower.
"""
import argparse
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks", "peers"))
from alternating import Served, pinned  # noqa: E402
from machine import describe  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--library-prefix", required=True)
    parser.add_argument("--input", default=os.path.join(ROOT, "..", "shared", "photos", "apples_4032x3024.jpg"))
    parser.add_argument("--pairs", type=int, default=31)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    build = os.path.join(ROOT, ".build", "release")
    program = os.path.join(ROOT, ".build", "capi-bench", "region_blur")
    os.makedirs(os.path.dirname(program), exist_ok=True)
    environment = dict(os.environ, PKG_CONFIG_PATH=os.path.join(os.path.abspath(args.library_prefix), "lib", "pkgconfig"))
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "blurtool"], env=environment, check=True,
                           capture_output=True, text=True).stdout.split()
    subprocess.run(["cc", "-std=c99", "-O2", os.path.join(HERE, "region_blur.c"), *flags, "-o", program], check=True)

    machine = describe(build)
    print(f"CPU: {machine['model']}, {machine['cores']} cores, {' '.join(machine['vector'])}; build: {machine['build']}")
    print(f"input: {os.path.basename(args.input)}, the bottom third blurred, {args.threads} thread(s), {args.pairs} pairs")
    names = ["region-blur-sigma2-reuse", "region-blur-sigma30-reuse"]
    with pinned(args.threads):
        swift = Served([os.path.join(build, "blurbench"), "--input", args.input, "--threads", str(args.threads),
                        "--filter", "region-blur"])
        c = Served([program, args.input, str(args.threads)])
        with swift, c:
            for name in names:
                for _ in range(3):  # warm-up: the workspaces and destinations sized, the pages touched
                    c.trial(name), swift.trial(name)
                pairs = [(c.trial(name), swift.trial(name)) for _ in range(args.pairs)]
                ratio = statistics.median(from_c / from_swift for from_c, from_swift in pairs)
                print(f"{name}: C {statistics.median(p for p, _ in pairs):.2f} ms, Swift "
                      f"{statistics.median(s for _, s in pairs):.2f} ms, median pair ratio C/Swift {ratio:.3f}")


if __name__ == "__main__":
    main()
