/*
 * Reading a plan file (capplan.5 §5) into a cp_plan_file (see cp_plan_read.h).
 *
 * One pass over the tree, top-down: the root's three keys that make a
 * file a capplan plan first (if one of them is wrong, nothing else is
 * read: messages about the rest of a file that is not a plan would be
 * noise), then the descriptive keys, the totals, the jobs, the teams and
 * the three per-slot lists. Each value is read by one typed reader
 * (plan_read_fields.c) that records whether the key was given, its value
 * and its node's position, and adds a problem when it is not of its type;
 * callers go on, so one run finds every problem of a file. The problems are sorted by position at the end
 * (the lists are read in another order than they are written).
 *
 * Messages name the entry ("job 'a'", "job 4" before its name is known,
 * "provisioning of 'x' (spot)", "utilization of 'rack'", "site 'dc'") and
 * the key, then what is wrong and what was found: lower case, no final
 * full stop (the labels verify's own checks use for the same entries).
 *
 * The slot count comes from the caller (the inputs) or from the first
 * non-empty per-slot list; utilization lists are read first for that,
 * then sites, then provisioning. The services (capplan.5 §10.4) are read
 * in plan_read_svc.c with the same typed readers.
 */
#include "cp_plan_read.h"
#include "plan_read_internal.h"

#include "cp_alloc.h"
#include "cp_msg.h"
#include "cp_yaml.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

const char *const cp_plan_dim_key[CP_PLAN_DIMS] = {"accelerators", "cpus", "memory_gb"};

/* ---- the root -------------------------------------------------------------- */

static bool status_word(const char *s)
{
    return !strcmp(s, "optimal") || !strcmp(s, "feasible") || !strcmp(s, "infeasible") ||
           !strcmp(s, "interrupted");
}

/* capplan_plan, status and jobs: the keys that make a file a plan. */
static void read_identity(rd *c, const cp_node *root)
{
    cp_plan_file *pf = c->pf;
    c->level = CP_PLAN_MALFORMED;
    const cp_node *vn = cp_pr_get(root, "capplan_plan");
    if (!vn) {
        BAD(c, root->pos, "missing 'capplan_plan: 1' (not a capplan plan)");
        return;
    }
    pf->version.pos = vn->pos;
    pf->version.has =
        cp_pr_as_int(vn, &pf->version.v) && pf->version.v == 1 ? CP_PLAN_SET : CP_PLAN_BAD;
    if (pf->version.has == CP_PLAN_BAD)
        BAD(c, vn->pos, "capplan_plan: unsupported version %s (expected 1)", cp_pr_found(vn));
    cp_pr_str(c, root, "status", "plan", true, &pf->status);
    if (pf->status.has == CP_PLAN_SET && !status_word(pf->status.s)) {
        BAD(c, pf->status.pos,
            "plan: status '%s' is not one of optimal, feasible, infeasible, interrupted",
            pf->status.s);
        pf->status.has = CP_PLAN_BAD;
        pf->status.s = NULL;
    }
    pf->infeasible = pf->status.has == CP_PLAN_SET && !strcmp(pf->status.s, "infeasible");
    const cp_node *jn =
        cp_pr_key(c, root, "jobs", "plan", false, &pf->jobs_list.has, &pf->jobs_list.pos);
    if (jn && jn->kind != CP_NODE_SEQ) {
        pf->jobs_list.has = CP_PLAN_BAD;
        BAD(c, jn->pos, "plan: 'jobs' must be a list, found %s", cp_pr_found(jn));
    } else if (!jn && !pf->infeasible) {
        BAD(c, root->pos, "plan: missing 'jobs'");
    }
    c->level = CP_PLAN_INVALID;
}

