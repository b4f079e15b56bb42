#!/bin/sh
# The LP bound by column generation (solvers/lp_colgen.c), against glpsol
# on the exported model.
#
# 1. Every feasible case of tests/plan, examples/tiny.yaml, the nightly
#    example, random instances of tests/gen/geninst.c and small nights of
#    both bench/gen families: the LP optimum that `capplan plan --method
#    lagrange --progress=debug` reports ("lp: LP optimum X") equals glpsol's
#    optimum of the LP relaxation of the model it exports (`glpsol --lp
#    FILE --nomip`; glpsol prints 10 digits) to 1e-6 relative; the run
#    says "bound: LP (column generation, exact)", or "bound: lifted LP
#    ..." when the lifting rows (solvers/lp_colgen_cuts.c) raise it, and
#    its plan's bound is that value: the LP optimum, or above it when
#    lifted, at most the plan's total and, in tests/plan, at most the hand
#    optimum (expect-total).
# 2. --method milp and auto on the same inputs: a bound that is at least
#    the LP optimum (branch-and-cut may raise it) and at most the total.
# 3. Under --node-limit the lagrange plan is byte-identical across runs.
# 4. An infeasible case (tests/plan, expect-exit 3) still exits 3.
#
# glpsol comes with Debian's glpk-utils (`make deps` installs it); without
# it the suite is one skipped check (a failure under `make test`).
# CP_QUICK=1 skips the bench nights and the nightly example (minutes under
# memcheck; the same code paths run on the rest).
# Ends with "lp: P passed, F failed, S skipped".
SUITE=lp
. "$(dirname "$0")/lib.sh"

test_require GLPSOL

# lp_plan OUT METHOD FILE...: plan with --progress=debug and --export-lp
# $tmp/m.lp; sets $rc, $lpval (the "lp: LP optimum" figure, empty when
# none) and $bline (the "bound:" line's text); stderr in $tmp/err.
lp_plan() {
    lo_out=$1 lo_m=$2
    shift 2
    rm -f "$tmp/m.lp"
    timeout -k 5 "$limit" $CAPPLAN plan --progress=debug --no-timing --method "$lo_m" --node-limit 20 \
        --time-limit 60 -o "$lo_out" --export-lp "$tmp/m.lp" "$@" 2>"$tmp/err"
    rc=$?
    lpval=$(sed -n 's/^capplan: lp: LP optimum \([^,]*\),.*/\1/p' "$tmp/err" | tail -n 1)
    bline=$(sed -n 's/^capplan: bound: //p' "$tmp/err" | tail -n 1)
}

# glp_lp LPFILE: the optimum of the LP relaxation by glpsol into $glpval
# (empty when it has none); its status line in $glpst.
glp_lp() {
    glpval=
    timeout "$limit" glpsol --lp "$1" --nomip -o "$tmp/g.sol" >"$tmp/glp.out" 2>&1
    glpst=$(sed -n 's/^Status: *//p' "$tmp/g.sol" 2>/dev/null)
    [ "$glpst" = OPTIMAL ] || return 1
    glpval=$(sed -n 's/^Objective: *[^=]*= *\([^ ]*\).*/\1/p' "$tmp/g.sol")
}

# check NAME WANT FILE...: sections 1-3 on one input (WANT: the hand
# optimum, or empty).
check() {
    cn=$1 cw=$2
    shift 2
    lp_plan "$tmp/l.yaml" lagrange "$@"
    if [ "$rc" != 0 ]; then
        bad "$cn/lagrange" "exit $rc: $(oneline "$tmp/err" 2)"
        return
    fi
    if ! glp_lp "$tmp/m.lp"; then
        bad "$cn/glpsol" "status '$glpst': $(oneline "$tmp/glp.out" 3)"
        return
    fi
    if [ -z "$lpval" ]; then
        bad "$cn/lp" "no 'lp: LP optimum' line: $(grep 'lp:' "$tmp/err" | tr '\n' ' ')"
    else
        num_eq "$lpval" "$glpval" 1e-6 1e-9 && ok || bad "$cn/lp" "column generation $lpval, glpsol $glpval"
    fi
    b=$(plan_field "$tmp/l.yaml" bound)
    t=$(plan_total "$tmp/l.yaml")
    case $bline in
    "LP (column generation, exact)")
        num_eq "$b" "$glpval" 1e-6 1e-9 && ok || bad "$cn/bound" "plan bound $b, glpsol's LP $glpval" ;;
    "lifted LP (column generation with packing rows)")
        num_ge "$b" "$glpval" 1e-9 1e-9 && ok || bad "$cn/bound" "lifted bound $b below glpsol's LP $glpval"
        lifted=$((lifted + 1)) ;;
    *) bad "$cn/lp" "bound line '$bline'" ;;
    esac
    num_le "$b" "$t" 1e-9 1e-9 && ok || bad "$cn/bound" "bound $b above the total $t"
    if [ -n "$cw" ]; then
        num_le "$b" "$cw" 1e-9 1e-9 && ok || bad "$cn/bound" "bound $b above the hand optimum $cw"
    fi
    lp_plan "$tmp/l2.yaml" lagrange "$@"
    cmp -s "$tmp/l.yaml" "$tmp/l2.yaml" && ok || bad "$cn/repeat" "$(diff "$tmp/l.yaml" "$tmp/l2.yaml" | head -n 4 | tr '\n' ' ')"
    for m in milp auto; do
        lp_plan "$tmp/m.yaml" "$m" "$@"
        if [ "$rc" != 0 ]; then
            bad "$cn/$m" "exit $rc: $(oneline "$tmp/err" 2)"
            continue
        fi
        b=$(plan_field "$tmp/m.yaml" bound)
        t=$(plan_total "$tmp/m.yaml")
        num_ge "$b" "$glpval" 1e-6 1e-9 && num_le "$b" "$t" 1e-9 1e-9 && ok ||
            bad "$cn/$m" "bound $b not between glpsol's LP $glpval and the total $t ($bline)"
    done
}

