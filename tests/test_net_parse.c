/* Networks: the description parser and its errors, shape inference and
 * the built-in zoo (libseer/net_parse.c, zoo.c's texts). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "net.h"

static seer_handle_t handle(void)
{
    seer_handle_t h = NULL;
    seer_create(&h);
    return h;
}

/* Parse text; on failure the status, with the message in msg. */
static seer_status_t parse(seer_handle_t h, const char *text, seer_network_t *net, char *msg, size_t size)
{
    seer_network_t sentinel = (seer_network_t)(uintptr_t)0x1;
    *net = sentinel;
    seer_status_t st = seer_network_create(h, text, strlen(text), net);
    if (st) {
        if (*net != sentinel) test_fail(__FILE__, __LINE__, "net written on failure");
        *net = NULL;
        seer_get_last_error_copy(h, msg, size);
    }
    return st;
}


/* ---------------------------------------------------------------- parser */

TEST(net_parse_valid_and_shapes)
{
    seer_handle_t h = handle();
    char msg[1024];
    seer_network_t net;
    const char *text =
        "# a small network\r\n"
        "network name=tiny\n"
        "input name=data c=3 h=32 w=32\n"
        "\tconv name=c1 k=16 size=3 pad=1   # same size\n"
        "bn\n"
        "relu name=r1\n"
        "conv name=c2 in=r1 k=16 r=1 s=1\n"
        "conv name=c3 in=r1 k=8 r=3 s=3 pad=1 stride=2 groups=8\n"
        "pool name=p1 in=c2 max size=3 stride=2 ceil=1\n"
        "concat name=cat in=p1,c3\n"
        "add name=sum in=cat,cat\n"
        "pool avg global\n"
        "flatten\n"
        "dropout p=0.5\n"
        "fc name=fc k=10\n"
        "softmax\n";
    REQUIRE(parse(h, text, &net, msg, sizeof msg) == SEER_STATUS_SUCCESS);
    seer_network_info_t info;
    CHECK_STATUS(seer_network_get_info(net, &info), SEER_STATUS_SUCCESS);
    CHECK(strcmp(info.name, "tiny") == 0);
    CHECK(info.n_layers == 14);
    CHECK(info.n_conv == 3 && info.n_fc == 1);
    CHECK(info.in_c == 3 && info.in_h == 32);
    /* c1 432 + bn 32 + c2 256 + c3 8*2*9=144 + fc 24*10+10 = 250 */
    CHECK(info.params == 432 + 32 + 256 + 144 + 250);
    seer_layer_info_t L;
    CHECK_STATUS(seer_network_get_layer(net, 4, &L), SEER_STATUS_SUCCESS); /* c2 */
    CHECK(strcmp(L.name, "c2") == 0 && L.line == 7 && L.c == 16 && L.h == 32);
    CHECK_STATUS(seer_network_get_layer(net, 6, &L), SEER_STATUS_SUCCESS); /* p1: ceil((32-3)/2)+1 */
    CHECK(L.op == SEER_OP_POOL && L.h == 16 && L.w == 16);
    CHECK_STATUS(seer_network_get_layer(net, 5, &L), SEER_STATUS_SUCCESS); /* c3 */
    CHECK(L.h == 16 && L.shape.groups == 8 && L.shape.c == 16);
    CHECK_STATUS(seer_network_get_layer(net, 7, &L), SEER_STATUS_SUCCESS); /* cat */
    CHECK(L.c == 24 && L.n_inputs == 2);
    CHECK_STATUS(seer_network_get_layer(net, 2, &L), SEER_STATUS_SUCCESS); /* bn, default name */
    CHECK(L.op == SEER_OP_BATCHNORM && strcmp(L.name, "bn_L5") == 0 && L.input0 == 1);
    CHECK_STATUS(seer_network_get_layer(net, 12, &L), SEER_STATUS_SUCCESS); /* fc */
    CHECK(L.op == SEER_OP_FC && L.shape.c == 24 && L.shape.k == 10 && L.c == 10 && L.params == 250);
    CHECK_STATUS(seer_network_get_layer(net, 14, &L), SEER_STATUS_BAD_PARAM);
    int n;
    CHECK_STATUS(seer_network_layer_count(net, &n), SEER_STATUS_SUCCESS);
    CHECK(n == 14);
    seer_network_destroy(net);
    CHECK_STATUS(seer_network_destroy(NULL), SEER_STATUS_SUCCESS);
    seer_destroy(h);
}

/* A leading UTF-8 byte order mark is skipped, as in CSV and GPU
 * description files: it was read as the first line's layer type
 * ("line 1: unknown layer type '\xEF\xBB\xBFnetwork'"); lines keep
 * their numbers. */
