#!/bin/sh
# Render docs/accuracy.md: score every shipped model on the held-out test
# split of its GPU's measured data.  POSIX sh + awk/sed only.
#
#   sh tools/eval.sh SEER_BIN DATA_DIR > docs/accuracy.md
#
# Run from the repository root (models/ and docs/ are relative to it).
# SVG plots go to docs/plots/GPU.svg (override with SEER_PLOTS=DIR).
set -u
# byte order for globs and the C locale's decimal point, whatever the shell
export LC_ALL=C

if [ $# -ne 2 ]; then
    echo "usage: sh tools/eval.sh SEER_BIN DATA_DIR > docs/accuracy.md" >&2
    exit 2
fi
SEER=$1
DATA=$2
PLOTS=${SEER_PLOTS:-docs/plots}
GPUS="a100-pcie-80gb v100-pcie-32gb t4 v100-sxm2-16gb gtx1080ti"

if [ ! -x "$SEER" ]; then
    echo "eval.sh: $SEER is not an executable (run make first)" >&2
    exit 2
fi
mkdir -p "$PLOTS" || exit 1

# jnum JSON KEY [ANCHOR]: the value of the first "KEY" after "ANCHOR"
# (or from the start), as printed: a number, null or a quoted string.
jnum() {
    printf '%s\n' "$1" | awk -v key="\"$2\"" -v anchor="${3:-}" '
        { s = s $0 " " }
        END {
            if (anchor != "") {
                i = index(s, "\"" anchor "\"")
                if (!i) exit
                s = substr(s, i + length(anchor) + 2)
            }
            i = index(s, key)
            if (!i) exit
            s = substr(s, i + length(key))
            sub(/^[ \t]*:[ \t]*/, "", s)
            match(s, /^[^,}\]]*/)
            v = substr(s, 1, RLENGTH)
            gsub(/"/, "", v)
            print v
        }'
}

# groups JSON: "KEY N MAPE" per line of the JSON's by_algo array.
groups() {
    printf '%s\n' "$1" | sed -n '/"by_algo"/,/"by_class"/p' | grep '"key"' |
        sed 's/.*"key": "\([^"]*\)", "n": \([0-9]*\), "mape": \([^,]*\),.*/\1 \2 \3/'
}

# pct FRACTION: "12.3 %", or "-" for null/empty.
pct() {
    case $1 in
        ''|null) printf '%s' '-' ;;
        *) awk -v v="$1" 'BEGIN { printf "%.1f %%", 100 * v }' ;;
    esac
}

version=$("$SEER" --version 2>/dev/null | sed 's/^seer //')
status=0
summary=""
picks=""
sections=""
nl='
'

for g in $GPUS; do
    model="models/$g.seer"
    csv="$DATA/conv/$g.csv"
    [ -f "$model" ] || continue
    if [ ! -f "$csv" ]; then
        echo "eval.sh: $csv missing; skipping $g" >&2
        continue
    fi
    held="yes"
    if ! "$SEER" info "$model" 2>/dev/null | grep -qi 'held out'; then
        held="**no**"
    fi
    if ! json=$("$SEER" eval --gpu "$g" --models models --data "$csv" --split test --format json \
                --pick --plot "$PLOTS/$g.svg"); then
        echo "eval.sh: seer eval failed for $g" >&2
        status=1
        summary="$summary| $g | eval failed | | | | | | | | | | | |$nl"
        continue
    fi
    text=$("$SEER" eval --gpu "$g" --models models --data "$csv" --split test --format text --given-launch \
           --pick) || status=1

    n=$(jnum "$json" n)
    skipped=$(jnum "$json" skipped)
    failed=$(jnum "$json" failed)
    mape=$(pct "$(jnum "$json" mape)")
    rmspe=$(pct "$(jnum "$json" rmspe)")
    med=$(pct "$(jnum "$json" median_ape)")
    p90=$(pct "$(jnum "$json" p90_ape)")
    bmape=$(pct "$(jnum "$json" mape baseline_roofline)")
    scale=$(jnum "$json" scale baseline_roofline)
    host=$(jnum "$json" typical_ms dispatch)
    case $host in 0|'') host="-" ;; *) host=$(awk -v v="$host" 'BEGIN { printf "%.3f ms", v }') ;; esac
    floor=$(pct "$(jnum "$json" mape floor)")
    rmape=$(pct "$(jnum "$json" mape published_at_row)")
    rrmspe=$(pct "$(jnum "$json" rmspe published_at_row)")
    gmape=$(pct "$(jnum "$json" mape gpu_time)")
    summary="$summary| $g | $n | $host | $mape | $rmspe | $floor | $rmape | $rrmspe | $gmape | $bmape | $skipped | $failed | $held |$nl"
    pn=$(jnum "$json" n pick)
    case $pn in
        ''|0) ;;
        *) picks="$picks| $g | $pn | $(pct "$(jnum "$json" mape own_algo)") | $(pct "$(jnum "$json" mape pick)") | $(awk -v a="$(jnum "$json" agree pick)" -v n="$pn" 'BEGIN { printf "%.1f %%", 100 * a / n }') |$nl" ;;
    esac

    sections="$sections$nl## $g$nl$nl"
    if [ "$held" != "yes" ]; then
        sections="${sections}**Warning:** \`seer info $model\` does not say the test split was held out: these test rows may have been seen in training.$nl$nl"
    fi
    sections="${sections}\`seer eval --gpu $g --data conv/$g.csv --split test\`; roofline scale s = $scale.$nl$nl"
    sections="$sections\`\`\`$nl$text$nl\`\`\`$nl$nl![$g: predicted vs measured, test split](plots/$g.svg)$nl"
