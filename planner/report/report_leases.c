/*
 * Leases for the report (capplan.5 §5, version 1.1): a provisioning entry may
 * list them, one per maximal run of slots of one instance id, with its
 * jobs; that is what a person or a launcher executes (start the
 * instance, hand it the jobs, return it). The Gantt chart draws a market
 * row with leases as one lane per lease, its jobs inside it.
 *
 * cp_rp_leases collects every market's leases into one array grouped by
 * Gantt row and sorted by start, counts the distinct instance ids per
 * row, and matches each listed job name to the row's scheduled job of
 * that name whose hours overlap the lease (through a sorted index, so a
 * plan of thousands of jobs and leases costs n log n). A job on several
 * instances is listed by several leases: its bar (the one the report
 * draws per job) goes to the first of them, the others draw a part of
 * it. A name with no such job is left in the lease's title only; a job
 * of the row in no lease keeps a job lane of its own below the leases.
 * Whether the leases are right is verify's business, not the report's.
 *
 * cp_rp_lease_lanes lays out one row: lease lanes by first fit in order of
 * start (the lane a returned instance leaves is reused; among free lanes
 * the one last held by the same id, so an instance rented twice often
 * keeps its lane; any free lane keeps the count optimal, as many lanes
 * as leases ever overlap), and job lanes inside each lease the same way.
 */
#include "report_internal.h"

#include "cp_alloc.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *str_or_empty(const char *s)
{
    return s ? s : "";
}

/* Ids in the order people count them: runs of digits by their value
 * ("x/2" before "x/10"), the rest byte by byte. */
static int id_cmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            while (*a == '0' && isdigit((unsigned char)a[1]))
                a++;
            while (*b == '0' && isdigit((unsigned char)b[1]))
                b++;
            size_t na = 0, nb = 0;
            while (isdigit((unsigned char)a[na]))
                na++;
            while (isdigit((unsigned char)b[nb]))
                nb++;
            if (na != nb)
                return na < nb ? -1 : 1;
            int c = strncmp(a, b, na);
            if (c)
                return c;
            a += na;
            b += nb;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    return *a ? 1 : *b ? -1 : 0;
}

/* By row, start slot, id (instances that start together stack in id
 * order), slots, then file order. */
static int by_row_start(const void *a, const void *b)
{
    const cp_rp_lease *x = a, *y = b;
    if (x->row != y->row)
        return x->row < y->row ? -1 : 1;
    if (x->pl->start_slot.v != y->pl->start_slot.v)
        return x->pl->start_slot.v < y->pl->start_slot.v ? -1 : 1;
    int c = id_cmp(str_or_empty(x->pl->id.s), str_or_empty(y->pl->id.s));
    if (c)
        return c;
    if (x->pl->slots.v != y->pl->slots.v)
        return x->pl->slots.v < y->pl->slots.v ? -1 : 1;
    return x->pl < y->pl ? -1
                         : x->pl > y->pl; /* file order: one array per entry, entries in order */
}

static int by_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The scheduled jobs by (row, name, index), for matching lease names. */
typedef struct job_key {
    int row;
    const char *name;
    int job;
} job_key;

static int by_row_name(const void *a, const void *b)
{
    const job_key *x = a, *y = b;
    if (x->row != y->row)
        return x->row < y->row ? -1 : 1;
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    return x->job < y->job ? -1 : x->job > y->job;
}

/* The first key of (row, name), or n. */
static int lower_bound(const job_key *k, int n, int row, const char *name)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (k[mid].row < row || (k[mid].row == row && strcmp(k[mid].name, name) < 0))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static bool overlaps(const cp_rp_job *j, const cp_rp_lease *l)
{
    double s = j->pj->start_hour.v, e = j->pj->end_hour.v;
    if (e <= s) /* a job of no length: where it stands */
        return s >= l->h0 - 1e-9 && s <= l->h1 + 1e-9;
    return s < l->h1 - 1e-9 && e > l->h0 + 1e-9;
}

int cp_rp_market_row(const cp_rp_plan *p, const cp_plan_prov *m)
{
    for (int r = 0; r < p->n_rows; r++)
        if (p->rows[r].market == m->mk && m->market.s && !strcmp(p->rows[r].name, m->market.s))
            return r;
    return -1;
}

