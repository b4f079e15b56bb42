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
#   - services re-planned (capplan.5 §10.5; export --from): the goldens
#     tests/handoff/serve-sky-replan/ (serve-burst.yaml: OLD's SkyServe
#     service scaled, a new one up, at slot 2) and serve-slurm-replan/
#     (serve-late.yaml: a running replica kept, a run after it); OLD's script until S and then the re-plan's,
#     run against the stand-ins (squeue and scancel too), give the
#     re-plan's replicas in every slot (sky_as_planned.py;
#     slurm_night.py, then sbatch_as_planned.py) and not OLD's; a
#     pending run cancelled, a running one's time limit cut, nothing
#     changed on the node, an OLD of other replicas refused, a hostile
#     name quoted;
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

# ---- services: SkyServe, a re-plan (capplan.5 §10.5) -------------------------
# tests/handoff/serve-burst.yaml: slot 2's load doubled at 02:00 and a second
# offer; its re-plan from slot 2 (serve-burst.plan.yaml, verified with
# --from) exports with --from to the golden serve-sky-replan/: launch.sh
# scales OLD's capplan-svc-001 from 1 to 4 replicas at slot 2, brings up
# capplan-svc-002 (us-west-2) with 4 and takes both down at slot 3.
# What SkyServe is told all night is OLD's launch.sh before 02:00, then the
# re-plan's (serve-sky-replan.calls, sorted by time and call); sky_as_planned.py reads those calls
# and both folders' files and finds the re-plan's replicas in every slot.
# replan_golden TARGET NAME GOLDEN SCRIPT SUMMARY: the re-plan
# tests/handoff/NAME.plan.yaml of NAME.yaml from slot 2 of serve.plan.yaml
# verifies with --from, and export TARGET --from writes the golden GOLDEN
# (SCRIPT in it) to $tmp/NAME and says SUMMARY (a BRE, the whole line)
replan_golden() {
    verify_ok "$2.plan.yaml verifies with --from" $H/$2.plan.yaml --from $H/serve.plan.yaml --now 2 $H/$2.yaml
    timeout "$limit" $CAPPLAN export "$1" --plan $H/$2.plan.yaml --from $H/serve.plan.yaml --now 2 \
        -o "$tmp/$2" $H/$2.yaml 2>"$tmp/err"
    if [ -x "$tmp/$2/$4" ] && diff -r "$3" "$tmp/$2" >"$tmp/diff" 2>&1 && grep -qx "$5" "$tmp/err"
    then ok; else bad "export $1 --from of $2: the golden $3" "$(oneline "$tmp/err") $(oneline "$tmp/diff" 6)"; fi
}
replan_golden skypilot serve-burst $H/serve-sky-replan launch.sh \
    'capplan export: 0 cloud jobs on 0 SkyPilot clusters, 2 SkyServe services, launch.sh from slot 2 (what began before runs on) and launch.md in .*'
# replan_night OLDDIR NEWDIR S: OLD's launch.sh until slot S, then NEW's
# from ten minutes before it; the calls in $CP_CALLS, both folders' files
# in $tmp/night
replan_night() {
    standin $((t0 - 600)) "$1/launch.sh"
    awk -v end=$((t0 + $3 * 3600)) '$1 < end' "$CP_CALLS" >"$tmp/old.calls"
    standin $((t0 + $3 * 3600 - 600)) "$2/launch.sh"
    cat "$tmp/old.calls" "$CP_CALLS" >"$tmp/night.calls"
    cp "$tmp/night.calls" "$CP_CALLS"
    rm -rf "$tmp/night" && cp -R "$1" "$tmp/night" && cp -R "$2/." "$tmp/night"
}
replan_night "$tmp/serve" "$tmp/serve-burst" 2
relative $t0 | sort -k1,1n -k2 >"$tmp/rel" # the steps of one time run side by side
if [ "$rc" = 0 ]; then ok; else bad "burst: launch.sh exit $rc" "$(oneline "$tmp/err")"; fi
test_cmp $H/serve-sky-replan.calls "$tmp/rel"
if python3 $H/sky_as_planned.py $H/serve-burst.plan.yaml "$tmp/night" "$CP_CALLS" $H/serve-burst.yaml >"$tmp/check" 2>&1 &&
    [ "$(head -n 1 "$tmp/check")" = "2 SkyServe services with the planned replicas in every slot" ]
