// backdrop_deflate_strips.c — see backdrop_deflate_strips.h.
//
// The walk over a deflate stream reads what RFC 1951 section 3.2 defines: block headers, stored blocks' lengths,
// fixed and dynamic Huffman codes (canonical, packed most significant bit first into a stream read least significant
// bit first), and every literal/length and distance code with its extra bits, up to each block's end-of-block code.
// It keeps no output. Codes are decoded through a table indexed by the next 15 bits (the longest code), filled once
// per block: for a complete code, 32768 entries whatever the alphabet.
#include "backdrop_deflate_strips.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t bit;  // the next bit to read, from the stream's start
} bd_bits;

/// The next `count` (≤ 24) bits, least significant first, without consuming them; past the end reads zeros.
static inline uint32_t bd_peek(const bd_bits *bits, int count) {
    const size_t byte = bits->bit >> 3;
    uint64_t word = 0;
    if (byte + 8 <= bits->size) {
        memcpy(&word, bits->data + byte, 8);  // little-endian hosts only (x86-64, arm64), as the rest of the encoder
    } else {
        for (size_t i = 0; i < 8 && byte + i < bits->size; i++) word |= (uint64_t)bits->data[byte + i] << (8 * i);
    }
    return (uint32_t)(word >> (bits->bit & 7)) & ((1u << count) - 1);
}

static inline uint32_t bd_take(bd_bits *bits, int count) {
    uint32_t value = count ? bd_peek(bits, count) : 0;
    bits->bit += (size_t)count;
    return value;
}

enum { longest_code = 15, table_size = 1 << longest_code };

/// A decoding table: entry = symbol << 4 | code length; 0 where no code leads (an incomplete code's gap).
typedef struct {
    uint16_t entries[table_size];
} bd_table;

/// Fills `table` from `count` code lengths (0: unused symbol); 0 when the lengths are over-subscribed.
static int bd_build(bd_table *table, const uint8_t *lengths, int count) {
    int per_length[longest_code + 1] = {0};
    for (int s = 0; s < count; s++) per_length[lengths[s]]++;
    per_length[0] = 0;
    int next[longest_code + 2] = {0}, code = 0;
    for (int length = 1; length <= longest_code; length++) {
        code = (code + per_length[length - 1]) << 1;
        next[length] = code;
        if (per_length[length] > (1 << length)) return 0;
    }
    memset(table->entries, 0, sizeof table->entries);
    long filled = 0;
    for (int s = 0; s < count; s++) {
        int length = lengths[s];
        if (length == 0) continue;
        int canonical = next[length]++;
        if (canonical >= (1 << length)) return 0;  // over-subscribed
        int reversed = 0;
        for (int i = 0; i < length; i++) reversed |= ((canonical >> i) & 1) << (length - 1 - i);
        for (int index = reversed; index < table_size; index += 1 << length) {
            table->entries[index] = (uint16_t)(s << 4 | length);
            filled++;
        }
    }
    return filled <= table_size;
}

/// The next symbol through `table`, or -1 where no code leads.
static inline int bd_decode(bd_bits *bits, const bd_table *table) {
    uint16_t entry = table->entries[bd_peek(bits, longest_code)];
    if (entry == 0) return -1;
    bits->bit += entry & 15;
    return entry >> 4;
}

static const uint8_t bd_length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                            2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint8_t bd_distance_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                              6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

