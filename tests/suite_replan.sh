#!/bin/sh
# Re-planning once the night has begun (capplan.5 §10.5): `plan --from OLD
# --now S` and `verify --from OLD --now S`, on examples/tiny.yaml, whose
# optimum is derived by hand in its comments. OLD is its milp plan:
# train-small on rack/1 in slots 0-1, train-wide on rack/0 in 1-2, etl on
# rack/1 in 2-3, total $1.1385.
#
# 1. Unchanged inputs re-plan to OLD for every S and every method: the
#    same bytes but for the re-plan's own lines (replanned, started,
#    totals.changes) and the method, kept without a search (OLD's
#    solver.inputs names the same inputs); from an OLD without
#    solver.inputs the method searches and still returns OLD (but, for
#    the methods without a proof, the solver's status and bound).
# 2. A node failure with checkpoint credit: the rack down from slot 2,
#    train-wide (started at 1 h on rack/0, 1.6 h, checkpoints every 45 min)
#    is broken at S = 2: work_left = 144000 (1 - 0.75 floor(1/0.75)/1.6)
#    = 76500, 0.85 h on the cloud instance ($12) in slot 2; etl, which OLD
#    ran on the rack from 2, is dropped ($500) and changed (P = 5).
#    Total: baseline 2 kWh + train-small 0.6875 kWh = 2.6875 kWh ($0.26875
#    energy, 1.075 kg = $0.05375 carbon) + 12 + 500 + 5 = $517.3225.
# 3. An urgent job (tests/replan/urgent.yaml, $100 to drop) at S = 1 moves
#    one job not yet started, etl or train-wide, to the cloud ($24: both
#    are optimal) when the change costs P = 7: $1.1385 + 24 + 7 = $32.1385;
#    at P = 200 the urgent job is dropped instead: $101.1385.
# 4. A cancelled running job: without etl in the inputs, re-planning at
#    S = 3 a plan that ran etl on the cloud in slots 2-3 keeps slot 2's
#    instance (history) and returns slot 3's.
# 5. Every method on every case, each plan verified with --from.
# 6. Bad inputs: S out of range, OLD of other inputs (each error names the
#    first mismatch at its line), options without --from.
# 10. Services (capplan.5 §10.4), history fixed: tests/services/
#    start_cost.yaml (1 V100 instance at $1/h per replica, 10 requests/s
#    each, $3 a start; load 20, 5, 20) plans to replicas [2, 2, 2], $6 of
#    instances and $6 of starts: $12 (OLD). Every method, every plan
#    verified with --from:
#    - unchanged inputs give OLD back byte for byte, for every S;
#    - slot 0's load was 5, not 20 (re-planned at S = 1): slot 0 keeps
#      OLD's 2 replicas, and slots 1-2 need 2 each, no new start: $12
#      (planned afresh these inputs cost $11: [1, 2, 2], $5 + $6);
#    - the load from S on is 40: at S = 1 slots 1-2 run 4 replicas, 2
#      starts at slot 1 against OLD's 2 in slot 0 ($6): 2 + 8 + 6 + 6 =
#      $22; at S = 2: 2 + 2 + 4 + 6 + 6 = $20;
#    - tests/services/shared_node.yaml (a pool node shared by a service and
#      job a, $0.1/kWh; OLD: 2 replicas in slot 0, 1 and a in slot 1,
#      $0.21) with slot 1's load raised to 20 at S = 1, P = 5: the service
#      takes the whole node in slot 1 too, a is dropped ($100) and changed
#      ($5); energy 2 x 1.2 kWh = $0.24: $105.24.
#    verify catches a replica count, a node and a share changed in the
#    history; OLD that runs replicas before S on a deployment the inputs
#    do not have is an error naming it. `diff` lists the deployment that
#    changed, and `report --from` marks it; `export slurm --from` writes
#    nothing for services that do not change from S on and submits the
#    new replica run of one whose pool replicas do.
# 7. `capplan diff OLD NEW` and `report NEW --from OLD` on the node
#    failure of 2: etl dropped, train-wide restarted, the cost parts' changes
#    (golden tests/replan/diff-down.txt); the report outlines the bar of
#    the restarted job and lists both.
SUITE=replan
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
methods="auto milp heuristic lagrange pop"
tiny=examples/tiny.yaml

# rverify NAME PLAN OLD S FILE...: verify --from OLD --now S says OK with
# the plan's total.
rverify() {
    rv_name=$1 rv_plan=$2 rv_old=$3 rv_now=$4
    shift 4
    verify_ok "$rv_name" "$rv_plan" --from "$rv_old" --now "$rv_now" "$@"
}

# expect NAME PLAN ERE...: each ERE matches a line of PLAN.
expect() {
    ex_name=$1 ex_plan=$2
    shift 2
    for ex_re in "$@"; do
        if ! grep -Eq "$ex_re" "$ex_plan"; then
            bad "$ex_name" "no line matches '$ex_re'"
            return 1
        fi
    done
    ok "$ex_name"
}

# entry PLAN JOB: the job's entry of a YAML plan, one line per key.
entry() {
    awk -v j="- name: $2" '$0 == j { on = 1; print; next } /^- name:|^[a-z]/ { on = 0 } on' "$1"
}

run_plan "$tmp/old.yaml" --method milp $tiny
if [ "$rc" = 0 ] && num_eq "$(plan_total "$tmp/old.yaml")" 1.1385; then ok old; else bad old "exit $rc"; fi

