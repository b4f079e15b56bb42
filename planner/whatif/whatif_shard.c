/*
 * Distributed what-if (docs/whatif.md, "Shards"): `whatif --shard K/N`
 * plans the entries i (0 = baseline) with i % N == K and writes a shard
 * file; `whatif merge` reads all N shard files and rebuilds the table an
 * unsharded run writes, byte for byte in every format.
 *
 * Why a shard file rather than a table: the md table rounds, and no table
 * says which accelerator types each row's input had (the columns are the
 * union, in first-seen order over all rows) or carries the baseline that
 * deltas need. A shard file is JSON with every figure in the shortest
 * text that reads back to the same double, each row's index and input
 * types, and a fingerprint of every row's name (FNV-1a), so shards of
 * different runs are not mixed. The merge refills the rows and calls the
 * same cp_wi_build_columns and writers as an unsharded run.
 */
#include "whatif_internal.h"

#include "cp_alloc.h"
#include "cp_out.h"
#include "cp_num.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void fingerprint(const cp_whatif_table *t, char out[17])
{
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < t->n_rows; i++) {
        for (const char *s = t->rows[i].name; s && *s; s++)
            h = (h ^ (unsigned char)*s) * 1099511628211ULL;
        h = (h ^ 0xff) * 1099511628211ULL; /* a separator no name holds */
    }
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}

/* Exact, not rounded as the tables are: merge derives the deltas from
 * these figures, and the merged table must be the one a single run
 * writes. */
static void num(cp_out *o, const char *key, double v)
{
    cp_out_key(o, key);
    cp_out_num_exact(o, v);
}

static int acc_col(const cp_whatif_table *t, const char *name)
{
    for (int a = 0; a < t->n_acc; a++)
        if (!strcmp(t->acc_names[a], name))
            return a;
    return -1;
}

int cp_whatif_shard_write(const cp_whatif_table *t, int k, int n, cp_buf *out, cp_err *err)
{
    cp_out *o = cp_out_new(CP_OUT_JSON, out);
    if (!o)
        return cp_err_nomem(err);
    char fp[17];
    fingerprint(t, fp);
    cp_out_map(o);
    cp_out_key(o, "capplan_whatif_shard");
    cp_out_int(o, 1);
    cp_out_key(o, "shard");
    cp_out_int(o, k);
    cp_out_key(o, "shards");
    cp_out_int(o, n);
    cp_out_key(o, "rows");
    cp_out_int(o, t->n_rows);
    cp_out_key(o, "run");
    cp_out_str(o, fp);
    cp_out_key(o, "entries");
    cp_out_seq(o, false);
    for (int i = 0; i < t->n_rows; i++) {
        if (!cp_whatif_in_shard(i, k, n))
            continue;
        const cp_whatif_row *r = &t->rows[i];
        cp_out_map(o);
        cp_out_key(o, "index");
        cp_out_int(o, i);
        cp_out_key(o, "name");
        cp_out_str(o, r->name);
        cp_out_key(o, "status");
        cp_out_str(o, r->status);
        cp_out_key(o, "sweep");
        if (r->sweep)
            cp_out_str(o, r->sweep);
        else
            cp_out_null(o);
        num(o, "sweep_value", r->sweep ? r->sweep_value : NAN);
        for (int p = 0; p < CP_COST_N; p++) /* null where a row has no value */
            if (!(cp_cost_part_info[p].flags & CP_COST_PLAN_ONLY))
                num(o, cp_cost_part_info[p].key, r->costs.v[p]);
        num(o, "dropped", r->dropped < 0 ? NAN : r->dropped);
        cp_out_key(o, "dropped_jobs");
        if (r->dropped_jobs)
            cp_out_str(o, r->dropped_jobs);
        else
            cp_out_null(o);
        num(o, "spot_share", r->spot_share);
        cp_out_key(o, "error");
        if (r->error)
            cp_out_str(o, r->error);
        else
            cp_out_null(o);
        cp_out_key(o, "accelerators");
        cp_out_seq(o, false);
        for (int a = 0; a < r->n_accs; a++) {
            int c = r->accs[a] ? acc_col(t, r->accs[a]) : -1;
            cp_out_map(o);
            cp_out_key(o, "name");
            cp_out_str(o, r->accs[a] ? r->accs[a] : "");
            num(o, "on_prem", c >= 0 ? r->acc_hours_onprem[c] : NAN);
            num(o, "cloud", c >= 0 ? r->acc_hours_cloud[c] : NAN);
            cp_out_end(o);
        }
        cp_out_end(o);
        if (r->n_teams) { /* capplan.5 §10.2: the row's own teams and their costs */
            cp_out_key(o, "teams");
            cp_out_seq(o, false);
            for (int q = 0; q < r->n_teams; q++) {
                cp_out_map(o);
                cp_out_key(o, "name");
                cp_out_str(o, r->teams[q]);
                num(o, "cost", r->teams_cost[q]);
                cp_out_end(o);
            }
            cp_out_end(o);
        }
        if (r->n_svcs) { /* capplan.5 §10.4: the row's own services and their figures */
            cp_out_key(o, "services");
            cp_out_seq(o, false);
            for (int q = 0; q < r->n_svcs; q++) {
                cp_out_map(o);
                cp_out_key(o, "name");
                cp_out_str(o, r->svcs[q]);
                for (int f = 0; f < CP_WI_SVC_N; f++)
                    num(o, cp_wi_svc_key[f], r->svcs_fig[q * CP_WI_SVC_N + f]);
                cp_out_end(o);
            }
            cp_out_end(o);
        }
        cp_out_end(o);
    }
    cp_out_end(o);
    cp_out_end(o);
    return cp_out_finish(o, err);
}

