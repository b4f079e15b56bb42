/*
 * Inference services (capplan.5 §10.4): long-running endpoints with a
 * request load per slot and per class, served by replicas of one or more
 * configurations:
 *
 *     services:
 *       - name: chat
 *         classes: [{name: short, load: [40, 35, ...]}, {name: long, load: 3}]
 *         replicas:
 *           - {accelerator: A100-80GB, count: 4, cpus: 32, rate: {short: 30, long: 4}}
 *           - {accelerator: L4-24GB, rate: {short: 5}}
 *         min_replicas: 1
 *         start_cost: 2.0
 *         unserved_penalty: 1.0
 *
 * Exactly one of `classes` and `load` (one class named like the service);
 * a `rate` key naming no class, and a class that no configuration
 * serves, are errors. Services are loaded after the jobs, whose names
 * they may not take.
 */
#include "load_internal.h"

#include "cp_alloc.h"

#include <stdio.h>
#include <string.h>

static const char *const service_keys[] = {
    "name",    "team",         "classes",         "load",      "replicas", "min_replicas",
    "start_cost", "unserved_penalty", "preemptible", "restart_minutes", "placement",
    "run", "port", "readiness_probe", NULL};

static int find_class(const cp_service *sv, const char *name)
{
    for (int k = 0; k < sv->n_classes; k++)
        if (sv->classes[k].name && !strcmp(sv->classes[k].name, name))
            return k;
    return -1;
}

/* `classes: [{name, load}, ...]`, names unique within the service. */
static void load_classes(lctx *c, const cp_node *n, const char *ent, cp_service *sv)
{
    static const char *const keys[] = {"name", "load", NULL};
    if (!cp_load_want_seq(c, n, ent, "classes"))
        return;
    if (n->n == 0) {
        cp_load_err(c, n, ent, "'classes' must list at least one class");
        return;
    }
    if (!(sv->classes = cp_calloc(n->n, sizeof *sv->classes))) {
        c->nomem = true;
        return;
    }
    for (size_t i = 0; i < n->n; i++) {
        const cp_node *m = n->kids[i];
        char sub[260];
        snprintf(sub, sizeof sub, "%s class #%zu", ent, i + 1);
        if (!cp_load_want_map(c, m, ent, "classes[]"))
            continue;
        cp_svc_class *k = &sv->classes[sv->n_classes];
        k->pos = m->pos;
        cp_load_check_keys(c, m, sub, keys, NULL, NULL);
        cp_node *x = cp_map_get(m, "name");
        if (!x) {
            cp_load_err(c, m, sub, "missing required key 'name'");
            continue;
        }
        if (!cp_load_str(c, x, sub, "name", &k->name))
            continue;
        if (find_class(sv, k->name) >= 0) {
            cp_load_err(c, x, ent, "class '%s' is defined twice", k->name);
            cp_free(k->name);
            k->name = NULL;
            continue;
        }
        snprintf(sub, sizeof sub, "%s class '%s'", ent, k->name);
        if (!(x = cp_map_get(m, "load")))
            cp_load_err(c, m, sub, "missing required key 'load'");
        else
            cp_load_series(c, x, sub, "load", R_NONNEG, false, 0, 0, &k->load);
        sv->n_classes++;
    }
}

/* A configuration's `rate`: a map class -> requests/s > 0, or one number
 * when the service has one class. */
static void load_rate(lctx *c, const cp_node *n, const char *sub, const cp_service *sv,
                      cp_svc_config *cf)
{
    if (n->kind == CP_NODE_SCALAR && sv->n_classes == 1) {
        cp_load_num(c, n, sub, "rate", R_POS, &cf->rate[0]);
        return;
    }
    if (n->kind != CP_NODE_MAP) {
        char got[120];
        cp_load_err(c, n, sub,
                    "'rate' must be a mapping from class names to requests/s%s, got %s",
                    sv->n_classes == 1 ? " (or one number)" : "",
                    cp_load_value_desc(n, got, sizeof got));
        return;
    }
    for (size_t i = 0; i < n->n; i++) {
        const cp_node *key = n->kids[2 * i], *v = n->kids[2 * i + 1];
        int k = find_class(sv, key->str);
        if (k < 0) {
            cp_load_err(c, key, sub, "rate for unknown class '%s'", key->str);
            continue;
        }
        char what[200];
        snprintf(what, sizeof what, "rate.%s", key->str);
        cp_load_num(c, v, sub, what, R_POS, &cf->rate[k]);
    }
}