static void count_instances(cp_rp_plan *p, const char **ids)
{
    for (int r = 0; r < p->n_rows; r++) {
        cp_rp_row *row = &p->rows[r];
        int n = 0;
        for (int i = 0; i < row->n_leases; i++)
            ids[n++] = str_or_empty(p->leases[row->lease0 + i].pl->id.s);
        qsort(ids, (size_t)n, sizeof *ids, by_str);
        row->n_instances = 0;
        for (int i = 0; i < n; i++)
            row->n_instances += i == 0 || strcmp(ids[i - 1], ids[i]) != 0;
    }
}

/* Matches the names of every lease to the jobs of its row. */
static int match_jobs(cp_rp_plan *p, size_t listed)
{
    job_key *keys = cp_calloc((size_t)p->n_sched + 1, sizeof *keys);
    int *seen = cp_calloc((size_t)p->n_jobs + 1, sizeof *seen); /* last lease + 1 */
    p->lease_jobs = cp_calloc(listed + 1, sizeof *p->lease_jobs);
    if (!keys || !seen || !p->lease_jobs) {
        cp_free(keys);
        cp_free(seen);
        return CP_ERR_NOMEM;
    }
    int nk = 0;
    for (int i = 0; i < p->n_jobs; i++)
        if (p->jobs[i].scheduled && p->jobs[i].row >= 0)
            keys[nk++] = (job_key){p->jobs[i].row, str_or_empty(p->jobs[i].pj->name.s), i};
    qsort(keys, (size_t)nk, sizeof *keys, by_row_name);
    for (int li = 0; li < p->n_leases; li++) {
        cp_rp_lease *l = &p->leases[li];
        const cp_plan_strs *names = &l->pl->jobs;
        l->first = p->n_lease_jobs;
        for (int k = 0; k < names->n; k++) {
            if (!names->s[k])
                continue;
            int job = -1;
            for (int i = lower_bound(keys, nk, l->row, names->s[k]);
                 i < nk && keys[i].row == l->row && !strcmp(keys[i].name, names->s[k]); i++)
                if (seen[keys[i].job] != li + 1 && overlaps(&p->jobs[keys[i].job], l)) {
                    job = keys[i].job;
                    break;
                }
            if (job < 0)
                continue; /* not a job of this row at these hours: in the title only */
            seen[job] = li + 1;
            cp_rp_job *j = &p->jobs[job];
            bool primary = j->lease < 0;
            if (primary)
                j->lease = li;
            p->lease_jobs[p->n_lease_jobs++] = (cp_rp_lease_job){job, 0, primary};
        }
        l->n = p->n_lease_jobs - l->first;
    }
    cp_free(keys);
    cp_free(seen);
    return CP_OK;
}

int cp_rp_leases(cp_rp_plan *p)
{
    size_t n = 0, listed = 0;
    for (int i = 0; i < p->n_markets; i++)
        n += (size_t)p->markets[i].n_leases;
    for (int i = 0; i < p->n_jobs; i++)
        p->jobs[i].lease = -1;
    if (n == 0)
        return CP_OK;
    p->leases = cp_calloc(n, sizeof *p->leases);
    if (!p->leases)
        return CP_ERR_NOMEM;
    double end = p->T * p->h;
    for (int i = 0; i < p->n_markets; i++) {
        const cp_plan_prov *m = &p->markets[i];
        int row = cp_rp_market_row(p, m);
        for (int k = 0; row >= 0 && k < m->n_leases; k++) {
            const cp_plan_lease *pl = &m->leases[k];
            cp_rp_lease *l = &p->leases[p->n_leases++];
            l->pl = pl;
            l->row = row;
            l->h0 = fmin(end, (double)pl->start_slot.v * p->h);
            l->h1 = fmin(end, (double)(pl->start_slot.v + pl->slots.v) * p->h);
            l->n_listed = pl->jobs.n;
            listed += (size_t)pl->jobs.n;
        }
    }
    qsort(p->leases, (size_t)p->n_leases, sizeof *p->leases, by_row_start);
    for (int i = 0; i < p->n_leases; i++) {
        cp_rp_row *row = &p->rows[p->leases[i].row];
        if (row->n_leases++ == 0)
            row->lease0 = i;
    }
    const char **ids = cp_calloc((size_t)p->n_leases + 1, sizeof *ids);
    if (!ids)
        return CP_ERR_NOMEM;
    count_instances(p, ids);
    cp_free(ids);
    return match_jobs(p, listed);
}

