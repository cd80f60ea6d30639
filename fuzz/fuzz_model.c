/* Fuzz the model loader: any bytes must give a model or a clean status;
 * a model that loads must predict without crashing, and never succeed
 * with a non-finite or absurd time. */
#include <stdint.h>
#include <stdlib.h>
#include "seer.h"
#include "common.h"
#include "fuzz.h"
#include "model_bytes.h"

static void load_and_use(seer_handle_t h, const uint8_t *data, size_t size)
{
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
                        seer_status_t st = seer_predict_conv(h, m, d, (seer_direction_t)dir, a, &t, k, 4, &nk);
                        /* no NaN, infinity or absurd time is ever a success */
                        if ((st == SEER_STATUS_SUCCESS || st == SEER_STATUS_BUFFER_TOO_SMALL) &&
                            !(t >= 0 && t <= SEER_MAX_TIME_MS))
                            abort();
                    }

            seer_conv_desc_destroy(d);
        }
        double g;
        if (seer_predict_gemm(h, m, 4, 512, 512, 512, SEER_DTYPE_FP32, 0, 1, 1, &g, NULL) ==
                SEER_STATUS_SUCCESS && !(g >= 0 && g <= SEER_MAX_TIME_MS))
            abort();
        seer_model_info_t info;
        seer_model_get_info(m, &info);
        seer_conv_scale_info_t sc[8];
        int ns = 0;
        seer_status_t ss = seer_model_get_conv_scales(m, sc, 8, &ns);
        if ((ss != SEER_STATUS_SUCCESS && ss != SEER_STATUS_BUFFER_TOO_SMALL) || ns < 0 ||
            (ss == SEER_STATUS_SUCCESS) != (ns <= 8))
            abort();
        for (int i = 0; i < ns && i < 8; i++)
            if (!(sc[i].scale >= 0.1 && sc[i].scale <= 10)) abort();
        seer_model_destroy(m);
    }
}

int seer_fuzz_model(const uint8_t *data, size_t size)
{
    seer_handle_t h;
    if (seer_create(&h)) return 0;
    fuzz_model_bytes(h, data, size, load_and_use);
    seer_destroy(h);
    return 0;
}

SEER_FUZZ_TARGET(model)
