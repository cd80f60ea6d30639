/* ONNX import, constants (onnx_ctx.h): initializers and Constant nodes
 * read into tensors, and the small constant computations exporters
 * write around shapes (Shape, Gather, Concat, Slice, arithmetic) folded,
 * so that Reshape targets, Clip bounds and Dropout ratios are known
 * statically.  Only values of up to SEER_ONNX_MAX_CONST elements are
 * kept: shape vectors are tiny, and weights need only their dims. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "onnx_ctx.h"

static double le_value(const uint8_t *p, int type)
{
    uint64_t u = 0;
    int size = type == SEER_ONNX__TENSOR_PROTO__DATA_TYPE__INT32 || type == SEER_ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT ? 4 : 8;
    for (int i = size - 1; i >= 0; i--) u = u << 8 | p[i];
    switch (type) {
    case SEER_ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT: { uint32_t v = (uint32_t)u; float f; memcpy(&f, &v, 4); return f; }
    case SEER_ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE: { double f; memcpy(&f, &u, 8); return f; }
    case SEER_ONNX__TENSOR_PROTO__DATA_TYPE__INT32: return (double)(int32_t)(uint32_t)u;
    default: return (double)(int64_t)u;
    }
}

static int elem_size(int type)
{
    switch (type) {
    case SEER_ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT: case SEER_ONNX__TENSOR_PROTO__DATA_TYPE__INT32:
    case SEER_ONNX__TENSOR_PROTO__DATA_TYPE__UINT32: return 4;
    case SEER_ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE: case SEER_ONNX__TENSOR_PROTO__DATA_TYPE__INT64:
    case SEER_ONNX__TENSOR_PROTO__DATA_TYPE__UINT64: return 8;
    case SEER_ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16: case SEER_ONNX__TENSOR_PROTO__DATA_TYPE__BFLOAT16:
    case SEER_ONNX__TENSOR_PROTO__DATA_TYPE__INT16: case SEER_ONNX__TENSOR_PROTO__DATA_TYPE__UINT16: return 2;
    case SEER_ONNX__TENSOR_PROTO__DATA_TYPE__INT8: case SEER_ONNX__TENSOR_PROTO__DATA_TYPE__UINT8:
    case SEER_ONNX__TENSOR_PROTO__DATA_TYPE__BOOL: return 1;
    default: return 0;
    }
}

/* An initializer or a Constant's tensor into t: dims checked, data size
 * checked against the dims, small numeric contents folded. */
