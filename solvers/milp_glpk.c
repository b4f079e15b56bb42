/*
 * The time-indexed MILP of capplan.5 §3-4 solved by GLPK (or its
 * branch-and-cut by CBC: mip_cbc.c), on the whole problem or on a POP
 * part (cp_milp_run), or around the services with the jobs' modes kept
 * (cp_milp_around), and CBC's root bound of the whole model
 * (cp_milp_root_bound). The model, its columns and rows and its LP export are
 * milp_model.c's; here its solve: the warm start, the LP relaxation in
 * slices that look at the clock and the stop flag, branch-and-cut with
 * its callback, and the plan read from the columns. A glp_prob lives
 * within one call and only plain choices leave it. The methods around it
 * are in method_milp.c.
 *
 * The caller's plan is handed to branch-and-cut as its first incumbent
 * (glp_ios_heur_sol), which needs the MIP presolver off: the LP relaxation
 * is solved first by glp_simplex, and its value is the first bound.
 */
#include "milp_internal.h"
#include "cp_placement.h"

#include "cp_alloc.h"
#include "cp_mip.h"
#include "cp_num.h"

#include <glpk.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GLPK's clique cuts come from the conflict graph of the binaries (two
 * runs that a capacity or a team quota row forbids together). On the
 * nightly example, whose teams' quotas bind, they raise the root bound to
 * within 0.03 % where the other cuts leave 0.3 % to branching: the
 * branch-and-cut phase took 6 s of wall time instead of 74 at the same
 * load (bench/results/2026-12-03-nightly-teams.md). The graph is built
 * from every row's pairs of binaries, so only on models of the size
 * `auto` gives this path (method_auto.c). */
#define MILP_CLIQUE_COLUMNS 20000

/* simplex iterations between two looks at the clock and the stop flag */
#define MILP_LP_SLICE 500

/* GLPK takes a heuristic solution as it is (glp_ios_heur_sol checks
 * integrality, not bounds or rows): a warm start that breaks the model
 * would be an incumbent no feasible plan has, and makes the search go
 * astray (a POP part whose heuristic plan rents more than the part's
 * share of a quota ran on far past its time limit). So the warm start is
 * checked against every column bound and row of the loaded model: a
 * precedence row the heuristics did not keep, a scaled quota, a
 * capacity. */
static bool warm_feasible_vec(const milp *mp, glp_prob *P, const double *warm)
{
    const double eps = 1e-7;
    int m = glp_get_num_rows(P);
    for (int c = 1; c <= mp->n_cols; c++) {
        double x = warm[c];
        int t = glp_get_col_type(P, c);
        if ((t == GLP_LO || t == GLP_DB || t == GLP_FX) && x < glp_get_col_lb(P, c) - eps)
            return false;
        if ((t == GLP_UP || t == GLP_DB || t == GLP_FX) && x > glp_get_col_ub(P, c) + eps)
            return false;
    }
    double *act = cp_calloc((size_t)m + 1, sizeof *act);
    if (!act)
        return false;
    for (size_t k = 1; k <= mp->nnz; k++)
        if (mp->ia[k] <= m)
            act[mp->ia[k]] += mp->ar[k] * warm[mp->ja[k]];
    bool ok = true;
    for (int r = 1; r <= mp->n_rows && ok; r++) {
        int t = glp_get_row_type(P, r);
        double lb = glp_get_row_lb(P, r), ub = glp_get_row_ub(P, r);
        double tol = eps * (1 + fabs(act[r]));
        if ((t == GLP_LO || t == GLP_DB || t == GLP_FX) && act[r] < lb - tol)
            ok = false;
        if ((t == GLP_UP || t == GLP_DB || t == GLP_FX) && act[r] > ub + tol)
            ok = false;
    }
    cp_free(act);
    return ok;
}

static bool warm_feasible(const milp *mp, glp_prob *P)
{
    return warm_feasible_vec(mp, P, mp->warm);
}

static double tree_bound(glp_tree *tree)
{
    int best = glp_ios_best_node(tree);
    return best ? glp_ios_node_bound(tree, best) : NAN;
}

