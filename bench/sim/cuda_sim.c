/* bench/sim/cuda_sim.c - a pretend GPU for testing seer-bench without one.
 *
 * Defines the CUDA runtime, cuDNN, CUPTI and cuBLAS entry points that
 * seer-bench uses (and the kernels/ functions), with just enough behaviour
 * to drive every path of the harness: a device named "NVIDIA H100 80GB
 * HBM3", a clock that convolutions advance, kernel and memset activity
 * records delivered through the registered CUPTI buffers, a stream that a
 * hold kernel stops until the host releases it (work queued behind it runs
 * back to back on release), host time spent in each cuDNN call, a Range
 * Profiler that counts the kernels launched between Start and Stop, and
 * algorithms that are unsupported, over the workspace limit, or fail.
 * Linked with the bench objects it gives build/seer-bench-sim (tests/test_bench.c).
 * Nothing here says anything about real GPU behaviour.
 *
 * Knobs (environment):
 *   SEER_SIM_NODEV=1          cudaGetDeviceCount fails like a machine without a driver
 *   SEER_SIM_METRICS=denied   counters refused (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
 *   SEER_SIM_HOST_US=N        host time of each cuDNN call before its first kernel is
 *                             enqueued (default 300): on an idle stream the GPU waits for it
 *   SEER_SIM_ZERO_TS=1        every convolution also delivers a kernel record with start 0
 *   SEER_SIM_OOM_BYTES=N      cudaMalloc of more than N bytes fails
 *   SEER_SIM_CRASH_AFTER=N    the process dies (_exit(137), as SIGKILL) at the Nth convolution
 *   SEER_SIM_SLEEP_US=N       each convolution also sleeps N us of wall time
 *   SEER_SIM_FIRST_SLEEP_MS=N the first convolution sleeps N ms (first-use module
 *                             loading, cuDNN runtime compilation)
 *
 * Grouped (not depthwise) convolutions with fwd IMPLICIT_GEMM or bwd ALGO_0
 * run one kernel per group on two internal streams (ids 8 and 9), as cuDNN
 * does for groups it has no grouped kernel for; the held stream takes at
 * most SIM_QUEUE launches, after which the host blocks in the launch until
 * the hold times out (2 s), as a real launch queue behind a held stream does.
 *
 * Algorithms: fwd IMPLICIT_GEMM, IMPLICIT_PRECOMP_GEMM, GEMM (64 MiB
 * workspace, two kernels), FFT (fails with EXECUTION_FAILED), FFT_TILING
 * (4 GiB workspace), WINOGRAD and WINOGRAD_NONFUSED for 3x3 filters; the
 * backward directions ALGO_0, ALGO_1, FFT, and WINOGRAD_NONFUSED for 3x3. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>
#include <cublas_v2.h>
#include <cupti.h>
#include <cupti_target.h>
#include <cupti_profiler_target.h>
#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>
#include "micro.h"

#define UNUSED(x) (void)(x)

static uint64_t clock_ns = 1000000;
static uint32_t next_corr = 1;
static int trace_kernels = 1, trace_memset = 1, trace_other_kinds, profiling, profiled_kernels;
static long conv_calls;
#define SIM_STREAM 7             /* CUPTI stream id of the handle's stream */
#define SIM_QUEUE 256            /* launches a held stream takes before the host blocks */

typedef union {
    CUpti_ActivityKernel10 k;
    CUpti_ActivityMemset4 m;
} slot_t;                        /* one record per fixed-size slot */
static slot_t *pending;
static size_t n_pending, cap_pending;
static CUpti_BuffersCallbackRequestFunc buffer_request;
static int rp_enabled, host_objects; /* Range Profiler state */
static CUpti_BuffersCallbackCompleteFunc buffer_complete;

static const char *knob(const char *name, const char *dflt)
{
    const char *v = getenv(name);
    return v && *v ? v : dflt;
}

static void queue(const slot_t *s)
{
    if (n_pending == cap_pending) {
        cap_pending = cap_pending ? 2 * cap_pending : 256;
        pending = realloc(pending, cap_pending * sizeof *pending);
        if (!pending) abort();
    }
    pending[n_pending++] = *s;
}

/* A kernel runs now: its record, then the clock moves on by its duration. */
static void run_kernel(const char *name, double us, int grid, int block, uint32_t stream)
{
    uint32_t corr = next_corr++;
    slot_t s;
    if (profiling) profiled_kernels++;
    clock_ns += 2000; /* launch gap */
    if (trace_kernels) {
        memset(&s, 0, sizeof s);
        s.k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
        s.k.start = clock_ns;
        s.k.end = clock_ns + (uint64_t)(us * 1000);
        s.k.gridX = grid; s.k.gridY = 1; s.k.gridZ = 1;
        s.k.blockX = block; s.k.blockY = 1; s.k.blockZ = 1;
        s.k.clusterX = s.k.clusterY = s.k.clusterZ = 1;
        s.k.registersPerThread = 64;
        s.k.staticSharedMemory = 4096;
        s.k.dynamicSharedMemory = 1024;
        s.k.correlationId = corr;
        s.k.streamId = stream ? stream : SIM_STREAM;
        s.k.name = name;
        queue(&s);
    }
    clock_ns += (uint64_t)(us * 1000);
}

