/* The option parser (planner/cmd/opt.c): the shape of the line, the
 * values of each kind, the messages of a bad line, the canonical words
 * of whatif --slurm-array, and every allocation failing in turn. */
#include "test.h"

#include "cp_alloc.h"
#include "cp_opt.h"

#include <stdbool.h>

/* The options of one test command, reset for each line. */
typedef struct vals {
    const char *out, *scen;
    int fmt, jobs, shards;
    long seed;
    double limit, work;
    bool force, timing;
    cp_opt_list modes;
    int k, n;
} vals;

static bool kn(void *target, const char *v, char *msg, size_t size)
{
    vals *x = target;
    if (sscanf(v, "%d/%d", &x->k, &x->n) != 2 || x->k < 0 || x->k >= x->n) {
        snprintf(msg, size, "--shard must be K/N with 0 <= K < N, got '%s'", v);
        return false;
    }
    return true;
}

static const cp_opt_word fmts[] = {{"md", 0}, {"csv", 1}, {"table", 1}, {"json", 2}, {NULL, 0}};

/* Parses the line (words separated by spaces; argv[0] "cmd") with a
 * fresh table over *x; the parser's status, with e. */
static int parse(vals *x, cp_cli_args *a, cp_opt_error *e, const char *line, char *buf,
                 cp_opt *table_out)
{
    memset(x, 0, sizeof *x);
    x->timing = true;
    const cp_opt t[] = {
        {CP_OPTF_STRING('o', NULL, &x->out, "FILE", "output"), .local = true},
        CP_OPT_FILE(0, "scenarios", &x->scen, "FILE", "scenarios"),
        {CP_OPTF_ENUM(0, "format", &x->fmt, fmts, NULL, "format"), .local = true},
        CP_OPT_INT('j', "jobs", &x->jobs, 1, 64, "N", "jobs"),
        {CP_OPTF_INT(0, "shards", &x->shards, 1, 100000, "N", "shards"), .local = true},
        {CP_OPTF_CALLBACK(0, "shard", kn, x, "K/N", "shard"), .local = true},
        CP_OPT_LONG(0, "seed", &x->seed, 0, 2147483647L, "N", "seed"),
        CP_OPT_DOUBLE(0, "time-limit", &x->limit, 0, "S", "limit"),
        CP_OPT_DOUBLE_ABOVE(0, "work", &x->work, 0, "N", "work"),
        {CP_OPTF_BOOL(0, "force", &x->force, "force"), .local = true},
        CP_OPT_UNSET(0, "no-timing", &x->timing, "timing"),
        CP_OPT_LIST(0, "modes", &x->modes, "JOB", "modes"),
        CP_OPT_END(),
    };
    memcpy(table_out, t, sizeof t);
    char *argv[32];
    int argc = 0;
    argv[argc++] = "cmd";
    for (char *w = strtok(buf, " "); w && argc < 31; w = strtok(NULL, " "))
        argv[argc++] = w;
    (void)line;
    argv[argc] = NULL;
    return cp_opt_parse(a, table_out, argc, argv, e);
}

#define PARSE(line)                                                                                \
    (snprintf(buf, sizeof buf, "%s", line), parse(&x, &a, &e, line, buf, table))

