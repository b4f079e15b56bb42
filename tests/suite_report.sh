#!/bin/sh
# Tests of `capplan report` (and of the what-if page, rendered by the unit
# test binary from a hand-built table):
#  - structure: plans of examples/tiny.yaml, some tests/plan cases, the
#    nightly example (heuristic) and a generated 1,200-job instance are
#    drawn; every scheduled job has a bar with a <title> in the Gantt
#    chart; the page and every <svg> in it are well-formed XML
#    (xmllint); the HTML parser finds nothing but HTML5/SVG tag names it
#    does not know; no script, no URL; the same page twice;
#  - leases (capplan.5 §5, version 1.1): in the pages of planned nights (nightly, a
#    cloud-heavy bench/gen night) every lease of the plan has its lease
#    bar with its id in a <title>, every job still exactly one bar, and
#    the rows' lease counts add up; tests/report/leases.plan.yaml
#    (hand-written: a reused lane, a job on two instances, a job in no
#    lease, a name the plan lacks, hostile ids) checks lanes, parts,
#    titles, subtitles, the markets table and escaping; stripped of its
#    leases (a 1.0 plan) it draws today's lanes;
#  - labels: on the nightly and cloud nights every scheduled job has one
#    bar, linked to its row of the open jobs table (with every node the
#    bar's title names), and every bar its name or its key
#    (tests/report/labels.awk); the instances chart's axis counts whole
#    instances;
#  - errors: golden stderr and exit status for tests/report/NAME.args
#    (`sh tests/suite_report.sh --update` or CP_GOLDEN_UPDATE=1 rewrites
#    the .expected files that differ; review the diff);
#  - a real browser: headless Chromium (Debian's `chromium`, which `make
#    browser-deps` installs and `make test` runs first) loads the pages
#    from files; the run must exit 0 with no console error, and the
#    screenshot must not be blank (much larger than a blank page's of the
#    same size). CP_REPORT_SHOTS=DIR keeps the screenshots there, to look
#    at. Without Chromium (and always under `make check`) the browser
#    test is one skipped check, with the reason; under `make test` a skip
#    is a failure.
SUITE=report
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
test_require XMLLINT
names_from=

# Scheduled job names of a YAML plan, one per line (unquoted).
scheduled_names() {
    awk '/^- name: /{n=substr($0, 9); gsub(/^'"'"'|'"'"'$/, "", n)}
         /^  status: scheduled/{print n}' "$1"
}

