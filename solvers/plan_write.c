/*
 * The plan file (capplan.5 §5). The tree is written once through cp_out (YAML
 * or JSON); CSV is a flat job table. Every number is derived from the
 * plan's choices by cp_plan_eval, so `capplan verify` re-costs a plan to
 * exactly what it says.
 */
#include "cp_plan_write.h"

#include "cp_alloc.h"
#include "cp_leases.h"
#include "cp_cost.h"
#include "cp_csv.h"
#include "cp_out.h"

#include <math.h>

static void solver_block(cp_out *o, const cp_plan *p, const cp_plan_write_opts *w, double total)
{
    cp_out_key(o, "solver");
    cp_out_map(o);
    cp_out_key(o, "method");
    cp_out_word(o, p->method);
    if (p->mip_engine) { /* absent: GLPK, linked in (docs/performance.md, "MIP engines") */
        cp_out_key(o, "mip_engine");
        cp_out_word(o, p->mip_engine);
    }
    cp_out_key(o, "seconds");
    cp_out_num(o, w->timing ? round(p->seconds * 1000) / 1000 : 0);
    cp_out_key(o, "objective");
    cp_out_num(o, total);
    cp_out_key(o, "bound");
    cp_out_num(o, p->bound);
    cp_out_key(o, "gap");
    double gap = NAN;
    /* of the figures written: a re-plan that keeps OLD (its bound read
     * from OLD's file) writes OLD's gap to the last digit */
    if (!isnan(p->bound))
        gap = fmax(0, (cp_num_fig(total) - cp_num_fig(p->bound)) / fmax(1e-9, fabs(cp_num_fig(total))));
    cp_out_num(o, gap);
    /* the inputs' digest (cp_input.h): a re-plan from this plan knows by
     * it whether the inputs changed (capplan.5 §10.5) */
    char digest[CP_INPUT_DIGEST_TEXT];
    cp_input_digest_text(p->in, digest);
    cp_out_key(o, "inputs");
    cp_out_word(o, digest);
    cp_out_end(o);
}

/* A node or instance id, PREFIX/N, however long the prefix; *oom is
 * set when it cannot be built. */
static void unit_id(cp_out *o, const char *prefix, int unit, bool *oom)
{
    cp_buf id;
    cp_buf_init(&id);
    cp_buf_printf(&id, "%s/%d", prefix, unit);
    if (cp_buf_ok(&id))
        cp_out_str(o, id.s);
    else
        *oom = true;
    cp_buf_release(&id);
}

/* The leases of market r (capplan.5 §5, version 1.1): one map per run of an id. */
static void market_leases(cp_out *o, const cp_plan *p, const cp_leases *ls, int r, bool *oom)
{
    const cp_resource *res = &p->ms->res[r];
    cp_out_key(o, "leases");
    cp_out_seq(o, false);
    for (int l = ls->first[r]; l < ls->first[r + 1]; l++) {
        const cp_lease *e = &ls->v[l];
        cp_out_map(o);
        cp_out_key(o, "id");
        unit_id(o, res->id, e->unit, oom);
        cp_out_key(o, "start_slot");
        cp_out_int(o, e->start);
        cp_out_key(o, "slots");
        cp_out_int(o, e->slots);
        cp_out_key(o, "jobs");
        cp_out_seq(o, true);
        for (int q = 0; q < e->n_jobs; q++)
            cp_out_str(o, cp_lease_entry_name(p, ls->jobs[e->first_job + q]));
        cp_out_end(o);
        cp_out_end(o);
    }
    cp_out_end(o);
}

/* capplan.5 §10.5: `replanned: {now, started, broken, changed}`. */
static void replanned_block(cp_out *o, const cp_plan *p)
{
    const cp_replan *rp = p->ms->replan;
    cp_out_key(o, "replanned");
    cp_out_map(o);
    cp_out_key(o, "now");
    cp_out_int(o, rp->now);
    cp_out_key(o, "started");
    cp_out_int(o, rp->started);
    cp_out_key(o, "broken");
    cp_out_int(o, rp->broken);
    cp_out_key(o, "changed");
    cp_out_int(o, cp_plan_changed(p));
    /* extension (docs/spec-notes.md, "Re-planning"): the price of a change,
     * so that verify and diff need not be told */
    cp_out_key(o, "change_penalty");
    cp_out_num(o, rp->change_penalty);
    cp_out_end(o);
}

