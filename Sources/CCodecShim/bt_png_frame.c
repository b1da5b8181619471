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
// byte where the heuristic tries five filters. Level 0 stores (zlib); level 1, the fast default for stills,
// deflates bands with ISA-L's igzip, which takes a preset dictionary and ends a band on a sync flush
// (isal_deflate_set_dict, SYNC_FLUSH), so bands deflated on several threads join into one stream.
//
// Levels 2...6 (5 is the animated PNG's default) choose by the data. An APNG frame after the first is mostly the
// transparent pixels of what did not change: runs of zeros that libdeflate inserts into its hash chains byte by
// byte, spending ~12 ms on the review entrance's typical 3.5 MB frame, where this project's encoder
// (bt_deflate.c) codes runs as distance-1 matches without touching its chains: ~5 ms, 3 % larger. A screen's flat
// areas are runs too (the entrance's first frame: 76 ms against 113, 2 % larger), but on a photo's busy rows it is
// the other way round (ours ~17 % slower, as small). So an image where at least a quarter of the sampled pixels
// repeat their left neighbour takes ours, in bands as igzip's; any other takes libdeflate at that level over the
// whole stream at once, on one thread (it has no sync flush or dictionary, so it cannot join bands), as levels
// 7...9 always do.
// Measured on filtered rows (AMD EPYC Zen 3, one thread, bands of 256 KiB for ours):
//   rows                          libdeflate 1    libdeflate 5     ours, level 5
//   entrance frame 24 (3.5 MB)    91.4 KB 12 ms   82.2 KB 12-17 ms 85.2 KB 5.0 ms
//   entrance frame 41 (2.4 MB)    65.7 KB  8 ms   62.3 KB  8.4 ms  64.8 KB 2.7 ms
//   entrance frame 18, whole      1.04 MB 43 ms   0.92 MB  113 ms  0.94 MB 76 ms
//   a fade between photos, RGBA   -               5.50 MB  300 ms  5.50 MB 351 ms
//
// Bands (levels 0 and 1, and ours) are cut by row count alone (never by thread count), each is deflated with the
// previous band's last 32 KiB of filtered bytes as its dictionary and ends on a sync flush (the last on a
// finish), and the Adler-32s are combined in band order: the bytes written are the same for every thread count.
// A thread filters a band (and the rows of its dictionary again) into its own scratch and deflates it there, so
// the filtered image is never written to memory: on the review screen that took a cold two-thread encode from
// 30-38 ms to 16-29 ms.
#include "bt_codec_shim.h"
#include "bt_deflate.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <isa-l/crc.h>
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

typedef uint8_t bt_bytes16 __attribute__((vector_size(16)));

// Row y Sub-filtered into `out` (its filter byte first): every byte less the same byte of the pixel to its left
// (zero left of the first), taken on the input's 4-byte pixels 16 bytes at a time, then packed to 3 bytes a
// pixel through `deltas` (width * 4 bytes) when the output drops the fourth byte. Returns 0 when the output
// drops it and it was not 255 somewhere (the row is not opaque), else 1.
static int bt_filter_row(const bt_png_frame_input *input, int y, uint8_t *deltas, uint8_t *out) {
    const uint8_t *source = input->pixels + input->bytes_per_row * (size_t)y;
    size_t length = (size_t)input->width * 4;
    // An alpha forced to 255 is ORed in before subtracting: 255 at the first pixel, 0 after.
    const bt_bytes16 alpha = input->channels == 4 && input->opaque_alpha
                                 ? (bt_bytes16){0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255}
                                 : (bt_bytes16){0};
    uint8_t *target = input->channels == 4 ? out + 1 : deltas;
    for (size_t i = 0; i < 4; i++) target[i] = source[i] | alpha[i];
    bt_bytes16 all = {255, 255, 255, source[3], 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255};
    size_t i = 4;
    for (; i + 16 <= length; i += 16) {  // i stays a multiple of 4, so alpha's lanes fall on the alpha bytes
        bt_bytes16 here, left;
        memcpy(&here, source + i, 16);
        memcpy(&left, source + i - 4, 16);
        all &= here;
        bt_bytes16 difference = (here | alpha) - (left | alpha);
        memcpy(target + i, &difference, 16);
    }
    uint8_t tail = 255;
    for (; i < length; i++) {
        target[i] = (uint8_t)((source[i] | alpha[i % 4]) - (source[i - 4] | alpha[i % 4]));
        if (i % 4 == 3) tail &= source[i];
    }
    out[0] = 1;
    if (input->channels == 4) return 1;
    int opaque = (all[3] & all[7] & all[11] & all[15] & tail) == 255;
    // Four bytes stored per pixel, three bytes apart: each store's fourth byte is overwritten by the next.
    size_t last = (size_t)input->width - 1;
    for (size_t x = 0; x < last; x++) memcpy(out + 1 + 3 * x, deltas + 4 * x, 4);
    memcpy(out + 1 + 3 * last, deltas + 4 * last, 3);
    return opaque;
}

