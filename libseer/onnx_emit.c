/* ONNX import, nodes into description lines (onnx_ctx.h): each node, in
 * topological order, gets its output's shape inferred and becomes one
 * layer line of docs/networks.md (conv, pool, fc, add, ...), a view of
 * its input's layer (Reshape, Squeeze, Identity), a folded constant, a
 * fusion with its neighbour (MatMul + Add, Sigmoid + Mul), or an
 * unsupported node recorded for the error or the skip comment. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "common.h"
#include "net.h"
#include "onnx_ctx.h"

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

/* Strides, dilations and pads (begin H, begin W, end H, end W; auto_pad
 * VALID: none) of a Conv, ConvTranspose or pool window of k as node n
 * gives them; 1 when each is in range, 0 with why filled.  Shared, so
 * that a transposed convolution refuses what a convolution does. */
static int window_attrs(const SeerOnnx__NodeProto *n, const int64_t k[2], int64_t st[2], int64_t dil[2], int64_t p[4],
                        char *why, size_t wsize)
{
    p[0] = p[1] = p[2] = p[3] = 0;
    st[0] = st[1] = dil[0] = dil[1] = 1;
    int np = seer_onnx_attr_ints(n, "pads", p, 4);
    if (seer_onnx_attr_ints(n, "strides", st, 2) > 2 || seer_onnx_attr_ints(n, "dilations", dil, 2) > 2 || np > 4) {
        snprintf(why, wsize, "a window over more than 2 dimensions");
        return 0;
    }
    if (np > 0 && np != 4) {
        snprintf(why, wsize, "%d pads for a 2-D window (4: both sides of each axis)", np);
        return 0;
    }
    /* in range, every sum below stays far from overflow */
    for (int i = 0; i < 4; i++)
        if ((i < 2 && (st[i] < 1 || dil[i] < 1 || k[i] < 1 || st[i] > SEER_NET_MAX_DIM || dil[i] > SEER_NET_MAX_DIM ||
                       k[i] > SEER_NET_MAX_DIM)) ||
            p[i] < 0 || p[i] > SEER_NET_MAX_DIM) {
            snprintf(why, wsize, "a stride or dilation below 1, a negative pad, or a window size over 2^24");
            return 0;
        }
    if (seer_onnx_attr_str_is(n, "auto_pad", "VALID")) p[0] = p[1] = p[2] = p[3] = 0;
    return 1;
}

/* Strides, dilations and symmetric pads of a Conv / pool window over the
 * input x (N x C x H x W); 1 when expressible, 0 with why filled.  cuDNN
 * pads both sides alike: an asymmetric padding (TensorFlow's SAME at an
 * even stride, as tf2onnx writes it) is costed as the symmetric one of
 * its total, rounded down or up, that gives the same output size (the
 * framework's copy of a padded input is not costed).  One no symmetric
 * padding matches gives 2, with the four pads (begin h w, end h w) in p. */
static int window(const SeerOnnx__NodeProto *n, const tensor_t *x, const int64_t k[2], int64_t st[2], int64_t dil[2],
                  int64_t pad[2], int64_t p[4], char *why, size_t wsize)
{
    if (!window_attrs(n, k, st, dil, p, why, wsize)) return 0;
    int upper = seer_onnx_attr_str_is(n, "auto_pad", "SAME_UPPER"), lower = seer_onnx_attr_str_is(n, "auto_pad", "SAME_LOWER");
    if (upper || lower)
        for (int i = 0; i < 2; i++) {
            int64_t in = x->d[2 + i], out = (in + st[i] - 1) / st[i];
            int64_t total = (out - 1) * st[i] + (k[i] - 1) * dil[i] + 1 - in;
            if (total < 0) total = 0;
            p[i] = upper ? total / 2 : total - total / 2;
            p[i + 2] = total - p[i];
        }
    int cm = (int)seer_onnx_attr_int(n, "ceil_mode", 0);
    for (int i = 0; i < 2; i++) {
        pad[i] = p[i];
        if (p[i] == p[i + 2]) continue;
        int64_t total = p[i] + p[i + 2], span = (k[i] - 1) * dil[i] + 1, in = x->d[2 + i];
        int64_t want = in + total < span ? 0 : (in + total - span + (cm ? st[i] - 1 : 0)) / st[i] + 1;
        if (cm && want > 1 && (want - 1) * st[i] >= in + p[i]) want--; /* no window starts in the end padding */
        pad[i] = total / 2;
        if (want && win_out(in, pad[i], span, st[i], cm) != want) pad[i] = total - total / 2;
        if (!want || win_out(in, pad[i], span, st[i], cm) != want) {
            snprintf(why, wsize, "asymmetric padding (%lld, %lld, %lld, %lld) that no symmetric one matches in "
                     "output size", (long long)p[0], (long long)p[1], (long long)p[2], (long long)p[3]);
            return 2;
        }
    }
    return 1;
}

/* An operator that reads axis 1 as the channels, given a channels-last
 * view (x->nhwc): its translation would read H as C. */
#define CHANNELS_LAST "an operator over N x C x H x W given a channels-last (permuted) view"

static seer_status_t copy_shape(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *o, const tensor_t *x)
{
    seer_status_t st = seer_onnx_set_dims(cx, n, o, x->rank, x->d);
    o->nhwc = x->nhwc; /* element-wise ops keep a permuted view's order */
    return st;
}

/* A conv whose batch norm a torch.onnx export folded into it (eval
 * mode; torch.export's exporter in training mode too):
 * the folded weight and bias are new initializers, both named
 * "onnx::Conv_N" by the TorchScript-based exporter, the bias named after
 * the weight, "W_bias", by torch.export's (onnxscript's
 * FuseBatchNormIntoConv, for a conv without a bias of its own, as every
 * torchvision conv before a batch norm).  A parameter keeps its module's
 * name ("conv1.weight", "conv1.bias") in either exporter otherwise.  The
 * names are what tells: constants, through the Identity nodes that share
 * equal initializers, not only initializers. */
static int bn_folded_names(const tensor_t *w, const tensor_t *b)
{
    static const char ts[] = "onnx::Conv_";
    if (!b || !w->is_const || !b->is_const || !w->name || !b->name) return 0;
    if (!strncmp(w->name, ts, sizeof ts - 1) && !strncmp(b->name, ts, sizeof ts - 1)) return 1;
    size_t k = strlen(w->name);
    return !strncmp(b->name, w->name, k) && !strcmp(b->name + k, "_bias");
}

/* Whether entry e is key with a value that contains needle. */
static int meta_is(const SeerOnnx__StringStringEntryProto *e, const char *key, const char *needle)
{
    return e && e->key && e->value && !strcmp(e->key, key) && strstr(e->value, needle);
}

/* Whether node n's metadata (NodeProto.metadata_props, field 9 since
 * ONNX 1.16) has key with a value containing needle.  Debian's
 * onnx.proto (1.12) lacks the field, so protobuf-c keeps it among the
 * node's unknown fields, each unpacked here as the StringStringEntryProto
 * it is; a newer onnx.proto (make ONNX_PROTO=) has it as a field, read
 * through the descriptor. */
static int node_meta_has(const SeerOnnx__NodeProto *n, const char *key, const char *needle)
{
    enum { METADATA_PROPS = 9 };
    const ProtobufCFieldDescriptor *f = protobuf_c_message_descriptor_get_field(n->base.descriptor, METADATA_PROPS);
    if (f && f->label == PROTOBUF_C_LABEL_REPEATED && f->type == PROTOBUF_C_TYPE_MESSAGE &&
        f->descriptor == &seer_onnx__string_string_entry_proto__descriptor) {
        size_t cnt = *(const size_t *)(const void *)((const char *)n + f->quantifier_offset);
        SeerOnnx__StringStringEntryProto *const *e =
            *(SeerOnnx__StringStringEntryProto *const *const *)(const void *)((const char *)n + f->offset);
        for (size_t i = 0; i < cnt; i++)
            if (meta_is(e[i], key, needle)) return 1;
        return 0;
    }
    for (unsigned i = 0; i < n->base.n_unknown_fields; i++) {
        const ProtobufCMessageUnknownField *u = &n->base.unknown_fields[i];
        if (u->tag != METADATA_PROPS || u->wire_type != PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED) continue;
        /* protobuf-c keeps a length-delimited unknown field with its
         * varint length in front: the entry is what follows it */
        size_t at = 0, len = 0;
        for (int shift = 0; at < u->len && shift < 64; shift += 7) {
            len |= (size_t)(u->data[at] & 0x7f) << shift;
            if (!(u->data[at++] & 0x80)) break;
        }
        if (at > u->len || len != u->len - at) continue;
        SeerOnnx__StringStringEntryProto *e = seer_onnx__string_string_entry_proto__unpack(NULL, len, u->data + at);
        int hit = meta_is(e, key, needle);
        if (e) seer_onnx__string_string_entry_proto__free_unpacked(e, NULL);
        if (hit) return 1;
    }
    return 0;
}

/* The batch norm folded into conv n, by its weight's and bias's names
 * (above) or by torch.export's record of the rewrite in the node's
 * metadata, which also tells a conv whose folded bias came out all zeros
 * (an untrained model's) and was dropped: 0 none, 1 by names, 2 by the
 * metadata. */
static int bn_folded(const SeerOnnx__NodeProto *n, const tensor_t *w, const tensor_t *b)
{
    if (bn_folded_names(w, b)) return 1;
    return node_meta_has(n, "pkg.onnxscript.rewriter.rule_name", "FuseBatchNormIntoConv") ? 2 : 0;
}

/* What a Conv and a ConvTranspose check alike, before their weights'
 * layouts differ: a data input with 2 spatial axes (another rank, or a
 * channels-last view: unsupported, *wp NULL), and a 4-D weight whose dims
 * (layout, for messages) are at least 1 and whose window kernel_shape
 * agrees with.  Here, not at the description's parser: its message would
 * give a line of the translated text, not the tensor of the file. */
static seer_status_t conv_weight(cx_t *cx, const SeerOnnx__NodeProto *n, const tensor_t *x, const char *what,
                                 const char *layout, tensor_t **wp)
{
    seer_status_t st;
    char why[96], wb[72];
    *wp = NULL;
    /* before need_data, which refuses a 5-D view (a 3-D convolution's
     * input) as an error: the operator is what is unsupported */
    if (x && x->layer >= 0 && x->rank != 4) {
        snprintf(why, sizeof why, "%s over other than 2 spatial dimensions", what);
        return seer_onnx_unsupported(cx, n, why);
    }
    if ((st = seer_onnx_need_data(cx, n, x, 0))) return st;
    if (x->nhwc) return seer_onnx_unsupported(cx, n, CHANNELS_LAST);
    tensor_t *w = seer_onnx_input(cx, n, 1);
    if (!w || !w->known || w->rank != 4)
        return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "the weight's shape is not known (a 4-D constant expected)");
    const int64_t *d = w->d;
    if (d[0] < 1 || d[1] < 1 || d[2] < 1 || d[3] < 1)
        return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "weight '%s' is %lldx%lldx%lldx%lld (%s: each at least 1)",
                              seer_onnx_show(w->name, wb, sizeof wb), (long long)d[0], (long long)d[1], (long long)d[2],
                              (long long)d[3], layout);
    int64_t kk[2];
    if (seer_onnx_attr_ints(n, "kernel_shape", kk, 2) == 2 && (kk[0] != d[2] || kk[1] != d[3]))
        return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "kernel_shape %lldx%lld differs from the weight's %lldx%lld",
                              (long long)kk[0], (long long)kk[1], (long long)d[2], (long long)d[3]);
    *wp = w;
    return SEER_STATUS_SUCCESS;
}

/* A weight w whose channels do not fit the input's c with group g. */
static seer_status_t weight_misfit(cx_t *cx, const SeerOnnx__NodeProto *n, const tensor_t *w, int64_t g, int64_t c)
{
    return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "weight %lldx%lldx%lldx%lld with group %lld does not fit %lld "
                          "input channels", (long long)w->d[0], (long long)w->d[1], (long long)w->d[2],
                          (long long)w->d[3], (long long)g, (long long)c);
}

/* A Conv's or ConvTranspose's optional bias (input 2, *bp NULL when
 * absent): one value per output channel, of K (onnxruntime refuses
 * others). */
static seer_status_t conv_bias(cx_t *cx, const SeerOnnx__NodeProto *n, int64_t K, tensor_t **bp)
{
    char wb[72];
    tensor_t *b = *bp = seer_onnx_input(cx, n, 2);
    if (b && b->known && b->rank != 1)
        return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "bias '%s' is %d-D, not one value per output channel (%lld)",
                              seer_onnx_show(b->name, wb, sizeof wb), b->rank, (long long)K);
    if (b && b->known && b->d[0] != K)
        return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "bias '%s' has %lld values for %lld output channels",
                              seer_onnx_show(b->name, wb, sizeof wb), (long long)b->d[0], (long long)K);
    return SEER_STATUS_SUCCESS;
}

/* The options a conv and a deconv line share (docs/networks.md), each
 * left out at its default, as the parser reads them. */
static void conv_options(cx_t *cx, int64_t K, const tensor_t *w, const int64_t st[2], const int64_t pad[2],
                         const int64_t dil[2], int64_t g)
{
    seer_onnx_emit(cx, " k=%lld", (long long)K);
    seer_onnx_pair_opt(cx, "size", "r", "s", w->d[2], w->d[3], -1);
    seer_onnx_pair_opt(cx, "stride", "stride_h", "stride_w", st[0], st[1], 1);
    seer_onnx_pair_opt(cx, "pad", "pad_h", "pad_w", pad[0], pad[1], 0);
    seer_onnx_pair_opt(cx, "dil", "dil_h", "dil_w", dil[0], dil[1], 1);
    if (g != 1) seer_onnx_emit(cx, " groups=%lld", (long long)g);
}

