/* Unit tests of the what-if pieces: the scenario parser (sweeps, errors
 * with positions, arbitrary bytes), the YAML emitter round trip, changes
 * on defaults, and clean failure at every allocation. */
#include "test.h"

#include "cp_alloc.h"
#include "cp_methods.h"
#include "cp_whatif.h"
#include "cp_yaml.h"
#include "whatif_internal.h"

#include <stdlib.h>

static cp_diags wd;

static cp_scenarios *parse(const char *text, int *rc)
{
    cp_scenarios *s = NULL;
    cp_diags_init(&wd);
    *rc = cp_scenarios_parse("s.yaml", text, strlen(text), &s, &wd);
    return s;
}

TEST(whatif_sweep_expands_in_order)
{
    int rc;
    cp_scenarios *s = parse("scenarios:\n"
                            "  - name: a\n"
                            "    changes: [{path: jobs/*/work, scale: 2}]\n"
                            "  - name: p\n"
                            "    sweep: {path: offers/o/price_hour, values: [60, 98.32, x]}\n",
                            &rc);
    CHECK_INT(rc, CP_OK);
    CHECK_INT(cp_scenarios_count(s), 4);
    if (cp_scenarios_count(s) == 4) {
        CHECK_STR(cp_scenarios_name(s, 0), "a");
        CHECK_STR(cp_scenarios_name(s, 1), "p=60");
        CHECK_STR(cp_scenarios_name(s, 2), "p=98.32");
        CHECK_STR(cp_scenarios_name(s, 3), "p=x");
        CHECK_NEAR(s->v[2].sweep_value, 98.32, 1e-15);
        CHECK(isnan(s->v[3].sweep_value));
        CHECK_STR(s->v[1].sweep, "p");
        CHECK(s->v[0].sweep == NULL);
        CHECK_INT(s->v[1].n_changes, 1);
        CHECK_INT(s->v[0].changes[0].op, WI_SCALE);
        CHECK_NEAR(s->v[0].changes[0].num, 2, 0);
    }
    cp_scenarios_free(s);
}

TEST(whatif_parse_errors_have_positions)
{
    int rc;
    cp_scenarios *s = parse("scenarios:\n"
                            "  - name: a\n"
                            "    changes:\n"
                            "      - {path: pool/p/nodes, set: 1}\n"
                            "  - name: a2\n"
                            "    sweep: {path: pools/p/nodes, op: scale, values: [1, two]}\n",
                            &rc);
    CHECK_INT(rc, CP_ERR_INPUT);
    CHECK(s == NULL);
    CHECK_INT(wd.n, 2);
    if (wd.n == 2) {
        CHECK_STR(wd.items[0].file, "s.yaml");
        CHECK_INT(wd.items[0].line, 4);
        CHECK_INT(wd.items[0].col, 16);
        CHECK(strstr(wd.items[0].msg, "must start with") != NULL);
        CHECK_INT(wd.items[1].line, 6);
        CHECK_INT(wd.items[1].col, 57);
    }
}

TEST(whatif_parse_any_bytes)
{
    /* every prefix of a valid file and a few hostile ones: an error or a
     * result, never a crash (ASan runs this too) */
    const char *good = "scenarios:\n  - name: a\n    remove: {jobs: [x]}\n"
                       "    add: {pools: [{name: q}]}\n    sweep: {path: horizon/slots, values: [1]}\n";
    for (size_t n = 0; n <= strlen(good); n++) {
        char *t = cp_strndup(good, n);
        cp_scenarios *s = NULL;
        cp_diags_init(&wd);
        int rc = cp_scenarios_parse("s.yaml", t, n, &s, &wd);
        CHECK(rc == CP_OK || rc == CP_ERR_INPUT);
        CHECK((rc == CP_OK) == (s != NULL));
        cp_scenarios_free(s);
        cp_free(t);
    }
    const char *bad[] = {"", "[1, 2]", "scenarios: 3", "scenarios: [[]]", "\x01\x02",
                         "scenarios:\n  - {name: a, changes: [{path: '', add: .nan}]}\n",
                         "scenarios:\n  - {name: '', sweep: {path: jobs/*/x, values: {}}}\n"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int rc;
        cp_scenarios *s = parse(bad[i], &rc);
        CHECK_INT(rc, CP_ERR_INPUT);
        CHECK(s == NULL);
    }
}

