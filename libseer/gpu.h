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

/* DRAM bandwidth in bytes/s. */
double seer_gpu_dram_bw(const seer_gpu_info_t *g);
#endif
