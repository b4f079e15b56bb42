/*
 * Shared by the report_*.c files of the plan report: the plan as read by
 * models/cp_plan_read.h and what the report derives from it
 * (report_plan.c), the page layout, the time axis (report_time.c) and
 * the section renderers (report_gantt.c, report_charts.c). Not a public
 * interface; see cp_report.h.
 *
 * An cp_rp_plan owns its cp_plan_file (whose strings are borrowed from the
 * plan tree, which outlives it) and the arrays it adds; the inputs are
 * borrowed.
 */
#ifndef REPORT_INTERNAL_H
#define REPORT_INTERNAL_H

#include "cp_buf.h"
#include "cp_input.h"
#include "cp_plan_diff.h"
#include "cp_plan_read.h"
#include "cp_svg.h"

#include <math.h>
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

enum { RP_KIND_UNKNOWN = -1 }; /* else CP_JOB_TRAINING / CP_JOB_DATAFLOW */

/* What the report adds to a job of the plan (cp_rp_plan.jobs[i] is
 * pf.jobs[i]). */
typedef struct cp_rp_job {
    const cp_plan_job *pj;
    bool scheduled; /* drawn: scheduled with a resource, a market and its hours */
    int key;        /* scheduled: its number in the jobs table (1..n_sched), which its bar
                       shows when the name does not fit and links to; else 0 */
    int kind;       /* from the inputs; RP_KIND_UNKNOWN without them */
    int row, lane;  /* Gantt position (lane: among the row's jobs outside leases) */
    int lease;      /* the lease (p->leases) whose lane holds its bar; -1: none */
    int in_job;     /* the inputs' job of that name, -1: none or no inputs */
    /* where the Gantt chart drew its bar (x0 < 0: not drawn), for the
     * predecessor links (capplan.5 §9.2) drawn over the bars */
    double bx0, bx1, bymid;
    /* with an earlier plan (`--from`): what changed (cp_diff_kind) and the
     * earlier entry (NULL: none) */
    int change;
    const cp_plan_job *old;
} cp_rp_job;

/* A Gantt row: one pool or one market. */
typedef struct cp_rp_row {
    const char *name;
    cp_plan_market market;
    int pool; /* index into the inputs' pools, -1 when unknown */
    int lanes; /* job lanes (in a market row with leases: of its jobs in no lease) */
    int n_jobs;
    /* a market's leases, p->leases[lease0 .. lease0 + n_leases), sorted by
     * start slot; the distinct instance ids among them; their lanes */
    int lease0, n_leases, n_instances, lease_lanes;
} cp_rp_row;

/* A lease (capplan.5 §5, version 1.1) of a market row: one instance id from its
 * start slot for its slots, with its jobs. */
typedef struct cp_rp_lease {
    const cp_plan_lease *pl;
    int row;
    double h0, h1;  /* its slots in hours, within the horizon */
    int first, n;   /* its jobs that the plan schedules there: p->lease_jobs[first ..) */
    int n_listed;   /* names it lists (pl->jobs.n) */
    int lane, subs; /* Gantt: its lane in the row, the job lanes inside it */
} cp_rp_lease;

/* A job of a lease as drawn: a job on several instances is in several
 * leases, and has its one bar in the first (`primary`); the others draw
 * a part of it. */
typedef struct cp_rp_lease_job {
    int job; /* p->jobs */
    int sub; /* job lane inside the lease */
    bool primary;
} cp_rp_lease_job;

typedef struct cp_rp_util { /* a utilization entry, with its pool */
    const cp_plan_util *u;
    int in_pool; /* index into the inputs' pools, -1 */
} cp_rp_util;

typedef struct cp_rp_site { /* a site entry, with its site */
    const cp_plan_site *s;
    int in_site; /* index into the inputs' sites, -1 */
} cp_rp_site;

/* A number of the plan, NAN when it is not given. */
static inline double cp_rp_num(const cp_plan_num *n)
{
    return n->has == CP_PLAN_SET ? n->v : NAN;
}

#define RP_VIOL_SHOWN 5

typedef struct cp_rp_plan {
    const char *file;
    const cp_input *in; /* NULL: the plan alone */
    cp_plan_file pf;
    int T;
    double h;
    const char *h_from; /* how h was found: "inputs", "plan", "assumed" */
    cp_rp_job *jobs;       /* [pf.n_jobs] */
    int n_jobs, n_sched, n_dropped;
    cp_rp_row *rows;
    int n_rows;
    const cp_plan_prov *markets; /* pf.prov: every entry has a kind and T instances */
    int n_markets;
    cp_rp_lease *leases; /* every market's, grouped by row (cp_rp_row.lease0) */
    int n_leases;
    cp_rp_lease_job *lease_jobs;
    int n_lease_jobs;
    cp_rp_util *util; /* [pf.n_util]: each has a pool and its three lists of T values */
    int n_util;
    cp_rp_site *sites; /* [pf.n_sites]: each has a name and T power_kw values */
    int n_sites;
    /* `capplan verify` against the inputs: -1 not run, else violations */
    int verify_n;
    char *verify_msg[RP_VIOL_SHOWN];
    /* an earlier plan (`report NEW --from OLD`, capplan.5 §10.5) */
    bool has_old;
    const char *old_file;
    cp_plan_file old_pf;
    cp_plan_diff diff;
} cp_rp_plan;

