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

#endif
