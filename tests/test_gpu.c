/* GPU table, occupancy calculator, waves. */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include "test.h"
#include "gpu.h"

static seer_gpu_info_t gpu(const char *id)
{
    seer_gpu_info_t g;
    memset(&g, 0, sizeof g);
    if (seer_gpu_find(NULL, id, &g) != SEER_STATUS_SUCCESS) test_fail(__FILE__, __LINE__, id);
    return g;
}

static int occ(const char *id, int threads, int regs, int smem)
{
    seer_gpu_info_t g = gpu(id);
    int b = -1;
    if (seer_occupancy(&g, threads, regs, smem, &b) != SEER_STATUS_SUCCESS) return -1;
    return b;
}

/* FP32 lanes per SM: 64 on GP100, Volta, Turing and GA100; 128 on GP10x,
 * GA10x, Ada and Hopper. */
static int fp32_lanes(const seer_gpu_info_t *g)
{
    int cc = g->cc_major * 10 + g->cc_minor;
    return cc == 60 || cc == 70 || cc == 75 || cc == 80 ? 64 : 128;
}

static int cc_matches_arch(const seer_gpu_info_t *g)
{
    int cc = g->cc_major * 10 + g->cc_minor;
    if (!strcmp(g->arch, "maxwell")) return cc == 52;
    if (!strcmp(g->arch, "pascal")) return cc == 60 || cc == 61;
    if (!strcmp(g->arch, "volta")) return cc == 70;
    if (!strcmp(g->arch, "turing")) return cc == 75;
    if (!strcmp(g->arch, "ampere")) return cc == 80 || cc == 86;
    if (!strcmp(g->arch, "ada")) return cc == 89;
    if (!strcmp(g->arch, "hopper")) return cc == 90;
    return 0;
}

TEST(gpu_table_entries_sane)
{
    int n = 0;
    CHECK_STATUS(seer_gpu_count(&n), SEER_STATUS_SUCCESS);
    CHECK(n == 37);
    for (int i = 0; i < n; i++) {
        seer_gpu_info_t g;
        REQUIRE(seer_gpu_get(i, &g) == SEER_STATUS_SUCCESS);
        int cc = g.cc_major * 10 + g.cc_minor;
        CHECK(g.id[0] && g.name[0]);
        CHECK(cc_matches_arch(&g));
        CHECK(seer_gpu_lookup(g.id) != NULL && !strcmp(seer_gpu_lookup(g.id)->id, g.id));
        for (int j = 0; j < i; j++) {
            seer_gpu_info_t o;
            seer_gpu_get(j, &o);
            CHECK(strcmp(o.id, g.id) != 0);
        }
        CHECK(g.sms > 0 && g.boost_mhz > 500 && g.boost_mhz < 3000);
        CHECK_NEAR(g.fp32_tflops, 2.0 * fp32_lanes(&g) * g.sms * g.boost_mhz / 1e6, 1e-12);
        CHECK(g.fp16_simt_tflops > 0);
        /* Tensor cores: fp16 from Volta, bf16 and tf32 from Ampere. */
        CHECK((g.fp16_tflops > 0) == (cc >= 70));
        CHECK((g.bf16_tflops > 0) == (cc >= 80));
        CHECK((g.tf32_tflops > 0) == (cc >= 80));
        if (cc >= 70) CHECK(g.fp16_tflops > 1.9 * g.fp32_tflops);
        if (cc >= 80) {
            CHECK(g.bf16_tflops == g.fp16_tflops);
            CHECK_NEAR(g.tf32_tflops, g.fp16_tflops / 2, 0.02);
        }
        CHECK(g.dram_gbps > 100 && g.dram_gbps < 10000);
        CHECK(g.dram_gib >= 8 && g.dram_gib <= 141);
        CHECK(g.l2_bytes >= 2 * 1024 * 1024);
        /* Per-SM limits (CUDA Programming Guide, cuda_occupancy.h). */
        CHECK(g.regs_per_sm == 65536 && g.regs_per_block == 65536);
        CHECK(g.max_regs_per_thread == 255 && g.reg_alloc_unit == 256);
        CHECK(g.threads_per_block == 1024);
        CHECK(g.warps_per_sm * 32 == g.threads_per_sm);
        CHECK(g.threads_per_sm == (cc == 75 ? 1024 : cc == 86 || cc == 89 ? 1536 : 2048));
        CHECK(g.blocks_per_sm == (cc == 75 || cc == 86 ? 16 : cc == 89 ? 24 : 32));
        CHECK(g.smem_reserved_per_block == (cc >= 80 ? 1024 : 0));
        CHECK(g.smem_alloc_unit == (cc >= 80 ? 128 : 256));
        CHECK(g.smem_per_block <= g.smem_per_sm);
        CHECK(g.smem_per_block + g.smem_reserved_per_block <= g.smem_per_sm);
    }
}

