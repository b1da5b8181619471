/*
 * blurtool.h: the blurtool library's C interface (C99).
 *
 * Frosted backgrounds, Gaussian blurs, materials, compositing, warps, codecs, scenes and text for renderers
 * written in any language. Link with `pkg-config --cflags --libs blurtool`; the shared library carries the
 * Swift runtime, so a C program needs nothing else.
 *
 * Conventions
 * - Every call returns a blurtool_status_t: BLURTOOL_OK (0) on success, else a code from the list below, and
 *   blurtool_last_error() then gives a one-line message naming the argument or the reason. Nothing aborts the
 *   process or prints.
 * - Pixels are RGBA, 8 bits a channel, in a caller's buffer described by a blurtool_buffer_t (first byte of
 *   the top-left pixel, width, height, stride in bytes from one row to the next, and whether its colour is
 *   premultiplied by alpha). Rows may be padded; a negative stride is refused.
 * - Ownership: the library never keeps a pointer to a caller's buffer after a call returns. What the library
 *   allocates (handles, decoded pixels, encoded bytes) the caller frees with the matching call. Using a handle
 *   after freeing it is the caller's bug; the library cannot detect it.
 * - Threads: calls on different buffers and different handles may run at once on any threads. A workspace or a
 *   scene handle is used by one thread at a time (give each rendering thread its own). The last error is per
 *   thread. `threads` arguments bound the library's own worker threads for that call (0: one a core); results
 *   are the same bits for every thread count.
 */
#ifndef BLURTOOL_H
#define BLURTOOL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The interface's version: raised whenever a declaration here changes incompatibly. A program compiled with
 * one header refuses to run on a library whose blurtool_abi_version() differs. */
#define BLURTOOL_ABI_VERSION 1

/* Status codes. */
typedef enum blurtool_status {
    BLURTOOL_OK = 0,
    /* An argument is wrong: a null pointer, a size or stride out of range, a region outside its buffer, an
     * unknown name, a number that is NaN or infinite. */
    BLURTOOL_ERROR_ARGUMENT = 1,
    /* Input data that cannot be read: an image that is not a JPEG or PNG or is damaged, a scene file that is not
     * valid, a font that is missing. */
    BLURTOOL_ERROR_DATA = 2,
    /* Over a limit: more pixels than allowed, a scene that would take too much work or memory. */
    BLURTOOL_ERROR_LIMIT = 3,
    /* Memory could not be allocated. */
    BLURTOOL_ERROR_MEMORY = 4,
    /* A file could not be read. */
    BLURTOOL_ERROR_FILE = 5
} blurtool_status_t;

/* Whether a buffer's colour is premultiplied by its alpha (what the library computes in) or straight (what
 * PNG files, numpy arrays from most decoders and most UI toolkits hold). Straight buffers are converted on the
 * way in and out, for the pixels a call reads and writes only. */
typedef enum blurtool_alpha {
    BLURTOOL_ALPHA_PREMULTIPLIED = 0,
    BLURTOOL_ALPHA_STRAIGHT = 1
} blurtool_alpha_t;

/* A caller's RGBA8 pixels. `stride` is in bytes and at least width * 4. */
typedef struct blurtool_buffer {
    uint8_t *pixels;
    int32_t width;
    int32_t height;
    int64_t stride;
    blurtool_alpha_t alpha;
} blurtool_buffer_t;

/* A rectangle of pixels: its top-left corner and size. */
typedef struct blurtool_rect {
    int32_t x;
    int32_t y;
    int32_t width;
    int32_t height;
} blurtool_rect_t;

/* How a blur reads past an image's edges. */
typedef enum blurtool_edge {
    BLURTOOL_EDGE_MIRROR = 0,      /* reflected about the edge pixel (OpenCV's BORDER_REFLECT_101) */
    BLURTOOL_EDGE_CLAMP = 1,       /* the edge pixel repeated */
    BLURTOOL_EDGE_WRAP = 2,        /* the far side */
    BLURTOOL_EDGE_TRANSPARENT = 3  /* transparent black */
} blurtool_edge_t;

