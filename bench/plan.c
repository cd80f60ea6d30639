/* bench/plan.c - the sweep plan: CNN layer tables, random shapes, plan
 * files.  Plain C, no CUDA: --dry-run works anywhere.  Deterministic: the
 * generator uses its own integer PRNG and no floating-point libm calls, so
 * a seed gives the same plan on every machine. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "bench.h"

const char *const seer_bench_dir_names[SEER_BENCH_NDIR] = {"fwd", "bwd_data", "bwd_filter"};
const char *const seer_bench_dtype_names[SEER_BENCH_NDTYPE] = {"fp32", "tf32", "fp16", "bf16",
                                                              "fp16_pseudo"};
const char *const seer_bench_layout_names[2] = {"nchw", "nhwc"};
const char *const seer_bench_part_names[2] = {"cnn", "random"};

int seer_bench_name_index(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcasecmp(names[i], name) == 0) return i;
    return -1;
}

/* ---- shape arithmetic --------------------------------------------------- */

static int out_dim(int in, int pad, int dil, int f, int stride)
{
    long long span = (long long)dil * (f - 1) + 1;
    long long num = (long long)in + 2LL * pad - span;
    return num < 0 ? 0 : (int)(num / stride + 1);
}

void seer_bench_conv_output(const seer_bench_conv_t *cv, int *p, int *q)
{
    *p = out_dim(cv->h, cv->pad_h, cv->dil_h, cv->r, cv->stride_h);
    *q = out_dim(cv->w, cv->pad_w, cv->dil_w, cv->s, cv->stride_w);
}

double seer_bench_conv_flops(const seer_bench_conv_t *cv)
{
    int p, q;
    seer_bench_conv_output(cv, &p, &q);
    return 2.0 * cv->n * cv->k * (double)p * q * ((double)cv->c / cv->groups) * cv->r * cv->s;
}

void seer_bench_conv_elems(const seer_bench_conv_t *cv, size_t *x, size_t *wt, size_t *y)
{
    int p, q;
    seer_bench_conv_output(cv, &p, &q);
    *x = (size_t)cv->n * cv->c * cv->h * cv->w;
    *wt = (size_t)cv->k * (cv->c / cv->groups) * cv->r * cv->s;
    *y = (size_t)cv->n * cv->k * p * q;
}

int seer_bench_dtype_bytes(int dtype)
{
    return dtype == SEER_DTYPE_FP32 || dtype == SEER_DTYPE_TF32 ? 4 : 2;
}

int seer_bench_conv_check(const seer_bench_conv_t *cv, char *err, size_t errlen)
{
    const int lim = 1 << 24;
    struct { const char *name; int v, lo; } f[] = {
        {"n", cv->n, 1}, {"c", cv->c, 1}, {"h", cv->h, 1}, {"w", cv->w, 1}, {"k", cv->k, 1},
        {"r", cv->r, 1}, {"s", cv->s, 1}, {"pad_h", cv->pad_h, 0}, {"pad_w", cv->pad_w, 0},
        {"stride_h", cv->stride_h, 1}, {"stride_w", cv->stride_w, 1}, {"dil_h", cv->dil_h, 1},
        {"dil_w", cv->dil_w, 1}, {"groups", cv->groups, 1},
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (f[i].v < f[i].lo || f[i].v > lim) {
            snprintf(err, errlen, "%s = %d out of range [%d, %d]", f[i].name, f[i].v, f[i].lo, lim);
            return -1;
        }
    if (cv->c % cv->groups || cv->k % cv->groups) {
        snprintf(err, errlen, "groups = %d does not divide c = %d and k = %d", cv->groups, cv->c,
                 cv->k);
        return -1;
    }
    int p, q;
    seer_bench_conv_output(cv, &p, &q);
    if (p < 1 || q < 1) {
        snprintf(err, errlen, "empty output (%d x %d)", p, q);
        return -1;
    }
    size_t x, wt, y;
    seer_bench_conv_elems(cv, &x, &wt, &y);
    if (x > INT_MAX || wt > INT_MAX || y > INT_MAX) {
        snprintf(err, errlen, "a tensor has more than 2^31-1 elements");
        return -1;
    }
    return 0;
}

void seer_bench_conv_key(const seer_bench_conv_t *cv, char *buf, size_t len)
{
    snprintf(buf, len, "%s,%s,%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d",
             seer_bench_dir_names[cv->dir], seer_bench_dtype_names[cv->dtype],
             seer_bench_layout_names[cv->layout], cv->n, cv->c, cv->h, cv->w, cv->k, cv->r, cv->s,
             cv->pad_h, cv->pad_w, cv->stride_h, cv->stride_w, cv->dil_h, cv->dil_w, cv->groups);
}

/* ---- plan storage ------------------------------------------------------- */

static int plan_push(seer_bench_plan_t *p, const seer_bench_conv_t *cv)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 256;
        seer_bench_conv_t *v = realloc(p->v, cap * sizeof *v);
        if (!v) return -1;
        p->v = v;
        p->cap = cap;
    }
    p->v[p->n++] = *cv;
    return 0;
}