static void read_header(rd *c, const cp_node *root)
{
    cp_plan_file *pf = c->pf;
    c->level = CP_PLAN_EXTRA;
    cp_pr_str(c, root, "reason", "plan", false, &pf->reason);
    cp_pr_str(c, root, "note", "plan", false, &pf->note);
    cp_plan_solver *sv = &pf->solver;
    const cp_node *sn = cp_pr_map(c, root, "solver", false, &sv->has, &sv->pos);
    if (sn) {
        cp_pr_str(c, sn, "method", "solver", false, &sv->method);
        cp_pr_num(c, sn, "seconds", "solver", false, &sv->seconds);
        cp_pr_num(c, sn, "objective", "solver", false, &sv->objective);
        cp_pr_num(c, sn, "bound", "solver", false, &sv->bound);
        cp_pr_num(c, sn, "gap", "solver", false, &sv->gap);
        cp_pr_str(c, sn, "inputs", "solver", false, &sv->inputs);
    }
    c->level = CP_PLAN_INVALID;
    cp_plan_replanned *rb = &pf->replanned; /* capplan.5 §10.5 */
    const cp_node *rn = cp_pr_map(c, root, "replanned", false, &rb->has, &rb->pos);
    if (rn) {
        cp_pr_int(c, rn, "now", "replanned", true, &rb->now);
        cp_pr_int(c, rn, "started", "replanned", true, &rb->started);
        cp_pr_int(c, rn, "broken", "replanned", true, &rb->broken);
        cp_pr_int(c, rn, "changed", "replanned", true, &rb->changed);
        cp_pr_num(c, rn, "change_penalty", "replanned", false, &rb->change_penalty);
    }
    cp_plan_totals *tt = &pf->totals;
    const cp_node *tn =
        cp_pr_map(c, root, "totals", !pf->infeasible && !c->choices_only, &tt->has, &tt->pos);
    if (!tn)
        return;
    for (int i = 0; i < CP_COST_N; i++)
        cp_pr_num(c, tn, cp_cost_part_info[i].key, "totals",
                  cp_cost_part_required(i) && !c->choices_only, &tt->part[i]);
}

/* ---- jobs ---------------------------------------------------------------------- */

static void read_job(rd *c, const cp_node *e, int idx, cp_plan_job *j)
{
    char who[300];
    j->pos = e->pos;
    j->index = idx;
    j->mk = CP_PLAN_NO_MARKET;
    snprintf(who, sizeof who, "job %d", idx + 1);
    cp_pr_str(c, e, "name", who, true, &j->name);
    if (j->name.s)
        snprintf(who, sizeof who, "job '%s'", j->name.s);
    cp_pr_str(c, e, "status", who, true, &j->status);
    if (j->status.s) {
        j->scheduled = !strcmp(j->status.s, "scheduled");
        j->dropped = !strcmp(j->status.s, "dropped");
        if (!j->scheduled && !j->dropped) {
            BAD(c, j->status.pos, "%s: status '%s' is not one of scheduled, dropped", who,
                j->status.s);
            j->status.has = CP_PLAN_BAD;
        }
    }
    /* an infeasible plan has no schedule: nothing more is needed of it */
    bool need = j->scheduled && !c->pf->infeasible;
    cp_pr_str(c, e, "resource", who, need, &j->resource);
    cp_pr_str(c, e, "market", who, need, &j->market);
    if (j->market.s && (j->mk = cp_pr_market(j->market.s)) == CP_PLAN_NO_MARKET)
        BAD(c, j->market.pos, "%s: market '%s' is not one of pool, on_demand, spot", who,
            j->market.s);
    cp_pr_str(c, e, "accelerator", who, false, &j->accelerator);
    cp_pr_int(c, e, "count", who, false, &j->count);
    cp_pr_num(c, e, "cpus", who, false, &j->cpus);
    cp_pr_num(c, e, "memory_gb", who, false, &j->memory_gb);
    cp_pr_int(c, e, "start_slot", who, false, &j->start_slot);
    cp_pr_int(c, e, "slots", who, false, &j->slots);
    cp_pr_num(c, e, "start_hour", who, need && !c->choices_only, &j->start_hour);
    cp_pr_num(c, e, "end_hour", who, need && !c->choices_only, &j->end_hour);
    cp_pr_num(c, e, "energy_kwh", who, false, &j->energy_kwh);
    cp_pr_num(c, e, "cost", who, false, &j->cost);
    cp_pr_strs(c, e, "nodes", who, false, "node or instance id", &j->nodes);
    cp_pr_num(c, e, "power_limit_w", who, false, &j->power_limit_w);
    /* capplan.5 §10.5: a re-plan's flags (the words true or false) */
    cp_pr_str(c, e, "started", who, false, &j->started);
    cp_pr_str(c, e, "restarted", who, false, &j->restarted);
    cp_pr_num(c, e, "work_left", who, false, &j->work_left);
    c->level = CP_PLAN_EXTRA;
    cp_pr_int(c, e, "shape", who, false, &j->shape);
    cp_pr_num(c, e, "egress", who, false, &j->egress);
    cp_pr_str(c, e, "reason", who, false, &j->reason);
    c->level = CP_PLAN_INVALID;
}

