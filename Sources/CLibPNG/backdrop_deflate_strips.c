// backdrop_deflate_strips.c — see backdrop_deflate_strips.h.
//
// The walk over a deflate stream reads what RFC 1951 section 3.2 defines: block headers, stored blocks' lengths,
// fixed and dynamic Huffman codes (canonical, packed most significant bit first into a stream read least significant
// bit first), and every literal/length and distance code with its extra bits, up to each block's end-of-block code.
// It keeps no output. Its speed is one chain of dependent loads, a symbol each, so the tables are small enough for the
// first-level cache: codes up to 10 bits long are decoded by one look-up in a 1024-entry table, longer ones (up to
// 15 bits) through a second 32-entry table reached from the first; each entry holds the bits to skip, extra bits
// included, so that a length or distance costs one look-up. Bits are read from a 64-bit buffer refilled eight bytes
// at a time (the stream is followed by zero padding, so a refill never reads past its buffer).
#include "backdrop_deflate_strips.h"

#include <libdeflate.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/// Zero bytes after every stream handed to the walker, so that its refills may read 8 bytes at any offset up to the
/// stream's end.
enum { bd_padding = 16 };

/// The walker's bit reader: `buffer` holds `available` unread bits (56 to 63 after a refill), the stream's next bytes
/// from `next`.
typedef struct {
    const uint8_t *data, *next, *end;
    uint64_t buffer;
    unsigned available;
} bd_bits;

static inline uint64_t bd_load64(const uint8_t *at) {
    uint64_t word;
    memcpy(&word, at, 8);  // little-endian hosts only (x86-64, arm64), as the rest of the encoder
    return word;
}

/// Tops the buffer up to at least 56 bits; 0 when the reader has gone past the stream's end (a malformed stream).
static inline int bd_refill(bd_bits *bits) {
    // Past the end when the next unread bit is; until then `next` is at most 7 bytes past it, within the padding.
    if ((bits->next - bits->end) * 8 > (ptrdiff_t)bits->available) return 0;
    bits->buffer |= bd_load64(bits->next) << bits->available;
    bits->next += (63 - bits->available) >> 3;
    bits->available |= 56;
    return 1;
}

/// The next `count` (≤ 32) bits, least significant first; the buffer must hold them.
static inline uint32_t bd_take(bd_bits *bits, unsigned count) {
    uint32_t value = (uint32_t)(bits->buffer & ((1ull << count) - 1));
    bits->buffer >>= count;
    bits->available -= count;
    return value;
}

/// The position of the next unread bit from the stream's start.
static inline size_t bd_position(const bd_bits *bits) {
    return (size_t)(bits->next - bits->data) * 8 - bits->available;
}

/// Moves the reader to bit `position` (refill before reading).
static inline void bd_seek(bd_bits *bits, size_t position) {
    bits->next = bits->data + (position >> 3);
    bits->buffer = 0;
    bits->available = 0;
    bd_refill(bits);
    bd_take(bits, (unsigned)(position & 7));
}

enum {
    primary_bits = 10,
    secondary_bits = 5,  // 15 − 10: the longest code
    longest_code = 15,
    // Entry: bits to skip (code and extra bits) in 0–7, kind in 8–9, symbol or second-table offset from 16; 0 where no
    // code leads.
    kind_symbol = 0 << 8,    // a literal, a code length, or a distance
    kind_length = 1 << 8,    // a length: a distance follows
    kind_end = 2 << 8,       // end of block
    kind_second = 3 << 8,    // the code continues in the second table at the offset
    kind_mask = 3 << 8,
    // The primary table and a second table for each distinct first 10 bits of a longer code (at most 288 of them).
    table_size = (1 << primary_bits) + 288 * (1 << secondary_bits),
};

typedef struct {
    uint32_t entries[table_size];
} bd_table;

static const uint8_t bd_length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                            2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint8_t bd_distance_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                              6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

/// What a table decodes: its entries' kind and extra bits per symbol.
typedef enum { alphabet_lengths, alphabet_literals, alphabet_distances } bd_alphabet;

