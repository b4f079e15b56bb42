/*
 * The MILP builder's primitives (milp_internal.h): a column with its
 * objective coefficient, a non-zero of the triplet matrix, a capacity row
 * numbered when first used. milp_model.c (the jobs' columns and rows) and
 * milp_svc.c (the services') build through them, one way.
 */
#include "milp_internal.h"

#include "cp_alloc.h"

int cp_milp_add_col(milp *mp, int job, int mode, int start, double cost)
{
    size_t cap = mp->cap_cols;
    if (CP_GROW(mp->col_job, cap, (size_t)mp->n_cols + 2))
        return -1;
    cap = mp->cap_cols;
    if (CP_GROW(mp->col_mode, cap, (size_t)mp->n_cols + 2))
        return -1;
    cap = mp->cap_cols;
    if (CP_GROW(mp->col_start, cap, (size_t)mp->n_cols + 2))
        return -1;
    cap = mp->cap_cols;
    if (CP_GROW(mp->obj, cap, (size_t)mp->n_cols + 2))
        return -1;
    mp->cap_cols = cap;
    int c = ++mp->n_cols;
    mp->col_job[c] = job;
    mp->col_mode[c] = mode;
    mp->col_start[c] = start;
    mp->obj[c] = cost;
    return c;
}

int cp_milp_add_nz(milp *mp, int row, int col, double v)
{
    if (v == 0)
        return 0;
    size_t cap = mp->cap_nnz;
    if (CP_GROW(mp->ia, cap, mp->nnz + 2))
        return -1;
    cap = mp->cap_nnz;
    if (CP_GROW(mp->ja, cap, mp->nnz + 2))
        return -1;
    cap = mp->cap_nnz;
    if (CP_GROW(mp->ar, cap, mp->nnz + 2))
        return -1;
    mp->cap_nnz = cap;
    mp->nnz++;
    mp->ia[mp->nnz] = row;
    mp->ja[mp->nnz] = col;
    mp->ar[mp->nnz] = v;
    return 0;
}

int cp_milp_res_row(milp *mp, int r, int d, int t)
{
    int *p = &mp->row_res[((size_t)r * CP_DIMS + d) * mp->T + t];
    if (!*p)
        *p = ++mp->n_rows;
    return *p;
}