static void run_memset(double us)
{
    slot_t s;
    clock_ns += 1000;
    if (trace_memset) {
        memset(&s, 0, sizeof s);
        s.m.kind = CUPTI_ACTIVITY_KIND_MEMSET;
        s.m.start = clock_ns;
        s.m.end = clock_ns + (uint64_t)(us * 1000);
        s.m.streamId = SIM_STREAM;
        s.m.correlationId = next_corr++;
        queue(&s);
    }
    clock_ns += (uint64_t)(us * 1000);
}

/* Work enqueued behind a hold kernel waits in `held` until the host
 * releases the hold; then it runs back to back. */
typedef struct {
    int what;                   /* 0 kernel, 1 event, 2 memset */
    const char *name;
    double us;
    int grid, block;
    uint32_t stream;            /* 0: the handle's stream */
    uint64_t *event;
} op_t;
static op_t held[SIM_QUEUE];
static int n_held, holding;
static volatile int *hold_flag;
static uint64_t hold_start;

static void drain(int must)
{
    if (!holding) return;
    if (!*hold_flag) {
        if (!must) return;
        clock_ns += 2000000000ull; /* nobody released it: the hold times out */
        *hold_flag = 2;
    }
    holding = 0;
    if (trace_kernels) {
        slot_t s;
        memset(&s, 0, sizeof s);
        s.k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
        s.k.start = hold_start;
        s.k.end = clock_ns;
        s.k.gridX = s.k.gridY = s.k.gridZ = s.k.blockX = s.k.blockY = s.k.blockZ = 1;
        s.k.streamId = SIM_STREAM;
        s.k.name = "_Z16seer_hold_kernelPViy";
        queue(&s);
    }
    for (int i = 0; i < n_held; i++) {
        if (held[i].what == 0) run_kernel(held[i].name, held[i].us, held[i].grid, held[i].block, held[i].stream);
        else if (held[i].what == 2) run_memset(held[i].us);
        else *held[i].event = clock_ns;
    }
    n_held = 0;
}

static void submit(op_t op)
{
    if (holding && n_held == SIM_QUEUE) drain(1); /* queue full: blocks until the hold times out */
    if (holding) { held[n_held++] = op; return; }
    if (op.what == 0) run_kernel(op.name, op.us, op.grid, op.block, op.stream);
    else if (op.what == 2) run_memset(op.us);
    else *op.event = clock_ns;
}

static void launch(const char *name, double us, int grid, int block)
{
    submit((op_t){.what = 0, .name = name, .us = us, .grid = grid, .block = block});
}

/* ---- CUDA runtime ------------------------------------------------------- */

cudaError_t cudaGetDeviceCount(int *n)
{
    if (!strcmp(knob("SEER_SIM_NODEV", "0"), "1")) return cudaErrorInsufficientDriver;
    *n = 1;
    return cudaSuccess;
}
cudaError_t cudaSetDevice(int d) { UNUSED(d); return cudaSuccess; }
cudaError_t cudaFree(void *p) { free(p); return cudaSuccess; }
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int d)
{
    UNUSED(d);
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "NVIDIA H100 80GB HBM3");
    p->major = 9;
    p->multiProcessorCount = 132;
    p->totalGlobalMem = 80ull << 30;
    p->regsPerMultiprocessor = p->regsPerBlock = 65536;
    p->sharedMemPerMultiprocessor = 228 << 10;
    p->sharedMemPerBlockOptin = 227 << 10;
    p->reservedSharedMemPerBlock = 1 << 10;
    p->maxThreadsPerMultiProcessor = 2048;
    p->maxThreadsPerBlock = 1024;
    p->maxBlocksPerMultiProcessor = 32;
    return cudaSuccess;
}
cudaError_t cudaDeviceGetAttribute(int *v, enum cudaDeviceAttr a, int d)
{
    UNUSED(d);
    *v = a == cudaDevAttrClockRate ? 1980000 : a == cudaDevAttrMemoryClockRate ? 2619000
       : a == cudaDevAttrL2CacheSize ? 50 << 20 : 5120;
    return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int *v) { *v = 13000; return cudaSuccess; }
cudaError_t cudaRuntimeGetVersion(int *v) { *v = 13000; return cudaSuccess; }
cudaError_t cudaMalloc(void **p, size_t n)
{
    if ((double)n > atof(knob("SEER_SIM_OOM_BYTES", "1e18"))) return cudaErrorMemoryAllocation;
    *p = malloc(16); /* nothing reads the memory */
    return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaMemGetInfo(size_t *f, size_t *t) { *f = 70ull << 30; *t = 80ull << 30; return cudaSuccess; }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned f)
{
    UNUSED(f);
    *s = (cudaStream_t)malloc(1);
    return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t s) { free(s); return cudaSuccess; }