static void load_config(lctx *c, const cp_node *m, const char *ent, int i, cp_service *sv)
{
    static const char *const keys[] = {"accelerator", "count", "cpus", "memory_gb", "rate", NULL};
    cp_svc_config *cf = &sv->configs[sv->n_configs++];
    char sub[260];
    snprintf(sub, sizeof sub, "%s replicas[%d]", ent, i);
    cf->pos = m->pos;
    cf->acc = -1;
    cf->count = 1;
    if (!(cf->rate = cp_calloc((size_t)(sv->n_classes ? sv->n_classes : 1), sizeof *cf->rate))) {
        c->nomem = true;
        return;
    }
    cp_load_check_keys(c, m, sub, keys, NULL, NULL);
    cp_node *x = cp_map_get(m, "accelerator");
    char *name = NULL;
    if (!x) {
        cp_load_err(c, m, sub, "missing required key 'accelerator'");
    } else if (cp_load_str(c, x, sub, "accelerator", &name)) {
        if ((cf->acc = cp_input_find_accel(c->in, name)) < 0)
            cp_load_err(c, x, sub, "unknown accelerator '%s'", name);
        cp_free(name);
    }
    if ((x = cp_map_get(m, "count")))
        cp_load_int(c, x, sub, "count", 1, CP_INPUT_COUNT_MAX, &cf->count);
    if ((x = cp_map_get(m, "cpus")))
        cp_load_num(c, x, sub, "cpus", R_NONNEG, &cf->cpus);
    if ((x = cp_map_get(m, "memory_gb")))
        cp_load_num(c, x, sub, "memory_gb", R_NONNEG, &cf->memory_gb);
    if (!(x = cp_map_get(m, "rate")))
        cp_load_err(c, m, sub, "missing required key 'rate'");
    else if (sv->n_classes > 0)
        load_rate(c, x, sub, sv, cf);
}

static void load_configs(lctx *c, const cp_node *n, const char *ent, cp_service *sv)
{
    if (!cp_load_want_seq(c, n, ent, "replicas"))
        return;
    if (n->n == 0) {
        cp_load_err(c, n, ent, "'replicas' must list at least one configuration");
        return;
    }
    if (!(sv->configs = cp_calloc(n->n, sizeof *sv->configs))) {
        c->nomem = true;
        return;
    }
    for (size_t i = 0; i < n->n && !c->nomem; i++)
        if (cp_load_want_map(c, n->kids[i], ent, "replicas[]"))
            load_config(c, n->kids[i], ent, (int)i, sv);
    for (int k = 0; k < sv->n_classes && sv->n_configs; k++) {
        bool served = false;
        for (int f = 0; f < sv->n_configs; f++)
            served |= sv->configs[f].rate && sv->configs[f].rate[k] > 0;
        if (!served && sv->classes[k].name)
            cp_diags_add(c->diags, CP_ERR_INPUT, sv->classes[k].pos,
                         "%s: class '%s' is served by no configuration (no 'rate' for it)", ent,
                         sv->classes[k].name);
    }
}

/* `classes` or `load` (exactly one), then the configurations. */
static void load_demand(lctx *c, const cp_node *m, const char *ent, cp_service *sv)
{
    cp_node *cl = cp_map_get(m, "classes"), *ld = cp_map_get(m, "load");
    if (cl && ld) {
        cp_load_err(c, ld, ent, "give either 'classes' or 'load', not both");
        return;
    }
    if (!cl && !ld) {
        cp_load_err(c, m, ent, "missing 'classes' (or 'load', for a service of one class)");
        return;
    }
    if (cl) {
        load_classes(c, cl, ent, sv);
    } else {
        if (!(sv->classes = cp_calloc(1, sizeof *sv->classes)) ||
            !(sv->classes[0].name = cp_strdup(sv->name ? sv->name : ""))) {
            c->nomem = true;
            return;
        }
        sv->classes[0].pos = ld->pos;
        sv->n_classes = 1;
        cp_load_series(c, ld, ent, "load", R_NONNEG, false, 0, 0, &sv->classes[0].load);
    }
    cp_node *x = cp_map_get(m, "replicas");
    if (!x)
        cp_load_err(c, m, ent, "missing required key 'replicas'");
    else if (!c->nomem)
        load_configs(c, x, ent, sv);
}

/* The execution extensions (docs/spec-notes.md, "Execution"): `run`,
 * the replica's command; `port` (1 to 65535); `readiness_probe`, a path
 * starting with '/' of printable ASCII without spaces (SkyServe's probe
 * URL; it goes into YAML only, quoted). */
