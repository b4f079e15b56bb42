/*
 * `capplan export slurm`: the services' replicas on pools (capplan.5
 * §10.4; docs/execution.md, "Services on Slurm").
 *
 * One script per pool deployment of a service (a configuration on a
 * pool), services/NNN-NAME-cC-POOL.sbatch: one replica as one Slurm job of
 * one task on one node, with the configuration's CPUs, memory and
 * accelerators (--gres=gpu:TYPE:COUNT), the CAPPLAN_SERVICE, CAPPLAN_CONFIG,
 * CAPPLAN_ACCELERATOR and CAPPLAN_ACCELERATOR_COUNT variables, then the
 * service's `run` (or a line that fails loudly). The plan's `nodes` place
 * each replica of each slot on a node; a replica that stays on one node
 * over consecutive slots is one run (on a node whose replicas go from a to
 * b, min(a, b) runs go on and the others end or begin), and submit.sh
 * submits the script once per run, with the run's --begin (its first
 * slot), --time (its slots) and --nodelist (its node's host), and its port
 * in CAPPLAN_PORT: the service's `port` plus the smallest offset no other
 * replica on that host uses at the same time (so replicas side by side on
 * one node serve on ports of their own).
 *
 * Each run's --comment is its key, capplan-run:NAME:cC:HOST:START-END:PORT,
 * by which a re-plan's replan.sh finds it (export slurm --from, capplan.5
 * §10.5): OLD's runs that the re-plan does not run alike and that have not
 * ended by slot S are cancelled (a running one too, when its replica stops
 * at S), and the re-plan's runs that OLD lacks are submitted from S on,
 * their scripts numbered as OLD's for the same deployment. A replica that
 * runs at S in both plans on one node and port but ends elsewhere is not
 * restarted: its job takes the re-plan's key (scontrol update Comment=)
 * and an earlier end (TimeLimit=), or is followed by a run from its end.
 *
 * These options differ per run, so they are on submit.sh's sbatch line,
 * single-quoted like every value written into shell code there; the
 * script's directives are the ones every run shares. Names are hostile:
 * the service's and the pool's are single-quoted in code and comments,
 * sanitized in --job-name and file names; one with a control character is
 * refused.
 */
#include "export_internal.h"

#include "cp_alloc.h"
#include "cp_limits.h"
#include "cp_num.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define CP_SLURM_MAX_MB 1000000000000L

/* One run of a replica: on node `node` of its deployment's pool over
 * slots [start, end). */
typedef struct run {
    int dep, node;
    int start, end;
    int port;
    int begin; /* its submission's first slot: start, or a re-plan's S */
} run;

/* A pool deployment. */
typedef struct pdep {
    int svc, pool;
    const cp_plan_svc_dep *de;
    int first, n_runs; /* its runs in the runs array */
    int num;           /* NNN of its script */
} pdep;

typedef struct runs {
    run *r;
    int n, cap;
} runs;

static run *add_run(runs *v)
{
    if (v->n == v->cap) {
        int cap = v->cap ? 2 * v->cap : 16;
        run *r = cp_reallocarray(v->r, (size_t)cap, sizeof *r);
        if (!r)
            return NULL;
        v->r = r;
        v->cap = cap;
    }
    return &v->r[v->n++];
}

/* The node index of "POOL/i" of pool p, or -1. */
static int node_of(const cp_pool *p, const char *id)
{
    size_t n = strlen(p->name);
    if (!id || strncmp(id, p->name, n) || id[n] != '/' || !id[n + 1])
        return -1;
    long v = 0;
    for (const char *s = id + n + 1; *s; s++) {
        if (*s < '0' || *s > '9' || v > 10000000)
            return -1;
        v = v * 10 + (*s - '0');
    }
    return v < p->nodes ? (int)v : -1;
}