# ---- 1. unchanged inputs: OLD again ------------------------------------------
# strip PLAN [solver]: the plan without the lines a re-plan adds, and
# without the solver's claims when asked
strip() {
    sed -e '/^replanned:/,/^  change_penalty:/d' -e '/^  started: true$/d' -e '/^  changes: /d' "$1" |
        if [ "${2:-}" = solver ]; then sed -e '/^status: /d' -e '/^  bound: /d' -e '/^  gap: /d' -e '/^  method: /d'; else cat; fi
}
strip "$tmp/old.yaml" >"$tmp/old.plain"
strip "$tmp/old.yaml" solver >"$tmp/old.nosolver"
# OLD's solver.inputs is the inputs' digest: every method keeps OLD's plan
# without a search, with OLD's status and bound (its method aside)
sed '/^  method: /d' "$tmp/old.plain" >"$tmp/old.nomethod"
for m in $methods; do
    for s in 0 1 2 3 4; do
        run_plan "$tmp/same.yaml" --method "$m" --from "$tmp/old.yaml" --now "$s" $tiny
        strip "$tmp/same.yaml" | sed '/^  method: /d' >"$tmp/same.plain"
        if [ "$rc" = 0 ] && cmp -s "$tmp/old.nomethod" "$tmp/same.plain"; then
            ok "unchanged-$m-$s"
        else
            bad "unchanged-$m-$s" "exit $rc: $(diff "$tmp/old.nomethod" "$tmp/same.plain" | head -n 6 | tr '\n' ' ')"
        fi
        rverify "unchanged-verify-$m-$s" "$tmp/same.yaml" "$tmp/old.yaml" "$s" $tiny
    done
done
# layout and comments are not the inputs' meaning: the same digest
{ printf '# a comment\n\n'; cat $tiny; printf '\n# the end\n'; } >"$tmp/tiny-spaced.yaml"
cp_timeout $CAPPLAN plan -q --no-timing --progress=debug -o "$tmp/same.yaml" --from "$tmp/old.yaml" --now 2 \
    "$tmp/tiny-spaced.yaml" 2>"$tmp/err"
rc=$?
if [ $rc = 0 ] && grep -q "^capplan: re-plan: the inputs did not change since OLD" "$tmp/err"; then
    ok unchanged-layout; else bad unchanged-layout "exit $rc: $(oneline "$tmp/err" 3)"; fi
# a re-plan of a re-plan keeps it too, proved by the re-plan's LP (the
# first re-plan's bound is one of plans against its own OLD: not used)
run_plan "$tmp/same3.yaml" --from "$tmp/same.yaml" --now 3 $tiny
expect unchanged-twice "$tmp/same3.yaml" '^status: optimal$' '^  bound: 1.1385$' '^  started: 3$'
rverify unchanged-twice-verify "$tmp/same3.yaml" "$tmp/same.yaml" 3 $tiny
# an OLD without solver.inputs (written before it, or edited): the method
# searches and OLD's choices win the tie, whatever ties the search meets
sed '/^  inputs: /d' "$tmp/old.yaml" >"$tmp/old-nodigest.yaml"
for m in $methods; do
    run_plan "$tmp/same.yaml" --method "$m" --from "$tmp/old-nodigest.yaml" --now 2 $tiny
    case $m in
    auto | milp) strip "$tmp/same.yaml" | sed 's/^  method: auto\/milp$/  method: milp/' >"$tmp/same.plain"
        want=$tmp/old.plain ;;
    *) strip "$tmp/same.yaml" solver >"$tmp/same.plain"
        want=$tmp/old.nosolver ;;
    esac
    if [ "$rc" = 0 ] && cmp -s "$want" "$tmp/same.plain"; then
        ok "unchanged-search-$m"
    else
        bad "unchanged-search-$m" "exit $rc: $(diff "$want" "$tmp/same.plain" | head -n 6 | tr '\n' ' ')"
    fi
    rverify "unchanged-search-verify-$m" "$tmp/same.yaml" "$tmp/old-nodigest.yaml" 2 $tiny
done
run_plan "$tmp/same2.yaml" --from "$tmp/old.yaml" --now 2 $tiny
expect unchanged-block "$tmp/same2.yaml" '^replanned:$' '^  now: 2$' '^  started: 2$' '^  broken: 0$' \
    '^  changed: 0$' '^  changes: 0$'

# ---- 2. a node failure with checkpoint credit ---------------------------------
sed -e 's/^    nodes: 2  .*/    nodes: 2\n    available: [2, 2, 0, 0]/' \
    -e 's/^    drop_penalty: 2000$/    drop_penalty: 2000\n    checkpoint_minutes: 45/' $tiny >"$tmp/down.yaml"
for m in $methods; do
    run_plan "$tmp/down-$m.yaml" --method "$m" --from "$tmp/old.yaml" --now 2 --change-penalty 5 "$tmp/down.yaml"
    if [ "$rc" = 0 ] && num_eq "$(plan_total "$tmp/down-$m.yaml")" 517.3225; then
        ok "down-total-$m"
    else
        bad "down-total-$m" "exit $rc, total $(plan_total "$tmp/down-$m.yaml"), hand 517.3225"
    fi
    entry "$tmp/down-$m.yaml" train-wide >"$tmp/tw"
    expect "down-train-wide-$m" "$tmp/tw" "resource: cloud:r1:v100x4" "start_slot: 2" "slots: 1" \
        "end_hour: 2.85" "restarted: true" "work_left: 76500$"
    entry "$tmp/down-$m.yaml" train-small >"$tmp/ts"
    expect "down-train-small-$m" "$tmp/ts" "started: true" "nodes: \[rack/1\]"
    expect "down-block-$m" "$tmp/down-$m.yaml" '^  started: 1$' '^  broken: 1$' '^  changed: 1$' \
        '^  changes: 5$' '^  cloud: 12$' '^  penalty: 500$'
    rverify "down-verify-$m" "$tmp/down-$m.yaml" "$tmp/old.yaml" 2 "$tmp/down.yaml"
