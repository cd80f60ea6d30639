/* ONNX import: an ONNX ModelProto, read with protobuf-c, translated into
 * the network description of docs/networks.md and handed to the
 * description parser.  Translating into the text (rather than building
 * layers directly) means an ONNX model and its `seer net --print` text
 * build the same network by construction, and the parser's checks
 * (names, groups, window fits, size limits) apply to both.
 *
 * The graph is walked in topological order (a min-heap on the node index,
 * so a sorted graph keeps its order; what is left over is a cycle).
 * Every tensor gets its full shape, the batch dimension included: data
 * tensors map to a layer of the description, constants (initializers,
 * Constant nodes, Shape and the arithmetic on it) are folded so that
 * Reshape targets and Clip bounds are known statically. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "fileio.h"
#include "net.h"
#include "onnx.h"
#include "onnx.pb-c.h"

/* A symbolic batch dimension is given this value while shapes are
 * inferred: a prime no real channel count or spatial size is, so a
 * reshape that folds the batch into another dimension is caught. */
#define SYM_BATCH 1009

typedef struct {
    const char *name;
    int known;                  /* dims known */
    int rank;
    int64_t d[SEER_ONNX_MAX_RANK];
    int is_const;               /* an initializer or folded constant: no layer */
    int is_int;                 /* integer element type (Div truncates) */
    int nval;                   /* values folded into val; -1: not folded */
    double *val;                /* nval values (malloc'ed: few tensors have any), or NULL */
    int layer;                  /* data tensors: layer of the description; -1 none */
    int producer;               /* node index, -1 for initializers and graph inputs */
    int readers;                /* node inputs reading it */
} tensor_t;

typedef struct {
    char name[48];
    int64_t c, h, w;
} layer_t;

enum { MAX_UNSUP_OPS = 24, UNSUP_NAMES = 3 };
typedef struct {
    char op[40];
    int count;
    char names[UNSUP_NAMES][48];
    char why[120];              /* the first node's reason */
} unsup_t;

typedef struct {
    seer_handle_t h;
    seer_onnx_options_t opt;
    Onnx__GraphProto *g;
    tensor_t *t;
    size_t nt;
    uint32_t *slot;             /* name hash -> tensor index + 1 */
    size_t nslot;
    layer_t *L;
    int nl, lcap;
    uint32_t *lslot;            /* layer name hash -> layer index + 1 */
    size_t nlslot;
    char *out;
    size_t olen, ocap;
    int oom;
    int64_t batch;              /* the batch dimension's value during inference */
    int batch_static;
    int opset;
    int n_nodes;
    int n_skipped;
    int n_unsup;
    unsup_t unsup[MAX_UNSUP_OPS];
    int n_unsup_ops;
    int *alias_in;              /* per node: >= 0, the input its output aliases (fused) */
} cx_t;

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */
/* ------------------------------------------------------------------ */

static void emit(cx_t *cx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(cx_t *cx, const char *fmt, ...)
{
    if (cx->oom) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(cx->out + cx->olen, cx->ocap - cx->olen, fmt, ap);
        va_end(ap);
        if (n < 0) { cx->oom = 1; return; }
        if ((size_t)n < cx->ocap - cx->olen) { cx->olen += (size_t)n; return; }
        size_t cap = (cx->ocap + (size_t)n + 1) * 2;
        char *nb = realloc(cx->out, cap);
        if (!nb) { cx->oom = 1; return; }
        cx->out = nb;
        cx->ocap = cap;
    }
}

/* A node for messages: its name, else its first output. */
static const char *label(const Onnx__NodeProto *n)
{
    if (n->name && n->name[0]) return n->name;
    if (n->n_output && n->output[0][0]) return n->output[0];
    return "?";
}

/* Printable, bounded copy of a foreign string for messages and comments. */
static const char *show(const char *s, char *buf, size_t size)
{
    size_t i = 0;
    for (; s && s[i] && i + 4 < size && i < 60; i++) buf[i] = s[i] > 31 && s[i] < 127 ? s[i] : '?';
    if (s && s[i] && i + 4 <= size) { memcpy(buf + i, "...", 3); i += 3; }
    buf[i] = 0;
    return buf;
}

static seer_status_t nerr(cx_t *cx, const Onnx__NodeProto *n, seer_status_t st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static seer_status_t nerr(cx_t *cx, const Onnx__NodeProto *n, seer_status_t st, const char *fmt, ...)
{
    char msg[700], b1[72], b2[72];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!n->op_type) return seer_error(cx->h, st, "%s", msg); /* an initializer: no node */
    return seer_error(cx->h, st, "node '%s' (%s): %s", show(label(n), b1, sizeof b1),
                      show(n->op_type, b2, sizeof b2), msg);
}

static uint64_t hash_str(const char *s) { return seer_fnv1a(SEER_FNV_OFFSET, s, strlen(s)); }

static int find_tensor(const cx_t *cx, const char *name)
{
    for (size_t i = hash_str(name) & (cx->nslot - 1);; i = (i + 1) & (cx->nslot - 1)) {
        uint32_t v = cx->slot[i];
        if (!v) return -1;
        if (!strcmp(cx->t[v - 1].name, name)) return (int)v - 1;
    }
}

/* A new tensor; -1 if the name is already defined (not SSA). */
static int add_tensor(cx_t *cx, const char *name, int producer)
{
    size_t i = hash_str(name) & (cx->nslot - 1);
    for (; cx->slot[i]; i = (i + 1) & (cx->nslot - 1))
        if (!strcmp(cx->t[cx->slot[i] - 1].name, name)) return -1;
    tensor_t *t = &cx->t[cx->nt];
    memset(t, 0, sizeof *t);
    t->name = name;
    t->nval = -1;
    t->layer = -1;
    t->producer = producer;
    cx->slot[i] = (uint32_t)++cx->nt;
    return (int)cx->nt - 1;
}

static tensor_t *input(cx_t *cx, const Onnx__NodeProto *n, size_t i)
{
    if (i >= n->n_input || !n->input[i][0]) return NULL;
    int k = find_tensor(cx, n->input[i]);
    return k < 0 ? NULL : &cx->t[k];
}

static tensor_t *output(cx_t *cx, const Onnx__NodeProto *n, size_t i)
{
    if (i >= n->n_output || !n->output[i][0]) return NULL;
    int k = find_tensor(cx, n->output[i]);
    return k < 0 ? NULL : &cx->t[k];
}

static const Onnx__AttributeProto *attr(const Onnx__NodeProto *n, const char *name)
{
    for (size_t i = 0; i < n->n_attribute; i++)
        if (n->attribute[i]->name && !strcmp(n->attribute[i]->name, name)) return n->attribute[i];
    return NULL;
}

static int64_t attr_int(const Onnx__NodeProto *n, const char *name, int64_t dflt)
{
    const Onnx__AttributeProto *a = attr(n, name);
    return a && a->has_i ? a->i : dflt;
}

static double attr_float(const Onnx__NodeProto *n, const char *name, double dflt)
{
    const Onnx__AttributeProto *a = attr(n, name);
    return a && a->has_f ? a->f : dflt;
}

/* Up to max ints of a list attribute into v; the count, -1 when absent. */
static int attr_ints(const Onnx__NodeProto *n, const char *name, int64_t *v, int max)
{
    const Onnx__AttributeProto *a = attr(n, name);
    if (!a || !a->n_ints) return -1;
    int k = (int)(a->n_ints < (size_t)max ? a->n_ints : (size_t)max);
    for (int i = 0; i < k; i++) v[i] = a->ints[i];
    return a->n_ints > (size_t)max ? max + 1 : k;
}

static int attr_str_is(const Onnx__NodeProto *n, const char *name, const char *want)
{
    const Onnx__AttributeProto *a = attr(n, name);
    if (!a || !a->has_s) return 0;
    return a->s.len == strlen(want) && !memcmp(a->s.data, want, a->s.len);
}

static int64_t elems(const tensor_t *t, int from)
{
    int64_t e = 1;
    for (int i = from; i < t->rank; i++)
        if (!seer_mul_ok(e, t->d[i], &e)) return -1;
    return e;
}

/* Dims of a tensor, checked against the limits: a data tensor's per-sample
 * elements (the batch excluded), a constant's elements, below 2^31. */
static seer_status_t set_dims(cx_t *cx, const Onnx__NodeProto *n, tensor_t *t, int rank, const int64_t *d)
{
    if (rank > SEER_ONNX_MAX_RANK)
        return nerr(cx, n, SEER_STATUS_NET_SHAPE, "tensor '%s' has rank %d (at most %d)", t->name, rank,
                    SEER_ONNX_MAX_RANK);
    for (int i = 0; i < rank; i++) {
        if (d[i] < 0) return nerr(cx, n, SEER_STATUS_NET_SHAPE, "tensor '%s' dimension %d is negative", t->name, i);
        if (d[i] > SEER_NET_MAX_DIM && !t->is_const && i > 0)
            return nerr(cx, n, SEER_STATUS_OVERFLOW, "tensor '%s' dimension %d is %lld (over 2^24)", t->name, i,
                        (long long)d[i]);
    }
    if (rank) memmove(t->d, d, (size_t)rank * sizeof *d); /* d is NULL for a scalar */
    t->rank = rank;
    t->known = 1;
    int64_t e = elems(t, t->is_const ? 0 : 1);
    if (e < 0 || e > INT32_MAX)
        return nerr(cx, n, SEER_STATUS_OVERFLOW, "tensor '%s' has over 2^31 - 1 elements%s", t->name,
                    t->is_const ? "" : " per sample");
    return SEER_STATUS_SUCCESS;
}

/* Per-sample c x h x w of a data tensor of rank 2..4; 0 for other ranks. */
static int chw(const tensor_t *t, int64_t *c, int64_t *h, int64_t *w)
{
    if (!t->known || t->rank < 2 || t->rank > 4) return 0;
    *c = t->d[1];
    *h = t->rank > 2 ? t->d[2] : 1;
    *w = t->rank > 3 ? t->d[3] : 1;
    return 1;
}

