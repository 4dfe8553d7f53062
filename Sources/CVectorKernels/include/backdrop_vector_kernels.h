// backdrop_vector_kernels.h — the renderer's hottest loops in the CPU's own vector instructions, chosen at run
// time.
//
// The Swift library is compiled for the baseline of its architecture (SwiftPM refuses `-target-cpu` in a package
// that others depend on), where a fused multiply-add is a library call per lane. The kernels here are compiled for
// x86-64-v3 (AVX2 and FMA) by function attributes alone, and the library calls them only where
// `bd_vector_kernels_available()` says the CPU and the operating system run them. Each kernel computes exactly
// what its portable Swift loop computes, operation for operation (a fused multiply-add rounds once on both
// paths), so the output is the same bit for bit on every CPU: `VectorKernelTests` compares the two, and
// BACKDROP_VECTOR_KERNELS=off in the environment forces the portable loops.
#ifndef BACKDROP_VECTOR_KERNELS_H
#define BACKDROP_VECTOR_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 1 where this CPU and its operating system run the x86-64-v3 kernels (AVX2, FMA, the YMM state saved) and
/// BACKDROP_VECTOR_KERNELS is not "off"; 0 otherwise, and always on other architectures. Computed once.
int bd_vector_kernels_available(void);

/// The vertical blur's block of four output rows (`VerticalBlurPass.convolveBlock`): for each of `width` pixels
/// (four floats each) and each output row j < `count`, out[j] = Σ_s rows[s] · weights[s + 3 − j], one fused
/// multiply-add per tap from s = 0 up, where `rows` holds `span` row pointers and `weights` `span + 3` vectors of
/// eight equal floats. Rows of `out` past `count` are not written. Only where `bd_vector_kernels_available()`.
void bd_vertical_blur_block_v3(
    const float *const *rows, ptrdiff_t span, const float *weights, float *const *out, ptrdiff_t count,
    ptrdiff_t width);

/// `HorizontalBlurPass.convolve`: one row of `width` pixels (four floats each) convolved with the `2·radius + 1`
/// symmetric `weights` into `out`; `row` holds `radius` valid pixels before its first and after its last (the
/// clamped padding). The centre tap first, then (left + right) × weight for t = 1 … radius, multiply then add,
/// never fused. Only where `bd_vector_kernels_available()`.
void bd_horizontal_blur_row_v3(
    const float *row, ptrdiff_t width, ptrdiff_t radius, const float *weights, float *out);

/// `FixedPointImage.interpolate`: for `groups` groups of sixteen lanes, out = top + ⌊(bottom − top)·multiplier/2¹⁵
/// + ½⌋ (8.7 fixed point, wrapping 16-bit sums as the Swift loop's `&+`). Only where `bd_vector_kernels_available()`.
void bd_fixed_point_interpolate_v3(
    const int16_t *top, const int16_t *bottom, int16_t multiplier, int16_t *out, ptrdiff_t groups);

/// The 8-bit composite over a uniform run of bilinear segments (`BilinearTaps.UniformRun`, k = `factor` a multiple of
/// 4): for segment s < `segments`, with left = input pixel s and delta = pixel s + 1 − pixel s (four 8.7 lanes
/// each), output pixel k·s + i ← bytes(left + scaledProduct(delta, weights of i)), where `weights` holds k pixels'
/// four lanes. With `content` (straight RGBA8, one pixel per output pixel) the vibrancy filter's blend comes
/// before the bytes (`VibrancyFilterPass.composite`; `constants`: its shift, lower and upper, sixteen lanes each).
/// What the Swift walk stores, bit for bit. Only where `bd_vector_kernels_available()`.
void bd_fixed_point_upscale_run_v3(
    const int16_t *input, ptrdiff_t segments, ptrdiff_t factor, const int16_t *weights, uint8_t *out,
    const uint8_t *content, const int16_t *constants);

/// `ColorTransform.applyOutputScaled` over `count` premultiplied pixels (`out` may be `row`): the saturation matrix
/// (`columns`: three columns of four floats) where `saturates`, the tint (`tint` premultiplied, `keep` = 1 − its
/// alpha), and the conversion to output scale (`maximum`, plus `offset`). Bit for bit the Swift loop's values. Only
/// where `bd_vector_kernels_available()`.
void bd_color_transform_row_v3(
    const float *row, float *out, ptrdiff_t count, const float *columns, const float *tint, float keep,
    int saturates, float maximum, float offset);

/// `MaterialFilterPass.filter(row:into:count:_:)`: a material's colour filters over the first ⌊`count`/8⌋·8
/// premultiplied pixels of `row` into `out` (which may be `row`); the last `count` mod 8 are not written.
/// `constants`: v0, v1, v2, v3, the luminance amount, the saturation, the brightness and the three luma weights.
/// Bit for bit the Swift loop's values. Only where `bd_vector_kernels_available()`.
void bd_material_filter_row_v3(const float *row, float *out, ptrdiff_t count, const float *constants);

