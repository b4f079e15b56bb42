#!/bin/sh
# Property test (docs/reliability.md): seeded random
# valid instances, $CP_PROP_SEEDS of them (default 300).
#
# Odd seeds: `geninst -e SEED`, small enough for exhaustive search (1..5
# jobs, 2..5 slots, at most three single-unit resources; version 1.1's
# shapes, predecessors, data and egress prices in many; version 1.2's
# teams (quotas, budgets) and power limits in some). The oracle
# tests/gen/enumerate.c ($ENUMERATE, built by `make test`) finds the exact
# capplan.5 §3-4 optimum without the solvers. `plan --method auto --gap 0`:
#   - exits 3 with status infeasible exactly when the oracle finds no
#     feasible choice, else exits 0 and `verify` accepts the plan;
#   - status optimal => the plan's total equals the oracle's (1e-6 rel.);
#     any status => the total is not below it (a verified plan cannot
#     beat the exhaustive optimum);
#   - `--method heuristic` gives a verified plan not below it either.
# Services: seeds 1..$CP_PROP_SVC_SEEDS (default a twentieth of the seeds
# plus one): `geninst -s SEED`, an enumerable instance as above (1-2
# jobs, 2-3 slots, at most two resources) with one service (1-2 classes,
# 1-2 configurations, loads and rates that need a few replicas; capplan.5
# §10.4), whose optimum the oracle finds over every replica count with
# the routing as a linear program. Every method plans it with `--gap 0`:
# each exits 3 with status infeasible exactly when the oracle finds no
# feasible plan, else `verify` accepts its plan, an optimal status gives
# the oracle's total (1e-6 rel.) and any status a total not below it.
# Even seeds: `geninst SEED JOBS` with JOBS = 1 + SEED*7 % 30 (up to 30
# jobs, the generator's general instances): `plan --method auto
# --node-limit 200` exits 0 (or 3 with status infeasible) and `verify`
# accepts the plan with the same total.
# Ends with "property: P passed, F failed, S skipped"; exits non-zero on failure.
SUITE=property
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
seeds=${CP_PROP_SEEDS:-300}
svc_seeds=${CP_PROP_SVC_SEEDS:-$((seeds / 20 + 1))}

build_gen geninst || test_done
# shellcheck disable=SC2086
if ! set -- $ENUMERATE || ! [ -x "$1" ]; then
    bad enumerate "no oracle at '$ENUMERATE' (make BUILD=... build/enumerate, or set ENUMERATE)"
    test_done
fi

# Totals (capplan.5 §4): num_eq A B, 1e-6 relative; num_ge A B, not below B by
# more than that. plan_verify (tests/lib.sh) plans with --time-limit 20
# and checks that verify accepts the plan with its own total; it sets
# $rc, $pst and $ptotal.

n_enum=0 n_opt=0 n_infeas=0 n_gen=0 maxjobs=0 above="" n_v11=0 n_v12=0
s=1
while [ "$s" -le "$seeds" ]; do
    if [ $((s % 2)) = 1 ]; then
        name="enum/$s"
        f=$tmp/e.yaml
        "$tmp/geninst" -e "$s" >"$f"
        n_enum=$((n_enum + 1))
        grep -qE '^    (after|data|shapes):|egress_per_gb' "$f" && n_v11=$((n_v11 + 1))
        grep -qE '^(teams|    power_limits):' "$f" && n_v12=$((n_v12 + 1))
        # shellcheck disable=SC2086
        $ENUMERATE "$f" >"$tmp/opt" 2>"$tmp/eerr"
        erc=$?
        if [ "$erc" != 0 ]; then
            bad "$name" "enumerate exit $erc: $(oneline "$tmp/eerr" 2)"
            s=$((s + 1))
            continue
        fi
        opt=$(sed -n 's/^optimum \([^ ]*\).*/\1/p' "$tmp/opt")
        if plan_verify "$name" "$tmp/p.yaml" --time-limit 20 --method auto --gap 0 -- "$f"; then
            if [ -z "$opt" ]; then
                bad "$name" "the oracle finds no feasible plan, capplan wrote one (total $ptotal)"
            elif [ "$pst" = optimal ]; then
                n_opt=$((n_opt + 1))
                if num_eq "$ptotal" "$opt"; then ok; else bad "$name" "optimal plan total $ptotal, exhaustive optimum $opt"; fi
            else
                if num_ge "$ptotal" "$opt"; then ok; else bad "$name" "plan total $ptotal below the exhaustive optimum $opt"; fi
                # a feasible plan above the optimum is allowed; say which
                num_eq "$ptotal" "$opt" || above="$above $s($ptotal>$opt)"
            fi
        elif [ "$rc" = 3 ]; then
            n_infeas=$((n_infeas + 1))
            if [ -z "$opt" ]; then ok; else bad "$name" "exit 3 (infeasible), but the oracle finds $opt"; fi
        fi
        if plan_verify "$name/heuristic" "$tmp/h.yaml" --time-limit 20 --method heuristic -- "$f"; then
            if [ -n "$opt" ] && num_ge "$ptotal" "$opt"; then ok; else bad "$name" "heuristic total $ptotal, exhaustive optimum '$opt'"; fi
        fi
    else
        jobs=$((1 + s * 7 % 30))
        [ "$jobs" -gt "$maxjobs" ] && maxjobs=$jobs
        name="gen/$s ($jobs jobs)"
        f=$tmp/g.yaml
        "$tmp/geninst" "$s" "$jobs" >"$f"
        n_gen=$((n_gen + 1))
        plan_verify "$name" "$tmp/p.yaml" --time-limit 20 --method auto --node-limit 200 -- "$f"
    fi
    s=$((s + 1))
