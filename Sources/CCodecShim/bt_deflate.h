#ifndef BT_DEFLATE_H
#define BT_DEFLATE_H
#include <stddef.h>
#include <stdint.h>

/// A deflate encoder's state (about 300 KiB), reused band after band by one thread.
typedef struct bt_deflater bt_deflater;

/// The compression levels it serves (zlib's scale; see bt_png_frame.c for the others).
enum { BT_DEFLATE_MIN_LEVEL = 2, BT_DEFLATE_MAX_LEVEL = 6 };

/// A deflater searching as hard as `level` (clamped to the levels above) asks; NULL when out of memory.
bt_deflater *bt_deflater_new(int level);
void bt_deflater_free(bt_deflater *deflater);

/// `size` bytes at `data` as raw deflate (RFC 1951) into `out`, matching into the `dictionary` bytes before `data`
/// (at most 32 KiB are used), ending with the final block when `last`, otherwise on a sync flush (an empty stored
/// block) so the next band's stream follows on a byte boundary. Returns the bytes written, or 0 when they would
/// not fit in `capacity` (`bt_deflate_bound(size)` always suffices).
size_t bt_deflate(bt_deflater *deflater, const uint8_t *data, size_t size, size_t dictionary, int last, uint8_t *out,
                  size_t capacity);
/// An output capacity no band of `size` bytes can exceed: stored blocks' 5-byte headers at most every 65,535 bytes
/// and at every block (a block holds at least 32,766 literals or matches), a byte of padding each, the sync flush.
size_t bt_deflate_bound(size_t size);
#endif
