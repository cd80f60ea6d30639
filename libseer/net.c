/* Networks: the description parser and shape inference (docs/networks.md)
 * and the prediction of one inference or training iteration.
 *
 * A description is read line by line into layers whose inputs are named
 * layers of earlier lines: the graph is acyclic by construction, and
 * shapes are inferred in one pass.  A prediction walks the layers
 * forward (then backward, in reverse, for training): convolutions through
 * the conv model and the picker, fully connected layers through the GEMM
 * model, everything else as memory-bound kernels. */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "classify.h"
#include "common.h"
#include "conv.h"
#include "gemm.h"
#include "gpu.h"
#include "launch.h"
#include "model.h"
#include "net.h"
#include "picker.h"

const char *seer_op_name(seer_op_t op)
{
    static const char *const names[] = {"input", "conv", "batchnorm", "activation", "pool", "add",
                                        "concat", "fc", "softmax", "dropout", "flatten", "mul"};
    return (unsigned)op < sizeof names / sizeof *names ? names[op] : "?";
}

/* ------------------------------------------------------------------ */
/* Parser                                                              */
/* ------------------------------------------------------------------ */

enum { K_NAME, K_IN, K_K, K_R, K_S, K_SIZE, K_STRIDE, K_STRIDE_H, K_STRIDE_W, K_PAD, K_PAD_H,
       K_PAD_W, K_DIL, K_DIL_H, K_DIL_W, K_GROUPS, K_BIAS, K_C, K_H, K_W, K_OUT, K_GLOBAL, K_CEIL,
       K_P, K_MODE, NKEYS };
static const char *const key_names[NKEYS] = {
    "name", "in", "k", "r", "s", "size", "stride", "stride_h", "stride_w", "pad", "pad_h",
    "pad_w", "dil", "dil_h", "dil_w", "groups", "bias", "c", "h", "w", "out", "global", "ceil",
    "p", "mode"};

#define B(k) (1u << (k))
#define WINDOW (B(K_R) | B(K_S) | B(K_SIZE) | B(K_STRIDE) | B(K_STRIDE_H) | B(K_STRIDE_W) | \
                B(K_PAD) | B(K_PAD_H) | B(K_PAD_W))
#define BASIC (B(K_NAME) | B(K_IN))

static const struct {
    const char *word;
    seer_op_t op;
    int kind;
    unsigned keys;
} types[] = {
    {"input", SEER_OP_INPUT, 0, B(K_NAME) | B(K_C) | B(K_H) | B(K_W)},
    {"conv", SEER_OP_CONV, 0, BASIC | B(K_K) | WINDOW | B(K_DIL) | B(K_DIL_H) | B(K_DIL_W) |
                                  B(K_GROUPS) | B(K_BIAS)},
    {"bn", SEER_OP_BATCHNORM, 0, BASIC},
    {"batchnorm", SEER_OP_BATCHNORM, 0, BASIC},
    {"relu", SEER_OP_ACTIVATION, SEER_ACT_RELU, BASIC},
    {"relu6", SEER_OP_ACTIVATION, SEER_ACT_RELU6, BASIC},
    {"sigmoid", SEER_OP_ACTIVATION, SEER_ACT_SIGMOID, BASIC},
    {"tanh", SEER_OP_ACTIVATION, SEER_ACT_TANH, BASIC},
    {"gelu", SEER_OP_ACTIVATION, SEER_ACT_GELU, BASIC},
    {"silu", SEER_OP_ACTIVATION, SEER_ACT_SILU, BASIC},
    {"hardswish", SEER_OP_ACTIVATION, SEER_ACT_HARDSWISH, BASIC},
    {"hardsigmoid", SEER_OP_ACTIVATION, SEER_ACT_HARDSIGMOID, BASIC},
    {"leakyrelu", SEER_OP_ACTIVATION, SEER_ACT_LEAKYRELU, BASIC},
    {"elu", SEER_OP_ACTIVATION, SEER_ACT_ELU, BASIC},
    {"pool", SEER_OP_POOL, -1, BASIC | WINDOW | B(K_OUT) | B(K_GLOBAL) | B(K_CEIL) | B(K_MODE)},
    {"add", SEER_OP_ADD, 0, BASIC},
    {"concat", SEER_OP_CONCAT, 0, BASIC},
    {"mul", SEER_OP_MUL, 0, BASIC},
    {"fc", SEER_OP_FC, 0, BASIC | B(K_K) | B(K_BIAS)},
    {"linear", SEER_OP_FC, 0, BASIC | B(K_K) | B(K_BIAS)},
    {"softmax", SEER_OP_SOFTMAX, 0, BASIC},
    {"dropout", SEER_OP_DROPOUT, 0, BASIC | B(K_P)},
    {"flatten", SEER_OP_FLATTEN, 0, BASIC},
};
#define NTYPES ((int)(sizeof types / sizeof *types))

typedef struct {
    seer_handle_t h;
    int line;
    struct seer_network *net;
    int cap;
    int in_n, in_cap;
    int *slot;                  /* name hash: layer index + 1; 0 empty */
    size_t nslot;
    int named_line;             /* line of the `network` directive, 0 if none */
    char *buf;                  /* the current line, NUL-terminated, tokenized in place */
    size_t buf_cap;
    const char *cur;            /* name of the layer being read, for messages */
} ps_t;

typedef struct {
    unsigned seen;
    long v[NKEYS];
    const char *name;
    char *in;
    int mode;                   /* pool: -1 unset, else SEER_POOL_* */
    double p;
} opts_t;

/* Printable copy of a token for a message. */
static const char *show(const char *s, char *buf, size_t size)
{
    size_t i = 0;
    for (; s[i] && i + 4 < size && i < 40; i++) buf[i] = s[i] > 32 && s[i] < 127 ? s[i] : '?';
    if (s[i] && i + 4 <= size) { memcpy(buf + i, "...", 3); i += 3; }
    buf[i] = 0;
    return buf;
}

static seer_status_t perr(ps_t *ps, seer_status_t st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static seer_status_t perr(ps_t *ps, seer_status_t st, const char *fmt, ...)
{
    char msg[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (ps->cur) return seer_error(ps->h, st, "line %d (layer '%s'): %s", ps->line, ps->cur, msg);
    return seer_error(ps->h, st, "line %d: %s", ps->line, msg);
}

static uint64_t name_hash(const char *s)
{
    return seer_fnv1a(SEER_FNV_OFFSET, s, strlen(s));
}

/* Index of a named layer, or -1. */
static int find(const ps_t *ps, const char *name)
{
    if (!ps->nslot) return -1;
    for (size_t i = (size_t)name_hash(name) & (ps->nslot - 1);; i = (i + 1) & (ps->nslot - 1)) {
        if (!ps->slot[i]) return -1;
        if (!strcmp(ps->net->l[ps->slot[i] - 1].info.name, name)) return ps->slot[i] - 1;
    }
}

static int remember(ps_t *ps, int idx)
{
    if (2 * (size_t)(idx + 1) > ps->nslot) {
        size_t ns = ps->nslot ? 2 * ps->nslot : 256;
        int *slot = calloc(ns, sizeof *slot);
        if (!slot) return 0;
        for (int j = 0; j < idx; j++) {
            size_t i = (size_t)name_hash(ps->net->l[j].info.name) & (ns - 1);
            while (slot[i]) i = (i + 1) & (ns - 1);
            slot[i] = j + 1;
        }
        free(ps->slot);
        ps->slot = slot;
        ps->nslot = ns;
    }
    size_t i = (size_t)name_hash(ps->net->l[idx].info.name) & (ps->nslot - 1);
    while (ps->slot[i]) i = (i + 1) & (ps->nslot - 1);
    ps->slot[i] = idx + 1;
    return 1;
}

static int name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n < 1 || n > 47) return 0;
    for (; *s; s++) {
        char c = *s;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              strchr("_.:/+-", c)))
            return 0;
    }
    return 1;
}

/* key=value with an integer value in [lo, hi]: NET_PARSE when it is no
 * number or below lo (or a flag out of 0/1), OVERFLOW above hi. */