/* A pad layer "NODE.pad" of x by p (begin h w, end h w) in o, which
 * *padded copies to stand as the next layer's input (o is its output). */
static seer_status_t pad_layer(cx_t *cx, const SeerOnnx__NodeProto *n, const tensor_t *x, tensor_t *o,
                               const int64_t p[4], tensor_t *padded)
{
    char base[64];
    int64_t d[4] = {x->d[0], x->d[1], x->d[2] + p[0] + p[2], x->d[3] + p[1] + p[3]};
    seer_status_t st = seer_onnx_set_dims(cx, n, o, 4, d);
    if (st) return st;
    snprintf(base, sizeof base, "%.40s.pad", n->name && n->name[0] ? n->name : o->name);
    int li = seer_onnx_new_layer(cx, base, o);
    if (li < 0) return seer_error(cx->h, SEER_STATUS_ALLOC_FAILED, "out of memory");
    seer_onnx_emit(cx, "pad name=%s in=%s h=%lld w=%lld\n", cx->L[li].name, cx->L[x->layer].name, (long long)d[2],
                   (long long)d[3]);
    *padded = *o; /* its layer and dims: what a layer line reads of an input */
    return SEER_STATUS_SUCCESS;
}

static seer_status_t do_conv(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o)
{
    seer_status_t st;
    char why[200];
    tensor_t *w, *b;
    if ((st = conv_weight(cx, n, x, "a convolution", "K x C/group x R x S", &w)) || !w) return st;
    int64_t g = seer_onnx_attr_int(n, "group", 1), K = w->d[0], R = w->d[2], S = w->d[3], ks[2] = {R, S};
    int64_t s2[2], dil[2], pad[2], p4[4];
    /* g at most the channels first: the product cannot overflow */
    if (g < 1 || g > x->d[1] || w->d[1] * g != x->d[1] || K % g) return weight_misfit(cx, n, w, g, x->d[1]);
    if ((st = conv_bias(cx, n, K, &b))) return st;
    int win = window(n, x, ks, s2, dil, pad, p4, why, sizeof why);
    if (!win) return seer_onnx_unsupported(cx, n, why);
    tensor_t padded;
    if (win == 2) {
        /* padding no symmetric one matches (torch.export folds F.pad(x,
         * (0, 1, 0, 1)) into the conv after it): the padded copy the
         * framework makes, as a pad layer, then the conv without padding */
        if ((st = pad_layer(cx, n, x, o, p4, &padded))) return st;
        x = &padded;
        pad[0] = pad[1] = 0;
    }
    int64_t d[4] = {x->d[0], K, win_out(x->d[2], pad[0], dil[0] * (R - 1) + 1, s2[0], 0),
                    win_out(x->d[3], pad[1], dil[1] * (S - 1) + 1, s2[1], 0)};
    if (d[2] < 1 || d[3] < 1)
        return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "the %lldx%lld window does not fit the %lldx%lld input",
                              (long long)R, (long long)S, (long long)x->d[2], (long long)x->d[3]);
    if ((st = seer_onnx_set_dims(cx, n, o, 4, d)) || (st = seer_onnx_layer_line(cx, n, o, "conv", &x, 1))) return st;
    conv_options(cx, K, w, s2, pad, dil, g);
    int folded = bn_folded(n, w, b);
    if (!folded) {
        if (b) seer_onnx_emit(cx, " bias=1");
        seer_onnx_emit(cx, "\n");
        return SEER_STATUS_SUCCESS;
    }
    /* PyTorch runs the batch norm apart (eager inference) and training
     * needs it: the conv without the bias the folding made (torchvision's
     * convs before a batch norm have none), then the batch norm, so the
     * parameters are the module's again */
    char wn[72], wb[72], bname[64];
    int conv = o->layer;
    if (folded == 1)
        seer_onnx_emit(cx, "\n# unfolded: a batch norm folded into conv '%s' by the exporter (weight '%s', bias '%s')\n",
                       cx->L[conv].name, seer_onnx_show(w->name, wn, sizeof wn), seer_onnx_show(b->name, wb, sizeof wb));
    else
        seer_onnx_emit(cx, "\n# unfolded: a batch norm folded into conv '%s' by the exporter (its metadata: "
                       "FuseBatchNormIntoConv)\n", cx->L[conv].name);
    snprintf(bname, sizeof bname, "%s.bn", cx->L[conv].name);
    if (seer_onnx_new_layer(cx, bname, o) < 0) return seer_error(cx->h, SEER_STATUS_ALLOC_FAILED, "out of memory");
    seer_onnx_emit(cx, "bn name=%s in=%s\n", cx->L[o->layer].name, cx->L[conv].name);
    return SEER_STATUS_SUCCESS;
}

/* Symmetric pad and output padding of one axis of a transposed
 * convolution whose ONNX padding totals total (begin + end, or what
 * output_shape or auto_pad SAME leave) with output_padding opad: its
 * output, (in - 1) stride + span + opad - total, is (in - 1) stride +
 * span - 2 pad + outpad.  cuDNN pads both sides alike (as for Conv): an
 * odd total is rounded up, the extra row given back as output padding,
 * else down, taken from the file's; a negative one (an output_shape past
 * the full output) is all output padding.  1 when outpad is below limit
 * (the stride: net_parse.c), else 0. */
static int deconv_axis(int64_t total, int64_t opad, int64_t limit, int64_t *pad, int64_t *outpad)
{
    int64_t p = total > 0 ? (total + 1) / 2 : 0, op = opad + 2 * p - total;
    if (op >= limit && total > 0 && total % 2) p--, op -= 2;
    *pad = p;
    *outpad = op;
    return op >= 0 && op < limit;
}

/* A ConvTranspose (nn.ConvTranspose2d) as a deconv line: weight C x K/group
 * x R x S, the output size from pads, output_shape or auto_pad as ONNX
 * defines it, then written as PyTorch's symmetric pad and output padding
 * (deconv_axis). */
static seer_status_t do_deconv(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o)
{
    seer_status_t st;
    char why[200];
    tensor_t *w, *b;
    if ((st = conv_weight(cx, n, x, "a transposed convolution", "C x K/group x R x S", &w)) || !w) return st;
    int64_t g = seer_onnx_attr_int(n, "group", 1), C = x->d[1];
    if (g < 1 || g > C || C % g || w->d[0] != C) return weight_misfit(cx, n, w, g, C);
    int64_t K = w->d[1] * g, ks[2] = {w->d[2], w->d[3]}, s2[2], dil[2], p[4], opad[2] = {0, 0}, shape[2];
    if ((st = conv_bias(cx, n, K, &b))) return st;
    if (!window_attrs(n, ks, s2, dil, p, why, sizeof why)) return seer_onnx_unsupported(cx, n, why);
    int nop = seer_onnx_attr_ints(n, "output_padding", opad, 2), nsh = seer_onnx_attr_ints(n, "output_shape", shape, 2);
    /* reading at most 2, seer_onnx_attr_ints answers 3 for any more */
    if (nop >= 0 && nop != 2) {
        snprintf(why, sizeof why, "output_padding of %s sizes for a 2-D window", nop > 2 ? "more than 2" : "1");
        return seer_onnx_unsupported(cx, n, why);
    }
    if (nsh >= 0 && nsh != 2) {
        snprintf(why, sizeof why, "output_shape of %s sizes for a 2-D window (2: H and W)",
                 nsh > 2 ? "more than 2" : "1");
        return seer_onnx_unsupported(cx, n, why);
    }
    if (opad[0] < 0 || opad[1] < 0 || opad[0] > SEER_NET_MAX_DIM || opad[1] > SEER_NET_MAX_DIM)
        return seer_onnx_unsupported(cx, n, "an output_padding below 0 or over 2^24");
    int same = seer_onnx_attr_str_is(n, "auto_pad", "SAME_UPPER") || seer_onnx_attr_str_is(n, "auto_pad", "SAME_LOWER");
    int64_t full[2], pad[2], outpad[2], d[4] = {x->d[0], K, 0, 0};
    for (int i = 0; i < 2; i++) {
        int64_t in = x->d[2 + i];
        full[i] = (in - 1) * s2[i] + (ks[i] - 1) * dil[i] + 1 + opad[i];
        /* output_shape wins over auto_pad, which wins over pads; what
         * they leave of the full output is the total padding */
        d[2 + i] = nsh == 2 ? shape[i] : same ? in * s2[i] : full[i] - p[i] - p[i + 2];
        if (d[2 + i] < 1)
            return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "the output would be empty (%s %lld of the %lldx%lld "
                                  "input)", nsh == 2 ? "output_shape" : "size", (long long)d[2 + i], (long long)x->d[2],
                                  (long long)x->d[3]);
    }
    /* sizes over the limits refused before the padding is derived from them */
    if ((st = seer_onnx_set_dims(cx, n, o, 4, d))) return st;
    for (int i = 0; i < 2; i++)
        if (!deconv_axis(full[i] - d[2 + i], opad[i], s2[i], &pad[i], &outpad[i])) {
            snprintf(why, sizeof why, "no symmetric pad gives output size %lld with an output padding below the "
                     "stride (pads %lld, %lld)", (long long)d[2 + i], (long long)p[i], (long long)p[i + 2]);
            return seer_onnx_unsupported(cx, n, why);
        }
    if ((st = seer_onnx_layer_line(cx, n, o, "deconv", &x, 1))) return st;
    conv_options(cx, K, w, s2, pad, dil, g);
    if (b) seer_onnx_emit(cx, " bias=1");
    seer_onnx_pair_opt(cx, "outpad", "outpad_h", "outpad_w", outpad[0], outpad[1], 0);
    seer_onnx_emit(cx, "\n");
    return SEER_STATUS_SUCCESS;
}

static seer_status_t do_pool(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o, int max)
{
    seer_status_t st;
    char why[200];
    int64_t k[2], s2[2], dil[2], pad[2];
    if ((st = seer_onnx_need_data(cx, n, x, 0))) return st;
    if (x->rank != 4) return seer_onnx_unsupported(cx, n, "pooling over other than 2 spatial dimensions");
    if (x->nhwc) return seer_onnx_unsupported(cx, n, CHANNELS_LAST);
    if (seer_onnx_attr_ints(n, "kernel_shape", k, 2) != 2 || k[0] < 1 || k[1] < 1)
        return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "kernel_shape must list 2 sizes >= 1");
    int64_t p4[4];
    int win = window(n, x, k, s2, dil, pad, p4, why, sizeof why);
    int ceil_mode = seer_onnx_attr_int(n, "ceil_mode", 0) != 0;
    /* (ceil_mode drops a window that starts in the end padding, which a
     * pool over the padded copy cannot tell from the input) */
    if (!win || (win == 2 && ceil_mode)) return seer_onnx_unsupported(cx, n, why);
    if (dil[0] != 1 || dil[1] != 1) return seer_onnx_unsupported(cx, n, "dilated pooling");
    tensor_t padded;
    if (win == 2) {
        /* padding no symmetric one matches (Darknet's and TensorFlow's SAME
         * 2 x 2 max pool at stride 1, tiny-YOLOv2's: 0 before, 1 after):
         * the padded copy a framework makes, then the pool without it */
        if ((st = pad_layer(cx, n, x, o, p4, &padded))) return st;
        x = &padded;
        pad[0] = pad[1] = 0;
    }
    if (2 * pad[0] > k[0] || 2 * pad[1] > k[1]) return seer_onnx_unsupported(cx, n, "a pad over half the window");
    int64_t d[4] = {x->d[0], x->d[1], win_out(x->d[2], pad[0], k[0], s2[0], ceil_mode),
                    win_out(x->d[3], pad[1], k[1], s2[1], ceil_mode)};
    if (d[2] < 1 || d[3] < 1)
        return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "the %lldx%lld window does not fit the %lldx%lld input",
                              (long long)k[0], (long long)k[1], (long long)x->d[2], (long long)x->d[3]);
    if ((st = seer_onnx_set_dims(cx, n, o, 4, d)) || (st = seer_onnx_layer_line(cx, n, o, "pool", &x, 1))) return st;
    seer_onnx_emit(cx, " %s", max ? "max" : "avg");
    seer_onnx_pair_opt(cx, "size", "r", "s", k[0], k[1], -1);
    seer_onnx_emit(cx, " stride_h=%lld stride_w=%lld", (long long)s2[0], (long long)s2[1]);
    seer_onnx_pair_opt(cx, "pad", "pad_h", "pad_w", pad[0], pad[1], 0);
    seer_onnx_emit(cx, "%s\n", ceil_mode ? " ceil=1" : "");
    return SEER_STATUS_SUCCESS;
}

/* Whether t has readers and every one is an op node. */
static int read_only_by(const cx_t *cx, const tensor_t *t, const char *op)
{
    int seen = 0;
    for (size_t i = 0; i < cx->g->n_node; i++) {
        const SeerOnnx__NodeProto *m = cx->g->node[i];
        for (size_t k = 0; k < m->n_input; k++)
            if (!strcmp(m->input[k], t->name)) {
                if (strcmp(m->op_type, op)) return 0;
                seen = 1;
            }
    }
    return seen;
}

