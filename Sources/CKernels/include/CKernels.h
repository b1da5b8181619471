// The hot loops written in C so that one body compiles once per x86-64 level (kernels_*.c) and Swift picks the
// level at run time (Sources/Compositor/Kernels/CKernelSets.swift): a SwiftPM dependent's default build gets
// AVX2 code without -target-cpu or unsafeFlags. Each function means exactly what its Swift twin in
// Sources/Compositor/Kernels says; tests hold every level the CPU has to the scalar twins, bit for bit.
#ifndef BLURTOOL_CKERNELS_H
#define BLURTOOL_CKERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "path_edges.h"
#include "path_exact_cells.h"
#include "path_rows.h"

#pragma clang assume_nonnull begin

/// The architecture's baseline (SSE2 on x86-64, NEON on arm64): compiled on every architecture.
#define BT_LEVEL_BASELINE 0
/// x86-64-v3: AVX2, FMA, BMI2 (Haswell and later, Zen).
#define BT_LEVEL_X86_64_V3 1
/// x86-64-v4: AVX-512 F, BW, DQ, VL (Skylake-SP and later, Zen 4).
#define BT_LEVEL_X86_64_V4 2

/// Source rows the blur reads next, which `fixed_combine` starts loading while it sums (`bt_prefetch_share`): the
/// blur reads each source row once, in one burst, and a row's 16 KB then waited on memory for about a tenth of
/// the σ 2 blur's time; spread over the sums, the loads overlap them.
typedef struct bt_upcoming_rows {
    /// The first byte of each row's part that will be read; `count` (0...4) of them are set.
    const uint8_t *_Nullable rows[4];
    ptrdiff_t count;
    /// Bytes read of each row.
    ptrdiff_t bytes;
} bt_upcoming_rows;

