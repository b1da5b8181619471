#!/usr/bin/env bash
# `Tests/C/valgrind.sh PREFIX WORK` after Tests/C/run.sh: memcheck over the C test program (no error, nothing
# definitely lost), then the renderer example's heap at 2 and at 12 frames of its loop, which must be the same
# count of allocations (its loop allocates nothing after the first frame).
set -euo pipefail
work=$2
here=$(cd "$(dirname "$0")" && pwd)
fixtures=$(cd "$here/../../fixtures" && pwd)
memcheck=(valgrind --tool=memcheck --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite -q
    --suppressions="$here/valgrind.supp")
"${memcheck[@]}" "$work/capi_test" "$fixtures" "$work/references"
allocations() {
    valgrind --tool=memcheck "$work/renderer" "$fixtures/coffee.jpg" "$fixtures/review-entrance.json" \
        "$work/valgrind.png" "$1" 1 2>&1 >/dev/null | sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' | tr -d ,
}
two=$(allocations 2)
twelve=$(allocations 12)
echo "renderer example: $two allocations with 2 frames, $twelve with 12"
if [ "$two" != "$twelve" ]; then
    echo "valgrind.sh: the frame loop allocated $(( (twelve - two) / 10 )) times a frame after its first" >&2
    exit 1
fi
