// backdrop_icc.h — an embedded ICC profile's colours converted to sRGB by Little CMS (Debian liblcms2-dev).
#ifndef BACKDROP_ICC_H
#define BACKDROP_ICC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Converts `pixels` RGBA8 pixels in place from the RGB colour space `profile` describes to sRGB (lcms2's built-in
/// sRGB profile), relative colorimetric intent, alpha copied untouched.
/// Returns 1 when converted; 2 when the profile is sRGB's in effect (its conversion moves no sample of a 9×9×9
/// grid and of the grey ramp by more than one level: an sRGB profile other than Little CMS's own); 0 when the
/// profile cannot be read, -1 when it is not an RGB profile (a grey JPEG's, whose samples libjpeg has already made
/// RGB): the pixels are untouched unless 1.
int bd_icc_convert_to_srgb(const uint8_t *profile, size_t profile_size, uint8_t *rgba, size_t pixels);

/// bd_icc_convert_to_srgb for 16-bit samples (RGBA16 in host order; the sRGB test's tolerance is 257, one 8-bit
/// level).
int bd_icc_convert_to_srgb_16(const uint8_t *profile, size_t profile_size, uint16_t *rgba, size_t pixels);

/// Whether Little CMS reads `profile` as an RGB profile a transform can be made from (what `--color-space keep`
/// writes into an output): 1 when it does, -1 when it reads a profile of another colour space (grey, CMYK), 0 when
/// it cannot read it (as bd_icc_convert_to_srgb's 0).
int bd_icc_check_rgb(const uint8_t *profile, size_t profile_size);

/// An ICC profile (v4, matrix and curves) for the colour space the ITU-T H.273 code points name (a HEIF nclx `colr`
/// box, a PNG cICP chunk): `primaries` 1 (BT.709/sRGB), 2 (unspecified, taken as 1), 4–9, 11 (DCI-P3), 12 (Display
/// P3), 22 (EBU 3213) and `transfer` 1, 6, 14, 15 (BT.709's, taken as sRGB's curve), 2 (unspecified, taken as 13), 4
/// (gamma 2.2), 5 (gamma 2.8), 8 (linear), 13 (sRGB).
/// Returns 1 with `*profile` a buffer for bd_icc_free and its size in `*size`; 0 when the space is sRGB's (primaries
/// 1 or 2 with an sRGB curve: nothing to convert); -1 when a code is not one of those (PQ, HLG, XYZ…).
int bd_icc_profile_from_h273(int primaries, int transfer, uint8_t **profile, size_t *size);

/// An ICC profile (v4, matrix and curves) for a PNG's cHRM chromaticities (white x, y, red x, y, green x, y, blue
/// x, y) with its gAMA `file_gamma` (a power law of exponent 1 / file_gamma), or the sRGB curve when `file_gamma` is
/// 0. Returns 1 with `*profile` for bd_icc_free; -1 when a value is out of (0, 1) or the profile cannot be made.
int bd_icc_profile_from_chromaticities(const double chrm[8], double file_gamma, uint8_t **profile, size_t *size);

/// The two makers' profiles are dated 2000-01-01 00:00:00 (not the time of the run): the same codes or chunks give
/// the same bytes at any time.
///
/// Frees a profile bd_icc_profile_from_h273 or bd_icc_profile_from_chromaticities returned.
void bd_icc_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
