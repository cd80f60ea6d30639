/* seer-bench without a GPU: the parts that must work anywhere (--help,
 * --dry-run, plan files, GPU ids) and the clean refusal to measure; then
 * the whole sweep (outputs, crash and --resume, metrics, fallbacks) against
 * build/seer-bench-sim, the same host code linked with a pretend GPU
 * (bench/sim/cuda_sim.c).  Real measurements are checked on a GPU by
 * bench/test-gpu.sh (make test-gpu).  Every test skips when its binary was
 * not built (no nvcc). */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "test.h"

static const char *bench_bin(void)
{
    const char *b = getenv("SEER_BENCH_BIN");
    return b && *b ? b : "build/seer-bench";
}

static int have_bench(void) { return access(bench_bin(), X_OK) == 0; }
static const char *sim_bin(void);

/* Run a shell command; its stdout (and stderr with 2>&1 in cmd) into a
 * malloc'ed string; exit status in *status (-1 if it did not exit). */
static char *run(const char *cmd, int *status)
{
    FILE *p = popen(cmd, "r");
    size_t n = 0, cap = 1 << 16;
    char *buf = malloc(cap);
    if (!p || !buf) {
        if (p) pclose(p);
        free(buf);
        *status = -1;
        return NULL;
    }
    size_t got;
    while ((got = fread(buf + n, 1, cap - n - 1, p)) > 0) {
        n += got;
        if (cap - n < 2) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) break;
            buf = nb;
        }
    }
    buf[n] = 0;
    int st = pclose(p);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return buf;
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

TEST(bench_help)
{
    if (!have_bench()) SKIP("seer-bench not built (no nvcc)");
    char cmd[1024];
    int st;
    snprintf(cmd, sizeof cmd, "%s --help 2>&1", bench_bin());
    char *out = run(cmd, &st);
    REQUIRE(out);
    CHECK(st == 0);
    CHECK(strstr(out, "--dry-run") && strstr(out, "--resume") && strstr(out, "--metrics"));
    free(out);
    snprintf(cmd, sizeof cmd, "%s --no-such-option 2>&1", bench_bin());
    out = run(cmd, &st);
    CHECK(st == 1);
    free(out);
    /* the ranges docs/seer-bench.md lists */
    snprintf(cmd, sizeof cmd, "%s --dry-run --warmup 0 2>&1", bench_bin());
    out = run(cmd, &st);
    CHECK(st == 1 && out && strstr(out, "--warmup needs a number in [1, 100], got '0'"));
    free(out);
}

/* Contradicting options are refused before anything runs (--micro-only
 * --no-micro once ran the full sweep, --metrics --metrics-only dropped the
 * sweep), with a message naming both; --seed with --plan stays allowed. */
TEST(bench_conflicting_options)
{
    if (!have_bench()) SKIP("seer-bench not built (no nvcc)");
    static const char *const bad[][3] = {
        {"--micro-only --no-micro", "--micro-only", "--no-micro"},
        {"--no-micro --micro-only", "--micro-only", "--no-micro"},
        {"--metrics --metrics-only", "--metrics", "--metrics-only"},
        {"--micro-only --metrics", "--metrics", "--micro-only"},
        {"--dry-run --metrics-only", "--dry-run", "--metrics-only"},
        {"--gpu-name x --dry-run", "--dry-run", "--gpu-name"},
        {"--dry-run --plan p.csv --random 3", "--plan", "--random"},
        {"--dry-run --cnn-copies 2 --plan p.csv", "--plan", "--cnn-copies"},
    };
    char dir[] = "/tmp/seer-bench-test-XXXXXX", cmd[1024];
    int st;
    REQUIRE(mkdtemp(dir));
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(cmd, sizeof cmd, "%s %s --out %s/o 2>&1", bench_bin(), bad[i][0], dir);
        char *out = run(cmd, &st);
        REQUIRE(out);
        CHECK(st == 1 && strstr(out, bad[i][1]) && strstr(out, bad[i][2]) && strstr(out, "together"));
        if (st != 1) printf("    accepted: %s\n", bad[i][0]);
        free(out);
    }
    snprintf(cmd, sizeof cmd, "%s/o", dir);
    CHECK(access(cmd, F_OK) != 0); /* nothing ran */
    snprintf(cmd, sizeof cmd, "%s --dry-run --seed 3 --random 2 > %s/p.csv && %s --dry-run --seed 3 "
             "--plan %s/p.csv 2>&1 >/dev/null", bench_bin(), dir, bench_bin(), dir);
    char *out = run(cmd, &st);
    CHECK(out && st == 0);
    free(out);
    snprintf(cmd, sizeof cmd, "%s/p.csv", dir);
    remove(cmd);
    rmdir(dir);
}

TEST(bench_dry_run_deterministic)
{
    if (!have_bench()) SKIP("seer-bench not built (no nvcc)");
    char cmd[1024];
    int st1, st2, st3;
    snprintf(cmd, sizeof cmd, "%s --dry-run --seed 1", bench_bin());
    char *a = run(cmd, &st1), *b = run(cmd, &st2);
    snprintf(cmd, sizeof cmd, "%s --dry-run --seed 2", bench_bin());
    char *c = run(cmd, &st3);
    REQUIRE(a && b && c);
    CHECK(st1 == 0 && st2 == 0 && st3 == 0);
    CHECK(strncmp(a, "gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,"
                     "dil_h,dil_w,groups,part", 89) == 0);
    CHECK(count_lines(a) > 101);
    CHECK(strcmp(a, b) == 0);   /* same seed, same plan */
    CHECK(strcmp(a, c) != 0);   /* another seed, another plan */
    /* both parts, all directions, depthwise (groups = c = k) present */
    CHECK(strstr(a, ",cnn,resnet50/") && strstr(a, ",random,"));
    CHECK(strstr(a, ",bwd_data,") && strstr(a, ",bwd_filter,"));
    CHECK(strstr(a, "mobilenet_v2/features.1.depthwise"));
    free(a);
    free(b);
    free(c);
}

/* The CNN part runs the six configurations frameworks run most (FP16
 * and BF16 in both layouts, TF32 and FP32 in NCHW), whatever the seed:
 * the old cycle tied each dtype to one layout (no TF32 NCHW layer, the
 * PyTorch default on Ampere and later, in either Hopper sweep). */
TEST(bench_plan_cnn_configurations)
{
    if (!have_bench()) SKIP("seer-bench not built (no nvcc)");
    static const char *const need[] = {",tf32,nchw,", ",fp16,nhwc,", ",fp16,nchw,",
                                       ",bf16,nchw,", ",bf16,nhwc,", ",fp32,nchw,"};
    for (int seed = 1; seed <= 3; seed++) {
        char cmd[1024];
        int st;
        snprintf(cmd, sizeof cmd, "%s --dry-run --seed %d --random 0", bench_bin(), seed);
        char *a = run(cmd, &st);
        REQUIRE(a);
        CHECK(st == 0);
        for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
            if (!strstr(a, need[i])) {
                printf("seed %d: no %s layer\n", seed, need[i]);
                CHECK(0);
            }
        free(a);
    }
}

