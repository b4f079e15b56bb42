#!/bin/sh
# bench/run.sh: the planning benchmark (`make bench`, docs/performance.md).
#
# For each size (jobs x 24 hourly slots, seeded instances from bench/gen) and
# each method, runs `capplan plan --no-timing --progress=debug --time-limit L`,
# verifies the plan and prints one markdown row: model size (from the
# solver's progress lines), time to the first plan, total, bound, gap,
# wall time and peak memory (bench/meter).  At the CBC sizes it also exports
# the model with --export-lp and solves it with CBC under the same limit.
# The tables go to stdout and to $BUILD/bench.md; logs, instances and plans
# stay in $BUILD/bench/runs/.  See docs/performance.md.
#
# Environment: BUILD (default build), BENCH_SIZES, BENCH_METHODS,
# BENCH_SCALE (multiplies every time limit), BENCH_SEED, BENCH_SLOTS,
# BENCH_CBC_SIZES (empty: no CBC), BENCH_THREADS, BENCH_MEM_KB (address-space
# limit of each solver run; 0: none), BENCH_FAMILY (onprem, the default, or
# cloud: `bench/gen --family cloud` instances, tables in $BUILD/bench-cloud.md
# and runs in $BUILD/bench/runs-cloud/, plus a table of the cloud share of
# each plan's accelerator work from bench/cloud_share.sh).
set -u
export LC_ALL=C OPENBLAS_NUM_THREADS=1

BUILD=${BUILD:-build}
CAPPLAN=${CAPPLAN:-$BUILD/capplan}
GEN=${GEN:-$BUILD/bench/gen}
METER=${METER:-$BUILD/bench/meter}
CBC=${CBC:-cbc}
SIZES=${BENCH_SIZES:-20 80 100 1000 10000}
METHODS=${BENCH_METHODS:-heuristic lagrange milp pop auto}
SCALE=${BENCH_SCALE:-1}
SEED=${BENCH_SEED:-1}
SLOTS=${BENCH_SLOTS:-24}
CBC_SIZES=${BENCH_CBC_SIZES-20 80}
THREADS=${BENCH_THREADS:-$(nproc 2>/dev/null || echo 1)}
MEM_KB=${BENCH_MEM_KB:-16777216}
FAMILY=${BENCH_FAMILY:-onprem}
case $FAMILY in
onprem) RUNS=$BUILD/bench/runs MD=$BUILD/bench.md ;;
cloud) RUNS=$BUILD/bench/runs-cloud MD=$BUILD/bench-cloud.md ;;
*) echo "bench: BENCH_FAMILY must be onprem or cloud, not '$FAMILY'" >&2; exit 2 ;;
esac
SHARE=${SHARE:-$(dirname "$0")/cloud_share.sh}

# gen SEED JOBS SLOTS: an instance of the family on stdout (the onprem
# family is called exactly as before the families existed).
gen() {
    if [ "$FAMILY" = onprem ]; then "$GEN" "$@"; else "$GEN" --family "$FAMILY" "$@"; fi
}

for f in "$CAPPLAN" "$GEN" "$METER"; do
    [ -x "$f" ] || { echo "bench: $f is missing (make BUILD=$BUILD bench builds it)" >&2; exit 2; }
done
mkdir -p "$RUNS" || exit 2

# limit N: the issue's time limit for N jobs, times BENCH_SCALE, at least 1 s.
limit() {
    case $1 in
    20) l=10 ;; 80 | 100 | 1000) l=60 ;; 10000) l=300 ;; *) l=60 ;;
    esac
    awk -v l="$l" -v s="$SCALE" 'BEGIN { v = l * s; if (v < 1) v = 1; printf "%g\n", v }'
}

# guarded L CMD...: CMD under an address-space cap and a wall-clock guard
# (SIGINT first, so capplan still writes its best plan), measured by meter
# into $RUNS/meter.txt.
guarded() {
    g=$(awk -v l="$1" 'BEGIN { printf "%d\n", l * 2 + 60 }')
    shift
    (
        [ "$MEM_KB" != 0 ] && ulimit -v "$MEM_KB"
        exec "$METER" -o "$RUNS/meter.txt" timeout -s INT -k 30 "$g" "$@"
    )
}

# meter_field KEY: a field of the last meter line (wall_s, maxrss_kb, status)
meter_field() {
    sed -n "s/.* $1=\([^ ]*\).*/\1/p" "$RUNS/meter.txt" 2>/dev/null | tail -n 1
}

