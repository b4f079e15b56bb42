/* Fits, CSV positions, YAML quoting and the atomic writer. */
#include "test.h"

#include "cp_alloc.h"
#include "cp_atomic.h"
#include "cp_csv.h"
#include "cp_fit.h"
#include "cp_yaml_put.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

TEST(csv_lines_quotes_and_header)
{
    const char *t = "#a, b ,c\n1,2,3\n\n\"x\ny\",5,6\n7,8,9,10\n";
    cp_csv *c = NULL;
    CHECK_INT(cp_csv_read_string("t.csv", t, strlen(t), 0, &c, NULL), 0);
    if (!c)
        return;
    CHECK_INT(c->head.n, 3);
    CHECK_STR(c->head.f[0], "a");
    CHECK_INT(cp_csv_col(c, "B"), 1);
    CHECK_INT(c->n_rows, 3);
    CHECK_INT(c->rows[0].line, 2);
    CHECK_INT(c->rows[1].line, 4); /* blank line 3 skipped; field spans 4-5 */
    CHECK_STR(c->rows[1].f[0], "x\ny");
    CHECK_INT(c->rows[2].line, 6);
    CHECK_INT(c->rows[2].n, 4); /* kept as read; callers decide */
    CHECK_STR(cp_csv_get(&c->rows[0], 7), "");
    cp_csv_free(c);
    cp_csv_free(NULL);
}

TEST(csv_tab_and_unterminated_quote)
{
    const char *t = "a\tb\n1\t2\n";
    cp_csv *c = NULL;
    CHECK_INT(cp_csv_read_string("t.tsv", t, strlen(t), 0, &c, NULL), 0);
    if (c)
        CHECK_STR(c->rows[0].f[1], "2");
    cp_csv_free(c);
    cp_err e;
    cp_err_init(&e);
    const char *u = "a,b\n1,\"2\n";
    c = NULL;
    CHECK_INT(cp_csv_read_string("u.csv", u, strlen(u), ',', &c, &e), CP_ERR_INPUT);
    CHECK(c == NULL);
    CHECK_INT(e.line, 2);
}

TEST(csv_number)
{
    double v;
    CHECK(cp_csv_number(" 1.5e3 ", &v) && v == 1500);
    CHECK(!cp_csv_number("", &v));
    CHECK(!cp_csv_number("0x10", &v));
    CHECK(!cp_csv_number("nan", &v));
    CHECK(!cp_csv_number("1e999", &v));
    CHECK(!cp_csv_number("12abc", &v));
}

TEST(ernest_fit_from_csv_reproduces_published_theta)
{
    cp_csv *c = NULL;
    CHECK_INT(cp_csv_read("tests/fit/ernest-samples.csv", 0, &c, NULL), 0);
    if (!c)
        return;
    cp_df_sample *s = NULL;
    int n = 0;
    cp_diags d;
    cp_diags_init(&d);
    CHECK_INT(cp_df_samples_read(c, &s, &n, &d), 0);
    CHECK_INT(n, 7);
    cp_fit_opts o;
    cp_fit_opts_init(&o);
    o.holdout = true;
    cp_df_report *r = NULL;
    CHECK_INT(cp_df_fit_all(s, n, &o, &r, &d, NULL), 0);
    if (r) {
        const cp_ernest *e = &r->fits[0].e;
        CHECK_INT(r->n_fits, 1);
        CHECK_NEAR(e->theta[0], 1.90013, 5e-6);
        CHECK_NEAR(e->theta[1], 162.198, 5e-6);
        CHECK_NEAR(e->theta[2], 1.58832, 5e-6);
        CHECK(e->theta[3] == 0);
        CHECK_INT(e->scaleouts, 4);
        CHECK(e->r2 > 0.99 && e->r2 <= 1);
        CHECK(e->loo_mape > e->mape); /* out of sample is harder */
        CHECK_NEAR(cp_ernest_predict(e->theta, 4, 1.0), 44.6515640166, 1e-11);
        CHECK_INT(d.n, 0); /* 4 scale-outs: no warning */
    }
    cp_df_report_free(r);
    cp_free(s);
    cp_csv_free(c);
}

