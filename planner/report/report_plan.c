/*
 * The plan for the report: read by the one plan reader
 * (models/cp_plan_read.h, which `capplan verify` uses too), so YAML and
 * JSON plans read alike and every problem points at its node with
 * FILE:LINE:COLUMN. The report refuses a plan with any problem (they are
 * all errors here), and checks what drawing needs besides: each
 * utilization entry's three lists, each site's `power_kw`, and hours
 * that a bar can be drawn between. Whether the plan is right is
 * `verify`'s business, and the page shows verify's verdict when it has
 * the inputs.
 *
 * Then it derives what the page needs: the slot count T (the inputs',
 * else the plan's per-slot lists', else as far as the last job reaches),
 * the slot length h (the inputs', else start_hour / start_slot of a job
 * that starts after slot 0, else 1 h), the Gantt rows and their leases
 * (report_leases.c), and the inputs' pool, site and job kind behind each
 * entry.
 */
#include "report_internal.h"

#include "cp_alloc.h"
#include "cp_num.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *cp_rp_market_name(cp_plan_market market)
{
    return market == CP_PLAN_POOL ? "pool" : market == CP_PLAN_SPOT ? "spot" : "on_demand";
}

/* What drawing needs beyond the reader's format: errors to d. */
static void check_drawable(cp_rp_plan *p, cp_diags *d)
{
    const cp_plan_file *pf = &p->pf;
    char who[300];
    for (int i = 0; i < pf->n_util; i++) {
        const cp_plan_util *u = &pf->util[i];
        if (u->pool.has != CP_PLAN_SET)
            continue;
        snprintf(who, sizeof who, "utilization of '%s'", u->pool.s);
        for (int k = 0; k < CP_PLAN_DIMS; k++)
            if (u->dim[k].has == CP_PLAN_ABSENT)
                cp_diags_add(d, CP_ERR_INPUT, u->pos, "%s: missing '%s'", who, cp_plan_dim_key[k]);
    }
    for (int i = 0; i < pf->n_sites; i++) {
        const cp_plan_site *s = &pf->sites[i];
        if (s->name.has == CP_PLAN_SET && s->power_kw.has == CP_PLAN_ABSENT)
            cp_diags_add(d, CP_ERR_INPUT, s->pos, "site '%s': missing 'power_kw'", s->name.s);
    }
    for (int i = 0; i < pf->n_jobs; i++) {
        const cp_plan_job *j = &pf->jobs[i];
        if (!j->scheduled || j->start_hour.has != CP_PLAN_SET)
            continue;
        if (j->name.s)
            snprintf(who, sizeof who, "job '%s'", j->name.s);
        else
            snprintf(who, sizeof who, "job %d", j->index + 1);
        double s = j->start_hour.v, e = j->end_hour.v;
        if (s < 0)
            cp_diags_add(d, CP_ERR_INPUT, j->start_hour.pos,
                         "%s: start_hour %g is before the horizon start", who, s);
        else if (j->end_hour.has == CP_PLAN_SET && e < s)
            cp_diags_add(d, CP_ERR_INPUT, j->end_hour.pos,
                         "%s: end_hour %g is before start_hour %g", who, e, s);
    }
}

/* Slot length without inputs: start_hour / start_slot of a job that
 * starts after slot 0, else 1 h. */
static void slot_hours(cp_rp_plan *p)
{
    if (p->in) {
        p->h = p->in->slot_hours;
        p->h_from = "inputs";
        return;
    }
    for (int i = 0; i < p->n_jobs; i++) {
        const cp_plan_job *j = p->jobs[i].pj;
        if (p->jobs[i].scheduled && j->start_slot.has == CP_PLAN_SET && j->start_slot.v > 0 &&
            j->start_hour.v > 0) {
            p->h = j->start_hour.v / (double)j->start_slot.v;
            p->h_from = "plan";
            return;
        }
    }
    p->h = 1;
    p->h_from = "assumed";
}

static int find_row(const cp_rp_plan *p, const char *name, cp_plan_market market)
{
    for (int r = 0; r < p->n_rows; r++)
        if (p->rows[r].market == market && !strcmp(p->rows[r].name, name))
            return r;
    return -1;
}

static int add_row(cp_rp_plan *p, const char *name, cp_plan_market market)
{
    int r = find_row(p, name, market);
    if (r >= 0)
        return r;
    r = p->n_rows++;
    p->rows[r].name = name;
    p->rows[r].market = market;
    p->rows[r].pool = market == CP_PLAN_POOL && p->in ? cp_input_find_pool(p->in, name) : -1;
    return r;
}

/* Gantt rows: pools (the inputs' order, then the plan's), then markets
 * in order of first appearance (provisioning, then jobs). */
static int build_rows(cp_rp_plan *p)
{
    size_t cap = (size_t)(p->in ? p->in->n_pools : 0) + (size_t)p->n_util + (size_t)p->n_markets +
                 (size_t)p->n_jobs;
    if (cap == 0)
        return CP_OK;
    p->rows = cp_calloc(cap, sizeof *p->rows);
    if (!p->rows)
        return CP_ERR_NOMEM;
    for (int i = 0; p->in && i < p->in->n_pools; i++)
        add_row(p, p->in->pools[i].name, CP_PLAN_POOL);
    for (int i = 0; i < p->n_util; i++)
        add_row(p, p->util[i].u->pool.s, CP_PLAN_POOL);
    for (int i = 0; i < p->n_jobs; i++)
        if (p->jobs[i].scheduled && p->jobs[i].pj->mk == CP_PLAN_POOL)
            add_row(p, p->jobs[i].pj->resource.s, CP_PLAN_POOL);
    for (int i = 0; i < p->n_markets; i++)
        add_row(p, p->markets[i].market.s, p->markets[i].mk);
    for (int i = 0; i < p->n_jobs; i++) {
        cp_rp_job *j = &p->jobs[i];
        if (!j->scheduled)
            continue;
        j->row = add_row(p, j->pj->resource.s, j->pj->mk);
        p->rows[j->row].n_jobs++;
    }
    return CP_OK;
}

