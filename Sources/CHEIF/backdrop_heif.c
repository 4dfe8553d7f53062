// backdrop_heif.c — the primary image of a HEIF file through libheif's C API, sizes checked before decoding.
//
// libheif is loaded on first use (dlopen), not linked: with the codecs it links (libde265, libx265, libdav1d, libaom,
// libnuma) it cost every `backdrop` process about 3.5 ms at start, relocations and libde265's static initialisers,
// though only HEIF inputs use it (docs/performance.md, "Process start").
#include "backdrop_heif.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libheif/heif.h>

// Every libheif function this file calls. Each is resolved by name and typed from libheif's own prototype, so a call
// that does not match the header is a compile error; a call to a function missing here is a link error (nothing
// links libheif).
#define BD_HEIF_FUNCTIONS(X)                                                                                           \
    X(heif_context_alloc)                                                                                              \
    X(heif_context_free)                                                                                               \
    X(heif_context_set_maximum_image_size_limit)                                                                       \
    X(heif_context_read_from_memory_without_copy)                                                                      \
    X(heif_context_get_primary_image_handle)                                                                           \
    X(heif_image_handle_release)                                                                                       \
    X(heif_image_handle_get_width)                                                                                     \
    X(heif_image_handle_get_height)                                                                                    \
    X(heif_image_handle_get_ispe_width)                                                                                \
    X(heif_image_handle_get_ispe_height)                                                                               \
    X(heif_image_handle_has_alpha_channel)                                                                             \
    X(heif_image_handle_get_color_profile_type)                                                                        \
    X(heif_image_handle_get_raw_color_profile_size)                                                                    \
    X(heif_image_handle_get_raw_color_profile)                                                                         \
    X(heif_image_handle_get_nclx_color_profile)                                                                        \
    X(heif_nclx_color_profile_free)                                                                                    \
    X(heif_decoding_options_alloc)                                                                                     \
    X(heif_decoding_options_free)                                                                                      \
    X(heif_decode_image)                                                                                               \
    X(heif_image_get_plane_readonly)                                                                                   \
    X(heif_image_get_width)                                                                                            \
    X(heif_image_get_height)                                                                                           \
    X(heif_image_get_bits_per_pixel_range)                                                                             \
    X(heif_image_release)

typedef struct {
#define BD_HEIF_FIELD(name) __typeof__(&name) name;
    BD_HEIF_FUNCTIONS(BD_HEIF_FIELD)
#undef BD_HEIF_FIELD
} bd_heif_functions;

// Written once, under libheif_once, before any reader exists; only read afterwards.
static bd_heif_functions libheif;
static int libheif_loaded;
static char libheif_error[512];
static pthread_once_t libheif_once = PTHREAD_ONCE_INIT;

static void bd_copy(char *error, size_t error_size, const char *message) {
    if (error != NULL && error_size > 0) snprintf(error, error_size, "%s", message);
}

// Opens `soname` and resolves every function into `functions`. A library once opened stays open (it is never
// dlclose'd: libheif registers its codecs in static state).
static int bd_heif_resolve(const char *soname, bd_heif_functions *functions, char *error, size_t error_size) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(error, error_size,
                 "HEIF decoding needs libheif, which could not be loaded (%s); install Debian's libheif1 "
                 "(scripts/install-deps)",
                 reason != NULL ? reason : soname);
        for (char *p = error; *p != 0; p++) {
            if (*p == '\n' || *p == '\r') *p = ' ';
        }
        return -1;
    }
#define BD_HEIF_RESOLVE(name)                                                                                          \
    {                                                                                                                  \
        void *symbol = dlsym(library, #name);                                                                          \
        if (symbol == NULL) {                                                                                          \
            snprintf(error, error_size,                                                                                \
                     "HEIF decoding needs a newer libheif: %s has no " #name "; install Debian's libheif1 "            \
                     "(scripts/install-deps)",                                                                         \
                     soname);                                                                                          \
            return -1;                                                                                                 \
        }                                                                                                              \
        functions->name = (__typeof__(functions->name))symbol;                                                         \
    }
    BD_HEIF_FUNCTIONS(BD_HEIF_RESOLVE)
#undef BD_HEIF_RESOLVE
    return 0;
}

