"""Tests of the seer Python package (docs/python.md), run by `make test`
through tests/test_python.c.  They compare every result with the seer
CLI's JSON (same keys, same numbers) and check the argument errors."""
import json
import os
import subprocess
import sys
import warnings

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "python"))
import seer  # noqa: E402

GPU = "a100-pcie-80gb"
ONNX = os.path.join(REPO, "tests", "onnx")
CLI = os.environ.get("SEER_BIN") or os.path.join(REPO, "build", "seer")


def cli(*args):
    if not os.access(CLI, os.X_OK):
        pytest.skip("the seer CLI is not built (%s)" % CLI)
    out = subprocess.run([CLI] + list(args) + ["--format", "json"], cwd=REPO, check=True, capture_output=True)
    return json.loads(out.stdout)


def same(py, c, path="."):
    """Same keys everywhere; numbers equal to the CLI's 6 digits."""
    if isinstance(c, dict):
        assert isinstance(py, dict) and set(py) == set(c), (path, set(py) ^ set(c))
        for k in c:
            if k != "model":  # the CLI prints the path as given, Python an absolute one
                same(py[k], c[k], path + "/" + k)
    elif isinstance(c, list):
        assert isinstance(py, list) and len(py) == len(c), path
        for i, (a, b) in enumerate(zip(py, c)):
            same(a, b, "%s[%d]" % (path, i))
    elif isinstance(c, float) or (isinstance(c, int) and not isinstance(c, bool) and isinstance(py, float)):
        assert py == pytest.approx(c, rel=6e-6, abs=1e-300), path
    else:
        assert py == c, path


def test_gpus_match_cli():
    same(seer.gpus(), cli("gpus")["gpus"])


def test_predict_conv_matches_cli():
    py = seer.predict_conv(gpu=GPU, n=32, c=64, h=56, w=56, k=128, stride=2)
    same(py, cli("predict", "--gpu", GPU, "--n", "32", "--c", "64", "--h", "56", "--w", "56", "--k", "128",
                 "--stride", "2"))
    one = seer.predict_conv(gpu=GPU, n=32, c=64, h=56, w=56, k=128, algo="IMPLICIT_GEMM")
    assert [p["algo"] for p in one["predictions"]] == ["IMPLICIT_GEMM"]


def test_algorithm_out_of_range_ranks_the_others():
    # IMPLICIT_GEMM and GEMM predict over the 1e9 ms limit; IMPLICIT_PRECOMP_GEMM does not
    kw = dict(gpu=GPU, n=1, c=1, h=46339, w=46339, k=1, r=20001, s=20001, pad=10000)
    args = ["--gpu", GPU, "--n", "1", "--c", "1", "--h", "46339", "--w", "46339", "--k", "1", "--r", "20001",
            "--s", "20001", "--pad", "10000"]
    py = seer.predict_conv(**kw)
    same(py, cli("predict", *args))
    assert py["pick"]["algo"] == "IMPLICIT_PRECOMP_GEMM"
    assert [p["status"] for p in py["predictions"]][:3] == ["ok", "out_of_range", "out_of_range"]
    pk = seer.pick_conv_algo(**kw)
    same(pk, cli("pick", *args))
    assert [p["status"] for p in pk["perf"]][:3] == ["ok", "out_of_range", "out_of_range"]
    with pytest.raises(seer.SeerError) as e:
        seer.predict_conv(algo="IMPLICIT_GEMM", **kw)
    assert e.value.status == "SEER_STATUS_BAD_PREDICTION"


def test_pick_conv_algo_matches_cli():
    py = seer.pick_conv_algo(gpu=GPU, n=64, c=256, h=56, w=56, k=256, workspace_mb=10)
    same(py, cli("pick", "--gpu", GPU, "--n", "64", "--c", "256", "--h", "56", "--w", "56", "--k", "256",
                 "--workspace-mb", "10"))


@pytest.mark.parametrize("what,args", [("resnet50", ["--mode", "train"]), ("mobilenet_v2", ["--dtype", "fp16_pseudo", "--dispatch-us", "20", "--fit"]),
                                       (os.path.join(ONNX, "resnet50.onnx"), ["--mode", "train", "--res", "160"]),
                                       ("resnet18", ["--mode", "train", "--optimizer", "adam", "--fit", "16GiB"]),
                                       ("resnet18", ["--mode", "train", "--amp", "--fit"]),
                                       (os.path.join(ONNX, "ops.onnx"), []),
                                       # a deconv's rows name algorithms of the direction that runs them
                                       (os.path.join(REPO, "fuzz", "corpus", "net", "deconv_decoder.net"),
                                        ["--mode", "train"])])
