/*
 * The plan's cloud jobs as what SkyPilot runs (docs/execution.md, "Cloud
 * jobs on SkyPilot"), following the task schema of SkyPilot 0.9.1
 * (docs.skypilot.co/en/v0.9.1/reference/yaml-spec.html: name, num_nodes,
 * resources {cloud, region, zone, instance_type, accelerators, cpus,
 * use_spot}, envs, run: a literal block):
 *
 *  - one cluster per lease group: the leases of the plan's provisioning
 *    (capplan.5 §5, version 1.1: an instance id over a run of slots, with
 *    its jobs) that a set of jobs shares, linked by every job that spans
 *    more than one of them; a cluster has as many nodes as the group has
 *    leases in use at once, and lives from the group's first slot to its
 *    last (clusters/NNN-OFFER.yaml: no run, the nodes only);
 *  - one task per cloud job (tasks/NNN-NAME.yaml): num_nodes the
 *    instances it spans, resources.accelerators TYPE:k and cpus per node,
 *    its run; SkyPilot's job queue runs the tasks of a cluster side by
 *    side, each on free accelerators (CUDA_VISIBLE_DEVICES);
 *  - launch.sh (export_launch_sh.c), which launches each cluster at its
 *    start, queues each task at its start and downs each cluster once idle
 *    from its stop on, and launch.md, the same as tables.
 *
 * The YAML is written through cp_out, so every string goes through the
 * project's one quoting rule; names never appear in YAML comments. The
 * instance type comes from the offer's name when it follows the
 * importers' "provider:region_or_zone:type" convention (the offer's
 * instance.type is a machine-type label for runtime models, not always
 * the cloud's type), else from instance.type; a GCP-style
 * "n1-standard-8+1xV100" or "n1-standard-8:1xV100" becomes
 * instance_type n1-standard-8 and accelerators V100:1.
 */
#include "export_internal.h"

#include "cp_alloc.h"
#include "cp_md.h"
#include "cp_out.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *pstr(const cp_plan_str *s)
{
    return s->has == CP_PLAN_SET ? s->s : "";
}


void cp_xp_sky_release(cp_xp_sky *s)
{
    for (int i = 0; i < s->n_c; i++)
        cp_buf_release(&s->c[i].file);
    for (int i = 0; i < s->n_t; i++)
        cp_buf_release(&s->t[i].file);
    cp_free(s->c);
    cp_free(s->t);
    cp_free(s->cancel);
    cp_free(s->down_at_from);
    cp_free(s->gone);
    cp_xp_serve_release(s);
}

/* ---- lease groups -------------------------------------------------------- */

typedef struct lease_ref {
    const cp_plan_lease *l;
    int prov;
    int parent;  /* union-find */
    int cluster; /* of its root, once numbered */
} lease_ref;

static int uf_find(lease_ref *v, int i)
{
    while (v[i].parent != i) {
        v[i].parent = v[v[i].parent].parent;
        i = v[i].parent;
    }
    return i;
}

static int cmp_name(const void *a, const void *b)
{
    const cp_plan_job *x = *(const cp_plan_job *const *)a, *y = *(const cp_plan_job *const *)b;
    return strcmp(pstr(&x->name), pstr(&y->name));
}

/* The plan job named `name` among `by` (sorted by name), or NULL. */
static const cp_plan_job *job_named(const cp_plan_job **by, int n, const char *name)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2, c = strcmp(pstr(&by[mid]->name), name);
        if (!c)
            return by[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return NULL;
}

typedef struct root_ref {
    int root;
    long start;
} root_ref;

static int cmp_root(const void *a, const void *b)
{
    const root_ref *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->root < y->root ? -1 : x->root > y->root;
}

static int cmp_task(const void *a, const void *b)
{
    const cp_xp_task *x = a, *y = b;
    if (x->pj->start_slot.v != y->pj->start_slot.v)
        return x->pj->start_slot.v < y->pj->start_slot.v ? -1 : 1;
    return x->pj < y->pj ? -1 : x->pj > y->pj;
}

/* Whether lease l holds only services' replicas (capplan.5 §10.4): SkyServe
 * runs those on instances of its own (export_serve.c), so no cluster. */
