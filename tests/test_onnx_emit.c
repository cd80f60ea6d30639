/* ONNX import, nodes into description lines (libseer/onnx_emit.c)
 * driven directly: a small graph built in memory, each node translated
 * in turn, and the description text it adds checked line by line. */
#include <stdlib.h>
#include "test.h"
#include "onnx_ctx.h"

enum { FX_NODES = 4 };
typedef struct {
    seer_handle_t h;
    cx_t cx;
    SeerOnnx__GraphProto g;
    SeerOnnx__NodeProto *node[FX_NODES];
} fx_t;

/* A context over an empty graph whose data input x (1 x c x s x s) is
 * the description's layer 0. */
static int fx_open(fx_t *f, int opset, int64_t c, int64_t s)
{
    static const SeerOnnx__GraphProto empty = SEER_ONNX__GRAPH_PROTO__INIT;
    if (seer_create(&f->h)) return 0;
    seer_onnx_cx_init(&f->cx, f->h, NULL);
    f->cx.opset = opset;
    f->g = empty;
    f->g.node = f->node;
    f->cx.g = &f->g;
    if (seer_onnx_cx_tables(&f->cx, 32, FX_NODES) || seer_onnx_add_tensor(&f->cx, "x", -1) != 0) return 0;
    tensor_t *x = &f->cx.t[0];
    x->known = 1;
    x->rank = 4;
    x->d[0] = 1, x->d[1] = c, x->d[2] = s, x->d[3] = s;
    return seer_onnx_new_layer(&f->cx, "x", x) == 0;
}

static void fx_close(fx_t *f)
{
    seer_onnx_cx_free(&f->cx);
    seer_destroy(f->h);
}

/* A constant: dims d[0..rank-1], values v[0..nv-1] (nv 0: not folded). */
static void fx_const(fx_t *f, const char *name, int rank, const int64_t *d, const double *v, int nv)
{
    int i = seer_onnx_add_tensor(&f->cx, name, -1);
    if (i < 0) return;
    tensor_t *t = &f->cx.t[i];
    t->is_const = t->known = 1;
    t->rank = rank;
    memcpy(t->d, d, (size_t)rank * sizeof *d);
    if (nv && (t->val = malloc((size_t)nv * sizeof *v))) {
        memcpy(t->val, v, (size_t)nv * sizeof *v);
        t->nval = nv;
    }
}

/* Node op(ins) -> out appended to the graph; its input readers counted. */
static SeerOnnx__NodeProto *fx_node(fx_t *f, SeerOnnx__NodeProto *n, const char *op, char **ins, size_t nin, char **out)
{
    static const SeerOnnx__NodeProto init = SEER_ONNX__NODE_PROTO__INIT;
    *n = init;
    n->op_type = (char *)op;
    n->name = out[0];
    n->n_input = nin;
    n->input = ins;
    n->n_output = 1;
    n->output = out;
    seer_onnx_add_tensor(&f->cx, out[0], (int)f->g.n_node);
    for (size_t i = 0; i < nin; i++) {
        int t = seer_onnx_find_tensor(&f->cx, ins[i]);
        if (t >= 0) f->cx.t[t].readers++;
    }
    f->node[f->g.n_node++] = n;
    return n;
}

static tensor_t *fx_tensor(fx_t *f, const char *name)
{
    int i = seer_onnx_find_tensor(&f->cx, name);
    return i < 0 ? NULL : &f->cx.t[i];
}

static const char *fx_text(const fx_t *f) { return f->cx.out ? f->cx.out : ""; }

