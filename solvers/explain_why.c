/*
 * Why a dropped job has no place beside the plan's other jobs: the real
 * cause, with the slots involved (docs/spec-notes.md, "Drop reasons name
 * the cause"). explain.c asks here once it
 * knows that no (mode, start) of the job fits.
 *
 * Every allowed start of every mode of the job is examined, from its
 * predecessors' planned end on (capplan.5 §9.2), slot by slot, and the first
 * rule that stops it is recorded:
 *
 *   maintenance   a pool's `available` below its nodes leaves too little
 *                 even for the job alone (capplan.5 §1.5)
 *   quota         a market's quota is below the instances the job alone
 *                 needs
 *   power cap     a site's cap, after its idle baseline, is below the
 *                 job's own draw
 *   taken         the same three with the other jobs: a pool full, a
 *                 quota used, a cap reached; and pools or markets whose
 *                 aggregate has room but no node or instance does
 *   budget        the objective's budget is spent
 *   team quota    a team's quota on pools (capplan.5 §10.2) is below
 *                 what the job alone holds, or the team's other jobs
 *                 hold it
 *   team budget   the team's other jobs have spent its budget
 *
 * The causes are grouped by rule and resource (or site), with the union
 * of their slots written as ranges; a "taken" cause names the jobs that
 * hold that resource in those slots, not every job of the window. When
 * the predecessors' planned end leaves no start at all, that is the
 * cause ("the window after precedence").
 *
 * The checks mirror those of solvers/usage.c (try_agg) on its public
 * state, so they agree with the search on what fits; only the budget and
 * the node-level packing are asked of cp_usage_try_why.
 */
#include "cp_explain.h"

#include "cp_alloc.h"
#include "cp_cost.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define EPS 1e-9
#define MAX_CAUSES 16 /* distinct (rule, resource) groups tracked */
#define SHOWN 4       /* of them written */
#define HOLDERS 5     /* job names per group */

typedef enum {
    MAINT, QUOTA, CAP, TAKEN, QUOTA_TAKEN, CAP_TAKEN, BUDGET, TEAM_QUOTA, TEAM_TAKEN, TEAM_BUDGET,
    OTHER
} cause_kind;

typedef struct cause {
    cause_kind kind;
    int res;  /* the resource (pools, markets), the site (caps), the team
               * quota (team quotas), the team (its budget), -1 */
    int mode; /* the first mode it stopped: its demand and draw are quoted */
    unsigned char *slots; /* [T] */
} cause;

typedef struct why_ctx {
    const cp_plan *p;
    const cp_usage *u;
    int j;
    cause c[MAX_CAUSES];
    int n, more;
    char other[256]; /* cp_usage_try_why's words for what no rule here names */
} why_ctx;

static double use_of(const cp_usage *u, int r, int d, int t)
{
    return u->use[((size_t)r * CP_DIMS + d) * u->T + t];
}

/* Records a cause for slots [t0, t1); false when out of memory. */
static bool note(why_ctx *w, cause_kind kind, int res, int mode, int t0, int t1)
{
    int i = 0;
    while (i < w->n && !(w->c[i].kind == kind && w->c[i].res == res))
        i++;
    if (i == w->n) {
        if (w->n == MAX_CAUSES) {
            w->more = 1;
            return true;
        }
        unsigned char *s = cp_calloc((size_t)w->u->T, 1);
        if (!s)
            return false;
        w->c[w->n++] = (cause){kind, res, mode, s};
    }
    for (int t = t0; t < t1; t++)
        w->c[i].slots[t] = 1;
    return true;
}

/* A team quota (cp_teams.h) that stops mode mi in slot t: 1 and *q when
 * it is below the run alone, 2 and *q when the team's other jobs hold it,
 * 0 when none does. */
