/*
 * libFuzzer harness for what `capplan fit` and `capplan import` write: the
 * first byte picks the producer, the rest is its file (the selectors of
 * fuzz_csv.c):
 *   k, K  the SkyPilot importer (K with accelerators, site, types and
 *         provider set), g the Gavel importer on a CSV, j on JSON,
 *   d     `fit dataflow`, t `fit training`, a `fit training --scaling
 *         amdahl` (through cp_cmd_fit, its output to a private file).
 * (c3o writes a CSV of samples, not YAML: fuzz_csv covers it.)
 * Property: whatever a producer writes with success
 * loads back through the input loader. The fragment is merged with a base
 * input of a horizon and, for every accelerator the fragment names in a
 * throughput but does not define, a definition (`fit training` names
 * the GPUs of its samples and leaves their definitions to the user, as
 * tests/suite_fit.sh does with tests/fit/accels.yaml). Any load error of
 * the merge aborts, printing the fragment and the diagnostics.
 */
#include "cp_alloc.h"
#include "cp_cmd.h"
#include "cp_file.h"
#include "cp_import.h"
#include "cp_input.h"
#include "cp_yaml.h"
#include "cp_yaml_put.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[256];
static char path[300], outpath[300];
static cp_diags *diags; /* large: allocated once */

static void cleanup(void)
{
    static const char *const ext[] = {"csv", "json", "yaml"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/in.%s", dir, ext[i]);
        unlink(path);
    }
    unlink(outpath);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/capplan-fitout-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("fuzz_fitout: mkdtemp");
        abort();
    }
    snprintf(outpath, sizeof outpath, "%s/out.yaml", dir);
    atexit(cleanup);
    if (!(diags = malloc(sizeof *diags))) {
        perror("fuzz_fitout: malloc");
        abort();
    }
    return 0;
}

static const char *put(const char *ext, const uint8_t *data, size_t size)
{
    snprintf(path, sizeof path, "%s/in.%s", dir, ext);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        perror("fuzz_fitout: writing the input");
        abort();
    }
    return path;
}

static const cp_node *map_get(const cp_node *m, const char *key)
{
    if (!m || m->kind != CP_NODE_MAP)
        return NULL;
    for (size_t i = 0; i < m->n; i++)
        if (!strcmp(m->kids[2 * i]->str, key))
            return m->kids[2 * i + 1];
    return NULL;
}

static bool defined(const cp_node *accs, const char *name)
{
    if (!accs || accs->kind != CP_NODE_SEQ)
        return false;
    for (size_t i = 0; i < accs->n; i++) {
        const cp_node *nm = map_get(accs->kids[i], "name");
        if (nm && nm->kind == CP_NODE_SCALAR && !strcmp(nm->str, name))
            return true;
    }
    return false;
}

/* horizon, and the accelerators the fragment's throughputs name but it
 * does not define (each once) */
static void base_input(const cp_node *frag, cp_buf *b)
{
    cp_buf_puts(b, "horizon: {slots: 4}\naccelerators:\n");
    const cp_node *accs = map_get(frag, "accelerators");
    const cp_node *jobs = map_get(frag, "jobs");
    bool any = false;
    const char **seen = NULL;
    size_t n_seen = 0, cap = 0;
    for (size_t j = 0; jobs && jobs->kind == CP_NODE_SEQ && j < jobs->n; j++) {
        const cp_node *tp = map_get(jobs->kids[j], "throughput");
        for (size_t i = 0; tp && tp->kind == CP_NODE_MAP && i < tp->n; i++) {
            const char *name = tp->kids[2 * i]->str;
            bool dup = defined(accs, name);
            for (size_t k = 0; k < n_seen && !dup; k++)
                dup = !strcmp(seen[k], name);
            if (dup)
                continue;
            if (n_seen == cap) {
                cap = cap ? 2 * cap : 16;
                const char **g = realloc(seen, cap * sizeof *g);
                if (!g) {
                    perror("fuzz_fitout: realloc");
                    abort();
                }
                seen = g;
            }
            seen[n_seen++] = name;
            cp_buf_puts(b, "  - {memory_gb: 1000, name: ");
            cp_yaml_put_str(b, name);
            cp_buf_puts(b, "}\n");
            any = true;
        }
    }
    free(seen);
    if (!any)
        cp_buf_puts(b, "  []\n");
}

