/* ONNX import, constants (libseer/onnx_shape.c) driven directly: tensors
 * read from TensorProtos, and the folding of the shape arithmetic
 * exporters write around Reshape (Shape -> Gather -> Unsqueeze -> Concat),
 * one node at a time. */
#include <stdlib.h>
#include "test.h"
#include "onnx_ctx.h"

typedef struct {
    seer_handle_t h;
    cx_t cx;
} fx_t;

static int fx_open(fx_t *f, int opset)
{
    if (seer_create(&f->h)) return 0;
    seer_onnx_cx_init(&f->cx, f->h, NULL);
    f->cx.opset = opset;
    return seer_onnx_cx_tables(&f->cx, 32, 1) == SEER_STATUS_SUCCESS;
}

static void fx_close(fx_t *f)
{
    seer_onnx_cx_free(&f->cx);
    seer_destroy(f->h);
}

/* A folded constant: rank 1 (rank 0 when scalar) holding v[0..n-1]. */
static tensor_t *fx_const(fx_t *f, const char *name, const double *v, int n, int scalar)
{
    int i = seer_onnx_add_tensor(&f->cx, name, -1);
    if (i < 0) return NULL;
    tensor_t *t = &f->cx.t[i];
    t->is_const = t->known = 1;
    t->is_int = 1;
    t->rank = scalar ? 0 : 1;
    t->d[0] = n;
    if (!(t->val = malloc((size_t)n * sizeof *t->val))) return NULL;
    memcpy(t->val, v, (size_t)n * sizeof *v);
    t->nval = n;
    return t;
}

/* Fold a node op(ins...) -> out; *out_t receives the output tensor. */
static seer_status_t fx_fold(fx_t *f, SeerOnnx__NodeProto *n, const char *op, char **ins, size_t nin, char *out,
                             tensor_t **out_t, int *folded)
{
    static char *outs[8];
    outs[0] = out;
    n->op_type = (char *)op;
    n->name = out;
    n->n_input = nin;
    n->input = ins;
    n->n_output = 1;
    n->output = outs;
    int i = seer_onnx_add_tensor(&f->cx, out, 0);
    *out_t = i < 0 ? NULL : &f->cx.t[i];
    seer_status_t st = SEER_STATUS_INTERNAL;
    *folded = seer_onnx_fold(&f->cx, n, &st);
    return st;
}

static int vals_are(const tensor_t *t, const double *v, int n)
{
    if (!t || t->nval != n) return 0;
    for (int i = 0; i < n; i++)
        if (t->val[i] != v[i]) return 0;
    return 1;
}

/* The flatten idiom: Shape(x) -> Gather(0) -> Unsqueeze -> Concat(-1). */
TEST(onnx_shape_folds_the_reshape_idiom)
{
    fx_t f;
    REQUIRE(fx_open(&f, 13));
    int xi = seer_onnx_add_tensor(&f.cx, "x", -1);
    REQUIRE(xi == 0);
    tensor_t *x = &f.cx.t[0], *o;
    x->known = 1;
    x->rank = 4;
    x->d[0] = 1009, x->d[1] = 16, x->d[2] = 4, x->d[3] = 4;
    const double zero = 0, axes = 0, minus1 = -1;
    REQUIRE(fx_const(&f, "idx", &zero, 1, 1) && fx_const(&f, "axes", &axes, 1, 0) && fx_const(&f, "m1", &minus1, 1, 0));
    SeerOnnx__NodeProto n1 = SEER_ONNX__NODE_PROTO__INIT, n2 = SEER_ONNX__NODE_PROTO__INIT, n3 = SEER_ONNX__NODE_PROTO__INIT,
                    n4 = SEER_ONNX__NODE_PROTO__INIT;
    char *i1[] = {"x"}, *i2[] = {"s", "idx"}, *i3[] = {"g", "axes"}, *i4[] = {"u", "m1"};
    int folded = 0;
    CHECK_STATUS(fx_fold(&f, &n1, "Shape", i1, 1, "s", &o, &folded), SEER_STATUS_SUCCESS);
    const double shape[4] = {1009, 16, 4, 4};
    CHECK(folded && o->is_const && o->rank == 1 && o->d[0] == 4 && vals_are(o, shape, 4));
    CHECK_STATUS(fx_fold(&f, &n2, "Gather", i2, 2, "g", &o, &folded), SEER_STATUS_SUCCESS);
    CHECK(folded && o->rank == 0 && vals_are(o, shape, 1)); /* a scalar index gives a scalar */
    CHECK_STATUS(fx_fold(&f, &n3, "Unsqueeze", i3, 2, "u", &o, &folded), SEER_STATUS_SUCCESS);
    CHECK(folded && o->rank == 1 && o->d[0] == 1 && vals_are(o, shape, 1));
    CHECK_STATUS(fx_fold(&f, &n4, "Concat", i4, 2, "c", &o, &folded), SEER_STATUS_SUCCESS);
    const double target[2] = {1009, -1};
    CHECK(folded && o->rank == 1 && o->d[0] == 2 && vals_are(o, target, 2) && o->is_int);
    fx_close(&f);
}

