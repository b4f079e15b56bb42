/*
 * The list of cost parts (models/cp_cost_parts.h) and what follows from
 * it: the rules of the list itself, and the plan writer and reader
 * expanding it alike (every part a plan of the input has is written and
 * reads back to the figure it was written from; no other part is).
 */
#include "test.h"

#include "cp_cost.h"
#include "cp_cost_parts.h"
#include "cp_methods.h"
#include "cp_plan_read.h"
#include "cp_plan_write.h"
#include "cp_solver.h"
#include "cp_whatif.h"
#include "cp_yaml.h"

#include <string.h>

static int part(const char *key)
{
    for (int i = 0; i < CP_COST_N; i++)
        if (!strcmp(cp_cost_part_info[i].key, key))
            return i;
    return -1;
}

TEST(cost_parts_list)
{
    int sums = 0;
    for (int i = 0; i < CP_COST_N; i++) {
        const cp_cost_part *p = &cp_cost_part_info[i];
        CHECK_INT(part(p->key), i); /* keys are unique */
        CHECK(p->label[0] && p->head[0]);
        CHECK_INT(!strcmp(p->unit, "$"), cp_cost_part_is_money(i));
        CHECK_INT(p->color != NULL, (p->flags & CP_COST_TERM) != 0); /* terms are drawn */
        sums += (p->flags & CP_COST_SUM) != 0;
    }
    CHECK_INT(sums, 1);
    CHECK_INT(part("total"), 0);
    /* the plan reader requires the 1.0 keys of money, and no other */
    const char *req[] = {"total", "cloud", "energy", "carbon", "penalty"};
    int n_req = 0;
    for (int i = 0; i < CP_COST_N; i++)
        n_req += cp_cost_part_required(i);
    CHECK_INT(n_req, 5);
    for (int k = 0; k < 5; k++)
        CHECK(cp_cost_part_required(part(req[k])));
    /* egress only for inputs where a job has data, starts and unserved
     * only for inputs with services (capplan.5 §10.4), changes only in a
     * re-plan (capplan.5 §10.5); the rest always */
    int eg = part("egress"), ch = part("changes"), st = part("starts"), un = part("unserved");
    CHECK(eg >= 0 && ch >= 0 && st >= 0 && un >= 0);
    CHECK(!(cp_cost_part_info[ch].flags & CP_COST_BUDGET)); /* budgets do not count it */
    for (int i = 0; i < CP_COST_N; i++) {
        CHECK(cp_cost_part_shown(i, CP_COST_IF_DATA | CP_COST_IF_REPLAN | CP_COST_IF_SERVICES));
        CHECK_INT(cp_cost_part_shown(i, CP_COST_IF_DATA), i != ch && i != st && i != un);
        CHECK_INT(cp_cost_part_shown(i, CP_COST_IF_SERVICES), i != eg && i != ch);
        CHECK_INT(cp_cost_part_shown(i, 0), i != eg && i != ch && i != st && i != un);
    }
    CHECK(!cp_cost_part_worth_showing(st, 0));
    CHECK(cp_cost_part_worth_showing(un, 0.5));
    CHECK(!cp_cost_part_worth_showing(eg, 0));
    CHECK(cp_cost_part_worth_showing(eg, 0.5));
    CHECK(cp_cost_part_worth_showing(part("penalty"), 0));
}

TEST(cost_parts_sum_budget_describe)
{
    cp_costs c;
    memset(&c, 0, sizeof c);
    c.cloud = 1;
    c.energy = 2;
    c.carbon = 4;
    c.egress = 8;
    c.penalty = 16;
    c.energy_kwh = 100;
    c.carbon_kg = 200;
    cp_costs_sum(&c, 0);
    CHECK_NEAR(c.total, 31, 0);
    CHECK_NEAR(c.v[part("total")], 31, 0);
    CHECK_NEAR(cp_costs_budget(&c), 15, 0); /* not the penalties */
    cp_buf b;
    cp_buf_init(&b);
    cp_costs_describe(&c, 0, &b);
    CHECK_STR(b.s, "total $31.00 = cloud $1.00 + energy $2.00 + carbon $4.00 + drop penalties $16.00");
    cp_buf_reset(&b);
    cp_costs_describe(&c, CP_COST_IF_DATA, &b);
    CHECK_STR(b.s, "total $31.00 = cloud $1.00 + energy $2.00 + carbon $4.00 + egress $8.00 + "
                   "drop penalties $16.00");
    /* capplan.5 §10.4: starts count in the budget, unserved requests do not */
    c.starts = 32;
    c.unserved = 64;
    cp_costs_sum(&c, 0);
    CHECK_NEAR(c.total, 127, 0);
    CHECK_NEAR(cp_costs_budget(&c), 47, 0);
    cp_buf_reset(&b);
    cp_costs_describe(&c, CP_COST_IF_SERVICES, &b);
    CHECK_STR(b.s, "total $127.00 = cloud $1.00 + energy $2.00 + carbon $4.00 + service starts "
                   "$32.00 + unserved requests $64.00 + drop penalties $16.00");
    cp_buf_release(&b);
}