TEST(net_parse_skips_byte_order_mark)
{
    seer_handle_t h = handle();
    char msg[1024];
    seer_network_t net;
    REQUIRE(parse(h, "\xEF\xBB\xBFnetwork name=bom\r\ninput name=data c=3 h=8 w=8\r\nconv k=4 size=3\r\n", &net,
                  msg, sizeof msg) == SEER_STATUS_SUCCESS);
    seer_network_info_t info;
    CHECK_STATUS(seer_network_get_info(net, &info), SEER_STATUS_SUCCESS);
    CHECK(strcmp(info.name, "bom") == 0 && info.n_layers == 2);
    seer_network_destroy(net);
    CHECK_STATUS(parse(h, "\xEF\xBB\xBFinput name=data c=3 h=8 w=8\nconv k=4 size=3 bogus=1\n", &net, msg, sizeof msg),
                 SEER_STATUS_NET_PARSE);
    CHECK(strstr(msg, "line 2") != NULL);
    seer_destroy(h);
}

TEST(net_parse_errors_status_and_line)
{
    static const struct { const char *text; seer_status_t st; const char *needle; } cases[] = {
        {"", SEER_STATUS_NET_PARSE, "no layers"},
        {"# only a comment\n\n", SEER_STATUS_NET_PARSE, "no layers"},
        {"input c=3 h=8 w=8\n", SEER_STATUS_NET_PARSE, "no layers besides its inputs"},
        {"input c=3 h=8 w=8\nconvolution k=3\n", SEER_STATUS_NET_PARSE, "line 2"},
        {"input c=3 h=8 w=8\nconv k=3 size=3 colour=red\n", SEER_STATUS_NET_PARSE, "unknown option 'colour'"},
        {"input c=3 h=8 w=8\nconv k=3 size=3 k=4\n", SEER_STATUS_NET_PARSE, "given twice"},
        {"input c=3 h=8 w=8\nconv k=x size=3\n", SEER_STATUS_NET_PARSE, "expected an integer"},
        {"input c=3 h=8 w=8\nconv k=0 size=3\n", SEER_STATUS_NET_PARSE, "k must be >= 1"},
        {"input c=3 h=8 w=8\nconv size=3\n", SEER_STATUS_NET_PARSE, "needs k="},
        {"input c=3 h=8 w=8\nconv k=4\n", SEER_STATUS_NET_PARSE, "needs a window"},
        {"input c=3 h=8\n", SEER_STATUS_NET_PARSE, "needs c=, h= and w="},
        {"input name=a c=3 h=8 w=8\nrelu name=a\n", SEER_STATUS_NET_PARSE, "already used on line 1"},
        {"input name=a c=3 h=8 w=8\nrelu name=b@c\n", SEER_STATUS_NET_PARSE, "line 2"},
        {"input c=3 h=8 w=8\npool size=2\n", SEER_STATUS_NET_PARSE, "max or avg"},
        {"input c=3 h=8 w=8\npool max global size=2\n", SEER_STATUS_NET_PARSE, "no window options"},
        {"input c=3 h=8 w=8\ndropout p=1.5\n", SEER_STATUS_NET_PARSE, "probability"},
        {"input c=3 h=8 w=8\nrelu in=data,data\n", SEER_STATUS_NET_INPUT, "not defined above"},
        {"input name=data c=3 h=8 w=8\nrelu name=r in=data,data\n", SEER_STATUS_NET_PARSE, "takes one input"},
        {"conv k=3 size=3\n", SEER_STATUS_NET_INPUT, "has no input"},
        {"input name=d c=3 h=8 w=8\nrelu name=x in=y\nrelu name=y in=x\n", SEER_STATUS_NET_INPUT, "line 2"},
        {"input name=d c=3 h=8 w=8\nrelu name=x in=x\n", SEER_STATUS_NET_INPUT, "cannot use itself"},
        {"input name=d c=3 h=8 w=8\nadd in=d\n", SEER_STATUS_NET_INPUT, "at least two"},
        {"input name=a c=3 h=8 w=8\ninput name=b c=4 h=8 w=8\nadd in=a,b\n", SEER_STATUS_NET_SHAPE, "line 3"},
        {"input name=a c=3 h=8 w=8\ninput name=b c=3 h=4 w=4\nconcat in=a,b\n", SEER_STATUS_NET_SHAPE, "must agree"},
        {"input c=3 h=8 w=8\nconv k=4 size=11\n", SEER_STATUS_NET_SHAPE, "does not fit"},
        {"input c=3 h=8 w=8\npool max size=16\n", SEER_STATUS_NET_SHAPE, "does not fit"},
        {"input c=6 h=8 w=8\nconv k=4 size=3 groups=4\n", SEER_STATUS_BAD_GROUPS, "groups=4"},
        {"input c=3 h=8 w=8\nconv k=99999999999 size=3\n", SEER_STATUS_OVERFLOW, "over the limit"},
        /* a window over a huge pad: k x c x r x s past int64, not wrapped */
        {"input c=1 h=1 w=1\nconv k=16777216 size=16777216 pad=8388608\n", SEER_STATUS_OVERFLOW, "over 2^61"},
        {"input c=16777216 h=16777216 w=8\n", SEER_STATUS_OVERFLOW, "2^31-1"},
        {"input c=4096 h=4096 w=4096\n", SEER_STATUS_OVERFLOW, "line 1"},
        {"network name=a\nnetwork name=b\n", SEER_STATUS_NET_PARSE, "named again"},
        {"input c=4 h=8 w=8\nslice from=1\n", SEER_STATUS_NET_PARSE, "slice needs c="},
        {"input c=4 h=8 w=8\nslice c=3 from=2\n", SEER_STATUS_NET_SHAPE, "channels 2..4 of an input of 4"},
        {"input c=4 h=8 w=8\nslice c=2 groups=2\n", SEER_STATUS_NET_PARSE, "unknown option 'groups'"},
        {"input c=6 h=8 w=8\nshuffle groups=4\n", SEER_STATUS_NET_SHAPE, "dividing the 6 channels"},
        {"input c=6 h=8 w=8\nshuffle\n", SEER_STATUS_NET_PARSE, "shuffle needs groups="},
    };
    seer_handle_t h = handle();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char msg[1024] = "";
        seer_network_t net;
        seer_status_t st = seer_network_create(h, cases[i].text, strlen(cases[i].text), &net);
        if (st) seer_get_last_error_copy(h, msg, sizeof msg);
        else seer_network_destroy(net);
        if (st != cases[i].st || !strstr(msg, cases[i].needle)) {
            printf("    case %zu: got %s '%s'\n", i, seer_status_string(st), msg);
            test_fail(__FILE__, __LINE__, "parser error status / message");
        }
    }
    seer_network_t net;
    static const char nul[] = "input c=3 h=8 w=8\nrelu\0\n";
    CHECK_STATUS(seer_network_create(h, nul, sizeof nul - 1, &net), SEER_STATUS_NET_PARSE);
    CHECK(strstr(seer_get_last_error(h), "line 2: NUL byte") != NULL);
    CHECK_STATUS(seer_network_create(h, NULL, 3, &net), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_network_create(h, "input c=1 h=1 w=1", 17, NULL), SEER_STATUS_BAD_PARAM);
    seer_destroy(h);
}