TEST(bench_plan_file_roundtrip)
{
    if (!have_bench()) SKIP("seer-bench not built (no nvcc)");
    char dir[] = "/tmp/seer-bench-test-XXXXXX", plan[128], cmd[1024];
    int st;
    REQUIRE(mkdtemp(dir));
    snprintf(plan, sizeof plan, "%s/plan.csv", dir);
    snprintf(cmd, sizeof cmd, "%s --dry-run --seed 7 --random 20 > %s", bench_bin(), plan);
    CHECK(system(cmd) == 0);
    snprintf(cmd, sizeof cmd, "%s --dry-run --seed 7 --random 20", bench_bin());
    char *a = run(cmd, &st);
    snprintf(cmd, sizeof cmd, "%s --dry-run --plan %s", bench_bin(), plan);
    char *b = run(cmd, &st);
    REQUIRE(a && b);
    CHECK(st == 0);
    CHECK(strcmp(a, b) == 0);
    free(a);
    free(b);

    /* a plan with one shape and no direction column: all three directions */
    FILE *f = fopen(plan, "w");
    REQUIRE(f);
    fputs("n,c,h,w,k,r,s,pad_h,pad_w,dtype,layout\n8,64,56,56,64,3,3,1,1,fp16,nhwc\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s --dry-run --plan %s --gpu-id h100-sxm5-80gb", bench_bin(), plan);
    a = run(cmd, &st);
    REQUIRE(a);
    CHECK(st == 0 && count_lines(a) == 4);
    CHECK(strstr(a, "\nh100-sxm5-80gb,bwd_filter,fp16,nhwc,8,64,56,56,64,3,3,1,1,1,1,1,1,1,cnn,\n"));
    free(a);

    /* bad input: named file, line and field; exit 1 */
    f = fopen(plan, "w");
    REQUIRE(f);
    fputs("n,c,h,w,k,r,s,groups,dtype,layout\n1,6,8,8,6,3,3,4,fp32,nchw\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s --dry-run --plan %s 2>&1", bench_bin(), plan);
    a = run(cmd, &st);
    REQUIRE(a);
    CHECK(st == 1);
    CHECK(strstr(a, "plan.csv:2:") && strstr(a, "groups"));
    free(a);
    remove(plan);
    rmdir(dir);
}

/* Every file seer-bench reads is checked before it is read: a device, a
 * directory or an oversized file fails at once naming the file (issue 17:
 * --plan /dev/zero never exited). */
TEST(bench_plan_inputs_capped)
{
    if (!have_bench()) SKIP("seer-bench not built (no nvcc)");
    char dir[] = "/tmp/seer-bench-test-XXXXXX", path[160], cmd[1024];
    int st;
    REQUIRE(mkdtemp(dir));
    static const char *const bad[] = {"/dev/zero", "/dev/urandom", "/tmp"};
    for (int i = 0; i < 3; i++) {
        snprintf(cmd, sizeof cmd, "timeout 10 %s --plan %s --dry-run 2>&1", bench_bin(), bad[i]);
        char *a = run(cmd, &st);
        REQUIRE(a);
        CHECK(st == 1);
        CHECK(strstr(a, bad[i]) && strstr(a, "not a regular file"));
        free(a);
    }
    /* over the size cap: refused from its size, without reading it */
    snprintf(path, sizeof path, "%s/big.csv", dir);
    FILE *f = fopen(path, "w");
    REQUIRE(f);
    CHECK(ftruncate(fileno(f), (16 << 20) + 1) == 0);
    fclose(f);
    snprintf(cmd, sizeof cmd, "timeout 10 %s --plan %s --dry-run 2>&1", bench_bin(), path);
    char *a = run(cmd, &st);
    REQUIRE(a);
    CHECK(st == 1 && strstr(a, "big.csv") && strstr(a, "more than the 16777216 accepted"));
    free(a);
    /* one endless line under the size cap: stopped at the line cap */
    f = fopen(path, "w");
    REQUIRE(f);
    for (int i = 0; i < (3 << 20) / 64; i++) fputs("abcdefghabcdefghabcdefghabcdefghabcdefghabcdefghabcdefghabcdefgh", f);
    fclose(f);
    a = run(cmd, &st);
    REQUIRE(a);
    CHECK(st == 1 && strstr(a, "big.csv:1: line longer than"));
    free(a);
    remove(path);
    rmdir(dir);
}

