/* Networks: peak GPU memory of an iteration and the largest batch that
 * fits (libseer/net_memory.c), with the shipped A100 model (skipped when
 * it is missing). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "test.h"

#define MODEL "models/a100-pcie-80gb.seer"

static seer_handle_t handle(void)
{
    seer_handle_t h = NULL;
    seer_create(&h);
    return h;
}

static seer_model_t model(seer_handle_t h)
{
    seer_model_t m = NULL;
    if (access(MODEL, R_OK) != 0 || seer_model_load(h, MODEL, &m)) return NULL;
    return m;
}

static seer_network_t parse(seer_handle_t h, const char *text)
{
    seer_network_t net = NULL;
    if (seer_network_create(h, text, strlen(text), &net)) return NULL;
    return net;
}

static uint64_t block(uint64_t b) { return (b + 511) / 512 * 512; }

/* Parameters: c1 4*3*3*3 + 4 = 112, fc 64*10 + 10 = 650; 762 in all. */
static const char tiny[] =
    "network name=tiny\n"
    "input name=data c=3 h=8 w=8\n"       /* 192 per sample */
    "conv name=c1 k=4 size=3 pad=1 bias=1\n" /* 4x8x8 = 256 */
    "relu name=r1\n"                      /* 256 */
    "pool name=p1 max size=2\n"           /* 4x4x4 = 64 */
    "flatten name=f\n"                    /* a view of p1 */
    "fc name=fc k=10\n"                   /* 10 */
    "softmax name=sm\n";                  /* 10 */

TEST(net_memory_tiny_by_hand)
{
    seer_handle_t h = handle();
    seer_model_t m = model(h);
    seer_network_t net = parse(h, tiny);
    if (!m) { seer_network_destroy(net); seer_destroy(h); SKIP(MODEL " not found"); }
    REQUIRE(net);
    seer_net_options_t o = SEER_NET_OPTIONS_DEFAULT;
    o.batch = 2;
    o.mode = SEER_MODE_TRAIN;
    seer_net_memory_t mem;
    CHECK_STATUS(seer_network_memory(h, m, net, &o, &mem), SEER_STATUS_SUCCESS);
    /* 762 fp32 parameters; blocks: c1 432 -> 512, bias 16 -> 512, fc 2560, bias 40 -> 512 */
    CHECK(mem.weights == 3048 && mem.gradients == 3048 && mem.optimizer_state == 3048);
    /* Saved at batch 2, fp32: data (conv's input) 2*192*4 = 1536; r1 (relu's
     * output, pool's input) 2*256*4 = 2048; p1 (fc's input through the
     * flatten view) 2*64*4 = 512 and its int64 indices 2*64*8 = 1024; sm
     * (softmax's output) 2*10*4 = 80: 5200.  The largest input + output
     * pair is r1's, 2048 + 2048 = 4096.  9296 bytes; in 512-byte blocks
     * 1536 + 2048 + 512 + 1024 + 512 + 4096 = 9728. */
    CHECK(mem.activations == 9296);
    CHECK(mem.total == 3 * 4096 + 9728 + block(mem.workspace));
    /* LRN keeps its input and its output (cuDNN's LRN backward reads x, y
     * and dy): with r1 an lrn, c1's output too, 2*256*4 = 2048 more */
    char lrn[sizeof tiny];
    memcpy(lrn, tiny, sizeof tiny);
    memcpy(strstr(lrn, "relu name=r1"), "lrn  name=r1", 12);
    seer_network_t lnet = parse(h, lrn);
    CHECK(lnet && seer_network_memory(h, m, lnet, &o, &mem) == SEER_STATUS_SUCCESS && mem.activations == 9296 + 2048);
    seer_network_destroy(lnet);

    /* Inference: data 1536 + c1 2048 live at c1 (data freed after it),
     * then c1 2048 + r1 2048 = 4096 at r1, the peak; no gradients or state. */
    o.mode = SEER_MODE_INFER;
    CHECK_STATUS(seer_network_memory(h, m, net, &o, &mem), SEER_STATUS_SUCCESS);
    CHECK(mem.weights == 3048 && mem.gradients == 0 && mem.optimizer_state == 0);
    CHECK(mem.activations == 4096);
    CHECK(mem.total == 4096 + 4096 + block(mem.workspace));

    /* fp16: an fp16 copy beside the fp32 master weights (762 * 6 = 4572;
     * copy blocks 216 -> 512, 8 -> 512, 1280 -> 1536, 20 -> 512), and
     * activations at 2 bytes: the inference peak halves */
    o.dtype = SEER_DTYPE_FP16;
    seer_status_t fst = seer_network_memory(h, m, net, &o, &mem);
    CHECK(fst == SEER_STATUS_SUCCESS);
    if (fst == SEER_STATUS_SUCCESS) {
        CHECK(mem.weights == 4572);
        CHECK(mem.activations == 2048);
        CHECK(mem.total == 4096 + 3072 + 2048 + block(mem.workspace));
        /* AMP: the same memory (fp32 master weights, half activations),
         * gradients and momentum fp32 in training */
        o.amp = 1;
        o.mode = SEER_MODE_TRAIN;
        CHECK_STATUS(seer_network_memory(h, m, net, &o, &mem), SEER_STATUS_SUCCESS);
        CHECK(mem.weights == 4572 && mem.gradients == 3048 && mem.optimizer_state == 3048);
        /* saved at 2 bytes: data 768, r1 1024, p1 256, sm 40, and the
         * int64 indices 1024 as before; pair 1024 + 1024 */
        CHECK(mem.activations == 768 + 1024 + 256 + 1024 + 40 + 2048);
    }
    /* AMP computes in fp16 or bf16 only: the prediction's status */
    o.dtype = SEER_DTYPE_FP32;
    o.amp = 1;
    CHECK_STATUS(seer_network_memory(h, m, net, &o, &mem), SEER_STATUS_BAD_PARAM);
    seer_network_destroy(net);
    seer_model_destroy(m);
    seer_destroy(h);
}

