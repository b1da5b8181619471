// Shaping only through HarfBuzz's own OpenType functions (hb_face from the font's blob): no hb-ft, so a
// shaping thread never touches a FreeType face another thread is rasterising with.
#include <hb.h>
#include <hb-ot.h>
