#!/usr/bin/env python3
"""Time PyTorch GEMMs (nn.Linear and bmm) on a GPU as GEMM timing CSV v1.

libseer's GEMM models train on NeuSight's published times, which bracket
one call on an idle GPU with CUDA events: GPU time plus the host's
dispatch of that call.  This measures both on the GPU it runs on, per
shape:

  time_ms         GPU time: R calls captured in a CUDA graph and replayed
                  (kernels back to back, launch gaps of a microsecond or
                  two), median over replays divided by R; calls of over
                  1 ms are timed eagerly back to back instead
  event_idle_ms   NeuSight's way: synchronize, event, one eager call,
                  event, synchronize; median of 5 (GPU plus host time)

Shapes are drawn by a seeded generator (log-uniform sizes, the ops and
transposes of NeuSight's collector: linear N,T with bias, bmm N,N), not
taken from any dataset.  Inputs are random normal; the same buffers are
reused across repetitions, as NeuSight did (L2 may hold small operands).
fp32 runs with TF32 off (PyTorch's default for matmul).

    python3 bench/torch_gemm.py --out FILE [--seconds 60] [--seed 1]
        [--device cuda|cpu]

  main_kernel, grid_*, block_*, kernels
                  with --kernels-every N, every N-th row: one more eager
                  call under torch.profiler, its CUDA kernels (names
                  ';'-joined in launch order; the longest is the main one,
                  with its grid and block); empty on the other rows

Rows are written and flushed one by one, so a run stopped at its deadline
(or killed) keeps what it measured.  --device cpu only checks the script.
"""
import argparse
import csv
import math
import random
import statistics
import subprocess
import sys
import time

from torch_trace import kernel_events, trace_events

COLUMNS = ["gpu", "op", "dtype", "batch", "m", "n", "k", "trans_a", "trans_b", "bias", "time_ms",
           "main_kernel", "grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z", "kernels", "source",
           "event_idle_ms", "reps"]
MAX_FLOP = 1e11          # about 1.5 ms in fp32 on a Hopper GPU
# One draw in LARGE_SHARE is a large product, as most of NeuSight's are
# (median n and k about 2000, up to 30000; up to 1e13 FLOPs): sizes
# log-uniform from 256, up to LARGE_FLOP (about 15 ms in fp32 on a
# Hopper GPU, some 0.2 s of the budget per row).  The first Hopper
# sweeps' largest product was 1e11 FLOPs, so their fits extrapolate
# to NeuSight's sizes.
LARGE_SHARE = 0.1
LARGE_FLOP = 1e12
MAX_ELEMS = 1 << 28      # per tensor: 1 GiB in fp32


def loguniform(rng, lo, hi):
    return int(round(math.exp(rng.uniform(math.log(lo), math.log(hi)))))


