/*
 * What the SkyPilot files share (export_launch.c's clusters and tasks,
 * export_serve.c's SkyServe services): the time of a slot as launch.md
 * writes it, the cloud's instance type of an offer, and the end of a
 * YAML file with its run: (docs/execution.md, "Cloud jobs on SkyPilot").
 */
#include "export_internal.h"

#include "cp_out.h"

#include <string.h>

/* "slot S (hour H)" or the wall-clock time */
void cp_xp_put_when(cp_buf *b, const cp_input *in, bool have_start, long start, long slot)
{
    double h = slot * in->slot_hours;
    long at;
    if (have_start && cp_xp_time_after(start, h, &at))
        cp_xp_put_time(b, at);
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
void cp_xp_instance_type(const cp_offer *of, cp_buf *type, cp_buf *acc, cp_buf *zone)
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

/* Finishes the YAML of o into f, with run: as a literal block after it
 * when `script` reads back exactly that way (as SkyPilot's own examples
 * write it), else as the quoted string of the project's one rule. */
cp_out *cp_xp_open_yaml(cp_export *x, const cp_buf *name, bool ok, cp_export_file **f, cp_diags *d)
{
    *f = cp_buf_ok(name) ? cp_export_add(x, name->s, false) : NULL;
    cp_out *o = *f ? cp_out_new(CP_OUT_YAML, &(*f)->text) : NULL;
    if (o && ok)
        return o;
    cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    if (o) {
        cp_err ignored;
        cp_out_finish(o, &ignored);
    }
    return NULL;
}

int cp_xp_finish_yaml(cp_out *o, cp_export_file *f, const char *script, cp_diags *d)
{
    bool literal = script && literal_ok(script);
    if (script && !literal) {
        cp_out_key(o, "run");
        cp_out_str(o, script);
    }
    cp_out_end(o);
    cp_err err;
    cp_err_init(&err);
    int rc = cp_out_finish(o, &err);
    if (rc)
        return cp_diags_add_err(d, &err), rc;
    if (literal)
        put_literal(&f->text, "run", script);
    return cp_buf_ok(&f->text) ? CP_OK
                               : cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
}
