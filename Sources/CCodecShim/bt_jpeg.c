// libjpeg-turbo behind whole-operation functions. Each function owns its setjmp: libjpeg's error_exit
// longjmps back into the function that called libjpeg, never across a Swift frame. Warnings are counted
// and the first one kept, instead of libjpeg printing them to stderr.
#include "bt_codec_shim.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf escape;
    int status;                  // the bt_jpeg_status error_exit reports
    int warnings;
    int corrupt_codes;           // entropy data that did not decode (bad codes, resynchronisation)
    int hit_marker;              // the entropy decoder needed bits that were not there
    int end_of_file_seen;        // libjpeg's source ran out (it then inserts a fake EOI)
    char message[BT_MESSAGE_LENGTH];
} bt_error_manager;

typedef struct {
    struct jpeg_progress_mgr base;
    int max_scans;
} bt_scan_limit;

static void bt_copy_message(j_common_ptr cinfo, char destination[BT_MESSAGE_LENGTH]) {
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    snprintf(destination, BT_MESSAGE_LENGTH, "%s", text);
}

static void bt_error_exit(j_common_ptr cinfo) {
    bt_error_manager *manager = (bt_error_manager *)cinfo->err;
    bt_copy_message(cinfo, manager->message);
    int code = manager->base.msg_code;
    if (code == JERR_OUT_OF_MEMORY) {
        manager->status = BT_JPEG_OUT_OF_MEMORY;
    } else if (code == JERR_BAD_PRECISION) {
        manager->status = BT_JPEG_UNSUPPORTED;
    } else {
        manager->status = BT_JPEG_ERROR;
    }
    longjmp(manager->escape, 1);
}

// Warnings that mean entropy-coded data was corrupt, so some pixels are wrong.
static int bt_warning_is_corruption(int code) {
    switch (code) {
    case JWRN_MUST_RESYNC:
    case JWRN_NOT_SEQUENTIAL:
    case JWRN_HUFF_BAD_CODE:
    case JWRN_ARITH_BAD_CODE:
    case JWRN_BOGUS_PROGRESSION:
        return 1;
    default:
        return 0;
    }
}

static void bt_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) {
        return;  // trace messages
    }
    bt_error_manager *manager = (bt_error_manager *)cinfo->err;
    int code = manager->base.msg_code;
    if (manager->warnings == 0) {
        bt_copy_message(cinfo, manager->message);
    }
    manager->warnings += 1;
    if (bt_warning_is_corruption(code) || code == JWRN_HIT_MARKER) {
        if (!manager->corrupt_codes && !manager->hit_marker) {
            bt_copy_message(cinfo, manager->message);  // the damaging warning is the one worth showing
        }
        manager->corrupt_codes |= bt_warning_is_corruption(code);
        manager->hit_marker |= code == JWRN_HIT_MARKER;
    }
    if (code == JWRN_JPEG_EOF) {
        manager->end_of_file_seen = 1;
    }
}

// Whether pixels were lost, as opposed to harmless damage:
// - data ran out while the decoder still needed bits, or before the last progressive refinement (truncation);
// - corrupt entropy codes without restart markers, after which the rest of the scan decodes as noise.
// A missing end marker, junk after it, or corruption that libjpeg contained at the next restart marker (one
// interval of blocks, as browsers and Pillow show it) lose nothing more and stay warnings.
static int bt_lost_data(j_decompress_ptr dinfo, const bt_error_manager *manager, int progression_incomplete) {
    if (manager->end_of_file_seen && (manager->hit_marker || progression_incomplete)) {
        return 1;
    }
    return (manager->corrupt_codes || manager->hit_marker) && dinfo->restart_interval == 0;
}

static void bt_output_message(j_common_ptr cinfo) {
    (void)cinfo;  // never print
}

static void bt_check_scan_count(j_common_ptr cinfo) {
    j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
    bt_scan_limit *limit = (bt_scan_limit *)cinfo->progress;
    if (dinfo->input_scan_number > limit->max_scans) {
        bt_error_manager *manager = (bt_error_manager *)cinfo->err;
        snprintf(manager->message, BT_MESSAGE_LENGTH, "more than %d scans in a progressive JPEG", limit->max_scans);
        manager->status = BT_JPEG_TOO_MANY_SCANS;
        longjmp(manager->escape, 1);
    }
}

