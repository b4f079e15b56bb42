/*
 * Jobs (capplan.5 §1.7): common keys, placement rules, then the kind's keys
 * (training: throughput and scaling; dataflow: Ernest runtime), plus the
 * documented extensions (model memory estimate, runtime margins).
 */
#include "load_internal.h"

#include "cp_alloc.h"
#include "cp_modes.h"
#include "cp_num.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const common_keys[] = {
    "name", "kind", "release_hour", "deadline_hour", "drop_penalty", "preemptible",
    "checkpoint_minutes", "restart_minutes", "placement", "deadline_confidence", "after",
    "data", "run", "team", NULL};
static const char *const training_keys[] = {
    "work", "throughput", "accelerators", "scaling", "accelerator_memory_gb",
    "cpus_per_accelerator", "memory_gb_per_accelerator", "model", "shapes", "power_limits",
    NULL};
static const char *const dataflow_keys[] = {"input_gb", "machines", "runtime", NULL};

static bool in_list(const char *const *list, const char *key)
{
    for (; *list; list++)
        if (!strcmp(*list, key))
            return true;
    return false;
}

static const char *kind_hint(const char *key, void *arg)
{
    const cp_job *j = arg;
    if (j->kind == CP_JOB_TRAINING && in_list(dataflow_keys, key))
        return "it belongs to dataflow jobs; this is a training job";
    if (j->kind == CP_JOB_DATAFLOW && in_list(training_keys, key))
        return "it belongs to training jobs; this is a dataflow job";
    return NULL;
}

void cp_load_placement(lctx *c, const cp_node *m, const char *ent, cp_placement *pl)
{
    static const char *const keys[] = {"pools", "offers", "providers", "regions", "cloud",
                                       "on_prem", NULL};
    char sub[240];
    snprintf(sub, sizeof sub, "%s placement", ent);
    cp_load_check_keys(c, m, sub, keys, NULL, NULL);
    cp_node *n;
    if ((n = cp_map_get(m, "pools")) && cp_load_want_seq(c, n, sub, "pools")) {
        pl->pools = cp_calloc(n->n ? n->n : 1, sizeof *pl->pools);
        if (!pl->pools) {
            c->nomem = true;
            return;
        }
        pl->has_pools = true;
        for (size_t i = 0; i < n->n; i++) {
            char *name = NULL;
            if (!cp_load_str(c, n->kids[i], sub, "pools[]", &name))
                continue;
            int k = cp_input_find_pool(c->in, name);
            if (k < 0)
                cp_load_err(c, n->kids[i], ent, "placement names unknown pool '%s'", name);
            else
                pl->pools[pl->n_pools++] = k;
            cp_free(name);
        }
    }
    if ((n = cp_map_get(m, "offers")) && cp_load_want_seq(c, n, sub, "offers")) {
        pl->offers = cp_calloc(n->n ? n->n : 1, sizeof *pl->offers);
        if (!pl->offers) {
            c->nomem = true;
            return;
        }
        pl->has_offers = true;
        for (size_t i = 0; i < n->n; i++) {
            char *name = NULL;
            if (!cp_load_str(c, n->kids[i], sub, "offers[]", &name))
                continue;
            int k = cp_input_find_offer(c->in, name);
            if (k < 0)
                cp_load_err(c, n->kids[i], ent, "placement names unknown offer '%s'", name);
            else
                pl->offers[pl->n_offers++] = k;
            cp_free(name);
        }
    }
    if ((n = cp_map_get(m, "providers")))
        pl->has_providers =
            cp_load_str_list(c, n, sub, "providers", &pl->providers, &pl->n_providers);
    if ((n = cp_map_get(m, "regions")))
        pl->has_regions = cp_load_str_list(c, n, sub, "regions", &pl->regions, &pl->n_regions);
    if ((n = cp_map_get(m, "cloud")))
        cp_load_bool(c, n, sub, "cloud", &pl->cloud);
    if ((n = cp_map_get(m, "on_prem")))
        cp_load_bool(c, n, sub, "on_prem", &pl->on_prem);
}

