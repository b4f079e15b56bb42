/*
 * A re-plan against OLD (capplan.5 §10.5, `verify --from OLD --now S`).
 * The other phases check the plan on the re-plan's view of the inputs
 * (cp_replan.h: free and broken jobs released at S, broken training jobs
 * at their work_left, history relaxed so that it is not re-checked
 * against the inputs); this phase checks what only OLD can say:
 *
 * - every market's instances before S are OLD's;
 * - a started job keeps OLD's resource, market, count, shape, power
 *   limit, start and nodes, and says `started: true`;
 * - a broken job says `restarted: true` and, for training, the work_left
 *   of its last checkpoint; no other job carries either flag;
 * - `replanned` counts now, started, broken and changed jobs, and
 *   totals.changes is the change penalty times the changed jobs (the
 *   jobs OLD scheduled at S or later that the plan drops or changes),
 *   counted here from the entries, not from the planner's modes;
 * - every service's replicas per deployment, shares and unserved shares
 *   before S are OLD's, and so are its replicas' ids when OLD placed
 *   them (the starts of slot S count against OLD's replicas of S - 1,
 *   as verify_services.c costs them from the plan's own history).
 */
#include "verify_internal.h"

#include "cp_alloc.h"
#include "cp_replan.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static bool is_true(const cp_plan_str *s)
{
    return s->has == CP_PLAN_SET && !strcmp(s->s, "true");
}

/* The entry's choice (res -1 when dropped or not costed). */
static void entry_choice(const cp_vf_ctx *c, const cp_vf_job *vj, cp_replan_choice *ch)
{
    memset(ch, 0, sizeof *ch);
    ch->res = -1;
    if (!vj || !vj->scheduled || vj->mode < 0)
        return;
    const cp_mode *m = &c->ms->modes[vj->mode];
    *ch = (cp_replan_choice){m->res, m->count, m->shape, m->limit, vj->start, m->slots};
}

static void check_nodes(cp_vf_ctx *c, const cp_vf_job *vj, const cp_replan_job *rj,
                        const char *who)
{
    const cp_plan_strs *n = vj->nodes;
    if (!rj->units || !n)
        return;
    const char *id = c->ms->res[rj->old.res].id;
    bool same = n->n == rj->n_units;
    for (int q = 0; same && q < n->n; q++) {
        char want[300];
        snprintf(want, sizeof want, "%s/%d", id, rj->units[q]);
        same = n->s[q] && !strcmp(n->s[q], want);
    }
    if (!same)
        cp_vf_viol(c, n->pos, "%s: a started job keeps OLD's nodes", who);
}

static void check_started(cp_vf_ctx *c, int j, const cp_vf_job *vj, const cp_replan_job *rj,
                          const char *who)
{
    if (!vj || !vj->scheduled) {
        cp_vf_viol(c, vj ? vj->pj->pos : c->pf->jobs_list.pos,
                   "%s started before slot %d in OLD and must keep its run", who, c->rp->now);
        return;
    }
    cp_replan_choice ch;
    entry_choice(c, vj, &ch);
    const cp_replan_choice *o = &rj->old;
    if (ch.res >= 0 && (ch.res != o->res || ch.count != o->count || ch.shape != o->shape ||
                        ch.limit != o->limit || ch.start != o->start)) {
        const cp_resource *r = &c->ms->res[o->res];
        cp_vf_viol(c, vj->pj->pos,
                   "%s: a started job keeps OLD's run: %d on '%s' (%s) in shape %d from slot %d",
                   who, o->count, r->name, cp_vf_market_name(r->kind), o->shape, o->start);
    }
    check_nodes(c, vj, rj, who);
    if (!is_true(&vj->pj->started))
        cp_vf_viol(c, vj->pj->pos, "%s: a started job's entry says 'started: true'", who);
    (void)j;
}

static void check_broken(cp_vf_ctx *c, int j, const cp_vf_job *vj, const cp_replan_job *rj,
                         const char *who)
{
    if (!vj || !vj->scheduled)
        return; /* dropped: its penalty is paid */
    if (!is_true(&vj->pj->restarted))
        cp_vf_viol(c, vj->pj->pos, "%s: a broken job's entry says 'restarted: true'", who);
    if (c->in->jobs[j].kind == CP_JOB_TRAINING)
        cp_vf_compare_num(c, &vj->pj->work_left, vj->pj->pos, "work_left", who, true, rj->work);
}

