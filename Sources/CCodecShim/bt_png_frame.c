// One PNG image's data stream (an APNG frame's IDAT or fdAT payload, or a still's IDAT) from 8-bit pixels: every
// row Sub-filtered, in bands on several threads, then deflated.
//
// The filter and the encoders were chosen by measurement (AMD EPYC Zen 3, one thread) on the review screen's
// rows (1170x2532 RGB) and on the coffee photo under the thin material (600x400), bytes relative to zlib 1
// with Sub, which libpng wrote before:
//   encoder           review screen        coffee
//   zlib 1, Sub       1.000   56.8 ms      1.000   7.6 ms
//   zlib 5, adaptive  0.829  177.0 ms      0.846  26.0 ms
//   igzip 1, Sub      0.939   12.7 ms      0.932   1.6 ms
//   igzip 1, adaptive 1.006   13.4 ms      0.967   1.7 ms
//   libdeflate 1, Sub 0.806   31.8 ms      0.856   3.1 ms
//   libdeflate 5, Sub 0.713   77.4 ms      0.780  11.4 ms
//   libdeflate 5, adaptive 0.812 93.0 ms   0.797  19.4 ms
// Sub is smaller than the smallest-sum heuristic with every encoder on these images, and it is one subtraction a
// byte where the heuristic tries five filters. Level 0 stores (zlib); level 1, the fast default, deflates bands
// with ISA-L's igzip, which takes a preset dictionary and ends a band on a sync flush (isal_deflate_set_dict,
// SYNC_FLUSH), so bands deflated on several threads join into one stream; levels 2...9 take libdeflate at the
// same level over the whole stream at once (libdeflate has no sync flush or dictionary, so it cannot join bands),
// on one thread: still faster than zlib's level on two, and smaller.
//
// Bands (level 0 and 1) are cut by row count alone (never by thread count), each is deflated with the previous
// band's last 32 KiB of filtered bytes as its dictionary and ends on a sync flush (the last on a finish), and the
// Adler-32s are combined in band order: the bytes written are the same for every thread count.
#include "bt_codec_shim.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>

enum { BT_WINDOW = 32768 };

// Rows per band aim at this many filtered bytes: large enough that the 5-byte sync flush and the restarted match
// search between bands cost well under 0.1 %, small enough that a full phone frame splits into dozens of bands
// for the threads to share.
enum { BT_BAND_BYTES = 256 << 10 };

int bt_png_band_rows(int width, int channels) {
    size_t row = (size_t)(width > 0 ? width : 0) * (size_t)(channels > 0 ? channels : 0) + 1;
    size_t rows = (size_t)BT_BAND_BYTES / row;
    return rows < 1 ? 1 : (int)rows;
}

// Rows are kept with `bpp` zero bytes in front (the "pixel to the left" of the first pixel, as PNG defines
// it), so the filter loops have no edge cases and the compiler can vectorise them.
enum { BT_PAD = 4 };

// Sub: each byte less the byte a pixel to its left (`row` points past its padding of zeros).
static void bt_sub_filter_row(const uint8_t *row, size_t length, int bpp, uint8_t *out) {
    out[0] = 1;
    for (size_t i = 0; i < length; i++) out[1 + i] = (uint8_t)(row[i] - row[(ptrdiff_t)i - bpp]);
}

// Pixel row y of the input in the output's channel count (RGBX → RGB drops every fourth byte), after the
// padding at `padded`.
static void bt_packed_row(const bt_png_frame_input *input, int y, uint8_t *padded) {
    const uint8_t *source = input->pixels + input->bytes_per_row * (size_t)y;
    uint8_t *target = padded + BT_PAD;
    if (input->channels == 4) {
        memcpy(target, source, (size_t)input->width * 4);
        if (input->opaque_alpha) {
            for (int x = 0; x < input->width; x++) target[x * 4 + 3] = 255;
        }
        return;
    }
    for (int x = 0; x < input->width; x++) {
        target[x * 3] = source[x * 4];
        target[x * 3 + 1] = source[x * 4 + 1];
        target[x * 3 + 2] = source[x * 4 + 2];
    }
}

