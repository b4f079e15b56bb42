/*
 * `capplan export slurm`: the plan's pool jobs as sbatch scripts.
 *
 * One script per job the plan runs on a pool (jobs/NNN-NAME.sbatch, NNN
 * its index in the plan): --begin from horizon.start + the job's start
 * hour, --time from its slots (rounded up to the minute), --nodes and
 * --nodelist from its nodes through the pool's `hosts`, one task per node
 * with --cpus-per-task and --mem from its share of the plan's cpus and
 * memory_gb, --gres=gpu:TYPE:N per node (--gpus=TYPE:K when K does not
 * split evenly over the nodes), --exclusive for dataflow jobs (their unit
 * is a whole node), then the job's `run` command, or a line that fails
 * loudly when the input gives none. --dependency=afterok: cannot be in the
 * script (job ids exist only once submitted): submit.sh submits the
 * scripts in an order where every predecessor (capplan.5 §9.2 `after`) comes
 * first and passes --dependency=afterok:ID:... with the ids `sbatch
 * --parsable` printed. Dropped jobs are comment lines of submit.sh with
 * their reason.
 *
 * Names: job names come from the input and the plan, so they are
 * hostile. In shell code they are single-quoted (cp_sh_quote); in
 * directives (--job-name) only a sanitized form is written; a name with a
 * control character is refused (no comment can hold a newline).
 */
#include "export_internal.h"

#include "cp_alloc.h"
#include "cp_limits.h"
#include "cp_num.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The largest --mem Slurm is given, in MB a node: 1 EB, past any node. */
#define CP_SLURM_MAX_MB 1000000000000L

static const char *pname(const cp_plan_str *s)
{
    return s->has == CP_PLAN_SET ? s->s : "";
}

/* The node index of "POOL/i" for pool `pool`, or -1. */
static int node_index(const char *id, const char *pool, int nodes)
{
    size_t n = strlen(pool);
    if (strncmp(id, pool, n) || id[n] != '/' || !id[n + 1])
        return -1;
    long v = 0;
    for (const char *p = id + n + 1; *p; p++) {
        if (*p < '0' || *p > '9' || v > 10000000)
            return -1;
        v = v * 10 + (*p - '0');
    }
    return v < nodes ? (int)v : -1;
}

/* Fills j from the plan entry; errors to d. */
void cp_xp_sjob_resolve(const cp_input *in, cp_xp_sjob *j, cp_diags *d)
{
    const cp_plan_job *pj = j->pj;
    const char *name = pname(&pj->name);
    j->job = cp_input_find_job(in, name);
    if (j->job < 0) {
        cp_diags_add(d, CP_ERR_INPUT, pj->name.pos, "job '%s' of the plan is not in the inputs",
                     name);
        return;
    }
    const char *res = pname(&pj->resource);
    j->pool = cp_input_find_pool(in, res);
    if (j->pool < 0) {
        cp_diags_add(d, CP_ERR_INPUT, pj->resource.pos,
                     "job '%s': pool '%s' of the plan is not in the inputs", name, res);
        return;
    }
    const cp_pool *p = &in->pools[j->pool];
    if (pj->nodes.has != CP_PLAN_SET || pj->nodes.n == 0) {
        cp_diags_add(d, CP_ERR_INPUT, pj->pos,
                     "job '%s' has no 'nodes' in the plan: export needs a placed plan (one "
                     "written by 'capplan plan')",
                     name);
        return;
    }
    if (!(j->nodes = cp_calloc((size_t)pj->nodes.n, sizeof *j->nodes))) {
        cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
        return;
    }
    for (int k = 0; k < pj->nodes.n; k++) {
        int i = node_index(pj->nodes.s[k], p->name, p->nodes);
        if (i < 0) {
            cp_diags_add(d, CP_ERR_INPUT, pj->nodes.at[k],
                         "job '%s': '%s' is not a node of pool '%s' (%s/0 to %s/%d)", name,
                         pj->nodes.s[k], p->name, p->name, p->name, p->nodes - 1);
            continue;
        }
        if (!p->hosts) {
            j->no_hosts = true;
            return;
        }
        j->nodes[j->n_nodes++] = i;
    }
}

