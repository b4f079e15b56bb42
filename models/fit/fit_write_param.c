/*
 * The report and the `jobs:` fragment of `fit dataflow --params` (see
 * cp_fit_write.h and cp_fit_param.h). Every line that holds user text
 * (file, job, type and parameter names) goes through cp_yaml_put_comment
 * or cp_yaml_put_str: a newline in a name must not start a line of YAML.
 */
#include "cp_fit_write.h"

#include "cp_fit_param.h"
#include "cp_yaml.h"
#include "cp_yaml_put.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cp_fit_df_machines(cp_buf *b, const cp_df_report *r, const char *job)
{
    double ms[64];
    int nm = 0;
    for (int j = 0; j < r->n_fits; j++) {
        const cp_df_fit *g = &r->fits[j];
        if (strcmp(g->job, job))
            continue;
        for (int k = 0; k < g->e.scaleouts; k++) {
            double m = g->machine_counts[k];
            int seen = m != floor(m) || m > 1e6;
            for (int q = 0; q < nm && !seen; q++)
                seen = ms[q] == m;
            if (!seen && nm < 64)
                ms[nm++] = m;
        }
    }
    for (int x = 1; x < nm; x++) /* insertion sort: few values */
        for (int y = x; y > 0 && ms[y - 1] > ms[y]; y--) {
            double t = ms[y];
            ms[y] = ms[y - 1];
            ms[y - 1] = t;
        }
    cp_buf_puts(b, "    machines: [");
    for (int k = 0; k < nm; k++) {
        cp_buf_puts(b, k ? ", " : "");
        cp_yaml_put_num(b, ms[k]);
    }
    if (nm == 0)
        cp_buf_puts(b, "1");
    cp_buf_puts(b, "]  # measured scale-outs\n");
}

/* The first fit of `job`, or NULL. */
static const cp_df_fit *first_fit(const cp_df_report *r, const char *job)
{
    for (int i = 0; i < r->n_fits; i++)
        if (strcmp(r->fits[i].job, job) == 0)
            return &r->fits[i];
    return NULL;
}

/* Does any type's model of `job` use parameter p (a cp_df_params index)
 * as a varying one? */
static bool job_varies(const cp_df_report *r, const char *job, int p)
{
    for (int i = 0; i < r->n_fits; i++) {
        const cp_df_fit *f = &r->fits[i];
        if (strcmp(f->job, job) || !f->pm)
            continue;
        for (int q = 0; q < f->pm->n_params; q++)
            if (f->params[f->pm->param_index[q]] == p)
                return true;
    }
    return false;
}

static bool job_varies_any(const cp_df_report *r, const char *job)
{
    const cp_df_fit *f = first_fit(r, job);
    for (int p = 0; f && p < f->n_params; p++)
        if (job_varies(r, job, f->params[p]))
            return true;
    return false;
}

static void put_names(cp_buf *b, const cp_df_fit *f, const cp_df_params *pn)
{
    for (int p = 0; p < f->n_params; p++)
        cp_buf_printf(b, "%s%s", p ? ", " : "", pn->names[f->params[p]]);
    if (f->n_params == 0)
        cp_buf_puts(b, "none");
}

/* The type whose model f's model uses (a donor term with c > 0), or
 * NULL. */
static const char *donor_type(const cp_df_report *r, const cp_df_fit *f)
{
    bool used = false;
    for (int k = 0; k < f->pm->n_terms; k++)
        used |= f->pm->terms[k].basis == CP_PM_DONOR && f->pm->coef[k] > 0;
    for (int j = 0; used && j < r->n_fits; j++)
        if (r->fits[j].pm && r->fits[j].pm == f->pm->donor)
            return r->fits[j].type;
    return NULL;
}

