/* gnuplot_quote makes any text one single-quoted gnuplot string: ' is
 * doubled, line breaks (which would end the command) become spaces, and
 * nothing else is touched, since gnuplot expands nothing inside single
 * quotes; a string cut short is still closed. gnuplot_data_label keeps
 * a data file's double-quoted field whole. */
#include <string.h>
#include "plots/gnuplot_text.h"
#include "tests/check.h"

static void expect_quote(const char *text, const char *expected)
{
    char out[128];
    gnuplot_quote(text, out, sizeof out);
    CHECK(strcmp(out, expected) == 0, "gnuplot_quote(\"%s\") = %s, expected %s", text, out, expected);
}

int main(void)
{
    expect_quote("full", "'full'");
    expect_quote("it's", "'it''s'");
    expect_quote("a\";system \"touch x\";plot 0 title \"", "'a\";system \"touch x\";plot 0 title \"'");
    expect_quote("two\nlines\r", "'two lines '");
    expect_quote("`touch x` $(touch y) @macro \\", "'`touch x` $(touch y) @macro \\'");
    expect_quote("'", "''''");

    char small[6];
    gnuplot_quote("abc'def", small, sizeof small);
    CHECK(strcmp(small, "'abc'") == 0, "cut short: %s", small);
    gnuplot_quote("''''", small, sizeof small);
    CHECK(strcmp(small, "''''") == 0, "cut short between a doubled quote: %s", small);

    char label[64];
    gnuplot_data_label("a\"b\nc", label, sizeof label);
    CHECK(strcmp(label, "a'b c") == 0, "data label: %s", label);
    CHECK_DONE();
}
