/*
 * The C interface's region blur timed from C, for Benchmarks/capi/c_against_swift.py, which alternates its trials
 * with blurbench's Swift ones (`region-blur-sigma2-reuse`, `region-blur-sigma30-reuse`).
 *
 *   region_blur PHOTO THREADS [--serve]
 *
 * Reads benchmark names from standard input, one a line, runs one trial of each and writes its milliseconds: the
 * bottom third of the photo blurred into a buffer of its size, one workspace for every call, as a renderer does.
 * `tiny-blur N` (PHOTO may then be -) writes the microseconds of one call blurring an 8x8 buffer into another,
 * the mean of N: the cost of a call itself, which Benchmarks/peers/peer_python.py compares with Python's.
 */
#define _POSIX_C_SOURCE 200809L
#include <blurtool.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double milliseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1e3 + now.tv_nsec * 1e-6;
}

/* Answers `tiny-blur N` lines: the mean microseconds of N blurs of an 8x8 buffer into another. */
static int tiny_blurs(int threads) {
    uint8_t source_pixels[8 * 8 * 4], destination_pixels[8 * 8 * 4];
    for (int i = 0; i < (int)sizeof source_pixels; i++) source_pixels[i] = (uint8_t)(i % 4 == 3 ? 255 : i * 7);
    blurtool_buffer_t source = {source_pixels, 8, 8, 32, BLURTOOL_ALPHA_PREMULTIPLIED};
    blurtool_buffer_t destination = {destination_pixels, 8, 8, 32, BLURTOOL_ALPHA_PREMULTIPLIED};
    blurtool_workspace_t *workspace = blurtool_workspace_new();
    char line[256];
    int count;
    while (fgets(line, sizeof line, stdin)) {
        if (sscanf(line, "tiny-blur %d", &count) != 1 || count < 1) {
            printf("unknown\n");
            continue;
        }
        for (int i = 0; i < 1000; i++)
            blurtool_blur(workspace, &source, NULL, &destination, 1, BLURTOOL_EDGE_MIRROR, BLURTOOL_PRECISION_AUTO, threads);
        double start = milliseconds();
        for (int i = 0; i < count; i++)
            blurtool_blur(workspace, &source, NULL, &destination, 1, BLURTOOL_EDGE_MIRROR, BLURTOOL_PRECISION_AUTO, threads);
        printf("%.3f\n", (milliseconds() - start) * 1000 / count);
    }
    blurtool_workspace_free(workspace);
    return 0;
}

int main(int argc, char **argv) {
    /* --serve, which alternating.py's Served adds, is how this program always works. */
    if (argc != 3 && !(argc == 4 && strcmp(argv[3], "--serve") == 0)) {
        fprintf(stderr, "usage: region_blur PHOTO THREADS [--serve]\n");
        return 64;
    }
    if (strcmp(argv[1], "-") == 0) return tiny_blurs(atoi(argv[2]));
    FILE *file = fopen(argv[1], "rb");
    if (!file) return 66;
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *bytes = malloc((size_t)size);
    if (!bytes || fread(bytes, 1, (size_t)size, file) != (size_t)size) return 66;
    fclose(file);
    blurtool_buffer_t photo;
    if (blurtool_decode(bytes, (size_t)size, 0, BLURTOOL_ALPHA_PREMULTIPLIED, &photo)) {
        fprintf(stderr, "region_blur: %s\n", blurtool_last_error());
        return 65;
    }
    free(bytes);
    int32_t height = photo.height / 3;
    blurtool_rect_t region = {0, photo.height - height, photo.width, height};
    blurtool_buffer_t panel = {NULL, photo.width, height, (int64_t)photo.width * 4, BLURTOOL_ALPHA_PREMULTIPLIED};
    panel.pixels = malloc((size_t)panel.stride * (size_t)height);
    blurtool_workspace_t *workspace = blurtool_workspace_new();
    int threads = atoi(argv[2]);

    char line[256];
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        double sigma;
        if (sscanf(line, "region-blur-sigma%lf-reuse", &sigma) != 1) {
            printf("unknown\n");
            continue;
        }
        double start = milliseconds();
        blurtool_status_t status = blurtool_blur(workspace, &photo, &region, &panel, sigma, BLURTOOL_EDGE_MIRROR,
                                                 BLURTOOL_PRECISION_AUTO, threads);
        double elapsed = milliseconds() - start;
        printf(status == BLURTOOL_OK ? "%.4f\n" : "failed\n", elapsed);
    }
    blurtool_workspace_free(workspace);
    blurtool_free(photo.pixels);
    free(panel.pixels);
    return 0;
}
