/*
 * Running a program as a child process, without a shell: the one way
 * capplan runs another program (CBC, solvers/mip_cbc.c). A program whose
 * licence does not allow linking it with capplan (CBC is EPL-1.0, capplan
 * GPL-3.0-or-later because it links GLPK) can still do work for it this
 * way: they share files and a pipe, never an address space.
 *
 * The child gets /dev/null as its standard input, one pipe as its
 * standard output and error (read into a buffer while it runs, so it
 * never blocks on a full pipe), its own process group (a Ctrl-C at the
 * terminal reaches capplan, which then ends the child itself), default
 * signal dispositions and an empty signal mask. It is ended, SIGTERM
 * first and SIGKILL CP_PROC_GRACE seconds later, when its time is up or
 * the stop flag is set. Safe to call from several threads at once: each
 * call waits for its own child only (waitpid on its pid).
 */
#ifndef CP_PROC_H
#define CP_PROC_H

#include "cp_buf.h"
#include "cp_err.h"

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

/* seconds between SIGTERM and SIGKILL */
#define CP_PROC_GRACE 2.0
/* the most output kept: beyond it the oldest half is dropped (the end of
 * a solver's log is what says how it ended) */
#define CP_PROC_OUT_MAX (1u << 20)

typedef enum cp_proc_end {
    CP_PROC_EXITED,    /* exited by itself: code is its exit status */
    CP_PROC_SIGNALLED, /* killed by a signal it did not get from us: code is the signal */
    CP_PROC_TIMEOUT,   /* its time was up: we ended it */
    CP_PROC_STOPPED    /* the stop flag was set: we ended it */
} cp_proc_end;

typedef struct cp_proc_result {
    cp_proc_end end;
    int code;
    double seconds; /* wall clock from start to end */
} cp_proc_result;

/* Runs argv[0] (looked up in PATH when it has no '/') with argv (NULL-
 * terminated; borrowed) and waits for it, at most `seconds` (<= 0: no
 * limit) and no longer than *stop stays 0 (stop may be NULL). Its output
 * (standard output and error, interleaved) is appended to `out` (may be
 * NULL: discarded), keeping at most CP_PROC_OUT_MAX bytes. Returns CP_OK
 * when the program ran, however it ended (see res); CP_ERR_IO when it
 * could not be started (err names the program and the reason: "cannot
 * run 'cbc': No such file or directory"). */
int cp_proc_run(const char *const *argv, double seconds, const volatile sig_atomic_t *stop,
                cp_buf *out, cp_proc_result *res, cp_err *err);

/* Whether `name` (no '/') is an executable file in one of PATH's
 * directories; its path goes to path (size bytes) when found. */
bool cp_proc_find(const char *name, char *path, size_t size);

#endif