TEST(net_memory_nchw_tensor_core_copies)
{
    /* An NCHW conv on tensor cores keeps NHWC copies of its three tensors
     * in cuDNN's workspace (docs/method.md, "Layouts"): tiny's c1 at batch
     * 2 in TF32, implicit GEMM in every direction: x 2*3*8*8 + w 4*3*3*3 +
     * y 2*4*8*8 = 1004 elements, 4016 bytes, in fwd and bwd_filter alike.
     * NHWC and FP32 (no tensor cores) keep none. */
    seer_handle_t h = handle();
    seer_model_t m = model(h);
    seer_network_t net = parse(h, tiny);
    if (!m) { seer_network_destroy(net); seer_destroy(h); SKIP(MODEL " not found"); }
    REQUIRE(net);
    seer_net_options_t o = SEER_NET_OPTIONS_DEFAULT;
    o.batch = 2;
    o.mode = SEER_MODE_TRAIN;
    o.algo_policy = 1;
    seer_net_memory_t ws[2][2];
    for (int t = 0; t < 2; t++)
        for (int l = 0; l < 2; l++) {
            o.dtype = t ? SEER_DTYPE_TF32 : SEER_DTYPE_FP32;
            o.layout = l ? SEER_LAYOUT_NHWC : SEER_LAYOUT_NCHW;
            CHECK_STATUS(seer_network_memory(h, m, net, &o, &ws[t][l]), SEER_STATUS_SUCCESS);
        }
    CHECK(ws[0][0].workspace == ws[0][1].workspace && ws[0][1].workspace == ws[1][1].workspace);
    CHECK(ws[1][0].workspace >= 4016 && ws[1][0].workspace <= ws[1][1].workspace + 4016);
    CHECK(ws[1][0].workspace > ws[1][1].workspace);
    /* a depthwise conv is timed by the grouped path, without transposes:
     * no copies either */
    seer_network_t dw = parse(h, "network name=dw\ninput name=data c=64 h=8 w=8\n"
                                 "conv name=c k=64 size=3 pad=1 groups=64\n");
    REQUIRE(dw);
    o.dtype = SEER_DTYPE_TF32;
    for (int l = 0; l < 2; l++) {
        o.layout = l ? SEER_LAYOUT_NHWC : SEER_LAYOUT_NCHW;
        CHECK_STATUS(seer_network_memory(h, m, dw, &o, &ws[0][l]), SEER_STATUS_SUCCESS);
    }
    CHECK(ws[0][0].workspace == ws[0][1].workspace);
    seer_network_destroy(dw);
    seer_network_destroy(net);
    seer_model_destroy(m);
    seer_destroy(h);
}

