/* bench/metrics.c - hardware counters per kernel with the CUPTI Range
 * Profiler (cupti_range_profiler.h): auto ranges (one range per kernel
 * launch) and kernel replay (CUPTI reruns each kernel once per counter
 * pass, saving and restoring the memory it touches).
 *
 * It runs in its own process (the metrics phase, bench/mphase.c), which
 * never registers Activity callbacks: the profiler and activity tracing in
 * one process crashed seer-bench on an H100.  The profiler is enabled once
 * for the context; each call gets a freshly allocated and initialised
 * counter-data image; teardown is the documented reverse order (range
 * profiler disable, host object deinitialise, profiler deinitialise).
 *
 * cupti_profiler_host.h includes <string>; bench/shim/string is an empty
 * stand-in so this file compiles as C.
 *
 * NOT YET RUN ON A GPU: written against the CUDA 13.0 headers and NVIDIA's
 * range_profiling sample; see docs/seer-bench.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cuda.h>
#include <cupti.h>
#include <cupti_target.h>
#include <cupti_profiler_target.h>
#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>
#include "gpu.h"

/* Order = SEER_METRIC_*. */
static const char *const WANT[SEER_METRIC_COUNT] = {
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active",
};

static struct {
    int ready, profiler_on, started;
    CUcontext ctx;
    CUpti_Profiler_Host_Object *host;
    const char *names[SEER_METRIC_COUNT]; /* accepted metrics, in WANT order */
    int slot[SEER_METRIC_COUNT];          /* SEER_METRIC_* of names[i] */
    int n;
    uint8_t *config, *avail, *counter;     /* counter: this call's image */
    size_t config_size, counter_size;
    CUpti_RangeProfiler_Object *obj;
    int passes;
    char list[512];
} M;

