#ifndef BACKDROP_INFLATE_RAW_H
#define BACKDROP_INFLATE_RAW_H

#include <stddef.h>
#include <stdint.h>

/// Inflates the raw DEFLATE stream `compressed` into exactly `out_size` bytes of `out`; 1 on success, 0 when the
/// stream is corrupt, inflates to another size, or memory runs out.
int bd_inflate_raw(const uint8_t *compressed, size_t compressed_size, uint8_t *out, size_t out_size);

#endif
