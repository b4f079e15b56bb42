/* The report building blocks (cp_svg.h), the plan report (cp_report.h)
 * and the what-if page (cp_report_whatif_html) on a hand-built table:
 * escaping, number formats, ticks, bar geometry computed by hand,
 * lanes, structural errors with positions, determinism, and
 * out-of-memory at every allocation.
 *
 * With CP_REPORT_WHATIF_OUT set, whatif_page_file writes the what-if page
 * there, so tests/suite_report.sh can check it with xmllint and a
 * browser too. */
#include "test.h"

#include "cp_alloc.h"
#include "cp_input.h"
#include "cp_report.h"
#include "cp_svg.h"
#include "cp_whatif.h"
#include "cp_yaml.h"

#include <stdio.h>
#include <stdlib.h>

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* ---- building blocks --------------------------------------------------- */

TEST(report_svg_escape)
{
    cp_buf b;
    cp_buf_init(&b);
    cp_svg_esc(&b, "a<b>&\"c'd");
    CHECK_STR(b.s, "a&lt;b&gt;&amp;&quot;c&#39;d");
    cp_buf_reset(&b);
    /* invalid UTF-8, a control character, an overlong '/' and a valid é */
    cp_svg_esc(&b, "x\xff" "y\x01" "z\xc0\xaf" "\xc3\xa9");
    CHECK_STR(b.s, "x\xEF\xBF\xBDy\xEF\xBF\xBDz\xEF\xBF\xBD\xEF\xBF\xBD\xc3\xa9");
    cp_buf_reset(&b);
    cp_svg_esc_cut(&b, "abcdefgh", 5);
    CHECK_STR(b.s, "abcd\xE2\x80\xA6");
    cp_buf_reset(&b);
    cp_svg_esc_cut(&b, "abcde", 5);
    CHECK_STR(b.s, "abcde");
    CHECK_INT(cp_svg_chars("\xc3\xa9t\xc3\xa9"), 3);
    cp_buf_release(&b);
}

TEST(report_svg_numbers)
{
    char s[64];
    cp_svg_fixed(s, sizeof s, -0.0001, 2);
    CHECK_STR(s, "0.00");
    cp_svg_fixed(s, sizeof s, NAN, 2);
    CHECK_STR(s, "n/a");
    cp_svg_group(s, sizeof s, 1234567.891, 2);
    CHECK_STR(s, "1,234,567.89");
    cp_svg_group(s, sizeof s, -999, 0);
    CHECK_STR(s, "-999");
    cp_svg_money(s, sizeof s, -3.2);
    CHECK_STR(s, "-$3.20");
    cp_svg_money(s, sizeof s, 1000000);
    CHECK_STR(s, "$1,000,000.00");
    cp_svg_qty(s, sizeof s, 1.1385);
    CHECK_STR(s, "1.139");
    cp_svg_qty(s, sizeof s, 12.5);
    CHECK_STR(s, "12.5");
    cp_svg_qty(s, sizeof s, 1234.56);
    CHECK_STR(s, "1,234.6");
    cp_svg_qty(s, sizeof s, 139.39744170682613);
    CHECK_STR(s, "139.4");
    cp_svg_qty(s, sizeof s, 0.0123456);
    CHECK_STR(s, "0.01235");
    cp_buf b;
    cp_buf_init(&b);
    cp_svg_coord(&b, 12.04);
    cp_buf_putc(&b, ' ');
    cp_svg_coord(&b, -3.25);
    cp_buf_putc(&b, ' ');
    cp_svg_coord(&b, 7.96);
    CHECK_STR(b.s, "12 -3.3 8");
    cp_buf_release(&b);
}

