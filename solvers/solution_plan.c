/*
 * A plan file as a solution (cp_solution.h): the one plan reader
 * (cp_plan_read, with only the keys of the choices required), then each
 * job entry matched to a mode by resource, market and count, and by
 * shape, accelerator, cpus and memory_gb when several modes share those;
 * provisioning gives y, and a market the plan does not list gets the
 * fewest instances that hold its jobs. Every problem is reported with the
 * position of its node, in file order where the checks allow.
 */
#include "solution_internal.h"

#include "cp_alloc.h"
#include "cp_plan_read.h"
#include "cp_yaml.h"
#include "cp_num.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *market_word(cp_res_kind k)
{
    return k == CP_RES_POOL ? "pool" : k == CP_RES_ONDEMAND ? "on_demand" : "spot";
}

/* The resource a scheduled job names, or -1 with an error. */
static int plan_res(sol *c, const cp_plan_job *pj, const char *who)
{
    const cp_input *in = c->in;
    if (pj->resource.has != CP_PLAN_SET || pj->mk == CP_PLAN_NO_MARKET)
        return -1; /* the reader said so */
    const char *res = pj->resource.s;
    if (pj->mk == CP_PLAN_POOL) {
        int p = cp_input_find_pool(in, res);
        if (p < 0)
            cp_diags_add(c->d, CP_ERR_INPUT, pj->resource.pos, "%s: unknown pool '%s'", who, res);
        return p < 0 ? -1 : c->ms->res_of_pool[p];
    }
    int o = cp_input_find_offer(in, res);
    if (o < 0) {
        cp_diags_add(c->d, CP_ERR_INPUT, pj->resource.pos, "%s: unknown offer '%s'", who, res);
        return -1;
    }
    int r = pj->mk == CP_PLAN_SPOT ? c->ms->spot_of_offer[o] : c->ms->ondemand_of_offer[o];
    if (r < 0)
        cp_diags_add(c->d, CP_ERR_INPUT, pj->market.pos, "%s: offer '%s' has no spot market", who,
                     res);
    return r;
}

static bool near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * (1 + fabs(b));
}

/* The job's mode on resource r with the entry's count, told apart by its
 * shape, accelerator, cpus and memory_gb when several share them
 * (capplan.5 §9.1 shapes); -1 with an error. */
static int plan_mode(sol *c, int j, int r, const cp_plan_job *pj, const char *who)
{
    const cp_modeset *ms = c->ms;
    const cp_resource *res = &ms->res[r];
    long k = pj->count.v;
    int found = -1, n = 0, same = 0;
    for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++) {
        const cp_mode *md = &ms->modes[m];
        if (md->res != r || md->count != k)
            continue;
        same++;
        if (pj->accelerator.has == CP_PLAN_SET &&
            (md->acc < 0 || strcmp(c->in->accels[md->acc].name, pj->accelerator.s)))
            continue;
        if (pj->shape.has == CP_PLAN_SET && md->shape != pj->shape.v)
            continue;
        /* power_limit_w omitted means none (capplan.5 §10.3) */
        if ((pj->power_limit_w.has == CP_PLAN_SET) != (md->limit >= 0) ||
            (md->limit >= 0 &&
             c->in->jobs[j].power_limits[md->limit].limit_w != pj->power_limit_w.v))
            continue;
        if (pj->cpus.has == CP_PLAN_SET && !near(md->demand[CP_DIM_CPU], pj->cpus.v))
            continue;
        if (pj->memory_gb.has == CP_PLAN_SET && !near(md->demand[CP_DIM_MEM], pj->memory_gb.v))
            continue;
        if (!n++)
            found = m;
    }
    if (n == 1)
        return found;
    if (ms->reason[j])
        cp_diags_add(c->d, CP_ERR_INPUT, pj->pos, "%s: the job has no mode at all: %s", who,
                     ms->reason[j]);
    else if (!same)
        cp_diags_add(c->d, CP_ERR_INPUT, pj->count.pos, "%s: no mode on '%s' (%s) with count %ld",
                     who, res->name, market_word(res->kind), k);
    else if (!n)
        cp_diags_add(c->d, CP_ERR_INPUT, pj->pos,
                     "%s: no mode on '%s' (%s) with count %ld has the entry's shape, power limit, "
                     "accelerator, cpus and memory_gb",
                     who, res->name, market_word(res->kind), k);
    else
        cp_diags_add(c->d, CP_ERR_INPUT, pj->pos,
                     "%s: %d modes on '%s' (%s) with count %ld: give 'shape' (or 'cpus' and "
                     "'memory_gb') to choose one",
                     who, n, res->name, market_word(res->kind), k);
    return -1;
}

