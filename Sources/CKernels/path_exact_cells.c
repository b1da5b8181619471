// Exact coverage of the cells where an outline meets itself: see path_exact_cells.h and
// `PathRasterizer.exactCoverage`, which says why it is exact.
#include <stdlib.h>
#include <string.h>

#include "path_exact_cells.h"

#pragma clang assume_nonnull begin
// Unfused, as its Swift twin computes.
#pragma STDC FP_CONTRACT OFF

/// Where the winding that pieces wholly left of a cell give it changes within the row.
typedef struct winding_change {
    double y;
    int32_t delta;
} winding_change;

/// The winding of points left of the cells being resolved, as a step function of y within the row.
typedef struct winding_steps {
    /// The winding just below the row's top.
    int32_t base;
    /// Changes by height, none zero.
    winding_change *changes;
    ptrdiff_t count;
} winding_steps;

typedef struct crossing {
    double x;
    int32_t winding;
} crossing;

static size_t pieces_bytes(ptrdiff_t count) { return (size_t)count * sizeof(bt_row_piece); }

/// The most heights a cell of a row of `piece_count` pieces cuts into strips at: exact, the row's two, the changes
/// (two a piece), four a piece and one a pair of the cell's; sampled, the strips' edges.
static ptrdiff_t heights_capacity(ptrdiff_t piece_count) {
    ptrdiff_t exact = 2 + 2 * piece_count + 4 * BT_MAXIMUM_EXACT_PIECES
        + BT_MAXIMUM_EXACT_PIECES * (BT_MAXIMUM_EXACT_PIECES - 1) / 2;
    return exact > BT_SAMPLED_STRIPS + 1 ? exact : BT_SAMPLED_STRIPS + 1;
}

size_t bt_path_exact_cells_scratch_bytes(ptrdiff_t piece_count) {
    // Reaching pieces; changes (two a piece); a cell's heights; a strip's crossings, and two lists of indices.
    return pieces_bytes(piece_count) + (size_t)(2 * piece_count) * sizeof(winding_change)
        + (size_t)heights_capacity(piece_count) * sizeof(double)
        + (size_t)BT_MAXIMUM_SAMPLED_PIECES * (sizeof(crossing) + 2 * sizeof(int32_t));
}

static int counts(int32_t winding, int even_odd) { return even_odd ? (winding & 1) != 0 : winding != 0; }

static void change_steps(winding_steps *steps, double y, int32_t delta) {
    ptrdiff_t low = 0, high = steps->count;
    while (low < high) {
        ptrdiff_t middle = (low + high) / 2;
        if (steps->changes[middle].y < y) low = middle + 1; else high = middle;
    }
    if (low < steps->count && steps->changes[low].y == y) {
        steps->changes[low].delta += delta;
        if (steps->changes[low].delta == 0) {
            memmove(steps->changes + low, steps->changes + low + 1,
                (size_t)(steps->count - low - 1) * sizeof(winding_change));
            steps->count -= 1;
        }
    } else {
        memmove(steps->changes + low + 1, steps->changes + low, (size_t)(steps->count - low) * sizeof(winding_change));
        steps->changes[low] = (winding_change){y, delta};
        steps->count += 1;
    }
}

static void add_to_steps(winding_steps *steps, const bt_row_piece *piece, double row_top, double row_bottom) {
    if (piece->top <= row_top) steps->base += piece->winding; else change_steps(steps, piece->top, piece->winding);
    if (piece->bottom < row_bottom) change_steps(steps, piece->bottom, -piece->winding);
}

static inline double x_at(const bt_row_piece *piece, double y) {
    return piece->x_top + (y - piece->top) * piece->slope;
}

/// The height where the piece crosses the vertical line at `x` strictly between its ends, if it does.
static inline int y_at_x(const bt_row_piece *piece, double x, double *y) {
    if (!((piece->x_top - x) * (piece->x_bottom - x) < 0)) return 0;
    *y = piece->top + (x - piece->x_top) / (piece->x_bottom - piece->x_top) * (piece->bottom - piece->top);
    return 1;
}

