#!/bin/sh
# The MIP engines (docs/performance.md, "MIP engines"): --mip-engine
# glpk, cbc and auto. CBC runs as a separate program (solvers/mip_cbc.c),
# so the suite runs both with `cbc` on PATH and with a PATH that lacks it:
#
# - without cbc: `--mip-engine cbc` is refused (exit 2, golden message),
#   the default (auto) plans exactly as glpk (the same bytes, no
#   mip_engine key); CAPPLAN_MIP_ENGINE sets the default;
# - with cbc: every case of tests/plan planned by `--method milp` (CBC's
#   branch-and-cut and sub-MIPs), by `--method lagrange` (CBC's sub-MIPs
#   in the search) and by milp with `--mip-engine auto` (CBC's
#   branch-and-cut, GLPK's sub-MIPs) verifies, has the total GLPK's milp
#   proves, says
#   `mip_engine: cbc` in its solver block, and is byte-identical for
#   --threads 1 and 2 and a second run (one CBC thread, fixed seeds, node
#   limits).
SUITE=engines
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
# the engines themselves: not pinned as in the other suites
unset CAPPLAN_MIP_ENGINE

# A PATH without cbc: the directories of the tools the suite and capplan
# use, symlinked into one folder.
nocbc=$tmp/nocbc-bin
mkdir -p "$nocbc"
for t in sh cat cmp diff grep sed tr head tail; do
    p=$(command -v "$t") && ln -s "$p" "$nocbc/$t"
done

# ---- without cbc -----------------------------------------------------------
PATH=$nocbc $CAPPLAN plan --quiet --mip-engine cbc -o "$tmp/x.yaml" examples/tiny.yaml \
    >"$tmp/out" 2>"$tmp/err"
st=$?
printf 'exit %s\n' "$st" >>"$tmp/err"
test_cmp tests/engines/no-cbc.err "$tmp/err"

PATH=$nocbc $CAPPLAN plan --quiet --no-timing --method milp --node-limit 200 \
    -o "$tmp/auto.yaml" examples/tiny.yaml &&
    $CAPPLAN plan --quiet --no-timing --method milp --node-limit 200 --mip-engine glpk \
        -o "$tmp/glpk.yaml" examples/tiny.yaml &&
    cmp -s "$tmp/auto.yaml" "$tmp/glpk.yaml" && ! grep -q mip_engine "$tmp/auto.yaml" &&
    ok engines/auto-without-cbc || bad engines/auto-without-cbc "the default (auto) without cbc is not glpk"
# CAPPLAN_MIP_ENGINE sets the default (tests/lib.sh pins glpk with it)
CAPPLAN_MIP_ENGINE=cbc PATH=$nocbc $CAPPLAN plan --quiet -o "$tmp/x.yaml" examples/tiny.yaml \
    2>"$tmp/err"
[ $? = 2 ] && grep -q "no 'cbc' program on PATH" "$tmp/err" && ok ||
    bad engines/env "CAPPLAN_MIP_ENGINE=cbc without cbc: $(oneline "$tmp/err" 2)"

# ---- with cbc --------------------------------------------------------------
if ! test_have_prereq CBC; then
    skip engines/cbc "$(test_why CBC)"
    test_done
fi

# total FILE: the plan's totals.total
total() { sed -n 's/^  total: //p' "$1" | head -n 1; }

