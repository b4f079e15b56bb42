/*
 * Solutions from outside: a solution of the exported MILP (`plan
 * --export-lp`) written by glpsol (`-w FILE`) or CBC (`solu FILE`), or a
 * plan file without node ids (any tool's), read into a cp_plan's choices
 * so that `capplan place` can pack, repair and write it (docs/place.md).
 *
 * The exported model names its columns by index (milp_model.c,
 * name_model): x_J_M_S (job J runs global mode M from slot S), drop_J,
 * y_R_T (instances of market R in slot T) and fixed_cost. CBC's file
 * carries the names; glpsol's numbers the columns as its LP reader did,
 * which cp_milp_lp_columns reproduces by reading the model back with
 * GLPK's own reader. A solution that does not fit the inputs' model is an
 * error with its position (an unknown variable, a fractional x, a job
 * with two x's at 1, a column count that differs).
 */
#ifndef CP_SOLUTION_H
#define CP_SOLUTION_H

#include "cp_plan.h"

typedef enum cp_sol_format {
    CP_SOL_AUTO,   /* by the file's first line */
    CP_SOL_GLPSOL, /* glpsol -w: GLPK's plain-text solution (mip, bas or ipt) */
    CP_SOL_CBC,    /* CBC's solu: a status line, then index, name, value, cost */
    CP_SOL_PLAN    /* a plan file (YAML or JSON, capplan.5 §5); `nodes` are ignored */
} cp_sol_format;

/* What the file says beside the values. */
typedef struct cp_solution {
    cp_sol_format format; /* as detected */
    bool optimal;         /* the solver says it proved the solution optimal */
    bool infeasible;      /* no feasible plan exists (capplan.5 §3): the solver says so, or the
                           * solution breaks a power cap or the budget that dropping
                           * every job breaks too; the choices are all drops */
    double objective;     /* the file's objective value, NAN when it has none */
    char status[96]; /* the solver's status in its words ("INTEGER OPTIMAL", "Stopped on time") */
} cp_solution;

/* "glpsol", "cbc", "plan" ("auto" for CP_SOL_AUTO). */
const char *cp_sol_format_name(cp_sol_format f);

/* Reads the solution in `path` (borrowed: positions point at it) in
 * format `fmt` into plan's choices: mode and start per job (-1: dropped),
 * y per market and slot; plan's units are not set (placed is false).
 * Markets a plan file does not list get the fewest instances that hold
 * its jobs. Errors (CP_ERR_INPUT, each FILE:LINE:COL where the file has
 * a line) and warnings (an objective that is not the choices' total) go
 * to `d`; returns CP_OK, CP_ERR_INPUT or CP_ERR_NOMEM. A solver's word
 * that the model is infeasible is checked: dropping every job must be
 * infeasible too (the model always allows it). */
int cp_solution_read(const cp_input *in, const cp_modeset *ms, const char *path, cp_sol_format fmt,
                     cp_plan *plan, cp_solution *info, cp_diags *d);

/* The exported model's column names in the order GLPK's LP reader (and
 * so glpsol) numbers them, and its row count (milp_model.c). */
typedef struct cp_lp_names {
    char **name; /* [n]: column ord - 1 */
    int n;
    int rows;
} cp_lp_names;
int cp_milp_lp_columns(const cp_input *in, const cp_modeset *ms, cp_lp_names *out, cp_err *err);
void cp_lp_names_release(cp_lp_names *l);

/* CBC's solution file (`-solution FILE`, `solu FILE`), the one reader of
 * it for `place` and the CBC engine (mip_cbc.c): its first line "STATUS -
 * objective value OBJ" gives status (the words before " - ", at most
 * size - 1 bytes) and *objective (NAN when it has none); then, when fn
 * is not NULL, fn(ctx, NAME, VALUE, LINE, COL) for each column line
 * "[**] INDEX NAME VALUE COST", with NAME NULL for a line that is not
 * one, until fn returns non-zero. The text is cut into lines in place
 * when fn is given, left as it is otherwise. Returns 0, or 1 when the
 * first line is not CBC's. */
typedef int cp_cbc_var_fn(void *ctx, const char *name, double value, int line, int col);
int cp_cbc_solu_parse(char *text, size_t len, char *status, size_t size, double *objective,
                      cp_cbc_var_fn *fn, void *ctx);

#endif