cudaError_t cudaEventCreate(cudaEvent_t *e) { *e = (cudaEvent_t)calloc(1, sizeof(uint64_t)); return cudaSuccess; }
cudaError_t cudaEventDestroy(cudaEvent_t e) { free(e); return cudaSuccess; }
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s)
{
    UNUSED(s);
    clock_ns += 1000; /* host cost of the call */
    submit((op_t){.what = 1, .event = (uint64_t *)e});
    return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t e) { UNUSED(e); drain(1); return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
    *ms = (float)((*(uint64_t *)b - *(uint64_t *)a) * 1e-6);
    return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t s) { UNUSED(s); drain(1); return cudaSuccess; }
cudaError_t cudaDeviceSynchronize(void) { drain(1); return cudaSuccess; }
cudaError_t cudaHostAlloc(void **p, size_t n, unsigned flags)
{
    UNUSED(flags);
    *p = calloc(1, n);
    return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaHostGetDevicePointer(void **d, void *h, unsigned flags) { UNUSED(flags); *d = h; return cudaSuccess; }
cudaError_t cudaFreeHost(void *p) { free(p); return cudaSuccess; }
cudaError_t cudaDeviceGetPCIBusId(char *bus, int len, int dev)
{
    UNUSED(dev);
    snprintf(bus, (size_t)len, "00000000:5E:ED:0");  /* no real NVML device has it */
    return cudaSuccess;
}
cudaError_t cudaGetLastError(void) { return cudaSuccess; }
const char *cudaGetErrorName(cudaError_t e)
{
    return e == cudaErrorMemoryAllocation ? "cudaErrorMemoryAllocation" : "cudaErrorUnknown";
}
const char *cudaGetErrorString(cudaError_t e)
{
    return e == cudaErrorInsufficientDriver ? "CUDA driver version is insufficient for CUDA runtime version"
                                            : "unknown error";
}
static CUresult sim_ctx_get_current(CUcontext *c) { *c = (CUcontext)0x5eed; return CUDA_SUCCESS; }
cudaError_t cudaGetDriverEntryPointByVersion(const char *sym, void **fp, unsigned v, unsigned long long fl,
                                             enum cudaDriverEntryPointQueryResult *q)
{
    UNUSED(v); UNUSED(fl);
    if (strcmp(sym, "cuCtxGetCurrent") != 0) { *q = cudaDriverEntryPointSymbolNotFound; return cudaSuccess; }
    CUresult (*f)(CUcontext *) = sim_ctx_get_current;
    memcpy(fp, &f, sizeof f);
    *q = cudaDriverEntryPointSuccess;
    return cudaSuccess;
}

/* ---- kernels/ ------------------------------------------------------------ */

cudaError_t seer_kernels_hold(volatile int *flag, unsigned long long timeout_ns, cudaStream_t st)
{
    UNUSED(timeout_ns); UNUSED(st);
    drain(1);
    clock_ns += 2000;
    holding = 1;
    hold_flag = flag;
    hold_start = clock_ns;
    return cudaSuccess;
}

cudaError_t seer_kernels_fill(void *p, size_t n, int kind, unsigned long long seed, cudaStream_t st)
{
    UNUSED(p); UNUSED(n); UNUSED(kind); UNUSED(seed); UNUSED(st);
    launch("_Z16seer_fill_kernelIfEvPT_mm", 5, 1024, 256);
    return cudaSuccess;
}
cudaError_t seer_micro_fp32(double *t) { *t = 60; return cudaSuccess; }
cudaError_t seer_micro_dram(size_t b, double *r, double *w, double *c)
{
    UNUSED(b);
    *r = 3000; *w = 2900; *c = 2950;
    return cudaSuccess;
}
cudaError_t seer_micro_l2(size_t b, int passes, double *g) { UNUSED(b); UNUSED(passes); *g = 9000; return cudaSuccess; }
cudaError_t seer_micro_launch(double *us, double *sync_us) { *us = 2.1; *sync_us = 8; return cudaSuccess; }
int seer_micro_gemm(int kind, int n, double *t, char *err, size_t len)
{
    UNUSED(n);
    if (kind == 2) { snprintf(err, len, "CUBLAS_STATUS_NOT_SUPPORTED"); return -1; } /* a failed benchmark */
    *t = 700;
    return 0;
}
cublasStatus_t cublasGetProperty(libraryPropertyType t, int *v) { *v = t == MAJOR_VERSION ? 13 : 1; return CUBLAS_STATUS_SUCCESS; }

/* ---- cuDNN ------------------------------------------------------------------ */

typedef struct { int n, c, h, w; } tensor_t;
typedef struct { int k, c, r, s; } filter_t;
typedef struct { int ph, pw, sh, sw, dh, dw, g; } conv_t;

cudnnStatus_t cudnnCreate(cudnnHandle_t *h) { *h = (cudnnHandle_t)malloc(1); return CUDNN_STATUS_SUCCESS; }
cudnnStatus_t cudnnDestroy(cudnnHandle_t h) { free(h); return CUDNN_STATUS_SUCCESS; }
cudnnStatus_t cudnnSetStream(cudnnHandle_t h, cudaStream_t s) { UNUSED(h); UNUSED(s); return CUDNN_STATUS_SUCCESS; }
size_t cudnnGetVersion(void) { return 91900; }
const char *cudnnGetErrorString(cudnnStatus_t s)
{
    switch (s) {
    case CUDNN_STATUS_SUCCESS: return "CUDNN_STATUS_SUCCESS";
    case CUDNN_STATUS_NOT_SUPPORTED: return "CUDNN_STATUS_NOT_SUPPORTED";
    case CUDNN_STATUS_EXECUTION_FAILED: return "CUDNN_STATUS_EXECUTION_FAILED";
    default: return "CUDNN_STATUS_INTERNAL_ERROR";
    }
}
cudnnStatus_t cudnnCreateTensorDescriptor(cudnnTensorDescriptor_t *d) { *d = (cudnnTensorDescriptor_t)calloc(1, sizeof(tensor_t)); return CUDNN_STATUS_SUCCESS; }
cudnnStatus_t cudnnDestroyTensorDescriptor(cudnnTensorDescriptor_t d) { free(d); return CUDNN_STATUS_SUCCESS; }
cudnnStatus_t cudnnCreateFilterDescriptor(cudnnFilterDescriptor_t *d) { *d = (cudnnFilterDescriptor_t)calloc(1, sizeof(filter_t)); return CUDNN_STATUS_SUCCESS; }
cudnnStatus_t cudnnDestroyFilterDescriptor(cudnnFilterDescriptor_t d) { free(d); return CUDNN_STATUS_SUCCESS; }
cudnnStatus_t cudnnCreateConvolutionDescriptor(cudnnConvolutionDescriptor_t *d) { *d = (cudnnConvolutionDescriptor_t)calloc(1, sizeof(conv_t)); return CUDNN_STATUS_SUCCESS; }
cudnnStatus_t cudnnDestroyConvolutionDescriptor(cudnnConvolutionDescriptor_t d) { free(d); return CUDNN_STATUS_SUCCESS; }
cudnnStatus_t cudnnSetTensor4dDescriptor(cudnnTensorDescriptor_t d, cudnnTensorFormat_t f, cudnnDataType_t t,
                                         int n, int c, int h, int w)
{
    UNUSED(f); UNUSED(t);
    *(tensor_t *)d = (tensor_t){n, c, h, w};
    return CUDNN_STATUS_SUCCESS;
}
cudnnStatus_t cudnnSetFilter4dDescriptor(cudnnFilterDescriptor_t d, cudnnDataType_t t, cudnnTensorFormat_t f,
                                         int k, int c, int r, int s)
{
    UNUSED(t); UNUSED(f);
    *(filter_t *)d = (filter_t){k, c, r, s};
    return CUDNN_STATUS_SUCCESS;
}
cudnnStatus_t cudnnSetConvolution2dDescriptor(cudnnConvolutionDescriptor_t d, int ph, int pw, int sh, int sw,
                                              int dh, int dw, cudnnConvolutionMode_t m, cudnnDataType_t t)
{
    UNUSED(m); UNUSED(t);
    *(conv_t *)d = (conv_t){ph, pw, sh, sw, dh, dw, 1};
    return CUDNN_STATUS_SUCCESS;
}
cudnnStatus_t cudnnSetConvolutionGroupCount(cudnnConvolutionDescriptor_t d, int g) { ((conv_t *)d)->g = g; return CUDNN_STATUS_SUCCESS; }
static cudnnMathType_t conv_math = CUDNN_FMA_MATH; /* of the one descriptor in use */
cudnnStatus_t cudnnSetConvolutionMathType(cudnnConvolutionDescriptor_t d, cudnnMathType_t m) { UNUSED(d); conv_math = m; return CUDNN_STATUS_SUCCESS; }
cudnnStatus_t cudnnGetConvolution2dForwardOutputDim(const cudnnConvolutionDescriptor_t cd, const cudnnTensorDescriptor_t xd,
                                                    const cudnnFilterDescriptor_t wd, int *n, int *k, int *p, int *q)
{
    const conv_t *c = (const conv_t *)cd;
    const tensor_t *x = (const tensor_t *)xd;
    const filter_t *w = (const filter_t *)wd;
    *n = x->n;
    *k = w->k;
    *p = (x->h + 2 * c->ph - c->dh * (w->r - 1) - 1) / c->sh + 1;
    *q = (x->w + 2 * c->pw - c->dw * (w->s - 1) - 1) / c->sw + 1;
    return CUDNN_STATUS_SUCCESS;
}

static int supported(int dir, int algo, const filter_t *w)
{
    if (dir == 0) return algo <= 2 || algo == 4 || algo == 5 || (algo >= 6 && w->r == 3);
    return algo <= 2 || (algo == 5 && w->r == 3);
}
static size_t workspace(int algo) { return algo == 5 ? (size_t)4 << 30 : algo == 2 ? (size_t)64 << 20 : 0; }

#define PERF_LIST(n_algos, dir, find) do {                                                       \
    int i_;                                                                                       \
    for (i_ = 0; i_ < (n_algos) && i_ < req; i_++) {                                              \
        memset(&p[i_], 0, sizeof p[i_]);                                                          \
        p[i_].algo = i_;                                                                          \
        p[i_].status = supported(dir, i_, (const filter_t *)w) ? CUDNN_STATUS_SUCCESS : CUDNN_STATUS_NOT_SUPPORTED; \
        p[i_].time = (find) ? 0.1f * (float)(i_ + 1) : -1.0f;                                     \
        p[i_].memory = workspace(i_);                                                             \
        p[i_].mathType = CUDNN_FMA_MATH;                                                          \
        if (find) launch("find_probe_kernel", 50, 16, 128);                                       \
    }                                                                                             \
    /* v7 lists forward IMPLICIT_PRECOMP_GEMM a second time, with tensor-op math */              \
    if (!(find) && (dir) == 0 && i_ < req) {                                                      \
        p[i_] = p[1];                                                                             \
        p[i_++].mathType = CUDNN_TENSOR_OP_MATH;                                                  \
    }                                                                                             \
    *ret = i_;                                                                                    \
    return CUDNN_STATUS_SUCCESS;                                                                  \
} while (0)

