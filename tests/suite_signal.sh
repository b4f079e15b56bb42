#!/bin/sh
# SIGINT/SIGTERM at random moments (docs/reliability.md).
#
# `capplan plan -o DIR/plan.yaml` is started by tests/gen/sigrun.c, which
# sends SIGINT or SIGTERM after a random delay (0..1500 ms, drawn from a
# seeded generator so a failure can be replayed: CP_SIGNAL_SEED, default
# 1; CP_SIGNAL_RUNS runs, default 40), and in some runs the same signal a
# second time 0..300 ms later (the first is held until capplan catches
# it: before its handler is installed any program dies of it; see
# sigrun.c). The inputs run long enough to be hit in every phase: examples/nightly (MILP, --time-limit 2), a generated
# instance of 4000 jobs x 100 slots (load, modes, heuristic, placement
# and writing a 1 MB plan all take visible time) and examples/tiny.yaml
# (usually done before the signal). Each run must:
#   - exit 0, 130, 3 or 4, never die of the signal;
#   - exit 0 only with a plan (status optimal or feasible), 130 with no
#     plan or one with status interrupted, 3 with status infeasible, 4
#     with no plan;
#   - leave a plan that `capplan verify` accepts, with the plan's own
#     total, when it leaves one;
#   - leave nothing else in the output folder (no FILE.tmp.XXXXXX).
# Ends with "signal: P passed, F failed, S skipped"; exits non-zero on any failure.
SUITE=signal
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
seed=${CP_SIGNAL_SEED:-1}
runs=${CP_SIGNAL_RUNS:-40}
build_gen sigrun && build_gen geninst || test_done
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
    nightly) files="examples/nightly/fleet.yaml examples/nightly/sites.yaml examples/nightly/offers.yaml examples/nightly/jobs-training.yaml examples/nightly/jobs-dataflow.yaml examples/nightly/teams.yaml" ;;
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
    [ -f "$out/plan.yaml" ] && st=$(plan_status "$out/plan.yaml")
    tally="$tally ${code:-?}${st:+/$st}"
    case "$code:$st" in
    0:optimal | 0:feasible | 130: | 130:interrupted | 3:infeasible | 4:) ok ;;
    *) bad "$name" "exit ${code:-?} with plan status '${st:-no file}' ($res; $(oneline "$tmp/err" 2))" ;;
    esac
    if [ -f "$out/plan.yaml" ]; then
        # shellcheck disable=SC2086
        verify_ok "$name: the plan left behind" "$out/plan.yaml" $files
    fi
    extra=$(ls -A "$out" | grep -v '^plan\.yaml$')
    if [ -z "$extra" ]; then ok; else bad "$name" "left in the output folder: $extra"; fi
    if grep -q 'Sanitizer\|runtime error' "$tmp/err"; then bad "$name" "$(oneline "$tmp/err")"; fi
    rm -rf "$out"
done <"$tmp/schedule"

[ "$n" = "$runs" ] && ok || bad schedule "$n runs of $runs"
echo "note: $runs runs, seed $seed, longest time from the first signal to exit $maxlat ms;" \
    "outcomes:$(echo $tally | tr ' ' '\n' | sort | uniq -c | awk '{ printf " %s x%d", $2, $1 }')"
test_done