TEST(gpu_known_values)
{
    seer_gpu_info_t g = gpu("a100-pcie-80gb");
    CHECK(g.sms == 108 && g.cc_major == 8 && g.cc_minor == 0);
    CHECK_NEAR(g.fp32_tflops, 19.49, 0.001);
    CHECK(g.dram_gbps == 1935 && g.l2_bytes == 40 * 1024 * 1024);
    CHECK(g.smem_per_sm == 167936 && g.smem_per_block == 166912);
    g = gpu("t4");
    CHECK(g.sms == 40 && g.fp16_tflops == 65 && g.bf16_tflops == 0 && g.tf32_tflops == 0);
    g = gpu("gtx1080ti");
    CHECK(g.sms == 28 && g.fp16_tflops == 0 && g.dram_gbps == 484);
    /* Consumer cards: the fp32-accumulate tensor rate (half the fp16-acc one). */
    CHECK(gpu("rtx3090").fp16_tflops == 71);
    CHECK(gpu("rtx4090").fp16_tflops == 165.2);
    g = gpu("h100-sxm5-80gb");
    CHECK(g.sms == 132 && g.smem_per_sm == 233472 && g.smem_per_block == 232448);
}

TEST(gpu_get_bounds)
{
    seer_gpu_info_t g;
    int n;
    seer_gpu_count(&n);
    CHECK_STATUS(seer_gpu_count(NULL), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_gpu_get(-1, &g), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_gpu_get(n, &g), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_gpu_get(0, NULL), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_gpu_get(n - 1, &g), SEER_STATUS_SUCCESS);
}

TEST(gpu_aliases_and_case)
{
    static const char *const pairs[][2] = {
        { "a100", "a100-sxm4-40gb" }, { "v100", "v100-sxm2-16gb" },
        { "h100", "h100-sxm5-80gb" }, { "h200", "h200-sxm-141gb" },
        { "1080ti", "gtx1080ti" }, { "titanxp", "titan-xp" },
        { "A100", "a100-sxm4-40gb" }, { "A100-PCIE-80GB", "a100-pcie-80gb" },
        { "T4", "t4" },
        /* the driver's device names, with and without "NVIDIA " */
        { "Tesla T4", "t4" }, { "Tesla V100-SXM2-16GB", "v100-sxm2-16gb" },
        { "NVIDIA H100 80GB HBM3", "h100-sxm5-80gb" }, { "NVIDIA H100 PCIe", "h100-pcie-80gb" },
        { "NVIDIA A100-SXM4-80GB", "a100-sxm4-80gb" }, { "NVIDIA A100 80GB PCIe", "a100-pcie-80gb" },
        { "A100-PCIE-40GB", "a100-pcie-40gb" }, { "NVIDIA GeForce GTX 1080 Ti", "gtx1080ti" },
        { "GeForce GTX 1080 Ti", "gtx1080ti" }, { "NVIDIA L4", "l4" }, { "nvidia geforce rtx 4090", "rtx4090" },
        { "NVIDIA H200", "h200-sxm-141gb" }, { "NVIDIA A10", "a10" },
        { "p4", "tesla-p4" }, { "P100", "p100-pcie-16gb" },
        /* separators as other tools write them (NeuSight's file names) */
        { "Tesla_P4", "tesla-p4" }, { "NVIDIA_H100_80GB_HBM3", "h100-sxm5-80gb" },
        { "Tesla_V100-PCIE-32GB", "v100-pcie-32gb" }, { "NVIDIA_A100_80GB_PCIe", "a100-pcie-80gb" },
        { "rtx-4090", "rtx4090" }, { "GeForce RTX 4090", "rtx4090" }, { "NVIDIA_L4", "l4" },
        { "a100_pcie_80gb", "a100-pcie-80gb" },
        /* the brand words before an alias: NVIDIA, Tesla */
        { "NVIDIA H100", "h100-sxm5-80gb" }, { "Tesla V100", "v100-sxm2-16gb" }, { "NVIDIA Tesla P4", "tesla-p4" },
        { "tesla-m40", "tesla-m40" }, { "Tesla M40", "tesla-m40" },
        /* the form factor without the memory: the most common variant */
        { "H100-SXM", "h100-sxm5-80gb" }, { "h100 sxm5", "h100-sxm5-80gb" }, { "NVIDIA H100-PCIe", "h100-pcie-80gb" },
        { "a100-sxm", "a100-sxm4-40gb" }, { "A100 80GB", "a100-sxm4-80gb" }, { "V100-PCIE", "v100-pcie-16gb" },
        { "h200_sxm", "h200-sxm-141gb" },
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const seer_gpu_info_t *g = seer_gpu_lookup(pairs[i][0]);
        REQUIRE(g != NULL);
        CHECK(!strcmp(g->id, pairs[i][1]));
        seer_gpu_info_t info;
        CHECK_STATUS(seer_gpu_find(NULL, pairs[i][0], &info), SEER_STATUS_SUCCESS);
        CHECK(!strcmp(info.id, pairs[i][1]));
    }
    /* another product of the same chip is not guessed */
    static const char *const unknown[] = {"NVIDIA H100 NVL", "NVIDIA", "NVIDIA ", "NVIDIA_", "Tesla", "GeForce", "NVIDIA GeForce",
                                           "H100 80GB", "", "a100--pcie-80gb", "p4-"};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) CHECK(seer_gpu_lookup(unknown[i]) == NULL);
}