void seer_bench_plan_free(seer_bench_plan_t *plan)
{
    free(plan->v);
    plan->v = NULL;
    plan->n = plan->cap = 0;
}

/* ---- PRNG: splitmix64 ---------------------------------------------------- */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int rng_int(uint64_t *s, int lo, int hi) /* uniform in [lo, hi] */
{
    return lo + (int)(rng_next(s) % (uint64_t)(hi - lo + 1));
}

static int rng_pct(uint64_t *s, int pct) { return rng_int(s, 0, 99) < pct; }

/* Log-uniform-ish integer in [lo, hi]: a power-of-two octave uniformly,
 * then uniform inside it, so small and large sizes are equally common. */
static int rng_log(uint64_t *s, int lo, int hi)
{
    int oct[32][2], n = 0;
    for (long long a = 1; a <= hi && n < 32; a *= 2) {
        long long b = 2 * a - 1;
        long long l = a < lo ? lo : a, h = b > hi ? hi : b;
        if (l <= h) { oct[n][0] = (int)l; oct[n][1] = (int)h; n++; }
    }
    int i = rng_int(s, 0, n - 1);
    return rng_int(s, oct[i][0], oct[i][1]);
}

static int rng_pick(uint64_t *s, const int *vals, const int *weights, int n)
{
    int total = 0;
    for (int i = 0; i < n; i++) total += weights[i];
    int x = rng_int(s, 0, total - 1);
    for (int i = 0; i < n; i++) {
        if (x < weights[i]) return vals[i];
        x -= weights[i];
    }
    return vals[n - 1];
}

/* ---- CNN layer tables ---------------------------------------------------- */

typedef struct {
    const char *net;
    char name[48];
    int c, h, w, k, r, s, ph, pw, sh, sw, g;
} layer_t;

typedef struct {
    layer_t *v;
    size_t n, cap;
} layers_t;

static int L(layers_t *ls, const char *net, const char *name, int c, int hw, int k, int r, int s,
             int ph, int pw, int stride, int g)
{
    /* A network repeats identical layers; one measurement each is enough. */
    for (size_t i = 0; i < ls->n; i++) {
        const layer_t *o = &ls->v[i];
        if (o->net == net && o->c == c && o->h == hw && o->k == k && o->r == r && o->s == s &&
            o->ph == ph && o->pw == pw && o->sh == stride && o->g == g)
            return 0;
    }
    if (ls->n == ls->cap) {
        size_t cap = ls->cap ? 2 * ls->cap : 256;
        layer_t *v = realloc(ls->v, cap * sizeof *v);
        if (!v) return -1;
        ls->v = v;
        ls->cap = cap;
    }
    layer_t *l = &ls->v[ls->n++];
    l->net = net;
    snprintf(l->name, sizeof l->name, "%s", name);
    l->c = c; l->h = l->w = hw; l->k = k; l->r = r; l->s = s;
    l->ph = ph; l->pw = pw; l->sh = l->sw = stride; l->g = g;
    return 0;
}

#define TRY(x) do { if ((x) != 0) return -1; } while (0)

static const char NET_R18[] = "resnet18", NET_R50[] = "resnet50", NET_VGG[] = "vgg16",
                  NET_INC[] = "inception_v3", NET_MB2[] = "mobilenet_v2",
                  NET_D121[] = "densenet121";

