/* bench/main.c - seer-bench: the calibration harness (docs/seer-bench.md).
 *
 * --help, --dry-run and --gpu-name run before any CUDA call, so they work
 * on machines without a GPU; a measuring run without one exits 2. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cublas_v2.h>
#include <cudnn.h>
#include <cupti.h>
#include "gpu.h"

enum { EXIT_USAGE = 1, EXIT_NO_DEVICE = 2, EXIT_FATAL = 3 };
/* paths are --out (at most OUT_MAX bytes) plus a file name */
#define OUT_MAX 1000
#define PATH_CAP 1100
#define ERR_CAP 2048

static void usage(FILE *f)
{
    fputs(
"usage: seer-bench [options]\n"
"Measure cuDNN convolutions (all directions, all algorithms), their kernels\n"
"(CUPTI) and the GPU's peak rates, for training libseer.  docs/seer-bench.md\n"
"\n"
"  --out DIR          output directory (default seer-bench-out)\n"
"  --seed N           seed of the generated plan (default 1)\n"
"  --plan FILE        measure the convolutions listed in FILE instead\n"
"  --random N         random shapes in the generated plan (default 120)\n"
"  --cnn-copies N     configurations of each CNN in the generated plan (default 1)\n"
"  --max-gflop G      largest forward GFLOP of a generated shape (default 200)\n"
"  --minutes M        time budget of the whole run; 0 = none (default 9)\n"
"  --workspace-mb N   cuDNN workspace limit in MiB (default 1024)\n"
"  --warmup N         untimed calls before timing, 1-100 (default 2)\n"
"  --reps N           timed calls, median/min/max reported, 1-64 (default 5)\n"
"  --metrics          CUPTI Range Profiler counters per kernel (slow), in a\n"
"                     phase of its own after the timing sweep\n"
"  --metrics-only     only that phase, on the results already in --out\n"
"  --no-find          skip cudnnFind*AlgorithmEx (picks.csv gets v7 rows only)\n"
"  --no-l2-flush      keep L2 warm between timed calls (default: evict it)\n"
"  --no-micro         skip the microbenchmarks (no profile.txt)\n"
"  --micro-only       only the microbenchmarks\n"
"  --resume           continue a run in --out, skipping what layers.csv has\n"
"  --device N         CUDA device (default 0)\n"
"  --gpu-id ID        GPU id written to the CSV files (default: from the name)\n"
"  --dry-run          print the plan as CSV and exit (no GPU needed)\n"
"  --gpu-name NAME    print the GPU id seer-bench uses for a device name\n"
"  --help             this text\n"
"Contradicting options (--no-micro --micro-only, --metrics --metrics-only,\n"
"two of the *-only/--dry-run/--gpu-name modes, ...) are refused.\n"
"\n"
"exit status: 0 done (also when the budget ended it early), 1 bad usage or\n"
"I/O error, 2 no CUDA device, 3 stopped early by a GPU failure or a signal\n"
"(rerun with --resume)\n", f);
}

static volatile sig_atomic_t interrupted;
static void on_signal(int sig) { (void)sig; interrupted = 1; }

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int parse_num(const char *opt, const char *v, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double d = v ? strtod(v, &end) : 0;
    if (!v || end == v || *end || errno || !(d >= lo && d <= hi)) {
        fprintf(stderr, "seer-bench: %s needs a number in [%g, %g], got '%s'\n", opt, lo, hi,
                v ? v : "");
        return -1;
    }
    *out = d;
    return 0;
}

