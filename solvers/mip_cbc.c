/*
 * CBC as a MIP engine, run as a separate program (cp_mip.h). capplan is
 * GPL-3.0-or-later because it links GLPK; Debian's CBC (coinor-cbc) is
 * EPL-1.0, which is not GPL-compatible, so the two are never linked into
 * one binary: capplan writes the model to a file, runs `cbc` on it
 * (cp_proc_run: no shell, its own process group, ended on a stop or when
 * its time is up) and reads the solution file back with the reader
 * `place` uses (cp_cbc_solu_parse). Nothing of CBC's is compiled in.
 *
 * Why a file format and not a library: the MPS file is CBC's own input,
 * the same bytes for the same model, so a sub-MIP that misbehaves can be
 * kept (CAPPLAN_CBC_KEEP=DIR copies every model there) and solved again
 * by hand. Free MPS, not CPLEX LP: one coefficient per line, so no line
 * comes near the ~2,000 bytes at which CBC's LP reader aborts, and every
 * number is written so that it reads back as the same double.
 *
 * Reproducible: one thread (`-threads 0`: CBC's serial code; 1 would start
 * a worker thread beside the main one), fixed random seeds, a node limit.
 * The clock (`-sec`, and the SIGTERM after it) only cuts a solve short, as
 * GLPK's deadline does.
 */
#include "cp_mip.h"

#include "cp_solution.h"
#include "cp_solver.h"

#include "cp_alloc.h"
#include "cp_buf.h"
#include "cp_file.h"
#include "cp_num.h"
#include "cp_proc.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* seconds the program may run past its -sec before it is ended (it looks
 * at the clock between nodes; a time limit is kept within about this) */
#define CBC_GUARD 1.0

const char *cp_mip_engine_name(cp_mip_engine e)
{
    return e == CP_MIP_CBC ? "cbc" : "glpk";
}

cp_mip_engine cp_mip_engine_auto(void)
{
    return cp_proc_find("cbc", NULL, 0) ? CP_MIP_CBC : CP_MIP_GLPK;
}

static void put_num(cp_buf *b, double v)
{
    cp_buf_putc(b, ' ');
    cp_buf_num_exact(b, v);
}

/* The model in free MPS: rows rK, columns cK, integer columns between
 * MARKER lines, every bound written out (readers differ on the default
 * upper bound of an integer column). */