static int team_quota_stop(const cp_usage *u, int mi, int t, int *q)
{
    const cp_teamrows *tr = &u->teams;
    int k = u->in->jobs[u->ms->modes[mi].job].team;
    for (int i = k >= 0 && tr->n_rows ? tr->first_quota[k] : 0;
         k >= 0 && tr->n_rows && i < tr->first_quota[k + 1]; i++) {
        double v = cp_teamrows_quota_use(tr, mi, i);
        size_t row = (size_t)i * tr->T + t;
        double cap = tr->rhs[row];
        *q = i;
        if (v > 0 && v > cap + EPS * (1 + cap))
            return 1;
        if (v > 0 && u->tuse[row] + v > cap + EPS * (1 + cap))
            return 2;
    }
    return 0;
}

/* The first rule that stops mode mi at start s; false when out of memory. */
static bool examine(why_ctx *w, int mi, int s)
{
    const cp_usage *u = w->u;
    const cp_input *in = u->in;
    const cp_mode *m = &u->ms->modes[mi];
    const cp_resource *r = &u->ms->res[m->res];
    int T = u->T;
    for (int i = 0; i < m->slots; i++) {
        int t = s + i;
        if (r->kind == CP_RES_POOL) {
            const cp_pool *pl = &in->pools[r->index];
            for (int d = 0; d < CP_DIMS; d++) {
                double cap = cp_usage_cap(u, m->res, d, t);
                if (m->demand[d] > cap + EPS * (1 + cap))
                    return note(w, cp_series_at(&pl->available, t) < pl->nodes ? MAINT : TAKEN,
                                m->res, mi, t, t + 1);
                if (use_of(u, m->res, d, t) + m->demand[d] > cap + EPS * (1 + cap))
                    return note(w, TAKEN, m->res, mi, t, t + 1);
            }
            int q, stop = team_quota_stop(u, mi, t, &q);
            if (stop)
                return note(w, stop == 1 ? TEAM_QUOTA : TEAM_TAKEN, q, mi, t, t + 1);
            double wn = m->busy_w * (i == m->slots - 1 ? m->last_frac : 1.0);
            size_t k = (size_t)r->site * T + t;
            double allow = u->allow[k];
            if (wn > 0 && wn > allow + EPS * (1 + fabs(allow)))
                return note(w, CAP, r->site, mi, t, t + 1);
            if (wn > 0 && u->busy[k] + wn > allow + EPS * (1 + fabs(allow)))
                return note(w, CAP_TAKEN, r->site, mi, t, t + 1);
        } else {
            int q = cp_usage_quota(u, m->res, t);
            double need[CP_DIMS];
            for (int d = 0; d < CP_DIMS; d++)
                need[d] = use_of(u, m->res, d, t) + m->demand[d];
            if (cp_units_needed(m->demand, r->mach) > q)
                return note(w, QUOTA, m->res, mi, t, t + 1);
            if (cp_units_needed(need, r->mach) > q)
                return note(w, QUOTA_TAKEN, m->res, mi, t, t + 1);
        }
    }
    double delta;
    char why[256];
    why[0] = '\0';
    if (cp_usage_try_why(u, mi, s, &delta, why, sizeof why))
        return true; /* explain.c found none: cannot happen, say nothing */
    if (!strncmp(why, "the budget", 10))
        return note(w, BUDGET, -1, mi, s, s + m->slots);
    if (!strncmp(why, "team ", 5) && strstr(why, "budget"))
        return note(w, TEAM_BUDGET, in->jobs[m->job].team, mi, s, s + m->slots);
    if (!strncmp(why, "no ", 3)) /* no node or instance of it has room */
        return note(w, TAKEN, m->res, mi, s, s + m->slots);
    if (!w->other[0])
        snprintf(w->other, sizeof w->other, "%s", why);
    return note(w, OTHER, -1, mi, s, s + m->slots);
}

/* "slot 3", "slots 0-1", "slots 0-1, 4, 6-9". */
static void put_slots(cp_buf *b, const unsigned char *on, int T)
{
    int runs = 0, total = 0;
    for (int t = 0; t < T; t++)
        total += on[t];
    cp_buf_puts(b, total == 1 ? "slot " : "slots ");
    for (int t = 0; t < T;) {
        if (!on[t]) {
            t++;
            continue;
        }
        int e = t;
        while (e + 1 < T && on[e + 1])
            e++;
        if (runs++ == 6) {
            cp_buf_puts(b, ", ...");
            break;
        }
        if (runs > 1)
            cp_buf_puts(b, ", ");
        if (e > t)
            cp_buf_printf(b, "%d-%d", t, e);
        else
            cp_buf_printf(b, "%d", t);
        t = e + 1;
    }
}

