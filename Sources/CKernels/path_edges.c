// A path's polygons cut to a box's edges: see path_edges.h and `PathRasterizer.Scratch.clipEdges`, which says why.
#include "path_edges.h"

#pragma clang assume_nonnull begin
// Unfused, as its Swift twin computes.
#pragma STDC FP_CONTRACT OFF

// Swift's `min` and `max`, operand order and all (they decide which zero a tie of 0 and −0 gives).
static inline double swift_min(double x, double y) { return y < x ? y : x; }
static inline double swift_max(double x, double y) { return y >= x ? y : x; }

static inline double edge_x(const bt_path_edge *edge, double y) {
    return y <= edge->y0 ? edge->x0 : y >= edge->y1 ? edge->x1
        : edge->x0 + (y - edge->y0) / (edge->y1 - edge->y0) * (edge->x1 - edge->x0);
}

typedef struct edge_list {
    bt_path_edge *edges;
    ptrdiff_t count, capacity;
} edge_list;

static inline int append(edge_list *list, bt_path_edge edge) {
    if (list->count == list->capacity) return 0;
    list->edges[list->count++] = edge;
    return 1;
}

/// The first vertex of polygon `first..<end` where the outline turns in y, or its start when it never turns.
static ptrdiff_t turning_vertex(const double *ys, ptrdiff_t first, ptrdiff_t end) {
    int last_down = -1;
    ptrdiff_t i = first;
    for (ptrdiff_t step = 0; step < 2 * (end - first); step++) {
        ptrdiff_t j = i + 1 == end ? first : i + 1;
        double a = ys[i], b = ys[j];
        if (a != b) {
            int down = b > a;
            if (last_down >= 0 && last_down != down) return i;
            last_down = down;
        }
        i = j;
    }
    return first;
}

/// One polygon edge from (ax, ay) to (bx, by) cut to 0…width × 0…height: split where it crosses x = 0 and
/// x = width, the parts right of the box dropped and the parts left of it moved onto x = 0.
static int add_edge(
    edge_list *list, double ax, double ay, double bx, double by, double width, double height, int32_t chain) {
    if (ay == by) {
        double from = swift_min(swift_max(ax, 0), width), to = swift_min(swift_max(bx, 0), width);
        if (ay > 0 && ay < height && ay != __builtin_floor(ay) && from != to) {
            return append(list, (bt_path_edge){from, ay, to, ay, 0, chain});
        }
        return 1;
    }
    int down = ay < by;
    double ux = down ? ax : bx, uy = down ? ay : by, lx = down ? bx : ax, ly = down ? by : ay;
    bt_path_edge whole = {ux, uy, lx, ly, down ? 1 : -1, chain};
    if (!(ly > 0 && uy < height && (ux < width || lx < width))) return 1;
    double y0 = swift_max(uy, 0), y1 = swift_min(ly, height);
    double cuts[2];
    double sides[2] = {0, width};
    for (int side = 0; side < 2; side++) {
        double x = sides[side];
        cuts[side] = y1;
        if ((ux - x) * (lx - x) < 0) {
            double y = uy + (x - ux) / (lx - ux) * (ly - uy);
            if (y > y0 && y < y1) cuts[side] = y;
        }
    }
    if (cuts[0] > cuts[1]) {
        double swap = cuts[0];
        cuts[0] = cuts[1];
        cuts[1] = swap;
    }
    double bounds[4] = {y0, cuts[0], cuts[1], y1};
    for (int part = 0; part < 3; part++) {
        double from = bounds[part], to = bounds[part + 1];
        if (!(to > from)) continue;
        double middle = edge_x(&whole, (from + to) / 2);
        if (middle >= width) continue;
        bt_path_edge piece;
        if (middle <= 0) {
            piece = (bt_path_edge){0, from, 0, to, whole.winding, chain};
        } else {
            double x0 = swift_min(swift_max(edge_x(&whole, from), 0), width);
            double x1 = swift_min(swift_max(edge_x(&whole, to), 0), width);
            piece = (bt_path_edge){x0, from, x1, to, whole.winding, chain};
        }
        if (!append(list, piece)) return 0;
    }
    return 1;
}

ptrdiff_t bt_path_clip_edges(
    const double *xs, const double *ys, const ptrdiff_t *ends, ptrdiff_t polygon_count, double left, double top,
    double width, double height, bt_path_edge *edges, ptrdiff_t capacity) {
    edge_list list = {edges, 0, capacity};
    int32_t chain = 0;
    ptrdiff_t start = 0;
    for (ptrdiff_t polygon = 0; polygon < polygon_count; polygon++) {
        ptrdiff_t end = ends[polygon];
        // A new chain at each polygon and wherever the direction in y turns; each polygon is walked from a vertex
        // where it turns, so that its first and last chains are not one chain cut in two.
        chain = (int32_t)((uint32_t)chain + 1);
        int going_down = -1;
        ptrdiff_t j = start < end ? turning_vertex(ys, start, end) : start;
        for (ptrdiff_t step = start; step < end; step++) {
            ptrdiff_t i = j;
            j = i + 1 == end ? start : i + 1;
            double ax = xs[i] - left, ay = ys[i] - top, bx = xs[j] - left, by = ys[j] - top;
            if (ay != by) {
                int down = by > ay;
                if (going_down >= 0 && going_down != down) chain = (int32_t)((uint32_t)chain + 1);
                going_down = down;
                // Most edges of a path lie wholly inside its own box: kept as they are.
                if (swift_min(ax, bx) >= 0 && swift_max(ax, bx) < width && swift_min(ay, by) >= 0
                    && swift_max(ay, by) <= height) {
                    bt_path_edge edge = down ? (bt_path_edge){ax, ay, bx, by, 1, chain}
                                             : (bt_path_edge){bx, by, ax, ay, -1, chain};
                    if (!append(&list, edge)) return -1;
                    continue;
                }
            }
            if (!add_edge(&list, ax, ay, bx, by, width, height, chain)) return -1;
        }
        start = end;
    }
    return list.count;
}

#pragma clang assume_nonnull end
