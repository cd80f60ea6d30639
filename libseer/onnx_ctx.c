/* ONNX import, the translation context (onnx_ctx.h): tensors found by
 * name in an open-addressing table (graphs reach 10^4 tensors, a linear
 * search per input would be quadratic), attributes, messages that name
 * the node, the layers of the description with unique names, and the
 * record of unsupported nodes that becomes one error listing them all. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "net.h"
#include "onnx_ctx.h"

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */
/* ------------------------------------------------------------------ */

void seer_onnx_cx_init(cx_t *cx, seer_handle_t h, const seer_onnx_options_t *opt)
{
    static const seer_onnx_options_t dflt = SEER_ONNX_OPTIONS_DEFAULT;
    memset(cx, 0, sizeof *cx);
    cx->h = h;
    cx->opt = opt ? *opt : dflt;
}

/* The name table is a power of two at least twice the names, so that
 * open addressing stays short and the mask replaces a modulo. */
seer_status_t seer_onnx_cx_tables(cx_t *cx, size_t n_tensors, size_t n_nodes)
{
    for (cx->nslot = 16; cx->nslot < 2 * n_tensors; cx->nslot *= 2) {}
    cx->t = malloc((n_tensors ? n_tensors : 1) * sizeof *cx->t);
    cx->slot = calloc(cx->nslot, sizeof *cx->slot);
    cx->alias_in = malloc((n_nodes ? n_nodes : 1) * sizeof *cx->alias_in);
    if (!cx->t || !cx->slot || !cx->alias_in) return seer_error(cx->h, SEER_STATUS_ALLOC_FAILED, "out of memory");
    for (size_t i = 0; i < n_nodes; i++) cx->alias_in[i] = -1;
    return SEER_STATUS_SUCCESS;
}

void seer_onnx_cx_free(cx_t *cx)
{
    free(cx->out);
    for (size_t i = 0; i < cx->nt; i++) free(cx->t[i].val);
    free(cx->t);
    free(cx->slot);
    free(cx->L);
    free(cx->lslot);
    free(cx->alias_in);
    memset(cx, 0, sizeof *cx);
}

void seer_onnx_emit(cx_t *cx, const char *fmt, ...)
{
    if (cx->oom) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        /* no buffer yet: measure only (NULL + 0 is undefined behaviour) */
        int n = cx->out ? vsnprintf(cx->out + cx->olen, cx->ocap - cx->olen, fmt, ap)
                        : vsnprintf(NULL, 0, fmt, ap);
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
const char *seer_onnx_label(const SeerOnnx__NodeProto *n)
{
    if (n->name && n->name[0]) return n->name;
    if (n->n_output && n->output[0][0]) return n->output[0];
    return "?";
}

/* Printable, bounded copy of a foreign string for messages and comments. */
const char *seer_onnx_show(const char *s, char *buf, size_t size)
{
    size_t i = 0;
    for (; s && s[i] && i + 4 < size && i < 60; i++) buf[i] = s[i] > 31 && s[i] < 127 ? s[i] : '?';
    if (s && s[i] && i + 4 <= size) { memcpy(buf + i, "...", 3); i += 3; }
    buf[i] = 0;
    return buf;
}

seer_status_t seer_onnx_nerr(cx_t *cx, const SeerOnnx__NodeProto *n, seer_status_t st, const char *fmt, ...)
{
    char msg[700], b1[72], b2[72];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!n->op_type) return seer_error(cx->h, st, "%s", msg); /* an initializer: no node */
    return seer_error(cx->h, st, "node '%s' (%s): %s", seer_onnx_show(seer_onnx_label(n), b1, sizeof b1),
                      seer_onnx_show(n->op_type, b2, sizeof b2), msg);
}

static uint64_t hash_str(const char *s) { return seer_fnv1a(SEER_FNV_OFFSET, s, strlen(s)); }

int seer_onnx_find_tensor(const cx_t *cx, const char *name)
{
    for (size_t i = hash_str(name) & (cx->nslot - 1);; i = (i + 1) & (cx->nslot - 1)) {
        uint32_t v = cx->slot[i];
        if (!v) return -1;
        if (!strcmp(cx->t[v - 1].name, name)) return (int)v - 1;
    }
}

/* A new tensor; -1 if the name is already defined (not SSA). */
int seer_onnx_add_tensor(cx_t *cx, const char *name, int producer)
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

tensor_t *seer_onnx_input(cx_t *cx, const SeerOnnx__NodeProto *n, size_t i)
{
    if (i >= n->n_input || !n->input[i][0]) return NULL;
    int k = seer_onnx_find_tensor(cx, n->input[i]);
    return k < 0 ? NULL : &cx->t[k];
}