done

# Leave one GPU out: what libseer answers for a GPU whose model is not
# there (seer_model_open transfers from the others).
logo=""
logo_fam=""
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# models_but G: every shipped model but G's in $tmp, which then serves G
# by transfer (what libseer answers for a GPU whose model is not there)
models_but() {
    rm -f "$tmp"/*.seer
    for m in models/*.seer; do
        [ "$m" = "models/$1.seer" ] || cp "$m" "$tmp/"
    done
}
for g in $GPUS; do
    csv="$DATA/conv/$g.csv"
    [ -f "models/$g.seer" ] && [ -f "$csv" ] || continue
    models_but "$g"
    if ! json=$("$SEER" eval --gpu "$g" --models "$tmp" --data "$csv" --split test --format json); then
        logo="$logo| $g | eval failed | | | | | | |$nl"
        status=1
        continue
    fi
    own=$("$SEER" eval --gpu "$g" --models models --data "$csv" --split test --format json)
    dm=$(pct "$(jnum "$json" mape gpu_time)")
    logo="$logo| $g | $(jnum "$json" source_gpus) | $(jnum "$json" n) | $(pct "$(jnum "$json" mape)") | $(pct "$(jnum "$json" rmspe)") | $dm | $(pct "$(jnum "$json" mape baseline_roofline)") | $(pct "$(jnum "$own" mape)") |$nl"
    owng=$(groups "$own")
    fams=$(groups "$json" | while read -r key n mape; do
        cal=$(printf '%s\n' "$owng" | awk -v k="$key" '$1 == k { print $3 }')
        printf '| %s | %s | %s | %s | %s |\n' "$g" "$key" "$n" "$(pct "$mape")" "$(pct "$cal")"
    done)
    logo_fam="$logo_fam$fams$nl"
done

# GEMM: every GEMM file, scored by what libseer answers for its GPU with
# the model its rows trained (calibrated) and with that model left out
# (transferred).  The A100 80GB model is trained from the A100 40GB rows
# (Makefile, models).
gemm=""
for f in "$DATA"/gemm/*.csv; do
    [ -f "$f" ] || continue
    g=$(basename "$f" .csv)
    trained_by=$g
    [ "$g" = a100-pcie-40gb ] && trained_by=a100-pcie-80gb
    [ -f "models/$trained_by.seer" ] || continue
    rm -f "$tmp"/*.seer
    cp "models/$trained_by.seer" "$tmp/"
    cal=$("$SEER" eval --gpu "$g" --models "$tmp" --data "$f" --split test --format json) || status=1
    served=$("$SEER" eval --gpu "$g" --models models --data "$f" --split test --format json) || status=1
    models_but "$trained_by"
    if ! json=$("$SEER" eval --gpu "$g" --models "$tmp" --data "$f" --split test --format json); then
        gemm="$gemm| $g | eval failed | | | | | | | |$nl"
        status=1
        continue
    fi
    gemm="$gemm| $g | $(jnum "$cal" n) | $(pct "$(jnum "$cal" mape)") | $(pct "$(jnum "$cal" rmspe)") | $(pct "$(jnum "$served" mape)") | $(jnum "$json" fp32 gemm_source_gpu) | $(pct "$(jnum "$json" mape)") | $(pct "$(jnum "$json" rmspe)") | $(pct "$(jnum "$json" mape baseline_roofline)") |$nl"
done

cat <<EOF
# Accuracy of the shipped models

Generated by \`make eval\` (\`tools/eval.sh\`) with seer $version; do not edit
by hand.

## How this is measured

Every conv shape is assigned to a split by \`seer_conv_in_test_split\`: an
FNV-1a hash of the shape fields (n, c, h, w, k, r, s, padding, stride,
dilation, groups, dtype, layout; never the time) puts 20 % of the shapes in
the **test** split.  \`make models\` trains each model with \`--holdout\`,
which leaves the test split out of training, so the numbers below are on
shapes the model has never seen.  The "held out" column checks this from the
model's provenance (\`seer info\`).  Each GPU is scored as \`seer --gpu\`
serves it (\`seer_model_open\`): its model tied to the models of the GPUs
it is at least as fast as (docs/method.md, "Physical sanity by
construction"), which can lift a prediction above what its model file alone
(\`--model FILE\`) gives.

Each test row is predicted from its shape, dtype, layout, direction and
algorithm alone (rows with an empty algorithm take the fastest predicted
one, and so do DeepBench's forward fp32 rows, whose times are
of cudnnFind's fastest algorithm and whose labels are hints,
docs/formats.md); the measured time is read only to score.  \`ape = |pred - meas| /
meas\`; MAPE is its mean, RMSPE the root mean square, p90 the 90th
percentile (nearest rank).  **n** counts scored rows, **skipped** rows with
an unknown (MIXED) algorithm, **failed** rows that cannot be predicted
(a direction, algorithm or dtype the model has no calibration for, or an
algorithm name libseer does not know).

**GPU time and host dispatch.**  libseer predicts GPU time.  NeuSight's
times are host dispatch plus GPU time (CUDA events around one call on an
idle GPU); the host part, 0.02-0.47 ms and growing along each file, is
estimated from the file's rows outside the test split alone, without any
model, for each kind of call apart (conv direction, GEMM op: NeuSight's
nn.Linear calls take about 0.02 ms more than its bmm calls;
\`libseer/dispatch.c\`, docs/method.md "GPU time").  The columns:
**host** the file's typical (median) host time; **MAPE/RMSPE** the
prediction plus that typical host time against the times as published
(what a user without a row's place in the file can do; the regression
gate of 13 % MAPE); **floor** what the exact GPU times plus the typical
host time would score there, the best any prediction from the shape can
do; **at row** the prediction plus the host time at the row's place (the
bar: 10 % MAPE, 15 % RMSPE); **GPU time** the prediction against the
published time less that host time.  DeepBench times (a loop of
back-to-back calls) carry no host time to take off: there host is "-"
and the columns coincide.

The per-GPU sections also show, as a diagnostic, the model with the
measured main kernel choosing the variant (\`--given-launch\`: "seer,
given launch") beside the normal prediction on the same rows ("seer, same
rows"): the gap is what predicting the fastest variant costs.

The baseline is the datasheet roofline, max(FLOPs / peak, bytes /
bandwidth), times one constant per GPU, s = exp(median(log(measured /
roofline))) fitted on the same rows: what a single-number correction of the
roofline achieves.

## Data

Measurements published by others, converted to conv timing CSV v1
(\`../shared/data/README.md\`):

- **NeuSight** (sitar-lab/NeuSight, ASPLOS 2025 artifact, MIT license):
  A100 80GB PCIe, V100 PCIe 32GB and T4; fp32 NCHW 3x3 convolutions, cuDNN
  8.9.2 choosing the algorithm.
- **DeepBench** (baidu-research/DeepBench, Apache-2.0 license): convolution
  layers of real networks on V100 SXM2 (cuDNN 7.6.2, fp32 and fp16) and
  GTX 1080 Ti (cuDNN 6.0), forward, backward-data and backward-filter.

Models trained on these data ship under the same credits.

## Summary (test split)

| GPU | n | host | MAPE | RMSPE | floor MAPE | MAPE at row | RMSPE at row | GPU time MAPE | roofline x s MAPE | skipped | failed | held out |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |
EOF
printf '%s' "$summary"
if [ -z "$summary" ]; then
    printf '\nNo shipped model found (models/GPU.seer for %s): run `make models`.\n' "$GPUS"
fi
printf '%s' "$sections"
cat <<EOF

## Leave one GPU out (transfer to an uncalibrated GPU)

For each GPU with data, its own model is removed and libseer answers as
for any GPU without a calibrated model (\`seer_model_open\`,
docs/transfer.md): per family, the geometric mean of the families of the
source GPUs of the nearest compute capability among those that measured
it on 32 or more rows (or share the target's), each evaluated with the
target's datasheet facts and read a second way, its time on its own GPU
at that GPU's share of the math peak (weight 0.25, 0.5 for tensor-core
families: docs/method.md,
"Transferred families, read two ways").  Same test split and metrics as above.  The
issue's goal is MAPE <= 12 %; gradient-boosted trees on shape and datasheet
features trained on three GPUs score 18-22 % on a fourth.

| left out | served from | n | MAPE | RMSPE | GPU time MAPE | roofline x s MAPE | its calibrated model's MAPE |
| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |
EOF
printf '%s' "$logo"
cat <<EOF

Per direction and algorithm family (\`by_algo\` of the same runs), next
to the GPU's calibrated model on the same rows:

| left out | family | n | MAPE, transferred | MAPE, calibrated |
| --- | --- | ---: | ---: | ---: |
EOF
printf '%s' "$logo_fam" | grep -v '^$'
cat <<EOF

## GEMM (fully connected layers, batched matmuls)

Every GEMM timing file, test split (\`seer_gemm_shape_in_test_split\`, held out
of training by \`make models\`): **calibrated** is the model its rows
trained (the A100 80GB PCIe model for the A100 40GB rows, docs/networks.md),
alone; **served** what \`seer --gpu\` answers with every shipped model:
that fit tied to the other GPUs' so that a GPU at least as fast is never
slower (docs/method.md, "No GEMM beats the datasheet" and the GEMM tie);
**transferred** what \`seer_model_open\` answers with that model left
out: per kind (single products, batched ones: docs/networks.md, "The
GEMM model"), the fit of one source, from 1000 or more rows, the
target's generation, the nearest architecture, then the most rows, and
beside it, for a GPU between two calibrated architectures, the best one
on the other side, their geometric mean (docs/transfer.md), tied
likewise; the column names the first single-product fit's source (the
A100 40GB and the T4 take a second: the H200's and the A100's).  The roofline baseline is
max(FLOPs / peak, A + B + C bytes / bandwidth) times one fitted constant.

| GPU | n | calibrated MAPE | calibrated RMSPE | served MAPE | transferred: fp32 single-product fit from | transferred MAPE | transferred RMSPE | roofline x s MAPE |
| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |
EOF
printf '%s' "$gemm"
# seer-bench's cuBLAS 8192^3 tensor-core rates (gpu-ceilings.csv) on GPUs
# without a model of their own: the only tensor-core GEMMs timed on a
# GPU that a transferred fit serves.
hopper=""
if [ -f "$DATA/gpu-ceilings.csv" ]; then
    hopper=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { print $col["gpu"], "fp16", $col["fp16_tflops"]; print $col["gpu"], "bf16", $col["bf16_tflops"];
          print $col["gpu"], "tf32", $col["tf32_tflops"] }' "$DATA/gpu-ceilings.csv" |
        while read -r g d meas; do
            json=$("$SEER" gemm --gpu "$g" --m 8192 --n 8192 --k 8192 --dtype "$d" --format json) || continue
            awk -v g="$g" -v d="$d" -v meas="$meas" -v t="$(jnum "$json" time_ms)" -v sv="$(jnum "$json" served)" 'BEGIN {
                pred = 2 * 8192 ^ 3 / (t * 1e-3) / 1e12
                gsub(/"/, "", sv)
                printf "| %s | %s | %s | %.0f | %.1f | %.3f | %+.1f %% |\n", g, sv, d, meas, pred, t, 100 * (meas / pred - 1)
            }'
        done)
fi
if [ -n "$hopper" ]; then
    cat <<EOF

Tensor-core GEMMs on Hopper: \`seer gemm --gpu G --m 8192 --n 8192 --k
8192 --dtype D\` against the rate \`seer-bench\` measured with cuBLAS for
the same product (\`../shared/data/gpu-ceilings.csv\`, FP16/BF16 in and
out with FP32 accumulation, TF32 as \`CUBLAS_COMPUTE_32F_FAST_TF32\`).
Their shipped models fit FP32 GEMMs only: the fit is the V100 SXM2's FP16 one,
transferred, whose weight on the peak-share reading (0.85, docs/networks.md,
"The GEMM model") these six figures chose, so they are in-sample: a
regression check, not a validation.  The file's FP32 column is an FMA
microbenchmark's rate, not a GEMM's, and is not compared.  Error is
predicted time over measured time, minus 1.

| GPU | served | dtype | measured TFLOP/s | predicted TFLOP/s | predicted ms | error |
| --- | --- | --- | ---: | ---: | ---: | ---: |
EOF
    printf '%s\n' "$hopper"
fi
# This project's own Hopper sweeps (data/GPU/): convs as libseer serves
# them (the shipped Hopper models are GEMM-only: their convs transfer),
# every framework-math call and the fastest algorithm per conv; FP32
# GEMMs, test split, served (the GPU's own fit) and with the GPU's model
# left out (transferred).
hop_conv=""
hop_gemm=""
# The rows of a sweep's CSV that name a network layer (seer-bench's
# "layer" column; fields may be quoted): the CNN layers, apart from the
# random shapes.
cnn_rows() {
    awk 'function split_csv(line, out,    n, i, c, q, f) {
        n = 0; f = ""; q = 0
        for (i = 1; i <= length(line); i++) {
            c = substr(line, i, 1)
            if (q) { if (c == "\"") { if (substr(line, i + 1, 1) == "\"") { f = f c; i++ } else q = 0 } else f = f c }
            else if (c == "\"") q = 1
            else if (c == ",") { out[++n] = f; f = "" }
            else f = f c
        }
        out[++n] = f
        return n
    }
    NR == 1 { n = split_csv($0, h); for (i = 1; i <= n; i++) if (h[i] == "layer") col = i; print; next }
    { split_csv($0, v); if (col && v[col] != "") print }' "$1"
}
# unseen-arch: the models of the GPUs ../shared/data calibrates alone (no
# model of a GPU this project swept), as a GPU of a new architecture is
# served
mkdir -p "$tmp/arch"
for m in models/*.seer; do
    [ -d "data/$(basename "$m" .seer)/bench" ] || cp "$m" "$tmp/arch/"
done
# The GPU (g) and the label (v: " (cuDNN V)", " (seed N, not trained
# on)" or "") of a sweep directory: data/G/bench, data/G/bench-cudnnV,
# data/G/seedN or data/G/seedN/bench
sweep_of() {
    g=${1#data/}; g=${g%%/*}
    case $1 in
        */seed*) v=${1%/bench}; v=" (seed ${v##*/seed}, not trained on)" ;;
        */bench-cudnn*) v=" (cuDNN ${1##*/bench-cudnn})" ;;
        *) v="" ;;
    esac
}
# One row of the FP32 GEMM table: GPU g's rows of file f (split S), as
# served, transferred (g's own model left out) and unseen-arch
gemm_row() {
    [ -f "$3" ] && [ -f "models/$1.seer" ] || return 0
    awk -F, 'NR == 1 || $3 == "fp32"' "$3" > "$tmp/gemm-fp32.csv"
    served=$("$SEER" eval --gpu "$1" --data "$tmp/gemm-fp32.csv" --split "$4" --format json) || status=1
    models_but "$1"
    json=$("$SEER" eval --gpu "$1" --models "$tmp" --data "$tmp/gemm-fp32.csv" --split "$4" --format json) || status=1
    arch=$("$SEER" eval --gpu "$1" --models "$tmp/arch" --data "$tmp/gemm-fp32.csv" --split "$4" --format json) || status=1
    hop_gemm="$hop_gemm| $2 | $(jnum "$served" n) | $(pct "$(jnum "$served" mape)") | $(pct "$(jnum "$served" rmspe)") | $(jnum "$json" fp32 gemm_source_gpu) | $(pct "$(jnum "$json" mape)") | $(pct "$(jnum "$json" rmspe)") | $(jnum "$arch" fp32 gemm_source_gpu) | $(pct "$(jnum "$arch" mape)") | $(pct "$(jnum "$served" mape baseline_roofline)") |$nl"
}
for d in data/*/bench/layers.csv; do
    [ -f "$d" ] || continue
    g=$(basename "$(dirname "$(dirname "$d")")")
    models_but "$g"
    cnn_rows "$d" > "$tmp/cnn-layers.csv"
    for mode in "all served all" "fastest served all" "fastest served test" "all left-out all" "fastest left-out all" \
                "fastest unseen-arch all" "cnn-fastest served all" "cnn-fastest served test" "cnn-fastest left-out all" \
                "cnn-fastest unseen-arch all"; do
        set -- $mode
        flag="--split $3"
        [ "$1" != all ] && flag="$flag --fastest"
        dir=models
        [ "$2" = left-out ] && dir=$tmp
        [ "$2" = unseen-arch ] && dir=$tmp/arch
        data=$d
        [ "$1" = cnn-fastest ] && data=$tmp/cnn-layers.csv
        json=$("$SEER" eval --gpu "$g" --models "$dir" --data "$data" $flag --format json) || { status=1; continue; }
        hop_conv="$hop_conv| $g | $1 | $2 | $3 | $(jnum "$json" n) | $(jnum "$json" other_math) | $(pct "$(jnum "$json" mape)") | $(pct "$(jnum "$json" rmspe)") | $(pct "$(jnum "$json" median_ape)") | $(pct "$(jnum "$json" p90_ape)") | $(pct "$(jnum "$json" mape baseline_roofline)") |$nl"
    done
    gemm_row "$g" "$g" "data/$g/gemm.csv" test
done
# the GEMMs of a later lease's seeds (data/G/seedN/gemm.csv: other
# shapes, held out of training), every row
for f in data/*/seed*/gemm.csv; do
    [ -f "$f" ] || continue
    sweep_of "${f%/gemm.csv}"
    gemm_row "$g" "$g$v" "$f" all
