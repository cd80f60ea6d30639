/* GPU table (datasheet facts, sources in docs/gpus.md), the CUDA
 * occupancy calculator and wave counting. */
#include <limits.h>
#include <stddef.h>
#include <string.h>
#include "common.h"
#include "gpu.h"
#include "gpufile.h"

#define KIB 1024
#define MIB (1024 * 1024)

/* Peak FP32 rate from the SM count and boost clock: every FP32 lane does
 * one FMA (2 flops) per clock. */
#define FP32_TFLOPS(lanes_per_sm, sms, mhz) (2.0 * (lanes_per_sm) * (sms) * (mhz) / 1e6)

/* Per-SM limits by compute capability: CUDA C++ Programming Guide,
 * "Technical Specifications per Compute Capability", and cuda_occupancy.h
 * for the allocation granularities and the per-block shared memory
 * reservation (1 KB from Ampere on).  255 registers per thread is the
 * guide's (and ptxas') limit; cuda_occupancy.h checks against 256. */
#define COMMON_LIMITS                                                       \
    .regs_per_sm = 65536, .regs_per_block = 65536, .max_regs_per_thread = 255, \
    .reg_alloc_unit = 256, .threads_per_block = 1024

#define CC_5_2                                                              \
    .cc_major = 5, .cc_minor = 2, COMMON_LIMITS, .smem_per_sm = 96 * KIB,   \
    .smem_per_block = 48 * KIB, .smem_reserved_per_block = 0, .smem_alloc_unit = 256, \
    .threads_per_sm = 2048, .blocks_per_sm = 32, .warps_per_sm = 64
#define CC_6_0                                                              \
    .cc_major = 6, .cc_minor = 0, COMMON_LIMITS, .smem_per_sm = 64 * KIB,   \
    .smem_per_block = 48 * KIB, .smem_reserved_per_block = 0, .smem_alloc_unit = 256, \
    .threads_per_sm = 2048, .blocks_per_sm = 32, .warps_per_sm = 64
#define CC_6_1                                                              \
    .cc_major = 6, .cc_minor = 1, COMMON_LIMITS, .smem_per_sm = 96 * KIB,   \
    .smem_per_block = 48 * KIB, .smem_reserved_per_block = 0, .smem_alloc_unit = 256, \
    .threads_per_sm = 2048, .blocks_per_sm = 32, .warps_per_sm = 64
#define CC_7_0                                                              \
    .cc_major = 7, .cc_minor = 0, COMMON_LIMITS, .smem_per_sm = 96 * KIB,   \
    .smem_per_block = 96 * KIB, .smem_reserved_per_block = 0, .smem_alloc_unit = 256, \
    .threads_per_sm = 2048, .blocks_per_sm = 32, .warps_per_sm = 64
#define CC_7_5                                                              \
    .cc_major = 7, .cc_minor = 5, COMMON_LIMITS, .smem_per_sm = 64 * KIB,   \
    .smem_per_block = 64 * KIB, .smem_reserved_per_block = 0, .smem_alloc_unit = 256, \
    .threads_per_sm = 1024, .blocks_per_sm = 16, .warps_per_sm = 32
#define CC_8_0                                                              \
    .cc_major = 8, .cc_minor = 0, COMMON_LIMITS, .smem_per_sm = 164 * KIB,  \
    .smem_per_block = 163 * KIB, .smem_reserved_per_block = 1 * KIB, .smem_alloc_unit = 128, \
    .threads_per_sm = 2048, .blocks_per_sm = 32, .warps_per_sm = 64
#define CC_8_6                                                              \
    .cc_major = 8, .cc_minor = 6, COMMON_LIMITS, .smem_per_sm = 100 * KIB,  \
    .smem_per_block = 99 * KIB, .smem_reserved_per_block = 1 * KIB, .smem_alloc_unit = 128, \
    .threads_per_sm = 1536, .blocks_per_sm = 16, .warps_per_sm = 48
#define CC_8_9                                                              \
    .cc_major = 8, .cc_minor = 9, COMMON_LIMITS, .smem_per_sm = 100 * KIB,  \
    .smem_per_block = 99 * KIB, .smem_reserved_per_block = 1 * KIB, .smem_alloc_unit = 128, \
    .threads_per_sm = 1536, .blocks_per_sm = 24, .warps_per_sm = 48
#define CC_9_0                                                              \
    .cc_major = 9, .cc_minor = 0, COMMON_LIMITS, .smem_per_sm = 228 * KIB,  \
    .smem_per_block = 227 * KIB, .smem_reserved_per_block = 1 * KIB, .smem_alloc_unit = 128, \
    .threads_per_sm = 2048, .blocks_per_sm = 32, .warps_per_sm = 64

