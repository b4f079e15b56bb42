# tests/lib.sh: what every tests/suite_*.sh shares (docs/testing.md).
#
# A suite names its summary line and sources this file first:
#
#     SUITE=example
#     . "$(dirname "$0")/lib.sh"
#     ...checks, each ending in `ok NAME` or `bad NAME DETAIL`...
#     test_done
#
# Sourcing it: set -u; cd to the repository root; defaults for CAPPLAN
# (build/capplan), UNIT, ENUMERATE and CC; LC_ALL=C,
# OPENBLAS_NUM_THREADS=1 and CAPPLAN_MIP_ENGINE=glpk exported; $tmp, a fresh folder removed on exit
# (made writable first, so a test may chmod inside it); $limit, the
# seconds a single command may take (CP_TEST_TIMEOUT, default 60; see
# cp_timeout for the checks that compute for long); the
# counters $pass and $fail. `--update` as the suite's first argument is
# CP_GOLDEN_UPDATE=1: test_cmp and test_cmp_num then rewrite the expected
# files that differ, naming each one, instead of failing.
#
# $CAPPLAN, $UNIT and $ENUMERATE may be command lines (`make valgrind`
# runs "valgrind ... build/capplan"): they are word-split on purpose.
# shellcheck shell=sh disable=SC2034,SC2086

set -u
cd "$(dirname "$0")/.." || exit 2
: "${SUITE:=$(basename "$0" .sh)}"
: "${CAPPLAN:=build/capplan}" "${UNIT:=build/unit_tests}" "${ENUMERATE:=build/enumerate}" "${CC:=cc}"
LC_ALL=C
OPENBLAS_NUM_THREADS=1
# plan's default --mip-engine is auto (CBC when it is installed): pinned
# to glpk, so no plan of the suites depends on whether cbc is installed
# (tests/suite_engines.sh tests the engines themselves)
CAPPLAN_MIP_ENGINE=glpk
export LC_ALL OPENBLAS_NUM_THREADS CAPPLAN_MIP_ENGINE
if [ "${1:-}" = --update ]; then
    CP_GOLDEN_UPDATE=1
fi
: "${CP_GOLDEN_UPDATE:=0}"
limit=${CP_TEST_TIMEOUT:-60}
# CP_QUICK=1 leaves out the largest searches (the nightly example, the
# bench nights, the biggest generated instances): `make check` sets it,
# and `make valgrind` through CP_VALGRIND=1. What each suite leaves out
# is said where it tests CP_QUICK (docs/testing.md lists them).
[ "${CP_VALGRIND:-0}" = 1 ] && CP_QUICK=1
: "${CP_QUICK:=0}"
tmp=$(mktemp -d) || exit 2
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
pass=0
fail=0
skipped=0

# ok [NAME]: one check passed (NAME is printed with CP_VERBOSE=1).
ok() {
    pass=$((pass + 1))
    if [ "${CP_VERBOSE:-0}" = 1 ]; then echo "ok ${1:-}"; fi
    return 0
}