done
# a later sweep of the same GPU with another cuDNN (data/G/bench-cudnnV),
# or of the plan of another seed (data/G/seedN/bench: other shapes, held
# out of training): rows no served model saw, its scales fitted on the
# first sweep
for d in data/*/bench-cudnn*/layers.csv data/*/seed*/bench/layers.csv; do
    [ -f "$d" ] || continue
    sweep_of "${d%/layers.csv}"
    cnn_rows "$d" > "$tmp/cnn-layers.csv"
    for mode in "all served all" "fastest served all" "cnn-fastest served all"; do
        set -- $mode
        flag="--split $3"
        [ "$1" != all ] && flag="$flag --fastest"
        data=$d
        [ "$1" = cnn-fastest ] && data=$tmp/cnn-layers.csv
        json=$("$SEER" eval --gpu "$g" --models models --data "$data" $flag --format json) || { status=1; continue; }
        hop_conv="$hop_conv| $g$v | $1 | $2 | $3 | $(jnum "$json" n) | $(jnum "$json" other_math) | $(pct "$(jnum "$json" mape)") | $(pct "$(jnum "$json" rmspe)") | $(pct "$(jnum "$json" median_ape)") | $(pct "$(jnum "$json" p90_ape)") | $(pct "$(jnum "$json" mape baseline_roofline)") |$nl"
    done