void cp_load_placement_release(cp_placement *pl)
{
    cp_free(pl->pools);
    cp_free(pl->offers);
    for (int k = 0; k < pl->n_providers; k++)
        cp_free(pl->providers[k]);
    cp_free(pl->providers);
    for (int k = 0; k < pl->n_regions; k++)
        cp_free(pl->regions[k]);
    cp_free(pl->regions);
}

/* One speedup model (linear, amdahl or table) into the given fields: the
 * job's own, or one accelerator type's (1.1). */
static void load_scaling_model(lctx *c, const cp_node *m, const char *sub, const cp_job *j,
                               cp_scaling_model *model_out, double *sf_out, double **speedup_out)
{
    cp_node *mn = cp_map_get(m, "model");
    if (!mn) {
        cp_load_err(c, m, sub, "missing required key 'model' (linear, amdahl or table)");
        return;
    }
    const char *model = mn->kind == CP_NODE_SCALAR ? mn->str : "";
    if (!strcmp(model, "linear")) {
        static const char *const keys[] = {"model", NULL};
        *model_out = CP_SCALING_LINEAR;
        cp_load_check_keys(c, m, sub, keys, NULL, NULL);
    } else if (!strcmp(model, "amdahl")) {
        static const char *const keys[] = {"model", "serial_fraction", NULL};
        *model_out = CP_SCALING_AMDAHL;
        cp_load_check_keys(c, m, sub, keys, NULL, NULL);
        cp_node *s = cp_map_get(m, "serial_fraction");
        if (!s)
            cp_load_err(c, m, sub, "missing required key 'serial_fraction' for model amdahl");
        else
            cp_load_num(c, s, sub, "serial_fraction", R_UNIT, sf_out);
    } else if (!strcmp(model, "table")) {
        static const char *const keys[] = {"model", "speedup", NULL};
        *model_out = CP_SCALING_TABLE;
        cp_load_check_keys(c, m, sub, keys, NULL, NULL);
        cp_node *t = cp_map_get(m, "speedup");
        if (!t) {
            cp_load_err(c, m, sub, "missing required key 'speedup' for model table");
            return;
        }
        if (!cp_load_want_map(c, t, sub, "speedup"))
            return;
        double *speedup = cp_calloc((size_t)(j->n_counts ? j->n_counts : 1), sizeof *speedup);
        *speedup_out = speedup;
        if (!speedup) {
            c->nomem = true;
            return;
        }
        bool *seen = cp_calloc((size_t)(j->n_counts ? j->n_counts : 1), sizeof *seen);
        if (!seen) {
            c->nomem = true;
            return;
        }
        for (size_t i = 0; i < t->n; i++) {
            int k;
            double v;
            const cp_node *kn = t->kids[2 * i];
            char what[200];
            snprintf(what, sizeof what, "speedup.%s", kn->str);
            double kd;
            long kl;
            if (!cp_scalar_number(kn, &kd) || !cp_num_is_whole(kd, 1, CP_INPUT_COUNT_MAX, &kl)) {
                char got[120];
                cp_load_err(
                    c, kn, sub,
                    "'speedup' keys must be accelerator counts (integers from 1 to 1000000), "
                    "got %s",
                    cp_load_value_desc(kn, got, sizeof got));
                continue;
            }
            k = (int)kl;
            /* a bad value is reported here; no "missing" for its count below */
            bool ok = cp_load_num(c, t->kids[2 * i + 1], sub, what, R_POS, &v);
            for (int q = 0; q < j->n_counts; q++)
                if (j->counts[q] == k) {
                    speedup[q] = ok ? v : 1;
                    seen[q] = true;
                }
        }
        for (int q = 0; q < j->n_counts; q++)
            if (!seen[q])
                cp_load_err(c, t, sub,
                            "no speedup for %d accelerator%s (every allowed count needs one)",
                            j->counts[q], j->counts[q] == 1 ? "" : "s");
        cp_free(seen);
    } else {
        char got[120];
        cp_load_err(c, mn, sub, "'model' must be linear, amdahl or table, got %s",
                    cp_load_value_desc(mn, got, sizeof got));
    }
}

