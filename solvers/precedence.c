/*
 * Precedence for every method (capplan.5 §9.2): if job j is scheduled, each job
 * in its `after` list is scheduled too and ends before j starts. The MILP
 * holds this in its rows (milp_model.c), and the greedy, local search, LNS
 * and its sub-MIPs keep it while they search (cp_prec.h); what a plan
 * still breaks (none of the tests' plans: --progress says "precedence:
 * the repair changed ..." when it acts) is repaired here, once, before
 * concrete placement, in
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
#include "cp_prec.h"
#include "cp_usage.h"

#include "cp_alloc.h"
#include "cp_buf.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

bool cp_input_has_after(const cp_input *in)
{
    for (int j = 0; j < in->n_jobs; j++)
        if (in->jobs[j].n_after)
            return true;
    return false;
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
                  "predecessors, capplan.5 §9.2)",
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

/* A dropped job x and its ancestors (every job it runs after,
 * transitively, running or dropped too): the ancestors are put back in
 * topological order each at its earliest end (the cheapest such run),
 * within their other successors' starts, and x at its cheapest start
 * after them. When that does not fit, one other job at a time is taken
 * out first (one without running successors, sharing a resource with the
 * chain), the chain placed, and that job put back at its cheapest run or
 * dropped. The best of these is kept when it lowers the plan's cost
 * (spend plus penalties). A pair move cannot do this for a chain
 * (a -> b -> x with b late because a is), nor when a third job holds the
 * room. Returns true when x was scheduled. */
#define CHAIN_MAX 32
#define EVICT_MAX 64 /* jobs tried as the one taken out */

typedef struct chain {
    int set[CHAIN_MAX + 1]; /* the ancestors in topological order, then x */
    int n;
    int om[CHAIN_MAX + 1], os[CHAIN_MAX + 1]; /* as the plan had them */
} chain;

/* The ancestors of x in topological order, then x; false when too many
 * or one has no mode. */
static bool chain_of(const cp_plan *p, int x, const int *order, chain *c)
{
    const cp_input *in = p->in;
    unsigned char mark[CHAIN_MAX + 1];
    int cand[CHAIN_MAX + 1], nc = 0, stack[CHAIN_MAX + 1], top = 0;
    stack[top++] = x;
    while (top) {
        int y = stack[--top];
        for (int k = 0; k < in->jobs[y].n_after; k++) {
            int a = in->jobs[y].after[k], seen = 0;
            for (int q = 0; q < nc; q++)
                seen |= cand[q] == a;
            if (seen)
                continue;
            if (nc == CHAIN_MAX || top == CHAIN_MAX || p->ms->job_first[a] == p->ms->job_first[a + 1])
                return false;
            cand[nc++] = a;
            stack[top++] = a;
        }
    }
    memset(mark, 0, sizeof mark);
    c->n = 0;
    for (int t = 0; t < p->n_jobs && c->n < nc; t++)
        for (int q = 0; q < nc; q++)
            if (!mark[q] && cand[q] == order[t]) {
                mark[q] = 1;
                c->set[c->n++] = cand[q];
            }
    c->set[c->n++] = x;
    for (int q = 0; q < c->n; q++) {
        c->om[q] = p->mode[c->set[q]];
        c->os[q] = p->start[c->set[q]];
    }
    return true;
}

static void chain_out(cp_plan *p, cp_usage *u, const chain *c)
{
    for (int q = 0; q < c->n; q++)
        if (p->mode[c->set[q]] >= 0) {
            cp_usage_remove(u, p->mode[c->set[q]], p->start[c->set[q]]);
            p->mode[c->set[q]] = -1;
        }
}

/* Places the chain (taken out) as above; false, with nothing placed,
 * when a member does not fit. */
static bool chain_place(cp_plan *p, cp_usage *u, const chain *c, long *tries)
{
    const cp_modeset *ms = p->ms;
    for (int q = 0; q < c->n; q++) {
        int a = c->set[q], est, lend, bm = -1, bs = 0, bend = INT_MAX;
        bool last = q == c->n - 1; /* x: the cheapest run, not the earliest */
        double bd = INFINITY;
        if (bounds(p, a, -1, -1, &est, &lend))
            for (int m = ms->job_first[a]; m < ms->job_first[a + 1]; m++) {
                const cp_mode *md = &ms->modes[m];
                for (int st = md->s_min > est ? md->s_min : est;
                     st <= md->s_max && st + md->slots <= lend; st++) {
                    double d;
                    ++*tries;
                    if (!last && st + md->slots > bend)
                        break;
                    if (!cp_usage_try(u, m, st, &d))
                        continue;
                    if (last ? d < bd : st + md->slots < bend || d < bd) {
                        bend = st + md->slots;
                        bd = d;
                        bm = m;
                        bs = st;
                    }
                }
            }
        if (bm < 0) {
            chain_out(p, u, c);
            return false;
        }
        p->mode[a] = bm;
        p->start[a] = bs;
        cp_usage_add(u, bm, bs);
    }
    return true;
}

