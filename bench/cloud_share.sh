#!/bin/sh
# bench/cloud_share.sh INSTANCE PLAN: how much of the accelerator work a
# plan puts in the cloud, for instances of `bench/gen --family cloud`
# (which note each training job's work, "N V100 GPU-hours", in a comment).
#
# Prints one line of key=value fields:
#   train=N          training jobs in the instance
#   scheduled=N      of them scheduled in the plan (dropped=N the rest)
#   work_h=X         V100 GPU-hours of the scheduled training jobs
#   cloud_work=F     share of work_h on cloud markets (on-demand or spot)
#   spot_work=F      share of work_h on spot markets
#   gpu_h=X          accelerator-hours held by them (count x run time)
#   cloud_gpu_h=F    share of gpu_h on cloud markets
#   be=N be_dropped=N  best-effort jobs (any kind) and how many were dropped
#   all_dropped=N    dropped jobs of any kind
#   total=X cloud=X energy=X carbon=X penalty=X bound=X  the plan's totals
#                    and its solver bound
set -u
[ $# = 2 ] || { echo "usage: bench/cloud_share.sh INSTANCE PLAN" >&2; exit 2; }
[ -r "$1" ] && [ -r "$2" ] || { echo "cloud_share: cannot read $1 or $2" >&2; exit 2; }
LC_ALL=C awk '
    FNR == 1 { file++ }
    file == 1 && /^  - name: / { job = $3 }
    file == 1 && /^    # Philly trace line .* V100 GPU-hours$/ {
        w = $0; sub(/.*; /, "", w); sub(/ V100 GPU-hours$/, "", w); work[job] = w + 0; ntrain++
    }
    file == 1 && /^    # best effort/ { be[job] = 1; nbe++ }
    file == 2 && /^[a-z_]+:/ { sec = $1 }
    file == 2 && sec == "totals:" && /^  (total|cloud|energy|carbon|penalty):/ { k = $1; sub(/:$/, "", k); tot[k] = $2 }
    file == 2 && sec == "solver:" && /^  bound:/ { tot["bound"] = $2 }
    file == 2 && /^- name: / { flush(); name = $3; st = mk = ""; cnt = s = e = 0 }
    file == 2 && /^  status: / { st = $2 }
    file == 2 && /^  market: / { mk = $2 }
    file == 2 && /^  count: / { cnt = $2 }
    file == 2 && /^  start_hour: / { s = $2 }
    file == 2 && /^  end_hour: / { e = $2 }
    function flush() {
        if (name == "") return
        if (st == "dropped") alldrop++
        if (st == "dropped" && (name in be)) bedrop++
        if (!(name in work)) { name = ""; return }
        if (st == "scheduled") {
            sched++; W += work[name]; G += cnt * (e - s)
            if (mk != "pool") { CW += work[name]; CG += cnt * (e - s) }
            if (mk == "spot") SW += work[name]
        }
        name = ""
    }
    END {
        flush()
        printf "train=%d scheduled=%d dropped=%d work_h=%.1f cloud_work=%.3f spot_work=%.3f", ntrain, sched, ntrain - sched, W, W ? CW / W : 0, W ? SW / W : 0
        printf " gpu_h=%.1f cloud_gpu_h=%.3f be=%d be_dropped=%d all_dropped=%d", G, G ? CG / G : 0, nbe, bedrop, alldrop
        printf " total=%s cloud=%s energy=%s carbon=%s penalty=%s bound=%s\n", tot["total"], tot["cloud"],
            tot["energy"], tot["carbon"], tot["penalty"], tot["bound"]
    }' "$1" "$2"