static int first_slot(const unsigned char *on, int T)
{
    for (int t = 0; t < T; t++)
        if (on[t])
            return t;
    return 0;
}

/* Whether scheduled job k holds what cause c names in one of its slots. */
static bool holds(const why_ctx *w, const cause *c, int k)
{
    const cp_plan *p = w->p;
    const cp_modeset *ms = p->ms;
    if (k == w->j || p->mode[k] < 0)
        return false;
    const cp_mode *mk = &ms->modes[p->mode[k]];
    const cp_resource *rk = &ms->res[mk->res];
    if (c->kind == TEAM_BUDGET)
        return p->in->jobs[k].team == c->res;
    if (c->kind == TEAM_TAKEN) {
        if (cp_teamrows_quota_use(&w->u->teams, p->mode[k], c->res) <= 0)
            return false;
    } else if (c->kind == CAP_TAKEN ? !(rk->kind == CP_RES_POOL && rk->site == c->res) : mk->res != c->res)
        return false;
    for (int t = p->start[k]; t < p->start[k] + mk->slots && t < w->u->T; t++)
        if (c->slots[t])
            return true;
    return false;
}

static void put_holders(cp_buf *b, const why_ctx *w, const cause *c)
{
    int shown = 0;
    for (int k = 0; k < w->p->n_jobs; k++) {
        if (!holds(w, c, k))
            continue;
        if (shown < HOLDERS)
            cp_buf_printf(b, "%s'%s'", shown ? ", " : "", w->p->in->jobs[k].name);
        shown++;
    }
    if (shown > HOLDERS)
        cp_buf_printf(b, " and %d more", shown - HOLDERS);
    if (!shown)
        cp_buf_puts(b, "no other job");
}

/* "team 'vision' holds 16 of its quota of 16 V100 in slots 3-7 ('a',
 * 'b')" or "team 'vision' has a quota of 2 V100 in slot 0 (it needs 4)". */
static void put_team_quota(cp_buf *b, const why_ctx *w, const cause *c)
{
    const cp_usage *u = w->u;
    const cp_teamrows *tr = &u->teams;
    int T = u->T, t = first_slot(c->slots, T), q = c->res;
    const char *team = u->in->teams[tr->q_team[q]].name, *key = cp_teamrows_key(tr, q);
    size_t row = (size_t)q * T + t;
    if (c->kind == TEAM_QUOTA) {
        cp_buf_printf(b, "team '%s' has a quota of %g %s in ", team, tr->rhs[row], key);
        put_slots(b, c->slots, T);
        cp_buf_printf(b, " (it needs %g)", cp_teamrows_quota_use(tr, c->mode, q));
        return;
    }
    cp_buf_printf(b, "team '%s' holds %g of its quota of %g %s in ", team, u->tuse[row],
                  tr->rhs[row], key);
    put_slots(b, c->slots, T);
    cp_buf_puts(b, " (");
    put_holders(b, w, c);
    cp_buf_puts(b, ")");
}

