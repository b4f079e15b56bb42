#!/bin/sh
# Inference services (capplan.5 §10.4): the loader's rules are in
# tests/bad/services.yaml and `check`'s listing in tests/check/services.*
# (suite_bad); here, planning, verifying and refusing.
#
# 1. tests/services/NAME.yaml with `# expect-total: X` (and optional
#    `# expect-grep: ERE` lines): a hand-computed optimum in the file's
#    comments. Every method plans it to X (1e-6 relative: milp and auto
#    jointly, heuristic, lagrange and pop with the services planned around
#    their jobs), every plan passes `capplan verify`, and the exported LP
#    solved by glpsol (where installed) gives X too, and its LP
#    relaxation is the bound of heuristic and pop (lagrange's: at least
#    that). No plan file holds a solver's round-off (1e-17, 0.9999999999).
#    With no time for the
#    MILP around the jobs, the services' greedy alone still gives a plan
#    that verifies, no cheaper than X.
# 2. Plans tampered with (a share, the replicas, a deployment that is
#    none, the service left out) are violations of `verify`.
# 3. examples/serving: derive.sh reproduces chat.yaml from the derived
#    data files; the example plans, verifies and exports its replica
#    schedule (one CSV row per deployment and slot).
# 4. `place` refuses an input with services (it cannot read their
#    columns yet), rather than leave them out of the plan; whatif keeps
#    the services of its inputs (services/NAME/KEY) and plans them.
SUITE=services
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
limit=${CP_TEST_TIMEOUT:-60}
d=tests/services

# --- 1. hand-computed cases ---------------------------------------------
for f in "$d"/*.yaml; do
    want=$(sed -n 's/^# expect-total: //p' "$f")
    [ -n "$want" ] || continue
    n=$(basename "$f" .yaml)
    for m in milp auto heuristic lagrange pop; do
        if plan_verify "$n $m" "$tmp/$n.$m.plan" --method "$m" -- "$f"; then
            if num_eq "$ptotal" "$want" 1e-6 1e-9; then ok "$n $m total"; else bad "$n $m total" "$ptotal, want $want"; fi
            # no solver round-off in the file: a share within 1e-9 of 0 or 1
            # is written as 0 or 1, a cost part's 1e-17 as 0 (the relative
            # gap is a measure, whatever its size)
            noise=$(grep -v '^ *gap:' "$tmp/$n.$m.plan" | grep -E '[0-9]e-(1[0-9]|[2-9][0-9])|0\.9999999999' | head -n 1)
            if [ -z "$noise" ]; then ok "$n $m figures"; else bad "$n $m figures" "round-off: $noise"; fi
        fi
    done
    sed -n 's/^# expect-grep: //p' "$f" | while IFS= read -r re; do
        if grep -qE "$re" "$tmp/$n.milp.plan"; then echo ok; else echo "bad $re"; fi
    done >"$tmp/greps"
    if grep -q '^bad' "$tmp/greps"; then bad "$n grep" "$(grep '^bad' "$tmp/greps" | head -n 1)"; else ok "$n grep"; fi
    if command -v glpsol >/dev/null 2>&1; then
        run_plan "$tmp/x.plan" --method milp --export-lp "$tmp/$n.lp" "$f"
        glpsol --lp "$tmp/$n.lp" -o "$tmp/$n.sol" >/dev/null 2>&1
        lp=$(sed -n 's/^Objective: *total = \([^ ]*\).*/\1/p' "$tmp/$n.sol")
        if [ -n "$lp" ] && num_eq "$lp" "$want" 1e-6 1e-9; then ok "$n lp"; else bad "$n lp" "glpsol: '$lp', want $want"; fi
        # the bound of the methods that plan the jobs first: the joint LP
        # by column generation (solvers/lp_colgen_svc.c), which is the
        # exported model's LP relaxation (lagrange's may be its own
        # search's, higher); never above the total
        glpsol --lp "$tmp/$n.lp" --nomip -o "$tmp/$n.rel" >/dev/null 2>&1
        rel=$(sed -n 's/^Objective: *total = \([^ ]*\).*/\1/p' "$tmp/$n.rel")
        for m in heuristic pop lagrange; do
            b=$(plan_field "$tmp/$n.$m.plan" bound)
            t=$(plan_field "$tmp/$n.$m.plan" total)
            if [ -z "$rel" ] || [ -z "$b" ] || [ "$b" = .nan ]; then
                bad "$n $m bound" "bound '$b', glpsol's LP '$rel'"
            elif [ "$m" != lagrange ] && ! num_eq "$b" "$rel" 1e-6 1e-9; then
                bad "$n $m bound" "bound $b, glpsol's LP $rel"
            elif ! num_ge "$b" "$rel" 1e-6 1e-9 || ! num_le "$b" "$t" 1e-9 1e-9; then
                bad "$n $m bound" "bound $b, glpsol's LP $rel, total $t"
            else
                ok "$n $m bound"
            fi
        done
    else
        skip "$n lp" "glpsol is not installed"
    fi