/// The entry of `symbol` whose code is `length` bits long.
static inline uint32_t bd_entry(bd_alphabet alphabet, int symbol, int length) {
    switch (alphabet) {
    case alphabet_literals:
        if (symbol < 256) return (uint32_t)(symbol << 16 | kind_symbol | length);
        if (symbol == 256) return (uint32_t)(kind_end | length);
        if (symbol < 286) return (uint32_t)(kind_length | (length + bd_length_extra[symbol - 257]));
        return 0;  // 286, 287: codes of the fixed table that never appear
    case alphabet_distances:
        return symbol < 30 ? (uint32_t)(kind_symbol | (length + bd_distance_extra[symbol])) : 0;
    case alphabet_lengths:
        break;
    }
    return (uint32_t)(symbol << 16 | kind_symbol | length);
}

/// Fills `table` from `count` code lengths (0: unused symbol); 0 when the lengths are over-subscribed.
static int bd_build(bd_table *table, const uint8_t *lengths, int count, bd_alphabet alphabet) {
    int per_length[longest_code + 1] = {0};
    for (int s = 0; s < count; s++) per_length[lengths[s]]++;
    per_length[0] = 0;
    int next[longest_code + 1] = {0}, code = 0;
    for (int length = 1; length <= longest_code; length++) {
        code = (code + per_length[length - 1]) << 1;
        next[length] = code;
        if (code + per_length[length] > (1 << length)) return 0;  // over-subscribed
    }
    memset(table->entries, 0, sizeof(uint32_t) << primary_bits);
    int seconds = 0;
    for (int s = 0; s < count; s++) {
        int length = lengths[s];
        if (length == 0) continue;
        int canonical = next[length]++, reversed = 0;
        for (int i = 0; i < length; i++) reversed |= ((canonical >> i) & 1) << (length - 1 - i);
        uint32_t entry = bd_entry(alphabet, s, length);
        if (length <= primary_bits) {
            for (int index = reversed; index < 1 << primary_bits; index += 1 << length) table->entries[index] = entry;
            continue;
        }
        // A longer code: its first 10 bits lead to a second table indexed by its next 5 bits.
        uint32_t *first = &table->entries[reversed & ((1 << primary_bits) - 1)];
        if ((*first & kind_mask) != kind_second || *first == 0) {
            if (seconds == 288) return 0;
            int offset = (1 << primary_bits) + seconds++ * (1 << secondary_bits);
            memset(&table->entries[offset], 0, sizeof(uint32_t) << secondary_bits);
            *first = (uint32_t)(offset << 16 | kind_second);
        }
        uint32_t *second = &table->entries[*first >> 16];
        // Second-table entries skip the code's remaining bits (the first 10 are skipped on the way in).
        uint32_t rest = entry - primary_bits;
        for (int index = reversed >> primary_bits; index < 1 << secondary_bits; index += 1 << (length - primary_bits))
            second[index] = rest;
    }
    return 1;
}

/// The entry of the next code through `table` (its code bits skipped, its extra bits not yet), or 0 where no code
/// leads. The buffer must hold 15 bits.
static inline uint32_t bd_decode(bd_bits *bits, const bd_table *table) {
    uint32_t entry = table->entries[bits->buffer & ((1u << primary_bits) - 1)];
    if ((entry & kind_mask) == kind_second) {
        bd_take(bits, primary_bits);
        entry = table->entries[(entry >> 16) + (bits->buffer & ((1u << secondary_bits) - 1))];
    }
    return entry;
}

