#!/bin/sh
# From public data to a verified plan and a report, with no hand edits:
# every input below is written by a capplan command from the files in
# examples/data (subsets of public data; examples/data/README.md says
# where each comes from and under which licence).
#
#   sh examples/pipeline/run.sh [CAPPLAN [OUT [DATA]]]
#
# CAPPLAN defaults to build/capplan, OUT to build/pipeline, DATA to the
# examples/data folder beside this script (a folder with the same layout,
# such as the upstream files, can replace it). `make demo` runs it.
# docs/import.md explains each step.
set -eu
CAPPLAN=${1:-build/capplan}
OUT=${2:-build/pipeline}
DATA=${3:-$(dirname "$0")/../data}
TIME_LIMIT=${CP_PIPELINE_TIME_LIMIT:-30}
# CAPPLAN may be a command line (make valgrind passes "valgrind -q ...
# build/capplan"), so it is split into words (a path with a blank is not
# supported) and every word that names a file here is made absolute
# before the cd below.
abs=
for w in $CAPPLAN; do
    case $w in /* | -*) ;; *) [ -e "$w" ] && w=$PWD/$w ;; esac
    abs="$abs $w"
done
CAPPLAN=${abs# }
DATA=$(cd "$DATA" && pwd)
mkdir -p "$OUT"
cd "$OUT"
run() {
    echo "== capplan $*"
    $CAPPLAN "$@"
}

# 1. Sites and the horizon: one day of hourly prices and carbon for the
#    on-prem site (California, CAISO) and carbon for the AWS region's grid
#    (PJM), from green-dcc (Electricity Maps, processed market prices).
G=$DATA/green-dcc
run import series --site caiso --start 2023-06-01T00:00 --slots 24 --horizon \
    --energy-price "$G/electricity_prices_processed/US-CAL-CISO_electricity_prices_2023-06-01_to_14.csv" \
    --carbon "$G/carbon_intensity/US-CAL-CISO_2023-06-01_to_14_hourly.csv" -o caiso.yaml
run import series --site pjm --start 2023-06-01T00:00 --slots 24 \
    --carbon "$G/carbon_intensity/US-MIDA-PJM_2023-06-01_to_14_hourly.csv" -o pjm.yaml

# 2. A small on-prem inventory at caiso: Alibaba's V100 and P100 nodes,
#    two of each node shape.
run import inventory "$DATA/alibaba-gpu/v2023_openb_node_list_all_node.csv" --site caiso \
    --models V100M16,P100 --max-nodes 2 -o inventory.yaml

# 3. Two catalogs: AWS (the machine types C3O measured, and K80/V100
#    hosts; carbon counted at pjm) and GCP n1-standard-8 with its
#    attachable GPUs, labelled m4.2xlarge so the Spark fits apply there.
C=$DATA/cloud-catalog
run import skypilot "$C/aws_vms_us-east-1a.csv" --site pjm \
    --types '^(c4|m4|r4)\.2xlarge$|^p2\.xlarge$|^p3\.2xlarge$' -o aws.yaml
run import skypilot "$C/gcp_vms_us-central1-a.csv" --types '^n1-standard-8$' \
    --type-map m4.2xlarge=n1-standard-8 -o gcp.yaml

# 4. Training jobs: Gavel's measured throughputs per GPU type and count,
#    one job per line of Gavel's artifact-evaluation trace (its steps
#    are the work). Gavel has no host figures: 2 CPUs and 7 GB per GPU
#    (an n1-standard-8 with 4 T4s holds four such GPUs); the jobs
#    checkpoint, so they may run on spot.
run import gavel "$DATA/gavel/isolated_throughputs.csv" \
    --trace "$DATA/gavel/physical_cluster_artifact_evaluation.trace" \
    --preemptible --cpus-per-accelerator 2 --memory-per-accelerator 7 -o gavel.yaml

# 4b. More training jobs from a trace: the first ten jobs of Pollux's
#    one-day Philly extract, as CIFAR-10 training on T4s measured by
#    Pollux (work = the samples its measured duration processes).
P=$DATA/pollux
run import pollux "$P/traces/cifar10/placements.csv" --trace "$P/philly_2017-10-09.csv" \
    --max-jobs 10 -o philly.yaml

# 5. A dataflow job: C3O's Spark sort runs, fitted with Ernest's model.
run import c3o "$DATA/c3o/sort.tsv" -o sort.csv
run fit dataflow sort.csv -o sort.yaml

# 6. Check, plan, verify, report.
IN="caiso.yaml pjm.yaml inventory.yaml aws.yaml gcp.yaml gavel.yaml philly.yaml sort.yaml"
# shellcheck disable=SC2086
run check $IN >check.txt
# shellcheck disable=SC2086
run plan --time-limit "$TIME_LIMIT" -o plan.yaml $IN
# shellcheck disable=SC2086
run verify --plan plan.yaml $IN
# shellcheck disable=SC2086
run report plan.yaml $IN -o report.html
echo "pipeline: plan, verification and report in $OUT (plan.yaml, report.html)"