# sizes LOG TAG: "R / C / B" from `capplan: TAG: rows=R cols=C bins=B`, or -.
sizes() {
    awk -v tag="capplan: $2:" '
        index($0, tag) == 1 {
            r = c = b = "?"
            for (i = 1; i <= NF; i++) {
                if ($i ~ /^rows=/) r = substr($i, 6)
                if ($i ~ /^cols=/) c = substr($i, 6)
                if ($i ~ /^bins=/) b = substr($i, 6)
            }
            v = r " / " c " / " b
        }
        END { print (v == "" ? "-" : v) }' "$1"
}

# first_plan LOG: seconds of the first `capplan: incumbent X at T s` line, or -.
first_plan() {
    awk '/^capplan: incumbent / { for (i = 3; i < NF; i++) if ($i == "at") { print $(i + 1); found = 1; exit } }
         END { if (!found) print "-" }' "$1"
}

# plan_fields PLAN: "status total bound gap dropped" from a YAML plan, - if absent.
plan_fields() {
    awk '
        /^[a-z_]+:/ { sec = $1; sub(/:$/, "", sec) }
        sec == "status" && /^status:/ { st = $2 }
        sec == "solver" && /^  bound:/ { bd = $2 }
        sec == "solver" && /^  gap:/ { gp = $2 }
        sec == "totals" && /^  total:/ { tot = $2 }
        /^  status: dropped/ { drop++ }
        END {
            printf "%s %s %s %s %d\n", st == "" ? "-" : st, tot == "" ? "-" : tot,
                bd == "" ? "-" : bd, gp == "" ? "-" : gp, drop
        }' "$1"
}

# fmt KIND X: X as money, pct (a fraction), mb (from kB) or s1; - stays -.
fmt() {
    awk -v k="$1" -v x="$2" 'BEGIN {
        if (x == "-" || x == "" || x == "null" || x == "~") { print "-"; exit }
        if (x ~ /inf|nan/) { print x; exit }
        if (k == "money") printf "%.2f\n", x
        else if (k == "pct") printf "%.2f %%\n", 100 * x
        else if (k == "mb") printf "%.0f\n", x / 1024
        else printf "%.1f\n", x
    }'
}

