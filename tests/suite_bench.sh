#!/bin/sh
# The benchmark's tools (bench/): the instance generator writes valid,
# realistic input, byte-identical for a seed; meter reports time, memory and
# the command's status; bench/run.sh produces its table end to end on a tiny
# run.  No timing is asserted here (speed belongs to `make bench`).
SUITE=bench
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

FLAGS="-std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Wall -Wextra -pedantic -Wshadow -Werror -O1"
if $CC $FLAGS -o "$tmp/gen" bench/gen.c -lm 2>"$tmp/cc.err" &&
   $CC $FLAGS -o "$tmp/meter" bench/meter.c 2>>"$tmp/cc.err"; then ok
else bad "bench tools" "do not build warning-free"; cat "$tmp/cc.err"; test_done; fi
GEN=$tmp/gen METER=$tmp/meter

# Valid input, every job with at least one mode, at 100 jobs for three seeds.
for seed in 1 2 3; do
    "$GEN" $seed 100 >"$tmp/s$seed.yaml"
    if $CAPPLAN check "$tmp/s$seed.yaml" >"$tmp/c$seed.txt" 2>&1; then ok
    else bad "seed $seed" "capplan check exit $?"; head -n 5 "$tmp/c$seed.txt"; fi
    modes=$(grep -cE '^  [^ ].*\): [1-9][0-9]* modes?$' "$tmp/c$seed.txt")
    [ "$modes" = 100 ] && ok || bad "seed $seed" "$modes of 100 jobs have a mode"
done

# The mix the benchmark promises (inputs as `check` reports them).
c=$tmp/c1.txt
grep -q '^offers (25, 50 markets)' "$c" && ok || bad gen "expected 25 offers with spot markets"
for a in V100 P100 K80; do
    grep -qE "nodes of 8 x $a " "$c" && ok || bad gen "no 8-GPU $a pool"
done
grep -q 'nodes of 8 cpus' "$c" && ok || bad gen "no CPU pool"
grep -q 'cap [0-9.]*\.\.[0-9.]* kW' "$c" && ok || bad gen "no power cap series"
grep -q '(training): ' "$c" && grep -q '(dataflow): ' "$c" && ok || bad gen "not both job kinds"
grep -q 'spot_quota: \[' "$tmp/s1.yaml" && grep -q 'release_hour:' "$tmp/s1.yaml" &&
    grep -q 'deadline_hour:' "$tmp/s1.yaml" && grep -q 'scaling: {model: table' "$tmp/s1.yaml" &&
    ok || bad gen "generated file lacks spot quotas, windows or scaling tables"

# Deterministic for a seed; another seed gives another instance.
"$GEN" 1 100 >"$tmp/again.yaml"
cmp -s "$tmp/s1.yaml" "$tmp/again.yaml" && ok || bad gen "gen 1 100 differs between runs"
cmp -s "$tmp/s1.yaml" "$tmp/s2.yaml" && bad gen "seeds 1 and 2 give the same instance" || ok

# --services K: K services next to the same jobs (the jobs' lines are
# those of `gen SEED JOBS`), valid input; JOBS 0 with services is a
# serving fleet alone.
"$GEN" --services 3 1 100 >"$tmp/sv.yaml"
if $CAPPLAN check "$tmp/sv.yaml" >"$tmp/svc.txt" 2>&1 && grep -q '^services (3):' "$tmp/svc.txt"; then ok
else bad "gen --services" "capplan check: $(head -n 3 "$tmp/svc.txt")"; fi
sed -n '/^jobs:/,/^services:/p' "$tmp/sv.yaml" | sed '$d' >"$tmp/sv.jobs"
sed -n '/^jobs:/,$p' "$tmp/s1.yaml" | cmp -s - "$tmp/sv.jobs" && ok || bad "gen --services" "the jobs differ from gen 1 100"
"$GEN" --services 5 2 0 >"$tmp/sv0.yaml"
if $CAPPLAN check "$tmp/sv0.yaml" >"$tmp/sv0.txt" 2>&1 && grep -q '^services (5):' "$tmp/sv0.txt" &&
    grep -q '^0 jobs' "$tmp/sv0.txt"; then ok
