/*
 * seer_cudnn.h - optional, header-only glue between libseer's picker and
 * cuDNN's legacy convolution API (docs/picker.md).  Include it only where
 * cudnn.h is available; libseer itself never includes a CUDA header.
 *
 *   seer_cudnn_conv_desc()  fills a seer_conv_desc_t from the x, w and
 *                           convolution descriptors a framework already has
 *   seer_cudnn_get_*_algorithm()
 *                           drop-in replacements for
 *                           cudnnGetConvolution*Algorithm_v7 (plus a
 *                           workspace limit), returning cuDNN's own perf
 *                           structs sorted by libseer's predicted time
 *   seer_cudnn_*_perf(), seer_cudnn_status()
 *                           the element converters they use
 *
 * Status mapping: SUCCESS -> CUDNN_STATUS_SUCCESS; UNSUPPORTED ->
 * CUDNN_STATUS_NOT_SUPPORTED; WORKSPACE_LIMIT -> CUDNN_STATUS_ALLOC_FAILED
 * (what cudnnFind reports when a workspace cannot be had); NOT_CALIBRATED
 * and BAD_PREDICTION -> CUDNN_STATUS_NOT_SUPPORTED, so a framework that takes the first
 * CUDNN_STATUS_SUCCESS entry never picks an algorithm libseer could not
 * time.  When no entry is CUDNN_STATUS_SUCCESS the get functions return
 * CUDNN_STATUS_NOT_SUPPORTED: fall back to cuDNN's own heuristic then.
 */
#ifndef SEER_CUDNN_H
#define SEER_CUDNN_H

#include <stdint.h>
#include <cudnn.h>
#include "seer.h"