static void job_entry(cp_out *o, const cp_plan *p, const cp_plan_figures *f, int j, bool *oom)
{
    const cp_input *in = p->in;
    const cp_modeset *ms = p->ms;
    cp_out_map(o);
    cp_out_key(o, "name");
    cp_out_str(o, in->jobs[j].name);
    cp_out_key(o, "status");
    if (p->mode[j] < 0) {
        cp_out_word(o, "dropped");
        cp_out_key(o, "reason");
        cp_out_str(o, p->reason[j] ? p->reason[j] : "dropped");
        cp_out_end(o);
        return;
    }
    const cp_mode *m = &ms->modes[p->mode[j]];
    const cp_resource *r = &ms->res[m->res];
    cp_out_word(o, "scheduled");
    cp_out_key(o, "resource");
    cp_out_str(o, r->name);
    cp_out_key(o, "market");
    cp_out_word(o, r->kind == CP_RES_POOL ? "pool" : r->kind == CP_RES_SPOT ? "spot" : "on_demand");
    if (m->acc >= 0) {
        cp_out_key(o, "accelerator");
        cp_out_str(o, in->accels[m->acc].name);
    }
    cp_out_key(o, "count");
    cp_out_int(o, m->count);
    if (in->jobs[j].has_shapes) { /* capplan.5 §9.1: written for jobs with shapes */
        cp_out_key(o, "shape");
        cp_out_int(o, m->shape);
    }
    if (m->limit >= 0) { /* capplan.5 §10.3: omitted means none */
        cp_out_key(o, "power_limit_w");
        cp_out_num(o, in->jobs[j].power_limits[m->limit].limit_w);
    }
    cp_out_key(o, "cpus");
    cp_out_num(o, m->demand[CP_DIM_CPU]);
    cp_out_key(o, "memory_gb");
    cp_out_num(o, m->demand[CP_DIM_MEM]);
    cp_out_key(o, "start_slot");
    cp_out_int(o, p->start[j]);
    cp_out_key(o, "slots");
    cp_out_int(o, m->slots);
    double sh = p->start[j] * in->slot_hours;
    cp_out_key(o, "start_hour");
    cp_out_num(o, sh);
    cp_out_key(o, "end_hour");
    cp_out_num(o, sh + m->hours);
    cp_out_key(o, "energy_kwh");
    cp_out_num(o, f->job_energy_kwh[j]);
    if (in->uses_egress) { /* capplan.5 §9.3; absent for inputs without data, as in 1.0 */
        cp_out_key(o, "egress");
        cp_out_num(o, m->egress);
    }
    cp_out_key(o, "cost"); /* capplan.5 §10.1 */
    cp_out_num(o, f->job_cost[j]);
    const cp_replan *rp = ms->replan; /* capplan.5 §10.5 */
    if (rp && rp->job[j].kind == CP_REPLAN_STARTED) {
        cp_out_key(o, "started");
        cp_out_word(o, "true");
    } else if (rp && rp->job[j].kind == CP_REPLAN_BROKEN) {
        cp_out_key(o, "restarted");
        cp_out_word(o, "true");
        if (in->jobs[j].kind == CP_JOB_TRAINING) {
            cp_out_key(o, "work_left");
            cp_out_num(o, rp->job[j].work);
        }
    }
    cp_out_key(o, "nodes");
    cp_out_seq(o, true);
    for (int u = 0; u < p->n_units[j]; u++)
        unit_id(o, r->id, p->units[j][u], oom);
    cp_out_end(o);
    cp_out_end(o);
}

static void series(cp_out *o, const double *v, int n, double scale)
{
    cp_out_seq(o, true);
    for (int t = 0; t < n; t++)
        cp_out_num(o, v[t] * scale);
    cp_out_end(o);
}

