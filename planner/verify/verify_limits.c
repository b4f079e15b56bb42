/*
 * The plan verifier, per-slot limits of capplan.5 §3 (see verify_internal.h):
 * the load of every pool and market per slot against the available nodes
 * or rented instances, the rented instances against the quotas, each
 * site's facility power against its cap, and the re-costed spend against
 * the budget.
 */
#include "verify_internal.h"

#include <stdio.h>
#include <string.h>

void cp_vf_add_loads(cp_vf_ctx *c)
{
    for (int e = 0; e < c->n_jobs; e++) {
        const cp_vf_job *vj = &c->jobs[e];
        if (!vj->counted)
            continue;
        const cp_mode *m = &c->ms->modes[vj->mode];
        const cp_resource *r = &c->ms->res[vj->res];
        for (int t = vj->start; t < vj->start + m->slots; t++) {
            double *l = cp_vf_load_at(c, vj->res, t);
            for (int d = 0; d < CP_DIMS; d++)
                l[d] += m->demand[d];
            if (r->kind == CP_RES_POOL)
                c->busy[(size_t)r->site * (size_t)c->T + (size_t)t] +=
                    m->busy_w * cp_vf_frac_at(m, vj->start, t);
        }
    }
}

bool cp_vf_over_dims(const double *load, const double *cap, cp_buf *b)
{
    bool any = false;
    for (int d = 0; d < CP_DIMS; d++)
        if (cp_vf_over(load[d], cap[d])) {
            cp_buf_printf(b, "%s%s %s > %s", any ? ", " : "", cp_vf_dim_name[d], cp_vf_n(load[d]).s,
                          cp_vf_n(cap[d]).s);
            any = true;
        }
    return any;
}

/* "'a', 'b'": the jobs (plan order) running on resource r in slot t.
 * Returns the last job's entry (the position to report at). */
static cp_pos jobs_on(cp_vf_ctx *c, int r, int t, cp_buf *b)
{
    cp_pos last = c->pf->pos;
    int n = 0;
    for (int e = 0; e < c->n_jobs; e++) {
        const cp_vf_job *vj = &c->jobs[e];
        if (vj->res != r || !cp_vf_runs_at(c, vj, t))
            continue;
        cp_buf_printf(b, "%s'%s'", n++ ? ", " : "", c->in->jobs[vj->job].name);
        last = vj->pj->pos;
    }
    return last;
}

void cp_vf_check_capacity(cp_vf_ctx *c)
{
    const cp_input *in = c->in;
    cp_buf b, jobs;
    cp_buf_init(&b);
    cp_buf_init(&jobs);
    for (int r = 0; r < c->ms->n_res; r++) {
        const cp_resource *res = &c->ms->res[r];
        double unit[CP_DIMS], cap[CP_DIMS];
        cp_vf_mach_cap(res->mach, unit);
        for (int t = 0; t < c->T; t++) {
            double n;
            long y = cp_vf_y_at(c, r, t);
            if (res->kind == CP_RES_POOL) {
                n = cp_series_at(&in->pools[res->index].available, t);
            } else {
                const cp_offer *o = &in->offers[res->index];
                double q = cp_series_at(res->kind == CP_RES_SPOT ? &o->spot_quota : &o->quota, t);
                n = (double)y;
                if (y > q) /* y > 0: read from the entry's instances[t] */
                    cp_vf_viol(c, c->prov[r]->instances.at[t],
                            "market '%s' (%s): %ld instances in slot %d exceed the quota %s",
                            res->name, cp_vf_market_name(res->kind), y, t, cp_vf_n(q).s);
            }
            for (int d = 0; d < CP_DIMS; d++)
                cap[d] = n * unit[d];
            cp_buf_reset(&b);
            if (!cp_vf_over_dims(cp_vf_load_at(c, r, t), cap, &b))
                continue;
            cp_buf_reset(&jobs);
            cp_pos at = jobs_on(c, r, t, &jobs);
            if (res->kind == CP_RES_POOL)
                cp_vf_viol(c, at, "pool '%s' over capacity in slot %d (%s of %d nodes available): %s "
                               "(jobs %s)", res->name, t, cp_vf_n(n).s, in->pools[res->index].nodes,
                        b.s, jobs.s);
            else
                cp_vf_viol(c, at, "market '%s' (%s) short in slot %d with %ld instances rented: %s "
                               "(jobs %s)", res->name, cp_vf_market_name(res->kind), t, y, b.s,
                        jobs.s);
        }
    }
    if (!cp_buf_ok(&b) || !cp_buf_ok(&jobs))
        c->oom = true;
    cp_buf_release(&b);
    cp_buf_release(&jobs);
}

double cp_vf_baseline_w(const cp_input *in, int site, int t)
{
    double w = 0;
    for (int p = 0; p < in->n_pools; p++) {
        const cp_pool *pl = &in->pools[p];
        if (pl->site != site)
            continue;
        double idle = pl->node.idle_power_w;
        if (pl->node.acc >= 0)
            idle += pl->node.accelerators * in->accels[pl->node.acc].idle_power_w;
        w += cp_series_at(&pl->available, t) * idle;
    }
    return w;
}

