#!/bin/sh
# Runs each libFuzzer harness for SECONDS on its seeds and fails on the
# first crash, leak, timeout or sanitizer report.
#   sh fuzz/run.sh BUILD_DIR SECONDS fuzz_load fuzz_csv ...
# Seeds are gathered from examples/ and tests/ (good and bad inputs) and
# tests/fuzz-regress/NAME/ (every input that ever crashed; fuzz_roundtrip
# takes fuzz_load's seeds, fuzz_fitout fuzz_csv's, fuzz_export fuzz_load's
# and each slurm and handoff test input followed by its plan, and
# fuzz/seeds/export (an input, a plan and its re-plan), fuzz_opts the command
# lines of tests/cli/messages.expected and fuzz/seeds/opts, fuzz_solution the solutions and
# plans of tests/place (and tests/place/services) with each format byte, fuzz_shard the shards of
# fuzz/seeds/shard); new inputs found go
# to BUILD_DIR/corpus/NAME, which later runs reuse. fuzz_import also
# takes the heads (60 lines) of the real series, node lists, Pollux and
# Philly files and Gavel traces of examples/data.
# A crashing input is saved as BUILD_DIR/crash-NAME-*: copy it to
# tests/fuzz-regress/NAME/ once fixed. Extra libFuzzer flags: FUZZ_FLAGS.
set -u
build=$1 secs=$2
shift 2
status=0
for name in "$@"; do
    short=${name#fuzz_}
    seed=$build/seed/$short corpus=$build/corpus/$short
    rm -rf "$seed"
    mkdir -p "$seed" "$corpus"
    case $short in
    load | roundtrip) find examples tests -name '*.yaml' -not -path '*/fuzz-regress/*' ;;
    export) { find examples tests -name '*.yaml' -not -path '*/fuzz-regress/*'; ls fuzz/seeds/export/*; } ;;
    csv | fitout) find tests -name '*.csv' -o -name '*.tsv' -o -name '*.json' | grep -v fuzz-regress ;;
    scenarios) { ls examples/*whatif*.yaml; find tests/whatif tests/bad -name '*.yaml'; } 2>/dev/null ;;
    opts) echo tests/cli/messages.expected; ls fuzz/seeds/opts/* ;;
    solution) ls tests/place/*.sol tests/place/*.yaml tests/place/services/*.sol tests/place/services/*.yaml ;;
    shard) ls fuzz/seeds/shard/* ;;
    import)
        find tests/import -name '*.csv' -o -name '*.trace'
        d=examples/data
        find "$d/green-dcc/electricity_prices_processed" "$d/green-dcc/carbon_intensity" \
            "$d/lets-wait-awhile" "$d/alibaba-gpu" "$d/pollux" "$d/gavel" -name '*.csv' -o -name '*.trace'
        ;;
    esac | while read -r f; do
        # The file's path keeps names unique; csv seeds get the selector
        # byte the harness reads first (see fuzz/fuzz_csv.c).
        dst=$seed/$(echo "$f" | tr / _)
        if [ "$short" = csv ] || [ "$short" = fitout ]; then
            for s in k K g j c d t a x; do { printf '%s' "$s"; cat "$f"; } >"$dst.$s"; done
        elif [ "$short" = solution ]; then
            # the format byte of fuzz/fuzz_solution.c: glpsol, cbc, plan,
            # auto; upper case for the services' input
            case $f in */services/*) fmts="G C P A" ;; *) fmts="g c p a" ;; esac
            for s in $fmts; do { printf '%s' "$s"; cat "$f"; } >"$dst.$s"; done
        elif [ "$short" = import ]; then
            # the selectors of fuzz/fuzz_import.c; -max_len cuts the rest
            for s in e E c C i I A p P h H t a; do
                { printf '%s' "$s"; head -n 60 "$f"; } >"$dst.$s"
            done
        elif [ "$short" = opts ]; then
            # each command line of the CLI's goldens, its words after
            # "capplan" (the command first) one a line, as the harness
            # splits them
            grep '^\$ capplan ' "$f" | while read -r _ _ words; do
                printf '%s\n' $words >"$seed/line$(printf '%s' "$words" | cksum | cut -d' ' -f1)"
            done
        elif [ "$short" = export ]; then
            # tests/slurm's inputs name this machine's host as @HOST@
            sed 's/@HOST@/cp-test-host/g' "$f" >"$dst"
        else
            cp "$f" "$dst"
        fi
    done
    # fuzz_export: each input with its plan, as the harness splits them
    if [ "$short" = export ]; then
        for pair in slurm/input:slurm/plan slurm/cloud:slurm/cloud.plan \
            handoff/share:handoff/share.plan handoff/serve:handoff/serve.plan; do
            { sed 's/@HOST@/cp-test-host/g' "tests/${pair%:*}.yaml"; printf '\n--8<--\n'
              cat "tests/${pair#*:}.yaml"; } \
                >"$seed/pair_$(echo "$pair" | tr /: __)"
        done
    fi
    [ -d "tests/fuzz-regress/$short" ] && cp tests/fuzz-regress/"$short"/* "$seed"/ 2>/dev/null
    dict= mask=1
    # The importers warn on stderr for every odd row: keep it out of the
    # log (libFuzzer still prints sanitizer reports through its own copy).
    # fuzz_opts runs the commands, which print their usage and bad lines.
    case $short in csv | fitout | import | opts) mask=3 ;; esac
    [ -f "fuzz/$short.dict" ] && dict=-dict=fuzz/$short.dict
    log=$build/$name.log
    echo "fuzz: $name for ${secs}s (log $log)"
    # shellcheck disable=SC2086
    ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1 \
        "$build/$name" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
        -print_final_stats=1 -close_fd_mask=$mask -artifact_prefix="$build/crash-$short-" \
        $dict ${FUZZ_FLAGS:-} "$corpus" "$seed" >"$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    if [ "$rc" != 0 ]; then
        tail -n 60 "$log"
        echo "fuzz: $name FAILED (exit $rc) after ${runs:-?} runs; input saved as $build/crash-$short-*"
        status=1
    else
        echo "fuzz: $name OK, ${runs:-?} runs, corpus $(ls "$corpus" | wc -l) inputs"
    fi
done
exit $status
