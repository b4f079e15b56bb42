/*
 * Reading a solution from outside into a plan's choices (cp_solution.h):
 * glpsol's -w file, CBC's solu file or a plan file without node ids.
 *
 * The two solver formats end in the same place: each value goes with its
 * column's name to one setter (set_var), which parses the name
 * (x_J_M_S, drop_J, y_R_T, fixed_cost), checks it against the modeset
 * (the job exists, the mode is one of its modes, the start in the mode's
 * window, the market and slot exist) and the value against the column's
 * kind (x and drop 0 or 1, y a whole number >= 0, within 1e-6), and
 * records it with the line it came from, so "two x's at 1" can name both
 * lines. Every problem is reported, up to the diagnostics' cap, not only
 * the first. A plan file goes through the one plan reader (cp_plan_read)
 * and is matched to modes by resource, market and count, then by
 * shape, accelerator, cpus and memory_gb when several modes share those.
 *
 * Services' columns and a plan's `services` are read in solution_svc.c.
 * The choices are then checked as a whole: every job ends with one mode
 * or a drop, and the plan must be feasible in aggregate (capplan.5 §3), which
 * any solution of the model is; a solver's objective that is not the
 * choices' total is a warning (a solution of other inputs, most likely).
 * Plan files are read in solution_plan.c.
 */
#include "solution_internal.h"

#include "cp_alloc.h"
#include "cp_file.h"
#include "cp_num.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* how far from 0, 1 or a whole number a value may be */
#define SOL_INT_TOL 1e-6

const char *cp_sol_format_name(cp_sol_format f)
{
    switch (f) {
    case CP_SOL_GLPSOL:
        return "glpsol";
    case CP_SOL_CBC:
        return "cbc";
    case CP_SOL_PLAN:
        return "plan";
    default:
        return "auto";
    }
}

cp_pos cp_sol_at(const sol *c, int line, int col)
{
    cp_pos p = {c->path, line, col};
    return p;
}

/* " (line N)" for a line > 0, else "" */
static const char *line_note(char *buf, size_t size, int line)
{
    if (line > 0)
        snprintf(buf, size, " (line %d)", line);
    else
        buf[0] = '\0';
    return buf;
}

static bool is_row_name(const char *s)
{
    return !strncmp(s, "assign_", 7) || !strncmp(s, "cap_", 4) || !strncmp(s, "power_", 6) ||
           !strcmp(s, "budget") || !strcmp(s, "fixed");
}

/* The value as a whole number when it is one within SOL_INT_TOL. */
static bool whole(double v, long *out)
{
    if (!isfinite(v) || fabs(v - round(v)) > SOL_INT_TOL)
        return false;
    return cp_num_is_whole(round(v), -1000000000L, 1000000000L, out);
}

/* A value of a 0/1 column: true with *one set, or false with an error. */
static bool binary(sol *c, const char *name, double v, cp_pos pos, bool *one)
{
    long k;
    if (!whole(v, &k) || k < 0 || k > 1) {
        cp_diags_add(c->d, CP_ERR_INPUT, pos,
                     "%s is %.10g, not 0 or 1: place needs an integer solution (not one of the LP "
                     "relaxation)",
                     name, v);
        return false;
    }
    *one = k == 1;
    return true;
}