TEST(onnx_emit_conv_line_and_shape)
{
    fx_t f;
    REQUIRE(fx_open(&f, 13, 3, 8));
    int64_t wd[4] = {8, 3, 3, 3}, bd[1] = {8}, pads[4] = {1, 1, 1, 1}, strides[2] = {2, 2}, asym[4] = {0, 0, 1, 1};
    fx_const(&f, "w", 4, wd, NULL, 0);
    fx_const(&f, "b", 1, bd, NULL, 0);
    SeerOnnx__AttributeProto ap = SEER_ONNX__ATTRIBUTE_PROTO__INIT, as = SEER_ONNX__ATTRIBUTE_PROTO__INIT;
    ap.name = "pads", ap.n_ints = 4, ap.ints = pads;
    as.name = "strides", as.n_ints = 2, as.ints = strides;
    SeerOnnx__AttributeProto *attrs[] = {&ap, &as};
    SeerOnnx__NodeProto n[3];
    char *i0[] = {"x", "w", "b"}, *o0[] = {"c1"}, *i1[] = {"x", "w"}, *o1[] = {"c2"}, *i2[] = {"c1", "w"},
         *o2[] = {"c3"};
    fx_node(&f, &n[0], "Conv", i0, 3, o0);
    fx_node(&f, &n[1], "Conv", i1, 2, o1);
    fx_node(&f, &n[2], "Conv", i2, 2, o2);
    n[0].n_attribute = 2;
    n[0].attribute = attrs;
    CHECK_STATUS(seer_onnx_emit_node(&f.cx, 0), SEER_STATUS_SUCCESS);
    CHECK(!strcmp(fx_text(&f), "conv name=c1 in=x k=8 size=3 stride=2 pad=1 bias=1\n"));
    tensor_t *c1 = fx_tensor(&f, "c1");
    CHECK(c1->layer == 1 && c1->rank == 4 && c1->d[1] == 8 && c1->d[2] == 4 && c1->d[3] == 4);
    /* a padding no symmetric one matches: the padded copy (PyTorch's
     * F.pad) as a pad layer, then the conv without padding */
    ap.ints = asym;
    n[1].n_attribute = 1;
    n[1].attribute = attrs;
    CHECK_STATUS(seer_onnx_emit_node(&f.cx, 1), SEER_STATUS_SUCCESS);
    CHECK(f.cx.n_unsup == 0);
    CHECK(strstr(fx_text(&f), "\npad name=c2.pad in=x h=9 w=9\nconv name=c2 in=c2.pad k=8 size=3\n") != NULL);
    tensor_t *c2 = fx_tensor(&f, "c2");
    CHECK(c2->layer == 3 && c2->d[2] == 7 && c2->d[3] == 7);
    CHECK_STATUS(seer_onnx_emit_node(&f.cx, 2), SEER_STATUS_NET_SHAPE); /* 8 channels, a 3-channel weight */
    CHECK(strstr(seer_get_last_error(f.h), "node 'c3' (Conv): weight 8x3x3x3 with group 1 does not fit 8 input "
                 "channels") != NULL);
    fx_close(&f);
}

TEST(onnx_emit_activations_and_clip)
{
    fx_t f;
    REQUIRE(fx_open(&f, 11, 4, 2));
    int64_t sd[1] = {1};
    const double lo = 0, six = 6, one = 1;
    fx_const(&f, "lo", 0, sd, &lo, 1);
    fx_const(&f, "six", 0, sd, &six, 1);
    fx_const(&f, "one", 0, sd, &one, 1);
    SeerOnnx__NodeProto n[4];
    char *i0[] = {"x"}, *o0[] = {"r"}, *i1[] = {"r", "lo", "six"}, *o1[] = {"r6"}, *i2[] = {"r6", "lo", "one"},
         *o2[] = {"c01"}, *i3[] = {"r6"}, *o3[] = {"ls"};
    fx_node(&f, &n[0], "Relu", i0, 1, o0);
    fx_node(&f, &n[1], "Clip", i1, 3, o1);
    fx_node(&f, &n[2], "Clip", i2, 3, o2);
    fx_node(&f, &n[3], "LogSoftmax", i3, 1, o3);
    for (int i = 0; i < 4; i++) CHECK_STATUS(seer_onnx_emit_node(&f.cx, i), SEER_STATUS_SUCCESS);
    CHECK(!strcmp(fx_text(&f), "relu name=r in=x\nrelu6 name=r6 in=r\nsoftmax name=ls in=r6\n"));
    CHECK(f.cx.n_unsup == 1 && !strcmp(f.cx.unsup[0].why, "Clip to [0, 1] (relu: [0, inf), relu6: [0, 6])"));
    CHECK(fx_tensor(&f, "ls")->rank == 4 && fx_tensor(&f, "ls")->d[1] == 4);
    fx_close(&f);
}

/* x * sigmoid(x), as older exporters write SiLU: one silu layer, the Mul
 * fused into it. */