done

# ---- 3. an urgent job moves one not yet started, paying the change ----------
for m in $methods; do
    run_plan "$tmp/urgent7-$m.yaml" --method "$m" --from "$tmp/old.yaml" --now 1 --change-penalty 7 \
        $tiny tests/replan/urgent.yaml
    if [ "$rc" = 0 ] && num_eq "$(plan_total "$tmp/urgent7-$m.yaml")" 32.1385; then
        ok "urgent7-total-$m"
    else
        bad "urgent7-total-$m" "exit $rc, total $(plan_total "$tmp/urgent7-$m.yaml"), hand 32.1385"
    fi
    entry "$tmp/urgent7-$m.yaml" urgent >"$tmp/urg"
    # etl or train-wide (both free at S = 1, both $24 on the cloud) moves
    if [ "$(grep -c '^  resource: cloud:r1:v100x4$' "$tmp/urgent7-$m.yaml")" = 1 ]; then
        ok "urgent7-moved-$m"
    else
        bad "urgent7-moved-$m" "not one job on the cloud"
    fi
    expect "urgent7-runs-$m" "$tmp/urg" "resource: rack" "start_slot: 2"
    expect "urgent7-block-$m" "$tmp/urgent7-$m.yaml" '^  changed: 1$' '^  changes: 7$' '^  cloud: 24$'
    rverify "urgent7-verify-$m" "$tmp/urgent7-$m.yaml" "$tmp/old.yaml" 1 $tiny tests/replan/urgent.yaml
    run_plan "$tmp/urgent200-$m.yaml" --method "$m" --from "$tmp/old.yaml" --now 1 --change-penalty 200 \
        $tiny tests/replan/urgent.yaml
    if [ "$rc" = 0 ] && num_eq "$(plan_total "$tmp/urgent200-$m.yaml")" 101.1385; then
        ok "urgent200-total-$m"
    else
        bad "urgent200-total-$m" "exit $rc, total $(plan_total "$tmp/urgent200-$m.yaml"), hand 101.1385"
    fi
    rverify "urgent200-verify-$m" "$tmp/urgent200-$m.yaml" "$tmp/old.yaml" 1 $tiny tests/replan/urgent.yaml
done
# verify counts the changes itself: told another penalty, the totals are wrong
timeout "$limit" $CAPPLAN verify --plan "$tmp/urgent7-milp.yaml" --from "$tmp/old.yaml" --now 1 \
    --change-penalty 1 $tiny tests/replan/urgent.yaml >"$tmp/v.out" 2>&1
if [ $? = 1 ] && grep -q 'totals: changes: expected 1, found 7' "$tmp/v.out"; then ok verify-penalty; else
    bad verify-penalty "$(oneline "$tmp/v.out" 3)"; fi

# ---- 4. a cancelled running job ------------------------------------------------
# OLD2: the rack's node 1 down from slot 2: etl runs on the cloud in 2-3
sed -e 's/^    nodes: 2  .*/    nodes: 2\n    available: [2, 2, 1, 1]/' $tiny >"$tmp/down1.yaml"
run_plan "$tmp/old2.yaml" --method milp --from "$tmp/old.yaml" --now 2 "$tmp/down1.yaml"
entry "$tmp/old2.yaml" etl >"$tmp/etl2"
expect old2-etl-cloud "$tmp/etl2" "resource: cloud:r1:v100x4" "start_slot: 2"
awk '/^  - name: etl$/ { skip = 1; next } skip && /^  - name:|^[^ #]/ { skip = 0 } !skip' "$tmp/down1.yaml" >"$tmp/noetl.yaml"
for m in $methods; do
    run_plan "$tmp/cancel-$m.yaml" --method "$m" --from "$tmp/old2.yaml" --now 3 "$tmp/noetl.yaml"
    if [ "$rc" = 0 ] && ! grep -q 'name: etl' "$tmp/cancel-$m.yaml"; then ok "cancel-gone-$m"; else
        bad "cancel-gone-$m" "exit $rc"; fi
    expect "cancel-history-$m" "$tmp/cancel-$m.yaml" '^  instances: \[0, 0, 1, 0\]$' '^  cloud: 12$'
    rverify "cancel-verify-$m" "$tmp/cancel-$m.yaml" "$tmp/old2.yaml" 3 "$tmp/noetl.yaml"
done

# ---- 5. verify catches what a re-plan must keep --------------------------------
# OLD itself is no re-plan of it at S = 2: no block, no started flags
timeout "$limit" $CAPPLAN verify --plan "$tmp/old.yaml" --from "$tmp/old.yaml" --now 2 $tiny >"$tmp/v.out" 2>&1
if [ $? = 1 ] && grep -q "a re-plan has a 'replanned' block" "$tmp/v.out" &&
    grep -q "job 'train-wide': a started job's entry says 'started: true'" "$tmp/v.out"; then
    ok verify-needs-block
else
    bad verify-needs-block "$(oneline "$tmp/v.out" 3)"
