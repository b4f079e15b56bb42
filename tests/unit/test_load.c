/* The loader (capplan.5 §1): merging of several files, defaults, YAML 1.2 core
 * schema scalars, integer fields, error positions and the YAML limits.
 * Inputs are inline YAML read with cp_yaml_load_string and converted with
 * cp_input_from_trees, so every expected value is visible next to it. */
#include "test.h"

#include "cp_alloc.h"
#include "cp_input.h"
#include "cp_modes.h"
#include "cp_yaml.h"

#include <stdarg.h>
#include <stdlib.h>

/* Up to 4 inline files named a.yaml, b.yaml, ...; the trees must outlive
 * the input (positions point at their names), so they live here until
 * unload(). */
static cp_node *roots[4];
static int n_roots;
static cp_diags diags;
static const char *const names[4] = {"a.yaml", "b.yaml", "c.yaml", "d.yaml"};

static void unload(cp_input *in)
{
    cp_input_free(in);
    for (int i = 0; i < n_roots; i++)
        cp_node_free(roots[i]);
    n_roots = 0;
}

/* Loads n texts; returns the input or NULL (then diags holds the errors). */
static cp_input *load(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    cp_diags_init(&diags);
    n_roots = 0;
    int rc = CP_OK;
    for (int i = 0; i < n; i++) {
        const char *text = va_arg(ap, const char *);
        cp_node *root = NULL;
        if (cp_yaml_load_string(names[i], text, strlen(text), &root, &diags) == CP_OK)
            roots[n_roots++] = root;
        else
            rc = CP_ERR_INPUT;
    }
    va_end(ap);
    cp_input *in = NULL;
    if (rc == CP_OK && cp_input_from_trees(roots, n_roots, &in, &diags) != CP_OK)
        in = NULL;
    if (!in) {
        for (int i = 0; i < n_roots; i++)
            cp_node_free(roots[i]);
        n_roots = 0;
    }
    return in;
}

/* Does any recorded error contain `part`, at line:col of file (0: any)? */
static bool has_error(const char *file, int line, int col, const char *part)
{
    for (int i = 0; i < diags.n; i++) {
        const cp_err *e = &diags.items[i];
        if (strstr(e->msg, part) && (!file || !strcmp(e->file, file)) &&
            (!line || e->line == line) && (!col || e->col == col))
            return true;
    }
    fprintf(stderr, "  no error '%s' at %s:%d:%d; got:\n", part, file ? file : "*", line, col);
    for (int i = 0; i < diags.n; i++)
        cp_err_print(&diags.items[i], stderr);
    return false;
}

static const char base_a[] =
    "horizon: {slots: 4}\n"
    "sites: [{name: dc-a, energy_price: 0.1}]\n"
    "accelerators: [{name: V100, memory_gb: 16}]\n"
    "objective: {carbon_price_per_ton: 50}\n"
    "jobs:\n"
    "  - {name: j1, kind: training, work: 100, throughput: {V100: 1}}\n";
static const char base_b[] =
    "horizon: {slot_hours: 0.5, start: '2024-01-01T00:00:00Z'}\n"
    "sites: [{name: dc-b}]\n"
    "objective: {budget: 1000}\n"
    "jobs:\n"
    "  - {name: j2, kind: training, work: 200, throughput: {V100: 2}}\n"
    "  - {name: j3, kind: training, work: 300, throughput: {V100: 3}}\n";

TEST(load_merge_concatenates_sequences_in_order)
{
    cp_input *in = load(2, base_a, base_b);
    CHECK(in != NULL);
    if (!in)
        return;
    CHECK_INT(in->n_sites, 2);
    CHECK_STR(in->sites[0].name, "dc-a");
    CHECK_STR(in->sites[1].name, "dc-b");
    CHECK_INT(in->n_jobs, 3);
    CHECK_STR(in->jobs[0].name, "j1");
    CHECK_STR(in->jobs[1].name, "j2");
    CHECK_STR(in->jobs[2].name, "j3");
    /* j2 sits in b.yaml, line 5, column 5 (the "{" of its mapping) */
    CHECK_STR(in->jobs[1].pos.file, "b.yaml");
    CHECK_INT(in->jobs[1].pos.line, 5);
    CHECK_INT(in->jobs[1].pos.col, 5);
    /* j2's throughput names V100 from a.yaml: references cross files */
    CHECK_INT(in->jobs[1].n_throughput, 1);
    CHECK_INT(in->jobs[1].throughput[0].acc, 0);
    unload(in);
}

