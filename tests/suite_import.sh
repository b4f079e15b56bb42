#!/bin/sh
# The importers on the real files of examples/data (subsets of public
# data, examples/data/README.md; docs/import.md): golden
# fragments (numbers within 1e-9 relative, test_cmp_num; warnings byte for
# byte), the fragments of every importer passing `capplan check` together
# (one accelerator table, identical definitions merge), bad inputs with
# FILE:LINE:COLUMN, hostile names that must come out quoted, and the
# end-to-end example examples/pipeline/run.sh, whose plan must verify.
# `--update` or CP_GOLDEN_UPDATE=1 rewrites the goldens that differ.
SUITE=suite_import
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
DATA=examples/data
G=tests/import
B=tests/import/bad

# golden NAME RC ARGS...: `capplan import ARGS` exits RC; stdout is
# G/NAME.out (numbers with tolerance), stderr G/NAME.err. Paths of the
# data print as $DATA/...
golden() {
    name=$1 want=$2
    shift 2
    timeout -k 5 "$limit" $CAPPLAN import "$@" >"$tmp/$name.out" 2>"$tmp/$name.raw"
    rc=$?
    sed "s|$DATA|\$DATA|g" "$tmp/$name.raw" >"$tmp/$name.err"
    sed -i "s|$DATA|\$DATA|g" "$tmp/$name.out"
    if [ "$rc" != "$want" ]; then
        bad "$name" "exit $rc, expected $want: $(oneline "$tmp/$name.err" 3)"
        return
    fi
    ok "$name"
    test_cmp_num "$G/$name.out" "$tmp/$name.out"
    test_cmp "$G/$name.err" "$tmp/$name.err"
}

# loads NAME FILE...: `capplan check` accepts the fragments together.
loads() {
    name=$1
    shift
    if timeout -k 5 "$limit" $CAPPLAN check "$@" >"$tmp/check.out" 2>"$tmp/check.err"; then
        ok "check $name"
    else
        bad "check $name" "$(oneline "$tmp/check.err" 5)"
    fi
}

# ---- bad inputs: errors at FILE:LINE:COLUMN, exit 2 ----
golden bad-accel-mem 2 accelerators --accel-table $B/accel-mem.csv
golden bad-accel-idle 2 accelerators --accel-table $B/accel-idle.csv
golden bad-accel-twice 2 accelerators --accel-table $B/accel-twice.csv
golden bad-series-time 2 series --site s --start 2023-06-01T00:00 --slots 2 --energy-price $B/series-time.csv
golden bad-series-order 2 series --site s --start 2023-06-01T00:00 --slots 2 --energy-price $B/series-order.csv
golden bad-series-negative 2 series --site s --start 2023-06-01T00:00 --slots 2 --carbon $B/series-negative.csv
golden bad-series-span 2 series --site s --start 2023-06-01T00:00 --slots 5 --energy-price $B/series-eur.csv --scale 1.08
golden bad-series-start 2 series --site s --start tomorrow --slots 2 --carbon $B/series-negative.csv
golden bad-inventory 2 inventory $B/inventory-model.csv --site s
golden bad-type-map 2 skypilot $G/../fit/gcp-extract.csv --type-map nothing
golden bad-type-map-two 2 skypilot $G/../fit/gcp-extract.csv --type-map a=b=c
golden bad-spot-rate 2 skypilot $G/../fit/gcp-extract.csv --spot-interruptions -1
golden bad-trace 2 gavel $G/../fit/gavel-extract.csv --trace $B/trace-steps.trace
golden bad-pollux 2 pollux $B/pollux-placement.csv
golden bad-philly 2 pollux $B/pollux-ok.csv --trace $B/philly-duration.csv
golden bad-pollux-acc 2 pollux $B/pollux-ok.csv --accelerator TPUv9
golden pollux-spelling 0 pollux $B/pollux-ok.csv --accelerator tesla-t4 --app "a: b"
golden series-eur 0 series --site de --start 2023-06-01T00:00 --slots 3 --energy-price $B/series-eur.csv
golden series-no-input 2 series --site s --start 2023-06-01T00:00 --slots 3 extra.csv

