/* bench/trace.c - CUPTI Activity API: which kernels a cuDNN call launched.
 *
 * Every measured call runs inside cuptiActivityPushExternalCorrelationId /
 * Pop, so CUPTI emits an external-correlation record (external id ->
 * correlation id) before each API record of the call; kernel records carry
 * the correlation id of the API call that launched them.  Records arrive
 * in buffers, possibly on a CUPTI thread, hence the lock. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <cupti.h>
#include "gpu.h"

#define BUF_SIZE (8u << 20)
#define EXT_KIND CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0

static const CUpti_ActivityKind KINDS[4] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
    CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_DRIVER};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static seer_bench_kernel_rec_t *krec;
static size_t nk, capk;
static struct { uint32_t corr; uint64_t ext; } *xmap;
static size_t nx, capx;
static int record_kernels = 1, oom;
static size_t dropped;

const char *seer_bench_cupti_error(int result)
{
    const char *s = NULL;
    if (cuptiGetResultString((CUptiResult)result, &s) != CUPTI_SUCCESS || !s)
        return "CUPTI_ERROR_UNKNOWN";
    return s;
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    /* records must be 8-byte aligned */
    void *p = NULL;
    if (posix_memalign(&p, 8, BUF_SIZE) != 0) p = NULL;
    *buffer = p;
    *size = p ? BUF_SIZE : 0;
    *max_records = 0;
}

static void add_kernel(const CUpti_ActivityKernel10 *k)
{
    if (nk == capk) {
        size_t cap = capk ? 2 * capk : 1024;
        seer_bench_kernel_rec_t *v = realloc(krec, cap * sizeof *v);
        if (!v) { oom = 1; return; }
        krec = v;
        capk = cap;
    }
    seer_bench_kernel_rec_t *r = &krec[nk];
    memset(r, 0, sizeof *r);
    r->corr = k->correlationId;
    r->start = k->start;
    r->end = k->end;
    r->grid[0] = k->gridX; r->grid[1] = k->gridY; r->grid[2] = k->gridZ;
    r->block[0] = k->blockX; r->block[1] = k->blockY; r->block[2] = k->blockZ;
    r->regs = k->registersPerThread;
    r->smem_static = k->staticSharedMemory;
    r->smem_dynamic = k->dynamicSharedMemory;
    r->name = strdup(k->name ? k->name : "?");
    if (!r->name) { oom = 1; return; }
    nk++;
}

static void add_ext(uint32_t corr, uint64_t ext)
{
    if (nx == capx) {
        size_t cap = capx ? 2 * capx : 1024;
        void *v = realloc(xmap, cap * sizeof *xmap);
        if (!v) { oom = 1; return; }
        xmap = v;
        capx = cap;
    }
    xmap[nx].corr = corr;
    xmap[nx].ext = ext;
    nx++;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
                                      size_t valid)
{
    CUpti_Activity *rec = NULL;
    size_t lost = 0;
    (void)ctx;
    (void)stream;
    (void)size;
    pthread_mutex_lock(&lock);
    while (cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
        switch (rec->kind) {
        case CUPTI_ACTIVITY_KIND_KERNEL:
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
            if (record_kernels) add_kernel((const CUpti_ActivityKernel10 *)rec);
            break;
        case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
            const CUpti_ActivityExternalCorrelation *x = (const CUpti_ActivityExternalCorrelation *)rec;
            if (x->externalKind == EXT_KIND) add_ext(x->correlationId, x->externalId);
            break;
        }
        default:
            break;
        }
    }
    if (cuptiActivityGetNumDroppedRecords(NULL, 0, &lost) == CUPTI_SUCCESS) dropped += lost;
    pthread_mutex_unlock(&lock);
    free(buffer);
}

#define CK(call) do { CUptiResult r_ = (call); if (r_ != CUPTI_SUCCESS) { \
    snprintf(err, errlen, "%s: %s", #call, seer_bench_cupti_error(r_)); return -1; } } while (0)

int seer_bench_trace_init(char *err, size_t errlen)
{
    CK(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed));
    /* kernels; external-correlation records are only written before API
     * records, hence runtime and driver API records too */
    for (int i = 0; i < 4; i++) CK(cuptiActivityEnable(KINDS[i]));
    return 0;
}

int seer_bench_trace_push(uint64_t ext_id)
{
    return cuptiActivityPushExternalCorrelationId(EXT_KIND, ext_id) == CUPTI_SUCCESS ? 0 : -1;
}

int seer_bench_trace_pop(void)
{
    uint64_t last = 0;
    return cuptiActivityPopExternalCorrelationId(EXT_KIND, &last) == CUPTI_SUCCESS ? 0 : -1;
}

int seer_bench_trace_take(seer_bench_kernel_rec_t **recs, size_t *n)
{
    CUptiResult r = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < nk; i++)
        for (size_t j = nx; j-- > 0;)
            if (xmap[j].corr == krec[i].corr) { krec[i].ext_id = xmap[j].ext; break; }
    *recs = krec;
    *n = nk;
    int failed = oom;
    krec = NULL;
    nk = capk = 0;
    nx = 0;
    oom = 0;
    pthread_mutex_unlock(&lock);
    return r == CUPTI_SUCCESS && !failed ? 0 : -1;
}

void seer_bench_trace_release(seer_bench_kernel_rec_t *recs, size_t n)
{
    for (size_t i = 0; i < n; i++) free(recs[i].name);
    free(recs);
}

/* All four kinds, not just kernels: no tracing at all runs beside the
 * Range Profiler. */
int seer_bench_trace_kernels(int on)
{
    int bad = 0;
    for (int i = 0; i < 4; i++)
        bad |= (on ? cuptiActivityEnable(KINDS[i]) : cuptiActivityDisable(KINDS[i])) != CUPTI_SUCCESS;
    pthread_mutex_lock(&lock);
    record_kernels = on;
    pthread_mutex_unlock(&lock);
    return bad ? -1 : 0;
}

uint64_t seer_bench_trace_now(void)
{
    uint64_t t = 0;
    return cuptiGetTimestamp(&t) == CUPTI_SUCCESS ? t : 0;
}

size_t seer_bench_trace_dropped(void)
{
    pthread_mutex_lock(&lock);
    size_t d = dropped;
    pthread_mutex_unlock(&lock);
    return d;
}

void seer_bench_trace_shutdown(void)
{
    seer_bench_kernel_rec_t *r;
    size_t n;
    /* errors here change nothing already written */
    (void)seer_bench_trace_take(&r, &n);
    seer_bench_trace_release(r, n);
    free(xmap);
    xmap = NULL;
    capx = nx = 0;
}
