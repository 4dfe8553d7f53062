// backdrop_webp.c — libwebp's simple API, with the header read before any buffer is allocated.
#include "backdrop_webp.h"

#include <stdio.h>
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

// The still picture `image` in an extended file with an ICCP chunk (libwebp's mux API); NULL when it fails, with
// libwebp's reason in `error`.
static uint8_t *bd_webp_with_profile(const uint8_t *image, size_t image_size, const uint8_t *icc, size_t icc_size,
                                     size_t *size, WebPMuxError *error) {
    WebPMux *mux = WebPMuxNew();
    if (mux == NULL) {
        *error = WEBP_MUX_MEMORY_ERROR;
        return NULL;
    }
    WebPData picture = {image, image_size}, profile = {icc, icc_size}, assembled = {NULL, 0};
    uint8_t *output = NULL;
    *error = WebPMuxSetImage(mux, &picture, 0);
    if (*error == WEBP_MUX_OK) *error = WebPMuxSetChunk(mux, "ICCP", &profile, 0);
    if (*error == WEBP_MUX_OK) *error = WebPMuxAssemble(mux, &assembled);
    if (*error == WEBP_MUX_OK) {
        output = (uint8_t *)assembled.bytes;
        *size = assembled.size;
    } else {
        WebPDataClear(&assembled);
    }
    WebPMuxDelete(mux);
    return output;
}

const char *bd_webp_encoding_error(int code) {
    switch (code) {
    case VP8_ENC_OK: return "libwebp failed without giving a reason";
    case VP8_ENC_ERROR_OUT_OF_MEMORY: return "out of memory";
    case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return "out of memory while writing the bitstream";
    case VP8_ENC_ERROR_NULL_PARAMETER: return "a parameter is missing";
    case VP8_ENC_ERROR_INVALID_CONFIGURATION: return "the encoder's configuration is invalid";
    case VP8_ENC_ERROR_BAD_DIMENSION: return "bad dimension: WebP holds 1 to 16383 pixels a side";
    case VP8_ENC_ERROR_PARTITION0_OVERFLOW: return "partition 0 is over its 512 KiB size limit";
    case VP8_ENC_ERROR_PARTITION_OVERFLOW: return "a partition is over its 16 MiB size limit";
    case VP8_ENC_ERROR_BAD_WRITE: return "writing the encoded bytes failed";
    case VP8_ENC_ERROR_FILE_TOO_BIG: return "the file would be over WebP's 4 GiB size limit";
    case VP8_ENC_ERROR_USER_ABORT: return "the encoding was aborted";
    default: return "libwebp failed with an unknown error";
    }
}

// libwebp's one-call encoding (WebPEncodeRGBA, WebPEncodeLosslessRGBA: the default preset at `quality`, lossless at
// 70) made with the advanced API, which tells why it failed.
uint8_t *bd_webp_encode(const uint8_t *rgba, uint32_t width, uint32_t height, int quality, const uint8_t *icc,
                        size_t icc_size, size_t *size, char *error, size_t error_size) {
    *size = 0;
    // Refused here, before libwebp imports (allocates) a picture it would refuse later.
    if (width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION) {
        snprintf(error, error_size, "WebP holds at most %d×%d pixels (this is %u×%u)", WEBP_MAX_DIMENSION,
                 WEBP_MAX_DIMENSION, width, height);
        return NULL;
    }
    const int lossless = quality >= 100;
    WebPConfig config;
    WebPPicture picture;
    WebPMemoryWriter writer;
    if (!WebPConfigPreset(&config, WEBP_PRESET_DEFAULT, lossless ? 70.0f : (float)quality) ||
        !WebPPictureInit(&picture)) {
        snprintf(error, error_size, "libwebp does not match the headers it was built with");
        return NULL;
    }
    config.lossless = lossless;
    picture.use_argb = lossless;
    picture.width = (int)width;
    picture.height = (int)height;
    picture.writer = WebPMemoryWrite;
    picture.custom_ptr = &writer;
    WebPMemoryWriterInit(&writer);
    int ok = WebPPictureImportRGBA(&picture, rgba, (int)width * 4) && WebPEncode(&config, &picture);
    const WebPEncodingError code = picture.error_code;
    WebPPictureFree(&picture);
    if (!ok) {
        WebPMemoryWriterClear(&writer);
        snprintf(error, error_size, "%s", bd_webp_encoding_error(code));
        return NULL;
    }
    *size = writer.size;
    if (icc == NULL || icc_size == 0) return writer.mem;
    WebPMuxError mux = WEBP_MUX_OK;
    uint8_t *tagged = bd_webp_with_profile(writer.mem, writer.size, icc, icc_size, size, &mux);
    WebPMemoryWriterClear(&writer);
    if (tagged == NULL) {
        snprintf(error, error_size, "%s",
                 mux == WEBP_MUX_MEMORY_ERROR ? "out of memory while adding the ICC profile"
                                              : "libwebp's mux refused the ICC profile");
    }
    return tagged;
}

void bd_webp_free(void *pointer) { WebPFree(pointer); }
