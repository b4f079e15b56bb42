/*
 * Mode enumeration (capplan.5 §2). Candidates are filtered in the order a user
 * thinks about them: placement rules, then eligibility (accelerator type
 * and memory, or machine-type label), then the time window. The counts
 * kept at each stage give the reason for a job that ends with no mode.
 */
#include "cp_modes.h"

#include "cp_alloc.h"
#include "cp_buf.h"
#include "cp_num.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void cp_modeset_free(cp_modeset *ms)
{
    if (!ms)
        return;
    for (int r = 0; r < ms->n_res; r++)
        cp_free(ms->res[r].id);
    cp_free(ms->res);
    cp_free(ms->res_of_pool);
    cp_free(ms->ondemand_of_offer);
    cp_free(ms->spot_of_offer);
    cp_free(ms->modes);
    cp_free(ms->job_first);
    cp_free(ms->deps);
    cp_free(ms->svc_first);
    cp_free(ms->class_first);
    cp_free(ms->dep_share);
    if (ms->reason)
        for (int j = 0; j < ms->n_jobs; j++)
            cp_free(ms->reason[j]);
    cp_free(ms->reason);
    cp_free(ms);
}

double cp_busy_power_w(const cp_input *in, const cp_job *j, const cp_machine *m, int count)
{
    return cp_busy_power_shape_w(in, j, m, count, 0);
}

int cp_duration_slots(double hours, double slot_hours, double *last_frac)
{
    double x = hours / slot_hours;
    double c = ceil(x - 1e-9);
    int d = cp_num_clamp_int(c, 1, 1000000000);
    if (last_frac)
        *last_frac = x - (d - 1);
    return d;
}

void cp_job_window(const cp_input *in, const cp_job *j, int *s_lo, int *s_hi)
{
    double h = in->slot_hours;
    double lo = ceil(j->release_hour / h - 1e-9);
    double hi = floor(j->deadline_hour / h + 1e-9);
    if (hi > in->slots)
        hi = in->slots;
    if (lo < 0)
        lo = 0;
    *s_lo = cp_num_clamp_int(lo, 0, 2000000000);
    *s_hi = cp_num_clamp_int(hi, -1, in->slots);
}

double cp_model_memory_gb(const cp_model_mem *m)
{
    /* Bytes per parameter for the optimizer state (Rajbhandari et al.,
     * ZeRO, SC'20, section 3.1): Adam keeps momentum and variance in fp32
     * (8 B) and SGD with momentum one fp32 buffer (4 B); Adafactor's
     * factored second moment is O(rows+cols), counted as 0. Training in
     * less than fp32 adds an fp32 master copy of the weights (4 B). */
    double b = m->bytes_per_parameter;
    double opt = m->optimizer == CP_OPT_ADAM ? 8 : m->optimizer == CP_OPT_SGD ? 4 : 0;
    if (b < 4)
        opt += 4;
    double bytes = m->parameters * (2 * b + opt); /* weights + gradients + state */
    return bytes / 1e9 + m->micro_batch * m->activation_gb_per_sample;
}

/* Acklam's rational approximation, refined by one Halley step on erfc, so
 * the result is accurate to about 1e-15. */
double cp_normal_quantile(double p)
{
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                               -2.759285104469687e+02, 1.383577518672690e+02,
                               -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                               -1.556989798598866e+02, 6.680131188771972e+01,
                               -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                               -2.400758277161838e+00, -2.549732539343734e+00,
                               4.374664141464968e+00, 2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                               2.445134137142996e+00, 3.754408661907416e+00};
    double x;
    if (p <= 0)
        return -INFINITY;
    if (p >= 1)
        return INFINITY;
    if (p < 0.02425) {
        double q = sqrt(-2 * log(p));
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    } else if (p <= 1 - 0.02425) {
        double q = p - 0.5, r = q * q;
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    } else {
        double q = sqrt(-2 * log(1 - p));
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    double e = 0.5 * erfc(-x / sqrt(2)) - p;
    double u = e * sqrt(2 * M_PI) * exp(x * x / 2);
    return x - u / (1 + x * u / 2);
}

