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
/// Returns 1 when converted; 0 when the profile cannot be read, -1 when it is not an RGB profile (a grey JPEG's,
/// whose samples libjpeg has already made RGB): the pixels are then untouched.
int bd_icc_convert_to_srgb(const uint8_t *profile, size_t profile_size, uint8_t *rgba, size_t pixels);

#ifdef __cplusplus
}
#endif

#endif