/* Tensor rates are the datasheet's dense figures (half the "with
 * sparsity" ones), with FP32 accumulation: GeForce parts run that at half
 * their FP16-accumulate rate, so their figure is the lower one.  The
 * non-tensor FP16 rate relative to FP32 (whitepapers): GP100, Volta,
 * Turing and Hopper run half2 at twice the FP32 rate, GA100 at four
 * times, GA10x and Ada at the same rate, GP10x at 1/64, and GM200 has
 * none (half runs as FP32). */
static const seer_gpu_info_t gpu_table[] = {
    /* ---- Maxwell (GM200: no half arithmetic, FP16 runs as FP32) ---- */
    { .id = "titan-x-maxwell", .name = "NVIDIA GeForce GTX TITAN X", .arch = "maxwell", CC_5_2,
      .sms = 24, .boost_mhz = 1075, .fp32_tflops = FP32_TFLOPS(128, 24, 1075),
      .fp16_simt_tflops = FP32_TFLOPS(128, 24, 1075),
      .dram_gbps = 336.5, .dram_gib = 12, .l2_bytes = 3 * MIB },
    { .id = "tesla-m40", .name = "NVIDIA Tesla M40", .arch = "maxwell", CC_5_2,
      .sms = 24, .boost_mhz = 1114, .fp32_tflops = FP32_TFLOPS(128, 24, 1114),
      .fp16_simt_tflops = FP32_TFLOPS(128, 24, 1114),
      .dram_gbps = 288, .dram_gib = 12, .l2_bytes = 3 * MIB },
    /* ---- Pascal ---- */
    { .id = "tesla-p4", .name = "NVIDIA Tesla P4", .arch = "pascal", CC_6_1,
      .sms = 20, .boost_mhz = 1063, .fp32_tflops = FP32_TFLOPS(128, 20, 1063),
      .fp16_simt_tflops = FP32_TFLOPS(128, 20, 1063) / 64,
      .dram_gbps = 192, .dram_gib = 8, .l2_bytes = 2 * MIB },
    { .id = "p100-pcie-16gb", .name = "NVIDIA Tesla P100 PCIe 16GB", .arch = "pascal", CC_6_0,
      .sms = 56, .boost_mhz = 1303, .fp32_tflops = FP32_TFLOPS(64, 56, 1303),
      .fp16_simt_tflops = 2 * FP32_TFLOPS(64, 56, 1303),
      .dram_gbps = 732, .dram_gib = 16, .l2_bytes = 4 * MIB },
    { .id = "p100-sxm2-16gb", .name = "NVIDIA Tesla P100 SXM2 16GB", .arch = "pascal", CC_6_0,
      .sms = 56, .boost_mhz = 1480, .fp32_tflops = FP32_TFLOPS(64, 56, 1480),
      .fp16_simt_tflops = 2 * FP32_TFLOPS(64, 56, 1480),
      .dram_gbps = 732, .dram_gib = 16, .l2_bytes = 4 * MIB },
    { .id = "gtx1080ti", .name = "NVIDIA GeForce GTX 1080 Ti", .arch = "pascal", CC_6_1,
      .sms = 28, .boost_mhz = 1582, .fp32_tflops = FP32_TFLOPS(128, 28, 1582),
      .fp16_simt_tflops = FP32_TFLOPS(128, 28, 1582) / 64,
      .dram_gbps = 484, .dram_gib = 11, .l2_bytes = 2816 * KIB },
    { .id = "titan-xp", .name = "NVIDIA TITAN Xp", .arch = "pascal", CC_6_1,
      .sms = 30, .boost_mhz = 1582, .fp32_tflops = FP32_TFLOPS(128, 30, 1582),
      .fp16_simt_tflops = FP32_TFLOPS(128, 30, 1582) / 64,
      .dram_gbps = 547.7, .dram_gib = 12, .l2_bytes = 3 * MIB },
    { .id = "titan-x-pascal", .name = "NVIDIA TITAN X (Pascal)", .arch = "pascal", CC_6_1,
      .sms = 28, .boost_mhz = 1531, .fp32_tflops = FP32_TFLOPS(128, 28, 1531),
      .fp16_simt_tflops = FP32_TFLOPS(128, 28, 1531) / 64,
      .dram_gbps = 480, .dram_gib = 12, .l2_bytes = 3 * MIB },
    { .id = "gtx1080", .name = "NVIDIA GeForce GTX 1080", .arch = "pascal", CC_6_1,
      .sms = 20, .boost_mhz = 1733, .fp32_tflops = FP32_TFLOPS(128, 20, 1733),
      .fp16_simt_tflops = FP32_TFLOPS(128, 20, 1733) / 64,
      .dram_gbps = 320, .dram_gib = 8, .l2_bytes = 2 * MIB },
    { .id = "quadro-p4000", .name = "NVIDIA Quadro P4000", .arch = "pascal", CC_6_1,
      .sms = 14, .boost_mhz = 1480, .fp32_tflops = FP32_TFLOPS(128, 14, 1480),
      .fp16_simt_tflops = FP32_TFLOPS(128, 14, 1480) / 64,
      .dram_gbps = 243, .dram_gib = 8, .l2_bytes = 2 * MIB },
    /* ---- Volta ---- */
    { .id = "v100-pcie-16gb", .name = "NVIDIA Tesla V100 PCIe 16GB", .arch = "volta", CC_7_0,
      .sms = 80, .boost_mhz = 1380, .fp32_tflops = FP32_TFLOPS(64, 80, 1380),
      .fp16_tflops = 112, .fp16_simt_tflops = 2 * FP32_TFLOPS(64, 80, 1380),
      .dram_gbps = 900, .dram_gib = 16, .l2_bytes = 6 * MIB },
    { .id = "v100-pcie-32gb", .name = "NVIDIA Tesla V100 PCIe 32GB", .arch = "volta", CC_7_0,
      .sms = 80, .boost_mhz = 1380, .fp32_tflops = FP32_TFLOPS(64, 80, 1380),
      .fp16_tflops = 112, .fp16_simt_tflops = 2 * FP32_TFLOPS(64, 80, 1380),
      .dram_gbps = 900, .dram_gib = 32, .l2_bytes = 6 * MIB },
    { .id = "v100-sxm2-16gb", .name = "NVIDIA Tesla V100 SXM2 16GB", .arch = "volta", CC_7_0,
      .sms = 80, .boost_mhz = 1530, .fp32_tflops = FP32_TFLOPS(64, 80, 1530),
      .fp16_tflops = 125, .fp16_simt_tflops = 2 * FP32_TFLOPS(64, 80, 1530),
      .dram_gbps = 900, .dram_gib = 16, .l2_bytes = 6 * MIB },
    { .id = "v100-sxm2-32gb", .name = "NVIDIA Tesla V100 SXM2 32GB", .arch = "volta", CC_7_0,
      .sms = 80, .boost_mhz = 1530, .fp32_tflops = FP32_TFLOPS(64, 80, 1530),
      .fp16_tflops = 125, .fp16_simt_tflops = 2 * FP32_TFLOPS(64, 80, 1530),
      .dram_gbps = 900, .dram_gib = 32, .l2_bytes = 6 * MIB },
    { .id = "v100s-pcie-32gb", .name = "NVIDIA Tesla V100S PCIe 32GB", .arch = "volta", CC_7_0,
      .sms = 80, .boost_mhz = 1597, .fp32_tflops = FP32_TFLOPS(64, 80, 1597),
      .fp16_tflops = 130, .fp16_simt_tflops = 2 * FP32_TFLOPS(64, 80, 1597),
      .dram_gbps = 1134, .dram_gib = 32, .l2_bytes = 6 * MIB },
    { .id = "titan-v", .name = "NVIDIA TITAN V", .arch = "volta", CC_7_0,
      .sms = 80, .boost_mhz = 1455, .fp32_tflops = FP32_TFLOPS(64, 80, 1455),
      .fp16_tflops = 110, .fp16_simt_tflops = 2 * FP32_TFLOPS(64, 80, 1455),
      .dram_gbps = 652.8, .dram_gib = 12, .l2_bytes = 4608 * KIB },
    /* ---- Turing ---- */
    { .id = "t4", .name = "NVIDIA T4", .arch = "turing", CC_7_5,
      .sms = 40, .boost_mhz = 1590, .fp32_tflops = FP32_TFLOPS(64, 40, 1590),
      .fp16_tflops = 65, .fp16_simt_tflops = 2 * FP32_TFLOPS(64, 40, 1590),
      .dram_gbps = 320, .dram_gib = 16, .l2_bytes = 4 * MIB },
    { .id = "rtx2070", .name = "NVIDIA GeForce RTX 2070", .arch = "turing", CC_7_5,
      .sms = 36, .boost_mhz = 1620, .fp32_tflops = FP32_TFLOPS(64, 36, 1620),
      .fp16_tflops = 29.9, .fp16_simt_tflops = 2 * FP32_TFLOPS(64, 36, 1620),
      .dram_gbps = 448, .dram_gib = 8, .l2_bytes = 4 * MIB },
    { .id = "rtx2080ti", .name = "NVIDIA GeForce RTX 2080 Ti", .arch = "turing", CC_7_5,
      .sms = 68, .boost_mhz = 1545, .fp32_tflops = FP32_TFLOPS(64, 68, 1545),
      .fp16_tflops = 53.8, .fp16_simt_tflops = 2 * FP32_TFLOPS(64, 68, 1545),
      .dram_gbps = 616, .dram_gib = 11, .l2_bytes = 5632 * KIB },
    { .id = "titan-rtx", .name = "NVIDIA TITAN RTX", .arch = "turing", CC_7_5,
      .sms = 72, .boost_mhz = 1770, .fp32_tflops = FP32_TFLOPS(64, 72, 1770),
      .fp16_tflops = 130.5, .fp16_simt_tflops = 2 * FP32_TFLOPS(64, 72, 1770),
      .dram_gbps = 672, .dram_gib = 24, .l2_bytes = 6 * MIB },
    /* ---- Ampere ---- */
    { .id = "a100-pcie-40gb", .name = "NVIDIA A100 40GB PCIe", .arch = "ampere", CC_8_0,
      .sms = 108, .boost_mhz = 1410, .fp32_tflops = FP32_TFLOPS(64, 108, 1410),
      .fp16_tflops = 312, .bf16_tflops = 312, .tf32_tflops = 156,
      .fp16_simt_tflops = 4 * FP32_TFLOPS(64, 108, 1410),
      .dram_gbps = 1555, .dram_gib = 40, .l2_bytes = 40 * MIB },
    { .id = "a100-pcie-80gb", .name = "NVIDIA A100 80GB PCIe", .arch = "ampere", CC_8_0,
      .sms = 108, .boost_mhz = 1410, .fp32_tflops = FP32_TFLOPS(64, 108, 1410),
      .fp16_tflops = 312, .bf16_tflops = 312, .tf32_tflops = 156,
      .fp16_simt_tflops = 4 * FP32_TFLOPS(64, 108, 1410),
      .dram_gbps = 1935, .dram_gib = 80, .l2_bytes = 40 * MIB },
    { .id = "a100-sxm4-40gb", .name = "NVIDIA A100 40GB SXM4", .arch = "ampere", CC_8_0,
      .sms = 108, .boost_mhz = 1410, .fp32_tflops = FP32_TFLOPS(64, 108, 1410),
      .fp16_tflops = 312, .bf16_tflops = 312, .tf32_tflops = 156,
      .fp16_simt_tflops = 4 * FP32_TFLOPS(64, 108, 1410),
      .dram_gbps = 1555, .dram_gib = 40, .l2_bytes = 40 * MIB },
    { .id = "a100-sxm4-80gb", .name = "NVIDIA A100 80GB SXM4", .arch = "ampere", CC_8_0,
      .sms = 108, .boost_mhz = 1410, .fp32_tflops = FP32_TFLOPS(64, 108, 1410),
      .fp16_tflops = 312, .bf16_tflops = 312, .tf32_tflops = 156,
      .fp16_simt_tflops = 4 * FP32_TFLOPS(64, 108, 1410),
      .dram_gbps = 2039, .dram_gib = 80, .l2_bytes = 40 * MIB },
    { .id = "a10", .name = "NVIDIA A10", .arch = "ampere", CC_8_6,
      .sms = 72, .boost_mhz = 1695, .fp32_tflops = FP32_TFLOPS(128, 72, 1695),
      .fp16_tflops = 125, .bf16_tflops = 125, .tf32_tflops = 62.5,
      .fp16_simt_tflops = FP32_TFLOPS(128, 72, 1695),
      .dram_gbps = 600, .dram_gib = 24, .l2_bytes = 6 * MIB },
    { .id = "a30", .name = "NVIDIA A30", .arch = "ampere", CC_8_0,
      .sms = 56, .boost_mhz = 1440, .fp32_tflops = FP32_TFLOPS(64, 56, 1440),
      .fp16_tflops = 165, .bf16_tflops = 165, .tf32_tflops = 82,
      .fp16_simt_tflops = 4 * FP32_TFLOPS(64, 56, 1440),
      .dram_gbps = 933, .dram_gib = 24, .l2_bytes = 24 * MIB },
    { .id = "rtx3090", .name = "NVIDIA GeForce RTX 3090", .arch = "ampere", CC_8_6,
      .sms = 82, .boost_mhz = 1695, .fp32_tflops = FP32_TFLOPS(128, 82, 1695),
      .fp16_tflops = 71, .bf16_tflops = 71, .tf32_tflops = 35.6,
      .fp16_simt_tflops = FP32_TFLOPS(128, 82, 1695),
      .dram_gbps = 936, .dram_gib = 24, .l2_bytes = 6 * MIB },
    { .id = "rtx3080", .name = "NVIDIA GeForce RTX 3080", .arch = "ampere", CC_8_6,
      .sms = 68, .boost_mhz = 1710, .fp32_tflops = FP32_TFLOPS(128, 68, 1710),
      .fp16_tflops = 59.5, .bf16_tflops = 59.5, .tf32_tflops = 29.8,
      .fp16_simt_tflops = FP32_TFLOPS(128, 68, 1710),
      .dram_gbps = 760, .dram_gib = 10, .l2_bytes = 5 * MIB },
    { .id = "a40", .name = "NVIDIA A40", .arch = "ampere", CC_8_6,
      .sms = 84, .boost_mhz = 1740, .fp32_tflops = FP32_TFLOPS(128, 84, 1740),
      .fp16_tflops = 149.7, .bf16_tflops = 149.7, .tf32_tflops = 74.8,
      .fp16_simt_tflops = FP32_TFLOPS(128, 84, 1740),
      .dram_gbps = 696, .dram_gib = 48, .l2_bytes = 6 * MIB },
    { .id = "rtx-a6000", .name = "NVIDIA RTX A6000", .arch = "ampere", CC_8_6,
      .sms = 84, .boost_mhz = 1800, .fp32_tflops = FP32_TFLOPS(128, 84, 1800),
      .fp16_tflops = 154.8, .bf16_tflops = 154.8, .tf32_tflops = 77.4,
      .fp16_simt_tflops = FP32_TFLOPS(128, 84, 1800),
      .dram_gbps = 768, .dram_gib = 48, .l2_bytes = 6 * MIB },
    /* ---- Ada ---- */
    { .id = "l4", .name = "NVIDIA L4", .arch = "ada", CC_8_9,
      .sms = 58, .boost_mhz = 2040, .fp32_tflops = FP32_TFLOPS(128, 58, 2040),
      .fp16_tflops = 121, .bf16_tflops = 121, .tf32_tflops = 60,
      .fp16_simt_tflops = FP32_TFLOPS(128, 58, 2040),
      .dram_gbps = 300, .dram_gib = 24, .l2_bytes = 48 * MIB },
    { .id = "l40", .name = "NVIDIA L40", .arch = "ada", CC_8_9,
      .sms = 142, .boost_mhz = 2490, .fp32_tflops = FP32_TFLOPS(128, 142, 2490),
      .fp16_tflops = 181.05, .bf16_tflops = 181.05, .tf32_tflops = 90.525,
      .fp16_simt_tflops = FP32_TFLOPS(128, 142, 2490),
      .dram_gbps = 864, .dram_gib = 48, .l2_bytes = 96 * MIB },
    { .id = "l40s", .name = "NVIDIA L40S", .arch = "ada", CC_8_9,
      .sms = 142, .boost_mhz = 2520, .fp32_tflops = FP32_TFLOPS(128, 142, 2520),
      .fp16_tflops = 362.05, .bf16_tflops = 362.05, .tf32_tflops = 183,
      .fp16_simt_tflops = FP32_TFLOPS(128, 142, 2520),
      .dram_gbps = 864, .dram_gib = 48, .l2_bytes = 96 * MIB },
    { .id = "rtx4090", .name = "NVIDIA GeForce RTX 4090", .arch = "ada", CC_8_9,
      .sms = 128, .boost_mhz = 2520, .fp32_tflops = FP32_TFLOPS(128, 128, 2520),
      .fp16_tflops = 165.2, .bf16_tflops = 165.2, .tf32_tflops = 82.6,
      .fp16_simt_tflops = FP32_TFLOPS(128, 128, 2520),
      .dram_gbps = 1008, .dram_gib = 24, .l2_bytes = 72 * MIB },
    /* ---- Hopper ---- */
    { .id = "h100-pcie-80gb", .name = "NVIDIA H100 PCIe 80GB", .arch = "hopper", CC_9_0,
      .sms = 114, .boost_mhz = 1755, .fp32_tflops = FP32_TFLOPS(128, 114, 1755),
      .fp16_tflops = 756, .bf16_tflops = 756, .tf32_tflops = 378,
      .fp16_simt_tflops = 2 * FP32_TFLOPS(128, 114, 1755),
      .dram_gbps = 2000, .dram_gib = 80, .l2_bytes = 50 * MIB },
    { .id = "h100-sxm5-80gb", .name = "NVIDIA H100 SXM5 80GB", .arch = "hopper", CC_9_0,
      .sms = 132, .boost_mhz = 1980, .fp32_tflops = FP32_TFLOPS(128, 132, 1980),
      .fp16_tflops = 989.4, .bf16_tflops = 989.4, .tf32_tflops = 494.7,
      .fp16_simt_tflops = 2 * FP32_TFLOPS(128, 132, 1980),
      .dram_gbps = 3350, .dram_gib = 80, .l2_bytes = 50 * MIB,
      .dram_stream_gbps = 2742 /* seer-bench copy, shared/data/gpu-ceilings.csv */ },
    { .id = "h200-sxm-141gb", .name = "NVIDIA H200 SXM 141GB", .arch = "hopper", CC_9_0,
      .sms = 132, .boost_mhz = 1980, .fp32_tflops = FP32_TFLOPS(128, 132, 1980),
      .fp16_tflops = 989.4, .bf16_tflops = 989.4, .tf32_tflops = 494.7,
      .fp16_simt_tflops = 2 * FP32_TFLOPS(128, 132, 1980),
      .dram_gbps = 4800, .dram_gib = 141, .l2_bytes = 50 * MIB,
      .dram_stream_gbps = 3854 /* seer-bench copy, shared/data/gpu-ceilings.csv */ },
};