static bool str_in(char *const *list, int n, const char *s)
{
    if (!s)
        return false;
    for (int i = 0; i < n; i++)
        if (!strcmp(list[i], s))
            return true;
    return false;
}

static bool int_in(const int *list, int n, int v)
{
    for (int i = 0; i < n; i++)
        if (list[i] == v)
            return true;
    return false;
}

static bool placement_allows(const cp_input *in, const cp_job *j, const cp_resource *r)
{
    return cp_placement_allows(in, &j->placement, j->preemptible, r);
}

static double throughput_for(const cp_job *j, int acc)
{
    for (int i = 0; i < j->n_throughput; i++)
        if (j->throughput[i].acc == acc)
            return j->throughput[i].value;
    return 0;
}

static const cp_theta *theta_for(const cp_job *j, const char *type)
{
    for (int i = 0; i < j->n_theta; i++)
        if (!strcmp(j->theta[i].type, type))
            return &j->theta[i];
    return NULL;
}

/* Base hours of job j with `count` units on machine m in shape `shape`
 * (capplan.5 §9.1: the shape's speed multiplies the throughput); 0 when
 * ineligible. */
static double base_hours(const cp_input *in, const cp_job *j, const cp_machine *m, int count,
                         int shape, int limit)
{
    if (j->kind == CP_JOB_TRAINING) {
        double thr = m->acc >= 0 ? throughput_for(j, m->acc) : 0;
        if (thr <= 0)
            return 0;
        if (j->has_accelerator_memory && in->accels[m->acc].memory_gb < j->accelerator_memory_gb)
            return 0;
        double speed = shape < j->n_shapes ? j->shapes[shape].speed : 1;
        if (limit >= 0) /* capplan.5 §10.3: the limit's speed too */
            speed *= j->power_limits[limit].speed;
        return j->work / (3600.0 * thr * cp_job_speedup_on(j, m->acc, count) * speed);
    }
    const cp_theta *th = m->type ? theta_for(j, m->type) : NULL;
    if (!th)
        return 0;
    double k = count;
    double t = th->theta[0] + th->theta[1] * j->input_gb / k + th->theta[2] * log(k) + th->theta[3] * k;
    return t / 3600.0 + cp_margin_hours(in, j, m);
}

/* capplan.5 §2: a spot run is stretched by its expected lost work; 1 elsewhere. */
static double spot_stretch(const cp_input *in, const cp_job *j, const cp_resource *res)
{
    if (res->kind != CP_RES_SPOT)
        return 1;
    return 1 + in->offers[res->index].spot_interruptions_per_hour *
                   (j->checkpoint_minutes / 120 + j->restart_minutes / 60);
}

double cp_margin_hours(const cp_input *in, const cp_job *j, const cp_machine *m)
{
    if (j->kind != CP_JOB_DATAFLOW || !m->type)
        return 0;
    const cp_theta *th = theta_for(j, m->type);
    bool conf = j->has_deadline_confidence || in->has_deadline_confidence;
    if (!th || !conf || !th->has_sigma)
        return 0;
    double p = j->has_deadline_confidence ? j->deadline_confidence : in->deadline_confidence;
    return cp_normal_quantile(p) * th->sigma_seconds / 3600.0;
}

static void fmt_hours(cp_buf *b, double h);

/* ", with a runtime margin of M h (deadline_confidence P)" for a reason
 * naming a duration on machine m (nothing without a margin). */
static void put_margin(cp_buf *b, const cp_input *in, const cp_job *j, const cp_machine *m)
{
    double mh = cp_margin_hours(in, j, m);
    if (!(mh > 0))
        return;
    double p = j->has_deadline_confidence ? j->deadline_confidence : in->deadline_confidence;
    cp_buf_puts(b, ", with a runtime margin of ");
    fmt_hours(b, mh);
    cp_buf_printf(b, " (deadline_confidence %g%s)", p, j->has_deadline_confidence ? "" : " of the objective");
}

static int n_resources(const cp_input *in);