/* Reshape-like views: o gets dims d; a layer only when a 2-D result
 * changes the per-sample shape (flatten), else o aliases x's layer. */
static seer_status_t view(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o, int rank, const int64_t *d,
                          int force_flatten, int gathered)
{
    seer_status_t st;
    /* the batch flattened whole (torch.export's as_strided flattens before
     * a Gather of every element): a flat view, for a reshape that only
     * Gathers read (do_gather) */
    int flat = gathered && rank == 1 && x->rank >= 1 && d[0] == seer_onnx_elems(x, 0);
    if (flat) {
        if ((st = seer_onnx_set_dims(cx, n, o, rank, d))) return st;
        o->layer = x->layer;
        return SEER_STATUS_SUCCESS;
    }
    if (rank < 1 || d[0] != x->d[0])
        return seer_onnx_unsupported(cx, n, "a reshape that moves the batch dimension");
    if ((st = seer_onnx_set_dims(cx, n, o, rank, d))) return st;
    int64_t c, hh, w;
    const layer_t *l = &cx->L[x->layer];
    int same = seer_onnx_chw(o, &c, &hh, &w) && c == l->c && hh == l->h && w == l->w;
    if (rank == 2 && (force_flatten || !same)) {
        if ((st = seer_onnx_layer_line(cx, n, o, "flatten", &x, 1))) return st;
        seer_onnx_emit(cx, "\n");
        return SEER_STATUS_SUCCESS;
    }
    o->layer = x->layer;
    return SEER_STATUS_SUCCESS;
}

static seer_status_t do_reshape(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o)
{
    int64_t v[SEER_ONNX_MAX_RANK + 1], d[SEER_ONNX_MAX_RANK];
    int nv = cx->opset < 5 ? seer_onnx_attr_ints(n, "shape", v, SEER_ONNX_MAX_RANK + 1)
                           : seer_onnx_const_ints(cx, n, 1, v, SEER_ONNX_MAX_RANK + 1);
    if (nv < 0) return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "the target shape is not a constant libseer can fold");
    if (nv > SEER_ONNX_MAX_RANK) return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "target rank over %d", SEER_ONNX_MAX_RANK);
    int64_t total = seer_onnx_elems(x, 0), known = 1;
    int infer = -1;
    for (int i = 0; i < nv; i++) {
        d[i] = v[i];
        if (v[i] == 0 && !seer_onnx_attr_int(n, "allowzero", 0)) {
            if (i >= x->rank) return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "0 copies a dimension the input lacks");
            d[i] = x->d[i];
        }
        if (d[i] == -1) {
            if (infer >= 0) return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "two -1 dimensions");
            infer = i;
        } else if (d[i] < 0) {
            return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "target dimension %d is %lld", i, (long long)d[i]);
        } else if (!seer_mul_ok(known, d[i], &known)) {
            /* the product, not this dimension, is what is wrong */
            return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "the target shape's element count overflows at "
                                  "dimension %d (%lld)", i, (long long)d[i]);
        }
    }
    if (infer >= 0) {
        if (!known || total % known) return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "-1 cannot be resolved");
        d[infer] = total / known;
        known = total;
    }
    if (known != total)
        return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "target shape has %lld elements, the input %lld", (long long)known,
                              (long long)total);
    return view(cx, n, x, o, nv, d, 0, read_only_by(cx, o, "Gather"));
}

static seer_status_t do_squeeze(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o, int un)
{
    int64_t ax[SEER_ONNX_MAX_RANK + 1], d[SEER_ONNX_MAX_RANK];
    int na = cx->opset < 13 ? seer_onnx_attr_ints(n, "axes", ax, SEER_ONNX_MAX_RANK + 1)
                            : seer_onnx_const_ints(cx, n, 1, ax, SEER_ONNX_MAX_RANK + 1);
    int rank = 0, out_rank = un ? x->rank + (na > 0 ? na : 0) : x->rank;
    unsigned mark = 0;
    if (na > SEER_ONNX_MAX_RANK || (un && na < 1) || out_rank > SEER_ONNX_MAX_RANK)
        return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "axes not a constant libseer can fold");
    for (int i = 0; i < na; i++) {
        int a = seer_onnx_norm_axis(ax[i], out_rank);
        if (a < 0) return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "axis %lld out of range", (long long)ax[i]);
        if (mark >> a & 1) return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "axis %lld repeated", (long long)ax[i]);
        mark |= 1u << a;
    }
    if (un) {
        for (int i = 0, j = 0; i < out_rank; i++) d[rank++] = mark >> i & 1 ? 1 : x->d[j++];
    } else {
        for (int i = 0; i < x->rank; i++)
            if (!(na < 0 ? x->d[i] == 1 : mark >> i & 1)) d[rank++] = x->d[i];
            else if (x->d[i] != 1) return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "squeezes a dimension of size %lld",
                                                         (long long)x->d[i]);
    }
    return view(cx, n, x, o, rank, d, 0, 0);
}

static seer_status_t do_gemm(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o, int matmul,
                             int *bias_from)
{
    seer_status_t st;
    tensor_t *w = seer_onnx_input(cx, n, 1);
    if ((st = seer_onnx_need_view(cx, n, x))) return st;
    /* nn.Linear over channels-last data (N x H x W x C): one product per
     * position, a pointwise fc */
    int pointwise = matmul && x->rank == 4 && x->nhwc;
    if (x->rank != 2 && !pointwise)
        return seer_onnx_unsupported(cx, n, "a matrix product over other than 2-D (batch x features) input or "
                                            "the channels of N x H x W x C");
    if (!w || !w->is_const || !w->known || w->rank != 2)
        return seer_onnx_unsupported(cx, n, "a product with other than a constant 2-D weight");
    if (!matmul && seer_onnx_attr_int(n, "transA", 0)) return seer_onnx_unsupported(cx, n, "transA=1");
    int tb = !matmul && seer_onnx_attr_int(n, "transB", 0);
    int64_t F = w->d[tb ? 1 : 0], K = w->d[tb ? 0 : 1];
    if (F != x->d[x->rank - 1])
        return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "weight %lldx%lld does not fit %lld input features",
                              (long long)w->d[0], (long long)w->d[1], (long long)x->d[x->rank - 1]);
    if (pointwise && (st = seer_onnx_need_data(cx, n, x, 1))) return st;
    int64_t d[4] = {x->d[0], K, 0, 0};
    if (pointwise) { d[1] = x->d[1]; d[2] = x->d[2]; d[3] = K; }
    int bias = matmul ? *bias_from >= 0 : seer_onnx_input(cx, n, 2) != NULL;
    /* Gemm's C broadcasts into N x K (onnxruntime refuses others), as a
     * Conv's bias is one value per output channel */
    tensor_t *b = matmul ? NULL : seer_onnx_input(cx, n, 2);
    if (b && b->known &&
        (b->rank > 2 || (b->rank >= 1 && b->d[b->rank - 1] != 1 && b->d[b->rank - 1] != K) ||
         (b->rank == 2 && b->d[0] != 1 && b->d[0] != x->d[0]))) {
        char bb[72];
        return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "bias '%s' (%d-D, last dimension %lld) does not broadcast "
                              "to the %lld outputs", seer_onnx_show(b->name, bb, sizeof bb), b->rank,
                              (long long)(b->rank ? b->d[b->rank - 1] : 1), (long long)K);
    }
    if ((st = seer_onnx_set_dims(cx, n, o, pointwise ? 4 : 2, d))) return st;
    o->nhwc = pointwise;
    if ((st = seer_onnx_layer_line(cx, n, o, "fc", &x, 1))) return st;
    seer_onnx_emit(cx, " k=%lld%s%s\n", (long long)K, bias ? "" : " bias=0", pointwise ? " pointwise=1" : "");
    return SEER_STATUS_SUCCESS;
}

/* The only node reading tensor t, of operator op (NULL: any), and
 * which of its inputs t is; -1 when t has another number of readers. */
static int sole_reader(cx_t *cx, const tensor_t *t, const char *op, int *input)
{
    if (!t || t->readers != 1) return -1;
    for (size_t i = 0; i < cx->g->n_node; i++) {
        const SeerOnnx__NodeProto *m = cx->g->node[i];
        for (size_t k = 0; k < m->n_input; k++)
            if (!strcmp(m->input[k], t->name)) {
                *input = (int)k;
                return op && strcmp(m->op_type, op) ? -1 : (int)i;
            }
    }
    return -1;
}

/* MatMul followed by an Add of a constant [K] vector (its only reader):
 * nn.Linear exported as two nodes.  Returns the Add's node index, or -1. */
static int matmul_bias(cx_t *cx, const SeerOnnx__NodeProto *n, const tensor_t *o)
{
    int k, i = sole_reader(cx, o, "Add", &k);
    if (i < 0 || cx->g->node[i]->n_input != 2) return -1;
    tensor_t *b = seer_onnx_input(cx, cx->g->node[i], (size_t)(1 - k)), *w = seer_onnx_input(cx, n, 1);
    return b && b->is_const && b->known && w && w->known && w->rank == 2 && seer_onnx_elems(b, 0) == w->d[1] &&
                   b->rank >= 1 && b->d[b->rank - 1] == w->d[1]
               ? i
               : -1;
}

/* A gate whose only reader is Mul(x, gate(x)): SiLU (Sigmoid) and, before
 * opset 14, HardSwish (HardSigmoid) as exporters write them.  Returns the
 * Mul's node index, or -1. */
static int self_gate(cx_t *cx, const SeerOnnx__NodeProto *n, const tensor_t *o)
{
    int k, i = n->n_input ? sole_reader(cx, o, "Mul", &k) : -1;
    return i >= 0 && cx->g->node[i]->n_input == 2 && !strcmp(cx->g->node[i]->input[1 - k], n->input[0]) ? i : -1;
}

/* Whether input i of node m is a constant scalar near v.  A pattern
 * looks ahead of the topological order: a Constant node not reached yet
 * is folded now (seer_onnx_emit_node then leaves it). */
static const tensor_t *const_input(cx_t *cx, const SeerOnnx__NodeProto *m, size_t i)
{
    tensor_t *c = seer_onnx_input(cx, m, i);
    seer_status_t st;
    if (c && !c->is_const && c->producer >= 0 && !strcmp(cx->g->node[c->producer]->op_type, "Constant") &&
        (!seer_onnx_fold(cx, cx->g->node[c->producer], &st) || st)) {
        c->is_const = 0; /* its own turn reports the error */
        return NULL;
    }
    return c && c->is_const ? c : NULL;
}

static int const_near(cx_t *cx, const SeerOnnx__NodeProto *m, size_t i, double v)
{
    const tensor_t *c = const_input(cx, m, i);
    return c && c->nval == 1 && fabs(c->val[0] - v) <= 1e-3 * fabs(v);
}

/* GELU as exporters write it, x * (1 + erf(x / sqrt 2)) * 0.5:
 * Div(x, sqrt 2) -> Erf -> Add(1) -> Mul(x, .) -> Mul(0.5) (opset 17),
 * or the two products the other way round (torch.export at opset 18),
 * each the only reader of the one before.  The four nodes after the Div
 * (node ni) are fused into it; 1 when found. */
static int erf_gelu(cx_t *cx, int ni, const tensor_t *o)
{
    const SeerOnnx__NodeProto *n = cx->g->node[ni];
    int chain[4], in[4], by_x = 0; /* how many of the two products took x */
    static const char *const ops[4] = {"Erf", "Add", "Mul", "Mul"};
    const tensor_t *t = o;
    if (n->n_input != 2 || !const_near(cx, n, 1, sqrt(2.0))) return 0;
    for (int k = 0; k < 4; k++) {
        if ((chain[k] = sole_reader(cx, t, ops[k], &in[k])) < 0) return 0;
        const SeerOnnx__NodeProto *m = cx->g->node[chain[k]];
        if ((k > 0 && m->n_input != 2) || !(t = seer_onnx_output(cx, m, 0))) return 0;
        const char *other = k > 0 ? m->input[1 - in[k]] : NULL;
        if (k == 1 && !const_near(cx, m, (size_t)(1 - in[k]), 1.0)) return 0;
        if (k >= 2) {
            int x = !strcmp(other, n->input[0]);
            if (!x && !const_near(cx, m, (size_t)(1 - in[k]), 0.5)) return 0;
            by_x += x;
        }
    }
    if (by_x != 1) return 0;
    for (int k = 0; k < 4; k++) cx->alias_in[chain[k]] = in[k];
    return 1;
}

static seer_status_t simple(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o, const char *type,
                            const char *extra)
{
    seer_status_t st;
    if ((st = seer_onnx_need_data(cx, n, x, 0)) || (st = copy_shape(cx, n, o, x)) ||
        (st = seer_onnx_layer_line(cx, n, o, type, &x, 1)))
        return st;
    seer_onnx_emit(cx, "%s\n", extra);
    return SEER_STATUS_SUCCESS;
}

static seer_status_t do_clip(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o)
{
    double lo, hi;
    if (!seer_onnx_clip_bounds(cx, n, &lo, &hi)) return seer_onnx_unsupported(cx, n, "Clip bounds that are not constants");
    if (lo == 0 && hi == 6) return simple(cx, n, x, o, "relu6", "");
    if (lo == 0 && isinf(hi)) return simple(cx, n, x, o, "relu", "");
    char why[120];
    snprintf(why, sizeof why, "Clip to [%g, %g] (relu: [0, inf), relu6: [0, 6])", lo, hi);
    return seer_onnx_unsupported(cx, n, why);
}

