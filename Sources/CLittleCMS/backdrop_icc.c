// backdrop_icc.c — one transform a picture, from its embedded profile to sRGB.
#include "backdrop_icc.h"

#include <lcms2.h>
#include <stdlib.h>
#include <string.h>

// Whether `transform` (unoptimised: see `bd_icc_convert`) moves no sample of a 9×9×9 grid of colours, nor of the
// grey ramp, by more than one level: such a profile (an sRGB profile other than Little CMS's own, e.g. HP's sRGB
// IEC61966-2.1) is taken as sRGB and the picture kept exactly, rather than every sample nudged by the two profiles'
// rounding.
static int bd_icc_is_srgb(cmsHTRANSFORM transform, int sixteen) {
    enum { grid = 9, count = grid * grid * grid + 256 };
    uint16_t input[count * 4], output[count * 4];
    size_t n = 0;
    for (int r = 0; r < grid; r++)
        for (int g = 0; g < grid; g++)
            for (int b = 0; b < grid; b++, n++) {
                const int levels[3] = {r * 255 / (grid - 1), g * 255 / (grid - 1), b * 255 / (grid - 1)};
                for (int c = 0; c < 3; c++) input[n * 4 + c] = (uint16_t)(sixteen ? levels[c] * 257 : levels[c]);
                input[n * 4 + 3] = 0;
            }
    for (int v = 0; v < 256; v++, n++) {
        for (int c = 0; c < 3; c++) input[n * 4 + c] = (uint16_t)(sixteen ? v * 257 : v);
        input[n * 4 + 3] = 0;
    }
    if (sixteen) {
        cmsDoTransform(transform, input, output, count);
    } else {
        uint8_t narrow[count * 4], converted[count * 4];
        for (size_t i = 0; i < count * 4; i++) narrow[i] = (uint8_t)input[i];
        cmsDoTransform(transform, narrow, converted, count);
        for (size_t i = 0; i < count * 4; i++) output[i] = converted[i];
    }
    const int tolerance = sixteen ? 257 : 1;
    for (size_t i = 0; i < count * 4; i++) {
        if (i % 4 != 3 && abs((int)output[i] - (int)input[i]) > tolerance) return 0;
    }
    return 1;
}

// The transform from `profile` to sRGB in `format`, or NULL with `*status` set: 0 for a profile Little CMS cannot
// read or build a transform from, -1 for one whose colour space is not RGB.
static cmsHTRANSFORM bd_icc_transform_to_srgb(
    const uint8_t *profile, size_t profile_size, cmsUInt32Number format, cmsUInt32Number flags, int *status) {
    *status = 0;
    if (profile == NULL || profile_size < 132 || profile_size > 0x7fffffffu) return NULL;
    cmsHPROFILE input = cmsOpenProfileFromMem(profile, (cmsUInt32Number)profile_size);
    if (input == NULL) return NULL;
    if (cmsGetColorSpace(input) != cmsSigRgbData) {
        cmsCloseProfile(input);
        *status = -1;
        return NULL;
    }
    cmsHPROFILE srgb = cmsCreate_sRGBProfile();
    cmsHTRANSFORM transform = srgb == NULL ? NULL
        : cmsCreateTransform(input, format, srgb, format, INTENT_RELATIVE_COLORIMETRIC, flags);
    cmsCloseProfile(input);
    if (srgb != NULL) cmsCloseProfile(srgb);
    return transform;
}