/* The shipped model file models/NAME.seer, or NULL where it is missing
 * (the checks that predict are then left out). */
static seer_model_t shipped(seer_handle_t h, const char *name)
{
    char path[128];
    seer_model_t m = NULL;
    snprintf(path, sizeof path, "models/%s.seer", name);
    return seer_model_load(h, path, &m) == SEER_STATUS_SUCCESS ? m : NULL;
}

/* The rows of one FP32 NCHW training iteration of net at batch on m:
 * their count, at most cap. */
static int train_rows(seer_handle_t h, seer_model_t m, seer_network_t net, int batch, seer_layer_result_t *rows,
                      int cap, double *total)
{
    int n = 0;
    CHECK_STATUS(seer_predict_network(h, m, net, batch, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, SEER_MODE_TRAIN,
                                      SEER_ALGO_AUTO, rows, cap, &n, total),
                 SEER_STATUS_SUCCESS);
    return n;
}

/* A ShuffleNet unit: the channel split as two slices, the shuffle; both
 * copies, shaped as their inputs say; and a product with a constant. */
TEST(net_parse_slice_and_shuffle)
{
    seer_handle_t h = handle();
    char msg[1024];
    seer_network_t net;
    const char *text = "input name=x c=116 h=28 w=28\n"
                       "slice name=a in=x c=58\n"
                       "slice name=b in=x c=58 from=58\n"
                       "conv name=b1 in=b k=58 size=1\n"
                       "concat name=cat in=a,b1\n"
                       "shuffle name=sh in=cat groups=2\n"
                       "scale name=ls in=sh\n"; /* a layer scale */
    REQUIRE(parse(h, text, &net, msg, sizeof msg) == SEER_STATUS_SUCCESS);
    seer_layer_info_t L;
    CHECK_STATUS(seer_network_get_layer(net, 2, &L), SEER_STATUS_SUCCESS);
    CHECK(L.op == SEER_OP_SLICE && L.c == 58 && L.h == 28 && L.shape.k == 58 && L.shape.c == 116 && !L.params);
    CHECK_STATUS(seer_network_get_layer(net, 5, &L), SEER_STATUS_SUCCESS);
    CHECK(L.op == SEER_OP_SHUFFLE && L.c == 116 && L.shape.groups == 2);
    CHECK_STATUS(seer_network_get_layer(net, 6, &L), SEER_STATUS_SUCCESS);
    CHECK(L.op == SEER_OP_ACTIVATION && L.c == 116 && !L.params);
    CHECK(!strcmp(seer_op_name(SEER_OP_SLICE), "slice") && !strcmp(seer_op_name(SEER_OP_SHUFFLE), "shuffle"));
    seer_model_t m = shipped(h, "t4");
    if (m) {
        seer_layer_result_t rows[64];
        double total = 0;
        int n = train_rows(h, m, net, 32, rows, 64, &total);
        int copies = 0;
        for (int i = 0; i < n; i++) copies += (rows[i].op == SEER_OP_SLICE || rows[i].op == SEER_OP_SHUFFLE) &&
                                              rows[i].time_ms > 0;
        CHECK(copies >= 3 && total > 0);
        seer_model_destroy(m);
    }
    seer_network_destroy(net);
    seer_destroy(h);
}

