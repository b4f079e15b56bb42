#!/bin/sh
# Determinism (docs/reliability.md): the same inputs and
# options give byte-identical plans (--no-timing) across runs and
# --threads values, for every method the binary offers (auto, milp,
# heuristic, and lagrange or pop when present), whenever the search ends
# by optimality, by the gap or by --node-limit. Every run gets a
# --node-limit (the deterministic work limit: branch-and-bound nodes, and
# the iteration budget of the local-search methods) and --time-limit 60,
# far above what these inputs need, so no run should end by the wall
# clock (the one limit that may make two runs differ); a method that still
# runs into it ignores the deterministic limit, which is a failure.
#
# Inputs: examples/tiny.yaml (--node-limit 200), examples/nightly/*.yaml (--node-limit 50),
# tests/gen/geninst.c seeds 1..$CP_DET_SEEDS (default 6) and a larger
# generated instance (40 jobs, 12 slots, --node-limit 100). Also, when the
# binary has `whatif`: the same table for -j 1, -j 2 and a repeated run.
# Ends with "determinism: P passed, F failed, S skipped"; exits non-zero on failure.
SUITE=determinism
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
seeds=${CP_DET_SEEDS:-6}
build_gen geninst || test_done

# The methods this binary has (the list grows; an unknown one exits 2).
methods=
for m in auto milp heuristic lagrange pop; do
    if $CAPPLAN plan --quiet --method "$m" --node-limit 200 -o "$tmp/probe.yaml" examples/tiny.yaml 2>"$tmp/err"; then
        methods="$methods $m"
    elif grep -q "unknown method" "$tmp/err"; then
        echo "note: no --method $m in this binary"
    else
        bad "method $m" "tiny: $(oneline "$tmp/err" 2)"
    fi
done
echo "note: methods:$methods"

# runs NAME ARGS: plan with ARGS (one word-split string) four times:
# as given, with --threads 1, 2 and 4 (the search's streams, docs/search.md;
# for large inputs, $quick set: --threads 1 and 2 only); all must be
# identical.
quick=
tl=${CP_DET_TIME_LIMIT:-60}
runs() {
    rn=$1
    ra=$2
    i=0
    if [ -n "$quick" ]; then
        set -- "--threads 1" "--threads 2" "--threads 2"
    else
        set -- "" "--threads 1" "--threads 2" "--threads 4"
    fi
    for v in "$@"; do
        if [ -n "$quick" ] && [ "$i" = 2 ]; then
            cp "$tmp/r1.yaml" "$tmp/r2.yaml"
            break
        fi
        t0=$(date +%s)
        # shellcheck disable=SC2086
        $CAPPLAN plan --quiet --no-timing --time-limit $tl $ra $v -o "$tmp/r$i.yaml" $files 2>"$tmp/err"
        rc=$?
        if [ $(($(date +%s) - t0)) -ge $((tl - 1)) ]; then
            bad "$rn" "ran into --time-limit $tl despite its node limit ${v:-(first run)}"
            return
        fi
        if [ "$rc" != 0 ] && [ "$rc" != 3 ]; then
            bad "$rn" "exit $rc ${v:-(first run)}: $(oneline "$tmp/err" 2)"
            return
        fi
        i=$((i + 1))
    done
    [ -z "$quick" ] || cp "$tmp/r1.yaml" "$tmp/r3.yaml" # (no fourth run)
    if cmp -s "$tmp/r0.yaml" "$tmp/r1.yaml" && cmp -s "$tmp/r0.yaml" "$tmp/r2.yaml" &&
        cmp -s "$tmp/r0.yaml" "$tmp/r3.yaml"; then
        ok
    else
        bad "$rn" "plans differ: $(diff "$tmp/r0.yaml" "$tmp/r1.yaml" | head -n 4 | tr '\n' ' ') $(diff "$tmp/r0.yaml" "$tmp/r2.yaml" | head -n 4 | tr '\n' ' ') $(diff "$tmp/r0.yaml" "$tmp/r3.yaml" | head -n 4 | tr '\n' ' ')"
    fi
    st=$(plan_status "$tmp/r0.yaml")
    echo "$st" >>"$tmp/statuses"
}