/* A data input a layer can read as is: its layer has its shape. */
static seer_status_t need_data(cx_t *cx, const Onnx__NodeProto *n, const tensor_t *t, int rank4)
{
    int64_t c, hh, w;
    if (!t) return nerr(cx, n, SEER_STATUS_NET_INPUT, "a required input is missing");
    if (t->layer < 0)
        return nerr(cx, n, SEER_STATUS_NET_SHAPE, "input '%s' is %s, not a tensor computed from the graph input",
                    t->name, t->is_const ? "a constant" : "not computable");
    if (rank4 && t->rank != 4)
        return nerr(cx, n, SEER_STATUS_NET_SHAPE, "input '%s' has rank %d (N x C x H x W expected)", t->name,
                    t->rank);
    const layer_t *l = &cx->L[t->layer];
    if (!chw(t, &c, &hh, &w) || c != l->c || hh != l->h || w != l->w)
        return nerr(cx, n, SEER_STATUS_NET_SHAPE, "input '%s' is a view (rank %d) of layer '%s' that a layer "
                    "cannot read", t->name, t->rank, l->name);
    return SEER_STATUS_SUCCESS;
}

/* A data input read as a view (Reshape, Flatten, Squeeze, fc): its layer
 * holds the same elements per sample, in whatever shape. */
static seer_status_t need_view(cx_t *cx, const Onnx__NodeProto *n, const tensor_t *t)
{
    if (!t) return nerr(cx, n, SEER_STATUS_NET_INPUT, "a required input is missing");
    if (t->layer < 0 || !t->known)
        return nerr(cx, n, SEER_STATUS_NET_SHAPE, "input '%s' is %s, not a tensor computed from the graph input",
                    t->name, t->is_const ? "a constant" : "not computable");
    const layer_t *l = &cx->L[t->layer];
    if (elems(t, 1) != l->c * l->h * l->w)
        return nerr(cx, n, SEER_STATUS_NET_SHAPE, "input '%s' has %lld elements per sample, its layer '%s' %lld",
                    t->name, (long long)elems(t, 1), l->name, (long long)(l->c * l->h * l->w));
    return SEER_STATUS_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Layers of the description                                           */
/* ------------------------------------------------------------------ */

static int valid_name_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_' || ch == '.' || ch == ':' || ch == '/' || ch == '+' || ch == '-';
}

static int find_layer(const cx_t *cx, const char *name, size_t *slot)
{
    size_t i = hash_str(name) & (cx->nlslot - 1);
    for (; cx->lslot[i]; i = (i + 1) & (cx->nlslot - 1))
        if (!strcmp(cx->L[cx->lslot[i] - 1].name, name)) return (int)cx->lslot[i] - 1;
    *slot = i;
    return -1;
}

/* A layer named after the node (description names: 1 to 47 of
 * [A-Za-z0-9_.:/+-], unique), with the per-sample shape of t, which it
 * now computes.  Returns its index, or -1 when out of memory. */
static int new_layer(cx_t *cx, const char *base, tensor_t *t)
{
    if (cx->nl == cx->lcap) {
        int cap = cx->lcap ? cx->lcap * 2 : 64;
        layer_t *nl = realloc(cx->L, (size_t)cap * sizeof *nl);
        if (!nl) return -1;
        cx->L = nl;
        cx->lcap = cap;
    }
    if ((size_t)cx->nl * 2 >= cx->nlslot) {
        size_t ns = cx->nlslot ? cx->nlslot * 2 : 256;
        uint32_t *s = calloc(ns, sizeof *s);
        if (!s) return -1;
        free(cx->lslot);
        cx->lslot = s;
        cx->nlslot = ns;
        for (int i = 0; i < cx->nl; i++) {
            size_t k;
            find_layer(cx, cx->L[i].name, &k);
            cx->lslot[k] = (uint32_t)i + 1;
        }
    }
    layer_t *l = &cx->L[cx->nl];
    char nm[48];
    size_t k = 0;
    while (*base == '/') base++;
    for (; base[k] && k < sizeof nm - 1; k++) nm[k] = valid_name_char(base[k]) ? base[k] : '_';
    nm[k] = 0;
    if (!k) seer_strlcpy(nm, "layer", sizeof nm);
    seer_strlcpy(l->name, nm, sizeof l->name);
    size_t slot;
    for (int suffix = 2; find_layer(cx, l->name, &slot) >= 0; suffix++) /* "-N" replaces the end */
        snprintf(l->name, sizeof l->name, "%.*s-%d", (int)(k < 36 ? k : 36), nm, suffix);
    cx->lslot[slot] = (uint32_t)cx->nl + 1;
    chw(t, &l->c, &l->h, &l->w);
    t->layer = cx->nl;
    t->is_const = 0;
    return cx->nl++;
}

/* Start a layer line "TYPE name=N in=A,B" for node n's output t reading
 * the data inputs ins.  SUCCESS or ALLOC_FAILED. */
static seer_status_t layer_line(cx_t *cx, const Onnx__NodeProto *n, tensor_t *t, const char *type,
                                tensor_t *const *ins, int nin)
{
    int li = new_layer(cx, n->name && n->name[0] ? n->name : t->name, t);
    if (li < 0) return seer_error(cx->h, SEER_STATUS_ALLOC_FAILED, "out of memory");
    emit(cx, "%s name=%s in=", type, cx->L[li].name);
    for (int i = 0; i < nin; i++) emit(cx, "%s%s", i ? "," : "", cx->L[ins[i]->layer].name);
    return SEER_STATUS_SUCCESS;
}

/* " size=A" or " r=A s=B" style pairs; nothing when both equal dflt. */
static void pair_opt(cx_t *cx, const char *both, const char *a_name, const char *b_name, int64_t a, int64_t b,
                     int64_t dflt)
{
    if (a == b && a == dflt) return;
    if (a == b) emit(cx, " %s=%lld", both, (long long)a);
    else emit(cx, " %s=%lld %s=%lld", a_name, (long long)a, b_name, (long long)b);
}

/* ------------------------------------------------------------------ */
/* Unsupported nodes                                                   */
/* ------------------------------------------------------------------ */

/* Record node n as unsupported and let its outputs alias its first data
 * input (shape and layer), so that translation goes on: with
 * skip_unsupported the rest is predicted, without it every unsupported
 * node is still counted before the error. */
static seer_status_t unsupported(cx_t *cx, const Onnx__NodeProto *n, const char *why)
{
    char b1[72], b2[72];
    cx->n_unsup++;
    int k;
    for (k = 0; k < cx->n_unsup_ops && strcmp(cx->unsup[k].op, n->op_type); k++) {}
    if (k == cx->n_unsup_ops && k < MAX_UNSUP_OPS) {
        seer_strlcpy(cx->unsup[k].op, n->op_type, sizeof cx->unsup[k].op);
        cx->unsup[k].count = 0;
        cx->n_unsup_ops++;
    }
    if (k < MAX_UNSUP_OPS) {
        unsup_t *u = &cx->unsup[k];
        if (u->count < UNSUP_NAMES) seer_strlcpy(u->names[u->count], label(n), sizeof u->names[0]);
        if (!u->count) seer_strlcpy(u->why, why, sizeof u->why);
        u->count++;
    }
    if (cx->opt.skip_unsupported) {
        cx->n_skipped++;
        emit(cx, "# skipped: %s node '%s': %s\n", show(n->op_type, b1, sizeof b1), show(label(n), b2, sizeof b2),
             why);
    }
    tensor_t *src = NULL;
    for (size_t i = 0; i < n->n_input && !src; i++) {
        tensor_t *x = input(cx, n, i);
        if (x && x->layer >= 0) src = x;
    }
    for (size_t i = 0; i < n->n_output; i++) {
        tensor_t *o = output(cx, n, i);
        if (!o) continue;
        if (src && i == 0) {
            o->known = src->known;
            o->rank = src->rank;
            memcpy(o->d, src->d, sizeof o->d);
            o->layer = src->layer;
        } else {
            o->known = 0;
        }
    }
    return SEER_STATUS_SUCCESS;
}

/* then: a later failure, added to the message (NULL: none). */
static seer_status_t unsupported_error(cx_t *cx, const char *then)
{
    char msg[900], b[72];
    size_t len = (size_t)snprintf(msg, sizeof msg, "%d unsupported node%s:", cx->n_unsup, cx->n_unsup == 1 ? "" : "s");
    for (int k = 0; k < cx->n_unsup_ops && len < sizeof msg; k++) {
        const unsup_t *u = &cx->unsup[k];
        len += (size_t)snprintf(msg + len, sizeof msg - len, "%s %s x%d (", k ? ";" : "", show(u->op, b, sizeof b),
                                u->count);
        for (int i = 0; i < u->count && i < UNSUP_NAMES && len < sizeof msg; i++)
            len += (size_t)snprintf(msg + len, sizeof msg - len, "%s'%s'", i ? ", " : "",
                                    show(u->names[i], b, sizeof b));
        if (len < sizeof msg)
            len += (size_t)snprintf(msg + len, sizeof msg - len, "%s: %s)", u->count > UNSUP_NAMES ? ", ..." : "",
                                    u->why);
    }
    return seer_error(cx->h, SEER_STATUS_ONNX_UNSUPPORTED_OP, "%s; --skip-unsupported (skip_unsupported) "
                      "predicts the rest%s%s", msg, then ? "; then " : "", then ? then : "");
}

/* ------------------------------------------------------------------ */
/* Constants                                                           */
/* ------------------------------------------------------------------ */

static double le_value(const uint8_t *p, int type)
{
    uint64_t u = 0;
    int size = type == ONNX__TENSOR_PROTO__DATA_TYPE__INT32 || type == ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT ? 4 : 8;
    for (int i = size - 1; i >= 0; i--) u = u << 8 | p[i];
    switch (type) {
    case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT: { uint32_t v = (uint32_t)u; float f; memcpy(&f, &v, 4); return f; }
    case ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE: { double f; memcpy(&f, &u, 8); return f; }
    case ONNX__TENSOR_PROTO__DATA_TYPE__INT32: return (double)(int32_t)(uint32_t)u;
    default: return (double)(int64_t)u;
    }
}

