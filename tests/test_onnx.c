/* ONNX import (libseer/onnx.c): the test models of tests/onnx/, written by
 * tests/onnx/make_models.py, against the zoo and the bad-input table of
 * docs/networks.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"

/* A whole binary file (malloc'ed), or NULL. */
static unsigned char *slurp_bin(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *b = NULL;
    size_t n = 0, cap = 0, got;
    for (;;) {
        if (n == cap) {
            unsigned char *nb = realloc(b, cap = cap ? cap * 2 : 65536);
            if (!nb) { free(b); fclose(f); return NULL; }
            b = nb;
        }
        if (!(got = fread(b + n, 1, cap - n, f))) break;
        n += got;
    }
    fclose(f);
    *len = n;
    return b;
}

/* Total time of one prediction (A100 model, batch 64). */
static double predict(seer_handle_t h, seer_model_t m, seer_network_t net, seer_mode_t mode)
{
    int n = 0;
    double total = -1;
    if (seer_predict_network(h, m, net, 64, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, mode, SEER_ALGO_AUTO, NULL, 0, &n,
                             &total) != SEER_STATUS_SUCCESS)
        return -1;
    return total;
}

/* The ONNX file predicts what the zoo network predicts, to 0.1 %, with
 * the same parameter count, convolutions and FLOPs, and views layers
 * fewer (a Reshape that is a view where the zoo flattens). */
static void same_as_zoo(const char *file, const char *zoo, int res, int views)
{
    seer_handle_t h;
    seer_model_t m;
    seer_network_t a = NULL, b = NULL;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_model_load(h, "models/a100-pcie-80gb.seer", &m) == SEER_STATUS_SUCCESS);
    seer_onnx_options_t o = SEER_ONNX_OPTIONS_DEFAULT;
    o.resolution = res;
    CHECK_STATUS(seer_network_create_onnx_file(h, file, &o, &a), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_network_create_zoo(h, zoo, res, &b), SEER_STATUS_SUCCESS);
    if (a && b) {
        seer_network_info_t ia, ib;
        seer_network_get_info(a, &ia);
        seer_network_get_info(b, &ib);
        CHECK(ia.params == ib.params);
        CHECK(ia.n_conv == ib.n_conv);
        CHECK(ia.n_fc == ib.n_fc);
        CHECK(ia.n_layers + views == ib.n_layers);
        CHECK_NEAR(ia.fwd_flops, ib.fwd_flops, 1e-12);
        for (int mode = 0; mode < 2; mode++) {
            double ta = predict(h, m, a, (seer_mode_t)mode), tb = predict(h, m, b, (seer_mode_t)mode);
            CHECK(ta > 0 && tb > 0);
            CHECK_NEAR(ta, tb, 0.001);
        }
    }
    seer_network_destroy(a);
    seer_network_destroy(b);
    seer_model_free(m);
    seer_destroy(h);
}

TEST(onnx_resnet50_matches_zoo) { same_as_zoo("tests/onnx/resnet50.onnx", "resnet50", 0, 0); }
TEST(onnx_resnet50_training_bn_matches_zoo) { same_as_zoo("tests/onnx/resnet50_train_bn.onnx", "resnet50", 0, 0); }
TEST(onnx_resnet50_resolution_override) { same_as_zoo("tests/onnx/resnet50.onnx", "resnet50", 160, 0); }
TEST(onnx_mobilenet_v2_matches_zoo) { same_as_zoo("tests/onnx/mobilenet_v2.onnx", "mobilenet_v2", 0, 0); }
/* The global pool as torch.export's exporter (PyTorch's default since
 * 2.9) writes it: ReduceMean over axes [-1, -2] (an input at opset 18),
 * keepdims, then a Reshape. */
TEST(onnx_resnet50_reduce_mean_matches_zoo) { same_as_zoo("tests/onnx/resnet50_reduce_mean.onnx", "resnet50", 0, 1); }
/* Eval-mode exports fold each batch norm into its conv: restored, the
 * network is the module again (its parameters, its training iteration,
 * the batch norms PyTorch runs apart), from either exporter. */
TEST(onnx_resnet50_folded_batch_norms_match_zoo)
{
    same_as_zoo("tests/onnx/resnet50_folded_torchscript.onnx", "resnet50", 0, 0);
    same_as_zoo("tests/onnx/resnet50_folded_dynamo.onnx", "resnet50", 0, 1);
    /* an untrained model's all-zero folded bias dropped: the rewrite's
     * record in each conv's metadata tells it */
    same_as_zoo("tests/onnx/resnet50_folded_dynamo_zero.onnx", "resnet50", 0, 1);
}

/* The description of a file (malloc'ed) with the given options. */
static char *text_of(seer_handle_t h, const char *file, int skip, int res, seer_status_t *st, seer_onnx_info_t *info)
{
    size_t len = 0, n;
    unsigned char *b = slurp_bin(file, &len);
    if (!b) { *st = SEER_STATUS_IO_ERROR; return NULL; }
    seer_onnx_options_t o = SEER_ONNX_OPTIONS_DEFAULT;
    o.skip_unsupported = skip;
    o.resolution = res;
    char *t = NULL;
    *st = seer_onnx_text(h, b, len, &o, NULL, 0, &n, info);
    if (*st == SEER_STATUS_BUFFER_TOO_SMALL && (t = malloc(n + 1))) {
        *st = seer_onnx_text(h, b, len, &o, t, n + 1, &n, info);
        if (*st) { free(t); t = NULL; }
    }
    free(b);
    return t;
}

/* Whether file's description (at resolution res) holds want. */
static int text_has(seer_handle_t h, const char *file, int res, const char *want)
{
    seer_status_t st;
    seer_onnx_info_t info;
    char *t = text_of(h, file, 0, res, &st, &info);
    int ok = t && strstr(t, want);
    free(t);
    return ok;
}

/* The folded conv loses its bias to the restored batch norm, whose
 * layer its readers now read. */