fi
# a started job moved: train-wide to slot 2 is not OLD's run
sed '/^- name: train-wide$/,/^- name:/ s/^  start_slot: 1$/  start_slot: 2/' "$tmp/same2.yaml" >"$tmp/moved.yaml"
timeout "$limit" $CAPPLAN verify --plan "$tmp/moved.yaml" --from "$tmp/old.yaml" --now 2 $tiny >"$tmp/v.out" 2>&1
if [ $? = 1 ] && grep -q "job 'train-wide': a started job keeps OLD's run: 4 on 'rack' (pool) in shape 0 from slot 1" "$tmp/v.out"; then
    ok verify-started-moved
else
    bad verify-started-moved "$(oneline "$tmp/v.out" 3)"
fi

# ---- 6. bad inputs --------------------------------------------------------------
rbad() { # NAME EXPECTED-STDERR CMD...: exit 2, nothing on stdout, this message
    rb_name=$1 rb_want=$2
    shift 2
    timeout "$limit" $CAPPLAN "$@" >"$tmp/rb.out" 2>"$tmp/rb.err"
    rb_rc=$?
    if [ "$rb_rc" = 2 ] && [ ! -s "$tmp/rb.out" ] && [ "$(cat "$tmp/rb.err")" = "$rb_want" ]; then
        ok "$rb_name"
    else
        bad "$rb_name" "exit $rb_rc: $(oneline "$tmp/rb.err" 3) (want: $rb_want)"
    fi
}
cp "$tmp/old.yaml" "$tmp/o.yaml"
rbad now-range "capplan plan: --now 5: the horizon has 4 slots (0 <= S <= 4)" \
    plan -q --from "$tmp/o.yaml" --now 5 $tiny
rbad from-needs-now "capplan plan: --from needs --now S, the first slot that has not begun" \
    plan -q --from "$tmp/o.yaml" $tiny
rbad now-needs-from "capplan plan: --now needs --from OLD, the plan to re-plan from" \
    plan -q --now 1 $tiny
rbad penalty-needs-from "capplan plan: --change-penalty needs --from OLD" \
    plan -q --change-penalty 3 $tiny
rbad verify-now-needs-from "capplan verify: --now needs --from OLD" \
    verify --plan "$tmp/o.yaml" --now 1 $tiny
# OLD of another horizon
sed 's/^  slots: 4 .*/  slots: 6/' $tiny >"$tmp/six.yaml"
rbad other-horizon "$tmp/o.yaml:1:1: error: OLD is a plan of other inputs: it has 4 slots, the inputs' horizon 6" \
    plan -q --from "$tmp/o.yaml" --now 1 "$tmp/six.yaml"
# a started job on a pool the inputs do not have (the first: train-small)
sed 's/^  resource: rack$/  resource: shelf/' "$tmp/o.yaml" >"$tmp/shelf.yaml"
line=$(grep -n '^  resource: shelf$' "$tmp/shelf.yaml" | head -n 1 | cut -d: -f1)
rbad other-pool "$tmp/shelf.yaml:$line:13: error: OLD is a plan of other inputs: job 'train-small': no pool 'shelf' in the inputs" \
    plan -q --from "$tmp/shelf.yaml" --now 1 $tiny
# a started job whose count the inputs no longer allow
sed 's/^    accelerators: \[4, 8\]$/    accelerators: [8]/' $tiny >"$tmp/eight.yaml"
line=$(grep -n '^  - name: train-wide$' "$tmp/eight.yaml" | cut -d: -f1)
rbad other-mode "$tmp/eight.yaml:$line:5: error: OLD is a plan of other inputs: started job 'train-wide' (4 on 'rack', pool) is no mode under these inputs: job 'train-wide' does not allow 4 accelerators" \
    plan -q --from "$tmp/o.yaml" --now 2 "$tmp/eight.yaml"
# a market OLD rented before S that the inputs lack
sed 's/^  - name: cloud:r1:v100x4$/  - name: cloud:r1:other/' "$tmp/down1.yaml" >"$tmp/nocloud.yaml"
line=$(grep -n "^  market: 'cloud:r1:v100x4'$\|^- market: 'cloud:r1:v100x4'$" "$tmp/old2.yaml" | head -n 1 | cut -d: -f1)
timeout "$limit" $CAPPLAN plan -q --from "$tmp/old2.yaml" --now 3 "$tmp/nocloud.yaml" >"$tmp/rb.out" 2>"$tmp/rb.err"
if [ $? = 2 ] && grep -q "error: OLD is a plan of other inputs: .*no offer 'cloud:r1:v100x4' in the inputs\|rents 'cloud:r1:v100x4' (on_demand) before slot 3" "$tmp/rb.err"; then
    ok other-market
else
    bad other-market "$(oneline "$tmp/rb.err" 3)"
fi
# ---- 7. diff and report --from --------------------------------------------------
cp "$tmp/down-milp.yaml" "$tmp/new.yaml"
timeout "$limit" $CAPPLAN diff "$tmp/old.yaml" "$tmp/new.yaml" 2>&1 | sed "s|$tmp/||g" >"$tmp/diff.out"
test_cmp tests/replan/diff-down.txt "$tmp/diff.out"
timeout "$limit" $CAPPLAN report "$tmp/new.yaml" --from "$tmp/old.yaml" "$tmp/down.yaml" -o "$tmp/r.html" 2>"$tmp/r.err"
if [ $? = 0 ] && [ "$(grep -c 'class="bar moved"' "$tmp/r.html")" = 1 ] &&
    grep -q '<section id="changes">' "$tmp/r.html" &&
    grep -q '<tr><td>restarted</td><td>train-wide</td>' "$tmp/r.html" &&
    grep -q '<tr><td>dropped</td><td>etl</td>' "$tmp/r.html"; then
    ok report-from