static bool services_only(const cp_input *in, const cp_plan_lease *l)
{
    if (l->jobs.has != CP_PLAN_SET || l->jobs.n == 0)
        return false;
    for (int j = 0; j < l->jobs.n; j++)
        if (!l->jobs.s[j] || cp_input_find_service(in, l->jobs.s[j]) < 0)
            return false;
    return true;
}

/* The leases of the plan that hold jobs, checked: their offers exist,
 * their ids and job names can go into a script. Returns their count, -1
 * on an error. Called twice: to count and report (d), then to fill v
 * (d NULL: the first call has said everything, so nothing is said). */
static int collect_leases(const cp_input *in, const cp_plan_file *pf, lease_ref *v, cp_diags *d)
{
    int n = 0, errs = 0;
    for (int i = 0; i < pf->n_prov; i++) {
        const cp_plan_prov *pv = &pf->prov[i];
        bool used = false;
        for (int t = 0; pv->instances.has == CP_PLAN_SET && t < pv->instances.n; t++)
            used |= pv->instances.v[t] > 0;
        if (d && used && pv->leases_has != CP_PLAN_SET)
            cp_diags_warn(d, pv->pos,
                          "provisioning of '%s' lists no leases: launch files need a plan "
                          "written by 'capplan plan' (capplan.5 §5)",
                          pstr(&pv->market));
        if (pv->n_leases && cp_input_find_offer(in, pstr(&pv->market)) < 0) {
            cp_diags_add(d, CP_ERR_INPUT, pv->market.pos,
                         "provisioning of '%s': no such offer in the inputs", pstr(&pv->market));
            errs++;
            continue;
        }
        for (int k = 0; k < pv->n_leases; k++) {
            const cp_plan_lease *l = &pv->leases[k];
            if (services_only(in, l))
                continue;
            if (cp_export_has_control(pstr(&l->id))) {
                cp_diags_add(d, CP_ERR_INPUT, l->id.pos,
                             "lease id contains a control character: refusing to write it");
                errs++;
            }
            /* each job's name is a comment of launch.sh */
            for (int j = 0; l->jobs.has == CP_PLAN_SET && j < l->jobs.n; j++)
                if (l->jobs.s[j] && !cp_xp_name_ok(d, l->jobs.at[j], "a job", l->jobs.s[j]))
                    errs++;
            if (v) {
                v[n].l = l;
                v[n].prov = i;
                v[n].parent = n;
                v[n].cluster = -1;
            }
            n++;
        }
    }
    return errs ? -1 : n;
}

/* Numbers the groups of v (roots) as clusters in order of their start. */
static int number_clusters(const cp_input *in, const cp_plan_file *pf, lease_ref *v, int n,
                           cp_xp_sky *s)
{
    root_ref *r = cp_calloc((size_t)(n ? n : 1), sizeof *r);
    if (!r)
        return CP_ERR_NOMEM;
    int nr = 0;
    for (int k = 0; k < n; k++) {
        int root = uf_find(v, k);
        int i = 0;
        while (i < nr && r[i].root != root)
            i++;
        if (i == nr)
            r[nr++] = (root_ref){root, v[k].l->start_slot.v};
        else if (v[k].l->start_slot.v < r[i].start)
            r[i].start = v[k].l->start_slot.v;
    }
    qsort(r, (size_t)nr, sizeof *r, cmp_root);
    if (!(s->c = cp_calloc((size_t)(nr ? nr : 1), sizeof *s->c))) {
        cp_free(r);
        return CP_ERR_NOMEM;
    }
    s->n_c = nr;
    for (int i = 0; i < nr; i++) {
        v[r[i].root].cluster = i;
        cp_xp_cluster *c = &s->c[i];
        const cp_plan_prov *pv = &pf->prov[v[r[i].root].prov];
        c->of = &in->offers[cp_input_find_offer(in, pstr(&pv->market))];
        c->spot = pv->mk == CP_PLAN_SPOT;
        c->start = r[i].start;
        c->end = r[i].start;
        snprintf(c->name, sizeof c->name, "capplan-%03d", i + 1);
        cp_buf_init(&c->file);
    }
    cp_free(r);
    for (int k = 0; k < n; k++) {
        v[k].cluster = v[uf_find(v, k)].cluster;
        cp_xp_cluster *c = &s->c[v[k].cluster];
        long e = v[k].l->start_slot.v + v[k].l->slots.v;
        if (e > c->end)
            c->end = e;
        c->n_leases++;
        c->lease_slots += v[k].l->slots.v;
    }
    /* nodes: the most leases of the group in use in one slot */
    for (int i = 0; i < s->n_c; i++) {
        cp_xp_cluster *c = &s->c[i];
        long span = c->end - c->start;
        int *use = cp_calloc((size_t)(span > 0 ? span : 1), sizeof *use);
        if (!use)
            return CP_ERR_NOMEM;
        for (int k = 0; k < n; k++)
            for (long t = 0; v[k].cluster == i && t < v[k].l->slots.v; t++) {
                int u = ++use[v[k].l->start_slot.v - c->start + t];
                if (u > c->nodes)
                    c->nodes = u;
            }
        cp_free(use);
    }
    return CP_OK;
}

