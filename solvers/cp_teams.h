/*
 * The team rows (capplan.5 §10.2): for every quota of every team and
 * every slot, what the team's jobs hold of that key on pools must not
 * exceed the quota; for every team with a budget, the attributed cost of
 * its jobs (models/cp_cost.h) must not exceed it. Both are linear in the
 * (mode, start) choices, so every method takes them from here: the MILP
 * and its LP export, the column-generation LP, the packing bookkeeping
 * (cp_usage: the greedy, local search, LNS, POP's parts, placement and
 * repair, the drop reasons), each with the same coefficients.
 *
 * Rows are numbered quota by quota (quota q of all teams in input order,
 * slot t: q * T + t), then one per team with a budget.
 */
#ifndef CP_TEAMS_H
#define CP_TEAMS_H

#include "cp_modes.h"

typedef struct cp_teamrows {
    const cp_input *in;
    const cp_modeset *ms;
    int T;
    int n_quota;       /* quotas of all teams */
    int *q_team;       /* [n_quota] */
    const cp_team_quota **q; /* [n_quota] borrowed */
    int n_budget;      /* teams with a budget */
    int *budget_row;   /* [n_teams] row index, -1 without a budget */
    int *first_quota;  /* [n_teams + 1] quotas of team k: [first_quota[k], first_quota[k+1]) */
    int n_rows;        /* n_quota * T + n_budget */
    double *rhs;       /* [n_rows] after the scale */
    int max_coefs;     /* most rows one column touches */
} cp_teamrows;

/* Builds the rows with every right-hand side times `scale` (1, or a POP
 * part's share). An input without teams gets zero rows. CP_OK or
 * CP_ERR_NOMEM. */
int cp_teamrows_init(cp_teamrows *tr, const cp_input *in, const cp_modeset *ms, double scale);
void cp_teamrows_release(cp_teamrows *tr);
/* The coefficients of column (mode m, start s) in the team rows: up to
 * tr->max_coefs (row, value) pairs, non-zero, written to rows[] and
 * vals[]; returns how many. */
int cp_teamrows_coefs(const cp_teamrows *tr, int m, int s, int *rows, double *vals);
/* What one run of mode m holds per slot of quota q (0 when its job is not
 * the quota's team's or it runs off the pools or on another type). */
double cp_teamrows_quota_use(const cp_teamrows *tr, int m, int q);
/* What one replica of deployment d holds of quota q (capplan.5 §10.4):
 * its accelerators of the quota's type, or its cpus, on a pool; 0 off
 * the pools and for another team's quota. */
double cp_teamrows_dep_use(const cp_teamrows *tr, int d, int q);
/* The team of row `row` and, for a quota row, its quota index and slot
 * (*q = -1 for a budget row). */
int cp_teamrows_row_team(const cp_teamrows *tr, int row, int *q, int *t);
struct cp_plan;
/* What plan p holds of every team row, its jobs' and, when with_svc, its
 * replicas' and services' spend too, added into use[tr->n_rows]. CP_OK
 * or CP_ERR_NOMEM. */
int cp_plan_team_use(const struct cp_plan *p, const cp_teamrows *tr, bool with_svc, double *use);
/* Whether plan p keeps every team's quotas and budget (unscaled); when not
 * and why is not NULL, the first row it breaks in words. False too when
 * out of memory ("out of memory"). */
bool cp_plan_teams_ok(const struct cp_plan *p, char *why, size_t why_size);
/* "V100" or "cpus": what quota q counts. */
const char *cp_teamrows_key(const cp_teamrows *tr, int q);

#endif
