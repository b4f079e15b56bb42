/*
 * The printing side of the option tables (cp_opt.h): --help, whose
 * option lines come from the table (so they cannot drift from what the
 * parser takes), --list-options, and a bad line's message in the one
 * style of every command.
 */
#include "cp_opt.h"

#include "cp_buf.h"
#include "cp_err.h"

#include <string.h>

/* Option lines: the spec ("-j N, --jobs N") from column 2, the help from
 * column 2 + width + 2, wrapped to HELP_COLUMNS columns; a spec wider than
 * NAMES_MAX puts its help on the next line. */
#define NAMES_MAX 22
#define HELP_COLUMNS 79

/* The value of o as --help shows it: its value name, or an enum's words
 * (an alias, a word whose value an earlier word has, left out). */
static void value_text(const cp_opt *o, cp_buf *b)
{
    if (o->value_name || o->kind != CP_OPTK_ENUM) {
        cp_buf_puts(b, o->value_name ? o->value_name : "VALUE");
        return;
    }
    for (int i = 0; o->words[i].word; i++) {
        bool alias = false;
        for (int k = 0; k < i; k++)
            alias |= o->words[k].value == o->words[i].value;
        if (!alias)
            cp_buf_printf(b, "%s%s", i ? "|" : "", o->words[i].word);
    }
}

static void spec_text(const cp_opt *o, cp_buf *b)
{
    bool value = o->kind != CP_OPTK_BOOL && o->kind != CP_OPTK_QUIET;
    cp_buf_reset(b);
    if (o->short_name) {
        cp_buf_printf(b, "-%c", o->short_name);
        if (value) {
            cp_buf_putc(b, ' ');
            value_text(o, b);
        }
        if (o->long_name)
            cp_buf_puts(b, ", ");
    }
    if (o->long_name) {
        cp_buf_printf(b, "--%s", o->long_name);
        if (value && o->optional) {
            cp_buf_puts(b, "[=");
            value_text(o, b);
            cp_buf_putc(b, ']');
        } else if (value) {
            cp_buf_putc(b, ' ');
            value_text(o, b);
        }
    }
}

static bool is_option(const cp_opt *o)
{
    return o->kind != CP_OPTK_TEXT && o->kind != CP_OPTK_INCLUDE && o->kind != CP_OPTK_END;
}

static size_t spec_width(const cp_opt *t, cp_buf *b)
{
    size_t w = 0;
    for (; t && t->kind != CP_OPTK_END; t++) {
        size_t k = 0;
        if (t->kind == CP_OPTK_INCLUDE) {
            k = spec_width(t->sub, b);
        } else if (is_option(t)) {
            spec_text(t, b);
            k = b->len;
        }
        if (k <= NAMES_MAX && k > w)
            w = k;
    }
    return w;
}

/* `text` from the current column `at`, wrapped at word boundaries to
 * HELP_COLUMNS with continuation lines from column `col`. */
static void put_wrapped(FILE *f, const char *text, size_t at, size_t col)
{
    const char *p = text;
    while (*p) {
        size_t word = strcspn(p, " ");
        if (at > col && at + 1 + word > HELP_COLUMNS) {
            fprintf(f, "\n%*s", (int)col, "");
            at = col;
        } else if (at > col) {
            fputc(' ', f);
            at++;
        }
        fwrite(p, 1, word, f);
        at += word;
        p += word;
        while (*p == ' ')
            p++;
    }
    fputc('\n', f);
}

static void print_table(FILE *f, const cp_opt *t, size_t width, cp_buf *b)
{
    size_t col = 2 + width + 2;
    for (; t && t->kind != CP_OPTK_END; t++) {
        if (t->kind == CP_OPTK_INCLUDE) {
            print_table(f, t->sub, width, b);
            continue;
        }
        if (t->kind == CP_OPTK_TEXT) {
            fputs(t->help, f);
            continue;
        }
        spec_text(t, b);
        fprintf(f, "  %s", b->s ? b->s : "");
        size_t at = 2 + b->len;
        if (b->len > width) {
            fprintf(f, "\n%*s", (int)col, "");
        } else {
            fprintf(f, "%*s", (int)(col - at), "");
        }
        put_wrapped(f, t->help ? t->help : "", col, col);
    }
}

void cp_cli_help_print(FILE *f, const cp_opt *table, const cp_cli_help *help)
{
    cp_buf b;
    cp_buf_init(&b);
    if (help && help->head)
        fputs(help->head, f);
    print_table(f, table, spec_width(table, &b), &b);
    if (help && help->foot)
        fputs(help->foot, f);
    cp_buf_release(&b);
}

void cp_opt_list_names(FILE *f, const cp_opt *t)
{
    for (; t && t->kind != CP_OPTK_END; t++) {
        if (t->kind == CP_OPTK_INCLUDE)
            cp_opt_list_names(f, t->sub);
        if (!is_option(t) || t->kind == CP_OPTK_QUIET)
            continue;
        if (t->short_name)
            fprintf(f, "-%c\n", t->short_name);
        if (t->long_name)
            fprintf(f, "--%s\n", t->long_name);
    }
}

/* "capplan CMD: MSG" through cp_fputs_printable: the message repeats
 * words of the line, which must not drive the terminal. */
static void say(const char *cmd, const char *msg)
{
    fprintf(stderr, "capplan %s: ", cmd);
    cp_fputs_printable(msg, false, stderr);
    fputc('\n', stderr);
}

int cp_cli_parse(cp_cli_args *a, const char *cmd, int argc, char **argv, const cp_opt *table,
                 const cp_cli_help *help)
{
    cp_opt_error e;
    int rc = cp_opt_parse(a, table, argc, argv, &e);
    a->cmd = cmd;
    a->help = help;
    if (rc == CP_OPT_OK && !a->helped)
        return CP_CLI_RUN;
    int status = rc == CP_OPT_NOMEM ? 1 : rc == CP_OPT_BAD ? 2 : 0;
    if (rc != CP_OPT_OK) {
        say(cmd, e.msg);
        if (e.see_help)
            fprintf(stderr, "capplan %s: see 'capplan %s --help'\n", cmd, cmd);
    } else if (a->listed) {
        cp_opt_list_names(stdout, table);
    } else {
        cp_cli_help_print(stdout, table, help);
    }
    cp_cli_args_release(a);
    return status;
}
