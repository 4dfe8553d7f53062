// backdrop_heif.c — the primary image of a HEIF file through libheif's C API, sizes checked before decoding.
//
// libheif is loaded on first use (dlopen), not linked: with the codecs it links (libde265, libx265, libdav1d, libaom,
// libnuma) it cost every `backdrop` process about 3.5 ms at start, relocations and libde265's static initialisers,
// though only HEIF inputs use it (docs/performance.md, "Process start").
#include "backdrop_heif.h"

#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
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

// ---------------------------------------------------------------------------------------------------------------------
// The plan: what the file's own boxes say libheif will make of the primary image, read before libheif sees the file.
//
// libheif 1.15 sizes a grid's or an overlay's canvas from its descriptor and decodes every input before comparing
// anything with `ispe`, and applies every `irot` it finds; the pixel budget is checked here, on what each image will
// produce, before any of that work. A small parser of the ISOBMFF boxes (ftyp, meta: pitm, iinf/infe, iloc, idat,
// iref, iprp/ipco/ipma), every count bounded.

enum {
    BD_HEIF_MAX_ITEMS = 4096,             // items in the file (an iPhone's 48 MP photo has about 250)
    BD_HEIF_MAX_PROPERTIES = 4096,        // boxes in ipco
    BD_HEIF_MAX_ASSOCIATIONS = 32,        // properties associated with one item (cameras write 4 to 6)
    BD_HEIF_MAX_REFERENCES = 65536,       // item references in iref, all types
    BD_HEIF_MAX_DECODED = 1024,           // coded images (tiles, inputs, alpha) one picture decodes
    BD_HEIF_MAX_DEPTH = 4,                // derived images of derived images (iden of a grid: 2)
};

typedef struct {
    uint32_t id;
    uint32_t type; // fourcc
    int hidden;
    uint32_t first_association, associations;
    int construction; // iloc construction method: 0 file, 1 idat; -1 without an iloc entry
    uint64_t offset, length; // the first extent, base offset added
} bd_heif_item;

typedef struct {
    uint32_t type; // fourcc
    size_t offset, size; // the box's body in the file, after its header
} bd_heif_property;

typedef struct {
    uint32_t type, from, to;
} bd_heif_reference;

typedef struct {
    const uint8_t *data;
    size_t size;
    bd_heif_item *items;
    uint32_t item_count;
    bd_heif_property *properties;
    uint32_t property_count;
    uint16_t *associations; // property index (1-based; 0 none) per association, items' ranges into it
    uint32_t association_count, association_capacity;
    bd_heif_reference *references;
    uint32_t reference_count;
    uint32_t primary;
    size_t idat_offset, idat_size;
    int has_idat;
    uint64_t max_pixels;
    uint64_t work, largest;
    uint32_t decoded;
    char *error;
    size_t error_size;
} bd_heif_parser;

#define BD_FOURCC(a, b, c, d) (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (uint32_t)(d))

static uint32_t bd_be(const uint8_t *p, int bytes) {
    uint32_t value = 0;
    for (int i = 0; i < bytes; i++) value = (value << 8) | p[i];
    return value;
}

static uint64_t bd_be64(const uint8_t *p, int bytes) {
    uint64_t value = 0;
    for (int i = 0; i < bytes; i++) value = (value << 8) | p[i];
    return value;
}

static void bd_fourcc_text(uint32_t type, char text[5]) {
    for (int i = 0; i < 4; i++) {
        char c = (char)(type >> (24 - 8 * i));
        text[i] = c >= 0x20 && c < 0x7f ? c : '?';
    }
    text[4] = 0;
}

static int bd_fail(bd_heif_parser *parser, const char *format, ...) __attribute__((format(printf, 2, 3)));
static int bd_fail(bd_heif_parser *parser, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(parser->error, parser->error_size, format, arguments);
    va_end(arguments);
    return -1;
}