# bad NAME [DETAIL...]: one check failed; prints "FAIL NAME: DETAIL".
bad() {
    fail=$((fail + 1))
    bad_name=$1
    shift
    if [ $# -gt 0 ]; then echo "FAIL $bad_name: $*"; else echo "FAIL $bad_name"; fi
    return 0
}

# test_done: prints "SUITE: P passed, F failed, S skipped" (tests/run.sh
# adds these lines up) and exits, non-zero when a check failed. Also ends
# a suite early (a tool it needs does not build).
test_done() {
    echo "$SUITE: $pass passed, $fail failed, $skipped skipped"
    [ "$fail" = 0 ]
    exit
}

# ---- prerequisites (git's test_lazy_prereq) ------------------------------
# A check that needs something beyond the build (a daemon, a browser, a
# Python module, root) asks for it by name:
#
#     if test_have_prereq BROWSER; then ...the check...; else
#         skip browser "$(test_why BROWSER)"; fi
#
# The tiers (docs/testing.md): `make check` sets CP_TIER=check, where the
# prerequisites of kind daemon, browser and root are missing by
# definition (that tier needs none of them), the others when their test
# fails. `make test` installs every prerequisite first and sets
# CP_NO_SKIP=1, so a skip there is a failure: the whole suite never
# silently loses a check.

# test_lazy_prereq NAME WHY SCRIPT: NAME is there when SCRIPT (sh) exits 0;
# WHY says what it is, for the skip message. Evaluated once, on first use.
test_lazy_prereq() {
    eval "prereq_script_$1=\$3 prereq_why_$1=\$2"
}

# test_have_prereq NAME: whether the prerequisite NAME is there.
test_have_prereq() {
    eval "thp_v=\${prereq_have_$1:-}"
    if [ -z "$thp_v" ]; then
        eval "thp_script=\${prereq_script_$1:-false}"
        thp_v=no
        if ( eval "$thp_script" ) >/dev/null 2>&1; then thp_v=yes; fi
        eval "prereq_have_$1=\$thp_v"
    fi
    [ "$thp_v" = yes ]
}

# test_why NAME: the reason a missing prerequisite gives.
test_why() {
    eval "tw_why=\${prereq_why_$1:-$1}"
    if [ "${CP_TIER:-}" = check ]; then
        case " $PREREQ_OUTSIDE_CHECK " in
        *" $1 "*) tw_why="$tw_why: not in make check's tier (make test runs it)" ;;
        esac
    fi
    echo "$tw_why"
}

# skip NAME WHY [PREREQ]: a check that cannot run here; counted and
# printed as "skip NAME: WHY". Under CP_NO_SKIP=1 (make test) it is a
# failure.
skip() {
    if [ "${CP_NO_SKIP:-0}" = 1 ]; then
        bad "$1" "cannot run: $2 (make test installs every prerequisite)"
        return 0
    fi
    skipped=$((skipped + 1))
    echo "skip $1: $2"
    return 0
}

# test_require NAME...: the whole suite needs these; when one is missing
# the suite is one skipped check and ends here.
test_require() {
    for tr_p in "$@"; do
        if ! test_have_prereq "$tr_p"; then
            skip "$SUITE" "$(test_why "$tr_p")" "$tr_p"
            test_done
        fi
    done
}

# The prerequisites of kind daemon, browser and root: never in make check.
PREREQ_OUTSIDE_CHECK="SLURM BROWSER ROOT"
prereq_outside_check_() {
    [ "${CP_TIER:-}" != check ]
}
test_lazy_prereq SLURM "Slurm and munge (slurmctld, slurmd, munged; make slurm-deps installs them)" \
    'prereq_outside_check_ && PATH=$PATH:/usr/sbin && for c in munged munge unmunge slurmctld slurmd sbatch scontrol squeue scancel; do command -v $c || exit 1; done'
test_lazy_prereq BROWSER "headless Chromium (make browser-deps installs it)" \
    'prereq_outside_check_ && command -v chromium'
test_lazy_prereq ROOT "root" \
    'prereq_outside_check_ && [ "$(id -u)" = 0 ]'
test_lazy_prereq PYYAML "Python 3 with PyYAML (make deps installs python3-yaml)" \
    'python3 -c "import yaml"'
test_lazy_prereq GLPSOL "glpsol (make deps installs glpk-utils)" 'command -v glpsol'
test_lazy_prereq CBC "cbc (make deps installs coinor-cbc)" 'command -v cbc'
test_lazy_prereq XMLLINT "xmllint (make deps installs libxml2-utils)" 'command -v xmllint'
test_lazy_prereq MAN "man and groff (make deps installs man-db and groff-base)" \
    'command -v man && command -v groff'

# oneline FILE [N]: the first N (default 3) lines of FILE on one line,
# for failure details.
oneline() {
    head -n "${2:-3}" "$1" 2>/dev/null | tr '\n' ' '
}

