/*
 * The C interface tested from C, through the installed header and library (pkg-config):
 *
 *   capi_test FIXTURES REFERENCES
 *
 * REFERENCES holds what the blurtool command (the same Swift library) made of the fixtures (see run.sh); every
 * call's pixels must equal them, or the equivalent Swift-side guarantee (a region equals the whole blurred and
 * cropped). Every bad argument must give its status and a message naming the argument. Exit status: failures.
 */
#define _POSIX_C_SOURCE 200809L
#include <blurtool.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
static int checks;

#define CHECK(condition, ...)                                               \
    do {                                                                    \
        checks++;                                                           \
        if (!(condition)) {                                                 \
            failures++;                                                     \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);            \
            fprintf(stderr, __VA_ARGS__);                                   \
            fprintf(stderr, " (last error: %s)\n", blurtool_last_error()); \
        }                                                                   \
    } while (0)

/* A call that must fail with `status` and a message that starts with the function's name and names `needle`. */
static void expect_failure(blurtool_status_t got, blurtool_status_t status, const char *function, const char *needle,
                           int line) {
    const char *message = blurtool_last_error();
    checks++;
    if (got != status || strncmp(message, function, strlen(function)) != 0 || !strstr(message, needle)) {
        failures++;
        fprintf(stderr, "FAIL line %d: status %d (wanted %d), message \"%s\" (wanted %s ... %s)\n", line, got,
                status, message, function, needle);
    }
}
#define EXPECT_FAILURE(call, status, function, needle) expect_failure((call), (status), (function), (needle), __LINE__)

static char fixtures[1024], references[1024];

static unsigned char *read_file(const char *path, size_t *size) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    fseek(file, 0, SEEK_END);
    long length = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *bytes = malloc(length > 0 ? (size_t)length : 1);
    *size = bytes ? fread(bytes, 1, (size_t)length, file) : 0;
    fclose(file);
    return bytes;
}

/* A file of the fixtures or references decoded; exits when missing (nothing else can be checked). */
static blurtool_buffer_t load(const char *folder, const char *name, blurtool_alpha_t alpha) {
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    size_t size;
    unsigned char *bytes = read_file(path, &size);
    blurtool_buffer_t image = {0};
    if (!bytes || blurtool_decode(bytes, size, 0, alpha, &image) != BLURTOOL_OK) {
        fprintf(stderr, "capi_test: cannot load %s: %s\n", path, blurtool_last_error());
        exit(2);
    }
    free(bytes);
    return image;
}

static blurtool_buffer_t blank(int32_t width, int32_t height, int64_t padding, blurtool_alpha_t alpha) {
    blurtool_buffer_t image = {NULL, width, height, (int64_t)width * 4 + padding, alpha};
    image.pixels = calloc((size_t)image.stride, (size_t)height);
    return image;
}

static blurtool_buffer_t copy_of(const blurtool_buffer_t *source, int64_t padding) {
    blurtool_buffer_t copy = blank(source->width, source->height, padding, source->alpha);
    for (int y = 0; y < source->height; y++)
        memcpy(copy.pixels + y * copy.stride, source->pixels + y * source->stride, (size_t)source->width * 4);
    return copy;
}

/* The largest channel difference between `a` and the rectangle of `b` at (x, y) of a's size. */
static int difference_at(const blurtool_buffer_t *a, const blurtool_buffer_t *b, int x, int y) {
    int largest = 0;
    for (int row = 0; row < a->height; row++) {
        const uint8_t *p = a->pixels + row * a->stride;
        const uint8_t *q = b->pixels + (row + y) * b->stride + x * 4;
        for (int i = 0; i < a->width * 4; i++) {
            int d = abs((int)p[i] - (int)q[i]);
            if (d > largest) largest = d;
        }
    }
    return largest;
}

static int difference(const blurtool_buffer_t *a, const blurtool_buffer_t *b) {
    if (a->width != b->width || a->height != b->height) return 256;
    return difference_at(a, b, 0, 0);
}

static void test_library(void) {
    CHECK(blurtool_abi_version() == BLURTOOL_ABI_VERSION, "ABI %d", blurtool_abi_version());
    CHECK(strcmp(blurtool_version(), "") != 0, "a version");
    CHECK(strstr(blurtool_kernels(), "") && strlen(blurtool_kernels()) > 0, "kernels named");
    CHECK(strcmp(blurtool_last_error(), "") == 0, "no error before any failure");
    CHECK(strstr(blurtool_materials(), "ultraThin,thin,") == blurtool_materials(), "materials: %s", blurtool_materials());
}