# ---- zeus (capplan.5 §10.3) on the subset the repository keeps
# (examples/nightly/zeus/README.md): the Pareto limits of ResNet-50 at
# batch size 128 on V100 (125 and 100 W are dominated: slower and dearer
# than 150 W), the one optimizer rule, the GPU from the file name
Z=examples/nightly/zeus
golden zeus-v100 0 zeus $Z/summary_power_v100.csv --network resnet50 --batch-size 128
golden zeus-p100 0 zeus $Z/summary_power_p100.csv --network resnet50 --batch-size 16
golden zeus-optimizer 2 zeus $Z/summary_power_v100.csv --network shufflenetv2 --batch-size 1024
golden zeus-adam 0 zeus $Z/summary_power_v100.csv --network shufflenetv2 --batch-size 1024 --optimizer adam
golden zeus-none 2 zeus $Z/summary_power_v100.csv --network resnet50 --batch-size 7
golden zeus-noname 2 zeus $B/series-eur.csv --network resnet50 --batch-size 16
# the limits load on a job (the V100 of the accelerator table, 300 W)
if $CAPPLAN import zeus $Z/summary_power_v100.csv --network resnet50 --batch-size 128 >"$tmp/zl.yaml" 2>/dev/null; then
    { printf 'horizon: {slots: 4}\nsites: [{name: dc}]\naccelerators: [{name: V100, memory_gb: 16, power_w: 300}]\n'
      printf 'jobs:\n  - name: r50\n    kind: training\n    work: 100\n    throughput: {V100: 1}\n'
      sed -n '/^power_limits:/,$s/^/    /p' "$tmp/zl.yaml"; } >"$tmp/zjob.yaml"
    loads "zeus limits on a job" "$tmp/zjob.yaml"
else
    bad "zeus limits on a job" "import failed"
fi

# ---- hostile names: an accelerator table entry named with quotes, a
# colon, a newline and '#' must come out quoted and load back ----
golden accel-hostile 0 accelerators --accel-table $B/accel-hostile.csv
printf 'worker_type,job_type,scale_factor,throughput_steps_per_s\neve,"a: b # c",1,2.5\neve,"a: b # c",2,4\n' >"$tmp/eve.csv"
if $CAPPLAN import gavel "$tmp/eve.csv" --accel-table $B/accel-hostile.csv -o "$tmp/eve.yaml" 2>"$tmp/eve.err"; then
    ok "hostile gavel"
    printf 'horizon: {slots: 2}\n' >"$tmp/h2.yaml"
    loads "hostile names" "$tmp/h2.yaml" "$tmp/eve.yaml"
    if grep -q "^  - {name: \"Eve\\\\\": 'x'\\\\n#\"" "$tmp/eve.yaml"; then ok; else bad "hostile quoted" "$(grep -m1 name "$tmp/eve.yaml")"; fi
else
    bad "hostile gavel" "$(oneline "$tmp/eve.err" 3)"
fi
# names past the loader's 200 bytes are skipped with a warning, and what
# is written loads
long=$(printf 'x%.0s' $(seq 1 230))
printf 'worker_type,job_type,scale_factor,throughput_steps_per_s\nk80,%s,1,2.5\nk80,short,1,3\n' "$long" >"$tmp/long.csv"
printf '%s\tcmd\tdir\t-n\t1\t500\t1\t1\t-1\t0\nshort\tcmd\tdir\t-n\t1\t500\t1\t1\t-1\t0\n' "$long" >"$tmp/long.trace"
printf 'sn,cpu_milli,memory_mib,gpu,model\nn1,32000,262144,2,T4\n' >"$tmp/nodes.csv"
for args in "gavel $tmp/long.csv" "gavel $tmp/long.csv --trace $tmp/long.trace" \
    "inventory $tmp/nodes.csv --site $(printf 's%.0s' $(seq 1 195))"; do
    # shellcheck disable=SC2086
    if $CAPPLAN import $args -o "$tmp/long.yaml" 2>"$tmp/long.err" &&
        grep -q 'longer than 200 bytes; skipped' "$tmp/long.err" &&
        $CAPPLAN check "$tmp/h2.yaml" "$tmp/long.yaml" >/dev/null 2>&1; then
        ok "long names: $args"
    else
        bad "long names" "import $args: $(oneline "$tmp/long.err" 3)"
    fi
