/* bench/conv.c - measure cuDNN convolutions: for one plan entry, cuDNN's
 * own picks (cudnnGet*Algorithm_v7 ranking and cudnnFind*AlgorithmEx
 * timings), then every algorithm cuDNN supports within the workspace
 * limit: warm-up, timed repetitions with CUDA events, and the kernels
 * each call launched from CUPTI (optionally with hardware counters).
 *
 * Rows are flushed and fsync'ed as soon as a measurement is done, kernel
 * rows before their layer row, so a crash loses at most the measurement in
 * flight and --resume (which trusts layers.csv) never sees half a call. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cudnn.h>
#include "gpu.h"
#include "micro.h"

/* From libstdc++ (linked for the CUDA objects anyway); C has no header. */
char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status);

#define MAX_ALGOS 16
#define MAX_REPS 64
#define MAX_KERNELS 64

static const char *const FWD_ALGOS[] = {"IMPLICIT_GEMM", "IMPLICIT_PRECOMP_GEMM", "GEMM", "DIRECT",
                                        "FFT", "FFT_TILING", "WINOGRAD", "WINOGRAD_NONFUSED"};
static const char *const BWD_DATA_ALGOS[] = {"ALGO_0", "ALGO_1", "FFT", "FFT_TILING", "WINOGRAD",
                                             "WINOGRAD_NONFUSED"};
static const char *const BWD_FILTER_ALGOS[] = {"ALGO_0", "ALGO_1", "FFT", "ALGO_3", "WINOGRAD",
                                               "WINOGRAD_NONFUSED", "FFT_TILING"};
static const char *const MATH_NAMES[] = {"DEFAULT", "TENSOR_OP", "TENSOR_OP_ALLOW_CONVERSION", "FMA"};

static const char *algo_name(int dir, int algo)
{
    static const char *const *t[3] = {FWD_ALGOS, BWD_DATA_ALGOS, BWD_FILTER_ALGOS};
    static const int n[3] = {8, 6, 7};
    return algo >= 0 && algo < n[dir] ? t[dir][algo] : "UNKNOWN";
}

static const char *math_name(int math) { return math >= 0 && math < 4 ? MATH_NAMES[math] : ""; }

int seer_bench_algo_index(int dir, const char *name)
{
    for (int a = 0; a < 8; a++)
        if (strcmp(algo_name(dir, a), "UNKNOWN") && !strcmp(algo_name(dir, a), name)) return a;
    return -1;
}

int seer_bench_math_index(const char *name)
{
    for (int m = 0; m < 4; m++)
        if (!strcmp(MATH_NAMES[m], name)) return m;
    return -1;
}

typedef struct {
    int algo;
    cudnnStatus_t status;
    float time;                 /* ms; < 0 when not measured (v7) */
    size_t memory;
    int math;
} perf_t;

struct seer_bench_run {
    const seer_bench_opts_t *o;
    seer_bench_out_t *out;
    cudnnHandle_t dnn;
    cudaStream_t stream;
    cudaEvent_t e0, e1;
    void *ws;
    size_t ws_size;
    void *buf[3];               /* x (dx), w (dw), y (dy) */
    size_t cap[3];
    volatile int *hold_flag;    /* host side of the mapped hold flag */
    int *hold_dev;              /* its device pointer */
    void *flush;                /* scratch written between repetitions to evict L2 */
    size_t flush_floats;
    double deadline;            /* CLOCK_MONOTONIC s; 0: none */
};

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void seer_bench_run_deadline(seer_bench_run_t *run, double t) { run->deadline = t; }

typedef struct {
    cudnnTensorDescriptor_t x, y;
    cudnnFilterDescriptor_t w;
    cudnnConvolutionDescriptor_t conv;
} descs_t;

/* One measured call. */
typedef struct {
    int algo;                   /* -1: the entry failed before any algorithm */
    int math;                   /* cudnnMathType_t it ran with; -1 none */
    size_t ws;
    char status[96];
    int reps;
    double t_med, t_min, t_max, ksum, span, memop, busy;
    int sm_mhz;                 /* SM clock right after the call (NVML); 0 unknown */
    int hold_expired;           /* repetitions whose hold timed out before release */
    int nk;
    struct {
        char name[1024];
        int grid[3], block[3], cluster[3], regs, smem_s, smem_d;
        double ms;
        double m[SEER_METRIC_COUNT];
    } k[MAX_KERNELS];
} call_t;

/* ---- CSV rows ------------------------------------------------------------- */

void seer_bench_layers_header(FILE *f)
{
    fputs("gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,"
          "groups,algo,time_ms,main_kernel,grid_x,grid_y,grid_z,block_x,block_y,block_z,kernels,"
          "source,time_min_ms,time_max_ms,reps,status,part,call_id,kernel_sum_ms,workspace_bytes,"
          "layer,math_type,span_ms,memop_ms,l2_flush,hold_expired,sm_clock_mhz,busy_ms\n", f);
}

void seer_bench_kernels_header(FILE *f)
{
    fputs("gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,"
          "groups,algo,call_id,kernel_index,kernel_name,grid_x,grid_y,grid_z,block_x,block_y,"
          "block_z,regs_per_thread,smem_static,smem_dynamic,time_ms,dram_read_bytes,"
          "dram_write_bytes,sm_pct,dram_pct,occupancy_pct,tensor_pct,source,cluster_x,cluster_y,"
          "cluster_z,math_type\n", f);
}

void seer_bench_picks_header(FILE *f)
{
    fputs("gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,"
          "groups,source,rank,algo,time_ms,workspace_bytes,status,math_type\n", f);
}

static void put_num(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, ",%.6g", v);
    else fputc(',', f);
}