static bool same_tree(const cp_node *a, const cp_node *b)
{
    if (a->kind != b->kind || a->n != b->n)
        return false;
    if (a->kind == CP_NODE_SCALAR)
        return !strcmp(a->str, b->str) && a->quoted == b->quoted;
    size_t k = a->kind == CP_NODE_MAP ? 2 * a->n : a->n;
    for (size_t i = 0; i < k; i++)
        if (!same_tree(a->kids[i], b->kids[i]))
            return false;
    return true;
}

TEST(whatif_emit_round_trip)
{
    const char *text = "a: 1\nb: \"2\"\nc: [1e-3, .inf, -2, 0x1F]\nd: {e: true, f: 'x: y', g: ~}\n"
                       "h:\n  - {name: 2024, v: [1, 2]}\n  - |\n    block\n    text\n"
                       "i: \"multi\\nline\"\nj: []\nk: {}\n";
    cp_node *t1 = NULL, *t2 = NULL;
    cp_diags_init(&wd);
    CHECK_INT(cp_yaml_load_string("t", text, strlen(text), &t1, &wd), CP_OK);
    cp_buf b;
    cp_buf_init(&b);
    cp_err err;
    cp_err_init(&err);
    CHECK_INT(cp_yaml_emit(t1, &b, &err), CP_OK);
    CHECK_INT(cp_yaml_load_string("t2", b.s, b.len, &t2, &wd), CP_OK);
    CHECK(t1 && t2 && same_tree(t1, t2));
    double v;
    CHECK(cp_scalar_number(cp_map_get(t2, "a"), &v) && v == 1);
    CHECK(!cp_scalar_number(cp_map_get(t2, "b"), &v)); /* quoted stays a string */
    cp_buf_release(&b);
    cp_node_free(t1);
    cp_node_free(t2);
}

static const char input[] = "horizon: {slots: 4, slot_hours: 0.5}\n"
                            "sites: [{name: s}]\n"
                            "pools:\n  - {name: p, site: s, nodes: 3, node: {cpus: 8, memory_gb: 16}}\n"
                            "jobs:\n  - {name: j, kind: dataflow, input_gb: 1, machines: [1],\n"
                            "     runtime: {model: ernest, theta: {p: [1, 2, 3, 4]}}}\n";

/* Applies `scen` to `input`; returns the changed tree (or NULL) */
static cp_node *apply(const char *scen, int *rc)
{
    cp_node *root = NULL, *out = NULL;
    cp_scenarios *s = NULL;
    cp_whatif *w = NULL;
    cp_diags_init(&wd);
    *rc = cp_yaml_load_string("in.yaml", input, strlen(input), &root, &wd);
    if (*rc == CP_OK)
        *rc = cp_scenarios_parse("s.yaml", scen, strlen(scen), &s, &wd);
    if (*rc == CP_OK)
        *rc = cp_whatif_prepare(&root, 1, s, &w, &wd);
    if (*rc == CP_OK) {
        cp_buf b;
        cp_buf_init(&b);
        cp_err err;
        cp_err_init(&err);
        if (cp_whatif_emit(w, 1, &b, &err) == CP_OK)
            cp_yaml_load_string("emitted", b.s, b.len, &out, &wd);
        cp_buf_release(&b);
    }
    cp_whatif_free(w);
    cp_scenarios_free(s);
    cp_node_free(root);
    return out;
}

static const char *at(const cp_node *root, const char *kind, const char *key)
{
    const cp_node *e = cp_map_get(root, kind);
    if (e && e->kind == CP_NODE_SEQ && e->n)
        e = e->kids[0];
    const cp_node *v = cp_map_get(e, key);
    return v && v->kind == CP_NODE_SCALAR ? v->str : "(none)";
}

