// A path's rows of signed-area cells summed into coverage bytes (`PathRasterizer.Band`), in C so that the running
// sum stays in a register and the float-to-byte conversion carries no range check: Swift kept the sum on the stack
// and checked every conversion (a third of the loop's profile samples; the stroked icons about 2 % faster in C).
// Static inline, so it compiles into the Swift module with its target. The Swift twin is
// `PathRowCoverageTests.referenceRow`.
#ifndef BLURTOOL_PATH_ROWS_H
#define BLURTOOL_PATH_ROWS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#pragma clang assume_nonnull begin

/// The coverage byte for a winding integral: min(|a|, 1) for non-zero, the triangle wave of |a| (period 2, peaks
/// at odd integers) for even-odd; rounded to nearest as `UInt8(c · 255 + 0.5)` rounds (toward zero, unfused).
static inline uint8_t bt_path_coverage_level(float sum, int even_odd) {
#pragma STDC FP_CONTRACT OFF
    float coverage = fabsf(sum);
    if (even_odd) {
        coverage -= 2 * floorf(coverage * 0.5f);
        if (coverage > 1) coverage = 2 - coverage;
    } else if (coverage > 1) {
        coverage = 1;
    }
    float scaled = coverage * 255;
    return (uint8_t)(int)(scaled + 0.5f);
}

/// The running sum of `cells[first...end]` as coverage bytes into `output` there (`row_length` bytes long); returns
/// the last. Between a path's edges a row's cells are zero and its coverage holds: runs of zeros, found eight cells
/// at a time by their bits, are filled with the level they continue (adding zero changes no sum, so the bytes are
/// the cell-by-cell sum's). A cell of −0 ends a run's fast part and is taken as the zero it is.
static inline uint8_t bt_path_row_coverage(
    const float *cells, ptrdiff_t first, ptrdiff_t end, uint8_t *output, ptrdiff_t row_length, int even_odd) {
#pragma STDC FP_CONTRACT OFF
    float sum = 0;
    uint8_t current = bt_path_coverage_level(0, even_odd);
    ptrdiff_t x = first;
    while (x <= end) {
        if (cells[x] != 0) {
            sum += cells[x];
            current = bt_path_coverage_level(sum, even_odd);
            output[x] = current;
            x += 1;
            continue;
        }
        ptrdiff_t run_end = x + 1;
        while (run_end + 8 <= end + 1) {
            uint64_t words[4];
            memcpy(words, cells + run_end, sizeof words);
            if ((words[0] | words[1] | words[2] | words[3]) != 0) break;
            run_end += 8;
        }
        while (run_end <= end && cells[run_end] == 0) run_end += 1;
        if (run_end - x <= 16 && x + 16 <= row_length) {
            // A short run in one store: the bytes past it are written again as the row goes on.
            memset(output + x, current, 16);
        } else {
            memset(output + x, current, (size_t)(run_end - x));
        }
        x = run_end;
    }
    return current;
}

#pragma clang assume_nonnull end

#endif
