#!/bin/sh
# Golden tests of `capplan verify`: each tests/verify/NAME.plan.{yaml,json}
# is checked against tests/verify/input.yaml and the report is compared
# with tests/verify/NAME.expected: standard output, then "--- stderr" and
# standard error, then "--- exit N". `sh tests/suite_verify.sh --update`
# (or CP_GOLDEN_UPDATE=1) rewrites the expected files that differ (review
# the diff before committing).
# The summary line starts with "verify-suite:" so that it can never be
# mistaken for a "verify: OK" line of the command itself.
SUITE=verify-suite
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

for plan in tests/verify/*.plan.yaml tests/verify/*.plan.json; do
    [ -f "$plan" ] || continue
    name=$(basename "$plan")
    name=${name%.plan.yaml}
    name=${name%.plan.json}
    case "$plan" in *.json) name="$name-json" ;; esac
    capture "$tmp/actual" verify --plan "$plan" tests/verify/input.yaml
    test_cmp "tests/verify/$name.expected" "$tmp/actual"
done

# Usage errors: exit 2 with a message on stderr and nothing on stdout.
usage_fails "usage: no --plan" verify tests/verify/input.yaml
usage_fails "usage: no inputs" verify --plan tests/verify/valid.plan.yaml
usage_fails "usage: missing plan file" verify --plan tests/verify/no-such.plan.yaml tests/verify/input.yaml
usage_fails "usage: unknown option" verify --frobnicate --plan tests/verify/valid.plan.yaml tests/verify/input.yaml
usage_fails "usage: bad input" verify --plan tests/verify/valid.plan.yaml tests/verify/valid.plan.yaml

# --help: exit 0, usage on stdout.
if $CAPPLAN verify --help | grep -q '^usage: capplan verify'; then ok; else bad "--help" "no usage line"; fi

test_done
