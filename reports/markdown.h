/* markdown.h: text from data files (model names, error messages) in
 * report.md's tables: a | would start a new cell and a line break end
 * the table, so both are neutralised here, once. */
#ifndef PEAKFIT_MARKDOWN_H
#define PEAKFIT_MARKDOWN_H
#include <stddef.h>
#include <stdio.h>
#include "fit/group_key.h"

/* text for a table cell: | escaped, control characters as spaces. */
const char *md_cell(const char *text, char *out, size_t size);
/* "| model | device | technique |" header cells (and "|---|---|---|" when
 * rule), and the same cells for a key, the model by its display name. */
void md_key_header(FILE *f, int rule);
void md_key_cells(FILE *f, const struct group_key *key);
/* "**SmolLM2-135M / cpu / full**"-style label of a key. */
const char *md_key_label(const struct group_key *key, char *out, size_t size);
/* A number, or an empty cell's text when it is not known (negative). */
const char *md_number(double v, const char *fmt, char *out, size_t size);
#endif