TEST(onnx_folded_conv_is_conv_then_bn)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    CHECK(text_has(h, "tests/onnx/tiny_folded.onnx", 0, "conv name=folded in=relu k=4 size=3 pad=1\n# unfolded: a batch "
                   "norm folded into conv 'folded' by the exporter (weight 'onnx::Conv_7', bias 'onnx::Conv_8')\nbn "
                   "name=folded.bn in=folded\n"));
    CHECK(text_has(h, "tests/onnx/tiny_folded_meta.onnx", 0, "conv name=folded in=relu k=4 size=3 pad=1\n# unfolded: "
                   "a batch norm folded into conv 'folded' by the exporter (its metadata: FuseBatchNormIntoConv)\nbn "
                   "name=folded.bn in=folded\n"));
    seer_destroy(h);
}

/* The parameters of the network an ONNX file translates to; -1 when
 * it does not. */
static long long onnx_params(seer_handle_t h, const char *path)
{
    seer_network_t net = NULL;
    seer_network_info_t I;
    long long p = -1;
    if (!seer_network_create_onnx_file(h, path, NULL, &net) && !seer_network_get_info(net, &I)) p = I.params;
    seer_network_destroy(net);
    return p;
}

/* timm's patterns (make_models.py, timm_bits): pads computed through
 * Ceil and Clip folded, a padding no symmetric one matches as a pad layer
 * before the conv, a layer scale reshaped from an 80-value weight (too
 * many values to fold, its dims still known) learnable, a difference of
 * two tensors as an add. */
TEST(onnx_timm_patterns)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    CHECK(text_has(h, "tests/onnx/timm_bits.onnx", 0,
                   "relu name=relu in=conv\n"
                   "pad name=asym.pad in=relu h=9 w=9\n"
                   "conv name=asym in=asym.pad k=4 size=2\n"
                   "pad name=same in=asym h=9 w=9\n"
                   "conv name=conv_same in=same k=80 size=3 stride=2\n"
                   "scale name=layer_scale in=conv_same learnable=1\n"
                   "pool name=pool in=layer_scale avg size=3 stride_h=1 stride_w=1 pad=1\n"
                   "add name=mixer in=pool,layer_scale\n"
                   "pad name=conv_asym.pad in=mixer h=5 w=5\n"
                   "conv name=conv_asym in=conv_asym.pad k=8 size=2\n"));
    CHECK(onnx_params(h, "tests/onnx/timm_bits.onnx") == 4 * 3 * 9 + 4 * 4 * 4 + 80 * 4 * 9 + 80 + 8 * 80 * 4);
    seer_destroy(h);
}

/* A conv whose weight is computed from its parameter (weight
 * standardization, both ways timm writes it): the weight's dims follow
 * through the computation, which is not costed. */
TEST(onnx_standardized_weights)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    CHECK(text_has(h, "tests/onnx/weight_std.onnx", 0,
                   "relu name=relu in=conv\nconv name=ws1 in=relu k=8 size=3 pad=1\n"
                   "conv name=ws2 in=ws1 k=8 size=3 pad=1\n"));
    seer_destroy(h);
}

/* nn.GroupNorm as the TorchScript-based exporter writes it (its Reshape,
 * InstanceNormalization, Reshape back, Mul and Add: one layer, the
 * affine fused), InstanceNorm2d with and without its affine, and opset
 * 18's GroupNormalization: groupnorm layers. */
TEST(onnx_group_norms)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    CHECK(text_has(h, "tests/onnx/group_norms.onnx", 0,
                   "relu name=relu in=conv\n"
                   "groupnorm name=gn in=relu groups=2\n"
                   "groupnorm name=in_affine in=gn groups=4\n"
                   "groupnorm name=in_plain in=in_affine groups=4 learnable=0\n"));
    CHECK(text_has(h, "tests/onnx/group_norm18.onnx", 0, "groupnorm name=gn18 in=relu groups=2\n"));
    CHECK(text_has(h, "tests/onnx/group_norm18_no_params.onnx", 0, "groupnorm name=gn18 in=relu groups=2\n"));
    CHECK(onnx_params(h, "tests/onnx/group_norms.onnx") == 108 + 8 + 8);
    /* Only a per-channel Mul and Add are the affine: nn.GroupNorm(affine=
     * False)'s one and zero are fused with nothing learnable, a product
     * and a sum of C x H x W tensors stay layers (both were fused as a
     * learnable affine of 2C parameters) */
    CHECK(text_has(h, "tests/onnx/group_norm_affines.onnx", 0,
                   "relu name=relu in=conv\n"
                   "groupnorm name=plain in=relu groups=2 learnable=0\n"
                   "groupnorm name=full in=plain groups=2 learnable=0\n"
                   "scale name=full_mul in=full\n"
                   "scale name=full_add in=full_mul\n"));
    seer_destroy(h);
}

/* nn.ConvTranspose2d as torch.onnx.export writes it: a deconv line per
 * ConvTranspose, k the weight's second dimension times the groups,
 * options as a conv's (defaults left out), outpad when not 0. */
TEST(onnx_conv_transpose_is_deconv)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    CHECK(text_has(h, "tests/onnx/conv_transpose.onnx", 0,
                   "relu name=enc/Relu in=enc/Conv\n"
                   "deconv name=up/ConvTranspose in=enc/Relu k=16 size=4 stride=2 pad=1\n"
                   "deconv name=up_outpad/ConvTranspose in=up/ConvTranspose k=8 size=3 stride=2 pad=1 outpad=1\n"
                   "deconv name=up_grouped/ConvTranspose in=up_outpad/ConvTranspose k=8 size=3 pad=1 groups=4\n"
                   "deconv name=up_bias/ConvTranspose in=up_grouped/ConvTranspose k=4 size=2 stride=2 bias=1\n"));
    seer_destroy(h);
}

/* ... and the network it builds: each deconv's output (PyTorch's size,
 * (h - 1) stride - 2 pad + r + outpad) and parameters (C x K/group x R x
 * S, the bias K).  Needs the description parser's deconv layer. */
