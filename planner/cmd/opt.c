/*
 * The option parser of every command (cp_opt.h): argv against a table,
 * without getopt (no global state, so tests and fuzzers run it again and
 * again, and POSIXLY_CORRECT changes nothing). It prints nothing: a bad
 * line comes back as a message, which opt_help.c prints with the help.
 */
#include "cp_opt.h"

#include "cp_alloc.h"
#include "cp_buf.h"
#include "cp_suggest.h"
#include "cp_num.h"

#include <limits.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The options of every command (cp_opt.h): handled here, not in tables. */
static const cp_opt builtin_help = {.kind = CP_OPTK_BOOL, .short_name = 'h', .long_name = "help"};
static const cp_opt builtin_quiet = {.kind = CP_OPTK_BOOL, .short_name = 'q', .long_name = "quiet"};
static const cp_opt builtin_list = {.kind = CP_OPTK_BOOL, .long_name = "list-options"};

/* The longest option word a message repeats. */
#define SHOWN_MAX 79

/* The table with its INCLUDEs expanded, TEXT and QUIET left out, and the
 * built-in options last: what the parser matches against. */
typedef struct flat {
    const cp_opt **v;
    int n;
} flat;

static int count_opts(const cp_opt *t)
{
    int n = 0;
    for (; t && t->kind != CP_OPTK_END; t++)
        n += t->kind == CP_OPTK_INCLUDE ? count_opts(t->sub)
             : t->kind == CP_OPTK_TEXT || t->kind == CP_OPTK_QUIET ? 0
                                                                     : 1;
    return n;
}

static void fill_opts(flat *f, const cp_opt *t)
{
    for (; t && t->kind != CP_OPTK_END; t++)
        if (t->kind == CP_OPTK_INCLUDE)
            fill_opts(f, t->sub);
        else if (t->kind != CP_OPTK_TEXT && t->kind != CP_OPTK_QUIET)
            f->v[f->n++] = t;
}

static int flatten(flat *f, const cp_opt *table)
{
    f->n = 0;
    f->v = cp_calloc((size_t)count_opts(table) + 3, sizeof *f->v);
    if (!f->v)
        return CP_OPT_NOMEM;
    fill_opts(f, table);
    f->v[f->n++] = &builtin_help;
    f->v[f->n++] = &builtin_quiet;
    f->v[f->n++] = &builtin_list;
    return CP_OPT_OK;
}

static bool takes_value(const cp_opt *o)
{
    return o->kind != CP_OPTK_BOOL;
}

const char *cp_opt_name(const cp_opt *o, char *buf, size_t size)
{
    if (o->long_name)
        snprintf(buf, size, "--%s", o->long_name);
    else
        snprintf(buf, size, "-%c", o->short_name);
    return buf;
}