seer_status_t seer_onnx_load_tensor(cx_t *cx, const SeerOnnx__NodeProto *n, const SeerOnnx__TensorProto *tp, tensor_t *t)
{
    static const SeerOnnx__NodeProto none = SEER_ONNX__NODE_PROTO__INIT;
    const SeerOnnx__NodeProto *at = n ? n : &none;
    seer_status_t st;
    t->is_const = 1;
    if (tp->n_dims > SEER_ONNX_MAX_RANK)
        return seer_onnx_nerr(cx, at, SEER_STATUS_NET_SHAPE, "tensor '%s' has rank %zu (at most %d)", t->name, tp->n_dims,
                              SEER_ONNX_MAX_RANK);
    if ((st = seer_onnx_set_dims(cx, at, t, (int)tp->n_dims, tp->dims))) return st;
    int type = tp->has_data_type ? tp->data_type : 0;
    int64_t e = seer_onnx_elems(t, 0);
    int es = elem_size(type);
    t->is_int = type != SEER_ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT && type != SEER_ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE &&
                type != SEER_ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16 && type != SEER_ONNX__TENSOR_PROTO__DATA_TYPE__BFLOAT16;
    if (tp->has_data_location && tp->data_location == SEER_ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL) return 0;
    size_t have = tp->n_float_data + tp->n_int32_data + tp->n_int64_data + tp->n_double_data + tp->n_uint64_data;
    if (tp->has_raw_data && es && tp->raw_data.len != (size_t)e * (size_t)es)
        return seer_onnx_nerr(cx, at, SEER_STATUS_ONNX_CORRUPT, "tensor '%s': raw_data has %zu bytes, its dims need %lld",
                              t->name, tp->raw_data.len, (long long)e * es);
    if (!tp->has_raw_data && have && have != (size_t)e)
        return seer_onnx_nerr(cx, at, SEER_STATUS_ONNX_CORRUPT, "tensor '%s' holds %zu values, its dims need %lld", t->name,
                              have, (long long)e);
    if (e > SEER_ONNX_MAX_CONST) return SEER_STATUS_SUCCESS;
    int ok = type == SEER_ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT || type == SEER_ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE ||
             type == SEER_ONNX__TENSOR_PROTO__DATA_TYPE__INT32 || type == SEER_ONNX__TENSOR_PROTO__DATA_TYPE__INT64;
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

/* A constant 1-D (or scalar) value list of input i, truncated to
 * integers and saturated at int64's range (a Slice's end of INT64_MAX
 * comes back as a double of 2^63, and a cast out of range is undefined);
 * count, -1 if not known or NaN. */
int seer_onnx_const_ints(cx_t *cx, const SeerOnnx__NodeProto *n, size_t i, int64_t *v, int max)
{
    tensor_t *t = seer_onnx_input(cx, n, i);
    if (!t || t->nval < 0 || t->nval > max) return -1;
    for (int k = 0; k < t->nval; k++) {
        double x = t->val[k];
        if (x != x) return -1;
        v[k] = x >= 9223372036854775807.0 ? INT64_MAX : x <= -9223372036854775807.0 ? INT64_MIN : (int64_t)x;
    }
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

static seer_status_t const_vector(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *o, const double *v, int nv,
                                  int is_int, int scalar)
{
    int64_t d = nv;
    o->is_const = 1;
    seer_status_t st = seer_onnx_set_dims(cx, n, o, scalar ? 0 : 1, &d);
    if (!st) set_const_vals(o, v, nv, is_int);
    return st;
}

/* A Constant node: its value attribute, whichever of the forms it takes. */
static seer_status_t fold_constant(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *o)
{
    const SeerOnnx__AttributeProto *at;
    double v[SEER_ONNX_MAX_CONST];
    o->is_const = 1;
    if ((at = seer_onnx_attr(n, "value")) && at->t) return seer_onnx_load_tensor(cx, n, at->t, o);
    if ((at = seer_onnx_attr(n, "value_float")) && at->has_f) { v[0] = at->f; return const_vector(cx, n, o, v, 1, 0, 1); }
    if ((at = seer_onnx_attr(n, "value_int")) && at->has_i) { v[0] = (double)at->i; return const_vector(cx, n, o, v, 1, 1, 1); }
    if ((at = seer_onnx_attr(n, "value_ints")) && at->n_ints <= SEER_ONNX_MAX_CONST) {
        for (size_t i = 0; i < at->n_ints; i++) v[i] = (double)at->ints[i];
        return const_vector(cx, n, o, v, (int)at->n_ints, 1, 0);
    }
    if ((at = seer_onnx_attr(n, "value_floats")) && at->n_floats <= SEER_ONNX_MAX_CONST) {
        for (size_t i = 0; i < at->n_floats; i++) v[i] = at->floats[i];
        return const_vector(cx, n, o, v, (int)at->n_floats, 0, 0);
    }
    return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "a Constant whose value libseer cannot read");
}

/* Shape of any tensor whose dims are known (a data tensor included):
 * the start..end slice of its dims. */
static seer_status_t fold_shape(cx_t *cx, const SeerOnnx__NodeProto *n, const tensor_t *a, tensor_t *o)
{
    double v[SEER_ONNX_MAX_CONST];
    if (!a || !a->known) return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "the shape of its input is not known");
    int64_t s = seer_onnx_attr_int(n, "start", 0), e = seer_onnx_attr_int(n, "end", a->rank);
    if (s < 0) s += a->rank;
    if (e < 0) e += a->rank;
    s = s < 0 ? 0 : s > a->rank ? a->rank : s;
    e = e < s ? s : e > a->rank ? a->rank : e;
    for (int64_t i = s; i < e; i++) v[i - s] = (double)a->d[i];
    return const_vector(cx, n, o, v, (int)(e - s), 1, 0);
}

/* Identity, Cast and DequantizeLinear keep the shape; the values pass
 * (Cast truncates to an integer type) except through DequantizeLinear,
 * whose scale is not applied: its output's values stay unknown. */
static seer_status_t fold_passthrough(cx_t *cx, const SeerOnnx__NodeProto *n, const tensor_t *a, tensor_t *o)
{
    seer_status_t st;
    double v[SEER_ONNX_MAX_CONST];
    const char *op = n->op_type;
    if (a->known && (st = seer_onnx_set_dims(cx, n, o, a->rank, a->d))) return st;
    if (a->nval < 0) return SEER_STATUS_SUCCESS;
    int is_int = a->is_int;
    if (!strcmp(op, "Cast")) {
        int64_t to = seer_onnx_attr_int(n, "to", 1);
        is_int = to != 1 && to != 10 && to != 11 && to != 16;
        const SeerOnnx__AttributeProto *s = cx->opset < 6 ? seer_onnx_attr(n, "to") : NULL;
        if (s && s->has_s) /* a type name before opset 6 */
            is_int = !(s->s.len == 5 && !memcmp(s->s.data, "FLOAT", 5)) &&
                     !(s->s.len == 7 && !memcmp(s->s.data, "FLOAT16", 7)) &&
                     !(s->s.len == 6 && !memcmp(s->s.data, "DOUBLE", 6));
        for (int i = 0; i < a->nval; i++) v[i] = is_int ? trunc(a->val[i]) : a->val[i];
    } else memcpy(v, a->val, (size_t)a->nval * sizeof *v);
    if (strcmp(op, "DequantizeLinear")) set_const_vals(o, v, a->nval, is_int);
    return SEER_STATUS_SUCCESS;
}