TEST(opt_line_shape)
{
    vals x;
    cp_cli_args a;
    cp_opt_error e;
    cp_opt table[16];
    char buf[400];
    CHECK_INT(PARSE("a.yaml -o p.yaml b.yaml --format=csv -- -q c.yaml"), CP_OPT_OK);
    CHECK_INT(a.n_operands, 4);
    CHECK_STR(a.operands[0], "a.yaml");
    CHECK_STR(a.operands[1], "b.yaml");
    CHECK_STR(a.operands[2], "-q");
    CHECK_STR(a.operands[3], "c.yaml");
    CHECK(a.operands[4] == NULL);
    CHECK_STR(x.out, "p.yaml");
    CHECK_INT(x.fmt, 1);
    CHECK(!a.quiet);
    cp_cli_args_release(&a);
    /* clusters: flags, then an option with the rest of the word or the next */
    CHECK_INT(PARSE("-qo out -j4 - x"), CP_OPT_OK);
    CHECK(a.quiet);
    CHECK_STR(x.out, "out");
    CHECK_INT(x.jobs, 4);
    CHECK_INT(a.n_operands, 2);
    CHECK_STR(a.operands[0], "-");
    cp_cli_args_release(&a);
    CHECK_INT(PARSE("-qoout"), CP_OPT_OK);
    CHECK_STR(x.out, "out");
    cp_cli_args_release(&a);
    /* abbreviations; an exact name wins over a longer one it starts */
    CHECK_INT(PARSE("--scen s.yaml --shard 1/3 --shards 3 --no-t --time 2.5 --form table"),
              CP_OPT_OK);
    CHECK_STR(x.scen, "s.yaml");
    CHECK_INT(x.k, 1);
    CHECK_INT(x.n, 3);
    CHECK_INT(x.shards, 3);
    CHECK(!x.timing);
    CHECK_NEAR(x.limit, 2.5, 0);
    CHECK_INT(x.fmt, 1);
    cp_cli_args_release(&a);
    /* a repeated option: the list in order; the last value of a scalar */
    CHECK_INT(PARSE("--modes a --seed 3 --modes=b --seed 7 --modes c"), CP_OPT_OK);
    CHECK_INT(x.modes.n, 3);
    CHECK_STR(x.modes.v[0], "a");
    CHECK_STR(x.modes.v[2], "c");
    CHECK(x.modes.v[3] == NULL);
    CHECK_INT(x.seed, 7);
    cp_cli_args_release(&a);
    CHECK(x.modes.v == NULL);
    /* --help ends the line: what follows is not read */
    CHECK_INT(PARSE("--help --bogus"), CP_OPT_OK);
    CHECK(a.helped && !a.listed);
    cp_cli_args_release(&a);
    CHECK_INT(PARSE("-qh"), CP_OPT_OK);
    CHECK(a.helped && a.quiet);
    cp_cli_args_release(&a);
    CHECK_INT(PARSE("--list-options"), CP_OPT_OK);
    CHECK(a.helped && a.listed);
    cp_cli_args_release(&a);
}

/* One bad line: status 2 and this message. */
#define BAD(line, want, see)                                                                       \
    do {                                                                                           \
        CHECK_INT(PARSE(line), CP_OPT_BAD);                                                       \
        CHECK_STR(e.msg, want);                                                                    \
        CHECK_INT(e.see_help, see);                                                                \
        cp_cli_args_release(&a);                                                                   \
    } while (0)

TEST(opt_bad_lines)
{
    vals x;
    cp_cli_args a;
    cp_opt_error e;
    cp_opt table[16];
    char buf[400];
    BAD("--bogus", "unknown option '--bogus'", true);
    BAD("--bogus=1", "unknown option '--bogus'", true);
    BAD("--time-limt 3", "unknown option '--time-limt' (did you mean '--time-limit'?)", true);
    BAD("--seeds 3", "unknown option '--seeds' (did you mean '--seed'?)", true);
    BAD("--jbos 2", "unknown option '--jbos' (did you mean '--jobs'?)", true);
    BAD("-qz", "unknown option '-z'", true);
    BAD("--s x", "option '--s' is ambiguous (4 options start so)", true);
    BAD("--force=yes", "option '--force' takes no value", true);
    BAD("--quiet=1", "option '--quiet' takes no value", true);
    BAD("a -o", "option '-o' needs a value", true);
    BAD("--format", "option '--format' needs a value", true);
    BAD("-o -- a",
        "option '-o' needs a value, got '--' (the end of the options); a file of that name is ./--",
        true);
    BAD("-qo -- a",
        "option '-o' needs a value, got '--' (the end of the options); a file of that name is ./--",
        true);
    BAD("--scen --", "option '--scenarios' needs a value, got '--' (the end of the options); a "
                     "file of that name is ./--",
        true);
    BAD("--format xml", "--format must be md, csv (or table) or json, got 'xml'", false);
    BAD("-j 0", "-j needs an integer from 1 to 64, got '0'", false);
    BAD("--jobs 65", "--jobs needs an integer from 1 to 64, got '65'", false);
    BAD("--jo 2x", "--jobs needs an integer from 1 to 64, got '2x'", false);
    BAD("--seed 99999999999999999999", "--seed needs an integer from 0 to 2147483647, got "
                                       "'99999999999999999999'",
        false);
    BAD("--time-limit nan", "--time-limit needs a number >= 0, got 'nan'", false);
    BAD("--time-limit 1e400", "--time-limit needs a number >= 0, got '1e400'", false);
    BAD("--time-limit -1", "--time-limit needs a number >= 0, got '-1'", false);
    BAD("--work 0", "--work needs a number > 0, got '0'", false);
    BAD("--shard 3/3", "--shard must be K/N with 0 <= K < N, got '3/3'", false);
    /* the first mistake is reported, even before --help */
    BAD("--bogus --help", "unknown option '--bogus'", true);
    /* "-o--" and "--scenarios=--" name a file "--" on purpose */
    CHECK_INT(PARSE("-o-- --scenarios=--"), CP_OPT_OK);
    CHECK_STR(x.out, "--");
    CHECK_STR(x.scen, "--");
    cp_cli_args_release(&a);
}

