#!/usr/bin/env python3
"""Write the ONNX test models of tests/onnx/ (and their fuzz seeds).

Needs the onnx package (Debian: python3-onnx).  The graphs follow what
torch.onnx.export writes for the torchvision models (node names such as
/layer1/layer1.0/conv1/Conv, BatchNormalization kept as in a training-mode
export, Clip bounds as initializers, Flatten + Gemm classifier).  Weights
carry their dims only, no data: libseer reads shapes, so the files stay
small.  Output is deterministic; tests/python/test_onnx_models.py checks
that this script reproduces the committed files.

usage: make_models.py [OUTDIR [CORPUSDIR]]
  (default: the directory of this script and fuzz/corpus/onnx beside it)
"""
import os
import sys

import onnx
from onnx import TensorProto, helper


class Graph:
    def __init__(self, name, opset=13):
        self.name, self.opset = name, opset
        self.nodes, self.inits, self.inputs, self.outputs = [], [], [], []
        self.n = 0

    def weight(self, name, dims, vals=None, dtype=TensorProto.FLOAT):
        t = TensorProto()
        t.name, t.data_type = name, dtype
        t.dims.extend(dims)
        if vals is not None:
            if dtype == TensorProto.INT64:
                t.int64_data.extend(vals)
            else:
                t.float_data.extend(vals)
        self.inits.append(t)
        return name

    def input(self, name, dims, dtype=TensorProto.FLOAT):
        self.inputs.append(helper.make_tensor_value_info(name, dtype, dims))
        return name

    def node(self, op, inputs, name, outputs=1, **attrs):
        outs = [name + ":out" + (str(i) if i else "") for i in range(outputs)] if outputs else []
        self.nodes.append(helper.make_node(op, inputs, outs, name=name, **attrs))
        return outs[0] if outputs == 1 else outs

    def metadata(self, key, value):
        """Give the last node a metadata entry (NodeProto.metadata_props,
        field 9 since ONNX 1.16) as raw bytes, so that an onnx package
        without the field (Debian's 1.12) writes the same file."""
        entry = onnx.StringStringEntryProto(key=key, value=value).SerializeToString()
        n, size = len(entry), b""
        while True:
            size += bytes([(n & 0x7f) | (0x80 if n > 0x7f else 0)])
            n >>= 7
            if not n:
                break
        node = onnx.NodeProto()
        node.ParseFromString(self.nodes[-1].SerializeToString() + b"\x4a" + size + entry)
        self.nodes[-1] = node

    def model(self, output):
        self.outputs.append(helper.make_tensor_value_info(output, TensorProto.FLOAT, None))
        g = helper.make_graph(self.nodes, self.name, self.inputs, self.outputs, self.inits)
        m = helper.make_model(g, producer_name="libseer-tests", producer_version="1",
                              opset_imports=[helper.make_opsetid("", self.opset)])
        m.ir_version = 8
        return m

    # torchvision-style pieces
    def conv(self, x, prefix, cin, cout, k, stride=1, pad=0, groups=1, bias=False, dil=1):
        w = self.weight(prefix + ".weight", [cout, cin // groups, k, k])
        ins = [x, w] + ([self.weight(prefix + ".bias", [cout])] if bias else [])
        return self.node("Conv", ins, "/" + prefix.replace(".", "/") + "/Conv", kernel_shape=[k, k],
                         strides=[stride, stride], pads=[pad] * 4, group=groups, dilations=[dil, dil])

    def bn(self, x, prefix, c, training=False):
        ws = [self.weight(prefix + "." + s, [c]) for s in ("weight", "bias", "running_mean", "running_var")]
        if training:  # opset 14+: training_mode=1 and the running statistics as outputs
            return self.node("BatchNormalization", [x] + ws, "/" + prefix.replace(".", "/") + "/BatchNormalization",
                             outputs=3, epsilon=1e-5, momentum=0.9, training_mode=1)[0]
        return self.node("BatchNormalization", [x] + ws, "/" + prefix.replace(".", "/") + "/BatchNormalization",
                         epsilon=1e-5, momentum=0.9)

    def relu(self, x, prefix):
        return self.node("Relu", [x], "/" + prefix.replace(".", "/") + "/Relu")


def resnet50(training_bn=False, opset=13, reduce_mean=False, fold=None):
    """reduce_mean: the global pool as torch.export's exporter (PyTorch's
    default since 2.9) writes it, ReduceMean over axes [-1, -2] given as
    an input (opset 18), keepdims, then a Reshape to [-1, 2048].
    fold: each batch norm folded into its conv as an eval-mode export
    does: "torchscript" names the folded weight and bias onnx::Conv_N (the
    TorchScript-based exporter), "dynamo" keeps the weight's name and
    calls the new bias WEIGHT_bias (torch.export's, onnxscript's
    FuseBatchNormIntoConv), "dynamo_zero" drops that bias, all zeros in an
    untrained model, leaving the rewrite's record in the node's metadata."""
    g = Graph("resnet50", opset)
    folded = [0]

    def conv_bn(x, cp, bp, cin, cout, k, stride=1, pad=0):
        if fold is None:
            return g.bn(g.conv(x, cp, cin, cout, k, stride, pad), bp, cout, training_bn)
        if fold == "torchscript":
            folded[0] += 2
            w = g.weight("onnx::Conv_%d" % (500 + folded[0]), [cout, cin, k, k])
            b = g.weight("onnx::Conv_%d" % (501 + folded[0]), [cout])
        elif fold == "dynamo":
            w = g.weight(cp + ".weight", [cout, cin, k, k])
            b = g.weight(cp + ".weight_bias", [cout])
        else:
            y = g.node("Conv", [x, g.weight(cp + ".weight", [cout, cin, k, k])], "/" + cp.replace(".", "/") + "/Conv",
                       kernel_shape=[k, k], strides=[stride, stride], pads=[pad] * 4, group=1, dilations=[1, 1])
            g.metadata("pkg.onnxscript.rewriter.rule_name",
                       "RemoveOptionalBiasFromConv, FuseBatchNormIntoConv, RemoveOptionalBiasFromConv")
            return y
        return g.node("Conv", [x, w, b], "/" + cp.replace(".", "/") + "/Conv", kernel_shape=[k, k],
                      strides=[stride, stride], pads=[pad] * 4, group=1, dilations=[1, 1])

    x = g.input("input", ["batch", 3, 224, 224])
    x = g.relu(conv_bn(x, "conv1", "bn1", 3, 64, 7, 2, 3), "relu")
    x = g.node("MaxPool", [x], "/maxpool/MaxPool", kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    cin = 64
    for li, (width, blocks, stride) in enumerate([(64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)], 1):
        for b in range(blocks):
            p = "layer%d.%d" % (li, b)
            s = stride if b == 0 else 1
            y = g.relu(conv_bn(x, p + ".conv1", p + ".bn1", cin, width, 1), p + ".relu")
            y = g.relu(conv_bn(y, p + ".conv2", p + ".bn2", width, width, 3, s, 1), p + ".relu_1")
            y = conv_bn(y, p + ".conv3", p + ".bn3", width, width * 4, 1)
            if b == 0:
                x = conv_bn(x, p + ".downsample.0", p + ".downsample.1", cin, width * 4, 1, s)
            x = g.relu(g.node("Add", [y, x], "/" + p.replace(".", "/") + "/Add"), p + ".relu_2")
            cin = width * 4
    if reduce_mean:
        x = g.node("ReduceMean", [x, g.weight("val_axes", [2], [-1, -2], TensorProto.INT64)], "node_mean",
                   keepdims=1)
        x = g.node("Reshape", [x, g.weight("val_shape", [2], [-1, 2048], TensorProto.INT64)], "node_view")
    else:
        x = g.node("GlobalAveragePool", [x], "/avgpool/GlobalAveragePool")
        x = g.node("Flatten", [x], "/Flatten", axis=1)
    x = g.node("Gemm", [x, g.weight("fc.weight", [1000, 2048]), g.weight("fc.bias", [1000])], "/fc/Gemm",
               alpha=1.0, beta=1.0, transB=1)
    return g.model(g.node("Softmax", [x], "/loss/Softmax", axis=1))


def mobilenet_v2():
    g = Graph("mobilenet_v2", 13)
    x = g.input("input", ["N", 3, 224, 224])
    lo, hi = g.weight("clip_min", [], [0.0]), g.weight("clip_max", [], [6.0])

    def cbr(x, p, cin, cout, k, s, groups=1):
        y = g.bn(g.conv(x, p + ".0", cin, cout, k, s, (k - 1) // 2, groups), p + ".1", cout)
        return g.node("Clip", [y, lo, hi], "/" + p.replace(".", "/") + "/2/Clip")

    x = cbr(x, "features.0", 3, 32, 3, 2)
    cin, idx = 32, 1
    for t, c, n, s in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2),
                       (6, 320, 1, 1)]:
        for i in range(n):
            p = "features.%d.conv" % idx
            stride, hid = s if i == 0 else 1, cin * t
            y, j = x, 0
            if t != 1:
                y, j = cbr(y, p + ".0", cin, hid, 1, 1), 1
            y = cbr(y, p + ".%d" % j, hid, hid, 3, stride, hid)
            y = g.bn(g.conv(y, p + ".%d" % (j + 1), hid, c, 1), p + ".%d" % (j + 2), c)
            x = g.node("Add", [x, y], "/features.%d/Add" % idx) if stride == 1 and cin == c else y
            cin, idx = c, idx + 1
    x = cbr(x, "features.18", 320, 1280, 1, 1)
    x = g.node("GlobalAveragePool", [x], "/GlobalAveragePool")
    x = g.node("Flatten", [x], "/Flatten", axis=1)
    x = g.node("Dropout", [x, g.weight("ratio", [], [0.2])], "/classifier/classifier.0/Dropout")
    x = g.node("Gemm", [x, g.weight("classifier.1.weight", [1000, 1280]), g.weight("classifier.1.bias", [1000])],
               "/classifier/classifier.1/Gemm", transB=1)
    return g.model(g.node("Softmax", [x], "/loss/Softmax", axis=1))


def ops():
    """Concat, pooling with ceil mode, auto_pad, SiLU as Sigmoid * x,
    HardSwish, LeakyRelu, a dynamic Reshape through Shape/Gather/Concat,
    Squeeze/Unsqueeze, MatMul + Add, Identity, Dropout, Softmax."""
    g = Graph("ops", 13)
    x = g.input("x", ["N", 3, 32, 32])
    a = g.node("Conv", [x, g.weight("w0", [16, 3, 3, 3])], "stem", kernel_shape=[3, 3], auto_pad="SAME_UPPER")
    a = g.node("LeakyRelu", [a], "leaky", alpha=0.1)
    b1 = g.node("Conv", [a, g.weight("w1", [8, 16, 1, 1]), g.weight("b1", [8])], "branch1")
    b2 = g.node("Conv", [a, g.weight("w2", [8, 16, 3, 3])], "branch2", pads=[2, 2, 2, 2], dilations=[2, 2])
    c = g.node("Concat", [b1, b2], "cat", axis=1)
    c = g.node("AveragePool", [c], "avg", kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1)
    s = g.node("Sigmoid", [c], "sig")
    c = g.node("Mul", [c, s], "silu")
    c = g.node("HardSwish", [c], "hswish")
    c = g.node("MaxPool", [c], "max", kernel_shape=[2, 2], strides=[2, 2])
    d = g.node("Conv", [c, g.weight("w3", [16, 1, 3, 3])], "dw", kernel_shape=[3, 3], pads=[1, 1, 1, 1], group=16)
    d = g.node("Identity", [d], "id")
    shp = g.node("Shape", [d], "shape")
    n0 = g.node("Gather", [shp, g.weight("zero", [], [0], TensorProto.INT64)], "gather", axis=0)
    n0 = g.node("Unsqueeze", [n0, g.weight("axes0", [1], [0], TensorProto.INT64)], "unsq")
    tgt = g.node("Concat", [n0, g.weight("minus1", [1], [-1], TensorProto.INT64)], "target", axis=0)
    f = g.node("Reshape", [d, tgt], "reshape")
    f = g.node("MatMul", [f, g.weight("wm", [1024, 10])], "matmul")
    f = g.node("Add", [f, g.weight("bm", [10])], "bias")
    f = g.node("Unsqueeze", [f, g.weight("axes2", [2], [2, 3], TensorProto.INT64)], "to4d")
    f = g.node("Squeeze", [f, g.weight("axes3", [2], [2, 3], TensorProto.INT64)], "to2d")
    f = g.node("Dropout", [f, g.weight("p", [], [0.1])], "drop")
    return g.model(g.node("Softmax", [f], "prob", axis=1))


def shuffle_unit(opset):
    """A ShuffleNet v2 unit as torchvision's exports write it: the channel
    split as two Slices (opset 13) or one Split with num_outputs (opset
    18), and the shuffle as Reshape to N x 2 x C/2 x H x W, Transpose
    (0 2 1 3 4), Reshape back."""
    g = Graph("shuffle_unit", opset)
    x = g.input("x", ["N", 16, 8, 8])
    if opset < 18:
        i64 = TensorProto.INT64
        a = g.node("Slice", [x, g.weight("s0", [1], [0], i64), g.weight("e0", [1], [8], i64),
                             g.weight("ax", [1], [1], i64)], "split_a")
        b = g.node("Slice", [x, g.weight("s1", [1], [8], i64), g.weight("e1", [1], [2**63 - 1], i64),
                             g.weight("ax1", [1], [1], i64)], "split_b")
    else:
        a, b = g.node("Split", [x], "split", outputs=2, axis=1, num_outputs=2)
    b = g.node("Conv", [b, g.weight("w", [8, 8, 1, 1])], "branch")
    b = g.node("Relu", [b], "branch_relu")
    y = g.node("Concat", [a, b], "cat", axis=1)
    y = g.node("Reshape", [y, g.weight("to5", [5], [-1, 2, 8, 8, 8], TensorProto.INT64)], "view")
    y = g.node("Transpose", [y], "shuffle", perm=[0, 2, 1, 3, 4])
    y = g.node("Reshape", [y, g.weight("to4", [4], [-1, 16, 8, 8], TensorProto.INT64)], "view_back")
    return g.model(g.node("Conv", [y, g.weight("w2", [4, 16, 1, 1])], "after"))


def convnext(opset, dynamic=False):
    """A ConvNeXt stage as torchvision's exports write it: the stem's
    LayerNorm2d and each block's depthwise 7x7 conv, permute to channels
    last, LayerNormalization over the channels, Linear 4x wider (MatMul +
    bias Add), GELU, Linear back, permute back, layer scale, residual Add;
    then the head.  Opset 20 as torch.export writes it (a Gelu node; the
    pooled features flattened and gathered back, as_strided, exported at
    batch 1), opset 17 as the older exporter (GELU as Div, Erf, Add, Mul,
    Mul; GlobalAveragePool).  Opset 18 as torch.export writes it at that
    opset (GELU's two products the other way round) and an exporter that
    shares equal weights (block 1's layer scale an Identity of block 0's);
    opset 13 as the older exporter before LayerNormalization existed (the
    layer norm as ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div, Mul,
    Add).  dynamic: a symbolic batch, the as_strided indices built from
    Range(0, batch) as torch.export writes them."""
    g = Graph("convnext", opset)
    i64 = TensorProto.INT64
    c = 16
    x = g.input("x", ["N" if dynamic else 1, 3, 32, 32])
    y = g.node("Conv", [x, g.weight("stem.w", [c, 3, 4, 4])], "stem", kernel_shape=[4, 4], strides=[4, 4])

    def ln(y, name):
        if opset >= 17:
            return g.node("LayerNormalization", [y, g.weight(name + ".w", [c]), g.weight(name + ".b", [c])], name,
                          axis=-1, epsilon=1e-6)
        mean = g.node("ReduceMean", [y], name + "/ReduceMean", axes=[-1])
        d = g.node("Sub", [y, mean], name + "/Sub")
        v = g.node("ReduceMean", [g.node("Pow", [d, g.weight(name + ".two", [], [2.0])], name + "/Pow")],
                   name + "/ReduceMean_1", axes=[-1])
        v = g.node("Sqrt", [g.node("Add", [v, g.weight(name + ".eps", [], [1e-6])], name + "/Add")], name + "/Sqrt")
        y = g.node("Mul", [g.node("Div", [d, v], name + "/Div"), g.weight(name + ".w", [c])], name + "/Mul")
        return g.node("Add", [y, g.weight(name + ".b", [c])], name + "/Add_1")

    y = g.node("Transpose", [y], "stem_permute", perm=[0, 2, 3, 1])
    y = g.node("Transpose", [ln(y, "stem_ln")], "stem_permute_back", perm=[0, 3, 1, 2])
    for b in range(2):
        p = "block%d" % b
        r = g.node("Conv", [y, g.weight(p + ".dw", [c, 1, 7, 7])], p + "/dwconv", kernel_shape=[7, 7],
                   pads=[3] * 4, group=c)
        r = ln(g.node("Transpose", [r], p + "/permute", perm=[0, 2, 3, 1]), p + "/ln")
        r = g.node("MatMul", [r, g.weight(p + ".fc1", [c, 4 * c])], p + "/fc1")
        r = g.node("Add", [r, g.weight(p + ".fc1.b", [4 * c])], p + "/fc1_bias")
        if opset >= 20:
            r = g.node("Gelu", [r], p + "/gelu")
        else:  # each constant a Constant node just before its reader, as that exporter writes them
            def const(name, v):
                return g.node("Constant", [], p + "/gelu/" + name,
                              value=helper.make_tensor("v", TensorProto.FLOAT, [], [v]))
            h = g.node("Div", [r, const("sqrt2", 1.4142135)], p + "/gelu/Div")
            h = g.node("Erf", [h], p + "/gelu/Erf")
            h = g.node("Add", [h, const("one", 1.0)], p + "/gelu/Add")
            if opset == 18:
                h = g.node("Mul", [const("half", 0.5), h], p + "/gelu/Mul")
                r = g.node("Mul", [r, h], p + "/gelu/Mul_1")
            else:
                h = g.node("Mul", [r, h], p + "/gelu/Mul")
                r = g.node("Mul", [h, const("half", 0.5)], p + "/gelu/Mul_1")
        r = g.node("MatMul", [r, g.weight(p + ".fc2", [4 * c, c])], p + "/fc2")
        r = g.node("Add", [g.weight(p + ".fc2.b", [c]), r], p + "/fc2_bias")
        r = g.node("Transpose", [r], p + "/permute_back", perm=[0, 3, 1, 2])
        if opset == 18 and b == 1:
            scale = g.node("Identity", ["block0.layer_scale"], p + "/shared_scale")
        else:
            scale = g.weight(p + ".layer_scale", [c, 1, 1])
        r = g.node("Mul", [scale, r], p + "/layer_scale")
        y = g.node("Add", [r, y], p + "/add")
    if opset >= 20:
        y = g.node("ReduceMean", [y, g.weight("hw", [2], [-1, -2], i64)], "mean", keepdims=1)
        y = g.node("Reshape", [y, g.weight("flat", [1], [-1], i64)], "flat")
        if dynamic:
            b = g.node("Gather", [g.node("Shape", [x], "shape"), g.weight("zero", [], [0], i64)], "batch", axis=0)
            r = g.node("Range", [g.weight("r0", [], [0], i64), b, g.weight("r1", [], [1], i64)], "range")
            r = g.node("Mul", [r, g.weight("stride", [], [c], i64)], "row_start")
            r = g.node("Unsqueeze", [r, g.weight("ax123", [3], [1, 2, 3], i64)], "row_start4")
            ix = g.node("Add", [r, g.weight("strided", [1, c, 1, 1], list(range(c)), i64)], "indices")
        else:
            ix = g.weight("strided", [1, c, 1, 1], list(range(c)), i64)
        y = g.node("Gather", [y, ix], "as_strided", axis=0)
    else:
        y = g.node("GlobalAveragePool", [y], "pool")
    y = g.node("Transpose", [y], "head_permute", perm=[0, 2, 3, 1])
    y = g.node("Transpose", [ln(y, "head_ln")], "head_permute_back", perm=[0, 3, 1, 2])
    y = g.node("Reshape", [y, g.weight("to2", [2], [-1 if dynamic else 1, c], i64)], "view")
    return g.model(g.node("Gemm", [y, g.weight("fc.w", [10, c]), g.weight("fc.b", [10])], "fc", transB=1))


def transform_input(opset):
    """torchvision's transform_input (GoogLeNet, Inception v3 with
    pretrained weights): each channel x[:, i] (a Gather with a scalar
    index), unsqueezed, scaled and shifted by constants, concatenated back;
    here the last one's shift is a Sub."""
    g = Graph("transform_input", opset)
    i64 = TensorProto.INT64
    x = g.input("x", ["N", 3, 8, 8])
    chans = []
    for i in range(3):
        c = g.node("Gather", [x, g.weight("i%d" % i, [], [i], i64)], "select%d" % i, axis=1)
        c = g.node("Unsqueeze", [c, g.weight("ax%d" % i, [1], [1], i64)], "unsqueeze%d" % i)
        c = g.node("Mul", [c, g.weight("s%d" % i, [], [0.45])], "mul%d" % i)
        c = g.node("Sub" if i == 2 else "Add", [c, g.weight("b%d" % i, [], [0.03])], "shift%d" % i)
        chans.append(c)
    y = g.node("Concat", chans, "cat", axis=1)
    return g.model(g.node("Conv", [y, g.weight("w", [4, 3, 3, 3])], "conv", pads=[1, 1, 1, 1]))


def alexnet_caffe(opset=3):
    """The ONNX model zoo's bvlcalexnet as its opset 3 file has it (caffe2
    export): biased convs, LRN after the first two, grouped convs, Reshape
    with its shape as an attribute, legacy Gemm broadcast, Dropout with
    is_test."""
    g = Graph("alexnet_caffe", opset)
    y = g.input("data_0", [1, 3, 227, 227])

    def conv(y, i, cin, cout, k, stride=1, pad=0, group=1):
        w, b = g.weight("conv%d_w_0" % i, [cout, cin // group, k, k]), g.weight("conv%d_b_0" % i, [cout])
        y = g.node("Conv", [y, w, b], "conv%d" % i, kernel_shape=[k, k], strides=[stride, stride], pads=[pad] * 4,
                   group=group)
        return g.node("Relu", [y], "relu%d" % i)

    def lrn(y, i):
        return g.node("LRN", [y], "norm%d" % i, size=5, alpha=1e-4, beta=0.75, bias=1.0)

    def pool(y, i):
        return g.node("MaxPool", [y], "pool%d" % i, kernel_shape=[3, 3], strides=[2, 2], pads=[0, 0, 0, 0])

    y = pool(lrn(conv(y, 1, 3, 96, 11, 4), 1), 1)
    y = pool(lrn(conv(y, 2, 96, 256, 5, pad=2, group=2), 2), 2)
    y = conv(y, 3, 256, 384, 3, pad=1)
    y = conv(y, 4, 384, 384, 3, pad=1, group=2)
    y = pool(conv(y, 5, 384, 256, 3, pad=1, group=2), 5)
    y = g.node("Reshape", [y], "flatten", shape=[1, 9216])
    for i, (cin, cout) in enumerate(((9216, 4096), (4096, 4096), (4096, 1000)), 6):
        y = g.node("Gemm", [y, g.weight("fc%d_w_0" % i, [cout, cin]), g.weight("fc%d_b_0" % i, [cout])], "fc%d" % i,
                   transB=1, broadcast=1)
        if i < 8:
            y = g.node("Dropout", [g.node("Relu", [y], "relu%d" % i)], "drop%d" % i, is_test=1, ratio=0.5)
    m = g.model(g.node("Softmax", [y], "prob"))
    m.ir_version = 3
    return m


def legacy_bias(opset=5):
    """A caffe2-converted conv whose bias is its own Add with the legacy
    broadcast=1, axis=1 (a C vector over N x C x H x W), a PRelu per
    channel and a shared one, Upsample by height_scale and width_scale, and
    a Cast named by its type (1024.5 truncates to 1024, then times 2)."""
    g = Graph("legacy_bias", opset)
    x = g.input("x", [1, 3, 8, 8])
    y = g.node("Conv", [x, g.weight("w", [8, 3, 3, 3])], "conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    y = g.node("Add", [y, g.weight("b", [8])], "bias", broadcast=1, axis=1)
    y = g.node("PRelu", [y, g.weight("slope", [8, 1, 1])], "prelu")
    y = g.node("PRelu", [y, g.weight("slope1", [1])], "prelu_shared")
    y = g.node("Upsample", [y], "up", height_scale=2.0, width_scale=2.0, mode="nearest")
    shape = g.node("Mul", [g.node("Cast", [g.weight("shape", [2], [1.0, 1024.5])], "cast", to="INT64"),
                           g.weight("two", [2], [1, 2], TensorProto.INT64)], "times")
    y = g.node("Reshape", [y, shape], "flatten")
    return g.model(y)


def tf_style():
    """A TensorFlow model as tf2onnx writes it: a channels-last input of
    symbolic batch transposed to N x C x H x W, TensorFlow's SAME padding
    at stride 2 as asymmetric pads (0, 0, 1, 1) and as auto_pad."""
    g = Graph("tf_style", 13)
    x = g.input("x", ["N", 32, 32, 3])
    y = g.node("Transpose", [x], "to_nchw", perm=[0, 3, 1, 2])
    y = g.node("Conv", [y, g.weight("w1", [16, 3, 3, 3])], "conv1", kernel_shape=[3, 3], strides=[2, 2],
               pads=[0, 0, 1, 1])
    y = g.node("MaxPool", [g.node("Relu", [y], "relu1")], "pool", kernel_shape=[3, 3], strides=[2, 2],
               auto_pad="SAME_UPPER")
    y = g.node("Flatten", [g.node("GlobalAveragePool", [y], "gap")], "flat")
    return g.model(g.node("Gemm", [y, g.weight("w2", [10, 16])], "fc", transB=1))


def keras_style():
    """A keras.applications model as tf2onnx writes it: Rescaling and
    Normalization on the channels-last input before its transpose (the
    mean a graph input, the variance one that no node reads), then
    MobileNetV3's blocks between transposes: a ZeroPadding2D of N x H x W x
    C, a depthwise conv, and squeeze-and-excite over axes 1 and 2 of the
    channels-last view gating it."""
    g = Graph("keras_style", 13)
    x = g.input("x", ["N", 32, 32, 3])
    mean = g.input("norm/mean", [1, 1, 1, 3])
    g.input("norm/variance", [1, 1, 1, 3])
    y = g.node("Mul", [x, g.weight("rescale", [], [1 / 255.0])], "rescale")
    y = g.node("Sub", [y, mean], "norm/sub")
    y = g.node("Mul", [y, g.weight("norm/inv_std", [1, 1, 1, 3])], "norm/div")
    y = g.node("Transpose", [y], "to_nchw", perm=[0, 3, 1, 2])
    y = g.node("Conv", [y, g.weight("w1", [16, 3, 3, 3])], "conv1", kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    y = g.node("Transpose", [y], "to_nhwc", perm=[0, 2, 3, 1])
    y = g.node("Clip", [y, g.weight("zero", [], [0.0]), g.weight("six", [], [6.0])], "relu6")
    y = g.node("Pad", [y, g.weight("pads", [8], [0, 0, 0, 0, 0, 1, 1, 0], TensorProto.INT64)], "zpad")
    y = g.node("Transpose", [y], "pad_nchw", perm=[0, 3, 1, 2])
    y = g.node("Conv", [y, g.weight("dw", [16, 1, 3, 3])], "dwconv", kernel_shape=[3, 3], strides=[2, 2], group=16)
    y = g.node("Transpose", [y], "dw_nhwc", perm=[0, 2, 3, 1])
    s = g.node("ReduceMean", [y], "se/squeeze", axes=[1, 2], keepdims=1)
    s = g.node("Transpose", [s], "se/nchw", perm=[0, 3, 1, 2])
    s = g.node("Relu", [g.node("Conv", [s, g.weight("se/w1", [4, 16, 1, 1])], "se/reduce", kernel_shape=[1, 1])],
               "se/relu")
    s = g.node("Sigmoid", [g.node("Conv", [s, g.weight("se/w2", [16, 4, 1, 1])], "se/expand", kernel_shape=[1, 1])],
               "se/gate")
    s = g.node("Transpose", [s], "se/nhwc", perm=[0, 2, 3, 1])
    y = g.node("Mul", [y, s], "se/excite")
    y = g.node("ReduceMean", [y], "gap", axes=[1, 2], keepdims=0)
    return g.model(g.node("Gemm", [y, g.weight("w2", [10, 16])], "fc", transB=1))


def layernorm_first():
    """ConvNeXt's reference channels-first layer norm (facebookresearch/ConvNeXt),
    as either exporter writes the model's own code: mean and variance over
    axis 1 of N x C x H x W, then weight[:, None, None] * x + bias[:, None,
    None]; between a 4x4 stride-4 stem and a 2x2 stride-2 downsampling."""
    g = Graph("layernorm_first", 13)
    y = g.node("Conv", [g.input("x", ["N", 3, 32, 32]), g.weight("w1", [16, 3, 4, 4])], "stem",
               kernel_shape=[4, 4], strides=[4, 4])
    u = g.node("ReduceMean", [y], "ln/mean", axes=[1], keepdims=1)
    d = g.node("Sub", [y, u], "ln/sub")
    s = g.node("ReduceMean", [g.node("Pow", [d, g.weight("two", [], [2.0])], "ln/pow")], "ln/var", axes=[1])
    s = g.node("Sqrt", [g.node("Add", [s, g.weight("eps", [], [1e-6])], "ln/add")], "ln/sqrt")
    z = g.node("Mul", [g.weight("ln.weight", [16, 1, 1]), g.node("Div", [d, s], "ln/div")], "ln/mul")
    z = g.node("Add", [z, g.weight("ln.bias", [16, 1, 1])], "ln/bias")
    return g.model(g.node("Conv", [z, g.weight("w2", [32, 16, 2, 2])], "down", kernel_shape=[2, 2],
                          strides=[2, 2]))


def grn():
    """ConvNeXt-V2's global response normalization on a channels-last
    view, as Hugging Face's and timm's models export: the L2 norm over H
    and W, divided by its mean over the channels plus eps, gating x, then
    the weight, the bias and the residual."""
    g = Graph("grn", 13)
    y = g.node("Conv", [g.input("x", ["N", 3, 16, 16]), g.weight("w1", [8, 3, 3, 3])], "conv", kernel_shape=[3, 3],
               pads=[1, 1, 1, 1])
    y = g.node("Transpose", [y], "to_nhwc", perm=[0, 2, 3, 1])
    n2 = g.node("ReduceL2", [y], "grn/l2", axes=[1, 2], keepdims=1)
    m = g.node("ReduceMean", [n2], "grn/mean", axes=[-1], keepdims=1)
    nx = g.node("Div", [n2, g.node("Add", [m, g.weight("grn/eps", [], [1e-6])], "grn/add_eps")], "grn/div")
    z = g.node("Mul", [g.weight("grn.weight", [1, 1, 1, 8]), g.node("Mul", [y, nx], "grn/mul")], "grn/mul_w")
    z = g.node("Add", [g.node("Add", [z, g.weight("grn.bias", [1, 1, 1, 8])], "grn/add_b"), y], "grn/res")
    z = g.node("Transpose", [z], "to_nchw", perm=[0, 3, 1, 2])
    return g.model(g.node("Conv", [z, g.weight("w2", [4, 8, 1, 1])], "conv2", kernel_shape=[1, 1]))


def two_inputs():
    """A fixed batch of 1 and a second data input of 1 x 10 added to the
    logits: data, not a per-channel constant; and a third input passed
    straight to a graph output, read by no node but not unread."""
    g = Graph("two_inputs", 13)
    y = g.node("Conv", [g.input("x", [1, 3, 8, 8]), g.weight("w", [4, 3, 3, 3])], "conv", kernel_shape=[3, 3])
    y = g.node("Flatten", [g.node("GlobalAveragePool", [y], "gap")], "flat")
    y = g.node("Add", [g.node("Gemm", [y, g.weight("fw", [10, 4])], "fc", transB=1), g.input("cond", [1, 10])], "cond_add")
    m = g.model(y)
    m.graph.input.append(helper.make_tensor_value_info("z", TensorProto.FLOAT, [1, 3, 8, 8]))
    m.graph.output.append(helper.make_tensor_value_info("z", TensorProto.FLOAT, None))
    return m


def conv_transpose():
    """nn.ConvTranspose2d as torch.onnx.export writes it (kernel_shape,
    strides, pads, dilations, group, output_padding): a decoder's
    upsampling after a conv, k 4 stride 2 pad 1 (7 -> 14), k 3 stride 2
    pad 1 output_padding 1 (14 -> 28), grouped, and biased (28 -> 56)."""
    g = Graph("conv_transpose", 13)
    y = g.relu(g.conv(g.input("x", [1, 8, 7, 7]), "enc", 8, 16, 3, pad=1), "enc")

    def up(y, name, cin, cout, k, stride=1, pad=0, groups=1, bias=False, outpad=0):
        w = g.weight(name + ".weight", [cin, cout // groups, k, k])
        ins = [y, w] + ([g.weight(name + ".bias", [cout])] if bias else [])
        return g.node("ConvTranspose", ins, "/" + name + "/ConvTranspose", kernel_shape=[k, k],
                      strides=[stride, stride], pads=[pad] * 4, dilations=[1, 1], group=groups,
                      output_padding=[outpad, outpad])

    y = up(y, "up", 16, 16, 4, 2, 1)
    y = up(y, "up_outpad", 16, 8, 3, 2, 1, outpad=1)
    y = up(y, "up_grouped", 8, 8, 3, pad=1, groups=4)
    return g.model(up(y, "up_bias", 8, 4, 2, 2, bias=True))


def torchscript_pad(g, y):
    """F.pad(y, (1, 3, 0, 2)) as the TorchScript-based exporter writes it
    without constant folding (seer.from_torch): the pads padded with zeros
    to 8, as a 4 x 2 table, its rows flipped, transposed, flattened."""
    i64 = TensorProto.INT64
    p = g.node("Concat", [g.weight("pad", [4], [1, 3, 0, 2], i64), g.node("ConstantOfShape", [g.weight(
        "ext", [1], [4], i64)], "zeros", value=helper.make_tensor("v", i64, [1], [0]))], "cat", axis=0)
    p = g.node("Reshape", [p, g.weight("pairs", [2], [-1, 2], i64)], "table")
    p = g.node("Slice", [p, g.weight("s0", [1], [-1], i64), g.weight("s1", [1], [-9223372036854775807], i64),
                         g.weight("s2", [1], [0], i64), g.weight("s3", [1], [-1], i64)], "flip")
    p = g.node("Reshape", [g.node("Transpose", [p], "swap", perm=[1, 0]), g.weight("flat", [1], [-1], i64)], "flat")
    return g.node("Pad", [y, g.node("Cast", [p], "cast", to=i64)], "fpad")


def gathered_pool(g, y):
    """AdaptiveAvgPool2d(4) of a 14 x 14 map as the torch.export-based
    exporter writes it (GoogLeNet's auxiliary heads, 4 not dividing 14):
    H x W x N x C, a GatherND of each output's window of positions
    (oh, kh, ow, kw, 2), back to N x C x oh x kh x ow x kw, and the mean
    over kh and kw."""
    i64 = TensorProto.INT64
    starts = [(i * 14) // 4 for i in range(4)]
    idx = []
    for oh in range(4):
        for kh in range(4):
            for ow in range(4):
                for kw in range(4):
                    idx += [starts[oh] + kh, starts[ow] + kw]
    t = g.node("Transpose", [y], "to_hwnc", perm=[2, 3, 0, 1])
    t = g.node("GatherND", [t, g.weight("windows", [4, 4, 4, 4, 2], idx, i64)], "gather")
    t = g.node("Transpose", [t], "to_nc", perm=[4, 5, 0, 1, 2, 3])
    t = g.node("ReduceMean", [t, g.weight("kh_kw", [2], [-3, -1], i64)], "mean", keepdims=0)
    return g.node("Conv", [t, g.weight("w2", [8, 4, 1, 1])], "conv2")


def timm_bits(g, y):
    """Patterns of timm's CNNs: TensorFlow-style "same" padding (its pads
    computed from the size, Ceil and Clip at 0; F.pad then a stride-2
    conv: 8 px padded to 9 for a 3 x 3 window), a layer scale
    gamma.reshape(1, -1, 1, 1) over 80 channels, the PoolFormer mixer
    pool(y) - y, and torch.export's F.pad(y, (0, 1, 0, 1)) folded into a
    2 x 2 conv's pads."""
    i64 = TensorProto.INT64
    p = g.node("Sub", [g.node("Add", [g.node("Mul", [g.node("Ceil", [g.node("Div", [g.weight(
        "ih", [], [8.0]), g.weight("two", [], [2.0])], "half")], "ceil"), g.weight("s", [], [2.0])], "span"),
        g.weight("k", [], [1.0])], "end"), g.weight("ih2", [], [8.0])], "excess")
    p = g.node("Cast", [g.node("Clip", [p, g.weight("zero", [], [0.0])], "clamp")], "pint", to=i64)
    p = g.node("Unsqueeze", [p, g.weight("ax0", [1], [0], i64)], "p1")
    pads = g.node("Concat", [g.weight("pre", [6], [0, 0, 0, 0, 0, 0], i64), p, p], "pads", axis=0)
    y = g.node("Pad", [g.node("Conv", [y, g.weight("w9", [4, 4, 2, 2])], "asym", pads=[0, 0, 1, 1]), pads], "same")
    y = g.node("Conv", [y, g.weight("w80", [80, 4, 3, 3])], "conv_same", strides=[2, 2])
    y = g.node("Mul", [y, g.node("Reshape", [g.weight("gamma", [80]), g.weight("shape4", [4], [1, -1, 1, 1], i64)],
                                 "gamma_view")], "layer_scale")
    y = g.node("Sub", [g.node("AveragePool", [y], "pool", kernel_shape=[3, 3], pads=[1, 1, 1, 1]), y], "mixer")
    return g.node("Conv", [y, g.weight("w2", [8, 80, 2, 2])], "conv_asym", pads=[0, 0, 1, 1])


def torchscript_group_norm(g, y, p, w, b, k=""):
    """nn.GroupNorm(2, C) as the TorchScript-based exporter writes it
    (Reshape to N x G x -1, InstanceNormalization of its own ones and
    zeros, Reshape back by Shape), then a Mul by weight w and an Add of
    weight b ((name, dims, values) each), a 1-D one through an Unsqueeze
    to C x 1 x 1 as the exporter's; node names start with p, the shape
    constants' names end with k."""
    i64 = TensorProto.INT64
    v = g.node("Reshape", [y, g.weight("ng" + k, [3], [1, 2, -1], i64)], p + "_view")
    v = g.node("InstanceNormalization", [v, g.weight(p + "_ones", [2], [1.0, 1.0]),
                                         g.weight(p + "_zeros", [2], [0.0, 0.0])], p)
    v = g.node("Reshape", [v, g.node("Shape", [y], p + "_shape")], p + "_back")
    for op, (name, dims, vals), s in (("Mul", w, "w"), ("Add", b, "b")):
        t = g.weight(name, dims, vals)
        if len(dims) == 1:
            t = g.node("Unsqueeze", [t, g.weight("ax12" + ("b" if op == "Add" else "") + k, [2], [1, 2], i64)],
                       p + "_" + s)
        v = g.node(op, [v, t], p + ("_mul" if op == "Mul" else "_add"))
    return v


def group_norms(g, y):
    """nn.GroupNorm(2, 4) as the TorchScript-based exporter writes it
    (torchscript_group_norm, the affine's weight and bias), then
    InstanceNorm2d(4, affine=True) and (affine=False, its scale and bias
    Constant nodes)."""
    y = torchscript_group_norm(g, y, "gn", ("gn.weight", [4], None), ("gn.bias", [4], None))
    y = g.node("InstanceNormalization", [y, g.weight("in.weight", [4]), g.weight("in.bias", [4])], "in_affine")
    ones = g.node("Constant", [], "in_ones", value=helper.make_tensor("o", TensorProto.FLOAT, [4], [1.0] * 4))
    zeros = g.node("Constant", [], "in_zeros", value=helper.make_tensor("z", TensorProto.FLOAT, [4], [0.0] * 4))
    return g.node("InstanceNormalization", [y, ones, zeros], "in_plain")


def group_norm_affines(g, y):
    """nn.GroupNorm(2, 4, affine=False) as the TorchScript-based exporter
    writes it (torchscript_group_norm by its own one and zero), then a
    group norm followed by a product and a sum of C x H x W tensors, not
    an affine to fuse."""
    y = torchscript_group_norm(g, y, "plain", ("plain_one", [1], [1.0]), ("plain_zero", [1], [0.0]), "p")
    return torchscript_group_norm(g, y, "full", ("full_w", [4, 8, 8], None), ("full_b", [4, 8, 8], None), "f")


def weight_std(g, y):
    """Weight standardization (BiT's and NFNet's StdConv2d): a conv whose
    weight is computed from the parameter, by F.batch_norm of its
    reshape to 1 x K x -1 and back by its Shape, and by (w - mean) /
    sqrt(var + eps) with the fan-in from ReduceProd of its dims."""
    i64 = TensorProto.INT64
    w = g.weight("ws1.weight", [8, 4, 3, 3])
    v = g.node("Reshape", [w, g.weight("k1", [3], [1, 8, -1], i64)], "ws1_view")
    v = g.node("BatchNormalization", [v, g.weight("bn_s", [8]), g.weight("bn_b", [8]), g.weight("bn_m", [8]),
                                      g.weight("bn_v", [8])], "ws1_bn", training_mode=1)
    y = g.node("Conv", [y, g.node("Reshape", [v, g.node("Shape", [w], "ws1_shape")], "ws1_w")], "ws1",
               pads=[1, 1, 1, 1])
    w = g.weight("ws2.weight", [8, 8, 3, 3])
    mean = g.node("ReduceMean", [w], "ws2_mean", axes=[1, 2, 3], keepdims=1)
    d = g.node("Sub", [w, mean], "ws2_d")
    var = g.node("ReduceMean", [g.node("Mul", [d, d], "ws2_sq")], "ws2_var", axes=[1, 2, 3], keepdims=1)
    fan = g.node("Cast", [g.node("ReduceProd", [g.node("Gather", [g.node("Shape", [w], "ws2_shape"), g.weight(
        "dims123", [3], [1, 2, 3], i64)], "ws2_dims")], "ws2_fan", keepdims=0)], "ws2_fanf", to=TensorProto.FLOAT)
    std = g.node("Sqrt", [g.node("Add", [g.node("Mul", [var, fan], "ws2_scaled"), g.weight("eps", [], [1e-5])],
                                 "ws2_eps")], "ws2_std")
    return g.node("Conv", [y, g.node("Div", [d, std], "ws2_w")], "ws2", pads=[1, 1, 1, 1])


def tiny_fp16():
    """A model.half() export: a float16 input (seer net's default dtype
    then), its weights float16 too."""
    g = Graph("tiny_fp16", 13)
    x = g.input("x", [1, 3, 8, 8], TensorProto.FLOAT16)
    y = g.node("Conv", [x, g.weight("w", [4, 3, 3, 3], dtype=TensorProto.FLOAT16)], "conv", pads=[1, 1, 1, 1])
    return g.model(g.node("Relu", [y], "relu"))


def tiny(opset=13, input_dims=None, extra=None, params=True):
    """params=False: the weights as graph inputs, as torch.onnx.export
    writes them with export_params=False."""
    g = Graph("tiny", opset)
    x = g.input("x", input_dims or [1, 3, 8, 8])
    w = g.weight("w", [4, 3, 3, 3]) if params else g.input("w", [4, 3, 3, 3])
    y = g.node("Conv", [x, w], "conv", pads=[1, 1, 1, 1])
    y = g.node("Relu", [y], "relu")
    if extra:
        y = extra(g, y)
    return g.model(y)


def bad_models(good):
    out = {}
    out["truncated"] = good[: len(good) // 2]
    out["garbage"] = bytes(range(256)) * 4
    out["empty"] = b""
    out["opset99"] = tiny(99).SerializeToString()
    # a pool's asymmetric padding with ceil_mode: a pool over the padded copy
    # cannot drop a window that starts in the end padding
    out["pool_ceil_asym"] = tiny(input_dims=[1, 3, 3, 3], extra=lambda g, y: g.node(
        "MaxPool", [y], "p", kernel_shape=[4, 4], strides=[2, 2], pads=[1, 1, 3, 3], ceil_mode=1)).SerializeToString()
    m = tiny()
    del m.opset_import[:]
    out["no_opset"] = m.SerializeToString()
    # a cycle: relu reads add, add reads relu
    g = Graph("cycle")
    x = g.input("x", [1, 3, 8, 8])
    g.nodes.append(helper.make_node("Relu", ["b"], ["a"], name="r1"))
    g.nodes.append(helper.make_node("Add", [x, "a"], ["b"], name="r2"))
    out["cycle"] = g.model("b").SerializeToString()
    g = Graph("dangling")
    x = g.input("x", [1, 3, 8, 8])
    out["dangling"] = g.model(g.node("Add", [x, "nowhere"], "add")).SerializeToString()
    out["symbolic_hw"] = tiny(input_dims=["N", 3, "H", "W"]).SerializeToString()
    out["huge"] = tiny(extra=lambda g, y: g.node("Conv", [y, g.weight("big", [65536, 32768, 1, 1])], "big")
                       ).SerializeToString()
    def unsup(g, y):
        s = g.node("GlobalAveragePool", [y], "se_pool")
        s = g.node("Sigmoid", [s], "se_gate")
        y = g.node("Mul", [y, s], "se_scale")  # a per-channel gate: a mul layer
        y = g.node("Erf", [y], "scale")  # no Erf layer: unsupported
        y = g.node("Transpose", [y], "transpose", perm=[0, 1, 3, 2])
        y = g.node("Transpose", [y], "transpose_back", perm=[0, 1, 3, 2])
        y = g.node("Conv", [y, g.weight("w9", [4, 4, 3, 3])], "conv_after", pads=[1, 1, 1, 1])
        return g.node("Relu", [y], "relu_after")
    out["unsupported"] = tiny(extra=unsup).SerializeToString()
    # a channels-last view read as N x C x H x W by a Conv; a squeeze to
    # rank 1 at batch 1 read by a Relu (no Gather): both unsupported, and
    # skippable; a skipped node inside a channels-last block
    def conv_nhwc(g, y):
        y = g.node("Transpose", [y], "to_last", perm=[0, 2, 3, 1])
        return g.node("Conv", [y, g.weight("w_last", [5, 8, 1, 1])], "conv_last")
    out["conv_channels_last"] = tiny(extra=conv_nhwc).SerializeToString()
    out["sub_computed"] = tiny(extra=lambda g, y: g.node("Sub", [y, g.node("GlobalAveragePool", [y], "gap")], "diff")
                               ).SerializeToString()
    out["resize_channels"] = tiny(13, extra=lambda g, y: g.node("Resize", [y, "", g.weight(
        "scales", [4], [1.0, 2.0, 1.0, 1.0])], "up_channels")).SerializeToString()
    out["resize_keep_aspect"] = tiny(18, extra=lambda g, y: g.node("Resize", [y, "", "", g.weight(
        "sizes", [4], [1, 4, 16, 32], TensorProto.INT64)], "up_aspect", keep_aspect_ratio_policy="not_larger")
        ).SerializeToString()
    def squeeze_all(g, y):
        y = g.node("GlobalAveragePool", [y], "gap")
        y = g.node("Squeeze", [y], "squeeze_all")
        return g.node("Relu", [y], "relu_flat")
    out["squeeze_batch1"] = tiny(extra=squeeze_all).SerializeToString()
    def skip_last(g, y):
        y = g.node("Transpose", [y], "to_last", perm=[0, 2, 3, 1])
        y = g.node("Sin", [y], "sin")
        y = g.node("LayerNormalization", [y, g.weight("lnw", [4]), g.weight("lnb", [4])], "ln", axis=-1)
        y = g.node("Transpose", [y], "to_first", perm=[0, 3, 1, 2])
        return g.node("Conv", [y, g.weight("w_after", [4, 4, 1, 1])], "conv_after")
    out["skip_channels_last"] = tiny(opset=17, extra=skip_last).SerializeToString()
    # a reduction over the channels: no layer of the description format
    # a group norm of a view with other channels than its layer's
    out["group_norm_view"] = tiny(18, extra=lambda g, y: g.node("GroupNormalization", [g.node("Reshape", [
        y, g.weight("v16", [4], [1, 16, 4, 4], TensorProto.INT64)], "view16"), g.weight("gs", [2]),
        g.weight("gb", [2])], "gn_view", num_groups=2)).SerializeToString()
    out["reduce_channels"] = tiny(extra=lambda g, y: g.node("ReduceMean", [y], "chan_mean", axes=[1], keepdims=1)
                                  ).SerializeToString()
    # axes as a float input (opset 18) far outside int64, and none at all
    # (a reduction over every axis): no global pool
    out["reduce_float_axes"] = tiny(18, extra=lambda g, y: g.node(
        "ReduceMean", [y, g.weight("fax", [2], [1e30, -1e30])], "fmean")).SerializeToString()
    out["reduce_all"] = tiny(18, extra=lambda g, y: g.node("ReduceMean", [y], "amean")).SerializeToString()
    def ln_std_read(g, y):  # a layer norm written out whose deviation is read elsewhere too
        y = g.node("Transpose", [y], "to_last", perm=[0, 2, 3, 1])
        d = g.node("Sub", [y, g.node("ReduceMean", [y], "rm", axes=[-1])], "sub")
        v = g.node("ReduceMean", [g.node("Pow", [d, g.weight("two", [], [2.0])], "pow")], "rm1", axes=[-1])
        sd = g.node("Sqrt", [g.node("Add", [v, g.weight("eps", [], [1e-5])], "add_eps")], "sqrt")
        g.node("Flatten", [sd], "std_flat", axis=1)
        return g.node("Div", [d, sd], "div")
    out["ln_std_read"] = tiny(extra=ln_std_read).SerializeToString()

    def ln_sqrt_noname(g, y):  # the same whose deviation has no name (nothing can read it)
        y = g.node("Transpose", [y], "to_last", perm=[0, 2, 3, 1])
        d = g.node("Sub", [y, g.node("ReduceMean", [y], "rm", axes=[-1])], "sub")
        v = g.node("ReduceMean", [g.node("Pow", [d, g.weight("two", [], [2.0])], "pow")], "rm1", axes=[-1])
        g.nodes.append(helper.make_node("Sqrt", [g.node("Add", [v, g.weight("eps", [], [1e-5])], "add_eps")], [""],
                                        name="sqrt"))
        return g.node("Div", [d, g.weight("one", [], [1.0])], "div")
    out["ln_sqrt_noname"] = tiny(extra=ln_sqrt_noname).SerializeToString()
    out["opset27"] = tiny(27).SerializeToString()
    # a weight left out of the file (export_params=False) must declare its dims
    out["weight_symbolic"] = tiny(extra=lambda g, y: g.node("Conv", [y, g.input("w2", ["K", 4, 1, 1])], "conv2")
                                  ).SerializeToString()
    # a node whose first input is absent but which reads data: refused, no crash
    out["split_no_first"] = tiny(extra=lambda g, y: g.node("Split", ["", y], "nosplit", outputs=2, axis=1)[0]
                                 ).SerializeToString()
    # a product with a constant that would grow the data (ConstantOfShape 2 x 4 x 8 x 8 times a 1 x 1 pool)
    out["mul_growing_const"] = tiny(extra=lambda g, y: g.node("Mul", [g.node("GlobalAveragePool", [y], "gap"), g.node(
        "ConstantOfShape", [g.weight("shp", [4], [2, 4, 8, 8], TensorProto.INT64)], "ones")], "grow")
                                    ).SerializeToString()
    # a PRelu slope neither shared nor one per channel
    out["prelu_slope"] = tiny(9, extra=lambda g, y: g.node("PRelu", [y, g.weight("slope", [2, 1, 1])], "prelu")
                              ).SerializeToString()
    # at opset 9 a slope of C lines up with W, not with the channels
    out["prelu_last_axis"] = tiny(9, input_dims=[1, 3, 8, 8], extra=lambda g, y: g.node(
        "PRelu", [y, g.weight("slope", [4])], "prelu")).SerializeToString()
    # a constant transposed by a perm that repeats an axis
    out["transpose_perm"] = tiny(13, extra=lambda g, y: g.node("Reshape", [y, g.node("Transpose", [g.weight(
        "tab", [2, 2], [1, 2, 3, 4], TensorProto.INT64)], "tr", perm=[0, 0])], "view")).SerializeToString()
    # a pad of the channels
    out["pad_channels"] = tiny(13, extra=lambda g, y: g.node("Pad", [y, g.weight(
        "pads", [8], [0, 1, 0, 0, 0, 1, 0, 0], TensorProto.INT64)], "cpad")).SerializeToString()
    # opset 1's Split takes its sizes as an input
    out["split_opset1"] = tiny(1, extra=lambda g, y: g.node("Split", [y, g.weight(
        "sizes", [2], [2, 2], TensorProto.INT64)], "split", outputs=2, axis=1)[0]).SerializeToString()
    # a pool's padding no symmetric one matches (a conv's becomes a pad layer)
    # string attributes outside ONNX's values: refused, not read as the default
    out["auto_pad"] = tiny(extra=lambda g, y: g.node("Conv", [y, g.weight("w2", [4, 4, 3, 3])], "conv2",
                                                     auto_pad="WEIRD")).SerializeToString()
    out["pad_mode"] = tiny(13, extra=lambda g, y: g.node("Pad", [y, g.weight(
        "pads", [8], [0, 0, 1, 1, 0, 0, 1, 1], TensorProto.INT64)], "zpad", mode="WEIRD")).SerializeToString()
    out["resize_mode"] = tiny(13, extra=lambda g, y: g.node("Resize", [y, "", "", g.weight(
        "sizes", [4], [1, 4, 16, 12], TensorProto.INT64)], "up", mode="linear",
        coordinate_transformation_mode="half_pixels")).SerializeToString()
    # weights of no outputs: a Conv's (its own check) and a Gemm's (any
    # layer with an empty output), named by node and tensor
    out["conv_k0"] = tiny(extra=lambda g, y: g.node("Conv", [y, g.weight("wk0", [0, 4, 3, 3])], "convk0")
                          ).SerializeToString()
    out["gemm_k0"] = tiny(extra=lambda g, y: g.node("Gemm", [g.node("Flatten", [y], "fl"), g.weight(
        "wg", [0, 256])], "fc", transB=1)).SerializeToString()
    # a target shape whose element count overflows int64 at a small dimension
    out["reshape_overflow"] = tiny(13, extra=lambda g, y: g.node("Reshape", [y, g.weight(
        "huge", [4], [1, 2 ** 62, 4, -1], TensorProto.INT64)], "view")).SerializeToString()
    # a conv bias of other than one value per output channel
    out["conv_bias"] = tiny(extra=lambda g, y: g.node("Conv", [y, g.weight("wb", [16, 4, 3, 3]), g.weight("bb", [5])],
                                                      "convb")).SerializeToString()
    # a ConvTranspose weight in a Conv's layout (K x C): its first
    # dimension is not the 4 input channels
    out["conv_transpose_channels"] = tiny(extra=lambda g, y: g.node("ConvTranspose", [y, g.weight(
        "wt", [8, 4, 3, 3])], "deconv", kernel_shape=[3, 3])).SerializeToString()
    # a 3-D ConvTranspose, of the 4 x 8 x 8 map viewed as 4 x 8 x 8 x 1
    out["conv_transpose_3d"] = tiny(13, extra=lambda g, y: g.node("ConvTranspose", [g.node("Reshape", [y, g.weight(
        "to5", [5], [1, 4, 8, 8, 1], TensorProto.INT64)], "view5"), g.weight("wt3", [4, 2, 3, 3, 1])], "deconv3d",
        kernel_shape=[3, 3, 1])).SerializeToString()
    # an opset version that no ONNX release has
    out["opset_negative"] = tiny(-1).SerializeToString()
    # a graph output that nothing produces
    m = tiny()
    m.graph.output.append(helper.make_tensor_value_info("ghost", TensorProto.FLOAT, None))
    out["output_ghost"] = m.SerializeToString()
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    outdir = sys.argv[1] if len(sys.argv) > 1 else here
    corpus = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "..", "..", "fuzz", "corpus", "onnx")
    os.makedirs(corpus, exist_ok=True)
    files = {"resnet50": resnet50(), "resnet50_train_bn": resnet50(True, 15), "mobilenet_v2": mobilenet_v2(),
             "ops": ops(), "tiny": tiny(), "resnet50_reduce_mean": resnet50(opset=18, reduce_mean=True),
             "resnet50_folded_torchscript": resnet50(opset=17, fold="torchscript"),
             "resnet50_folded_dynamo": resnet50(opset=18, reduce_mean=True, fold="dynamo"),
             "resnet50_folded_dynamo_zero": resnet50(opset=18, reduce_mean=True, fold="dynamo_zero"),
             # a batch norm folded into a conv, as the TorchScript-based
             # exporter names it (the ResNet-50s above are not fuzz seeds)
             "tiny_folded": tiny(17, extra=lambda g, y: g.node("Conv", [y, g.weight(
                 "onnx::Conv_7", [4, 4, 3, 3]), g.weight("onnx::Conv_8", [4])], "folded", kernel_shape=[3, 3],
                 pads=[1, 1, 1, 1])),
             # ... and as torch.export records it, the folded bias dropped
             "tiny_folded_meta": tiny(18, extra=lambda g, y: (g.node("Conv", [y, g.weight(
                 "w2", [4, 4, 3, 3])], "folded", kernel_shape=[3, 3], pads=[1, 1, 1, 1]), g.metadata(
                 "pkg.onnxscript.rewriter.rule_name", "FuseBatchNormIntoConv"))[0]),
             "tiny_reduce_max": tiny(extra=lambda g, y: g.node("ReduceMax", [y], "gmax", axes=[2, 3], keepdims=0)),
             "gathered_pool": tiny(18, input_dims=[1, 3, 14, 14], extra=gathered_pool),
             "shuffle_slice": shuffle_unit(13), "shuffle_split": shuffle_unit(18),
             "convnext_export": convnext(20), "convnext_legacy": convnext(17),
             "convnext_dynamic": convnext(20, dynamic=True),
             "convnext_opset18": convnext(18), "convnext_opset13": convnext(13),
             # before opset 14: HardSwish as HardSigmoid(1/6, 0.5) * x, and a
             # plain HardSigmoid (its default alpha) that stays one
             "hardswish13": tiny(13, extra=lambda g, y: g.node("HardSigmoid", [g.node("Mul", [y, g.node(
                 "HardSigmoid", [y], "hs", alpha=1.0 / 6, beta=0.5)], "hswish")], "gate")),
             "tiny_no_params": tiny(params=False, extra=lambda g, y: g.node("Add", [g.node("Mul", [g.node(
                 "Conv", [y, g.node("Identity", [g.input("w2", [4, 4, 1, 1])], "shared")], "conv2"), g.input(
                 "gamma", [4, 1, 1])], "layer_scale"), g.input("beta", [4, 1, 1])], "shift")),
             # F.interpolate(size=...) as the TorchScript-based exporter writes it:
             # the input's N and C (Shape, Slice) concatenated with a constant
             # H and W; and sizes all from another tensor's Shape
             "resize_concat_sizes": tiny(13, extra=lambda g, y: g.node("Resize", [y, "", "", g.node("Concat", [
                 g.node("Slice", [g.node("Shape", [y], "shape"), g.weight("s0", [1], [0], TensorProto.INT64),
                                  g.weight("s2", [1], [2], TensorProto.INT64)], "nc"),
                 g.weight("hw", [2], [16, 12], TensorProto.INT64)], "sizes", axis=0)], "up", mode="linear")),
             # a pooled branch brought back to its feature map, stride 4: at
             # 17 px the map is 5 x 5, ceil(4 * 17 / 16), not round()'s 4
             "resize_ceil": tiny(13, input_dims=[1, 3, 16, 16], extra=lambda g, y: g.node("Concat", [
                 g.node("Conv", [y, g.weight("s2", [4, 4, 3, 3])], "down", kernel_shape=[3, 3], strides=[4, 4],
                        pads=[1, 1, 1, 1]),
                 g.node("Resize", [g.node("GlobalAveragePool", [g.node(
                     "Conv", [y, g.weight("s2b", [4, 4, 3, 3])], "down_b", kernel_shape=[3, 3], strides=[4, 4],
                     pads=[1, 1, 1, 1])], "gap"), "", "", g.weight("sz4", [4], [1, 4, 4, 4], TensorProto.INT64)],
                     "up", mode="nearest")], "cat", axis=1)),
             "tiny26": tiny(26),
             "resize_shape_sizes": tiny(13, extra=lambda g, y: g.node("Resize", [g.node(
                 "MaxPool", [y], "down", kernel_shape=[2, 2], strides=[2, 2]), "", "", g.node("Shape", [y], "shape")],
                 "up", mode="nearest")),
             # segmentation heads' upsampling: Resize by sizes (opset 13), by
             # scales (opset 11), Upsample (opset 9)
             "resize_sizes": tiny(13, extra=lambda g, y: g.node("Resize", [y, "", "", g.weight(
                 "sizes", [4], [1, 4, 16, 12], TensorProto.INT64)], "up", mode="linear")),
             "resize_scales": tiny(11, extra=lambda g, y: g.node("Resize", [y, g.weight("roi", [0]), g.weight(
                 "scales", [4], [1.0, 1.0, 2.0, 1.5])], "up", mode="nearest")),
             "transform_input": transform_input(13),
             # 7 -> 61: 61 / 7 as a scale floors back to 60
             "resize_odd": tiny(13, input_dims=[1, 3, 7, 7], extra=lambda g, y: g.node("Resize", [y, "", "", g.weight(
                 "sizes", [4], [1, 4, 61, 61], TensorProto.INT64)], "up", mode="linear")),
             "upsample9": tiny(9, extra=lambda g, y: g.node("Upsample", [y, g.weight(
                 "scales", [4], [1.0, 1.0, 2.0, 2.0])], "up", mode="nearest")),
             "tiny_scale": tiny(extra=lambda g, y: g.node("Mul", [g.weight("noise", [1, 1, 1, 1], [1.0]), g.node(
                 "Mul", [y, g.weight("gamma", [4, 1, 1])], "layer_scale")], "stochastic_depth")),
             "conv_transpose": conv_transpose(),
             "timm_bits": tiny(13, extra=timm_bits),
             "group_norms": tiny(13, extra=group_norms),
             "group_norm_affines": tiny(13, extra=group_norm_affines),
             "weight_std": tiny(15, extra=weight_std),
             "tiny_fp16": tiny_fp16(),
             # opset 18's GroupNormalization (scale and bias per group)
             "group_norm18": tiny(18, extra=lambda g, y: g.node("GroupNormalization", [y, g.weight(
                 "gs", [2]), g.weight("gb", [2])], "gn18", num_groups=2)),
             # ... exported without parameters: its scale and bias graph inputs
             "group_norm18_no_params": tiny(18, params=False, extra=lambda g, y: g.node("GroupNormalization", [
                 y, g.input("gs", [2]), g.input("gb", [2])], "gn18", num_groups=2)),
             "alexnet_caffe3": alexnet_caffe(3), "legacy_bias5": legacy_bias(5), "tf_style": tf_style(),
             "keras_style": keras_style(), "layernorm_first": layernorm_first(),
             "grn": grn(), "two_inputs": two_inputs(),
             # ImageScaler (opsets 1-9): the input's scale and per-channel bias
             "image_scaler9": tiny(9, extra=lambda g, y: g.node("ImageScaler", [y], "scaler", scale=0.5,
                                                               bias=[0.1, 0.2, 0.3, 0.4])),
             # Keras' ZeroPadding2D before a stride-2 conv: Pad by an attribute
             # (opset 9) and by an input (opset 13)
             "pad9": tiny(9, extra=lambda g, y: g.node("Pad", [y], "zpad", pads=[0, 0, 1, 1, 0, 0, 2, 2])),
             "pad_torchscript": tiny(13, extra=torchscript_pad),
             # Darknet's 2 x 2 max pool at stride 1 keeping the size (tiny-YOLOv2):
             # SAME_UPPER pads 0 before and 1 after, which no symmetric pad matches
             "pool_same": tiny(13, extra=lambda g, y: g.node("MaxPool", [y], "same_pool", kernel_shape=[2, 2],
                                                             auto_pad="SAME_UPPER")),
             "pad13": tiny(13, extra=lambda g, y: g.node("Conv", [g.node("Pad", [y, g.weight(
                 "pads", [8], [0, 0, 1, 1, 0, 0, 2, 2], TensorProto.INT64)], "zpad", mode="reflect"), g.weight(
                 "w2", [4, 4, 3, 3])], "conv2", strides=[2, 2])),
             # PRelu slopes broadcast from the last axis: 1 x C x 1 x 1, C x 1 x 1
             "prelu9": tiny(9, extra=lambda g, y: g.node("PRelu", [g.node("PRelu", [y, g.weight(
                 "a1", [1, 4, 1, 1])], "p1"), g.weight("a2", [4, 1, 1])], "p2"))}
    blobs = {k: m.SerializeToString() for k, m in files.items()}
    for k, b in blobs.items():
        with open(os.path.join(outdir, k + ".onnx"), "wb") as f:
            f.write(b)
    bad = bad_models(blobs["tiny"])
    for k, b in bad.items():
        with open(os.path.join(outdir, "bad_" + k + ".onnx"), "wb") as f:
            f.write(b)
    # fuzz seeds: the small models and every bad one (the ResNets are
    # read by the tests)
    seeds = {k: blobs[k] for k in ("ops", "tiny", "mobilenet_v2", "tiny_reduce_max", "shuffle_slice", "shuffle_split",
                                   "tiny_scale", "convnext_export", "convnext_legacy", "convnext_dynamic", "resize_sizes",
                                   "convnext_opset18", "convnext_opset13", "hardswish13", "tiny_no_params",
                                   "resize_concat_sizes", "resize_shape_sizes", "resize_ceil", "tiny26",
                                   "resize_odd", "transform_input",
                                   "upsample9", "alexnet_caffe3", "legacy_bias5", "prelu9", "tf_style", "keras_style", "layernorm_first", "grn", "two_inputs",
                                   "image_scaler9", "pad9", "pad13", "pad_torchscript", "pool_same", "tiny_folded",
                                   "tiny_folded_meta", "conv_transpose", "timm_bits", "group_norms",
                                   "group_norm18", "weight_std", "gathered_pool")}
    seeds.update({"bad_" + k: b for k, b in bad.items()})
    for k, b in seeds.items():
        with open(os.path.join(corpus, k + ".onnx"), "wb") as f:
            f.write(b)


if __name__ == "__main__":
    main()
