// The only C the project writes: whole-operation wrappers whose setjmp/longjmp never crosses into Swift.
// Every symbol is prefixed bt_. Buffers returned through `out` parameters are malloc'd and owned by the
// caller (free them with bt_free).
#ifndef BT_CODEC_SHIM_H
#define BT_CODEC_SHIM_H

#include <stddef.h>
#include <stdint.h>

#define BT_MESSAGE_LENGTH 200

/// Colour spaces of a JPEG's stored data, as the decoder found them.
enum bt_jpeg_color {
    BT_JPEG_GRAY = 1,
    BT_JPEG_RGB = 2,
    BT_JPEG_YCBCR = 3,
    BT_JPEG_CMYK = 4,
    BT_JPEG_YCCK = 5,
    BT_JPEG_OTHER = 6
};

/// Results of bt_jpeg_decode other than success (0).
enum bt_jpeg_status {
    BT_JPEG_OK = 0,
    BT_JPEG_ERROR = 1,           // libjpeg refused the data; `message` says why
    BT_JPEG_TOO_LARGE = 2,       // header dimensions above max_pixels; nothing was allocated
    BT_JPEG_TOO_MANY_SCANS = 3,  // progressive scan count above max_scans
    BT_JPEG_OUT_OF_MEMORY = 4,
    BT_JPEG_UNSUPPORTED = 5      // e.g. 12-bit samples
};

typedef struct {
    int scale_denominator;        // 1, 2, 4 or 8: libjpeg's DCT-domain scaling
    uint64_t max_pixels;          // refuse headers with more pixels than this (before any allocation)
    int max_scans;                // refuse progressive files with more scans than this
    int header_only;              // read markers and dimensions, decode no pixels
} bt_jpeg_decode_options;

typedef struct {
    uint8_t *pixels;              // RGBA8, alpha 255, rows of width * 4 bytes
    int width, height;            // of `pixels` (after scaling)
    int image_width, image_height;// as stored in the header
    int color;                    // enum bt_jpeg_color
    int components;
    int progressive;
    int arithmetic;
    int precision;                // bits per sample
    int scans;                    // scans seen
    uint8_t *exif;                // first APP1 "Exif\0\0" payload, TIFF header onwards; may be NULL
    size_t exif_length;
    uint8_t *icc;                 // assembled ICC profile; may be NULL
    size_t icc_length;
    int lost_data;                // a warning meant corrupt or missing entropy data
    int warnings;                 // number of warnings libjpeg emitted
    int lines_decoded;            // output rows produced before the data ran out or failed
    char message[BT_MESSAGE_LENGTH]; // the error, or the first warning
} bt_jpeg_decoded;

/// Decodes a whole JPEG from memory. Returns an enum bt_jpeg_status. On failure `out->pixels` is NULL;
/// `out->message` names the reason. libjpeg never prints and never exits the process.
int bt_jpeg_decode(const uint8_t *data, size_t size, const bt_jpeg_decode_options *options,
                   bt_jpeg_decoded *out);

/// Frees every buffer a bt_jpeg_decoded holds and sets the pointers to NULL.
void bt_jpeg_decoded_free(bt_jpeg_decoded *decoded);

typedef struct {
    int quality;                  // 1...100
    int chroma_444;               // 4:4:4 instead of 4:2:0
    int optimize_huffman;
    int progressive;
    const uint8_t *icc;           // embedded when not NULL
    size_t icc_length;
} bt_jpeg_encode_options;

/// Encodes RGBX8 rows (the fourth byte of each pixel is ignored) as JPEG into a malloc'd buffer.
int bt_jpeg_encode(const uint8_t *rgbx, int width, int height, size_t bytes_per_row,
                   const bt_jpeg_encode_options *options, uint8_t **out, size_t *out_length,
                   char message[BT_MESSAGE_LENGTH]);

/// Results of bt_png_decode.
enum bt_png_status {
    BT_PNG_OK = 0,
    BT_PNG_ERROR = 1,        // nothing usable; `message` says why
    BT_PNG_TOO_LARGE = 2,    // header dimensions above max_pixels; no pixel memory was allocated
    BT_PNG_PARTIAL = 3       // the data failed after `rows_decoded` complete rows; pixels are kept
};

typedef struct {
    uint64_t max_pixels;
    int header_only;
} bt_png_decode_options;

typedef struct {
    uint8_t *pixels;              // straight-alpha RGBA8, rows of width * 4 bytes, 8-bit sRGB
    int width, height;
    int bit_depth, color_type, interlaced;
    int rows_decoded;             // complete output rows (the last pass's, for interlaced images)
    int warnings;
    char message[BT_MESSAGE_LENGTH]; // the error, or the first warning
} bt_png_decoded;