static int elem_size(int type)
{
    switch (type) {
    case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT: case ONNX__TENSOR_PROTO__DATA_TYPE__INT32:
    case ONNX__TENSOR_PROTO__DATA_TYPE__UINT32: return 4;
    case ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE: case ONNX__TENSOR_PROTO__DATA_TYPE__INT64:
    case ONNX__TENSOR_PROTO__DATA_TYPE__UINT64: return 8;
    case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16: case ONNX__TENSOR_PROTO__DATA_TYPE__BFLOAT16:
    case ONNX__TENSOR_PROTO__DATA_TYPE__INT16: case ONNX__TENSOR_PROTO__DATA_TYPE__UINT16: return 2;
    case ONNX__TENSOR_PROTO__DATA_TYPE__INT8: case ONNX__TENSOR_PROTO__DATA_TYPE__UINT8:
    case ONNX__TENSOR_PROTO__DATA_TYPE__BOOL: return 1;
    default: return 0;
    }
}

/* An initializer or a Constant's tensor into t: dims checked, data size
 * checked against the dims, small numeric contents folded. */
static seer_status_t load_tensor(cx_t *cx, const Onnx__NodeProto *n, const Onnx__TensorProto *tp, tensor_t *t)
{
    static const Onnx__NodeProto none = ONNX__NODE_PROTO__INIT;
    const Onnx__NodeProto *at = n ? n : &none;
    seer_status_t st;
    t->is_const = 1;
    if (tp->n_dims > SEER_ONNX_MAX_RANK)
        return nerr(cx, at, SEER_STATUS_NET_SHAPE, "tensor '%s' has rank %zu (at most %d)", t->name, tp->n_dims,
                    SEER_ONNX_MAX_RANK);
    if ((st = set_dims(cx, at, t, (int)tp->n_dims, tp->dims))) return st;
    int type = tp->has_data_type ? tp->data_type : 0;
    int64_t e = elems(t, 0);
    int es = elem_size(type);
    t->is_int = type != ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT && type != ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE &&
                type != ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16 && type != ONNX__TENSOR_PROTO__DATA_TYPE__BFLOAT16;
    if (tp->has_data_location && tp->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL) return 0;
    size_t have = tp->n_float_data + tp->n_int32_data + tp->n_int64_data + tp->n_double_data + tp->n_uint64_data;
    if (tp->has_raw_data && es && tp->raw_data.len != (size_t)e * (size_t)es)
        return nerr(cx, at, SEER_STATUS_ONNX_CORRUPT, "tensor '%s': raw_data has %zu bytes, its dims need %lld",
                    t->name, tp->raw_data.len, (long long)e * es);
    if (!tp->has_raw_data && have && have != (size_t)e)
        return nerr(cx, at, SEER_STATUS_ONNX_CORRUPT, "tensor '%s' holds %zu values, its dims need %lld", t->name,
                    have, (long long)e);
    if (e > SEER_ONNX_MAX_CONST) return SEER_STATUS_SUCCESS;
    int ok = type == ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT || type == ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE ||
             type == ONNX__TENSOR_PROTO__DATA_TYPE__INT32 || type == ONNX__TENSOR_PROTO__DATA_TYPE__INT64;
    if (!ok) return SEER_STATUS_SUCCESS;
    if (!(t->val = malloc((size_t)(e ? e : 1) * sizeof *t->val)))
        return seer_error(cx->h, SEER_STATUS_ALLOC_FAILED, "out of memory");
    for (int64_t i = 0; i < e; i++) {
        if (tp->has_raw_data) t->val[i] = le_value(tp->raw_data.data + i * es, type);
        else if (tp->n_float_data) t->val[i] = tp->float_data[i];
        else if (tp->n_double_data) t->val[i] = tp->double_data[i];
        else if (tp->n_int32_data) t->val[i] = tp->int32_data[i];
        else if (tp->n_int64_data) t->val[i] = (double)tp->int64_data[i];
        else return SEER_STATUS_SUCCESS; /* no data: only the dims are known */
    }
    t->nval = (int)e;
    return SEER_STATUS_SUCCESS;
}

/* A constant 1-D (or scalar) value list of input i; count, -1 if not known. */
static int const_ints(cx_t *cx, const Onnx__NodeProto *n, size_t i, int64_t *v, int max)
{
    tensor_t *t = input(cx, n, i);
    if (!t || t->nval < 0 || t->nval > max) return -1;
    for (int k = 0; k < t->nval; k++) v[k] = (int64_t)t->val[k];
    return t->nval;
}

static void set_const_vals(tensor_t *o, const double *v, int nv, int is_int)
{
    o->is_const = 1;
    o->is_int = is_int;
    free(o->val);
    o->nval = -1;               /* out of memory: values unknown, not wrong */
    if (!(o->val = malloc((size_t)(nv ? nv : 1) * sizeof *v))) return;
    o->nval = nv;
    memcpy(o->val, v, (size_t)nv * sizeof *v);
}

static seer_status_t const_vector(cx_t *cx, const Onnx__NodeProto *n, tensor_t *o, const double *v, int nv,
                                  int is_int, int scalar)
{
    int64_t d = nv;
    o->is_const = 1;
    seer_status_t st = set_dims(cx, n, o, scalar ? 0 : 1, &d);
    if (!st) set_const_vals(o, v, nv, is_int);
    return st;
}

static int norm_axis(int64_t axis, int rank)
{
    if (axis < 0) axis += rank;
    return axis < 0 || axis >= (rank ? rank : 1) ? -1 : (int)axis;
}

/* Folding of a node whose inputs are all constants (or Shape of any
 * tensor).  1: folded (or marked constant); 0: not a folding op;
 * otherwise *st carries an error. */
static int fold(cx_t *cx, const Onnx__NodeProto *n, seer_status_t *st)
{
    const char *op = n->op_type;
    tensor_t *o = output(cx, n, 0), *a = input(cx, n, 0), *b = input(cx, n, 1);
    double v[SEER_ONNX_MAX_CONST];
    *st = SEER_STATUS_SUCCESS;
    if (!o) return 1;
    if (!strcmp(op, "Constant")) {
        const Onnx__AttributeProto *at;
        o->is_const = 1;
        if ((at = attr(n, "value")) && at->t) { *st = load_tensor(cx, n, at->t, o); return 1; }
        if ((at = attr(n, "value_float")) && at->has_f) { v[0] = at->f; *st = const_vector(cx, n, o, v, 1, 0, 1); return 1; }
        if ((at = attr(n, "value_int")) && at->has_i) { v[0] = (double)at->i; *st = const_vector(cx, n, o, v, 1, 1, 1); return 1; }
        if ((at = attr(n, "value_ints")) && at->n_ints <= SEER_ONNX_MAX_CONST) {
            for (size_t i = 0; i < at->n_ints; i++) v[i] = (double)at->ints[i];
            *st = const_vector(cx, n, o, v, (int)at->n_ints, 1, 0);
            return 1;
        }
        if ((at = attr(n, "value_floats")) && at->n_floats <= SEER_ONNX_MAX_CONST) {
            for (size_t i = 0; i < at->n_floats; i++) v[i] = at->floats[i];
            *st = const_vector(cx, n, o, v, (int)at->n_floats, 0, 0);
            return 1;
        }
        *st = nerr(cx, n, SEER_STATUS_NET_SHAPE, "a Constant whose value libseer cannot read");
        return 1;
    }
    if (!strcmp(op, "Shape")) {
        if (!a || !a->known) { *st = nerr(cx, n, SEER_STATUS_NET_SHAPE, "the shape of its input is not known"); return 1; }
        int64_t s = attr_int(n, "start", 0), e = attr_int(n, "end", a->rank);
        if (s < 0) s += a->rank;
        if (e < 0) e += a->rank;
        s = s < 0 ? 0 : s > a->rank ? a->rank : s;
        e = e < s ? s : e > a->rank ? a->rank : e;
        for (int64_t i = s; i < e; i++) v[i - s] = (double)a->d[i];
        *st = const_vector(cx, n, o, v, (int)(e - s), 1, 0);
        return 1;
    }
    /* Everything below needs every input constant. */
    for (size_t i = 0; i < n->n_input; i++) {
        tensor_t *x = input(cx, n, i);
        if (n->input[i][0] && (!x || !x->is_const)) return 0;
    }
    if (!a) return 0;
    o->is_const = 1;
    if (!strcmp(op, "Identity") || !strcmp(op, "Cast") || !strcmp(op, "DequantizeLinear")) {
        if (a->known && (*st = set_dims(cx, n, o, a->rank, a->d))) return 1;
        if (a->nval >= 0) {
            int is_int = a->is_int;
            if (!strcmp(op, "Cast")) {
                int64_t to = attr_int(n, "to", 1);
                is_int = to != 1 && to != 10 && to != 11 && to != 16;
                for (int i = 0; i < a->nval; i++) v[i] = is_int ? trunc(a->val[i]) : a->val[i];
            } else memcpy(v, a->val, (size_t)a->nval * sizeof *v);
            if (strcmp(op, "DequantizeLinear")) set_const_vals(o, v, a->nval, is_int);
        }
        return 1;
    }
    if (!strcmp(op, "Transpose")) {
        int64_t perm[SEER_ONNX_MAX_RANK], d[SEER_ONNX_MAX_RANK];
        if (!a->known) return 1;
        int np = attr_ints(n, "perm", perm, SEER_ONNX_MAX_RANK);
        for (int i = 0; i < a->rank; i++) {
            int p = np < 0 ? a->rank - 1 - i : i < np && perm[i] >= 0 && perm[i] < a->rank ? (int)perm[i] : -1;
            if (p < 0) { *st = nerr(cx, n, SEER_STATUS_NET_SHAPE, "perm does not fit rank %d", a->rank); return 1; }
            d[i] = a->d[p];
        }
        *st = set_dims(cx, n, o, a->rank, d);
        return 1;
    }
    if (a->nval < 0) return 1; /* values not folded (a weight): constant, shape unknown */
    if (!strcmp(op, "Unsqueeze") || !strcmp(op, "Squeeze") || !strcmp(op, "Reshape") || !strcmp(op, "Flatten")) {
        /* Values in order; only the rank changes (shape vectors are 0-D or 1-D). */
        set_const_vals(o, a->val, a->nval, a->is_int);
        int64_t d = a->nval;
        int rank = !strcmp(op, "Squeeze") && a->nval == 1 ? 0 : 1;
        *st = set_dims(cx, n, o, rank, &d);
        return 1;
    }
    if (!strcmp(op, "Gather")) {
        if (!b || b->nval < 0 || norm_axis(attr_int(n, "axis", 0), a->rank) != 0) return 1;
        for (int i = 0; i < b->nval; i++) {
            int64_t k = (int64_t)b->val[i];
            if (k < 0) k += a->nval;
            if (k < 0 || k >= a->nval) { *st = nerr(cx, n, SEER_STATUS_NET_SHAPE, "index %lld out of range", (long long)k); return 1; }
            v[i] = a->val[k];
        }
        *st = const_vector(cx, n, o, v, b->nval, a->is_int, b->rank == 0);
        return 1;
    }
    if (!strcmp(op, "Concat")) {
        int nv = 0;
        for (size_t i = 0; i < n->n_input; i++) {
            tensor_t *x = input(cx, n, i);
            if (!x) continue;
            if (x->nval < 0 || nv + x->nval > SEER_ONNX_MAX_CONST) return 1;
            memcpy(v + nv, x->val, (size_t)x->nval * sizeof *v);
            nv += x->nval;
        }
        *st = const_vector(cx, n, o, v, nv, a->is_int, 0);
        return 1;
    }
    if (!strcmp(op, "Slice")) {
        int64_t s, e, step = 1, x[SEER_ONNX_MAX_CONST];
        if (cx->opset < 10) {
            if (attr_ints(n, "starts", &s, 1) != 1 || attr_ints(n, "ends", &e, 1) != 1) return 1;
        } else {
            if (const_ints(cx, n, 1, x, 1) != 1) return 1;
            s = x[0];
            if (const_ints(cx, n, 2, x, 1) != 1) return 1;
            e = x[0];
            if (input(cx, n, 4) && const_ints(cx, n, 4, x, 1) == 1) step = x[0];
        }
        if (step != 1) return 1;
        int64_t len = a->nval;
        if (s < 0) s += len;
        if (e < 0) e += len;
        s = s < 0 ? 0 : s > len ? len : s;
        e = e < s ? s : e > len ? len : e;
        *st = const_vector(cx, n, o, a->val + s, (int)(e - s), a->is_int, 0);
        return 1;
    }
    int arith = !strcmp(op, "Add") ? 1 : !strcmp(op, "Sub") ? 2 : !strcmp(op, "Mul") ? 3 : !strcmp(op, "Div") ? 4 : 0;
    if (arith && b && b->nval >= 0 && (a->nval == b->nval || a->nval == 1 || b->nval == 1)) {
        int nv = a->nval > b->nval ? a->nval : b->nval, is_int = a->is_int && b->is_int;
        for (int i = 0; i < nv; i++) {
            double x = a->val[a->nval == 1 ? 0 : i], y = b->val[b->nval == 1 ? 0 : i];
            v[i] = arith == 1 ? x + y : arith == 2 ? x - y : arith == 3 ? x * y
                 : y == 0 ? 0 : is_int ? trunc(x / y) : x / y;
        }
        const tensor_t *shape = a->nval >= b->nval ? a : b;
        *st = const_vector(cx, n, o, v, nv, is_int, shape->rank == 0);
        return 1;
    }
    return 1; /* some other constant computation: a constant of unknown value */
}