static void set_x(sol *c, const char *name, const long *v, double val, cp_pos pos)
{
    const cp_input *in = c->in;
    const cp_modeset *ms = c->ms;
    if (v[0] >= in->n_jobs) {
        cp_diags_add(c->d, CP_ERR_INPUT, pos, "%s: no job %ld (the inputs have %d job%s)", name,
                     v[0], in->n_jobs, in->n_jobs == 1 ? "" : "s");
        return;
    }
    int j = (int)v[0];
    const char *jn = in->jobs[j].name;
    if (v[1] < ms->job_first[j] || v[1] >= ms->job_first[j + 1]) {
        if (ms->job_first[j] == ms->job_first[j + 1])
            cp_diags_add(c->d, CP_ERR_INPUT, pos, "%s: job %d '%s' has no mode", name, j, jn);
        else
            cp_diags_add(c->d, CP_ERR_INPUT, pos,
                         "%s: mode %ld is not a mode of job %d '%s' (its modes are %d..%d)", name,
                         v[1], j, jn, ms->job_first[j], ms->job_first[j + 1] - 1);
        return;
    }
    const cp_mode *m = &ms->modes[v[1]];
    if (v[2] < m->s_min || v[2] > m->s_max) {
        cp_diags_add(c->d, CP_ERR_INPUT, pos,
                     "%s: start slot %ld is outside the window %d..%d of mode %ld of job '%s'",
                     name, v[2], m->s_min, m->s_max, v[1], jn);
        return;
    }
    bool one;
    if (!binary(c, name, val, pos, &one) || !one)
        return;
    char note[32];
    if (c->x_line[j] >= 0) {
        cp_plan *p = c->plan;
        if (p->mode[j] == v[1] && p->start[j] == v[2])
            cp_diags_add(c->d, CP_ERR_INPUT, pos, "variable '%s' is given twice%s", name,
                         line_note(note, sizeof note, c->x_line[j]));
        else
            cp_diags_add(c->d, CP_ERR_INPUT, pos,
                         "job '%s' runs twice: %s and x_%d_%d_%d%s are both 1", jn, name, j,
                         p->mode[j], p->start[j], line_note(note, sizeof note, c->x_line[j]));
        return;
    }
    c->x_line[j] = pos.line;
    c->plan->mode[j] = (int)v[1];
    c->plan->start[j] = (int)v[2];
}

static void set_var(sol *c, const char *name, double val, cp_pos pos)
{
    const cp_input *in = c->in;
    const cp_modeset *ms = c->ms;
    long v[3];
    char note[32];
    if (!isfinite(val)) {
        cp_diags_add(c->d, CP_ERR_INPUT, pos, "%s: the value is not a finite number", name);
        return;
    }
    if (!strncmp(name, "x_", 2) && cp_sol_parse_ints(name + 2, 3, v)) {
        set_x(c, name, v, val, pos);
    } else if (!strncmp(name, "drop_", 5) && cp_sol_parse_ints(name + 5, 1, v)) {
        bool one;
        if (v[0] >= in->n_jobs)
            cp_diags_add(c->d, CP_ERR_INPUT, pos, "%s: no job %ld (the inputs have %d job%s)", name,
                         v[0], in->n_jobs, in->n_jobs == 1 ? "" : "s");
        else if (binary(c, name, val, pos, &one) && one) {
            if (c->drop_line[v[0]] >= 0)
                cp_diags_add(c->d, CP_ERR_INPUT, pos, "variable '%s' is given twice%s", name,
                             line_note(note, sizeof note, c->drop_line[v[0]]));
            else
                c->drop_line[v[0]] = pos.line;
        }
    } else if (!strncmp(name, "y_", 2) && cp_sol_parse_ints(name + 2, 2, v)) {
        long k;
        if (v[0] >= ms->n_res)
            cp_diags_add(c->d, CP_ERR_INPUT, pos, "%s: no resource %ld (the inputs have %d)", name,
                         v[0], ms->n_res);
        else if (ms->res[v[0]].kind == CP_RES_POOL)
            cp_diags_add(c->d, CP_ERR_INPUT, pos, "%s: resource %ld '%s' is a pool, not a market",
                         name, v[0], ms->res[v[0]].name);
        else if (v[1] >= in->slots)
            cp_diags_add(c->d, CP_ERR_INPUT, pos, "%s: no slot %ld (the horizon has %d slot%s)",
                         name, v[1], in->slots, in->slots == 1 ? "" : "s");
        else if (!whole(val, &k) || k < 0)
            cp_diags_add(c->d, CP_ERR_INPUT, pos,
                         "%s is %.10g, not a whole number of instances >= 0", name, val);
        else {
            int *yl = &c->y_line[(size_t)v[0] * in->slots + v[1]];
            if (*yl >= 0)
                cp_diags_add(c->d, CP_ERR_INPUT, pos, "variable '%s' is given twice%s", name,
                             line_note(note, sizeof note, *yl));
            *yl = pos.line;
            *cp_plan_y(c->plan, (int)v[0], (int)v[1]) = (int)k;
        }
    } else if (!strcmp(name, "fixed_cost")) {
        if (fabs(val - 1) > SOL_INT_TOL)
            cp_diags_add(c->d, CP_ERR_INPUT, pos,
                         "fixed_cost is %.10g, but the model fixes it at 1", val);
        c->fixed_line = pos.line;
    } else if (!is_row_name(name) && !cp_sol_svc_row(name) && !cp_sol_svc_var(c, name, val, pos)) {
        cp_diags_add(c->d, CP_ERR_INPUT, pos,
                     "unknown variable '%s': the model's columns are x_J_M_S, drop_J, y_R_T and "
                     "fixed_cost%s",
                     name, c->in->n_services ? ", with n_D_T, f_I_T, u_V_K_T and start_D_T" : "");
    }
}