/* The runs of deployment di (pool p) into v; errors to d. */
static int dep_runs(const cp_input *in, const pdep *pd, int di, runs *v, cp_diags *d)
{
    const cp_pool *p = &in->pools[pd->pool];
    const cp_plan_svc_dep *de = pd->de;
    const char *name = in->services[pd->svc].name;
    int *open = cp_calloc((size_t)p->nodes, sizeof *open); /* runs open per node */
    int *want = cp_calloc((size_t)p->nodes, sizeof *want);
    int rc = CP_OK;
    if (!open || !want) {
        rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
        goto out;
    }
    for (int t = 0; t <= in->slots; t++) {
        memset(want, 0, (size_t)p->nodes * sizeof *want);
        int k = t < in->slots ? (int)de->replicas.v[t] : 0;
        if (k && (de->nodes_has != CP_PLAN_SET || t >= de->n_nodes || de->nodes[t].n != k)) {
            rc = cp_diags_add(d, CP_ERR_INPUT, de->pos,
                              "service '%s': its deployment on pool '%s' has no node for each "
                              "replica of slot %d: export needs a placed plan (one written by "
                              "'capplan plan')",
                              name, p->name, t);
            goto out;
        }
        for (int r = 0; r < k; r++) {
            int node = node_of(p, de->nodes[t].s[r]);
            if (node < 0) {
                rc = cp_diags_add(d, CP_ERR_INPUT, de->nodes_pos,
                                  "service '%s': '%s' is not a node of pool '%s'", name,
                                  de->nodes[t].s[r] ? de->nodes[t].s[r] : "", p->name);
                goto out;
            }
            want[node]++;
        }
        for (int node = 0; node < p->nodes; node++) {
            /* the latest runs on the node end first */
            for (int i = v->n - 1; i >= 0 && open[node] > want[node]; i--) {
                run *r = &v->r[i];
                if (r->dep == di && r->node == node && r->end < 0) {
                    r->end = t;
                    open[node]--;
                }
            }
            while (open[node] < want[node]) {
                run *r = add_run(v);
                if (!r) {
                    rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
                    goto out;
                }
                *r = (run){di, node, t, -1, 0, t};
                open[node]++;
            }
        }
    }
out:
    cp_free(open);
    cp_free(want);
    return rc;
}

/* Ports: each run gets its service's port plus the smallest offset that
 * no run before it on the same host and at the same time has. */
static int assign_ports(const cp_input *in, const pdep *pd, runs *v, cp_diags *d)
{
    for (int i = 0; i < v->n; i++) {
        run *r = &v->r[i];
        const cp_service *sv = &in->services[pd[r->dep].svc];
        for (int port = sv->port;; port++) {
            if (port > 65535)
                return cp_diags_add(d, CP_ERR_INPUT, sv->pos,
                                    "service '%s': its replicas on host '%s' need ports past "
                                    "65535",
                                    sv->name, in->pools[pd[r->dep].pool].hosts[r->node]);
            bool used = false;
            for (int k = 0; k < i && !used; k++) {
                const run *o = &v->r[k];
                used = o->port == port && pd[o->dep].pool == pd[r->dep].pool &&
                       o->node == r->node && o->start < r->end && r->start < o->end;
            }
            if (!used) {
                r->port = port;
                break;
            }
        }
    }
    return CP_OK;
}

static void put_env(cp_buf *b, const char *key, const char *val, bool quote)
{
    cp_buf_printf(b, "%s=", key);
    if (quote)
        cp_sh_quote(b, val);
    else
        cp_buf_puts(b, val);
    cp_buf_putc(b, '\n');
}

