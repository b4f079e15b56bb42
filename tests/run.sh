#!/bin/sh
# Runs the unit tests ($UNIT) and the shell suites (which use $CAPPLAN):
# every tests/suite_*.sh, or the ones named as arguments (`make check`
# names its tier's). Each suite prints "NAME: P passed, F failed, S
# skipped"; this adds them up and ends with the seconds each suite took,
# slowest first, and the total line, exiting non-zero on any failure.
#
#   sh tests/run.sh [tests/suite_NAME.sh...]
set -u
: "${CAPPLAN:=build/capplan}" "${UNIT:=build/unit_tests}"
export CAPPLAN UNIT LC_ALL=C OPENBLAS_NUM_THREADS=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
total_p=0 total_f=0 total_s=0 status=0
: >"$out/times"
if [ $# -gt 0 ]; then suites=$*; else suites=$(ls tests/suite_*.sh); fi

# now: seconds since the epoch, with centiseconds where date has them
now() {
    date +%s.%N 2>/dev/null | cut -c 1-13
}
# tally NAME RC LOG SECONDS: prints a suite's output and adds up its
# summary line
tally() {
    name=$1 rc=$2 log=$3
    cat "$log"
    echo "$4 $name" >>"$out/times"
    line=$(grep -E '^[a-z0-9_-]+: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    if [ -z "$line" ]; then
        echo "$name: no summary line (exit $rc)"
        total_f=$((total_f + 1)); status=1; return
    fi
    p=$(echo "$line" | sed -E 's/^[^:]*: ([0-9]+) passed.*/\1/')
    f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    s=$(echo "$line" | sed -E -n 's/.* ([0-9]+) skipped.*/\1/p')
    total_p=$((total_p + p)); total_f=$((total_f + f)); total_s=$((total_s + ${s:-0}))
    if [ "$rc" != 0 ] || [ "$f" != 0 ]; then status=1; fi
}
run_suite() {
    name=$1; shift
    t0=$(now)
    "$@" >"$out/log" 2>&1
    rc=$?
    tally "$name" $rc "$out/log" "$(echo "$(now) $t0" | awk '{ printf "%.1f", $1 - $2 }')"
}
# CP_SUITE_JOBS=N runs N at a time, the unit tests among them (`make
# test`, `make check`, `make asan` and `make valgrind` use 2: the suites
# are CPU-bound); the slowest start first (CP_SUITE_FIRST, from the
# seconds line of a full run) so the two cores end together, and the
# output still comes in suite order.
: "${CP_SUITE_FIRST:=property plan lp report determinism hostile place scale execution reasons whatif costs}"
if [ "${CP_SUITE_JOBS:-1}" -gt 1 ]; then
    order=unit
    for f in $CP_SUITE_FIRST; do
        for s in $suites; do [ "$s" = "tests/suite_$f.sh" ] && order="$order $s"; done
    done
    for s in $suites; do
        case " $order " in *" $s "*) ;; *) order="$order $s" ;; esac
    done
    # shellcheck disable=SC2086
    printf '%s\n' $order | xargs -P "$CP_SUITE_JOBS" -I{} sh -c \
        'n=$(basename "$1"); t0=$(date +%s); if [ "$1" = unit ]; then $UNIT; else sh "$1"; fi >"$2/$n.log" 2>&1; echo $? >"$2/$n.rc"; echo $(($(date +%s) - t0)) >"$2/$n.sec"' sh {} "$out"
    for s in unit $suites; do
        n=$(basename "$s")
        tally "$s" "$(cat "$out/$n.rc" 2>/dev/null || echo 1)" "$out/$n.log" "$(cat "$out/$n.sec" 2>/dev/null || echo 0)"
    done
else
    run_suite unit $UNIT
    for s in $suites; do
        [ -f "$s" ] || { echo "$s: no such suite"; total_f=$((total_f + 1)); status=1; continue; }
        run_suite "$s" sh "$s"
    done
fi
echo "seconds: $(sort -rn "$out/times" | awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $2, $1 }')" |
    sed 's|tests/suite_||g; s|\.sh||g'
echo "$total_p passed, $total_f failed, $total_s skipped"
exit $status
