/* GEMM timing model: fit from GEMM timing CSV rows, predict a GEMM. */
#ifndef SEER_GEMM_H
#define SEER_GEMM_H
#include <stddef.h>
#include "csv.h"
#include "model.h"

/* Fit out[math][kind] (model.h) for the model's GPU from GEMM rows
 * (rows of other GPUs are ignored unless gemm.c documents a rule for
 * using them).  Leaves .present = 0 where there is no data.
 * Deterministic. */
seer_status_t seer_gemm_fit(seer_handle_t h, const struct seer_model *m, const seer_gemm_row_t *rows,
                            size_t n, seer_gemm_fit_t out[2][SEER_GEMM_KINDS]);

/* The fit that times batch products of a math type: its kind's, else the
 * other kind's (a GPU timed on one kind only); .present = 0 when m has
 * neither. */
const seer_gemm_fit_t *seer_model_gemm_fit(const struct seer_model *m, int math, double batch);

/* OVERFLOW ("what MxNxK: ...") when an operand or the result of an
 * m x n x k product has over 2^31-1 elements (the sizes cuBLAS takes). */
seer_status_t seer_gemm_check_size(seer_handle_t h, const char *what, double m, double n, double k);

/* Time (ms) of batch GEMMs C[m x n] += A[m x k] B[k x n] on GPU g with a
 * present fit f of dtype's math type, never under the floor; *cls gets
 * the class of the kernel (which term dominates) when cls is not NULL. */
double seer_gemm_time(const seer_gpu_info_t *g, const seer_gemm_fit_t *f, double batch, double m,
                      double n, double k, seer_dtype_t dt, int bias, seer_class_t *cls);

/* What model m predicts for the GEMM (dt as cuBLAS runs it on m's GPU,
 * seer_gpu_run_dtype): its own fit's time tied to its peers' as conv
 * physics is (gemm.c), so a GPU at least as fast is never slower; -1
 * when m has no fit for dt's math or its GPU cannot run it. */
double seer_model_gemm_time(const struct seer_model *m, double batch, double mm, double n, double k,
                            seer_dtype_t dt, int bias, seer_class_t *cls);
/* The same from m's own fit alone, not tied to its peers (what a caller
 * that ties its own result across GPUs needs, cheaply); -1 likewise. */
double seer_model_gemm_own_time(const struct seer_model *m, double batch, double mm, double n, double k,
                                seer_dtype_t dt, int bias);

/* A lower bound of a GEMM row's GPU time from its GPU's datasheet (its
 * FLOPs at peak or its bytes at bandwidth, plus launch gaps), ms; 0 for
 * a GPU or dtype the table cannot time.  Model-independent: dispatch.h
 * uses it to find the host time in published rows. */
double seer_gemm_floor_ms(seer_handle_t h, const seer_gemm_row_t *r);

/* seer_gemm_shape_in_test_split (seer.h) of a GEMM row. */
int seer_gemm_in_test_split(const seer_gemm_row_t *r);
#endif
