#!/bin/sh
# written by capplan export slurm from plan 'tests/handoff/serve-late.plan.yaml'; regenerate rather than edit
# the re-plan from slot 2 (capplan.5 "Re-planning"): cancels what it no
# longer runs as planned, moves the start of pending jobs, submits 0 new
# runs; prints one line per job it submits or moves: its id and its name
set -eu
cd "$(dirname "$0")"
TZ=UTC0; export TZ # --begin times are UTC
# the ids of the jobs named, still queued or running, as :ID:ID
queued() { for n in "$@"; do squeue -h -u "$(id -un)" -n "$n" -o ':%i'; done | tr -d '\n'; }
# services (capplan.5 §10.4): OLD's replica runs the re-plan does not run as OLD did,
# found by their --comment, are cancelled (a running replica it keeps runs on, re-keyed);
# its own are submitted from this slot on
run_ids() { squeue -h -u "$(id -un)" -o '%i %k' | awk -v k="$1" '$2 == k { print $1 }'; }
for id in $(run_ids 'capplan-run:chat:c0:rack-00:1-3:8001'); do scontrol update JobId="$id" 'Comment=capplan-run:chat:c0:rack-00:1-4:8001' && printf '%s %s\n' "$id" 'chat: replica on rack-00 from slot 1 to 3, port 8001, kept; a run from slot 3 follows'; done
# service 'chat', configuration 0 on pool 'rack': 1 replica run kept, 1 new from slot 2 on
s2=$(sbatch --parsable '--begin=2026-12-01T03:00:00' '--time=01:00:00' '--nodelist=rack-00' '--export=ALL,CAPPLAN_PORT=8001' '--comment=capplan-run:chat:c0:rack-00:1-4:8001' services/001-chat-c0-rack.sbatch)
s2=${s2%%;*}
printf '%s %s\n' "$s2" 'chat: replica on rack-00 from slot 3 to 4, port 8001'