TEST(gpu_every_id_is_itself)
{
    /* seer_gpu_lookup takes a table id as itself before any name
     * matching (gpu.c): the matching, which an id in capitals goes
     * through, must give the same entry, strictly and loosely */
    int n = 0;
    REQUIRE(seer_gpu_count(&n) == SEER_STATUS_SUCCESS && n > 30);
    for (int i = 0; i < n; i++) {
        seer_gpu_info_t g;
        REQUIRE(seer_gpu_get(i, &g) == SEER_STATUS_SUCCESS);
        char up[sizeof g.id];
        for (size_t j = 0; j < sizeof up; j++) up[j] = (char)toupper((unsigned char)g.id[j]);
        const seer_gpu_info_t *a = seer_gpu_lookup(g.id), *b = seer_gpu_lookup(up), *c = seer_gpu_lookup_strict(up);
        CHECK(a && b && c && a == b && a == c && !strcmp(a->id, g.id));
        if (!(a && a == b && a == c)) printf("\n    %s: %s", g.id, b ? b->id : "none");
    }
}

TEST(gpu_unknown)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_gpu_info_t info;
    memset(&info, 0x5a, sizeof info);
    CHECK_STATUS(seer_gpu_find(h, "rtx9999", &info), SEER_STATUS_UNKNOWN_GPU);
    CHECK(strstr(seer_get_last_error(h), "rtx9999") != NULL);
    /* every call taking a GPU id says the same: where the ids are, how to add one */
    static const char hint[] = "unknown GPU 'rtx9999' (`seer gpus` lists the known ids; a GPU description file "
                               "registers another)";
    CHECK(!strcmp(seer_get_last_error(h), hint));
    seer_model_t m = NULL;
    CHECK_STATUS(seer_model_open(h, "models", "rtx9999", &m), SEER_STATUS_UNKNOWN_GPU);
    CHECK(m == NULL && !strcmp(seer_get_last_error(h), hint));
    const char *paths[] = {"no-such.csv"};
    CHECK_STATUS(seer_train(h, "rtx9999", paths, 1, 0, &m), SEER_STATUS_UNKNOWN_GPU);
    CHECK(m == NULL && !strcmp(seer_get_last_error(h), hint));
    CHECK(((unsigned char *)&info)[0] == 0x5a); /* untouched */
    CHECK_STATUS(seer_gpu_find(NULL, "", &info), SEER_STATUS_UNKNOWN_GPU);
    CHECK_STATUS(seer_gpu_find(h, "a100-", &info), SEER_STATUS_UNKNOWN_GPU);
    CHECK_STATUS(seer_gpu_find(h, NULL, &info), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_gpu_find(h, "t4", NULL), SEER_STATUS_BAD_PARAM);
    CHECK(seer_gpu_lookup(NULL) == NULL);
    CHECK(seer_gpu_lookup("nope") == NULL);
    /* A long id is cut in the message, not overflowing it. */
    char big[3000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    CHECK_STATUS(seer_gpu_find(h, big, &info), SEER_STATUS_UNKNOWN_GPU);
    CHECK(strlen(seer_get_last_error(h)) < 200);
    seer_destroy(h);
}