/* The initializer t is, or is a view of: through Identity (an exporter
 * shares equal weights so), Unsqueeze and Reshape (timm's
 * gamma.reshape(1, -1, 1, 1); a pattern looking ahead of the topological
 * order meets them before they are folded); NULL when it is neither (a
 * computed constant such as stochastic depth's mask). */
static const tensor_t *weight_source(cx_t *cx, const tensor_t *t)
{
    while (t && t->producer >= 0) {
        const SeerOnnx__NodeProto *p = cx->g->node[t->producer];
        if (strcmp(p->op_type, "Identity") && strcmp(p->op_type, "Unsqueeze") && strcmp(p->op_type, "Reshape"))
            return NULL;
        t = seer_onnx_input(cx, p, 0);
    }
    return t && t->is_const ? t : NULL;
}

/* Data and a constant that broadcasts into its shape, element by element
 * (x[0] or x[1] the constant): a frozen layer scale, stochastic depth's
 * N x 1 x 1 x 1 mask in a training-mode export (whose shape folding
 * follows), a normalization's shift: a scale layer, one pass. */
static seer_status_t by_constant(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *o, tensor_t *const x[2], const char *what)
{
    seer_status_t st;
    char why[120];
    tensor_t *d = x[x[0]->is_const], *k = x[!x[0]->is_const];
    int fits = d->known && k->known && k->rank <= d->rank;
    /* before opset 7, broadcast=1 lined the constant's dimensions up
     * from the axis attribute (a caffe bias of C over N x C x H x W:
     * axis=1), not from the last */
    int at = fits ? d->rank - k->rank : 0;
    if (cx->opset < 7 && seer_onnx_attr_int(n, "broadcast", 0) && seer_onnx_attr(n, "axis")) {
        at = (int)seer_onnx_norm_axis(seer_onnx_attr_int(n, "axis", 0), d->rank);
        fits = fits && at >= 0 && at + k->rank <= d->rank;
    }
    for (int i = 0; fits && i < k->rank; i++) {
        int64_t kd = k->d[i], dd = d->d[at + i];
        fits = kd == 1 || kd == dd;
    }
    if (!fits) {
        snprintf(why, sizeof why, "%s with a constant that does not broadcast into the data", what);
        return seer_onnx_unsupported(cx, n, why);
    }
    int64_t c, hh, w;
    const layer_t *l = d->layer >= 0 ? &cx->L[d->layer] : NULL;
    if (l && (!seer_onnx_chw(d, &c, &hh, &w) || c != l->c || hh != l->h || w != l->w)) {
        /* a view a layer cannot read as it is (x[:, i] before its unsqueeze) */
        snprintf(why, sizeof why, "%s of a rank-%d view of a layer and a constant", what, d->rank);
        return seer_onnx_unsupported(cx, n, why);
    }
    if ((st = seer_onnx_need_data(cx, n, d, 0)) || (st = copy_shape(cx, n, o, d)) ||
        (st = seer_onnx_layer_line(cx, n, o, "scale", &d, 1)))
        return st;
    /* a product by a per-channel initializer (a weight, not a computed
     * constant such as stochastic depth's mask) is a learnable scale:
     * ConvNeXt's layer scale */
    /* the constant's axis over the data's channels (C x 1 x 1 and
     * 1 x C x 1 x 1 alike) */
    int kc = (d->nhwc ? d->rank - 1 : 1) - at;
    int learnable = !strcmp(n->op_type, "Mul") && weight_source(cx, k) && l && l->c > 1 &&
                    seer_onnx_elems(k, 0) == l->c && kc >= 0 && kc < k->rank && k->d[kc] == l->c;
    seer_onnx_emit(cx, "%s\n", learnable ? " learnable=1" : "");
    return SEER_STATUS_SUCCESS;
}

static seer_status_t do_add(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *o)
{
    tensor_t *ins[SEER_NET_MAX_INPUTS];
    int nin = 0;
    seer_status_t st;
    tensor_t *two[2] = {seer_onnx_input(cx, n, 0), n->n_input == 2 ? seer_onnx_input(cx, n, 1) : NULL};
    /* a difference of two tensors (PoolFormer's pool(x) - x) costs what a
     * sum does forward; its backward's negated gradient, one pass over
     * dy, is not costed */
    int sub = !strcmp(n->op_type, "Sub");
    if (two[0] && two[1] && two[0]->is_const != two[1]->is_const) /* x + c, x - c, c - x */
        return by_constant(cx, n, o, two, sub ? "a difference" : "a sum");
    for (size_t i = 0; i < n->n_input; i++) {
        tensor_t *x = seer_onnx_input(cx, n, i);
        if (!x) continue;
        if (x->is_const) return seer_onnx_unsupported(cx, n, sub ? "a difference of constants" : "an addition of a constant tensor");
        if ((st = seer_onnx_need_data(cx, n, x, 0))) return st;
        if (nin && (x->rank != ins[0]->rank || x->nhwc != ins[0]->nhwc ||
                    memcmp(x->d, ins[0]->d, (size_t)x->rank * sizeof *x->d)))
            return seer_onnx_unsupported(cx, n, sub ? "a broadcasting difference (inputs of different shapes)"
                                                    : "a broadcasting addition (inputs of different shapes)");
        if (nin == SEER_NET_MAX_INPUTS) return seer_onnx_nerr(cx, n, SEER_STATUS_OVERFLOW, "over %d inputs", SEER_NET_MAX_INPUTS);
        ins[nin++] = x;
    }
    if (nin < 2) return seer_onnx_unsupported(cx, n, "an addition with fewer than two inputs");
    if ((st = copy_shape(cx, n, o, ins[0])) || (st = seer_onnx_layer_line(cx, n, o, "add", ins, nin))) return st;
    seer_onnx_emit(cx, "\n");
    return SEER_STATUS_SUCCESS;
}

/* x * y of equal shapes, or x * gate with the gate N x C x 1 x 1
 * (squeeze-and-excite): the description's mul, the larger input first. */
static seer_status_t do_mul(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *o)
{
    seer_status_t st;
    tensor_t *x[2] = {seer_onnx_input(cx, n, 0), seer_onnx_input(cx, n, 1)};
    if (!x[0] || !x[1]) return seer_onnx_nerr(cx, n, SEER_STATUS_NET_INPUT, "Mul needs two inputs");
    if (x[0]->is_const && x[1]->is_const) return seer_onnx_unsupported(cx, n, "a product of two constants");
    if (x[0]->is_const || x[1]->is_const) return by_constant(cx, n, o, x, "a product");
    if ((st = seer_onnx_need_data(cx, n, x[0], 0)) || (st = seer_onnx_need_data(cx, n, x[1], 0))) return st;
    if (seer_onnx_elems(x[0], 1) < seer_onnx_elems(x[1], 1)) { tensor_t *t = x[0]; x[0] = x[1]; x[1] = t; }
    int same = x[0]->rank == x[1]->rank && x[0]->nhwc == x[1]->nhwc &&
               !memcmp(x[0]->d, x[1]->d, (size_t)x[0]->rank * sizeof *x[0]->d);
    /* per channel: N x C x 1 x 1, or N x 1 x 1 x C of a channels-last view */
    int64_t c[2], h[2], w[2];
    int gate = x[0]->rank == 4 && x[1]->rank == 4 && x[0]->nhwc == x[1]->nhwc && seer_onnx_chw(x[0], &c[0], &h[0], &w[0]) &&
               seer_onnx_chw(x[1], &c[1], &h[1], &w[1]) && c[1] == c[0] && h[1] == 1 && w[1] == 1 &&
               x[1]->d[0] == x[0]->d[0];
    if (!same && !gate)
        return seer_onnx_unsupported(cx, n, "a broadcasting product other than a per-channel N x C x 1 x 1 gate");
    if ((st = copy_shape(cx, n, o, x[0])) || (st = seer_onnx_layer_line(cx, n, o, "mul", x, 2))) return st;
    seer_onnx_emit(cx, "\n");
    return SEER_STATUS_SUCCESS;
}

static seer_status_t do_concat(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *o)
{
    tensor_t *ins[SEER_NET_MAX_INPUTS];
    int nin = 0;
    seer_status_t st;
    int64_t d[SEER_ONNX_MAX_RANK];
    for (size_t i = 0; i < n->n_input; i++) {
        tensor_t *x = seer_onnx_input(cx, n, i);
        if (!x) continue;
        if (x->is_const) return seer_onnx_unsupported(cx, n, "a concatenation with a constant tensor");
        if ((st = seer_onnx_need_data(cx, n, x, 0))) return st;
        if (x->nhwc) return seer_onnx_unsupported(cx, n, CHANNELS_LAST);
        if (nin == SEER_NET_MAX_INPUTS) return seer_onnx_nerr(cx, n, SEER_STATUS_OVERFLOW, "over %d inputs", SEER_NET_MAX_INPUTS);
        ins[nin++] = x;
    }
    if (!nin) return seer_onnx_nerr(cx, n, SEER_STATUS_NET_INPUT, "no inputs");
    int rank = ins[0]->rank;
    if (seer_onnx_norm_axis(seer_onnx_attr_int(n, "axis", 1), rank) != 1)
        return seer_onnx_unsupported(cx, n, "a concatenation along other than channels");
    memcpy(d, ins[0]->d, sizeof d);
    d[1] = 0;
    for (int i = 0; i < nin; i++) {
        if (ins[i]->rank != rank) return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "inputs of different ranks");
        for (int k = 0; k < rank; k++)
            if (k != 1 && ins[i]->d[k] != ins[0]->d[k])
                return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "input '%s' differs in dimension %d", ins[i]->name, k);
        d[1] += ins[i]->d[1];
    }
    if (nin == 1) { o->layer = ins[0]->layer; return copy_shape(cx, n, o, ins[0]); }
    if ((st = seer_onnx_set_dims(cx, n, o, rank, d)) || (st = seer_onnx_layer_line(cx, n, o, "concat", ins, nin))) return st;
    seer_onnx_emit(cx, "\n");
    return SEER_STATUS_SUCCESS;
}

/* Shapes of an unsupported node's output where libseer knows them, so
 * that skipping it leaves the rest consistent. */
static void skipped_shape(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o)
{
    if (!x || !o || !x->known) return;
    if (!strcmp(n->op_type, "Transpose")) {
        int64_t perm[SEER_ONNX_MAX_RANK], d[SEER_ONNX_MAX_RANK];
        if (seer_onnx_attr_ints(n, "perm", perm, SEER_ONNX_MAX_RANK) != x->rank) return;
        for (int i = 0; i < x->rank; i++) {
            if (perm[i] < 0 || perm[i] >= x->rank) return;
            d[i] = x->d[perm[i]];
        }
        memcpy(o->d, d, sizeof d);
    } else if (!strcmp(n->op_type, "Mul") || !strcmp(n->op_type, "Sub") || !strcmp(n->op_type, "Div") ||
               !strcmp(n->op_type, "Pow") || !strcmp(n->op_type, "Where")) {
        /* broadcast: the larger of the data inputs keeps the shape */
        for (size_t i = 0; i < n->n_input; i++) {
            tensor_t *y = seer_onnx_input(cx, n, i);
            if (y && y->layer >= 0 && y->known && seer_onnx_elems(y, 0) > seer_onnx_elems(x, 0)) {
                o->layer = y->layer;
                o->rank = y->rank;
                memcpy(o->d, y->d, sizeof o->d);
                o->nhwc = y->nhwc;
            }
        }
    }
}

/* n is unsupported (why): recorded, its output shaped as skipped_shape says. */
static seer_status_t unsupported_shape(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o, const char *why)
{
    seer_status_t st = seer_onnx_unsupported(cx, n, why);
    skipped_shape(cx, n, x, o);
    return st;
}

/* Element-wise operators that map one to one onto a description layer
 * with no options. */
static const struct { const char *op, *type; } SIMPLE_OPS[] = {
    {"BatchNormalization", "bn"}, {"Relu", "relu"}, {"Tanh", "tanh"}, {"Gelu", "gelu"},
    {"HardSwish", "hardswish"}, {"LeakyRelu", "leakyrelu"}, {"Elu", "elu"},
    {"Softmax", "softmax"}, {"LogSoftmax", "softmax"}, {"LRN", "lrn"},
};

/* Sigmoid, or SiLU fused with its Mul; HardSigmoid, or HardSwish fused
 * with its Mul where the gate is HardSwish's, relu6(x + 3) / 6 (alpha
 * 1/6, beta 0.5: the exporters' form before opset 14). */
static seer_status_t do_gate(cx_t *cx, int ni, tensor_t *x, tensor_t *o)
{
    const SeerOnnx__NodeProto *n = cx->g->node[ni];
    int hard = !strcmp(n->op_type, "HardSigmoid");
    int m = !hard || (fabs(seer_onnx_attr_float(n, "alpha", 0.2) - 1.0 / 6) < 1e-4 &&
                      fabs(seer_onnx_attr_float(n, "beta", 0.5) - 0.5) < 1e-6)
                ? self_gate(cx, n, o)
                : -1;
    if (m < 0) return simple(cx, n, x, o, hard ? "hardsigmoid" : "sigmoid", "");
    const SeerOnnx__NodeProto *mul = cx->g->node[m];
    cx->alias_in[m] = strcmp(mul->input[0], o->name) ? 1 : 0;
    return simple(cx, n, x, o, hard ? "hardswish" : "silu", "");
}

/* PRelu: its slope an initializer of one value or one per channel
 * (PyTorch's PReLU(), PReLU(C): 1, or C x 1 x 1 of N x C x H x W).  The
 * slope broadcasts into x from the last axis (before opset 7, from axis
 * 1: C or C x 1 x 1). */
