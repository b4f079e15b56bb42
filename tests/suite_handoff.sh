#!/bin/sh
# The hand-offs run the plan as planned: the scripts `capplan export`
# writes, run against recording stand-ins (tests/handoff/bin: `sky` and
# `sbatch` append each call to $CP_CALLS; `date +%s` and `sleep` read and
# advance a fake clock in $CP_CLOCK, so a night passes at once), start
# every job when, where and with what the plan says (docs/execution.md).
#
#   - skypilot, tests/handoff/share.yaml (four 1-GPU jobs side by side on a
#     4-GPU instance, then an 8-GPU job on two): its export is the golden
#     tests/handoff/share/ (one 2-node cluster, $36.72 planned, $48.96 as
#     launched) and launch.sh makes the calls of tests/handoff/share.calls
#     (seconds from horizon.start), which tests/handoff/sky_as_planned.py
#     also checks against the plan; with --begin now the same calls from
#     the script's own start; a launch that fails is reported, exit 1,
#     and the later steps still run;
#   - the nightly example's heuristic plan: launch.sh's calls
#     (sky_as_planned.py: each cloud job's start, nodes, GPUs and CPUs,
#     each cluster's life) and submit.sh's (sbatch_as_planned.py: each
#     pool job's directives and dependencies, and jobs that share a node
#     fit it side by side); each checker refuses a plan moved by a slot;
#   - services on SkyServe, tests/handoff/serve.yaml: the golden
#     tests/handoff/serve-sky/ and the calls of serve-sky.calls (sky serve
#     up, update, down at the slots where the cloud replicas change), the
#     replicas of every slot checked by sky_as_planned.py, which refuses
#     swapped counts; a failed serve up is reported; a hostile service
#     name is quoted and never runs; and export slurm of the same plan:
#     the golden tests/handoff/serve-slurm/, submit.sh's replica runs
#     checked slot by slot and host by host by sbatch_as_planned.py
#     (which refuses a replica too many), --begin now's relative begins;
#   - hostile names (tests/attack/names-cloud.yaml): launch.sh passes
#     `sh -n` and running it runs none of a name;
#   - an imported night (Alibaba nodes, the GCP and Azure catalogs, CAISO
#     prices, Gavel's jobs preemptible, from examples/data): its plan
#     verifies and rents spot instances, and both hand-offs run it as
#     planned.
# The real Slurm run of the same scripts: tests/suite_execution.sh. About 8 s.
SUITE=handoff
. "$(dirname "$0")/lib.sh"
H=tests/handoff
nightly="examples/nightly/fleet.yaml examples/nightly/jobs-dataflow.yaml examples/nightly/jobs-training.yaml examples/nightly/offers.yaml examples/nightly/sites.yaml examples/nightly/teams.yaml"
test_require PYYAML

CP_CLOCK=$tmp/clock CP_CALLS=$tmp/calls
export CP_CLOCK CP_CALLS
# standin T0 SCRIPT: runs SCRIPT with the stand-ins first on PATH and the
# fake clock at T0 (a fresh $CP_CALLS); sets $rc, standard error in $tmp/err
standin() {
    echo "$1" >"$CP_CLOCK"
    : >"$CP_CALLS"
    PATH=$PWD/$H/bin:$PATH sh "$2" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}
# relative T0: the calls with their clock made seconds from T0
relative() {
    awk -v t0="$1" '{ $1 = $1 - t0; print }' "$CP_CALLS"
}
t0=1796083200 # 2026-12-01T00:00:00Z, horizon.start of share.yaml

# ---- skypilot: jobs that share instances ----------------------------------

