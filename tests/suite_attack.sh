#!/bin/sh
# Hostile names and figures in what the importers, exporters, whatif and
# fit write (docs/reliability.md, "Output safety": a `run` command is the
# user's own code and runs as written; a NAME is never executed, never
# ends a line, and reads back as itself). What is checked:
#   - import: a file or folder name that is not UTF-8 (the first comment
#     line, pollux's job name, c3o's job column) is written escaped, and
#     option values that are not UTF-8 (--site, --app, --type-map: written
#     into the YAML) are refused naming the option
#   - import pollux: a step time so small that samples/s, a speedup or a
#     trace job's work would pass the loader's bounds is refused
#   - import inventory: two node shapes that differ past %g's six digits
#     get two pool names; import series: times with signs or blanks in
#     their fields ("2020-06-01 -1:-5") or days that do not exist are
#     refused; import skypilot: a GPU of a few MiB is skipped, never
#     written as memory_gb 0
#   - every importer's first line re-runs it with each text one shell word
#   - export skypilot: a job name with a newline is refused (it would end
#     a task's "# job" comment line); provider, region and names read back with
#     PyYAML; every run: runs its jobs' commands and none of a name;
#     launch.md keeps its columns and passes no HTML
#   - export slurm: a predecessor the plan does not list, named with a
#     newline, is refused before it reaches a script's "# after" line
#   - export -o DIR, whatif --slurm-array DIR: a link planted in DIR to
#     an input is refused, and the input is untouched
#   - whatif: an accelerator's name keeps the md and csv headers' cells
#   - fit dataflow (and --params): job names from the samples are printed
#     escaped in the quality table, so no escape sequence reaches the
#     terminal
# Each check fails on an importer or writer that lets the name through.
SUITE=attack
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
A=tests/attack
DATA=examples/data

# no_backstop NAME FILE: stderr FILE shows the importer itself refused, at
# a FILE:LINE:COLUMN or naming the option, not the CLI's read-back of
# the output (which catches what an importer lets through)
no_backstop() {
    if grep -q -e 'internal error' -e 'is not a finite number' "$2"; then
        bad "$1" "the output check caught it: $(oneline "$2")"
        return 1
    fi
    return 0
}

# ---- import: names that are not UTF-8 ------------------------------------
ff=$(printf '\377')
mkdir "$tmp/bad${ff}dir"
cp $A/placements.csv "$tmp/bad${ff}dir/placements.csv"
cp $A/placements.csv "$tmp/p${ff}.csv"
$CAPPLAN import pollux "$tmp/bad${ff}dir/placements.csv" -o "$tmp/o.yaml" 2>"$tmp/err"
rc=$?
if [ "$rc" = 2 ] && [ ! -e "$tmp/o.yaml" ] && grep -q "dir/placements.csv: error: the folder's name is not UTF-8: name the job with --app" "$tmp/err"; then
    ok pollux-folder
else
    bad pollux-folder "exit $rc: $(oneline "$tmp/err")"
