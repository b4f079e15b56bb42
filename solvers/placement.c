/*
 * Concrete placement (SPEC 5): each scheduled job gets node ids on its
 * pool or instance ids on its market, per slot, so that no node or
 * instance is over capacity, a job that fits one unit is on one, and a job
 * keeps its units for its whole run.
 *
 * Jobs are packed largest demand first (then by start slot); a job
 * that fits one unit takes the best-fitting unit (least room left), so
 * whole units stay free for the large jobs. A multi-unit job takes whole
 * free units first and its remainder last ("full units first, the rest on
 * the last unit", with cpus and memory in proportion to accelerators),
 * which is also how `verify` reads a multi-unit job's split.
 *
 * When the aggregate plan cannot be packed, the repair rents one more
 * instance on a market (within its quota and the budget) or moves the job
 * to its cheapest other (mode, start) that packs; only when nothing works
 * is the job dropped. The plan's note says what was changed.
 */
#include "cp_placement.h"

#include "cp_alloc.h"
#include "cp_buf.h"
#include "cp_cost.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EPS 1e-9


typedef struct packer {
    const cp_input *in;
    const cp_modeset *ms;
    cp_plan *plan;
    int T;
    int *n_units;    /* [n_res] units known (pool nodes; market max index + 1) */
    size_t *cap;     /* [n_res] allocated units */
    double **free_;  /* [n_res][unit * 3 * T] remaining capacity */
} packer;

static double *unit_free(const packer *pk, int r, int u, int d)
{
    return &pk->free_[r][((size_t)u * CP_DIMS + d) * pk->T];
}

static int ensure_units(packer *pk, int r, int n)
{
    if (n <= pk->n_units[r])
        return CP_OK;
    const cp_machine *m = pk->ms->res[r].mach;
    size_t per = (size_t)CP_DIMS * pk->T;
    if ((size_t)n > pk->cap[r]) {
        size_t nc = pk->cap[r] ? pk->cap[r] : 4;
        while (nc < (size_t)n)
            nc *= 2;
        double *p = cp_reallocarray(pk->free_[r], nc * per, sizeof *p);
        if (!p)
            return CP_ERR_NOMEM;
        pk->free_[r] = p;
        pk->cap[r] = nc;
    }
    for (int u = pk->n_units[r]; u < n; u++)
        for (int d = 0; d < CP_DIMS; d++)
            for (int t = 0; t < pk->T; t++)
                unit_free(pk, r, u, d)[t] = cp_machine_dim(m, d);
    pk->n_units[r] = n;
    return CP_OK;
}

static bool unit_up(const packer *pk, int r, int u, int t)
{
    const cp_resource *res = &pk->ms->res[r];
    if (res->kind == CP_RES_POOL)
        return u < (int)cp_series_at(&pk->in->pools[res->index].available, t);
    return u < *cp_plan_y(pk->plan, r, t);
}

/* The largest share (in units of the job's "portion": one accelerator for
 * training, one whole machine for dataflow) unit u can take over the run. */
static int unit_room(const packer *pk, const cp_mode *m, int u, int s, const double per[3], int want)
{
    int best = want;
    for (int t = s; t < s + m->slots; t++) {
        if (!unit_up(pk, m->res, u, t))
            return 0;
        for (int d = 0; d < CP_DIMS; d++) {
            if (per[d] <= 0)
                continue;
            double f = unit_free(pk, m->res, u, d)[t];
            int a = cp_floor_int(f / per[d] + EPS);
            if (a < best)
                best = a;
        }
    }
    return best;
}

static void take(packer *pk, const cp_mode *m, int u, int s, const double per[3], int a)
{
    for (int t = s; t < s + m->slots; t++)
        for (int d = 0; d < CP_DIMS; d++)
            unit_free(pk, m->res, u, d)[t] -= a * per[d];
}