// The box at `*offset` inside [.., end): its type and body. Returns 0, 1 at the end, or -1 (a box past its parent).
static int bd_box(bd_heif_parser *parser, size_t *offset, size_t end, uint32_t *type, size_t *body, size_t *body_end) {
    if (*offset >= end) return 1;
    if (end - *offset < 8) return bd_fail(parser, "the HEIF file is truncated (a box header at byte %zu)", *offset);
    const uint8_t *p = parser->data + *offset;
    uint64_t size = bd_be(p, 4);
    size_t header = 8;
    *type = bd_be(p + 4, 4);
    if (size == 1) {
        if (end - *offset < 16) return bd_fail(parser, "the HEIF file is truncated (a box header at byte %zu)", *offset);
        size = bd_be64(p + 8, 8);
        header = 16;
    } else if (size == 0) {
        size = end - *offset;
    }
    if (size < header || size > end - *offset) {
        char text[5];
        bd_fourcc_text(*type, text);
        return bd_fail(parser, "the HEIF file is truncated (its '%s' box at byte %zu ends past its container)", text,
                       *offset);
    }
    *body = *offset + header;
    *body_end = *offset + (size_t)size;
    *offset = *body_end;
    return 0;
}

static int bd_need(bd_heif_parser *parser, size_t at, size_t bytes, size_t end, const char *box) {
    if (at > end || end - at < bytes) return bd_fail(parser, "the HEIF file's '%s' box is truncated", box);
    return 0;
}

static bd_heif_item *bd_item(bd_heif_parser *parser, uint32_t id) {
    for (uint32_t i = 0; i < parser->item_count; i++) {
        if (parser->items[i].id == id) return &parser->items[i];
    }
    return NULL;
}

static int bd_parse_iinf(bd_heif_parser *parser, size_t at, size_t end) {
    if (bd_need(parser, at, 4, end, "iinf") != 0) return -1;
    int version = parser->data[at];
    at += version == 0 ? 6 : 8;
    uint32_t type;
    size_t body, body_end;
    int status;
    while ((status = bd_box(parser, &at, end, &type, &body, &body_end)) == 0) {
        if (type != BD_FOURCC('i', 'n', 'f', 'e')) continue;
        if (bd_need(parser, body, 4, body_end, "infe") != 0) return -1;
        int infe_version = parser->data[body];
        if (infe_version < 2) continue; // no item type: not an image
        int id_bytes = infe_version == 2 ? 2 : 4;
        if (bd_need(parser, body + 4, (size_t)id_bytes + 6, body_end, "infe") != 0) return -1;
        if (parser->item_count == BD_HEIF_MAX_ITEMS) {
            return bd_fail(parser, "the HEIF file has more than %d items", BD_HEIF_MAX_ITEMS);
        }
        uint32_t id = bd_be(parser->data + body + 4, id_bytes);
        if (bd_item(parser, id) != NULL) return bd_fail(parser, "the HEIF file declares item %u twice", id);
        bd_heif_item *item = &parser->items[parser->item_count++];
        memset(item, 0, sizeof *item);
        item->id = id;
        item->type = bd_be(parser->data + body + 4 + id_bytes + 2, 4);
        item->hidden = (parser->data[body + 3] & 1) != 0;
        item->construction = -1;
    }
    return status < 0 ? -1 : 0;
}

static int bd_parse_iloc(bd_heif_parser *parser, size_t at, size_t end) {
    if (bd_need(parser, at, 8, end, "iloc") != 0) return -1;
    const uint8_t *p = parser->data;
    int version = p[at];
    int offset_size = p[at + 4] >> 4, length_size = p[at + 4] & 15, base_size = p[at + 5] >> 4;
    int index_size = version >= 1 ? p[at + 5] & 15 : 0;
    if ((offset_size != 0 && offset_size != 4 && offset_size != 8) ||
        (length_size != 0 && length_size != 4 && length_size != 8) || (base_size != 0 && base_size != 4 && base_size != 8) ||
        (index_size != 0 && index_size != 4 && index_size != 8) || version > 2) {
        return bd_fail(parser, "the HEIF file's 'iloc' box is malformed");
    }
    int id_bytes = version < 2 ? 2 : 4;
    at += 6;
    if (bd_need(parser, at, (size_t)id_bytes, end, "iloc") != 0) return -1;
    uint32_t count = bd_be(p + at, id_bytes);
    at += (size_t)id_bytes;
    for (uint32_t n = 0; n < count; n++) {
        size_t entry = (size_t)id_bytes + (version >= 1 ? 2 : 0) + 2 + (size_t)base_size + 2;
        if (bd_need(parser, at, entry, end, "iloc") != 0) return -1;
        uint32_t id = bd_be(p + at, id_bytes);
        at += (size_t)id_bytes;
        int construction = 0;
        if (version >= 1) {
            construction = p[at + 1] & 15;
            at += 2;
        }
        at += 2; // data reference index
        uint64_t base = bd_be64(p + at, base_size);
        at += (size_t)base_size;
        uint32_t extents = bd_be(p + at, 2);
        at += 2;
        size_t extent_size = (size_t)index_size + (size_t)offset_size + (size_t)length_size;
        if (extents > (end - at) / (extent_size > 0 ? extent_size : 1) + 1 ||
            bd_need(parser, at, extents * extent_size, end, "iloc") != 0) {
            return bd_fail(parser, "the HEIF file's 'iloc' box is truncated");
        }
        bd_heif_item *item = bd_item(parser, id);
        if (item != NULL && item->construction < 0 && extents >= 1) {
            item->construction = construction;
            item->offset = base + bd_be64(p + at + index_size, offset_size);
            item->length = bd_be64(p + at + index_size + offset_size, length_size);
        }
        at += extents * extent_size;
    }
    return 0;
}