/* report_plan.c: reads the tree into p (zeroed by the caller); errors (the
 * reader's problems and what drawing needs besides) go to d. Returns
 * CP_OK, CP_ERR_INPUT or CP_ERR_NOMEM. */
int cp_rp_read(cp_rp_plan *p, const struct cp_node *root, const cp_input *in, cp_diags *d);
void cp_rp_release(cp_rp_plan *p);
const char *cp_rp_market_name(cp_plan_market market);

/* report_diff.c: the earlier plan read and compared (jobs' change and
 * old set); its problems go to d (CP_ERR_INPUT, or CP_ERR_NOMEM). */
int cp_rp_read_old(cp_rp_plan *p, const struct cp_node *old, const char *name, cp_diags *d);
/* The section of changes (nothing without an earlier plan). */
void cp_rp_changes(cp_buf *b, const cp_rp_plan *p);
/* OLD's replicas of deployment `de` (NEW's) in slot t when they differ
 * from NEW's there, else -1 (no OLD, or the same). */
double cp_rp_dep_was(const cp_rp_plan *p, const cp_plan_svc_dep *de, int t);
/* Whether the Gantt chart outlines job j's bar: moved, re-placed,
 * added or restarted. */
bool cp_rp_job_changed(const cp_rp_job *j);
/* Appends "\nmoved; the earlier plan: RUN" for such a job. */
void cp_rp_change_title(cp_buf *t, const cp_rp_job *j);

/* report_teams.c: each team's use of its quotas per slot (capplan.5
 * §10.2), with the inputs only. */
void cp_rp_teams(cp_buf *b, const cp_rp_plan *p);

/* report_services.c: each service's deployments per slot against its
 * load (capplan.5 §10.4); nothing for a plan without services. */
void cp_rp_services(cp_buf *b, const cp_rp_plan *p);

/* report_leases.c: the markets' leases into p->leases, grouped by row and
 * sorted by start; each row's lease and instance counts; the jobs each
 * lease names, matched to the row's scheduled jobs that overlap it (a
 * name the row does not run there is only listed in the lease's title).
 * Called by cp_rp_read once the rows exist. CP_OK or CP_ERR_NOMEM. */
int cp_rp_leases(cp_rp_plan *p);
/* The Gantt row of a provisioning entry, -1 when it has none. */
int cp_rp_market_row(const cp_rp_plan *p, const cp_plan_prov *m);
/* Gantt lanes of the leases of row r: first fit in order of start (a lane
 * last held by the same instance id first), and job lanes inside each
 * lease, first fit in order of start. CP_OK or CP_ERR_NOMEM. */
int cp_rp_lease_lanes(cp_rp_plan *p, int r);
/* The instance id of a lease without its market's prefix ("spot/3" of
 * "aws:p4d:spot/3"), or the whole id when it has none. */
const char *cp_rp_lease_short_id(const cp_rp_plan *p, const cp_rp_lease *l);

/* report_time.c: ticks for hours 0..T*h over [RP_LEFT, RP_WIDTH -
 * RP_RIGHT], with wall-clock second lines when horizon.start is known
 * and parses; the x-axis title goes to `title` (at least 96 bytes). */
void cp_rp_time_axis(const cp_rp_plan *p, cp_scale *sx, cp_ticks *t, char *title, size_t size);
/* "hours 1-2.6" with the wall clock when known ("hours 1-2.6 (06-06 01:00-03:36 UTC)"). */
void cp_rp_time_span(const cp_rp_plan *p, double h0, double h1, char *out, size_t size);
/* horizon.start in words for the header; false when there is none. */
bool cp_rp_clock_describe(const cp_rp_plan *p, char *out, size_t size);

/* report_gantt.c / report_charts.c: the sections of the page. */
int cp_rp_gantt(cp_buf *b, cp_rp_plan *p);
void cp_rp_utilization(cp_buf *b, const cp_rp_plan *p);
void cp_rp_instances(cp_buf *b, const cp_rp_plan *p);
void cp_rp_power(cp_buf *b, const cp_rp_plan *p);
void cp_rp_costs(cp_buf *b, const cp_rp_plan *p);

#endif