TEST(report_svg_ticks)
{
    cp_ticks t;
    cp_ticks_nice(&t, 0, 24, 16, true); /* 1 h gives 25 ticks, 2 h gives 13 */
    CHECK_INT(t.n, 13);
    CHECK_STR(t.label[12], "24");
    CHECK_NEAR(t.v[1], 2, 1e-12);
    cp_ticks_nice(&t, 0, 100, 8, false); /* 10 gives 11, 20 gives 6 */
    CHECK_INT(t.n, 6);
    CHECK_STR(t.label[5], "100");
    cp_ticks_nice(&t, 0, 0.5, 6, false); /* 0.1 gives 6 */
    CHECK_INT(t.n, 6);
    CHECK_STR(t.label[3], "0.3");
    cp_ticks_nice(&t, 0, 4e6, 5, false);
    CHECK_INT(t.n, 5);
    CHECK_STR(t.label[4], "4,000,000");
    CHECK_NEAR(cp_nice_ceil(50.1), 100, 0);
    CHECK_NEAR(cp_nice_ceil(42), 50, 0);
    CHECK_NEAR(cp_nice_ceil(2.1), 2.5, 0);
    CHECK_NEAR(cp_nice_ceil(0), 1, 0);
    cp_scale s = {0, 4, 280, 1160};
    CHECK_NEAR(cp_scale_at(&s, 2.6), 852, 1e-9);
}

TEST(report_svg_colors)
{
    char c[8];
    cp_svg_heat(c, 0);
    CHECK_STR(c, "#f7fbff");
    cp_svg_heat(c, 1);
    CHECK_STR(c, "#08306b");
    cp_svg_heat(c, 0.5);
    CHECK_STR(c, "#6baed6");
    cp_svg_heat(c, 1.5);
    CHECK_STR(c, "#d62728");
    CHECK_STR(cp_svg_color(10), cp_svg_color(0));
    cp_legend_item it[2] = {{"#000000", "abc", false}, {"#ffffff", "de", true}};
    CHECK_NEAR(cp_svg_legend_height(1000, it, 2), 16, 0);
    CHECK_NEAR(cp_svg_legend_height(40, it, 2), 32, 0); /* wraps */
}

/* ---- the plan report ---------------------------------------------------- */

/* Three jobs on one pool: b overlaps a, c starts when a ends. Four 1 h
 * slots (from the utilization lists), so hour x is at 280 + 220 x px. */
static const char plan_ok[] =
    "capplan_plan: 1\n"
    "status: optimal\n"
    "solver: {method: milp, seconds: 0, objective: 3, bound: 3, gap: 0}\n"
    "totals: {total: 3, cloud: 1, energy: 1.5, carbon: 0.5, penalty: 0, energy_kwh: 15, carbon_kg: 10}\n"
    "jobs:\n"
    "- {name: a, status: scheduled, resource: rack, market: pool, count: 1, cpus: 4, memory_gb: 16,\n"
    "   start_slot: 0, slots: 2, start_hour: 0, end_hour: 2, energy_kwh: 1, nodes: [rack/0]}\n"
    "- {name: 'b<&>', status: scheduled, resource: rack, market: pool, count: 4, cpus: 32, memory_gb: 128,\n"
    "   start_slot: 1, slots: 2, start_hour: 1, end_hour: 2.6, energy_kwh: 2, nodes: [rack/1]}\n"
    "- {name: c, status: scheduled, resource: rack, market: pool, count: 1, cpus: 4, memory_gb: 16,\n"
    "   start_slot: 2, slots: 1, start_hour: 2, end_hour: 3, energy_kwh: 1, nodes: [rack/0]}\n"
    "- {name: gone, status: dropped, reason: 'no mode: window <1 h'}\n"
    "provisioning:\n"
    "- {market: 'cloud:x', kind: spot, instances: [0, 1, 1, 0], cost: 1}\n"
    "utilization:\n"
    "- {pool: rack, accelerators: [1, 5, 2, 0], cpus: [4, 36, 8, 0], memory_gb: [16, 144, 32, 0]}\n"
    "sites:\n"
    "- {name: lab, power_kw: [1, 2, 1.5, 1], energy_kwh: 15, carbon_kg: 10}\n";

static int render(const char *plan, cp_buf *out, cp_diags *d)
{
    cp_node *root = NULL;
    cp_diags_init(d);
    int rc = cp_yaml_load_string("plan.yaml", plan, strlen(plan), &root, d);
    if (rc)
        return rc;
    cp_report_opts o;
    cp_report_opts_init(&o);
    o.plan_name = "plan.yaml";
    rc = cp_report_plan_html(root, &o, out, d);
    cp_node_free(root);
    return rc;
}