/* capplan.5 §10.2: one entry per team of the input, in its order. */
static void teams_block(cp_out *o, const cp_input *in, const cp_plan_figures *f)
{
    cp_out_key(o, "teams");
    cp_out_seq(o, false);
    for (int k = 0; k < in->n_teams; k++) {
        cp_out_map(o);
        cp_out_key(o, "name");
        cp_out_str(o, in->teams[k].name);
        cp_out_key(o, "cost");
        cp_out_num(o, f->team_cost[k]);
        cp_out_key(o, "accelerator_hours");
        cp_out_num(o, f->team_acc_hours[k]);
        cp_out_end(o);
    }
    cp_out_end(o);
}

/* The second line of defence behind the loader's bound on input numbers
 * (CP_INPUT_NUM_MAX): a total or per-job figure that is not finite would
 * be written as null, which verify and report cannot read, so no plan is
 * written at all. */
static int check_finite(const cp_plan *p, const cp_plan_figures *f, cp_err *err)
{
    const char *bad = NULL;
    double v = 0;
    for (int i = 0; i < CP_COST_N && !bad; i++)
        if (!isfinite(f->costs.v[i]))
            bad = cp_cost_part_info[i].key, v = f->costs.v[i];
    for (int j = 0; j < p->n_jobs && !bad; j++) {
        if (!isfinite(f->job_energy_kwh[j]))
            bad = "a job's energy_kwh", v = f->job_energy_kwh[j];
        else if (!isfinite(f->job_cost[j]))
            bad = "a job's cost", v = f->job_cost[j];
    }
    for (int r = 0; r < p->n_res && !bad; r++)
        if (!isfinite(f->market_cost[r]))
            bad = "a market's cost", v = f->market_cost[r];
    for (int k = 0; k < p->in->n_teams && !bad; k++) {
        if (!isfinite(f->team_cost[k]))
            bad = "a team's cost", v = f->team_cost[k];
        else if (!isfinite(f->team_acc_hours[k]))
            bad = "a team's accelerator_hours", v = f->team_acc_hours[k];
    }
    for (int s = 0; s < p->in->n_services && !bad; s++)
        if (!isfinite(f->svc_cost[s]) || !isfinite(f->svc_unserved[s]))
            bad = "a service's cost", v = f->svc_cost[s];
    if (!bad)
        return CP_OK;
    return cp_err_set(err, CP_ERR_INTERNAL, cp_pos_none(),
                      "the plan's %s is not a finite number (%g): refusing to write a plan "
                      "that verify cannot read (are the input's numbers too large?)",
                      bad, v);
}

/* totals: each cost part the plan shows (cp_cost_parts.h). */
static void totals_block(cp_out *o, const cp_plan *p, const cp_plan_figures *f)
{
    cp_out_key(o, "totals");
    cp_out_map(o);
    unsigned when = cp_plan_cost_when(p);
    for (int i = 0; i < CP_COST_N; i++) {
        if (!cp_cost_part_shown(i, when))
            continue;
        cp_out_key(o, cp_cost_part_info[i].key);
        cp_out_num(o, f->costs.v[i]);
    }
    cp_out_end(o);
}

/* provisioning: the instances per slot of each market the plan rents,
 * its cost and, for a placed plan (ls), its leases. */
static void provisioning_block(cp_out *o, const cp_plan *p, const cp_plan_figures *f,
                               const cp_leases *ls, bool *oom)
{
    const cp_modeset *ms = p->ms;
    int T = p->in->slots;
    cp_out_key(o, "provisioning");
    cp_out_seq(o, false);
    for (int r = 0; r < ms->n_res; r++) {
        const cp_resource *res = &ms->res[r];
        if (res->kind == CP_RES_POOL)
            continue;
        bool any = false;
        for (int t = 0; t < T; t++)
            any |= *cp_plan_y(p, r, t) > 0;
        if (!any)
            continue;
        cp_out_map(o);
        cp_out_key(o, "market");
        cp_out_str(o, res->name);
        cp_out_key(o, "kind");
        cp_out_word(o, res->kind == CP_RES_SPOT ? "spot" : "on_demand");
        cp_out_key(o, "instances");
        cp_out_seq(o, true);
        for (int t = 0; t < T; t++)
            cp_out_int(o, *cp_plan_y(p, r, t));
        cp_out_end(o);
        cp_out_key(o, "cost");
        cp_out_num(o, f->market_cost[r]);
        if (ls)
            market_leases(o, p, ls, r, oom);
        cp_out_end(o);
    }
    cp_out_end(o);
}