static seer_status_t do_prelu(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o)
{
    tensor_t *a = seer_onnx_input(cx, n, 1);
    if (!a || !a->is_const || !a->known) return seer_onnx_unsupported(cx, n, "a PRelu slope that is not a weight");
    if (!x || !x->known || x->rank < 2) return seer_onnx_need_data(cx, n, x, 1);
    int ca = x->nhwc ? x->rank - 1 : 1, at = cx->opset < 7 && !x->nhwc ? 1 : x->rank - a->rank;
    int64_t ns = seer_onnx_elems(a, 0), c = x->d[ca];
    int per_channel = ns == c && c > 1 && at >= 0 && ca >= at && ca < at + a->rank && a->d[ca - at] == c;
    if (ns != 1 && !per_channel)
        return seer_onnx_unsupported(cx, n, "a PRelu slope other than one value or one per channel");
    char extra[32] = "";
    if (per_channel) snprintf(extra, sizeof extra, " c=%lld", (long long)c);
    return simple(cx, n, x, o, "prelu", extra);
}

/* Pad of the two spatial axes of N x C x H x W (pads an attribute, named
 * paddings at opset 1, before 11; an input since), or of a channels-last
 * view's (Keras's ZeroPadding2D between tf2onnx's transposes), any mode:
 * a pad layer (PyTorch's F.pad and onnxruntime's Pad are a copy into the
 * larger tensor, whatever fills the border). */
static seer_status_t do_pad(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o)
{
    int64_t p[9];
    int np = cx->opset < 2 ? seer_onnx_attr_ints(n, "paddings", p, 9)
             : cx->opset < 11 ? seer_onnx_attr_ints(n, "pads", p, 9) : seer_onnx_const_ints(cx, n, 1, p, 9);
    int h = x && x->nhwc ? 1 : 2, c = x && x->nhwc ? 3 : 1; /* the axes of H and C in x's order */
    if (!x || !x->known || x->rank != 4 || np != 8 || (n->n_input > 3 && n->input[3] && n->input[3][0]) ||
        p[0] || p[c] || p[4] || p[4 + c] || p[h] < 0 || p[h + 1] < 0 || p[h + 4] < 0 || p[h + 5] < 0 ||
        p[h] > SEER_NET_MAX_DIM || p[h + 1] > SEER_NET_MAX_DIM || p[h + 4] > SEER_NET_MAX_DIM ||
        p[h + 5] > SEER_NET_MAX_DIM)
        return unsupported_shape(cx, n, x, o, "a pad of other than the two spatial axes, or by other than constant "
                                              "non-negative amounts");
    seer_status_t st;
    int64_t d[4] = {x->d[0], x->d[1], x->d[2], x->d[3]};
    d[h] += p[h] + p[h + 4];
    d[h + 1] += p[h + 1] + p[h + 5];
    if ((st = seer_onnx_need_data(cx, n, x, 1)) || (st = seer_onnx_set_dims(cx, n, o, 4, d))) return st;
    o->nhwc = x->nhwc;
    if ((st = seer_onnx_layer_line(cx, n, o, "pad", &x, 1))) return st;
    seer_onnx_emit(cx, " h=%lld w=%lld\n", (long long)d[h], (long long)d[h + 1]);
    return SEER_STATUS_SUCCESS;
}

/* The ratio is an attribute before opset 12, an optional input since. */
static seer_status_t do_dropout(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o)
{
    char extra[40];
    double p = seer_onnx_attr_float(n, "ratio", 0.5);
    tensor_t *r = seer_onnx_input(cx, n, 1);
    if (cx->opset >= 12 && r) {
        if (r->nval != 1) return seer_onnx_unsupported(cx, n, "a dropout ratio that is not a constant");
        p = r->val[0];
    }
    if (!(p >= 0 && p < 1)) return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "ratio %g outside [0, 1)", p);
    snprintf(extra, sizeof extra, " p=%.6g", p);
    return simple(cx, n, x, o, "dropout", extra);
}

/* An adaptive pool of x (its data checked by the caller) to out x out:
 * `pool avg|max global` for 1, `out=` otherwise; o gets N x C x out x
 * out (N x out x out x C, a channels-last view, for x one). */
static seer_status_t adaptive_pool(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o, int64_t out,
                                   int max)
{
    seer_status_t st;
    int64_t c, h, w;
    seer_onnx_chw(x, &c, &h, &w);
    int64_t d[4] = {x->d[0], c, out, out}, dl[4] = {x->d[0], out, out, c};
    if ((st = seer_onnx_set_dims(cx, n, o, 4, x->nhwc ? dl : d))) return st;
    o->nhwc = x->nhwc;
    if ((st = seer_onnx_layer_line(cx, n, o, "pool", &x, 1))) return st;
    if (out == 1)
        seer_onnx_emit(cx, " %s global\n", max ? "max" : "avg");
    else
        seer_onnx_emit(cx, " %s out=%lld\n", max ? "max" : "avg", (long long)out);
    return SEER_STATUS_SUCCESS;
}

static seer_status_t do_global_pool(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o)
{
    seer_status_t st;
    if ((st = seer_onnx_need_data(cx, n, x, 1))) return st;
    if (x->nhwc) return seer_onnx_unsupported(cx, n, CHANNELS_LAST);
    return adaptive_pool(cx, n, x, o, 1, n->op_type[6] != 'A');
}

/* Whether x is what a layer norm layer reads: the channels of each
 * position, the last axis of a channels-last view (N x H x W x C) or of
 * N x C features. */
static int per_position(const tensor_t *x)
{
    return (x->rank == 4 && x->nhwc) || x->rank == 2;
}

/* Whether ReduceMean node m of a tensor of rank r averages its axis a
 * alone, keeping it (axes an attribute before opset 18, an input since). */
static int mean_of_axis(cx_t *cx, const SeerOnnx__NodeProto *m, int r, int a)
{
    int64_t ax[2];
    int na = seer_onnx_reduce_axes(cx, m, ax, 2);
    return na == 1 && seer_onnx_norm_axis(ax[0], r) == a && seer_onnx_attr_int(m, "keepdims", 1);
}

/* The node after node ni in a fused chain: the only reader of ni's
 * output, of type op, reading it at input in (-1: any); -1 if none. */
static int next_of(cx_t *cx, int ni, const char *op, int in, int *at)
{
    int k, i = sole_reader(cx, seer_onnx_output(cx, cx->g->node[ni], 0), op, &k);
    int binary = !strcmp(op, "Add") || !strcmp(op, "Sub") || !strcmp(op, "Mul") || !strcmp(op, "Div");
    if (i < 0 || (in >= 0 && k != in) || (binary && cx->g->node[i]->n_input != 2)) return -1;
    *at = k;
    return i;
}

/* The two readers of t (it has two), nodes of ops a and b reading it at
 * input 0: their indices in *ia and *ib, -1 where there is none. */
static void two_readers(cx_t *cx, const tensor_t *t, const char *a, const char *b, int *ia, int *ib)
{
    *ia = *ib = -1;
    for (size_t i = 0; t && t->readers == 2 && i < cx->g->n_node; i++) {
        const SeerOnnx__NodeProto *m = cx->g->node[i];
        if (m->n_input < 1 || strcmp(m->input[0], t->name)) continue;
        if (!strcmp(m->op_type, a)) *ia = (int)i;
        else if (!strcmp(m->op_type, b)) *ib = (int)i;
    }
}

/* Layer norm over the channels as exporters write it before opset 17
 * brought LayerNormalization: mean = ReduceMean(x), d = Sub(x, mean),
 * y = Div(d, Sqrt(Add(ReduceMean(Pow(d, 2)), eps))), then its affine
 * part, Mul by a weight and Add of a bias, where there is one.  Every
 * node after the first ReduceMean (node ni) is fused into it.  1 when
 * found over the last axis (of a channels-last view or N x C: F.layer_norm,
 * one kernel in PyTorch); 2 over axis 1 of N x C x H x W, which only a
 * model's own code writes (ConvNeXt's reference channels-first layer
 * norm), and PyTorch runs op by op. */
static int decomposed_layernorm(cx_t *cx, int ni, const tensor_t *x)
{
    const SeerOnnx__NodeProto *n = cx->g->node[ni];
    enum { SUB, POW, MEAN, EPS, SQRT, DIV, MUL, ADD, N };
    int c[N], in[N], nc = 0;
    if (!x || !x->known) return 0;
    int first = x->rank == 4 && !x->nhwc, axis = first ? 1 : x->rank - 1;
    if ((!first && !per_position(x)) || !mean_of_axis(cx, n, x->rank, axis) ||
        (c[SUB] = next_of(cx, ni, "Sub", 1, &in[SUB])) < 0 || strcmp(cx->g->node[c[SUB]]->input[0], n->input[0]))
        return 0;
    /* d feeds the square and the division, nothing else */
    two_readers(cx, seer_onnx_output(cx, cx->g->node[c[SUB]], 0), "Pow", "Div", &c[POW], &c[DIV]);
    if (c[POW] < 0 || c[DIV] < 0 || cx->g->node[c[DIV]]->n_input != 2 || !const_near(cx, cx->g->node[c[POW]], 1, 2.0))
        return 0;
    in[POW] = in[DIV] = 0;
    if ((c[MEAN] = next_of(cx, c[POW], "ReduceMean", 0, &in[MEAN])) < 0 ||
        !mean_of_axis(cx, cx->g->node[c[MEAN]], x->rank, axis) ||
        (c[EPS] = next_of(cx, c[MEAN], "Add", -1, &in[EPS])) < 0 ||
        !const_input(cx, cx->g->node[c[EPS]], (size_t)(1 - in[EPS])) ||
        (c[SQRT] = next_of(cx, c[EPS], "Sqrt", 0, &in[SQRT])) < 0)
        return 0;
    /* the deviation: read by the division alone, or fusing it would give
     * its other readers the layer's shape for its N x ... x 1 */
    const tensor_t *sd = seer_onnx_output(cx, cx->g->node[c[SQRT]], 0);
    if (!sd || sd->readers != 1 || strcmp(cx->g->node[c[DIV]]->input[1], sd->name)) return 0;
    nc = DIV + 1;
    /* the affine part: a product by a constant, a sum with one */
    for (int k = MUL; k <= ADD; k++) {
        c[k] = next_of(cx, c[k - 1], k == MUL ? "Mul" : "Add", -1, &in[k]);
        if (c[k] < 0 || !const_input(cx, cx->g->node[c[k]], (size_t)(1 - in[k]))) break;
        nc = k + 1;
    }
    for (int k = 0; k < nc; k++) cx->alias_in[c[k]] = in[k];
    return first ? 2 : 1;
}

/* GRN's statistic (ConvNeXt-V2's global response normalization, as
 * Hugging Face and timm write it): g = ReduceL2(x) over the spatial
 * axes (node ni), then g / (ReduceMean(g over the channels) + eps).  The
 * mean, the sum and the quotient touch N x C values each and are fused
 * into the reduction's pool layer (their three small kernels are not
 * costed); x times that, the weight, the bias and the residual are
 * layers of their own. */
static void grn_norm(cx_t *cx, int ni, const tensor_t *x)
{
    int mean, div, add, k, kd;
    two_readers(cx, seer_onnx_output(cx, cx->g->node[ni], 0), "ReduceMean", "Div", &mean, &div);
    if (mean < 0 || div < 0 || cx->g->node[div]->n_input != 2 || !mean_of_axis(cx, cx->g->node[mean], 4, x->nhwc ? 3 : 1) ||
        (add = next_of(cx, mean, "Add", -1, &k)) < 0 || !const_input(cx, cx->g->node[add], (size_t)(1 - k)) ||
        next_of(cx, add, "Div", 1, &kd) != div)
        return;
    cx->alias_in[mean] = 0;
    cx->alias_in[add] = k;
    cx->alias_in[div] = 0;
}

/* ReduceMean / ReduceMax over the two spatial axes: a global pool (the
 * torch.export-based exporter, PyTorch's default since 2.9, writes
 * AdaptiveAvgPool2d(1) and x.mean((2, 3)) so), N x C x 1 x 1, or N x C
 * as a view of it without keepdims.  The axes are an attribute before
 * opset 18 and an input from it. */
static seer_status_t do_reduce(cx_t *cx, int ni, tensor_t *x, tensor_t *o)
{
    const SeerOnnx__NodeProto *n = cx->g->node[ni];
    int64_t ax[SEER_ONNX_MAX_RANK + 1];
    seer_status_t st;
    if (!x || x->layer < 0 || !x->known) return seer_onnx_need_view(cx, n, x); /* names what is missing */
    int na = seer_onnx_reduce_axes(cx, n, ax, SEER_ONNX_MAX_RANK + 1);
    unsigned mark = 0;
    for (int i = 0; i < na && i <= SEER_ONNX_MAX_RANK; i++) {
        int a = seer_onnx_norm_axis(ax[i], x->rank);
        mark |= a < 0 || mark >> a & 1 ? 1u << 31 : 1u << a; /* out of range or repeated */
    }
    /* the spatial axes: 2 and 3, or 1 and 2 of a channels-last view
     * (tf2onnx's squeeze-and-excite of Keras's MobileNetV3) */
    if (x->rank != 4 || na != 2 || mark != (x->nhwc ? 0x6u : 0xcu))
        return unsupported_shape(cx, n, x, o, "a reduction over other than the two spatial axes of N x C x H x W");
    /* ReduceL2 (GRN's) reads x as a mean does */
    if ((st = seer_onnx_need_data(cx, n, x, 1)) || (st = adaptive_pool(cx, n, x, o, 1, !strcmp(n->op_type, "ReduceMax"))))
        return st;
    if (!strcmp(n->op_type, "ReduceL2") && seer_onnx_attr_int(n, "keepdims", 1)) grn_norm(cx, ni, x);
    int64_t d[2] = {x->d[0], x->nhwc ? x->d[3] : x->d[1]};
    return seer_onnx_attr_int(n, "keepdims", 1) ? SEER_STATUS_SUCCESS : seer_onnx_set_dims(cx, n, o, 2, d);
}

