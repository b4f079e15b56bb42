#!/bin/sh
# The documented limits (docs/spec-notes.md "Limits", docs/reliability.md):
# inputs past them are refused with exit 2 and an error that says which
# limit and how big the input was, quickly and in bounded memory. Inputs
# are generated in a temporary folder (never committed):
#   - a 100 MB regular file (sparse): refused before reading it;
#   - 100 MB through a pipe: refused after at most 64 MiB were read;
#   - a 3 MB document with more than 2,000,000 nodes: refused while
#     counting, before libyaml builds it;
#   - 200,000 nested '[': refused at the 65th level by every reader,
#     before libyaml builds it, within 10 s of CPU;
#   - more than 100,000 jobs; more than 2,000,000 modes; more than
#     20,000,000 start columns; more than 20,000,000 market slots;
#     each refused by `check` and `plan` before the modes are built.
# Where `ulimit -v` can be set (not under ASan or valgrind, which reserve
# huge address ranges), the refusals run within 1 GB of address space.
# CP_QUICK=1 (`make check`, `make valgrind`) skips the 100,001-job case.
# Ends with "limits: P passed, F failed, S skipped".
SUITE=limits
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

# The memory bound, when this shell can set it for the binary.
# (valgrind starts under the limit but then needs more for itself: it
# is told by CP_VALGRIND=1, which `make valgrind` sets.)
vlimit=
# shellcheck disable=SC2086
if [ "${CP_VALGRIND:-0}" != 1 ] && (ulimit -v 1000000 && $CAPPLAN --version) >/dev/null 2>&1; then
    vlimit="ulimit -v 1000000;"
else
    echo "limits: no 'ulimit -v' check (sanitizer or valgrind build)"
fi

# refused NAME ERE CMD...: capplan CMD exits 2 and stderr matches ERE.
refused() {
    name=$1 ere=$2
    shift 2
    # shellcheck disable=SC2086
    timeout "$limit" sh -c "$vlimit exec $CAPPLAN \"\$@\"" capplan "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" != 2 ]; then
        bad "$name" "exit $rc, expected 2: $(head -c 300 "$tmp/err")"
    elif ! grep -Eq "$ere" "$tmp/err"; then
        bad "$name" "stderr does not match '$ere': $(head -c 300 "$tmp/err")"
    else
        ok
    fi
}

# 100 MB regular file: refused from its size alone.
: >"$tmp/big.yaml"
if truncate -s 100M "$tmp/big.yaml" 2>/dev/null || dd if=/dev/zero of="$tmp/big.yaml" bs=1 count=0 seek=104857600 2>/dev/null; then
    refused file-size 'big\.yaml: error: file is larger than 64 MiB \(104857600 bytes\)' \
        check "$tmp/big.yaml"
    refused file-size-plan 'file is larger than 64 MiB' plan -o "$tmp/p.yaml" "$tmp/big.yaml"
    [ -f "$tmp/p.yaml" ] && bad file-size-plan "a plan was written"
fi

# 100 MB through a pipe: the bounded read stops at 64 MiB.
# shellcheck disable=SC2086
head -c 104857600 /dev/zero | tr '\0' '#' |
    timeout "$limit" sh -c "$vlimit exec $CAPPLAN check /dev/stdin" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" = 2 ] && grep -q '/dev/stdin: error: file is larger than 64 MiB' "$tmp/err"; then ok; else
    bad pipe-size "exit $rc: $(head -c 300 "$tmp/err")"
fi

# 1.5M items of "{a,b}" style flow mappings: > 2,000,000 nodes in 3 MB.
awk 'BEGIN { printf "jobs: ["; for (i = 0; i < 700000; i++) printf "{a,b},"; print "{}]" }' \
    >"$tmp/nodes.yaml"
refused node-count 'nodes\.yaml:1:[0-9]+: error: document has more than 2000000 nodes' \
    check "$tmp/nodes.yaml"

# 200,000 nested '[' (400 KB): refused at the 65th level while libyaml's
# events are read, before anything is built, by every YAML reader
# (inputs, plans, scenarios, shards, placed plans), within 10 s of CPU:
# libyaml's scanner works per token in proportion to the flow depth, so
# the whole document took minutes.
{ printf 'a: '; head -c 200000 /dev/zero | tr '\0' '['; } >"$tmp/deep.yaml"
deep_refused() { # NAME CMD...: exit 2, the position of the 65th level
    dr_name=$1
    shift
    # shellcheck disable=SC2086
    timeout "$limit" sh -c "ulimit -t 10; $vlimit exec $CAPPLAN \"\$@\"" capplan "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" = 2 ] && grep -q "deep\.yaml:1:68: error: nesting deeper than 64 levels" "$tmp/err"; then
        ok "$dr_name"
    else
        bad "$dr_name" "exit $rc: $(head -c 300 "$tmp/err")"
    fi
}
deep_refused deep-input check "$tmp/deep.yaml"
deep_refused deep-plan verify --plan "$tmp/deep.yaml" examples/tiny.yaml
deep_refused deep-scenarios whatif --scenarios "$tmp/deep.yaml" examples/tiny.yaml
deep_refused deep-shard whatif merge "$tmp/deep.yaml"
deep_refused deep-placed place --solution "$tmp/deep.yaml" -o "$tmp/placed.yaml" examples/tiny.yaml

