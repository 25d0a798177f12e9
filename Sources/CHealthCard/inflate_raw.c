#include "health_card.h"

#include <limits.h>
#include <string.h>
#include <zlib.h>

int hc_inflate_raw(const uint8_t *in, size_t in_length, uint8_t *out, size_t out_capacity, size_t *out_length) {
    *out_length = 0;
    if (in_length > UINT_MAX || out_capacity > UINT_MAX) return -1;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    /* Negative window bits: raw DEFLATE, as RFC 7516's "zip": "DEF" (SMART Health Cards). */
    if (inflateInit2(&stream, -15) != Z_OK) return -1;
    stream.next_in = (Bytef *)in;
    stream.avail_in = (uInt)in_length;
    stream.next_out = out;
    stream.avail_out = (uInt)out_capacity;
    int status = inflate(&stream, Z_FINISH);
    uInt room_left = stream.avail_out;
    uInt input_left = stream.avail_in;
    *out_length = (size_t)stream.total_out;
    inflateEnd(&stream);
    if (status == Z_STREAM_END) return input_left == 0 ? 0 : -1;
    /* Out of room before the stream's end: the payload is larger than allowed. */
    if (room_left == 0) return -2;
    return -1;
}