static int bd_parse_iref(bd_heif_parser *parser, size_t at, size_t end) {
    if (bd_need(parser, at, 4, end, "iref") != 0) return -1;
    int id_bytes = parser->data[at] == 0 ? 2 : 4;
    at += 4;
    uint32_t type;
    size_t body, body_end;
    int status;
    while ((status = bd_box(parser, &at, end, &type, &body, &body_end)) == 0) {
        if (bd_need(parser, body, (size_t)id_bytes + 2, body_end, "iref") != 0) return -1;
        uint32_t from = bd_be(parser->data + body, id_bytes);
        uint32_t count = bd_be(parser->data + body + id_bytes, 2);
        size_t to = body + (size_t)id_bytes + 2;
        if (bd_need(parser, to, (size_t)count * (size_t)id_bytes, body_end, "iref") != 0) return -1;
        for (uint32_t n = 0; n < count; n++) {
            if (parser->reference_count == BD_HEIF_MAX_REFERENCES) {
                return bd_fail(parser, "the HEIF file has more than %d item references", BD_HEIF_MAX_REFERENCES);
            }
            parser->references[parser->reference_count++] =
                (bd_heif_reference){type, from, bd_be(parser->data + to + (size_t)n * (size_t)id_bytes, id_bytes)};
        }
    }
    return status < 0 ? -1 : 0;
}

static int bd_parse_ipma(bd_heif_parser *parser, size_t at, size_t end) {
    if (bd_need(parser, at, 8, end, "ipma") != 0) return -1;
    const uint8_t *p = parser->data;
    int version = p[at], wide = (p[at + 3] & 1) != 0;
    uint32_t count = bd_be(p + at + 4, 4);
    at += 8;
    int id_bytes = version < 1 ? 2 : 4;
    for (uint32_t n = 0; n < count; n++) {
        if (bd_need(parser, at, (size_t)id_bytes + 1, end, "ipma") != 0) return -1;
        uint32_t id = bd_be(p + at, id_bytes);
        uint32_t associations = p[at + id_bytes];
        at += (size_t)id_bytes + 1;
        size_t bytes = (size_t)associations * (wide ? 2 : 1);
        if (bd_need(parser, at, bytes, end, "ipma") != 0) return -1;
        bd_heif_item *item = bd_item(parser, id);
        if (item != NULL && item->associations == 0) {
            if (associations > BD_HEIF_MAX_ASSOCIATIONS) {
                return bd_fail(parser, "the HEIF item %u has %u properties, over the limit of %d", id, associations,
                               BD_HEIF_MAX_ASSOCIATIONS);
            }
            item->first_association = parser->association_count;
            item->associations = associations;
            for (uint32_t a = 0; a < associations; a++) {
                uint32_t index = wide ? bd_be(p + at + 2 * a, 2) & 0x7fff : p[at + a] & 0x7f;
                parser->associations[parser->association_count++] = (uint16_t)index;
            }
        }
        at += bytes;
    }
    return 0;
}

static int bd_parse_iprp(bd_heif_parser *parser, size_t at, size_t end) {
    uint32_t type;
    size_t body, body_end;
    int status;
    while ((status = bd_box(parser, &at, end, &type, &body, &body_end)) == 0) {
        if (type == BD_FOURCC('i', 'p', 'c', 'o') && parser->property_count == 0) {
            size_t property = body;
            uint32_t property_type;
            size_t property_body, property_end;
            while ((status = bd_box(parser, &property, body_end, &property_type, &property_body, &property_end)) == 0) {
                if (parser->property_count == BD_HEIF_MAX_PROPERTIES) {
                    return bd_fail(parser, "the HEIF file has more than %d item properties", BD_HEIF_MAX_PROPERTIES);
                }
                parser->properties[parser->property_count++] =
                    (bd_heif_property){property_type, property_body, property_end - property_body};
            }
            if (status < 0) return -1;
        } else if (type == BD_FOURCC('i', 'p', 'm', 'a')) {
            if (bd_parse_ipma(parser, body, body_end) != 0) return -1;
        }
    }
    return status < 0 ? -1 : 0;
}

