#!/bin/sh
# bench/test-gpu.sh - checks of seer-bench that need a real GPU (make test-gpu).
# Never run in CI.  About three minutes on an H100.
#   1. microbenchmarks within sane fractions of the datasheet numbers
#   2. per call, the GPU busy time from CUPTI (union of the kernel, memset
#      and memcpy records, on every stream) matches the CUDA-event time
#      (>= 95 % of calls within 85-102 %); the kernel-duration sum and the
#      CUPTI span are reported beside it; every kernel is tied to a call
#   3. a run killed with SIGKILL and then --resume'd has the same rows as
#      an uninterrupted one (SKIP when the run ends before the kill)
#   4. --metrics completes (its own process) and fills the counter columns,
#      or says why it cannot
#   5. a one-minute budget on the default plan stops at the deadline with
#      status=budget, CNN entries first
# usage: sh bench/test-gpu.sh [path/to/seer-bench]   (SEER_BIN: libseer CLI
# for the datasheet table, default build/seer; a built-in copy otherwise)
set -u
BENCH=${1:-build/seer-bench}
SEER=${SEER_BIN:-build/seer}
W=$(mktemp -d /tmp/seer-test-gpu.XXXXXX)
FAILS=0
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; FAILS=$((FAILS + 1)); }

[ -x "$BENCH" ] || { echo "test-gpu: $BENCH not built"; exit 1; }

# RFC 4180 field splitting for awk (kernel names hold quoted commas)
CSVAWK='
function csvsplit(line, f,    n, i, c, q, fld) {
    n = 0; fld = ""; q = 0
    for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (q) {
            if (c == "\"") { if (substr(line, i + 1, 1) == "\"") { fld = fld c; i++ } else q = 0 }
            else fld = fld c
        } else if (c == "\"") q = 1
        else if (c == ",") { f[++n] = fld; fld = "" }
        else fld = fld c
    }
    f[++n] = fld
    return n
}
FNR == 1 { delete col; nh = csvsplit($0, h); for (i = 1; i <= nh; i++) col[h[i]] = i; next }
{ csvsplit($0, f) }
function v(name) { return f[col[name]] }
'

# ---- 1. microbenchmarks -----------------------------------------------------
"$BENCH" --micro-only --out "$W/micro" > "$W/micro.log" 2>&1
rc=$?
P="$W/micro/profile.txt"
if [ $rc -ne 0 ] || [ ! -s "$P" ]; then
    if grep -q "no CUDA device" "$W/micro.log"; then cat "$W/micro.log"; rm -rf "$W"; exit 2; fi
    fail "microbenchmarks: exit $rc"; cat "$W/micro.log"