/* Channels [from, from + c) of x as o: a slice layer (PyTorch's chunk
 * and narrow give views that the next kernel copies contiguous). */
static seer_status_t slice_layer(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o, int64_t from,
                                 int64_t c)
{
    seer_status_t st;
    int64_t d[4] = {x->d[0], c, x->d[2], x->d[3]};
    if ((st = seer_onnx_set_dims(cx, n, o, 4, d)) || (st = seer_onnx_layer_line(cx, n, o, "slice", &x, 1))) return st;
    seer_onnx_emit(cx, " c=%lld", (long long)c);
    if (from) seer_onnx_emit(cx, " from=%lld", (long long)from);
    seer_onnx_emit(cx, "\n");
    return SEER_STATUS_SUCCESS;
}

/* Split along the channels of N x C x H x W (torch.chunk): a slice layer
 * per output.  The sizes: the 'split' attribute before opset 13, an
 * input from it, else equal parts, the last one smaller where they do not
 * divide C (num_outputs, opset 18). */
static seer_status_t do_split(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o)
{
    int64_t sz[SEER_ONNX_MAX_CONST + 1];
    seer_status_t st;
    if (!x) return seer_onnx_need_data(cx, n, x, 1);
    if (n->n_output > SEER_ONNX_MAX_CONST) return unsupported_shape(cx, n, x, o, "a split into over 64 parts");
    int no = (int)n->n_output;
    if (x->rank != 4 || x->nhwc || seer_onnx_norm_axis(seer_onnx_attr_int(n, "axis", 0), 4) != 1)
        return unsupported_shape(cx, n, x, o, "a split along other than the channels of N x C x H x W");
    if ((st = seer_onnx_need_data(cx, n, x, 1))) return st;
    if (cx->opset < 2 && n->n_input > 1) /* opset 1's sizes as an input */
        return unsupported_shape(cx, n, x, o, "split sizes given as an input (opset 1)");
    int given = cx->opset < 13 ? seer_onnx_attr(n, "split") != NULL : n->n_input > 1 && n->input[1][0];
    int ns = !given ? -1
             : cx->opset < 13 ? seer_onnx_attr_ints(n, "split", sz, SEER_ONNX_MAX_CONST)
                              : seer_onnx_const_ints(cx, n, 1, sz, SEER_ONNX_MAX_CONST);
    if (given && ns < 0) return unsupported_shape(cx, n, x, o, "split sizes that are not a constant libseer can fold");
    int64_t C = x->d[1], from = 0;
    if (ns < 0) {
        int64_t part = (C + no - 1) / no;
        for (int j = 0; j < no; j++) sz[j] = j < no - 1 ? part : C - part * (no - 1);
        ns = no;
    }
    for (int j = 0; j < ns && ns == no; j++) from += sz[j] >= 1 && sz[j] <= C ? sz[j] : C + 1;
    if (ns != no || from != C)
        return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "split sizes do not cut the %lld channels into %d parts",
                              (long long)C, no);
    from = 0;
    for (int j = 0; j < no; j++) {
        tensor_t *oj = seer_onnx_output(cx, n, (size_t)j);
        if (oj && (st = slice_layer(cx, n, x, oj, from, sz[j]))) return st;
        from += sz[j];
    }
    return SEER_STATUS_SUCCESS;
}

/* Slice of data along the channels, step 1: a slice layer. */
static seer_status_t do_slice(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o)
{
    int64_t b[2] = {0}, e[2] = {0}, ax[2] = {0}, step[2] = {1};
    int nb, ne, na = 1, np = 1;
    if (!x) return seer_onnx_need_data(cx, n, x, 1);
    if (cx->opset < 10) {
        nb = seer_onnx_attr_ints(n, "starts", b, 2);
        ne = seer_onnx_attr_ints(n, "ends", e, 2);
        if (seer_onnx_attr(n, "axes")) na = seer_onnx_attr_ints(n, "axes", ax, 2);
    } else {
        nb = seer_onnx_const_ints(cx, n, 1, b, 2);
        ne = seer_onnx_const_ints(cx, n, 2, e, 2);
        if (n->n_input > 3 && n->input[3][0]) na = seer_onnx_const_ints(cx, n, 3, ax, 2);
        if (n->n_input > 4 && n->input[4][0]) np = seer_onnx_const_ints(cx, n, 4, step, 2);
    }
    int64_t C = x->rank == 4 ? x->d[1] : 0, lo = b[0], hi = e[0];
    if (x->rank != 4 || x->nhwc || nb != 1 || ne != 1 || na != 1 || np != 1 || step[0] != 1 ||
        seer_onnx_norm_axis(ax[0], 4) != 1)
        return unsupported_shape(cx, n, x, o, "a slice of data other than a range of channels, step 1");
    if (lo < 0) lo = lo < -C ? 0 : lo + C;
    if (hi < 0) hi = hi < -C ? 0 : hi + C;
    if (lo > C) lo = C;
    if (hi > C) hi = C;
    if (hi <= lo)
        return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "an empty slice of the %lld channels", (long long)C);
    seer_status_t st;
    if ((st = seer_onnx_need_data(cx, n, x, 1))) return st;
    return slice_layer(cx, n, x, o, lo, hi - lo);
}

/* x.permute(0, 2, 3, 1) of N x C x H x W data and back (ConvNeXt's
 * channels-last blocks): a view, o marked nhwc or not.  PyTorch's
 * permute is a view, and a layer norm copies only a view that is not
 * contiguous: the stem's, once (a permute back of contiguous N x H x W x C
 * data is channels-last in memory, and the convolutions after it keep
 * it so); that one copy is not costed (docs/networks.md). */
static seer_status_t permute_view(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o, const int64_t *perm)
{
    static const int64_t to_last[4] = {0, 2, 3, 1}, to_first[4] = {0, 3, 1, 2};
    int last = !memcmp(perm, to_last, sizeof to_last), first = !memcmp(perm, to_first, sizeof to_first);
    if ((last && x->nhwc) || (first && !x->nhwc) || (!last && !first))
        return unsupported_shape(cx, n, x, o, x->nhwc ? "a transpose of N x H x W x C other than back to N x C x H x W"
                                                      : "a transpose of N x C x H x W other than to N x H x W x C");
    seer_status_t st;
    if ((st = seer_onnx_need_data(cx, n, x, 1))) return st;
    int64_t d[4] = {x->d[perm[0]], x->d[perm[1]], x->d[perm[2]], x->d[perm[3]]};
    if ((st = seer_onnx_set_dims(cx, n, o, 4, d))) return st;
    o->nhwc = last;
    o->layer = x->layer;
    return SEER_STATUS_SUCCESS;
}

/* AdaptiveAvgPool2d((o, o)) (or its max) where o does not divide the
 * input, as the torch.export-based exporter writes it (GoogLeNet's
 * auxiliary heads in training, 14 -> 4): Transpose of N x C x H x W to
 * H x W x N x C (perm 2 3 0 1), GatherND of constant (oh, kh, ow, kw, 2)
 * positions, Transpose to N x C x oh x kh x ow x kw (perm 4 5 0 1 2 3),
 * ReduceMean (ReduceMax) over kh and kw without keepdims.  Each node
 * after the first Transpose (node ni) is the sole reader of the one
 * before and is fused into it.  The windows are of one size but start
 * unevenly (0, 3, 7, 10 of 14), as any adaptive pool's, which the pool
 * layer costs (`out=`: square only); windows of different sizes make
 * another graph (masks, a sum per position, a division), not read here.
 * Returns o, and *max, when found; 0 otherwise. */
static int64_t gathered_pool(cx_t *cx, int ni, const tensor_t *x, int *max)
{
    static const int64_t to_hwnc[4] = {2, 3, 0, 1}, back[6] = {4, 5, 0, 1, 2, 3};
    int64_t perm[SEER_ONNX_MAX_RANK], ax[3];
    int c[3], in[3];
    const SeerOnnx__NodeProto *n = cx->g->node[ni];
    if (!x || !x->known || x->rank != 4 || x->nhwc || seer_onnx_attr_ints(n, "perm", perm, 4) != 4 ||
        memcmp(perm, to_hwnc, sizeof to_hwnc) || (c[0] = next_of(cx, ni, "GatherND", 0, &in[0])) < 0)
        return 0;
    const SeerOnnx__NodeProto *gnd = cx->g->node[c[0]];
    const tensor_t *ix = gnd->n_input == 2 ? seer_onnx_input(cx, gnd, 1) : NULL;
    if (!ix || !ix->is_const || !ix->known || ix->rank != 5 || ix->d[4] != 2 ||
        seer_onnx_attr_int(gnd, "batch_dims", 0) != 0 || ix->d[0] != ix->d[2] || ix->d[0] < 1 ||
        ix->d[0] > x->d[2] || ix->d[2] > x->d[3] || ix->d[1] < 1 || ix->d[1] > x->d[2] || ix->d[3] < 1 ||
        ix->d[3] > x->d[3] || (c[1] = next_of(cx, c[0], "Transpose", 0, &in[1])) < 0 ||
        seer_onnx_attr_ints(cx->g->node[c[1]], "perm", perm, 6) != 6 || memcmp(perm, back, sizeof back))
        return 0;
    if ((c[2] = next_of(cx, c[1], "ReduceMean", 0, &in[2])) < 0 &&
        (c[2] = next_of(cx, c[1], "ReduceMax", 0, &in[2])) < 0)
        return 0;
    const SeerOnnx__NodeProto *r = cx->g->node[c[2]];
    if (seer_onnx_reduce_axes(cx, r, ax, 3) != 2 || seer_onnx_attr_int(r, "keepdims", 1)) return 0;
    int a0 = seer_onnx_norm_axis(ax[0], 6), a1 = seer_onnx_norm_axis(ax[1], 6);
    if (!((a0 == 3 && a1 == 5) || (a0 == 5 && a1 == 3))) return 0;
    *max = !strcmp(r->op_type, "ReduceMax");
    for (int k = 0; k < 3; k++) cx->alias_in[c[k]] = in[k];
    return ix->d[0];
}

/* ShuffleNet's channel shuffle, x.view(N, g, C/g, H, W).transpose(1, 2):
 * a shuffle layer, its output seen as N x C/g x g x H x W (the Reshape
 * after it makes the N x C x H x W view).  Rank 4: permute_view.  Any
 * other transpose is unsupported. */
static seer_status_t do_transpose(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o)
{
    int64_t perm[SEER_ONNX_MAX_RANK];
    static const int64_t shuffle[5] = {0, 2, 1, 3, 4};
    if (!x) return seer_onnx_need_data(cx, n, x, 1);
    if (x->rank == 4 && seer_onnx_attr_ints(n, "perm", perm, SEER_ONNX_MAX_RANK) == 4)
        return permute_view(cx, n, x, o, perm);
    const layer_t *l = x->layer >= 0 ? &cx->L[x->layer] : NULL;
    if (x->rank != 5 || seer_onnx_attr_ints(n, "perm", perm, SEER_ONNX_MAX_RANK) != 5 ||
        memcmp(perm, shuffle, sizeof shuffle) || !l || x->d[1] * x->d[2] != l->c || x->d[3] != l->h ||
        x->d[4] != l->w)
        return unsupported_shape(cx, n, x, o, "a transpose other than a channel shuffle (N x g x C/g x H x W, "
                                              "perm 0 2 1 3 4)");
    seer_status_t st;
    int64_t d4[4] = {x->d[0], l->c, l->h, l->w}, d5[5] = {x->d[0], x->d[2], x->d[1], x->d[3], x->d[4]};
    if (x->d[1] == 1 || x->d[2] == 1) { /* a size-1 axis moved: the same order, a view */
        o->layer = x->layer;
        return seer_onnx_set_dims(cx, n, o, 5, d5);
    }
    if ((st = seer_onnx_set_dims(cx, n, o, 4, d4)) || (st = seer_onnx_layer_line(cx, n, o, "shuffle", &x, 1)))
        return st;
    seer_onnx_emit(cx, " groups=%lld\n", (long long)x->d[1]);
    return seer_onnx_set_dims(cx, n, o, 5, d5);
}

/* Resize (opset 10+; its sizes, else its scales, constants libseer can
 * fold) and Upsample (before 7: height_scale, width_scale; 7-9: scales as
 * an attribute, then an input)
 * of the two spatial axes of N x C x H x W, any mode: a resize layer. */
