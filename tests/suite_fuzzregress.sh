#!/bin/sh
# Replays every input that ever made a fuzzer fail (tests/fuzz-regress/,
# see docs/reliability.md) through the normal binary $CAPPLAN, the way a
# user would run it, and asserts a clean end: an exit status the command
# documents, no signal, and no sanitizer or valgrind report on stderr
# (under `make asan` and `make valgrind` that is a real memory check).
#
#   load/NAME     a YAML input; a line "--8<--" splits it into files
#                 a.yaml, b.yaml, c.yaml (as fuzz/fuzz_load.c does). Runs
#                 `check` (0 or 2), then `plan --method heuristic` and
#                 `plan --method milp` (0, 2, 3 or 4) and, when a plan is
#                 written, `verify` on it, which must accept it (0).
#   pending/load/NAME  the same, for inputs whose bug is not fixed yet in
#                 a module owned elsewhere (they still crash the harness,
#                 so fuzz/run.sh does not seed them; see the README there)
#   csv/NAME      first byte picks the command (fuzz/fuzz_csv.c): k/K
#                 import skypilot, g/j import gavel (CSV/JSON), c import
#                 c3o, d/t/a fit dataflow/training; exit 0, 1 or 2.
#   scenarios/NAME  a scenarios file for `whatif` over examples/tiny.yaml
#                 (0, 2 or 3) when the command exists.
# Ends with "fuzzregress: P passed, F failed".
SUITE=fuzzregress
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
R=tests/fuzz-regress

# run WHAT ALLOWED CMD...: runs capplan CMD, checks the status is one of
# ALLOWED (space separated) and stderr has no sanitizer/valgrind report.
run() {
    what=$1 allowed=$2
    shift 2
    # $CAPPLAN is word-split on purpose (valgrind wrappers)
    # shellcheck disable=SC2086
    timeout "$limit" $CAPPLAN "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if grep -Eq '^==[0-9]+==|runtime error:|Sanitizer' "$tmp/err"; then
        bad "$what" "sanitizer or valgrind report"
        head -n 30 "$tmp/err"
        return 1
    fi
    case " $allowed " in
    *" $rc "*) ok "$what"; return 0 ;;
    esac
    bad "$what" "exit $rc, expected one of $allowed"
    head -n 10 "$tmp/err"
    return 1
}

for f in "$R"/load/* "$R"/pending/load/*; do
    [ -f "$f" ] || continue
    n=${f##*/}
    rm -f "$tmp"/[abc].yaml
    awk -v d="$tmp" 'BEGIN { n = 0; names = "abc" }
        /^--8<--$/ && n < 2 { n++; next }
        { print > (d "/" substr(names, n + 1, 1) ".yaml") }' "$f"
    [ -f "$tmp/a.yaml" ] || : >"$tmp/a.yaml"
    files=$(ls "$tmp"/[abc].yaml)
    # shellcheck disable=SC2086
    run "load/$n check" "0 2" check $files
    for m in heuristic milp; do
        rm -f "$tmp/plan.yaml"
        # shellcheck disable=SC2086
        run "load/$n plan --method $m" "0 2 3 4" plan --quiet --no-timing --method $m \
            --time-limit 5 --node-limit 200 -o "$tmp/plan.yaml" $files || continue
        if [ "$rc" = 0 ] && [ -f "$tmp/plan.yaml" ]; then
            # shellcheck disable=SC2086
            run "load/$n verify ($m plan)" "0" verify --plan "$tmp/plan.yaml" $files
        fi
    done
done

for f in "$R"/csv/*; do
    [ -f "$f" ] || continue
    n=${f##*/}
    sel=$(head -c 1 "$f")
    case $sel in
    g | k | K | d | t | a) ext=csv ;;
    j) ext=json ;;
    c) ext=tsv ;;
    *) ext= ;;
    esac
    [ -n "$ext" ] || continue
    in=$tmp/in.$ext
    tail -c +2 "$f" >"$in"
    case $sel in
    k) run "csv/$n" "0 1 2" import skypilot "$in" -o "$tmp/o.yaml" ;;
    K) run "csv/$n" "0 1 2" import skypilot "$in" -o "$tmp/o.yaml" --accelerators V100,A100,T4 \
        --site dc --types '^[a-z]' --provider gcp ;;
    g | j) run "csv/$n" "0 1 2" import gavel "$in" -o "$tmp/o.yaml" ;;
    c) run "csv/$n" "0 1 2" import c3o "$in" -o "$tmp/o.csv" ;;
    d) run "csv/$n" "0 1 2" fit dataflow "$in" -o "$tmp/o.yaml" ;;
    t) run "csv/$n" "0 1 2" fit training "$in" -o "$tmp/o.yaml" ;;
    a) run "csv/$n" "0 1 2" fit training "$in" --scaling amdahl -o "$tmp/o.yaml" ;;
    esac
done

if $CAPPLAN whatif --help >/dev/null 2>&1; then
    for f in "$R"/scenarios/*; do
        [ -f "$f" ] || continue
        run "scenarios/${f##*/}" "0 2 3" whatif --quiet --method heuristic --time-limit 5 \
            --scenarios "$f" -o "$tmp/table.md" examples/tiny.yaml
    done
fi

test_done
