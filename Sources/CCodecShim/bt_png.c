// libpng's full write API behind one function: its longjmp on error lands here, never in Swift.
#include "bt_codec_shim.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint8_t *data;
    size_t length;
    size_t capacity;
    int failed;
} bt_growing_buffer;

// Appends to the buffer, growing it as needed; returns 0 when it cannot grow.
static int bt_buffer_append(bt_growing_buffer *buffer, const void *bytes, size_t count) {
    if (buffer->length + count > buffer->capacity) {
        size_t capacity = buffer->capacity * 2 > buffer->length + count ? buffer->capacity * 2 : buffer->length + count;
        uint8_t *grown = realloc(buffer->data, capacity);
        if (grown == NULL) return 0;
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, bytes, count);
    buffer->length += count;
    return 1;
}

static void bt_png_write_bytes(png_structp png, png_bytep bytes, png_size_t count) {
    bt_growing_buffer *buffer = png_get_io_ptr(png);
    if (buffer->failed) {
        return;
    }
    if (!bt_buffer_append(buffer, bytes, count)) {
        buffer->failed = 1;
        png_error(png, "out of memory for the encoded PNG");
    }
}

static void bt_png_flush(png_structp png) {
    (void)png;
}

static void bt_png_error(png_structp png, png_const_charp text) {
    char *message = png_get_error_ptr(png);
    snprintf(message, BT_MESSAGE_LENGTH, "%s", text);
    png_longjmp(png, 1);
}

static void bt_png_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;  // nothing the encoder warns about is worth a line on stderr
}

enum { BT_IDAT_BYTES = 1 << 20 };

int bt_png_encode(const uint8_t *rgba, int width, int height, size_t bytes_per_row,
                  const bt_png_encode_options *options, uint8_t **out, size_t *out_length,
                  char message[BT_MESSAGE_LENGTH]) {
    *out = NULL;
    *out_length = 0;
    message[0] = 0;
    // libpng writes the signature and the header chunks (its own row writer would filter and deflate on one
    // thread, with zlib); the image data is bt_png_frame.c's Sub-filtered rows deflated on the threads, written
    // after them straight into IDAT chunks of at most 1 MiB, then IEND.
    bt_growing_buffer header = {0};
    header.capacity = options->icc_length + 4096;  // an ICC profile deflates to less than its size
    header.data = malloc(header.capacity);
    png_structp png = header.data ? png_create_write_struct(PNG_LIBPNG_VER_STRING, message, bt_png_error,
                                                            bt_png_warning)
                                  : NULL;
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (png == NULL || info == NULL) {
        png_destroy_write_struct(&png, NULL);
        free(header.data);
        snprintf(message, BT_MESSAGE_LENGTH, "could not start libpng");
        return 1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(header.data);
        return 1;
    }
    png_set_benign_errors(png, 1);  // a questionable ICC profile is dropped with a warning, not fatal
    png_set_write_fn(png, &header, bt_png_write_bytes, bt_png_flush);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                 options->has_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    if (options->icc != NULL && options->icc_length > 0) {
        png_set_iCCP(png, info, "ICC profile", PNG_COMPRESSION_TYPE_BASE, options->icc,
                     (png_uint_32)options->icc_length);
    }
    if (!png_get_valid(png, info, PNG_INFO_iCCP)) {
        // No profile, or one libpng refused (a grey profile on RGB pixels, say): the pixels are sRGB.
        png_set_sRGB_gAMA_and_cHRM(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    }
    png_write_info(png, info);
    png_destroy_write_struct(&png, &info);
    bt_png_frame_input input = {
        .pixels = rgba, .bytes_per_row = bytes_per_row, .width = width, .height = height,
        .channels = options->has_alpha ? 4 : 3, .level = options->compression_level,
        .band_rows = bt_png_band_rows(width, options->has_alpha ? 4 : 3), .threads = options->threads,
        .check_opaque = !options->has_alpha && options->check_opaque};
    int status = bt_png_frame_encode_file(&input, header.data, header.length, BT_IDAT_BYTES, out, out_length, message);
    free(header.data);
    return status;
}
