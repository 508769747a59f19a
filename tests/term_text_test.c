/* term_text shows a data file's text on a terminal and never lets the
 * terminal act on it: C0 controls (ESC, CR, a newline), DEL, C1 controls
 * and bytes that are not UTF-8 become \xNN, a backslash \\; printable
 * ASCII and UTF-8 (é, €, 😀) stay; a cut falls between whole characters. */
#include <string.h>
#include "tests/check.h"
#include "util/term_text.h"

static void expect_text(const char *text, const char *expected)
{
    char out[128];
    term_text(text, out, sizeof out);
    CHECK(strcmp(out, expected) == 0, "term_text(\"%s\") = %s, expected %s", text, out, expected);
}

int main(void)
{
    expect_text("AMD EPYC 7763 64-Core Processor", "AMD EPYC 7763 64-Core Processor");
    expect_text("\x1b[2J\x1b]0;title\x07", "\\x1b[2J\\x1b]0;title\\x07");
    expect_text("cpu\nplan for forged\r", "cpu\\x0aplan for forged\\x0d");
    expect_text("del\x7f tab\t", "del\\x7f tab\\x09");
    expect_text("C1 \xc2\x9b" "31m, lone \x9b" "31m", "C1 \\xc2\\x9b31m, lone \\x9b31m");
    expect_text("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    expect_text("cut \xe2\x82", "cut \\xe2\\x82");
    expect_text("overlong \xc0\xaf", "overlong \\xc0\\xaf");
    expect_text("back\\slash \\x1b", "back\\\\slash \\\\x1b");

    char small[8];
    term_text("ab\x1b" "cd", small, sizeof small);
    CHECK(strcmp(small, "ab\\x1bc") == 0, "cut short: %s", small);
    term_text("a\xe2\x82\xac\xe2\x82\xac", small, sizeof small);
    CHECK(strcmp(small, "a\xe2\x82\xac\xe2\x82\xac") == 0, "whole characters: %s", small);
    term_text("ab\xe2\x82\xac\xe2\x82\xac", small, sizeof small);
    CHECK(strcmp(small, "ab\xe2\x82\xac") == 0, "cut between characters: %s", small);
    CHECK_DONE();
}