/* utilization: each pool's use per dimension and slot. */
static void utilization_block(cp_out *o, const cp_input *in, const cp_plan_figures *f)
{
    int T = in->slots;
    cp_out_key(o, "utilization");
    cp_out_seq(o, false);
    const char *dims[] = {"accelerators", "cpus", "memory_gb"};
    for (int pl = 0; pl < in->n_pools; pl++) {
        cp_out_map(o);
        cp_out_key(o, "pool");
        cp_out_str(o, in->pools[pl].name);
        for (int d = 0; d < CP_DIMS; d++) {
            cp_out_key(o, dims[d]);
            series(o, &f->util[((size_t)pl * CP_DIMS + d) * T], T, 1);
        }
        cp_out_end(o);
    }
    cp_out_end(o);
}

/* sites: each site's power per slot, energy and carbon. */
static void sites_block(cp_out *o, const cp_input *in, const cp_plan_figures *f)
{
    int T = in->slots;
    cp_out_key(o, "sites");
    cp_out_seq(o, false);
    for (int s = 0; s < in->n_sites; s++) {
        cp_out_map(o);
        cp_out_key(o, "name");
        cp_out_str(o, in->sites[s].name);
        cp_out_key(o, "power_kw");
        series(o, &f->site_power_kw[(size_t)s * T], T, 1);
        cp_out_key(o, "energy_kwh");
        cp_out_num(o, f->site_energy_kwh[s]);
        cp_out_key(o, "carbon_kg");
        cp_out_num(o, f->site_carbon_kg[s]);
        cp_out_end(o);
    }
    cp_out_end(o);
}

static int write_tree(const cp_plan *p, const cp_plan_write_opts *w, cp_buf *buf, cp_err *err)
{
    const cp_input *in = p->in;
    const cp_modeset *ms = p->ms;
    cp_out *o = cp_out_new(w->format == CP_FMT_JSON ? CP_OUT_JSON : CP_OUT_YAML, buf);
    if (!o)
        return cp_err_nomem(err);
    cp_out_map(o);
    cp_out_key(o, "capplan_plan");
    cp_out_int(o, 1);
    cp_out_key(o, "status");
    cp_out_word(o, cp_plan_status_name(p->status));
    if (p->status == CP_STATUS_INFEASIBLE) {
        solver_block(o, p, w, NAN);
        cp_out_key(o, "reason");
        cp_out_str(o, w->infeasible_reason ? w->infeasible_reason : "no feasible plan exists");
        cp_out_end(o);
        return cp_out_finish(o, err);
    }
    cp_plan_figures f;
    int rc = cp_plan_eval(p, &f, err);
    if (!rc && (rc = check_finite(p, &f, err)))
        cp_plan_figures_release(&f);
    if (rc) {
        cp_out_finish(o, NULL);
        return rc;
    }
    /* what a launcher executes: the leases of a placed plan */
    cp_leases ls;
    bool have_leases = p->placed, oom = false;
    if (have_leases && cp_leases_build(p, &ls)) {
        cp_plan_figures_release(&f);
        cp_out_finish(o, NULL);
        return cp_err_nomem(err);
    }
    solver_block(o, p, w, f.costs.total);
    totals_block(o, p, &f);
    if (ms->replan)
        replanned_block(o, p);
    if (p->note) {
        cp_out_key(o, "note");
        cp_out_str(o, p->note);
    }
    if (in->n_teams)
        teams_block(o, in, &f);
    cp_out_key(o, "jobs");
    cp_out_seq(o, false);
    for (int j = 0; j < p->n_jobs; j++)
        job_entry(o, p, &f, j, &oom);
    cp_out_end(o);
    cp_plan_write_services(o, p, &f);
    provisioning_block(o, p, &f, have_leases ? &ls : NULL, &oom);
    utilization_block(o, in, &f);
    sites_block(o, in, &f);
    cp_out_end(o);
    cp_plan_figures_release(&f);
    if (have_leases)
        cp_leases_release(&ls);
    rc = cp_out_finish(o, err);
    /* an id that could not be built left its key without a value, which
     * the emitter refuses ("cannot write YAML"): the cause is the memory */
    return oom ? cp_err_nomem(err) : rc;
}