def test_net_matches_cli(what, args):
    kw = {"mode": "train"} if "train" in args else {}
    if "--dtype" in args:
        kw["dtype"] = "fp16_pseudo"
    if "--res" in args:
        kw["res"] = 160
    if "--dispatch-us" in args:
        kw["dispatch_us"] = 20.0
    if "--optimizer" in args:
        kw["optimizer"] = "adam"
    if "--amp" in args:
        kw["amp"] = True
    if "--fit" in args:
        kw["fit"] = 16 * 2 ** 30 if "16GiB" in args else True
    same(seer.net(what, gpu=GPU, batch=16, **kw), cli("net", what, "--gpu", GPU, "--batch", "16", *args))


def test_onnx_resnet50_predicts_the_zoo():
    for mode in ("infer", "train"):
        a = seer.net(os.path.join(ONNX, "resnet50.onnx"), gpu=GPU, batch=64, mode=mode)
        b = seer.net("resnet50", gpu=GPU, batch=64, mode=mode)
        assert a["total_ms"] == pytest.approx(b["total_ms"], rel=1e-3)
        assert a["params"] == b["params"] == 25557032


def test_onnx_half_input_is_the_default_dtype():
    f = os.path.join(ONNX, "tiny_fp16.onnx")
    assert seer.net(f, gpu=GPU)["dtype"] == "fp16"
    assert seer.net(f, gpu=GPU, dtype="fp32")["dtype"] == "fp32"
    same(seer.net(f, gpu=GPU), cli("net", f, "--gpu", GPU))


def test_onnx_default_batch_is_the_graphs():
    assert seer.net(os.path.join(ONNX, "tiny.onnx"), gpu=GPU)["batch"] == 1
    assert seer.net(os.path.join(ONNX, "resnet50.onnx"), gpu=GPU)["batch"] == 64  # symbolic: the default


def test_errors_carry_status_and_message():
    with pytest.raises(seer.SeerError) as e:
        seer.net(os.path.join(ONNX, "bad_unsupported.onnx"), gpu=GPU)
    assert e.value.status == "SEER_STATUS_ONNX_UNSUPPORTED_OP" and "'scale'" in e.value.message
    with pytest.raises(seer.SeerError) as e:
        seer.net(os.path.join(ONNX, "bad_cycle.onnx"), gpu=GPU)
    assert e.value.status == "SEER_STATUS_NET_INPUT" and "cycle" in e.value.message
    with pytest.raises(seer.SeerError) as e:
        seer.net("resnet50", gpu="no-such-gpu")
    assert e.value.status.startswith("SEER_STATUS_") and str(e.value).startswith(e.value.status)
    with pytest.raises(seer.SeerError) as e:
        seer.predict_conv(gpu=GPU, n=1, c=6, h=8, w=8, k=4, groups=4)
    assert e.value.status == "SEER_STATUS_BAD_GROUPS"
    # a dtype the GPU cannot run at all: UNSUPPORTED and why, as net() says
    with pytest.raises(seer.SeerError) as e:
        seer.predict_conv(gpu="t4", n=1, c=8, h=8, w=8, k=8, dtype="bf16")
    assert e.value.status == "SEER_STATUS_UNSUPPORTED" and "cannot run bf16" in e.value.message
    # files are read as the library reads them: a device, a directory or a
    # FIFO is refused at once (open() read /dev/zero until memory ran out)
    for bad in ("/dev/zero", "/tmp"):
        with pytest.raises(seer.SeerError) as e:
            seer.net(bad, gpu=GPU)
        assert e.value.status == "SEER_STATUS_IO_ERROR" and bad in e.value.message


def test_unknown_gpu_is_a_value_error_and_a_seer_error():
    for call in (lambda: seer.predict_conv(gpu="rtx9090", n=1, c=64, h=7, w=7, k=64),
                 lambda: seer.predict_gemm(gpu="rtx9090", m=8, n=8, k=8),
                 lambda: seer.pick_conv_algo(gpu="rtx9090", n=1, c=64, h=7, w=7, k=64),
                 lambda: seer.net("resnet50", gpu="rtx9090")):
        with pytest.raises(ValueError) as e:
            call()
        assert isinstance(e.value, seer.SeerError) and isinstance(e.value, seer.UnknownGpuError)
        assert e.value.status == "SEER_STATUS_UNKNOWN_GPU" and e.value.code == 7
        assert "argument 'gpu'" in e.value.message and "'rtx9090'" in e.value.message
    # a known GPU's error stays a SeerError alone
    with pytest.raises(seer.SeerError) as e:
        seer.predict_conv(gpu="t4", n=1, c=8, h=8, w=8, k=8, dtype="bf16")
    assert not isinstance(e.value, ValueError)


def test_skip_unsupported_warns_with_the_list():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = seer.net(os.path.join(ONNX, "bad_unsupported.onnx"), gpu=GPU, skip_unsupported=True)
    assert r["total_ms"] > 0
    assert any("skipped 3 unsupported" in str(x.message) and "Transpose node 'transpose'" in str(x.message)
               for x in w)