/* ------------------------------------------------------------------ */
/* Layers                                                              */
/* ------------------------------------------------------------------ */

/* Output size of a window over one padded dimension; PyTorch's ceil rule
 * (the last window starts inside the input or left padding), as the
 * description parser.  0 when the window does not fit. */
static int64_t win_out(int64_t in, int64_t pad, int64_t span, int64_t stride, int ceil_mode)
{
    int64_t padded = in + 2 * pad;
    if (padded < span || stride < 1) return 0;
    int64_t o = (padded - span + (ceil_mode ? stride - 1 : 0)) / stride + 1;
    if (ceil_mode && (o - 1) * stride >= in + pad) o--;
    return o;
}

/* Strides, dilations and symmetric pads of a Conv / pool window over the
 * input x (N x C x H x W); 1 when expressible, 0 with why filled. */
static int window(const Onnx__NodeProto *n, const tensor_t *x, const int64_t k[2], int64_t st[2], int64_t dil[2],
                  int64_t pad[2], char *why, size_t wsize)
{
    int64_t p[4] = {0, 0, 0, 0};
    st[0] = st[1] = dil[0] = dil[1] = 1;
    if (attr_ints(n, "strides", st, 2) > 2 || attr_ints(n, "dilations", dil, 2) > 2 || attr_ints(n, "pads", p, 4) > 4) {
        snprintf(why, wsize, "a window over more than 2 dimensions");
        return 0;
    }
    if (st[0] < 1 || st[1] < 1 || dil[0] < 1 || dil[1] < 1 || p[0] < 0 || p[1] < 0 || p[2] < 0 || p[3] < 0) {
        snprintf(why, wsize, "a stride or dilation below 1, or a negative pad");
        return 0;
    }
    if (attr_str_is(n, "auto_pad", "VALID")) p[0] = p[1] = p[2] = p[3] = 0;
    int upper = attr_str_is(n, "auto_pad", "SAME_UPPER"), lower = attr_str_is(n, "auto_pad", "SAME_LOWER");
    if (upper || lower)
        for (int i = 0; i < 2; i++) {
            int64_t in = x->d[2 + i], out = (in + st[i] - 1) / st[i];
            int64_t total = (out - 1) * st[i] + (k[i] - 1) * dil[i] + 1 - in;
            if (total < 0) total = 0;
            p[i] = upper ? total / 2 : total - total / 2;
            p[i + 2] = total - p[i];
        }
    if (p[0] != p[2] || p[1] != p[3]) {
        snprintf(why, wsize, "asymmetric padding (%lld, %lld, %lld, %lld): the description pads both sides alike",
                 (long long)p[0], (long long)p[1], (long long)p[2], (long long)p[3]);
        return 0;
    }
    pad[0] = p[0];
    pad[1] = p[1];
    return 1;
}

static seer_status_t copy_shape(cx_t *cx, const Onnx__NodeProto *n, tensor_t *o, const tensor_t *x)
{
    return set_dims(cx, n, o, x->rank, x->d);
}

static seer_status_t do_conv(cx_t *cx, const Onnx__NodeProto *n, tensor_t *x, tensor_t *o)
{
    seer_status_t st;
    char why[200];
    if ((st = need_data(cx, n, x, 0))) return st;
    if (x->rank != 4) return unsupported(cx, n, "a convolution over other than 2 spatial dimensions");
    tensor_t *w = input(cx, n, 1);
    if (!w || !w->known || w->rank != 4)
        return nerr(cx, n, SEER_STATUS_NET_SHAPE, "the weight's shape is not known (a 4-D constant expected)");
    int64_t g = attr_int(n, "group", 1), K = w->d[0], R = w->d[2], S = w->d[3], ks[2] = {R, S};
    int64_t kk[2], s2[2], dil[2], pad[2];
    if (attr_ints(n, "kernel_shape", kk, 2) == 2 && (kk[0] != R || kk[1] != S))
        return nerr(cx, n, SEER_STATUS_NET_SHAPE, "kernel_shape %lldx%lld differs from the weight's %lldx%lld",
                    (long long)kk[0], (long long)kk[1], (long long)R, (long long)S);
    if (g < 1 || w->d[1] * g != x->d[1] || K % g)
        return nerr(cx, n, SEER_STATUS_NET_SHAPE, "weight %lldx%lldx%lldx%lld with group %lld does not fit %lld "
                    "input channels", (long long)K, (long long)w->d[1], (long long)R, (long long)S, (long long)g,
                    (long long)x->d[1]);
    if (!window(n, x, ks, s2, dil, pad, why, sizeof why)) return unsupported(cx, n, why);
    int64_t d[4] = {x->d[0], K, win_out(x->d[2], pad[0], dil[0] * (R - 1) + 1, s2[0], 0),
                    win_out(x->d[3], pad[1], dil[1] * (S - 1) + 1, s2[1], 0)};
    if (d[2] < 1 || d[3] < 1)
        return nerr(cx, n, SEER_STATUS_NET_SHAPE, "the %lldx%lld window does not fit the %lldx%lld input",
                    (long long)R, (long long)S, (long long)x->d[2], (long long)x->d[3]);
    if ((st = set_dims(cx, n, o, 4, d)) || (st = layer_line(cx, n, o, "conv", &x, 1))) return st;
    emit(cx, " k=%lld", (long long)K);
    pair_opt(cx, "size", "r", "s", R, S, -1);
    pair_opt(cx, "stride", "stride_h", "stride_w", s2[0], s2[1], 1);
    pair_opt(cx, "pad", "pad_h", "pad_w", pad[0], pad[1], 0);
    pair_opt(cx, "dil", "dil_h", "dil_w", dil[0], dil[1], 1);
    if (g != 1) emit(cx, " groups=%lld", (long long)g);
    if (input(cx, n, 2)) emit(cx, " bias=1");
    emit(cx, "\n");
    return SEER_STATUS_SUCCESS;
}

static seer_status_t do_pool(cx_t *cx, const Onnx__NodeProto *n, tensor_t *x, tensor_t *o, int max)
{
    seer_status_t st;
    char why[200];
    int64_t k[2], s2[2], dil[2], pad[2];
    if ((st = need_data(cx, n, x, 0))) return st;
    if (x->rank != 4) return unsupported(cx, n, "pooling over other than 2 spatial dimensions");
    if (attr_ints(n, "kernel_shape", k, 2) != 2 || k[0] < 1 || k[1] < 1)
        return nerr(cx, n, SEER_STATUS_NET_SHAPE, "kernel_shape must list 2 sizes >= 1");
    if (!window(n, x, k, s2, dil, pad, why, sizeof why)) return unsupported(cx, n, why);
    if (dil[0] != 1 || dil[1] != 1) return unsupported(cx, n, "dilated pooling");
    if (2 * pad[0] > k[0] || 2 * pad[1] > k[1]) return unsupported(cx, n, "a pad over half the window");
    int ceil_mode = attr_int(n, "ceil_mode", 0) != 0;
    int64_t d[4] = {x->d[0], x->d[1], win_out(x->d[2], pad[0], k[0], s2[0], ceil_mode),
                    win_out(x->d[3], pad[1], k[1], s2[1], ceil_mode)};
    if (d[2] < 1 || d[3] < 1)
        return nerr(cx, n, SEER_STATUS_NET_SHAPE, "the %lldx%lld window does not fit the %lldx%lld input",
                    (long long)k[0], (long long)k[1], (long long)x->d[2], (long long)x->d[3]);
    if ((st = set_dims(cx, n, o, 4, d)) || (st = layer_line(cx, n, o, "pool", &x, 1))) return st;
    emit(cx, " %s", max ? "max" : "avg");
    pair_opt(cx, "size", "r", "s", k[0], k[1], -1);
    emit(cx, " stride_h=%lld stride_w=%lld", (long long)s2[0], (long long)s2[1]);
    pair_opt(cx, "pad", "pad_h", "pad_w", pad[0], pad[1], 0);
    emit(cx, "%s\n", ceil_mode ? " ceil=1" : "");
    return SEER_STATUS_SUCCESS;
}

