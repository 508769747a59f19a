/* markdown.h: text from data files (model names from _name_or_path,
 * reference-CSV fields, error messages, paths) in report.md's cells and
 * headings: Markdown and HTML alike are escaped here, once (md_cell). */
#ifndef PEAKFIT_MARKDOWN_H
#define PEAKFIT_MARKDOWN_H
#include <stddef.h>
#include <stdio.h>
#include "settings/group_key.h"

/* text for a table cell or a heading: < > & as HTML entities, Markdown's
 * \ | ` * _ [ ] ( ) ! ~ # backslash-escaped (an _ inside a word left bare), control characters as spaces.
 * Cut at size only between whole escapes. */
const char *md_cell(const char *text, char *out, size_t size);
/* A data file's text (len bytes) as a fenced code block, info its
 * language (`ini`): shown as it is, never read as Markdown. The fence is
 * one backtick longer than the longest run of backticks in the text (no
 * line of it can close the block), and each control character but tab and
 * newline is a space (a bare CR is a line end to CommonMark). */
void md_code_block(FILE *f, const char *info, const char *text, size_t len);
/* "| model | device | technique |" header cells (and "|---|---|---|" when
 * rule), and the same cells for a key, the model by its display name. */
void md_key_header(FILE *f, int rule);
void md_key_cells(FILE *f, const struct group_key *key);
/* "**SmolLM2-135M / cpu / full**"-style label of a key. */
const char *md_key_label(const struct group_key *key, char *out, size_t size);
/* A number, or an empty cell's text when it is not known (negative). */
const char *md_number(double v, const char *fmt, char *out, size_t size);
#endif