done
# a user's entry replaces the built-in one everywhere
$CAPPLAN import gavel $G/../fit/gavel-extract.csv --accel-table $B/accel-hostile.csv -o "$tmp/v.yaml" 2>/dev/null
if grep -q '^  - {name: V100, memory_gb: 16, power_w: 250, idle_power_w: 40}$' "$tmp/v.yaml"; then ok; else bad "accel-table override" "$(grep -m1 V100 "$tmp/v.yaml")"; fi

C=$DATA/cloud-catalog

# ---- each importer on the real files ----
golden accelerators 0 accelerators
golden gcp-n1 0 skypilot $C/gcp_vms_us-central1-a.csv --types '^n1-standard-8$' --type-map m4.2xlarge=n1-standard-8
golden gcp-no-n1 0 skypilot $C/gcp_vms_europe-west4-a.csv --types '^n1-standard-8$' --no-n1-gpus
golden aws-gpu 0 skypilot $C/aws_vms_us-east-1a.csv --types '^(p2|p3|g4dn|g5|dl1|f1|inf1)\.'
golden azure-nc 0 skypilot $C/azure_vms_eastus.csv --types '^Standard_NC'
golden azure-rate 0 skypilot $C/azure_vms_eastus.csv --types '^Standard_NC6s_v3$' --spot-interruptions 0.01
golden lambda-us-east-1 0 skypilot $C/lambda_vms.csv --region us-east-1
golden vast 0 skypilot $C/vast_vms.csv
golden gavel-trace 0 gavel $DATA/gavel/isolated_throughputs.csv --trace $DATA/gavel/physical_cluster_small_test.trace
golden gavel-msr 0 gavel $DATA/gavel/isolated_throughputs.csv --match '^ResNet-50' --trace $DATA/gavel/msr_philly_vc_2869ce_seed0.trace
golden gavel-shared 0 gavel $DATA/gavel/isolated_throughputs.csv --match '^LM' --scaling shared
# what Gavel lacks, from the command line: spot, host CPUs and memory per
# GPU on every job, the first three trace lines' jobs; its three
# measurements of 0 (ResNet-50 at batch size 128 on K80 x2, x4, x8) in
# one warning
golden gavel-opts 0 gavel $DATA/gavel/isolated_throughputs.csv --trace $DATA/gavel/physical_cluster_artifact_evaluation.trace \
    --max-jobs 3 --preemptible --cpus-per-accelerator 4 --memory-per-accelerator 16
golden series-caiso 0 series --site caiso --start 2023-06-01T00:00 --slots 24 --horizon \
    --energy-price $DATA/green-dcc/electricity_prices_processed/US-CAL-CISO_electricity_prices_2023-06-01_to_14.csv \
    --carbon $DATA/green-dcc/carbon_intensity/US-CAL-CISO_2023-06-01_to_14_hourly.csv
golden series-ercot 0 series --site ercot --start 2023-06-01T05:00Z --slots 6 --slot-hours 0.5 \
    --energy-price $DATA/green-dcc/electricity_prices_processed/US-TEX-ERCO_electricity_prices_2023-06-01_to_14.csv
golden series-ger 0 series --site de --start "2020-06-01 00:00" --slots 6 \
    --carbon $DATA/lets-wait-awhile/ger_ci_2020-06-01_to_14.csv
golden series-gb-lca 0 series --site gb --start 2020-06-01T00:00 --slots 4 --slot-hours 2 \
    --carbon $DATA/lets-wait-awhile/gb_ci_2020-06-01_to_14.csv