TEST(report_plan_page)
{
    cp_buf b;
    cp_buf_init(&b);
    cp_diags d;
    int rc = render(plan_ok, &b, &d);
    CHECK_INT(rc, CP_OK);
    if (rc) {
        cp_diags_print(&d, stderr);
        cp_buf_release(&b);
        return;
    }
    CHECK(!strncmp(b.s, "<!DOCTYPE html>", 15));
    CHECK_INT(count(b.s, "<svg"), count(b.s, "</svg>"));
    CHECK_INT(count(b.s, "<svg"), 5); /* costs, gantt, heat map, instances, one site */
    CHECK_INT(count(b.s, "<script"), 0);
    CHECK_INT(count(b.s, "http"), 0);
    CHECK(strstr(b.s, "b&lt;&amp;&gt;") != NULL);
    CHECK(strstr(b.s, "b<&>") == NULL);
    /* b: hours 1 to 2.6 -> x 500 to 852; lane 1 of 2 (a is in lane 0) */
    CHECK(strstr(b.s, "<rect x=\"500\" y=\"") != NULL);
    CHECK(strstr(b.s, "width=\"352\" height=\"14.5\" fill=\"#59a14f\" class=\"bar\"><title>b&lt;&amp;&gt;\n"
                      "rack (pool)\n4 node units, 32 CPUs, 128 GB\nhours 1\xE2\x80\x93" "2.6 (slots 1\xE2\x80\x93" "2)\n"
                      "energy 2 kWh\nnodes rack/1</title>") != NULL);
    CHECK(strstr(b.s, "on-prem pool \xC2\xB7 3 jobs, 2 lanes") != NULL);
    CHECK(strstr(b.s, "no mode: window &lt;1 h") != NULL);
    /* cost bar: $3 on a $5 scale over 280..1160 px: cloud $1 is 176 px */
    CHECK(strstr(b.s, "<rect x=\"280\" y=\"26\" width=\"176\" height=\"30\" fill=\"#4e79a7\" class=\"bar\"><title>cloud: $1.00</title>") != NULL);
    /* utilization without inputs: share of the pool's peak (5 accelerators) */
    CHECK(strstr(b.s, "5 busy (pool peak 5)") != NULL);
    /* the same page twice */
    cp_buf b2;
    cp_buf_init(&b2);
    CHECK_INT(render(plan_ok, &b2, &d), CP_OK);
    CHECK_STR(b2.s, b.s);
    cp_buf_release(&b2);
    cp_buf_release(&b);
}

/* Inputs matching plan_ok's names: 2 nodes of 4 V100 (8 accelerators),
 * a 5 kW cap, and a start 1.5 h before a leap day in UTC+2. */
static const char inputs_ok[] =
    "horizon: {slots: 4, start: '2024-02-28T22:30:00+02:00'}\n"
    "sites: [{name: lab, power_cap_kw: 5}]\n"
    "accelerators: [{name: V100, memory_gb: 16}]\n"
    "pools:\n"
    "- {name: rack, site: lab, nodes: 2, node: {accelerator: V100, accelerators: 4, cpus: 32, memory_gb: 256}}\n"
    "jobs:\n"
    "- {name: a, kind: training, work: 7200, throughput: {V100: 1}}\n"
    "- {name: 'b<&>', kind: dataflow, input_gb: 1, machines: [1], runtime: {model: ernest, theta: {rack: [5760, 0, 0, 0]}}}\n"
    "- {name: c, kind: training, work: 3600, throughput: {V100: 1}}\n";

TEST(report_plan_with_inputs)
{
    cp_diags d;
    cp_diags_init(&d);
    cp_node *it = NULL, *pt = NULL;
    cp_input *in = NULL;
    if (cp_yaml_load_string("in.yaml", inputs_ok, strlen(inputs_ok), &it, &d) ||
        cp_input_from_trees(&it, 1, &in, &d) ||
        cp_yaml_load_string("plan.yaml", plan_ok, strlen(plan_ok), &pt, &d)) {
        cp_diags_print(&d, stderr);
        CHECK(0);
        cp_input_free(in);
        cp_node_free(it);
        cp_node_free(pt);
        return;
    }
    cp_report_opts o;
    cp_report_opts_init(&o);
    o.in = in;
    cp_buf b;
    cp_buf_init(&b);
    CHECK_INT(cp_report_plan_html(pt, &o, &b, &d), CP_OK);
    /* kinds colour the bars: b is the dataflow job */
    CHECK(strstr(b.s, "width=\"352\" height=\"14.5\" fill=\"#f28e2b\" class=\"bar\"><title>b&lt;&amp;&gt;\n"
                      "dataflow on rack (pool)\n") != NULL);
    /* capacity: 5 of 2 x 4 accelerators in slot 1 */
    CHECK(strstr(b.s, "5 of 8 busy (62.5 %)") != NULL);
    CHECK(strstr(b.s, "class=\"cap\"") != NULL);
    CHECK(strstr(b.s, "capplan verify against the inputs") != NULL);
    /* wall clock in the stamp's own offset, across the leap day */
    CHECK(strstr(b.s, ">02-28 22:30</text>") != NULL);
    CHECK(strstr(b.s, ">02-29 00:00</text>") != NULL);
    CHECK(strstr(b.s, "below: wall clock +02:00") != NULL);
    CHECK(strstr(b.s, "hours 1\xE2\x80\x93" "2.6 (02-28 23:30\xE2\x80\x93" "02-29 01:06 +02:00)") != NULL);
    cp_buf_release(&b);
    cp_input_free(in);
    cp_node_free(it);
    cp_node_free(pt);
}

