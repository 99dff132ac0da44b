#include "CByteMasks.h"

// One byte at a time: what the SSE2 versions in the header compute, for processors without it.

CByteMasksJSON CByteMasks_jsonPortable(const uint8_t *block) {
    CByteMasksJSON masks = {0, 0, 0};
    for (int i = 0; i < 64; i++) {
        const uint8_t byte = block[i];
        const uint64_t bit = (uint64_t)1 << i;
        if (byte == '"') masks.quotes |= bit;
        if (byte == '\\') masks.backslashes |= bit;
        if (byte == '{' || byte == '[' || byte == '}' || byte == ']') masks.brackets |= bit;
    }
    return masks;
}

uint64_t CByteMasks_equalPortable(const uint8_t *block, uint8_t value) {
    uint64_t mask = 0;
    for (int i = 0; i < 64; i++) {
        if (block[i] == value) mask |= (uint64_t)1 << i;
    }
    return mask;
}

uint64_t CByteMasks_signedBelowPortable(const uint8_t *block, int8_t value) {
    uint64_t mask = 0;
    for (int i = 0; i < 64; i++) {
        if ((int8_t)block[i] < value) mask |= (uint64_t)1 << i;
    }
    return mask;
}

uint32_t CByteMasks_stringStopsPortable(const uint8_t *bytes) {
    uint32_t masks = 0;
    for (int i = 0; i < 16; i++) {
        const uint8_t byte = bytes[i];
        if (byte == '"' || byte == '\\' || byte < 0x20) masks |= (uint32_t)1 << i;
        if (byte >= 0x80) masks |= (uint32_t)1 << (16 + i);
    }
    return masks;
}