static void callback(glp_tree *tree, void *info)
{
    milp *mp = info;
    const cp_solve_opts *o = mp->opts;
    if (o->stop && *o->stop) {
        glp_ios_terminate(tree);
        return;
    }
    int reason = glp_ios_reason(tree);
    if (reason == GLP_IHEUR && mp->warm && !mp->warm_sent) {
        mp->warm_sent = true;
        glp_ios_heur_sol(tree, mp->warm);
    }
    if (reason == GLP_IBINGO && !mp->sc) {
        double v = glp_mip_obj_val(glp_ios_get_prob(tree));
        if (v < mp->best_seen) {
            mp->best_seen = v;
            cp_solver_log_incumbent(o, v);
        }
    }
    double b = tree_bound(tree);
    if (!isnan(b) && (isnan(mp->bound) || b > mp->bound)) {
        mp->bound = b;
        if (!mp->sc)
            cp_progress_bound(o, b);
    }
    if (o->node_limit > 0) {
        int a, n, t;
        glp_ios_tree_size(tree, &a, &n, &t);
        if (t > o->node_limit) {
            glp_ios_terminate(tree);
            return;
        }
    }
    double now = cp_now_seconds();
    if (o->progress && now - mp->last_log >= 1.0) {
        mp->last_log = now;
        glp_prob *P = glp_ios_get_prob(tree);
        int st = glp_mip_status(P);
        if (st == GLP_FEAS || st == GLP_OPT)
            cp_solver_log(o, "milp: %.1f s  incumbent %.10g  bound %.10g  gap %.3g%%", now - mp->t0,
                          glp_mip_obj_val(P), mp->bound, 100 * glp_ios_mip_gap(tree));
        else
            cp_solver_log(o, "milp: %.1f s  no incumbent yet  bound %.10g", now - mp->t0, mp->bound);
    }
}

static double glp_lo(int type, double lb)
{
    return type == GLP_LO || type == GLP_DB || type == GLP_FX ? lb : -INFINITY;
}

static double glp_hi(int type, double ub)
{
    return type == GLP_UP || type == GLP_DB || type == GLP_FX ? ub : INFINITY;
}

/* Branch-and-cut by CBC, run as a separate program (mip_cbc.c), on P's
 * model less the constant's row and column; x[1..n_cols] gets its answer
 * and res how it ended (its objective and bound with the constant). */
static int cbc_branch(const milp *mp, glp_prob *P, double deadline, bool root, double *x,
                      cp_mip_result *res, cp_err *err)
{
    const cp_solve_opts *o = mp->opts;
    size_t nr = (size_t)mp->n_rows + 1, nc = (size_t)mp->n_cols + 1;
    double *lo = cp_malloc(nr * sizeof *lo), *hi = cp_malloc(nr * sizeof *hi);
    double *clo = cp_malloc(nc * sizeof *clo), *chi = cp_malloc(nc * sizeof *chi);
    double *obj = cp_malloc(nc * sizeof *obj);
    bool *isint = cp_malloc(nc * sizeof *isint);
    int rc = CP_OK;
    if (!lo || !hi || !clo || !chi || !obj || !isint) {
        rc = cp_err_nomem(err);
        goto out;
    }
    for (int r = 1; r <= mp->n_rows; r++) {
        int t = glp_get_row_type(P, r);
        lo[r] = glp_lo(t, glp_get_row_lb(P, r));
        hi[r] = glp_hi(t, glp_get_row_ub(P, r));
    }
    for (int c = 1; c <= mp->n_cols; c++) {
        int t = glp_get_col_type(P, c);
        clo[c] = glp_lo(t, glp_get_col_lb(P, c));
        chi[c] = glp_hi(t, glp_get_col_ub(P, c));
        obj[c] = glp_get_obj_coef(P, c);
        isint[c] = glp_get_col_kind(P, c) != GLP_CV;
    }
    size_t nnz = 0;
    while (nnz < mp->nnz && mp->ia[nnz + 1] <= mp->n_rows && mp->ja[nnz + 1] <= mp->n_cols)
        nnz++;
    cp_mip m = {mp->n_rows, mp->n_cols, lo, hi, obj, clo, chi, isint, nnz,
                mp->ia, mp->ja, mp->ar, mp->warm};
    cp_mip_limits lim = {o->node_limit, o->gap, deadline, o->seed, o->stop, root};
    if ((rc = cp_mip_cbc_solve(&m, &lim, x, res, err)) == CP_OK) {
        res->objective += mp->constant;
        res->bound += mp->constant;
    }
out:
    cp_free(lo);
    cp_free(hi);
    cp_free(clo);
    cp_free(chi);
    cp_free(obj);
    cp_free(isint);
    return rc;
}