/* services/NNN-NAME-cC-POOL.sbatch of deployment pd into f. */
static int write_script(const cp_input *in, const pdep *pd, const cp_export_opts *o, cp_buf *b,
                        cp_diags *d)
{
    const cp_service *sv = &in->services[pd->svc];
    const cp_pool *p = &in->pools[pd->pool];
    const cp_svc_config *cf = &sv->configs[pd->de->config.v];
    const char *type = in->accels[cf->acc].name;
    long cpt, mb;
    if (cp_num_to_long(ceil(cf->cpus - 1e-9), 1, CP_INPUT_COUNT_MAX, &cpt) > CP_NUM_BELOW)
        return cp_diags_add(d, CP_ERR_INPUT, cf->pos,
                            "service '%s': %g CPUs is not a count Slurm can take", sv->name,
                            cf->cpus);
    if (cp_num_to_long(ceil(cf->memory_gb * 1024 - 1e-6), 1, CP_SLURM_MAX_MB, &mb) > CP_NUM_BELOW)
        return cp_diags_add(d, CP_ERR_INPUT, cf->pos,
                            "service '%s': %g GB of memory is not a size Slurm can take",
                            sv->name, cf->memory_gb);
    if (!cp_xp_slurm_word(type))
        return cp_diags_add(d, CP_ERR_INPUT, in->accels[cf->acc].pos,
                            "accelerator '%s' cannot be a Slurm GRES type (letters, digits, '.', "
                            "'_', '-' only)",
                            type);
    cp_buf_puts(b, "#!/bin/sh\n");
    cp_xp_slurm_header(b, o);
    cp_buf_puts(b, "# a replica of service ");
    cp_sh_quote(b, sv->name);
    cp_buf_printf(b, ", configuration %ld (%d x %s), on pool ", pd->de->config.v, cf->count, type);
    cp_sh_quote(b, p->name);
    cp_buf_printf(b, ":\n# submit.sh submits it once per run of a replica on a node (%d runs), "
                     "with the run's\n# --begin, --time, --nodelist and port (CAPPLAN_PORT)\n",
                  pd->n_runs);
    cp_buf_puts(b, "#SBATCH --job-name=");
    cp_xp_slurm_name(b, sv->name);
    cp_buf_printf(b, "\n#SBATCH --nodes=1\n#SBATCH --ntasks-per-node=1\n#SBATCH "
                     "--cpus-per-task=%ld\n#SBATCH --mem=%ldM\n#SBATCH --gres=gpu:%s:%d\n\n",
                  cpt, mb, type, cf->count);
    char num[24];
    put_env(b, "CAPPLAN_SERVICE", sv->name, true);
    snprintf(num, sizeof num, "%ld", pd->de->config.v);
    put_env(b, "CAPPLAN_CONFIG", num, false);
    put_env(b, "CAPPLAN_ACCELERATOR", type, true);
    snprintf(num, sizeof num, "%d", cf->count);
    put_env(b, "CAPPLAN_ACCELERATOR_COUNT", num, false);
    cp_buf_puts(b, "export CAPPLAN_SERVICE CAPPLAN_CONFIG CAPPLAN_ACCELERATOR "
                   "CAPPLAN_ACCELERATOR_COUNT\n");
    return cp_xp_put_run(b, "service", sv->name, sv->run)
               ? CP_OK
               : cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
}

/* Run r's key, what its --comment says and a re-plan finds it by (squeue
 * %k): capplan-run:NAME:cC:HOST:START-END:PORT, NAME as --job-name says
 * it; the port tells apart the runs of one slot span on one host. */
static void put_key(cp_buf *b, const cp_input *in, const pdep *pd, const run *r)
{
    cp_buf_puts(b, "capplan-run:");
    cp_xp_slurm_name(b, in->services[pd->svc].name);
    cp_buf_printf(b, ":c%ld:%s:%d-%d:%d", pd->de->config.v, in->pools[pd->pool].hosts[r->node],
                  r->start, r->end, r->port);
}

/* The lines of run r (number k) of deployment pd, script `file`, from
 * slot r->begin; with --begin now, `origin` is the slot at which the
 * script runs (0 for submit.sh, S for a re-plan's replan.sh). */