TEST(ernest_exact_model_has_zero_cv_error)
{
    double m[12], g[12], t[12];
    const double th[4] = {10, 50, 3, 0.5};
    for (int i = 0; i < 12; i++) {
        m[i] = 2 + 2 * (i % 6);
        g[i] = i < 6 ? 4 : 8;
        t[i] = cp_ernest_predict(th, m[i], g[i]);
    }
    cp_ernest e;
    CHECK_INT(cp_ernest_fit(m, g, t, 12, true, true, &e, NULL), 0);
    for (int j = 0; j < 4; j++)
        CHECK_NEAR(e.theta[j], th[j], 1e-9);
    CHECK(e.loo_mape < 1e-9);
    CHECK(e.holdout_mape < 1e-9);
    CHECK_INT(e.sizes, 2);
}

TEST(ernest_warns_below_four_scaleouts)
{
    cp_df_sample s[3] = {{"j", "t", 2, 1, 10, {"f", 2, 0}, {0}},
                         {"j", "t", 4, 1, 6, {"f", 3, 0}, {0}},
                         {"j", "t", 8, 1, 4, {"f", 4, 0}, {0}}};
    cp_fit_opts o;
    cp_fit_opts_init(&o);
    cp_df_report *r = NULL;
    cp_diags w;
    cp_diags_init(&w);
    CHECK_INT(cp_df_fit_all(s, 3, &o, &r, &w, NULL), 0);
    CHECK_INT(w.n, 1);
    CHECK_INT(w.items[0].line, 2);
    CHECK(w.worst == CP_OK);
    cp_df_report_free(r);
}

TEST(training_amdahl_recovers_serial_fraction_and_missing_count_one)
{
    /* Type A: T=10 at 1,2,4,8; type B: T=20 at 2,4 only; s = 0.1. */
    cp_tr_sample s[6];
    int ks[6] = {1, 2, 4, 8, 2, 4};
    for (int i = 0; i < 6; i++) {
        double t = i < 4 ? 10 : 20, sf = 0.1;
        s[i].job = "j";
        s[i].acc = i < 4 ? "A" : "B";
        s[i].count = ks[i];
        s[i].throughput = t / (sf + (1 - sf) / ks[i]);
        s[i].pos = (cp_pos){"f", i + 2, 0};
    }
    cp_fit_opts o;
    cp_fit_opts_init(&o);
    o.amdahl = true;
    cp_tr_report *r = NULL;
    cp_diags w;
    cp_diags_init(&w);
    CHECK_INT(cp_tr_fit_all(s, 6, &o, &r, &w, NULL), 0);
    if (!r)
        return;
    const cp_tr_fit *f = &r->fits[0];
    CHECK_NEAR(f->serial_fraction, 0.1, 1e-9);
    CHECK_INT(f->n_types, 2);
    CHECK_NEAR(f->types[0].thr1, 10, 1e-12);
    CHECK(!f->types[0].thr1_fitted);
    CHECK_NEAR(f->types[1].thr1, 20, 1e-8);
    CHECK(f->types[1].thr1_fitted);
    CHECK(f->mape < 1e-7);
    CHECK_INT(w.n, 1); /* B: count 1 fitted */
    cp_tr_report_free(r);

    /* Table: exact data, so the table equals Amdahl at the counts. */
    o.amdahl = false;
    cp_diags_init(&w);
    CHECK_INT(cp_tr_fit_all(s, 6, &o, &r, &w, NULL), 0);
    if (!r)
        return;
    f = &r->fits[0];
    CHECK_INT(f->n_counts, 4);
    for (int c = 0; c < f->n_counts; c++)
        CHECK_NEAR(f->speedup[c], 1 / (0.1 + 0.9 / f->counts[c]), 1e-8);
    CHECK(isnan(cp_tr_speedup(f, 3)));
    cp_tr_report_free(r);
}