/* Reshape-like views: o gets dims d; a layer only when a 2-D result
 * changes the per-sample shape (flatten), else o aliases x's layer. */
static seer_status_t view(cx_t *cx, const Onnx__NodeProto *n, tensor_t *x, tensor_t *o, int rank, const int64_t *d,
                          int force_flatten)
{
    seer_status_t st;
    if (rank < 1 || d[0] != x->d[0])
        return unsupported(cx, n, "a reshape that moves the batch dimension");
    if ((st = set_dims(cx, n, o, rank, d))) return st;
    int64_t c, hh, w;
    const layer_t *l = &cx->L[x->layer];
    int same = chw(o, &c, &hh, &w) && c == l->c && hh == l->h && w == l->w;
    if (rank == 2 && (force_flatten || !same)) {
        if ((st = layer_line(cx, n, o, "flatten", &x, 1))) return st;
        emit(cx, "\n");
        return SEER_STATUS_SUCCESS;
    }
    o->layer = x->layer;
    return SEER_STATUS_SUCCESS;
}

static seer_status_t do_reshape(cx_t *cx, const Onnx__NodeProto *n, tensor_t *x, tensor_t *o)
{
    int64_t v[SEER_ONNX_MAX_RANK + 1], d[SEER_ONNX_MAX_RANK];
    int nv = cx->opset < 5 ? attr_ints(n, "shape", v, SEER_ONNX_MAX_RANK + 1)
                           : const_ints(cx, n, 1, v, SEER_ONNX_MAX_RANK + 1);
    if (nv < 0) return nerr(cx, n, SEER_STATUS_NET_SHAPE, "the target shape is not a constant libseer can fold");
    if (nv > SEER_ONNX_MAX_RANK) return nerr(cx, n, SEER_STATUS_NET_SHAPE, "target rank over %d", SEER_ONNX_MAX_RANK);
    int64_t total = elems(x, 0), known = 1;
    int infer = -1;
    for (int i = 0; i < nv; i++) {
        d[i] = v[i];
        if (v[i] == 0 && !attr_int(n, "allowzero", 0)) {
            if (i >= x->rank) return nerr(cx, n, SEER_STATUS_NET_SHAPE, "0 copies a dimension the input lacks");
            d[i] = x->d[i];
        }
        if (d[i] == -1) {
            if (infer >= 0) return nerr(cx, n, SEER_STATUS_NET_SHAPE, "two -1 dimensions");
            infer = i;
        } else if (d[i] < 0 || !seer_mul_ok(known, d[i], &known)) {
            return nerr(cx, n, SEER_STATUS_NET_SHAPE, "target dimension %d is %lld", i, (long long)d[i]);
        }
    }
    if (infer >= 0) {
        if (!known || total % known) return nerr(cx, n, SEER_STATUS_NET_SHAPE, "-1 cannot be resolved");
        d[infer] = total / known;
        known = total;
    }
    if (known != total)
        return nerr(cx, n, SEER_STATUS_NET_SHAPE, "target shape has %lld elements, the input %lld", (long long)known,
                    (long long)total);
    return view(cx, n, x, o, nv, d, 0);
}

static seer_status_t do_squeeze(cx_t *cx, const Onnx__NodeProto *n, tensor_t *x, tensor_t *o, int un)
{
    int64_t ax[SEER_ONNX_MAX_RANK + 1], d[SEER_ONNX_MAX_RANK];
    int na = cx->opset < 13 ? attr_ints(n, "axes", ax, SEER_ONNX_MAX_RANK + 1)
                            : const_ints(cx, n, 1, ax, SEER_ONNX_MAX_RANK + 1);
    int rank = 0, out_rank = un ? x->rank + (na > 0 ? na : 0) : x->rank;
    unsigned mark = 0;
    if (na > SEER_ONNX_MAX_RANK || (un && na < 1) || out_rank > SEER_ONNX_MAX_RANK)
        return nerr(cx, n, SEER_STATUS_NET_SHAPE, "axes not a constant libseer can fold");
    for (int i = 0; i < na; i++) {
        int a = norm_axis(ax[i], out_rank);
        if (a < 0) return nerr(cx, n, SEER_STATUS_NET_SHAPE, "axis %lld out of range", (long long)ax[i]);
        mark |= 1u << a;
    }
    if (un) {
        for (int i = 0, j = 0; i < out_rank; i++) d[rank++] = mark >> i & 1 ? 1 : x->d[j++];
    } else {
        for (int i = 0; i < x->rank; i++)
            if (!(na < 0 ? x->d[i] == 1 : mark >> i & 1)) d[rank++] = x->d[i];
            else if (x->d[i] != 1) return nerr(cx, n, SEER_STATUS_NET_SHAPE, "squeezes a dimension of size %lld",
                                               (long long)x->d[i]);
    }
    return view(cx, n, x, o, rank, d, 0);
}

static seer_status_t do_gemm(cx_t *cx, const Onnx__NodeProto *n, tensor_t *x, tensor_t *o, int matmul,
                             int *bias_from)
{
    seer_status_t st;
    tensor_t *w = input(cx, n, 1);
    if ((st = need_view(cx, n, x))) return st;
    if (x->rank != 2) return unsupported(cx, n, "a matrix product over other than 2-D (batch x features) input");
    if (!w || !w->is_const || !w->known || w->rank != 2)
        return unsupported(cx, n, "a product with other than a constant 2-D weight");
    if (!matmul && attr_int(n, "transA", 0)) return unsupported(cx, n, "transA=1");
    int tb = !matmul && attr_int(n, "transB", 0);
    int64_t F = w->d[tb ? 1 : 0], K = w->d[tb ? 0 : 1];
    if (F != x->d[1])
        return nerr(cx, n, SEER_STATUS_NET_SHAPE, "weight %lldx%lld does not fit %lld input features",
                    (long long)w->d[0], (long long)w->d[1], (long long)x->d[1]);
    int64_t d[2] = {x->d[0], K};
    int bias = matmul ? *bias_from >= 0 : input(cx, n, 2) != NULL;
    if ((st = set_dims(cx, n, o, 2, d)) || (st = layer_line(cx, n, o, "fc", &x, 1))) return st;
    emit(cx, " k=%lld%s\n", (long long)K, bias ? "" : " bias=0");
    return SEER_STATUS_SUCCESS;
}

/* MatMul followed by an Add of a constant [K] vector (its only reader):
 * nn.Linear exported as two nodes.  Returns the Add's node index, or -1. */
static int matmul_bias(cx_t *cx, const Onnx__NodeProto *n, const tensor_t *o)
{
    if (!o || o->readers != 1) return -1;
    for (size_t i = 0; i < cx->g->n_node; i++) {
        const Onnx__NodeProto *m = cx->g->node[i];
        if (strcmp(m->op_type, "Add") || m->n_input != 2 || m == n) continue;
        for (int k = 0; k < 2; k++) {
            if (strcmp(m->input[k], o->name)) continue;
            tensor_t *b = input(cx, m, (size_t)(1 - k));
            tensor_t *w = input(cx, n, 1);
            if (b && b->is_const && b->known && w && w->known && w->rank == 2 && elems(b, 0) == w->d[1] &&
                b->rank >= 1 && b->d[b->rank - 1] == w->d[1])
                return (int)i;
        }
    }
    return -1;
}

/* Sigmoid whose only reader is Mul(x, sigmoid(x)): SiLU as older
 * exporters write it.  Returns the Mul's node index, or -1. */
static int sigmoid_silu(cx_t *cx, const Onnx__NodeProto *n, const tensor_t *o)
{
    if (!o || o->readers != 1 || !n->n_input) return -1;
    for (size_t i = 0; i < cx->g->n_node; i++) {
        const Onnx__NodeProto *m = cx->g->node[i];
        if (strcmp(m->op_type, "Mul") || m->n_input != 2) continue;
        if ((!strcmp(m->input[0], o->name) && !strcmp(m->input[1], n->input[0])) ||
            (!strcmp(m->input[1], o->name) && !strcmp(m->input[0], n->input[0])))
            return (int)i;
    }
    return -1;
}

static seer_status_t simple(cx_t *cx, const Onnx__NodeProto *n, tensor_t *x, tensor_t *o, const char *type,
                            const char *extra)
{
    seer_status_t st;
    if ((st = need_data(cx, n, x, 0)) || (st = copy_shape(cx, n, o, x)) || (st = layer_line(cx, n, o, type, &x, 1)))
        return st;
    emit(cx, "%s\n", extra);
    return SEER_STATUS_SUCCESS;
}

static seer_status_t do_clip(cx_t *cx, const Onnx__NodeProto *n, tensor_t *x, tensor_t *o)
{
    double lo = -INFINITY, hi = INFINITY;
    if (cx->opset < 11) {
        lo = attr_float(n, "min", -INFINITY);
        hi = attr_float(n, "max", INFINITY);
    } else {
        tensor_t *a = input(cx, n, 1), *b = input(cx, n, 2);
        if ((a && a->nval != 1) || (b && b->nval != 1))
            return unsupported(cx, n, "Clip bounds that are not constants");
        if (a) lo = a->val[0];
        if (b) hi = b->val[0];
    }
    if (lo == 0 && hi == 6) return simple(cx, n, x, o, "relu6", "");
    if (lo == 0 && isinf(hi)) return simple(cx, n, x, o, "relu", "");
    char why[120];
    snprintf(why, sizeof why, "Clip to [%g, %g] (relu: [0, inf), relu6: [0, 6])", lo, hi);
    return unsupported(cx, n, why);
}