TEST(whatif_changes_apply_to_defaults)
{
    int rc;
    /* available defaults to nodes (after nodes changed: 3 + 1 = 4) and
     * is then scaled; deadline_hour defaults to 4 x 0.5 h = 2 h */
    cp_node *t = apply("scenarios:\n  - name: x\n    changes:\n"
                       "      - {path: pools/p/nodes, add: 1}\n"
                       "      - {path: pools/*/available, scale: 0.5}\n"
                       "      - {path: jobs/j/deadline_hour, add: -0.5}\n"
                       "      - {path: jobs/j/runtime/theta/p, scale: 10}\n"
                       "      - {path: jobs/j/placement/cloud, set: false}\n"
                       "      - {path: objective/carbon_price_per_ton, add: 5}\n",
                       &rc);
    CHECK_INT(rc, CP_OK);
    if (t) {
        CHECK_STR(at(t, "pools", "nodes"), "4");
        CHECK_STR(at(t, "pools", "available"), "2");
        CHECK_STR(at(t, "jobs", "deadline_hour"), "1.5");
        const cp_node *th = cp_map_get(cp_map_get(cp_map_get(cp_map_get(t, "jobs")->kids[0], "runtime"), "theta"), "p");
        CHECK(th && th->n == 4 && !strcmp(th->kids[3]->str, "40"));
        const cp_node *pl = cp_map_get(cp_map_get(t, "jobs")->kids[0], "placement");
        CHECK(pl && !strcmp(cp_map_get(pl, "cloud")->str, "false"));
        CHECK_STR(cp_map_get(cp_map_get(t, "objective"), "carbon_price_per_ton")->str, "5");
    }
    cp_node_free(t);
    /* a wildcard skips what has no value in effect: no error, no change */
    t = apply("scenarios:\n  - name: x\n    changes:\n"
              "      - {path: jobs/*/cpus_per_accelerator, scale: 2}\n",
              &rc);
    CHECK_INT(rc, CP_ERR_INPUT); /* dataflow: no default, so nothing matches */
    CHECK(t == NULL);
    CHECK_INT(wd.n, 1);
}

TEST(whatif_every_allocation_failure_is_clean)
{
    const char *scen = "scenarios:\n  - name: x\n    changes:\n"
                       "      - {path: pools/p/nodes, add: 1}\n"
                       "      - {path: jobs/*/deadline_hour, add: -0.5}\n"
                       "    remove: {jobs: [j]}\n"
                       "    add: {jobs: [{name: k, kind: dataflow}]}\n"
                       "  - name: y\n    sweep: {path: horizon/slots, values: [1, 2]}\n";
    int rc;
    cp_alloc_fail_after(-1);
    long before = cp_alloc_count();
    cp_node_free(apply(scen, &rc));
    long total = cp_alloc_count() - before;
    CHECK_INT(rc, CP_OK);
    CHECK(total > 50);
    for (long n = 0; n < total; n++) {
        cp_alloc_fail_after(n);
        cp_node *t = apply(scen, &rc);
        cp_alloc_fail_after(-1);
        CHECK(rc == CP_OK || rc == CP_ERR_NOMEM);
        cp_node_free(t);
    }
}

TEST(whatif_run_allocation_failures_are_clean)
{
    /* the whole run on examples/tiny.yaml, failing every 13th allocation
     * point: an error or a full table, never a crash or a leak */
    cp_node *root = NULL;
    cp_scenarios *s = NULL;
    cp_whatif *w = NULL;
    cp_diags_init(&wd);
    const char *scen = "scenarios:\n  - {name: a, changes: [{path: jobs/etl/work, set: 0}]}\n"
                       "  - {name: b, changes: [{path: sites/lab/pue, set: 2}]}\n";
    CHECK_INT(cp_yaml_load_file("examples/tiny.yaml", &root, &wd), CP_OK);
    CHECK_INT(cp_scenarios_parse("s", scen, strlen(scen), &s, &wd), CP_OK);
    CHECK_INT(cp_whatif_prepare(&root, 1, s, &w, &wd), CP_OK);
    if (!w) {
        cp_scenarios_free(s);
        cp_node_free(root);
        return;
    }
    cp_solve_opts so;
    cp_solve_opts_init(&so);
    so.node_limit = 50;
    cp_whatif_run_opts ro = {cp_solver_find("auto"), &so, 1, NULL, NULL, 0, 0};
    cp_whatif_table *t = NULL;
    cp_err err;
    cp_err_init(&err);
    long before = cp_alloc_count();
    CHECK_INT(cp_whatif_run(w, &ro, &t, &err), CP_OK);
    long total = cp_alloc_count() - before;
    if (t) {
        CHECK_INT(t->n_rows, 3);
        CHECK_STR(t->rows[1].status, "invalid");
        CHECK_STR(t->rows[2].status, "optimal");
        CHECK_INT(t->n_acc, 1);
        CHECK_NEAR(t->rows[0].costs.total, 1.1385, 1e-9);
    }
    cp_whatif_table_free(t);
    for (long n = 0; n < total; n += 13) {
        t = NULL;
        cp_alloc_fail_after(n);
        int rc = cp_whatif_run(w, &ro, &t, &err);
        cp_alloc_fail_after(-1);
        CHECK((rc == CP_OK) == (t != NULL));
        cp_whatif_table_free(t);
    }
    cp_whatif_free(w);
    cp_scenarios_free(s);
    cp_node_free(root);
}
