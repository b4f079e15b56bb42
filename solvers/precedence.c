/*
 * Precedence for every method (SPEC 9.2): if job j is scheduled, each job
 * in its `after` list is scheduled too and ends before j starts. The MILP
 * holds this in its rows (milp_glpk.c); the other methods search without
 * it, so their plan is repaired here, once, before concrete placement, in
 * topological order (predecessors first, so a moved job's successors are
 * looked at after it): a successor of a dropped job is dropped with it and
 * pays its own penalty; one that starts too early moves to its cheapest
 * (mode, start) from its predecessors' end that fits beside the other
 * jobs, or is dropped when none does or the move costs more than its
 * penalty. Each such drop gets its reason here. Then pair moves and
 * chain insertion (below) undo what moving only successors costs. Placement's own repairs
 * (packing) can move a job again, so cp_plan_precedence_final drops what
 * they put out of order, which only frees capacity.
 *
 * Lower bounds stay valid: every bound capplan computes relaxes a
 * problem that has these constraints.
 */
#include "cp_explain.h"
#include "cp_placement.h"
#include "cp_usage.h"

#include "cp_alloc.h"
#include "cp_buf.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>

static bool any_after(const cp_input *in)
{
    for (int j = 0; j < in->n_jobs; j++)
        if (in->jobs[j].n_after)
            return true;
    return false;
}

/* A topological order of the jobs (the loader refuses cycles); false on
 * out of memory. Repeated passes are fine for the few jobs with
 * predecessors; the order is deterministic. */
static bool topo(const cp_input *in, int *order)
{
    int n = in->n_jobs, k = 0;
    unsigned char *done = cp_calloc((size_t)(n ? n : 1), 1);
    if (!done)
        return false;
    while (k < n) {
        int before = k;
        for (int j = 0; j < n; j++) {
            if (done[j])
                continue;
            bool ready = true;
            for (int a = 0; a < in->jobs[j].n_after && ready; a++)
                ready = done[in->jobs[j].after[a]];
            if (ready) {
                done[j] = 1;
                order[k++] = j;
            }
        }
        if (k == before)
            break; /* cannot happen for an acyclic input */
    }
    cp_free(done);
    return k == n;
}

/* The end slot of job i in the plan, or -1 when it is dropped. */
static int end_of(const cp_plan *p, int i)
{
    return p->mode[i] < 0 ? -1 : p->start[i] + p->ms->modes[p->mode[i]].slots;
}

/* Whether j's placement breaks precedence; *dead a dropped predecessor
 * (-1 when none), *est the slot its predecessors have all ended by. */
static bool broken(const cp_plan *p, int j, int *dead, int *est, int *by)
{
    const cp_job *jb = &p->in->jobs[j];
    *dead = -1;
    *est = 0;
    *by = -1;
    for (int a = 0; a < jb->n_after; a++) {
        int i = jb->after[a], e = end_of(p, i);
        if (e < 0) {
            *dead = i;
            return p->mode[j] >= 0;
        }
        if (e > *est) {
            *est = e;
            *by = i;
        }
    }
    return p->mode[j] >= 0 && p->start[j] < *est;
}

static int set_reason(cp_plan *p, int j, cp_buf *b)
{
    cp_free(p->reason[j]);
    p->reason[j] = cp_buf_detach(b);
    return p->reason[j] ? CP_OK : CP_ERR_NOMEM;
}

static int drop_with(cp_plan *p, int j, int dead)
{
    cp_buf b;
    cp_buf_init(&b);
    cp_buf_printf(&b,
                  "dropped with its predecessor '%s' (a job runs only after its "
                  "predecessors, SPEC 9.2)",
                  p->in->jobs[dead].name);
    p->mode[j] = -1;
    return set_reason(p, j, &b);
}