typedef struct {
    const bt_png_frame_input *input;
    size_t row_bytes;           // filter byte included
    int bands;
    int dictionary_rows;        // rows before a band that hold its dictionary (the last 32 KiB of them)
    uint8_t *filtered;          // height * row_bytes, for libdeflate's whole-stream levels only
    uint8_t **band_output;
    size_t *band_length;
    uint32_t *band_adler;
    atomic_int next_band;
    atomic_int failed;
    atomic_int translucent;     // a row dropped a fourth byte that was not 255 (see `check_opaque`)
} bt_frame_job;

static int bt_band_rows(const bt_frame_job *job, int band, int *first) {
    int rows = job->input->band_rows;
    *first = band * rows;
    int end = *first + rows < job->input->height ? *first + rows : job->input->height;
    return end - *first;
}

// Rows first..<first + rows, Sub-filtered, into `target`; `deltas` is width * 4 bytes of scratch. With
// `check_opaque`, a translucent row ends the job (it must be written with its alpha).
static void bt_filter_rows(bt_frame_job *job, int first, int rows, uint8_t *deltas, uint8_t *target) {
    int opaque = 1;
    for (int y = first; y < first + rows; y++) {
        opaque &= bt_filter_row(job->input, y, deltas, target + job->row_bytes * (size_t)(y - first));
    }
    if (!opaque && job->input->check_opaque) {
        atomic_store(&job->translucent, 1);
        atomic_store(&job->failed, 1);
    }
}

// `size` bytes at `data` as raw deflate with igzip level 1, primed with the `dictionary` bytes before them, ending
// on a sync flush unless `last`, into `output` (`capacity` bytes); returns the length, or 0 on failure.
// `level_buffer` holds ISAL_DEF_LVL1_DEFAULT bytes.
static size_t bt_igzip_band(const uint8_t *data, size_t size, size_t dictionary, int last, uint8_t *level_buffer,
                            uint8_t *output, size_t capacity) {
    struct isal_zstream stream;
    isal_deflate_init(&stream);
    stream.level = 1;
    stream.level_buf = level_buffer;
    stream.level_buf_size = ISAL_DEF_LVL1_DEFAULT;
    stream.gzip_flag = IGZIP_DEFLATE;
    if (dictionary > 0 &&
        isal_deflate_set_dict(&stream, (uint8_t *)data - dictionary, (uint32_t)dictionary) != COMP_OK) {
        return 0;
    }
    stream.next_in = (uint8_t *)data;
    stream.avail_in = (uint32_t)size;
    stream.next_out = output;
    stream.avail_out = (uint32_t)capacity;
    stream.end_of_stream = last;
    stream.flush = last ? NO_FLUSH : SYNC_FLUSH;
    int ok = isal_deflate(&stream) == COMP_OK && stream.avail_in == 0 && stream.avail_out > 0 &&
             (!last || stream.internal_state.state == ZSTATE_END);
    return ok ? capacity - stream.avail_out : 0;
}