static void bd_heif_load(void) {
    libheif_loaded = bd_heif_resolve(BD_HEIF_LIBRARY, &libheif, libheif_error, sizeof libheif_error) == 0;
}

int bd_heif_library_check(const char *soname, char *error, size_t error_size) {
    bd_heif_functions functions;
    return bd_heif_resolve(soname, &functions, error, error_size);
}

struct bd_heif_reader {
    struct heif_context *context;
    struct heif_image_handle *handle;
    bd_heif_header header;
    uint8_t *icc;
    size_t icc_size;
};

// libheif's own message, with what the project's errors say for the common cases.
static void bd_heif_message(struct heif_error failure, const char *what, char *error, size_t error_size) {
    const char *detail = failure.message != NULL && failure.message[0] != 0 ? failure.message : "unknown error";
    if (failure.code == heif_error_Invalid_input && failure.subcode == heif_suberror_End_of_data) {
        snprintf(error, error_size, "the HEIF file is truncated (libheif: %s)", detail);
    } else {
        snprintf(error, error_size, "%s (libheif: %s)", what, detail);
    }
    size_t length = 0;
    for (char *p = error; *p != 0; p++, length++) {
        if (*p == '\n' || *p == '\r') *p = ' ';
    }
    // libheif's messages may end in a space, inside the parenthesis.
    if (length >= 2 && error[length - 1] == ')' && error[length - 2] == ' ') {
        error[length - 2] = ')';
        error[length - 1] = 0;
    }
}

void bd_heif_reader_close(bd_heif_reader *reader) {
    if (reader == NULL) return;
    free(reader->icc);
    if (reader->handle != NULL) libheif.heif_image_handle_release(reader->handle);
    if (reader->context != NULL) libheif.heif_context_free(reader->context);
    free(reader);
}

bd_heif_reader *bd_heif_reader_open(const uint8_t *data, size_t size, uint32_t max_side, bd_heif_header *header,
                                    char *error, size_t error_size) {
    memset(header, 0, sizeof *header);
    pthread_once(&libheif_once, bd_heif_load);
    if (!libheif_loaded) {
        bd_copy(error, error_size, libheif_error);
        return NULL;
    }
    bd_heif_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) {
        bd_copy(error, error_size, "out of memory");
        return NULL;
    }
    reader->context = libheif.heif_context_alloc();
    if (reader->context == NULL) {
        bd_copy(error, error_size, "out of memory");
        bd_heif_reader_close(reader);
        return NULL;
    }
    libheif.heif_context_set_maximum_image_size_limit(reader->context, max_side > 0x7fffffffu ? 0x7fffffff : (int)max_side);
    struct heif_error failure = libheif.heif_context_read_from_memory_without_copy(reader->context, data, size, NULL);
    if (failure.code == heif_error_Ok) failure = libheif.heif_context_get_primary_image_handle(reader->context, &reader->handle);
    if (failure.code != heif_error_Ok) {
        bd_heif_message(failure, "the HEIF file is corrupt", error, error_size);
        bd_heif_reader_close(reader);
        return NULL;
    }
    int width = libheif.heif_image_handle_get_width(reader->handle), height = libheif.heif_image_handle_get_height(reader->handle);
    int coded_width = libheif.heif_image_handle_get_ispe_width(reader->handle);
    int coded_height = libheif.heif_image_handle_get_ispe_height(reader->handle);
    if (width <= 0 || height <= 0 || coded_width <= 0 || coded_height <= 0) {
        bd_copy(error, error_size, "the HEIF file declares no image size (no ispe box)");
        bd_heif_reader_close(reader);
        return NULL;
    }
    header->width = (uint32_t)width;
    header->height = (uint32_t)height;
    header->coded_width = (uint32_t)coded_width;
    header->coded_height = (uint32_t)coded_height;
    header->has_alpha = libheif.heif_image_handle_has_alpha_channel(reader->handle) != 0;
    reader->header = *header;
    enum heif_color_profile_type type = libheif.heif_image_handle_get_color_profile_type(reader->handle);
    size_t icc_size = libheif.heif_image_handle_get_raw_color_profile_size(reader->handle);
    if ((type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC) && icc_size > 0 &&
        icc_size <= size) {
        reader->icc = malloc(icc_size);
        if (reader->icc != NULL &&
            libheif.heif_image_handle_get_raw_color_profile(reader->handle, reader->icc).code == heif_error_Ok) {
            reader->icc_size = icc_size;
        } else {
            free(reader->icc);
            reader->icc = NULL;
        }
    }
    return reader;
}