/* The task of cloud job pj on cluster c: its nodes, and per node its
 * accelerators (a dataflow job's unit is a whole instance) and CPUs. A
 * plan's CPUs past what its instances hold are refused: they would ask
 * SkyPilot for an instance no offer has (and past a long, for nothing). */
static int size_task(const cp_input *in, const cp_xp_cluster *c, cp_xp_task *t, cp_diags *d)
{
    const cp_plan_job *pj = t->pj;
    const cp_job *job = &in->jobs[t->job];
    t->nodes = pj->nodes.has == CP_PLAN_SET && pj->nodes.n > 0 ? pj->nodes.n : 1;
    if (c->of->inst.acc >= 0 && job->kind == CP_JOB_DATAFLOW)
        t->acc = c->of->inst.accelerators;
    else if (c->of->inst.acc >= 0 && pj->count.has == CP_PLAN_SET && pj->count.v > 0) {
        long k = pj->count.v;
        t->acc = (k + t->nodes - 1) / t->nodes;
        if (k % t->nodes)
            cp_diags_warn(d, pj->pos,
                          "job '%s': %ld accelerators do not split evenly over %d instances: "
                          "its task asks for %ld on each",
                          job->name, k, t->nodes, t->acc);
    }
    double cpus = pj->cpus.has == CP_PLAN_SET ? pj->cpus.v : 0;
    if (cpus / t->nodes > c->of->inst.cpus * (1 + 1e-9)) {
        char want[32], each[32];
        cp_fmt_num(want, sizeof want, cpus);
        cp_fmt_num(each, sizeof each, c->of->inst.cpus);
        return cp_diags_add(d, CP_ERR_INPUT, pj->cpus.pos,
                            "job '%s': %s CPUs do not fit on %d instance%s of '%s' (%s CPUs each)",
                            job->name, want, t->nodes, t->nodes == 1 ? "" : "s", c->of->name,
                            each);
    }
    t->cpus = cpus > 0 ? (long)ceil(cpus / t->nodes - 1e-9) : 0;
    return CP_OK;
}

