// glass_face_lanes.h — the glass face's colour before its clamp, eight pixels in lanes: the one definition the face
// kernel (glass_face_v3.c) and the rim kernel (glass_rim_v3.c) share, private to this target.
//
// Contract: bit for bit `GlassFaceColour.unclamped`: on straight r, g, b in 0…1, Y = wr·r + wg·g + wb·b;
// Cb = (b − Y) / kb · sat, Cr = (r − Y) / kr · sat; Y ← 0 ≥ Y ? 0 : Y; Y ← m·Y / (m + (1 − m)·Y);
// Y ← black + (white − black)·Y; R = Y + kr·Cr, B = Y + kb·Cb, G = (Y − wr·R − wb·B) / wg; c ← c·(1 − fill) + fill;
// with a tint c ← c·keep + tint·alpha. Each operation a separate IEEE rounding in that order: include this after the
// including file's `#pragma STDC FP_CONTRACT OFF` and its target pragma (so that the lanes travel in AVX registers).
#ifndef BACKDROP_GLASS_FACE_LANES_H
#define BACKDROP_GLASS_FACE_LANES_H

#include <stdint.h>

typedef float bd_glass_f8 __attribute__((ext_vector_type(8)));
typedef int32_t bd_glass_i8 __attribute__((ext_vector_type(8)));

/// Lanes of `values` where `mask` is all ones, of `otherwise` elsewhere.
static inline __attribute__((always_inline)) bd_glass_f8 bd_glass_select(
    bd_glass_i8 mask, bd_glass_f8 values, bd_glass_f8 otherwise) {
    return (bd_glass_f8)(((bd_glass_i8)values & mask) | ((bd_glass_i8)otherwise & ~mask));
}

/// The face's constants, `GlassFaceColour.constants` k[0…16]: the luma weights, kb and kr, the saturation, the
/// luma ceiling m and 1 − m, the levels' black and white − black, the fill's keep and amount, whether tinted, the
/// tint's keep and its premultiplied colour.
typedef struct {
    float wr, wg, wb, kb, kr, saturation, maxLuma, oneMinusMaxLuma, black, whiteMinusBlack, keepFill, fill, keepTint;
    int tinted;
    bd_glass_f8 tint[3];
} bd_glass_face;

static inline bd_glass_face bd_glass_face_of(const float *k) {
    bd_glass_face f = {k[0], k[1], k[2], k[3],  k[4],     k[5], k[6], k[7], k[8], k[9], k[10], k[11], k[13],
                       k[12] != 0, {k[14], k[15], k[16]}};
    return f;
}

/// The face's colour of straight `rgb` (0…1), fill and tint applied, not clamped, into `face`.
static inline __attribute__((always_inline)) void bd_glass_face_unclamped(
    const bd_glass_face *f, const bd_glass_f8 rgb[3], bd_glass_f8 face[3]) {
    const bd_glass_f8 zero = 0;
    bd_glass_f8 luma = f->wr * rgb[0] + f->wg * rgb[1] + f->wb * rgb[2];
    bd_glass_f8 cb = (rgb[2] - luma) / f->kb * f->saturation, cr = (rgb[0] - luma) / f->kr * f->saturation;
    luma = bd_glass_select((bd_glass_i8)(zero >= luma), zero, luma);
    luma = f->maxLuma * luma / (f->maxLuma + f->oneMinusMaxLuma * luma);
    luma = f->black + f->whiteMinusBlack * luma;
    bd_glass_f8 red = luma + f->kr * cr, blue = luma + f->kb * cb;
    face[0] = red;
    face[1] = (luma - f->wr * red - f->wb * blue) / f->wg;
    face[2] = blue;
    for (int c = 0; c < 3; c++) {
        face[c] = face[c] * f->keepFill + f->fill;
        if (f->tinted) face[c] = face[c] * f->keepTint + f->tint[c];
    }
}

#endif