TEST(gpu_peak_rates)
{
    seer_gpu_info_t a = gpu("a100-sxm4-40gb"), t = gpu("t4"), p = gpu("p100-pcie-16gb");
    CHECK(seer_gpu_peak_flops(&a, SEER_DTYPE_FP32) == a.fp32_tflops * 1e12);
    CHECK(seer_gpu_peak_flops(&a, SEER_DTYPE_FP16_PSEUDO) == a.fp32_tflops * 1e12);
    CHECK(seer_gpu_peak_flops(&a, SEER_DTYPE_TF32) == 156e12);
    CHECK(seer_gpu_peak_flops(&a, SEER_DTYPE_FP16) == 312e12);
    CHECK(seer_gpu_peak_flops(&a, SEER_DTYPE_BF16) == 312e12);
    CHECK(seer_gpu_peak_flops(&t, SEER_DTYPE_FP16) == 65e12);
    CHECK(seer_gpu_peak_flops(&t, SEER_DTYPE_BF16) == 0);
    CHECK(seer_gpu_peak_flops(&t, SEER_DTYPE_TF32) == 0);
    CHECK(seer_gpu_peak_flops(&p, SEER_DTYPE_FP16) == 0);
    CHECK(seer_gpu_peak_flops(&p, SEER_DTYPE_FP16_PSEUDO) > 0);
    CHECK(seer_gpu_peak_flops(&a, (seer_dtype_t)99) == 0);
    CHECK(seer_gpu_peak_flops(NULL, SEER_DTYPE_FP32) == 0);
    CHECK(seer_gpu_dram_bw(&a) == 1555e9);
    CHECK(seer_gpu_dram_bw(NULL) == 0);
}

/* SIMT kernels issue FFMAs at a share of the FP32 peak on the SMs of 32
 * FP32 lanes per scheduler (compute capability 8.6 and later, 128 lanes
 * per SM), at all of it on 64-lane SMs and on Pascal's dual-issue 128;
 * tensor-core math and the datasheet peak are untouched. */
TEST(gpu_fma_issue_share)
{
    static const char *const full[] = {"a100-pcie-80gb", "v100-sxm2-16gb", "t4", "gtx1080ti", "titan-x-maxwell", "a30"};
    static const char *const shared[] = {"a10", "rtx3090", "l4", "rtx4090", "h100-sxm5-80gb", "h200-sxm-141gb"};
    for (int i = 0; i < 6; i++) {
        seer_gpu_info_t f = gpu(full[i]), s = gpu(shared[i]);
        CHECK(seer_gpu_fma_issue_share(&f) == 1);
        CHECK(seer_gpu_kernel_peak(&f, SEER_DTYPE_FP32) == seer_gpu_peak_flops(&f, SEER_DTYPE_FP32));
        CHECK(seer_gpu_fma_issue_share(&s) == SEER_FMA_ISSUE_SHARE);
        double want = SEER_FMA_ISSUE_SHARE * s.fp32_tflops * 1e12;
        CHECK_NEAR(seer_gpu_kernel_peak(&s, SEER_DTYPE_FP32), want, 1e-12);
        CHECK_NEAR(seer_gpu_kernel_peak(&s, SEER_DTYPE_FP16_PSEUDO), want, 1e-12);
        CHECK(seer_gpu_kernel_peak(&s, SEER_DTYPE_FP16) == seer_gpu_peak_flops(&s, SEER_DTYPE_FP16));
        CHECK(seer_gpu_kernel_peak(&s, SEER_DTYPE_TF32) == seer_gpu_peak_flops(&s, SEER_DTYPE_TF32));
    }
    /* a described GPU of 64 lanes per SM at compute capability 8.6 keeps
     * its whole peak: the lanes decide, not the generation alone */
    seer_gpu_info_t g = gpu("a10");
    g.fp32_tflops /= 2;
    CHECK(seer_gpu_fma_issue_share(&g) == 1);
    CHECK(seer_gpu_fma_issue_share(NULL) == 1);
}

