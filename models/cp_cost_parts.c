/* The list of cost parts as a table, and its rules; see cp_cost_parts.h. */
#include "cp_cost_parts.h"

#include "cp_buf.h"
#include "cp_input.h"

#include <math.h>

_Static_assert(sizeof(cp_costs) == CP_COST_N * sizeof(double), "cp_costs has no padding");

#define CP_COST_INFO_(key, label, head, unit, color, flags) {#key, label, head, unit, color, flags},
const cp_cost_part cp_cost_part_info[CP_COST_N] = {CP_COST_PARTS(CP_COST_INFO_)};

unsigned cp_cost_when(const cp_input *in)
{
    return (in->uses_egress ? CP_COST_IF_DATA : 0) | (in->n_services ? CP_COST_IF_SERVICES : 0);
}

bool cp_cost_part_shown(int i, unsigned when)
{
    unsigned cond = cp_cost_part_info[i].flags & CP_COST_IF_ANY;
    return (cond & when) == cond;
}

bool cp_cost_part_is_money(int i)
{
    return !(cp_cost_part_info[i].flags & CP_COST_QTY);
}

bool cp_cost_part_required(int i)
{
    unsigned f = cp_cost_part_info[i].flags;
    return (f & (CP_COST_SUM | CP_COST_TERM)) && !(f & (CP_COST_IF_ANY | CP_COST_NEW));
}

bool cp_cost_part_worth_showing(int i, double v)
{
    return !(cp_cost_part_info[i].flags & CP_COST_IF_ANY) || v != 0;
}

void cp_costs_sum(cp_costs *c, double attributed)
{
    double s = 0, shared = 0; /* shared: summed, not total - penalties (cancellation) */
    for (int i = 0; i < CP_COST_N; i++) {
        unsigned f = cp_cost_part_info[i].flags;
        if (f & CP_COST_TERM)
            s += c->v[i];
        if ((f & CP_COST_TERM) && !(f & CP_COST_UNSHARED))
            shared += c->v[i];
    }
    c->total = s;
    /* a difference of sums of the same figures in another order: what
     * is below their last digits is round-off (2.8e-17), not a cost */
    double u = shared - attributed;
    c->unattributed = fabs(u) <= 1e-12 * fmax(1, fabs(shared)) ? 0 : u;
}

double cp_costs_budget(const cp_costs *c)
{
    double s = 0;
    for (int i = 0; i < CP_COST_N; i++)
        if (cp_cost_part_info[i].flags & CP_COST_BUDGET)
            s += c->v[i];
    return s;
}

void cp_costs_describe(const cp_costs *c, unsigned when, cp_buf *b)
{
    cp_buf_printf(b, "total $%.2f =", c->total);
    const char *sep = " ";
    for (int i = 0; i < CP_COST_N; i++) {
        if (!(cp_cost_part_info[i].flags & CP_COST_TERM) || !cp_cost_part_shown(i, when))
            continue;
        cp_buf_printf(b, "%s%s $%.2f", sep, cp_cost_part_info[i].label, c->v[i]);
        sep = " + ";
    }
}