/* The slot length without inputs: start_hour / start_slot, else 1 h. */
TEST(report_plan_slot_hours)
{
    static const char half[] =
        "capplan_plan: 1\nstatus: feasible\n"
        "totals: {total: 0, cloud: 0, energy: 0, carbon: 0, penalty: 0}\n"
        "jobs:\n- {name: a, status: scheduled, resource: r, market: pool, start_slot: 2, start_hour: 1, end_hour: 1.5}\n"
        "sites:\n- {name: s, power_kw: [1, 1, 1, 1]}\n";
    static const char none[] =
        "capplan_plan: 1\nstatus: feasible\n"
        "totals: {total: 0, cloud: 0, energy: 0, carbon: 0, penalty: 0}\n"
        "jobs:\n- {name: a, status: scheduled, resource: r, market: pool, start_slot: 0, start_hour: 0, end_hour: 0.5}\n";
    cp_buf b;
    cp_buf_init(&b);
    cp_diags d;
    CHECK_INT(render(half, &b, &d), CP_OK);
    CHECK(strstr(b.s, "horizon 4 slots of 0.5 h (2 h)") != NULL);
    cp_buf_reset(&b);
    CHECK_INT(render(none, &b, &d), CP_OK);
    CHECK(strstr(b.s, "horizon 1 slot of 1 h (1 h), slot length assumed") != NULL);
    CHECK(strstr(b.s, "(1 h slots assumed)") != NULL);
    cp_buf_release(&b);
}

static void expect_error(const char *plan, const char *msg)
{
    cp_buf b;
    cp_buf_init(&b);
    cp_diags d;
    int rc = render(plan, &b, &d);
    CHECK_INT(rc, CP_ERR_INPUT);
    char got[1000] = "";
    if (d.n > 0)
        snprintf(got, sizeof got, "%s:%d:%d: %s", d.items[0].file, d.items[0].line,
                 d.items[0].col, d.items[0].msg);
    CHECK_STR(got, msg);
    cp_buf_release(&b);
}

TEST(report_plan_errors)
{
    expect_error("- 1\n", "plan.yaml:1:1: the plan must be a mapping, found a list");
    expect_error("status: optimal\njobs: []\ntotals: {total: 0, cloud: 0, energy: 0, carbon: 0, penalty: 0}\n",
                 "plan.yaml:1:1: missing 'capplan_plan: 1' (not a capplan plan)");
    expect_error("capplan_plan: 1\nstatus: optimal\ntotals: {total: 0, cloud: 0, energy: 0, carbon: 0, penalty: 0}\n"
                 "jobs: {}\n",
                 "plan.yaml:4:7: plan: 'jobs' must be a list, found a mapping");
    expect_error("capplan_plan: 1\nstatus: optimal\ntotals: {total: 0, cloud: 0, energy: 0, carbon: 0, penalty: 0}\n"
                 "jobs:\n- {name: a, status: scheduled, resource: r, market: pool, start_hour: x, end_hour: 1}\n",
                 "plan.yaml:5:71: job 'a': 'start_hour' must be a finite number, found x");
    expect_error("capplan_plan: 1\nstatus: optimal\ntotals: {total: 0, cloud: 0, energy: 0, carbon: 0, penalty: 0}\n"
                 "jobs: []\nutilization:\n- {pool: p, accelerators: [0, 0], cpus: [0, 0], memory_gb: [0]}\n",
                 "plan.yaml:6:60: utilization of 'p': 'memory_gb' has 1 values, expected 2 (one per slot)");
}