/* capplan.5 §10.1's share of an instance: the dominant dimension of the
 * dimensions the instance has; over two instances, 2. */
TEST(cost_parts_instance_share)
{
    cp_machine m8 = {NULL, 0, 8, 96, 768, 0, 0};
    CHECK_NEAR(cp_instance_share((double[3]){4, 8, 0}, &m8), 0.5, 0);
    CHECK_NEAR(cp_instance_share((double[3]){4, 88, 0}, &m8), 88.0 / 96, 0);
    CHECK_NEAR(cp_instance_share((double[3]){16, 0, 1536}, &m8), 2, 0);
    cp_machine cpu = {NULL, -1, 0, 16, 0, 0, 0}; /* no accelerators, no memory */
    CHECK_NEAR(cp_instance_share((double[3]){0, 4, 100}, &cpu), 0.25, 0);
}

/* Plans FILE with the heuristic, writes YAML and reads it back: the
 * totals hold exactly the parts shown for the input, each the figure. */
static void round_trip(const char *file, bool data)
{
    static cp_diags diags;
    cp_diags_init(&diags);
    cp_input *in = NULL;
    CHECK_INT(cp_input_load(&file, 1, &in, &diags), CP_OK);
    if (!in)
        return;
    CHECK_INT(in->uses_egress, data);
    cp_modeset *ms = NULL;
    cp_plan *plan = NULL;
    cp_node *root = NULL;
    cp_err err;
    cp_err_init(&err);
    cp_buf b;
    cp_buf_init(&b);
    cp_plan_figures f;
    memset(&f, 0, sizeof f);
    cp_plan_file pf;
    cp_plan_file_init(&pf);
    cp_solve_opts so;
    cp_solve_opts_init(&so);
    cp_plan_write_opts wo = {CP_FMT_YAML, false, NULL};
    if (cp_modes_build(in, &ms, &err) || cp_plan_new(in, ms, &plan) ||
        cp_plan_solve(in, ms, &cp_solver_heuristic, &so, plan, &err) ||
        cp_plan_write(plan, &wo, &b, &err) || cp_plan_eval(plan, &f, &err) ||
        cp_yaml_load_string("plan", b.s, b.len, &root, &diags) ||
        cp_plan_read(root, NULL, &pf, &err)) {
        CHECK(!"plan, write and read back");
        goto out;
    }
    CHECK(cp_plan_file_is_ok(&pf));
    for (int i = 0; i < CP_COST_N; i++) {
        bool shown = cp_cost_part_shown(i, cp_cost_when(in));
        /* changes: only in a re-plan (tests/suite_replan.sh); starts and
         * unserved only with services */
        CHECK_INT(shown, (i != part("egress") || data) && i != part("changes") && i != part("starts") &&
                             i != part("unserved"));
        CHECK_INT(pf.totals.part[i].has, shown ? CP_PLAN_SET : CP_PLAN_ABSENT);
        if (shown)
            CHECK_NEAR(pf.totals.part[i].v, f.costs.v[i], 1e-15);
    }
out:
    cp_plan_file_release(&pf);
    cp_node_free(root);
    cp_plan_figures_release(&f);
    cp_buf_release(&b);
    cp_plan_free(plan);
    cp_modeset_free(ms);
    cp_input_free(in);
}

TEST(cost_parts_write_read)
{
    round_trip("examples/tiny.yaml", false);
    round_trip("tests/plan/egress_onprem.yaml", true);
}

/* The what-if table's columns: every part but a conditional one that no
 * row has; egress keeps its column (a zero column since 1.1). */
TEST(cost_parts_whatif_columns)
{
    cp_whatif_row rows[2];
    memset(rows, 0, sizeof rows);
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < CP_COST_N; i++)
            rows[r].costs.v[i] = NAN;
    cp_whatif_table t = {.n_rows = 2, .rows = rows};
    for (int i = 0; i < CP_COST_N; i++)
        CHECK_INT(cp_whatif_has_part(&t, i),
                  !(cp_cost_part_info[i].flags & CP_COST_PLAN_ONLY) &&
                      (!(cp_cost_part_info[i].flags & CP_COST_IF_ANY) ||
                       (cp_cost_part_info[i].flags & CP_COST_ZERO_COLUMN)));
    CHECK(cp_whatif_has_part(&t, part("egress")));
}
