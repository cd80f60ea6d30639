/* GEMM timing model: fit from GEMM timing CSV rows, predict a GEMM. */
#ifndef SEER_GEMM_H
#define SEER_GEMM_H
#include <stddef.h>
#include "csv.h"
#include "model.h"

/* Fit out[math] for the model's GPU from GEMM rows (rows of other GPUs
 * are ignored unless gemm.c documents a rule for using them).  Leaves
 * out[i].present = 0 where there is no data.  Deterministic. */
seer_status_t seer_gemm_fit(seer_handle_t h, const struct seer_model *m, const seer_gemm_row_t *rows,
                            size_t n, seer_gemm_fit_t out[2]);
#endif