/* ---- line-based formats ---------------------------------------------------- */

typedef struct lines {
    char *s; /* the text, cut into lines in place */
    size_t len;
    size_t off; /* start of the next line */
    int no;     /* number of the current line */
} lines;

/* The next line (without its newline, NUL-terminated in place), NULL at the end. */
static char *next_line(lines *l)
{
    if (l->off >= l->len)
        return NULL;
    char *s = l->s + l->off;
    char *nl = memchr(s, '\n', l->len - l->off);
    size_t n = nl ? (size_t)(nl - s) : l->len - l->off;
    s[n] = '\0';
    if (n && s[n - 1] == '\r')
        s[n - 1] = '\0';
    l->off += n + 1;
    l->no++;
    return s;
}

/* Splits s at blanks into at most max tokens; returns the count, 0 for a
 * line of blanks (tok[0] is then not set), max + 1 when more follow (only
 * max are set). col[i] is the 1-based column of token i. */
static int tokens(char *s, char **tok, int *col, int max)
{
    int n = 0;
    char *p = s;
    while (*p && n < max) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        tok[n] = p;
        col[n++] = (int)(p - s) + 1;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        if (*p)
            *p++ = '\0';
    }
    while (*p == ' ' || *p == '\t')
        p++;
    return *p ? max + 1 : n;
}

static bool num(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return end != s && *end == '\0';
}

static bool count_tok(const char *s, long *v)
{
    return cp_sol_parse_ints(s, 1, v);
}

/* glpsol -w: "c" comments, one "s" line (mip, bas or ipt with the row and
 * column counts and the status), "i" rows, "j" columns, "e o f". */