TEST(bench_gpu_ids)
{
    if (!have_bench()) SKIP("seer-bench not built (no nvcc)");
    static const char *const map[][2] = {
        {"NVIDIA H100 80GB HBM3", "h100-sxm5-80gb"}, {"NVIDIA H100 PCIe", "h100-pcie-80gb"},
        {"NVIDIA H200", "h200-sxm-141gb"}, {"NVIDIA A100 80GB PCIe", "a100-pcie-80gb"},
        {"NVIDIA A100-SXM4-40GB", "a100-sxm4-40gb"}, {"Tesla V100-PCIE-32GB", "v100-pcie-32gb"},
        {"Tesla T4", "t4"}, {"NVIDIA L4", "l4"}, {"NVIDIA A10", "a10"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        char cmd[512], want[64];
        int st;
        snprintf(cmd, sizeof cmd, "%s --gpu-name '%s'", bench_bin(), map[i][0]);
        snprintf(want, sizeof want, "%s\n", map[i][1]);
        char *out = run(cmd, &st);
        REQUIRE(out);
        CHECK(st == 0 && strcmp(out, want) == 0);
        if (strcmp(out, want) != 0) printf("    %s -> %s", map[i][0], out);
        free(out);
    }
}

/* --resume into a directory that does not exist once started a fresh run
 * silently: it is refused, naming the directory, before any CUDA call. */
TEST(bench_resume_needs_out)
{
    if (!have_bench()) SKIP("seer-bench not built (no nvcc)");
    char dir[] = "/tmp/seer-bench-test-XXXXXX", cmd[1024], out_dir[128];
    int st;
    REQUIRE(mkdtemp(dir));
    snprintf(out_dir, sizeof out_dir, "%s/missing", dir);
    snprintf(cmd, sizeof cmd, "%s --out %s --no-micro --random 1 --resume 2>&1", bench_bin(), out_dir);
    char *out = run(cmd, &st);
    REQUIRE(out);
    CHECK(st == 1 && strstr(out, out_dir) && strstr(out, "--resume"));
    CHECK(access(out_dir, F_OK) != 0);
    free(out);
    rmdir(dir);
}

/* An empty generated plan once ran to status=complete with 0 entries: it
 * is refused, as a plan file without entries is. */
TEST(bench_empty_plan_refused)
{
    if (!have_bench()) SKIP("seer-bench not built (no nvcc)");
    char dir[] = "/tmp/seer-bench-test-XXXXXX", cmd[1024], out_dir[128];
    int st;
    REQUIRE(mkdtemp(dir));
    snprintf(out_dir, sizeof out_dir, "%s/o", dir);
    const char *bins[2] = {bench_bin(), access(sim_bin(), X_OK) == 0 ? sim_bin() : NULL};
    for (int b = 0; b < 2 && bins[b]; b++) {
        snprintf(cmd, sizeof cmd, "%s --random 0 --cnn-copies 0 %s --out %s 2>&1", bins[b],
                 b ? "--no-micro" : "--dry-run", out_dir);
        char *out = run(cmd, &st);
        REQUIRE(out);
        CHECK(st == 1 && strstr(out, "plan is empty"));
        CHECK(access(out_dir, F_OK) != 0);
        free(out);
    }
    rmdir(dir);
}

TEST(bench_no_gpu_exits_2)
{
    if (!have_bench()) SKIP("seer-bench not built (no nvcc)");
    struct stat st_dev;
    /* with a GPU this would measure for real; make test-gpu covers that */
    if (stat("/dev/nvidia0", &st_dev) == 0 || stat("/proc/driver/nvidia/version", &st_dev) == 0)
        SKIP("an NVIDIA GPU is present");
    char dir[] = "/tmp/seer-bench-test-XXXXXX", out_dir[128], cmd[1024];
    int st;
    REQUIRE(mkdtemp(dir));
    snprintf(out_dir, sizeof out_dir, "%s/out", dir);
    snprintf(cmd, sizeof cmd, "%s --out %s --no-micro --random 1 --minutes 1 2>&1 >/dev/null",
             bench_bin(), out_dir);
    char *err = run(cmd, &st);
    REQUIRE(err);
    CHECK(st == 2);
    CHECK(strncmp(err, "no CUDA device: ", 16) == 0);
    CHECK(access(out_dir, F_OK) != 0); /* nothing written without a GPU */
    free(err);
    rmdir(dir);
}

/* ---- the sweep against the pretend GPU ---------------------------------- */

static const char *sim_bin(void)
{
    const char *b = getenv("SEER_BENCH_SIM");
    return b && *b ? b : "build/seer-bench-sim";
}

static const char SIM_PLAN[] =
    "direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,groups,part,layer\n"
    ",fp32,nchw,64,64,56,56,64,3,3,1,1,1,1,1,1,1,cnn,resnet50/layer1.0.conv2\n"
    ",fp16,nhwc,64,256,56,56,64,1,1,0,0,1,1,1,1,1,cnn,resnet50/layer1.1.conv1\n"
    ",bf16,nhwc,64,512,14,14,512,3,3,1,1,2,2,1,1,1,random,\n"
    ",tf32,nchw,16,96,56,56,96,3,3,1,1,1,1,1,1,96,random,\n";

typedef struct {
    char **line;                /* data lines, without newline */
    int n;
    char *hdr;
} lines_t;

static void lines_free(lines_t *l)
{
    for (int i = 0; i < l->n; i++) free(l->line[i]);
    free(l->line);
    free(l->hdr);
    memset(l, 0, sizeof *l);
}

static int read_lines(const char *path, lines_t *l)
{
    FILE *f = fopen(path, "r");
    char buf[1 << 14];
    memset(l, 0, sizeof *l);
    if (!f) return -1;
    while (fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\n")] = 0;
        char *copy = strdup(buf);
        if (!l->hdr) { l->hdr = copy; continue; }
        char **nl = realloc(l->line, (size_t)(l->n + 1) * sizeof *nl);
        if (!nl || !copy) { free(copy); break; }
        l->line = nl;
        l->line[l->n++] = copy;
    }
    fclose(f);
    return l->hdr ? 0 : -1;
}

/* read_lines of the output file name in the sweep directory dir. */
static int read_out(const char *dir, const char *name, lines_t *l)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return read_lines(path, l);
}

/* RFC 4180 split of a copy of line; fields point into *store. */
static int split(const char *line, char **store, char **f, int max)
{
    char *p = *store = strdup(line), *o;
    int n = 0;
    if (!p) return 0;
    while (n < max) {
        f[n++] = o = p;
        if (*p == '"') {
            for (p++; *p && !(*p == '"' && p[1] != '"'); p++) {
                if (*p == '"') p++;
                *o++ = *p;
            }
            if (*p) p++;
        } else {
            while (*p && *p != ',') *o++ = *p++;
        }
        int more = *p == ',';
        *o = 0;
        if (!more) break;
        p++;
    }
    return n;
}

static int col(const lines_t *l, const char *name)
{
    char *store, *f[64];
    int n = split(l->hdr, &store, f, 64), c = -1;
    for (int i = 0; i < n && c < 0; i++)
        if (!strcmp(f[i], name)) c = i;
    free(store);
    return c;
}

/* Field `c` of data line i, copied into buf. */
static const char *field(const lines_t *l, int i, int c, char *buf, size_t len)
{
    char *store, *f[64];
    int n = split(l->line[i], &store, f, 64);
    snprintf(buf, len, "%s", c >= 0 && c < n ? f[c] : "");
    free(store);
    return buf;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The identity of every row: the first `nkey` fields plus one more named
 * column (status or algo); sorted, newline-joined. */
static char *identity(const char *path, int nkey, const char *extra)
{
    lines_t l;
    if (read_lines(path, &l) != 0) return NULL;
    int ce = col(&l, extra);
    char **k = calloc((size_t)l.n + 1, sizeof *k);
    size_t total = 1;
    for (int i = 0; i < l.n; i++) {
        char *store, *f[64], e[256];
        int n = split(l.line[i], &store, f, 64);
        size_t len = 0;
        k[i] = calloc(1, 2048);
        for (int j = 0; j < nkey && j < n; j++)
            len += (size_t)snprintf(k[i] + len, 2048 - len, "%s,", f[j]);
        snprintf(k[i] + len, 2048 - len, "%s", field(&l, i, ce, e, sizeof e));
        total += strlen(k[i]) + 1;
        free(store);
    }
    qsort(k, (size_t)l.n, sizeof *k, cmp_str);
    char *out = calloc(1, total);
    for (int i = 0; i < l.n; i++) {
        strcat(out, k[i]);
        strcat(out, "\n");
        free(k[i]);
    }
    free(k);
    lines_free(&l);
    return out;
}

static int file_has(const char *path, const char *text)
{
    lines_t l;
    int found = 0;
    if (read_lines(path, &l) != 0) return 0;
    found = strstr(l.hdr, text) != NULL;
    for (int i = 0; i < l.n && !found; i++) found = strstr(l.line[i], text) != NULL;
    lines_free(&l);
    return found;
}

/* Every kernels.csv call id has its layers.csv row, with the same algo and
 * a non-empty math type equal to the layer row's (kernels.csv's last
 * column); layer call ids unique. */
static int calls_consistent(const char *dir)
{
    char a[64], b[64], m1[64], m2[64];
    lines_t L, K;
    if (read_out(dir, "layers.csv", &L) || read_out(dir, "kernels.csv", &K)) return 0;
    int cl = col(&L, "call_id"), ck = col(&K, "call_id"), ml = col(&L, "math_type"),
        mk = col(&K, "math_type"), al = col(&L, "algo"), ak = col(&K, "algo");
    size_t hl = strlen(K.hdr);
    int ok = cl >= 0 && ck >= 0 && ml >= 0 && mk >= 0 && al >= 0 && ak >= 0 && hl > 10 &&
             !strcmp(K.hdr + hl - 10, ",math_type");
    for (int i = 0; i < L.n && ok; i++)
        for (int j = i + 1; j < L.n && ok; j++)
            ok = strcmp(field(&L, i, cl, a, sizeof a), field(&L, j, cl, b, sizeof b)) != 0;
    for (int i = 0; i < K.n && ok; i++) {
        int hit = 0;
        field(&K, i, ck, a, sizeof a);
        for (int j = 0; j < L.n && !hit; j++)
            if (!strcmp(a, field(&L, j, cl, b, sizeof b))) {
                hit = 1;
                ok = *field(&K, i, mk, m1, sizeof m1) &&
                     !strcmp(m1, field(&L, j, ml, m2, sizeof m2)) &&
                     !strcmp(field(&K, i, ak, m1, sizeof m1), field(&L, j, al, m2, sizeof m2));
            }
        ok = ok && hit;
    }
    lines_free(&L);
    lines_free(&K);
    return ok;
}

static void rm_out(const char *dir)
{
    static const char *const files[] = {"layers.csv", "kernels.csv", "picks.csv", "profile.txt",
                                        "manifest.txt", "plan.csv", "metrics.csv", "metrics.txt", "gpu.txt"};
    char p[256];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, files[i]);
        remove(p);
    }
    rmdir(dir);
}