TEST(load_merge_horizon_and_objective_key_by_key)
{
    cp_input *in = load(2, base_a, base_b);
    CHECK(in != NULL);
    if (!in)
        return;
    CHECK_INT(in->slots, 4);              /* from a.yaml */
    CHECK_NEAR(in->slot_hours, 0.5, 0);   /* from b.yaml */
    CHECK_STR(in->start, "2024-01-01T00:00:00Z");
    CHECK_NEAR(in->carbon_price_per_ton, 50, 0);
    CHECK(in->has_budget);
    CHECK_NEAR(in->budget, 1000, 0);
    /* horizon end = 4 slots * 0.5 h, the default deadline of every job */
    CHECK_NEAR(cp_input_horizon_hours(in), 2.0, 0);
    CHECK_NEAR(in->jobs[0].deadline_hour, 2.0, 0);
    unload(in);
}

TEST(load_merge_same_scalar_twice_names_both_places)
{
    static const char b[] = "sites: []\nhorizon:\n  slots: 8\n";
    cp_input *in = load(2, base_a, b);
    CHECK(in == NULL);
    CHECK_INT(diags.worst, CP_ERR_INPUT);
    CHECK(has_error("b.yaml", 3, 3, "'horizon.slots' is given twice (first at a.yaml:1:11)"));
    unload(in);
}

TEST(load_duplicate_names_across_files)
{
    static const char b[] = "sites: [{name: dc-a}]\n";
    cp_input *in = load(2, base_a, b);
    CHECK(in == NULL);
    CHECK(has_error("b.yaml", 1, 9, "site 'dc-a' is defined twice (first at a.yaml:2:9)"));
    unload(in);
}

TEST(load_defaults)
{
    static const char t[] =
        "horizon: {slots: 4}\n"
        "sites: [{name: dc}]\n"
        "accelerators: [{name: V100, memory_gb: 16}]\n"
        "pools:\n"
        "  - {name: rack, site: dc, nodes: 3, node: {cpus: 8, memory_gb: 64}}\n"
        "offers:\n"
        "  - {name: od, instance: {cpus: 8, memory_gb: 64}, price_hour: 1}\n"
        "  - {name: sp, instance: {cpus: 8, memory_gb: 64}, price_hour: 1,\n"
        "     quota: [1, 2, 3, 4], spot_price_hour: 0.3}\n"
        "jobs:\n"
        "  - {name: t, kind: training, work: 100, throughput: {V100: 1}}\n"
        "  - {name: late, kind: training, work: 100, throughput: {V100: 1}, deadline_hour: 99}\n"
        "  - {name: early, kind: training, work: 100, throughput: {V100: 1}, deadline_hour: 2.5}\n";
    cp_input *in = load(1, t);
    CHECK(in != NULL);
    if (!in)
        return;
    CHECK_NEAR(in->slot_hours, 1.0, 0);
    CHECK(in->start == NULL);
    CHECK_NEAR(in->carbon_price_per_ton, 0, 0);
    CHECK(!in->has_budget);
    const cp_site *s = &in->sites[0];
    CHECK_NEAR(s->pue, 1.0, 0);
    CHECK(!s->energy_price.set || cp_series_at(&s->energy_price, 0) == 0);
    CHECK(!s->power_cap_kw.set);
    CHECK_NEAR(in->accels[0].power_w, 0, 0);
    CHECK_NEAR(in->accels[0].idle_power_w, 0, 0);
    const cp_pool *p = &in->pools[0];
    CHECK_INT(p->available.n, 1);
    CHECK_NEAR(cp_series_at(&p->available, 3), 3, 0); /* available = nodes */
    CHECK(!p->available.set);
    CHECK_STR(p->node.type, "rack"); /* type = pool name */
    CHECK_INT(p->node.acc, -1);
    CHECK_INT(p->node.accelerators, 0);
    const cp_offer *od = &in->offers[0], *sp = &in->offers[1];
    CHECK_STR(od->inst.type, "od");
    CHECK_INT(od->site, -1);
    CHECK(od->provider == NULL && od->region == NULL);
    CHECK_INT(od->quota.n, 1);
    CHECK_NEAR(cp_series_at(&od->quota, 2), 1000, 0); /* quota 1000 */
    CHECK(!od->has_spot);
    CHECK(sp->has_spot);
    CHECK_NEAR(sp->spot_interruptions_per_hour, 0, 0);
    CHECK_INT(sp->spot_quota.n, 4); /* spot_quota = quota, slot by slot */
    for (int t2 = 0; t2 < 4; t2++)
        CHECK_NEAR(cp_series_at(&sp->spot_quota, t2), t2 + 1, 0);
    const cp_job *j = &in->jobs[0];
    CHECK_NEAR(j->drop_penalty, 1e6, 0);
    CHECK_NEAR(j->checkpoint_minutes, 30, 0);
    CHECK_NEAR(j->restart_minutes, 5, 0);
    CHECK_NEAR(j->release_hour, 0, 0);
    CHECK(!j->has_deadline);
    CHECK_NEAR(j->deadline_hour, 4, 0); /* horizon end */
    CHECK(!j->preemptible);
    CHECK(j->placement.cloud && j->placement.on_prem);
    CHECK(!j->placement.has_pools && !j->placement.has_offers);
    CHECK(!j->placement.has_providers && !j->placement.has_regions);
    CHECK_INT(j->n_counts, 1);
    CHECK_INT(j->counts[0], 1); /* accelerators: [1] */
    CHECK_INT(j->scaling, CP_SCALING_LINEAR);
    CHECK(!j->has_accelerator_memory);
    CHECK_NEAR(j->cpus_per_accelerator, 0, 0);
    CHECK_NEAR(j->memory_gb_per_accelerator, 0, 0);
    /* a deadline beyond the horizon end is read as the end (capplan.5 §4) */
    CHECK(in->jobs[1].has_deadline);
    CHECK_NEAR(in->jobs[1].deadline_hour, 4, 0);
    CHECK_NEAR(in->jobs[2].deadline_hour, 2.5, 0);
    unload(in);
}