static int bd_parse_meta(bd_heif_parser *parser, size_t at, size_t end) {
    if (bd_need(parser, at, 4, end, "meta") != 0) return -1;
    at += 4;
    // iinf first: iloc and ipma name its items.
    size_t found[6][2] = {{0}};
    const uint32_t wanted[6] = {BD_FOURCC('p', 'i', 't', 'm'), BD_FOURCC('i', 'i', 'n', 'f'), BD_FOURCC('i', 'l', 'o', 'c'),
                                BD_FOURCC('i', 'r', 'e', 'f'), BD_FOURCC('i', 'p', 'r', 'p'), BD_FOURCC('i', 'd', 'a', 't')};
    int seen[6] = {0};
    uint32_t type;
    size_t body, body_end;
    int status;
    while ((status = bd_box(parser, &at, end, &type, &body, &body_end)) == 0) {
        for (int i = 0; i < 6; i++) {
            if (type == wanted[i] && !seen[i]) {
                seen[i] = 1;
                found[i][0] = body;
                found[i][1] = body_end;
            }
        }
    }
    if (status < 0) return -1;
    if (!seen[0] || !seen[1]) return bd_fail(parser, "the HEIF file has no primary image (no pitm or iinf box)");
    if (bd_need(parser, found[0][0], 6, found[0][1], "pitm") != 0) return -1;
    parser->primary = bd_be(parser->data + found[0][0] + 4, parser->data[found[0][0]] == 0 ? 2 : 4);
    if (bd_parse_iinf(parser, found[1][0], found[1][1]) != 0) return -1;
    if (seen[2] && bd_parse_iloc(parser, found[2][0], found[2][1]) != 0) return -1;
    if (seen[3] && bd_parse_iref(parser, found[3][0], found[3][1]) != 0) return -1;
    if (seen[4] && bd_parse_iprp(parser, found[4][0], found[4][1]) != 0) return -1;
    if (seen[5]) {
        parser->has_idat = 1;
        parser->idat_offset = found[5][0];
        parser->idat_size = found[5][1] - found[5][0];
    }
    return 0;
}

// The item's data (a grid's or an overlay's descriptor), up to `wanted` bytes of its first extent; NULL when the
// extent lies outside the file or its idat.
static const uint8_t *bd_item_data(bd_heif_parser *parser, const bd_heif_item *item, size_t *size) {
    size_t limit = item->construction == 1 ? parser->idat_size : parser->size;
    size_t start = item->construction == 1 ? parser->idat_offset : 0;
    if (item->construction < 0 || item->construction > 1 || (item->construction == 1 && !parser->has_idat)) return NULL;
    if (item->offset > limit) return NULL;
    uint64_t length = item->length == 0 ? limit - item->offset : item->length;
    if (length > limit - item->offset) return NULL;
    *size = (size_t)length;
    return parser->data + start + item->offset;
}

static int bd_count_pixels(bd_heif_parser *parser, const bd_heif_item *item, const char *what, uint64_t width,
                           uint64_t height) {
    uint64_t pixels = width * height;
    if (width == 0 || height == 0) return bd_fail(parser, "the HEIF file declares no image size (item %u)", item->id);
    if (width > 0xffffffffu || height > 0xffffffffu || pixels > parser->max_pixels) {
        return bd_fail(parser,
                       "the HEIF %s (item %u) is %llu×%llu pixels, over the limit of %llu pixels", what, item->id,
                       (unsigned long long)width, (unsigned long long)height, (unsigned long long)parser->max_pixels);
    }
    if (pixels > parser->largest) parser->largest = pixels;
    parser->work += pixels;
    return 0;
}