typedef struct {
    const bt_png_frame_input *input;
    size_t row_bytes;           // filter byte included
    int bands;
    uint8_t *filtered;          // height * row_bytes
    uint8_t **band_output;
    size_t *band_length;
    uLong *band_adler;
    atomic_int next_band;
    atomic_int failed;
} bt_frame_job;

static int bt_band_rows(const bt_frame_job *job, int band, int *first) {
    int rows = job->input->band_rows;
    *first = band * rows;
    int end = *first + rows < job->input->height ? *first + rows : job->input->height;
    return end - *first;
}

// `scratch`: one padded row.
static void bt_filter_band(bt_frame_job *job, int band, uint8_t *scratch) {
    const bt_png_frame_input *input = job->input;
    size_t length = job->row_bytes - 1;
    int first;
    int rows = bt_band_rows(job, band, &first);
    memset(scratch, 0, BT_PAD);  // the pixel left of the first, which is zero
    for (int y = first; y < first + rows; y++) {
        bt_packed_row(input, y, scratch);
        bt_sub_filter_row(scratch + BT_PAD, length, input->channels, job->filtered + job->row_bytes * (size_t)y);
    }
}

// `size` bytes at `data` as raw deflate with igzip level 1, primed with the `dictionary` bytes before them, ending
// on a sync flush unless `last`; returns the malloc'd output (its length in *length), or NULL.
static uint8_t *bt_igzip_band(const uint8_t *data, size_t size, size_t dictionary, int last, size_t *length) {
    uint8_t *level_buffer = malloc(ISAL_DEF_LVL1_DEFAULT);
    size_t capacity = compressBound((uLong)size) + 64;  // igzip's stored blocks cost less than zlib's bound allows
    uint8_t *output = malloc(capacity);
    struct isal_zstream stream;
    isal_deflate_init(&stream);
    stream.level = 1;
    stream.level_buf = level_buffer;
    stream.level_buf_size = ISAL_DEF_LVL1_DEFAULT;
    stream.gzip_flag = IGZIP_DEFLATE;
    int ok = level_buffer != NULL && output != NULL &&
             (dictionary == 0 || isal_deflate_set_dict(&stream, (uint8_t *)data - dictionary, (uint32_t)dictionary) ==
                                     COMP_OK);
    if (ok) {
        stream.next_in = (uint8_t *)data;
        stream.avail_in = (uint32_t)size;
        stream.next_out = output;
        stream.avail_out = (uint32_t)capacity;
        stream.end_of_stream = last;
        stream.flush = last ? NO_FLUSH : SYNC_FLUSH;
        ok = isal_deflate(&stream) == COMP_OK && stream.avail_in == 0 && stream.avail_out > 0 &&
             (!last || stream.internal_state.state == ZSTATE_END);
    }
    free(level_buffer);
    if (!ok) {
        free(output);
        return NULL;
    }
    *length = capacity - stream.avail_out;
    return output;
}