done
if [ -n "$hop_conv" ]; then
    cat <<EOF

## Measured on Hopper (this project's sweeps, data/)

One H200 and one H100 SXM5 lent on 2026-11-27 (driver 580.159.04, CUDA
13.0, cuDNN 9.14.0, cuBLAS 13.1.0: data/GPU/README.md), each timed with
\`seer-bench\`'s default plan (every CNN layer, then random shapes, as the
budget allowed) and \`bench/torch_gemm.py\` (GPU time of CUDA-graph
replays).  Times are GPU time (\`seer-bench\` holds the stream while the
host enqueues), so no dispatch is added.  The shipped Hopper models are
GEMM-only (FP32 fits from these files, test split held out): their convs
are transferred from the calibrated NeuSight/DeepBench models, because
conv families fitted on these sweeps scored worse on the fastest
algorithm per conv of their CNN layers (docs/method.md, "Measured on
Hopper"), and each kernel family is scaled to the sweep's train split
(\`seer train --conv-scales\`: one number per family, docs/transfer.md,
"Scaled to a GPU's own measurements").

Convs, \`seer eval --gpu G [--models DIR] --data data/G/bench/layers.csv
--split S [--fastest]\`: **all** scores every call that ran the
framework's math type (\`other_math\` twins left out: docs/formats.md),
**fastest** one row per conv, its fastest measured algorithm against
the fastest predicted (what \`seer net\` takes), **cnn-fastest** the
same on the convs of real networks' layers alone (the rows whose
\`layer\` column names one: ResNet, VGG, DenseNet, Inception,
MobileNetV2 ...; the rest are random shapes).  **served** is the
shipped model (split **test**: the shapes its scales never saw);
**left-out** the models directory without the GPU's own file, so the
GPU is served by transfer with the other Hopper GPU's scales: a GPU
whose own rows were never seen; **unseen-arch** the models of the GPUs
\`../shared/data\` calibrates alone, no Hopper model at all: Hopper as
a new architecture, as the convs of every GPU without a sweep (an L4,
an RTX 4090) are served.  **G (cuDNN V)** is a second sweep of the
GPU with another cuDNN (data/G/bench-cudnnV: the H200 again, with
PyTorch's cuDNN 9.19 against the system's 9.14), which no served model
saw: their scales come from the first sweep.  **G (seed N, not trained
on)** is a sweep of the plan of another seed (data/G/seedN: every CNN
layer at another batch size and dtype, new random shapes; no entry of
one seed's plan is in another's), measured on a later lease and never
trained on; two picker rules were drawn from what they showed, so
their picker figures below are not held-out scores (docs/picker.md
gives the ones before the rules).  Every algorithm includes cuDNN's slow
fallbacks (FP16 \`dgrad2d_grouped_direct\` kernels of over 100 ms),
which the models, fitted to the kernels frameworks pick, time poorly.

| GPU | rows | model | split | n | other_math | MAPE | RMSPE | median | p90 | roofline x s MAPE |
| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
EOF
    printf '%s' "$hop_conv"
    cat <<EOF

FP32 GEMMs (\`torch_gemm.py\`'s linear and bmm, random sizes), test split
(**G (seed N, not trained on)**: every row of a later lease's GEMMs of another
seed, data/G/seedN/gemm.csv, shapes no model trained on):
**served** is the GPU's own GEMM-only model, **transferred** what the
other models give with it left out (the nearest architecture's fit: the
H100's for the H200 and the H200's for the H100), **unseen-arch** what
the models of the GPUs \`../shared/data\` calibrates give with no Hopper
model (as above: the A100's fit, one of the two an Ada GPU is served,
docs/transfer.md); its error is the small
products' (scratch: over 0.3 ms of work at the FP32 peak, 11.9 % on the
H100 and 11.2 % on the H200; the rest, microseconds each, 67-71 %, which
the A100's fit knows only through NeuSight's host-laden times, the rows
whose GPU time cannot be told from the host estimate left out of
training, docs/method.md, "GPU time").  The FP16/BF16 rows
are not fitted: their random sizes ran cuBLAS's unaligned kernels
(median 87 TFLOP/s over 0.3 ms on the H100, against 740 for aligned
8192^3), so tensor-core GEMMs are still timed by the transferred V100
SXM2 fit.

| GPU | n | served MAPE | served RMSPE | transferred from | transferred MAPE | transferred RMSPE | unseen-arch from | unseen-arch MAPE | roofline x s MAPE |
| --- | ---: | ---: | ---: | --- | ---: | ---: | --- | ---: | ---: |
EOF
    printf '%s' "$hop_gemm"
fi

# The picker against cuDNN's v7 heuristic on those sweeps (seer
# eval-picker): one line per GPU, picker and direction.
hop_pick=""
for d in data/*/bench/picks.csv data/*/bench-cudnn*/picks.csv data/*/seed*/bench/picks.csv; do
    [ -f "$d" ] || continue
    dir=${d%/picks.csv}
    sweep_of "$dir"
    json=$("$SEER" eval-picker --gpu "$g" --data "$dir/layers.csv" --picks "$d" --format json) || { status=1; continue; }
    hop_pick="$hop_pick$(printf '%s\n' "$json" | grep '"picker"' |
        sed 's/.*"picker": "\([^"]*\)", "direction": "\([^"]*\)", "shapes": \([0-9]*\), "wrong": \([0-9]*\), "wrong_rate": \([^,]*\), "regret": \([^}]*\)}.*/\1 \2 \3 \4 \5 \6/' |
        awk -v g="$g$v" '{ printf "| %s | %s | %s | %d | %d | %.1f %% | %.2f |\n", g, $2, $1, $3, $4, 100 * $5, $6 }')$nl"
done
if [ -n "$hop_pick" ]; then
    cat <<EOF

The picker against cuDNN on the same sweeps, \`seer eval-picker --gpu G
--data data/G/bench/layers.csv --picks data/G/bench/picks.csv\`
(docs/picker.md; the later sweeps' files likewise): a pick is wrong
when its measured time is over 1.10x the fastest measured algorithm's;
regret is the picked times' sum over the fastest's.  \`make test\`
gates these sweeps' fastest-algorithm MAPE and wrong picks at 2 points
over the figures here (\`accuracy_gate_hopper_sweeps\`).

| GPU | direction | picker | shapes | wrong | wrong rate | regret |
| --- | --- | --- | ---: | ---: | ---: | ---: |
EOF
    printf '%s' "$hop_pick"
fi

# seer net's options for a torch_iteration.py precision: amp is autocast
# to fp16 (amp-bf16: to bf16), the others a dtype
prec_opts() {
    case $1 in
        amp) echo "--amp --dtype fp16" ;;
        amp-bf16) echo "--amp --dtype bf16" ;;
        *) echo "--dtype $1" ;;
    esac
}
# ResNet-50 iterations timed with PyTorch on those GPUs
# (bench/torch_iteration.py) beside seer net: event time (what the loop
# saw) and the profiler's kernel sum, whose capture missed kernels in
# some runs (data/GPU/README.md).
iters=""
for f in data/*/torch/*/iterations.csv; do
    [ -f "$f" ] || continue
    g=$(basename "$(dirname "$(dirname "$(dirname "$f")")")")
    rows=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { print $c["precision"], $c["layout"], $c["batch"], $c["mode"], $c["event_ms"], $c["kernel_ms"], $c["kernels"] }' "$f")
    iters="$iters$(printf '%s\n' "$rows" | while read -r prec lay b mode ev ks nk; do
        dt=$(prec_opts "$prec")
        json=$("$SEER" net resnet50 --gpu "$g" --batch "$b" --mode "$mode" --layout "$lay" $dt --format json) || continue
        awk -v g="$g" -v c="$prec $lay" -v b="$b" -v m="$mode" -v ev="$ev" -v ks="$ks" -v nk="$nk" \
            -v p="$(jnum "$json" gpu_ms)" 'BEGIN {
            printf "| %s | %s | %s | %s | %.2f | %.2f (%d) | %.2f | %+.1f %% | %+.1f %% |\n", g, m, c, b, ev, ks, nk, p,
                100 * (p / ev - 1), 100 * (p / ks - 1) }'
    done)$nl"
done
# The convs of the AMP iteration at batch 256, measured (the profiler's
# conv kernels: cuDNN's xmma and first-layer kernels, the nvjet GEMMs it
# runs 1x1 convs with, their padding, workspace and split-K helpers)
# against seer net's conv rows.
convs=""
for f in data/*/torch/train/kernels-amp-nhwc-b256-train.csv; do
    [ -f "$f" ] || continue
    g=$(basename "$(dirname "$(dirname "$(dirname "$f")")")")
    meas=$(awk -F, 'NR > 1 && /xmma|nvjet|cutlass|AddPadding|init_device_workspace|splitKreduce|first_layer/ { s += $NF }
                    END { printf "%.1f", s / 1000 }' "$f")
    json=$("$SEER" net resnet50 --gpu "$g" --batch 256 --mode train --layout nhwc --amp --dtype fp16 --format json) || continue
    convs="$convs  On the $g the AMP iteration at batch 256 ran $meas ms of conv kernels against $(printf '%.1f' "$(jnum "$json" conv_ms)") predicted."
done
if [ -n "$iters" ]; then
    cat <<EOF

ResNet-50 (torchvision) iterations, \`bench/torch_iteration.py\` on the
same GPUs (PyTorch 2.11, its cuDNN 9.19, \`cudnn.benchmark\` on,
synthetic data on the GPU), beside \`seer net resnet50 --gpu G --batch B
--mode M --layout L --dtype D\` (\`--amp --dtype fp16\` for amp), GPU
time, no dispatch term.  **event** is the loop's time per iteration:
GPU time plus any wait for the host (batch 1 and 32 are host-bound:
the kernels fill a fraction of it).  **kernels** is the profiler's sum
over one iteration with the kernel count; it missed the backward
kernels of the NCHW runs (about 300 kernels against 660; the script now
selects kernels by their launch: rerun in the table below, 765 kernels
for tf32 NCHW at batch 128), so for those the event time bounds the GPU
time from above.

| GPU | mode | config | batch | event ms | kernels ms (n) | seer ms | seer vs event | seer vs kernels |
| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |
EOF
    printf '%s' "$iters"
fi

# Whole networks timed the same way on a later lease, every kernel of an
# iteration counted (bench/device-networks.sh, data/GPU/networks): the
# torchvision networks against seer's built-in ones, ResNet-50-GN and
# the U-Net against their descriptions (bench/networks).
nets=""
for f in data/*/networks/*/iterations.csv; do
    [ -f "$f" ] || continue
    g=$(basename "$(dirname "$(dirname "$(dirname "$f")")")")
    # (a configuration that failed there has an error and no kernel sum)
    rows=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["kernel_ms"] + 0 > 0 && !(c["error"] && $c["error"] != "") {
            print $c["model"], $c["precision"], $c["layout"], $c["batch"], $c["mode"], $c["res"], $c["event_ms"],
                  $c["kernel_ms"], $c["kernels"] }' "$f")
    nets="$nets$(printf '%s\n' "$rows" | while read -r model prec lay b mode res ev ks nk; do
        [ -n "$nk" ] || continue
        dt=$(prec_opts "$prec")
        # a description sets its own input size (bench/networks: 224, as
        # those runs); a built-in network takes the run's
        net=$model resopt="--res $res"
        [ -f "bench/networks/$model.net" ] && net="bench/networks/$model.net" resopt=""
        json=$("$SEER" net "$net" --gpu "$g" --batch "$b" --mode "$mode" --layout "$lay" $resopt $dt \
            --format json) || {
            printf '| %s | %s | %s | %s %s | %s | failed | | | |\n' "$g" "$model" "$mode" "$prec" "$lay" "$b"; continue; }
        awk -v g="$g" -v n="$model" -v c="$prec $lay" -v b="$b" -v m="$mode" -v ev="$ev" -v ks="$ks" -v nk="$nk" \
            -v p="$(jnum "$json" gpu_ms)" 'BEGIN {
            printf "| %s | %s | %s | %s | %s | %.2f | %.2f (%d) | %.2f | %+.1f %% |\n", g, n, m, c, b, ev, ks, nk, p,
                100 * (p / ks - 1) }'
    done)$nl"
done
if [ -n "$nets" ]; then
    # over every row, and over those whose kernels fill most of the
    # loop's time (kernel sum at least 80 % of the event time): below
    # that the host's dispatch sets the pace and the GPU idles
    # (a failed row counts as failed, not in the mean)
    nets_summary=$(printf '%s' "$nets" | awk -F'|' '$7 ~ /failed/ { bad++ } $8 ~ /[0-9]/ {
        ev = $7 + 0; ks = $8 + 0; p = $9 + 0; e = p / ks - 1; if (e < 0) e = -e
        n++; s += e; if (ks >= 0.8 * ev) { nb++; sb += e } }
        END { printf "%d rows, MAPE %.1f %%; the %d whose kernels fill at least 80 %% of the loop, %.1f %%; %d failed",
              n, n ? 100 * s / n : 0, nb, nb ? 100 * sb / nb : 0, bad }')
    printf '%s' "$nets" | grep -q '| failed |' && status=1
    cat <<EOF

Whole networks, \`bench/torch_iteration.py --model M\` on a later lease
(\`bench/device-networks.sh\`; every kernel an iteration launches
counted, data/GPU/networks; same software), beside \`seer net\` with
the same options: torchvision's networks against seer's built-in ones
of the same names, ResNet-50 with GroupNorm(32) and the U-Net (2×2
transposed-conv upsampling) against their descriptions in
bench/networks (from their ONNX exports).  GPU time, no dispatch term;
the error is against the kernel sum.  Nothing here was fitted to these
totals, but three costs were read from these runs' per-kernel tables
(so their rows are not held out): the NCHW batch-norm latency, layer
norm's row latency and the rate of group norm's channels-last copies
(docs/networks.md, "Batch norm in NCHW training", "Layer norm over short
rows", "Group norm on channels-last tensors").  $nets_summary.

| GPU | network | mode | config | batch | event ms | kernels ms (n) | seer ms | seer vs kernels |
| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: |
EOF
    printf '%s' "$nets"
fi

# Whole training iterations against NVIDIA's published ResNet-50 v1.5
# single-GPU throughput at batch 256 (DeepLearningExamples, PyTorch
# ConvNets README): nothing here is fitted to them.
resnet=""
# Each run as DeepLearningExamples' configs.yml sets it: AMP channels-last
# (--amp), TF32 and FP32 in PyTorch's default NCHW; DGX-1 V100 FP32 at
# batch 112 (256 does not fit its 16 GB).
for spec in "a100-sxm4-80gb tf32 938 TF32 256 nchw" "a100-sxm4-80gb fp16 2470 AMP 256 nhwc --amp" \
            "v100-sxm2-16gb fp32 367 FP32 112 nchw" "v100-sxm2-16gb fp16 1200 AMP 256 nhwc --amp"; do
    set -- $spec
    json=$("$SEER" net resnet50 --gpu "$1" --batch "$5" --mode train --dtype "$2" --layout "$6" ${7:-} --format json) || { status=1; continue; }
    ms=$(jnum "$json" total_ms)
    resnet="$resnet$(awk -v g="$1" -v d="$2${7:+ amp}" -v p="$3" -v l="$4" -v b="$5" -v lay="$6" -v ms="$ms" 'BEGIN {
        r = b * 1000 / ms; printf "| %s | %s | %s %s | %s | %.1f | %.0f | %d | %+.0f %% |\n", g, l, d, lay, b, ms, r, p, 100 * (r / p - 1) }')$nl"
done
cat <<EOF

## Whole iterations against published throughput

ResNet-50 v1.5 training: libseer's predicted GPU time of one iteration
(\`seer net resnet50 --gpu G --batch B --mode train --dtype D --layout L\`,
AMP with \`--amp\`; the default SGD-with-momentum step included) as
images per second, against NVIDIA's published single-GPU throughput
(DeepLearningExamples, PyTorch ConvNets README: DGX A100 80GB, DGX-1
V100 16GB), each run as that project's configs.yml sets it: AMP
channels-last, TF32 and FP32 in PyTorch's default NCHW layout (so on the
A100 every tensor-core convolution carries cuDNN's NCHW/NHWC transposes,
docs/method.md, "Layouts"), batch 256 but 112 for the V100's FP32 (256
does not fit 16 GB; \`seer net\` agrees: 24.5 GB).  Nothing is fitted to
these figures.  The published runs include what a GPU-time prediction leaves
out: host dispatch (eager PyTorch issues about 500 kernels an iteration)
and DALI's data loading, which can overlap the GPU or stall it; the
serving models are transferred (A100 SXM4) and calibrated on DeepBench
(V100 SXM2).  \`bench/torch_iteration.py\` times the same iterations on a
lent GPU (synthetic data, CUDA events and the profiler's kernel times,
split by kernel kind) beside \`seer net\`; it has run on an H200 only
("Measured on Hopper" above), where no throughput is published.$convs
PyTorch autotunes cuDNN's engines (\`cudnn.benchmark\`); libseer is
calibrated on the legacy algorithms (forward and backward filter ran
about a third faster there, backward data a tenth slower: scratch, by
kernel name).
The published runs' convs are likely faster than predicted alike, and
their max pooling slower than a copy (docs/networks.md, "Non-convolution
layers"): a negative error here is mostly the convs.

| GPU | published | dtype, layout predicted | batch | ms per iteration | img/s | published img/s | error |
| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |
EOF
printf '%s' "$resnet"
cat <<EOF

## Networks and the algorithm picker

- **Whole networks** (\`seer eval-net\`) and **the picker against cuDNN**
  (\`seer eval-picker\`: wrong-pick rate and time regret of libseer and of
  cuDNN's \`_v7\` ranking): \`../shared/data\` has no measured iteration
  times and no sweep that times every algorithm of a shape; this
  project's Hopper sweeps have both ("Measured on Hopper" above: the
  picker tables and the H200's ResNet-50 iterations).  No other GPU has
  such figures.
- **The picker against the algorithm the data recorded** (\`seer eval
  --pick\`, test split): each row that names its algorithm predicted again
  as if its algo column were empty, with the fastest predicted algorithm,
  as \`seer predict --data\` predicts such rows.  NeuSight's rows name the
  algorithm cuDNN 8.9.2 ran (by its heuristic or its autotuner: the data
  does not say); DeepBench's fp16 forward rows always ran
  IMPLICIT_PRECOMP_GEMM, and its other rows are predicted with the fastest
  algorithm already.  MAPE as in the summary (prediction plus the file's
  typical host time, against the published times).

| GPU | rows with an algorithm | MAPE, their algorithm | MAPE, fastest predicted algorithm | the fastest predicted is theirs |
| --- | ---: | ---: | ---: | ---: |
EOF
printf '%s' "$picks"
exit $status
