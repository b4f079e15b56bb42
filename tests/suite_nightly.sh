#!/bin/sh
# The nightly example (examples/nightly/) end to end, beyond what
# suite_plan checks of its plans:
#   - export: every pool has `hosts` and every job `run` (docs/execution.md),
#     so `capplan export slurm` writes one script per scheduled pool job,
#     each with the job's own command and no "has no run command" line,
#     and `capplan export skypilot` one task per cloud job. The night has more
#     pool jobs than the export's first file table holds (16), which is
#     how a dangling pointer into that table was found.
#   - version 1.1 on it: plan's summary line lists egress among the parts
#     of its total; the plan carries totals.egress and r18-bs32-x2's
#     shape, and its report draws the pipeline's two links
#     (sort-events -> rec-bs2048 -> rec-eval).
#   - version 1.2: the scripts of the pool jobs run under a power limit
#     set it (nvidia-smi -pl).
#   - the chat service (services.yaml, capplan.5 §10.4): the plan, verified
#     with it, has its replicas, and tests/nightly/chat_check.py re-derives
#     from the input alone that min_replicas holds in every slot, that the
#     shares add up, its unserved requests and its cost (replica-hours at
#     the offers' prices, starts, penalty); a plan whose cost is off by a
#     cent fails it. `export services` writes a row per deployment and
#     slot, `export skypilot` a SkyServe service per cloud deployment, and
#     the report its chart.
# The heuristic plans it (a few seconds); suite_plan checks the optimum.
SUITE=nightly
. "$(dirname "$0")/lib.sh"