/* `scaling` is one model ({model: ...}) or, since 1.1, a map from
 * accelerator names to models; then every type in `throughput` needs one.
 * A map with a key of the single form ('model', 'serial_fraction',
 * 'speedup') is the single form, so its errors stay the 1.0 ones. */
static void load_scaling(lctx *c, const cp_node *m, const char *ent, cp_job *j)
{
    char sub[240];
    snprintf(sub, sizeof sub, "%s scaling", ent);
    if (cp_map_get(m, "model") || cp_map_get(m, "serial_fraction") || cp_map_get(m, "speedup") ||
        m->n == 0) {
        load_scaling_model(c, m, sub, j, &j->scaling, &j->serial_fraction, &j->speedup);
        return;
    }
    j->type_scaling = cp_calloc(m->n, sizeof *j->type_scaling);
    if (!j->type_scaling) {
        c->nomem = true;
        return;
    }
    for (size_t i = 0; i < m->n; i++) {
        const cp_node *k = m->kids[2 * i], *v = m->kids[2 * i + 1];
        int a = cp_input_find_accel(c->in, k->str);
        if (a < 0) {
            cp_load_err(c, k, sub,
                        "scaling for unknown accelerator '%s' (a per-type 'scaling' maps "
                        "accelerator names to models)",
                        k->str);
            continue;
        }
        char tsub[300];
        snprintf(tsub, sizeof tsub, "%s.%s", sub, k->str);
        if (!cp_load_want_map(c, v, sub, k->str))
            continue;
        cp_type_scaling *ts = &j->type_scaling[j->n_type_scaling++];
        ts->acc = a;
        load_scaling_model(c, v, tsub, j, &ts->model, &ts->serial_fraction, &ts->speedup);
    }
    for (int t = 0; t < j->n_throughput; t++) {
        int q;
        for (q = 0; q < j->n_type_scaling; q++)
            if (j->type_scaling[q].acc == j->throughput[t].acc)
                break;
        if (q == j->n_type_scaling)
            cp_load_err(c, m, sub,
                        "no model for accelerator '%s', which 'throughput' lists (per-type "
                        "scaling needs every type)",
                        c->in->accels[j->throughput[t].acc].name);
    }
}

/* capplan.5 §9.1: a non-empty list of shapes, instead of the flat keys. */
static void load_shapes(lctx *c, const cp_node *n, const char *ent, cp_job *j)
{
    static const char *const keys[] = {"cpus_per_accelerator", "memory_gb_per_accelerator",
                                       "speed", NULL};
    if (!cp_load_want_seq(c, n, ent, "shapes"))
        return;
    if (n->n == 0) {
        cp_load_err(c, n, ent, "'shapes' is empty (list at least one shape)");
        return;
    }
    cp_shape *sh = cp_calloc(n->n, sizeof *sh);
    if (!sh) {
        c->nomem = true;
        return;
    }
    cp_free(j->shapes);
    j->shapes = sh;
    j->n_shapes = 0;
    j->has_shapes = true;
    for (size_t i = 0; i < n->n; i++) {
        const cp_node *m = n->kids[i];
        char sub[260];
        snprintf(sub, sizeof sub, "%s shapes[%zu]", ent, i);
        if (!cp_load_want_map(c, m, ent, "shapes[]"))
            continue;
        cp_load_check_keys(c, m, sub, keys, NULL, NULL);
        cp_shape *s = &sh[j->n_shapes++];
        s->pos = m->pos;
        s->speed = 1;
        cp_node *x;
        if ((x = cp_map_get(m, "cpus_per_accelerator")))
            cp_load_num(c, x, sub, "cpus_per_accelerator", R_NONNEG, &s->cpus_per_accelerator);
        if ((x = cp_map_get(m, "memory_gb_per_accelerator")))
            cp_load_num(c, x, sub, "memory_gb_per_accelerator", R_NONNEG,
                        &s->memory_gb_per_accelerator);
        if ((x = cp_map_get(m, "speed")))
            cp_load_num(c, x, sub, "speed", R_POS, &s->speed);
    }
}

