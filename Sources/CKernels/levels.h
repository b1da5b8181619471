// The tables each kernels_*.c defines, for levels.c.
#ifndef BLURTOOL_CKERNELS_LEVELS_H
#define BLURTOOL_CKERNELS_LEVELS_H

#include "CKernels.h"

extern const bt_kernel_table bt_table_baseline;
#if defined(__x86_64__)
// The levels' copies are compiled with these features added to the build's own CPU (with that level's tuning, so
// the default and native builds' code is what `arch=x86-64-v3` / `v4` gave), not with `arch=`, which replaces the
// CPU: under `make release CPU=haswell` or `znver3` the intrinsics keep that CPU's features (PCLMUL, PRFCHW…) and
// clang refused to inline them into a function built for the bare level.
#define BT_X86_64_V3_FEATURES "sse3,ssse3,sse4.1,sse4.2,popcnt,cx16,sahf,avx,avx2,bmi,bmi2,f16c,fma,lzcnt,movbe,xsave"
#define BT_X86_64_V4_FEATURES BT_X86_64_V3_FEATURES ",avx512f,avx512bw,avx512cd,avx512dq,avx512vl"
extern const bt_kernel_table bt_table_x86_64_v3;
extern const bt_kernel_table bt_table_x86_64_v4;
#endif

#endif
