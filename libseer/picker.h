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
    seer_err_t err;             /* err.st: SUCCESS, or why not (UNSUPPORTED, NOT_CALIBRATED, ...)
                                   with the message a failing call reports (seer_err_report) */
    double time_ms;             /* valid when err.st is SUCCESS */
    int n_kernels;
    seer_class_t cls;           /* class of the main kernel */
    seer_source_t source;       /* calibrated, transferred or analytical */
} seer_algo_eval_t;

/* Predict one algorithm (SEER_ALGO_CUDNN_CHOICE allowed: a backward
 * data's is read as its dual forward conv too, picker.c dual_reading)
 * without touching any handle's message; err says how it went. */
void seer_picker_predict(const struct seer_model *m, const struct seer_conv *cv,
                         seer_direction_t dir, int algo, seer_algo_eval_t *out);
/* out, a reading of one algorithm of cv (seer_picker_predict), at most
 * the same algorithm's time on its SIMT twin (seer_conv_simt_twin,
 * model.h) and, for a grouped conv, on its dense conv (seer_predict_conv
 * says why); its source and class stay its own, as cuDNN's lists keep an
 * algorithm's math type: what seer_pick_conv_*algo rank and a network
 * row of a fixed algorithm takes. */
void seer_picker_algo_caps(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir,
                           seer_algo_eval_t *out);
/* Every algorithm of dir, in enum order; returns how many. */
int seer_picker_eval(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir,
                     seer_algo_eval_t out[SEER_MAX_ALGOS]);

/* 1 for the statuses that answer "this algorithm cannot be timed here"
 * (UNSUPPORTED, NOT_CALIBRATED) rather than report an error. */
int seer_picker_soft(seer_status_t st);

/* The picker rule, the one place it lives: the fastest algorithm whose
 * time comes from measurements (calibrated or transferred); when there
 * is none, what cuDNN's own heuristic launched (SEER_ALGO_CUDNN_CHOICE)
 * if the model has measurements of that (DeepBench's backward passes);
 * else the fastest by the analytical model.  Returns
 * SUCCESS with *out filled, NOT_CALIBRATED (some algorithm exists but the
 * model times none), UNSUPPORTED (none exists for the shape), or the
 * first hard error; never touches a handle's message.  On failure *out
 * is the attempt that failed last (out->err its message): the hard
 * error, or cuDNN's choice. */
seer_status_t seer_picker_best(const struct seer_model *m, const struct seer_conv *cv,
                               seer_direction_t dir, seer_algo_eval_t *out);

/* The forward conv whose output is a unit-stride conv's dx: dy, padded by
 * dil*(R-1) - pad as data (not at all where pad > dil*(R-1), which gives
 * a larger dx), convolved unpadded with the flipped filter, C and K
 * swapped (docs/method.md, "Backward data as a forward conv").  Returns
 * the batch over the dual's, > 0, with *dual set (on an equal chunk of
 * the batch where the padded dy or the dx passes 2^31 elements); 0 for a
 * stride over 1 or a dual past the size limits at one image. */
double seer_bwd_data_dual(const struct seer_conv *cv, struct seer_conv *dual);

/* Workspace of an algorithm (docs/picker.md); UNSUPPORTED where cuDNN
 * has no such algorithm for the shape (the reason in e, if not NULL). */
seer_status_t seer_workspace_bytes(seer_err_t *e, const struct seer_conv *cv, seer_direction_t dir,
                                   int algo, size_t *bytes);
/* 1 if cuDNN documents the algorithm as deterministic. */
int seer_algo_deterministic(seer_direction_t dir, int algo);
/* cudnnMathType_t an algorithm runs with for a dtype. */
int seer_algo_math_type(seer_dtype_t dt);
/* 1 when algo is a plain implicit or explicit GEMM and cv's dtype runs
 * tensor-core math on m's GPU: cuDNN runs it on SIMT kernels
 * (seer_conv_run_dtype), and its time, measured as it may be on FP32
 * kernels, ranks with the analytical guesses rather than above the
 * tensor-core algorithms. */
int seer_picker_simt(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir, int algo);

#endif