static void test_blur(const blurtool_buffer_t *photo) {
    blurtool_workspace_t *workspace = blurtool_workspace_new();
    blurtool_buffer_t reference = load(references, "blur3.png", BLURTOOL_ALPHA_PREMULTIPLIED);
    blurtool_buffer_t whole = blank(photo->width, photo->height, 0, BLURTOOL_ALPHA_PREMULTIPLIED);
    CHECK(blurtool_blur(workspace, photo, NULL, &whole, 3, BLURTOOL_EDGE_MIRROR, BLURTOOL_PRECISION_AUTO, 0) == 0, "blur");
    CHECK(difference(&whole, &reference) == 0, "σ 3 equals the command's: %d", difference(&whole, &reference));

    /* A region equals the whole blurred and cropped, into a buffer of its size or in place, any stride. */
    blurtool_rect_t region = {100, 50, 200, 120};
    blurtool_buffer_t panel = blank(200, 120, 36, BLURTOOL_ALPHA_PREMULTIPLIED);
    CHECK(blurtool_blur(workspace, photo, &region, &panel, 3, BLURTOOL_EDGE_MIRROR, BLURTOOL_PRECISION_AUTO, 1) == 0, "region");
    CHECK(difference_at(&panel, &whole, 100, 50) == 0, "region equals the crop");
    blurtool_buffer_t padded = copy_of(photo, 64);
    CHECK(blurtool_blur(workspace, &padded, &region, NULL, 3, BLURTOOL_EDGE_MIRROR, BLURTOOL_PRECISION_AUTO, 2) == 0, "in place");
    blurtool_buffer_t inside = {padded.pixels + 50 * padded.stride + 100 * 4, 200, 120, padded.stride, padded.alpha};
    CHECK(difference_at(&inside, &whole, 100, 50) == 0, "in place equals the crop");
    blurtool_buffer_t above = {padded.pixels, photo->width, 50, padded.stride, padded.alpha};
    CHECK(difference_at(&above, photo, 0, 0) == 0, "rows above the region untouched");

    /* Straight alpha: an opaque photo gives the same pixels; a wide σ takes the pyramid route, same rules. */
    blurtool_buffer_t straight = copy_of(photo, 0);
    straight.alpha = BLURTOOL_ALPHA_STRAIGHT;
    CHECK(blurtool_blur(NULL, &straight, &region, &panel, 3, BLURTOOL_EDGE_MIRROR, BLURTOOL_PRECISION_AUTO, 0) == 0, "straight");
    CHECK(difference_at(&panel, &whole, 100, 50) == 0, "straight opaque equals premultiplied");
    /* A translucent pixel in the window: the converting route, whose region still equals its whole's crop. */
    straight.pixels[(60 * straight.width + 150) * 4 + 3] = 40;
    blurtool_buffer_t straight_whole = blank(photo->width, photo->height, 0, BLURTOOL_ALPHA_STRAIGHT);
    CHECK(blurtool_blur(NULL, &straight, NULL, &straight_whole, 3, BLURTOOL_EDGE_MIRROR, BLURTOOL_PRECISION_AUTO, 0) == 0, "whole");
    blurtool_buffer_t straight_panel = blank(200, 120, 0, BLURTOOL_ALPHA_STRAIGHT);
    CHECK(blurtool_blur(NULL, &straight, &region, &straight_panel, 3, BLURTOOL_EDGE_MIRROR, BLURTOOL_PRECISION_AUTO, 0) == 0, "region");
    CHECK(difference_at(&straight_panel, &straight_whole, 100, 50) == 0, "straight translucent region equals the crop");
    CHECK(straight_panel.pixels[(10 * 200 + 50) * 4 + 3] < 255, "the translucent pixel blurred into its neighbours");
    CHECK(difference_at(&straight_panel, &whole, 100, 50) > 0, "and the result is not the opaque one");
    free(straight_whole.pixels), free(straight_panel.pixels);
    blurtool_buffer_t wide = blank(photo->width, photo->height, 0, BLURTOOL_ALPHA_PREMULTIPLIED);
    CHECK(blurtool_blur(workspace, photo, NULL, &wide, 30, BLURTOOL_EDGE_MIRROR, BLURTOOL_PRECISION_AUTO, 0) == 0, "σ 30");
    CHECK(blurtool_blur(workspace, photo, &region, &panel, 30, BLURTOOL_EDGE_MIRROR, BLURTOOL_PRECISION_AUTO, 0) == 0, "σ 30 region");
    CHECK(difference_at(&panel, &wide, 100, 50) == 0, "σ 30 region equals the crop");
    CHECK(blurtool_blur(workspace, photo, NULL, &wide, 0, BLURTOOL_EDGE_MIRROR, BLURTOOL_PRECISION_AUTO, 0) == 0, "σ 0");
    CHECK(difference(&wide, photo) == 0, "σ 0 copies");

    blurtool_rect_t outside = {500, 0, 200, 10};
    blurtool_buffer_t broken = *photo;
    EXPECT_FAILURE(blurtool_blur(NULL, NULL, NULL, NULL, 1, 0, 0, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_blur", "source: is NULL");
    broken.pixels = NULL;
    EXPECT_FAILURE(blurtool_blur(NULL, &broken, NULL, NULL, 1, 0, 0, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_blur", "source->pixels");
    broken = *photo;
    broken.width = 0;
    EXPECT_FAILURE(blurtool_blur(NULL, &broken, NULL, NULL, 1, 0, 0, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_blur", "source->width");
    broken = *photo;
    broken.height = -5;
    EXPECT_FAILURE(blurtool_blur(NULL, &broken, NULL, NULL, 1, 0, 0, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_blur", "source->height");
    broken = *photo;
    broken.stride = photo->width * 4 - 1;
    EXPECT_FAILURE(blurtool_blur(NULL, &broken, NULL, NULL, 1, 0, 0, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_blur", "source->stride");
    broken = *photo;
    broken.alpha = (blurtool_alpha_t)7;
    EXPECT_FAILURE(blurtool_blur(NULL, &broken, NULL, NULL, 1, 0, 0, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_blur", "source->alpha");
    EXPECT_FAILURE(blurtool_blur(NULL, photo, &outside, NULL, 1, 0, 0, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_blur", "region");
    EXPECT_FAILURE(blurtool_blur(NULL, photo, &region, photo, 1, 0, 0, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_blur", "destination");
    EXPECT_FAILURE(blurtool_blur(NULL, photo, NULL, &wide, NAN, 0, 0, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_blur", "sigma");
    EXPECT_FAILURE(blurtool_blur(NULL, photo, NULL, &wide, INFINITY, 0, 0, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_blur", "sigma");
    EXPECT_FAILURE(blurtool_blur(NULL, photo, NULL, &wide, 1, (blurtool_edge_t)9, 0, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_blur", "edge");
    EXPECT_FAILURE(blurtool_blur(NULL, photo, NULL, &wide, 1, 0, (blurtool_precision_t)9, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_blur", "precision");
    EXPECT_FAILURE(blurtool_blur(NULL, photo, NULL, &wide, 1, 0, 0, -1), BLURTOOL_ERROR_ARGUMENT, "blurtool_blur", "threads");

    blurtool_workspace_free(workspace);
    blurtool_workspace_free(NULL);
    free(whole.pixels), free(panel.pixels), free(padded.pixels), free(straight.pixels), free(wide.pixels);
    blurtool_free(reference.pixels);
}

static void test_material(void) {
    blurtool_buffer_t photo = load(references, "coffee.png", BLURTOOL_ALPHA_PREMULTIPLIED);
    blurtool_buffer_t result = blank(photo.width, photo.height, 0, BLURTOOL_ALPHA_PREMULTIPLIED);
    const struct { const char *reference, *name; blurtool_appearance_t appearance; double dim; } cases[] = {
        {"thin.png", "thin", BLURTOOL_APPEARANCE_LIGHT, 0},
        {"regular-dark-dim.png", "regular", BLURTOOL_APPEARANCE_DARK, 0.3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        blurtool_buffer_t reference = load(references, cases[i].reference, BLURTOOL_ALPHA_PREMULTIPLIED);
        CHECK(blurtool_material(NULL, &photo, NULL, &result, cases[i].name, cases[i].appearance, cases[i].dim, 1, 0, 0) == 0,
              "material %s", cases[i].name);
        CHECK(difference(&result, &reference) == 0, "%s equals the command's: %d", cases[i].name,
              difference(&result, &reference));
        blurtool_free(reference.pixels);
    }
    /* No effect shows the photo; a region of the material is the whole one's crop (pyramid route: to the bit). */
    CHECK(blurtool_material(NULL, &photo, NULL, &result, "thin", 0, 0, 0, 0, 0) == 0, "effect 0");
    CHECK(difference(&result, &photo) <= 1, "effect 0 shows the photo: %d", difference(&result, &photo));
    blurtool_buffer_t whole = blank(photo.width, photo.height, 0, BLURTOOL_ALPHA_PREMULTIPLIED);
    blurtool_material(NULL, &photo, NULL, &whole, "thin", 0, 0, 1, 0, 0);
    blurtool_rect_t sheet = {0, 260, photo.width, 140};
    blurtool_buffer_t panel = blank(photo.width, 140, 0, BLURTOOL_ALPHA_PREMULTIPLIED);
    CHECK(blurtool_material(NULL, &photo, &sheet, &panel, "thin", 0, 0, 1, 0, 0) == 0, "sheet");
    CHECK(difference_at(&panel, &whole, 0, 260) == 0, "the sheet is the whole one's crop");

    EXPECT_FAILURE(blurtool_material(NULL, &photo, NULL, NULL, "frosted", 0, 0, 1, 0, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_material", "name: unknown material \"frosted\"");
    EXPECT_FAILURE(blurtool_material(NULL, &photo, NULL, NULL, NULL, 0, 0, 1, 0, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_material", "name: is NULL");
    EXPECT_FAILURE(blurtool_material(NULL, &photo, NULL, NULL, "thin", (blurtool_appearance_t)3, 0, 1, 0, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_material", "appearance");
    EXPECT_FAILURE(blurtool_material(NULL, &photo, NULL, NULL, "thin", 0, 2, 1, 0, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_material", "dim");
    EXPECT_FAILURE(blurtool_material(NULL, &photo, NULL, NULL, "thin", 0, 0, NAN, 0, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_material", "effect");
    EXPECT_FAILURE(blurtool_material(NULL, &photo, NULL, NULL, "thin", 0, 0, 1, -1, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_material", "pixels_per_point");
    blurtool_free(photo.pixels);
    free(result.pixels), free(whole.pixels), free(panel.pixels);
}

static void test_composite(const blurtool_buffer_t *photo) {
    blurtool_workspace_t *workspace = blurtool_workspace_new(); /* its views of the buffers kept call to call */
    blurtool_buffer_t canvas = copy_of(photo, 8);
    blurtool_buffer_t red = blank(10, 10, 0, BLURTOOL_ALPHA_STRAIGHT);
    for (int i = 0; i < 100; i++) memcpy(red.pixels + i * 4, (uint8_t[]){255, 0, 0, 255}, 4);
    CHECK(blurtool_composite(workspace, &canvas, &red, 5, 7, NULL, 1, NULL, 0, 0) == 0, "source-over");
    CHECK(difference_at(&red, &canvas, 5, 7) == 0, "an opaque source replaces what it covers");
    blurtool_buffer_t before = copy_of(&canvas, 0);
    CHECK(blurtool_composite(workspace, &canvas, &red, 20, 20, "source-over", 0, NULL, 0, 0) == 0, "opacity 0");
    CHECK(difference(&before, &canvas) == 0, "opacity 0 leaves the destination");
    uint8_t mask[100] = {0};
    CHECK(blurtool_composite(NULL, &canvas, &red, 20, 20, "copy", 1, mask, 10, 0) == 0, "mask");
    CHECK(difference(&before, &canvas) == 0, "a clear mask leaves the destination");
    blurtool_buffer_t white = blank(10, 10, 0, BLURTOOL_ALPHA_PREMULTIPLIED);
    memset(white.pixels, 255, 400);
    CHECK(blurtool_composite(NULL, &canvas, &white, 200, 100, "multiply", 1, NULL, 0, 0) == 0, "multiply");
    CHECK(difference(&before, &canvas) == 0, "multiplying by white changes nothing");
    CHECK(blurtool_composite(workspace, &canvas, &red, -5, -5, "source-over", 1, NULL, 0, 0) == 0, "partly outside");
    CHECK(canvas.pixels[0] == 255 && canvas.pixels[1] == 0, "the part inside drawn");

    EXPECT_FAILURE(blurtool_composite(NULL, &canvas, &red, 0, 0, "bogus", 1, NULL, 0, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_composite", "op: unknown operator \"bogus\"");
    EXPECT_FAILURE(blurtool_composite(NULL, &canvas, &red, 0, 0, NULL, INFINITY, NULL, 0, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_composite", "opacity");
    EXPECT_FAILURE(blurtool_composite(NULL, &canvas, &red, 0, 0, NULL, 1, mask, 9, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_composite", "mask_stride");
    EXPECT_FAILURE(blurtool_composite(NULL, NULL, &red, 0, 0, NULL, 1, NULL, 0, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_composite", "destination: is NULL");
    blurtool_workspace_free(workspace);
    free(canvas.pixels), free(red.pixels), free(before.pixels), free(white.pixels);
}

static void test_warp(const blurtool_buffer_t *photo) {
    blurtool_buffer_t result = blank(photo->width, photo->height, 0, BLURTOOL_ALPHA_PREMULTIPLIED);
    const double identity[6] = {1, 0, 0, 1, 0, 0};
    CHECK(blurtool_warp(&result, photo, identity, BLURTOOL_FILTER_BILINEAR, 0) == 0, "identity");
    CHECK(difference(&result, photo) == 0, "the identity copies");
    blurtool_buffer_t reference = load(references, "warp.png", BLURTOOL_ALPHA_PREMULTIPLIED);
    const double turned[6] = {0.8, 0.3, -0.3, 0.8, 120, -40};
    CHECK(blurtool_warp(&result, photo, turned, BLURTOOL_FILTER_BILINEAR, 0) == 0, "warp");
    CHECK(difference(&result, &reference) == 0, "equals the command's --transform: %d", difference(&result, &reference));
    const double identity3d[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    CHECK(blurtool_warp_3d(&result, photo, identity3d, 0) == 0, "3D identity");
    CHECK(difference(&result, photo) == 0, "the 3D identity copies");
    /* Turned 40° about y in perspective: the far edge shrinks, so the top-right corner is left clear. */
    double c = cos(0.7), s = sin(0.7);
    const double receding[16] = {c, 0, -s, s / 500, 0, 1, 0, 0, s, 0, c, -c / 500, 0, 0, 0, 1};
    CHECK(blurtool_warp_3d(&result, photo, receding, 0) == 0, "perspective");
    CHECK(result.pixels[(photo->width - 1) * 4 + 3] == 0, "a corner beyond the receding edge is clear");
    CHECK(result.pixels[(200 * photo->width + 10) * 4 + 3] == 255, "the near side is covered");
    const double singular[6] = {0, 0, 0, 0, 5, 5};
    CHECK(blurtool_warp(&result, photo, singular, BLURTOOL_FILTER_BILINEAR, 0) == 0, "singular");
    CHECK(result.pixels[3] == 0 && result.pixels[(200 * photo->width + 300) * 4 + 3] == 0, "a singular matrix draws nothing");

    const double broken[6] = {1, 0, NAN, 1, 0, 0};
    EXPECT_FAILURE(blurtool_warp(&result, photo, broken, 1, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_warp", "matrix[2]");
    EXPECT_FAILURE(blurtool_warp(&result, photo, NULL, 1, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_warp", "matrix: is NULL");
    EXPECT_FAILURE(blurtool_warp(&result, photo, identity, (blurtool_filter_t)42, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_warp", "filter");
    EXPECT_FAILURE(blurtool_warp(photo, photo, identity, 1, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_warp", "destination: overlaps source");
    EXPECT_FAILURE(blurtool_warp_3d(photo, photo, identity3d, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_warp_3d", "overlaps");
    free(result.pixels);
    blurtool_free(reference.pixels);
}

static void test_codecs(const blurtool_buffer_t *photo) {
    uint8_t *png;
    size_t size;
    CHECK(blurtool_encode(photo, BLURTOOL_FORMAT_PNG, 0, &png, &size) == 0 && size > 8, "PNG");
    blurtool_buffer_t back;
    CHECK(blurtool_decode(png, size, 0, BLURTOOL_ALPHA_PREMULTIPLIED, &back) == 0, "decoded");
    CHECK(difference(&back, photo) == 0, "PNG round trip");
    EXPECT_FAILURE(blurtool_decode(png, size, 1000, 0, &back), BLURTOOL_ERROR_LIMIT, "blurtool_decode", "1000");
    EXPECT_FAILURE(blurtool_decode(png, 20, 0, 0, &back), BLURTOOL_ERROR_DATA, "blurtool_decode", "");
    EXPECT_FAILURE(blurtool_decode("GIF89a", 6, 0, 0, &back), BLURTOOL_ERROR_DATA, "blurtool_decode", "not a JPEG or PNG");
    EXPECT_FAILURE(blurtool_decode(NULL, 5, 0, 0, &back), BLURTOOL_ERROR_ARGUMENT, "blurtool_decode", "data: is NULL");
    EXPECT_FAILURE(blurtool_decode(png, 0, 0, 0, &back), BLURTOOL_ERROR_ARGUMENT, "blurtool_decode", "size");
    EXPECT_FAILURE(blurtool_decode(png, size, -1, 0, &back), BLURTOOL_ERROR_ARGUMENT, "blurtool_decode", "max_pixels");
    EXPECT_FAILURE(blurtool_decode(png, size, 0, 0, NULL), BLURTOOL_ERROR_ARGUMENT, "blurtool_decode", "image: is NULL");
    blurtool_free(png);
    blurtool_free(back.pixels);
    uint8_t *jpeg;
    CHECK(blurtool_encode(photo, BLURTOOL_FORMAT_JPEG, 85, &jpeg, &size) == 0 && jpeg[0] == 0xFF && jpeg[1] == 0xD8, "JPEG");
    CHECK(blurtool_decode(jpeg, size, 0, BLURTOOL_ALPHA_STRAIGHT, &back) == 0 && back.width == photo->width, "JPEG back");
    /* Not garbage: a photo through JPEG at 85 is off by tens of levels at its sharpest edges, not by 255. */
    CHECK(difference(&back, photo) < 80, "JPEG at 85 close to the photo: %d", difference(&back, photo));
    blurtool_free(jpeg);
    blurtool_free(back.pixels);
    EXPECT_FAILURE(blurtool_encode(photo, BLURTOOL_FORMAT_JPEG, 0, &jpeg, &size), BLURTOOL_ERROR_ARGUMENT, "blurtool_encode", "quality");
    EXPECT_FAILURE(blurtool_encode(photo, (blurtool_format_t)5, 90, &jpeg, &size), BLURTOOL_ERROR_ARGUMENT, "blurtool_encode", "format");
    EXPECT_FAILURE(blurtool_encode(photo, 0, 90, NULL, &size), BLURTOOL_ERROR_ARGUMENT, "blurtool_encode", "data: is NULL");
    blurtool_free(NULL);
}

static void test_scenes(void) {
    char path[2048];
    snprintf(path, sizeof path, "%s/review-entrance.json", fixtures);
    blurtool_scene_t *scene = NULL;
    CHECK(blurtool_scene_load(path, &scene) == 0, "load");
    int32_t width = 0, height = 0;
    double duration = 0;
    CHECK(blurtool_scene_size(scene, &width, &height) == 0 && width == 1170 && height == 2532, "%dx%d", width, height);
    CHECK(blurtool_scene_duration(scene, &duration) == 0 && duration > 0.5, "duration %g", duration);
    blurtool_buffer_t frame = blank(width, height, 0, BLURTOOL_ALPHA_PREMULTIPLIED);
    blurtool_buffer_t reference = load(references, "scene-0.5.png", BLURTOOL_ALPHA_PREMULTIPLIED);
    /* Frames asked out of order through the handle's cache equal the command's frame drawn alone. */
    double times[] = {0.9, 0.2, 0.5};
    for (int i = 0; i < 3; i++) CHECK(blurtool_scene_render(scene, times[i], &frame, 0) == 0, "frame at %g", times[i]);
    CHECK(difference(&frame, &reference) == 0, "frame 0.5 equals the command's --at 0.5: %d", difference(&frame, &reference));
    blurtool_buffer_t small = blank(10, 10, 0, BLURTOOL_ALPHA_PREMULTIPLIED);
    EXPECT_FAILURE(blurtool_scene_render(scene, 0, &small, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_scene_render", "destination: is 10x10");
    EXPECT_FAILURE(blurtool_scene_render(scene, NAN, &frame, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_scene_render", "time");
    EXPECT_FAILURE(blurtool_scene_render(NULL, 0, &frame, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_scene_render", "scene: is NULL");
    blurtool_scene_free(scene);
    blurtool_scene_free(NULL);

    const char *json = "{\"canvas\": {\"width\": 8, \"height\": 6, \"scale\": 2}, \"layers\": ["
                       "{\"type\": \"image\", \"path\": \"coffee.jpg\"}, {\"type\": \"color\", \"color\": \"red\", "
                       "\"frame\": {\"x\": 0, \"y\": 0, \"width\": 4, \"height\": 6}}]}";
    CHECK(blurtool_scene_from_json(json, strlen(json), fixtures, &scene) == 0, "from JSON");
    CHECK(blurtool_scene_size(scene, &width, &height) == 0 && width == 16 && height == 12, "%dx%d at scale 2", width, height);
    CHECK(blurtool_scene_duration(scene, &duration) == 0 && duration == 0, "a still scene lasts 0 s");
    blurtool_buffer_t canvas = blank(16, 12, 0, BLURTOOL_ALPHA_STRAIGHT);
    CHECK(blurtool_scene_render(scene, 0, &canvas, 1) == 0, "render");
    CHECK(canvas.pixels[0] == 255 && canvas.pixels[1] == 0 && canvas.pixels[3] == 255, "red on the left");
    CHECK(canvas.pixels[15 * 4 + 3] == 255 && canvas.pixels[15 * 4 + 1] != 0, "the photo on the right");
    blurtool_scene_free(scene);

    EXPECT_FAILURE(blurtool_scene_load("/nonexistent/scene.json", &scene), BLURTOOL_ERROR_FILE, "blurtool_scene_load", "/nonexistent/scene.json");
    EXPECT_FAILURE(blurtool_scene_from_json("{\"canvas\": 5}", 13, NULL, &scene), BLURTOOL_ERROR_DATA, "blurtool_scene_from_json", "canvas");
    EXPECT_FAILURE(blurtool_scene_from_json("{", 1, NULL, &scene), BLURTOOL_ERROR_DATA, "blurtool_scene_from_json", "JSON");
    const char *missing = "{\"canvas\": {\"width\": 8, \"height\": 6}, \"layers\": [{\"type\": \"image\", \"path\": \"nope.png\"}]}";
    EXPECT_FAILURE(blurtool_scene_from_json(missing, strlen(missing), fixtures, &scene), BLURTOOL_ERROR_DATA, "blurtool_scene_from_json", "layers[0]");
    EXPECT_FAILURE(blurtool_scene_from_json(json, strlen(json), NULL, NULL), BLURTOOL_ERROR_ARGUMENT, "blurtool_scene_from_json", "scene: is NULL");
    EXPECT_FAILURE(blurtool_scene_size(NULL, &width, &height), BLURTOOL_ERROR_ARGUMENT, "blurtool_scene_size", "scene");
    free(frame.pixels), free(small.pixels), free(canvas.pixels);
    blurtool_free(reference.pixels);
}

static void test_text(void) {
    blurtool_label_t label = {"Lunch at Noma", NULL, 17, 400, {0, 0, 0, 1}, BLURTOOL_ALIGN_NATURAL, 0, 0, 2};
    double width, height;
    CHECK(blurtool_text_measure(&label, &width, &height) == 0 && width > 100 && height > 30, "%g x %g px", width, height);
    label.size = 34;
    double wider, taller;
    blurtool_text_measure(&label, &wider, &taller);
    CHECK(wider > 1.9 * width && taller > 1.9 * height, "twice the size, twice the box: %g x %g", wider, taller);
    label.width = 60; /* points: wraps to lines of at most 120 px */
    blurtool_text_measure(&label, &wider, &taller);
    CHECK(wider <= 120 && taller > 2 * height, "wrapped: %g x %g", wider, taller);
    label.line_limit = 1;
    blurtool_text_measure(&label, &wider, &taller);
    CHECK(taller < 1.5 * 2 * height, "one line: %g", taller);

    label = (blurtool_label_t){"Hi", "DejaVu Sans", 20, 700, {1, 1, 1, 1}, BLURTOOL_ALIGN_CENTER, 0, 0, 1};
    blurtool_buffer_t canvas = blank(60, 40, 0, BLURTOOL_ALPHA_STRAIGHT);
    CHECK(blurtool_text_draw(&label, &canvas, 10, 5) == 0, "draw");
    int inked = 0, outside = 0;
    blurtool_text_measure(&label, &width, &height);
    for (int y = 0; y < 40; y++)
        for (int x = 0; x < 60; x++) {
            int alpha = canvas.pixels[(y * 60 + x) * 4 + 3];
            if (alpha && (x < 9 || y < 4 || x > 10 + width + 1 || y > 5 + height + 1)) outside++;
            inked += alpha > 128;
        }
    CHECK(inked > 40, "glyphs drawn: %d pixels", inked);
    CHECK(outside == 0, "ink within the measured box: %d pixels outside", outside);
    CHECK(blurtool_text_draw(&label, &canvas, -1000, 5) == 0, "drawn outside the buffer: clipped, not an error");

    label.weight = 450;
    EXPECT_FAILURE(blurtool_text_measure(&label, &width, &height), BLURTOOL_ERROR_ARGUMENT, "blurtool_text_measure", "label->weight");
    label.weight = 400;
    label.color[0] = 2;
    EXPECT_FAILURE(blurtool_text_draw(&label, &canvas, 0, 0), BLURTOOL_ERROR_ARGUMENT, "blurtool_text_draw", "label->color[0]");
    label.color[0] = 1;
    label.size = 0;
    EXPECT_FAILURE(blurtool_text_measure(&label, &width, &height), BLURTOOL_ERROR_ARGUMENT, "blurtool_text_measure", "label->size");
    label.size = 12;
    label.font = "No Such Family Anywhere";
    EXPECT_FAILURE(blurtool_text_measure(&label, &width, &height), BLURTOOL_ERROR_DATA, "blurtool_text_measure", "No Such Family");
    label.font = NULL;
    label.text = NULL;
    EXPECT_FAILURE(blurtool_text_measure(&label, &width, &height), BLURTOOL_ERROR_ARGUMENT, "blurtool_text_measure", "label->text: is NULL");
    EXPECT_FAILURE(blurtool_text_measure(NULL, &width, &height), BLURTOOL_ERROR_ARGUMENT, "blurtool_text_measure", "label: is NULL");
    free(canvas.pixels);
}

/* The last error belongs to the thread that failed. */
static void *fail_once(void *unused) {
    (void)unused;
    blurtool_blur(NULL, NULL, NULL, NULL, 1, 0, 0, 0);
    return strstr(blurtool_last_error(), "source") ? (void *)blurtool_last_error() : NULL;
}

/* How many pixels of `image` have alpha above 0, and whether each pixel inside the box x0..x1 × y0..y1 (exclusive
 * ends) is `inside` and every other is zero, byte for byte. */
static int box_is(const blurtool_buffer_t *image, int x0, int y0, int x1, int y1, const unsigned char inside[4]) {
    for (int y = 0; y < image->height; y++)
        for (int x = 0; x < image->width; x++) {
            const unsigned char *p = image->pixels + y * image->stride + x * 4;
            int in = x >= x0 && x < x1 && y >= y0 && y < y1;
            for (int c = 0; c < 4; c++)
                if (p[c] != (in ? inside[c] : 0)) return 0;
        }
    return 1;
}

static void test_paths(void) {
    const double red[4] = {1, 0, 0, 1};
    const unsigned char opaque_red[4] = {255, 0, 0, 255};
    blurtool_buffer_t canvas = blank(20, 20, 8, BLURTOOL_ALPHA_PREMULTIPLIED);
    CHECK(blurtool_fill_path(&canvas, "M2 2 H8 V8 H2 Z", NULL, red, BLURTOOL_FILL_NONZERO, NULL, 1, 1) == 0, "fill");
    CHECK(box_is(&canvas, 2, 2, 8, 8, opaque_red), "a square on whole pixels covers exactly them");

    memset(canvas.pixels, 0, (size_t)canvas.stride * 20);
    const double twice[6] = {2, 0, 0, 2, 1, 3};
    CHECK(blurtool_fill_path(&canvas, "M2 2 h6 v6 h-6 z", twice, red, BLURTOOL_FILL_NONZERO, "copy", 1, 2) == 0, "fill");
    CHECK(box_is(&canvas, 5, 7, 17, 19, opaque_red), "the matrix maps path units to pixels: x 5...17, y 7...19");

    memset(canvas.pixels, 0, (size_t)canvas.stride * 20);
    const char *ring = "M0 0 H20 V20 H0 Z M5 5 H15 V15 H5 Z";
    CHECK(blurtool_fill_path(&canvas, ring, NULL, red, BLURTOOL_FILL_EVENODD, NULL, 1, 1) == 0, "even-odd");
    CHECK(canvas.pixels[(10 * canvas.stride) + 10 * 4 + 3] == 0 && canvas.pixels[2 * canvas.stride + 2 * 4 + 3] == 255,
          "even-odd leaves the inner square a hole");
    CHECK(blurtool_fill_path(&canvas, ring, NULL, red, BLURTOOL_FILL_NONZERO, NULL, 1, 1) == 0, "non-zero");
    CHECK(canvas.pixels[(10 * canvas.stride) + 10 * 4 + 3] == 255, "non-zero fills it (both squares wind the same way)");

    /* Straight alpha in, straight alpha out: half-transparent red is (255, 0, 0, 128) where covered. */
    blurtool_buffer_t straight = blank(10, 10, 0, BLURTOOL_ALPHA_STRAIGHT);
    const double half_red[4] = {1, 0, 0, 0.5};
    const unsigned char straight_half_red[4] = {255, 0, 0, 128};
    CHECK(blurtool_fill_path(&straight, "M0 0 H10 V5 H0 Z", NULL, half_red, BLURTOOL_FILL_NONZERO, NULL, 1, 1) == 0,
          "fill a straight buffer");
    CHECK(box_is(&straight, 0, 0, 10, 5, straight_half_red), "straight alpha kept");

    /* A stroke 2 wide along y = 5 covers rows 4 and 5 exactly; dashed 2 on, 2 off from x = 0. */
    memset(straight.pixels, 0, 10 * 10 * 4);
    blurtool_stroke_t stroke = {2, BLURTOOL_CAP_BUTT, BLURTOOL_JOIN_MITER, 0, NULL, 0, 0};
    CHECK(blurtool_stroke_path(&straight, "M0 5 H10", NULL, red, &stroke, NULL, 1, 1) == 0, "stroke");
    CHECK(box_is(&straight, 0, 4, 10, 6, opaque_red), "a butt stroke is its rectangle");
    memset(straight.pixels, 0, 10 * 10 * 4);
    const double dashes[2] = {2, 2};
    stroke.dashes = dashes;
    stroke.dash_count = 2;
    CHECK(blurtool_stroke_path(&straight, "M0 5 H10", NULL, red, &stroke, NULL, 1, 1) == 0, "dashed stroke");
    int dashed_right = 1;
    for (int x = 0; x < 10; x++) {
        int on = (x / 2) % 2 == 0;
        dashed_right &= straight.pixels[4 * 40 + x * 4 + 3] == (on ? 255 : 0);
    }
    CHECK(dashed_right, "dashes 2 on, 2 off along the row");

    EXPECT_FAILURE(blurtool_fill_path(&canvas, "M0 0 L5", NULL, red, BLURTOOL_FILL_NONZERO, NULL, 1, 1),
                   BLURTOOL_ERROR_DATA, "blurtool_fill_path", "svg_path_data");
    EXPECT_FAILURE(blurtool_fill_path(&canvas, NULL, NULL, red, BLURTOOL_FILL_NONZERO, NULL, 1, 1),
                   BLURTOOL_ERROR_ARGUMENT, "blurtool_fill_path", "svg_path_data");
    EXPECT_FAILURE(blurtool_fill_path(&canvas, "M0 0 H5 V5 Z", NULL, NULL, BLURTOOL_FILL_NONZERO, NULL, 1, 1),
                   BLURTOOL_ERROR_ARGUMENT, "blurtool_fill_path", "color");
    EXPECT_FAILURE(blurtool_fill_path(&canvas, "M0 0 H5 V5 Z", NULL, red, (blurtool_fill_rule_t)7, NULL, 1, 1),
                   BLURTOOL_ERROR_ARGUMENT, "blurtool_fill_path", "rule");
    EXPECT_FAILURE(blurtool_fill_path(&canvas, "M0 0 H5 V5 Z", NULL, red, BLURTOOL_FILL_NONZERO, "sideways", 1, 1),
                   BLURTOOL_ERROR_ARGUMENT, "blurtool_fill_path", "op");
    const double singular_nan[6] = {1, 0, 0, NAN, 0, 0};
    EXPECT_FAILURE(blurtool_fill_path(&canvas, "M0 0 H5 V5 Z", singular_nan, red, BLURTOOL_FILL_NONZERO, NULL, 1, 1),
                   BLURTOOL_ERROR_ARGUMENT, "blurtool_fill_path", "matrix[3]");
    EXPECT_FAILURE(blurtool_stroke_path(&canvas, "M0 0 H5", NULL, red, NULL, NULL, 1, 1), BLURTOOL_ERROR_ARGUMENT,
                   "blurtool_stroke_path", "stroke");
    const double negative[1] = {-1};
    stroke.dashes = negative;
    stroke.dash_count = 1;
    EXPECT_FAILURE(blurtool_stroke_path(&canvas, "M0 0 H5", NULL, red, &stroke, NULL, 1, 1), BLURTOOL_ERROR_ARGUMENT,
                   "blurtool_stroke_path", "stroke->dashes[0]");
    stroke.dash_count = 0;
    stroke.cap = (blurtool_line_cap_t)9;
    EXPECT_FAILURE(blurtool_stroke_path(&canvas, "M0 0 H5", NULL, red, &stroke, NULL, 1, 1), BLURTOOL_ERROR_ARGUMENT,
                   "blurtool_stroke_path", "stroke->cap");
    free(canvas.pixels);
    free(straight.pixels);
}

static void test_threads(void) {
    blurtool_decode(NULL, 0, 0, 0, NULL);
    pthread_t thread;
    void *result = NULL;
    pthread_create(&thread, NULL, fail_once, NULL);
    pthread_join(thread, &result);
    CHECK(result != NULL, "the other thread saw its own error");
    CHECK(strstr(blurtool_last_error(), "blurtool_decode") != NULL, "this thread's error kept: %s", blurtool_last_error());
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: capi_test FIXTURES REFERENCES\n");
        return 64;
    }
    snprintf(fixtures, sizeof fixtures, "%s", argv[1]);
    snprintf(references, sizeof references, "%s", argv[2]);
    test_library();
    blurtool_buffer_t photo = load(fixtures, "coffee.jpg", BLURTOOL_ALPHA_PREMULTIPLIED);
    test_blur(&photo);
    test_material();
    test_composite(&photo);
    test_warp(&photo);
    test_codecs(&photo);
    test_scenes();
    test_text();
    test_paths();
    test_threads();
    blurtool_free(photo.pixels);
    printf("capi_test: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