/* The concrete job's values in the order of f's parameters (NAN: none). */
static void values(const cp_df_fit *f, const cp_df_params *pn, const cp_df_concrete *c,
                   double *pv, const char **names)
{
    for (int p = 0; p < f->n_params; p++) {
        names[p] = pn->names[f->params[p]];
        pv[p] = NAN;
        for (int k = 0; k < c->n; k++)
            if (strcmp(c->pname[k], names[p]) == 0)
                pv[p] = c->pval[k];
    }
}

int cp_df_concrete_check(const cp_df_report *r, const cp_df_params *pn, const cp_df_concrete *c,
                         int n, cp_diags *d)
{
    int rc = CP_OK;
    cp_buf l;
    cp_buf_init(&l);
    for (int i = 0; i < n; i++) {
        const cp_df_concrete *x = &c[i];
        const cp_df_fit *f = first_fit(r, x->job);
        if (!f) {
            rc = cp_diags_add(d, CP_ERR_INPUT, x->pos, "job '%s': no samples of job '%s'",
                              x->name, x->job);
            continue;
        }
        bool given[CP_DF_MAX_PARAMS] = {false};
        for (int k = 0; k < x->n; k++) {
            int p = 0;
            while (p < f->n_params && strcmp(pn->names[f->params[p]], x->pname[k]))
                p++;
            if (p == f->n_params) {
                cp_buf_reset(&l);
                put_names(&l, f, pn);
                rc = cp_diags_add(d, CP_ERR_INPUT, x->ppos[k],
                                  "job '%s': unknown parameter '%s' (job '%s' has: %s)", x->name,
                                  x->pname[k], x->job, l.s ? l.s : "");
            } else if (given[p]) {
                rc = cp_diags_add(d, CP_ERR_INPUT, x->ppos[k],
                                  "job '%s': parameter '%s' given twice", x->name, x->pname[k]);
            }
            if (p < f->n_params)
                given[p] = true;
        }
        bool varies = false;
        for (int p = 0; p < f->n_params; p++) {
            if (!job_varies(r, x->job, f->params[p]))
                continue;
            varies = true;
            if (!given[p])
                rc = cp_diags_add(d, CP_ERR_INPUT, x->pos,
                                  "job '%s': missing value of parameter '%s' (the runs of job "
                                  "'%s' vary it)",
                                  x->name, pn->names[f->params[p]], x->job);
        }
        for (int j = 0; j < r->n_fits && rc == CP_OK; j++) {
            const cp_df_fit *g = &r->fits[j];
            double pv[CP_DF_MAX_PARAMS], th[4];
            const char *names[CP_DF_MAX_PARAMS];
            cp_err err;
            cp_err_init(&err);
            if (strcmp(g->job, x->job) || !g->pm)
                continue;
            values(g, pn, x, pv, names);
            if (cp_pm_theta(g->pm, pv, names, x->has_input ? x->input_gb : 1, th, NULL, &err))
                rc = cp_diags_add(d, CP_ERR_INPUT, x->pos, "job '%s': %s", x->name, err.msg);
        }
        if (varies && !x->has_input)
            rc = cp_diags_add(d, CP_ERR_INPUT, x->pos,
                              "job '%s': missing value of input_gb (the θ of job '%s' depends on "
                              "its parameters and input)",
                              x->name, x->job);
    }
    if (!cp_buf_ok(&l))
        rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    cp_buf_release(&l);
    return rc;
}

