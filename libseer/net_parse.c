/* Networks: the description parser and shape inference (docs/networks.md;
 * net_predict.c predicts them).
 *
 * A description is read line by line into layers whose inputs are named
 * layers of earlier lines: the graph is acyclic by construction, and
 * shapes are inferred in one pass. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "net.h"

const char *seer_op_name(seer_op_t op)
{
    static const char *const names[] = {"input", "conv", "batchnorm", "activation", "pool", "add",
                                        "concat", "fc", "softmax", "dropout", "flatten", "mul",
                                        "optimizer", "slice", "shuffle", "layernorm", "resize", "pad", "deconv", "groupnorm"};
    return (unsigned)op < sizeof names / sizeof *names ? names[op] : "?";
}

/* ------------------------------------------------------------------ */
/* Parser                                                              */
/* ------------------------------------------------------------------ */

enum { K_NAME, K_IN, K_K, K_R, K_S, K_SIZE, K_STRIDE, K_STRIDE_H, K_STRIDE_W, K_PAD, K_PAD_H,
       K_PAD_W, K_DIL, K_DIL_H, K_DIL_W, K_GROUPS, K_BIAS, K_C, K_H, K_W, K_OUT, K_GLOBAL, K_CEIL,
       K_P, K_MODE, K_FROM, K_POINTWISE, K_LEARNABLE, K_OUTPAD, K_OUTPAD_H, K_OUTPAD_W, K_UNFUSED, NKEYS };
static const char *const key_names[NKEYS] = {
    "name", "in", "k", "r", "s", "size", "stride", "stride_h", "stride_w", "pad", "pad_h",
    "pad_w", "dil", "dil_h", "dil_w", "groups", "bias", "c", "h", "w", "out", "global", "ceil",
    "p", "mode", "from", "pointwise", "learnable", "outpad", "outpad_h", "outpad_w", "unfused"};

/* seen and a type's keys are bit masks of unsigned */
_Static_assert(NKEYS <= 32, "an option key past bit 31");
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
    {"deconv", SEER_OP_DECONV, 0, BASIC | B(K_K) | WINDOW | B(K_DIL) | B(K_DIL_H) | B(K_DIL_W) |
                                      B(K_GROUPS) | B(K_BIAS) | B(K_OUTPAD) | B(K_OUTPAD_H) | B(K_OUTPAD_W)},
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
    {"prelu", SEER_OP_ACTIVATION, SEER_ACT_PRELU, BASIC | B(K_C)},
    {"lrn", SEER_OP_ACTIVATION, SEER_ACT_LRN, BASIC},
    {"scale", SEER_OP_ACTIVATION, SEER_ACT_SCALE, BASIC | B(K_LEARNABLE)},
    {"pool", SEER_OP_POOL, -1, BASIC | WINDOW | B(K_OUT) | B(K_GLOBAL) | B(K_CEIL) | B(K_MODE)},
    {"add", SEER_OP_ADD, 0, BASIC},
    {"concat", SEER_OP_CONCAT, 0, BASIC},
    {"mul", SEER_OP_MUL, 0, BASIC},
    {"fc", SEER_OP_FC, 0, BASIC | B(K_K) | B(K_BIAS) | B(K_POINTWISE)},
    {"linear", SEER_OP_FC, 0, BASIC | B(K_K) | B(K_BIAS) | B(K_POINTWISE)},
    {"layernorm", SEER_OP_LAYERNORM, 0, BASIC | B(K_UNFUSED)},
    {"groupnorm", SEER_OP_GROUPNORM, 0, BASIC | B(K_GROUPS) | B(K_LEARNABLE)},
    {"resize", SEER_OP_RESIZE, 0, BASIC | B(K_H) | B(K_W)},
    {"pad", SEER_OP_PAD, 0, BASIC | B(K_H) | B(K_W)},
    {"softmax", SEER_OP_SOFTMAX, 0, BASIC},
    {"dropout", SEER_OP_DROPOUT, 0, BASIC | B(K_P)},
    {"flatten", SEER_OP_FLATTEN, 0, BASIC},
    {"slice", SEER_OP_SLICE, 0, BASIC | B(K_C) | B(K_FROM)},
    {"shuffle", SEER_OP_SHUFFLE, 0, BASIC | B(K_GROUPS)},
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
    case K_BIAS: case K_GLOBAL: case K_CEIL: case K_POINTWISE: case K_LEARNABLE: case K_UNFUSED:
        return parse_int(ps, key, v, 0, 1, &o->v[key]);
    case K_PAD: case K_PAD_H: case K_PAD_W: case K_FROM: case K_OUTPAD: case K_OUTPAD_H: case K_OUTPAD_W:
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
    L->shape.r = (int)r; L->shape.s = (int)s;
    L->shape.stride_h = (int)sh; L->shape.stride_w = (int)sw;
    L->shape.pad_h = (int)ph; L->shape.pad_w = (int)pw;
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