TEST(load_deadline_clamps_with_half_hour_slots)
{
    /* horizon end = 6 slots * 0.5 h = 3 h, whichever file gives slot_hours */
    static const char a[] =
        "accelerators: [{name: V100, memory_gb: 16}]\n"
        "jobs: [{name: t, kind: training, work: 1, throughput: {V100: 1}, deadline_hour: 3.5}]\n";
    static const char b[] = "horizon: {slots: 6, slot_hours: 0.5}\n";
    cp_input *in = load(2, a, b);
    CHECK(in != NULL);
    if (!in)
        return;
    CHECK_NEAR(in->jobs[0].deadline_hour, 3.0, 0);
    unload(in);
}

static cp_node *scalar_of(cp_node *map, const char *key)
{
    cp_node *n = cp_map_get(map, key);
    CHECK(n != NULL);
    return n;
}

TEST(yaml_core_schema_scalars)
{
    static const char t[] =
        "hex: 0x1A\noct: 0o17\nexp: 1e3\ninf: .inf\nninf: -.Inf\nnan: .nan\n"
        "quoted: \"1\"\nsingle: '2.5'\nplus: +12\nfrac: .5\ndot: 1.\nneg: -2\nsmall: 1e-3\n"
        "big: 3.6e7\nt: true\nf: False\nyes: yes\nnull1: ~\nnull2:\nnull3: null\n"
        "word: 12abc\nunderscore: 1_000\nhexbad: 0x\nblock: |\n  7\n";
    cp_node *root = NULL;
    cp_diags_init(&diags);
    CHECK_INT(cp_yaml_load_string("s.yaml", t, strlen(t), &root, &diags), CP_OK);
    if (!root)
        return;
    double v;
    bool b;
    CHECK(cp_scalar_number(scalar_of(root, "hex"), &v) && v == 26);
    CHECK(cp_scalar_number(scalar_of(root, "oct"), &v) && v == 15);
    CHECK(cp_scalar_number(scalar_of(root, "exp"), &v) && v == 1000);
    CHECK(cp_scalar_number(scalar_of(root, "inf"), &v) && isinf(v) && v > 0);
    CHECK(cp_scalar_number(scalar_of(root, "ninf"), &v) && isinf(v) && v < 0);
    CHECK(cp_scalar_number(scalar_of(root, "nan"), &v) && isnan(v));
    CHECK(cp_scalar_number(scalar_of(root, "plus"), &v) && v == 12);
    CHECK(cp_scalar_number(scalar_of(root, "frac"), &v) && v == 0.5);
    CHECK(cp_scalar_number(scalar_of(root, "dot"), &v) && v == 1);
    CHECK(cp_scalar_number(scalar_of(root, "neg"), &v) && v == -2);
    CHECK(cp_scalar_number(scalar_of(root, "small"), &v) && v == 1e-3);
    CHECK(cp_scalar_number(scalar_of(root, "big"), &v) && v == 3.6e7);
    /* a quoted (or block) scalar is always a string */
    CHECK(!cp_scalar_number(scalar_of(root, "quoted"), &v));
    CHECK(!cp_scalar_number(scalar_of(root, "single"), &v));
    CHECK(!cp_scalar_number(scalar_of(root, "block"), &v));
    CHECK_STR(scalar_of(root, "quoted")->str, "1");
    CHECK(scalar_of(root, "quoted")->quoted);
    /* not numbers in the core schema */
    CHECK(!cp_scalar_number(scalar_of(root, "word"), &v));
    CHECK(!cp_scalar_number(scalar_of(root, "underscore"), &v));
    CHECK(!cp_scalar_number(scalar_of(root, "hexbad"), &v));
    CHECK(!cp_scalar_number(scalar_of(root, "t"), &v));
    CHECK(cp_scalar_bool(scalar_of(root, "t"), &b) && b);
    CHECK(cp_scalar_bool(scalar_of(root, "f"), &b) && !b);
    CHECK(!cp_scalar_bool(scalar_of(root, "yes"), &b)); /* YAML 1.1 only */
    CHECK(cp_scalar_is_null(scalar_of(root, "null1")));
    CHECK(cp_scalar_is_null(scalar_of(root, "null2")));
    CHECK(cp_scalar_is_null(scalar_of(root, "null3")));
    CHECK(!cp_scalar_is_null(scalar_of(root, "quoted")));
    /* positions are 1-based: "oct" is the key on line 2 */
    CHECK_INT(scalar_of(root, "oct")->pos.line, 2);
    CHECK_INT(scalar_of(root, "oct")->pos.col, 6);
    cp_node_free(root);
}

