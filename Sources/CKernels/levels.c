// Which levels this build has code for and which this CPU runs.
#include "CKernels.h"
#include "levels.h"

const bt_kernel_table *bt_kernels(int level) {
    switch (level) {
    case BT_LEVEL_BASELINE: return &bt_table_baseline;
#if defined(__x86_64__)
    case BT_LEVEL_X86_64_V3: return &bt_table_x86_64_v3;
    case BT_LEVEL_X86_64_V4: return &bt_table_x86_64_v4;
#endif
    default: return NULL;
    }
}

int bt_cpu_has_level(int level) {
    switch (level) {
    case BT_LEVEL_BASELINE: return 1;
#if defined(__x86_64__)
    // The level names test every feature of the level and that the OS saves the wider registers (XGETBV).
    case BT_LEVEL_X86_64_V3: __builtin_cpu_init(); return __builtin_cpu_supports("x86-64-v3") != 0;
    case BT_LEVEL_X86_64_V4: __builtin_cpu_init(); return __builtin_cpu_supports("x86-64-v4") != 0;
#endif
    default: return 0;
    }
}