/* Whether power limit li (-1: none) is a choice on machine m: none always,
 * a listed limit on its own accelerator type (capplan.5 §10.3). */
static bool limit_applies(const cp_job *j, const cp_machine *m, int li)
{
    return li < 0 || (m->acc >= 0 && j->power_limits[li].acc == m->acc);
}

/* Shapes to enumerate: a training job's (at least its one flat shape), one
 * for dataflow. */
static int shapes_of(const cp_job *j)
{
    return j->kind == CP_JOB_TRAINING && j->n_shapes > 0 ? j->n_shapes : 1;
}

static int add_resources(const cp_input *in, cp_modeset *ms)
{
    int n = n_resources(in);
    ms->res = cp_calloc((size_t)(n ? n : 1), sizeof *ms->res);
    ms->res_of_pool = cp_calloc((size_t)(in->n_pools ? in->n_pools : 1), sizeof(int));
    ms->ondemand_of_offer = cp_calloc((size_t)(in->n_offers ? in->n_offers : 1), sizeof(int));
    ms->spot_of_offer = cp_calloc((size_t)(in->n_offers ? in->n_offers : 1), sizeof(int));
    if (!ms->res || !ms->res_of_pool || !ms->ondemand_of_offer || !ms->spot_of_offer)
        return CP_ERR_NOMEM;
    for (int p = 0; p < in->n_pools; p++) {
        cp_resource *r = &ms->res[ms->n_res];
        r->kind = CP_RES_POOL;
        r->index = p;
        r->mach = &in->pools[p].node;
        r->site = in->pools[p].site;
        r->name = in->pools[p].name;
        if (!(r->id = cp_strdup(r->name)))
            return CP_ERR_NOMEM;
        r->max_units = cp_resource_max_units(in, CP_RES_POOL, p);
        ms->res_of_pool[p] = ms->n_res++;
    }
    for (int o = 0; o < in->n_offers; o++) {
        const cp_offer *of = &in->offers[o];
        for (int spot = 0; spot <= (of->has_spot ? 1 : 0); spot++) {
            cp_resource *r = &ms->res[ms->n_res];
            r->kind = spot ? CP_RES_SPOT : CP_RES_ONDEMAND;
            r->index = o;
            r->mach = &of->inst;
            r->site = of->site;
            r->name = of->name;
            r->max_units = cp_resource_max_units(in, r->kind, o);
            cp_buf b;
            cp_buf_init(&b);
            cp_buf_puts(&b, of->name);
            if (spot)
                cp_buf_puts(&b, ":spot");
            if (!(r->id = cp_buf_detach(&b)))
                return CP_ERR_NOMEM;
            if (spot)
                ms->spot_of_offer[o] = ms->n_res++;
            else
                ms->ondemand_of_offer[o] = ms->n_res++;
        }
        if (!of->has_spot)
            ms->spot_of_offer[o] = -1;
    }
    return CP_OK;
}

static void fmt_hours(cp_buf *b, double h)
{
    char tmp[40];
    snprintf(tmp, sizeof tmp, "%.2f", h);
    /* trim trailing zeros: "9.50" -> "9.5", "6.00" -> "6" */
    char *e = tmp + strlen(tmp) - 1;
    while (*e == '0')
        *e-- = '\0';
    if (*e == '.')
        *e = '\0';
    cp_buf_puts(b, tmp);
    cp_buf_puts(b, " h");
}

/* What no_mode_reason learns of a job's resources and counts. */
typedef struct mode_survey {
    int allowed;     /* resources its placement allows */
    int typed;       /* of those, of a type it can use */
    int eligible;    /* of those, with the accelerator memory it needs */
    double best_mem; /* the largest memory too small, and its accelerator */
    int best_mem_acc;
    double fastest; /* the fastest eligible (resource, count, shape) that fits */
    int fast_res, fast_k;
    int unfit;         /* eligible candidates with a duration that do not fit */
    char fit_why[300]; /* why the first of them does not */
} mode_survey;

