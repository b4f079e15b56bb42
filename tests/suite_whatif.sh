#!/bin/sh
# Tests of `capplan whatif` (capplan.5 §8, docs/whatif.md):
#  - tests/whatif/kinds.yaml on tests/whatif/input.yaml, one scenario per
#    kind of change: totals and statuses against the hand-derived
#    `expect-total:` / `expect-status:` header lines, and the md, csv and
#    json tables against goldens (kinds.{md,csv,json});
#  - every emitted input (--emit-inputs) planned by `capplan plan` gives
#    the row's figures; an invalid one fails `plan` with the row's error;
#  - errors in the scenario file and paths matching nothing: goldens of
#    stderr and exit status (NAME.err for tests/whatif/NAME.yaml);
#  - -j 1 and -j 2 byte-identical; emitted inputs are a fixed point;
#    usage errors; --report; SIGINT gives exit 130 and a table.
# `sh tests/suite_whatif.sh --update` (or CP_GOLDEN_UPDATE=1) rewrites the
# goldens that differ (review the diff). The tables hold sums, compared
# within 1e-9 relative (test_cmp_num); error goldens byte for byte.
SUITE=whatif
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
IN=tests/whatif/input.yaml
KINDS=tests/whatif/kinds.yaml

# ---- the kinds table: three formats, hand totals, statuses -------------
for f in md csv json; do
    $CAPPLAN whatif -q --format $f --scenarios $KINDS -o "$tmp/kinds.$f" $IN 2>"$tmp/err"
    rc=$?
    if [ $rc = 0 ] && [ ! -s "$tmp/err" ]; then ok; else bad "kinds --format $f: exit $rc"; cat "$tmp/err"; fi
    test_cmp_num tests/whatif/kinds.$f "$tmp/kinds.$f"
done
# md is the default format
$CAPPLAN whatif -q --scenarios $KINDS $IN >"$tmp/default.md" 2>/dev/null
if cmp -s "$tmp/default.md" "$tmp/kinds.md"; then ok; else bad "md is not the default format"; fi

csv_col() { # csv_col FILE ROWNAME COLUMN: the value of a column (no quoted fields before it)
    awk -F, -v r="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
        $1 == r { print $k }' "$1"
}
# expect SCENARIOS TABLE.csv [MIN]: the header lines `# expect-total: ROW X`
# (hand-derived, 1e-9 relative) and `# expect-status: ROW S`; every row
# has one, and there are at least MIN of them (default 9).
expect() {
    n_expect=0
    while read -r _ what name value; do
        n_expect=$((n_expect + 1))
        if [ "$what" = "expect-total:" ]; then
            got=$(csv_col "$2" "$name" total)
            if num_eq "$got" "$value" 1e-9 1e-9; then
                ok
            else
                bad "$1: row $name total '$got', hand-derived $value"
            fi
        else
            got=$(csv_col "$2" "$name" status)
            if [ "$got" = "$value" ]; then ok; else bad "$1: row $name status '$got', expected $value"; fi
        fi
    done <<EOF_EXPECT
$(grep -E '^# expect-(total|status): ' "$1")
EOF_EXPECT
    rows=$(($(wc -l <"$2") - 1))
    if [ "$n_expect" -ge "${3:-9}" ] && [ "$rows" = "$n_expect" ]; then ok; else bad "$1: $rows rows, $n_expect expectations"; fi
}
expect $KINDS "$tmp/kinds.csv"

