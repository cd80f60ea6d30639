/* bench/mphase.c - the metrics phase: hardware counters for the calls a
 * sweep measured, in a process of its own.
 *
 * The Range Profiler and the Activity API in one process crashed
 * seer-bench on an H100 (exit 139), so this phase never registers activity
 * callbacks: seer-bench --metrics runs it as a child process
 * (--metrics-only) after the timing sweep.  It reads layers.csv, repeats
 * each successful call once unprofiled and once under the profiler (auto
 * ranges, kernel replay), and keeps the counters only when the ranges
 * match the call's kernels in kernels.csv one to one.  Counters go to
 * metrics.csv (one row per kernel, fsync'ed per call, so a killed phase
 * resumes where it stopped) and are then merged into kernels.csv. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "gpu.h"

#define PATH_CAP 1100
#define MAX_FIELDS 128
static const char *const MCOLS[SEER_METRIC_COUNT] = {
    "dram_read_bytes", "dram_write_bytes", "sm_pct", "dram_pct", "occupancy_pct", "tensor_pct"};

typedef struct {
    int nk;                         /* kernels of the call in kernels.csv */
    double (*v)[SEER_METRIC_COUNT]; /* counters per kernel; NULL: none yet */
} call_m_t;

typedef struct {
    call_m_t *c;
    long long n;                    /* call ids 0 .. n-1 */
} calls_t;

static call_m_t *call_at(calls_t *t, long long id)
{
    if (id < 0 || id > (1ll << 26)) return NULL;
    if (id >= t->n) {
        long long n = t->n ? t->n : 1024;
        while (n <= id) n *= 2;
        call_m_t *c = realloc(t->c, (size_t)n * sizeof *c);
        if (!c) return NULL;
        memset(c + t->n, 0, (size_t)(n - t->n) * sizeof *c);
        t->c = c;
        t->n = n;
    }
    return &t->c[id];
}

static void calls_free(calls_t *t)
{
    for (long long i = 0; i < t->n; i++) free(t->c[i].v);
    free(t->c);
}

/* Each data line of a seer-bench CSV, split; cb returns 0 to go on. */
typedef int (*row_fn)(void *ctx, char **hdr, int nh, char **f, int nf, long lineno);
static int each_row(const char *path, row_fn cb, void *ctx, char *err, size_t errlen)
{
    char *line = NULL, *hdr = NULL, *hl[MAX_FIELDS], *fl[MAX_FIELDS];
    size_t cap = 0;
    long lineno = 0;
    int nh = -1, got, rc = -1;
    FILE *f = seer_bench_open_input(path, SEER_BENCH_OUTPUT_MAX_BYTES, err, errlen);
    if (!f) return -1;
    while ((got = seer_bench_getline(f, &line, &cap)) > 0) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        if (!hdr) {
            if (!(hdr = strdup(line)) || (nh = seer_bench_csv_split(hdr, hl, MAX_FIELDS)) < 0) {
                snprintf(err, errlen, "%s:1: not a seer-bench file", path);
                goto out;
            }
            continue;
        }
        int nf = seer_bench_csv_split(line, fl, MAX_FIELDS);
        if (nf < 0) {
            snprintf(err, errlen, "%s:%ld: bad CSV quoting", path, lineno);
            goto out;
        }
        if (cb(ctx, hl, nh, fl, nf, lineno) != 0) {
            snprintf(err, errlen, "%s:%ld: not a seer-bench row", path, lineno);
            goto out;
        }
    }
    if (got < 0) {
        snprintf(err, errlen, "%s:%ld: line too long", path, lineno + 1);
        goto out;
    }
    rc = 0;
out:
    free(line);
    free(hdr);
    fclose(f);
    return rc;
}

static const char *fld(char **hdr, int nh, char **f, int nf, const char *name)
{
    int c = seer_bench_csv_col(hdr, nh, name);
    return c >= 0 && c < nf ? f[c] : NULL;
}

