/*
 * libFuzzer harness for the option tables of every command (planner/cmd/
 * cp_opt.h): bytes -> words (one a line) -> a command line run by the
 * command's own function from cp_commands[] (planner/commands.c). The
 * first word names the command ("plan", "import gavel", "export slurm",
 * "whatif merge" reach their sub-commands through the next word, as in
 * capplan); when it names none, the first byte picks one and every word
 * is an argument.
 *
 * The harness is linked with -Wl,--wrap=cp_cli_parse (Makefile,
 * fuzz-build), so the command's call to cp_cli_parse with its real table
 * (the defaults it set, its includes, its .local options) lands in
 * __wrap_cp_cli_parse below, which parses the line with cp_opt_parse and
 * returns the status the command would return after --help or a bad
 * line: the command ends there, having read, planned and written nothing.
 * Oracles, besides no sanitizer report and no leak (the commands' own
 * allocations before the parse included):
 *  - the status is OK, BAD (with a message) or NOMEM;
 *  - after OK, the canonical words of whatif --slurm-array's tasks
 *    (cp_cli_args_canonical) parse again, from the command's defaults, to
 *    the same values (compared by kind through each entry's target) and
 *    operands for every option that is not .local, and the same --quiet;
 *  - --help and --list-options print from the table without fault.
 */
#include "cp_alloc.h"
#include "cp_cmd.h"
#include "cp_opt.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int __wrap_cp_cli_parse(cp_cli_args *a, const char *cmd, int argc, char **argv,
                        const cp_opt *table, const cp_cli_help *help);

#define MAX_WORDS 64
#define MAX_ENTRIES 256

/* One entry of a table (includes flattened) and its target's value. */
typedef struct val {
    const cp_opt *o;
    union {
        bool b;
        int i;
        long l;
        double d;
        const char *s;
    } u;
    cp_opt_list list; /* LIST: a copy of the words (v owned here) */
} val;

typedef struct vals {
    val v[MAX_ENTRIES];
    int n;
} vals;

static void flatten(vals *x, const cp_opt *t)
{
    for (; t && t->kind != CP_OPTK_END; t++) {
        if (t->kind == CP_OPTK_INCLUDE) {
            flatten(x, t->sub);
            continue;
        }
        if (!t->target || t->kind == CP_OPTK_TEXT || t->kind == CP_OPTK_QUIET)
            continue;
        if (x->n == MAX_ENTRIES)
            abort(); /* a table larger than the harness knows */
        x->v[x->n++].o = t;
    }
}

/* Reads every target of the table into x (a copy of each list). */
static void snap(vals *x, const cp_opt *table)
{
    memset(x, 0, sizeof *x);
    flatten(x, table);
    for (int k = 0; k < x->n; k++) {
        val *v = &x->v[k];
        const void *p = v->o->target;
        switch (v->o->kind) {
        case CP_OPTK_BOOL: v->u.b = *(const bool *)p; break;
        case CP_OPTK_INT:
        case CP_OPTK_ENUM: v->u.i = *(const int *)p; break;
        case CP_OPTK_LONG: v->u.l = *(const long *)p; break;
        case CP_OPTK_DOUBLE: v->u.d = *(const double *)p; break;
        case CP_OPTK_STRING: v->u.s = *(const char *const *)p; break;
        case CP_OPTK_LIST: {
            const cp_opt_list *l = p;
            v->list.n = l->n;
            if (l->v) {
                v->list.v = malloc(((size_t)l->n + 1) * sizeof *v->list.v);
                if (!v->list.v)
                    abort();
                memcpy(v->list.v, l->v, ((size_t)l->n + 1) * sizeof *v->list.v);
            }
            break;
        }
        default: break; /* a callback's target is its own: not compared */
        }
    }
}

/* Writes the values of x (the defaults) back into the targets. */
static void restore(const vals *x)
{
    for (int k = 0; k < x->n; k++) {
        const val *v = &x->v[k];
        void *p = v->o->target;
        switch (v->o->kind) {
        case CP_OPTK_BOOL: *(bool *)p = v->u.b; break;
        case CP_OPTK_INT:
        case CP_OPTK_ENUM: *(int *)p = v->u.i; break;
        case CP_OPTK_LONG: *(long *)p = v->u.l; break;
        case CP_OPTK_DOUBLE: *(double *)p = v->u.d; break;
        case CP_OPTK_STRING: *(const char **)p = v->u.s; break;
        case CP_OPTK_LIST: {
            cp_opt_list *l = p;
            l->v = NULL; /* a command's lists start empty */
            l->n = 0;
            if (v->list.v || v->list.n)
                abort();
            break;
        }
        default: break;
        }
    }
}

static void unsnap(vals *x)
{
    for (int k = 0; k < x->n; k++)
        free(x->v[k].list.v);
}

static bool same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