/* The classic CNNs' LRN (AlexNet, GoogLeNet v1): an activation whose
 * backward reads x, y and dy (one more tensor than a ReLU's); PReLU's
 * slopes, shared or one per channel, are parameters, and its backward
 * reads x for dx and again with dy for their gradient. */
TEST(net_parse_lrn_and_prelu)
{
    seer_handle_t h = handle();
    char msg[1024];
    seer_network_t net;
    const char *text = "input name=x c=64 h=28 w=28\n"
                       "conv name=c in=x k=64 size=1\n"
                       "lrn name=n in=c\n"
                       "relu name=r in=n\n"
                       "prelu name=p in=r c=64\n"
                       "prelu name=q in=p\n";
    REQUIRE(parse(h, text, &net, msg, sizeof msg) == SEER_STATUS_SUCCESS);
    seer_layer_info_t L;
    CHECK_STATUS(seer_network_get_layer(net, 2, &L), SEER_STATUS_SUCCESS);
    CHECK(L.op == SEER_OP_ACTIVATION && L.c == 64 && L.h == 28 && !L.params);
    CHECK_STATUS(seer_network_get_layer(net, 4, &L), SEER_STATUS_SUCCESS);
    CHECK(L.op == SEER_OP_ACTIVATION && L.c == 64 && L.params == 64);
    CHECK_STATUS(seer_network_get_layer(net, 5, &L), SEER_STATUS_SUCCESS);
    CHECK(L.params == 1);
    seer_model_t m = shipped(h, "t4");
    if (m) {
        seer_layer_result_t rows[32];
        double total = 0, lrn_b = 0, relu_b = 0, prelu_b = 0;
        int n = train_rows(h, m, net, 8, rows, 32, &total);
        for (int i = 0; i < n; i++)
            if (rows[i].direction == SEER_DIR_BWD_DATA) {
                if (!strcmp(rows[i].name, "n")) lrn_b = rows[i].bytes;
                if (!strcmp(rows[i].name, "r")) relu_b = rows[i].bytes;
                if (!strcmp(rows[i].name, "p")) prelu_b = rows[i].bytes;
            }
        /* relu 3Es, lrn 4Es; prelu's dx and slope gradient 5Es */
        CHECK(relu_b > 0 && 3 * lrn_b == 4 * relu_b && 3 * prelu_b == 5 * relu_b);
        seer_model_destroy(m);
    }
    seer_network_destroy(net);
    CHECK(parse(h, "input name=x c=64 h=28 w=28\nprelu name=p in=x c=32\n", &net, msg, sizeof msg) ==
          SEER_STATUS_NET_SHAPE);
    CHECK(strstr(msg, "prelu: c=32 slopes for an input of 64 channels") != NULL);
    /* pad: a copy into a larger h x w, never a smaller one */
    REQUIRE(parse(h, "input name=x c=8 h=28 w=28\npad name=p in=x h=31 w=30\n", &net, msg, sizeof msg) ==
            SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_network_get_layer(net, 1, &L), SEER_STATUS_SUCCESS);
    CHECK(L.op == SEER_OP_PAD && L.c == 8 && L.h == 31 && L.w == 30 && !L.params && !strcmp(seer_op_name(L.op), "pad"));
    seer_network_destroy(net);
    CHECK(parse(h, "input name=x c=8 h=28 w=28\npad name=p in=x h=27 w=30\n", &net, msg, sizeof msg) ==
          SEER_STATUS_NET_SHAPE);
    CHECK(strstr(msg, "pad needs h= and w= (the output's size) of at least the input's 28x28") != NULL);
    seer_destroy(h);
}