static void pct(cp_buf *b, double v)
{
    if (isnan(v))
        cp_buf_printf(b, " %7s", "-");
    else
        cp_buf_printf(b, " %7.2f", v);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median and largest of v[0..n) (sorted in place); NAN when empty. */
static void med_max(double *v, int n, double *med, double *mx)
{
    *med = *mx = NAN;
    if (n == 0)
        return;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    *med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    *mx = v[n - 1];
}

void cp_fit_df_param_table(cp_buf *b, const cp_df_report *r, const cp_df_params *pn)
{
    /* search: "fold" when the held-out figures repeat the term search
     * without the held-out runs, "once" when they refit the terms chosen
     * on all runs (large groups; see cp_fit_param.c) */
    cp_buf_printf(b, "%-14s %-12s %7s %7s %5s %6s %7s %7s %7s %7s %7s %7s | %7s %7s %7s %7s\n",
                  "job", "type", "samples", "configs", "terms", "search", "R2", "MAPE%", "LOCO%",
                  "p50%", "max%", "large%", "E.R2", "E.MAPE%", "E.LOCO%", "E.large%");
    for (int i = 0; i < r->n_fits; i++) {
        const cp_df_fit *f = &r->fits[i];
        const cp_pm_fit *m = f->pm;
        cp_buf_printf(b, "%-14s %-12s %7d %7d %5d %6s %7.4f", f->job, f->type, m->samples,
                      m->configs, m->n_terms, m->nested ? "fold" : "once", m->model.r2);
        pct(b, m->model.mape);
        pct(b, m->model.loco_mape);
        pct(b, m->model.loco_p50);
        pct(b, m->model.loco_max);
        pct(b, m->model.largest_mape);
        cp_buf_printf(b, " | %7.4f", m->ernest.r2);
        pct(b, m->ernest.mape);
        pct(b, m->ernest.loco_mape);
        pct(b, m->ernest.largest_mape);
        cp_buf_putc(b, '\n');
    }
    for (int i = 0; i < r->n_fits; i++) {
        const cp_df_fit *f = &r->fits[i];
        if (first_fit(r, f->job) != f)
            continue;
        double a[64], e[64];
        int n = 0;
        for (int j = i; j < r->n_fits && n < 64; j++)
            if (strcmp(r->fits[j].job, f->job) == 0 && !isnan(r->fits[j].pm->model.loco_mape)) {
                a[n] = r->fits[j].pm->model.loco_mape;
                e[n++] = r->fits[j].pm->ernest.loco_mape;
            }
        double am, ax, em, ex;
        med_max(a, n, &am, &ax);
        med_max(e, n, &em, &ex);
        cp_buf_printf(b, "job %s: leave-one-configuration-out MAPE over %d type%s: median ", f->job,
                      n, n == 1 ? "" : "s");
        cp_buf_printf(b, isnan(am) ? "-" : "%.2f%%", am);
        cp_buf_printf(b, isnan(ax) ? ", worst -" : ", worst %.2f%%", ax);
        cp_buf_printf(b, isnan(em) ? " (Ernest: -" : " (Ernest: %.2f%%", em);
        cp_buf_printf(b, isnan(ex) ? ", -)\n" : ", %.2f%%)\n", ex);
    }
    for (int i = 0; i < r->n_fits; i++) {
        const cp_df_fit *f = &r->fits[i];
        const char *names[CP_DF_MAX_PARAMS];
        for (int p = 0; p < f->n_params; p++)
            names[p] = pn->names[f->params[p]];
        cp_buf_printf(b, "%s on %s: t =", f->job, f->type);
        int shown = 0;
        for (int k = 0; k < f->pm->n_terms; k++) {
            if (f->pm->coef[k] == 0)
                continue;
            char nm[400];
            const cp_df_fit *d = NULL;
            for (int j = 0; j < r->n_fits && !d; j++)
                if (r->fits[j].pm && r->fits[j].pm == f->pm->donor)
                    d = &r->fits[j];
            cp_pm_term_name(f->pm, &f->pm->terms[k], names, d ? d->type : NULL, nm, sizeof nm);
            cp_buf_printf(b, "%s %.6g*%s", shown++ ? " +" : "", f->pm->coef[k], nm);
        }
        cp_buf_puts(b, shown ? "\n" : " 0\n");
    }
}

/* Writes θ and σ of every type of c->job at c's values. */
static void put_runtime(cp_buf *b, const cp_df_report *r, const cp_df_params *pn,
                        const cp_df_concrete *c, double input_gb, cp_diags *w)
{
    cp_buf_puts(b, "    runtime:\n      model: ernest\n      theta:\n");
    for (int i = 0; i < r->n_fits; i++) {
        const cp_df_fit *f = &r->fits[i];
        if (strcmp(f->job, c->job))
            continue;
        double pv[CP_DF_MAX_PARAMS];
        const char *names[CP_DF_MAX_PARAMS];
        values(f, pn, c, pv, names);
        for (int p = 0; p < f->n_params; p++) {
            const cp_pm_fit *m = f->pm;
            if (isnan(pv[p]) || (pv[p] >= m->lo[p] && pv[p] <= m->hi[p]))
                continue;
            const char *donor = donor_type(r, f);
            if (m->lo[p] == m->hi[p] && donor) /* one value, the rest borrowed */
                cp_diags_warn(w, c->pos,
                              "job '%s': %s = %g, but %s measured only %g: how its theta there "
                              "depends on %s is borrowed from the model of %s",
                              c->name, names[p], pv[p], f->type, m->lo[p], names[p], donor);
            else if (m->lo[p] == m->hi[p]) /* the type measured one value only */
                cp_diags_warn(w, c->pos,
                              "job '%s': %s = %g, but %s measured only %g: its theta there "
                              "does not depend on %s",
                              c->name, names[p], pv[p], f->type, m->lo[p], names[p]);
            else
                cp_diags_warn(w, c->pos,
                              "job '%s': %s = %g is outside the %g to %g measured on %s: "
                              "the model extrapolates",
                              c->name, names[p], pv[p], m->lo[p], m->hi[p], f->type);
        }
        if (input_gb < f->pm->min_input_gb || input_gb > f->pm->max_input_gb)
            cp_diags_warn(w, c->pos,
                          "job '%s': input_gb %g is outside the %g to %g measured on %s: the "
                          "model extrapolates",
                          c->name, input_gb, f->pm->min_input_gb, f->pm->max_input_gb, f->type);
        double th[4];
        bool clamped = false;
        cp_err err;
        cp_err_init(&err);
        if (cp_pm_theta(f->pm, pv, names, input_gb, th, &clamped, &err) != CP_OK)
            continue; /* refused by cp_df_concrete_check */
        if (clamped)
            cp_diags_warn(w, c->pos, "job '%s' on %s: a θ came out negative and is set to 0",
                          c->name, f->type);
        cp_buf_puts(b, "        ");
        cp_yaml_put_str(b, f->type);
        cp_buf_puts(b, ": [");
        for (int k = 0; k < 4; k++) {
            cp_buf_puts(b, k ? ", " : "");
            cp_yaml_put_num(b, th[k]);
        }
        cp_buf_puts(b, "]\n");
    }
    cp_buf_puts(b, "      sigma_seconds:\n");
    for (int i = 0; i < r->n_fits; i++) {
        const cp_df_fit *f = &r->fits[i];
        if (strcmp(f->job, c->job))
            continue;
        cp_buf_puts(b, "        ");
        cp_yaml_put_str(b, f->type);
        cp_buf_puts(b, ": ");
        cp_yaml_put_num(b, f->pm->model.sigma);
        cp_buf_putc(b, '\n');
    }
}

static void put_job(cp_buf *b, const cp_df_report *r, const cp_df_params *pn,
                    const cp_df_concrete *c, cp_diags *w)
{
    static const char *const skip_in[] = {"runtime", "fit", "input_gb", NULL};
    static const char *const skip[] = {"runtime", "fit", NULL};
    cp_buf_puts(b, "  - name: ");
    cp_yaml_put_str(b, c->name);
    cp_buf_putc(b, '\n');
    cp_fit_put_def_keys(b, c->def, c->has_input ? skip_in : skip);
    if (!c->def || !cp_map_get(c->def, "kind"))
        cp_buf_puts(b, "    kind: dataflow\n");
    double in = c->input_gb;
    if (!c->has_input) {
        in = 0;
        for (int i = 0; i < r->n_fits; i++)
            if (strcmp(r->fits[i].job, c->job) == 0)
                in = fmax(in, r->fits[i].max_input_gb);
        in = in > 0 ? in : 1;
        cp_buf_puts(b, "    input_gb: ");
        cp_yaml_put_num(b, in);
        cp_buf_puts(b, "  # largest measured input: theta is for this input\n");
    } else {
        cp_buf_puts(b, "    input_gb: ");
        cp_yaml_put_num(b, in);
        cp_buf_puts(b, "  # theta is for this input\n");
    }
    if (!c->def || !cp_map_get(c->def, "machines"))
        cp_fit_df_machines(b, r, c->job);
    put_runtime(b, r, pn, c, in, w);
}

void cp_fit_df_param_yaml(cp_buf *b, const cp_df_report *r, const cp_df_params *pn,
                          const cp_df_concrete *c, int n, const cp_node *const *jobs, int n_jobs,
                          const char *src, cp_diags *w)
{
    cp_buf line;
    cp_buf_init(&line);
    cp_buf_printf(&line, "capplan fit dataflow --params %s", src);
    cp_yaml_put_comment(b, line.s ? line.s : "");
    cp_buf_puts(b, "# Ernest: t(m) = theta0 + theta1*input_gb/m + theta2*ln(m) + theta3*m "
                   "seconds, theta from the parameter-dependent fit at each job's values\n");
    for (int i = 0; i < n; i++) {
        cp_buf_reset(&line);
        cp_buf_printf(&line, "%s: job %s at", c[i].name, c[i].job);
        if (c[i].has_input)
            cp_buf_printf(&line, " input_gb=%g", c[i].input_gb);
        for (int k = 0; k < c[i].n; k++)
            cp_buf_printf(&line, "%s %s=%g", k || c[i].has_input ? "," : "", c[i].pname[k],
                          c[i].pval[k]);
        cp_yaml_put_comment(b, line.s ? line.s : "");
    }
    size_t empty = b->len;
    cp_buf_puts(b, "jobs:\n");
    for (int i = 0; i < n; i++)
        put_job(b, r, pn, &c[i], w);
    /* Measured jobs no concrete job names: written as they are when no
     * parameter varies, else left out with a warning. */
    for (int i = 0; i < r->n_fits; i++) {
        const cp_df_fit *f = &r->fits[i];
        if (first_fit(r, f->job) != f)
            continue;
        bool named = false;
        for (int k = 0; k < n && !named; k++)
            named = strcmp(c[k].job, f->job) == 0;
        if (named)
            continue;
        if (job_varies_any(r, f->job)) {
            cp_buf_reset(&line);
            put_names(&line, f, pn);
            cp_diags_warn(w, f->pos,
                          "job '%s' is not written: its runtime depends on %s; give their "
                          "values (--concrete NAME=%s:P=V,... or a definition's fit: key)",
                          f->job, line.s ? line.s : "", f->job);
            continue;
        }
        cp_df_concrete self;
        memset(&self, 0, sizeof self);
        self.name = self.job = f->job;
        self.pos = f->pos;
        self.def = cp_fit_find_def(jobs, n_jobs, f->job);
        double v;
        const cp_node *in = self.def ? cp_map_get(self.def, "input_gb") : NULL;
        if (in && cp_scalar_number(in, &v) && v > 0) {
            self.has_input = true;
            self.input_gb = v;
        }
        put_job(b, r, pn, &self, w);
    }
    if (b->len == empty + strlen("jobs:\n")) { /* nothing written: still a list */
        b->len = empty;
        cp_buf_puts(b, "jobs: []\n");
    }
    if (!cp_buf_ok(&line))
        b->oom = true;
    cp_buf_release(&line);
}