static void load_model_mem(lctx *c, const cp_node *m, const char *ent, cp_job *j)
{
    static const char *const keys[] = {"parameters", "bytes_per_parameter", "optimizer",
                                       "micro_batch", "activation_gb_per_sample", NULL};
    char sub[240];
    snprintf(sub, sizeof sub, "%s model", ent);
    cp_load_check_keys(c, m, sub, keys, NULL, NULL);
    cp_model_mem *mm = &j->model;
    mm->bytes_per_parameter = 2;
    mm->optimizer = CP_OPT_ADAM;
    mm->micro_batch = 1;
    bool ok = true;
    cp_node *n = cp_map_get(m, "parameters");
    if (!n) {
        cp_load_err(c, m, sub, "missing required key 'parameters'");
        ok = false;
    } else {
        ok &= cp_load_num(c, n, sub, "parameters", R_POS, &mm->parameters);
    }
    if ((n = cp_map_get(m, "bytes_per_parameter")))
        ok &= cp_load_num(c, n, sub, "bytes_per_parameter", R_POS, &mm->bytes_per_parameter);
    if ((n = cp_map_get(m, "optimizer"))) {
        const char *s = n->kind == CP_NODE_SCALAR ? n->str : "";
        if (!strcmp(s, "adam"))
            mm->optimizer = CP_OPT_ADAM;
        else if (!strcmp(s, "sgd"))
            mm->optimizer = CP_OPT_SGD;
        else if (!strcmp(s, "adafactor"))
            mm->optimizer = CP_OPT_ADAFACTOR;
        else {
            char got[120];
            cp_load_err(c, n, sub, "'optimizer' must be adam, sgd or adafactor, got %s",
                        cp_load_value_desc(n, got, sizeof got));
            ok = false;
        }
    }
    if ((n = cp_map_get(m, "micro_batch")))
        ok &= cp_load_num(c, n, sub, "micro_batch", R_POS, &mm->micro_batch);
    if ((n = cp_map_get(m, "activation_gb_per_sample")))
        ok &= cp_load_num(c, n, sub, "activation_gb_per_sample", R_NONNEG,
                          &mm->activation_gb_per_sample);
    if (ok) {
        j->has_model = true;
        j->has_accelerator_memory = true;
        j->accelerator_memory_gb = cp_model_memory_gb(mm);
    }
}