/* The weights of a conv, k x c / groups x r x s, or of a deconv, c x
 * k / groups x r x s (the same count), and its bias, of an input of c
 * channels.  Checked: a window over a huge pad passes the output's
 * limits with r x s near 2^48, and the product would wrap. */
static seer_status_t conv_params(ps_t *ps, seer_layer_info_t *L, int64_t c)
{
    int64_t p;
    if (!seer_mul_ok(c / L->shape.groups, L->shape.k, &p) || !seer_mul_ok(p, L->shape.r, &p) ||
        !seer_mul_ok(p, L->shape.s, &p) || p > INT64_MAX / 4 - L->shape.k)
        return perr(ps, SEER_STATUS_OVERFLOW, "%s: weights over 2^61 parameters (%lld to %d channels, groups=%d, "
                    "%dx%d window)", seer_op_name(L->op), (long long)c, L->shape.k, L->shape.groups, L->shape.r,
                    L->shape.s);
    L->params = p + (L->bias ? L->shape.k : 0);
    return SEER_STATUS_SUCCESS;
}

/* A conv or deconv layer's options and output size (c, hh, w: its
 * input).  A deconv is PyTorch's ConvTranspose2d: each input pixel
 * scatters a k / groups x r x s window at stride steps, the output
 * trimmed by pad on each side and extended by outpad at the end. */
