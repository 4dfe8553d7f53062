// backdrop_icc.c — one transform a picture, from its embedded profile to sRGB.
#include "backdrop_icc.h"

#include <lcms2.h>

int bd_icc_convert_to_srgb(const uint8_t *profile, size_t profile_size, uint8_t *rgba, size_t pixels) {
    if (profile == NULL || profile_size < 132 || profile_size > 0x7fffffffu) return 0;
    cmsHPROFILE input = cmsOpenProfileFromMem(profile, (cmsUInt32Number)profile_size);
    if (input == NULL) return 0;
    if (cmsGetColorSpace(input) != cmsSigRgbData) {
        cmsCloseProfile(input);
        return -1;
    }
    cmsHPROFILE srgb = cmsCreate_sRGBProfile();
    cmsHTRANSFORM transform = srgb == NULL ? NULL
        : cmsCreateTransform(input, TYPE_RGBA_8, srgb, TYPE_RGBA_8, INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_COPY_ALPHA);
    cmsCloseProfile(input);
    if (srgb != NULL) cmsCloseProfile(srgb);
    if (transform == NULL) return 0;
    // In rows of at most 2³¹ pixels: cmsDoTransform counts in 32 bits.
    const size_t step = (size_t)1 << 30;
    for (size_t done = 0; done < pixels; done += step) {
        size_t count = pixels - done < step ? pixels - done : step;
        cmsDoTransform(transform, rgba + done * 4, rgba + done * 4, (cmsUInt32Number)count);
    }
    cmsDeleteTransform(transform);
    return 1;
}