else
    cat "$P"
    key() { sed -n "s/^$1=//p" "$P"; }
    GPU=$(key gpu)
    # datasheet: fp32 fp16 bf16 tf32 (dense TFLOP/s) and DRAM GB/s
    DS=""
    if [ -x "$SEER" ]; then
        DS=$("$SEER" gpus --format csv 2>/dev/null | awk -F, -v g="$GPU" '$1 == g { print $7, $8, $9, $10, $11 }')
    fi
    if [ -z "$DS" ]; then
        DS=$(awk -v g="$GPU" '$1 == g { print $2, $3, $4, $5, $6 }' <<'TABLE'
h100-sxm5-80gb 66.9 989.4 989.4 494.7 3350
h100-pcie-80gb 51.2 756 756 378 2000
h200-sxm-141gb 66.9 989.4 989.4 494.7 4800
a100-sxm4-80gb 19.5 312 312 156 2039
a100-sxm4-40gb 19.5 312 312 156 1555
a100-pcie-80gb 19.5 312 312 156 1935
a100-pcie-40gb 19.5 312 312 156 1555
l4 30.3 121 121 60 300
a10 31.2 125 125 62.5 600
t4 8.1 65 0 0 320
TABLE
)
    fi
    if [ -z "$DS" ]; then
        echo "SKIP microbenchmark ranges: no datasheet numbers for '$GPU'"
    else
        set -- $DS
        # measured/datasheet must lie in [lo, hi]: boost clocks are not always
        # held, and some boards clock above the datasheet
        check() { # name measured datasheet lo hi
            awk -v n="$1" -v m="$2" -v d="$3" -v lo="$4" -v hi="$5" 'BEGIN {
                if (d + 0 == 0) { print "SKIP " n ": no datasheet value"; exit 0 }
                if (m == "") { print "FAIL " n ": not measured"; exit 1 }
                r = m / d; s = sprintf("%s %.4g vs datasheet %.4g (%.0f%%)", n, m, d, 100 * r)
                if (r >= lo && r <= hi) { print "PASS " s; exit 0 }
                print "FAIL " s ", expected " 100 * lo "-" 100 * hi "%"; exit 1 }' || FAILS=$((FAILS + 1))
        }
        check fp32_tflops "$(key fp32_tflops)" "$1" 0.5 1.15
        check fp16_tflops "$(key fp16_tflops)" "$2" 0.4 1.1
        check bf16_tflops "$(key bf16_tflops)" "$3" 0.4 1.1
        check tf32_tflops "$(key tf32_tflops)" "$4" 0.3 1.1
        check dram_read_gbps "$(key dram_read_gbps)" "$5" 0.6 1.02
        check dram_write_gbps "$(key dram_write_gbps)" "$5" 0.5 1.02
        check dram_copy_gbps "$(key dram_copy_gbps)" "$5" 0.6 1.02
    fi
    awk -v l2="$(key l2_gbps)" -v d="$(key dram_read_gbps)" -v lat="$(key launch_us)" 'BEGIN {
        bad = 0
        if (!(l2 > 1.3 * d)) { print "FAIL l2_gbps " l2 " not above DRAM " d; bad = 1 }
        else print "PASS l2_gbps " l2 " > 1.3 x DRAM " d
        if (!(lat > 0.3 && lat < 30)) { print "FAIL launch_us " lat " outside 0.3-30"; bad = 1 }
        else print "PASS launch_us " lat
        exit bad }' || FAILS=$((FAILS + 1))
fi

# ---- plan used below -----------------------------------------------------------
cat > "$W/plan.csv" <<'PLAN'
direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,groups,part,layer
,fp32,nchw,64,64,56,56,64,3,3,1,1,1,1,1,1,1,cnn,resnet50/layer1.0.conv2
,fp16,nhwc,64,256,56,56,64,1,1,0,0,1,1,1,1,1,cnn,resnet50/layer1.1.conv1
,fp32,nchw,32,128,28,28,128,3,3,1,1,1,1,1,1,1,cnn,resnet18/layer2.0.conv2
,bf16,nhwc,64,512,14,14,512,3,3,1,1,2,2,1,1,1,random,
,tf32,nchw,16,96,56,56,96,3,3,1,1,1,1,1,1,96,random,
,fp16,nchw,8,64,112,112,64,5,5,4,4,1,1,2,2,1,random,
,fp32,nhwc,128,32,32,32,64,7,7,3,3,2,2,1,1,1,random,
,fp16,nhwc,256,64,28,28,128,3,3,1,1,1,1,1,1,4,random,
PLAN
RUN="--plan $W/plan.csv --no-micro --minutes 0 --seed 5"