files=$(ls examples/nightly/*.yaml | tr '\n' ' ')
# every command here computes for seconds on the 80-job night: under the
# CPU-time rule (tests/lib.sh cp_timeout), which a loaded machine does
# not stretch
heavy=1

# shellcheck disable=SC2086
if plan_verify nightly "$tmp/n.yaml" --method heuristic -- $files; then
    npool=$(awk '/^  - name:/ {s = 0} /status: scheduled/ {s = 1} s && /market: pool/ {n++; s = 0} END {print n + 0}' "$tmp/n.yaml")
    # shellcheck disable=SC2086
    if cp_timeout $CAPPLAN export slurm --plan "$tmp/n.yaml" -o "$tmp/run" $files >"$tmp/out" 2>"$tmp/err"; then
        ok
        nscr=$(ls "$tmp/run/jobs" | wc -l)
        if [ "$nscr" -gt 16 ] && [ "$nscr" = "$npool" ]; then ok; else bad export/count "$nscr scripts, $npool pool jobs in the plan"; fi
        if grep -l "has no run command" "$tmp/run/jobs"/* >/dev/null 2>&1; then
            bad export/run "a script without the job's command: $(grep -l 'has no run command' "$tmp/run/jobs"/* | head -1)"
        else ok; fi
        if sh -n "$tmp/run/submit.sh"; then ok; else bad export/sh "submit.sh does not parse"; fi
        if [ "$(grep -c '^j[0-9]*=\$(sbatch' "$tmp/run/submit.sh")" = "$npool" ]; then ok; else bad export/submit "not one sbatch per pool job"; fi
        # capplan.5 §10.3: every pool job run under a power limit sets it
        nlim=$(awk '/^- name:/ {m = 0} /^  market: pool/ {m = 1} m && /^  power_limit_w:/ {n++} END {print n + 0}' "$tmp/n.yaml")
        nsmi=$(cat "$tmp/run/jobs"/* | grep -c 'nvidia-smi -i')
        if [ "$nlim" = "$nsmi" ]; then ok; else bad export/power "$nlim pool jobs under a power limit, $nsmi scripts set one"; fi
    else
        bad export/slurm "exit $?: $(oneline "$tmp/err" 3)"
    fi
    # shellcheck disable=SC2086
    if cp_timeout $CAPPLAN export skypilot --plan "$tmp/n.yaml" -o "$tmp/sky" $files >"$tmp/out" 2>"$tmp/err"; then
        ok
        nc=$(grep -c '^  market: \(on_demand\|spot\)$' "$tmp/n.yaml")
        if [ "$(ls "$tmp/sky/tasks" 2>/dev/null | wc -l)" = "$nc" ]; then ok; else bad export/skypilot "not one task per cloud job ($nc jobs)"; fi
        # one SkyServe service per cloud deployment of the chat service
        # (brought up again after each slot without replicas)
        nd=$(grep -c '^  - config: ' "$tmp/n.yaml")
        nu=$(sed -n 's/^sky serve up -y -n \(capplan-svc-[0-9]*\) .*/\1/p' "$tmp/sky/launch.sh" | sort -u | wc -l)
        if [ "$nd" -gt 0 ] && [ "$nu" = "$nd" ]; then ok; else bad export/skyserve "$nu SkyServe services for $nd deployments"; fi
    else
        bad export/skypilot "exit $?: $(oneline "$tmp/err" 3)"
    fi
    # the chat service: its replicas, shares, unserved requests and cost by hand
    if test_have_prereq PYYAML; then
        if python3 tests/nightly/chat_check.py "$tmp/n.yaml" examples/nightly/services.yaml >"$tmp/chat" 2>&1; then ok
        else bad service "$(oneline "$tmp/chat" 3)"; fi
        sed '/^services:/,$ s/^  cost: \([0-9.]*\)$/  cost: 0.01\1/' "$tmp/n.yaml" >"$tmp/off.yaml"
        if ! cmp -s "$tmp/n.yaml" "$tmp/off.yaml" &&
            ! python3 tests/nightly/chat_check.py "$tmp/off.yaml" examples/nightly/services.yaml >/dev/null 2>&1; then ok
        else bad service/check "chat_check.py passes a plan whose service cost is changed"; fi
    else
        skip service "$(test_why PYYAML)"
    fi
    # shellcheck disable=SC2086
    if cp_timeout $CAPPLAN export services --plan "$tmp/n.yaml" -o "$tmp/svc" $files >"$tmp/out" 2>"$tmp/err"; then
        nd=$(grep -c '^  - config: ' "$tmp/n.yaml")
        rows=$(($(wc -l <"$tmp/svc/services.csv") - 1))
        if [ "$nd" -gt 0 ] && [ "$rows" = $((nd * 24)) ]; then ok; else bad export/services "$rows rows for $nd deployments x 24 slots"; fi
    else
        bad export/services "exit $?: $(oneline "$tmp/err" 3)"
    fi
    # the summary's parts add up to its total: egress is one of them (capplan.5 §9.3)
    # shellcheck disable=SC2086
    cp_timeout $CAPPLAN plan --no-timing --method heuristic -o "$tmp/n2.yaml" $files 2>"$tmp/sum" >/dev/null
    if awk '/^  total \$/ { gsub(/\$/, ""); t = $2; s = 0; for (i = 4; i <= NF; i++) if ($i ~ /^[0-9.]+$/) s += $i
            found = 1; exit !(t - s < 0.011 && s - t < 0.011) } END { if (!found) exit 1 }' "$tmp/sum" &&
        grep -q '+ egress \$' "$tmp/sum"; then ok
    else bad summary "the parts do not add up to the total, or no egress: $(grep '^  total' "$tmp/sum")"; fi
    if grep -q '^  egress: ' "$tmp/n.yaml" && grep -q '^  shape: ' "$tmp/n.yaml"; then ok
    else bad spec11 "no totals.egress or no shape in the plan"; fi
    # r18-bs32-x2's three shapes (Synergy's CPU counts, README "Three
    # shapes"): the plan's shape is one of the input's, and its cpus are
    # that shape's cpus_per_accelerator times the count
    # shellcheck disable=SC2016
    cpg=$(awk '/^  - name: r18-bs32-x2$/ {j = 1} j && /^  - name: / && !/r18-bs32-x2/ {j = 0}
        j && /cpus_per_accelerator:/ { sub(/.*cpus_per_accelerator: */, ""); sub(/,.*/, ""); printf "%s ", $0 }' \
        examples/nightly/jobs-training.yaml)
    set -- $(awk '/^- name: r18-bs32-x2$/ {j = 1; next} j && /^- name: / {exit}
        j && /^  (count|shape|cpus): / {printf "%s ", $2}' "$tmp/n.yaml")
    n=$1 sh=$2 cpus=$3
    # shellcheck disable=SC2086
    want=$(echo $cpg | awk -v s="$sh" -v n="$n" '{ print (s >= 0 && s < NF) ? $(s + 1) * n : "none" }')
    if [ "$(echo $cpg | wc -w)" = 3 ] && [ "$cpus" = "$want" ]; then ok
    else bad shapes "r18-bs32-x2: count $n, shape $sh, cpus $cpus; the input's CPUs per GPU: $cpg"; fi
    # shellcheck disable=SC2086
    if cp_timeout $CAPPLAN report "$tmp/n.yaml" -o "$tmp/n.html" $files 2>"$tmp/err"; then
        links=$(grep -c '<g class="link"><title>' "$tmp/n.html")
        if [ "$links" = 2 ] && grep -q 'sort-events → rec-bs2048' "$tmp/n.html" &&
            grep -q 'rec-bs2048 → rec-eval' "$tmp/n.html"; then ok
        else bad report/links "$links links, expected sort-events -> rec-bs2048 -> rec-eval"; fi
        if grep -q '<section id="services"' "$tmp/n.html"; then ok; else bad report/services "no services chart"; fi
    else
        bad report "exit $?: $(oneline "$tmp/err" 3)"
    fi
fi
test_done