# ---- numbers ---------------------------------------------------------------
# num_eq A B [RELTOL [ABSTOL]]: A and B are numbers and
#   |A - B| <= max(RELTOL * |B|, ABSTOL)
# (B is the reference; RELTOL default 1e-6, capplan.5 §4's tolerance for totals,
# ABSTOL default 1e-12). An empty or non-numeric argument is false.
# num_le A B [RELTOL [ABSTOL]]: A <= B + that tolerance.
# num_ge A B [RELTOL [ABSTOL]]: A >= B - that tolerance.
num_cmp_() {
    awk -v op="$1" -v a="$2" -v b="$3" -v rel="${4:-1e-6}" -v abst="${5:-1e-12}" 'BEGIN {
        re = "^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$"
        if (a !~ re || b !~ re) exit 1
        a += 0; b += 0
        t = rel * (b < 0 ? -b : b); if (t < abst + 0) t = abst + 0
        d = a - b
        if (op == "eq") exit !((d < 0 ? -d : d) <= t)
        if (op == "le") exit !(d <= t)
        exit !(-d <= t)
    }'
}
num_eq() { num_cmp_ eq "$@"; }
num_le() { num_cmp_ le "$@"; }
num_ge() { num_cmp_ ge "$@"; }

# ---- goldens ---------------------------------------------------------------
# test_cmp EXPECT ACTUAL: ACTUAL equals the golden EXPECT byte for byte
# (git's test_cmp): a pass, or a failure with `diff -u EXPECT ACTUAL`.
# With CP_GOLDEN_UPDATE=1 a differing or missing EXPECT is rewritten from
# ACTUAL ("updated EXPECT") and the check passes: read the diff before
# committing it.
test_cmp() {
    if [ -f "$1" ] && cmp -s "$1" "$2"; then ok "$1"; return 0; fi
    golden_mismatch_ "$1" "$2"
}

# test_cmp_num EXPECT ACTUAL [RELTOL]: as test_cmp, but a word that is a
# number in both files (a decimal or exponent number between characters
# outside [A-Za-z0-9_.+-]) may differ by RELTOL (default 1e-9) relative
# to the larger of the two: floating-point results of BLAS and LAPACK
# differ in the last digits between OpenBLAS kernels (OPENBLAS_CORETYPE).
# Every other byte, the line count and the final newline must match.
# The update switch rewrites EXPECT only when this comparison fails, so
# a golden does not churn between CPUs.
test_cmp_num() {
    if [ -f "$1" ] && same_numbers_ "$1" "$2" "${3:-1e-9}" >"$tmp/cmp_num.why"; then
        ok "$1"
        return 0
    fi
    [ -f "$1" ] && [ "$CP_GOLDEN_UPDATE" != 1 ] && cat "$tmp/cmp_num.why"
    golden_mismatch_ "$1" "$2"
}

golden_mismatch_() {
    if [ "$CP_GOLDEN_UPDATE" = 1 ]; then
        cp "$2" "$1" && echo "updated $1" && ok "$1" && return 0
        bad "$1" "cannot rewrite it"
        return 1
    fi
    if [ -f "$1" ]; then
        diff -u "$1" "$2"
        bad "$1" "differs (the diff above; CP_GOLDEN_UPDATE=1 or --update rewrites it)"
    else
        bad "$1" "missing (CP_GOLDEN_UPDATE=1 or --update writes it; read it)"
        head -n 20 "$2"
    fi
    return 1
}

