/* seer-bench without a GPU: the parts that must work anywhere (--help,
 * --dry-run, plan files, GPU ids) and the clean refusal to measure.  The
 * measuring paths are checked on a GPU by bench/test-gpu.sh (make test-gpu).
 * Every test skips when seer-bench was not built (no nvcc). */
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