/* A Reshape of a weight whose values are not folded: its dims from the
 * target (a 0 the weight's, a -1 inferred), unknown where they do not
 * hold its elements, their product never wrapping around. */
TEST(onnx_shape_reshape_of_a_weight)
{
    fx_t f;
    REQUIRE(fx_open(&f, 13));
    REQUIRE(seer_onnx_add_tensor(&f.cx, "w", -1) == 0);
    tensor_t *w = &f.cx.t[0], *o;
    w->is_const = w->known = 1;
    w->nval = -1;
    w->rank = 2;
    w->d[0] = w->d[1] = 32768; /* 2^30 elements */
    /* 2^15 26317 x 2^15 953 x 685 is 2^30 (2^34 + 1) = 2^64 + 2^30 */
    const double view[3] = {0, -1, 4}, wraps[3] = {32768.0 * 26317, 32768.0 * 953, 685};
    REQUIRE(fx_const(&f, "view", view, 3, 0) && fx_const(&f, "wraps", wraps, 3, 0));
    SeerOnnx__NodeProto n1 = SEER_ONNX__NODE_PROTO__INIT, n2 = SEER_ONNX__NODE_PROTO__INIT;
    char *i1[] = {"w", "view"}, *i2[] = {"w", "wraps"};
    int folded = 0;
    CHECK_STATUS(fx_fold(&f, &n1, "Reshape", i1, 2, "v", &o, &folded), SEER_STATUS_SUCCESS);
    CHECK(folded && o->known && o->rank == 3 && o->d[0] == 32768 && o->d[1] == 8192 && o->d[2] == 4);
    CHECK_STATUS(fx_fold(&f, &n2, "Reshape", i2, 2, "x", &o, &folded), SEER_STATUS_SUCCESS);
    CHECK(folded && !o->known);
    fx_close(&f);
}

