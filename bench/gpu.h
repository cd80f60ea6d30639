/* bench/gpu.h - seer-bench modules that talk to the GPU (CUDA, cuDNN,
 * CUPTI, cuBLAS).  Only main.c and these modules include CUDA headers. */
#ifndef SEER_BENCH_GPU_H
#define SEER_BENCH_GPU_H
#include <cuda_runtime_api.h>
#include "bench.h"

/* ---- profile.c: library versions for profile.txt and manifest.txt ---- */

/* cuDNN (cudnnGetVersion), CUPTI API and cuBLAS versions; 0 where a query
 * fails. */
void seer_bench_lib_versions(int cudnn[3], uint32_t *cupti, int cublas[3]);

/* ---- nvml.c: NVML through dlopen (never linked) ---- */

/* Driver release ("580.159.04").  -1 where NVML is absent. */
int seer_bench_nvml_driver(char *buf, size_t len);
/* The driver release from NVML, else "cuda-13.0" (the CUDA version the
 * driver supports, from cudaDriverGetVersion), else "unknown". */
void seer_bench_driver_release(char *buf, size_t len);
/* Current SM clock of a CUDA device, MHz; 0 if unknown. */
int seer_bench_nvml_sm_clock(int cuda_dev);
/* Current and maximum SM and memory clocks, MHz.  0, or -1 (unknown
 * values are 0). */
int seer_bench_nvml_clocks(int cuda_dev, int *sm_mhz, int *mem_mhz, int *max_sm_mhz, int *max_mem_mhz);
void seer_bench_nvml_close(void);

/* ---- trace.c: CUPTI Activity API ---- */

enum { SEER_BENCH_REC_KERNEL, SEER_BENCH_REC_MEMSET, SEER_BENCH_REC_MEMCPY };

typedef struct {
    int kind;                   /* SEER_BENCH_REC_* */
    uint32_t corr;              /* CUPTI correlation id of the launching API call */
    uint32_t stream;            /* CUPTI stream id */
    uint64_t start, end;        /* ns, CUPTI clock; never 0 */
    int grid[3], block[3], cluster[3];  /* kernels; cluster 0 where none */
    int regs, smem_static, smem_dynamic;
    char *name;                 /* mangled, as CUPTI reports it; "[memset]", "[memcpy]" (owned) */
} seer_bench_kernel_rec_t;

/* Register buffers and enable kernel, memset and memcpy records (no API
 * records: their tracing would be timed with every call).  0, or -1 with
 * the CUPTI error in err. */
int seer_bench_trace_init(char *err, size_t errlen);
/* Flush CUPTI's buffers (call after synchronizing the device), then hand
 * over every record collected since the last take.  Records with a zero
 * or reversed timestamp are not handed over but counted.  Caller frees
 * with seer_bench_trace_release. */
int seer_bench_trace_take(seer_bench_kernel_rec_t **recs, size_t *n);
void seer_bench_trace_release(seer_bench_kernel_rec_t *recs, size_t n);
/* Stop or restart recording (the metrics pass replays kernels). */
int seer_bench_trace_kernels(int on);
uint64_t seer_bench_trace_now(void);          /* CUPTI timestamp, ns */
size_t seer_bench_trace_dropped(void);        /* records CUPTI dropped so far */
size_t seer_bench_trace_bad_timestamps(void); /* records refused for their timestamps */
/* Flush, stop recording and release what is left. */
void seer_bench_trace_shutdown(void);
const char *seer_bench_cupti_error(int result); /* "CUPTI_ERROR_..." */

/* ---- metrics.c: CUPTI Range Profiler ---- */

enum { SEER_METRIC_DRAM_READ, SEER_METRIC_DRAM_WRITE, SEER_METRIC_SM_PCT, SEER_METRIC_DRAM_PCT,
       SEER_METRIC_OCC_PCT, SEER_METRIC_TENSOR_PCT, SEER_METRIC_COUNT };
#define SEER_METRICS_MAX_RANGES 64

/* Set up the Range Profiler for the current device.  0: ready.  -1: not
 * available (message in msg: counters refused, unsupported, ...). */
