/* Fuzz the model file's save -> load round trip: whatever bytes load as a
 * model (the header repaired, so the payload parser sees the mutation),
 * saving it gives bytes that load again, save to the very same bytes,
 * and predict the very same times: nothing a loaded model holds is lost
 * or changed by the file format. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "seer.h"
#include "common.h"
#include "model.h"
#include "fuzz.h"
#include "model_bytes.h"

static double predict(seer_handle_t h, const seer_model *m, const seer_conv *d, int dir, int algo)
{
    double t = -1;
    return seer_predict_conv(h, m, d, (seer_direction_t)dir, algo, &t, NULL, 0, NULL) ? -1 : t;
}

static void roundtrip(seer_handle_t h, const uint8_t *data, size_t size)
{
    seer_model_t a = NULL, b = NULL;
    unsigned char *x = NULL, *y = NULL;
    size_t nx = 0, ny = 0;
    if (seer_model_load_buffer(h, data, size, &a)) return;
    if (!seer_model_serialize(a, &x, &nx)) goto out; /* out of memory */
    if (seer_model_load_buffer(h, x, nx, &b)) abort();  /* what libseer saves, it loads */
    if (!seer_model_serialize(b, &y, &ny)) goto out;
    if (nx != ny || memcmp(x, y, nx)) abort();
    seer_conv_desc_t d;
    if (!seer_conv_desc_create(&d)) {
        if (!seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 8, 64, 28, 28, 64, 3, 3, 1, 1, 1, 1,
                                1, 1, 1))
            for (int dir = 0; dir < 3; dir++)
                for (int algo = -1; algo < 8; algo++)
                    if (predict(h, a, d, dir, algo) != predict(h, b, d, dir, algo)) abort();
        seer_conv_desc_destroy(d);
    }
    /* and GEMMs, whose fits (a second one included) the file holds too */
    for (int dt = 0; dt < 2; dt++)
        for (int batch = 1; batch <= 8; batch *= 8) {
            double ta = -1, tb = -1;
            seer_dtype_t t = dt ? SEER_DTYPE_FP16 : SEER_DTYPE_FP32;
            seer_status_t sa = seer_predict_gemm(h, a, batch, 512, 256, 1024, t, 1, 0, 0, &ta, NULL),
                          sb = seer_predict_gemm(h, b, batch, 512, 256, 1024, t, 1, 0, 0, &tb, NULL);
            if (sa != sb || ta != tb) abort();
        }
out:
    free(x);
    free(y);
    seer_model_destroy(a);
    seer_model_destroy(b);
}

int seer_fuzz_roundtrip(const uint8_t *data, size_t size)
{
    seer_handle_t h;
    if (seer_create(&h)) return 0;
    fuzz_model_bytes(h, data, size, roundtrip);
    seer_destroy(h);
    return 0;
}

SEER_FUZZ_TARGET(roundtrip)