static void plan_job(sol *c, const cp_plan_job *pj, int j, const char *who)
{
    int r = plan_res(c, pj, who);
    /* of a wrong type: the reader said so */
    if (pj->count.has == CP_PLAN_ABSENT)
        cp_diags_add(c->d, CP_ERR_INPUT, pj->pos, "%s: missing 'count'", who);
    if (pj->start_slot.has == CP_PLAN_ABSENT)
        cp_diags_add(c->d, CP_ERR_INPUT, pj->pos, "%s: missing 'start_slot'", who);
    if (r < 0 || pj->count.has != CP_PLAN_SET || pj->start_slot.has != CP_PLAN_SET)
        return;
    int m = plan_mode(c, j, r, pj, who);
    if (m < 0)
        return;
    const cp_mode *md = &c->ms->modes[m];
    long s = pj->start_slot.v;
    if (s < md->s_min || s > md->s_max) {
        cp_diags_add(c->d, CP_ERR_INPUT, pj->start_slot.pos,
                     "%s: start_slot %ld is outside the mode's window %d..%d", who, s, md->s_min,
                     md->s_max);
        return;
    }
    c->plan->mode[j] = m;
    c->plan->start[j] = (int)s;
    c->x_line[j] = pj->pos.line;
}

static void plan_prov(sol *c, const cp_plan_file *pf, unsigned char *listed)
{
    const cp_input *in = c->in;
    for (int i = 0; i < pf->n_prov; i++) {
        const cp_plan_prov *pm = &pf->prov[i];
        if (pm->market.has != CP_PLAN_SET || pm->mk == CP_PLAN_NO_MARKET)
            continue; /* the reader said so */
        int o = cp_input_find_offer(in, pm->market.s);
        if (o < 0) {
            cp_diags_add(c->d, CP_ERR_INPUT, pm->market.pos, "provisioning: unknown offer '%s'",
                         pm->market.s);
            continue;
        }
        int r = pm->mk == CP_PLAN_SPOT ? c->ms->spot_of_offer[o] : c->ms->ondemand_of_offer[o];
        if (r < 0) {
            cp_diags_add(c->d, CP_ERR_INPUT, pm->kind.pos,
                         "provisioning: offer '%s' has no spot market", pm->market.s);
            continue;
        }
        if (listed[r]) {
            cp_diags_add(c->d, CP_ERR_INPUT, pm->market.pos,
                         "provisioning of '%s' (%s) is listed twice", pm->market.s, pm->kind.s);
            continue;
        }
        listed[r] = 1;
        const cp_plan_series *is = &pm->instances;
        for (int t = 0; is->has == CP_PLAN_SET && t < in->slots && t < is->n; t++)
            if (!isnan(is->v[t]))
                *cp_plan_y(c->plan, r, t) = cp_num_clamp_int(is->v[t], 0, 2000000000);
    }
}

