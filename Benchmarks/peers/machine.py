"""What a peer script's figures were measured on, printed and written with them (shared by the peer scripts)."""
import json
import os
import platform
import subprocess


def cpu():
    """The CPU model and the vector extensions it offers (from /proc/cpuinfo)."""
    info = {}
    with open("/proc/cpuinfo") as f:
        for key, _, value in (line.partition(":") for line in f):
            info.setdefault(key.strip(), value.strip())
    flags = set((info.get("flags") or info.get("Features") or "").split())
    wanted = ["sse4_2", "avx", "avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512_vnni", "asimd", "sve"]
    return {"model": info.get("model name", platform.machine()), "cores": os.cpu_count(),
            "vector": [x for x in wanted if x in flags]}


def describe(build_dir):
    """What a figure needs beside it so that runs on different machines are never compared by accident: the CPU
    model, its cores and vector extensions, the build of ours (tuned to the building CPU, or the default x86-64
    one, as blurbench reports it) and the time of one memory copy of a 12 MP RGBA image (the bandwidth yardstick:
    1.9 ms on one EPYC, 8.5 ms on a Xeon), from blurbench's `copy` case so that the same code measures it as our
    timings. Without blurbench in `build_dir` the build and the copy are None."""
    info = cpu()
    info.update(build=None, copy_12mp_ms=None)
    blurbench = os.path.join(build_dir, "blurbench")
    if not os.path.exists(blurbench):
        return info
    # No benchmark matches the filter: blurbench times only its copies of its generated 4032x3024 image.
    done = subprocess.run([blurbench, "--filter", "no benchmark", "--trials", "9", "--json"],
                          capture_output=True, text=True)
    if done.returncode == 0:
        report = json.loads(done.stdout)
        info.update(build=report.get("build"), copy_12mp_ms=report.get("copy_ms"))
    return info


def summary(info):
    """`describe`'s dict as one line for a peer script's header."""
    line = f"{info['model']} ({info['cores']} cores; {' '.join(info['vector'])})"
    if info.get("build"):
        line += f"; ours built {info['build']}"
    if info.get("copy_12mp_ms") is not None:
        line += f"; a 12 MP copy {info['copy_12mp_ms']:.2f} ms"
    return line
