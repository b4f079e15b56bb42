/*
 * Teams (capplan.5 §10.2): who owns which work, with per-slot quotas
 * on what the team's jobs hold on on-prem pools and a budget on their
 * attributed cost:
 *
 *     teams:
 *       - name: vision
 *         quota: {V100: 16, A100-80GB: [8, 8, 4, ...], cpus: 256}
 *         budget: 800
 *
 * A quota key is an accelerator name or the word `cpus` (which always
 * means CPUs); a key naming no accelerator is an error. Teams are loaded
 * before the jobs, whose `team: NAME` is resolved here too.
 */
#include "load_internal.h"

#include "cp_alloc.h"

#include <stdio.h>
#include <string.h>

static void load_quota(lctx *c, const cp_node *m, const char *ent, cp_team *tm)
{
    if (!cp_load_want_map(c, m, ent, "quota"))
        return;
    if (!(tm->quota = cp_calloc(m->n ? m->n : 1, sizeof *tm->quota))) {
        c->nomem = true;
        return;
    }
    for (size_t i = 0; i < m->n; i++) {
        const cp_node *k = m->kids[2 * i], *v = m->kids[2 * i + 1];
        int acc = -1;
        if (strcmp(k->str, "cpus") && (acc = cp_input_find_accel(c->in, k->str)) < 0) {
            cp_load_err(c, k, ent,
                        "quota for '%s', which is no accelerator (a key is an accelerator name "
                        "or cpus)",
                        k->str);
            continue;
        }
        cp_team_quota *q = &tm->quota[tm->n_quota];
        char what[200];
        snprintf(what, sizeof what, "quota.%s", k->str);
        q->acc = acc;
        q->pos = k->pos;
        if (cp_load_series(c, v, ent, what, R_NONNEG, false, 0, 0, &q->limit))
            tm->n_quota++;
        else
            cp_load_series_release(&q->limit);
    }
}

void cp_load_teams(lctx *c, cp_node *const *items, int n)
{
    cp_input *in = c->in;
    static const char *const keys[] = {"name", "quota", "budget", NULL};
    in->teams = cp_calloc((size_t)(n ? n : 1), sizeof *in->teams);
    if (!in->teams) {
        c->nomem = true;
        return;
    }
    for (int i = 0; i < n && !c->nomem; i++) {
        cp_team *tm = &in->teams[in->n_teams++];
        const cp_node *m = items[i];
        tm->pos = m->pos;
        if (!cp_load_want_map(c, m, NULL, "teams[]"))
            continue;
        char label[64], ent[200];
        cp_load_ent_name(label, sizeof label, "team", NULL, i);
        cp_node *x = cp_map_get(m, "name");
        if (!x)
            cp_load_err(c, m, label, "missing required key 'name'");
        else
            cp_load_str(c, x, label, "name", &tm->name);
        cp_load_ent_name(ent, sizeof ent, "team", tm->name, i);
        cp_load_check_keys(c, m, ent, keys, NULL, NULL);
        if ((x = cp_map_get(m, "quota")))
            load_quota(c, x, ent, tm);
        if ((x = cp_map_get(m, "budget"))) {
            tm->budget_pos = x->pos;
            tm->has_budget = cp_load_num(c, x, ent, "budget", R_NONNEG, &tm->budget);
        }
    }
}

void cp_load_job_team(lctx *c, const cp_node *n, const char *ent, cp_job *j)
{
    char *name = NULL;
    if (!cp_load_str(c, n, ent, "team", &name))
        return;
    j->team = cp_input_find_team(c->in, name);
    if (j->team < 0)
        cp_load_err(c, n, ent, "unknown team '%s'%s", name,
                    c->in->n_teams ? "" : " (the inputs define no teams)");
    cp_free(name);
}

void cp_teams_free(cp_input *in)
{
    for (int i = 0; i < in->n_teams; i++) {
        cp_team *tm = &in->teams[i];
        cp_free(tm->name);
        for (int q = 0; q < tm->n_quota; q++)
            cp_load_series_release(&tm->quota[q].limit);
        cp_free(tm->quota);
    }
    cp_free(in->teams);
}