static void read_jobs(rd *c, const cp_node *root)
{
    cp_plan_file *pf = c->pf;
    const cp_node *js = cp_pr_get(root, "jobs");
    if (!js || js->n == 0)
        return;
    if (!(pf->jobs = cp_calloc(js->n, sizeof *pf->jobs))) {
        c->oom = true;
        return;
    }
    for (size_t i = 0; i < js->n && !c->oom; i++)
        if (cp_pr_entry_is_map(c, js->kids[i], "a job entry"))
            read_job(c, js->kids[i], (int)i, &pf->jobs[pf->n_jobs++]);
}

/* ---- the per-slot lists --------------------------------------------------------- */

static void read_util(rd *c, const cp_node *root)
{
    cp_plan_file *pf = c->pf;
    const cp_node *l =
        cp_pr_list(c, root, "utilization", &pf->util_list, (void **)&pf->util, sizeof *pf->util);
    char who[300];
    for (size_t i = 0; l && i < l->n && !c->oom; i++) {
        const cp_node *e = l->kids[i];
        if (!cp_pr_entry_is_map(c, e, "a utilization entry"))
            continue;
        cp_plan_util *u = &pf->util[pf->n_util++];
        u->pos = e->pos;
        u->index = (int)i;
        snprintf(who, sizeof who, "utilization %zu", i + 1);
        cp_pr_str(c, e, "pool", who, true, &u->pool);
        if (u->pool.s)
            snprintf(who, sizeof who, "utilization of '%s'", u->pool.s);
        for (int d = 0; d < CP_PLAN_DIMS; d++)
            cp_pr_series(c, e, cp_plan_dim_key[d], who, false, false, &u->dim[d]);
    }
}

static void read_sites(rd *c, const cp_node *root)
{
    cp_plan_file *pf = c->pf;
    const cp_node *l =
        cp_pr_list(c, root, "sites", &pf->sites_list, (void **)&pf->sites, sizeof *pf->sites);
    char who[300];
    for (size_t i = 0; l && i < l->n && !c->oom; i++) {
        const cp_node *e = l->kids[i];
        if (!cp_pr_entry_is_map(c, e, "a site entry"))
            continue;
        cp_plan_site *s = &pf->sites[pf->n_sites++];
        s->pos = e->pos;
        s->index = (int)i;
        snprintf(who, sizeof who, "site %zu", i + 1);
        cp_pr_str(c, e, "name", who, true, &s->name);
        if (s->name.s)
            snprintf(who, sizeof who, "site '%s'", s->name.s);
        cp_pr_series(c, e, "power_kw", who, false, false, &s->power_kw);
        cp_pr_num(c, e, "energy_kwh", who, false, &s->energy_kwh);
        cp_pr_num(c, e, "carbon_kg", who, false, &s->carbon_kg);
    }
}