/* ---- pair moves: after the repair ------------------------------------
 *
 * The repair moves a successor later or drops it; it never moves a
 * predecessor, so a plan whose search put both in the same cheap slot
 * keeps the predecessor there and pays for the successor's later, dearer
 * slot (or its penalty), where moving the predecessor earlier is cheaper
 * (tests/plan/precedence_earlier.yaml). So, once the repair changed the
 * plan, each edge i -> j is taken out and put back at its cheapest pair
 * of (mode, start): i within its own predecessors' ends and its other
 * successors' starts, j from i's new end on and within its own other
 * bounds, or j left dropped when it was. A pair is moved only when the
 * two cost less than before (added cost, or penalty when dropped), so the
 * plan only gets cheaper and stays feasible. A few rounds, and a budget
 * of tries per call, keep it cheap on big nights. */

#define PAIR_ROUNDS 3
#define PAIR_TRIES 2000000L

/* Bounds of job x in the plan without the jobs a and b: its start from
 * *est on, its end by *lend; false when a predecessor (not a or b) is
 * dropped. */
static bool bounds(const cp_plan *p, int x, int a, int b, int *est, int *lend)
{
    const cp_input *in = p->in;
    *est = 0;
    *lend = INT_MAX;
    for (int k = 0; k < in->jobs[x].n_after; k++) {
        int i = in->jobs[x].after[k];
        if (i == a || i == b)
            continue;
        int e = end_of(p, i);
        if (e < 0)
            return false;
        if (e > *est)
            *est = e;
    }
    for (int k = 0; k < p->n_jobs; k++) {
        if (k == a || k == b || p->mode[k] < 0)
            continue;
        for (int q = 0; q < in->jobs[k].n_after; q++)
            if (in->jobs[k].after[q] == x && p->start[k] < *lend)
                *lend = p->start[k];
    }
    return true;
}

typedef struct pick {
    int m, s; /* -1: dropped */
} pick;

/* The cheapest pair for edge i -> j (both out of u); *tries counts. */
static double best_pair(const cp_plan *p, cp_usage *u, int i, int j, bool j_may_drop, pick *bi,
                        pick *bj, long *tries)
{
    const cp_modeset *ms = p->ms;
    double best = INFINITY;
    int ei, li, ej, lj;
    if (!bounds(p, i, i, j, &ei, &li) || !bounds(p, j, i, j, &ej, &lj))
        return best;
    for (int mi = ms->job_first[i]; mi < ms->job_first[i + 1]; mi++) {
        const cp_mode *a = &ms->modes[mi];
        for (int si = a->s_min > ei ? a->s_min : ei; si <= a->s_max && si + a->slots <= li; si++) {
            double di;
            if (++*tries > PAIR_TRIES)
                return best;
            if (!cp_usage_try(u, mi, si, &di) || di >= best)
                continue;
            if (j_may_drop && di + p->in->jobs[j].drop_penalty < best) {
                best = di + p->in->jobs[j].drop_penalty;
                *bi = (pick){mi, si};
                *bj = (pick){-1, 0};
            }
            cp_usage_add(u, mi, si);
            int from = si + a->slots > ej ? si + a->slots : ej;
            for (int mj = ms->job_first[j]; mj < ms->job_first[j + 1]; mj++) {
                const cp_mode *c = &ms->modes[mj];
                for (int sj = c->s_min > from ? c->s_min : from; sj <= c->s_max && sj + c->slots <= lj;
                     sj++) {
                    double dj;
                    ++*tries;
                    if (cp_usage_try(u, mj, sj, &dj) && di + dj < best) {
                        best = di + dj;
                        *bi = (pick){mi, si};
                        *bj = (pick){mj, sj};
                    }
                }
            }
            cp_usage_remove(u, mi, si);
        }
    }
    return best;
}

/* What jobs i and j cost as they are (u holds neither). */
static double cost_now(const cp_plan *p, cp_usage *u, int i, int j)
{
    double c = 0, d;
    int job[2] = {i, j};
    for (int k = 0; k < 2; k++) {
        int x = job[k];
        if (p->mode[x] < 0) {
            c += p->in->jobs[x].drop_penalty;
            continue;
        }
        if (!cp_usage_try(u, p->mode[x], p->start[x], &d))
            d = 0; /* it was there: cannot happen */
        c += d;
        cp_usage_add(u, p->mode[x], p->start[x]);
    }
    for (int k = 1; k >= 0; k--)
        if (p->mode[job[k]] >= 0)
            cp_usage_remove(u, p->mode[job[k]], p->start[job[k]]);
    return c;
}