/// The height strictly inside both pieces' spans where they cross, if they do.
static inline int crossing_height(const bt_row_piece *a, const bt_row_piece *b, double *y) {
    double top = a->top > b->top ? a->top : b->top;
    double bottom = a->bottom < b->bottom ? a->bottom : b->bottom;
    if (!(bottom > top)) return 0;
    double gap_top = x_at(a, top) - x_at(b, top);
    double gap_bottom = x_at(a, bottom) - x_at(b, bottom);
    if (!(gap_top * gap_bottom < 0)) return 0;
    *y = top + gap_top / (gap_top - gap_bottom) * (bottom - top);
    return 1;
}

/// Ascending. A cell's heights are a dozen or so in no order a branch predictor can learn: up to 24 they are sorted
/// by branch-free exchanges of neighbours, past that by insertion (the exact cells of one pass of the stroked icons,
/// replayed alone: about 8 % faster than insertion throughout).
static void sort_doubles(double *items, ptrdiff_t count) {
    if (count <= 24) {
        for (ptrdiff_t index = 1; index < count; index++) {
            for (ptrdiff_t slot = index; slot > 0; slot--) {
                double a = items[slot - 1], b = items[slot];
                items[slot - 1] = a < b ? a : b;
                items[slot] = a < b ? b : a;
            }
        }
        return;
    }
    for (ptrdiff_t index = 1; index < count; index++) {
        double item = items[index];
        ptrdiff_t slot = index;
        while (slot > 0 && item < items[slot - 1]) {
            items[slot] = items[slot - 1];
            slot -= 1;
        }
        items[slot] = item;
    }
}

static int compare_min_x(const void *a, const void *b) {
    double x = ((const bt_row_piece *)a)->min_x, y = ((const bt_row_piece *)b)->min_x;
    return x < y ? -1 : x > y;
}

/// The area of the cell `left…left + 1` × `row_top…row_top + 1` inside by the rule: exactly (to rounding) by
/// trapezoids between every height where the pieces' order or the steps can change, or by strips measured along
/// their middles. `by_top` and `active` hold `k` indices each.
static double cell_area(
    double left, double row_top, int even_odd, int exact, const bt_row_piece *reaching, ptrdiff_t k,
    const winding_steps *steps, double *heights, crossing *crossings, int32_t *by_top, int32_t *active) {
    double right = left + 1;
    ptrdiff_t count = 0;
    if (exact) {
        heights[count++] = row_top;
        heights[count++] = row_top + 1;
        for (ptrdiff_t index = 0; index < steps->count; index++) heights[count++] = steps->changes[index].y;
        for (ptrdiff_t index = 0; index < k; index++) {
            const bt_row_piece *piece = reaching + index;
            double y;
            if (piece->top > row_top) heights[count++] = piece->top;
            if (piece->bottom < row_top + 1) heights[count++] = piece->bottom;
            if (y_at_x(piece, left, &y)) heights[count++] = y;
            if (y_at_x(piece, right, &y)) heights[count++] = y;
            for (ptrdiff_t other = index + 1; other < k; other++) {
                // Pieces apart in x cannot cross.
                if (piece->max_x > reaching[other].min_x && reaching[other].max_x > piece->min_x
                    && crossing_height(piece, reaching + other, &y)) {
                    heights[count++] = y;
                }
            }
        }
    } else {
        for (int strip = 0; strip <= BT_SAMPLED_STRIPS; strip++) {
            heights[count++] = row_top + (double)strip / BT_SAMPLED_STRIPS;
        }
    }
    sort_doubles(heights, count);
    // The pieces by their tops, taken in as the strips go down and dropped once past their bottoms: a strip looks
    // at the few pieces over it, not at every piece reaching the cell.
    for (ptrdiff_t index = 0; index < k; index++) {
        ptrdiff_t slot = index;
        while (slot > 0 && reaching[by_top[slot - 1]].top > reaching[index].top) {
            by_top[slot] = by_top[slot - 1];
            slot -= 1;
        }
        by_top[slot] = (int32_t)index;
    }
    ptrdiff_t taken = 0, active_count = 0;
    double area = 0;
    ptrdiff_t next_change = 0;
    int32_t left_winding = steps->base;
    for (ptrdiff_t index = 1; index < count; index++) {
        double upper = heights[index - 1], lower = heights[index];
        if (!(lower > upper)) continue;
        double middle = (upper + lower) * 0.5;
        while (next_change < steps->count && steps->changes[next_change].y <= middle) {
            left_winding += steps->changes[next_change].delta;
            next_change += 1;
        }
        while (taken < k && reaching[by_top[taken]].top < middle) active[active_count++] = by_top[taken++];
        int32_t winding = left_winding;
        // The pieces crossing the cell at mid-strip, in order of x.
        ptrdiff_t crossing_count = 0, still = 0;
        for (ptrdiff_t a = 0; a < active_count; a++) {
            const bt_row_piece *piece = reaching + active[a];
            if (!(middle < piece->bottom)) continue;
            active[still++] = active[a];
            double x = x_at(piece, middle);
            if (x <= left) {
                winding += piece->winding;
            } else if (x < right) {
                ptrdiff_t slot = crossing_count;
                while (slot > 0 && crossings[slot - 1].x > x) {
                    crossings[slot] = crossings[slot - 1];
                    slot -= 1;
                }
                crossings[slot] = (crossing){x, piece->winding};
                crossing_count += 1;
            }
        }
        active_count = still;
        double inside = 0, previous = left;
        for (ptrdiff_t c = 0; c < crossing_count; c++) {
            if (counts(winding, even_odd)) inside += crossings[c].x - previous;
            winding += crossings[c].winding;
            previous = crossings[c].x;
        }
        if (counts(winding, even_odd)) inside += right - previous;
        area += inside * (lower - upper);
    }
    return area;
}

