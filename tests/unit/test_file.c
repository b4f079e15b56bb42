/* The whole-file reader (models/base/cp_file.c): one message per cause,
 * each naming the file; the size limit from the size of a regular file;
 * non-regular files (a FIFO, /dev/null) read to their end. */
#include "test.h"

#include "cp_alloc.h"
#include "cp_csv.h"
#include "cp_file.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* A file name in a fresh temporary folder, removed with both by tmp_done. */
typedef struct tmp {
    char dir[64], path[96];
} tmp;

static bool tmp_make(tmp *t, const char *name)
{
    snprintf(t->dir, sizeof t->dir, "/tmp/cp_test_file.XXXXXX");
    if (!mkdtemp(t->dir)) {
        CHECK(!"mkdtemp");
        return false;
    }
    snprintf(t->path, sizeof t->path, "%s/%s", t->dir, name);
    return true;
}

static void tmp_done(tmp *t)
{
    unlink(t->path);
    rmdir(t->dir);
}

static bool write_text(const char *path, const char *s, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(s, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

/* Reads `path`, which must fail with CP_ERR_INPUT, an error naming the
 * file with message `msg`, and nothing written to the out-parameters. */
static void read_fails(const char *path, const char *kind, const char *msg)
{
    char *text = NULL;
    size_t len = 99;
    cp_err e;
    cp_err_init(&e);
    CHECK_INT(cp_file_read(path, kind, &text, &len, &e), CP_ERR_INPUT);
    CHECK_STR(e.file, path);
    CHECK_STR(e.msg, msg);
    CHECK(text == NULL && len == 99);
    CHECK_INT(cp_file_read(path, kind, &text, &len, NULL), CP_ERR_INPUT);
}

/* Reads `path`, which must succeed with `n` bytes; returns the text. */
static char *read_ok(const char *path, size_t n)
{
    char *text = NULL;
    size_t len = 0;
    CHECK_INT(cp_file_read(path, "YAML", &text, &len, NULL), CP_OK);
    CHECK_INT(len, n);
    CHECK(text && text[n] == '\0');
    return text;
}

TEST(file_read_normal_and_empty)
{
    tmp t;
    if (!tmp_make(&t, "a.yaml"))
        return;
    CHECK(write_text(t.path, "a: 1\n\0b", 7));
    char *text = read_ok(t.path, 7);
    CHECK(text && memcmp(text, "a: 1\n\0b", 7) == 0);
    cp_free(text);
    CHECK(write_text(t.path, "", 0));
    cp_free(read_ok(t.path, 0));
    tmp_done(&t);
}

TEST(file_read_missing_and_directory)
{
    read_fails("tests/unit/no-such-file.yaml", "YAML", "cannot open: No such file or directory");
    read_fails("tests/unit", "YAML", "is a directory, not a YAML file");
    read_fails("tests/unit", NULL, "is a directory");
    /* the CSV reader says the same through cp_file_read */
    cp_csv *c = NULL;
    cp_err e;
    cp_err_init(&e);
    CHECK_INT(cp_csv_read("tests/unit/no-such-file.csv", ',', &c, &e), CP_ERR_INPUT);
    CHECK_STR(e.file, "tests/unit/no-such-file.csv");
    CHECK_STR(e.msg, "cannot open: No such file or directory");
    CHECK_INT(cp_csv_read("tests/unit", ',', &c, &e), CP_ERR_INPUT);
    CHECK_STR(e.msg, "is a directory, not a CSV file");
    CHECK(c == NULL);
}

TEST(file_read_over_the_limit)
{
    /* a sparse file one byte over the limit: refused from its size, so
     * this costs no disk and no reading */
    tmp t;
    if (!tmp_make(&t, "big.yaml"))
        return;
    int fd = open(t.path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(fd >= 0);
    if (fd >= 0) {
        CHECK(ftruncate(fd, CP_FILE_MAX_BYTES + 1) == 0);
        close(fd);
    }
    read_fails(t.path, "YAML", "file is larger than 64 MiB (67108865 bytes)");
    tmp_done(&t);
}

TEST(file_read_not_regular)
{
    /* /dev/null: a device with no size up front, read to its (empty) end */
    cp_free(read_ok("/dev/null", 0));
    /* a FIFO, written by a child: more than the first buffer, so the
     * read grows it */
    tmp t;
    if (!tmp_make(&t, "fifo"))
        return;
    CHECK(mkfifo(t.path, 0600) == 0);
    const size_t n = 200000;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(t.path, O_WRONLY);
        static char chunk[1000];
        memset(chunk, 'x', sizeof chunk);
        for (size_t i = 0; fd >= 0 && i < n / sizeof chunk; i++)
            if (write(fd, chunk, sizeof chunk) != (ssize_t)sizeof chunk)
                _exit(1);
        _exit(fd >= 0 ? 0 : 1);
    }
    CHECK(pid > 0);
    if (pid > 0) {
        char *text = read_ok(t.path, n);
        CHECK(text && text[0] == 'x' && text[n - 1] == 'x');
        cp_free(text);
        int st = 1;
        waitpid(pid, &st, 0);
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    tmp_done(&t);
}