/* The 1.1 columns (shape, egress), the power limit (capplan.5 §10.3) and
 * each job's team with its accelerator-hours (§10.2: the rows of a team
 * add up to its entry of the YAML plan's `teams`) come after the 1.0 ones
 * and only for inputs that use them; the 1.2 job cost is the last, in
 * every plan. */

/* The team cell of job j (empty without one), then a comma. */
static void csv_team(cp_buf *b, const cp_input *in, int j)
{
    cp_buf_putc(b, ',');
    if (in->jobs[j].team >= 0)
        cp_csv_put_field(b, in->teams[in->jobs[j].team].name);
    cp_buf_putc(b, ',');
}
static bool csv_limits(const cp_input *in)
{
    for (int j = 0; j < in->n_jobs; j++)
        if (in->jobs[j].n_power_limits)
            return true;
    return false;
}

static void csv_header(const cp_input *in, bool shapes, cp_buf *b)
{
    cp_buf_puts(b, "name,status,resource,market,accelerator,count,cpus,memory_gb,start_slot,slots,start_hour,end_hour,energy_kwh,nodes,reason");
    if (shapes)
        cp_buf_puts(b, ",shape");
    if (in->uses_egress)
        cp_buf_puts(b, ",egress");
    if (csv_limits(in))
        cp_buf_puts(b, ",power_limit_w");
    if (in->n_teams)
        cp_buf_puts(b, ",team,accelerator_hours");
    cp_buf_puts(b, ",cost\n");
}

static int write_csv(const cp_plan *p, cp_buf *b, cp_err *err)
{
    const cp_input *in = p->in;
    const cp_modeset *ms = p->ms;
    cp_plan_figures f;
    bool shapes = false, limits = csv_limits(in);
    for (int j = 0; j < in->n_jobs; j++)
        shapes |= in->jobs[j].has_shapes;
    if (p->status == CP_STATUS_INFEASIBLE) {
        csv_header(in, shapes, b);
        return cp_buf_ok(b) ? CP_OK : cp_err_nomem(err);
    }
    int rc = cp_plan_eval(p, &f, err);
    if (rc)
        return rc;
    if ((rc = check_finite(p, &f, err))) {
        cp_plan_figures_release(&f);
        return rc;
    }
    csv_header(in, shapes, b);
    for (int j = 0; j < p->n_jobs; j++) {
        cp_csv_put_field(b, in->jobs[j].name);
        if (p->mode[j] < 0) {
            cp_buf_puts(b, ",dropped,,,,,,,,,,,,,");
            cp_csv_put_field(b, p->reason[j] ? p->reason[j] : "dropped");
            if (shapes)
                cp_buf_putc(b, ',');
            if (in->uses_egress)
                cp_buf_putc(b, ',');
            if (limits)
                cp_buf_putc(b, ',');
            if (in->n_teams)
                csv_team(b, in, j);
            cp_buf_puts(b, ",\n"); /* a dropped job has no cost */
            continue;
        }
        const cp_mode *m = &ms->modes[p->mode[j]];
        const cp_resource *r = &ms->res[m->res];
        cp_buf_puts(b, ",scheduled,");
        cp_csv_put_field(b, r->name);
        cp_buf_printf(b, ",%s,", r->kind == CP_RES_POOL ? "pool" : r->kind == CP_RES_SPOT ? "spot" : "on_demand");
        if (m->acc >= 0)
            cp_csv_put_field(b, in->accels[m->acc].name);
        cp_buf_printf(b, ",%d,", m->count);
        cp_buf_num(b, m->demand[CP_DIM_CPU]);
        cp_buf_putc(b, ',');
        cp_buf_num(b, m->demand[CP_DIM_MEM]);
        cp_buf_printf(b, ",%d,%d,", p->start[j], m->slots);
        cp_buf_num(b, p->start[j] * in->slot_hours);
        cp_buf_putc(b, ',');
        cp_buf_num(b, p->start[j] * in->slot_hours + m->hours);
        cp_buf_putc(b, ',');
        cp_buf_num(b, f.job_energy_kwh[j]);
        cp_buf_putc(b, ',');
        cp_buf tmp;
        cp_buf_init(&tmp);
        for (int u = 0; u < p->n_units[j]; u++)
            cp_buf_printf(&tmp, "%s%s/%d", u ? " " : "", r->id, p->units[j][u]);
        if (!cp_buf_ok(&tmp)) { /* never a row with its nodes left out */
            cp_buf_release(&tmp);
            cp_plan_figures_release(&f);
            return cp_err_nomem(err);
        }
        cp_csv_put_field(b, tmp.s);
        cp_buf_release(&tmp);
        cp_buf_putc(b, ',');
        if (shapes && in->jobs[j].has_shapes)
            cp_buf_printf(b, ",%d", m->shape);
        else if (shapes)
            cp_buf_putc(b, ',');
        if (in->uses_egress) {
            cp_buf_putc(b, ',');
            cp_buf_num(b, m->egress);
        }
        if (limits)
            cp_buf_putc(b, ',');
        if (limits && m->limit >= 0)
            cp_buf_num(b, in->jobs[j].power_limits[m->limit].limit_w);
        if (in->n_teams) {
            csv_team(b, in, j);
            cp_buf_num(b, m->demand[CP_DIM_ACC] * m->hours);
        }
        cp_buf_putc(b, ',');
        cp_buf_num(b, f.job_cost[j]);
        cp_buf_putc(b, '\n');
    }
    cp_plan_figures_release(&f);
    return cp_buf_ok(b) ? CP_OK : cp_err_nomem(err);
}