/* Whether a's folded values fill its dims (row-major), and so can be
 * moved about by index. */
static int values_fill(const tensor_t *a)
{
    return a->known && a->nval >= 0 && seer_onnx_elems(a, 0) == a->nval;
}

/* Transpose of a constant: dims permuted (default: reversed), and its
 * values where it has them (the TorchScript exporter's F.pad computes
 * Pad's pads through a Transpose of a 2-column table). */
static seer_status_t fold_transpose(cx_t *cx, const SeerOnnx__NodeProto *n, const tensor_t *a, tensor_t *o)
{
    int64_t perm[SEER_ONNX_MAX_RANK + 1], d[SEER_ONNX_MAX_RANK], from[SEER_ONNX_MAX_RANK], stride[SEER_ONNX_MAX_RANK];
    if (!a->known) return SEER_STATUS_SUCCESS;
    int np = seer_onnx_attr_ints(n, "perm", perm, SEER_ONNX_MAX_RANK + 1);
    unsigned used = 0;
    for (int i = 0; i < a->rank; i++) {
        int p = np < 0 ? a->rank - 1 - i : np == a->rank && perm[i] >= 0 && perm[i] < a->rank ? (int)perm[i] : -1;
        if (p < 0 || (used >> p & 1u))
            return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "perm is no permutation of rank %d", a->rank);
        used |= 1u << p;
        d[i] = a->d[p];
        from[i] = p;
    }
    if (values_fill(a) && a->nval > 0) { /* every dim at least 1, their product at most SEER_ONNX_MAX_CONST */
        double v[SEER_ONNX_MAX_CONST];
        for (int i = a->rank - 1, s = 1; i >= 0; s *= (int)a->d[i], i--) stride[i] = s;
        for (int j = 0; j < a->nval; j++) {
            int64_t rest = j, off = 0;
            for (int i = a->rank - 1; i >= 0; i--) {
                off += rest % d[i] * stride[from[i]];
                rest /= d[i];
            }
            v[j] = a->val[off];
        }
        set_const_vals(o, v, a->nval, a->is_int);
    }
    return seer_onnx_set_dims(cx, n, o, a->rank, d);
}

/* Unsqueeze, Squeeze, Reshape, Flatten of a folded value: values in
 * order; only the rank changes (shape vectors are 0-D or 1-D). */
static seer_status_t fold_reshape(cx_t *cx, const SeerOnnx__NodeProto *n, const tensor_t *a, tensor_t *o)
{
    set_const_vals(o, a->val, a->nval, a->is_int);
    int64_t t[SEER_ONNX_MAX_RANK + 1], dd[SEER_ONNX_MAX_RANK], known = 1;
    /* a Reshape to a table (the TorchScript exporter's F.pad: [-1, 2])
     * keeps its dims, which a Slice or Transpose after it moves by */
    int nt = strcmp(n->op_type, "Reshape") ? -1 : seer_onnx_const_ints(cx, n, 1, t, SEER_ONNX_MAX_RANK + 1), infer = -1;
    for (int i = 0; nt >= 2 && nt <= SEER_ONNX_MAX_RANK && i < nt; i++) {
        dd[i] = t[i] == 0 && !seer_onnx_attr_int(n, "allowzero", 0) && i < a->rank ? a->d[i] : t[i];
        if (dd[i] == -1 && infer < 0) infer = i;
        else if (dd[i] < 1 || dd[i] > SEER_ONNX_MAX_CONST) nt = -1;
        else known *= dd[i];
        if (i == nt - 1 && nt >= 2) {
            if (infer >= 0 && known > 0 && a->nval % known == 0) dd[infer] = a->nval / known, known = a->nval;
            if (known == a->nval) return seer_onnx_set_dims(cx, n, o, nt, dd);
        }
    }
    int64_t d = a->nval;
    int rank = !strcmp(n->op_type, "Squeeze") && a->nval == 1 ? 0 : 1;
    return seer_onnx_set_dims(cx, n, o, rank, &d);
}

/* Gather along axis 0 of a folded vector (picking dims out of Shape). */
static seer_status_t fold_gather(cx_t *cx, const SeerOnnx__NodeProto *n, const tensor_t *a, const tensor_t *b,
                                 tensor_t *o)
{
    double v[SEER_ONNX_MAX_CONST];
    if (!b || b->nval < 0 || a->rank > 1 || seer_onnx_norm_axis(seer_onnx_attr_int(n, "axis", 0), a->rank) != 0)
        return SEER_STATUS_SUCCESS; /* a vector's elements (a table's rows are not read so) */
    for (int i = 0; i < b->nval; i++) {
        if (!(fabs(b->val[i]) <= a->nval)) /* also keeps the cast defined */
            return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "index %g out of range", b->val[i]);
        int64_t k = (int64_t)b->val[i];
        if (k < 0) k += a->nval;
        if (k < 0 || k >= a->nval)
            return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "index %lld out of range", (long long)k);
        v[i] = a->val[k];
    }
    return const_vector(cx, n, o, v, b->nval, a->is_int, b->rank == 0);
}

