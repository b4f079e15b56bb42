/*
 * bench-fit: fits Ernest's model to every (job, machine type) of the five
 * C3O files with leave-one-out cross validation and input-size hold-out,
 * and prints a Markdown table (the one in docs/models.md) and the time.
 *
 * usage: fit_bench [C3O_DIR]   (default /work/shared/data/c3o)
 * Data: Will, Bader, Thamsen, BigData 2020 (dos-group/c3o-experiments).
 */
#include "cp_csv.h"
#include "cp_fit.h"

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

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "/work/shared/data/c3o";
    static const char *const jobs[] = {"grep", "kmeans", "pagerank", "sgd", "sort"};
    double total = 0;
    int fits = 0, runs = 0;
    printf("| job | machine type | runs | sizes | R² | MAPE %% | LOO MAPE %% | held-out-size MAPE %% | fit+CV ms |\n"
           "|---|---|---|---|---|---|---|---|---|\n");
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
        int n = c->n_rows;
        double *m = malloc(sizeof *m * n), *g = malloc(sizeof *g * n), *t = malloc(sizeof *t * n);
        char *done = calloc((size_t)n, 1);
        for (int i = 0; i < n; i++) {
            if (done[i])
                continue;
            const char *type = cp_csv_get(&c->rows[i], ct);
            int k = 0;
            for (int q = i; q < n; q++) {
                const cp_csv_row *r = &c->rows[q];
                if (strcmp(cp_csv_get(r, ct), type))
                    continue;
                done[q] = 1;
                if (!cp_csv_number(cp_csv_get(r, cm), &m[k]) ||
                    !cp_csv_number(cp_csv_get(r, cs), &g[k]) ||
                    !cp_csv_number(cp_csv_get(r, cr), &t[k]))
                    continue;
                g[k] /= 1000; /* MB -> GB, as `import c3o` */
                k++;
            }
            cp_ernest e;
            double t0 = now();
            if (cp_ernest_fit(m, g, t, k, true, true, &e, &err) != CP_OK) {
                cp_err_print(&err, stderr);
                return 1;
            }
            double dt = now() - t0;
            total += dt;
            fits++;
            runs += k;
            char ho[32];
            if (e.holdout_mape == e.holdout_mape)
                snprintf(ho, sizeof ho, "%.1f", e.holdout_mape);
            else
                snprintf(ho, sizeof ho, "n/a (1 size)");
            printf("| %s | %s | %d | %d | %.3f | %.1f | %.1f | %s | %.1f |\n", jobs[j], type, k,
                   e.sizes, e.r2, e.mape, e.loo_mape, ho, dt * 1e3);
        }
        free(m);
        free(g);
        free(t);
        free(done);
        cp_csv_free(c);
    }
    printf("\nbench-fit: %d fits, %d runs, LOO + hold-out in %.3f s\n", fits, runs, total);
    return 0;
}