TEST(onnx_conv_transpose_network)
{
    static const struct { const char *name; int c, hw; long long params; int bias; } up[] = {
        {"up/ConvTranspose", 16, 14, 16 * 16 * 4 * 4, 0},
        {"up_outpad/ConvTranspose", 8, 28, 16 * 8 * 3 * 3, 0},
        {"up_grouped/ConvTranspose", 8, 28, 8 * 2 * 3 * 3, 0},
        {"up_bias/ConvTranspose", 4, 56, 8 * 4 * 2 * 2 + 4, 1},
    };
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_network_t net = NULL;
    CHECK_STATUS(seer_network_create_onnx_file(h, "tests/onnx/conv_transpose.onnx", NULL, &net), SEER_STATUS_SUCCESS);
    seer_network_info_t info;
    if (net && seer_network_get_info(net, &info) == SEER_STATUS_SUCCESS) {
        CHECK(info.n_layers == 7); /* input, conv, relu, 4 deconvs */
        CHECK(info.params == 16 * 8 * 3 * 3 + 4096 + 1152 + 144 + 132);
        for (int i = 0; i < 4 && info.n_layers == 7; i++) {
            seer_layer_info_t L;
            REQUIRE(seer_network_get_layer(net, 3 + i, &L) == SEER_STATUS_SUCCESS);
            CHECK(!strcmp(L.name, up[i].name) && !strcmp(seer_op_name(L.op), "deconv"));
            CHECK(L.c == up[i].c && L.h == up[i].hw && L.w == up[i].hw);
            CHECK(L.params == up[i].params && L.bias == up[i].bias);
        }
    }
    seer_network_destroy(net);
    seer_destroy(h);
}