void cp_xp_slurm_opening(cp_buf *b, const cp_export_opts *o, bool utc, const char *what)
{
    cp_buf_puts(b, "#!/bin/sh\n");
    cp_xp_slurm_header(b, o);
    cp_buf_puts(b, what);
    cp_buf_puts(b, "set -eu\ncd \"$(dirname \"$0\")\"\n");
    if (utc && !o->begin_now)
        cp_buf_puts(b, "TZ=UTC0; export TZ # --begin times are UTC\n");
}

void cp_xp_slurm_submit(cp_buf *b, const cp_xp_sjob *j, const char *name, const char *dep)
{
    int i = j->pj->index;
    cp_buf_printf(b, "j%d=$(sbatch --parsable%s jobs/%03d-", i, dep, i);
    cp_xp_file_word(b, name, 60);
    cp_buf_printf(b, ".sbatch)\nj%d=${j%d%%%%;*}\nprintf '%%s %%s\\n' \"$j%d\" ", i, i, i);
    cp_sh_quote(b, name);
    cp_buf_putc(b, '\n');
}

/* The job's GPU power limit (capplan.5 §10.3), set on each of
 * its nodes for the boards Slurm gave it before its run. nvidia-smi -pl
 * needs root: where jobs may not, a root prolog can set it from
 * SLURM_JOB_GPUS instead (docs/execution.md); if it fails the job still
 * runs, at full power. */
static int put_power_limit(cp_buf *b, double w, cp_diags *d)
{
    char num[40], cmd[120], msg[160];
    cp_fmt_num(num, sizeof num, w);
    snprintf(cmd, sizeof cmd, "nvidia-smi -i \"$CUDA_VISIBLE_DEVICES\" -pl %s", num);
    snprintf(msg, sizeof msg,
             "capplan: could not set the power limit of %s W: the job runs at full power", num);
    cp_buf_printf(b,
                  "# power limit %s W per GPU, as planned (capplan.5 \"power_limits\"): setting it\n"
                  "# needs root (or a root prolog that sets it from SLURM_JOB_GPUS instead)\n"
                  "srun --ntasks-per-node=1 sh -c ",
                  num);
    cp_sh_quote(b, cmd);
    cp_buf_puts(b, " || printf '%s\\n' ");
    cp_sh_quote(b, msg);
    cp_buf_puts(b, " >&2\n\n");
    return cp_buf_ok(b) ? CP_OK : cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
}

