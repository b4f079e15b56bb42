/*
 * The plan verifier, reading the plan (see verify_internal.h): the root's
 * structure, the job list (one entry per input job; for each scheduled
 * job, the mode its resource, market and count name, its start slot and
 * the fields derived from them) and the provisioning list, which gives
 * y(t) per market for the later phases.
 */
#include "verify_internal.h"

#include "cp_alloc.h"

#include <stdio.h>
#include <string.h>

static bool status_valid(const char *s)
{
    return s && (!strcmp(s, "optimal") || !strcmp(s, "feasible") || !strcmp(s, "infeasible") ||
                 !strcmp(s, "interrupted"));
}

void vf_check_root(vf_ctx *c)
{
    const cp_node *root = c->root;
    cp_verify_report *r = c->rep;
    if (root->kind != CP_NODE_MAP) {
        vf_viol(c, root, "the plan must be a mapping, found %s", cp_node_kind_name(root));
        r->malformed = true;
        return;
    }
    long ver;
    const cp_node *vn = vf_get(root, "capplan_plan");
    if (!vn) {
        vf_viol(c, root, "missing 'capplan_plan: 1' (not a capplan plan)");
        r->malformed = true;
    } else if (!vf_as_int(vn, &ver) || ver != 1) {
        vf_viol(c, vn, "capplan_plan: unsupported version %s (expected 1)",
                vn->kind == CP_NODE_SCALAR ? vn->str : cp_node_kind_name(vn));
        r->malformed = true;
    }
    const cp_node *sn;
    const char *st = vf_str_field(c, root, "status", "plan", true, &sn);
    if (!st) {
        r->malformed = true;
    } else if (!status_valid(st)) {
        vf_viol(c, sn, "plan: status '%s' is not one of optimal, feasible, infeasible, interrupted",
                st);
        r->malformed = true;
    } else if (!strcmp(st, "infeasible")) {
        r->infeasible = true;
    }
    const cp_node *jn = vf_get(root, "jobs");
    if (jn && jn->kind != CP_NODE_SEQ) {
        vf_viol(c, jn, "plan: 'jobs' must be a list, found %s", cp_node_kind_name(jn));
        r->malformed = true;
    } else if (!jn && !r->infeasible) {
        vf_viol(c, root, "plan: missing 'jobs'");
        r->malformed = true;
    }
    if (r->malformed || r->infeasible)
        return;
    const cp_node *tn = vf_get(root, "totals");
    if (!tn)
        vf_viol(c, root, "plan: missing 'totals'");
    else if (tn->kind != CP_NODE_MAP)
        vf_viol(c, tn, "plan: 'totals' must be a mapping");
    static const char *const lists[] = {"provisioning", "utilization", "sites"};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
        const cp_node *l = vf_get(root, lists[i]);
        if (l && l->kind != CP_NODE_SEQ)
            vf_viol(c, l, "plan: '%s' must be a list, found %s", lists[i], cp_node_kind_name(l));
    }
}

/* The resource a scheduled job names; -1 (with a violation) when none. */
static int resolve_resource(vf_ctx *c, const cp_node *map, const char *who)
{
    const cp_node *rn, *mn;
    const char *res = vf_str_field(c, map, "resource", who, true, &rn);
    const char *mk = vf_str_field(c, map, "market", who, true, &mn);
    if (!res || !mk)
        return -1;
    if (!strcmp(mk, "pool")) {
        int p = cp_input_find_pool(c->in, res);
        if (p < 0) {
            vf_viol(c, rn, "%s: unknown pool '%s'", who, res);
            return -1;
        }
        return c->ms->res_of_pool[p];
    }
    if (strcmp(mk, "on_demand") && strcmp(mk, "spot")) {
        vf_viol(c, mn, "%s: market '%s' is not one of pool, on_demand, spot", who, mk);
        return -1;
    }
    int o = cp_input_find_offer(c->in, res);
    if (o < 0) {
        vf_viol(c, rn, "%s: unknown offer '%s'%s", who, res,
                cp_input_find_pool(c->in, res) >= 0 ? " (a pool of that name has market 'pool')"
                                                    : "");
        return -1;
    }
    if (!strcmp(mk, "spot")) {
        if (c->ms->spot_of_offer[o] < 0) {
            vf_viol(c, mn, "%s: offer '%s' has no spot market", who, res);
            return -1;
        }
        return c->ms->spot_of_offer[o];
    }
    return c->ms->ondemand_of_offer[o];
}

static bool count_allowed(const cp_job *j, long k)
{
    for (int i = 0; i < j->n_counts; i++)
        if (j->counts[i] == k)
            return true;
    return false;
}

