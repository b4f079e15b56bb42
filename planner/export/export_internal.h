/* Shared by the exporters (export_*.c). */
#ifndef CP_EXPORT_INTERNAL_H
#define CP_EXPORT_INTERNAL_H

#include "cp_export.h"

#include <stddef.h>

/* Only letters, digits, '.', '_', '-', not starting with '-': a word
 * sbatch directives can hold as it is. */
bool cp_xp_slurm_word(const char *s);
/* Appends s with every other byte (and a leading '.') as '_', at most
 * max bytes: a file-name part. */
void cp_xp_file_word(cp_buf *b, const char *s, size_t max);
/* horizon.start (YYYY-MM-DD[THH:MM[:SS[.frac]]][Z|+HH:MM|-HH:MM]) as
 * seconds since 1970 of its wall clock (utc: a zone was given and the
 * seconds are UTC). False when it is not such a time. */
bool cp_xp_parse_start(const char *s, long *secs, bool *utc);
/* Appends YYYY-MM-DDTHH:MM:SS. */
void cp_xp_put_time(cp_buf *b, long secs);
/* The one rule for a name the exporters write into a shell script (a
 * sbatch script, submit.sh, a SkyPilot task's run:): single-quoted in
 * code and comments, so one with a control character is refused (a
 * newline would end the comment and run the rest); reports it at pos as
 * "WHAT name contains a control character ..." and returns false. */
bool cp_xp_name_ok(cp_diags *d, cp_pos pos, const char *what, const char *s);

#endif
