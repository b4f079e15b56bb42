/* The writers' shared rules in models/formats: the CSV field quoter, the
 * "may this scalar go plain" rule of both YAML writers, cp_out's
 * errors (which cp_yaml_emit reports too), and the number rule every
 * writer prints with (cp_num_fig, models/base/cp_buf.h). */
#include "test.h"

#include "cp_csv.h"
#include "cp_out.h"
#include "cp_yaml.h"
#include "cp_yaml_put.h"

#include <float.h>
#include <stdlib.h>

static void check_field(const char *in, const char *want)
{
    cp_buf b;
    cp_buf_init(&b);
    cp_csv_put_field(&b, in);
    CHECK_STR(b.s, want);
    cp_buf_release(&b);
}

TEST(csv_put_field)
{
    check_field("plain", "plain");
    check_field("", "");
    check_field(NULL, "");
    check_field("a,b", "\"a,b\"");
    check_field("say \"hi\"", "\"say \"\"hi\"\"\"");
    check_field("two\nlines", "\"two\nlines\"");
    check_field("cr\r", "\"cr\r\"");
    check_field("semi;colon 'q'", "semi;colon 'q'");
    /* what it writes reads back as the field */
    cp_buf b;
    cp_buf_init(&b);
    cp_buf_puts(&b, "h\n");
    cp_csv_put_field(&b, "x, \"y\"\nz");
    cp_buf_putc(&b, '\n');
    cp_csv *c = NULL;
    CHECK_INT(cp_csv_read_string("t.csv", b.s, b.len, ',', &c, NULL), CP_OK);
    if (c && c->n_rows == 1)
        CHECK_STR(c->rows[0].f[0], "x, \"y\"\nz");
    cp_csv_free(c);
    cp_buf_release(&b);
}

TEST(yaml_plain_is_string)
{
    CHECK(cp_yaml_plain_is_string("A100"));
    CHECK(cp_yaml_plain_is_string("a: b")); /* syntax is not its business */
    CHECK(!cp_yaml_plain_is_string(""));
    CHECK(!cp_yaml_plain_is_string("~"));
    CHECK(!cp_yaml_plain_is_string("null"));
    CHECK(!cp_yaml_plain_is_string("True"));
    CHECK(!cp_yaml_plain_is_string("0x1F"));
    CHECK(!cp_yaml_plain_is_string("-.inf"));
    CHECK(!cp_yaml_plain_is_string(".NaN"));
    CHECK(!cp_yaml_plain_is_string("1e-3"));
    CHECK(!cp_yaml_plain_is_string("off"));   /* YAML 1.1 boolean */
    CHECK(!cp_yaml_plain_is_string("8xV100")); /* starts like a number */
    /* cp_yaml_plain_ok is this rule plus syntax */
    CHECK(!cp_yaml_plain_ok("a: b"));
    CHECK(cp_yaml_plain_ok("A100"));
}

/* Both YAML writers decide plain vs quoted by the same rule. */
TEST(yaml_writers_agree_on_quoting)
{
    static const char *const words[] = {"A100", "yes", "8xV100", "1.5", "null", "x y", NULL};
    for (int i = 0; words[i]; i++) {
        cp_buf a, b;
        cp_buf_init(&a);
        cp_buf_init(&b);
        cp_out *o = cp_out_new(CP_OUT_YAML, &a);
        cp_out_seq(o, false);
        cp_out_str(o, words[i]);
        cp_out_end(o);
        CHECK_INT(cp_out_finish(o, NULL), CP_OK);
        cp_yaml_put_str(&b, words[i]);
        bool out_quoted = strchr(a.s, '"') || strchr(a.s, '\'');
        bool put_quoted = b.s[0] == '"';
        if (out_quoted != put_quoted)
            fprintf(stderr, "'%s': cp_out wrote %s, cp_yaml_put_str %s\n", words[i], a.s, b.s);
        CHECK(out_quoted == put_quoted);
        cp_buf_release(&a);
        cp_buf_release(&b);
    }
}

TEST(out_finish_errors)
{
    cp_err e;
    cp_err_init(&e);
    CHECK_INT(cp_out_finish(NULL, &e), CP_ERR_NOMEM);
    CHECK_STR(e.msg, "out of memory");
    /* nesting past the writer's stack fails cleanly, in both syntaxes */
    for (int syn = 0; syn < 2; syn++) {
        cp_buf b;
        cp_buf_init(&b);
        cp_out *o = cp_out_new(syn ? CP_OUT_JSON : CP_OUT_YAML, &b);
        for (int i = 0; i < 10 * CP_YAML_MAX_DEPTH; i++)
            cp_out_seq(o, false);
        CHECK_INT(cp_out_finish(o, &e), CP_ERR_INTERNAL);
        CHECK_STR(e.msg, syn ? "cannot write JSON" : "cannot write YAML");
        cp_buf_release(&b);
    }
}

/* cp_yaml_emit (through cp_out_scalar): quoted scalars double-quoted,
 * plain ones plain, keys included; the text reads back to the tree. */