fi
# option values go into the fragment: refused by the CLI, naming the option
# (the files of these options exist and are good)
for opt in "pollux $A/placements.csv --app" "series --start 2020-06-01T00:00 --slots 1 --carbon $DATA/lets-wait-awhile/gb_ci_2020-06-01_to_14.csv --site" \
    "inventory tests/import/inventory-small.csv --site" "skypilot $DATA/cloud-catalog/vast_vms.csv --type-map"; do
    # shellcheck disable=SC2086
    $CAPPLAN import $opt "a${ff}=b" -o "$tmp/o.yaml" 2>"$tmp/err"
    rc=$?
    o=${opt##* }
    if [ "$rc" = 2 ] && [ ! -e "$tmp/o.yaml" ] && grep -q "option '$o': the value is not UTF-8" "$tmp/err"; then
        ok "${opt%% *} $o"
    else
        bad "${opt%% *} $o" "exit $rc: $(oneline "$tmp/err")"
    fi
done
# the file's name is only in the first comment line: written as \xff
printf 'horizon: {slots: 4}\n' >"$tmp/h.yaml"
$CAPPLAN import pollux "$tmp/p${ff}.csv" --app ok -o "$tmp/p.yaml" 2>"$tmp/err"
rc=$?
if [ "$rc" = 0 ] && head -n 1 "$tmp/p.yaml" | grep -q 'p\\xff\.csv' &&
    $CAPPLAN check "$tmp/h.yaml" "$tmp/p.yaml" >/dev/null 2>"$tmp/err2"; then
    ok comment-not-utf8
else
    bad comment-not-utf8 "exit $rc: $(oneline "$tmp/err") $(oneline "$tmp/err2")"
fi
# a C3O file's base name is the samples' job; fit reads UTF-8 only
printf 'instance_count\tmachine_type\tdata_size_MB\tgross_runtime\n2\tm4.xlarge\t1000\t100\n4\tm4.xlarge\t1000\t60\n' >"$tmp/s${ff}.tsv"
$CAPPLAN import c3o "$tmp/s${ff}.tsv" -o "$tmp/s.csv" 2>"$tmp/err"
rc=$?
if [ "$rc" = 2 ] && [ ! -e "$tmp/s.csv" ] && grep -q "s.\.tsv: error: the file's name gives no UTF-8 job name: name it with --job" "$tmp/err"; then
    ok c3o-name
else
    bad c3o-name "exit $rc: $(oneline "$tmp/err")"
fi
$CAPPLAN import c3o "$tmp/s${ff}.tsv" --job sort -o "$tmp/s.csv" 2>"$tmp/err"
rc=$?
if [ "$rc" = 0 ] && [ "$(sed -n 2p "$tmp/s.csv" | cut -d, -f1)" = sort ]; then ok c3o-job; else
    bad c3o-job "exit $rc: $(oneline "$tmp/err")"; fi

# ---- import pollux: figures the loader would refuse ----------------------
# pollux_refused NAME WANT ARGS...: exit 2, the importer's own error WANT
pollux_refused() {
    pr_name=$1 pr_want=$2
    shift 2
    $CAPPLAN import pollux "$@" -o "$tmp/o.yaml" 2>"$tmp/err"
    pr_rc=$?
    if [ "$pr_rc" != 2 ] || [ -e "$tmp/o.yaml" ]; then
        bad "$pr_name" "exit $pr_rc: $(oneline "$tmp/err")"
    elif ! no_backstop "$pr_name" "$tmp/err"; then
        :
    elif grep -q -e "$pr_want" "$tmp/err"; then
        ok "$pr_name"
    else
        bad "$pr_name" "$(oneline "$tmp/err")"
    fi
    rm -f "$tmp/o.yaml"
}
# the step time of tests/fuzz-regress/import/pollux-step-time-underflow
printf 'placement,local_bsz,step_time\n1,32,2.1e-322\n' >"$tmp/tiny.csv"
pollux_refused pollux-step-time "tiny.csv:2:6: error: local_bsz x GPUs / step_time is inf samples/s" "$tmp/tiny.csv"
printf 'placement,local_bsz,step_time\n1,32,1e14\n2,32,1e-6\n' >"$tmp/apart.csv"
pollux_refused pollux-speedup "apart.csv:3:6: error: the speedup on 2 GPUs over 1 is 2e+20" "$tmp/apart.csv"
printf 'timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-09 07:01:55,1e15,1,66.0,11cb48\n' >"$tmp/long.csv"
pollux_refused pollux-work "long.csv:2:21: error: the job's work (duration x" $A/placements.csv --trace "$tmp/long.csv"

# ---- import inventory: pool names of shapes that differ past 6 digits -----
printf 'sn,cpu_milli,memory_mib,gpu,model\na,1234567,262144,2,T4\nb,1234568,262144,2,T4\nc,32000,1048576.5,2,T4\nd,32000,1048577,2,T4\n' >"$tmp/inv.csv"
printf 'horizon: {slots: 2}\nsites: [{name: s}]\n' >"$tmp/site.yaml"
$CAPPLAN import inventory "$tmp/inv.csv" --site s -o "$tmp/inv.yaml" 2>"$tmp/err"
rc=$?
if [ "$rc" = 0 ] && [ "$(grep -c '^  - name: s/T4x2-' "$tmp/inv.yaml")" = 4 ] &&
    $CAPPLAN check "$tmp/site.yaml" "$tmp/inv.yaml" >/dev/null 2>"$tmp/err"; then
    ok inventory-names
else
    bad inventory-names "exit $rc: $(oneline "$tmp/err")"
fi

# ---- import skypilot: a GPU of a few MiB -----------------------------------
# tests/fuzz-regress/csv/fitout-skypilot-tiny-gpu-memory, reduced: its
# memory would round to memory_gb 0, which the loader refuses
printf '%s\n' 'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region' \
    "x1,ZZ9,1,32,64.0,\"{'Gpus': [{'Name': 'ZZ9', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 3}}]}\",0.44,0.00,r" >"$tmp/tiny_vms.csv"
$CAPPLAN import skypilot "$tmp/tiny_vms.csv" -o "$tmp/tiny.yaml" 2>"$tmp/err"
rc=$?
if [ "$rc" = 0 ] && $CAPPLAN check "$tmp/h.yaml" "$tmp/tiny.yaml" >/dev/null 2>"$tmp/err2" &&
    grep -q "tiny_vms.csv:2:4: warning: accelerator 'ZZ9': memory unknown" "$tmp/err"; then
    ok skypilot-tiny-memory
else
    bad skypilot-tiny-memory "exit $rc: $(oneline "$tmp/err") $(oneline "$tmp/err2")"
fi

# ---- import series: times are digits where the format has them ------------
printf 'Time,Carbon Intensity\n2020-06-01 00:00:00,100\n2020-06-01 01:00:00,200\n' >"$tmp/ci.csv"
for st in '2020-06-01 +0:+0' '2020-02-31 00:00' '2021-02-29T00:00' '2020-06-01T-1:00' '2020-06-01T00:3'; do
    $CAPPLAN import series --site s --start "$st" --slots 1 --carbon "$tmp/ci.csv" >/dev/null 2>"$tmp/err"
    rc=$?
    if [ "$rc" = 2 ] && grep -q -e '--start TIME' "$tmp/err"; then ok; else
        bad "series --start '$st'" "exit $rc: $(oneline "$tmp/err")"; fi
done
printf 'Time,Carbon Intensity\n2020-06-01 00:00:00,100\n2020-06-01 -1:-5,200\n' >"$tmp/neg.csv"
$CAPPLAN import series --site s --start '2020-06-01 00:00' --slots 1 --carbon "$tmp/neg.csv" >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" = 2 ] && grep -q "neg.csv:3:1: error: expected a time like" "$tmp/err"; then ok series-sample-time; else
    bad series-sample-time "exit $rc: $(oneline "$tmp/err")"; fi
$CAPPLAN import series --site s --start '2020-06-01T00:30:00.5Z' --slots 1 --carbon "$tmp/ci.csv" -o "$tmp/ci.yaml" 2>"$tmp/err"
rc=$?
if [ "$rc" = 0 ] && grep -q 'carbon_intensity: \[150.013888889\]' "$tmp/ci.yaml"; then ok series-fraction; else
    bad series-fraction "exit $rc: $(oneline "$tmp/err") $(oneline "$tmp/ci.yaml" 8)"; fi
# the fragment's first line is the command that re-runs it, every text one
# shell word: pasted into a shell, a file named '$(touch ...)' is a name
# (run here with capplan a function that prints its arguments)
hn="$tmp/c \$(touch pwned) it's.csv"
cp "$tmp/ci.csv" "$hn"
$CAPPLAN import series --site "s;x" --start '2020-06-01 00:00' --slots 1 --carbon "$hn" -o "$tmp/hn.yaml" 2>"$tmp/err"
rc=$?
line=$(sed -n '1s/^# //p' "$tmp/hn.yaml")
words=$(cd "$tmp" && capplan() { printf '%s\n' "$@"; } && eval "$line")
if [ "$rc" = 0 ] && [ ! -e "$tmp/pwned" ] && [ "$(printf '%s\n' "$words" | sed -n 12p)" = "$hn" ] &&
    [ "$(printf '%s\n' "$words" | sed -n 4p)" = "s;x" ]; then ok series-comment-shell; else
    bad series-comment-shell "exit $rc: $(oneline "$tmp/err") $(oneline "$tmp/hn.yaml" 1)"; fi
# the same for the other importers' first lines (one rule, import_cmd_arg):
# gavel with a hostile file name and --match
gn="$tmp/g \$(touch pwned) it's.csv"
cp "$DATA/gavel/isolated_throughputs.csv" "$gn"
$CAPPLAN import gavel "$gn" --match '^ResNet-50|$(touch pwned)' -o "$tmp/gn.yaml" 2>"$tmp/err"
rc=$?
line=$(sed -n '1s/^# //p' "$tmp/gn.yaml")
words=$(cd "$tmp" && capplan() { printf '%s\n' "$@"; } && eval "$line")
if [ "$rc" = 0 ] && [ ! -e "$tmp/pwned" ] && [ "$(printf '%s\n' "$words" | sed -n 3p)" = "$gn" ] &&
    [ "$(printf '%s\n' "$words" | sed -n 5p)" = '^ResNet-50|$(touch pwned)' ]; then ok gavel-comment-shell; else
    bad gavel-comment-shell "exit $rc: $(oneline "$tmp/err") $(oneline "$tmp/gn.yaml" 1)"; fi

# ---- export skypilot ------------------------------------------------------
if test_have_prereq PYYAML; then
    run_plan "$tmp/nc.plan.yaml" $A/names-cloud.yaml
    $CAPPLAN export skypilot --plan "$tmp/nc.plan.yaml" -o "$tmp/nc" $A/names-cloud.yaml >/dev/null 2>"$tmp/err"
    rc=$?
    if [ "$rc" = 0 ] && python3 $A/launch_check.py $A/names-cloud.yaml "$tmp/nc.plan.yaml" "$tmp/nc" >"$tmp/check" 2>&1; then
        ok skypilot-read-back
    else
        bad skypilot-read-back "exit $rc: $(oneline "$tmp/err") $(oneline "$tmp/check" 4)"
    fi
    # every task's run: runs its job's command and none of a name
    for f in "$tmp"/nc/tasks/*.yaml; do
        python3 -c 'import sys, yaml; sys.stdout.write(yaml.safe_load(open(sys.argv[1]))["run"])' "$f" >"$tmp/run.sh"
        CP_PWNED=$tmp/pwned sh "$tmp/run.sh" >>"$tmp/ran" 2>/dev/null
    done
    if [ ! -e "$tmp/pwned" ] && [ "$(sort "$tmp/ran" | tr '\n' ' ')" = "ran-a ran-big " ]; then ok skypilot-runs; else
        bad skypilot-runs "pwned: $(ls "$tmp/pwned" 2>/dev/null), ran: $(oneline "$tmp/ran")"; fi
else
    skip skypilot-read-back "$(test_why PYYAML)"
fi
# a job named with a newline: its "# job" comment line would end there
awk '/^  - name: "big: /{print "  - name: \"x\\ntouch \\\"$CP_PWNED\\\" #\""; next} {print}' \
    $A/names-cloud.yaml >"$tmp/nl.yaml"
run_plan "$tmp/nl.plan.yaml" "$tmp/nl.yaml"
$CAPPLAN export skypilot --plan "$tmp/nl.plan.yaml" -o "$tmp/nl" "$tmp/nl.yaml" >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" = 2 ] && [ ! -e "$tmp/nl" ] &&
    grep -q 'nl.plan.yaml:[0-9]*:[0-9]*: error: a job name contains a control character' "$tmp/err"; then
    ok skypilot-newline-name
else
    bad skypilot-newline-name "exit $rc: $(oneline "$tmp/err")"
fi

# ---- export slurm: a predecessor the plan does not list -------------------
# tests/slurm/hostile.yaml with the first job named "pre\ntouch ... #",
# and a plan without it (a plan of other inputs, or edited)
sed -e 's/^  - name: "it.s .*$/  - name: "pre\\ntouch \\"$CP_PWNED\\" #"/' \
        -e 's/^    after: .*$/    after: ["pre\\ntouch \\"$CP_PWNED\\" #"]/' tests/slurm/hostile.yaml >"$tmp/pre.yaml"
run_plan "$tmp/pre.plan.yaml" "$tmp/pre.yaml"
awk '/^- name: / { skip = ($0 ~ /^- name: .pre$/) } /^[a-z]/ { skip = 0 } !skip' "$tmp/pre.plan.yaml" >"$tmp/nopre.plan.yaml"
if [ "$rc" = 0 ] && ! grep -q "^- name: .pre" "$tmp/nopre.plan.yaml"; then
    $CAPPLAN export slurm --plan "$tmp/nopre.plan.yaml" -o "$tmp/pre" "$tmp/pre.yaml" >/dev/null 2>"$tmp/err"
    rc=$?
    if [ "$rc" = 2 ] && [ ! -e "$tmp/pre" ] &&
        grep -q 'pre.yaml:[0-9]*:[0-9]*: error: a job name contains a control character' "$tmp/err"; then
        ok slurm-predecessor
    else
        for f in "$tmp"/pre/jobs/*; do CP_PWNED=$tmp/pwned sh "$f" >/dev/null 2>&1; done
        bad slurm-predecessor "exit $rc, $(ls "$tmp/pwned" 2>/dev/null): $(oneline "$tmp/err")"
    fi
else
    bad slurm-predecessor "the fixture: plan exit $rc: $(oneline "$tmp/err")"
fi

# ---- files written into a folder: a link planted there -------------------
# export's -o DIR and whatif --slurm-array DIR: a link in DIR to an input
# is refused (files are replaced through links, so the write would
# replace the input)
L=$tmp/links
mkdir -p "$L/sky" "$L/sl/jobs" "$L/arr"
cp tests/slurm/cloud.yaml tests/slurm/cloud.plan.yaml examples/tiny.yaml "$L/"
ln -s ../cloud.yaml "$L/sky/launch.md"
ln -s ../cloud.plan.yaml "$L/sl/submit.sh"
ln -s ../tiny.yaml "$L/arr/submit.sh"
sums=$(cd "$L" && cksum cloud.yaml cloud.plan.yaml tiny.yaml)
link_refused() { # NAME WANT CMD...: exit 2, the message WANT, no input changed
    lr_name=$1 lr_want=$2
    shift 2
    $CAPPLAN "$@" >/dev/null 2>"$tmp/err"
    lr_rc=$?
    if [ "$lr_rc" = 2 ] && grep -qF -e "$lr_want" "$tmp/err" && [ "$(cd "$L" && cksum cloud.yaml cloud.plan.yaml tiny.yaml)" = "$sums" ]; then
        ok "$lr_name"
    else
        bad "$lr_name" "exit $lr_rc: $(oneline "$tmp/err")"
        (cd "$L" && cp "$OLDPWD/tests/slurm/cloud.yaml" "$OLDPWD/tests/slurm/cloud.plan.yaml" "$OLDPWD/examples/tiny.yaml" .)
    fi
}
link_refused export-skypilot-link "-o '$L/sky/launch.md' is the input '$L/cloud.yaml'" \
    export skypilot --plan "$L/cloud.plan.yaml" -o "$L/sky" "$L/cloud.yaml"
link_refused export-slurm-link "-o '$L/sl/submit.sh' is the --plan '$L/cloud.plan.yaml'" \
    export slurm --begin now --plan "$L/cloud.plan.yaml" -o "$L/sl" "$L/cloud.yaml"
printf 'scenarios:\n  - name: s1\n    changes: []\n' >"$tmp/s1.yaml"
link_refused whatif-array-link "--slurm-array '$L/arr/submit.sh' is the input '$L/tiny.yaml'" \
    whatif --slurm-array "$L/arr" --scenarios "$tmp/s1.yaml" -o "$L/t.md" "$L/tiny.yaml"

# ---- whatif: accelerator names in the table headers -----------------------
sed 's/V100/"V|1,0\\"0 <i>"/g' examples/tiny.yaml >"$tmp/acc.yaml"
printf 'scenarios:\n  - name: "s|1 <b>"\n    changes: []\n' >"$tmp/scen.yaml"
for fmt in md csv; do
    timeout "$limit" $CAPPLAN whatif -q --method heuristic --scenarios "$tmp/scen.yaml" --format $fmt \
        -o "$tmp/w.$fmt" "$tmp/acc.yaml" 2>"$tmp/err"
    rc=$?
    [ "$rc" = 0 ] || bad "whatif $fmt" "exit $rc: $(oneline "$tmp/err")"
done
# every md row has the header's cells, and no raw '<'
awk -F'|' '{ n = 0; for (i = 1; i <= length($0); i++) { c = substr($0, i, 1);
        if (c == "\\") i++; else if (c == "|") n++ }
    if (NR == 1) want = n; else if ($0 ~ /^\|/ && n != want) bad = 1 }
    /</ { bad = 1 } END { exit bad }' "$tmp/w.md" && ok whatif-md || bad whatif-md "$(oneline "$tmp/w.md" 4)"
if python3 -c 'import csv, sys; r = list(csv.reader(open(sys.argv[1], newline=""))); sys.exit(len(set(map(len, r))) != 1 or r[0][11] != "acc_hours_on_prem:V|1,0\"0 <i>")' "$tmp/w.csv"; then
    ok whatif-csv
else
    bad whatif-csv "$(oneline "$tmp/w.csv" 3)"
fi

# ---- fit: names from the samples in the quality tables --------------------
# an escape sequence in a job name would drive the terminal (retitle it)
esc=$(printf '\033')
awk -v e="$esc" 'BEGIN { print "job,type,machines,input_gb,seconds,k"
    split("2 4 8", M, " "); split("5 10", S, " "); split("3 6", K, " ")
    for (a = 1; a <= 3; a++) for (b = 1; b <= 2; b++) for (c = 1; c <= 2; c++)
        printf "%s]0;pwned%c%s[31mx,t,%d,%d,%.10g,%d\n", e, 7, e, M[a], S[b],
            10 + 50 * S[b] / M[a] + 3 * K[c] * S[b] / M[a] + 2 * M[a], K[c] }' >"$tmp/esc.csv"
for p in "" "--params all"; do
    # shellcheck disable=SC2086
    $CAPPLAN fit dataflow "$tmp/esc.csv" $p --no-loo -o "$tmp/esc.yaml" >"$tmp/table" 2>"$tmp/err"
    rc=$?
    if [ "$rc" = 0 ] && grep -q 'x1b]0;pwned' "$tmp/table" && ! grep -q "$esc" "$tmp/table" "$tmp/err"; then
        ok "fit table${p:+ $p}"
    else
        bad "fit table${p:+ $p}" "exit $rc: $(oneline "$tmp/err")"
    fi
done

test_done