static int put_submit(const cp_input *in, const pdep *pd, const run *r, int k, const char *file,
                      const cp_export_opts *o, long start, int origin, cp_buf *b, cp_diags *d)
{
    const cp_service *sv = &in->services[pd->svc];
    const char *host = in->pools[pd->pool].hosts[r->node];
    cp_buf opt;
    cp_buf_init(&opt);
    cp_buf_printf(b, "s%d=$(sbatch --parsable ", k);
    long at, secs = (long)llround((r->begin - origin) * in->slot_hours * 3600);
    if (o->begin_now && secs > 0) {
        cp_buf_printf(&opt, "--begin=now+%ld", secs);
    } else if (!o->begin_now) {
        if (!cp_xp_time_after(start, r->begin * in->slot_hours, &at))
            return cp_diags_add(d, CP_ERR_INPUT, pd->de->pos,
                                "service '%s': slot %d of %g hours is past the year 9999: no "
                                "--begin time can say it",
                                sv->name, r->begin, in->slot_hours);
        cp_buf_puts(&opt, "--begin=");
        cp_xp_put_time(&opt, at);
    }
    if (opt.len) {
        cp_sh_quote(b, opt.s);
        cp_buf_putc(b, ' ');
    }
    cp_buf_reset(&opt);
    cp_buf_puts(&opt, "--time=");
    bool ok = cp_slurm_time(&opt, (r->end - r->begin) * in->slot_hours * 60);
    if (ok) {
        cp_sh_quote(b, opt.s ? opt.s : "");
        cp_buf_putc(b, ' ');
    }
    cp_buf_reset(&opt);
    cp_buf_printf(&opt, "--nodelist=%s", host);
    cp_sh_quote(b, opt.s ? opt.s : "");
    cp_buf_reset(&opt);
    cp_buf_printf(&opt, "--export=ALL,CAPPLAN_PORT=%d", r->port);
    cp_buf_putc(b, ' ');
    cp_sh_quote(b, opt.s ? opt.s : "");
    cp_buf_reset(&opt);
    cp_buf_puts(&opt, "--comment=");
    put_key(&opt, in, pd, r);
    cp_buf_putc(b, ' ');
    cp_sh_quote(b, opt.s ? opt.s : "");
    cp_buf_printf(b, " %s)\ns%d=${s%d%%%%;*}\nprintf '%%s %%s\\n' \"$s%d\" ", file, k, k, k);
    cp_buf_reset(&opt);
    cp_buf_printf(&opt, "%s: replica on %s from slot %d to %d, port %d", sv->name, host, r->begin,
                  r->end, r->port);
    cp_sh_quote(b, opt.s ? opt.s : "");
    cp_buf_putc(b, '\n');
    int rc = cp_buf_ok(&opt) ? CP_OK : cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    cp_buf_release(&opt);
    if (!ok)
        return cp_diags_add(d, CP_ERR_INPUT, pd->de->pos,
                            "service '%s': a replica of %d slots of %g hours is longer than "
                            "Slurm's longest time limit (%ld minutes)",
                            sv->name, r->end - r->start, in->slot_hours, CP_SLURM_MAX_MINUTES);
    return rc;
}

bool cp_xp_slurm_has_services(const cp_plan_file *pf)
{
    for (int k = 0; k < pf->n_svcs; k++)
        for (int i = 0; i < pf->svcs[k].n_deps; i++) {
            const cp_plan_svc_dep *de = &pf->svcs[k].deps[i];
            for (int t = 0; de->mk == CP_PLAN_POOL && t < de->replicas.n; t++)
                if (de->replicas.v[t] > 0)
                    return true;
        }
    return false;
}

/* The services' pool deployments of a plan and their runs, ports set. */
typedef struct svc_runs {
    pdep *pd;
    int nd;
    runs v;
} svc_runs;

static void svc_runs_release(svc_runs *s)
{
    cp_free(s->pd);
    cp_free(s->v.r);
}

/* Deployment i of service e (input index sv) when it is a pool one the
 * scripts can run, with its pool into *pool; errors to d. */
static bool pool_dep(const cp_input *in, const cp_plan_svc *e, int sv, int i, int *pool,
                     cp_diags *d)
{
    const char *name = e->name.has == CP_PLAN_SET ? e->name.s : "";
    const cp_plan_svc_dep *de = &e->deps[i];
    bool any = false;
    for (int t = 0; de->mk == CP_PLAN_POOL && t < de->replicas.n; t++)
        any |= de->replicas.v[t] > 0;
    if (!any)
        return false;
    int p = de->resource.has == CP_PLAN_SET ? cp_input_find_pool(in, de->resource.s) : -1;
    if (sv < 0 || p < 0 || de->config.v < 0 || de->config.v >= in->services[sv].n_configs ||
        de->replicas.n != in->slots) {
        cp_diags_add(d, CP_ERR_INPUT, de->pos,
                     "service '%s': deployment %d does not match the inputs (run capplan verify)",
                     name, i + 1);
        return false;
    }
    for (int t = 0; t < in->slots; t++) {
        double r = de->replicas.v[t];
        if (!(r >= 0 && r <= CP_INPUT_COUNT_MAX && r == floor(r))) {
            cp_diags_add(d, CP_ERR_INPUT, de->pos,
                         "service '%s': deployment %d has %g replicas in slot %d (run capplan "
                         "verify)",
                         name, i + 1, r, t);
            return false;
        }
    }
    if (!cp_xp_name_ok(d, e->name.pos, "a service", name) ||
        !cp_xp_name_ok(d, in->pools[p].pos, "a pool", in->pools[p].name))
        return false;
    if (!in->pools[p].hosts) {
        cp_diags_add(d, CP_ERR_INPUT, in->pools[p].pos,
                     "pool '%s' has no 'hosts': service '%s' has replicas on its nodes, and "
                     "export needs their host names (add hosts: [NAME, ...] or hosts: "
                     "\"PATTERN-%%02d\" to the pool; docs/spec-notes.md)",
                     in->pools[p].name, name);
        return false;
    }
    *pool = p;
    return true;
}

