/* Built-in networks, written out in the description format
 * (docs/networks.md) and parsed like any user file.  Layer names and
 * shapes follow torchvision's models (alexnet, vgg16, resnet18/50/101 with
 * the stride on the 3x3 conv, inception_v3 without the auxiliary
 * classifier, mobilenet_v2, densenet121, convnext_tiny), at any input
 * resolution; the
 * adaptive pooling before the classifier keeps the parameter counts
 * independent of it, as in torchvision. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "net.h"

typedef struct {
    char *s;
    size_t n, cap;
    int oom;
    char last[48];              /* the layer written last: the default input */
} zb_t;

static void put(zb_t *z, const char *fmt, va_list ap)
{
    if (z->oom) return;
    va_list aq;
    va_copy(aq, ap);
    int len = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (len < 0) { z->oom = 1; return; }
    if (z->n + (size_t)len + 1 > z->cap) {
        size_t nc = (z->n + (size_t)len + 1) * 2;
        char *ns = realloc(z->s, nc);
        if (!ns) { z->oom = 1; return; }
        z->s = ns;
        z->cap = nc;
    }
    vsnprintf(z->s + z->n, (size_t)len + 1, fmt, ap);
    z->n += (size_t)len;
}

static void text(zb_t *z, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text(zb_t *z, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put(z, fmt, ap);
    va_end(ap);
}

/* "TYPE name=NAME [in=IN] OPTIONS"; in NULL or the previous layer: no in=. */
static void L(zb_t *z, const char *type, const char *name, const char *in, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void L(zb_t *z, const char *type, const char *name, const char *in, const char *fmt, ...)
{
    text(z, "%s name=%s", type, name);
    if (in && strcmp(in, z->last)) text(z, " in=%s", in);
    if (fmt && *fmt) {
        text(z, " ");
        va_list ap;
        va_start(ap, fmt);
        put(z, fmt, ap);
        va_end(ap);
    }
    text(z, "\n");
    seer_strlcpy(z->last, name, sizeof z->last);
}

static const char *nm(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *nm(char *buf, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, 48, fmt, ap);
    va_end(ap);
    return buf;
}

/* conv (+ bn) (+ relu/relu6): the usual unit.  Returns the last name. */
static const char *conv_unit(zb_t *z, const char *prefix, const char *conv, const char *bn,
                             const char *act, const char *in, int k, int r, int s, int stride,
                             int ph, int pw, int groups, int bias)
{
    char n1[48];
    text(z, "conv name=%s%s", prefix, conv);
    if (in && strcmp(in, z->last)) text(z, " in=%s", in);
    if (r == s) text(z, " k=%d size=%d", k, r);
    else text(z, " k=%d r=%d s=%d", k, r, s);
    if (stride != 1) text(z, " stride=%d", stride);
    if (ph == pw && ph) text(z, " pad=%d", ph);
    else if (ph != pw) text(z, " pad_h=%d pad_w=%d", ph, pw);
    if (groups != 1) text(z, " groups=%d", groups);
    if (bias) text(z, " bias=1");
    text(z, "\n");
    nm(z->last, "%s%s", prefix, conv);
    if (bn) L(z, "bn", nm(n1, "%s%s", prefix, bn), NULL, NULL);
    if (act) L(z, strstr(act, "relu6") ? "relu6" : "relu", nm(n1, "%s%s", prefix, act), NULL, NULL);
    return z->last;
}

static void classifier_tail(zb_t *z, int k_out)
{
    L(z, "fc", "fc", NULL, "k=%d", k_out);
    L(z, "softmax", "loss", NULL, NULL);
}

/* ---- AlexNet, VGG-16 ---------------------------------------------- */

static void alexnet(zb_t *z)
{
    static const struct { int k, r, stride, pad, pool; } f[] = {
        {64, 11, 4, 2, 1}, {192, 5, 1, 2, 1}, {384, 3, 1, 1, 0}, {256, 3, 1, 1, 0}, {256, 3, 1, 1, 1}};
    char a[48], b[48];
    for (int i = 0; i < 5; i++) {
        int idx = i == 0 ? 0 : i == 1 ? 3 : i == 2 ? 6 : i == 3 ? 8 : 10;
        nm(a, "features.%d", idx);
        conv_unit(z, "", a, NULL, NULL, NULL, f[i].k, f[i].r, f[i].r, f[i].stride, f[i].pad, f[i].pad, 1, 1);
        L(z, "relu", nm(b, "features.%d", idx + 1), NULL, NULL);
        if (f[i].pool) L(z, "pool", nm(b, "features.%d", idx + 2), NULL, "max size=3 stride=2");
    }
    L(z, "pool", "avgpool", NULL, "avg out=6");
    L(z, "flatten", "flatten", NULL, NULL);
    L(z, "dropout", "classifier.0", NULL, "p=0.5");
    L(z, "fc", "classifier.1", NULL, "k=4096");
    L(z, "relu", "classifier.2", NULL, NULL);
    L(z, "dropout", "classifier.3", NULL, "p=0.5");
    L(z, "fc", "classifier.4", NULL, "k=4096");
    L(z, "relu", "classifier.5", NULL, NULL);
    L(z, "fc", "classifier.6", NULL, "k=1000");
    L(z, "softmax", "loss", NULL, NULL);
}

static void vgg16(zb_t *z)
{
    static const int cfg[] = {64, 64, 0, 128, 128, 0, 256, 256, 256, 0, 512, 512, 512, 0, 512, 512, 512, 0};
    char a[48];
    int idx = 0;
    for (size_t i = 0; i < sizeof cfg / sizeof *cfg; i++) {
        if (!cfg[i]) {
            L(z, "pool", nm(a, "features.%d", idx++), NULL, "max size=2 stride=2");
            continue;
        }
        conv_unit(z, "", nm(a, "features.%d", idx++), NULL, NULL, NULL, cfg[i], 3, 3, 1, 1, 1, 1, 1);
        L(z, "relu", nm(a, "features.%d", idx++), NULL, NULL);
    }
    L(z, "pool", "avgpool", NULL, "avg out=7");
    L(z, "flatten", "flatten", NULL, NULL);
    L(z, "fc", "classifier.0", NULL, "k=4096");
    L(z, "relu", "classifier.1", NULL, NULL);
    L(z, "dropout", "classifier.2", NULL, "p=0.5");
    L(z, "fc", "classifier.3", NULL, "k=4096");
    L(z, "relu", "classifier.4", NULL, NULL);
    L(z, "dropout", "classifier.5", NULL, "p=0.5");
    L(z, "fc", "classifier.6", NULL, "k=1000");
    L(z, "softmax", "loss", NULL, NULL);
}

/* ---- ResNet --------------------------------------------------------- */

static void resnet(zb_t *z, int bottleneck, const int blocks[4])
{
    char p[48], in[48], a[48], b[48], id[48];
    conv_unit(z, "", "conv1", "bn1", "relu", NULL, 64, 7, 7, 2, 3, 3, 1, 0);
    L(z, "pool", "maxpool", NULL, "max size=3 stride=2 pad=1");
    int c = 64;
    for (int s = 0; s < 4; s++) {
        int width = 64 << s, out = bottleneck ? width * 4 : width;
        for (int i = 0; i < blocks[s]; i++) {
            int stride = i == 0 && s > 0 ? 2 : 1;
            nm(p, "layer%d.%d.", s + 1, i);
            seer_strlcpy(in, z->last, sizeof in);
            if (bottleneck) {
                conv_unit(z, p, "conv1", "bn1", "relu1", in, width, 1, 1, 1, 0, 0, 1, 0);
                conv_unit(z, p, "conv2", "bn2", "relu2", NULL, width, 3, 3, stride, 1, 1, 1, 0);
                conv_unit(z, p, "conv3", "bn3", NULL, NULL, out, 1, 1, 1, 0, 0, 1, 0);
            } else {
                conv_unit(z, p, "conv1", "bn1", "relu1", in, width, 3, 3, stride, 1, 1, 1, 0);
                conv_unit(z, p, "conv2", "bn2", NULL, NULL, width, 3, 3, 1, 1, 1, 1, 0);
            }
            seer_strlcpy(b, z->last, sizeof b);
            if (stride != 1 || c != out) {
                conv_unit(z, p, "downsample.0", "downsample.1", NULL, in, out, 1, 1, stride, 0, 0, 1, 0);
                seer_strlcpy(id, z->last, sizeof id);
            } else {
                seer_strlcpy(id, in, sizeof id);
            }
            L(z, "add", nm(a, "%sadd", p), NULL, "in=%s,%s", b, id);
            L(z, "relu", nm(a, "%srelu", p), NULL, NULL);
            c = out;
        }
    }
    L(z, "pool", "avgpool", NULL, "avg global");
    L(z, "flatten", "flatten", NULL, NULL);
    classifier_tail(z, 1000);
}

/* ---- MobileNet-v2 --------------------------------------------------- */

static void mobilenet_v2(zb_t *z)
{
    static const int set[7][4] = {{1, 16, 1, 1}, {6, 24, 2, 2}, {6, 32, 3, 2}, {6, 64, 4, 2},
                                  {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
    char p[48], in[48], a[48];
    conv_unit(z, "features.0.", "0", "1", "2.relu6", NULL, 32, 3, 3, 2, 1, 1, 1, 0);
    int c = 32, f = 1;
    for (int g = 0; g < 7; g++)
        for (int i = 0; i < set[g][2]; i++, f++) {
            int t = set[g][0], out = set[g][1], stride = i == 0 ? set[g][3] : 1, hid = c * t, j = 0;
            seer_strlcpy(in, z->last, sizeof in);
            nm(p, "features.%d.conv.", f);
            if (t != 1) {
                conv_unit(z, p, "0.0", "0.1", "0.2.relu6", in, hid, 1, 1, 1, 0, 0, 1, 0);
                j = 1;
            }
            char cn[16], bn[16], an[24];
            snprintf(cn, sizeof cn, "%d.0", j);
            snprintf(bn, sizeof bn, "%d.1", j);
            snprintf(an, sizeof an, "%d.2.relu6", j);
            conv_unit(z, p, cn, bn, an, NULL, hid, 3, 3, stride, 1, 1, hid, 0); /* depthwise */
            snprintf(cn, sizeof cn, "%d", j + 1);
            snprintf(bn, sizeof bn, "%d", j + 2);
            conv_unit(z, p, cn, bn, NULL, NULL, out, 1, 1, 1, 0, 0, 1, 0);
            if (stride == 1 && c == out) {
                char last[48];
                seer_strlcpy(last, z->last, sizeof last);
                L(z, "add", nm(a, "features.%d.add", f), NULL, "in=%s,%s", last, in);
            }
            c = out;
        }
    conv_unit(z, "features.18.", "0", "1", "2.relu6", NULL, 1280, 1, 1, 1, 0, 0, 1, 0);
    L(z, "pool", "avgpool", NULL, "avg global");
    L(z, "flatten", "flatten", NULL, NULL);
    L(z, "dropout", "classifier.0", NULL, "p=0.2");
    L(z, "fc", "classifier.1", NULL, "k=1000");
    L(z, "softmax", "loss", NULL, NULL);
}

/* ---- DenseNet-121 --------------------------------------------------- */

static void densenet121(zb_t *z)
{
    static const int blocks[4] = {6, 12, 24, 16};
    const int growth = 32, bn_size = 4;
    char p[48], a[48], b[48];
    char (*outs)[48] = malloc(64 * sizeof *outs);
    if (!outs) { z->oom = 1; return; }
    conv_unit(z, "features.", "conv0", "norm0", "relu0", NULL, 64, 7, 7, 2, 3, 3, 1, 0);
    L(z, "pool", "features.pool0", NULL, "max size=3 stride=2 pad=1");
    int c = 64;
    for (int s = 0; s < 4; s++) {
        int n = 0;
        seer_strlcpy(outs[n++], z->last, sizeof outs[0]);
        for (int i = 0; i < blocks[s]; i++) {
            nm(p, "features.denseblock%d.denselayer%d.", s + 1, i + 1);
            const char *in = outs[0];
            if (n > 1) { /* torch.cat(prev_features) */
                text(z, "concat name=%scat in=", p);
                for (int j = 0; j < n; j++) text(z, "%s%s", j ? "," : "", outs[j]);
                text(z, "\n");
                in = nm(z->last, "%scat", p);
            }
            text(z, "bn name=%snorm1", p);
            if (strcmp(in, z->last)) text(z, " in=%s", in);
            text(z, "\n");
            nm(z->last, "%snorm1", p);
            L(z, "relu", nm(a, "%srelu1", p), NULL, NULL);
            conv_unit(z, p, "conv1", "norm2", "relu2", NULL, bn_size * growth, 1, 1, 1, 0, 0, 1, 0);
            conv_unit(z, p, "conv2", NULL, NULL, NULL, growth, 3, 3, 1, 1, 1, 1, 0);
            seer_strlcpy(outs[n++], z->last, sizeof outs[0]);
        }
        c += growth * blocks[s];
        text(z, "concat name=features.denseblock%d.cat in=", s + 1);
        for (int j = 0; j < n; j++) text(z, "%s%s", j ? "," : "", outs[j]);
        text(z, "\n");
        nm(z->last, "features.denseblock%d.cat", s + 1);
        if (s < 3) {
            nm(p, "features.transition%d.", s + 1);
            L(z, "bn", nm(a, "%snorm", p), NULL, NULL);
            L(z, "relu", nm(a, "%srelu", p), NULL, NULL);
            conv_unit(z, p, "conv", NULL, NULL, NULL, c / 2, 1, 1, 1, 0, 0, 1, 0);
            L(z, "pool", nm(b, "%spool", p), NULL, "avg size=2 stride=2");
            c /= 2;
        }
    }
    free(outs);
    L(z, "bn", "features.norm5", NULL, NULL);
    L(z, "relu", "features.relu5", NULL, NULL);
    L(z, "pool", "avgpool", NULL, "avg global");
    L(z, "flatten", "flatten", NULL, NULL);
    L(z, "fc", "classifier", NULL, "k=1000");
    L(z, "softmax", "loss", NULL, NULL);
}

/* ---- Inception-v3 --------------------------------------------------- */

/* BasicConv2d: conv (no bias) + bn + relu, named PREFIX.conv/.bn/.relu. */
static const char *bconv(zb_t *z, const char *mod, const char *branch, const char *in, int k, int r,
                         int s, int stride, int ph, int pw)
{
    char p[48];
    if (*branch) nm(p, "%s.%s.", mod, branch);
    else nm(p, "%s.", mod);
    return conv_unit(z, p, "conv", "bn", "relu", in, k, r, s, stride, ph, pw, 1, 0);
}

static void cat(zb_t *z, const char *name, int n, char (*ins)[48])
{
    text(z, "concat name=%s in=", name);
    for (int j = 0; j < n; j++) text(z, "%s%s", j ? "," : "", ins[j]);
    text(z, "\n");
    seer_strlcpy(z->last, name, sizeof z->last);
}

static void inception_a(zb_t *z, const char *m, int pool_features)
{
    char in[48], o[4][48], a[48];
    seer_strlcpy(in, z->last, sizeof in);
    seer_strlcpy(o[0], bconv(z, m, "branch1x1", in, 64, 1, 1, 1, 0, 0), 48);
    bconv(z, m, "branch5x5_1", in, 48, 1, 1, 1, 0, 0);
    seer_strlcpy(o[1], bconv(z, m, "branch5x5_2", NULL, 64, 5, 5, 1, 2, 2), 48);
    bconv(z, m, "branch3x3dbl_1", in, 64, 1, 1, 1, 0, 0);
    bconv(z, m, "branch3x3dbl_2", NULL, 96, 3, 3, 1, 1, 1);
    seer_strlcpy(o[2], bconv(z, m, "branch3x3dbl_3", NULL, 96, 3, 3, 1, 1, 1), 48);
    L(z, "pool", nm(a, "%s.branch_pool.avg", m), in, "avg size=3 stride=1 pad=1");
    seer_strlcpy(o[3], bconv(z, m, "branch_pool", NULL, pool_features, 1, 1, 1, 0, 0), 48);
    cat(z, nm(a, "%s.cat", m), 4, o);
}

static void inception_b(zb_t *z, const char *m)
{
    char in[48], o[3][48], a[48];
    seer_strlcpy(in, z->last, sizeof in);
    seer_strlcpy(o[0], bconv(z, m, "branch3x3", in, 384, 3, 3, 2, 0, 0), 48);
    bconv(z, m, "branch3x3dbl_1", in, 64, 1, 1, 1, 0, 0);
    bconv(z, m, "branch3x3dbl_2", NULL, 96, 3, 3, 1, 1, 1);
    seer_strlcpy(o[1], bconv(z, m, "branch3x3dbl_3", NULL, 96, 3, 3, 2, 0, 0), 48);
    L(z, "pool", nm(o[2], "%s.branch_pool", m), in, "max size=3 stride=2");
    cat(z, nm(a, "%s.cat", m), 3, o);
}

static void inception_c(zb_t *z, const char *m, int c7)
{
    char in[48], o[4][48], a[48];
    seer_strlcpy(in, z->last, sizeof in);
    seer_strlcpy(o[0], bconv(z, m, "branch1x1", in, 192, 1, 1, 1, 0, 0), 48);
    bconv(z, m, "branch7x7_1", in, c7, 1, 1, 1, 0, 0);
    bconv(z, m, "branch7x7_2", NULL, c7, 1, 7, 1, 0, 3);
    seer_strlcpy(o[1], bconv(z, m, "branch7x7_3", NULL, 192, 7, 1, 1, 3, 0), 48);
    bconv(z, m, "branch7x7dbl_1", in, c7, 1, 1, 1, 0, 0);
    bconv(z, m, "branch7x7dbl_2", NULL, c7, 7, 1, 1, 3, 0);
    bconv(z, m, "branch7x7dbl_3", NULL, c7, 1, 7, 1, 0, 3);
    bconv(z, m, "branch7x7dbl_4", NULL, c7, 7, 1, 1, 3, 0);
    seer_strlcpy(o[2], bconv(z, m, "branch7x7dbl_5", NULL, 192, 1, 7, 1, 0, 3), 48);
    L(z, "pool", nm(a, "%s.branch_pool.avg", m), in, "avg size=3 stride=1 pad=1");
    seer_strlcpy(o[3], bconv(z, m, "branch_pool", NULL, 192, 1, 1, 1, 0, 0), 48);
    cat(z, nm(a, "%s.cat", m), 4, o);
}

static void inception_d(zb_t *z, const char *m)
{
    char in[48], o[3][48], a[48];
    seer_strlcpy(in, z->last, sizeof in);
    bconv(z, m, "branch3x3_1", in, 192, 1, 1, 1, 0, 0);
    seer_strlcpy(o[0], bconv(z, m, "branch3x3_2", NULL, 320, 3, 3, 2, 0, 0), 48);
    bconv(z, m, "branch7x7x3_1", in, 192, 1, 1, 1, 0, 0);
    bconv(z, m, "branch7x7x3_2", NULL, 192, 1, 7, 1, 0, 3);
    bconv(z, m, "branch7x7x3_3", NULL, 192, 7, 1, 1, 3, 0);
    seer_strlcpy(o[1], bconv(z, m, "branch7x7x3_4", NULL, 192, 3, 3, 2, 0, 0), 48);
    L(z, "pool", nm(o[2], "%s.branch_pool", m), in, "max size=3 stride=2");
    cat(z, nm(a, "%s.cat", m), 3, o);
}

static void inception_e(zb_t *z, const char *m)
{
    char in[48], o[4][48], two[2][48], a[48], mid[48];
    seer_strlcpy(in, z->last, sizeof in);
    seer_strlcpy(o[0], bconv(z, m, "branch1x1", in, 320, 1, 1, 1, 0, 0), 48);
    seer_strlcpy(mid, bconv(z, m, "branch3x3_1", in, 384, 1, 1, 1, 0, 0), 48);
    seer_strlcpy(two[0], bconv(z, m, "branch3x3_2a", mid, 384, 1, 3, 1, 0, 1), 48);
    seer_strlcpy(two[1], bconv(z, m, "branch3x3_2b", mid, 384, 3, 1, 1, 1, 0), 48);
    cat(z, nm(o[1], "%s.branch3x3.cat", m), 2, two);
    bconv(z, m, "branch3x3dbl_1", in, 448, 1, 1, 1, 0, 0);
    seer_strlcpy(mid, bconv(z, m, "branch3x3dbl_2", NULL, 384, 3, 3, 1, 1, 1), 48);
    seer_strlcpy(two[0], bconv(z, m, "branch3x3dbl_3a", mid, 384, 1, 3, 1, 0, 1), 48);
    seer_strlcpy(two[1], bconv(z, m, "branch3x3dbl_3b", mid, 384, 3, 1, 1, 1, 0), 48);
    cat(z, nm(o[2], "%s.branch3x3dbl.cat", m), 2, two);
    L(z, "pool", nm(a, "%s.branch_pool.avg", m), in, "avg size=3 stride=1 pad=1");
    seer_strlcpy(o[3], bconv(z, m, "branch_pool", NULL, 192, 1, 1, 1, 0, 0), 48);
    cat(z, nm(a, "%s.cat", m), 4, o);
}

static void inception_v3(zb_t *z)
{
    bconv(z, "Conv2d_1a_3x3", "", NULL, 32, 3, 3, 2, 0, 0);
    bconv(z, "Conv2d_2a_3x3", "", NULL, 32, 3, 3, 1, 0, 0);
    bconv(z, "Conv2d_2b_3x3", "", NULL, 64, 3, 3, 1, 1, 1);
    L(z, "pool", "maxpool1", NULL, "max size=3 stride=2");
    bconv(z, "Conv2d_3b_1x1", "", NULL, 80, 1, 1, 1, 0, 0);
    bconv(z, "Conv2d_4a_3x3", "", NULL, 192, 3, 3, 1, 0, 0);
    L(z, "pool", "maxpool2", NULL, "max size=3 stride=2");
    inception_a(z, "Mixed_5b", 32);
    inception_a(z, "Mixed_5c", 64);
    inception_a(z, "Mixed_5d", 64);
    inception_b(z, "Mixed_6a");
    inception_c(z, "Mixed_6b", 128);
    inception_c(z, "Mixed_6c", 160);
    inception_c(z, "Mixed_6d", 160);
    inception_c(z, "Mixed_6e", 192);
    inception_d(z, "Mixed_7a");
    inception_e(z, "Mixed_7b");
    inception_e(z, "Mixed_7c");
    L(z, "pool", "avgpool", NULL, "avg global");
    L(z, "dropout", "dropout", NULL, "p=0.5");
    L(z, "flatten", "flatten", NULL, NULL);
    classifier_tail(z, 1000);
}

/* ------------------------------------------------------------------ */

/* ---- ConvNeXt-T ---------------------------------------------------- */

/* torchvision's convnext_tiny: a 4x4 stride-4 stem with LayerNorm2d, four
 * stages of blocks (depthwise 7x7, layer norm, Linear 4x wider, GELU,
 * Linear back, layer scale (learnable), stochastic depth, residual add) with
 * LayerNorm2d + 2x2 stride-2 downsampling between, then global pool,
 * layer norm, flatten, Linear.  Stochastic depth (a per-sample mask,
 * probability 0.1 * block / 17; none in the first block) runs in
 * training only, as dropout does: it is written as a dropout layer,
 * whose cost (x, y and a byte mask) over-counts its N-byte mask. */
static void convnext_tiny(zb_t *z)
{
    static const int depth[4] = {3, 3, 9, 3}, dim[4] = {96, 192, 384, 768};
    char p[48], in[48], a[48];
    int block = 0;
    conv_unit(z, "features.0.", "0", NULL, NULL, NULL, dim[0], 4, 4, 4, 0, 0, 1, 1);
    L(z, "layernorm", "features.0.1", NULL, NULL);
    for (int s = 0; s < 4; s++) {
        if (s > 0) {
            L(z, "layernorm", nm(a, "features.%d.0", 2 * s), NULL, NULL);
            conv_unit(z, nm(p, "features.%d.", 2 * s), "1", NULL, NULL, NULL, dim[s], 2, 2, 2, 0, 0, 1, 1);
        }
        for (int i = 0; i < depth[s]; i++) {
            nm(p, "features.%d.%d.block.", 2 * s + 1, i);
            seer_strlcpy(in, z->last, sizeof in);
            conv_unit(z, p, "0", NULL, NULL, NULL, dim[s], 7, 7, 1, 3, 3, dim[s], 1); /* depthwise */
            L(z, "layernorm", nm(a, "%s2", p), NULL, NULL);
            L(z, "fc", nm(a, "%s3", p), NULL, "k=%d pointwise=1", 4 * dim[s]);
            L(z, "gelu", nm(a, "%s4", p), NULL, NULL);
            L(z, "fc", nm(a, "%s5", p), NULL, "k=%d pointwise=1", dim[s]);
            L(z, "scale", nm(a, "features.%d.%d.layer_scale", 2 * s + 1, i), NULL, "learnable=1");
            if (block)
                L(z, "dropout", nm(a, "features.%d.%d.stochastic_depth", 2 * s + 1, i), NULL, "p=%.6g",
                  0.1 * block / 17);
            block++;
            char last[48];
            seer_strlcpy(last, z->last, sizeof last);
            L(z, "add", nm(a, "features.%d.%d.add", 2 * s + 1, i), NULL, "in=%s,%s", last, in);
        }
    }
    L(z, "pool", "avgpool", NULL, "avg global");
    L(z, "layernorm", "classifier.0", NULL, NULL);
    L(z, "flatten", "classifier.1", NULL, NULL);
    L(z, "fc", "classifier.2", NULL, "k=1000");
    L(z, "softmax", "loss", NULL, NULL);
}

static void resnet18(zb_t *z) { static const int b[4] = {2, 2, 2, 2}; resnet(z, 0, b); }
static void resnet50(zb_t *z) { static const int b[4] = {3, 4, 6, 3}; resnet(z, 1, b); }
static void resnet101(zb_t *z) { static const int b[4] = {3, 4, 23, 3}; resnet(z, 1, b); }

static const struct {
    const char *name;
    int res;
    void (*gen)(zb_t *);
} zoo[] = {
    {"alexnet", 224, alexnet},
    {"vgg16", 224, vgg16},
    {"resnet18", 224, resnet18},
    {"resnet50", 224, resnet50},
    {"resnet101", 224, resnet101},
    {"inception_v3", 299, inception_v3},
    {"mobilenet_v2", 224, mobilenet_v2},
    {"densenet121", 224, densenet121},
    {"convnext_tiny", 224, convnext_tiny},
};

const char *seer_network_zoo_name(int i)
{
    return i >= 0 && i < (int)(sizeof zoo / sizeof *zoo) ? zoo[i].name : NULL;
}

seer_status_t seer_zoo_text(seer_handle_t h, const char *name, int res, char **out, size_t *len)
{
    int i, n = (int)(sizeof zoo / sizeof *zoo);
    for (i = 0; i < n && !seer_streq_ci(name, zoo[i].name); i++) {}
    if (i == n) {
        char known[256] = "";
        for (int j = 0; j < n; j++) {
            strncat(known, j ? ", " : "", sizeof known - strlen(known) - 1);
            strncat(known, zoo[j].name, sizeof known - strlen(known) - 1);
        }
        char shown[48];
        seer_strlcpy(shown, name, sizeof shown);
        for (char *p = shown; *p; p++) if (*p < 32 || *p > 126) *p = '?';
        return seer_error(h, SEER_STATUS_UNKNOWN_NETWORK, "unknown network '%s' (built in: %s)", shown, known);
    }
    if (res < 0 || res > SEER_NET_MAX_DIM)
        return seer_error(h, SEER_STATUS_BAD_SHAPE, "resolution must be in [1, 2^24], or 0 for the "
                          "network's own (got %d)", res);
    if (!res) res = zoo[i].res;
    zb_t z;
    memset(&z, 0, sizeof z);
    text(&z, "# %s at %dx%d, generated by libseer %s (torchvision's layer names)\n", zoo[i].name,
         res, res, SEER_VERSION_STRING);
    text(&z, "network name=%s\n", zoo[i].name);
    L(&z, "input", "data", NULL, "c=3 h=%d w=%d", res, res);
    zoo[i].gen(&z);
    if (z.oom) {
        free(z.s);
        return seer_error(h, SEER_STATUS_ALLOC_FAILED, "network text");
    }
    *out = z.s;
    *len = z.n;
    return SEER_STATUS_SUCCESS;
}
