/*
 * `capplan export skypilot --from OLD --now S`: a re-plan (capplan.5
 * §10.5) handed to SkyPilot while OLD's launch.sh runs the night
 * (docs/execution.md, "Re-planning once the night has begun"). The
 * re-plan's launch.sh replaces OLD's from slot S on:
 *
 * - the clusters that began before S are OLD's, running: history is
 *   OLD's (every market's instances before S, and the started jobs'
 *   runs), so they are the re-plan's first clusters, in the same order
 *   and with the same names, offers, markets and starts; anything
 *   else is an error naming the cluster (fewer nodes than OLD's are fine:
 *   the others idle). They are not launched again; the
 *   re-plan's stop downs them once idle, or at once (`sky down`) where
 *   OLD ran them on past S and the re-plan ends them at S: what still
 *   runs there is what the re-plan cancels;
 * - the started cloud jobs run on, not queued again; a started job the
 *   inputs no longer have, on a cluster that runs on, is named by a
 *   `failed` line of launch.sh (SkyPilot cancels by job id, which only
 *   `sky queue` knows);
 * - everything from S on is launched and queued as export skypilot does,
 *   with the files of those clusters and tasks only;
 * - the services' SkyServe services that run at S (OLD's, with their
 *   replicas of slot S - 1) keep their names and are scaled, taken down
 *   or brought up from S on as the re-plan says (match_services).
 */
#include "export_internal.h"

#include "cp_alloc.h"

#include <string.h>

static const char *pname(const cp_plan_job *pj)
{
    return pj->name.has == CP_PLAN_SET ? pj->name.s : "";
}

/* The scheduled cloud job of `pf` named `name`, or NULL. */
static const cp_plan_job *cloud_job(const cp_plan_file *pf, const char *name)
{
    for (int i = 0; i < pf->n_jobs; i++)
        if (!strcmp(pname(&pf->jobs[i]), name))
            return pf->jobs[i].scheduled &&
                           (pf->jobs[i].mk == CP_PLAN_ON_DEMAND || pf->jobs[i].mk == CP_PLAN_SPOT)
                       ? &pf->jobs[i]
                       : NULL;
    return NULL;
}

static bool same_cluster(const cp_xp_cluster *c, const cp_xp_cluster *o)
{
    /* fewer nodes than run: the others idle until the stop */
    return c->of == o->of && c->spot == o->spot && c->start == o->start && c->nodes <= o->nodes;
}

/* OLD's clusters that began before S against the re-plan's: the same
 * ones, with the same names, but for those of which the re-plan keeps no
 * lease (s->gone), which must come last. Errors to d; returns the count
 * of the re-plan's or -1. */
static int match_history(cp_xp_sky *s, const cp_xp_sky *os, long now, cp_diags *d)
{
    int k = 0, j = 0;
    while (k < s->n_c && s->c[k].start < now)
        k++;
    for (int i = 0; i < os->n_c && os->c[i].start < now; i++) {
        if (j < k && i == j && same_cluster(&s->c[j], &os->c[i]))
            j++;
        else if (j < k && i != j)
            break;
        else if (os->c[i].end >= now)
            s->gone[s->n_gone++] = &os->c[i];
    }
    if (j == k)
        return k;
    const cp_xp_cluster *c = &s->c[j];
    cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(),
                 "cluster %s: the re-plan runs it from slot %ld on %d node%s of '%s', not as "
                 "OLD's %s runs; a running SkyPilot cluster keeps its name, offer, start and "
                 "nodes: export the re-plan whole instead",
                 c->name, c->start, c->nodes, c->nodes == 1 ? "" : "s", c->of->name, c->name);
    return -1;
}

static bool same_deployment(const cp_xp_serve *v, const cp_xp_serve *w)
{
    return v->svc == w->svc && v->de->config.v == w->de->config.v && v->of == w->of &&
           v->spot == w->spot;
}

/* The services' SkyServe steps from S on (capplan.5 §10.4, §10.5).
 * OLD's launch.sh, which this one replaces, brought up the deployments
 * with replicas in slot S - 1; history is OLD's, so the re-plan runs
 * each with those replicas there and takes it on from S under OLD's
 * name (and file numbers); a deployment OLD has not brought up gets a
 * number past OLD's, so no name of OLD's means another deployment.
 * A slot S - 1 that is not OLD's is an error naming the deployment. */