cudnnStatus_t cudnnGetConvolutionForwardAlgorithm_v7(cudnnHandle_t h, const cudnnTensorDescriptor_t x, const cudnnFilterDescriptor_t w,
    const cudnnConvolutionDescriptor_t c, const cudnnTensorDescriptor_t y, const int req, int *ret, cudnnConvolutionFwdAlgoPerf_t *p)
{ UNUSED(h); UNUSED(x); UNUSED(c); UNUSED(y); PERF_LIST(8, 0, 0); }
cudnnStatus_t cudnnGetConvolutionBackwardDataAlgorithm_v7(cudnnHandle_t h, const cudnnFilterDescriptor_t w, const cudnnTensorDescriptor_t dy,
    const cudnnConvolutionDescriptor_t c, const cudnnTensorDescriptor_t dx, const int req, int *ret, cudnnConvolutionBwdDataAlgoPerf_t *p)
{ UNUSED(h); UNUSED(dy); UNUSED(c); UNUSED(dx); PERF_LIST(6, 1, 0); }
cudnnStatus_t cudnnGetConvolutionBackwardFilterAlgorithm_v7(cudnnHandle_t h, const cudnnTensorDescriptor_t x, const cudnnTensorDescriptor_t dy,
    const cudnnConvolutionDescriptor_t c, const cudnnFilterDescriptor_t w, const int req, int *ret, cudnnConvolutionBwdFilterAlgoPerf_t *p)
{ UNUSED(h); UNUSED(x); UNUSED(dy); UNUSED(c); PERF_LIST(7, 2, 0); }
cudnnStatus_t cudnnFindConvolutionForwardAlgorithmEx(cudnnHandle_t h, const cudnnTensorDescriptor_t xd, const void *x,
    const cudnnFilterDescriptor_t w, const void *wp, const cudnnConvolutionDescriptor_t c, const cudnnTensorDescriptor_t yd, void *y,
    const int req, int *ret, cudnnConvolutionFwdAlgoPerf_t *p, void *ws, size_t wsb)
{ UNUSED(h); UNUSED(xd); UNUSED(x); UNUSED(wp); UNUSED(c); UNUSED(yd); UNUSED(y); UNUSED(ws); UNUSED(wsb); PERF_LIST(8, 0, 1); }
cudnnStatus_t cudnnFindConvolutionBackwardDataAlgorithmEx(cudnnHandle_t h, const cudnnFilterDescriptor_t w, const void *wp,
    const cudnnTensorDescriptor_t dyd, const void *dy, const cudnnConvolutionDescriptor_t c, const cudnnTensorDescriptor_t dxd, void *dx,
    const int req, int *ret, cudnnConvolutionBwdDataAlgoPerf_t *p, void *ws, size_t wsb)
{ UNUSED(h); UNUSED(wp); UNUSED(dyd); UNUSED(dy); UNUSED(c); UNUSED(dxd); UNUSED(dx); UNUSED(ws); UNUSED(wsb); PERF_LIST(6, 1, 1); }
cudnnStatus_t cudnnFindConvolutionBackwardFilterAlgorithmEx(cudnnHandle_t h, const cudnnTensorDescriptor_t xd, const void *x,
    const cudnnTensorDescriptor_t dyd, const void *dy, const cudnnConvolutionDescriptor_t c, const cudnnFilterDescriptor_t w, void *dw,
    const int req, int *ret, cudnnConvolutionBwdFilterAlgoPerf_t *p, void *ws, size_t wsb)
{ UNUSED(h); UNUSED(xd); UNUSED(x); UNUSED(dyd); UNUSED(dy); UNUSED(c); UNUSED(dw); UNUSED(ws); UNUSED(wsb); PERF_LIST(7, 2, 1); }