static void put_cause(cp_buf *b, const why_ctx *w, const cause *c)
{
    const cp_usage *u = w->u;
    const cp_input *in = u->in;
    const cp_modeset *ms = u->ms;
    const cp_mode *m = &ms->modes[c->mode];
    int T = u->T, t = first_slot(c->slots, T);
    switch (c->kind) {
    case MAINT: {
        const cp_pool *pl = &in->pools[ms->res[c->res].index];
        double lo = INFINITY;
        for (int s = 0; s < T; s++)
            if (c->slots[s])
                lo = fmin(lo, cp_series_at(&pl->available, s));
        cp_buf_printf(b, "pool '%s' has nodes down for maintenance in ", pl->name);
        put_slots(b, c->slots, T);
        cp_buf_printf(b, " (%g of %d available; it needs %d)", lo, pl->nodes,
                      cp_units_needed(m->demand, ms->res[c->res].mach));
        break;
    }
    case QUOTA: {
        int qlo = -1, qhi = -1;
        for (int s = 0; s < T; s++)
            if (c->slots[s]) {
                int q = cp_usage_quota(u, c->res, s);
                qlo = qlo < 0 || q < qlo ? q : qlo;
                qhi = q > qhi ? q : qhi;
            }
        cp_buf_printf(b, "market '%s' has a quota of ", ms->res[c->res].id);
        if (qlo == qhi)
            cp_buf_printf(b, "%d", qlo);
        else
            cp_buf_printf(b, "%d-%d", qlo, qhi);
        cp_buf_printf(b, " instance%s in ", qhi == 1 ? "" : "s");
        put_slots(b, c->slots, T);
        cp_buf_printf(b, " (it needs %d)", cp_units_needed(m->demand, ms->res[c->res].mach));
        break;
    }
    case CAP: {
        const cp_site *st = &in->sites[c->res];
        double cap = cp_series_at(&st->power_cap_kw, t);
        double allow = u->allow[(size_t)c->res * T + t];
        cp_buf_printf(b, "the power cap of site '%s' (%g kW in slot %d, %g kW of it above the "
                         "idle baseline) is below its own draw of %g kW in ",
                      st->name, cap, t, fmax(0, allow) * st->pue / 1000,
                      m->busy_w * st->pue / 1000);
        put_slots(b, c->slots, T);
        break;
    }
    case TAKEN:
        cp_buf_printf(b, "%s '%s' is taken in ", ms->res[c->res].kind == CP_RES_POOL ? "pool" : "market",
                      ms->res[c->res].id);
        put_slots(b, c->slots, T);
        cp_buf_puts(b, " by ");
        put_holders(b, w, c);
        break;
    case QUOTA_TAKEN: {
        int q = cp_usage_quota(u, c->res, t);
        cp_buf_printf(b, "the quota of market '%s' (%d in slot %d) is used in ", ms->res[c->res].id,
                      q, t);
        put_slots(b, c->slots, T);
        cp_buf_puts(b, " by ");
        put_holders(b, w, c);
        break;
    }
    case CAP_TAKEN:
        cp_buf_printf(b, "site '%s' is at its power cap in ", in->sites[c->res].name);
        put_slots(b, c->slots, T);
        cp_buf_puts(b, " with ");
        put_holders(b, w, c);
        break;
    case BUDGET:
        cp_buf_printf(b, "the budget ($%.2f) is spent by the other jobs", u->budget);
        break;
    case TEAM_QUOTA:
    case TEAM_TAKEN:
        put_team_quota(b, w, c);
        break;
    case TEAM_BUDGET: {
        int row = u->teams.budget_row[c->res];
        cp_buf_printf(b, "team '%s' has spent $%.2f of its budget of $%.2f (this run costs "
                         "$%.2f) on ",
                      in->teams[c->res].name, u->tuse[row], u->teams.rhs[row],
                      cp_mode_attributed_cost(in, ms, m, t));
        put_holders(b, w, c);
        break;
    }
    case OTHER:
        cp_buf_puts(b, w->other[0] ? w->other : "no room");
        break;
    }
}

int cp_explain_est(const cp_plan *p, int j, int *by)
{
    const cp_job *job = &p->in->jobs[j];
    int est = 0;
    *by = -1;
    for (int a = 0; a < job->n_after; a++) {
        int i = job->after[a];
        if (p->mode[i] < 0)
            continue;
        int end = p->start[i] + p->ms->modes[p->mode[i]].slots;
        if (end > est || *by < 0) {
            est = end > est ? end : est;
            *by = i;
        }
    }
    return est;
}