static seer_status_t parse_int(ps_t *ps, int key, const char *v, long lo, long hi, long *out)
{
    char b[64];
    const char *p = v;
    int neg = *p == '-';
    if (neg) p++;
    if (!*p) return perr(ps, SEER_STATUS_NET_PARSE, "%s=%s: expected an integer", key_names[key], show(v, b, sizeof b));
    long long x = 0;
    for (; *p; p++) {
        if (*p < '0' || *p > '9')
            return perr(ps, SEER_STATUS_NET_PARSE, "%s=%s: expected an integer", key_names[key],
                        show(v, b, sizeof b));
        if (x < 1000000000000LL) x = x * 10 + (*p - '0');
    }
    if (neg) x = -x;
    if (lo == 0 && hi == 1 && (x < 0 || x > 1))
        return perr(ps, SEER_STATUS_NET_PARSE, "%s=%s: expected 0 or 1", key_names[key], show(v, b, sizeof b));
    if (x < lo)
        return perr(ps, SEER_STATUS_NET_PARSE, "%s must be >= %ld (got %s)", key_names[key], lo,
                    show(v, b, sizeof b));
    if (x > hi)
        return perr(ps, SEER_STATUS_OVERFLOW, "%s=%s is over the limit %ld", key_names[key],
                    show(v, b, sizeof b), hi);
    *out = (long)x;
    return SEER_STATUS_SUCCESS;
}

static seer_status_t parse_opt(ps_t *ps, int ti, char *tok, opts_t *o)
{
    char b[64];
    char *eq = strchr(tok, '=');
    if (!eq) {
        if (types[ti].op == SEER_OP_POOL && (!strcmp(tok, "max") || !strcmp(tok, "avg"))) {
            if (o->seen & B(K_MODE)) return perr(ps, SEER_STATUS_NET_PARSE, "pool: mode given twice");
            o->seen |= B(K_MODE);
            o->mode = tok[0] == 'm' ? SEER_POOL_MAX : SEER_POOL_AVG;
            return SEER_STATUS_SUCCESS;
        }
        if (types[ti].op == SEER_OP_POOL && !strcmp(tok, "global")) {
            if (o->seen & B(K_GLOBAL)) return perr(ps, SEER_STATUS_NET_PARSE, "pool: global given twice");
            o->seen |= B(K_GLOBAL);
            o->v[K_GLOBAL] = 1;
            return SEER_STATUS_SUCCESS;
        }
        return perr(ps, SEER_STATUS_NET_PARSE, "%s: unexpected word '%s' (options are key=value)",
                    types[ti].word, show(tok, b, sizeof b));
    }
    *eq = 0;
    const char *v = eq + 1;
    int key;
    for (key = 0; key < NKEYS && strcmp(tok, key_names[key]); key++) {}
    if (key == NKEYS || !(types[ti].keys & B(key)))
        return perr(ps, SEER_STATUS_NET_PARSE, "%s: unknown option '%s'", types[ti].word,
                    show(tok, b, sizeof b));
    if (o->seen & B(key))
        return perr(ps, SEER_STATUS_NET_PARSE, "%s: option %s given twice", types[ti].word, key_names[key]);
    o->seen |= B(key);
    switch (key) {
    case K_NAME:
        if (!name_ok(v))
            return perr(ps, SEER_STATUS_NET_PARSE,
                        "name '%s': 1 to 47 characters of letters, digits and _ . : / + -",
                        show(v, b, sizeof b));
        o->name = v;
        return SEER_STATUS_SUCCESS;
    case K_IN:
        o->in = (char *)v;
        return SEER_STATUS_SUCCESS;
    case K_MODE:
        if (strcmp(v, "max") && strcmp(v, "avg"))
            return perr(ps, SEER_STATUS_NET_PARSE, "mode=%s: expected max or avg", show(v, b, sizeof b));
        o->mode = v[0] == 'm' ? SEER_POOL_MAX : SEER_POOL_AVG;
        return SEER_STATUS_SUCCESS;
    case K_P: {
        char *end;
        double p = strtod(v, &end);
        if (!*v || *end || !(p >= 0 && p < 1))
            return perr(ps, SEER_STATUS_NET_PARSE, "p=%s: expected a probability in [0, 1)", show(v, b, sizeof b));
        o->p = p;
        return SEER_STATUS_SUCCESS;
    }
    case K_BIAS: case K_GLOBAL: case K_CEIL:
        return parse_int(ps, key, v, 0, 1, &o->v[key]);
    case K_PAD: case K_PAD_H: case K_PAD_W:
        return parse_int(ps, key, v, 0, SEER_NET_MAX_DIM, &o->v[key]);
    default:
        return parse_int(ps, key, v, 1, SEER_NET_MAX_DIM, &o->v[key]);
    }
}

/* One of a pair of options (e.g. stride_h) or the shared one (stride). */
static seer_status_t pair(ps_t *ps, const opts_t *o, int both, int one, long dflt, long *out)
{
    if ((o->seen & B(both)) && (o->seen & B(one)))
        return perr(ps, SEER_STATUS_NET_PARSE, "options %s and %s both given", key_names[both],
                    key_names[one]);
    *out = o->seen & B(one) ? o->v[one] : o->seen & B(both) ? o->v[both] : dflt;
    return SEER_STATUS_SUCCESS;
}

/* Window (r x s, stride, pad) of a conv or pool; dflt_stride 0: the window. */
static seer_status_t window(ps_t *ps, const opts_t *o, int dflt_stride, seer_layer_info_t *L)
{
    seer_status_t st;
    long r, s, sh, sw, ph, pw;
    if ((st = pair(ps, o, K_SIZE, K_R, 0, &r)) || (st = pair(ps, o, K_SIZE, K_S, 0, &s))) return st;
    if (!r && !s)
        return perr(ps, SEER_STATUS_NET_PARSE, "%s needs a window: r= and s=, or size=",
                    seer_op_name(L->op));
    if (!r) r = s;
    if (!s) s = r;
    if ((st = pair(ps, o, K_STRIDE, K_STRIDE_H, dflt_stride ? dflt_stride : r, &sh)) ||
        (st = pair(ps, o, K_STRIDE, K_STRIDE_W, dflt_stride ? dflt_stride : s, &sw)) ||
        (st = pair(ps, o, K_PAD, K_PAD_H, 0, &ph)) || (st = pair(ps, o, K_PAD, K_PAD_W, 0, &pw)))
        return st;
    L->r = (int)r; L->s = (int)s;
    L->stride_h = (int)sh; L->stride_w = (int)sw;
    L->pad_h = (int)ph; L->pad_w = (int)pw;
    return SEER_STATUS_SUCCESS;
}

static const char *in_name(const ps_t *ps, const seer_net_layer_t *l, int i)
{
    return ps->net->l[ps->net->in_pool[l->in_off + i]].info.name;
}

/* Output size of a window over one dimension; 0 when it does not fit. */
static int64_t out_dim(int64_t in, int64_t pad, int64_t span, int64_t stride, int ceil_mode)
{
    int64_t padded = in + 2 * pad;
    if (padded < span) return 0;
    int64_t o = (padded - span + (ceil_mode ? stride - 1 : 0)) / stride + 1;
    /* PyTorch: the last window must start inside the input or left padding */
    if (ceil_mode && (o - 1) * stride >= in + pad) o--;
    return o;
}

/* A conv layer's options and output size (c, hh, w: its input). */
static seer_status_t infer_conv(ps_t *ps, seer_layer_info_t *L, const opts_t *o, int64_t *oc,
                                int64_t *oh, int64_t *ow)
{
    seer_status_t st;
    int64_t c = L->in_c, hh = L->in_h, w = L->in_w;
    if (!(o->seen & B(K_K))) return perr(ps, SEER_STATUS_NET_PARSE, "conv needs k= (output channels)");
    long dh, dw;
    if ((st = window(ps, o, 1, L)) || (st = pair(ps, o, K_DIL, K_DIL_H, 1, &dh)) ||
        (st = pair(ps, o, K_DIL, K_DIL_W, 1, &dw)))
        return st;
    L->k = (int)o->v[K_K];
    L->dil_h = (int)dh; L->dil_w = (int)dw;
    L->groups = o->seen & B(K_GROUPS) ? (int)o->v[K_GROUPS] : 1;
    L->bias = o->seen & B(K_BIAS) ? (int)o->v[K_BIAS] : 0;
    if (c % L->groups || L->k % L->groups)
        return perr(ps, SEER_STATUS_BAD_GROUPS, "conv: groups=%d must divide the input channels "
                    "(%lld) and k (%d)", L->groups, (long long)c, L->k);
    int64_t sh = (int64_t)L->dil_h * (L->r - 1) + 1, sw = (int64_t)L->dil_w * (L->s - 1) + 1;
    *oh = out_dim(hh, L->pad_h, sh, L->stride_h, 0);
    *ow = out_dim(w, L->pad_w, sw, L->stride_w, 0);
    if (!*oh || !*ow)
        return perr(ps, SEER_STATUS_NET_SHAPE, "conv: the %lldx%lld (dilated) filter does not fit "
                    "the padded %lldx%lld input", (long long)sh, (long long)sw,
                    (long long)(hh + 2 * L->pad_h), (long long)(w + 2 * L->pad_w));
    *oc = L->k;
    L->params = (long long)L->k * (c / L->groups) * L->r * L->s + (L->bias ? L->k : 0);
    return SEER_STATUS_SUCCESS;
}