cudnnStatus_t cudnnGetConvolutionForwardWorkspaceSize(cudnnHandle_t h, const cudnnTensorDescriptor_t x, const cudnnFilterDescriptor_t w,
    const cudnnConvolutionDescriptor_t c, const cudnnTensorDescriptor_t y, cudnnConvolutionFwdAlgo_t a, size_t *b)
{ UNUSED(h); UNUSED(x); UNUSED(w); UNUSED(c); UNUSED(y); *b = workspace(a); return CUDNN_STATUS_SUCCESS; }
cudnnStatus_t cudnnGetConvolutionBackwardDataWorkspaceSize(cudnnHandle_t h, const cudnnFilterDescriptor_t w, const cudnnTensorDescriptor_t dy,
    const cudnnConvolutionDescriptor_t c, const cudnnTensorDescriptor_t dx, cudnnConvolutionBwdDataAlgo_t a, size_t *b)
{ UNUSED(h); UNUSED(w); UNUSED(dy); UNUSED(c); UNUSED(dx); *b = workspace(a); return CUDNN_STATUS_SUCCESS; }
cudnnStatus_t cudnnGetConvolutionBackwardFilterWorkspaceSize(cudnnHandle_t h, const cudnnTensorDescriptor_t x, const cudnnTensorDescriptor_t dy,
    const cudnnConvolutionDescriptor_t c, const cudnnFilterDescriptor_t w, cudnnConvolutionBwdFilterAlgo_t a, size_t *b)
{ UNUSED(h); UNUSED(x); UNUSED(dy); UNUSED(c); UNUSED(w); *b = workspace(a); return CUDNN_STATUS_SUCCESS; }