else
    bad report-from "$(oneline "$tmp/r.err" 3)"
fi
usage_fails diff-one-plan diff "$tmp/old.yaml"

# ---- 8. export slurm --from: only what changes ------------------------------------
# the tiny night with host names; the urgent job at S = 1 (P = 7)
sed 's/^    nodes: 2  .*/    nodes: 2\n    hosts: "rack-%02d"/' $tiny >"$tmp/hosts.yaml"
run_plan "$tmp/h-old.yaml" --method milp "$tmp/hosts.yaml"
run_plan "$tmp/h-new.yaml" --method milp --node-limit 50 --from "$tmp/h-old.yaml" --now 1 --change-penalty 7 \
    "$tmp/hosts.yaml" tests/replan/urgent.yaml
timeout "$limit" $CAPPLAN export slurm -q --plan "$tmp/h-new.yaml" --from "$tmp/h-old.yaml" --now 1 \
    -o "$tmp/x" "$tmp/hosts.yaml" tests/replan/urgent.yaml 2>"$tmp/x.err"
rc=$?
sed "s|$tmp/||g" "$tmp/x/replan.sh" >"$tmp/replan.sh" 2>/dev/null
# etl or train-wide moves to the cloud (both optimal: item 3): its pending
# job is cancelled, the other is unchanged or re-placed, urgent is new
moved=$(sed -n "s/^scancel --state=PENDING --name='\(etl\|train-wide\)' # moved$/\1/p" "$tmp/replan.sh")
if [ $rc = 0 ] && [ -n "$moved" ] && grep -q "^# unchanged: 'train-small'$" "$tmp/replan.sh" &&
    grep -q '^j3=$(sbatch --parsable ${dep:+--dependency=afterok$dep} jobs/003-urgent.sbatch)$' "$tmp/replan.sh" &&
    [ "$(grep -c '^scancel ' "$tmp/replan.sh")" -le 2 ] && head -n 10 "$tmp/replan.sh" | cmp -s - tests/replan/replan-head.sh; then
    ok export-from
else
    bad export-from "exit $rc: $(oneline "$tmp/x.err" 3) $(cat "$tmp/replan.sh" | tr '\n' ' ' | cut -c1-400)"
fi
if [ -f "$tmp/x/jobs/003-urgent.sbatch" ] && [ ! -e "$tmp/x/submit.sh" ]; then ok export-from-files; else
    bad export-from-files "$(ls "$tmp/x" "$tmp/x/jobs" 2>&1 | tr '\n' ' ')"; fi
usage_fails export-now-needs-from export slurm --plan "$tmp/h-new.yaml" --now 1 -o "$tmp/y" "$tmp/hosts.yaml"
usage_fails export-services-from export services --plan "$tmp/h-new.yaml" --from "$tmp/h-old.yaml" --now 1 -o "$tmp/y" "$tmp/hosts.yaml"

# relative_calls: the stand-in calls, seconds from t0
relative_calls() {
    awk -v t0="$t0" '{ $1 = $1 - t0; print }' "$CP_CALLS"
}

# ---- 9. export skypilot --from: OLD's clusters and started jobs run on ----------
# tests/handoff/share.yaml (a-d side by side on one instance in slot 0, wide
# on two in slot 1: cluster capplan-001, 2 nodes, slots 0-2) re-planned at
# S = 1 with a job e released at 1 h: e runs on instance 0 in slot 2, so
# capplan-001 is kept (no launch), wide and e are queued on it, and it
# stops at 3 instead of 2. The export is the golden
# tests/handoff/share-replan/ and its launch.sh, run on the stand-ins of
# tests/suite_handoff.sh (fake clock from 10 minutes before slot 1), makes
# the calls of tests/handoff/share-replan.calls.
H=tests/handoff
sed -e '$a\' $H/share.yaml >"$tmp/share-e.yaml"
cat >>"$tmp/share-e.yaml" <<'EOF2'
  - {name: e, kind: training, work: 36000, throughput: {V100: 10}, accelerators: [1],
     cpus_per_accelerator: 4, memory_gb_per_accelerator: 8, release_hour: 1, drop_penalty: 1000,
     run: "python train.py --job e"}
EOF2
run_plan "$tmp/share-e.plan.yaml" --method milp --from $H/share.plan.yaml --now 1 "$tmp/share-e.yaml"
rverify sky-share-e-verify "$tmp/share-e.plan.yaml" $H/share.plan.yaml 1 "$tmp/share-e.yaml"
timeout "$limit" $CAPPLAN export skypilot -q --plan "$tmp/share-e.plan.yaml" --from $H/share.plan.yaml --now 1 \
    -o "$tmp/sky" "$tmp/share-e.yaml" 2>"$tmp/sky.err"
