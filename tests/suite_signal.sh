#!/bin/sh
# SIGINT/SIGTERM at random moments (issue 7, item 5; docs/reliability.md).
#
# `capplan plan -o DIR/plan.yaml` is started by tests/gen/sigrun.c, which
# sends SIGINT or SIGTERM after a random delay (0..1500 ms, drawn from a
# seeded generator so a failure can be replayed: CP_SIGNAL_SEED, default
# 1; CP_SIGNAL_RUNS runs, default 40), and in some runs the same signal a
# second time 0..300 ms later. The inputs run long enough to be hit in
# every phase: examples/nightly (MILP, --time-limit 2), a generated
# instance of 4000 jobs x 100 slots (load, modes, heuristic, placement
# and writing a 1 MB plan all take visible time) and examples/tiny.yaml
# (usually done before the signal). Each run must:
#   - exit 0, 130, 3 or 4, never die of the signal;
#   - exit 0 only with a plan (status optimal or feasible), 130 with no
#     plan or one with status interrupted, 3 with status infeasible, 4
#     with no plan;
#   - leave a plan that `capplan verify` accepts, when it leaves one;
#   - leave nothing else in the output folder (no FILE.tmp.XXXXXX).
# Ends with "signal: P passed, F failed"; exits non-zero on any failure.
set -u
cd "$(dirname "$0")/.." || exit 2
: "${CAPPLAN:=build/capplan}"
: "${CC:=cc}"
LC_ALL=C
OPENBLAS_NUM_THREADS=1
export LC_ALL OPENBLAS_NUM_THREADS
seed=${CP_SIGNAL_SEED:-1}
runs=${CP_SIGNAL_RUNS:-40}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL $1: $2"
}

if ! $CC -std=c11 -O2 -o "$tmp/sigrun" tests/gen/sigrun.c 2>"$tmp/cc.err" ||
    ! $CC -std=c11 -O2 -o "$tmp/geninst" tests/gen/geninst.c -lm 2>>"$tmp/cc.err"; then
    bad build "$(head -n 3 "$tmp/cc.err" | tr '\n' ' ')"
    echo "signal: $pass passed, $fail failed"
    exit 1
fi
"$tmp/geninst" 5 4000 100 >"$tmp/big.yaml"

# The schedule: one line per run, "INPUT SIG DELAY SECOND" (SECOND -1:
# one signal only), from awk's seeded generator.
# CP_VALGRIND=1 (`make valgrind`): memcheck takes a second or more to
# start the program, during which a signal kills valgrind itself, before
# capplan has a handler: every delay is moved 5 s later.
offset=0
[ "${CP_VALGRIND:-0}" = 1 ] && offset=5000
awk -v seed="$seed" -v runs="$runs" -v offset="$offset" 'BEGIN {
    srand(seed)
    for (i = 0; i < runs; i++) {
        r = rand()
        input = r < 0.45 ? "nightly" : r < 0.9 ? "big" : "tiny"
        sig = rand() < 0.5 ? "INT" : "TERM"
        delay = int(rand() * 1500) + offset
        second = rand() < 0.25 ? int(rand() * 300) : -1
        print input, sig, delay, second
    }
}' >"$tmp/schedule"

n=0
maxlat=0
tally=
while read -r input sig delay second; do
    n=$((n + 1))
    name="run $n ($input, SIG$sig at ${delay} ms$([ "$second" -ge 0 ] && echo ", again ${second} ms later"))"
    case $input in
    nightly) files="examples/nightly/fleet.yaml examples/nightly/sites.yaml examples/nightly/offers.yaml examples/nightly/jobs-training.yaml examples/nightly/jobs-dataflow.yaml" ;;
    big) files=$tmp/big.yaml ;;
    *) files=examples/tiny.yaml ;;
    esac
    out=$tmp/out$n
    mkdir "$out"
    set -- -s "$sig" -d "$delay"
    [ "$second" -ge 0 ] && set -- "$@" -2 "$second"
    # shellcheck disable=SC2086
    "$tmp/sigrun" "$@" -- $CAPPLAN plan --quiet --time-limit 2 -o "$out/plan.yaml" $files \
        >"$tmp/res" 2>"$tmp/err"
    res=$(cat "$tmp/res")
    code=$(echo "$res" | sed -n 's/^exit=\([0-9]*\).*/\1/p')
    lat=$(echo "$res" | sed -n 's/.*latency_ms=\([0-9]*\).*/\1/p')
    [ -n "$lat" ] && [ "$lat" -gt "$maxlat" ] && maxlat=$lat
    st=
    [ -f "$out/plan.yaml" ] && st=$(sed -n 's/^status: //p' "$out/plan.yaml")
    tally="$tally ${code:-?}${st:+/$st}"
    case "$code:$st" in
    0:optimal | 0:feasible | 130: | 130:interrupted | 3:infeasible | 4:) ok ;;
    *) bad "$name" "exit ${code:-?} with plan status '${st:-no file}' ($res; $(head -n 2 "$tmp/err" | tr '\n' ' '))" ;;
    esac
    if [ -f "$out/plan.yaml" ]; then
        # shellcheck disable=SC2086
        if $CAPPLAN verify --plan "$out/plan.yaml" $files >"$tmp/vout" 2>&1 &&
            grep -q '^verify: OK' "$tmp/vout"; then
            ok
        else
            bad "$name" "the plan left behind does not verify: $(head -n 3 "$tmp/vout" | tr '\n' ' ')"
        fi
    fi
    extra=$(ls -A "$out" | grep -v '^plan\.yaml$')
    if [ -z "$extra" ]; then ok; else bad "$name" "left in the output folder: $extra"; fi
    if grep -q 'Sanitizer\|runtime error' "$tmp/err"; then bad "$name" "$(head -n 3 "$tmp/err")"; fi
    rm -rf "$out"
done <"$tmp/schedule"

[ "$n" = "$runs" ] && ok || bad schedule "$n runs of $runs"
echo "note: $runs runs, seed $seed, longest time from the first signal to exit $maxlat ms;" \
    "outcomes:$(echo $tally | tr ' ' '\n' | sort | uniq -c | awk '{ printf " %s x%d", $2, $1 }')"
echo "signal: $pass passed, $fail failed"
[ "$fail" = 0 ]
