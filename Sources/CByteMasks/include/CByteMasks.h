// The masks of a 64-byte block of text, bit i for byte i: the first stage of simdjson (Langdale
// and Lemire, "Parsing Gigabytes of JSON per Second", 2019); and those of a JSON string's next 16
// bytes. In C because Swift's SIMD types have no "move mask" (SSE2's pmovmskb, which gathers the
// 16 compare results of a vector into 16 bits in one instruction), and gathering them with
// Swift's portable operations cost several times the work of the comparisons. SSE2 is part of
// every x86-64 processor, so no compiler flag is needed; other processors get the portable loops
// of ByteMasks.c.
#ifndef C_BYTE_MASKS_H
#define C_BYTE_MASKS_H

#include <stdint.h>

/// The bytes JSON's structure is found from: `"`, `\` and the brackets `{`, `[`, `}`, `]`.
typedef struct {
    uint64_t quotes;
    uint64_t backslashes;
    uint64_t brackets;
} CByteMasksJSON;

/// The portable versions (every processor), which the SSE2 ones must agree with (tests call both).
CByteMasksJSON CByteMasks_jsonPortable(const uint8_t *block);
uint64_t CByteMasks_equalPortable(const uint8_t *block, uint8_t value);
uint64_t CByteMasks_signedBelowPortable(const uint8_t *block, int8_t value);
uint32_t CByteMasks_stringStopsPortable(const uint8_t *bytes);

#include <string.h>

/// Bit i set where byte i of `word` (little-endian) has its high bit set; the other bits of each
/// byte must be clear.
static inline uint32_t CByteMasks_gatherWord(uint64_t word) {
    return (uint32_t)(((word >> 7) * 0x0102040810204080ULL) >> 56);
}

/// `CByteMasks_stringStops` eight bytes a word (exact for every byte, not only the first): the
/// version of processors without SSE2, whose portable loop would cost more than the words it
/// replaced. Bytes equal to `c` are those whose XOR with `c` is zero; below 0x20, those whose low
/// seven bits plus 0x60 stay under 0x80 and whose high bit is clear (no carry crosses a byte).
static inline uint32_t CByteMasks_stringStopsWords(const uint8_t *bytes) {
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL, high = 0x8080808080808080ULL;
    uint32_t masks = 0;
    for (int half = 0; half < 2; half++) {
        uint64_t w;
        memcpy(&w, bytes + 8 * half, 8);
        const uint64_t q = w ^ 0x2222222222222222ULL, b = w ^ 0x5C5C5C5C5C5C5C5CULL;
        const uint64_t quotes = ~(((q & low7) + low7) | q) & high;
        const uint64_t backslashes = ~(((b & low7) + low7) | b) & high;
        const uint64_t controls = ~(((w & low7) + 0x6060606060606060ULL) | w) & high;
        masks |= CByteMasks_gatherWord(quotes | backslashes | controls) << (8 * half);
        masks |= CByteMasks_gatherWord(w & high) << (16 + 8 * half);
    }
    return masks;
}

#if defined(__SSE2__)
#include <emmintrin.h>

static inline uint64_t CByteMasks_gather(__m128i a, __m128i b, __m128i c, __m128i d) {
    return (uint64_t)(uint16_t)_mm_movemask_epi8(a) | (uint64_t)(uint16_t)_mm_movemask_epi8(b) << 16
        | (uint64_t)(uint16_t)_mm_movemask_epi8(c) << 32 | (uint64_t)(uint16_t)_mm_movemask_epi8(d) << 48;
}