sed -i "s|$tmp/||g" "$tmp/sky/launch.sh" "$tmp/sky/launch.md" "$tmp"/sky/tasks/* 2>/dev/null
if [ -x "$tmp/sky/launch.sh" ] && diff -r $H/share-replan "$tmp/sky" >"$tmp/diff" 2>&1; then ok sky-golden
else bad sky-golden "$(oneline "$tmp/sky.err") $(oneline "$tmp/diff" 6)"; fi
CP_CLOCK=$tmp/clock CP_CALLS=$tmp/calls
export CP_CLOCK CP_CALLS
t0=1796083200 # horizon.start of share.yaml
echo $((t0 + 3000)) >"$CP_CLOCK"
: >"$CP_CALLS"
PATH=$PWD/$H/bin:$PATH sh "$tmp/sky/launch.sh" >/dev/null 2>"$tmp/sky.run"
rc=$?
relative_calls >"$tmp/calls.rel"
if [ $rc = 0 ]; then ok sky-run; else bad sky-run "exit $rc: $(oneline "$tmp/sky.run")"; fi
test_cmp $H/share-replan.calls "$tmp/calls.rel"
# without wide at S = 1: capplan-001, which OLD ran to slot 2, goes down at 1
awk '/^  - \{name: wide/ { exit } { print }' $H/share.yaml >"$tmp/share-nowide.yaml"
run_plan "$tmp/nowide.plan.yaml" --method milp --from $H/share.plan.yaml --now 1 "$tmp/share-nowide.yaml"
timeout "$limit" $CAPPLAN export skypilot -q --plan "$tmp/nowide.plan.yaml" --from $H/share.plan.yaml --now 1 \
    -o "$tmp/sky2" "$tmp/share-nowide.yaml" 2>"$tmp/sky.err"
echo $((t0 + 3000)) >"$CP_CLOCK"
: >"$CP_CALLS"
PATH=$PWD/$H/bin:$PATH sh "$tmp/sky2/launch.sh" >/dev/null 2>"$tmp/sky.run"
if [ $? = 0 ] && [ "$(relative_calls)" = "3600 sky down -y capplan-001" ] && [ ! -e "$tmp/sky2/clusters" ]; then
    ok sky-down
else
    bad sky-down "$(oneline "$tmp/sky.err") calls: $(relative_calls | tr '\n' ' ')"
fi
# the cancelled running cloud job of 4 (etl, on the cloud in slots 2-3 of
# OLD2, gone at S = 3): its cluster, of which the re-plan keeps no lease,
# goes down at 3
sed 's/^    kind: \(.*\)$/    kind: \1\n    run: sleep 1/' "$tmp/noetl.yaml" >"$tmp/noetl-run.yaml"
timeout "$limit" $CAPPLAN export skypilot -q --plan "$tmp/cancel-milp.yaml" --from "$tmp/old2.yaml" --now 3 \
    -o "$tmp/sky3" "$tmp/noetl-run.yaml" 2>"$tmp/sky.err"
if [ $? = 0 ] && grep -q '^sky down -y capplan-001 || failed' "$tmp/sky3/launch.sh" &&
    [ "$(grep -c '^sky ' "$tmp/sky3/launch.sh")" = 1 ]; then
    ok sky-cancelled
else
    bad sky-cancelled "$(oneline "$tmp/sky.err")"
fi
# OLD that did not run the re-plan's history: a clear error, nothing written
timeout "$limit" $CAPPLAN export skypilot -q --plan "$tmp/old2.yaml" --from "$tmp/old.yaml" --now 3 \
    -o "$tmp/sky4" "$tmp/down1.yaml" >"$tmp/sky.out" 2>"$tmp/sky.err"
if [ $? = 2 ] && [ ! -e "$tmp/sky4" ] && [ "$(cat "$tmp/sky.err")" = "capplan export: error: cluster capplan-001: the re-plan runs it from slot 2 on 1 node of 'cloud:r1:v100x4', not as OLD's capplan-001 runs; a running SkyPilot cluster keeps its name, offer, start and nodes: export the re-plan whole instead" ]; then
    ok sky-other-old
else
    bad sky-other-old "$(oneline "$tmp/sky.err")"
fi
# ---- 10. services: their history is OLD's ----------------------------------------
sc=tests/services/start_cost.yaml
run_plan "$tmp/s-old.yaml" --method milp $sc
strip "$tmp/s-old.yaml" | sed '/^  method: /d' >"$tmp/s-old.plain"
sed 's/load: \[20, 5, 20\]/load: [5, 20, 20]/' $sc >"$tmp/s-past.yaml"
sed 's/load: \[20, 5, 20\]/load: [20, 40, 40]/' $sc >"$tmp/s-more.yaml"
sed 's/load: \[20, 5\]/load: [20, 20]/' tests/services/shared_node.yaml >"$tmp/s-node.yaml"
run_plan "$tmp/sn-old.yaml" --method milp tests/services/shared_node.yaml
# svc NAME OLD S TOTAL REPLICAS FILE... [-- OPTION...]: every method
svc() {
    sv_name=$1 sv_old=$2 sv_now=$3 sv_total=$4 sv_rep=$5
    shift 5
    for m in $methods; do
        run_plan "$tmp/$sv_name-$m.yaml" --method "$m" --from "$sv_old" --now "$sv_now" "$@"
        if [ "$rc" = 0 ] && num_eq "$(plan_total "$tmp/$sv_name-$m.yaml")" "$sv_total" &&
            grep -q "^    replicas: \[$sv_rep\]$" "$tmp/$sv_name-$m.yaml"; then
            ok "$sv_name-$m"
        else
            bad "$sv_name-$m" "exit $rc, total $(plan_total "$tmp/$sv_name-$m.yaml") (hand $sv_total), $(grep 'replicas:' "$tmp/$sv_name-$m.yaml")"
        fi
        # shellcheck disable=SC2046 # the files, without the penalty option
        rverify "$sv_name-verify-$m" "$tmp/$sv_name-$m.yaml" "$sv_old" "$sv_now" $(echo "$@" | sed 's/--change-penalty [0-9]*//')
    done
}
for s in 0 1 2 3; do
    for m in $methods; do
        run_plan "$tmp/s-same.yaml" --method "$m" --from "$tmp/s-old.yaml" --now "$s" $sc
        strip "$tmp/s-same.yaml" | sed '/^  method: /d' >"$tmp/s-same.plain"
        if [ "$rc" = 0 ] && cmp -s "$tmp/s-old.plain" "$tmp/s-same.plain"; then ok "svc-unchanged-$m-$s"; else
            bad "svc-unchanged-$m-$s" "exit $rc: $(diff "$tmp/s-old.plain" "$tmp/s-same.plain" | head -n 6 | tr '\n' ' ')"; fi
        rverify "svc-unchanged-verify-$m-$s" "$tmp/s-same.yaml" "$tmp/s-old.yaml" "$s" $sc
    done
