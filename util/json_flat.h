/* json_flat.h: reads the top-level scalar members of a JSON object, as in a
 * Hugging Face config.json; nested objects and arrays are skipped. */
#ifndef PEAKFIT_JSON_FLAT_H
#define PEAKFIT_JSON_FLAT_H
#include <stddef.h>

/* Called once per top-level member whose value is a string, number, true,
 * false or null; value is the string's text or the literal as written. */
typedef void (*json_member_fn)(const char *key, const char *value, int is_string, void *ctx);

/* Returns 0, or -1 with a message (and its line) in err. */
int json_flat_read(const char *text, json_member_fn on_member, void *ctx, char *err, size_t errlen);
#endif
