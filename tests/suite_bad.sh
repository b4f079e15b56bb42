#!/bin/sh
# Bad-input corpus and `check` goldens (SPEC sections 1 and 2).
#
#   tests/bad/NAME.yaml   an input that must be refused: `capplan check`
#                         exits 2, prints nothing on stdout, and its stderr
#                         equals tests/bad/NAME.err byte for byte.
#   tests/bad/NAME.args   instead of NAME.yaml: the arguments to `check`
#                         (paths relative to the repository root), for
#                         multi-file cases, missing files and directories.
#                         Files used only by .args cases live in
#                         tests/bad/parts/ so they are not cases themselves.
#   tests/check/NAME.yaml (or .args) a valid input: exit 0, empty stderr,
#                         stdout equals tests/check/NAME.out.
#
# Every case runs under a time limit, so pathological inputs (alias
# bombs, deep nesting) must fail fast. `--update` rewrites the goldens
# from the current binary; only ever on request, then read the diff.
# Ends with "bad: P passed, F failed"; exits non-zero on any failure.
set -u
cd "$(dirname "$0")/.." || exit 2
: "${CAPPLAN:=build/capplan}"
LC_ALL=C
export LC_ALL
update=0
if [ "${1:-}" = "--update" ]; then
    update=1
fi
limit=${CP_TEST_TIMEOUT:-30}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL $1: $2"
}

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

for name in $(names tests/bad); do
    run tests/bad "$name"
    exp=tests/bad/$name.err
    if [ "$update" = 1 ] && [ "$rc" = 2 ]; then
        cp "$tmp/err" "$exp"
    fi
    if [ "$rc" != 2 ]; then
        bad "bad/$name" "exit status $rc, expected 2"
        cat "$tmp/err"
    elif [ -s "$tmp/out" ]; then
        bad "bad/$name" "unexpected output on stdout"
        cat "$tmp/out"
    elif [ ! -f "$exp" ]; then
        bad "bad/$name" "no $exp (run with --update and read it)"
        cat "$tmp/err"
    elif ! diff -u "$exp" "$tmp/err"; then
        bad "bad/$name" "stderr differs from $exp"
    else
        ok
    fi
done

for name in $(names tests/check); do
    run tests/check "$name"
    exp=tests/check/$name.out
    if [ "$update" = 1 ] && [ "$rc" = 0 ]; then
        cp "$tmp/out" "$exp"
    fi
    if [ "$rc" != 0 ]; then
        bad "check/$name" "exit status $rc, expected 0"
        cat "$tmp/err"
    elif [ -s "$tmp/err" ]; then
        bad "check/$name" "unexpected output on stderr"
        cat "$tmp/err"
    elif [ ! -f "$exp" ]; then
        bad "check/$name" "no $exp (run with --update and read it)"
    elif ! diff -u "$exp" "$tmp/out"; then
        bad "check/$name" "stdout differs from $exp"
    else
        ok
    fi
done

# An unreadable file: root reads anything, so this runs only for others.
if [ "$(id -u)" != 0 ]; then
    cp tests/check/aliases.yaml "$tmp/unreadable.yaml" && chmod 000 "$tmp/unreadable.yaml"
    # shellcheck disable=SC2086
    timeout "$limit" $CAPPLAN check "$tmp/unreadable.yaml" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    echo "$tmp/unreadable.yaml: error: cannot open: Permission denied" >"$tmp/exp"
    if [ "$rc" = 2 ] && diff -u "$tmp/exp" "$tmp/err"; then
        ok
    else
        bad "unreadable" "exit status $rc"
    fi
fi

echo "bad: $pass passed, $fail failed"
[ "$fail" = 0 ]