static int read_glpsol(sol *c, lines *l)
{
    cp_lp_names nm = {NULL, 0, 0};
    cp_err err;
    cp_err_init(&err);
    int rc = cp_milp_lp_columns(c->in, c->ms, &nm, &err);
    if (rc) {
        cp_diags_add_err(c->d, &err);
        return rc;
    }
    enum { K_NONE, K_MIP, K_BAS, K_IPT } kind = K_NONE;
    char *line, *tok[8];
    int col[8];
    bool ended = false;
    while ((line = next_line(l)) && !cp_diags_full(c->d)) {
        /* a line of blanks is blank, a comment is its first word 'c' */
        if (line[0] == 'c' && (line[1] == ' ' || !line[1]))
            continue;
        int n = tokens(line, tok, col, 7);
        if (n == 0)
            continue;
        cp_pos pos = cp_sol_at(c, l->no, 1);
        if (ended) {
            cp_diags_add(c->d, CP_ERR_INPUT, pos, "text after the end line 'e o f'");
            break;
        }
        if (!strcmp(tok[0], "s")) {
            long rows, cols;
            double obj;
            int want = n >= 2 && !strcmp(tok[1], "bas") ? 7 : 6;
            if (kind != K_NONE) {
                cp_diags_add(c->d, CP_ERR_INPUT, pos, "a second 's' line");
                break;
            }
            if (n != want ||
                (strcmp(tok[1], "mip") && strcmp(tok[1], "bas") && strcmp(tok[1], "ipt")) ||
                !count_tok(tok[2], &rows) || !count_tok(tok[3], &cols) || !num(tok[n - 1], &obj)) {
                cp_diags_add(c->d, CP_ERR_INPUT, pos,
                             "not a glpsol solution line: expected 's mip ROWS COLS STATUS OBJ' "
                             "(or bas, ipt)");
                break;
            }
            kind = tok[1][0] == 'm' ? K_MIP : tok[1][0] == 'b' ? K_BAS : K_IPT;
            if (rows != nm.rows || cols != nm.n) {
                cp_diags_add(
                    c->d, CP_ERR_INPUT, cp_sol_at(c, l->no, col[2]),
                    "the solution has %ld rows and %ld columns, the model of these inputs %d and "
                    "%d: a solution of another model?",
                    rows, cols, nm.rows, nm.n);
                break;
            }
            c->info->objective = obj;
            char st = tok[4][0];
            if (kind == K_MIP) {
                c->info->optimal = st == 'o';
                snprintf(c->info->status, sizeof c->info->status, "%s",
                         st == 'o'   ? "INTEGER OPTIMAL"
                         : st == 'f' ? "INTEGER FEASIBLE"
                         : st == 'n' ? "INTEGER EMPTY"
                                     : "INTEGER UNDEFINED");
            } else {
                char dst = kind == K_BAS ? tok[5][0] : st;
                c->info->optimal =
                    st == (kind == K_BAS ? 'f' : 'o') && dst == (kind == K_BAS ? 'f' : 'o');
                snprintf(c->info->status, sizeof c->info->status, "%s",
                         c->info->optimal ? "OPTIMAL"
                         : st == 'n'      ? "EMPTY"
                         : st == 'f'      ? "FEASIBLE"
                                          : "UNDEFINED");
            }
            if (st == 'n') {
                c->info->infeasible = true;
                break;
            }
            if (st != 'o' && st != 'f') {
                cp_diags_add(c->d, CP_ERR_INPUT, cp_sol_at(c, l->no, col[4]),
                             "glpsol found no solution (status '%s'): nothing to place", tok[4]);
                break;
            }
        } else if (!strcmp(tok[0], "i")) {
            continue; /* rows: their activities follow from the columns */
        } else if (!strcmp(tok[0], "j")) {
            int want = kind == K_MIP ? 3 : kind == K_BAS ? 5 : 4;
            long ord;
            double v;
            if (kind == K_NONE) {
                cp_diags_add(c->d, CP_ERR_INPUT, pos, "a column before the 's' line");
                break;
            }
            if (n != want || !count_tok(tok[1], &ord) || !num(tok[kind == K_BAS ? 3 : 2], &v)) {
                cp_diags_add(c->d, CP_ERR_INPUT, pos, "not a glpsol column line: expected '%s'",
                             kind == K_MIP   ? "j ORD VALUE"
                             : kind == K_BAS ? "j ORD STAT PRIM DUAL"
                                             : "j ORD PRIM DUAL");
                continue;
            }
            if (ord < 1 || ord > nm.n) {
                cp_diags_add(c->d, CP_ERR_INPUT, cp_sol_at(c, l->no, col[1]),
                             "no column %ld (the model has %d)", ord, nm.n);
                continue;
            }
            set_var(c, nm.name[ord - 1], v, cp_sol_at(c, l->no, col[1]));
        } else if (!strcmp(tok[0], "e") && n == 3 && !strcmp(tok[1], "o") && !strcmp(tok[2], "f")) {
            ended = true;
        } else {
            cp_diags_add(c->d, CP_ERR_INPUT, pos,
                         "unexpected line: glpsol's -w file has lines c, s, i, j and 'e o f'");
            break;
        }
    }
    if (kind == K_NONE && !c->d->worst)
        cp_diags_add(c->d, CP_ERR_INPUT, cp_sol_at(c, l->no, 0),
                     "no 's' line: not a glpsol -w solution");
    cp_lp_names_release(&nm);
    return c->d->worst;
}

/* CBC's solu: "STATUS - objective value OBJ", then per column "[**] INDEX
 * NAME VALUE COST" (** marks a value CBC itself found infeasible). */
