#!/bin/sh
# From plan to execution (docs/execution.md), on a real Slurm.
#
# Without daemons:
#   - goldens of `capplan export slurm` (tests/slurm/export/: submit.sh and
#     every job script of tests/slurm/plan.yaml) and `capplan export
#     skypilot` (tests/slurm/skypilot/: launch.sh, launch.md and every YAML of
#     tests/slurm/cloud.plan.yaml); both plans must verify;
#   - export errors (tests/slurm/nohosts.*) and usage;
#   - hostile names (tests/slurm/hostile.yaml): the scripts pass `sh -n`,
#     the names appear only single-quoted or sanitized, and running
#     submit.sh (with a stand-in sbatch) and the job scripts runs none of
#     them.
# With daemons: a one-node Slurm of Debian's packages started here (munge,
# slurmctld, slurmd; a generated slurm.conf with this host's name, CPUs
# and memory, no cgroups, loopback only, free ports, state, spool and logs
# in $tmp) and stopped on exit whatever happens (the EXIT trap cancels its
# jobs and kills the three daemons by pid). It runs the exported scripts
# of tests/slurm/input.yaml's plan (--begin now; each job records its
# start and end in $CP_TRACE) and checks that every job COMPLETED, after
# each predecessor's end, with the planned nodes, CPUs, memory and time
# (scontrol show job); then tests/slurm/sweep.yaml (6 scenarios, 7 rows)
# as a 3-task array (whatif --slurm-array) whose merged table must equal
# an unsharded run byte for byte in md, csv and json.
#
# Where the packages are missing (or under `make check`, which runs no
# daemons) the cluster part is one skipped check; `make test` installs
# them and fails a skip. If the daemons cannot start (slurmd refusing
# this machine), the suite fails with their own error. Every
# wait polls with a timeout ($CP_SLURM_TIMEOUT seconds, default 60).
# About 30 s. Under `make valgrind` capplan runs under memcheck, the
# daemons and the array's tasks (which re-run the binary itself) natively.
SUITE=slurm
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/slurm_lib.sh
. "$(dirname "$0")/slurm_lib.sh"

# ---- helpers -------------------------------------------------------------

# dir_cmp EXPECT ACTUAL: the same files in both folders, each equal
# (test_cmp; the update switch writes missing ones).
dir_cmp() {
    (cd "$2" && find . -type f | sort) >"$tmp/dc.actual"
    if [ -d "$1" ]; then (cd "$1" && find . -type f | sort) >"$tmp/dc.expect"; else : >"$tmp/dc.expect"; fi
    if [ "$CP_GOLDEN_UPDATE" != 1 ] && ! cmp -s "$tmp/dc.expect" "$tmp/dc.actual"; then
        bad "$1" "not the same files: $(diff "$tmp/dc.expect" "$tmp/dc.actual" | grep '^[<>]' | tr '\n' ' ')"
        return
    fi
    while read -r f; do
        f=${f#./}
        [ "$CP_GOLDEN_UPDATE" = 1 ] && mkdir -p "$(dirname "$1/$f")"
        test_cmp "$1/$f" "$2/$f"
    done <"$tmp/dc.actual"
}

# field LINE KEY: the value of KEY= in a `scontrol -o` line
field() {
    printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s|^$2=||p" | head -n 1
}

# mib SIZE: a Slurm memory size (512M, 1G, 2.5G) in MiB
mib() {
    awk -v s="$1" 'BEGIN { u = substr(s, length(s)); n = substr(s, 1, length(s) - 1) + 0
        f = u == "K" ? 1 / 1024 : u == "M" ? 1 : u == "G" ? 1024 : u == "T" ? 1048576 : -1
        if (f < 0) { print "?" s; exit } printf "%d\n", n * f + 0.5 }'
}