static void read_teams(rd *c, const cp_node *root)
{
    cp_plan_file *pf = c->pf;
    const cp_node *l =
        cp_pr_list(c, root, "teams", &pf->teams_list, (void **)&pf->teams, sizeof *pf->teams);
    char who[300];
    for (size_t i = 0; l && i < l->n && !c->oom; i++) {
        const cp_node *e = l->kids[i];
        if (!cp_pr_entry_is_map(c, e, "a team entry"))
            continue;
        cp_plan_team *tm = &pf->teams[pf->n_teams++];
        tm->pos = e->pos;
        tm->index = (int)i;
        snprintf(who, sizeof who, "team %zu", i + 1);
        cp_pr_str(c, e, "name", who, true, &tm->name);
        if (tm->name.s)
            snprintf(who, sizeof who, "team '%s'", tm->name.s);
        cp_pr_num(c, e, "cost", who, true, &tm->cost);
        cp_pr_num(c, e, "accelerator_hours", who, true, &tm->accelerator_hours);
    }
}

static void read_leases(rd *c, const cp_node *e, const char *who, cp_plan_prov *m)
{
    const cp_node *l = cp_pr_key(c, e, "leases", who, false, &m->leases_has, &m->leases_pos);
    if (!l)
        return;
    if (l->kind != CP_NODE_SEQ) {
        m->leases_has = CP_PLAN_BAD;
        BAD(c, l->pos, "%s: 'leases' must be a list, found %s", who, cp_pr_found(l));
        return;
    }
    if (l->n == 0)
        return;
    if (!(m->leases = cp_calloc(l->n, sizeof *m->leases))) {
        c->oom = true;
        return;
    }
    char lw[400];
    for (size_t i = 0; i < l->n && !c->oom; i++) {
        const cp_node *le = l->kids[i];
        if (m->market.s)
            snprintf(lw, sizeof lw, "lease %zu of '%s'%s%s%s", i + 1, m->market.s,
                     m->mk != CP_PLAN_NO_MARKET ? " (" : "",
                     m->mk != CP_PLAN_NO_MARKET ? m->kind.s : "",
                     m->mk != CP_PLAN_NO_MARKET ? ")" : "");
        else
            snprintf(lw, sizeof lw, "lease %zu of provisioning %d", i + 1, m->index + 1);
        if (le->kind != CP_NODE_MAP) {
            BAD(c, le->pos, "%s must be a mapping, found %s", lw, cp_pr_found(le));
            continue;
        }
        cp_plan_lease *ls = &m->leases[m->n_leases++];
        ls->pos = le->pos;
        cp_pr_str(c, le, "id", lw, true, &ls->id);
        cp_pr_int(c, le, "start_slot", lw, true, &ls->start_slot);
        cp_pr_int(c, le, "slots", lw, true, &ls->slots);
        cp_pr_strs(c, le, "jobs", lw, true, "job name", &ls->jobs);
    }
}

static void read_prov(rd *c, const cp_node *root)
{
    cp_plan_file *pf = c->pf;
    const cp_node *l =
        cp_pr_list(c, root, "provisioning", &pf->prov_list, (void **)&pf->prov, sizeof *pf->prov);
    char who[300];
    for (size_t i = 0; l && i < l->n && !c->oom; i++) {
        const cp_node *e = l->kids[i];
        if (!cp_pr_entry_is_map(c, e, "a provisioning entry"))
            continue;
        cp_plan_prov *m = &pf->prov[pf->n_prov++];
        m->pos = e->pos;
        m->index = (int)i;
        m->mk = CP_PLAN_NO_MARKET;
        snprintf(who, sizeof who, "provisioning %zu", i + 1);
        cp_pr_str(c, e, "market", who, true, &m->market);
        if (m->market.s)
            snprintf(who, sizeof who, "provisioning of '%s'", m->market.s);
        cp_pr_str(c, e, "kind", who, true, &m->kind);
        if (m->kind.s) {
            m->mk = cp_pr_market(m->kind.s);
            if (m->mk != CP_PLAN_ON_DEMAND && m->mk != CP_PLAN_SPOT) {
                BAD(c, m->kind.pos, "%s: kind '%s' is not one of on_demand, spot", who, m->kind.s);
                m->mk = CP_PLAN_NO_MARKET;
            } else if (m->market.s) { /* an offer has two markets: say which */
                size_t len = strlen(who);
                snprintf(who + len, sizeof who - len, " (%s)", m->kind.s);
            }
        }
        cp_pr_series(c, e, "instances", who, true, true, &m->instances);
        cp_pr_num(c, e, "cost", who, false, &m->cost);
        c->level = CP_PLAN_EXTRA;
        read_leases(c, e, who, m);
        c->level = CP_PLAN_INVALID;
    }
}

