#!/bin/sh
# Output failures (docs/reliability.md): every command
# that writes data, into every kind of broken destination, must print a
# clear error on stderr and exit non-zero, never report success after a
# truncated write, and never leave a temporary file or a partial target.
#
# Commands: plan, verify, check, fit dataflow, fit training, import
# (skypilot, gavel, c3o), and whatif and report when the binary has them.
# Destinations:
#   -o /dev/full              a full device
#   -o FILE/x                 a folder that cannot be created (a regular
#                             file in the path; works for root too)
#   -o /proc/NAME             a folder where files cannot be created
#   -o DIR/x, DIR mode 0500   an unwritable folder (skipped as root, who
#                             ignores mode bits)
#   -o DIR/x, ulimit -f       a regular file that cannot grow (EFBIG, the
#                             disk-full path of the atomic write): an
#                             existing target must keep its old content
#   >/dev/full                standard output on a full device
#   >&-                       standard output closed
#   | (reader gone)           a pipe with no reader, SIGPIPE ignored
#                             (EPIPE) and at its default (killed)
# Ends with "io: P passed, F failed, S skipped"; exits non-zero on any failure.
SUITE=io
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

# --- inputs -------------------------------------------------------------
T=examples/tiny.yaml
F=tests/fit
# shellcheck disable=SC2086
$CAPPLAN plan --quiet --no-timing -o "$tmp/tiny-plan.yaml" $T 2>"$tmp/err" || bad setup "plan tiny: $(cat "$tmp/err")"

# three copies of the training samples under other job names, so the
# fragment is larger than the ulimit -f test's limit
{
    cat $F/training-samples.csv
    sed -n '2,$s/^/b-/p' $F/training-samples.csv
    sed -n '2,$s/^/c-/p' $F/training-samples.csv
} >"$tmp/training.csv"

# Each command that writes data, as "NAME|COMMAND|ARGS" (word-split; -o
# FILE goes between COMMAND and ARGS; data to stdout without it). HAS_O
# lists those that take -o.
cat >"$tmp/cmds" <<EOF
plan|plan|--quiet --no-timing $T
verify|verify|--plan $tmp/tiny-plan.yaml $T
check|check|$T
fit-dataflow|fit dataflow|$F/ernest-samples.csv
fit-training|fit training|$tmp/training.csv
import-skypilot|import skypilot|$F/gcp-extract.csv
import-gavel|import gavel|$F/gavel-extract.csv
import-c3o|import c3o|$F/c3o-sort-extract.tsv --job sort
EOF
has_o="plan fit-dataflow fit-training import-skypilot import-gavel import-c3o"
# commands other engineers are adding: tested once the binary has them
if $CAPPLAN whatif --help >/dev/null 2>&1; then
    printf 'scenarios:\n  - name: cheaper\n    changes:\n      - {path: offers/*/price_hour, scale: 0.5}\n  - name: p\n    sweep: {path: offers/*/price_hour, values: [1, 2, 3, 4, 5, 6, 7, 8]}\n' >"$tmp/scen.yaml"
    echo "whatif|whatif|--quiet --no-timing --scenarios $tmp/scen.yaml $T" >>"$tmp/cmds"
    has_o="$has_o whatif"
else
    echo "note: no 'capplan whatif' in this binary; not tested"
fi
if $CAPPLAN report --help >/dev/null 2>&1; then
    echo "report|report|$tmp/tiny-plan.yaml" >>"$tmp/cmds"
    has_o="$has_o report"
else
    echo "note: no 'capplan report' in this binary; not tested"
fi
# commands whose stdout must stay empty with -o (fit prints its fit
# quality report there)
quiet_o="plan import-skypilot import-gavel import-c3o whatif report"
root=0
[ "$(id -u)" = 0 ] && root=1

# Sanity: every command succeeds into a good destination, else the
# failures below would prove nothing.
while IFS='|' read -r name cmd args; do
    # shellcheck disable=SC2086
    if $CAPPLAN $cmd $args >"$tmp/good.out" 2>"$tmp/err" && [ -s "$tmp/good.out" ]; then
        ok
    else
        bad "$name" "fails into a good stdout: $(oneline "$tmp/err")"
    fi
done <"$tmp/cmds"

# expect_fail NAME WHAT RC [PATH]: RC non-zero, stderr ($tmp/err) says
# "error" and names PATH when given.
expect_fail() {
    if [ "$3" = 0 ]; then
        bad "$1" "$2: exit 0"
    elif ! grep -qi 'error' "$tmp/err"; then
        bad "$1" "$2: exit $3 without an error message: $(oneline "$tmp/err")"
    elif [ -n "${4:-}" ] && ! grep -qF -- "$4" "$tmp/err"; then
        bad "$1" "$2: the message does not name '$4': $(oneline "$tmp/err")"
    else
        ok
    fi
}

# no_leftovers NAME DIR: nothing in DIR but the files listed after it
no_leftovers() {
    ln=$1
    ld=$2
    shift 2
    extra=$(ls -A "$ld" | while read -r f; do
        keep=0
        for k in "$@"; do [ "$f" = "$k" ] && keep=1; done
        [ "$keep" = 0 ] && echo "$f"
    done)
    if [ -z "$extra" ]; then ok; else bad "$ln" "left in $ld: $extra"; fi
}

