// A path's rows of signed-area cells (`PathRasterizer.Band`): edge pieces deposited into them, and rows summed into
// coverage bytes. Cells are fixed point, `BT_PATH_CELL_ONE` a whole pixel's area, so that the running sum is exact
// and the same in any order: sixteen cells are summed at once as a prefix within a vector (clang's generic vectors:
// one AVX-512 register, four SSE ones), where a float sum had to go cell by cell. The deposit is in C for its
// float-to-integer conversions, which Swift range-checks (a fifth of the deposit's profile). Static inline, so they
// compile into the Swift module with its target. The Swift twins are `PathRowCoverageTests.referenceRow` and
// `referenceDeposit`.
#ifndef BLURTOOL_PATH_ROWS_H
#define BLURTOOL_PATH_ROWS_H

#include <stddef.h>
#include <stdint.h>

#pragma clang assume_nonnull begin

/// A whole pixel's area in a cell: 2¹⁶, so a deposit is within 2⁻¹⁷ of a pixel (1/514 of a level) and a sum holds
/// 32,767 windings before it wraps (past that, only in a hostile outline of as many layers, the bytes are wrong
/// but nothing traps: the sums wrap as unsigned).
#define BT_PATH_CELL_ONE 65536

/// The coverage byte for a winding integral (`BT_PATH_CELL_ONE` a pixel): min(|a|, 1) for non-zero, the triangle
/// wave of |a| (period 2, peaks at odd integers) for even-odd; times 255, rounded half up.
static inline uint8_t bt_path_coverage_level(int32_t sum, int even_odd) {
    uint32_t magnitude = sum < 0 ? 0u - (uint32_t)sum : (uint32_t)sum;
    if (even_odd) {
        magnitude &= 2 * BT_PATH_CELL_ONE - 1;
        if (magnitude > BT_PATH_CELL_ONE) magnitude = 2 * BT_PATH_CELL_ONE - magnitude;
    } else if (magnitude > BT_PATH_CELL_ONE) {
        magnitude = BT_PATH_CELL_ONE;
    }
    return (uint8_t)((magnitude * 255 + BT_PATH_CELL_ONE / 2) >> 16);
}

/// ∫₀ˢ clamp(u, 0, 1) du.
static inline double bt_path_ramp(double s) { return s <= 0 ? 0 : s >= 1 ? s - 0.5 : 0.5 * s * s; }

/// Deposits one edge's piece within a row, from x `a` to x `b` (0…width), `height` its signed share of the row's
/// height, into the row's cells; returns the first cell it crosses and sets `*last` to the last (the cell after it
/// takes the rest of the height too).
///
/// The sum of the cells up to pixel i must become height × (the mean part of pixel i's width right of the piece).
/// The piece's x is uniform along its height, so that mean is (R(i+1 − lo) − R(i+1 − hi)) / (hi − lo), R being
/// `bt_path_ramp`: each cell takes the rounded running share less what the cells before it took, so a piece's
/// cells add up to its rounded height exactly and a row's sum returns to its winding past its last edge. Within
/// one pixel the mean is that of the piece's midpoint. Sums wrap as unsigned.
static inline ptrdiff_t bt_path_deposit(int32_t *cells, double a, double b, double height, ptrdiff_t *last) {
#pragma STDC FP_CONTRACT OFF
    double lo = a < b ? a : b, hi = a < b ? b : a;
    ptrdiff_t first = (ptrdiff_t)lo;
    ptrdiff_t end = (ptrdiff_t)__builtin_ceil(hi) - 1;
    if (end < first) end = first;
    *last = end;
    double scaled = height * BT_PATH_CELL_ONE;
    uint32_t whole = (uint32_t)(int32_t)__builtin_rint(scaled);
    if (first == end) {
        uint32_t part = (uint32_t)(int32_t)__builtin_rint(scaled * ((double)(first + 1) - (lo + hi) * 0.5));
        cells[first] = (int32_t)((uint32_t)cells[first] + part);
        cells[first + 1] = (int32_t)((uint32_t)cells[first + 1] + whole - part);
        return first;
    }
    double inverse_width = 1 / (hi - lo);
    uint32_t given = 0;
    for (ptrdiff_t column = first; column <= end; column++) {
        double right = (double)(column + 1);
        double share = (bt_path_ramp(right - lo) - bt_path_ramp(right - hi)) * inverse_width;
        uint32_t up_to = (uint32_t)(int32_t)__builtin_rint(scaled * share);
        cells[column] = (int32_t)((uint32_t)cells[column] + up_to - given);
        given = up_to;
    }
    cells[end + 1] = (int32_t)((uint32_t)cells[end + 1] + whole - given);
    return first;
}