# ---- every row equals `capplan plan` on its emitted input ---------------
# plan_vs_row TABLE.csv DIR [plan options]: for each row, plan DIR/NAME.yaml
plan_vs_row() {
    table=$1 dir=$2
    shift 2
    tail -n +2 "$table" | while IFS=, read -r name status rest; do
        name=$(printf '%s' "$name" | tr -d '"')
        if [ "$status" = invalid ]; then
            $CAPPLAN plan -q "$@" "$dir/$name.yaml" >/dev/null 2>"$tmp/perr"
            rc=$?
            msg=$(sed -n 's/^[^ ]*: error: //p' "$tmp/perr" | head -n 1)
            err=$(grep -F "$name,invalid," "$table" | head -n 1)
            case "$err" in
            *"$msg"*) [ $rc = 2 ] && [ -n "$msg" ] && echo "PASS $name" || echo "FAIL $name: invalid row but plan exit $rc" ;;
            *) echo "FAIL $name: plan says '$msg', the row does not" ;;
            esac
            continue
        fi
        $CAPPLAN plan -q "$@" "$dir/$name.yaml" >"$tmp/plan.yaml" 2>/dev/null
        same=1
        for key in total cloud energy carbon penalty energy_kwh carbon_kg; do
            want=$(csv_col "$table" "$name" $key)
            got=$(sed -n '/^totals:/,/^jobs:/p' "$tmp/plan.yaml" | sed -n "s/^  $key: //p")
            [ "$want" = "$got" ] || { same=0; echo "FAIL $name: $key row '$want', plan '$got'"; }
        done
        # egress (capplan.5 §9.3): plans without data locations leave totals.egress out
        want=$(csv_col "$table" "$name" egress)
        got=$(sed -n '/^totals:/,/^jobs:/p' "$tmp/plan.yaml" | sed -n "s/^  egress: //p")
        [ "$want" = "${got:-0}" ] || { same=0; echo "FAIL $name: egress row '$want', plan '$got'"; }
        st=$(sed -n 's/^status: //p' "$tmp/plan.yaml")
        [ "$st" = "$status" ] || { same=0; echo "FAIL $name: status row '$status', plan '$st'"; }
        [ $same = 1 ] && echo "PASS $name"
    done >"$tmp/pvr"
    p=$(grep -c '^PASS' "$tmp/pvr")
    f=$(grep -c '^FAIL' "$tmp/pvr")
    pass=$((pass + p))
    fail=$((fail + f))
    grep '^FAIL' "$tmp/pvr"
    [ "$p" -gt 0 ] || bad "plan_vs_row $table: nothing compared"
}
$CAPPLAN whatif -q --format csv --scenarios $KINDS --emit-inputs "$tmp/emit" -o "$tmp/k.csv" $IN 2>/dev/null
plan_vs_row "$tmp/k.csv" "$tmp/emit"
# Version 1.1 keys (tests/whatif/spec11.yaml): egress prices, data size and
# site, shape fields (defaults included); hand totals, goldens, the
# emitted inputs re-planned (egress column included)
S11=tests/whatif/spec11.yaml S11IN=tests/whatif/spec11-input.yaml
for f in md csv json; do
    $CAPPLAN whatif -q --format $f --scenarios $S11 -o "$tmp/s11.$f" $S11IN 2>"$tmp/err"
    rc=$?
    if [ $rc = 0 ] && [ ! -s "$tmp/err" ]; then ok; else bad "spec11 --format $f: exit $rc"; cat "$tmp/err"; fi
    test_cmp_num tests/whatif/spec11.$f "$tmp/s11.$f"
done
expect $S11 "$tmp/s11.csv"
for r in baseline:0.09 egress-x2:0 big-gb-tenth:0.18 big-data-at-lab:0.09; do
    got=$(csv_col "$tmp/s11.csv" "${r%%:*}" egress)
    if num_eq "$got" "${r#*:}" 1e-9 1e-12; then ok; else bad "spec11: row ${r%%:*} egress '$got', hand-derived ${r#*:}"; fi
done
$CAPPLAN whatif -q --format csv --scenarios $S11 --emit-inputs "$tmp/emit11" -o "$tmp/k11.csv" $S11IN 2>/dev/null
plan_vs_row "$tmp/k11.csv" "$tmp/emit11"
# version 1.2 keys (tests/whatif/spec12.yaml, spec12-teams.yaml): power
# limits (defaults included), team quotas and budgets
S12=tests/whatif/spec12.yaml S12IN=tests/plan/power_limit_dear.yaml
$CAPPLAN whatif -q --format csv --scenarios $S12 --emit-inputs "$tmp/emit12" -o "$tmp/s12.csv" $S12IN 2>"$tmp/err"
rc=$?
if [ $rc = 0 ] && [ ! -s "$tmp/err" ]; then ok; else bad "spec12: exit $rc"; cat "$tmp/err"; fi
expect $S12 "$tmp/s12.csv" 3
plan_vs_row "$tmp/s12.csv" "$tmp/emit12"
S12T=tests/whatif/spec12-teams.yaml S12TIN=tests/plan/team_quota_cloud.yaml
$CAPPLAN whatif -q --format csv --scenarios $S12T --emit-inputs "$tmp/emit12t" -o "$tmp/s12t.csv" $S12TIN 2>"$tmp/err"
rc=$?
if [ $rc = 0 ] && [ ! -s "$tmp/err" ]; then ok; else bad "spec12-teams: exit $rc"; cat "$tmp/err"; fi
expect $S12T "$tmp/s12t.csv" 5
plan_vs_row "$tmp/s12t.csv" "$tmp/emit12t"
# each team's cost (capplan.5 §10.2), hand-derived per row, in the csv,
# the json and the md (to the cent); two shards merge into the same table
while read -r _ _ row team want; do
    got=$(csv_col "$tmp/s12t.csv" "$row" "team_cost:$team")
    if num_eq "$got" "$want" 1e-9 1e-12; then ok; else bad "spec12-teams: row $row team $team cost '$got', hand-derived $want"; fi