# plan_job_field PLAN JOB KEY: KEY of job JOB in a YAML plan
plan_job_field() {
    awk -v job="$2" -v key="$3" '
        /^- name: / { n = substr($0, 9); if (n ~ /^'\''.*'\''$/) { n = substr(n, 2, length(n) - 2); gsub(/'\'''\''/, "'\''", n) } cur = n; next }
        /^[a-z]/ { cur = "" }
        cur == job && index($0, "  " key ": ") == 1 { print substr($0, length(key) + 5); exit }' "$1"
}

# ---- the export goldens --------------------------------------------------

sed 's/@HOST@/cp-test-host/g' tests/slurm/input.yaml >"$tmp/golden-input.yaml"
verify_ok "tests/slurm/plan.yaml verifies" tests/slurm/plan.yaml "$tmp/golden-input.yaml"
verify_ok "tests/slurm/cloud.plan.yaml verifies" tests/slurm/cloud.plan.yaml tests/slurm/cloud.yaml

# slurm: the plan's own --begin times (horizon.start has no zone: no TZ line)
timeout "$limit" $CAPPLAN export slurm --plan tests/slurm/plan.yaml -o "$tmp/export" \
    "$tmp/golden-input.yaml" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" = 0 ] && [ ! -s "$tmp/out" ] &&
    [ "$(cat "$tmp/err")" = "capplan export: 4 job scripts and submit.sh in $tmp/export (1 dropped job listed there)" ]; then
    ok "export slurm"
    dir_cmp tests/slurm/export "$tmp/export"
    n=0
    for f in "$tmp/export/submit.sh" "$tmp/export"/jobs/*.sbatch; do
        if [ -x "$f" ] && sh -n "$f" 2>"$tmp/shn"; then n=$((n + 1)); else bad "sh -n $f" "$(oneline "$tmp/shn")"; fi
    done
    if [ "$n" = 5 ]; then ok; else bad "export slurm: $n executable scripts that parse, want 5"; fi
else
    bad "export slurm" "exit $rc: $(oneline "$tmp/err")"
fi

# skypilot: one cluster per lease group, one task per cloud job, launch.sh
timeout "$limit" $CAPPLAN export skypilot --plan tests/slurm/cloud.plan.yaml -o "$tmp/sky" \
    tests/slurm/cloud.yaml >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" = 0 ] && [ ! -s "$tmp/out" ] &&
    [ "$(cat "$tmp/err")" = "capplan export: 3 cloud jobs on 3 SkyPilot clusters (3 leases), launch.sh and launch.md in $tmp/sky" ]; then
    ok "export skypilot"
    dir_cmp tests/slurm/skypilot "$tmp/sky"
else
    bad "export skypilot" "exit $rc: $(oneline "$tmp/err")"
fi

# errors: a pool without hosts and no horizon.start, both reported
run_plan "$tmp/nohosts.plan.yaml" tests/slurm/nohosts.yaml
capture "$tmp/actual" export slurm --plan "$tmp/nohosts.plan.yaml" -o "$tmp/nohosts" tests/slurm/nohosts.yaml
test_cmp tests/slurm/nohosts.expected "$tmp/actual"
if [ -e "$tmp/nohosts" ]; then bad "export with errors wrote $tmp/nohosts"; else ok; fi
# horizon.start goes through the one timestamp reader (models/base/cp_time.c):
# an hour of -1 is no time (export's own sscanf took it as 23:00 the day
# before); the loader refuses it, with its position (export named none)
sed 's/@HOST@/cp-test-host/g; s/start: "2026-12-01T00:00:00"/start: "2026-12-01T-1:00"/' \
    tests/slurm/input.yaml >"$tmp/badstart.yaml"
timeout "$limit" $CAPPLAN export slurm --plan tests/slurm/plan.yaml -o "$tmp/badstart" \
    "$tmp/badstart.yaml" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" = 2 ] && [ ! -e "$tmp/badstart" ] &&
    grep -q "^$tmp/badstart.yaml:8:43: error: horizon: 'start' must be an ISO-8601 time, .* got '2026-12-01T-1:00'\$" "$tmp/err"; then ok
else bad "export slurm: horizon.start with hour -1" "exit $rc: $(oneline "$tmp/err")"; fi
# a job planned under a power limit sets it in its script (capplan.5
# "power_limits"); the job without one does not
run_plan "$tmp/power.plan.yaml" tests/slurm/power.yaml
timeout "$limit" $CAPPLAN export slurm --begin now --plan "$tmp/power.plan.yaml" -o "$tmp/power" \
    tests/slurm/power.yaml >"$tmp/out" 2>"$tmp/err"
rc=$?
pl="srun --ntasks-per-node=1 sh -c 'nvidia-smi -i \"\$CUDA_VISIBLE_DEVICES\" -pl 150' || printf '%s\\n' 'capplan: could not set the power limit of 150 W: the job runs at full power' >&2"
if [ "$rc" = 0 ] && grep -qxF "$pl" "$tmp/power/jobs/000-a-dear.sbatch" &&
    ! grep -q nvidia-smi "$tmp/power/jobs/002-a-cheap.sbatch" &&
    sh -n "$tmp/power/jobs/000-a-dear.sbatch"; then ok
else bad "export slurm: the power limit" "exit $rc: $(oneline "$tmp/err") $(grep -h nvidia "$tmp/power/jobs/"* 2>/dev/null)"; fi
usage_fails "export without a target" export
usage_fails "export of an unknown target" export pbs --plan tests/slurm/plan.yaml -o "$tmp/x" "$tmp/golden-input.yaml"
usage_fails "export without --plan" export slurm -o "$tmp/x" "$tmp/golden-input.yaml"
usage_fails "export without -o" export slurm --plan tests/slurm/plan.yaml "$tmp/golden-input.yaml"
usage_fails "export --begin other than now" export slurm --begin tomorrow --plan tests/slurm/plan.yaml -o "$tmp/x" "$tmp/golden-input.yaml"
usage_fails "export without inputs" export slurm --plan tests/slurm/plan.yaml -o "$tmp/x"

# ---- hostile names -------------------------------------------------------

run_plan "$tmp/hostile.plan.yaml" tests/slurm/hostile.yaml
timeout "$limit" $CAPPLAN export slurm --plan "$tmp/hostile.plan.yaml" -o "$tmp/hostile" \
    tests/slurm/hostile.yaml >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" = 0 ] && [ -f "$tmp/hostile/submit.sh" ]; then
    ok "export of hostile names"
    # a stand-in sbatch: logs its arguments one per line, prints an id
    mkdir -p "$tmp/fakebin"
    cat >"$tmp/fakebin/sbatch" <<'EOF'
#!/bin/sh
n=$(($(cat "$CP_FAKE_IDS" 2>/dev/null || echo 100) + 1))
echo "$n" >"$CP_FAKE_IDS"
for a in "$@"; do printf '[%s]\n' "$a"; done >>"$CP_FAKE_LOG"
echo "$n;cluster"
EOF
    chmod +x "$tmp/fakebin/sbatch"
    for f in "$tmp/hostile/submit.sh" "$tmp/hostile"/jobs/*; do
        if sh -n "$f" 2>"$tmp/shn"; then ok; else bad "sh -n $f" "$(oneline "$tmp/shn")"; fi
        # what is left outside single quotes holds no piece of a name
        sed -e "s/'\\\\''//g" -e "s/'[^']*'//g" "$f" >"$tmp/unquoted"
        if grep -n -e '(touch' -e '`touch' -e 'touch "' -e '\$HOME' -e 'exit 7' -e '"a"' "$tmp/unquoted" >"$tmp/leak"; then
            bad "a name outside quotes in $f" "$(oneline "$tmp/leak")"
        else ok; fi
    done
    if ls "$tmp/hostile/jobs" | grep -qv '^[0-9][0-9][0-9]-[A-Za-z0-9_.-]*\.sbatch$'; then
        bad "hostile file names" "$(ls "$tmp/hostile/jobs" | tr '\n' ' ')"
    else ok; fi
    if grep -h '^#SBATCH' "$tmp/hostile"/jobs/* | grep -qv '^#SBATCH --[a-z-]*=[A-Za-z0-9_.:,-]*$'; then
        bad "hostile directives" "$(grep -h '^#SBATCH' "$tmp/hostile"/jobs/* | grep -v '^#SBATCH --[a-z-]*=[A-Za-z0-9_.:,-]*$' | head -n 2)"
    else ok; fi
    CP_PWNED=$tmp/pwned CP_FAKE_IDS=$tmp/fake.ids CP_FAKE_LOG=$tmp/fake.log PATH="$tmp/fakebin:$PATH" \
        sh "$tmp/hostile/submit.sh" >"$tmp/sub.out" 2>"$tmp/sub.err"
    rc=$?
    # the names come back exactly, with the ids, and the second job waits for the first
    printf '%s\n' "101 it's \"a\" \$(touch \"\$CP_PWNED\") \`touch \"\$CP_PWNED\"\` \$HOME; exit 7" \
        "102 then'; touch \"\$CP_PWNED\"; '" >"$tmp/sub.exp"
    if [ "$rc" = 0 ] && cmp -s "$tmp/sub.exp" "$tmp/sub.out"; then ok; else
        bad "hostile submit.sh" "exit $rc: $(oneline "$tmp/sub.out") $(oneline "$tmp/sub.err")"; fi
    if grep -qx '\[--dependency=afterok:101\]' "$tmp/fake.log"; then ok; else bad "hostile dependency" "$(oneline "$tmp/fake.log" 8)"; fi
    for f in "$tmp/hostile"/jobs/*; do
        CP_PWNED=$tmp/pwned sh "$f" >/dev/null 2>&1 || bad "hostile job script $f fails"
    done
    if [ -e "$tmp/pwned" ]; then bad "a hostile name ran: $tmp/pwned exists"; else ok; fi
else
    bad "export of hostile names" "exit $rc: $(oneline "$tmp/err")"
fi

# ---- a one-node Slurm ----------------------------------------------------

host=$(hostname -s 2>/dev/null || hostname)
started=0
munge_pid= ctld_pid= slurmd_pid=
S=$tmp/slurm
# stop_slurm: this cluster's jobs cancelled, the daemons stopped (slurm_lib.sh)
stop_slurm() {
    slurm_stop "$ctld_pid" "$slurmd_pid" "$munge_pid"
    slurmd_pid= ctld_pid= munge_pid=
}
trap 'stop_slurm; chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP

# slurm_fail WHAT: the daemons did not come up: a failed check that says
# why, with the daemons' own errors (Slurm's harmless start-up noise about
# PMIx and missing state files left out) and which of them exited
slurm_fail() {
    sf_why=$1
    for sf in munged:$munge_pid slurmctld:$ctld_pid slurmd:$slurmd_pid; do
        sf_pid=${sf#*:}
        [ -n "$sf_pid" ] && ! kill -0 "$sf_pid" 2>/dev/null && sf_why="$sf_why; ${sf%%:*} exited"
    done
    bad "slurm" "$sf_why"
    slurm_errors "$S"/slurmd.out "$S"/slurmctld.out "$S"/munged.log "$S"/log/slurmd.log "$S"/log/slurmctld.log
}

# port_free PORT: nobody listens on it (IPv4 or IPv6)
port_free() {
    hex=$(printf ':%04X' "$1")
    ! cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk '{ print $2 }' | grep -q "$hex\$"
}

start_slurm() {
    if sm=$(slurm_missing); then
        slurm_fail "'$sm' is not installed: 'make test' installs slurmctld slurmd slurm-client munge (Makefile, slurm-deps)"
        return 1
    fi
    mkdir -p "$S/state" "$S/spool" "$S/log" || return 1
    if ! slurm_munged "$S"; then
        slurm_fail "munged did not answer on $S/munge/socket within $wait_s s"
        return 1
    fi
    # this host's CPUs and memory as slurmd sees them
    if ! slurmd -C >"$S/slurmd-C" 2>&1; then
        slurm_fail "slurmd -C fails: $(oneline "$S/slurmd-C" 5)"
        return 1
    fi
    cpus=$(sed -n 's/.* CPUs=\([0-9]*\).*/\1/p' "$S/slurmd-C" | head -n 1)
    mem=$(sed -n 's/.* RealMemory=\([0-9]*\).*/\1/p' "$S/slurmd-C" | head -n 1)
    if [ -z "$cpus" ] || [ -z "$mem" ]; then
        slurm_fail "slurmd -C gives no CPUs or RealMemory: $(oneline "$S/slurmd-C" 2)"
        return 1
    fi
    # the jobs of 'big' ask for 2 CPUs and 1 GiB
    if [ "$cpus" -lt 2 ] || [ "$mem" -lt 1536 ]; then
        slurm_fail "this host has $cpus CPUs and $mem MiB; the suite's jobs need 2 CPUs and 1.5 GiB"
        return 1
    fi
    # two free ports next to each other, different for every run
    port=$((20000 + ($$ * 37 + $(date +%s)) % 40000))
    tries=0
    while ! port_free "$port" || ! port_free $((port + 1)); do
        port=$((port + 2)); tries=$((tries + 1))
        [ "$port" -gt 65000 ] && port=20000
        if [ "$tries" -gt 1000 ]; then slurm_fail "no free TCP port pair found"; return 1; fi
    done
    cat >"$S/slurm.conf" <<EOF