static int bd_icc_convert(const uint8_t *profile, size_t profile_size, void *rgba, size_t pixels, int sixteen) {
    cmsUInt32Number format = sixteen ? TYPE_RGBA_16 : TYPE_RGBA_8;
    // 16 bits unoptimised: Little CMS 2.14's optimised 16-bit matrix-shaper lifted colours clipped at 0 (out of
    // sRGB's gamut) by up to 6 levels of 8 bits against its own 8-bit and unoptimised results, which agree within 1.
    cmsUInt32Number flags = cmsFLAGS_COPY_ALPHA | (sixteen ? cmsFLAGS_NOOPTIMIZE : 0);
    int status;
    // Whether the profile is sRGB in effect is asked of an unoptimised transform: Little CMS optimises an 8-bit
    // transform by sampling its whole pipeline into a table, 2–10 ms for HP's sRGB profile against 0.6 ms unoptimised
    // (a C probe on this machine), and most pictures that carry a profile carry an sRGB one. Only a picture whose
    // colours move pays for the optimised 8-bit transform that converts it (16 bits run unoptimised anyway).
    cmsHTRANSFORM transform =
        bd_icc_transform_to_srgb(profile, profile_size, format, flags | cmsFLAGS_NOOPTIMIZE, &status);
    if (transform == NULL) return status;
    if (bd_icc_is_srgb(transform, sixteen)) {
        cmsDeleteTransform(transform);
        return 2;
    }
    if (!sixteen) {
        cmsDeleteTransform(transform);
        transform = bd_icc_transform_to_srgb(profile, profile_size, format, flags, &status);
        if (transform == NULL) return status;
    }
    // In rows of at most 2³⁰ pixels: cmsDoTransform counts in 32 bits.
    const size_t step = (size_t)1 << 30, bytes = sixteen ? 8 : 4;
    for (size_t done = 0; done < pixels; done += step) {
        size_t count = pixels - done < step ? pixels - done : step;
        uint8_t *at = (uint8_t *)rgba + done * bytes;
        cmsDoTransform(transform, at, at, (cmsUInt32Number)count);
    }
    cmsDeleteTransform(transform);
    return 1;
}

int bd_icc_convert_to_srgb(const uint8_t *profile, size_t profile_size, uint8_t *rgba, size_t pixels) {
    return bd_icc_convert(profile, profile_size, rgba, pixels, 0);
}

int bd_icc_convert_to_srgb_16(const uint8_t *profile, size_t profile_size, uint16_t *rgba, size_t pixels) {
    return bd_icc_convert(profile, profile_size, rgba, pixels, 1);
}

int bd_icc_check_rgb(const uint8_t *profile, size_t profile_size) {
    int status;
    cmsHTRANSFORM transform =
        bd_icc_transform_to_srgb(profile, profile_size, TYPE_RGBA_8, cmsFLAGS_COPY_ALPHA | cmsFLAGS_NOOPTIMIZE, &status);
    if (transform == NULL) return status;
    cmsDeleteTransform(transform);
    return 1;
}

// CIE xy of red, green, blue and white for the H.273 colour primaries codes (Table 2 of ITU-T H.273).
static int bd_h273_primaries(int code, cmsCIExyYTRIPLE *primaries, cmsCIExyY *white) {
    static const struct {
        int code;
        double xy[8];
    } table[] = {
        {1, {0.640, 0.330, 0.300, 0.600, 0.150, 0.060, 0.3127, 0.3290}},
        {4, {0.670, 0.330, 0.210, 0.710, 0.140, 0.080, 0.310, 0.316}},
        {5, {0.640, 0.330, 0.290, 0.600, 0.150, 0.060, 0.3127, 0.3290}},
        {6, {0.630, 0.340, 0.310, 0.595, 0.155, 0.070, 0.3127, 0.3290}},
        {7, {0.630, 0.340, 0.310, 0.595, 0.155, 0.070, 0.3127, 0.3290}},
        {8, {0.681, 0.319, 0.243, 0.692, 0.145, 0.049, 0.310, 0.316}},
        {9, {0.708, 0.292, 0.170, 0.797, 0.131, 0.046, 0.3127, 0.3290}},
        {11, {0.680, 0.320, 0.265, 0.690, 0.150, 0.060, 0.314, 0.351}},
        {12, {0.680, 0.320, 0.265, 0.690, 0.150, 0.060, 0.3127, 0.3290}},
        {22, {0.630, 0.340, 0.295, 0.605, 0.155, 0.077, 0.3127, 0.3290}},
    };
    if (code == 2) code = 1;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (table[i].code != code) continue;
        const double *xy = table[i].xy;
        *primaries = (cmsCIExyYTRIPLE){{xy[0], xy[1], 1}, {xy[2], xy[3], 1}, {xy[4], xy[5], 1}};
        *white = (cmsCIExyY){xy[6], xy[7], 1};
        return 1;
    }
    return 0;
}