/* The property: the fragment parses and merges with the base input. */
static void loads_back(const char *who, const char *text, size_t len)
{
    cp_diags_init(diags);
    cp_node *roots[2] = {NULL, NULL};
    int rc = cp_yaml_load_string("fragment.yaml", text, len, &roots[1], diags);
    if (rc == CP_ERR_NOMEM)
        return;
    if (rc != CP_OK) {
        /* a fragment of comments only is an empty document */
        bool comments = true;
        for (const char *l = text; comments && l < text + len;) {
            const char *e = memchr(l, '\n', (size_t)(text + len - l));
            if (*l != '#' && *l != '\n')
                comments = false;
            l = e ? e + 1 : text + len;
        }
        if (comments)
            return;
        fprintf(stderr, "fuzz_fitout: %s wrote YAML that does not parse:\n%.*s\n", who,
                (int)len, text);
        cp_diags_print(diags, stderr);
        abort();
    }
    cp_buf base;
    cp_buf_init(&base);
    base_input(roots[1], &base);
    if (!cp_buf_ok(&base))
        goto out;
    cp_diags_init(diags);
    if (cp_yaml_load_string("base.yaml", base.s, base.len, &roots[0], diags) != CP_OK) {
        if (diags->worst == CP_ERR_NOMEM)
            goto out;
        fprintf(stderr, "fuzz_fitout: the harness's base input does not parse:\n%s\n", base.s);
        cp_diags_print(diags, stderr);
        abort();
    }
    cp_input *in = NULL;
    rc = cp_input_from_trees(roots, 2, &in, diags);
    if (rc != CP_OK && rc != CP_ERR_NOMEM) {
        fprintf(stderr, "fuzz_fitout: %s wrote a fragment the loader refuses:\n%.*s\n--- base\n%s\n",
                who, (int)len, text, base.s);
        cp_diags_print(diags, stderr);
        abort();
    }
    cp_input_free(in);
out:
    cp_buf_release(&base);
    cp_node_free(roots[0]);
    cp_node_free(roots[1]);
}

static void import_done(const char *who, int rc, cp_buf *b)
{
    if (rc == CP_OK)
        loads_back(who, b->s ? b->s : "", b->len);
    cp_buf_release(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char sel = (char)data[0];
    data++;
    size--;
    const char *p;
    cp_buf b;
    cp_buf_init(&b);
    switch (sel) {
    case 'k':
    case 'K': {
        p = put("csv", data, size);
        cp_import_skypilot_opts o;
        cp_import_skypilot_opts_init(&o);
        if (sel == 'K') {
            o.accelerators = "V100,A100,T4";
            o.site = "dc";
            o.types = "^[a-z]";
            o.provider = "gcp";
        }
        cp_diags_init(diags);
        int rc = cp_import_skypilot(p, &o, &b, diags);
        /* an offer's site must exist: give the importer's one */
        if (rc == CP_OK && sel == 'K')
            cp_buf_puts(&b, "sites:\n  - {name: dc}\n");
        import_done("import skypilot", rc, &b);
        break;
    }
    case 'g':
    case 'j': {
        p = put(sel == 'g' ? "csv" : "json", data, size);
        cp_import_gavel_opts o;
        cp_import_gavel_opts_init(&o);
        cp_diags_init(diags);
        import_done("import gavel", cp_import_gavel(p, &o, &b, diags), &b);
        break;
    }
    case 'd':
    case 't':
    case 'a': {
        p = put("csv", data, size);
        unlink(outpath);
        const char *av[] = {"fit",   sel == 'd' ? "dataflow" : "training", p, "--no-loo", "-o",
                            outpath, "--scaling", sel == 'a' ? "amdahl" : "table", NULL};
        int st = cp_cmd_fit(sel == 'd' ? 6 : 8, (char **)av);
        if (st != 0 && st != 1 && st != 2) {
            fprintf(stderr, "fuzz_fitout: fit exited %d\n", st);
            abort();
        }
        char *text = NULL;
        size_t len = 0;
        if (st == 0 && cp_file_read(outpath, "YAML", &text, &len, NULL) == CP_OK) {
            loads_back(sel == 'd' ? "fit dataflow" : "fit training", text, len);
            cp_free(text);
        }
        break;
    }
    default:
        break;
    }
    return 0;
}