// libheif 1.15's clap crop (Box_clap::left_rounded and the rest, then its clamping): the width or height kept.
static uint64_t bd_clap_extent(const uint8_t *p, uint64_t size, int vertical) {
    int32_t numerator = (int32_t)bd_be(p + (vertical ? 8 : 0), 4), denominator = (int32_t)bd_be(p + (vertical ? 12 : 4), 4);
    int32_t offset_numerator = (int32_t)bd_be(p + (vertical ? 24 : 16), 4);
    int32_t offset_denominator = (int32_t)bd_be(p + (vertical ? 28 : 20), 4);
    if (denominator <= 0 || offset_denominator <= 0) return 0;
    double extent = (double)numerator / denominator, offset = (double)offset_numerator / offset_denominator;
    double low = offset + ((double)size - 1) / 2 - (extent - 1) / 2;
    int64_t first = vertical ? (int64_t)floor(low + 0.5) : (int64_t)low;
    int64_t last = (int64_t)floor(extent - 1 + (double)first + 0.5);
    if (first < 0) first = 0;
    if (last >= (int64_t)size) last = (int64_t)size - 1;
    return last < first ? 0 : (uint64_t)(last - first + 1);
}

static int bd_plan_item(bd_heif_parser *parser, uint32_t id, int depth, uint64_t *width, uint64_t *height,
                        int *transposed);

// The item's inputs (its dimg references, in order) into `inputs`; returns their count or -1.
static int64_t bd_inputs(bd_heif_parser *parser, uint32_t id, uint32_t *inputs, uint32_t capacity) {
    uint32_t count = 0;
    for (uint32_t r = 0; r < parser->reference_count; r++) {
        const bd_heif_reference *reference = &parser->references[r];
        if (reference->type != BD_FOURCC('d', 'i', 'm', 'g') || reference->from != id) continue;
        if (count == capacity) {
            return bd_fail(parser, "the HEIF derived image (item %u) has more than %u inputs", id, capacity);
        }
        inputs[count++] = reference->to;
    }
    return count;
}

static int bd_plan_grid(bd_heif_parser *parser, const bd_heif_item *item, int depth, uint64_t *width,
                        uint64_t *height) {
    size_t size = 0;
    const uint8_t *data = bd_item_data(parser, item, &size);
    if (data == NULL || size < 8 || ((data[1] & 1) && size < 12)) {
        return bd_fail(parser, "the HEIF grid (item %u) has no readable descriptor", item->id);
    }
    uint32_t rows = data[2] + 1u, columns = data[3] + 1u;
    int wide = data[1] & 1;
    *width = bd_be(data + 4, wide ? 4 : 2);
    *height = bd_be(data + (wide ? 8 : 6), wide ? 4 : 2);
    if (rows * columns > BD_HEIF_MAX_DECODED) {
        return bd_fail(parser, "the HEIF grid (item %u) has %u×%u tiles, over the limit of %d", item->id, columns,
                       rows, BD_HEIF_MAX_DECODED);
    }
    if (bd_count_pixels(parser, item, "grid", *width, *height) != 0) return -1;
    uint32_t tiles[BD_HEIF_MAX_DECODED];
    int64_t count = bd_inputs(parser, item->id, tiles, BD_HEIF_MAX_DECODED);
    if (count < 0) return -1;
    if ((uint64_t)count != (uint64_t)rows * columns) {
        return bd_fail(parser, "the HEIF grid (item %u) has %u×%u tiles but %lld tile images", item->id, columns,
                       rows, (long long)count);
    }
    uint64_t tile_width = 0, tile_height = 0;
    for (int64_t t = 0; t < count; t++) {
        uint64_t w = 0, h = 0;
        int transposed = 0;
        if (bd_plan_item(parser, tiles[t], depth + 1, &w, &h, &transposed) != 0) return -1;
        if (t == 0) {
            tile_width = w;
            tile_height = h;
        } else if (w != tile_width || h != tile_height) {
            return bd_fail(parser, "the HEIF grid (item %u) has tiles of different sizes (%llu×%llu and %llu×%llu)",
                           item->id, (unsigned long long)tile_width, (unsigned long long)tile_height,
                           (unsigned long long)w, (unsigned long long)h);
        }
    }
    // The tiles cover the output, and no row or column of them lies wholly outside it.
    if (columns * tile_width < *width || rows * tile_height < *height || (columns - 1) * tile_width >= *width ||
        (rows - 1) * tile_height >= *height) {
        return bd_fail(parser, "the HEIF grid (item %u) of %u×%u tiles of %llu×%llu does not make its %llu×%llu output",
                       item->id, columns, rows, (unsigned long long)tile_width, (unsigned long long)tile_height,
                       (unsigned long long)*width, (unsigned long long)*height);
    }
    return 0;
}

