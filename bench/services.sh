#!/bin/sh
# bench/services.sh: the benchmark of nights with inference services
# (`make bench-services`; docs/performance.md, "Services").
#
# Two nights of `bench/gen --services K SEED JOBS`: 1,000 jobs with 10
# services, and 100 services with no jobs (a serving fleet alone). For
# each night it exports the joint model (`--export-lp`, capplan.5 §10.4:
# jobs, replicas, shares and starts in one MILP) and solves its LP
# relaxation with CBC's simplex (`cbc -initialSolve`), the reference of
# the targets; then each method plans the night under the time limit,
# measured by bench/meter (wall and CPU seconds: on a shared machine the
# CPU figure is the one load does not inflate) and verified. One markdown
# row per run on stdout and in $BUILD/bench-services.md; instances, LPs,
# logs and plans in $BUILD/bench/runs-services/.
#
# Environment: BUILD (default build), BENCH_SEED (1), BENCH_LIMIT (60),
# BENCH_METHODS (auto heuristic pop), BENCH_NIGHTS ("1000:10 0:100",
# JOBS:SERVICES), BENCH_THREADS (nproc), BENCH_MEM_KB (16777216; 0: none).
set -u
export LC_ALL=C OPENBLAS_NUM_THREADS=1

BUILD=${BUILD:-build}
CAPPLAN=${CAPPLAN:-$BUILD/capplan}
GEN=${GEN:-$BUILD/bench/gen}
METER=${METER:-$BUILD/bench/meter}
CBC=${CBC:-cbc}
SEED=${BENCH_SEED:-1}
LIMIT=${BENCH_LIMIT:-60}
METHODS=${BENCH_METHODS:-auto heuristic pop}
NIGHTS=${BENCH_NIGHTS:-1000:10 0:100}
THREADS=${BENCH_THREADS:-$(nproc 2>/dev/null || echo 1)}
MEM_KB=${BENCH_MEM_KB:-16777216}
RUNS=$BUILD/bench/runs-services
MD=$BUILD/bench-services.md

for f in "$CAPPLAN" "$GEN" "$METER"; do
    [ -x "$f" ] || { echo "bench: $f is missing (make BUILD=$BUILD bench-tools builds it)" >&2; exit 2; }
done
mkdir -p "$RUNS" || exit 2

# guarded L CMD...: CMD under the address-space cap and a wall-clock guard
# of twice L plus 60 s (SIGINT first: capplan still writes its best plan).
guarded() {
    g=$(awk -v l="$1" 'BEGIN { printf "%d\n", l * 2 + 60 }')
    shift
    (
        [ "$MEM_KB" != 0 ] && ulimit -v "$MEM_KB"
        exec "$METER" -o "$RUNS/meter.txt" timeout -s INT -k 30 "$g" "$@"
    )
}
meter_field() {
    sed -n "s/.* $1=\([^ ]*\).*/\1/p" "$RUNS/meter.txt" 2>/dev/null | tail -n 1
}
# pct A B: 100 (A - B) / |B| to two decimals, or - when either is missing
pct() {
    awk -v a="$1" -v b="$2" 'BEGIN {
        if (a !~ /^[-+.0-9]/ || b !~ /^[-+.0-9]/ || b + 0 == 0) { print "-"; exit }
        printf "%.2f %%\n", 100 * (a - b) / (b < 0 ? -b : b) }'
}

{
    echo "| jobs | services | seed | LP (CBC) | LP CPU s | method | limit s | total \$ | over the LP | status | verify | wall s | CPU s |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
} | tee "$MD"
for night in $NIGHTS; do
    jobs=${night%%:*} k=${night##*:}
    tag=j${jobs}s${k}x$SEED
    inst=$RUNS/$tag.yaml
    "$GEN" --services "$k" "$SEED" "$jobs" >"$inst" || { echo "bench: gen failed for $night" >&2; continue; }
    # the joint model (the export happens before any search)
    lp=$RUNS/$tag.lp lpv=- lpcpu=-
    rm -f "$lp"
    "$CAPPLAN" plan --quiet --method heuristic --time-limit 1 --export-lp "$lp" -o "$RUNS/$tag.export.yaml" \
        "$inst" >/dev/null 2>"$RUNS/$tag.export.log"
    if [ -s "$lp" ] && command -v "$CBC" >/dev/null 2>&1; then
        guarded 1800 "$CBC" "$lp" -initialSolve -quit >"$RUNS/$tag.lp.log" 2>&1
        lpcpu=$(meter_field cpu_s)
        lpv=$(sed -n 's/^Optimal objective \([-+0-9.eE]*\) .*/\1/p' "$RUNS/$tag.lp.log" | tail -n 1)
        [ -n "$lpv" ] || lpv=-
    fi
    for m in $METHODS; do
        plan=$RUNS/$tag.$m.plan
        rm -f "$plan"
        guarded "$LIMIT" "$CAPPLAN" plan --no-timing --progress=debug --threads "$THREADS" --method "$m" \
            --time-limit "$LIMIT" -o "$plan" "$inst" >/dev/null 2>"$RUNS/$tag.$m.log"
        wall=$(meter_field wall_s) cpu=$(meter_field cpu_s)
        total=- st=- ver=-
        if [ -s "$plan" ]; then
            total=$(sed -n 's/^  total: //p' "$plan" | head -n 1)
            st=$(sed -n 's/^status: //p' "$plan" | head -n 1)
            if "$CAPPLAN" verify --plan "$plan" "$inst" >"$RUNS/$tag.$m.verify" 2>&1; then ver=OK; else ver=FAIL; fi
        fi
        echo "| $jobs | $k | $SEED | $lpv | $lpcpu | $m | $LIMIT | $total | $(pct "$total" "$lpv") | $st | $ver | $wall | $cpu |" |
            tee -a "$MD"
    done
done