static void put(cp_plan *p, cp_usage *u, int x, pick pk, bool forget)
{
    p->mode[x] = pk.m;
    if (pk.m >= 0) {
        p->start[x] = pk.s;
        cp_usage_add(u, pk.m, pk.s);
    }
    if (forget) {
        cp_free(p->reason[x]);
        p->reason[x] = NULL;
    }
}

/* A dropped job x whose predecessors all run, but too late for it: its
 * ancestors (every job it runs after, transitively) are put back in
 * topological order each at its earliest end (the cheapest such run),
 * within their other successors' starts, and x at its cheapest start
 * after them. Kept when the plan's spend rises by less than x's penalty.
 * A pair move cannot do this for a chain (a -> b -> x with b late
 * because a is). Returns true when x was scheduled. */
#define CHAIN_MAX 32
static bool chain_insert(cp_plan *p, cp_usage *u, int x, const int *order, long *tries)
{
    const cp_input *in = p->in;
    const cp_modeset *ms = p->ms;
    int set[CHAIN_MAX], n = 0, om[CHAIN_MAX], os[CHAIN_MAX];
    /* the ancestors, by a walk over `after` */
    int stack[CHAIN_MAX], top = 0;
    stack[top++] = x;
    while (top) {
        int y = stack[--top];
        for (int k = 0; k < in->jobs[y].n_after; k++) {
            int a = in->jobs[y].after[k], seen = 0;
            for (int q = 0; q < n; q++)
                seen |= set[q] == a;
            if (seen)
                continue;
            if (n == CHAIN_MAX || p->mode[a] < 0)
                return false; /* too many, or one of them is dropped too */
            set[n++] = a;
            if (top < CHAIN_MAX)
                stack[top++] = a;
            else
                return false;
        }
    }
    if (!n)
        return false;
    double spend0 = u->spend;
    for (int q = 0; q < n; q++) {
        om[q] = p->mode[set[q]];
        os[q] = p->start[set[q]];
        cp_usage_remove(u, om[q], os[q]);
        p->mode[set[q]] = -1;
    }
    bool ok = true;
    for (int t = 0; t < p->n_jobs && ok; t++) { /* the set in topological order */
        int a = order[t], in_set = 0;
        for (int q = 0; q < n; q++)
            in_set |= set[q] == a;
        if (!in_set)
            continue;
        int est, lend, bm = -1, bs = 0, bend = INT_MAX;
        double bd = INFINITY;
        ok = bounds(p, a, -1, -1, &est, &lend);
        for (int m = ms->job_first[a]; ok && m < ms->job_first[a + 1]; m++) {
            const cp_mode *md = &ms->modes[m];
            for (int st = md->s_min > est ? md->s_min : est; st <= md->s_max && st + md->slots <= lend;
                 st++) {
                double d;
                ++*tries;
                if (st + md->slots > bend)
                    break;
                if (cp_usage_try(u, m, st, &d) && (st + md->slots < bend || d < bd)) {
                    bend = st + md->slots;
                    bd = d;
                    bm = m;
                    bs = st;
                }
            }
        }
        if (bm < 0) {
            ok = false;
            break;
        }
        p->mode[a] = bm;
        p->start[a] = bs;
        cp_usage_add(u, bm, bs);
    }
    int xm = -1, xs = 0;
    if (ok) {
        int est, lend;
        double bd = INFINITY;
        if (bounds(p, x, -1, -1, &est, &lend))
            for (int m = ms->job_first[x]; m < ms->job_first[x + 1]; m++) {
                const cp_mode *md = &ms->modes[m];
                for (int st = md->s_min > est ? md->s_min : est;
                     st <= md->s_max && st + md->slots <= lend; st++) {
                    double d;
                    ++*tries;
                    if (cp_usage_try(u, m, st, &d) && d < bd) {
                        bd = d;
                        xm = m;
                        xs = st;
                    }
                }
            }
        if (xm >= 0) {
            cp_usage_add(u, xm, xs);
            double pen = in->jobs[x].drop_penalty;
            if (u->spend < spend0 + pen - 1e-9 * (1 + fabs(spend0 + pen))) {
                p->mode[x] = xm;
                p->start[x] = xs;
                cp_free(p->reason[x]);
                p->reason[x] = NULL;
                return true;
            }
            cp_usage_remove(u, xm, xs);
        }
    }
    for (int q = 0; q < n; q++) { /* put the ancestors back */
        if (p->mode[set[q]] >= 0)
            cp_usage_remove(u, p->mode[set[q]], p->start[set[q]]);
    }
    for (int q = 0; q < n; q++) {
        p->mode[set[q]] = om[q];
        p->start[set[q]] = os[q];
        cp_usage_add(u, om[q], os[q]);
    }
    return false;
}