# written by tests/suite_slurm.sh: one node, this host, loopback only
ClusterName=cptest$$
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
$(slurm_conf_common "$S")
SlurmdSpoolDir=$S/spool
SlurmdPidFile=$S/slurmd.pid
SlurmdLogFile=$S/log/slurmd.log
SchedulerType=sched/builtin
SlurmctldTimeout=60
SlurmdTimeout=60
NodeName=$host NodeAddr=127.0.0.1 NodeHostname=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=capplan Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
    SLURM_CONF=$S/slurm.conf
    export SLURM_CONF
    slurmctld -D -i -f "$S/slurm.conf" >"$S/slurmctld.out" 2>&1 &
    ctld_pid=$!
    slurmd -D -N "$host" -f "$S/slurm.conf" >"$S/slurmd.out" 2>&1 &
    slurmd_pid=$!
    if ! poll "$wait_s" sh -c "scontrol -o show node '$host' 2>/dev/null | grep -q ' State=IDLE '"; then
        slurm_fail "node '$host' not idle within $wait_s s: $(scontrol -o show node "$host" 2>&1 | tr ' ' '\n' | grep -E '^(State|Reason)=' | tr '\n' ' ')"
        return 1
    fi
    started=1
    ok "slurm: node $host idle ($cpus CPUs, $mem MiB, ports $port-$((port + 1)))"
}