static int write_mps(const cp_mip *m, cp_buf *b)
{
    size_t nc = (size_t)m->n_cols + 2;
    size_t *first = cp_calloc(nc, sizeof *first), *pos = cp_calloc(nc, sizeof *pos);
    size_t *at = cp_malloc((m->nnz ? m->nnz : 1) * sizeof *at);
    if (!first || !pos || !at) {
        cp_free(first);
        cp_free(pos);
        cp_free(at);
        return -1;
    }
    /* the triplets by column, in their order within a column */
    for (size_t k = 1; k <= m->nnz; k++)
        first[m->ja[k] + 1]++;
    for (int c = 1; c <= m->n_cols + 1; c++)
        first[c] += first[c - 1];
    memcpy(pos, first, nc * sizeof *pos);
    for (size_t k = 1; k <= m->nnz; k++)
        at[pos[m->ja[k]]++] = k;
    cp_buf_puts(b, "NAME capplan FREE\nROWS\n N obj\n");
    for (int r = 1; r <= m->n_rows; r++) {
        double lo = m->row_lo[r], hi = m->row_hi[r];
        char t = lo == hi ? 'E' : isinf(lo) ? 'L' : isinf(hi) ? 'G' : 'L';
        cp_buf_printf(b, " %c r%d\n", t, r);
    }
    cp_buf_puts(b, "COLUMNS\n");
    bool in_int = false;
    for (int c = 1; c <= m->n_cols; c++) {
        if (m->col_int[c] != in_int) {
            cp_buf_printf(b, " MARKER 'MARKER' '%s'\n", in_int ? "INTEND" : "INTORG");
            in_int = m->col_int[c];
        }
        cp_buf_printf(b, " c%d obj", c);
        put_num(b, m->obj[c]);
        cp_buf_putc(b, '\n');
        for (size_t q = first[c]; q < first[c + 1]; q++) {
            size_t k = at[q];
            cp_buf_printf(b, " c%d r%d", c, m->ia[k]);
            put_num(b, m->ar[k]);
            cp_buf_putc(b, '\n');
        }
    }
    if (in_int)
        cp_buf_puts(b, " MARKER 'MARKER' 'INTEND'\n");
    cp_buf_puts(b, "RHS\n");
    for (int r = 1; r <= m->n_rows; r++) {
        double lo = m->row_lo[r], hi = m->row_hi[r];
        double v = isinf(hi) ? (isinf(lo) ? 1e30 : lo) : hi;
        if (v != 0) {
            cp_buf_printf(b, " rhs r%d", r);
            put_num(b, v);
            cp_buf_putc(b, '\n');
        }
    }
    bool ranges = false;
    for (int r = 1; r <= m->n_rows; r++) {
        double lo = m->row_lo[r], hi = m->row_hi[r];
        if (isinf(lo) || isinf(hi) || lo == hi)
            continue;
        if (!ranges)
            cp_buf_puts(b, "RANGES\n");
        ranges = true;
        cp_buf_printf(b, " rng r%d", r);
        put_num(b, hi - lo);
        cp_buf_putc(b, '\n');
    }
    cp_buf_puts(b, "BOUNDS\n");
    for (int c = 1; c <= m->n_cols; c++) {
        double lo = m->col_lo[c], hi = m->col_hi[c];
        if (lo == hi) {
            cp_buf_printf(b, " FX bnd c%d", c);
            put_num(b, lo);
            cp_buf_putc(b, '\n');
            continue;
        }
        if (isinf(lo))
            cp_buf_printf(b, " MI bnd c%d\n", c);
        else if (lo != 0) {
            cp_buf_printf(b, " LO bnd c%d", c);
            put_num(b, lo);
            cp_buf_putc(b, '\n');
        }
        if (isinf(hi))
            cp_buf_printf(b, " PL bnd c%d\n", c);
        else {
            cp_buf_printf(b, " UP bnd c%d", c);
            put_num(b, hi);
            cp_buf_putc(b, '\n');
        }
    }
    cp_buf_puts(b, "ENDATA\n");
    cp_free(first);
    cp_free(pos);
    cp_free(at);
    return 0;
}

/* The start in CBC's own solution layout (what -mipStart reads). */
static void write_start(const cp_mip *m, cp_buf *b)
{
    double obj = 0;
    for (int c = 1; c <= m->n_cols; c++)
        obj += m->obj[c] * m->start[c];
    cp_buf_puts(b, "Feasible - objective value");
    put_num(b, obj);
    cp_buf_putc(b, '\n');
    for (int c = 1; c <= m->n_cols; c++) {
        if (m->start[c] == 0)
            continue;
        cp_buf_printf(b, "%d c%d", c - 1, c);
        put_num(b, m->start[c]);
        put_num(b, m->obj[c]);
        cp_buf_putc(b, '\n');
    }
}

static int write_file(const char *path, const cp_buf *b, cp_err *err)
{
    if (!cp_buf_ok(b))
        return cp_err_nomem(err);
    FILE *f = fopen(path, "w");
    if (!f)
        return cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot write '%s': %s", path,
                          strerror(errno));
    bool ok = fwrite(b->s, 1, b->len, f) == b->len;
    ok &= fclose(f) == 0;
    if (!ok)
        return cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot write '%s': %s", path,
                          strerror(errno));
    return CP_OK;
}

typedef struct sol_ctx {
    double *x;
    int n_cols;
    bool bad;
} sol_ctx;

static int take_var(void *ctx, const char *name, double v, int line, int col)
{
    (void)line;
    (void)col;
    sol_ctx *s = ctx;
    char *end;
    long c = name && name[0] == 'c' ? strtol(name + 1, &end, 10) : 0;
    if (!name || c < 1 || c > s->n_cols || *end) {
        s->bad = true;
        return 1;
    }
    s->x[c] = v;
    return 0;
}

