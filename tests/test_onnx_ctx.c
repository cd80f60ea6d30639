/* ONNX import, the translation context (libseer/onnx_ctx.c) driven
 * directly: the name table, layer names, dims limits, attributes,
 * messages that name the node, and the record of unsupported nodes. */
#include <stdlib.h>
#include "test.h"
#include "onnx_ctx.h"

/* A context reporting to a fresh handle, with room for n tensors. */
static int open_cx(seer_handle_t *h, cx_t *cx, const seer_onnx_options_t *opt, size_t n)
{
    if (seer_create(h)) return 0;
    seer_onnx_cx_init(cx, *h, opt);
    return seer_onnx_cx_tables(cx, n, 2) == SEER_STATUS_SUCCESS;
}

static void close_cx(seer_handle_t h, cx_t *cx)
{
    seer_onnx_cx_free(cx);
    seer_destroy(h);
}

TEST(onnx_ctx_tensors_by_name_once)
{
    seer_handle_t h;
    cx_t cx;
    REQUIRE(open_cx(&h, &cx, NULL, 40));
    CHECK(cx.nslot == 128); /* a power of two, at least twice the names */
    CHECK(cx.alias_in[0] == -1 && cx.alias_in[1] == -1);
    char names[40][16];
    for (int i = 0; i < 40; i++) {
        snprintf(names[i], sizeof names[i], "t%d", i);
        CHECK(seer_onnx_add_tensor(&cx, names[i], i) == i);
    }
    CHECK(seer_onnx_add_tensor(&cx, "t7", 0) == -1); /* not SSA */
    for (int i = 0; i < 40; i++) CHECK(seer_onnx_find_tensor(&cx, names[i]) == i);
    CHECK(seer_onnx_find_tensor(&cx, "t40") == -1);
    CHECK(cx.t[3].nval == -1 && cx.t[3].layer == -1 && cx.t[3].producer == 3 && !cx.t[3].known);
    close_cx(h, &cx);
}

TEST(onnx_ctx_layer_names_valid_and_unique)
{
    seer_handle_t h;
    cx_t cx;
    REQUIRE(open_cx(&h, &cx, NULL, 4));
    tensor_t t = {.known = 1, .rank = 4, .d = {1, 3, 8, 6}, .layer = -1};
    CHECK(seer_onnx_new_layer(&cx, "/blocks/0 conv", &t) == 0);
    CHECK(!strcmp(cx.L[0].name, "blocks/0_conv")); /* leading '/' dropped, ' ' replaced */
    CHECK(cx.L[0].c == 3 && cx.L[0].h == 8 && cx.L[0].w == 6 && t.layer == 0);
    CHECK(seer_onnx_new_layer(&cx, "blocks/0 conv", &t) == 1);
    CHECK(!strcmp(cx.L[1].name, "blocks/0_conv-2"));
    CHECK(seer_onnx_new_layer(&cx, "///", &t) == 2);
    CHECK(!strcmp(cx.L[2].name, "layer"));
    char longname[80];
    memset(longname, 'a', 60);
    longname[60] = 0;
    CHECK(seer_onnx_new_layer(&cx, longname, &t) == 3);
    CHECK(strlen(cx.L[3].name) == 47);
    CHECK(seer_onnx_new_layer(&cx, longname, &t) == 4);
    CHECK(strlen(cx.L[4].name) == 38 && !strcmp(cx.L[4].name + 36, "-2")); /* the suffix replaces the end */
    /* enough layers to rehash the layer-name table twice */
    int last = -1;
    for (int i = 0; i < 600; i++) last = seer_onnx_new_layer(&cx, "x", &t);
    CHECK(last == 604 && !strcmp(cx.L[last].name, "x-600"));
    CHECK(cx.nlslot >= 2 * (size_t)cx.nl);
    close_cx(h, &cx);
}