/// Reads a dynamic block's code lengths into the two tables; 0 on a malformed header.
static int bd_dynamic_tables(bd_bits *bits, bd_table *literals, bd_table *distances) {
    static const uint8_t order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    if (!bd_refill(bits)) return 0;
    int literal_count = (int)bd_take(bits, 5) + 257, distance_count = (int)bd_take(bits, 5) + 1;
    int length_count = (int)bd_take(bits, 4) + 4;
    if (literal_count > 286 || distance_count > 30) return 0;
    uint8_t code_lengths[19] = {0};
    for (int i = 0; i < length_count; i++) {
        if (!bd_refill(bits)) return 0;
        code_lengths[order[i]] = (uint8_t)bd_take(bits, 3);
    }
    bd_table *lengths_table = literals;  // reused: the literal table is built after it
    if (!bd_build(lengths_table, code_lengths, 19, alphabet_lengths)) return 0;
    uint8_t lengths[286 + 30] = {0};
    int total = literal_count + distance_count;
    for (int i = 0; i < total;) {
        if (!bd_refill(bits)) return 0;
        uint32_t entry = bd_decode(bits, lengths_table);
        if (entry == 0) return 0;
        bd_take(bits, entry & 0xff);
        int symbol = (int)(entry >> 16);
        if (symbol < 16) {
            lengths[i++] = (uint8_t)symbol;
            continue;
        }
        int repeat, value = 0;
        if (symbol == 16) {
            if (i == 0) return 0;
            value = lengths[i - 1];
            repeat = 3 + (int)bd_take(bits, 2);
        } else if (symbol == 17) {
            repeat = 3 + (int)bd_take(bits, 3);
        } else {
            repeat = 11 + (int)bd_take(bits, 7);
        }
        if (i + repeat > total) return 0;
        while (repeat--) lengths[i++] = (uint8_t)value;
    }
    if (lengths[256] == 0) return 0;  // no end-of-block code
    return bd_build(literals, lengths, literal_count, alphabet_literals) &&
           bd_build(distances, lengths + literal_count, distance_count, alphabet_distances);
}

/// Walks the codes of a Huffman block up to its end-of-block code; 0 on a malformed block or one past the data.
static int bd_walk_codes(bd_bits *bits, const bd_table *literals, const bd_table *distances) {
    for (;;) {
        // 56 bits or more: a length code and its extra bits (20) and a distance's (28).
        if (!bd_refill(bits)) return 0;
        uint32_t entry = bd_decode(bits, literals);
        bd_take(bits, entry & 0xff);
        uint32_t kind = entry & kind_mask;
        if (kind == kind_symbol) {
            if (entry == 0) return 0;
            continue;
        }
        if (kind == kind_end) return bd_position(bits) <= (size_t)(bits->end - bits->data) * 8;
        entry = bd_decode(bits, distances);
        if (entry == 0) return 0;
        bd_take(bits, entry & 0xff);
    }
}

