#!/bin/sh
# written by capplan export skypilot from plan 'share-e.plan.yaml'; regenerate rather than edit
# runs the plan's 6 cloud jobs on 1 SkyPilot cluster at the planned times
# (launch.md): each cluster is launched at its start (sky launch), each job is
# queued on its cluster at its start (sky exec -d: SkyPilot's job queue runs the
# jobs of a cluster side by side, each on the accelerators and CPUs its task
# asks for), and each cluster is downed once idle from its stop on (sky
# autostop --down). A cluster whose script stopped early downs itself after
# idling for its planned life plus an hour. One line per step on standard
# error; exit status 1 when a step failed (the later steps still run).
set -u
cd "$(dirname "$0")" || exit 1
# A re-plan from slot 1 (capplan.5 "Re-planning"): run it instead of the
# earlier plan's launch.sh (stop that one first). The clusters and jobs
# that began before slot 1 run on as they are: only the steps from slot
# 1 on are here, and the clusters the re-plan ends then go down.
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

at 3600 # slot 1: 2026-12-01T01:00:00
say 'job '\''wide'\'' on capplan-001: 2 nodes, V100:4 each'
sky exec -d capplan-001 tasks/004-wide.yaml || failed 'job '\''wide'\'' on capplan-001'

at 7200 # slot 2: 2026-12-01T02:00:00
say 'job '\''e'\'' on capplan-001: 1 node, V100:1 each'
sky exec -d capplan-001 tasks/005-e.yaml || failed 'job '\''e'\'' on capplan-001'

at 10800 # slot 3: 2026-12-01T03:00:00
say 'capplan-001: down once idle'
sky autostop capplan-001 -i 1 --down || failed 'autodown of capplan-001'
exit "$status"