static int resnet(layers_t *ls, const char *net, int bottleneck)
{
    static const int planes[4] = {64, 128, 256, 512};
    char nm[48];
    int in = 64, hw = 56;
    TRY(L(ls, net, "conv1", 3, 224, 64, 7, 7, 3, 3, 2, 1));
    for (int st = 0; st < 4; st++) {
        int p = planes[st], stride = st ? 2 : 1, out = bottleneck ? 4 * p : p;
        /* block 0 changes shape; block 1 stands for the identical rest */
        for (int b = 0; b < 2; b++) {
            int s = b ? 1 : stride, ohw = hw / s;
            if (bottleneck) {
                snprintf(nm, sizeof nm, "layer%d.%d.conv1", st + 1, b);
                TRY(L(ls, net, nm, in, hw, p, 1, 1, 0, 0, 1, 1));
                snprintf(nm, sizeof nm, "layer%d.%d.conv2", st + 1, b);
                TRY(L(ls, net, nm, p, hw, p, 3, 3, 1, 1, s, 1));
                snprintf(nm, sizeof nm, "layer%d.%d.conv3", st + 1, b);
                TRY(L(ls, net, nm, p, ohw, out, 1, 1, 0, 0, 1, 1));
            } else {
                snprintf(nm, sizeof nm, "layer%d.%d.conv1", st + 1, b);
                TRY(L(ls, net, nm, in, hw, p, 3, 3, 1, 1, s, 1));
                snprintf(nm, sizeof nm, "layer%d.%d.conv2", st + 1, b);
                TRY(L(ls, net, nm, p, ohw, p, 3, 3, 1, 1, 1, 1));
            }
            if (b == 0 && (s != 1 || in != out)) {
                snprintf(nm, sizeof nm, "layer%d.0.downsample", st + 1);
                TRY(L(ls, net, nm, in, hw, out, 1, 1, 0, 0, s, 1));
            }
            in = out;
            hw = ohw;
        }
    }
    return 0;
}

static int vgg16(layers_t *ls)
{
    static const int cfg[] = {64, 64, 0, 128, 128, 0, 256, 256, 256, 0, 512, 512, 512, 0,
                              512, 512, 512};
    char nm[48];
    int in = 3, hw = 224, idx = 0;
    for (size_t i = 0; i < sizeof cfg / sizeof cfg[0]; i++) {
        if (!cfg[i]) { hw /= 2; continue; }
        snprintf(nm, sizeof nm, "features.conv%d", ++idx);
        TRY(L(ls, NET_VGG, nm, in, hw, cfg[i], 3, 3, 1, 1, 1, 1));
        in = cfg[i];
    }
    return 0;
}

