/*
 * The plan report (`capplan report`): one self-contained HTML page (inline
 * SVG and CSS, no scripts, no URLs) drawn from a plan file (capplan.5 §5) and,
 * optionally, the inputs it was planned from. See docs/report.md.
 *
 * The plan is read from its parsed tree (models/formats/cp_yaml.h: YAML or JSON),
 * so a malformed plan is reported with FILE:LINE:COLUMN like any input.
 * The plan alone gives every chart; the inputs add what the plan file
 * does not hold: pool capacities (utilization in percent), site power
 * caps, the slot length, horizon.start (wall-clock labels), job kinds
 * (colours), and a `capplan verify` verdict in the header.
 */
#ifndef CP_REPORT_H
#define CP_REPORT_H

#include "cp_buf.h"
#include "cp_err.h"
#include "cp_input.h"

struct cp_node;

typedef struct cp_report_opts {
    const cp_input *in;    /* borrowed; NULL: the plan file alone */
    const char *plan_name; /* shown in the title; borrowed */
    /* an earlier plan's tree (borrowed; NULL: none): the page marks what
     * changed since (capplan.5 §10.5, `report NEW --from OLD`) */
    const struct cp_node *old;
    const char *old_name;
} cp_report_opts;

void cp_report_opts_init(cp_report_opts *o);

/* Appends the page for `plan` (the root of a parsed plan file, borrowed)
 * to `out`. Structural errors of the plan (a missing or mistyped field, a
 * per-slot list of the wrong length, a plan whose slot count differs from
 * the inputs') go to `d` with their positions, all of them up to the cap:
 * returns CP_ERR_INPUT. CP_ERR_NOMEM on out of memory (in `d` too). */
int cp_report_plan_html(const struct cp_node *plan, const cp_report_opts *o, cp_buf *out,
                        cp_diags *d);

#endif
