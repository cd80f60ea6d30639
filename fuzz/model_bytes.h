/* What the model-file targets feed the loader: the input as it is, then
 * with its header repaired (magic, payload length and the payload's
 * CRC-32: docs/model-format.md; the format version is the input's), so
 * that a mutation reaches the payload parser instead of stopping at the
 * checksum. */
#ifndef SEER_FUZZ_MODEL_BYTES_H
#define SEER_FUZZ_MODEL_BYTES_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "seer.h"

static void fuzz_model_bytes(seer_handle_t h, const uint8_t *data, size_t size,
                             void (*use)(seer_handle_t, const uint8_t *, size_t))
{
    use(h, data, size);
    if (size < 24) return;
    uint8_t *fixed = malloc(size);
    if (!fixed) return;
    memcpy(fixed, data, size);
    memcpy(fixed, "SEERMODL", 8);
    uint64_t len = size - 24;
    uint32_t crc = (uint32_t)crc32_z(0, fixed + 24, size - 24);
    for (int i = 0; i < 8; i++) fixed[12 + i] = (uint8_t)(len >> (8 * i));
    for (int i = 0; i < 4; i++) fixed[20 + i] = (uint8_t)(crc >> (8 * i));
    use(h, fixed, size);
    free(fixed);
}
#endif