static int match_services(const cp_input *in, cp_xp_sky *s, const cp_xp_sky *os, long now,
                          cp_diags *d)
{
    int next = 0, rc = CP_OK;
    for (int w = 0; w < os->n_v; w++)
        next = os->v[w].num > next ? os->v[w].num : next;
    for (int i = 0; i < s->n_v && rc == CP_OK; i++) {
        int w = 0;
        while (w < os->n_v && !same_deployment(&s->v[i], &os->v[w]))
            w++;
        rc = cp_xp_serve_number(in, &s->v[i], w < os->n_v ? os->v[w].num : ++next);
    }
    if (rc)
        return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    for (int pass = 0; pass < 2; pass++) {
        const cp_xp_sky *a = pass ? os : s, *b = pass ? s : os;
        for (int i = 0; i < a->n_v; i++) {
            const cp_xp_serve *v = &a->v[i];
            int k = cp_xp_serve_count(v, now - 1), w = 0;
            while (w < b->n_v && !same_deployment(v, &b->v[w]))
                w++;
            int kb = w < b->n_v ? cp_xp_serve_count(&b->v[w], now - 1) : 0;
            if (k != kb)
                return cp_diags_add(d, CP_ERR_INPUT, v->de->pos,
                                    "service '%s': configuration %ld on '%s' runs %d replicas in "
                                    "slot %ld in OLD, %d in the re-plan: OLD is not the plan "
                                    "this re-plan was made from",
                                    in->services[v->svc].name, v->de->config.v, v->of->name,
                                    pass ? k : kb, now - 1, pass ? kb : k);
        }
    }
    return CP_OK;
}

int cp_export_launch_replan(const cp_input *in, const cp_plan_file *pf, const cp_plan_file *old,
                            int now, const cp_export_opts *o, cp_export *x, cp_diags *d)
{
    cp_xp_sky s, os;
    memset(&s, 0, sizeof s);
    memset(&os, 0, sizeof os);
    s.have_start = in->start && cp_xp_parse_start(in->start, &s.start, &s.utc);
    s.from = now;
    int rc = cp_xp_sky_build(in, pf, false, &s, d);
    if (rc == CP_OK)
        rc = cp_xp_sky_build(in, old, true, &os, d);
    if (rc == CP_OK && (!(s.down_at_from = cp_calloc((size_t)s.n_c + 1, sizeof *s.down_at_from)) ||
                        !(s.cancel = cp_calloc((size_t)os.n_t + 1, sizeof *s.cancel)) ||
                        !(s.gone = cp_calloc((size_t)os.n_c + 1, sizeof *s.gone))))
        rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    int k = rc == CP_OK ? match_history(&s, &os, now, d) : 0;
    if (k < 0)
        rc = CP_ERR_INPUT;
    /* OLD's script, stopped before S, gave no stop from S on: the re-plan
     * stops at S at the earliest what ran on to S, and downs at once a
     * cluster OLD ran on past S */
    for (int i = 0; rc == CP_OK && i < k; i++) {
        if (s.c[i].end < now && os.c[i].end >= now)
            s.c[i].end = now;
        s.down_at_from[i] = s.c[i].end == now && os.c[i].end > now;
    }
    /* the started jobs: the same task on the same cluster, or cancelled */
    for (int i = 0; rc == CP_OK && i < os.n_t; i++) {
        const cp_xp_task *t = &os.t[i];
        long start = t->pj->start_slot.v, end = start + t->pj->slots.v;
        if (start >= now)
            continue;
        const cp_plan_job *pj = cloud_job(pf, pname(t->pj));
        /* on a cluster gone or down at S it ends with it */
        if (!pj && end > now && t->cluster < k && !s.down_at_from[t->cluster]) {
            s.cancel[s.n_cancel++] = (cp_xp_cancel){pname(t->pj), os.c[t->cluster].name};
            cp_diags_warn(d, t->pj->pos,
                          "job '%s', started on %s, is cancelled by the re-plan: launch.sh "
                          "names it, SkyPilot cancels it by its id (sky queue %s)",
                          pname(t->pj), os.c[t->cluster].name, os.c[t->cluster].name);
        }
        for (int j = 0; pj && j < s.n_t; j++)
            if (s.t[j].pj == pj && s.t[j].cluster != t->cluster)
                rc = cp_diags_add(d, CP_ERR_INPUT, pj->pos,
                                  "started job '%s' runs on %s, the re-plan puts it on %s: "
                                  "OLD is not the plan this re-plan was made from",
                                  pname(pj), os.c[t->cluster].name, s.c[s.t[j].cluster].name);
    }
    if (rc == CP_OK && (rc = cp_xp_serve_build(in, pf, &s, d)) == CP_OK &&
        (rc = cp_xp_serve_build(in, old, &os, d)) == CP_OK)
        rc = match_services(in, &s, &os, now, d);
    if (rc == CP_OK)
        rc = cp_xp_sky_write(in, &s, o, x, d);
    cp_xp_sky_release(&s);
    cp_xp_sky_release(&os);
    return rc;
}