TEST(onnx_ops_translate_to_layers)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_status_t st;
    seer_onnx_info_t info;
    char *t = text_of(h, "tests/onnx/ops.onnx", 0, 0, &st, &info);
    REQUIRE(t != NULL);
    CHECK(info.batch == 0); /* symbolic */
    CHECK(info.opset == 13);
    CHECK(info.n_skipped == 0);
    /* auto_pad SAME_UPPER is pad 1; dilation; bias from the third input */
    CHECK(strstr(t, "conv name=stem in=x k=16 size=3 pad=1\n") != NULL);
    CHECK(strstr(t, "conv name=branch2 in=leaky k=8 size=3 pad=2 dil=2\n") != NULL);
    CHECK(strstr(t, "conv name=branch1 in=leaky k=8 size=1 bias=1\n") != NULL);
    CHECK(strstr(t, "concat name=cat in=branch1,branch2\n") != NULL);
    CHECK(strstr(t, "pool name=avg in=cat avg size=3 stride_h=2 stride_w=2 pad=1 ceil=1\n") != NULL);
    CHECK(strstr(t, "silu name=sig in=avg\n") != NULL); /* x * sigmoid(x) */
    CHECK(strstr(t, "hardswish name=hswish in=sig\n") != NULL);
    CHECK(strstr(t, "conv name=dw in=max k=16 size=3 pad=1 groups=16\n") != NULL);
    /* Shape -> Gather -> Unsqueeze -> Concat -> Reshape folds to a flatten;
     * MatMul + Add of a vector is one fc with bias; Squeeze/Unsqueeze and
     * Identity are views */
    CHECK(strstr(t, "flatten name=reshape in=dw\n") != NULL);
    CHECK(strstr(t, "fc name=matmul in=reshape k=10\n") != NULL);
    CHECK(strstr(t, "dropout name=drop in=matmul p=0.1\n") != NULL);
    CHECK(strstr(t, "softmax name=prob in=drop\n") != NULL);
    seer_network_t net = NULL;
    CHECK_STATUS(seer_network_create(h, t, strlen(t), &net), SEER_STATUS_SUCCESS);
    seer_network_info_t ni;
    if (net) {
        seer_network_get_info(net, &ni);
        /* 16*3*9 + (8*16 + 8) + 8*16*9 + 16*9 + 1024*10 + 10 */
        CHECK(ni.params == 432 + 136 + 1152 + 144 + 10250);
    }
    seer_network_destroy(net);
    free(t);
    t = text_of(h, "tests/onnx/tiny.onnx", 0, 0, &st, &info);
    CHECK(t && info.batch == 1);
    free(t);
    /* ShuffleNet's channel split (two Slices at opset 13, one Split at
     * 18; a Slice's end of INT64_MAX) and shuffle (Reshape, Transpose
     * 0 2 1 3 4, Reshape) */
    static const char *const units[][3] = {{"tests/onnx/shuffle_slice.onnx", "split_a", "split_b"},
                                           {"tests/onnx/shuffle_split.onnx", "split", "split-2"}};
    for (int u = 0; u < 2; u++) {
        char want[160];
        t = text_of(h, units[u][0], 0, 0, &st, &info);
        REQUIRE(t != NULL);
        snprintf(want, sizeof want, "slice name=%s in=x c=8\nslice name=%s in=x c=8 from=8\n", units[u][1],
                 units[u][2]);
        CHECK(strstr(t, want) != NULL);
        CHECK(strstr(t, "shuffle name=shuffle in=cat groups=2\nconv name=after in=shuffle k=4 size=1\n") != NULL);
        free(t);
    }
    /* products with constants that broadcast into the data (a layer
     * scale, stochastic depth's mask frozen by a training-mode export) */
    t = text_of(h, "tests/onnx/tiny_scale.onnx", 0, 0, &st, &info);
    CHECK(t && strstr(t, "scale name=layer_scale in=relu learnable=1\nscale name=stochastic_depth in=layer_scale\n") !=
                   NULL);
    free(t);
    /* ConvNeXt: permutes to channels last and back are views, the layer
     * norm and the Linears read them per position; GELU as one node
     * (opset 20) or five (opset 17); the head's as_strided (flatten and
     * Gather) a view.  Both exports are the same network. */
    enum { NCN = 5 };
    char *cn[NCN];
    static const char *const cn_file[NCN] = {"tests/onnx/convnext_export.onnx", "tests/onnx/convnext_legacy.onnx",
                                             "tests/onnx/convnext_dynamic.onnx", "tests/onnx/convnext_opset18.onnx",
                                             "tests/onnx/convnext_opset13.onnx"};
    static const char *const gelu[NCN] = {
        "gelu name=block0/gelu in=block0/fc1\nfc name=block0/fc2 in=block0/gelu ",
        "gelu name=block0/gelu/Div in=block0/fc1\nfc name=block0/fc2 in=block0/gelu/Div ",
        "gelu name=block0/gelu in=block0/fc1\nfc name=block0/fc2 in=block0/gelu ",
        "gelu name=block0/gelu/Div in=block0/fc1\nfc name=block0/fc2 in=block0/gelu/Div ",
        "gelu name=block0/gelu/Div in=block0/fc1\nfc name=block0/fc2 in=block0/gelu/Div "};
    /* opset 13: each layer norm written out (ReduceMean ... Add), one layer */
    static const char *const ln[NCN][2] = {{"stem_ln", "block0/ln"}, {"stem_ln", "block0/ln"}, {"stem_ln", "block0/ln"},
                                           {"stem_ln", "block0/ln"},
                                           {"stem_ln/ReduceMean", "block0/ln/ReduceMean"}};
    for (int u = 0; u < NCN; u++) {
        cn[u] = text_of(h, cn_file[u], 0, 0, &st, &info);
        REQUIRE(cn[u] != NULL);
        char want[400];
        snprintf(want, sizeof want, "conv name=stem in=x k=16 size=4 stride=4\nlayernorm name=%s in=stem\n"
                                    "conv name=block0/dwconv in=%s k=16 size=7 pad=3 groups=16\n"
                                    "layernorm name=%s in=block0/dwconv\n"
                                    "fc name=block0/fc1 in=%s k=64 pointwise=1\n", ln[u][0], ln[u][0], ln[u][1], ln[u][1]);
        CHECK(strstr(cn[u], want) != NULL);
        CHECK(strstr(cn[u], gelu[u]) != NULL);
        snprintf(want, sizeof want, "k=16 pointwise=1\nscale name=block0/layer_scale in=block0/fc2 learnable=1\n"
                                    "add name=block0/add in=block0/layer_scale,%s\n", ln[u][0]);
        CHECK(strstr(cn[u], want) != NULL);
        /* opset 18's block 1 reads block 0's layer scale through an
         * Identity: a weight still */
        CHECK(strstr(cn[u], "scale name=block1/layer_scale in=block1/fc2 learnable=1\n") != NULL);
        CHECK(strstr(cn[u], " avg global\nlayernorm name=head_ln") != NULL);
        snprintf(want, sizeof want, "fc name=fc in=head_ln%s k=10\n", u == 4 ? "/ReduceMean" : "");
        CHECK(strstr(cn[u], want) != NULL);
        CHECK(info.n_skipped == 0);
    }
    seer_model_t cm = NULL;
    if (seer_model_load(h, "models/a100-pcie-80gb.seer", &cm) == SEER_STATUS_SUCCESS) {
        double tot[NCN] = {0};
        for (int u = 0; u < NCN; u++) {
            seer_network_t cnet = NULL;
            int n = 0;
            REQUIRE(seer_network_create(h, cn[u], strlen(cn[u]), &cnet) == SEER_STATUS_SUCCESS);
            CHECK_STATUS(seer_predict_network(h, cm, cnet, 8, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, SEER_MODE_TRAIN,
                                              SEER_ALGO_AUTO, NULL, 0, &n, &tot[u]),
                         SEER_STATUS_SUCCESS);
            seer_network_destroy(cnet);
        }
        CHECK(tot[0] > 0);
        for (int u = 1; u < NCN; u++) CHECK(fabs(tot[0] - tot[u]) < 1e-9 * tot[0]);
        seer_model_destroy(cm);
    }
    for (int u = 0; u < NCN; u++) free(cn[u]);
    /* HardSwish before opset 14: HardSigmoid(1/6, 0.5) * x is one layer; a
     * HardSigmoid of other parameters stays a HardSigmoid */
    t = text_of(h, "tests/onnx/hardswish13.onnx", 0, 0, &st, &info);
    CHECK(t && strstr(t, "hardswish name=hs in=relu\nhardsigmoid name=gate in=hs\n") && !strstr(t, "mul "));
    free(t);
    /* weights as graph inputs (export_params=False), one through an
     * Identity: weights of the dims they declare, not data inputs */
    t = text_of(h, "tests/onnx/tiny_no_params.onnx", 0, 0, &st, &info);
    CHECK(t && strstr(t, "input name=x c=3 h=8 w=8\nconv name=conv in=x k=4 size=3 pad=1\n") &&
          strstr(t, "conv name=conv2 in=relu k=4 size=1\nscale name=layer_scale in=conv2 learnable=1\n"
                    "scale name=shift in=layer_scale\n") &&
          !strstr(t, "input name=w") && !strstr(t, "input name=gamma") && !strstr(t, "input name=beta"));
    free(t);
    /* sizes fixed at export move with a resolution that replaces the
     * input's fixed size: 8 x 8 -> 16 x 12 at export, 16 x 16 -> 32 x 24 */
    CHECK(text_has(h, "tests/onnx/resize_sizes.onnx", 16, "resize name=up in=relu h=32 w=24\n"));
    /* ... also written as the input's N and C concatenated with a constant
     * H and W; sizes computed from a Shape have the resolution already */
    CHECK(text_has(h, "tests/onnx/resize_concat_sizes.onnx", 16, "resize name=up in=relu h=32 w=24\n"));
    CHECK(text_has(h, "tests/onnx/resize_shape_sizes.onnx", 16, "resize name=up in=down h=16 w=16\n"));
    /* scaled as a strided feature map is: ceil, so 17 px concatenates */
    CHECK(text_has(h, "tests/onnx/resize_ceil.onnx", 17, "resize name=up in=gap h=5 w=5\n"));
    /* opsets up to 26 read (27 changed Range: bad_opset27) */
    CHECK(text_has(h, "tests/onnx/tiny26.onnx", 0, "conv name=conv in=x k=4 size=3 pad=1\n"));
    /* torchvision's transform_input: a channel gathered (a slice), its
     * axis dropped and put back (views), scaled and shifted by constants */
    t = text_of(h, "tests/onnx/transform_input.onnx", 0, 0, &st, &info);
    CHECK(t && strstr(t, "slice name=select0 in=x c=1\nscale name=mul0 in=select0\nscale name=shift0 in=mul0\n"
                         "slice name=select1 in=x c=1 from=1\n") != NULL);
    CHECK(t && strstr(t, "scale name=shift2 in=mul2\nconcat name=cat in=shift0,shift1,shift2\n") != NULL);
    free(t);
    /* upsampling: Resize by sizes or scales, Upsample (opset 9) */
    static const char *const up[][2] = {{"tests/onnx/resize_sizes.onnx", "h=16 w=12"},
                                        {"tests/onnx/resize_scales.onnx", "h=16 w=12"},
                                        {"tests/onnx/resize_odd.onnx", "h=61 w=61"},
                                        {"tests/onnx/upsample9.onnx", "h=16 w=16"}};
    for (int u = 0; u < 4; u++) {
        char want[80];
        t = text_of(h, up[u][0], 0, 0, &st, &info);
        snprintf(want, sizeof want, "resize name=up in=relu %s\n", up[u][1]);
        CHECK(t && strstr(t, want) != NULL);
        free(t);
    }
    /* the ONNX model zoo's AlexNet at opset 3: LRN layers, Reshape's
     * shape an attribute, AlexNet's 60,965,224 parameters */
    t = text_of(h, "tests/onnx/alexnet_caffe3.onnx", 0, 0, &st, &info);
    CHECK(t && strstr(t, "relu name=relu1 in=conv1\nlrn name=norm1 in=relu1\npool name=pool1 in=norm1 max") &&
          strstr(t, "flatten name=flatten in=pool5\nfc name=fc6 in=flatten k=4096\n") && info.opset == 3);
    free(t);
    seer_network_t anet = NULL;
    seer_network_info_t ai;
    CHECK_STATUS(seer_network_create_onnx_file(h, "tests/onnx/alexnet_caffe3.onnx", NULL, &anet), SEER_STATUS_SUCCESS);
    CHECK(anet && seer_network_get_info(anet, &ai) == SEER_STATUS_SUCCESS && ai.params == 60965224);
    seer_network_destroy(anet);
    /* before opset 7: a bias Add with broadcast=1 on axis 1 (C over N x C x
     * H x W, which numpy broadcasting would line up with W); PRelu with a
     * slope per channel and a shared one; Upsample by height_scale and
     * width_scale; a Cast naming its type, INT64, truncating 1024.5 (the
     * Reshape's 2 x 1024 elements, not 2049) */
    CHECK(text_has(h, "tests/onnx/legacy_bias5.onnx", 0, "scale name=bias in=conv\nprelu name=prelu in=bias c=8\n"
                                                          "prelu name=prelu_shared in=prelu\n"
                                                          "resize name=up in=prelu_shared h=16 w=16\n"
                                                          "flatten name=flatten in=up\n"));
    /* tf2onnx's TensorFlow model: a channels-last input (its symbolic
     * batch the prediction's), its transpose to N x C x H x W a view,
     * TensorFlow's SAME at stride 2 (pads 0, 0, 1, 1; auto_pad) the
     * symmetric padding of the same output size */
    CHECK(text_has(h, "tests/onnx/tf_style.onnx", 0, "input name=x c=3 h=32 w=32\n"
                                                      "conv name=conv1 in=x k=16 size=3 stride=2 pad=1\n"
                                                      "relu name=relu1 in=conv1\n"
                                                      "pool name=pool in=relu1 max size=3 stride_h=2 stride_w=2 pad=1\n"));
    CHECK(text_has(h, "tests/onnx/tf_style.onnx", 64, "input name=x c=3 h=64 w=64\n"));
    /* keras.applications through tf2onnx: the channels-last input seen
     * through Rescaling and Normalization (the mean a graph input, an
     * unread variance left out), ZeroPadding2D and squeeze-and-excite on
     * channels-last views */
    CHECK(text_has(h, "tests/onnx/keras_style.onnx", 0, "input name=x c=3 h=32 w=32\n"
                                                         "# graph input 'norm/variance' is read by no node: left out\n"
                                                         "scale name=rescale in=x\n"
                                                         "scale name=norm/sub in=rescale\n"));
    CHECK(text_has(h, "tests/onnx/keras_style.onnx", 0, "relu6 name=relu6 in=conv1\n"
                                                         "pad name=zpad in=relu6 h=33 w=33\n"
                                                         "conv name=dwconv in=zpad k=16 size=3 stride=2 groups=16\n"
                                                         "pool name=se/squeeze in=dwconv avg global\n"));
    CHECK(text_has(h, "tests/onnx/keras_style.onnx", 0, "mul name=se/excite in=dwconv,se/gate\n"
                                                         "pool name=gap in=se/excite avg global\n"
                                                         "fc name=fc in=gap k=10 bias=0\n"));
    CHECK(text_has(h, "tests/onnx/keras_style.onnx", 64, "input name=x c=3 h=64 w=64\n"));
    /* ConvNeXt-V2's GRN on a channels-last view: the L2 norm over H and W
     * a global pool (its normalization by the channels' mean fused in),
     * gating x; the weight, bias and residual layers of their own */
    CHECK(text_has(h, "tests/onnx/grn.onnx", 0, "pool name=grn/l2 in=conv avg global\n"
                                                 "mul name=grn/mul in=conv,grn/l2\n"
                                                 "scale name=grn/mul_w in=grn/mul learnable=1\n"
                                                 "scale name=grn/add_b in=grn/mul_w\n"
                                                 "add name=grn/res in=grn/add_b,conv\n"));
    /* beside a fixed batch of 1, a 1 x 10 input added to the logits is
     * data; an input that is a graph output is not an unread one */
    CHECK(text_has(h, "tests/onnx/two_inputs.onnx", 0, "input name=x c=3 h=8 w=8\ninput name=cond c=10 h=1 w=1\n"
                                                        "input name=z c=3 h=8 w=8\n"));
    CHECK(text_has(h, "tests/onnx/two_inputs.onnx", 0, "add name=cond_add in=fc,cond\n"));
    /* the channels-first layer norm of ConvNeXt's reference code, written
     * out over axis 1: one layer norm, run op by op */
    CHECK(text_has(h, "tests/onnx/layernorm_first.onnx", 0, "conv name=stem in=x k=16 size=4 stride=4\n"
                                                             "layernorm name=ln/mean in=stem unfused=1\n"
                                                             "conv name=down in=ln/mean k=32 size=2 stride=2\n"));
    CHECK(text_has(h, "tests/onnx/image_scaler9.onnx", 0, "relu name=relu in=conv\nscale name=scaler in=relu\n"));
    /* Pad of H and W (an attribute, an input; any mode): a pad layer, 8 x 8
     * -> 11 x 11, which a stride-2 3 x 3 conv reads */
    CHECK(text_has(h, "tests/onnx/pad9.onnx", 0, "pad name=zpad in=relu h=11 w=11\n"));
    /* F.pad(x, (1, 3, 0, 2)) through the TorchScript exporter's chain on
     * constants (a table flipped and transposed): H 8 + 0 + 2, W 8 + 1 + 3 */
    CHECK(text_has(h, "tests/onnx/pad_torchscript.onnx", 0, "pad name=fpad in=relu h=10 w=12\n"));
    /* a 2 x 2 max pool at stride 1 with SAME_UPPER (0 before, 1 after: no
     * symmetric pad keeps 8 x 8): the padded copy, then the pool */
    CHECK(text_has(h, "tests/onnx/pool_same.onnx", 0, "pad name=same_pool.pad in=relu h=9 w=9\n"
                                                       "pool name=same_pool in=same_pool.pad max size=2 stride_h=1 "
                                                       "stride_w=1\n"));
    CHECK(text_has(h, "tests/onnx/pad13.onnx", 0, "pad name=zpad in=relu h=11 w=11\nconv name=conv2 in=zpad k=4 "
                                                  "size=3 stride=2\n"));
    /* PRelu slopes of 1 x C x 1 x 1 and C x 1 x 1: per channel */
    CHECK(text_has(h, "tests/onnx/prelu9.onnx", 0, "prelu name=p1 in=relu c=4\nprelu name=p2 in=p1 c=4\n"));
    /* ReduceMax over the spatial axes (an attribute before opset 18),
     * without keepdims: a global max pool */
    t = text_of(h, "tests/onnx/tiny_reduce_max.onnx", 0, 0, &st, &info);
    CHECK(t && strstr(t, "pool name=gmax in=relu max global\n") != NULL);
    free(t);
    /* torch.export's AdaptiveAvgPool2d(4) of 14 x 14 (GoogLeNet's
     * auxiliary heads): Transpose, GatherND of the windows, Transpose,
     * ReduceMean over them, one adaptive pool that a 1x1 conv reads */
    CHECK(text_has(h, "tests/onnx/gathered_pool.onnx", 0, "pool name=to_hwnc in=relu avg out=4\n"
                                                          "conv name=conv2 in=to_hwnc k=8 size=1\n"));
    seer_destroy(h);
}