int cp_cbc_solu_parse(char *text, size_t len, char *status, size_t size, double *objective,
                      cp_cbc_var_fn *fn, void *ctx)
{
    /* the first line is read from a copy: without fn the text is left as it is */
    char first[256];
    const char *nl = memchr(text, '\n', len);
    size_t fl = nl ? (size_t)(nl - text) : len;
    fl = fl < sizeof first - 1 ? fl : sizeof first - 1;
    memcpy(first, text, fl);
    first[fl] = '\0';
    const char *sep = strstr(first, " - objective value");
    *objective = NAN;
    if (size)
        status[0] = '\0';
    if (!sep)
        return 1;
    size_t n = (size_t)(sep - first);
    snprintf(status, size, "%.*s", (int)(n < 90 ? n : 90), first);
    double obj;
    char *p = (char *)sep + strlen(" - objective value");
    while (*p == ' ')
        p++;
    size_t e = strlen(p);
    while (e && (p[e - 1] == '\r' || p[e - 1] == ' '))
        p[--e] = '\0';
    if (num(p, &obj))
        *objective = obj;
    if (!fn)
        return 0;
    lines l = {text, len, 0, 0};
    char *line = next_line(&l);
    char *tok[8];
    int col[8];
    while ((line = next_line(&l))) {
        int k = tokens(line, tok, col, 6);
        if (k == 0)
            continue;
        int o = !strcmp(tok[0], "**");
        long idx;
        double v;
        bool ok = (k == 4 + o || k == 3 + o) && count_tok(tok[o], &idx) && num(tok[o + 2], &v);
        if (fn(ctx, ok ? tok[o + 1] : NULL, ok ? v : 0, l.no, ok ? col[o + 1] : 1))
            break;
    }
    return 0;
}

static int cbc_var(void *ctx, const char *name, double v, int line, int col)
{
    sol *c = ctx;
    if (!name)
        cp_diags_add(c->d, CP_ERR_INPUT, cp_sol_at(c, line, 1),
                     "not a CBC solution line: expected 'INDEX NAME VALUE COST'");
    else
        set_var(c, name, v, cp_sol_at(c, line, col));
    return cp_diags_full(c->d);
}

static int read_cbc(sol *c, lines *l)
{
    if (cp_cbc_solu_parse(l->s, l->len, c->info->status, sizeof c->info->status,
                          &c->info->objective, NULL, NULL) != 0) {
        cp_diags_add(c->d, CP_ERR_INPUT, cp_sol_at(c, 1, 1),
                     "not a CBC solution: its first line is 'STATUS - objective value X'");
        return CP_ERR_INPUT;
    }
    const char *st = c->info->status;
    if (strstr(st, "nfeasible")) {
        c->info->infeasible = true;
        return CP_OK;
    }
    if (strstr(st, "no integer solution") || strstr(st, "nbounded")) {
        cp_diags_add(c->d, CP_ERR_INPUT, cp_sol_at(c, 1, 1),
                     "CBC found no integer solution ('%s'): nothing to place", st);
        return CP_ERR_INPUT;
    }
    c->info->optimal = !strncmp(st, "Optimal", 7);
    cp_cbc_solu_parse(l->s, l->len, c->info->status, sizeof c->info->status, &c->info->objective,
                      cbc_var, c);
    return c->d->worst;
}

/* ---- the whole ------------------------------------------------------------- */

static cp_sol_format detect(const char *text, size_t len)
{
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
        i++;
    const char *s = text + i;
    if ((s[0] == 'c' || s[0] == 's') && (s[1] == ' ' || s[1] == '\n'))
        return CP_SOL_GLPSOL;
    const char *nl = memchr(s, '\n', len - i);
    size_t n = nl ? (size_t)(nl - s) : len - i;
    static const char sep[] = " - objective value";
    for (size_t k = 0; k + sizeof sep - 1 <= n; k++)
        if (!memcmp(s + k, sep, sizeof sep - 1))
            return CP_SOL_CBC;
    return CP_SOL_PLAN;
}

/* Drops every job and says whether that plan is feasible: it is the
 * least loaded and cheapest plan for the power caps and the budget, so
 * when it is not, no plan is (capplan.5 §4: the baseline alone breaks them). */
static bool drop_all_feasible(sol *c)
{
    cp_plan *p = c->plan;
    for (int j = 0; j < p->n_jobs; j++)
        p->mode[j] = -1;
    cp_plan_min_instances(p); /* none, but for the solution's replicas (capplan.5 §10.4) */
    return cp_plan_is_feasible(p, NULL, 0);
}

/* Every job has one mode or a drop; the choices are feasible in aggregate;
 * the file's objective is their total. */