static void bt_install_error_manager(j_common_ptr cinfo, bt_error_manager *manager) {
    memset(manager, 0, sizeof(*manager));
    cinfo->err = jpeg_std_error(&manager->base);
    manager->base.error_exit = bt_error_exit;
    manager->base.emit_message = bt_emit_message;
    manager->base.output_message = bt_output_message;
}

static int bt_color_of(J_COLOR_SPACE space) {
    switch (space) {
    case JCS_GRAYSCALE: return BT_JPEG_GRAY;
    case JCS_RGB: return BT_JPEG_RGB;
    case JCS_YCbCr: return BT_JPEG_YCBCR;
    case JCS_CMYK: return BT_JPEG_CMYK;
    case JCS_YCCK: return BT_JPEG_YCCK;
    default: return BT_JPEG_OTHER;
    }
}

// Keeps the first APP1 that carries Exif; later ones (and XMP APP1s) are ignored.
static void bt_take_first_exif(j_decompress_ptr dinfo, bt_jpeg_decoded *out) {
    for (jpeg_saved_marker_ptr marker = dinfo->marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker != JPEG_APP0 + 1 || marker->data_length < 6) {
            continue;
        }
        if (memcmp(marker->data, "Exif\0\0", 6) != 0) {
            continue;
        }
        size_t length = marker->data_length - 6;
        out->exif = malloc(length > 0 ? length : 1);
        if (out->exif != NULL) {
            memcpy(out->exif, marker->data + 6, length);
            out->exif_length = length;
        }
        return;
    }
}

// CMYK rows as libjpeg returns them to RGBA. Adobe applications store CMYK inverted (APP14), which is
// what nearly every CMYK JPEG in the wild is; plain CMYK is converted the textbook way.
static void bt_cmyk_row_to_rgba(const JSAMPLE *cmyk, uint8_t *rgba, JDIMENSION width, int inverted) {
    for (JDIMENSION x = 0; x < width; x++) {
        unsigned c = cmyk[4 * x], m = cmyk[4 * x + 1], y = cmyk[4 * x + 2], k = cmyk[4 * x + 3];
        if (!inverted) {
            c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k;
        }
        rgba[4 * x] = (uint8_t)((c * k + 127) / 255);
        rgba[4 * x + 1] = (uint8_t)((m * k + 127) / 255);
        rgba[4 * x + 2] = (uint8_t)((y * k + 127) / 255);
        rgba[4 * x + 3] = 255;
    }
}

// True when a progressive image's coefficients were not all fully refined (a file cut between scans).
static int bt_progression_incomplete(j_decompress_ptr dinfo) {
    if (!dinfo->progressive_mode || dinfo->coef_bits == NULL) {
        return 0;
    }
    for (int component = 0; component < dinfo->num_components; component++) {
        for (int k = 0; k < DCTSIZE2; k++) {
            if (dinfo->coef_bits[component][k] != 0) {
                return 1;
            }
        }
    }
    return 0;
}