#define GPU_COUNT ((int)(sizeof gpu_table / sizeof gpu_table[0]))

/* Short names people type; each maps to the most common variant.  The
 * form-factor ones (loose: 1) only in loose lookups, after the ids a
 * handle registered: a GPU description file may name its own GPU so. */
static const struct { const char *alias, *id; int loose; } gpu_aliases[] = {
    { "a100", "a100-sxm4-40gb", 0 },
    { "v100", "v100-sxm2-16gb", 0 },
    { "h100", "h100-sxm5-80gb", 0 },
    { "h200", "h200-sxm-141gb", 0 },
    { "1080ti", "gtx1080ti", 0 },
    { "titanxp", "titan-xp", 0 },
    { "p4", "tesla-p4", 0 },
    { "p100", "p100-pcie-16gb", 0 },
    /* the form factor without the memory, as clouds and papers write it */
    { "a100-sxm", "a100-sxm4-40gb", 1 },
    { "a100-sxm4", "a100-sxm4-40gb", 1 },
    { "a100-pcie", "a100-pcie-40gb", 1 },
    { "a100-40gb", "a100-sxm4-40gb", 1 },
    { "a100-80gb", "a100-sxm4-80gb", 1 },
    { "v100-sxm2", "v100-sxm2-16gb", 1 },
    { "v100-pcie", "v100-pcie-16gb", 1 },
    { "h100-sxm", "h100-sxm5-80gb", 1 },
    { "h100-sxm5", "h100-sxm5-80gb", 1 },
    { "h100-pcie", "h100-pcie-80gb", 1 },
    { "h200-sxm", "h200-sxm-141gb", 1 },
};