/* Which Gaussian route: AUTO takes the exact convolution below sigma 6.6 px and the pyramid (cost independent of
 * sigma, within the error the README states) above it; EXACT the convolution up to sigma 100; FAST the pyramid
 * wherever it applies. */
typedef enum blurtool_precision {
    BLURTOOL_PRECISION_AUTO = 0,
    BLURTOOL_PRECISION_EXACT = 1,
    BLURTOOL_PRECISION_FAST = 2
} blurtool_precision_t;

/* A material's appearance: light or dark mode. */
typedef enum blurtool_appearance {
    BLURTOOL_APPEARANCE_LIGHT = 0,
    BLURTOOL_APPEARANCE_DARK = 1
} blurtool_appearance_t;

/* Resampling filters for warps. */
typedef enum blurtool_filter {
    BLURTOOL_FILTER_NEAREST = 0,
    BLURTOOL_FILTER_BILINEAR = 1,
    BLURTOOL_FILTER_CATMULL_ROM = 2, /* bicubic, a = -0.5 */
    BLURTOOL_FILTER_MITCHELL = 3,    /* bicubic, B = C = 1/3 */
    BLURTOOL_FILTER_LANCZOS3 = 4
} blurtool_filter_t;

/* Encoded image formats. */
typedef enum blurtool_format {
    BLURTOOL_FORMAT_PNG = 0,
    BLURTOOL_FORMAT_JPEG = 1
} blurtool_format_t;

/* Opaque handles. */
typedef struct blurtool_workspace blurtool_workspace_t;
typedef struct blurtool_scene blurtool_scene_t;

/* ---- The library ---------------------------------------------------------------------------------------- */

/* BLURTOOL_ABI_VERSION of the library that is loaded. */
int32_t blurtool_abi_version(void);

/* The library's version, e.g. "0.1.0". A static string. */
const char *blurtool_version(void);

/* The SIMD kernels this CPU got, e.g. "x86-64-v3 (AVX2+FMA), C" (what `blurtool --verbose` prints). A static
 * string. */
const char *blurtool_kernels(void);

/* The message of this thread's last failed call (UTF-8, one line), or "" when none has failed yet. A call that
 * succeeds leaves it as it was; read it when a call returns a status other than BLURTOOL_OK. The pointer stays
 * valid until this thread's next failure (or its end). */
const char *blurtool_last_error(void);

/* The material names blurtool_material takes, comma-separated ("ultraThin,thin,...,prominent"). A static
 * string. */
const char *blurtool_materials(void);

/* ---- Workspaces ----------------------------------------------------------------------------------------- */

/* Scratch memory for blurs, materials and compositing, and views of the caller's buffers. A renderer that passes
 * the same workspace to every frame's calls allocates nothing once its sizes and sigmas settle (weights are kept
 * for the last 8 sigmas; a blur radius animated frame by frame makes a few small tables a frame). One thread at
 * a time; NULL is never returned (out of memory ends in the Swift runtime, as any small allocation would). */
blurtool_workspace_t *blurtool_workspace_new(void);
/* Frees a workspace; NULL is ignored. */
void blurtool_workspace_free(blurtool_workspace_t *workspace);

/* ---- Blur and materials --------------------------------------------------------------------------------- */

/* Blurs `region` of `source` (NULL: the whole buffer) with a Gaussian of standard deviation `sigma` pixels,
 * reading the pixels around the region as a backdrop filter does (past the buffer's edges, `edge`), so the
 * result equals the whole buffer blurred and cropped to the region: no seam where a panel meets the rest.
 * The result goes to `destination`, which has the region's size, or, when `destination` is NULL, back into the
 * region of `source` (in place). `destination` may overlap `source`. sigma <= 0 copies the bytes (converted
 * only when the two buffers' alpha differ). `workspace` may be NULL (scratch memory is then allocated for the
 * call). Straight-alpha buffers are premultiplied for the blur (the region and the pixels around it that it
 * reads) and converted back, unless every pixel read is opaque (their two forms are then the same bytes). */