golden pollux-bert 0 pollux $DATA/pollux/traces/bert/placements.csv
golden pollux-ncf-all 0 pollux $DATA/pollux/traces/ncf/placements.csv --all-counts --local-bsz 257
golden pollux-philly 0 pollux $DATA/pollux/traces/cifar10/placements.csv --trace $DATA/pollux/philly_2017-10-09.csv --cluster 6214e9 --max-jobs 12
golden inventory 0 inventory $DATA/alibaba-gpu/v2023_openb_node_list_all_node.csv --site caiso --max-nodes 3
# node names as hosts: a name Slurm cannot take (a blank) and a name twice
# leave their pools without hosts, with a warning at the name; the third
# pool keeps its one host
golden inventory-names 0 inventory $G/inventory-names.csv --site lab

# ---- every importer's fragments together ----
for f in gcp_vms_us-central1-a gcp_vms_europe-west4-a azure_vms_eastus lambda_vms vast_vms aws_vms_us-east-1a; do
    $CAPPLAN import skypilot $C/$f.csv -o $tmp/$f.yaml 2>/dev/null || bad "import $f" "exit $?"
done
$CAPPLAN import gavel $DATA/gavel/isolated_throughputs.csv -o $tmp/gavel.yaml 2>/dev/null
$CAPPLAN import gavel $DATA/gavel/isolated_throughputs.csv --trace $DATA/gavel/physical_cluster_minimize_makespan.trace -o $tmp/gtrace.yaml 2>/dev/null
$CAPPLAN import series --site caiso --start 2023-06-01T00:00 --slots 24 --horizon \
    --carbon $DATA/green-dcc/carbon_intensity/US-CAL-CISO_2023-06-01_to_14_hourly.csv -o $tmp/site.yaml 2>/dev/null
$CAPPLAN import inventory $DATA/alibaba-gpu/v2023_openb_node_list_all_node.csv --site caiso -o $tmp/inv.yaml 2>/dev/null
$CAPPLAN import pollux $DATA/pollux/traces/imagenet/placements.csv -o $tmp/pollux.yaml 2>/dev/null
$CAPPLAN import c3o $DATA/c3o/sort.tsv -o $tmp/sort.csv 2>/dev/null
$CAPPLAN fit dataflow $tmp/sort.csv --no-loo -o $tmp/sort.yaml >/dev/null 2>&1
loads "all fragments" $tmp/site.yaml $tmp/inv.yaml $tmp/gavel.yaml $tmp/pollux.yaml $tmp/sort.yaml \
    $tmp/gcp_vms_us-central1-a.yaml $tmp/gcp_vms_europe-west4-a.yaml $tmp/azure_vms_eastus.yaml \
    $tmp/lambda_vms.yaml $tmp/vast_vms.yaml $tmp/aws_vms_us-east-1a.yaml
# the trace's jobs with Gavel's: one job type, two definitions of its
# accelerators, still one accelerator each
loads "trace and catalogs" $tmp/site.yaml $tmp/gtrace.yaml $tmp/inv.yaml $tmp/gcp_vms_us-central1-a.yaml
# the GCP n1 bundles are what gives Gavel's K80/P100/V100 GCP offers
if grep -q 'gcp:us-central1-a:n1-standard-8:1xV100' "$tmp/check.out"; then ok; else bad "n1 bundles in check" "not listed"; fi

