/* The kernel view of a convolution: which kernels cuDNN launches for a
 * (direction, algorithm), the GEMM each main kernel computes, and the
 * work of each kernel.  Tile sizes and occupancy are properties of the
 * kernel variant and come from the model; this module only knows the
 * algorithm's structure. */
#ifndef SEER_LAUNCH_H
#define SEER_LAUNCH_H
#include <math.h>
#include "seer.h"
#include "common.h"
#include "conv.h"
#include "gpu.h"

#define SEER_MAX_KERNELS 4
/* A predicted conv's kernels: its own, and the NCHW<->NHWC transposes
 * around tensor-core kernels (model.c). */
#define SEER_MAX_CONV_KERNELS (SEER_MAX_KERNELS + 3)

typedef struct {
    seer_kernel_role_t role;
    const char *what;           /* "gemm", "im2col", "data_transform", ... */
    /* For the main kernel: the (batched) GEMM it computes. */
    double gm, gn, gk, gbatch;
    double flops;               /* work of the kernel */
    double bytes;               /* minimum DRAM bytes it moves */
    /* An implicit GEMM gathers an operand from a tensor (im2col in
     * place): the tensor's share of the GEMM's A and B operands, at most
     * 1 (x is read R*S/stride^2 times into a 3x3 fwd conv's A); 1 where
     * the operand is materialized (explicit GEMM, transforms). */
    double a_real, b_real;
    /* The main GEMM's FLOPs over the conv's where tensor-core math pads
     * its channels (dims_of); 0 or 1: none.  The FMA kernels cuDNN runs
     * instead where that is faster do the conv's own FLOPs. */
    double pad;
} seer_kview_t;

/* Fill up to SEER_MAX_KERNELS kernels; kernel 0 is the main one.
 * UNSUPPORTED (with a message naming the reason, in e if not NULL) when
 * cuDNN has no such algorithm for this direction/shape, BAD_PARAM for an
 * algo out of range. */
seer_status_t seer_conv_kernels(seer_err_t *e, const struct seer_conv *cv, seer_direction_t dir,
                                int algo, seer_kview_t *k, int *nk);

/* FFT_TILING's tile count and frequencies per tile with side x side
 * tiles; 1 where a filter one tap wide is transformed along one axis
 * alone (launch.c), 0 for 2D tiles.  The filter must fit a transform
 * (r, s <= 32, side), as seer_conv_kernels checks. */
int seer_fft_tiling(const struct seer_conv *cv, double side, double *tiles, double *freq);

/* Number of algorithms of a direction (cuDNN's enum count). */
int seer_algo_count(seer_direction_t dir);
/* What an algorithm is, whatever the direction (cuDNN numbers each
 * direction's algorithms its own way); -1 for an algo out of range. */
enum { SEER_K_GEMM_IMPLICIT, SEER_K_GEMM_PRECOMP, SEER_K_GEMM_EXPLICIT, SEER_K_FFT, SEER_K_FFT_TILING, SEER_K_WINO,
       SEER_K_WINO_NF, SEER_K_NONE };
int seer_algo_kind(seer_direction_t dir, int algo);
/* 1 for the FFT and Winograd algorithms: cuDNN has FP32 and FP16 kernels
 * of them only, no tensor-core TF32 or BF16 ones. */
int seer_algo_transform(seer_direction_t dir, int algo);
/* 1 for the plain implicit and explicit GEMMs (SEER_K_GEMM_IMPLICIT,
 * SEER_K_GEMM_EXPLICIT): cuDNN has no tensor-core kernels of them, so
 * they run SIMT whatever the math (seer_conv_run_dtype). */
int seer_algo_simt(seer_direction_t dir, int algo);
/* 1 for the algorithms cuDNN runs on NCHW data only (the FFTs, the
 * Winograds, the explicit GEMMs and backward-filter ALGO_3): an NHWC
 * conv has the other implicit GEMMs alone (launch.c, check_supported). */
int seer_algo_nchw_only(seer_direction_t dir, int algo);
/* Math class of a dtype: 1 when it runs on tensor cores. */
int seer_dtype_math(seer_dtype_t dt);
/* The dtype cuDNN computes a conv of dtype in on g with algo: the GPU's
 * (seer_gpu_run_dtype), and tensor-core math is allowed, not required,
 * so an algorithm without tensor-core kernels runs its FMA ones.  cuDNN
 * has tensor-core kernels of the precomputed implicit GEMM only (and
 * FP16 ones of the transforms): the plain implicit and explicit GEMMs
 * (seer_algo_simt) run SIMT kernels, FP16 and
 * BF16 data as FP16_PSEUDO (2-byte data, FP32 math), TF32 as FP32; and
 * TF32's transform algorithms run FP32, as does BF16's non-fused
 * Winograd (its only transform: winograd_nonfused transforms
 * <float, __nv_bfloat16> around FP32 SIMT GEMMs in the 96 of its 102
 * BF16 calls of both sweeps, every 3x3 NCHW one, whose kernels were
 * recorded; FFT, FFT_TILING and the fused Winograd NOT_SUPPORTED in every
 * BF16 conv; timed as FP32, whose transformed tensors are FP32 too).
 * Measured with cuDNN 9.14 on an
 * H200 and an H100 (data/{h200-sxm-141gb,h100-sxm5-80gb}/bench/
 * layers.csv): cuDNN's v7 list offers those algorithms for fp16/bf16
 * under DEFAULT math only, and their kernels are SIMT
 * (implicit_convolve_sgemm<__half...>, dgrad_engine, wgrad_alg1_engine).
 * cuDNN's choice (SEER_ALGO_CUDNN_CHOICE) runs the requested math.
 * Every prediction, floor, workspace and classification of a conv goes
 * through it, training too (train.c); g may be NULL (no GPU: the
 * algorithm's rule only). */