/// `MaterialFilterPass.boxRow`'s f = 2 step: the filters over the first ⌊`count`/8⌋·8 premultiplied pixels of `row`,
/// each pair of neighbours summed as (0 + left) + right and added to `sums[x / 2]` (interleaved RGBA); the other
/// sums not touched. `constants` as above. Bit for bit the Swift loops' values. Only where
/// `bd_vector_kernels_available()`.
void bd_material_filter_box2_row_v3(const float *row, float *sums, ptrdiff_t count, const float *constants);

/// `GlassFaceColour.applyOutputScaled`: Liquid Glass's face colour (luma ceiling, face, saturation, fill, tint,
/// clamp) over the first ⌊`count`/8⌋·8 pixels of `pixels` (straight RGBA floats at output scale, v = s·maximum +
/// offset, replaced in place; alpha untouched); the last `count` mod 8 are not written. `constants` (as the Swift
/// loop's literals and products become them): the luma weights wr, wg, wb, the chroma divisors kb and kr, the
/// saturation, the luma ceiling m and 1 − m, black and white − black, 1 − fill and fill, 1 when tinted (else 0),
/// 1 − the tint's alpha, the tint times its alpha (three), the samples' maximum and the offset. Bit for bit the
/// Swift loop's values. Only where `bd_vector_kernels_available()`.
void bd_glass_face_pixels_v3(float *pixels, ptrdiff_t count, const float *constants);

/// `GlassFacePass`'s rim and edge pixels at 8 bits with a blurred surface (`Face.pixel`): pixels `start` ..< `end`
/// of frame row `y`, `out` and `source` the output's and the source's RGBA8 row at the frame's first column. A pixel
/// the face leaves as it is (coverage 1, outside the exact band, unlit) is not written; the others are replaced by
/// the face's value, reading their own pixel of `out` and of `source` and the surface's `table` (straight floats at
/// output scale, `tableStride` pixels a row, `tableWidth` × `tableHeight`). `constants`: the face's colour's 19
/// (`GlassFaceColour.constants(maximum: 1)`), then half the frame's width and height, the same less the radius, the
/// radius, the refraction's amount and height, the highlight's amount and width, cos of its spread and 1 − that,
/// the exact band's width, the surface's factor k, its last column and row (as floats), the output scale's offset
/// and maximum. `prefetch`, when not 0, is the byte offset of a later row's source that the kernel asks the cache
/// for at the same columns (a hint: no value depends on it). Bit for bit the Swift loop's values. Only where
/// `bd_vector_kernels_available()`.
void bd_glass_rim_run8_v3(
    uint8_t *out, const uint8_t *source, ptrdiff_t y, ptrdiff_t start, ptrdiff_t end, const float *table,
    ptrdiff_t tableStride, ptrdiff_t tableWidth, ptrdiff_t tableHeight, const float *constants, ptrdiff_t prefetch);

/// `GlassRefraction.refract(row:width:of:into:constants:)`: small pixels `start` ..< `end` of row `j` of `row` (straight
/// RGBA floats at output scale) whose point lies within the refraction's height of the edge, replaced by the
/// surface's bilinear read (`table` as for `bd_glass_rim_run8_v3`) at the refracted point; the others not written.
/// `constants`: half the frame's width and height, the same less the radius, the radius, the refraction's amount
/// and height, k / 2, then k, the table's last column and row (as floats). Bit for bit the Swift loop's values.
/// Only where `bd_vector_kernels_available()`.
void bd_glass_refract_run_v3(
    float *row, ptrdiff_t j, ptrdiff_t start, ptrdiff_t end, const float *table, ptrdiff_t tableStride,
    ptrdiff_t tableWidth, ptrdiff_t tableHeight, const float *constants);

/// `CaptureDownscale.storeOpaqueStrip`: if every pixel of the strip of eight groups of four pixels from group
/// `firstGroup` in the `factor` rows (straight RGBA8) is opaque, stores the strip's 16-bit column sums (eight
/// groups of sixteen lanes) at `sums` + 16·`firstGroup` and returns 1; otherwise stores nothing and returns 0.
/// Only where `bd_vector_kernels_available()`.
int bd_opaque_strip_v3(const uint8_t *const *rows, ptrdiff_t factor, ptrdiff_t firstGroup, uint16_t *sums);

/// `bd_opaque_strip_v3` with k = 4, where a group of four pixels is one box, over `strips` strips from group
/// `firstGroup` of the four `rows`, in order: each strip whose pixels are all opaque has its eight small pixels,
/// (float)(box sum) · 255 · `scale` per channel (the values `CaptureDownscale.reduce` gives an opaque box), stored at
/// `small` + 4·(its first group). Stops at the first strip that is not (storing nothing for it) and returns the number
/// of strips stored before it: `strips` when all were opaque. Only where `bd_vector_kernels_available()`.
ptrdiff_t bd_opaque_strips_k4_v3(
    const uint8_t *const *rows, ptrdiff_t firstGroup, ptrdiff_t strips, float scale, float *small);

/// One second-order section of `RecursiveGaussian` (its coefficients, the feedback negated, and its steady-state
/// gains for a constant input, as the Swift type computes them).
typedef struct {
    double b0, b1, c1, c2, minusA1, minusA2, causalSteadyState, anticausalSteadyState;
} bd_recursive_section;

