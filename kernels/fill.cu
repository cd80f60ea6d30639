/* kernels/fill.cu - cheap pseudo-random fill for measured buffers, and the
 * stream hold that makes CUDA events time GPU work only. */
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <stdint.h>
#include "micro.h"

/* splitmix64 finalizer: decorrelates neighbouring indices. */
__device__ __forceinline__ uint64_t seer_mix(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* (x + 0.5) / 2^23 - 1 with x < 2^24 lies in (-1, 1) and is never 0. */
__device__ __forceinline__ float seer_unit(uint64_t seed, size_t i)
{
    uint32_t x = (uint32_t)(seer_mix(seed ^ (uint64_t)i) >> 40);
    return ((float)x + 0.5f) * (1.0f / 8388608.0f) - 1.0f;
}

template <typename T> __device__ __forceinline__ T seer_cast(float v);
template <> __device__ __forceinline__ float seer_cast<float>(float v) { return v; }
template <> __device__ __forceinline__ __half seer_cast<__half>(float v) { return __float2half_rn(v); }
template <> __device__ __forceinline__ __nv_bfloat16 seer_cast<__nv_bfloat16>(float v)
{
    return __float2bfloat16_rn(v);
}

template <typename T>
__global__ void seer_fill_kernel(T *p, size_t n, uint64_t seed)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        p[i] = seer_cast<T>(seer_unit(seed, i));
}

extern "C" cudaError_t seer_kernels_fill(void *p, size_t count, int kind, unsigned long long seed,
                                         cudaStream_t stream)
{
    if (count == 0) return cudaSuccess;
    if (!p) return cudaErrorInvalidValue;
    const int threads = 256;
    size_t want = (count + threads - 1) / threads;
    unsigned blocks = (unsigned)(want < 65536 ? want : 65536);
    switch (kind) {
    case SEER_FILL_F32:
        seer_fill_kernel<float><<<blocks, threads, 0, stream>>>((float *)p, count, seed);
        break;
    case SEER_FILL_F16:
        seer_fill_kernel<__half><<<blocks, threads, 0, stream>>>((__half *)p, count, seed);
        break;
    case SEER_FILL_BF16:
        seer_fill_kernel<__nv_bfloat16><<<blocks, threads, 0, stream>>>((__nv_bfloat16 *)p, count,
                                                                         seed);
        break;
    default:
        return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* One thread polls the mapped flag; %globaltimer (ns) bounds the wait so a
 * host that never releases (an error path, a blocking call inside cuDNN)
 * cannot hang the GPU. */
__global__ void seer_hold_kernel(volatile int *flag, unsigned long long timeout_ns)
{
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    for (;;) {
        if (*flag != 0) return;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        if (t - t0 > timeout_ns) {
            *flag = 2;
            __threadfence_system();
            return;
        }
        __nanosleep(1000);
    }
}

extern "C" cudaError_t seer_kernels_hold(volatile int *dev_flag, unsigned long long timeout_ns,
                                         cudaStream_t stream)
{
    if (!dev_flag) return cudaErrorInvalidValue;
    seer_hold_kernel<<<1, 1, 0, stream>>>(dev_flag, timeout_ns);
    return cudaGetLastError();
}