int cp_milp_root_bound(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                       double deadline, double *bound, cp_err *err)
{
    milp mp;
    cp_usage u;
    glp_prob *P = NULL;
    *bound = NAN;
    int rc = cp_milp_model_open(&mp, in, ms, &u, &P, err);
    if (rc)
        return rc;
    mp.opts = opts;
    double *x = cp_calloc((size_t)mp.n_cols + 1, sizeof *x);
    cp_mip_result res;
    if (!x)
        rc = cp_err_nomem(err);
    else if ((rc = cbc_branch(&mp, P, deadline, true, x, &res, err)) == CP_OK && isfinite(res.bound))
        *bound = res.bound;
    cp_free(x);
    cp_milp_model_close(&mp, &u, P);
    return rc;
}

/* The MILP, warm-started from `warm` (a feasible plan or NULL). */
static int milp_run(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                    const cp_scope *sc, const cp_plan *warm, const cp_plan *fix, bool fix_start,
                    cp_plan *plan, cp_err *err);

int cp_milp_run(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                const cp_scope *sc, const cp_plan *warm, cp_plan *plan, cp_err *err)
{
    return milp_run(in, ms, opts, sc, warm, NULL, false, plan, err);
}

/* Start columns of the jobs' modes in `jobs` up to which their starts
 * stay free around the services; above, each job keeps its start too. */
#define AROUND_FREE_STARTS 5000L

int cp_milp_around(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                   const cp_plan *jobs, const cp_plan *warm, cp_plan *plan, cp_err *err)
{
    long starts = 0;
    for (int j = 0; j < in->n_jobs; j++)
        if (jobs->mode[j] >= 0)
            starts += ms->modes[jobs->mode[j]].s_max - ms->modes[jobs->mode[j]].s_min + 1;
    return milp_run(in, ms, opts, NULL, warm, jobs, starts > AROUND_FREE_STARTS, plan, err);
}

int cp_milp_around_fixed(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                         const cp_plan *jobs, const cp_plan *warm, cp_plan *plan, cp_err *err)
{
    return milp_run(in, ms, opts, NULL, warm, jobs, true, plan, err);
}

/* capplan.5 §10.4: the LP's services rounded around base's jobs
 * (cp_milp_svc_round: its replicas rounded down, the load they cannot
 * take routed by the greedy) become the first incumbent when they are
 * feasible and cheaper than the warm start. The LP keeps replicas through
 * a dip where the greedy (services_greedy.c), slot by slot, does not: on
 * bench/gen --services 3 1 0 the greedy's $151.73 against the LP's
 * $55.79, which GLPK's branch-and-cut did not improve in 25 s. */
static void round_services(milp *mp, glp_prob *P, const cp_plan *base)
{
    cp_plan *p = NULL;
    double *x = cp_calloc((size_t)mp->n_cols + 2, sizeof *x);
    if (!x || cp_plan_new(mp->in, mp->ms, &p) || cp_plan_copy(p, base)) {
        cp_free(x);
        cp_plan_free(p);
        return; /* out of memory: the warm start stays */
    }
    for (int c = 1; c <= mp->n_cols; c++)
        x[c] = glp_get_col_prim(P, c);
    bool ok;
    cp_milp_svc_round(mp, x, p, &ok);
    cp_plan_figures f;
    if (ok && cp_plan_eval(p, &f, NULL) == CP_OK) {
        double was = mp->warm ? base->objective : INFINITY;
        cp_solver_log(mp->opts, "milp: the LP's services rounded give %.10g", f.costs.total);
        if (f.costs.total < was - 1e-9 * (1 + fabs(was)) && cp_milp_warm_vector(mp, p, x) &&
            warm_feasible_vec(mp, P, x)) {
            cp_free(mp->warm);
            mp->warm = x;
            x = NULL;
        }
        cp_plan_figures_release(&f);
    }
    cp_free(x);
    cp_plan_free(p);
}

/* milp_run's model: built from the modes (with u) and loaded into a new
 * *out, the warm start as its vector when every choice of it has a column
 * and it holds every row (warm_feasible); CP_OK, or CP_ERR_NOMEM with mp
 * and u released and no glp_prob. */