# check_page LABEL PAGE [PLAN.yaml]: structural checks of one page; with a
# plan, also that every scheduled job of it has its bar in the Gantt chart.
check_page() {
    label=$1 page=$2 plan=${3:-}
    if [ ! -s "$page" ]; then bad "$label" "no page written"; return; fi
    if grep -qiE '<script|https?://|url\(|@import|src=|<link|<iframe|<object' "$page"; then
        bad "$label" "a script or an external reference"
    else ok; fi
    if xmllint --noout "$page" 2>"$tmp/xml.err"; then ok; else
        bad "$label" "not well-formed XML: $(head -n 3 "$tmp/xml.err")"; fi
    # libxml2's HTML parser is HTML4: it names HTML5 and SVG elements it
    # does not know; anything else it says is a failure.
    xmllint --html --noout "$page" 2>"$tmp/html.err"
    grep -E '^[^ ]+:[0-9]+: (HTML parser|parser) (error|warning)' "$tmp/html.err" |
        grep -vE 'Tag (svg|g|rect|line|polyline|path|text|title|circle|section|header|footer|details|summary) invalid' \
        >"$tmp/html.bad"
    if [ -s "$tmp/html.bad" ]; then bad "$label" "HTML parser: $(head -n 3 "$tmp/html.bad")"; else ok; fi
    rm -f "$tmp"/svg*.svg
    awk -v dir="$tmp" '/^<svg /{n++; f=sprintf("%s/svg%03d.svg", dir, n)}
        f{print > f} /^<\/svg>/{close(f); f=""}' "$page"
    nsvg=$(grep -c '^<svg ' "$page")
    nfile=$(ls "$tmp"/svg*.svg 2>/dev/null | wc -l)
    bad_svg=0
    for s in "$tmp"/svg*.svg; do
        [ -f "$s" ] || continue
        xmllint --noout "$s" 2>/dev/null || bad_svg=$((bad_svg + 1))
    done
    if [ "$nsvg" = "$nfile" ] && [ $bad_svg = 0 ]; then ok; else
        bad "$label" "$nsvg <svg> elements, $nfile extracted, $bad_svg not well-formed"; fi
    [ -n "$plan" ] || return
    scheduled_names "$plan" >"$tmp/names"
    gantt=$(grep -l 'aria-label="Gantt chart' "$tmp"/svg*.svg 2>/dev/null | head -n 1)
    n=$(wc -l <"$tmp/names")
    if [ "$n" = 0 ]; then
        if grep -q 'No job is scheduled' "$page"; then ok; else bad "$label" "no 'No job is scheduled'"; fi
        return
    fi
    if [ -z "$gantt" ]; then bad "$label" "no Gantt chart"; return; fi
    missing=0
    while IFS= read -r name; do
        grep -qF "class=\"bar\"><title>$name" "$gantt" || { missing=$((missing + 1)); echo "  no bar for '$name'"; }
    done <"$tmp/names"
    bars=$(grep -c 'class="bar"><title>' "$gantt")
    if [ $missing = 0 ] && [ "$bars" = "$n" ]; then ok; else
        bad "$label" "$n scheduled jobs, $bars bars, $missing jobs without a bar"; fi
}

# Lease ids of a YAML plan, one per line, as the page writes them when
# they need no escaping (the planner's ids: MARKET/i, OFFER:spot/i).
lease_ids() {
    sed -n "s/^  - id: //p" "$1" | sed "s/^'\(.*\)'$/\1/" | sort
}

# check_leases LABEL PAGE PLAN.yaml: every lease of the plan has one lease
# bar with its id first in its title, and the market rows' subtitles
# count them all; the plan must have leases.
check_leases() {
    label=$1 page=$2 plan=$3
    lease_ids "$plan" >"$tmp/lease.want"
    awk '/aria-label="Gantt chart/{f=1} f{print} f&&/^<\/svg>/{exit}' "$page" >"$tmp/lease.svg"
    sed -n 's/.*class="lease"><title>//p' "$tmp/lease.svg" | sort >"$tmp/lease.got"
    n=$(wc -l <"$tmp/lease.want")
    if [ "$n" -gt 0 ] && cmp -s "$tmp/lease.want" "$tmp/lease.got"; then ok; else
        bad "$label" "$n leases in the plan, $(wc -l <"$tmp/lease.got") lease bars, ids differ: $(diff "$tmp/lease.want" "$tmp/lease.got" | head -n 4 | tr '\n' ' ')"; fi
    counted=$(sed -n 's/.*class="sub">\([0-9]*\) leases\{0,1\} on [0-9]* instances\{0,1\}.*/\1/p' "$tmp/lease.svg" |
        awk '{s += $1} END {print s + 0}')
    if [ "$counted" = "$n" ]; then ok; else bad "$label" "the rows' subtitles count $counted leases, the plan has $n"; fi
    # each lease's title names as many jobs as the plan lists for it
    awk '/^  - id: /{l++} /^    jobs: \[/{s = $0; while (s !~ /\]/ && (getline t) > 0) s = s t; sub(/^ *jobs: \[/, "", s); print gsub(/,/, ",", s) + (s ~ /[^] ]/)}' \
        "$plan" | sort -n | uniq -c >"$tmp/ljobs.want"
    grep -E '^[0-9]+ jobs?(: |$)' "$tmp/lease.svg" | sed 's/ .*//' | sort -n | uniq -c >"$tmp/ljobs.got"
    if cmp -s "$tmp/ljobs.want" "$tmp/ljobs.got"; then ok; else
        bad "$label" "job counts of the lease titles differ from the plan's: $(diff "$tmp/ljobs.want" "$tmp/ljobs.got" | head -n 4 | tr '\n' ' ')"; fi
}