static seer_status_t do_add(cx_t *cx, const Onnx__NodeProto *n, tensor_t *o)
{
    tensor_t *ins[SEER_NET_MAX_INPUTS];
    int nin = 0;
    seer_status_t st;
    for (size_t i = 0; i < n->n_input; i++) {
        tensor_t *x = input(cx, n, i);
        if (!x) continue;
        if (x->is_const) return unsupported(cx, n, "an addition of a constant tensor");
        if ((st = need_data(cx, n, x, 0))) return st;
        if (nin && (x->rank != ins[0]->rank || memcmp(x->d, ins[0]->d, (size_t)x->rank * sizeof *x->d)))
            return unsupported(cx, n, "a broadcasting addition (inputs of different shapes)");
        if (nin == SEER_NET_MAX_INPUTS) return nerr(cx, n, SEER_STATUS_OVERFLOW, "over %d inputs", SEER_NET_MAX_INPUTS);
        ins[nin++] = x;
    }
    if (nin < 2) return unsupported(cx, n, "an addition with fewer than two inputs");
    if ((st = copy_shape(cx, n, o, ins[0])) || (st = layer_line(cx, n, o, "add", ins, nin))) return st;
    emit(cx, "\n");
    return SEER_STATUS_SUCCESS;
}

/* x * y of equal shapes, or x * gate with the gate N x C x 1 x 1
 * (squeeze-and-excite): the description's mul, the larger input first. */
static seer_status_t do_mul(cx_t *cx, const Onnx__NodeProto *n, tensor_t *o)
{
    seer_status_t st;
    tensor_t *x[2] = {input(cx, n, 0), input(cx, n, 1)};
    if (!x[0] || !x[1]) return nerr(cx, n, SEER_STATUS_NET_INPUT, "Mul needs two inputs");
    if (x[0]->is_const || x[1]->is_const) return unsupported(cx, n, "a product with a constant tensor");
    if ((st = need_data(cx, n, x[0], 0)) || (st = need_data(cx, n, x[1], 0))) return st;
    if (elems(x[0], 1) < elems(x[1], 1)) { tensor_t *t = x[0]; x[0] = x[1]; x[1] = t; }
    int same = x[0]->rank == x[1]->rank && !memcmp(x[0]->d, x[1]->d, (size_t)x[0]->rank * sizeof *x[0]->d);
    int gate = x[0]->rank == 4 && x[1]->rank == 4 && x[1]->d[1] == x[0]->d[1] && x[1]->d[2] == 1 &&
               x[1]->d[3] == 1 && x[1]->d[0] == x[0]->d[0];
    if (!same && !gate) return unsupported(cx, n, "a broadcasting product other than a per-channel N x C x 1 x 1 gate");
    if ((st = copy_shape(cx, n, o, x[0])) || (st = layer_line(cx, n, o, "mul", x, 2))) return st;
    emit(cx, "\n");
    return SEER_STATUS_SUCCESS;
}

static seer_status_t do_concat(cx_t *cx, const Onnx__NodeProto *n, tensor_t *o)
{
    tensor_t *ins[SEER_NET_MAX_INPUTS];
    int nin = 0;
    seer_status_t st;
    int64_t d[SEER_ONNX_MAX_RANK];
    for (size_t i = 0; i < n->n_input; i++) {
        tensor_t *x = input(cx, n, i);
        if (!x) continue;
        if (x->is_const) return unsupported(cx, n, "a concatenation with a constant tensor");
        if ((st = need_data(cx, n, x, 0))) return st;
        if (nin == SEER_NET_MAX_INPUTS) return nerr(cx, n, SEER_STATUS_OVERFLOW, "over %d inputs", SEER_NET_MAX_INPUTS);
        ins[nin++] = x;
    }
    if (!nin) return nerr(cx, n, SEER_STATUS_NET_INPUT, "no inputs");
    int rank = ins[0]->rank;
    if (norm_axis(attr_int(n, "axis", 1), rank) != 1) return unsupported(cx, n, "a concatenation along other than channels");
    memcpy(d, ins[0]->d, sizeof d);
    d[1] = 0;
    for (int i = 0; i < nin; i++) {
        if (ins[i]->rank != rank) return nerr(cx, n, SEER_STATUS_NET_SHAPE, "inputs of different ranks");
        for (int k = 0; k < rank; k++)
            if (k != 1 && ins[i]->d[k] != ins[0]->d[k])
                return nerr(cx, n, SEER_STATUS_NET_SHAPE, "input '%s' differs in dimension %d", ins[i]->name, k);
        d[1] += ins[i]->d[1];
    }
    if (nin == 1) { o->layer = ins[0]->layer; return copy_shape(cx, n, o, ins[0]); }
    if ((st = set_dims(cx, n, o, rank, d)) || (st = layer_line(cx, n, o, "concat", ins, nin))) return st;
    emit(cx, "\n");
    return SEER_STATUS_SUCCESS;
}

/* Shapes of an unsupported node's output where libseer knows them, so
 * that skipping it leaves the rest consistent. */
static void skipped_shape(cx_t *cx, const Onnx__NodeProto *n, tensor_t *x, tensor_t *o)
{
    if (!x || !o || !x->known) return;
    if (!strcmp(n->op_type, "Transpose")) {
        int64_t perm[SEER_ONNX_MAX_RANK], d[SEER_ONNX_MAX_RANK];
        if (attr_ints(n, "perm", perm, SEER_ONNX_MAX_RANK) != x->rank) return;
        for (int i = 0; i < x->rank; i++) {
            if (perm[i] < 0 || perm[i] >= x->rank) return;
            d[i] = x->d[perm[i]];
        }
        memcpy(o->d, d, sizeof d);
    } else if (!strcmp(n->op_type, "Mul") || !strcmp(n->op_type, "Sub") || !strcmp(n->op_type, "Div") ||
               !strcmp(n->op_type, "Pow") || !strcmp(n->op_type, "Where")) {
        /* broadcast: the larger of the data inputs keeps the shape */
        for (size_t i = 0; i < n->n_input; i++) {
            tensor_t *y = input(cx, n, i);
            if (y && y->layer >= 0 && y->known && elems(y, 0) > elems(x, 0)) {
                o->layer = y->layer;
                o->rank = y->rank;
                memcpy(o->d, y->d, sizeof o->d);
            }
        }
    }
}

static seer_status_t translate_node(cx_t *cx, int ni)
{
    const Onnx__NodeProto *n = cx->g->node[ni];
    const char *op = n->op_type;
    tensor_t *x = input(cx, n, 0), *o = output(cx, n, 0);
    seer_status_t st;
    char why[160];
    if (n->domain && n->domain[0] && strcmp(n->domain, "ai.onnx")) {
        snprintf(why, sizeof why, "an operator of domain '%.60s'", n->domain);
        return unsupported(cx, n, why);
    }
    if (!o) return SEER_STATUS_SUCCESS; /* no output anyone can name: nothing to cost */
    if (cx->alias_in[ni] >= 0) { /* fused into the node that made its input */
        tensor_t *src = input(cx, n, (size_t)cx->alias_in[ni]);
        if (!src || src->layer < 0) return nerr(cx, n, SEER_STATUS_INTERNAL, "fused input lost");
        o->layer = src->layer;
        return copy_shape(cx, n, o, src);
    }
    int has_data = 0;
    for (size_t i = 0; i < n->n_input; i++) {
        tensor_t *y = input(cx, n, i);
        if (y && !y->is_const) has_data = 1;
    }
    if ((!has_data || !strcmp(op, "Shape")) && fold(cx, n, &st)) return st;
    for (size_t i = 0; i < n->n_input; i++) {
        tensor_t *y = input(cx, n, i);
        if (y && !y->is_const && (!y->known || y->layer < 0)) {
            snprintf(why, sizeof why, "reads '%.60s', which libseer could not compute (after a skipped node?)",
                     y->name);
            return cx->n_unsup ? unsupported(cx, n, why) : nerr(cx, n, SEER_STATUS_NET_SHAPE, "%s", why);
        }
    }
    if (!strcmp(op, "Conv")) return do_conv(cx, n, x, o);
    if (!strcmp(op, "BatchNormalization")) return simple(cx, n, x, o, "bn", "");
    if (!strcmp(op, "Relu")) return simple(cx, n, x, o, "relu", "");
    if (!strcmp(op, "Tanh")) return simple(cx, n, x, o, "tanh", "");
    if (!strcmp(op, "Gelu")) return simple(cx, n, x, o, "gelu", "");
    if (!strcmp(op, "HardSwish")) return simple(cx, n, x, o, "hardswish", "");
    if (!strcmp(op, "HardSigmoid")) return simple(cx, n, x, o, "hardsigmoid", "");
    if (!strcmp(op, "LeakyRelu")) return simple(cx, n, x, o, "leakyrelu", "");
    if (!strcmp(op, "Elu")) return simple(cx, n, x, o, "elu", "");
    if (!strcmp(op, "Sigmoid")) {
        int m = sigmoid_silu(cx, n, o);
        if (m >= 0) {
            const Onnx__NodeProto *mul = cx->g->node[m];
            cx->alias_in[m] = strcmp(mul->input[0], o->name) ? 1 : 0;
            return simple(cx, n, x, o, "silu", "");
        }
        return simple(cx, n, x, o, "sigmoid", "");
    }
    if (!strcmp(op, "Clip")) return do_clip(cx, n, x, o);
    if (!strcmp(op, "Softmax") || !strcmp(op, "LogSoftmax")) return simple(cx, n, x, o, "softmax", "");
    if (!strcmp(op, "Dropout")) {
        double p = attr_float(n, "ratio", 0.5);
        tensor_t *r = input(cx, n, 1);
        if (cx->opset >= 12 && r) {
            if (r->nval != 1) return unsupported(cx, n, "a dropout ratio that is not a constant");
            p = r->val[0];
        }
        if (!(p >= 0 && p < 1)) return nerr(cx, n, SEER_STATUS_NET_SHAPE, "ratio %g outside [0, 1)", p);
        snprintf(why, sizeof why, " p=%.6g", p);
        return simple(cx, n, x, o, "dropout", why);
    }
    if (!strcmp(op, "Identity")) {
        if ((st = need_view(cx, n, x))) return st;
        o->layer = x->layer;
        return copy_shape(cx, n, o, x);
    }
    if (!strcmp(op, "MaxPool") || !strcmp(op, "AveragePool")) return do_pool(cx, n, x, o, op[0] == 'M');
    if (!strcmp(op, "GlobalAveragePool") || !strcmp(op, "GlobalMaxPool")) {
        if ((st = need_data(cx, n, x, 1))) return st;
        int64_t d[4] = {x->d[0], x->d[1], 1, 1};
        if ((st = set_dims(cx, n, o, 4, d)) || (st = layer_line(cx, n, o, "pool", &x, 1))) return st;
        emit(cx, " %s global\n", op[6] == 'A' ? "avg" : "max");
        return SEER_STATUS_SUCCESS;
    }
    if (!strcmp(op, "Add") || !strcmp(op, "Sum")) return do_add(cx, n, o);
    if (!strcmp(op, "Concat")) return do_concat(cx, n, o);
    if (!strcmp(op, "Mul")) return do_mul(cx, n, o);
    if (!strcmp(op, "Flatten")) {
        if ((st = need_view(cx, n, x))) return st;
        int axis = norm_axis(attr_int(n, "axis", 1), x->rank + 1);
        if (axis != 1) return unsupported(cx, n, "a flatten that moves the batch dimension (axis other than 1)");
        int64_t d[2] = {x->d[0], elems(x, 1)};
        return view(cx, n, x, o, 2, d, x->rank > 2);
    }
    if (!strcmp(op, "Reshape")) {
        if ((st = need_view(cx, n, x))) return st;
        return do_reshape(cx, n, x, o);
    }
    if (!strcmp(op, "Squeeze") || !strcmp(op, "Unsqueeze")) {
        if ((st = need_view(cx, n, x))) return st;
        return do_squeeze(cx, n, x, o, op[0] == 'U');
    }
    if (!strcmp(op, "Gemm")) { int none = -1; return do_gemm(cx, n, x, o, 0, &none); }
    if (!strcmp(op, "MatMul")) {
        int add = matmul_bias(cx, n, o);
        if (add >= 0) {
            const Onnx__NodeProto *a = cx->g->node[add];
            cx->alias_in[add] = strcmp(a->input[0], o->name) ? 1 : 0;
        }
        st = do_gemm(cx, n, x, o, 1, &add);
        if (add >= 0 && o->layer < 0) cx->alias_in[add] = -1; /* not translated: the Add is on its own */
        return st;
    }
    snprintf(why, sizeof why, "the description format has no %.60s layer", op);
    st = unsupported(cx, n, why);
    skipped_shape(cx, n, x, o);
    return st;
}