/* The pool deployments of pf and their runs into s; errors to d. */
static int plan_runs(const cp_input *in, const cp_plan_file *pf, svc_runs *s, cp_diags *d)
{
    int n = 0;
    for (int k = 0; k < pf->n_svcs; k++)
        n += pf->svcs[k].n_deps;
    if (!(s->pd = cp_calloc((size_t)(n ? n : 1), sizeof *s->pd)))
        return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    const int errs0 = d->n - d->n_warnings + d->dropped;
    for (int k = 0; k < pf->n_svcs; k++) {
        const cp_plan_svc *e = &pf->svcs[k];
        int sv = cp_input_find_service(in, e->name.has == CP_PLAN_SET ? e->name.s : "");
        for (int i = 0, pool; i < e->n_deps; i++)
            if (pool_dep(in, e, sv, i, &pool, d)) {
                s->pd[s->nd] = (pdep){sv, pool, &e->deps[i], 0, 0, s->nd + 1};
                s->nd++;
            }
    }
    for (int i = 0; i < s->nd && d->n - d->n_warnings + d->dropped == errs0; i++) {
        s->pd[i].first = s->v.n;
        if (dep_runs(in, &s->pd[i], i, &s->v, d))
            break;
        s->pd[i].n_runs = s->v.n - s->pd[i].first;
    }
    if (d->n - d->n_warnings + d->dropped > errs0 || assign_ports(in, s->pd, &s->v, d))
        return d->worst ? d->worst : CP_ERR_INPUT;
    return CP_OK;
}

/* Adds deployment pd's script, services/NNN-NAME-cC-POOL.sbatch, to x;
 * its name into fn. */
static int add_script(const cp_input *in, const pdep *pd, const cp_export_opts *o, cp_export *x,
                      cp_buf *fn, cp_diags *d)
{
    cp_buf_reset(fn);
    cp_buf_printf(fn, "services/%03d-", pd->num);
    cp_xp_file_word(fn, in->services[pd->svc].name, 50);
    cp_buf_printf(fn, "-c%ld-", pd->de->config.v);
    cp_xp_file_word(fn, in->pools[pd->pool].name, 40);
    cp_buf_puts(fn, ".sbatch");
    cp_export_file *f = cp_buf_ok(fn) ? cp_export_add(x, fn->s, true) : NULL;
    if (!f)
        return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    return write_script(in, pd, o, &f->text, d);
}

/* "# service 'NAME', configuration C on pool 'POOL': " */
static void put_dep_comment(cp_buf *b, const cp_input *in, const pdep *pd)
{
    cp_buf_puts(b, "# service ");
    cp_sh_quote(b, in->services[pd->svc].name);
    cp_buf_printf(b, ", configuration %ld on pool ", pd->de->config.v);
    cp_sh_quote(b, in->pools[pd->pool].name);
    cp_buf_puts(b, ": ");
}

int cp_xp_slurm_services(const cp_input *in, const cp_plan_file *pf, const cp_export_opts *o,
                         long start, cp_export *x, int sub_at, cp_diags *d)
{
    svc_runs s = {NULL, 0, {NULL, 0, 0}};
    cp_buf fn;
    cp_buf_init(&fn);
    int rc = plan_runs(in, pf, &s, d);
    for (int i = 0; i < s.nd && rc == CP_OK; i++) {
        const pdep *pd = &s.pd[i];
        if ((rc = add_script(in, pd, o, x, &fn, d)))
            break;
        cp_buf *b = &x->files[sub_at].text;
        put_dep_comment(b, in, pd);
        cp_buf_printf(b, "%d replica run%s\n", pd->n_runs, pd->n_runs == 1 ? "" : "s");
        for (int k = 0; k < pd->n_runs && rc == CP_OK; k++) {
            rc = put_submit(in, pd, &s.v.r[pd->first + k], pd->first + k + 1, fn.s, o, start, 0,
                            b, d);
            x->n_services++;
        }
        if (rc == CP_OK && !cp_buf_ok(b))
            rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    }
    svc_runs_release(&s);
    cp_buf_release(&fn);
    return rc;
}