#define CK(call) do { CUptiResult r_ = (call); if (r_ != CUPTI_SUCCESS) { \
    snprintf(msg, len, "%s: %s", #call, seer_bench_cupti_error(r_)); goto fail; } } while (0)

const char *seer_bench_metrics_names(void) { return M.list; }
int seer_bench_metrics_passes(void) { return M.passes; }

int seer_bench_metrics_init(int device, char *msg, size_t len)
{
    CUpti_Profiler_Initialize_Params ip = {CUpti_Profiler_Initialize_Params_STRUCT_SIZE, NULL};
    CK(cuptiProfilerInitialize(&ip));
    M.profiler_on = 1;

    CUpti_Profiler_DeviceSupported_Params sp;
    memset(&sp, 0, sizeof sp);
    sp.structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE;
    sp.cuDevice = (CUdevice)device;
    sp.api = CUPTI_PROFILER_RANGE_PROFILING;
    CK(cuptiProfilerDeviceSupported(&sp));
    if (sp.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
        const struct { const char *what; CUpti_Profiler_Support_Level l; } f[] = {
            {"architecture", sp.architecture}, {"vGPU", sp.vGpu}, {"SLI", sp.sli},
            {"confidential compute", sp.confidentialCompute}, {"CMP", sp.cmp}, {"WSL", sp.wsl}};
        const char *what = "device", *how = "unsupported";
        for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
            if (f[i].l != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
                what = f[i].what;
                how = f[i].l == CUPTI_PROFILER_CONFIGURATION_DISABLED ? "profiling disabled"
                                                                      : "unsupported";
                break;
            }
        snprintf(msg, len, "Range Profiler not available here (%s: %s)", what, how);
        goto fail;
    }

    /* The runtime made the primary context current; CUPTI wants it as a
     * CUcontext.  No -lcuda: the driver entry point comes via cudart. */
    {
        void *fp = NULL;
        enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
        cudaError_t e = cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fp, 12000,
                                                          cudaEnableDefault, &q);
        if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !fp) {
            snprintf(msg, len, "cuCtxGetCurrent entry point: %s", cudaGetErrorName(e));
            goto fail;
        }
        CUresult (*get_current)(CUcontext *);
        memcpy(&get_current, &fp, sizeof fp);
        if (get_current(&M.ctx) != CUDA_SUCCESS || !M.ctx) {
            snprintf(msg, len, "cuCtxGetCurrent failed");
            goto fail;
        }
    }

    CUpti_Device_GetChipName_Params cp = {CUpti_Device_GetChipName_Params_STRUCT_SIZE, NULL, 0, NULL};
    cp.deviceIndex = (size_t)device;
    CK(cuptiDeviceGetChipName(&cp));

    CUpti_Profiler_GetCounterAvailability_Params ap;
    memset(&ap, 0, sizeof ap);
    ap.structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE;
    ap.ctx = M.ctx;
    CK(cuptiProfilerGetCounterAvailability(&ap));
    if (!(M.avail = malloc(ap.counterAvailabilityImageSize))) {
        snprintf(msg, len, "out of memory");
        goto fail;
    }
    ap.pCounterAvailabilityImage = M.avail;
    CK(cuptiProfilerGetCounterAvailability(&ap));

    CUpti_Profiler_Host_Initialize_Params hp;
    memset(&hp, 0, sizeof hp);
    hp.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE;
    hp.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    hp.pChipName = cp.pChipName;
    hp.pCounterAvailabilityImage = M.avail;
    CK(cuptiProfilerHostInitialize(&hp));
    M.host = hp.pHostObject;

    /* Keep the metrics this chip knows; one unknown name must not cost
     * the others. */
    M.n = 0;
    M.list[0] = 0;
    for (int i = 0; i < SEER_METRIC_COUNT; i++) {
        CUpti_Profiler_Host_GetMetricProperties_Params pp;
        memset(&pp, 0, sizeof pp);
        pp.structSize = CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE;
        pp.pHostObject = M.host;
        pp.pMetricName = WANT[i];
        if (cuptiProfilerHostGetMetricProperties(&pp) != CUPTI_SUCCESS) continue;
        M.slot[M.n] = i;
        M.names[M.n++] = WANT[i];
        size_t l = strlen(M.list);
        snprintf(M.list + l, sizeof M.list - l, "%s%s", l ? ";" : "", WANT[i]);
    }
    if (!M.n) {
        snprintf(msg, len, "chip %s knows none of the metrics", cp.pChipName);
        goto fail;
    }

    CUpti_Profiler_Host_ConfigAddMetrics_Params am;
    memset(&am, 0, sizeof am);
    am.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE;
    am.pHostObject = M.host;
    am.ppMetricNames = M.names;
    am.numMetrics = (size_t)M.n;
    CK(cuptiProfilerHostConfigAddMetrics(&am));

    CUpti_Profiler_Host_GetConfigImageSize_Params cs;
    memset(&cs, 0, sizeof cs);
    cs.structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE;
    cs.pHostObject = M.host;
    CK(cuptiProfilerHostGetConfigImageSize(&cs));
    if (!(M.config = malloc(cs.configImageSize))) {
        snprintf(msg, len, "out of memory");
        goto fail;
    }
    M.config_size = cs.configImageSize;

    CUpti_Profiler_Host_GetConfigImage_Params ci;
    memset(&ci, 0, sizeof ci);
    ci.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE;
    ci.pHostObject = M.host;
    ci.configImageSize = M.config_size;
    ci.pConfigImage = M.config;
    CK(cuptiProfilerHostGetConfigImage(&ci));

    CUpti_Profiler_Host_GetNumOfPasses_Params np;
    memset(&np, 0, sizeof np);
    np.structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE;
    np.configImageSize = M.config_size;
    np.pConfigImage = M.config;
    CK(cuptiProfilerHostGetNumOfPasses(&np));
    M.passes = (int)np.numOfPasses;

    /* once per context, not per call */
    CUpti_RangeProfiler_Enable_Params ep;
    memset(&ep, 0, sizeof ep);
    ep.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE;
    ep.ctx = M.ctx;
    CK(cuptiRangeProfilerEnable(&ep));
    M.obj = ep.pRangeProfilerObject;

    CUpti_RangeProfiler_GetCounterDataSize_Params ds;
    memset(&ds, 0, sizeof ds);
    ds.structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE;
    ds.pRangeProfilerObject = M.obj;
    ds.pMetricNames = M.names;
    ds.numMetrics = (size_t)M.n;
    ds.maxNumOfRanges = SEER_METRICS_MAX_RANGES;
    ds.maxNumRangeTreeNodes = SEER_METRICS_MAX_RANGES;
    CK(cuptiRangeProfilerGetCounterDataSize(&ds));
    M.counter_size = ds.counterDataSize;
    M.ready = 1;
    return 0;
fail:
    seer_bench_metrics_shutdown();
    return -1;
}