verify_ok "share.plan.yaml verifies" $H/share.plan.yaml $H/share.yaml
timeout "$limit" $CAPPLAN export skypilot -q --plan $H/share.plan.yaml -o "$tmp/share" $H/share.yaml 2>"$tmp/err"
if [ -x "$tmp/share/launch.sh" ] && diff -r $H/share "$tmp/share" >"$tmp/diff" 2>&1; then ok
else bad "export skypilot of share.yaml: the golden $H/share" "$(oneline "$tmp/err") $(oneline "$tmp/diff" 6)"; fi
standin $((t0 - 600)) "$tmp/share/launch.sh"
relative $t0 >"$tmp/rel"
if [ "$rc" = 0 ]; then ok; else bad "share: launch.sh exit $rc" "$(oneline "$tmp/err")"; fi
test_cmp $H/share.calls "$tmp/rel"
if python3 $H/sky_as_planned.py $H/share.plan.yaml "$tmp/share" "$CP_CALLS" $H/share.yaml >"$tmp/check" 2>&1 &&
    [ "$(tail -n 1 "$tmp/check")" = "5 cloud jobs on 1 cluster, 1 cluster-slots with jobs side by side (4 at most), 0 problems" ]
then ok; else bad "share: sky_as_planned.py" "$(oneline "$tmp/check" 6)"; fi

# --begin now: the same calls, from the script's own start
timeout "$limit" $CAPPLAN export skypilot -q --begin now --plan $H/share.plan.yaml -o "$tmp/now" $H/share.yaml 2>"$tmp/err"
standin 1000000000 "$tmp/now/launch.sh"
relative 1000000000 >"$tmp/rel"
test_cmp $H/share.calls "$tmp/rel"

# horizon.start without a zone: launch.sh asks date -d (the stand-in
# answers in UTC), the same calls; a date without -d stops it before any
sed 's/start: "2026-12-01T00:00:00Z"/start: "2026-12-01T00:00:00"/' $H/share.yaml >"$tmp/local.yaml"
timeout "$limit" $CAPPLAN export skypilot -q --plan $H/share.plan.yaml -o "$tmp/local" "$tmp/local.yaml" 2>"$tmp/err"
if grep -q "^t0=\$(date -d '2026-12-01T00:00:00' +%s) " "$tmp/local/launch.sh"; then ok
else bad "a start without a zone: t0 from date -d" "$(grep '^t0=' "$tmp/local/launch.sh")"; fi
standin $((t0 - 600)) "$tmp/local/launch.sh"
relative $t0 >"$tmp/rel"
test_cmp $H/share.calls "$tmp/rel"
mkdir -p "$tmp/nodash"
printf '#!/bin/sh\ncase $1 in -d) echo "date: invalid option -- '"'"'d'"'"'" >&2; exit 1 ;; esac\ncat "$CP_CLOCK"\n' >"$tmp/nodash/date"
chmod +x "$tmp/nodash/date"
echo 1000 >"$CP_CLOCK"
: >"$CP_CALLS"
PATH=$tmp/nodash:$PWD/$H/bin:$PATH sh "$tmp/local/launch.sh" >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" = 1 ] && [ ! -s "$CP_CALLS" ] && grep -qx 'capplan launch: no start time, date said: ' "$tmp/err"; then ok
else bad "a date without -d: launch.sh stops" "exit $rc, calls: $(oneline "$CP_CALLS" 2), $(oneline "$tmp/err" 2)"; fi

# a launch that fails: said, exit 1, and the later steps still run
CP_SKY_FAIL=capplan-001
export CP_SKY_FAIL
standin $t0 "$tmp/share/launch.sh"
unset CP_SKY_FAIL
if [ "$rc" = 1 ] && grep -qx 'capplan launch: failed: launch of capplan-001' "$tmp/err" &&
    grep -q ' sky autostop capplan-001 -i 1 --down$' "$CP_CALLS"; then ok
else bad "share: a failed launch" "exit $rc: $(oneline "$tmp/err" 3)"; fi