int bt_jpeg_decode(const uint8_t *data, size_t size, const bt_jpeg_decode_options *options,
                   bt_jpeg_decoded *out) {
    memset(out, 0, sizeof(*out));
    struct jpeg_decompress_struct dinfo;
    bt_error_manager manager;
    bt_scan_limit limit;
    JSAMPLE *volatile cmyk_row = NULL;

    bt_install_error_manager((j_common_ptr)&dinfo, &manager);
    if (setjmp(manager.escape)) {
        // A partial decode keeps its pixels only when rows were produced; the caller decides.
        out->lines_decoded = (int)dinfo.output_scanline;
        out->scans = dinfo.input_scan_number;
        jpeg_destroy_decompress(&dinfo);
        free(cmyk_row);
        snprintf(out->message, BT_MESSAGE_LENGTH, "%s", manager.message);
        free(out->pixels);
        out->pixels = NULL;
        return manager.status;
    }
    jpeg_create_decompress(&dinfo);
    jpeg_mem_src(&dinfo, data, (unsigned long)size);
    jpeg_save_markers(&dinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(&dinfo, JPEG_APP0 + 2, 0xFFFF);
    memset(&limit, 0, sizeof(limit));
    limit.base.progress_monitor = bt_check_scan_count;
    limit.max_scans = options->max_scans > 0 ? options->max_scans : 100;
    dinfo.progress = &limit.base;

    jpeg_read_header(&dinfo, TRUE);
    out->image_width = (int)dinfo.image_width;
    out->image_height = (int)dinfo.image_height;
    out->color = bt_color_of(dinfo.jpeg_color_space);
    out->components = dinfo.num_components;
    out->progressive = dinfo.progressive_mode;
    out->arithmetic = dinfo.arith_code;
    out->precision = dinfo.data_precision;
    bt_take_first_exif(&dinfo, out);
    JOCTET *icc = NULL;
    unsigned int icc_length = 0;
    if (jpeg_read_icc_profile(&dinfo, &icc, &icc_length)) {
        out->icc = icc;
        out->icc_length = icc_length;
    }
    if ((uint64_t)dinfo.image_width * (uint64_t)dinfo.image_height > options->max_pixels) {
        snprintf(out->message, BT_MESSAGE_LENGTH, "%ux%u pixels is more than the limit of %llu",
                 dinfo.image_width, dinfo.image_height, (unsigned long long)options->max_pixels);
        jpeg_destroy_decompress(&dinfo);
        return BT_JPEG_TOO_LARGE;
    }
    if (options->header_only) {
        jpeg_destroy_decompress(&dinfo);
        return BT_JPEG_OK;
    }

    int is_cmyk = dinfo.jpeg_color_space == JCS_CMYK || dinfo.jpeg_color_space == JCS_YCCK;
    dinfo.out_color_space = is_cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    int denominator = options->scale_denominator;
    if (denominator != 1 && denominator != 2 && denominator != 4 && denominator != 8) {
        denominator = 1;
    }
    dinfo.scale_num = 1;
    dinfo.scale_denom = (unsigned int)denominator;
    jpeg_start_decompress(&dinfo);

    size_t row_bytes = (size_t)dinfo.output_width * 4;
    out->width = (int)dinfo.output_width;
    out->height = (int)dinfo.output_height;
    out->pixels = malloc(row_bytes * dinfo.output_height);
    if (is_cmyk) {
        cmyk_row = malloc(row_bytes);
    }
    if (out->pixels == NULL || (is_cmyk && cmyk_row == NULL)) {
        snprintf(manager.message, BT_MESSAGE_LENGTH, "out of memory for %ux%u pixels",
                 dinfo.output_width, dinfo.output_height);
        manager.status = BT_JPEG_OUT_OF_MEMORY;
        longjmp(manager.escape, 1);
    }
    while (dinfo.output_scanline < dinfo.output_height) {
        uint8_t *row = out->pixels + row_bytes * dinfo.output_scanline;
        if (is_cmyk) {
            JSAMPROW rows[1] = {cmyk_row};
            jpeg_read_scanlines(&dinfo, rows, 1);
            bt_cmyk_row_to_rgba(cmyk_row, row, dinfo.output_width, dinfo.saw_Adobe_marker);
        } else {
            JSAMPROW rows[1] = {row};
            jpeg_read_scanlines(&dinfo, rows, 1);
        }
    }
    out->lines_decoded = (int)dinfo.output_scanline;
    out->lost_data = bt_lost_data(&dinfo, &manager, bt_progression_incomplete(&dinfo));
    out->scans = dinfo.input_scan_number;
    jpeg_finish_decompress(&dinfo);
    jpeg_destroy_decompress(&dinfo);
    free(cmyk_row);
    out->warnings = manager.warnings;
    snprintf(out->message, BT_MESSAGE_LENGTH, "%s", manager.message);
    return BT_JPEG_OK;
}

void bt_jpeg_decoded_free(bt_jpeg_decoded *decoded) {
    free(decoded->pixels);
    free(decoded->exif);
    free(decoded->icc);
    decoded->pixels = NULL;
    decoded->exif = NULL;
    decoded->icc = NULL;
}

// A growing malloc'd buffer as libjpeg's destination, owned here rather than by jpeg_mem_dest: that one
// reallocates behind a pointer private to libjpeg (and jpeg_destroy_compress never frees it), so on an error
// the shim could not reach the buffer to free it.
typedef struct {
    struct jpeg_destination_mgr base;
    JOCTET *data;
    size_t capacity;
    size_t length;               // set by term_destination: the bytes written
} bt_jpeg_destination;

static void bt_destination_init(j_compress_ptr cinfo) {
    bt_jpeg_destination *destination = (bt_jpeg_destination *)cinfo->dest;
    destination->capacity = 16384;
    destination->data = malloc(destination->capacity);
    if (destination->data == NULL) {
        ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
    }
    destination->base.next_output_byte = destination->data;
    destination->base.free_in_buffer = destination->capacity;
}

// libjpeg calls this only when the buffer is full, whatever free_in_buffer said before.
static boolean bt_destination_grow(j_compress_ptr cinfo) {
    bt_jpeg_destination *destination = (bt_jpeg_destination *)cinfo->dest;
    size_t used = destination->capacity;
    JOCTET *grown = realloc(destination->data, used * 2);
    if (grown == NULL) {
        ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 1);  // destination->data is still ours to free
    }
    destination->data = grown;
    destination->capacity = used * 2;
    destination->base.next_output_byte = grown + used;
    destination->base.free_in_buffer = used;
    return TRUE;
}