TEST(net_memory_resnet50_parameters)
{
    seer_handle_t h = handle();
    seer_model_t m = model(h);
    if (!m) { seer_destroy(h); SKIP(MODEL " not found"); }
    seer_network_t net = NULL;
    REQUIRE(seer_network_create_zoo(h, "resnet50", 0, &net) == SEER_STATUS_SUCCESS);
    seer_network_info_t ni;
    seer_network_get_info(net, &ni);
    CHECK(ni.params == 25557032); /* torchvision's resnet50 */
    seer_net_options_t o = SEER_NET_OPTIONS_DEFAULT;
    o.batch = 32;
    o.mode = SEER_MODE_TRAIN;
    seer_net_memory_t sgd, adam, none, inf;
    CHECK_STATUS(seer_network_memory(h, m, net, &o, &sgd), SEER_STATUS_SUCCESS);
    CHECK(sgd.weights == 102228128u && sgd.gradients == 102228128u);
    CHECK(sgd.optimizer_state == 102228128u); /* momentum: one word per parameter */
    o.optimizer = SEER_OPTIMIZER_ADAM;
    CHECK_STATUS(seer_network_memory(h, m, net, &o, &adam), SEER_STATUS_SUCCESS);
    CHECK(adam.optimizer_state == 2 * 102228128u);
    o.optimizer = SEER_OPTIMIZER_NONE;
    CHECK_STATUS(seer_network_memory(h, m, net, &o, &none), SEER_STATUS_SUCCESS);
    CHECK(none.optimizer_state == 0);
    CHECK(none.total < sgd.total && sgd.total < adam.total);
    /* the optimizer changes nothing but its state */
    CHECK(adam.total - sgd.total == sgd.total - none.total);
    CHECK(none.activations == sgd.activations && none.workspace == sgd.workspace);
    o.mode = SEER_MODE_INFER;
    CHECK_STATUS(seer_network_memory(h, m, net, &o, &inf), SEER_STATUS_SUCCESS);
    CHECK(inf.gradients == 0 && inf.optimizer_state == 0 && inf.weights == sgd.weights);
    CHECK(inf.activations < sgd.activations / 4 && inf.total < none.total);
    /* every part accounted for: the total is the parts rounded, never less */
    CHECK(sgd.total >= sgd.weights + sgd.gradients + sgd.optimizer_state + sgd.activations + sgd.workspace);
    CHECK(sgd.total < sgd.weights + sgd.gradients + sgd.optimizer_state + sgd.activations + sgd.workspace +
                      ((uint64_t)1 << 20));
    seer_network_destroy(net);
    seer_model_destroy(m);
    seer_destroy(h);
}

