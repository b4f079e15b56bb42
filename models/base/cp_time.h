/*
 * Wall-clock times: the one reader of the timestamps capplan takes
 * (horizon.start, import series' --start and sample times, Pollux's
 * trace), and the calendar arithmetic behind it, for every layer.
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

#endif