/* Job j's resources and counts, as no_mode_reason tells them. */
static void survey_modes(const cp_input *in, const cp_modeset *ms, const cp_job *j, mode_survey *v)
{
    *v = (mode_survey){0, 0, 0, -1, -1, INFINITY, -1, 0, 0, ""};
    for (int r = 0; r < ms->n_res; r++) {
        const cp_resource *res = &ms->res[r];
        if (!placement_allows(in, j, res))
            continue;
        v->allowed++;
        const cp_machine *m = res->mach;
        if (j->kind == CP_JOB_TRAINING) {
            if (m->acc < 0 || throughput_for(j, m->acc) <= 0)
                continue;
            v->typed++;
            double mem = in->accels[m->acc].memory_gb;
            if (j->has_accelerator_memory && mem < j->accelerator_memory_gb) {
                if (mem > v->best_mem) {
                    v->best_mem = mem;
                    v->best_mem_acc = m->acc;
                }
                continue;
            }
        } else if (!m->type || !theta_for(j, m->type)) {
            continue;
        } else {
            v->typed++;
        }
        v->eligible++;
        for (int q = 0; q < j->n_counts; q++) {
            for (int sh = 0; sh < shapes_of(j); sh++) {
                double h = base_hours(in, j, m, j->counts[q], sh, -1) * spot_stretch(in, j, res);
                if (!(h > 0) || !isfinite(h))
                    continue;
                if (!cp_mode_fits(in, j, m, res->name, res->kind == CP_RES_POOL, res->max_units,
                                  j->counts[q], sh, v->unfit ? NULL : v->fit_why,
                                  sizeof v->fit_why)) {
                    v->unfit++;
                    continue;
                }
                if (h < v->fastest) {
                    v->fastest = h;
                    v->fast_res = r;
                    v->fast_k = j->counts[q];
                }
            }
        }
    }
}

/* No resource the placement allows has a type job j can use: the types it
 * lists. */
static void put_no_type(cp_buf *b, const cp_input *in, const cp_job *j, int allowed)
{
    if (j->kind == CP_JOB_TRAINING) {
        cp_buf_puts(b, "no eligible accelerator: throughput lists ");
        for (int i = 0; i < j->n_throughput; i++)
            cp_buf_printf(b, "%s%s", i ? ", " : "", in->accels[j->throughput[i].acc].name);
        cp_buf_printf(b, ", and none of the %d pools and markets its placement allows carries one",
                      allowed);
    } else {
        cp_buf_puts(b, "no eligible machine type: runtime.theta lists ");
        for (int i = 0; i < j->n_theta; i++)
            cp_buf_printf(b, "%s%s", i ? ", " : "", j->theta[i].type);
        cp_buf_printf(
            b, ", and none of the %d pools and markets its placement allows has one of those types",
            allowed);
    }
}

/* Job j's fastest mode does not fit its window: the two, and whether the
 * margin made the difference. */
static void put_too_long(cp_buf *b, const cp_input *in, const cp_modeset *ms, const cp_job *j,
                         const mode_survey *v)
{
    int lo, hi;
    cp_job_window(in, j, &lo, &hi);
    double wh = (hi - lo) * in->slot_hours;
    if (hi <= lo) {
        cp_buf_printf(b, "its window is empty: release at ");
        fmt_hours(b, j->release_hour);
        cp_buf_puts(b, ", deadline at ");
        fmt_hours(b, j->deadline_hour);
        return;
    }
    const cp_resource *fr = &ms->res[v->fast_res];
    double fastest = v->fastest;
    cp_buf_puts(b, "fastest mode takes ");
    fmt_hours(b, fastest);
    if (j->kind == CP_JOB_TRAINING)
        cp_buf_printf(b, " on %d x %s (%s%s)", v->fast_k, in->accels[fr->mach->acc].name, fr->name,
                      fr->kind == CP_RES_SPOT ? ", spot" : "");
    else
        cp_buf_printf(b, " on %d x %s (%s%s)", v->fast_k, fr->mach->type, fr->name,
                      fr->kind == CP_RES_SPOT ? ", spot" : "");
    int d = cp_duration_slots(fastest, in->slot_hours, NULL);
    if (d * in->slot_hours > fastest + 1e-9 && in->slot_hours != 1.0)
        cp_buf_printf(b, ", %d slots", d);
    put_margin(b, in, j, fr->mach);
    cp_buf_puts(b, "; window is ");
    fmt_hours(b, wh);
    cp_buf_puts(b, " (slots ");
    cp_buf_printf(b, "%d to %d)", lo, hi);
    /* the margin caused the drop when the run alone fits */
    double mh = cp_margin_hours(in, j, fr->mach);
    if (mh > 0) {
        double bare = fastest - mh * spot_stretch(in, j, fr);
        if (bare > 0 && cp_duration_slots(bare, in->slot_hours, NULL) <= hi - lo) {
            cp_buf_puts(b, ": the margin makes it too long (");
            fmt_hours(b, bare);
            cp_buf_puts(b, " without it)");
        }
    }
}