static int count_kernels(void *ctx, char **hdr, int nh, char **f, int nf, long lineno)
{
    (void)lineno;
    const char *id = fld(hdr, nh, f, nf, "call_id");
    call_m_t *c = id ? call_at(ctx, atoll(id)) : NULL;
    if (!c) return -1;
    c->nk++;
    return 0;
}

static int load_metrics(void *ctx, char **hdr, int nh, char **f, int nf, long lineno)
{
    (void)lineno;
    const char *id = fld(hdr, nh, f, nf, "call_id"), *ki = fld(hdr, nh, f, nf, "kernel_index");
    call_m_t *c = id ? call_at(ctx, atoll(id)) : NULL;
    int k = ki ? atoi(ki) : -1;
    if (!c || k < 0 || k >= c->nk) return 0; /* a call kernels.csv no longer has */
    if (!c->v && !(c->v = malloc((size_t)c->nk * sizeof *c->v))) return -1;
    for (int m = 0; m < SEER_METRIC_COUNT; m++) {
        const char *v = fld(hdr, nh, f, nf, MCOLS[m]);
        c->v[k][m] = v && *v ? atof(v) : NAN;
    }
    return 0;
}

typedef struct {
    seer_bench_run_t *run;
    calls_t *calls;
    FILE *out;
    long long done, failed, mismatched, fails_in_row, not_reached;
    double deadline;                /* CLOCK_MONOTONIC s; 0: none */
    int stop;                       /* 1 give up counters, 2 context lost, 3 deadline */
    int col[SEER_BENCH_CONV_NCOLS], have_cols;
} phase_t;

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void put_num(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, ",%.6g", v);
    else fputc(',', f);
}

static int profile_row(void *ctx, char **hdr, int nh, char **f, int nf, long lineno)
{
    phase_t *p = ctx;
    (void)lineno;
    if (p->stop == 1 || p->stop == 2) return 0;
    if (!p->have_cols) {
        if (seer_bench_conv_columns(hdr, nh, p->col)) return -1;
        p->have_cols = 1;
    }
    const char *id = fld(hdr, nh, f, nf, "call_id"), *algo = fld(hdr, nh, f, nf, "algo"),
               *status = fld(hdr, nh, f, nf, "status"), *math = fld(hdr, nh, f, nf, "math_type");
    if (!id || !algo || !status) return -1;
    if (!*algo || *status) return 0; /* failed calls have no kernels to count */
    long long cid = atoll(id);
    call_m_t *c = call_at(p->calls, cid);
    if (!c) return -1;
    if (!c->nk || c->v) return 0;   /* no kernels traced, or done before */
    /* the budget: past it, the rest are only counted (a later
     * --metrics-only takes them up, as after a kill) */
    if (p->stop == 3 || (p->deadline > 0 && mono_s() >= p->deadline)) {
        p->stop = 3;
        p->not_reached++;
        return 0;
    }
    seer_bench_conv_t cv;
    int dir;
    char why[256];
    if (seer_bench_conv_row(p->col, f, nf, &cv, &dir, why, sizeof why) != 0 || dir < 0) return -1;
    int a = seer_bench_algo_index(dir, algo), mt = math && *math ? seer_bench_math_index(math) : -1;
    if (a < 0) return -1;
    double vals[SEER_METRICS_MAX_RANGES][SEER_METRIC_COUNT];
    int nk = 0;
    int r = seer_bench_metrics_call(p->run, &cv, a, mt, vals, &nk, why, sizeof why);
    if (r == -2) {
        fprintf(stderr, "seer-bench: metrics: CUDA context lost (%s); rerun with --metrics-only\n", why);
        p->stop = 2;
        return 0;
    }
    if (r != 0) {
        p->failed++;
        if (++p->fails_in_row == 1)
            fprintf(stderr, "seer-bench: metrics call %lld failed (%s); will retry on later calls\n", cid, why);
        if (p->fails_in_row >= 3 || strstr(why, "PRIVILEGES") || strstr(why, "NOT_SUPPORTED")) {
            fprintf(stderr, "seer-bench: metrics off for the rest of the phase\n");
            p->stop = 1;
        }
        return 0;
    }
    p->fails_in_row = 0;
    if (nk != c->nk) { /* cannot tell which counters belong to which kernel */
        p->mismatched++;
        return 0;
    }
    if (!(c->v = malloc((size_t)nk * sizeof *c->v))) return -1;
    for (int k = 0; k < nk; k++) {
        memcpy(c->v[k], vals[k], sizeof vals[k]);
        fprintf(p->out, "%lld,%d", cid, k);
        for (int m = 0; m < SEER_METRIC_COUNT; m++) put_num(p->out, vals[k][m]);
        fputc('\n', p->out);
    }
    p->done++;
    return seer_bench_sync(p->out);
}