/* A pooling layer: a window, or global / adaptive (out=) pooling. */
static seer_status_t infer_pool(ps_t *ps, seer_net_layer_t *l, const opts_t *o, int64_t *oh, int64_t *ow)
{
    seer_status_t st;
    seer_layer_info_t *L = &l->info;
    int64_t hh = L->in_h, w = L->in_w;
    if (!(o->seen & B(K_MODE))) return perr(ps, SEER_STATUS_NET_PARSE, "pool needs max or avg");
    l->kind = o->mode;
    if (o->v[K_GLOBAL] || (o->seen & B(K_OUT))) {
        if (o->seen & (WINDOW | B(K_CEIL)))
            return perr(ps, SEER_STATUS_NET_PARSE, "pool: global or out= pooling takes no window options");
        l->pool_out = o->v[K_GLOBAL] ? 1 : (int)o->v[K_OUT];
        if (o->v[K_GLOBAL] && (o->seen & B(K_OUT)) && o->v[K_OUT] != 1)
            return perr(ps, SEER_STATUS_NET_PARSE, "pool: global means out=1");
        *oh = *ow = l->pool_out;
        L->r = (int)hh; L->s = (int)w; /* what one output sees, at most */
        L->stride_h = L->stride_w = 1;
        return SEER_STATUS_SUCCESS;
    }
    if ((st = window(ps, o, 0, L))) return st;
    if (2 * L->pad_h > L->r || 2 * L->pad_w > L->s)
        return perr(ps, SEER_STATUS_NET_PARSE, "pool: pad must be at most half the window");
    int cm = (int)o->v[K_CEIL];
    *oh = out_dim(hh, L->pad_h, L->r, L->stride_h, cm);
    *ow = out_dim(w, L->pad_w, L->s, L->stride_w, cm);
    if (!*oh || !*ow)
        return perr(ps, SEER_STATUS_NET_SHAPE, "pool: the %dx%d window does not fit the "
                    "padded %lldx%lld input", L->r, L->s, (long long)(hh + 2 * L->pad_h),
                    (long long)(w + 2 * L->pad_w));
    return SEER_STATUS_SUCCESS;
}

static seer_status_t infer(ps_t *ps, seer_net_layer_t *l, const opts_t *o)
{
    seer_layer_info_t *L = &l->info;
    seer_status_t st;
    char b1[64], b2[64];
    int64_t c = L->in_c, hh = L->in_h, w = L->in_w, oc = c, oh = hh, ow = w;
    switch (L->op) {
    case SEER_OP_INPUT:
        if ((o->seen & (B(K_C) | B(K_H) | B(K_W))) != (B(K_C) | B(K_H) | B(K_W)))
            return perr(ps, SEER_STATUS_NET_PARSE, "input needs c=, h= and w=");
        oc = o->v[K_C]; oh = o->v[K_H]; ow = o->v[K_W];
        break;
    case SEER_OP_CONV:
        if ((st = infer_conv(ps, L, o, &oc, &oh, &ow))) return st;
        break;
    case SEER_OP_BATCHNORM:
        L->params = 2 * c;
        break;
    case SEER_OP_POOL:
        if ((st = infer_pool(ps, l, o, &oh, &ow))) return st;
        break;
    case SEER_OP_ADD:
        for (int i = 1; i < L->n_inputs; i++) {
            const seer_layer_info_t *I = &ps->net->l[ps->net->in_pool[l->in_off + i]].info;
            if (I->c != c || I->h != hh || I->w != w)
                return perr(ps, SEER_STATUS_NET_SHAPE, "add: input '%s' is %dx%dx%d but '%s' is "
                            "%lldx%lldx%lld", show(I->name, b1, sizeof b1), I->c, I->h, I->w,
                            show(in_name(ps, l, 0), b2, sizeof b2), (long long)c, (long long)hh,
                            (long long)w);
        }
        break;
    case SEER_OP_MUL: { /* x * y, y of x's shape or c x 1 x 1: a per-channel gate */
        const seer_layer_info_t *I = &ps->net->l[ps->net->in_pool[l->in_off + 1]].info;
        if (I->c != c || !((I->h == hh && I->w == w) || (I->h == 1 && I->w == 1)))
            return perr(ps, SEER_STATUS_NET_SHAPE, "mul: input '%s' is %dx%dx%d; '%s' is %lldx%lldx%lld "
                        "(the second must have the first's shape or be %lldx1x1)", show(I->name, b1, sizeof b1),
                        I->c, I->h, I->w, show(in_name(ps, l, 0), b2, sizeof b2), (long long)c, (long long)hh,
                        (long long)w, (long long)c);
        break;
    }
    case SEER_OP_CONCAT:
        for (int i = 1; i < L->n_inputs; i++) {
            const seer_layer_info_t *I = &ps->net->l[ps->net->in_pool[l->in_off + i]].info;
            if (I->h != hh || I->w != w)
                return perr(ps, SEER_STATUS_NET_SHAPE, "concat: input '%s' is %dx%d but '%s' is "
                            "%lldx%lld (height x width must agree)", show(I->name, b1, sizeof b1),
                            I->h, I->w, show(in_name(ps, l, 0), b2, sizeof b2), (long long)hh,
                            (long long)w);
            oc += I->c;
        }
        break;
    case SEER_OP_FC:
        if (!(o->seen & B(K_K))) return perr(ps, SEER_STATUS_NET_PARSE, "fc needs k= (outputs)");
        L->k = (int)o->v[K_K];
        L->bias = o->seen & B(K_BIAS) ? (int)o->v[K_BIAS] : 1;
        L->params = (long long)(c * hh * w) * L->k + (L->bias ? L->k : 0);
        oc = L->k;
        oh = ow = 1;
        break;
    case SEER_OP_FLATTEN:
        oc = c * hh * w;
        oh = ow = 1;
        break;
    default: /* activation, softmax, dropout: same shape */
        break;
    }
    if (oc > INT32_MAX || oh > SEER_NET_MAX_DIM || ow > SEER_NET_MAX_DIM ||
        (L->op != SEER_OP_FLATTEN && oc > SEER_NET_MAX_DIM) || oc * oh > INT32_MAX ||
        oc * oh * ow > INT32_MAX)
        return perr(ps, SEER_STATUS_OVERFLOW, "%s: output %lldx%lldx%lld is over the limits (2^24 "
                    "per size, 2^31-1 elements per sample)", seer_op_name(L->op), (long long)oc,
                    (long long)oh, (long long)ow);
    L->c = (int)oc;
    L->h = (int)oh;
    L->w = (int)ow;
    return SEER_STATUS_SUCCESS;
}

static seer_status_t add_input(ps_t *ps, int idx)
{
    if (ps->in_n == ps->in_cap) {
        int nc = ps->in_cap ? 2 * ps->in_cap : 256;
        int *np = realloc(ps->net->in_pool, (size_t)nc * sizeof *np);
        if (!np) return seer_error(ps->h, SEER_STATUS_ALLOC_FAILED, "network inputs");
        ps->net->in_pool = np;
        ps->in_cap = nc;
    }
    ps->net->in_pool[ps->in_n++] = idx;
    return SEER_STATUS_SUCCESS;
}

/* A layer's inputs: named ones must be defined above (so no cycle can
 * be written); by default the layer on the line before.  Its input size
 * is its first input's output. */