/* Tries to pack job j with mode m at s; on success records its units. */
static int try_pack(packer *pk, int j, int mi, int s, bool *ok)
{
    const cp_mode *m = &pk->ms->modes[mi];
    const cp_resource *res = &pk->ms->res[m->res];
    const cp_job *job = &pk->in->jobs[j];
    *ok = false;
    int portions;
    double per[CP_DIMS];
    if (job->kind == CP_JOB_TRAINING) {
        portions = m->count;
        for (int d = 0; d < CP_DIMS; d++)
            per[d] = m->demand[d] / m->count;
    } else {
        portions = m->count;
        for (int d = 0; d < CP_DIMS; d++)
            per[d] = cp_machine_dim(res->mach, d);
    }
    int n = pk->n_units[m->res];
    int *chosen = cp_calloc((size_t)(n ? n : 1), sizeof *chosen);
    int *amount = cp_calloc((size_t)(n ? n : 1), sizeof *amount);
    if (!chosen || !amount) {
        cp_free(chosen);
        cp_free(amount);
        return CP_ERR_NOMEM;
    }
    int k = 0;
    int single = cp_units_needed(m->demand, res->mach) <= 1;
    if (single) {
        /* best fit: the unit left with the least room */
        int best = -1;
        double best_left = INFINITY;
        for (int u = 0; u < n; u++) {
            if (unit_room(pk, m, u, s, per, portions) < portions)
                continue;
            double left = 0;
            for (int d = 0; d < CP_DIMS; d++) {
                double cap = cp_machine_dim(res->mach, d);
                if (cap <= 0)
                    continue;
                double mn = INFINITY;
                for (int t = s; t < s + m->slots; t++) {
                    double f = unit_free(pk, m->res, u, d)[t];
                    mn = f < mn ? f : mn;
                }
                left += (mn - m->demand[d]) / cap;
            }
            if (left < best_left - 1e-12) {
                best_left = left;
                best = u;
            }
        }
        if (best >= 0) {
            chosen[k] = best;
            amount[k++] = portions;
        }
    } else {
        /* whole free units first, in index order, then the remainder on
         * the best-fitting unit */
        int left = portions;
        int full = INT_MAX; /* portions a whole unit holds */
        for (int d = 0; d < CP_DIMS; d++)
            if (per[d] > 0) {
                int a = cp_floor_int(cp_machine_dim(res->mach, d) / per[d] + EPS);
                full = a < full ? a : full;
            }
        for (int u = 0; u < n && left >= full && full > 0; u++) {
            if (unit_room(pk, m, u, s, per, full) >= full) {
                chosen[k] = u;
                amount[k++] = full;
                left -= full;
            }
        }
        if (left > 0) {
            int best = -1, best_room = INT_MAX;
            for (int u = 0; u < n; u++) {
                bool used = false;
                for (int q = 0; q < k; q++)
                    used |= chosen[q] == u;
                if (used)
                    continue;
                int room = unit_room(pk, m, u, s, per, full);
                if (room >= left && room < best_room) {
                    best_room = room;
                    best = u;
                }
            }
            if (best >= 0) {
                chosen[k] = best;
                amount[k++] = left;
                left = 0;
            }
        }
        if (left > 0)
            k = 0;
    }
    int rc = CP_OK;
    if (k > 0) {
        int *units = cp_calloc((size_t)k, sizeof *units);
        if (!units) {
            rc = CP_ERR_NOMEM;
        } else {
            for (int q = 0; q < k; q++) {
                take(pk, m, chosen[q], s, per, amount[q]);
                units[q] = chosen[q];
            }
            cp_free(pk->plan->units[j]);
            pk->plan->units[j] = units;
            pk->plan->n_units[j] = k;
            *ok = true;
        }
    }
    cp_free(chosen);
    cp_free(amount);
    return rc;
}

/* Takes job j's share on the nodes or instances the plan already gives it
 * (whole nodes first, the remainder on the last, as try_pack splits);
 * false, with nothing taken, when they do not hold it. */
static bool keep_units(packer *pk, int j)
{
    const cp_mode *m = &pk->ms->modes[pk->plan->mode[j]];
    const cp_resource *res = &pk->ms->res[m->res];
    int s = pk->plan->start[j], k = pk->plan->n_units[j];
    const int *units = pk->plan->units[j];
    double per[CP_DIMS];
    bool training = pk->in->jobs[j].kind == CP_JOB_TRAINING;
    for (int d = 0; d < CP_DIMS; d++)
        per[d] = training ? m->demand[d] / m->count : cp_machine_dim(res->mach, d);
    int full = INT_MAX;
    for (int d = 0; d < CP_DIMS; d++)
        if (per[d] > 0) {
            int a = cp_floor_int(cp_machine_dim(res->mach, d) / per[d] + EPS);
            full = a < full ? a : full;
        }
    for (int q = 0; q < k; q++) {
        int a = k == 1 ? m->count : q < k - 1 ? full : m->count - full * (k - 1);
        if (units[q] < 0 || units[q] >= pk->n_units[m->res] || a < 1 ||
            unit_room(pk, m, units[q], s, per, a) < a)
            return false;
    }
    for (int q = 0; q < k; q++)
        take(pk, m, units[q], s, per, k == 1 ? m->count : q < k - 1 ? full : m->count - full * (k - 1));
    return true;
}