else bad "gen --services, no jobs" "capplan check: $(head -n 3 "$tmp/sv0.txt")"; fi
"$GEN" --family cloud --services 2 1 10 >/dev/null 2>&1 && bad "gen --services" "accepted for the cloud family" || ok

# Other horizons repeat the day's series; 48 slots load.
"$GEN" 4 30 48 >"$tmp/h48.yaml"
$CAPPLAN check "$tmp/h48.yaml" >/dev/null 2>&1 && ok || bad gen "48-slot instance does not load"

# The sized family (jobs that choose their count): valid, every job with
# a mode, 7-10 offers, the promised count sets and scaling models, the
# same bytes for a seed.
for seed in 1 2; do
    "$GEN" --family sized $seed 100 >"$tmp/z$seed.yaml"
    if $CAPPLAN check "$tmp/z$seed.yaml" >"$tmp/zc$seed.txt" 2>&1; then ok
    else bad "sized seed $seed" "capplan check exit $?"; head -n 5 "$tmp/zc$seed.txt"; fi
    modes=$(grep -cE '^  [^ ].*\): [1-9][0-9]* modes?$' "$tmp/zc$seed.txt")
    [ "$modes" = 100 ] && ok || bad "sized seed $seed" "$modes of 100 jobs have a mode"
    n=$(sed -n 's/^offers (\([0-9]*\),.*/\1/p' "$tmp/zc$seed.txt")
    [ "${n:-0}" -ge 7 ] && [ "${n:-0}" -le 10 ] && ok || bad "sized seed $seed" "$n offers, not 7-10"
done
for set in '1, 2, 4, 8' '1, 2, 4' '1, 2' '2, 4, 8'; do
    grep -q "accelerators: \[$set\]" "$tmp/z1.yaml" && ok || bad "sized" "no job with counts [$set]"
done
grep -q 'model: amdahl' "$tmp/z1.yaml" && grep -q 'model: table' "$tmp/z1.yaml" &&
    grep -q 'p4d.24xlarge' "$tmp/z1.yaml" && ok || bad "sized" "lacks Amdahl or table scaling, or p4d"
"$GEN" --family sized 1 100 | cmp -s - "$tmp/z1.yaml" && ok || bad "sized" "gen --family sized 1 100 differs between runs"

# The pollux family (Pollux's T4 jobs on 2- and 4-GPU nodes): valid,
# every job with a mode, the T4 offers, multi-node counts, byte-stable.
"$GEN" --family pollux 1 100 >"$tmp/x1.yaml"
if $CAPPLAN check "$tmp/x1.yaml" >"$tmp/xc1.txt" 2>&1; then ok
else bad "pollux" "capplan check exit $?"; head -n 5 "$tmp/xc1.txt"; fi
modes=$(grep -cE '^  [^ ].*\): [1-9][0-9]* modes?$' "$tmp/xc1.txt")
[ "$modes" = 100 ] && ok || bad "pollux" "$modes of 100 jobs have a mode"
grep -q '^offers (6, 12 markets)' "$tmp/xc1.txt" && grep -q 'of 2 x T4' "$tmp/xc1.txt" &&
    grep -q 'of 4 x T4' "$tmp/xc1.txt" && grep -q 'accelerators: \[.*8\]' "$tmp/x1.yaml" &&
    ok || bad "pollux" "lacks the T4 offers, the 2- and 4-GPU pools or 8-GPU counts"
"$GEN" --family pollux 1 100 | cmp -s - "$tmp/x1.yaml" && ok || bad "pollux" "gen --family pollux 1 100 differs between runs"

# Night B's analogue, kept fixed: on the sized 80-job night, seed 6, a
# $2,490 job (t00055) fits the one H100 node before its deadline only
# through a chain of three moves, which the search's LP move makes
# (docs/search.md); without it half of the searches left the job dropped
# (7,574.10 against 5,536.81). Node-limited, so the plans do not depend
# on the load; the search's seeds that had it dropped are 1 and 2.
"$GEN" --family sized 6 80 24 >"$tmp/b6.yaml"
for k in 1 2; do
    if plan_verify "night-b seed $k" "$tmp/b6-$k.yaml" --method lagrange --node-limit 500 --seed $k \
        -- "$tmp/b6.yaml"; then
        st=$(sed -n '/^- name: t00055-/{n;s/^  status: //p;}' "$tmp/b6-$k.yaml")
        [ "$st" = scheduled ] && num_le "$ptotal" 5600 && ok ||
            bad "night-b seed $k" "t00055 is '$st', total $ptotal (expected scheduled, at most 5,600)"
    fi