# plan_case LABEL PLAN_ARGS...: plans (yaml) into $tmp/LABEL.plan.yaml
plan_case() {
    label=$1; shift
    run_plan "$tmp/$label.plan.yaml" "$@"
    if [ $rc != 0 ] && [ $rc != 3 ]; then bad "$label" "plan exit $rc: $(oneline "$tmp/err")"; return 1; fi
    return 0
}

# report_case LABEL PLAN [FILE...]: draws and checks the page
# check_labels LABEL PAGE PLAN: every scheduled job of PLAN has one bar,
# linked to its row of the jobs table (#job-K), and every bar a label: its
# name, or its key with as much of the name as fits, or its key alone,
# inside or just right of the bar (docs/report.md, "Labels";
# tests/report/labels.awk); the table is open, so that it prints. On the
# nightly plan some labels are cut, some keys alone and some outside:
# each way is drawn at least once.
check_labels() {
    label=$1 page=$2 plan=$3
    n=$(scheduled_names "$plan" | wc -l | tr -d ' ')
    awk -f tests/report/labels.awk "$page" >"$tmp/labels"
    last=$(tail -n 1 "$tmp/labels")
    if [ "$(wc -l <"$tmp/labels" | tr -d ' ')" = 1 ] &&
        echo "$last" | grep -q "^bars $n keys $n rows $n "; then ok
    else bad "$label: labels" "$n scheduled: $(oneline "$tmp/labels" 4)"; fi
    if [ "$label" = nightly ]; then
        if echo "$last" | awk '{exit !($8 > 0 && $10 > 0 && $12 > 0)}'; then ok
        else bad "$label: labels" "not every kind of label drawn: $last"; fi
    fi
    if grep -q '^<details open="">$' "$page"; then ok
    else bad "$label: labels" "the jobs table is folded (it would not print)"; fi
    # what a bar's title says is printed in its row: its nodes (every one)
    job=$(awk '/^- name: /{n=substr($0, 9)} /^  nodes: \[/{print n; exit}' "$plan")
    nodes=$(awk -v j="$job" '/^- name: /{n=substr($0, 9)} n == j && /^  nodes: \[/{
        s = $0; sub(/^  nodes: \[/, "", s); sub(/\]$/, "", s); gsub(/'"'"'/, "", s); print s; exit}' "$plan")
    if [ -n "$nodes" ] && grep -qF "<td>$job</td>" "$page" &&
        grep "<td>$job</td>" "$page" | grep -qF "<td>$nodes</td></tr>"; then ok
    else bad "$label: labels" "the jobs table does not list '$job''s nodes '$nodes'"; fi
}

report_case() {
    label=$1 plan=$2; shift 2
    if $CAPPLAN report "$plan" "$@" -o "$tmp/$label.html" 2>"$tmp/rep.err"; then ok; else
        bad "$label" "report failed: $(head -n 3 "$tmp/rep.err")"; return; fi
    if [ -s "$tmp/rep.err" ]; then bad "$label" "report wrote to stderr: $(head -n 3 "$tmp/rep.err")"; else ok; fi
    check_page "$label" "$tmp/$label.html" "${names_from:-$plan}"
}

# ---- structure -----------------------------------------------------------------
plan_case tiny examples/tiny.yaml && {
    report_case tiny "$tmp/tiny.plan.yaml" examples/tiny.yaml
    report_case tiny-alone "$tmp/tiny.plan.yaml"
    # with the inputs: verify's verdict, kinds and wall clock; alone: neither
    if grep -q 'capplan verify against the inputs: OK' "$tmp/tiny.html" &&
        grep -q 'dataflow on rack (pool)' "$tmp/tiny.html" && grep -q '06-06 00:00' "$tmp/tiny.html" &&
        ! grep -q 'capplan verify' "$tmp/tiny-alone.html" && ! grep -q 'dataflow on' "$tmp/tiny-alone.html"; then ok
    else bad tiny "inputs do not add verify, kinds and wall clock (or the plan alone shows them)"; fi
    # JSON plans draw the same bars
    $CAPPLAN plan -q --no-timing --format json -o "$tmp/tiny.plan.json" examples/tiny.yaml
    names_from="$tmp/tiny.plan.yaml"
    report_case tiny-json "$tmp/tiny.plan.json" examples/tiny.yaml
    names_from=
    if [ "$(grep -c 'class="bar"><title>' "$tmp/tiny-json.html")" = "$(grep -c 'class="bar"><title>' "$tmp/tiny.html")" ] &&
        [ "$(grep -c 'class="lease"><title>' "$tmp/tiny-json.html")" = "$(grep -c 'class="lease"><title>' "$tmp/tiny.html")" ]; then ok
    else bad tiny-json "bars or leases differ from the YAML plan's"; fi
    # deterministic, and standard output by default
    $CAPPLAN report "$tmp/tiny.plan.yaml" examples/tiny.yaml >"$tmp/tiny2.html"
    if cmp -s "$tmp/tiny.html" "$tmp/tiny2.html"; then ok; else bad tiny "two runs differ (or stdout differs from -o)"; fi
}
# Markup in a job name is escaped everywhere (the page stays well-formed).
sed 's/name: etl$/name: "e<t>l \&amp; '"'"'x'"'"' \\"y\\" \\u00e9"/' examples/tiny.yaml >"$tmp/odd.yaml"
if plan_case odd "$tmp/odd.yaml"; then
    $CAPPLAN report "$tmp/odd.plan.yaml" "$tmp/odd.yaml" -o "$tmp/odd.html"
    check_page odd "$tmp/odd.html"
    if grep -qF 'class="bar"><title>e&lt;t&gt;l &amp;amp; &#39;x&#39; &quot;y&quot; '"$(printf '\303\251')" "$tmp/odd.html" &&
        ! grep -q 'e<t>' "$tmp/odd.html"; then ok
    else bad odd "the job name is not escaped in its bar's title"; fi
fi
for c in power_cap spot_cheap drop_full multinode maintenance; do
    plan_case "$c" "tests/plan/$c.yaml" && report_case "$c" "$tmp/$c.plan.yaml" "tests/plan/$c.yaml"
done
if grep -q 'class="cap"' "$tmp/power_cap.html" 2>/dev/null; then ok; else bad power_cap "no cap line"; fi
if $CAPPLAN report "$tmp/power_cap.plan.yaml" 2>/dev/null | grep -q 'class="cap"'; then
    bad power_cap "a cap line without the inputs"; else ok; fi
if grep -q 'aria-label="Stacked columns of cloud instances' "$tmp/spot_cheap.html" 2>/dev/null; then ok
else bad spot_cheap "no instances chart"; fi
# its axis counts whole instances: one instance at most gives the ticks 0
# and 1, not 0, 0.2, ..., 1
ticks=$(sed -n '/aria-label="Stacked columns of cloud instances/,/<\/svg>/p' "$tmp/spot_cheap.html" 2>/dev/null |
    sed -n 's/.*text-anchor="end">\([^<]*\)<.*/\1/p' | tr '\n' ' ')
if [ "$ticks" = "0 1 " ]; then ok; else bad spot_cheap "instance axis ticks '$ticks', expected '0 1 '"; fi
dropped=$(awk '/^- name: /{n=substr($0, 9)} /^  status: dropped/{print n}' "$tmp/drop_full.plan.yaml" 2>/dev/null | head -n 1)
if [ -n "$dropped" ] && grep -q "<td>$dropped</td>" "$tmp/drop_full.html"; then ok
else bad drop_full "dropped job '$dropped' not in the dropped table"; fi

# Version 1.1 inputs (hand cases of tests/plan): predecessor links and their
# hover text, egress in the cards, the breakdown, the bar titles and the
# jobs table; without the inputs no link (the plan file has no `after`).
for c in precedence_later egress_onprem; do
    plan_case "$c" "tests/plan/$c.yaml" && report_case "$c" "$tmp/$c.plan.yaml" "tests/plan/$c.yaml"
done
if [ "$(grep -c '<g class="link"><title>etl → train: &#39;train&#39; runs after &#39;etl&#39;</title><path d="M' "$tmp/precedence_later.html" 2>/dev/null)" = 1 ] &&
    grep -q 'class="bar"><title>train$' "$tmp/precedence_later.html" &&
    grep -q '^after etl$' "$tmp/precedence_later.html"; then ok
else bad precedence_later "not one link etl -> train with its title, or no 'after etl' in train's bar title"; fi
if $CAPPLAN report "$tmp/precedence_later.plan.yaml" 2>/dev/null | grep -q 'class="link"'; then
    bad precedence_later "a link without the inputs"; else ok; fi
if grep -q '<span>egress</span><b>\$0.09</b>' "$tmp/egress_onprem.html" 2>/dev/null &&
    grep -q '<title>egress: \$0.09</title>' "$tmp/egress_onprem.html" &&
    grep -q '^egress \$0.09 (its data moved out of its site)' "$tmp/egress_onprem.html" &&
    grep -q '<th class="n">egress</th>' "$tmp/egress_onprem.html"; then ok
else bad egress_onprem "egress missing from the card, the breakdown, small's bar title or the tables"; fi

# 1.2: a job run under a power limit says so in its bar's title, once
plan_case power_limit_dear tests/plan/power_limit_dear.yaml &&
    report_case power_limit_dear "$tmp/power_limit_dear.plan.yaml" tests/plan/power_limit_dear.yaml
if [ "$(grep -c '^power limit 150 W per accelerator' "$tmp/power_limit_dear.html" 2>/dev/null)" = 1 ]; then ok
else bad power_limit_dear "not one bar title with 'power limit 150 W per accelerator'"; fi

# teams (capplan.5 §10.2): each quota's use per slot against it, with the
# inputs only (tests/reasons/team_quota.yaml: a holds 4 of 4 V100 in slots
# 0-1, nothing runs for vision in slot 2)
plan_case team_quota tests/reasons/team_quota.yaml &&
    report_case team_quota "$tmp/team_quota.plan.yaml" tests/reasons/team_quota.yaml
if grep -q '<tr><td>vision</td><td>V100</td><td class="n">4 / 4</td><td class="n">4 / 4</td><td class="n">0 / 2</td></tr>' "$tmp/team_quota.html" 2>/dev/null &&
    ! grep -q 'class="n over"' "$tmp/team_quota.html"; then ok
else bad team_quota "the teams table does not show 4 / 4, 4 / 4, 0 / 2 for vision's V100"; fi
# without the inputs the plan's own teams table, but no quota rows
$CAPPLAN report "$tmp/team_quota.plan.yaml" >"$tmp/team_quota_noin.html" 2>/dev/null
if grep -q '<tr><td>vision</td><td class="n"></td><td class="n">' "$tmp/team_quota_noin.html" &&
    ! grep -q '<td>V100</td>' "$tmp/team_quota_noin.html"; then ok
else bad team_quota "without the inputs: no team table, or quota rows"; fi
# each team's cost and acc-hours as the plan states them, its scheduled
# jobs and budget (tests/costs/teams.yaml: vision 2 jobs, 7 acc-h,
# \$8.12 of \$8.18 = 99.3 %; nlp 1 job, 2 acc-h, \$0.06 = 0.7 %, budget \$1)
plan_case teams tests/costs/teams.yaml &&
    report_case teams "$tmp/teams.plan.yaml" tests/costs/teams.yaml
if grep -q '<tr><td>vision</td><td class="n">2</td><td class="n">7</td><td class="n">\$8.12</td><td class="n">99.3 %</td><td class="n"></td></tr>' "$tmp/teams.html" 2>/dev/null &&
    grep -q '<tr><td>nlp</td><td class="n">1</td><td class="n">2</td><td class="n">\$0.06</td><td class="n">0.7 %</td><td class="n">\$1.00</td></tr>' "$tmp/teams.html"; then ok
else bad teams "the teams table lacks vision's or nlp's figures"; fi

plan_case nightly --method heuristic examples/nightly/*.yaml &&
    report_case nightly "$tmp/nightly.plan.yaml" examples/nightly/*.yaml &&
    check_leases nightly "$tmp/nightly.html" "$tmp/nightly.plan.yaml"
[ -s "$tmp/nightly.html" ] && check_labels nightly "$tmp/nightly.html" "$tmp/nightly.plan.yaml"

# ---- leases ----------------------------------------------------------------------
# A cloud-heavy night (bench/gen --family cloud 1 80): most jobs on
# markets, leases of many jobs, instances rented twice.
if $CC -std=c11 -O2 -o "$tmp/bgen" bench/gen.c -lm 2>"$tmp/cc.err"; then
    "$tmp/bgen" --family cloud 1 80 >"$tmp/cloud.yaml"
    if plan_case cloud --method heuristic "$tmp/cloud.yaml"; then
        report_case cloud "$tmp/cloud.plan.yaml" "$tmp/cloud.yaml"
        check_leases cloud "$tmp/cloud.html" "$tmp/cloud.plan.yaml"
        check_labels cloud "$tmp/cloud.html" "$tmp/cloud.plan.yaml"
        if grep -q 'capplan verify against the inputs: OK' "$tmp/cloud.html"; then ok
        else bad cloud "verify's verdict is not OK: $(grep -A2 'capplan verify' "$tmp/cloud.html" | head -n 3 | tr '\n' ' ')"; fi
    fi
else
    bad cloud "bench/gen.c does not build: $(oneline "$tmp/cc.err")"
fi

# The hand-written plan: what each part of a lease row means.
hand=tests/report/leases.plan.yaml
if $CAPPLAN report "$hand" -o "$tmp/leases.html" 2>"$tmp/rep.err" && [ ! -s "$tmp/rep.err" ]; then ok; else
    bad leases "report failed: $(oneline "$tmp/rep.err")"; fi
check_page leases "$tmp/leases.html"
awk '/aria-label="Gantt chart/{f=1} f{print} f&&/^<\/svg>/{exit}' "$tmp/leases.html" >"$tmp/hand.svg"
# lease_has LABEL PATTERN COUNT: COUNT lines of the Gantt chart match PATTERN (fixed string)
lease_has() {
    got=$(grep -cF -- "$2" "$tmp/hand.svg")
    if [ "$got" = "$3" ]; then ok; else bad "leases: $1" "$got lines with '$2', expected $3"; fi
}
lease_has "four lease bars" 'class="lease"><title>' 4
lease_has "/0 rented twice" 'class="lease"><title>cloud:&lt;gpu&gt;:spot/0' 2
lease_has "/1" 'class="lease"><title>cloud:&lt;gpu&gt;:spot/1' 1
lease_has "a hostile id, escaped" 'class="lease"><title>odd &lt;id&gt; &amp; &quot;q&quot;' 1
lease_has "one bar per scheduled job" 'class="bar"><title>' 7
lease_has "the job on two instances: one bar" 'class="bar"><title>w&lt;i&gt;de &amp; &#39;x&#39;' 1
lease_has "the job on two instances: one part" 'class="part"><title>w&lt;i&gt;de &amp; &#39;x&#39;' 1
lease_has "the part names the lease of the bar" 'its bar, with the job&#39;s details, is in the lease of cloud:&lt;gpu&gt;:spot/1' 1
lease_has "a lease's jobs in its title" '2 jobs: a, b' 1
lease_has "a name the plan lacks is listed" "2 jobs: w&lt;i&gt;de &amp; &#39;x&#39;, ghost" 1
lease_has "a lease's slots" 'start it at slot 5, return it after 3 slots (slots 5' 1
lease_has "labels: short id, slots, jobs" '>instance 0 · slots 0–2 · 2 jobs</text>' 1
lease_has "subtitle: leases and instances" '>4 leases on 3 instances, 1 job in none</text>' 1
lease_has "a market without leases: lanes as before" '>on-demand market · 1 job, 1 lane</text>' 1
lease_has "the pool: lanes as before" '>on-prem pool · 1 job, 1 lane</text>' 1
# lanes: 4 leases in 3 (the first lane is reused after /0 returns at slot 3)
lanes=$(grep -F 'class="lease"><title>' "$tmp/hand.svg" | sed 's/.* y="\([0-9.]*\)".*/\1/' | sort -u | wc -l)
if [ "$lanes" = 3 ]; then ok; else bad leases "4 leases in $lanes lanes, expected 3 (a returned instance's lane reused)"; fi
if grep -q '<gpu>\|odd <id>\|w<i>' "$tmp/leases.html"; then bad leases "a name is not escaped"; else ok; fi
if grep -qF '<th class="n">leases</th><th class="n">instances</th>' "$tmp/leases.html" &&
    grep -qF '<td>cloud:&lt;gpu&gt;</td><td>spot</td><td class="n">14</td><td class="n">3</td><td class="n">4</td><td class="n">3</td>' "$tmp/leases.html"; then ok
else bad leases "the markets table does not give the spot market's 4 leases on 3 instances"; fi
$CAPPLAN report "$hand" >"$tmp/leases2.html" 2>/dev/null
if cmp -s "$tmp/leases.html" "$tmp/leases2.html"; then ok; else bad leases "two runs differ"; fi
# The same plan without its leases (a 1.0 plan): job lanes, no lease, no lease columns.
grep -v '^  leases:\|^  - {id: ' "$hand" >"$tmp/noleases.plan.yaml"
if $CAPPLAN report "$tmp/noleases.plan.yaml" -o "$tmp/noleases.html" 2>"$tmp/rep.err"; then ok; else bad "no leases" "report failed: $(oneline "$tmp/rep.err")"; fi
if ! grep -q 'class="lease"\|class="part"\|<th class="n">leases' "$tmp/noleases.html" &&
    [ "$(awk '/aria-label="Gantt chart/{f=1} f{print} f&&/^<\/svg>/{exit}' "$tmp/noleases.html" | grep -c 'class="bar"><title>')" = 7 ] &&
    grep -qF '>spot market · 5 jobs, 2 lanes</text>' "$tmp/noleases.html"; then ok
else bad "no leases" "a plan without leases is not drawn with job lanes only"; fi

# Over 1,000 jobs: one Gantt row per resource, not per job.
if build_gen geninst; then
    "$tmp/geninst" 7 1200 48 >"$tmp/big.yaml"
    if plan_case big --method heuristic "$tmp/big.yaml"; then
        report_case big "$tmp/big.plan.yaml" "$tmp/big.yaml"
        n=$(scheduled_names "$tmp/big.plan.yaml" | wc -l)
        rows=$(grep -c 'class="row"' "$tmp/big.html")
        size=$(wc -c <"$tmp/big.html")
        if [ "$n" -ge 1000 ] && [ "$rows" -le 20 ] && [ "$size" -lt 4000000 ]; then ok
        else bad big "$n jobs drawn in $rows rows, $size bytes"; fi
    fi
fi

if $CAPPLAN report tests/report/infeasible.plan.yaml -o "$tmp/infeasible.html" &&
    grep -q 'idle baseline 1.2 kW exceeds' "$tmp/infeasible.html"; then ok
else bad infeasible "an infeasible plan is not drawn with its reason"; fi
check_page infeasible "$tmp/infeasible.html"

# The what-if page, from the unit tests' hand-built table.
if [ -x "${UNIT%% *}" ] || command -v "${UNIT%% *}" >/dev/null 2>&1; then
    CP_REPORT_WHATIF_OUT="$tmp/whatif.html" $UNIT report_whatif_page_file >/dev/null 2>&1
    check_page whatif "$tmp/whatif.html"
else
    bad whatif "no unit test binary '$UNIT' to draw the what-if page"
fi

# ---- errors and usage ------------------------------------------------------------
for a in tests/report/*.args; do
    name=$(basename "$a" .args)
    # shellcheck disable=SC2046
    capture "$tmp/actual" report $(cat "$a") -o "$tmp/err.html"
    test_cmp "tests/report/$name.expected" "$tmp/actual"
    if [ ! -e "$tmp/err.html" ]; then ok; else bad "error $name" "a page was written"; fi
    rm -f "$tmp/err.html"
done
usage_fails "usage: no plan" report
usage_fails "usage: unknown option" report --frobnicate tests/report/infeasible.plan.yaml
usage_fails "usage: -o without a file" report tests/report/infeasible.plan.yaml -o
# an output that cannot be written: exit 1, as for plan, fit and import
$CAPPLAN report tests/report/infeasible.plan.yaml -o "$tmp/no/such/dir/r.html" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 1 ] && [ ! -s "$tmp/out" ] && grep -q 'no/such/dir/r.html' "$tmp/err"; then ok
else bad "unwritable -o" "exit $rc (expected 1 and the path on stderr)"; fi
if $CAPPLAN report --help | grep -q '^usage: capplan report .*PLAN'; then ok; else bad help "no usage line"; fi

# ---- a real browser -------------------------------------------------------------
# (BROWSER, tests/lib.sh: `make browser-deps` installs Debian's chromium,
# and `make test` runs it first; `make check` has no browser)
browser=""
if test_have_prereq BROWSER; then browser=chromium; fi
shot() { # shot PAGE PNG [HEIGHT]: exit status of the browser; its stderr in $tmp/chrome.err
    timeout 30 $browser --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --enable-logging=stderr --user-data-dir="$tmp/chrome" --window-size=1280,"${3:-800}" \
        --screenshot="$2" "file://$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" \
        >"$tmp/chrome.out" 2>"$tmp/chrome.err"
}
if [ -n "$browser" ]; then
    printf '<!DOCTYPE html>\n<html><head><title>blank</title></head><body></body></html>\n' >"$tmp/blank.html"
    if shot "$tmp/blank.html" "$tmp/blank.png" && [ -s "$tmp/blank.png" ]; then
        blank=$(wc -c <"$tmp/blank.png")
        # the lease pages 1280 x 1800, so that their Gantt chart is in the picture
        for p in tiny nightly whatif cloud leases; do
            [ -s "$tmp/$p.html" ] || continue
            rm -f "$tmp/$p.png"
            case $p in cloud | leases) shot "$tmp/$p.html" "$tmp/$p.png" 1800 ;; *) shot "$tmp/$p.html" "$tmp/$p.png" ;; esac
            rc=$?
            if [ -n "${CP_REPORT_SHOTS:-}" ] && [ -s "$tmp/$p.png" ]; then
                mkdir -p "$CP_REPORT_SHOTS" && cp "$tmp/$p.png" "$CP_REPORT_SHOTS/"; fi
            size=$(wc -c <"$tmp/$p.png" 2>/dev/null || echo 0)
            errs=$(grep -E 'CONSOLE|Uncaught|net::ERR|Failed to load|Refused to|Not allowed to load' "$tmp/chrome.err" | head -n 3)
            if [ $rc = 0 ] && [ -z "$errs" ] && [ "$size" -gt $((blank * 4)) ]; then ok
            else bad "browser $p" "exit $rc, screenshot $size bytes (blank page: $blank), errors: $errs"; fi
        done
    else
        bad browser "chromium cannot screenshot a blank page: $(grep -v dbus "$tmp/chrome.err" | tail -n 3)"
    fi
else
    skip browser "$(test_why BROWSER)"
fi

test_done
