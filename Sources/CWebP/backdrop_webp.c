// backdrop_webp.c — libwebp's simple API, with the header read before any buffer is allocated.
#include "backdrop_webp.h"

#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>
#include <webp/mux.h>

int bd_webp_size(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height) {
    WebPBitstreamFeatures features;
    if (WebPGetFeatures(data, size, &features) != VP8_STATUS_OK) return 0;
    if (features.has_animation) return -1;
    if (features.width <= 0 || features.height <= 0) return 0;
    *width = (uint32_t)features.width;
    *height = (uint32_t)features.height;
    return 1;
}

int bd_webp_decode(const uint8_t *data, size_t size, uint8_t *rgba, size_t rgba_size, uint32_t width) {
    return WebPDecodeRGBAInto(data, size, rgba, rgba_size, (int)width * 4) != NULL;
}

uint8_t *bd_webp_icc_profile(const uint8_t *data, size_t size, size_t *profile_size) {
    WebPData webp = {data, size};
    WebPDemuxer *demuxer = WebPDemux(&webp);
    if (demuxer == NULL) return NULL;
    uint8_t *profile = NULL;
    WebPChunkIterator chunk;
    if ((WebPDemuxGetI(demuxer, WEBP_FF_FORMAT_FLAGS) & ICCP_FLAG) && WebPDemuxGetChunk(demuxer, "ICCP", 1, &chunk)) {
        profile = WebPMalloc(chunk.chunk.size > 0 ? chunk.chunk.size : 1);
        if (profile != NULL) {
            memcpy(profile, chunk.chunk.bytes, chunk.chunk.size);
            *profile_size = chunk.chunk.size;
        }
        WebPDemuxReleaseChunkIterator(&chunk);
    }
    WebPDemuxDelete(demuxer);
    return profile;
}

// The still picture `image` in an extended file with an ICCP chunk (libwebp's mux API); NULL when it fails.
static uint8_t *bd_webp_with_profile(const uint8_t *image, size_t image_size, const uint8_t *icc, size_t icc_size,
                                     size_t *size) {
    WebPMux *mux = WebPMuxNew();
    if (mux == NULL) return NULL;
    WebPData picture = {image, image_size}, profile = {icc, icc_size}, assembled = {NULL, 0};
    uint8_t *output = NULL;
    if (WebPMuxSetImage(mux, &picture, 0) == WEBP_MUX_OK && WebPMuxSetChunk(mux, "ICCP", &profile, 0) == WEBP_MUX_OK &&
        WebPMuxAssemble(mux, &assembled) == WEBP_MUX_OK) {
        output = (uint8_t *)assembled.bytes;
        *size = assembled.size;
    } else {
        WebPDataClear(&assembled);
    }
    WebPMuxDelete(mux);
    return output;
}

uint8_t *bd_webp_encode(const uint8_t *rgba, uint32_t width, uint32_t height, int quality, const uint8_t *icc,
                        size_t icc_size, size_t *size) {
    uint8_t *output = NULL;
    if (width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION) return NULL;
    if (quality >= 100) {
        *size = WebPEncodeLosslessRGBA(rgba, (int)width, (int)height, (int)width * 4, &output);
    } else {
        *size = WebPEncodeRGBA(rgba, (int)width, (int)height, (int)width * 4, (float)quality, &output);
    }
    if (*size == 0) {
        WebPFree(output);
        return NULL;
    }
    if (icc == NULL || icc_size == 0) return output;
    uint8_t *tagged = bd_webp_with_profile(output, *size, icc, icc_size, size);
    WebPFree(output);
    return tagged;
}

void bd_webp_free(void *pointer) { WebPFree(pointer); }