static void check_history(cp_vf_ctx *c)
{
    const cp_replan *rp = c->rp;
    for (int r = 0; r < c->ms->n_res; r++) {
        const cp_resource *res = &c->ms->res[r];
        if (res->kind == CP_RES_POOL)
            continue;
        for (int t = 0; t < rp->now; t++) {
            long want = rp->y_hist[(size_t)r * rp->now + t], got = cp_vf_y_at(c, r, t);
            if (want == got)
                continue;
            const cp_plan_prov *pm = c->prov[r];
            cp_vf_viol(c, pm ? pm->instances.pos : c->pf->prov_list.pos,
                       "provisioning of '%s' (%s): slot %d is history: OLD rents %ld, found %ld",
                       res->name, cp_vf_market_name(res->kind), t, want, got);
            break;
        }
    }
}

static void check_block(cp_vf_ctx *c, int changed)
{
    const cp_plan_replanned *b = &c->pf->replanned;
    const cp_replan *rp = c->rp;
    if (b->has != CP_PLAN_SET) {
        if (b->has == CP_PLAN_ABSENT)
            cp_vf_viol(c, c->pf->pos, "plan: a re-plan has a 'replanned' block");
        return;
    }
    const struct {
        const char *key;
        const cp_plan_int *v;
        long want;
    } k[] = {{"now", &b->now, rp->now},
             {"started", &b->started, rp->started},
             {"broken", &b->broken, rp->broken},
             {"changed", &b->changed, changed}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (k[i].v->has == CP_PLAN_SET && k[i].v->v != k[i].want)
            cp_vf_viol(c, k[i].v->pos, "replanned: %s: expected %ld, found %ld", k[i].key,
                       k[i].want, k[i].v->v);
    if (c->pf->totals.has == CP_PLAN_SET && c->pf->totals.changes.has == CP_PLAN_ABSENT)
        cp_vf_viol(c, c->pf->totals.pos, "totals: missing 'changes' (a re-plan writes it)");
}

void cp_vf_check_replan(cp_vf_ctx *c)
{
    const cp_replan *rp = c->rp;
    int changed = 0;
    for (int j = 0; j < c->in->n_jobs && !c->oom; j++) {
        const cp_replan_job *rj = &rp->job[j];
        int e = c->entry_of_job[j];
        const cp_vf_job *vj = e >= 0 ? &c->jobs[e] : NULL;
        char who[300];
        snprintf(who, sizeof who, "job '%s'", c->in->jobs[j].name);
        if (rj->kind == CP_REPLAN_STARTED)
            check_started(c, j, vj, rj, who);
        else if (rj->kind == CP_REPLAN_BROKEN)
            check_broken(c, j, vj, rj, who);
        if (vj && rj->kind != CP_REPLAN_STARTED && vj->pj->started.has == CP_PLAN_SET &&
            is_true(&vj->pj->started))
            cp_vf_viol(c, vj->pj->started.pos, "%s did not start before slot %d in OLD", who,
                       rp->now);
        if (vj && rj->kind != CP_REPLAN_BROKEN && is_true(&vj->pj->restarted))
            cp_vf_viol(c, vj->pj->restarted.pos, "%s is not broken: no node of its run is down",
                       who);
        cp_replan_choice ch;
        entry_choice(c, vj, &ch);
        changed += cp_replan_is_change(rp, j, &ch);
    }
    /* the penalty verify was given, else the one the plan says it was
     * planned with (replanned.change_penalty), else 0 */
    double P = rp->change_penalty;
    const cp_plan_num *pp = &c->pf->replanned.change_penalty;
    if (P < 0)
        P = pp->has == CP_PLAN_SET && pp->v >= 0 ? pp->v : 0;
    else if (pp->has == CP_PLAN_SET && pp->v != P)
        cp_vf_viol(c, pp->pos, "replanned: change_penalty: expected %s, found %s",
                   cp_vf_n(P).s, cp_vf_n(pp->v).s);
    c->changes = changed * P;
    check_history(c);
    check_block(c, changed);
}

void cp_vf_check_replica_history(cp_vf_ctx *c, int d, int t, const cp_plan_strs *ns,
                                 const char *who)
{
    const cp_replan *rp = c->rp;
    size_t cell = (size_t)d * (size_t)c->T + (size_t)t;
    if (!rp->svc_unit || ns->has != CP_PLAN_SET || d >= rp->n_deps)
        return;
    size_t n = rp->svc_unit_off[cell + 1] - rp->svc_unit_off[cell];
    const char *id = c->ms->res[c->ms->deps[d].res].id;
    bool same = (size_t)ns->n == n;
    /* the same ids in any order: each of OLD's matched by one of the plan's */
    unsigned char *used = same ? cp_calloc(n ? n : 1, 1) : NULL;
    if (same && !used) {
        c->oom = true;
        return;
    }
    for (size_t i = 0; same && i < n; i++) {
        char want[300];
        snprintf(want, sizeof want, "%s/%d", id, rp->svc_unit[rp->svc_unit_off[cell] + i]);
        size_t q = 0;
        while (q < n && (used[q] || !ns->s[q] || strcmp(ns->s[q], want)))
            q++;
        same = q < n;
        if (same)
            used[q] = 1;
    }
    cp_free(used);
    if (!same)
        cp_vf_viol(c, ns->pos, "%s: slot %d is history: its replicas keep OLD's nodes", who, t);
}

/* The first slot < S where got[i*T..] differs from OLD's want, or -1. */
static int first_off(const cp_vf_ctx *c, size_t i, const double *got, const double *want)
{
    size_t T = (size_t)c->T;
    for (int t = 0; t < c->rp->now; t++)
        if (fabs(got[i * T + (size_t)t] - want[i * T + (size_t)t]) > 1e-9)
            return t;
    return -1;
}

void cp_vf_check_replan_services(cp_vf_ctx *c)
{
    const cp_replan *rp = c->rp;
    const cp_modeset *ms = c->ms;
    const cp_input *in = c->in;
    size_t T = (size_t)c->T;
    if (rp->n_deps != ms->n_deps || rp->n_shares != ms->n_shares || rp->n_classes != ms->n_classes)
        return; /* not the modeset OLD was read under: cannot happen for one input */
    cp_pos at = c->pf->svc_list.has ? c->pf->svc_list.pos : c->pf->pos;
    for (int d = 0; d < ms->n_deps; d++) {
        const cp_deploy *dp = &ms->deps[d];
        const char *sv = in->services[dp->svc].name, *res = ms->res[dp->res].id;
        for (int t = 0; t < rp->now; t++) {
            long want = rp->svc_n[(size_t)d * T + (size_t)t], got = c->svc_n[(size_t)d * T + (size_t)t];
            if (want != got) {
                cp_vf_viol(c, at, "service '%s': slot %d is history: OLD runs %ld replicas of "
                           "configuration %d on %s, found %ld", sv, t, want, dp->config, res, got);
                break;
            }
        }
        for (int k = 0; k < in->services[dp->svc].n_classes; k++) {
            size_t i = (size_t)(ms->dep_share[d] + k);
            int t = first_off(c, i, c->svc_f, rp->svc_f);
            if (t >= 0)
                cp_vf_viol(c, at, "service '%s' class '%s': slot %d is history: OLD's share on "
                           "configuration %d on %s is %s, found %s", sv,
                           in->services[dp->svc].classes[k].name, t, dp->config, res,
                           cp_vf_n(rp->svc_f[i * T + (size_t)t]).s, cp_vf_n(c->svc_f[i * T + (size_t)t]).s);
        }
    }
    for (int v = 0; v < in->n_services; v++)
        for (int k = 0; k < in->services[v].n_classes; k++) {
            size_t i = (size_t)(ms->class_first[v] + k);
            int t = first_off(c, i, c->svc_u, rp->svc_u);
            if (t >= 0)
                cp_vf_viol(c, at, "service '%s' class '%s': slot %d is history: OLD's unserved "
                           "share is %s, found %s", in->services[v].name,
                           in->services[v].classes[k].name, t, cp_vf_n(rp->svc_u[i * T + (size_t)t]).s,
                           cp_vf_n(c->svc_u[i * T + (size_t)t]).s);
        }
}