TEST(onnx_bad_inputs_named_status)
{
    static const struct { const char *file; seer_status_t st; const char *says; } cases[] = {
        {"bad_truncated", SEER_STATUS_ONNX_CORRUPT, "truncated or corrupt"},
        {"bad_garbage", SEER_STATUS_ONNX_CORRUPT, "truncated or corrupt"},
        {"bad_empty", SEER_STATUS_ONNX_CORRUPT, "no graph"},
        {"bad_opset99", SEER_STATUS_ONNX_OPSET, "opset 99"},
        {"bad_no_opset", SEER_STATUS_ONNX_OPSET, "no opset"},
        {"bad_cycle", SEER_STATUS_NET_INPUT, "cycle"},
        {"bad_dangling", SEER_STATUS_NET_INPUT, "'nowhere' is not defined"},
        {"bad_symbolic_hw", SEER_STATUS_NET_SHAPE, "dimension 2 is symbolic"},
        {"bad_huge", SEER_STATUS_OVERFLOW, "'big' has over 2^31 - 1 elements"},
        {"bad_unsupported", SEER_STATUS_ONNX_UNSUPPORTED_OP, "3 unsupported nodes: Erf x1 ('scale'"},
        {"bad_group_norm_view", SEER_STATUS_ONNX_UNSUPPORTED_OP,
         "GroupNormalization x1 ('gn_view': a group norm of other than N x C x H x W in groups dividing C)"},
        {"bad_reduce_channels", SEER_STATUS_ONNX_UNSUPPORTED_OP,
         "ReduceMean x1 ('chan_mean': a reduction over other than the two spatial axes"},
        {"bad_reduce_float_axes", SEER_STATUS_ONNX_UNSUPPORTED_OP, "ReduceMean x1 ('fmean': a reduction over"},
        {"bad_reduce_all", SEER_STATUS_ONNX_UNSUPPORTED_OP, "ReduceMean x1 ('amean': a reduction over"},
        {"bad_split_no_first", SEER_STATUS_NET_INPUT, "a required input is missing"},
        {"bad_mul_growing_const", SEER_STATUS_ONNX_UNSUPPORTED_OP, "a constant that does not broadcast into the data"},
        {"bad_conv_channels_last", SEER_STATUS_ONNX_UNSUPPORTED_OP, "Conv x1 ('conv_last': an operator over N x C x H x W "
                                                                    "given a channels-last (permuted) view"},
        {"bad_squeeze_batch1", SEER_STATUS_ONNX_UNSUPPORTED_OP, "Squeeze x1 ('squeeze_all': a reshape that moves the batch"},
        {"bad_resize_channels", SEER_STATUS_ONNX_UNSUPPORTED_OP, "Resize x1 ('up_channels': a resize whose output size"},
        {"bad_sub_computed", SEER_STATUS_ONNX_UNSUPPORTED_OP, "Sub x1 ('diff': a broadcasting difference (inputs of "
         "different shapes)"},
        {"bad_resize_keep_aspect", SEER_STATUS_ONNX_UNSUPPORTED_OP, "Resize x1 ('up_aspect': a resize keeping the aspect"},
        {"bad_skip_channels_last", SEER_STATUS_ONNX_UNSUPPORTED_OP, "1 unsupported node: Sin x1 ('sin'"},
        /* a layer norm written out is not fused where its deviation has
         * another reader (that reader would get the layer's shape) */
        {"bad_ln_std_read", SEER_STATUS_ONNX_UNSUPPORTED_OP, "ReduceMean x2 ('rm', 'rm1'"},
        {"bad_ln_sqrt_noname", SEER_STATUS_ONNX_UNSUPPORTED_OP, "ReduceMean x2 ('rm', 'rm1'"},
        {"bad_opset27", SEER_STATUS_ONNX_OPSET, "opset 27"},
        {"bad_prelu_slope", SEER_STATUS_ONNX_UNSUPPORTED_OP, "PRelu x1 ('prelu': a PRelu slope other than one value"},
        {"bad_prelu_last_axis", SEER_STATUS_ONNX_UNSUPPORTED_OP, "PRelu x1 ('prelu': a PRelu slope other than one"},
        {"bad_split_opset1", SEER_STATUS_ONNX_UNSUPPORTED_OP, "Split x1 ('split': split sizes given as an input (opset 1)"},
        {"bad_pool_ceil_asym", SEER_STATUS_ONNX_UNSUPPORTED_OP, "MaxPool x1 ('p': asymmetric padding (1, 1, 3, 3)"},
        {"bad_pad_channels", SEER_STATUS_ONNX_UNSUPPORTED_OP, "Pad x1 ('cpad': a pad of other than the two spatial axes"},
        {"bad_transpose_perm", SEER_STATUS_NET_SHAPE, "node 'tr' (Transpose): perm is no permutation of rank 2"},
        {"bad_weight_symbolic", SEER_STATUS_NET_SHAPE, "weight 'w2' (a graph input read only as a weight): dimension 0 is symbolic"},
        {"bad_auto_pad", SEER_STATUS_ONNX_CORRUPT, "node 'conv2' (Conv): attribute auto_pad is 'WEIRD', none of ONNX's "
                                                   "values (NOTSET, SAME_UPPER, SAME_LOWER, VALID)"},
        {"bad_pad_mode", SEER_STATUS_ONNX_CORRUPT, "node 'zpad' (Pad): attribute mode is 'WEIRD'"},
        {"bad_resize_mode", SEER_STATUS_ONNX_CORRUPT, "node 'up' (Resize): attribute coordinate_transformation_mode is "
                                                      "'half_pixels'"},
        {"bad_conv_k0", SEER_STATUS_NET_SHAPE, "node 'convk0' (Conv): weight 'wk0' is 0x4x3x3"},
        {"bad_gemm_k0", SEER_STATUS_NET_SHAPE, "node 'fc' (Gemm): output 'fc:out' would be empty (0 x 1 x 1 per sample)"},
        {"bad_reshape_overflow", SEER_STATUS_NET_SHAPE, "node 'view' (Reshape): the target shape's element count "
                                                        "overflows at dimension 2 (4)"},
        {"bad_conv_bias", SEER_STATUS_NET_SHAPE, "node 'convb' (Conv): bias 'bb' has 5 values for 16 output channels"},
        /* a Conv's weight layout (K x C) given to a ConvTranspose (C x K) */
        {"bad_conv_transpose_channels", SEER_STATUS_NET_SHAPE, "node 'deconv' (ConvTranspose): weight 8x4x3x3 with "
                                                               "group 1 does not fit 4 input channels"},
        {"bad_conv_transpose_3d", SEER_STATUS_ONNX_UNSUPPORTED_OP, "ConvTranspose x1 ('deconv3d': a transposed "
                                                                   "convolution over other than 2 spatial dimensions"},
        {"bad_opset_negative", SEER_STATUS_ONNX_OPSET, "default-domain opset version -1 is invalid"},
        {"bad_output_ghost", SEER_STATUS_NET_INPUT, "graph output 'ghost' is not produced by any node, initializer or "
                                                    "graph input"},
    };
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[128];
        snprintf(path, sizeof path, "tests/onnx/%s.onnx", cases[i].file);
        seer_network_t net = NULL;
        seer_status_t st = seer_network_create_onnx_file(h, path, NULL, &net);
        if (st != cases[i].st || !strstr(seer_get_last_error(h), cases[i].says)) {
            printf("\n    %s: %s: %s", cases[i].file, seer_status_string(st), seer_get_last_error(h));
            CHECK(st == cases[i].st && "status and message");
        }
        CHECK(net == NULL);
    }
    seer_destroy(h);
}