TEST(net_memory_grows_with_batch_and_fit_is_tight)
{
    seer_handle_t h = handle();
    seer_model_t m = model(h);
    if (!m) { seer_destroy(h); SKIP(MODEL " not found"); }
    seer_network_t net = NULL;
    REQUIRE(seer_network_create_zoo(h, "resnet18", 0, &net) == SEER_STATUS_SUCCESS);
    seer_net_options_t o = SEER_NET_OPTIONS_DEFAULT;
    o.mode = SEER_MODE_TRAIN;
    uint64_t prev = 0;
    for (int b = 1; b <= 512; b *= 2) {
        seer_net_memory_t mem;
        o.batch = b;
        CHECK_STATUS(seer_network_memory(h, m, net, &o, &mem), SEER_STATUS_SUCCESS);
        CHECK(mem.total > prev && mem.activations > 0);
        prev = mem.total;
    }
    static const double limits[] = {4e9, 16 * 1073741824.0, 80 * 1073741824.0};
    for (int i = 0; i < 3; i++) {
        int fit = -1;
        seer_net_memory_t at, above;
        CHECK_STATUS(seer_network_fit_batch(h, m, net, &o, limits[i], &fit), SEER_STATUS_SUCCESS);
        REQUIRE(fit >= 1);
        o.batch = fit;
        CHECK_STATUS(seer_network_memory(h, m, net, &o, &at), SEER_STATUS_SUCCESS);
        /* the batch above does not fit, or makes a tensor too large to
         * describe (over 2^31 elements, as cuDNN) */
        o.batch = fit + 1;
        seer_status_t st = seer_network_memory(h, m, net, &o, &above);
        CHECK(st == SEER_STATUS_SUCCESS || st == SEER_STATUS_OVERFLOW);
        CHECK((double)at.total <= limits[i] && (st || limits[i] < (double)above.total));
    }
    /* less than batch 1 needs: 0, and no error */
    int fit = -1;
    CHECK_STATUS(seer_network_fit_batch(h, m, net, &o, 1e6, &fit), SEER_STATUS_SUCCESS);
    CHECK(fit == 0);
    seer_network_destroy(net);
    seer_model_destroy(m);
    seer_destroy(h);
}

/* The workspace is the fastest algorithms', which can shrink as the batch
 * grows (VGG-16 training on a V100 SXM2: batch 46 needs less than 45), so
 * the fit looks above the bisection's answer: no batch from it up to 64
 * fits. */
TEST(net_memory_fit_when_workspace_shrinks)
{
    if (access("models/v100-sxm2-16gb.seer", R_OK) != 0) SKIP("models/v100-sxm2-16gb.seer not found");
    seer_handle_t h = handle();
    seer_model_t m = NULL;
    seer_network_t net = NULL;
    REQUIRE(seer_model_load(h, "models/v100-sxm2-16gb.seer", &m) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_network_create_zoo(h, "vgg16", 0, &net) == SEER_STATUS_SUCCESS);
    seer_net_options_t o = SEER_NET_OPTIONS_DEFAULT;
    o.mode = SEER_MODE_TRAIN;
    int fit = -1;
    CHECK_STATUS(seer_network_fit_batch(h, m, net, &o, 8e9, &fit), SEER_STATUS_SUCCESS);
    REQUIRE(fit >= 1);
    for (int b = fit; b <= 64; b++) {
        seer_net_memory_t mem;
        o.batch = b;
        CHECK_STATUS(seer_network_memory(h, m, net, &o, &mem), SEER_STATUS_SUCCESS);
        CHECK(b == fit ? (double)mem.total <= 8e9 : (double)mem.total > 8e9);
    }
    seer_network_destroy(net);
    seer_model_destroy(m);
    seer_destroy(h);
}

/* Training never needs less activation memory than inference: four
 * branches concatenated coexist though nothing saves them. */
TEST(net_memory_training_holds_the_forward_peak)
{
    seer_handle_t h = handle();
    seer_model_t m = model(h);
    if (!m) { seer_destroy(h); SKIP(MODEL " not found"); }
    seer_network_t net = parse(h, "network name=cat\ninput name=data c=1 h=64 w=64\n"
                                  "conv name=a in=data k=1 size=1\nconv name=b in=data k=1 size=1\n"
                                  "conv name=c in=data k=1 size=1\nconv name=d in=data k=1 size=1\n"
                                  "concat name=cat in=a,b,c,d\n");
    REQUIRE(net);
    seer_net_options_t o = SEER_NET_OPTIONS_DEFAULT;
    seer_net_memory_t inf, tr;
    CHECK_STATUS(seer_network_memory(h, m, net, &o, &inf), SEER_STATUS_SUCCESS);
    o.mode = SEER_MODE_TRAIN;
    CHECK_STATUS(seer_network_memory(h, m, net, &o, &tr), SEER_STATUS_SUCCESS);
    CHECK(tr.activations >= inf.activations);
    seer_network_destroy(net);
    seer_model_destroy(m);
    seer_destroy(h);
}

