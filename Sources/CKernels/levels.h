// The tables each kernels_*.c defines, for levels.c.
#ifndef BLURTOOL_CKERNELS_LEVELS_H
#define BLURTOOL_CKERNELS_LEVELS_H

#include "CKernels.h"

extern const bt_kernel_table bt_table_baseline;
#if defined(__x86_64__)
extern const bt_kernel_table bt_table_x86_64_v3;
extern const bt_kernel_table bt_table_x86_64_v4;
#endif

#endif