TEST(onnx_unsupported_counted_then_skipped)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_status_t st;
    seer_onnx_info_t info;
    char *t = text_of(h, "tests/onnx/bad_unsupported.onnx", 0, 0, &st, &info);
    CHECK(!t && st == SEER_STATUS_ONNX_UNSUPPORTED_OP);
    CHECK(strstr(seer_get_last_error(h), "Transpose x2 ('transpose', 'transpose_back'") != NULL);
    t = text_of(h, "tests/onnx/bad_unsupported.onnx", 1, 0, &st, &info);
    REQUIRE(t != NULL);
    CHECK(info.n_skipped == 3);
    CHECK(strstr(t, "# skipped: Erf node 'scale': the description format has no Erf layer\n") != NULL);
    CHECK(strstr(t, "mul name=se_scale in=relu,se_gate\n") != NULL); /* squeeze-and-excite gate */
    CHECK(strstr(t, "conv name=conv_after in=se_scale ") != NULL); /* reads around the skipped nodes */
    free(t);
    /* skipped inside a channels-last block, the rest of it still reads
     * the view; a squeeze to rank 1 at batch 1 is skipped, not fatal */
    t = text_of(h, "tests/onnx/bad_skip_channels_last.onnx", 1, 0, &st, &info);
    CHECK(t && strstr(t, "layernorm name=ln in=relu\nconv name=conv_after in=ln k=4 size=1\n") != NULL);
    free(t);
    t = text_of(h, "tests/onnx/bad_squeeze_batch1.onnx", 1, 0, &st, &info);
    CHECK(t && strstr(t, "relu name=relu_flat in=gap\n") != NULL);
    free(t);
    /* a symbolic resolution resolves with an explicit one */
    t = text_of(h, "tests/onnx/bad_symbolic_hw.onnx", 0, 16, &st, &info);
    CHECK(t && strstr(t, "input name=x c=3 h=16 w=16\n"));
    free(t);
    seer_destroy(h);
}