/// The JSON masks of the 64 bytes at `block` (no alignment needed). A bracket is found with two
/// comparisons: setting bit 5 turns `[` and `]` into `{` and `}`, and only they become those.
static inline CByteMasksJSON CByteMasks_json(const uint8_t *block) {
    const __m128i v0 = _mm_loadu_si128((const __m128i *)block);
    const __m128i v1 = _mm_loadu_si128((const __m128i *)(block + 16));
    const __m128i v2 = _mm_loadu_si128((const __m128i *)(block + 32));
    const __m128i v3 = _mm_loadu_si128((const __m128i *)(block + 48));
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    const __m128i open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}'), bit5 = _mm_set1_epi8(0x20);
#define C_BYTE_MASKS_BRACKETS(v) \
    _mm_or_si128(_mm_cmpeq_epi8(_mm_or_si128(v, bit5), open), _mm_cmpeq_epi8(_mm_or_si128(v, bit5), close))
    CByteMasksJSON masks;
    masks.quotes = CByteMasks_gather(_mm_cmpeq_epi8(v0, quote), _mm_cmpeq_epi8(v1, quote),
                                     _mm_cmpeq_epi8(v2, quote), _mm_cmpeq_epi8(v3, quote));
    masks.backslashes = CByteMasks_gather(_mm_cmpeq_epi8(v0, backslash), _mm_cmpeq_epi8(v1, backslash),
                                          _mm_cmpeq_epi8(v2, backslash), _mm_cmpeq_epi8(v3, backslash));
    masks.brackets = CByteMasks_gather(C_BYTE_MASKS_BRACKETS(v0), C_BYTE_MASKS_BRACKETS(v1),
                                       C_BYTE_MASKS_BRACKETS(v2), C_BYTE_MASKS_BRACKETS(v3));
#undef C_BYTE_MASKS_BRACKETS
    return masks;
}

/// Bit i set where byte i of the 64 at `block` is `value`.
static inline uint64_t CByteMasks_equal(const uint8_t *block, uint8_t value) {
    const __m128i v = _mm_set1_epi8((char)value);
    return CByteMasks_gather(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)block), v),
                             _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(block + 16)), v),
                             _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(block + 32)), v),
                             _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(block + 48)), v));
}

/// Bit i set where byte i of the 64 at `block`, read as a signed byte, is below `value`.
static inline uint64_t CByteMasks_signedBelow(const uint8_t *block, int8_t value) {
    const __m128i v = _mm_set1_epi8(value);
    return CByteMasks_gather(_mm_cmplt_epi8(_mm_loadu_si128((const __m128i *)block), v),
                             _mm_cmplt_epi8(_mm_loadu_si128((const __m128i *)(block + 16)), v),
                             _mm_cmplt_epi8(_mm_loadu_si128((const __m128i *)(block + 32)), v),
                             _mm_cmplt_epi8(_mm_loadu_si128((const __m128i *)(block + 48)), v));
}

/// The 16 bytes at `bytes` inside a JSON string: bits 0-15 mark the bytes that stop a plain run
/// (`"`, `\` and the control characters below 0x20, RFC 8259 section 7), bits 16-31 the bytes
/// of 0x80 and above (which need the UTF-8 check). No alignment needed.
static inline uint32_t CByteMasks_stringStops(const uint8_t *bytes) {
    const __m128i v = _mm_loadu_si128((const __m128i *)bytes);
    const __m128i control = _mm_set1_epi8(0x1F);
    const __m128i stops = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
        _mm_cmpeq_epi8(_mm_max_epu8(v, control), control));
    return (uint32_t)(uint16_t)_mm_movemask_epi8(stops) | (uint32_t)(uint16_t)_mm_movemask_epi8(v) << 16;
}

#else

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static inline uint32_t CByteMasks_stringStops(const uint8_t *bytes) { return CByteMasks_stringStopsWords(bytes); }
#else
static inline uint32_t CByteMasks_stringStops(const uint8_t *bytes) { return CByteMasks_stringStopsPortable(bytes); }
#endif
static inline CByteMasksJSON CByteMasks_json(const uint8_t *block) { return CByteMasks_jsonPortable(block); }
static inline uint64_t CByteMasks_equal(const uint8_t *block, uint8_t value) {
    return CByteMasks_equalPortable(block, value);
}
static inline uint64_t CByteMasks_signedBelow(const uint8_t *block, int8_t value) {
    return CByteMasks_signedBelowPortable(block, value);
}

#endif

#endif
