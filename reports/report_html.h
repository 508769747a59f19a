/* report_html.h: DIR/report.html from DIR/report.md (`peakfit report
 * --html`): one self-contained page, the charts inline as SVG. */
#ifndef PEAKFIT_REPORT_HTML_H
#define PEAKFIT_REPORT_HTML_H
#include <stddef.h>

/* Returns 0, or -1 with "PATH: reason" in err; report.html is written
 * whole or not at all. */
int report_html_write(const char *dir, char *err, size_t errlen);
#endif