/* A ConvNeXt block: layer norm over the channels of each position, and
 * Linears applied per position (pointwise fc, cuBLAS GEMMs of batch x
 * h x w rows), which keep h x w; their FLOPs and parameters; their
 * forward GEMM is the one seer_predict_gemm times. */
TEST(net_parse_layernorm_and_pointwise_fc)
{
    seer_handle_t h = handle();
    char msg[1024];
    seer_network_t net;
    const char *text = "input name=x c=96 h=14 w=14\n"
                       "conv name=dw in=x k=96 size=7 pad=3 groups=96\n"
                       "layernorm name=ln in=dw\n"
                       "fc name=up in=ln k=384 pointwise=1\n"
                       "gelu name=g in=up\n"
                       "fc name=down in=g k=96 pointwise=1 bias=0\n"
                       "add name=res in=down,x\n"
                       "fc name=head in=res k=10\n";
    REQUIRE(parse(h, text, &net, msg, sizeof msg) == SEER_STATUS_SUCCESS);
    seer_layer_info_t L;
    CHECK_STATUS(seer_network_get_layer(net, 2, &L), SEER_STATUS_SUCCESS);
    CHECK(L.op == SEER_OP_LAYERNORM && L.c == 96 && L.h == 14 && L.params == 2 * 96);
    CHECK(!strcmp(seer_op_name(SEER_OP_LAYERNORM), "layernorm"));
    CHECK_STATUS(seer_network_get_layer(net, 3, &L), SEER_STATUS_SUCCESS);
    CHECK(L.op == SEER_OP_FC && L.c == 384 && L.h == 14 && L.w == 14 && L.shape.k == 384 &&
          L.params == 96 * 384 + 384);
    CHECK_STATUS(seer_network_get_layer(net, 5, &L), SEER_STATUS_SUCCESS);
    CHECK(L.c == 96 && L.h == 14 && L.params == 384 * 96); /* bias=0 */
    CHECK_STATUS(seer_network_get_layer(net, 7, &L), SEER_STATUS_SUCCESS);
    CHECK(L.c == 10 && L.h == 1 && L.w == 1 && L.params == 96 * 14 * 14 * 10 + 10); /* flattens */
    seer_network_info_t I;
    CHECK_STATUS(seer_network_get_info(net, &I), SEER_STATUS_SUCCESS);
    double per_pos = 2.0 * 96 * 384 * 2; /* up and down, per position */
    CHECK(fabs(I.fwd_flops - (14 * 14 * (per_pos + 2.0 * 96 * 49) + 2.0 * 96 * 14 * 14 * 10)) < 1);
    seer_model_t m = shipped(h, "a100-pcie-80gb");
    if (m) {
        seer_layer_result_t rows[64];
        double total = 0, want = 0;
        int n = train_rows(h, m, net, 32, rows, 64, &total);
        CHECK_STATUS(seer_predict_gemm(h, m, 1, 32 * 14 * 14, 384, 96, SEER_DTYPE_FP32, 0, 0, 1, &want, NULL),
                     SEER_STATUS_SUCCESS);
        int ln_rows = 0, up_fwd = 0;
        for (int i = 0; i < n; i++) {
            ln_rows += rows[i].op == SEER_OP_LAYERNORM && rows[i].time_ms > 0;
            if (!strcmp(rows[i].name, "up") && rows[i].direction == SEER_DIR_FWD) {
                up_fwd = 1;
                CHECK(rows[i].time_ms == want && rows[i].flops == 2.0 * 32 * 14 * 14 * 384 * 96);
            }
        }
        CHECK(ln_rows == 2 && up_fwd); /* forward and backward */
    }
    seer_network_destroy(net);
    /* resize: any output size; forward and backward memory-bound rows */
    REQUIRE(parse(h, "input name=x c=21 h=28 w=28\nconv name=c in=x k=21 size=1\nresize name=up in=c h=224 w=200\n",
                  &net, msg, sizeof msg) == SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_network_get_layer(net, 2, &L), SEER_STATUS_SUCCESS);
    CHECK(L.op == SEER_OP_RESIZE && L.c == 21 && L.h == 224 && L.w == 200 && !L.params &&
          !strcmp(seer_op_name(SEER_OP_RESIZE), "resize"));
    if (m) {
        seer_layer_result_t rows[16];
        double total = 0;
        int n = train_rows(h, m, net, 8, rows, 16, &total), up = 0;
        for (int i = 0; i < n; i++)
            if (rows[i].op == SEER_OP_RESIZE) {
                up++;
                CHECK(rows[i].flags & SEER_RESULT_MEMORY_BOUND);
                if (rows[i].direction == SEER_DIR_FWD) CHECK(rows[i].bytes == 8.0 * 21 * (28 * 28 + 224 * 200) * 4);
            }
        CHECK(up == 2);
    }
    seer_network_destroy(net);
    CHECK(parse(h, "input name=x c=8 h=2 w=2\nresize name=r in=x h=4\n", &net, msg, sizeof msg) ==
              SEER_STATUS_NET_PARSE && strstr(msg, "resize needs h= and w="));
    /* a learnable scale (ConvNeXt's layer scale): c parameters, a
     * backward that also reduces its gradient */
    REQUIRE(parse(h, "input name=x c=8 h=4 w=4\nconv name=c k=8 size=1\nscale name=ls in=c learnable=1\n", &net, msg,
                  sizeof msg) == SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_network_get_layer(net, 2, &L), SEER_STATUS_SUCCESS);
    CHECK(L.op == SEER_OP_ACTIVATION && L.params == 8);
    if (m) {
        seer_layer_result_t rows[16];
        double total = 0;
        int n = train_rows(h, m, net, 4, rows, 16, &total), bwd = 0;
        for (int i = 0; i < n; i++)
            if (!strcmp(rows[i].name, "ls") && rows[i].direction != SEER_DIR_FWD)
                bwd += rows[i].n_kernels == 2 && rows[i].bytes == 4.0 * 4 * 8 * 16 * 4;
        CHECK(bwd == 1);
    }
    seer_model_destroy(m);
    seer_network_destroy(net);
    CHECK(parse(h, "input name=x c=8 h=2 w=2\nrelu name=r in=x learnable=1\n", &net, msg, sizeof msg) ==
          SEER_STATUS_NET_PARSE);
    /* pointwise is an fc's option, 0 or 1 */
    CHECK(parse(h, "input name=x c=8 h=2 w=2\nfc name=f in=x k=4 pointwise=2\n", &net, msg, sizeof msg) ==
          SEER_STATUS_NET_PARSE);
    CHECK(parse(h, "input name=x c=8 h=2 w=2\nlayernorm name=f in=x pointwise=1\n", &net, msg, sizeof msg) ==
          SEER_STATUS_NET_PARSE && strstr(msg, "unknown option 'pointwise'"));
    /* unfused is a layer norm's option, 0 or 1 */
    CHECK(parse(h, "input name=x c=8 h=2 w=2\nlayernorm name=f in=x unfused=1\n", &net, msg, sizeof msg) ==
          SEER_STATUS_SUCCESS);
    seer_network_destroy(net);
    CHECK(parse(h, "input name=x c=8 h=2 w=2\nlayernorm name=f in=x unfused=2\n", &net, msg, sizeof msg) ==
          SEER_STATUS_NET_PARSE);
    CHECK(parse(h, "input name=x c=8 h=2 w=2\nbn name=f in=x unfused=1\n", &net, msg, sizeof msg) ==
          SEER_STATUS_NET_PARSE && strstr(msg, "unknown option 'unfused'"));
    seer_destroy(h);
}

