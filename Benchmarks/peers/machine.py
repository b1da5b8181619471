"""What a peer script's figures were measured on, printed and written with them (shared by the peer scripts)."""
import os
import platform


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