TEST(onnx_ctx_dims_limits)
{
    seer_handle_t h;
    cx_t cx;
    REQUIRE(open_cx(&h, &cx, NULL, 4));
    SeerOnnx__NodeProto n = SEER_ONNX__NODE_PROTO__INIT;
    n.name = "r";
    n.op_type = "Reshape";
    tensor_t t = {.name = "y", .layer = -1};
    int64_t d[SEER_ONNX_MAX_RANK + 1] = {1, 1 << 25, 2};
    CHECK_STATUS(seer_onnx_set_dims(&cx, &n, &t, 3, d), SEER_STATUS_OVERFLOW);
    CHECK(strstr(seer_get_last_error(h), "node 'r' (Reshape): tensor 'y' dimension 1") != NULL);
    d[0] = 1 << 25; /* the batch is not a per-sample dimension */
    d[1] = 4;
    CHECK_STATUS(seer_onnx_set_dims(&cx, &n, &t, 3, d), SEER_STATUS_SUCCESS);
    CHECK(t.known && t.rank == 3 && t.d[0] == 1 << 25 && seer_onnx_elems(&t, 1) == 8);
    d[2] = -1;
    CHECK_STATUS(seer_onnx_set_dims(&cx, &n, &t, 3, d), SEER_STATUS_NET_SHAPE);
    CHECK_STATUS(seer_onnx_set_dims(&cx, &n, &t, SEER_ONNX_MAX_RANK + 1, d), SEER_STATUS_NET_SHAPE);
    /* a constant counts all its elements, the first dimension included */
    tensor_t c = {.name = "w", .is_const = 1, .layer = -1};
    int64_t cd[2] = {1 << 25, 2};
    CHECK_STATUS(seer_onnx_set_dims(&cx, &n, &c, 2, cd), SEER_STATUS_SUCCESS);
    cd[1] = 128;
    CHECK_STATUS(seer_onnx_set_dims(&cx, &n, &c, 2, cd), SEER_STATUS_OVERFLOW);
    CHECK_STATUS(seer_onnx_set_dims(&cx, &n, &c, 0, NULL), SEER_STATUS_SUCCESS); /* a scalar */
    CHECK(c.rank == 0 && seer_onnx_elems(&c, 0) == 1);
    CHECK(seer_onnx_norm_axis(-1, 4) == 3 && seer_onnx_norm_axis(4, 4) == -1);
    CHECK(seer_onnx_norm_axis(-5, 4) == -1 && seer_onnx_norm_axis(0, 0) == 0);
    close_cx(h, &cx);
}

TEST(onnx_ctx_attributes)
{
    int64_t pads[5] = {1, 2, 3, 4, 5}, got[8];
    SeerOnnx__AttributeProto a = SEER_ONNX__ATTRIBUTE_PROTO__INIT, g = SEER_ONNX__ATTRIBUTE_PROTO__INIT,
                         s = SEER_ONNX__ATTRIBUTE_PROTO__INIT;
    a.name = "pads";
    a.n_ints = 5;
    a.ints = pads;
    g.name = "group";
    g.has_i = 1;
    g.i = 4;
    s.name = "auto_pad";
    s.has_s = 1;
    s.s.data = (uint8_t *)"SAME_UPPER";
    s.s.len = 10;
    SeerOnnx__AttributeProto *as[] = {&a, &g, &s};
    SeerOnnx__NodeProto n = SEER_ONNX__NODE_PROTO__INIT;
    n.n_attribute = 3;
    n.attribute = as;
    CHECK(seer_onnx_attr_ints(&n, "pads", got, 4) == 5); /* longer than asked: max + 1 */
    CHECK(seer_onnx_attr_ints(&n, "pads", got, 8) == 5 && got[4] == 5);
    CHECK(seer_onnx_attr_ints(&n, "strides", got, 2) == -1);
    CHECK(seer_onnx_attr_int(&n, "group", 1) == 4 && seer_onnx_attr_int(&n, "axis", -7) == -7);
    CHECK(seer_onnx_attr_float(&n, "ratio", 0.5) == 0.5);
    CHECK(seer_onnx_attr_str_is(&n, "auto_pad", "SAME_UPPER"));
    CHECK(!seer_onnx_attr_str_is(&n, "auto_pad", "SAME"));
    CHECK(!seer_onnx_attr_str_is(&n, "mode", "SAME_UPPER"));
}