/* A number after `key` on a line of the log, NAN when none. */
static double log_num(const char *log, const char *key)
{
    const char *p = NULL, *q = log;
    while ((q = strstr(q, key)))
        p = q++;
    if (!p)
        return NAN;
    char *end;
    double v = strtod(p + strlen(key), &end);
    return end == p + strlen(key) ? NAN : v;
}

/* The bound in CBC's log: its last "best possible" (the end of the
 * search, Cbc0005I), printed with 8 significant digits, where the closing
 * "Lower bound:" has 6 or 7 (157.749 for an optimum of 157.7485595, which
 * that figure is above). Either is rounded, up as often as down: lowered
 * by more than the rounding (1e-6 relative against half a unit in the 8th
 * digit, 1e-5 against the 7th), so it stays a bound. NAN when the log
 * has neither (docs/bounds.md). */
double cp_mip_cbc_log_bound(const char *log)
{
    double lb = log ? log_num(log, "best possible ") : NAN;
    if (!isnan(lb))
        return lb - 1e-6 * (1 + fabs(lb));
    lb = log ? log_num(log, "Lower bound:") : NAN;
    return isnan(lb) ? NAN : lb - 1e-5 * (1 + fabs(lb));
}

/* Reads CBC's solution file and its log into x and res. */
static int read_answer(const cp_mip *m, const char *path, const char *log, double gap,
                       double *x, cp_mip_result *res, cp_err *err)
{
    char *text = NULL;
    size_t len = 0;
    cp_err e2;
    cp_err_init(&e2);
    if (access(path, F_OK) != 0)
        return CP_OK; /* ended before it wrote one */
    int rc = cp_file_read(path, NULL, &text, &len, &e2);
    if (rc == CP_ERR_NOMEM)
        return cp_err_nomem(err);
    if (rc)
        return CP_OK;
    char status[96];
    double obj;
    double *v = cp_calloc((size_t)m->n_cols + 1, sizeof *v);
    if (!v) {
        cp_free(text);
        return cp_err_nomem(err);
    }
    sol_ctx s = {v, m->n_cols, false};
    if (cp_cbc_solu_parse(text, len, status, sizeof status, &obj, take_var, &s) == 0 && !s.bad) {
        if (strstr(status, "nfeasible"))
            res->status = CP_MIP_INFEASIBLE;
        else if (!strstr(status, "no integer solution") && !strstr(status, "nbounded") &&
                 !isnan(obj)) {
            res->status = !strncmp(status, "Optimal", 7) ? CP_MIP_OPTIMAL : CP_MIP_FEASIBLE;
            /* the file prints 8 decimals: the objective from the values */
            double o = 0;
            for (int c = 1; c <= m->n_cols; c++)
                o += m->obj[c] * v[c];
            res->objective = o;
            memcpy(x + 1, v + 1, (size_t)m->n_cols * sizeof *x);
        }
    }
    double lb = cp_mip_cbc_log_bound(log);
    if (res->status == CP_MIP_FEASIBLE && lb > res->objective)
        lb = res->objective;
    res->bound = res->status == CP_MIP_OPTIMAL ? res->objective : lb;
    if (res->status == CP_MIP_OPTIMAL && strstr(log, "Cbc0011I"))
        /* ended by -ratioGap: proved within the gap, not to the end */
        res->bound = res->objective - gap * fabs(res->objective) - 1e-9;
    double nodes = log_num(log, "Enumerated nodes:");
    res->nodes = isnan(nodes) ? -1 : cp_num_clamp_long(nodes, -1, LONG_MAX);
    cp_free(v);
    cp_free(text);
    return CP_OK;
}

/* Copies the model (and its start) into CAPPLAN_CBC_KEEP's directory when
 * it is set (to solve again by hand), named after the private directory;
 * a failure there changes nothing. */
static void keep_model(const cp_buf *b, const char *dir, const char *ext)
{
    const char *keep = getenv("CAPPLAN_CBC_KEEP");
    if (!keep || !*keep)
        return;
    const char *base = strrchr(dir, '/');
    char path[4096];
    int k = snprintf(path, sizeof path, "%s/%s.%s", keep, base ? base + 1 : dir, ext);
    if (k < 0 || (size_t)k >= sizeof path)
        return;
    cp_err e;
    write_file(path, b, &e);
}

