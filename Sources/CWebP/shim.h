// libwebp's animation encoder (libwebpmux); the demuxer's animation decoder is here for the tests' round trips.
#include <webp/encode.h>
#include <webp/mux.h>
#include <webp/demux.h>