/* The names the CUDA driver reports (cudaDeviceProp.name, nvidia-smi,
 * torch.cuda.get_device_name), without the "NVIDIA " that newer drivers
 * put in front: what a trace or a framework's timing file records.  Only
 * names that tell the variant apart (memory, form factor) are here. */
static const struct { const char *name, *id; } gpu_device_names[] = {
    { "Tesla P4", "tesla-p4" },
    { "Tesla P100-PCIE-16GB", "p100-pcie-16gb" },
    { "Tesla P100-SXM2-16GB", "p100-sxm2-16gb" },
    { "GeForce GTX 1080 Ti", "gtx1080ti" },
    { "TITAN Xp", "titan-xp" },
    { "TITAN X (Pascal)", "titan-x-pascal" },
    { "GeForce GTX TITAN X", "titan-x-maxwell" },
    { "Tesla V100-PCIE-16GB", "v100-pcie-16gb" },
    { "Tesla V100-PCIE-32GB", "v100-pcie-32gb" },
    { "Tesla V100-SXM2-16GB", "v100-sxm2-16gb" },
    { "Tesla V100-SXM2-32GB", "v100-sxm2-32gb" },
    { "Tesla V100S-PCIE-32GB", "v100s-pcie-32gb" },
    { "TITAN V", "titan-v" },
    { "Tesla T4", "t4" },
    { "A100-PCIE-40GB", "a100-pcie-40gb" },
    { "A100 80GB PCIe", "a100-pcie-80gb" },
    { "A100-SXM4-40GB", "a100-sxm4-40gb" },
    { "A100-SXM4-80GB", "a100-sxm4-80gb" },
    { "H100 PCIe", "h100-pcie-80gb" },
    { "H100 80GB HBM3", "h100-sxm5-80gb" },
    { "H200", "h200-sxm-141gb" },
};