/* Concat of folded vectors, while the result stays small. */
static seer_status_t fold_concat(cx_t *cx, const SeerOnnx__NodeProto *n, const tensor_t *a, tensor_t *o)
{
    double v[SEER_ONNX_MAX_CONST];
    int nv = 0;
    for (size_t i = 0; i < n->n_input; i++) {
        tensor_t *x = seer_onnx_input(cx, n, i);
        if (!x) continue;
        if (x->nval < 0 || x->rank > 1 || nv + x->nval > SEER_ONNX_MAX_CONST) return SEER_STATUS_SUCCESS; /* vectors */
        memcpy(v + nv, x->val, (size_t)x->nval * sizeof *v);
        nv += x->nval;
    }
    return const_vector(cx, n, o, v, nv, a->is_int, 0);
}

/* Slice of a folded value along one axis, any step (starts/ends/axes
 * attributes before opset 10, constant inputs since, with steps): a
 * vector's range, or the TorchScript exporter's flip of a table's rows
 * (step -1) on the way to F.pad's pads. */
static seer_status_t fold_slice(cx_t *cx, const SeerOnnx__NodeProto *n, const tensor_t *a, tensor_t *o)
{
    int64_t s, e, step = 1, axis = 0, x[SEER_ONNX_MAX_CONST];
    if (cx->opset < 10) {
        if (seer_onnx_attr_ints(n, "starts", &s, 1) != 1 || seer_onnx_attr_ints(n, "ends", &e, 1) != 1 ||
            seer_onnx_attr_ints(n, "axes", &axis, 1) > 1)
            return SEER_STATUS_SUCCESS;
    } else {
        if (seer_onnx_const_ints(cx, n, 1, x, 1) != 1) return SEER_STATUS_SUCCESS;
        s = x[0];
        if (seer_onnx_const_ints(cx, n, 2, x, 1) != 1) return SEER_STATUS_SUCCESS;
        e = x[0];
        if (seer_onnx_input(cx, n, 3)) {
            if (seer_onnx_const_ints(cx, n, 3, x, 1) != 1) return SEER_STATUS_SUCCESS;
            axis = x[0];
        }
        if (seer_onnx_input(cx, n, 4)) {
            if (seer_onnx_const_ints(cx, n, 4, x, 1) != 1) return SEER_STATUS_SUCCESS;
            step = x[0];
        }
    }
    int table = values_fill(a) && a->rank >= 1;
    int rank = table ? a->rank : 1, ax = seer_onnx_norm_axis(axis, rank);
    if (step == 0 || ax < 0 || (!table && a->rank > 1)) return SEER_STATUS_SUCCESS;
    int64_t d[SEER_ONNX_MAX_RANK], len = table ? a->d[ax] : a->nval, outer = 1, inner = 1;
    for (int i = 0; i < rank; i++) {
        d[i] = table ? a->d[i] : a->nval;
        if (i < ax) outer *= d[i];
        if (i > ax) inner *= d[i];
    }
    if (s < 0) s += len;
    if (e < 0) e += len;
    if (step > 0) {
        s = s < 0 ? 0 : s > len ? len : s;
        e = e < 0 ? 0 : e > len ? len : e;
    } else { /* ONNX: start in [0, len - 1], end in [-1, len - 1] (an empty axis: nothing) */
        s = s < 0 ? 0 : s;
        s = s > len - 1 ? len - 1 : s;
        e = e < -1 ? -1 : e > len - 1 ? len - 1 : e;
    }
    if (step > len) step = len + 1; /* the same indices, and i += step stays in range */
    if (step < -len) step = -len - 1;
    double v[SEER_ONNX_MAX_CONST];
    int nv = 0;
    int64_t cnt = 0;
    for (int64_t i = s; step > 0 ? i < e : i > e; i += step) cnt++;
    for (int64_t o1 = 0; o1 < outer; o1++)
        for (int64_t i = s; step > 0 ? i < e : i > e; i += step)
            for (int64_t k = 0; k < inner; k++) v[nv++] = a->val[(o1 * len + i) * inner + k];
    d[ax] = cnt;
    set_const_vals(o, v, nv, a->is_int);
    o->is_const = 1;
    return seer_onnx_set_dims(cx, n, o, rank, d);
}

/* The broadcast of two known shapes into rank, d; 0 where they do not
 * broadcast. */