static cudnnStatus_t convolve(int dir, int algo, const tensor_t *x, const filter_t *w, const tensor_t *y,
                              const conv_t *cv)
{
    double flops = 2.0 * y->n * y->c * y->h * y->w * (double)w->c * w->r * w->s;
    double us = flops / 30e12 * 1e6 * (1 + 0.3 * algo) + 3;
    long crash = atol(knob("SEER_SIM_CRASH_AFTER", "0"));
    if (crash && ++conv_calls >= crash) _exit(137);
    long sleep_us = atol(knob("SEER_SIM_SLEEP_US", "0"));
    static int first_done;
    if (!first_done++) sleep_us += 1000 * atol(knob("SEER_SIM_FIRST_SLEEP_MS", "0"));
    if (sleep_us > 0) {
        struct timespec ts = {sleep_us / 1000000, sleep_us % 1000000 * 1000};
        nanosleep(&ts, NULL);
    }
    if (dir == 0 && algo == 4) return CUDNN_STATUS_EXECUTION_FAILED;
    /* the host's share of the call (plan lookup, graph translation): an
     * idle GPU waits for it, a held one does not */
    clock_ns += (uint64_t)(1000 * atof(knob("SEER_SIM_HOST_US", "300")));
    if (!strcmp(knob("SEER_SIM_ZERO_TS", "0"), "1") && trace_kernels) {
        slot_t z;
        memset(&z, 0, sizeof z);
        z.k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
        z.k.end = clock_ns;
        z.k.streamId = SIM_STREAM;
        z.k.name = "_Z11zero_kernelv";
        queue(&z);
    }
    if (dir == 0 && algo == 1 && conv_math == CUDNN_TENSOR_OP_MATH) {
        launch("sm90_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nchwkcrs_nchw_tensorop_kernel", us * 0.5, 132, 128);
        return CUDNN_STATUS_SUCCESS;
    }
    if (algo == 0 && cv->g > 1 && cv->g < x->c) {
        /* one kernel per group, on cuDNN's internal streams */
        for (int g = 0; g < cv->g; g++)
            submit((op_t){.what = 0, .name = "_Z19grouped_conv_kernelILi1EEvPKfS1_Pf", .us = us / cv->g,
                          .grid = 16, .block = 128, .stream = SIM_STREAM + 1 + (uint32_t)(g % 2)});
        return CUDNN_STATUS_SUCCESS;
    }
    if (algo == 2) {
        submit((op_t){.what = 2, .us = 1});
        launch("_Z8im2col4dIfEviPKT_PS0_", us * 0.2, 64, 256);
    }
    launch(dir == 0 ? "_Z23implicit_convolve_sgemmIffLi128ELi5ELi5ELi3ELi3ELi3ELi1ELb0ELb0ELb1EEviiiPKT_iPT0_S2_18kernel_conv_paramsyiffiS4_S4_ii"
                    : "sm90_xmma_dgrad_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x32_kernel",
           us, 132, 128);
    return CUDNN_STATUS_SUCCESS;
}
cudnnStatus_t cudnnConvolutionForward(cudnnHandle_t h, const void *al, const cudnnTensorDescriptor_t xd, const void *x,
    const cudnnFilterDescriptor_t wd, const void *w, const cudnnConvolutionDescriptor_t cd, cudnnConvolutionFwdAlgo_t a,
    void *ws, size_t wsb, const void *be, const cudnnTensorDescriptor_t yd, void *y)
{
    UNUSED(h); UNUSED(al); UNUSED(x); UNUSED(w); UNUSED(cd); UNUSED(ws); UNUSED(wsb); UNUSED(be); UNUSED(y);
    return convolve(0, a, (const tensor_t *)xd, (const filter_t *)wd, (const tensor_t *)yd, (const conv_t *)cd);
}
cudnnStatus_t cudnnConvolutionBackwardData(cudnnHandle_t h, const void *al, const cudnnFilterDescriptor_t wd, const void *w,
    const cudnnTensorDescriptor_t dyd, const void *dy, const cudnnConvolutionDescriptor_t cd, cudnnConvolutionBwdDataAlgo_t a,
    void *ws, size_t wsb, const void *be, const cudnnTensorDescriptor_t dxd, void *dx)
{
    UNUSED(h); UNUSED(al); UNUSED(w); UNUSED(dy); UNUSED(cd); UNUSED(ws); UNUSED(wsb); UNUSED(be); UNUSED(dx);
    return convolve(1, a, (const tensor_t *)dxd, (const filter_t *)wd, (const tensor_t *)dyd, (const conv_t *)cd);
}
cudnnStatus_t cudnnConvolutionBackwardFilter(cudnnHandle_t h, const void *al, const cudnnTensorDescriptor_t xd, const void *x,
    const cudnnTensorDescriptor_t dyd, const void *dy, const cudnnConvolutionDescriptor_t cd, cudnnConvolutionBwdFilterAlgo_t a,
    void *ws, size_t wsb, const void *be, const cudnnFilterDescriptor_t dwd, void *dw)
{
    UNUSED(h); UNUSED(al); UNUSED(x); UNUSED(dy); UNUSED(cd); UNUSED(ws); UNUSED(wsb); UNUSED(be); UNUSED(dw);
    return convolve(2, a, (const tensor_t *)xd, (const filter_t *)dwd, (const tensor_t *)dyd, (const conv_t *)cd);
}

