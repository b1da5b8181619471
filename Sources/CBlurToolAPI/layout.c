/* The layouts blurtool.h promises, checked when the library is built: a change here is an ABI change (raise
 * BLURTOOL_ABI_VERSION). The Swift side reads these structs through the same header. */
#include "blurtool.h"

#include <stddef.h>

_Static_assert(sizeof(blurtool_buffer_t) == 32, "blurtool_buffer_t layout");
_Static_assert(offsetof(blurtool_buffer_t, stride) == 16, "blurtool_buffer_t.stride");
_Static_assert(offsetof(blurtool_buffer_t, alpha) == 24, "blurtool_buffer_t.alpha");
_Static_assert(sizeof(blurtool_rect_t) == 16, "blurtool_rect_t layout");
_Static_assert(sizeof(blurtool_status_t) == 4, "enums are ints");
_Static_assert(offsetof(blurtool_label_t, color) == 32, "blurtool_label_t.color");
_Static_assert(sizeof(blurtool_label_t) == 96, "blurtool_label_t layout");
_Static_assert(offsetof(blurtool_stroke_t, dashes) == 24, "blurtool_stroke_t.dashes");
_Static_assert(offsetof(blurtool_stroke_t, dash_phase) == 40, "blurtool_stroke_t.dash_phase");
_Static_assert(sizeof(blurtool_stroke_t) == 48, "blurtool_stroke_t layout");