typedef struct jkey {
    int job, start;
    double size;
} jkey;

static int jkey_cmp(const void *a, const void *b)
{
    const jkey *x = a, *y = b;
    if (x->size != y->size)
        return x->size > y->size ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->job > y->job) - (x->job < y->job);
}

/* One more instance on market r for the run of mode m at s. */
static int add_instance(packer *pk, const cp_mode *m, int s, bool *ok)
{
    int r = m->res;
    int u = pk->n_units[r];
    *ok = false;
    for (int t = s; t < s + m->slots; t++)
        if (u + 1 > cp_market_quota(pk->in, &pk->ms->res[r], t))
            return CP_OK;
    if (ensure_units(pk, r, u + 1))
        return CP_ERR_NOMEM;
    int *saved = cp_calloc((size_t)m->slots, sizeof *saved);
    if (!saved)
        return CP_ERR_NOMEM;
    for (int t = s; t < s + m->slots; t++) {
        saved[t - s] = *cp_plan_y(pk->plan, r, t);
        if (*cp_plan_y(pk->plan, r, t) < u + 1)
            *cp_plan_y(pk->plan, r, t) = u + 1;
    }
    if (cp_plan_is_feasible(pk->plan, NULL, 0)) {
        *ok = true;
    } else { /* the budget: rent nothing more */
        for (int t = s; t < s + m->slots; t++)
            *cp_plan_y(pk->plan, r, t) = saved[t - s];
    }
    cp_free(saved);
    return CP_OK;
}

/* Moves job j onto market mode mi at s: raises y where its demand needs
 * it, then rents instances one by one until it packs; y is restored when
 * it cannot (quota or budget). */
static int try_market(packer *pk, int j, int mi, int s, bool *ok)
{
    const cp_mode *m = &pk->ms->modes[mi];
    int r = m->res, T = pk->T;
    int *saved = cp_calloc((size_t)T, sizeof *saved);
    if (!saved)
        return CP_ERR_NOMEM;
    memcpy(saved, cp_plan_y(pk->plan, r, 0), (size_t)T * sizeof *saved);
    int rc = CP_OK;
    *ok = false;
    int need = cp_units_needed(m->demand, pk->ms->res[r].mach);
    int top = 0;
    for (int t = s; t < s + m->slots; t++)
        top = *cp_plan_y(pk->plan, r, t) > top ? *cp_plan_y(pk->plan, r, t) : top;
    /* fresh units above every unit in use during the run */
    if (need <= cp_market_quota(pk->in, &pk->ms->res[r], s) && (rc = ensure_units(pk, r, top)) == CP_OK) {
        rc = try_pack(pk, j, mi, s, ok);
        while (rc == CP_OK && !*ok) {
            bool added;
            if ((rc = add_instance(pk, m, s, &added)) || !added)
                break;
            rc = try_pack(pk, j, mi, s, ok);
        }
    }
    if (*ok && !cp_plan_is_feasible(pk->plan, NULL, 0)) {
        /* packed, but the budget says no: the capacity it took stays
         * reserved (wasted, never overbooked) and the job is not there */
        *ok = false;
        cp_free(pk->plan->units[j]);
        pk->plan->units[j] = NULL;
        pk->plan->n_units[j] = 0;
    }
    if (!*ok)
        memcpy(cp_plan_y(pk->plan, r, 0), saved, (size_t)T * sizeof *saved);
    cp_free(saved);
    return rc;
}

