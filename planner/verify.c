/*
 * The plan verifier (see cp_verify.h and docs/verify.md).
 *
 * Written from SPEC sections 3-5 alone: it shares with the planner only
 * the input loader and the mode enumeration (SPEC 2), and re-derives
 * loads, power, energy, carbon and money here, in the most direct form
 * of the formulas (sums over slots), so that it stays easy to audit.
 *
 * Flow: the root and the job list are read first (structure, one entry
 * per input job, a matching mode and start slot per scheduled job); then
 * the provisioning list gives y(t) per market; then per-slot loads are
 * summed and compared with pool, market, quota and power-cap limits;
 * then concrete placement (SPEC 5) is checked node by node; last, every
 * number of the plan that SPEC 4 defines is re-costed and compared.
 *
 * Every violation carries the position of the plan node concerned; the
 * list is sorted by position (stable) so the report reads like the file.
 * The context owns its scratch arrays; the report owns the messages.
 */
#include "cp_verify.h"

#include "cp_alloc.h"
#include "cp_buf.h"
#include "cp_modes.h"
#include "cp_yaml.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REL_TOL 1e-6 /* re-costed numbers (SPEC 4: "1e-6 relative") */
#define CAP_TOL 1e-9 /* capacities, caps, budget */

/* A series value, `dflt` when the loader left the series empty (a site
 * without energy_price or carbon_intensity: SPEC 1.3 default 0). */
static double series_or(const cp_series *s, int t, double dflt)
{
    return s->v && s->n > 0 ? cp_series_at(s, t) : dflt;
}

static const char *const dim_name[CP_DIMS] = {"accelerators", "cpus", "memory_gb"};

typedef struct vjob {
    const cp_node *node; /* the job's mapping */
    int job;             /* input index */
    bool scheduled;
    int mode;            /* index into ms->modes, -1 when none matched */
    int res;             /* resource index, -1 when unknown */
    int start;
    bool counted;        /* mode and slots valid: adds to loads and costs */
    const cp_node *nodes;
} vjob;

/* One job on one node or instance, `units` of its count. */
typedef struct vasg {
    int entry; /* vjob index */
    int res, idx;
    const cp_node *id;
    double units;
} vasg;

typedef struct vctx {
    const cp_input *in;
    cp_modeset *ms;
    cp_verify_report *rep;
    size_t *seq; /* insertion order of rep->items, for a stable sort */
    size_t seq_cap;
    const cp_node *root;
    int T;
    double h;
    bool oom;

    vjob *jobs;
    int n_jobs;
    int *entry_of_job;        /* [n_jobs of the input]: plan entry, -1 */
    bool *dropped_job;        /* [n_jobs of the input] */
    long *y;                  /* [n_res * T] */
    const cp_node **prov;     /* [n_res]: provisioning entry */
    const cp_node **prov_inst;/* [n_res]: its instances list */
    double *load;             /* [(n_res * T) * CP_DIMS] */
    double *busy;             /* [n_sites * T]: busy W before PUE */
    vasg *asg;
    int n_asg;
    size_t asg_cap;
    size_t *nl_off;           /* [n_res]: offset into nload, SIZE_MAX: none */
    int *nl_count;            /* [n_res]: nodes/instances tracked */
    double *nload;            /* per (res, idx, t, dim) */
} vctx;

/* ---- messages ----------------------------------------------------------- */

/* A number for a message: 10 significant digits, shortest text. */
typedef struct numstr {
    char s[40];
} numstr;

static numstr N(double v)
{
    numstr r;
    char tmp[40];
    snprintf(tmp, sizeof tmp, "%.10g", v);
    cp_fmt_num(r.s, sizeof r.s, isfinite(v) ? strtod(tmp, NULL) : v);
    return r;
}