# jobs_done ID...: every job (and every task of an array) is finished
jobs_done() {
    for j in "$@"; do
        st=$(scontrol -o show job "$j" 2>/dev/null | sed -n 's/.* JobState=\([A-Z_]*\) .*/\1/p')
        [ -n "$st" ] || return 1
        echo "$st" | grep -qE '^(PENDING|RUNNING|CONFIGURING|COMPLETING|REQUEUED|RESIZING|SUSPENDED)$' && return 1
    done
    return 0
}

# The cluster is a prerequisite (SLURM, tests/lib.sh): outside `make
# check`'s tier, and installed by `make test`, under which a skip fails.
if ! test_have_prereq SLURM; then
    skip "a one-node Slurm" "$(test_why SLURM)"
    test_done
fi
if ! start_slurm; then
    test_done
fi

# ---- the plan's jobs on Slurm --------------------------------------------

sed "s/@HOST@/$host/g" tests/slurm/input.yaml >"$tmp/input.yaml"
if plan_verify "plan of tests/slurm/input.yaml" "$tmp/plan.yaml" -- "$tmp/input.yaml"; then :; fi
timeout "$limit" $CAPPLAN export slurm --begin now --plan "$tmp/plan.yaml" -o "$tmp/run" "$tmp/input.yaml" \
    >"$tmp/out" 2>"$tmp/err" || bad "export slurm --begin now" "$(oneline "$tmp/err")"
