/* Fitted models written as YAML input fragments (see cp_fit_write.h). */
#include "cp_fit_write.h"

#include "cp_yaml.h"
#include "cp_yaml_put.h"

#include <string.h>

const cp_node *cp_fit_find_def(const cp_node *const *jobs, int n_jobs, const char *name)
{
    for (int i = 0; i < n_jobs; i++) {
        const cp_node *nm = cp_map_get(jobs[i], "name");
        if (nm && nm->kind == CP_NODE_SCALAR && strcmp(nm->str, name) == 0)
            return jobs[i];
    }
    return NULL;
}

/* Copies the definition's keys except name and those in `skip`. */
void cp_fit_put_def_keys(cp_buf *b, const cp_node *def, const char *const *skip)
{
    for (size_t i = 0; def && i < def->n; i++) {
        const cp_node *k = def->kids[2 * i];
        if (k->kind != CP_NODE_SCALAR || strcmp(k->str, "name") == 0)
            continue;
        int s = 0;
        while (skip[s] && strcmp(skip[s], k->str))
            s++;
        if (skip[s])
            continue;
        cp_buf_puts(b, "    ");
        cp_yaml_put_str(b, k->str);
        cp_buf_putc(b, ':');
        cp_yaml_put_value(b, def->kids[2 * i + 1], 6);
    }
}

void cp_fit_tr_put_model(cp_buf *b, const cp_tr_fit *f, const int *ks, int nk)
{
    cp_buf_puts(b, "    throughput:\n");
    for (int a = 0; a < f->n_types; a++) {
        cp_buf_puts(b, "      ");
        cp_yaml_put_str(b, f->types[a].acc);
        cp_buf_puts(b, ": ");
        cp_yaml_put_num(b, f->types[a].thr1);
        cp_buf_puts(b, f->types[a].thr1_fitted ? "  # fitted: count 1 not measured\n" : "\n");
    }
    if (f->amdahl) {
        cp_buf_puts(b, "    scaling: {model: amdahl, serial_fraction: ");
        cp_yaml_put_num(b, f->serial_fraction);
        cp_buf_puts(b, "}\n");
        return;
    }
    if (f->shared) {
        cp_buf_puts(b, "    scaling:\n      model: table\n      speedup: {");
        for (int c = 0; c < nk; c++) {
            cp_buf_printf(b, "%s%d: ", c ? ", " : "", ks[c]);
            cp_yaml_put_num(b, cp_tr_speedup(f, ks[c]));
        }
        cp_buf_puts(b, "}\n");
        return;
    }
    cp_buf_puts(b, "    scaling:\n");
    for (int t = 0; t < f->n_types; t++) {
        int n_filled = 0;
        cp_buf_puts(b, "      ");
        cp_yaml_put_str(b, f->types[t].acc);
        cp_buf_puts(b, ": {model: table, speedup: {");
        for (int c = 0; c < nk; c++) {
            bool filled;
            double v = cp_tr_type_speedup(f, t, ks[c], &filled);
            n_filled += filled;
            cp_buf_printf(b, "%s%d: ", c ? ", " : "", ks[c]);
            cp_yaml_put_num(b, v);
        }
        cp_buf_puts(b,
                    n_filled ? "}}  # counts not measured on this type: the shared fit\n" : "}}\n");
    }
}

void cp_fit_tr_yaml(cp_buf *b, const cp_tr_report *r, const cp_node *const *jobs, int n_jobs,
                    double work)
{
    static const char *const skip[] = {"throughput", "scaling", NULL};
    cp_buf_puts(b, "jobs:\n");
    for (int i = 0; i < r->n_fits; i++) {
        const cp_tr_fit *f = &r->fits[i];
        const cp_node *def = cp_fit_find_def(jobs, n_jobs, f->job);
        cp_buf_puts(b, "  - name: ");
        cp_yaml_put_str(b, f->job);
        cp_buf_putc(b, '\n');
        cp_fit_put_def_keys(b, def, skip);
        if (!def || !cp_map_get(def, "kind"))
            cp_buf_puts(b, "    kind: training\n");
        if (!def || !cp_map_get(def, "work")) {
            cp_buf_puts(b, "    work: ");
            cp_yaml_put_num(b, work);
            cp_buf_puts(b, "  # stand-in: set the job's work, in the throughput's units\n");
        }
        if (!def || !cp_map_get(def, "accelerators")) {
            cp_buf_puts(b, "    accelerators: [");
            for (int c = 0; c < f->n_counts; c++) {
                cp_buf_puts(b, c ? ", " : "");
                cp_buf_printf(b, "%d", f->counts[c]);
            }
            cp_buf_puts(b, "]\n");
        }
        cp_fit_tr_put_model(b, f, f->counts, f->n_counts);
    }
}
