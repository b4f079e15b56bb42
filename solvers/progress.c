/*
 * The heartbeat of `plan --progress` (cp_progress.h): one thread that
 * sleeps on a condition variable for `every` seconds (or until it is
 * stopped), then formats the state the phases reported and hands the
 * line to the log callback.
 */
#include "cp_progress.h"

#include "cp_alloc.h"
#include "cp_num.h"
#include "cp_solver.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

struct cp_progress {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t thread;
    bool stop;
    double best, bound; /* INFINITY, -INFINITY until reported */
    const char *phase;
    void (*log)(void *, const char *);
    void *arg;
    double t_start, every;
};

void cp_progress_format(char *out, size_t size, double elapsed, double best, double bound,
                        const char *phase)
{
    char b[40] = "-", l[40] = "-", g[40] = "-";
    if (isfinite(best))
        snprintf(b, sizeof b, "$%.2f", best);
    if (isfinite(bound))
        snprintf(l, sizeof l, "$%.2f", bound);
    if (isfinite(best) && isfinite(bound)) {
        /* the relative gap of the plan's solver entry (capplan.5 §5) */
        double gap = best > bound ? (best - bound) / fmax(fabs(best), 1e-9) : 0;
        snprintf(g, sizeof g, "%.2f%%", 100 * gap);
    }
    snprintf(out, size, "%6.1f s  best %s  bound %s  gap %s  %s", elapsed, b, l, g,
             phase ? phase : "");
}

/* The clock of cp_now_seconds (solve_opts.c, which calls this file). */
static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *beat(void *arg)
{
    cp_progress *p = arg;
    pthread_mutex_lock(&p->mu);
    while (!p->stop) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        double s = floor(p->every);
        ts.tv_sec += (time_t)cp_num_clamp_long(s, 0, 86400);
        ts.tv_nsec += cp_num_clamp_long((p->every - s) * 1e9, 0, 999999999);
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        int rc = 0;
        while (!p->stop && rc != ETIMEDOUT)
            rc = pthread_cond_timedwait(&p->cv, &p->mu, &ts);
        if (p->stop)
            break;
        char line[200];
        cp_progress_format(line, sizeof line, now_seconds() - p->t_start, p->best, p->bound,
                           p->phase);
        pthread_mutex_unlock(&p->mu);
        p->log(p->arg, line); /* outside the lock: the phases never wait for the log */
        pthread_mutex_lock(&p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

cp_progress *cp_progress_start(void (*log)(void *, const char *), void *arg, double t_start,
                               double every)
{
    if (!log || !(every > 0))
        return NULL;
    cp_progress *p = cp_calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->best = INFINITY;
    p->bound = -INFINITY;
    p->log = log;
    p->arg = arg;
    p->t_start = t_start;
    p->every = every;
    if (pthread_mutex_init(&p->mu, NULL)) {
        cp_free(p);
        return NULL;
    }
    if (pthread_cond_init(&p->cv, NULL)) {
        pthread_mutex_destroy(&p->mu);
        cp_free(p);
        return NULL;
    }
    if (pthread_create(&p->thread, NULL, beat, p)) {
        pthread_cond_destroy(&p->cv);
        pthread_mutex_destroy(&p->mu);
        cp_free(p);
        return NULL;
    }
    return p;
}

void cp_progress_stop(cp_progress *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    cp_free(p);
}

void cp_progress_phase(const cp_solve_opts *o, const char *phase)
{
    cp_progress *p = o->beat;
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->phase = phase;
    pthread_mutex_unlock(&p->mu);
}

void cp_progress_best(const cp_solve_opts *o, double total)
{
    cp_progress *p = o->beat;
    if (!p || !isfinite(total))
        return;
    pthread_mutex_lock(&p->mu);
    if (total < p->best)
        p->best = total;
    pthread_mutex_unlock(&p->mu);
}

void cp_progress_bound(const cp_solve_opts *o, double bound)
{
    cp_progress *p = o->beat;
    if (!p || !isfinite(bound))
        return;
    pthread_mutex_lock(&p->mu);
    if (bound > p->bound)
        p->bound = bound;
    pthread_mutex_unlock(&p->mu);
}