static int broadcast_dims(const tensor_t *a, const tensor_t *b, int *rank, int64_t d[SEER_ONNX_MAX_RANK])
{
    *rank = a->rank > b->rank ? a->rank : b->rank;
    for (int k = 1; k <= *rank; k++) {
        int64_t x = k <= a->rank ? a->d[a->rank - k] : 1, y = k <= b->rank ? b->d[b->rank - k] : 1;
        if (x != y && x != 1 && y != 1) return 0;
        d[*rank - k] = x == 1 ? y : x;
    }
    return 1;
}

/* Add, Sub, Mul, Div (arith 1..4) of folded constants of one shape, or
 * of one and a single value (fold_all_const checks which), in their
 * broadcast shape (empty when either is); integer Div truncates, a
 * division by zero gives 0 (the value only sizes a shape, which then
 * fails its own checks). */
static seer_status_t fold_arith(cx_t *cx, const SeerOnnx__NodeProto *n, int arith, const tensor_t *a, const tensor_t *b,
                                tensor_t *o)
{
    double v[SEER_ONNX_MAX_CONST];
    int nv = a->nval > b->nval ? a->nval : b->nval, is_int = a->is_int && b->is_int;
    if (!a->nval || !b->nval) nv = 0;
    for (int i = 0; i < nv; i++) {
        double x = a->val[a->nval == 1 ? 0 : i], y = b->val[b->nval == 1 ? 0 : i];
        v[i] = arith == 1 ? x + y : arith == 2 ? x - y : arith == 3 ? x * y
             : y == 0 ? 0 : is_int ? trunc(x / y) : x / y;
    }
    const tensor_t *shape = a->nval >= b->nval ? a : b;
    seer_status_t st = const_vector(cx, n, o, v, nv, is_int, shape->rank == 0);
    if (st || (a->rank <= 1 && b->rank <= 1) || !a->known || !b->known) return st;
    int rank; /* the dims of a [B,1,1,1] + [1,1,1,1]: not a vector */
    int64_t d[SEER_ONNX_MAX_RANK], e = 1;
    if (!broadcast_dims(a, b, &rank, d)) return st;
    for (int i = 0; i < rank; i++) e *= d[i];
    return e == nv ? seer_onnx_set_dims(cx, n, o, rank, d) : st;
}

/* The shape, without values, of an elementwise op of constants (a
 * random mask compared and scaled: stochastic depth's in a training-mode
 * export), so that a product of data with it can be checked; unknown
 * where the shapes do not broadcast. */
static seer_status_t broadcast_shape(cx_t *cx, const SeerOnnx__NodeProto *n, const tensor_t *a, const tensor_t *b,
                                     tensor_t *o)
{
    static const char *const ops[] = {"Add", "Sub", "Mul", "Div", "Pow", "Less", "Greater", "Equal",
                                      "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor"};
    size_t i = 0;
    while (i < sizeof ops / sizeof *ops && strcmp(n->op_type, ops[i])) i++;
    int rank;
    int64_t d[SEER_ONNX_MAX_RANK];
    if (i == sizeof ops / sizeof *ops || !a->known || !b || !b->known || !broadcast_dims(a, b, &rank, d))
        return SEER_STATUS_SUCCESS;
    return seer_onnx_set_dims(cx, n, o, rank, d);
}

/* Range(start, limit, delta) of scalars: its values while they are few,
 * else its length alone (torch.export's as_strided at a symbolic batch
 * builds its indices from Range(0, batch)); unknown when the scalars are
 * not known or the length is absurd. */
static seer_status_t fold_range(cx_t *cx, const SeerOnnx__NodeProto *n, const tensor_t *a, tensor_t *o)
{
    const tensor_t *b = seer_onnx_input(cx, n, 1), *c = seer_onnx_input(cx, n, 2);
    if (!b || !c || a->nval != 1 || b->nval != 1 || c->nval != 1 || !(c->val[0] != 0)) return SEER_STATUS_SUCCESS;
    double len = ceil((b->val[0] - a->val[0]) / c->val[0]);
    if (!(len <= INT32_MAX)) return SEER_STATUS_SUCCESS; /* NaN too */
    int64_t d = len > 0 ? (int64_t)len : 0;
    if (d > SEER_ONNX_MAX_CONST) return seer_onnx_set_dims(cx, n, o, 1, &d);
    double v[SEER_ONNX_MAX_CONST];
    for (int64_t i = 0; i < d; i++) v[i] = a->val[0] + (double)i * c->val[0];
    return const_vector(cx, n, o, v, (int)d, a->is_int, 0);
}