/* ---- a re-plan (capplan.5 §10.5): export slurm --from OLD --now S ---- */

static bool same_dep(const pdep *a, const pdep *b)
{
    return a->svc == b->svc && a->pool == b->pool && a->de->config.v == b->de->config.v;
}

/* Whether run r of s is a run of t: the same deployment, node, slots and
 * port. */
static bool has_run(const svc_runs *s, const run *r, const svc_runs *t)
{
    for (int i = 0; i < t->v.n; i++) {
        const run *q = &t->v.r[i];
        if (same_dep(&s->pd[r->dep], &t->pd[q->dep]) && q->node == r->node &&
            q->start == r->start && q->end == r->end && q->port == r->port)
            return true;
    }
    return false;
}

/* A replica that runs at S in both plans on one node and port with
 * another end: run r of s begun before S and not ended, and t's run with
 * the same deployment, node, start and port that does not end by S
 * either, or NULL. Its Slurm job goes on (carry_over). */
static const run *same_replica(const svc_runs *s, const run *r, const svc_runs *t, int now)
{
    if (r->start >= now || r->end <= now)
        return NULL;
    for (int i = 0; i < t->v.n; i++) {
        const run *q = &t->v.r[i];
        if (same_dep(&s->pd[r->dep], &t->pd[q->dep]) && q->node == r->node &&
            q->start == r->start && q->port == r->port && q->end > now && q->end != r->end)
            return q;
    }
    return NULL;
}

/* OLD's run o, running at S, that the re-plan's run r goes on with: its
 * job takes r's key (scontrol update Comment=, so a later re-plan finds
 * it), and r's end when that is earlier (TimeLimit=: a user may cut a
 * limit, not raise it; a later end is a run from o's end, submitted
 * with r's key). */
static void carry_over(cp_buf *b, const cp_input *in, const pdep *pd, const run *o, const run *r,
                       cp_buf *msg)
{
    cp_buf_reset(msg);
    put_key(msg, in, pd, o);
    cp_buf_puts(b, "for id in $(run_ids ");
    cp_sh_quote(b, msg->s ? msg->s : "");
    cp_buf_puts(b, "); do scontrol update JobId=\"$id\" ");
    if (r->end < o->end) {
        cp_buf_reset(msg);
        cp_buf_puts(msg, "TimeLimit=");
        /* a run's limit was written so (put_submit): a shorter one is too */
        cp_slurm_time(msg, (r->end - r->start) * in->slot_hours * 60);
        cp_sh_quote(b, msg->s ? msg->s : "");
        cp_buf_putc(b, ' ');
    }
    cp_buf_reset(msg);
    cp_buf_puts(msg, "Comment=");
    put_key(msg, in, pd, r);
    cp_sh_quote(b, msg->s ? msg->s : "");
    cp_buf_puts(b, " && printf '%s %s\\n' \"$id\" ");
    cp_buf_reset(msg);
    cp_buf_printf(msg, "%s: replica on %s from slot %d to %d, port %d, kept",
                  in->services[pd->svc].name, in->pools[pd->pool].hosts[o->node], o->start,
                  o->end, o->port);
    if (r->end < o->end)
        cp_buf_printf(msg, " to slot %d", r->end);
    else
        cp_buf_printf(msg, "; a run from slot %d follows", o->end);
    cp_sh_quote(b, msg->s ? msg->s : "");
    cp_buf_puts(b, "; done\n");
}

/* OLD's runs that the re-plan does not run as OLD did and that are still
 * queued or running at S: cancelled by their key (--comment), but for a
 * running replica the re-plan keeps on its node and port (carry_over).
 * False when out of memory. */