/* Why job j has no mode; a new string or NULL on out of memory. */
static char *no_mode_reason(const cp_input *in, const cp_modeset *ms, const cp_job *j)
{
    cp_buf b;
    cp_buf_init(&b);
    mode_survey v;
    survey_modes(in, ms, j, &v);
    if (v.allowed == 0) {
        cp_buf_puts(&b, "no pool or offer passes its placement rules");
        if (!j->placement.on_prem && !j->placement.cloud)
            cp_buf_puts(&b, " (both on_prem and cloud are false)");
    } else if (v.typed == 0) {
        put_no_type(&b, in, j, v.allowed);
    } else if (v.eligible == 0) {
        cp_buf_puts(&b, "no eligible accelerator: needs ");
        cp_buf_num(&b, j->accelerator_memory_gb);
        cp_buf_puts(&b, " GB per accelerator");
        if (j->has_model)
            cp_buf_puts(&b, " (estimated from its model)");
        cp_buf_puts(&b, "; largest eligible is ");
        cp_buf_num(&b, v.best_mem);
        cp_buf_printf(&b, " GB (%s)", in->accels[v.best_mem_acc].name);
    } else if (v.fast_res < 0 && v.unfit > 0) {
        /* capplan.5 §2, version 1.1: a mode must fit the units; name the first misfit */
        cp_buf_printf(&b, "no mode fits the units: %s", v.fit_why);
        if (v.unfit > 1)
            cp_buf_printf(&b, " (and %d more (resource, count%s) choices do not fit)", v.unfit - 1,
                          shapes_of(j) > 1 ? ", shape" : "");
    } else if (v.fast_res < 0) {
        cp_buf_puts(&b, "its duration is not a finite positive number of hours on any eligible resource (check work, throughput or theta)");
    } else {
        put_too_long(&b, in, ms, j, &v);
    }
    return cp_buf_detach(&b);
}

/* Duration of job j with `count` units on resource r: false when that
 * (resource, count) is ineligible or has no allowed start in [lo, hi). */
static bool mode_timing(const cp_input *in, const cp_job *j, const cp_resource *res, int k,
                        int shape, int limit, int lo, int hi, double *base_out, double *hours_out,
                        int *d_out, double *frac_out)
{
    double base = base_hours(in, j, res->mach, k, shape, limit);
    if (!(base > 0) || !isfinite(base))
        return false;
    double hours = base * spot_stretch(in, j, res);
    double frac;
    int d = cp_duration_slots(hours, in->slot_hours, &frac);
    if (hi - d < lo)
        return false;
    *base_out = base;
    *hours_out = hours;
    *d_out = d;
    *frac_out = frac;
    return true;
}