static int sim_setup(char *dir, char *plan, size_t len)
{
    if (!mkdtemp(dir)) return -1;
    snprintf(plan, len, "%s/plan.csv", dir);
    FILE *f = fopen(plan, "w");
    if (!f) return -1;
    fputs(SIM_PLAN, f);
    return fclose(f);
}

TEST(bench_sim_sweep_outputs)
{
    if (access(sim_bin(), X_OK) != 0) SKIP("seer-bench-sim not built (no nvcc)");
    char dir[] = "/tmp/seer-bench-sim-XXXXXX", plan[128], out[160], path[200], cmd[1024], v[256];
    int st;
    REQUIRE(sim_setup(dir, plan, sizeof plan) == 0);
    snprintf(out, sizeof out, "%s/o", dir);
    snprintf(cmd, sizeof cmd, "%s --plan %s --out %s --metrics 2>&1", sim_bin(), plan, out);
    char *log = run(cmd, &st);
    REQUIRE(log);
    CHECK(st == 0);
    CHECK(strstr(log, "tf32 GEMM benchmark failed")); /* reported, not fatal */
    free(log);

    lines_t L;
    REQUIRE(read_out(out, "layers.csv", &L) == 0);
    CHECK(strcmp(L.hdr, "gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,"
                        "dil_h,dil_w,groups,algo,time_ms,main_kernel,grid_x,grid_y,grid_z,block_x,"
                        "block_y,block_z,kernels,source,time_min_ms,time_max_ms,reps,status,part,"
                        "call_id,kernel_sum_ms,workspace_bytes,layer,math_type,span_ms,memop_ms,"
                        "l2_flush,hold_expired,sm_clock_mhz,busy_ms") == 0);
    CHECK(L.n > 20);
    int c_gpu = col(&L, "gpu"), c_algo = col(&L, "algo"), c_status = col(&L, "status"),
        c_main = col(&L, "main_kernel"), c_part = col(&L, "part"), c_time = col(&L, "time_ms");
    int failed = 0, tiling = 0, demangled = 0, parts = 0;
    for (int i = 0; i < L.n; i++) {
        CHECK(!strcmp(field(&L, i, c_gpu, v, sizeof v), "h100-sxm5-80gb"));
        if (!strcmp(field(&L, i, c_status, v, sizeof v), "CUDNN_STATUS_EXECUTION_FAILED")) {
            failed++;
            CHECK(!*field(&L, i, c_time, v, sizeof v)); /* no time for a failure */
        } else {
            CHECK(*field(&L, i, c_time, v, sizeof v));
        }
        tiling += !strcmp(field(&L, i, c_algo, v, sizeof v), "FFT_TILING"); /* 4 GiB workspace */
        demangled += !strncmp(field(&L, i, c_main, v, sizeof v), "implicit_convolve_sgemm<float, float, 128,", 42);
        field(&L, i, c_part, v, sizeof v);
        parts += !strcmp(v, "cnn") || !strcmp(v, "random");
    }
    CHECK(failed == 4);       /* forward FFT of each shape */
    CHECK(tiling == 0);
    CHECK(demangled > 0);
    CHECK(parts == L.n);
    lines_free(&L);

    snprintf(path, sizeof path, "%s/kernels.csv", out);
    CHECK(file_has(path, "gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,"
                         "dil_h,dil_w,groups,algo,call_id,kernel_index,kernel_name,grid_x,grid_y,"
                         "grid_z,block_x,block_y,block_z,regs_per_thread,smem_static,smem_dynamic,"
                         "time_ms,dram_read_bytes,dram_write_bytes,sm_pct,dram_pct,occupancy_pct,"
                         "tensor_pct,source,cluster_x,cluster_y,cluster_z,math_type"));
    /* metrics on, dram__throughput unknown to the chip: empty dram_pct */
    CHECK(file_has(path, ",1000,2000,3000,,4000,5000,seer-bench:h100-sxm5-80gb:1:cudnn9.19.0"));
    CHECK(file_has(path, "\"implicit_convolve_sgemm<float, float, 128, 5, 5, 3, 3, 3, 1, false, false, true>\""));
    CHECK(calls_consistent(out));
    snprintf(path, sizeof path, "%s/picks.csv", out);
    CHECK(file_has(path, ",v7,0,IMPLICIT_GEMM,,0,,FMA"));
    CHECK(file_has(path, ",find,5,FFT_TILING,0.6,4294967296,,FMA"));
    snprintf(path, sizeof path, "%s/profile.txt", out);
    CHECK(file_has(path, "fp32_tflops=60"));
    CHECK(file_has(path, "tf32_tflops="));
    CHECK(file_has(path, "gpu=h100-sxm5-80gb"));
    snprintf(path, sizeof path, "%s/manifest.txt", out);
    CHECK(file_has(path, "status=complete"));
    CHECK(file_has(path, "unattributed_kernels=0"));
    CHECK(file_has(path, "metrics=on (8 passes: dram__bytes_read.sum;"));
    /* the metrics phase ran in its own process (the pretend GPU crashes a
     * Range Profiler beside Activity callbacks, as the H100 did) and
     * resumes: a second --metrics-only finds every call done */
    snprintf(path, sizeof path, "%s/metrics.csv", out);
    CHECK(file_has(path, "call_id,kernel_index,dram_read_bytes,dram_write_bytes,sm_pct,dram_pct,"
                         "occupancy_pct,tensor_pct"));
    snprintf(cmd, sizeof cmd, "%s --metrics-only --out %s 2>&1", sim_bin(), out);
    log = run(cmd, &st);
    CHECK(st == 0 && log && strstr(log, "metrics: 0 calls profiled, 0 failed"));
    free(log);

    /* an existing result directory is not overwritten without --resume */
    snprintf(cmd, sizeof cmd, "%s --plan %s --out %s --no-micro 2>&1", sim_bin(), plan, out);
    log = run(cmd, &st);
    CHECK(st == 1 && log && strstr(log, "--resume"));
    free(log);
    rm_out(out);
    rm_out(dir);
}

