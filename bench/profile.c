/* bench/profile.c - run the microbenchmarks (kernels/) and write the
 * measured GPU profile, a key=value file libseer can read in place of the
 * datasheet numbers of its GPU table (format: docs/seer-bench.md). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cublas_v2.h>
#include <cudnn.h>
#include <cupti.h>
#include "gpu.h"
#include "micro.h"

static void kv_num(FILE *f, const char *key, double v)
{
    if (isfinite(v) && v > 0) fprintf(f, "%s=%.4g\n", key, v);
    else fprintf(f, "%s=\n", key); /* empty: not measured */
}

static const char *arch_name(int major, int minor)
{
    switch (major) {
    case 6: return "pascal";
    case 7: return minor >= 5 ? "turing" : "volta";
    case 8: return minor == 9 ? "ada" : "ampere";
    case 9: return "hopper";
    case 10: case 11: case 12: return "blackwell";
    }
    return "unknown";
}

/* FP16 rate without tensor cores relative to FP32 (whitepapers; the rule
 * of libseer/gpu.c): GP100, Volta, Turing, Hopper 2x, GA100 4x, GA10x,
 * Ada and later 1x, GP10x 1/64.  Not measured: no microbenchmark. */
static double fp16_simt_ratio(int major, int minor)
{
    if (major == 6) return minor == 0 ? 2 : 1.0 / 64;
    if (major == 7 || major == 9) return 2;
    if (major == 8 && minor == 0) return 4;
    return 1;
}

/* The GPU description file (docs/formats.md) libseer registers with
 * seer_gpu_register_file / --gpu FILE: device properties from the
 * runtime, the measured ceilings as its peak rates, provenance as info.*
 * keys.  Written only when the rates it needs were measured. */
static int write_gpu_file(const char *path, const char *gpu_id, int device, const struct cudaDeviceProp *p, int clk_khz,
                          int l2, size_t total_b, double fp32, const double tc[3], double dram,
                          double copy, const char *stamp, char *err, size_t errlen)
{
    if (!(fp32 > 0) || !(dram > 0)) {
        fprintf(stderr, "seer-bench: no %s: the FP32 or DRAM benchmark failed\n", path);
        return 0;
    }
    char tmp[4096], rel[96];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
        return -1;
    }
    int dnn[3];
    uint32_t cupti;
    int cb[3], rt = 0;
    seer_bench_lib_versions(dnn, &cupti, cb);
    seer_bench_driver_release(rel, sizeof rel);
    if (cudaRuntimeGetVersion(&rt) != cudaSuccess) rt = 0;
    /* Which --gpu to give: libseer refuses a file under an id its table
     * has (docs/seer-bench.md), and seer-bench, which does not link libseer,
     * cannot tell which case this is. */
    fprintf(f, "# GPU description written by seer-bench (docs/formats.md): rates are the\n"
               "# microbenchmarked ceilings of this GPU, not datasheet peaks.\n"
               "# For a GPU libseer's table lacks (seer gpus lists the table):\n"
               "# seer train --gpu THIS_FILE ...; seer predict --gpu THIS_FILE ...\n"
               "# For a GPU in the table this file is refused: give its id, --gpu ID.\n"
               "seer-gpu=1\n");
    fprintf(f, "id=%s\nname=%s\narch=%s\ncc=%d.%d\nsms=%d\nboost_mhz=%d\n", gpu_id, p->name,
            arch_name(p->major, p->minor), p->major, p->minor, p->multiProcessorCount, clk_khz / 1000);
    fprintf(f, "fp32_tflops=%.4g\n", fp32);
    static const char *const tk[3] = {"fp16_tflops", "bf16_tflops", "tf32_tflops"};
    for (int i = 0; i < 3; i++)
        if (tc[i] > 0) fprintf(f, "%s=%.4g\n", tk[i], tc[i]);
    fprintf(f, "fp16_simt_tflops=%.4g\ndram_gbps=%.4g\ndram_gib=%.4g\nl2_bytes=%d\n",
            fp32 * fp16_simt_ratio(p->major, p->minor), dram, (double)total_b / (1u << 30), l2);
    /* what streaming kernels reach: libseer times non-conv layers with it */
    if (copy > 0) fprintf(f, "dram_stream_gbps=%.4g\n", copy);
    fprintf(f, "regs_per_sm=%d\nregs_per_block=%d\nsmem_per_sm=%zu\nsmem_per_block=%zu\n"
               "smem_reserved_per_block=%zu\nthreads_per_sm=%d\nthreads_per_block=%d\n"
               "blocks_per_sm=%d\nwarps_per_sm=%d\n",
            p->regsPerMultiprocessor, p->regsPerBlock, p->sharedMemPerMultiprocessor, p->sharedMemPerBlockOptin,
            p->reservedSharedMemPerBlock, p->maxThreadsPerMultiProcessor, p->maxThreadsPerBlock,
            p->maxBlocksPerMultiProcessor, p->maxThreadsPerMultiProcessor / 32);
    /* not reported by the runtime: the CUDA occupancy calculator's values */
    fprintf(f, "max_regs_per_thread=255\nreg_alloc_unit=256\nsmem_alloc_unit=%d\n", p->major >= 8 ? 128 : 256);
    fprintf(f, "info.source=seer-bench %s\ninfo.measured_at=%s\ninfo.driver=%s\ninfo.cuda_runtime=%d.%d\n"
               "info.cudnn=%d.%d.%d\ninfo.cublas=%d.%d.%d\ninfo.cupti_api=%u\n",
            SEER_VERSION_STRING, stamp, rel, rt / 1000, rt % 1000 / 10, dnn[0], dnn[1], dnn[2],
            cb[0], cb[1], cb[2], cupti);
    int sm, mem, msm, mmem;
    if (seer_bench_nvml_clocks(device, &sm, &mem, &msm, &mmem) == 0)
        fprintf(f, "info.sm_clock_mhz=%d\ninfo.mem_clock_mhz=%d\ninfo.max_sm_clock_mhz=%d\n"
                   "info.max_mem_clock_mhz=%d\n", sm, mem, msm, mmem);
    if (seer_bench_sync(f) != 0 || fclose(f) != 0 || rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot write %s", path);
        return -1;
    }
    return 0;
}