static seer_status_t link_inputs(ps_t *ps, seer_net_layer_t *l, char *in, const char *word)
{
    char b[64];
    seer_status_t st;
    struct seer_network *net = ps->net;
    seer_layer_info_t *L = &l->info;
    if (in) {
        for (char *p = in;;) {
            char *comma = strchr(p, ',');
            if (comma) *comma = 0;
            if (!*p) return perr(ps, SEER_STATUS_NET_PARSE, "in=: empty layer name in the list");
            int idx = find(ps, p);
            if (idx < 0)
                return perr(ps, SEER_STATUS_NET_INPUT, "input '%s' is not defined above "
                            "(inputs must be layers of earlier lines)%s", show(p, b, sizeof b),
                            !strcmp(p, L->name) ? "; a layer cannot use itself" : "");
            if (L->n_inputs >= SEER_NET_MAX_INPUTS)
                return perr(ps, SEER_STATUS_OVERFLOW, "more than %d inputs", SEER_NET_MAX_INPUTS);
            if ((st = add_input(ps, idx))) return st;
            L->n_inputs++;
            if (!comma) break;
            p = comma + 1;
        }
    } else {
        if (net->n == 0)
            return perr(ps, SEER_STATUS_NET_INPUT, "%s has no input: no layer above it and "
                        "no in=", word);
        if ((st = add_input(ps, net->n - 1))) return st;
        L->n_inputs = 1;
    }
    int want_min = L->op == SEER_OP_ADD || L->op == SEER_OP_MUL ? 2 : 1;
    int many = L->op == SEER_OP_ADD || L->op == SEER_OP_CONCAT || L->op == SEER_OP_MUL;
    if (L->n_inputs < want_min)
        return perr(ps, SEER_STATUS_NET_INPUT, "%s needs at least two inputs (in=a,b)", word);
    if (L->op == SEER_OP_MUL && L->n_inputs != 2)
        return perr(ps, SEER_STATUS_NET_PARSE, "mul takes two inputs (got %d)", L->n_inputs);
    if (!many && L->n_inputs > 1)
        return perr(ps, SEER_STATUS_NET_PARSE, "%s takes one input (got %d)", word, L->n_inputs);
    L->input0 = net->in_pool[l->in_off];
    const seer_layer_info_t *I = &net->l[L->input0].info;
    L->in_c = I->c;
    L->in_h = I->h;
    L->in_w = I->w;
    return SEER_STATUS_SUCCESS;
}

/* One layer line, already split: tok[0] is the type. */
static seer_status_t layer_line(ps_t *ps, char **tok, int ntok)
{
    char b[64];
    seer_status_t st;
    struct seer_network *net = ps->net;
    if (!strcmp(tok[0], "network")) {
        if (ps->named_line)
            return perr(ps, SEER_STATUS_NET_PARSE, "network named again (first on line %d)", ps->named_line);
        if (ntok != 2 || strncmp(tok[1], "name=", 5) || !name_ok(tok[1] + 5))
            return perr(ps, SEER_STATUS_NET_PARSE, "expected `network name=NAME` (1 to 47 characters "
                        "of letters, digits and _ . : / + -)");
        seer_strlcpy(net->name, tok[1] + 5, sizeof net->name);
        ps->named_line = ps->line;
        return SEER_STATUS_SUCCESS;
    }
    int ti;
    for (ti = 0; ti < NTYPES && strcmp(tok[0], types[ti].word); ti++) {}
    if (ti == NTYPES)
        return perr(ps, SEER_STATUS_NET_PARSE, "unknown layer type '%s' (known: network input conv "
                    "bn relu relu6 sigmoid tanh gelu silu hardswish hardsigmoid leakyrelu elu pool "
                    "add mul concat fc softmax dropout flatten)",
                    show(tok[0], b, sizeof b));
    opts_t o;
    memset(&o, 0, sizeof o);
    o.mode = -1;
    for (int i = 1; i < ntok; i++)
        if ((st = parse_opt(ps, ti, tok[i], &o))) return st;

    if (net->n >= SEER_NET_MAX_LAYERS)
        return perr(ps, SEER_STATUS_OVERFLOW, "more than %d layers", SEER_NET_MAX_LAYERS);
    if (net->n == ps->cap) {
        int nc = ps->cap ? 2 * ps->cap : 64;
        seer_net_layer_t *nl = realloc(net->l, (size_t)nc * sizeof *nl);
        if (!nl) return seer_error(ps->h, SEER_STATUS_ALLOC_FAILED, "network layers");
        net->l = nl;
        ps->cap = nc;
    }
    seer_net_layer_t *l = &net->l[net->n];
    memset(l, 0, sizeof *l);
    seer_layer_info_t *L = &l->info;
    L->op = types[ti].op;
    L->line = ps->line;
    l->kind = types[ti].kind;
    L->input0 = -1;
    if (o.name) seer_strlcpy(L->name, o.name, sizeof L->name);
    else snprintf(L->name, sizeof L->name, "%s_L%d", types[ti].word, ps->line);
    int prev = find(ps, L->name);
    if (prev >= 0)
        return perr(ps, SEER_STATUS_NET_PARSE, "layer name '%s' already used on line %d", L->name,
                    net->l[prev].info.line);

    ps->cur = L->name;
    l->in_off = ps->in_n;
    if (L->op != SEER_OP_INPUT && (st = link_inputs(ps, l, o.in, types[ti].word))) return st;
    if ((st = infer(ps, l, &o))) return st;
    ps->cur = NULL;
    net->n++;
    if (!remember(ps, net->n - 1)) {
        net->n--;
        return seer_error(ps->h, SEER_STATUS_ALLOC_FAILED, "network names");
    }
    return SEER_STATUS_SUCCESS;
}

static seer_status_t parse(ps_t *ps, const char *text, size_t len)
{
    const char *p = text, *end = text + len;
    char **tok = NULL;
    int tok_cap = 0;
    seer_status_t st = SEER_STATUS_SUCCESS;
    for (ps->line = 1; p < end && !st; ps->line++) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol) eol = end;
        size_t n = (size_t)(eol - p);
        if (memchr(p, 0, n)) { st = perr(ps, SEER_STATUS_NET_PARSE, "NUL byte"); break; }
        if (ps->line == INT32_MAX) { st = perr(ps, SEER_STATUS_OVERFLOW, "too many lines"); break; }
        if (n + 1 > ps->buf_cap) {
            char *nb = realloc(ps->buf, n + 1);
            if (!nb) { st = seer_error(ps->h, SEER_STATUS_ALLOC_FAILED, "network line"); break; }
            ps->buf = nb;
            ps->buf_cap = n + 1;
        }
        memcpy(ps->buf, p, n);
        ps->buf[n] = 0;
        p = eol + 1;
        char *hash = strchr(ps->buf, '#');
        if (hash) *hash = 0;
        int ntok = 0;
        for (char *q = ps->buf;;) {
            while (*q && strchr(" \t\r\v\f", *q)) q++;
            if (!*q) break;
            if (ntok == tok_cap) {
                int nc = tok_cap ? 2 * tok_cap : 16;
                char **nt = realloc(tok, (size_t)nc * sizeof *nt);
                if (!nt) { st = seer_error(ps->h, SEER_STATUS_ALLOC_FAILED, "network tokens"); break; }
                tok = nt;
                tok_cap = nc;
            }
            tok[ntok++] = q;
            while (*q && !strchr(" \t\r\v\f", *q)) q++;
            if (!*q) break;
            *q++ = 0;
        }
        ps->cur = NULL;
        if (!st && ntok) st = layer_line(ps, tok, ntok);
    }
    free(tok);
    if (!st && ps->net->n == 0)
        st = seer_error(ps->h, SEER_STATUS_NET_PARSE, "network description has no layers");
    return st;
}