# ---- the machine ---------------------------------------------------------
cpu=$(sed -n 's/^model name[^:]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)
ram=$(awk '/^MemTotal:/ { printf "%.1f GiB\n", $2 / 1048576 }' /proc/meminfo 2>/dev/null)
rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
glpk=$(dpkg-query -W -f '${Version}' 'libglpk4*' 2>/dev/null | head -n 1)
deb=$(cat /etc/debian_version 2>/dev/null)
{
    echo "# capplan bench, $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo
    echo "Machine: $(nproc 2>/dev/null) cores, ${cpu:-unknown CPU}, ${ram:-unknown RAM}; Debian ${deb:-?}, GLPK ${glpk:-?}."
    if [ "$FAMILY" = onprem ]; then fam=; else fam="--family $FAMILY "; fi
    echo "capplan $rev; instances \`bench/gen $fam$SEED JOBS $SLOTS\`; time limits x $SCALE;"
    echo "--threads $THREADS; CBC: $($CBC -quit 2>/dev/null </dev/null | sed -n 's/^Version: *\([^ ]*\).*/\1/p' | head -n 1)."
    echo
} >"$MD"

# ---- which methods this capplan knows --------------------------------------
gen "$SEED" 5 "$SLOTS" >"$RUNS/probe.yaml" || exit 2
known=
for m in $METHODS; do
    "$CAPPLAN" plan --quiet --method "$m" --time-limit 1 -o "$RUNS/probe-plan.yaml" \
        "$RUNS/probe.yaml" >/dev/null 2>"$RUNS/probe.err"
    if [ $? = 2 ]; then
        echo "bench: skipping method $m: $(head -n 1 "$RUNS/probe.err")" >&2
        echo "Method \`$m\` skipped: \`$(head -n 1 "$RUNS/probe.err")\`" >>"$MD"
        echo >>"$MD"
    else
        known="$known $m"
    fi
done

# ---- instances -------------------------------------------------------------
inst_rows=
for n in $SIZES; do
    inst=$RUNS/jobs$n.yaml
    gen "$SEED" "$n" "$SLOTS" >"$inst" || { echo "bench: gen failed for $n jobs" >&2; exit 1; }
    "$METER" -o "$RUNS/meter.txt" "$CAPPLAN" check "$inst" >"$RUNS/check$n.txt" 2>&1
    modes=$(awk '/^  [^ ].*\): [0-9]+ modes?$/ { s += $(NF - 1) } END { print s + 0 }' "$RUNS/check$n.txt")
    kb=$(($(wc -c <"$inst") / 1024))
    inst_rows="$inst_rows| $n | $SLOTS | $kb | $modes | $(meter_field status) | $(fmt s1 "$(meter_field wall_s)") | $(fmt mb "$(meter_field maxrss_kb)") |
"
done
{
    echo "## Instances"
    echo
    echo "| jobs | slots | YAML KiB | modes | check exit | check s | check MB |"
    echo "|---:|---:|---:|---:|---:|---:|---:|"
    printf '%s' "$inst_rows"
    echo
    echo "## capplan plan"
    echo
    echo "| jobs | method | limit s | model rows / cols / bins | reduced rows / cols / bins | first plan s | total \$ | bound \$ | gap | status | dropped | verify | wall s | peak MB |"
    echo "|---:|---|---:|---|---|---:|---:|---:|---:|---|---:|---|---:|---:|"
} >>"$MD"
cat "$MD"

# ---- capplan runs ------------------------------------------------------------
rm -f "$RUNS/results.txt.new"
share_rows=
for n in $SIZES; do
    inst=$RUNS/jobs$n.yaml
    L=$(limit "$n")
    for m in $known; do
        tag=$n-$m
        rm -f "$RUNS/plan$tag.yaml"
        guarded "$L" "$CAPPLAN" plan --no-timing --progress=debug --threads "$THREADS" --method "$m" \
            --time-limit "$L" -o "$RUNS/plan$tag.yaml" "$inst" >/dev/null 2>"$RUNS/plan$tag.log"
        rc=$?
        wall=$(meter_field wall_s) rss=$(meter_field maxrss_kb)
        if [ -s "$RUNS/plan$tag.yaml" ]; then
            set -- $(plan_fields "$RUNS/plan$tag.yaml")
            st=$1 tot=$2 bd=$3 gp=$4 drop=$5
            if "$CAPPLAN" verify --plan "$RUNS/plan$tag.yaml" "$inst" >"$RUNS/verify$tag.txt" 2>&1; then
                ver=OK
            else
                ver="FAIL ($(sed -n 's/^verify: FAIL \([0-9]*\).*/\1/p' "$RUNS/verify$tag.txt"))"
            fi
        else
            st="exit $rc" tot=- bd=- gp=- drop=- ver=-
        fi
        [ "$rc" = 0 ] || [ "$rc" = 130 ] || st="$st (exit $rc)"
        row="| $n | $m | $L | $(sizes "$RUNS/plan$tag.log" model) | $(sizes "$RUNS/plan$tag.log" reduced) | $(first_plan "$RUNS/plan$tag.log") | $(fmt money "$tot") | $(fmt money "$bd") | $(fmt pct "$gp") | $st | $drop | $ver | $(fmt s1 "$wall") | $(fmt mb "$rss") |"
        echo "$row"
        echo "$row" >>"$MD"
        echo "$n $m $tot $bd" >>"$RUNS/results.txt.new"
        if [ "$FAMILY" = cloud ] && [ -s "$RUNS/plan$tag.yaml" ]; then
            share_rows="$share_rows$(sh "$SHARE" "$inst" "$RUNS/plan$tag.yaml" | awk -v n="$n" -v m="$m" '{
                for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                printf "| %s | %s | %d / %d | %.0f | %.1f %% | %.1f %% | %.1f %% | %d / %d |\n", n, m,
                    v["scheduled"], v["train"], v["work_h"], 100 * v["cloud_work"], 100 * v["spot_work"],
                    100 * v["cloud_gpu_h"], v["be_dropped"], v["be"] }')
"
        fi
    done
done
if [ -n "$share_rows" ]; then
    {
        echo
        echo "## Cloud share of the accelerator work (bench/cloud_share.sh)"
        echo
        echo "| jobs | method | training jobs scheduled | V100 GPU-hours scheduled | in the cloud | on spot | cloud share of GPU-hours | best-effort dropped |"
        echo "|---:|---|---:|---:|---:|---:|---:|---:|"
        printf '%s' "$share_rows"
    } | tee -a "$MD"
fi
mv -f "$RUNS/results.txt.new" "$RUNS/results.txt" 2>/dev/null

# ---- CBC on the exported model ---------------------------------------------
# CBC prints `Result - <status>`, `Objective value: X` and, when stopped
# early, `Lower bound: X` (older builds: `Best possible: X`), and `No
# feasible solution found` when it has none; its solution file starts
# `<status> - objective value X` (the LP value when it found no integer
# solution, so that file is only a fallback).  The exported LP carries the
# plan-independent cost as a column fixed to 1, so its objective is the
# plan total and CBC's figure compares directly.
cbc_rows=
for n in $CBC_SIZES; do
    case " $SIZES " in *" $n "*) ;; *) continue ;; esac
    if ! command -v "$CBC" >/dev/null 2>&1; then
        echo "bench: $CBC not found; skipping the CBC comparison" >&2
        break
    fi
    inst=$RUNS/jobs$n.yaml
    L=$(limit "$n")
    lp=$RUNS/jobs$n.lp
    rm -f "$lp"
    "$CAPPLAN" plan --quiet --method milp --node-limit 1 --time-limit "$L" --export-lp "$lp" \
        -o "$RUNS/export$n.yaml" "$inst" >/dev/null 2>"$RUNS/export$n.log"
    if [ ! -s "$lp" ]; then
        cbc_rows="$cbc_rows| $n | $L | export failed | - | - | - | - | - | - |