double cp_vf_site_w(const cp_vf_ctx *c, int site, int t)
{
    return c->in->sites[site].pue *
           (cp_vf_baseline_w(c->in, site, t) + c->busy[(size_t)site * (size_t)c->T + (size_t)t]);
}

/* The first `sites` entry of site s, or NULL. */
static const cp_plan_site *site_entry(cp_vf_ctx *c, int s)
{
    for (int i = 0; i < c->pf->n_sites; i++) {
        const cp_plan_site *e = &c->pf->sites[i];
        if (e->name.has == CP_PLAN_SET && !strcmp(e->name.s, c->in->sites[s].name))
            return e;
    }
    return NULL;
}

void cp_vf_check_power_caps(cp_vf_ctx *c)
{
    const cp_input *in = c->in;
    cp_buf jobs;
    cp_buf_init(&jobs);
    for (int s = 0; s < in->n_sites; s++) {
        const cp_site *st = &in->sites[s];
        if (!st->power_cap_kw.set)
            continue;
        const cp_plan_site *se = site_entry(c, s);
        bool per_slot = se && se->power_kw.has == CP_PLAN_SET && se->power_kw.n == c->T;
        for (int t = 0; t < c->T; t++) {
            double w = cp_vf_site_w(c, s, t);
            double cap = 1000 * cp_series_at(&st->power_cap_kw, t);
            if (!cp_vf_over(w, cap))
                continue;
            /* at power_kw[t], else the site's entry, else the last job on it */
            cp_pos at = per_slot ? se->power_kw.at[t] : se ? se->pos : c->pf->pos;
            cp_buf_reset(&jobs);
            for (int e = 0; e < c->n_jobs; e++) {
                const cp_vf_job *vj = &c->jobs[e];
                if (!cp_vf_runs_at(c, vj, t) || c->ms->res[vj->res].kind != CP_RES_POOL ||
                    c->ms->res[vj->res].site != s)
                    continue;
                cp_buf_printf(&jobs, "%s'%s'", jobs.len ? ", " : "", in->jobs[vj->job].name);
                if (!se)
                    at = vj->pj->pos;
            }
            double base_kw = st->pue * cp_vf_baseline_w(in, s, t) / 1000;
            cp_vf_viol(c, at, "site '%s' over its power cap in slot %d: %s kW > %s kW (baseline %s "
                           "kW, jobs %s)", st->name, t, cp_vf_n(w / 1000).s, cp_vf_n(cap / 1000).s,
                    cp_vf_n(base_kw).s, jobs.len ? jobs.s : "none");
        }
    }
    if (!cp_buf_ok(&jobs))
        c->oom = true;
    cp_buf_release(&jobs);
}

void cp_vf_check_infeasible(cp_vf_ctx *c)
{
    /* capplan.5 §4: only a site whose idle baseline alone exceeds its cap, or a
     * budget below the baseline's cost, makes an instance infeasible
     * (dropping every job is otherwise a plan). Re-derived here from the
     * input, as every figure of verify is; a claim is accepted when the
     * baseline reaches the cap or the budget within the tolerance. */
    const cp_input *in = c->in;
    double base_cost = 0;
    for (int s = 0; s < in->n_sites; s++) {
        const cp_site *st = &in->sites[s];
        for (int t = 0; t < c->T; t++) {
            double w = st->pue * cp_vf_baseline_w(in, s, t);
            base_cost += w * c->h / 1000 *
                         (cp_series_at(&st->energy_price, t) +
                          cp_series_at(&st->carbon_intensity, t) / 1e6 * in->carbon_price_per_ton);
            if (st->power_cap_kw.set && !cp_vf_over(1000 * cp_series_at(&st->power_cap_kw, t), w))
                return;
        }
    }
    if (in->has_budget && !cp_vf_over(in->budget, base_cost))
        return;
    if (in->has_budget)
        cp_vf_viol(c, c->pf->status.pos,
                   "status is infeasible, but no site's idle baseline reaches its power cap and "
                   "the budget (%s $) covers the baseline's cost (%s $): dropping every job is a "
                   "feasible plan",
                   cp_vf_n(in->budget).s, cp_vf_n(base_cost).s);
    else
        cp_vf_viol(c, c->pf->status.pos,
                   "status is infeasible, but no site's idle baseline reaches its power cap and "
                   "there is no budget: dropping every job is a feasible plan");
}

void cp_vf_check_budget(cp_vf_ctx *c)
{
    const cp_input *in = c->in;
    const cp_costs *s = &c->rep->sums;
    if (!in->has_budget)
        return;
    /* the parts the list says count, named as the plan names them */
    double spend = 0;
    char parts[200] = "";
    size_t len = 0;
    for (int i = 0; i < CP_COST_N; i++) {
        if (!(cp_cost_part_info[i].flags & CP_COST_BUDGET))
            continue;
        spend += s->v[i];
        if (cp_cost_part_worth_showing(i, s->v[i]) && len < sizeof parts)
            len += (size_t)snprintf(parts + len, sizeof parts - len, "%s%s", len ? " + " : "",
                                    cp_cost_part_info[i].key);
    }
    if (cp_vf_over(spend, in->budget))
        cp_vf_viol(c, c->pf->totals.pos, /* the root's when absent */
                   "budget exceeded: %s = %s > budget %s", parts, cp_vf_n(spend).s,
                   cp_vf_n(in->budget).s);
}
