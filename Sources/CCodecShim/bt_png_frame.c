// One PNG image's data stream (an APNG frame's IDAT or fdAT payload) from 8-bit pixels: per-row adaptive
// filtering, then deflate in bands on several threads, pigz-style, into one valid zlib stream.
//
// Bands are cut by row count alone (never by thread count), each is deflated with the previous band's last
// 32 KiB of filtered bytes as its dictionary and ends on a sync flush (the last on a finish), and the
// Adler-32s are combined in band order: the bytes written are the same for every thread count.
#include "bt_codec_shim.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

enum { BT_WINDOW = 32768 };

// Rows are kept with `bpp` zero bytes in front (the "pixel to the left" of the first pixel, as PNG defines
// it), so the filter loops have no edge cases and the compiler can vectorise them.
enum { BT_PAD = 4 };

// libpng's and Pillow's heuristic: the filter whose output bytes, read as signed, sum smallest in magnitude.
// `row` and `above` point past their padding; `candidates` holds 4 rows of `length` bytes.
static void bt_filter_row(const uint8_t *row, const uint8_t *above, size_t length, int bpp, uint8_t *candidates,
                          uint8_t *out) {
    const uint8_t *left = row - bpp, *corner = above - bpp;
    uint8_t *sub = candidates, *up = candidates + length, *average = up + length, *paeth = average + length;
    uint32_t sums[5] = {0, 0, 0, 0, 0};
    for (size_t i = 0; i < length; i++) {
        int x = row[i], a = left[i], b = above[i], c = corner[i];
        // Paeth's distances |p - a|, |p - b|, |p - c| for p = a + b - c, without forming p.
        int pa = b - c, pb = a - c, pc = a + b - 2 * c;
        pa = pa < 0 ? -pa : pa;
        pb = pb < 0 ? -pb : pb;
        pc = pc < 0 ? -pc : pc;
        int predicted = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c);
        sub[i] = (uint8_t)(x - a);
        up[i] = (uint8_t)(x - b);
        average[i] = (uint8_t)(x - ((a + b) >> 1));
        paeth[i] = (uint8_t)(x - predicted);
        int8_t s0 = (int8_t)x, s1 = (int8_t)sub[i], s2 = (int8_t)up[i], s3 = (int8_t)average[i], s4 = (int8_t)paeth[i];
        sums[0] += (uint32_t)(s0 < 0 ? -s0 : s0);
        sums[1] += (uint32_t)(s1 < 0 ? -s1 : s1);
        sums[2] += (uint32_t)(s2 < 0 ? -s2 : s2);
        sums[3] += (uint32_t)(s3 < 0 ? -s3 : s3);
        sums[4] += (uint32_t)(s4 < 0 ? -s4 : s4);
    }
    int best = 0;
    for (int f = 1; f < 5; f++) {
        if (sums[f] < sums[best]) best = f;
    }
    out[0] = (uint8_t)best;
    memcpy(out + 1, best == 0 ? row : candidates + length * (size_t)(best - 1), length);
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

// `scratch`: two padded rows, then the four candidate rows.
static void bt_filter_band(bt_frame_job *job, int band, uint8_t *scratch) {
    const bt_png_frame_input *input = job->input;
    size_t length = job->row_bytes - 1;
    int first;
    int rows = bt_band_rows(job, band, &first);
    uint8_t *current = scratch, *previous = scratch + BT_PAD + length, *candidates = previous + BT_PAD + length;
    memset(scratch, 0, 2 * (BT_PAD + length));  // the padding, and the row above the first, which is zero
    if (first > 0) bt_packed_row(input, first - 1, previous);
    for (int y = first; y < first + rows; y++) {
        bt_packed_row(input, y, current);
        bt_filter_row(current + BT_PAD, previous + BT_PAD, length, input->channels, candidates,
                      job->filtered + job->row_bytes * (size_t)y);
        uint8_t *swap = current;  // the row just filtered is the next one's row above
        current = previous;
        previous = swap;
    }
}

static int bt_deflate_band(bt_frame_job *job, int band) {
    int first;
    int rows = bt_band_rows(job, band, &first);
    const uint8_t *data = job->filtered + job->row_bytes * (size_t)first;
    size_t size = job->row_bytes * (size_t)rows;
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
    uint8_t *scratch = malloc(2 * (BT_PAD + job->row_bytes - 1) + 4 * (job->row_bytes - 1));
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
    if (!atomic_load(&job.failed)) bt_run_phase(&job, threads, bt_deflate_worker);
    if (atomic_load(&job.failed)) return bt_frame_fail(&job, message, "zlib could not deflate the frame");

    size_t total = 2 + 4;
    for (int i = 0; i < job.bands; i++) total += job.band_length[i];
    uint8_t *stream = malloc(total);
    if (stream == NULL) return bt_frame_fail(&job, message, "out of memory for the compressed frame");
    // The zlib header: deflate with a 32 KiB window, FLEVEL from the level as zlib sets it, FCHECK last.
    int level = input->level;
    int flevel = level < 2 ? 0 : (level < 6 ? 1 : (level == 6 ? 2 : 3));
    stream[0] = 0x78;
    stream[1] = (uint8_t)(flevel << 6);
    stream[1] += (uint8_t)(31 - (stream[0] * 256 + stream[1]) % 31);
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
