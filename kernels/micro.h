/* kernels/micro.h - C interface to the CUDA side of seer-bench: the
 * random fill used for every measured buffer and the microbenchmarks
 * that give the measured GPU profile (docs/seer-bench.md).
 *
 * Every function returns the first CUDA (or cuBLAS) error it met and
 * leaves its outputs untouched on failure; none of them exits or prints.
 * All benchmarks run on the current device: warm-up first, then the
 * median of SEER_MICRO_REPEATS timed runs (CUDA events). */
#ifndef SEER_KERNELS_MICRO_H
#define SEER_KERNELS_MICRO_H
#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SEER_MICRO_REPEATS 9

enum { SEER_FILL_F32 = 0, SEER_FILL_F16 = 1, SEER_FILL_BF16 = 2 };

/* Fill count elements of the given kind with a cheap hash pattern in
 * (-1, 1), never exactly zero: zeros would let the hardware and some
 * kernels take shortcuts that real data does not allow. */
cudaError_t seer_kernels_fill(void *p, size_t count, int kind, unsigned long long seed,
                              cudaStream_t stream);

/* Hold `stream` until the host writes a nonzero value to *flag (host
 * memory mapped into the device, cudaHostAllocMapped; dev_flag is its
 * device pointer), so that the work the host enqueues behind it runs back
 * to back once released: events recorded behind the hold then bracket GPU
 * work only, not the host's enqueueing.  The kernel gives up after
 * timeout_ns (GPU global timer) and sets *dev_flag to 2 so the host can
 * tell that its enqueueing outlasted the hold. */
cudaError_t seer_kernels_hold(volatile int *dev_flag, unsigned long long timeout_ns,
                              cudaStream_t stream);

/* Peak FP32 FMA rate, TFLOP/s (2 flops per FMA). */
cudaError_t seer_micro_fp32(double *tflops);

/* DRAM bandwidth, GB/s (1e9 B/s), on buffers of `bytes` each (make them
 * several times the L2).  copy counts the bytes read plus written. */
cudaError_t seer_micro_dram(size_t bytes, double *read_gbps, double *write_gbps,
                            double *copy_gbps);

/* L2 read bandwidth, GB/s: a buffer of `bytes` (about half of L2) read
 * `passes` times with L1-bypassing loads. */
cudaError_t seer_micro_l2(size_t bytes, int passes, double *gbps);

/* Empty-kernel launch cost: *us is the GPU time per launch in a
 * back-to-back stream of launches; *sync_us is the host round trip of
 * one launch plus stream synchronize. */
cudaError_t seer_micro_launch(double *us, double *sync_us);

/* Tensor-core GEMM rate with cuBLAS (cublasGemmEx, n x n x n, CUBLAS_OP_N,
 * default algorithm), TFLOP/s.  kind: 0 = FP16 in/out, FP32 accumulate;
 * 1 = BF16 in/out, FP32 accumulate; 2 = FP32 in/out with
 * CUBLAS_COMPUTE_32F_FAST_TF32.  Returns 0, or -1 with a message in err
 * (cuBLAS status name or CUDA error name). */
int seer_micro_gemm(int kind, int n, double *tflops, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