static int bd_plan_overlay(bd_heif_parser *parser, const bd_heif_item *item, int depth, uint64_t *width,
                           uint64_t *height) {
    size_t size = 0;
    const uint8_t *data = bd_item_data(parser, item, &size);
    int wide = data != NULL && size >= 2 && (data[1] & 1);
    if (data == NULL || size < (size_t)(2 + 8 + (wide ? 8 : 4)) || data[0] != 0) {
        return bd_fail(parser, "the HEIF overlay (item %u) has no readable descriptor", item->id);
    }
    *width = bd_be(data + 10, wide ? 4 : 2);
    *height = bd_be(data + 10 + (wide ? 4 : 2), wide ? 4 : 2);
    if (bd_count_pixels(parser, item, "overlay", *width, *height) != 0) return -1;
    uint32_t inputs[BD_HEIF_MAX_DECODED];
    int64_t count = bd_inputs(parser, item->id, inputs, BD_HEIF_MAX_DECODED);
    if (count < 0) return -1;
    for (int64_t i = 0; i < count; i++) {
        uint64_t w = 0, h = 0;
        int transposed = 0;
        if (bd_plan_item(parser, inputs[i], depth + 1, &w, &h, &transposed) != 0) return -1;
    }
    return 0;
}

// The size item `id` comes out of libheif at, its transformations applied, with the pixels of every image made on the
// way added to parser->work. `transposed` is set when the size came from an `ispe` a quarter turn makes the other
// way round (a coded image with an odd number of quarter turns): writers disagree on which size `ispe` holds.
static int bd_plan_item(bd_heif_parser *parser, uint32_t id, int depth, uint64_t *width, uint64_t *height,
                        int *transposed) {
    const bd_heif_item *item = bd_item(parser, id);
    if (item == NULL) return bd_fail(parser, "the HEIF file references item %u, which it does not declare", id);
    if (depth > BD_HEIF_MAX_DEPTH) {
        return bd_fail(parser, "the HEIF derived images nest more than %d deep (item %u)", BD_HEIF_MAX_DEPTH, id);
    }
    // The transformations, in the order libheif applies them (ipma's), at most one of each (ISO/IEC 23008-12).
    const bd_heif_property *ispe = NULL, *transforms[3];
    int transform_count = 0, seen_irot = 0, seen_imir = 0, seen_clap = 0;
    for (uint32_t a = 0; a < item->associations; a++) {
        uint16_t index = parser->associations[item->first_association + a];
        if (index == 0) continue;
        if (index > parser->property_count) {
            return bd_fail(parser, "the HEIF item %u is associated with property %u, which ipco does not hold", id,
                           index);
        }
        const bd_heif_property *property = &parser->properties[index - 1];
        int *seen = property->type == BD_FOURCC('i', 'r', 'o', 't')   ? &seen_irot
                    : property->type == BD_FOURCC('i', 'm', 'i', 'r') ? &seen_imir
                    : property->type == BD_FOURCC('c', 'l', 'a', 'p') ? &seen_clap
                                                                      : NULL;
        if (seen != NULL) {
            if ((*seen)++ != 0) {
                char text[5];
                bd_fourcc_text(property->type, text);
                return bd_fail(parser, "the HEIF item %u has more than one '%s' property (at most one is allowed)", id,
                               text);
            }
            size_t needed = property->type == BD_FOURCC('c', 'l', 'a', 'p') ? 32 : 1;
            if (property->size < needed) return bd_fail(parser, "the HEIF item %u has a truncated transformation", id);
            transforms[transform_count++] = property;
        } else if (property->type == BD_FOURCC('i', 's', 'p', 'e') && ispe == NULL) {
            if (property->size < 12) return bd_fail(parser, "the HEIF file's 'ispe' box is truncated");
            ispe = property;
        }
    }
    *transposed = 0;
    switch (item->type) {
    case BD_FOURCC('h', 'v', 'c', '1'):
    case BD_FOURCC('a', 'v', '0', '1'):
        if (ispe == NULL) return bd_fail(parser, "the HEIF file declares no image size (no ispe box for item %u)", id);
        if (++parser->decoded > BD_HEIF_MAX_DECODED) {
            return bd_fail(parser, "the HEIF picture decodes more than %d images (tiles and inputs)",
                           BD_HEIF_MAX_DECODED);
        }
        *width = bd_be(parser->data + ispe->offset + 4, 4);
        *height = bd_be(parser->data + ispe->offset + 8, 4);
        if (bd_count_pixels(parser, item, "image", *width, *height) != 0) return -1;
        break;
    case BD_FOURCC('g', 'r', 'i', 'd'):
        if (bd_plan_grid(parser, item, depth, width, height) != 0) return -1;
        break;
    case BD_FOURCC('i', 'o', 'v', 'l'):
        if (bd_plan_overlay(parser, item, depth, width, height) != 0) return -1;
        break;
    case BD_FOURCC('i', 'd', 'e', 'n'): {
        uint32_t input[2];
        int64_t count = bd_inputs(parser, id, input, 2);
        if (count != 1) return bd_fail(parser, "the HEIF derived image (item %u) has no single input", id);
        int inner = 0;
        if (bd_plan_item(parser, input[0], depth + 1, width, height, &inner) != 0) return -1;
        break;
    }
    default: {
        char text[5];
        bd_fourcc_text(item->type, text);
        return bd_fail(parser, "the HEIF item %u is of type '%s', which is not an image this decoder reads", id, text);
    }
    }
    int quarter_turns = 0;
    for (int t = 0; t < transform_count; t++) {
        const uint8_t *p = parser->data + transforms[t]->offset;
        if (transforms[t]->type == BD_FOURCC('i', 'r', 'o', 't')) {
            if ((p[0] & 3) % 2 == 1) {
                uint64_t swap = *width;
                *width = *height;
                *height = swap;
                quarter_turns++;
            }
        } else if (transforms[t]->type == BD_FOURCC('c', 'l', 'a', 'p')) {
            *width = bd_clap_extent(p, *width, 0);
            *height = bd_clap_extent(p, *height, 1);
            if (*width == 0 || *height == 0) return bd_fail(parser, "the HEIF item %u has an empty clean aperture", id);
        }
        if (bd_count_pixels(parser, item, "image", *width, *height) != 0) return -1; // the transformed copy
    }
    *transposed = (item->type == BD_FOURCC('h', 'v', 'c', '1') || item->type == BD_FOURCC('a', 'v', '0', '1')) &&
                  quarter_turns % 2 == 1;
    return 0;
}