then ok; else bad "burst: sky_as_planned.py on the night's calls" "$(oneline "$tmp/check" 6)"; fi
# the same calls are not OLD's plan: slot 2 had 3 replicas there
if ! python3 $H/sky_as_planned.py $H/serve.plan.yaml "$tmp/night" "$CP_CALLS" $H/serve.yaml >"$tmp/check" 2>&1 &&
    grep -qx 'capplan-svc-001 (chat config 0 on aws:us-east-1:p3.2xlarge), slot 2: 4 replicas, planned 3' "$tmp/check"
then ok; else bad "burst: sky_as_planned.py accepts OLD for the re-plan" "$(oneline "$tmp/check" 4)"; fi
# slot 2's load down to 10 instead: the cloud replica of slot 1 is torn
# down at slot 2 (sky serve down), nothing is brought up
sed 's/load: \[10, 30, 100, 10\]/load: [10, 30, 10, 10]/' $H/serve-burst.yaml >"$tmp/calm.yaml"
run_plan "$tmp/calm.plan.yaml" --method milp --from $H/serve.plan.yaml --now 2 "$tmp/calm.yaml"
timeout "$limit" $CAPPLAN export skypilot -q --plan "$tmp/calm.plan.yaml" --from $H/serve.plan.yaml --now 2 \
    -o "$tmp/calm" "$tmp/calm.yaml" 2>"$tmp/err"
replan_night "$tmp/serve" "$tmp/calm" 2
relative $t0 >"$tmp/rel"
printf '%s\n' '3600 sky serve up -y -n capplan-svc-001 services/001-chat-c0-x1.yaml' \
    '7200 sky serve down -y capplan-svc-001' >"$tmp/want"
test_cmp "$tmp/want" "$tmp/rel"
if python3 $H/sky_as_planned.py "$tmp/calm.plan.yaml" "$tmp/night" "$CP_CALLS" "$tmp/calm.yaml" >"$tmp/check" 2>&1 &&
    [ "$(head -n 1 "$tmp/check")" = "1 SkyServe services with the planned replicas in every slot" ] &&
    [ ! -e "$tmp/calm/services" ]
then ok; else bad "calm: sky_as_planned.py on the night's calls" "$(oneline "$tmp/check" 6) $(ls "$tmp/calm")"; fi
# an OLD whose slot 1 is not the re-plan's: refused, naming the deployment
sed 's/^    replicas: \[0, 1, 3, 0\]$/    replicas: [0, 2, 3, 0]/' $H/serve.plan.yaml >"$tmp/other-old.yaml"
timeout "$limit" $CAPPLAN export skypilot -q --plan $H/serve-burst.plan.yaml --from "$tmp/other-old.yaml" --now 2 \
    -o "$tmp/other" $H/serve-burst.yaml >"$tmp/out" 2>&1
if [ $? = 2 ] && grep -q "error: service 'chat': configuration 0 on 'aws:us-east-1:p3.2xlarge' runs 2 replicas in slot 1 in OLD, 1 in the re-plan: OLD is not the plan this re-plan was made from$" "$tmp/out"
then ok; else bad "export skypilot --from: an OLD of other replicas" "$(oneline "$tmp/out" 3)"; fi
# a hostile service name, re-planned: sh -n, and nothing of it runs
sed "s/^  - name: chat\$/  - name: 'it''s \"a\" \$(touch \"\$CP_PWNED\") \`touch \"\$CP_PWNED\"\`; x'/" $H/serve-burst.yaml >"$tmp/hsb.yaml"
run_plan "$tmp/hsb.plan.yaml" --method milp --from "$tmp/hs.plan.yaml" --now 2 "$tmp/hsb.yaml"
timeout "$limit" $CAPPLAN export skypilot -q --plan "$tmp/hsb.plan.yaml" --from "$tmp/hs.plan.yaml" --now 2 \
    -o "$tmp/hsb" "$tmp/hsb.yaml" 2>"$tmp/err"