/* kernels.csv again, counter columns filled from the calls' counters. */
static int merge(const char *path, const calls_t *calls, char *err, size_t errlen)
{
    char tmp[PATH_CAP + 8], *line = NULL, *hdr = NULL, *hl[MAX_FIELDS], *fl[MAX_FIELDS];
    size_t cap = 0;
    int nh = -1, got, rc = -1, cid = -1, cki = -1, cm[SEER_METRIC_COUNT];
    FILE *in = seer_bench_open_input(path, SEER_BENCH_OUTPUT_MAX_BYTES, err, errlen), *out = NULL;
    if (!in) return -1;
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (!(out = fopen(tmp, "w"))) {
        snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
        goto out;
    }
    while ((got = seer_bench_getline(in, &line, &cap)) > 0) {
        if (!hdr) {
            fputs(line, out);
            line[strcspn(line, "\r\n")] = 0;
            if (!(hdr = strdup(line)) || (nh = seer_bench_csv_split(hdr, hl, MAX_FIELDS)) < 0) goto bad;
            cid = seer_bench_csv_col(hl, nh, "call_id");
            cki = seer_bench_csv_col(hl, nh, "kernel_index");
            for (int m = 0; m < SEER_METRIC_COUNT; m++) cm[m] = seer_bench_csv_col(hl, nh, MCOLS[m]);
            if (cid < 0 || cki < 0) goto bad;
            continue;
        }
        char *copy = strdup(line);
        if (!copy) goto bad;
        copy[strcspn(copy, "\r\n")] = 0;
        int nf = seer_bench_csv_split(copy, fl, MAX_FIELDS);
        long long id = nf > cid ? atoll(fl[cid]) : -1;
        int k = nf > cki ? atoi(fl[cki]) : -1;
        const call_m_t *c = id >= 0 && id < calls->n ? &calls->c[id] : NULL;
        if (nf < nh || !c || !c->v || k < 0 || k >= c->nk) {
            fputs(line, out); /* as it was */
            free(copy);
            continue;
        }
        char num[64];
        for (int i = 0; i < nf; i++) {
            const char *v = fl[i];
            for (int m = 0; m < SEER_METRIC_COUNT; m++)
                if (i == cm[m]) {
                    if (isfinite(c->v[k][m])) snprintf(num, sizeof num, "%.6g", c->v[k][m]);
                    else num[0] = 0;
                    v = num;
                }
            if (i) fputc(',', out);
            seer_bench_csv_str(out, v);
        }
        fputc('\n', out);
        free(copy);
    }
    if (got < 0) goto bad;
    FILE *done = out;
    out = NULL;
    if (seer_bench_replace_file(done, tmp, path, err, errlen) != 0) goto out;
    rc = 0;
    goto out;
bad:
    snprintf(err, errlen, "%s: not a kernel trace", path);
out:
    if (out) fclose(out);
    fclose(in);
    free(line);
    free(hdr);
    return rc;
}

static void note(const char *dir, const char *text, long long done, long long failed, long long mism,
                 long long not_reached)
{
    char path[PATH_CAP];
    snprintf(path, sizeof path, "%s/metrics.txt", dir);
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "metrics=%s\nmetrics_calls=%lld\nmetrics_failed_calls=%lld\nmetrics_mismatched_calls=%lld\n"
               "metrics_calls_not_reached=%lld\n", text, done, failed, mism, not_reached);
    if (fclose(f) != 0) fprintf(stderr, "seer-bench: cannot write %s\n", path);
}