/* Unsqueeze of a constant whose values were not folded: its dims. */
static seer_status_t unsqueeze_shape(cx_t *cx, const SeerOnnx__NodeProto *n, const tensor_t *a, tensor_t *o)
{
    int64_t ax[SEER_ONNX_MAX_RANK + 1], d[SEER_ONNX_MAX_RANK];
    int na = cx->opset < 13 ? seer_onnx_attr_ints(n, "axes", ax, SEER_ONNX_MAX_RANK + 1)
                            : seer_onnx_const_ints(cx, n, 1, ax, SEER_ONNX_MAX_RANK + 1);
    int rank = a->rank + na;
    unsigned mark = 0;
    if (!a->known || na < 1 || rank > SEER_ONNX_MAX_RANK) return SEER_STATUS_SUCCESS;
    for (int i = 0; i < na; i++) {
        int k = seer_onnx_norm_axis(ax[i], rank);
        if (k < 0 || mark >> k & 1) return SEER_STATUS_SUCCESS;
        mark |= 1u << k;
    }
    for (int i = 0, j = 0; i < rank; i++) d[i] = mark >> i & 1 ? 1 : a->d[j++];
    return seer_onnx_set_dims(cx, n, o, rank, d);
}

int seer_onnx_reduce_axes(cx_t *cx, const SeerOnnx__NodeProto *n, int64_t *ax, int max)
{
    int input_from = strcmp(n->op_type, "ReduceSum") ? 18 : 13;
    return cx->opset < input_from ? seer_onnx_attr_ints(n, "axes", ax, max) : seer_onnx_const_ints(cx, n, 1, ax, max);
}

int seer_onnx_clip_bounds(cx_t *cx, const SeerOnnx__NodeProto *n, double *lo, double *hi)
{
    *lo = -INFINITY;
    *hi = INFINITY;
    if (cx->opset < 11) {
        *lo = seer_onnx_attr_float(n, "min", -INFINITY);
        *hi = seer_onnx_attr_float(n, "max", INFINITY);
        return 1;
    }
    const tensor_t *a = seer_onnx_input(cx, n, 1), *b = seer_onnx_input(cx, n, 2);
    if ((a && a->nval != 1) || (b && b->nval != 1)) return 0;
    if (a) *lo = a->val[0];
    if (b) *hi = b->val[0];
    return 1;
}

/* Elementwise functions of folded values that exporters write into size
 * arithmetic (timm's TensorFlow-style "same" padding: the Ceil of a size
 * over the stride, the pad clamped at 0 by a Clip): Ceil, Floor, Neg,
 * Abs, Clip by constant bounds; unknown otherwise. */
static seer_status_t fold_unary(cx_t *cx, const SeerOnnx__NodeProto *n, const tensor_t *a, tensor_t *o)
{
    const char *op = n->op_type;
    double v[SEER_ONNX_MAX_CONST], lo, hi;
    if (!strcmp(op, "Clip") && !seer_onnx_clip_bounds(cx, n, &lo, &hi)) return SEER_STATUS_SUCCESS;
    for (int i = 0; i < a->nval; i++) {
        double x = a->val[i];
        v[i] = op[0] == 'C' && op[1] == 'e' ? ceil(x) : op[0] == 'F' ? floor(x) : op[0] == 'N' ? -x
             : op[0] == 'A' ? fabs(x) : fmin(fmax(x, lo), hi);
    }
    seer_status_t st = a->known ? seer_onnx_set_dims(cx, n, o, a->rank, a->d) : SEER_STATUS_SUCCESS;
    if (!st) set_const_vals(o, v, a->nval, a->is_int);
    return st;
}

/* Reshape of a constant whose values were not folded (a weight of over
 * SEER_ONNX_MAX_CONST elements: timm's layer scale gamma.reshape(1, -1,
 * 1, 1)): its dims, a 0 copying the input's and one -1 inferred; unknown
 * when they do not hold its elements.  Of a constant whose dims are not
 * known either (a weight standardized by ops on it, NFNet's and BiT's
 * StdConv2d: BatchNormalization of w.reshape(1, K, -1)), the target's,
 * when it names every one (w's own shape, through Shape). */
static seer_status_t reshape_shape(cx_t *cx, const SeerOnnx__NodeProto *n, const tensor_t *a, tensor_t *o)
{
    int64_t t[SEER_ONNX_MAX_RANK + 1], d[SEER_ONNX_MAX_RANK], known = 1, elems = seer_onnx_elems(a, 0);
    int nt = seer_onnx_const_ints(cx, n, 1, t, SEER_ONNX_MAX_RANK + 1), infer = -1;
    if (nt < 1 || nt > SEER_ONNX_MAX_RANK) return SEER_STATUS_SUCCESS;
    if (!a->known) {
        for (int i = 0; i < nt; i++)
            if (t[i] < 1) return SEER_STATUS_SUCCESS;
        return seer_onnx_set_dims(cx, n, o, nt, t);
    }
    if (elems < 1) return SEER_STATUS_SUCCESS;
    for (int i = 0; i < nt; i++) {
        d[i] = t[i] == 0 && !seer_onnx_attr_int(n, "allowzero", 0) && i < a->rank ? a->d[i] : t[i];
        /* the dims named so far hold at most the elements: the product
         * never overflows (past it one once wrapped to the weight's
         * count, taking dims of 2^64 + 2^30 elements for 2^30) */
        if (d[i] == -1 && infer < 0) infer = i;
        else if (d[i] < 1 || d[i] > elems / known) return SEER_STATUS_SUCCESS;
        else known *= d[i];
    }
    if (infer >= 0 && elems % known == 0) d[infer] = elems / known, known = elems;
    return known == elems ? seer_onnx_set_dims(cx, n, o, nt, d) : SEER_STATUS_SUCCESS;
}