int cp_plan_place(cp_plan *plan, int *repairs, cp_err *err)
{
    const cp_input *in = plan->in;
    const cp_modeset *ms = plan->ms;
    packer pk = {in, ms, plan, in->slots, NULL, NULL, NULL};
    cp_buf note;
    cp_buf_init(&note);
    int rc = CP_OK;
    *repairs = 0;
    size_t nr = (size_t)(ms->n_res ? ms->n_res : 1);
    pk.n_units = cp_calloc(nr, sizeof *pk.n_units);
    pk.cap = cp_calloc(nr, sizeof *pk.cap);
    pk.free_ = cp_calloc(nr, sizeof *pk.free_);
    jkey *keys = cp_calloc((size_t)(in->n_jobs ? in->n_jobs : 1), sizeof *keys);
    if (!pk.n_units || !pk.cap || !pk.free_ || !keys) {
        rc = CP_ERR_NOMEM;
        goto out;
    }
    for (int r = 0; r < ms->n_res && rc == CP_OK; r++) {
        int n = 0;
        if (ms->res[r].kind == CP_RES_POOL) {
            n = in->pools[ms->res[r].index].nodes;
        } else {
            for (int t = 0; t < in->slots; t++)
                n = *cp_plan_y(plan, r, t) > n ? *cp_plan_y(plan, r, t) : n;
        }
        if (ensure_units(&pk, r, n))
            rc = CP_ERR_NOMEM;
    }
    int nk = 0;
    for (int j = 0; j < in->n_jobs && rc == CP_OK; j++) {
        if (plan->pool_units && plan->mode[j] >= 0 && plan->n_units[j] > 0 && keep_units(&pk, j))
            continue; /* packed where the plan was built, on its units */
        cp_free(plan->units[j]);
        plan->units[j] = NULL;
        plan->n_units[j] = 0;
        if (plan->mode[j] < 0)
            continue;
        const cp_mode *m = &ms->modes[plan->mode[j]];
        keys[nk].job = j;
        keys[nk].start = plan->start[j];
        keys[nk].size = m->demand[0] * 1e6 + m->demand[1] * 1e3 + m->demand[2];
        nk++;
    }
    qsort(keys, (size_t)nk, sizeof *keys, jkey_cmp);
    for (int q = 0; q < nk && rc == CP_OK; q++) {
        int j = keys[q].job;
        int mi = plan->mode[j], s = plan->start[j];
        bool ok;
        if ((rc = try_pack(&pk, j, mi, s, &ok)) || ok)
            continue;
        const cp_mode *m = &ms->modes[mi];
        /* markets: rent one more instance, as often as it takes */
        while (rc == CP_OK && !ok && ms->res[m->res].kind != CP_RES_POOL) {
            bool added;
            if ((rc = add_instance(&pk, m, s, &added)) || !added)
                break;
            rc = try_pack(&pk, j, mi, s, &ok);
            if (ok) {
                (*repairs)++;
                cp_buf_printf(&note, "%sjob '%s': one more instance of %s to pack it", note.len ? "; " : "",
                              in->jobs[j].name, ms->res[m->res].id);
            }
        }
        if (rc || ok)
            continue;
        /* another (mode, start), cheapest by its own cost first */
        int best_m = -1, best_s = 0;
        for (int alt = ms->job_first[j]; alt < ms->job_first[j + 1] && best_m < 0 && rc == CP_OK; alt++) {
            const cp_mode *am = &ms->modes[alt];
            for (int as = am->s_min; as <= am->s_max && rc == CP_OK; as++) {
                if (alt == mi && as == s)
                    continue;
                plan->mode[j] = alt;
                plan->start[j] = as;
                if (ms->res[am->res].kind != CP_RES_POOL) {
                    rc = try_market(&pk, j, alt, as, &ok);
                    if (ok) {
                        best_m = alt;
                        best_s = as;
                        break;
                    }
                    continue;
                }
                if (!cp_plan_is_feasible(plan, NULL, 0))
                    continue;
                rc = try_pack(&pk, j, alt, as, &ok);
                if (ok) {
                    best_m = alt;
                    best_s = as;
                    break;
                }
            }
        }
        if (rc)
            break;
        (*repairs)++;
        if (best_m >= 0) {
            plan->mode[j] = best_m;
            plan->start[j] = best_s;
            cp_buf_printf(&note, "%sjob '%s': moved to %s at slot %d to pack it", note.len ? "; " : "",
                          in->jobs[j].name, ms->res[ms->modes[best_m].res].id, best_s);
        } else {
            plan->mode[j] = -1;
            cp_free(plan->reason[j]);
            plan->reason[j] = cp_strdup("dropped while packing nodes: no node or instance had room for it in any of its modes");
            cp_buf_printf(&note, "%sjob '%s': dropped, it could not be packed onto nodes", note.len ? "; " : "",
                          in->jobs[j].name);
        }
    }
out:
    plan->placed = rc == CP_OK;
    if (rc == CP_OK && note.len) {
        cp_free(plan->note);
        plan->note = cp_buf_detach(&note);
        if (!plan->note)
            rc = CP_ERR_NOMEM;
    }
    cp_buf_release(&note);
    for (int r = 0; pk.free_ && r < ms->n_res; r++)
        cp_free(pk.free_[r]);
    cp_free(pk.free_);
    cp_free(pk.cap);
    cp_free(pk.n_units);
    cp_free(keys);
    return rc ? cp_err_nomem(err) : CP_OK;
}
