// The exact coverage of a path's cells where two chains of its outline meet (`PathRasterizer.exactCoverage`), in
// C: the Swift loop spent most of its time in array bounds checks, copies and closures around a few dozen
// floating-point operations a strip. The Swift twin is `ReferenceExactCells` in the tests, which these bytes must
// equal.
#ifndef BLURTOOL_PATH_EXACT_CELLS_H
#define BLURTOOL_PATH_EXACT_CELLS_H

#include <stddef.h>
#include <stdint.h>

#pragma clang assume_nonnull begin

/// One edge's part within a pixel row, in the box's pixels: from (`x_top`, `top`) to (`x_bottom`, `bottom`),
/// `winding` +1 or −1.
typedef struct bt_row_piece {
    double top, bottom, x_top, x_bottom;
    /// dx/dy (0 for a horizontal piece), and the extent in x.
    double slope, min_x, max_x;
    int32_t winding;
} bt_row_piece;

/// The most pieces over one cell resolved exactly (breakpoints grow as the square: every pair may cross); past it
/// a cell is measured along the middle of `BT_SAMPLED_STRIPS` strips, and past `BT_MAXIMUM_SAMPLED_PIECES` it keeps
/// the byte already in `output` (only a hostile outline gets there), so the work stays bounded.
#define BT_MAXIMUM_EXACT_PIECES 32
#define BT_SAMPLED_STRIPS 64
#define BT_MAXIMUM_SAMPLED_PIECES 256

/// Bytes of scratch `bt_path_exact_cells` needs for a row of `piece_count` pieces.
size_t bt_path_exact_cells_scratch_bytes(ptrdiff_t piece_count);

/// Writes into `output[c]`, for each cell c of `columns` (`column_count`, ascending) of the pixel row
/// `row_top…row_top + 1`, the exact area inside the outline by the rule (non-zero, or even-odd when `even_odd`),
/// as `UInt8(area · 255 + 0.5)`. `pieces` are every edge piece of the row (reordered in place); `scratch` holds
/// `bt_path_exact_cells_scratch_bytes(piece_count)` bytes, 8-byte aligned.
void bt_path_exact_cells(
    bt_row_piece *pieces, ptrdiff_t piece_count, const ptrdiff_t *columns, ptrdiff_t column_count, double row_top,
    int even_odd, void *scratch, uint8_t *output);

#pragma clang assume_nonnull end

#endif