# ---- 2. CUPTI kernel sums against CUDA events -------------------------------------
"$BENCH" $RUN --out "$W/a" > "$W/a.log" 2>&1
rc=$?
if [ $rc -ne 0 ]; then fail "uninterrupted run: exit $rc"; tail -20 "$W/a.log"; fi
awk "$CSVAWK"'
    v("status") == "" && v("time_ms") + 0 >= 0.2 {
        n++; t = v("time_ms") + 0; k = v("kernel_sum_ms"); sp = v("span_ms") + 0
        if (k == "") { miss++; next }
        # busy_ms: union of the records (memsets included, overlapping
        # streams once); outputs of older versions have only the sum
        b = v("busy_ms"); g = b != "" ? b + 0 : k + 0
        # the stream is held while the host enqueues: events bracket the
        # GPU work only; what is left is the gaps between kernels
        if (g <= 1.02 * t + 0.005 && g >= 0.85 * t) ok++
        else if (bad++ < 5) printf "    call %s %s %s %s: events %.4f ms, busy %.4f ms, kernel sum %.4f ms, span %.4f ms\n", v("call_id"), v("direction"), v("algo"), v("math_type"), t, g, k, sp
        if (k <= 1.02 * t + 0.005 && k >= 0.85 * t) sum_ok++
        if (sp <= 1.02 * t + 0.005 && sp >= 0.85 * t) span_ok++
        expired += v("hold_expired") + 0
    }
    END {
        if (n == 0) { print "FAIL kernel times: no successful calls over 0.2 ms"; exit 1 }
        s = sprintf("GPU busy time matches CUDA events (85-102%%) in %d of %d calls (kernel sum in %d, CUPTI span in %d), %d without kernels, %d held reps expired", ok, n, sum_ok, span_ok, miss, expired)
        if (ok >= 0.95 * n && miss == 0) { print "PASS " s; exit 0 }
        print "FAIL " s; exit 1
    }' "$W/a/layers.csv" || FAILS=$((FAILS + 1))
# unattributed_kernels counts only kernels inside the timed repetitions that
# no repetition's window holds; untimed_kernels (records of warm-up or
# cudnnFind handed over late), side_stream_kernels (cuDNN's internal
# streams) and kernel_capped_calls are reported, not failures
grep -E "^(unattributed_kernels|untimed_kernels|side_stream_kernels|kernel_capped_calls|cupti_dropped_records|cupti_bad_timestamps|hold_expired|layer_rows|failed_rows|driver)=" "$W/a/manifest.txt"
grep -q "^unattributed_kernels=0$" "$W/a/manifest.txt" && pass "every kernel tied to a call" ||
    fail "some kernels could not be tied to a call (see manifest)"
# every kernel row belongs to a layer row, call ids unique
awk "$CSVAWK"'FILENAME ~ /layers/ { if (seen[v("call_id")]++) dup++; next }
    !(v("call_id") in seen) { orphan++ }
    END { if (dup || orphan) { print "FAIL call ids: " dup + 0 " duplicate, " orphan + 0 " orphan kernel rows"; exit 1 }
          print "PASS call ids unique, no orphan kernel rows" }' "$W/a/layers.csv" "$W/a/kernels.csv" || FAILS=$((FAILS + 1))

# ---- 3. kill -9, then --resume --------------------------------------------------------
"$BENCH" $RUN --out "$W/b" > "$W/b1.log" 2>&1 &
pid=$!
i=0
while [ $i -lt 600 ]; do
    n=$(cat "$W/b/layers.csv" 2>/dev/null | wc -l)
    [ "$n" -gt 15 ] && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.2; i=$((i + 1))
done
kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
st=$? # 137 (128 + SIGKILL) only when the kill ended it
rows=$(($(wc -l < "$W/b/layers.csv" 2>/dev/null || echo 1) - 1))
if [ $st -ne 137 ]; then
    # the run ended on its own (exit $st) before the kill: resuming a
    # finished run would compare two complete runs and pass untested
    echo "SKIP kill/resume: the run ended (exit $st, $rows layer rows) before it could be killed"
