/*
 * Wall-clock times: the one reader of the timestamps capplan takes
 * (horizon.start, import series' --start and sample times, Pollux's
 * trace), and the calendar arithmetic behind it, for every layer.
 * The loader refuses a horizon.start it cannot read, with its position.
 * Before, import, export and the report each had a copy of the calendar
 * and a parser of its own, and export's (sscanf's %2ld) took "T-1:00"
 * as an hour before midnight.
 */
#ifndef CP_TIME_H
#define CP_TIME_H

#include <stdbool.h>

/* Days since 1970-01-01 of the proleptic Gregorian date y-m-d (m 1..12,
 * d 1..31), and back (Howard Hinnant's days_from_civil and
 * civil_from_days; exact for every year a long long holds). */
long long cp_days_from_civil(long long y, int m, int d);
void cp_civil_from_days(long long z, long long *y, int *m, int *d);

/* "YYYY-MM-DD[(T| )HH:MM[:SS[.frac]]][Z|+HH:MM|-HH:MM]", blanks around it
 * allowed: *secs is the seconds since 1970-01-01 00:00, the offset taken
 * away (UTC) when one is given, else of the time as written; *zoned (may
 * be NULL) says whether an offset was given. False for anything else,
 * digits only where the format has them, and for a date or time that
 * does not exist (2023-02-30, 24:00). */
bool cp_time_parse(const char *s, double *secs, bool *zoned);

/* What a timestamp said of its offset: none, 'Z', or +-HH:MM. */
typedef enum cp_time_zone { CP_TZ_NONE, CP_TZ_Z, CP_TZ_OFFSET } cp_time_zone;

/* cp_time_parse, also giving the offset as written (*zone, and
 * *offset_minutes east of UTC: 0 for CP_TZ_NONE and CP_TZ_Z; either may
 * be NULL), for a reader that shows the time in the stamp's own zone
 * (the report's wall clock). */
bool cp_time_parse_zone(const char *s, double *secs, cp_time_zone *zone, int *offset_minutes);

#endif