static void load_training(lctx *c, const cp_node *m, const char *ent, cp_job *j)
{
    cp_node *n;
    if (!(n = cp_map_get(m, "work")))
        cp_load_err(c, m, ent, "missing required key 'work'");
    else
        cp_load_num(c, n, ent, "work", R_POS, &j->work);
    if ((n = cp_map_get(m, "accelerators"))) {
        cp_load_int_list(c, n, ent, "accelerators", &j->counts, &j->n_counts);
    } else {
        if (!(j->counts = cp_calloc(1, sizeof *j->counts))) {
            c->nomem = true;
            return;
        }
        j->counts[0] = 1;
        j->n_counts = 1;
    }
    if (!(n = cp_map_get(m, "throughput"))) {
        cp_load_err(c, m, ent,
                    "missing required key 'throughput' (work units per second on one accelerator, "
                    "per type)");
    } else if (cp_load_want_map(c, n, ent, "throughput")) {
        j->throughput = cp_calloc(n->n ? n->n : 1, sizeof *j->throughput);
        if (!j->throughput) {
            c->nomem = true;
            return;
        }
        if (n->n == 0)
            cp_load_err(c, n, ent, "'throughput' lists no accelerator type");
        for (size_t i = 0; i < n->n; i++) {
            const cp_node *k = n->kids[2 * i];
            int a = cp_input_find_accel(c->in, k->str);
            if (a < 0) {
                cp_load_err(c, k, ent, "throughput for unknown accelerator '%s'", k->str);
                continue;
            }
            cp_throughput *t = &j->throughput[j->n_throughput];
            char what[200];
            snprintf(what, sizeof what, "throughput.%s", k->str);
            if (cp_load_num(c, n->kids[2 * i + 1], ent, what, R_POS, &t->value)) {
                t->acc = a;
                j->n_throughput++;
            }
        }
    }
    if ((n = cp_map_get(m, "scaling"))) {
        if (cp_load_want_map(c, n, ent, "scaling"))
            load_scaling(c, n, ent, j);
    }
    if ((n = cp_map_get(m, "power_limits")))
        cp_load_power_limits(c, n, ent, j);
    cp_node *am = cp_map_get(m, "accelerator_memory_gb");
    if (am)
        j->has_accelerator_memory =
            cp_load_num(c, am, ent, "accelerator_memory_gb", R_POS, &j->accelerator_memory_gb);
    if ((n = cp_map_get(m, "model"))) {
        if (am)
            cp_load_err(c, n, ent, "give either 'accelerator_memory_gb' or 'model', not both");
        else if (cp_load_want_map(c, n, ent, "model"))
            load_model_mem(c, n, ent, j);
    }
    if ((n = cp_map_get(m, "cpus_per_accelerator")))
        cp_load_num(c, n, ent, "cpus_per_accelerator", R_NONNEG, &j->cpus_per_accelerator);
    if ((n = cp_map_get(m, "memory_gb_per_accelerator")))
        cp_load_num(c, n, ent, "memory_gb_per_accelerator", R_NONNEG,
                    &j->memory_gb_per_accelerator);
    cp_node *sn = cp_map_get(m, "shapes");
    if (sn) {
        static const char *const flat[] = {"cpus_per_accelerator", "memory_gb_per_accelerator"};
        for (int f = 0; f < 2; f++)
            if ((n = cp_map_get(m, flat[f])))
                cp_load_err(c, n, ent,
                            "'%s' is given with 'shapes' (each shape gives its own; use one or "
                            "the other)",
                            flat[f]);
        load_shapes(c, sn, ent, j);
    }
    if (!j->has_shapes) {
        /* the one shape of a job without `shapes`: its flat keys, speed 1 */
        if (!(j->shapes = cp_calloc(1, sizeof *j->shapes))) {
            c->nomem = true;
            return;
        }
        j->shapes[0].cpus_per_accelerator = j->cpus_per_accelerator;
        j->shapes[0].memory_gb_per_accelerator = j->memory_gb_per_accelerator;
        j->shapes[0].speed = 1;
        j->shapes[0].pos = m->pos;
        j->n_shapes = 1;
    } else if (j->n_shapes > 0) {
        /* callers that know one shape only see the first */
        j->cpus_per_accelerator = j->shapes[0].cpus_per_accelerator;
        j->memory_gb_per_accelerator = j->shapes[0].memory_gb_per_accelerator;
    }
}