#ifdef __cplusplus
extern "C" {
#endif

static inline cudnnStatus_t seer_cudnn_status(seer_status_t st)
{
    switch (st) {
    case SEER_STATUS_SUCCESS: return CUDNN_STATUS_SUCCESS;
    case SEER_STATUS_WORKSPACE_LIMIT: return CUDNN_STATUS_ALLOC_FAILED;
    case SEER_STATUS_ALLOC_FAILED: return CUDNN_STATUS_ALLOC_FAILED;
    case SEER_STATUS_BAD_PARAM: return CUDNN_STATUS_BAD_PARAM;
    default: return CUDNN_STATUS_NOT_SUPPORTED;
    }
}

#define SEER_CUDNN_PERF_CONVERTER(fn, perf_t, algo_t)                                   \
    static inline void fn(const seer_conv_algo_perf_t *in, perf_t *out)                 \
    {                                                                                   \
        out->algo = (algo_t)in->algo;                                                   \
        out->status = seer_cudnn_status(in->status);                                    \
        out->time = in->time >= 0 ? (float)in->time : -1.0f;                            \
        out->memory = in->memory;                                                       \
        out->determinism = in->determinism ? CUDNN_DETERMINISTIC : CUDNN_NON_DETERMINISTIC; \
        out->mathType = (cudnnMathType_t)in->math_type;                                 \
        out->reserved[0] = out->reserved[1] = out->reserved[2] = 0;                     \
    }
SEER_CUDNN_PERF_CONVERTER(seer_cudnn_fwd_perf, cudnnConvolutionFwdAlgoPerf_t, cudnnConvolutionFwdAlgo_t)
SEER_CUDNN_PERF_CONVERTER(seer_cudnn_bwd_data_perf, cudnnConvolutionBwdDataAlgoPerf_t,
                          cudnnConvolutionBwdDataAlgo_t)
SEER_CUDNN_PERF_CONVERTER(seer_cudnn_bwd_filter_perf, cudnnConvolutionBwdFilterAlgoPerf_t,
                          cudnnConvolutionBwdFilterAlgo_t)
#undef SEER_CUDNN_PERF_CONVERTER

/* Describe the convolution of x (4-D tensor), w (4-D filter) and conv
 * (2-D) for libseer.  The libseer dtype follows the data type and math
 * type: float with CUDNN_FMA_MATH is fp32, float with another math type
 * tf32 where the model's GPU has TF32 tensor cores; half with
 * CUDNN_FMA_MATH is fp16_pseudo, else fp16; bfloat16 is bf16.  NHWC when
 * x's channel stride is 1.  Returns CUDNN_STATUS_NOT_SUPPORTED for data
 * types libseer does not model, CUDNN_STATUS_BAD_PARAM when libseer
 * rejects the shape (seer_get_last_error(h) says why), and any cuDNN
 * error of the getters. */
static inline cudnnStatus_t seer_cudnn_conv_desc(seer_handle_t h, const seer_model *model,
                                                 cudnnTensorDescriptor_t x, cudnnFilterDescriptor_t w,
                                                 cudnnConvolutionDescriptor_t conv,
                                                 seer_conv_desc_t out)
{
    cudnnDataType_t xt, wt, ct;
    cudnnTensorFormat_t wf;
    cudnnConvolutionMode_t mode;
    cudnnMathType_t math;
    int n, c, hh, ww, ns, cs, hs, wss, k, wc, r, s, ph, pw, u, v, dh, dw, groups;
    cudnnStatus_t st;
    if ((st = cudnnGetTensor4dDescriptor(x, &xt, &n, &c, &hh, &ww, &ns, &cs, &hs, &wss)) ||
        (st = cudnnGetFilter4dDescriptor(w, &wt, &wf, &k, &wc, &r, &s)) ||
        (st = cudnnGetConvolution2dDescriptor(conv, &ph, &pw, &u, &v, &dh, &dw, &mode, &ct)) ||
        (st = cudnnGetConvolutionGroupCount(conv, &groups)) ||
        (st = cudnnGetConvolutionMathType(conv, &math)))
        return st;
    (void)wf;
    (void)ct;
    (void)mode; /* convolution and cross-correlation cost the same */
    seer_dtype_t dt;
    seer_gpu_info_t gpu;
    if (xt == CUDNN_DATA_FLOAT)
        dt = math != CUDNN_FMA_MATH && seer_model_get_gpu(model, &gpu) == SEER_STATUS_SUCCESS &&
                     gpu.tf32_tflops > 0 ? SEER_DTYPE_TF32 : SEER_DTYPE_FP32;
    else if (xt == CUDNN_DATA_HALF)
        dt = math == CUDNN_FMA_MATH ? SEER_DTYPE_FP16_PSEUDO : SEER_DTYPE_FP16;
    else if (xt == CUDNN_DATA_BFLOAT16)
        dt = SEER_DTYPE_BF16;
    else
        return CUDNN_STATUS_NOT_SUPPORTED;
    seer_layout_t layout = cs == 1 && c > 1 ? SEER_LAYOUT_NHWC : SEER_LAYOUT_NCHW;
    if (seer_conv_desc_set(h, out, dt, layout, n, c, hh, ww, k, r, s, ph, pw, u, v, dh, dw, groups))
        return CUDNN_STATUS_BAD_PARAM;
    return CUDNN_STATUS_SUCCESS;
}

#define SEER_CUDNN_GET(fn, pick, perf_t, conv_fn)                                                  \
    static inline cudnnStatus_t fn(seer_handle_t h, const seer_model *model,                     \
                                   cudnnTensorDescriptor_t x, cudnnFilterDescriptor_t w,          \
                                   cudnnConvolutionDescriptor_t conv, size_t workspace_limit,     \
                                   int requested, int *returned, perf_t *perf)                     \
    {                                                                                              \
        seer_conv_algo_perf_t p[8];                                                                \
        seer_conv_desc_t d = NULL;                                                                 \
        int n = 0;                                                                                 \
        if (!returned || !perf || requested < 1) return CUDNN_STATUS_BAD_PARAM;                    \
        if (seer_conv_desc_create(&d)) return CUDNN_STATUS_ALLOC_FAILED;                           \
        cudnnStatus_t st = seer_cudnn_conv_desc(h, model, x, w, conv, d);                          \
        seer_status_t ss = st ? SEER_STATUS_SUCCESS                                                \
                              : pick(h, model, d, workspace_limit, p, requested < 8 ? requested : 8, &n); \
        seer_conv_desc_destroy(d);                                                                 \
        if (st) return st;                                                                         \
        if (ss != SEER_STATUS_SUCCESS && ss != SEER_STATUS_NOT_CALIBRATED &&                       \
            ss != SEER_STATUS_NO_ALGORITHM && ss != SEER_STATUS_UNSUPPORTED)                       \
            return seer_cudnn_status(ss);                                                          \
        for (int i = 0; i < n; i++) conv_fn(&p[i], &perf[i]);                                      \
        *returned = n;                                                                             \
        return ss == SEER_STATUS_SUCCESS ? CUDNN_STATUS_SUCCESS : CUDNN_STATUS_NOT_SUPPORTED;      \
    }
SEER_CUDNN_GET(seer_cudnn_get_forward_algorithm, seer_pick_conv_algo, cudnnConvolutionFwdAlgoPerf_t,
               seer_cudnn_fwd_perf)
SEER_CUDNN_GET(seer_cudnn_get_backward_data_algorithm, seer_pick_conv_bwd_data_algo,
               cudnnConvolutionBwdDataAlgoPerf_t, seer_cudnn_bwd_data_perf)
SEER_CUDNN_GET(seer_cudnn_get_backward_filter_algorithm, seer_pick_conv_bwd_filter_algo,
               cudnnConvolutionBwdFilterAlgoPerf_t, seer_cudnn_bwd_filter_perf)
#undef SEER_CUDNN_GET

#ifdef __cplusplus
}
#endif

#endif /* SEER_CUDNN_H */