int cp_xp_sky_build(const cp_input *in, const cp_plan_file *pf, bool lenient, cp_xp_sky *s,
                    cp_diags *d)
{
    int n = collect_leases(in, pf, NULL, d);
    if (n < 0)
        return CP_ERR_INPUT;
    lease_ref *v = cp_calloc((size_t)(n ? n : 1), sizeof *v);
    const cp_plan_job **by = cp_calloc((size_t)(pf->n_jobs ? pf->n_jobs : 1), sizeof *by);
    int *first = cp_malloc((size_t)(pf->n_jobs ? pf->n_jobs : 1) * sizeof *first);
    int rc = CP_OK;
    if (!v || !by || !first) {
        rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
        goto out;
    }
    collect_leases(in, pf, v, NULL);
    s->n_leases = n;
    for (int i = 0; i < pf->n_jobs; i++) {
        by[i] = &pf->jobs[i];
        first[i] = -1;
    }
    qsort(by, (size_t)pf->n_jobs, sizeof *by, cmp_name);
    /* a job on several leases links them: their instances run it together */
    for (int k = 0; k < n; k++) {
        const cp_plan_strs *js = &v[k].l->jobs;
        for (int j = 0; js->has == CP_PLAN_SET && j < js->n; j++) {
            const cp_plan_job *pj = js->s[j] ? job_named(by, pf->n_jobs, js->s[j]) : NULL;
            /* capplan.5 §10.4: a service's replicas on an instance that also
             * runs jobs; SkyServe runs the replicas (export_serve.c) */
            if (!pj && js->s[j] && cp_input_find_service(in, js->s[j]) >= 0)
                continue;
            if (!pj) {
                rc = cp_diags_add(d, CP_ERR_INPUT, js->at[j],
                                  "lease '%s' lists job '%s', which the plan does not have",
                                  pstr(&v[k].l->id), js->s[j] ? js->s[j] : "");
                continue;
            }
            int at = (int)(pj - pf->jobs);
            if (first[at] < 0)
                first[at] = k;
            else
                v[uf_find(v, k)].parent = uf_find(v, first[at]);
        }
    }
    if (rc)
        goto out;
    if (number_clusters(in, pf, v, n, s)) {
        rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
        goto out;
    }
    if (!(s->t = cp_calloc((size_t)(pf->n_jobs ? pf->n_jobs : 1), sizeof *s->t))) {
        rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
        goto out;
    }
    for (int i = 0; i < pf->n_jobs; i++) {
        const cp_plan_job *pj = &pf->jobs[i];
        if (!pj->scheduled || (pj->mk != CP_PLAN_ON_DEMAND && pj->mk != CP_PLAN_SPOT))
            continue;
        int job = cp_input_find_job(in, pstr(&pj->name));
        if (job < 0 && lenient)
            continue; /* OLD's job cancelled since (capplan.5 §10.5) */
        if (job < 0) {
            rc = cp_diags_add(d, CP_ERR_INPUT, pj->name.pos,
                              "job '%s' of the plan is not in the inputs", pstr(&pj->name));
            continue;
        }
        if (first[i] < 0) {
            rc = cp_diags_add(d, CP_ERR_INPUT, pj->pos,
                              "job '%s' runs in the cloud, but no lease of the plan lists it: "
                              "export needs a plan written by 'capplan plan' (capplan.5 §5)",
                              pstr(&pj->name));
            continue;
        }
        cp_xp_task *t = &s->t[s->n_t++];
        t->pj = pj;
        t->job = job;
        t->cluster = v[first[i]].cluster;
        cp_buf_init(&t->file);
        if (size_task(in, &s->c[t->cluster], t, d) != CP_OK)
            rc = CP_ERR_INPUT;
    }
    qsort(s->t, (size_t)s->n_t, sizeof *s->t, cmp_task);
out:
    cp_free(v);
    cp_free(by);
    cp_free(first);
    return rc;
}

/* ---- the YAML files ------------------------------------------------------ */

static int write_cluster(const cp_input *in, cp_xp_cluster *c, int idx, cp_export *x, cp_diags *d)
{
    cp_buf type, acc, zone;
    cp_buf_init(&type);
    cp_buf_init(&acc);
    cp_buf_init(&zone);
    cp_buf_printf(&c->file, "clusters/%03d-", idx);
    cp_xp_file_word(&c->file, c->of->name, 60);
    cp_buf_puts(&c->file, ".yaml");
    cp_xp_instance_type(c->of, &type, &acc, &zone);
    cp_export_file *f;
    cp_out *o = cp_xp_open_yaml(x, &c->file,
                                cp_buf_ok(&type) && cp_buf_ok(&acc) && cp_buf_ok(&zone), &f, d);
    int rc = CP_OK;
    if (!o) {
        rc = CP_ERR_NOMEM;
        goto out;
    }
    cp_buf_printf(&f->text,
                  "# written by capplan export: cluster %s (SkyPilot 0.9.1 task YAML, no run:);\n"
                  "# launch.sh launches it at its start and downs it once idle from its stop on\n",
                  c->name);
    cp_out_map(o);
    cp_out_key(o, "name");
    cp_out_str(o, c->name);
    cp_out_key(o, "num_nodes");
    cp_out_int(o, c->nodes);
    cp_out_key(o, "resources");
    cp_out_map(o);
    if (c->of->provider) {
        cp_out_key(o, "cloud");
        cp_out_str(o, c->of->provider);
    }
    if (c->of->region) {
        cp_out_key(o, "region");
        cp_out_str(o, c->of->region);
    }
    if (zone.len) {
        cp_out_key(o, "zone");
        cp_out_str(o, zone.s);
    }
    cp_out_key(o, "instance_type");
    cp_out_str(o, type.s);
    if (acc.len) {
        cp_buf_reset(&type);
        cp_buf_printf(&type, "%s:%s", in->accels[c->of->inst.acc].name, acc.s);
        cp_out_key(o, "accelerators");
        cp_out_str(o, type.s);
    }
    cp_out_key(o, "use_spot");
    cp_out_word(o, c->spot ? "true" : "false");
    cp_out_end(o);
    rc = cp_xp_finish_yaml(o, f, NULL, d);
out:
    cp_buf_release(&type);
    cp_buf_release(&acc);
    cp_buf_release(&zone);
    return rc;
}