static int mkdir_p(const char *path)
{
    char buf[PATH_CAP];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
            *p = '/';
        }
    return mkdir(buf, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/* ---- resume ---------------------------------------------------------------- */

static const char *const KEYCOLS[17] = {"direction", "dtype", "layout", "n", "c", "h", "w", "k", "r",
                                        "s", "pad_h", "pad_w", "stride_h", "stride_w", "dil_h",
                                        "dil_w", "groups"};

/* Keys of an existing layers.csv ("entry|algo|math") or picks.csv ("entry"). */
static int load_keys(const char *path, int with_algo, seer_bench_set_t *set, long long *max_id,
                     char *err, size_t errlen)
{
    char *line = NULL, *hdr = NULL, *fl[128], *hl[128];
    size_t cap = 0;
    int col[17], calg = -1, cid = -1, cmath = -1, nh = 0, rc = -1, got;
    long lineno = 0;
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT) return 0;
    FILE *f = seer_bench_open_input(path, SEER_BENCH_OUTPUT_MAX_BYTES, err, errlen);
    if (!f) return -1;
    while ((got = seer_bench_getline(f, &line, &cap)) > 0) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        if (!hdr) {
            if (!(hdr = strdup(line)) || (nh = seer_bench_csv_split(hdr, hl, 128)) < 0) goto bad;
            for (int i = 0; i < 17; i++)
                if ((col[i] = seer_bench_csv_col(hl, nh, KEYCOLS[i])) < 0) goto bad;
            calg = seer_bench_csv_col(hl, nh, "algo");
            cid = seer_bench_csv_col(hl, nh, "call_id");
            cmath = seer_bench_csv_col(hl, nh, "math_type");
            if (with_algo && (calg < 0 || cid < 0)) goto bad;
            continue;
        }
        int nf = seer_bench_csv_split(line, fl, 128);
        if (nf < nh) goto bad;
        char key[320];
        size_t o = 0;
        for (int i = 0; i < 17; i++)
            o += (size_t)snprintf(key + o, sizeof key - o, "%s%s", i ? "," : "", fl[col[i]]);
        if (with_algo) {
            /* an (algorithm, math type) pair is one measurement */
            snprintf(key + o, sizeof key - o, "|%s|%s", fl[calg], cmath >= 0 && cmath < nf ? fl[cmath] : "");
            long long id = atoll(fl[cid]);
            if (id > *max_id) *max_id = id;
        }
        if (seer_bench_set_add(set, key) < 0) goto bad;
    }
    if (got < 0) { lineno++; goto bad; }
    rc = 0;
    goto out;
bad:
    snprintf(err, errlen, "%s:%ld: not a seer-bench file (cannot resume from it)", path, lineno);
out:
    free(line);
    free(hdr);
    fclose(f);
    return rc;
}

/* Kernel rows written just before a crash whose layer row never made it
 * (call_id above the last one in layers.csv) are removed. */
static int drop_orphan_kernels(const char *path, long long max_id, char *err, size_t errlen)
{
    FILE *in, *out = NULL;
    char tmp[PATH_CAP + 8], *line = NULL, *copy = NULL, *fl[128];
    size_t cap = 0;
    int cid = -1, rc = -1, first = 1, got;
    long dropped = 0;
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT) return 0;
    if (!(in = seer_bench_open_input(path, SEER_BENCH_OUTPUT_MAX_BYTES, err, errlen))) return -1;
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (!(out = fopen(tmp, "w"))) {
        snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
        goto out;
    }
    while ((got = seer_bench_getline(in, &line, &cap)) > 0) {
        free(copy);
        if (!(copy = strdup(line))) goto out;
        copy[strcspn(copy, "\r\n")] = 0;
        int nf = seer_bench_csv_split(copy, fl, 128);
        if (first) {
            first = 0;
            if (nf < 0 || (cid = seer_bench_csv_col(fl, nf, "call_id")) < 0) {
                snprintf(err, errlen, "%s: no call_id column", path);
                goto out;
            }
        } else if (nf > cid && atoll(fl[cid]) > max_id) {
            dropped++;
            continue;
        }
        fputs(line, out);
    }
    if (got < 0) {
        snprintf(err, errlen, "%s: a line longer than %d bytes: not a seer-bench file", path,
                 SEER_BENCH_LINE_MAX);
        goto out;
    }
    FILE *done = out;
    out = NULL;
    if (seer_bench_replace_file(done, tmp, path, err, errlen) != 0) goto out;
    if (dropped) fprintf(stderr, "seer-bench: resume: dropped %ld kernel rows of an unfinished call\n", dropped);
    rc = 0;
out:
    if (out) fclose(out);
    fclose(in);
    free(line);
    free(copy);
    return rc;
}

/* A file to be appended to (--resume) must have the header this version
 * writes: rows of another column set would not line up with it (kernels.csv
 * gained math_type as its last column). */
static int header_differs(const char *path, void (*header)(FILE *), char *err, size_t errlen)
{
    char *want = NULL, *line = NULL;
    size_t wlen = 0, cap = 0;
    FILE *m = open_memstream(&want, &wlen);
    FILE *in = seer_bench_open_input(path, SEER_BENCH_OUTPUT_MAX_BYTES, err, errlen);
    int differs = 1;
    if (m) {
        header(m);
        if (fclose(m) != 0) { free(want); want = NULL; }
    }
    if (!want) snprintf(err, errlen, "out of memory");
    else if (in && seer_bench_getline(in, &line, &cap) > 0 && !strcmp(line, want)) differs = 0;
    else if (in) snprintf(err, errlen, "%s: written by another seer-bench version (its header "
                          "differs); measure into a new --out", path);
    if (in) fclose(in);
    free(want);
    free(line);
    return differs;
}

