/*
 * The version 1.1 rules of a mode that do not concern time: the speedup
 * of a count (the job's scaling, and per type: capplan.5 §1.7), the
 * shape's and the power limit's busy power (§9.1, §10.3), whether a
 * mode fits the resource's units (§2), and its egress (§9.3).
 * cp_modes.c enumerates the modes with them and explains an excluded
 * choice with them (cp_mode_exclusion, which `check --modes` prints), so
 * each rule has one definition; the placement rule (capplan.5 §1.7)
 * serves the services' deployments too (svc_deploy.c). The verifier
 * calls only cp_mode_fits, to say why a plan's mode is not a mode; it
 * re-costs a plan on its own (planner/verify/verify_cost.c), so a wrong
 * rule here cannot hide there.
 */
#include "cp_modes.h"

#include "cp_cost.h"

#include <stdio.h>
#include <string.h>

/* Same tolerance as the packing's (CP_USAGE_EPS): a share that fills a
 * node exactly must count as fitting there, or modes and packing would
 * disagree about the same node. */
#define FIT_EPS 1e-9

double cp_job_speedup(const cp_job *j, int k)
{
    switch (j->scaling) {
    case CP_SCALING_LINEAR:
        return k;
    case CP_SCALING_AMDAHL:
        return 1.0 / (j->serial_fraction + (1.0 - j->serial_fraction) / k);
    case CP_SCALING_TABLE:
        for (int i = 0; i < j->n_counts; i++)
            if (j->counts[i] == k)
                return j->speedup[i];
        break;
    }
    return k;
}

static double speedup_model(cp_scaling_model model, double sf, const double *speedup,
                            const cp_job *j, int k)
{
    switch (model) {
    case CP_SCALING_LINEAR:
        return k;
    case CP_SCALING_AMDAHL:
        return 1.0 / (sf + (1.0 - sf) / k);
    case CP_SCALING_TABLE:
        for (int i = 0; speedup && i < j->n_counts; i++)
            if (j->counts[i] == k)
                return speedup[i];
        break;
    }
    return k;
}

double cp_job_speedup_on(const cp_job *j, int acc, int k)
{
    for (int i = 0; i < j->n_type_scaling; i++) {
        const cp_type_scaling *t = &j->type_scaling[i];
        if (t->acc == acc)
            return speedup_model(t->model, t->serial_fraction, t->speedup, j, k);
    }
    return cp_job_speedup(j, k);
}

double cp_job_egress(const cp_input *in, const cp_job *j, int site)
{
    if (j->data_site < 0 || site == j->data_site)
        return 0;
    return j->data_gb * in->sites[j->data_site].egress_per_gb;
}

double cp_busy_power_shape_w(const cp_input *in, const cp_job *j, const cp_machine *m, int count,
                             int shape)
{
    return cp_busy_power_limit_w(in, j, m, count, shape, -1);
}

int cp_job_limits_on(const cp_job *j, int acc)
{
    int n = 0;
    for (int i = 0; acc >= 0 && i < j->n_power_limits; i++)
        n += j->power_limits[i].acc == acc;
    return n;
}

double cp_busy_power_limit_w(const cp_input *in, const cp_job *j, const cp_machine *m, int count,
                             int shape, int limit)
{
    double acc_w = 0;
    if (m->acc >= 0) {
        /* under a limit the board draws the limit's power_w when busy */
        double busy = limit >= 0 && limit < j->n_power_limits ? j->power_limits[limit].power_w
                                                              : in->accels[m->acc].power_w;
        acc_w = busy - in->accels[m->acc].idle_power_w;
    }
    double node_w = m->power_w - m->idle_power_w;
    if (j->kind == CP_JOB_TRAINING) {
        double cpa =
            shape < j->n_shapes ? j->shapes[shape].cpus_per_accelerator : j->cpus_per_accelerator;
        return count * acc_w + count * cpa * node_w / m->cpus;
    }
    return count * (m->accelerators * acc_w + node_w);
}

int cp_resource_max_units(const cp_input *in, cp_res_kind kind, int index)
{
    const cp_series *s = kind == CP_RES_POOL       ? &in->pools[index].available
                         : kind == CP_RES_ONDEMAND ? &in->offers[index].quota
                                                   : &in->offers[index].spot_quota;
    double most = 0;
    for (int t = 0; t < s->n; t++)
        most = s->v[t] > most ? s->v[t] : most;
    return cp_floor_int(most);
}

bool cp_mode_fits(const cp_input *in, const cp_job *j, const cp_machine *m, const char *res_name,
                  bool pool, int max_units, int count, int shape, char *why, size_t why_size)
{
    (void)in;
    const char *unit = pool ? "node" : "instance";
    if (j->kind == CP_JOB_DATAFLOW) {
        if (count <= max_units)
            return true;
        if (why)
            snprintf(why, why_size, "%d machines are more than the %d %s%s '%s' ever has", count,
                     max_units, unit, max_units == 1 ? "" : "s", res_name);
        return false;
    }
    cp_shape flat = {j->cpus_per_accelerator, j->memory_gb_per_accelerator, 1, j->pos};
    const cp_shape *sh = shape < j->n_shapes ? &j->shapes[shape] : &flat;
    int q = m->accelerators;
    const char *bind = "accelerators";
    double have = m->accelerators, need = 1;
    if (sh->cpus_per_accelerator > 0) {
        int qc = cp_floor_int(m->cpus / sh->cpus_per_accelerator + FIT_EPS);
        if (qc < q) {
            q = qc;
            bind = "cpus";
            have = m->cpus;
            need = sh->cpus_per_accelerator;
        }
    }
    if (sh->memory_gb_per_accelerator > 0) {
        int qm = cp_floor_int(m->memory_gb / sh->memory_gb_per_accelerator + FIT_EPS);
        if (qm < q) {
            q = qm;
            bind = "GB of memory";
            have = m->memory_gb;
            need = sh->memory_gb_per_accelerator;
        }
    }
    if ((double)count <= (double)q * max_units)
        return true;
    if (!why)
        return false;
    if (q == 0)
        snprintf(why, why_size, "a %s of '%s' has %g %s, one accelerator's share needs %g", unit,
                 res_name, have, bind, need);
    else
        snprintf(why, why_size,
                 "%d accelerators are more than '%s' holds: %d per %s (by its %s) on at most %d "
                 "%s%s",
                 count, res_name, q, unit, bind, max_units, unit, max_units == 1 ? "" : "s");
    return false;
}

static bool name_listed(char *const *list, int n, const char *s)
{
    for (int i = 0; s && i < n; i++)
        if (!strcmp(list[i], s))
            return true;
    return false;
}

static bool index_listed(const int *list, int n, int v)
{
    for (int i = 0; i < n; i++)
        if (list[i] == v)
            return true;
    return false;
}

bool cp_placement_allows(const cp_input *in, const cp_placement *pl, bool preemptible,
                         const cp_resource *r)
{
    if (r->kind == CP_RES_POOL)
        return pl->on_prem && (!pl->has_pools || index_listed(pl->pools, pl->n_pools, r->index));
    const cp_offer *o = &in->offers[r->index];
    if (!pl->cloud)
        return false;
    if (r->kind == CP_RES_SPOT && !preemptible)
        return false;
    if (pl->has_offers && !index_listed(pl->offers, pl->n_offers, r->index))
        return false;
    if (pl->has_providers && !name_listed(pl->providers, pl->n_providers, o->provider))
        return false;
    if (pl->has_regions && !name_listed(pl->regions, pl->n_regions, o->region))
        return false;
    return true;
}