/* Streaming kernels: the measured copy rate where seer-bench measured one
 * (H100 SXM5, H200), else the datasheet rate times the Hopper share. */
TEST(gpu_streaming_rate)
{
    seer_gpu_info_t a = gpu("a100-sxm4-80gb"), h = gpu("h100-sxm5-80gb"), w = gpu("h200-sxm-141gb");
    double gbps = 0, gap = 0;
    CHECK_STATUS(seer_gpu_streaming(&a, &gbps, &gap), SEER_STATUS_SUCCESS);
    CHECK(a.dram_stream_gbps == 0);
    CHECK_NEAR(gbps, 0.81 * 2039, 1e-9);
    CHECK_NEAR(gap, 3.0, 1e-12);
    CHECK_STATUS(seer_gpu_streaming(&h, &gbps, NULL), SEER_STATUS_SUCCESS);
    CHECK(gbps == 2742);
    CHECK_STATUS(seer_gpu_streaming(&w, NULL, &gap), SEER_STATUS_SUCCESS);
    CHECK(seer_gpu_stream_bw(&w) == 3854e9);
    /* measured never above the datasheet peak it was measured against */
    CHECK(h.dram_stream_gbps < h.dram_gbps && w.dram_stream_gbps < w.dram_gbps);
    CHECK_STATUS(seer_gpu_streaming(NULL, &gbps, &gap), SEER_STATUS_BAD_PARAM);
    CHECK(seer_gpu_stream_bw(NULL) == 0);
}

/* Expected values worked out by hand from cuda_occupancy.h (CUDA 12):
 * regs per warp = ceil(regs*32 / 256)*256; warps per SM by registers =
 * floor(regs_per_sm / 4 / regs_per_warp) * 4 (per sub-partition; 2 on
 * GP100); smem per block = ceil((smem + reserved) / unit) * unit. */
TEST(occupancy_a100)
{
    /* 8 warps, 2048 regs/warp: 8 warps per sub-partition = 32 -> 4. */
    CHECK(occ("a100", 256, 64, 0) == 4);
    /* 4 warps, 1024 regs/warp: 64 warps -> 16 (also the warp limit). */
    CHECK(occ("a100", 128, 32, 0) == 16);
    /* Without registers: warps 64/8 = 8; the 1 KB reservation alone
     * allows 164 blocks. */
    CHECK(occ("a100", 256, 0, 0) == 8);
    CHECK(occ("a100", 32, 0, 0) == 32);   /* block limit */
    CHECK(occ("a100", 33, 0, 0) == 32);   /* 2 warps: 64/2 = 32 */
    CHECK(occ("a100", 96, 0, 0) == 21);   /* 3 warps: 64/3 */
    /* Sub-partition rounding: 40 regs -> 1280/warp, 12 warps per
     * sub-partition = 48 warps -> 24 blocks of 2 warps (not 51/2 = 25). */
    CHECK(occ("a100", 64, 40, 0) == 24);
    /* 255 regs -> 8192/warp: 2 warps per sub-partition = 8 warps. */
    CHECK(occ("a100", 256, 255, 0) == 1);
    CHECK(occ("a100", 1024, 64, 0) == 1);
    CHECK(occ("a100", 1024, 65, 0) == -1);  /* 2304*32 > 65536 regs per block */
    /* Shared memory: 48 KB + 1 KB reserved = 50176 -> 167936/50176 = 3. */
    CHECK(occ("a100", 128, 32, 48 * 1024) == 3);
    /* 1 byte + 1 KB -> 1152 (128-byte units) -> 145. */
    CHECK(occ("a100", 32, 0, 1) == 32);
    CHECK(occ("a100", 1024, 0, 1) == 2);
    CHECK(occ("a100", 64, 0, 40000) == 4);  /* 41024 -> 41088: 167936/41088 = 4 */
    CHECK(occ("a100", 128, 0, 166912) == 1); /* the opt-in maximum */
    CHECK(occ("a100", 128, 0, 166913) == -1);
}