static inline seer_dtype_t seer_conv_run_dtype(const seer_gpu_info_t *g, seer_dtype_t dtype, seer_direction_t dir,
                                               int algo)
{
    seer_dtype_t dt = seer_gpu_run_dtype(g, dtype);
    /* BF16 where the GPU has no BF16 at all stays BF16 (cannot run):
     * cuDNN rejects BF16 before Ampere whatever the algorithm, SIMT ones
     * included (seer_gpu_run_dtype) */
    int runs = !(dt == SEER_DTYPE_BF16 && g && !(g->bf16_tflops > 0));
    if (seer_dtype_math(dt) && runs && seer_algo_simt(dir, algo))
        return dt == SEER_DTYPE_TF32 ? SEER_DTYPE_FP32 : SEER_DTYPE_FP16_PSEUDO;
    if (dt == SEER_DTYPE_BF16 && runs && seer_algo_kind(dir, algo) == SEER_K_WINO_NF) return SEER_DTYPE_FP32;
    return dt == SEER_DTYPE_TF32 && seer_algo_transform(dir, algo) ? SEER_DTYPE_FP32 : dt;
}

/* A lower bound of a conv's GPU time on g from the datasheet alone: the
 * main kernel's FLOPs at peak or its bytes at bandwidth, whichever is
 * larger, plus the helper kernels' bytes at bandwidth (kernels run one
 * after the other on the stream), plus a launch gap per kernel (ms); 0
 * when the algorithm or dtype cannot run.  The GEMM counterpart is
 * seer_gemm_floor_ms.  seer_kernels_floor_ms is the same for kernels
 * already computed (seer_conv_kernels). */
double seer_conv_floor_ms(const seer_gpu_info_t *g, const struct seer_conv *cv, seer_direction_t dir,
                          int algo);
double seer_kernels_floor_ms(const seer_gpu_info_t *g, seer_dtype_t dtype, const seer_kview_t *k, int nk);
/* The algorithm whose kernels train cuDNN's choice's family on g: for
 * backward filter, the nonfused Winograd where it runs
 * (seer_choice_winograd) and its floor is below the implicit GEMM's
 * (model.c, physics, costs the choice as the faster of the two); else
 * the implicit GEMM (0). */
int seer_choice_algo(const seer_gpu_info_t *g, const struct seer_conv *cv, seer_direction_t dir);
/* The floor (seer_conv_floor_ms) of the kernels that cost cuDNN's choice
 * on g: seer_choice_algo's, in the math the choice runs
 * (seer_conv_run_dtype of SEER_ALGO_CUDNN_CHOICE: the requested one, as
 * its tensor-core kernels run it, even where algorithm 0, whose
 * structure it borrows, runs SIMT). */
double seer_choice_kernels_floor_ms(const seer_gpu_info_t *g, const struct seer_conv *cv, seer_direction_t dir);
/* Whether cuDNN's choice of dir in dtype on g may be the nonfused
 * Winograd: backward filter, in the math the choice runs (TF32's
 * Winograd runs FP32, another math's family). */
static inline int seer_choice_winograd(const seer_gpu_info_t *g, seer_dtype_t dtype, seer_direction_t dir)
{
    return dir == SEER_DIR_BWD_FILTER && seer_conv_run_dtype(g, dtype, dir, SEER_BWD_FILTER_ALGO_WINOGRAD_NONFUSED) ==
                                             seer_conv_run_dtype(g, dtype, dir, SEER_ALGO_CUDNN_CHOICE);
}
/* The main kernel's time at its math's peak (ms): where tensor-core
 * math pads the channels, the faster of the padded GEMM on tensor cores
 * and the conv's own FLOPs at the FP32 FMA rate (cuDNN's FMA kernels). */
double seer_main_flops_ms(const seer_gpu_info_t *g, seer_dtype_t dtype, const seer_kview_t *k);
/* What the floor reads of an algorithm's kernels, summed once where one
 * set of kernels is floored on many GPUs (cuDNN's choice's tie). */
typedef struct {
    double flops, pad;          /* the main kernel's */
    double main_bytes, bytes;   /* the main kernel's (an FFT's: with its transforms'), all kernels' */
    int nk;
} seer_kwork_t;
void seer_kernels_work(const seer_kview_t *k, int nk, seer_kwork_t *w);
/* seer_main_flops_ms from the rates (FLOP/s of the math and of FP32 FMA). */
static inline double seer_main_ms_at(double flops, double pad, double peak, double fma)
{
    double ms = flops / peak * 1e3;
    return pad > 1 && fma > 0 ? fmin(ms, flops / pad / fma * 1e3) : ms;
}
/* seer_kernels_floor_ms of the kernels' work, from the GPU's rates (those,
 * DRAM bytes/s, launch gap in ms), read once for a loop over many
 * algorithms on one GPU. */
static inline double seer_work_floor_at(double peak, double fma, double bw, double gap_ms, const seer_kwork_t *w)
{
    if (peak <= 0 || w->nk < 1) return 0;
    return fmax(seer_main_ms_at(w->flops, w->pad, peak, fma), w->main_bytes / bw * 1e3) +
           (w->bytes - w->main_bytes) / bw * 1e3 + w->nk * gap_ms;
}
#endif