/* Returns the number of pairs moved. */
static int pair_moves(cp_plan *p, cp_usage *u, const int *order)
{
    const cp_input *in = p->in;
    long tries = 0;
    int moved = 0;
    for (int round = 0; round < PAIR_ROUNDS && tries <= PAIR_TRIES; round++) {
        int before = moved;
        for (int q = 0; q < p->n_jobs && tries <= PAIR_TRIES; q++) {
            int j = order[q];
            for (int a = 0; a < in->jobs[j].n_after; a++) {
                int i = in->jobs[j].after[a];
                /* a dropped i with a scheduled j cannot be; both dropped:
                 * only when i's own predecessors run */
                if (p->mode[i] >= 0)
                    cp_usage_remove(u, p->mode[i], p->start[i]);
                if (p->mode[j] >= 0)
                    cp_usage_remove(u, p->mode[j], p->start[j]);
                double now = cost_now(p, u, i, j);
                pick bi = {-1, 0}, bj = {-1, 0};
                double best = best_pair(p, u, i, j, p->mode[j] < 0, &bi, &bj, &tries);
                if (best < now - 1e-9 * (1 + fabs(now))) {
                    /* their reasons no longer hold: explain.c writes new
                     * ones for the one that stays dropped */
                    put(p, u, i, bi, true);
                    put(p, u, j, bj, true);
                    moved++;
                } else {
                    put(p, u, i, (pick){p->mode[i], p->start[i]}, false);
                    put(p, u, j, (pick){p->mode[j], p->start[j]}, false);
                }
            }
        }
        for (int q = 0; q < p->n_jobs && tries <= PAIR_TRIES; q++) {
            int x = order[q];
            if (p->mode[x] < 0 && in->jobs[x].n_after && p->ms->job_first[x] < p->ms->job_first[x + 1])
                moved += chain_insert(p, u, x, order, &tries);
        }
        if (moved == before)
            break;
    }
    return moved;
}