"
        continue
    fi
    rm -f "$RUNS/cbc$n.sol"
    guarded "$L" "$CBC" "$lp" -timeMode elapsed -sec "$L" -threads "$THREADS" -solve \
        -solu "$RUNS/cbc$n.sol" >"$RUNS/cbc$n.log" 2>&1
    wall=$(meter_field wall_s) rss=$(meter_field maxrss_kb)
    set -- $(awk '
        /^Result - / { st = $0; sub(/^Result - /, "", st); gsub(/ /, "_", st) }
        /^Objective value:/ { obj = $3 }
        /^Lower bound:/ { lb = $3 }
        /^Best possible:/ { lb = $3 }
        /^No feasible solution found/ { nofeas = 1 }
        END {
            if (nofeas || (obj != "" && obj + 0 >= 1e40)) obj = "-"
            if (lb != "" && (lb + 0 >= 1e40 || lb + 0 <= -1e40)) lb = "-"
            if (st == "") st = "no_result"
            if (st ~ /^Optimal/ && lb == "") lb = obj
            if (st ~ /[Ii]nfeasible|No_feasible/) obj = "-"
            printf "%s %s %s\n", st, obj == "" ? "-" : obj, lb == "" ? "-" : lb
        }' "$RUNS/cbc$n.log")
    cst=$1 cobj=$2 clb=$3
    # (a solution file without an integer solution holds the LP's value: skip it)
    if [ "$cobj" = - ] && [ -s "$RUNS/cbc$n.sol" ] &&
       ! head -n 1 "$RUNS/cbc$n.sol" | grep -qiE 'no integer|infeasible' &&
       ! grep -q '^No feasible solution found' "$RUNS/cbc$n.log"; then
        cobj=$(sed -n '1s/.*objective value *\([-+0-9.eE]*\).*/\1/p' "$RUNS/cbc$n.sol")
        [ -n "$cobj" ] || cobj=-
    fi
    # capplan's best plan at this size (on a tie, the method with a bound)
    best=$(awk -v n="$n" '$1 != n || $3 !~ /^[-+.0-9]/ { next }
                           b == "" || $3 + 0 < b + 0 || ($3 + 0 == b + 0 && bd !~ /^[-+.0-9]/ && $4 ~ /^[-+.0-9]/) {
                               b = $3; m = $2; bd = $4 }
                           END { print (b == "" ? "- - -" : b " " m " " bd) }' "$RUNS/results.txt" 2>/dev/null)
    set -- $best
    cp_tot=${1:--} cp_m=${2:--} cp_bd=${3:--}
    note=$(awk -v a="$cobj" -v b="$cp_tot" 'BEGIN {
        if (a !~ /^[-+.0-9]/ || b !~ /^[-+.0-9]/) { print "-"; exit }
        d = (b - a) / (a < 0 ? -a : a > 1 ? a : 1)
        printf "%+.2f %%\n", 100 * d }')
    cgap=$(awk -v o="$cobj" -v b="$clb" 'BEGIN {
        if (o !~ /^[-+.0-9]/ || b !~ /^[-+.0-9]/) { print "-"; exit }
        printf "%.2f %%\n", 100 * (o - b) / (o < 0 ? -o : o > 1e-9 ? o : 1) }')
    cbc_rows="$cbc_rows| $n | $L | $(echo "$cst" | tr _ ' ') | $(fmt money "$cobj") | $(fmt money "$clb") | $cgap | $(fmt s1 "$wall") | $(fmt mb "$rss") | $(fmt money "$cp_tot") ($cp_m) | $(fmt money "$cp_bd") | $note |
"
done
if [ -n "$cbc_rows" ]; then
    {
        echo
        echo "## CBC on the exported model (same instance, same time limit)"
        echo
        echo "| jobs | limit s | CBC result | CBC objective \$ | CBC bound \$ | CBC gap | CBC wall s | CBC peak MB | capplan best total \$ (method) | its bound \$ | capplan vs CBC |"
        echo "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
        printf '%s' "$cbc_rows"
    } | tee -a "$MD"
fi
echo
echo "bench: table written to $MD" >&2