int cp_plan_write_leases_csv(const cp_plan *p, cp_buf *b, cp_err *err)
{
    const cp_input *in = p->in;
    const cp_modeset *ms = p->ms;
    cp_buf_puts(b, "market,kind,id,start_slot,slots,start_hour,end_hour,cost,jobs\n");
    if (p->status == CP_STATUS_INFEASIBLE || !p->placed)
        return cp_buf_ok(b) ? CP_OK : cp_err_nomem(err);
    cp_leases ls;
    if (cp_leases_build(p, &ls))
        return cp_err_nomem(err);
    cp_buf tmp;
    cp_buf_init(&tmp);
    for (int l = 0; l < ls.n; l++) {
        const cp_lease *e = &ls.v[l];
        const cp_resource *r = &ms->res[e->res];
        double cost = 0;
        for (int t = e->start; t < e->start + e->slots; t++)
            cost += cp_market_slot_cost(in, r, t);
        cp_csv_put_field(b, r->name);
        cp_buf_printf(b, ",%s,", r->kind == CP_RES_SPOT ? "spot" : "on_demand");
        cp_buf_reset(&tmp);
        cp_buf_printf(&tmp, "%s/%d", r->id, e->unit);
        cp_csv_put_field(b, tmp.s);
        cp_buf_printf(b, ",%d,%d,", e->start, e->slots);
        cp_buf_num(b, e->start * in->slot_hours);
        cp_buf_putc(b, ',');
        cp_buf_num(b, (e->start + e->slots) * in->slot_hours);
        cp_buf_putc(b, ',');
        cp_buf_num(b, cost);
        cp_buf_putc(b, ',');
        cp_buf_reset(&tmp);
        for (int q = 0; q < e->n_jobs; q++)
            cp_buf_printf(&tmp, "%s%s", q ? " " : "", cp_lease_entry_name(p, ls.jobs[e->first_job + q]));
        cp_csv_put_field(b, tmp.s);
        cp_buf_putc(b, '\n');
    }
    bool ok = cp_buf_ok(&tmp) && cp_buf_ok(b);
    cp_buf_release(&tmp);
    cp_leases_release(&ls);
    return ok ? CP_OK : cp_err_nomem(err);
}

int cp_plan_write(const cp_plan *p, const cp_plan_write_opts *o, cp_buf *buf, cp_err *err)
{
    if (o->format == CP_FMT_CSV)
        return write_csv(p, buf, err);
    return write_tree(p, o, buf, err);
}