/* ---- merging ------------------------------------------------------------ */

typedef struct mctx {
    cp_diags *d;
    bool nomem;
} mctx;

static const cp_node *need(mctx *m, const cp_node *map, const char *key, cp_node_kind kind)
{
    const cp_node *v = cp_map_get(map, key);
    if (!v || v->kind != kind) {
        cp_diags_add(m->d, CP_ERR_INPUT, v ? v->pos : map->pos,
                     "not a whatif shard file: '%s' %s", key,
                     v ? "is not of its type" : "is missing");
        return NULL;
    }
    return v;
}

static bool get_num(mctx *m, const cp_node *map, const char *key, double *out)
{
    const cp_node *v = cp_map_get(map, key);
    if (v && v->kind == CP_NODE_SCALAR && cp_scalar_is_null(v)) {
        *out = NAN;
        return true;
    }
    if (v && v->kind == CP_NODE_SCALAR && !v->quoted && cp_scalar_number(v, out))
        return true;
    cp_diags_add(m->d, CP_ERR_INPUT, v ? v->pos : map->pos,
                 "shard entry: '%s' must be a number or null", key);
    return false;
}

static char *get_str(mctx *m, const cp_node *map, const char *key, bool nullable, bool *ok)
{
    const cp_node *v = cp_map_get(map, key);
    if (nullable && v && v->kind == CP_NODE_SCALAR && !v->quoted && cp_scalar_is_null(v))
        return NULL;
    if (!v || v->kind != CP_NODE_SCALAR || !v->quoted) {
        cp_diags_add(m->d, CP_ERR_INPUT, v ? v->pos : map->pos,
                     "shard entry: '%s' must be a string", key);
        *ok = false;
        return NULL;
    }
    char *s = cp_strdup(v->str);
    if (!s)
        m->nomem = true;
    return s;
}

static bool get_int(mctx *m, const cp_node *map, const char *key, long lo, long hi, long *out)
{
    double v;
    const cp_node *n = cp_map_get(map, key);
    if (!n || n->kind != CP_NODE_SCALAR || !cp_scalar_number(n, &v) ||
        !cp_num_is_whole(v, lo, hi, out)) {
        cp_diags_add(m->d, CP_ERR_INPUT, n ? n->pos : map->pos,
                     "not a whatif shard file: '%s' must be an integer %ld..%ld", key, lo, hi);
        return false;
    }
    return true;
}

/* An entry's `teams` (absent: the row's input has none) into row r. */
static void read_teams(mctx *m, const cp_node *e, cp_whatif_row *r)
{
    const cp_node *tl = cp_map_get(e, "teams");
    if (!tl)
        return;
    if (tl->kind != CP_NODE_SEQ) {
        cp_diags_add(m->d, CP_ERR_INPUT, tl->pos, "shard entry: 'teams' must be a list");
        return;
    }
    size_t n = tl->n ? tl->n : 1;
    if (!(r->teams = cp_calloc(n, sizeof *r->teams)) ||
        !(r->teams_cost = cp_calloc(n, sizeof *r->teams_cost))) {
        m->nomem = true;
        return;
    }
    for (size_t k = 0; k < tl->n; k++) {
        const cp_node *x = tl->kids[k];
        if (x->kind != CP_NODE_MAP) {
            cp_diags_add(m->d, CP_ERR_INPUT, x->pos, "shard entry: teams must be mappings");
            return;
        }
        bool ok = true;
        char *name = get_str(m, x, "name", false, &ok);
        if (!name)
            return;
        r->teams[r->n_teams] = name;
        get_num(m, x, "cost", &r->teams_cost[r->n_teams]);
        r->n_teams++;
    }
}