void bt_path_exact_cells(
    bt_row_piece *pieces, ptrdiff_t piece_count, const ptrdiff_t *columns, ptrdiff_t column_count, double row_top,
    int even_odd, void *scratch, uint8_t *output) {
    if (column_count == 0) return;
    double row_bottom = row_top + 1;
    bt_row_piece *reaching = scratch;
    winding_steps steps = {0, (winding_change *)((char *)scratch + pieces_bytes(piece_count)), 0};
    double *heights = (double *)(steps.changes + 2 * piece_count);
    crossing *crossings = (crossing *)(heights + heights_capacity(piece_count));
    int32_t *by_top = (int32_t *)(crossings + BT_MAXIMUM_SAMPLED_PIECES);
    int32_t *active = by_top + BT_MAXIMUM_SAMPLED_PIECES;
    // Pieces right of the last cell never reach one; those left of the first are folded into the steps at once.
    double reach = (double)(columns[column_count - 1] + 1);
    double first_left = (double)columns[0];
    ptrdiff_t kept = 0;
    for (ptrdiff_t index = 0; index < piece_count; index++) {
        if (pieces[index].max_x <= first_left) {
            add_to_steps(&steps, pieces + index, row_top, row_bottom);
        } else if (pieces[index].min_x < reach) {
            pieces[kept++] = pieces[index];
        }
    }
    // The rest in order of their left ends, taken in as the columns reach them and folded into the steps once the
    // columns pass them.
    if (kept > 48) {
        qsort(pieces, (size_t)kept, sizeof *pieces, compare_min_x);
    } else {
        for (ptrdiff_t index = 1; index < kept; index++) {
            bt_row_piece item = pieces[index];
            ptrdiff_t slot = index;
            while (slot > 0 && item.min_x < pieces[slot - 1].min_x) {
                pieces[slot] = pieces[slot - 1];
                slot -= 1;
            }
            pieces[slot] = item;
        }
    }
    ptrdiff_t taken = 0, reaching_count = 0;
    for (ptrdiff_t c = 0; c < column_count; c++) {
        double left = (double)columns[c], right = left + 1;
        while (taken < kept && pieces[taken].min_x < right) reaching[reaching_count++] = pieces[taken++];
        ptrdiff_t still = 0;
        for (ptrdiff_t index = 0; index < reaching_count; index++) {
            if (reaching[index].max_x <= left) {
                add_to_steps(&steps, reaching + index, row_top, row_bottom);
            } else {
                reaching[still++] = reaching[index];
            }
        }
        reaching_count = still;
        if (reaching_count > BT_MAXIMUM_SAMPLED_PIECES) continue;
        double area = cell_area(
            left, row_top, even_odd, reaching_count <= BT_MAXIMUM_EXACT_PIECES, reaching, reaching_count, &steps,
            heights, crossings, by_top, active);
        double clamped = area < 0 ? 0 : area > 1 ? 1 : area;
        output[columns[c]] = (uint8_t)(clamped * 255 + 0.5);
    }
}

#pragma clang assume_nonnull end