static int bt_deflate_band(bt_frame_job *job, int band) {
    int first;
    int rows = bt_band_rows(job, band, &first);
    const uint8_t *data = job->filtered + job->row_bytes * (size_t)first;
    size_t size = job->row_bytes * (size_t)rows;
    if (job->input->level == 1) {
        size_t before = job->row_bytes * (size_t)first;
        uint8_t *output = bt_igzip_band(data, size, before < BT_WINDOW ? before : BT_WINDOW, band == job->bands - 1,
                                        &job->band_length[band]);
        if (output == NULL) return 0;
        job->band_output[band] = output;
        job->band_adler[band] = adler32(1L, data, (uInt)size);
        return 1;
    }
    z_stream stream;
    memset(&stream, 0, sizeof(stream));
    if (deflateInit2(&stream, job->input->level, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) != Z_OK) return 0;
    if (band > 0) {
        size_t before = job->row_bytes * (size_t)first;
        size_t dictionary = before < BT_WINDOW ? before : BT_WINDOW;
        if (deflateSetDictionary(&stream, data - dictionary, (uInt)dictionary) != Z_OK) {
            deflateEnd(&stream);
            return 0;
        }
    }
    size_t capacity = deflateBound(&stream, (uLong)size) + 16;  // + the sync flush's empty stored block
    uint8_t *output = malloc(capacity);
    if (output == NULL) {
        deflateEnd(&stream);
        return 0;
    }
    stream.next_in = (Bytef *)data;
    stream.avail_in = (uInt)size;
    stream.next_out = output;
    stream.avail_out = (uInt)capacity;
    int last = band == job->bands - 1;
    int status = deflate(&stream, last ? Z_FINISH : Z_SYNC_FLUSH);
    int complete = last ? status == Z_STREAM_END : status == Z_OK && stream.avail_in == 0 && stream.avail_out > 0;
    job->band_length[band] = capacity - stream.avail_out;
    deflateEnd(&stream);
    if (!complete) {
        free(output);
        return 0;
    }
    job->band_output[band] = output;
    job->band_adler[band] = adler32(1L, data, (uInt)size);
    return 1;
}

// Bands are taken from a shared counter, one at a time, by every thread of a phase.
static void *bt_filter_worker(void *argument) {
    bt_frame_job *job = argument;
    uint8_t *scratch = malloc(BT_PAD + job->row_bytes - 1);
    if (scratch == NULL) {
        atomic_store(&job->failed, 1);
        return NULL;
    }
    int band;
    while ((band = atomic_fetch_add(&job->next_band, 1)) < job->bands) bt_filter_band(job, band, scratch);
    free(scratch);
    return NULL;
}

static void *bt_deflate_worker(void *argument) {
    bt_frame_job *job = argument;
    int band;
    while (!atomic_load(&job->failed) && (band = atomic_fetch_add(&job->next_band, 1)) < job->bands) {
        if (!bt_deflate_band(job, band)) atomic_store(&job->failed, 1);
    }
    return NULL;
}

// Runs `worker` on the calling thread and up to threads - 1 others; a thread that cannot be started only
// leaves more bands to the others.
static void bt_run_phase(bt_frame_job *job, int threads, void *(*worker)(void *)) {
    enum { BT_MAX_THREADS = 64 };
    pthread_t started[BT_MAX_THREADS];
    int count = 0;
    atomic_store(&job->next_band, 0);
    while (count < threads - 1 && count < BT_MAX_THREADS && pthread_create(&started[count], NULL, worker, job) == 0) {
        count++;
    }
    worker(job);
    for (int i = 0; i < count; i++) pthread_join(started[i], NULL);
}

static int bt_frame_fail(bt_frame_job *job, char message[BT_MESSAGE_LENGTH], const char *text) {
    for (int i = 0; i < job->bands; i++) free(job->band_output ? job->band_output[i] : NULL);
    free(job->band_output);
    free(job->band_length);
    free(job->band_adler);
    free(job->filtered);
    snprintf(message, BT_MESSAGE_LENGTH, "%s", text);
    return 1;
}

// Levels 2...9: the filtered rows as one zlib stream from libdeflate at the same level.
static int bt_deflate_whole(bt_frame_job *job, uint8_t **out, size_t *out_length, char message[BT_MESSAGE_LENGTH]) {
    struct libdeflate_compressor *compressor = libdeflate_alloc_compressor(job->input->level);
    if (compressor == NULL) return bt_frame_fail(job, message, "out of memory for the deflate compressor");
    size_t size = job->row_bytes * (size_t)job->input->height;
    size_t capacity = libdeflate_zlib_compress_bound(compressor, size);
    uint8_t *stream = malloc(capacity);
    size_t length = stream ? libdeflate_zlib_compress(compressor, job->filtered, size, stream, capacity) : 0;
    libdeflate_free_compressor(compressor);
    if (length == 0) {
        free(stream);
        return bt_frame_fail(job, message, "out of memory for the compressed frame");
    }
    bt_frame_fail(job, message, "");  // frees the filtered rows; the message stays empty
    *out = stream;
    *out_length = length;
    return 0;
}