/* ------------------------------------------------------------------ zoo */

TEST(net_zoo_counts_and_params)
{
    static const struct { const char *name; int conv, fc; long long params; } want[] = {
        {"alexnet", 5, 3, 61100840},      {"vgg16", 13, 3, 138357544},
        {"resnet18", 20, 1, 11689512},    {"resnet50", 53, 1, 25557032},
        {"resnet101", 104, 1, 44549160},  {"inception_v3", 94, 1, 23834568},
        {"mobilenet_v2", 52, 1, 3504872}, {"densenet121", 120, 1, 7978856},
        {"convnext_tiny", 22, 37, 28589128}, /* its 18 layer scales learnable */
    };
    static const int res[] = {0, 224, 160, 320};
    seer_handle_t h = handle();
    int n = 0;
    while (seer_network_zoo_name(n)) n++;
    CHECK(n == 9);
    CHECK(seer_network_zoo_name(-1) == NULL);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        for (size_t r = 0; r < sizeof res / sizeof res[0]; r++) {
            seer_network_t net = NULL;
            seer_status_t st = seer_network_create_zoo(h, want[i].name, res[r], &net);
            if (st) printf("    %s at %d: %s\n", want[i].name, res[r], seer_get_last_error(h));
            REQUIRE(st == SEER_STATUS_SUCCESS);
            seer_network_info_t info;
            seer_network_get_info(net, &info);
            CHECK(info.n_conv == want[i].conv);
            CHECK(info.n_fc == want[i].fc);
            CHECK(info.params == want[i].params); /* adaptive pooling: independent of resolution */
            CHECK(strcmp(info.name, want[i].name) == 0);
            int expect_res = res[r] ? res[r] : !strcmp(want[i].name, "inception_v3") ? 299 : 224;
            CHECK(info.in_h == expect_res && info.in_w == expect_res && info.in_c == 3);
            seer_layer_info_t last;
            seer_network_get_layer(net, info.n_layers - 1, &last);
            CHECK(last.op == SEER_OP_SOFTMAX && last.c == 1000);
            seer_network_destroy(net);
        }
    /* resnet50's forward: 4.09 GMAC per image at 224 */
    seer_network_t net;
    REQUIRE(seer_network_create_zoo(h, "ResNet50", 0, &net) == SEER_STATUS_SUCCESS);
    seer_network_info_t info;
    seer_network_get_info(net, &info);
    CHECK(info.fwd_flops > 8.1e9 && info.fwd_flops < 8.3e9);
    seer_network_destroy(net);
    seer_destroy(h);
}