# ---- gavel --preemptible: the catalog's spot markets become usable ----
# One ResNet-18 job on GCP's n1-standard-8 bundles: without the option it
# may only rent on demand, with it the spot market of the same bundle
# (cheaper); both plans verify.
$CAPPLAN import skypilot $C/gcp_vms_us-central1-a.csv --types '^n1-standard-8$' -o $tmp/sp-gcp.yaml 2>/dev/null
printf 'horizon: {slots: 24}\n' >$tmp/sp-h.yaml
for p in on_demand spot; do
    opt=$([ $p = spot ] && echo --preemptible)
    $CAPPLAN import gavel $DATA/gavel/isolated_throughputs.csv --match '^ResNet-18 \(batch size 32\)$' \
        --work 20000 --cpus-per-accelerator 2 --memory-per-accelerator 7 $opt -o $tmp/sp-$p.yaml 2>/dev/null
    if plan_verify "gavel $p" $tmp/sp-$p.plan.yaml -- $tmp/sp-h.yaml $tmp/sp-gcp.yaml $tmp/sp-$p.yaml; then
        if grep -q "^  market: $p\$" $tmp/sp-$p.plan.yaml; then ok; else bad "gavel $p" "$(grep -m1 'market:' $tmp/sp-$p.plan.yaml)"; fi
    fi
done
a=$(plan_total $tmp/sp-on_demand.plan.yaml) b=$(plan_total $tmp/sp-spot.plan.yaml)
if num_le "$b" "$(awk -v a="$a" 'BEGIN { print a * 0.9 }')"; then ok; else bad "gavel --preemptible" "spot plan \$$b, on demand \$$a"; fi

# ---- the pipeline example: no hand edits, and its plan verifies ----
if CP_PIPELINE_TIME_LIMIT=20 timeout -k 5 300 sh examples/pipeline/run.sh "$CAPPLAN" "$tmp/pipe" >"$tmp/pipe.out" 2>&1; then
    ok "pipeline runs"
    P=$tmp/pipe
    verify_ok "pipeline plan verifies" $P/plan.yaml $P/caiso.yaml $P/pjm.yaml $P/inventory.yaml \
        $P/aws.yaml $P/gcp.yaml $P/gavel.yaml $P/philly.yaml $P/sort.yaml
    st=$(plan_status $P/plan.yaml)
    case $st in optimal | feasible) ok ;; *) bad "pipeline status" "$st" ;; esac
    # every job of the pipeline is planned (none dropped for lack of a mode);
    # a dropped job is one with 'status: dropped' in the plan's jobs
    if [ "$(grep -c '^- name: ' $P/plan.yaml)" -gt 0 ] && ! grep -q '^  status: dropped$' $P/plan.yaml; then ok
    else bad "pipeline drops" "$(grep -B1 -A2 '^  status: dropped$' $P/plan.yaml | head -8 | tr '\n' ' ')"; fi
    if [ -s $P/report.html ] && grep -q '<svg' $P/report.html; then ok; else bad "pipeline report" "no chart"; fi
    # the type map put the Spark fit on GCP's n1-standard-8
    if grep -q 'gcp:us-central1-a:n1-standard-8' $P/check.txt; then ok; else bad "pipeline type map" "no n1 mode"; fi
    # the imported inventory names its nodes (Alibaba's sn as hosts), so
    # the plan exports to Slurm, each job's --nodelist nodes of the list
    if $CAPPLAN export slurm --plan $P/plan.yaml -o $P/slurm $P/caiso.yaml $P/pjm.yaml $P/inventory.yaml \
        $P/aws.yaml $P/gcp.yaml $P/gavel.yaml $P/philly.yaml $P/sort.yaml >/dev/null 2>$tmp/sl.err; then
        sed -n 's/^#SBATCH --nodelist=//p' $P/slurm/jobs/*.sbatch | tr ',' '\n' | sort -u >$tmp/sl.hosts
        cut -d, -f1 $DATA/alibaba-gpu/v2023_openb_node_list_all_node.csv | sort -u >$tmp/sl.sn
        if [ -s $tmp/sl.hosts ] && [ -z "$(comm -23 $tmp/sl.hosts $tmp/sl.sn)" ]; then ok
        else bad "pipeline slurm hosts" "$(comm -23 $tmp/sl.hosts $tmp/sl.sn | head -n 3 | tr '\n' ' ')"; fi
    else
        bad "pipeline export slurm" "$(oneline $tmp/sl.err 3)"
    fi
else
    bad "pipeline runs" "$(tail -n 5 "$tmp/pipe.out" | tr '\n' ' ')"
fi

test_done