else
    echo "    killed after $rows layer rows"
    "$BENCH" $RUN --out "$W/b" --resume > "$W/b2.log" 2>&1 || { fail "resume: exit $?"; tail -20 "$W/b2.log"; }
    keys() { # the identity of every row, no times
        awk "$CSVAWK"'{ s = ""; for (i = 1; i <= 19; i++) s = s f[i] ","; print s (v("status") == "" ? "ok" : "failed") }' "$1" | sort
    }
    pkeys() { awk "$CSVAWK"'{ s = ""; for (i = 1; i <= 19; i++) s = s f[i] ","; print s v("algo") }' "$1" | sort; }
    keys "$W/a/layers.csv" > "$W/ka"; keys "$W/b/layers.csv" > "$W/kb"
    if cmp -s "$W/ka" "$W/kb"; then pass "resumed run has the same $(wc -l < "$W/ka") layer rows"
    else fail "resumed layer rows differ:"; diff "$W/ka" "$W/kb" | head; fi
    pkeys "$W/a/picks.csv" > "$W/pa"; pkeys "$W/b/picks.csv" > "$W/pb"
    if cmp -s "$W/pa" "$W/pb"; then pass "resumed run has the same $(wc -l < "$W/pa") picks rows"
    else fail "resumed picks rows differ:"; diff "$W/pa" "$W/pb" | head; fi
    awk "$CSVAWK"'FILENAME ~ /layers/ { if (seen[v("call_id")]++) dup++; next }
        !(v("call_id") in seen) { orphan++ }
        END { if (dup || orphan) { print "FAIL resumed call ids: " dup + 0 " duplicate, " orphan + 0 " orphan"; exit 1 }
              print "PASS resumed call ids unique, no orphan kernel rows" }' "$W/b/layers.csv" "$W/b/kernels.csv" || FAILS=$((FAILS + 1))
fi

# ---- 4. metrics ----------------------------------------------------------------------------
printf 'direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,groups\nfwd,fp16,nhwc,64,256,56,56,64,1,1,0,0,1\n' > "$W/m.csv"
"$BENCH" --plan "$W/m.csv" --no-micro --no-find --metrics --out "$W/m" > "$W/m.log" 2>&1 || fail "metrics run: exit $?"
if grep -q "^metrics=failed" "$W/m/manifest.txt"; then
    fail "metrics phase: $(grep "^metrics=" "$W/m/manifest.txt")"; tail -5 "$W/m.log"
elif grep -q "metrics unavailable\|metrics off" "$W/m.log"; then
    echo "SKIP metrics: $(grep -m1 "metrics" "$W/m.log")"
else
    awk "$CSVAWK"'v("dram_read_bytes") != "" { n++ } END {
        if (n) { print "PASS metrics in " n " kernel rows"; exit 0 }
        print "FAIL metrics: no kernel row has counters"; exit 1 }' "$W/m/kernels.csv" || FAILS=$((FAILS + 1))
fi
grep "^metrics=" "$W/m/manifest.txt"

# ---- 5. budget ------------------------------------------------------------------------------
# the default plan under a one-minute budget: it must stop at the deadline
# (not before, not long after), say status=budget, and run CNN entries first
"$BENCH" --no-micro --minutes 1 --out "$W/t" > "$W/t.log" 2>&1 || fail "budget run: exit $?"
awk -F= '$1 == "status" { st = $2 } $1 == "elapsed_s" { el = $2 } $1 == "entries_run" { run = $2 }
    $1 == "entries_not_reached" { nr = $2 }
    END { s = sprintf("budget: status=%s after %s s, %s entries run, %s not reached", st, el, run, nr)
          if (st == "budget" && el >= 55 && el <= 90 && run > 0) { print "PASS " s; exit 0 }
          if (st == "complete" && nr == 0) { print "PASS " s " (the whole plan fit in a minute)"; exit 0 }
          print "FAIL " s; exit 1 }' "$W/t/manifest.txt" || FAILS=$((FAILS + 1))
awk "$CSVAWK"'v("part") == "random" { r = 1 } v("part") == "cnn" && r { bad++ }
    END { if (bad) { print "FAIL budget: " bad " CNN rows after random ones"; exit 1 }
          print "PASS budget: CNN entries before random ones" }' "$W/t/layers.csv" || FAILS=$((FAILS + 1))

echo "test-gpu: $FAILS failure(s); outputs in $W"
[ $FAILS -eq 0 ]