TEST(onnx_emit_sigmoid_mul_is_silu)
{
    fx_t f;
    REQUIRE(fx_open(&f, 13, 4, 2));
    SeerOnnx__NodeProto n[2];
    char *i0[] = {"x"}, *o0[] = {"s"}, *i1[] = {"x", "s"}, *o1[] = {"y"};
    fx_node(&f, &n[0], "Sigmoid", i0, 1, o0);
    fx_node(&f, &n[1], "Mul", i1, 2, o1);
    CHECK_STATUS(seer_onnx_emit_node(&f.cx, 0), SEER_STATUS_SUCCESS);
    CHECK(!strcmp(fx_text(&f), "silu name=s in=x\n"));
    CHECK(f.cx.alias_in[1] == 1); /* the Mul's output is its input 1 */
    CHECK_STATUS(seer_onnx_emit_node(&f.cx, 1), SEER_STATUS_SUCCESS);
    CHECK(!strcmp(fx_text(&f), "silu name=s in=x\n"));
    CHECK(fx_tensor(&f, "y")->layer == fx_tensor(&f, "s")->layer && fx_tensor(&f, "y")->d[1] == 4);
    fx_close(&f);
}

/* GlobalAveragePool -> Flatten -> MatMul + Add of a bias vector: a
 * pool, a flatten and one fc with bias. */
TEST(onnx_emit_pool_flatten_matmul_bias)
{
    fx_t f;
    REQUIRE(fx_open(&f, 13, 3, 4));
    int64_t wd[2] = {3, 10}, bd[1] = {10};
    fx_const(&f, "W", 2, wd, NULL, 0);
    fx_const(&f, "B", 1, bd, NULL, 0);
    SeerOnnx__NodeProto n[4];
    char *i0[] = {"x"}, *o0[] = {"gap"}, *i1[] = {"gap"}, *o1[] = {"fl"}, *i2[] = {"fl", "W"}, *o2[] = {"mm"},
         *i3[] = {"B", "mm"}, *o3[] = {"y"};
    fx_node(&f, &n[0], "GlobalAveragePool", i0, 1, o0);
    fx_node(&f, &n[1], "Flatten", i1, 1, o1);
    fx_node(&f, &n[2], "MatMul", i2, 2, o2);
    fx_node(&f, &n[3], "Add", i3, 2, o3);
    for (int i = 0; i < 4; i++) CHECK_STATUS(seer_onnx_emit_node(&f.cx, i), SEER_STATUS_SUCCESS);
    CHECK(!strcmp(fx_text(&f), "pool name=gap in=x avg global\nflatten name=fl in=gap\nfc name=mm in=fl k=10\n"));
    CHECK(f.cx.alias_in[3] == 1);
    tensor_t *y = fx_tensor(&f, "y");
    CHECK(y->layer == fx_tensor(&f, "mm")->layer && y->rank == 2 && y->d[1] == 10);
    fx_close(&f);
}

/* Gemm's C broadcasts into N x K (a vector of K, 1 x K, one value) or
 * is an error naming it, as a Conv's bias of other than K values is; a
 * 7-value bias of a 10-output Gemm was taken without a word. */
TEST(onnx_emit_gemm_bias_must_broadcast)
{
    static const struct { int rank; int64_t d[3]; int ok; } cases[] = {
        {1, {10}, 1}, {2, {1, 10}, 1}, {1, {1}, 1}, {1, {7}, 0}, {3, {10, 1, 1}, 0},
    };
    int64_t wd[2] = {10, 3};
    SeerOnnx__AttributeProto tb = SEER_ONNX__ATTRIBUTE_PROTO__INIT;
    tb.name = "transB", tb.i = 1, tb.has_i = 1, tb.type = SEER_ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
    SeerOnnx__AttributeProto *attrs[] = {&tb};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        fx_t f;
        REQUIRE(fx_open(&f, 13, 3, 1));
        fx_const(&f, "W", 2, wd, NULL, 0);
        fx_const(&f, "B", cases[i].rank, cases[i].d, NULL, 0);
        SeerOnnx__NodeProto n[2];
        char *i0[] = {"x"}, *o0[] = {"fl"}, *i1[] = {"fl", "W", "B"}, *o1[] = {"fc"};
        fx_node(&f, &n[0], "Flatten", i0, 1, o0);
        fx_node(&f, &n[1], "Gemm", i1, 3, o1);
        n[1].n_attribute = 1;
        n[1].attribute = attrs;
        CHECK_STATUS(seer_onnx_emit_node(&f.cx, 0), SEER_STATUS_SUCCESS);
        seer_status_t st = seer_onnx_emit_node(&f.cx, 1);
        if (cases[i].ok) {
            CHECK_STATUS(st, SEER_STATUS_SUCCESS);
            CHECK(strstr(fx_text(&f), "fc name=fc in=fl k=10\n") != NULL);
        } else {
            CHECK_STATUS(st, SEER_STATUS_NET_SHAPE);
            CHECK(strstr(seer_get_last_error(f.h), "node 'fc' (Gemm): bias 'B' (") != NULL &&
                  strstr(seer_get_last_error(f.h), "does not broadcast to the 10 outputs") != NULL);
        }
        fx_close(&f);
    }
}

