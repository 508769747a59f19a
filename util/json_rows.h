/* json_rows.h: a JSON object's members written as a table, one row per
 * member (its name, kind and value), that one loop adds in order. A row's
 * value is an expression, so a table is a local array built where its
 * values are known; members that only some objects have go in a table of
 * their own, added under their condition. */
#ifndef PEAKFIT_JSON_ROWS_H
#define PEAKFIT_JSON_ROWS_H
#include <stddef.h>
#include <jansson.h>

enum json_row_kind {
    JSON_ROW_REAL,         /* a number (jansson leaves out one that is not finite) */
    JSON_ROW_REAL_OR_NULL, /* a number, null when not finite */
    JSON_ROW_INT,          /* a whole number */
    JSON_ROW_BOOL,
    JSON_ROW_TEXT
};

struct json_row {
    const char *name;
    enum json_row_kind kind;
    double number; /* REAL, INT (exact to 2^53), BOOL (0 or 1) */
    const char *text;
};

#define JROW_REAL(name, v) {(name), JSON_ROW_REAL, (v), NULL}
#define JROW_REAL_OR_NULL(name, v) {(name), JSON_ROW_REAL_OR_NULL, (v), NULL}
#define JROW_INT(name, v) {(name), JSON_ROW_INT, (double)(v), NULL}
#define JROW_BOOL(name, v) {(name), JSON_ROW_BOOL, (v) ? 1 : 0, NULL}
#define JROW_TEXT(name, v) {(name), JSON_ROW_TEXT, 0, (v)}

/* Adds the n rows to o, in order. */
void json_rows_add(json_t *o, const struct json_row *rows, size_t n);
#define JSON_ROWS_ADD(o, rows) json_rows_add((o), (rows), sizeof(rows) / sizeof((rows)[0]))
#endif
