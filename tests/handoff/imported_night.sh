#!/bin/sh
# The night a new user imports from examples/data (docs/import.md), for
# tests/suite_handoff.sh and tests/suite_execution.sh: one Alibaba node of
# each V100 shape at caiso with CAISO's prices and carbon, the GCP and
# Azure catalogs, and Gavel's 26 job types at 1,500,000 steps each,
# preemptible, 2 CPUs and 7 GB per GPU: more work than the five nodes hold
# in 24 h, so a plan rents spot instances too.
#   sh tests/handoff/imported_night.sh CAPPLAN DIR
# writes DIR/caiso.yaml inv.yaml gcp.yaml azure.yaml gavel.yaml; on a
# failed import prints its error and exits 1.
set -u
C=$1 out=$2 D=examples/data G=examples/data/green-dcc
mkdir -p "$out" || exit 1
imp() {
    # shellcheck disable=SC2086 # CAPPLAN may be a command line
    $C import "$@" 2>"$out/import.err" || { echo "import $1: $(head -n 3 "$out/import.err")"; exit 1; }
}
imp series --site caiso --start 2023-06-01T00:00Z --slots 24 --horizon \
    --energy-price $G/electricity_prices_processed/US-CAL-CISO_electricity_prices_2023-06-01_to_14.csv \
    --carbon $G/carbon_intensity/US-CAL-CISO_2023-06-01_to_14_hourly.csv -o "$out/caiso.yaml"
imp inventory $D/alibaba-gpu/v2023_openb_node_list_all_node.csv --site caiso --models V100M16 \
    --max-nodes 1 -o "$out/inv.yaml"
imp skypilot $D/cloud-catalog/gcp_vms_us-central1-a.csv -o "$out/gcp.yaml"
imp skypilot $D/cloud-catalog/azure_vms_eastus.csv -o "$out/azure.yaml"
imp gavel $D/gavel/isolated_throughputs.csv --work 1500000 --preemptible --cpus-per-accelerator 2 \
    --memory-per-accelerator 7 -o "$out/gavel.yaml"
