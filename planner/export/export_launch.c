/*
 * Cloud leases as launch files: one SkyPilot task YAML per lease of the
 * plan's provisioning (capplan.5 §5, version 1.1: an instance id, its first slot, its
 * slots and the jobs it runs), following the task schema of SkyPilot
 * 0.9.1 (docs.skypilot.co/en/v0.9.1/reference/yaml-spec.html: name,
 * num_nodes, resources {cloud, region, zone, instance_type,
 * accelerators, use_spot}, run: a literal block), and launch.md, a table
 * of instance, market, start, stop, jobs and cost that says when to
 * `sky launch` and `sky down` each.
 *
 * SkyPilot has no start time in a task, so the schedule lives in
 * launch.md. The YAML is written through cp_out, so every string goes
 * through the project's one quoting rule; names never appear in YAML
 * comments. The instance type comes from the offer's name when it
 * follows the importers' "provider:region_or_zone:type" convention (the
 * offer's instance.type is a machine-type label for runtime models, not
 * always the cloud's type), else from instance.type; a GCP-style
 * "n1-standard-8+1xV100" or "n1-standard-8:1xV100" becomes
 * instance_type n1-standard-8 and accelerators V100:1.
 */
#include "export_internal.h"

#include "cp_alloc.h"
#include "cp_md.h"
#include "cp_out.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *pstr(const cp_plan_str *s)
{
    return s->has == CP_PLAN_SET ? s->s : "";
}

static const cp_plan_job *plan_job(const cp_plan_file *pf, const char *name)
{
    for (int i = 0; i < pf->n_jobs; i++)
        if (pf->jobs[i].name.has == CP_PLAN_SET && !strcmp(pf->jobs[i].name.s, name))
            return &pf->jobs[i];
    return NULL;
}

/* "slot S (hour H)" or the wall-clock time */
static void put_when(cp_buf *b, const cp_input *in, bool have_start, long start, long slot)
{
    double h = slot * in->slot_hours;
    if (have_start)
        cp_xp_put_time(b, start + (long)llround(h * 3600));
    else
        cp_buf_printf(b, "slot %ld (hour %g)", slot, h);
}

/* The cloud's instance type, and the zone when the name has one. An
 * offer's instance.type is a machine-type label that dataflow runtime
 * models match (capplan.5 §1.6), which an importer's --type-map sets to the
 * type a model was measured on (m4.2xlarge on a GCP n1-standard-8), so
 * the name's PROVIDER:REGION_OR_ZONE:TYPE convention (the importers'
 * own) decides when the name follows it; instance.type only otherwise.
 * GPUs attached to a host type ("n1-standard-8+1xV100", or a fourth part
 * "1xV100") are SkyPilot's accelerators; a zone is a second part that
 * extends the offer's region ("us-central1-a" in "us-central1"). */
static void instance_type(const cp_offer *of, cp_buf *type, cp_buf *acc, cp_buf *zone)
{
    const char *c1 = strchr(of->name, ':');
    const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    const char *t, *end;
    if (c2 && c2[1]) {
        t = c2 + 1;
        end = strchr(t, ':');
        if (!end)
            end = t + strlen(t);
        size_t rl = of->region ? strlen(of->region) : 0;
        if (rl && (size_t)(c2 - (c1 + 1)) > rl + 1 && !strncmp(c1 + 1, of->region, rl) &&
            c1[1 + rl] == '-')
            cp_buf_add(zone, c1 + 1, (size_t)(c2 - (c1 + 1)));
    } else {
        t = of->inst.type ? of->inst.type : of->name;
        end = t + strlen(t);
    }
    const char *plus = memchr(t, '+', (size_t)(end - t));
    cp_buf_add(type, t, (size_t)((plus ? plus : end) - t));
    bool attached = plus || (*end == ':' && end[1] >= '0' && end[1] <= '9');
    if (attached && of->inst.acc >= 0)
        cp_buf_printf(acc, "%d", of->inst.accelerators);
}

/* Whether `s` reads back from a literal block scalar (`|`, clip
 * chomping, indented by 2) as exactly `s`: one final newline and no
 * empty last lines (clip keeps one), a first line that does not start
 * with a space (it would set the indentation), and only characters a
 * block scalar carries as they are: printable ASCII, tab, newline and
 * UTF-8 above U+009F except the ones YAML 1.1 readers take as line breaks
 * (U+2028, U+2029) and the BOM. Anything else is written quoted. */
static bool literal_ok(const char *s)
{
    size_t n = strlen(s);
    if (n < 2 || s[n - 1] != '\n' || s[n - 2] == '\n' || s[0] == ' ')
        return false;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '\n' || *p == '\t' || (*p >= 0x20 && *p < 0x7f))
            continue;
        if (*p < 0x80)
            return false; /* C0 controls (CR among them) and DEL */
        if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
            return false; /* C1 controls, U+0085 (NEL) among them */
        if (p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9))
            return false; /* U+2028, U+2029 */
        if (p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
            return false; /* BOM */
    }
    return true;
}

