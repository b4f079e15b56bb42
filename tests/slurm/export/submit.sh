#!/bin/sh
# written by capplan export slurm from plan 'tests/slurm/plan.yaml'; regenerate rather than edit
# submits the plan's 4 pool jobs in dependency order; prints one line per
# job: its Slurm job id and its name
set -eu
cd "$(dirname "$0")"
j0=$(sbatch --parsable jobs/000-prep.sbatch)
j0=${j0%%;*}
printf '%s %s\n' "$j0" 'prep'
j1=$(sbatch --parsable --dependency=afterok:$j0 jobs/001-left.sbatch)
j1=${j1%%;*}
printf '%s %s\n' "$j1" 'left'
j2=$(sbatch --parsable --dependency=afterok:$j0 jobs/002-it_s_right.sbatch)
j2=${j2%%;*}
printf '%s %s\n' "$j2" 'it'\''s right'
j3=$(sbatch --parsable --dependency=afterok:$j1:$j2 jobs/003-join.sbatch)
j3=${j3%%;*}
printf '%s %s\n' "$j3" 'join'
# dropped: 'never': dropped by the optimizer: cheaper to pay the penalty ($0.00) than to run it; its cheapest feasible mode (1 on big from slot 0) adds $0.01