/* CUDA events must time GPU work, not the host's cuDNN call: the pretend
 * GPU spends SEER_SIM_HOST_US of host time in each call before its first
 * kernel, which an idle stream would put between the start event and the
 * kernels (the old harness: events 0.66 ms against 0.047 ms of kernels on
 * an H100).  Events must match the CUPTI span within 15 %; every
 * (algorithm, math type) pair v7 lists is timed; memsets are in the span. */
TEST(bench_sim_events_time_gpu_work)
{
    if (access(sim_bin(), X_OK) != 0) SKIP("seer-bench-sim not built (no nvcc)");
    char dir[] = "/tmp/seer-bench-sim-XXXXXX", plan[128], o[160], cmd[1024], path[200], v[4][1100];
    int st;
    REQUIRE(sim_setup(dir, plan, sizeof plan) == 0);
    snprintf(o, sizeof o, "%s/o", dir);
    snprintf(cmd, sizeof cmd, "SEER_SIM_HOST_US=500 %s --plan %s --out %s --no-micro 2>&1", sim_bin(), plan, o);
    free(run(cmd, &st));
    CHECK(st == 0);
    lines_t L;
    REQUIRE(read_out(o, "layers.csv", &L) == 0);
    int ct = col(&L, "time_ms"), cs = col(&L, "span_ms"), ck = col(&L, "kernel_sum_ms"),
        cm = col(&L, "math_type"), ca = col(&L, "algo"), cmk = col(&L, "main_kernel"),
        cmem = col(&L, "memop_ms"), cfl = col(&L, "l2_flush");
    REQUIRE(ct >= 0 && cs >= 0 && ck >= 0 && cm >= 0 && cmem >= 0 && cfl >= 0);
    int timed = 0, close = 0, tensor_op = 0, fma_precomp = 0, memops = 0, flushed = 0;
    for (int i = 0; i < L.n; i++) {
        if (!*field(&L, i, ct, v[0], sizeof v[0])) continue;
        double t = atof(v[0]), span = atof(field(&L, i, cs, v[1], sizeof v[1])),
               ks = atof(field(&L, i, ck, v[2], sizeof v[2]));
        /* as bench/test-gpu.sh: launch gaps dominate tiny calls */
        if (t >= 0.1) {
            timed++;
            close += fabs(t - span) <= 0.15 * t && ks <= span * 1.0001;
        }
        flushed += !strcmp(field(&L, i, cfl, v[0], sizeof v[0]), "1");
        memops += atof(field(&L, i, cmem, v[0], sizeof v[0])) > 0;
        if (!strcmp(field(&L, i, ca, v[0], sizeof v[0]), "IMPLICIT_PRECOMP_GEMM") &&
            !strcmp(field(&L, i, cm, v[1], sizeof v[1]), "TENSOR_OP"))
            tensor_op += strstr(field(&L, i, cmk, v[2], sizeof v[2]), "tensorop") != NULL;
        else if (!strcmp(v[0], "IMPLICIT_PRECOMP_GEMM") && !strcmp(v[1], "FMA"))
            fma_precomp++;
    }
    CHECK(timed > 20);
    CHECK(close == timed);
    CHECK(flushed == L.n - 4);   /* L2 flush on by default (not on the 4 failed rows) */
    CHECK(memops > 0);           /* the GEMM algorithm's memset is in its span */
    CHECK(tensor_op == 4);       /* one per shape, besides the FMA run */
    CHECK(fma_precomp == 4);
    lines_free(&L);
    snprintf(path, sizeof path, "%s/manifest.txt", o);
    CHECK(file_has(path, "hold_expired=0"));
    CHECK(file_has(path, "l2_flush=1"));
    CHECK(file_has(path, "driver=cuda-13.0"));   /* no NVML here: marked as the CUDA version */
    rm_out(o);
    /* --no-l2-flush: said per row */
    snprintf(cmd, sizeof cmd, "%s --plan %s --out %s --no-micro --no-l2-flush 2>&1", sim_bin(), plan, o);
    free(run(cmd, &st));
    CHECK(st == 0);
    snprintf(path, sizeof path, "%s/manifest.txt", o);
    CHECK(file_has(path, "l2_flush=0"));
    rm_out(o);
    rm_out(dir);
}

/* seer-bench describes the GPU it measured in OUT/gpu.txt, which every
 * --gpu option of the seer CLI accepts: a GPU the table lacks can be used
 * without editing C. */
/* What the first H200 run showed: cuDNN runs the groups of a grouped
 * convolution it has no grouped kernel for on internal streams, not the
 * handle's, and a call of more launches than a held stream takes blocks the
 * host until the hold times out, so its kernels run before the hold's
 * release.  Such kernels belong to the call all the same (nothing else runs
 * between the repetition's enqueue and its end event): kernel sums present,
 * nothing unattributed, side-stream kernels and capped calls counted, the
 * GPU busy time (union of the records) within the span. */
TEST(bench_sim_side_streams_and_expired_holds)
{
    if (access(sim_bin(), X_OK) != 0) SKIP("seer-bench-sim not built (no nvcc)");
    char dir[] = "/tmp/seer-bench-sim-XXXXXX", plan[128], o[160], cmd[1024], path[200], v[4][1100];
    int st;
    REQUIRE(mkdtemp(dir));
    snprintf(plan, sizeof plan, "%s/plan.csv", dir);
    FILE *f = fopen(plan, "w");
    REQUIRE(f);
    fputs("direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,groups,part\n"
          "fwd,fp32,nchw,8,64,28,28,64,3,3,1,1,4,random\n"       /* 4 groups: side streams */
          "fwd,fp32,nchw,8,600,14,14,600,1,1,0,0,300,random\n",  /* 300 launches: the hold expires */
          f);
    REQUIRE(fclose(f) == 0);
    snprintf(o, sizeof o, "%s/o", dir);
    snprintf(cmd, sizeof cmd, "%s --plan %s --out %s --no-micro 2>&1", sim_bin(), plan, o);
    free(run(cmd, &st));
    CHECK(st == 0);
    lines_t L;
    REQUIRE(read_out(o, "layers.csv", &L) == 0);
    int ca = col(&L, "algo"), cg = col(&L, "groups"), ck = col(&L, "kernel_sum_ms"), cb = col(&L, "busy_ms"),
        cs = col(&L, "span_ms"), ch = col(&L, "hold_expired"), ct = col(&L, "time_ms"), cm = col(&L, "memop_ms");
    REQUIRE(ca >= 0 && cg >= 0 && ck >= 0 && cb >= 0 && cs >= 0 && ch >= 0 && ct >= 0 && cm >= 0);
    int grouped = 0, expired = 0, busy_ok = 0, timed = 0;
    for (int i = 0; i < L.n; i++) {
        if (!*field(&L, i, ct, v[0], sizeof v[0])) continue;
        timed++;
        CHECK(*field(&L, i, ck, v[1], sizeof v[1]));   /* every timed call has its kernels */
        double ks = atof(v[1]), busy = atof(field(&L, i, cb, v[2], sizeof v[2])),
               span = atof(field(&L, i, cs, v[3], sizeof v[3])), mem = atof(field(&L, i, cm, v[0], sizeof v[0]));
        busy_ok += busy > 0 && busy <= span * 1.0001 && busy <= (ks + mem) * 1.0001;
        if (strcmp(field(&L, i, ca, v[0], sizeof v[0]), "IMPLICIT_GEMM")) continue;
        field(&L, i, cg, v[1], sizeof v[1]);
        if (!strcmp(v[1], "4")) grouped++;
        if (!strcmp(v[1], "300")) expired += atoi(field(&L, i, ch, v[2], sizeof v[2]));
    }
    CHECK(timed >= 4);
    CHECK(busy_ok == timed);
    CHECK(grouped == 1);
    CHECK(expired == 5);          /* every repetition of the 300-launch call */
    lines_free(&L);
    CHECK(calls_consistent(o));
    snprintf(path, sizeof path, "%s/manifest.txt", o);
    CHECK(file_has(path, "unattributed_kernels=0"));
    CHECK(file_has(path, "untimed_kernels=0"));
    CHECK(file_has(path, "hold_expired=5"));
    CHECK(file_has(path, "kernel_capped_calls=1"));  /* 300 kernels: the first 64 get rows */
    CHECK(file_has(path, "side_stream_kernels=") && !file_has(path, "side_stream_kernels=0"));
    rm_out(o);
    rm_out(dir);
}