static int run_model(milp *mp, cp_usage *u, const cp_plan *warm, glp_prob **out, cp_err *err)
{
    const cp_input *in = mp->in;
    const cp_modeset *ms = mp->ms;
    const cp_solve_opts *opts = mp->opts;
    if (cp_usage_init_scaled(u, in, ms, mp->sc ? mp->sc->scale : 1.0))
        return cp_err_nomem(err);
    if (cp_milp_build(mp, u)) {
        cp_milp_release(mp);
        cp_usage_release(u);
        return cp_err_nomem(err);
    }
    if (!mp->sc && !mp->fix) {
        long bins = 0;
        for (int c = 1; c <= mp->n_cols; c++)
            bins += mp->col_mode[c] >= 0;
        /* before: every (job, mode, start), a drop column per job, y per
         * market slot, every capacity and power row; after: what was built */
        long rows0 = in->n_jobs + (long)ms->n_res * CP_DIMS * in->slots + (long)in->n_sites * in->slots + 1;
        cp_solver_log_model(opts, "model", rows0, mp->all_cols + in->n_jobs + (long)ms->n_res * in->slots + 1,
                            mp->all_cols, -1);
        cp_solver_log_model(opts, "reduced", mp->n_rows + 1L, mp->n_cols + 1L, bins, (long)mp->nnz + 1);
        if (u->n_dominated)
            cp_solver_log(opts, "reduction: %d dominated modes removed", u->n_dominated);
    }
    if (warm && warm->status != CP_STATUS_INFEASIBLE) {
        mp->warm = cp_calloc((size_t)mp->n_cols + 2, sizeof(double));
        if (mp->warm && !cp_milp_warm_vector(mp, warm, mp->warm)) {
            cp_free(mp->warm);
            mp->warm = NULL;
        }
    }
    glp_term_out(GLP_OFF);
    glp_prob *P = glp_create_prob();
    cp_milp_load(mp, P, u);
    if (mp->warm && !warm_feasible(mp, P)) {
        cp_free(mp->warm);
        mp->warm = NULL;
    }
    *out = P;
    return CP_OK;
}

/* The LP relaxation of P: its value, or NAN when the time limit or a stop
 * cut it short or it failed; *infeasible when it has no solution. */
static double lp_relax(const milp *mp, glp_prob *P, bool *infeasible)
{
    const cp_solve_opts *opts = mp->opts;
    glp_smcp sm;
    glp_init_smcp(&sm);
    sm.msg_lev = GLP_MSG_OFF;
    sm.presolve = GLP_OFF;
    /* in slices of simplex iterations, so a stop or the deadline is seen
     * within a fraction of a second (each call resumes from the basis) */
    sm.it_lim = MILP_LP_SLICE;
    /* the MILP around fixed jobs (services_after.c): the dual simplex
     * takes a third fewer iterations to its LP (bench/gen --services 10
     * 1 1000 around the greedy's jobs: 17,759 against the primal's
     * 26,210; scaling or an advanced basis gain nothing more) */
    if (mp->fix)
        sm.meth = GLP_DUALP;
    double left = opts->time_limit - (cp_now_seconds() - mp->t0);
    int lp_rc = GLP_EITLIM;
    while (lp_rc == GLP_EITLIM && left > 0 && !(opts->stop && *opts->stop)) {
        sm.tm_lim = cp_num_clamp_int(left * 1000 + 1, 1, INT_MAX);
        lp_rc = glp_simplex(P, &sm);
        left = opts->time_limit - (cp_now_seconds() - mp->t0);
    }
    *infeasible = false;
    if (lp_rc == 0 && glp_get_status(P) == GLP_OPT)
        return glp_get_obj_val(P);
    if (lp_rc == 0 && (glp_get_status(P) == GLP_NOFEAS || glp_get_status(P) == GLP_INFEAS))
        *infeasible = true;
    return NAN;
}

/* Branch-and-cut on P from its solved LP relaxation, by CBC or GLPK (with
 * the callback that hands it the warm start and logs): xv[1..n_cols] its
 * best solution and xv[0] its objective, *st GLPK's status for it
 * (GLP_OPT, GLP_FEAS, GLP_NOFEAS or GLP_UNDEF) and *mrc glp_intopt's
 * return code, GLP_EMIPGAP when CBC proved it within the gap. */
