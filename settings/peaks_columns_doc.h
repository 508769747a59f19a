/* peaks_columns_doc.h: the documentation of peaks.csv's columns. */
#ifndef PEAKFIT_PEAKS_COLUMNS_DOC_H
#define PEAKFIT_PEAKS_COLUMNS_DOC_H
#include <stdio.h>

/* docs/peaks-csv.md: a title, what the types and roles mean, and one table
 * row per column. */
void peaks_csv_markdown(FILE *out);
#endif