/// One level's kernels. The meaning of each is the Swift protocol requirement of the same name.
typedef struct bt_kernel_table {
    /// `FixedPointKernelSet.blurRow`, `weight_count` = radius + 1.
    void (*fixed_blur_row)(
        const uint16_t *line, ptrdiff_t step, const uint32_t *weights, ptrdiff_t weight_count, ptrdiff_t count,
        uint16_t *output);
    /// `FixedPointKernelSet.combine` into `output_count` (1...4) rows, prefetching `upcoming` unless NULL.
    void (*fixed_combine)(
        const uint16_t *_Nonnull const *_Nonnull rows, const uint32_t *weights, ptrdiff_t weight_count, ptrdiff_t count,
        uint8_t *_Nonnull const *_Nonnull outputs, ptrdiff_t output_count, const bt_upcoming_rows *_Nullable upcoming);
    /// `Quantizer.byte` of `input[i] + offsets[i]` (of `input[i]` when `offsets` is NULL) for i in 0..<count.
    void (*quantize)(const float *input, const float *_Nullable offsets, ptrdiff_t count, uint8_t *output);
    /// `Quantizer.byte` of the mix `((w₀·r0[i] + w₁·r1[i]) + w₂·r2[i]) + w₃·r3[i]`, plus `offsets[i]` unless NULL,
    /// for i in 0..<count, with w = `weights[0...3]`; `w₁·r1[i] + w₂·r2[i]` (r0 and r3 unread) when w₀ and w₃ are
    /// zero, as `MixedRow` reads it.
    void (*mix_quantize)(
        const float *r0, const float *r1, const float *r2, const float *r3, const float *weights,
        const float *_Nullable offsets, ptrdiff_t count, uint8_t *output);
    /// `Quantizer.limitColoursToAlpha` of `count` RGBA pixels.
    void (*limit_colours_to_alpha)(uint8_t *pixels, ptrdiff_t count);
    /// `CompositeKernel.sourceOverBlocks`: `count` RGBA8 pixels of `source` over `destination` at `opacity`, in
    /// whole blocks of 16; returns the pixels done.
    ptrdiff_t (*source_over)(const uint8_t *source, uint8_t *destination, ptrdiff_t count, float opacity);
    /// `ConvolutionKernelSet.resampleRow`.
    void (*resample_row)(
        const float *span, const ptrdiff_t *first, const float *weights, ptrdiff_t taps, ptrdiff_t count,
        float *output);
    /// `ConvolutionKernelSet.resampleRowPair`.
    void (*resample_row_pair)(
        const float *span, const float *second_span, const ptrdiff_t *first, const float *weights, ptrdiff_t taps,
        ptrdiff_t count, float *output, float *second_output);
    /// `ConvolutionKernelSet.combineBytes` with `taps` weights.
    void (*combine_bytes)(
        const uint8_t *_Nonnull const *_Nonnull rows, const float *weights, ptrdiff_t taps, ptrdiff_t count,
        float *output);
    /// `ConvolutionKernelSet.convolve` with `taps` weights.
    void (*convolve)(
        const float *input, ptrdiff_t step, const float *weights, ptrdiff_t taps, ptrdiff_t count, float *output);
    /// `PyramidKernelSet.convolveAcross` with `taps` weights.
    void (*convolve_across)(const float *line, const float *weights, ptrdiff_t taps, ptrdiff_t count, float *output);
    /// `ConvolutionKernelSet.combine` with `taps` weights.
    void (*combine)(
        const float *_Nonnull const *_Nonnull rows, const float *weights, ptrdiff_t taps, ptrdiff_t count,
        float *output);
    /// `ConvolutionKernelSet.combine4`, `padded_weights` holding `taps` + 6 values.
    void (*combine4)(
        const float *_Nonnull const *_Nonnull rows, const float *padded_weights, ptrdiff_t taps, ptrdiff_t count,
        float *_Nonnull const *_Nonnull outputs);
    /// `PyramidKernelSet.sumRows`.
    void (*sum_rows)(
        const uint8_t *_Nonnull const *_Nonnull rows, ptrdiff_t row_count, ptrdiff_t count, uint32_t *sums);
    /// `PyramidKernelSet.sumNarrowRows` (`row_count` at most 257).
    void (*sum_narrow_rows)(
        const uint8_t *_Nonnull const *_Nonnull rows, ptrdiff_t row_count, ptrdiff_t count, uint16_t *sums);
    /// `PyramidKernelSet.upsample` for the whole groups of four pixels whose cells start at one of two neighbours
    /// (`UpsampleColumns.groups` ≥ 0), cubic when `cubic` is not 0, else linear; the other groups and the last
    /// `count % 4` pixels are left untouched.
    void (*upsample_groups)(
        const float *cells, const int32_t *groups, const float *fractions, ptrdiff_t count, int cubic, float *output);
    /// `BilinearKernelSet.bilinear`. Each run of eight positions is read through 32-bit offsets from its first
    /// neighbourhood, so their neighbourhoods must lie within 2³¹ bytes of each other: `CKernels` calls it only for
    /// rows under 2²⁷ bytes, where the fixed-point path's warps keep them so (they do not minify: eight neighbours
    /// span at most eight rows and eight columns).
    void (*bilinear)(
        const uint8_t *source, ptrdiff_t bytes_per_row, const int32_t *u, const int32_t *v, int32_t origin_u,
        int32_t origin_v, ptrdiff_t count, uint32_t *output);
    /// `PerspectiveKernels.simd` of a planned run of `count` pixels: `levels` and `row_bytes` are
    /// `MipLevels.Table`'s, the other arrays `PerspectiveSampling.Plan`'s.
    void (*perspective)(
        const void *_Nonnull const *_Nonnull levels, const ptrdiff_t *row_bytes, const int32_t *detail,
        const int32_t *lower_offset, const int32_t *upper_offset, const uint32_t *fractions, ptrdiff_t count,
        uint32_t *output);
    /// `PerspectiveSampling.plan(chunk:)` of the `chunks` chunks from canvas x `start`, each chunk's level of detail
    /// in `detail`: `kinds[c]` is 0 (clear), 1 (inside: its plan entries written) or 2 (mixed). `terms` holds, in
    /// Float, the inverse's m11, m12 and m13, the source's width and height, and the row's x, y and w terms
    /// (`PerspectiveSampling.planTerms`); `row_bytes` and `origins` are `MipLevels.Table`'s, `bounds`
    /// `PerspectiveSampling.bounds`.
    void (*perspective_plan)(
        const float *terms, ptrdiff_t start, ptrdiff_t chunks, const int32_t *detail, const ptrdiff_t *row_bytes,
        const ptrdiff_t *origins, const float *bounds, int32_t *lower_offset, int32_t *upper_offset,
        uint32_t *fractions, uint8_t *kinds);
    /// `BilinearKernelSet.turnColumns`: `columns` strip rows of `pitch` values from the source's rows; each column's
    /// `tap_count` taps start at source column `first_tap` and lie on the source, 8 weights a column
    /// (`AxisTurnKernels.lineValue`). `band` holds (the taps' span + 32)·8 pixels of scratch.
    void (*turn_columns)(
        const uint8_t *source, ptrdiff_t bytes_per_row, ptrdiff_t source_width, ptrdiff_t source_height,
        const int32_t *first_tap, const int32_t *tap_count, const int16_t *tap_weights, ptrdiff_t columns,
        uint32_t *strip, ptrdiff_t pitch, uint32_t *band);
    /// `BilinearKernelSet.turnRows`: `columns` canvas columns from their strip rows, 8 Float terms a column.
    void (*turn_rows)(
        const uint32_t *strip, ptrdiff_t pitch, ptrdiff_t source_height, const float *terms, ptrdiff_t columns,
        ptrdiff_t canvas_height, uint8_t *canvas, ptrdiff_t canvas_bytes_per_row);
    /// `BilinearKernelSet.tiltCombine`: `width` pixels, each `AxisTurnKernels.lineValue` of the `count` rows from
    /// `first_row` (rows `bytes_per_row` apart).
    void (*tilt_combine)(
        const uint8_t *first_row, ptrdiff_t bytes_per_row, const int16_t *weights, ptrdiff_t count, ptrdiff_t width,
        uint32_t *output);
    /// `BilinearKernelSet.tiltAcross`: `columns` canvas pixels of one row from its intermediate row `values`
    /// (source column −2 at index 0), with the row's 8 Float terms.
    void (*tilt_across)(
        const uint32_t *values, ptrdiff_t source_width, const float *terms, ptrdiff_t columns, uint32_t *output);
} bt_kernel_table;

/// `level`'s kernels, or NULL when this build has no code for it (the x86-64 levels elsewhere than x86-64).
const bt_kernel_table *_Nullable bt_kernels(int level);

/// Whether this CPU, and the OS's saving of its registers, runs `level`'s code.
int bt_cpu_has_level(int level);

/// Asks the CPU to bring the cache lines of `bytes` bytes from `start` towards it, for writing: a hint that
/// changes no result. The path rasteriser asks for the next destination row while it makes the current one.
static inline void bt_prefetch_for_writing(const void *start, size_t bytes) {
    const char *bytePointer = (const char *)start;
    for (size_t offset = 0; offset < bytes; offset += 64) __builtin_prefetch(bytePointer + offset, 1, 3);
}

#pragma clang assume_nonnull end

#endif