// Level 0: the same band stored by zlib, primed and flushed alike.
static size_t bt_stored_band(const uint8_t *data, size_t size, size_t dictionary, int last, uint8_t *output,
                             size_t capacity) {
    z_stream stream;
    memset(&stream, 0, sizeof(stream));
    if (deflateInit2(&stream, 0, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) != Z_OK) return 0;
    if (dictionary > 0 && deflateSetDictionary(&stream, data - dictionary, (uInt)dictionary) != Z_OK) {
        deflateEnd(&stream);
        return 0;
    }
    stream.next_in = (Bytef *)data;
    stream.avail_in = (uInt)size;
    stream.next_out = output;
    stream.avail_out = (uInt)capacity;
    int status = deflate(&stream, last ? Z_FINISH : Z_SYNC_FLUSH);
    int complete = last ? status == Z_STREAM_END : status == Z_OK && stream.avail_in == 0 && stream.avail_out > 0;
    size_t length = capacity - stream.avail_out;
    deflateEnd(&stream);
    return complete ? length : 0;
}

// What a band of `size` bytes may deflate to: zlib's bound for stored blocks and igzip's, plus the sync flush's
// empty stored block, or our encoder's bound, whichever is larger.
static size_t bt_band_capacity(size_t size) {
    size_t zlib = compressBound((uLong)size) + 64;
    size_t ours = bt_deflate_bound(size);
    return zlib > ours ? zlib : ours;
}

// One thread's scratch for the banded encoders (stored, igzip, ours): a band's filtered rows after the rows of
// its dictionary (refiltered, so no band waits for another and the rows never leave the cache: a band and its
// dictionary are ~290 KiB), a row of pixel deltas, igzip's hash tables and token buffer or our deflater, and room
// for a band's deflated bytes (copied out to a buffer of their size, so no band's worst case is ever allocated
// afresh).
typedef struct {
    uint8_t *rows;
    uint8_t *deltas;
    uint8_t *level_buffer;      // igzip's (level 1)
    bt_deflater *deflater;      // ours (levels 2...6)
    uint8_t *output;
    size_t output_capacity;
} bt_band_scratch;

static int bt_filter_and_deflate_band(bt_frame_job *job, int band, const bt_band_scratch *scratch) {
    int first;
    int rows = bt_band_rows(job, band, &first);
    int before = first < job->dictionary_rows ? first : job->dictionary_rows;
    bt_filter_rows(job, first - before, before + rows, scratch->deltas, scratch->rows);
    if (atomic_load(&job->translucent)) return 0;
    const uint8_t *data = scratch->rows + job->row_bytes * (size_t)before;
    size_t size = job->row_bytes * (size_t)rows;
    size_t preceding = job->row_bytes * (size_t)before;
    size_t dictionary = preceding < BT_WINDOW ? preceding : BT_WINDOW;
    int last = band == job->bands - 1;
    size_t length;
    if (job->input->level == 0) {
        length = bt_stored_band(data, size, dictionary, last, scratch->output, scratch->output_capacity);
    } else if (job->input->level == 1) {
        length = bt_igzip_band(data, size, dictionary, last, scratch->level_buffer, scratch->output,
                               scratch->output_capacity);
    } else {
        length = bt_deflate(scratch->deflater, data, size, dictionary, last, scratch->output, scratch->output_capacity);
    }
    uint8_t *output = length > 0 ? malloc(length) : NULL;
    if (output == NULL) return 0;
    memcpy(output, scratch->output, length);
    job->band_output[band] = output;
    job->band_length[band] = length;
    job->band_adler[band] = isal_adler32(1, data, size);
    return 1;
}

// Bands are taken from a shared counter, one at a time, by every thread.
static void *bt_band_worker(void *argument) {
    bt_frame_job *job = argument;
    bt_band_scratch scratch = {
        .rows = malloc(job->row_bytes * (size_t)(job->dictionary_rows + job->input->band_rows)),
        .deltas = malloc((size_t)job->input->width * 4),
        .level_buffer = job->input->level == 1 ? malloc(ISAL_DEF_LVL1_DEFAULT) : NULL,
        .deflater = job->input->level >= BT_DEFLATE_MIN_LEVEL ? bt_deflater_new(job->input->level) : NULL,
        .output_capacity = bt_band_capacity(job->row_bytes * (size_t)job->input->band_rows)};
    scratch.output = malloc(scratch.output_capacity);
    if (scratch.rows == NULL || scratch.deltas == NULL || scratch.output == NULL ||
        (job->input->level == 1 && scratch.level_buffer == NULL) ||
        (job->input->level >= BT_DEFLATE_MIN_LEVEL && scratch.deflater == NULL)) {
        atomic_store(&job->failed, 1);
    }
    int band;
    while (!atomic_load(&job->failed) && (band = atomic_fetch_add(&job->next_band, 1)) < job->bands) {
        if (!bt_filter_and_deflate_band(job, band, &scratch)) atomic_store(&job->failed, 1);
    }
    free(scratch.rows);
    free(scratch.deltas);
    free(scratch.level_buffer);
    bt_deflater_free(scratch.deflater);
    free(scratch.output);
    return NULL;
}

