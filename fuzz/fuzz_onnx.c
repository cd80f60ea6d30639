/* Fuzz the ONNX reader (docs/networks.md: ONNX import): any bytes give a
 * network or a named status with a message, never a crash; an accepted
 * model's description parses to the same network the direct call builds,
 * and skipping unsupported nodes never fails where failing on them
 * succeeded. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "seer.h"
#include "fuzz.h"

int seer_fuzz_onnx(const uint8_t *data, size_t size);

int seer_fuzz_onnx(const uint8_t *data, size_t size)
{
    seer_handle_t h;
    if (seer_create(&h)) return 0;
    for (int skip = 0; skip < 2; skip++) {
        seer_onnx_options_t o = SEER_ONNX_OPTIONS_DEFAULT;
        o.skip_unsupported = skip;
        o.resolution = skip && size ? 8 + data[size - 1] % 64 : 0;
        seer_network_t net = NULL;
        seer_status_t st = seer_network_create_onnx_ex(h, data, size, &o, &net);
        if (st == SEER_STATUS_SUCCESS) {
            seer_network_info_t info;
            int n = 0;
            if (seer_network_get_info(net, &info) || seer_network_layer_count(net, &n) || n < 1 || info.params < 0)
                abort();
            for (int i = 0; i < n; i++) {
                seer_layer_info_t L;
                if (seer_network_get_layer(net, i, &L)) abort();
                if (L.c < 1 || L.h < 1 || L.w < 1 || (int64_t)L.c * L.h * L.w > INT32_MAX) abort();
            }
            /* the text form builds the same network */
            size_t len = 0;
            if (seer_onnx_text(h, data, size, &o, NULL, 0, &len, NULL) != SEER_STATUS_BUFFER_TOO_SMALL) abort();
            char *text = malloc(len + 1);
            seer_network_t again = NULL;
            if (text && !seer_onnx_text(h, data, size, &o, text, len + 1, &len, NULL)) {
                seer_network_info_t i2;
                if (seer_network_create(h, text, len, &again) || seer_network_get_info(again, &i2) ||
                    i2.n_layers != info.n_layers || i2.params != info.params)
                    abort();
            }
            seer_network_destroy(again);
            free(text);
            seer_network_destroy(net);
        } else if (!seer_get_last_error(h)[0]) {
            abort(); /* every failure says why */
        }
    }
    seer_destroy(h);
    return 0;
}

SEER_FUZZ_TARGET(onnx)
