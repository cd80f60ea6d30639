/* The convolution algorithm picker: per-algorithm predictions, workspace
 * formulas (docs/picker.md), cuDNN's determinism and math type. */
#ifndef SEER_PICKER_H
#define SEER_PICKER_H
#include <stddef.h>
#include "seer.h"
#include "conv.h"

#define SEER_MAX_ALGOS 8

/* One algorithm of one direction, as predicted. */
typedef struct {
    int algo;
    seer_status_t st;           /* SUCCESS, or why not (UNSUPPORTED, NOT_CALIBRATED, ...) */
    double time_ms;             /* valid when st is SUCCESS */
    int n_kernels;
    seer_class_t cls;           /* class of the main kernel */
} seer_algo_eval_t;

/* Predict one algorithm (SEER_ALGO_CUDNN_CHOICE allowed) without touching
 * any handle's message; st says how it went. */
void seer_picker_predict(const struct seer_model *m, const struct seer_conv *cv,
                         seer_direction_t dir, int algo, seer_algo_eval_t *out);
/* Every algorithm of dir, in enum order; returns how many. */
int seer_picker_eval(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir,
                     seer_algo_eval_t out[SEER_MAX_ALGOS]);

/* Workspace of an algorithm (docs/picker.md); UNSUPPORTED where cuDNN
 * has no such algorithm for the shape. */
seer_status_t seer_workspace_bytes(seer_handle_t h, const struct seer_conv *cv, seer_direction_t dir,
                                   int algo, size_t *bytes);
/* 1 if cuDNN documents the algorithm as deterministic. */
int seer_algo_deterministic(seer_direction_t dir, int algo);
/* cudnnMathType_t an algorithm runs with for a dtype. */
int seer_algo_math_type(seer_dtype_t dt);
#endif