# same_numbers_ EXPECT ACTUAL RELTOL: the comparison of test_cmp_num;
# prints the first difference.
same_numbers_() {
    if [ "$(tail -c 1 "$1" | od -An -c)" != "$(tail -c 1 "$2" | od -An -c)" ]; then
        echo "$2: the last byte differs from $1's (final newline)"
        return 1
    fi
    awk -v rel="$3" -v efile="$1" -v afile="$2" '
        function words(s, w,    n, p) {    # w[1] text, w[2] word, w[3] text, ...
            n = 0
            while ((p = match(s, /[A-Za-z0-9_.+-]+/)) > 0) {
                w[++n] = substr(s, 1, p - 1)
                w[++n] = substr(s, p, RLENGTH)
                s = substr(s, p + RLENGTH)
            }
            w[++n] = s
            return n
        }
        function isnum(x) { return x ~ /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/ }
        function abs(x) { return x < 0 ? -x : x }
        function near(x, y,    m) {
            x += 0; y += 0
            m = abs(x) > abs(y) ? abs(x) : abs(y)
            return abs(x - y) <= rel * m
        }
        BEGIN { while ((getline l < ARGV[1]) > 0) e[++ne] = l; ARGV[1] = "" }
        { a[++na] = $0 }
        END {
            for (i = 1; i <= ne && i <= na; i++) {
                if (e[i] "" == a[i] "") continue
                n = words(e[i], we); m = words(a[i], wa)
                why = n != m ? "not the same words" : ""
                for (k = 1; why == "" && k <= n; k++) {
                    if (we[k] "" == wa[k] "") continue
                    if (k % 2 == 0 && isnum(we[k]) && isnum(wa[k]) && near(we[k], wa[k])) continue
                    why = "\"" we[k] "\" vs \"" wa[k] "\""
                }
                if (why != "") {
                    printf "%s:%d: %s (numbers may differ by %s relative)\n", afile, i, why, rel
                    exit 1
                }
            }
            if (ne != na) { printf "%s: %d lines, %s has %d\n", afile, na, efile, ne; exit 1 }
        }' "$1" "$2"
}

# ---- running capplan ---------------------------------------------------------
# cp_timeout CMD...: CMD under the time rule of a command of the suites:
# $limit seconds of wall clock. With heavy=1 (a check that computes for
# many CPU seconds, which a loaded machine stretches: 8 CPU seconds took
# 170 s of wall clock at a load of 25), $limit seconds of CPU time
# instead (ulimit -t: a loop that never ends still stops, after as much
# computing however loaded the machine) and CP_LOAD_FACTOR (default 5)
# times $limit of wall clock (a command that waits forever). Both scale
# with CP_TEST_TIMEOUT; the CPU time counts every thread.
heavy=0
cp_timeout() {
    if [ "$heavy" = 1 ]; then
        (ulimit -c 0 && ulimit -t "$limit" &&
            exec timeout -k 5 "$((limit * ${CP_LOAD_FACTOR:-5}))" "$@")
    else
        timeout -k 5 "$limit" "$@"
    fi
}

# capture OUT CMD...: runs `capplan CMD...` and writes standard output,
# "--- stderr", standard error and "--- exit N" to OUT, for a golden of
# all three; sets $rc. Under cp_timeout's rule.
capture() {
    cap_out=$1
    shift
    cp_timeout $CAPPLAN "$@" >"$tmp/cap.out" 2>"$tmp/cap.err"
    rc=$?
    { cat "$tmp/cap.out"; echo "--- stderr"; cat "$tmp/cap.err"; echo "--- exit $rc"; } >"$cap_out"
}

# usage_fails NAME CMD...: `capplan CMD...` is a usage error: exit 2, a
# message on stderr and nothing on stdout.
usage_fails() {
    uf_name=$1
    shift
    timeout "$limit" $CAPPLAN "$@" >"$tmp/usage.out" 2>"$tmp/usage.err"
    uf_rc=$?
    if [ "$uf_rc" = 2 ] && [ ! -s "$tmp/usage.out" ] && [ -s "$tmp/usage.err" ]; then
        ok "$uf_name"
    else
        bad "$uf_name" "exit $uf_rc (a usage error exits 2, says why on stderr, prints nothing on stdout)"
    fi
}

# run_plan OUT ARGS...: capplan plan --quiet --no-timing -o OUT ARGS...
# under cp_timeout; sets $rc, standard error in $tmp/err.
run_plan() {
    rp_out=$1
    shift
    cp_timeout $CAPPLAN plan --quiet --no-timing -o "$rp_out" "$@" 2>"$tmp/err"
    rc=$?
}

# plan_field PLAN KEY: the first "  KEY: " line's value of a YAML plan
# (solver and totals fields: bound, gap, total, cloud, ...).
plan_field() {
    sed -n "s/^  $2: //p" "$1" 2>/dev/null | head -n 1
}

