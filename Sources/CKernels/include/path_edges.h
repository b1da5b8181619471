// A path's polygons cut into the edges its rasteriser deposits (`PathRasterizer.Scratch.clipEdges`), in C: the Swift
// loop spent a twentieth of the icon sheet's time on array appends and range checks around a few comparisons an
// edge.
// Its Swift twin is the tests' `ReferenceClippedEdges`, which these edges must equal bit for bit.
#ifndef BLURTOOL_PATH_EDGES_H
#define BLURTOOL_PATH_EDGES_H

#include <stddef.h>
#include <stdint.h>

#pragma clang assume_nonnull begin

/// One edge, cut to the box, in the box's pixels: y0 < y1, `winding` +1 going down and −1 going up; or a horizontal
/// one (y0 = y1, `winding` 0) from x0 to x1 in the outline's order. `chain` numbers the y-monotone chain of its
/// polygon it belongs to (`PathRasterizer.Edge`).
typedef struct bt_path_edge {
    double x0, y0, x1, y1;
    double winding;
    int32_t chain;
} bt_path_edge;

/// The edges of the polygons (`ends[i]` the end of polygon i's vertices in `xs` and `ys`, `polygon_count` of them)
/// cut to the box `left…left + width` × `top…top + height`, in the box's pixels, into `edges`; returns how many,
/// or −1 when more than `capacity` (three an input vertex always suffice).
ptrdiff_t bt_path_clip_edges(
    const double *xs, const double *ys, const ptrdiff_t *ends, ptrdiff_t polygon_count, double left, double top,
    double width, double height, bt_path_edge *edges, ptrdiff_t capacity);

#pragma clang assume_nonnull end

#endif
