// The kernels compiled for x86-64-v3 (AVX2, FMA, BMI2), called only where `bt_cpu_has_level` says the CPU has it.
// Float kernels turn FP_CONTRACT off in their bodies, so that this level's FMA cannot fuse a product and a sum
// the Swift twins round separately.
#include "CKernels.h"
#include "levels.h"

#if defined(__x86_64__)
#include <immintrin.h>
#pragma clang attribute push(__attribute__((target(BT_X86_64_V3_FEATURES ",tune=x86-64-v3"))), apply_to = function)
#define BT_SUFFIX x86_64_v3
// The bilinear kernels in AVX2 intrinsics (bilinear.inc); AVX-512's copy compiles the same ones (perhaps EVEX-encoded).
#define BT_AVX2 1
#define BT_WORDS 8
#include "level.inc"
#pragma clang attribute pop
#endif
