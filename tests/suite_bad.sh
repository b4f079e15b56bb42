#!/bin/sh
# Bad-input corpus and `check` goldens (capplan.5 §1 and §2).
#
#   tests/bad/NAME.yaml   an input that must be refused: `capplan check`
#                         exits 2, prints nothing on stdout, and its stderr
#                         equals tests/bad/NAME.err byte for byte.
#   tests/bad/NAME.args   instead of NAME.yaml: the arguments to `check`
#                         (paths relative to the repository root), for
#                         multi-file cases, missing files and directories.
#                         Files used only by .args cases live in
#                         tests/bad/parts/ so they are not cases themselves.
#   tests/check/NAME.yaml (or .args) a valid input: exit 0, stdout equals
#                         tests/check/NAME.out, stderr tests/check/NAME.err
#                         (check's warnings, cp_advice.h) or, without that
#                         file, nothing.
#
# Every case runs under a time limit, so pathological inputs (alias
# bombs, deep nesting) must fail fast. `--update` (or CP_GOLDEN_UPDATE=1)
# rewrites the goldens that differ from the current binary's output, for
# cases with the right exit status and an empty other stream; only ever on
# request, then read the diff.
# Ends with "bad: P passed, F failed, S skipped"; exits non-zero on any failure.
SUITE=bad
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
limit=${CP_TEST_TIMEOUT:-30}

# run DIR NAME: sets $args and runs capplan check, output in $tmp/out, $tmp/err
run() {
    if [ -f "$1/$2.args" ]; then
        args=$(cat "$1/$2.args")
    else
        args="$1/$2.yaml"
    fi
    # $CAPPLAN and $args are word-split on purpose (valgrind wrappers, file lists)
    # shellcheck disable=SC2086
    timeout "$limit" $CAPPLAN check $args >"$tmp/out" 2>"$tmp/err"
    rc=$?
}

# case names: every NAME.yaml and NAME.args of a directory, once each
names() {
    for f in "$1"/*.yaml "$1"/*.args; do
        [ -f "$f" ] || continue
        b=${f##*/}
        echo "${b%.*}"
    done | sort -u
}

# corpus DIR RC STREAM OTHER: every case of DIR exits RC, writes nothing
# on standard OTHER (out or err), and its standard STREAM equals
# DIR/NAME.STREAM byte for byte.
corpus() {
    dir=$1 want=$2 keep=$3 other=$4
    for name in $(names "$dir"); do
        run "$dir" "$name"
        if [ "$rc" != "$want" ]; then
            bad "$dir/$name" "exit status $rc, expected $want"
            cat "$tmp/err"
        elif [ -s "$tmp/$other" ] && [ ! -f "$dir/$name.$other" ]; then
            bad "$dir/$name" "unexpected output on std$other"
            cat "$tmp/$other"
        else
            test_cmp "$dir/$name.$keep" "$tmp/$keep"
            [ -f "$dir/$name.$other" ] && test_cmp "$dir/$name.$other" "$tmp/$other"
        fi
    done
}
corpus tests/bad 2 err out
corpus tests/check 0 out err

# An unreadable file: root reads anything, so this runs only for others.
if [ "$(id -u)" != 0 ]; then
    cp tests/check/aliases.yaml "$tmp/unreadable.yaml" && chmod 000 "$tmp/unreadable.yaml"
    # shellcheck disable=SC2086
    timeout "$limit" $CAPPLAN check "$tmp/unreadable.yaml" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    echo "$tmp/unreadable.yaml: error: cannot open: Permission denied" >"$tmp/exp"
    # not a golden: the update switch must not turn this into a pass
    if [ "$rc" = 2 ] && diff -u "$tmp/exp" "$tmp/err"; then ok; else bad "unreadable" "exit status $rc"; fi
fi

test_done