seer_status_t seer_network_destroy(seer_network_t net)
{
    if (!net) return SEER_STATUS_SUCCESS;
    free(net->l);
    free(net->in_pool);
    free(net);
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_network_create(seer_handle_t h, const char *text, size_t len, seer_network_t *out)
{
    if (!out || (!text && len))
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_network_create: %s is NULL", !out ? "net" : "text");
    struct seer_network *net = calloc(1, sizeof *net);
    if (!net) return seer_error(h, SEER_STATUS_ALLOC_FAILED, "network");
    ps_t ps;
    memset(&ps, 0, sizeof ps);
    ps.h = h;
    ps.net = net;
    seer_status_t st = parse(&ps, text ? text : "", len);
    free(ps.slot);
    free(ps.buf);
    if (st) {
        seer_network_destroy(net);
        return st;
    }
    /* Who uses whom, who needs a gradient, and the summary. */
    seer_network_info_t *I = &net->info;
    seer_strlcpy(I->name, net->name[0] ? net->name : "network", sizeof I->name);
    I->n_layers = net->n;
    I->in_c = I->in_h = I->in_w = 0;
    for (int i = 0; i < net->n; i++) {
        seer_net_layer_t *l = &net->l[i];
        const seer_layer_info_t *L = &l->info;
        int grad = L->op == SEER_OP_CONV || L->op == SEER_OP_FC || L->op == SEER_OP_BATCHNORM;
        for (int j = 0; j < L->n_inputs; j++) {
            seer_net_layer_t *in = &net->l[net->in_pool[l->in_off + j]];
            in->fanout++;
            grad |= in->needs_grad;
        }
        l->needs_grad = L->op != SEER_OP_INPUT && grad;
        if (L->op == SEER_OP_INPUT && !I->in_c) { I->in_c = L->c; I->in_h = L->h; I->in_w = L->w; }
        I->n_conv += L->op == SEER_OP_CONV;
        I->n_fc += L->op == SEER_OP_FC;
        if (L->params > INT64_MAX / 4 - I->params) {
            seer_network_destroy(net);
            return seer_error(h, SEER_STATUS_OVERFLOW, "line %d: the network has over 2^61 parameters", L->line);
        }
        I->params += L->params;
        if (L->op == SEER_OP_CONV)
            I->fwd_flops += 2.0 * L->c * L->h * L->w * (double)(L->in_c / L->groups) * L->r * L->s;
        else if (L->op == SEER_OP_FC)
            I->fwd_flops += 2.0 * L->k * (double)L->in_c * L->in_h * L->in_w;
    }
    *out = net;
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_network_create_zoo(seer_handle_t h, const char *name, int res, seer_network_t *out)
{
    if (!name || !out)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_network_create_zoo: %s is NULL", !name ? "name" : "net");
    char *text;
    size_t len;
    seer_status_t st = seer_zoo_text(h, name, res, &text, &len);
    if (st) return st;
    st = seer_network_create(h, text, len, out);
    free(text);
    if (st == SEER_STATUS_NET_SHAPE || st == SEER_STATUS_OVERFLOW) {
        char msg[900];
        seer_get_last_error_copy(h, msg, sizeof msg);
        return seer_error(h, st, "%s at %dx%d: %s (resolution too %s)", name, res, res, msg,
                          st == SEER_STATUS_NET_SHAPE ? "small" : "large");
    }
    return st;
}

seer_status_t seer_network_zoo_text(seer_handle_t h, const char *name, int res, char *buf,
                                    size_t size, size_t *length)
{
    if (!name || !length || (!buf && size))
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_network_zoo_text: %s is NULL",
                          !name ? "name" : !length ? "length" : "buf");
    char *text;
    size_t len;
    seer_status_t st = seer_zoo_text(h, name, res, &text, &len);
    if (st) return st;
    *length = len;
    if (size < len + 1) {
        free(text);
        return seer_error(h, SEER_STATUS_BUFFER_TOO_SMALL, "the text has %zu bytes, room for %zu",
                          len + 1, size);
    }
    memcpy(buf, text, len + 1);
    free(text);
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_network_layer_count(const seer_network *net, int *count)
{
    if (!net || !count) return SEER_STATUS_BAD_PARAM;
    *count = net->n;
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_network_get_layer(const seer_network *net, int index, seer_layer_info_t *info)
{
    if (!net || !info || index < 0 || index >= net->n) return SEER_STATUS_BAD_PARAM;
    *info = net->l[index].info;
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_network_get_info(const seer_network *net, seer_network_info_t *info)
{
    if (!net || !info) return SEER_STATUS_BAD_PARAM;
    *info = net->info;
    return SEER_STATUS_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Backward from forward                                               */
/* ------------------------------------------------------------------ */

/* Generated by seer_bwd_ratio_fit over ../shared/data/conv/v100-sxm2-16gb.csv
 * (DeepBench, cuDNN 7.6.2, V100 SXM2: fwd, bwd_data and bwd_filter of the
 * same layers).  tests/test_net.c refits it from the data and fails,
 * printing the new table, if these numbers no longer match. */
const char seer_bwd_ratio_source[] = "DeepBench v100-sxm2-16gb (cuDNN 7.6.2)";
const seer_bwd_ratio_t seer_bwd_ratio[2][2] = {
    {{0.95328271459900016, 0.0097065292267272812, 80}, {1.0132346304891222, 0.0058614032469571243, 80}},
    {{0.86630640233782696, 0.027026022083579699, 90}, {0.94490073563906263, 0.0027171380539230835, 90}},
};

typedef struct {
    const seer_conv_row_t *r;
    double t;
} keyed_t;

static int same_shape(const seer_conv_row_t *a, const seer_conv_row_t *b)
{
    return !strcmp(a->gpu, b->gpu) && a->dtype == b->dtype && a->layout == b->layout &&
           a->n == b->n && a->c == b->c && a->h == b->h && a->w == b->w && a->k == b->k &&
           a->r == b->r && a->s == b->s && a->pad_h == b->pad_h && a->pad_w == b->pad_w &&
           a->stride_h == b->stride_h && a->stride_w == b->stride_w && a->dil_h == b->dil_h &&
           a->dil_w == b->dil_w && a->groups == b->groups;
}

void seer_bwd_ratio_fit(const seer_conv_row_t *rows, size_t n, seer_bwd_ratio_t out[2][2])
{
    /* Per (direction, math): normal equations of min sum((a f + b - y) / y)^2. */
    double G[2][2][3][3];
    int cnt[2][2];
    memset(G, 0, sizeof G);
    memset(cnt, 0, sizeof cnt);
    for (size_t i = 0; i < n; i++) {
        const seer_conv_row_t *f = &rows[i];
        if (f->dir != SEER_DIR_FWD || !(f->time_ms > 0)) continue;
        /* the fastest fwd row of this shape, seen once: its first occurrence */
        int first = 1;
        double tf = f->time_ms;
        for (size_t j = 0; j < n; j++) {
            if (rows[j].dir != SEER_DIR_FWD || !(rows[j].time_ms > 0) || !same_shape(f, &rows[j])) continue;
            if (j < i) { first = 0; break; }
            if (rows[j].time_ms < tf) tf = rows[j].time_ms;
        }
        if (!first) continue;
        for (int d = 0; d < 2; d++) {
            double tb = -1;
            for (size_t j = 0; j < n; j++)
                if ((int)rows[j].dir == d + 1 && rows[j].time_ms > 0 && same_shape(f, &rows[j]) &&
                    (tb < 0 || rows[j].time_ms < tb))
                    tb = rows[j].time_ms;
            if (tb < 0) continue;
            int mt = seer_dtype_math(f->dtype);
            double x[2] = {tf / tb, 1.0 / tb}; /* relative: (a f + b) / y - 1 */
            for (int a = 0; a < 2; a++) {
                for (int b = 0; b < 2; b++) G[d][mt][a][b] += x[a] * x[b];
                G[d][mt][a][2] += x[a];
            }
            cnt[d][mt]++;
        }
    }
    for (int d = 0; d < 2; d++)
        for (int mt = 0; mt < 2; mt++) {
            seer_bwd_ratio_t *o = &out[d][mt];
            double (*A)[3] = G[d][mt];
            o->n = cnt[d][mt];
            o->a = 1;
            o->b = 0;
            if (!o->n) continue;
            double det = A[0][0] * A[1][1] - A[0][1] * A[1][0];
            double a = det != 0 ? (A[0][2] * A[1][1] - A[0][1] * A[1][2]) / det : -1;
            double b = det != 0 ? (A[0][0] * A[1][2] - A[1][0] * A[0][2]) / det : -1;
            if (a >= 0 && b >= 0) { o->a = a; o->b = b; continue; }
            /* one coefficient only: the better non-negative of b = 0 and a = 0 */
            double a0 = A[0][0] > 0 ? A[0][2] / A[0][0] : 0, b0 = A[1][1] > 0 ? A[1][2] / A[1][1] : 0;
            double ea = a0 * a0 * A[0][0] - 2 * a0 * A[0][2], eb = b0 * b0 * A[1][1] - 2 * b0 * A[1][2];
            if (a0 > 0 && ea <= eb) { o->a = a0; o->b = 0; }
            else { o->a = 0; o->b = b0 > 0 ? b0 : 0; }
        }
}

/* ------------------------------------------------------------------ */
/* Prediction                                                          */
/* ------------------------------------------------------------------ */

typedef struct {
    int algo;
    double t;
    int nk;
    seer_class_t cls;
    unsigned flags;
} choice_t;

/* One (conv shape, direction) to predict: networks repeat shapes, and
 * predictions are pure, so each distinct one is predicted once. */
typedef struct {
    struct seer_conv cv;
    seer_direction_t dir;
    choice_t ch;
    seer_status_t st;
} job_t;

typedef struct {
    int key[17];
    int job;                    /* index + 1; 0: empty slot */
} memo_t;

typedef struct {
    seer_handle_t h;
    const struct seer_model *m;
    const struct seer_network *net;
    int batch, policy, threads;
    seer_dtype_t dt;
    seer_layout_t layout;
    seer_mode_t mode;
    double es, bw, peak;
    seer_layer_result_t *r;
    int n, cap;
    memo_t *memo;
    size_t nmemo;
    job_t *jobs;
    int njobs, jobs_cap;
} pctx_t;

static seer_layer_result_t *row(pctx_t *c, int li, seer_direction_t dir)
{
    if (c->n == c->cap) {
        int nc = c->cap ? 2 * c->cap : 64;
        seer_layer_result_t *nr = realloc(c->r, (size_t)nc * sizeof *nr);
        if (!nr) return NULL;
        c->r = nr;
        c->cap = nc;
    }
    seer_layer_result_t *o = &c->r[c->n++];
    const seer_layer_info_t *L = &c->net->l[li].info;
    memset(o, 0, sizeof *o);
    o->layer = li;
    seer_strlcpy(o->name, L->name, sizeof o->name);
    o->op = L->op;
    o->direction = dir;
    o->algo = SEER_ALGO_NA;
    return o;
}

static seer_status_t oom(pctx_t *c) { return seer_error(c->h, SEER_STATUS_ALLOC_FAILED, "network results"); }

/* A memory-bound kernel group: `kernels` launches moving `bytes`; elems
 * (the largest tensor) decides whether it can fill the GPU. */
static seer_status_t mem_row(pctx_t *c, int li, seer_direction_t dir, int kernels, double bytes,
                             double elems, unsigned flags)
{
    seer_layer_result_t *o = row(c, li, dir);
    if (!o) return oom(c);
    const seer_gpu_info_t *g = &c->m->gpu;
    /* one thread per 4 elements, 256 threads per block */
    double blocks = ceil(elems / 1024), bmax = (double)(g->threads_per_sm / 256) * g->sms;
    o->n_kernels = kernels;
    o->bytes = bytes;
    o->cls = seer_class_static(blocks, bmax, 0, bytes);
    o->time_ms = kernels * SEER_NET_KERNEL_MS + bytes / (c->bw * SEER_NET_MEM_EFFICIENCY) * 1e3;
    o->flags = SEER_RESULT_MEMORY_BOUND | flags;
    return SEER_STATUS_SUCCESS;
}

static seer_status_t gemm_row(pctx_t *c, int li, seer_direction_t dir, double m, double n, double k,
                              int bias)
{
    char what[80];
    snprintf(what, sizeof what, "layer '%s' (line %d)", c->net->l[li].info.name, c->net->l[li].info.line);
    seer_status_t st = seer_gemm_check_size(c->h, what, m, n, k);
    if (st) return st;
    seer_layer_result_t *o = row(c, li, dir);
    if (!o) return oom(c);
    const seer_gemm_fit_t *f = &c->m->gemm[seer_dtype_math(c->dt)];
    o->n_kernels = 1;
    o->flops = 2 * m * n * k;
    o->bytes = (m * k + k * n + m * n) * c->es;
    if (f->present) {
        o->time_ms = seer_gemm_time(&c->m->gpu, f, 1, m, n, k, c->dt, bias, &o->cls);
    } else {
        double tc = o->flops / (c->peak * SEER_NET_GEMM_EFFICIENCY),
               tm = o->bytes / (c->bw * SEER_NET_MEM_EFFICIENCY);
        o->time_ms = SEER_NET_KERNEL_MS + fmax(tc, tm) * 1e3;
        o->cls = tc >= tm ? SEER_CLASS_COMPUTE : SEER_CLASS_DRAM;
        o->flags = SEER_RESULT_GEMM_ROOFLINE;
    }
    return SEER_STATUS_SUCCESS;
}


/* Keep prediction e.  A backward pass only the analytical model can time
 * is left to the a * forward + b fallback instead (NOT_CALIBRATED): a
 * measured forward pass times a measured ratio beats a formula no GPU
 * has checked. */
static seer_status_t take(choice_t *c, const seer_algo_eval_t *e, seer_direction_t dir)
{
    if (e->source == SEER_SOURCE_ANALYTICAL && dir != SEER_DIR_FWD) return SEER_STATUS_NOT_CALIBRATED;
    c->algo = e->algo;
    c->t = e->time_ms;
    c->nk = e->n_kernels;
    c->cls = e->cls;
    if (e->source == SEER_SOURCE_ANALYTICAL) c->flags |= SEER_RESULT_ANALYTICAL;
    return SEER_STATUS_SUCCESS;
}

/* The algorithm and time of one conv direction under the policy.
 * Soft failures come back without a message. */
static seer_status_t choose(pctx_t *c, const struct seer_conv *cv, seer_direction_t dir, choice_t *ch)
{
    seer_algo_eval_t e;
    memset(ch, 0, sizeof *ch);
    if (c->policy != SEER_ALGO_AUTO) {
        if (c->policy == SEER_ALGO_CUDNN_CHOICE || c->policy < seer_algo_count(dir)) {
            seer_picker_predict(c->m, cv, dir, c->policy, &e);
            if (!e.st) return take(ch, &e, dir);
            if (!seer_picker_soft(e.st)) return e.st;
        }
        ch->flags |= SEER_RESULT_ALGO_REPLACED;
    }
    seer_status_t st = seer_picker_best(c->m, cv, dir, &e);
    return st ? st : take(ch, &e, dir);
}

static uint64_t key_hash(const int *k)
{
    return seer_fnv1a(SEER_FNV_OFFSET, k, 17 * sizeof *k);
}

/* The job of (cv, dir): found, or added when add is set.  -1 when absent
 * (or out of memory while adding). */
static int job_of(pctx_t *c, const struct seer_conv *cv, seer_direction_t dir, int add)
{
    int key[17] = {cv->c, cv->h, cv->w, cv->k, cv->r, cv->s, cv->pad_h, cv->pad_w, cv->stride_h,
                   cv->stride_w, cv->dil_h, cv->dil_w, cv->groups, (int)dir, 0, 0, 0};
    size_t i = (size_t)key_hash(key) & (c->nmemo - 1);
    for (; c->memo[i].job; i = (i + 1) & (c->nmemo - 1))
        if (!memcmp(c->memo[i].key, key, sizeof key)) return c->memo[i].job - 1;
    if (!add) return -1;
    if (c->njobs == c->jobs_cap) {
        int nc = c->jobs_cap ? 2 * c->jobs_cap : 64;
        job_t *nj = realloc(c->jobs, (size_t)nc * sizeof *nj);
        if (!nj) return -1;
        c->jobs = nj;
        c->jobs_cap = nc;
    }
    job_t *j = &c->jobs[c->njobs];
    memset(j, 0, sizeof *j);
    j->cv = *cv;
    j->dir = dir;
    memcpy(c->memo[i].key, key, sizeof key);
    c->memo[i].job = ++c->njobs;
    return c->njobs - 1;
}

typedef struct {
    pctx_t *c;
    pthread_mutex_t lock;
    int next;                   /* next job to hand out */
} pool_t;

static void *work(void *arg)
{
    pool_t *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        int i = p->next++;
        pthread_mutex_unlock(&p->lock);
        if (i >= p->c->njobs) return NULL;
        job_t *j = &p->c->jobs[i];
        j->st = choose(p->c, &j->cv, j->dir, &j->ch);
    }
}

/* Predict every job, on up to c->threads threads (no more than the CPU
 * has) taking jobs as they finish (each job is independent and pure:
 * results do not depend on who computed them). */
static void run_jobs(pctx_t *c)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int t = (int)(ncpu < 1 ? 1 : ncpu > c->threads ? c->threads : ncpu);
    if (t > (c->njobs + 7) / 8) t = (c->njobs + 7) / 8;
    pool_t p = {c, PTHREAD_MUTEX_INITIALIZER, 0};
    pthread_t tid[SEER_NET_THREADS];
    int started = 0;
    while (started + 1 < t && !pthread_create(&tid[started], NULL, work, &p)) started++;
    work(&p);
    for (int i = 0; i < started; i++) pthread_join(tid[i], NULL);
    pthread_mutex_destroy(&p.lock);
}

/* Re-run the failing prediction with the handle for the model's own
 * message, and put the layer in front of it. */
static seer_status_t layer_fail(pctx_t *c, int li, const struct seer_conv *cv, seer_direction_t dir,
                                seer_status_t st)
{
    const seer_layer_info_t *L = &c->net->l[li].info;
    char msg[800] = "";
    if (cv) {
        double t;
        int algo = c->policy >= 0 && c->policy < seer_algo_count(dir) ? c->policy : 0;
        if (seer_predict_conv(c->h, c->m, cv, dir, algo, &t, NULL, 0, NULL))
            seer_get_last_error_copy(c->h, msg, sizeof msg);
    }
    return seer_error(c->h, st, "layer '%s' (line %d, %s %s): %s", L->name, L->line,
                      seer_op_name(L->op), seer_direction_name(dir),
                      msg[0] ? msg : seer_status_string(st));
}

static seer_status_t conv_desc(pctx_t *c, int li, struct seer_conv *cv)
{
    const seer_layer_info_t *L = &c->net->l[li].info;
    seer_status_t st = seer_conv_init(c->h, cv, c->dt, c->layout, c->batch, L->in_c, L->in_h, L->in_w,
                                      L->k, L->r, L->s, L->pad_h, L->pad_w, L->stride_h, L->stride_w,
                                      L->dil_h, L->dil_w, L->groups);
    if (st) {
        char msg[800];
        seer_get_last_error_copy(c->h, msg, sizeof msg);
        return seer_error(c->h, st, "layer '%s' (line %d) at batch %d: %s", L->name, L->line,
                          c->batch, msg);
    }
    return SEER_STATUS_SUCCESS;
}

/* The conv predictions a network needs, as jobs. */
static seer_status_t collect_jobs(pctx_t *c)
{
    for (int li = 0; li < c->net->n; li++) {
        const seer_layer_info_t *L = &c->net->l[li].info;
        if (L->op != SEER_OP_CONV) continue;
        struct seer_conv cv;
        seer_status_t st = conv_desc(c, li, &cv);
        if (st) return st;
        for (int d = 0; d < (c->mode == SEER_MODE_TRAIN ? 3 : 1); d++) {
            if (d == SEER_DIR_BWD_DATA && !c->net->l[L->input0].needs_grad) continue;
            if (job_of(c, &cv, (seer_direction_t)d, 1) < 0) return oom(c);
        }
    }
    return SEER_STATUS_SUCCESS;
}

static seer_status_t conv_rows(pctx_t *c, int li, int backward)
{
    const seer_layer_info_t *L = &c->net->l[li].info;
    struct seer_conv cv;
    seer_status_t st = conv_desc(c, li, &cv);
    if (st) return st;
    int jf = job_of(c, &cv, SEER_DIR_FWD, 0);
    if (jf < 0) return seer_error(c->h, SEER_STATUS_INTERNAL, "layer '%s': no prediction job", L->name);
    if ((st = c->jobs[jf].st)) return layer_fail(c, li, &cv, SEER_DIR_FWD, st);
    const choice_t fwd = c->jobs[jf].ch;
    for (int d = backward ? 1 : 0; d < (backward ? 3 : 1); d++) {
        seer_direction_t dir = (seer_direction_t)d;
        /* no gradient for the data of a layer whose input needs none */
        if (dir == SEER_DIR_BWD_DATA && !c->net->l[L->input0].needs_grad) continue;
        choice_t ch = fwd;
        if (dir != SEER_DIR_FWD) {
            int j = job_of(c, &cv, dir, 0);
            if (j < 0) return seer_error(c->h, SEER_STATUS_INTERNAL, "layer '%s': no prediction job", L->name);
            ch = c->jobs[j].ch;
            if ((st = c->jobs[j].st)) {
                if (st != SEER_STATUS_NOT_CALIBRATED) return layer_fail(c, li, &cv, dir, st);
                /* backward = a * forward + b (docs/networks.md) */
                int mt = seer_dtype_math(c->dt);
                const seer_bwd_ratio_t *q = &seer_bwd_ratio[d - 1][mt];
                if (!q->n) q = &seer_bwd_ratio[d - 1][!mt];
                ch = fwd;
                ch.algo = SEER_ALGO_CUDNN_CHOICE;
                ch.nk = 0;
                ch.t = q->a * fwd.t + q->b;
                ch.flags = (fwd.flags & (SEER_RESULT_ALGO_REPLACED | SEER_RESULT_ANALYTICAL)) |
                           SEER_RESULT_BWD_FROM_FWD;
            }
        }
        seer_layer_result_t *o = row(c, li, dir);
        if (!o) return oom(c);
        o->algo = ch.algo;
        o->n_kernels = ch.nk;
        o->cls = ch.cls;
        o->time_ms = ch.t;
        o->flags = ch.flags;
        o->flops = seer_conv_flops(&cv);
        o->bytes = seer_conv_min_bytes(&cv, dir);
    }
    return SEER_STATUS_SUCCESS;
}

/* Forward (backward = 0) or backward rows of one layer. */
static seer_status_t layer_rows(pctx_t *c, int li, int backward)
{
    const seer_net_layer_t *l = &c->net->l[li];
    const seer_layer_info_t *L = &l->info;
    double N = c->batch, es = c->es;
    double ein = N * L->in_c * L->in_h * L->in_w, eout = N * L->c * L->h * L->w;
    int train = c->mode == SEER_MODE_TRAIN;
    seer_direction_t bd = SEER_DIR_BWD_DATA;
    if (backward && L->op != SEER_OP_CONV && L->op != SEER_OP_FC && L->op != SEER_OP_BATCHNORM &&
        !l->needs_grad)
        return SEER_STATUS_SUCCESS;
    switch (L->op) {
    case SEER_OP_INPUT:
    case SEER_OP_FLATTEN: /* a view */
        return SEER_STATUS_SUCCESS;
    case SEER_OP_CONV:
        return conv_rows(c, li, backward);
    case SEER_OP_FC: {
        double in = (double)L->in_c * L->in_h * L->in_w, k = L->k;
        seer_status_t st;
        if (!backward) return gemm_row(c, li, SEER_DIR_FWD, N, k, in, L->bias);
        if (c->net->l[L->input0].needs_grad && (st = gemm_row(c, li, SEER_DIR_BWD_DATA, N, in, k, 0)))
            return st;
        return gemm_row(c, li, SEER_DIR_BWD_FILTER, k, in, N, 0);
    }
    case SEER_OP_BATCHNORM:
        /* training: statistics pass + normalize pass; backward: a
         * reduction pass over x, dy and one writing dx */
        if (backward) return mem_row(c, li, bd, 2, 5 * ein * es, ein, 0);
        return train ? mem_row(c, li, SEER_DIR_FWD, 2, 3 * ein * es, ein, 0)
                     : mem_row(c, li, SEER_DIR_FWD, 1, 2 * ein * es, ein, 0);
    case SEER_OP_ACTIVATION:
    case SEER_OP_SOFTMAX: /* backward reads y and dy, writes dx */
        return backward ? mem_row(c, li, bd, 1, 3 * ein * es, ein, 0)
                        : mem_row(c, li, SEER_DIR_FWD, 1, 2 * ein * es, ein, 0);
    case SEER_OP_POOL: {
        double e = fmax(ein, eout);
        if (!backward) return mem_row(c, li, SEER_DIR_FWD, 1, (ein + eout) * es, e, 0);
        /* cuDNN's max pooling backward reads x, y and dy */
        return l->kind == SEER_POOL_MAX ? mem_row(c, li, bd, 1, 2 * (ein + eout) * es, e, 0)
                                        : mem_row(c, li, bd, 1, (ein + eout) * es, e, 0);
    }
    case SEER_OP_ADD: /* pairwise adds; the gradient passes through unchanged */
        if (backward) return SEER_STATUS_SUCCESS;
        return mem_row(c, li, SEER_DIR_FWD, L->n_inputs - 1, 3 * (L->n_inputs - 1) * eout * es, eout, 0);
    case SEER_OP_MUL: { /* reads x and y, writes x * y; backward: dx = dy * y and dy = sum(dy * x) */
        const seer_layer_info_t *Y = &c->net->l[c->net->in_pool[l->in_off + 1]].info;
        double ey = N * Y->c * Y->h * Y->w;
        if (!backward) return mem_row(c, li, SEER_DIR_FWD, 1, (2 * eout + ey) * es, eout, 0);
        return mem_row(c, li, bd, 2, 2 * (2 * eout + ey) * es, eout, 0);
    }
    case SEER_OP_CONCAT: /* copies; its backward hands out views */
        if (backward) return SEER_STATUS_SUCCESS;
        return mem_row(c, li, SEER_DIR_FWD, L->n_inputs, 2 * eout * es, eout, 0);
    case SEER_OP_DROPOUT: /* training only: x and a byte mask */
        if (!train) return SEER_STATUS_SUCCESS;
        return mem_row(c, li, backward ? bd : SEER_DIR_FWD, 1, ein * (2 * es + 1), ein, 0);
    }
    return seer_error(c->h, SEER_STATUS_INTERNAL, "layer '%s': unknown op %d", L->name, (int)L->op);
}

/* How much later a two-stage pipeline ends than the GPU rows' sum when
 * the host needs d ms to dispatch each row (seer.h). */
static double dispatch_wait(const seer_layer_result_t *r, int n, double d)
{
    double gpu_end = 0, sum = 0;
    for (int i = 0; i < n; i++) {
        double host_done = (i + 1) * d;
        gpu_end = (gpu_end > host_done ? gpu_end : host_done) + r[i].time_ms;
        sum += r[i].time_ms;
    }
    return gpu_end - sum > 0 ? gpu_end - sum : 0;
}

static seer_status_t check_options(seer_handle_t h, const seer_net_options_t *o)
{
    if (o->batch < 1 || o->batch > SEER_NET_MAX_DIM)
        return seer_error(h, o->batch < 1 ? SEER_STATUS_BAD_SHAPE : SEER_STATUS_OVERFLOW,
                          "batch must be in [1, 2^24] (got %d)", o->batch);
    if ((unsigned)o->dtype > SEER_DTYPE_FP16_PSEUDO)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "dtype %d out of range", (int)o->dtype);
    if ((unsigned)o->layout > SEER_LAYOUT_NHWC)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "layout %d out of range", (int)o->layout);
    if (o->mode != SEER_MODE_INFER && o->mode != SEER_MODE_TRAIN)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "mode %d out of range", (int)o->mode);
    if (o->algo_policy != SEER_ALGO_AUTO && o->algo_policy != SEER_ALGO_CUDNN_CHOICE &&
        (o->algo_policy < 0 || o->algo_policy >= SEER_FWD_ALGO_COUNT))
        return seer_error(h, SEER_STATUS_BAD_PARAM, "algo_policy %d: expected SEER_ALGO_AUTO, "
                          "SEER_ALGO_CUDNN_CHOICE or an algorithm index 0..%d", o->algo_policy,
                          SEER_FWD_ALGO_COUNT - 1);
    if (o->threads < 1 || o->threads > SEER_NET_THREADS)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "threads must be in [1, %d] (got %d)", SEER_NET_THREADS,
                          o->threads);
    if (!(o->dispatch_ms >= 0) || !isfinite(o->dispatch_ms))
        return seer_error(h, SEER_STATUS_BAD_PARAM, "dispatch_ms must be a finite number >= 0");
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_predict_network_opts(seer_handle_t h, const seer_model *m, const seer_network *net,
                                        const seer_net_options_t *opts, seer_layer_result_t *results,
                                        int capacity, seer_net_totals_t *totals)
{
    if (!m || !net || !opts || !totals)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_predict_network_opts: %s is NULL",
                          !m ? "model" : !net ? "net" : !opts ? "opts" : "totals");
    seer_status_t st = check_options(h, opts);
    if (st) return st;
    if (capacity < 0 || (!results && capacity > 0))
        return seer_error(h, SEER_STATUS_BAD_PARAM, "capacity must be >= 0, and 0 when results is NULL");

    pctx_t c;
    memset(&c, 0, sizeof c);
    c.h = h;
    c.m = m;
    c.net = net;
    c.batch = opts->batch;
    c.policy = opts->algo_policy;
    c.dt = opts->dtype;
    c.layout = opts->layout;
    c.mode = opts->mode;
    c.threads = opts->threads;
    c.es = seer_dtype_size(c.dt);
    c.bw = seer_gpu_dram_bw(&m->gpu);
    c.peak = seer_gpu_peak_flops(&m->gpu, c.dt);
    if (c.peak <= 0)
        return seer_error(h, SEER_STATUS_UNSUPPORTED, "%s cannot run %s math", m->gpu.id,
                          seer_dtype_name(c.dt));
    c.nmemo = 64;
    while (c.nmemo < 8 * (size_t)net->info.n_conv) c.nmemo *= 2;
    c.memo = calloc(c.nmemo, sizeof *c.memo);
    if (!c.memo) return oom(&c);

    st = collect_jobs(&c);
    if (!st) run_jobs(&c);
    for (int i = 0; i < net->n && !st; i++) st = layer_rows(&c, i, 0);
    if (c.mode == SEER_MODE_TRAIN)
        for (int i = net->n - 1; i >= 0 && !st; i--) {
            const seer_net_layer_t *l = &net->l[i];
            /* a tensor used by f layers gets f gradients to sum */
            if (l->fanout > 1 && l->needs_grad) {
                double e = (double)c.batch * l->info.c * l->info.h * l->info.w;
                st = mem_row(&c, i, SEER_DIR_BWD_DATA, l->fanout - 1, 3.0 * (l->fanout - 1) * e * c.es,
                             e, SEER_RESULT_GRAD_ACCUM);
            }
            if (!st) st = layer_rows(&c, i, 1);
        }
    free(c.memo);
    free(c.jobs);
    if (st) { free(c.r); return st; }
    seer_net_totals_t t = {.rows = c.n};
    for (int i = 0; i < c.n; i++) {
        t.gpu_ms += c.r[i].time_ms;
        if (c.r[i].op == SEER_OP_CONV) t.conv_ms += c.r[i].time_ms;
        else t.other_ms += c.r[i].time_ms;
    }
    t.dispatch_ms = dispatch_wait(c.r, c.n, opts->dispatch_ms);
    t.total_ms = t.gpu_ms + t.dispatch_ms;
    *totals = t;
    if (results && capacity < c.n) {
        free(c.r);
        return seer_error(h, SEER_STATUS_BUFFER_TOO_SMALL, "%d result rows, room for %d", c.n, capacity);
    }
    if (results && c.n) memcpy(results, c.r, (size_t)c.n * sizeof *results);
    free(c.r);
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_predict_network(seer_handle_t h, const seer_model *m, const seer_network *net,
                                   int batch, seer_dtype_t dt, seer_layout_t layout, seer_mode_t mode,
                                   int policy, seer_layer_result_t *results, int capacity,
                                   int *count, double *total_ms)
{
    if (!count || !total_ms)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_predict_network: %s is NULL",
                          !count ? "count" : "total_ms");
    seer_net_options_t o = SEER_NET_OPTIONS_DEFAULT;
    o.batch = batch;
    o.dtype = dt;
    o.layout = layout;
    o.mode = mode;
    o.algo_policy = policy;
    o.threads = SEER_NET_THREADS; /* as in 0.1: as many as the CPU has, up to 8 */
    seer_net_totals_t t;
    seer_status_t st = seer_predict_network_opts(h, m, net, &o, results, capacity, &t);
    if (st == SEER_STATUS_SUCCESS || st == SEER_STATUS_BUFFER_TOO_SMALL) {
        *count = t.rows;
        *total_ms = t.total_ms;
    }
    return st;
}