TEST(report_plan_nomem)
{
    int ok_seen = 0;
    for (long n = 0; n < 4000 && !ok_seen; n++) {
        cp_node *root = NULL;
        cp_diags d;
        cp_diags_init(&d);
        if (cp_yaml_load_string("plan.yaml", plan_ok, strlen(plan_ok), &root, &d)) {
            CHECK(0);
            return;
        }
        cp_buf b;
        cp_buf_init(&b);
        cp_report_opts o;
        cp_report_opts_init(&o);
        cp_alloc_fail_after(n);
        int rc = cp_report_plan_html(root, &o, &b, &d);
        cp_alloc_fail_after(-1);
        CHECK(rc == CP_OK || rc == CP_ERR_NOMEM);
        ok_seen = rc == CP_OK;
        cp_buf_release(&b);
        cp_node_free(root);
    }
    CHECK(ok_seen);
}

/* ---- the what-if page ---------------------------------------------------- */

typedef struct wt {
    cp_whatif_table t;
    cp_whatif_row rows[6];
} wt;

static void row(cp_whatif_row *r, const char *name, const char *status, double cloud,
                double energy, double carbon, double penalty, const char *sweep, double value)
{
    memset(r, 0, sizeof *r);
    r->name = (char *)name;
    r->status = (char *)status;
    r->sweep = (char *)sweep;
    r->sweep_value = value;
    r->costs.cloud = cloud;
    r->costs.energy = energy;
    r->costs.carbon = carbon;
    r->costs.penalty = penalty;
    r->costs.total = cloud + energy + carbon + penalty;
    r->costs.energy_kwh = 10;
    r->costs.carbon_kg = 4;
    r->delta = r->delta_pct = NAN;
}

/* Baseline $50; a scenario at $52 (+$2, +4 %); a sweep of four values
 * given out of order, one of them invalid (no plan). */
static void make_table(wt *w)
{
    memset(&w->t, 0, sizeof w->t);
    row(&w->rows[0], "baseline", "optimal", 40, 6, 4, 0, NULL, 0);
    row(&w->rows[1], "gpu<pool>&more", "optimal", 42, 6, 4, 0, NULL, 0);
    row(&w->rows[2], "spot=98.32", "optimal", 45, 6, 4, 0, "spot", 98.32);
    row(&w->rows[3], "spot=60", "feasible", 30, 6, 4, 0, "spot", 60);
    row(&w->rows[4], "spot=80", "invalid", NAN, NAN, NAN, NAN, "spot", 80);
    row(&w->rows[5], "spot=50", "optimal", 20, 6, 4, 1000, "spot", 50);
    w->rows[4].error = (char *)"s.yaml:3:5: error: path 'offers/x' matches nothing";
    for (int i = 1; i < 6; i++)
        if (isfinite(w->rows[i].costs.total)) {
            w->rows[i].delta = w->rows[i].costs.total - 50;
            w->rows[i].delta_pct = 100 * w->rows[i].delta / 50;
        }
    w->t.n_rows = 6;
    w->t.rows = w->rows;
    static char *acc[1] = {(char *)"V100<x>"};
    static double on[6][1] = {{12}, {12}, {10}, {8}, {0}, {4}};
    static double cl[6][1] = {{3.5}, {4}, {5}, {6}, {0}, {7}};
    for (int i = 0; i < 6; i++) {
        w->rows[i].acc_hours_onprem = on[i];
        w->rows[i].acc_hours_cloud = cl[i];
    }
    w->t.n_acc = 1;
    w->t.acc_names = acc;
    /* one team (capplan.5 §10.2), its name to be escaped; NAN: no plan */
    static char *team[1] = {(char *)"ml<&>"};
    static double tc[6][1] = {{1.5}, {2.25}, {1}, {0.5}, {NAN}, {3}};
    for (int i = 0; i < 6; i++)
        w->rows[i].team_cost = tc[i];
    w->t.n_team = 1;
    w->t.team_names = team;
}