static seer_status_t do_resize(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o)
{
    seer_status_t st;
    if (!x || x->layer < 0 || !x->known) return seer_onnx_need_data(cx, n, x, 1); /* names what is missing */
    if (x->rank != 4 || x->nhwc || seer_onnx_attr(n, "axes"))
        return unsupported_shape(cx, n, x, o, "a resize of other than the two spatial axes of N x C x H x W");
    if ((seer_onnx_attr(n, "keep_aspect_ratio_policy") && !seer_onnx_attr_str_is(n, "keep_aspect_ratio_policy", "stretch")) ||
        seer_onnx_attr_str_is(n, "coordinate_transformation_mode", "tf_crop_and_resize"))
        return unsupported_shape(cx, n, x, o, "a resize keeping the aspect ratio or cropping (its output size is "
                                              "not its sizes or scales)");
    if ((st = seer_onnx_need_data(cx, n, x, 1))) return st;
    int64_t sz[5];
    double sc[4] = {0, 0, 0, 0}, oh, ow;
    int upsample = !strcmp(n->op_type, "Upsample"), si = upsample || cx->opset < 11 ? 1 : 2;
    tensor_t *s = seer_onnx_input(cx, n, (size_t)si);
    int sized = !upsample && cx->opset >= 11 && seer_onnx_const_ints(cx, n, 3, sz, 5) == 4;
    if (sized) { /* the sizes as given: a scale sz / d floored back can come out one short */
        sc[0] = sz[0] == x->d[0];
        sc[1] = sz[1] == x->d[1];
        /* sizes written into the file for the input's exported size (a
         * segmentation head's output, a pooled branch brought back to its
         * feature map) move with a resolution that replaced that size, as
         * a stride-s feature map's ceil(H / s) does; sizes computed from
         * Shape already have it.  Written: a constant, or one ending the
         * Concat of the input's N and C (Shape, Slice) with it, as the
         * TorchScript-based exporter writes F.interpolate(size=...) */
        const tensor_t *zt = seer_onnx_input(cx, n, 3);
        const SeerOnnx__NodeProto *zp = zt && zt->producer >= 0 ? cx->g->node[zt->producer] : NULL;
        if (zp && !strcmp(zp->op_type, "Concat") && zp->n_input == 2) {
            const tensor_t *hw = seer_onnx_input(cx, zp, 1);
            zt = hw && hw->nval == 2 ? hw : NULL;
            zp = zt && zt->producer >= 0 ? cx->g->node[zt->producer] : NULL;
        }
        int written = zt && (!zp || !strcmp(zp->op_type, "Constant"));
        for (int i = 0; i < 2 && written; i++)
            if (cx->export_hw[i] > 0 && cx->export_hw[i] != cx->opt.resolution) {
                double v = ceil((double)sz[2 + i] * cx->opt.resolution / (double)cx->export_hw[i] - 1e-9);
                /* in range before the cast (one over the limit fails below) */
                sz[2 + i] = v >= 1 && v <= SEER_NET_MAX_DIM ? (int64_t)v : (int64_t)SEER_NET_MAX_DIM + 1;
            }
    } else if (upsample && cx->opset < 7) { /* one scale per spatial axis */
        sc[0] = sc[1] = 1;
        sc[2] = seer_onnx_attr_float(n, "height_scale", 1);
        sc[3] = seer_onnx_attr_float(n, "width_scale", 1);
    } else if (upsample && cx->opset < 9) {
        const SeerOnnx__AttributeProto *a = seer_onnx_attr(n, "scales");
        for (size_t i = 0; a && a->n_floats == 4 && i < 4; i++) sc[i] = a->floats[i];
    } else if (s && s->is_const && s->nval == 4) {
        for (int i = 0; i < 4; i++) sc[i] = s->val[i];
    }
    /* in range before the cast: a float to integer conversion out of
     * range is undefined */
    oh = sized ? (double)sz[2] : floor(x->d[2] * sc[2]);
    ow = sized ? (double)sz[3] : floor(x->d[3] * sc[3]);
    if (sc[0] != 1 || sc[1] != 1 || !(oh >= 1 && oh <= SEER_NET_MAX_DIM) || !(ow >= 1 && ow <= SEER_NET_MAX_DIM))
        return unsupported_shape(cx, n, x, o, "a resize whose output size is not a constant of N x C x H' x W' "
                                              "libseer can fold");
    int64_t d[4] = {x->d[0], x->d[1], (int64_t)oh, (int64_t)ow};
    if ((st = seer_onnx_set_dims(cx, n, o, 4, d)) || (st = seer_onnx_layer_line(cx, n, o, "resize", &x, 1))) return st;
    seer_onnx_emit(cx, " h=%lld w=%lld\n", (long long)d[2], (long long)d[3]);
    return SEER_STATUS_SUCCESS;
}

/* Div: the head of an exported GELU (erf_gelu), else by a constant
 * scalar, a scale layer. */
static seer_status_t do_div(cx_t *cx, int ni, tensor_t *x, tensor_t *o)
{
    const SeerOnnx__NodeProto *n = cx->g->node[ni];
    tensor_t *y = seer_onnx_input(cx, n, 1);
    if (erf_gelu(cx, ni, o)) return simple(cx, n, x, o, "gelu", "");
    if (!x || !y || x->is_const || !y->is_const)
        return unsupported_shape(cx, n, x, o, "a division other than by a constant or in an exported GELU");
    tensor_t *two[2] = {x, y};
    return by_constant(cx, n, o, two, "a division");
}

/* Gather along axis 0 of a flat view of the batch with constant indices
 * as many as its elements, batch first (torch.export writes as_strided
 * so, e.g. at the head of ConvNeXt): a view of the layer in the indices'
 * shape.  The indices are not read (they are too many to fold); a gather
 * that repeated some elements and left others out would be costed as
 * the copy it is not.  A constant index on axis 1 of N x C x H x W takes
 * one channel (torchvision's transform_input): a slice layer. */
static seer_status_t do_gather(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o)
{
    tensor_t *ix = seer_onnx_input(cx, n, 1);
    if (!x || x->layer < 0 || !x->known) return seer_onnx_need_view(cx, n, x); /* names what is missing */
    const layer_t *l = &cx->L[x->layer];
    int64_t c;
    if (x->rank == 4 && !x->nhwc && seer_onnx_norm_axis(seer_onnx_attr_int(n, "axis", 0), 4) == 1 && ix &&
        ix->is_const && ix->rank <= 1 && seer_onnx_const_ints(cx, n, 1, &c, 1) == 1) {
        /* one channel, x[:, i] (torchvision's transform_input): a slice
         * of it; a scalar index drops the axis, N x H x W as a view */
        seer_status_t st;
        if (c < 0) c += x->d[1];
        if (c < 0 || c >= x->d[1])
            return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "index %lld of %lld channels", (long long)c,
                                  (long long)x->d[1]);
        if ((st = seer_onnx_need_data(cx, n, x, 1)) || (st = slice_layer(cx, n, x, o, c, 1))) return st;
        int64_t d[3] = {x->d[0], x->d[2], x->d[3]};
        return ix->rank ? SEER_STATUS_SUCCESS : seer_onnx_set_dims(cx, n, o, 3, d);
    }
    if (x->rank != 1 || !ix || !ix->is_const || !ix->known || ix->rank < 2 || ix->d[0] < 1 ||
        seer_onnx_norm_axis(seer_onnx_attr_int(n, "axis", 0), 1) != 0 || seer_onnx_elems(ix, 0) != x->d[0] ||
        x->d[0] / ix->d[0] != l->c * l->h * l->w || x->d[0] % ix->d[0])
        return unsupported_shape(cx, n, x, o, "a gather other than of every element of the flattened batch");
    seer_status_t st = seer_onnx_set_dims(cx, n, o, ix->rank, ix->d);
    if (st) return st;
    o->layer = x->layer;
    return seer_onnx_need_view(cx, n, o);
}

/* LayerNormalization over the channels of each position: of a
 * channels-last view (N x H x W x C, last axis) or of N x C features. */
static seer_status_t do_layernorm(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o)
{
    if (!x || x->layer < 0 || !x->known) return seer_onnx_need_data(cx, n, x, 0); /* names what is missing */
    int axis = seer_onnx_norm_axis(seer_onnx_attr_int(n, "axis", -1), x->rank);
    if (axis != x->rank - 1 || !per_position(x))
        return unsupported_shape(cx, n, x, o, "a layer norm over other than the channels (the last axis of "
                                              "N x H x W x C or N x C)");
    return simple(cx, n, x, o, "layernorm", "");
}

/* Views of the input's elements: Identity, Flatten, Reshape, (Un)squeeze. */
static seer_status_t do_view_op(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o)
{
    const char *op = n->op_type;
    seer_status_t st;
    if ((st = seer_onnx_need_view(cx, n, x))) return st;
    if (!strcmp(op, "Identity")) {
        o->layer = x->layer;
        return copy_shape(cx, n, o, x);
    }
    if (!strcmp(op, "Flatten")) {
        int axis = seer_onnx_norm_axis(seer_onnx_attr_int(n, "axis", 1), x->rank + 1);
        if (axis != 1) return seer_onnx_unsupported(cx, n, "a flatten that moves the batch dimension (axis other than 1)");
        int64_t d[2] = {x->d[0], seer_onnx_elems(x, 1)};
        return view(cx, n, x, o, 2, d, x->rank > 2, 0);
    }
    if (!strcmp(op, "Reshape")) return do_reshape(cx, n, x, o);
    return do_squeeze(cx, n, x, o, op[0] == 'U');
}

/* MatMul, fused with a following bias Add when there is one; the fusion
 * is undone when the product itself is not translated. */
static seer_status_t do_matmul(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *x, tensor_t *o)
{
    int add = matmul_bias(cx, n, o);
    if (add >= 0) {
        const SeerOnnx__NodeProto *a = cx->g->node[add];
        cx->alias_in[add] = strcmp(a->input[0], o->name) ? 1 : 0;
    }
    seer_status_t st = do_gemm(cx, n, x, o, 1, &add);
    if (add >= 0 && o->layer < 0) cx->alias_in[add] = -1; /* not translated: the Add is on its own */
    return st;
}

/* A batch norm's scale, bias, mean and variance: one value per channel
 * (onnxruntime refuses others), as a Conv's bias is checked; before
 * opset 9, spatial=0 normalizes per activation (C x H x W values). */
static seer_status_t bn_params(cx_t *cx, const SeerOnnx__NodeProto *n, const tensor_t *x)
{
    if (!x || !x->known || x->rank < 2 || (cx->opset < 9 && !seer_onnx_attr_int(n, "spatial", 1))) return SEER_STATUS_SUCCESS;
    static const char *const what[] = {"scale", "bias", "mean", "variance"};
    for (size_t i = 1; i < 5 && i < n->n_input; i++) {
        const tensor_t *p = seer_onnx_input(cx, n, i);
        if (!p || !p->known || (p->rank == 1 && p->d[0] == x->d[1])) continue;
        char b[72];
        return seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "%s '%s' is not one value per channel (%lld)", what[i - 1],
                              seer_onnx_show(p->name, b, sizeof b), (long long)x->d[1]);
    }
    return SEER_STATUS_SUCCESS;
}

/* An initializer of the module (through Identity), not a constant the
 * exporter made: a Constant node's output (the TorchScript-based
 * exporter's), or an initializer torch.export names val_N. */
static int module_param(cx_t *cx, const tensor_t *t)
{
    while (t && t->producer >= 0 && !strcmp(cx->g->node[t->producer]->op_type, "Identity"))
        t = seer_onnx_input(cx, cx->g->node[t->producer], 0);
    if (!t || !t->is_const || t->producer >= 0) return 0;
    const char *p = t->name;
    if (strncmp(p, "val_", 4)) return 1;
    for (p += 4; *p >= '0' && *p <= '9'; p++) {}
    return *p != 0 || p == t->name + 4;
}

/* Whether w and b, the sources (weight_source) of the Mul and Add after a
 * group norm of c channels, are its affine part: 1 with *learnable set
 * for nn.GroupNorm's weight and bias (c values each), or for the ones
 * and zeros the exporter writes for one without them (one value each:
 * nothing learnable, nothing computed); 0 for any other product and sum
 * (a scalar or a C x H x W tensor), layers of their own. */
static int groupnorm_affine(const tensor_t *w, const tensor_t *b, int64_t c, int *learnable)
{
    if (!w || !b || !w->known || !b->known) return 0;
    int64_t ew = seer_onnx_elems(w, 0), eb = seer_onnx_elems(b, 0);
    if (ew == c && eb == c) return *learnable = 1;
    return ew == 1 && eb == 1 && w->nval == 1 && b->nval == 1 && w->val[0] == 1 && b->val[0] == 0;
}

/* Group norm as exporters write nn.GroupNorm(G, C): Reshape(x, [N, G,
 * -1]) -> InstanceNormalization (of the exporter's ones and zeros) ->
 * Reshape back -> Mul by the weight -> Add of the bias; InstanceNorm2d
 * as one InstanceNormalization over N x C x H x W (its scale and bias
 * the module's when it has them); GroupNormalization (opset 18 on).  A
 * groupnorm layer, the Mul and Add fused into it when they follow. */