static int write_task(const cp_input *in, const cp_xp_sky *s, cp_xp_task *t, cp_export *x,
                      cp_diags *d)
{
    const cp_job *job = &in->jobs[t->job];
    const cp_xp_cluster *c = &s->c[t->cluster];
    cp_buf_printf(&t->file, "tasks/%03d-", t->pj->index);
    cp_xp_file_word(&t->file, job->name, 60);
    cp_buf_puts(&t->file, ".yaml");
    cp_buf run, word;
    cp_buf_init(&run);
    cp_buf_init(&word);
    bool run_ok = cp_xp_put_run(&run, "job", job->name, job->run);
    cp_xp_file_word(&word, job->name, 60);
    cp_export_file *f;
    cp_out *o = cp_xp_open_yaml(x, &t->file, run_ok && cp_buf_ok(&word), &f, d);
    int rc = CP_OK;
    if (!o) {
        rc = CP_ERR_NOMEM;
        goto out;
    }
    long slots = t->pj->slots.v;
    cp_buf_printf(&f->text,
                  "# written by capplan export: a job on cluster %s from slot %ld for %ld slot%s\n"
                  "# (SkyPilot 0.9.1 task YAML); launch.sh queues it there at its start\n",
                  c->name, t->pj->start_slot.v, slots, slots == 1 ? "" : "s");
    cp_out_map(o);
    cp_out_key(o, "name");
    cp_out_str(o, word.s);
    cp_out_key(o, "num_nodes");
    cp_out_int(o, t->nodes);
    if (t->acc || t->cpus) {
        cp_out_key(o, "resources");
        cp_out_map(o);
        if (t->acc) {
            cp_buf_reset(&word);
            cp_buf_printf(&word, "%s:%ld", in->accels[c->of->inst.acc].name, t->acc);
            cp_out_key(o, "accelerators");
            cp_out_str(o, cp_buf_ok(&word) ? word.s : "");
        }
        if (t->cpus) {
            cp_out_key(o, "cpus");
            cp_out_int(o, t->cpus);
        }
        cp_out_end(o);
    }
    cp_out_key(o, "envs");
    cp_out_map(o);
    cp_out_key(o, "CAPPLAN_JOB");
    cp_out_str(o, job->name);
    cp_out_end(o);
    rc = cp_xp_finish_yaml(o, f, run.s, d);
out:
    cp_buf_release(&run);
    cp_buf_release(&word);
    return rc;
}

/* ---- launch.md ----------------------------------------------------------- */

static double cluster_price(const cp_xp_cluster *c)
{
    return c->spot ? c->of->spot_price_hour : c->of->price_hour;
}