/// Reads a dynamic block's code lengths into the two tables; 0 on a malformed header.
static int bd_dynamic_tables(bd_bits *bits, bd_table *literals, bd_table *distances) {
    static const uint8_t order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    int literal_count = (int)bd_take(bits, 5) + 257, distance_count = (int)bd_take(bits, 5) + 1;
    int length_count = (int)bd_take(bits, 4) + 4;
    uint8_t code_lengths[19] = {0};
    for (int i = 0; i < length_count; i++) code_lengths[order[i]] = (uint8_t)bd_take(bits, 3);
    bd_table *lengths_table = literals;  // reused: the literal table is built after it
    if (!bd_build(lengths_table, code_lengths, 19)) return 0;
    uint8_t lengths[286 + 30] = {0};
    int total = literal_count + distance_count;
    for (int i = 0; i < total;) {
        int symbol = bd_decode(bits, lengths_table);
        if (symbol < 0) return 0;
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
    return bd_build(literals, lengths, literal_count) && bd_build(distances, lengths + literal_count, distance_count);
}

/// Walks the codes of a Huffman block up to its end-of-block code; 0 on a malformed block or one past the data.
static int bd_walk_codes(bd_bits *bits, const bd_table *literals, const bd_table *distances) {
    const size_t end = bits->size * 8;
    for (;;) {
        if (bits->bit > end) return 0;
        int symbol = bd_decode(bits, literals);
        if (symbol < 0) return 0;
        if (symbol < 256) continue;
        if (symbol == 256) return bits->bit <= end;
        symbol -= 257;
        if (symbol >= 29) return 0;
        bits->bit += bd_length_extra[symbol];
        int distance = bd_decode(bits, distances);
        if (distance < 0 || distance >= 30) return 0;
        bits->bit += bd_distance_extra[distance];
    }
}

/// Clears the final block's BFINAL bit and appends an empty stored block after its last code: `stream` must have 5
/// bytes to spare. Returns the new size, or 0 when the stream does not parse.
static size_t bd_make_joinable(uint8_t *stream, size_t size) {
    // The two tables (128 KiB) on the heap: strips are compressed on worker threads with small stacks.
    bd_table *literal_table = (bd_table *)malloc(2 * sizeof(bd_table));
    if (literal_table == NULL) return 0;
    bd_table *distance_table = literal_table + 1;
    bd_bits bits = {stream, size, 0};
    size_t final_header = (size_t)-1;
    int ok = 1;
    for (;;) {
        size_t header = bits.bit;
        uint32_t final = bd_take(&bits, 1), type = bd_take(&bits, 2);
        if (type == 0) {
            bits.bit = (bits.bit + 7) & ~(size_t)7;
            size_t byte = bits.bit >> 3;
            if (byte + 4 > size) { ok = 0; break; }
            size_t length = (size_t)stream[byte] | (size_t)stream[byte + 1] << 8;
            bits.bit += (4 + length) * 8;
            if ((bits.bit >> 3) > size) { ok = 0; break; }
        } else if (type == 1) {
            uint8_t lengths[288 + 30];
            for (int s = 0; s < 288; s++) lengths[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
            for (int s = 0; s < 30; s++) lengths[288 + s] = 5;
            if (!bd_build(literal_table, lengths, 288) || !bd_build(distance_table, lengths + 288, 30) ||
                !bd_walk_codes(&bits, literal_table, distance_table)) {
                ok = 0;
                break;
            }
        } else if (type == 2) {
            if (!bd_dynamic_tables(&bits, literal_table, distance_table) ||
                !bd_walk_codes(&bits, literal_table, distance_table)) {
                ok = 0;
                break;
            }
        } else {
            ok = 0;
            break;
        }
        if (final) {
            final_header = header;
            break;
        }
    }
    free(literal_table);
    if (!ok || final_header == (size_t)-1) return 0;
    // BFINAL off; then, at the bit after the last code, a stored block's header (three zero bits: not final, type
    // 00), its padding to the byte boundary, and LEN 0, NLEN 0xFFFF.
    stream[final_header >> 3] &= (uint8_t)~(1u << (final_header & 7));
    const size_t at = bits.bit, byte = at >> 3;
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
    size_t bound = libdeflate_deflate_compress_bound(deflater, size) + 5;
    uint8_t *stream = (uint8_t *)malloc(bound);
    size_t written = stream ? libdeflate_deflate_compress(deflater, data, size, stream, bound - 5) : 0;
    libdeflate_free_compressor(deflater);
    if (written && !last) written = bd_make_joinable(stream, written);
    if (written == 0) {
        free(stream);
        return 0;
    }
    *out = stream;
    return written;
}

uint32_t bd_adler32(const uint8_t *data, size_t size) { return libdeflate_adler32(1, data, size); }

void bd_zlib_header(int level, uint8_t header[2]) {
    // CMF: deflate with a 32 KiB window; FLG: the level hint libdeflate writes, and the check bits.
    unsigned hint = level < 2 ? 0 : level < 6 ? 1 : level < 8 ? 2 : 3;
    unsigned value = 0x7800u | hint << 6;
    value += 31 - value % 31;
    header[0] = (uint8_t)(value >> 8);
    header[1] = (uint8_t)value;
}