int seer_bench_metrics_phase(const seer_bench_opts_t *o)
{
    char path[PATH_CAP], err[2048], msg[512], text[700];
    calls_t calls = {0};
    phase_t p = {0};
    seer_bench_out_t out = {0};
    int rc = 1;
    /* from here: context creation and profiler setup count against it too */
    p.deadline = o->minutes > 0 ? mono_s() + o->minutes * 60.0 : 0;
    cudaError_t ce = cudaSetDevice(o->device);
    if (ce == cudaSuccess) ce = cudaFree(NULL);
    if (ce != cudaSuccess) {
        fprintf(stderr, "no CUDA device: %s\n", cudaGetErrorString(ce));
        return 2;
    }
    snprintf(path, sizeof path, "%s/kernels.csv", o->out_dir);
    if (each_row(path, count_kernels, &calls, err, sizeof err) != 0) goto fail;
    if (seer_bench_metrics_init(o->device, msg, sizeof msg) != 0) {
        fprintf(stderr, "seer-bench: metrics unavailable (%s): timings only\n", msg);
        snprintf(text, sizeof text, "unavailable: %s", msg);
        note(o->out_dir, text, 0, 0, 0, 0);
        calls_free(&calls);
        return 0;
    }
    snprintf(text, sizeof text, "on (%d passes: %s)", seer_bench_metrics_passes(), seer_bench_metrics_names());
    snprintf(path, sizeof path, "%s/metrics.csv", o->out_dir);
    struct stat st;
    int fresh = stat(path, &st) != 0 || st.st_size == 0;
    if (!fresh && (seer_bench_repair_tail(path) != 0 || each_row(path, load_metrics, &calls, err, sizeof err) != 0))
        goto fail;
    if (!(p.out = fopen(path, "a"))) {
        snprintf(err, sizeof err, "%s: %s", path, strerror(errno));
        goto fail;
    }
    if (fresh) {
        fputs("call_id,kernel_index", p.out);
        for (int m = 0; m < SEER_METRIC_COUNT; m++) fprintf(p.out, ",%s", MCOLS[m]);
        fputc('\n', p.out);
    }
    if (seer_bench_run_create(o, &out, &p.run, err, sizeof err) != 0) goto fail;
    p.calls = &calls;
    snprintf(path, sizeof path, "%s/layers.csv", o->out_dir);
    if (each_row(path, profile_row, &p, err, sizeof err) != 0) goto fail;
    seer_bench_run_destroy(p.run);
    p.run = NULL;
    seer_bench_metrics_shutdown();
    if (fclose(p.out) != 0) {
        p.out = NULL;
        snprintf(err, sizeof err, "metrics.csv: write failed");
        goto fail;
    }
    p.out = NULL;
    snprintf(path, sizeof path, "%s/kernels.csv", o->out_dir);
    if (merge(path, &calls, err, sizeof err) != 0) goto fail;
    if (p.stop == 1) snprintf(text + strlen(text), sizeof text - strlen(text), "; stopped after failures");
    if (p.stop == 3)
        snprintf(text + strlen(text), sizeof text - strlen(text),
                 "; time budget ended it, %lld calls left (--metrics-only resumes)", p.not_reached);
    note(o->out_dir, text, p.done, p.failed, p.mismatched, p.not_reached);
    fprintf(stderr, "seer-bench: metrics: %lld calls profiled, %lld failed, %lld with unmatched ranges, "
                    "%lld not reached (time budget)\n", p.done, p.failed, p.mismatched, p.not_reached);
    rc = p.stop == 2 ? 3 : 0;
    calls_free(&calls);
    return rc;
fail:
    fprintf(stderr, "seer-bench: metrics: %s\n", err);
    if (p.run) seer_bench_run_destroy(p.run);
    if (p.out) fclose(p.out);
    seer_bench_metrics_shutdown();
    calls_free(&calls);
    return rc;
}