TEST(onnx_arguments_and_limits)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    size_t len = 0, n = 0;
    unsigned char *b = slurp_bin("tests/onnx/tiny.onnx", &len);
    REQUIRE(b != NULL);
    char small[16];
    seer_network_t net = NULL;
    CHECK_STATUS(seer_onnx_text(h, b, len, NULL, small, sizeof small, &n, NULL), SEER_STATUS_BUFFER_TOO_SMALL);
    CHECK(n > sizeof small);
    CHECK_STATUS(seer_onnx_text(h, b, len, NULL, NULL, 0, NULL, NULL), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_network_create_onnx(h, b, len, NULL), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_network_create_onnx(h, NULL, 5, &net), SEER_STATUS_BAD_PARAM);
    seer_onnx_options_t o = SEER_ONNX_OPTIONS_DEFAULT;
    o.skip_unsupported = 2;
    CHECK_STATUS(seer_network_create_onnx_ex(h, b, len, &o, &net), SEER_STATUS_BAD_PARAM);
    /* the size cap is checked before a byte is read */
    CHECK_STATUS(seer_network_create_onnx(h, b, SEER_ONNX_MAX_BYTES + 1, &net), SEER_STATUS_OVERFLOW);
    CHECK_STATUS(seer_network_create_onnx_file(h, "tests/onnx/no-such.onnx", NULL, &net), SEER_STATUS_IO_ERROR);
    /* a data tensor of 2^31 or more elements per sample: 3 x 2^16 x 2^16 */
    o.skip_unsupported = 0;
    o.resolution = 1 << 16;
    CHECK_STATUS(seer_network_create_onnx_ex(h, b, len, &o, &net), SEER_STATUS_OVERFLOW);
    CHECK(strstr(seer_get_last_error(h), "over 2^31 - 1 elements per sample") != NULL);
    /* every prefix and every single-byte corruption: a network or a named
     * status with a message, never a crash */
    for (size_t cut = 0; cut < len; cut++) {
        seer_status_t st = seer_network_create_onnx(h, b, cut, &net);
        if (st == SEER_STATUS_SUCCESS) seer_network_destroy(net);
        else CHECK(seer_get_last_error(h)[0] != 0);
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char keep = b[i];
        b[i] ^= 0xff;
        seer_status_t st = seer_network_create_onnx(h, b, len, &net);
        if (st == SEER_STATUS_SUCCESS) seer_network_destroy(net);
        else CHECK(seer_get_last_error(h)[0] != 0);
        b[i] = keep;
    }
    CHECK_STATUS(seer_network_create_onnx(h, b, len, &net), SEER_STATUS_SUCCESS);
    seer_network_destroy(net);
    free(b);
    seer_destroy(h);
}