def draw(rng):
    """One (op, dtype, batch, m, n, k) within the caps."""
    op = "linear" if rng.random() < 0.4 else "bmm"
    u = rng.random()
    dtype = "fp32" if u < 0.6 else ("fp16" if u < 0.8 else "bf16")
    batch = 1 if op == "linear" else loguniform(rng, 1, 1024)
    large = rng.random() < LARGE_SHARE
    cap = LARGE_FLOP if large else MAX_FLOP
    m, n, k = (loguniform(rng, 256 if large else 2, 32768 if large else 16384) for _ in range(3))
    aligned = dtype != "fp32" and rng.random() < 0.5
    while 2.0 * batch * m * n * k > cap or max(m * k, k * n, m * n) * batch > MAX_ELEMS:
        # shrink the largest dimension (batch included) until under the caps
        dims = {"batch": batch, "m": m, "n": n, "k": k}
        big = max(dims, key=dims.get)
        dims[big] = max(1, dims[big] // 2)
        batch, m, n, k = dims["batch"], dims["m"], dims["n"], dims["k"]
    # half the tensor-core draws have sizes a multiple of 8, as layers'
    # are: unaligned sizes run cuBLAS's slow unaligned kernels (the first
    # sweeps' FP16/BF16 rows, all unaligned, could not fit aligned GEMMs);
    # rounding up adds under 8 to a size, past the element cap never
    if aligned:
        up = [-(-d // 8) * 8 for d in (m, n, k)]
        if max(up[0] * up[2], up[2] * up[1], up[0] * up[1]) * batch <= MAX_ELEMS:
            m, n, k = up
    return op, dtype, batch, m, n, k


def main():
    try:
        import torch
    except ImportError as e:
        sys.exit("torch_gemm: needs torch (%s)" % e)
    if ARGS.device == "cuda" and not torch.cuda.is_available():
        sys.exit("no CUDA device: torch.cuda.is_available() is False (use --device cpu to check the script)")
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = ARGS.device
    name = torch.cuda.get_device_name() if dev == "cuda" else "cpu"
    gpu = ARGS.gpu_id or name
    driver = ""
    try:
        driver = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                                capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    source = "torch_gemm:%s:torch%s:cuda%s:driver%s:seed%d" % (name.replace(" ", "_"), torch.__version__,
                                                             torch.version.cuda or "", driver, ARGS.seed)
    dts = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}
    rng = random.Random(ARGS.seed)
    deadline = time.time() + ARGS.seconds
    done = failed = 0
    with open(ARGS.out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(COLUMNS)
        while time.time() < deadline and (ARGS.max_rows == 0 or done < ARGS.max_rows):
            op, dtype, batch, m, n, k = draw(rng)
            try:
                g = torch.Generator(device=dev).manual_seed(rng.randrange(1 << 30))
                dt = dts[dtype]
                if op == "linear":
                    a = torch.randn(m, k, device=dev, dtype=dt, generator=g)
                    wt = torch.randn(n, k, device=dev, dtype=dt, generator=g)
                    bias = torch.randn(n, device=dev, dtype=dt, generator=g)

                    def call():
                        return torch.nn.functional.linear(a, wt, bias)
                else:
                    a = torch.randn(batch, m, k, device=dev, dtype=dt, generator=g)
                    b = torch.randn(batch, k, n, device=dev, dtype=dt, generator=g)

                    def call():
                        return torch.bmm(a, b)
                t_gpu, t_idle, reps = time_call(torch, call, dev)
                names = ["", "", "", "", "", "", "", ""]
                if dev == "cuda" and ARGS.kernels_every > 0 and done % ARGS.kernels_every == 0:
                    names = kernel_names(torch, call)
            except Exception as e:  # out of memory, say: the row is skipped, counted
                failed += 1
                print("skip %s %s %d %d %d %d: %s" % (op, dtype, batch, m, n, k, str(e)[:120]), file=sys.stderr)
                if dev == "cuda":
                    torch.cuda.empty_cache()
                continue
            w.writerow([gpu, op, dtype, batch, m, n, k, "N", "T" if op == "linear" else "N",
                        1 if op == "linear" else 0, "%.6g" % t_gpu] + names + [source,
                        "%.6g" % t_idle, reps])
            f.flush()
            done += 1
    print("torch_gemm: %d rows, %d skipped, %s" % (done, failed, ARGS.out))


def kernel_names(torch, call):
    """[main_kernel, grid x y z, block x y z, kernels] of one eager call,
    from the profiler's trace; empty fields where it gives none."""
    from torch.profiler import ProfilerActivity, profile
    out = ["", "", "", "", "", "", "", ""]
    try:
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            call()
            torch.cuda.synchronize()
        kernels = kernel_events(trace_events(prof))
    except Exception as e:  # a profiler that cannot start: the timing stands
        print("kernels: %s" % str(e)[:120], file=sys.stderr)
        return out
    if not kernels:
        return out
    main = max(kernels, key=lambda e: e.get("dur", 0))
    args = main.get("args", {})
    grid = list(args.get("grid", [])) + ["", "", ""]
    block = list(args.get("block", [])) + ["", "", ""]
    return [main["name"]] + grid[:3] + block[:3] + [";".join(k["name"] for k in kernels)]


def time_call(torch, call, dev):
    """(GPU ms per call, idle-bracketed ms, repetitions per graph)."""
    if dev != "cuda":
        t0 = time.perf_counter()
        call()
        t = (time.perf_counter() - t0) * 1e3
        return t, t, 1
    for _ in range(2):
        call()
    torch.cuda.synchronize()
    idle = []
    for _ in range(5):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda.synchronize()
        s.record()
        call()
        e.record()
        torch.cuda.synchronize()
        idle.append(s.elapsed_time(e))
    t_idle = statistics.median(idle)
    if t_idle > 1.0:  # long calls: eager, back to back, launch overhead hidden
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        for _ in range(5):
            call()
        e.record()
        torch.cuda.synchronize()
        return s.elapsed_time(e) / 5, t_idle, 5
    reps = max(1, min(50, int(math.ceil(0.5 / max(t_idle, 0.005)))))
    graph = torch.cuda.CUDAGraph()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        call()
    torch.cuda.current_stream().wait_stream(side)
    with torch.cuda.graph(graph):
        for _ in range(reps):
            call()
    graph.replay()
    times = []
    for _ in range(5):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        graph.replay()
        e.record()
        torch.cuda.synchronize()
        times.append(s.elapsed_time(e) / reps)
    del graph
    return statistics.median(times), t_idle, reps


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-rows", type=int, default=0, help="stop after this many rows (0: the deadline only)")
    ap.add_argument("--gpu-id", default="", help="the gpu column (default: the device name)")
    ap.add_argument("--device", choices=("cuda", "cpu"), default="cuda")
    ap.add_argument("--kernels-every", type=int, default=0,
                    help="record the kernels of every N-th row with the profiler (0: none)")
    ARGS = ap.parse_args()
    main()