int cp_plan_precedence(cp_plan *p, bool *changed, cp_err *err)
{
    const cp_input *in = p->in;
    const cp_modeset *ms = p->ms;
    *changed = false;
    if (!any_after(in))
        return CP_OK;
    bool need = false;
    for (int j = 0; j < p->n_jobs && !need; j++) {
        int dead, est, by;
        need = broken(p, j, &dead, &est, &by);
    }
    if (!need)
        return CP_OK;
    int *order = cp_calloc((size_t)p->n_jobs, sizeof *order);
    cp_usage u;
    bool have_u = false;
    int rc = CP_OK;
    if (!order || !topo(in, order) || cp_usage_init(&u, in, ms)) {
        rc = CP_ERR_NOMEM;
        goto out;
    }
    have_u = true;
    for (int j = 0; j < p->n_jobs; j++)
        if (p->mode[j] >= 0)
            cp_usage_add(&u, p->mode[j], p->start[j]);
    for (int q = 0; q < p->n_jobs && rc == CP_OK; q++) {
        int j = order[q], dead, est, by;
        if (!broken(p, j, &dead, &est, &by))
            continue;
        *changed = true;
        cp_usage_remove(&u, p->mode[j], p->start[j]);
        if (dead >= 0) {
            rc = drop_with(p, j, dead);
            continue;
        }
        int bm = -1, bs = 0;
        double best = INFINITY;
        for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++) {
            const cp_mode *md = &ms->modes[m];
            for (int s = md->s_min > est ? md->s_min : est; s <= md->s_max; s++) {
                double d;
                if (cp_usage_try(&u, m, s, &d) && d < best) {
                    best = d;
                    bm = m;
                    bs = s;
                }
            }
        }
        if (bm >= 0 && best < in->jobs[j].drop_penalty) {
            cp_usage_add(&u, bm, bs);
            p->mode[j] = bm;
            p->start[j] = bs;
            continue;
        }
        cp_buf b;
        cp_buf_init(&b);
        if (bm >= 0)
            cp_buf_printf(&b,
                          "dropped after its predecessor '%s' (ends in slot %d): its cheapest "
                          "later run adds $%.2f, more than its penalty $%.2f",
                          in->jobs[by].name, est, best, in->jobs[j].drop_penalty);
        else if (cp_explain_blocked(p, &u, j, est, by, &b))
            rc = CP_ERR_NOMEM; /* the window after precedence, or what holds the room */
        p->mode[j] = -1;
        if (rc == CP_OK)
            rc = set_reason(p, j, &b);
        else
            cp_buf_release(&b);
    }
    if (rc == CP_OK && *changed)
        pair_moves(p, &u, order);
    if (rc == CP_OK && *changed) {
        /* new choices: placement packs them anew, y from the demand */
        for (int j = 0; j < p->n_jobs; j++) {
            cp_free(p->units[j]);
            p->units[j] = NULL;
            p->n_units[j] = 0;
        }
        p->placed = p->pool_units = false;
        cp_plan_min_instances(p);
    }
out:
    if (have_u)
        cp_usage_release(&u);
    cp_free(order);
    return rc == CP_ERR_NOMEM ? cp_err_nomem(err) : rc;
}

int cp_plan_precedence_final(cp_plan *p, bool *changed, cp_err *err)
{
    const cp_input *in = p->in;
    *changed = false;
    if (!any_after(in))
        return CP_OK;
    int *order = cp_calloc((size_t)p->n_jobs, sizeof *order);
    if (!order || !topo(in, order)) {
        cp_free(order);
        return cp_err_nomem(err);
    }
    int rc = CP_OK;
    for (int q = 0; q < p->n_jobs && rc == CP_OK; q++) {
        int j = order[q], dead, est, by;
        if (!broken(p, j, &dead, &est, &by))
            continue;
        *changed = true;
        cp_free(p->units[j]);
        p->units[j] = NULL;
        p->n_units[j] = 0;
        if (dead >= 0) {
            rc = drop_with(p, j, dead);
        } else {
            cp_buf b;
            cp_buf_init(&b);
            cp_buf_printf(&b,
                          "dropped: packing moved it before its predecessor '%s' ends (slot "
                          "%d)",
                          in->jobs[by].name, est);
            p->mode[j] = -1;
            rc = set_reason(p, j, &b);
        }
    }
    cp_free(order);
    return rc == CP_ERR_NOMEM ? cp_err_nomem(err) : rc;
}

int cp_plan_precedence_reasons(cp_plan *p, cp_err *err)
{
    const cp_input *in = p->in;
    for (int j = 0; j < p->n_jobs; j++) {
        if (p->mode[j] >= 0 || p->reason[j] || p->ms->job_first[j] == p->ms->job_first[j + 1])
            continue;
        for (int a = 0; a < in->jobs[j].n_after; a++) {
            int i = in->jobs[j].after[a];
            if (p->mode[i] >= 0)
                continue;
            /* the optimizer dropped a predecessor: that is the cause */
            cp_buf b;
            cp_buf_init(&b);
            cp_buf_printf(&b,
                          "dropped with its predecessor '%s' (a job runs only after its "
                          "predecessors, SPEC 9.2)",
                          in->jobs[i].name);
            if (set_reason(p, j, &b))
                return cp_err_nomem(err);
            break;
        }
    }
    return CP_OK;
}