tensor_t *seer_onnx_output(cx_t *cx, const SeerOnnx__NodeProto *n, size_t i)
{
    if (i >= n->n_output || !n->output[i][0]) return NULL;
    int k = seer_onnx_find_tensor(cx, n->output[i]);
    return k < 0 ? NULL : &cx->t[k];
}

const SeerOnnx__AttributeProto *seer_onnx_attr(const SeerOnnx__NodeProto *n, const char *name)
{
    for (size_t i = 0; i < n->n_attribute; i++)
        if (n->attribute[i]->name && !strcmp(n->attribute[i]->name, name)) return n->attribute[i];
    return NULL;
}

int64_t seer_onnx_attr_int(const SeerOnnx__NodeProto *n, const char *name, int64_t dflt)
{
    const SeerOnnx__AttributeProto *a = seer_onnx_attr(n, name);
    return a && a->has_i ? a->i : dflt;
}

double seer_onnx_attr_float(const SeerOnnx__NodeProto *n, const char *name, double dflt)
{
    const SeerOnnx__AttributeProto *a = seer_onnx_attr(n, name);
    return a && a->has_f ? a->f : dflt;
}

/* Up to max ints of a list attribute into v; the count, -1 when absent. */
int seer_onnx_attr_ints(const SeerOnnx__NodeProto *n, const char *name, int64_t *v, int max)
{
    const SeerOnnx__AttributeProto *a = seer_onnx_attr(n, name);
    if (!a || !a->n_ints) return -1;
    int k = (int)(a->n_ints < (size_t)max ? a->n_ints : (size_t)max);
    for (int i = 0; i < k; i++) v[i] = a->ints[i];
    return a->n_ints > (size_t)max ? max + 1 : k;
}

int seer_onnx_attr_str_is(const SeerOnnx__NodeProto *n, const char *name, const char *want)
{
    const SeerOnnx__AttributeProto *a = seer_onnx_attr(n, name);
    if (!a || !a->has_s) return 0;
    return a->s.len == strlen(want) && !memcmp(a->s.data, want, a->s.len);
}

int64_t seer_onnx_elems(const tensor_t *t, int from)
{
    int64_t e = 1;
    for (int i = from; i < t->rank; i++)
        if (!seer_mul_ok(e, t->d[i], &e)) return -1;
    return e;
}

int seer_onnx_norm_axis(int64_t axis, int rank)
{
    if (axis < 0) axis += rank;
    return axis < 0 || axis >= (rank ? rank : 1) ? -1 : (int)axis;
}

/* Dims of a tensor, checked against the limits: a data tensor's per-sample
 * elements (the batch excluded), a constant's elements, below 2^31. */
seer_status_t seer_onnx_set_dims(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *t, int rank, const int64_t *d)
{
    if (rank > SEER_ONNX_MAX_RANK)
        return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "tensor '%s' has rank %d (at most %d)", t->name, rank,
                              SEER_ONNX_MAX_RANK);
    for (int i = 0; i < rank; i++) {
        if (d[i] < 0) return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "tensor '%s' dimension %d is negative", t->name, i);
        if (d[i] > SEER_NET_MAX_DIM && !t->is_const && i > 0)
            return seer_onnx_nerr(cx, n, SEER_STATUS_OVERFLOW, "tensor '%s' dimension %d is %lld (over 2^24)", t->name, i,
                                  (long long)d[i]);
    }
    if (rank) memmove(t->d, d, (size_t)rank * sizeof *d); /* d is NULL for a scalar */
    t->rank = rank;
    t->nhwc = 0; /* new dims are in the layer's order until a transpose says otherwise */
    t->known = 1;
    int64_t e = seer_onnx_elems(t, t->is_const ? 0 : 1);
    if (e < 0 || e > INT32_MAX)
        return seer_onnx_nerr(cx, n, SEER_STATUS_OVERFLOW, "tensor '%s' has over 2^31 - 1 elements%s", t->name,
                              t->is_const ? "" : " per sample");
    return SEER_STATUS_SUCCESS;
}

/* Per-sample c x h x w of a data tensor of rank 2..4; 0 for other ranks. */
int seer_onnx_chw(const tensor_t *t, int64_t *c, int64_t *h, int64_t *w)
{
    if (!t->known || t->rank < 2 || t->rank > 4) return 0;
    if (t->nhwc) { /* rank 4: N x H x W x C */
        *c = t->d[3];
        *h = t->d[1];
        *w = t->d[2];
        return 1;
    }
    *c = t->d[1];
    *h = t->rank > 2 ? t->d[2] : 1;
    *w = t->rank > 3 ? t->d[3] : 1;
    return 1;
}