static bool put_cancels(cp_buf *b, const cp_input *in, const svc_runs *os, const svc_runs *ns,
                        int now)
{
    cp_buf msg;
    cp_buf_init(&msg);
    for (int i = 0; i < os->v.n; i++) {
        const run *r = &os->v.r[i], *q;
        const pdep *pd = &os->pd[r->dep];
        if (r->end <= now || has_run(os, r, ns))
            continue;
        if ((q = same_replica(os, r, ns, now))) {
            carry_over(b, in, pd, r, q, &msg);
            continue;
        }
        cp_buf_reset(&msg);
        put_key(&msg, in, pd, r);
        cp_buf_puts(b, "for id in $(run_ids ");
        cp_sh_quote(b, msg.s ? msg.s : "");
        cp_buf_puts(b, "); do scancel \"$id\" && printf '%s %s\\n' \"$id\" ");
        cp_buf_reset(&msg);
        cp_buf_printf(&msg, "%s: replica on %s from slot %d to %d, port %d, cancelled%s",
                      in->services[pd->svc].name, in->pools[pd->pool].hosts[r->node], r->start,
                      r->end, r->port, r->start < now ? " (it had started)" : "");
        cp_sh_quote(b, msg.s ? msg.s : "");
        cp_buf_puts(b, "; done\n");
    }
    bool ok = cp_buf_ok(&msg);
    cp_buf_release(&msg);
    return ok;
}

/* Run r (a copy) of the re-plan that OLD does not run alike, from its
 * first slot to submit: S, or the end of OLD's run it goes on from; -1
 * when there is nothing to submit (ended by S, or OLD's run covers it). */
static int submit_from(const svc_runs *ns, const run *r, const svc_runs *os, int now)
{
    if (r->end <= now || has_run(ns, r, os))
        return -1;
    const run *o = same_replica(ns, r, os, now);
    if (o)
        return o->end < r->end ? o->end : -1;
    return r->start > now ? r->start : now;
}

int cp_xp_slurm_services_replan(const cp_input *in, const cp_plan_file *pf,
                                const cp_plan_file *old, int now, const cp_export_opts *o,
                                long start, cp_export *x, int at, cp_diags *d)
{
    svc_runs os = {NULL, 0, {NULL, 0, 0}}, ns = {NULL, 0, {NULL, 0, 0}};
    cp_buf fn;
    cp_buf_init(&fn);
    int rc = plan_runs(in, old, &os, d);
    if (rc == CP_OK)
        rc = plan_runs(in, pf, &ns, d);
    /* a deployment keeps OLD's script number; a new one gets one past OLD's */
    for (int i = 0, next = os.nd; i < ns.nd && rc == CP_OK; i++) {
        int w = 0;
        while (w < os.nd && !same_dep(&ns.pd[i], &os.pd[w]))
            w++;
        ns.pd[i].num = w < os.nd ? os.pd[w].num : ++next;
    }
    if (rc == CP_OK && (os.nd || ns.nd)) {
        cp_buf *b = &x->files[at].text;
        cp_buf_puts(b, "# services (capplan.5 §10.4): OLD's replica runs the re-plan does not run "
                       "as OLD did,\n# found by their --comment, are cancelled (a running "
                       "replica it keeps runs on, re-keyed);\n# its own are submitted from this "
                       "slot on\n"
                       "run_ids() { squeue -h -u \"$(id -un)\" -o '%i %k' | awk -v k=\"$1\" "
                       "'$2 == k { print $1 }'; }\n");
        if (!put_cancels(b, in, &os, &ns, now))
            rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    }
    for (int i = 0; i < ns.nd && rc == CP_OK; i++) {
        const pdep *pd = &ns.pd[i];
        int fresh = 0, kept = 0;
        for (int k = 0; k < pd->n_runs; k++) {
            const run *r = &ns.v.r[pd->first + k];
            kept += r->end > now && submit_from(&ns, r, &os, now) < 0;
            fresh += submit_from(&ns, r, &os, now) >= 0;
        }
        cp_buf *b = &x->files[at].text;
        put_dep_comment(b, in, pd);
        cp_buf_printf(b, "%d replica run%s kept, %d new from slot %d on\n", kept,
                      kept == 1 ? "" : "s", fresh, now);
        if (!fresh)
            continue;
        if ((rc = add_script(in, pd, o, x, &fn, d)))
            break;
        b = &x->files[at].text;
        for (int k = 0; k < pd->n_runs && rc == CP_OK; k++) {
            run r = ns.v.r[pd->first + k];
            if ((r.begin = submit_from(&ns, &r, &os, now)) < 0)
                continue;
            rc = put_submit(in, pd, &r, pd->first + k + 1, fn.s, o, start, now, b, d);
            x->n_services++;
        }
        if (rc == CP_OK && !cp_buf_ok(b))
            rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    }
    svc_runs_release(&os);
    svc_runs_release(&ns);
    cp_buf_release(&fn);
    return rc;
}
