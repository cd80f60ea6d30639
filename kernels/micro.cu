/* kernels/micro.cu - microbenchmarks for the measured GPU profile.
 *
 * Each benchmark: warm-up launches, then SEER_MICRO_REPEATS runs timed with
 * CUDA events, median reported.  Inputs come from seer_kernels_fill (never
 * zeros) and every kernel makes its result observable, so the compiler
 * cannot drop the work. */
#include <cuda_runtime.h>
#include <stdint.h>
#include <time.h>
#include <algorithm>
#include "micro.h"

#define SEER_TRY(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { err = e_; goto out; } } while (0)
/* Cleanup: still checked, reported when nothing failed before. */
#define SEER_DROP(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess && err == cudaSuccess) err = e_; } while (0)

static double seer_median(double *v, int n)
{
    std::sort(v, v + n);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int seer_sm_count(int *sms)
{
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) return -1;
    return cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, dev) == cudaSuccess ? 0 : -1;
}

/* ---- FP32 FMA ---------------------------------------------------------- */

#define SEER_FMA_CHAINS 8
#define SEER_FMA_UNROLL 16

/* Eight independent dependency chains per thread hide the FMA latency;
 * a = a*b + c with |b| < 1 stays bounded, so no inf/NaN slow paths. */
__global__ void seer_fma_kernel(const float *in, float *out, int iters)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float b = in[t & 1023] * 0.5f, c = in[(t + 7) & 1023];
    float a[SEER_FMA_CHAINS];
#pragma unroll
    for (int j = 0; j < SEER_FMA_CHAINS; j++) a[j] = in[(t + 13 * j) & 1023];
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < SEER_FMA_UNROLL; u++) {
#pragma unroll
            for (int j = 0; j < SEER_FMA_CHAINS; j++) a[j] = fmaf(a[j], b, c);
        }
    }
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < SEER_FMA_CHAINS; j++) s += a[j];
    if (s == 1234.5678f) out[t] = s; /* practically never: keeps the work live */
}

extern "C" cudaError_t seer_micro_fp32(double *tflops)
{
    cudaError_t err = cudaSuccess;
    float *in = NULL, *out = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    double t[SEER_MICRO_REPEATS];
    int sms = 0;
    const int threads = 256, iters = 4096;
    if (seer_sm_count(&sms) != 0) return cudaErrorInvalidDevice;
    const int blocks = sms * 8; /* 2048 threads per SM: full occupancy */
    SEER_TRY(cudaMalloc((void **)&in, 1024 * sizeof(float)));
    SEER_TRY(cudaMalloc((void **)&out, (size_t)blocks * threads * sizeof(float)));
    SEER_TRY(seer_kernels_fill(in, 1024, SEER_FILL_F32, 11, 0));
    SEER_TRY(cudaEventCreate(&e0));
    SEER_TRY(cudaEventCreate(&e1));
    for (int w = 0; w < 2; w++) seer_fma_kernel<<<blocks, threads>>>(in, out, iters);
    SEER_TRY(cudaGetLastError());
    for (int r = 0; r < SEER_MICRO_REPEATS; r++) {
        float ms = 0;
        SEER_TRY(cudaEventRecord(e0, 0));
        seer_fma_kernel<<<blocks, threads>>>(in, out, iters);
        SEER_TRY(cudaGetLastError());
        SEER_TRY(cudaEventRecord(e1, 0));
        SEER_TRY(cudaEventSynchronize(e1));
        SEER_TRY(cudaEventElapsedTime(&ms, e0, e1));
        t[r] = ms;
    }
    {
        double flops = 2.0 * SEER_FMA_CHAINS * SEER_FMA_UNROLL * (double)iters * blocks * threads;
        *tflops = flops / (seer_median(t, SEER_MICRO_REPEATS) * 1e-3) / 1e12;
    }
out:
    if (e0) SEER_DROP(cudaEventDestroy(e0));
    if (e1) SEER_DROP(cudaEventDestroy(e1));
    SEER_DROP(cudaFree(in));
    SEER_DROP(cudaFree(out));
    return err;
}

/* ---- DRAM and L2 --------------------------------------------------------- */

