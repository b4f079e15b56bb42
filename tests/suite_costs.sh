#!/bin/sh
# What each job costs (capplan.5 §10.1): the hand-computed cases of
# tests/costs/*.yaml, each with one feasible plan, so that every method
# must find it. Each case says in its comments how its figures follow,
# and in its header what they are:
#   # expect-total: T
#   # expect-cost: JOB C          (one line per scheduled job)
#   # expect-unattributed: U
#   # expect-team: TEAM COST ACC_HOURS (one line per team, capplan.5 §10.2)
# For every method of `capplan plan --help` the plan verifies (verify
# re-derives each job's cost on its own) and has those figures, and the
# jobs' costs, unattributed and the penalties add up to the total; each
# team's entry of `teams` has its figures. The JSON plan verifies with
# the same costs; the CSV plan has each cost in its `cost` column, and
# its rows, summed by their `team`, give each team's figures. Also:
# plan's summary of the costs and teams, and a dataflow job held by its
# team's quota in verify. Goldens: the plan of share.yaml (YAML) and of
# pool.yaml (CSV); verify's report of plans whose costs are wrong.
SUITE=costs
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

METHODS="auto milp heuristic lagrange pop"

# job_cost PLAN NAME: the `cost` of job NAME in a YAML plan (empty: none)
job_cost() {
    awk -v n="$2" '
        /^[a-z]/ { injobs = ($0 == "jobs:") }
        injobs && /^- name: / { cur = substr($0, 9); gsub(/"/, "", cur) }
        injobs && /^  cost: / && cur == n { print $2 }' "$1"
}

# team_figure PLAN TEAM KEY: KEY of team TEAM's entry of a YAML plan's `teams`
team_figure() {
    awk -v n="$2" -v k="  $3: " '
        /^[a-z]/ { inteams = ($0 == "teams:") }
        inteams && /^- name: / { cur = substr($0, 9); gsub(/"/, "", cur) }
        inteams && cur == n && index($0, k) == 1 { print substr($0, length(k) + 1) }' "$1"
}

# csv_team_sum CSV TEAM COLUMN: the sum of COLUMN over TEAM's rows
csv_team_sum() {
    awk -F, -v n="$2" -v col="$3" '
        NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "team") tc = i; if ($i == col) cc = i } next }
        $tc == n { s += $cc } END { printf "%.17g\n", s }' "$1"
}

# csv_cost CSV NAME: the last field (cost) of job NAME's row
csv_cost() {
    awk -F, -v n="$2" 'NR > 1 && $1 == n { print $NF }' "$1"
}

# check_figures NAME PLAN CASE: the case's total, job costs and
# unattributed, and their sum with the penalties
check_figures() {
    cf_t=$(plan_total "$2")
    num_eq "$cf_t" "$(sed -n 's/^# expect-total: *//p' "$3")" 1e-12 && ok ||
        bad "$1" "total $cf_t"
    cf_u=$(plan_field "$2" unattributed)
    num_eq "$cf_u" "$(sed -n 's/^# expect-unattributed: *//p' "$3")" 1e-12 1e-12 && ok ||
        bad "$1" "unattributed $cf_u"
    cf_sum="$cf_u + $(plan_field "$2" penalty)"
    while read -r cf_job cf_want; do
        cf_got=$(job_cost "$2" "$cf_job")
        num_eq "$cf_got" "$cf_want" 1e-12 && ok || bad "$1" "job $cf_job: cost '$cf_got', hand-computed $cf_want"
        cf_sum="$cf_sum + ${cf_got:-0}"
    done <<EOF
$(sed -n 's/^# expect-cost: *//p' "$3")
EOF
    while read -r cf_team cf_cost cf_acch; do
        [ -n "$cf_team" ] || continue
        cf_got=$(team_figure "$2" "$cf_team" cost)
        num_eq "$cf_got" "$cf_cost" 1e-12 && ok || bad "$1" "team $cf_team: cost '$cf_got', hand-computed $cf_cost"
        cf_got=$(team_figure "$2" "$cf_team" accelerator_hours)
        num_eq "$cf_got" "$cf_acch" 1e-12 && ok ||
            bad "$1" "team $cf_team: accelerator_hours '$cf_got', hand-computed $cf_acch"
    done <<EOF
$(sed -n 's/^# expect-team: *//p' "$3")
EOF
    cf_sum=$(awk "BEGIN { printf \"%.17g\", $cf_sum }")
    num_eq "$cf_sum" "$cf_t" 1e-12 1e-12 && ok || bad "$1" "costs + unattributed + penalties = $cf_sum, total $cf_t"
}

for f in tests/costs/*.yaml; do
    n=$(basename "$f" .yaml)
    for m in $METHODS; do
        plan_verify "$n/$m" "$tmp/$n.$m.yaml" --method "$m" -- "$f" || continue
        check_figures "$n/$m" "$tmp/$n.$m.yaml" "$f"
    done
    # JSON: the reader reads the same keys; verify checks them
    run_plan "$tmp/$n.json" --method milp --format json "$f"
    if [ "$rc" = 0 ] && verify_ok "$n/json" "$tmp/$n.json" "$f"; then
        grep -q '"unattributed": ' "$tmp/$n.json" && ok || bad "$n/json" "no totals.unattributed"
    fi
    # CSV: the cost column, empty for a dropped job
    run_plan "$tmp/$n.csv" --method milp --format csv "$f"
    if [ "$rc" = 0 ] && head -n 1 "$tmp/$n.csv" | grep -q ',cost$'; then ok; else bad "$n/csv" "exit $rc, header $(head -n 1 "$tmp/$n.csv")"; fi
    while read -r cj cw; do
        cg=$(csv_cost "$tmp/$n.csv" "$cj")
        num_eq "$cg" "$cw" 1e-12 && ok || bad "$n/csv" "job $cj: cost '$cg', hand-computed $cw"
    done <<EOF
$(sed -n 's/^# expect-cost: *//p' "$f")
EOF
    while read -r ct cc ca; do
        [ -n "$ct" ] || continue
        cg=$(csv_team_sum "$tmp/$n.csv" "$ct" cost)
        num_eq "$cg" "$cc" 1e-12 && ok || bad "$n/csv" "team $ct: costs add up to $cg, hand-computed $cc"
        cg=$(csv_team_sum "$tmp/$n.csv" "$ct" accelerator_hours)
        num_eq "$cg" "$ca" 1e-12 && ok || bad "$n/csv" "team $ct: accelerator_hours add up to $cg, hand-computed $ca"
    done <<EOF
$(sed -n 's/^# expect-team: *//p' "$f")
EOF
done
if [ "$(csv_cost "$tmp/pool.csv" none)" = "" ] && grep -q '^none,dropped,' "$tmp/pool.csv"; then ok; else
    bad pool/csv "the dropped job has a cost: $(grep '^none,' "$tmp/pool.csv")"; fi

# Goldens: a plan whose optimum is the only plan, byte for byte
run_plan "$tmp/share.plan.yaml" --method milp tests/costs/share.yaml
[ "$rc" = 0 ] && ok || bad share/golden "exit $rc"
test_cmp tests/costs/share.plan.expected "$tmp/share.plan.yaml"
run_plan "$tmp/pool.plan.csv" --method milp --format csv tests/costs/pool.yaml
test_cmp tests/costs/pool.csv.expected "$tmp/pool.plan.csv"

# verify: a wrong job cost, a wrong unattributed and a dropped job with a
# cost are violations at their lines; a 1.1 plan without costs is valid
sed -e 's/^  cost: 8$/  cost: 9/' -e 's/^  unattributed: .*/  unattributed: 0/' \
    "$tmp/share.milp.yaml" >"$tmp/wrong.plan.yaml"
capture "$tmp/actual" verify --plan "$tmp/wrong.plan.yaml" tests/costs/share.yaml
sed "s|$tmp/||" "$tmp/actual" >"$tmp/wrong.out"
test_cmp tests/costs/wrong.expected "$tmp/wrong.out"
awk '{ print } /^- name: none$/ { print "  cost: 1" }' "$tmp/pool.milp.yaml" >"$tmp/dropped.plan.yaml"
capture "$tmp/actual" verify --plan "$tmp/dropped.plan.yaml" tests/costs/pool.yaml
if grep -q "dropped.plan.yaml:[0-9]*:9: violation: job 'none' is dropped but has 'cost'" "$tmp/actual" &&
    grep -q '^--- exit 1' "$tmp/actual"; then ok; else bad "verify: dropped with a cost" "$(oneline "$tmp/actual" 3)"; fi
# verify: a team's wrong cost and accelerator-hours, a team the inputs
# do not have (so one of theirs is missing), no `teams` at all
sed -e 's/^  cost: 8.12$/  cost: 8/' -e 's/^  accelerator_hours: 7$/  accelerator_hours: 6/' \
    -e 's/^- name: nlp$/- name: speech/' "$tmp/teams.milp.yaml" >"$tmp/teams-wrong.plan.yaml"
capture "$tmp/actual" verify --plan "$tmp/teams-wrong.plan.yaml" tests/costs/teams.yaml
sed "s|$tmp/||" "$tmp/actual" >"$tmp/teams-wrong.out"
test_cmp tests/costs/teams-wrong.expected "$tmp/teams-wrong.out"
awk '/^[a-z]/ { inteams = ($0 == "teams:") } !inteams' "$tmp/teams.milp.yaml" >"$tmp/teams-none.plan.yaml"
capture "$tmp/actual" verify --plan "$tmp/teams-none.plan.yaml" tests/costs/teams.yaml
if grep -q "teams-none.plan.yaml:1:1: violation: plan: missing 'teams' (the inputs have 2 teams)" "$tmp/actual" &&
    grep -q '^--- exit 1' "$tmp/actual"; then ok; else bad "verify: no teams" "$(oneline "$tmp/actual" 3)"; fi

# plan's summary: what the jobs' costs add up to, the costliest jobs, a
# line per team (tests/costs/teams.yaml)
$CAPPLAN plan --method milp -o "$tmp/summary.plan.yaml" tests/costs/teams.yaml 2>"$tmp/summary.err"
if grep -q "^  jobs' costs \$8.18 + unattributed \$8.00 + drop penalties \$0.00$" "$tmp/summary.err" &&
    grep -q '^  costliest jobs b  *8.00  cloud$' "$tmp/summary.err" &&
    grep -q '^  vision  *2  *7.0  *8.12  *-$' "$tmp/summary.err" &&
    grep -q '^  nlp  *1  *2.0  *0.06  *1.00$' "$tmp/summary.err"; then ok
else bad "plan summary: costs and teams" "$(oneline "$tmp/summary.err" 20)"; fi

# a dataflow job holds its nodes' accelerators of its team's quota: the
# plan of teams_dataflow.yaml against a quota of 3
sed 's/quota: {A: 4}/quota: {A: 3}/' tests/costs/teams_dataflow.yaml >"$tmp/quota3.yaml"
capture "$tmp/actual" verify --plan "$tmp/teams_dataflow.milp.yaml" "$tmp/quota3.yaml"
if grep -q "violation: team 'etl' holds 4 A on pools in slot 0, over its quota of 3 ('join')" "$tmp/actual" &&
    grep -q '^--- exit 1' "$tmp/actual"; then ok; else bad "verify: dataflow over its team's quota" "$(oneline "$tmp/actual" 3)"; fi

for f in share pool; do
    awk '/^[a-z]/ { injobs = ($0 == "jobs:") }
         !(injobs && /^  cost: /) && !/^  unattributed: /' "$tmp/$f.milp.yaml" >"$tmp/$f.v11.yaml"
    verify_ok "$f/1.1 plan" "$tmp/$f.v11.yaml" "tests/costs/$f.yaml"
done

test_done