TEST(report_whatif_page)
{
    wt w;
    make_table(&w);
    cp_buf b;
    cp_buf_init(&b);
    cp_err e;
    cp_err_init(&e);
    CHECK_INT(cp_report_whatif_html(&w.t, &b, &e), CP_OK);
    CHECK_INT(count(b.s, "<svg"), 2); /* the bars, one sweep */
    CHECK_INT(count(b.s, "</svg>"), 2);
    CHECK_INT(count(b.s, "<script"), 0);
    CHECK_INT(count(b.s, "http"), 0);
    CHECK(strstr(b.s, "gpu&lt;pool&gt;&amp;more") != NULL);
    CHECK(strstr(b.s, "gpu<pool>") == NULL);
    CHECK(strstr(b.s, "$52.00  +$2.00 (+4.0 %)") != NULL);
    CHECK(strstr(b.s, "$40.00  -$10.00 (-20.0 %)") != NULL);
    /* $1,030 is over 4 x the median total ($52): the axis ends at
     * nice(1.1 x $55) = $100 over 280..950 px, and that bar is cut. The
     * scenario row (y 54 + 4): cloud $42 is 281.4 px wide. */
    CHECK(strstr(b.s, "<rect x=\"280\" y=\"58\" width=\"281.4\" height=\"16\" fill=\"#4e79a7\" class=\"bar\">") != NULL);
    CHECK(strstr(b.s, "Bars longer than $100.00 are cut") != NULL);
    CHECK_INT(count(b.s, "class=\"cut\""), 2);
    /* spot=50 (y 150 + 4): $30 of parts, then $1,000 of penalties cut at $100: 469 px */
    CHECK(strstr(b.s, "<rect x=\"481\" y=\"154\" width=\"469\" height=\"16\" fill=\"#e15759\" class=\"bar\">") != NULL);
    CHECK(strstr(b.s, "no plan: invalid \xE2\x80\x94 s.yaml:3:5: error: path &#39;offers/x&#39; matches nothing") != NULL);
    /* sweep line in value order 50, 60 | 80 has no plan | 98.32: M, L, then M */
    const char *path = strstr(b.s, "<path d=\" M");
    CHECK(path != NULL);
    if (path) {
        const char *end = strstr(path, "\" class=\"line\"");
        CHECK(end != NULL);
        int m = 0, l = 0;
        for (const char *p = path + 9; end && p < end; p++) {
            m += *p == 'M';
            l += *p == 'L';
        }
        CHECK_INT(m, 2);
        CHECK_INT(l, 1);
        /* 50 is 4 % of the span (48.32) inside the padded domain of
         * 1.08 spans mapped on 280..1140: x = 280 + 860 * 0.04 / 1.08 */
        CHECK(!strncmp(path, "<path d=\" M311.9 ", 17));
    }
    CHECK_INT(count(b.s, "<circle"), 4);
    CHECK(strstr(b.s, "<th class=\"n\">V100&lt;x&gt; h on-prem / cloud</th>") != NULL);
    CHECK(strstr(b.s, "<td class=\"n\">12 / 3.5</td>") != NULL);
    CHECK(strstr(b.s, "<th class=\"n\">team ml&lt;&amp;&gt;</th>") != NULL);
    CHECK(strstr(b.s, "<td class=\"n\">0</td><td class=\"n\">$2.25</td>") != NULL);
    cp_buf_release(&b);
}

TEST(report_whatif_nomem)
{
    wt w;
    make_table(&w);
    int ok_seen = 0;
    for (long n = 0; n < 200 && !ok_seen; n++) {
        cp_buf b;
        cp_buf_init(&b);
        cp_err e;
        cp_err_init(&e);
        cp_alloc_fail_after(n);
        int rc = cp_report_whatif_html(&w.t, &b, &e);
        cp_alloc_fail_after(-1);
        CHECK(rc == CP_OK || rc == CP_ERR_NOMEM);
        ok_seen = rc == CP_OK;
        cp_buf_release(&b);
    }
    CHECK(ok_seen);
}

TEST(report_whatif_page_file)
{
    const char *path = getenv("CP_REPORT_WHATIF_OUT");
    if (!path)
        return;
    wt w;
    make_table(&w);
    cp_buf b;
    cp_buf_init(&b);
    cp_err e;
    cp_err_init(&e);
    CHECK_INT(cp_report_whatif_html(&w.t, &b, &e), CP_OK);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        CHECK(fwrite(b.s, 1, b.len, f) == b.len);
        CHECK(fclose(f) == 0);
    }
    cp_buf_release(&b);
}
