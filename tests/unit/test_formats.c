/* The writers' shared rules in models/formats: the CSV field quoter and
 * the "may this scalar go plain" rule of both YAML writers. */
#include "test.h"

#include "cp_csv.h"
#include "cp_yaml_put.h"

static void check_field(const char *in, const char *want)
{
    cp_buf b;
    cp_buf_init(&b);
    cp_csv_put_field(&b, in);
    CHECK_STR(b.s, want);
    cp_buf_release(&b);
}

TEST(csv_put_field)
{
    check_field("plain", "plain");
    check_field("", "");
    check_field(NULL, "");
    check_field("a,b", "\"a,b\"");
    check_field("say \"hi\"", "\"say \"\"hi\"\"\"");
    check_field("two\nlines", "\"two\nlines\"");
    check_field("cr\r", "\"cr\r\"");
    check_field("semi;colon 'q'", "semi;colon 'q'");
    /* what it writes reads back as the field */
    cp_buf b;
    cp_buf_init(&b);
    cp_buf_puts(&b, "h\n");
    cp_csv_put_field(&b, "x, \"y\"\nz");
    cp_buf_putc(&b, '\n');
    cp_csv *c = NULL;
    CHECK_INT(cp_csv_read_string("t.csv", b.s, b.len, ',', &c, NULL), CP_OK);
    if (c && c->n_rows == 1)
        CHECK_STR(c->rows[0].f[0], "x, \"y\"\nz");
    cp_csv_free(c);
    cp_buf_release(&b);
}

TEST(yaml_plain_is_string)
{
    CHECK(cp_yaml_plain_is_string("A100"));
    CHECK(cp_yaml_plain_is_string("a: b")); /* syntax is not its business */
    CHECK(!cp_yaml_plain_is_string(""));
    CHECK(!cp_yaml_plain_is_string("~"));
    CHECK(!cp_yaml_plain_is_string("null"));
    CHECK(!cp_yaml_plain_is_string("True"));
    CHECK(!cp_yaml_plain_is_string("0x1F"));
    CHECK(!cp_yaml_plain_is_string("-.inf"));
    CHECK(!cp_yaml_plain_is_string(".NaN"));
    CHECK(!cp_yaml_plain_is_string("1e-3"));
    CHECK(!cp_yaml_plain_is_string("off"));   /* YAML 1.1 boolean */
    CHECK(!cp_yaml_plain_is_string("8xV100")); /* starts like a number */
    /* cp_yaml_plain_ok is this rule plus syntax */
    CHECK(!cp_yaml_plain_ok("a: b"));
    CHECK(cp_yaml_plain_ok("A100"));
}