bool cp_explain_best(const cp_plan *p, const cp_usage *u, int j, int est, int *mode, int *start,
                     double *delta)
{
    const cp_modeset *ms = p->ms;
    if (est <= 0)
        return cp_usage_best(u, j, mode, start, delta);
    bool found = false;
    for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++)
        for (int s = ms->modes[m].s_min > est ? ms->modes[m].s_min : est; s <= ms->modes[m].s_max; s++) {
            double d;
            if (cp_usage_try(u, m, s, &d) && (!found || d < *delta)) {
                found = true;
                *mode = m;
                *start = s;
                *delta = d;
            }
        }
    return found;
}

int cp_explain_blocked(const cp_plan *p, const cp_usage *u, int j, int est, int by, cp_buf *b)
{
    const cp_modeset *ms = p->ms;
    why_ctx w;
    memset(&w, 0, sizeof w);
    w.p = p;
    w.u = u;
    w.j = j;
    int rc = CP_OK, starts = 0, shortest = 0;
    for (int m = ms->job_first[j]; m < ms->job_first[j + 1] && rc == CP_OK; m++) {
        const cp_mode *md = &ms->modes[m];
        if (!shortest || md->slots < shortest)
            shortest = md->slots;
        for (int s = md->s_min > est ? md->s_min : est; s <= md->s_max && rc == CP_OK; s++) {
            starts++;
            if (!examine(&w, m, s))
                rc = CP_ERR_NOMEM;
        }
    }
    if (rc == CP_OK && starts == 0) {
        /* the window after precedence (modes_after.c removed the modes
         * that can never start after the predecessors' earliest end; this
         * is the plan's own end of them) */
        int lo, hi;
        cp_job_window(p->in, &p->in->jobs[j], &lo, &hi);
        cp_buf_printf(b,
                      "dropped: its window after its predecessors is too short: '%s' ends at "
                      "slot %d as planned, its window closes at slot %d, and its shortest mode "
                      "takes %d slot%s",
                      p->in->jobs[by].name, est, hi, shortest, shortest == 1 ? "" : "s");
    } else if (rc == CP_OK) {
        cp_buf_puts(b, "dropped by the optimizer: no start fits beside the other jobs");
        if (by >= 0)
            cp_buf_printf(b, " from slot %d, when its predecessor '%s' ends as planned,", est,
                          p->in->jobs[by].name);
        cp_buf_puts(b, ": ");
        for (int i = 0; i < w.n && i < SHOWN; i++) {
            if (i)
                cp_buf_puts(b, "; ");
            put_cause(b, &w, &w.c[i]);
        }
        if (w.n > SHOWN || w.more)
            cp_buf_puts(b, "; and other causes at other starts");
    }
    for (int i = 0; i < w.n; i++)
        cp_free(w.c[i].slots);
    return rc;
}

int cp_explain_mode_blocked(const cp_plan *p, const cp_usage *u, int j, int m, int est, int lend,
                            cp_buf *b)
{
    const cp_mode *md = &p->ms->modes[m];
    why_ctx w;
    memset(&w, 0, sizeof w);
    w.p = p;
    w.u = u;
    w.j = j;
    int rc = CP_OK, starts = 0;
    for (int s = md->s_min > est ? md->s_min : est; s <= md->s_max && s + md->slots <= lend && rc == CP_OK;
         s++) {
        starts++;
        if (!examine(&w, m, s))
            rc = CP_ERR_NOMEM;
    }
    if (rc == CP_OK && starts == 0)
        cp_buf_printf(b, "no start of its window (slots %d-%d) from slot %d (its predecessors' "
                         "end) ends by slot %d (its successors' start) in its %d slot%s",
                      md->s_min, md->s_max, est, lend, md->slots, md->slots == 1 ? "" : "s");
    for (int i = 0; rc == CP_OK && i < w.n && i < SHOWN; i++) {
        if (i)
            cp_buf_puts(b, "; ");
        put_cause(b, &w, &w.c[i]);
    }
    if (rc == CP_OK && (w.n > SHOWN || w.more))
        cp_buf_puts(b, "; and other causes at other starts");
    for (int i = 0; i < w.n; i++)
        cp_free(w.c[i].slots);
    return rc;
}