# closed_pipe ignore|default CMD...: CMD with SIGPIPE ignored or as it
# is, its stdout a pipe whose reader has closed its end; its exit status
# in $tmp/rc, stderr in $tmp/err. The reader marks $tmp/closed once it
# has closed, and CMD starts only then (10 s at most): a fixed head start
# of 0.1 s lost the race on a loaded machine (the writer's output fit the
# pipe before the reader closed, exit 0).
closed_pipe() {
    cp_sig=$1
    shift
    rm -f "$tmp/closed"
    {
        (
            [ "$cp_sig" = ignore ] && trap '' PIPE
            n=0
            while [ ! -e "$tmp/closed" ] && [ "$n" -lt 1000 ]; do sleep 0.01; n=$((n + 1)); done
            "$@" 2>"$tmp/err"
            echo $? >"$tmp/rc"
        )
    } | (exec 0<&-; : >"$tmp/closed"; sleep 0.3)
}

: >"$tmp/afile"
mkdir "$tmp/ro"
chmod 0500 "$tmp/ro"
# the size limit of `ulimit -f 1` in this shell (512 or 1024 bytes)
(trap '' XFSZ; ulimit -f 1; head -c 4096 /dev/zero >"$tmp/probe") 2>/dev/null
flimit=$(wc -c <"$tmp/probe")
while IFS='|' read -r name cmd args; do
    # --- standard output ---
    # shellcheck disable=SC2086
    $CAPPLAN $cmd $args >/dev/full 2>"$tmp/err"
    expect_fail "$name" ">/dev/full" $? "standard output"
    # shellcheck disable=SC2086
    $CAPPLAN $cmd $args >&- 2>"$tmp/err"
    expect_fail "$name" ">&-" $? "standard output"
    # a pipe whose reader has gone: the writer starts after the reader
    # closed its end, so every write fails
    # shellcheck disable=SC2086
    closed_pipe ignore $CAPPLAN $cmd $args
    expect_fail "$name" "EPIPE (SIGPIPE ignored)" "$(cat "$tmp/rc")" "standard output"
    # shellcheck disable=SC2086
    closed_pipe default $CAPPLAN $cmd $args
    rc=$(cat "$tmp/rc")
    if [ "$rc" != 0 ]; then ok; else bad "$name" "pipe without reader (SIGPIPE default): exit 0"; fi

    case " $has_o " in *" $name "*) ;; *) continue ;; esac
    # --- -o FILE ---
    # shellcheck disable=SC2086
    $CAPPLAN $cmd -o /dev/full $args >"$tmp/out" 2>"$tmp/err"
    expect_fail "$name" "-o /dev/full" $? /dev/full
    for dest in "$tmp/afile/x.out" /proc/capplan-io-test.out; do
        # shellcheck disable=SC2086
        $CAPPLAN $cmd -o "$dest" $args >"$tmp/out" 2>"$tmp/err"
        expect_fail "$name" "-o $dest" $? "$dest"
        case " $quiet_o " in
        *" $name "*) if [ -s "$tmp/out" ]; then bad "$name" "-o $dest: data written to stdout instead"; fi ;;
        esac
    done
    if [ "$root" = 0 ]; then
        # shellcheck disable=SC2086
        $CAPPLAN $cmd -o "$tmp/ro/x.out" $args >"$tmp/out" 2>"$tmp/err"
        expect_fail "$name" "-o into a mode-0500 folder" $? "$tmp/ro/x.out"
        no_leftovers "$name" "$tmp/ro"
    fi
    # a file that cannot grow past $flimit bytes: the write fails in the
    # temporary file, which is removed; the old target stays whole.
    # Diagnostics go through a pipe, which the limit does not apply to.
    mkdir "$tmp/fs"
    echo "old content" >"$tmp/fs/x.out"
    # shellcheck disable=SC2086
    { (trap '' XFSZ; ulimit -f 1; exec $CAPPLAN $cmd -o "$tmp/fs/x.out" $args 2>&1); echo $? >"$tmp/rc"; } | cat >"$tmp/err"
    rc=$(cat "$tmp/rc")
    # the data must be larger than the limit for this to test anything
    # shellcheck disable=SC2086
    size=$($CAPPLAN $cmd $args 2>/dev/null | wc -c)
    if [ "$size" -gt "$flimit" ]; then
        expect_fail "$name" "-o FILE beyond ulimit -f" "$rc" "$tmp/fs/x.out"
        if [ "$(cat "$tmp/fs/x.out")" = "old content" ]; then ok; else bad "$name" "ulimit -f: the old target was changed"; fi
    else
        bad "$name" "the data ($size bytes) does not exceed ulimit -f ($flimit bytes): pick a larger input"
    fi
    no_leftovers "$name" "$tmp/fs" x.out
    rm -rf "$tmp/fs"
done <"$tmp/cmds"

# whatif's other outputs: the changed inputs (--emit-inputs DIR) and the
# HTML page (--report FILE)
if [ -f "$tmp/scen.yaml" ]; then
    # shellcheck disable=SC2086
    $CAPPLAN whatif --quiet --no-timing --scenarios "$tmp/scen.yaml" --emit-inputs "$tmp/afile/dir" $T >"$tmp/out" 2>"$tmp/err"
    expect_fail whatif "--emit-inputs under a regular file" $? "$tmp/afile/dir"
    # shellcheck disable=SC2086
    $CAPPLAN whatif --quiet --no-timing --scenarios "$tmp/scen.yaml" --report /dev/full $T >"$tmp/out" 2>"$tmp/err"
    expect_fail whatif "--report /dev/full" $? /dev/full
fi

test_done