/* A scheduled job: its mode, start slot and the fields derived from them. */
static void check_scheduled(vf_ctx *c, vf_job *vj, const char *who)
{
    const cp_input *in = c->in;
    const cp_job *j = &in->jobs[vj->job];
    const cp_node *map = vj->node;
    vj->res = resolve_resource(c, map, who);
    long count = 0, start = 0;
    const cp_node *cn, *sn;
    int has_count = vf_int_field(c, map, "count", who, true, &count, &cn);
    int has_start = vf_int_field(c, map, "start_slot", who, true, &start, &sn);
    const cp_node *nodes = vf_get(map, "nodes");
    if (nodes && nodes->kind != CP_NODE_SEQ)
        vf_viol(c, nodes, "%s: 'nodes' must be a list of node or instance ids", who);
    else
        vj->nodes = nodes;
    if (vj->res < 0 || has_count != 1)
        return;
    const cp_resource *r = &c->ms->res[vj->res];
    for (int m = c->ms->job_first[vj->job]; m < c->ms->job_first[vj->job + 1]; m++)
        if (c->ms->modes[m].res == vj->res && c->ms->modes[m].count == count) {
            vj->mode = m;
            break;
        }
    if (vj->mode < 0) {
        if (c->ms->reason[vj->job])
            vf_viol(c, map, "%s: the job has no mode at all: %s", who, c->ms->reason[vj->job]);
        else if (!count_allowed(j, count))
            vf_viol(c, cn, "%s: count %ld is not one of the job's allowed %s", who, count,
                    j->kind == CP_JOB_TRAINING ? "accelerator counts" : "machine counts");
        else
            vf_viol(c, map, "%s: no mode on '%s' (%s) with count %ld: placement, eligibility or "
                            "the time window rules it out", who, r->name, vf_market_name(r->kind),
                    count);
        return;
    }
    const cp_mode *m = &c->ms->modes[vj->mode];
    if (has_start == 1) {
        if (start < m->s_min || start > m->s_max)
            vf_viol(c, sn, "%s: start_slot %ld is outside its allowed window %d..%d (release %s h, "
                           "deadline %s h, %d slot%s)", who, start, m->s_min, m->s_max,
                    vf_n(j->release_hour).s, vf_n(j->deadline_hour).s, m->slots,
                    m->slots == 1 ? "" : "s");
        if (start >= 0 && start + m->slots <= c->T) {
            vj->start = (int)start;
            vj->counted = true;
        }
    }
    long slots;
    const cp_node *dn;
    if (vf_int_field(c, map, "slots", who, true, &slots, &dn) == 1 && slots != m->slots)
        vf_viol(c, dn, "%s: slots: expected %d, found %ld", who, m->slots, slots);
    if (has_start == 1) {
        vf_compare_field(c, map, "start_hour", who, true, start * c->h);
        vf_compare_field(c, map, "end_hour", who, true, start * c->h + m->hours);
    }
    const cp_node *an;
    const char *acc = vf_str_field(c, map, "accelerator", who, false, &an);
    if (m->acc >= 0) {
        const char *want = in->accels[m->acc].name;
        if (!an && j->kind == CP_JOB_TRAINING)
            vf_viol(c, map, "%s: missing 'accelerator' (expected '%s')", who, want);
        else if (acc && strcmp(acc, want))
            vf_viol(c, an, "%s: accelerator: expected '%s', found '%s'", who, want, acc);
    } else if (an) {
        vf_viol(c, an, "%s: accelerator: '%s' carries no accelerator", who, r->name);
    }
    vf_compare_field(c, map, "cpus", who, true, m->demand[CP_DIM_CPU]);
    vf_compare_field(c, map, "memory_gb", who, true, m->demand[CP_DIM_MEM]);
    double kwh = 0;
    if (r->kind == CP_RES_POOL) {
        const cp_site *s = &in->sites[r->site];
        kwh = s->pue * m->busy_w * (m->slots - 1 + m->last_frac) * c->h / 1000;
    }
    vf_compare_field(c, map, "energy_kwh", who, true, kwh);
}