/* "KEY: |" and each line of `s` (literal_ok) indented by two spaces;
 * empty lines stay empty, so no line ends in spaces we added. */
static void put_literal(cp_buf *b, const char *key, const char *s)
{
    cp_buf_printf(b, "%s: |\n", key);
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        if (len)
            cp_buf_puts(b, "  ");
        cp_buf_add(b, s, len);
        cp_buf_putc(b, '\n');
        s += len + (nl != NULL);
    }
}

static int write_lease(const cp_input *in, const cp_plan_file *pf, const cp_offer *of, bool spot,
                       const cp_plan_lease *l, int idx, cp_export *x, cp_diags *d)
{
    cp_buf fn, type, acc, zone;
    cp_buf_init(&fn);
    cp_buf_init(&type);
    cp_buf_init(&acc);
    cp_buf_init(&zone);
    cp_buf_printf(&fn, "launch/%03d-", idx);
    cp_xp_file_word(&fn, pstr(&l->id), 80);
    cp_buf_puts(&fn, ".yaml");
    instance_type(of, &type, &acc, &zone);
    cp_export_file *f = cp_buf_ok(&fn) ? cp_export_add(x, fn.s, false) : NULL;
    int rc = CP_OK;
    cp_out *o = NULL;
    if (!f || !cp_buf_ok(&type) || !cp_buf_ok(&acc) || !cp_buf_ok(&zone)) {
        rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
        goto out;
    }
    cp_buf_printf(&f->text,
                  "# written by capplan export: lease %d (SkyPilot 0.9.1 task YAML);\n"
                  "# launch and stop it at the times of launch.md\n",
                  idx);
    if (!(o = cp_out_new(CP_OUT_YAML, &f->text))) {
        rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
        goto out;
    }
    char name[40];
    snprintf(name, sizeof name, "capplan-lease-%03d", idx);
    cp_out_map(o);
    cp_out_key(o, "name");
    cp_out_str(o, name);
    cp_out_key(o, "num_nodes");
    cp_out_int(o, 1);
    cp_out_key(o, "resources");
    cp_out_map(o);
    if (of->provider) {
        cp_out_key(o, "cloud");
        cp_out_str(o, of->provider);
    }
    if (of->region) {
        cp_out_key(o, "region");
        cp_out_str(o, of->region);
    }
    if (zone.len) {
        cp_out_key(o, "zone");
        cp_out_str(o, zone.s);
    }
    cp_out_key(o, "instance_type");
    cp_out_str(o, type.s);
    if (acc.len) {
        cp_buf_reset(&type);
        cp_buf_printf(&type, "%s:%s", in->accels[of->inst.acc].name, acc.s);
        cp_out_key(o, "accelerators");
        cp_out_str(o, type.s);
    }
    cp_out_key(o, "use_spot");
    cp_out_word(o, spot ? "true" : "false");
    cp_out_end(o);
    /* run: the lease's jobs in order of their start */
    cp_buf run;
    cp_buf_init(&run);
    cp_buf_puts(&run, "set -e\n");
    int n = l->jobs.has == CP_PLAN_SET ? l->jobs.n : 0;
    bool *used = cp_calloc((size_t)(n ? n : 1), sizeof *used);
    for (int done = 0; used && done < n; done++) {
        int best = -1;
        long bs = 0;
        for (int k = 0; k < n; k++) {
            if (used[k])
                continue;
            const cp_plan_job *pj = plan_job(pf, l->jobs.s[k]);
            long s = pj && pj->start_slot.has == CP_PLAN_SET ? pj->start_slot.v : 0;
            if (best < 0 || s < bs) {
                best = k;
                bs = s;
            }
        }
        used[best] = true;
        const char *jn = l->jobs.s[best];
        int ji = cp_input_find_job(in, jn);
        cp_buf_puts(&run, "# job ");
        cp_sh_quote(&run, jn);
        cp_buf_printf(&run, ", from slot %ld\n", bs);
        if (ji >= 0 && in->jobs[ji].run) {
            cp_buf_puts(&run, in->jobs[ji].run);
            if (run.len && run.s[run.len - 1] != '\n')
                cp_buf_putc(&run, '\n');
        } else {
            cp_buf msg;
            cp_buf_init(&msg);
            cp_buf_printf(&msg, "capplan: job '%s' has no run command: add run: to it in the input",
                          jn);
            cp_buf_puts(&run, "echo ");
            cp_sh_quote(&run, msg.s ? msg.s : "");
            cp_buf_puts(&run, " >&2\nexit 1\n");
            cp_buf_release(&msg);
        }
    }
    /* run: a literal block (`run: |`, as SkyPilot's own examples write
     * it) after the map, when the script reads back exactly that way;
     * else the quoted string of the project's one quoting rule */
    const char *script = run.s ? run.s : "";
    bool literal = literal_ok(script);
    if (!literal) {
        cp_out_key(o, "run");
        cp_out_str(o, script);
    }
    cp_out_end(o);
    bool ok = used && cp_buf_ok(&run);
    cp_err err;
    cp_err_init(&err);
    rc = cp_out_finish(o, &err);
    o = NULL;
    if (rc == CP_OK && literal)
        put_literal(&f->text, "run", script);
    cp_free(used);
    cp_buf_release(&run);
    if (rc)
        cp_diags_add_err(d, &err);
    else if (!ok || !cp_buf_ok(&f->text))
        rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
out:
    if (o) {
        cp_err ignored;
        cp_out_finish(o, &ignored);
    }
    cp_buf_release(&fn);
    cp_buf_release(&type);
    cp_buf_release(&acc);
    cp_buf_release(&zone);
    return rc;
}