int seer_bench_metrics_init(int device, char *msg, size_t len);
/* Profile the kernels launched between begin and end (auto ranges: one per
 * kernel, kernel replay).  end writes vals[kernel][metric] for up to
 * SEER_METRICS_MAX_RANGES kernels (NaN where a metric is unavailable) and
 * their count.  -1 with msg on failure; after a privilege error further
 * calls fail at once. */
int seer_bench_metrics_begin(char *msg, size_t len);
int seer_bench_metrics_end(double vals[][SEER_METRIC_COUNT], int *n_kernels, char *msg,
                           size_t len);
void seer_bench_metrics_shutdown(void);
/* The metric names asked for (those the chip accepted) and passes needed. */
const char *seer_bench_metrics_names(void);
int seer_bench_metrics_passes(void);

/* ---- conv.c: cuDNN sweep ---- */

typedef struct seer_bench_run seer_bench_run_t;

/* Output files and resume state of one sweep. */
typedef struct {
    FILE *layers, *kernels, *picks;
    seer_bench_set_t done;      /* "entry key|algo" rows already in layers.csv */
    seer_bench_set_t picked;    /* entry keys already in picks.csv */
    long long next_call_id;
    char gpu[32];
    char source[96];            /* seer-bench:<gpu>:<seed>:cudnn<version> */
    long long rows, failures, kernel_rows;
    long long unattributed;     /* kernels inside the timed span tied to no repetition */
    long long untimed;          /* kernels handed over with a call's timed ones that ran
                                   before them (late warm-up or cudnnFind records) */
    long long side_stream;      /* tied kernels that ran on another stream than the hold's */
    long long kernel_capped;    /* calls of more kernels than get kernel rows */
    long long hold_expired;     /* repetitions whose stream hold timed out first */
} seer_bench_out_t;

int seer_bench_run_create(const seer_bench_opts_t *o, seer_bench_out_t *out,
                          seer_bench_run_t **run, char *err, size_t errlen);
/* Metrics phase: one unprofiled call of (shape, algorithm, math type),
 * then one under the Range Profiler; vals and *nk as metrics_end.  0, -1
 * with the reason in msg, -2 when the CUDA context is lost. */
int seer_bench_metrics_call(seer_bench_run_t *run, const seer_bench_conv_t *cv, int algo, int math,
                            double vals[][SEER_METRIC_COUNT], int *nk, char *msg, size_t len);
/* Index of an algorithm name of a direction, of a math type name; -1. */
int seer_bench_algo_index(int dir, const char *name);
int seer_bench_math_index(const char *name);
/* The metrics phase (bench/mphase.c): counters for every successful call
 * in DIR/layers.csv not yet in DIR/metrics.csv, merged into
 * DIR/kernels.csv at the end.  Never enables activity tracing.  o->minutes
 * (0: none) bounds it, counted from the call: checked before each call, the
 * calls not reached are left for a later --metrics-only.  Exit status for
 * main. */
int seer_bench_metrics_phase(const seer_bench_opts_t *o);
/* Stop measuring at t (CLOCK_MONOTONIC seconds): run_entry checks it
 * before each algorithm.  0 (the default) means no deadline. */
void seer_bench_run_deadline(seer_bench_run_t *run, double t);
/* Measure one plan entry: picks, then every usable algorithm.  Returns 0;
 * 1 if nothing was left to measure (resume); 2 if the deadline came before
 * every algorithm was measured (the rows written stand; --resume finishes
 * the entry); -1 on a fatal error (the CUDA context is lost or a file
 * cannot be written), message in err. */
int seer_bench_run_entry(seer_bench_run_t *run, const seer_bench_conv_t *cv, char *err,
                         size_t errlen);
void seer_bench_run_destroy(seer_bench_run_t *run);
void seer_bench_layers_header(FILE *f);
void seer_bench_kernels_header(FILE *f);
void seer_bench_picks_header(FILE *f);

/* ---- profile.c: microbenchmarks -> profile.txt ---- */
/* Run the microbenchmarks and write the profile file and, from it, the
 * GPU description file at gpu_path (docs/formats.md).  Failures of single
 * benchmarks leave their keys empty and are reported on stderr. */
int seer_bench_profile(const char *path, const char *gpu_path, const char *gpu_id, int device, char *err,
                       size_t errlen);
#endif
