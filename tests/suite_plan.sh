#!/bin/sh
# `capplan plan` against hand-computed optima, `capplan verify` on every plan,
# determinism, output formats and the LP export (capplan.5 §2-6).
#
# 1. tests/plan/NAME.yaml: one rule each, optimum derived by hand in the
#    file's comments.  Header lines:
#      # expect-exit: 0|3          exit status of `plan` (both methods)
#      # expect-total: X           hand optimum; milp must match to 1e-6 rel.
#      # expect-grep: ERE          must match a line of the milp plan (repeatable)
#      # expect-status: ERE         milp plan status (default: optimal)
#      # expect-lp: X               optimum of the exported LP when it differs
#      # expect-methods: M...       more methods that must plan, verify and
#                                   be no better than the optimum (1.1 cases)
#                                  from the plan's (placement repairs)
#    Each case runs --method milp and --method heuristic; every plan must
#    pass `verify` (with the plan's own total), the heuristic total must be
#    >= optimum - 1e-6.  The case's --export-lp file solved by glpsol
#    (if installed) must give the same optimum.
# 2. examples/tiny.yaml, examples/nightly/*.yaml (--node-limit 200) and
#    random instances of tests/gen/geninst.c (seeds 1..$CP_SEEDS, default 20)
#    and saved ones (tests/plan/regress/*.yaml): plans verify; repeated runs,
#    --threads 1 and --threads 2 give byte-identical plans (--no-timing);
#    the auto plan is never worse than the heuristic's (auto starts from it);
#    glpsol on --export-lp lies between the plan's bound and total.
#    CP_QUICK=1 skips the nightly example and tests/plan/regress/.
# 3. --format json plans verify; --format csv has a header and one record
#    per job; -o into an unwritable place fails clearly.
#
# Ends with "plan: P passed, F failed, S skipped"; exits non-zero on any failure.
SUITE=plan
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
seeds=${CP_SEEDS:-20}

# Totals: num_eq (1e-6 relative, capplan.5 §4) against hand optima and between
# a plan and its re-costing; num_ge A B 1e-6 1e-6: A is not below B by
# more than 1e-6 * max(1, |B|). run_plan, verify_ok and plan_total come
# from tests/lib.sh.

# njobs PLAN: number of entries of the jobs: list of a YAML plan
njobs() {
    awk '/^jobs:/ { in_j = 1; next } /^[a-z]/ { in_j = 0 } in_j && /^- name:/ { n++ }
         END { print n + 0 }' "$1"
}