TEST(net_zoo_errors_and_text)
{
    seer_handle_t h = handle();
    seer_network_t net = NULL;
    CHECK_STATUS(seer_network_create_zoo(h, "resnet51", 0, &net), SEER_STATUS_UNKNOWN_NETWORK);
    CHECK(strstr(seer_get_last_error(h), "resnet50") != NULL); /* lists the known ones */
    CHECK(net == NULL);
    CHECK_STATUS(seer_network_create_zoo(h, "inception_v3", 64, &net), SEER_STATUS_NET_SHAPE);
    CHECK(strstr(seer_get_last_error(h), "too small") != NULL);
    CHECK_STATUS(seer_network_create_zoo(h, "resnet50", -1, &net), SEER_STATUS_BAD_SHAPE);
    CHECK_STATUS(seer_network_create_zoo(h, NULL, 0, &net), SEER_STATUS_BAD_PARAM);
    /* the text round-trips through the parser */
    size_t len = 0;
    CHECK_STATUS(seer_network_zoo_text(h, "densenet121", 0, NULL, 0, &len), SEER_STATUS_BUFFER_TOO_SMALL);
    REQUIRE(len > 1000);
    char *text = malloc(len + 1);
    REQUIRE(text != NULL);
    size_t len2 = 0;
    CHECK_STATUS(seer_network_zoo_text(h, "densenet121", 0, text, len, &len2), SEER_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(seer_network_zoo_text(h, "densenet121", 0, text, len + 1, &len2), SEER_STATUS_SUCCESS);
    CHECK(len2 == len && strlen(text) == len);
    CHECK(strstr(text, "concat name=features.denseblock1.denselayer2.cat") != NULL);
    REQUIRE(seer_network_create(h, text, len, &net) == SEER_STATUS_SUCCESS);
    seer_network_info_t info;
    seer_network_get_info(net, &info);
    CHECK(info.n_conv == 120);
    seer_network_destroy(net);
    free(text);
    CHECK(strcmp(seer_op_name(SEER_OP_CONV), "conv") == 0);
    CHECK(strcmp(seer_op_name((seer_op_t)99), "?") == 0);
    seer_destroy(h);
}

/* ------------------------------------------------------------------ GEMM */


/* A deconv (ConvTranspose2d): PyTorch's output size, its weights (c x
 * k/groups x r x s), its forward FLOPs, and the shapes it refuses. */
TEST(net_parse_deconv)
{
    seer_handle_t h = handle();
    char msg[1024];
    seer_network_t net;
    const char *text = "input name=x c=64 h=7 w=9\n"
                       "deconv name=up k=32 size=4 stride=2 pad=1\n"
                       "deconv name=up2 k=16 size=3 stride=2 pad=1 outpad=1 bias=1 groups=4\n"
                       "deconv name=up3 k=8 r=3 s=1 dil=2 outpad_w=0\n";
    REQUIRE(parse(h, text, &net, msg, sizeof msg) == SEER_STATUS_SUCCESS);
    seer_layer_info_t L;
    CHECK_STATUS(seer_network_get_layer(net, 1, &L), SEER_STATUS_SUCCESS);
    /* (h - 1) stride - 2 pad + r + outpad */
    CHECK(L.op == SEER_OP_DECONV && L.c == 32 && L.h == 14 && L.w == 18 && L.shape.c == 64 && L.shape.h == 7 &&
          L.shape.k == 32 && L.params == 64 * 32 * 16);
    CHECK(!strcmp(seer_op_name(SEER_OP_DECONV), "deconv"));
    CHECK_STATUS(seer_network_get_layer(net, 2, &L), SEER_STATUS_SUCCESS);
    CHECK(L.c == 16 && L.h == 28 && L.w == 36 && L.bias == 1 && L.params == 32 * (16 / 4) * 9 + 16);
    CHECK_STATUS(seer_network_get_layer(net, 3, &L), SEER_STATUS_SUCCESS);
    CHECK(L.c == 8 && L.h == 28 + 4 && L.w == 36);
    seer_network_info_t I;
    CHECK_STATUS(seer_network_get_info(net, &I), SEER_STATUS_SUCCESS);
    CHECK(I.n_conv == 3 && I.params == 64 * 32 * 16 + 32 * 4 * 9 + 16 + 16 * 8 * 3);
    CHECK(fabs(I.fwd_flops - 2.0 * (64 * 7 * 9 * 32 * 16 + 32 * 14 * 18 * 4 * 9 + 16 * 28 * 36 * 8 * 3)) < 1);
    seer_network_destroy(net);
    static const struct { const char *line; seer_status_t st; const char *says; } bad[] = {
        {"deconv name=d k=8 size=3 stride=2 outpad=2\n", SEER_STATUS_NET_SHAPE, "outpad 2x2 must be under the stride"},
        {"deconv name=d k=8 size=3 outpad_h=1\n", SEER_STATUS_NET_SHAPE, "under the stride 1x1"},
        {"deconv name=d k=8 size=1 pad=4\n", SEER_STATUS_NET_SHAPE, "leaves no output"},
        {"deconv name=d k=6 size=3 groups=4\n", SEER_STATUS_BAD_GROUPS, "deconv: groups=4"},
        {"deconv name=d size=3\n", SEER_STATUS_NET_PARSE, "deconv needs k="},
        {"deconv name=d k=8 size=3 outpad=1 outpad_h=1 stride=2\n", SEER_STATUS_NET_PARSE, "both given"},
        {"conv name=d k=8 size=3 outpad=1\n", SEER_STATUS_NET_PARSE, "unknown option 'outpad'"},
        {"deconv name=d k=8 size=3 stride=16777216 outpad=1\n", SEER_STATUS_OVERFLOW, "over the limits"},
        {"deconv name=d k=16777216 size=16777216 pad=8388607\n", SEER_STATUS_OVERFLOW, "over 2^61"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char t[256];
        snprintf(t, sizeof t, "input name=x c=64 h=7 w=9\n%s", bad[i].line);
        CHECK_STATUS(parse(h, t, &net, msg, sizeof msg), bad[i].st);
        CHECK(strstr(msg, bad[i].says) != NULL && strstr(msg, "line 2") != NULL);
        if (!strstr(msg, bad[i].says)) fprintf(stderr, "  %s\n", msg);
    }
    seer_destroy(h);
}

/* A group norm: groups dividing the channels, 2C parameters unless
 * learnable=0 (an instance norm without its affine). */
TEST(net_parse_groupnorm)
{
    seer_handle_t h = handle();
    char msg[1024];
    seer_network_t net;
    const char *text = "input name=x c=64 h=7 w=7\ngroupnorm name=g groups=32\ngroupnorm name=i groups=64 learnable=0\n";
    REQUIRE(parse(h, text, &net, msg, sizeof msg) == SEER_STATUS_SUCCESS);
    seer_layer_info_t L;
    CHECK_STATUS(seer_network_get_layer(net, 1, &L), SEER_STATUS_SUCCESS);
    CHECK(L.op == SEER_OP_GROUPNORM && L.shape.groups == 32 && L.params == 128 && L.c == 64 && L.h == 7);
    CHECK_STATUS(seer_network_get_layer(net, 2, &L), SEER_STATUS_SUCCESS);
    CHECK(L.shape.groups == 64 && L.params == 0);
    CHECK(!strcmp(seer_op_name(SEER_OP_GROUPNORM), "groupnorm"));
    seer_network_destroy(net);
    CHECK_STATUS(parse(h, "input name=x c=64 h=7 w=7\ngroupnorm name=g\n", &net, msg, sizeof msg), SEER_STATUS_NET_PARSE);
    CHECK(strstr(msg, "groupnorm needs groups=") != NULL);
    CHECK_STATUS(parse(h, "input name=x c=64 h=7 w=7\ngroupnorm name=g groups=24\n", &net, msg, sizeof msg),
                 SEER_STATUS_BAD_GROUPS);
    CHECK(strstr(msg, "line 2") != NULL && strstr(msg, "groups=24 must divide the 64 channels") != NULL);
    seer_destroy(h);
}
