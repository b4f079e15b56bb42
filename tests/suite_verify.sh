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

# Version 1.1: instance ids are labels, and at most y(t) distinct ids of a
# market are in use in slot t. Two 1-GPU jobs share one 8-GPU instance
# (y = 1): relabelled both onto m8/7 the plan is still valid; with one of
# them on m8/7 and the other on m8/0 two instances are in use.
cat >"$tmp/labels.yaml" <<'EOF'
horizon: {slots: 2}
accelerators: [{name: G, memory_gb: 80, power_w: 250}]
offers:
  - {name: m8, price_hour: 10, quota: 2,
     instance: {type: gpu, accelerator: G, accelerators: 8, cpus: 64, memory_gb: 512}}
jobs:
  - {name: a, kind: training, work: 3600, throughput: {G: 1}, accelerators: [1], drop_penalty: 100}
  - {name: b, kind: training, work: 3600, throughput: {G: 1}, accelerators: [1], drop_penalty: 100}
EOF
$CAPPLAN plan -q --no-timing --method heuristic -o "$tmp/labels.plan.yaml" "$tmp/labels.yaml"
if [ "$(grep -c 'nodes: \[m8/0\]' "$tmp/labels.plan.yaml")" = 2 ] &&
    grep -q 'instances: \[1, 0\]' "$tmp/labels.plan.yaml"; then ok; else
    bad "labels: both jobs on m8/0, y = [1, 0]" "$(grep -E 'nodes|instances' "$tmp/labels.plan.yaml" | tr '\n' ' ')"; fi
sed 's|m8/0|m8/7|' "$tmp/labels.plan.yaml" >"$tmp/relabelled.yaml"
capture "$tmp/actual" verify --plan "$tmp/relabelled.yaml" "$tmp/labels.yaml"
if grep -q '^verify: OK' "$tmp/actual"; then ok; else bad "labels: relabelled plan" "$(oneline "$tmp/actual")"; fi
awk '!done && /m8\/0/ { sub(/m8\/0/, "m8/7"); done = 1 } { print }' "$tmp/labels.plan.yaml" >"$tmp/two.yaml"
capture "$tmp/actual" verify --plan "$tmp/two.yaml" "$tmp/labels.yaml"
if grep -q "violation: market 'm8': 2 instances in use in slot 0 but 1 rented" "$tmp/actual" &&
    grep -q '^--- exit 1' "$tmp/actual"; then ok; else bad "labels: two ids, one rented" "$(oneline "$tmp/actual" 4)"; fi

# Leases (capplan.5 §5, version 1.1), checked when listed: the planner's own verify; a
# lease that leaves a job out, one that runs past the jobs' slots, and
# one on another id do not.
if grep -q '^  leases:' "$tmp/labels.plan.yaml" && grep -q 'jobs: \[a, b\]' "$tmp/labels.plan.yaml"; then ok; else
    bad "leases: the plan lists one lease with a and b" "$(grep -A5 leases "$tmp/labels.plan.yaml" | tr '\n' ' ')"; fi
lease_fails() { # NAME SED-EXPRESSION EXPECTED-VIOLATION
    sed "$2" "$tmp/labels.plan.yaml" >"$tmp/lease.yaml"
    capture "$tmp/actual" verify --plan "$tmp/lease.yaml" "$tmp/labels.yaml"
    if grep -qF "$3" "$tmp/actual" && grep -q '^--- exit 1' "$tmp/actual"; then ok; else bad "leases: $1" "$(oneline "$tmp/actual" 4)"; fi
}
lease_fails "a job left out" 's/jobs: \[a, b\]/jobs: [a]/' "lease 'm8/0' from slot 0: job 'b' runs on it but is not listed"
lease_fails "past the run" 's/^    slots: 1$/    slots: 2/' "lease 'm8/0' from slot 0 covers slot 1, where no job uses it"
lease_fails "another id" 's|^  - id: m8/0|  - id: m8/3|' "instance 'm8/0' is in use in slot 0 but no lease of 'm8' covers it"
lease_fails "not an id" 's|^  - id: m8/0|  - id: n9/0|' "lease id 'n9/0' is not an instance id of 'm8'"

# Usage errors: exit 2 with a message on stderr and nothing on stdout.
usage_fails "usage: no --plan" verify tests/verify/input.yaml
usage_fails "usage: no inputs" verify --plan tests/verify/valid.plan.yaml
usage_fails "usage: missing plan file" verify --plan tests/verify/no-such.plan.yaml tests/verify/input.yaml
usage_fails "usage: unknown option" verify --frobnicate --plan tests/verify/valid.plan.yaml tests/verify/input.yaml
usage_fails "usage: bad input" verify --plan tests/verify/valid.plan.yaml tests/verify/valid.plan.yaml

# --help: exit 0, usage on stdout.
if $CAPPLAN verify --help | grep -q '^usage: capplan verify'; then ok; else bad "--help" "no usage line"; fi

test_done
