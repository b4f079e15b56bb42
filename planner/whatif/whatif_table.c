/*
 * The what-if table in three formats, rows in scenario order:
 *  - md: a Markdown table for people (costs to the cent, energy, carbon
 *    and hours to one decimal, shares and deltas in percent; of the
 *    accelerator-hour columns only those with a value above 0 in some
 *    row; per service its cost, replica-hours and requests served, in %),
 *    then the dropped jobs of each row and the errors of invalid
 *    scenarios as lists below it;
 *  - csv: one record per row, numbers to 15 significant digits
 *    (cp_buf_num), empty cells where there is no value;
 *  - json: the same figures as the csv, null where there is no value.
 * Nothing in the table depends on timing, so it is byte-stable.
 */
#include "whatif_internal.h"

#include "cp_csv.h"
#include "cp_md.h"
#include "cp_out.h"

#include <math.h>
#include <stdio.h>

static void md_cell(cp_buf *b, const char *s)
{
    cp_buf_puts(b, " ");
    cp_md_text(b, s);
    cp_buf_puts(b, " |");
}

static void md_num(cp_buf *b, double v, int decimals, const char *suffix, bool sign)
{
    if (isnan(v)) {
        cp_buf_puts(b, " - |");
        return;
    }
    if (fabs(v) < 0.5 * pow(10, -decimals))
        v = 0; /* no "-0.00" */
    cp_buf_printf(b, sign ? " %+.*f%s |" : " %.*f%s |", decimals, v, suffix);
}

bool cp_whatif_has_part(const cp_whatif_table *t, int i)
{
    unsigned f = cp_cost_part_info[i].flags;
    if (f & CP_COST_PLAN_ONLY)
        return false;
    if (!(f & CP_COST_IF_ANY) || (f & CP_COST_ZERO_COLUMN))
        return true;
    for (int r = 0; r < t->n_rows; r++)
        if (!isnan(t->rows[r].costs.v[i]))
            return true;
    return false;
}

/* An accelerator-hour column worth a place in the md table: some row
 * has hours there (42 columns of zeros hide the few that say something). */
static bool acc_column(const cp_whatif_table *t, int a, bool cloud)
{
    for (int i = 0; i < t->n_rows; i++) {
        const double *h = cloud ? t->rows[i].acc_hours_cloud : t->rows[i].acc_hours_onprem;
        if (h && h[a] > 0)
            return true;
    }
    return false;
}

static void write_md(const cp_whatif_table *t, cp_buf *b)
{
    int cols = 0;
    cp_buf_puts(b, "| scenario | status |");
    for (int i = 0; i < CP_COST_N; i++)
        if (cp_whatif_has_part(t, i)) {
            cp_buf_printf(b, " %s |", cp_cost_part_info[i].head);
            cols++;
        }
    cp_buf_puts(b, " dropped |");
    for (int k = 0; k < t->n_team; k++) { /* capplan.5 §10.2: what each team's jobs cost */
        cp_buf_putc(b, ' ');
        cp_md_text(b, t->team_names[k]);
        cp_buf_puts(b, " $ |");
    }
    for (int k = 0; k < t->n_svc; k++) /* capplan.5 §10.4 */
        for (int i = 0; i < CP_WI_SVC_N; i++) {
            cp_buf_putc(b, ' ');
            cp_md_text(b, t->svc_names[k]);
            cp_buf_printf(b, " %s |", cp_wi_svc_head[i]);
        }
    for (int a = 0; a < t->n_acc; a++) /* accelerator names are the input's */
        for (int cloud = 0; cloud < 2; cloud++)
            if (acc_column(t, a, cloud)) {
                cp_buf_putc(b, ' ');
                cp_md_text(b, t->acc_names[a]);
                cp_buf_puts(b, cloud ? " h cloud |" : " h on-prem |");
                cols++;
            }
    cp_buf_puts(b, " spot share | delta $ | delta % |\n|---|---|");
    for (int k = 0; k < cols + 4 + t->n_team + t->n_svc * CP_WI_SVC_N; k++)
        cp_buf_puts(b, "---:|");
    cp_buf_putc(b, '\n');
    int invalid = 0, dropped = 0;
    for (int i = 0; i < t->n_rows; i++) {
        const cp_whatif_row *r = &t->rows[i];
        cp_buf_putc(b, '|');
        md_cell(b, r->name);
        md_cell(b, r->status);
        for (int k = 0; k < CP_COST_N; k++) /* money to the cent, quantities to 0.1 */
            if (cp_whatif_has_part(t, k))
                md_num(b, r->costs.v[k], cp_cost_part_is_money(k) ? 2 : 1, "", false);
        if (r->dropped < 0)
            cp_buf_puts(b, " - |");
        else
            cp_buf_printf(b, " %d |", r->dropped);
        for (int k = 0; k < t->n_team; k++)
            md_num(b, r->team_cost[k], 2, "", false);
        for (int k = 0; k < t->n_svc * CP_WI_SVC_N; k++) /* $ to the cent, hours and % to 0.1 */
            md_num(b, r->svc_fig[k], k % CP_WI_SVC_N == CP_WI_SVC_COST ? 2 : 1, "", false);
        for (int a = 0; a < t->n_acc; a++)
            for (int cloud = 0; cloud < 2; cloud++)
                if (acc_column(t, a, cloud))
                    md_num(b, cloud ? r->acc_hours_cloud[a] : r->acc_hours_onprem[a], 1, "",
                           false);
        md_num(b, r->spot_share * 100, 1, "%", false);
        md_num(b, i ? r->delta : NAN, 2, "", true);
        md_num(b, i ? r->delta_pct : NAN, 1, "%", true);
        cp_buf_putc(b, '\n');
        invalid += r->error != NULL;
        dropped += r->dropped_jobs != NULL;
    }
    if (dropped) {
        cp_buf_puts(b, "\nDropped jobs:\n\n");
        for (int i = 0; i < t->n_rows; i++)
            if (t->rows[i].dropped_jobs) {
                cp_buf_puts(b, "- ");
                cp_md_text(b, t->rows[i].name);
                cp_buf_puts(b, ": ");
                cp_md_text(b, t->rows[i].dropped_jobs);
                cp_buf_putc(b, '\n');
            }
    }
    if (!invalid)
        return;
    cp_buf_puts(b, "\nInvalid scenarios:\n\n");
    for (int i = 0; i < t->n_rows; i++)
        if (t->rows[i].error) {
            cp_buf_puts(b, "- ");
            cp_md_text(b, t->rows[i].name);
            cp_buf_puts(b, ": ");
            cp_md_text(b, t->rows[i].error);
            cp_buf_putc(b, '\n');
        }
}