int cp_xp_slurm_script(const cp_input *in, const cp_xp_sjob *j, const cp_export_opts *o, long start,
                       bool utc, cp_export *x, cp_diags *d)
{
    const cp_plan_job *pj = j->pj;
    const cp_job *job = &in->jobs[j->job];
    const cp_pool *p = &in->pools[j->pool];
    cp_buf fn;
    cp_buf_init(&fn);
    cp_buf_printf(&fn, "jobs/%03d-", pj->index);
    cp_xp_file_word(&fn, job->name, 60);
    cp_buf_puts(&fn, ".sbatch");
    cp_export_file *f = cp_buf_ok(&fn) ? cp_export_add(x, fn.s, true) : NULL;
    cp_buf_release(&fn);
    if (!f)
        return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    cp_buf *b = &f->text;
    int nn = j->n_nodes;
    cp_buf_puts(b, "#!/bin/sh\n");
    cp_xp_slurm_header(b, o);
    cp_buf_puts(b, "# job ");
    cp_sh_quote(b, job->name);
    cp_buf_printf(b, " on pool ");
    cp_sh_quote(b, p->name);
    cp_buf_printf(b, ", start slot %ld for %ld slot%s, nodes", pj->start_slot.v, pj->slots.v,
                  pj->slots.v == 1 ? "" : "s");
    for (int k = 0; k < nn; k++)
        cp_buf_printf(b, " %s", pj->nodes.s[k]);
    cp_buf_putc(b, '\n');
    if (job->n_after) {
        cp_buf_puts(b, "# after");
        for (int k = 0; k < job->n_after; k++) {
            cp_buf_putc(b, ' ');
            cp_sh_quote(b, in->jobs[job->after[k]].name);
        }
        cp_buf_puts(b, ": submit.sh adds --dependency=afterok: with their job ids\n");
    }
    /* directives: nothing but sanitized words and numbers */
    cp_buf_puts(b, "#SBATCH --job-name=");
    cp_xp_slurm_name(b, job->name);
    cp_buf_putc(b, '\n');
    cp_buf_puts(b, "#SBATCH --begin=");
    long at;
    if (o->begin_now)
        cp_buf_puts(b, "now");
    else if (cp_xp_time_after(start, pj->start_slot.v * in->slot_hours, &at))
        cp_xp_put_time(b, at);
    else
        return cp_diags_add(d, CP_ERR_INPUT, pj->start_slot.pos,
                            "job '%s': start slot %ld of %g hours is past the year 9999: no "
                            "--begin time can say it",
                            job->name, pj->start_slot.v, in->slot_hours);
    cp_buf_puts(b, utc && !o->begin_now ? "\n# (--begin is UTC: submit.sh runs sbatch with TZ=UTC0)\n"
                                        : "\n");
    cp_buf_puts(b, "#SBATCH --time=");
    if (!cp_slurm_time(b, pj->slots.v * in->slot_hours * 60))
        return cp_diags_add(d, CP_ERR_INPUT, pj->slots.pos,
                            "job '%s': %ld slot%s of %g hours %s longer than Slurm's longest "
                            "time limit (%ld minutes)",
                            job->name, pj->slots.v, pj->slots.v == 1 ? "" : "s", in->slot_hours,
                            pj->slots.v == 1 ? "is" : "are", CP_SLURM_MAX_MINUTES);
    cp_buf_printf(b, "\n#SBATCH --nodes=%d\n#SBATCH --nodelist=", nn);
    for (int k = 0; k < nn; k++)
        cp_buf_printf(b, "%s%s", k ? "," : "", p->hosts[j->nodes[k]]);
    double cpus = pj->cpus.has == CP_PLAN_SET ? pj->cpus.v : 0;
    double mem = pj->memory_gb.has == CP_PLAN_SET ? pj->memory_gb.v : 0;
    /* Slurm needs one CPU per task, and --mem=0 means the whole node */
    long cpt, mb;
    if (cp_num_to_long(ceil(cpus / nn - 1e-9), 1, CP_INPUT_COUNT_MAX, &cpt) > CP_NUM_BELOW)
        return cp_diags_add(d, CP_ERR_INPUT, pj->cpus.pos,
                            "job '%s': %g CPUs is not a count Slurm can take (at most %d a node)",
                            job->name, cpus, CP_INPUT_COUNT_MAX);
    if (cp_num_to_long(ceil(mem * 1024 / nn - 1e-6), 1, CP_SLURM_MAX_MB, &mb) > CP_NUM_BELOW)
        return cp_diags_add(d, CP_ERR_INPUT, pj->memory_gb.pos,
                            "job '%s': %g GB of memory is not a size Slurm can take (at most "
                            "%ld MB a node)",
                            job->name, mem, CP_SLURM_MAX_MB);
    cp_buf_printf(b, "\n#SBATCH --ntasks-per-node=1\n#SBATCH --cpus-per-task=%ld\n#SBATCH --mem=%ldM\n",
                  cpt, mb);
    if (p->node.acc >= 0) {
        const char *type = in->accels[p->node.acc].name;
        long k = job->kind == CP_JOB_DATAFLOW ? (long)p->node.accelerators * nn
                                              : (pj->count.has == CP_PLAN_SET ? pj->count.v : 0);
        if (!cp_xp_slurm_word(type))
            return cp_diags_add(d, CP_ERR_INPUT, in->accels[p->node.acc].pos,
                                "accelerator '%s' cannot be a Slurm GRES type (letters, digits, "
                                "'.', '_', '-' only)",
                                type);
        if (k > 0 && k % nn == 0)
            cp_buf_printf(b, "#SBATCH --gres=gpu:%s:%ld\n", type, k / nn);
        else if (k > 0)
            cp_buf_printf(b, "# %ld accelerators do not split evenly over %d nodes: a total\n"
                             "#SBATCH --gpus=%s:%ld\n",
                          k, nn, type, k);
    }
    if (job->kind == CP_JOB_DATAFLOW)
        cp_buf_puts(b, "#SBATCH --exclusive\n");
    cp_buf_puts(b, "\n");
    if (pj->power_limit_w.has == CP_PLAN_SET && (p->node.acc >= 0) &&
        put_power_limit(b, pj->power_limit_w.v, d))
        return CP_ERR_NOMEM;
    return cp_xp_put_run(b, "job", job->name, job->run)
               ? CP_OK
               : cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
}