/* The placement rule that excludes resource r for job j, or NULL. */
static const char *placement_why(const cp_input *in, const cp_job *j, const cp_resource *r)
{
    const cp_placement *pl = &j->placement;
    if (r->kind == CP_RES_POOL) {
        if (!pl->on_prem)
            return "placement: on_prem is false";
        if (pl->has_pools && !int_in(pl->pools, pl->n_pools, r->index))
            return "placement: not in placement.pools";
        return NULL;
    }
    const cp_offer *o = &in->offers[r->index];
    if (!pl->cloud)
        return "placement: cloud is false";
    if (r->kind == CP_RES_SPOT && !j->preemptible)
        return "placement: a spot market needs preemptible: true";
    if (pl->has_offers && !int_in(pl->offers, pl->n_offers, r->index))
        return "placement: not in placement.offers";
    if (pl->has_providers && !str_in(pl->providers, pl->n_providers, o->provider))
        return "placement: its provider is not in placement.providers";
    if (pl->has_regions && !str_in(pl->regions, pl->n_regions, o->region))
        return "placement: its region is not in placement.regions";
    return NULL;
}

bool cp_mode_exclusion(const cp_input *in, const cp_modeset *ms, int job, int res, int count,
                       int shape, int limit, char *why, size_t size)
{
    const cp_job *j = &in->jobs[job];
    const cp_resource *r = &ms->res[res];
    const cp_machine *m = r->mach;
    const char *p = placement_why(in, j, r);
    if (p) {
        snprintf(why, size, "%s", p);
        return true;
    }
    if (j->kind == CP_JOB_TRAINING) {
        if (m->acc < 0) {
            snprintf(why, size, "no accelerators");
            return true;
        }
        if (throughput_for(j, m->acc) <= 0) {
            snprintf(why, size, "no throughput for %s", in->accels[m->acc].name);
            return true;
        }
        if (j->has_accelerator_memory && in->accels[m->acc].memory_gb < j->accelerator_memory_gb) {
            snprintf(why, size, "memory: needs %g GB per accelerator, %s has %g GB",
                     j->accelerator_memory_gb, in->accels[m->acc].name,
                     in->accels[m->acc].memory_gb);
            return true;
        }
    } else if (!m->type || !theta_for(j, m->type)) {
        snprintf(why, size, "no runtime.theta for machine type '%s'", m->type ? m->type : "");
        return true;
    }
    if (limit >= 0 && (limit >= j->n_power_limits || j->power_limits[limit].acc != m->acc)) {
        snprintf(why, size, "power limit: none listed for this accelerator type");
        return true;
    }
    double base = base_hours(in, j, m, count, shape, limit);
    if (!(base > 0) || !isfinite(base)) {
        snprintf(why, size, "its duration is not a finite positive number of hours");
        return true;
    }
    char fit[300];
    if (!cp_mode_fits(in, j, m, r->name, r->kind == CP_RES_POOL, r->max_units, count, shape, fit,
                      sizeof fit)) {
        snprintf(why, size, "does not fit the units: %s", fit);
        return true;
    }
    int lo, hi, d;
    double hours, frac;
    cp_job_window(in, j, &lo, &hi);
    if (!mode_timing(in, j, r, count, shape, limit, lo, hi, &base, &hours, &d, &frac)) {
        hours = base * spot_stretch(in, j, r);
        d = cp_duration_slots(hours, in->slot_hours, NULL);
        snprintf(why, size, "window: takes %.3g h (%d slot%s), slots %d to %d allow %d", hours, d,
                 d == 1 ? "" : "s", lo, hi, hi > lo ? hi - lo : 0);
        return true;
    }
    return false;
}

/* Resources in the order add_resources makes them, without allocating. */
static int n_resources(const cp_input *in)
{
    int n = in->n_pools + in->n_offers;
    for (int o = 0; o < in->n_offers; o++)
        n += in->offers[o].has_spot;
    return n;
}

static cp_resource resource_at(const cp_input *in, int r)
{
    cp_resource res;
    memset(&res, 0, sizeof res);
    if (r < in->n_pools) {
        res.kind = CP_RES_POOL;
        res.index = r;
        res.mach = &in->pools[r].node;
        return res;
    }
    r -= in->n_pools;
    for (int o = 0; o < in->n_offers; o++) {
        int n = in->offers[o].has_spot ? 2 : 1;
        if (r < n) {
            res.kind = r ? CP_RES_SPOT : CP_RES_ONDEMAND;
            res.index = o;
            res.mach = &in->offers[o].inst;
            return res;
        }
        r -= n;
    }
    return res;
}

