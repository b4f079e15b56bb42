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
#   export/NAME   fuzz_export's layout: load/'s files, the last one a
#                 plan when there are two or more and it has a `status`
#                 key (else the plan is `plan --method heuristic`'s);
#                 `export slurm` and `export skypilot` of it (0 or 2).
#   scenarios/NAME  a scenarios file for `whatif` over examples/tiny.yaml
#                 (0, 2 or 3) when the command exists.
#   import/NAME   first byte picks the importer and its options
#                 (fuzz/fuzz_import.c): e/E/c/C import series, i/I
#                 inventory, p/P pollux, h/H pollux with the file as
#                 --trace of tests/attack/placements.csv, a accelerators
#                 (t and A read the harness's own second file: not
#                 replayed); exit 0 or 2, and the importer itself refuses
#                 what the loader would (no "internal error" or "not a
#                 finite number" of the CLI's read-back).
# Ends with "fuzzregress: P passed, F failed, S skipped".
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

for f in "$R"/import/*; do
    [ -f "$f" ] || continue
    n=${f##*/}
    in=$tmp/in.csv
    tail -c +2 "$f" >"$in"
    series="--site dc --horizon --start 2023-06-01T00:00 --slots 24"
    case $(head -c 1 "$f") in
    e) set -- series $series --energy-price "$in" ;;
    E) set -- series --site dc --horizon --start 2023-06-01T00:00Z --slots 6 --slot-hours 2 \
        --column 'Price (SGD/MWh)' --scale 0.74 --energy-price "$in" ;;
    c) set -- series $series --carbon "$in" ;;
    C) set -- series --site dc --horizon --start '2020-06-01 01:00+01:00' --slots 12 \
        --slot-hours 0.5 --pue 1.2 --carbon "$in" ;;
    i) set -- inventory "$in" --site dc ;;
    I) set -- inventory "$in" --site dc --cpu-nodes --models T4,P100,V100M32,G2 --max-nodes 2 ;;
    p) set -- pollux "$in" --app app ;;
    P) set -- pollux "$in" --app app --all-counts --local-bsz 32 ;;
    h) set -- pollux tests/attack/placements.csv --app app --trace "$in" ;;
    H) set -- pollux tests/attack/placements.csv --app app --trace "$in" --cluster 6214e9 \
        --max-jobs 5 --start 2017-10-09T00:00 --all-counts ;;
    a) set -- accelerators --accel-table "$in" ;;
    *) continue ;;
    esac
    if run "import/$n" "0 2" import "$@" -o "$tmp/o.yaml" &&
        grep -q -e 'internal error' -e 'is not a finite number' "$tmp/err"; then
        bad "import/$n" "the CLI's read-back caught what the importer let through: $(oneline "$tmp/err")"
    fi
done
for f in "$R"/export/*; do
    [ -f "$f" ] || continue
    n=${f##*/}
    rm -f "$tmp"/[abc].yaml "$tmp/plan.yaml"
    awk -v d="$tmp" 'BEGIN { n = 0; names = "abc" }
        /^--8<--$/ && n < 2 { n++; next }
        { print > (d "/" substr(names, n + 1, 1) ".yaml") }' "$f"
    [ -f "$tmp/a.yaml" ] || : >"$tmp/a.yaml"
    files=$(ls "$tmp"/[abc].yaml)
    last=$(ls "$tmp"/[abc].yaml | tail -n 1)
    if [ "$last" != "$tmp/a.yaml" ] && grep -q '^status:' "$last"; then
        mv "$last" "$tmp/plan.yaml"
        files=$(ls "$tmp"/[abc].yaml)
    else
        # shellcheck disable=SC2086
        run "export/$n plan" "0 2 3 4" plan --quiet --no-timing --method heuristic \
            --time-limit 5 -o "$tmp/plan.yaml" $files || continue
    fi
    [ -f "$tmp/plan.yaml" ] || continue
    for to in slurm skypilot; do
        rm -rf "$tmp/x"
        # shellcheck disable=SC2086
        run "export/$n export $to" "0 2" export $to -q --plan "$tmp/plan.yaml" -o "$tmp/x" $files
    done
done
if $CAPPLAN whatif --help >/dev/null 2>&1; then
    for f in "$R"/scenarios/*; do
        [ -f "$f" ] || continue
        run "scenarios/${f##*/}" "0 2 3" whatif --quiet --method heuristic --time-limit 5 \
            --scenarios "$f" -o "$tmp/table.md" examples/tiny.yaml
    done
fi

test_done
