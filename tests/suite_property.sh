#!/bin/sh
# Property test (issue 7, item 8; docs/reliability.md): seeded random
# valid instances, $CP_PROP_SEEDS of them (default 300).
#
# Odd seeds: `geninst -e SEED`, small enough for exhaustive search (1..5
# jobs, 2..5 slots, at most three single-unit resources). The oracle
# tests/gen/enumerate.c ($ENUMERATE, built by `make test`) finds the exact
# SPEC 3-4 optimum without the solvers. `plan --method auto --gap 0`:
#   - exits 3 with status infeasible exactly when the oracle finds no
#     feasible choice, else exits 0 and `verify` accepts the plan;
#   - status optimal => the plan's total equals the oracle's (1e-6 rel.);
#     any status => the total is not below it (a verified plan cannot
#     beat the exhaustive optimum);
#   - `--method heuristic` gives a verified plan not below it either.
# Even seeds: `geninst SEED JOBS` with JOBS = 1 + SEED*7 % 30 (up to 30
# jobs, the generator's general instances): `plan --method auto
# --node-limit 200` exits 0 (or 3 with status infeasible) and `verify`
# accepts the plan with the same total.
# Ends with "property: P passed, F failed"; exits non-zero on failure.
set -u
cd "$(dirname "$0")/.." || exit 2
: "${CAPPLAN:=build/capplan}"
: "${ENUMERATE:=build/enumerate}"
: "${CC:=cc}"
LC_ALL=C
OPENBLAS_NUM_THREADS=1
export LC_ALL OPENBLAS_NUM_THREADS
seeds=${CP_PROP_SEEDS:-300}
limit=${CP_TEST_TIMEOUT:-60}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL $1: $2"
}
finish() {
    echo "property: $pass passed, $fail failed"
    [ "$fail" = 0 ]
    exit
}

if ! $CC -std=c11 -O2 -o "$tmp/geninst" tests/gen/geninst.c -lm 2>"$tmp/cc.err"; then
    bad geninst "$(head -n 3 "$tmp/cc.err" | tr '\n' ' ')"
    finish
fi
# shellcheck disable=SC2086
if ! set -- $ENUMERATE || ! [ -x "$1" ]; then
    bad enumerate "no oracle at '$ENUMERATE' (make BUILD=... build/enumerate, or set ENUMERATE)"
    finish
fi

# feq A B: |A - B| <= 1e-6 relative (SPEC 4); fge A B: A >= B - 1e-6 rel.
feq() {
    awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "") exit 1
        d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b
        exit !(d <= 1e-6 * m + 1e-9) }'
}
fge() {
    awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "") exit 1
        m = b < 0 ? -b : b; exit !(a + 0 >= b - 1e-6 * m - 1e-9) }'
}

# plan_verify NAME INPUT OUT ARGS: plan, then verify; sets $rc, $st, $pt
# (plan total) and returns 0 when a plan to compare was written.
plan_verify() {
    pn=$1
    pi=$2
    po=$3
    shift 3
    rm -f "$po"
    # shellcheck disable=SC2086
    timeout -k 5 "$limit" $CAPPLAN plan --quiet --no-timing --time-limit 20 "$@" -o "$po" "$pi" 2>"$tmp/err"
    rc=$?
    st=$(sed -n 's/^status: //p' "$po" 2>/dev/null)
    pt=$(sed -n 's/^  total: //p' "$po" 2>/dev/null | head -n 1)
    case "$rc:$st" in
    3:infeasible) return 1 ;;
    0:optimal | 0:feasible) ;;
    *)
        bad "$pn" "plan $*: exit $rc, status '$st': $(head -n 2 "$tmp/err" | tr '\n' ' ')"
        return 1
        ;;
    esac
    # shellcheck disable=SC2086
    timeout -k 5 "$limit" $CAPPLAN verify --plan "$po" "$pi" >"$tmp/vout" 2>&1
    vt=$(sed -n 's/^verify: OK total=//p' "$tmp/vout")
    if [ -z "$vt" ]; then
        bad "$pn" "verify rejects the plan ($*): $(head -n 3 "$tmp/vout" | tr '\n' ' ')"
        return 1
    fi
    # verify prints 10 significant digits
    if awk -v a="$vt" -v b="$pt" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b
        exit !(d <= 1e-8 * m + 1e-6) }'; then ok; else bad "$pn" "plan total $pt, verify total $vt"; fi
    return 0
}

n_enum=0 n_opt=0 n_infeas=0 n_gen=0 maxjobs=0
s=1
while [ "$s" -le "$seeds" ]; do
    if [ $((s % 2)) = 1 ]; then
        name="enum/$s"
        f=$tmp/e.yaml
        "$tmp/geninst" -e "$s" >"$f"
        n_enum=$((n_enum + 1))
        # shellcheck disable=SC2086
        $ENUMERATE "$f" >"$tmp/opt" 2>"$tmp/eerr"
        erc=$?
        if [ "$erc" != 0 ]; then
            bad "$name" "enumerate exit $erc: $(head -n 2 "$tmp/eerr" | tr '\n' ' ')"
            s=$((s + 1))
            continue
        fi
        opt=$(sed -n 's/^optimum \([^ ]*\).*/\1/p' "$tmp/opt")
        if plan_verify "$name" "$f" "$tmp/p.yaml" --method auto --gap 0; then
            if [ -z "$opt" ]; then
                bad "$name" "the oracle finds no feasible plan, capplan wrote one (total $pt)"
            elif [ "$st" = optimal ]; then
                n_opt=$((n_opt + 1))
                if feq "$pt" "$opt"; then ok; else bad "$name" "optimal plan total $pt, exhaustive optimum $opt"; fi
            else
                if fge "$pt" "$opt"; then ok; else bad "$name" "plan total $pt below the exhaustive optimum $opt"; fi
            fi
        elif [ "$rc" = 3 ]; then
            n_infeas=$((n_infeas + 1))
            if [ -z "$opt" ]; then ok; else bad "$name" "exit 3 (infeasible), but the oracle finds $opt"; fi
        fi
        if plan_verify "$name/heuristic" "$f" "$tmp/h.yaml" --method heuristic; then
            if [ -n "$opt" ] && fge "$pt" "$opt"; then ok; else bad "$name" "heuristic total $pt, exhaustive optimum '$opt'"; fi
        fi
    else
        jobs=$((1 + s * 7 % 30))
        [ "$jobs" -gt "$maxjobs" ] && maxjobs=$jobs
        name="gen/$s ($jobs jobs)"
        f=$tmp/g.yaml
        "$tmp/geninst" "$s" "$jobs" >"$f"
        n_gen=$((n_gen + 1))
        plan_verify "$name" "$f" "$tmp/p.yaml" --method auto --node-limit 200
    fi
    s=$((s + 1))
done

echo "note: $n_enum enumerated instances ($n_opt plans optimal, $n_infeas infeasible)," \
    "$n_gen general instances of up to $maxjobs jobs"
finish
