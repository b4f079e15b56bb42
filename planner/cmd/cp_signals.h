/*
 * The interrupt rule of every command that writes a result after a long
 * computation (plan, whatif), kept in one place:
 *  - a signal ignored on entry (a shell's background job, nohup) stays
 *    ignored, as the shells and coreutils do;
 *  - before the work starts there is nothing to write, so SIGINT or
 *    SIGTERM quits at once: exit 130, `none_msg` on stderr, a temporary
 *    file being written removed (files already complete stay);
 *  - during the work the first signal sets the flag the solvers poll
 *    (and prints `first_msg` unless quiet): the command then writes the
 *    best result it has, marked interrupted;
 *  - a second signal quits at once the same way, unless the command's
 *    output (the first file written after cp_signals_begin_output) is
 *    already in place: then the run ends normally, with the exit status
 *    that matches the file. Files written during the work (--export-lp)
 *    do not count as the output.
 * One command runs per process, so the state is static.
 */
#ifndef CP_SIGNALS_H
#define CP_SIGNALS_H

#include <signal.h>
#include <stdbool.h>

/* Installs the handler for SIGINT and SIGTERM. The messages are kept
 * (not copied): pass string literals. */
void cp_signals_install(const char *first_msg, const char *none_msg, bool quiet);
/* The work starts: from now on a first signal only sets the flag. */
void cp_signals_begin_work(void);
/* The output is about to be written. */
void cp_signals_begin_output(void);
/* The flag the solvers poll (cp_solve_opts.stop). */
const volatile sig_atomic_t *cp_signals_flag(void);
bool cp_signals_stopped(void);
/* Puts back the handlers found by cp_signals_install. */
void cp_signals_restore(void);

#endif