TEST(yaml_emit_styles)
{
    const char *src = "\"yes\": [1, \"2\", .inf, a b]\nk: {\"x: y\": ''}\n";
    cp_diags d;
    cp_diags_init(&d);
    cp_node *t = NULL;
    CHECK_INT(cp_yaml_load_string("t.yaml", src, strlen(src), &t, &d), CP_OK);
    if (!t)
        return;
    cp_buf b;
    cp_buf_init(&b);
    cp_err e;
    cp_err_init(&e);
    CHECK_INT(cp_yaml_emit(t, &b, &e), CP_OK);
    CHECK_STR(b.s, "\"yes\": [1, \"2\", .inf, a b]\nk:\n  \"x: y\": \"\"\n");
    cp_buf_release(&b);
    cp_node_free(t);
}

/* Field positions (cp_csv_field_pos): the 1-based byte column where each
 * field starts as written, its opening quote for a quoted one, blanks
 * before it skipped (an empty field starts right after the delimiter
 * before it), on its own line when a field before it spans lines;
 * a byte order mark counts on line 1. */
TEST(csv_field_positions)
{
    static const char text[] = "\xef\xbb\xbf" "a,b,c\n"
                               "\n"
                               "\"x,1\",  22,\"q\"\"q\"\n"
                               "\"two\nlines\",7,  \n"
                               "   5,,9\r\n"
                               "\xc3\xa9t\xc3\xa9,z,w\n";
    cp_err err;
    cp_err_init(&err);
    cp_csv *csv = NULL;
    CHECK_INT(cp_csv_read_string("t.csv", text, sizeof text - 1, ',', &csv, &err), CP_OK);
    if (!csv)
        return;
    CHECK_INT(csv->n_rows, 4);
    cp_pos p = cp_csv_field_pos(csv, &csv->head, 1);
    CHECK_INT(p.line, 1);
    CHECK_INT(p.col, 6); /* after the 3 bytes of the BOM and "a," */
    const int want[4][3][2] = {{{3, 1}, {3, 9}, {3, 12}},
                               {{4, 1}, {5, 8}, {5, 10}},
                               {{6, 4}, {6, 6}, {6, 7}},
                               {{7, 1}, {7, 7}, {7, 9}}}; /* bytes: é is two */
    for (int r = 0; r < 4 && r < csv->n_rows; r++)
        for (int f = 0; f < 3; f++) {
            p = cp_csv_field_pos(csv, &csv->rows[r], f);
            CHECK_INT(p.line, want[r][f][0]);
            CHECK_INT(p.col, want[r][f][1]);
        }
    /* a field the row does not have: the row's line alone */
    p = cp_csv_field_pos(csv, &csv->rows[0], 7);
    CHECK_INT(p.line, 3);
    CHECK_INT(p.col, 0);
    cp_csv_free(csv);
    /* tab-separated */
    CHECK_INT(cp_csv_read_string("t.tsv", "a\tb\n1\t 2\n", 9, 0, &csv, &err), CP_OK);
    if (csv) {
        p = cp_csv_field_pos(csv, &csv->rows[0], 1);
        CHECK_INT(p.line, 2);
        CHECK_INT(p.col, 4);
        cp_csv_free(csv);
    }
}

static void check_num(double v, const char *want, const char *want_exact)
{
    char out[40];
    cp_fmt_num(out, sizeof out, v);
    CHECK_STR(out, want);
    CHECK(!isfinite(v) || strtod(out, NULL) == cp_num_fig(v)); /* reads back to the figure */
    cp_fmt_num_exact(out, sizeof out, v);
    CHECK_STR(out, want_exact);
    CHECK(!isfinite(v) || strtod(out, NULL) == v);
    /* the figure of a figure is itself, and prints the same */
    CHECK(isnan(v) || cp_num_fig(cp_num_fig(v)) == cp_num_fig(v));
    cp_fmt_num(out, sizeof out, cp_num_fig(v));
    CHECK_STR(out, want);
}

/* A sum's noise in the last bits goes, every decimal of up to 15
 * significant digits prints as it was written, and the exact form still
 * gives the same double back. */
TEST(num_figures)
{
    check_num(0.1 + 0.2, "0.3", "0.30000000000000004");
    check_num(0.18974999999999997, "0.18975", "0.18974999999999997");
    check_num(0.8 * 3, "2.4", "2.4000000000000004");
    check_num(1258.1899999999998, "1258.19", "1258.1899999999998");
    check_num(19899.999999999993, "19900", "19899.999999999993");
    check_num(0.1, "0.1", "0.1");
    check_num(1.1385, "1.1385", "1.1385");
    check_num(123456789.012345, "123456789.012345", "123456789.012345");
    check_num(1e-300 / 3, "3.33333333333333e-301", "3.3333333333333334e-301");
    check_num(-2.5, "-2.5", "-2.5");
    check_num(-0.0, "0", "0");
    check_num(42, "42", "42");
    check_num(1e15, "1e+15", "1e+15");
    check_num(DBL_MAX, "1.7976931348623157e+308", "1.7976931348623157e+308");
    check_num(INFINITY, ".inf", ".inf");
    check_num(NAN, ".nan", ".nan");
    /* every value of a one-decimal grid prints as its decimal */
    for (int i = -1000; i <= 1000; i++) {
        char out[40], want[40];
        cp_fmt_num(out, sizeof out, i * 0.1);
        snprintf(want, sizeof want, "%.15g", i / 10.0);
        CHECK_STR(out, want);
    }
}
