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
        int cm = cp_csv_col(c, "instance_count"), ct = cp_csv_col(c, "machine_type");
        int cs = cp_csv_col(c, "data_size_MB"), cr = cp_csv_col(c, "gross_runtime");
        int pc[CP_PM_MAX_PARAMS], np = 0;
        const char *pn[CP_PM_MAX_PARAMS];
        for (int h = 0; h < c->head.n && np < CP_PM_MAX_PARAMS; h++)
            if (!is_common(c->head.f[h])) {
                pc[np] = h;
                pn[np++] = c->head.f[h];
            }
        int n = c->n_rows;
        char *done = calloc((size_t)n, 1);
        double loco[8], eloco[8];
        int nt = 0;
        /* the types of the job, in file order: their runs */
        const char *types[8];
        int cnt[8];
        double *gm[8], *gg[8], *gt[8], *gP[8];
        for (int i = 0; i < n; i++) {
            if (done[i] || nt == 8)
                continue;
            const char *type = cp_csv_get(&c->rows[i], ct);
            int k = 0;
            gm[nt] = malloc(sizeof(double) * n);
            gg[nt] = malloc(sizeof(double) * n);
            gt[nt] = malloc(sizeof(double) * n);
            gP[nt] = malloc(sizeof(double) * n * (np ? np : 1));
            for (int q = i; q < n; q++) {
                const cp_csv_row *r = &c->rows[q];
                if (strcmp(cp_csv_get(r, ct), type))
                    continue;
                done[q] = 1;
                int okp = 1;
                for (int p = 0; p < np; p++)
                    okp &= cp_csv_number(cp_csv_get(r, pc[p]), &gP[nt][k * np + p]);
                if (!okp || !cp_csv_number(cp_csv_get(r, cm), &gm[nt][k]) ||
                    !cp_csv_number(cp_csv_get(r, cs), &gg[nt][k]) ||
                    !cp_csv_number(cp_csv_get(r, cr), &gt[nt][k]))
                    continue;
                gg[nt][k] /= 1000; /* MB -> GB, as `import c3o` */
                k++;
            }
            types[nt] = type;
            cnt[nt++] = k;
        }
        /* as fit dataflow --params: the type with the most runs first, on
         * its own, then the others with it as their donor */
        int big = 0;
        for (int q = 1; q < nt; q++)
            if (cnt[q] > cnt[big])
                big = q;
        cp_pm_fit fits[8];
        double ms[8];
        for (int pass = 0; pass < 2; pass++)
            for (int q = 0; q < nt; q++) {
                if ((q == big) != (pass == 0))
                    continue;
                cp_pm_opts o;
                cp_pm_opts_init(&o);
                o.donor = q == big ? NULL : &fits[big];
                double t0 = now();
                if (cp_pm_fit_group(gm[q], gg[q], gt[q], gP[q], cnt[q], np, &o, &fits[q], &err) !=
                    CP_OK) {
                    cp_err_print(&err, stderr);
                    return 1;
                }
                ms[q] = now() - t0;
            }
        for (int q = 0; q < nt; q++) {
            const cp_pm_fit f = fits[q];
            const char *type = types[q];
            int k = cnt[q];
            double dt = ms[q];
            total += dt;
            n_fits++;
            runs += k;
            char a[32], b[32], e1[32], e2[32], p50[32], mx[32];
            pct(a, sizeof a, f.model.loco_mape);
            pct(p50, sizeof p50, f.model.loco_p50);
            pct(mx, sizeof mx, f.model.loco_max);
            pct(b, sizeof b, f.model.largest_mape);
            pct(e1, sizeof e1, f.ernest.loco_mape);
            pct(e2, sizeof e2, f.ernest.largest_mape);
            printf("| %s | %s | %d | %d | %d | %d | %s | %.3f | %.1f | %s (%s / %s) | %s | %.3f | "
                   "%.1f | %s | %s | %.0f |\n",
                   jobs[j], type, k, f.configs, f.sizes, f.n_terms, f.nested ? "per fold" : "once",
                   f.model.r2, f.model.mape, a, p50, mx, b, f.ernest.r2, f.ernest.mape, e1, e2,
                   dt * 1e3);
            fprintf(terms, "%s on %s:", jobs[j], type);
            for (int z = 0; z < f.n_terms; z++) {
                char nm[400];
                cp_pm_term_name(&f, &f.terms[z], pn, types[big], nm, sizeof nm);
                fprintf(terms, " %s%.4g·%s", z ? "+ " : "", f.coef[z], nm);
            }
            fputc('\n', terms);
            loco[q] = f.model.loco_mape;
            eloco[q] = f.ernest.loco_mape;
        }
        for (int q = 0; q < nt; q++) {
            free(gm[q]);
            free(gg[q]);
            free(gt[q]);
            free(gP[q]);
        }
        double wm = 0, we = 0;
        for (int q = 0; q < nt; q++) {
            wm = fmax(wm, loco[q]);
            we = fmax(we, eloco[q]);
        }
        double mm = median(loco, nt), me = median(eloco, nt);
        snprintf(summary[j], sizeof summary[j],
                 "| %s | %d | %.1f | %.1f | %s | %.1f | %.1f |", jobs[j], nt, mm, wm,
                 mm <= 5 && wm <= 10 ? "met"
                 : mm <= 5           ? "worst missed"
                 : wm <= 10          ? "median missed"
                                     : "both missed",
                 me, we);
        free(done);
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
