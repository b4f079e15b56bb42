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
} run;

/* A pool deployment. */
typedef struct pdep {
    int svc, pool;
    const cp_plan_svc_dep *de;
    int first, n_runs; /* its runs in the runs array */
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
                *r = (run){di, node, t, -1, 0};
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

/* submit.sh's lines of run r (number k) of deployment pd, script `file`. */
static int put_submit(const cp_input *in, const pdep *pd, const run *r, int k, const char *file,
                      const cp_export_opts *o, long start, cp_buf *b, cp_diags *d)
{
    const cp_service *sv = &in->services[pd->svc];
    const char *host = in->pools[pd->pool].hosts[r->node];
    cp_buf opt;
    cp_buf_init(&opt);
    cp_buf_printf(b, "s%d=$(sbatch --parsable ", k);
    long at, secs = (long)llround(r->start * in->slot_hours * 3600);
    if (o->begin_now && secs > 0) {
        cp_buf_printf(&opt, "--begin=now+%ld", secs);
    } else if (!o->begin_now) {
        if (!cp_xp_time_after(start, r->start * in->slot_hours, &at))
            return cp_diags_add(d, CP_ERR_INPUT, pd->de->pos,
                                "service '%s': slot %d of %g hours is past the year 9999: no "
                                "--begin time can say it",
                                sv->name, r->start, in->slot_hours);
        cp_buf_puts(&opt, "--begin=");
        cp_xp_put_time(&opt, at);
    }
    if (opt.len) {
        cp_sh_quote(b, opt.s);
        cp_buf_putc(b, ' ');
    }
    cp_buf_reset(&opt);
    cp_buf_puts(&opt, "--time=");
    bool ok = cp_slurm_time(&opt, (r->end - r->start) * in->slot_hours * 60);
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
    cp_buf_printf(b, " %s)\ns%d=${s%d%%%%;*}\nprintf '%%s %%s\\n' \"$s%d\" ", file, k, k, k);
    cp_buf_reset(&opt);
    cp_buf_printf(&opt, "%s: replica on %s from slot %d to %d, port %d", sv->name, host, r->start,
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

int cp_xp_slurm_services(const cp_input *in, const cp_plan_file *pf, const cp_export_opts *o,
                         long start, cp_export *x, int sub_at, cp_diags *d)
{
    int n = 0, nd = 0, rc = CP_OK;
    for (int k = 0; k < pf->n_svcs; k++)
        n += pf->svcs[k].n_deps;
    pdep *pd = cp_calloc((size_t)(n ? n : 1), sizeof *pd);
    runs v = {NULL, 0, 0};
    cp_buf fn;
    cp_buf_init(&fn);
    if (!pd)
        return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    const int errs0 = d->n - d->n_warnings + d->dropped;
    for (int k = 0; k < pf->n_svcs; k++) {
        const cp_plan_svc *e = &pf->svcs[k];
        const char *name = e->name.has == CP_PLAN_SET ? e->name.s : "";
        int sv = cp_input_find_service(in, name);
        for (int i = 0; i < e->n_deps; i++) {
            const cp_plan_svc_dep *de = &e->deps[i];
            bool any = false;
            for (int t = 0; de->mk == CP_PLAN_POOL && t < de->replicas.n; t++)
                any |= de->replicas.v[t] > 0;
            if (!any)
                continue;
            int pool = de->resource.has == CP_PLAN_SET ? cp_input_find_pool(in, de->resource.s)
                                                       : -1;
            if (sv < 0 || pool < 0 || de->config.v < 0 ||
                de->config.v >= in->services[sv].n_configs || de->replicas.n != in->slots) {
                cp_diags_add(d, CP_ERR_INPUT, de->pos,
                             "service '%s': deployment %d does not match the inputs (run "
                             "capplan verify)",
                             name, i + 1);
                continue;
            }
            for (int t = 0; t < in->slots; t++) {
                double r = de->replicas.v[t];
                if (!(r >= 0 && r <= CP_INPUT_COUNT_MAX && r == floor(r))) {
                    cp_diags_add(d, CP_ERR_INPUT, de->pos,
                                 "service '%s': deployment %d has %g replicas in slot %d (run "
                                 "capplan verify)",
                                 name, i + 1, r, t);
                    break;
                }
            }
            if (!cp_xp_name_ok(d, e->name.pos, "a service", name) ||
                !cp_xp_name_ok(d, in->pools[pool].pos, "a pool", in->pools[pool].name))
                continue;
            if (!in->pools[pool].hosts) {
                cp_diags_add(d, CP_ERR_INPUT, in->pools[pool].pos,
                             "pool '%s' has no 'hosts': service '%s' has replicas on its nodes, "
                             "and export needs their host names (add hosts: [NAME, ...] or "
                             "hosts: \"PATTERN-%%02d\" to the pool; docs/spec-notes.md)",
                             in->pools[pool].name, name);
                continue;
            }
            pd[nd++] = (pdep){sv, pool, de, 0, 0};
        }
    }
    for (int i = 0; i < nd && d->n - d->n_warnings + d->dropped == errs0; i++) {
        pd[i].first = v.n;
        if (dep_runs(in, &pd[i], i, &v, d))
            break;
        pd[i].n_runs = v.n - pd[i].first;
    }
    if (d->n - d->n_warnings + d->dropped > errs0 || assign_ports(in, pd, &v, d)) {
        rc = d->worst ? d->worst : CP_ERR_INPUT;
        goto out;
    }
    for (int i = 0; i < nd && rc == CP_OK; i++) {
        const cp_service *sv = &in->services[pd[i].svc];
        cp_buf_reset(&fn);
        cp_buf_printf(&fn, "services/%03d-", i + 1);
        cp_xp_file_word(&fn, sv->name, 50);
        cp_buf_printf(&fn, "-c%ld-", pd[i].de->config.v);
        cp_xp_file_word(&fn, in->pools[pd[i].pool].name, 40);
        cp_buf_puts(&fn, ".sbatch");
        cp_export_file *f = cp_buf_ok(&fn) ? cp_export_add(x, fn.s, true) : NULL;
        if (!f) {
            rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
            break;
        }
        if ((rc = write_script(in, &pd[i], o, &f->text, d)))
            break;
        cp_buf *b = &x->files[sub_at].text;
        cp_buf_puts(b, "# service ");
        cp_sh_quote(b, sv->name);
        cp_buf_printf(b, ", configuration %ld on pool ", pd[i].de->config.v);
        cp_sh_quote(b, in->pools[pd[i].pool].name);
        cp_buf_printf(b, ": %d replica run%s\n", pd[i].n_runs, pd[i].n_runs == 1 ? "" : "s");
        for (int k = 0; k < pd[i].n_runs && rc == CP_OK; k++) {
            rc = put_submit(in, &pd[i], &v.r[pd[i].first + k], pd[i].first + k + 1, fn.s, o,
                            start, b, d);
            x->n_services++;
        }
        if (rc == CP_OK && !cp_buf_ok(b))
            rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    }
out:
    cp_free(pd);
    cp_free(v.r);
    cp_buf_release(&fn);
    return rc;
}