/* The variable holding job i's id in submit.sh. */
static void put_var(cp_buf *b, const cp_xp_sjob *j)
{
    cp_buf_printf(b, "j%d", j->pj->index);
}

static int by_plan_job(const cp_xp_sjob *v, int n, int job)
{
    for (int i = 0; i < n; i++)
        if (v[i].job == job)
            return i;
    return -1;
}

static const cp_plan_job *plan_job_named(const cp_plan_file *pf, const char *name)
{
    for (int i = 0; i < pf->n_jobs; i++)
        if (pf->jobs[i].name.has == CP_PLAN_SET && !strcmp(pf->jobs[i].name.s, name))
            return &pf->jobs[i];
    return NULL;
}

/* The plan's pool jobs into v, each resolved against the inputs; a pool
 * without hosts is one error, however many jobs run there. Returns how
 * many. */
static int collect_jobs(const cp_input *in, const cp_plan_file *pf, cp_xp_sjob *v, cp_diags *d)
{
    int n = 0;
    for (int i = 0; i < pf->n_jobs; i++) {
        const cp_plan_job *pj = &pf->jobs[i];
        if (!cp_xp_name_ok(d, pj->name.pos, "a job", pname(&pj->name)))
            continue;
        if (!pj->scheduled || pj->mk != CP_PLAN_POOL)
            continue;
        v[n].pj = pj;
        v[n].job = v[n].pool = -1;
        cp_xp_sjob_resolve(in, &v[n], d);
        n++;
    }
    for (int a = 0; a < n; a++) {
        if (!v[a].no_hosts)
            continue;
        int same = 0;
        for (int b = a; b < n; b++)
            if (v[b].no_hosts && v[b].pool == v[a].pool) {
                same++;
                v[b].no_hosts = b == a;
            }
        const cp_pool *p = &in->pools[v[a].pool];
        cp_diags_add(d, CP_ERR_INPUT, p->pos,
                     "pool '%s' has no 'hosts': %d job%s of the plan run on its nodes ('%s' "
                     "first), and export needs their host names (add hosts: [NAME, ...] or "
                     "hosts: \"PATTERN-%%02d\" to the pool; docs/spec-notes.md)",
                     p->name, same, same == 1 ? "" : "s", pname(&v[a].pj->name));
    }
    return n;
}

/* horizon.start, from which --begin counts unless --begin now (what:
 * whose times those are); errors to d. */