def test_predict_gemm():
    a = seer.predict_gemm(gpu=GPU, m=256, n=1000, k=2048, bias=True)
    assert a["gpu"] == GPU and a["served"] == "calibrated" and a["class"] in ("compute", "dram", "under")
    assert 0 < a["roofline_ms"] <= a["time_ms"]
    b = seer.predict_gemm(gpu=GPU, m=512, n=1000, k=2048, bias=True)
    assert b["time_ms"] >= 0.95 * a["time_ms"]
    # the driver's device name is the GPU's id; fp16 on tensor cores
    h = seer.predict_gemm(gpu="NVIDIA H100 80GB HBM3", m=64, n=64, k=64, batch=8, dtype="fp16")
    assert h["gpu"] == "h100-sxm5-80gb" and h["served"] == "gemm-calibrated" and h["time_ms"] > 0
    t4 = os.path.join(REPO, "models", "t4.seer")
    assert seer.predict_gemm(gpu="Tesla T4", model=t4, m=8, n=8, k=8)["gpu"] == "t4"
    with pytest.raises(ValueError):
        seer.predict_gemm(gpu="a100", model=t4, m=8, n=8, k=8)
    with pytest.raises(seer.SeerError) as e:
        seer.predict_gemm(gpu="gtx1080ti", m=8, n=8, k=8, dtype="bf16")
    assert e.value.status == "SEER_STATUS_UNSUPPORTED"


@pytest.mark.parametrize("call,exc,arg", [
    (lambda: seer.predict_gemm(gpu=GPU, m=0), ValueError, "'m'"),
    (lambda: seer.predict_gemm(gpu=GPU, k=2.0), TypeError, "'k'"),
    (lambda: seer.predict_gemm(gpu=GPU, bias=1), TypeError, "'bias'"),
    (lambda: seer.predict_gemm(gpu=GPU, dtype="int8"), ValueError, "'dtype'"),
    (lambda: seer.predict_conv(gpu=GPU, n="3", c=3, h=8, w=8, k=4), TypeError, "'n'"),
    (lambda: seer.predict_conv(gpu=GPU, n=3, c=3, h=8, w=8, k=4, pad=True), TypeError, "'pad'"),
    (lambda: seer.predict_conv(gpu=GPU, n=0, c=3, h=8, w=8, k=4), ValueError, "'n'"),
    (lambda: seer.predict_conv(gpu=GPU, n=1, c=3, h=8, w=8, k=4, dtype="fp64"), ValueError, "'dtype'"),
    (lambda: seer.predict_conv(gpu=GPU, n=1, c=3, h=8, w=8, k=4, direction=1), TypeError, "'direction'"),
    (lambda: seer.predict_conv(gpu=GPU, n=1, c=3, h=8, w=8, k=4, algo="FASTEST"), ValueError, "'algo'"),
    (lambda: seer.predict_conv(gpu=5, n=1, c=3, h=8, w=8, k=4), TypeError, "'gpu'"),
    (lambda: seer.predict_conv(n=1, c=3, h=8, w=8, k=4), TypeError, "'gpu'"),
    (lambda: seer.pick_conv_algo(gpu=GPU, n=1, c=3, h=8, w=8, k=4, workspace_mb=-1), ValueError, "'workspace_mb'"),
    (lambda: seer.net("resnet50", gpu=GPU, batch=2.5), TypeError, "'batch'"),
    (lambda: seer.net("resnet50", gpu=GPU, batch=0), ValueError, "'batch'"),
    (lambda: seer.net("resnet50", gpu=GPU, mode="training"), ValueError, "'mode'"),
    (lambda: seer.net("resnet50", gpu=GPU, layout="chwn"), ValueError, "'layout'"),
    (lambda: seer.net("resnet50", gpu=GPU, algo=9), ValueError, "'algo'"),
    (lambda: seer.net("resnet50", gpu=GPU, skip_unsupported=1), TypeError, "'skip_unsupported'"),
    (lambda: seer.net("resnet50", gpu=GPU, threads=9), ValueError, "'threads'"),
    (lambda: seer.net("resnet50", gpu=GPU, dispatch_us="1"), TypeError, "'dispatch_us'"),
    (lambda: seer.net("resnet50", gpu=GPU, fit=10 ** 400), ValueError, "'fit'"),
    # an optimizer given for inference, as the CLI refuses --optimizer without --mode train
    (lambda: seer.net("resnet50", gpu=GPU, optimizer="adam"), ValueError, "part of mode='train' only"),
    (lambda: seer.net("resnet50", gpu=GPU, optimizer="sgd", mode="infer"), ValueError, "'optimizer'"),
    (lambda: seer.net("resnet50", gpu=GPU, optimizer="rmsprop", mode="train"), ValueError, "'optimizer'"),
    (lambda: seer.predict_conv(gpu="t4", model="models/a100-pcie-80gb.seer", n=1, c=3, h=8, w=8, k=4),
     ValueError, "'gpu'"),
    (lambda: seer.net(50, gpu=GPU), TypeError, "'name_or_path'"),
    (lambda: seer.net("no-such-net", gpu=GPU), ValueError, "'name_or_path'"),
])
def test_bad_arguments_name_the_argument(call, exc, arg):
    with pytest.raises(exc) as e:
        call()
    assert arg in str(e.value)