mkdir -p "$tmp/trace"
CP_TRACE=$tmp/trace
export CP_TRACE
if sh "$tmp/run/submit.sh" >"$tmp/ids" 2>"$tmp/sub.err" && [ "$(wc -l <"$tmp/ids")" = 4 ]; then
    ok "submit.sh"
else
    bad "submit.sh" "$(oneline "$tmp/ids" 4) $(oneline "$tmp/sub.err" 4)"
fi
# id_of NAME: the Slurm id submit.sh printed for job NAME
id_of() {
    awk -v n="$1" '{ id = $1; sub(/^[^ ]* /, ""); if ($0 == n) print id }' "$tmp/ids"
}
ids=$(awk '{ print $1 }' "$tmp/ids")
if [ -n "$ids" ] && poll "$wait_s" jobs_done $ids; then ok; else
    bad "slurm jobs not finished within $wait_s s" "$(squeue 2>&1 | head -n 6 | tr '\n' ' ')"; fi
# job NAME TRACE: ran as planned; its predecessors are checked by order below
for name in prep left "it's right" join; do
    id=$(id_of "$name")
    line=$(scontrol -o show job "$id" 2>&1)
    st=$(field "$line" JobState)
    if [ "$st" != COMPLETED ]; then
        bad "job '$name' ($id): JobState=$st" "$(field "$line" Reason) $(cat "$tmp/run/slurm-$id.out" 2>/dev/null | head -n 3)"
        continue
    fi
    ok
    want_cpus=$(plan_job_field "$tmp/plan.yaml" "$name" cpus)
    want_mem=$(awk -v g="$(plan_job_field "$tmp/plan.yaml" "$name" memory_gb)" 'BEGIN { printf "%d\n", g * 1024 + 0.5 }')
    want_slots=$(plan_job_field "$tmp/plan.yaml" "$name" slots)
    got="cpus $(field "$line" CPUs/Task) mem $(mib "$(field "$line" MinMemoryNode)") nodes $(field "$line" NumNodes) $(field "$line" NodeList) time $(field "$line" TimeLimit)"
    want="cpus $want_cpus mem $want_mem nodes 1 $host time $(printf '%02d:00:00' "$want_slots")"
    if [ "$got" = "$want" ]; then ok; else bad "job '$name' requests" "got [$got], the plan says [$want]"; fi