int seer_bench_profile(const char *path, const char *gpu_path, const char *gpu_id, int device, char *err,
                       size_t errlen)
{
    struct cudaDeviceProp prop;
    cudaError_t e;
    int clk = 0, mclk = 0, bus = 0, l2 = 0, drv = 0, rt = 0;
    size_t free_b = 0, total_b = 0;
    double fp32 = NAN, tc[3] = {NAN, NAN, NAN}, rd = NAN, wr = NAN, cp = NAN, l2bw = NAN,
           lat = NAN, lat_sync = NAN;
    if ((e = cudaGetDeviceProperties(&prop, device)) != cudaSuccess ||
        (e = cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, device)) != cudaSuccess ||
        (e = cudaDeviceGetAttribute(&mclk, cudaDevAttrMemoryClockRate, device)) != cudaSuccess ||
        (e = cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, device)) != cudaSuccess ||
        (e = cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device)) != cudaSuccess ||
        (e = cudaMemGetInfo(&free_b, &total_b)) != cudaSuccess ||
        (e = cudaDriverGetVersion(&drv)) != cudaSuccess ||
        (e = cudaRuntimeGetVersion(&rt)) != cudaSuccess) {
        snprintf(err, errlen, "device query: %s", cudaGetErrorName(e));
        return -1;
    }
    /* several times the L2 so DRAM, not L2, is measured; leave room */
    size_t dram_bytes = (size_t)l2 * 8;
    if (dram_bytes < (256u << 20)) dram_bytes = 256u << 20;
    if (dram_bytes > free_b / 4) dram_bytes = free_b / 4;
    size_t l2_bytes = (size_t)l2 / 2;
    const int l2_passes = 200, gemm_n = 8192;

    fprintf(stderr, "seer-bench: microbenchmarks on %s\n", prop.name);
#define MICRO(what, call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "seer-bench: %s benchmark failed: %s\n", what, cudaGetErrorName(e_)); \
    (void)cudaGetLastError(); } } while (0)
    MICRO("fp32", seer_micro_fp32(&fp32));
    MICRO("dram", seer_micro_dram(dram_bytes, &rd, &wr, &cp));
    if (l2_bytes >= 4096) MICRO("l2", seer_micro_l2(l2_bytes, l2_passes, &l2bw));
    MICRO("launch", seer_micro_launch(&lat, &lat_sync));