# plan_total PLAN, plan_status PLAN: totals.total and status of a YAML or
# JSON plan (empty when it has none).
plan_total() {
    sed -n -e 's/^  total: //p' -e 's/^    "total": \([^,]*\),*$/\1/p' "$1" 2>/dev/null | head -n 1
}
plan_status() {
    sed -n -e 's/^status: //p' -e 's/^  "status": "\(.*\)",*$/\1/p' "$1" 2>/dev/null | head -n 1
}

# verify_ok NAME PLAN FILE...: `capplan verify --plan PLAN FILE...` exits 0
# and says OK: "OK status=infeasible" for a plan of status infeasible,
# otherwise "OK total=X" with X the plan's total (verify prints 10
# significant digits: 1e-8 relative, 1e-6 absolute). One check; sets
# $vtotal; returns non-zero when it failed.
verify_ok() {
    vo_name=$1 vo_plan=$2
    shift 2
    vtotal=
    cp_timeout $CAPPLAN verify --plan "$vo_plan" "$@" >"$tmp/vout" 2>"$tmp/verr"
    vo_rc=$?
    vo_st=$(plan_status "$vo_plan")
    vo_pt=$(plan_total "$vo_plan")
    if [ "$vo_rc" != 0 ]; then
        vo_why="verify exit $vo_rc"
    elif [ "$vo_st" = infeasible ] && grep -qx 'verify: OK status=infeasible (nothing to re-cost)' "$tmp/vout"; then
        ok "$vo_name"
        return 0
    elif ! grep -q '^verify: OK total=' "$tmp/vout"; then
        vo_why="verify does not say OK total="
    else
        vtotal=$(sed -n 's/^verify: OK total=//p' "$tmp/vout")
        if [ -z "$vo_pt" ] || num_eq "$vtotal" "$vo_pt" 1e-8 1e-6; then
            ok "$vo_name"
            return 0
        fi
        vo_why="verify total $vtotal, the plan says $vo_pt"
    fi
    bad "$vo_name" "$vo_why: $(cat "$tmp/vout" "$tmp/verr" | head -n 5 | tr '\n' ' ' | cut -c 1-600)"
    return 1
}

# plan_verify NAME OUT [PLAN-OPTION...] -- FILE...: plans FILE... with the
# options into OUT (run_plan), then verify_ok on the plan. Sets $rc, $pst
# (the plan's status), $ptotal and $vtotal. Exit 3 with status infeasible
# returns 1 without a verdict (the caller knows whether it should be); any
# other failure of plan is a failed check. Returns 0 when the plan verified.
plan_verify() {
    pv_name=$1 pv_out=$2
    shift 2
    pv_files=0
    pv_seen=0
    for pv_a in "$@"; do
        shift
        if [ "$pv_seen" = 0 ] && [ "$pv_a" = -- ]; then pv_seen=1; continue; fi
        set -- "$@" "$pv_a"
        [ "$pv_seen" = 1 ] && pv_files=$((pv_files + 1))
    done
    rm -f "$pv_out"
    run_plan "$pv_out" "$@"
    pst=$(plan_status "$pv_out")
    ptotal=$(plan_total "$pv_out")
    vtotal=
    case "$rc:$pst" in
    3:infeasible) return 1 ;;
    0:optimal | 0:feasible) ;;
    *)
        bad "$pv_name" "plan exit $rc, status '$pst': $(oneline "$tmp/err" 2)"
        return 1
        ;;
    esac
    shift $(($# - pv_files))
    verify_ok "$pv_name" "$pv_out" "$@"
}

# build_gen NAME: compiles tests/gen/NAME.c into $tmp/NAME; a failed check
# when it does not build (returns non-zero).
build_gen() {
    if $CC -std=c11 -O2 -o "$tmp/$1" "tests/gen/$1.c" -lm 2>"$tmp/cc.err"; then return 0; fi
    bad "$1" "cannot build tests/gen/$1.c: $(oneline "$tmp/cc.err")"
    return 1
}