int cp_mip_cbc_solve(const cp_mip *m, const cp_mip_limits *lim, double *x, cp_mip_result *res,
                     cp_err *err)
{
    memset(res, 0, sizeof *res);
    res->objective = res->bound = NAN;
    res->nodes = -1;
    const char *tmp = getenv("TMPDIR");
    char dir[4096], model[4200], start[4200], out[4200];
    snprintf(dir, sizeof dir, "%s/capplan-cbc-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot make a directory in '%s': %s",
                          tmp && *tmp ? tmp : "/tmp", strerror(errno));
    snprintf(model, sizeof model, "%s/model.mps", dir);
    snprintf(start, sizeof start, "%s/start.sol", dir);
    snprintf(out, sizeof out, "%s/out.sol", dir);
    cp_buf b, log;
    cp_buf_init(&b);
    cp_buf_init(&log);
    int rc = write_mps(m, &b) ? cp_err_nomem(err) : write_file(model, &b, err);
    if (rc == CP_OK)
        keep_model(&b, dir, "mps");
    if (rc == CP_OK && m->start) {
        cp_buf_reset(&b);
        write_start(m, &b);
        rc = write_file(start, &b, err);
        keep_model(&b, dir, "start.sol");
    }
    double left = lim->deadline > 0 ? lim->deadline - cp_now_seconds() : 0;
    if (rc == CP_OK && lim->deadline > 0 && left <= 0)
        goto out; /* no time: no answer */
    if (rc == CP_OK) {
        char seed[32], nodes[32], sec[32], gap[32];
        snprintf(seed, sizeof seed, "%lu", lim->seed % 2147483647UL);
        snprintf(nodes, sizeof nodes, "%ld", lim->nodes);
        snprintf(sec, sizeof sec, "%.3f", left > 0.001 ? left : 0.001);
        snprintf(gap, sizeof gap, "%.10g", lim->gap);
        const char *argv[32];
        int a = 0;
        argv[a++] = "cbc";
        argv[a++] = model;
        argv[a++] = "-threads";
        argv[a++] = "0";
        argv[a++] = "-randomSeed";
        argv[a++] = seed;
        argv[a++] = "-randomCbcSeed";
        argv[a++] = seed;
        if (lim->root) {
            argv[a++] = "-heuristicsOnOff";
            argv[a++] = "off";
            argv[a++] = "-maxNodes";
            argv[a++] = "0";
        } else if (lim->nodes > 0) {
            argv[a++] = "-maxNodes";
            argv[a++] = nodes;
        }
        if (lim->deadline > 0) {
            argv[a++] = "-timeMode";
            argv[a++] = "elapsed";
            argv[a++] = "-sec";
            argv[a++] = sec;
        }
        if (lim->gap > 0) {
            argv[a++] = "-ratioGap";
            argv[a++] = gap;
        }
        if (m->start && !lim->root) {
            argv[a++] = "-mipStart";
            argv[a++] = start;
        }
        argv[a++] = "-solve";
        argv[a++] = "-solution";
        argv[a++] = out;
        argv[a] = NULL;
        cp_proc_result pr;
        rc = cp_proc_run(argv, lim->deadline > 0 ? left + CBC_GUARD : 0, lim->stop, &log, &pr,
                         err);
        if (rc == CP_OK) {
            res->seconds = pr.seconds;
            if (pr.end == CP_PROC_EXITED && pr.code == 0 && lim->root) {
                /* the bound alone, from the log */
                res->bound = cp_mip_cbc_log_bound(log.s);
            } else if (pr.end == CP_PROC_EXITED && pr.code == 0) {
                rc = read_answer(m, out, log.s, lim->gap > 0 ? lim->gap : 0, x, res, err);
            }
        }
    }
out:
    unlink(model);
    unlink(start);
    unlink(out);
    rmdir(dir);
    cp_buf_release(&b);
    cp_buf_release(&log);
    return rc;
}