static seer_status_t do_groupnorm(cx_t *cx, int ni, tensor_t *x, tensor_t *o)
{
    const SeerOnnx__NodeProto *n = cx->g->node[ni];
    seer_status_t st;
    if (!x || x->layer < 0 || !x->known) return seer_onnx_need_data(cx, n, x, 0); /* names what is missing */
    const layer_t *l = &cx->L[x->layer];
    int64_t G, c = l->c;
    int learnable = 0;
    if (!strcmp(n->op_type, "GroupNormalization")) {
        G = seer_onnx_attr_int(n, "num_groups", 0);
        learnable = 1;
        if (x->rank != 4 || x->nhwc || x->d[1] != c || x->d[2] != l->h || x->d[3] != l->w || G < 1 || G > c || c % G)
            return unsupported_shape(cx, n, x, o, "a group norm of other than N x C x H x W in groups dividing C");
    } else if (x->rank == 4 && !x->nhwc && x->d[1] == c && x->d[2] == l->h && x->d[3] == l->w) {
        G = c; /* InstanceNorm2d */
        learnable = n->n_input >= 3 && module_param(cx, seer_onnx_input(cx, n, 1));
    } else {
        /* N x G x (C/G)HW: a view of the layer's own N x C x H x W */
        G = x->rank == 3 && !x->nhwc ? x->d[1] : 0;
        if (G < 1 || c % G || x->d[2] != c / G * l->h * l->w)
            return unsupported_shape(cx, n, x, o, "an instance norm of other than N x C x H x W or its N x G x "
                                                  "(C/G)HW view (a group norm)");
        int k[3], chain[3];
        chain[0] = next_of(cx, ni, "Reshape", 0, &k[0]);
        if (chain[0] >= 0 && (chain[1] = next_of(cx, chain[0], "Mul", -1, &k[1])) >= 0 &&
            (chain[2] = next_of(cx, chain[1], "Add", -1, &k[2])) >= 0 &&
            groupnorm_affine(weight_source(cx, seer_onnx_input(cx, cx->g->node[chain[1]], (size_t)(1 - k[1]))),
                             weight_source(cx, seer_onnx_input(cx, cx->g->node[chain[2]], (size_t)(1 - k[2]))), c,
                             &learnable)) {
            cx->alias_in[chain[1]] = k[1];
            cx->alias_in[chain[2]] = k[2];
        }
    }
    /* the layer has x's layer's shape; o stays the view x is of it */
    int64_t d4[4] = {x->d[0], c, l->h, l->w}, dv[SEER_ONNX_MAX_RANK];
    int rank = x->rank;
    memcpy(dv, x->d, (size_t)rank * sizeof *dv);
    tensor_t *in = x, whole = *x;
    if (rank != 4) { /* the layer line reads its input as the whole layer */
        whole.rank = 4;
        memcpy(whole.d, d4, sizeof d4);
        in = &whole;
    }
    if ((st = seer_onnx_set_dims(cx, n, o, 4, d4)) || (st = seer_onnx_layer_line(cx, n, o, "groupnorm", &in, 1)))
        return st;
    seer_onnx_emit(cx, " groups=%lld%s\n", (long long)G, learnable ? "" : " learnable=0");
    return seer_onnx_set_dims(cx, n, o, rank, dv);
}

/* The operator's own translation, once its data inputs are computable. */
static seer_status_t dispatch(cx_t *cx, int ni, tensor_t *x, tensor_t *o)
{
    const SeerOnnx__NodeProto *n = cx->g->node[ni];
    const char *op = n->op_type;
    char why[160];
    int ln;
    for (size_t i = 0; i < sizeof SIMPLE_OPS / sizeof SIMPLE_OPS[0]; i++)
        if (!strcmp(op, SIMPLE_OPS[i].op)) {
            /* batch norm, softmax and LRN have an axis; the activations do not */
            if (x && x->nhwc && (!strcmp(op, "BatchNormalization") || strstr(op, "Softmax") || !strcmp(op, "LRN")))
                return seer_onnx_unsupported(cx, n, CHANNELS_LAST);
            seer_status_t st;
            if (!strcmp(op, "BatchNormalization") && (st = bn_params(cx, n, x))) return st;
            return simple(cx, n, x, o, SIMPLE_OPS[i].type, "");
        }
    if (!strcmp(op, "Conv")) return do_conv(cx, n, x, o);
    if (!strcmp(op, "InstanceNormalization") || !strcmp(op, "GroupNormalization")) return do_groupnorm(cx, ni, x, o);
    if (!strcmp(op, "ConvTranspose")) return do_deconv(cx, n, x, o);
    if (!strcmp(op, "Sigmoid") || !strcmp(op, "HardSigmoid")) return do_gate(cx, ni, x, o);
    if (!strcmp(op, "Clip")) return do_clip(cx, n, x, o);
    if (!strcmp(op, "PRelu")) return do_prelu(cx, n, x, o);
    if (!strcmp(op, "Pad")) return do_pad(cx, n, x, o);
    if (!strcmp(op, "ImageScaler")) /* scale and per-channel bias (opsets 1-9's input normalization) */
        return x && x->nhwc ? seer_onnx_unsupported(cx, n, CHANNELS_LAST) : simple(cx, n, x, o, "scale", "");
    if (!strcmp(op, "Dropout")) return do_dropout(cx, n, x, o);
    if (!strcmp(op, "MaxPool") || !strcmp(op, "AveragePool")) return do_pool(cx, n, x, o, op[0] == 'M');
    if (!strcmp(op, "GlobalAveragePool") || !strcmp(op, "GlobalMaxPool")) return do_global_pool(cx, n, x, o);
    if (!strcmp(op, "ReduceMean") && (ln = decomposed_layernorm(cx, ni, x)))
        return simple(cx, n, x, o, "layernorm", ln == 2 ? " unfused=1" : "");
    if (!strcmp(op, "ReduceMean") || !strcmp(op, "ReduceMax") || !strcmp(op, "ReduceL2")) return do_reduce(cx, ni, x, o);
    if (!strcmp(op, "Add") || !strcmp(op, "Sum") || !strcmp(op, "Sub")) return do_add(cx, n, o);
    if (!strcmp(op, "Concat")) return do_concat(cx, n, o);
    if (!strcmp(op, "Mul")) return do_mul(cx, n, o);
    if (!strcmp(op, "Identity") || !strcmp(op, "Flatten") || !strcmp(op, "Reshape") || !strcmp(op, "Squeeze") ||
        !strcmp(op, "Unsqueeze"))
        return do_view_op(cx, n, x, o);
    if (!strcmp(op, "Gemm")) { int none = -1; return do_gemm(cx, n, x, o, 0, &none); }
    if (!strcmp(op, "MatMul")) return do_matmul(cx, n, x, o);
    if (!strcmp(op, "Split")) return do_split(cx, n, x, o);
    if (!strcmp(op, "Slice")) return do_slice(cx, n, x, o);
    if (!strcmp(op, "Transpose")) {
        int max;
        int64_t out = gathered_pool(cx, ni, x, &max);
        if (!out) return do_transpose(cx, n, x, o);
        seer_status_t st = seer_onnx_need_data(cx, n, x, 1);
        return st ? st : adaptive_pool(cx, n, x, o, out, max);
    }
    if (!strcmp(op, "LayerNormalization")) return do_layernorm(cx, n, x, o);
    if (!strcmp(op, "Gather")) return do_gather(cx, n, x, o);
    if (!strcmp(op, "Div")) return do_div(cx, ni, x, o);
    if (!strcmp(op, "Resize") || !strcmp(op, "Upsample")) return do_resize(cx, n, x, o);
    snprintf(why, sizeof why, "the description format has no %.60s layer", op);
    return unsupported_shape(cx, n, x, o, why);
}

/* The string attributes libseer reads (auto_pad sets the padding, the
 * Resize ones decide what is unsupported) and the modes it costs alike:
 * a value outside ONNX's set is an invalid model, refused rather than
 * read as the default.  Upsample's bilinear is opset 1's name for linear;
 * Cast names its type by a string before opset 6 (its int, the later
 * form, is read there too).  NULL-terminated value lists. */
static const char *const AUTO_PAD[] = {"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID",
                                       "", /* onnxruntime reads an empty auto_pad as NOTSET */ NULL};
static const char *const PAD_MODE[] = {"constant", "reflect", "edge", "wrap", NULL};
static const char *const RESIZE_MODE[] = {"nearest", "linear", "bilinear", "cubic", NULL};
static const char *const COORD_MODE[] = {"half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners",
                                         "asymmetric", "tf_half_pixel_for_nearest", "tf_crop_and_resize", NULL};
static const char *const NEAREST_MODE[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil", NULL};
static const char *const ASPECT_POLICY[] = {"stretch", "not_larger", "not_smaller", NULL};
static const char *const TYPE_NAME[] = {"FLOAT", "UINT8", "INT8", "UINT16", "INT16", "INT32", "INT64", "STRING",
                                        "BOOL", "FLOAT16", "DOUBLE", "UINT32", "UINT64", "COMPLEX64", "COMPLEX128",
                                        NULL};
static const struct {
    const char *op, *attr;
    const char *const *values;
    int below_opset;            /* a string attribute before this opset only; 0: always */
} STRING_ATTRS[] = {
    {"Conv", "auto_pad", AUTO_PAD, 0}, {"ConvTranspose", "auto_pad", AUTO_PAD, 0}, {"MaxPool", "auto_pad", AUTO_PAD, 0}, {"AveragePool", "auto_pad", AUTO_PAD, 0},
    {"Pad", "mode", PAD_MODE, 0}, {"Resize", "mode", RESIZE_MODE, 0}, {"Upsample", "mode", RESIZE_MODE, 0},
    {"Resize", "coordinate_transformation_mode", COORD_MODE, 0}, {"Resize", "nearest_mode", NEAREST_MODE, 0},
    {"Resize", "keep_aspect_ratio_policy", ASPECT_POLICY, 0}, {"Cast", "to", TYPE_NAME, 6},
};

/* Node n's string attributes of STRING_ATTRS: absent, or a string among
 * ONNX's values; else ONNX_CORRUPT naming the node and the attribute. */
static seer_status_t check_string_attrs(cx_t *cx, const SeerOnnx__NodeProto *n)
{
    for (size_t i = 0; i < sizeof STRING_ATTRS / sizeof STRING_ATTRS[0]; i++) {
        int later = STRING_ATTRS[i].below_opset && cx->opset >= STRING_ATTRS[i].below_opset;
        if (later || strcmp(n->op_type, STRING_ATTRS[i].op)) continue;
        const SeerOnnx__AttributeProto *a = seer_onnx_attr(n, STRING_ATTRS[i].attr);
        if (!a) continue;
        if (!a->has_s && STRING_ATTRS[i].below_opset) continue; /* the later form (Cast's int), read as well */
        if (!a->has_s)
            return seer_onnx_nerr(cx, n, SEER_STATUS_ONNX_CORRUPT, "attribute %s is not a string", STRING_ATTRS[i].attr);
        const char *const *v = STRING_ATTRS[i].values;
        /* an empty value's data may be NULL, which memcmp must not get */
        while (*v && !(a->s.len == strlen(*v) && (!a->s.len || !memcmp(a->s.data, *v, a->s.len)))) v++;
        if (*v) continue;
        char val[64], shown[72], list[200];
        size_t k = a->s.len < sizeof val - 1 ? a->s.len : sizeof val - 1, len = 0;
        if (k) memcpy(val, a->s.data, k);
        val[k] = 0; /* bytes, not a C string: cut at a NUL or the buffer */
        list[0] = 0;
        for (v = STRING_ATTRS[i].values; *v && len < sizeof list; v++)
            if (**v) len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "", *v);
        return seer_onnx_nerr(cx, n, SEER_STATUS_ONNX_CORRUPT, "attribute %s is '%s', none of ONNX's values (%s)",
                              STRING_ATTRS[i].attr, seer_onnx_show(val, shown, sizeof shown), list);
    }
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_onnx_emit_node(cx_t *cx, int ni)
{
    const SeerOnnx__NodeProto *n = cx->g->node[ni];
    tensor_t *x = seer_onnx_input(cx, n, 0), *o = seer_onnx_output(cx, n, 0);
    seer_status_t st;
    char why[160];
    if (n->domain && n->domain[0] && strcmp(n->domain, "ai.onnx")) {
        snprintf(why, sizeof why, "an operator of domain '%.60s'", n->domain);
        return seer_onnx_unsupported(cx, n, why);
    }
    /* before any early return: a folded, fused or skipped node's file is
     * as invalid */
    if ((st = check_string_attrs(cx, n))) return st;
    if (!o) return SEER_STATUS_SUCCESS; /* no output anyone can name: nothing to cost */
    if (o->is_const && !strcmp(n->op_type, "Constant")) return SEER_STATUS_SUCCESS; /* folded early (const_near) */
    if (cx->alias_in[ni] >= 0) { /* fused into the node that made its input */
        tensor_t *src = seer_onnx_input(cx, n, (size_t)cx->alias_in[ni]);
        if (!src || src->layer < 0) return seer_onnx_nerr(cx, n, SEER_STATUS_INTERNAL, "fused input lost");
        o->layer = src->layer;
        return copy_shape(cx, n, o, src);
    }
    int has_data = 0;
    for (size_t i = 0; i < n->n_input; i++) {
        tensor_t *y = seer_onnx_input(cx, n, i);
        if (y && !y->is_const) has_data = 1;
    }
    if ((!has_data || !strcmp(n->op_type, "Shape")) && seer_onnx_fold(cx, n, &st)) return st;
    /* A data input libseer could not compute: after a skipped node this
     * node is skipped too (the skip is the cause), else it is an error. */
    for (size_t i = 0; i < n->n_input; i++) {
        tensor_t *y = seer_onnx_input(cx, n, i);
        if (y && !y->is_const && (!y->known || y->layer < 0)) {
            snprintf(why, sizeof why, "reads '%.60s', which libseer could not compute (after a skipped node?)",
                     y->name);
            return cx->n_unsup ? seer_onnx_unsupported(cx, n, why) : seer_onnx_nerr(cx, n, SEER_STATUS_NET_SHAPE, "%s", why);
        }
    }
    return dispatch(cx, ni, x, o);
}
