/*
 * What-if analysis (SPEC 8): scenarios applied to the inputs, each planned
 * as `plan` would plan it, summarised one row per scenario. The table is
 * the boundary between the what-if runner (whatif_*.c) and its outputs
 * (the md/csv/json table and the HTML page in report_*.c).
 */
#ifndef CP_WHATIF_H
#define CP_WHATIF_H

#include "cp_buf.h"
#include "cp_err.h"

#include <stdbool.h>

typedef struct cp_whatif_row {
    char *name;   /* "baseline", the scenario name, or "NAME=VALUE" for a sweep */
    char *status; /* optimal, feasible, infeasible, noplan, interrupted, invalid */
    char *error;  /* invalid: the error text (FILE:LINE:COL: ...); else NULL */
    char *sweep;  /* sweep rows: the sweep's scenario NAME; else NULL */
    double sweep_value; /* sweep rows: the swept value */
    /* SPEC 4 figures of the plan (NAN when there is no plan) */
    double total, cloud, energy, carbon, penalty;
    double kwh, kg_co2;
    int dropped;
    double spot_share; /* spot instance-hours / all cloud instance-hours; 0 if none */
    /* accelerator-hours per table->acc_names[i], on-prem and in the cloud */
    double *acc_hours_onprem, *acc_hours_cloud;
} cp_whatif_row;

typedef struct cp_whatif_table {
    int n_rows; /* rows[0] is the baseline */
    cp_whatif_row *rows;
    int n_acc; /* union of accelerator types over all scenarios, in first-seen order */
    char **acc_names;
} cp_whatif_table;

void cp_whatif_table_free(cp_whatif_table *t);

/* The page for `whatif --report FILE` (report_whatif.c): total and its
 * parts per scenario, and per sweep a line chart of total against the
 * swept value. Appends a self-contained HTML document to `out`. */
int cp_report_whatif_html(const cp_whatif_table *t, cp_buf *out, cp_err *err);

#endif
