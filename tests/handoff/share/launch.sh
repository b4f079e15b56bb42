#!/bin/sh
# written by capplan export skypilot from plan 'tests/handoff/share.plan.yaml'; regenerate rather than edit
# runs the plan's 5 cloud jobs on 1 SkyPilot cluster at the planned times
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
say 'capplan-001: launch 2 nodes of on-demand '\''aws:us-east-1:p3.8xlarge'\'''
sky launch -y -c capplan-001 -i 180 --down clusters/001-aws_us-east-1_p3.8xlarge.yaml &
p1=$!
wait "$p1" || failed 'launch of capplan-001'
say 'job '\''a'\'' on capplan-001: 1 node, V100:1 each'
sky exec -d capplan-001 tasks/000-a.yaml || failed 'job '\''a'\'' on capplan-001'
say 'job '\''b'\'' on capplan-001: 1 node, V100:1 each'
sky exec -d capplan-001 tasks/001-b.yaml || failed 'job '\''b'\'' on capplan-001'
say 'job '\''c'\'' on capplan-001: 1 node, V100:1 each'
sky exec -d capplan-001 tasks/002-c.yaml || failed 'job '\''c'\'' on capplan-001'
say 'job '\''d'\'' on capplan-001: 1 node, V100:1 each'
sky exec -d capplan-001 tasks/003-d.yaml || failed 'job '\''d'\'' on capplan-001'

at 3600 # slot 1: 2026-12-01T01:00:00
say 'job '\''wide'\'' on capplan-001: 2 nodes, V100:4 each'
sky exec -d capplan-001 tasks/004-wide.yaml || failed 'job '\''wide'\'' on capplan-001'

at 7200 # slot 2: 2026-12-01T02:00:00
say 'capplan-001: down once idle'
sky autostop capplan-001 -i 1 --down || failed 'autodown of capplan-001'
exit "$status"