/* Open an output for appending; a new or empty file gets its header. */
static FILE *open_out(const char *dir, const char *name, void (*header)(FILE *), char *err, size_t errlen)
{
    char path[PATH_CAP];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (seer_bench_repair_tail(path) != 0) {
        snprintf(err, errlen, "%s: cannot repair", path);
        return NULL;
    }
    int fresh = stat(path, &st) != 0 || st.st_size == 0;
    if (!fresh && header_differs(path, header, err, errlen)) return NULL;
    FILE *f = fopen(path, "a");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    /* one measurement's rows leave in one write(): a kill cannot cut a
     * call in half (the tail repair handles a cut line anyway) */
    setvbuf(f, NULL, _IOFBF, 1 << 20);
    if (fresh) {
        header(f);
        if (seer_bench_sync(f) != 0) {
            snprintf(err, errlen, "%s: write failed", path);
            fclose(f);
            return NULL;
        }
    }
    return f;
}

/* ---- manifest -------------------------------------------------------------------- */

typedef struct {
    const seer_bench_opts_t *o;
    const char *status, *metrics;
    char gpu[32], name[256], started[32];
    int cc_major, cc_minor, sms, clk, mclk, drv, rt;
    size_t plan_n, plan_cnn, plan_random, run, skipped, not_reached;
    double t0;
    seer_bench_out_t *out;
} manifest_t;

static int write_manifest(const manifest_t *m, char *err, size_t errlen)
{
    char path[PATH_CAP], tmp[PATH_CAP + 8], fin[32];
    int dnn[3];
    uint32_t cupti;
    int cb[3];
    seer_bench_lib_versions(dnn, &cupti, cb);
    seer_bench_utc_stamp(fin, sizeof fin);
    snprintf(path, sizeof path, "%s/manifest.txt", m->o->out_dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
        return -1;
    }
    const seer_bench_out_t *out = m->out;
    fprintf(f, "# seer-bench run manifest (docs/seer-bench.md)\nformat=1\ntool=seer-bench %s\n",
            SEER_VERSION_STRING);
    fprintf(f, "status=%s\ngpu=%s\ngpu_name=%s\ndevice=%d\ncc=%d.%d\nsms=%d\n", m->status, m->gpu,
            m->name, m->o->device, m->cc_major, m->cc_minor, m->sms);
    fprintf(f, "sm_clock_mhz=%d\nmem_clock_mhz=%d\n", m->clk / 1000, m->mclk / 1000);
    char rel[96];
    int clk[4];
    seer_bench_driver_release(rel, sizeof rel);
    if (seer_bench_nvml_clocks(m->o->device, &clk[0], &clk[1], &clk[2], &clk[3]) == 0)
        fprintf(f, "nvml_sm_clock_mhz=%d\nnvml_mem_clock_mhz=%d\nnvml_max_sm_clock_mhz=%d\n"
                   "nvml_max_mem_clock_mhz=%d\n", clk[0], clk[1], clk[2], clk[3]);
    fprintf(f, "driver=%s\ncuda_driver_api=%d.%d\ncuda_runtime=%d.%d\ncudnn=%d.%d.%d\n"
               "cudnn_header=%d.%d.%d\n", rel, m->drv / 1000, m->drv % 1000 / 10, m->rt / 1000,
            m->rt % 1000 / 10, dnn[0], dnn[1], dnn[2], CUDNN_MAJOR, CUDNN_MINOR,
            CUDNN_PATCHLEVEL);
    fprintf(f, "cupti_api=%u\ncublas=%d.%d.%d\n", cupti, cb[0], cb[1], cb[2]);
    fprintf(f, "seed=%llu\nplan=%s\nplan_entries=%zu\nplan_cnn=%zu\nplan_random=%zu\n",
            (unsigned long long)m->o->seed, m->o->plan_path ? m->o->plan_path : "generated",
            m->plan_n, m->plan_cnn, m->plan_random);
    fprintf(f, "random=%d\ncnn_copies=%d\nmax_gflop=%g\nworkspace_mb=%d\nminutes=%g\nwarmup=%d\nreps=%d\n",
            m->o->n_random, m->o->cnn_copies, m->o->max_gflop, m->o->workspace_mb, m->o->minutes,
            m->o->warmup, m->o->reps);
    fprintf(f, "find=%d\nl2_flush=%d\nmetrics=%s\nresume=%d\n", m->o->find, m->o->l2_flush, m->metrics,
            m->o->resume);
    fprintf(f, "started=%s\nfinished=%s\nelapsed_s=%.1f\n", m->started,
            strcmp(m->status, "running") ? fin : "", now_s() - m->t0);
    fprintf(f, "entries_run=%zu\nentries_skipped_resume=%zu\nentries_not_reached=%zu\n", m->run,
            m->skipped, m->not_reached);
    if (out)
        fprintf(f, "layer_rows=%lld\nfailed_rows=%lld\nkernel_rows=%lld\nunattributed_kernels=%lld\n"
                   "untimed_kernels=%lld\nside_stream_kernels=%lld\nkernel_capped_calls=%lld\n"
                   "cupti_dropped_records=%zu\ncupti_bad_timestamps=%zu\nhold_expired=%lld\n",
                out->rows, out->failures, out->kernel_rows, out->unattributed, out->untimed,
                out->side_stream, out->kernel_capped, seer_bench_trace_dropped(),
                seer_bench_trace_bad_timestamps(), out->hold_expired);
    if (seer_bench_sync(f) != 0 || fclose(f) != 0 || rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot write %s", path);
        return -1;
    }
    return 0;
}

