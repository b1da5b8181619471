// zlib helpers for PNG metadata chunks (iCCP, zTXt): bounded so a compressed bomb cannot grow memory.
#include "bt_codec_shim.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

int bt_zlib_inflate(const uint8_t *data, size_t size, size_t max_output, uint8_t **out, size_t *out_length) {
    *out = NULL;
    *out_length = 0;
    z_stream stream;
    memset(&stream, 0, sizeof(stream));
    if (inflateInit(&stream) != Z_OK) {
        return 0;
    }
    size_t capacity = size * 4 < max_output ? size * 4 + 64 : max_output;
    uint8_t *buffer = malloc(capacity > 0 ? capacity : 1);
    if (buffer == NULL) {
        inflateEnd(&stream);
        return 0;
    }
    stream.next_in = (Bytef *)data;
    stream.avail_in = (uInt)size;
    size_t produced = 0;
    int status = Z_OK;
    while (status != Z_STREAM_END) {
        if (produced == capacity) {
            if (capacity >= max_output) {
                break;  // would exceed the bound
            }
            size_t grown = capacity * 2 < max_output ? capacity * 2 : max_output;
            uint8_t *larger = realloc(buffer, grown);
            if (larger == NULL) {
                break;
            }
            buffer = larger;
            capacity = grown;
        }
        stream.next_out = buffer + produced;
        stream.avail_out = (uInt)(capacity - produced);
        status = inflate(&stream, Z_NO_FLUSH);
        produced = capacity - stream.avail_out;
        if (status != Z_OK && status != Z_STREAM_END) {
            break;
        }
    }
    inflateEnd(&stream);
    if (status != Z_STREAM_END) {
        free(buffer);
        return 0;
    }
    *out = buffer;
    *out_length = produced;
    return 1;
}

int bt_zlib_deflate(const uint8_t *data, size_t size, uint8_t **out, size_t *out_length) {
    uLongf capacity = compressBound((uLong)size);
    uint8_t *buffer = malloc(capacity);
    if (buffer == NULL) {
        return 0;
    }
    if (compress2(buffer, &capacity, data, (uLong)size, 9) != Z_OK) {
        free(buffer);
        return 0;
    }
    *out = buffer;
    *out_length = capacity;
    return 1;
}

uint32_t bt_crc32(uint32_t crc, const uint8_t *data, size_t size) {
    return (uint32_t)crc32(crc, data, (uInt)size);
}
