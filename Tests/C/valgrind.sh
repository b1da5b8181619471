#!/usr/bin/env bash
# `Tests/C/valgrind.sh PREFIX WORK` after Tests/C/run.sh: memcheck over the C test program and the renderer example
# (no error, nothing definitely lost), then the example's frame loop at 2 and at 12 frames, which must make the same
# number of allocations (it allocates nothing after its first frame).
set -euo pipefail
work=$2
here=$(cd "$(dirname "$0")" && pwd)
fixtures=$(cd "$here/../../fixtures" && pwd)
memcheck=(valgrind --tool=memcheck --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite -q
    --suppressions="$here/valgrind.supp")
"${memcheck[@]}" "$work/capi_test" "$fixtures" "$work/references"
"${memcheck[@]}" "$work/renderer" "$fixtures/coffee.jpg" "$fixtures/review-entrance.json" "$work/valgrind.png" 3 2 >/dev/null
# The frame loop's allocations, counted on the main thread by a malloc hook, with no scene (SCENE_FRAMES 0): what the
# scene's worker threads allocate varies from run to run, what the loop (threads = 1) allocates does not.
cc -O2 -shared -fPIC "$here/count_allocations.c" -o "$work/count_allocations.so"
allocations() {
    LD_PRELOAD="$work/count_allocations.so" "$work/renderer" "$fixtures/coffee.jpg" "$fixtures/review-entrance.json" \
        "$work/unused.png" "$1" 0 2>&1 >/dev/null | sed -n 's/^main-thread allocations: //p'
}
two=$(allocations 2)
twelve=$(allocations 12)
echo "renderer example's frame loop: $two allocations with 2 frames, $twelve with 12"
if [ "$two" != "$twelve" ]; then
    echo "valgrind.sh: the frame loop allocated $(( twelve - two )) times in the 10 frames after its first two" >&2
    exit 1
fi