def test_optimizer_default_is_sgd_in_training():
    a = seer.net("resnet18", gpu=GPU, batch=16, mode="train")
    b = seer.net("resnet18", gpu=GPU, batch=16, mode="train", optimizer="sgd")
    assert a["optimizer_ms"] == b["optimizer_ms"] > 0 and a["total_ms"] == b["total_ms"]
    assert seer.net("resnet18", gpu=GPU, batch=16)["optimizer_ms"] == 0  # inference: no step


def test_from_torch_without_torch(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch fails
    with pytest.raises(ImportError) as e:
        seer.from_torch(object(), object(), gpu=GPU)
    assert "PyTorch" in str(e.value)


def test_from_torch_resnet50():
    torch = pytest.importorskip("torch")
    tv = pytest.importorskip("torchvision")
    r = seer.from_torch(tv.models.resnet50(weights=None), torch.randn(1, 3, 224, 224), gpu=GPU, batch=64,
                        mode="train")
    z = seer.net("resnet50", gpu=GPU, batch=64, mode="train")
    assert r["params"] == z["params"]
    assert r["total_ms"] == pytest.approx(z["total_ms"], rel=0.01)


def test_make_models_reproduces_the_committed_files(tmp_path):
    pytest.importorskip("onnx")
    subprocess.run([sys.executable, os.path.join(ONNX, "make_models.py"), str(tmp_path), str(tmp_path / "corpus")],
                   check=True)
    for f in sorted(os.listdir(ONNX)):
        if f.endswith(".onnx"):
            with open(os.path.join(ONNX, f), "rb") as a, open(tmp_path / f, "rb") as b:
                assert a.read() == b.read(), f


def test_predict_conv_pads_same_by_default():
    # pad=None: (r - 1) // 2 and (s - 1) // 2, as seer predict; an explicit pad wins
    for r, s, pad, pq in ((1, 1, None, 56), (7, 7, None, 56), (1, 7, None, 56), (1, 1, 1, 58)):
        got = seer.predict_conv(gpu=GPU, n=1, c=8, h=56, w=56, k=8, r=r, s=s, pad=pad)
        assert (got["p"], got["q"]) == (pq, pq)
    got = seer.predict_conv(gpu=GPU, n=1, c=8, h=56, w=56, k=8, dilation=2)  # dilation * (r - 1) // 2
    assert (got["p"], got["q"]) == (56, 56)


RTX2080 = """# GeForce RTX 2080 from its datasheet (docs/formats.md)
seer-gpu=1
id=rtx-2080
name=NVIDIA GeForce RTX 2080
arch=turing
cc=7.5
sms=46
boost_mhz=1710
fp32_tflops=10.07
fp16_tflops=40.3
fp16_simt_tflops=20.1
dram_gbps=448
dram_gib=8
l2_bytes=4194304
"""


def test_gpu_description_file_as_the_cli_takes_it(tmp_path):
    """gpu= may be a GPU description file, as --gpu FILE: the same answer
    as the CLI's, also from another thread (whose handle never saw the
    file); a bad file names its line."""
    import threading
    f = tmp_path / "rtx2080.gpu"
    f.write_text(RTX2080)
    shape = dict(n=8, c=64, h=28, w=28, k=64, r=3, s=3, pad=1)
    py = seer.predict_conv(gpu=str(f), **shape)
    assert py["gpu"] == "rtx-2080" and py["served"] == "transferred"
    same(py, cli("predict", "--gpu", str(f), "--n", "8", "--c", "64", "--h", "28", "--w", "28", "--k", "64",
                 "--r", "3", "--s", "3", "--pad", "1"))
    other = []
    t = threading.Thread(target=lambda: other.append(seer.predict_conv(gpu=str(f), **shape)))
    t.start()
    t.join()
    assert other and other[0]["predictions"] == py["predictions"]
    assert seer.net("resnet18", gpu=str(f), batch=8)["total_ms"] > 0
    bad = tmp_path / "bad.gpu"
    bad.write_text(RTX2080.replace("sms=46", "sms=0x2e").replace("rtx-2080", "rtx-2080-bad"))
    with pytest.raises(seer.SeerError, match="bad.gpu:7: not a decimal number for .sms."):
        seer.predict_conv(gpu=str(bad), **shape)