/* Separators as written differ between tools (nvidia-smi's
 * "Tesla P100-PCIE-16GB", NeuSight's file names "Tesla_P100-PCIE-16GB",
 * a user's "rtx-4090"), so ' ', '_' and '-' compare equal, and case is
 * ignored. */
static int name_char(int c)
{
    if (c == ' ' || c == '_') return '-';
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

int seer_gpu_name_eq(const char *a, const char *b)
{
    while (*a && name_char((unsigned char)*a) == name_char((unsigned char)*b)) a++, b++;
    return *a == 0 && *b == 0;
}

/* Past a leading word and its separator, or s itself. */
static const char *skip_word(const char *s, const char *word)
{
    size_t n = strlen(word);
    if (!seer_strneq_ci(s, word, n) || name_char((unsigned char)s[n]) != '-' || !s[n + 1]) return s;
    return s + n + 1;
}

/* Without the vendor and brand the driver puts in front ("NVIDIA",
 * "GeForce"; with tesla, "Tesla" too), which not every record keeps. */
static const char *bare_name_of(const char *s, int tesla)
{
    s = skip_word(s, "NVIDIA");
    const char *t = skip_word(s, "GeForce");
    return t != s || !tesla ? t : skip_word(s, "Tesla");
}

/* By id, alias, the driver's device name or the table's own name, each
 * compared as seer_gpu_name_eq says; loose: the aliases after the brand
 * words too, and "Tesla" optional ("NVIDIA H100", "Tesla V100" as h100,
 * v100).  A GPU description file's id is checked strictly, so that
 * "tesla-a100" stays a name of its own to register. */
static const seer_gpu_info_t *lookup(const char *id, int loose)
{
    if (!id) return NULL;
    /* A table id is itself (test_gpu.c checks every one): GEMM fits name
     * their source GPU so, and their predictions look it up on every
     * call, where the name matching below took half of a network's
     * prediction (docs/performance.md). */
    for (int i = 0; i < GPU_COUNT; i++)
        if (!strcmp(id, gpu_table[i].id)) return &gpu_table[i];
    for (size_t a = 0; a < sizeof gpu_aliases / sizeof gpu_aliases[0]; a++)
        if ((loose || !gpu_aliases[a].loose) && (seer_gpu_name_eq(id, gpu_aliases[a].alias) ||
                                                 (loose && seer_gpu_name_eq(bare_name_of(id, 1), gpu_aliases[a].alias)))) {
            id = gpu_aliases[a].id;
            break;
        }
    const char *bare = bare_name_of(id, loose);
    for (size_t a = 0; a < sizeof gpu_device_names / sizeof gpu_device_names[0]; a++)
        if (seer_gpu_name_eq(bare, bare_name_of(gpu_device_names[a].name, loose))) {
            id = gpu_device_names[a].id;
            break;
        }
    for (int i = 0; i < GPU_COUNT; i++)
        if (seer_gpu_name_eq(id, gpu_table[i].id) || seer_gpu_name_eq(bare, bare_name_of(gpu_table[i].name, loose)))
            return &gpu_table[i];
    return NULL;
}

const seer_gpu_info_t *seer_gpu_lookup(const char *id) { return lookup(id, 1); }
const seer_gpu_info_t *seer_gpu_lookup_strict(const char *id) { return lookup(id, 0); }

int seer_gpu_dominates(const seer_gpu_info_t *a, const seer_gpu_info_t *b)
{
    return a->fp32_tflops >= b->fp32_tflops && a->dram_gbps >= b->dram_gbps && a->sms >= b->sms &&
           a->l2_bytes >= b->l2_bytes;
}

/* A new field of seer_gpu_info_t must join the comparison below. */
_Static_assert(sizeof(seer_gpu_info_t) == 256, "seer_gpu_same_facts: compare the new field too");

int seer_gpu_same_facts(const seer_gpu_info_t *a, const seer_gpu_info_t *b)
{
    /* field by field: struct padding has no defined value */
#define SAME(f) (a->f == b->f)
    return !strcmp(a->arch, b->arch) && SAME(cc_major) && SAME(cc_minor) && SAME(sms) && SAME(boost_mhz) &&
           SAME(fp32_tflops) && SAME(fp16_tflops) && SAME(bf16_tflops) && SAME(tf32_tflops) &&
           SAME(fp16_simt_tflops) && SAME(dram_gbps) && SAME(dram_stream_gbps) && SAME(l2_bytes) && SAME(regs_per_sm) &&
           SAME(regs_per_block) && SAME(max_regs_per_thread) && SAME(reg_alloc_unit) && SAME(smem_per_sm) &&
           SAME(smem_per_block) && SAME(smem_reserved_per_block) && SAME(smem_alloc_unit) &&
           SAME(threads_per_sm) && SAME(threads_per_block) && SAME(blocks_per_sm) && SAME(warps_per_sm);
#undef SAME
}

int seer_gpu_siblings(const seer_gpu_info_t *a, const seer_gpu_info_t *b)
{
    return !strcmp(a->arch, b->arch) && a->sms == b->sms && a->boost_mhz == b->boost_mhz;
}

double seer_gpu_stream_bw(const seer_gpu_info_t *g)
{
    if (!g) return 0;
    return (g->dram_stream_gbps > 0 ? g->dram_stream_gbps : g->dram_gbps * SEER_DRAM_STREAM_SHARE) * 1e9;
}

seer_status_t seer_gpu_count(int *count)
{
    if (!count) return SEER_STATUS_BAD_PARAM;
    *count = GPU_COUNT;
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_gpu_streaming(const seer_gpu_info_t *gpu, double *stream_gbps, double *launch_gap_us)
{
    if (!gpu || seer_gpu_check_rates(NULL, "seer_gpu_streaming", gpu)) return SEER_STATUS_BAD_PARAM;
    if (stream_gbps) *stream_gbps = seer_gpu_stream_bw(gpu) / 1e9;
    if (launch_gap_us) *launch_gap_us = seer_gpu_launch_gap_ms(gpu) * 1e3;
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_gpu_get(int index, seer_gpu_info_t *info)
{
    if (!info || index < 0 || index >= GPU_COUNT) return SEER_STATUS_BAD_PARAM;
    *info = gpu_table[index];
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_gpu_find(seer_handle_t handle, const char *id, seer_gpu_info_t *info)
{
    if (!id) return seer_error(handle, SEER_STATUS_BAD_PARAM, "gpu id is NULL");
    if (!info) return seer_error(handle, SEER_STATUS_BAD_PARAM, "info is NULL");
    const seer_gpu_info_t *g = seer_gpu_lookup_h(handle, id);
    if (!g) return seer_gpu_unknown(handle, id);
    *info = *g;
    return SEER_STATUS_SUCCESS;
}

/* ---- occupancy ---------------------------------------------------- */

static int64_t round_up(int64_t x, int64_t unit) { return (x + unit - 1) / unit * unit; }

/* Registers live in the SM's sub-partitions (one per warp scheduler);
 * cuda_occupancy.h counts warps per sub-partition.  GP100 has 2, every
 * other architecture in the table 4. */
static int sub_partitions(const seer_gpu_info_t *g)
{
    return g->cc_major == 6 && g->cc_minor == 0 ? 2 : 4;
}

/* Blocks per SM allowed by registers, as cudaOccMaxBlocksPerSMRegsLimit:
 * 0 when a block cannot get its registers at all. */
static int64_t regs_limit(const seer_gpu_info_t *g, int64_t warps_per_block, int64_t regs,
                          int parts)
{
    int64_t per_warp = round_up(regs * 32, g->reg_alloc_unit);
    /* The hardware checks the per-block limit as if the block's warps
     * were spread evenly over all sub-partitions. */
    if (per_warp * round_up(warps_per_block, parts) > g->regs_per_block ||
        per_warp * warps_per_block > g->regs_per_block)
        return 0;
    int64_t warps = (int64_t)(g->regs_per_sm / parts) / per_warp * parts;
    return warps / warps_per_block;
}

static int gpu_limits_ok(const seer_gpu_info_t *g)
{
    return g->threads_per_block > 0 && g->warps_per_sm > 0 && g->blocks_per_sm > 0 &&
           g->regs_per_sm > 0 && g->regs_per_block > 0 && g->max_regs_per_thread > 0 &&
           g->reg_alloc_unit > 0 && g->smem_per_sm > 0 && g->smem_per_block >= 0 &&
           g->smem_reserved_per_block >= 0 && g->smem_alloc_unit > 0;
}

seer_status_t seer_occupancy(const seer_gpu_info_t *gpu, int threads_per_block,
                             int regs_per_thread, int smem_per_block, int *blocks_per_sm)
{
    if (!gpu || !blocks_per_sm || !gpu_limits_ok(gpu)) return SEER_STATUS_BAD_PARAM;
    if (threads_per_block <= 0 || threads_per_block > gpu->threads_per_block)
        return SEER_STATUS_BAD_PARAM;
    if (regs_per_thread < 0 || regs_per_thread > gpu->max_regs_per_thread)
        return SEER_STATUS_BAD_PARAM;
    if (smem_per_block < 0 || smem_per_block > gpu->smem_per_block) return SEER_STATUS_BAD_PARAM;

    int64_t warps_per_block = ((int64_t)threads_per_block + 31) / 32;
    int64_t limit = gpu->blocks_per_sm;

    int64_t by_warps = gpu->warps_per_sm / warps_per_block;
    if (by_warps < limit) limit = by_warps;

    if (regs_per_thread > 0) {
        int64_t by_regs = regs_limit(gpu, warps_per_block, regs_per_thread, sub_partitions(gpu));
        /* cuda_occupancy.h: a launch that does not fit GP10x (4
         * sub-partitions) is refused on GP100 too. */
        if (sub_partitions(gpu) != 4 && regs_limit(gpu, warps_per_block, regs_per_thread, 4) == 0)
            by_regs = 0;
        if (by_regs < limit) limit = by_regs;
    }

    int64_t smem = round_up((int64_t)smem_per_block + gpu->smem_reserved_per_block,
                            gpu->smem_alloc_unit);
    if (smem > (int64_t)gpu->smem_per_block + gpu->smem_reserved_per_block) limit = 0;
    else if (smem > 0 && gpu->smem_per_sm / smem < limit) limit = gpu->smem_per_sm / smem;

    if (limit <= 0) return SEER_STATUS_BAD_PARAM;
    *blocks_per_sm = (int)limit;
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_waves(long long blocks, long long bmax, double *waves, double *last_fill)
{
    if (blocks <= 0 || bmax <= 0 || !waves || !last_fill) return SEER_STATUS_BAD_PARAM;
    long long w = (blocks - 1) / bmax + 1;      /* ceil without overflow */
    long long last = blocks - (w - 1) * bmax;   /* in [1, bmax] */
    *waves = (double)w;
    *last_fill = (double)last / (double)bmax;
    return SEER_STATUS_SUCCESS;
}