/* ------------------------------------------------------------------ */
/* The graph                                                           */
/* ------------------------------------------------------------------ */

/* Graph inputs that are not initializers become `input` layers. */
static seer_status_t graph_inputs(cx_t *cx)
{
    static const Onnx__NodeProto none = ONNX__NODE_PROTO__INIT;
    char b[72];
    int n_data = 0;
    for (size_t i = 0; i < cx->g->n_input; i++) {
        const Onnx__ValueInfoProto *vi = cx->g->input[i];
        if (!vi->name || !vi->name[0]) return seer_error(cx->h, SEER_STATUS_ONNX_CORRUPT, "graph input %zu has no name", i);
        if (find_tensor(cx, vi->name) >= 0) continue; /* an initializer listed as input */
        const char *nm = show(vi->name, b, sizeof b);
        const Onnx__TypeProto *tp = vi->type;
        if (!tp || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !tp->tensor_type->shape)
            return seer_error(cx->h, SEER_STATUS_NET_SHAPE, "graph input '%s' is not a tensor of known rank", nm);
        const Onnx__TensorShapeProto *sh = tp->tensor_type->shape;
        if (sh->n_dim < 2 || sh->n_dim > 4)
            return seer_error(cx->h, SEER_STATUS_NET_SHAPE, "graph input '%s' has rank %zu (N x C x H x W or N x "
                              "features expected)", nm, sh->n_dim);
        int64_t d[4];
        for (size_t k = 0; k < sh->n_dim; k++) {
            const Onnx__TensorShapeProto__Dimension *dm = sh->dim[k];
            int fixed = dm->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE && dm->dim_value > 0;
            d[k] = fixed ? dm->dim_value : 0;
            if (k >= 2 && sh->n_dim == 4 && cx->opt.resolution > 0) d[k] = cx->opt.resolution;
            if (k == 0) {
                if (n_data == 0) {
                    cx->batch_static = fixed;
                    cx->batch = fixed ? dm->dim_value : SYM_BATCH;
                    if (fixed && dm->dim_value > SEER_NET_MAX_DIM)
                        return seer_error(cx->h, SEER_STATUS_OVERFLOW, "graph input '%s': batch %lld over 2^24", nm,
                                          (long long)dm->dim_value);
                }
                if (fixed != cx->batch_static || (fixed && dm->dim_value != cx->batch))
                    return seer_error(cx->h, SEER_STATUS_NET_SHAPE, "graph inputs disagree on the batch size");
                d[0] = cx->batch;
            } else if (!d[k]) {
                return seer_error(cx->h, SEER_STATUS_NET_SHAPE, "graph input '%s': dimension %zu is symbolic or "
                                  "unknown%s", nm, k, k >= 2 && sh->n_dim == 4 ? " (give a resolution: --res)" : "");
            }
        }
        int ti = add_tensor(cx, vi->name, -1);
        if (ti < 0) return seer_error(cx->h, SEER_STATUS_ONNX_CORRUPT, "graph input '%s' is listed twice", nm);
        tensor_t *t = &cx->t[ti];
        seer_status_t st = set_dims(cx, &none, t, (int)sh->n_dim, d);
        if (st) return st;
        int li = new_layer(cx, vi->name, t);
        if (li < 0) return seer_error(cx->h, SEER_STATUS_ALLOC_FAILED, "out of memory");
        const layer_t *l = &cx->L[li];
        emit(cx, "input name=%s c=%lld h=%lld w=%lld\n", l->name, (long long)l->c, (long long)l->h, (long long)l->w);
        n_data++;
    }
    if (!n_data) return seer_error(cx->h, SEER_STATUS_NET_INPUT, "the graph has no input that is not an initializer");
    return SEER_STATUS_SUCCESS;
}

/* Topological order: a min-heap on node index, fed as inputs become
 * available, so a sorted graph keeps its order.  Nodes never reached lie
 * on a cycle. */
static seer_status_t topo_order(cx_t *cx, int *order)
{
    size_t nn = cx->g->n_node;
    int *pending = calloc(nn ? nn : 1, sizeof *pending), *heap = malloc((nn ? nn : 1) * sizeof *heap);
    int *first = malloc((cx->nt ? cx->nt : 1) * sizeof *first), *next = NULL, *who = NULL;
    size_t edges = 0;
    for (size_t i = 0; i < nn; i++) edges += cx->g->node[i]->n_input;
    next = malloc((edges ? edges : 1) * sizeof *next);
    who = malloc((edges ? edges : 1) * sizeof *who);
    seer_status_t st = SEER_STATUS_SUCCESS;
    if (!pending || !heap || !first || !next || !who) { st = seer_error(cx->h, SEER_STATUS_ALLOC_FAILED, "out of memory"); goto out; }
    for (size_t i = 0; i < cx->nt; i++) first[i] = -1;
    size_t e = 0;
    for (size_t i = 0; i < nn; i++) {
        const Onnx__NodeProto *n = cx->g->node[i];
        for (size_t k = 0; k < n->n_input; k++) {
            if (!n->input[k][0]) continue;
            int t = find_tensor(cx, n->input[k]);
            if (cx->t[t].producer < 0) continue;
            if (cx->t[t].producer == (int)i) {
                char b1[72], b2[72];
                st = seer_error(cx->h, SEER_STATUS_NET_INPUT, "node '%s' reads its own output '%s': a cycle",
                                show(label(n), b1, sizeof b1), show(n->input[k], b2, sizeof b2));
                goto out;
            }
            pending[i]++;
            who[e] = (int)i;
            next[e] = first[t];
            first[t] = (int)e++;
        }
    }
    size_t nh = 0, done = 0;
#define HEAP_UP(x) do { size_t j_ = nh++; heap[j_] = (x); \
        while (j_ && heap[(j_ - 1) / 2] > heap[j_]) { int t_ = heap[j_]; heap[j_] = heap[(j_ - 1) / 2]; \
            heap[(j_ - 1) / 2] = t_; j_ = (j_ - 1) / 2; } } while (0)
    for (size_t i = 0; i < nn; i++) if (!pending[i]) HEAP_UP((int)i);
    while (nh) {
        int v = heap[0];
        heap[0] = heap[--nh];
        for (size_t j = 0;;) {
            size_t l = 2 * j + 1, r = l + 1, m = j;
            if (l < nh && heap[l] < heap[m]) m = l;
            if (r < nh && heap[r] < heap[m]) m = r;
            if (m == j) break;
            int t = heap[j]; heap[j] = heap[m]; heap[m] = t;
            j = m;
        }
        order[done++] = v;
        const Onnx__NodeProto *n = cx->g->node[v];
        for (size_t k = 0; k < n->n_output; k++) {
            if (!n->output[k][0]) continue;
            int t = find_tensor(cx, n->output[k]);
            for (int ed = first[t]; ed >= 0; ed = next[ed])
                if (!--pending[who[ed]]) HEAP_UP(who[ed]);
            first[t] = -1; /* an output listed twice releases its readers once */
        }
    }
#undef HEAP_UP
    if (done < nn) {
        size_t i = 0;
        while (!pending[i]) i++;
        char b1[72], b2[72];
        st = seer_error(cx->h, SEER_STATUS_NET_INPUT, "the graph has a cycle: %zu nodes wait on each other, among "
                        "them '%s' (%s)", nn - done, show(label(cx->g->node[i]), b1, sizeof b1),
                        show(cx->g->node[i]->op_type, b2, sizeof b2));
    }
out:
    free(pending); free(heap); free(first); free(next); free(who);
    return st;
}

