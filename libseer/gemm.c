/* GEMM model: placeholder until fully-connected layers are modelled. */
#include <string.h>
#include "gemm.h"

seer_status_t seer_gemm_fit(seer_handle_t h, const struct seer_model *m, const seer_gemm_row_t *rows,
                            size_t n, seer_gemm_fit_t out[2])
{
    (void)h; (void)m; (void)rows; (void)n;
    memset(out, 0, 2 * sizeof *out);
    return SEER_STATUS_SUCCESS;
}