__global__ void seer_read_kernel(const float4 *__restrict__ p, size_t n4, float *out)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    /* four loads in flight per thread before they are consumed */
    for (; i + 3 * stride < n4; i += 4 * stride) {
        float4 v0 = p[i], v1 = p[i + stride], v2 = p[i + 2 * stride], v3 = p[i + 3 * stride];
        acc.x += v0.x + v1.x + v2.x + v3.x;
        acc.y += v0.y + v1.y + v2.y + v3.y;
        acc.z += v0.z + v1.z + v2.z + v3.z;
        acc.w += v0.w + v1.w + v2.w + v3.w;
    }
    for (; i < n4; i += stride) {
        float4 v = p[i];
        acc.x += v.x; acc.y += v.y; acc.z += v.z; acc.w += v.w;
    }
    float s = acc.x + acc.y + acc.z + acc.w;
    if (s == -12345.678f) out[0] = s;
}

__global__ void seer_write_kernel(float4 *__restrict__ p, size_t n4, float v)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
        float f = v + (float)(i & 1023) * 1e-4f;
        p[i] = make_float4(f, -f, f, -f);
    }
}

__global__ void seer_copy_kernel(const float4 *__restrict__ src, float4 *__restrict__ dst, size_t n4)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride)
        dst[i] = src[i];
}

/* L1-bypassing loads (ld.global.cg): the data comes from L2 every time. */
__global__ void seer_l2_kernel(const float4 *__restrict__ p, size_t n4, int passes, float *out)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int pass = 0; pass < passes; pass++) {
        for (size_t i = first; i < n4; i += stride) {
            float4 v = __ldcg(p + i);
            acc.x += v.x; acc.y += v.y; acc.z += v.z; acc.w += v.w;
        }
    }
    float s = acc.x + acc.y + acc.z + acc.w;
    if (s == -12345.678f) out[0] = s;
}

enum { SEER_BW_READ, SEER_BW_WRITE, SEER_BW_COPY, SEER_BW_L2 };

static cudaError_t seer_time_bw(int what, float4 *a, float4 *b, size_t n4, int passes, float *out,
                                int blocks, double *ms_median)
{
    cudaError_t err = cudaSuccess;
    cudaEvent_t e0 = NULL, e1 = NULL;
    double t[SEER_MICRO_REPEATS];
    const int threads = 256;
    SEER_TRY(cudaEventCreate(&e0));
    SEER_TRY(cudaEventCreate(&e1));
    for (int r = -2; r < SEER_MICRO_REPEATS; r++) { /* r < 0: warm-up */
        float ms = 0;
        SEER_TRY(cudaEventRecord(e0, 0));
        switch (what) {
        case SEER_BW_READ: seer_read_kernel<<<blocks, threads>>>(a, n4, out); break;
        case SEER_BW_WRITE: seer_write_kernel<<<blocks, threads>>>(a, n4, 0.25f + r); break;
        case SEER_BW_COPY: seer_copy_kernel<<<blocks, threads>>>(a, b, n4); break;
        default: seer_l2_kernel<<<blocks, threads>>>(a, n4, passes, out); break;
        }
        SEER_TRY(cudaGetLastError());
        SEER_TRY(cudaEventRecord(e1, 0));
        SEER_TRY(cudaEventSynchronize(e1));
        SEER_TRY(cudaEventElapsedTime(&ms, e0, e1));
        if (r >= 0) t[r] = ms;
    }
    *ms_median = seer_median(t, SEER_MICRO_REPEATS);
out:
    if (e0) SEER_DROP(cudaEventDestroy(e0));
    if (e1) SEER_DROP(cudaEventDestroy(e1));
    return err;
}

