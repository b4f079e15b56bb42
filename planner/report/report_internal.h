/*
 * Shared by the report_*.c files of the plan report: the plan as read
 * from its tree (report_plan.c), the page layout, the time axis
 * (report_time.c) and the section renderers (report_gantt.c,
 * report_charts.c). Not a public interface; see cp_report.h.
 *
 * Strings in these structs are borrowed from the plan tree or the inputs,
 * which outlive an rp_plan; the per-slot arrays are owned by it.
 */
#ifndef REPORT_INTERNAL_H
#define REPORT_INTERNAL_H

#include "cp_buf.h"
#include "cp_input.h"
#include "cp_svg.h"
#include "cp_yaml.h"

#include <stdbool.h>

/* Layout shared by every chart that has time on its x axis, so their
 * axes line up down the page: readable at 1280 px wide. */
#define RP_WIDTH 1200.0
#define RP_LEFT 280.0  /* row labels */
#define RP_RIGHT 40.0
#define RP_LABEL_CHARS 42
/* At most this many columns in per-slot charts: longer horizons are
 * drawn in buckets of several slots (the peak of each bucket). */
#define RP_MAX_COLS 240

enum { RP_POOL, RP_ONDEMAND, RP_SPOT };
enum { RP_KIND_UNKNOWN = -1 }; /* else CP_JOB_TRAINING / CP_JOB_DATAFLOW */

typedef struct rp_job {
    const cp_node *node;
    const char *name, *resource, *accelerator, *reason;
    const cp_node *nodes; /* the plan's `nodes` list, NULL when absent */
    bool scheduled;
    int market; /* RP_POOL, RP_ONDEMAND, RP_SPOT */
    int kind;   /* from the inputs; RP_KIND_UNKNOWN without them */
    double count, cpus, memory_gb, energy_kwh; /* NAN when absent */
    double start_hour, end_hour;
    long start_slot, slots; /* -1 when absent */
    int row, lane;          /* Gantt position */
} rp_job;

/* A Gantt row: one pool or one market. */
typedef struct rp_row {
    const char *name;
    int market;
    int pool; /* index into the inputs' pools, -1 when unknown */
    int lanes;
    int n_jobs;
} rp_row;

typedef struct rp_market { /* a provisioning entry */
    const char *name;
    int market;
    double *y; /* [T] */
    double cost;
} rp_market;

typedef struct rp_util { /* a utilization entry */
    const char *pool;
    int in_pool;       /* index into the inputs' pools, -1 */
    double *dim[3];    /* accelerators, cpus, memory_gb per slot [T] */
} rp_util;

typedef struct rp_site {
    const char *name;
    int in_site; /* index into the inputs' sites, -1 */
    double *power_kw; /* [T] */
    double energy_kwh, carbon_kg;
} rp_site;

#define RP_VIOL_SHOWN 5

typedef struct rp_plan {
    const char *file;
    const cp_input *in; /* NULL: the plan alone */
    const char *status, *method, *note, *reason;
    double bound, gap;
    bool has_totals;
    double total, cloud, energy, carbon, penalty, energy_kwh, carbon_kg;
    int T;
    double h;
    const char *h_from; /* how h was found: "inputs", "plan", "assumed" */
    rp_job *jobs;
    int n_jobs, n_sched, n_dropped;
    rp_row *rows;
    int n_rows;
    rp_market *markets;
    int n_markets;
    rp_util *util;
    int n_util;
    rp_site *sites;
    int n_sites;
    /* `capplan verify` against the inputs: -1 not run, else violations */
    int verify_n;
    char *verify_msg[RP_VIOL_SHOWN];
} rp_plan;

/* report_plan.c: reads the tree into p (zeroed by the caller); errors go
 * to d. Returns CP_OK, CP_ERR_INPUT or CP_ERR_NOMEM. */
int rp_read(rp_plan *p, const cp_node *root, const cp_input *in, cp_diags *d);
void rp_release(rp_plan *p);
const char *rp_market_name(int market);

/* report_time.c: ticks for hours 0..T*h over [RP_LEFT, RP_WIDTH -
 * RP_RIGHT], with wall-clock second lines when horizon.start is known
 * and parses; the x-axis title goes to `title` (at least 96 bytes). */
void rp_time_axis(const rp_plan *p, cp_scale *sx, cp_ticks *t, char *title, size_t size);
/* "hours 1-2.6" with the wall clock when known ("hours 1-2.6 (06-06 01:00-03:36 UTC)"). */
void rp_time_span(const rp_plan *p, double h0, double h1, char *out, size_t size);
/* horizon.start in words for the header; false when there is none. */
bool rp_clock_describe(const rp_plan *p, char *out, size_t size);

/* report_gantt.c / report_charts.c: the sections of the page. */
int rp_gantt(cp_buf *b, rp_plan *p);
void rp_utilization(cp_buf *b, const rp_plan *p);
void rp_instances(cp_buf *b, const rp_plan *p);
void rp_power(cp_buf *b, const rp_plan *p);
void rp_costs(cp_buf *b, const rp_plan *p);

#endif