done
svc svc-past "$tmp/s-old.yaml" 1 12 "2, 2, 2" "$tmp/s-past.yaml"
svc svc-more1 "$tmp/s-old.yaml" 1 22 "2, 4, 4" "$tmp/s-more.yaml"
svc svc-more2 "$tmp/s-old.yaml" 2 20 "2, 2, 4" "$tmp/s-more.yaml"
svc svc-node "$tmp/sn-old.yaml" 1 105.24 "2, 2" --change-penalty 5 "$tmp/s-node.yaml"
expect svc-node-dropped "$tmp/svc-node-milp.yaml" '^  status: dropped$' '^  changed: 1$' '^  changes: 5$'
# verify: the history's replicas, nodes and shares are OLD's
# vbad NAME PLAN OLD S MESSAGE FILE...: verify fails with MESSAGE
vbad() {
    vb_name=$1 vb_plan=$2 vb_old=$3 vb_now=$4 vb_msg=$5
    shift 5
    timeout "$limit" $CAPPLAN verify --plan "$vb_plan" --from "$vb_old" --now "$vb_now" "$@" >"$tmp/v.out" 2>&1
    if [ $? = 1 ] && grep -qF "$vb_msg" "$tmp/v.out"; then ok "$vb_name"; else
        bad "$vb_name" "$(oneline "$tmp/v.out" 3)"; fi
}
sed 's/^    replicas: \[2, 4, 4\]$/    replicas: [3, 4, 4]/' "$tmp/svc-more1-milp.yaml" >"$tmp/t1.yaml"
vbad svc-verify-replicas "$tmp/t1.yaml" "$tmp/s-old.yaml" 1 \
    "service 'web': slot 0 is history: OLD runs 2 replicas of configuration 0 on gpu, found 3" "$tmp/s-more.yaml"
awk '/^    nodes:$/ { n = 1 } n == 1 && /^    - \[gpu\/0, gpu\/1\]$/ { print "    - [gpu/0, gpu/2]"; n = 2; next } { print }' \
    "$tmp/svc-more1-milp.yaml" >"$tmp/t2.yaml"
vbad svc-verify-nodes "$tmp/t2.yaml" "$tmp/s-old.yaml" 1 \
    "service 'web' deployment 1: slot 0 is history: its replicas keep OLD's nodes" "$tmp/s-more.yaml"
awk '/^    shares:$/ { n = 1; print; next } n == 1 { print "    - [0.5]"; n = 0; next } /^    unserved: \[0, 0\]$/ { print "    unserved: [0.5, 0]"; next } { print }' \
    "$tmp/svc-node-milp.yaml" >"$tmp/t3.yaml"
vbad svc-verify-shares "$tmp/t3.yaml" "$tmp/sn-old.yaml" 1 \
    "service 'chat' class 'chat': slot 0 is history: OLD's share on configuration 0 on p is 1, found 0.5" "$tmp/s-node.yaml"
# OLD's replicas before S on what is no deployment of the inputs
sed -e 's/^accelerators: .*/accelerators: [{name: V100, memory_gb: 32, power_w: 300}, {name: T4, memory_gb: 16, power_w: 70}]/' \
    -e 's/replicas: \[{accelerator: V100, rate: 10}\]/replicas: [{accelerator: T4, rate: 10}, {accelerator: V100, rate: 10}]/' \
    $sc >"$tmp/s-t4.yaml"
cp "$tmp/s-old.yaml" "$tmp/so.yaml"
line=$(grep -n '^  - config: 0$' "$tmp/so.yaml" | cut -d: -f1)
rbad svc-other-deployment "$tmp/so.yaml:$line:5: error: OLD is a plan of other inputs: service 'web' runs replicas before slot 1 on its deployment 1: configuration 0 on offer 'gpu' is no deployment of it" \
    plan -q --from "$tmp/so.yaml" --now 1 "$tmp/s-t4.yaml"
# diff: the deployment whose replicas changed, and the starts
timeout "$limit" $CAPPLAN diff "$tmp/s-old.yaml" "$tmp/svc-more1-milp.yaml" >"$tmp/sd.out" 2>&1
expect svc-diff "$tmp/sd.out" '^services: 1 deployment changed, 0 unchanged$' \
    '^service    web: config 0 on gpu \(on_demand\): \[2, 2, 2\] -> \[2, 4, 4\], replicas differ in slots 1-2, nodes in slots 1-2$' \
    '^starts +6\.00 +12\.00 +\+6\.00$'