/* A batch norm's scale, bias, mean and variance are one value per
 * channel, or an error naming the node and tensor (a 5-value scale of a
 * 3-channel input was taken without a word); before opset 9, spatial=0
 * normalizes per activation. */
TEST(onnx_emit_batchnorm_params_per_channel)
{
    static const struct { int opset, spatial, rank; int64_t d[3]; const char *want; } cases[] = {
        {13, 1, 1, {3}, NULL},
        {13, 1, 1, {5}, "node 'bn' (BatchNormalization): scale 's' is not one value per channel (3)"},
        {13, 1, 2, {3, 1}, "scale 's' is not one value per channel (3)"},
        {7, 0, 3, {3, 4, 4}, NULL},
    };
    int64_t c3[1] = {3};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        fx_t f;
        REQUIRE(fx_open(&f, cases[i].opset, 3, 4));
        fx_const(&f, "s", cases[i].rank, cases[i].d, NULL, 0);
        fx_const(&f, "b", 1, c3, NULL, 0);
        fx_const(&f, "m", 1, c3, NULL, 0);
        fx_const(&f, "v", 1, c3, NULL, 0);
        SeerOnnx__AttributeProto sp = SEER_ONNX__ATTRIBUTE_PROTO__INIT;
        sp.name = "spatial", sp.i = cases[i].spatial, sp.has_i = 1, sp.type = SEER_ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
        SeerOnnx__AttributeProto *attrs[] = {&sp};
        SeerOnnx__NodeProto n;
        char *in[] = {"x", "s", "b", "m", "v"}, *out[] = {"bn"};
        fx_node(&f, &n, "BatchNormalization", in, 5, out);
        n.n_attribute = 1;
        n.attribute = attrs;
        seer_status_t st = seer_onnx_emit_node(&f.cx, 0);
        if (!cases[i].want) {
            CHECK_STATUS(st, SEER_STATUS_SUCCESS);
            CHECK(!strcmp(fx_text(&f), "bn name=bn in=x\n"));
        } else {
            CHECK_STATUS(st, SEER_STATUS_NET_SHAPE);
            CHECK(strstr(seer_get_last_error(f.h), cases[i].want) != NULL);
        }
        fx_close(&f);
    }
}

TEST(onnx_emit_unsupported_and_uncomputable)
{
    fx_t f;
    REQUIRE(fx_open(&f, 13, 3, 4));
    REQUIRE(seer_onnx_add_tensor(&f.cx, "u", -1) >= 0); /* data whose shape is unknown */
    SeerOnnx__NodeProto n[3];
    char *i0[] = {"u"}, *o0[] = {"r"}, *i1[] = {"x"}, *o1[] = {"foo"}, *o2[] = {"fc"};
    fx_node(&f, &n[0], "Relu", i0, 1, o0);
    fx_node(&f, &n[1], "Foo", i1, 1, o1);
    fx_node(&f, &n[2], "FusedConv", i1, 1, o2)->domain = "com.microsoft";
    CHECK_STATUS(seer_onnx_emit_node(&f.cx, 0), SEER_STATUS_NET_SHAPE); /* nothing skipped before: an error */
    CHECK(strstr(seer_get_last_error(f.h), "node 'r' (Relu): reads 'u', which libseer could not compute") != NULL);
    CHECK_STATUS(seer_onnx_emit_node(&f.cx, 1), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_onnx_emit_node(&f.cx, 2), SEER_STATUS_SUCCESS);
    CHECK(f.cx.n_unsup == 2 && !strcmp(f.cx.unsup[0].why, "the description format has no Foo layer"));
    CHECK(!strcmp(f.cx.unsup[1].why, "an operator of domain 'com.microsoft'"));
    CHECK_STATUS(seer_onnx_emit_node(&f.cx, 0), SEER_STATUS_SUCCESS); /* after a skipped node: skipped too */
    CHECK(f.cx.n_unsup == 3 && fx_text(&f)[0] == 0);
    fx_close(&f);
}

/* A skipped node's reason quotes the file's strings (its domain, a
 * tensor's name): a line break in one ended the "# skipped:" comment and
 * made the rest lines of the description (a layer, an "# unfolded:"
 * line that seer net counts as a restored batch norm). */
