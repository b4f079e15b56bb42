#!/bin/sh
# The helpers of tests/lib.sh that other suites rely on to fail: a golden
# that differs, a number beyond the tolerance, a plan that does not
# verify must each count as a failure, and the update switch must rewrite
# only what differs. Each helper runs in a subshell with fresh counters;
# its outcome ("pass", "fail", or the counts) is compared here.
# Ends with "lib: P passed, F failed, S skipped".
SUITE=lib
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
# the switch is set explicitly below, where it is tested
CP_GOLDEN_UPDATE=0

# outcome CMD...: "pass" when CMD counted one pass, "fail" when it counted
# one failure, otherwise the counts; CMD's output in $tmp/outcome.log
outcome() {
    (
        pass=0 fail=0
        "$@" >"$tmp/outcome.log" 2>&1
        if [ "$pass:$fail" = 1:0 ]; then echo pass
        elif [ "$pass:$fail" = 0:1 ]; then echo fail
        else echo "pass=$pass fail=$fail"; fi
    )
}

# expect NAME WANT CMD...: CMD's outcome is WANT
expect() {
    ex_name=$1 ex_want=$2
    shift 2
    ex_got=$(outcome "$@")
    # a failure must be the helper's verdict, not an error of awk or sh
    if grep -qiE 'awk:|syntax error|not found|bad number' "$tmp/outcome.log"; then
        bad "$ex_name" "$(oneline "$tmp/outcome.log" 4)"
    elif [ "$ex_got" = "$ex_want" ]; then ok "$ex_name"; else
        bad "$ex_name" "outcome '$ex_got', expected '$ex_want': $(oneline "$tmp/outcome.log" 6)"; fi
}

# true_false NAME WANT CMD...: CMD's exit status is 0 (WANT=true) or not
true_false() {
    tf_name=$1 tf_want=$2
    shift 2
    if "$@"; then tf_got=true; else tf_got=false; fi
    if [ "$tf_got" = "$tf_want" ]; then ok "$tf_name"; else bad "$tf_name" "$*: $tf_got, expected $tf_want"; fi
}

g=$tmp/g
mkdir "$g"
# ---- test_cmp ----------------------------------------------------------------
printf 'a 1\nb 2\n' >"$g/e"
printf 'a 1\nb 2\n' >"$g/same"
printf 'a 1\nb 3\n' >"$g/other"
expect "test_cmp same" pass test_cmp "$g/e" "$g/same"
expect "test_cmp differs" fail test_cmp "$g/e" "$g/other"
if grep -q '^+b 3$' "$tmp/outcome.log"; then ok; else bad "test_cmp diff" "no diff -u shown: $(oneline "$tmp/outcome.log" 6)"; fi
expect "test_cmp missing golden" fail test_cmp "$g/none" "$g/same"
[ ! -e "$g/none" ] && ok || bad "test_cmp missing golden" "written without the update switch"

# ---- test_cmp_num --------------------------------------------------------------
printf 'theta: [1.9001268702332115, 162.19821225974758, 0]\nsigma: 0.13648724098138243 # r3.xlarge\n' >"$g/n"
printf 'theta: [1.9001268702332117, 162.19821225974763, 0]\nsigma: 0.1364872409813828 # r3.xlarge\n' >"$g/n-last"
printf 'theta: [1.9001268702332115, 162.19821225974758, 0]\nsigma: 0.1364874 # r3.xlarge\n' >"$g/n-far"
printf 'theta: [1.9001268702332115, 162.19821225974758, 0]\nsigma: 0.13648724098138243 # r4.xlarge\n' >"$g/n-word"
printf 'theta: [1.9001268702332115; 162.19821225974758, 0]\nsigma: 0.13648724098138243 # r3.xlarge\n' >"$g/n-punct"
printf 'theta: [1.9001268702332115, 162.19821225974758, 0]\nsigma: 0.13648724098138243 # r3.xlarge\nmore\n' >"$g/n-longer"
printf 'theta: [1.9001268702332115, 162.19821225974758, 0]\nsigma: 0.13648724098138243 # r3.xlarge' >"$g/n-nonl"
printf 'theta: [1.9001268702332115, 162.19821225974758, 1e-300]\nsigma: 0.13648724098138243 # r3.xlarge\n' >"$g/n-zero"
expect "test_cmp_num identical" pass test_cmp_num "$g/n" "$g/n"
expect "test_cmp_num last digits" pass test_cmp_num "$g/n" "$g/n-last"
expect "test_cmp is byte for byte" fail test_cmp "$g/n" "$g/n-last"
expect "test_cmp_num 1e-6 relative" fail test_cmp_num "$g/n" "$g/n-far"
expect "test_cmp_num 1e-6 with RELTOL 1e-5" pass test_cmp_num "$g/n" "$g/n-far" 1e-5
expect "test_cmp_num a word with digits" fail test_cmp_num "$g/n" "$g/n-word"
expect "test_cmp_num punctuation" fail test_cmp_num "$g/n" "$g/n-punct"
expect "test_cmp_num an extra line" fail test_cmp_num "$g/n" "$g/n-longer"
expect "test_cmp_num a missing line" fail test_cmp_num "$g/n-longer" "$g/n"
expect "test_cmp_num no final newline" fail test_cmp_num "$g/n" "$g/n-nonl"
expect "test_cmp_num 0 vs 1e-300" fail test_cmp_num "$g/n" "$g/n-zero"
expect "test_cmp_num missing golden" fail test_cmp_num "$g/none" "$g/n"
printf 'V100 -1.5e+03 x\n' >"$g/s"
printf 'V100 -1500.0000000000002 x\n' >"$g/s-same"
printf 'V101 -1.5e+03 x\n' >"$g/s-name"
printf 'V100 1.5e+03 x\n' >"$g/s-sign"
expect "test_cmp_num exponent form" pass test_cmp_num "$g/s" "$g/s-same"
expect "test_cmp_num a name's digits" fail test_cmp_num "$g/s" "$g/s-name"
expect "test_cmp_num sign" fail test_cmp_num "$g/s" "$g/s-sign"

