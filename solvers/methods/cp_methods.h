/*
 * The solve methods: one file per cp_solver_ops in this folder, and
 * CP_METHODS below as the only list of them. The table, `--method`'s
 * help and error text, and the man-page check of the test suite are all
 * derived from it, so adding a method is one new file here plus its name
 * in CP_METHODS.
 */
#ifndef CP_METHODS_H
#define CP_METHODS_H

#include "cp_solver.h"

#include <stddef.h>

/* X(name) for every method, in the order --help lists them; the file
 * method_NAME.c defines `const cp_solver_ops cp_solver_NAME`. */
#define CP_METHODS(X) X(auto) X(milp) X(heuristic) X(lagrange) X(pop)

#define CP_METHOD_DECLARE(name) extern const cp_solver_ops cp_solver_##name;
CP_METHODS(CP_METHOD_DECLARE)
#undef CP_METHOD_DECLARE

/* NULL-terminated, in CP_METHODS order. */
extern const cp_solver_ops *const cp_solvers[];

/* The method called `name`, or NULL. */
const cp_solver_ops *cp_solver_find(const char *name);
/* The names as an English list ("auto, milp, ... or pop") into out;
 * returns out. */
char *cp_solver_names(char *out, size_t size);

#endif