if sh -n "$tmp/hsb/launch.sh" 2>"$tmp/shn"; then ok; else bad "hostile service re-planned: sh -n launch.sh" "$(oneline "$tmp/shn")"; fi
replan_night "$tmp/hs" "$tmp/hsb" 2
if [ "$rc" = 0 ] && [ ! -e "$tmp/pwned" ] && grep -qF "capplan-svc-002: up with 4 replicas of service 'it's \"a\" \$(touch" "$tmp/err" &&
    python3 $H/sky_as_planned.py "$tmp/hsb.plan.yaml" "$tmp/night" "$CP_CALLS" "$tmp/hsb.yaml" >"$tmp/check" 2>&1
then ok; else bad "hostile service re-planned: launch.sh" "exit $rc, pwned: $(ls "$tmp/pwned" 2>/dev/null): $(oneline "$tmp/err" 3) $(oneline "$tmp/check" 4)"; fi

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
if grep -q "^s2=\$(sbatch --parsable '--begin=now+3600' '--time=02:00:00' '--nodelist=rack-00' '--export=ALL,CAPPLAN_PORT=8001' '--comment=capplan-run:chat:c0:rack-00:1-3:8001' services/001-chat-c0-rack.sbatch)\$" "$tmp/servenow/submit.sh" &&
    grep -q "^s1=\$(sbatch --parsable '--time=04:00:00' " "$tmp/servenow/submit.sh"; then ok