blurtool_status_t blurtool_blur(
    blurtool_workspace_t *workspace, const blurtool_buffer_t *source, const blurtool_rect_t *region,
    const blurtool_buffer_t *destination, double sigma, blurtool_edge_t edge, blurtool_precision_t precision,
    int32_t threads);

/* Shows `region` of `source` (NULL: the whole buffer) through a material, as an iOS backdrop does: `name` is
 * one of `blurtool materials` ("ultraThin", "thin", "regular", "thick", "ultraThick", "bar", "chrome",
 * "systemMaterialDark", ...), `dim` the opacity of a black overlay drawn last (0 to 1, SwiftUI's
 * Color.black.opacity(dim)), `effect` how much of the material shows (0: none, 1: all of it, as
 * UIVisualEffectView animates its effect), `pixels_per_point` the buffer's scale (0: the buffer fills a phone
 * screen, its shorter side 390 points). Destination, overlap and alpha as blurtool_blur. A region equals the
 * whole buffer's material cropped: to the bit where the blur takes the pyramid route (sigma from 6.6 px, every
 * catalogue material at 1 pixel a point and more), within one level below it (shading after rounding). */
blurtool_status_t blurtool_material(
    blurtool_workspace_t *workspace, const blurtool_buffer_t *source, const blurtool_rect_t *region,
    const blurtool_buffer_t *destination, const char *name, blurtool_appearance_t appearance, double dim,
    double effect, double pixels_per_point, int32_t threads);

/* ---- Compositing and warps ------------------------------------------------------------------------------ */

/* Draws `source` onto `destination` with its top-left corner at (x, y) (parts outside are skipped) with
 * `op`: a Porter-Duff operator ("source-over", "copy", "clear", "destination", "source-in", "source-out",
 * "source-atop", "destination-over", "destination-in", "destination-out", "destination-atop", "xor",
 * "plus-lighter", "plus-darker"; also "over", "lighter", "plus", "darker" and camelCase or Core Graphics
 * spellings) or a blend mode ("normal", "multiply", "screen", "overlay", "darken", "lighten", "color-dodge",
 * "color-burn", "soft-light", "hard-light", "difference", "exclusion", "hue", "saturation", "color",
 * "luminosity"); NULL is "source-over". The source counts `opacity` (0 to 1) times; `mask` (NULL for none) is an
 * A8 coverage plane of the source's size with `mask_stride` bytes a row, acting as a clip. The operator acts
 * inside the drawn rectangle only, as Core Graphics draws an image. `source` may overlap `destination`.
 * `workspace` (NULL allowed) keeps what a call repeated every frame would otherwise allocate. */
blurtool_status_t blurtool_composite(
    blurtool_workspace_t *workspace, const blurtool_buffer_t *destination, const blurtool_buffer_t *source,
    int32_t x, int32_t y, const char *op, double opacity, const uint8_t *mask, int64_t mask_stride,
    int32_t threads);

/* Draws `source` through an affine transform onto `destination`, which is first cleared to transparent:
 * `matrix` is {a, b, c, d, tx, ty} as CGAffineTransform (a source point (x, y), in pixels from the top-left
 * corner, lands on (a x + c y + tx, b x + d y + ty)). Minification averages (no aliasing). A singular matrix
 * draws nothing. `destination` must not overlap `source`. */
blurtool_status_t blurtool_warp(
    const blurtool_buffer_t *destination, const blurtool_buffer_t *source, const double matrix[6],
    blurtool_filter_t filter, int32_t threads);

/* As blurtool_warp with a 3D transform seen in perspective: `matrix` is CATransform3D's m11 ... m44 in that
 * order (row vectors: a point (x, y, 0, 1) times the matrix), in pixels; set m34 = -1 / eye distance for
 * perspective. Sampled bilinearly with mipmaps where the plane recedes; points behind the eye stay clear. */