check_input() {
    cn=$1
    cargs=$2
    for m in $methods; do
        runs "$cn/$m" "--method $m $cargs"
    done
}

files=examples/tiny.yaml
check_input tiny "--node-limit 200"
# CP_QUICK=1 (`make check`, `make valgrind`): the nightly example, the
# 40-job instance and the what-if table (over the nightly example) are
# skipped; each takes tens of minutes under memcheck, and `make test`/
# `make asan` run them. tiny.yaml and the generated seeds still run for
# every method.
big=1
if [ "$CP_QUICK" = 1 ]; then
    big=0
    echo "note: CP_QUICK=1, nightly, gen/41x40x12 and whatif skipped"
fi
files=$(ls examples/nightly/*.yaml | tr '\n' ' ')
quick=1
[ "$big" = 0 ] || check_input nightly "--node-limit 50"
quick=
# JSON is written from the same plan: identical too
[ "$big" = 0 ] || for fmt in json; do
    # shellcheck disable=SC2086
    $CAPPLAN plan --quiet --no-timing --time-limit $tl --node-limit 50 --format $fmt -o "$tmp/f1" $files 2>/dev/null
    # shellcheck disable=SC2086
    $CAPPLAN plan --quiet --no-timing --time-limit $tl --node-limit 50 --format $fmt --threads 2 -o "$tmp/f2" $files 2>/dev/null
    if [ -s "$tmp/f1" ] && cmp -s "$tmp/f1" "$tmp/f2"; then ok; else bad "nightly/$fmt" "differs across --threads"; fi
done
s=1
while [ "$s" -le "$seeds" ]; do
    "$tmp/geninst" "$s" >"$tmp/gen$s.yaml"
    files=$tmp/gen$s.yaml
    check_input "gen/$s" "--node-limit 200"
    s=$((s + 1))
done
"$tmp/geninst" 41 40 12 >"$tmp/gen41.yaml"
files=$tmp/gen41.yaml
[ "$big" = 0 ] || check_input "gen/41x40x12" "--node-limit 100"

# whatif: the table does not depend on -j (scenarios planned in parallel)
if [ "$big" = 0 ]; then
    :
elif $CAPPLAN whatif --help >/dev/null 2>&1; then
    printf 'scenarios:\n  - name: cheap\n    changes:\n      - {path: offers/*/price_hour, scale: 0.5}\n  - name: p\n    sweep: {path: offers/*/price_hour, values: [1, 3, 9]}\n' >"$tmp/scen.yaml"
    files=$(ls examples/nightly/*.yaml | tr '\n' ' ')
    i=0
    for j in 1 2 2; do
        # shellcheck disable=SC2086
        $CAPPLAN whatif --quiet --no-timing --time-limit $tl --node-limit 20 -j $j --format csv \
            --scenarios "$tmp/scen.yaml" -o "$tmp/w$i.csv" $files 2>"$tmp/err"
        rc=$?
        [ "$rc" = 0 ] || bad "whatif -j $j" "exit $rc: $(oneline "$tmp/err" 2)"
        i=$((i + 1))
    done
    if [ -s "$tmp/w0.csv" ] && cmp -s "$tmp/w0.csv" "$tmp/w1.csv" && cmp -s "$tmp/w0.csv" "$tmp/w2.csv"; then
        ok
    else
        bad "whatif" "tables differ across -j: $(diff "$tmp/w0.csv" "$tmp/w1.csv" | head -n 4 | tr '\n' ' ')"
    fi
else
    echo "note: no 'capplan whatif' in this binary; -j not tested"
fi

echo "note: plan statuses compared:$(sort "$tmp/statuses" | uniq -c | awk '{ printf " %s x%d", $2, $1 }')"
test_done