# ---- the update switch -----------------------------------------------------------
env_update() { CP_GOLDEN_UPDATE=1 "$@"; }
cp "$g/e" "$g/u"
expect "update rewrites" pass env_update test_cmp "$g/u" "$g/other"
if cmp -s "$g/u" "$g/other" && grep -qx "updated $g/u" "$tmp/outcome.log"; then ok; else bad "update rewrites" "not rewritten, or not said"; fi
expect "update writes a missing golden" pass env_update test_cmp "$g/new" "$g/other"
cmp -s "$g/new" "$g/other" && ok || bad "update writes a missing golden" "not written"
cp "$g/n" "$g/u"
expect "update keeps a golden within the tolerance" pass env_update test_cmp_num "$g/u" "$g/n-last"
if cmp -s "$g/u" "$g/n" && [ ! -s "$tmp/outcome.log" ]; then ok; else bad "update keeps" "rewritten: $(oneline "$tmp/outcome.log")"; fi
expect "update rewrites beyond the tolerance" pass env_update test_cmp_num "$g/u" "$g/n-far"
cmp -s "$g/u" "$g/n-far" && ok || bad "update rewrites beyond the tolerance" "not rewritten"

# ---- numbers ---------------------------------------------------------------------
true_false "num_eq within" true num_eq 100.00001 100
true_false "num_eq beyond" false num_eq 100.001 100
true_false "num_eq RELTOL" true num_eq 100.001 100 1e-4
true_false "num_eq zero" true num_eq 0 0
true_false "num_eq ABSTOL" true num_eq 1e-7 0 1e-6 1e-6
true_false "num_eq empty" false num_eq "" 0
true_false "num_eq text" false num_eq abc abc
true_false "num_eq trailing text" false num_eq "1 (x)" 1
true_false "num_eq negative" true num_eq -2.0000001 -2
true_false "num_le below" true num_le 1 2
true_false "num_le within" true num_le 2.000001 2
true_false "num_le above" false num_le 2.1 2
true_false "num_ge above" true num_ge 3 2
true_false "num_ge within" true num_ge 1.999999 2
true_false "num_ge below" false num_ge 1.9 2
true_false "num_ge empty" false num_ge "" 2

# ---- ok, bad, test_done --------------------------------------------------------------
mkdir -p "$tmp/t/tests"
cp tests/lib.sh "$tmp/t/tests/lib.sh"
printf 'SUITE=demo\n. "$(dirname "$0")/lib.sh"\nok a; ok b; bad c "why"\ntest_done\n' >"$tmp/t/tests/suite_demo.sh"
sh "$tmp/t/tests/suite_demo.sh" >"$tmp/demo.out" 2>&1
rc=$?
printf 'FAIL c: why\ndemo: 2 passed, 1 failed, 0 skipped\n' >"$tmp/demo.want"
if [ "$rc" != 0 ] && cmp -s "$tmp/demo.want" "$tmp/demo.out"; then ok; else bad "test_done" "exit $rc: $(oneline "$tmp/demo.out")"; fi
printf 'SUITE=demo\n. "$(dirname "$0")/lib.sh"\nok a; echo "$tmp" >"$1"\ntest_done\n' >"$tmp/t/tests/suite_demo.sh"
sh "$tmp/t/tests/suite_demo.sh" "$tmp/demo.tmp" >"$tmp/demo.out" 2>&1
rc=$?
if [ "$rc" = 0 ] && [ "$(cat "$tmp/demo.out")" = "demo: 1 passed, 0 failed, 0 skipped" ] && [ -s "$tmp/demo.tmp" ] &&
    [ ! -e "$(cat "$tmp/demo.tmp")" ]; then ok; else bad "test_done" "exit $rc, or its temporary folder is left"; fi

