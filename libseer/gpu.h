/* GPU table: datasheet facts per GPU, and derived peak rates (the
 * accessors a prediction calls hundreds of times inline). */
#ifndef SEER_GPU_H
#define SEER_GPU_H
#include "seer.h"

/* Table entry by id or alias (case-insensitive); NULL if unknown. */
const seer_gpu_info_t *seer_gpu_lookup(const char *id);
/* The same without the loose brand-word matching ("Tesla V100" as v100):
 * what a GPU description file's id must not collide with. */
const seer_gpu_info_t *seer_gpu_lookup_strict(const char *id);
/* GPU names as lookups compare them: ASCII case ignored, ' ', '_' and '-'
 * alike. */
int seer_gpu_name_eq(const char *a, const char *b);

/* Peak math rate of a GPU for a dtype, FLOP/s.  FP32 and FP16_PSEUDO use
 * the FP32 FMA rate; TF32/FP16/BF16 the dense tensor-core rate.  Returns 0
 * when the GPU cannot run that math (BF16/TF32 before Ampere, FP16
 * tensor cores before Volta). */
static inline double seer_gpu_peak_flops(const seer_gpu_info_t *g, seer_dtype_t dtype)
{
    if (!g) return 0;
    switch (dtype) {
    case SEER_DTYPE_FP32:
    case SEER_DTYPE_FP16_PSEUDO: return g->fp32_tflops * 1e12;
    case SEER_DTYPE_TF32: return g->tf32_tflops * 1e12;
    case SEER_DTYPE_FP16: return g->fp16_tflops * 1e12;
    case SEER_DTYPE_BF16: return g->bf16_tflops * 1e12;
    }
    return 0;
}

/* The share of the FP32 FMA peak that SIMT kernels can issue on g.  An
 * SM of GA10x, AD10x or GH100 (compute capability 8.6 and later, 128 FP32
 * lanes) has 32 FP32 lanes per scheduler, which issues one warp
 * instruction a clock: FFMAs alone fill every issue slot, so each load,
 * address or loop instruction costs FMA throughput, where the 16 lanes
 * per scheduler of GV100, TU10x and GA100 (64 per SM) leave every other
 * slot free (Pascal's and Maxwell's 128 lanes dual-issue).  Served with
 * no Hopper model, the FP32 convs of the H100 and H200 sweeps' network
 * layers came out at a median 0.77 and 0.69 of their measured time, and
 * the fastest FP32 GEMMs measured reach 78 % of the H100's and H200's
 * peak against 93 % of the A100's (docs/method.md, "FMA issue on
 * 128-lane SMs"). */
#define SEER_FMA_ISSUE_SHARE 0.75
static inline double seer_gpu_fma_issue_share(const seer_gpu_info_t *g)
{
    int cc = g ? g->cc_major * 10 + g->cc_minor : 0;
    double lanes = g && g->sms > 0 && g->boost_mhz > 0 ? g->fp32_tflops * 1e6 / (2.0 * g->sms * g->boost_mhz) : 0;
    return cc >= 86 && lanes > 96 ? SEER_FMA_ISSUE_SHARE : 1;
}

/* The math rate a kernel's formula divides its FLOPs by (FLOP/s): the
 * dtype's peak, FMA math's at its issue share.  Floors and rooflines keep
 * the datasheet peak (seer_gpu_peak_flops): they bound from below. */
static inline double seer_gpu_kernel_peak(const seer_gpu_info_t *g, seer_dtype_t dtype)
{
    double p = seer_gpu_peak_flops(g, dtype);
    return dtype == SEER_DTYPE_FP32 || dtype == SEER_DTYPE_FP16_PSEUDO ? p * seer_gpu_fma_issue_share(g) : p;
}

/* The math cuDNN runs when asked for dtype on g.  TF32 is FP32 data with
 * tensor cores allowed, not required: a GPU without TF32 tensor cores
 * (before Ampere) runs FP32.  FP16 asks for tensor-core math with FP32
 * accumulation (what PyTorch requests): without FP16 tensor cores (before
 * Volta) that is FP16 data with FP32 math, FP16_PSEUDO.  BF16 stays BF16:
 * cuDNN has no BF16 kernels before Ampere (seer_gpu_peak_flops is 0). */
static inline seer_dtype_t seer_gpu_run_dtype(const seer_gpu_info_t *g, seer_dtype_t dtype)
{
    if (dtype == SEER_DTYPE_TF32 && g && !(g->tf32_tflops > 0)) return SEER_DTYPE_FP32;
    if (dtype == SEER_DTYPE_FP16 && g && !(g->fp16_tflops > 0)) return SEER_DTYPE_FP16_PSEUDO;
    return dtype;
}

/* Time between back-to-back kernels on a stream, ms: what a kernel adds
 * beyond its own work.  seer-bench measured 3.0 us (H200) and 4.5 us
 * (H100) from one empty kernel to the next (shared/data/gpu-ceilings.csv);
 * every GPU takes 3 us until it has a measurement of its own. */
#define SEER_LAUNCH_GAP_MS 0.003
static inline double seer_gpu_launch_gap_ms(const seer_gpu_info_t *g)
{
    (void)g;
    return SEER_LAUNCH_GAP_MS;
}

/* 1 when two GPUs have the same datasheet facts, memory size aside:
 * then they must predict the same (id, name and capacity are not facts
 * a kernel's time depends on). */
int seer_gpu_same_facts(const seer_gpu_info_t *a, const seer_gpu_info_t *b);

/* 1 when two GPUs are one chip at one clock (same architecture, SM count
 * and boost clock: the same compute peak and waves), differing at most in
 * memory size and bandwidth, as the A100 40GB and 80GB PCIe. */
int seer_gpu_siblings(const seer_gpu_info_t *a, const seer_gpu_info_t *b);

/* Whether a is at least as fast as b on every ceiling: FP32 rate, DRAM
 * bandwidth, SMs and L2 (a GPU with the same facts too). */
int seer_gpu_dominates(const seer_gpu_info_t *a, const seer_gpu_info_t *b);

/* DRAM bandwidth in bytes/s: the datasheet peak. */
static inline double seer_gpu_dram_bw(const seer_gpu_info_t *g)
{
    return g ? g->dram_gbps * 1e9 : 0;
}

/* What a streaming kernel (batch norm, activations, copies, the
 * optimizer) achieves, bytes/s: the GPU's measured copy rate
 * (dram_stream_gbps, from seer-bench) where it has one, else the
 * datasheet peak times SEER_DRAM_STREAM_SHARE.  The share is the one
 * architecture measured so far: seer-bench's copy kernel reached 2742 of
 * 3350 GB/s on an H100 SXM5 (0.82) and 3854 of 4800 on an H200 (0.80),
 * shared/data/gpu-ceilings.csv; DRAM refresh, read/write turnaround and
 * the memory controllers' queueing cost every HBM/GDDR generation a
 * similar share, so other architectures take it until measured. */
#define SEER_DRAM_STREAM_SHARE 0.81
double seer_gpu_stream_bw(const seer_gpu_info_t *g);
#endif