int bt_png_frame_encode(const bt_png_frame_input *input, uint8_t **out, size_t *out_length,
                        char message[BT_MESSAGE_LENGTH]) {
    *out = NULL;
    *out_length = 0;
    message[0] = 0;
    bt_frame_job job;
    memset(&job, 0, sizeof(job));
    job.input = input;
    if (input->width <= 0 || input->height <= 0 || input->band_rows <= 0 || input->level < 0 || input->level > 9
        || (input->channels != 3 && input->channels != 4)) {
        return bt_frame_fail(&job, message, "invalid frame encoding parameters");
    }
    job.row_bytes = (size_t)input->width * (size_t)input->channels + 1;
    int band_rows = input->band_rows < input->height ? input->band_rows : input->height;
    if (job.row_bytes * (size_t)band_rows > 0x7FFFFFFF) {
        return bt_frame_fail(&job, message, "a band of rows is more than zlib takes in one call (2 GiB)");
    }
    job.bands = (input->height + input->band_rows - 1) / input->band_rows;
    job.filtered = malloc(job.row_bytes * (size_t)input->height);
    job.band_output = calloc((size_t)job.bands, sizeof(uint8_t *));
    job.band_length = calloc((size_t)job.bands, sizeof(size_t));
    job.band_adler = calloc((size_t)job.bands, sizeof(uLong));
    if (!job.filtered || !job.band_output || !job.band_length || !job.band_adler) {
        return bt_frame_fail(&job, message, "out of memory for the frame's filtered rows");
    }
    int threads = input->threads < 1 ? 1 : (input->threads > job.bands ? job.bands : input->threads);
    atomic_init(&job.next_band, 0);
    atomic_init(&job.failed, 0);
    // Every band is filtered before any is deflated: a band's dictionary is the end of the band before it.
    bt_run_phase(&job, threads, bt_filter_worker);
    if (atomic_load(&job.failed)) return bt_frame_fail(&job, message, "out of memory filtering the frame's rows");
    if (input->level >= 2) return bt_deflate_whole(&job, out, out_length, message);
    bt_run_phase(&job, threads, bt_deflate_worker);
    if (atomic_load(&job.failed)) return bt_frame_fail(&job, message, "could not deflate the frame");

    size_t total = 2 + 4;
    for (int i = 0; i < job.bands; i++) total += job.band_length[i];
    uint8_t *stream = malloc(total);
    if (stream == NULL) return bt_frame_fail(&job, message, "out of memory for the compressed frame");
    // The zlib header: deflate with a 32 KiB window, FLEVEL 0 ("fastest": bands serve levels 0 and 1), FCHECK last.
    stream[0] = 0x78;
    stream[1] = (uint8_t)(31 - (stream[0] * 256) % 31);
    size_t offset = 2;
    uLong adler = 1L;
    for (int i = 0; i < job.bands; i++) {
        memcpy(stream + offset, job.band_output[i], job.band_length[i]);
        offset += job.band_length[i];
        int first;
        int rows = bt_band_rows(&job, i, &first);
        adler = adler32_combine(adler, job.band_adler[i], (z_off_t)(job.row_bytes * (size_t)rows));
    }
    stream[offset] = (uint8_t)(adler >> 24);
    stream[offset + 1] = (uint8_t)(adler >> 16);
    stream[offset + 2] = (uint8_t)(adler >> 8);
    stream[offset + 3] = (uint8_t)adler;
    bt_frame_fail(&job, message, "");  // frees the bands; the message stays empty
    *out = stream;
    *out_length = total;
    return 0;
}
