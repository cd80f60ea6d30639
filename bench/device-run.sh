#!/bin/bash
# bench/device-run.sh - everything one short GPU lease measures, in one call
# (about 9 minutes), results under $OUT (at most 8 files: the device tool's
# limit):
#   env.txt     GPU, driver, clocks, CUDA, cuDNN, torch versions, libraries
#   bench.tgz   seer-bench's default calibration (micro + sweep), budget
#               SEER_BENCH_SECONDS (default 300), CNN layers first
#   gemm.csv    bench/torch_gemm.py: GEMM timing CSV, GPU time and idle-
#               bracketed time per shape (rows flushed one by one)
#   torch.tgz   bench/torch_iteration.py: ResNet-50 training and inference
#               iterations (events, CUPTI kernel sums, per-kernel tables)
#   gemm.log    torch_gemm.py's own log
#   log.txt     what ran, when, and how it ended (exit 1: the sweep left nothing)
# Each stage has its own deadline so that a slow one leaves the later ones
# time, and the tarballs are written as each stage ends.
# usage (repository root, on the GPU machine): OUT=dir bash bench/device-run.sh
# with build/seer-bench built here (carried) or buildable there.  Settings
# (whole seconds): SEER_DEVICE_SECONDS (560), SEER_BENCH_SECONDS (300),
# SEER_GEMM_SECONDS (50); SEER_SEED (1): the seed of seer-bench's plan and
# of torch_gemm.py's shapes (another seed measures shapes the shipped
# models never trained on); SEER_TORCH=1 (default) runs the ResNet-50
# iterations, any other value skips them.
set -u
. "$(dirname "$0")/device-lib.sh"
TOTAL=$(num SEER_DEVICE_SECONDS 560)
SEED=$(num SEER_SEED 1)
TORCH=1; [ "${SEER_TORCH:-1}" = 1 ] || TORCH=0
# seconds for a stage: its plan, or what is left minus the reserve of the later ones
budget() { local l; l=$(($(left) - $2)); [ "$l" -lt 5 ] && l=5; [ "$l" -lt "$1" ] && echo "$l" || echo "$1"; }

# ---- environment -----------------------------------------------------------
capture_env

# ---- seer-bench: carried binary, else the libraries it lacks, else build here
BENCH=${SEER_BENCH_BIN:-build/seer-bench}
# the five libraries seer-bench links, wherever this machine has them
find_lib_files() {
    find /usr /opt -xdev \( -name 'libcudnn.so.9' -o -name 'libcupti.so.13' -o -name 'libcublas.so.13' \
        -o -name 'libcublasLt.so.13' -o -name 'libcudart.so.13' \) 2>/dev/null
}
# their directories reach seer-bench alone (BENCH_ENV), not torch, whose
# own cuDNN they could displace
BENCH_ENV=()
if [ ! -x "$BENCH" ] || ldd "$BENCH" | grep -q "not found"; then
    dirs=$(find_lib_files | xargs -r -n1 dirname | sort -u | tr '\n' ':')
    BENCH_ENV=(env "LD_LIBRARY_PATH=${dirs}${LD_LIBRARY_PATH:-}")
    log "libraries from: $dirs"
fi
if [ ! -x "$BENCH" ] || ! ${BENCH_ENV[@]+"${BENCH_ENV[@]}"} "$BENCH" --gpu-name "x" > /dev/null 2>&1; then
    log "carried seer-bench does not start; building (sm_90 only)"
    inc=$(find /usr /opt -xdev -name cudnn.h 2>/dev/null | head -1)
    mkdir -p "$W/lk"
    # the link names of those five files only: every lib*.so.N of their
    # directories took libc.so to libc.so.6 past its linker script
    for f in $(find_lib_files); do b=$(basename "$f"); ln -sf "$f" "$W/lk/${b%%.so.*}.so"; done
    if make B="$W/b" gpu-tools NVCC_ARCH='-gencode arch=compute_90,code=sm_90' \
        CFLAGS="-isystem ${inc%/cudnn.h}" LDFLAGS="-L$W/lk -Wl,-rpath,$W/lk" > "$W/build.log" 2>&1; then
        BENCH=$W/b/seer-bench
    else
        log "build failed:"; BENCH=
    fi
    tail -5 "$W/build.log" | tee -a "$OUT/log.txt"
fi
[ -n "$BENCH" ] && { echo "== seer-bench libraries"; ${BENCH_ENV[@]+"${BENCH_ENV[@]}"} ldd "$BENCH" | grep -E "cudnn|cupti|cublas|cudart|not found"; } >> "$OUT/env.txt" 2>&1