/// Decodes a PNG from memory to 8-bit sRGB RGBA with libpng's full read API: palette, tRNS, low bit
/// depths, 16 bits (scaled with rounding), grey and Adam7 all expanded; a gAMA other than sRGB's is
/// converted to sRGB, and files without one are taken as sRGB. Returns an enum bt_png_status.
int bt_png_decode(const uint8_t *data, size_t size, const bt_png_decode_options *options, bt_png_decoded *out);

typedef struct {
    int compression_level;        // 0...9, as bt_png_frame_input's level
    int has_alpha;                // write RGBA; otherwise RGB (the fourth byte of each pixel is dropped)
    int check_opaque;             // without alpha, return BT_PNG_NOT_OPAQUE if a dropped byte is not 255
    int threads;                  // threads to filter and deflate on (the bytes are the same for every count)
    const uint8_t *icc;           // written as iCCP when not NULL
    size_t icc_length;
} bt_png_encode_options;

/// Encodes straight-alpha RGBA8 rows as PNG into a malloc'd buffer: libpng writes the header chunks (IHDR, iCCP or
/// sRGB), the image data is `bt_png_frame_encode`'s stream in IDAT chunks. Returns 0 on success, BT_PNG_NOT_OPAQUE
/// (`check_opaque`), or 1 with `message`.
int bt_png_encode(const uint8_t *rgba, int width, int height, size_t bytes_per_row,
                  const bt_png_encode_options *options, uint8_t **out, size_t *out_length,
                  char message[BT_MESSAGE_LENGTH]);

/// Inflates a zlib stream, failing (returning 0) when the output would exceed max_output bytes.
/// Returns 1 on success with a malloc'd buffer in *out.
int bt_zlib_inflate(const uint8_t *data, size_t size, size_t max_output, uint8_t **out, size_t *out_length);

/// Deflates bytes into a zlib stream (level 9, for small metadata such as ICC profiles).
int bt_zlib_deflate(const uint8_t *data, size_t size, uint8_t **out, size_t *out_length);

typedef struct {
    const uint8_t *pixels;        // the first pixel: 4 bytes each (RGBA, or RGBX when channels is 3)
    size_t bytes_per_row;         // the input's row stride
    int width, height;
    int channels;                 // written per pixel: 3 (RGB, the fourth input byte dropped) or 4 (RGBA)
    int level;                    // 0 stored, 1 igzip in bands, 2...6 ours or libdeflate, 7...9 libdeflate (see the .c)
    int band_rows;                // rows per independently deflated band: the output depends on this alone
    int threads;                  // threads to filter and deflate bands on (1: the calling thread only)
    int opaque_alpha;             // with 4 channels, 1 writes every alpha byte as 255 (alpha the caller drops)
    int deflater;                 // levels 2...6: BT_DEFLATER_BY_DATA (0), or one of the two forced (tests)
    int check_opaque;             // with 3 channels, 1 fails with BT_PNG_NOT_OPAQUE if a dropped byte is not 255
} bt_png_frame_input;

enum { BT_DEFLATER_BY_DATA = 0, BT_DEFLATER_RUNS = 1, BT_DEFLATER_LIBDEFLATE = 2 };

/// What the encoders return when `check_opaque` found a translucent pixel: encode again with its alpha.
enum { BT_PNG_NOT_OPAQUE = 2 };

/// One PNG image's zlib data stream (what IDAT or fdAT chunks carry): each row Sub-filtered, then deflated (in
/// bands of `band_rows` rows on `threads` threads at levels 0 and 1, and at 2...6 where the project's encoder takes
/// the image, each band primed with the 32 KiB before it), so the stream is the same for every thread count.
/// Returns 0 on success with a malloc'd buffer in *out, BT_PNG_NOT_OPAQUE (`check_opaque`), or 1 with `message`.
int bt_png_frame_encode(const bt_png_frame_input *input, uint8_t **out, size_t *out_length,
                        char message[BT_MESSAGE_LENGTH]);

/// A still PNG's file from `prefix` (its signature and header chunks) and `bt_png_frame_encode`'s stream, written
/// straight into IDAT chunks of at most `chunk_bytes` of data each as it is assembled, then IEND: one malloc'd
/// buffer in *out, the stream never copied on its own. Returns 0 on success.
int bt_png_frame_encode_file(const bt_png_frame_input *input, const uint8_t *prefix, size_t prefix_length,
                             size_t chunk_bytes, uint8_t **out, size_t *out_length,
                             char message[BT_MESSAGE_LENGTH]);

/// The `band_rows` for an image `width` pixels wide written with `channels` channels: about 256 KiB of filtered
/// bytes a band, at least one row.
int bt_png_band_rows(int width, int channels);

/// CRC-32 as PNG chunks use it.
uint32_t bt_crc32(uint32_t crc, const uint8_t *data, size_t size);

void bt_free(void *pointer);

#endif