int cp_export_launch(const cp_input *in, const cp_plan_file *pf, const cp_export_opts *o,
                     cp_export *x, cp_diags *d)
{
    (void)o;
    long start = 0;
    bool utc = false, have_start = in->start && cp_xp_parse_start(in->start, &start, &utc);
    cp_export_file *md = cp_export_add(x, "launch.md", false);
    if (!md)
        return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    /* each lease adds its file to x, and cp_export_add may move
     * x->files: hold launch.md by its index */
    const int md_at = x->n - 1;
    cp_buf *b = &md->text;
    cp_buf_printf(b, "# Cloud leases\n\nWritten by capplan export. One SkyPilot task per lease "
                     "(launch/NNN-ID.yaml): `sky launch` it at its start, `sky down` it at its "
                     "stop. Times are %s.\n\n",
                  have_start ? (utc ? "UTC" : "in horizon.start's time zone")
                             : "slots of the horizon (the inputs give no horizon.start)");
    cp_buf_puts(b, "| # | instance | market | start | stop | jobs | cost $ |\n"
                   "|---:|---|---|---|---|---|---:|\n");
    int idx = 0, rc = CP_OK;
    double total = 0;
    for (int i = 0; i < pf->n_prov && rc == CP_OK; i++) {
        const cp_plan_prov *pv = &pf->prov[i];
        const char *mk = pstr(&pv->market);
        int oi = cp_input_find_offer(in, mk);
        if (oi < 0) {
            rc = cp_diags_add(d, CP_ERR_INPUT, pv->market.pos,
                              "provisioning of '%s': no such offer in the inputs", mk);
            break;
        }
        const cp_offer *of = &in->offers[oi];
        bool spot = pv->mk == CP_PLAN_SPOT;
        bool used = false;
        for (int t = 0; pv->instances.has == CP_PLAN_SET && t < pv->instances.n; t++)
            used |= pv->instances.v[t] > 0;
        if (used && pv->leases_has != CP_PLAN_SET)
            cp_diags_warn(d, pv->pos,
                          "provisioning of '%s' lists no leases: launch files need a plan "
                          "written by 'capplan plan' (capplan.5 §5)",
                          mk);
        for (int k = 0; k < pv->n_leases && rc == CP_OK; k++) {
            const cp_plan_lease *l = &pv->leases[k];
            if (cp_export_has_control(pstr(&l->id))) {
                rc = cp_diags_add(d, CP_ERR_INPUT, l->id.pos,
                                  "lease id contains a control character: refusing to write it");
                break;
            }
            /* each job's name is a comment line of the task's run: script */
            for (int j = 0; l->jobs.has == CP_PLAN_SET && j < l->jobs.n; j++)
                if (l->jobs.s[j] && !cp_xp_name_ok(d, l->jobs.at[j], "a job", l->jobs.s[j]))
                    rc = CP_ERR_INPUT;
            if (rc != CP_OK)
                break;
            idx++;
            if ((rc = write_lease(in, pf, of, spot, l, idx, x, d)))
                break;
            b = &x->files[md_at].text;
            double price = spot ? of->spot_price_hour : of->price_hour;
            double cost = l->slots.v * in->slot_hours * price;
            total += cost;
            cp_buf_printf(b, "| %d | ", idx);
            cp_md_text(b, pstr(&l->id));
            cp_buf_printf(b, " | %s | ", spot ? "spot" : "on_demand");
            put_when(b, in, have_start, start, l->start_slot.v);
            cp_buf_puts(b, " | ");
            put_when(b, in, have_start, start, l->start_slot.v + l->slots.v);
            cp_buf_puts(b, " | ");
            for (int j = 0; l->jobs.has == CP_PLAN_SET && j < l->jobs.n; j++) {
                if (j)
                    cp_buf_puts(b, ", ");
                cp_md_text(b, l->jobs.s[j]);
            }
            cp_buf_printf(b, " | %.2f |\n", cost);
            x->n_leases++;
        }
    }
    cp_buf_printf(b, "\n%d lease%s, $%.2f of instance time (the plan's cloud cost counts the "
                     "same instance-slots).\n",
                  idx, idx == 1 ? "" : "s", total);
    if (rc == CP_OK && !cp_buf_ok(b))
        rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    return rc;
}
