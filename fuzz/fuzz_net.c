/* Fuzz the network description parser (docs/networks.md) and check the
 * invariants of every network it accepts; also the zoo by name. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "seer.h"
#include "fuzz.h"

int seer_fuzz_net(const uint8_t *data, size_t size);

int seer_fuzz_net(const uint8_t *data, size_t size)
{
    seer_handle_t h;
    if (seer_create(&h)) return 0;
    seer_network_t net = NULL;
    if (seer_network_create(h, (const char *)data, size, &net) == SEER_STATUS_SUCCESS) {
        seer_network_info_t info;
        int n = 0;
        if (seer_network_get_info(net, &info) || seer_network_layer_count(net, &n) || n != info.n_layers ||
            n < 1 || info.params < 0)
            abort();
        for (int i = 0; i < n; i++) {
            seer_layer_info_t L;
            if (seer_network_get_layer(net, i, &L)) abort();
            if (L.c < 1 || L.h < 1 || L.w < 1 || (int64_t)L.c * L.h * L.w > INT32_MAX) abort();
            if (L.op == SEER_OP_INPUT ? L.input0 != -1 || L.n_inputs : L.input0 < 0 || L.input0 >= i)
                abort(); /* inputs only from earlier lines: no cycles */
            if (strlen(L.name) < 1 || strlen(L.name) > 47 || L.params < 0) abort();
        }
        seer_network_destroy(net);
    } else if (!seer_get_last_error(h)[0]) {
        abort(); /* every failure says why */
    }
    /* The zoo by name, at a resolution from the input's first bytes. */
    char name[32];
    size_t k = 0;
    for (; k < size && k + 1 < sizeof name && data[k] != '\n'; k++) name[k] = (char)data[k];
    name[k] = 0;
    int res = size > k + 1 ? data[k + 1] * 2 : 0;
    if (seer_network_create_zoo(h, name, res, &net) == SEER_STATUS_SUCCESS) seer_network_destroy(net);
    seer_destroy(h);
    return 0;
}

SEER_FUZZ_TARGET(net)