done <<EOF_TEAMS
$(grep -E '^# expect-team: ' $S12T)
EOF_TEAMS
$CAPPLAN whatif -q --format json --scenarios $S12T -o "$tmp/s12t.json" $S12TIN 2>/dev/null
if grep -q '"teams": \[ "vision"\]' "$tmp/s12t.json" &&
    [ "$(grep -A1 '"team_cost": {' "$tmp/s12t.json" | grep -c '"vision": ')" = 5 ]; then ok
else bad "spec12-teams: json lacks teams or quota-0's team_cost"; fi
$CAPPLAN whatif -q --scenarios $S12T -o "$tmp/s12t.md" --report "$tmp/s12t.html" $S12TIN 2>/dev/null
if grep -q '<th class="n">team vision</th>' "$tmp/s12t.html" &&
    grep -q '<tr><td>quota-0</td>.*<td class="n">0</td><td class="n">\$2.00</td>' "$tmp/s12t.html"; then ok
else bad "spec12-teams: the html table lacks vision's cost"; fi
if grep -q '| dropped | vision \$ |' "$tmp/s12t.md" && grep -q '^| quota-0 | optimal |.* | 0 | 2.00 |' "$tmp/s12t.md"; then ok
else bad "spec12-teams: md lacks the vision \$ column"; fi
for k in 0 1; do
    $CAPPLAN whatif -q --shard $k/2 --scenarios $S12T -o "$tmp/s12t-shard$k.json" $S12TIN 2>/dev/null
done
$CAPPLAN whatif merge --format csv -o "$tmp/s12t-merged.csv" "$tmp/s12t-shard0.json" "$tmp/s12t-shard1.json" 2>"$tmp/err"
if cmp -s "$tmp/s12t.csv" "$tmp/s12t-merged.csv"; then ok; else bad "spec12-teams: merged shards differ from the run" "$(oneline "$tmp/err")"; fi
# the baseline row is also `plan` on the original files
$CAPPLAN plan -q $IN >"$tmp/orig.yaml"
if [ "$(plan_total "$tmp/orig.yaml")" = "$(csv_col "$tmp/k.csv" baseline total)" ]; then ok; else bad "baseline row differs from plan on the input"; fi
# the emitted defaults-included change is visible in the input: deadline 4 - 3
if grep -c '^  deadline_hour: 1$' "$tmp/emit/default-deadline.yaml" | grep -qx 2; then ok; else bad "default-deadline.yaml lacks the two materialised deadlines"; fi

# Several files (the nightly example: quoted names, five files merged),
# with the fast heuristic so this stays quick.
NIGHTLY="examples/nightly/fleet.yaml examples/nightly/jobs-dataflow.yaml examples/nightly/jobs-training.yaml examples/nightly/offers.yaml examples/nightly/sites.yaml examples/nightly/teams.yaml"
$CAPPLAN whatif -q --method heuristic --format csv --scenarios examples/nightly-whatif.yaml \
    --emit-inputs "$tmp/n-emit" -o "$tmp/n1.csv" $NIGHTLY 2>"$tmp/err" || { bad "nightly whatif"; cat "$tmp/err"; }
plan_vs_row "$tmp/n1.csv" "$tmp/n-emit" --method heuristic