extern "C" cudaError_t seer_micro_dram(size_t bytes, double *read_gbps, double *write_gbps,
                                       double *copy_gbps)
{
    cudaError_t err = cudaSuccess;
    float4 *a = NULL, *b = NULL;
    float *out = NULL;
    int sms = 0;
    double ms_r = 0, ms_w = 0, ms_c = 0;
    size_t n4 = bytes / sizeof(float4);
    if (n4 == 0) return cudaErrorInvalidValue;
    if (seer_sm_count(&sms) != 0) return cudaErrorInvalidDevice;
    bytes = n4 * sizeof(float4);
    SEER_TRY(cudaMalloc((void **)&a, bytes));
    SEER_TRY(cudaMalloc((void **)&b, bytes));
    SEER_TRY(cudaMalloc((void **)&out, sizeof(float)));
    SEER_TRY(seer_kernels_fill(a, n4 * 4, SEER_FILL_F32, 21, 0));
    SEER_TRY(seer_kernels_fill(b, n4 * 4, SEER_FILL_F32, 22, 0));
    SEER_TRY(seer_time_bw(SEER_BW_READ, a, NULL, n4, 1, out, sms * 8, &ms_r));
    SEER_TRY(seer_time_bw(SEER_BW_WRITE, b, NULL, n4, 1, out, sms * 8, &ms_w));
    SEER_TRY(seer_time_bw(SEER_BW_COPY, a, b, n4, 1, out, sms * 8, &ms_c));
    *read_gbps = (double)bytes / (ms_r * 1e-3) / 1e9;
    *write_gbps = (double)bytes / (ms_w * 1e-3) / 1e9;
    *copy_gbps = 2.0 * (double)bytes / (ms_c * 1e-3) / 1e9;
out:
    SEER_DROP(cudaFree(a));
    SEER_DROP(cudaFree(b));
    SEER_DROP(cudaFree(out));
    return err;
}

extern "C" cudaError_t seer_micro_l2(size_t bytes, int passes, double *gbps)
{
    cudaError_t err = cudaSuccess;
    float4 *a = NULL;
    float *out = NULL;
    int sms = 0;
    double ms = 0;
    size_t n4 = bytes / sizeof(float4);
    if (n4 == 0 || passes < 1) return cudaErrorInvalidValue;
    if (seer_sm_count(&sms) != 0) return cudaErrorInvalidDevice;
    bytes = n4 * sizeof(float4);
    SEER_TRY(cudaMalloc((void **)&a, bytes));
    SEER_TRY(cudaMalloc((void **)&out, sizeof(float)));
    SEER_TRY(seer_kernels_fill(a, n4 * 4, SEER_FILL_F32, 31, 0));
    SEER_TRY(seer_time_bw(SEER_BW_L2, a, NULL, n4, passes, out, sms * 8, &ms));
    *gbps = (double)bytes * passes / (ms * 1e-3) / 1e9;
out:
    SEER_DROP(cudaFree(a));
    SEER_DROP(cudaFree(out));
    return err;
}

/* ---- launch latency ------------------------------------------------------ */

__global__ void seer_empty_kernel(void) {}

static double seer_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

extern "C" cudaError_t seer_micro_launch(double *us, double *sync_us)
{
    cudaError_t err = cudaSuccess;
    cudaEvent_t e0 = NULL, e1 = NULL;
    cudaStream_t st = NULL;
    double t[SEER_MICRO_REPEATS], ts[64];
    const int burst = 1000;
    SEER_TRY(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    SEER_TRY(cudaEventCreate(&e0));
    SEER_TRY(cudaEventCreate(&e1));
    for (int i = 0; i < 100; i++) seer_empty_kernel<<<1, 32, 0, st>>>();
    SEER_TRY(cudaGetLastError());
    SEER_TRY(cudaStreamSynchronize(st));
    for (int r = 0; r < SEER_MICRO_REPEATS; r++) {
        float ms = 0;
        SEER_TRY(cudaEventRecord(e0, st));
        for (int i = 0; i < burst; i++) seer_empty_kernel<<<1, 32, 0, st>>>();
        SEER_TRY(cudaGetLastError());
        SEER_TRY(cudaEventRecord(e1, st));
        SEER_TRY(cudaEventSynchronize(e1));
        SEER_TRY(cudaEventElapsedTime(&ms, e0, e1));
        t[r] = ms * 1e3 / burst;
    }
    for (int r = 0; r < 64; r++) {
        double t0 = seer_now_us();
        seer_empty_kernel<<<1, 32, 0, st>>>();
        SEER_TRY(cudaGetLastError());
        SEER_TRY(cudaStreamSynchronize(st));
        ts[r] = seer_now_us() - t0;
    }
    *us = seer_median(t, SEER_MICRO_REPEATS);
    *sync_us = seer_median(ts, 64);
out:
    if (e0) SEER_DROP(cudaEventDestroy(e0));
    if (e1) SEER_DROP(cudaEventDestroy(e1));
    if (st) SEER_DROP(cudaStreamDestroy(st));
    return err;
}
