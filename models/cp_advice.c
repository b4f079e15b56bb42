/*
 * Warnings about inputs that are valid but probably mistaken
 * (cp_advice.h): each names what to change.
 */
#include "cp_advice.h"

int cp_input_advice(const cp_input *in, bool all, cp_diags *d)
{
    int n = 0;
    if (in->n_jobs == 0 && in->n_services == 0) { /* a serving fleet alone plans (capplan.5 §10.4) */
        cp_diags_warn(d, cp_pos_none(),
                      "no jobs: every plan is empty (is the jobs file missing from the command "
                      "line?)");
        n++;
    }
    for (int s = 0; s < in->n_sites; s++) {
        const cp_series *p = &in->sites[s].energy_price;
        int t_max = 0;
        for (int t = 1; t < p->n; t++)
            if (p->v[t] > p->v[t_max])
                t_max = t;
        if (p->n > 0 && p->v[t_max] > CP_ADVICE_MAX_PRICE) {
            cp_diags_warn(d, p->set ? p->pos : in->sites[s].pos,
                          "site '%s': energy_price %g $/kWh%s is implausible (above %g $/kWh): "
                          "a $/MWh figure? energy_price is in $/kWh (divide by 1000)",
                          in->sites[s].name, p->v[t_max], p->n > 1 ? " (its highest)" : "",
                          CP_ADVICE_MAX_PRICE);
            n++;
        }
    }
    if (!all)
        return n;
    /* host demand: training jobs ask it per accelerator, in their shapes;
     * a dataflow job takes whole machines, so it needs no such key */
    int training = 0, first = -1;
    bool demand = false;
    for (int j = 0; j < in->n_jobs && !demand; j++) {
        const cp_job *jb = &in->jobs[j];
        if (jb->kind != CP_JOB_TRAINING)
            continue;
        if (first < 0)
            first = j;
        training++;
        for (int k = 0; k < jb->n_shapes; k++)
            demand = demand || jb->shapes[k].cpus_per_accelerator > 0 ||
                     jb->shapes[k].memory_gb_per_accelerator > 0;
    }
    if (training && !demand) {
        cp_diags_warn(d, in->jobs[first].pos,
                      "no training job (of %d) asks a host for CPUs or memory: with "
                      "cpus_per_accelerator and memory_gb_per_accelerator 0, accelerators are "
                      "packed whatever a node's or an instance's CPUs and memory",
                      training);
        n++;
    }
    int spot = 0, first_spot = -1;
    for (int o = 0; o < in->n_offers; o++)
        if (in->offers[o].has_spot && !spot++)
            first_spot = o;
    bool preemptible = false;
    for (int j = 0; j < in->n_jobs && !preemptible; j++)
        preemptible = in->jobs[j].preemptible;
    if (spot && in->n_jobs && !preemptible) {
        cp_diags_warn(d, in->offers[first_spot].pos,
                      "%d offer%s a spot market ('%s' first) but no job is preemptible, so no "
                      "plan uses spot: set preemptible: true on the jobs that may be "
                      "interrupted",
                      spot, spot == 1 ? " has" : "s have", in->offers[first_spot].name);
        n++;
    }
    return n;
}