static int branch_and_cut(milp *mp, glp_prob *P, double *xv, int *st, int *mrc, cp_err *err)
{
    const cp_solve_opts *opts = mp->opts;
    *mrc = 0;
    if (opts->mip_engine == CP_MIP_CBC) {
        cp_mip_result res;
        int rc = cbc_branch(mp, P, mp->t0 + opts->time_limit, false, xv, &res, err);
        if (rc)
            return rc;
        *st = res.status == CP_MIP_OPTIMAL      ? GLP_OPT
              : res.status == CP_MIP_FEASIBLE   ? GLP_FEAS
              : res.status == CP_MIP_INFEASIBLE ? GLP_NOFEAS
                                                : GLP_UNDEF;
        xv[0] = res.objective;
        if (!isnan(res.bound) && (isnan(mp->bound) || res.bound > mp->bound))
            mp->bound = res.bound;
        if (*st == GLP_OPT && res.bound < res.objective)
            *mrc = GLP_EMIPGAP; /* proved within the gap: the bound is CBC's */
        cp_solver_log(opts, "milp: cbc: %s after %.2f s, %ld nodes, objective %.10g, bound %.10g",
                      *st == GLP_OPT ? "optimal" : *st == GLP_FEAS ? "stopped" : "no answer",
                      res.seconds, res.nodes, res.objective, res.bound);
        return CP_OK;
    }
    glp_iocp io;
    glp_init_iocp(&io);
    io.msg_lev = GLP_MSG_OFF;
    io.presolve = GLP_OFF;
    io.br_tech = GLP_BR_DTH;
    io.bt_tech = GLP_BT_BLB;
    io.mir_cuts = GLP_ON;
    io.cov_cuts = GLP_ON;
    io.gmi_cuts = GLP_ON;
    io.clq_cuts = mp->n_cols <= MILP_CLIQUE_COLUMNS ? GLP_ON : GLP_OFF;
    /* the feasibility pump looks for a first incumbent; with the warm
     * start there is one, and GLPK 5.0's pump then ran on far past tm_lim
     * on a POP part of tests/gen/geninst 7 40 (its LPs do not look at the
     * clock) */
    io.fp_heur = mp->warm ? GLP_OFF : GLP_ON;
    io.mip_gap = opts->gap;
    double left = opts->time_limit - (cp_now_seconds() - mp->t0);
    io.tm_lim = cp_num_clamp_int(left * 1000, 1, INT_MAX);
    io.cb_func = callback;
    io.cb_info = mp;
    *mrc = glp_intopt(P, &io);
    *st = glp_mip_status(P);
    for (int c = 1; c <= mp->n_cols && (*st == GLP_OPT || *st == GLP_FEAS); c++)
        xv[c] = glp_mip_col_val(P, c);
    xv[0] = glp_mip_obj_val(P);
    return CP_OK;
}

/* The plan of branch-and-cut's solution xv (status st, return code mrc):
 * the jobs' modes and starts, the services' columns, the fewest instances;
 * the warm plan itself when the solution is no better. */
static int read_solution(milp *mp, const double *xv, int st, int mrc,
                         const cp_plan *warm, cp_plan *plan, cp_err *err)
{
    const cp_input *in = mp->in;
    bool proved = (mrc == 0 && st == GLP_OPT) || mrc == GLP_EMIPGAP;
    for (int j = 0; j < in->n_jobs; j++)
        plan->mode[j] = -1;
    for (int c = 1; c <= mp->n_cols; c++)
        if (mp->col_mode[c] >= 0 && xv[c] > 0.5) {
            plan->mode[mp->col_job[c]] = mp->col_mode[c];
            plan->start[mp->col_job[c]] = mp->col_start[c];
        }
    /* services were built (not in a POP part): their columns from xv,
     * the engine's answer (GLPK's or CBC's; P holds GLPK's alone) */
    if (mp->svc.n_col)
        cp_milp_svc_extract(mp, xv, plan);
    cp_plan_min_instances(plan);
    plan->objective = xv[0];
    /* no better than the warm start (whose objective the caller set: the
     * whole problem only): keep the warm plan itself, whose units already
     * pack */
    if (!mp->sc && warm && mp->warm && cp_plan_precedence_ok(warm) &&
        plan->objective >= warm->objective - 1e-9 * (1 + fabs(warm->objective)) && cp_plan_copy(plan, warm))
        return cp_err_nomem(err);
    if (mrc == 0 && st == GLP_OPT)
        mp->bound = plan->objective;
    plan->status = proved ? CP_STATUS_OPTIMAL : CP_STATUS_FEASIBLE;
    return CP_OK;
}

/* Branch-and-cut from the LP relaxation (lp_bound its value; when there
 * are columns, a bound and no stop) into plan: *found when it gave a
 * plan; *none (plan->status INFEASIBLE) when it proved there is none. */