lifted=0

# --- the hand case of the lifting rows --------------------------------------
# tests/lp/lifted.yaml: glpsol's LP is $9, the hand optimum $16, and the
# rounding row lifts the bound to it (the case's header derives both).
check lifted 16 tests/lp/lifted.yaml
lp_plan "$tmp/l.yaml" lagrange tests/lp/lifted.yaml
b=$(plan_field "$tmp/l.yaml" bound)
num_eq "$lpval" 9 1e-9 1e-12 && ok || bad lifted/lp "LP optimum $lpval, by hand 9"
num_ge "$b" 9.5 && num_eq "$b" 16 1e-9 1e-12 && ok || bad lifted/bound "bound $b, by hand 16 (the LP is 9)"
num_eq "$(plan_total "$tmp/l.yaml")" 16 && ok || bad lifted/total "total $(plan_total "$tmp/l.yaml"), hand optimum 16"
[ "$(plan_status "$tmp/l.yaml")" = optimal ] && ok || bad lifted/status "$(plan_status "$tmp/l.yaml"): the lifted bound proves it"

# --- tests/plan, tiny, nightly --------------------------------------------
for f in tests/plan/*.yaml; do
    n=${f##*/}
    n=${n%.yaml}
    want=$(sed -n 's/^# expect-total: *//p' "$f" | head -n 1)
    want_rc=$(sed -n 's/^# expect-exit: *//p' "$f" | head -n 1)
    if [ "${want_rc:-0}" = 3 ]; then
        lp_plan "$tmp/i.yaml" lagrange "$f"
        [ "$rc" = 3 ] && ok || bad "$n" "exit $rc, expected 3 (infeasible)"
        continue
    fi
    check "$n" "$want" "$f"
done
check tiny "" examples/tiny.yaml
if [ "$CP_QUICK" = 1 ]; then
    echo "lp: CP_QUICK=1, nightly example and bench nights skipped"
else
    check nightly "" examples/nightly/*.yaml
fi

# --- random instances -------------------------------------------------------
if build_gen geninst; then
    for spec in "1" "2" "5" "8" "3 40"; do
        # shellcheck disable=SC2086
        "$tmp/geninst" $spec >"$tmp/gen.yaml"
        check "gen$(echo "$spec" | tr ' ' x)" "" "$tmp/gen.yaml"
    done
fi

# --- bench nights (both families), and one with precedence ---------------
# add_after YAML: every 4th job k+1 runs after job k, every 4th k+3 after
# k+2 and k (capplan.5 §9.2), so the precedence rows are priced too.
add_after() {
    awk '{ print } /^jobs:/ { j = 1; next }
        j && /^  - name: / { n[k] = $3
            if (k % 4 == 1) print "    after: [" n[k - 1] "]"
            else if (k % 4 == 3) print "    after: [" n[k - 1] ", " n[k - 3] "]"
            k++ }' "$1"
}
if [ "$CP_QUICK" != 1 ]; then
    if $CC -std=c11 -O1 -o "$tmp/bgen" bench/gen.c -lm 2>"$tmp/cc.err"; then
        "$tmp/bgen" 3 40 >"$tmp/b.yaml" && check bench3x40 "" "$tmp/b.yaml"
        if "$tmp/bgen" --family cloud 3 40 >"$tmp/c.yaml" 2>/dev/null; then
            check cloud3x40 "" "$tmp/c.yaml"
        else
            echo "lp: bench/gen has no cloud family; skipped"
        fi
        add_after "$tmp/b.yaml" >"$tmp/a.yaml"
        lp_plan "$tmp/l.yaml" lagrange "$tmp/a.yaml"
        if [ "$rc" != 0 ]; then
            bad after3x40 "exit $rc: $(oneline "$tmp/err" 2)"
        elif ! glp_lp "$tmp/m.lp"; then
            bad after3x40/glpsol "status '$glpst'"
        elif grep -q '^ *r_[0-9]*:' "$tmp/m.lp"; then
            # the export holds the precedence rows (unnamed): the same LP
            num_eq "$lpval" "$glpval" 1e-6 1e-9 && ok || bad after3x40 "column generation $lpval, glpsol $glpval"
        else
            # an export without them is a looser LP
            num_ge "$lpval" "$glpval" 1e-6 1e-9 && ok || bad after3x40 "column generation $lpval below glpsol's $glpval"
            echo "lp: the exported model has no precedence rows; after3x40 compared as a bound"
        fi
    else
        bad bench/gen "does not build: $(oneline "$tmp/cc.err")"
    fi
fi

echo "lp: $lifted runs with a lifted bound (above the LP)"
test_done