/* An entry's `services` (absent: the row's input has none) into row r. */
static void read_services(mctx *m, const cp_node *e, cp_whatif_row *r)
{
    const cp_node *sl = cp_map_get(e, "services");
    if (!sl)
        return;
    if (sl->kind != CP_NODE_SEQ) {
        cp_diags_add(m->d, CP_ERR_INPUT, sl->pos, "shard entry: 'services' must be a list");
        return;
    }
    size_t n = sl->n ? sl->n : 1;
    if (!(r->svcs = cp_calloc(n, sizeof *r->svcs)) ||
        !(r->svcs_fig = cp_calloc(n * CP_WI_SVC_N, sizeof *r->svcs_fig))) {
        m->nomem = true;
        return;
    }
    for (size_t k = 0; k < sl->n; k++) {
        const cp_node *x = sl->kids[k];
        if (x->kind != CP_NODE_MAP) {
            cp_diags_add(m->d, CP_ERR_INPUT, x->pos, "shard entry: services must be mappings");
            return;
        }
        bool ok = true;
        char *name = get_str(m, x, "name", false, &ok);
        if (!name)
            return;
        r->svcs[r->n_svcs] = name;
        for (int i = 0; i < CP_WI_SVC_N; i++)
            get_num(m, x, cp_wi_svc_key[i], &r->svcs_fig[(size_t)r->n_svcs * CP_WI_SVC_N + (size_t)i]);
        r->n_svcs++;
    }
}

/* One entry into row r and its accelerator list ra. */
static void read_entry(mctx *m, const cp_node *e, cp_whatif_row *r, wi_rowacc *ra)
{
    bool ok = true;
    r->name = get_str(m, e, "name", false, &ok);
    r->status = get_str(m, e, "status", false, &ok);
    r->sweep = get_str(m, e, "sweep", true, &ok);
    r->error = get_str(m, e, "error", true, &ok);
    double dropped = NAN;
    get_num(m, e, "sweep_value", &r->sweep_value);
    for (int p = 0; p < CP_COST_N; p++) {
        r->costs.v[p] = NAN;
        if (!(cp_cost_part_info[p].flags & CP_COST_PLAN_ONLY))
            get_num(m, e, cp_cost_part_info[p].key, &r->costs.v[p]);
    }
    if (cp_map_get(e, "dropped_jobs")) /* shards written before it have none */
        r->dropped_jobs = get_str(m, e, "dropped_jobs", true, &ok);
    get_num(m, e, "spot_share", &r->spot_share);
    long nd = -1;
    if (get_num(m, e, "dropped", &dropped) && !isnan(dropped) &&
        !cp_num_is_whole(dropped, 0, CP_MAX_JOBS, &nd)) {
        const cp_node *v = cp_map_get(e, "dropped");
        cp_diags_add(m->d, CP_ERR_INPUT, v ? v->pos : e->pos,
                     "not a whatif shard file: 'dropped' must be null or an integer 0..%d",
                     CP_MAX_JOBS);
        nd = -1;
    }
    r->dropped = (int)nd;
    read_teams(m, e, r);
    read_services(m, e, r);
    const cp_node *acc = need(m, e, "accelerators", CP_NODE_SEQ);
    if (!acc)
        return;
    size_t n = acc->n ? acc->n : 1;
    ra->acc = cp_calloc(n, sizeof *ra->acc);
    ra->on = cp_calloc(n, sizeof *ra->on);
    ra->cl = cp_calloc(n, sizeof *ra->cl);
    if (!ra->acc || !ra->on || !ra->cl) {
        m->nomem = true;
        return;
    }
    for (size_t a = 0; a < acc->n; a++) {
        const cp_node *x = acc->kids[a];
        if (x->kind != CP_NODE_MAP) {
            cp_diags_add(m->d, CP_ERR_INPUT, x->pos, "shard entry: accelerators must be mappings");
            return;
        }
        bool sok = true;
        char *name = get_str(m, x, "name", false, &sok);
        if (!name)
            return;
        ra->acc[ra->n_acc] = name;
        get_num(m, x, "on_prem", &ra->on[ra->n_acc]);
        get_num(m, x, "cloud", &ra->cl[ra->n_acc]);
        ra->n_acc++;
    }
    /* the row keeps its types, as a planned row does */
    r->accs = cp_calloc(n, sizeof *r->accs);
    if (!r->accs) {
        m->nomem = true;
        return;
    }
    for (int a = 0; a < ra->n_acc; a++)
        if (!(r->accs[r->n_accs++] = cp_strdup(ra->acc[a])))
            m->nomem = true;
}

