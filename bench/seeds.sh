#!/bin/sh
# bench/seeds.sh: capplan against CBC and HiGHS on several seeds of one
# family and size, all packed and verified (the 80-job target of
# docs/performance.md, "Results"; its runs: bench/results/).
#
#     sh bench/seeds.sh [SEED...]        (default: 1 2 3 4 5 6)
#
# For each seed: `bench/gen [--family cloud] SEED JOBS SLOTS`; `capplan plan
# --no-timing --progress=debug --time-limit L` (the default method) under
# /usr/bin/time; `capplan verify`; then the model of `capplan plan --method
# milp --node-limit 1 --export-lp`, solved by `cbc ... sec C threads 1
# solve solu` (unless SEEDS_CBC is 0) and by HiGHS through
# bench/highs_lp.py (unless SEEDS_HIGHS is 0; it needs Debian's
# python3-scipy), each solution packed by `capplan place --solution` and
# verified. A solution already in the run folder is reused (600-s runs are
# long: delete it to solve again). One markdown row per seed goes to
# stdout: capplan's total and dropped jobs, its bound, the LP optimum and
# the lifted LP from its --progress=debug lines, CBC's and HiGHS's packed totals,
# capplan / the better of them (the target's ratio), CPU seconds and the load
# average before the run. Everything else stays in the run folder.
#
# Environment: BUILD (default build), SEEDS_FAMILY (cloud, the default,
# onprem, sized or pollux: bench/gen's --family), SEEDS_JOBS (80), SEEDS_SLOTS
# (24), SEEDS_LIMIT (capplan's time limit, 60; 0: no capplan run, e.g. to
# run the 600-s solvers alone in the background), SEEDS_CBC (CBC's, 600; 0: no CBC), SEEDS_HIGHS (HiGHS's,
# SEEDS_CBC's by default; 0: no HiGHS), SEEDS_RUNS (the run folder,
# $BUILD/bench/seeds-FAMILY-JOBS), SEEDS_TAG (names capplan's files, so two
# builds can be compared in one folder; default "cp").
set -u
export LC_ALL=C

BUILD=${BUILD:-build}
CAPPLAN=${CAPPLAN:-$BUILD/capplan}
GEN=${GEN:-$BUILD/bench/gen}
CBC=${CBC:-cbc}
FAMILY=${SEEDS_FAMILY:-cloud}
JOBS=${SEEDS_JOBS:-80}
SLOTS=${SEEDS_SLOTS:-24}
LIMIT=${SEEDS_LIMIT:-60}
CBC_LIMIT=${SEEDS_CBC:-600}
HIGHS_LIMIT=${SEEDS_HIGHS:-$CBC_LIMIT}
PY=${PYTHON:-/usr/bin/python3}
HIGHS=$(dirname "$0")/highs_lp.py
RUNS=${SEEDS_RUNS:-$BUILD/bench/seeds-$FAMILY-$JOBS}
TAG=${SEEDS_TAG:-cp}
[ $# -gt 0 ] || set -- 1 2 3 4 5 6

case $FAMILY in
cloud | sized | pollux) fam="--family $FAMILY" ;;
onprem) fam="" ;;
*) echo "seeds: SEEDS_FAMILY must be cloud, onprem, sized or pollux, not '$FAMILY'" >&2; exit 2 ;;
esac
for f in "$CAPPLAN" "$GEN"; do
    [ -x "$f" ] || { echo "seeds: $f is missing (make BUILD=$BUILD bench-tools builds it)" >&2; exit 2; }
done
if [ "$CBC_LIMIT" != 0 ] && ! command -v "$CBC" >/dev/null 2>&1; then
    echo "seeds: $CBC is missing (apt-get install coinor-cbc, or SEEDS_CBC=0)" >&2
    exit 2
fi
if [ "$HIGHS_LIMIT" != 0 ] && ! "$PY" -c 'import scipy.optimize' >/dev/null 2>&1; then
    echo "seeds: $PY has no scipy, so no HiGHS (apt-get install python3-scipy, or SEEDS_HIGHS=0)" >&2
    exit 2
fi
mkdir -p "$RUNS" || exit 2