TEST(training_tables_per_type_by_hand)
{
    /* A: 10, 18, 30 samples/s at 1, 2, 4; B: 5, 10 at 1, 2 (not at 4).
     * By hand: S_A = {1, 1.8, 3}, S_B = {1, 2, 3 (A's, the only type at
     * 4)}; the mean table {1, 1.9, 3}. */
    cp_tr_sample s[5];
    const char *acc[5] = {"A", "A", "A", "B", "B"};
    int ks[5] = {1, 2, 4, 1, 2};
    double thr[5] = {10, 18, 30, 5, 10};
    for (int i = 0; i < 5; i++)
        s[i] = (cp_tr_sample){"j", acc[i], ks[i], thr[i], {"f", i + 2, 0}};
    cp_fit_opts o;
    cp_fit_opts_init(&o);
    cp_tr_report *r = NULL;
    cp_diags w;
    cp_diags_init(&w);
    CHECK_INT(cp_tr_fit_all(s, 5, &o, &r, &w, NULL), 0);
    if (!r)
        return;
    const cp_tr_fit *f = &r->fits[0];
    bool filled = false;
    CHECK(!f->shared && !f->amdahl);
    CHECK_NEAR(cp_tr_type_speedup(f, 0, 2, &filled), 1.8, 1e-15);
    CHECK(!filled);
    CHECK_NEAR(cp_tr_type_speedup(f, 0, 4, &filled), 3, 1e-15);
    CHECK_NEAR(cp_tr_type_speedup(f, 1, 2, &filled), 2, 1e-15);
    CHECK(!filled);
    CHECK_NEAR(cp_tr_type_speedup(f, 1, 4, &filled), 3, 1e-15);
    CHECK(filled);
    CHECK(isnan(cp_tr_type_speedup(f, 1, 8, &filled)));
    CHECK_NEAR(cp_tr_speedup(f, 2), 1.9, 1e-15);
    CHECK(f->mape == 0); /* each type's table is its measurements */
    CHECK_INT(w.n, 1);   /* B takes the mean at 4; no spread warning */
    cp_tr_report_free(r);

    /* shared: the mean table, 5 % off each type at 2, and the spread of
     * 11 % (1.8 to 2) warned of */
    o.shared = true;
    cp_diags_init(&w);
    CHECK_INT(cp_tr_fit_all(s, 5, &o, &r, &w, NULL), 0);
    if (!r)
        return;
    f = &r->fits[0];
    CHECK(f->shared);
    CHECK_NEAR(f->points[1].predicted, 19, 1e-12);
    CHECK_NEAR(f->points[4].predicted, 9.5, 1e-12);
    CHECK_NEAR(f->mape, (100.0 / 18 + 5) / 5, 1e-9);
    CHECK_INT(w.n, 1);
    cp_tr_report_free(r);
}

TEST(yaml_plain_or_quoted)
{
    CHECK(cp_yaml_plain_ok("gcp:us-central1-a:a2-highgpu-1g"));
    CHECK(cp_yaml_plain_ok("ResNet-50 (batch size 64)"));
    CHECK(!cp_yaml_plain_ok("1e5"));
    CHECK(!cp_yaml_plain_ok(".inf"));
    CHECK(!cp_yaml_plain_ok("true"));
    CHECK(!cp_yaml_plain_ok("no"));
    CHECK(!cp_yaml_plain_ok("a: b"));
    CHECK(!cp_yaml_plain_ok("x, y"));
    CHECK(!cp_yaml_plain_ok("-x"));
    CHECK(!cp_yaml_plain_ok(""));
    cp_buf b;
    cp_buf_init(&b);
    cp_yaml_put_str(&b, "a\"b\\c\n");
    CHECK_STR(b.s, "\"a\\\"b\\\\c\\n\"");
    cp_buf_reset(&b);
    cp_yaml_put_num(&b, 340);
    cp_buf_putc(&b, ' ');
    cp_yaml_put_num(&b, 0.1);
    CHECK_STR(b.s, "340 0.1");
    cp_buf_release(&b);
}

TEST(atomic_write_replaces_and_cleans_up)
{
    char dir[] = "/tmp/cp_atomic_XXXXXX";
    if (!mkdtemp(dir)) {
        CHECK(0);
        return;
    }
    char path[64], buf[16] = {0};
    snprintf(path, sizeof path, "%s/out.txt", dir);
    CHECK_INT(cp_write_file_atomic(path, "old", 3, NULL), 0);
    CHECK_INT(cp_write_file_atomic(path, "new!", 4, NULL), 0);
    FILE *f = fopen(path, "r");
    if (f) {
        CHECK_INT(fread(buf, 1, sizeof buf - 1, f), 4);
        fclose(f);
    }
    CHECK_STR(buf, "new!");
    cp_err e;
    cp_err_init(&e);
    char bad[80];
    snprintf(bad, sizeof bad, "%s/missing/x", dir);
    CHECK_INT(cp_write_file_atomic(bad, "x", 1, &e), CP_ERR_IO);
    unlink(path);
    CHECK_INT(rmdir(dir), 0); /* empty: no temporary file left */
}

TEST(atomic_write_leaves_devices_alone)
{
    struct stat st;
    CHECK_INT(cp_write_file_atomic("/dev/null", "x", 1, NULL), 0);
    CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
}