TEST(bench_sim_gpu_description_file)
{
    if (access(sim_bin(), X_OK) != 0) SKIP("seer-bench-sim not built (no nvcc)");
    char dir[] = "/tmp/seer-bench-sim-XXXXXX", plan[128], o[160], cmd[1024], path[200];
    int st;
    REQUIRE(sim_setup(dir, plan, sizeof plan) == 0);
    snprintf(o, sizeof o, "%s/o", dir);
    snprintf(cmd, sizeof cmd, "%s --plan %s --out %s --gpu-id my-h100 2>&1", sim_bin(), plan, o);
    free(run(cmd, &st));
    CHECK(st == 0);
    snprintf(path, sizeof path, "%s/gpu.txt", o);
    char *text = test_slurp(path);
    REQUIRE(text);
    CHECK(strstr(text, "\nseer-gpu=1\nid=my-h100\nname=NVIDIA H100 80GB HBM3\narch=hopper\ncc=9.0\nsms=132\n"));
    CHECK(strstr(text, "\nfp32_tflops=60\n"));          /* the measured ceiling */
    CHECK(strstr(text, "\nsmem_per_sm=233472\n"));      /* from the device properties */
    CHECK(strstr(text, "\ninfo.driver=cuda-13.0\n"));   /* no NVML: said so */
    /* the header says when the file is the --gpu to give: a table GPU's is refused */
    CHECK(strstr(text, "\n# For a GPU libseer's table lacks") && strstr(text, "--gpu ID"));
    free(text);
    if (access(test_seer_bin(), X_OK) == 0) {
        snprintf(cmd, sizeof cmd, "%s predict --gpu %s --models models --n 32 --c 64 --h 56 --w 56 --k 64 2>&1",
                 test_seer_bin(), path);
        char *log = run(cmd, &st);
        CHECK(st == 0 && log && strstr(log, "transferred to my-h100 from"));
        free(log);
    }
    remove(path);
    rm_out(o);
    rm_out(dir);
}

/* A plan of 6 CNN and 6 random shapes (36 entries), CNN and random
 * interleaved so that the run order is visible. */
static int budget_plan(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs("dtype,layout,n,c,h,w,k,r,s,part\n", f);
    for (int i = 0; i < 12; i++)
        fprintf(f, "fp32,nchw,%d,16,8,8,16,3,3,%s\n", 1 + i, i % 2 ? "cnn" : "random");
    return fclose(f);
}

/* key=value of DIR/NAME as an int; -1 when absent */
static int kv_num(const char *dir, const char *name, const char *key)
{
    char path[256], line[512];
    size_t kl = strlen(key);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    int v = -1;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, key, kl) && line[kl] == '=') v = atoi(line + kl + 1);
    if (f) fclose(f);
    return v;
}

static int manifest_num(const char *dir, const char *key) { return kv_num(dir, "manifest.txt", key); }

/* One expensive first entry (as first-use loading on a real GPU) must not
 * make the budget drop entries that fit: the old rule projected
 * elapsed + mean x left from the 5th entry and dropped the random shapes. */
TEST(bench_sim_budget_expensive_first_entry)
{
    if (access(sim_bin(), X_OK) != 0) SKIP("seer-bench-sim not built (no nvcc)");
    char dir[] = "/tmp/seer-bench-sim-XXXXXX", plan[128], o[160], cmd[1024];
    int st;
    REQUIRE(mkdtemp(dir));
    snprintf(plan, sizeof plan, "%s/plan.csv", dir);
    REQUIRE(budget_plan(plan) == 0);
    snprintf(o, sizeof o, "%s/o", dir);
    snprintf(cmd, sizeof cmd, "SEER_SIM_FIRST_SLEEP_MS=1500 %s --plan %s --out %s --no-micro "
             "--minutes 0.15 2>&1", sim_bin(), plan, o);
    char *log = run(cmd, &st);
    REQUIRE(log);
    CHECK(st == 0);
    CHECK(manifest_num(o, "entries_run") == 36);
    CHECK(manifest_num(o, "entries_not_reached") == 0);
    char path[200];
    snprintf(path, sizeof path, "%s/manifest.txt", o);
    CHECK(file_has(path, "status=complete"));
    free(log);
    rm_out(o);
    remove(plan);
    rmdir(dir);
}

/* The deadline ends the run: CNN entries measured first, status=budget
 * with the unmeasured entries counted, exit 0, and --resume finishes. */
TEST(bench_sim_budget_deadline)
{
    if (access(sim_bin(), X_OK) != 0) SKIP("seer-bench-sim not built (no nvcc)");
    char dir[] = "/tmp/seer-bench-sim-XXXXXX", plan[128], o[160], cmd[1024], path[200], v[64];
    int st;
    REQUIRE(mkdtemp(dir));
    snprintf(plan, sizeof plan, "%s/plan.csv", dir);
    REQUIRE(budget_plan(plan) == 0);
    snprintf(o, sizeof o, "%s/o", dir);
    snprintf(cmd, sizeof cmd, "SEER_SIM_SLEEP_US=4000 %s --plan %s --out %s --no-micro "
             "--minutes 0.02 2>&1", sim_bin(), plan, o);
    char *log = run(cmd, &st);
    REQUIRE(log);
    CHECK(st == 0);
    free(log);
    snprintf(path, sizeof path, "%s/manifest.txt", o);
    CHECK(file_has(path, "status=budget"));
    int ran = manifest_num(o, "entries_run"), left = manifest_num(o, "entries_not_reached");
    CHECK(ran > 0 && left > 0 && ran + left <= 36 && ran + left >= 35);
    lines_t L;
    REQUIRE(read_out(o, "layers.csv", &L) == 0);
    int cp = col(&L, "part"), seen_random = 0, order_ok = 1;
    for (int i = 0; i < L.n; i++) {
        int rnd = !strcmp(field(&L, i, cp, v, sizeof v), "random");
        order_ok &= !(seen_random && !rnd);
        seen_random |= rnd;
    }
    CHECK(order_ok);            /* no CNN row after a random one */
    lines_free(&L);
    snprintf(cmd, sizeof cmd, "%s --plan %s --out %s --no-micro --minutes 0 --resume 2>&1", sim_bin(),
             plan, o);
    log = run(cmd, &st);
    REQUIRE(log);
    CHECK(st == 0);
    free(log);
    snprintf(path, sizeof path, "%s/manifest.txt", o);
    CHECK(file_has(path, "status=complete"));
    CHECK(manifest_num(o, "entries_not_reached") == 0);
    rm_out(o);
    remove(plan);
    rmdir(dir);
}

