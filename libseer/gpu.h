/* GPU table: datasheet facts per GPU, and derived peak rates. */
#ifndef SEER_GPU_H
#define SEER_GPU_H
#include "seer.h"

/* Table entry by id or alias (case-insensitive); NULL if unknown. */
const seer_gpu_info_t *seer_gpu_lookup(const char *id);

/* Peak math rate of a GPU for a dtype, FLOP/s.  FP32 and FP16_PSEUDO use
 * the FP32 FMA rate; TF32/FP16/BF16 the dense tensor-core rate.  Returns 0
 * when the GPU cannot run that math (BF16/TF32 before Ampere, FP16
 * tensor cores before Volta). */
double seer_gpu_peak_flops(const seer_gpu_info_t *g, seer_dtype_t dtype);

/* Time between back-to-back kernels on a stream, ms: what a kernel adds
 * beyond its own work.  seer-bench measured 3.0 us (H200) and 4.5 us
 * (H100) from one empty kernel to the next (shared/data/gpu-ceilings.csv);
 * every GPU takes 3 us until it has a measurement of its own. */
#define SEER_LAUNCH_GAP_MS 0.003
double seer_gpu_launch_gap_ms(const seer_gpu_info_t *g);

/* 1 when two GPUs have the same datasheet facts, memory size aside:
 * then they must predict the same (id, name and capacity are not facts
 * a kernel's time depends on). */
int seer_gpu_same_facts(const seer_gpu_info_t *a, const seer_gpu_info_t *b);

/* Whether a is at least as fast as b on every ceiling: FP32 rate, DRAM
 * bandwidth, SMs and L2 (a GPU with the same facts too). */
int seer_gpu_dominates(const seer_gpu_info_t *a, const seer_gpu_info_t *b);

/* DRAM bandwidth in bytes/s. */
double seer_gpu_dram_bw(const seer_gpu_info_t *g);
#endif
