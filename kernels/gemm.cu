/* kernels/gemm.cu - tensor-core peak rates through cuBLAS.
 *
 * Hand-written MMA loops reach the peak only with per-architecture tuning;
 * cuBLAS's large square GEMMs are what the peak is in practice, and what
 * cuDNN's own tensor-core kernels are compared with. */
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <stdio.h>
#include <algorithm>
#include "micro.h"

static const char *seer_cublas_name(cublasStatus_t s)
{
    switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
    default: return "CUBLAS_STATUS_UNKNOWN";
    }
}

#define SEER_CU(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    snprintf(err, errlen, "%s: %s", #call, cudaGetErrorName(e_)); goto out; } } while (0)
#define SEER_CB(call) do { cublasStatus_t s_ = (call); if (s_ != CUBLAS_STATUS_SUCCESS) { \
    snprintf(err, errlen, "%s: %s", #call, seer_cublas_name(s_)); goto out; } } while (0)

extern "C" int seer_micro_gemm(int kind, int n, double *tflops, char *err, size_t errlen)
{
    int rc = -1;
    cublasHandle_t h = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    void *a = NULL, *b = NULL, *c = NULL;
    double t[SEER_MICRO_REPEATS];
    const float alpha = 1.0f, beta = 0.0f;
    cudaDataType_t type;
    cublasComputeType_t compute;
    size_t esize;
    int fill;
    if (errlen) err[0] = 0;
    switch (kind) {
    case 0: type = CUDA_R_16F; compute = CUBLAS_COMPUTE_32F; esize = 2; fill = SEER_FILL_F16; break;
    case 1: type = CUDA_R_16BF; compute = CUBLAS_COMPUTE_32F; esize = 2; fill = SEER_FILL_BF16; break;
    case 2: type = CUDA_R_32F; compute = CUBLAS_COMPUTE_32F_FAST_TF32; esize = 4; fill = SEER_FILL_F32; break;
    default: snprintf(err, errlen, "bad GEMM kind %d", kind); return -1;
    }
    if (n < 256) { snprintf(err, errlen, "GEMM size %d too small", n); return -1; }
    {
        size_t elems = (size_t)n * n, bytes = elems * esize;
        SEER_CU(cudaMalloc(&a, bytes));
        SEER_CU(cudaMalloc(&b, bytes));
        SEER_CU(cudaMalloc(&c, bytes));
        SEER_CU(seer_kernels_fill(a, elems, fill, 41, 0));
        SEER_CU(seer_kernels_fill(b, elems, fill, 42, 0));
        SEER_CU(seer_kernels_fill(c, elems, fill, 43, 0));
    }
    SEER_CB(cublasCreate(&h));
    SEER_CB(cublasSetStream(h, 0));
    SEER_CU(cudaEventCreate(&e0));
    SEER_CU(cudaEventCreate(&e1));
    for (int r = -2; r < SEER_MICRO_REPEATS; r++) { /* r < 0: warm-up (heuristics, module load) */
        float ms = 0;
        SEER_CU(cudaEventRecord(e0, 0));
        SEER_CB(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, type, n, b, type, n,
                             &beta, c, type, n, compute, CUBLAS_GEMM_DEFAULT));
        SEER_CU(cudaEventRecord(e1, 0));
        SEER_CU(cudaEventSynchronize(e1));
        SEER_CU(cudaEventElapsedTime(&ms, e0, e1));
        if (r >= 0) t[r] = ms;
    }
    std::sort(t, t + SEER_MICRO_REPEATS);
    *tflops = 2.0 * (double)n * n * n / (t[SEER_MICRO_REPEATS / 2] * 1e-3) / 1e12;
    rc = 0;
out:
    /* cleanup is checked too: a failure here turns a success into one */
    if (e0 && cudaEventDestroy(e0) != cudaSuccess) rc = -1;
    if (e1 && cudaEventDestroy(e1) != cudaSuccess) rc = -1;
    if (h && cublasDestroy(h) != CUBLAS_STATUS_SUCCESS) rc = -1;
    if (cudaFree(a) != cudaSuccess || cudaFree(b) != cudaSuccess || cudaFree(c) != cudaSuccess) rc = -1;
    if (rc != 0 && !err[0]) snprintf(err, errlen, "GEMM cleanup failed");
    return rc;
}