int bd_heif_reader_read(bd_heif_reader *reader, uint8_t *rgba, char *error, size_t error_size) {
    struct heif_decoding_options *options = libheif.heif_decoding_options_alloc();
    if (options == NULL) {
        bd_copy(error, error_size, "out of memory");
        return -1;
    }
    options->convert_hdr_to_8bit = 1;
    // libde265 conceals damaged data and goes on; strict decoding makes its warnings errors, so a corrupt stream is
    // refused rather than rendered as grey blocks.
    options->strict_decoding = 1;
    struct heif_image *image = NULL;
    struct heif_error failure =
        libheif.heif_decode_image(reader->handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options);
    libheif.heif_decoding_options_free(options);
    if (failure.code != heif_error_Ok) {
        bd_heif_message(failure, "the HEIF image data is corrupt", error, error_size);
        return -1;
    }
    uint32_t width = reader->header.width, height = reader->header.height;
    int stride = 0;
    const uint8_t *plane = libheif.heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    // A stream that decodes to another size than the boxes declare (a header that lies) is refused: the buffer was
    // sized from the boxes.
    if (plane == NULL || libheif.heif_image_get_width(image, heif_channel_interleaved) != (int)width ||
        libheif.heif_image_get_height(image, heif_channel_interleaved) != (int)height ||
        libheif.heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved) != 8 || stride < (int)width * 4) {
        snprintf(error, error_size, "the HEIF image data decodes to another size than its header's %ux%u", width,
                 height);
        libheif.heif_image_release(image);
        return -1;
    }
    for (uint32_t y = 0; y < height; y++) {
        memcpy(rgba + (size_t)y * width * 4, plane + (size_t)y * (size_t)stride, (size_t)width * 4);
    }
    libheif.heif_image_release(image);
    return 0;
}

const uint8_t *bd_heif_reader_icc_profile(bd_heif_reader *reader, size_t *size) {
    *size = reader->icc_size;
    return reader->icc;
}

int bd_heif_reader_nclx(bd_heif_reader *reader, bd_heif_nclx *nclx) {
    struct heif_color_profile_nclx *profile = NULL;
    if (libheif.heif_image_handle_get_nclx_color_profile(reader->handle, &profile).code != heif_error_Ok || profile == NULL) {
        return 0;
    }
    const float values[8] = {profile->color_primary_red_x,   profile->color_primary_red_y,
                             profile->color_primary_green_x, profile->color_primary_green_y,
                             profile->color_primary_blue_x,  profile->color_primary_blue_y,
                             profile->color_primary_white_x, profile->color_primary_white_y};
    for (int i = 0; i < 8; i++) nclx->primaries[i] = values[i];
    nclx->color_primaries = (int)profile->color_primaries;
    nclx->transfer_characteristics = (int)profile->transfer_characteristics;
    libheif.heif_nclx_color_profile_free(profile);
    return 1;
}
