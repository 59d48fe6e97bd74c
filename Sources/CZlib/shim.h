// zlib for Swift. inflateInit2 is a macro Swift cannot call: this typed wrapper is the only C Larder adds.
#include <zlib.h>

static inline int larder_inflate_init2(z_stream *stream, int window_bits) {
    return inflateInit2(stream, window_bits);
}
static inline int larder_deflate_init2(z_stream *stream, int level, int window_bits) {
    return deflateInit2(stream, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY);
}