/* ---- lanes ------------------------------------------------------------------------ */

typedef struct sub_ref {
    double start, end;
    int k; /* p->lease_jobs */
} sub_ref;

static int by_start(const void *a, const void *b)
{
    const sub_ref *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->end != y->end)
        return x->end < y->end ? -1 : 1;
    return x->k < y->k ? -1 : x->k > y->k;
}

/* Job lanes inside one lease; `refs` and `lane_end` hold l->n. */
static void sub_lanes(cp_rp_plan *p, cp_rp_lease *l, sub_ref *refs, double *lane_end)
{
    for (int i = 0; i < l->n; i++) {
        const cp_rp_job *j = &p->jobs[p->lease_jobs[l->first + i].job];
        refs[i] = (sub_ref){j->pj->start_hour.v, j->pj->end_hour.v, l->first + i};
    }
    qsort(refs, (size_t)l->n, sizeof *refs, by_start);
    l->subs = 0;
    for (int i = 0; i < l->n; i++) {
        int s = 0;
        while (s < l->subs && lane_end[s] > refs[i].start + 1e-9)
            s++;
        if (s == l->subs)
            l->subs++;
        lane_end[s] = refs[i].end;
        p->lease_jobs[refs[i].k].sub = s;
    }
}

int cp_rp_lease_lanes(cp_rp_plan *p, int r)
{
    cp_rp_row *row = &p->rows[r];
    row->lease_lanes = 0;
    if (row->n_leases == 0)
        return CP_OK;
    int most = 0;
    for (int i = 0; i < row->n_leases; i++)
        most = p->leases[row->lease0 + i].n > most ? p->leases[row->lease0 + i].n : most;
    size_t cap = (size_t)(row->n_leases > most ? row->n_leases : most) + 1;
    double *lane_end = cp_calloc(cap, sizeof *lane_end);
    const char **lane_id = cp_calloc(cap, sizeof *lane_id);
    sub_ref *refs = cp_calloc(cap, sizeof *refs);
    if (!lane_end || !lane_id || !refs) {
        cp_free(lane_end);
        cp_free(lane_id);
        cp_free(refs);
        return CP_ERR_NOMEM;
    }
    /* leases are sorted by start slot: first fit over their slots */
    for (int i = 0; i < row->n_leases; i++) {
        cp_rp_lease *l = &p->leases[row->lease0 + i];
        double s = (double)l->pl->start_slot.v;
        const char *id = str_or_empty(l->pl->id.s);
        int lane = -1;
        for (int k = 0; k < row->lease_lanes; k++)
            if (lane_end[k] <= s && (lane < 0 || !strcmp(lane_id[k], id))) {
                lane = k;
                if (!strcmp(lane_id[k], id))
                    break;
            }
        if (lane < 0)
            lane = row->lease_lanes++;
        lane_end[lane] = s + (double)(l->pl->slots.v > 0 ? l->pl->slots.v : 0);
        lane_id[lane] = id;
        l->lane = lane;
    }
    for (int i = 0; i < row->n_leases; i++)
        sub_lanes(p, &p->leases[row->lease0 + i], refs, lane_end);
    cp_free(lane_end);
    cp_free(lane_id);
    cp_free(refs);
    return CP_OK;
}

const char *cp_rp_lease_short_id(const cp_rp_plan *p, const cp_rp_lease *l)
{
    const char *id = str_or_empty(l->pl->id.s), *market = p->rows[l->row].name;
    size_t n = strlen(market);
    if (strncmp(id, market, n) != 0 || id[n] == '\0')
        return id;
    const char *rest = id + n;
    if (*rest == ':')
        rest++;
    if (!strncmp(rest, "spot/", 5))
        rest += 4;
    return *rest ? rest : id;
}