# csvcheck NAME CSV JOBS: header + JOBS records, each with as many fields
# as the header (RFC 4180 quoting, fields may span lines)
csvcheck() {
    res=$(awk '
        {
            line = $0
            for (i = 1; i <= length(line); i++) {
                c = substr(line, i, 1)
                if (c == "\"") q = !q
                else if (c == "," && !q) f++
            }
            if (q) next          # record continues on the next line
            rec++
            if (rec == 1) { hf = f; hdr = $0 }
            else if (f != hf) bad = bad " record " rec " has " f + 1 " fields"
            f = 0
        }
        END {
            if (q) bad = bad " unterminated quote"
            if (hdr !~ /^name,/) bad = bad " header does not start with name,"
            print rec - 1 "|" bad
        }' "$2")
    nrec=${res%%|*}
    why=${res#*|}
    if [ "$nrec" = "$3" ] && [ -z "$why" ]; then
        ok
    else
        bad "$1" "csv: $nrec records for $3 jobs;$why"
    fi
}

# --- 1. hand-computed cases ---------------------------------------------
have_glpsol=0
if command -v glpsol >/dev/null 2>&1; then
    have_glpsol=1
else
    echo "note: glpsol not installed (Debian: glpk-utils); --export-lp check skipped"
fi

for f in tests/plan/*.yaml; do
    [ -f "$f" ] || continue
    n=${f##*/}
    n=${n%.yaml}
    want_rc=$(sed -n 's/^# expect-exit: *//p' "$f" | head -n 1)
    want=$(sed -n 's/^# expect-total: *//p' "$f" | head -n 1)
    want_st=$(sed -n 's/^# expect-status: *//p' "$f" | head -n 1)
    want_lp=$(sed -n 's/^# expect-lp: *//p' "$f" | head -n 1)
    : "${want_rc:=0}" "${want_st:=optimal}" "${want_lp:=$want}"

    # milp: exact optimum
    run_plan "$tmp/$n.milp.yaml" --method milp --export-lp "$tmp/$n.lp" "$f"
    if [ "$rc" != "$want_rc" ]; then
        bad "$n" "milp: exit $rc, expected $want_rc: $(oneline "$tmp/err")"
        continue
    fi
    ok
    if [ "$want_rc" != 0 ]; then
        # no plan (or one with status infeasible), a diagnostic that says why
        if [ -s "$tmp/$n.milp.yaml" ] && ! grep -q '^status: infeasible$' "$tmp/$n.milp.yaml"; then
            bad "$n" "milp: exit $rc but a plan with status $(plan_status "$tmp/$n.milp.yaml") was written"
        elif ! grep -qi 'feasible' "$tmp/err"; then
            bad "$n" "milp: exit $rc without a diagnostic: $(cat "$tmp/err")"
        else
            ok
        fi
        run_plan "$tmp/$n.heur.yaml" --method heuristic "$f"
        if [ "$rc" = "$want_rc" ]; then ok; else bad "$n" "heuristic: exit $rc, expected $want_rc"; fi
        continue
    fi
    got=$(plan_total "$tmp/$n.milp.yaml")
    if num_eq "$got" "$want"; then ok; else bad "$n" "milp total $got, hand optimum $want"; fi
    st=$(plan_status "$tmp/$n.milp.yaml")
    if echo "$st" | grep -Eqx "$want_st"; then ok; else bad "$n" "milp status '$st', expected $want_st"; fi
    if verify_ok "$n/milp" "$tmp/$n.milp.yaml" "$f"; then
        if num_eq "$vtotal" "$want"; then ok; else bad "$n" "verify total $vtotal, hand optimum $want"; fi
    fi
    sed -n 's/^# expect-grep: *//p' "$f" >"$tmp/greps"
    while IFS= read -r re; do
        if grep -Eq -- "$re" "$tmp/$n.milp.yaml"; then ok; else bad "$n" "milp plan has no line matching /$re/"; fi
    done <"$tmp/greps"

    # heuristic: feasible, never better than the optimum
    run_plan "$tmp/$n.heur.yaml" --method heuristic "$f"
    if [ "$rc" != 0 ]; then
        bad "$n" "heuristic: exit $rc: $(oneline "$tmp/err")"
    else
        ok
        ht=$(plan_total "$tmp/$n.heur.yaml")
        if num_ge "$ht" "$want" 1e-6 1e-6; then ok; else bad "$n" "heuristic total $ht below the optimum $want"; fi
        verify_ok "$n/heuristic" "$tmp/$n.heur.yaml" "$f"
    fi

    # the other methods a case names: a plan that verifies, never better
    for m in $(sed -n 's/^# expect-methods: *//p' "$f" | head -n 1); do
        run_plan "$tmp/$n.$m.yaml" --method "$m" "$f"
        if [ "$rc" != 0 ]; then
            bad "$n" "$m: exit $rc: $(oneline "$tmp/err")"
            continue
        fi
        mt=$(plan_total "$tmp/$n.$m.yaml")
        if num_ge "$mt" "$want" 1e-6 1e-6; then ok; else bad "$n" "$m total $mt below the optimum $want"; fi
        verify_ok "$n/$m" "$tmp/$n.$m.yaml" "$f"
    done

    # json verifies, csv has one record per job
    run_plan "$tmp/$n.json" --method milp --format json "$f"
    if [ "$rc" = 0 ]; then
        verify_ok "$n/json" "$tmp/$n.json" "$f" && { num_eq "$vtotal" "$want" && ok || bad "$n" "json verify total $vtotal, hand optimum $want"; }
    else
        bad "$n" "json: exit $rc"
    fi
    run_plan "$tmp/$n.csv" --method milp --format csv "$f"
    if [ "$rc" = 0 ]; then csvcheck "$n" "$tmp/$n.csv" "$(njobs "$tmp/$n.milp.yaml")"; else bad "$n" "csv: exit $rc"; fi

    # the exported LP, solved by glpsol, has the same optimum
    if [ "$have_glpsol" = 1 ]; then
        if [ ! -s "$tmp/$n.lp" ]; then
            bad "$n" "--export-lp wrote nothing"
        else
            timeout "$limit" glpsol --lp "$tmp/$n.lp" -o "$tmp/$n.sol" >"$tmp/glp.out" 2>&1
            lpobj=$(sed -n 's/^Objective: *[^=]*= *\([^ ]*\).*/\1/p' "$tmp/$n.sol" 2>/dev/null)
            if num_eq "$lpobj" "$want_lp"; then ok; else bad "$n" "glpsol on --export-lp: objective '$lpobj', expected $want_lp ($(tail -n 2 "$tmp/glp.out" | tr '\n' ' '))"; fi
        fi
    fi
done

# --- 1b. verify catches what version 1.1 adds, on the hand cases' plans --
# tamper NAME PLAN SED ERE FILE: the plan edited by SED fails verify with a
# line matching ERE
tamper() {
    sed "$3" "$2" >"$tmp/tampered.yaml"
    $CAPPLAN verify --plan "$tmp/tampered.yaml" "$5" >"$tmp/vout" 2>&1
    if [ $? != 0 ] && grep -Eq -- "$4" "$tmp/vout"; then ok; else
        bad "$1" "verify of the tampered plan: $(oneline "$tmp/vout" 3)"; fi
}
if [ -s "$tmp/shape_thin.milp.yaml" ]; then
    tamper "verify: shape index" "$tmp/shape_thin.milp.yaml" '0,/shape: 1/s//shape: 5/' \
        "shape 5 is not one of the job's shapes \(it has 2: 0 to 1\)" tests/plan/shape_thin.yaml
    tamper "verify: shape changes the mode" "$tmp/shape_thin.milp.yaml" '0,/shape: 1/s//shape: 0/' \
        "cpus: expected 16, found 8" tests/plan/shape_thin.yaml
fi
if [ -s "$tmp/egress_onprem.milp.yaml" ]; then
    tamper "verify: egress re-costed" "$tmp/egress_onprem.milp.yaml" 's/^  egress: 0.09$/  egress: 0/' \
        "totals: egress: expected 0.09, found 0" tests/plan/egress_onprem.yaml
fi
if [ -s "$tmp/precedence_later.milp.yaml" ]; then
    tamper "verify: precedence" "$tmp/precedence_later.milp.yaml" 's/^  start_slot: 1$/  start_slot: 0/' \
        "job 'train' starts in slot 0, before its predecessor 'etl' ends \(slot 1\)" \
        tests/plan/precedence_later.yaml
fi
if [ -s "$tmp/power_limit_dear.milp.yaml" ]; then
    pl=tests/plan/power_limit_dear.yaml
    tamper "verify: a limit the job does not list" "$tmp/power_limit_dear.milp.yaml" \
        's/power_limit_w: 150$/power_limit_w: 175/' \
        "power_limit_w 175 is not one of the job's limits for V100 \(150 W\)" $pl
    tamper "verify: the limit changes the mode" "$tmp/power_limit_dear.milp.yaml" \
        '/power_limit_w: 150$/d' "slots: expected 1, found 2" $pl
    tamper "verify: the limit's energy" "$tmp/power_limit_dear.milp.yaml" \
        '0,/energy_kwh: 0.2$/s//energy_kwh: 0.3/' \
        "energy_kwh: expected 0.2, found 0.3" $pl
fi
# teams: a plan made with a looser quota or budget fails verify against
# the hand case's own (capplan.5 §10.2)
loose() { # NAME CASE SED ERE
    sed "$3" "tests/plan/$2.yaml" >"$tmp/loose.yaml"
    $CAPPLAN plan -q "$tmp/loose.yaml" -o "$tmp/loose.plan.yaml" 2>/dev/null
    $CAPPLAN verify --plan "$tmp/loose.plan.yaml" "tests/plan/$2.yaml" >"$tmp/vout" 2>&1
    if [ $? != 0 ] && grep -Eq -- "$4" "$tmp/vout"; then ok; else
        bad "$1" "verify of the looser plan: $(oneline "$tmp/vout" 3)"; fi
}
loose "verify: a team's quota" team_quota_cloud 's/quota: {V100: 2}/quota: {V100: 8}/' \
    "team 'vision' holds 4 V100 on pools in slot 0, over its quota of 2 \('a', 'b'\)"
loose "verify: a team's budget" team_budget_drop 's/budget: 0.1}/budget: 1}/' \
    "team 'nlp': its jobs' attributed cost 0.12 \\$ is over its budget of 0.1 \\$"

# --- 2. examples and random instances: verify + determinism -----------
# detcheck NAME EXTRA-ARGS FILES...: plan (auto) twice, with --threads 1
# and --threads 2; all byte-identical; the plan verifies; json verifies.
# EXTRA-ARGS is one word-split string.
detcheck() {
    dn=$1
    dargs=$2
    shift 2
    # shellcheck disable=SC2086
    run_plan "$tmp/d0.yaml" $dargs "$@"
    if [ "$rc" != 0 ]; then
        bad "$dn" "plan exit $rc: $(oneline "$tmp/err")"
        return
    fi
    ok
    verify_ok "$dn" "$tmp/d0.yaml" "$@" && {
        pt=$(plan_total "$tmp/d0.yaml")
        num_eq "$vtotal" "$pt" && ok || bad "$dn" "plan total $pt, verify total $vtotal"
    }
    for v in "" "--threads 1" "--threads 2"; do
        # shellcheck disable=SC2086
        run_plan "$tmp/d1.yaml" $dargs $v "$@"
        if [ "$rc" != 0 ]; then
            bad "$dn" "plan ${v:-(repeat)} exit $rc"
        elif cmp -s "$tmp/d0.yaml" "$tmp/d1.yaml"; then
            ok
        else
            bad "$dn" "plan ${v:-(repeat)} differs from the first run: $(diff "$tmp/d0.yaml" "$tmp/d1.yaml" | head -n 6 | tr '\n' ' ')"
        fi
    done
}

detcheck tiny "" examples/tiny.yaml
run_plan "$tmp/tiny.json" --format json examples/tiny.yaml
if [ "$rc" = 0 ]; then verify_ok tiny/json "$tmp/tiny.json" examples/tiny.yaml; else bad tiny/json "exit $rc"; fi
run_plan "$tmp/tiny.csv" --format csv examples/tiny.yaml
if [ "$rc" = 0 ]; then csvcheck tiny/csv "$tmp/tiny.csv" 3; else bad tiny/csv "exit $rc"; fi

# CP_QUICK=1 (`make check`, `make valgrind`): the nightly example's
# search takes about an hour under memcheck; its code paths are those of the random
# instances below, and `make test` and `make asan` run it.
if [ "$CP_QUICK" = 1 ]; then
    echo "plan: CP_QUICK=1, nightly example skipped"
elif [ -d examples/nightly ]; then
    # a node limit, not a wall-clock one, so repeated runs must agree
    detcheck nightly "--node-limit 200 --time-limit 300" examples/nightly/*.yaml
    run_plan "$tmp/nightly.csv" --node-limit 200 --time-limit 300 --format csv examples/nightly/*.yaml
    if [ "$rc" = 0 ]; then csvcheck nightly/csv "$tmp/nightly.csv" "$(njobs "$tmp/d0.yaml")"; else bad nightly/csv "exit $rc"; fi
fi

# gencheck NAME FILE: plan (auto) verifies and is deterministic; the
# heuristic plan verifies, is reproducible and is never better than a
# proven optimum; the auto plan is never worse than the heuristic's (auto
# starts from it); json verifies; glpsol on the exported LP lands between
# the plan's bound and its total.
gencheck() {
    gn=$1
    gf=$2
    # a node limit makes the run end by work limits, so repeats agree
    # however slow the machine (ASan, a loaded CI host): with only a time
    # limit a run cut by the clock differed from the next one
    detcheck "$gn" "--time-limit 600 --node-limit 200" "$gf"
    [ "$rc" = 0 ] || return
    best=$(plan_total "$tmp/d0.yaml")
    bst=$(plan_status "$tmp/d0.yaml")
    bnd=$(sed -n 's/^  bound: //p' "$tmp/d0.yaml")
    run_plan "$tmp/h0.yaml" --method heuristic "$gf"
    if [ "$rc" = 0 ]; then
        verify_ok "$gn/heuristic" "$tmp/h0.yaml" "$gf"
        ht=$(plan_total "$tmp/h0.yaml")
        if [ "$bst" = optimal ]; then
            num_ge "$ht" "$best" 1e-6 1e-6 && ok || bad "$gn" "heuristic total $ht below the optimum $best"
        fi
        num_ge "$ht" "$best" 1e-6 1e-6 && ok || bad "$gn" "auto (milp) plan total $best is worse than --method heuristic's $ht (status $bst, bound $bnd)"
        run_plan "$tmp/h1.yaml" --method heuristic --threads 2 "$gf"
        cmp -s "$tmp/h0.yaml" "$tmp/h1.yaml" && ok || bad "$gn" "heuristic plan not reproducible"
    else
        bad "$gn" "heuristic exit $rc: $(oneline "$tmp/err")"
    fi
    run_plan "$tmp/g.json" --format json --time-limit 20 "$gf"
    if [ "$rc" = 0 ]; then verify_ok "$gn/json" "$tmp/g.json" "$gf"; else bad "$gn/json" "exit $rc"; fi
    if [ "$have_glpsol" = 1 ]; then
        run_plan "$tmp/g.yaml.out" --time-limit 20 --export-lp "$tmp/g.lp" "$gf"
        timeout "$limit" glpsol --lp "$tmp/g.lp" -o "$tmp/g.sol" >"$tmp/glp.out" 2>&1
        lpobj=$(sed -n 's/^Objective: *[^=]*= *\([^ ]*\).*/\1/p' "$tmp/g.sol" 2>/dev/null)
        # glpsol prints 10 significant digits
        if [ -n "$lpobj" ] && [ -n "$bnd" ] && [ "$bnd" != null ] &&
            awk -v l="$lpobj" -v b="$bnd" -v t="$best" 'BEGIN { e = 1e-6 * (t < 0 ? -t : t) + 1e-6
                exit !(l >= b - e && l <= t + e) }'; then
            ok
        else
            bad "$gn" "glpsol on --export-lp: objective '$lpobj', plan bound $bnd, total $best"
        fi
    fi
}