static void put_word(void *arg, const char *w)
{
    char *line = arg;
    size_t n = strlen(line);
    snprintf(line + n, 400 - n, "%s[%s]", n ? " " : "", w);
}

TEST(opt_canonical_words)
{
    vals x;
    cp_cli_args a;
    cp_opt_error e;
    cp_opt table[16];
    char buf[400], line[400] = "";
    /* this run's own options (.local) are left out whatever their
     * spelling; the others are spelled out, then "--" and the operands */
    CHECK_INT(PARSE("in.yaml -qo t.md --sc s.yaml --shards=2 --form csv -j2 --no-t "
                    "--modes=a=b --force -- -x.yaml"),
              CP_OPT_OK);
    CHECK_INT(cp_cli_args_canonical(&a, put_word, line), CP_OPT_OK);
    CHECK_STR(line, "[--quiet] [--scenarios=s.yaml] [--jobs=2] [--no-timing] [--modes=a=b] [--] "
                    "[in.yaml] [-x.yaml]");
    cp_cli_args_release(&a);
}

/* A short option without a long name given an empty value: "-p" alone
 * would take the next word ("--") as its value, so the words are "-p"
 * and "" (fuzz/fuzz_opts.c found it on report's -o). */
TEST(opt_canonical_empty_short)
{
    const char *p = "unset";
    const cp_opt t[] = {CP_OPT_STRING('p', NULL, &p, "FILE", "p"), CP_OPT_END()};
    char *argv[] = {"cmd", "-p", "", "in.yaml", NULL};
    cp_cli_args a, b;
    cp_opt_error e;
    CHECK_INT(cp_opt_parse(&a, t, 4, argv, &e), CP_OPT_OK);
    CHECK_STR(p, "");
    char line[400] = "";
    CHECK_INT(cp_cli_args_canonical(&a, put_word, line), CP_OPT_OK);
    CHECK_STR(line, "[-p] [] [--] [in.yaml]");
    char *again[] = {"cmd", "-p", "", "--", "in.yaml", NULL};
    p = "unset";
    CHECK_INT(cp_opt_parse(&b, t, 5, again, &e), CP_OPT_OK);
    CHECK_STR(p, "");
    CHECK_INT(b.n_operands, 1);
    cp_cli_args_release(&b);
    cp_cli_args_release(&a);
    /* a value is attached, "--" too */
    char *dashes[] = {"cmd", "-p", "--", NULL};
    CHECK_INT(cp_opt_parse(&a, t, 3, dashes, &e), CP_OPT_BAD);
    cp_cli_args_release(&a);
    char *attached[] = {"cmd", "-p--", NULL};
    CHECK_INT(cp_opt_parse(&a, t, 2, attached, &e), CP_OPT_OK);
    line[0] = 0;
    CHECK_INT(cp_cli_args_canonical(&a, put_word, line), CP_OPT_OK);
    CHECK_STR(line, "[-p--] [--]");
    cp_cli_args_release(&a);
}

TEST(opt_nomem)
{
    vals x;
    cp_cli_args a;
    cp_opt_error e;
    cp_opt table[16];
    char buf[400];
    cp_alloc_fail_after(-1);
    CHECK_INT(PARSE("a --modes m --bogus"), CP_OPT_BAD);
    cp_cli_args_release(&a);
    long total = cp_alloc_count();
    int nomem = 0;
    for (long n = 0; n <= total + 1; n++) {
        cp_alloc_fail_after(n);
        int rc = PARSE("a --modes m --modes k b");
        cp_alloc_fail_after(-1);
        CHECK(rc == CP_OPT_OK || rc == CP_OPT_NOMEM);
        nomem += rc == CP_OPT_NOMEM;
        if (rc == CP_OPT_OK)
            CHECK_INT(x.modes.n, 2);
        cp_cli_args_release(&a);
    }
    CHECK(nomem >= 3);
}
