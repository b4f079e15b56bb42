#!/bin/sh
# Rebuilds the subsets of this folder from the upstream files, laid out as
# the README's tables name them (one folder per source):
#   sh examples/data/extract.sh SRC
# SRC holds gavel/, pollux/, c3o/, cloud-catalog/, alibaba-gpu/,
# green-dcc/ and lets-wait-awhile/ with the upstream files under the
# names the README gives (gavel/isolated_throughputs.csv is Gavel's JSON
# flattened, as the README says). Every line written is a line of SRC's
# file, unchanged; only rows are left out (the README says which).
set -eu
[ $# = 1 ] || { echo "usage: sh examples/data/extract.sh SRC" >&2; exit 2; }
SRC=$1
OUT=$(dirname "$0")
cd "$OUT"
mkdir -p gavel pollux/traces/bert pollux/traces/cifar10 pollux/traces/ncf pollux/traces/imagenet \
    c3o cloud-catalog alibaba-gpu green-dcc/carbon_intensity green-dcc/electricity_prices_processed \
    lets-wait-awhile

# Gavel (MIT): the throughput table and three small traces whole; the
# first 100 jobs of the Philly virtual cluster's trace.
cp "$SRC/gavel/isolated_throughputs.csv" gavel/
for t in artifact_evaluation small_test minimize_makespan; do
    cp "$SRC/gavel/physical_cluster_$t.trace" gavel/
done
head -n 100 "$SRC/gavel/msr_philly_vc_2869ce_seed0.trace" >gavel/msr_philly_vc_2869ce_seed0.trace

# Pollux (Apache-2.0): BERT whole; one per-GPU batch size of the others
# (the one the tests and the example use); the first 40 jobs of the day
# and the day's earliest submission (release hours count from it).
cp "$SRC/pollux/traces/bert/placements.csv" pollux/traces/bert/
for ab in cifar10:725 ncf:257 imagenet:81; do
    a=${ab%:*} b=${ab#*:}
    awk -F, -v b="$b" 'NR == 1 || $2 == b' "$SRC/pollux/traces/$a/placements.csv" >pollux/traces/$a/placements.csv
done
first=$(tail -n +2 "$SRC/pollux/philly_2017-10-09.csv" | cut -d, -f1 | sort | head -n 1)
awk -F, -v t="$first" 'NR <= 41 || $1 == t' "$SRC/pollux/philly_2017-10-09.csv" >pollux/philly_2017-10-09.csv

# C3O (no licence stated): sort whole (the example's job); of the other
# four jobs, the first of the five runs of each configuration.
cp "$SRC/c3o/sort.tsv" c3o/
for j in grep kmeans pagerank sgd; do
    awk -F'\t' 'NR == 1 { print; next } { k = $0; sub(/\t[^\t]*$/, "", k) } !seen[k]++' \
        "$SRC/c3o/$j.tsv" >c3o/$j.tsv
done

# Catalogs (no licence stated): the instance types the tests and the
# example import, with GCP's GPU add-on rows (not the TPUs); AWS and
# Vast whole (95 and 64 rows).
C=$SRC/cloud-catalog
for z in us-central1-a europe-west4-a; do
    awk -F, 'NR == 1 || $1 ~ /^(n1-standard-8|a2-highgpu-1g|g2-standard-8)$/ || ($1 == "" && $4 !~ /^tpu/)' \
        "$C/gcp_vms_$z.csv" >cloud-catalog/gcp_vms_$z.csv
done
awk -F, 'NR == 1 || $1 ~ /^Standard_NC/' "$C/azure_vms_eastus.csv" >cloud-catalog/azure_vms_eastus.csv
awk -F, 'NR == 1 || $7 == "us-east-1"' "$C/lambda_vms.csv" >cloud-catalog/lambda_vms.csv
cp "$C/aws_vms_us-east-1a.csv" "$C/vast_vms.csv" cloud-catalog/

# Alibaba's 2023 node list (no licence file): the first three nodes of
# each node shape (CPUs, memory, GPUs, model), in the file's order.
awk -F, 'NR == 1 || n[$2 "," $3 "," $4 "," $5]++ < 3' \
    "$SRC/alibaba-gpu/v2023_openb_node_list_all_node.csv" >alibaba-gpu/v2023_openb_node_list_all_node.csv

# green-dcc (MIT; data from Electricity Maps, ODbL, and grid operators):
# the first two days.
for f in carbon_intensity/US-CAL-CISO_2023-06-01_to_14_hourly.csv \
    carbon_intensity/US-MIDA-PJM_2023-06-01_to_14_hourly.csv \
    electricity_prices_processed/US-CAL-CISO_electricity_prices_2023-06-01_to_14.csv \
    electricity_prices_processed/US-TEX-ERCO_electricity_prices_2023-06-01_to_14.csv; do
    awk 'NR == 1 || /^2023-06-0[12] /' "$SRC/green-dcc/$f" >green-dcc/$f
done

# Let's Wait Awhile (no licence stated): the first day.
for r in ger gb; do
    awk 'NR == 1 || /^2020-06-01 /' "$SRC/lets-wait-awhile/${r}_ci_2020-06-01_to_14.csv" \
        >lets-wait-awhile/${r}_ci_2020-06-01_to_14.csv
done