TEST(occupancy_v100_t4)
{
    /* V100: 96 KB per SM, 256-byte units, no reservation. */
    CHECK(occ("v100", 256, 32, 48 * 1024) == 2);
    CHECK(occ("v100", 256, 32, 32 * 1024 + 1) == 2); /* 33024: 98304/33024 = 2 */
    CHECK(occ("v100", 256, 32, 32 * 1024) == 3);
    CHECK(occ("v100", 128, 0, 0) == 16);
    CHECK(occ("v100", 32, 0, 1) == 32);
    CHECK(occ("v100", 128, 0, 96 * 1024) == 1);
    CHECK(occ("v100", 128, 0, 96 * 1024 + 1) == -1);
    CHECK(occ("v100", 128, 128, 0) == 4); /* 4096 regs/warp: 16 warps */
    /* T4: 32 warps, 16 blocks, 64 KB. */
    CHECK(occ("t4", 256, 32, 0) == 4);
    CHECK(occ("t4", 32, 0, 0) == 16);
    CHECK(occ("t4", 1024, 0, 0) == 1);
    CHECK(occ("t4", 128, 32, 20 * 1024) == 3);
    CHECK(occ("t4", 128, 64, 0) == 8);    /* regs: 32 warps = 8 blocks; warps: 8 */
    CHECK(occ("t4", 128, 128, 0) == 4);   /* 16 warps */
    CHECK(occ("t4", 64, 0, 64 * 1024) == 1);
    CHECK(occ("t4", 64, 0, 64 * 1024 + 1) == -1);
}

TEST(occupancy_other_archs)
{
    /* GP100 has 2 sub-partitions: 32768/1280 = 25 per half -> 50 warps. */
    CHECK(occ("p100-pcie-16gb", 64, 40, 0) == 25);
    CHECK(occ("tesla-p4", 64, 40, 0) == 24);
    CHECK(occ("p100-pcie-16gb", 128, 0, 48 * 1024) == 1);
    CHECK(occ("p100-pcie-16gb", 128, 0, 48 * 1024 + 1) == -1);
    CHECK(occ("gtx1080ti", 128, 0, 48 * 1024) == 2);
    /* GA10x / Ada: 48 warps; 16 resp. 24 blocks. */
    CHECK(occ("rtx3090", 256, 0, 0) == 6);
    CHECK(occ("rtx3090", 64, 0, 0) == 16);
    CHECK(occ("l4", 64, 0, 0) == 24);
    CHECK(occ("l4", 128, 0, 99 * 1024) == 1);
    CHECK(occ("l4", 128, 0, 99 * 1024 + 1) == -1);
    CHECK(occ("a10", 128, 0, 32 * 1024) == 3); /* 33792: 102400/33792 = 3 */
    /* Hopper: 228 KB per SM. */
    CHECK(occ("h100", 128, 0, 100 * 1024) == 2);
    CHECK(occ("h100", 128, 0, 227 * 1024) == 1);
    CHECK(occ("h100", 128, 0, 227 * 1024 + 1) == -1);
}

TEST(occupancy_bad_params)
{
    seer_gpu_info_t g = gpu("a100-pcie-80gb");
    int b = 77;
    CHECK_STATUS(seer_occupancy(NULL, 128, 32, 0, &b), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_occupancy(&g, 128, 32, 0, NULL), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_occupancy(&g, 0, 32, 0, &b), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_occupancy(&g, -1, 32, 0, &b), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_occupancy(&g, 1025, 32, 0, &b), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_occupancy(&g, 128, -1, 0, &b), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_occupancy(&g, 128, 256, 0, &b), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_occupancy(&g, 128, 32, -1, &b), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_occupancy(&g, INT_MAX, INT_MAX, INT_MAX, &b), SEER_STATUS_BAD_PARAM);
    CHECK(b == 77);
    /* A zeroed table entry must not divide by zero. */
    seer_gpu_info_t z;
    memset(&z, 0, sizeof z);
    CHECK_STATUS(seer_occupancy(&z, 128, 32, 0, &b), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_occupancy(&g, 1024, 255, 0, &b), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_occupancy(&g, 1024, 64, 0, &b), SEER_STATUS_SUCCESS);
    CHECK(b == 1);
}

TEST(occupancy_every_gpu_full_block)
{
    int n;
    seer_gpu_count(&n);
    for (int i = 0; i < n; i++) {
        seer_gpu_info_t g;
        seer_gpu_get(i, &g);
        int b = 0;
        CHECK_STATUS(seer_occupancy(&g, g.threads_per_block, 64, g.smem_per_block, &b),
                     SEER_STATUS_SUCCESS);
        CHECK(b == 1);
        CHECK_STATUS(seer_occupancy(&g, 32, 0, 0, &b), SEER_STATUS_SUCCESS);
        CHECK(b == g.blocks_per_sm);
    }
}

