/*
 * The services' replica schedule (capplan.5 §10.4) as one CSV file,
 * services.csv: one row per service, deployment and slot of the plan,
 * with the configuration (its index, accelerator type and count), the
 * resource and market, the slot's start (hours from slot 0, and the wall
 * clock when horizon.start is set), the replicas to run and the requests
 * per second the plan routes to them. What an autoscaler or a person
 * sets hour by hour; every name goes through the CSV quoting rule, which
 * also defuses formulas.
 */
#include "export_internal.h"

#include "cp_csv.h"

#include <math.h>
#include <stdio.h>

static void put_num(cp_buf *b, double v)
{
    char s[40];
    snprintf(s, sizeof s, "%.10g", v);
    cp_buf_putc(b, ',');
    cp_buf_puts(b, s);
}

int cp_export_services(const cp_input *in, const cp_plan_file *pf, const cp_export_opts *o,
                       cp_export *x, cp_diags *d)
{
    (void)o;
    long start = 0;
    bool utc = false, clock = in->start && cp_xp_parse_start(in->start, &start, &utc);
    cp_export_file *f = cp_export_add(x, "services.csv", false);
    if (!f)
        return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    cp_buf *b = &f->text;
    cp_buf_puts(b, "service,config,accelerator,count,resource,market,slot,start_hour");
    cp_buf_puts(b, clock ? ",start,replicas,requests_per_s\n" : ",replicas,requests_per_s\n");
    for (int s = 0; s < pf->n_svcs; s++) {
        const cp_plan_svc *e = &pf->svcs[s];
        int v = e->name.s ? cp_input_find_service(in, e->name.s) : -1;
        if (v < 0)
            return cp_diags_add(d, CP_ERR_INPUT, e->name.pos, "service '%s' is not in the inputs",
                                e->name.s ? e->name.s : "?");
        const cp_service *sv = &in->services[v];
        for (int i = 0; i < e->n_deps; i++) {
            const cp_plan_svc_dep *de = &e->deps[i];
            if (de->config.v >= sv->n_configs || de->replicas.n != in->slots)
                return cp_diags_add(d, CP_ERR_INPUT, de->pos, "service '%s': deployment %d does "
                                    "not match the inputs (run capplan verify)", sv->name, i + 1);
            const cp_svc_config *cf = &sv->configs[de->config.v];
            for (int t = 0; t < in->slots; t++) {
                cp_csv_put_field(b, sv->name);
                cp_buf_printf(b, ",%ld,", de->config.v);
                cp_csv_put_field(b, in->accels[cf->acc].name);
                cp_buf_printf(b, ",%d,", cf->count);
                cp_csv_put_field(b, de->resource.s);
                cp_buf_printf(b, ",%s,%d", de->market.s, t);
                put_num(b, t * in->slot_hours);
                if (clock) {
                    cp_buf_putc(b, ',');
                    cp_xp_put_time(b, start + (long)llround(t * in->slot_hours * 3600));
                    if (utc)
                        cp_buf_putc(b, 'Z');
                }
                cp_buf_printf(b, ",%.0f", de->replicas.v[t]);
                put_num(b, cp_plan_svc_served(in, v, e, i, t));
                cp_buf_putc(b, '\n');
            }
        }
    }
    if (!cp_buf_ok(b))
        return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    x->n_leases = pf->n_svcs;
    return CP_OK;
}
