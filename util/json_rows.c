/* json_rows.c: adding a table of rows to a JSON object. */
#include <math.h>
#include "util/json_rows.h"

static json_t *value(const struct json_row *r)
{
    switch (r->kind) {
    case JSON_ROW_REAL: return json_real(r->number);
    case JSON_ROW_REAL_OR_NULL: return isfinite(r->number) ? json_real(r->number) : json_null();
    case JSON_ROW_INT: return json_integer((json_int_t)r->number);
    case JSON_ROW_BOOL: return json_boolean(r->number != 0);
    case JSON_ROW_TEXT: return json_string(r->text);
    }
    return NULL;
}

void json_rows_add(json_t *o, const struct json_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++)
        json_object_set_new(o, rows[i].name, value(&rows[i]));
}
