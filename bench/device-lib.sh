# bench/device-lib.sh - what every one-call GPU lease script shares, sourced
# by bench/device-run.sh and bench/device-networks.sh: $OUT made, the
# scratch directory $W emptied, log (to $OUT/log.txt with the seconds
# since start), num (a whole-seconds setting or its default), left
# (seconds of $TOTAL that remain; the script sets TOTAL) and capture_env
# ($OUT/env.txt: GPU, driver, clocks, CUDA, cuDNN, torch versions).
OUT=${OUT:?set OUT}
mkdir -p "$OUT" || exit 1
T0=$(date +%s)
W=${SEER_DEVICE_WORK:-/tmp/seer-device}
rm -rf "$W"; mkdir -p "$W"
log() { echo "[$(($(date +%s) - T0)) s] $*" | tee -a "$OUT/log.txt"; }
# a setting that is no whole number of seconds takes its default, said in
# the log (1.5 or 'no' once stopped the script under set -u before the sweep)
num() { case "${!1:-}" in '' ) echo "$2" ;; *[!0-9]* ) log "$1='${!1}' is no whole number: $2" >&2; echo "$2" ;;
        * ) echo "${!1}" ;; esac; }
left() { echo $((TOTAL - ($(date +%s) - T0))); }
capture_env() {
    {
        date -u; uname -a; grep PRETTY_NAME /etc/os-release
        timeout 30 nvidia-smi
        timeout 30 nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem,clocks.sm,power.limit,temperature.gpu,persistence_mode,compute_mode --format=csv
        nvcc --version | tail -2
        timeout 60 python3 -c 'import torch,torchvision; print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version(), "torchvision", torchvision.__version__)'
    } > "$OUT/env.txt" 2>&1
    log "env: $(timeout 30 nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
}