/* ---- CUPTI Activity ------------------------------------------------------------ */

CUptiResult cuptiGetResultString(CUptiResult r, const char **s)
{
    *s = r == CUPTI_SUCCESS ? "CUPTI_SUCCESS"
       : r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ? "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES" : "CUPTI_ERROR_UNKNOWN";
    return CUPTI_SUCCESS;
}
CUptiResult cuptiGetVersion(uint32_t *v) { *v = CUPTI_API_VERSION; return CUPTI_SUCCESS; }
CUptiResult cuptiGetTimestamp(uint64_t *t) { *t = clock_ns; return CUPTI_SUCCESS; }
CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc req, CUpti_BuffersCallbackCompleteFunc done)
{
    buffer_request = req;
    buffer_complete = done;
    return CUPTI_SUCCESS;
}
/* API records (runtime, driver, external correlation) are accepted and
 * remembered: the Range Profiler refuses to run beside any tracing. */
CUptiResult cuptiActivityEnable(CUpti_ActivityKind k)
{
    if (k == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) trace_kernels = 1;
    else if (k == CUPTI_ACTIVITY_KIND_MEMSET) trace_memset = 1;
    else trace_other_kinds = 1;
    return CUPTI_SUCCESS;
}
CUptiResult cuptiActivityDisable(CUpti_ActivityKind k)
{
    if (k == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) trace_kernels = 0;
    else if (k == CUPTI_ACTIVITY_KIND_MEMSET) trace_memset = 0;
    return CUPTI_SUCCESS;
}
CUptiResult cuptiActivityGetNumDroppedRecords(CUcontext c, uint32_t s, size_t *d) { UNUSED(c); UNUSED(s); *d = 0; return CUPTI_SUCCESS; }
CUptiResult cuptiActivityFlushAll(uint32_t flag)
{
    UNUSED(flag);
    drain(0);
    while (n_pending) {
        uint8_t *buf = NULL;
        size_t size = 0, max_records = 0;
        buffer_request(&buf, &size, &max_records);
        if (!buf) return CUPTI_ERROR_OUT_OF_MEMORY;
        size_t n = size / sizeof(slot_t);
        if (n > n_pending) n = n_pending;
        memcpy(buf, pending, n * sizeof(slot_t));
        memmove(pending, pending + n, (n_pending - n) * sizeof(slot_t));
        n_pending -= n;
        buffer_complete(NULL, 0, buf, size, n * sizeof(slot_t));
    }
    return CUPTI_SUCCESS;
}
CUptiResult cuptiActivityGetNextRecord(uint8_t *buf, size_t valid, CUpti_Activity **rec)
{
    uint8_t *next = *rec ? (uint8_t *)*rec + sizeof(slot_t) : buf;
    if (next + sizeof(slot_t) > buf + valid) return CUPTI_ERROR_MAX_LIMIT_REACHED;
    *rec = (CUpti_Activity *)next;
    return CUPTI_SUCCESS;
}

/* ---- CUPTI Range Profiler --------------------------------------------------------- */