if build_gen geninst; then
    ok
    s=1
    while [ "$s" -le "$seeds" ]; do
        "$tmp/geninst" "$s" >"$tmp/gen$s.yaml"
        "$tmp/geninst" "$s" >"$tmp/g2.yaml"
        if ! cmp -s "$tmp/gen$s.yaml" "$tmp/g2.yaml"; then bad "gen/$s" "geninst is not deterministic"; fi
        gencheck "gen/$s" "$tmp/gen$s.yaml"
        s=$((s + 1))
    done
fi
# saved generator instances that once found a bug (CP_QUICK=1: skipped;
# their search needs more than the 20 s wall-clock limit under memcheck,
# and a run cut by the wall clock may differ from the next one)
for f in tests/plan/regress/*.yaml; do
    [ -f "$f" ] || continue
    if [ "$CP_QUICK" = 1 ]; then
        echo "plan: CP_QUICK=1, $f skipped"
        continue
    fi
    b=${f##*/}
    gencheck "regress/${b%.yaml}" "$f"
done

# fresh rounds of the search (lns_streams.c): at most two after round 0,
# so at most three lines of streams "from the given plan" (one per round
# that starts there). A 12-job cloud night whose rounds take milliseconds
# and end far above the bound: without the cap its rounds ran on to half
# the limit (8 such lines in 4 s); the plan must still verify.
f=tests/plan/search/fresh_rounds.yaml
# shellcheck disable=SC2086
timeout -k 5 "$limit" $CAPPLAN plan --progress=debug --no-timing --time-limit 4 -o "$tmp/fresh.yaml" "$f" \
    >/dev/null 2>"$tmp/fresh.err"