# total PLAN: totals.total of a plan file, 2 decimals ("-" when none)
total() {
    awk '/^totals:/ { t = 1 } t && /^  total:/ { printf "%.2f", $2; f = 1; exit } END { if (!f) printf "-" }' "$1" 2>/dev/null || printf -
}
# prog LOG WORD: the optimum of the `capplan: lp:` line that has WORD
prog() {
    sed -n "s/^capplan: lp: $2optimum \\([0-9.]*\\).*/\\1/p" "$1" 2>/dev/null | tail -n 1 | awk '{ printf "%.2f", $1 } END { if (!NR) printf "-" }'
}
ok() {
    if [ ! -e "$1" ]; then echo -; elif "$CAPPLAN" verify --plan "$1" "$2" >/dev/null 2>&1; then echo OK; else echo FAIL; fi
}

# packed B SOLVER: place's packing of B.SOLVER.sol, its total when it
# verifies ("-" otherwise)
packed() {
    if "$CAPPLAN" place --no-timing --solution "$1.$2.sol" -o "$1.$2.plan.yaml" "$1.yaml" >"$1.$2.place.out" 2>&1 &&
        [ "$(ok "$1.$2.plan.yaml" "$1.yaml")" = OK ]; then
        total "$1.$2.plan.yaml"
    else
        printf -
    fi
}

echo "| seed | capplan \$ (dropped) | verify | its bound \$ | LP \$ | lifted LP \$ | CBC ${CBC_LIMIT} s packed \$ | HiGHS ${HIGHS_LIMIT} s packed \$ | capplan / better | CPU s | load |"
echo "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|"
for s in "$@"; do
    b=$RUNS/s$s
    # shellcheck disable=SC2086
    "$GEN" $fam "$s" "$JOBS" "$SLOTS" >"$b.yaml" || exit 2
    load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
    [ "$LIMIT" = 0 ] ||
        /usr/bin/time -f '%U %S' -o "$b.$TAG.time" "$CAPPLAN" plan --no-timing --progress=debug --time-limit "$LIMIT" \
            -o "$b.$TAG.plan.yaml" "$b.yaml" >"$b.$TAG.log" 2>&1
    cpu=$(awk '{ printf "%.1f", $1 + $2 }' "$b.$TAG.time" 2>/dev/null)
    t=$(total "$b.$TAG.plan.yaml")
    d=$(grep -c '^  status: dropped' "$b.$TAG.plan.yaml" 2>/dev/null)
    bd=$(awk '/^solver:/ { t = 1 } t && /^  bound:/ { printf "%.2f", $2; exit }' "$b.$TAG.plan.yaml" 2>/dev/null)
    if { [ "$CBC_LIMIT" != 0 ] && [ ! -s "$b.cbc.sol" ]; } || { [ "$HIGHS_LIMIT" != 0 ] && [ ! -s "$b.highs.sol" ]; }; then
        "$CAPPLAN" plan --quiet --no-timing --method milp --node-limit 1 --export-lp "$b.lp" \
            -o "$b.export.yaml" "$b.yaml" 2>/dev/null
    fi
    cbc=- highs=-
    if [ "$CBC_LIMIT" != 0 ]; then
        [ -s "$b.cbc.sol" ] ||
            "$CBC" "$b.lp" timeMode elapsed sec "$CBC_LIMIT" threads 1 solve solu "$b.cbc.sol" >"$b.cbc.log" 2>&1
        cbc=$(packed "$b" cbc)
    fi
    if [ "$HIGHS_LIMIT" != 0 ]; then
        [ -s "$b.highs.sol" ] || "$PY" "$HIGHS" "$b.lp" "$b.highs.sol" "$HIGHS_LIMIT" 2>"$b.highs.log"
        highs=$(packed "$b" highs)
    fi
    ratio=$(awk -v a="$t" -v c="$cbc" -v h="$highs" 'BEGIN {
        best = 0
        if (c != "-") best = c + 0
        if (h != "-" && (best == 0 || h + 0 < best)) best = h + 0
        if (best > 0 && a != "-") printf "%.3f", a / best; else printf "-" }')
    echo "| $s | $t ($d) | $(ok "$b.$TAG.plan.yaml" "$b.yaml") | ${bd:--} | $(prog "$b.$TAG.log" "LP ") | $(prog "$b.$TAG.log" "lifted: ") | $cbc | $highs | $ratio | $cpu | $load |"
done