static int counters_denied(void) { return !strcmp(knob("SEER_SIM_METRICS", "ok"), "denied"); }
CUptiResult cuptiProfilerInitialize(CUpti_Profiler_Initialize_Params *p) { UNUSED(p); return CUPTI_SUCCESS; }
CUptiResult cuptiProfilerDeInitialize(CUpti_Profiler_DeInitialize_Params *p) { UNUSED(p); return CUPTI_SUCCESS; }
CUptiResult cuptiProfilerDeviceSupported(CUpti_Profiler_DeviceSupported_Params *p)
{
    p->isSupported = CUPTI_PROFILER_CONFIGURATION_SUPPORTED;
    return CUPTI_SUCCESS;
}
CUptiResult cuptiDeviceGetChipName(CUpti_Device_GetChipName_Params *p) { p->pChipName = "GH100"; return CUPTI_SUCCESS; }
CUptiResult cuptiProfilerGetCounterAvailability(CUpti_Profiler_GetCounterAvailability_Params *p)
{
    if (counters_denied()) return CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
    p->counterAvailabilityImageSize = 64;
    return CUPTI_SUCCESS;
}
CUptiResult cuptiProfilerHostInitialize(CUpti_Profiler_Host_Initialize_Params *p)
{
    host_objects++;
    p->pHostObject = (CUpti_Profiler_Host_Object *)malloc(1);
    return CUPTI_SUCCESS;
}
CUptiResult cuptiProfilerHostDeinitialize(CUpti_Profiler_Host_Deinitialize_Params *p) { host_objects--; free(p->pHostObject); return CUPTI_SUCCESS; }
/* one metric the "chip" does not know: it must be left out, not fail all */
CUptiResult cuptiProfilerHostGetMetricProperties(CUpti_Profiler_Host_GetMetricProperties_Params *p)
{
    return strstr(p->pMetricName, "dram__throughput") ? CUPTI_ERROR_INVALID_METRIC_NAME : CUPTI_SUCCESS;
}
CUptiResult cuptiProfilerHostConfigAddMetrics(CUpti_Profiler_Host_ConfigAddMetrics_Params *p) { UNUSED(p); return CUPTI_SUCCESS; }
CUptiResult cuptiProfilerHostGetConfigImageSize(CUpti_Profiler_Host_GetConfigImageSize_Params *p) { p->configImageSize = 128; return CUPTI_SUCCESS; }
CUptiResult cuptiProfilerHostGetConfigImage(CUpti_Profiler_Host_GetConfigImage_Params *p) { UNUSED(p); return CUPTI_SUCCESS; }
CUptiResult cuptiProfilerHostGetNumOfPasses(CUpti_Profiler_Host_GetNumOfPasses_Params *p) { p->numOfPasses = 8; return CUPTI_SUCCESS; }
CUptiResult cuptiProfilerHostEvaluateToGpuValues(CUpti_Profiler_Host_EvaluateToGpuValues_Params *p)
{
    for (size_t i = 0; i < p->numMetrics; i++) p->pMetricValues[i] = 1000.0 * (double)(i + 1) + (double)p->rangeIndex;
    return CUPTI_SUCCESS;
}
/* What crashed on the H100 is made to crash here: the Range Profiler in a
 * process that registered Activity callbacks, enabled twice, or handed a
 * counter-data image that was not freshly initialised (SIGSEGV, as the
 * real one did).  The host object must outlive the enabled profiler. */
static void crash(void) { fflush(NULL); raise(SIGSEGV); }
CUptiResult cuptiRangeProfilerEnable(CUpti_RangeProfiler_Enable_Params *p)
{
    if (p->ctx != (CUcontext)0x5eed) return CUPTI_ERROR_INVALID_PARAMETER;
    if (buffer_request || rp_enabled) crash();
    rp_enabled = 1;
    p->pRangeProfilerObject = (CUpti_RangeProfiler_Object *)malloc(1);
    return CUPTI_SUCCESS;
}
CUptiResult cuptiRangeProfilerDisable(CUpti_RangeProfiler_Disable_Params *p)
{
    if (!host_objects) crash(); /* torn down in the wrong order */
    rp_enabled = 0;
    free(p->pRangeProfilerObject);
    return CUPTI_SUCCESS;
}
CUptiResult cuptiRangeProfilerGetCounterDataSize(CUpti_RangeProfiler_GetCounterDataSize_Params *p) { p->counterDataSize = 256; return CUPTI_SUCCESS; }
#define IMAGE_FRESH 0x5eedf00du
CUptiResult cuptiRangeProfilerCounterDataImageInitialize(CUpti_RangeProfiler_CounterDataImage_Initialize_Params *p)
{
    uint32_t m = IMAGE_FRESH;
    memcpy(p->pCounterData, &m, sizeof m);
    return CUPTI_SUCCESS;
}
CUptiResult cuptiRangeProfilerSetConfig(CUpti_RangeProfiler_SetConfig_Params *p)
{
    uint32_t m;
    memcpy(&m, p->pCounterDataImage, sizeof m);
    if (m != IMAGE_FRESH || buffer_request) crash();
    memset(p->pCounterDataImage, 0xab, sizeof m); /* used from now on */
    return p->range == CUPTI_AutoRange && p->replayMode == CUPTI_KernelReplay ? CUPTI_SUCCESS : CUPTI_ERROR_INVALID_PARAMETER;
}
CUptiResult cuptiRangeProfilerStart(CUpti_RangeProfiler_Start_Params *p) { UNUSED(p); profiling = 1; profiled_kernels = 0; return CUPTI_SUCCESS; }
CUptiResult cuptiRangeProfilerStop(CUpti_RangeProfiler_Stop_Params *p) { profiling = 0; p->isAllPassSubmitted = 1; return CUPTI_SUCCESS; }
CUptiResult cuptiRangeProfilerDecodeData(CUpti_RangeProfiler_DecodeData_Params *p) { p->numOfRangeDropped = 0; return CUPTI_SUCCESS; }
CUptiResult cuptiRangeProfilerGetCounterDataInfo(CUpti_RangeProfiler_GetCounterDataInfo_Params *p)
{
    p->numTotalRanges = (size_t)profiled_kernels;
    return CUPTI_SUCCESS;
}
