#!/bin/sh
# written by capplan export slurm from plan 'h-new.yaml'; regenerate rather than edit
# the re-plan from slot 1 (capplan.5 "Re-planning"): cancels what it no
# longer runs as planned, moves the start of pending jobs, submits 1 new
# run; prints one line per job it submits or moves: its id and its name
set -eu
cd "$(dirname "$0")"
TZ=UTC0; export TZ # --begin times are UTC
# the ids of the jobs named, still queued or running, as :ID:ID
queued() { for n in "$@"; do squeue -h -u "$(id -un)" -n "$n" -o ':%i'; done | tr -d '\n'; }
