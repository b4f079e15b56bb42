/*
 * libFuzzer harness for the option parser of every command (planner/cmd/
 * cp_opt.h): bytes -> words (split at newlines and NULs) -> argv ->
 * cp_opt_parse against a table with every kind of option (flags, ints,
 * longs, doubles with either bound, strings, files, repeatable lists, an
 * enum with an alias, a callback, an included table, local options).
 * Oracles, besides no sanitizer report and no leak:
 *  - the status is OK, BAD (with a message) or NOMEM;
 *  - after OK, the canonical words of whatif --slurm-array
 *    (cp_cli_args_canonical) parse again to the same values and operands
 *    for every option that is not .local (the tasks of an array plan what
 *    the run would have planned);
 *  - --help and --list-options print from the table without fault.
 * The parser touches no file: the words name nothing that is opened.
 */
#include "cp_alloc.h"
#include "cp_opt.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_WORDS 64

typedef struct vals {
    const char *out, *scen, *method, *lp;
    int fmt, jobs, shards, threads;
    long seed, nodes;
    double limit, gap, work;
    bool force, timing, progress;
    cp_opt_list modes;
    int k, n;
} vals;

static bool kn(void *target, const char *v, char *msg, size_t size)
{
    vals *x = target;
    char *end;
    long k = strtol(v, &end, 10);
    long n = *end == '/' ? strtol(end + 1, &end, 10) : 0;
    if (*end || n < 1 || n > 1000 || k < 0 || k >= n) {
        snprintf(msg, size, "--shard must be K/N with 0 <= K < N, got '%.40s'", v);
        return false;
    }
    x->k = (int)k;
    x->n = (int)n;
    return true;
}

static const cp_opt_word fmts[] = {{"md", 0}, {"csv", 1}, {"table", 1}, {"json", 2}, {NULL, 0}};

/* The table over x: sub is the included part (its storage). */
static void make_table(vals *x, cp_opt *t, cp_opt *sub)
{
    memset(x, 0, sizeof *x);
    x->timing = true;
    const cp_opt s[] = {
        CP_OPT_DOUBLE(0, "time-limit", &x->limit, 0, "S", "limit"),
        CP_OPT_DOUBLE(0, "gap", &x->gap, 0, "REL", "gap"),
        CP_OPT_STRING(0, "method", &x->method, "NAME", "method"),
        CP_OPT_INT(0, "threads", &x->threads, 1, 1024, "N", "threads"),
        CP_OPT_LONG(0, "seed", &x->seed, 0, 2147483647L, "N", "seed"),
        CP_OPT_LONG(0, "node-limit", &x->nodes, 1, 2147483647L, "N", "nodes"),
        CP_OPT_STRING(0, "export-lp", &x->lp, "FILE", "lp"),
        CP_OPT_UNSET(0, "no-timing", &x->timing, "timing"),
        CP_OPT_QUIET("quiet"),
        CP_OPT_BOOL(0, "progress", &x->progress, "progress"),
        CP_OPT_END(),
    };
    memcpy(sub, s, sizeof s);
    const cp_opt m[] = {
        CP_OPT_FILE(0, "scenarios", &x->scen, "FILE", "scenarios"),
        {CP_OPTF_STRING('o', NULL, &x->out, "FILE", "output"), .local = true},
        {CP_OPTF_ENUM(0, "format", &x->fmt, fmts, NULL, "format"), .local = true},
        CP_OPT_INT('j', "jobs", &x->jobs, 1, 64, "N", "jobs"),
        {CP_OPTF_INT(0, "shards", &x->shards, 1, 100000, "N", "shards"), .local = true},
        {CP_OPTF_CALLBACK(0, "shard", kn, x, "K/N", "shard"), .local = true},
        CP_OPT_DOUBLE_ABOVE(0, "work", &x->work, 0, "N", "work"),
        {CP_OPTF_BOOL(0, "force", &x->force, "force"), .local = true},
        CP_OPT_LIST(0, "modes", &x->modes, "JOB", "modes"),
        CP_OPT_TEXT("  more:\n"),
        CP_OPT_INCLUDE(sub),
        CP_OPT_END(),
    };
    memcpy(t, m, sizeof m);
}

