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

int seer_bench_profile(const char *path, const char *gpu_id, int device, char *err, size_t errlen)
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

    size_t dnn;
    uint32_t cupti;
    int cb[3];
    seer_bench_lib_versions(&dnn, &cupti, cb);
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
    fprintf(f, "driver=%d.%d\ncuda_runtime=%d.%d\ncudnn=%zu.%zu.%zu\ncupti_api=%u\ncublas=%d.%d.%d\n",
            drv / 1000, drv % 1000 / 10, rt / 1000, rt % 1000 / 10, dnn / 10000, dnn % 10000 / 100,
            dnn % 100, cupti, cb[0], cb[1], cb[2]);
    fprintf(f, "measured_at=%s\n", stamp);
    if (seer_bench_sync(f) != 0 || fclose(f) != 0 || rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot write %s", path);
        return -1;
    }
    fprintf(stderr,
            "seer-bench: fp32 %.1f TFLOP/s, fp16/bf16/tf32 %.0f/%.0f/%.0f TFLOP/s, DRAM r/w/copy "
            "%.0f/%.0f/%.0f GB/s, L2 %.0f GB/s, launch %.2f us\n",
            fp32, tc[0], tc[1], tc[2], rd, wr, cp, l2bw, lat);
    return 0;
}

void seer_bench_lib_versions(size_t *cudnn, uint32_t *cupti, int cublas[3])
{
    *cudnn = cudnnGetVersion();
    if (cuptiGetVersion(cupti) != CUPTI_SUCCESS) *cupti = 0;
    if (cublasGetProperty(MAJOR_VERSION, &cublas[0]) != CUBLAS_STATUS_SUCCESS ||
        cublasGetProperty(MINOR_VERSION, &cublas[1]) != CUBLAS_STATUS_SUCCESS ||
        cublasGetProperty(PATCH_LEVEL, &cublas[2]) != CUBLAS_STATUS_SUCCESS)
        cublas[0] = cublas[1] = cublas[2] = 0;
}