static int write_call(seer_bench_run_t *run, const seer_bench_conv_t *cv, const char *key,
                      const call_t *c, char *err, size_t errlen)
{
    seer_bench_out_t *o = run->out;
    const char *algo = c->algo >= 0 ? algo_name(cv->dir, c->algo) : "";
    long long id = o->next_call_id++;
    int main_k = -1;
    for (int i = 0; i < c->nk; i++)
        if (main_k < 0 || c->k[i].ms > c->k[main_k].ms) main_k = i;

    for (int i = 0; i < c->nk; i++) {
        FILE *f = o->kernels;
        seer_bench_csv_str(f, o->gpu);
        fprintf(f, ",%s,%s,%lld,%d,", key, algo, id, i);
        seer_bench_csv_str(f, c->k[i].name);
        fprintf(f, ",%d,%d,%d,%d,%d,%d,%d,%d,%d", c->k[i].grid[0], c->k[i].grid[1], c->k[i].grid[2],
                c->k[i].block[0], c->k[i].block[1], c->k[i].block[2], c->k[i].regs,
                c->k[i].smem_s, c->k[i].smem_d);
        put_num(f, c->k[i].ms);
        for (int m = 0; m < SEER_METRIC_COUNT; m++) put_num(f, c->k[i].m[m]);
        fputc(',', f);
        seer_bench_csv_str(f, o->source);
        fprintf(f, ",%d,%d,%d,%s\n", c->k[i].cluster[0], c->k[i].cluster[1], c->k[i].cluster[2],
                math_name(c->math));
        o->kernel_rows++;
    }
    if (c->nk && seer_bench_sync(o->kernels) != 0) {
        snprintf(err, errlen, "cannot write kernels.csv");
        return -1;
    }

    FILE *f = o->layers;
    int ok = !c->status[0];
    seer_bench_csv_str(f, o->gpu);
    fprintf(f, ",%s,%s", key, algo);
    put_num(f, ok ? c->t_med : NAN);
    fputc(',', f);
    if (main_k >= 0) {
        seer_bench_csv_str(f, c->k[main_k].name);
        fprintf(f, ",%d,%d,%d,%d,%d,%d,", c->k[main_k].grid[0], c->k[main_k].grid[1],
                c->k[main_k].grid[2], c->k[main_k].block[0], c->k[main_k].block[1],
                c->k[main_k].block[2]);
        /* ';'-joined: the whole field is quoted since names hold commas */
        fputc('"', f);
        for (int i = 0; i < c->nk; i++) {
            if (i) fputc(';', f);
            for (const char *p = c->k[i].name; *p; p++) {
                if (*p == '"') fputc('"', f);
                fputc(*p, f);
            }
        }
        fputc('"', f);
    } else {
        fputs(",,,,,,,", f);
    }
    fputc(',', f);
    seer_bench_csv_str(f, o->source);
    put_num(f, ok ? c->t_min : NAN);
    put_num(f, ok ? c->t_max : NAN);
    if (ok) fprintf(f, ",%d,", c->reps); else fputs(",,", f);
    seer_bench_csv_str(f, c->status);
    fprintf(f, ",%s,%lld", seer_bench_part_names[cv->part], id);
    put_num(f, ok && c->nk ? c->ksum : NAN);
    if (c->algo >= 0) fprintf(f, ",%zu,", c->ws); else fputs(",,", f);
    seer_bench_csv_str(f, cv->layer);
    fprintf(f, ",%s", math_name(c->math));
    put_num(f, ok && c->nk ? c->span : NAN);
    put_num(f, ok && c->nk ? c->memop : NAN);
    if (ok) fprintf(f, ",%d,%d", run->flush != NULL, c->hold_expired); else fputs(",,", f);
    if (c->sm_mhz > 0) fprintf(f, ",%d", c->sm_mhz); else fputc(',', f);
    put_num(f, ok && c->nk ? c->busy : NAN);
    fputc('\n', f);
    if (seer_bench_sync(f) != 0) {
        snprintf(err, errlen, "cannot write layers.csv");
        return -1;
    }
    o->rows++;
    if (!ok) o->failures++;
    char done[320];
    snprintf(done, sizeof done, "%s|%s|%s", key, algo, math_name(c->math));
    if (seer_bench_set_add(&o->done, done) < 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

/* v7 and find rows of an entry go out in one flush (sync on the last):
 * resume then sees all of an entry's picks or none. */
static int write_picks(seer_bench_run_t *run, const char *key, const char *dir_source, int dir,
                       const perf_t *p, int n, const char *failure, int sync, char *err,
                       size_t errlen)
{
    FILE *f = run->out->picks;
    if (failure) {
        seer_bench_csv_str(f, run->out->gpu);
        fprintf(f, ",%s,%s,,,,,", key, dir_source);
        seer_bench_csv_str(f, failure);
        fputs(",\n", f);
    }
    for (int i = 0; i < n; i++) {
        seer_bench_csv_str(f, run->out->gpu);
        fprintf(f, ",%s,%s,%d,%s", key, dir_source, i, algo_name(dir, p[i].algo));
        put_num(f, p[i].time >= 0 && p[i].status == CUDNN_STATUS_SUCCESS ? p[i].time : NAN);
        fprintf(f, ",%zu,%s,%s\n", p[i].memory,
                p[i].status == CUDNN_STATUS_SUCCESS ? "" : cudnnGetErrorString(p[i].status),
                math_name(p[i].math));
    }
    if (sync && seer_bench_sync(f) != 0) {
        snprintf(err, errlen, "cannot write picks.csv");
        return -1;
    }
    return 0;
}

/* ---- kernel names ----------------------------------------------------------- */

/* The demangled name without return type and parameter list, as profilers
 * print it ("cudnn::winograd_nonfused::winogradForwardData4x4<float, float>");
 * non-C++ names stay as they are. */
static void kernel_name(const char *mangled, char *out, size_t len)
{
    int st = -1;
    char *d = mangled[0] == '_' && mangled[1] == 'Z' ? __cxa_demangle(mangled, NULL, NULL, &st) : NULL;
    const char *s = d && st == 0 ? d : mangled;
    size_t n = strlen(s);
    if (d && st == 0 && n && s[n - 1] == ')') {
        int depth = 0;
        for (size_t i = n; i-- > 0;) {
            if (s[i] == ')') depth++;
            else if (s[i] == '(' && --depth == 0) { n = i; break; }
        }
    }
    if (d && st == 0 && strncmp(s, "void ", 5) == 0) { s += 5; n -= 5; }
    if (n >= len) n = len - 1;
    memcpy(out, s, n);
    out[n] = 0;
    free(d);
}

/* ---- cuDNN per direction ------------------------------------------------------ */

static cudnnStatus_t get_v7(seer_bench_run_t *run, const descs_t *d, int dir, perf_t *p, int *n)
{
    int got = 0;
    cudnnStatus_t s;
    if (dir == SEER_DIR_FWD) {
        cudnnConvolutionFwdAlgoPerf_t r[MAX_ALGOS];
        s = cudnnGetConvolutionForwardAlgorithm_v7(run->dnn, d->x, d->w, d->conv, d->y, MAX_ALGOS, &got, r);
        for (int i = 0; s == CUDNN_STATUS_SUCCESS && i < got; i++)
            p[i] = (perf_t){(int)r[i].algo, r[i].status, r[i].time, r[i].memory, (int)r[i].mathType};
    } else if (dir == SEER_DIR_BWD_DATA) {
        cudnnConvolutionBwdDataAlgoPerf_t r[MAX_ALGOS];
        s = cudnnGetConvolutionBackwardDataAlgorithm_v7(run->dnn, d->w, d->y, d->conv, d->x, MAX_ALGOS, &got, r);
        for (int i = 0; s == CUDNN_STATUS_SUCCESS && i < got; i++)
            p[i] = (perf_t){(int)r[i].algo, r[i].status, r[i].time, r[i].memory, (int)r[i].mathType};
    } else {
        cudnnConvolutionBwdFilterAlgoPerf_t r[MAX_ALGOS];
        s = cudnnGetConvolutionBackwardFilterAlgorithm_v7(run->dnn, d->x, d->y, d->conv, d->w, MAX_ALGOS, &got, r);
        for (int i = 0; s == CUDNN_STATUS_SUCCESS && i < got; i++)
            p[i] = (perf_t){(int)r[i].algo, r[i].status, r[i].time, r[i].memory, (int)r[i].mathType};
    }
    for (int i = 0; i < got; i++) p[i].time = -1; /* v7 ranks, it does not time */
    *n = s == CUDNN_STATUS_SUCCESS ? got : 0;
    return s;
}

static cudnnStatus_t find_ex(seer_bench_run_t *run, const descs_t *d, int dir, perf_t *p, int *n)
{
    int got = 0;
    cudnnStatus_t s;
    void *x = run->buf[0], *w = run->buf[1], *y = run->buf[2];
    if (dir == SEER_DIR_FWD) {
        cudnnConvolutionFwdAlgoPerf_t r[MAX_ALGOS];
        s = cudnnFindConvolutionForwardAlgorithmEx(run->dnn, d->x, x, d->w, w, d->conv, d->y, y,
                                                   MAX_ALGOS, &got, r, run->ws, run->ws_size);
        for (int i = 0; s == CUDNN_STATUS_SUCCESS && i < got; i++)
            p[i] = (perf_t){(int)r[i].algo, r[i].status, r[i].time, r[i].memory, (int)r[i].mathType};
    } else if (dir == SEER_DIR_BWD_DATA) {
        cudnnConvolutionBwdDataAlgoPerf_t r[MAX_ALGOS];
        s = cudnnFindConvolutionBackwardDataAlgorithmEx(run->dnn, d->w, w, d->y, y, d->conv, d->x, x,
                                                        MAX_ALGOS, &got, r, run->ws, run->ws_size);
        for (int i = 0; s == CUDNN_STATUS_SUCCESS && i < got; i++)
            p[i] = (perf_t){(int)r[i].algo, r[i].status, r[i].time, r[i].memory, (int)r[i].mathType};
    } else {
        cudnnConvolutionBwdFilterAlgoPerf_t r[MAX_ALGOS];
        s = cudnnFindConvolutionBackwardFilterAlgorithmEx(run->dnn, d->x, x, d->y, y, d->conv, d->w, w,
                                                          MAX_ALGOS, &got, r, run->ws, run->ws_size);
        for (int i = 0; s == CUDNN_STATUS_SUCCESS && i < got; i++)
            p[i] = (perf_t){(int)r[i].algo, r[i].status, r[i].time, r[i].memory, (int)r[i].mathType};
    }
    *n = s == CUDNN_STATUS_SUCCESS ? got : 0;
    return s;
}

static cudnnStatus_t ws_size(seer_bench_run_t *run, const descs_t *d, int dir, int algo, size_t *b)
{
    if (dir == SEER_DIR_FWD)
        return cudnnGetConvolutionForwardWorkspaceSize(run->dnn, d->x, d->w, d->conv, d->y,
                                                       (cudnnConvolutionFwdAlgo_t)algo, b);
    if (dir == SEER_DIR_BWD_DATA)
        return cudnnGetConvolutionBackwardDataWorkspaceSize(run->dnn, d->w, d->y, d->conv, d->x,
                                                            (cudnnConvolutionBwdDataAlgo_t)algo, b);
    return cudnnGetConvolutionBackwardFilterWorkspaceSize(run->dnn, d->x, d->y, d->conv, d->w,
                                                          (cudnnConvolutionBwdFilterAlgo_t)algo, b);
}

static cudnnStatus_t conv_call(seer_bench_run_t *run, const descs_t *d, int dir, int algo, size_t ws)
{
    const float one = 1.0f, zero = 0.0f; /* float scalars for float, half and bf16 data */
    void *x = run->buf[0], *w = run->buf[1], *y = run->buf[2];
    if (dir == SEER_DIR_FWD)
        return cudnnConvolutionForward(run->dnn, &one, d->x, x, d->w, w, d->conv,
                                       (cudnnConvolutionFwdAlgo_t)algo, run->ws, ws, &zero, d->y, y);
    if (dir == SEER_DIR_BWD_DATA)
        return cudnnConvolutionBackwardData(run->dnn, &one, d->w, w, d->y, y, d->conv,
                                            (cudnnConvolutionBwdDataAlgo_t)algo, run->ws, ws, &zero,
                                            d->x, x);
    return cudnnConvolutionBackwardFilter(run->dnn, &one, d->x, x, d->y, y, d->conv,
                                          (cudnnConvolutionBwdFilterAlgo_t)algo, run->ws, ws, &zero,
                                          d->w, w);
}

/* ---- descriptors and buffers ------------------------------------------------------ */

static void descs_destroy(descs_t *d)
{
    /* destroy failures cannot be acted on; the calls accept NULL */
    (void)cudnnDestroyTensorDescriptor(d->x);
    (void)cudnnDestroyTensorDescriptor(d->y);
    (void)cudnnDestroyFilterDescriptor(d->w);
    (void)cudnnDestroyConvolutionDescriptor(d->conv);
    memset(d, 0, sizeof *d);
}

#define DNN(call) do { cudnnStatus_t s_ = (call); if (s_ != CUDNN_STATUS_SUCCESS) { \
    snprintf(status, slen, "%s", cudnnGetErrorString(s_)); return -1; } } while (0)