// A matrix-and-curves profile (v4) of these primaries, white point and parametric curve (type 4), saved to memory.
static int bd_icc_make_profile(const cmsCIExyYTRIPLE *primaries, const cmsCIExyY *white, const double curve[5],
                               uint8_t **profile, size_t *size) {
    cmsToneCurve *tone = cmsBuildParametricToneCurve(NULL, 4, curve);
    if (tone == NULL) return -1;
    cmsToneCurve *curves[3] = {tone, tone, tone};
    cmsHPROFILE created = cmsCreateRGBProfile(white, primaries, curves);
    cmsFreeToneCurve(tone);
    if (created == NULL) return -1;
    cmsUInt32Number length = 0;
    int made = 0;
    if (cmsSaveProfileToMem(created, NULL, &length) && length > 0) {
        *profile = malloc(length);
        if (*profile != NULL && cmsSaveProfileToMem(created, *profile, &length) && length >= 36) {
            // Little CMS dates the header (bytes 24–35: year, month, day, hours, minutes, seconds) with the time of
            // the run; a fixed date, 2000-01-01 00:00:00, keeps an output carrying the profile the same bytes at any
            // time. (The profile ID, bytes 84–99, is left zero: not computed.)
            static const uint8_t date[12] = {0x07, 0xd0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0};
            memcpy(*profile + 24, date, sizeof date);
            *size = length;
            made = 1;
        } else {
            free(*profile);
            *profile = NULL;
        }
    }
    cmsCloseProfile(created);
    return made ? 1 : -1;
}

// Parametric curve type 4 (IEC 61966-2-1's form): Y = (aX + b)^g for X ≥ d, cX below.
static const double bd_srgb_curve[5] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};

int bd_icc_profile_from_h273(int primaries, int transfer, uint8_t **profile, size_t *size) {
    *profile = NULL;
    *size = 0;
    double power[5] = {1, 1, 0, 0, 0};
    const double *curve;
    int srgb_curve = 0;
    switch (transfer) {
        case 1: case 2: case 6: case 13: case 14: case 15: curve = bd_srgb_curve; srgb_curve = 1; break;
        case 4: power[0] = 2.2; curve = power; break;
        case 5: power[0] = 2.8; curve = power; break;
        case 8: curve = power; break;
        default: return -1;
    }
    cmsCIExyYTRIPLE xyY;
    cmsCIExyY white;
    if (!bd_h273_primaries(primaries, &xyY, &white)) return -1;
    if ((primaries == 1 || primaries == 2) && srgb_curve) return 0;
    return bd_icc_make_profile(&xyY, &white, curve, profile, size);
}

int bd_icc_profile_from_chromaticities(const double chrm[8], double file_gamma, uint8_t **profile, size_t *size) {
    *profile = NULL;
    *size = 0;
    for (int i = 0; i < 8; i++) {
        if (!(chrm[i] > 0 && chrm[i] < 1)) return -1;
    }
    if (!(file_gamma >= 0 && file_gamma < 100)) return -1;
    cmsCIExyYTRIPLE xyY = {{chrm[2], chrm[3], 1}, {chrm[4], chrm[5], 1}, {chrm[6], chrm[7], 1}};
    cmsCIExyY white = {chrm[0], chrm[1], 1};
    double power[5] = {file_gamma > 0 ? 1 / file_gamma : 1, 1, 0, 0, 0};
    return bd_icc_make_profile(&xyY, &white, file_gamma > 0 ? power : bd_srgb_curve, profile, size);
}

void bd_icc_free(void *pointer) { free(pointer); }
