/*
 * Dataflow runtime models whose Ernest coefficients depend on the job's
 * parameters (`fit dataflow --params`, docs/models.md section 1.1).
 *
 * One model per (job, machine type):
 *
 *     t(m) = Σ_k c_k · φ_b(k)(m) · g_k(input_gb, p),   c_k >= 0,
 *
 * with φ Ernest's four machine-count functions [1, 1/m, ln m, m] and g_k
 * a product of at most two factors among input_gb and, per parameter p
 * that varies within the group, p itself, ln(p / p_min) and ln(p_max / p)
 * (the measured range; the log factors only when p_min > 0). Ernest's own
 * four terms (1, input_gb/m, ln m, m) are always in; further terms are
 * added one at a time while grouped cross-validation says they predict
 * unseen configurations better. Every fit is NNLS over LAPACK (cp_nnls.h)
 * on relative errors.
 *
 * For one concrete job (its input_gb and parameter values) the model is
 * an Ernest model: θ_b = Σ over the terms on φ_b of c_k · g_k, θ1 divided
 * by input_gb, which is what capplan.5 §1.7 plans with (cp_pm_theta).
 *
 * A configuration is one (m, input_gb, parameter values) of a group: its
 * repeated runs are fitted as one weighted row and held out together.
 */
#ifndef CP_FIT_PARAM_H
#define CP_FIT_PARAM_H

#include "cp_err.h"

#include <stdbool.h>

#define CP_PM_MAX_PARAMS 16   /* parameters of one job */
#define CP_PM_MAX_TERMS 12    /* terms of one model */
#define CP_PM_DONOR 4         /* the basis of the donor term */

/* A term: φ_basis(m) times factors f[0]·f[1] (-1: none), or (basis
 * CP_PM_DONOR) the donor's whole model, see cp_pm_opts. Factor 0 is
 * input_gb; for the i-th parameter of the fit, 1 + 3i is p, 2 + 3i
 * ln(p / p_min), 3 + 3i ln(p_max / p). */
typedef struct cp_pm_term {
    int basis; /* 0: 1, 1: 1/m, 2: ln m, 3: m */
    int f[2];
} cp_pm_term;

/* Accuracy of one model on the group's runs (percent, MAPE over runs). */
typedef struct cp_pm_stats {
    double r2;           /* in-sample, 1 - RSS/TSS in seconds */
    double mape;         /* in-sample */
    double loco_mape;    /* each configuration held out in turn */
    double loco_p50;     /* median over configurations of their MAPE */
    double loco_max;     /* worst configuration */
    double largest_mape; /* the largest input_gb held out; NAN with 1 size */
    double sigma;        /* sqrt(RSS / max(1, n - nonzero c)), seconds */
} cp_pm_stats;

struct cp_pm_fit;
typedef struct cp_pm_opts {
    int max_terms; /* at most CP_PM_MAX_TERMS */
    int folds;     /* of the selection's grouped cross-validation */
    bool loco;     /* compute the leave-one-configuration-out figures */
    /* The same job's model on another machine type (fitted on its own
     * runs, with the same parameters in the same order), or NULL: its
     * prediction t_donor(m, input_gb, p) is one more candidate term, so a
     * type measured at a few configurations can borrow the shape in m and
     * p that a well-measured type shows (a·t_donor is still Ernest-shaped
     * for a concrete job). Borrowed: must outlive the fit. */
    const struct cp_pm_fit *donor;
} cp_pm_opts;
void cp_pm_opts_init(cp_pm_opts *o);

typedef struct cp_pm_fit {
    int n_params;        /* parameters that vary in the group */
    int param_index[CP_PM_MAX_PARAMS]; /* their index among the caller's */
    double pmin[CP_PM_MAX_PARAMS], pmax[CP_PM_MAX_PARAMS];
    /* the measured range of every caller's parameter (by its index),
     * varying or not: a concrete value outside it is extrapolated */
    double lo[CP_PM_MAX_PARAMS], hi[CP_PM_MAX_PARAMS];
    int n_terms;
    cp_pm_term terms[CP_PM_MAX_TERMS];
    double coef[CP_PM_MAX_TERMS];
    const struct cp_pm_fit *donor; /* borrowed, from cp_pm_opts */
    int samples, configs, sizes;
    bool nested; /* model.loco_* repeated the term search in every fold */
    double min_input_gb, max_input_gb;
    cp_pm_stats model;  /* this model */
    cp_pm_stats ernest; /* plain Ernest (cp_ernest_fit's optimum) on the same folds */
} cp_pm_fit;

/* Fits one group of n runs: m > 0, input_gb >= 0, seconds > 0, and np
 * parameter values per run in P (row-major n x np, finite). */
int cp_pm_fit_group(const double *m, const double *input_gb, const double *seconds,
                    const double *P, int n, int np, const cp_pm_opts *o, cp_pm_fit *out,
                    cp_err *err);

/* The Ernest θ of one concrete job: `pv` holds the caller's np parameter
 * values (only the fit's varying ones are read; `names` name them in
 * messages), input_gb > 0. Returns
 * CP_OK, or CP_ERR_INPUT when a log factor needs a value <= 0 (message in
 * err). *clamped (may be NULL) is set when a θ came out negative (a
 * parameter outside the measured range) and was set to 0. */
int cp_pm_theta(const cp_pm_fit *f, const double *pv, const char *const *names, double input_gb,
                double theta[4], bool *clamped, cp_err *err);

/* Predicted seconds at m machines, input_gb s and the caller's values P. */
double cp_pm_predict(const cp_pm_fit *f, double m, double s, const double *P);

/* The term as text, e.g. "k*input_gb/m" or "ln(p_max/p)*ln m", with the
 * caller's parameter names; the donor term is "t[DONOR]". */
void cp_pm_term_name(const cp_pm_fit *f, const cp_pm_term *t, const char *const *names,
                     const char *donor, char *out, int size);

#endif