static int descs_create(const seer_bench_conv_t *cv, descs_t *d, char *status, size_t slen)
{
    cudnnDataType_t dt = cv->dtype == SEER_DTYPE_FP32 || cv->dtype == SEER_DTYPE_TF32 ? CUDNN_DATA_FLOAT
                       : cv->dtype == SEER_DTYPE_BF16 ? CUDNN_DATA_BFLOAT16 : CUDNN_DATA_HALF;
    /* fp32 and fp16_pseudo: FMA only; the others may use tensor cores */
    cudnnMathType_t math = cv->dtype == SEER_DTYPE_FP32 || cv->dtype == SEER_DTYPE_FP16_PSEUDO
                               ? CUDNN_FMA_MATH : CUDNN_TENSOR_OP_MATH;
    cudnnTensorFormat_t fmt = cv->layout == SEER_LAYOUT_NHWC ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW;
    int n, k, p, q;
    memset(d, 0, sizeof *d);
    DNN(cudnnCreateTensorDescriptor(&d->x));
    DNN(cudnnCreateTensorDescriptor(&d->y));
    DNN(cudnnCreateFilterDescriptor(&d->w));
    DNN(cudnnCreateConvolutionDescriptor(&d->conv));
    DNN(cudnnSetTensor4dDescriptor(d->x, fmt, dt, cv->n, cv->c, cv->h, cv->w));
    DNN(cudnnSetFilter4dDescriptor(d->w, dt, fmt, cv->k, cv->c / cv->groups, cv->r, cv->s));
    DNN(cudnnSetConvolution2dDescriptor(d->conv, cv->pad_h, cv->pad_w, cv->stride_h, cv->stride_w,
                                        cv->dil_h, cv->dil_w, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
    DNN(cudnnSetConvolutionGroupCount(d->conv, cv->groups));
    DNN(cudnnSetConvolutionMathType(d->conv, math));
    DNN(cudnnGetConvolution2dForwardOutputDim(d->conv, d->x, d->w, &n, &k, &p, &q));
    DNN(cudnnSetTensor4dDescriptor(d->y, fmt, dt, n, k, p, q));
    return 0;
}

static int fill_kind(int dtype)
{
    return dtype == SEER_DTYPE_FP32 || dtype == SEER_DTYPE_TF32 ? SEER_FILL_F32
         : dtype == SEER_DTYPE_BF16 ? SEER_FILL_BF16 : SEER_FILL_F16;
}

/* 0 ok; 1 out of memory (status set); -1 other CUDA error (status set). */
static int buffers(seer_bench_run_t *run, const seer_bench_conv_t *cv, uint64_t seed, char *status,
                   size_t slen)
{
    size_t e[3], b = (size_t)seer_bench_dtype_bytes(cv->dtype);
    seer_bench_conv_elems(cv, &e[0], &e[1], &e[2]);
    for (int i = 0; i < 3; i++) {
        size_t need = e[i] * b;
        if (need > run->cap[i]) {
            cudaError_t err = cudaFree(run->buf[i]);
            run->buf[i] = NULL;
            run->cap[i] = 0;
            if (err == cudaSuccess) err = cudaMalloc(&run->buf[i], need);
            if (err != cudaSuccess) {
                run->buf[i] = NULL;
                snprintf(status, slen, "%s", err == cudaErrorMemoryAllocation ? "OOM" : cudaGetErrorName(err));
                (void)cudaGetLastError(); /* clear a non-sticky error */
                return err == cudaErrorMemoryAllocation ? 1 : -1;
            }
            run->cap[i] = need;
        }
        cudaError_t err = seer_kernels_fill(run->buf[i], e[i], fill_kind(cv->dtype), seed + (uint64_t)i,
                                            run->stream);
        if (err != cudaSuccess) {
            snprintf(status, slen, "fill: %s", cudaGetErrorName(err));
            return -1;
        }
    }
    cudaError_t err = cudaStreamSynchronize(run->stream);
    if (err != cudaSuccess) {
        snprintf(status, slen, "%s", cudaGetErrorName(err));
        return -1;
    }
    return 0;
}

/* After a failure: is the context still usable?  Sticky errors (illegal
 * address, launch failure) come back from every later call. */
static int context_lost(void)
{
    (void)cudaGetLastError();
    return cudaDeviceSynchronize() != cudaSuccess;
}

/* ---- one measurement -------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int cmp_rec(const void *a, const void *b)
{
    const seer_bench_kernel_rec_t *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

static int is_ours(const char *name) { return strstr(name, "seer_hold_kernel") || strstr(name, "seer_fill_kernel"); }

/* Records of the timed repetitions.  Repetition j's work runs between the
 * host's first enqueue for it (w0[j], before the L2 flush and the hold)
 * and the return of its end event's synchronisation (t1[j]); between two
 * windows the GPU is idle, and inside one nothing runs but our flush and
 * hold kernels (left out by name) and the call.  So a record is tied to the
 * repetition whose window holds it, on any stream: cuDNN runs some calls
 * partly on internal streams (the groups of a grouped convolution it has
 * no grouped kernel for, FFT_TILING), and a call of more launches than the
 * held stream takes starts before the hold's release (the host blocks in
 * the launch until the hold times out).  Kernels before the first window
 * (warm-up or cudnnFind records handed over late) are counted apart from
 * those inside the timed span that no window holds.  Per kernel position,
 * the median duration over the repetitions that launched the usual number
 * of kernels; per call, the medians of the kernel sum, of the CUPTI span
 * (first start to last end, memsets and memcpys included), of the GPU busy
 * time (union of the records: below the sum where streams overlap) and of
 * the memset/memcpy time. */
static void collect_kernels(seer_bench_run_t *run, call_t *c, int reps, const uint64_t *w0,
                            const uint64_t *t1)
{
    seer_bench_kernel_rec_t *recs = NULL;
    size_t n = 0;
    static int warned;
    if (seer_bench_trace_take(&recs, &n) != 0 && !warned++)
        fprintf(stderr, "seer-bench: CUPTI flush failed or ran out of memory; kernel rows may be missing\n");
    qsort(recs, n, sizeof *recs, cmp_rec);
    int *rep_of = malloc((n ? n : 1) * sizeof *rep_of);
    int count[MAX_REPS] = {0};
    uint64_t first[MAX_REPS] = {0}, last[MAX_REPS] = {0}, reach[MAX_REPS] = {0};
    double mem[MAX_REPS] = {0}, busyv[MAX_REPS] = {0};
    if (!rep_of) goto out;
    int have_sid = 0;
    uint32_t sid = 0;
    for (size_t i = 0; i < n && !have_sid; i++)
        if (recs[i].kind == SEER_BENCH_REC_KERNEL && strstr(recs[i].name, "seer_hold_kernel")) {
            sid = recs[i].stream;
            have_sid = 1;
        }
    for (size_t i = 0; i < n; i++) {
        int r = -1;
        rep_of[i] = -1;
        if (recs[i].kind == SEER_BENCH_REC_KERNEL && is_ours(recs[i].name)) continue;
        for (int j = 0; j < reps && r < 0; j++)
            if (recs[i].start >= w0[j] && recs[i].end <= t1[j]) r = j;
        if (r < 0) {
            if (recs[i].kind != SEER_BENCH_REC_KERNEL) continue;
            if (reps > 0 && recs[i].start < w0[0]) run->out->untimed++;
            else run->out->unattributed++;
            continue;
        }
        if (!first[r] || recs[i].start < first[r]) first[r] = recs[i].start;
        if (recs[i].end > last[r]) last[r] = recs[i].end;
        /* sorted by start: what this record adds beyond the ones before */
        uint64_t from = recs[i].start > reach[r] ? recs[i].start : reach[r];
        if (recs[i].end > from) busyv[r] += (double)(recs[i].end - from) * 1e-6;
        if (recs[i].end > reach[r]) reach[r] = recs[i].end;
        if (recs[i].kind != SEER_BENCH_REC_KERNEL) {
            mem[r] += (double)(recs[i].end - recs[i].start) * 1e-6;
            continue;
        }
        if (have_sid && recs[i].stream != sid) run->out->side_stream++;
        rep_of[i] = r;
        count[r]++;
    }
    /* most common kernel count among the repetitions */
    int best = 0, best_votes = 0;
    for (int j = 0; j < reps; j++) {
        int votes = 0;
        for (int l = 0; l < reps; l++) votes += count[l] == count[j];
        if (count[j] && votes > best_votes) { best = count[j]; best_votes = votes; }
    }
    c->nk = best > MAX_KERNELS ? MAX_KERNELS : best;
    if (best > MAX_KERNELS) run->out->kernel_capped++; /* kernel rows: the first MAX_KERNELS */
    double dur[MAX_KERNELS][MAX_REPS], sum[MAX_REPS], span[MAX_REPS], memv[MAX_REPS], bus[MAX_REPS];
    int used = 0, firstrep = 1;
    for (int j = 0; j < reps; j++) {
        if (!best || count[j] != best) continue;
        int idx = 0;
        sum[used] = 0;
        span[used] = (double)(last[j] - first[j]) * 1e-6;
        memv[used] = mem[j];
        bus[used] = busyv[j];
        for (size_t i = 0; i < n; i++) {
            if (rep_of[i] != j) continue;
            double ms = (double)(recs[i].end - recs[i].start) * 1e-6;
            sum[used] += ms;
            if (idx < c->nk) {
                dur[idx][used] = ms;
                if (firstrep) {
                    kernel_name(recs[i].name, c->k[idx].name, sizeof c->k[idx].name);
                    memcpy(c->k[idx].grid, recs[i].grid, sizeof recs[i].grid);
                    memcpy(c->k[idx].block, recs[i].block, sizeof recs[i].block);
                    memcpy(c->k[idx].cluster, recs[i].cluster, sizeof recs[i].cluster);
                    c->k[idx].regs = recs[i].regs;
                    c->k[idx].smem_s = recs[i].smem_static;
                    c->k[idx].smem_d = recs[i].smem_dynamic;
                    for (int m = 0; m < SEER_METRIC_COUNT; m++) c->k[idx].m[m] = NAN;
                }
            }
            idx++;
        }
        firstrep = 0;
        used++;
    }
    for (int i = 0; i < c->nk; i++) c->k[i].ms = median(dur[i], used);
    c->ksum = used ? median(sum, used) : NAN;
    c->span = used ? median(span, used) : NAN;
    c->memop = used ? median(memv, used) : NAN;
    c->busy = used ? median(bus, used) : NAN;
out:
    free(rep_of);
    seer_bench_trace_release(recs, n);
}

static void discard_records(void)
{
    seer_bench_kernel_rec_t *r;
    size_t n;
    (void)seer_bench_trace_take(&r, &n);
    seer_bench_trace_release(r, n);
}

/* Longest the hold waits for the host to enqueue one call: far above any
 * cuDNN enqueue after warm-up, short enough not to stall a broken run. */
#define HOLD_TIMEOUT_NS 2000000000ull

/* Release the hold.  Returns 1 if the hold had already timed out (the
 * event time then includes host time). */
static int release_hold(seer_bench_run_t *run)
{
    int was = __atomic_exchange_n(run->hold_flag, 1, __ATOMIC_SEQ_CST);
    return was == 2;
}

/* 0 measured (or failed with status set); -1 fatal (context lost). */
static int measure(seer_bench_run_t *run, const descs_t *d, int dir, call_t *c, char *err, size_t errlen)
{
    const seer_bench_opts_t *o = run->o;
    double t[MAX_REPS];
    uint64_t w0[MAX_REPS], t1[MAX_REPS];
    float ms = 0;
    int reps = o->reps < 1 ? 1 : o->reps > MAX_REPS ? MAX_REPS : o->reps;
    cudnnStatus_t s = c->math >= 0 ? cudnnSetConvolutionMathType(d->conv, (cudnnMathType_t)c->math)
                                   : CUDNN_STATUS_SUCCESS;
    if (s == CUDNN_STATUS_SUCCESS) s = ws_size(run, d, dir, c->algo, &c->ws);
    if (s != CUDNN_STATUS_SUCCESS) {
        snprintf(c->status, sizeof c->status, "%s", cudnnGetErrorString(s));
        return 0;
    }
    if (c->ws > run->ws_size) {
        snprintf(c->status, sizeof c->status, "WORKSPACE_LIMIT");
        return 0;
    }
#define CUDA_OR_FAIL(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    snprintf(c->status, sizeof c->status, "%s", cudaGetErrorName(e_)); goto failed; } } while (0)
    for (int i = 0; i < (o->warmup < 1 ? 1 : o->warmup); i++) {
        CUDA_OR_FAIL(cudaEventRecord(run->e0, run->stream));
        s = conv_call(run, d, dir, c->algo, c->ws);
        if (s != CUDNN_STATUS_SUCCESS) {
            snprintf(c->status, sizeof c->status, "%s", cudnnGetErrorString(s));
            goto failed;
        }
        CUDA_OR_FAIL(cudaEventRecord(run->e1, run->stream));
        CUDA_OR_FAIL(cudaEventSynchronize(run->e1));
        CUDA_OR_FAIL(cudaEventElapsedTime(&ms, run->e0, run->e1));
    }
    if (ms > 200.0f && reps > 3) reps = 3; /* slow algorithm: spare the budget */
    discard_records(); /* warm-up kernels must not mix with the timed ones */
    for (int i = 0; i < reps; i++) {
        /* L2 flush, then the hold, both before the start event: the events
         * bracket the call's kernels only, run back to back once the host
         * has enqueued all of them */
        w0[i] = seer_bench_trace_now();
        if (run->flush)
            CUDA_OR_FAIL(seer_kernels_fill(run->flush, run->flush_floats, SEER_FILL_F32, (uint64_t)i,
                                           run->stream));
        *run->hold_flag = 0;
        CUDA_OR_FAIL(seer_kernels_hold(run->hold_dev, HOLD_TIMEOUT_NS, run->stream));
        cudaError_t e = cudaEventRecord(run->e0, run->stream);
        s = e == cudaSuccess ? conv_call(run, d, dir, c->algo, c->ws) : CUDNN_STATUS_SUCCESS;
        if (e == cudaSuccess && s == CUDNN_STATUS_SUCCESS) e = cudaEventRecord(run->e1, run->stream);
        if (release_hold(run)) {
            c->hold_expired++;
            run->out->hold_expired++;
        }
        if (s != CUDNN_STATUS_SUCCESS) {
            snprintf(c->status, sizeof c->status, "%s", cudnnGetErrorString(s));
            (void)cudaStreamSynchronize(run->stream);
            goto failed;
        }
        CUDA_OR_FAIL(e);
        CUDA_OR_FAIL(cudaEventSynchronize(run->e1));
        CUDA_OR_FAIL(cudaEventElapsedTime(&ms, run->e0, run->e1));
        t1[i] = seer_bench_trace_now();
        t[i] = ms;
    }
#undef CUDA_OR_FAIL
    c->sm_mhz = seer_bench_nvml_sm_clock(run->o->device);
    c->reps = reps;
    c->t_min = c->t_max = t[0];
    for (int i = 1; i < reps; i++) {
        if (t[i] < c->t_min) c->t_min = t[i];
        if (t[i] > c->t_max) c->t_max = t[i];
    }
    c->t_med = median(t, reps);
    collect_kernels(run, c, reps, w0, t1);
    return 0;
failed:
    if (context_lost()) {
        snprintf(err, errlen, "CUDA context lost (%s); rerun with --resume", c->status);
        return -1;
    }
    return 0;
}

/* ---- entries ------------------------------------------------------------------------- */

static uint64_t key_seed(const char *key)
{
    uint64_t h = 1469598103934665603ull;
    for (; *key; key++) h = (h ^ (unsigned char)*key) * 1099511628211ull;
    return h;
}

int seer_bench_run_entry(seer_bench_run_t *run, const seer_bench_conv_t *cv, char *err, size_t errlen)
{
    seer_bench_out_t *o = run->out;
    char key[256], done[320];
    descs_t d;
    perf_t v7[MAX_ALGOS], fp[MAX_ALGOS];
    int nv7 = 0, nfp = 0, rc = 0;
    call_t *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    seer_bench_conv_key(cv, key, sizeof key);
    int picked = seer_bench_set_has(&o->picked, key);
    c->algo = -1;
    c->math = -1;

    if (descs_create(cv, &d, c->status, sizeof c->status) != 0) goto entry_failed;
    cudnnStatus_t s = get_v7(run, &d, cv->dir, v7, &nv7);
    if (s != CUDNN_STATUS_SUCCESS) {
        snprintf(c->status, sizeof c->status, "%s", cudnnGetErrorString(s));
        goto entry_failed;
    }
    /* (algorithm, math type) pairs to measure: supported, within the
     * workspace limit, once each; v7 lists an algorithm once per math type
     * it can run with, and the math type changes the kernels */
    int algos[MAX_ALGOS], maths[MAX_ALGOS], na = 0, todo = 0;
    for (int i = 0; i < nv7; i++) {
        if (v7[i].status != CUDNN_STATUS_SUCCESS || v7[i].memory > run->ws_size) continue;
        int dup = 0;
        for (int j = 0; j < na; j++) dup |= algos[j] == v7[i].algo && maths[j] == v7[i].math;
        if (dup) continue;
        algos[na] = v7[i].algo;
        maths[na++] = v7[i].math;
        snprintf(done, sizeof done, "%s|%s|%s", key, algo_name(cv->dir, v7[i].algo), math_name(v7[i].math));
        todo += !seer_bench_set_has(&o->done, done);
    }
    snprintf(done, sizeof done, "%s||", key);
    if (picked && ((na && !todo) || seer_bench_set_has(&o->done, done))) { /* resumed */
        rc = 1;
        goto out;
    }

    int b = buffers(run, cv, key_seed(key), c->status, sizeof c->status);
    if (b != 0) {
        if (!picked && (rc = write_picks(run, key, "v7", cv->dir, v7, nv7, NULL, 1, err, errlen)) != 0)
            goto out;
        if (b < 0 && context_lost()) {
            snprintf(err, errlen, "CUDA context lost (%s); rerun with --resume", c->status);
            rc = -1;
            goto out;
        }
        goto entry_failed;
    }
    if (!picked) {
        int find = run->o->find;
        s = find ? find_ex(run, &d, cv->dir, fp, &nfp) : CUDNN_STATUS_SUCCESS;
        if ((rc = write_picks(run, key, "v7", cv->dir, v7, nv7, NULL, !find, err, errlen)) != 0 ||
            (find && (rc = write_picks(run, key, "find", cv->dir, fp, nfp,
                                       s == CUDNN_STATUS_SUCCESS ? NULL : cudnnGetErrorString(s), 1,
                                       err, errlen)) != 0))
            goto out;
        if (seer_bench_set_add(&o->picked, key) < 0) {
            snprintf(err, errlen, "out of memory");
            rc = -1;
            goto out;
        }
        if (s != CUDNN_STATUS_SUCCESS && context_lost()) {
            snprintf(err, errlen, "CUDA context lost in cudnnFind (%s); rerun with --resume",
                     cudnnGetErrorString(s));
            rc = -1;
            goto out;
        }
    }
    if (!na) {
        snprintf(c->status, sizeof c->status, "NO_ALGORITHM");
        goto entry_failed;
    }
    for (int i = 0; i < na; i++) {
        snprintf(done, sizeof done, "%s|%s|%s", key, algo_name(cv->dir, algos[i]), math_name(maths[i]));
        if (seer_bench_set_has(&o->done, done)) continue;
        if (run->deadline > 0 && mono_s() >= run->deadline) { rc = 2; goto out; }
        memset(c, 0, sizeof *c);
        c->algo = algos[i];
        c->math = maths[i];
        int m = measure(run, &d, cv->dir, c, err, errlen);
        if (write_call(run, cv, key, c, err, errlen) != 0 || m != 0) { rc = -1; goto out; }
    }
    goto out;
entry_failed:
    snprintf(done, sizeof done, "%s||", key);
    if (!seer_bench_set_has(&o->done, done)) {
        c->algo = -1;
        c->math = -1;
        if (write_call(run, cv, key, c, err, errlen) != 0) rc = -1;
    } else {
        rc = 1;
    }
out:
    descs_destroy(&d);
    free(c);
    return rc;
}

/* ---- run -------------------------------------------------------------------------------- */

int seer_bench_run_create(const seer_bench_opts_t *opts, seer_bench_out_t *out,
                          seer_bench_run_t **runp, char *err, size_t errlen)
{
    seer_bench_run_t *run = calloc(1, sizeof *run);
    cudaError_t e;
    cudnnStatus_t s;
    if (!run) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    run->o = opts;
    run->out = out;
    if ((s = cudnnCreate(&run->dnn)) != CUDNN_STATUS_SUCCESS) {
        snprintf(err, errlen, "cudnnCreate: %s", cudnnGetErrorString(s));
        goto fail;
    }
    if ((e = cudaStreamCreateWithFlags(&run->stream, cudaStreamNonBlocking)) != cudaSuccess ||
        (e = cudaEventCreate(&run->e0)) != cudaSuccess || (e = cudaEventCreate(&run->e1)) != cudaSuccess) {
        snprintf(err, errlen, "CUDA stream/events: %s", cudaGetErrorName(e));
        goto fail;
    }
    if ((s = cudnnSetStream(run->dnn, run->stream)) != CUDNN_STATUS_SUCCESS) {
        snprintf(err, errlen, "cudnnSetStream: %s", cudnnGetErrorString(s));
        goto fail;
    }
    /* the hold flag: host memory the hold kernel polls */
    void *hf = NULL;
    if ((e = cudaHostAlloc(&hf, sizeof(int), cudaHostAllocMapped)) != cudaSuccess ||
        (run->hold_flag = hf, e = cudaHostGetDevicePointer((void **)&run->hold_dev, hf, 0)) != cudaSuccess) {
        snprintf(err, errlen, "mapped host memory for the stream hold: %s", cudaGetErrorName(e));
        goto fail;
    }
    if (opts->l2_flush) {
        /* writing twice the L2 evicts whatever the previous repetition left */
        int l2 = 0;
        if ((e = cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, opts->device)) != cudaSuccess ||
            (run->flush_floats = 2 * (size_t)(l2 > 0 ? l2 : 1 << 20) / sizeof(float),
             e = cudaMalloc(&run->flush, run->flush_floats * sizeof(float))) != cudaSuccess) {
            /* timings without the flush beat no timings; each row says */
            run->flush = NULL;
            (void)cudaGetLastError();
            fprintf(stderr, "seer-bench: no L2 flush buffer (%s): L2 stays warm between repetitions\n",
                    cudaGetErrorName(e));
        }
    }
    /* the workspace limit is also what cudnnFind may use; shrink it when
     * the board is small rather than fail */
    run->ws_size = (size_t)opts->workspace_mb << 20;
    while (run->ws_size && (e = cudaMalloc(&run->ws, run->ws_size)) != cudaSuccess) {
        (void)cudaGetLastError();
        run->ws = NULL;
        if (e != cudaErrorMemoryAllocation || run->ws_size <= (64u << 20)) {
            snprintf(err, errlen, "workspace of %zu bytes: %s", run->ws_size, cudaGetErrorName(e));
            goto fail;
        }
        run->ws_size /= 2;
        fprintf(stderr, "seer-bench: workspace limit lowered to %zu MiB\n", run->ws_size >> 20);
    }
    *runp = run;
    return 0;
fail:
    seer_bench_run_destroy(run);
    return -1;
}

void seer_bench_run_destroy(seer_bench_run_t *run)
{
    if (!run) return;
    /* teardown at exit: report, but nothing is left to save */
    int bad = 0;
    for (int i = 0; i < 3; i++) bad |= cudaFree(run->buf[i]) != cudaSuccess;
    bad |= cudaFree(run->ws) != cudaSuccess;
    bad |= cudaFree(run->flush) != cudaSuccess;
    if (run->hold_flag) bad |= cudaFreeHost((void *)run->hold_flag) != cudaSuccess;
    if (run->e0) bad |= cudaEventDestroy(run->e0) != cudaSuccess;
    if (run->e1) bad |= cudaEventDestroy(run->e1) != cudaSuccess;
    if (run->dnn) bad |= cudnnDestroy(run->dnn) != CUDNN_STATUS_SUCCESS;
    if (run->stream) bad |= cudaStreamDestroy(run->stream) != cudaSuccess;
    if (bad) fprintf(stderr, "seer-bench: warning: GPU teardown reported an error\n");
    free(run);
}

/* ---- metrics phase ------------------------------------------------------------------ */

int seer_bench_metrics_call(seer_bench_run_t *run, const seer_bench_conv_t *cv, int algo, int math,
                            double vals[][SEER_METRIC_COUNT], int *nk, char *msg, size_t len)
{
    descs_t d;
    char key[256];
    int rc = -1;
    size_t ws = 0;
    seer_bench_conv_key(cv, key, sizeof key);
    if (descs_create(cv, &d, msg, len) != 0) goto out;
    cudnnStatus_t s = math >= 0 ? cudnnSetConvolutionMathType(d.conv, (cudnnMathType_t)math)
                                : CUDNN_STATUS_SUCCESS;
    if (s == CUDNN_STATUS_SUCCESS) s = ws_size(run, &d, cv->dir, algo, &ws);
    if (s != CUDNN_STATUS_SUCCESS) {
        snprintf(msg, len, "%s", cudnnGetErrorString(s));
        goto out;
    }
    if (ws > run->ws_size) {
        snprintf(msg, len, "WORKSPACE_LIMIT");
        goto out;
    }
    if (buffers(run, cv, key_seed(key), msg, len) != 0) goto out;
    /* one unprofiled call first: module loading and cuDNN's runtime
     * compilation must not be what the counters see */
    s = conv_call(run, &d, cv->dir, algo, ws);
    cudaError_t e = cudaStreamSynchronize(run->stream);
    if (s != CUDNN_STATUS_SUCCESS || e != cudaSuccess) {
        snprintf(msg, len, "%s", s != CUDNN_STATUS_SUCCESS ? cudnnGetErrorString(s) : cudaGetErrorName(e));
        goto out;
    }
    if (seer_bench_metrics_begin(msg, len) != 0) goto out;
    s = conv_call(run, &d, cv->dir, algo, ws);
    e = cudaStreamSynchronize(run->stream);
    rc = seer_bench_metrics_end(vals, nk, msg, len);
    if (s != CUDNN_STATUS_SUCCESS || e != cudaSuccess) {
        snprintf(msg, len, "%s", s != CUDNN_STATUS_SUCCESS ? cudnnGetErrorString(s) : cudaGetErrorName(e));
        rc = -1;
    }
out:
    descs_destroy(&d);
    if (rc && context_lost()) return -2;
    return rc;
}