static void load_runtime(lctx *c, const cp_node *m, const char *ent, cp_job *j)
{
    static const char *const keys[] = {"model", "theta", "sigma_seconds", NULL};
    char sub[240];
    snprintf(sub, sizeof sub, "%s runtime", ent);
    cp_load_check_keys(c, m, sub, keys, NULL, NULL);
    cp_node *n = cp_map_get(m, "model");
    if (!n)
        cp_load_err(c, m, sub, "missing required key 'model' (ernest)");
    else if (n->kind != CP_NODE_SCALAR || strcmp(n->str, "ernest")) {
        char got[120];
        cp_load_err(c, n, sub, "'model' must be ernest, got %s",
                    cp_load_value_desc(n, got, sizeof got));
    }
    cp_node *t = cp_map_get(m, "theta");
    if (!t) {
        cp_load_err(c, m, sub, "missing required key 'theta' (machine type -> [θ0, θ1, θ2, θ3])");
        return;
    }
    if (!cp_load_want_map(c, t, sub, "theta"))
        return;
    j->theta = cp_calloc(t->n ? t->n : 1, sizeof *j->theta);
    if (!j->theta) {
        c->nomem = true;
        return;
    }
    if (t->n == 0)
        cp_load_err(c, t, sub, "'theta' lists no machine type");
    for (size_t i = 0; i < t->n; i++) {
        const cp_node *k = t->kids[2 * i], *v = t->kids[2 * i + 1];
        char what[200];
        snprintf(what, sizeof what, "theta.%s", k->str);
        if (v->kind != CP_NODE_SEQ || v->n != 4) {
            char got[120];
            if (v->kind == CP_NODE_SEQ)
                snprintf(got, sizeof got, "%zu number%s", v->n, v->n == 1 ? "" : "s");
            cp_load_err(c, v, sub, "'%s' must be a list of 4 numbers [θ0, θ1, θ2, θ3], got %s",
                        what,
                        v->kind == CP_NODE_SEQ ? got : cp_load_value_desc(v, got, sizeof got));
            continue;
        }
        cp_theta *th = &j->theta[j->n_theta];
        bool ok = true;
        for (int q = 0; q < 4; q++) {
            char elem[220];
            snprintf(elem, sizeof elem, "%s[%d]", what, q);
            ok &= cp_load_num(c, v->kids[q], sub, elem, R_NONNEG, &th->theta[q]);
        }
        if (ok && !(th->type = cp_strdup(k->str))) {
            c->nomem = true;
            return;
        }
        if (ok)
            j->n_theta++;
    }
    cp_node *sg = cp_map_get(m, "sigma_seconds");
    if (sg && cp_load_want_map(c, sg, sub, "sigma_seconds")) {
        for (size_t i = 0; i < sg->n; i++) {
            const cp_node *k = sg->kids[2 * i];
            int q;
            for (q = 0; q < j->n_theta; q++)
                if (!strcmp(j->theta[q].type, k->str))
                    break;
            if (q == j->n_theta) {
                cp_load_err(c, k, sub, "sigma_seconds for machine type '%s' that has no theta",
                            k->str);
                continue;
            }
            j->theta[q].has_sigma = cp_load_num(c, sg->kids[2 * i + 1], sub, "sigma_seconds",
                                                R_NONNEG, &j->theta[q].sigma_seconds);
        }
    }
}

static void load_dataflow(lctx *c, const cp_node *m, const char *ent, cp_job *j)
{
    cp_node *n;
    if (!(n = cp_map_get(m, "input_gb")))
        cp_load_err(c, m, ent, "missing required key 'input_gb'");
    else
        cp_load_num(c, n, ent, "input_gb", R_POS, &j->input_gb);
    if (!(n = cp_map_get(m, "machines")))
        cp_load_err(c, m, ent, "missing required key 'machines' (allowed machine counts)");
    else
        cp_load_int_list(c, n, ent, "machines", &j->counts, &j->n_counts);
    if (!(n = cp_map_get(m, "runtime")))
        cp_load_err(c, m, ent, "missing required key 'runtime'");
    else if (cp_load_want_map(c, n, ent, "runtime"))
        load_runtime(c, n, ent, j);
}

/* capplan.5 §9.3: `data: {site, gb}`; gb defaults to input_gb (dataflow) or 0. */
static void load_data(lctx *c, const cp_node *m, const char *ent, cp_job *j)
{
    static const char *const keys[] = {"site", "gb", NULL};
    char sub[240];
    snprintf(sub, sizeof sub, "%s data", ent);
    cp_load_check_keys(c, m, sub, keys, NULL, NULL);
    j->data_gb = j->kind == CP_JOB_DATAFLOW ? j->input_gb : 0;
    cp_node *x;
    if ((x = cp_map_get(m, "gb")))
        cp_load_num(c, x, sub, "gb", R_NONNEG, &j->data_gb);
    if (!(x = cp_map_get(m, "site"))) {
        cp_load_err(c, m, sub, "missing required key 'site' (where the job's input lives)");
        return;
    }
    char *name = NULL;
    if (!cp_load_str(c, x, sub, "site", &name))
        return;
    j->data_site = cp_input_find_site(c->in, name);
    if (j->data_site < 0)
        cp_load_err(c, x, sub, "unknown site '%s'", name);
    else
        c->in->uses_egress = true;
    cp_free(name);
}