static int inception_v3(layers_t *ls)
{
    const char *n = NET_INC;
    char nm[48];
    TRY(L(ls, n, "Conv2d_1a_3x3", 3, 299, 32, 3, 3, 0, 0, 2, 1));
    TRY(L(ls, n, "Conv2d_2a_3x3", 32, 149, 32, 3, 3, 0, 0, 1, 1));
    TRY(L(ls, n, "Conv2d_2b_3x3", 32, 147, 64, 3, 3, 1, 1, 1, 1));
    TRY(L(ls, n, "Conv2d_3b_1x1", 64, 73, 80, 1, 1, 0, 0, 1, 1));
    TRY(L(ls, n, "Conv2d_4a_3x3", 80, 73, 192, 3, 3, 0, 0, 1, 1));
    static const int a_in[3] = {192, 256, 288}, a_pool[3] = {32, 64, 64};
    for (int i = 0; i < 3; i++) { /* InceptionA at 35x35 */
        const char *m = i == 0 ? "Mixed_5b" : i == 1 ? "Mixed_5c" : "Mixed_5d";
        int c = a_in[i];
        snprintf(nm, sizeof nm, "%s.branch1x1", m);     TRY(L(ls, n, nm, c, 35, 64, 1, 1, 0, 0, 1, 1));
        snprintf(nm, sizeof nm, "%s.branch5x5_1", m);   TRY(L(ls, n, nm, c, 35, 48, 1, 1, 0, 0, 1, 1));
        snprintf(nm, sizeof nm, "%s.branch5x5_2", m);   TRY(L(ls, n, nm, 48, 35, 64, 5, 5, 2, 2, 1, 1));
        snprintf(nm, sizeof nm, "%s.branch3x3dbl_2", m); TRY(L(ls, n, nm, 64, 35, 96, 3, 3, 1, 1, 1, 1));
        snprintf(nm, sizeof nm, "%s.branch3x3dbl_3", m); TRY(L(ls, n, nm, 96, 35, 96, 3, 3, 1, 1, 1, 1));
        snprintf(nm, sizeof nm, "%s.branch_pool", m);   TRY(L(ls, n, nm, c, 35, a_pool[i], 1, 1, 0, 0, 1, 1));
    }
    /* InceptionB */
    TRY(L(ls, n, "Mixed_6a.branch3x3", 288, 35, 384, 3, 3, 0, 0, 2, 1));
    TRY(L(ls, n, "Mixed_6a.branch3x3dbl_1", 288, 35, 64, 1, 1, 0, 0, 1, 1));
    TRY(L(ls, n, "Mixed_6a.branch3x3dbl_2", 64, 35, 96, 3, 3, 1, 1, 1, 1));
    TRY(L(ls, n, "Mixed_6a.branch3x3dbl_3", 96, 35, 96, 3, 3, 0, 0, 2, 1));
    static const int c7s[4] = {128, 160, 160, 192};
    for (int i = 0; i < 4; i++) { /* InceptionC at 17x17, 1x7 / 7x1 factorised filters */
        char m[16];
        snprintf(m, sizeof m, "Mixed_6%c", 'b' + i);
        int c7 = c7s[i];
        snprintf(nm, sizeof nm, "%s.branch1x1", m);     TRY(L(ls, n, nm, 768, 17, 192, 1, 1, 0, 0, 1, 1));
        snprintf(nm, sizeof nm, "%s.branch7x7_1", m);   TRY(L(ls, n, nm, 768, 17, c7, 1, 1, 0, 0, 1, 1));
        snprintf(nm, sizeof nm, "%s.branch7x7_2", m);   TRY(L(ls, n, nm, c7, 17, c7, 1, 7, 0, 3, 1, 1));
        snprintf(nm, sizeof nm, "%s.branch7x7_3", m);   TRY(L(ls, n, nm, c7, 17, 192, 7, 1, 3, 0, 1, 1));
        snprintf(nm, sizeof nm, "%s.branch7x7dbl_2", m); TRY(L(ls, n, nm, c7, 17, c7, 7, 1, 3, 0, 1, 1));
        snprintf(nm, sizeof nm, "%s.branch7x7dbl_3", m); TRY(L(ls, n, nm, c7, 17, c7, 1, 7, 0, 3, 1, 1));
        snprintf(nm, sizeof nm, "%s.branch7x7dbl_5", m); TRY(L(ls, n, nm, c7, 17, 192, 1, 7, 0, 3, 1, 1));
        snprintf(nm, sizeof nm, "%s.branch_pool", m);   TRY(L(ls, n, nm, 768, 17, 192, 1, 1, 0, 0, 1, 1));
    }
    /* InceptionD */
    TRY(L(ls, n, "Mixed_7a.branch3x3_1", 768, 17, 192, 1, 1, 0, 0, 1, 1));
    TRY(L(ls, n, "Mixed_7a.branch3x3_2", 192, 17, 320, 3, 3, 0, 0, 2, 1));
    TRY(L(ls, n, "Mixed_7a.branch7x7x3_2", 192, 17, 192, 1, 7, 0, 3, 1, 1));
    TRY(L(ls, n, "Mixed_7a.branch7x7x3_3", 192, 17, 192, 7, 1, 3, 0, 1, 1));
    TRY(L(ls, n, "Mixed_7a.branch7x7x3_4", 192, 17, 192, 3, 3, 0, 0, 2, 1));
    static const int e_in[2] = {1280, 2048};
    for (int i = 0; i < 2; i++) { /* InceptionE at 8x8 */
        const char *m = i ? "Mixed_7c" : "Mixed_7b";
        int c = e_in[i];
        snprintf(nm, sizeof nm, "%s.branch1x1", m);      TRY(L(ls, n, nm, c, 8, 320, 1, 1, 0, 0, 1, 1));
        snprintf(nm, sizeof nm, "%s.branch3x3_1", m);    TRY(L(ls, n, nm, c, 8, 384, 1, 1, 0, 0, 1, 1));
        snprintf(nm, sizeof nm, "%s.branch3x3_2a", m);   TRY(L(ls, n, nm, 384, 8, 384, 1, 3, 0, 1, 1, 1));
        snprintf(nm, sizeof nm, "%s.branch3x3_2b", m);   TRY(L(ls, n, nm, 384, 8, 384, 3, 1, 1, 0, 1, 1));
        snprintf(nm, sizeof nm, "%s.branch3x3dbl_1", m); TRY(L(ls, n, nm, c, 8, 448, 1, 1, 0, 0, 1, 1));
        snprintf(nm, sizeof nm, "%s.branch3x3dbl_2", m); TRY(L(ls, n, nm, 448, 8, 384, 3, 3, 1, 1, 1, 1));
        snprintf(nm, sizeof nm, "%s.branch_pool", m);    TRY(L(ls, n, nm, c, 8, 192, 1, 1, 0, 0, 1, 1));
    }
    return 0;
}