typedef int32_t bt_path_cells16 __attribute__((vector_size(64)));
typedef uint32_t bt_path_levels16 __attribute__((vector_size(64)));
typedef uint8_t bt_path_bytes16 __attribute__((vector_size(16)));

/// `bt_path_coverage_level` of sixteen sums (taken as signed; through pointers: a 64-byte vector passed by value
/// has a different ABI with and without AVX-512).
static inline void bt_path_coverage_levels16(const bt_path_levels16 *sums, int even_odd, bt_path_bytes16 *levels) {
    bt_path_levels16 sign = (bt_path_levels16)((bt_path_cells16)*sums >> 31);
    bt_path_levels16 magnitude = (*sums ^ sign) - sign;
    const bt_path_levels16 one = (bt_path_levels16){0} + BT_PATH_CELL_ONE;
    if (even_odd) magnitude &= 2 * BT_PATH_CELL_ONE - 1;
    // Lanes past one pixel: folded back for even-odd, held at one for non-zero (selected by mask).
    bt_path_levels16 over = (bt_path_levels16)(magnitude > one);
    bt_path_levels16 beyond = even_odd ? 2 * one - magnitude : one;
    magnitude = (beyond & over) | (magnitude & ~over);
    *levels = __builtin_convertvector((magnitude * 255 + BT_PATH_CELL_ONE / 2) >> 16, bt_path_bytes16);
}

/// The running sum of `cells[first...end]` as coverage bytes into `output` there; returns the last. Sixteen
/// cells at a time: their prefix sums in four shifted adds (lane i takes lane i − 1, then i − 2, i − 4, i − 8),
/// plus the sum before them; blocks of zeros only take the level they continue. Sums wrap as unsigned.
static inline uint8_t bt_path_row_coverage(
    const int32_t *cells, ptrdiff_t first, ptrdiff_t end, uint8_t *output, int even_odd) {
    uint32_t sum = 0;
    ptrdiff_t x = first;
    const bt_path_levels16 zero = {0};
    for (; x + 16 <= end + 1; x += 16) {
        bt_path_levels16 block;
        __builtin_memcpy(&block, cells + x, sizeof block);
        if (__builtin_reduce_or(block) == 0) {
            // Between edges the cells are zero and the level holds (a large shape's inside): the run's blocks
            // found and its bytes set in one call.
            ptrdiff_t run_end = x + 16;
            for (; run_end + 16 <= end + 1; run_end += 16) {
                __builtin_memcpy(&block, cells + run_end, sizeof block);
                if (__builtin_reduce_or(block) != 0) break;
            }
            __builtin_memset(output + x, bt_path_coverage_level((int32_t)sum, even_odd), (size_t)(run_end - x));
            x = run_end - 16;
            continue;
        }
        block += __builtin_shufflevector(zero, block, 0, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30);
        block += __builtin_shufflevector(zero, block, 0, 0, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29);
        block += __builtin_shufflevector(zero, block, 0, 0, 0, 0, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27);
        block += __builtin_shufflevector(zero, block, 0, 0, 0, 0, 0, 0, 0, 0, 16, 17, 18, 19, 20, 21, 22, 23);
        block += sum;
        sum = block[15];
        bt_path_bytes16 levels;
        bt_path_coverage_levels16(&block, even_odd, &levels);
        __builtin_memcpy(output + x, &levels, sizeof levels);
    }
    uint8_t current = bt_path_coverage_level((int32_t)sum, even_odd);
    for (; x <= end; x += 1) {
        sum += (uint32_t)cells[x];
        current = bt_path_coverage_level((int32_t)sum, even_odd);
        output[x] = current;
    }
    return current;
}

#pragma clang assume_nonnull end

#endif