/* A job's deadline_confidence that changes nothing is a warning (a key
 * without effect must not be silently ignored): the margin z_p * sigma
 * exists only for a dataflow job's machine types with sigma_seconds
 * (models/cp_modes.c, base_hours). */
static void warn_confidence(lctx *c, const cp_node *at, const char *ent, const cp_job *j)
{
    cp_pos pos = at ? at->pos : j->pos;
    if (j->kind == CP_JOB_TRAINING) {
        cp_diags_warn(c->diags, pos,
                      "%s: deadline_confidence has no effect on a training job: runtime "
                      "margins need a dataflow job's runtime.sigma_seconds",
                      ent);
        return;
    }
    char types[300] = "";
    int missing = 0;
    size_t len = 0;
    for (int i = 0; i < j->n_theta; i++) {
        if (j->theta[i].has_sigma)
            continue;
        if (missing++ < 4 && len < sizeof types)
            len += (size_t)snprintf(types + len, sizeof types - len, "%s'%s'", len ? ", " : "",
                                    j->theta[i].type);
    }
    if (missing == 0 || j->n_theta == 0)
        return;
    if (missing == j->n_theta)
        cp_diags_warn(c->diags, pos,
                      "%s: deadline_confidence has no effect: runtime has no sigma_seconds "
                      "('capplan fit dataflow' writes them)",
                      ent);
    else
        cp_diags_warn(c->diags, pos,
                      "%s: deadline_confidence has no effect on machine type%s %s%s: "
                      "runtime.sigma_seconds has no value for %s",
                      ent, missing == 1 ? "" : "s", types, missing > 4 ? " and more" : "",
                      missing == 1 ? "it" : "them");
}