rc=$?
given=$(grep -c 'from the given plan' "$tmp/fresh.err")
# shellcheck disable=SC2086
if [ "$rc" != 0 ]; then
    bad fresh-rounds "exit $rc: $(oneline "$tmp/fresh.err")"
elif [ "$given" -lt 1 ] || [ "$given" -gt 3 ]; then
    bad fresh-rounds "$given rounds from the given plan, expected 1 to 3"
elif ! $CAPPLAN verify --plan "$tmp/fresh.yaml" "$f" >"$tmp/vout" 2>&1; then
    bad fresh-rounds "verify: $(oneline "$tmp/vout")"
else
    ok
fi

# --- 3. output errors ----------------------------------------------------
: >"$tmp/afile"
for dest in "$tmp/afile/plan.yaml" "$tmp/no/such/dir/plan.yaml"; do
    # shellcheck disable=SC2086
    timeout "$limit" $CAPPLAN plan --quiet --no-timing -o "$dest" examples/tiny.yaml >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" = 0 ]; then
        bad "-o $dest" "exit 0"
    elif ! grep -q 'error' "$tmp/err" || ! grep -qF "$dest" "$tmp/err"; then
        bad "-o $dest" "exit $rc, but stderr does not name the file with an error: $(cat "$tmp/err")"
    elif [ -s "$tmp/out" ]; then
        bad "-o $dest" "plan written to stdout instead"
    else
        ok
    fi
done
# --export-lp to an unwritable place fails too
# shellcheck disable=SC2086
timeout "$limit" $CAPPLAN plan --quiet --no-timing --export-lp "$tmp/afile/x.lp" -o "$tmp/lpfail.yaml" examples/tiny.yaml >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" != 0 ] && grep -qF "$tmp/afile/x.lp" "$tmp/err"; then ok; else bad "--export-lp unwritable" "exit $rc: $(cat "$tmp/err")"; fi

test_done