# report --from: the deployment whose replicas changed, in the changes
# section and outlined in the service's chart (slots 1 and 2), its name
# escaped as HTML
timeout "$limit" $CAPPLAN report "$tmp/svc-more1-milp.yaml" --from "$tmp/s-old.yaml" "$tmp/s-more.yaml" -o "$tmp/sr.html" 2>"$tmp/r.err"
if [ $? = 0 ] && grep -qx '<p class="note">Services: 1 deployment changed, 0 unchanged. Outlined columns in the services'"'"' charts.</p>' "$tmp/sr.html" &&
    grep -qx '<tr><td>web</td><td>config 0 on gpu (on_demand)</td><td>\[2, 2, 2\]</td><td>\[2, 4, 4\]</td><td>replicas differ in slots 1-2, nodes in slots 1-2</td></tr>' "$tmp/sr.html" &&
    [ "$(grep -c 'class="bar moved"><title>slot [12]: config 0 on gpu, 4 replicas, 40 requests/s$' "$tmp/sr.html")" = 2 ] &&
    [ "$(grep -c '^changed; the earlier plan: 2 replicas</title>' "$tmp/sr.html")" = 2 ] &&
    [ "$(grep -c 'class="bar moved"' "$tmp/sr.html")" = 2 ]
then ok svc-report-from; else bad svc-report-from "$(oneline "$tmp/r.err" 3) $(grep -c 'bar moved' "$tmp/sr.html")"; fi
sed 's/{name: web,/{name: "w<i>\&amp;'"'"'x",/' "$tmp/s-more.yaml" >"$tmp/s-hostile.yaml"
sed 's/^- name: web$/- name: "w<i>\&amp;'"'"'x"/' "$tmp/svc-more1-milp.yaml" >"$tmp/hs-new.yaml"
sed 's/^- name: web$/- name: "w<i>\&amp;'"'"'x"/' "$tmp/s-old.yaml" >"$tmp/hs-old.yaml"
timeout "$limit" $CAPPLAN report "$tmp/hs-new.yaml" --from "$tmp/hs-old.yaml" "$tmp/s-hostile.yaml" -o "$tmp/sh.html" 2>"$tmp/r.err"
if [ $? = 0 ] && grep -q '^<tr><td>w&lt;i&gt;&amp;amp;&#39;x</td><td>config 0' "$tmp/sh.html" && ! grep -q '<i>' "$tmp/sh.html"
then ok svc-report-hostile; else bad svc-report-hostile "$(oneline "$tmp/r.err" 3) $(grep '<tr><td>w' "$tmp/sh.html")"; fi
# export slurm --from: OLD's queued replica runs stand when no pool
# deployment changes from S on (no host names needed); when one does,
# replan.sh submits the re-plan's second replica from slot 1 (OLD's ran
# slot 0 only), on the pool's hosts, and cancels nothing
run_plan "$tmp/sn-same.yaml" --from "$tmp/sn-old.yaml" --now 1 tests/services/shared_node.yaml
timeout "$limit" $CAPPLAN export slurm -q --begin now --plan "$tmp/sn-same.yaml" --from "$tmp/sn-old.yaml" --now 1 \
    -o "$tmp/sx" tests/services/shared_node.yaml >"$tmp/sx.out" 2>&1
if [ $? = 0 ] && grep -q "^# services: no replica on a pool changes from this slot on; OLD's runs stay queued$" "$tmp/sx/replan.sh"; then
    ok svc-export-unchanged; else bad svc-export-unchanged "$(oneline "$tmp/sx.out" 3)"; fi
line=$(grep -n '^  - config: 0$' "$tmp/svc-node-milp.yaml" | cut -d: -f1)
rbad svc-export-no-hosts "$tmp/s-node.yaml:20:5: error: pool 'p' has no 'hosts': service 'chat' has replicas on its nodes, and export needs their host names (add hosts: [NAME, ...] or hosts: \"PATTERN-%02d\" to the pool; docs/spec-notes.md)" \
    export slurm -q --begin now --plan "$tmp/svc-node-milp.yaml" --from "$tmp/sn-old.yaml" --now 1 -o "$tmp/sy" "$tmp/s-node.yaml"
sed 's/nodes: 1, node:/nodes: 1, hosts: "p-%02d", node:/' "$tmp/s-node.yaml" >"$tmp/s-node-h.yaml"
timeout "$limit" $CAPPLAN export slurm -q --begin now --plan "$tmp/svc-node-milp.yaml" --from "$tmp/sn-old.yaml" --now 1 \
    -o "$tmp/sy" "$tmp/s-node-h.yaml" >"$tmp/sy.out" 2>&1
if [ $? = 0 ] && ! grep -q 'scancel "$id"' "$tmp/sy/replan.sh" &&
    grep -qx "# service 'chat', configuration 0 on pool 'p': 1 replica run kept, 1 new from slot 1 on" "$tmp/sy/replan.sh" &&
    grep -qx "s2=\$(sbatch --parsable '--time=01:00:00' '--nodelist=p-00' '--export=ALL,CAPPLAN_PORT=8081' '--comment=capplan-run:chat:c0:p-00:0-2:8081' services/001-chat-c0-p.sbatch)" "$tmp/sy/replan.sh" &&
    [ "$(grep -c sbatch "$tmp/sy/replan.sh")" = 1 ]
then ok svc-export-changed; else bad svc-export-changed "$(oneline "$tmp/sy.out" 3) $(grep sbatch "$tmp/sy/replan.sh")"; fi
test_done
