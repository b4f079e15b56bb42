#!/bin/sh
# Golden tests of `capplan verify`: each tests/verify/NAME.plan.{yaml,json}
# is checked against tests/verify/input.yaml and the report is compared
# with tests/verify/NAME.expected: standard output, then "--- stderr" and
# standard error, then "--- exit N". `sh tests/suite_verify.sh --update`
# rewrites the expected files (review the diff before committing).
# The summary line starts with "verify-suite:" so that it can never be
# mistaken for a "verify: OK" line of the command itself.
set -u
cd "$(dirname "$0")/.." || exit 2
: "${CAPPLAN:=build/capplan}"
export LC_ALL=C
update=0
[ "${1:-}" = "--update" ] && update=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for plan in tests/verify/*.plan.yaml tests/verify/*.plan.json; do
    [ -f "$plan" ] || continue
    name=$(basename "$plan")
    name=${name%.plan.yaml}
    name=${name%.plan.json}
    case "$plan" in *.json) name="$name-json" ;; esac
    expect=tests/verify/$name.expected
    $CAPPLAN verify --plan "$plan" tests/verify/input.yaml >"$tmp/out" 2>"$tmp/err"
    rc=$?
    { cat "$tmp/out"; echo "--- stderr"; cat "$tmp/err"; echo "--- exit $rc"; } >"$tmp/actual"
    if [ $update = 1 ]; then
        cp "$tmp/actual" "$expect"
    fi
    if [ -f "$expect" ] && diff -u "$expect" "$tmp/actual" >"$tmp/diff"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $plan"
        [ -f "$expect" ] && cat "$tmp/diff" || echo "  missing $expect"
    fi
done

# Usage errors: exit 2 with a message on stderr and nothing on stdout.
usage_case() {
    label=$1; shift
    $CAPPLAN verify "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc = 2 ] && [ ! -s "$tmp/out" ] && [ -s "$tmp/err" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL usage: $label (exit $rc)"
    fi
}
usage_case "no --plan" tests/verify/input.yaml
usage_case "no inputs" --plan tests/verify/valid.plan.yaml
usage_case "missing plan file" --plan tests/verify/no-such.plan.yaml tests/verify/input.yaml
usage_case "unknown option" --frobnicate --plan tests/verify/valid.plan.yaml tests/verify/input.yaml
usage_case "bad input" --plan tests/verify/valid.plan.yaml tests/verify/valid.plan.yaml

# --help: exit 0, usage on stdout.
if $CAPPLAN verify --help | grep -q '^usage: capplan verify'; then
    pass=$((pass + 1))
else
    fail=$((fail + 1)); echo "FAIL --help"
fi

echo "verify-suite: $pass passed, $fail failed"
[ $fail = 0 ]