/* ConstantOfShape's shape: its input's values. */
static seer_status_t fold_constant_of_shape(cx_t *cx, const SeerOnnx__NodeProto *n, const tensor_t *a, tensor_t *o)
{
    int64_t d[SEER_ONNX_MAX_RANK], total = 1;
    if (a->nval < 0 || a->nval > SEER_ONNX_MAX_RANK) return SEER_STATUS_SUCCESS;
    for (int i = 0; i < a->nval; i++) {
        if (!(a->val[i] >= 0 && a->val[i] <= INT32_MAX)) return SEER_STATUS_SUCCESS;
        d[i] = (int64_t)a->val[i];
        total = total > SEER_ONNX_MAX_CONST ? total : total * d[i];
    }
    /* its values where they are few (the zeros the TorchScript exporter's
     * F.pad appends to the pads): the value attribute's one, else 0.0 */
    double fill = 0, v[SEER_ONNX_MAX_CONST];
    int is_int = 0;
    const SeerOnnx__AttributeProto *at = seer_onnx_attr(n, "value");
    seer_status_t st;
    if (at && at->t && (st = seer_onnx_load_tensor(cx, n, at->t, o))) return st;
    if (at && at->t) {
        if (o->nval != 1) total = SEER_ONNX_MAX_CONST + 1; /* not one value: leave them unknown */
        else fill = o->val[0], is_int = o->is_int;
        free(o->val);
        o->val = NULL;
        o->nval = -1;
    }
    if (total <= SEER_ONNX_MAX_CONST) {
        for (int64_t i = 0; i < total; i++) v[i] = fill;
        set_const_vals(o, v, (int)total, is_int);
    }
    return seer_onnx_set_dims(cx, n, o, a->nval, d);
}

/* The dims, without values, of a function of constants that keeps its
 * input's shape or reduces some of its axes: a weight standardized as
 * (w - w.mean(...)) / sqrt(w.var(...) + eps), or through F.batch_norm
 * (NFNet's and BiT's StdConv2d), whose values libseer need not know;
 * 0 when op is neither. */
static int const_function(cx_t *cx, const SeerOnnx__NodeProto *n, const tensor_t *a, tensor_t *o, seer_status_t *st)
{
    static const char *const same[] = {"Sqrt", "Reciprocal", "Exp", "Log", "Relu", "Sigmoid", "Tanh", "Erf",
                                       "BatchNormalization", "InstanceNormalization", "LayerNormalization",
                                       "Softmax"};
    const char *op = n->op_type;
    *st = SEER_STATUS_SUCCESS;
    for (size_t i = 0; i < sizeof same / sizeof *same; i++)
        if (!strcmp(op, same[i])) {
            if (a->known) *st = seer_onnx_set_dims(cx, n, o, a->rank, a->d);
            return 1;
        }
    if (strncmp(op, "Reduce", 6)) return 0;
    int64_t ax[SEER_ONNX_MAX_RANK + 1], d[SEER_ONNX_MAX_RANK];
    int na = seer_onnx_reduce_axes(cx, n, ax, SEER_ONNX_MAX_RANK + 1), keep = (int)seer_onnx_attr_int(n, "keepdims", 1);
    if (values_fill(a) && (na < 1 || na == a->rank) && !seer_onnx_attr_int(n, "noop_with_empty_axes", 0)) {
        /* of every value (ReduceProd of dims: a weight's fan-in) */
        int prod = !strcmp(op, "ReduceProd"), mean = !strcmp(op, "ReduceMean"), sum = mean || !strcmp(op, "ReduceSum");
        int max = !strcmp(op, "ReduceMax"), min = !strcmp(op, "ReduceMin");
        if (!(prod || sum || max || min) || (!a->nval && (max || min))) return 1;
        double v = prod ? 1 : sum ? 0 : a->val[0];
        for (int i = 0; i < a->nval; i++)
            v = prod ? v * a->val[i] : sum ? v + a->val[i] : max ? fmax(v, a->val[i]) : fmin(v, a->val[i]);
        if (mean && a->nval) v /= a->nval;
        for (int i = 0; i < a->rank; i++) d[i] = 1;
        if ((*st = seer_onnx_set_dims(cx, n, o, keep ? a->rank : 0, d))) return 1;
        set_const_vals(o, &v, 1, a->is_int);
        return 1;
    }
    if (!a->known || na < 1 || na > a->rank) return 1; /* all axes, or not known: unknown dims */
    unsigned mark = 0;
    for (int i = 0; i < na; i++) {
        int k = seer_onnx_norm_axis(ax[i], a->rank);
        if (k < 0) return 1;
        mark |= 1u << k;
    }
    int r = 0;
    for (int i = 0; i < a->rank; i++)
        if (!(mark >> i & 1)) d[r++] = a->d[i];
        else if (keep) d[r++] = 1;
    *st = seer_onnx_set_dims(cx, n, o, r, d);
    return 1;
}

