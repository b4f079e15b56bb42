/*
 * Inputs that load and plan but are probably not what their author meant
 * (capplan.1, "check"): warnings, never errors, since each can be
 * intended. The one rule for every command that reports them.
 */
#ifndef CP_ADVICE_H
#define CP_ADVICE_H

#include "cp_err.h"
#include "cp_input.h"

#include <stdbool.h>

/* Mistakes of a file or a unit, which `plan` reports too: no jobs at all
 * (a jobs file left off the command line, `jobs: []`), and an
 * energy_price above CP_ADVICE_MAX_PRICE $/kWh (a $/MWh figure: the dearest
 * market's price cap, ERCOT's, is 5 $/kWh). With `all` (check), also
 * what makes part of the input unused: jobs that ask a host for no CPUs
 * and no memory at all (so they pack onto any host), and spot markets no
 * job may use (no job is preemptible). Warnings go to `d`; returns how
 * many. */
#define CP_ADVICE_MAX_PRICE 10.0
int cp_input_advice(const cp_input *in, bool all, cp_diags *d);

#endif
