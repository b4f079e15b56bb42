/* The heartbeat of `plan --progress` (solvers/progress.c): the line's
 * shape, and lines through the log callback from its own thread. */
#include "cp_progress.h"
#include "cp_solver.h"
#include "test.h"

#include <math.h>
#include <pthread.h>
#include <time.h>

TEST(progress_line_format)
{
    char line[200];
    cp_progress_format(line, sizeof line, 12.34, 9.126207214, 8.443442312, "search");
    CHECK_STR(line, "  12.3 s  best $9.13  bound $8.44  gap 7.48%  search");
    /* nothing known yet: a dash for each */
    cp_progress_format(line, sizeof line, 0.98, INFINITY, -INFINITY, "first plan");
    CHECK_STR(line, "   1.0 s  best -  bound -  gap -  first plan");
    cp_progress_format(line, sizeof line, 3, 35.5863966, NAN, "Lagrangian bound");
    CHECK_STR(line, "   3.0 s  best $35.59  bound -  gap -  Lagrangian bound");
    /* a bound above the best by rounding: no negative gap */
    cp_progress_format(line, sizeof line, 2, 10, 10.000001, "branch-and-cut");
    CHECK_STR(line, "   2.0 s  best $10.00  bound $10.00  gap 0.00%  branch-and-cut");
    cp_progress_format(line, sizeof line, 1234.5, 26590.04, 26000, "placement");
    CHECK_STR(line, "1234.5 s  best $26590.04  bound $26000.00  gap 2.22%  placement");
}

typedef struct seen {
    pthread_mutex_t mu;
    int n;
    char last[200];
} seen;

static void record(void *arg, const char *line)
{
    seen *s = arg;
    pthread_mutex_lock(&s->mu);
    s->n++;
    snprintf(s->last, sizeof s->last, "%s", line);
    pthread_mutex_unlock(&s->mu);
}

TEST(progress_beats_from_its_thread)
{
    seen s = {PTHREAD_MUTEX_INITIALIZER, 0, ""};
    cp_solve_opts o;
    cp_solve_opts_init(&o);
    o.beat = cp_progress_start(record, &s, cp_now_seconds(), 0.05);
    CHECK(o.beat != NULL);
    cp_progress_phase(&o, "search");
    cp_progress_best(&o, 12);
    cp_progress_best(&o, 10); /* the least */
    cp_progress_best(&o, 11);
    cp_progress_bound(&o, 5);
    cp_progress_bound(&o, 8); /* the greatest */
    cp_progress_bound(&o, 7);
    /* two beats, 0.05 s apart: waited for up to 10 s, since a loaded
     * machine may not run the beating thread for a while */
    struct timespec ts = {0, 50 * 1000000L};
    for (int i = 0; i < 200; i++) {
        pthread_mutex_lock(&s.mu);
        int n = s.n;
        pthread_mutex_unlock(&s.mu);
        if (n >= 2)
            break;
        nanosleep(&ts, NULL);
    }
    cp_progress_stop(o.beat);
    CHECK(s.n >= 2);
    const char *tail = strstr(s.last, " s  ");
    CHECK(tail && !strcmp(tail, " s  best $10.00  bound $8.00  gap 20.00%  search"));
    /* no heartbeat: the calls are no-ops */
    o.beat = NULL;
    cp_progress_best(&o, 1);
    cp_progress_phase(&o, "x");
    cp_progress_stop(NULL);
}