static int mobilenet_v2(layers_t *ls)
{
    static const int cfg[7][4] = {{1, 16, 1, 1}, {6, 24, 2, 2}, {6, 32, 3, 2}, {6, 64, 4, 2},
                                  {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
    const char *n = NET_MB2;
    char nm[48];
    int in = 32, hw = 112, idx = 1;
    TRY(L(ls, n, "features.0", 3, 224, 32, 3, 3, 1, 1, 2, 1));
    for (int i = 0; i < 7; i++)
        for (int b = 0; b < cfg[i][2]; b++, idx++) {
            int t = cfg[i][0], out = cfg[i][1], s = b ? 1 : cfg[i][3], hid = in * t;
            if (t != 1) {
                snprintf(nm, sizeof nm, "features.%d.expand", idx);
                TRY(L(ls, n, nm, in, hw, hid, 1, 1, 0, 0, 1, 1));
            }
            snprintf(nm, sizeof nm, "features.%d.depthwise", idx);
            TRY(L(ls, n, nm, hid, hw, hid, 3, 3, 1, 1, s, hid));
            hw = (hw + 2 - 3) / s + 1;
            snprintf(nm, sizeof nm, "features.%d.project", idx);
            TRY(L(ls, n, nm, hid, hw, out, 1, 1, 0, 0, 1, 1));
            in = out;
        }
    TRY(L(ls, n, "features.18", 320, 7, 1280, 1, 1, 0, 0, 1, 1));
    return 0;
}

static int densenet121(layers_t *ls)
{
    static const int blocks[4] = {6, 12, 24, 16};
    const char *n = NET_D121;
    char nm[48];
    int c = 64, hw = 56;
    TRY(L(ls, n, "features.conv0", 3, 224, 64, 7, 7, 3, 3, 2, 1));
    for (int b = 0; b < 4; b++) {
        for (int i = 0; i < blocks[b]; i++) {
            snprintf(nm, sizeof nm, "denseblock%d.layer%d.conv1", b + 1, i + 1);
            TRY(L(ls, n, nm, c + 32 * i, hw, 128, 1, 1, 0, 0, 1, 1));
            snprintf(nm, sizeof nm, "denseblock%d.layer%d.conv2", b + 1, i + 1);
            TRY(L(ls, n, nm, 128, hw, 32, 3, 3, 1, 1, 1, 1));
        }
        c += 32 * blocks[b];
        if (b < 3) {
            snprintf(nm, sizeof nm, "transition%d.conv", b + 1);
            TRY(L(ls, n, nm, c, hw, c / 2, 1, 1, 0, 0, 1, 1));
            c /= 2;
            hw /= 2;
        }
    }
    return 0;
}

/* ---- generator ------------------------------------------------------------ */

#define MAX_TENSOR_BYTES (1ull << 30)

static int fits(const seer_bench_conv_t *cv, double max_flops)
{
    char err[128];
    if (seer_bench_conv_check(cv, err, sizeof err) != 0) return 0;
    size_t x, wt, y, b = (size_t)seer_bench_dtype_bytes(cv->dtype);
    seer_bench_conv_elems(cv, &x, &wt, &y);
    return seer_bench_conv_flops(cv) <= max_flops && x * b <= MAX_TENSOR_BYTES &&
           wt * b <= MAX_TENSOR_BYTES && y * b <= MAX_TENSOR_BYTES;
}

static void from_layer(seer_bench_conv_t *cv, const layer_t *l, int n, int dtype, int layout)
{
    memset(cv, 0, sizeof *cv);
    cv->dtype = dtype; cv->layout = layout; cv->n = n;
    cv->c = l->c; cv->h = l->h; cv->w = l->w; cv->k = l->k; cv->r = l->r; cv->s = l->s;
    cv->pad_h = l->ph; cv->pad_w = l->pw; cv->stride_h = l->sh; cv->stride_w = l->sw;
    cv->dil_h = cv->dil_w = 1; cv->groups = l->g;
    cv->part = SEER_BENCH_PART_CNN;
    snprintf(cv->layer, sizeof cv->layer, "%s/%s", l->net, l->name);
}

/* Dtype mix of the random part: FP32 (what the shared data has) most. */
static const int DT_VALS[4] = {SEER_DTYPE_FP32, SEER_DTYPE_TF32, SEER_DTYPE_FP16, SEER_DTYPE_BF16};
static const int DT_W[4] = {35, 20, 30, 15};

static void random_shape(uint64_t *rs, seer_bench_conv_t *cv, double max_flops)
{
    static const int RV[4] = {1, 3, 5, 7}, RW[4] = {30, 40, 15, 15};
    static const int GV[5] = {2, 4, 8, 16, 32}, GW[5] = {3, 3, 2, 1, 1};
    for (;;) {
        memset(cv, 0, sizeof *cv);
        cv->part = SEER_BENCH_PART_RANDOM;
        cv->dtype = rng_pick(rs, DT_VALS, DT_W, 4);
        cv->layout = rng_int(rs, 0, 1);
        cv->r = cv->s = rng_pick(rs, RV, RW, 4);
        if (cv->r > 1 && rng_pct(rs, 10)) { /* factorised 1xk / kx1 */
            if (rng_int(rs, 0, 1)) cv->r = 1; else cv->s = 1;
        }
        cv->stride_h = cv->stride_w = rng_pct(rs, 35) ? 2 : 1;
        cv->dil_h = cv->dil_w = (cv->r > 1 || cv->s > 1) && rng_pct(rs, 15) ? 2 : 1;
        int mode = rng_int(rs, 0, 99);
        if (mode < 70) {                       /* dense */
            cv->groups = 1;
            cv->c = rng_log(rs, 1, 2048);
            cv->k = rng_log(rs, 1, 2048);
        } else if (mode < 85) {                /* depthwise */
            cv->c = cv->k = cv->groups = rng_log(rs, 8, 2048);
        } else {                               /* grouped */
            cv->groups = rng_pick(rs, GV, GW, 5);
            cv->c = cv->groups * rng_log(rs, 1, 64);
            cv->k = cv->groups * rng_log(rs, 1, 64);
        }
        cv->h = rng_log(rs, 4, 256);
        cv->w = rng_pct(rs, 80) ? cv->h : rng_log(rs, 4, 256);
        if (rng_pct(rs, 75)) { /* "same" padding */
            cv->pad_h = cv->dil_h * (cv->r - 1) / 2;
            cv->pad_w = cv->dil_w * (cv->s - 1) / 2;
        }
        cv->n = rng_log(rs, 1, 256);
        /* shrink batch, then the image, until the call is affordable */
        while (!fits(cv, max_flops) && cv->n > 1) cv->n /= 2;
        while (!fits(cv, max_flops) && cv->h > 8 && cv->w > 8) { cv->h /= 2; cv->w /= 2; }
        if (fits(cv, max_flops)) return;
    }
}

/* The (dtype, layout) configurations of the CNN part, the ones
 * frameworks run most first: PyTorch's default on Ampere and later (an
 * FP32 model, TF32 convolutions, NCHW), mixed precision channels-last and
 * in the default layout, BF16 both ways, plain FP32; then the other two. */
#define SEER_BENCH_NCNN_CONFIGS 8
static const struct { int dtype, layout; } CNN_CONFIGS[SEER_BENCH_NCNN_CONFIGS] = {
    {SEER_DTYPE_TF32, 0}, {SEER_DTYPE_FP16, 1}, {SEER_DTYPE_FP16, 0}, {SEER_DTYPE_BF16, 0},
    {SEER_DTYPE_BF16, 1}, {SEER_DTYPE_FP32, 0}, {SEER_DTYPE_TF32, 1}, {SEER_DTYPE_FP32, 1}};

int seer_bench_plan_generate(uint64_t seed, int n_random, int cnn_copies, double max_flops,
                             seer_bench_plan_t *plan)
{
    static const int BATCH_V[6] = {1, 8, 32, 64, 128, 256}, BATCH_W[6] = {1, 1, 2, 2, 3, 2};
    static const char *const nets[6] = {NET_R18, NET_R50, NET_VGG, NET_INC, NET_MB2, NET_D121};
    uint64_t rs = seed ^ 0x5EE2B3C4D5E6F708ull;
    layers_t ls = {0};
    seer_bench_plan_t shapes = {0};
    seer_bench_conv_t cv;
    int rc = -1;
    memset(plan, 0, sizeof *plan);
    if (resnet(&ls, NET_R18, 0) || resnet(&ls, NET_R50, 1) || vgg16(&ls) || inception_v3(&ls) ||
        mobilenet_v2(&ls) || densenet121(&ls))
        goto done;

    /* CNN part: one (batch, dtype, layout) per network copy, so a network's
     * layers can be summed.  The first copy takes the six configurations
     * of CNN_CONFIGS, one per network in a seeded order (FP16 and BF16
     * in both layouts, TF32 and FP32 in NCHW); later copies shift along
     * the list, the second adding TF32 and FP32 in NHWC.  (Cycling
     * the four dtypes over the networks with the layouts alternating
     * tied each dtype to one layout: the Hopper sweeps have no TF32
     * NCHW, FP16 NCHW or BF16 NHWC layer.) */
    int cfg[6] = {0, 1, 2, 3, 4, 5};
    for (int i = 5; i > 0; i--) {
        int j = rng_int(&rs, 0, i), t = cfg[i];
        cfg[i] = cfg[j];
        cfg[j] = t;
    }
    for (int copy = 0; copy < cnn_copies; copy++)
        for (int ni = 0; ni < 6; ni++) {
            int c = (cfg[ni] + 6 * copy) % SEER_BENCH_NCNN_CONFIGS;
            int dtype = CNN_CONFIGS[c].dtype, layout = CNN_CONFIGS[c].layout;
            int batch = rng_pick(&rs, BATCH_V, BATCH_W, 6);
            for (;;) { /* the largest batch every layer of the network affords */
                int ok = 1;
                for (size_t li = 0; li < ls.n && ok; li++)
                    if (ls.v[li].net == nets[ni]) {
                        from_layer(&cv, &ls.v[li], batch, dtype, layout);
                        ok = fits(&cv, max_flops);
                    }
                if (ok || batch == 1) break;
                batch /= 2;
            }
            for (size_t li = 0; li < ls.n; li++)
                if (ls.v[li].net == nets[ni]) {
                    from_layer(&cv, &ls.v[li], batch, dtype, layout);
                    if (fits(&cv, max_flops) && plan_push(&shapes, &cv)) goto done;
                }
        }
    for (int i = 0; i < n_random; i++) {
        random_shape(&rs, &cv, max_flops);
        if (plan_push(&shapes, &cv)) goto done;
    }
    /* Seeded shuffle: the two parts interleave, so a budget cut that drops
     * the remaining random shapes still leaves both parts measured. */
    for (size_t i = shapes.n; i > 1; i--) {
        size_t j = (size_t)(rng_next(&rs) % i);
        seer_bench_conv_t t = shapes.v[i - 1];
        shapes.v[i - 1] = shapes.v[j];
        shapes.v[j] = t;
    }
    for (size_t i = 0; i < shapes.n; i++)
        for (int d = 0; d < SEER_BENCH_NDIR; d++) {
            cv = shapes.v[i];
            cv.dir = d;
            if (plan_push(plan, &cv)) goto done;
        }
    rc = 0;
done:
    free(ls.v);
    seer_bench_plan_free(&shapes);
    if (rc) seer_bench_plan_free(plan);
    return rc;
}

/* ---- plan files ------------------------------------------------------------ */

void seer_bench_plan_print(FILE *f, const seer_bench_plan_t *plan, const char *gpu)
{
    fputs("gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,"
          "groups,part,layer\n", f);
    for (size_t i = 0; i < plan->n; i++) {
        const seer_bench_conv_t *cv = &plan->v[i];
        char key[256];
        seer_bench_conv_key(cv, key, sizeof key);
        seer_bench_csv_str(f, gpu ? gpu : "");
        fprintf(f, ",%s,%s,", key, seer_bench_part_names[cv->part]);
        seer_bench_csv_str(f, cv->layer);
        fputc('\n', f);
    }
}

static int parse_int(const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    while (*end == ' ') end++;
    if (end == s || *end || errno || v < INT_MIN || v > INT_MAX) return -1;
    *out = (int)v;
    return 0;
}

static const char *const CONV_COLS[SEER_BENCH_CONV_NCOLS] = {
    "direction", "dtype", "layout", "n", "c", "h", "w", "k", "r", "s", "pad_h", "pad_w",
    "stride_h", "stride_w", "dil_h", "dil_w", "groups", "part", "layer"};
enum { C_DIR, C_DTYPE, C_LAYOUT, C_N, C_C, C_H, C_W, C_K, C_R, C_S, C_PH, C_PW, C_SH, C_SW,
       C_DH, C_DW, C_G, C_PART, C_LAYER };

const char *seer_bench_conv_columns(char **hdr, int nhdr, int col[SEER_BENCH_CONV_NCOLS])
{
    /* required columns; the others default to 0 pads, unit strides and
     * dilations, one group, all three directions, part=cnn */
    static const int required[SEER_BENCH_CONV_NCOLS] = {0, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    for (int i = 0; i < SEER_BENCH_CONV_NCOLS; i++) {
        col[i] = seer_bench_csv_col(hdr, nhdr, CONV_COLS[i]);
        if (col[i] < 0 && required[i]) return CONV_COLS[i];
    }
    return NULL;
}

int seer_bench_conv_row(const int col[SEER_BENCH_CONV_NCOLS], char **f, int nf, seer_bench_conv_t *cv,
                        int *dir, char *why, size_t len)
{
    static const int required[SEER_BENCH_CONV_NCOLS] = {0, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    memset(cv, 0, sizeof *cv);
    int *ints[SEER_BENCH_CONV_NCOLS] = {0};
    ints[C_N] = &cv->n; ints[C_C] = &cv->c; ints[C_H] = &cv->h; ints[C_W] = &cv->w;
    ints[C_K] = &cv->k; ints[C_R] = &cv->r; ints[C_S] = &cv->s; ints[C_PH] = &cv->pad_h;
    ints[C_PW] = &cv->pad_w; ints[C_SH] = &cv->stride_h; ints[C_SW] = &cv->stride_w;
    ints[C_DH] = &cv->dil_h; ints[C_DW] = &cv->dil_w; ints[C_G] = &cv->groups;
    cv->stride_h = cv->stride_w = cv->dil_h = cv->dil_w = cv->groups = 1;
    *dir = -1;
    for (int i = 0; i < SEER_BENCH_CONV_NCOLS; i++) {
        const char *v = col[i] >= 0 && col[i] < nf ? f[col[i]] : "";
        if (!*v) {
            if (required[i]) {
                snprintf(why, len, "column '%s' is empty", CONV_COLS[i]);
                return -1;
            }
            continue;
        }
        int bad = 0;
        switch (i) {
        case C_DIR: bad = (*dir = seer_bench_name_index(seer_bench_dir_names, 3, v)) < 0; break;
        case C_DTYPE: bad = (cv->dtype = seer_bench_name_index(seer_bench_dtype_names, SEER_BENCH_NDTYPE, v)) < 0; break;
        case C_LAYOUT: bad = (cv->layout = seer_bench_name_index(seer_bench_layout_names, 2, v)) < 0; break;
        case C_PART: bad = (cv->part = seer_bench_name_index(seer_bench_part_names, 2, v)) < 0; break;
        case C_LAYER: snprintf(cv->layer, sizeof cv->layer, "%s", v); break;
        default: bad = parse_int(v, ints[i]) != 0; break;
        }
        if (bad) {
            snprintf(why, len, "column '%s': bad value '%s'", CONV_COLS[i], v);
            return -1;
        }
    }
    if (*dir >= 0) cv->dir = *dir;
    return seer_bench_conv_check(cv, why, len);
}

int seer_bench_plan_load(const char *path, seer_bench_plan_t *plan, char *err, size_t errlen)
{
    int col[SEER_BENCH_CONV_NCOLS];
    char *line = NULL, *f[256], *h[256];
    size_t cap = 0;
    long lineno = 0;
    int nh = 0, rc = -1;
    char *hdr = NULL;
    int got;
    memset(plan, 0, sizeof *plan);
    FILE *fp = seer_bench_open_input(path, SEER_BENCH_PLAN_MAX_BYTES, err, errlen);
    if (!fp) return -1;
    while ((got = seer_bench_getline(fp, &line, &cap)) > 0) {
        lineno++;
        size_t len = strlen(line);
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
        if (!len || line[0] == '#') continue;
        if (!hdr) {
            if (!(hdr = strdup(line))) { snprintf(err, errlen, "out of memory"); goto out; }
            nh = seer_bench_csv_split(hdr, h, 256);
            if (nh < 0) { snprintf(err, errlen, "%s:%ld: bad CSV quoting in header", path, lineno); goto out; }
            const char *missing = seer_bench_conv_columns(h, nh, col);
            if (missing) {
                snprintf(err, errlen, "%s:%ld: missing column '%s'", path, lineno, missing);
                goto out;
            }
            continue;
        }
        int nf = seer_bench_csv_split(line, f, 256);
        if (nf < 0) { snprintf(err, errlen, "%s:%ld: bad CSV quoting", path, lineno); goto out; }
        seer_bench_conv_t cv;
        int dir;
        char why[160];
        if (seer_bench_conv_row(col, f, nf, &cv, &dir, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s:%ld: %s", path, lineno, why);
            goto out;
        }
        for (int d = 0; d < SEER_BENCH_NDIR; d++) {
            if (dir >= 0 && d != dir) continue;
            cv.dir = d;
            if (plan_push(plan, &cv)) { snprintf(err, errlen, "out of memory"); goto out; }
        }
    }
    if (got < 0) {
        snprintf(err, errlen, "%s:%ld: line longer than %d bytes (not a plan file?)", path,
                 lineno + 1, SEER_BENCH_LINE_MAX);
        goto out;
    }
    if (ferror(fp)) { snprintf(err, errlen, "%s: read error", path); goto out; }
    if (!hdr) { snprintf(err, errlen, "%s: no header line", path); goto out; }
    if (!plan->n) { snprintf(err, errlen, "%s: no plan entries", path); goto out; }
    rc = 0;
out:
    free(line);
    free(hdr);
    fclose(fp);
    if (rc) seer_bench_plan_free(plan);
    return rc;
}

int seer_bench_plan_cnn_first(seer_bench_plan_t *plan)
{
    if (!plan->n) return 0;
    seer_bench_conv_t *v = malloc(plan->n * sizeof *v);
    if (!v) return -1;
    size_t k = 0;
    for (int part = SEER_BENCH_PART_CNN; part <= SEER_BENCH_PART_RANDOM; part++)
        for (size_t i = 0; i < plan->n; i++)
            if ((plan->v[i].part == SEER_BENCH_PART_CNN) == (part == SEER_BENCH_PART_CNN)) v[k++] = plan->v[i];
    memcpy(plan->v, v, plan->n * sizeof *v);
    free(v);
    return 0;
}