TEST(load_core_schema_numbers_in_fields)
{
    static const char t[] =
        "horizon: {slots: 4.0}\n"                   /* 2.0 is accepted for an int */
        "accelerators: [{name: V100, memory_gb: 0x1A, power_w: 1e3, idle_power_w: 0o17}]\n";
    cp_input *in = load(1, t);
    CHECK(in != NULL);
    if (!in)
        return;
    CHECK_INT(in->slots, 4);
    CHECK_NEAR(in->accels[0].memory_gb, 26, 0);
    CHECK_NEAR(in->accels[0].power_w, 1000, 0);
    CHECK_NEAR(in->accels[0].idle_power_w, 15, 0);
    unload(in);
}

TEST(load_rejects_quoted_numbers_fractions_and_nonfinite)
{
    static const char t[] =
        "horizon: {slots: 2.5}\n"
        "accelerators: [{name: V100, memory_gb: \"16\", power_w: .inf}]\n"
        "sites: [{name: dc, pue: .nan}]\n";
    cp_input *in = load(1, t);
    CHECK(in == NULL);
    CHECK_INT(diags.n, 4);
    CHECK(has_error("a.yaml", 1, 18, "'slots' must be an integer from 1 to 10000, got '2.5'"));
    CHECK(has_error("a.yaml", 2, 40, "'memory_gb' must be a number > 0, got '16', a quoted string"));
    CHECK(has_error("a.yaml", 2, 55, "'power_w' must be a finite number >= 0, got '.inf'"));
    CHECK(has_error("a.yaml", 3, 25, "'pue' must be a finite number >= 1, got '.nan'"));
    unload(in);
}