/* The report's arrays beside the plan's: jobs, utilization, sites. */
static int derive(cp_rp_plan *p)
{
    const cp_plan_file *pf = &p->pf;
    const cp_input *in = p->in;
    if ((pf->n_jobs && !(p->jobs = cp_calloc((size_t)pf->n_jobs, sizeof *p->jobs))) ||
        (pf->n_util && !(p->util = cp_calloc((size_t)pf->n_util, sizeof *p->util))) ||
        (pf->n_sites && !(p->sites = cp_calloc((size_t)pf->n_sites, sizeof *p->sites))))
        return CP_ERR_NOMEM;
    p->n_jobs = pf->n_jobs;
    for (int i = 0; i < pf->n_jobs; i++) {
        const cp_plan_job *pj = &pf->jobs[i];
        cp_rp_job *j = &p->jobs[i];
        j->pj = pj;
        j->row = -1;
        j->kind = RP_KIND_UNKNOWN;
        j->in_job = -1;
        j->bx0 = -1;
        j->scheduled = pj->scheduled && pj->resource.has == CP_PLAN_SET &&
                       pj->mk != CP_PLAN_NO_MARKET && pj->start_hour.has == CP_PLAN_SET &&
                       pj->end_hour.has == CP_PLAN_SET;
        if (j->scheduled)
            j->key = ++p->n_sched;
        else if (pj->name.s)
            p->n_dropped++;
        if (in && j->scheduled) {
            int k = cp_input_find_job(in, pj->name.s);
            j->kind = k >= 0 ? (int)in->jobs[k].kind : RP_KIND_UNKNOWN;
            j->in_job = k;
        }
    }
    p->markets = pf->prov;
    p->n_markets = pf->n_prov;
    p->n_util = pf->n_util;
    for (int i = 0; i < pf->n_util; i++) {
        const cp_plan_util *u = &pf->util[i];
        p->util[i] = (cp_rp_util){u, in ? cp_input_find_pool(in, u->pool.s) : -1};
    }
    p->n_sites = pf->n_sites;
    for (int i = 0; i < pf->n_sites; i++) {
        const cp_plan_site *s = &pf->sites[i];
        p->sites[i] = (cp_rp_site){s, in ? cp_input_find_site(in, s->name.s) : -1};
    }
    return CP_OK;
}

/* Messages in file order (the reader's come sorted, the report's after
 * them); insertion sort keeps equal positions stable. */
static void sort_diags(cp_diags *d, int first)
{
    for (int i = first + 1; i < d->n; i++) {
        cp_err e = d->items[i];
        int k = i;
        while (k > first && (d->items[k - 1].line > e.line ||
                             (d->items[k - 1].line == e.line && d->items[k - 1].col > e.col))) {
            d->items[k] = d->items[k - 1];
            k--;
        }
        d->items[k] = e;
    }
}

int cp_rp_read(cp_rp_plan *p, const struct cp_node *root, const cp_input *in, cp_diags *d)
{
    p->in = in;
    p->verify_n = -1;
    cp_plan_read_opts o;
    cp_plan_read_opts_init(&o);
    o.slots = in ? in->slots : 0;
    cp_plan_file_init(&p->pf);
    cp_err err;
    cp_err_init(&err);
    if (cp_plan_read(root, &o, &p->pf, &err)) {
        cp_diags_add_err(d, &err);
        return err.code;
    }
    int before = d->n + d->dropped, first = d->n;
    cp_plan_file_diags(&p->pf, d);
    if (!p->pf.malformed)
        check_drawable(p, d);
    if (d->n + d->dropped > before) {
        sort_diags(d, first);
        return CP_ERR_INPUT;
    }
    if (derive(p)) {
        cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
        return CP_ERR_NOMEM;
    }
    p->T = p->pf.slots;
    slot_hours(p);
    if (p->T == 0) { /* no per-slot list: as far as the last job reaches */
        double end = 0;
        for (int i = 0; i < p->n_jobs; i++)
            if (p->jobs[i].scheduled && p->jobs[i].pj->end_hour.v > end)
                end = p->jobs[i].pj->end_hour.v;
        p->T = cp_num_clamp_int(ceil(end / p->h - 1e-9), 1, 1000000000);
    }
    if (build_rows(p) || cp_rp_leases(p)) {
        cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
        return CP_ERR_NOMEM;
    }
    return CP_OK;
}

void cp_rp_release(cp_rp_plan *p)
{
    if (!p)
        return;
    for (int i = 0; i < RP_VIOL_SHOWN; i++)
        cp_free(p->verify_msg[i]);
    cp_plan_file_release(&p->pf);
    cp_plan_file_release(&p->old_pf);
    cp_plan_diff_release(&p->diff);
    cp_free(p->jobs);
    cp_free(p->rows);
    cp_free(p->leases);
    cp_free(p->lease_jobs);
    cp_free(p->util);
    cp_free(p->sites);
    memset(p, 0, sizeof *p);
}
