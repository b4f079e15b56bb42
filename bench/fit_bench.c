/*
 * bench-fit: on every (job, machine type) of the five C3O files, plain
 * Ernest against the parameter-dependent model of `fit dataflow --params
 * all` (models/fit/cp_fit_param.h): in-sample R² and MAPE, leave-one-
 * configuration-out MAPE (each configuration's repeated runs held out
 * together; also the median and worst configuration), the largest input
 * size held out, the chosen terms, and the time. Prints the Markdown
 * tables of docs/models.md and, per job, the median and worst
 * leave-one-configuration-out MAPE over its machine types against the
 * target (5 % median, 10 % worst).
 *
 * usage: fit_bench [C3O_DIR]   (default examples/data/c3o)
 * Data: Will, Bader, Thamsen, BigData 2020 (dos-group/c3o-experiments).
 */
#include "cp_csv.h"
#include "cp_fit_param.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static const char *const common[] = {"instance_count", "machine_type", "slots", "memory",
                                     "data_size_MB", "gross_runtime", NULL};

static int is_common(const char *h)
{
    for (int i = 0; common[i]; i++)
        if (!strcmp(common[i], h))
            return 1;
    return 0;
}

static void pct(char *out, size_t n, double v)
{
    if (isnan(v))
        snprintf(out, n, "n/a");
    else
        snprintf(out, n, "%.1f", v);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One job's runs per machine type, in file order (at most 8 types). */
typedef struct job_runs {
    int nt;              /* types */
    const char *type[8]; /* borrowed from the CSV */
    int cnt[8];          /* runs of each type */
    double *m[8], *gb[8], *t[8], *P[8]; /* machines, GB, seconds, parameters */
    int np;                             /* parameters a run */
    const char *pn[CP_PM_MAX_PARAMS];   /* their names */
} job_runs;

/* The runs of C3O file c by machine type; a row that does not read is
 * skipped. */
static void read_runs(const cp_csv *c, job_runs *g)
{
    int cm = cp_csv_col(c, "instance_count"), ct = cp_csv_col(c, "machine_type");
    int cs = cp_csv_col(c, "data_size_MB"), cr = cp_csv_col(c, "gross_runtime");
    int pc[CP_PM_MAX_PARAMS], np = 0;
    for (int h = 0; h < c->head.n && np < CP_PM_MAX_PARAMS; h++)
        if (!is_common(c->head.f[h])) {
            pc[np] = h;
            g->pn[np++] = c->head.f[h];
        }
    g->np = np;
    int n = c->n_rows, nt = 0;
    char *done = calloc((size_t)n, 1);
    for (int i = 0; i < n; i++) {
        if (done[i] || nt == 8)
            continue;
        const char *type = cp_csv_get(&c->rows[i], ct);
        int k = 0;
        g->m[nt] = malloc(sizeof(double) * n);
        g->gb[nt] = malloc(sizeof(double) * n);
        g->t[nt] = malloc(sizeof(double) * n);
        g->P[nt] = malloc(sizeof(double) * n * (np ? np : 1));
        for (int q = i; q < n; q++) {
            const cp_csv_row *r = &c->rows[q];
            if (strcmp(cp_csv_get(r, ct), type))
                continue;
            done[q] = 1;
            int okp = 1;
            for (int p = 0; p < np; p++)
                okp &= cp_csv_number(cp_csv_get(r, pc[p]), &g->P[nt][k * np + p]);
            if (!okp || !cp_csv_number(cp_csv_get(r, cm), &g->m[nt][k]) ||
                !cp_csv_number(cp_csv_get(r, cs), &g->gb[nt][k]) ||
                !cp_csv_number(cp_csv_get(r, cr), &g->t[nt][k]))
                continue;
            g->gb[nt][k] /= 1000; /* MB -> GB, as `import c3o` */
            k++;
        }
        g->type[nt] = type;
        g->cnt[nt++] = k;
    }
    g->nt = nt;
    free(done);
}

static void free_runs(job_runs *g)
{
    for (int q = 0; q < g->nt; q++) {
        free(g->m[q]);
        free(g->gb[q]);
        free(g->t[q]);
        free(g->P[q]);
    }
}

/* Fits every type as fit dataflow --params does: the type with the most
 * runs first, on its own, then the others with it as their donor. Each
 * fit's seconds into secs; the donor's index, or -1 with err set. */
static int fit_types(const job_runs *g, cp_pm_fit fits[8], double secs[8], cp_err *err)
{
    int big = 0;
    for (int q = 1; q < g->nt; q++)
        if (g->cnt[q] > g->cnt[big])
            big = q;
    for (int pass = 0; pass < 2; pass++)
        for (int q = 0; q < g->nt; q++) {
            if ((q == big) != (pass == 0))
                continue;
            cp_pm_opts o;
            cp_pm_opts_init(&o);
            o.donor = q == big ? NULL : &fits[big];
            double t0 = now();
            if (cp_pm_fit_group(g->m[q], g->gb[q], g->t[q], g->P[q], g->cnt[q], g->np, &o,
                                &fits[q], err) != CP_OK)
                return -1;
            secs[q] = now() - t0;
        }
    return big;
}

/* Type q's row of the first table, and its terms' line into `terms`. */
static void print_fit(const char *job, const job_runs *g, int q, const cp_pm_fit *f, double dt,
                      const char *donor, FILE *terms)
{
    char a[32], b[32], e1[32], e2[32], p50[32], mx[32];
    pct(a, sizeof a, f->model.loco_mape);
    pct(p50, sizeof p50, f->model.loco_p50);
    pct(mx, sizeof mx, f->model.loco_max);
    pct(b, sizeof b, f->model.largest_mape);
    pct(e1, sizeof e1, f->ernest.loco_mape);
    pct(e2, sizeof e2, f->ernest.largest_mape);
    printf("| %s | %s | %d | %d | %d | %d | %s | %.3f | %.1f | %s (%s / %s) | %s | %.3f | "
           "%.1f | %s | %s | %.0f |\n",
           job, g->type[q], g->cnt[q], f->configs, f->sizes, f->n_terms,
           f->nested ? "per fold" : "once", f->model.r2, f->model.mape, a, p50, mx, b,
           f->ernest.r2, f->ernest.mape, e1, e2, dt * 1e3);
    fprintf(terms, "%s on %s:", job, g->type[q]);
    for (int z = 0; z < f->n_terms; z++) {
        char nm[400];
        cp_pm_term_name(f, &f->terms[z], g->pn, donor, nm, sizeof nm);
        fprintf(terms, " %s%.4g·%s", z ? "+ " : "", f->coef[z], nm);
    }
    fputc('\n', terms);
}

/* The job's row of the second table: the median and worst LOCO MAPE over
 * its types against the target (5 % median, 10 % worst), and Ernest's. */
static void summary_row(char *out, size_t size, const char *job, int nt, double *loco,
                        double *eloco)
{
    double wm = 0, we = 0;
    for (int q = 0; q < nt; q++) {
        wm = fmax(wm, loco[q]);
        we = fmax(we, eloco[q]);
    }
    double mm = median(loco, nt), me = median(eloco, nt);
    snprintf(out, size, "| %s | %d | %.1f | %.1f | %s | %.1f | %.1f |", job, nt, mm, wm,
             mm <= 5 && wm <= 10 ? "met"
             : mm <= 5           ? "worst missed"
             : wm <= 10          ? "median missed"
                                 : "both missed",
             me, we);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "examples/data/c3o";
    static const char *const jobs[] = {"grep", "kmeans", "pagerank", "sgd", "sort"};
    double total = 0;
    int n_fits = 0, runs = 0;
    char summary[5][400];
    printf("| job | machine type | runs | configs | sizes | terms | search | R² | MAPE %% | LOCO MAPE %% "
           "(median / worst config) | largest-size MAPE %% | Ernest R² | Ernest MAPE %% | Ernest "
           "LOCO MAPE %% | Ernest largest-size MAPE %% | ms |\n"
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    FILE *terms = tmpfile();
    for (int j = 0; j < 5; j++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s.tsv", dir, jobs[j]);
        cp_csv *c = NULL;
        cp_err err;
        cp_err_init(&err);
        if (cp_csv_read(path, '\t', &c, &err) != CP_OK) {
            cp_err_print(&err, stderr);
            return 2;
        }
        job_runs g;
        read_runs(c, &g);
        cp_pm_fit fits[8];
        double secs[8], loco[8], eloco[8];
        int big = fit_types(&g, fits, secs, &err);
        if (big < 0) {
            cp_err_print(&err, stderr);
            return 1;
        }
        for (int q = 0; q < g.nt; q++) {
            total += secs[q];
            n_fits++;
            runs += g.cnt[q];
            print_fit(jobs[j], &g, q, &fits[q], secs[q], g.type[big], terms);
            loco[q] = fits[q].model.loco_mape;
            eloco[q] = fits[q].ernest.loco_mape;
        }
        free_runs(&g);
        summary_row(summary[j], sizeof summary[j], jobs[j], g.nt, loco, eloco);
        cp_csv_free(c);
    }
    printf("\n| job | types | LOCO MAPE %% median | worst | target (5 / 10) | Ernest median | "
           "Ernest worst |\n|---|---|---|---|---|---|---|\n");
    for (int j = 0; j < 5; j++)
        printf("%s\n", summary[j]);
    printf("\nTerms (seconds; m machines, input_gb in GB):\n\n");
    rewind(terms);
    int ch;
    while ((ch = fgetc(terms)) != EOF)
        putchar(ch);
    fclose(terms);
    printf("\nbench-fit: %d fits, %d runs, term search + LOCO + largest size in %.3f s\n", n_fits,
           runs, total);
    return 0;
}
