/* option_table.c: a table's rows as every reader of the engine sees them
 * (util/options.h): as written, or completed once where the table says
 * how (a command's options that borrow a point setting's). */
#include <string.h>
#include "util/options.h"

const struct opt_row *opt_rows(const struct opt_table *t)
{
    if (!t->complete)
        return t->rows;
    if (!t->ready->done) {
        memcpy(t->ready->rows, t->rows, (size_t)t->n_rows * sizeof t->rows[0]);
        t->complete(t->ready->rows, t->n_rows);
        t->ready->done = 1;
    }
    return t->ready->rows;
}

int opt_table_defaults(const struct opt_table *t, void *target, void *ctx, char *why, size_t size)
{
    return opt_defaults(opt_rows(t), t->n_rows, target, ctx, why, size);
}
