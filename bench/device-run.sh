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
#   log.txt     what ran, when, and how it ended
# Each stage has its own deadline so that a slow one leaves the later ones
# time, and the tarballs are written as each stage ends.
# usage (repository root, on the GPU machine): OUT=dir bash bench/device-run.sh
# with build/seer-bench built here (carried) or buildable there.
set -u
OUT=${OUT:?set OUT}
TOTAL=${SEER_DEVICE_SECONDS:-560}
T0=$(date +%s)
W=/tmp/seer-device
rm -rf "$W"; mkdir -p "$W"
log() { echo "[$(($(date +%s) - T0)) s] $*" | tee -a "$OUT/log.txt"; }
left() { echo $((TOTAL - ($(date +%s) - T0))); }
# seconds for a stage: its plan, or what is left minus the reserve of the later ones
budget() { local l; l=$(($(left) - $2)); [ "$l" -lt 5 ] && l=5; [ "$l" -lt "$1" ] && echo "$l" || echo "$1"; }

# ---- environment -----------------------------------------------------------
{
    date -u; uname -a; grep PRETTY_NAME /etc/os-release
    nvidia-smi
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem,clocks.sm,power.limit,temperature.gpu,persistence_mode,compute_mode --format=csv
    nvcc --version | tail -2
    python3 -c 'import torch,torchvision; print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version(), "torchvision", torchvision.__version__)'
} > "$OUT/env.txt" 2>&1
log "env: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"

# ---- seer-bench: carried binary, else the libraries it lacks, else build here
BENCH=build/seer-bench
find_libs() {
    find /usr /opt -xdev \( -name 'libcudnn.so.9' -o -name 'libcupti.so.13' -o -name 'libcublas.so.13' \
        -o -name 'libcublasLt.so.13' -o -name 'libcudart.so.13' \) 2>/dev/null | xargs -r -n1 dirname | sort -u
}
if [ ! -x "$BENCH" ] || ldd "$BENCH" | grep -q "not found"; then
    dirs=$(find_libs | tr '\n' ':')
    export LD_LIBRARY_PATH=${dirs}${LD_LIBRARY_PATH:-}
    log "libraries from: $dirs"
fi
if [ ! -x "$BENCH" ] || ! "$BENCH" --gpu-name "x" > /dev/null 2>&1; then
    log "carried seer-bench does not start; building (sm_90 only)"
    inc=$(find /usr /opt -xdev -name cudnn.h 2>/dev/null | head -1)
    mkdir -p "$W/lk"
    for d in $(find_libs); do for f in "$d"/lib*.so.[0-9]*; do
        b=$(basename "$f"); ln -sf "$f" "$W/lk/${b%%.so.*}.so"; done; done
    make B="$W/b" gpu-tools NVCC_ARCH='-gencode arch=compute_90,code=sm_90' \
        CFLAGS="-isystem ${inc%/cudnn.h}" LDFLAGS="-L$W/lk -Wl,-rpath,$W/lk" > "$W/build.log" 2>&1
    tail -5 "$W/build.log" | tee -a "$OUT/log.txt"
    BENCH=$W/b/seer-bench
fi
{ echo "== seer-bench libraries"; ldd "$BENCH" | grep -E "cudnn|cupti|cublas|cudart|not found"; } >> "$OUT/env.txt" 2>&1

GPUID=$("$BENCH" --gpu-name "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" 2>/dev/null | tail -1)
log "gpu id: ${GPUID:-unknown}"
BS=${SEER_BENCH_SECONDS:-300} GS=${SEER_GEMM_SECONDS:-50}
s=$(budget $((BS + 20)) $((GS + 20 + ${SEER_TORCH:-1} * 160)))
log "seer-bench: --minutes $BS/60, hard limit $s s"
timeout -k 15 -s INT "$s" "$BENCH" --out "$W/bench" --minutes "$(awk -v s="$BS" 'BEGIN { print s / 60 }')" \
    > "$W/bench.log" 2>&1
log "seer-bench exit $?: $(grep -E '^(status|elapsed_s|entries_run|entries_not_reached|layer_rows|failed_rows|unattributed_kernels|hold_expired)=' "$W/bench/manifest.txt" 2>/dev/null | tr '\n' ' ')"
tr '\r' '\n' < "$W/bench.log" | grep -v '^\s*$' | tail -20 >> "$OUT/log.txt"
cp "$W/bench.log" "$W/bench/" 2>/dev/null
tar czf "$OUT/bench.tgz" -C "$W" bench 2>> "$OUT/log.txt"
log "bench.tgz $(du -h "$OUT/bench.tgz" | cut -f1)"

# ---- GEMMs ---------------------------------------------------------------------
m=$(sed -n 's/^gpu=//p' "$W/bench/manifest.txt" 2>/dev/null); [ -n "$m" ] && GPUID=$m
export PYTHONUNBUFFERED=1
s=$(budget "$GS" $((${SEER_TORCH:-1} * 150)))
log "torch_gemm: $s s"
timeout -k 10 $((s + 15)) python3 bench/torch_gemm.py --out "$OUT/gemm.csv" --seconds "$s" \
    --gpu-id "${GPUID:-}" > "$W/gemm.log" 2>&1
log "torch_gemm exit $?: $(tail -1 "$W/gemm.log") ($(grep -c '^skip' "$W/gemm.log") skipped)"

# ---- ResNet-50 iterations (SEER_TORCH=0: none) ---------------------------------
[ "${SEER_TORCH:-1}" = 0 ] && { log "done (no torch iterations)"; exit 0; }
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