/* Operators folded only when every input is a constant; values are
 * needed for all but the shape-only ones (passthrough, Transpose,
 * ConstantOfShape, the random ones, broadcast_shape's). */
static seer_status_t fold_all_const(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *a, tensor_t *b, tensor_t *o)
{
    const char *op = n->op_type;
    if (!strcmp(op, "Identity") || !strcmp(op, "Cast") || !strcmp(op, "DequantizeLinear"))
        return fold_passthrough(cx, n, a, o);
    if (!strcmp(op, "Transpose")) return fold_transpose(cx, n, a, o);
    if (!strcmp(op, "ConstantOfShape")) return fold_constant_of_shape(cx, n, a, o);
    if (!strcmp(op, "RandomUniformLike") || !strcmp(op, "RandomNormalLike") || !strcmp(op, "Bernoulli"))
        return a->known ? seer_onnx_set_dims(cx, n, o, a->rank, a->d) : SEER_STATUS_SUCCESS;
    if (!strcmp(op, "Range")) return fold_range(cx, n, a, o);
    if (a->nval < 0 && !strcmp(op, "Unsqueeze")) return unsqueeze_shape(cx, n, a, o);
    if (a->nval < 0 && !strcmp(op, "Reshape")) return reshape_shape(cx, n, a, o);
    seer_status_t st;
    if (const_function(cx, n, a, o, &st)) return st;
    if (a->nval < 0) return broadcast_shape(cx, n, a, b, o); /* values not folded (a weight): shape at most */
    if (!strcmp(op, "Unsqueeze")) { /* the values, and their dims where the axes are known */
        st = fold_reshape(cx, n, a, o);
        return st ? st : unsqueeze_shape(cx, n, a, o);
    }
    if (!strcmp(op, "Squeeze") || !strcmp(op, "Reshape") || !strcmp(op, "Flatten")) return fold_reshape(cx, n, a, o);
    if (!strcmp(op, "Gather")) return fold_gather(cx, n, a, b, o);
    if (!strcmp(op, "Concat")) return fold_concat(cx, n, a, o);
    if (!strcmp(op, "Slice")) return fold_slice(cx, n, a, o);
    if (!strcmp(op, "Ceil") || !strcmp(op, "Floor") || !strcmp(op, "Neg") || !strcmp(op, "Abs") ||
        !strcmp(op, "Clip"))
        return fold_unary(cx, n, a, o);
    int arith = !strcmp(op, "Add") ? 1 : !strcmp(op, "Sub") ? 2 : !strcmp(op, "Mul") ? 3 : !strcmp(op, "Div") ? 4 : 0;
    int same = b && a->known && b->known && a->rank == b->rank && !memcmp(a->d, b->d, (size_t)a->rank * sizeof *a->d);
    if (arith && b && b->nval >= 0 && ((same && a->nval == b->nval) || a->nval == 1 || b->nval == 1))
        return fold_arith(cx, n, arith, a, b, o);
    return broadcast_shape(cx, n, a, b, o); /* some other constant computation: its shape at most */
}

int seer_onnx_fold(cx_t *cx, const SeerOnnx__NodeProto *n, seer_status_t *st)
{
    const char *op = n->op_type;
    tensor_t *o = seer_onnx_output(cx, n, 0), *a = seer_onnx_input(cx, n, 0), *b = seer_onnx_input(cx, n, 1);
    *st = SEER_STATUS_SUCCESS;
    if (!o) return 1;
    if (!strcmp(op, "Constant")) { *st = fold_constant(cx, n, o); return 1; }
    if (!strcmp(op, "Shape")) { *st = fold_shape(cx, n, a, o); return 1; }
    for (size_t i = 0; i < n->n_input; i++) {
        tensor_t *x = seer_onnx_input(cx, n, i);
        if (n->input[i][0] && (!x || !x->is_const)) return 0;
    }
    if (!a) return 0;
    o->is_const = 1;
    *st = fold_all_const(cx, n, a, b, o);
    return 1;
}