/* A data input a layer can read as is: its layer has its shape. */
seer_status_t seer_onnx_need_data(cx_t *cx, const SeerOnnx__NodeProto *n, const tensor_t *t, int rank4)
{
    int64_t c, hh, w;
    if (!t) return seer_onnx_nerr(cx, n, SEER_STATUS_NET_INPUT, "a required input is missing");
    if (t->layer < 0)
        return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "input '%s' is %s, not a tensor computed from the graph input",
                              t->name, t->is_const ? "a constant" : "not computable");
    if (rank4 && t->rank != 4)
        return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "input '%s' has rank %d (N x C x H x W expected)", t->name,
                              t->rank);
    const layer_t *l = &cx->L[t->layer];
    if (!seer_onnx_chw(t, &c, &hh, &w) || c != l->c || hh != l->h || w != l->w)
        return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "input '%s' is a view (rank %d) of layer '%s' that a layer "
                              "cannot read", t->name, t->rank, l->name);
    return SEER_STATUS_SUCCESS;
}

/* A data input read as a view (Reshape, Flatten, Squeeze, fc): its layer
 * holds the same elements per sample, in whatever shape. */
seer_status_t seer_onnx_need_view(cx_t *cx, const SeerOnnx__NodeProto *n, const tensor_t *t)
{
    if (!t) return seer_onnx_nerr(cx, n, SEER_STATUS_NET_INPUT, "a required input is missing");
    if (t->layer < 0 || !t->known)
        return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "input '%s' is %s, not a tensor computed from the graph input",
                              t->name, t->is_const ? "a constant" : "not computable");
    const layer_t *l = &cx->L[t->layer];
    if (seer_onnx_elems(t, 1) != l->c * l->h * l->w)
        return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "input '%s' has %lld elements per sample, its layer '%s' %lld",
                              t->name, (long long)seer_onnx_elems(t, 1), l->name, (long long)(l->c * l->h * l->w));
    return SEER_STATUS_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Layers of the description                                           */
/* ------------------------------------------------------------------ */

int seer_onnx_valid_name_char(char ch)
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
int seer_onnx_new_layer(cx_t *cx, const char *base, tensor_t *t)
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
    for (; base[k] && k < sizeof nm - 1; k++) nm[k] = seer_onnx_valid_name_char(base[k]) ? base[k] : '_';
    nm[k] = 0;
    if (!k) seer_strlcpy(nm, "layer", sizeof nm);
    seer_strlcpy(l->name, nm, sizeof l->name);
    size_t slot;
    for (int suffix = 2; find_layer(cx, l->name, &slot) >= 0; suffix++) /* "-N" replaces the end */
        snprintf(l->name, sizeof l->name, "%.*s-%d", (int)(k < 36 ? k : 36), nm, suffix);
    cx->lslot[slot] = (uint32_t)cx->nl + 1;
    seer_onnx_chw(t, &l->c, &l->h, &l->w);
    t->layer = cx->nl;
    t->is_const = 0;
    return cx->nl++;
}

/* Start a layer line "TYPE name=N in=A,B" for node n's output t reading
 * the data inputs ins.  SUCCESS, NET_SHAPE or ALLOC_FAILED. */
seer_status_t seer_onnx_layer_line(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *t, const char *type,
                                   tensor_t *const *ins, int nin)
{
    int64_t c, hh, w;
    char b[72];
    /* an empty output (a weight of 0 outputs): refused naming the node and
     * tensor, as the description's parser would only name a line of the
     * translated text */
    if (seer_onnx_chw(t, &c, &hh, &w) && (c < 1 || hh < 1 || w < 1))
        return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "output '%s' would be empty (%lld x %lld x %lld per "
                              "sample)", seer_onnx_show(t->name, b, sizeof b), (long long)c, (long long)hh, (long long)w);
    int li = seer_onnx_new_layer(cx, n->name && n->name[0] ? n->name : t->name, t);
    if (li < 0) return seer_error(cx->h, SEER_STATUS_ALLOC_FAILED, "out of memory");
    seer_onnx_emit(cx, "%s name=%s in=", type, cx->L[li].name);
    for (int i = 0; i < nin; i++) seer_onnx_emit(cx, "%s%s", i ? "," : "", cx->L[ins[i]->layer].name);
    return SEER_STATUS_SUCCESS;
}

