/* report_html.c: DIR/report.html, one self-contained file to share: the
 * report.md just written, rendered by libcmark-gfm (CommonMark and its
 * table extension, which plain cmark lacks and every section uses; raw HTML
 * in the Markdown is not passed through, and every cell from a data file was
 * escaped by md_cell already), with each chart's image replaced by its SVG
 * from plots/ inline, and the style in the page itself. */
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "reports/report_html.h"
#include "util/input_file.h"
#include "util/output_file.h"

/* Charts larger than this are not gnuplot's; refused rather than inlined. */
#define SVG_MAX_BYTES (16LL << 20)
#define MD_MAX_BYTES (64LL << 20)

static const char style[] =
    "body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;line-height:1.4;color:#222}"
    "table{border-collapse:collapse;margin:1em 0;font-size:90%}"
    "th,td{border:1px solid #ccc;padding:0.25em 0.5em;text-align:left;vertical-align:top}"
    "th{background:#f2f2f2}tr:nth-child(even) td{background:#fafafa}"
    "pre{background:#f6f6f6;padding:0.5em;overflow-x:auto}"
    "svg{max-width:100%;height:auto;display:block;margin:1em 0}";

/* Is src (src_len bytes) a chart peakfit drew, plots/NAME.png with NAME
 * of letters, digits and _-. but no "..": nothing else is inlined (an
 * image path in a data file's text, ../../x.svg, reaches no file). */
static int is_chart(const char *src, size_t src_len)
{
    static const char dir[] = "plots/", safe[] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.";
    size_t d = sizeof dir - 1;
    if (src_len < d + 5 || src_len > 300 || strncmp(src, dir, d) != 0 || strncmp(src + src_len - 4, ".png", 4) != 0)
        return 0;
    for (size_t i = d; i < src_len; i++)
        if (!strchr(safe, src[i]) || (src[i] == '.' && src[i + 1] == '.'))
            return 0;
    return 1;
}

/* The chart's SVG from its <svg on (without the XML prolog), or NULL when
 * there is none. */
static char *chart_svg(const char *dir, const char *src, size_t src_len)
{
    char path[4400], err[4600];
    if (!is_chart(src, src_len))
        return NULL;
    snprintf(path, sizeof path, "%s/%.*s.svg", dir, (int)(src_len - 4), src);
    char *text = input_file_read(path, "chart", SVG_MAX_BYTES, NULL, err, sizeof err);
    char *svg = text ? strstr(text, "<svg") : NULL;
    if (!svg) {
        free(text);
        return NULL;
    }
    memmove(text, svg, strlen(svg) + 1);
    return text;
}

/* Writes html to f, each <img src="plots/NAME.png" ... /> that cmark
 * wrote replaced by plots/NAME.svg inline (kept as it is where there is
 * no SVG: its alt text still says what it was). */
static void write_body(FILE *f, const char *dir, const char *html)
{
    static const char img[] = "<img src=\"";
    const char *at = html;
    for (const char *hit; (hit = strstr(at, img)) != NULL;) {
        const char *src = hit + sizeof img - 1, *quote = strchr(src, '"'), *end = strstr(src, "/>");
        if (!quote || !end)
            break;
        char *svg = chart_svg(dir, src, (size_t)(quote - src));
        fwrite(at, 1, (size_t)(hit - at), f);
        if (svg)
            fputs(svg, f);
        else
            fwrite(hit, 1, (size_t)(end + 2 - hit), f);
        free(svg);
        at = end + 2;
    }
    fputs(at, f);
}

/* Markdown with GitHub's tables to HTML (to free()), or NULL. */
static char *render(const char *md, size_t len)
{
    cmark_gfm_core_extensions_ensure_registered();
    cmark_parser *parser = cmark_parser_new(CMARK_OPT_DEFAULT);
    cmark_syntax_extension *table = cmark_find_syntax_extension("table");
    if (!parser || !table || !cmark_parser_attach_syntax_extension(parser, table)) {
        if (parser)
            cmark_parser_free(parser);
        return NULL;
    }
    cmark_parser_feed(parser, md, len);
    cmark_node *doc = cmark_parser_finish(parser);
    char *html = doc ? cmark_render_html(doc, CMARK_OPT_DEFAULT, cmark_parser_get_syntax_extensions(parser)) : NULL;
    if (doc)
        cmark_node_free(doc);
    cmark_parser_free(parser);
    return html;
}

int report_html_write(const char *dir, char *err, size_t errlen)
{
    char md_path[4400], html_path[4400];
    struct output_file out;
    size_t len;
    snprintf(md_path, sizeof md_path, "%s/report.md", dir);
    snprintf(html_path, sizeof html_path, "%s/report.html", dir);
    char *md = input_file_read(md_path, "report", MD_MAX_BYTES, &len, err, errlen);
    if (!md)
        return -1;
    char *html = render(md, len);
    free(md);
    if (!html) {
        snprintf(err, errlen, "%s: libcmark-gfm could not render it", md_path);
        return -1;
    }
    int rc = output_file_open(&out, html_path, err, errlen);
    if (rc == 0) {
        /* the page's title is the report's own heading, in the body: none of a data file's text here */
        fprintf(out.f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                       "<title>peakfit report</title>\n<style>%s</style>\n</head>\n<body>\n", style);
        write_body(out.f, dir, html);
        fprintf(out.f, "</body>\n</html>\n");
        rc = output_file_commit(&out, err, errlen);
    }
    free(html);
    return rc;
}