static void load_exec(lctx *c, const cp_node *m, const char *ent, cp_service *sv)
{
    cp_node *x;
    if ((x = cp_map_get(m, "run")))
        cp_load_command(c, x, ent, &sv->run, &sv->run_pos);
    if ((x = cp_map_get(m, "port")))
        cp_load_int(c, x, ent, "port", 1, 65535, &sv->port);
    if (!(x = cp_map_get(m, "readiness_probe")) || !cp_load_str(c, x, ent, "readiness_probe",
                                                               &sv->readiness_probe))
        return;
    bool ok = sv->readiness_probe[0] == '/';
    for (const char *p = sv->readiness_probe; ok && *p; p++)
        ok = *p > 0x20 && *p < 0x7f;
    if (!ok)
        cp_load_err(c, x, ent, "'readiness_probe' must be a URL path: '/' then printable "
                               "characters without spaces, got '%.60s'",
                    sv->readiness_probe);
}

static void load_service(lctx *c, const cp_node *m, int i, cp_service *sv)
{
    char label[64], ent[200];
    cp_load_ent_name(label, sizeof label, "service", NULL, i);
    cp_node *x = cp_map_get(m, "name");
    int job = -1;
    if (!x)
        cp_load_err(c, m, label, "missing required key 'name'");
    else if (cp_load_str(c, x, label, "name", &sv->name) &&
             (job = cp_input_find_job(c->in, sv->name)) >= 0)
        cp_load_err(c, x, NULL, "service '%s' has the name of a job (at %s:%d:%d)", sv->name,
                    c->in->jobs[job].pos.file, c->in->jobs[job].pos.line, c->in->jobs[job].pos.col);
    cp_load_ent_name(ent, sizeof ent, "service", sv->name, i);
    cp_load_check_keys(c, m, ent, service_keys, NULL, NULL);
    if ((x = cp_map_get(m, "team"))) {
        char *name = NULL;
        if (cp_load_str(c, x, ent, "team", &name) && (sv->team = cp_input_find_team(c->in, name)) < 0)
            cp_load_err(c, x, ent, "unknown team '%s'%s", name,
                        c->in->n_teams ? "" : " (the inputs define no teams)");
        cp_free(name);
    }
    load_demand(c, m, ent, sv);
    if ((x = cp_map_get(m, "min_replicas")))
        cp_load_series(c, x, ent, "min_replicas", R_NONNEG, true, 0, CP_INPUT_COUNT_MAX,
                       &sv->min_replicas);
    if ((x = cp_map_get(m, "start_cost")))
        cp_load_num(c, x, ent, "start_cost", R_NONNEG, &sv->start_cost);
    if ((x = cp_map_get(m, "unserved_penalty")))
        cp_load_num(c, x, ent, "unserved_penalty", R_NONNEG, &sv->unserved_penalty);
    if ((x = cp_map_get(m, "preemptible")))
        cp_load_bool(c, x, ent, "preemptible", &sv->preemptible);
    if ((x = cp_map_get(m, "restart_minutes")))
        cp_load_num(c, x, ent, "restart_minutes", R_NONNEG, &sv->restart_minutes);
    if ((x = cp_map_get(m, "placement")) && cp_load_want_map(c, x, ent, "placement"))
        cp_load_placement(c, x, ent, &sv->placement);
    load_exec(c, m, ent, sv);
}

void cp_load_services(lctx *c, cp_node *const *items, int n)
{
    cp_input *in = c->in;
    in->services = cp_calloc((size_t)(n ? n : 1), sizeof *in->services);
    if (!in->services) {
        c->nomem = true;
        return;
    }
    for (int i = 0; i < n && !cp_diags_full(c->diags) && !c->nomem; i++) {
        cp_service *sv = &in->services[in->n_services++];
        sv->pos = items[i]->pos;
        sv->team = -1;
        sv->unserved_penalty = 1.0;
        sv->restart_minutes = 5;
        sv->placement.cloud = sv->placement.on_prem = true;
        sv->port = 8080;
        if (!cp_load_want_map(c, items[i], NULL, "services[]"))
            continue;
        load_service(c, items[i], i, sv);
        if (!sv->min_replicas.v) {
            /* capplan.5 §10.4: one replica at least by default */
            if (!(sv->min_replicas.v = cp_calloc(1, sizeof(double)))) {
                c->nomem = true;
                return;
            }
            sv->min_replicas.v[0] = 1;
            sv->min_replicas.n = 1;
        }
    }
}

void cp_services_free(cp_input *in)
{
    for (int i = 0; i < in->n_services; i++) {
        cp_service *sv = &in->services[i];
        cp_free(sv->name);
        for (int k = 0; k < sv->n_classes; k++) {
            cp_free(sv->classes[k].name);
            cp_load_series_release(&sv->classes[k].load);
        }
        cp_free(sv->classes);
        for (int f = 0; f < sv->n_configs; f++)
            cp_free(sv->configs[f].rate);
        cp_free(sv->configs);
        cp_load_series_release(&sv->min_replicas);
        cp_load_placement_release(&sv->placement);
        cp_free(sv->run);
        cp_free(sv->readiness_probe);
    }
    cp_free(in->services);
}