# ---- services: SkyServe (capplan.5 §10.4) ---------------------------------
# tests/handoff/serve.yaml: one replica in the cloud in slot 1, three in
# slot 2 (and two on the node); its export is the golden
# tests/handoff/serve-sky/ and launch.sh brings the SkyServe service up at
# slot 1, scales it to 3 at slot 2 and takes it down at slot 3
# (tests/handoff/serve-sky.calls); sky_as_planned.py checks the count in
# every slot, the files' offer, port, probe and run, and refuses the plan
# with the slots' counts swapped.
verify_ok "serve.plan.yaml verifies" $H/serve.plan.yaml $H/serve.yaml
timeout "$limit" $CAPPLAN export skypilot -q --plan $H/serve.plan.yaml -o "$tmp/serve" $H/serve.yaml 2>"$tmp/err"
if [ -x "$tmp/serve/launch.sh" ] && diff -r $H/serve-sky "$tmp/serve" >"$tmp/diff" 2>&1; then ok
else bad "export skypilot of serve.yaml: the golden $H/serve-sky" "$(oneline "$tmp/err") $(oneline "$tmp/diff" 6)"; fi
standin $((t0 - 600)) "$tmp/serve/launch.sh"
relative $t0 >"$tmp/rel"
if [ "$rc" = 0 ]; then ok; else bad "serve: launch.sh exit $rc" "$(oneline "$tmp/err")"; fi
test_cmp $H/serve-sky.calls "$tmp/rel"
if python3 $H/sky_as_planned.py $H/serve.plan.yaml "$tmp/serve" "$CP_CALLS" $H/serve.yaml >"$tmp/check" 2>&1 &&
    [ "$(head -n 1 "$tmp/check")" = "1 SkyServe services with the planned replicas in every slot" ] &&
    [ "$(tail -n 1 "$tmp/check")" = "0 cloud jobs on 0 clusters, 0 cluster-slots with jobs side by side (0 at most), 0 problems" ]
then ok; else bad "serve: sky_as_planned.py" "$(oneline "$tmp/check" 6)"; fi
sed 's/^    replicas: \[0, 1, 3, 0\]$/    replicas: [0, 3, 1, 0]/' $H/serve.plan.yaml >"$tmp/swapped.yaml"
if ! cmp -s $H/serve.plan.yaml "$tmp/swapped.yaml" &&
    ! python3 $H/sky_as_planned.py "$tmp/swapped.yaml" "$tmp/serve" "$CP_CALLS" $H/serve.yaml >"$tmp/check" 2>&1 &&
    grep -qx 'capplan-svc-001 (chat config 0 on aws:us-east-1:p3.2xlarge), slot 1: 1 replicas, planned 3' "$tmp/check"
then ok; else bad "sky_as_planned.py accepts swapped replica counts" "$(oneline "$tmp/check" 4)"; fi
# a serve up that fails: said, exit 1, the later steps still run
CP_SKY_FAIL=capplan-svc-001
export CP_SKY_FAIL
standin $t0 "$tmp/serve/launch.sh"
unset CP_SKY_FAIL
if [ "$rc" = 1 ] && grep -qx 'capplan launch: failed: serve up of capplan-svc-001' "$tmp/err" &&
    grep -q ' sky serve down -y capplan-svc-001$' "$CP_CALLS"; then ok
else bad "serve: a failed serve up" "exit $rc: $(oneline "$tmp/err" 3)"; fi
# a hostile service name: quoted in launch.sh and YAML, never run
sed "s/^  - name: chat\$/  - name: 'it''s \"a\" \$(touch \"\$CP_PWNED\") \`touch \"\$CP_PWNED\"\`; x'/" $H/serve.yaml >"$tmp/hs.yaml"
run_plan "$tmp/hs.plan.yaml" --method milp "$tmp/hs.yaml"
timeout "$limit" $CAPPLAN export skypilot -q --plan "$tmp/hs.plan.yaml" -o "$tmp/hs" "$tmp/hs.yaml" 2>"$tmp/err"
CP_PWNED=$tmp/pwned
export CP_PWNED
if sh -n "$tmp/hs/launch.sh" 2>"$tmp/shn"; then ok; else bad "hostile service: sh -n launch.sh" "$(oneline "$tmp/shn")"; fi
standin $t0 "$tmp/hs/launch.sh"
if [ "$rc" = 0 ] && [ ! -e "$tmp/pwned" ] && grep -qF "of service 'it's \"a\" \$(touch" "$tmp/err" &&
    python3 $H/sky_as_planned.py "$tmp/hs.plan.yaml" "$tmp/hs" "$CP_CALLS" "$tmp/hs.yaml" >"$tmp/check" 2>&1