void cp_modes_size(const cp_input *in, cp_model_size *sz)
{
    memset(sz, 0, sizeof *sz);
    int n_res = n_resources(in);
    for (int r = 0; r < n_res; r++)
        if (r >= in->n_pools)
            sz->cells += in->slots;
    /* resources outside, so U is found once per resource without a table */
    for (int r = 0; r < n_res; r++) {
        cp_resource res = resource_at(in, r);
        res.max_units = cp_resource_max_units(in, res.kind, res.index);
        for (int jj = 0; jj < in->n_jobs; jj++) {
            const cp_job *j = &in->jobs[jj];
            if (!placement_allows(in, j, &res))
                continue;
            int lo, hi;
            cp_job_window(in, j, &lo, &hi);
            for (int q = 0; q < j->n_counts; q++) {
                for (int sh = 0; sh < shapes_of(j); sh++)
                for (int li = -1; li < j->n_power_limits; li++) {
                    double base, hours, frac;
                    int d;
                    if (!limit_applies(j, res.mach, li) ||
                        !mode_timing(in, j, &res, j->counts[q], sh, li, lo, hi, &base, &hours, &d,
                                     &frac) ||
                        !cp_mode_fits(in, j, res.mach, "", res.kind == CP_RES_POOL, res.max_units,
                                      j->counts[q], sh, NULL, 0))
                        continue;
                    double starts = (double)(hi - d) - lo + 1;
                    sz->modes += 1;
                    sz->starts += starts;
                    /* the assignment row, then d slots of up to 3 capacity rows
                     * and, on a pool, one power-cap row */
                    sz->nnz += starts * (1.0 + d * (CP_DIMS + (res.kind == CP_RES_POOL)));
                }
            }
        }
    }
    sz->bytes = sz->nnz * CP_MODEL_BYTES_PER_NNZ + (sz->starts + sz->cells) * CP_MODEL_BYTES_PER_COL +
                sz->modes * (double)sizeof(cp_mode);
}

/* Refuses an instance over the limits of cp_modes.h before anything is
 * allocated for it; the message says how big it would have been. */
static int check_size(const cp_input *in, cp_err *err)
{
    if (in->n_jobs > CP_MAX_JOBS)
        return cp_err_set(err, CP_ERR_INPUT, in->jobs[CP_MAX_JOBS].pos,
                          "too many jobs: %d, the limit is %d", in->n_jobs, CP_MAX_JOBS);
    cp_model_size sz;
    cp_modes_size(in, &sz);
    const char *what = NULL;
    if (sz.modes > CP_MAX_MODES)
        what = "modes";
    else if (sz.starts > CP_MAX_STARTS)
        what = "start columns";
    else if (sz.cells > CP_MAX_MARKET_CELLS)
        what = "market slots";
    else if (sz.bytes > CP_MAX_MODEL_BYTES)
        what = "memory";
    if (!what)
        return CP_OK;
    return cp_err_set(err, CP_ERR_INPUT, cp_pos_none(),
                      "the instance is too large (%s over the limit): %.0f modes (limit %ld), "
                      "%.0f start columns (limit %ld), %.0f market slots (limit %ld), "
                      "%.0f non-zeros, about %.1f GiB for the model (limit %.0f GiB); "
                      "use longer slots, a shorter horizon, fewer counts or narrower placement",
                      what, sz.modes, (long)CP_MAX_MODES, sz.starts, (long)CP_MAX_STARTS, sz.cells,
                      (long)CP_MAX_MARKET_CELLS, sz.nnz, sz.bytes / (1024.0 * 1024 * 1024),
                      CP_MAX_MODEL_BYTES / (1024.0 * 1024 * 1024));
}

