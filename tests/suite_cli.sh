#!/bin/sh
# Command-line habits shared by every command (capplan.1, "OPTIONS"):
#   - options anywhere on the line (read in order by the one parser of
#     planner/cmd/cp_opt.h), "--" ending them: each command's output is
#     the same with its options before, between and after the files;
#   - -o, --format and --quiet behave the same everywhere, and a bad
#     option or value says the same thing in every command
#     (tests/cli/messages.expected);
#   - capplan.5 §4's contradictions (a power cap below the idle baseline, a
#     budget below the baseline) are errors of `check` naming the site and
#     slots, and `plan`'s infeasible reason says the same (the inputs are
#     tests/bad/contradiction-*.yaml, whose check goldens suite_bad keeps);
#   - check --modes JOB --top N lists the N cheapest modes first
#     (tests/cli/modes-top.yaml, hand-derived order);
#   - keys without effect are warnings (tests/cli/confidence.yaml), and a
#     drop caused by a runtime margin says so;
#   - the man pages render without a warning (man --warnings), and every
#     command's --help points at them.
SUITE=cli
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

# same NAME A B: one check, A and B byte-identical
same() {
    if cmp -s "$2" "$3"; then ok "$1"; else
        bad "$1" "outputs differ"
        diff -u "$2" "$3" | head -20
    fi
}

