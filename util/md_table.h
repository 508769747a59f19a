/* md_table.h: Markdown that peakfit writes itself (its own help texts,
 * code spans and all) put in a table cell of a generated document. Text
 * from data files is another matter: reports/markdown.h makes it inert. */
#ifndef PEAKFIT_MD_TABLE_H
#define PEAKFIT_MD_TABLE_H
#include <stdio.h>

/* Writes markdown with each `|` as `\|`: GitHub's tables split a row at
 * every bare pipe, inside a code span too (`q,v | all` made two cells). */
void md_table_cell(FILE *out, const char *markdown);
#endif