static bool same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

static bool same_num(double a, double b)
{
    return a == b || (isnan(a) && isnan(b));
}

/* The options that reach a task: every one not .local. */
static bool same_vals(const vals *a, const vals *b)
{
    bool ok = same_str(a->scen, b->scen) && same_str(a->method, b->method) &&
              same_str(a->lp, b->lp) && a->jobs == b->jobs && a->threads == b->threads &&
              a->seed == b->seed && a->nodes == b->nodes && same_num(a->limit, b->limit) &&
              same_num(a->gap, b->gap) && same_num(a->work, b->work) &&
              a->timing == b->timing && a->progress == b->progress && a->modes.n == b->modes.n;
    for (int i = 0; ok && i < a->modes.n; i++)
        ok = !strcmp(a->modes.v[i], b->modes.v[i]);
    return ok;
}

/* Collects the canonical words into a NULL-terminated argv. */
typedef struct line {
    char *w[2 * MAX_WORDS + 8];
    int n;
    bool oom;
} line;

static void put(void *arg, const char *w)
{
    line *l = arg;
    if (l->n + 1 >= (int)(sizeof l->w / sizeof l->w[0])) {
        abort(); /* more words out than went in: the canonical form grew */
    }
    char *c = cp_strdup(w);
    if (!c)
        l->oom = true;
    else
        l->w[l->n++] = c;
}

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!devnull)
        devnull = fopen("/dev/null", "w");
    char *buf = malloc(size + 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = 0;
    char *argv[MAX_WORDS + 2];
    int argc = 0;
    argv[argc++] = "cmd";
    for (char *p = buf; argc <= MAX_WORDS && p < buf + size;) {
        size_t len = strcspn(p, "\n");
        p[len] = 0;
        argv[argc++] = p;
        p += len + 1;
    }
    argv[argc] = NULL;

    vals x, y;
    cp_opt t[16], sub[16], t2[16], sub2[16];
    make_table(&x, t, sub);
    cp_cli_args a, b;
    cp_opt_error e;
    int rc = cp_opt_parse(&a, t, argc, argv, &e);
    if (rc != CP_OPT_OK && rc != CP_OPT_BAD && rc != CP_OPT_NOMEM)
        abort();
    if (rc == CP_OPT_BAD && !e.msg[0])
        abort();
    if (rc == CP_OPT_OK && a.helped && devnull) {
        cp_cli_help help = {"usage: cmd\n", "end\n"};
        cp_cli_help_print(devnull, t, &help);
        cp_opt_list_names(devnull, t);
    }
    if (rc == CP_OPT_OK && !a.helped) {
        line l = {.n = 0};
        l.w[l.n++] = "cmd";
        int crc = cp_cli_args_canonical(&a, put, &l);
        l.w[l.n] = NULL;
        if (crc == CP_OPT_OK && !l.oom) {
            make_table(&y, t2, sub2);
            int rc2 = cp_opt_parse(&b, t2, l.n, l.w, &e);
            if (rc2 == CP_OPT_BAD)
                abort(); /* the canonical words must read back */
            if (rc2 == CP_OPT_OK) {
                if (!same_vals(&x, &y) || b.quiet != a.quiet || b.n_operands != a.n_operands)
                    abort();
                for (int i = 0; i < a.n_operands; i++)
                    if (strcmp(a.operands[i], b.operands[i]))
                        abort();
            }
            cp_cli_args_release(&b);
        }
        for (int i = 1; i < l.n; i++)
            cp_free(l.w[i]);
    }
    cp_cli_args_release(&a);
    free(buf);
    return 0;
}
