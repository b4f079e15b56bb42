/* The one timestamp reader (models/base/cp_time.h): the offset as
 * written, which the report's wall clock shows (before, the report had a
 * parser of its own that took forms the loader and export refuse). */
#include "test.h"

#include "cp_time.h"

TEST(time_parse_zone)
{
    double t;
    cp_time_zone z;
    int off = 99;
    CHECK(cp_time_parse_zone("2024-02-29T01:30:00+02:00", &t, &z, &off));
    CHECK_INT(z, CP_TZ_OFFSET);
    CHECK_INT(off, 120);
    /* 2024-02-29 01:30 at +02:00 is 2024-02-28 23:30 UTC */
    CHECK_INT((long long)t, cp_days_from_civil(2024, 2, 28) * 86400 + 23 * 3600 + 30 * 60);
    CHECK(cp_time_parse_zone("2023-06-06T00:00:00-05:30", &t, &z, &off));
    CHECK_INT(z, CP_TZ_OFFSET);
    CHECK_INT(off, -330);
    CHECK(cp_time_parse_zone("2023-06-06T00:00:00Z", &t, &z, &off));
    CHECK_INT(z, CP_TZ_Z);
    CHECK_INT(off, 0);
    CHECK(cp_time_parse_zone("2023-06-06", &t, &z, NULL));
    CHECK_INT(z, CP_TZ_NONE);
    bool zoned = true;
    CHECK(cp_time_parse("2023-06-06 12:00", &t, &zoned));
    CHECK(!zoned);
    /* forms the report's own parser took, refused by the one reader */
    CHECK(!cp_time_parse_zone("2023-06-06T00:00:00+0200", &t, &z, &off));
    CHECK(!cp_time_parse_zone("2023-06-06T00:00:00+02", &t, &z, &off));
    CHECK(!cp_time_parse_zone("2023-06-06t00:00z", &t, &z, &off));
    CHECK(!cp_time_parse_zone("2023-02-30", &t, &z, &off));
}
