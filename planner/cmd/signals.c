/* The interrupt rule of plan and whatif; see cp_signals.h. Only
 * async-signal-safe calls in on_signal. */
#include "cp_signals.h"

#include "cp_atomic.h"

#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t stop_flag, working, writing, quiet_first;
static long writes_before; /* finished cp_write_file_atomic() calls when the output began */
static const char *first_msg, *none_msg;
static size_t first_len, none_len;
static struct sigaction old_int, old_term;

static void say(const char *msg, size_t len)
{
    ssize_t r = write(2, msg, len);
    (void)r;
}

static void on_signal(int sig)
{
    (void)sig;
    if (working && !stop_flag) {
        stop_flag = 1;
        if (!quiet_first)
            say(first_msg, first_len);
        return;
    }
    long done = cp_write_file_abandon();
    if (writing && done > writes_before)
        return;
    say(none_msg, none_len);
    _exit(130);
}

void cp_signals_install(const char *first, const char *none, bool quiet)
{
    first_msg = first;
    first_len = strlen(first);
    none_msg = none;
    none_len = strlen(none);
    stop_flag = working = writing = 0;
    quiet_first = quiet;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, NULL, &old_int);
    sigaction(SIGTERM, NULL, &old_term);
    if (old_int.sa_handler != SIG_IGN)
        sigaction(SIGINT, &sa, NULL);
    if (old_term.sa_handler != SIG_IGN)
        sigaction(SIGTERM, &sa, NULL);
}

void cp_signals_begin_work(void)
{
    working = 1;
}

void cp_signals_begin_output(void)
{
    writes_before = cp_write_file_abandon(); /* nothing pending here: just the count */
    writing = 1;
}

const volatile sig_atomic_t *cp_signals_flag(void)
{
    return &stop_flag;
}

bool cp_signals_stopped(void)
{
    return stop_flag != 0;
}

void cp_signals_restore(void)
{
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    working = writing = 0;
}