int seer_bench_metrics_begin(char *msg, size_t len)
{
    if (!M.ready || !M.obj) {
        snprintf(msg, len, "metrics not initialised");
        return -1;
    }
    /* a fresh image per call: a reused one carries the last call's ranges */
    free(M.counter);
    if (!(M.counter = calloc(1, M.counter_size))) {
        snprintf(msg, len, "out of memory");
        return -1;
    }
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params ii;
    memset(&ii, 0, sizeof ii);
    ii.structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE;
    ii.pRangeProfilerObject = M.obj;
    ii.counterDataSize = M.counter_size;
    ii.pCounterData = M.counter;
    CK(cuptiRangeProfilerCounterDataImageInitialize(&ii));

    CUpti_RangeProfiler_SetConfig_Params sc;
    memset(&sc, 0, sizeof sc);
    sc.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE;
    sc.pRangeProfilerObject = M.obj;
    sc.configSize = M.config_size;
    sc.pConfig = M.config;
    sc.counterDataImageSize = M.counter_size;
    sc.pCounterDataImage = M.counter;
    sc.range = CUPTI_AutoRange;
    sc.replayMode = CUPTI_KernelReplay;
    sc.maxRangesPerPass = SEER_METRICS_MAX_RANGES;
    sc.numNestingLevels = 1;
    sc.minNestingLevel = 1;
    sc.passIndex = 0;
    sc.targetNestingLevel = 1;
    CK(cuptiRangeProfilerSetConfig(&sc));

    CUpti_RangeProfiler_Start_Params st;
    memset(&st, 0, sizeof st);
    st.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE;
    st.pRangeProfilerObject = M.obj;
    CK(cuptiRangeProfilerStart(&st));
    M.started = 1;
    return 0;
fail:
    return -1;
}

int seer_bench_metrics_end(double vals[][SEER_METRIC_COUNT], int *n_kernels, char *msg, size_t len)
{
    int rc = -1;
    if (!M.obj || !M.started) {
        snprintf(msg, len, "metrics_end without begin");
        return -1;
    }
    CUpti_RangeProfiler_Stop_Params st;
    memset(&st, 0, sizeof st);
    st.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
    st.pRangeProfilerObject = M.obj;
    M.started = 0;
    CK(cuptiRangeProfilerStop(&st));
    if (!st.isAllPassSubmitted) {
        /* kernel replay submits every pass inside the range; if not, the
         * counters are incomplete and better not used */
        snprintf(msg, len, "not all counter passes were submitted");
        goto fail;
    }
    CUpti_RangeProfiler_DecodeData_Params dd;
    memset(&dd, 0, sizeof dd);
    dd.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE;
    dd.pRangeProfilerObject = M.obj;
    CK(cuptiRangeProfilerDecodeData(&dd));

    CUpti_RangeProfiler_GetCounterDataInfo_Params gi;
    memset(&gi, 0, sizeof gi);
    gi.structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE;
    gi.pCounterDataImage = M.counter;
    gi.counterDataImageSize = M.counter_size;
    CK(cuptiRangeProfilerGetCounterDataInfo(&gi));

    int nr = gi.numTotalRanges > SEER_METRICS_MAX_RANGES ? SEER_METRICS_MAX_RANGES
                                                          : (int)gi.numTotalRanges;
    for (int r = 0; r < nr; r++) {
        double v[SEER_METRIC_COUNT];
        for (int m = 0; m < SEER_METRIC_COUNT; m++) vals[r][m] = NAN;
        CUpti_Profiler_Host_EvaluateToGpuValues_Params ev;
        memset(&ev, 0, sizeof ev);
        ev.structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE;
        ev.pHostObject = M.host;
        ev.pCounterDataImage = M.counter;
        ev.counterDataImageSize = M.counter_size;
        ev.rangeIndex = (size_t)r;
        ev.ppMetricNames = M.names;
        ev.numMetrics = (size_t)M.n;
        ev.pMetricValues = v;
        CK(cuptiProfilerHostEvaluateToGpuValues(&ev));
        for (int i = 0; i < M.n; i++) vals[r][M.slot[i]] = v[i];
    }
    /* auto ranges are numbered in launch order; dropped ranges would
     * shift that numbering, so a call with drops gets no metrics */
    *n_kernels = dd.numOfRangeDropped ? 0 : nr;
    rc = 0;
fail:
    return rc;
}

void seer_bench_metrics_shutdown(void)
{
    if (M.obj) {
        CUpti_RangeProfiler_Disable_Params dp = {CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE, NULL, M.obj};
        (void)cuptiRangeProfilerDisable(&dp);
    }
    if (M.host) {
        CUpti_Profiler_Host_Deinitialize_Params dp = {CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE, NULL, M.host};
        (void)cuptiProfilerHostDeinitialize(&dp); /* nothing left to save if it fails */
    }
    if (M.profiler_on) {
        CUpti_Profiler_DeInitialize_Params di = {CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE, NULL};
        (void)cuptiProfilerDeInitialize(&di);
    }
    free(M.config);
    free(M.avail);
    free(M.counter);
    memset(&M, 0, sizeof M);
}
