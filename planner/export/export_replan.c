/*
 * `capplan export slurm --from OLD --now S`: a re-plan (capplan.5 §10.5)
 * handed to a cluster that already runs OLD's submission: only what
 * changes, as replan.sh beside the scripts of the jobs it submits.
 *
 * Per job, from the comparison of OLD and the re-plan (models/plan_diff.c):
 * - OLD ran it on a pool and the re-plan does not keep that run: scancel
 *   by its --job-name, PENDING only when OLD had not started it (start >=
 *   S), whatever its state when it is restarted (a node of its run is
 *   down) or cancelled (started, and gone from the inputs);
 * - only its start moved (same pool, nodes, count, shape, power limit),
 *   and OLD had not started it: `scontrol update StartTime=` of the
 *   pending job, found by name (its script is written too, for a cluster
 *   where the job is gone);
 * - the re-plan runs it on a pool and OLD did not run it so: a new script,
 *   submitted after the cancellations, in dependency order, with
 *   --dependency=afterok: on the predecessors submitted here and on those
 *   still queued or running from OLD's submission (squeue by name);
 * - unchanged: nothing (a comment).
 * The services' replica runs on pools follow (export_slurm_svc.c).
 * Cloud jobs and services are export skypilot's. Names follow export slurm's rules,
 * and are printed with printf '%s', never echo (dash's echo reads the
 * backslashes of a name: \c cuts the line, \n forges one).
 */
#include "export_internal.h"

#include "cp_alloc.h"
#include "cp_plan_diff.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static bool on_pool(const cp_plan_job *j)
{
    return j && j->scheduled && j->mk == CP_PLAN_POOL;
}

/* Same pool, nodes, count, shape and limit: only the start moved. */
static bool start_only(const cp_diff_job *e)
{
    const cp_plan_job *a = e->old, *b = e->now;
    if (e->kind != CP_DIFF_MOVED || !on_pool(a) || !on_pool(b) ||
        strcmp(a->resource.s, b->resource.s) || a->count.v != b->count.v ||
        a->shape.v != b->shape.v || a->slots.v != b->slots.v ||
        (a->power_limit_w.has == CP_PLAN_SET) != (b->power_limit_w.has == CP_PLAN_SET) ||
        (a->power_limit_w.has == CP_PLAN_SET && a->power_limit_w.v != b->power_limit_w.v) ||
        a->nodes.n != b->nodes.n)
        return false;
    for (int q = 0; q < a->nodes.n; q++)
        if (!a->nodes.s[q] || !b->nodes.s[q] || strcmp(a->nodes.s[q], b->nodes.s[q]))
            return false;
    return true;
}

static void put_name(cp_buf *b, const char *name)
{
    cp_buf tmp;
    cp_buf_init(&tmp);
    cp_xp_slurm_name(&tmp, name);
    cp_sh_quote(b, tmp.s ? tmp.s : "");
    cp_buf_release(&tmp);
}

/* The cancellations and start updates, in the plans' order. */
static void put_changes(cp_buf *b, const cp_plan_diff *df, const cp_input *in, int now,
                        long start, bool begin_now)
{
    for (int i = 0; i < df->n; i++) {
        const cp_diff_job *e = &df->jobs[i];
        if (!on_pool(e->old) || e->kind == CP_DIFF_SAME)
            continue;
        bool started = e->old->start_slot.v < now;
        if (start_only(e) && !started) {
            cp_buf_puts(b, "id=$(squeue -h -u \"$(id -un)\" -t PENDING -n ");
            put_name(b, e->name);
            cp_buf_puts(b, " -o %i | head -n 1)\n");
            cp_buf_puts(b, "if [ -n \"$id\" ]; then scontrol update JobId=\"$id\" StartTime=");
            if (begin_now)
                cp_buf_puts(b, "now");
            else
                cp_xp_put_time(b, start + (long)llround(e->now->start_slot.v * in->slot_hours * 3600));
            cp_buf_puts(b, "; printf '%s %s start moved\\n' \"$id\" ");
            cp_sh_quote(b, e->name);
            cp_buf_puts(b, "; fi\n");
            continue;
        }
        cp_buf_puts(b, started ? "scancel --name=" : "scancel --state=PENDING --name=");
        put_name(b, e->name);
        cp_buf_printf(b, " # %s%s\n", e->now ? cp_diff_kind_name(e->kind) : "cancelled",
                      started ? ", it had started" : "");
    }
}

/* Whether the re-plan submits job e's new run. */
static bool submits(const cp_diff_job *e, int now)
{
    if (!on_pool(e->now) || e->kind == CP_DIFF_SAME)
        return false;
    return !(start_only(e) && e->old->start_slot.v >= now);
}

/* Whether a pool deployment's replicas or their nodes change from slot
 * `now` on: else OLD's replica runs (export_slurm_svc.c) stand as
 * submitted, and the re-plan needs no host names for them. */
static bool pool_services_change(const cp_plan_diff *df, int now)
{
    for (int i = 0; i < df->n_deps; i++) {
        const cp_diff_dep *e = &df->deps[i];
        const cp_plan_svc_dep *x = e->now ? e->now : e->old;
        if (x->mk == CP_PLAN_POOL && (e->last >= now || e->last_ids >= now))
            return true;
    }
    return false;
}