/* --minutes bounds the metrics phase too (it once ran unbounded after the
 * sweep's deadline): a sweep that spent the budget skips it; a phase given
 * what the sweep left stops at it, leaving the rest to --metrics-only.
 * Timing: the first convolution of each process sleeps 2.5 s, the budget
 * is 4.5 s, so the phase gets under 2 s and its first call outlasts that. */
TEST(bench_sim_metrics_budget)
{
    if (access(sim_bin(), X_OK) != 0) SKIP("seer-bench-sim not built (no nvcc)");
    char dir[] = "/tmp/seer-bench-sim-XXXXXX", plan[128], o[160], cmd[1024], path[200];
    int st;
    REQUIRE(mkdtemp(dir));
    snprintf(plan, sizeof plan, "%s/plan.csv", dir);
    REQUIRE(budget_plan(plan) == 0);
    snprintf(o, sizeof o, "%s/o", dir);
    snprintf(cmd, sizeof cmd, "SEER_SIM_SLEEP_US=4000 %s --plan %s --out %s --no-micro --metrics "
             "--minutes 0.02 2>&1", sim_bin(), plan, o);
    char *log = run(cmd, &st);
    REQUIRE(log);
    CHECK(st == 0 && strstr(log, "metrics phase skipped"));
    free(log);
    snprintf(path, sizeof path, "%s/manifest.txt", o);
    CHECK(file_has(path, "status=budget") && file_has(path, "metrics=skipped: no time left"));
    snprintf(path, sizeof path, "%s/metrics.txt", o);
    CHECK(access(path, F_OK) != 0); /* no phase ran */
    rm_out(o);

    /* the first call of each process sleeps 4 s: the sweep's leaves
     * 3.5 s less its own time, at least the second the metrics phase
     * needs to start (a busy machine's sweep may take 2.5 s), and the
     * metrics child's first call outlasts what is left */
    snprintf(cmd, sizeof cmd, "SEER_SIM_FIRST_SLEEP_MS=4000 %s --plan %s --out %s --no-micro --metrics "
             "--minutes 0.125 2>&1", sim_bin(), plan, o);
    log = run(cmd, &st);
    REQUIRE(log);
    CHECK(st == 0);
    free(log);
    snprintf(path, sizeof path, "%s/manifest.txt", o);
    CHECK(file_has(path, "status=complete") && file_has(path, "time budget ended it"));
    CHECK(kv_num(o, "metrics.txt", "metrics_calls") == 1);
    int left = kv_num(o, "metrics.txt", "metrics_calls_not_reached");
    CHECK(left > 0);
    snprintf(cmd, sizeof cmd, "%s --metrics-only --minutes 0 --out %s 2>&1", sim_bin(), o);
    log = run(cmd, &st);
    REQUIRE(log);
    CHECK(st == 0);
    free(log);
    CHECK(kv_num(o, "metrics.txt", "metrics_calls") == left);
    CHECK(kv_num(o, "metrics.txt", "metrics_calls_not_reached") == 0);
    rm_out(o);
    remove(plan);
    rmdir(dir);
}

TEST(bench_sim_crash_and_resume)
{
    if (access(sim_bin(), X_OK) != 0) SKIP("seer-bench-sim not built (no nvcc)");
    char dir[] = "/tmp/seer-bench-sim-XXXXXX", plan[128], a[160], b[160], cmd[1024], p1[200], p2[200];
    int st;
    REQUIRE(sim_setup(dir, plan, sizeof plan) == 0);
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/b", dir);
    snprintf(cmd, sizeof cmd, "%s --plan %s --out %s --no-micro 2>/dev/null", sim_bin(), plan, a);
    free(run(cmd, &st));
    REQUIRE(st == 0);

    /* die (as if SIGKILLed) twice at different points, then finish */
    static const char *const crash[] = {"37", "101", ""};
    for (int i = 0; i < 3; i++) {
        snprintf(cmd, sizeof cmd, "SEER_SIM_CRASH_AFTER=%s %s --plan %s --out %s --no-micro%s 2>/dev/null",
                 crash[i], sim_bin(), plan, b, i ? " --resume" : "");
        free(run(cmd, &st));
        CHECK(st == (crash[i][0] ? 137 : 0));
        if (i == 0) { /* and leave half a line behind, as a kill inside write() could */
            snprintf(p1, sizeof p1, "%s/layers.csv", b);
            FILE *f = fopen(p1, "a");
            REQUIRE(f);
            fputs("h100-sxm5-80gb,fwd,fp3", f);
            fclose(f);
        }
    }
    static const char *const files[2] = {"layers.csv", "picks.csv"};
    static const int keys[2] = {19, 19};
    static const char *const extra[2] = {"status", "algo"};
    for (int i = 0; i < 2; i++) {
        snprintf(p1, sizeof p1, "%s/%s", a, files[i]);
        snprintf(p2, sizeof p2, "%s/%s", b, files[i]);
        char *x = identity(p1, keys[i], extra[i]), *y = identity(p2, keys[i], extra[i]);
        REQUIRE(x && y);
        CHECK(strlen(x) > 100);
        CHECK(strcmp(x, y) == 0); /* same rows as the uninterrupted run */
        free(x);
        free(y);
    }
    snprintf(p1, sizeof p1, "%s/kernels.csv", a);
    snprintf(p2, sizeof p2, "%s/kernels.csv", b);
    char *x = identity(p1, 19, "kernel_name"), *y = identity(p2, 19, "kernel_name");
    CHECK(x && y && strcmp(x, y) == 0);
    free(x);
    free(y);
    CHECK(calls_consistent(b));
    snprintf(p2, sizeof p2, "%s/manifest.txt", b);
    CHECK(file_has(p2, "status=complete"));
    CHECK(file_has(p2, "resume=1"));

    /* resuming a finished run measures nothing */
    snprintf(cmd, sizeof cmd, "%s --plan %s --out %s --no-micro --resume 2>&1", sim_bin(), plan, b);
    char *log = run(cmd, &st);
    CHECK(st == 0 && log && strstr(log, "0 entries measured, 12 skipped"));
    free(log);

    /* a kernels.csv of an older version (no math_type column) is not
     * appended to: its rows and the new ones would not line up */
    snprintf(p2, sizeof p2, "%s/kernels.csv", b);
    snprintf(cmd, sizeof cmd, "sed -i '1s/,math_type$//' %s", p2);
    CHECK(system(cmd) == 0);
    snprintf(cmd, sizeof cmd, "%s --plan %s --out %s --no-micro --resume 2>&1", sim_bin(), plan, b);
    log = run(cmd, &st);
    CHECK(st == 1 && log && strstr(log, "kernels.csv: written by another seer-bench version"));
    free(log);
    rm_out(a);
    rm_out(b);
    rm_out(dir);
}