blurtool_status_t blurtool_warp_3d(
    const blurtool_buffer_t *destination, const blurtool_buffer_t *source, const double matrix[16],
    int32_t threads);

/* ---- Codecs --------------------------------------------------------------------------------------------- */

/* Decodes a JPEG or PNG (recognised by its bytes) from memory, turned upright by its EXIF orientation, into
 * pixels the library allocates: `*image` gets them with `alpha` as asked; free them with blurtool_free(image->
 * pixels). Images of more than `max_pixels` pixels (0: 100 megapixels) are refused before any is allocated. */
blurtool_status_t blurtool_decode(
    const void *data, size_t size, int64_t max_pixels, blurtool_alpha_t alpha, blurtool_buffer_t *image);

/* Encodes `image` as PNG or JPEG (`quality` 1 to 100; ignored for PNG, which uses zlib level 1). `*data` gets
 * bytes the library allocates (free with blurtool_free), `*size` their count. JPEG has no alpha: the image is
 * written over black. */
blurtool_status_t blurtool_encode(
    const blurtool_buffer_t *image, blurtool_format_t format, int32_t quality, uint8_t **data, size_t *size);

/* Frees what blurtool_decode and blurtool_encode allocated; NULL is ignored. */
void blurtool_free(void *memory);

/* ---- Scenes --------------------------------------------------------------------------------------------- */

/* Reads a scene file (the JSON of `blurtool compose`/`animate`; its images and fonts relative to its folder). */
blurtool_status_t blurtool_scene_load(const char *path, blurtool_scene_t **scene);

/* Reads a scene from `length` bytes of JSON; relative image and font paths start from `base_folder` (NULL:
 * the current directory). */
blurtool_status_t blurtool_scene_from_json(
    const char *json, size_t length, const char *base_folder, blurtool_scene_t **scene);

/* Frees a scene; NULL is ignored. */
void blurtool_scene_free(blurtool_scene_t *scene);

/* The canvas in pixels (points times the scene's scale). */
blurtool_status_t blurtool_scene_size(const blurtool_scene_t *scene, int32_t *width, int32_t *height);

/* When the scene's last animation ends, in seconds (0 for a still scene). */
blurtool_status_t blurtool_scene_duration(const blurtool_scene_t *scene, double *seconds);

/* Draws the scene as it shows at `time` seconds into `destination` (the scene's pixel size, any alpha). What
 * does not move is drawn once and kept in the handle (the frame cache), so asking frame after frame renders at
 * the animation's speed; each frame equals the same frame drawn alone, to the bit. The scene's work limits
 * apply to each frame. Changing `threads` between calls keeps the cache (the pixels do not depend on it). */
blurtool_status_t blurtool_scene_render(
    blurtool_scene_t *scene, double time, const blurtool_buffer_t *destination, int32_t threads);

/* ---- Text ----------------------------------------------------------------------------------------------- */

/* Where each line sits across the label's width. */
typedef enum blurtool_alignment {
    BLURTOOL_ALIGN_NATURAL = 0, /* leading for left-to-right text, trailing for right-to-left */
    BLURTOOL_ALIGN_LEADING = 1,
    BLURTOOL_ALIGN_CENTER = 2,
    BLURTOOL_ALIGN_TRAILING = 3
} blurtool_alignment_t;

/* A label, laid out as UILabel does: `text` UTF-8 (NUL-terminated); `font` a family fontconfig knows ("Inter",
 * "DejaVu Serif"), a font file's absolute path, or NULL for the system face; `size` in points; `weight` 100 to
 * 900 in hundreds (400 regular, 700 bold; 0 is 400); `color` straight RGBA 0 to 1; `width` the width lines wrap
 * to in points (0: no wrapping); `line_limit` the most lines shown, the last truncated by an ellipsis (0: no
 * limit). Pixels are points times `scale` (0 is 1), so a zeroed struct with text and size set is a label. */