/* The values of every option that reaches a task (not .local) agree. */
static bool same_vals(const vals *a, const vals *b)
{
    if (a->n != b->n)
        return false;
    for (int k = 0; k < a->n; k++) {
        const val *x = &a->v[k], *y = &b->v[k];
        if (x->o != y->o)
            return false;
        if (x->o->local)
            continue;
        bool ok = true;
        switch (x->o->kind) {
        case CP_OPTK_BOOL: ok = x->u.b == y->u.b; break;
        case CP_OPTK_INT:
        case CP_OPTK_ENUM: ok = x->u.i == y->u.i; break;
        case CP_OPTK_LONG: ok = x->u.l == y->u.l; break;
        case CP_OPTK_DOUBLE: ok = x->u.d == y->u.d || (isnan(x->u.d) && isnan(y->u.d)); break;
        case CP_OPTK_STRING: ok = same_str(x->u.s, y->u.s); break;
        case CP_OPTK_LIST:
            ok = x->list.n == y->list.n;
            for (int i = 0; ok && i < x->list.n; i++)
                ok = !strcmp(x->list.v[i], y->list.v[i]);
            break;
        default: break;
        }
        if (!ok)
            return false;
    }
    return true;
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
    if (l->n + 1 >= (int)(sizeof l->w / sizeof l->w[0]))
        abort(); /* more words out than went in: the canonical form grew */
    char *c = cp_strdup(w);
    if (!c)
        l->oom = true;
    else
        l->w[l->n++] = c;
}

static FILE *devnull;

/* The canonical words of a, parsed from the defaults d into the values
 * got, read back from d to the same values and operands. a is released
 * here (with the lists it filled) before the words are read back. */
static void check_canonical(cp_cli_args *a, const cp_opt *table, const vals *d, const vals *got)
{
    line l = {.n = 0};
    l.w[l.n++] = (char *)"cmd";
    int crc = cp_cli_args_canonical(a, put, &l);
    l.w[l.n] = NULL;
    bool quiet = a->quiet;
    int n_operands = a->n_operands;
    char *operands[MAX_WORDS + 1]; /* words of the input: they outlive a */
    memcpy(operands, a->operands, (size_t)n_operands * sizeof *operands);
    cp_cli_args_release(a);
    restore(d);
    if (crc == CP_OPT_OK && !l.oom) {
        cp_cli_args b;
        cp_opt_error e;
        int rc2 = cp_opt_parse(&b, table, l.n, l.w, &e);
        if (rc2 == CP_OPT_BAD)
            abort(); /* the canonical words must read back */
        if (rc2 == CP_OPT_OK) {
            vals again;
            snap(&again, table);
            if (!same_vals(got, &again) || b.quiet != quiet || b.n_operands != n_operands)
                abort();
            for (int i = 0; i < n_operands; i++)
                if (strcmp(operands[i], b.operands[i]))
                    abort();
            unsnap(&again);
        }
        cp_cli_args_release(&b);
        restore(d);
    }
    for (int i = 1; i < l.n; i++)
        cp_free(l.w[i]);
}

int __wrap_cp_cli_parse(cp_cli_args *a, const char *cmd, int argc, char **argv,
                        const cp_opt *table, const cp_cli_help *help)
{
    (void)cmd;
    vals d;
    snap(&d, table);
    cp_opt_error e;
    int rc = cp_opt_parse(a, table, argc, argv, &e);
    if (rc != CP_OPT_OK && rc != CP_OPT_BAD && rc != CP_OPT_NOMEM)
        abort();
    if (rc == CP_OPT_BAD && !e.msg[0])
        abort();
    if (rc == CP_OPT_OK && a->helped && devnull) {
        cp_cli_help_print(devnull, table, help);
        cp_opt_list_names(devnull, table);
    }
    if (rc == CP_OPT_OK && !a->helped) {
        vals got;
        snap(&got, table);
        check_canonical(a, table, &d, &got);
        unsnap(&got);
    } else {
        cp_cli_args_release(a);
    }
    unsnap(&d);
    memset(a, 0, sizeof *a);
    return rc == CP_OPT_NOMEM ? 1 : rc == CP_OPT_BAD ? 2 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!devnull)
        devnull = fopen("/dev/null", "w");
    int n_cmds = 0;
    while (cp_commands[n_cmds].name)
        n_cmds++;
    char *buf = malloc(size + 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = 0;
    char *argv[MAX_WORDS + 2];
    int argc = 1;
    for (char *p = buf; argc <= MAX_WORDS && p < buf + size;) {
        size_t len = strcspn(p, "\n");
        p[len] = 0;
        argv[argc++] = p;
        p += len + 1;
    }
    const cp_command *c = argc > 1 ? cp_command_find(argv[1]) : NULL;
    char **line = argv + 1;
    if (!c) { /* every word an argument of the command the first byte picks */
        c = &cp_commands[size ? data[0] % n_cmds : 0];
        line = argv;
        argc++;
    }
    line[0] = (char *)c->name;
    line[argc - 1] = NULL;
    c->run(argc - 1, line);
    free(buf);
    return 0;
}