// For libdeflate's levels: every band's rows filtered into the whole image's buffer.
static void *bt_filter_worker(void *argument) {
    bt_frame_job *job = argument;
    uint8_t *deltas = malloc((size_t)job->input->width * 4);
    if (deltas == NULL) {
        atomic_store(&job->failed, 1);
        return NULL;
    }
    int band;
    while (!atomic_load(&job->failed) && (band = atomic_fetch_add(&job->next_band, 1)) < job->bands) {
        int first;
        int rows = bt_band_rows(job, band, &first);
        bt_filter_rows(job, first, rows, deltas, job->filtered + job->row_bytes * (size_t)first);
    }
    free(deltas);
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

// Where the zlib stream goes: a buffer of its own (an APNG frame's, which the caller frames in fdAT chunks), or
// straight into a still PNG's file after its header chunks, framed in IDAT chunks as it is written (no copy of
// the stream between the two).
typedef struct {
    const uint8_t *prefix;      // the file's signature and header chunks; NULL for the bare stream
    size_t prefix_length;
    size_t chunk_bytes;         // IDAT data per chunk
    size_t stream_length;       // the whole stream's, known before it is written
    uint8_t *out;
    size_t written;             // of the stream so far
    uint32_t crc;
} bt_stream_writer;

static size_t bt_file_length(const bt_stream_writer *w) {
    if (w->prefix == NULL) return w->stream_length;
    size_t chunks = (w->stream_length + w->chunk_bytes - 1) / w->chunk_bytes;
    return w->prefix_length + w->stream_length + 12 * chunks + 12;  // + IEND
}

static void bt_put_be32(uint8_t *at, uint32_t value) {
    at[0] = (uint8_t)(value >> 24);
    at[1] = (uint8_t)(value >> 16);
    at[2] = (uint8_t)(value >> 8);
    at[3] = (uint8_t)value;
}

static void bt_stream_begin(bt_stream_writer *w) {
    if (w->prefix != NULL) memcpy(w->out, w->prefix, w->prefix_length);
}

static void bt_stream_put(bt_stream_writer *w, const uint8_t *bytes, size_t count) {
    if (w->prefix == NULL) {
        memcpy(w->out + w->written, bytes, count);
        w->written += count;
        return;
    }
    while (count > 0) {
        size_t chunk = w->written / w->chunk_bytes;
        size_t into = w->written % w->chunk_bytes;
        uint8_t *data = w->out + w->prefix_length + chunk * (w->chunk_bytes + 12) + 8;
        if (into == 0) {
            size_t left = w->stream_length - w->written;
            bt_put_be32(data - 8, (uint32_t)(left < w->chunk_bytes ? left : w->chunk_bytes));
            memcpy(data - 4, "IDAT", 4);
            w->crc = crc32_gzip_refl(0, data - 4, 4);
        }
        size_t take = w->chunk_bytes - into < count ? w->chunk_bytes - into : count;
        memcpy(data + into, bytes, take);
        w->crc = crc32_gzip_refl(w->crc, data + into, take);
        w->written += take;
        bytes += take;
        count -= take;
        if (w->written % w->chunk_bytes == 0 || w->written == w->stream_length) {
            size_t length = w->written % w->chunk_bytes == 0 ? w->chunk_bytes : w->written % w->chunk_bytes;
            bt_put_be32(data + length, w->crc);
        }
    }
}

static void bt_stream_end(bt_stream_writer *w) {
    if (w->prefix == NULL) return;
    static const uint8_t iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82};
    memcpy(w->out + bt_file_length(w) - 12, iend, 12);
}

