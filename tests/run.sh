#!/bin/sh
# Runs every suite: the unit tests ($UNIT) and each tests/suite_*.sh (which
# use $CAPPLAN). Each suite prints "NAME: P passed, F failed"; this adds
# them up and ends with the total line, exiting non-zero on any failure.
set -u
: "${CAPPLAN:=build/capplan}" "${UNIT:=build/unit_tests}"
export CAPPLAN UNIT LC_ALL=C OPENBLAS_NUM_THREADS=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
total_p=0 total_f=0 status=0
# tally NAME RC LOG: prints a suite's output and adds up its summary line
tally() {
    name=$1 rc=$2 log=$3
    cat "$log"
    line=$(grep -E '^[a-z0-9_-]+: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    if [ -z "$line" ]; then
        echo "$name: no summary line (exit $rc)"
        total_f=$((total_f + 1)); status=1; return
    fi
    p=$(echo "$line" | sed -E 's/^[^:]*: ([0-9]+) passed.*/\1/')
    f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    total_p=$((total_p + p)); total_f=$((total_f + f))
    if [ "$rc" != 0 ] || [ "$f" != 0 ]; then status=1; fi
}
run_suite() {
    name=$1; shift
    "$@" >"$out/log" 2>&1
    tally "$name" $? "$out/log"
}
run_suite unit $UNIT
# CP_SUITE_JOBS=N runs N suites at a time (`make valgrind` uses 2: under
# memcheck every suite is CPU-bound); output still comes in suite order.
if [ "${CP_SUITE_JOBS:-1}" -gt 1 ]; then
    ls tests/suite_*.sh | xargs -P "$CP_SUITE_JOBS" -I{} sh -c \
        'n=$(basename "$1"); sh "$1" >"$2/$n.log" 2>&1; echo $? >"$2/$n.rc"' sh {} "$out"
    for s in tests/suite_*.sh; do
        n=$(basename "$s")
        tally "$s" "$(cat "$out/$n.rc" 2>/dev/null || echo 1)" "$out/$n.log"
    done
else
    for s in tests/suite_*.sh; do
        [ -f "$s" ] || continue
        run_suite "$s" sh "$s"
    done
fi
echo "$total_p passed, $total_f failed"
exit $status