then ok; else bad "hostile service: launch.sh" "exit $rc, pwned: $(ls "$tmp/pwned" 2>/dev/null): $(oneline "$tmp/err" 3) $(oneline "$tmp/check" 4)"; fi

# ---- services: Slurm ----------------------------------------------------------
# The same plan's replicas on the node: services/001-chat-c0-rack.sbatch
# submitted once per run (one replica all night, a second for slots 1 and
# 2 on the next port), the golden tests/handoff/serve-slurm/;
# sbatch_as_planned.py counts the runs on each host in every slot and
# refuses a plan with one replica fewer in slot 2.
timeout "$limit" $CAPPLAN export slurm -q --plan $H/serve.plan.yaml -o "$tmp/servesl" $H/serve.yaml 2>"$tmp/err"
if [ -x "$tmp/servesl/submit.sh" ] && diff -r $H/serve-slurm "$tmp/servesl" >"$tmp/diff" 2>&1; then ok
else bad "export slurm of serve.yaml: the golden $H/serve-slurm" "$(oneline "$tmp/err") $(oneline "$tmp/diff" 6)"; fi
standin $t0 "$tmp/servesl/submit.sh"
if [ "$rc" = 0 ] && python3 $H/sbatch_as_planned.py $H/serve.plan.yaml "$tmp/servesl" "$CP_CALLS" $H/serve.yaml >"$tmp/check" 2>&1 &&
    [ "$(head -n 1 "$tmp/check")" = "2 replica runs of 1 pool deployment checked slot by slot" ] &&
    [ "$(tail -n 1 "$tmp/check")" = "0 pool jobs, 2 node-slots with jobs side by side (2 at most), 0 problems" ]
then ok; else bad "serve: submit.sh and sbatch_as_planned.py" "exit $rc: $(oneline "$tmp/check" 6)"; fi
awk '/^    replicas: \[1, 2, 2, 1\]$/ { print "    replicas: [1, 2, 1, 1]"; next }
     /^    - \[rack\/0, rack\/0\]$/ && ++n == 2 { print "    - [rack/0]"; next } { print }' $H/serve.plan.yaml >"$tmp/fewer.yaml"
if ! python3 $H/sbatch_as_planned.py "$tmp/fewer.yaml" "$tmp/servesl" "$CP_CALLS" $H/serve.yaml >"$tmp/check" 2>&1 &&
    grep -qx 'chat config 0 on rack-00, slot 2: 2 replicas run, planned 1' "$tmp/check"
then ok; else bad "sbatch_as_planned.py accepts a replica too many" "$(oneline "$tmp/check" 4)"; fi
# --begin now: the runs after slot 0 begin that many seconds after submission
timeout "$limit" $CAPPLAN export slurm -q --begin now --plan $H/serve.plan.yaml -o "$tmp/servenow" $H/serve.yaml 2>"$tmp/err"
if grep -q "^s2=\$(sbatch --parsable '--begin=now+3600' '--time=02:00:00' '--nodelist=rack-00' '--export=ALL,CAPPLAN_PORT=8001' services/001-chat-c0-rack.sbatch)\$" "$tmp/servenow/submit.sh" &&
    grep -q "^s1=\$(sbatch --parsable '--time=04:00:00' " "$tmp/servenow/submit.sh"; then ok