done

# with_oracle NAME FILE: the oracle's optimum of FILE into $opt (empty when
# it finds no feasible plan); a failed check (returns 1) when it fails.
with_oracle() {
    # shellcheck disable=SC2086
    $ENUMERATE "$2" >"$tmp/opt" 2>"$tmp/eerr"
    erc=$?
    if [ "$erc" != 0 ]; then
        bad "$1" "enumerate exit $erc: $(oneline "$tmp/eerr" 2)"
        return 1
    fi
    opt=$(sed -n 's/^optimum \([^ ]*\).*/\1/p' "$tmp/opt")
}

n_svc=0 n_svc_infeas=0 n_svc_opt=0 svc_above=""
s=1
while [ "$s" -le "$svc_seeds" ]; do
    f=$tmp/s.yaml
    "$tmp/geninst" -s "$s" >"$f"
    n_svc=$((n_svc + 1))
    if with_oracle "svc/$s" "$f"; then
        [ -z "$opt" ] && n_svc_infeas=$((n_svc_infeas + 1))
        for m in auto milp heuristic lagrange pop; do
            name="svc/$s/$m"
            if plan_verify "$name" "$tmp/p.yaml" --time-limit 20 --method "$m" --gap 0 -- "$f"; then
                if [ -z "$opt" ]; then
                    bad "$name" "the oracle finds no feasible plan, capplan wrote one (total $ptotal)"
                elif [ "$pst" = optimal ]; then
                    n_svc_opt=$((n_svc_opt + 1))
                    if num_eq "$ptotal" "$opt"; then ok; else bad "$name" "optimal plan total $ptotal, exhaustive optimum $opt"; fi
                elif num_ge "$ptotal" "$opt"; then
                    ok
                    num_eq "$ptotal" "$opt" || svc_above="$svc_above $s/$m($ptotal>$opt)"
                else
                    bad "$name" "plan total $ptotal below the exhaustive optimum $opt"
                fi
            elif [ "$rc" = 3 ]; then
                if [ -z "$opt" ]; then ok; else bad "$name" "exit 3 (infeasible), but the oracle finds $opt"; fi
            fi
        done
    fi
    s=$((s + 1))
done

echo "note: $n_enum enumerated instances ($n_opt plans optimal, $n_infeas infeasible," \
    "$n_v11 with version 1.1 keys, $n_v12 with teams or power limits), $n_gen general instances of up to $maxjobs jobs"
echo "note: $n_svc instances with a service ($n_svc_infeas infeasible), planned by every method" \
    "($n_svc_opt plans optimal)"
[ -z "$svc_above" ] || echo "note: plans of services above the exhaustive optimum (seed/method(total>optimum)):$svc_above"
[ -z "$above" ] || echo "note: auto plans feasible but above the exhaustive optimum (seed(total>optimum)):$above"
test_done