/* What the plan costs beyond its spend: the penalties of the chain's
 * dropped members and of job k (when >= 0 and dropped). */
static double chain_pen(const cp_plan *p, const chain *c, int k)
{
    double pen = 0;
    for (int q = 0; q < c->n; q++)
        if (p->mode[c->set[q]] < 0)
            pen += p->in->jobs[c->set[q]].drop_penalty;
    if (k >= 0 && p->mode[k] < 0)
        pen += p->in->jobs[k].drop_penalty;
    return pen;
}

static bool has_running_successor(const cp_plan *p, int k)
{
    for (int j = 0; j < p->n_jobs; j++)
        if (p->mode[j] >= 0)
            for (int a = 0; a < p->in->jobs[j].n_after; a++)
                if (p->in->jobs[j].after[a] == k)
                    return true;
    return false;
}

/* Whether job k runs on a resource some mode of the chain can use. */
static bool shares(const cp_plan *p, const chain *c, int k)
{
    const cp_modeset *ms = p->ms;
    int r = ms->modes[p->mode[k]].res;
    for (int q = 0; q < c->n; q++)
        for (int m = ms->job_first[c->set[q]]; m < ms->job_first[c->set[q] + 1]; m++)
            if (ms->modes[m].res == r)
                return true;
    return false;
}

/* Job k (taken out) back at its cheapest run within its bounds, or left
 * dropped. */
static void put_back_best(cp_plan *p, cp_usage *u, int k, long *tries)
{
    const cp_modeset *ms = p->ms;
    int est, lend, bm = -1, bs = 0;
    double bd = INFINITY;
    if (bounds(p, k, -1, -1, &est, &lend))
        for (int m = ms->job_first[k]; m < ms->job_first[k + 1]; m++) {
            const cp_mode *md = &ms->modes[m];
            for (int st = md->s_min > est ? md->s_min : est; st <= md->s_max && st + md->slots <= lend;
                 st++) {
                double d;
                ++*tries;
                if (cp_usage_try(u, m, st, &d) && d < bd) {
                    bd = d;
                    bm = m;
                    bs = st;
                }
            }
        }
    if (bm >= 0 && bd < p->in->jobs[k].drop_penalty) {
        p->mode[k] = bm;
        p->start[k] = bs;
        cp_usage_add(u, bm, bs);
    }
}