else bad "serve: export slurm --begin now" "$(grep sbatch "$tmp/servenow/submit.sh" | head -n 2)"; fi
# the hostile service name of the SkyServe case: sh -n, and nothing runs
timeout "$limit" $CAPPLAN export slurm -q --plan "$tmp/hs.plan.yaml" -o "$tmp/hssl" "$tmp/hs.yaml" 2>"$tmp/err"
standin $t0 "$tmp/hssl/submit.sh"
if sh -n "$tmp/hssl/submit.sh" && sh -n "$tmp/hssl"/services/*.sbatch && [ "$rc" = 0 ] && [ ! -e "$tmp/pwned" ] &&
    grep -q '^#SBATCH --job-name=it_s__a____touch' "$tmp/hssl"/services/*.sbatch
then ok; else bad "hostile service: submit.sh" "exit $rc: $(oneline "$tmp/err" 3) $(ls "$tmp/pwned" 2>/dev/null)"; fi

# ---- services: Slurm, a re-plan (capplan.5 §10.5) ----------------------------
# tests/handoff/serve-late.yaml re-planned from slot 2 (serve-late.plan.yaml,
# verified with --from): export slurm --from writes the golden
# serve-slurm-replan/: replan.sh finds OLD's run of the second replica
# (slots 1-3, port 8001, running) by its --comment and keeps it, re-keyed
# to the re-plan's run of slots 1-4 (scontrol update Comment=), and
# submits a run from slot 3 to 4 on the same port after it. OLD's
# submit.sh and then replan.sh run against the stand-ins (squeue answers
# from the sbatch and scontrol calls, scancel and scontrol are recorded);
# slurm_night.py keeps what ran, and sbatch_as_planned.py finds the
# re-plan's replicas on the host in every slot, and not OLD's.
replan_golden slurm serve-late $H/serve-slurm-replan replan.sh \
    'capplan export: 0 new job scripts, 1 service replica run and replan.sh in .*'
# slurm_replan OLDDIR NEWDIR S PLAN INPUT: OLD's submit.sh, then NEW's
# replan.sh; the runs that ran in $tmp/night.calls, both folders' files
# in $tmp/slnight, sbatch_as_planned.py's verdict on PLAN in $tmp/check
slurm_replan() {
    standin $t0 "$1/submit.sh"
    PATH=$PWD/$H/bin:$PATH sh "$2/replan.sh" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    python3 $H/slurm_night.py "$CP_CALLS" 2026-12-01T00:00:00Z 1 "$3" >"$tmp/night.calls"
    rm -rf "$tmp/slnight" && cp -R "$1" "$tmp/slnight" && cp -R "$2/." "$tmp/slnight"
    python3 $H/sbatch_as_planned.py "$4" "$tmp/slnight" "$tmp/night.calls" "$5" >"$tmp/check" 2>&1
}
slurm_replan "$tmp/servesl" "$tmp/serve-late" 2 $H/serve-late.plan.yaml $H/serve-late.yaml
if [ "$rc" = 0 ] && [ "$(head -n 1 "$tmp/check")" = "3 replica runs of 1 pool deployment checked slot by slot" ] &&
    [ "$(tail -n 1 "$tmp/check")" = "0 pool jobs, 3 node-slots with jobs side by side (2 at most), 0 problems" ] &&
    printf '%s\n' '2 chat: replica on rack-00 from slot 1 to 3, port 8001, kept; a run from slot 3 follows' \
        '4 chat: replica on rack-00 from slot 3 to 4, port 8001' | cmp -s - "$tmp/out"
then ok; else bad "late: replan.sh and sbatch_as_planned.py" "exit $rc: $(oneline "$tmp/err" 2) $(oneline "$tmp/out" 2) $(oneline "$tmp/check" 6)"; fi
if ! python3 $H/sbatch_as_planned.py $H/serve.plan.yaml "$tmp/slnight" "$tmp/night.calls" $H/serve.yaml >"$tmp/check" 2>&1 &&
    grep -qx 'chat config 0 on rack-00, slot 3: 2 replicas run, planned 1' "$tmp/check"
then ok; else bad "late: sbatch_as_planned.py accepts OLD for the re-plan" "$(oneline "$tmp/check" 4)"; fi
# the burst of serve-burst.yaml changes no replica on the node: nothing
# cancelled or submitted, OLD's two runs kept
timeout "$limit" $CAPPLAN export slurm -q --plan $H/serve-burst.plan.yaml --from $H/serve.plan.yaml --now 2 \
    -o "$tmp/bsl" $H/serve-burst.yaml 2>"$tmp/err"
slurm_replan "$tmp/servesl" "$tmp/bsl" 2 $H/serve-burst.plan.yaml $H/serve-burst.yaml
if [ "$rc" = 0 ] && [ ! -s "$tmp/out" ] && [ ! -e "$tmp/bsl/services" ] &&
    grep -qx "# services: no replica on a pool changes from this slot on; OLD's runs stay queued" "$tmp/bsl/replan.sh" &&
    [ "$(head -n 1 "$tmp/check")" = "2 replica runs of 1 pool deployment checked slot by slot" ] &&
    tail -n 1 "$tmp/check" | grep -q ', 0 problems$'
then ok; else bad "burst: replan.sh keeps the node's runs" "exit $rc: $(oneline "$tmp/out" 2) $(oneline "$tmp/check" 4)"; fi
# at slot 1 with the load of slot 1 down to 10: the second replica's run
# (slots 1-3) had not begun: cancelled, nothing submitted
sed 's/load: \[10, 30, 50, 10\]/load: [10, 10, 10, 10]/' $H/serve.yaml >"$tmp/quiet.yaml"
run_plan "$tmp/quiet.plan.yaml" --method milp --from $H/serve.plan.yaml --now 1 "$tmp/quiet.yaml"
timeout "$limit" $CAPPLAN export slurm -q --plan "$tmp/quiet.plan.yaml" --from $H/serve.plan.yaml --now 1 \
    -o "$tmp/qsl" "$tmp/quiet.yaml" 2>"$tmp/err"
slurm_replan "$tmp/servesl" "$tmp/qsl" 1 "$tmp/quiet.plan.yaml" "$tmp/quiet.yaml"
if [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = '2 chat: replica on rack-00 from slot 1 to 3, port 8001, cancelled' ] &&
    [ "$(head -n 1 "$tmp/check")" = "1 replica runs of 1 pool deployment checked slot by slot" ] &&
    tail -n 1 "$tmp/check" | grep -q ', 0 problems$'
then ok; else bad "quiet: a pending run cancelled" "exit $rc: $(oneline "$tmp/out" 2) $(oneline "$tmp/check" 4)"; fi
# a flat load of 20 (OLD: two replicas on the node all night, runs 0-4 on
# ports 8000 and 8001) re-planned at slot 1 with slot 3's load 0: the
# second replica's job is kept, its time limit cut to 3 h and re-keyed to
# slots 0-3 (scontrol update TimeLimit= Comment=), nothing submitted
sed 's/load: \[10, 30, 50, 10\]/load: [20, 20, 20, 20]/' $H/serve.yaml >"$tmp/flat.yaml"
sed 's/load: \[10, 30, 50, 10\]/load: [20, 20, 20, 0]/' $H/serve.yaml >"$tmp/short.yaml"
run_plan "$tmp/flat.plan.yaml" --method milp "$tmp/flat.yaml"
run_plan "$tmp/short.plan.yaml" --method milp --from "$tmp/flat.plan.yaml" --now 1 "$tmp/short.yaml"
timeout "$limit" $CAPPLAN export slurm -q --plan "$tmp/flat.plan.yaml" -o "$tmp/fsl" "$tmp/flat.yaml" 2>"$tmp/err"
timeout "$limit" $CAPPLAN export slurm -q --plan "$tmp/short.plan.yaml" --from "$tmp/flat.plan.yaml" --now 1 \
    -o "$tmp/ssl" "$tmp/short.yaml" 2>>"$tmp/err"
slurm_replan "$tmp/fsl" "$tmp/ssl" 1 "$tmp/short.plan.yaml" "$tmp/short.yaml"
if [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = '2 chat: replica on rack-00 from slot 0 to 4, port 8001, kept to slot 3' ] &&
    grep -q "scontrol update JobId=\"\$id\" 'TimeLimit=03:00:00' 'Comment=capplan-run:chat:c0:rack-00:0-3:8001'" "$tmp/ssl/replan.sh" &&
    ! grep -q 'sbatch' "$tmp/ssl/replan.sh" &&
    [ "$(head -n 1 "$tmp/check")" = "2 replica runs of 1 pool deployment checked slot by slot" ] &&
    tail -n 1 "$tmp/check" | grep -q ', 0 problems$'
then ok; else bad "short: a running run's limit cut" "exit $rc: $(oneline "$tmp/err" 2) $(oneline "$tmp/out" 2) $(oneline "$tmp/check" 4)"; fi
# the hostile service name, re-planned: sh -n, nothing of it runs, the
# --comment holds its sanitized form only
sed 's/load: \[10, 30, 50, 10\]/load: [10, 30, 10, 30]/' "$tmp/hs.yaml" >"$tmp/hsl.yaml"
run_plan "$tmp/hsl.plan.yaml" --method milp --from "$tmp/hs.plan.yaml" --now 2 "$tmp/hsl.yaml"
timeout "$limit" $CAPPLAN export slurm -q --plan "$tmp/hsl.plan.yaml" --from "$tmp/hs.plan.yaml" --now 2 \
    -o "$tmp/hslx" "$tmp/hsl.yaml" 2>"$tmp/err"
slurm_replan "$tmp/hssl" "$tmp/hslx" 2 "$tmp/hsl.plan.yaml" "$tmp/hsl.yaml"
if sh -n "$tmp/hslx/replan.sh" && [ "$rc" = 0 ] && [ ! -e "$tmp/pwned" ] && [ "$(wc -l <"$tmp/out")" = 2 ] &&
    grep -q "^for id in \$(run_ids 'capplan-run:it_s__a____touch[A-Za-z0-9_.-]*:c0:rack-00:1-3:8001'); do scontrol update" "$tmp/hslx/replan.sh" &&
    tail -n 1 "$tmp/check" | grep -q ', 0 problems$'
then ok; else bad "hostile service re-planned: replan.sh" "exit $rc: $(oneline "$tmp/err" 3) $(oneline "$tmp/check" 3) $(ls "$tmp/pwned" 2>/dev/null)"; fi

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