static void viol(vctx *c, const cp_node *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void viol(vctx *c, const cp_node *at, const char *fmt, ...)
{
    if (c->oom)
        return;
    cp_verify_report *r = c->rep;
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *msg = len >= 0 ? cp_malloc((size_t)len + 1) : NULL;
    if (!msg || CP_GROW(r->items, r->cap, (size_t)r->n + 1) ||
        CP_GROW(c->seq, c->seq_cap, (size_t)r->n + 1)) {
        cp_free(msg);
        c->oom = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(msg, (size_t)len + 1, fmt, ap);
    va_end(ap);
    const cp_node *n = at ? at : c->root;
    r->items[r->n].pos = n ? n->pos : cp_pos_none();
    r->items[r->n].msg = msg;
    c->seq[r->n] = (size_t)r->n;
    r->n++;
}

/* ---- reading plan fields ------------------------------------------------ */

/* The value under `key`, NULL when absent or null. */
static const cp_node *get(const cp_node *map, const char *key)
{
    if (!map || map->kind != CP_NODE_MAP)
        return NULL;
    const cp_node *v = cp_map_get(map, key);
    return v && cp_scalar_is_null(v) ? NULL : v;
}

static const char *str_of(const cp_node *n)
{
    return n && n->kind == CP_NODE_SCALAR ? n->str : NULL;
}

/* 1: *out set; 0: absent (a violation when required); -1: not a number. */
static int num_field(vctx *c, const cp_node *map, const char *key, const char *who,
                     bool required, double *out, const cp_node **node)
{
    const cp_node *v = get(map, key);
    if (node)
        *node = v;
    if (!v) {
        if (required)
            viol(c, map, "%s: missing '%s'", who, key);
        return 0;
    }
    if (!cp_scalar_number(v, out) || !isfinite(*out)) {
        viol(c, v, "%s: '%s' must be a finite number, found %s", who, key,
             v->kind == CP_NODE_SCALAR ? v->str : cp_node_kind_name(v));
        return -1;
    }
    return 1;
}

static bool as_int(const cp_node *v, long *out)
{
    double d;
    if (!v || !cp_scalar_number(v, &d) || !isfinite(d) || d != floor(d) || fabs(d) > 2e9)
        return false;
    *out = (long)d;
    return true;
}

static int int_field(vctx *c, const cp_node *map, const char *key, const char *who,
                     bool required, long *out, const cp_node **node)
{
    const cp_node *v = get(map, key);
    if (node)
        *node = v;
    if (!v) {
        if (required)
            viol(c, map, "%s: missing '%s'", who, key);
        return 0;
    }
    if (!as_int(v, out)) {
        viol(c, v, "%s: '%s' must be an integer, found %s", who, key,
             v->kind == CP_NODE_SCALAR ? v->str : cp_node_kind_name(v));
        return -1;
    }
    return 1;
}

static const char *str_field(vctx *c, const cp_node *map, const char *key, const char *who,
                             bool required, const cp_node **node)
{
    const cp_node *v = get(map, key);
    if (node)
        *node = v;
    if (!v) {
        if (required)
            viol(c, map, "%s: missing '%s'", who, key);
        return NULL;
    }
    if (v->kind != CP_NODE_SCALAR) {
        viol(c, v, "%s: '%s' must be a string, found a %s", who, key, cp_node_kind_name(v));
        return NULL;
    }
    return v->str;
}

bool cp_verify_close(double a, double b, double rel)
{
    double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return fabs(a - b) <= rel * m + 1e-9;
}

static bool over(double load, double cap)
{
    return load > cap + CAP_TOL * (fabs(cap) > 1 ? fabs(cap) : 1);
}

/* Compares the number under `key` with `expected`; `required` says
 * whether a missing key is a violation. */
static void compare_field(vctx *c, const cp_node *map, const char *key, const char *who,
                          bool required, double expected)
{
    double v;
    const cp_node *n;
    if (num_field(c, map, key, who, required, &v, &n) != 1)
        return;
    if (!cp_verify_close(v, expected, REL_TOL))
        viol(c, n, "%s: %s: expected %s, found %s", who, key, N(expected).s, N(v).s);
}

/* Compares a per-slot list under `key` with expected[0..T-1]; reports
 * its length or its first differing slot (with how many more differ). */
static void compare_series(vctx *c, const cp_node *map, const char *key, const char *who,
                           const double *expected)
{
    const cp_node *s = get(map, key);
    if (!s)
        return;
    if (s->kind != CP_NODE_SEQ) {
        viol(c, s, "%s: '%s' must be a list of %d numbers", who, key, c->T);
        return;
    }
    if ((int)s->n != c->T) {
        viol(c, s, "%s: '%s' has %zu values, expected one per slot (%d)", who, key, s->n, c->T);
        return;
    }
    int bad = 0, first = -1;
    double found = 0;
    for (int t = 0; t < c->T; t++) {
        double v;
        if (!cp_scalar_number(s->kids[t], &v) || !isfinite(v)) {
            viol(c, s->kids[t], "%s: %s[%d] must be a finite number", who, key, t);
            continue;
        }
        if (!cp_verify_close(v, expected[t], REL_TOL)) {
            if (first < 0) {
                first = t;
                found = v;
            }
            bad++;
        }
    }
    if (first < 0)
        return;
    if (bad > 1)
        viol(c, s->kids[first], "%s: %s[%d]: expected %s, found %s (and %d more slot%s)",
             who, key, first, N(expected[first]).s, N(found).s, bad - 1, bad == 2 ? " differs" : "s differ");
    else
        viol(c, s->kids[first], "%s: %s[%d]: expected %s, found %s", who, key, first,
             N(expected[first]).s, N(found).s);
}

/* ---- helpers over modes ------------------------------------------------- */

static const char *market_name(cp_res_kind k)
{
    return k == CP_RES_POOL ? "pool" : k == CP_RES_SPOT ? "spot" : "on_demand";
}

static double frac_at(const cp_mode *m, int start, int t)
{
    return t == start + m->slots - 1 ? m->last_frac : 1.0;
}

static bool runs_at(const vctx *c, const vjob *vj, int t)
{
    return vj->counted && vj->start <= t && t < vj->start + c->ms->modes[vj->mode].slots;
}

static double *load_at(vctx *c, int r, int t)
{
    return &c->load[((size_t)r * (size_t)c->T + (size_t)t) * CP_DIMS];
}

/* Capacity of one node or instance per dimension. */
static void mach_cap(const cp_machine *m, double cap[CP_DIMS])
{
    cap[CP_DIM_ACC] = m->accelerators;
    cap[CP_DIM_CPU] = m->cpus;
    cap[CP_DIM_MEM] = m->memory_gb;
}

/* "'a', 'b'": the jobs (plan order) running on resource r in slot t, or,
 * with idx >= 0, placed on its node/instance idx. Returns the last
 * job's node (the position to report at). */
static const cp_node *jobs_on(vctx *c, int r, int idx, int t, cp_buf *b)
{
    const cp_node *last = NULL;
    int n = 0;
    if (idx < 0) {
        for (int e = 0; e < c->n_jobs; e++) {
            const vjob *vj = &c->jobs[e];
            if (vj->res != r || !runs_at(c, vj, t))
                continue;
            cp_buf_printf(b, "%s'%s'", n++ ? ", " : "", c->in->jobs[vj->job].name);
            last = vj->node;
        }
        return last;
    }
    /* assignments are not in plan order (single-node jobs come first) */
    for (int e = 0; e < c->n_jobs; e++)
        for (int a = 0; a < c->n_asg; a++) {
            const vasg *g = &c->asg[a];
            if (g->entry != e || g->res != r || g->idx != idx || !runs_at(c, &c->jobs[e], t))
                continue;
            cp_buf_printf(b, "%s'%s'", n++ ? ", " : "", c->in->jobs[c->jobs[e].job].name);
            last = g->id;
        }
    return last;
}

/* ---- structure and jobs ------------------------------------------------- */

static bool status_valid(const char *s)
{
    return s && (!strcmp(s, "optimal") || !strcmp(s, "feasible") || !strcmp(s, "infeasible") ||
                 !strcmp(s, "interrupted"));
}

static void check_root(vctx *c)
{
    const cp_node *root = c->root;
    cp_verify_report *r = c->rep;
    if (root->kind != CP_NODE_MAP) {
        viol(c, root, "the plan must be a mapping, found a %s", cp_node_kind_name(root));
        r->malformed = true;
        return;
    }
    long ver;
    const cp_node *vn = get(root, "capplan_plan");
    if (!vn) {
        viol(c, root, "missing 'capplan_plan: 1' (not a capplan plan)");
        r->malformed = true;
    } else if (!as_int(vn, &ver) || ver != 1) {
        viol(c, vn, "capplan_plan: unsupported version %s (expected 1)",
             vn->kind == CP_NODE_SCALAR ? vn->str : cp_node_kind_name(vn));
        r->malformed = true;
    }
    const cp_node *sn;
    const char *st = str_field(c, root, "status", "plan", true, &sn);
    if (!st) {
        r->malformed = true;
    } else if (!status_valid(st)) {
        viol(c, sn, "plan: status '%s' is not one of optimal, feasible, infeasible, interrupted",
             st);
        r->malformed = true;
    } else if (!strcmp(st, "infeasible")) {
        r->infeasible = true;
    }
    const cp_node *jn = get(root, "jobs");
    if (jn && jn->kind != CP_NODE_SEQ) {
        viol(c, jn, "plan: 'jobs' must be a list, found a %s", cp_node_kind_name(jn));
        r->malformed = true;
    } else if (!jn && !r->infeasible) {
        viol(c, root, "plan: missing 'jobs'");
        r->malformed = true;
    }
    if (r->malformed || r->infeasible)
        return;
    const cp_node *tn = get(root, "totals");
    if (!tn)
        viol(c, root, "plan: missing 'totals'");
    else if (tn->kind != CP_NODE_MAP)
        viol(c, tn, "plan: 'totals' must be a mapping");
    static const char *const lists[] = {"provisioning", "utilization", "sites"};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
        const cp_node *l = get(root, lists[i]);
        if (l && l->kind != CP_NODE_SEQ)
            viol(c, l, "plan: '%s' must be a list, found a %s", lists[i], cp_node_kind_name(l));
    }
}

/* The resource a scheduled job names; -1 (with a violation) when none. */
static int resolve_resource(vctx *c, const cp_node *map, const char *who)
{
    const cp_node *rn, *mn;
    const char *res = str_field(c, map, "resource", who, true, &rn);
    const char *mk = str_field(c, map, "market", who, true, &mn);
    if (!res || !mk)
        return -1;
    if (!strcmp(mk, "pool")) {
        int p = cp_input_find_pool(c->in, res);
        if (p < 0) {
            viol(c, rn, "%s: unknown pool '%s'", who, res);
            return -1;
        }
        return c->ms->res_of_pool[p];
    }
    if (strcmp(mk, "on_demand") && strcmp(mk, "spot")) {
        viol(c, mn, "%s: market '%s' is not one of pool, on_demand, spot", who, mk);
        return -1;
    }
    int o = cp_input_find_offer(c->in, res);
    if (o < 0) {
        viol(c, rn, "%s: unknown offer '%s'%s", who, res,
             cp_input_find_pool(c->in, res) >= 0 ? " (a pool of that name has market 'pool')"
                                                 : "");
        return -1;
    }
    if (!strcmp(mk, "spot")) {
        if (c->ms->spot_of_offer[o] < 0) {
            viol(c, mn, "%s: offer '%s' has no spot market", who, res);
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
static void check_scheduled(vctx *c, vjob *vj, const char *who)
{
    const cp_input *in = c->in;
    const cp_job *j = &in->jobs[vj->job];
    const cp_node *map = vj->node;
    vj->res = resolve_resource(c, map, who);
    long count = 0, start = 0;
    const cp_node *cn, *sn;
    int has_count = int_field(c, map, "count", who, true, &count, &cn);
    int has_start = int_field(c, map, "start_slot", who, true, &start, &sn);
    const cp_node *nodes = get(map, "nodes");
    if (nodes && nodes->kind != CP_NODE_SEQ)
        viol(c, nodes, "%s: 'nodes' must be a list of node or instance ids", who);
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
            viol(c, map, "%s: the job has no mode at all: %s", who, c->ms->reason[vj->job]);
        else if (!count_allowed(j, count))
            viol(c, cn, "%s: count %ld is not one of the job's allowed %s", who, count,
                 j->kind == CP_JOB_TRAINING ? "accelerator counts" : "machine counts");
        else
            viol(c, map, "%s: no mode on '%s' (%s) with count %ld: placement, eligibility or "
                         "the time window rules it out", who, r->name, market_name(r->kind),
                 count);
        return;
    }
    const cp_mode *m = &c->ms->modes[vj->mode];
    if (has_start == 1) {
        if (start < m->s_min || start > m->s_max)
            viol(c, sn, "%s: start_slot %ld is outside its allowed window %d..%d (release %s h, "
                        "deadline %s h, %d slot%s)", who, start, m->s_min, m->s_max,
                 N(j->release_hour).s, N(j->deadline_hour).s, m->slots, m->slots == 1 ? "" : "s");
        if (start >= 0 && start + m->slots <= c->T) {
            vj->start = (int)start;
            vj->counted = true;
        }
    }
    long slots;
    const cp_node *dn;
    if (int_field(c, map, "slots", who, true, &slots, &dn) == 1 && slots != m->slots)
        viol(c, dn, "%s: slots: expected %d, found %ld", who, m->slots, slots);
    if (has_start == 1) {
        compare_field(c, map, "start_hour", who, true, start * c->h);
        compare_field(c, map, "end_hour", who, true, start * c->h + m->hours);
    }
    const cp_node *an;
    const char *acc = str_field(c, map, "accelerator", who, false, &an);
    if (m->acc >= 0) {
        const char *want = in->accels[m->acc].name;
        if (!an && j->kind == CP_JOB_TRAINING)
            viol(c, map, "%s: missing 'accelerator' (expected '%s')", who, want);
        else if (acc && strcmp(acc, want))
            viol(c, an, "%s: accelerator: expected '%s', found '%s'", who, want, acc);
    } else if (an) {
        viol(c, an, "%s: accelerator: '%s' carries no accelerator", who, r->name);
    }
    compare_field(c, map, "cpus", who, true, m->demand[CP_DIM_CPU]);
    compare_field(c, map, "memory_gb", who, true, m->demand[CP_DIM_MEM]);
    double kwh = 0;
    if (r->kind == CP_RES_POOL) {
        const cp_site *s = &in->sites[r->site];
        kwh = s->pue * m->busy_w * (m->slots - 1 + m->last_frac) * c->h / 1000;
    }
    compare_field(c, map, "energy_kwh", who, true, kwh);
}

static void check_jobs(vctx *c)
{
    const cp_input *in = c->in;
    const cp_node *jn = get(c->root, "jobs");
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
        if (e->kind != CP_NODE_MAP) {
            viol(c, e, "jobs[%zu]: expected a mapping, found a %s", i, cp_node_kind_name(e));
            continue;
        }
        snprintf(who, sizeof who, "jobs[%zu]", i);
        const cp_node *nn;
        const char *name = str_field(c, e, "name", who, true, &nn);
        if (!name)
            continue;
        int j = cp_input_find_job(in, name);
        if (j < 0) {
            viol(c, nn, "unknown job '%s'", name);
            continue;
        }
        if (c->entry_of_job[j] >= 0) {
            viol(c, nn, "job '%s' is listed twice (first at line %d)", name,
                 c->jobs[c->entry_of_job[j]].node->pos.line);
            continue;
        }
        snprintf(who, sizeof who, "job '%s'", name);
        vjob *vj = &c->jobs[c->n_jobs];
        vj->node = e;
        vj->job = j;
        vj->mode = -1;
        vj->res = -1;
        c->entry_of_job[j] = c->n_jobs++;
        const cp_node *sn;
        const char *st = str_field(c, e, "status", who, true, &sn);
        if (!st)
            continue;
        if (!strcmp(st, "dropped")) {
            c->dropped_job[j] = true;
            static const char *const none[] = {"resource", "market", "start_slot", "nodes"};
            for (size_t k = 0; k < sizeof none / sizeof none[0]; k++) {
                const cp_node *v = get(e, none[k]);
                if (v)
                    viol(c, v, "%s is dropped but has '%s'", who, none[k]);
            }
        } else if (!strcmp(st, "scheduled")) {
            vj->scheduled = true;
            if (!c->rep->infeasible)
                check_scheduled(c, vj, who);
        } else {
            viol(c, sn, "%s: status '%s' is not one of scheduled, dropped", who, st);
        }
    }
}

static void check_missing(vctx *c)
{
    const cp_node *jn = get(c->root, "jobs");
    for (int j = 0; j < c->in->n_jobs; j++)
        if (c->entry_of_job[j] < 0) {
            viol(c, jn, "job '%s' is missing from the plan (every input job is listed once, "
                        "scheduled or dropped)", c->in->jobs[j].name);
            c->dropped_job[j] = true; /* not scheduled: its penalty is due */
        }
}

/* ---- provisioning ------------------------------------------------------- */

static void read_provisioning(vctx *c)
{
    const cp_node *pl = get(c->root, "provisioning");
    if (!pl || pl->kind != CP_NODE_SEQ)
        return;
    for (size_t i = 0; i < pl->n; i++) {
        const cp_node *e = pl->kids[i];
        char who[400];
        snprintf(who, sizeof who, "provisioning[%zu]", i);
        if (e->kind != CP_NODE_MAP) {
            viol(c, e, "%s: expected a mapping, found a %s", who, cp_node_kind_name(e));
            continue;
        }
        const cp_node *mn, *kn;
        const char *mk = str_field(c, e, "market", who, true, &mn);
        const char *kind = str_field(c, e, "kind", who, true, &kn);
        if (!mk || !kind)
            continue;
        int o = cp_input_find_offer(c->in, mk);
        if (o < 0) {
            viol(c, mn, "%s: unknown offer '%s'", who, mk);
            continue;
        }
        int r;
        if (!strcmp(kind, "on_demand")) {
            r = c->ms->ondemand_of_offer[o];
        } else if (!strcmp(kind, "spot")) {
            r = c->ms->spot_of_offer[o];
            if (r < 0) {
                viol(c, kn, "%s: offer '%s' has no spot market", who, mk);
                continue;
            }
        } else {
            viol(c, kn, "%s: kind '%s' is not one of on_demand, spot", who, kind);
            continue;
        }
        snprintf(who, sizeof who, "provisioning of '%s' (%s)", mk, kind);
        if (c->prov[r]) {
            viol(c, mn, "%s is listed twice (first at line %d)", who, c->prov[r]->pos.line);
            continue;
        }
        c->prov[r] = e;
        const cp_node *is = get(e, "instances");
        if (!is) {
            viol(c, e, "%s: missing 'instances'", who);
            continue;
        }
        if (is->kind != CP_NODE_SEQ) {
            viol(c, is, "%s: 'instances' must be a list of %d integers", who, c->T);
            continue;
        }
        c->prov_inst[r] = is;
        if ((int)is->n != c->T)
            viol(c, is, "%s: 'instances' has %zu values, expected one per slot (%d)", who, is->n,
                 c->T);
        for (int t = 0; t < c->T && t < (int)is->n; t++) {
            long v;
            if (!as_int(is->kids[t], &v) || v < 0) {
                viol(c, is->kids[t], "%s: instances[%d] must be an integer >= 0", who, t);
                continue;
            }
            c->y[(size_t)r * (size_t)c->T + (size_t)t] = v;
        }
    }
}

/* ---- per-slot limits (SPEC 3) ------------------------------------------- */

static void add_loads(vctx *c)
{
    for (int e = 0; e < c->n_jobs; e++) {
        const vjob *vj = &c->jobs[e];
        if (!vj->counted)
            continue;
        const cp_mode *m = &c->ms->modes[vj->mode];
        const cp_resource *r = &c->ms->res[vj->res];
        for (int t = vj->start; t < vj->start + m->slots; t++) {
            double *l = load_at(c, vj->res, t);
            for (int d = 0; d < CP_DIMS; d++)
                l[d] += m->demand[d];
            if (r->kind == CP_RES_POOL)
                c->busy[(size_t)r->site * (size_t)c->T + (size_t)t] +=
                    m->busy_w * frac_at(m, vj->start, t);
        }
    }
}

/* " accelerators 3 > 2, cpus ..." for the dimensions over capacity. */
static bool over_dims(const double *load, const double *cap, cp_buf *b)
{
    bool any = false;
    for (int d = 0; d < CP_DIMS; d++)
        if (over(load[d], cap[d])) {
            cp_buf_printf(b, "%s%s %s > %s", any ? ", " : "", dim_name[d], N(load[d]).s,
                          N(cap[d]).s);
            any = true;
        }
    return any;
}

static void check_capacity(vctx *c)
{
    const cp_input *in = c->in;
    cp_buf b, jobs;
    cp_buf_init(&b);
    cp_buf_init(&jobs);
    for (int r = 0; r < c->ms->n_res; r++) {
        const cp_resource *res = &c->ms->res[r];
        double unit[CP_DIMS], cap[CP_DIMS];
        mach_cap(res->mach, unit);
        for (int t = 0; t < c->T; t++) {
            double n;
            long y = c->y[(size_t)r * (size_t)c->T + (size_t)t];
            if (res->kind == CP_RES_POOL) {
                n = cp_series_at(&in->pools[res->index].available, t);
            } else {
                const cp_offer *o = &in->offers[res->index];
                double q = cp_series_at(res->kind == CP_RES_SPOT ? &o->spot_quota : &o->quota, t);
                n = (double)y;
                if (y > q)
                    viol(c, c->prov_inst[r]->kids[t],
                         "market '%s' (%s): %ld instances in slot %d exceed the quota %s",
                         res->name, market_name(res->kind), y, t, N(q).s);
            }
            for (int d = 0; d < CP_DIMS; d++)
                cap[d] = n * unit[d];
            cp_buf_reset(&b);
            if (!over_dims(load_at(c, r, t), cap, &b))
                continue;
            cp_buf_reset(&jobs);
            const cp_node *at = jobs_on(c, r, -1, t, &jobs);
            if (res->kind == CP_RES_POOL)
                viol(c, at, "pool '%s' over capacity in slot %d (%s of %d nodes available): %s "
                            "(jobs %s)", res->name, t, N(n).s, in->pools[res->index].nodes,
                     b.s, jobs.s);
            else
                viol(c, at, "market '%s' (%s) short in slot %d with %ld instances rented: %s "
                            "(jobs %s)", res->name, market_name(res->kind), t, y, b.s, jobs.s);
        }
    }
    if (!cp_buf_ok(&b) || !cp_buf_ok(&jobs))
        c->oom = true;
    cp_buf_release(&b);
    cp_buf_release(&jobs);
}

static double baseline_w(const cp_input *in, int site, int t)
{
    double w = 0;
    for (int p = 0; p < in->n_pools; p++) {
        const cp_pool *pl = &in->pools[p];
        if (pl->site != site)
            continue;
        double idle = pl->node.idle_power_w;
        if (pl->node.acc >= 0)
            idle += pl->node.accelerators * in->accels[pl->node.acc].idle_power_w;
        w += cp_series_at(&pl->available, t) * idle;
    }
    return w;
}

/* The `sites` entry of site s, or NULL. */
static const cp_node *site_entry(vctx *c, int s)
{
    const cp_node *sl = get(c->root, "sites");
    if (!sl || sl->kind != CP_NODE_SEQ)
        return NULL;
    for (size_t i = 0; i < sl->n; i++) {
        const char *nm = str_of(get(sl->kids[i], "name"));
        if (nm && !strcmp(nm, c->in->sites[s].name))
            return sl->kids[i];
    }
    return NULL;
}

static void check_power_caps(vctx *c)
{
    const cp_input *in = c->in;
    cp_buf jobs;
    cp_buf_init(&jobs);
    for (int s = 0; s < in->n_sites; s++) {
        const cp_site *st = &in->sites[s];
        if (!st->power_cap_kw.set)
            continue;
        const cp_node *se = site_entry(c, s);
        const cp_node *pk = get(se, "power_kw");
        for (int t = 0; t < c->T; t++) {
            double base = baseline_w(in, s, t);
            double w = st->pue * (base + c->busy[(size_t)s * (size_t)c->T + (size_t)t]);
            double cap = 1000 * cp_series_at(&st->power_cap_kw, t);
            if (!over(w, cap))
                continue;
            const cp_node *at = pk && pk->kind == CP_NODE_SEQ && (int)pk->n == c->T ? pk->kids[t]
                                                                                   : se;
            cp_buf_reset(&jobs);
            for (int e = 0; e < c->n_jobs; e++) {
                const vjob *vj = &c->jobs[e];
                if (!runs_at(c, vj, t) || c->ms->res[vj->res].kind != CP_RES_POOL ||
                    c->ms->res[vj->res].site != s)
                    continue;
                cp_buf_printf(&jobs, "%s'%s'", jobs.len ? ", " : "", in->jobs[vj->job].name);
                if (!se)
                    at = vj->node;
            }
            viol(c, at, "site '%s' over its power cap in slot %d: %s kW > %s kW (baseline %s kW, "
                        "jobs %s)", st->name, t, N(w / 1000).s, N(cap / 1000).s,
                 N(st->pue * base / 1000).s, jobs.len ? jobs.s : "none");
        }
    }
    if (!cp_buf_ok(&jobs))
        c->oom = true;
    cp_buf_release(&jobs);
}

/* ---- concrete placement (SPEC 5) ---------------------------------------- */

/* Parses "PREFIX/INDEX" against the resource's id prefix; -1 when not. */
static long parse_id(const char *s, const char *prefix)
{
    const char *slash = strrchr(s, '/');
    if (!slash || (size_t)(slash - s) != strlen(prefix) || strncmp(s, prefix, strlen(prefix)))
        return -1;
    const char *d = slash + 1;
    if (!*d || strlen(d) > 9)
        return -1;
    for (const char *p = d; *p; p++)
        if (*p < '0' || *p > '9')
            return -1;
    return strtol(d, NULL, 10);
}

static bool add_asg(vctx *c, int entry, int res, int idx, const cp_node *id, double units)
{
    if (CP_GROW(c->asg, c->asg_cap, (size_t)c->n_asg + 1)) {
        c->oom = true;
        return false;
    }
    vasg *g = &c->asg[c->n_asg++];
    g->entry = entry;
    g->res = res;
    g->idx = idx;
    g->id = id;
    g->units = units;
    return true;
}

/* Checks one job's ids; on success records them as assignments with
 * units 0 (set later). */
static void check_job_nodes(vctx *c, int e)
{
    const vjob *vj = &c->jobs[e];
    const cp_input *in = c->in;
    const cp_job *j = &in->jobs[vj->job];
    const cp_mode *m = &c->ms->modes[vj->mode];
    const cp_resource *r = &c->ms->res[vj->res];
    const cp_node *ns = vj->nodes;
    const char *what = r->kind == CP_RES_POOL ? "node" : "instance";
    bool ok = true;
    if (ns->n == 0) {
        viol(c, ns, "job '%s': 'nodes' is empty", j->name);
        return;
    }
    long *idx = cp_calloc(ns->n, sizeof *idx);
    if (!idx) {
        c->oom = true;
        return;
    }
    for (size_t i = 0; i < ns->n; i++) {
        const cp_node *id = ns->kids[i];
        const char *s = str_of(id);
        long k = s ? parse_id(s, r->id) : -1;
        idx[i] = k;
        if (k < 0) {
            viol(c, id, "job '%s': '%s' is not a %s id of '%s' (expected '%s/N')", j->name,
                 s ? s : cp_node_kind_name(id), what, r->id, r->id);
            ok = false;
            continue;
        }
        bool dup = false;
        for (size_t q = 0; q < i; q++)
            dup |= idx[q] == k;
        if (dup) {
            viol(c, id, "job '%s': %s '%s' is listed twice", j->name, what, s);
            ok = false;
            continue;
        }
        if (r->kind == CP_RES_POOL && k >= in->pools[r->index].nodes) {
            viol(c, id, "job '%s': pool '%s' has no node %ld (%d nodes)", j->name, r->name, k,
                 in->pools[r->index].nodes);
            ok = false;
            continue;
        }
        for (int t = vj->start; t < vj->start + m->slots; t++) {
            if (r->kind == CP_RES_POOL) {
                double av = cp_series_at(&in->pools[r->index].available, t);
                if (k >= av) {
                    viol(c, id, "job '%s': node '%s' is down in slot %d (%s of %d nodes "
                                "available)", j->name, s, t, N(av).s, in->pools[r->index].nodes);
                    ok = false;
                    break;
                }
            } else {
                long y = c->y[(size_t)vj->res * (size_t)c->T + (size_t)t];
                if (k >= y) {
                    viol(c, id, "job '%s': instance '%s' is not rented in slot %d (y = %ld)",
                                j->name, s, t, y);
                    ok = false;
                    break;
                }
            }
        }
    }
    double cap[CP_DIMS];
    mach_cap(r->mach, cap);
    bool fits = true;
    for (int d = 0; d < CP_DIMS; d++)
        fits &= !over(m->demand[d], cap[d]);
    int n = (int)ns->n;
    if (fits && n != 1) {
        viol(c, ns, "job '%s' fits on one %s but is placed on %d", j->name, what, n);
        ok = false;
    } else if (!fits) {
        cp_buf b;
        cp_buf_init(&b);
        for (int d = 0; d < CP_DIMS; d++)
            if (over(m->demand[d], n * cap[d]))
                cp_buf_printf(&b, "%s%s %s < %s", b.len ? ", " : "", dim_name[d],
                              N(n * cap[d]).s, N(m->demand[d]).s);
        if (b.len) {
            viol(c, ns, "job '%s': its %d %s%s cannot hold its demand: %s", j->name, n, what,
                 n == 1 ? "" : "s", b.s);
            ok = false;
        }
        if (!cp_buf_ok(&b))
            c->oom = true;
        cp_buf_release(&b);
        if (j->kind == CP_JOB_DATAFLOW && n != m->count) {
            viol(c, ns, "dataflow job '%s' runs on %d whole machines but lists %d %s%s", j->name,
                 m->count, n, what, n == 1 ? "" : "s");
            ok = false;
        } else if (j->kind == CP_JOB_TRAINING && n > m->count) {
            viol(c, ns, "training job '%s' with %d accelerators is spread over %d %ss", j->name,
                 m->count, n, what);
            ok = false;
        }
    }
    for (size_t i = 0; ok && i < ns->n; i++)
        add_asg(c, e, vj->res, (int)idx[i], ns->kids[i], fits ? m->count : 0);
    cp_free(idx);
}

static double *nload_at(vctx *c, int r, int idx, int t)
{
    return &c->nload[c->nl_off[r] + (((size_t)idx * (size_t)c->T + (size_t)t) * CP_DIMS)];
}

static void put(vctx *c, const vasg *g, const cp_mode *m, int start, double units)
{
    for (int t = start; t < start + m->slots; t++) {
        double *l = nload_at(c, g->res, g->idx, t);
        for (int d = 0; d < CP_DIMS; d++)
            l[d] += units * m->demand[d] / m->count;
    }
}

/* Units of `m` that still fit on g's node/instance in every slot of the
 * run, given what is already there. */
static long free_units(vctx *c, const vasg *g, const cp_mode *m, int start, bool nominal)
{
    double cap[CP_DIMS];
    mach_cap(c->ms->res[g->res].mach, cap);
    double best = 1e18;
    for (int t = start; t < start + m->slots; t++) {
        const double *l = nload_at(c, g->res, g->idx, t);
        for (int d = 0; d < CP_DIMS; d++) {
            double u = m->demand[d] / m->count;
            if (u <= 0)
                continue;
            double f = floor(((cap[d] - (nominal ? 0 : l[d])) / u) + 1e-9);
            if (f < best)
                best = f;
        }
    }
    return best < 0 ? 0 : best > 1e9 ? 1000000000L : (long)best;
}

/* Splits a multi-node job over its nodes (docs/verify.md): one unit on
 * each, then its nodes in listed order take as many more as still fit;
 * what does not fit goes where a node alone could hold it (full nodes
 * first), so the capacity check names the overloaded node. */
static void split_job(vctx *c, int first, int last)
{
    const vjob *vj = &c->jobs[c->asg[first].entry];
    const cp_mode *m = &c->ms->modes[vj->mode];
    const cp_job *j = &c->in->jobs[vj->job];
    long left = m->count;
    if (j->kind == CP_JOB_DATAFLOW) {
        for (int a = first; a < last; a++)
            put(c, &c->asg[a], m, vj->start, c->asg[a].units = 1);
        return;
    }
    for (int a = first; a < last; a++) {
        c->asg[a].units = 1;
        left--;
    }
    for (int a = first; a < last; a++) {
        long f = free_units(c, &c->asg[a], m, vj->start, false) - 1;
        long take = f < left ? f : left;
        if (take > 0) {
            c->asg[a].units += (double)take;
            left -= take;
        }
    }
    for (int a = first; a < last && left > 0; a++) {
        long f = free_units(c, &c->asg[a], m, vj->start, true) - (long)c->asg[a].units;
        long take = f < left ? f : left;
        if (take > 0) {
            c->asg[a].units += (double)take;
            left -= take;
        }
    }
    c->asg[first].units += (double)left;
    for (int a = first; a < last; a++)
        put(c, &c->asg[a], m, vj->start, c->asg[a].units);
}

static void check_placement(vctx *c)
{
    for (int e = 0; e < c->n_jobs && !c->oom; e++)
        if (c->jobs[e].counted && c->jobs[e].nodes)
            check_job_nodes(c, e);
    if (c->oom || c->n_asg == 0)
        return;
    size_t total = 0;
    for (int r = 0; r < c->ms->n_res; r++) {
        int mx = -1;
        for (int a = 0; a < c->n_asg; a++)
            if (c->asg[a].res == r && c->asg[a].idx > mx)
                mx = c->asg[a].idx;
        c->nl_off[r] = total;
        c->nl_count[r] = mx + 1;
        total += (size_t)(mx + 1) * (size_t)c->T * CP_DIMS;
    }
    c->nload = cp_calloc(total ? total : 1, sizeof *c->nload);
    if (!c->nload) {
        c->oom = true;
        return;
    }
    /* whole jobs first (their load is fixed), then the splits */
    for (int a = 0; a < c->n_asg; a++) {
        const vasg *g = &c->asg[a];
        const vjob *vj = &c->jobs[g->entry];
        if (g->units > 0)
            put(c, g, &c->ms->modes[vj->mode], vj->start, g->units);
    }
    for (int a = 0; a < c->n_asg;) {
        int b = a + 1;
        while (b < c->n_asg && c->asg[b].entry == c->asg[a].entry)
            b++;
        if (c->asg[a].units == 0)
            split_job(c, a, b);
        a = b;
    }
    cp_buf b, jobs;
    cp_buf_init(&b);
    cp_buf_init(&jobs);
    for (int r = 0; r < c->ms->n_res; r++) {
        const cp_resource *res = &c->ms->res[r];
        double cap[CP_DIMS];
        mach_cap(res->mach, cap);
        for (int i = 0; i < c->nl_count[r]; i++)
            for (int t = 0; t < c->T; t++) {
                cp_buf_reset(&b);
                if (!over_dims(nload_at(c, r, i, t), cap, &b))
                    continue;
                cp_buf_reset(&jobs);
                const cp_node *at = jobs_on(c, r, i, t, &jobs);
                viol(c, at, "%s '%s/%d' over capacity in slot %d: %s (jobs %s)",
                     res->kind == CP_RES_POOL ? "node" : "instance", res->id, i, t, b.s, jobs.s);
                break; /* one line per node */
            }
    }
    if (!cp_buf_ok(&b) || !cp_buf_ok(&jobs))
        c->oom = true;
    cp_buf_release(&b);
    cp_buf_release(&jobs);
}

/* ---- costs (SPEC 4) ----------------------------------------------------- */

static void check_costs(vctx *c)
{
    const cp_input *in = c->in;
    cp_verify_totals *s = &c->rep->sums;
    int T = c->T;
    double h = c->h;
    memset(s, 0, sizeof *s);

    /* cloud, per market, with each provisioning entry's cost */
    for (int r = 0; r < c->ms->n_res; r++) {
        const cp_resource *res = &c->ms->res[r];
        if (res->kind == CP_RES_POOL)
            continue;
        const cp_offer *o = &in->offers[res->index];
        double price = res->kind == CP_RES_SPOT ? o->spot_price_hour : o->price_hour;
        double cost = 0;
        for (int t = 0; t < T; t++)
            cost += (double)c->y[(size_t)r * (size_t)T + (size_t)t] * price * h;
        s->cloud += cost;
        if (c->prov[r]) {
            char who[400];
            snprintf(who, sizeof who, "provisioning of '%s' (%s)", res->name,
                     market_name(res->kind));
            compare_field(c, c->prov[r], "cost", who, true, cost);
        }
    }

    /* sites: on-prem power, energy, carbon; offers with a site add carbon */
    double *pw = cp_calloc((size_t)T, sizeof *pw);
    double *site_kwh = cp_calloc((size_t)(in->n_sites ? in->n_sites : 1), sizeof *site_kwh);
    double *site_kg = cp_calloc((size_t)(in->n_sites ? in->n_sites : 1), sizeof *site_kg);
    const cp_node **seen = cp_calloc((size_t)(in->n_sites ? in->n_sites : 1), sizeof *seen);
    if (!pw || !site_kwh || !site_kg || !seen) {
        c->oom = true;
        goto out;
    }
    for (int si = 0; si < in->n_sites; si++) {
        const cp_site *st = &in->sites[si];
        for (int t = 0; t < T; t++) {
            double w = st->pue * (baseline_w(in, si, t) + c->busy[(size_t)si * (size_t)T + (size_t)t]);
            double kwh = w * h / 1000;
            site_kwh[si] += kwh;
            s->energy += kwh * series_or(&st->energy_price, t, 0);
            site_kg[si] += kwh * series_or(&st->carbon_intensity, t, 0) / 1000;
        }
    }
    for (int r = 0; r < c->ms->n_res; r++) {
        const cp_resource *res = &c->ms->res[r];
        if (res->kind == CP_RES_POOL || res->site < 0)
            continue;
        const cp_site *st = &in->sites[res->site];
        for (int t = 0; t < T; t++) {
            double kwh = (double)c->y[(size_t)r * (size_t)T + (size_t)t] * res->mach->power_w *
                         st->pue * h / 1000;
            site_kg[res->site] += kwh * series_or(&st->carbon_intensity, t, 0) / 1000;
        }
    }
    for (int si = 0; si < in->n_sites; si++) {
        s->energy_kwh += site_kwh[si];
        s->carbon_kg += site_kg[si];
    }
    s->carbon = s->carbon_kg / 1000 * in->carbon_price_per_ton;
    for (int j = 0; j < in->n_jobs; j++)
        if (c->dropped_job[j])
            s->penalty += in->jobs[j].drop_penalty;
    s->total = s->cloud + s->energy + s->carbon + s->penalty;

    const cp_node *sl = get(c->root, "sites");
    for (size_t i = 0; sl && sl->kind == CP_NODE_SEQ && i < sl->n; i++) {
        const cp_node *e = sl->kids[i];
        char who[400];
        snprintf(who, sizeof who, "sites[%zu]", i);
        if (e->kind != CP_NODE_MAP) {
            viol(c, e, "%s: expected a mapping, found a %s", who, cp_node_kind_name(e));
            continue;
        }
        const cp_node *nn;
        const char *nm = str_field(c, e, "name", who, true, &nn);
        if (!nm)
            continue;
        int si = cp_input_find_site(in, nm);
        if (si < 0) {
            viol(c, nn, "%s: unknown site '%s'", who, nm);
            continue;
        }
        if (seen[si]) {
            viol(c, nn, "site '%s' is listed twice (first at line %d)", nm, seen[si]->pos.line);
            continue;
        }
        seen[si] = e;
        snprintf(who, sizeof who, "site '%s'", nm);
        const cp_site *st = &in->sites[si];
        for (int t = 0; t < T; t++)
            pw[t] = st->pue * (baseline_w(in, si, t) + c->busy[(size_t)si * (size_t)T + (size_t)t]) /
                    1000;
        compare_series(c, e, "power_kw", who, pw);
        compare_field(c, e, "energy_kwh", who, false, site_kwh[si]);
        compare_field(c, e, "carbon_kg", who, false, site_kg[si]);
    }

    const cp_node *ul = get(c->root, "utilization");
    for (size_t i = 0; ul && ul->kind == CP_NODE_SEQ && i < ul->n; i++) {
        const cp_node *e = ul->kids[i];
        char who[400];
        snprintf(who, sizeof who, "utilization[%zu]", i);
        if (e->kind != CP_NODE_MAP) {
            viol(c, e, "%s: expected a mapping, found a %s", who, cp_node_kind_name(e));
            continue;
        }
        const cp_node *pn;
        const char *nm = str_field(c, e, "pool", who, true, &pn);
        if (!nm)
            continue;
        int p = cp_input_find_pool(in, nm);
        if (p < 0) {
            viol(c, pn, "%s: unknown pool '%s'", who, nm);
            continue;
        }
        snprintf(who, sizeof who, "utilization of '%s'", nm);
        int r = c->ms->res_of_pool[p];
        for (int d = 0; d < CP_DIMS; d++) {
            for (int t = 0; t < T; t++)
                pw[t] = load_at(c, r, t)[d];
            compare_series(c, e, dim_name[d], who, pw);
        }
    }

    const cp_node *tn = get(c->root, "totals");
    if (tn && tn->kind == CP_NODE_MAP) {
        compare_field(c, tn, "total", "totals", true, s->total);
        compare_field(c, tn, "cloud", "totals", true, s->cloud);
        compare_field(c, tn, "energy", "totals", true, s->energy);
        compare_field(c, tn, "carbon", "totals", true, s->carbon);
        compare_field(c, tn, "penalty", "totals", true, s->penalty);
        compare_field(c, tn, "energy_kwh", "totals", true, s->energy_kwh);
        compare_field(c, tn, "carbon_kg", "totals", true, s->carbon_kg);
    }
    if (in->has_budget) {
        double spend = s->cloud + s->energy + s->carbon;
        if (over(spend, in->budget))
            viol(c, tn, "budget exceeded: cloud + energy + carbon = %s > budget %s",
                 N(spend).s, N(in->budget).s);
    }
    c->rep->costed = true;
out:
    cp_free(pw);
    cp_free(site_kwh);
    cp_free(site_kg);
    cp_free(seen);
}

/* ---- entry point -------------------------------------------------------- */

void cp_verify_report_init(cp_verify_report *r)
{
    memset(r, 0, sizeof *r);
}

void cp_verify_report_release(cp_verify_report *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->n; i++)
        cp_free(r->items[i].msg);
    cp_free(r->items);
    cp_verify_report_init(r);
}

bool cp_verify_report_is_ok(const cp_verify_report *r)
{
    return r->n == 0 && !r->malformed;
}

typedef struct vsort {
    cp_violation v;
    size_t seq;
} vsort;

static int by_pos(const void *a, const void *b)
{
    const vsort *x = a, *y = b;
    if (x->v.pos.line != y->v.pos.line)
        return x->v.pos.line < y->v.pos.line ? -1 : 1;
    if (x->v.pos.col != y->v.pos.col)
        return x->v.pos.col < y->v.pos.col ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void sort_report(vctx *c)
{
    cp_verify_report *r = c->rep;
    if (r->n < 2)
        return;
    vsort *tmp = cp_calloc((size_t)r->n, sizeof *tmp);
    if (!tmp) {
        c->oom = true;
        return;
    }
    for (int i = 0; i < r->n; i++) {
        tmp[i].v = r->items[i];
        tmp[i].seq = c->seq[i];
    }
    qsort(tmp, (size_t)r->n, sizeof *tmp, by_pos);
    for (int i = 0; i < r->n; i++)
        r->items[i] = tmp[i].v;
    cp_free(tmp);
}

int cp_verify_plan(const cp_input *in, const cp_node *plan, cp_verify_report *rep, cp_err *err)
{
    cp_verify_report_release(rep);
    vctx c;
    memset(&c, 0, sizeof c);
    c.in = in;
    c.rep = rep;
    c.root = plan;
    c.T = in->slots;
    c.h = in->slot_hours;
    int rc = cp_modes_build(in, &c.ms, err);
    if (rc)
        return rc;
    size_t nres = (size_t)(c.ms->n_res ? c.ms->n_res : 1);
    size_t nj = (size_t)(in->n_jobs ? in->n_jobs : 1);
    c.entry_of_job = cp_malloc(nj * sizeof *c.entry_of_job);
    c.dropped_job = cp_calloc(nj, sizeof *c.dropped_job);
    c.y = cp_calloc(nres * (size_t)c.T, sizeof *c.y);
    c.prov = cp_calloc(nres, sizeof *c.prov);
    c.prov_inst = cp_calloc(nres, sizeof *c.prov_inst);
    c.load = cp_calloc(nres * (size_t)c.T * CP_DIMS, sizeof *c.load);
    c.busy = cp_calloc((size_t)(in->n_sites ? in->n_sites : 1) * (size_t)c.T, sizeof *c.busy);
    c.nl_off = cp_calloc(nres, sizeof *c.nl_off);
    c.nl_count = cp_calloc(nres, sizeof *c.nl_count);
    if (!c.entry_of_job || !c.dropped_job || !c.y || !c.prov || !c.prov_inst || !c.load ||
        !c.busy || !c.nl_off || !c.nl_count) {
        c.oom = true;
        goto out;
    }
    for (int j = 0; j < in->n_jobs; j++)
        c.entry_of_job[j] = -1;

    check_root(&c);
    if (!rep->malformed && !c.oom)
        check_jobs(&c);
    if (!rep->malformed && !rep->infeasible && !c.oom) {
        check_missing(&c);
        read_provisioning(&c);
        if (!c.oom)
            add_loads(&c);
        if (!c.oom)
            check_capacity(&c);
        if (!c.oom)
            check_power_caps(&c);
        if (!c.oom)
            check_placement(&c);
        if (!c.oom)
            check_costs(&c);
    }
    if (!c.oom)
        sort_report(&c);
out:
    cp_free(c.jobs);
    cp_free(c.entry_of_job);
    cp_free(c.dropped_job);
    cp_free(c.y);
    cp_free(c.prov);
    cp_free(c.prov_inst);
    cp_free(c.load);
    cp_free(c.busy);
    cp_free(c.asg);
    cp_free(c.nl_off);
    cp_free(c.nl_count);
    cp_free(c.nload);
    cp_free(c.seq);
    cp_modeset_free(c.ms);
    if (c.oom) {
        cp_verify_report_release(rep);
        return cp_err_nomem(err);
    }
    return CP_OK;
}