TEST(waves_and_last_fill)
{
    double w = -1, f = -1;
    CHECK_STATUS(seer_waves(1, 10, &w, &f), SEER_STATUS_SUCCESS);
    CHECK(w == 1 && f == 0.1);
    CHECK_STATUS(seer_waves(10, 10, &w, &f), SEER_STATUS_SUCCESS);
    CHECK(w == 1 && f == 1);
    CHECK_STATUS(seer_waves(11, 10, &w, &f), SEER_STATUS_SUCCESS);
    CHECK(w == 2 && f == 0.1);
    CHECK_STATUS(seer_waves(432, 432, &w, &f), SEER_STATUS_SUCCESS);
    CHECK(w == 1 && f == 1);
    CHECK_STATUS(seer_waves(1000, 432, &w, &f), SEER_STATUS_SUCCESS);
    CHECK(w == 3 && fabs(f - 136.0 / 432) < 1e-15);
    CHECK_STATUS(seer_waves(LLONG_MAX, 1, &w, &f), SEER_STATUS_SUCCESS);
    CHECK(w == (double)LLONG_MAX && f == 1);
    CHECK_STATUS(seer_waves(LLONG_MAX, LLONG_MAX, &w, &f), SEER_STATUS_SUCCESS);
    CHECK(w == 1 && f == 1);
    CHECK_STATUS(seer_waves(LLONG_MAX, LLONG_MAX - 1, &w, &f), SEER_STATUS_SUCCESS);
    CHECK(w == 2 && f > 0 && f < 1e-15);
    w = f = -1;
    CHECK_STATUS(seer_waves(0, 10, &w, &f), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_waves(-5, 10, &w, &f), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_waves(5, 0, &w, &f), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_waves(5, -1, &w, &f), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_waves(5, 1, NULL, &f), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_waves(5, 1, &w, NULL), SEER_STATUS_BAD_PARAM);
    CHECK(w == -1 && f == -1);
}

/* docs/gpus.md lists the table; these are its rows, so a change to the
 * table that forgets the doc fails here with the row to paste. */
static void gpu_doc_row(const seer_gpu_info_t *g, char *buf, size_t size)
{
    snprintf(buf, size,
             "| %s | %s | %d.%d | %d | %.0f | %.2f | %g | %g | %g | %.2f | %g | %g | %g |",
             g->id, g->name, g->cc_major, g->cc_minor, g->sms, g->boost_mhz, g->fp32_tflops,
             g->fp16_tflops, g->bf16_tflops, g->tf32_tflops, g->fp16_simt_tflops, g->dram_gbps,
             g->dram_gib, g->l2_bytes / 1048576.0);
}

static void cc_doc_row(const seer_gpu_info_t *g, char *buf, size_t size)
{
    snprintf(buf, size, "| %d.%d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |",
             g->cc_major, g->cc_minor, g->regs_per_sm, g->regs_per_block,
             g->max_regs_per_thread, g->reg_alloc_unit, g->smem_per_sm, g->smem_per_block,
             g->smem_reserved_per_block, g->smem_alloc_unit, g->threads_per_sm,
             g->threads_per_block, g->blocks_per_sm, g->warps_per_sm);
}

TEST(gpu_doc_matches_table)
{
    FILE *f = fopen("docs/gpus.md", "rb");
    if (!f) SKIP("docs/gpus.md not found (run from the repository root)");
    static char doc[1 << 16];
    size_t len = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[len] = 0;
    int n;
    seer_gpu_count(&n);
    for (int i = 0; i < n; i++) {
        seer_gpu_info_t g;
        seer_gpu_get(i, &g);
        char row[512];
        gpu_doc_row(&g, row, sizeof row);
        if (!strstr(doc, row)) {
            printf("\n    docs/gpus.md lacks: %s\n", row);
            CHECK(!"docs/gpus.md GPU row matches the table");
        }
        cc_doc_row(&g, row, sizeof row);
        if (!strstr(doc, row)) {
            printf("\n    docs/gpus.md lacks: %s\n", row);
            CHECK(!"docs/gpus.md compute capability row matches the table");
        }
    }
}
