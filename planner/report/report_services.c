/*
 * The report's services (capplan.5 §10.4): per service of the plan, its
 * cost and unserved requests, and a chart of each slot: the requests/s
 * each deployment serves (its shares of each class's load), stacked by
 * deployment (configuration on a resource), against the load as a dashed
 * line; the gap between the stack and the line is what goes unserved. A
 * column's hover text gives the replicas; against an earlier plan
 * (`report --from`), the columns whose replicas changed are outlined.
 * Without the inputs the loads
 * are unknown: the columns are then the replicas themselves. Horizons
 * longer than RP_MAX_COLS slots get the table only.
 */
#include "report_internal.h"

#include "cp_alloc.h"

#include <stdio.h>

static double load_at(const cp_input *in, int v, int t)
{
    double x = 0;
    for (int k = 0; k < in->services[v].n_classes; k++)
        if (in->services[v].classes[k].load.v)
            x += cp_series_at(&in->services[v].classes[k].load, t);
    return x;
}

/* The value drawn for deployment i in slot t: requests/s, or replicas. */
static double value(const cp_rp_plan *p, int v, const cp_plan_svc *e, int i, int t)
{
    if (v >= 0)
        return cp_plan_svc_served(p->in, v, e, i, t);
    const cp_plan_series *n = &e->deps[i].replicas;
    return t < n->n && !isnan(n->v[t]) ? n->v[t] : 0;
}

