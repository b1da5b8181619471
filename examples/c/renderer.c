/*
 * A renderer's frame loop through blurtool's C interface.
 *
 *   renderer PHOTO SCENE.json OUT.png [FRAMES] [SCENE_FRAMES]
 *
 * Every frame it draws the photo into its frame buffer (as an app redraws its content), frosts the bottom
 * third in place with the thin material (a sheet's backdrop) and draws a translucent card over it; one workspace
 * serves every frame, so once the first frame has sized it the loop allocates nothing (a material whose effect
 * animates makes its blur weights anew for each new sigma: a few small allocations a frame). Then it renders
 * SCENE.json frame by frame (the scene's handle keeps what does not move) and writes the last scene frame to
 * OUT.png (SCENE_FRAMES 0: the frame loop alone, nothing read or written after it).
 *
 * Build: cc renderer.c $(pkg-config --cflags --libs blurtool) -o renderer
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <blurtool.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failed(const char *what) {
    fprintf(stderr, "renderer: %s: %s\n", what, blurtool_last_error());
    return 1;
}

static double seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec + now.tv_nsec * 1e-9;
}

/* The whole file, or NULL. */
static unsigned char *read_file(const char *path, size_t *size) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    unsigned char *bytes = NULL;
    size_t capacity = 0;
    *size = 0;
    for (;;) {
        if (*size == capacity) {
            capacity = capacity ? capacity * 2 : 1 << 16;
            unsigned char *grown = realloc(bytes, capacity);
            if (!grown) break;
            bytes = grown;
        }
        size_t count = fread(bytes + *size, 1, capacity - *size, file);
        if (count == 0) break;
        *size += count;
    }
    fclose(file);
    return bytes;
}

static int write_png(const blurtool_buffer_t *image, const char *path) {
    uint8_t *png;
    size_t size;
    if (blurtool_encode(image, BLURTOOL_FORMAT_PNG, 0, &png, &size) != BLURTOOL_OK) return failed("encode");
    FILE *file = fopen(path, "wb");
    int written = file && fwrite(png, 1, size, file) == size;
    if (file && fclose(file) != 0) written = 0;
    blurtool_free(png);
    if (!written) {
        fprintf(stderr, "renderer: cannot write %s\n", path);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: renderer PHOTO SCENE.json OUT.png [FRAMES] [SCENE_FRAMES]\n");
        return 64;
    }
    int frames = argc > 4 ? atoi(argv[4]) : 60;
    int scene_frames = argc > 5 ? atoi(argv[5]) : 30;
    if (blurtool_abi_version() != BLURTOOL_ABI_VERSION) {
        fprintf(stderr, "renderer: built for ABI %d, the library is %d\n", BLURTOOL_ABI_VERSION, blurtool_abi_version());
        return 1;
    }
    printf("blurtool %s, kernels %s\n", blurtool_version(), blurtool_kernels());

    size_t size;
    unsigned char *bytes = read_file(argv[1], &size);
    if (!bytes) {
        fprintf(stderr, "renderer: cannot read %s\n", argv[1]);
        return 1;
    }
    blurtool_buffer_t photo;
    blurtool_status_t status = blurtool_decode(bytes, size, 0, BLURTOOL_ALPHA_PREMULTIPLIED, &photo);
    free(bytes);
    if (status != BLURTOOL_OK) return failed("decode");

    /* The frame buffer, rows padded to 64 bytes as a GPU upload buffer would be. */
    blurtool_buffer_t frame = photo;
    frame.stride = (photo.width * 4 + 63) / 64 * 64;
    frame.pixels = calloc((size_t)frame.stride, (size_t)frame.height);
    /* A translucent white card the size of the sheet, premultiplied. */
    blurtool_rect_t sheet = {0, photo.height * 2 / 3, photo.width, photo.height - photo.height * 2 / 3};
    blurtool_buffer_t card = {NULL, sheet.width, sheet.height, (int64_t)sheet.width * 4, BLURTOOL_ALPHA_PREMULTIPLIED};
    card.pixels = malloc((size_t)card.stride * (size_t)card.height);
    if (!frame.pixels || !card.pixels) return 1;
    memset(card.pixels, 96, (size_t)card.stride * (size_t)card.height); /* white at alpha 96/255 */
    blurtool_workspace_t *workspace = blurtool_workspace_new();

    double start = seconds();
    for (int index = 0; index < frames; index++) {
        for (int y = 0; y < photo.height; y++) {
            memcpy(frame.pixels + y * frame.stride, photo.pixels + y * photo.stride, (size_t)photo.width * 4);
        }
        if (blurtool_material(workspace, &frame, &sheet, NULL, "thin", BLURTOOL_APPEARANCE_LIGHT, 0, 1, 0, 1))
            return failed("material");
        if (blurtool_composite(workspace, &frame, &card, sheet.x, sheet.y, "source-over", 1, NULL, 0, 1))
            return failed("composite");
    }
    double drawn = seconds() - start;
    printf("%d frames of %dx%d with a frosted sheet: %.2f ms a frame\n", frames, frame.width, frame.height,
           frames ? drawn * 1000 / frames : 0);

    if (scene_frames <= 0) {
        blurtool_workspace_free(workspace);
        blurtool_free(photo.pixels);
        free(frame.pixels);
        free(card.pixels);
        return 0;
    }
    blurtool_scene_t *scene;
    if (blurtool_scene_load(argv[2], &scene)) return failed("scene");
    int32_t width, height;
    double duration;
    blurtool_scene_size(scene, &width, &height);
    blurtool_scene_duration(scene, &duration);
    blurtool_buffer_t canvas = {NULL, width, height, (int64_t)width * 4, BLURTOOL_ALPHA_STRAIGHT};
    canvas.pixels = malloc((size_t)canvas.stride * (size_t)height);
    if (!canvas.pixels) return 1;
    start = seconds();
    for (int index = 0; index < scene_frames; index++) {
        double time = scene_frames > 1 ? duration * index / (scene_frames - 1) : duration;
        if (blurtool_scene_render(scene, time, &canvas, 0)) return failed("scene frame");
    }
    drawn = seconds() - start;
    printf("%d scene frames of %dx%d over %.2f s: %.2f ms a frame\n", scene_frames, width, height, duration,
           scene_frames ? drawn * 1000 / scene_frames : 0);
    int result = write_png(&canvas, argv[3]);

    blurtool_scene_free(scene);
    blurtool_workspace_free(workspace);
    blurtool_free(photo.pixels);
    free(frame.pixels);
    free(card.pixels);
    free(canvas.pixels);
    return result;
}