TEST(onnx_emit_skipped_reason_stays_one_line)
{
    fx_t f;
    REQUIRE(fx_open(&f, 13, 3, 4));
    f.cx.opt.skip_unsupported = 1;
    REQUIRE(seer_onnx_add_tensor(&f.cx, "u\nrelu name=evil in=x", -1) >= 0); /* data of unknown shape */
    SeerOnnx__NodeProto n[2];
    char *i0[] = {"x"}, *o0[] = {"a"}, *i1[] = {"u\nrelu name=evil in=x"}, *o1[] = {"b"};
    fx_node(&f, &n[0], "Foo", i0, 1, o0)->domain = "evil\n# unfolded: x\r";
    fx_node(&f, &n[1], "Relu", i1, 1, o1);
    CHECK_STATUS(seer_onnx_emit_node(&f.cx, 0), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_onnx_emit_node(&f.cx, 1), SEER_STATUS_SUCCESS);
    CHECK(f.cx.n_skipped == 2);
    const char *t = fx_text(&f);
    CHECK(strstr(t, "domain 'evil?# unfolded: x?'\n") != NULL);
    CHECK(strstr(t, "reads 'u?relu name=evil in=x'") != NULL);
    int lines = 0;
    for (const char *p = t; (p = strchr(p, '\n')); p++) lines++;
    CHECK(lines == 2 && strncmp(t, "# skipped: ", 11) == 0 && strstr(t, "\n# skipped: ") != NULL);
    CHECK(!strchr(f.cx.unsup[0].why, '\n'));
    fx_close(&f);
}

/* String attributes are ONNX's values or refused (not read as the
 * default): an empty auto_pad is NOTSET, as onnxruntime reads it; a
 * prefix of a value, or an int, is not one. */
TEST(onnx_emit_string_attributes_checked)
{
    fx_t f;
    REQUIRE(fx_open(&f, 13, 3, 8));
    int64_t wd[4] = {8, 3, 3, 3}, ks[2] = {2, 2};
    fx_const(&f, "w", 4, wd, NULL, 0);
    SeerOnnx__AttributeProto empty = SEER_ONNX__ATTRIBUTE_PROTO__INIT, prefix = SEER_ONNX__ATTRIBUTE_PROTO__INIT,
                         as_int = SEER_ONNX__ATTRIBUTE_PROTO__INIT, kernel = SEER_ONNX__ATTRIBUTE_PROTO__INIT;
    empty.name = "auto_pad", empty.has_s = 1, empty.s.len = 0, empty.s.data = NULL;
    prefix.name = "auto_pad", prefix.has_s = 1, prefix.s.len = 4, prefix.s.data = (uint8_t *)"VALID";
    as_int.name = "auto_pad", as_int.has_i = 1, as_int.i = 1;
    kernel.name = "kernel_shape", kernel.n_ints = 2, kernel.ints = ks;
    SeerOnnx__AttributeProto *a0[] = {&empty}, *a1[] = {&prefix}, *a2[] = {&kernel, &as_int};
    SeerOnnx__NodeProto n[3];
    char *i0[] = {"x", "w"}, *o0[] = {"c1"}, *o1[] = {"c2"}, *i2[] = {"x"}, *o2[] = {"mp"};
    fx_node(&f, &n[0], "Conv", i0, 2, o0)->n_attribute = 1;
    n[0].attribute = a0;
    fx_node(&f, &n[1], "Conv", i0, 2, o1)->n_attribute = 1;
    n[1].attribute = a1;
    fx_node(&f, &n[2], "MaxPool", i2, 1, o2)->n_attribute = 2;
    n[2].attribute = a2;
    CHECK_STATUS(seer_onnx_emit_node(&f.cx, 0), SEER_STATUS_SUCCESS);
    CHECK(!strcmp(fx_text(&f), "conv name=c1 in=x k=8 size=3\n"));
    CHECK_STATUS(seer_onnx_emit_node(&f.cx, 1), SEER_STATUS_ONNX_CORRUPT);
    CHECK(strstr(seer_get_last_error(f.h), "node 'c2' (Conv): attribute auto_pad is 'VALI', none of ONNX's values") != NULL);
    CHECK_STATUS(seer_onnx_emit_node(&f.cx, 2), SEER_STATUS_ONNX_CORRUPT);
    CHECK(strstr(seer_get_last_error(f.h), "node 'mp' (MaxPool): attribute auto_pad is not a string") != NULL);
    fx_close(&f);
}