TEST(net_memory_bad_input)
{
    seer_handle_t h = handle();
    seer_model_t m = model(h);
    seer_network_t net = parse(h, tiny);
    if (!m) { seer_network_destroy(net); seer_destroy(h); SKIP(MODEL " not found"); }
    REQUIRE(net);
    seer_net_options_t o = SEER_NET_OPTIONS_DEFAULT;
    seer_net_memory_t mem, untouched;
    memset(&mem, 0xab, sizeof mem);
    untouched = mem;
    int b = -7;
    CHECK_STATUS(seer_network_memory(h, NULL, net, &o, &mem), SEER_STATUS_BAD_PARAM);
    CHECK(strstr(seer_get_last_error(h), "model"));
    CHECK_STATUS(seer_network_memory(h, m, NULL, &o, &mem), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_network_memory(h, m, net, NULL, &mem), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_network_memory(h, m, net, &o, NULL), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_network_fit_batch(h, m, net, &o, 1e9, NULL), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_network_fit_batch(h, m, NULL, &o, 1e9, &b), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_network_fit_batch(h, m, net, &o, 0, &b), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_network_fit_batch(h, m, net, &o, NAN, &b), SEER_STATUS_BAD_PARAM);
    CHECK(b == -7);
    o.batch = 0;
    CHECK_STATUS(seer_network_memory(h, m, net, &o, &mem), SEER_STATUS_BAD_SHAPE);
    CHECK(strstr(seer_get_last_error(h), "batch"));
    o.batch = 1;
    o.optimizer = (seer_optimizer_t)9;
    o.mode = SEER_MODE_TRAIN;
    CHECK_STATUS(seer_network_memory(h, m, net, &o, &mem), SEER_STATUS_BAD_PARAM);
    CHECK(strstr(seer_get_last_error(h), "optimizer"));
    CHECK(!memcmp(&mem, &untouched, sizeof mem));
    seer_network_destroy(net);

    /* 4x16384x16384 per sample (2^30 elements): at batch 2^24 every saved
     * relu output is 2^56 bytes, and 130 of them pass 2^63 */
    size_t cap = 64 + 130 * 16;
    char *text = malloc(cap);
    REQUIRE(text);
    int len = snprintf(text, cap, "input c=4 h=16384 w=16384\n");
    for (int i = 0; i < 130; i++) len += snprintf(text + len, cap - (size_t)len, "relu name=r%d\n", i);
    net = parse(h, text);
    free(text);
    REQUIRE(net);
    o = (seer_net_options_t)SEER_NET_OPTIONS_DEFAULT;
    o.mode = SEER_MODE_TRAIN;
    o.batch = 1 << 24;
    CHECK_STATUS(seer_network_memory(h, m, net, &o, &mem), SEER_STATUS_OVERFLOW);
    CHECK(strstr(seer_get_last_error(h), "layer 'r"));
    CHECK(!memcmp(&mem, &untouched, sizeof mem));
    /* the largest batch that fits a huge size stops below the overflow */
    CHECK_STATUS(seer_network_fit_batch(h, m, net, &o, 1e30, &b), SEER_STATUS_SUCCESS);
    CHECK(b >= 1 && b < 1 << 24);
    seer_network_destroy(net);
    seer_model_destroy(m);
    seer_destroy(h);
}

