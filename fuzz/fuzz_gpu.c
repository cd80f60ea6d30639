/* Fuzz the GPU description file parser (docs/formats.md) through the
 * public registration call, and check what it accepts: a usable GPU entry
 * that the handle then knows, and that registering it again succeeds. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "seer.h"
#include "fuzz.h"

int seer_fuzz_gpu(const uint8_t *data, size_t size);

int seer_fuzz_gpu(const uint8_t *data, size_t size)
{
    seer_handle_t h;
    if (seer_create(&h)) return 0;
    seer_gpu_info_t g, found;
    seer_status_t st = seer_gpu_register_buffer(h, (const char *)data, size, &g);
    if (st == SEER_STATUS_SUCCESS) {
        if (!g.id[0] || strlen(g.id) > 31 || g.sms < 1 || !(g.fp32_tflops > 0) || !isfinite(g.fp32_tflops) ||
            !(g.dram_gbps > 0) || g.l2_bytes < 1)
            abort();
        int blocks = 0;
        if (seer_gpu_find(h, g.id, &found) || memcmp(&g, &found, sizeof g)) abort();
        /* the entry is sane enough for the occupancy calculator */
        if (g.threads_per_block >= 32 &&
            seer_occupancy(&g, 32, 0, 0, &blocks) == SEER_STATUS_SUCCESS && blocks < 1)
            abort();
        if (seer_gpu_register_buffer(h, (const char *)data, size, NULL) != SEER_STATUS_SUCCESS) abort();
    } else if (!seer_get_last_error(h)[0]) {
        abort(); /* every failure says why */
    }
    seer_destroy(h);
    return 0;
}

SEER_FUZZ_TARGET(gpu)
