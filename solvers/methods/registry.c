/* The table of solve methods, derived from CP_METHODS (cp_methods.h). */
#include "cp_methods.h"

#include <stdio.h>
#include <string.h>

#define CP_METHOD_ENTRY(name) &cp_solver_##name,
const cp_solver_ops *const cp_solvers[] = {CP_METHODS(CP_METHOD_ENTRY) NULL};
#undef CP_METHOD_ENTRY

const cp_solver_ops *cp_solver_find(const char *name)
{
    for (int i = 0; cp_solvers[i]; i++)
        if (!strcmp(cp_solvers[i]->name, name))
            return cp_solvers[i];
    return NULL;
}

char *cp_solver_names(char *out, size_t size)
{
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; cp_solvers[i] && len < size; i++) {
        const char *sep = i == 0 ? "" : cp_solvers[i + 1] ? ", " : " or ";
        int n = snprintf(out + len, size - len, "%s%s", sep, cp_solvers[i]->name);
        if (n < 0)
            break;
        len += (size_t)n;
    }
    return out;
}