# quietly: capplan ARGS... under the time limit, stdout to $tmp/out,
# stderr to $tmp/err, $rc
quietly() {
    timeout "$limit" $CAPPLAN "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}

tiny=examples/tiny.yaml
scen=tests/whatif/tiny.yaml

# ---- options anywhere, per command ----

# check
quietly check --modes etl "$tiny"; cp "$tmp/out" "$tmp/check1"
quietly check "$tiny" --modes etl; cp "$tmp/out" "$tmp/check2"
same "check: --modes after the file" "$tmp/check1" "$tmp/check2"
quietly check "$tiny" -o "$tmp/check3" --modes=etl
same "check: -o after the file" "$tmp/check1" "$tmp/check3"

# plan
quietly plan -q --no-timing --method heuristic -o "$tmp/plan1.yaml" "$tiny"
r1=$rc
quietly plan "$tiny" -o "$tmp/plan2.yaml" --method heuristic --no-timing -q
if [ "$r1" = 0 ] && [ "$rc" = 0 ]; then
    same "plan f.yaml -o p.yaml (the README's order)" "$tmp/plan1.yaml" "$tmp/plan2.yaml"
else
    bad "plan: options after the files" "exit $r1 and $rc: $(oneline "$tmp/err")"
fi
quietly plan --no-timing --method heuristic -q -o "$tmp/plan3.yaml" -- "$tiny"
same "plan: -- ends the options" "$tmp/plan1.yaml" "$tmp/plan3.yaml"
quietly plan "$tiny" --format json --no-timing --method heuristic -q
cp "$tmp/out" "$tmp/plan1.json"
quietly plan --format=json "$tiny" --no-timing -q --method=heuristic
same "plan: --format after the file, --opt=value" "$tmp/plan1.json" "$tmp/out"

# verify
quietly verify --plan "$tmp/plan1.yaml" "$tiny"; cp "$tmp/out" "$tmp/verify1"
quietly verify "$tiny" --plan "$tmp/plan1.yaml"
same "verify: --plan after the files" "$tmp/verify1" "$tmp/out"
quietly verify "$tiny" -o "$tmp/verify3" --plan "$tmp/plan1.yaml"
same "verify: -o FILE" "$tmp/verify1" "$tmp/verify3"
if grep -q '^verify: OK total=' "$tmp/verify1"; then ok; else bad "verify: no OK line" "$(oneline "$tmp/verify1")"; fi

# report
quietly report "$tmp/plan1.yaml" "$tiny" -o "$tmp/report1.html"
quietly report -o "$tmp/report2.html" "$tmp/plan1.yaml" "$tiny"
same "report: -o before the plan" "$tmp/report1.html" "$tmp/report2.html"

# whatif and whatif merge
quietly whatif --scenarios "$scen" --node-limit 50 --no-timing -q --format csv "$tiny"
cp "$tmp/out" "$tmp/whatif1.csv"
quietly whatif "$tiny" --format csv --scenarios "$scen" -q --node-limit 50 --no-timing
same "whatif: options after the files" "$tmp/whatif1.csv" "$tmp/out"
for k in 0 1; do
    quietly whatif "$tiny" --shard "$k/2" -o "$tmp/shard$k.json" --scenarios "$scen" -q \
        --node-limit 50 --no-timing
done
quietly whatif merge "$tmp/shard0.json" "$tmp/shard1.json" --format csv -o "$tmp/merged.csv"
same "whatif merge: options after the shards" "$tmp/whatif1.csv" "$tmp/merged.csv"

# fit and import
quietly fit dataflow tests/fit/ernest-samples.csv -o "$tmp/fit1.yaml" --no-loo
cp "$tmp/out" "$tmp/fit1.table"
quietly fit --no-loo -o "$tmp/fit2.yaml" dataflow tests/fit/ernest-samples.csv
same "fit: options before the kind" "$tmp/fit1.yaml" "$tmp/fit2.yaml"
same "fit: the same quality table" "$tmp/fit1.table" "$tmp/out"
quietly fit -q dataflow tests/fit/ernest-samples.csv -o "$tmp/fit3.yaml" --no-loo
if [ "$rc" = 0 ] && [ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ]; then ok; else
    bad "fit -q: no quality table" "exit $rc: $(oneline "$tmp/out")"; fi
same "fit -q: the same fragment" "$tmp/fit1.yaml" "$tmp/fit3.yaml"
quietly import c3o tests/fit/c3o-sort-extract.tsv -o "$tmp/c3o1.csv"
quietly import c3o -o "$tmp/c3o2.csv" tests/fit/c3o-sort-extract.tsv
same "import: -o before the file" "$tmp/c3o1.csv" "$tmp/c3o2.csv"
quietly import c3o --quiet tests/fit/c3o-sort-extract.tsv -o "$tmp/c3o3.csv"
if [ "$rc" = 0 ] && [ ! -s "$tmp/err" ]; then ok; else
    bad "import --quiet is accepted" "exit $rc: $(oneline "$tmp/err")"; fi
same "import --quiet: the same file" "$tmp/c3o1.csv" "$tmp/c3o3.csv"
# a file an importer's option reads is an input no -o may replace
printf 'Time,Carbon Intensity\n2023-06-01 00:00:00,100\n' >"$tmp/ci.csv"
cp "$tmp/ci.csv" "$tmp/ci.keep"
quietly import series --site s --start 2023-06-01 --slots 1 --carbon "$tmp/ci.csv" -o "$tmp/ci.csv"
if [ "$rc" = 2 ] && grep -q "is the --carbon '$tmp/ci.csv': refusing to overwrite an input" "$tmp/err" &&
    cmp -s "$tmp/ci.csv" "$tmp/ci.keep"; then ok; else
    bad "import: -o the --carbon file is refused" "exit $rc: $(oneline "$tmp/err")"; fi

# place: the plan itself as the solution
quietly place --solution "$tmp/plan1.yaml" --solution-format plan --no-timing -q -o "$tmp/place1.yaml" "$tiny"
quietly place "$tiny" -o "$tmp/place2.yaml" -q --no-timing --solution-format plan --solution "$tmp/plan1.yaml"
same "place: options after the files" "$tmp/place1.yaml" "$tmp/place2.yaml"

# export: the golden inputs of suite_slurm
sed "s/@HOST@/$(hostname -s)/" tests/slurm/input.yaml >"$tmp/slurm-input.yaml"
quietly export slurm --plan tests/slurm/plan.yaml -o "$tmp/x1" "$tmp/slurm-input.yaml"
r1=$rc
quietly export slurm "$tmp/slurm-input.yaml" -o "$tmp/x2" --plan tests/slurm/plan.yaml
if [ "$r1" = 0 ] && [ "$rc" = 0 ] && diff -r "$tmp/x1" "$tmp/x2" >/dev/null; then ok
else bad "export slurm: options after the files" "exit $r1 and $rc"; fi
quietly export skypilot tests/slurm/cloud.yaml -q --plan tests/slurm/cloud.plan.yaml -o "$tmp/sky"
if [ "$rc" = 0 ] && [ ! -s "$tmp/err" ] && diff -r tests/slurm/skypilot "$tmp/sky" >/dev/null; then ok
else bad "export skypilot -q, options after the files" "exit $rc: $(oneline "$tmp/err")"; fi

# export skypilot's run: a literal block when it reads back exactly
# (PyYAML, SkyPilot's reader: tests/cli/runs_check.py), quoted otherwise
run_plan "$tmp/runs.plan.yaml" tests/cli/runs.yaml
quietly export skypilot -q --plan "$tmp/runs.plan.yaml" -o "$tmp/runs" tests/cli/runs.yaml
if ! test_have_prereq PYYAML; then skip "export skypilot: run: reads back" "$(test_why PYYAML)"
elif [ "$rc" = 0 ] && python3 tests/cli/runs_check.py tests/cli/runs.yaml "$tmp/runs" 2 >"$tmp/py" 2>&1
then ok; else bad "export skypilot: run: reads back" "exit $rc: $(oneline "$tmp/py" 5)"; fi
# resources from the importers' offer names, not the machine-type label
f=$(ls "$tmp/runs/clusters/"001-*.yaml 2>/dev/null)
if [ -n "$f" ] && grep -q '^  instance_type: n1-standard-8$' "$f" && grep -q '^  zone: us-central1-a$' "$f" &&
    grep -q '^  accelerators: V100:1$' "$f" && grep -q '^  region: us-central1$' "$f"; then ok
else bad "export skypilot: resources from the offer's name" "$(oneline "${f:-/dev/null}" 12)"; fi

# "--": what follows is a file even when it looks like an option
quietly check -- -q
if [ "$rc" = 2 ] && grep -q "^-q: error: cannot open" "$tmp/err"; then ok; else
    bad "check -- -q: -q is a file" "exit $rc: $(oneline "$tmp/err")"; fi

# ---- --quiet ----
quietly check -q "$tiny"
if [ "$rc" = 0 ] && [ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ]; then ok; else
    bad "check -q: nothing printed" "exit $rc"; fi
quietly verify "$tiny" -q --plan "$tmp/plan1.yaml"
if [ "$rc" = 0 ] && [ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ]; then ok; else
    bad "verify -q: an OK plan prints nothing" "exit $rc"; fi
quietly plan "$tiny" --method heuristic -q -o "$tmp/plan4.yaml"
if [ "$rc" = 0 ] && [ ! -s "$tmp/err" ]; then ok; else bad "plan -q: no summary" "exit $rc"; fi
# -q and --progress=debug in either order: progress lines, no summary
for order in "-q --progress=debug" "--progress=debug -q"; do
    # shellcheck disable=SC2086 # the two options, split on purpose
    quietly plan "$tiny" --method heuristic --no-timing $order -o "$tmp/plan5.yaml"
    if [ "$rc" = 0 ] && grep -q '^capplan: incumbent' "$tmp/err" && ! grep -q '^plan:' "$tmp/err"
    then ok; else bad "plan $order: progress lines, no summary" "exit $rc: $(oneline "$tmp/err" 3)"; fi
done
# --progress: a heartbeat line at least every 2 s during a 5-s search,
# elapsed, best, bound, gap and phase (the shape: tests/unit/test_progress.c),
# and none of the solvers' own lines
quietly plan --progress -q --time-limit 5 examples/nightly/*.yaml -o "$tmp/beat.yaml"
awk -v rc="$rc" '
    /^capplan: +[0-9]+\.[0-9] s  best (\$[0-9.]+|-)  bound (\$[0-9.]+|-)  gap ([0-9.]+%|-)  [a-zA-Z]/ {
        t = $2 + 0; if (t - last > 2.05) slow = slow " " last "->" t; last = t; n++; next }
    { other = other " [" $0 "]" }
    END { if (rc != 0 || n < 3 || slow != "" || other != "" || last < 4)
              { printf "exit %s, %d lines, gaps over 2 s:%s, last at %s s, other lines:%s\n", rc, n, slow, last, other; exit 1 } }' \
    "$tmp/err" >"$tmp/beat.why" && ok || bad "plan --progress: a line every 2 s" "$(oneline "$tmp/beat.why")"
# --progress alone takes no value: the next word is a file
quietly plan --progress "$tiny" --method heuristic --no-timing -q -o "$tmp/plan6.yaml"
if [ "$rc" = 0 ] && ! grep -q '^capplan: incumbent' "$tmp/err"; then ok
else bad "plan --progress FILE: FILE is an input, no solver lines" "exit $rc: $(oneline "$tmp/err" 3)"; fi
quietly plan --progress=loud "$tiny"
if [ "$rc" = 2 ] && [ "$(cat "$tmp/err")" = "capplan plan: --progress must be on or debug, got 'loud'" ]
then ok; else bad "plan --progress=loud" "exit $rc: $(oneline "$tmp/err" 3)"; fi

# ---- -h and --help, -q and --quiet: one rule (planner/cmd/opt.c) ----
for cmd in check plan verify report whatif place "whatif merge" "export slurm" \
    "import skypilot" "import gavel" "import c3o" "import series" "import inventory" \
    "import pollux" "import accelerators"; do
    # shellcheck disable=SC2086 # CMD is one or two words
    $CAPPLAN $cmd -h >"$tmp/h1" 2>&1; r1=$?
    # shellcheck disable=SC2086
    $CAPPLAN $cmd --quiet --help >"$tmp/h2" 2>&1; r2=$?
    if [ "$r1" = 0 ] && [ "$r2" = 0 ] && [ -s "$tmp/h1" ] && cmp -s "$tmp/h1" "$tmp/h2"; then ok
    else bad "$cmd: -h and --quiet --help print the same help" "exit $r1 and $r2"; fi
done

# ---- one message per mistake, in every command ----
: >"$tmp/messages"
msg() {
    printf '$ capplan %s\n' "$*" >>"$tmp/messages"
    timeout "$limit" $CAPPLAN "$@" >/dev/null 2>>"$tmp/messages"
    echo "--- exit $?" >>"$tmp/messages"
}
for cmd in check plan verify report whatif place fit; do
    msg $cmd --bogus "$tiny"
done
msg "export" slurm --bogus "$tiny"
msg "whatif" merge --bogus x.json
msg plan "$tiny" --format
msg plan "$tiny" -o
msg plan -qz "$tiny"
msg plan --format xml "$tiny"
msg place --format xml --solution x "$tiny"
msg whatif --format xml --scenarios "$scen" "$tiny"
msg whatif merge --format yaml x.json
msg plan --quiet=yes "$tiny"
msg whatif --f md --scenarios "$scen" "$tiny"
msg import gavel --bogus x.csv
msg import c3o x.tsv --quiet=1
msg import series --site
# "--" as an option's separate value is refused as a missing one (opt.c),
# not written to as a file named "--"
msg plan "$tiny" -o --
msg whatif --scenarios "$scen" -o -- "$tiny"
msg import series --site s --start 2023-06-01 --slots 2 --carbon --
# "did you mean": a mistyped command, option or import kind names the
# nearest (at most two edits, or a name it starts: models/base/cp_suggest.h);
# a word near nothing (--bogus above, xyz) gets no guess
msg plna "$tiny"
msg xyz "$tiny"
msg plan --time-limt 3 "$tiny"
msg whatif --scenaros "$scen" "$tiny"
msg check --modse etl "$tiny"
msg export slurm --paln x.yaml -o d "$tiny"
msg fit dataflow x.csv --no-lop
msg import gavle x.csv
msg import series --slot-horus 2
# plan warns about the input's mistakes that check reports too
# (cp_advice.h): no jobs (a jobs file left off the line), a $/MWh price
msg plan -q tests/check/advice-nojobs.yaml
msg plan -q examples/nightly/sites.yaml examples/nightly/fleet.yaml
msg plan -q tests/check/advice-spot.yaml
# the plan and its inputs in the wrong order: one hint, nothing loaded
msg report tests/verify/input.yaml tests/verify/budget.plan.yaml
msg verify tests/verify/budget.plan.yaml tests/verify/input.yaml
msg verify --plan tests/verify/input.yaml tests/verify/budget.plan.yaml
# an output whose folder does not exist: said before any planning
msg plan -o no-such-folder/plan.yaml "$tiny"
msg whatif --scenarios "$scen" -o no-such-folder/table.md "$tiny"
test_cmp tests/cli/messages.expected "$tmp/messages"
if [ -e ./-- ]; then bad "plan -o --: a file named -- was written"; rm -f ./--; else ok; fi

# ---- contradictions: check's errors, plan's reason ----
for c in cap budget; do
    f=tests/bad/contradiction-$c.yaml
    quietly check "$f"
    want=$(sed 's/^[^ ]*: error: //' "$tmp/err")
    crc=$rc
    quietly plan -q --no-timing -o "$tmp/infeasible-$c.yaml" "$f"
    got=$(sed -n 's/^capplan plan: no feasible plan exists: //p' "$tmp/err")
    if [ "$crc" = 2 ] && [ "$rc" = 3 ] && [ -n "$want" ] && [ "$got" = "$want" ]; then ok
    else bad "contradiction-$c: plan's reason is check's error" "check exit $crc, plan exit $rc: '$got' vs '$want'"; fi
    if [ "$(plan_status "$tmp/infeasible-$c.yaml")" = infeasible ]; then ok; else
        bad "contradiction-$c: status infeasible"; fi
done
# verify: the infeasible plans are OK, a claim the inputs do not back is not
quietly verify --plan "$tmp/infeasible-cap.yaml" tests/bad/contradiction-cap.yaml
if [ "$rc" = 0 ] && grep -q '^verify: OK status=infeasible' "$tmp/out"; then ok; else
    bad "verify of an infeasible plan" "exit $rc: $(oneline "$tmp/out")"; fi
quietly verify --plan "$tmp/infeasible-cap.yaml" "$tiny"
if [ "$rc" = 1 ] && grep -q ': violation: status is infeasible, but no site.s idle baseline reaches its power cap and there is no budget' "$tmp/out"; then ok; else
    bad "verify: an unfounded infeasible claim" "exit $rc: $(oneline "$tmp/out" 3)"; fi
quietly verify --plan "$tmp/infeasible-budget.yaml" "$tiny"
if [ "$rc" = 1 ]; then ok; else bad "verify: an unfounded infeasible claim (budget plan)" "exit $rc"; fi
if grep -q "site 'dc'.*slot 1 and 1 more slot up to slot 3" tests/bad/contradiction-cap.err; then ok
else bad "contradiction-cap: the error names the site and the slots"; fi

# ---- warnings for keys without effect, and the margin's drop ----
capture "$tmp/actual" check tests/cli/confidence.yaml
test_cmp tests/cli/confidence.expected "$tmp/actual"
quietly plan -q --no-timing tests/cli/confidence.yaml
if grep -q 'the margin makes it too long' "$tmp/out"; then ok; else
    bad "plan: the margin's drop names the margin" "$(grep -A1 'name: margin' "$tmp/out" | oneline /dev/stdin)"; fi
if [ "$(grep -c ': warning: ' "$tmp/err")" = 6 ]; then ok; else
    bad "plan prints the load's warnings" "$(oneline "$tmp/err")"; fi

# ---- check --modes --top: the cheapest modes first, the rest counted ----
# tests/cli/modes-top.yaml derives the order and the costs by hand
capture "$tmp/actual" check --modes j --top 3 tests/cli/modes-top.yaml
test_cmp tests/cli/modes-top.expected "$tmp/actual"
quietly check --modes j --top 0 tests/cli/modes-top.yaml
sed -n '/^      resource /,/^      (cost/p' "$tmp/out" | awk 'NR > 1 && !/^      \(/ {print $1, $3, $NF == "cheapest" ? $(NF - 2) : $NF}' >"$tmp/order"
printf '%s\n' "a1 2 1" "a2 2 2" "a1 1 2" "a3 2 3" "a4 2 4" "a2 1 4" "a3 1 6" "a4 1 8" >"$tmp/order.exp"
if [ "$rc" = 0 ] && diff -u "$tmp/order.exp" "$tmp/order" && ! grep -q 'more (--top' "$tmp/out"; then ok
else bad "check --top 0: all 8 modes, cheapest first" "exit $rc: $(oneline "$tmp/order" 8)"; fi
usage_fails "check --top -1" check --modes j --top -1 tests/cli/modes-top.yaml

# ---- man pages and --help ----
for page in capplan.1 capplan.5; do
    if ! test_have_prereq MAN; then
        skip "man --warnings -l $page" "$(test_why MAN)"
    elif [ -f "$page" ]; then
        MANWIDTH=80 man --warnings -l "$page" >"$tmp/man.out" 2>"$tmp/man.err"
        if [ $? = 0 ] && [ ! -s "$tmp/man.err" ] && [ -s "$tmp/man.out" ]; then ok; else
            bad "man --warnings -l $page" "$(oneline "$tmp/man.err" 5)"; fi
    else
        bad "$page is missing"
    fi
done
for cmd in check plan verify fit import report whatif place export; do
    if $CAPPLAN $cmd --help 2>&1 | grep -q 'man \./capplan\.1'; then ok; else
        bad "$cmd --help does not name 'man ./capplan.1'"; fi
done
for kind in skypilot gavel c3o pollux series inventory accelerators; do
    if $CAPPLAN import $kind --help 2>&1 | grep -q 'man \./capplan\.1'; then ok; else
        bad "import $kind --help does not name 'man ./capplan.1'"; fi
done
if $CAPPLAN --help | grep -q 'man \./capplan\.1'; then ok; else bad "capplan --help: no 'man ./capplan.1'"; fi

test_done