TEST(onnx_ctx_messages_name_the_node)
{
    seer_handle_t h;
    cx_t cx;
    REQUIRE(open_cx(&h, &cx, NULL, 4));
    char b[16], lng[101];
    CHECK(!strcmp(seer_onnx_show("a\x01z", b, sizeof b), "a?z"));
    memset(lng, 'x', 100);
    lng[100] = 0;
    CHECK(!strcmp(seer_onnx_show(lng, b, sizeof b), "xxxxxxxxxxxx..."));
    CHECK(!strcmp(seer_onnx_show(NULL, b, sizeof b), ""));
    char *outs[] = {"y"};
    SeerOnnx__NodeProto n = SEER_ONNX__NODE_PROTO__INIT;
    n.op_type = "Conv";
    n.name = "";
    CHECK(!strcmp(seer_onnx_label(&n), "?"));
    n.n_output = 1;
    n.output = outs;
    CHECK(!strcmp(seer_onnx_label(&n), "y"));
    n.name = "conv1";
    CHECK_STATUS(seer_onnx_nerr(&cx, &n, SEER_STATUS_NET_SHAPE, "bad %d", 3), SEER_STATUS_NET_SHAPE);
    CHECK(!strcmp(seer_get_last_error(h), "node 'conv1' (Conv): bad 3"));
    n.op_type = NULL; /* an initializer: no node to name */
    CHECK_STATUS(seer_onnx_nerr(&cx, &n, SEER_STATUS_ONNX_CORRUPT, "bad %d", 4), SEER_STATUS_ONNX_CORRUPT);
    CHECK(!strcmp(seer_get_last_error(h), "bad 4"));
    /* the text grows as needed */
    for (int i = 0; i < 1000; i++) seer_onnx_emit(&cx, "line %d\n", i);
    CHECK(!cx.oom && cx.olen == 10 * 7 + 90 * 8 + 900 * 9);
    CHECK(!strncmp(cx.out, "line 0\nline 1\n", 14) && !strcmp(cx.out + cx.olen - 9, "line 999\n"));
    close_cx(h, &cx);
}

/* Unsupported nodes are grouped by operator for the error; with
 * skip_unsupported each leaves a comment, and its output aliases its
 * first data input so the rest goes on. */
static void unsupported_pair(int skip)
{
    seer_handle_t h;
    cx_t cx;
    seer_onnx_options_t o = SEER_ONNX_OPTIONS_DEFAULT;
    o.skip_unsupported = skip;
    REQUIRE(open_cx(&h, &cx, &o, 8));
    const char *names[] = {"w", "x", "y", "z", "u"};
    for (int i = 0; i < 5; i++) REQUIRE(seer_onnx_add_tensor(&cx, names[i], -1) == i);
    tensor_t *w = &cx.t[0], *x = &cx.t[1], *y = &cx.t[2];
    w->is_const = 1;
    x->known = 1;
    x->rank = 2;
    x->d[0] = 1;
    x->d[1] = 10;
    REQUIRE(seer_onnx_new_layer(&cx, "x", x) == 0);
    char *in1[] = {"w", "x"}, *out1[] = {"y"}, *in2[] = {"y"}, *out2[] = {"z"}, *out3[] = {"u"};
    SeerOnnx__NodeProto n1 = SEER_ONNX__NODE_PROTO__INIT, n2 = SEER_ONNX__NODE_PROTO__INIT, n3 = SEER_ONNX__NODE_PROTO__INIT;
    n1.op_type = n2.op_type = "Transpose";
    n3.op_type = "Foo";
    n1.name = "tr";
    n2.name = "tr2";
    n3.name = "";
    n1.n_input = 2, n1.input = in1, n1.n_output = 1, n1.output = out1;
    n2.n_input = 1, n2.input = in2, n2.n_output = 1, n2.output = out2;
    n3.n_output = 1, n3.output = out3;
    CHECK_STATUS(seer_onnx_unsupported(&cx, &n1, "no Transpose layer"), SEER_STATUS_SUCCESS);
    CHECK(y->layer == 0 && y->known && y->rank == 2 && y->d[1] == 10); /* the data input, not the constant */
    CHECK_STATUS(seer_onnx_unsupported(&cx, &n2, "not this one's reason"), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_onnx_unsupported(&cx, &n3, "no Foo layer"), SEER_STATUS_SUCCESS);
    CHECK(cx.t[4].layer == -1 && !cx.t[4].known);
    CHECK(cx.n_unsup == 3 && cx.n_unsup_ops == 2 && cx.unsup[0].count == 2 && cx.n_skipped == 3 * skip);
    CHECK_STATUS(seer_onnx_unsupported_error(&cx, "later failure"), SEER_STATUS_ONNX_UNSUPPORTED_OP);
    CHECK(strstr(seer_get_last_error(h), "3 unsupported nodes: Transpose x2 ('tr', 'tr2': no Transpose layer); "
                 "Foo x1 ('u': no Foo layer); --skip-unsupported") != NULL);
    CHECK(strstr(seer_get_last_error(h), "; then later failure") != NULL);
    const char *comment = "# skipped: Transpose node 'tr': no Transpose layer\n";
    if (skip) CHECK(cx.out && !strncmp(cx.out, comment, strlen(comment)));
    else CHECK(cx.olen == 0);
    close_cx(h, &cx);
}

TEST(onnx_ctx_unsupported_recorded) { unsupported_pair(0); }
TEST(onnx_ctx_unsupported_skipped_with_comment) { unsupported_pair(1); }