/* ConvTranspose (nn.ConvTranspose2d) as a deconv line, over a 1 x 16 x 7 x
 * 7 input: the weight C x K/group x R x S, options written as a conv's
 * (defaults left out), outpad only when not 0.  ONNX's output size from
 * pads, output_shape or auto_pad is PyTorch's symmetric pad and output
 * padding: an odd total padding rounds up and gives the row back as
 * output padding; one that needs output padding of the stride or more
 * is unsupported. */
TEST(onnx_emit_conv_transpose_line_and_shape)
{
    static const struct {
        int64_t w[4], bias, stride, dil, group, pads[4], opad[2], oshape[2];
        const char *auto_pad;
        int64_t h, w_out;           /* the output's; 0: no layer */
        const char *want;           /* the line, or the unsupported reason's start */
    } cases[] = {
        /* the DCGAN / U-Net upsampling: k 4, stride 2, pad 1 doubles */
        {{16, 8, 4, 4}, 0, 2, 1, 1, {1, 1, 1, 1}, {0, 0}, {0, 0}, NULL, 14, 14,
         "deconv name=d in=x k=8 size=4 stride=2 pad=1\n"},
        /* k 3, stride 2, pad 1, output_padding 1 doubles too */
        {{16, 8, 3, 3}, 0, 2, 1, 1, {1, 1, 1, 1}, {1, 1}, {0, 0}, NULL, 14, 14,
         "deconv name=d in=x k=8 size=3 stride=2 pad=1 outpad=1\n"},
        /* grouped: K = 2 x 4 */
        {{16, 2, 3, 3}, 0, 1, 1, 4, {1, 1, 1, 1}, {0, 0}, {0, 0}, NULL, 7, 7,
         "deconv name=d in=x k=8 size=3 pad=1 groups=4\n"},
        {{16, 8, 2, 2}, 8, 2, 1, 1, {0, 0, 0, 0}, {0, 0}, {0, 0}, NULL, 14, 14,
         "deconv name=d in=x k=8 size=2 stride=2 bias=1\n"},
        {{16, 8, 3, 3}, 0, 1, 2, 1, {2, 2, 2, 2}, {0, 0}, {0, 0}, NULL, 7, 7,
         "deconv name=d in=x k=8 size=3 pad=2 dil=2\n"},
        /* asymmetric pads (0, 0, 1, 1): total 1, rounded up, one row back */
        {{16, 8, 3, 3}, 0, 2, 1, 1, {0, 0, 1, 1}, {0, 0}, {0, 0}, NULL, 14, 14,
         "deconv name=d in=x k=8 size=3 stride=2 pad=1 outpad=1\n"},
        /* ... and with output_padding 1 too, rounded down instead */
        {{16, 8, 3, 3}, 0, 2, 1, 1, {0, 0, 1, 1}, {1, 1}, {0, 0}, NULL, 15, 15,
         "deconv name=d in=x k=8 size=3 stride=2\n"},
        /* output_shape: the total padding ONNX derives, per axis (pads ignored) */
        {{16, 8, 3, 3}, 0, 2, 1, 1, {3, 3, 3, 3}, {0, 0}, {14, 15}, NULL, 14, 15,
         "deconv name=d in=x k=8 size=3 stride=2 pad_h=1 pad_w=0 outpad_h=1 outpad_w=0\n"},
        /* auto_pad SAME: the input times the stride (k 4: total 2) */
        {{16, 8, 4, 4}, 0, 2, 1, 1, {0, 0, 0, 0}, {0, 0}, {0, 0}, "SAME_UPPER", 14, 14,
         "deconv name=d in=x k=8 size=4 stride=2 pad=1\n"},
        /* ... k 1: what the kernel leaves short is output padding */
        {{16, 8, 1, 1}, 0, 2, 1, 1, {0, 0, 0, 0}, {0, 0}, {0, 0}, "SAME_LOWER", 14, 14,
         "deconv name=d in=x k=8 size=1 stride=2 outpad=1\n"},
        {{16, 8, 2, 2}, 0, 2, 1, 1, {1, 1, 1, 1}, {0, 0}, {0, 0}, "VALID", 14, 14,
         "deconv name=d in=x k=8 size=2 stride=2\n"},
        /* stride 1: no output padding to give an odd total's row back */
        {{16, 8, 3, 3}, 0, 1, 1, 1, {0, 0, 1, 1}, {0, 0}, {0, 0}, NULL, 0, 0,
         "no symmetric pad gives output size 8 with an output padding below the stride (pads 0, 1)"},
        /* output_padding 2 at stride 2, which PyTorch refuses */
        {{16, 8, 3, 3}, 0, 2, 1, 1, {1, 1, 1, 1}, {2, 2}, {0, 0}, NULL, 0, 0, "no symmetric pad gives output size 15"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        fx_t f;
        REQUIRE(fx_open(&f, 13, 16, 7));
        int64_t bd[1] = {cases[i].bias}, st[2] = {cases[i].stride, cases[i].stride}, dl[2] = {cases[i].dil, cases[i].dil};
        int64_t pads[4], opad[2], oshape[2];
        memcpy(pads, cases[i].pads, sizeof pads);
        memcpy(opad, cases[i].opad, sizeof opad);
        memcpy(oshape, cases[i].oshape, sizeof oshape);
        fx_const(&f, "w", 4, cases[i].w, NULL, 0);
        fx_const(&f, "b", 1, bd, NULL, 0);
        SeerOnnx__AttributeProto a[7];
        SeerOnnx__AttributeProto *attrs[7];
        static const char *const names[6] = {"strides", "dilations", "pads", "output_padding", "output_shape", "group"};
        int64_t *lists[5] = {st, dl, pads, opad, oshape};
        size_t lens[5] = {2, 2, 4, 2, 2}, na = 0;
        for (int k = 0; k < 6; k++) {
            static const SeerOnnx__AttributeProto init = SEER_ONNX__ATTRIBUTE_PROTO__INIT;
            if ((k == 3 && !opad[0]) || (k == 4 && !oshape[0])) continue; /* absent */
            a[na] = init;
            a[na].name = (char *)names[k];
            if (k < 5) a[na].n_ints = lens[k], a[na].ints = lists[k];
            else a[na].has_i = 1, a[na].i = cases[i].group;
            attrs[na] = &a[na];
            na++;
        }
        if (cases[i].auto_pad) {
            static const SeerOnnx__AttributeProto init = SEER_ONNX__ATTRIBUTE_PROTO__INIT;
            a[na] = init;
            a[na].name = "auto_pad", a[na].has_s = 1;
            a[na].s.len = strlen(cases[i].auto_pad), a[na].s.data = (uint8_t *)cases[i].auto_pad;
            attrs[na] = &a[na];
            na++;
        }
        SeerOnnx__NodeProto n;
        char *in[] = {"x", "w", "b"}, *out[] = {"d"};
        fx_node(&f, &n, "ConvTranspose", in, cases[i].bias ? 3 : 2, out);
        n.n_attribute = na;
        n.attribute = attrs;
        CHECK_STATUS(seer_onnx_emit_node(&f.cx, 0), SEER_STATUS_SUCCESS);
        tensor_t *d = fx_tensor(&f, "d");
        if (cases[i].h) {
            if (strcmp(fx_text(&f), cases[i].want)) printf("\n    case %zu: %s", i, fx_text(&f));
            CHECK(!strcmp(fx_text(&f), cases[i].want));
            CHECK(f.cx.n_unsup == 0 && d->layer == 1 && d->rank == 4 && d->d[1] == 8 && d->d[2] == cases[i].h &&
                  d->d[3] == cases[i].w_out);
        } else {
            /* recorded, the output aliasing the input so the rest goes on */
            CHECK(f.cx.n_unsup == 1 && !strncmp(f.cx.unsup[0].why, cases[i].want, strlen(cases[i].want)));
            CHECK(fx_text(&f)[0] == 0 && d->layer == 0);
        }
        fx_close(&f);
    }
}

/* A ConvTranspose's weight is C x K/group x R x S: one whose first
 * dimension is not the input's channels, or a bias of other than K
 * values, is an error naming the node (8 x 16 x 4 x 4, a Conv's weight
 * for 16 channels, is not a ConvTranspose's); one over 3
 * spatial dimensions (a 5-D view) is unsupported, not an error. */
TEST(onnx_emit_conv_transpose_checks_weights)
{
    fx_t f;
    REQUIRE(fx_open(&f, 13, 16, 7));
    int64_t w8[4] = {8, 16, 4, 4}, w16[4] = {16, 8, 4, 4}, w3d[5] = {16, 8, 3, 3, 3}, b5[1] = {5};
    fx_const(&f, "w8", 4, w8, NULL, 0);
    fx_const(&f, "w16", 4, w16, NULL, 0);
    fx_const(&f, "w3d", 5, w3d, NULL, 0);
    fx_const(&f, "b5", 1, b5, NULL, 0);
    int v = seer_onnx_add_tensor(&f.cx, "x5", -1); /* x as 1 x 16 x 7 x 7 x 1: a view of its layer */
    REQUIRE(v >= 0);
    tensor_t *x5 = &f.cx.t[v];
    x5->known = 1, x5->rank = 5, x5->layer = 0;
    x5->d[0] = 1, x5->d[1] = 16, x5->d[2] = 7, x5->d[3] = 7, x5->d[4] = 1;
    SeerOnnx__NodeProto n[3];
    char *i0[] = {"x", "w8"}, *o0[] = {"up"}, *i1[] = {"x", "w16", "b5"}, *o1[] = {"upb"}, *i2[] = {"x5", "w3d"},
         *o2[] = {"up3d"};
    fx_node(&f, &n[0], "ConvTranspose", i0, 2, o0);
    fx_node(&f, &n[1], "ConvTranspose", i1, 3, o1);
    fx_node(&f, &n[2], "ConvTranspose", i2, 2, o2);
    CHECK_STATUS(seer_onnx_emit_node(&f.cx, 0), SEER_STATUS_NET_SHAPE);
    CHECK(strstr(seer_get_last_error(f.h), "node 'up' (ConvTranspose): weight 8x16x4x4 with group 1 does not fit 16 "
                 "input channels") != NULL);
    CHECK_STATUS(seer_onnx_emit_node(&f.cx, 1), SEER_STATUS_NET_SHAPE);
    CHECK(strstr(seer_get_last_error(f.h), "node 'upb' (ConvTranspose): bias 'b5' has 5 values for 8 output channels") !=
          NULL);
    CHECK_STATUS(seer_onnx_emit_node(&f.cx, 2), SEER_STATUS_SUCCESS);
    CHECK(f.cx.n_unsup == 1 && !strcmp(f.cx.unsup[0].op, "ConvTranspose") &&
          !strcmp(f.cx.unsup[0].why, "a transposed convolution over other than 2 spatial dimensions"));
    CHECK(fx_tensor(&f, "up3d")->layer == 0 && fx_text(&f)[0] == 0);
    fx_close(&f);
}

/* A ConvTranspose's output_shape or output_padding of other than 2 sizes
 * is unsupported, its reason saying how many it has: an output_shape of
 * N x C x H x W (4 sizes; ONNX's are H and W) or a 3-D output padding
 * is more than 2, not the 3 that reading at most 2 answers. */
TEST(onnx_emit_conv_transpose_attribute_sizes)
{
    static const struct { const char *attr; size_t n; const char *why; } cases[] = {
        {"output_shape", 4, "output_shape of more than 2 sizes for a 2-D window (2: H and W)"},
        {"output_shape", 1, "output_shape of 1 sizes for a 2-D window (2: H and W)"},
        {"output_padding", 3, "output_padding of more than 2 sizes for a 2-D window"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        fx_t f;
        REQUIRE(fx_open(&f, 13, 16, 7));
        int64_t wd[4] = {16, 8, 3, 3}, v[4] = {1, 1, 1, 1}, st[2] = {2, 2};
        fx_const(&f, "w", 4, wd, NULL, 0);
        static const SeerOnnx__AttributeProto init = SEER_ONNX__ATTRIBUTE_PROTO__INIT;
        SeerOnnx__AttributeProto a[2] = {init, init}, *attrs[2] = {&a[0], &a[1]};
        a[0].name = "strides", a[0].n_ints = 2, a[0].ints = st;
        a[1].name = (char *)cases[i].attr, a[1].n_ints = cases[i].n, a[1].ints = v;
        SeerOnnx__NodeProto n;
        char *in[] = {"x", "w"}, *out[] = {"d"};
        fx_node(&f, &n, "ConvTranspose", in, 2, out);
        n.n_attribute = 2;
        n.attribute = attrs;
        CHECK_STATUS(seer_onnx_emit_node(&f.cx, 0), SEER_STATUS_SUCCESS);
        CHECK(f.cx.n_unsup == 1 && !strcmp(f.cx.unsup[0].why, cases[i].why));
        if (f.cx.n_unsup == 1 && strcmp(f.cx.unsup[0].why, cases[i].why)) printf("\n    case %zu: %s", i, f.cx.unsup[0].why);
        fx_close(&f);
    }
}