static void chart(cp_buf *b, const cp_rp_plan *p, const cp_plan_svc *e, int v)
{
    int n = e->n_deps, T = p->T;
    cp_legend_item it[12];
    char names[12][160];
    int shown = n < 11 ? n : 11;
    for (int i = 0; i < shown; i++) {
        const cp_plan_svc_dep *d = &e->deps[i];
        const cp_service *sv = v >= 0 ? &p->in->services[v] : NULL;
        if (sv && d->config.v < sv->n_configs) /* the configuration in words */
            snprintf(names[i], sizeof names[i], "%d x %.30s on %.60s (%s)",
                     sv->configs[d->config.v].count, p->in->accels[sv->configs[d->config.v].acc].name,
                     d->resource.s ? d->resource.s : "?", d->market.s ? d->market.s : "?");
        else
            snprintf(names[i], sizeof names[i], "config %ld on %.60s (%s)", d->config.v,
                     d->resource.s ? d->resource.s : "?", d->market.s ? d->market.s : "?");
        it[i] = (cp_legend_item){cp_svg_color(i), names[i], false};
    }
    if (v >= 0)
        it[shown++] = (cp_legend_item){"#222222", "load", true};
    double lw = RP_WIDTH - RP_LEFT - RP_RIGHT;
    double top = cp_svg_legend_height(lw, it, shown) + 12, ph = 200, bottom = top + ph;
    double ymax = 0;
    for (int t = 0; t < T; t++) {
        double sum = 0;
        for (int i = 0; i < n; i++)
            sum += value(p, v, e, i, t);
        ymax = fmax(ymax, fmax(sum, v >= 0 ? load_at(p->in, v, t) : 0));
    }
    /* without the loads the columns count replicas: a whole axis */
    ymax = v >= 0 ? cp_nice_ceil(ymax) : cp_nice_ceil_whole(ymax);
    cp_scale sx, sy = {0, ymax, bottom, top};
    cp_ticks tx, ty;
    char title[160];
    cp_rp_time_axis(p, &sx, &tx, title, sizeof title);
    if (v >= 0)
        cp_ticks_nice(&ty, 0, ymax, 6, false);
    else
        cp_ticks_whole(&ty, 0, ymax, 6);
    cp_svg_open(b, RP_WIDTH, bottom + (tx.label2[0][0] ? 64 : 52),
                "Stacked columns of each deployment's share of the service per slot, with its load");
    cp_svg_legend(b, RP_LEFT, 4, lw, it, shown);
    cp_svg_axis_y(b, &sy, RP_LEFT, RP_WIDTH - RP_RIGHT, &ty, v >= 0 ? "requests/s" : "replicas");
    cp_svg_axis_x(b, &sx, bottom, bottom, &tx, title);
    cp_buf tt;
    cp_buf_init(&tt);
    for (int t = 0; t < T; t++) {
        double x0 = cp_scale_at(&sx, t * p->h) + 0.5, x1 = cp_scale_at(&sx, (t + 1) * p->h) - 0.5;
        double acc = 0;
        for (int i = 0; i < n; i++) {
            double y = value(p, v, e, i, t);
            const cp_plan_series *rn = &e->deps[i].replicas;
            double reps = t < rn->n && !isnan(rn->v[t]) ? rn->v[t] : 0;
            if (y <= 0)
                continue;
            cp_buf_reset(&tt);
            cp_buf_printf(&tt, "slot %d: config %ld on %s, %.0f replica%s", t, e->deps[i].config.v,
                          e->deps[i].resource.s ? e->deps[i].resource.s : "?", reps,
                          reps == 1 ? "" : "s");
            if (v >= 0)
                cp_buf_printf(&tt, ", %.3g requests/s", y);
            /* a re-plan's change, outlined as the Gantt chart's moved bars */
            double was = cp_rp_dep_was(p, &e->deps[i], t);
            if (was >= 0)
                cp_buf_printf(&tt, "\nchanged; the earlier plan: %.0f replica%s", was,
                              was == 1 ? "" : "s");
            double y0 = cp_scale_at(&sy, acc), y1 = cp_scale_at(&sy, acc + y);
            cp_svg_rect(b, x0, y1, fmax(x1 - x0, 0.5), y0 - y1, cp_svg_color(i < 11 ? i : 10),
                        was >= 0 ? "bar moved" : NULL, cp_buf_ok(&tt) ? tt.s : NULL);
            acc += y;
        }
    }
    cp_buf_release(&tt);
    if (v >= 0) {
        cp_buf_puts(b, "<polyline fill=\"none\" stroke=\"#222222\" stroke-width=\"1.5\" "
                       "stroke-dasharray=\"5 3\" points=\"");
        for (int t = 0; t < T; t++) {
            double y = cp_scale_at(&sy, load_at(p->in, v, t));
            for (int s = 0; s < 2; s++) {
                cp_svg_coord(b, cp_scale_at(&sx, (t + s) * p->h));
                cp_buf_putc(b, ',');
                cp_svg_coord(b, y);
                cp_buf_putc(b, ' ');
            }
        }
        cp_buf_puts(b, "\"/>\n");
    }
    cp_svg_close(b);
}

void cp_rp_services(cp_buf *b, const cp_rp_plan *p)
{
    const cp_plan_file *pf = &p->pf;
    if (!pf->n_svcs)
        return;
    cp_html_section(b, "services", "Services: replicas against the load");
    for (int s = 0; s < pf->n_svcs; s++) {
        const cp_plan_svc *e = &pf->svcs[s];
        int v = p->in && e->name.s ? cp_input_find_service(p->in, e->name.s) : -1;
        char cost[48], req[48];
        cp_svg_money(cost, sizeof cost, e->cost.v);
        cp_svg_group(req, sizeof req, e->unserved_requests.v, 0);
        cp_buf_puts(b, "<h3>");
        cp_svg_esc(b, e->name.s);
        cp_buf_printf(b, "</h3>\n<p>cost %s, %s requests unserved; %s.</p>\n", cost, req,
                      v >= 0 ? "each column is the requests/s a deployment serves, the dashed "
                               "line the load: the gap is unserved; hover for the replicas"
                             : "each column is a deployment's replicas (give the inputs to see "
                               "the load)");
        if (p->T <= RP_MAX_COLS && e->n_deps > 0)
            chart(b, p, e, v);
    }
    cp_html_section_end(b);
}