TEST(onnx_shape_arithmetic_and_slice)
{
    fx_t f;
    REQUIRE(fx_open(&f, 13));
    const double a[4] = {7, -7, 10, 20}, two = 2, zero = 0, start = 1, end = -1, step = 2, back = -1, past = -9,
                 huge = 1e18;
    tensor_t *ta = fx_const(&f, "a", a, 4, 0), *o;
    REQUIRE(ta && fx_const(&f, "two", &two, 1, 1) && fx_const(&f, "zero", &zero, 1, 1));
    REQUIRE(fx_const(&f, "st", &start, 1, 0) && fx_const(&f, "en", &end, 1, 0) && fx_const(&f, "sp", &step, 1, 0));
    REQUIRE(fx_const(&f, "back", &back, 1, 0) && fx_const(&f, "past", &past, 1, 0) && fx_const(&f, "huge", &huge, 1, 0));
    SeerOnnx__NodeProto n[8] = {SEER_ONNX__NODE_PROTO__INIT, SEER_ONNX__NODE_PROTO__INIT, SEER_ONNX__NODE_PROTO__INIT,
                            SEER_ONNX__NODE_PROTO__INIT, SEER_ONNX__NODE_PROTO__INIT, SEER_ONNX__NODE_PROTO__INIT,
                            SEER_ONNX__NODE_PROTO__INIT, SEER_ONNX__NODE_PROTO__INIT};
    char *div[] = {"a", "two"}, *div0[] = {"two", "zero"}, *sl[] = {"a", "st", "en"}, *sl2[] = {"a", "st", "en", "", "sp"},
         *flip[] = {"a", "back", "past", "", "back"}, *first[] = {"a", "past", "past", "", "back"},
         *hop[] = {"a", "st", "huge", "", "huge"};
    int folded = 0;
    CHECK_STATUS(fx_fold(&f, &n[0], "Div", div, 2, "q", &o, &folded), SEER_STATUS_SUCCESS);
    const double q[4] = {3, -3, 5, 10}; /* integer division truncates */
    CHECK(folded && vals_are(o, q, 4) && o->rank == 1);
    CHECK_STATUS(fx_fold(&f, &n[1], "Div", div0, 2, "q0", &o, &folded), SEER_STATUS_SUCCESS);
    CHECK(folded && vals_are(o, &zero, 1) && o->rank == 0); /* by zero: 0, left to the shape checks */
    ta->is_int = 0;
    CHECK_STATUS(fx_fold(&f, &n[2], "Div", div, 2, "qf", &o, &folded), SEER_STATUS_SUCCESS);
    CHECK(folded && o->nval == 4 && o->val[0] == 3.5 && !o->is_int);
    CHECK_STATUS(fx_fold(&f, &n[3], "Slice", sl, 3, "s", &o, &folded), SEER_STATUS_SUCCESS);
    CHECK(folded && vals_are(o, a + 1, 2)); /* [1:-1] */
    CHECK_STATUS(fx_fold(&f, &n[4], "Slice", sl2, 5, "s2", &o, &folded), SEER_STATUS_SUCCESS);
    CHECK(folded && vals_are(o, a + 1, 1)); /* [1:-1:2] */
    CHECK_STATUS(fx_fold(&f, &n[5], "Slice", flip, 5, "s3", &o, &folded), SEER_STATUS_SUCCESS);
    const double rev[4] = {20, 10, -7, 7};
    CHECK(folded && vals_are(o, rev, 4) && o->rank == 1); /* [::-1], as torch.flip exports */
    /* a negative step's start below 0 clamps to 0 (ONNX): [-9:-9:-1] is [a0] */
    CHECK_STATUS(fx_fold(&f, &n[6], "Slice", first, 5, "s4", &o, &folded), SEER_STATUS_SUCCESS);
    CHECK(folded && vals_are(o, a, 1));
    /* a step of 1e18 takes one element, and its index sums stay defined */
    CHECK_STATUS(fx_fold(&f, &n[7], "Slice", hop, 5, "s5", &o, &folded), SEER_STATUS_SUCCESS);
    CHECK(folded && vals_are(o, a + 1, 1));
    fx_close(&f);
}

TEST(onnx_shape_fold_needs_constant_inputs)
{
    fx_t f;
    REQUIRE(fx_open(&f, 13));
    REQUIRE(seer_onnx_add_tensor(&f.cx, "x", -1) == 0); /* data, not constant */
    const double one = 1, big = 5;
    REQUIRE(fx_const(&f, "one", &one, 1, 0) && fx_const(&f, "big", &big, 1, 1));
    SeerOnnx__NodeProto n1 = SEER_ONNX__NODE_PROTO__INIT, n2 = SEER_ONNX__NODE_PROTO__INIT, n3 = SEER_ONNX__NODE_PROTO__INIT;
    char *add[] = {"x", "one"}, *gat[] = {"one", "big"}, *shp[] = {"x"};
    tensor_t *o;
    int folded = 1;
    CHECK_STATUS(fx_fold(&f, &n1, "Add", add, 2, "y", &o, &folded), SEER_STATUS_SUCCESS);
    CHECK(!folded && !o->is_const);
    CHECK_STATUS(fx_fold(&f, &n2, "Gather", gat, 2, "g", &o, &folded), SEER_STATUS_NET_SHAPE);
    CHECK(folded && strstr(seer_get_last_error(f.h), "index 5 out of range") != NULL);
    CHECK_STATUS(fx_fold(&f, &n3, "Shape", shp, 1, "s", &o, &folded), SEER_STATUS_NET_SHAPE);
    CHECK(folded && strstr(seer_get_last_error(f.h), "the shape of its input is not known") != NULL);
    fx_close(&f);
}

