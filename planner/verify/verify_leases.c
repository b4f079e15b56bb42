/*
 * The plan verifier, leases (SPEC 5, version 1.1; optional, checked when
 * a provisioning entry lists them): each lease is one id of the market in
 * use over a maximal run of consecutive slots, with the jobs that run on
 * that id in those slots. Checked against the placement (the jobs' ids,
 * verify_place.c): every (id, slot) in use is covered by exactly one
 * lease, no lease covers an idle one, two leases of one id never touch
 * (they would be one run), each lease names exactly the jobs on its id in
 * its slots, and in every slot y(t) is at least the leases covering it.
 */
#include "verify_internal.h"

#include "cp_alloc.h"

#include <string.h>

/* Index of the job named `name` among the plan's entries, -1 when none. */
static int entry_named(const vf_ctx *c, const char *name)
{
    for (int e = 0; e < c->n_jobs; e++)
        if (!strcmp(c->in->jobs[c->jobs[e].job].name, name))
            return e;
    return -1;
}

/* Whether plan entry e runs on instance `label` of market r in slot t. */
static bool runs_on(const vf_ctx *c, int e, int r, long label, int t)
{
    if (!vf_runs_at(c, &c->jobs[e], t))
        return false;
    for (int a = 0; a < c->n_asg; a++)
        if (c->asg[a].entry == e && c->asg[a].res == r && c->asg[a].label == label)
            return true;
    return false;
}

/* Whether instance `label` of market r is in use in slot t. */
static bool in_use(const vf_ctx *c, int r, long label, int t)
{
    for (int a = 0; a < c->n_asg; a++)
        if (c->asg[a].res == r && c->asg[a].label == label && vf_runs_at(c, &c->jobs[c->asg[a].entry], t))
            return true;
    return false;
}

/* One lease's own fields; false (with a violation) when unusable. */
static bool lease_fields(vf_ctx *c, const cp_resource *res, const cp_plan_lease *ls, long *label)
{
    const char *who = res->id;
    if (ls->id.has != CP_PLAN_SET || ls->start_slot.has != CP_PLAN_SET || ls->slots.has != CP_PLAN_SET ||
        ls->jobs.has != CP_PLAN_SET) {
        vf_viol(c, ls->pos, "provisioning of '%s': a lease needs 'id', 'start_slot', 'slots' and 'jobs'",
                who);
        return false;
    }
    *label = vf_parse_id(ls->id.s, res->id);
    if (*label < 0) {
        vf_viol(c, ls->id.pos, "provisioning of '%s': lease id '%s' is not an instance id of '%s' (expected '%s/N')",
                who, ls->id.s, res->id, res->id);
        return false;
    }
    if (ls->start_slot.v < 0 || ls->slots.v < 1 || ls->start_slot.v + ls->slots.v > c->T) {
        vf_viol(c, ls->start_slot.pos, "lease '%s': slots %ld..%ld are not within the horizon (0..%d)",
                ls->id.s, ls->start_slot.v, ls->start_slot.v + ls->slots.v - 1, c->T - 1);
        return false;
    }
    return true;
}

/* The jobs a lease lists against those on its id in its slots. */
static void lease_jobs(vf_ctx *c, int r, const cp_plan_lease *ls, long label)
{
    int s = (int)ls->start_slot.v, n = (int)ls->slots.v;
    for (int i = 0; i < ls->jobs.n; i++) {
        const char *name = ls->jobs.s[i];
        int e = name ? entry_named(c, name) : -1;
        bool on = false;
        for (int t = s; t < s + n && e >= 0 && !on; t++)
            on = runs_on(c, e, r, label, t);
        if (!on)
            vf_viol(c, ls->jobs.at[i], "lease '%s' from slot %d: job '%s' does not run on it in slots %d..%d",
                    ls->id.s, s, name ? name : "?", s, s + n - 1);
    }
    for (int e = 0; e < c->n_jobs; e++) {
        bool on = false;
        for (int t = s; t < s + n && !on; t++)
            on = runs_on(c, e, r, label, t);
        if (!on)
            continue;
        const char *name = c->in->jobs[c->jobs[e].job].name;
        bool listed = false;
        for (int i = 0; i < ls->jobs.n && !listed; i++)
            listed = ls->jobs.s[i] && !strcmp(ls->jobs.s[i], name);
        if (!listed)
            vf_viol(c, ls->jobs.pos, "lease '%s' from slot %d: job '%s' runs on it but is not listed",
                    ls->id.s, s, name);
    }
}