# whatif keeps one copy of the input per worker, never one per scenario:
# a sweep of 6,000 values on the nightly example (2.7 GB of copies
# before, 676 MB for 3,000) writes its --slurm-array within 1 GB of
# address space, and each row's copy is built only when it is planned.
if [ -n "$vlimit" ]; then
    awk 'BEGIN { printf "scenarios:\n  - name: sw\n    sweep: {path: offers/*/spot_price_hour, op: scale, values: ["
        for (i = 1; i <= 6000; i++) printf "%s%d", (i > 1 ? ", " : ""), i; print "]}" }' >"$tmp/sweep.yaml"
    # shellcheck disable=SC2086
    timeout "$limit" sh -c "$vlimit exec $CAPPLAN whatif -q --scenarios \"\$1\" --slurm-array \"\$2\" examples/nightly/*.yaml" \
        capplan "$tmp/sweep.yaml" "$tmp/sweep-array" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" = 0 ] && grep -qx '#SBATCH --array=0-[0-9]*' "$tmp/sweep-array/whatif-array.sbatch"; then ok whatif-sweep-memory; else
        bad whatif-sweep-memory "exit $rc: $(head -c 300 "$tmp/err")"; fi
fi

# A common head: one site, one accelerator, one pool of 1 node.
head_yaml() {
    printf 'horizon: {slots: %s}\nsites: [{name: s}]\n' "$1"
    printf 'accelerators: [{name: G, memory_gb: 16}]\n'
    printf 'pools: [{name: p, site: s, nodes: 1, node: {accelerator: G, accelerators: 8, cpus: 8, memory_gb: 64}}]\n'
}

# 100,001 jobs.
{
    head_yaml 4
    echo "jobs:"
    awk 'BEGIN { for (i = 0; i <= 100000; i++) printf "- {name: j%d, kind: training, work: 1, throughput: {G: 1}}\n", i }'
} >"$tmp/jobs.yaml"
# (loading 100,001 jobs takes 25 s of CPU under memcheck: CP_QUICK=1
# skips it)
if [ "$CP_QUICK" != 1 ]; then
    refused jobs 'jobs\.yaml:[0-9]+:[0-9]+: error: too many jobs: 100001, the limit is 100000' \
        check "$tmp/jobs.yaml"
fi

# 2,000,100 modes: 2001 pools x 1000 jobs, one count each (one start each).
{
    printf 'horizon: {slots: 1}\nsites: [{name: s}]\naccelerators: [{name: G, memory_gb: 16}]\npools:\n'
    awk 'BEGIN { for (i = 0; i < 2001; i++) printf "- {name: p%d, site: s, nodes: 1, node: {accelerator: G, accelerators: 1, cpus: 1, memory_gb: 1}}\n", i }'
    echo "jobs:"
    awk 'BEGIN { for (i = 0; i < 1000; i++) printf "- {name: j%d, kind: training, work: 1, throughput: {G: 1}}\n", i }'
} >"$tmp/modes.yaml"
refused modes 'too large \(modes over the limit\): 2001000 modes \(limit 2000000\)' \
    check "$tmp/modes.yaml"
refused modes-plan 'too large \(modes over the limit\)' plan -o "$tmp/p.yaml" "$tmp/modes.yaml"

# 2,100 one-slot jobs over 10,000 slots: 21,000,000 start columns.
{
    head_yaml 10000
    echo "jobs:"
    awk 'BEGIN { for (i = 0; i < 2100; i++) printf "- {name: j%d, kind: training, work: 1, throughput: {G: 1}}\n", i }'
} >"$tmp/starts.yaml"
refused starts 'too large \(start columns over the limit\): 2100 modes .* 21000000 start columns \(limit 20000000\)' \
    check "$tmp/starts.yaml"

# 2,001 offers x 10,000 slots: 20,010,000 market slots.
{
    head_yaml 10000
    echo "offers:"
    awk 'BEGIN { for (i = 0; i < 2001; i++) printf "- {name: o%d, price_hour: 1, instance: {cpus: 1, memory_gb: 1}}\n", i }'
} >"$tmp/cells.yaml"
refused market-slots 'too large \(market slots over the limit\): .* 20010000 market slots \(limit 20000000\)' \
    check "$tmp/cells.yaml"

test_done
