# shellcheck shell=sh
# What the suites that start a Slurm of their own share: tests/suite_slurm.sh
# (one node, this host) and tests/suite_execution.sh (one slurmd per node of
# the nightly's fleet). Sourced after tests/lib.sh. Each suite writes its
# own node lines and the settings in which the two clusters differ; munge,
# the settings both need, the waits, the daemons' errors and the stop are
# here, so a fix to one (a port, a noisy log line, a daemon that will not
# die) reaches both.

wait_s=${CP_SLURM_TIMEOUT:-60}
# the daemons live in /usr/sbin, which a user's PATH may lack
PATH=$PATH:/usr/sbin:/sbin

# poll SECONDS CMD...: runs CMD every 0.2 s until it succeeds (0) or
# SECONDS pass (1).
poll() {
    po_end=$(($(date +%s) + $1))
    shift
    while ! "$@"; do
        [ "$(date +%s)" -ge "$po_end" ] && return 1
        sleep 0.2
    done
    return 0
}

# slurm_missing [CMD...]: prints the first of the Slurm and munge commands
# (and CMDs) that is not installed, and returns 0 when one is missing.
slurm_missing() {
    for sm in munged munge unmunge slurmctld slurmd sbatch scontrol squeue scancel "$@"; do
        if ! command -v "$sm" >/dev/null 2>&1; then
            echo "$sm"
            return 0
        fi
    done
    return 1
}

# slurm_munged DIR: a munged of its own (key, socket DIR/munge/socket,
# log DIR/munged.log); sets munge_pid. 0 when it answers within $wait_s s.
slurm_munged() {
    mkdir -p "$1/munge" && chmod 755 "$1/munge" || return 1
    dd if=/dev/urandom of="$1/munge.key" bs=1024 count=1 2>/dev/null && chmod 600 "$1/munge.key"
    munged -F -f --socket="$1/munge/socket" --key-file="$1/munge.key" --pid-file="$1/munged.pid" \
        --seed-file="$1/munged.seed" --num-threads=2 >"$1/munged.log" 2>&1 &
    munge_pid=$!
    poll "$wait_s" sh -c "munge -n -S '$1/munge/socket' 2>/dev/null | unmunge -S '$1/munge/socket' >/dev/null 2>&1"
}

# slurm_conf_common DIR: the slurm.conf lines both clusters share: every
# daemon runs as this user and authenticates through slurm_munged's
# socket; state, controller pid and logs in DIR; no cgroups, accounting or
# mail; finished jobs kept 600 s so that the checks can `scontrol show` them
# and completions logged to DIR/log/jobcomp.log.
slurm_conf_common() {
    scc_user=$(id -un)
    cat <<SCC
SlurmUser=$scc_user
SlurmdUser=$scc_user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$1/munge/socket
StateSaveLocation=$1/state
SlurmctldPidFile=$1/slurmctld.pid
SlurmctldLogFile=$1/log/slurmctld.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$1/log/jobcomp.log
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
MinJobAge=600
SCC
}

# slurm_errors FILE...: each file's error and fatal lines (10 at most),
# less Slurm's harmless start-up noise (PMIx, MPI, missing state files,
# hwloc), under a line naming the file.
slurm_errors() {
    for se in "$@"; do
        [ -s "$se" ] || continue
        grep -iE 'error|fatal' "$se" |
            grep -vE 'pmix|PMIx|MPI: Cannot create|state file|backup state|not a valid character|hwloc' >"$tmp/se.err"
        [ -s "$tmp/se.err" ] || continue
        echo "--- $se"
        head -n 10 "$tmp/se.err"
    done
}

# slurm_stop CTLD_PID PID...: when the controller CTLD_PID runs, cancels
# this user's jobs and waits (10 s at most) for the queue to empty; then
# stops CTLD_PID and the PIDs (the daemons the suite started, by pid),
# SIGKILL for one still there after 10 s.
slurm_stop() {
    if [ -n "$1" ] && kill -0 "$1" 2>/dev/null; then
        timeout 10 scancel --quiet --user="$(id -un)" >/dev/null 2>&1
        poll 10 sh -c '[ -z "$(squeue -h -o %i 2>/dev/null)" ]' 2>/dev/null
    fi
    for ss in "$@"; do [ -n "$ss" ] && kill "$ss" 2>/dev/null; done
    for ss in "$@"; do
        [ -n "$ss" ] || continue
        poll 10 sh -c "! kill -0 $ss 2>/dev/null" || kill -9 "$ss" 2>/dev/null
    done
}
