/*
 * A plan's services in the cloud as SkyServe runs them (docs/execution.md,
 * "Services on SkyServe"; capplan.5 §10.4). Each cloud deployment of a
 * service (a configuration on a market) is one SkyServe service,
 * capplan-svc-NNN, whose replicas are instances of the deployment's offer
 * (SkyServe runs one replica per instance), spot or on demand as planned:
 *
 *  - services/NNN-NAME-cC-xK.yaml, a service YAML (C its configuration) (SkyPilot's task YAML with
 *    a `service` section: readiness_probe, replicas: K; resources of the
 *    offer with the service's port; envs; run: the service's `run`) for
 *    each replica count K the plan gives the deployment in some slot;
 *  - launch.sh's steps (export_launch_sh.c): at the first slot with
 *    replicas `sky serve up -y -n capplan-svc-NNN FILE`, at each change of
 *    the count `sky serve update -y capplan-svc-NNN FILE` (only the
 *    service section differs, so SkyServe keeps the running replicas and
 *    adds or removes some), at a slot without replicas and at the end of
 *    the horizon `sky serve down -y capplan-svc-NNN`;
 *  - launch.md's services table and replicas per slot.
 *
 * Every deployment keeps its own endpoint: SkyServe balances a service's
 * load over its replicas, not over services, and sets no count per
 * instance type. The plan's routing (which share of each class goes
 * where) is services.csv's (export services). Names are hostile: the
 * service's name goes into YAML through cp_out's quoting rule and into
 * launch.sh's progress lines single-quoted; one with a control
 * character is refused. File names hold its sanitized form only.
 */
#include "export_internal.h"

