#!/bin/sh
# Measures how well `capplan plan --time-limit L` keeps its limit
# (docs/reliability.md, "Time limit and interruption"). A measurement, not a test: it prints a
# table and never fails. Wall time depends on the machine and its load.
#
#   sh tests/gen/timelimit.sh [CAPPLAN] [LIMITS]
#
# For each input and limit: the wall time of the whole run (load, solve,
# placement, write) and the overshoot past the limit. The inputs are
# examples/nightly and instances of tests/gen/geninst.c chosen so that one
# phase dominates: the MILP's LP relaxation (300 jobs x 60 slots), the
# MILP's branch and bound (600 x 24), placement repairs (2000 x 150) and
# the heuristic's construction (2000 x 300). Then the same inputs with
# --time-limit 30 and SIGINT after 0.5 s: the time from the signal to the
# exit (the plan is written with status interrupted).
set -u
cd "$(dirname "$0")/../.." || exit 2
capplan=${1:-build/capplan}
limits=${2:-"1 3"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -std=c11 -O2 -o "$tmp/geninst" tests/gen/geninst.c -lm || exit 2
cc -std=c11 -O2 -o "$tmp/sigrun" tests/gen/sigrun.c || exit 2
"$tmp/geninst" 11 300 60 >"$tmp/lp.yaml"
"$tmp/geninst" 11 600 24 >"$tmp/bb.yaml"
"$tmp/geninst" 5 2000 150 >"$tmp/place.yaml"
"$tmp/geninst" 3 2000 300 >"$tmp/heur.yaml"
now() { perl -MTime::HiRes=time -e 'printf "%.3f\n", time'; }
printf '%-22s %-9s %5s %8s %9s  %s\n' input method limit wall overshoot status
for spec in "nightly auto" "lp auto" "bb auto" "place auto" "heur auto" "lp milp"; do
    set -- $spec
    case $1 in
    nightly) files=$(ls examples/nightly/*.yaml | tr '\n' ' ') ;;
    *) files=$tmp/$1.yaml ;;
    esac
    for l in $limits; do
        t0=$(now)
        # shellcheck disable=SC2086
        $capplan plan --quiet --method "$2" --time-limit "$l" -o "$tmp/p.yaml" $files 2>/dev/null
        rc=$?
        t1=$(now)
        st=$(sed -n 's/^status: //p' "$tmp/p.yaml" 2>/dev/null)
        awk -v n="$1" -v m="$2" -v l="$l" -v a="$t0" -v b="$t1" -v s="${st:-none} (exit $rc)" \
            'BEGIN { w = b - a; printf "%-22s %-9s %5s %8.2f %9.2f  %s\n", n, m, l, w, w - l, s }'
        rm -f "$tmp/p.yaml"
    done
done

printf '\n%-22s %-9s %8s  %s\n' input method "delay" "result"
for spec in "nightly auto" "lp auto" "bb auto" "place auto" "heur auto"; do
    set -- $spec
    case $1 in
    nightly) files=$(ls examples/nightly/*.yaml | tr '\n' ' ') ;;
    *) files=$tmp/$1.yaml ;;
    esac
    # shellcheck disable=SC2086
    r=$("$tmp/sigrun" -d 500 -- $capplan plan --quiet --method "$2" --time-limit 30 -o "$tmp/p.yaml" $files 2>/dev/null)
    printf '%-22s %-9s %8s  %s\n' "$1" "$2" 500ms "$r"
    rm -f "$tmp/p.yaml"
done