int cp_modes_build(const cp_input *in, cp_modeset **out, cp_err *err)
{
    int rc = check_size(in, err);
    if (rc)
        return rc;
    cp_modeset *ms = cp_calloc(1, sizeof *ms);
    if (!ms)
        return cp_err_nomem(err);
    size_t cap = 0;
    rc = add_resources(in, ms);
    if (rc)
        goto fail;
    ms->job_first = cp_calloc((size_t)in->n_jobs + 1, sizeof(int));
    ms->reason = cp_calloc((size_t)(in->n_jobs ? in->n_jobs : 1), sizeof(char *));
    if (!ms->job_first || !ms->reason) {
        rc = CP_ERR_NOMEM;
        goto fail;
    }
    ms->n_jobs = in->n_jobs;
    for (int jj = 0; jj < in->n_jobs; jj++) {
        const cp_job *j = &in->jobs[jj];
        ms->job_first[jj] = ms->n_modes;
        int lo, hi;
        cp_job_window(in, j, &lo, &hi);
        for (int r = 0; r < ms->n_res; r++) {
            const cp_resource *res = &ms->res[r];
            if (!placement_allows(in, j, res))
                continue;
            const cp_machine *m = res->mach;
            double egress = cp_job_egress(in, j, res->site);
            for (int q = 0; q < j->n_counts; q++) {
                for (int sh = 0; sh < shapes_of(j); sh++)
                for (int li = -1; li < j->n_power_limits; li++) {
                    int k = j->counts[q];
                    double base, hours, frac;
                    int d;
                    if (!limit_applies(j, m, li) ||
                        !mode_timing(in, j, res, k, sh, li, lo, hi, &base, &hours, &d, &frac))
                        continue;
                    /* capplan.5 §2, version 1.1: a mode no plan could place is not a mode */
                    if (!cp_mode_fits(in, j, m, res->name, res->kind == CP_RES_POOL, res->max_units,
                                      k, sh, NULL, 0))
                        continue;
                    if (CP_GROW(ms->modes, cap, (size_t)ms->n_modes + 1)) {
                        rc = CP_ERR_NOMEM;
                        goto fail;
                    }
                    cp_mode *md = &ms->modes[ms->n_modes++];
                    memset(md, 0, sizeof *md);
                    md->job = jj;
                    md->res = r;
                    md->count = k;
                    md->acc = m->acc;
                    md->shape = sh;
                    md->limit = li;
                    md->egress = egress;
                    if (j->kind == CP_JOB_TRAINING) {
                        md->demand[CP_DIM_ACC] = k;
                        const cp_shape *shp = j->n_shapes ? &j->shapes[sh] : NULL;
                        md->demand[CP_DIM_CPU] =
                            k * (shp ? shp->cpus_per_accelerator : j->cpus_per_accelerator);
                        md->demand[CP_DIM_MEM] = k * (shp ? shp->memory_gb_per_accelerator
                                                          : j->memory_gb_per_accelerator);
                    } else {
                        md->demand[CP_DIM_ACC] = (double)k * m->accelerators;
                        md->demand[CP_DIM_CPU] = k * m->cpus;
                        md->demand[CP_DIM_MEM] = k * m->memory_gb;
                    }
                    md->base_hours = base;
                    md->hours = hours;
                    md->slots = d;
                    md->last_frac = frac;
                    md->busy_w =
                        res->kind == CP_RES_POOL ? cp_busy_power_limit_w(in, j, m, k, sh, li) : 0;
                    md->s_min = lo;
                    md->s_max = hi - d;
                }
            }
        }
        if (ms->n_modes == ms->job_first[jj]) {
            ms->reason[jj] = no_mode_reason(in, ms, j);
            if (!ms->reason[jj]) {
                rc = CP_ERR_NOMEM;
                goto fail;
            }
        }
    }
    ms->job_first[in->n_jobs] = ms->n_modes;
    if ((rc = cp_modes_apply_after(in, ms)) || (rc = cp_deploys_build(in, ms)))
        goto fail;
    *out = ms;
    return CP_OK;
fail:
    cp_modeset_free(ms);
    return rc == CP_ERR_NOMEM ? cp_err_nomem(err) : rc;
}
