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
run_suite() {
    name=$1; shift
    "$@" >"$out/log" 2>&1
    rc=$?
    cat "$out/log"
    line=$(grep -E '^[a-z0-9_-]+: [0-9]+ passed, [0-9]+ failed' "$out/log" | tail -n 1)
    if [ -z "$line" ]; then
        echo "$name: no summary line (exit $rc)"
        total_f=$((total_f + 1)); status=1; return
    fi
    p=$(echo "$line" | sed -E 's/^[^:]*: ([0-9]+) passed.*/\1/')
    f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    total_p=$((total_p + p)); total_f=$((total_f + f))
    if [ "$rc" != 0 ] || [ "$f" != 0 ]; then status=1; fi
}
run_suite unit $UNIT
for s in tests/suite_*.sh; do
    [ -f "$s" ] || continue
    run_suite "$s" sh "$s"
done
echo "$total_p passed, $total_f failed"
exit $status