static void csv_num(cp_buf *b, double v)
{
    cp_buf_putc(b, ',');
    if (!isnan(v))
        cp_buf_num(b, v);
}

/* A header field PREFIX NAME, after a comma. */
static void csv_head(cp_buf *b, const char *prefix, const char *name)
{
    cp_buf h;
    cp_buf_init(&h);
    cp_buf_printf(&h, "%s%s", prefix, name);
    cp_buf_putc(b, ',');
    if (cp_buf_ok(&h))
        cp_csv_put_field(b, h.s);
    else
        b->oom = true;
    cp_buf_release(&h);
}

static void write_csv(const cp_whatif_table *t, cp_buf *b)
{
    cp_buf_puts(b, "name,status");
    for (int i = 0; i < CP_COST_N; i++)
        if (cp_whatif_has_part(t, i))
            cp_buf_printf(b, ",%s", cp_cost_part_info[i].key);
    cp_buf_puts(b, ",dropped");
    /* an accelerator's or a team's name may hold ',', '"' or a newline:
     * each header field goes through the one CSV field rule */
    for (int k = 0; k < t->n_team; k++)
        csv_head(b, "team_cost:", t->team_names[k]);
    for (int k = 0; k < t->n_svc; k++)
        for (int i = 0; i < CP_WI_SVC_N; i++) {
            char prefix[48];
            snprintf(prefix, sizeof prefix, "service_%s:", cp_wi_svc_key[i]);
            csv_head(b, prefix, t->svc_names[k]);
        }
    for (int a = 0; a < t->n_acc; a++)
        for (int k = 0; k < 2; k++)
            csv_head(b, k ? "acc_hours_cloud:" : "acc_hours_on_prem:", t->acc_names[a]);
    cp_buf_puts(b, ",spot_share,delta,delta_pct,sweep,sweep_value,error\n");
    for (int i = 0; i < t->n_rows; i++) {
        const cp_whatif_row *r = &t->rows[i];
        cp_csv_put_field(b, r->name);
        cp_buf_putc(b, ',');
        cp_csv_put_field(b, r->status);
        for (int k = 0; k < CP_COST_N; k++)
            if (cp_whatif_has_part(t, k))
                csv_num(b, r->costs.v[k]);
        csv_num(b, r->dropped < 0 ? NAN : r->dropped);
        for (int k = 0; k < t->n_team; k++)
            csv_num(b, r->team_cost[k]);
        for (int k = 0; k < t->n_svc * CP_WI_SVC_N; k++)
            csv_num(b, r->svc_fig[k]);
        for (int a = 0; a < t->n_acc; a++) {
            csv_num(b, r->acc_hours_onprem[a]);
            csv_num(b, r->acc_hours_cloud[a]);
        }
        csv_num(b, r->spot_share);
        csv_num(b, r->delta);
        csv_num(b, r->delta_pct);
        cp_buf_putc(b, ',');
        cp_csv_put_field(b, r->sweep);
        csv_num(b, r->sweep ? r->sweep_value : NAN);
        cp_buf_putc(b, ',');
        cp_csv_put_field(b, r->error);
        cp_buf_putc(b, '\n');
    }
}

