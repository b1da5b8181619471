#!/usr/bin/env bash
# The C interface's tests against an installed prefix: `Tests/C/run.sh PREFIX WORK`. The references are what the
# installed blurtool command (the same Swift library) makes of the fixtures; the test program and the example are
# built through pkg-config alone, as a user would build them.
set -euo pipefail
prefix=$(cd "$1" && pwd)
work=$2
here=$(cd "$(dirname "$0")" && pwd)
fixtures=$(cd "$here/../../fixtures" && pwd)
mkdir -p "$work/references"
references=$(cd "$work/references" && pwd)
blurtool=$prefix/bin/blurtool
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig

"$blurtool" "$fixtures/coffee.jpg" --sigma 0 -o "$references/coffee.png"
"$blurtool" "$references/coffee.png" --sigma 3 -o "$references/blur3.png"
"$blurtool" "$references/coffee.png" --material thin -o "$references/thin.png"
"$blurtool" "$references/coffee.png" --material regular --appearance dark --dim 0.3 -o "$references/regular-dark-dim.png"
"$blurtool" "$references/coffee.png" --transform "matrix(0.8,0.3,-0.3,0.8,120,-40)" -o "$references/warp.png"
"$blurtool" animate "$fixtures/review-entrance.json" --at 0.5 -o "$references/scene-0.5.png"

flags="-std=c99 -Wall -Wextra -Werror -pedantic -O2"
# shellcheck disable=SC2046,SC2086
cc $flags "$here/capi_test.c" $(pkg-config --cflags --libs blurtool) -lm -lpthread -o "$work/capi_test"
# shellcheck disable=SC2046,SC2086
cc $flags "$here/../../examples/c/renderer.c" $(pkg-config --cflags --libs blurtool) -o "$work/renderer"
"$work/capi_test" "$fixtures" "$references"
"$work/renderer" "$fixtures/coffee.jpg" "$fixtures/review-entrance.json" "$work/renderer.png" 10 5