done
# order: each job starts after each predecessor ends, by Slurm's clock (1 s)
# and by the jobs' own trace (nanoseconds)
for pair in prep:left "prep:it's right" "left:join" "it's right:join"; do
    a=${pair%%:*} b=${pair#*:}
    ta=$(echo "$a" | sed "s/it's right/right/") tb=$(echo "$b" | sed "s/it's right/right/")
    la=$(scontrol -o show job "$(id_of "$a")" 2>&1) lb=$(scontrol -o show job "$(id_of "$b")" 2>&1)
    ea=$(field "$la" EndTime) sb=$(field "$lb" StartTime)
    ta_end=$(sed -n 's/^end //p' "$tmp/trace/$ta" 2>/dev/null)
    tb_start=$(sed -n 's/^start //p' "$tmp/trace/$tb" 2>/dev/null)
    if [ -n "$ea" ] && [ -n "$sb" ] && [ "$(printf '%s\n%s\n' "$ea" "$sb" | sort | head -n 1)" = "$ea" ] &&
        [ -n "$ta_end" ] && [ -n "$tb_start" ] && awk -v e="$ta_end" -v s="$tb_start" 'BEGIN { exit !(s > e) }'; then
        ok "'$b' after '$a'"
    else
        bad "order '$a' -> '$b'" "Slurm: '$a' ends $ea, '$b' starts $sb; trace: end $ta_end, start $tb_start"
    fi
done
if grep -q "^# dropped: 'never': " "$tmp/run/submit.sh" && [ -z "$(id_of never)" ]; then ok; else bad "dropped job 'never' submitted"; fi

# ---- a what-if sweep as a 3-task array -----------------------------------

wi="--scenarios tests/slurm/sweep.yaml --quiet --no-timing --node-limit 200 --threads 1"
timeout "$limit" $CAPPLAN whatif $wi --slurm-array "$tmp/array" --shards 3 --format csv "$tmp/input.yaml" \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" = 0 ] && grep -qx '#SBATCH --array=0-2' "$tmp/array/whatif-array.sbatch" 2>/dev/null; then ok; else
    bad "whatif --slurm-array" "exit $rc: $(oneline "$tmp/err")"; fi
for f in md csv json; do
    timeout "$limit" $CAPPLAN whatif $wi --format $f -o "$tmp/full.$f" "$tmp/input.yaml" 2>"$tmp/err" ||
        bad "unsharded whatif --format $f" "$(oneline "$tmp/err")"
done
if sh "$tmp/array/submit.sh" >"$tmp/aids" 2>"$tmp/sub.err"; then ok; else bad "array submit.sh" "$(oneline "$tmp/sub.err")"; fi
aid=$(sed -n 's/ array$//p' "$tmp/aids") mid=$(sed -n 's/ merge$//p' "$tmp/aids")
if [ -n "$aid" ] && [ -n "$mid" ] && poll "$wait_s" jobs_done "$aid" "$mid"; then ok; else
    bad "what-if array not finished within $wait_s s" "$(squeue 2>&1 | head -n 6 | tr '\n' ' ')"; fi
states=$(for j in "$aid" "$mid"; do scontrol -o show job "$j" 2>&1; done | sed -n 's/.* JobState=\([A-Z_]*\) .*/\1/p' | sort | uniq -c | tr -s ' ' | tr '\n' ' ')
if [ "$states" = " 4 COMPLETED " ]; then ok; else
    bad "what-if array and merge: $states" "$(cat "$tmp/array"/slurm-*.out 2>/dev/null | head -n 5)"; fi
# the merge job's table, then the other formats from the array's shards
if cmp "$tmp/full.csv" "$tmp/array/whatif.csv"; then ok "merged csv (the merge job)"; else
    bad "the merge job's csv differs from the unsharded run"; diff -u "$tmp/full.csv" "$tmp/array/whatif.csv" | head -n 20; fi
for f in md json; do
    timeout "$limit" $CAPPLAN whatif merge --format $f -o "$tmp/merged.$f" \
        "$tmp/array/shard-2.json" "$tmp/array/shard-0.json" "$tmp/array/shard-1.json" 2>"$tmp/err" ||
        bad "whatif merge --format $f" "$(oneline "$tmp/err")"
    if cmp "$tmp/full.$f" "$tmp/merged.$f"; then ok "merged $f"; else bad "merged $f differs from the unsharded run"; diff -u "$tmp/full.$f" "$tmp/merged.$f" | head -n 20; fi
done
# one shard here (under memcheck in `make valgrind`) is the array task's file
timeout "$limit" $CAPPLAN whatif --shard 1/3 -o "$tmp/shard-1.json" $wi "$tmp/input.yaml" 2>"$tmp/err" ||
    bad "whatif --shard 1/3" "$(oneline "$tmp/err")"
if cmp "$tmp/shard-1.json" "$tmp/array/shard-1.json"; then ok "shard 1/3 as the array's task 1"; else bad "shard 1/3 differs from the array's task 1"; fi
if [ "$(grep -c '^| ' "$tmp/full.md")" = 8 ]; then ok; else bad "the sweep's table has not 7 rows" "$(oneline "$tmp/full.md" 12)"; fi

test_done