/* ---- entry points ------------------------------------------------------------------ */

int cp_plan_load_file(const char *path, cp_node **out, cp_diags *diags)
{
    const cp_yaml_limits lim = {(size_t)CP_PLAN_MAX_BYTES, CP_PLAN_MAX_NODES};
    return cp_yaml_load_file_limits(path, &lim, out, diags);
}

void cp_plan_read_opts_init(cp_plan_read_opts *o)
{
    o->slots = 0;
    o->choices_only = false;
}

void cp_plan_file_init(cp_plan_file *pf)
{
    memset(pf, 0, sizeof *pf);
}

void cp_plan_file_release(cp_plan_file *pf)
{
    if (!pf)
        return;
    for (int i = 0; i < pf->n_jobs; i++)
        cp_free(pf->jobs[i].nodes.s);
    for (int i = 0; i < pf->n_prov; i++) {
        cp_free(pf->prov[i].instances.v);
        for (int k = 0; k < pf->prov[i].n_leases; k++)
            cp_free(pf->prov[i].leases[k].jobs.s);
        cp_free(pf->prov[i].leases);
    }
    for (int i = 0; i < pf->n_util; i++)
        for (int d = 0; d < CP_PLAN_DIMS; d++)
            cp_free(pf->util[i].dim[d].v);
    for (int i = 0; i < pf->n_sites; i++)
        cp_free(pf->sites[i].power_kw.v);
    for (int i = 0; i < pf->n_svcs; i++)
        cp_pr_svc_release(&pf->svcs[i]);
    cp_free(pf->svcs);
    for (int i = 0; i < pf->n_problems; i++)
        cp_free(pf->problems[i].msg);
    cp_free(pf->jobs);
    cp_free(pf->prov);
    cp_free(pf->util);
    cp_free(pf->sites);
    cp_free(pf->teams);
    cp_free(pf->problems);
    cp_plan_file_init(pf);
}

bool cp_plan_file_is_ok(const cp_plan_file *pf)
{
    return pf->n_problems == 0;
}

int cp_plan_read(const cp_node *root, const cp_plan_read_opts *o, cp_plan_file *out, cp_err *err)
{
    cp_plan_file_release(out);
    rd c = {out, CP_PLAN_INVALID, false, o && o->choices_only};
    out->pos = root->pos;
    out->slots = o && o->slots > 0 ? o->slots : 0;
    out->slots_from_inputs = out->slots > 0;
    if (root->kind != CP_NODE_MAP) {
        cp_pr_problem(&c, CP_PLAN_MALFORMED, root->pos, "the plan must be a mapping, found %s",
                      cp_pr_found(root));
    } else {
        read_identity(&c, root);
        if (!out->malformed) {
            read_header(&c, root);
            read_jobs(&c, root);
        }
        if (!out->malformed && !c.oom)
            read_teams(&c, root);
        if (!out->malformed && !c.oom)
            read_util(&c, root);
        if (!out->malformed && !c.oom)
            read_sites(&c, root);
        if (!out->malformed && !c.oom)
            read_prov(&c, root);
        if (!out->malformed && !c.oom)
            cp_pr_services(&c, root);
    }
    if (!c.oom && cp_msg_sort(out->problems, (size_t)out->n_problems, sizeof *out->problems,
                              offsetof(cp_plan_problem, pos)))
        c.oom = true;
    if (c.oom) {
        cp_plan_file_release(out);
        return cp_err_nomem(err);
    }
    return CP_OK;
}

void cp_plan_file_diags(const cp_plan_file *pf, cp_diags *d)
{
    for (int i = 0; i < pf->n_problems; i++)
        cp_diags_add(d, CP_ERR_INPUT, pf->problems[i].pos, "%s", pf->problems[i].msg);
}