static void json_num(cp_out *o, const char *key, double v)
{
    cp_out_key(o, key);
    cp_out_num(o, v); /* NAN is null */
}

static int write_json(const cp_whatif_table *t, cp_buf *b, cp_err *err)
{
    cp_out *o = cp_out_new(CP_OUT_JSON, b);
    if (!o)
        return cp_err_nomem(err);
    cp_out_map(o);
    cp_out_key(o, "capplan_whatif");
    cp_out_int(o, 1);
    cp_out_key(o, "accelerators");
    cp_out_seq(o, true);
    for (int a = 0; a < t->n_acc; a++)
        cp_out_str(o, t->acc_names[a]);
    cp_out_end(o);
    if (t->n_team) {
        cp_out_key(o, "teams");
        cp_out_seq(o, true);
        for (int k = 0; k < t->n_team; k++)
            cp_out_str(o, t->team_names[k]);
        cp_out_end(o);
    }
    if (t->n_svc) {
        cp_out_key(o, "services");
        cp_out_seq(o, true);
        for (int k = 0; k < t->n_svc; k++)
            cp_out_str(o, t->svc_names[k]);
        cp_out_end(o);
    }
    cp_out_key(o, "rows");
    cp_out_seq(o, false);
    for (int i = 0; i < t->n_rows; i++) {
        const cp_whatif_row *r = &t->rows[i];
        cp_out_map(o);
        cp_out_key(o, "name");
        cp_out_str(o, r->name);
        cp_out_key(o, "status");
        cp_out_str(o, r->status);
        if (r->sweep) {
            cp_out_key(o, "sweep");
            cp_out_str(o, r->sweep);
            json_num(o, "sweep_value", r->sweep_value);
        }
        for (int k = 0; k < CP_COST_N; k++)
            if (cp_whatif_has_part(t, k))
                json_num(o, cp_cost_part_info[k].key, r->costs.v[k]);
        json_num(o, "dropped", r->dropped < 0 ? NAN : r->dropped);
        if (t->n_team) { /* capplan.5 §10.2 */
            cp_out_key(o, "team_cost");
            cp_out_map(o);
            for (int k = 0; k < t->n_team; k++)
                json_num(o, t->team_names[k], r->team_cost[k]);
            cp_out_end(o);
        }
        if (t->n_svc) { /* capplan.5 §10.4 */
            cp_out_key(o, "services");
            cp_out_map(o);
            for (int k = 0; k < t->n_svc; k++) {
                cp_out_key(o, t->svc_names[k]);
                cp_out_map(o);
                for (int f = 0; f < CP_WI_SVC_N; f++)
                    json_num(o, cp_wi_svc_key[f], r->svc_fig[k * CP_WI_SVC_N + f]);
                cp_out_end(o);
            }
            cp_out_end(o);
        }
        cp_out_key(o, "accelerator_hours");
        cp_out_map(o);
        for (int a = 0; a < t->n_acc; a++) {
            cp_out_key(o, t->acc_names[a]);
            cp_out_map(o);
            json_num(o, "on_prem", r->acc_hours_onprem[a]);
            json_num(o, "cloud", r->acc_hours_cloud[a]);
            cp_out_end(o);
        }
        cp_out_end(o);
        json_num(o, "spot_share", r->spot_share);
        json_num(o, "delta", r->delta);
        json_num(o, "delta_pct", r->delta_pct);
        if (r->error) {
            cp_out_key(o, "error");
            cp_out_str(o, r->error);
        }
        cp_out_end(o);
    }
    cp_out_end(o);
    cp_out_end(o);
    return cp_out_finish(o, err);
}

int cp_whatif_table_write(const cp_whatif_table *t, cp_whatif_format f, cp_buf *out, cp_err *err)
{
    if (f == CP_WHATIF_JSON)
        return write_json(t, out, err);
    if (f == CP_WHATIF_MD)
        write_md(t, out);
    else
        write_csv(t, out);
    return cp_buf_ok(out) ? CP_OK : cp_err_nomem(err);
}
