/* The diagnostics list (models/base/cp_err.h): errors and warnings in one
 * list, a warning never failing it, each severity capped on its own, and
 * the one printer's gcc-style lines. */
#include "test.h"

#include "cp_err.h"

#include <stdlib.h>

/* What cp_diags_print writes, in a static buffer. */
static const char *printed(const cp_diags *d)
{
    static char text[16384];
    FILE *f = tmpfile();
    size_t n = 0;
    if (f) {
        cp_diags_print(d, f);
        rewind(f);
        n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
    }
    text[n] = '\0';
    return text;
}

/* A list too large for a comfortable stack frame. */
static cp_diags *diags_new(void)
{
    cp_diags *d = malloc(sizeof *d);
    if (d)
        cp_diags_init(d);
    return d;
}

static cp_pos at(const char *file, int line, int col)
{
    cp_pos p = {file, line, col};
    return p;
}

TEST(diags_warning_never_fails_the_list)
{
    cp_diags d;
    cp_diags_init(&d);
    cp_diags_warn(&d, at("a.csv", 2, 0), "row %d skipped", 2);
    CHECK_INT(d.n, 1);
    CHECK_INT(d.n_warnings, 1);
    CHECK_INT(d.worst, CP_OK);
    CHECK_INT(d.items[0].code, CP_OK);
    CHECK_INT(d.items[0].severity, CP_SEV_WARNING);
    CHECK_INT(cp_diags_add(&d, CP_ERR_INPUT, at("a.csv", 3, 4), "bad"), CP_ERR_INPUT);
    cp_diags_warn(&d, at("a.csv", 5, 0), "later");
    CHECK_INT(d.worst, CP_ERR_INPUT);
    CHECK_INT(d.items[1].severity, CP_SEV_ERROR);
    /* the first error decides, whatever follows */
    cp_diags_add(&d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    CHECK_INT(d.worst, CP_ERR_INPUT);
    CHECK_INT(d.n, 4);
    CHECK_INT(d.n_warnings, 2);
}

TEST(diags_add_err_keeps_the_severity)
{
    cp_diags src, d;
    cp_diags_init(&src);
    cp_diags_init(&d);
    cp_diags_warn(&src, at("w.yaml", 1, 1), "just a warning");
    cp_diags_add_err(&d, &src.items[0]);
    CHECK_INT(d.worst, CP_OK);
    CHECK_INT(d.n_warnings, 1);
    cp_err e;
    cp_err_init(&e);
    CHECK_INT(e.severity, CP_SEV_ERROR); /* a zeroed cp_err is an error */
    cp_err_set(&e, CP_ERR_IO, cp_pos_none(), "cannot read");
    cp_diags_add_err(&d, &e);
    CHECK_INT(d.worst, CP_ERR_IO);
    CHECK_INT(d.n_warnings, 1);
    CHECK_INT(d.n, 2);
}

TEST(diags_severities_are_capped_apart)
{
    cp_diags *d = diags_new();
    CHECK(d != NULL);
    if (!d)
        return;
    for (int i = 0; i < CP_DIAGS_MAX + 7; i++)
        cp_diags_warn(d, at("f", i + 1, 0), "w%d", i);
    CHECK_INT(d->n_warnings, CP_DIAGS_MAX);
    CHECK_INT(d->warnings_dropped, 7);
    CHECK(!cp_diags_full(d)); /* warnings leave room for errors */
    for (int i = 0; i < CP_DIAGS_MAX + 3; i++)
        cp_diags_add(d, CP_ERR_INPUT, at("f", i + 1, 1), "e%d", i);
    CHECK(cp_diags_full(d));
    CHECK_INT(d->n, 2 * CP_DIAGS_MAX);
    CHECK_INT(d->dropped, 3);
    CHECK_INT(d->worst, CP_ERR_INPUT);
    CHECK_INT(d->items[CP_DIAGS_MAX].severity, CP_SEV_ERROR);
    CHECK_STR(d->items[CP_DIAGS_MAX].msg, "e0");
    /* past the caps: counted, in the last lines */
    const char *t = printed(d);
    const char *tail = "f:50:1: error: e49\n"
                       "capplan: 3 more errors not shown\n"
                       "capplan: 7 more warnings not shown\n";
    size_t nt = strlen(t), nl = strlen(tail);
    CHECK(nt >= nl && strcmp(t + nt - nl, tail) == 0);
    free(d);
}

TEST(diags_print_gcc_style_leaves_unknown_parts_out)
{
    cp_diags d;
    cp_diags_init(&d);
    cp_diags_add(&d, CP_ERR_INPUT, at("in.yaml", 3, 7), "job 'a': bad");
    cp_diags_warn(&d, at("in.csv", 4, 0), "'x': skipped");
    cp_diags_warn(&d, at("in.csv", 0, 0), "no offers matched");
    cp_diags_add(&d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    cp_diags_warn(&d, cp_pos_none(), "no file");
    cp_diags_add(&d, CP_ERR_INPUT, at("in.yaml", 0, 5), "no line, so no column");
    /* printed in file order: files as first named, a file's messages
     * without a line after its positioned ones */
    CHECK_STR(printed(&d), "in.yaml:3:7: error: job 'a': bad\n"
                           "in.yaml: error: no line, so no column\n"
                           "in.csv:4: warning: 'x': skipped\n"
                           "in.csv: warning: no offers matched\n"
                           "error: out of memory\n"
                           "warning: no file\n");
}

TEST(diags_print_one_more_in_the_singular)
{
    cp_diags *d = diags_new();
    CHECK(d != NULL);
    if (!d)
        return;
    for (int i = 0; i <= CP_DIAGS_MAX; i++) {
        cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(), "e");
        cp_diags_warn(d, cp_pos_none(), "w");
    }
    const char *t = printed(d);
    CHECK(strstr(t, "capplan: 1 more error not shown\ncapplan: 1 more warning not shown\n"));
    free(d);
}

TEST(diags_empty_prints_nothing)
{
    cp_diags d;
    cp_diags_init(&d);
    CHECK_STR(printed(&d), "");
    CHECK(!cp_diags_full(&d));
    CHECK_INT(d.worst, CP_OK);
}