TEST(net_memory_cli)
{
    if (access(MODEL, R_OK) != 0) SKIP(MODEL " not found");
    test_run_t r;
    test_run_seer(&r, "net", "resnet50", "--gpu", "a100-pcie-80gb", "--batch", "32", "--mode", "train",
                  "--fit", NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "memory    peak") && strstr(r.out, "97.5 MiB weights"));
    CHECK(strstr(r.out, "the largest whose peak fits in 80.0 GiB"));
    test_run_free(&r);
    test_run_seer(&r, "net", "resnet50", "--gpu", "a100-pcie-80gb", "--format", "json", "--mode", "train",
                  "--fit", "16GiB", NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "\"memory\": {\"weights\": 102228128, \"gradients\": 102228128"));
    CHECK(strstr(r.out, "\"fit_memory\": 17179869184, \"fit_batch\": "));
    test_run_free(&r);
    test_run_seer(&r, "net", "resnet50", "--gpu", "a100-pcie-80gb", "--fit", "16XB", NULL);
    CHECK(r.rc == 2 && strstr(r.err, "--fit"));
    test_run_free(&r);
    /* a size under 1 MiB in a unit that shows it, not "0.0 MiB" */
    test_run_seer(&r, "net", "resnet50", "--gpu", "a100-pcie-80gb", "--fit", "1KB", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "not even batch 1: its peak does not fit in 1000 B\n"));
    test_run_free(&r);
    test_run_seer(&r, "net", "resnet50", "--gpu", "a100-pcie-80gb", "--fit", "512KiB", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "does not fit in 512.0 KiB\n"));
    test_run_free(&r);
    /* the network line counts every layer, the input too; the table the
     * layers that run on the GPU (not the input nor flatten), and in
     * training the optimizer step besides */
    test_run_seer(&r, "net", "resnet50", "--gpu", "a100-pcie-80gb", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "resnet50: 177 layers (inputs included; 53 conv, 1 fc)") &&
          strstr(r.out, "(25 of 175 layers that run on the GPU; "));
    test_run_free(&r);
    test_run_seer(&r, "net", "resnet50", "--gpu", "a100-pcie-80gb", "--mode", "train", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "(25 of 176: 175 layers that run on the GPU and the optimizer step; "));
    test_run_free(&r);
    /* an optimizer asked for where there is no step: a usage error, no output */
    test_run_seer(&r, "net", "resnet50", "--gpu", "a100-pcie-80gb", "--optimizer", "adam", NULL);
    CHECK(r.rc == 2 && strstr(r.err, "--mode train only") && !*r.out);
    test_run_free(&r);
}

/* Layer norm keeps its input and each position's fp32 mean and inverse
 * deviation (8 bytes); under amp it runs in fp32 and keeps the fp32 copy
 * of its input instead (4 bytes per element, not 2). */
TEST(net_memory_layernorm_saved)
{
    seer_handle_t h = handle();
    seer_model_t m = model(h);
    seer_network_t net = parse(h, "input name=x c=8 h=4 w=4\n"
                                  "conv name=c k=16 size=1\n"       /* 16x4x4 = 256 per sample */
                                  "layernorm name=ln\n"             /* keeps c's output, 16 stats */
                                  "fc name=f k=16 pointwise=1\n");  /* keeps ln's output */
    if (!m) { seer_network_destroy(net); seer_destroy(h); SKIP(MODEL " not found"); }
    REQUIRE(net);
    seer_net_options_t o = SEER_NET_OPTIONS_DEFAULT;
    o.batch = 2;
    o.mode = SEER_MODE_TRAIN;
    o.dtype = SEER_DTYPE_FP16;
    seer_net_memory_t plain, amp;
    CHECK_STATUS(seer_network_memory(h, m, net, &o, &plain), SEER_STATUS_SUCCESS);
    o.amp = 1;
    CHECK_STATUS(seer_network_memory(h, m, net, &o, &amp), SEER_STATUS_SUCCESS);
    /* x 2*128*2 = 512, c 2*256*2 = 1024 (by ln) or 2*256*4 = 2048 (its
     * fp32 copy), stats 2*16*8 = 256, ln 1024; pair c + ln 2048 */
    CHECK(plain.activations == 512 + 1024 + 256 + 1024 + 2048);
    CHECK(amp.activations == 512 + 2048 + 256 + 1024 + 2048);
    seer_network_destroy(net);
    seer_model_destroy(m);
    seer_destroy(h);
}