/* ---- progress --------------------------------------------------------------------- */

/* Per-entry cost for the ETA only (it never decides what is measured): the
 * median of the last ETA_WINDOW measured entries, the first one left out
 * (first-use module loading and cuDNN runtime compilation land there). */
#define ETA_WINDOW 15
typedef struct {
    double v[ETA_WINDOW];
    size_t seen, n;
} eta_t;

static void eta_add(eta_t *e, double s)
{
    if (e->seen++ == 0) return;
    e->v[e->n++ % ETA_WINDOW] = s;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double eta_entry(const eta_t *e)
{
    double w[ETA_WINDOW];
    size_t k = e->n < ETA_WINDOW ? e->n : ETA_WINDOW;
    if (!k) return NAN;
    memcpy(w, e->v, k * sizeof *w);
    qsort(w, k, sizeof *w, cmp_dbl);
    return k % 2 ? w[k / 2] : 0.5 * (w[k / 2 - 1] + w[k / 2]);
}

static void fmt_time(char *b, size_t n, double s)
{
    if (!(s >= 0) || s > 1e6) { snprintf(b, n, "--:--"); return; }
    long t = (long)(s + 0.5);
    snprintf(b, n, "%ld:%02ld", t / 60, t % 60);
}

static void progress(size_t done, size_t total, double elapsed, double eta)
{
    char e[32], r[32], bar[31];
    int w = total ? (int)(30.0 * done / total) : 30;
    for (int i = 0; i < 30; i++) bar[i] = i < w ? '#' : '.';
    bar[30] = 0;
    fmt_time(e, sizeof e, elapsed);
    fmt_time(r, sizeof r, eta);
    fprintf(stderr, "\r[%s] %zu/%zu  %s elapsed  ETA %s", bar, done, total, e, r);
    fputs("   ", stderr);
}

/* ---- metrics phase ------------------------------------------------------------------ */

/* The metrics phase runs in a child process (this program, --metrics-only)
 * that never enables activity tracing; its summary line comes back through
 * DIR/metrics.txt.  minutes: what is left of the run's budget (0: none),
 * which the child stops at like the sweep does. */
static void run_metrics_phase(const seer_bench_opts_t *o, double minutes, char *note, size_t len)
{
    char dev[16], ws[16], mins[32], path[PATH_CAP], line[700];
    snprintf(dev, sizeof dev, "%d", o->device);
    snprintf(ws, sizeof ws, "%d", o->workspace_mb);
    snprintf(mins, sizeof mins, "%.9g", minutes);
    snprintf(path, sizeof path, "%s/metrics.txt", o->out_dir);
    (void)remove(path);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        char *args[] = {"seer-bench", "--metrics-only", "--out", (char *)o->out_dir, "--device", dev,
                        "--workspace-mb", ws, "--minutes", mins, NULL};
        execv("/proc/self/exe", args);
        _exit(127);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid) {
        snprintf(note, len, "failed: cannot start the metrics phase (%s)", strerror(errno));
        return;
    }
    if (WIFSIGNALED(st) || (WIFEXITED(st) && WEXITSTATUS(st) != 0)) {
        snprintf(note, len, "failed: metrics phase %s %d (timings kept; --metrics-only retries)",
                 WIFSIGNALED(st) ? "killed by signal" : "exit status",
                 WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
        fprintf(stderr, "seer-bench: %s\n", note);
        return;
    }
    FILE *f = fopen(path, "r");
    snprintf(note, len, "failed: the metrics phase wrote no metrics.txt");
    if (f && fgets(line, sizeof line, f) && !strncmp(line, "metrics=", 8)) {
        line[strcspn(line, "\n")] = 0;
        snprintf(note, len, "%s", line + 8);
    }
    if (f) fclose(f);
}

/* ---- main --------------------------------------------------------------------------- */

/* What main allocates, released at exit on every path. */
static seer_bench_plan_t plan;
static seer_bench_out_t out;

static void cleanup(void)
{
    seer_bench_plan_free(&plan);
    seer_bench_set_free(&out.done);
    seer_bench_set_free(&out.picked);
}

/* Pairs of options that cannot both hold: given together, one of them used
 * to be dropped silently (the last one won, or one mode returned before the
 * other ran), so together they are a usage error.  The "only" modes
 * (--dry-run, --gpu-name, --metrics-only, --micro-only) each do one thing
 * and exit; --metrics needs the sweep that --micro-only skips; a --plan
 * file replaces the generated plan that --random, --cnn-copies and
 * --max-gflop shape (--seed stays: it is recorded in the source column). */
static const char *const CONFLICTS[][2] = {
    {"--micro-only", "--no-micro"},   {"--metrics", "--metrics-only"},
    {"--metrics", "--micro-only"},    {"--dry-run", "--gpu-name"},
    {"--dry-run", "--metrics-only"},  {"--dry-run", "--micro-only"},
    {"--gpu-name", "--metrics-only"}, {"--gpu-name", "--micro-only"},
    {"--metrics-only", "--micro-only"}, {"--plan", "--random"},
    {"--plan", "--cnn-copies"},       {"--plan", "--max-gflop"},
};
#define N_CONFLICTS (sizeof CONFLICTS / sizeof *CONFLICTS)

int main(int argc, char **argv)
{
    seer_bench_opts_t o = {
        .seed = 1, .out_dir = "seer-bench-out", .workspace_mb = 1024, .minutes = 9,
        .warmup = 2, .reps = 5, .n_random = 120, .cnn_copies = 1, .micro = 1, .find = 1,
        .max_gflop = 200, .l2_flush = 1,
    };
    const char *gpu_name = NULL;
    char err[ERR_CAP];
    double t0 = now_s();
    atexit(cleanup);
    /* seen[k][j]: CONFLICTS[k][j] was given (only option names reach the
     * top of the loop: NUM and STR step over their values) */
    unsigned char seen[N_CONFLICTS][2] = {{0}};

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double d;
        for (size_t k = 0; k < N_CONFLICTS; k++)
            for (int j = 0; j < 2; j++) seen[k][j] |= !strcmp(a, CONFLICTS[k][j]);
#define NUM(opt, lo, hi, dst) if (!strcmp(a, opt)) { if (parse_num(opt, v, lo, hi, &d)) return EXIT_USAGE; dst; i++; continue; }
#define STR(opt, dst) if (!strcmp(a, opt)) { if (!v) { fprintf(stderr, "seer-bench: %s needs a value\n", opt); return EXIT_USAGE; } dst = v; i++; continue; }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
        NUM("--seed", 0, 9007199254740992.0, o.seed = (uint64_t)d)
        NUM("--random", 0, 1000000, o.n_random = (int)d)
        NUM("--cnn-copies", 0, 100, o.cnn_copies = (int)d)
        NUM("--max-gflop", 0.001, 1e6, o.max_gflop = d)
        NUM("--minutes", 0, 1e6, o.minutes = d)
        NUM("--workspace-mb", 0, 1 << 20, o.workspace_mb = (int)d)
        NUM("--warmup", 1, 100, o.warmup = (int)d)
        NUM("--reps", 1, 64, o.reps = (int)d)
        NUM("--device", 0, 1024, o.device = (int)d)
        STR("--out", o.out_dir)
        STR("--plan", o.plan_path)
        STR("--gpu-id", o.gpu_id)
        STR("--gpu-name", gpu_name)
        if (!strcmp(a, "--metrics")) { o.metrics = 1; continue; }
        if (!strcmp(a, "--metrics-only")) { o.metrics = 2; continue; }
        if (!strcmp(a, "--no-find")) { o.find = 0; continue; }
        if (!strcmp(a, "--no-l2-flush")) { o.l2_flush = 0; continue; }
        if (!strcmp(a, "--no-micro")) { o.micro = 0; continue; }
        if (!strcmp(a, "--micro-only")) { o.micro = 2; continue; }
        if (!strcmp(a, "--resume")) { o.resume = 1; continue; }
        if (!strcmp(a, "--dry-run")) { o.dry_run = 1; continue; }
        fprintf(stderr, "seer-bench: unknown option '%s' (see --help)\n", a);
        return EXIT_USAGE;
#undef NUM
#undef STR
    }
    for (size_t k = 0; k < N_CONFLICTS; k++)
        if (seen[k][0] && seen[k][1]) {
            fprintf(stderr, "seer-bench: %s and %s cannot be used together (see --help)\n",
                    CONFLICTS[k][0], CONFLICTS[k][1]);
            return EXIT_USAGE;
        }
    if (o.gpu_id && (!*o.gpu_id || strlen(o.gpu_id) >= 32 || strpbrk(o.gpu_id, ",\"\n\r:"))) {
        fprintf(stderr, "seer-bench: --gpu-id must be 1-31 characters without , \" or :\n");
        return EXIT_USAGE;
    }
    if (strlen(o.out_dir) > OUT_MAX) {
        fprintf(stderr, "seer-bench: --out path longer than %d bytes\n", OUT_MAX);
        return EXIT_USAGE;
    }
    if (o.metrics == 2) return seer_bench_metrics_phase(&o);
    if (gpu_name) {
        char id[32];
        seer_bench_gpu_id(gpu_name, 0, id, sizeof id);
        printf("%s\n", id);
        return 0;
    }

    if (o.micro != 2) {
        if (o.plan_path ? seer_bench_plan_load(o.plan_path, &plan, err, sizeof err)
                        : seer_bench_plan_generate(o.seed, o.n_random, o.cnn_copies, o.max_gflop * 1e9,
                                                   &plan)) {
            fprintf(stderr, "seer-bench: %s\n", o.plan_path ? err : "out of memory");
            return EXIT_USAGE;
        }
        /* nothing to measure is a mistake, not a complete run (a plan file
         * without entries is refused by seer_bench_plan_load likewise) */
        if (!plan.n) {
            fprintf(stderr, "seer-bench: the generated plan is empty (--random 0 --cnn-copies 0); "
                            "--micro-only runs the microbenchmarks alone\n");
            return EXIT_USAGE;
        }
    }
    /* CNN layers first: they are the evaluation set, and a budget that
     * ends the run early then cuts random shapes only */
    seer_bench_plan_cnn_first(&plan);
    if (o.dry_run) {
        seer_bench_plan_print(stdout, &plan, o.gpu_id);
        return fflush(stdout) == 0 ? 0 : EXIT_USAGE;
    }

    /* A resume continues the files of an earlier run: without its directory
     * it would silently start afresh (a mistyped --out), so refuse it before
     * touching the GPU. */
    struct stat st;
    if (o.resume) {
        int e = stat(o.out_dir, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
        if (e) {
            fprintf(stderr, "seer-bench: --resume: %s: %s (a resume needs the earlier run's --out)\n",
                    o.out_dir, strerror(e));
            return EXIT_USAGE;
        }
    }

    /* ---- from here on the GPU is needed ---- */
    int ndev = 0;
    cudaError_t ce = cudaGetDeviceCount(&ndev);
    if (ce != cudaSuccess || ndev <= o.device) {
        if (ce != cudaSuccess) fprintf(stderr, "no CUDA device: %s\n", cudaGetErrorString(ce));
        else fprintf(stderr, "no CUDA device: device %d requested, %d present\n", o.device, ndev);
        return EXIT_NO_DEVICE;
    }
    struct cudaDeviceProp prop;
    manifest_t m = {.o = &o, .status = "running", .metrics = o.metrics ? "on" : "off", .t0 = t0};
    if ((ce = cudaSetDevice(o.device)) != cudaSuccess || (ce = cudaFree(NULL)) != cudaSuccess ||
        (ce = cudaGetDeviceProperties(&prop, o.device)) != cudaSuccess ||
        (ce = cudaDeviceGetAttribute(&m.clk, cudaDevAttrClockRate, o.device)) != cudaSuccess ||
        (ce = cudaDeviceGetAttribute(&m.mclk, cudaDevAttrMemoryClockRate, o.device)) != cudaSuccess ||
        (ce = cudaDriverGetVersion(&m.drv)) != cudaSuccess ||
        (ce = cudaRuntimeGetVersion(&m.rt)) != cudaSuccess) {
        fprintf(stderr, "no CUDA device: %s\n", cudaGetErrorString(ce));
        return EXIT_NO_DEVICE;
    }
    snprintf(m.name, sizeof m.name, "%s", prop.name);
    m.cc_major = prop.major;
    m.cc_minor = prop.minor;
    m.sms = prop.multiProcessorCount;
    if (o.gpu_id) snprintf(m.gpu, sizeof m.gpu, "%s", o.gpu_id);
    else if (seer_bench_gpu_id(prop.name, (double)prop.totalGlobalMem / (1u << 30), m.gpu, sizeof m.gpu))
        fprintf(stderr, "seer-bench: '%s' is not in the GPU id table; using id '%s' (see --gpu-id)\n",
                prop.name, m.gpu);
    seer_bench_utc_stamp(m.started, sizeof m.started);
    m.plan_n = plan.n;
    for (size_t i = 0; i < plan.n; i++) {
        if (plan.v[i].part == SEER_BENCH_PART_CNN) m.plan_cnn++;
        else m.plan_random++;
    }

    char path[PATH_CAP];
    if (mkdir_p(o.out_dir) != 0) {
        fprintf(stderr, "seer-bench: cannot create %s: %s\n", o.out_dir, strerror(errno));
        return EXIT_USAGE;
    }
    snprintf(path, sizeof path, "%s/layers.csv", o.out_dir);
    if (!o.resume && stat(path, &st) == 0 && st.st_size > 0) {
        fprintf(stderr, "seer-bench: %s already has results: add --resume or use another --out\n", o.out_dir);
        return EXIT_USAGE;
    }
    if (write_manifest(&m, err, sizeof err) != 0) {
        fprintf(stderr, "seer-bench: %s\n", err);
        return EXIT_USAGE;
    }

    /* microbenchmarks first: CUPTI tracing would slow the launches */
    snprintf(path, sizeof path, "%s/profile.txt", o.out_dir);
    if (o.micro && !(o.resume && stat(path, &st) == 0)) {
        char gpath[PATH_CAP];
        snprintf(gpath, sizeof gpath, "%s/gpu.txt", o.out_dir);
        if (seer_bench_profile(path, gpath, m.gpu, o.device, err, sizeof err) != 0) {
            fprintf(stderr, "seer-bench: %s\n", err);
            m.status = "fatal";
            (void)write_manifest(&m, err, sizeof err);
            return EXIT_FATAL;
        }
    }
    if (o.micro == 2) {
        m.status = "complete";
        if (write_manifest(&m, err, sizeof err) != 0) { fprintf(stderr, "seer-bench: %s\n", err); return EXIT_USAGE; }
        return 0;
    }

    /* outputs, resume state */
    snprintf(out.gpu, sizeof out.gpu, "%s", m.gpu);
    /* the cuDNN that ran: libseer reads it (seer_source_cudnn_major) */
    int dnn[3], cb[3];
    uint32_t cupti;
    seer_bench_lib_versions(dnn, &cupti, cb);
    snprintf(out.source, sizeof out.source, "seer-bench:%s:%llu:cudnn%d.%d.%d", m.gpu, (unsigned long long)o.seed,
             dnn[0], dnn[1], dnn[2]);
    long long max_id = -1;
    static const char *const names[3] = {"layers.csv", "kernels.csv", "picks.csv"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", o.out_dir, names[i]);
        if (seer_bench_repair_tail(path) != 0) {
            fprintf(stderr, "seer-bench: %s: not a regular file or cannot repair its last line\n", path);
            return EXIT_USAGE;
        }
    }
    if (o.resume) {
        snprintf(path, sizeof path, "%s/layers.csv", o.out_dir);
        int rc = load_keys(path, 1, &out.done, &max_id, err, sizeof err);
        snprintf(path, sizeof path, "%s/picks.csv", o.out_dir);
        if (!rc) rc = load_keys(path, 0, &out.picked, &max_id, err, sizeof err);
        snprintf(path, sizeof path, "%s/kernels.csv", o.out_dir);
        if (!rc) rc = drop_orphan_kernels(path, max_id, err, sizeof err);
        if (rc) {
            fprintf(stderr, "seer-bench: %s\n", err);
            return EXIT_USAGE;
        }
    }
    out.next_call_id = max_id + 1;
    if (!(out.layers = open_out(o.out_dir, "layers.csv", seer_bench_layers_header, err, sizeof err)) ||
        !(out.kernels = open_out(o.out_dir, "kernels.csv", seer_bench_kernels_header, err, sizeof err)) ||
        !(out.picks = open_out(o.out_dir, "picks.csv", seer_bench_picks_header, err, sizeof err))) {
        fprintf(stderr, "seer-bench: %s\n", err);
        return EXIT_USAGE;
    }
    m.out = &out;

    if (seer_bench_trace_init(err, sizeof err) != 0) {
        fprintf(stderr, "seer-bench: CUPTI activity tracing unavailable: %s\n", err);
        m.status = "fatal";
        (void)write_manifest(&m, err, sizeof err);
        return EXIT_FATAL;
    }
    seer_bench_run_t *run = NULL;
    if (seer_bench_run_create(&o, &out, &run, err, sizeof err) != 0) {
        fprintf(stderr, "seer-bench: %s\n", err);
        m.status = "fatal";
        (void)write_manifest(&m, err, sizeof err);
        return EXIT_FATAL;
    }
    if (write_manifest(&m, err, sizeof err) != 0) {
        fprintf(stderr, "seer-bench: %s\n", err);
        return EXIT_USAGE;
    }

    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    int tty = isatty(STDERR_FILENO), rc = 0;
    double budget = o.minutes * 60.0;
    eta_t eta = {0};
    size_t processed = 0, i;
    if (budget > 0) seer_bench_run_deadline(run, t0 + budget);
    m.status = "complete";
    /* The deadline is the only stop rule: nothing is dropped on a forecast,
     * which one slow first-use entry can inflate many times over. */
    for (i = 0; i < plan.n; i++) {
        if (interrupted) { m.status = "interrupted"; break; }
        if (budget > 0 && now_s() - t0 >= budget) { m.status = "budget"; break; }
        double te = now_s();
        int r = seer_bench_run_entry(run, &plan.v[i], err, sizeof err);
        if (r < 0) {
            if (tty) fputc('\n', stderr);
            fprintf(stderr, "seer-bench: %s\n", err);
            m.status = "fatal";
            rc = EXIT_FATAL;
            i++;
            break;
        }
        if (r == 2) { m.status = "budget"; break; } /* deadline inside the entry: not done */
        if (r == 0) { eta_add(&eta, now_s() - te); m.run++; }
        else m.skipped++;
        processed++;
        if (tty)
            progress(processed, plan.n, now_s() - t0, eta_entry(&eta) * (double)(plan.n - processed));
    }
    if (tty) fputc('\n', stderr);
    m.not_reached = plan.n - i;
    if (m.not_reached && !strcmp(m.status, "complete")) m.status = "budget";
    if (!strcmp(m.status, "interrupted")) rc = EXIT_FATAL;
    seer_bench_run_destroy(run);
    seer_bench_trace_shutdown();
    int close_bad = 0;
    close_bad |= fclose(out.layers) != 0;
    close_bad |= fclose(out.kernels) != 0;
    close_bad |= fclose(out.picks) != 0;
    if (close_bad && !rc) {
        fprintf(stderr, "seer-bench: error closing output files\n");
        rc = EXIT_USAGE;
    }
    static char metrics_note[700];
    if (o.metrics && rc == 0) {
        /* --minutes bounds the whole run: the phase gets what the sweep
         * left, and none when under a second is left (a child would spend
         * that on creating its context) */
        double left = budget > 0 ? budget - (now_s() - t0) : 0;
        m.metrics = metrics_note;
        if (budget > 0 && left < 1.0) {
            snprintf(metrics_note, sizeof metrics_note,
                     "skipped: no time left in the budget (--metrics-only runs it)");
            fprintf(stderr, "seer-bench: metrics phase %s\n", metrics_note);
        } else {
            run_metrics_phase(&o, left / 60.0, metrics_note, sizeof metrics_note);
        }
    }
    if (write_manifest(&m, err, sizeof err) != 0) {
        fprintf(stderr, "seer-bench: %s\n", err);
        if (!rc) rc = EXIT_USAGE;
    }
    fprintf(stderr, "seer-bench: %s: %zu entries measured, %zu skipped (resume), %zu not reached; "
                    "%lld rows (%lld failed) in %s, %.0f s\n",
            m.status, m.run, m.skipped, m.not_reached, out.rows, out.failures, o.out_dir,
            now_s() - t0);
    return rc;
}