done

# Bad arguments: exit 2 and nothing on stdout.
for args in "" "1" "x 10" "1 0" "1 10 1" "1 10 24 9"; do
    # shellcheck disable=SC2086
    "$GEN" $args >"$tmp/bad.out" 2>/dev/null
    rc=$?
    [ $rc = 2 ] && [ ! -s "$tmp/bad.out" ] && ok || bad "gen '$args'" "exit $rc"
done

# A small instance plans and the plan verifies (the generator's output is plannable).
"$GEN" 7 20 >"$tmp/p.yaml"
if ! plan_verify "gen 7 20" "$tmp/p-plan.yaml" --method heuristic -- "$tmp/p.yaml" && [ "$rc" = 3 ]; then
    bad "gen 7 20" "the heuristic finds no plan: $(oneline "$tmp/err")"
fi

# meter: passes the exit status through and writes its line.
"$METER" -o "$tmp/m.txt" sh -c 'exit 3'
rc=$?
[ $rc = 3 ] && grep -qE '^meter: wall_s=[0-9]+\.[0-9]{3} cpu_s=[0-9]+\.[0-9]{3} maxrss_kb=[0-9]+ status=3$' "$tmp/m.txt" &&
    ok || bad "meter" "exit $rc, line '$(cat "$tmp/m.txt")'"
"$METER" -o "$tmp/m.txt" sh -c 'kill -TERM $$'
rc=$?
[ $rc = 143 ] && grep -q 'status=143' "$tmp/m.txt" && ok || bad "meter" "killed child gave $rc"
"$METER" "$tmp/no-such-program" 2>"$tmp/m.err"
rc=$?
[ $rc = 127 ] && grep -q 'no-such-program' "$tmp/m.err" && ok || bad "meter" "missing program gave $rc"
# peak memory is the child's: a 64 MiB buffer shows up (the shell holds it)
"$METER" -o "$tmp/m.txt" sh -c 'x=$(head -c 67108864 /dev/zero | tr "\000" a); [ ${#x} = 67108864 ]'
kb=$(sed -n 's/.*maxrss_kb=\([0-9]*\).*/\1/p' "$tmp/m.txt")
[ "${kb:-0}" -ge 65536 ] && ok || bad "meter" "peak RSS $kb kB for a 64 MiB child"

# bench/run.sh end to end on the smallest run (heuristic, no CBC); needs a
# plain binary path (skipped under `make valgrind`, whose CAPPLAN is a command).
case $CAPPLAN in
*" "*) echo "bench: run.sh smoke test skipped (CAPPLAN is a command line)" ;;
*)
    mkdir -p "$tmp/b"
    # BENCH_MEM_KB=0: AddressSanitizer cannot start under ulimit -v
    BUILD=$tmp/b CAPPLAN=$CAPPLAN GEN=$GEN METER=$METER BENCH_SIZES=20 BENCH_METHODS="heuristic nosuch" BENCH_MEM_KB=0 \
        BENCH_CBC_SIZES= BENCH_SCALE=0.1 sh bench/run.sh >"$tmp/run.out" 2>"$tmp/run.err"
    rc=$?
    md=$tmp/b/bench.md
    if [ $rc = 0 ] && [ -s "$md" ] &&
       grep -qE '^\| 20 \| heuristic \| 1 \| [^|]+\|[^|]+\| [-0-9.]+ \| [0-9]+\.[0-9]{2} \|[^|]+\|[^|]+\| (feasible|optimal) \| [0-9]+ \| OK \| [0-9.]+ \| [0-9]+ \|$' "$md" &&
       grep -q 'Method `nosuch` skipped' "$md" && grep -q '^| 20 | 24 |' "$md"; then ok
    else bad "bench/run.sh" "exit $rc"; cat "$tmp/run.err" "$md" 2>/dev/null | tail -n 20; fi
    ;;
esac

test_done