void vf_check_jobs(vf_ctx *c)
{
    const cp_input *in = c->in;
    const cp_node *jn = vf_get(c->root, "jobs");
    if (!jn)
        return;
    c->jobs = cp_calloc(jn->n ? jn->n : 1, sizeof *c->jobs);
    if (!c->jobs) {
        c->oom = true;
        return;
    }
    for (size_t i = 0; i < jn->n; i++) {
        const cp_node *e = jn->kids[i];
        char who[400];
        snprintf(who, sizeof who, "jobs[%zu]", i);
        if (!vf_entry_is_map(c, e, who))
            continue;
        const cp_node *nn;
        const char *name = vf_str_field(c, e, "name", who, true, &nn);
        if (!name)
            continue;
        int j = cp_input_find_job(in, name);
        if (j < 0) {
            vf_viol(c, nn, "unknown job '%s'", name);
            continue;
        }
        if (c->entry_of_job[j] >= 0) {
            vf_viol(c, nn, "job '%s' is listed twice (first at line %d)", name,
                    c->jobs[c->entry_of_job[j]].node->pos.line);
            continue;
        }
        snprintf(who, sizeof who, "job '%s'", name);
        vf_job *vj = &c->jobs[c->n_jobs];
        vj->node = e;
        vj->job = j;
        vj->mode = -1;
        vj->res = -1;
        c->entry_of_job[j] = c->n_jobs++;
        const cp_node *sn;
        const char *st = vf_str_field(c, e, "status", who, true, &sn);
        if (!st)
            continue;
        if (!strcmp(st, "dropped")) {
            c->dropped_job[j] = true;
            static const char *const none[] = {"resource", "market", "start_slot", "nodes"};
            for (size_t k = 0; k < sizeof none / sizeof none[0]; k++) {
                const cp_node *v = vf_get(e, none[k]);
                if (v)
                    vf_viol(c, v, "%s is dropped but has '%s'", who, none[k]);
            }
        } else if (!strcmp(st, "scheduled")) {
            vj->scheduled = true;
            if (!c->rep->infeasible)
                check_scheduled(c, vj, who);
        } else {
            vf_viol(c, sn, "%s: status '%s' is not one of scheduled, dropped", who, st);
        }
    }
}

void vf_check_missing(vf_ctx *c)
{
    const cp_node *jn = vf_get(c->root, "jobs");
    for (int j = 0; j < c->in->n_jobs; j++)
        if (c->entry_of_job[j] < 0) {
            vf_viol(c, jn, "job '%s' is missing from the plan (every input job is listed once, "
                           "scheduled or dropped)", c->in->jobs[j].name);
            c->dropped_job[j] = true; /* not scheduled: its penalty is due */
        }
}

/* ---- provisioning ------------------------------------------------------- */

void vf_read_provisioning(vf_ctx *c)
{
    const cp_node *pl = vf_get(c->root, "provisioning");
    if (!pl || pl->kind != CP_NODE_SEQ)
        return;
    for (size_t i = 0; i < pl->n; i++) {
        const cp_node *e = pl->kids[i];
        char who[400];
        snprintf(who, sizeof who, "provisioning[%zu]", i);
        if (!vf_entry_is_map(c, e, who))
            continue;
        const cp_node *mn, *kn;
        const char *mk = vf_str_field(c, e, "market", who, true, &mn);
        const char *kind = vf_str_field(c, e, "kind", who, true, &kn);
        if (!mk || !kind)
            continue;
        int o = cp_input_find_offer(c->in, mk);
        if (o < 0) {
            vf_viol(c, mn, "%s: unknown offer '%s'", who, mk);
            continue;
        }
        int r;
        if (!strcmp(kind, "on_demand")) {
            r = c->ms->ondemand_of_offer[o];
        } else if (!strcmp(kind, "spot")) {
            r = c->ms->spot_of_offer[o];
            if (r < 0) {
                vf_viol(c, kn, "%s: offer '%s' has no spot market", who, mk);
                continue;
            }
        } else {
            vf_viol(c, kn, "%s: kind '%s' is not one of on_demand, spot", who, kind);
            continue;
        }
        snprintf(who, sizeof who, "provisioning of '%s' (%s)", mk, kind);
        if (c->prov[r]) {
            vf_viol(c, mn, "%s is listed twice (first at line %d)", who, c->prov[r]->pos.line);
            continue;
        }
        c->prov[r] = e;
        const cp_node *is = vf_get(e, "instances");
        if (!is) {
            vf_viol(c, e, "%s: missing 'instances'", who);
            continue;
        }
        if (is->kind != CP_NODE_SEQ) {
            vf_viol(c, is, "%s: 'instances' must be a list of %d integers", who, c->T);
            continue;
        }
        c->prov_inst[r] = is;
        if ((int)is->n != c->T)
            vf_viol(c, is, "%s: 'instances' has %zu values, expected one per slot (%d)", who, is->n,
                    c->T);
        for (int t = 0; t < c->T && t < (int)is->n; t++) {
            long v;
            if (!vf_as_int(is->kids[t], &v) || v < 0) {
                vf_viol(c, is->kids[t], "%s: instances[%d] must be an integer >= 0", who, t);
                continue;
            }
            c->y[(size_t)r * (size_t)c->T + (size_t)t] = v;
        }
    }
}
