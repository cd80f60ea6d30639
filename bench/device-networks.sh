#!/bin/bash
# bench/device-networks.sh - whole-network iterations of several CNNs on one
# GPU lease, in one call (at most SEER_DEVICE_SECONDS, 7 minutes by
# default; 4.5 on an H200), results under $OUT:
#   env.txt     GPU, driver, clocks, CUDA, cuDNN, torch versions
#   nets.tgz    torch/MODEL-MODE/ of bench/torch_iteration.py per network
#               (iterations.csv, per-kernel tables, its log), rewritten as
#               each network ends
#   log.txt     what ran, when, and how it ended
# No seer comparison runs there (--seer ''): seer net is deterministic and
# runs here on the same network (docs/accuracy.md, "Whole networks").
# usage (repository root, on the GPU machine): OUT=dir bash bench/device-networks.sh
# SEER_DEVICE_SECONDS (default 420): the whole call's budget; a network
# with less than half its seconds left is not started, one with more
# runs in what is left.
set -u
. "$(dirname "$0")/device-lib.sh"
mkdir -p "$W/torch"
TOTAL=$(num SEER_DEVICE_SECONDS 420)
capture_env
export PYTHONUNBUFFERED=1

# MODEL MODE SECONDS CONFIGS, most wanted first: the ResNet-50 NCHW
# training runs whose kernel selection changed since the last lease, then
# the layers added since (transposed convs, group norm), depthwise, dense
# concatenation, layer norm, plain VGG, batch-1 inference
run() {
    local model=$1 mode=$2 s=$3 configs=$4 d="$W/torch/$1-$2" l
    l=$(left)
    if [ "$l" -lt $((s / 2)) ]; then log "$model $mode: not started ($l s left)"; return; fi
    [ "$s" -gt "$l" ] && s=$l
    log "$model $mode $configs: $s s"
    timeout -k 10 "$s" python3 bench/torch_iteration.py --out "$d" --seer '' --model "$model" \
        --mode "$mode" --configs "$configs" > "$W/torch/$model-$mode.log" 2>&1
    log "$model $mode exit $?: $(grep -c '^{' "$W/torch/$model-$mode.log") rows, $(grep -c '"error"' "$W/torch/$model-$mode.log") errors"
    grep -h '^{' "$W/torch/$model-$mode.log" | cut -c1-300 >> "$OUT/log.txt"
    tar czf "$OUT/nets.tgz" -C "$W" torch
}
run resnet50 train 75 tf32:nchw:128,fp32:nchw:64,amp:nhwc:256
run unet train 50 amp:nhwc:16,tf32:nchw:16
run resnet50_gn train 50 amp:nhwc:64,tf32:nchw:64
run mobilenet_v2 train 50 amp:nhwc:128,tf32:nchw:128
run densenet121 train 40 amp:nhwc:64
run convnext_tiny train 40 amp:nhwc:64
run vgg16 train 35 tf32:nchw:64
run mobilenet_v2 infer 30 amp:nhwc:1,amp:nhwc:128
run unet infer 25 amp:nhwc:16
log "done"