static seer_status_t infer_conv(ps_t *ps, seer_layer_info_t *L, const opts_t *o, int64_t *oc,
                                int64_t *oh, int64_t *ow)
{
    seer_status_t st;
    const char *op = seer_op_name(L->op);
    int64_t c = L->shape.c, hh = L->shape.h, w = L->shape.w;
    if (!(o->seen & B(K_K))) return perr(ps, SEER_STATUS_NET_PARSE, "%s needs k= (output channels)", op);
    long dh, dw, xh = 0, xw = 0;
    if ((st = window(ps, o, 1, L)) || (st = pair(ps, o, K_DIL, K_DIL_H, 1, &dh)) ||
        (st = pair(ps, o, K_DIL, K_DIL_W, 1, &dw)) || (st = pair(ps, o, K_OUTPAD, K_OUTPAD_H, 0, &xh)) ||
        (st = pair(ps, o, K_OUTPAD, K_OUTPAD_W, 0, &xw)))
        return st;
    L->shape.k = (int)o->v[K_K];
    L->shape.dil_h = (int)dh; L->shape.dil_w = (int)dw;
    L->shape.groups = o->seen & B(K_GROUPS) ? (int)o->v[K_GROUPS] : 1;
    L->bias = o->seen & B(K_BIAS) ? (int)o->v[K_BIAS] : 0;
    if (c % L->shape.groups || L->shape.k % L->shape.groups)
        return perr(ps, SEER_STATUS_BAD_GROUPS, "%s: groups=%d must divide the input channels "
                    "(%lld) and k (%d)", op, L->shape.groups, (long long)c, L->shape.k);
    int64_t sh = (int64_t)L->shape.dil_h * (L->shape.r - 1) + 1;
    int64_t sw = (int64_t)L->shape.dil_w * (L->shape.s - 1) + 1;
    *oc = L->shape.k;
    if (L->op == SEER_OP_DECONV) {
        /* under a stride, the conv it transposes maps the output back to
         * the input's size: cuDNN's backward data pass needs that (PyTorch
         * takes an outpad under the dilation too, a case left out) */
        if (xh >= L->shape.stride_h || xw >= L->shape.stride_w)
            return perr(ps, SEER_STATUS_NET_SHAPE, "deconv: outpad %ldx%ld must be under the stride %dx%d",
                        xh, xw, L->shape.stride_h, L->shape.stride_w);
        *oh = (hh - 1) * L->shape.stride_h + sh + xh - 2 * L->shape.pad_h;
        *ow = (w - 1) * L->shape.stride_w + sw + xw - 2 * L->shape.pad_w;
        if (*oh < 1 || *ow < 1)
            return perr(ps, SEER_STATUS_NET_SHAPE, "deconv: pad %dx%d leaves no output of the %lldx%lld "
                        "input", L->shape.pad_h, L->shape.pad_w, (long long)hh, (long long)w);
        return conv_params(ps, L, c);
    }
    *oh = out_dim(hh, L->shape.pad_h, sh, L->shape.stride_h, 0);
    *ow = out_dim(w, L->shape.pad_w, sw, L->shape.stride_w, 0);
    if (!*oh || !*ow)
        return perr(ps, SEER_STATUS_NET_SHAPE, "conv: the %lldx%lld (dilated) filter does not fit "
                    "the padded %lldx%lld input", (long long)sh, (long long)sw,
                    (long long)(hh + 2 * L->shape.pad_h), (long long)(w + 2 * L->shape.pad_w));
    return conv_params(ps, L, c);
}

/* A pooling layer: a window, or global / adaptive (out=) pooling. */
static seer_status_t infer_pool(ps_t *ps, seer_net_layer_t *l, const opts_t *o, int64_t *oh, int64_t *ow)
{
    seer_status_t st;
    seer_layer_info_t *L = &l->info;
    int64_t hh = L->shape.h, w = L->shape.w;
    if (!(o->seen & B(K_MODE))) return perr(ps, SEER_STATUS_NET_PARSE, "pool needs max or avg");
    l->kind = o->mode;
    if (o->v[K_GLOBAL] || (o->seen & B(K_OUT))) {
        if (o->seen & (WINDOW | B(K_CEIL)))
            return perr(ps, SEER_STATUS_NET_PARSE, "pool: global or out= pooling takes no window options");
        l->pool_out = o->v[K_GLOBAL] ? 1 : (int)o->v[K_OUT];
        if (o->v[K_GLOBAL] && (o->seen & B(K_OUT)) && o->v[K_OUT] != 1)
            return perr(ps, SEER_STATUS_NET_PARSE, "pool: global means out=1");
        *oh = *ow = l->pool_out;
        L->shape.r = (int)hh; L->shape.s = (int)w; /* what one output sees, at most */
        L->shape.stride_h = L->shape.stride_w = 1;
        return SEER_STATUS_SUCCESS;
    }
    if ((st = window(ps, o, 0, L))) return st;
    if (2 * L->shape.pad_h > L->shape.r || 2 * L->shape.pad_w > L->shape.s)
        return perr(ps, SEER_STATUS_NET_PARSE, "pool: pad must be at most half the window");
    int cm = (int)o->v[K_CEIL];
    *oh = out_dim(hh, L->shape.pad_h, L->shape.r, L->shape.stride_h, cm);
    *ow = out_dim(w, L->shape.pad_w, L->shape.s, L->shape.stride_w, cm);
    if (!*oh || !*ow)
        return perr(ps, SEER_STATUS_NET_SHAPE, "pool: the %dx%d window does not fit the "
                    "padded %lldx%lld input", L->shape.r, L->shape.s,
                    (long long)(hh + 2 * L->shape.pad_h), (long long)(w + 2 * L->shape.pad_w));
    return SEER_STATUS_SUCCESS;
}

