#!/usr/bin/env python3
"""Time real PyTorch training/inference iterations and put libseer beside them.

Issue #14 asks for whole-iteration predictions checked against iterations
timed on a GPU.  This runs torchvision's ResNet-50 (v1.5, as NVIDIA's
DeepLearningExamples), or another network (--model), on synthetic
GPU-resident data, so no data loading is in the numbers, and records per
configuration:

  event_ms    CUDA events around N back-to-back iterations, divided by N:
              what a training loop sees (GPU time, plus any time the GPU
              waits for the host to issue kernels)
  kernel_ms   the sum of the iteration's kernel durations from the
              profiler (CUPTI): GPU time, what libseer predicts
  span_ms     first kernel start to last kernel end of one iteration
  *_ms        kernel_ms split by kernel name: conv (cuDNN convolution
              kernels), transpose (NCHW<->NHWC), bn (batch, group and
              instance norms, and layer norm's gamma/beta gradient,
              whose kernel is named like group norm's), gemm (the fc layer),
              optimizer (fused multi-tensor kernels), other (activations,
              adds, pooling, casts, loss)
  seer_*      `seer net MODEL ... --format json` for the same GPU,
              batch, mode, dtype and layout (libseer's GPU time, its
              conv / other / optimizer split, its memory peak)

It writes OUT/iterations.csv (one row per configuration, with the GPU,
driver, torch, CUDA and cuDNN versions) and OUT/kernels-CONFIG.csv (every
kernel name of one profiled iteration with its count and total time), and
prints a table.  Nothing is fitted to these numbers here.

    python3 bench/torch_iteration.py --out OUT [--seer build/seer]
        [--model resnet50] [--configs tf32:nchw:256,amp:nhwc:256,...]
        [--mode train|infer] [--iters 20] [--warmup 8] [--res 224]
        [--device cuda|cpu] [--export-onnx]

--model: resnet50 (default), mobilenet_v2, densenet121, vgg16,
convnext_tiny (torchvision's, and seer's built-in networks of the same
names), resnet50_gn (ResNet-50 with GroupNorm(32) in place of every
BatchNorm) or unet (a four-level U-Net, 32 to 512 channels, 2x2
ConvTranspose2d upsampling, 2-class per-pixel loss).  The last two are no
built-in networks of seer: --export-onnx writes OUT/MODEL-bBATCH-MODE.onnx
per configuration (on the CPU, torch.onnx's TorchScript exporter, training
mode for --mode train) for `seer net FILE.onnx` instead of timing.

A configuration is PRECISION:LAYOUT:BATCH with PRECISION fp32 (TF32
off), tf32 (PyTorch's default for cuDNN convolutions on Ampere and
newer), amp (autocast fp16 + GradScaler) or amp-bf16.  --device cpu only
checks that the script runs (no profiler numbers, no seer comparison).
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
import time

from torch_trace import kernel_events, trace_events

CATEGORIES = [
    ("transpose", re.compile(r"nchwToNhwc|nhwcToNchw|transpose", re.I)),
    ("conv", re.compile(r"conv|implicit_gemm|implicit_convolve|winograd|fft|fprop|dgrad|wgrad|"
                        r"xmma_|cudnn::detail::|precomputed_convolve|scudnn|s884cudnn|s1688cudnn|"
                        r"h1688cudnn|h884cudnn|cudnn_infer|cudnn_train", re.I)),
    ("bn", re.compile(r"batch_norm|batchnorm|bn_fw|bn_bw|welford|group_norm|groupnorm|RowwiseMoments|"
                      r"ComputeFusedParams|Compute1dBackwardFused|ComputeInternalGradients|"
                      r"ComputeBackwardFusedParams|GammaBeta|instance_norm", re.I)),
    ("optimizer", re.compile(r"multi_tensor|foreach|sgd|adam|momentum", re.I)),
    ("gemm", re.compile(r"gemm|gemv|cutlass|cublas", re.I)),
]


def category(name):
    for cat, rx in CATEGORIES:
        if rx.search(name):
            return cat
    return "other"


def versions(torch):
    driver = ""
    try:
        driver = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                                capture_output=True, text=True, timeout=30).stdout.strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        pass
    cudnn = torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None
    return {"torch": torch.__version__, "cuda": torch.version.cuda or "", "cudnn": str(cudnn or ""),
            "driver": driver}


TORCHVISION = ("resnet50", "mobilenet_v2", "densenet121", "vgg16", "convnext_tiny")
MODELS = TORCHVISION + ("resnet50_gn", "unet")
UNET_CLASSES = 2


def unet(torch):
    """A four-level U-Net (Ronneberger et al.; the widths of Buda et al.'s
    brain-MRI U-Net): two 3x3 conv-BN-ReLU per level, 2x2 max pooling
    down, 2x2 stride-2 transposed convolutions up, skip concatenations."""
    nn = torch.nn

    def block(cin, cout):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
                             nn.ReLU(inplace=True), nn.Conv2d(cout, cout, 3, padding=1, bias=False),
                             nn.BatchNorm2d(cout), nn.ReLU(inplace=True))

    class UNet(nn.Module):
        def __init__(self, f=32):
            super().__init__()
            w = [f, 2 * f, 4 * f, 8 * f]
            self.down = nn.ModuleList([block(3 if i == 0 else w[i - 1], w[i]) for i in range(4)])
            self.pool = nn.MaxPool2d(2)
            self.mid = block(w[3], 16 * f)
            self.up = nn.ModuleList([nn.ConvTranspose2d(2 * w[i], w[i], 2, stride=2) for i in range(4)])
            self.dec = nn.ModuleList([block(2 * w[i], w[i]) for i in range(4)])
            self.head = nn.Conv2d(f, UNET_CLASSES, 1)

        def forward(self, x):
            skips = []
            for d in self.down:
                x = d(x)
                skips.append(x)
                x = self.pool(x)
            x = self.mid(x)
            for i in reversed(range(4)):
                x = self.dec[i](torch.cat([self.up[i](x), skips[i]], 1))
            return self.head(x)

    return UNet()


def make_model(torch, torchvision, name):
    if name == "unet":
        return unet(torch)
    if name == "resnet50_gn":
        return torchvision.models.resnet50(norm_layer=lambda c: torch.nn.GroupNorm(32, c))
    return getattr(torchvision.models, name)()


def export_onnx(torch, torchvision, batch):
    """The network at one batch size as ONNX, for seer net FILE.onnx."""
    model = make_model(torch, torchvision, ARGS.model)
    train = ARGS.mode == "train"
    model.train(train)
    x = torch.randn(batch, 3, ARGS.res, ARGS.res)
    path = os.path.join(ARGS.out, "%s-b%d-%s.onnx" % (ARGS.model, batch, ARGS.mode))
    mode = torch.onnx.TrainingMode.TRAINING if train else torch.onnx.TrainingMode.EVAL
    torch.onnx.export(model, x, path, dynamo=False, opset_version=17, training=mode,
                      do_constant_folding=not train)
    return path


def build(torch, torchvision, cfg, device):
    prec, layout, batch = cfg
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.allow_tf32 = prec == "tf32"
    torch.backends.cuda.matmul.allow_tf32 = prec == "tf32"
    model = make_model(torch, torchvision, ARGS.model).to(device)
    fmt = torch.channels_last if layout == "nhwc" else torch.contiguous_format
    model = model.to(memory_format=fmt)
    x = torch.randn(batch, 3, ARGS.res, ARGS.res, device=device).to(memory_format=fmt)
    if ARGS.model == "unet":  # per-pixel classes
        y = torch.randint(0, UNET_CLASSES, (batch, ARGS.res, ARGS.res), device=device)
    else:
        y = torch.randint(0, 1000, (batch,), device=device)
    # DeepLearningExamples' ResNet-50 v1.5 optimizer: SGD with momentum 0.875
    opt = torch.optim.SGD(model.parameters(), lr=0.256, momentum=0.875, weight_decay=3.0517578125e-05)
    amp_dtype = {"amp": torch.float16, "amp-bf16": torch.bfloat16}.get(prec)
    # GradScaler for fp16 only: bf16 has fp32's exponent range (seer net models the same)
    scaler = torch.amp.GradScaler("cuda", enabled=prec == "amp" and device == "cuda")
    loss_fn = torch.nn.CrossEntropyLoss()

    def step():
        with torch.autocast(device_type=device, dtype=amp_dtype or torch.float32, enabled=amp_dtype is not None):
            out = model(x)
            if ARGS.mode == "infer":
                return
            loss = loss_fn(out, y)
        opt.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()

    if ARGS.mode == "infer":
        model.eval()
        inner = step

        def step():  # noqa: F811  inference without autograd
            with torch.no_grad():
                inner()
    return step


def time_events(torch, step, device):
    for _ in range(ARGS.warmup):
        step()
    if device != "cuda":
        t0 = time.perf_counter()
        for _ in range(ARGS.iters):
            step()
        return (time.perf_counter() - t0) * 1e3 / ARGS.iters
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(ARGS.iters):
        step()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / ARGS.iters


def profile_kernels(torch, step):
    """Kernels of the middle of three profiled iterations: name -> [count, us], span us."""
    from torch.profiler import ProfilerActivity, profile, record_function
    with profile(activities=[ProfilerActivity.CUDA, ProfilerActivity.CPU]) as prof:
        for i in range(3):
            with record_function("iteration%d" % i):
                step()
            torch.cuda.synchronize()
    events = trace_events(prof)
    kernels = kernel_events(events)
    marks = sorted((e for e in events if str(e.get("name", "")).startswith("iteration") and e.get("ph") == "X"
                    and e.get("cat") in ("user_annotation", "gpu_user_annotation")), key=lambda e: e["ts"])
    # the kernels launched by iteration 1: those whose launch (any host
    # thread: autograd runs backward on its own) falls in its host-side
    # annotation, by correlation id.  The GPU-side annotation covers one
    # stream only: on an H200 it held the forward kernels of NCHW runs and
    # none of their backward ones (data/h200-sxm-141gb, README).  Else
    # split the kernels in three.
    cpu_marks = [m for m in marks if m.get("cat") == "user_annotation" and m["name"] == "iteration1"]
    gpu_marks = [m for m in marks if m.get("cat") == "gpu_user_annotation" and m["name"] == "iteration1"]
    launches = set()
    if cpu_marks:
        lo, hi = cpu_marks[0]["ts"], cpu_marks[0]["ts"] + cpu_marks[0]["dur"]
        launches = {e["args"]["correlation"] for e in events
                    if e.get("cat") in ("cuda_runtime", "cuda_driver") and lo <= e.get("ts", -1) <= hi
                    and "correlation" in e.get("args", {})}
    if launches:
        mid = [k for k in kernels if k.get("args", {}).get("correlation") in launches]
    elif gpu_marks:
        m = gpu_marks[0]
        mid = [k for k in kernels if m["ts"] <= k["ts"] < m["ts"] + m["dur"]]
    else:
        n = len(kernels) // 3
        mid = kernels[n:2 * n]
    table = {}
    for k in mid:
        t = table.setdefault(k["name"], [0, 0.0])
        t[0] += 1
        t[1] += k["dur"]
    span = (mid[-1]["ts"] + mid[-1]["dur"] - mid[0]["ts"]) if mid else 0.0
    return table, span


def run_seer(gpu_name, cfg):
    prec, layout, batch = cfg
    if ARGS.model not in TORCHVISION:
        return {}  # no built-in network of seer: --export-onnx, then seer net FILE.onnx
    cmd = [ARGS.seer, "net", ARGS.model, "--gpu", gpu_name, "--batch", str(batch), "--mode", ARGS.mode,
           "--layout", layout, "--res", str(ARGS.res), "--format", "json"]
    if prec.startswith("amp"):
        cmd += ["--amp", "--dtype", "bf16" if prec == "amp-bf16" else "fp16"]
    else:
        cmd += ["--dtype", prec]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return {"seer_error": (r.stderr.strip() or r.stdout.strip())[:200]}
    j = json.loads(r.stdout)
    tot = j.get("totals", j)
    out = {"seer_total_ms": tot.get("gpu_ms", tot.get("total_ms")), "seer_conv_ms": tot.get("conv_ms"),
           "seer_other_ms": tot.get("other_ms"), "seer_optimizer_ms": tot.get("optimizer_ms")}
    mem = j.get("memory", {})
    out["seer_peak_bytes"] = mem.get("total", mem.get("peak"))
    return out


def parse_configs(text):
    out = []
    for item in text.split(","):
        parts = item.split(":")
        if (len(parts) != 3 or parts[0] not in ("fp32", "tf32", "amp", "amp-bf16") or
                parts[1] not in ("nchw", "nhwc") or not parts[2].isdigit() or int(parts[2]) < 1):
            sys.exit("torch_iteration: bad configuration '%s' (PRECISION:LAYOUT:BATCH)" % item)
        out.append((parts[0], parts[1], int(parts[2])))
    return out


def write_rows(rows):
    # the whole file again after each configuration, so that a run killed
    # by its deadline keeps the rows it finished
    keys = []
    for r in rows:
        keys += [k for k in r if k not in keys]
    with open(os.path.join(ARGS.out, "iterations.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(rows)


def main():
    configs = parse_configs(ARGS.configs)  # before torch: a bad one is told at once
    try:
        import torch
        import torchvision
    except ImportError as e:
        sys.exit("torch_iteration: needs torch and torchvision (%s)" % e)
    os.makedirs(ARGS.out, exist_ok=True)
    if ARGS.export_onnx:  # on the CPU: no GPU needed
        for batch in sorted(set(c[2] for c in configs)):
            print(export_onnx(torch, torchvision, batch))
        return
    device = ARGS.device
    if device == "cuda" and not torch.cuda.is_available():
        sys.exit("no CUDA device: torch.cuda.is_available() is False (use --device cpu to check the script)")
    info = versions(torch)
    info["gpu"] = torch.cuda.get_device_name() if device == "cuda" else "cpu"
    rows = []
    # resnet50's file names as before this option
    prefix = "" if ARGS.model == "resnet50" else ARGS.model + "-"
    for cfg in configs:
        name = "%s%s-%s-b%d-%s" % (prefix, cfg[0], cfg[1], cfg[2], ARGS.mode)
        row = dict(info, model=ARGS.model, precision=cfg[0], layout=cfg[1], batch=cfg[2], mode=ARGS.mode, res=ARGS.res,
                   iters=ARGS.iters)
        try:
            step = build(torch, torchvision, cfg, device)
            if device == "cuda":
                torch.cuda.reset_peak_memory_stats()
            row["event_ms"] = round(time_events(torch, step, device), 4)
            if device == "cuda":
                # the peak over warm-up and timing, cudnn.benchmark's trial
                # workspaces included, and the steady state's alone: one
                # more iteration after a reset, what seer net's memory models
                row["peak_mem_bytes"] = torch.cuda.max_memory_allocated()
                torch.cuda.synchronize()
                torch.cuda.reset_peak_memory_stats()
                step()
                torch.cuda.synchronize()
                row["steady_peak_mem_bytes"] = torch.cuda.max_memory_allocated()
                table, span = profile_kernels(torch, step)
                cats = {}
                for kname, (cnt, us) in table.items():
                    c = category(kname)
                    cats[c] = cats.get(c, 0.0) + us
                row["kernels"] = sum(c for c, _ in table.values())
                row["kernel_ms"] = round(sum(us for _, us in table.values()) / 1e3, 4)
                row["span_ms"] = round(span / 1e3, 4)
                for c in ("conv", "transpose", "bn", "gemm", "optimizer", "other"):
                    row[c + "_ms"] = round(cats.get(c, 0.0) / 1e3, 4)
                with open(os.path.join(ARGS.out, "kernels-%s.csv" % name), "w", newline="") as f:
                    w = csv.writer(f)
                    w.writerow(["kernel", "category", "count", "total_us"])
                    for kname, (cnt, us) in sorted(table.items(), key=lambda kv: -kv[1][1]):
                        w.writerow([kname, category(kname), cnt, round(us, 3)])
                if ARGS.seer:
                    row.update(run_seer(info["gpu"], cfg))
                    if row.get("seer_total_ms") and row.get("kernel_ms"):
                        row["seer_vs_kernel_pct"] = round(100 * (row["seer_total_ms"] / row["kernel_ms"] - 1), 1)
        except Exception as e:  # one configuration failing (out of memory) leaves the others
            row["error"] = ("%s: %s" % (type(e).__name__, e))[:200]
            if device == "cuda":
                torch.cuda.empty_cache()
        rows.append(row)
        print(json.dumps(row), flush=True)
        write_rows(rows)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--seer", default="build/seer", help="the seer CLI ('' to skip the comparison)")
    ap.add_argument("--configs", default="tf32:nchw:256,amp:nhwc:256,fp32:nchw:128,tf32:nchw:128,amp:nhwc:128")
    ap.add_argument("--model", choices=MODELS, default="resnet50")
    ap.add_argument("--export-onnx", action="store_true", help="write OUT/MODEL-bBATCH-MODE.onnx, no timing")
    ap.add_argument("--mode", choices=("train", "infer"), default="train")
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=8)
    ap.add_argument("--res", type=int, default=224)
    ap.add_argument("--device", choices=("cuda", "cpu"), default="cuda")
    ARGS = ap.parse_args()
    main()