done

# the greedy alone (no time for the MILP around the jobs): still a plan
# that verifies, no cheaper than the optimum
for f in "$d"/*.yaml; do
    want=$(sed -n 's/^# expect-total: //p' "$f")
    [ -n "$want" ] || continue
    n=$(basename "$f" .yaml)
    if plan_verify "$n greedy" "$tmp/$n.g.plan" --method heuristic --time-limit 0.000001 -- "$f"; then
        if num_ge "$ptotal" "$want" 1e-6 1e-9; then ok "$n greedy total"; else bad "$n greedy total" "$ptotal < $want"; fi
        # where the case says so, the greedy finds the optimum itself
        g=$(sed -n 's/^# expect-greedy-total: //p' "$f")
        if [ -n "$g" ]; then
            if num_eq "$ptotal" "$g" 1e-6 1e-9; then ok "$n greedy optimum"; else bad "$n greedy optimum" "$ptotal, want $g"; fi
        fi
    fi
done

# --- 2. tampered plans ---------------------------------------------------
# tamper NAME SED-SCRIPT WANT: verify of the two_types plan edited by
# SED-SCRIPT fails with a violation matching WANT
p="$tmp/two_types.milp.plan"
tamper() {
    sed "$2" "$p" >"$tmp/t.plan"
    timeout "$limit" $CAPPLAN verify --plan "$tmp/t.plan" "$d/two_types.yaml" >"$tmp/t.out" 2>&1
    trc=$?
    if [ "$trc" = 1 ] && grep -qE "$3" "$tmp/t.out"; then ok "tamper $1"; else bad "tamper $1" "exit $trc: $(oneline "$tmp/t.out" 3)"; fi
}
tamper replicas 's/replicas: \[1\]/replicas: [0]/' "takes 1 replicas' load in slot 0, over 0 replicas"
tamper share '/class: long/,/unserved/s/- \[1, 0\]/- [0.5, 0]/' "class 'long': shares and unserved add up to 0.5"
tamper unserved '/class: long/,/unserved/s/- \[1, 0\]/- [0, 0]/' "class 'long': shares and unserved add up to 0"
tamper config 's/^  - config: 1$/  - config: 0/' "configuration 0 on small is no deployment: the resource carries another accelerator type"
tamper name 's/^- name: chat/- name: chad/' "service 'chat' is missing from the plan's services"
tamper cost 's/^  cost: 5$/  cost: 4/' "service 'chat': cost: expected 5, found 4"

# --- 3. the serving example and its derivation -------------------------------
ex=examples/serving
if sh "$ex/derive.sh" service "$ex/data/classes.csv" "$ex/data/splitwise_llama2_70b.csv" >"$tmp/chat.yaml" &&
    cmp -s "$tmp/chat.yaml" "$ex/chat.yaml"; then
    ok "derive.sh writes chat.yaml"
else
    bad "derive.sh writes chat.yaml" "$(diff "$ex/chat.yaml" "$tmp/chat.yaml" | head -n 5 | tr '\n' ' ')"
fi
if plan_verify "serving example" "$tmp/serving.plan" --time-limit 10 -- "$ex"/*.yaml; then
    timeout "$limit" $CAPPLAN export services --plan "$tmp/serving.plan" -o "$tmp/exp" -q "$ex"/*.yaml 2>"$tmp/err"
    rc=$?
    deps=$(grep -c '^  - config:' "$tmp/serving.plan")
    rows=$(($(wc -l <"$tmp/exp/services.csv") - 1))
    if [ "$rc" = 0 ] && [ "$rows" = $((deps * 24)) ] &&
        head -n 1 "$tmp/exp/services.csv" | grep -qx 'service,config,accelerator,count,resource,market,slot,start_hour,start,replicas,requests_per_s'; then
        ok "export services"
    else
        bad "export services" "exit $rc, $rows rows for $deps deployments: $(oneline "$tmp/err" 2)"
    fi
    # the replicas' leases name the service: skypilot brings their
    # clusters up and down and runs no task for it
    timeout "$limit" $CAPPLAN export skypilot --plan "$tmp/serving.plan" -o "$tmp/sky" -q "$ex"/*.yaml 2>"$tmp/err"
    rc=$?
    if [ "$rc" = 0 ] && [ -s "$tmp/sky/launch.sh" ]; then ok "export skypilot"; else bad "export skypilot" "exit $rc: $(oneline "$tmp/err" 2)"; fi
    # the report: a section per service, the load line, a column per
    # deployment and slot with replicas (the deployments' replicas > 0)
    timeout "$limit" $CAPPLAN report "$tmp/serving.plan" "$ex"/*.yaml -o "$tmp/r.html" 2>"$tmp/err"
    rc=$?
    cols=$(grep -c '<title>slot [0-9]*: ' "$tmp/r.html")
    if [ "$rc" = 0 ] && grep -q '<section id="services">' "$tmp/r.html" && grep -q 'stroke-dasharray="5 3" points=' "$tmp/r.html" &&
        [ "$cols" -gt 24 ]; then
        ok "report services"
    else
        bad "report services" "exit $rc, $cols columns: $(oneline "$tmp/err" 2)"
    fi
fi

# --- 4. whatif and place ------------------------------------------------------
printf 'scenarios:\n  - name: more\n    changes: [{path: services/chat/load, scale: 2}]\n' >"$tmp/scen.yaml"
timeout "$limit" $CAPPLAN whatif --scenarios "$tmp/scen.yaml" --node-limit 50 --format csv "$d/refuse.yaml" >"$tmp/w.csv" 2>"$tmp/w.err"
rc=$?
# the load doubled (20 and 10 requests/s at 10/s a replica, 300 W each
# at full rate): 0.9 kWh for the service instead of 0.45, at 0.1 $/kWh,
# and the job's 0.03
if [ "$rc" = 0 ] && grep -q "^baseline,optimal,0.075," "$tmp/w.csv" &&
    grep -qE "^more,optimal,0\.120*1?," "$tmp/w.csv"; then
    ok "whatif plans services"
else
    bad "whatif plans services" "exit $rc: $(oneline "$tmp/w.csv" 3)"
fi
# its service columns: chat costs $0.045 (0.45 kWh), 1 + 1 replica-hours,
# all served; doubled $0.09, 2 + 1 replica-hours
col() { awk -F, -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i; next }
                            $1 == "'"$1"'" { print $c }' "$tmp/w.csv"; }
if [ "$(col baseline service_cost:chat)" = 0.045 ] && [ "$(col baseline service_replica_hours:chat)" = 2 ] &&
    [ "$(col baseline service_served_pct:chat)" = 100 ] && [ "$(col more service_cost:chat)" = 0.09 ] &&
    [ "$(col more service_replica_hours:chat)" = 3 ]; then
    ok "whatif service columns"
else
    bad "whatif service columns" "$(head -n 1 "$tmp/w.csv" | tr ',' '\n' | grep -n service | tr '\n' ' ')"
fi
# the md table names them; two shards merge into the same table
timeout "$limit" $CAPPLAN whatif -q --scenarios "$tmp/scen.yaml" --node-limit 50 "$d/refuse.yaml" >"$tmp/w.md" 2>&1
grep -q '| chat \$ | chat replica-h | chat served % |' "$tmp/w.md" && ok "whatif md services" ||
    bad "whatif md services" "$(oneline "$tmp/w.md" 2)"
for k in 0 1; do
    timeout "$limit" $CAPPLAN whatif -q --shard $k/2 --scenarios "$tmp/scen.yaml" --node-limit 50 \
        -o "$tmp/wsh$k.json" "$d/refuse.yaml" 2>/dev/null
done
$CAPPLAN whatif merge --format csv -o "$tmp/wm.csv" "$tmp/wsh0.json" "$tmp/wsh1.json" 2>"$tmp/err"
cmp -s "$tmp/w.csv" "$tmp/wm.csv" && ok "whatif shards with services" ||
    bad "whatif shards with services" "$(oneline "$tmp/err") $(diff "$tmp/w.csv" "$tmp/wm.csv" | head -n 3)"

# --mip-engine auto (the default outside the suites) plans services with
# GLPK even where `cbc` is installed; an explicit cbc plans them with CBC
# (branch-and-cut and the services search's MIPs): every hand-computed
# case to its optimum
CAPPLAN_MIP_ENGINE=auto timeout "$limit" $CAPPLAN plan --no-timing -q --node-limit 50 -o "$tmp/auto.plan" "$d/refuse.yaml" 2>"$tmp/err"
rc=$?
if [ "$rc" = 0 ] && $CAPPLAN verify --plan "$tmp/auto.plan" "$d/refuse.yaml" >/dev/null 2>&1; then ok "engine auto"; else bad "engine auto" "exit $rc: $(oneline "$tmp/err" 2)"; fi
if command -v cbc >/dev/null; then
    for f in "$d"/*.yaml; do
        want=$(sed -n 's/^# expect-total: //p' "$f")
        [ -n "$want" ] || continue
        n=$(basename "$f" .yaml)
        if plan_verify "$n cbc" "$tmp/$n.cbc.plan" --method milp --mip-engine cbc --node-limit 200 -- "$f"; then
            if num_eq "$ptotal" "$want" 1e-6 1e-9; then ok "$n cbc total"; else bad "$n cbc total" "$ptotal, want $want"; fi
        fi
    done
else
    skip "engine cbc" "cbc is not installed"
fi

# min_replicas that no plan can meet: plan exits 3 and names the service,
# the slot, the min_replicas and the room, at the input's min_replicas
# (check's golden: tests/bad/contradiction-min-replicas.err)
f=tests/bad/contradiction-min-replicas.yaml
timeout "$limit" $CAPPLAN plan -q --node-limit 50 -o "$tmp/minrep.plan" "$f" 2>"$tmp/err"
rc=$?
if [ "$rc" = 3 ] && grep -q "no feasible plan exists: $f:16:19: service 'chat': min_replicas 3 in slot 1, but its deployments hold at most 2 replicas" "$tmp/err"; then
    ok "min_replicas infeasible"
else
    bad "min_replicas infeasible" "exit $rc: $(oneline "$tmp/err" 2)"
fi

# place reads a plan without the service's entry as one that leaves it
# out, and says so (tests/suite_place.sh places the services' solutions)
printf 'capplan_plan: 1\nstatus: feasible\njobs: []\n' >"$tmp/sol.yaml"
timeout "$limit" $CAPPLAN place --solution "$tmp/sol.yaml" -o "$tmp/placed.yaml" "$d/refuse.yaml" 2>"$tmp/err"
rc=$?
if [ "$rc" = 2 ] && grep -q "error: service 'chat' is missing from the plan's services" "$tmp/err"; then ok "place without the service"; else bad "place without the service" "exit $rc: $(oneline "$tmp/err" 2)"; fi

test_done