int cp_export_slurm_replan(const cp_input *in, const cp_plan_file *pf, const cp_plan_file *old,
                           int now, const cp_export_opts *o, cp_export *x, cp_diags *d)
{
    cp_plan_diff df;
    cp_plan_diff_init(&df);
    cp_err err;
    cp_err_init(&err);
    if (cp_plan_diff_build(old, pf, &df, &err)) {
        cp_diags_add_err(d, &err);
        return CP_ERR_NOMEM;
    }
    int rc = CP_OK, n = 0;
    cp_xp_sjob *v = cp_calloc((size_t)df.n + 1, sizeof *v);
    if (!v) {
        cp_plan_diff_release(&df);
        return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    }
    const int errs0 = d->n - d->n_warnings + d->dropped;
    for (int i = 0; i < df.n; i++) {
        const cp_diff_job *e = &df.jobs[i];
        if (!cp_xp_name_ok(d, (e->now ? e->now : e->old)->name.pos, "a job", e->name) ||
            !submits(e, now))
            continue;
        v[n] = (cp_xp_sjob){e->now, -1, -1, NULL, 0, false, false};
        cp_xp_sjob_resolve(in, &v[n++], d);
    }
    long start = 0;
    bool utc = false;
    if (!o->begin_now && (!in->start || !cp_xp_parse_start(in->start, &start, &utc)))
        cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(),
                     "the inputs have no horizon.start export can read, so the jobs' --begin "
                     "times are unknown: give horizon.start or export with --begin now");
    if (d->n - d->n_warnings + d->dropped > errs0) {
        rc = d->worst ? d->worst : CP_ERR_INPUT;
        goto out;
    }
    cp_export_file *f = cp_export_add(x, "replan.sh", true);
    if (!f) {
        rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
        goto out;
    }
    const int at = x->n - 1;
    cp_buf *b = &f->text;
    char what[300];
    snprintf(what, sizeof what,
             "# the re-plan from slot %d (capplan.5 \"Re-planning\"): cancels what it no\n"
             "# longer runs as planned, moves the start of pending jobs, submits %d new\n"
             "# run%s; prints one line per job it submits or moves: its id and its name\n",
             now, n, n == 1 ? "" : "s");
    cp_xp_slurm_opening(b, o, utc, what);
    cp_buf_puts(b, "# the ids of the jobs named, still queued or running, as :ID:ID\n"
                   "queued() { for n in \"$@\"; do squeue -h -u \"$(id -un)\" -n \"$n\" -o ':%i'; "
                   "done | tr -d '\\n'; }\n");
    put_changes(b, &df, in, now, start, o->begin_now);
    for (int i = 0; i < df.n; i++)
        if (df.jobs[i].kind == CP_DIFF_SAME && on_pool(df.jobs[i].now)) {
            cp_buf_puts(b, "# unchanged: ");
            cp_sh_quote(b, df.jobs[i].name);
            cp_buf_putc(b, '\n');
        }
    /* the new runs, predecessors first (the loader refuses cycles) */
    for (int done = 0; done < n && rc == CP_OK; done++) {
        int best = -1;
        for (int i = 0; i < n; i++) {
            if (v[i].done)
                continue;
            const cp_job *job = &in->jobs[v[i].job];
            bool ready = true;
            for (int k = 0; k < job->n_after && ready; k++)
                for (int q = 0; q < n; q++)
                    ready &= !(v[q].job == job->after[k] && !v[q].done);
            if (ready && (best < 0 || v[i].pj->start_slot.v < v[best].pj->start_slot.v))
                best = i;
        }
        if (best < 0)
            break;
        cp_xp_sjob *j = &v[best];
        const cp_job *job = &in->jobs[j->job];
        j->done = true;
        cp_buf_puts(b, "dep=\"");
        for (int k = 0; k < job->n_after; k++) {
            bool here = false;
            for (int q = 0; q < n; q++)
                if (v[q].job == job->after[k]) {
                    cp_buf_printf(b, ":$j%d", v[q].pj->index);
                    here = true;
                }
            if (!here) {
                cp_buf_puts(b, "$(queued ");
                put_name(b, in->jobs[job->after[k]].name);
                cp_buf_puts(b, ")");
            }
        }
        cp_buf_puts(b, "\"\n");
        cp_xp_slurm_submit(b, j, job->name, " ${dep:+--dependency=afterok$dep}");
        if ((rc = cp_xp_slurm_script(in, j, o, start, utc, x, d)))
            break;
        b = &x->files[at].text;
        x->n_jobs++;
    }
    if (rc == CP_OK && !cp_buf_ok(b))
        rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    if (rc == CP_OK && pool_services_change(&df, now))
        rc = cp_xp_slurm_services_replan(in, pf, old, now, o, start, x, at, d);
    else if (rc == CP_OK && df.n_deps)
        cp_buf_puts(&x->files[at].text, "# services: no replica on a pool changes from this "
                                        "slot on; OLD's runs stay queued\n");
out:
    for (int i = 0; i < n; i++)
        cp_free(v[i].nodes);
    cp_free(v);
    cp_plan_diff_release(&df);
    return rc;
}
