#!/usr/bin/env bash
# Creates the two Python environments the peer benchmark (peer_blur.py) needs, at the repository root:
#   .venv-peers  OpenCV, pyvips + libvips binary wheel, Pillow, numpy, scipy, skia-python, pycairo
#                (pins: requirements.txt; pycairo compiles against Debian's libcairo2-dev)
#   .venv-simd   Pillow-SIMD built from source with AVX2, and numpy          (pin: "# simd:" line there)
# Pillow and Pillow-SIMD both install the package PIL, hence two venvs.
#
# Idempotent: a venv whose imports work and whose versions match the pins is left alone; a broken one
# is rebuilt. Installs the Debian build dependencies of Pillow-SIMD with apt-get when they are missing
# (through sudo only when not root). PYTHON=/path/to/python3 picks the interpreter; FORCE=1 rebuilds.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PYTHON=${PYTHON:-python3}
REQ="$HERE/requirements.txt"
PEERS="$ROOT/.venv-peers"
SIMD="$ROOT/.venv-simd"
SIMD_PIN=$(sed -n 's/^# simd: *//p' "$REQ")
NUMPY_PIN=$(grep '^numpy==' "$REQ")
PEER_PINS=$(grep -E '^[A-Za-z0-9_.-]+==' "$REQ" | tr '\n' ' ')
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo

log() { printf 'setup_venvs: %s\n' "$*"; }

# pins_ok PYTHON PIN...: true when every NAME==VERSION pin is what that interpreter has installed.
pins_ok() {
    local py=$1
    shift
    "$py" - "$@" <<'PY'
import sys
from importlib.metadata import PackageNotFoundError, version
bad = []
for pin in sys.argv[1:]:
    name, want = pin.split("==")
    try:
        have = version(name)
    except PackageNotFoundError:
        have = "missing"
    if have != want:
        bad.append(f"{name} {have} (want {want})")
if bad:
    print("  not as pinned: " + ", ".join(bad))
    sys.exit(1)
PY
}

peers_ok() {
    [ -x "$PEERS/bin/python" ] || return 1
    "$PEERS/bin/python" -c 'import cv2, numpy, scipy.fft, pyvips, cairo
from PIL import Image, ImageFilter
pyvips.Image.black(4, 4).gaussblur(1).avg()
Image.new("RGBA", (8, 8)).filter(ImageFilter.GaussianBlur(2))' || return 1
    # shellcheck disable=SC2086
    pins_ok "$PEERS/bin/python" $PEER_PINS
}

simd_ok() {
    [ -x "$SIMD/bin/python" ] || return 1
    "$SIMD/bin/python" -c 'import numpy
from importlib.metadata import PackageNotFoundError, version
from PIL import Image, ImageFilter
Image.new("RGBA", (8, 8)).filter(ImageFilter.GaussianBlur(2))
try:
    version("pillow")
    raise SystemExit("  plain Pillow is installed beside Pillow-SIMD")
except PackageNotFoundError:
    pass' || return 1
    pins_ok "$SIMD/bin/python" "$SIMD_PIN" "$NUMPY_PIN"
}

# Debian packages needed to compile Pillow-SIMD (zlib and libjpeg are required by its setup.py).
simd_build_deps() {
    local missing="" p
    command -v cc >/dev/null 2>&1 || missing="$missing build-essential"
    for p in libjpeg62-turbo-dev zlib1g-dev; do
        dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
    done
    # pyenv and python.org builds ship their headers; Debian's own python3 needs python3-dev.
    if ! "$PYTHON" -c 'import os, sysconfig, sys
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
        missing="$missing python3-dev"
    fi
    [ -z "$missing" ] && return 0
    log "installing build dependencies:$missing"
    $SUDO apt-get update -qq
    # Ubuntu names libjpeg-turbo's headers libjpeg-turbo8-dev.
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing \
        || $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
            $(echo $missing | sed 's/libjpeg62-turbo-dev/libjpeg-turbo8-dev/')
}

# Debian packages pycairo's build needs (cairo's headers and pkg-config to find them).
peers_build_deps() {
    local missing="" p
    command -v cc >/dev/null 2>&1 || missing="$missing build-essential"
    for p in libcairo2-dev pkg-config; do
        dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
    done
    [ -z "$missing" ] && return 0
    log "installing build dependencies:$missing"
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
}

if [ -n "${FORCE:-}" ]; then rm -rf "$PEERS" "$SIMD"; fi

if peers_ok; then
    log "$PEERS works, skipped"
else
    log "building $PEERS"
    peers_build_deps
    rm -rf "$PEERS"
    "$PYTHON" -m venv "$PEERS"
    nice -n 10 "$PEERS/bin/pip" install -q -r "$REQ"
    peers_ok || { log "$PEERS still fails its check"; exit 1; }
fi

if simd_ok; then
    log "$SIMD works, skipped"
else
    log "building $SIMD (compiles Pillow-SIMD with -mavx2: a minute or two)"
    simd_build_deps
    rm -rf "$SIMD"
    "$PYTHON" -m venv "$SIMD"
    "$SIMD/bin/pip" install -q "$NUMPY_PIN"
    # No wheel cache: a cached wheel could have been built with other flags.
    CC="cc -mavx2" nice -n 10 "$SIMD/bin/pip" install -q --no-cache-dir --no-binary pillow-simd "$SIMD_PIN"
    simd_ok || { log "$SIMD still fails its check"; exit 1; }
fi

"$PEERS/bin/python" -c 'import cv2, pyvips, PIL, numpy, scipy
print("setup_venvs: .venv-peers: opencv", cv2.__version__, "| pyvips", pyvips.__version__, "libvips",
      ".".join(str(pyvips.version(i)) for i in range(3)), "| pillow", PIL.__version__,
      "| numpy", numpy.__version__, "| scipy", scipy.__version__)'
"$SIMD/bin/python" -c 'import PIL, numpy
print("setup_venvs: .venv-simd: pillow-simd", PIL.__version__, "| numpy", numpy.__version__)'