int cp_whatif_merge(const char *const *paths, int n_paths, cp_whatif_table **out, cp_diags *d)
{
    mctx m = {d, false};
    cp_node **roots = cp_calloc((size_t)(n_paths ? n_paths : 1), sizeof *roots);
    cp_whatif_table *t = cp_calloc(1, sizeof *t);
    wi_rowacc *ra = NULL;
    const cp_node **seen = NULL, **shard_at = NULL;
    long shards = -1, rows = -1;
    const char *run = NULL;
    const int worst0 = d->worst;
    if (!roots || !t) {
        m.nomem = true;
        goto out;
    }
    for (int f = 0; f < n_paths; f++) {
        if (cp_yaml_load_file(paths[f], &roots[f], d) != CP_OK)
            continue;
        const cp_node *r = roots[f];
        long k, nn, nr;
        const cp_node *magic = r->kind == CP_NODE_MAP ? cp_map_get(r, "capplan_whatif_shard") : NULL;
        if (!magic) {
            cp_diags_add(d, CP_ERR_INPUT, r->pos,
                         "not a whatif shard file (no 'capplan_whatif_shard': write shards with "
                         "'capplan whatif --shard K/N')");
            continue;
        }
        const cp_node *rn = need(&m, r, "run", CP_NODE_SCALAR);
        const cp_node *entries = need(&m, r, "entries", CP_NODE_SEQ);
        if (!get_int(&m, r, "shards", 1, 100000, &nn) || !get_int(&m, r, "rows", 1, 1000000, &nr) ||
            !get_int(&m, r, "shard", 0, nn - 1, &k) || !rn || !entries)
            continue;
        if (shards < 0) {
            shards = nn;
            rows = nr;
            run = rn->str;
            t->n_rows = (int)nr;
            if (!(t->rows = cp_calloc((size_t)nr, sizeof *t->rows)) ||
                !(ra = cp_calloc((size_t)nr, sizeof *ra)) ||
                !(seen = cp_calloc((size_t)nr, sizeof *seen)) ||
                !(shard_at = cp_calloc((size_t)nn, sizeof *shard_at))) {
                m.nomem = true;
                goto out;
            }
            for (long i = 0; i < nr; i++)
                t->rows[i].dropped = -1;
        } else if (nn != shards || nr != rows || strcmp(rn->str, run)) {
            cp_diags_add(d, CP_ERR_INPUT, rn->pos,
                         "shard of another run: %ld shards of %ld rows (run %s), the first file "
                         "has %ld of %ld (run %s)",
                         nn, nr, rn->str, shards, rows, run);
            continue;
        }
        if (shard_at[k]) {
            cp_diags_add(d, CP_ERR_INPUT, r->pos, "shard %ld/%ld is given twice (first at %s)", k,
                         nn, shard_at[k]->pos.file);
            continue;
        }
        shard_at[k] = r;
        for (size_t e = 0; e < entries->n && !m.nomem; e++) {
            const cp_node *x = entries->kids[e];
            long i;
            if (x->kind != CP_NODE_MAP || !get_int(&m, x, "index", 0, nr - 1, &i))
                continue;
            if (!cp_whatif_in_shard((int)i, (int)k, (int)nn) || seen[i]) {
                cp_diags_add(d, CP_ERR_INPUT, x->pos, "row %ld %s", i,
                             seen[i] ? "is given twice" : "does not belong to this shard");
                continue;
            }
            seen[i] = x;
            read_entry(&m, x, &t->rows[i], &ra[i]);
        }
    }
    if (shards < 0 && d->worst == worst0)
        cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(), "no shard files");
    for (long k = 0; shards > 0 && k < shards; k++)
        if (!shard_at[k]) {
            cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(),
                         "shard %ld/%ld is missing (run 'capplan whatif --shard %ld/%ld ...')", k,
                         shards, k, shards);
            break;
        }
    for (long i = 0; d->worst == worst0 && i < rows; i++)
        if (!seen[i])
            cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(), "row %ld is in no shard file", i);
    if (!m.nomem && d->worst == worst0 && cp_wi_build_columns(t, ra) != CP_OK)
        m.nomem = true;
out:
    if (m.nomem)
        cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    for (long i = 0; ra && i < rows; i++) {
        for (int a = 0; a < ra[i].n_acc; a++)
            cp_free(ra[i].acc[a]);
        cp_free(ra[i].acc);
        cp_free(ra[i].on);
        cp_free(ra[i].cl);
    }
    cp_free(ra);
    cp_free(seen);
    cp_free(shard_at);
    int rc = d->worst != worst0 ? (d->worst ? d->worst : CP_ERR_INPUT) : CP_OK;
    if (rc == CP_OK)
        *out = t;
    else
        cp_whatif_table_free(t);
    /* positions in d point at the file names the trees own: they are the
     * caller's paths (cp_yaml keeps the pointer), so freeing trees is safe */
    for (int f = 0; roots && f < n_paths; f++)
        cp_node_free(roots[f]);
    cp_free(roots);
    return rc;
}
