/* bench/trace.c - CUPTI Activity API: which kernels a cuDNN call launched.
 *
 * Only GPU-side activity is recorded (kernels, memsets, memcpys): runtime
 * and driver API tracing would add its cost to every cuDNN call.  The
 * caller attributes records to calls by stream and time window (conv.c).
 * Records arrive in buffers, possibly on a CUPTI thread, hence the lock. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <cupti.h>
#include "gpu.h"

#define BUF_SIZE (8u << 20)

static const CUpti_ActivityKind KINDS[3] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_MEMCPY};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static seer_bench_kernel_rec_t *krec;
static size_t nk, capk;
static int record_kernels = 1, oom;
static size_t dropped, bad_times;

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

static seer_bench_kernel_rec_t *new_rec(uint64_t start, uint64_t end)
{
    /* a forced flush can deliver records whose timestamps were never
     * filled in: they would attribute to no call or to the wrong one */
    if (start == 0 || end == 0 || end < start) {
        bad_times++;
        return NULL;
    }
    if (nk == capk) {
        size_t cap = capk ? 2 * capk : 1024;
        seer_bench_kernel_rec_t *v = realloc(krec, cap * sizeof *v);
        if (!v) { oom = 1; return NULL; }
        krec = v;
        capk = cap;
    }
    seer_bench_kernel_rec_t *r = &krec[nk];
    memset(r, 0, sizeof *r);
    r->start = start;
    r->end = end;
    return r;
}

static void add_kernel(const CUpti_ActivityKernel10 *k)
{
    seer_bench_kernel_rec_t *r = new_rec(k->start, k->end);
    if (!r) return;
    r->kind = SEER_BENCH_REC_KERNEL;
    r->corr = k->correlationId;
    r->stream = k->streamId;
    r->grid[0] = k->gridX; r->grid[1] = k->gridY; r->grid[2] = k->gridZ;
    r->block[0] = k->blockX; r->block[1] = k->blockY; r->block[2] = k->blockZ;
    r->cluster[0] = (int)k->clusterX; r->cluster[1] = (int)k->clusterY; r->cluster[2] = (int)k->clusterZ;
    r->regs = k->registersPerThread;
    r->smem_static = k->staticSharedMemory;
    r->smem_dynamic = k->dynamicSharedMemory;
    r->name = strdup(k->name ? k->name : "?");
    if (!r->name) { oom = 1; return; }
    nk++;
}

static void add_memop(int kind, uint64_t start, uint64_t end, uint32_t stream, uint32_t corr)
{
    seer_bench_kernel_rec_t *r = new_rec(start, end);
    if (!r) return;
    r->kind = kind;
    r->corr = corr;
    r->stream = stream;
    r->name = strdup(kind == SEER_BENCH_REC_MEMSET ? "[memset]" : "[memcpy]");
    if (!r->name) { oom = 1; return; }
    nk++;
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
        case CUPTI_ACTIVITY_KIND_MEMSET: {
            const CUpti_ActivityMemset4 *m = (const CUpti_ActivityMemset4 *)rec;
            if (record_kernels) add_memop(SEER_BENCH_REC_MEMSET, m->start, m->end, m->streamId, m->correlationId);
            break;
        }
        case CUPTI_ACTIVITY_KIND_MEMCPY: {
            const CUpti_ActivityMemcpy6 *m = (const CUpti_ActivityMemcpy6 *)rec;
            if (record_kernels) add_memop(SEER_BENCH_REC_MEMCPY, m->start, m->end, m->streamId, m->correlationId);
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
    for (int i = 0; i < 3; i++) CK(cuptiActivityEnable(KINDS[i]));
    return 0;
}

/* Every record collected so far is handed over: a record that belongs to
 * no call of this take is the caller's to count, never silently lost. */
int seer_bench_trace_take(seer_bench_kernel_rec_t **recs, size_t *n)
{
    CUptiResult r = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    pthread_mutex_lock(&lock);
    *recs = krec;
    *n = nk;
    int failed = oom;
    krec = NULL;
    nk = capk = 0;
    oom = 0;
    pthread_mutex_unlock(&lock);
    return r == CUPTI_SUCCESS && !failed ? 0 : -1;
}

void seer_bench_trace_release(seer_bench_kernel_rec_t *recs, size_t n)
{
    for (size_t i = 0; i < n; i++) free(recs[i].name);
    free(recs);
}

/* Every kind: no tracing at all runs beside the Range Profiler. */
int seer_bench_trace_kernels(int on)
{
    int bad = 0;
    for (int i = 0; i < 3; i++)
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

size_t seer_bench_trace_bad_timestamps(void)
{
    pthread_mutex_lock(&lock);
    size_t d = bad_times;
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
    /* stop delivery before the buffers' owner (this module) goes away */
    for (int i = 0; i < 3; i++) (void)cuptiActivityDisable(KINDS[i]);
    (void)cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}