#include "cp_alloc.h"
#include "cp_md.h"
#include "cp_out.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The most replicas one deployment may have in a slot: a count export
 * writes as an int (verify checks a plan's counts against capacity). */
#define SERVE_MAX 1000000

int cp_xp_serve_count(const cp_xp_serve *v, long t)
{
    return t >= 0 && t < v->de->replicas.n ? (int)v->de->replicas.v[t] : 0;
}

/* Whether replica r of deployment v's slot t is on an instance that a
 * replica listed before it in slot t (v's own or an earlier
 * deployment's on the same market) is on. */
static bool id_seen(const cp_xp_sky *s, int v, int t, int r)
{
    const cp_xp_serve *x = &s->v[v];
    const char *id = x->de->nodes[t].s[r];
    if (!id)
        return true;
    for (int w = 0; w <= v; w++) {
        const cp_xp_serve *y = &s->v[w];
        if (y->of != x->of || y->spot != x->spot || y->de->nodes_has != CP_PLAN_SET ||
            t >= y->de->n_nodes)
            continue;
        int n = w == v ? r : y->de->nodes[t].n;
        for (int k = 0; k < n; k++)
            if (y->de->nodes[t].s[k] && !strcmp(y->de->nodes[t].s[k], id))
                return true;
    }
    return false;
}

/* The plan's instance time of the services' replicas in $: per slot and
 * market, its instances that hold replicas (an instance with replicas of
 * several deployments counted once); a deployment without nodes counts
 * an instance per replica. */
static double planned_cost(const cp_input *in, const cp_xp_sky *s)
{
    double sum = 0;
    for (int v = 0; v < s->n_v; v++) {
        const cp_xp_serve *x = &s->v[v];
        double price = x->spot ? x->of->spot_price_hour : x->of->price_hour;
        long n = 0;
        for (int t = 0; t < in->slots; t++) {
            if (x->de->nodes_has != CP_PLAN_SET || t >= x->de->n_nodes) {
                n += cp_xp_serve_count(x, t);
                continue;
            }
            for (int r = 0; r < x->de->nodes[t].n; r++)
                n += !id_seen(s, v, t, r);
        }
        sum += (double)n * in->slot_hours * price;
    }
    return sum;
}

/* One cloud deployment, checked; errors to d. Returns true to keep it. */
static bool serve_one(const cp_input *in, const cp_plan_svc *e, int v, int i, cp_xp_serve *out,
                      cp_diags *d)
{
    const cp_service *sv = &in->services[v];
    const cp_plan_svc_dep *de = &e->deps[i];
    if (de->mk != CP_PLAN_ON_DEMAND && de->mk != CP_PLAN_SPOT)
        return false;
    if (de->config.v < 0 || de->config.v >= sv->n_configs || de->replicas.n != in->slots) {
        cp_diags_add(d, CP_ERR_INPUT, de->pos,
                     "service '%s': deployment %d does not match the inputs (run capplan verify)",
                     sv->name, i + 1);
        return false;
    }
    int of = de->resource.has == CP_PLAN_SET ? cp_input_find_offer(in, de->resource.s) : -1;
    if (of < 0) {
        cp_diags_add(d, CP_ERR_INPUT, de->resource.pos,
                     "service '%s': deployment %d is on '%s', which is no offer of the inputs",
                     sv->name, i + 1, de->resource.has == CP_PLAN_SET ? de->resource.s : "");
        return false;
    }
    bool any = false;
    for (int t = 0; t < in->slots; t++) {
        double r = de->replicas.v[t];
        if (!(r >= 0 && r <= SERVE_MAX && r == floor(r))) {
            cp_diags_add(d, CP_ERR_INPUT, de->pos,
                         "service '%s': deployment %d has %g replicas in slot %d: whole numbers "
                         "from 0 to %d only (run capplan verify)",
                         sv->name, i + 1, r, t, SERVE_MAX);
            return false;
        }
        any |= r > 0;
    }
    if (!any)
        return false;
    memset(out, 0, sizeof *out);
    out->svc = v;
    out->de = de;
    out->of = &in->offers[of];
    out->spot = de->mk == CP_PLAN_SPOT;
    for (int t = 0; t < in->slots; t++)
        out->replica_slots += (long)de->replicas.v[t];
    return true;
}

int cp_xp_serve_build(const cp_input *in, const cp_plan_file *pf, cp_xp_sky *s, cp_diags *d)
{
    int n = 0, errs = d->n - d->n_warnings;
    for (int k = 0; k < pf->n_svcs; k++)
        n += pf->svcs[k].n_deps;
    if (!(s->v = cp_calloc((size_t)(n ? n : 1), sizeof *s->v)))
        return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    for (int k = 0; k < pf->n_svcs; k++) {
        const cp_plan_svc *e = &pf->svcs[k];
        const char *name = e->name.has == CP_PLAN_SET ? e->name.s : NULL;
        int v = name ? cp_input_find_service(in, name) : -1;
        if (v < 0) {
            cp_diags_add(d, CP_ERR_INPUT, e->name.pos, "service '%s' is not in the inputs",
                         name ? name : "?");
            continue;
        }
        int before = s->n_v;
        for (int i = 0; i < e->n_deps; i++)
            if (serve_one(in, e, v, i, &s->v[s->n_v], d))
                s->n_v++;
        /* its name is in launch.sh's progress lines */
        if (s->n_v > before && !cp_xp_name_ok(d, e->name.pos, "a service", name))
            s->n_v = before;
    }
    for (int i = 0; i < s->n_v; i++)
        if (cp_xp_serve_number(in, &s->v[i], i + 1))
            return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    return d->n - d->n_warnings > errs ? CP_ERR_INPUT : CP_OK;
}

int cp_xp_serve_number(const cp_input *in, cp_xp_serve *x, int num)
{
    x->num = num;
    snprintf(x->name, sizeof x->name, "capplan-svc-%03d", num);
    cp_buf_release(&x->stem);
    cp_buf_printf(&x->stem, "services/%03d-", num);
    cp_xp_file_word(&x->stem, in->services[x->svc].name, 50);
    cp_buf_printf(&x->stem, "-c%ld", x->de->config.v);
    return cp_buf_ok(&x->stem) ? CP_OK : CP_ERR_NOMEM;
}

void cp_xp_serve_release(cp_xp_sky *s)
{
    for (int i = 0; i < s->n_v; i++)
        cp_buf_release(&s->v[i].stem);
    cp_free(s->v);
    s->v = NULL;
    s->n_v = 0;
}

static void out_key_str(cp_out *o, const char *key, const char *val)
{
    cp_out_key(o, key);
    cp_out_str(o, val);
}

/* services/NNN-NAME-cC-xK.yaml: the deployment with K replicas. */
static int write_yaml(const cp_input *in, const cp_xp_serve *x, int k, cp_export *xp, cp_diags *d)
{
    const cp_service *sv = &in->services[x->svc];
    const cp_svc_config *cf = &sv->configs[x->de->config.v];
    cp_buf file, type, acc, zone, run, tmp;
    cp_buf_init(&file);
    cp_buf_init(&type);
    cp_buf_init(&acc);
    cp_buf_init(&zone);
    cp_buf_init(&run);
    cp_buf_init(&tmp);
    cp_buf_printf(&file, "%s-x%d.yaml", x->stem.s, k);
    cp_xp_instance_type(x->of, &type, &acc, &zone);
    bool run_ok = cp_xp_put_run(&run, "service", sv->name, sv->run);
    cp_xp_file_word(&tmp, sv->name, 60);
    cp_export_file *f;
    cp_out *o = cp_xp_open_yaml(xp, &file,
                                cp_buf_ok(&type) && cp_buf_ok(&acc) && cp_buf_ok(&zone) && run_ok &&
                                    cp_buf_ok(&tmp),
                                &f, d);
    int rc = CP_OK;
    if (!o) {
        rc = CP_ERR_NOMEM;
        goto out;
    }
    cp_buf_printf(&f->text,
                  "# written by capplan export: SkyServe service %s with %d replica%s, one per\n"
                  "# instance (SkyPilot 0.9.1 service YAML); launch.sh brings it up, scales it\n"
                  "# and takes it down at the planned times (launch.md)\n",
                  x->name, k, k == 1 ? "" : "s");
    cp_out_map(o);
    out_key_str(o, "name", tmp.s);
    cp_out_key(o, "service");
    cp_out_map(o);
    out_key_str(o, "readiness_probe", sv->readiness_probe ? sv->readiness_probe : "/");
    cp_out_key(o, "replicas");
    cp_out_int(o, k);
    cp_out_end(o);
    cp_out_key(o, "resources");
    cp_out_map(o);
    if (x->of->provider)
        out_key_str(o, "cloud", x->of->provider);
    if (x->of->region)
        out_key_str(o, "region", x->of->region);
    if (zone.len)
        out_key_str(o, "zone", zone.s);
    out_key_str(o, "instance_type", type.s);
    if (acc.len) {
        cp_buf_reset(&tmp);
        cp_buf_printf(&tmp, "%s:%s", in->accels[x->of->inst.acc].name, acc.s);
        out_key_str(o, "accelerators", cp_buf_ok(&tmp) ? tmp.s : "");
    }
    cp_out_key(o, "use_spot");
    cp_out_word(o, x->spot ? "true" : "false");
    cp_out_key(o, "ports");
    cp_out_int(o, sv->port);
    cp_out_end(o);
    cp_out_key(o, "envs");
    cp_out_map(o);
    out_key_str(o, "CAPPLAN_SERVICE", sv->name);
    cp_buf_reset(&tmp);
    cp_buf_printf(&tmp, "%ld", x->de->config.v);
    out_key_str(o, "CAPPLAN_CONFIG", cp_buf_ok(&tmp) ? tmp.s : "");
    out_key_str(o, "CAPPLAN_ACCELERATOR", in->accels[cf->acc].name);
    cp_buf_reset(&tmp);
    cp_buf_printf(&tmp, "%d", cf->count);
    out_key_str(o, "CAPPLAN_ACCELERATOR_COUNT", cp_buf_ok(&tmp) ? tmp.s : "");
    cp_buf_reset(&tmp);
    cp_buf_printf(&tmp, "%d", sv->port);
    out_key_str(o, "CAPPLAN_PORT", cp_buf_ok(&tmp) ? tmp.s : "");
    cp_out_end(o);
    rc = cp_xp_finish_yaml(o, f, run.s, d);
out:
    cp_buf_release(&file);
    cp_buf_release(&type);
    cp_buf_release(&acc);
    cp_buf_release(&zone);
    cp_buf_release(&run);
    cp_buf_release(&tmp);
    return rc;
}

int cp_xp_serve_files(const cp_input *in, const cp_xp_sky *s, cp_export *x, cp_diags *d)
{
    int rc = CP_OK;
    for (int i = 0; rc == CP_OK && i < s->n_v; i++) {
        const cp_xp_serve *v = &s->v[i];
        /* one file per count, in the order of first use (a re-plan's
         * from its first slot on: the earlier counts run already) */
        for (long t = s->from; rc == CP_OK && t < in->slots; t++) {
            int k = cp_xp_serve_count(v, t);
            bool seen = k == 0;
            for (long u = s->from; u < t && !seen; u++)
                seen = cp_xp_serve_count(v, u) == k;
            if (!seen)
                rc = write_yaml(in, v, k, x, d);
        }
    }
    return rc;
}

/* launch.md: the SkyServe services and their replicas per slot. */
int cp_xp_serve_md(const cp_input *in, const cp_xp_sky *s, bool when, cp_buf *b)
{
    if (!s->n_v)
        return CP_OK;
    cp_buf_puts(b, "\n## Services on SkyServe\n\n"
                   "One SkyServe service per cloud deployment of a service (a configuration on "
                   "an offer), one instance per replica; launch.sh brings it up at its first "
                   "replicas (`sky serve up`), sets each slot's count (`sky serve update`) and "
                   "takes it down when it has none (`sky serve down`). The plan may hold "
                   "several replicas on one instance; SkyServe "
                   "runs each on its own.\n\n"
                   "| SkyServe | service | configuration | offer | market | port | "
                   "replica-hours | launched $ |\n"
                   "|---|---|---|---|---|---:|---:|---:|\n");
    double launched = 0;
    for (int i = 0; i < s->n_v; i++) {
        const cp_xp_serve *v = &s->v[i];
        const cp_service *sv = &in->services[v->svc];
        const cp_svc_config *cf = &sv->configs[v->de->config.v];
        double price = v->spot ? v->of->spot_price_hour : v->of->price_hour;
        double l = (double)v->replica_slots * in->slot_hours * price;
        launched += l;
        cp_buf_printf(b, "| %s | ", v->name);
        cp_md_text(b, sv->name);
        cp_buf_printf(b, " | %ld: %d x ", v->de->config.v, cf->count);
        cp_md_text(b, in->accels[cf->acc].name);
        cp_buf_puts(b, " | ");
        cp_md_text(b, v->of->name);
        cp_buf_printf(b, " | %s | %d | %g | %.2f |\n", v->spot ? "spot" : "on_demand", sv->port,
                      (double)v->replica_slots * in->slot_hours, l);
    }
    cp_buf_puts(b, "\n| slot | start |");
    for (int i = 0; i < s->n_v; i++)
        cp_buf_printf(b, " %s |", s->v[i].name);
    cp_buf_puts(b, "\n|---:|---|");
    for (int i = 0; i < s->n_v; i++)
        cp_buf_puts(b, "---:|");
    cp_buf_putc(b, '\n');
    for (int t = 0; t < in->slots; t++) {
        cp_buf_printf(b, "| %d | ", t);
        cp_xp_put_when(b, in, when, s->start, t);
        cp_buf_puts(b, " |");
        for (int i = 0; i < s->n_v; i++)
            cp_buf_printf(b, " %d |", cp_xp_serve_count(&s->v[i], t));
        cp_buf_putc(b, '\n');
    }
    cp_buf_printf(b,
                  "\n%d SkyServe service%s: $%.2f of instance time as planned (the instances "
                  "that hold the replicas, each once a slot), $%.2f as launched (one instance "
                  "per replica).\n",
                  s->n_v, s->n_v == 1 ? "" : "s", planned_cost(in, s), launched);
    return cp_buf_ok(b) ? CP_OK : CP_ERR_NOMEM;
}