/* " size=A" or " r=A s=B" style pairs; nothing when both equal dflt. */
void seer_onnx_pair_opt(cx_t *cx, const char *both, const char *a_name, const char *b_name, int64_t a, int64_t b,
                        int64_t dflt)
{
    if (a == b && a == dflt) return;
    if (a == b) seer_onnx_emit(cx, " %s=%lld", both, (long long)a);
    else seer_onnx_emit(cx, " %s=%lld %s=%lld", a_name, (long long)a, b_name, (long long)b);
}

/* ------------------------------------------------------------------ */
/* Unsupported nodes                                                   */
/* ------------------------------------------------------------------ */

/* Record node n as unsupported and let its outputs alias its first data
 * input (shape and layer), so that translation goes on: with
 * skip_unsupported the rest is predicted, without it every unsupported
 * node is still counted before the error. */
seer_status_t seer_onnx_unsupported(cx_t *cx, const SeerOnnx__NodeProto *n, const char *why)
{
    char b1[72], b2[72], w[160];
    /* the reason may quote the file's own strings (a domain, an operator,
     * a tensor name): a line break in one would end the "# skipped:"
     * comment and put the rest on a line of its own, a layer or an
     * "# unfolded:" line of the description */
    size_t wl = 0;
    for (; why[wl] && wl < sizeof w - 1; wl++) w[wl] = why[wl] > 31 && why[wl] < 127 ? why[wl] : '?';
    w[wl] = 0;
    why = w;
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
        if (u->count < UNSUP_NAMES) seer_strlcpy(u->names[u->count], seer_onnx_label(n), sizeof u->names[0]);
        if (!u->count) seer_strlcpy(u->why, why, sizeof u->why);
        u->count++;
    }
    if (cx->opt.skip_unsupported) {
        cx->n_skipped++;
        seer_onnx_emit(cx, "# skipped: %s node '%s': %s\n", seer_onnx_show(n->op_type, b1, sizeof b1),
                       seer_onnx_show(seer_onnx_label(n), b2, sizeof b2), why);
    }
    tensor_t *src = NULL;
    for (size_t i = 0; i < n->n_input && !src; i++) {
        tensor_t *x = seer_onnx_input(cx, n, i);
        if (x && x->layer >= 0) src = x;
    }
    for (size_t i = 0; i < n->n_output; i++) {
        tensor_t *o = seer_onnx_output(cx, n, i);
        if (!o) continue;
        if (src && i == 0) {
            o->known = src->known;
            o->rank = src->rank;
            memcpy(o->d, src->d, sizeof o->d);
            o->layer = src->layer;
            o->nhwc = src->nhwc;
        } else {
            o->known = 0;
        }
    }
    return SEER_STATUS_SUCCESS;
}

/* then: a later failure, added to the message (NULL: none). */
seer_status_t seer_onnx_unsupported_error(cx_t *cx, const char *then)
{
    /* whole entries only: one that does not fit is counted, not cut (the
     * handle's message holds 1023 characters, the tail included) */
    char msg[700], e[700], b[72];
    size_t len = (size_t)snprintf(msg, sizeof msg, "%d unsupported node%s:", cx->n_unsup, cx->n_unsup == 1 ? "" : "s");
    int k = 0;
    for (; k < cx->n_unsup_ops; k++) {
        const unsup_t *u = &cx->unsup[k];
        size_t el = (size_t)snprintf(e, sizeof e, "%s %s x%d (", k ? ";" : "", seer_onnx_show(u->op, b, sizeof b),
                                     u->count);
        for (int i = 0; i < u->count && i < UNSUP_NAMES && el < sizeof e; i++)
            el += (size_t)snprintf(e + el, sizeof e - el, "%s'%s'", i ? ", " : "", seer_onnx_show(u->names[i], b, sizeof b));
        if (el < sizeof e)
            el += (size_t)snprintf(e + el, sizeof e - el, "%s: %s)", u->count > UNSUP_NAMES ? ", ..." : "", u->why);
        if (len + el + 40 >= sizeof msg) break; /* room for the count below */
        memcpy(msg + len, e, el + 1);
        len += el;
    }
    if (k < cx->n_unsup_ops)
        snprintf(msg + len, sizeof msg - len, "; and %d more operator%s", cx->n_unsup_ops - k,
                 cx->n_unsup_ops - k == 1 ? "" : "s");
    return seer_error(cx->h, SEER_STATUS_ONNX_UNSUPPORTED_OP, "%s; --skip-unsupported (skip_unsupported) "
                      "predicts the rest%s%s", msg, then ? "; then " : "", then ? then : "");
}
