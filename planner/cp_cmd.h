/*
 * The command table: one function per command, each in its own file
 * (cmd_NAME.c). A command gets argv from its own name on, prints its own
 * diagnostics, and returns the process exit status (capplan.5 §5-6).
 */
#ifndef CP_CMD_H
#define CP_CMD_H

#define CP_VERSION "0.1.0"

typedef struct cp_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} cp_command;

int cp_cmd_check(int argc, char **argv);
int cp_cmd_plan(int argc, char **argv);
int cp_cmd_verify(int argc, char **argv);
int cp_cmd_whatif(int argc, char **argv);
int cp_cmd_fit(int argc, char **argv);
int cp_cmd_import(int argc, char **argv);
int cp_cmd_report(int argc, char **argv);
int cp_cmd_diff(int argc, char **argv);
int cp_cmd_place(int argc, char **argv);
int cp_cmd_export(int argc, char **argv);
int cp_cmd_explain(int argc, char **argv);

extern const cp_command cp_commands[];
const cp_command *cp_command_find(const char *name);
/* The command a mistyped name was most likely meant to be (cp_suggest.h's
 * rule), or NULL. */
const char *cp_command_suggest(const char *name);

#endif