# ---- prerequisites: test_lazy_prereq, test_have_prereq, skip, test_require -----------
cat >"$tmp/t/tests/suite_demo.sh" <<'EOF'
SUITE=demo
. "$(dirname "$0")/lib.sh"
test_lazy_prereq HERE "a thing that is here" 'true'
test_lazy_prereq GONE "a thing that is not here" 'false'
if test_have_prereq HERE; then ok; else bad here; fi
if test_have_prereq GONE; then bad gone; else skip gone "$(test_why GONE)"; fi
if test_have_prereq SLURM; then ok; else skip slurm "$(test_why SLURM)"; fi
test_require HERE
test_require GONE
bad "after a missing test_require"
test_done
EOF
# demo_tier NAME WANT VAR=VALUE...: the demo under that environment ends
# with the summary WANT, exiting non-zero exactly when WANT has failures
demo_tier() {
    dt_name=$1 dt_want=$2
    shift 2
    env "$@" sh "$tmp/t/tests/suite_demo.sh" >"$tmp/demo.out" 2>&1
    dt_rc=$?
    case $dt_want in
    *", 0 failed, "*) dt_want_rc=0 ;;
    *) dt_want_rc=1 ;;
    esac
    if [ "$(tail -n 1 "$tmp/demo.out")" = "$dt_want" ] && [ "$dt_rc" = "$dt_want_rc" ]; then ok "$dt_name"; else
        bad "$dt_name" "exit $dt_rc: $(oneline "$tmp/demo.out" 6)"; fi
}
# SLURM is outside make check's tier whatever the machine has
demo_tier "prereq: check tier" "demo: 1 passed, 0 failed, 3 skipped" CP_TIER=check CP_NO_SKIP=0
if grep -qx "skip gone: a thing that is not here" "$tmp/demo.out" &&
    grep -q "^skip slurm: .*not in make check's tier" "$tmp/demo.out" &&
    grep -qx "skip demo: a thing that is not here" "$tmp/demo.out"; then ok; else
    bad "prereq: skip lines" "$(oneline "$tmp/demo.out" 6)"; fi
# under make test (CP_NO_SKIP=1) a skip is a failure
demo_tier "prereq: no skip" "demo: 1 passed, 3 failed, 0 skipped" CP_TIER=check CP_NO_SKIP=1
if grep -q "^FAIL gone: cannot run: a thing that is not here (make test installs" "$tmp/demo.out"; then ok; else
    bad "prereq: no-skip message" "$(oneline "$tmp/demo.out" 6)"; fi
# a lazy prerequisite's script runs once, however often it is asked
cat >"$tmp/t/tests/suite_once.sh" <<'EOF'
SUITE=demo
. "$(dirname "$0")/lib.sh"
test_lazy_prereq C "c" 'echo x >>"$once_file"'
test_have_prereq C; test_have_prereq C; test_have_prereq C
test_done
EOF
once_file=$tmp/once.count sh "$tmp/t/tests/suite_once.sh" >/dev/null 2>&1
if [ "$(wc -l <"$tmp/once.count" 2>/dev/null)" = 1 ]; then ok; else bad "prereq: evaluated once" "$(wc -l <"$tmp/once.count" 2>&1)"; fi

# ---- plan_verify, verify_ok ----------------------------------------------------------
expect "plan_verify" pass plan_verify tiny "$tmp/tiny.yaml" --method heuristic -- examples/tiny.yaml
if [ -s "$tmp/tiny.yaml" ]; then
    # a plan whose total was changed: verify re-costs it and disagrees
    sed 's/^  total: .*/  total: 99999/' "$tmp/tiny.yaml" >"$tmp/tiny-total.yaml"
    expect "verify_ok a wrong total" fail verify_ok tiny "$tmp/tiny-total.yaml" examples/tiny.yaml
    # a plan that does not fit the inputs
    expect "verify_ok other inputs" fail verify_ok tiny "$tmp/tiny.yaml" tests/verify/input.yaml
    expect "verify_ok" pass verify_ok tiny "$tmp/tiny.yaml" examples/tiny.yaml
fi
expect "plan_verify a failing plan" fail plan_verify none "$tmp/none.yaml" -- "$tmp/no-such.yaml"
expect "usage_fails" pass usage_fails "no --plan" verify examples/tiny.yaml
expect "usage_fails on success" fail usage_fails "--help" verify --help

test_done