# ---- -j 1 and -j 2 give the same bytes ---------------------------------
$CAPPLAN whatif -q -j 2 --format json --scenarios $KINDS -o "$tmp/j2.json" $IN 2>/dev/null
if cmp -s "$tmp/j2.json" "$tmp/kinds.json"; then ok; else bad "-j 2 differs from -j 1 (kinds)"; fi
$CAPPLAN whatif -q -j 2 --method heuristic --format csv --scenarios examples/nightly-whatif.yaml -o "$tmp/n2.csv" $NIGHTLY 2>/dev/null
if cmp -s "$tmp/n1.csv" "$tmp/n2.csv"; then ok; else bad "-j 2 differs from -j 1 (nightly, heuristic)"; fi
$CAPPLAN whatif -q --node-limit 50 --format csv --scenarios tests/whatif/tiny.yaml -o "$tmp/t1.csv" examples/tiny.yaml 2>/dev/null
$CAPPLAN whatif -q -j 3 --node-limit 50 --format csv --scenarios tests/whatif/tiny.yaml -o "$tmp/t3.csv" examples/tiny.yaml 2>/dev/null
if [ -s "$tmp/t1.csv" ] && cmp -s "$tmp/t1.csv" "$tmp/t3.csv"; then ok; else bad "-j 3 differs from -j 1 (tiny, milp)"; fi
expect tests/whatif/tiny.yaml "$tmp/t1.csv"

# ---- emitted inputs are a fixed point ----------------------------------
$CAPPLAN whatif -q --scenarios $KINDS --emit-inputs "$tmp/emit2" "$tmp/emit/baseline.yaml" >/dev/null 2>&1
if cmp -s "$tmp/emit/baseline.yaml" "$tmp/emit2/baseline.yaml" &&
    cmp -s "$tmp/emit/add-job.yaml" "$tmp/emit2/add-job.yaml"; then ok; else bad "emit -> read -> emit is not a fixed point"; fi

# ---- errors: goldens of stderr and exit status -------------------------
for s in errors shape; do
    $CAPPLAN whatif -q --scenarios tests/whatif/$s.yaml $IN >"$tmp/out" 2>"$tmp/err"
    rc=$?
    { cat "$tmp/err"; echo "--- exit $rc"; } >"$tmp/actual"
    test_cmp tests/whatif/$s.err "$tmp/actual"
    if [ ! -s "$tmp/out" ]; then ok; else bad "$s: a table was written"; fi
done

# ---- usage --------------------------------------------------------------
usage_fails "usage: no --scenarios" whatif $IN
usage_fails "usage: no inputs" whatif --scenarios $KINDS
usage_fails "usage: bad format" whatif --format yaml --scenarios $KINDS $IN
usage_fails "usage: export-lp" whatif --export-lp "$tmp/x.lp" --scenarios $KINDS $IN
usage_fails "usage: -j 0" whatif -j 0 --scenarios $KINDS $IN
usage_fails "usage: bad method" whatif --method nope --scenarios $KINDS $IN
usage_fails "usage: missing scenario file" whatif --scenarios "$tmp/none.yaml" $IN
usage_fails "usage: bad input" whatif --scenarios $KINDS $KINDS
usage_fails "usage: unknown option" whatif --frobnicate --scenarios $KINDS $IN
if $CAPPLAN whatif --help | grep -q '^usage: capplan whatif'; then ok; else bad "--help"; fi

# ---- --report: an HTML page naming every scenario -----------------------
$CAPPLAN whatif -q --scenarios $KINDS --report "$tmp/w.html" -o "$tmp/w.md" $IN 2>"$tmp/err"
rc=$?
missing=0
for n in baseline set-nodes-0 wild-spot "price=5" bad-work; do
    grep -qF "$n" "$tmp/w.html" 2>/dev/null || missing=$((missing + 1))
done
if [ $rc = 0 ] && [ $missing = 0 ] && cmp -s "$tmp/w.md" "$tmp/kinds.md"; then ok; else bad "--report (exit $rc, $missing names missing)"; cat "$tmp/err"; fi

# ---- SIGINT while planning: exit 130, the table with interrupted rows ---
# (a shell starts a background job with SIGINT ignored, and capplan keeps an
# ignored signal ignored: env gives it the default disposition back)
env --default-signal=INT $CAPPLAN whatif -q --time-limit 60 --scenarios examples/nightly-whatif.yaml -o "$tmp/int.md" $NIGHTLY 2>"$tmp/err" &
pid=$!
# under memcheck (`make valgrind`, CP_VALGRIND=1) loading alone takes longer
if [ "${CP_VALGRIND:-0}" = 1 ]; then sleep 20; else sleep 2; fi
kill -INT $pid
wait $pid
rc=$?
if [ $rc = 130 ] && [ "$(grep -c '^| ' "$tmp/int.md" 2>/dev/null)" = 8 ] &&
    grep -q '| interrupted |' "$tmp/int.md"; then ok; else bad "SIGINT: exit $rc"; cat "$tmp/err"; fi

test_done