cases=$(ls tests/plan/*.yaml)
[ "$CP_QUICK" = 1 ] && cases="tests/plan/pack_fragment.yaml tests/plan/spot_cheap.yaml
tests/plan/quota.yaml tests/plan/precedence_later.yaml tests/plan/team_quota_cloud.yaml"
for f in $cases; do
    n=$(basename "$f" .yaml)
    timeout "$limit" $CAPPLAN plan --quiet --no-timing --method milp --node-limit 200 \
        --mip-engine glpk -o "$tmp/$n.glpk.yaml" "$f" 2>/dev/null
    gst=$?
    for me in milp:cbc lagrange:cbc milp:auto; do
        m=${me%:*} e=${me#*:}
        out=$tmp/$n.$m.$e.yaml
        timeout "$limit" $CAPPLAN plan --quiet --no-timing --method $m --node-limit 200 \
            --mip-engine $e -o "$out" "$f" 2>"$tmp/err"
        st=$?
        if [ "$st" != "$gst" ]; then
            bad "engines/$n/$me" "exit $st with $e, $gst with glpk: $(oneline "$tmp/err" 2)"
            continue
        fi
        [ "$st" = 0 ] || { ok; continue; }
        grep -q '^  mip_engine: cbc$' "$out" && ok || bad "engines/$n/$me" "no 'mip_engine: cbc'"
        $CAPPLAN verify --plan "$out" "$f" >"$tmp/verify" 2>&1 && ok ||
            bad "engines/$n/$me/verify" "$(oneline "$tmp/verify" 3)"
        want=$(total "$tmp/$n.glpk.yaml")
        got=$(total "$out")
        if [ "$m" = milp ]; then
            num_eq "$got" "$want" 1e-9 && ok ||
                bad "engines/$n/$me" "total $got with $e, $want with glpk"
        fi
    done
done

# CBC's root cuts raise the bound the Lagrangian stage reports
# (solvers/lagrange_plan.c, docs/bounds.md): on a 16-job sized night the
# LP (and lifted LP) is 91.60 and the optimum, which CBC's branch-and-cut
# proves, 160.7739; the root cuts alone prove it, so the plan is optimal
# at once where GLPK's engine leaves the gap open.
f=tests/engines/sized16.yaml
$CAPPLAN plan --no-timing --progress=debug --method lagrange --node-limit 20 --mip-engine cbc \
    -o "$tmp/root.yaml" "$f" >/dev/null 2>"$tmp/err"
b=$(sed -n 's/^  bound: //p' "$tmp/root.yaml")
grep -q '^capplan: bound: root cuts (CBC on the exported model, no branching)$' "$tmp/err" &&
    grep -q '^status: optimal$' "$tmp/root.yaml" && num_eq "$(total "$tmp/root.yaml")" 160.7739089 1e-6 &&
    num_eq "$b" 160.7739 1e-5 && ok ||
    bad engines/root-bound "bound $b: $(grep 'bound' "$tmp/err" | tail -n 1)"
$CAPPLAN verify --plan "$tmp/root.yaml" "$f" >"$tmp/verify" 2>&1 && ok ||
    bad engines/root-bound/verify "$(oneline "$tmp/verify" 3)"
$CAPPLAN plan --no-timing --method lagrange --node-limit 20 --mip-engine glpk \
    -o "$tmp/noroot.yaml" "$f" >/dev/null 2>&1
b=$(sed -n 's/^  bound: //p' "$tmp/noroot.yaml")
num_eq "$b" 91.60123732 1e-6 && ok || bad engines/root-bound/glpk "bound $b with glpk, not the LP's"

# Byte-identical for any --threads, and run after run.
for f in tests/plan/spot_cheap.yaml examples/tiny.yaml; do
    n=$(basename "$f" .yaml)
    for m in milp lagrange auto; do
        for th in 1 2 2; do
            $CAPPLAN plan --quiet --no-timing --method $m --node-limit 200 --threads $th \
                --mip-engine cbc -o "$tmp/det.$th.yaml" "$f" 2>/dev/null
            if [ -e "$tmp/det.first.yaml" ]; then
                cmp -s "$tmp/det.first.yaml" "$tmp/det.$th.yaml" && ok ||
                    bad "engines/$n/$m/threads-$th" "plans differ"
            else
                cp "$tmp/det.$th.yaml" "$tmp/det.first.yaml"
            fi
        done
        rm -f "$tmp/det.first.yaml"
    done
done

test_done