static seer_status_t infer(ps_t *ps, seer_net_layer_t *l, const opts_t *o)
{
    seer_layer_info_t *L = &l->info;
    seer_status_t st;
    char b1[64], b2[64];
    int64_t c = L->shape.c, hh = L->shape.h, w = L->shape.w, oc = c, oh = hh, ow = w;
    switch (L->op) {
    case SEER_OP_INPUT:
        if ((o->seen & (B(K_C) | B(K_H) | B(K_W))) != (B(K_C) | B(K_H) | B(K_W)))
            return perr(ps, SEER_STATUS_NET_PARSE, "input needs c=, h= and w=");
        oc = o->v[K_C]; oh = o->v[K_H]; ow = o->v[K_W];
        break;
    case SEER_OP_CONV:
    case SEER_OP_DECONV:
        if ((st = infer_conv(ps, L, o, &oc, &oh, &ow))) return st;
        break;
    case SEER_OP_LAYERNORM: /* unfused=1: written out in its element-wise ops, each a kernel */
        l->kind = (int)o->v[K_UNFUSED];
        /* fall through */
    case SEER_OP_BATCHNORM: /* a scale and a shift per channel */
        L->params = 2 * c;
        break;
    case SEER_OP_GROUPNORM: /* ... unless learnable=0 (InstanceNorm2d's default) */
        if (!(o->seen & B(K_GROUPS))) return perr(ps, SEER_STATUS_NET_PARSE, "groupnorm needs groups=");
        if (c % o->v[K_GROUPS])
            return perr(ps, SEER_STATUS_BAD_GROUPS, "groupnorm: groups=%ld must divide the %lld channels",
                        o->v[K_GROUPS], (long long)c);
        L->shape.groups = (int)o->v[K_GROUPS];
        L->params = o->seen & B(K_LEARNABLE) && !o->v[K_LEARNABLE] ? 0 : 2 * c;
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
        L->shape.k = (int)o->v[K_K];
        L->bias = o->seen & B(K_BIAS) ? (int)o->v[K_BIAS] : 1;
        if (o->v[K_POINTWISE]) { /* one c -> k product per position: h x w stay */
            L->params = (long long)c * L->shape.k + (L->bias ? L->shape.k : 0);
        } else {
            L->params = (long long)(c * hh * w) * L->shape.k + (L->bias ? L->shape.k : 0);
            oh = ow = 1;
        }
        oc = L->shape.k;
        break;
    case SEER_OP_RESIZE:
    case SEER_OP_PAD: { /* h= and w= give the output's size; a pad's is at least the input's */
        int pad = L->op == SEER_OP_PAD, both = (o->seen & (B(K_H) | B(K_W))) == (B(K_H) | B(K_W));
        if (pad && (!both || o->v[K_H] < hh || o->v[K_W] < w))
            return perr(ps, both ? SEER_STATUS_NET_SHAPE : SEER_STATUS_NET_PARSE, "pad needs h= and w= (the "
                        "output's size) of at least the input's %lldx%lld", (long long)hh, (long long)w);
        if (!both) return perr(ps, SEER_STATUS_NET_PARSE, "resize needs h= and w= (the output's size)");
        oh = o->v[K_H];
        ow = o->v[K_W];
        break;
    }
    case SEER_OP_FLATTEN:
        oc = c * hh * w;
        oh = ow = 1;
        break;
    case SEER_OP_SLICE: /* channels from .. from + c - 1 */
        if (!(o->seen & B(K_C))) return perr(ps, SEER_STATUS_NET_PARSE, "slice needs c= (channels taken)");
        if (o->v[K_FROM] + o->v[K_C] > c)
            return perr(ps, SEER_STATUS_NET_SHAPE, "slice: channels %ld..%ld of an input of %lld", o->v[K_FROM],
                        o->v[K_FROM] + o->v[K_C] - 1, (long long)c);
        L->shape.k = (int)o->v[K_C];
        oc = L->shape.k;
        break;
    case SEER_OP_SHUFFLE:
        if (!(o->seen & B(K_GROUPS))) return perr(ps, SEER_STATUS_NET_PARSE, "shuffle needs groups=");
        if (c % o->v[K_GROUPS])
            return perr(ps, SEER_STATUS_NET_SHAPE, "shuffle needs groups= dividing the %lld channels", (long long)c);
        L->shape.groups = (int)o->v[K_GROUPS];
        break;
    default: /* activation, softmax, dropout: same shape */
        if (o->v[K_LEARNABLE]) L->params = c; /* a scale per channel (ConvNeXt's layer scale) */
        if (L->op == SEER_OP_ACTIVATION && l->kind == SEER_ACT_PRELU) { /* its slopes: one, or one per channel */
            long ns = o->seen & B(K_C) ? o->v[K_C] : 1;
            if (ns != 1 && ns != c)
                return perr(ps, SEER_STATUS_NET_SHAPE, "prelu: c=%ld slopes for an input of %lld channels (1 or all)",
                            ns, (long long)c);
            L->params = ns;
        }
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
    L->shape.c = I->c;
    L->shape.h = I->h;
    L->shape.w = I->w;
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
                    "bn layernorm relu relu6 sigmoid tanh gelu silu hardswish hardsigmoid leakyrelu elu prelu "
                    "lrn scale pool add mul concat fc softmax dropout flatten slice shuffle resize pad)",
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
    L->shape.n = 1; /* per sample: a prediction sets its batch */
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
    /* inputs alone are no network either (one predicted 0 ms and 0
     * samples/s) */
    int layers = 0;
    for (int i = 0; !st && i < ps->net->n; i++) layers += ps->net->l[i].info.op != SEER_OP_INPUT;
    if (!st && !layers)
        st = seer_error(ps->h, SEER_STATUS_NET_PARSE, "network description has no layers%s",
                        ps->net->n ? " besides its inputs" : "");
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
    /* a leading UTF-8 byte order mark (Notepad's "UTF-8 with BOM"), as
     * the CSV and GPU description readers skip it */
    if (text && len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) text += 3, len -= 3;
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
        int grad = seer_op_is_conv(L->op) || L->op == SEER_OP_FC || L->op == SEER_OP_BATCHNORM ||
                   L->op == SEER_OP_LAYERNORM || L->params > 0; /* a learnable scale too */
        for (int j = 0; j < L->n_inputs; j++) {
            seer_net_layer_t *in = &net->l[net->in_pool[l->in_off + j]];
            in->fanout++;
            grad |= in->needs_grad;
        }
        l->needs_grad = L->op != SEER_OP_INPUT && grad;
        if (L->op == SEER_OP_INPUT && !I->in_c) { I->in_c = L->c; I->in_h = L->h; I->in_w = L->w; }
        I->n_conv += seer_op_is_conv(L->op);
        I->n_fc += L->op == SEER_OP_FC;
        if (L->params > INT64_MAX / 4 - I->params) {
            seer_network_destroy(net);
            return seer_error(h, SEER_STATUS_OVERFLOW, "line %d: the network has over 2^61 parameters", L->line);
        }
        I->params += L->params;
        if (L->op == SEER_OP_CONV)
            I->fwd_flops += 2.0 * L->c * L->h * L->w * (double)(L->shape.c / L->shape.groups) *
                            L->shape.r * L->shape.s;
        else if (L->op == SEER_OP_DECONV) /* each input pixel times its window of k / groups outputs */
            I->fwd_flops += 2.0 * L->shape.c * L->shape.h * L->shape.w * (double)(L->shape.k / L->shape.groups) *
                            L->shape.r * L->shape.s;
        else if (L->op == SEER_OP_FC)
            I->fwd_flops += 2.0 * L->shape.k * (double)L->shape.c * L->shape.h * L->shape.w;
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