TEST(load_reports_all_errors_up_to_the_cap)
{
    /* 60 bad accelerators: 50 stored, 10 counted */
    char t[4096];
    size_t len = (size_t)snprintf(t, sizeof t, "horizon: {slots: 1}\naccelerators:\n");
    for (int i = 0; i < 60; i++)
        len += (size_t)snprintf(t + len, sizeof t - len, "  - {name: g%d, memory_gb: 0}\n", i);
    cp_input *in = load(1, t);
    CHECK(in == NULL);
    CHECK_INT(diags.n, CP_DIAGS_MAX);
    CHECK_INT(diags.dropped, 10);
    unload(in);
}

TEST(yaml_refuses_alias_bomb_quickly)
{
    static const char t[] =
        "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
        "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
        "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
        "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
        "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
        "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n"
        "h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g, *g]\n"
        "i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h, *h]\n";
    cp_node *root = NULL;
    cp_diags_init(&diags);
    CHECK_INT(cp_yaml_load_string("bomb.yaml", t, strlen(t), &root, &diags), CP_ERR_INPUT);
    CHECK(root == NULL);
    /* copies made through aliases: b 10*11 = 110, c 10*111 = 1110, d 11110,
     * e 111110: e (line 5) is where the total passes 100000 */
    CHECK(has_error("bomb.yaml", 5, 4, "aliases here expand to more than 100000 copied nodes"));
}

TEST(yaml_accepts_moderate_aliases)
{
    static const char t[] = "a: &a {x: 1, y: [1, 2]}\nb: *a\nc: [*a, *a]\n";
    cp_node *root = NULL;
    cp_diags_init(&diags);
    CHECK_INT(cp_yaml_load_string("ok.yaml", t, strlen(t), &root, &diags), CP_OK);
    if (!root)
        return;
    cp_node *b = cp_map_get(root, "b");
    CHECK(b && b->kind == CP_NODE_MAP && b->n == 2);
    /* an alias copies the anchored node, positions included */
    CHECK(b && b->pos.line == 1);
    cp_node *c = cp_map_get(root, "c");
    CHECK(c && c->kind == CP_NODE_SEQ && c->n == 2);
    cp_node_free(root);
}

TEST(yaml_refuses_cycles_and_deep_nesting)
{
    static const char cyc[] = "a: &a [1, *a]\n";
    cp_node *root = NULL;
    cp_diags_init(&diags);
    CHECK_INT(cp_yaml_load_string("c.yaml", cyc, strlen(cyc), &root, &diags), CP_ERR_INPUT);
    CHECK(has_error("c.yaml", 1, 4, "this node holds an alias of itself (a cycle)"));
    char deep[300];
    memset(deep, '[', 100);
    memset(deep + 100, ']', 100);
    deep[200] = '\0';
    cp_diags_init(&diags);
    CHECK_INT(cp_yaml_load_string("d.yaml", deep, 200, &root, &diags), CP_ERR_INPUT);
    CHECK(has_error("d.yaml", 1, 66, "nesting deeper than 64 levels"));
}

TEST(yaml_empty_and_second_document)
{
    cp_node *root = NULL;
    cp_diags_init(&diags);
    CHECK_INT(cp_yaml_load_string("e.yaml", "", 0, &root, &diags), CP_ERR_INPUT);
    CHECK(has_error("e.yaml", 1, 1, "empty file"));
    static const char two[] = "a: 1\n---\nb: 2\n";
    cp_diags_init(&diags);
    CHECK_INT(cp_yaml_load_string("t.yaml", two, strlen(two), &root, &diags), CP_ERR_INPUT);
    CHECK(has_error("t.yaml", 2, 1, "a second YAML document") /* at its --- line */);
    static const char dup[] = "a: 1\nb: 2\na: 3\n";
    cp_diags_init(&diags);
    CHECK_INT(cp_yaml_load_string("u.yaml", dup, strlen(dup), &root, &diags), CP_ERR_INPUT);
    CHECK(has_error("u.yaml", 3, 1, "duplicate key 'a' (first at line 1, column 1)"));
}