TEST(onnx_shape_constant_and_cast)
{
    fx_t f;
    REQUIRE(fx_open(&f, 13));
    int64_t ints[3] = {2, 3, 4};
    SeerOnnx__AttributeProto a = SEER_ONNX__ATTRIBUTE_PROTO__INIT, to = SEER_ONNX__ATTRIBUTE_PROTO__INIT;
    a.name = "value_ints";
    a.n_ints = 3;
    a.ints = ints;
    to.name = "to";
    to.has_i = 1;
    to.i = 7; /* INT64 */
    SeerOnnx__AttributeProto *ac[] = {&a}, *at[] = {&to};
    SeerOnnx__NodeProto n1 = SEER_ONNX__NODE_PROTO__INIT, n2 = SEER_ONNX__NODE_PROTO__INIT, n3 = SEER_ONNX__NODE_PROTO__INIT;
    n1.n_attribute = 1, n1.attribute = ac;
    n2.n_attribute = 1, n2.attribute = at;
    tensor_t *o;
    int folded = 0;
    CHECK_STATUS(fx_fold(&f, &n1, "Constant", NULL, 0, "c", &o, &folded), SEER_STATUS_SUCCESS);
    const double want[3] = {2, 3, 4};
    CHECK(folded && o->is_const && o->is_int && o->rank == 1 && vals_are(o, want, 3));
    const double fl[2] = {2.7, -2.7};
    tensor_t *ff = fx_const(&f, "fl", fl, 2, 0);
    REQUIRE(ff);
    ff->is_int = 0;
    char *cin[] = {"fl"};
    CHECK_STATUS(fx_fold(&f, &n2, "Cast", cin, 1, "ci", &o, &folded), SEER_STATUS_SUCCESS);
    const double tr[2] = {2, -2};
    CHECK(folded && o->is_int && vals_are(o, tr, 2) && o->rank == 1);
    CHECK_STATUS(fx_fold(&f, &n3, "Constant", NULL, 0, "bad", &o, &folded), SEER_STATUS_NET_SHAPE);
    CHECK(strstr(seer_get_last_error(f.h), "a Constant whose value libseer cannot read") != NULL);
    fx_close(&f);
}

/* Initializers: raw little-endian data, sizes checked against the dims,
 * large or external tensors keep only their dims. */
TEST(onnx_shape_load_tensor)
{
    fx_t f;
    REQUIRE(fx_open(&f, 13));
    const char *names[] = {"w", "short", "big", "ext"};
    for (int i = 0; i < 4; i++) REQUIRE(seer_onnx_add_tensor(&f.cx, names[i], -1) == i);
    uint8_t raw[8] = {0, 0, 0xc0, 0x3f, 0, 0, 0, 0xc0}; /* 1.5f, -2.0f */
    int64_t d2[1] = {2}, d65[1] = {65};
    SeerOnnx__TensorProto tp = SEER_ONNX__TENSOR_PROTO__INIT;
    tp.n_dims = 1;
    tp.dims = d2;
    tp.has_data_type = 1;
    tp.data_type = SEER_ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
    tp.has_raw_data = 1;
    tp.raw_data.data = raw;
    tp.raw_data.len = 8;
    CHECK_STATUS(seer_onnx_load_tensor(&f.cx, NULL, &tp, &f.cx.t[0]), SEER_STATUS_SUCCESS);
    const double want[2] = {1.5, -2};
    CHECK(vals_are(&f.cx.t[0], want, 2) && f.cx.t[0].is_const && !f.cx.t[0].is_int);
    tp.raw_data.len = 4;
    CHECK_STATUS(seer_onnx_load_tensor(&f.cx, NULL, &tp, &f.cx.t[1]), SEER_STATUS_ONNX_CORRUPT);
    CHECK(strstr(seer_get_last_error(f.h), "tensor 'short': raw_data has 4 bytes, its dims need 8") != NULL);
    int64_t vals[65] = {0};
    tp.has_raw_data = 0;
    tp.dims = d65;
    tp.data_type = SEER_ONNX__TENSOR_PROTO__DATA_TYPE__INT64;
    tp.n_int64_data = 65;
    tp.int64_data = vals;
    CHECK_STATUS(seer_onnx_load_tensor(&f.cx, NULL, &tp, &f.cx.t[2]), SEER_STATUS_SUCCESS);
    CHECK(f.cx.t[2].known && f.cx.t[2].d[0] == 65 && f.cx.t[2].nval == -1 && f.cx.t[2].is_int);
    tp.n_int64_data = 0;
    tp.has_data_location = 1;
    tp.data_location = SEER_ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
    tp.dims = d2;
    CHECK_STATUS(seer_onnx_load_tensor(&f.cx, NULL, &tp, &f.cx.t[3]), SEER_STATUS_SUCCESS);
    CHECK(f.cx.t[3].known && f.cx.t[3].nval == -1);
    int64_t got[4];
    SeerOnnx__NodeProto n = SEER_ONNX__NODE_PROTO__INIT;
    char *in[] = {"x", "w"};
    n.n_input = 2;
    n.input = in;
    CHECK(seer_onnx_const_ints(&f.cx, &n, 1, got, 4) == 2 && got[0] == 1 && got[1] == -2);
    CHECK(seer_onnx_const_ints(&f.cx, &n, 1, got, 1) == -1); /* more than asked */
    fx_close(&f);
}
