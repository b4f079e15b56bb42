#!/bin/sh
# The nightly example from plan to execution (docs/execution.md), on a
# Slurm shaped like its fleet.
#
# One machine stands in for the fleet: one slurmd per pool node, named by
# the pool's `hosts` and declared with the pool's CPUs, memory and GPUs
# (tests/execution/fleet_conf.py; SlurmdParameters=config_overrides lets
# a node declare more than this machine has, and each GPU is a link to
# /dev/null, the device file gres/gpu counts), all on 127.0.0.1 with ports
# of their own, munged and slurmctld as in tests/suite_slurm.sh, state in
# $tmp, stopped on exit whatever happens. The jobs' `run` commands launch
# Gavel and Spark, which this machine lacks, so a copy of the inputs gives
# every job a stand-in that records its start and end; the plan is the
# same (it verifies against the copy).
#
# Checks: the nightly plan (heuristic, node limit: seconds, reproducible)
# verifies; export slurm's scripts all run to COMPLETED through
# submit.sh, each on the plan's nodes with its CPUs, memory, GPUs and time
# limit, after its predecessors (tests/execution/as_planned.py), and so
# do the pool jobs of a night imported from examples/data
# (tests/handoff/imported_night.sh: Alibaba nodes, catalogs, Gavel);
# export skypilot writes one task per cloud job and launch.sh (run
# against stand-ins by tests/suite_handoff.sh); a
# sweep of tests/execution/sweep.yaml as a 3-task array (whatif
# --slurm-array) merges into the table one unsharded run writes, byte for
# byte. The tiny night, re-planned three times from a slot of the night
# as it runs (a start moved, a node down, an urgent job: docs/execution.md,
# section 6), each re-plan's replan.sh run: Slurm then holds the re-plan, jobs
# kept, moved, new and cancelled as the two plans say
# (tests/execution/replan_as_planned.py); and a service's replica runs
# re-planned: Slurm then queues exactly the re-plan's runs, OLD's found
# by their --comment and re-keyed. Without Slurm's packages or PyYAML (and always under `make check`,
# which runs no daemons) the suite is one skipped check; `make test`
# installs them and fails a skip. If the daemons cannot start, the suite
# fails with their errors. About 60 s.
SUITE=execution
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/slurm_lib.sh
. "$(dirname "$0")/slurm_lib.sh"
S=$tmp/slurm
nightly="examples/nightly/fleet.yaml examples/nightly/jobs-dataflow.yaml examples/nightly/jobs-training.yaml examples/nightly/offers.yaml examples/nightly/sites.yaml examples/nightly/teams.yaml"
ctld_pid= pids=

# stop_fleet: the fleet's jobs cancelled, its daemons stopped (slurm_lib.sh)
stop_fleet() {
    # shellcheck disable=SC2086 # one pid a word
    slurm_stop "$ctld_pid" $pids
    ctld_pid= pids=
}
trap 'stop_fleet; chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP

fleet_fail() {
    bad "fleet" "$1"
    slurm_errors "$S"/*.out "$S"/munged.log "$S"/log/*.log
    test_done
}

# a fleet of daemons (SLURM) and PyYAML (tests/lib.sh): outside `make
# check`'s tier, installed by `make test`, under which a skip fails
test_require SLURM PYYAML

# ---- the plan, and its export without daemons -------------------------------

if plan_verify "nightly plan" "$tmp/plan.yaml" --method heuristic --node-limit 100 -- $nightly; then :; fi
mkdir -p "$tmp/standin" "$tmp/trace"
# standin_inputs DIR FILE...: the stand-in payload, the same inputs in DIR
# with every job's run replaced
standin_inputs() {
    python3 - "$@" <<'EOF'
import os, sys, yaml
run = ('echo start $(date +%s.%N) >> "$CP_TRACE/$SLURM_JOB_NAME"; sleep 2; '
       'echo end $(date +%s.%N) >> "$CP_TRACE/$SLURM_JOB_NAME"')
for f in sys.argv[2:]:
    doc = yaml.safe_load(open(f, encoding="utf-8"))
    for j in doc.get("jobs", []):
        j["run"] = run
    yaml.safe_dump(doc, open(os.path.join(sys.argv[1], os.path.basename(f)), "w"), sort_keys=False)
EOF
}
# shellcheck disable=SC2086
if standin_inputs "$tmp/standin" $nightly; then ok; else bad "stand-in inputs"; fi
verify_ok "the plan verifies against the stand-in inputs" "$tmp/plan.yaml" "$tmp"/standin/*.yaml
# the night a new user imports (tests/handoff/imported_night.sh): its pool
# nodes join the fleet, its pool jobs run there below
mkdir -p "$tmp/imp-standin"
sh tests/handoff/imported_night.sh "$CAPPLAN" "$tmp/imp" >"$tmp/imp.out" || bad "imported night: imports" "$(oneline "$tmp/imp.out")"
imp_in="$tmp/imp/caiso.yaml $tmp/imp/inv.yaml $tmp/imp/gcp.yaml $tmp/imp/azure.yaml $tmp/imp/gavel.yaml"
# shellcheck disable=SC2086
if plan_verify "imported night plan" "$tmp/imp.yaml" --method heuristic -- $imp_in &&
    standin_inputs "$tmp/imp-standin" $imp_in; then ok; else bad "imported night: stand-in inputs"; fi

timeout "$limit" $CAPPLAN export skypilot -q --plan "$tmp/plan.yaml" -o "$tmp/cloud" $nightly 2>"$tmp/err"
cloud=$(grep -c '^  market: \(on_demand\|spot\)$' "$tmp/plan.yaml")
tasks=$(ls "$tmp/cloud/tasks" 2>/dev/null | wc -l)
if [ "$cloud" -gt 0 ] && [ "$tasks" = "$cloud" ] && [ -x "$tmp/cloud/launch.sh" ]; then ok
else bad "export skypilot: $tasks tasks for $cloud cloud jobs" "$(oneline "$tmp/err")"; fi

# ---- a Slurm shaped like the fleet ----------------------------------------

mkdir -p "$S/state" "$S/log"
slurm_munged "$S"
mrc=$?
pids=$munge_pid
[ "$mrc" = 0 ] || fleet_fail "munged did not answer within $wait_s s"
# a free run of ports: slurmctld's, then one per node
CP_PORT=$((20000 + ($$ * 37 + $(date +%s)) % 30000))
export CP_PORT
# the re-planned night of the last part, tiny.yaml with hosts rack-00 and
# rack-01 and a payload that runs until it is cancelled
sed -e 's/^    nodes: 2  .*/    nodes: 2\n    hosts: "rack-%02d"/' -e 's/^    kind: \(.*\)$/    kind: \1\n    run: sleep 300/' \
    examples/tiny.yaml >"$tmp/night.yaml"
sed 's/^    kind: \(.*\)$/    kind: \1\n    run: sleep 300/' tests/replan/urgent.yaml >"$tmp/urgent.yaml"
if ! python3 tests/execution/fleet_conf.py "$S" $nightly "$tmp/night.yaml" "$tmp/imp/inv.yaml" >"$S/nodes" 2>"$tmp/err"; then
    fleet_fail "fleet_conf.py: $(oneline "$tmp/err")"
fi
host=$(hostname -s)
cat >"$S/slurm.conf" <<EOF
# written by tests/suite_execution.sh: the nightly fleet on this machine
ClusterName=fleet$$
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$CP_PORT
$(slurm_conf_common "$S")
SlurmdSpoolDir=$S/spool/%n
SlurmdPidFile=$S/slurmd.%n.pid
SlurmdLogFile=$S/log/slurmd.%n.log
SlurmdParameters=config_overrides
SchedulerType=sched/backfill
GresTypes=gpu
EOF
sed "s/NodeAddr=127.0.0.1/NodeAddr=127.0.0.1 NodeHostname=$host/" "$S/nodes.conf" >>"$S/slurm.conf"
SLURM_CONF=$S/slurm.conf
export SLURM_CONF
slurmctld -D -i -f "$S/slurm.conf" >"$S/slurmctld.out" 2>&1 &
ctld_pid=$!
n_nodes=0
while read -r node; do
    mkdir -p "$S/spool/$node"
    slurmd -D -N "$node" -f "$S/slurm.conf" >"$S/slurmd.$node.out" 2>&1 &
    pids="$pids $!"
    n_nodes=$((n_nodes + 1))
done <"$S/nodes"
all_idle() {
    [ "$(sinfo -h -N -t idle -o '%N' 2>/dev/null | sort -u | wc -l)" = "$n_nodes" ]
}
poll "$wait_s" all_idle || fleet_fail "not all $n_nodes nodes idle within $wait_s s: $(sinfo -h -N -o '%N=%T' 2>&1 | grep -v idle | head -n 5 | tr '\n' ' ')"
ok "fleet: $n_nodes nodes idle"

# ---- the plan's pool jobs on the fleet ------------------------------------

CP_TRACE=$tmp/trace
export CP_TRACE
timeout "$limit" $CAPPLAN export slurm -q --begin now --plan "$tmp/plan.yaml" -o "$tmp/run" "$tmp"/standin/*.yaml \
    2>"$tmp/err" || bad "export slurm --begin now" "$(oneline "$tmp/err")"
if (cd "$tmp" && sh run/submit.sh) >"$tmp/submit" 2>"$tmp/err"; then ok; else bad "submit.sh" "$(oneline "$tmp/err")"; fi
queue_empty() { [ "$(squeue -h 2>/dev/null | wc -l)" = 0 ]; }
poll $((wait_s * 3)) queue_empty || bad "the jobs did not finish within $((wait_s * 3)) s" "$(squeue -h | head -n 3 | tr '\n' ' ')"
if python3 tests/execution/as_planned.py "$tmp/plan.yaml" "$tmp/submit" "$tmp/trace" "$tmp"/standin/*.yaml >"$tmp/check" 2>&1
then ok "$(tail -n 1 "$tmp/check")"; else bad "jobs as planned" "$(oneline "$tmp/check" 8)"; fi
# the check itself: a plan that says one more CPU for its first job fails it
awk '!d && /^  cpus: / { $2 = $2 + 1; print "  cpus: " $2; d = 1; next } { print }' "$tmp/plan.yaml" >"$tmp/plan-off.yaml"
if python3 tests/execution/as_planned.py "$tmp/plan-off.yaml" "$tmp/submit" "$tmp/trace" "$tmp"/standin/*.yaml >"$tmp/check-off" 2>&1
then bad "as_planned.py accepts a plan with one CPU more"; else ok; fi

# the imported night's pool jobs on its Alibaba nodes
timeout "$limit" $CAPPLAN export slurm -q --begin now --plan "$tmp/imp.yaml" -o "$tmp/imp-run" "$tmp"/imp-standin/*.yaml \
    2>"$tmp/err" || bad "imported night: export slurm --begin now" "$(oneline "$tmp/err")"
if (cd "$tmp" && sh imp-run/submit.sh) >"$tmp/imp-submit" 2>"$tmp/err"; then ok; else bad "imported night: submit.sh" "$(oneline "$tmp/err")"; fi
poll $((wait_s * 3)) queue_empty || bad "the imported night did not finish within $((wait_s * 3)) s" "$(squeue -h | head -n 3 | tr '\n' ' ')"
pool=$(grep -c '^  market: pool$' "$tmp/imp.yaml")
if python3 tests/execution/as_planned.py "$tmp/imp.yaml" "$tmp/imp-submit" "$tmp/trace" "$tmp"/imp-standin/*.yaml >"$tmp/check" 2>&1 &&
    [ "$pool" -gt 0 ] && [ "$(wc -l <"$tmp/imp-submit" | tr -d ' ')" = "$pool" ]
then ok "imported night: $(tail -n 1 "$tmp/check")"; else bad "imported night: jobs as planned" "$pool pool jobs: $(oneline "$tmp/check" 8)"; fi

# ---- a sweep of the nightly as a job array --------------------------------

w="--scenarios tests/execution/sweep.yaml --method heuristic --node-limit 100 --no-timing --quiet --threads 1"
# shellcheck disable=SC2086
timeout "$limit" $CAPPLAN whatif $w -o "$tmp/whole.md" $nightly 2>"$tmp/err" || bad "whatif (one run)" "$(oneline "$tmp/err")"
# shellcheck disable=SC2086
timeout "$limit" $CAPPLAN whatif $w --slurm-array "$tmp/arr" --shards 3 $nightly 2>"$tmp/err" ||
    bad "whatif --slurm-array" "$(oneline "$tmp/err")"
if sh "$tmp/arr/submit.sh" >"$tmp/arr-submit" 2>"$tmp/err"; then ok; else bad "array submit.sh" "$(oneline "$tmp/err")"; fi
poll $((wait_s * 3)) queue_empty || bad "the array did not finish" "$(squeue -h | head -n 3 | tr '\n' ' ')"
n=$(grep -c 'Name=capplan-whatif JobState=COMPLETED' "$S/log/jobcomp.log")
if [ "$n" = 3 ]; then ok; else bad "array: $n of 3 tasks COMPLETED" "$(oneline "$S/log/jobcomp.log" 3)"; fi
test_cmp "$tmp/whole.md" "$tmp/arr/whatif.md"

# ---- a re-plan handed to the fleet (docs/execution.md, section 6) -----------
# replan_case NAME S PENALTY WANT INPUT...: the tiny night whose slot S
# begins in 30 minutes (so slots before S have begun and their jobs run,
# the others wait for their --begin), planned (OLD) and submitted; once
# OLD's jobs before S run, re-planned from S on INPUT with --change-penalty
# PENALTY, exported with --from and replan.sh run; Slurm then holds the
# re-plan (tests/execution/replan_as_planned.py), whose summary matches
# the ERE WANT. The queue is emptied after.
TZ=UTC0
export TZ
replan_case() {
    rc_name=$1 rc_now=$2 rc_p=$3 rc_want=$4
    shift 4
    rc_d=$tmp/rp-$rc_name
    mkdir -p "$rc_d"
    rc_start=$(date -u -d "@$(($(date +%s) - rc_now * 3600 + 1800))" +%Y-%m-%dT%H:%M:%SZ)
    sed "s/^  start: .*/  start: \"$rc_start\"/" "$tmp/night.yaml" >"$rc_d/old-in.yaml"
    for rc_f in "$@"; do
        sed "s/^  start: .*/  start: \"$rc_start\"/" "$rc_f" >"$rc_d/new-$(basename "$rc_f")"
    done
    if ! timeout "$limit" $CAPPLAN plan -q --method milp -o "$rc_d/old.yaml" "$rc_d/old-in.yaml" 2>"$tmp/err" ||
        ! timeout "$limit" $CAPPLAN export slurm -q --plan "$rc_d/old.yaml" -o "$rc_d/old" "$rc_d/old-in.yaml" 2>>"$tmp/err" ||
        ! sh "$rc_d/old/submit.sh" >"$rc_d/submit" 2>>"$tmp/err"; then
        bad "replan-$rc_name: OLD planned and submitted" "$(oneline "$tmp/err")"
        return
    fi
    rc_run=$(awk -v s="$rc_now" '/^- name: / { n = 0 } /^  market: pool$/ { n = 1 }
        /^  start_slot: / && n && $2 < s { c++ } END { print c + 0 }' "$rc_d/old.yaml")
    # shellcheck disable=SC2317 # called by poll
    rc_running() { [ "$(squeue -h -t RUNNING | wc -l)" = "$rc_run" ]; }
    poll "$wait_s" rc_running || bad "replan-$rc_name: OLD's $rc_run jobs before slot $rc_now not running" \
        "$(squeue -h -o '%j %T %r' | tr '\n' ' ')"
    if timeout "$limit" $CAPPLAN plan -q --method milp --node-limit 50 --from "$rc_d/old.yaml" --now "$rc_now" \
        --change-penalty "$rc_p" -o "$rc_d/new.yaml" "$rc_d"/new-*.yaml 2>"$tmp/err" &&
        timeout "$limit" $CAPPLAN export slurm -q --plan "$rc_d/new.yaml" --from "$rc_d/old.yaml" --now "$rc_now" \
            -o "$rc_d/new" "$rc_d"/new-*.yaml 2>>"$tmp/err" &&
        sh "$rc_d/new/replan.sh" >"$rc_d/replan" 2>>"$tmp/err"; then
        ok "replan-$rc_name: re-planned, replan.sh ran"
    else
        bad "replan-$rc_name: re-plan and replan.sh" "$(oneline "$tmp/err")"
    fi
    if python3 tests/execution/replan_as_planned.py "$rc_d/new.yaml" "$rc_d/old.yaml" "$rc_now" "$rc_d/submit" \
        "$rc_d/replan" "$rc_d"/new-*.yaml >"$rc_d/check" 2>&1 && tail -n 1 "$rc_d/check" | grep -Eq "$rc_want"; then
        ok "replan-$rc_name: $(tail -n 1 "$rc_d/check")"
    else
        bad "replan-$rc_name: Slurm holds the re-plan" "$(oneline "$rc_d/check" 6) (want $rc_want)"
    fi
    # the check itself: OLD taken for the re-plan fails it
    if python3 tests/execution/replan_as_planned.py "$rc_d/old.yaml" "$rc_d/old.yaml" "$rc_now" "$rc_d/submit" \
        "$rc_d/replan" "$rc_d"/new-*.yaml >"$rc_d/check-old" 2>&1; then
        bad "replan-$rc_name: replan_as_planned.py accepts OLD" "$(oneline "$rc_d/check-old")"
    else ok; fi
    timeout 10 scancel --quiet --user="$(id -un)" >/dev/null 2>&1
    poll "$wait_s" queue_empty || bad "replan-$rc_name: the queue did not empty"
}
# the energy of slot 3 at $0.90: etl (on rack-01, pending) moves from slot
# 2 to slot 0 on its node: its start is updated; train-small moves from
# rack-01 x1 to rack-00 x2 (cancelled, a new job); train-wide is kept
sed 's/^    energy_price: 0.10 .*/    energy_price: [0.10, 0.10, 0.10, 0.90]/' "$tmp/night.yaml" >"$tmp/price.yaml"
replan_case price 0 0 '^1 kept, 1 start moved, 1 new, 0 cancelled; 0 problems$' "$tmp/price.yaml"
# the rack down from 02:00 (tests/suite_replan.sh, 2): train-small,
# running on rack-01 in slots 0-1, kept; train-wide, running on rack-00, restarted on the
# cloud and etl dropped: both cancelled, train-wide while it runs
sed -e 's/^    nodes: 2$/    nodes: 2\n    available: [2, 2, 0, 0]/' \
    -e 's/^    drop_penalty: 2000$/    drop_penalty: 2000\n    checkpoint_minutes: 45/' "$tmp/night.yaml" >"$tmp/down.yaml"
replan_case down 2 5 '^1 kept, 0 start moved, 0 new, 2 cancelled; 0 problems$' "$tmp/down.yaml"
# an urgent job at 01:00 (P = 7): a new job on the rack from slot 2; etl or
# train-wide, both pending, to the cloud (cancelled); train-small kept
replan_case urgent 1 7 '^[12] kept, 0 start moved, [12] new, 1 cancelled; 0 problems$' "$tmp/night.yaml" "$tmp/urgent.yaml"

# ---- services re-planned on the fleet (docs/execution.md, section 6) -------
# The tiny night's rack without its jobs, with a service chat (1 x V100 a
# replica, 10 requests/s each, run: sleep 300), load 10, 30, 30, 10: OLD
# runs replicas [1, 3, 3, 1], each run a Slurm job whose --comment is its
# key. Slot 1 has begun when slot 3's load turns out 30: re-planned from
# slot 2 ([1, 3, 3, 3]), replan.sh finds OLD's two running runs of slots
# 1-2 by their comments, keeps them, re-keyed to the re-plan's runs of
# slots 1-3 (scontrol update Comment=), and submits a run after each for
# slot 3; Slurm then queues exactly the re-plan's runs that have not ended
# (the keys of its whole export's submit.sh, an end past slot 2), each
# kept run's key twice (its job and the run after it).
sv_d=$tmp/rp-svc
mkdir -p "$sv_d"
sv_start=$(date -u -d "@$(($(date +%s) - 2 * 3600 + 1800))" +%Y-%m-%dT%H:%M:%SZ)
for sv in "old 10, 30, 30, 10" "new 10, 30, 30, 30"; do
    { sed -e "s/^  start: .*/  start: \"$sv_start\"/" -e '/^jobs:/,$d' "$tmp/night.yaml"
      printf 'jobs: []\nservices:\n  - {name: chat, load: [%s], run: sleep 300, start_cost: 1, unserved_penalty: 1,\n     replicas: [{accelerator: V100, count: 1, cpus: 4, memory_gb: 16, rate: 10}]}\n' "${sv#* }"
    } >"$sv_d/${sv%% *}-in.yaml"
done
# sv_begun: OLD's runs begun before slot 2 (3 of them) all run
# shellcheck disable=SC2317 # called by poll
sv_begun() { [ "$(squeue -h -t RUNNING -o '%k' | grep -c ':[01]-[0-9]*:[0-9]*$')" = 3 ]; }
if timeout "$limit" $CAPPLAN plan -q --method milp -o "$sv_d/old.yaml" "$sv_d/old-in.yaml" 2>"$tmp/err" &&
    timeout "$limit" $CAPPLAN export slurm -q --plan "$sv_d/old.yaml" -o "$sv_d/old" "$sv_d/old-in.yaml" 2>>"$tmp/err" &&
    sh "$sv_d/old/submit.sh" >"$sv_d/submit" 2>>"$tmp/err" &&
    poll "$wait_s" sv_begun &&
    timeout "$limit" $CAPPLAN plan -q --method milp --from "$sv_d/old.yaml" --now 2 -o "$sv_d/new.yaml" "$sv_d/new-in.yaml" 2>>"$tmp/err" &&
    timeout "$limit" $CAPPLAN export slurm -q --plan "$sv_d/new.yaml" --from "$sv_d/old.yaml" --now 2 -o "$sv_d/new" "$sv_d/new-in.yaml" 2>>"$tmp/err" &&
    timeout "$limit" $CAPPLAN export slurm -q --plan "$sv_d/new.yaml" -o "$sv_d/whole" "$sv_d/new-in.yaml" 2>>"$tmp/err" &&
    sh "$sv_d/new/replan.sh" >"$sv_d/replan" 2>>"$tmp/err"; then
    ok "svc-replan: planned, submitted, re-planned, replan.sh ran"
else
    bad "svc-replan: plan, submit, re-plan and replan.sh" "$(oneline "$tmp/err")"
fi
# live_keys SUBMIT: the keys of SUBMIT's replica runs that end past slot 2
live_keys() {
    grep -o "comment=capplan-run:[^']*" "$1" | sed 's/^comment=//' |
        awk -F: '{ split($5, r, "-"); if (r[2] > 2) print }' | sort
}
live_keys "$sv_d/whole/submit.sh" >"$sv_d/want"
live_keys "$sv_d/old/submit.sh" >"$sv_d/old-keys" # what Slurm would queue without replan.sh
squeue -h -u "$(id -un)" -t PENDING,RUNNING,CONFIGURING -o '%k' | grep '^capplan-run:' | sort -u >"$sv_d/have"
sv_kept=$(grep -c ', kept; a run from slot 3 follows$' "$sv_d/replan")
sv_new=$(grep -c '^s[0-9]*=\$(sbatch' "$sv_d/new/replan.sh")
# the kept runs' jobs run on: the same ids, RUNNING, with the re-plan's keys
sv_running=0
for sv_id in $(grep ', kept; a run from slot 3 follows$' "$sv_d/replan" | cut -d' ' -f1); do
    squeue -h -j "$sv_id" -o '%T %k' | grep -q '^RUNNING capplan-run:chat:c0:[^:]*:1-4:' && sv_running=$((sv_running + 1))
done
if [ -s "$sv_d/want" ] && cmp -s "$sv_d/want" "$sv_d/have" && ! cmp -s "$sv_d/want" "$sv_d/old-keys" && [ "$sv_kept" = 2 ] && [ "$sv_running" = 2 ] && [ "$sv_new" = 2 ]; then
    ok "svc-replan: Slurm queues the re-plan's $(wc -l <"$sv_d/want") replica runs ($sv_kept running kept, $sv_new new)"
else
    bad "svc-replan: the queued replica runs are not the re-plan's" \
        "want $(tr '\n' ' ' <"$sv_d/want"), have $(tr '\n' ' ' <"$sv_d/have"), $sv_kept kept ($sv_running running), $sv_new new"
fi
timeout 10 scancel --quiet --user="$(id -un)" >/dev/null 2>&1
poll "$wait_s" queue_empty || bad "svc-replan: the queue did not empty"

test_done