void cp_load_jobs(lctx *c, cp_node *const *items, int n)
{
    cp_input *in = c->in;
    in->jobs = cp_calloc((size_t)(n ? n : 1), sizeof *in->jobs);
    if (!in->jobs) {
        c->nomem = true;
        return;
    }
    double hend = c->slots > 0 ? c->slots * in->slot_hours : INFINITY;
    for (int i = 0; i < n && !cp_diags_full(c->diags) && !c->nomem; i++) {
        cp_job *j = &in->jobs[in->n_jobs++];
        const cp_node *m = items[i];
        j->pos = m->pos;
        j->drop_penalty = 1000000;
        j->checkpoint_minutes = 30;
        j->restart_minutes = 5;
        j->placement.cloud = j->placement.on_prem = true;
        j->deadline_hour = hend;
        j->data_site = -1;
        j->team = -1;
        if (!cp_load_want_map(c, m, NULL, "jobs[]"))
            continue;
        char label[64], ent[200];
        cp_load_ent_name(label, sizeof label, "job", NULL, i);
        cp_node *nn = cp_map_get(m, "name");
        if (!nn)
            cp_load_err(c, m, label, "missing required key 'name'");
        else
            cp_load_str(c, nn, label, "name", &j->name);
        cp_load_ent_name(ent, sizeof ent, "job", j->name, i);

        cp_node *kn = cp_map_get(m, "kind");
        bool kind_ok = false;
        if (!kn) {
            cp_load_err(c, m, ent, "missing required key 'kind' (training or dataflow)");
        } else if (kn->kind == CP_NODE_SCALAR && !strcmp(kn->str, "training")) {
            j->kind = CP_JOB_TRAINING;
            kind_ok = true;
        } else if (kn->kind == CP_NODE_SCALAR && !strcmp(kn->str, "dataflow")) {
            j->kind = CP_JOB_DATAFLOW;
            kind_ok = true;
        } else {
            char got[120];
            cp_load_err(c, kn, ent, "'kind' must be training or dataflow, got %s",
                        cp_load_value_desc(kn, got, sizeof got));
        }
        /* Known keys: common plus the kind's (all kinds when it is unknown). */
        const char *keys[64];
        int nk = 0;
        for (const char *const *p = common_keys; *p; p++)
            keys[nk++] = *p;
        if (!kind_ok || j->kind == CP_JOB_TRAINING)
            for (const char *const *p = training_keys; *p; p++)
                keys[nk++] = *p;
        if (!kind_ok || j->kind == CP_JOB_DATAFLOW)
            for (const char *const *p = dataflow_keys; *p; p++)
                keys[nk++] = *p;
        keys[nk] = NULL;
        cp_load_check_keys(c, m, ent, keys, kind_ok ? kind_hint : NULL, j);

        cp_node *x;
        if ((x = cp_map_get(m, "release_hour")))
            cp_load_num(c, x, ent, "release_hour", R_NONNEG, &j->release_hour);
        if ((x = cp_map_get(m, "deadline_hour"))) {
            double d;
            if (cp_load_num(c, x, ent, "deadline_hour", R_POS, &d)) {
                j->has_deadline = true;
                j->deadline_hour = d < hend ? d : hend; /* capplan.5 §4: beyond the end reads as the end */
            }
        }
        if ((x = cp_map_get(m, "drop_penalty")))
            cp_load_num(c, x, ent, "drop_penalty", R_NONNEG, &j->drop_penalty);
        if ((x = cp_map_get(m, "preemptible")))
            cp_load_bool(c, x, ent, "preemptible", &j->preemptible);
        bool spot_keys_ok = true; /* a bad value is an error, not also a warning */
        if ((x = cp_map_get(m, "checkpoint_minutes")))
            spot_keys_ok &= cp_load_num(c, x, ent, "checkpoint_minutes", R_POS, &j->checkpoint_minutes);
        if ((x = cp_map_get(m, "restart_minutes")))
            spot_keys_ok &= cp_load_num(c, x, ent, "restart_minutes", R_NONNEG, &j->restart_minutes);
        if ((x = cp_map_get(m, "deadline_confidence")))
            j->has_deadline_confidence =
                cp_load_num(c, x, ent, "deadline_confidence", R_PROB, &j->deadline_confidence);
        if ((x = cp_map_get(m, "placement")) && cp_load_want_map(c, x, ent, "placement"))
            cp_load_placement(c, x, ent, &j->placement);
        if ((x = cp_map_get(m, "run")))
            cp_load_run(c, x, ent, j);
        if ((x = cp_map_get(m, "team")))
            cp_load_job_team(c, x, ent, j);
        if (!kind_ok)
            continue;
        if (j->kind == CP_JOB_TRAINING)
            load_training(c, m, ent, j);
        else
            load_dataflow(c, m, ent, j);
        if ((x = cp_map_get(m, "data")) && cp_load_want_map(c, x, ent, "data"))
            load_data(c, x, ent, j);
        if (j->has_deadline_confidence)
            warn_confidence(c, cp_map_get(m, "deadline_confidence"), ent, j);
        /* only spot runs pay checkpoint and restart time (capplan.5 §2), and a
         * job that is not preemptible has no spot mode */
        static const char *const spot_keys[] = {"checkpoint_minutes", "restart_minutes", NULL};
        for (const char *const *k = spot_keys; spot_keys_ok && !j->preemptible && *k; k++)
            if ((x = cp_map_get(m, *k)))
                cp_diags_warn(c->diags, x->pos,
                              "%s: %s has no effect: the job is not preemptible, and only its "
                              "spot runs would pay checkpoint and restart time",
                              ent, *k);
    }
}
