#!/bin/sh
# written by capplan export skypilot from plan 'tests/handoff/serve-burst.plan.yaml'; regenerate rather than edit
# runs the plan's 0 cloud jobs on 0 SkyPilot clusters at the planned times
# (launch.md): each cluster is launched at its start (sky launch), each job is
# queued on its cluster at its start (sky exec -d: SkyPilot's job queue runs the
# jobs of a cluster side by side, each on the accelerators and CPUs its task
# asks for), and each cluster is downed once idle from its stop on (sky
# autostop --down). A cluster whose script stopped early downs itself after
# idling for its planned life plus an hour. One line per step on standard
# error; exit status 1 when a step failed (the later steps still run).
set -u
cd "$(dirname "$0")" || exit 1
# Services: 2 SkyServe services, one per cloud deployment (launch.md),
# brought up at their first replicas (sky serve up), set to each slot's
# count (sky serve update) and taken down without replicas (sky serve down).
# A re-plan from slot 2 (capplan.5 "Re-planning"): run it instead of the
# earlier plan's launch.sh (stop that one first). The clusters and jobs
# that began before slot 2 run on as they are: only the steps from slot
# 2 on are here, and the clusters the re-plan ends then go down.
# The SkyServe services up then keep their names and replicas: each is
# scaled, taken down or brought up from that slot on as the re-plan says.
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

at 7200 # slot 2: 2026-12-01T02:00:00
say 'capplan-svc-001: 4 replicas of service '\''chat'\'' (from 1)'
sky serve update -y capplan-svc-001 services/001-chat-c0-x4.yaml &
p1=$!
say 'capplan-svc-002: up with 4 replicas of service '\''chat'\'', on-demand '\''aws:us-west-2:p3.2xlarge'\'''
sky serve up -y -n capplan-svc-002 services/002-chat-c0-x4.yaml &
p2=$!
wait "$p1" || failed 'scaling of capplan-svc-001'
wait "$p2" || failed 'serve up of capplan-svc-002'

at 10800 # slot 3: 2026-12-01T03:00:00
say 'capplan-svc-001: down, service '\''chat'\'' has no replicas there'
sky serve down -y capplan-svc-001 || failed 'serve down of capplan-svc-001'
say 'capplan-svc-002: down, service '\''chat'\'' has no replicas there'
sky serve down -y capplan-svc-002 || failed 'serve down of capplan-svc-002'
exit "$status"