static void check_market(vf_ctx *c, int r)
{
    const cp_plan_prov *pv = c->prov[r];
    const cp_resource *res = &c->ms->res[r];
    int T = c->T, n = pv->n_leases;
    long *label = cp_calloc((size_t)(n ? n : 1), sizeof *label);
    bool *ok = cp_calloc((size_t)(n ? n : 1), sizeof *ok);
    int *cover = cp_calloc((size_t)T, sizeof *cover);
    if (!label || !ok || !cover) {
        c->oom = true;
        goto out;
    }
    bool all = true;
    for (int l = 0; l < n; l++) {
        ok[l] = lease_fields(c, res, &pv->leases[l], &label[l]);
        all &= ok[l];
    }
    for (int l = 0; l < n; l++) {
        if (!ok[l])
            continue;
        const cp_plan_lease *ls = &pv->leases[l];
        int s = (int)ls->start_slot.v, e = s + (int)ls->slots.v;
        for (int t = s; t < e; t++) {
            cover[t]++;
            if (!in_use(c, r, label[l], t))
                vf_viol(c, ls->pos, "lease '%s' from slot %d covers slot %d, where no job uses it", ls->id.s, s, t);
        }
        for (int k = 0; k < l; k++) {
            if (!ok[k] || label[k] != label[l])
                continue;
            int ks = (int)pv->leases[k].start_slot.v, ke = ks + (int)pv->leases[k].slots.v;
            if (ks < e && s < ke)
                vf_viol(c, ls->pos, "leases of '%s' from slots %d and %d overlap", ls->id.s, ks, s);
            else if (ks == e || ke == s)
                vf_viol(c, ls->pos, "leases of '%s' from slots %d and %d are one run of slots: one lease",
                        ls->id.s, ks < s ? ks : s, ks < s ? s : ks);
        }
        lease_jobs(c, r, ls, label[l]);
    }
    /* every (id, slot) in use is covered (only when every lease was
     * readable: an unreadable one may be the cover) */
    for (int a = 0; a < c->n_asg && all; a++) {
        const vf_asg *g = &c->asg[a];
        if (g->res != r)
            continue;
        const vf_job *vj = &c->jobs[g->entry];
        for (int t = vj->start; t < vj->start + c->ms->modes[vj->mode].slots; t++) {
            bool covered = false;
            for (int l = 0; l < n && !covered; l++)
                covered = label[l] == g->label && pv->leases[l].start_slot.v <= t &&
                          t < pv->leases[l].start_slot.v + pv->leases[l].slots.v;
            if (!covered) {
                vf_viol(c, g->id, "instance '%s/%ld' is in use in slot %d but no lease of '%s' covers it",
                        res->id, g->label, t, res->id);
                break;
            }
        }
    }
    for (int t = 0; t < T; t++)
        if (cover[t] > vf_y_at(c, r, t)) {
            vf_viol(c, pv->leases_pos, "provisioning of '%s': %d leases cover slot %d but %ld instances are rented",
                    res->id, cover[t], t, vf_y_at(c, r, t));
            break;
        }
out:
    cp_free(label);
    cp_free(ok);
    cp_free(cover);
}

void vf_check_leases(vf_ctx *c)
{
    for (int r = 0; r < c->ms->n_res && !c->oom; r++) {
        const cp_plan_prov *pv = c->prov[r];
        if (!pv || c->ms->res[r].kind == CP_RES_POOL || pv->leases_has == CP_PLAN_ABSENT)
            continue;
        if (pv->leases_has != CP_PLAN_SET) {
            vf_viol(c, pv->leases_pos, "provisioning of '%s': 'leases' must be a list of leases",
                    c->ms->res[r].id);
            continue;
        }
        check_market(c, r);
    }
}