/// Finds the final block's header bit (`*final_header`) and the bit after its end-of-block code (`*end`) in the
/// `size` bytes at `stream`, which `bd_padding` zero bytes follow; 0 when the stream does not parse.
static int bd_walk(const uint8_t *stream, size_t size, size_t *final_header, size_t *end) {
    // The two tables (36 KiB) on the heap: strips are compressed on worker threads with small stacks.
    bd_table *literal_table = (bd_table *)malloc(2 * sizeof(bd_table));
    if (literal_table == NULL) return 0;
    bd_table *distance_table = literal_table + 1;
    bd_bits bits = {stream, stream, stream + size, 0, 0};
    int ok = 1, final = 0;
    while (ok && !final) {
        if (!bd_refill(&bits)) {
            ok = 0;
            break;
        }
        size_t header = bd_position(&bits);
        final = (int)bd_take(&bits, 1);
        uint32_t type = bd_take(&bits, 2);
        if (final) *final_header = header;
        if (type == 0) {
            size_t byte = (bd_position(&bits) + 7) >> 3;
            if (byte + 4 > size) {
                ok = 0;
                break;
            }
            size_t length = (size_t)stream[byte] | (size_t)stream[byte + 1] << 8;
            if (byte + 4 + length > size) {
                ok = 0;
                break;
            }
            bd_seek(&bits, (byte + 4 + length) * 8);
        } else if (type == 1) {
            uint8_t lengths[288 + 30];
            for (int s = 0; s < 288; s++) lengths[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
            for (int s = 0; s < 30; s++) lengths[288 + s] = 5;
            ok = bd_build(literal_table, lengths, 288, alphabet_literals) &&
                 bd_build(distance_table, lengths + 288, 30, alphabet_distances) &&
                 bd_walk_codes(&bits, literal_table, distance_table);
        } else if (type == 2) {
            ok = bd_dynamic_tables(&bits, literal_table, distance_table) &&
                 bd_walk_codes(&bits, literal_table, distance_table);
        } else {
            ok = 0;
        }
    }
    free(literal_table);
    *end = bd_position(&bits);
    return ok && *end <= size * 8;
}

/// Clears the final block's BFINAL bit and appends an empty stored block after its last code: `stream` must have 5
/// bytes to spare, and `bd_padding` zero bytes after `size`. Returns the new size, or 0 when the stream does not
/// parse.
static size_t bd_make_joinable(uint8_t *stream, size_t size) {
    size_t final_header = 0, at = 0;
    if (!bd_walk(stream, size, &final_header, &at)) return 0;
    // BFINAL off; then, at the bit after the last code, a stored block's header (three zero bits: not final, type
    // 00), its padding to the byte boundary, and LEN 0, NLEN 0xFFFF.
    stream[final_header >> 3] &= (uint8_t)~(1u << (final_header & 7));
    const size_t byte = at >> 3;
    // Zero from `at` to the end of its byte (libdeflate pads with zeros, but the header must not rely on it), and the
    // bytes up to the one after the header's padding.
    if (at & 7) stream[byte] &= (uint8_t)((1u << (at & 7)) - 1);
    const size_t aligned = (at + 3 + 7) >> 3;
    for (size_t b = (at & 7) ? byte + 1 : byte; b < aligned; b++) stream[b] = 0;
    stream[aligned] = 0x00;
    stream[aligned + 1] = 0x00;
    stream[aligned + 2] = 0xff;
    stream[aligned + 3] = 0xff;
    return aligned + 4;
}

size_t bd_deflate_strip(const uint8_t *data, size_t size, int level, int last, uint8_t **out) {
    *out = NULL;
    struct libdeflate_compressor *deflater = libdeflate_alloc_compressor(level);
    if (deflater == NULL) return 0;
    size_t bound = libdeflate_deflate_compress_bound(deflater, size);
    uint8_t *stream = (uint8_t *)malloc(bound + 5 + bd_padding);
    size_t written = stream ? libdeflate_deflate_compress(deflater, data, size, stream, bound) : 0;
    libdeflate_free_compressor(deflater);
    if (written && !last) {
        memset(stream + written, 0, 5 + bd_padding);
        written = bd_make_joinable(stream, written);
    }
    if (written == 0) {
        free(stream);
        return 0;
    }
    *out = stream;
    return written;
}

uint32_t bd_adler32(const uint8_t *data, size_t size) { return libdeflate_adler32(1, data, size); }

uint32_t bd_adler32_combine(uint32_t first, uint32_t second, size_t second_size) {
    // A = 1 + Σ bytes and B = Σ of A after each byte (mod 65521), so over the two parts: A = A₁ + A₂ − 1 and
    // B = B₁ + B₂ + n₂ (A₁ − 1), n₂ the second part's length.
    const uint64_t modulus = 65521;
    uint64_t a1 = first & 0xffff, b1 = first >> 16, a2 = second & 0xffff, b2 = second >> 16;
    uint64_t n = second_size % modulus;
    uint64_t a = (a1 + a2 + modulus - 1) % modulus;
    uint64_t b = (b1 + b2 + n * ((a1 + modulus - 1) % modulus)) % modulus;
    return (uint32_t)(b << 16 | a);
}

void bd_zlib_header(int level, uint8_t header[2]) {
    // CMF: deflate with a 32 KiB window; FLG: the level hint libdeflate writes, and the check bits.
    unsigned hint = level < 2 ? 0 : level < 6 ? 1 : level < 8 ? 2 : 3;
    unsigned value = 0x7800u | hint << 6;
    value += 31 - value % 31;
    header[0] = (uint8_t)(value >> 8);
    header[1] = (uint8_t)value;
}
