/*
 * Predecessors in the modes (capplan.5 §9.2): a job can start only after its
 * predecessors can have ended, and cannot run at all when one of them has
 * no mode. Both follow from the modes alone, so they are applied here,
 * once, for the planner and the verifier alike: in topological order
 * (every predecessor before its successors), a job's earliest start
 * becomes the latest of its predecessors' earliest ends, modes whose
 * window closes are removed, and a job left without a mode gets a reason
 * that names the predecessor. What depends on the plan (a predecessor
 * the optimizer drops, a predecessor that runs late) is the solvers'.
 */
#include "cp_modes.h"

#include "cp_alloc.h"
#include "cp_buf.h"

#include <limits.h>
#include <string.h>

/* Kahn's algorithm over the after-edges (acyclic: the loader refuses
 * cycles). order[] receives every job; false on out of memory. */
static bool topo_order(const cp_input *in, int *order)
{
    int n = in->n_jobs;
    int *indeg = cp_calloc((size_t)(n ? n : 1), sizeof *indeg);
    int *succ_n = cp_calloc((size_t)n + 1, sizeof *succ_n);
    int *succ = NULL;
    bool ok = indeg && succ_n;
    int edges = 0;
    for (int j = 0; ok && j < n; j++) {
        indeg[j] = in->jobs[j].n_after;
        edges += in->jobs[j].n_after;
        for (int a = 0; a < in->jobs[j].n_after; a++)
            succ_n[in->jobs[j].after[a] + 1]++;
    }
    if (ok && !(succ = cp_calloc((size_t)(edges ? edges : 1), sizeof *succ)))
        ok = false;
    if (ok) {
        for (int j = 0; j < n; j++)
            succ_n[j + 1] += succ_n[j]; /* now the start of j's successors */
        int *fill = cp_calloc((size_t)(n ? n : 1), sizeof *fill);
        if (!fill) {
            ok = false;
        } else {
            for (int j = 0; j < n; j++)
                for (int a = 0; a < in->jobs[j].n_after; a++) {
                    int i = in->jobs[j].after[a];
                    succ[succ_n[i] + fill[i]++] = j;
                }
            cp_free(fill);
            int head = 0, tail = 0;
            for (int j = 0; j < n; j++)
                if (!indeg[j])
                    order[tail++] = j;
            while (head < tail) {
                int i = order[head++];
                for (int k = succ_n[i]; k < succ_n[i + 1]; k++)
                    if (--indeg[succ[k]] == 0)
                        order[tail++] = succ[k];
            }
            ok = tail == n;
        }
    }
    cp_free(indeg);
    cp_free(succ_n);
    cp_free(succ);
    return ok;
}

int cp_modes_apply_after(const cp_input *in, cp_modeset *ms)
{
    bool any = false;
    for (int j = 0; j < in->n_jobs; j++)
        any |= in->jobs[j].n_after > 0;
    if (!any)
        return CP_OK;
    int n = in->n_jobs, rc = CP_OK;
    int *order = cp_calloc((size_t)(n ? n : 1), sizeof *order);
    int *eend = cp_calloc((size_t)(n ? n : 1), sizeof *eend); /* earliest end slot */
    unsigned char *gone = cp_calloc((size_t)(ms->n_modes ? ms->n_modes : 1), 1);
    if (!order || !eend || !gone || !topo_order(in, order)) {
        rc = CP_ERR_NOMEM;
        goto out;
    }
    for (int q = 0; q < n && rc == CP_OK; q++) {
        int j = order[q];
        const cp_job *jb = &in->jobs[j];
        int est = 0, by = -1;
        const char *dead = NULL;
        for (int a = 0; a < jb->n_after; a++) {
            int i = jb->after[a];
            if (eend[i] == INT_MAX) {
                dead = in->jobs[i].name;
                break;
            }
            if (eend[i] > est) {
                est = eend[i];
                by = i;
            }
        }
        int best_end = INT_MAX, left = 0;
        bool had = ms->job_first[j] < ms->job_first[j + 1];
        for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++) {
            cp_mode *md = &ms->modes[m];
            if (dead || md->s_max < est) {
                gone[m] = 1;
                continue;
            }
            if (md->s_min < est)
                md->s_min = est;
            left++;
            if (md->s_min + md->slots < best_end)
                best_end = md->s_min + md->slots;
        }
        eend[j] = best_end;
        if (left || !had)
            continue;
        cp_buf b;
        cp_buf_init(&b);
        if (dead)
            cp_buf_printf(&b, "its predecessor '%s' can never run (it has no mode)", dead);
        else
            cp_buf_printf(&b,
                          "no mode ends in its window after its predecessors: '%s' ends at "
                          "slot %d at the earliest, and no mode can start that late",
                          in->jobs[by].name, est);
        if (!(ms->reason[j] = cp_buf_detach(&b)))
            rc = CP_ERR_NOMEM;
    }
    /* a job whose predecessor has no mode at all has none either, even
     * when it had none before: keep the first reason (no mode of its own) */
    if (rc == CP_OK) {
        int k = 0;
        for (int j = 0; j < n; j++) {
            int first = k;
            for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++)
                if (!gone[m])
                    ms->modes[k++] = ms->modes[m];
            ms->job_first[j] = first;
        }
        ms->job_first[n] = k;
        ms->n_modes = k;
    }
out:
    cp_free(order);
    cp_free(eend);
    cp_free(gone);
    return rc;
}
