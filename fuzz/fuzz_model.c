/* Fuzz the model loader: any bytes must give a model or a clean status;
 * a model that loads must predict without crashing. */
#include <stdint.h>
#include <stdlib.h>
#include "seer.h"
#include "fuzz.h"

int seer_fuzz_model(const uint8_t *data, size_t size)
{
    seer_handle_t h;
    if (seer_create(&h)) return 0;
    seer_model_t m = NULL;
    if (seer_model_load_buffer(h, data, size, &m) == SEER_STATUS_SUCCESS) {
        seer_conv_desc_t d;
        if (!seer_conv_desc_create(&d)) {
            if (!seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 8, 64, 28, 28, 64, 3, 3,
                                    1, 1, 1, 1, 1, 1, 1))
                for (int dir = 0; dir < 3; dir++)
                    for (int a = -1; a < 8; a++) {
                        double t;
                        seer_kernel_pred_t k[4];
                        int nk;
                        seer_predict_conv(h, m, d, (seer_direction_t)dir, a, &t, k, 4, &nk);
                    }
            seer_conv_desc_destroy(d);
        }
        seer_model_info_t info;
        seer_model_get_info(m, &info);
        seer_model_free(m);
    }
    seer_destroy(h);
    return 0;
}

SEER_FUZZ_TARGET(model)
