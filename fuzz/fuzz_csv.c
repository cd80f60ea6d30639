/* Fuzz the CSV tokenizer, all three row readers and the source readers
 * on one input. */
#include <stdlib.h>
#include <string.h>
#include "csv.h"
#include "fuzz.h"

int seer_fuzz_csv(const uint8_t *data, size_t size);

int seer_fuzz_csv(const uint8_t *data, size_t size)
{
    seer_handle_t h;
    if (seer_create(&h)) return 0;
    const char *text = (const char *)data;

    seer_conv_row_t *conv;
    seer_kernel_row_t *kern;
    seer_gemm_row_t *gemm;
    size_t n;
    if (seer_conv_csv_parse(h, "fuzz", text, size, &conv, &n) == SEER_STATUS_SUCCESS) {
        /* and the row filters of training and seer eval: counts only shrink */
        size_t m = n, k;
        if (seer_conv_rows_framework_math(h, conv, &m) == SEER_STATUS_SUCCESS && m > n) abort();
        k = m;
        if (seer_conv_rows_fastest(h, conv, &k) == SEER_STATUS_SUCCESS && k > m) abort();
        free(conv);
    }
    if (seer_kernel_csv_parse(h, "fuzz", text, size, &kern, &n) == SEER_STATUS_SUCCESS) free(kern);
    if (seer_gemm_csv_parse(h, "fuzz", text, size, &gemm, &n) == SEER_STATUS_SUCCESS) free(gemm);

    /* The tokenizer and typed accessors directly, on every field. */
    seer_csv_t *c;
    if (seer_csv_open_buffer(h, NULL, text, size, &c) == SEER_STATUS_SUCCESS) {
        int eof = 0;
        while (seer_csv_next(h, c, &eof) == SEER_STATUS_SUCCESS && !eof) {
            for (int i = -1; i <= seer_csv_ncols(c); i++) {
                int v;
                double d;
                /* Touch every byte so ASan sees any bad field pointer. */
                if (strlen(seer_csv_field(c, i)) > size) abort();
                (void)seer_csv_int(h, c, i, "f", -1000, 1000, &v);
                (void)seer_csv_dbl(h, c, i, "f", &d);
                /* and the source readers (dispatch, cuDNN version) on it */
                (void)seer_source_has_dispatch(seer_csv_field(c, i));
                (void)seer_source_cudnn_major(seer_csv_field(c, i));
            }
            if (seer_csv_line(c) < 1) abort();
        }
        seer_csv_close(c);
    }
    seer_destroy(h);
    return 0;
}

SEER_FUZZ_TARGET(csv)
