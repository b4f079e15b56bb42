#!/bin/sh
# capplan explain (docs/explain.md): why a job runs where the plan puts it.
#
# tests/explain/why.yaml, by hand (its header has the arithmetic): its
# plan verifies; for big, small and the dropped late the priced modes,
# the plan's own marked, the others' reasons (the pool taken by small,
# cloud3's quota used by big, $2.00 and $4.95 more, $0.04 more than a
# penalty) are the goldens tests/explain/*.out; on the plan with small
# moved to cloud5 by hand, the pool fits and costs $4.95 less, with the
# reader's warning that the objective is not the choices' total. On the
# nightly example's heuristic plan, --top 2 shows two modes and then the
# plan's own with its rank. Errors: an unknown job, no --plan, no files.
SUITE=explain
. "$(dirname "$0")/lib.sh"
E=tests/explain

verify_ok "why.plan.yaml verifies" $E/why.plan.yaml $E/why.yaml
# the goldens hold standard output, "--- stderr", standard error, the exit
for j in big small late; do
    capture "$tmp/$j.out" explain --plan $E/why.plan.yaml $j $E/why.yaml
    test_cmp $E/$j.out "$tmp/$j.out"
done
capture "$tmp/moved.out" explain --plan $E/moved.plan.yaml small $E/why.yaml
test_cmp $E/moved.out "$tmp/moved.out"

# --top 2 on the nightly: two modes, "...", then the plan's own
nightly="examples/nightly/fleet.yaml examples/nightly/jobs-dataflow.yaml examples/nightly/jobs-training.yaml examples/nightly/offers.yaml examples/nightly/sites.yaml examples/nightly/teams.yaml"
# shellcheck disable=SC2086
run_plan "$tmp/n.yaml" --method heuristic --node-limit 100 $nightly
# shellcheck disable=SC2086
capture "$tmp/top.out" explain --top 2 --plan "$tmp/n.yaml" grep-logs $nightly
ranks=$(grep -E '^[* ] +[0-9]+ ' "$tmp/top.out" | awk '{ print ($1 == "*" ? "*" $2 : $1) }' | tr '\n' ' ')
case "$rc:$ranks" in
0:"1 2 *"[3-9]" " | 0:"1 2 *"[1-9][0-9]" ") ok ;;
*) bad "explain --top 2: ranks '$ranks'" "exit $rc: $(oneline "$tmp/top.out" 4)" ;;
esac
if grep -qx '  \.\.\.' "$tmp/top.out"; then ok; else bad "explain --top 2: no '...' row"; fi

# errors
# errors: one line each, exit 2, nothing on standard output
err_is() {
    if [ "$rc" = 2 ] && [ ! -s "$tmp/cap.out" ] && [ "$(cat "$tmp/cap.err")" = "$1" ]; then ok
    else bad "explain: $1" "exit $rc: $(oneline "$tmp/cap.err")"; fi
}
capture "$tmp/out" explain --plan $E/why.plan.yaml nosuch $E/why.yaml
err_is "capplan explain: no job named 'nosuch' in the inputs"
capture "$tmp/out" explain small $E/why.yaml
err_is "capplan explain: --plan PLAN is required (see 'capplan explain --help')"
capture "$tmp/out" explain --plan $E/why.plan.yaml small
err_is "capplan explain: no input files (see 'capplan explain --help')"

test_done
