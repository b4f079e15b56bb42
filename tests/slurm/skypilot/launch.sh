#!/bin/sh
# written by capplan export skypilot from plan 'tests/slurm/cloud.plan.yaml'; regenerate rather than edit
# runs the plan's 3 cloud jobs on 3 SkyPilot clusters at the planned times
# (launch.md): each cluster is launched at its start (sky launch), each job is
# queued on its cluster at its start (sky exec -d: SkyPilot's job queue runs the
# jobs of a cluster side by side, each on the accelerators and CPUs its task
# asks for), and each cluster is downed once idle from its stop on (sky
# autostop --down). A cluster whose script stopped early downs itself after
# idling for its planned life plus an hour. One line per step on standard
# error; exit status 1 when a step failed (the later steps still run).
set -u
cd "$(dirname "$0")" || exit 1
t0=1796083200 # horizon.start, 2026-12-01T00:00:00 UTC, in seconds since 1970
case $t0 in '' | *[!0-9]*)
    printf 'capplan launch: no start time, date said: %s\n' "$t0" >&2
    exit 1 ;;
esac
status=0
# at SECONDS: waits until t0 + SECONDS
at() {
    now=$(date +%s)
    if [ "$((t0 + $1))" -gt "$now" ]; then sleep "$((t0 + $1 - now))"; fi
}
# say TEXT: a line of progress; failed TEXT: a step that failed
say() { printf 'capplan launch: %s\n' "$1" >&2; }
failed() { printf 'capplan launch: failed: %s\n' "$1" >&2; status=1; }

at 0 # slot 0: 2026-12-01T00:00:00
say 'capplan-001: launch 1 node of spot '\''gcp:us-central1:n1-standard-8+1xV100'\'''
sky launch -y -c capplan-001 -i 180 --down clusters/001-gcp_us-central1_n1-standard-8_1xV100.yaml &
p1=$!
say 'capplan-002: launch 1 node of on-demand '\''aws:us-east-1:p3.8xlarge'\'''
sky launch -y -c capplan-002 -i 120 --down clusters/002-aws_us-east-1_p3.8xlarge.yaml &
p2=$!
wait "$p1" || failed 'launch of capplan-001'
wait "$p2" || failed 'launch of capplan-002'
say 'job '\''train-a'\'' on capplan-001: 1 node, V100:1 each'
sky exec -d capplan-001 tasks/000-train-a.yaml || failed 'job '\''train-a'\'' on capplan-001'
say 'job '\''big'\'' on capplan-002: 1 node, V100:4 each'
sky exec -d capplan-002 tasks/002-big.yaml || failed 'job '\''big'\'' on capplan-002'

at 3600 # slot 1: 2026-12-01T01:00:00
say 'capplan-002: down once idle'
sky autostop capplan-002 -i 1 --down || failed 'autodown of capplan-002'
say 'capplan-003: launch 1 node of spot '\''gcp:us-central1:n1-standard-8+1xV100'\'''
sky launch -y -c capplan-003 -i 180 --down clusters/003-gcp_us-central1_n1-standard-8_1xV100.yaml &
p1=$!
wait "$p1" || failed 'launch of capplan-003'
say 'job '\''train-b'\'' on capplan-003: 1 node, V100:1 each'
sky exec -d capplan-003 tasks/001-train-b.yaml || failed 'job '\''train-b'\'' on capplan-003'

at 7200 # slot 2: 2026-12-01T02:00:00
say 'capplan-001: down once idle'
sky autostop capplan-001 -i 1 --down || failed 'autodown of capplan-001'

at 10800 # slot 3: 2026-12-01T03:00:00
say 'capplan-003: down once idle'
sky autostop capplan-003 -i 1 --down || failed 'autodown of capplan-003'
exit "$status"
