#!/bin/sh
# tests/gen/pathological.sh JOBS NODES SLOTS COUNTS CHAIN: an input built
# to make every loop over the starts of the modes long (docs/reliability.md,
# "Time limit"): JOBS training jobs of 1 to 3 quarter-hour slots on one
# pool of NODES nodes of 8 GPUs, over SLOTS slots, each job with the
# accelerator counts 1..COUNTS (a mode each); CHAIN=1 puts every job
# after the one before it (an `after` chain of JOBS jobs). Written to
# standard output; about 200 bytes a job.
awk -v J="$1" -v N="$2" -v S="$3" -v K="$4" -v C="$5" 'BEGIN {
    printf "version: 1\nhorizon: {slots: %d, slot_hours: 0.25}\n", S
    printf "sites: [{name: s, energy_price: 0.1}]\n"
    printf "accelerators: [{name: G, memory_gb: 16, power_w: 300}]\n"
    printf "pools: [{name: p, site: s, nodes: %d, node: {accelerator: G, accelerators: 8, cpus: 64, memory_gb: 512, power_w: 400}}]\n", N
    printf "jobs:\n"
    for (j = 0; j < J; j++) {
        printf "  - name: j%d\n    kind: training\n    work: %d\n    throughput: {G: 1}\n    accelerators: [", j, 900 * (1 + j % 3)
        for (k = 1; k <= K; k++)
            printf "%s%d", (k > 1 ? ", " : ""), k
        printf "]\n    scaling: {model: amdahl, serial_fraction: 0.05}\n    drop_penalty: 1000\n"
        if (C && j > 0)
            printf "    after: [j%d]\n", j - 1
    }
}'