static int fail(cp_opt_error *e, bool see_help, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(cp_opt_error *e, bool see_help, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->see_help = see_help;
    return CP_OPT_BAD;
}

static bool is_alias(const cp_opt_word *w, int i)
{
    for (int k = 0; k < i; k++)
        if (w[k].value == w[i].value)
            return true;
    return false;
}

/* "A, B (or B2) or C": the words of an enum option for its message, an
 * alias (a later word of the same value) beside its word. */
static void words_text(const cp_opt_word *w, char *buf, size_t size)
{
    int n = 0, shown = 0;
    size_t len = 0;
    for (int i = 0; w[i].word; i++)
        n += !is_alias(w, i);
    buf[0] = 0;
    for (int i = 0; w[i].word && len < size; i++) {
        if (is_alias(w, i))
            continue;
        shown++;
        len += (size_t)snprintf(buf + len, size - len, "%s%s",
                                shown == 1 ? "" : shown == n ? " or " : ", ", w[i].word);
        for (int k = i + 1; w[k].word && len < size; k++)
            if (w[k].value == w[i].value)
                len += (size_t)snprintf(buf + len, size - len, " (or %s)", w[k].word);
    }
}

/* Takes the value of o (named `shown` in messages). */
static int apply(const cp_opt *o, const char *shown, const char *v, cp_opt_error *e)
{
    char *end;
    switch (o->kind) {
    case CP_OPTK_BOOL:
        *(bool *)o->target = !o->unset;
        return CP_OPT_OK;
    case CP_OPTK_INT:
    case CP_OPTK_LONG: {
        errno = 0;
        long n = strtol(v, &end, 10);
        if (errno || end == v || *end || n < o->lo || n > o->hi)
            return fail(e, false, "%s needs an integer from %ld to %ld, got '%.300s'", shown,
                        cp_num_clamp_long(o->lo, LONG_MIN, LONG_MAX),
                        cp_num_clamp_long(o->hi, LONG_MIN, LONG_MAX), v);
        if (o->kind == CP_OPTK_INT)
            *(int *)o->target = (int)n;
        else
            *(long *)o->target = n;
        return CP_OPT_OK;
    }
    case CP_OPTK_DOUBLE: {
        errno = 0;
        double d = strtod(v, &end);
        if (errno || end == v || *end || !isfinite(d) || d < o->lo || (o->above && d == o->lo))
            return fail(e, false, "%s needs a number %s %g, got '%.300s'", shown,
                        o->above ? ">" : ">=", o->lo, v);
        *(double *)o->target = d;
        return CP_OPT_OK;
    }
    case CP_OPTK_STRING:
        *(const char **)o->target = v;
        return CP_OPT_OK;
    case CP_OPTK_LIST:
        return CP_OPT_OK; /* filled once the line is read (fill_lists) */
    case CP_OPTK_ENUM:
        for (const cp_opt_word *w = o->words; w->word; w++)
            if (!strcmp(w->word, v)) {
                *(int *)o->target = w->value;
                return CP_OPT_OK;
            }
        {
            char words[256];
            words_text(o->words, words, sizeof words);
            return fail(e, false, "%s must be %s, got '%.300s'", shown, words, v);
        }
    case CP_OPTK_CALLBACK: {
        char msg[400];
        msg[0] = 0;
        if (o->fn(o->target, v, msg, sizeof msg))
            return CP_OPT_OK;
        return fail(e, false, "%s", msg);
    }
    default:
        return CP_OPT_OK;
    }
}

static int record(cp_cli_args *a, const cp_opt *o, const char *value)
{
    a->seen[a->n_seen].opt = o;
    a->seen[a->n_seen].value = value;
    a->n_seen++;
    return CP_OPT_OK;
}

/* Takes option o with value v (NULL for a flag) from the word `shown`. */
static int take(cp_cli_args *a, const cp_opt *o, const char *shown, const char *v,
                cp_opt_error *e)
{
    if (o == &builtin_help || o == &builtin_list) {
        a->helped = true;
        a->listed = o == &builtin_list;
        return CP_OPT_OK;
    }
    if (o == &builtin_quiet) {
        a->quiet = true;
        return CP_OPT_OK;
    }
    int rc = apply(o, shown, v, e);
    return rc ? rc : record(a, o, v);
}

/* The option of the long name (up to its '=', len bytes), exact or
 * a prefix of one; NULL with e filled when none or several. */
static const cp_opt *find_long(const flat *f, const char *name, size_t len, cp_opt_error *e)
{
    const cp_opt *hit = NULL;
    int matches = 0;
    for (int i = 0; i < f->n; i++) {
        const char *l = f->v[i]->long_name;
        if (!l || strncmp(l, name, len))
            continue;
        if (!l[len])
            return f->v[i]; /* exact: --shard is not --shards */
        hit = f->v[i];
        matches++;
    }
    if (matches == 1 && len > 0)
        return hit;
    if (matches > 1 && len > 0) {
        fail(e, true, "option '--%.*s' is ambiguous (%d options start so)", (int)len, name,
             matches);
        return NULL;
    }
    /* unknown: the nearest long name, by the loader's rule */
    char word[SHOWN_MAX + 1];
    snprintf(word, sizeof word, "%.*s", (int)(len < SHOWN_MAX ? len : SHOWN_MAX), name);
    const char **names = cp_calloc((size_t)f->n + 1, sizeof *names);
    int k = 0;
    for (int i = 0; names && i < f->n; i++)
        if (f->v[i]->long_name)
            names[k++] = f->v[i]->long_name;
    const char *near = names ? cp_suggest(word, names) : NULL; /* no memory: no hint */
    if (near)
        fail(e, true, "unknown option '--%s' (did you mean '--%s'?)", word, near);
    else
        fail(e, true, "unknown option '--%s'", word);
    cp_free(names);
    return NULL;
}

static const cp_opt *find_short(const flat *f, char c)
{
    for (int i = 0; i < f->n; i++)
        if (f->v[i]->short_name == c)
            return f->v[i];
    return NULL;
}

/* The separate value of option o after argv[*i]; NULL with e filled
 * when there is none, or it is "--" (the user meant the end of the
 * options, or forgot the value: a file named "--" is ./--). */
static const char *next_value(int argc, char **argv, int *i, const char *shown, cp_opt_error *e)
{
    if (*i + 1 >= argc) {
        fail(e, true, "option '%s' needs a value", shown);
        return NULL;
    }
    const char *v = argv[++*i];
    if (!strcmp(v, "--")) {
        fail(e, true,
             "option '%.60s' needs a value, got '--' (the end of the options); a file of that "
             "name is ./--",
             shown);
        return NULL;
    }
    return v;
}

static int parse_long(cp_cli_args *a, const flat *f, int argc, char **argv, int *i,
                      cp_opt_error *e)
{
    const char *w = argv[*i] + 2, *eq = strchr(w, '=');
    size_t len = eq ? (size_t)(eq - w) : strlen(w);
    const cp_opt *o = find_long(f, w, len, e);
    if (!o)
        return CP_OPT_BAD;
    char shown[SHOWN_MAX + 3];
    if (!takes_value(o)) {
        if (eq)
            return fail(e, true, "option '--%.*s' takes no value",
                        (int)(len < SHOWN_MAX ? len : SHOWN_MAX), w);
        return take(a, o, cp_opt_name(o, shown, sizeof shown), NULL, e);
    }
    cp_opt_name(o, shown, sizeof shown);
    if (o->optional && !eq) /* the next word is not its value */
        return take(a, o, shown, o->words[0].word, e);
    const char *v = eq ? eq + 1 : next_value(argc, argv, i, shown, e);
    return v ? take(a, o, shown, v, e) : CP_OPT_BAD;
}

/* -abc: flags a and b, then c with the rest of the word or the next one
 * as its value when c takes one. */
static int parse_short(cp_cli_args *a, const flat *f, int argc, char **argv, int *i,
                       cp_opt_error *e)
{
    const char *w = argv[*i];
    for (int j = 1; w[j]; j++) {
        const cp_opt *o = find_short(f, w[j]);
        if (!o)
            return fail(e, true, "unknown option '-%c'", w[j]);
        char shown[3] = {'-', w[j], 0};
        if (!takes_value(o)) {
            int rc = take(a, o, shown, NULL, e);
            if (rc || a->helped)
                return rc;
            continue;
        }
        const char *v = w[j + 1] ? w + j + 1 : next_value(argc, argv, i, shown, e);
        return v ? take(a, o, shown, v, e) : CP_OPT_BAD;
    }
    return CP_OPT_OK;
}

/* The values of each LIST option, in the order given. */
static int fill_lists(cp_cli_args *a, const flat *f)
{
    for (int i = 0; i < f->n; i++) {
        const cp_opt *o = f->v[i];
        if (o->kind != CP_OPTK_LIST)
            continue;
        cp_opt_list *l = o->target;
        int n = 0;
        for (int k = 0; k < a->n_seen; k++)
            n += a->seen[k].opt == o;
        l->n = 0;
        l->v = cp_calloc((size_t)n + 1, sizeof *l->v);
        if (!l->v)
            return CP_OPT_NOMEM;
        for (int k = 0; k < a->n_seen; k++)
            if (a->seen[k].opt == o)
                l->v[l->n++] = a->seen[k].value;
    }
    return CP_OPT_OK;
}

int cp_opt_parse(cp_cli_args *a, const cp_opt *table, int argc, char **argv, cp_opt_error *e)
{
    memset(a, 0, sizeof *a);
    e->msg[0] = 0;
    e->see_help = false;
    a->table = table;
    flat f = {NULL, 0};
    a->operands = cp_calloc((size_t)argc + 1, sizeof *a->operands);
    a->seen = cp_calloc((size_t)argc + 1, sizeof *a->seen);
    int rc = a->operands && a->seen ? flatten(&f, table) : CP_OPT_NOMEM;
    bool rest = false; /* after "--" */
    for (int i = 1; i < argc && rc == CP_OPT_OK && !a->helped; i++) {
        const char *w = argv[i];
        if (rest || w[0] != '-' || !w[1])
            a->operands[a->n_operands++] = argv[i]; /* "-" too: standard input */
        else if (!strcmp(w, "--"))
            rest = true;
        else if (w[1] == '-')
            rc = parse_long(a, &f, argc, argv, &i, e);
        else
            rc = parse_short(a, &f, argc, argv, &i, e);
    }
    if (rc == CP_OPT_OK)
        rc = fill_lists(a, &f);
    cp_free(f.v);
    if (rc == CP_OPT_NOMEM)
        snprintf(e->msg, sizeof e->msg, "out of memory");
    return rc;
}

/* Frees the lists a table's LIST options were given. */
static void free_lists(const cp_opt *t)
{
    for (; t && t->kind != CP_OPTK_END; t++) {
        if (t->kind == CP_OPTK_INCLUDE)
            free_lists(t->sub);
        if (t->kind == CP_OPTK_LIST) {
            cp_opt_list *l = t->target;
            cp_free(l->v);
            l->v = NULL;
            l->n = 0;
        }
    }
}

void cp_cli_args_release(cp_cli_args *a)
{
    if (!a)
        return;
    free_lists(a->table);
    cp_free(a->operands);
    cp_free(a->seen);
    a->operands = NULL;
    a->seen = NULL;
    a->n_operands = a->n_seen = 0;
}

int cp_cli_args_canonical(const cp_cli_args *a, void (*put)(void *arg, const char *word),
                          void *arg)
{
    cp_buf b;
    cp_buf_init(&b);
    if (a->quiet)
        put(arg, "--quiet");
    int rc = CP_OPT_OK;
    for (int i = 0; i < a->n_seen && rc == CP_OPT_OK; i++) {
        const cp_opt *o = a->seen[i].opt;
        if (o->local)
            continue;
        cp_buf_reset(&b);
        const char *v = takes_value(o) ? a->seen[i].value : NULL;
        if (o->long_name)
            cp_buf_printf(&b, "--%s%s", o->long_name, v ? "=" : "");
        else
            cp_buf_printf(&b, "-%c", o->short_name);
        /* "-o" "" (an empty value): "-o" alone would take the next word */
        bool apart = !o->long_name && v && !v[0];
        if (v && !apart)
            cp_buf_puts(&b, v);
        if (!cp_buf_ok(&b)) {
            rc = CP_OPT_NOMEM;
            continue;
        }
        put(arg, b.s);
        if (apart)
            put(arg, v);
    }
    if (rc == CP_OPT_OK) {
        put(arg, "--");
        for (int i = 0; i < a->n_operands; i++)
            put(arg, a->operands[i]);
    }
    cp_buf_release(&b);
    return rc;
}
