/*
 * The parts of a plan's cost, written once: the plan writer's `totals`,
 * the plan reader, verify's comparison, the what-if table (md, csv,
 * json) and its shard files, the report's cards and stacked bars and
 * the plan command's summary all expand CP_COST_PARTS, so a new part is
 * one line here plus its formula where the plan is evaluated
 * (docs/architecture.md, "An objective term").
 *
 * The list is data, not arithmetic: verify shares it (which keys a plan
 * has, which are terms of the total, which count in the budget) and
 * re-derives every value on its own (docs/verify.md).
 */
#ifndef CP_COST_PARTS_H
#define CP_COST_PARTS_H

#include <stdbool.h>

struct cp_buf;
struct cp_input;

/* What a part is (flags of the list). */
enum {
    CP_COST_SUM = 1 << 0,    /* the total: the sum of the terms, in list order */
    CP_COST_TERM = 1 << 1,   /* a term of the total */
    CP_COST_BUDGET = 1 << 2, /* counts in objective.budget */
    CP_COST_QTY = 1 << 3,    /* a quantity (kWh, kg), not money */
    /* a key newer than 1.1 plans: read and checked when present, never
     * required, so older plans stay valid */
    CP_COST_NEW = 1 << 4,
    /* in plans and reports only, not a column of what-if tables */
    CP_COST_PLAN_ONLY = 1 << 5,
    /* a conditional part that what-if tables and the stacked bars keep
     * for every input, at 0 where it does not apply (egress, since 1.1) */
    CP_COST_ZERO_COLUMN = 1 << 6,
    /* a term that no job's or service's cost holds and that unattributed
     * leaves out too (capplan.5 §10.1): drop penalties, changes */
    CP_COST_UNSHARED = 1 << 7,
    /* Conditions: a part with one is written only for plans that meet it
     * (cp_cost_when), and people see it only when it is not 0. */
    CP_COST_IF_DATA = 1 << 8,     /* some job has `data` */
    CP_COST_IF_SERVICES = 1 << 9, /* the input has services */
    CP_COST_IF_REPLAN = 1 << 10,  /* a plan made from an earlier plan */
    CP_COST_IF_ANY = CP_COST_IF_DATA | CP_COST_IF_SERVICES | CP_COST_IF_REPLAN
};

/*
 * X(key, label, head, unit, color, flags), in the order plans, tables and
 * messages list them:
 *   key    the plan's `totals` key and the what-if table's csv/json key
 *   label  words for people: report cards, legends, HTML tables, summaries
 *   head   the heading of its column in Markdown what-if tables
 *   unit   "$", or the quantity's unit
 *   color  its fill in the stacked bars of the reports (terms), else NULL
 *   flags  CP_COST_* above
 */
#define CP_COST_PARTS(X)                                                                       \
    X(total, "total cost", "total $", "$", NULL, CP_COST_SUM)                                  \
    X(cloud, "cloud", "cloud $", "$", "#4e79a7", CP_COST_TERM | CP_COST_BUDGET)                \
    X(energy, "energy", "energy $", "$", "#f28e2b", CP_COST_TERM | CP_COST_BUDGET)             \
    X(carbon, "carbon", "carbon $", "$", "#59a14f", CP_COST_TERM | CP_COST_BUDGET)             \
    X(egress, "egress", "egress $", "$", "#b07aa1",                                            \
      CP_COST_TERM | CP_COST_BUDGET | CP_COST_IF_DATA | CP_COST_ZERO_COLUMN)                   \
    X(starts, "service starts", "starts $", "$", "#76b7b2",                                    \
      CP_COST_TERM | CP_COST_BUDGET | CP_COST_IF_SERVICES | CP_COST_NEW)                       \
    X(unserved, "unserved requests", "unserved $", "$", "#ff9da7",                             \
      CP_COST_TERM | CP_COST_IF_SERVICES | CP_COST_NEW)                                        \
    X(penalty, "drop penalties", "penalty $", "$", "#e15759", CP_COST_TERM | CP_COST_UNSHARED) \
    X(changes, "changes", "changes $", "$", "#9c755f",                                        \
      CP_COST_TERM | CP_COST_UNSHARED | CP_COST_IF_REPLAN | CP_COST_NEW)                       \
    X(unattributed, "unattributed", "unattributed $", "$", NULL, CP_COST_NEW | CP_COST_PLAN_ONLY) \
    X(energy_kwh, "on-prem energy", "kWh", "kWh", NULL, CP_COST_QTY)                           \
    X(carbon_kg, "CO\xE2\x82\x82", "kg CO2", "kg", NULL, CP_COST_QTY)

#define CP_COST_ONE_(...) +1
enum { CP_COST_N = 0 CP_COST_PARTS(CP_COST_ONE_) };

/* One value per part: by name (c.cloud) or by index in list order (c.v[i]). */
#define CP_COST_DOUBLE_(key, ...) double key;
typedef union cp_costs {
    struct {
        CP_COST_PARTS(CP_COST_DOUBLE_)
    };
    double v[CP_COST_N];
} cp_costs;

typedef struct cp_cost_part {
    const char *key, *label, *head, *unit, *color;
    unsigned flags;
} cp_cost_part;

/* The list as a table, index i is part i. */
extern const cp_cost_part cp_cost_part_info[CP_COST_N];

/* The conditions (CP_COST_IF_*) that a plan of `in` meets by its input;
 * a re-plan adds CP_COST_IF_REPLAN itself. */
unsigned cp_cost_when(const struct cp_input *in);
/* Part i belongs in a plan that meets `when`. */
bool cp_cost_part_shown(int i, unsigned when);
/* Part i is money ($). */
bool cp_cost_part_is_money(int i);
/* The plan reader requires part i in every plan that is not infeasible:
 * the total and its terms of 1.0 (the others are checked when present,
 * or, by verify, required when the plan's input calls for them). */
bool cp_cost_part_required(int i);
/* Whether people are shown part i at value v (a report card, a
 * message): always, but a conditional part only when it is not 0. */
bool cp_cost_part_worth_showing(int i, double v);

/* Appends "total $T = cloud $C + ... + drop penalties $P": the terms
 * shown for `when`, to the cent (the plan command's summary). */
void cp_costs_describe(const cp_costs *c, unsigned when, struct cp_buf *b);

/* Sets c->total to the sum of the terms, added in list order, and
 * c->unattributed to what `attributed` (the jobs' and services' costs,
 * capplan.5 §10.1) leaves of the total without its unshared terms. */
void cp_costs_sum(cp_costs *c, double attributed);
/* The terms that count in objective.budget, added in list order. */
double cp_costs_budget(const cp_costs *c);

#endif