static void read_start(const cp_input *in, const char *what, long *start, bool *utc, cp_diags *d)
{
    if (!in->start)
        cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(),
                     "the inputs have no horizon.start, so the %s' --begin times are "
                     "unknown: give horizon.start or export with --begin now",
                     what);
    else if (!cp_xp_parse_start(in->start, start, utc))
        cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(),
                     "horizon.start '%.60s' is not a time export can read "
                     "(YYYY-MM-DD[THH:MM[:SS]] with an optional Z or +HH:MM)",
                     in->start);
}

/* The other names the scripts hold: each job's pool, and a predecessor's
 * in its "# after" line (one the plan lists was checked with the plan's
 * jobs, one it lacks is checked here). */
static void check_names(const cp_input *in, const cp_plan_file *pf, const cp_xp_sjob *v, int n,
                        cp_diags *d)
{
    for (int i = 0; i < n; i++) {
        if (v[i].pool >= 0)
            cp_xp_name_ok(d, in->pools[v[i].pool].pos, "a pool", in->pools[v[i].pool].name);
        for (int k = 0; v[i].job >= 0 && k < in->jobs[v[i].job].n_after; k++) {
            const cp_job *a = &in->jobs[in->jobs[v[i].job].after[k]];
            if (!plan_job_named(pf, a->name))
                cp_xp_name_ok(d, a->pos, "a job", a->name);
        }
    }
}

/* Kahn's order: the next job whose predecessors on pools are all
 * submitted, earliest start first (then plan order); -1 when none is
 * left. */
static int next_ready(const cp_input *in, const cp_xp_sjob *v, int n)
{
    int best = -1;
    for (int i = 0; i < n; i++) {
        if (v[i].done)
            continue;
        const cp_job *job = &in->jobs[v[i].job];
        bool ready = true;
        for (int k = 0; k < job->n_after && ready; k++) {
            int pi = by_plan_job(v, n, job->after[k]);
            ready = pi < 0 || v[pi].done;
        }
        if (ready && (best < 0 || v[i].pj->start_slot.v < v[best].pj->start_slot.v))
            best = i;
    }
    return best;
}

/* Job j's " --dependency=afterok:$jA:$jB" into dep, with a warning for
 * each predecessor Slurm waits for or cannot wait for. */
static void put_deps(const cp_input *in, const cp_plan_file *pf, const cp_xp_sjob *v, int n,
                     const cp_xp_sjob *j, cp_buf *dep, cp_diags *d)
{
    const cp_job *job = &in->jobs[j->job];
    cp_buf_reset(dep);
    int deps = 0;
    for (int k = 0; k < job->n_after; k++) {
        int pi = by_plan_job(v, n, job->after[k]);
        const char *pn = in->jobs[job->after[k]].name;
        if (pi >= 0) {
            cp_buf_puts(dep, deps++ ? ":$" : " --dependency=afterok:$");
            put_var(dep, &v[pi]);
            if (v[pi].pj->start_slot.v + v[pi].pj->slots.v > j->pj->start_slot.v)
                cp_diags_warn(d, j->pj->pos,
                              "job '%s' starts in slot %ld, before its predecessor '%s' "
                              "ends: Slurm will wait for it",
                              job->name, j->pj->start_slot.v, pn);
            continue;
        }
        const cp_plan_job *pp = plan_job_named(pf, pn);
        cp_diags_warn(d, j->pj->pos, "job '%s' runs after '%s', which %s: Slurm cannot wait for it",
                      job->name, pn, pp && pp->scheduled ? "runs in the cloud" : "the plan drops");
    }
}

/* submit.sh's sbatch line of each job, in dependency order, and the job's
 * script. The scripts are added to x while submit.sh is written, and
 * cp_export_add may move x->files: submit.sh is held by its index. */