static int write_md(const cp_input *in, const cp_xp_sky *s,
                    const cp_export_opts *o, cp_export *x, cp_diags *d)
{
    cp_export_file *md = cp_export_add(x, "launch.md", false);
    if (!md)
        return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    cp_buf *b = &md->text;
    bool when = s->have_start && !o->begin_now;
    cp_buf_printf(b,
                  "# Cloud jobs on SkyPilot\n\n"
                  "Written by capplan export. One SkyPilot cluster per group of leases that "
                  "share jobs (clusters/NNN-OFFER.yaml), one task per job (tasks/NNN-NAME.yaml). "
                  "`sh launch.sh` launches each cluster at its start, queues each job on it at "
                  "its start (`sky exec`: jobs of a cluster run side by side, each on its own "
                  "accelerators) and downs each cluster once idle from its stop on. Times are "
                  "%s.\n\n",
                  when ? (s->utc ? "UTC" : "in horizon.start's time zone")
                       : "slots of the horizon, from when launch.sh starts");
    cp_buf_puts(b, "| cluster | offer | market | nodes | leases | start | stop | jobs | cost $ |\n"
                   "|---|---|---|---:|---:|---|---|---|---:|\n");
    double planned = 0, launched = 0;
    for (int i = 0; i < s->n_c; i++) {
        const cp_xp_cluster *c = &s->c[i];
        cp_buf_printf(b, "| %s | ", c->name);
        cp_md_text(b, c->of->name);
        cp_buf_printf(b, " | %s | %d | %d | ", c->spot ? "spot" : "on_demand", c->nodes,
                      c->n_leases);
        cp_xp_put_when(b, in, when, s->start, c->start);
        cp_buf_puts(b, " | ");
        cp_xp_put_when(b, in, when, s->start, c->end);
        cp_buf_puts(b, " | ");
        int nj = 0;
        for (int j = 0; j < s->n_t; j++) {
            if (s->t[j].cluster != i)
                continue;
            if (nj++)
                cp_buf_puts(b, ", ");
            cp_md_text(b, in->jobs[s->t[j].job].name);
        }
        double cost = (double)c->nodes * (double)(c->end - c->start) * in->slot_hours *
                      cluster_price(c);
        planned += (double)c->lease_slots * in->slot_hours * cluster_price(c);
        launched += cost;
        cp_buf_printf(b, " | %.2f |\n", cost);
    }
    cp_buf_puts(b, "\n| job | cluster | nodes | per node | start | end |\n"
                   "|---|---|---:|---|---|---|\n");
    for (int j = 0; j < s->n_t; j++) {
        const cp_xp_task *t = &s->t[j];
        const cp_xp_cluster *c = &s->c[t->cluster];
        cp_buf_puts(b, "| ");
        cp_md_text(b, in->jobs[t->job].name);
        cp_buf_printf(b, " | %s | %d | ", c->name, t->nodes);
        if (t->acc) {
            cp_md_text(b, in->accels[c->of->inst.acc].name);
            cp_buf_printf(b, ":%ld", t->acc);
        }
        if (t->cpus)
            cp_buf_printf(b, "%s%ld CPUs", t->acc ? ", " : "", t->cpus);
        cp_buf_puts(b, " | ");
        cp_xp_put_when(b, in, when, s->start, t->pj->start_slot.v);
        cp_buf_puts(b, " | ");
        cp_xp_put_when(b, in, when, s->start, t->pj->start_slot.v + t->pj->slots.v);
        cp_buf_puts(b, " |\n");
    }
    cp_buf_printf(b,
                  "\n%d cluster%s for %d lease%s: $%.2f of instance time as planned (the plan's "
                  "cloud cost counts the same instance-slots), $%.2f as launched (every node of a "
                  "cluster from its start to its stop).\n",
                  s->n_c, s->n_c == 1 ? "" : "s", s->n_leases, s->n_leases == 1 ? "" : "s",
                  planned, launched);
    cp_xp_serve_md(in, s, when, b);
    return cp_buf_ok(b) ? CP_OK : cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
}

int cp_xp_sky_write(const cp_input *in, cp_xp_sky *s, const cp_export_opts *o, cp_export *x,
                    cp_diags *d)
{
    int rc = cp_xp_serve_files(in, s, x, d);
    for (int i = 0; rc == CP_OK && i < s->n_c; i++)
        if (s->c[i].start >= s->from)
            rc = write_cluster(in, &s->c[i], i + 1, x, d);
    for (int i = 0; rc == CP_OK && i < s->n_t; i++)
        if (s->t[i].pj->start_slot.v >= s->from)
            rc = write_task(in, s, &s->t[i], x, d);
    if (rc == CP_OK)
        rc = cp_xp_sky_script(in, s, o, x, d);
    if (rc == CP_OK)
        rc = write_md(in, s, o, x, d);
    if (rc == CP_OK) {
        x->n_leases = s->n_leases;
        x->n_clusters = s->n_c;
        x->n_jobs = s->n_t;
        x->n_services = s->n_v;
    }
    return rc;
}

int cp_export_launch(const cp_input *in, const cp_plan_file *pf, const cp_export_opts *o,
                     cp_export *x, cp_diags *d)
{
    cp_xp_sky s;
    memset(&s, 0, sizeof s);
    s.have_start = in->start && cp_xp_parse_start(in->start, &s.start, &s.utc);
    int rc = cp_xp_sky_build(in, pf, false, &s, d);
    if (rc == CP_OK)
        rc = cp_xp_serve_build(in, pf, &s, d);
    if (rc == CP_OK)
        rc = cp_xp_sky_write(in, &s, o, x, d);
    cp_xp_sky_release(&s);
    return rc;
}