static seer_status_t translate(cx_t *cx, const void *bytes, size_t len)
{
    char b1[72], b2[72];
    seer_status_t st;
    if (len > SEER_ONNX_MAX_BYTES)
        return seer_error(cx->h, SEER_STATUS_OVERFLOW, "ONNX input of %zu bytes (at most %zu)", len,
                          (size_t)SEER_ONNX_MAX_BYTES);
    Onnx__ModelProto *m = onnx__model_proto__unpack(NULL, len, bytes);
    if (!m) return seer_error(cx->h, SEER_STATUS_ONNX_CORRUPT, "not an ONNX ModelProto: the protobuf is truncated or "
                              "corrupt (%zu bytes)", len);
    int *order = NULL;
    if (!m->graph) { st = seer_error(cx->h, SEER_STATUS_ONNX_CORRUPT, "the model has no graph"); goto out; }
    cx->g = m->graph;
    cx->n_nodes = m->graph->n_node > INT32_MAX ? INT32_MAX : (int)m->graph->n_node;
    cx->opset = -1;
    for (size_t i = 0; i < m->n_opset_import; i++) {
        const Onnx__OperatorSetIdProto *o = m->opset_import[i];
        if (!o->domain || !o->domain[0] || !strcmp(o->domain, "ai.onnx")) cx->opset = o->has_version ? (int)(o->version > INT32_MAX ? INT32_MAX : o->version < -1 ? -1 : o->version) : -1;
    }
    if (cx->opset < SEER_ONNX_MIN_OPSET || cx->opset > SEER_ONNX_MAX_OPSET) {
        if (cx->opset < 0) st = seer_error(cx->h, SEER_STATUS_ONNX_OPSET, "the model declares no opset of the default domain");
        else st = seer_error(cx->h, SEER_STATUS_ONNX_OPSET, "default-domain opset %d (libseer reads opsets %d to %d)",
                             cx->opset, SEER_ONNX_MIN_OPSET, SEER_ONNX_MAX_OPSET);
        goto out;
    }
    const Onnx__GraphProto *g = cx->g;
    if (g->n_node > 4 * (size_t)SEER_NET_MAX_LAYERS) { /* no description that large parses */
        st = seer_error(cx->h, SEER_STATUS_OVERFLOW, "the graph has %zu nodes (at most %d)", g->n_node,
                        4 * SEER_NET_MAX_LAYERS);
        goto out;
    }
    size_t cap = g->n_initializer + g->n_input + 1;
    for (size_t i = 0; i < g->n_node; i++) cap += g->node[i]->n_output;
    for (cx->nslot = 16; cx->nslot < 2 * cap; cx->nslot *= 2) {}
    cx->t = malloc(cap * sizeof *cx->t);
    cx->slot = calloc(cx->nslot, sizeof *cx->slot);
    cx->alias_in = malloc((g->n_node ? g->n_node : 1) * sizeof *cx->alias_in);
    order = malloc((g->n_node ? g->n_node : 1) * sizeof *order);
    if (!cx->t || !cx->slot || !cx->alias_in || !order) { st = seer_error(cx->h, SEER_STATUS_ALLOC_FAILED, "out of memory"); goto out; }
    for (size_t i = 0; i < g->n_node; i++) cx->alias_in[i] = -1;

    emit(cx, "# translated from ONNX by libseer: producer '%s %s', opset %d\n",
         show(m->producer_name, b1, sizeof b1), show(m->producer_version, b2, sizeof b2), cx->opset);
    {
        char nm[48];
        size_t k = 0;
        for (const char *s = g->name ? g->name : ""; s[k] && k < 47; k++) nm[k] = valid_name_char(s[k]) ? s[k] : '_';
        nm[k] = 0;
        emit(cx, "network name=%s\n", k ? nm : "onnx");
    }
    for (size_t i = 0; i < g->n_initializer; i++) {
        const Onnx__TensorProto *tp = g->initializer[i];
        if (!tp->name || !tp->name[0]) { st = seer_error(cx->h, SEER_STATUS_ONNX_CORRUPT, "initializer %zu has no name", i); goto out; }
        int ti = add_tensor(cx, tp->name, -1);
        if (ti < 0) { st = seer_error(cx->h, SEER_STATUS_ONNX_CORRUPT, "initializer '%s' is defined twice", show(tp->name, b1, sizeof b1)); goto out; }
        if ((st = load_tensor(cx, NULL, tp, &cx->t[ti]))) goto out;
    }
    if ((st = graph_inputs(cx))) goto out;
    for (size_t i = 0; i < g->n_node; i++) {
        const Onnx__NodeProto *n = g->node[i];
        if (!n->op_type) { st = seer_error(cx->h, SEER_STATUS_ONNX_CORRUPT, "node %zu has no op_type", i); goto out; }
        for (size_t k = 0; k < n->n_output; k++)
            if (n->output[k][0] && add_tensor(cx, n->output[k], (int)i) < 0) {
                st = nerr(cx, n, SEER_STATUS_ONNX_CORRUPT, "output '%s' is defined twice (the graph is not in SSA "
                          "form)", show(n->output[k], b1, sizeof b1));
                goto out;
            }
    }
    for (size_t i = 0; i < g->n_node; i++) {
        const Onnx__NodeProto *n = g->node[i];
        for (size_t k = 0; k < n->n_input; k++) {
            if (!n->input[k][0]) continue;
            int t = find_tensor(cx, n->input[k]);
            if (t < 0) {
                st = nerr(cx, n, SEER_STATUS_NET_INPUT, "input '%s' is not defined by any node, initializer or "
                          "graph input", show(n->input[k], b1, sizeof b1));
                goto out;
            }
            cx->t[t].readers++;
        }
    }
    if ((st = topo_order(cx, order))) goto out;
    for (size_t i = 0; i < g->n_node; i++) {
        if ((st = translate_node(cx, order[i]))) {
            /* a failure after an unsupported node: the unsupported list
             * first, it is the likely cause */
            if (cx->n_unsup && !cx->opt.skip_unsupported) {
                char why[400];
                seer_strlcpy(why, seer_get_last_error(cx->h), sizeof why);
                st = unsupported_error(cx, why);
            }
            goto out;
        }
        if (cx->oom) { st = seer_error(cx->h, SEER_STATUS_ALLOC_FAILED, "out of memory"); goto out; }
    }
    if (cx->n_unsup && !cx->opt.skip_unsupported) { st = unsupported_error(cx, NULL); goto out; }
    if (cx->oom) st = seer_error(cx->h, SEER_STATUS_ALLOC_FAILED, "out of memory");
out:
    free(order);
    onnx__model_proto__free_unpacked(m, NULL);
    return st;
}

seer_status_t seer_onnx_translate(seer_handle_t h, const void *bytes, size_t len, const seer_onnx_options_t *opt,
                                  char **text, size_t *text_len, seer_onnx_info_t *info)
{
    static const seer_onnx_options_t dflt = SEER_ONNX_OPTIONS_DEFAULT;
    if (!text || !text_len || (!bytes && len)) return seer_error(h, SEER_STATUS_BAD_PARAM, "NULL argument");
    if (opt && (opt->resolution < 0 || opt->resolution > SEER_NET_MAX_DIM || (unsigned)opt->skip_unsupported > 1))
        return seer_error(h, SEER_STATUS_BAD_PARAM, "options: resolution outside 0..2^24 or skip_unsupported not 0/1");
    cx_t cx;
    memset(&cx, 0, sizeof cx);
    cx.h = h;
    cx.opt = opt ? *opt : dflt;
    seer_status_t st = translate(&cx, bytes ? bytes : "", len);
    if (!st) {
        *text = cx.out;
        *text_len = cx.olen;
        if (info) {
            info->batch = cx.batch_static ? (int)cx.batch : 0;
            info->opset = cx.opset;
            info->n_nodes = cx.n_nodes;
            info->n_skipped = cx.n_skipped;
        }
        cx.out = NULL;
    }
    free(cx.out);
    for (size_t i = 0; i < cx.nt; i++) free(cx.t[i].val);
    free(cx.t);
    free(cx.slot);
    free(cx.L);
    free(cx.lslot);
    free(cx.alias_in);
    return st;
}

/* ------------------------------------------------------------------ */
/* Public functions                                                    */
/* ------------------------------------------------------------------ */

seer_status_t seer_onnx_text(seer_handle_t h, const void *bytes, size_t len, const seer_onnx_options_t *options,
                             char *buf, size_t size, size_t *length, seer_onnx_info_t *info)
{
    if (!length || (!buf && size)) return seer_error(h, SEER_STATUS_BAD_PARAM, "NULL length or buffer");
    char *text;
    size_t n;
    seer_onnx_info_t inf;
    seer_status_t st = seer_onnx_translate(h, bytes, len, options, &text, &n, &inf);
    if (st) return st;
    *length = n;
    if (info) *info = inf;
    if (n + 1 > size) {
        free(text);
        return seer_error(h, SEER_STATUS_BUFFER_TOO_SMALL, "the description needs %zu bytes", n + 1);
    }
    memcpy(buf, text, n + 1);
    free(text);
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_network_create_onnx_ex(seer_handle_t h, const void *bytes, size_t len,
                                          const seer_onnx_options_t *options, seer_network_t *net)
{
    if (!net) return seer_error(h, SEER_STATUS_BAD_PARAM, "NULL net");
    char *text;
    size_t n;
    seer_status_t st = seer_onnx_translate(h, bytes, len, options, &text, &n, NULL);
    if (st) return st;
    st = seer_network_create(h, text, n, net);
    free(text);
    return st;
}

seer_status_t seer_network_create_onnx(seer_handle_t h, const void *bytes, size_t len, seer_network_t *net)
{
    return seer_network_create_onnx_ex(h, bytes, len, NULL, net);
}

seer_status_t seer_network_create_onnx_file(seer_handle_t h, const char *path, const seer_onnx_options_t *options,
                                            seer_network_t *net)
{
    if (!path || !net) return seer_error(h, SEER_STATUS_BAD_PARAM, "NULL path or net");
    char *buf = NULL;
    size_t n = 0;
    seer_status_t st = seer_read_file(h, path, "ONNX model", SEER_ONNX_MAX_BYTES, NULL, 0, &buf, &n);
    if (!st) st = seer_network_create_onnx_ex(h, buf, n, options, net);
    free(buf);
    return st;
}