static int submit_jobs(const cp_input *in, const cp_plan_file *pf, const cp_export_opts *o,
                       cp_xp_sjob *v, int n, long start, bool utc, cp_export *x, int sub_at,
                       cp_diags *d)
{
    cp_buf dep; /* a job's " --dependency=afterok:$jA:$jB" */
    cp_buf_init(&dep);
    int rc = CP_OK;
    for (int done = 0; done < n; done++) {
        int best = next_ready(in, v, n);
        if (best < 0)
            break; /* the loader refuses cycles */
        cp_xp_sjob *j = &v[best];
        j->done = true;
        put_deps(in, pf, v, n, j, &dep, d);
        if (!cp_buf_ok(&dep)) {
            rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
            break;
        }
        cp_xp_slurm_submit(&x->files[sub_at].text, j, in->jobs[j->job].name, dep.s);
        if ((rc = cp_xp_slurm_script(in, j, o, start, utc, x, d)))
            break;
        x->n_jobs++;
    }
    cp_buf_release(&dep);
    return rc;
}

/* The dropped jobs as comment lines of submit.sh, with their reasons. */
static void put_dropped(cp_buf *b, const cp_plan_file *pf, cp_export *x)
{
    for (int i = 0; i < pf->n_jobs; i++) {
        const cp_plan_job *pj = &pf->jobs[i];
        if (!pj->dropped)
            continue;
        cp_buf_puts(b, "# dropped: ");
        cp_sh_quote(b, pname(&pj->name));
        if (pj->reason.has == CP_PLAN_SET) {
            cp_buf_puts(b, ": ");
            /* a reason is one line of the plan's own text; control
             * characters become spaces so the comment stays one line */
            for (const char *s = pj->reason.s; *s; s++)
                cp_buf_putc(b, (unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s);
        }
        cp_buf_putc(b, '\n');
        x->n_dropped++;
    }
}

int cp_export_slurm(const cp_input *in, const cp_plan_file *pf, const cp_export_opts *o,
                    cp_export *x, cp_diags *d)
{
    int n = 0, rc = CP_OK;
    for (int i = 0; i < pf->n_jobs; i++)
        n += pf->jobs[i].scheduled && pf->jobs[i].mk == CP_PLAN_POOL;
    cp_xp_sjob *v = cp_calloc((size_t)(n ? n : 1), sizeof *v);
    if (!v)
        return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    const int errs0 = d->n - d->n_warnings + d->dropped;
    n = collect_jobs(in, pf, v, d);
    long start = 0;
    bool utc = false;
    const bool svcs = cp_xp_slurm_has_services(pf);
    if ((n || svcs) && !o->begin_now)
        read_start(in, n ? "jobs" : "replicas", &start, &utc, d);
    check_names(in, pf, v, n, d);
    if (d->n - d->n_warnings + d->dropped > errs0) {
        rc = d->worst ? d->worst : CP_ERR_INPUT;
        goto out;
    }
    cp_export_file *sub = cp_export_add(x, "submit.sh", true);
    if (!sub) {
        rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
        goto out;
    }
    const int sub_at = x->n - 1;
    char what[300];
    snprintf(what, sizeof what,
             "# submits the plan's %d pool job%s in dependency order; prints one line per\n"
             "# job: its Slurm job id and its name%s\n",
             n, n == 1 ? "" : "s",
             svcs ? "; then each run of a service's replica on a\n# node (services/, "
                    "capplan.5 §10.4)"
                  : "");
    cp_xp_slurm_opening(&sub->text, o, utc, what);
    if ((rc = submit_jobs(in, pf, o, v, n, start, utc, x, sub_at, d)))
        goto out;
    cp_buf *b = &x->files[sub_at].text;
    put_dropped(b, pf, x);
    if (!cp_buf_ok(b))
        rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    else if (svcs)
        rc = cp_xp_slurm_services(in, pf, o, start, x, sub_at, d);
out:
    for (int i = 0; i < n; i++)
        cp_free(v[i].nodes);
    cp_free(v);
    return rc;
}