GPUID=
[ -n "$BENCH" ] && GPUID=$(${BENCH_ENV[@]+"${BENCH_ENV[@]}"} "$BENCH" --gpu-name \
    "$(timeout 30 nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)" 2>/dev/null | tail -1)
log "gpu id: ${GPUID:-unknown}"
BS=$(num SEER_BENCH_SECONDS 300) GS=$(num SEER_GEMM_SECONDS 50)
s=$(budget $((BS + 20)) $((GS + 20 + TORCH * 160)))
# the sweep's own budget ends it cleanly (status=budget) inside the hard limit
[ $((s - 20)) -lt "$BS" ] && BS=$((s > 25 ? s - 20 : 5))
if [ -n "$BENCH" ]; then
    log "seer-bench: --minutes $BS/60, hard limit $s s"
    timeout -k 15 -s INT "$s" ${BENCH_ENV[@]+"${BENCH_ENV[@]}"} "$BENCH" --out "$W/bench" --seed "$SEED" \
        --minutes "$(awk -v s="$BS" 'BEGIN { print s / 60 }')" > "$W/bench.log" 2>&1
    log "seer-bench exit $?: $(grep -E '^(status|elapsed_s|entries_run|entries_not_reached|layer_rows|failed_rows|unattributed_kernels|hold_expired|cudnn|cudnn_header)=' "$W/bench/manifest.txt" 2>/dev/null | tr '\n' ' ')"
    # a cuDNN older or newer than the headers it was built with: say so
    rt=$(sed -n 's/^cudnn=//p' "$W/bench/manifest.txt" 2>/dev/null); hd=$(sed -n 's/^cudnn_header=//p' "$W/bench/manifest.txt" 2>/dev/null)
    [ -n "$rt" ] && [ -n "$hd" ] && [ "$rt" != "$hd" ] && log "warning: seer-bench ran cuDNN $rt, built against $hd"
    tr '\r' '\n' < "$W/bench.log" | grep -v '^\s*$' | tail -20 >> "$OUT/log.txt"
    cp "$W/bench.log" "$W/bench/" 2>/dev/null
    tar czf "$OUT/bench.tgz" -C "$W" bench 2>> "$OUT/log.txt"
    log "bench.tgz $(du -h "$OUT/bench.tgz" 2>/dev/null | cut -f1)"
else
    log "no seer-bench: sweep skipped"
fi

# ---- GEMMs ---------------------------------------------------------------------
m=$(sed -n 's/^gpu=//p' "$W/bench/manifest.txt" 2>/dev/null); [ -n "$m" ] && GPUID=$m
export PYTHONUNBUFFERED=1
s=$(budget "$GS" $((TORCH * 150)))
log "torch_gemm: $s s"
# every 8th row's kernels (names, grid, block): the Hopper FP32 nn.Linear
# calls of a few microseconds' work that took 10-45 us (docs/networks.md)
# were timed with none, so what ran is unknown
timeout -k 10 $((s + 15)) python3 bench/torch_gemm.py --out "$OUT/gemm.csv" --seconds "$s" --seed "$SEED" \
    --gpu-id "${GPUID:-}" --kernels-every 8 > "$W/gemm.log" 2>&1
log "torch_gemm exit $?: $(tail -1 "$W/gemm.log") ($(grep -c '^skip' "$W/gemm.log") skipped)"
cp "$W/gemm.log" "$OUT/gemm.log"
# exit 1 when the sweep left nothing, so that a failed lease reads as one
status=0; [ -s "$W/bench/manifest.txt" ] || status=1

# ---- ResNet-50 iterations (SEER_TORCH other than 1: none) ----------------------
[ "$TORCH" = 0 ] && { log "done (no torch iterations)"; exit $status; }
mkdir -p "$W/torch"
s=$(budget 110 45)
log "torch_iteration train: $s s"
timeout -k 10 "$s" python3 bench/torch_iteration.py --out "$W/torch/train" --seer '' --mode train \
    --configs amp:nhwc:256,tf32:nchw:128,fp32:nchw:64,amp:nhwc:32 > "$W/torch/train.log" 2>&1
log "train exit $?"
tar czf "$OUT/torch.tgz" -C "$W" torch gemm.log
s=$(budget 45 5)
log "torch_iteration infer: $s s"
timeout -k 10 "$s" python3 bench/torch_iteration.py --out "$W/torch/infer" --seer '' --mode infer \
    --configs amp:nhwc:256,tf32:nchw:1,amp:nhwc:1 > "$W/torch/infer.log" 2>&1
log "infer exit $?"
tar czf "$OUT/torch.tgz" -C "$W" torch gemm.log
grep -h '^{' "$W/torch/train.log" "$W/torch/infer.log" | cut -c1-400 >> "$OUT/log.txt"
log "done"
exit $status