/// `HorizontalBlurPass.filter`: the recursive Gaussian (`sections`: its two) along one row of `width` ≥ 1 pixels of
/// four floats, into `out` (not `row`). Bit for bit the Swift loop's values. Only where
/// `bd_vector_kernels_available()`.
void bd_recursive_row_v3(const float *row, ptrdiff_t width, const bd_recursive_section *sections, float *out);

/// `VerticalBlurPass.filterColumns`: the recursive Gaussian down `count` columns from `image` (a pixel of row 0;
/// rows `rowStride` pixels apart, `height` ≥ 1 rows), in place; `count` ≤ `BD_RECURSIVE_COLUMNS_MAX`. `causal` holds
/// height × count pixels. Bit for bit the Swift loop's values. Only where `bd_vector_kernels_available()`.
void bd_recursive_columns_v3(
    float *image, ptrdiff_t rowStride, ptrdiff_t height, ptrdiff_t count, const bd_recursive_section *sections,
    float *causal);

/// The most columns `bd_recursive_columns_v3` takes at once (its states live on its stack).
#define BD_RECURSIVE_COLUMNS_MAX 64

/// sums[i] += row[i] for i < `count`, wrapping 32-bit sums: the column sums of `bd_box_write_two_rows_v3` before a
/// band's first row (`BoxBlurPass.slideColumns` without a leaving row). Only where `bd_vector_kernels_available()`.
void bd_box_add_row_v3(uint32_t *sums, const uint8_t *row, ptrdiff_t count);

/// `BoxBlurPass.slideColumns` then `BoxBlurPass.writeRow` for two consecutive rows: `rows` holds the first row's entering
/// and leaving input rows, then the second's (the same pointer twice: that row does not slide); along each row of
/// `width` pixels of column sums (four lanes each), the sums of the windows of 2·`half` + 1 pixels (edges
/// extended), each as ⌊(sum + ⌊area/2⌋) / area⌋ into `first` and `second`; every sum + ⌊area/2⌋ below 2³¹.
/// `pairs` and `windows` are scratch of 8·`width` lanes each. Only where `bd_vector_kernels_available()`.
void bd_box_write_two_rows_v3(
    uint32_t *columns, const uint8_t *const *rows, ptrdiff_t width, ptrdiff_t half, uint32_t area, uint32_t *pairs,
    uint32_t *windows, uint8_t *first, uint8_t *second);

/// The widest box of `bd_box16_write_two_rows_v3` (`BoxBlurPass.widestSixteenBitBox`).
#define BD_BOX16_WIDEST 127

/// sums[i] += row[i] for i < `count`, wrapping 16-bit sums: the column sums of `bd_box16_write_two_rows_v3` before a
/// band's first row. Only where `bd_vector_kernels_available()`.
void bd_box16_add_row_v3(uint16_t *sums, const uint8_t *row, ptrdiff_t count);

/// `bd_box_write_two_rows_v3` for boxes (2·`half` + 1) up to `BD_BOX16_WIDEST`, with 16-bit column sums: the same
/// bytes into `first` and `second`. `pairs` is scratch of 8·`width` lanes. Only where `bd_vector_kernels_available()`.
void bd_box16_write_two_rows_v3(
    uint16_t *columns, const uint8_t *const *rows, ptrdiff_t width, ptrdiff_t half, uint32_t area, uint16_t *pairs,
    uint8_t *first, uint8_t *second);

/// The premultiplication of `ImageEffectsPlan` (`Renderer.render(_:imageEffects:mask:)`): `count` straight RGBA8
/// pixels, each colour ⌊(c · a + 127) / 255⌋, into `out`. Only where `bd_vector_kernels_available()`.
void bd_premultiply_row_v3(const uint8_t *in, ptrdiff_t count, uint8_t *out);

/// The fixed point of `bd_image_effects_composite_row_v3`'s tint lines (`TintFill8.fractionBits`).
#define BD_TINT_FRACTION_BITS 22

/// One row of `ImageEffectsPlan`'s composite (`Renderer.render(_:imageEffects:mask:)`): `width` straight pixels of
/// the source (the frame's row), premultiplied as `bd_premultiply_row_v3` does; the effect over them (`effect` NULL: no blur),
/// first through the saturation matrix as `SaturationPass` computes it (`saturationEntries`: its nine entries,
/// inputs R, G, B each a row of outputs R, G, B; NULL: none), through the coverage of `mask` (NULL: full); the tint
/// over each lane v as min(255, (v · slope + offset) >> BD_TINT_FRACTION_BITS), `tintLines` the four lanes' slope
/// and offset (`TintFill8.lines`); then unpremultiplied into `out` (straight RGBA8). Only where
/// `bd_vector_kernels_available()`.
void bd_image_effects_composite_row_v3(
    const uint8_t *source, const uint8_t *effect, const int32_t *saturationEntries, const uint8_t *mask,
    const uint32_t *tintLines, ptrdiff_t width, uint8_t *out);

#ifdef __cplusplus
}
#endif

#endif