#undef MICRO
    static const char *const tc_names[3] = {"fp16", "bf16", "tf32"};
    for (int i = 0; i < 3; i++) {
        char msg[256] = "";
        if (seer_micro_gemm(i, gemm_n, &tc[i], msg, sizeof msg) != 0) {
            fprintf(stderr, "seer-bench: %s GEMM benchmark failed: %s\n", tc_names[i], msg);
            tc[i] = NAN;
            (void)cudaGetLastError();
        }
    }
    /* a failed benchmark may have left a sticky error behind */
    if ((e = cudaDeviceSynchronize()) != cudaSuccess) {
        snprintf(err, errlen, "after microbenchmarks: %s", cudaGetErrorName(e));
        return -1;
    }

    int dnn[3];
    uint32_t cupti;
    int cb[3];
    seer_bench_lib_versions(dnn, &cupti, cb);
    char stamp[32];
    seer_bench_utc_stamp(stamp, sizeof stamp);

    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
        return -1;
    }
    fprintf(f, "# seer-bench measured GPU profile (docs/seer-bench.md); empty value = not measured\n");
    fprintf(f, "format=1\ngpu=%s\nname=%s\ncc=%d.%d\nsms=%d\n", gpu_id, prop.name, prop.major,
            prop.minor, prop.multiProcessorCount);
    fprintf(f, "sm_clock_mhz=%d\nmem_clock_mhz=%d\nmem_bus_bits=%d\nl2_bytes=%d\ndram_bytes=%zu\n",
            clk / 1000, mclk / 1000, bus, l2, total_b);
    kv_num(f, "fp32_tflops", fp32);
    kv_num(f, "fp16_tflops", tc[0]);
    kv_num(f, "bf16_tflops", tc[1]);
    kv_num(f, "tf32_tflops", tc[2]);
    kv_num(f, "dram_read_gbps", rd);
    kv_num(f, "dram_write_gbps", wr);
    kv_num(f, "dram_copy_gbps", cp);
    kv_num(f, "l2_gbps", l2bw);
    kv_num(f, "launch_us", lat);
    kv_num(f, "launch_sync_us", lat_sync);
    fprintf(f, "dram_buffer_bytes=%zu\nl2_buffer_bytes=%zu\nl2_passes=%d\ngemm_n=%d\nrepeats=%d\n",
            dram_bytes, l2_bytes, l2_passes, gemm_n, SEER_MICRO_REPEATS);
    char rel[96];
    seer_bench_driver_release(rel, sizeof rel);
    fprintf(f, "driver=%s\ncuda_driver_api=%d.%d\ncuda_runtime=%d.%d\ncudnn=%d.%d.%d\ncupti_api=%u\n"
               "cublas=%d.%d.%d\n", rel, drv / 1000, drv % 1000 / 10, rt / 1000, rt % 1000 / 10, dnn[0],
            dnn[1], dnn[2], cupti, cb[0], cb[1], cb[2]);
    fprintf(f, "measured_at=%s\n", stamp);
    if (seer_bench_sync(f) != 0 || fclose(f) != 0 || rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot write %s", path);
        return -1;
    }
    if (write_gpu_file(gpu_path, gpu_id, device, &prop, clk, l2, total_b, fp32, tc, rd, cp, stamp, err, errlen) != 0)
        return -1;
    fprintf(stderr,
            "seer-bench: fp32 %.1f TFLOP/s, fp16/bf16/tf32 %.0f/%.0f/%.0f TFLOP/s, DRAM r/w/copy "
            "%.0f/%.0f/%.0f GB/s, L2 %.0f GB/s, launch %.2f us\n",
            fp32, tc[0], tc[1], tc[2], rd, wr, cp, l2bw, lat);
    return 0;
}

void seer_bench_lib_versions(int cudnn[3], uint32_t *cupti, int cublas[3])
{
    /* cuDNN 9 numbers its versions major*10000 + minor*100 + patch,
     * cuDNN 8 and older major*1000 + minor*100 + patch */
    size_t v = cudnnGetVersion();
    size_t unit = v >= 10000 ? 10000 : 1000;
    cudnn[0] = (int)(v / unit);
    cudnn[1] = (int)(v % unit / 100);
    cudnn[2] = (int)(v % 100);
    if (cuptiGetVersion(cupti) != CUPTI_SUCCESS) *cupti = 0;
    if (cublasGetProperty(MAJOR_VERSION, &cublas[0]) != CUBLAS_STATUS_SUCCESS ||
        cublasGetProperty(MINOR_VERSION, &cublas[1]) != CUBLAS_STATUS_SUCCESS ||
        cublasGetProperty(PATCH_LEVEL, &cublas[2]) != CUBLAS_STATUS_SUCCESS)
        cublas[0] = cublas[1] = cublas[2] = 0;
}