// The job ended on a translucent row (`check_opaque`): the caller encodes again with alpha.
static int bt_not_opaque(bt_frame_job *job, char message[BT_MESSAGE_LENGTH]) {
    bt_frame_fail(job, message, "a pixel is not opaque");
    return BT_PNG_NOT_OPAQUE;
}

// libdeflate's levels: the filtered rows as one zlib stream at the same level.
static int bt_deflate_whole(bt_frame_job *job, bt_stream_writer *writer, char message[BT_MESSAGE_LENGTH]) {
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
    writer->stream_length = length;
    if (writer->prefix == NULL) {  // the bare stream is libdeflate's buffer itself
        writer->out = stream;
    } else {
        writer->out = malloc(bt_file_length(writer));
        if (writer->out == NULL) {
            free(stream);
            return bt_frame_fail(job, message, "out of memory for the compressed frame");
        }
        bt_stream_begin(writer);
        bt_stream_put(writer, stream, length);
        bt_stream_end(writer);
        free(stream);
    }
    bt_frame_fail(job, message, "");  // frees the filtered rows; the message stays empty
    return 0;
}

// At least a quarter of a sample of the pixels (every eighth row) the same as the pixel to their left: rows with
// runs after the Sub filter, which our encoder takes faster than libdeflate (see the top; a photo's busy rows
// repeat 2 % of their pixels, the entrance's first frame 67 %, its later frames 95 %).
static int bt_has_runs(const bt_png_frame_input *input) {
    // The bytes written: RGB, or RGBA with the alpha forced to 255 (both compare alike without it).
    uint32_t written = input->channels == 4 && !input->opaque_alpha ? 0xFFFFFFFFu : 0;
    memset(&written, 0xFF, 3);  // the first three bytes of a pixel in memory, whatever the byte order
    size_t repeated = 0, sampled = 0;
    for (int y = 0; y < input->height; y += 8) {
        const uint8_t *row = input->pixels + input->bytes_per_row * (size_t)y;
        uint32_t left;
        memcpy(&left, row, 4);
        for (int x = 1; x < input->width; x++) {
            uint32_t pixel;
            memcpy(&pixel, row + 4 * (size_t)x, 4);
            repeated += ((pixel ^ left) & written) == 0;
            left = pixel;
        }
        sampled += (size_t)input->width;
    }
    return repeated * 4 >= sampled;
}

static int bt_takes_our_deflater(const bt_png_frame_input *input) {
    if (input->level < BT_DEFLATE_MIN_LEVEL || input->level > BT_DEFLATE_MAX_LEVEL) return 0;
    if (input->deflater != BT_DEFLATER_BY_DATA) return input->deflater == BT_DEFLATER_RUNS;
    return bt_has_runs(input);
}