TEST(load_file_errors)
{
    cp_diags_init(&diags);
    const char *paths[] = {"tests/unit/no-such-file.yaml"};
    cp_input *in = NULL;
    CHECK_INT(cp_input_load(paths, 1, &in, &diags), CP_ERR_INPUT);
    CHECK(in == NULL);
    CHECK(has_error("tests/unit/no-such-file.yaml", 0, 0, "cannot open: No such file or directory"));
    cp_diags_init(&diags);
    const char *dir[] = {"tests/unit"};
    CHECK_INT(cp_input_load(dir, 1, &in, &diags), CP_ERR_INPUT);
    CHECK(has_error("tests/unit", 0, 0, "is a directory"));
}

TEST(load_example_tiny)
{
    cp_diags_init(&diags);
    const char *paths[] = {"examples/tiny.yaml"};
    cp_input *in = NULL;
    CHECK_INT(cp_input_load(paths, 1, &in, &diags), CP_OK);
    if (!in)
        return;
    CHECK_INT(in->n_jobs, 3);
    CHECK_INT(in->jobs[1].scaling, CP_SCALING_AMDAHL);
    CHECK_NEAR(in->jobs[1].serial_fraction, 0.2, 0);
    CHECK_INT(in->jobs[0].scaling, CP_SCALING_TABLE);
    CHECK_NEAR(in->jobs[0].speedup[2], 3, 0); /* speedup {4: 3}, counts [1, 2, 4] */
    CHECK_STR(in->files[0], "examples/tiny.yaml");
    CHECK(in->jobs[0].pos.file == in->files[0]);
    cp_input_free(in);
}

/* Fail the N-th allocation for every N: each run must end in CP_OK or
 * CP_ERR_NOMEM, never a bogus input error, a crash or (under `make asan`)
 * a leak. libyaml's own allocations are not covered by the hook. */
TEST(load_every_allocation_failure_is_clean)
{
    const char *paths[] = {"examples/tiny.yaml"};
    cp_alloc_fail_after(-1);
    long before = cp_alloc_count();
    cp_input *in = NULL;
    cp_diags_init(&diags);
    CHECK_INT(cp_input_load(paths, 1, &in, &diags), CP_OK);
    long total = cp_alloc_count() - before;
    cp_input_free(in);
    CHECK(total > 100);
    int ok = 0, nomem = 0;
    for (long n = 0; n <= total; n++) {
        in = NULL;
        cp_diags_init(&diags);
        cp_alloc_fail_after(n);
        int rc = cp_input_load(paths, 1, &in, &diags);
        cp_modeset *ms = NULL;
        cp_err err;
        cp_err_init(&err);
        int mrc = rc == CP_OK ? cp_modes_build(in, &ms, &err) : CP_OK;
        cp_alloc_fail_after(-1);
        if (rc == CP_OK) {
            ok++;
            CHECK(in != NULL);
            CHECK(mrc == CP_OK || mrc == CP_ERR_NOMEM);
        } else {
            nomem++;
            if (rc != CP_ERR_NOMEM) {
                fprintf(stderr, "  failing allocation %ld: rc %d\n", n, rc);
                cp_diags_print(&diags, stderr);
            }
            CHECK_INT(rc, CP_ERR_NOMEM);
            CHECK(in == NULL);
        }
        cp_modeset_free(ms);
        cp_input_free(in);
    }
    CHECK(ok >= 1);
    CHECK(nomem >= total);
}

/* The same on inputs with errors: CP_ERR_INPUT or CP_ERR_NOMEM, no leak. */
TEST(load_allocation_failure_on_bad_inputs)
{
    static const char *const files[] = {"tests/bad/duplicate-names.yaml",
                                        "tests/bad/unknown-key-nested.yaml",
                                        "tests/bad/scaling-bad.yaml", "tests/bad/alias-cycle.yaml"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        const char *paths[] = {files[f]};
        cp_alloc_fail_after(-1);
        long before = cp_alloc_count();
        cp_input *in = NULL;
        cp_diags_init(&diags);
        CHECK_INT(cp_input_load(paths, 1, &in, &diags), CP_ERR_INPUT);
        long total = cp_alloc_count() - before;
        for (long n = 0; n < total; n++) {
            in = NULL;
            cp_diags_init(&diags);
            cp_alloc_fail_after(n);
            int rc = cp_input_load(paths, 1, &in, &diags);
            cp_alloc_fail_after(-1);
            CHECK(rc == CP_ERR_INPUT || rc == CP_ERR_NOMEM);
            CHECK(in == NULL);
        }
    }
}
