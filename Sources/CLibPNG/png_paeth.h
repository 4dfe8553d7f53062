// png_paeth.h — PNG's Paeth predictor (PNG specification, 9.4), shared by the decoder's inverse and the encoder's
// filter trial in their portable loops. Private to CLibPNG.
#ifndef BACKDROP_PNG_PAETH_H
#define BACKDROP_PNG_PAETH_H

#include <stdint.h>
#include <stdlib.h>

/// Of `a` (left), `b` (up) and `c` (up-left), the one nearest to a + b − c; ties go to a, then b.
static inline uint8_t bd_paeth(int a, int b, int c) {
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return (uint8_t)((pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c));
}

#endif