else bad "serve: export slurm --begin now" "$(grep sbatch "$tmp/servenow/submit.sh" | head -n 2)"; fi
# the hostile service name of the SkyServe case: sh -n, and nothing runs
timeout "$limit" $CAPPLAN export slurm -q --plan "$tmp/hs.plan.yaml" -o "$tmp/hssl" "$tmp/hs.yaml" 2>"$tmp/err"
standin $t0 "$tmp/hssl/submit.sh"
if sh -n "$tmp/hssl/submit.sh" && sh -n "$tmp/hssl"/services/*.sbatch && [ "$rc" = 0 ] && [ ! -e "$tmp/pwned" ] &&
    grep -q '^#SBATCH --job-name=it_s__a____touch' "$tmp/hssl"/services/*.sbatch
then ok; else bad "hostile service: submit.sh" "exit $rc: $(oneline "$tmp/err" 3) $(ls "$tmp/pwned" 2>/dev/null)"; fi

# ---- the nightly example: both hand-offs ------------------------------------

# shellcheck disable=SC2086
if plan_verify "nightly plan" "$tmp/plan.yaml" --method heuristic --node-limit 100 -- $nightly; then :; fi
# shellcheck disable=SC2086
timeout "$limit" $CAPPLAN export skypilot -q --plan "$tmp/plan.yaml" -o "$tmp/cloud" $nightly 2>"$tmp/err" ||
    bad "nightly: export skypilot" "$(oneline "$tmp/err")"
standin 1000 "$tmp/cloud/launch.sh" # the clock before the night: launch.sh waits for it
[ "$rc" = 0 ] || bad "nightly: launch.sh exit $rc" "$(oneline "$tmp/err")"
# shellcheck disable=SC2086
if python3 $H/sky_as_planned.py "$tmp/plan.yaml" "$tmp/cloud" "$CP_CALLS" $nightly >"$tmp/check" 2>&1
then ok "$(tail -n 1 "$tmp/check")"; else bad "nightly: sky_as_planned.py" "$(oneline "$tmp/check" 6)"; fi
cp "$CP_CALLS" "$tmp/sky.calls"
# shellcheck disable=SC2086
timeout "$limit" $CAPPLAN export slurm -q --plan "$tmp/plan.yaml" -o "$tmp/run" $nightly 2>"$tmp/err" ||
    bad "nightly: export slurm" "$(oneline "$tmp/err")"
standin $t0 "$tmp/run/submit.sh"
[ "$rc" = 0 ] || bad "nightly: submit.sh exit $rc" "$(oneline "$tmp/err")"
# shellcheck disable=SC2086
if python3 $H/sbatch_as_planned.py "$tmp/plan.yaml" "$tmp/run" "$CP_CALLS" $nightly >"$tmp/check" 2>&1
then ok "$(tail -n 1 "$tmp/check")"; else bad "nightly: sbatch_as_planned.py" "$(oneline "$tmp/check" 6)"; fi
# the checkers themselves: a plan whose every job starts a slot later fails both
awk '/^  start_slot: / { $2 = $2 + 1; print "  start_slot: " $2; next } { print }' "$tmp/plan.yaml" >"$tmp/late.yaml"
# shellcheck disable=SC2086
if python3 $H/sky_as_planned.py "$tmp/late.yaml" "$tmp/cloud" "$tmp/sky.calls" $nightly >/dev/null 2>&1
then bad "sky_as_planned.py accepts a plan a slot later"; else ok; fi
# shellcheck disable=SC2086
if python3 $H/sbatch_as_planned.py "$tmp/late.yaml" "$tmp/run" "$CP_CALLS" $nightly >/dev/null 2>&1
then bad "sbatch_as_planned.py accepts a plan a slot later"; else ok; fi

# ---- hostile names --------------------------------------------------------

A=tests/attack
run_plan "$tmp/nc.plan.yaml" $A/names-cloud.yaml
timeout "$limit" $CAPPLAN export skypilot -q --plan "$tmp/nc.plan.yaml" -o "$tmp/nc" $A/names-cloud.yaml 2>"$tmp/err"
if sh -n "$tmp/nc/launch.sh" 2>"$tmp/shn"; then ok; else bad "hostile: sh -n launch.sh" "$(oneline "$tmp/shn")"; fi
CP_PWNED=$tmp/pwned
export CP_PWNED
standin $t0 "$tmp/nc/launch.sh"
if [ "$rc" = 0 ] && [ ! -e "$tmp/pwned" ] && grep -qF "capplan launch: job 'it's \"a\" \$(touch \"\$CP_PWNED\")" "$tmp/err" &&
    python3 $H/sky_as_planned.py "$tmp/nc.plan.yaml" "$tmp/nc" "$CP_CALLS" $A/names-cloud.yaml >"$tmp/check" 2>&1
then ok; else bad "hostile: launch.sh" "exit $rc, pwned: $(ls "$tmp/pwned" 2>/dev/null): $(oneline "$tmp/err" 3) $(oneline "$tmp/check" 4)"; fi

# ---- an imported night: Alibaba nodes, GCP and Azure catalogs, Gavel ------
# tests/handoff/imported_night.sh: more work than its five nodes hold in
# 24 h, so some jobs rent spot instances; the plan exports to both
# hand-offs and both run as planned.
sh $H/imported_night.sh "$CAPPLAN" "$tmp" >"$tmp/imp.out" || bad "imported night: imports" "$(oneline "$tmp/imp.out")"
night="$tmp/caiso.yaml $tmp/inv.yaml $tmp/gcp.yaml $tmp/azure.yaml $tmp/gavel.yaml"
# shellcheck disable=SC2086
if plan_verify "imported night plan" "$tmp/imp.yaml" --method heuristic -- $night; then
    spot=$(grep -c '^  market: spot$' "$tmp/imp.yaml") pool=$(grep -c '^  market: pool$' "$tmp/imp.yaml")
    if [ "$spot" -gt 0 ] && [ "$pool" -gt 0 ]; then ok
    else bad "imported night: spot and pool jobs" "$spot on spot, $pool on pools"; fi
    # shellcheck disable=SC2086
    timeout "$limit" $CAPPLAN export skypilot -q --plan "$tmp/imp.yaml" -o "$tmp/impc" $night 2>"$tmp/err" ||
        bad "imported night: export skypilot" "$(oneline "$tmp/err")"
    standin 1000 "$tmp/impc/launch.sh"
    # shellcheck disable=SC2086
    if [ "$rc" = 0 ] && python3 $H/sky_as_planned.py "$tmp/imp.yaml" "$tmp/impc" "$CP_CALLS" $night >"$tmp/check" 2>&1 &&
        tail -n 1 "$tmp/check" | grep -q "^$spot cloud jobs on .*, 0 problems$"
    then ok "$(tail -n 1 "$tmp/check")"; else bad "imported night: launch.sh" "exit $rc: $(oneline "$tmp/check" 6)"; fi
    # shellcheck disable=SC2086
    timeout "$limit" $CAPPLAN export slurm -q --plan "$tmp/imp.yaml" -o "$tmp/impr" $night 2>"$tmp/err" ||
        bad "imported night: export slurm" "$(oneline "$tmp/err")"
    standin 1685577600 "$tmp/impr/submit.sh"
    # shellcheck disable=SC2086
    if [ "$rc" = 0 ] && python3 $H/sbatch_as_planned.py "$tmp/imp.yaml" "$tmp/impr" "$CP_CALLS" $night >"$tmp/check" 2>&1 &&
        tail -n 1 "$tmp/check" | grep -q "^$pool pool jobs, .*, 0 problems$"
    then ok "$(tail -n 1 "$tmp/check")"; else bad "imported night: submit.sh" "exit $rc: $(oneline "$tmp/check" 6)"; fi
fi

test_done