static int bt_encode(const bt_png_frame_input *input, bt_stream_writer *writer, char message[BT_MESSAGE_LENGTH]) {
    message[0] = 0;
    bt_frame_job job;
    memset(&job, 0, sizeof(job));
    job.input = input;
    if (input->width <= 0 || input->height <= 0 || input->band_rows <= 0 || input->level < 0 || input->level > 9
        || (input->channels != 3 && input->channels != 4) || input->deflater < 0 || input->deflater > 2
        || (input->check_opaque && input->channels != 3)) {
        return bt_frame_fail(&job, message, "invalid frame encoding parameters");
    }
    job.row_bytes = (size_t)input->width * (size_t)input->channels + 1;
    int band_rows = input->band_rows < input->height ? input->band_rows : input->height;
    if (job.row_bytes * (size_t)band_rows > 0x7FFFFFFF) {
        return bt_frame_fail(&job, message, "a band of rows is more than zlib takes in one call (2 GiB)");
    }
    job.bands = (input->height + input->band_rows - 1) / input->band_rows;
    job.dictionary_rows = (int)((BT_WINDOW + job.row_bytes - 1) / job.row_bytes);
    int threads = input->threads < 1 ? 1 : (input->threads > job.bands ? job.bands : input->threads);
    atomic_init(&job.next_band, 0);
    atomic_init(&job.failed, 0);
    atomic_init(&job.translucent, 0);
    if (input->level >= 2 && !bt_takes_our_deflater(input)) {
        job.filtered = malloc(job.row_bytes * (size_t)input->height);
        if (job.filtered == NULL) return bt_frame_fail(&job, message, "out of memory for the frame's filtered rows");
        bt_run_phase(&job, threads, bt_filter_worker);
        if (atomic_load(&job.translucent)) return bt_not_opaque(&job, message);
        if (atomic_load(&job.failed)) return bt_frame_fail(&job, message, "out of memory filtering the frame's rows");
        return bt_deflate_whole(&job, writer, message);
    }
    job.band_output = calloc((size_t)job.bands, sizeof(uint8_t *));
    job.band_length = calloc((size_t)job.bands, sizeof(size_t));
    job.band_adler = calloc((size_t)job.bands, sizeof(uint32_t));
    if (!job.band_output || !job.band_length || !job.band_adler) {
        return bt_frame_fail(&job, message, "out of memory for the frame's bands");
    }
    bt_run_phase(&job, threads, bt_band_worker);
    if (atomic_load(&job.translucent)) return bt_not_opaque(&job, message);
    if (atomic_load(&job.failed)) return bt_frame_fail(&job, message, "could not deflate the frame (out of memory?)");

    writer->stream_length = 2 + 4;
    for (int i = 0; i < job.bands; i++) writer->stream_length += job.band_length[i];
    writer->out = malloc(bt_file_length(writer));
    if (writer->out == NULL) return bt_frame_fail(&job, message, "out of memory for the compressed frame");
    bt_stream_begin(writer);
    // The zlib header: deflate with a 32 KiB window, FLEVEL 0 ("fastest") for levels 0 and 1 and 1 ("fast") for
    // ours, FCHECK last.
    uint8_t header[2] = {0x78, (uint8_t)((input->level <= 1 ? 0 : 1) << 6)};
    header[1] = (uint8_t)(header[1] + (31 - (header[0] * 256 + header[1]) % 31) % 31);
    bt_stream_put(writer, header, 2);
    uLong adler = 1L;
    for (int i = 0; i < job.bands; i++) {
        bt_stream_put(writer, job.band_output[i], job.band_length[i]);
        int first;
        int rows = bt_band_rows(&job, i, &first);
        adler = adler32_combine(adler, job.band_adler[i], (z_off_t)(job.row_bytes * (size_t)rows));
    }
    uint8_t trailer[4];
    bt_put_be32(trailer, (uint32_t)adler);
    bt_stream_put(writer, trailer, 4);
    bt_stream_end(writer);
    bt_frame_fail(&job, message, "");  // frees the bands; the message stays empty
    return 0;
}

// bt_encode into `writer`, its buffer handed to the caller on success.
static int bt_encode_out(const bt_png_frame_input *input, bt_stream_writer *writer, uint8_t **out, size_t *out_length,
                         char message[BT_MESSAGE_LENGTH]) {
    int status = bt_encode(input, writer, message);
    if (status != 0) return status;
    *out = writer->out;
    *out_length = bt_file_length(writer);
    return 0;
}

int bt_png_frame_encode(const bt_png_frame_input *input, uint8_t **out, size_t *out_length,
                        char message[BT_MESSAGE_LENGTH]) {
    bt_stream_writer writer = {0};
    *out = NULL;
    *out_length = 0;
    return bt_encode_out(input, &writer, out, out_length, message);
}

int bt_png_frame_encode_file(const bt_png_frame_input *input, const uint8_t *prefix, size_t prefix_length,
                             size_t chunk_bytes, uint8_t **out, size_t *out_length,
                             char message[BT_MESSAGE_LENGTH]) {
    bt_stream_writer writer = {.prefix = prefix, .prefix_length = prefix_length, .chunk_bytes = chunk_bytes};
    *out = NULL;
    *out_length = 0;
    if (prefix == NULL || chunk_bytes == 0 || chunk_bytes > 0x7FFFFFFF) {
        snprintf(message, BT_MESSAGE_LENGTH, "invalid PNG framing parameters");
        return 1;
    }
    return bt_encode_out(input, &writer, out, out_length, message);
}
