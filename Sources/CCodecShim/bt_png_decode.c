// PNG decoding with libpng's full read API. The simplified png_image_* reader would be enough, but the
// libpng that Debian 12 ships (1.6.39-2+deb12u4) mixes stale rows into 16-bit Adam7 images read to 8 bits
// (upstream pnggroup/libpng#853, from the CVE-2025-65018 fix); the row-by-row API is unaffected, and it
// also tells how many rows a truncated file really gave.
#include "bt_codec_shim.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
    bt_png_decoded *out;
} bt_png_source;

static void bt_png_read_bytes(png_structp png, png_bytep bytes, png_size_t count) {
    bt_png_source *source = png_get_io_ptr(png);
    if (count > source->size - source->offset) {
        png_error(png, "the file ends before the image data does");
    }
    memcpy(bytes, source->data + source->offset, count);
    source->offset += count;
}

static void bt_png_decode_error(png_structp png, png_const_charp text) {
    bt_png_source *source = png_get_error_ptr(png);
    snprintf(source->out->message, BT_MESSAGE_LENGTH, "%s", text);
    png_longjmp(png, 1);
}

static void bt_png_decode_warning(png_structp png, png_const_charp text) {
    bt_png_source *source = png_get_error_ptr(png);
    if (source->out->warnings == 0) {
        snprintf(source->out->message, BT_MESSAGE_LENGTH, "%s", text);
    }
    source->out->warnings += 1;
}

int bt_png_decode(const uint8_t *data, size_t size, const bt_png_decode_options *options, bt_png_decoded *out) {
    memset(out, 0, sizeof(*out));
    bt_png_source source = {data, size, 0, out};
    volatile int rows_complete = 0;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &source, bt_png_decode_error,
                                             bt_png_decode_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (png == NULL || info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        snprintf(out->message, BT_MESSAGE_LENGTH, "could not start libpng");
        return BT_PNG_ERROR;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        if (rows_complete) {
            out->warnings += 1;  // every row is in: only the end of the file was damaged
            return BT_PNG_OK;
        }
        if (out->pixels != NULL && out->rows_decoded > 0) {
            return BT_PNG_PARTIAL;
        }
        free(out->pixels);
        out->pixels = NULL;
        return BT_PNG_ERROR;
    }
    png_set_benign_errors(png, 1);
    png_set_read_fn(png, &source, bt_png_read_bytes);
    png_read_info(png, info);

    png_uint_32 width, height;
    int bit_depth, color_type, interlace;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    out->width = (int)width;
    out->height = (int)height;
    out->bit_depth = bit_depth;
    out->color_type = color_type;
    out->interlaced = interlace != PNG_INTERLACE_NONE;
    if ((uint64_t)width * (uint64_t)height > options->max_pixels) {
        png_destroy_read_struct(&png, &info, NULL);
        return BT_PNG_TOO_LARGE;
    }
    if (options->header_only) {
        png_destroy_read_struct(&png, &info, NULL);
        return BT_PNG_OK;
    }

    // Everything to 8-bit RGBA: the same result as png_image_finish_read with PNG_FORMAT_RGBA.
    png_set_expand(png);
    png_set_scale_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    png_set_gamma(png, PNG_DEFAULT_sRGB, PNG_DEFAULT_sRGB);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) {
        png_error(png, "unexpected row size after expanding to RGBA");
    }
    size_t row_bytes = (size_t)width * 4;
    // Zeroed, so rows a truncated file never reaches come out transparent.
    out->pixels = calloc(height, row_bytes);
    if (out->pixels == NULL) {
        png_error(png, "out of memory for the pixels");
    }
    for (int pass = 0; pass < passes; pass++) {
        out->rows_decoded = 0;
        for (png_uint_32 y = 0; y < height; y++) {
            png_read_row(png, out->pixels + row_bytes * y, NULL);
            out->rows_decoded = (int)y + 1;
        }
    }
    rows_complete = 1;
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    return BT_PNG_OK;
}