static bool chain_insert(cp_plan *p, cp_usage *u, int x, const int *order, long *tries)
{
    chain c;
    if (!chain_of(p, x, order, &c))
        return false;
    double cost0 = cp_usage_objective(u) + chain_pen(p, &c, -1), best = cost0;
    int best_k = -2, km = -1, ks = 0; /* -2: no change; -1: without taking a job out */
    chain_out(p, u, &c);
    if (chain_place(p, u, &c, tries)) {
        double v = cp_usage_objective(u) + chain_pen(p, &c, -1);
        if (v < best) {
            best = v;
            best_k = -1;
        }
        chain_out(p, u, &c);
    }
    if (best_k == -2) /* taking one other job out first */
        for (int k = 0, tried = 0; k < p->n_jobs && tried < EVICT_MAX && *tries <= PAIR_TRIES; k++) {
            bool in_chain = false;
            ++*tries; /* the scan counts too: big nights with many drops */
            for (int q = 0; q < c.n; q++)
                in_chain |= c.set[q] == k;
            if (in_chain || p->mode[k] < 0 || !shares(p, &c, k) || has_running_successor(p, k))
                continue;
            tried++;
            int m0 = p->mode[k], s0 = p->start[k];
            cp_usage_remove(u, m0, s0);
            p->mode[k] = -1;
            if (chain_place(p, u, &c, tries)) {
                put_back_best(p, u, k, tries);
                double v = cp_usage_objective(u) + chain_pen(p, &c, k);
                if (v < best - 1e-9 * (1 + fabs(best))) {
                    best = v;
                    best_k = k;
                    km = p->mode[k];
                    ks = p->start[k];
                }
                if (p->mode[k] >= 0)
                    cp_usage_remove(u, p->mode[k], p->start[k]);
                chain_out(p, u, &c);
            }
            p->mode[k] = m0;
            p->start[k] = s0;
            cp_usage_add(u, m0, s0);
        }
    bool moved = best_k != -2 && best < cost0 - 1e-9 * (1 + fabs(cost0));
    if (moved && best_k >= 0) { /* redo the best: deterministic, so the same */
        cp_usage_remove(u, p->mode[best_k], p->start[best_k]);
        p->mode[best_k] = -1;
        chain_place(p, u, &c, tries);
        if (km >= 0) {
            p->mode[best_k] = km;
            p->start[best_k] = ks;
            cp_usage_add(u, km, ks);
        }
        cp_free(p->reason[best_k]); /* explain.c writes it anew when it stays dropped */
        p->reason[best_k] = NULL;
    } else if (moved) {
        chain_place(p, u, &c, tries);
    }
    if (moved) {
        for (int q = 0; q < c.n; q++) {
            cp_free(p->reason[c.set[q]]);
            p->reason[c.set[q]] = NULL;
        }
        return p->mode[x] >= 0;
    }
    for (int q = 0; q < c.n; q++) { /* as it was */
        p->mode[c.set[q]] = c.om[q];
        p->start[c.set[q]] = c.os[q];
        if (c.om[q] >= 0)
            cp_usage_add(u, c.om[q], c.os[q]);
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

int cp_plan_pair_moves(cp_plan *p, cp_usage *u)
{
    if (!cp_input_has_after(p->in))
        return 0;
    int *order = cp_calloc((size_t)(p->n_jobs ? p->n_jobs : 1), sizeof *order);
    if (!order || !cp_prec_topo(p->in, order)) {
        cp_free(order);
        return -1;
    }
    int moved = pair_moves(p, u, order);
    cp_free(order);
    return moved;
}

bool cp_plan_precedence_ok(const cp_plan *p)
{
    if (!cp_input_has_after(p->in))
        return true;
    for (int j = 0; j < p->n_jobs; j++) {
        int dead, est, by;
        if (broken(p, j, &dead, &est, &by))
            return false;
    }
    return true;
}

int cp_plan_precedence(cp_plan *p, bool *changed, cp_err *err)
{
    const cp_input *in = p->in;
    const cp_modeset *ms = p->ms;
    *changed = false;
    if (!cp_input_has_after(in))
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
    if (!order || !cp_prec_topo(in, order) || cp_usage_init(&u, in, ms)) {
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
    if (!cp_input_has_after(in))
        return CP_OK;
    int *order = cp_calloc((size_t)p->n_jobs, sizeof *order);
    if (!order || !cp_prec_topo(in, order)) {
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

/* The cheapest run of dropped job j (out of u) from slot est on; INFINITY
 * when none fits. */
static double cheapest_from(const cp_plan *p, const cp_usage *u, int j, int est)
{
    const cp_modeset *ms = p->ms;
    double best = INFINITY;
    for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++) {
        const cp_mode *md = &ms->modes[m];
        for (int s = md->s_min > est ? md->s_min : est; s <= md->s_max; s++) {
            double d;
            if (cp_usage_try(u, m, s, &d) && d < best)
                best = d;
        }
    }
    return best;
}

/* A job the search dropped itself (it keeps precedence, so the repair
 * above had nothing to do) because its predecessors end too late: it
 * would run for less than its penalty from its modes' own earliest start,
 * but not from their end. Its reason names the predecessor, as the
 * repair's would. */
static int late_reasons(cp_plan *p)
{
    const cp_input *in = p->in;
    cp_usage u;
    bool have_u = false;
    int rc = CP_OK;
    for (int j = 0; j < p->n_jobs && rc == CP_OK; j++) {
        int dead, est, by;
        if (p->mode[j] >= 0 || p->reason[j] || !in->jobs[j].n_after ||
            p->ms->job_first[j] == p->ms->job_first[j + 1])
            continue;
        broken(p, j, &dead, &est, &by);
        if (dead >= 0 || by < 0)
            continue;
        if (!have_u) {
            if (cp_usage_init(&u, in, p->ms))
                return CP_ERR_NOMEM;
            have_u = true;
            for (int k = 0; k < p->n_jobs; k++)
                if (p->mode[k] >= 0)
                    cp_usage_add(&u, p->mode[k], p->start[k]);
        }
        double pen = in->jobs[j].drop_penalty, late = cheapest_from(p, &u, j, est);
        if (late < pen || !(cheapest_from(p, &u, j, 0) < pen))
            continue; /* not the predecessor's doing */
        cp_buf b;
        cp_buf_init(&b);
        if (isfinite(late))
            cp_buf_printf(&b,
                          "dropped after its predecessor '%s' (ends in slot %d): its cheapest "
                          "later run adds $%.2f, more than its penalty $%.2f",
                          in->jobs[by].name, est, late, pen);
        else if (cp_explain_blocked(p, &u, j, est, by, &b))
            rc = CP_ERR_NOMEM;
        if (rc == CP_OK)
            rc = set_reason(p, j, &b);
        else
            cp_buf_release(&b);
    }
    if (have_u)
        cp_usage_release(&u);
    return rc;
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
                          "predecessors, capplan.5 §9.2)",
                          in->jobs[i].name);
            if (set_reason(p, j, &b))
                return cp_err_nomem(err);
            break;
        }
    }
    return late_reasons(p) ? cp_err_nomem(err) : CP_OK;
}
