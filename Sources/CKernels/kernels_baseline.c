// The kernels at the architecture's baseline (SSE2 on x86-64, NEON on arm64): what any CPU of it runs.
#include "CKernels.h"
#include "levels.h"

#define BT_SUFFIX baseline
#include "level.inc"