// Whether the auxiliary item is an alpha plane (its auxC names one of the alpha URNs libheif attaches).
static int bd_is_alpha(bd_heif_parser *parser, const bd_heif_item *item) {
    static const char *const names[] = {"urn:mpeg:hevc:2015:auxid:1", "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha"};
    for (uint32_t a = 0; a < item->associations; a++) {
        uint16_t index = parser->associations[item->first_association + a];
        if (index == 0 || index > parser->property_count) continue;
        const bd_heif_property *property = &parser->properties[index - 1];
        if (property->type != BD_FOURCC('a', 'u', 'x', 'C') || property->size < 5) continue;
        const char *text = (const char *)parser->data + property->offset + 4;
        size_t length = strnlen(text, property->size - 4);
        for (size_t n = 0; n < 2; n++) {
            if (length == strlen(names[n]) && memcmp(text, names[n], length) == 0) return 1;
        }
    }
    return 0;
}

int bd_heif_plan_read(const uint8_t *data, size_t size, uint64_t max_pixels, bd_heif_plan *plan, char *error,
                      size_t error_size) {
    memset(plan, 0, sizeof *plan);
    bd_heif_parser parser = {.data = data, .size = size, .max_pixels = max_pixels, .error = error,
                             .error_size = error_size};
    parser.items = malloc(sizeof *parser.items * BD_HEIF_MAX_ITEMS);
    parser.properties = malloc(sizeof *parser.properties * BD_HEIF_MAX_PROPERTIES);
    parser.associations = malloc(sizeof *parser.associations * BD_HEIF_MAX_ITEMS * BD_HEIF_MAX_ASSOCIATIONS);
    parser.references = malloc(sizeof *parser.references * BD_HEIF_MAX_REFERENCES);
    int status = -1;
    if (parser.items == NULL || parser.properties == NULL || parser.associations == NULL || parser.references == NULL) {
        bd_copy(error, error_size, "out of memory");
        goto done;
    }
    size_t at = 0, body = 0, body_end = 0;
    uint32_t type = 0;
    int found = 0, box;
    while ((box = bd_box(&parser, &at, size, &type, &body, &body_end)) == 0) {
        if (type == BD_FOURCC('m', 'e', 't', 'a')) {
            found = 1;
            break;
        }
    }
    if (box < 0) goto done;
    if (!found) {
        bd_copy(error, error_size, "the HEIF file has no 'meta' box");
        goto done;
    }
    if (bd_parse_meta(&parser, body, body_end) != 0) goto done;
    uint64_t width = 0, height = 0;
    int transposed = 0;
    if (bd_plan_item(&parser, parser.primary, 0, &width, &height, &transposed) != 0) goto done;
    // The alpha planes libheif decodes with the primary image: its auxiliary images of an alpha type.
    for (uint32_t r = 0; r < parser.reference_count; r++) {
        const bd_heif_reference *reference = &parser.references[r];
        if (reference->type != BD_FOURCC('a', 'u', 'x', 'l') || reference->to != parser.primary) continue;
        const bd_heif_item *auxiliary = bd_item(&parser, reference->from);
        if (auxiliary == NULL || !bd_is_alpha(&parser, auxiliary)) continue;
        uint64_t alpha_width = 0, alpha_height = 0;
        int alpha_transposed = 0;
        if (bd_plan_item(&parser, reference->from, 1, &alpha_width, &alpha_height, &alpha_transposed) != 0) goto done;
    }
    if (bd_count_pixels(&parser, bd_item(&parser, parser.primary), "image", width, height) != 0) goto done;
    plan->width = (uint32_t)width;
    plan->height = (uint32_t)height;
    plan->transposed = transposed;
    plan->work_pixels = parser.work;
    plan->largest_pixels = parser.largest;
    plan->decoded_images = parser.decoded;
    status = 0;
done:
    free(parser.items);
    free(parser.properties);
    free(parser.associations);
    free(parser.references);
    return status;
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

bd_heif_reader *bd_heif_reader_open(const uint8_t *data, size_t size, uint64_t max_pixels, bd_heif_header *header,
                                    char *error, size_t error_size) {
    memset(header, 0, sizeof *header);
    pthread_once(&libheif_once, bd_heif_load);
    if (!libheif_loaded) {
        bd_copy(error, error_size, libheif_error);
        return NULL;
    }
    bd_heif_plan plan;
    if (bd_heif_plan_read(data, size, max_pixels, &plan, error, error_size) != 0) return NULL;
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
    // libheif's own limit is on each side; the plan has checked every image's pixels.
    libheif.heif_context_set_maximum_image_size_limit(reader->context,
                                                      max_pixels > 0x7fffffffu ? 0x7fffffff : (int)max_pixels);
    struct heif_error failure = libheif.heif_context_read_from_memory_without_copy(reader->context, data, size, NULL);
    if (failure.code == heif_error_Ok) failure = libheif.heif_context_get_primary_image_handle(reader->context, &reader->handle);
    if (failure.code != heif_error_Ok) {
        bd_heif_message(failure, "the HEIF file is corrupt", error, error_size);
        bd_heif_reader_close(reader);
        return NULL;
    }
    // The size is the plan's, from the boxes: libheif 1.15's handle swaps `ispe` for a quarter turn only when ipma
    // lists `ispe` before `irot`, and sizes a derived image from its `ispe`, not from what it makes.
    header->width = plan.width;
    header->height = plan.height;
    header->transposed = plan.transposed;
    header->work_pixels = plan.work_pixels;
    header->largest_pixels = plan.largest_pixels;
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
    int decoded_width = libheif.heif_image_get_width(image, heif_channel_interleaved);
    int decoded_height = libheif.heif_image_get_height(image, heif_channel_interleaved);
    // A writer that put the shown size in `ispe` (libheif 1.15's encoder does) decodes the other way round: the same
    // pixels, so the buffer fits; the header takes the decoded size.
    if (reader->header.transposed && decoded_width == (int)height && decoded_height == (int)width && width != height) {
        reader->header.width = height;
        reader->header.height = width;
        width = reader->header.width;
        height = reader->header.height;
    }
    // A stream that decodes to another size than the boxes declare (a header that lies) is refused: the buffer was
    // sized from the boxes.
    if (plane == NULL || decoded_width != (int)width || decoded_height != (int)height ||
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

void bd_heif_reader_size(const bd_heif_reader *reader, uint32_t *width, uint32_t *height) {
    *width = reader->header.width;
    *height = reader->header.height;
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