/* A half-precision export (model.half()) is predicted in its dtype
 * unless --dtype says otherwise; --amp keeps its own default. */
TEST(onnx_cli_half_input_is_the_default_dtype)
{
    static const struct { const char *opt, *val, *dtype, *note; } cases[] = {
        {NULL, NULL, "\"dtype\": \"fp16\"", "its input is fp16: predicted in fp16"},
        {"--dtype", "fp32", "\"dtype\": \"fp32\"", NULL},
        {"--amp", NULL, "\"amp\": true", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        test_run_t r;
        test_run_seer(&r, "net", "tests/onnx/tiny_fp16.onnx", "--gpu", "a100-pcie-80gb", "--format", "json",
                      cases[i].opt, cases[i].val, NULL);
        CHECK(r.rc == 0 && strstr(r.out, cases[i].dtype) != NULL);
        CHECK(cases[i].note ? strstr(r.err, cases[i].note) != NULL : strstr(r.err, "its input is") == NULL);
        test_run_free(&r);
    }
    test_run_t r;
    test_run_seer(&r, "net", "tests/onnx/tiny.onnx", "--gpu", "a100-pcie-80gb", "--format", "json", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "\"dtype\": \"fp32\"") != NULL);
    test_run_free(&r);
}

TEST(onnx_cli_net_print_and_predict)
{
    test_run_t r;
    test_run_seer(&r, "net", "tests/onnx/resnet50.onnx", "--print", NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "network name=resnet50\ninput name=input c=3 h=224 w=224\n") != NULL);
    CHECK(strstr(r.out, "conv name=layer1/0/conv2/Conv in=layer1/0/relu/Relu k=64 size=3 pad=1\n"));
    test_run_free(&r);
    test_run_t z, o;
    test_run_seer(&z, "net", "resnet50", "--gpu", "a100-pcie-80gb", "--batch", "32", "--mode", "train", "--format",
                  "json", NULL);
    test_run_seer(&o, "net", "tests/onnx/resnet50.onnx", "--gpu", "a100-pcie-80gb", "--batch", "32", "--mode",
                  "train", "--format", "json", NULL);
    CHECK(z.rc == 0 && o.rc == 0);
    const char *tz = strstr(z.out, "\"total_ms\": "), *to = strstr(o.out, "\"total_ms\": ");
    CHECK(tz && to);
    if (tz && to) CHECK_NEAR(atof(to + 12), atof(tz + 12), 0.001);
    test_run_free(&z);
    test_run_free(&o);
    test_run_seer(&r, "net", "tests/onnx/bad_unsupported.onnx", "--gpu", "a100-pcie-80gb", NULL);
    CHECK(r.rc != 0 && strstr(r.err, "SEER_STATUS_ONNX_UNSUPPORTED_OP") && strstr(r.err, "'scale'"));
    test_run_free(&r);
    test_run_seer(&r, "net", "tests/onnx/bad_unsupported.onnx", "--gpu", "a100-pcie-80gb", "--skip-unsupported",
                  NULL);
    CHECK(r.rc == 0 && strstr(r.err, "skipped 3 unsupported nodes") &&
          strstr(r.err, "  Transpose node 'transpose': "));
    test_run_free(&r);
    /* folded batch norms are told, the translation shows where */
    test_run_seer(&r, "net", "tests/onnx/resnet50_folded_torchscript.onnx", "--print", NULL);
    CHECK(r.rc == 0 && strstr(r.err, ": 53 batch norms that the exporter folded into convolutions"));
    CHECK(strstr(r.out, "conv name=conv1/Conv in=input k=64 size=7 stride=2 pad=3\n# unfolded: a batch norm folded "
                        "into conv 'conv1/Conv' by the exporter (weight 'onnx::Conv_502', bias 'onnx::Conv_503')\n"
                        "bn name=conv1/Conv.bn in=conv1/Conv\nrelu name=relu/Relu in=conv1/Conv.bn\n") != NULL);
    test_run_free(&r);
    /* a conv's own bias is not a folded batch norm (nor a bias without a weight's name before it) */
    test_run_seer(&r, "net", "tests/onnx/ops.onnx", "--print", NULL);
    CHECK(r.rc == 0 && !strstr(r.err, "batch norm") && !strstr(r.out, "# unfolded"));
    test_run_free(&r);
    /* a fixed batch in the graph is the default batch */
    test_run_seer(&r, "net", "tests/onnx/tiny.onnx", "--gpu", "a100-pcie-80gb", "--format", "json", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "\"batch\": 1,"));
    test_run_free(&r);
}