static void bt_destination_term(j_compress_ptr cinfo) {
    bt_jpeg_destination *destination = (bt_jpeg_destination *)cinfo->dest;
    destination->length = destination->capacity - destination->base.free_in_buffer;
}

int bt_jpeg_encode(const uint8_t *rgbx, int width, int height, size_t bytes_per_row,
                   const bt_jpeg_encode_options *options, uint8_t **out, size_t *out_length,
                   char message[BT_MESSAGE_LENGTH]) {
    struct jpeg_compress_struct cinfo;
    bt_error_manager manager;
    // Written only through cinfo.dest by libjpeg's calls, so its fields are in memory when longjmp lands.
    bt_jpeg_destination destination;

    *out = NULL;
    *out_length = 0;
    memset(&destination, 0, sizeof(destination));
    destination.base.init_destination = bt_destination_init;
    destination.base.empty_output_buffer = bt_destination_grow;
    destination.base.term_destination = bt_destination_term;
    bt_install_error_manager((j_common_ptr)&cinfo, &manager);
    if (setjmp(manager.escape)) {
        jpeg_destroy_compress(&cinfo);
        free(destination.data);
        snprintf(message, BT_MESSAGE_LENGTH, "%s", manager.message);
        return manager.status;
    }
    jpeg_create_compress(&cinfo);
    cinfo.dest = &destination.base;
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = 4;
    cinfo.in_color_space = JCS_EXT_RGBX;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, options->quality, TRUE);
    if (options->chroma_444) {
        cinfo.comp_info[0].h_samp_factor = 1;
        cinfo.comp_info[0].v_samp_factor = 1;
    }
    cinfo.optimize_coding = options->optimize_huffman ? TRUE : FALSE;
    if (options->progressive) {
        jpeg_simple_progression(&cinfo);
    }
    jpeg_start_compress(&cinfo, TRUE);
    if (options->icc != NULL && options->icc_length > 0) {
        jpeg_write_icc_profile(&cinfo, options->icc, (unsigned int)options->icc_length);
    }
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW rows[1] = {(JSAMPROW)(rgbx + bytes_per_row * cinfo.next_scanline)};
        jpeg_write_scanlines(&cinfo, rows, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *out = destination.data;
    *out_length = destination.length;
    return BT_JPEG_OK;
}

void bt_free(void *pointer) {
    free(pointer);
}