TEST(bench_sim_fallbacks)
{
    if (access(sim_bin(), X_OK) != 0) SKIP("seer-bench-sim not built (no nvcc)");
    char dir[] = "/tmp/seer-bench-sim-XXXXXX", plan[128], o[160], p[200], cmd[1024];
    int st;
    REQUIRE(sim_setup(dir, plan, sizeof plan) == 0);
    snprintf(o, sizeof o, "%s/o", dir);

    /* counters refused: said once, timings still written */
    snprintf(cmd, sizeof cmd, "SEER_SIM_METRICS=denied %s --plan %s --out %s --no-micro --metrics 2>&1",
             sim_bin(), plan, o);
    char *log = run(cmd, &st);
    CHECK(st == 0 && log && strstr(log, "metrics unavailable") && strstr(log, "INSUFFICIENT_PRIVILEGES"));
    snprintf(p, sizeof p, "%s/manifest.txt", o);
    CHECK(file_has(p, "metrics=unavailable: "));
    snprintf(p, sizeof p, "%s/kernels.csv", o);
    CHECK(file_has(p, ",,,,,,,seer-bench:"));
    free(log);
    rm_out(o);

    /* records with a zero timestamp (a forced flush can deliver them) are
     * refused and counted, never tied to a call */
    snprintf(cmd, sizeof cmd, "SEER_SIM_ZERO_TS=1 %s --plan %s --out %s --no-micro 2>&1", sim_bin(), plan, o);
    free(run(cmd, &st));
    CHECK(st == 0);
    snprintf(p, sizeof p, "%s/manifest.txt", o);
    CHECK(file_has(p, "unattributed_kernels=0"));
    CHECK(!file_has(p, "cupti_bad_timestamps=0\n"));
    snprintf(p, sizeof p, "%s/kernels.csv", o);
    CHECK(!file_has(p, "zero_kernel"));
    CHECK(calls_consistent(o));
    rm_out(o);

    /* out of memory on the tensors: a failure row per entry, not a crash */
    snprintf(cmd, sizeof cmd, "SEER_SIM_OOM_BYTES=50000000 %s --plan %s --out %s --no-micro --workspace-mb 32 2>&1",
             sim_bin(), plan, o);
    free(run(cmd, &st));
    CHECK(st == 0);
    snprintf(p, sizeof p, "%s/layers.csv", o);
    CHECK(file_has(p, ",,,,,,,,,,seer-bench:h100-sxm5-80gb:1:cudnn9.19.0,,,,OOM,cnn,"));
    rm_out(o);

    /* no driver: exit 2, nothing written */
    snprintf(cmd, sizeof cmd, "SEER_SIM_NODEV=1 %s --plan %s --out %s 2>&1", sim_bin(), plan, o);
    log = run(cmd, &st);
    CHECK(st == 2 && log && !strncmp(log, "no CUDA device: ", 16));
    CHECK(access(o, F_OK) != 0);
    free(log);
    rm_out(dir);
}

/* bench/test-gpu.sh (make test-gpu) against the pretend GPU, as
 * docs/seer-bench.md describes it: exactly one failure, the TF32 benchmark
 * the pretend GPU fails on purpose; the kill/resume check either ran and
 * passed or said SKIP (the sim's run may end before the kill), never a
 * silent pass. */
TEST(bench_test_gpu_script_sim)
{
    if (access(sim_bin(), X_OK) != 0) SKIP("seer-bench-sim not built (no nvcc)");
    const char *seer = getenv("SEER_BIN");
    char cmd[1024];
    int st;
    snprintf(cmd, sizeof cmd, "SEER_BIN=%s sh bench/test-gpu.sh %s 2>&1",
             seer && *seer ? seer : "build/seer", sim_bin());
    char *o = run(cmd, &st);
    REQUIRE(o);
    CHECK(st == 1);
    CHECK(strstr(o, "FAIL tf32_tflops: not measured") && strstr(o, "test-gpu: 1 failure(s)"));
    int fails = 0;
    for (const char *p = o; (p = strstr(p, "FAIL ")); p++) fails++;
    CHECK(fails == 1);
    CHECK(strstr(o, "    killed after ") ? strstr(o, "PASS resumed run has the same") != NULL
                                        : strstr(o, "SKIP kill/resume: the run ended") != NULL);
    CHECK(strstr(o, "PASS budget: CNN entries before random ones"));
    /* the script keeps its outputs for a look; these are not needed */
    const char *w = strstr(o, "outputs in /tmp/seer-test-gpu.");
    char dir[64];
    if (w && sscanf(w, "outputs in %63s", dir) == 1 && !strchr(dir, '\'')) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        free(run(cmd, &st));
    }
    if (fails != 1) printf("%s", o);
    free(o);
}

/* The one-call GPU script and the Python benchmarks parse, and the script
 * runs end to end against the pretend GPU: settings that are no whole
 * number take their defaults (SEER_BENCH_SECONDS=1.5 once stopped it under
 * set -u before the sweep), SEER_TORCH other than 1 skips the iterations,
 * the sweep's tarball, environment, GEMM log and run log land in OUT, and
 * it exits 0 when the sweep left its manifest. */
TEST(bench_device_run_script)
{
    int st;
    char *o = run("bash -n bench/device-run.sh && bash -n bench/device-networks.sh && bash -n bench/device-lib.sh && "
                  "bash -n bench/test-gpu.sh && python3 -c 'import ast, sys; "
                  "[ast.parse(open(f).read(), f) for f in sys.argv[1:]]' bench/torch_gemm.py "
                  "bench/torch_iteration.py bench/torch_trace.py 2>&1", &st);
    CHECK(o && st == 0);
    free(o);
    if (access(sim_bin(), X_OK) != 0) SKIP("seer-bench-sim not built (no nvcc)");
    char dir[] = "/tmp/seer-device-run-XXXXXX", cmd[1024], path[200];
    REQUIRE(mkdtemp(dir) != NULL);
    snprintf(cmd, sizeof cmd,
             "OUT=%s/out SEER_DEVICE_WORK=%s/w SEER_BENCH_BIN=%s SEER_DEVICE_SECONDS=90 SEER_BENCH_SECONDS=1.5 "
             "SEER_GEMM_SECONDS=5 SEER_TORCH=no bash bench/device-run.sh 2>&1",
             dir, dir, sim_bin());
    o = run(cmd, &st);
    CHECK(o && st == 0);
    CHECK(o && strstr(o, "SEER_BENCH_SECONDS='1.5' is no whole number: 300") != NULL);
    CHECK(o && strstr(o, "done (no torch iterations)") != NULL);
    free(o);
    static const char *const files[] = {"bench.tgz", "env.txt", "gemm.log", "log.txt"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(path, sizeof path, "%s/out/%s", dir, files[i]);
        CHECK(access(path, R_OK) == 0);
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    o = run(cmd, &st);
    free(o);
}