typedef struct blurtool_label {
    const char *text;
    const char *font;
    double size;
    int32_t weight;
    double color[4];
    blurtool_alignment_t alignment;
    double width;
    int32_t line_limit;
    double scale;
} blurtool_label_t;

/* The label's size in pixels as laid out: the widest line and the lines' height (UILabel's sizeThatFits). */
blurtool_status_t blurtool_text_measure(const blurtool_label_t *label, double *width, double *height);

/* Draws the label source-over into `destination` with the top-left corner of its box (what
 * blurtool_text_measure gives) at pixel (x, y); text outside the buffer is clipped. */
blurtool_status_t blurtool_text_draw(
    const blurtool_label_t *label, const blurtool_buffer_t *destination, double x, double y);

/* ---- Paths --------------------------------------------------------------------------------------------- */

/* Which points a path's outline encloses (SVG's fill-rule). */
typedef enum blurtool_fill_rule {
    BLURTOOL_FILL_NONZERO = 0, /* wound round any number of times but zero (SVG's default) */
    BLURTOOL_FILL_EVENODD = 1  /* wound round an odd number of times: overlaps and inner rings are holes */
} blurtool_fill_rule_t;

typedef enum blurtool_line_cap {
    BLURTOOL_CAP_BUTT = 0,
    BLURTOOL_CAP_ROUND = 1,
    BLURTOOL_CAP_SQUARE = 2
} blurtool_line_cap_t;

typedef enum blurtool_line_join {
    BLURTOOL_JOIN_MITER = 0,
    BLURTOOL_JOIN_ROUND = 1,
    BLURTOOL_JOIN_BEVEL = 2
} blurtool_line_join_t;

/* How a path is stroked, in path units (so widths scale with the matrix, as in Core Graphics): `width` (0: a
 * hairline one pixel wide), `cap`, `join`, `miter_limit` (0: SVG's 4), and dashes: `dash_count` lengths (NULL
 * and 0: a solid line), the pattern starting `dash_phase` into itself, as SVG's stroke-dasharray and
 * stroke-dashoffset (an odd count repeats the lengths; negative lengths, or all of them zero, are refused). A
 * zeroed struct with `width` set is a solid line with butt caps and miter joins. */
typedef struct blurtool_stroke {
    double width;
    blurtool_line_cap_t cap;
    blurtool_line_join_t join;
    double miter_limit;
    const double *dashes;
    int32_t dash_count;
    double dash_phase;
} blurtool_stroke_t;

/* Fills the path `svg_path_data` (SVG 1.1/2 path data, "M6 6 L18 18 ..."; a mistake is refused with its offset;
 * at most 1,000,000 segments) by `rule` with `color` (straight RGBA, 0 to 1), anti-aliased by exact area, onto
 * `destination`: `matrix` is {a, b, c, d, tx, ty} from path units to the destination's pixels, as blurtool_warp's
 * (NULL: the identity), `op` and `opacity` as blurtool_composite's. Curves are flattened after the matrix to 0.02
 * px, so a path is as smooth at any scale. Pixels the path does not cover are left as they are, whatever the
 * operator. A path with a point that is not finite or lies beyond 10^15 px after the matrix draws nothing. */
blurtool_status_t blurtool_fill_path(
    const blurtool_buffer_t *destination, const char *svg_path_data, const double matrix[6], const double color[4],
    blurtool_fill_rule_t rule, const char *op, double opacity, int32_t threads);

/* Strokes the path with `stroke` (NULL is refused) as blurtool_fill_path fills it: where the stroke overlaps
 * itself it is drawn once, as SVG draws it. */
blurtool_status_t blurtool_stroke_path(
    const blurtool_buffer_t *destination, const char *svg_path_data, const double matrix[6], const double color[4],
    const blurtool_stroke_t *stroke, const char *op, double opacity, int32_t threads);

#ifdef __cplusplus
}
#endif

#endif /* BLURTOOL_H */