int cp_sol_read_plan(sol *c, const char *text, size_t len)
{
    const cp_input *in = c->in;
    cp_node *root = NULL;
    int rc = cp_yaml_load_string(c->path, text, len, &root, c->d);
    if (rc)
        return rc;
    cp_plan_file pf;
    cp_plan_file_init(&pf);
    unsigned char *listed = NULL;
    int *given = NULL;
    if (root->kind != CP_NODE_MAP || !cp_map_get(root, "capplan_plan")) {
        rc = cp_diags_add(
            c->d, CP_ERR_INPUT, root->pos,
            "not a solution capplan reads: glpsol's -w file, CBC's solu file or a plan file "
            "(a mapping with 'capplan_plan')");
        goto out;
    }
    cp_plan_read_opts o;
    cp_plan_read_opts_init(&o);
    o.slots = in->slots;
    o.choices_only = true;
    cp_err err;
    cp_err_init(&err);
    if ((rc = cp_plan_read(root, &o, &pf, &err))) {
        cp_diags_add_err(c->d, &err);
        goto out;
    }
    for (int i = 0; i < pf.n_problems; i++)
        if (pf.problems[i].level != CP_PLAN_EXTRA)
            cp_diags_add(c->d, CP_ERR_INPUT, pf.problems[i].pos, "%s", pf.problems[i].msg);
    if (pf.malformed)
        goto out;
    snprintf(c->info->status, sizeof c->info->status, "%s", pf.status.s ? pf.status.s : "");
    if (pf.infeasible) {
        c->info->infeasible = true;
        goto out;
    }
    if (pf.totals.total.has == CP_PLAN_SET)
        c->info->objective = pf.totals.total.v;
    /* the jobs left out first: their message points at the list, above
     * the entries (messages in file order) */
    for (int i = 0; i < pf.n_jobs; i++) {
        int j = pf.jobs[i].name.has == CP_PLAN_SET ? cp_input_find_job(in, pf.jobs[i].name.s) : -1;
        if (j >= 0)
            c->x_line[j] = 0;
    }
    for (int j = 0; j < in->n_jobs; j++) {
        if (c->x_line[j] < 0)
            cp_diags_add(
                c->d, CP_ERR_INPUT, pf.jobs_list.pos,
                "job '%s' is missing from the plan (every input job is listed once, scheduled "
                "or dropped)",
                in->jobs[j].name);
        c->x_line[j] = -1;
    }
    for (int i = 0; i < pf.n_jobs; i++) {
        const cp_plan_job *pj = &pf.jobs[i];
        if (pj->name.has != CP_PLAN_SET)
            continue;
        int j = cp_input_find_job(in, pj->name.s);
        char who[300];
        snprintf(who, sizeof who, "job '%s'", pj->name.s);
        if (j < 0) {
            cp_diags_add(c->d, CP_ERR_INPUT, pj->name.pos, "unknown job '%s'", pj->name.s);
        } else if (c->drop_line[j] >= 0 || c->x_line[j] >= 0) {
            cp_diags_add(c->d, CP_ERR_INPUT, pj->name.pos, "%s is listed twice (first at line %d)",
                         who, c->drop_line[j] >= 0 ? c->drop_line[j] : c->x_line[j]);
        } else if (pj->dropped) {
            c->drop_line[j] = pj->pos.line;
        } else if (pj->scheduled) {
            plan_job(c, pj, j, who);
            if (c->x_line[j] < 0)
                c->drop_line[j] = pj->pos.line; /* an error was reported; no second one */
        }
    }
    for (int j = 0; j < in->n_jobs; j++)
        c->drop_line[j] = -1; /* a drop in a plan is a status, not drop_J */
    cp_sol_svc_read_plan(c, &pf); /* before the markets: replicas need instances too */
    /* markets the plan does not list: the fewest instances for its jobs */
    size_t ny = (size_t)(c->ms->n_res ? c->ms->n_res : 1) * in->slots;
    listed = cp_calloc((size_t)(c->ms->n_res ? c->ms->n_res : 1), 1);
    given = cp_malloc(ny * sizeof *given);
    if (!listed || !given) {
        rc = cp_diags_add(c->d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
        goto out;
    }
    plan_prov(c, &pf, listed);
    memcpy(given, c->plan->y, ny * sizeof *given);
    cp_plan_min_instances(c->plan);
    for (int r = 0; r < c->ms->n_res; r++)
        if (listed[r])
            memcpy(cp_plan_y(c->plan, r, 0), given + (size_t)r * in->slots,
                   (size_t)in->slots * sizeof *given);
    rc = c->d->worst;
out:
    cp_free(listed);
    cp_free(given);
    cp_plan_file_release(&pf);
    cp_node_free(root);
    return rc ? rc : c->d->worst;
}