static int run_branch(milp *mp, glp_prob *P, double lp_bound, const cp_plan *warm, cp_plan *plan,
                      bool *found, bool *none, cp_err *err)
{
    const cp_solve_opts *opts = mp->opts;
    if (mp->n_cols == 0 || isnan(lp_bound) || (opts->stop && *opts->stop))
        return CP_OK;
    if (!mp->sc)
        cp_progress_phase(opts, "branch-and-cut");
    double *xv = cp_calloc((size_t)mp->n_cols + 1, sizeof *xv);
    if (!xv)
        return cp_err_nomem(err);
    int st, mrc;
    int rc = branch_and_cut(mp, P, xv, &st, &mrc, err);
    if (rc == CP_OK && (st == GLP_OPT || st == GLP_FEAS)) {
        *found = true;
        rc = read_solution(mp, xv, st, mrc, warm, plan, err);
    } else if (rc == CP_OK && st == GLP_NOFEAS) {
        *none = true;
        plan->status = CP_STATUS_INFEASIBLE;
    }
    cp_free(xv);
    return rc;
}

/* The plan milp_run returns: never worse than the heuristic's warm plan,
 * whatever branch-and-cut kept (but a heuristic plan that breaks
 * precedence, capplan.5 §9.2, is cheaper only for that: the tree's rows
 * hold it), the warm plan itself when branch-and-cut found none. */
static int run_best(const milp *mp, const cp_plan *warm, bool found, cp_plan *plan, cp_err *err)
{
    int rc = CP_OK;
    if (found && warm && warm->status != CP_STATUS_INFEASIBLE && cp_plan_precedence_ok(warm)) {
        cp_plan_figures fm, fw;
        if (cp_plan_eval(plan, &fm, err) == CP_OK) {
            if (cp_plan_eval(warm, &fw, err) == CP_OK) {
                if (fw.costs.total < fm.costs.total - 1e-9 * (1 + fabs(fm.costs.total))) {
                    if (cp_plan_copy(plan, warm))
                        rc = cp_err_nomem(err);
                    plan->status = CP_STATUS_FEASIBLE;
                }
                cp_plan_figures_release(&fw);
            }
            cp_plan_figures_release(&fm);
        }
    }
    if (!found) {
        if (warm && warm->status != CP_STATUS_INFEASIBLE) {
            if (cp_plan_copy(plan, warm))
                rc = cp_err_nomem(err);
            plan->status = CP_STATUS_FEASIBLE;
        } else {
            plan->status = CP_STATUS_NOPLAN;
        }
    }
    plan->bound = mp->bound;
    return rc;
}

static int milp_run(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                    const cp_scope *sc, const cp_plan *warm, const cp_plan *fix, bool fix_start,
                    cp_plan *plan, cp_err *err)
{
    /* limits count from when planning began */
    double t0 = cp_solve_started(opts);
    milp mp;
    memset(&mp, 0, sizeof mp);
    mp.in = in;
    mp.ms = ms;
    mp.T = in->slots;
    mp.opts = opts;
    mp.sc = sc;
    mp.fix = fix;
    mp.fix_start = fix_start;
    mp.best_seen = INFINITY;
    mp.bound = NAN;
    mp.t0 = t0;
    mp.last_log = t0;
    cp_usage u;
    glp_prob *P = NULL;
    int rc = run_model(&mp, &u, warm, &P, err);
    if (rc)
        return rc;
    bool none, found = false;
    double lp_bound = lp_relax(&mp, P, &none);
    if (none) {
        plan->status = CP_STATUS_INFEASIBLE;
        goto out;
    }
    cp_solver_log(opts, "milp: LP relaxation %.10g after %.2f s", lp_bound, cp_now_seconds() - t0);
    mp.bound = lp_bound;
    if (in->n_services && !isnan(lp_bound) && (warm || fix) && !sc)
        round_services(&mp, P, warm ? warm : fix);
    if (mp.n_cols == 0 && !isnan(lp_bound)) {
        /* no job has a start that fits: dropping all is the only plan */
        for (int j = 0; j < in->n_jobs; j++)
            plan->mode[j] = -1;
        memset(plan->y, 0, (size_t)ms->n_res * (size_t)mp.T * sizeof *plan->y);
        plan->objective = lp_bound;
        plan->status = CP_STATUS_OPTIMAL;
        found = true;
    }
    if ((rc = run_branch(&mp, P, lp_bound, warm, plan, &found, &none, err)) || none)
        goto out;
    rc = run_best(&mp, warm, found, plan, err);
out:
    cp_milp_model_close(&mp, &u, P);
    return rc;
}