static void check_whole(sol *c)
{
    const cp_input *in = c->in;
    cp_plan *p = c->plan;
    char note[32];
    for (int j = 0; j < in->n_jobs; j++)
        if (c->drop_line[j] >= 0 && c->x_line[j] >= 0)
            cp_diags_add(c->d, CP_ERR_INPUT, cp_sol_at(c, c->drop_line[j], 0),
                         "job '%s' is both dropped (drop_%d) and scheduled (x_%d_%d_%d%s)",
                         in->jobs[j].name, j, j, p->mode[j], p->start[j],
                         line_note(note, sizeof note, c->x_line[j]));
    if (c->d->worst)
        return;
    char why[512];
    if (!cp_plan_is_feasible(p, why, sizeof why)) {
        if (!drop_all_feasible(c))
            c->info->infeasible = true; /* nothing is: the inputs' fault, not the solution's */
        else
            cp_diags_add(c->d, CP_ERR_INPUT, cp_sol_at(c, 0, 0), "the solution is not feasible: %s",
                         why);
        return;
    }
    if (isnan(c->info->objective))
        return;
    cp_plan_figures f;
    cp_err err;
    cp_err_init(&err);
    if (cp_plan_eval(p, &f, &err))
        return;
    double o = c->info->objective;
    if (fabs(f.costs.total - o) > 1e-6 * (1 + fabs(f.costs.total)))
        cp_diags_warn(
            c->d, cp_sol_at(c, 0, 0),
            "the solution's objective %.10g is not the total of its choices, %.10g: is it a "
            "solution of the model of these inputs?",
            o, f.costs.total);
    cp_plan_figures_release(&f);
}

int cp_solution_read(const cp_input *in, const cp_modeset *ms, const char *path, cp_sol_format fmt,
                     cp_plan *plan, cp_solution *info, cp_diags *d)
{
    memset(info, 0, sizeof *info);
    info->objective = NAN;
    char *text = NULL;
    size_t len = 0;
    cp_err err;
    cp_err_init(&err);
    int rc = cp_file_read(path, "solution", &text, &len, &err);
    if (rc) {
        cp_diags_add_err(d, &err);
        return rc;
    }
    sol c = {in, ms, plan, info, d, path, NULL, NULL, NULL, -1};
    size_t nj = (size_t)(in->n_jobs ? in->n_jobs : 1),
           ny = (size_t)(ms->n_res ? ms->n_res : 1) * in->slots;
    c.x_line = cp_malloc(nj * sizeof *c.x_line);
    c.drop_line = cp_malloc(nj * sizeof *c.drop_line);
    c.y_line = cp_malloc(ny * sizeof *c.y_line);
    if (!c.x_line || !c.drop_line || !c.y_line) {
        rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
        goto out;
    }
    for (size_t j = 0; j < nj; j++)
        c.x_line[j] = c.drop_line[j] = -1;
    for (size_t k = 0; k < ny; k++)
        c.y_line[k] = -1;
    for (int j = 0; j < in->n_jobs; j++)
        plan->mode[j] = -1;
    memset(plan->y, 0, ny * sizeof *plan->y);
    memset(plan->svc_n, 0, (size_t)ms->n_deps * in->slots * sizeof *plan->svc_n);
    memset(plan->svc_f, 0, (size_t)ms->n_shares * in->slots * sizeof *plan->svc_f);
    memset(plan->svc_u, 0, (size_t)ms->n_classes * in->slots * sizeof *plan->svc_u);
    plan->placed = plan->pool_units = false;
    info->format = fmt == CP_SOL_AUTO ? detect(text, len) : fmt;
    lines l = {text, len, 0, 0};
    if (info->format == CP_SOL_GLPSOL)
        rc = read_glpsol(&c, &l);
    else if (info->format == CP_SOL_CBC)
        rc = read_cbc(&c, &l);
    else
        rc = cp_sol_read_plan(&c, text, len);
    if (rc == CP_OK && !d->worst)
        cp_sol_svc_close(&c);
    if (rc == CP_OK && !d->worst && !info->infeasible)
        check_whole(&c);
    else if (rc == CP_OK && !d->worst && drop_all_feasible(&c))
        cp_diags_add(d, CP_ERR_INPUT, cp_sol_at(&c, 0, 0),
                     "the solution says no feasible plan exists ('%s'), but dropping every job is "
                     "one: is it a solution of the model of these inputs?",
                     info->status);
    rc = rc ? rc : d->worst;
out:
    cp_free(c.x_line);
    cp_free(c.drop_line);
    cp_free(c.y_line);
    cp_free(text);
    return rc;
}
