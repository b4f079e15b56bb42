#!/bin/sh
# written by capplan export slurm from plan 'tests/handoff/serve.plan.yaml'; regenerate rather than edit
# submits the plan's 0 pool jobs in dependency order; prints one line per
# job: its Slurm job id and its name; then each run of a service's replica on a
# node (services/, capplan.5 §10.4)
set -eu
cd "$(dirname "$0")"
TZ=UTC0; export TZ # --begin times are UTC
# service 'chat', configuration 0 on pool 'rack': 2 replica runs
s1=$(sbatch --parsable '--begin=2026-12-01T00:00:00' '--time=04:00:00' '--nodelist=rack-00' '--export=ALL,CAPPLAN_PORT=8000' '--comment=capplan-run:chat:c0:rack-00:0-4:8000' services/001-chat-c0-rack.sbatch)
s1=${s1%%;*}
printf '%s %s\n' "$s1" 'chat: replica on rack-00 from slot 0 to 4, port 8000'
s2=$(sbatch --parsable '--begin=2026-12-01T01:00:00' '--time=02:00:00' '--nodelist=rack-00' '--export=ALL,CAPPLAN_PORT=8001' '--comment=capplan-run:chat:c0:rack-00:1-3:8001' services/001-chat-c0-rack.sbatch)
s2=${s2%%;*}
printf '%s %s\n' "$s2" 'chat: replica on rack-00 from slot 1 to 3, port 8001'
