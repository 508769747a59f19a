/* near_name.c: the optimal string alignment distance (Levenshtein plus
 * swapped neighbours), case-insensitive, over names of a few dozen bytes. */
#include <ctype.h>
#include <string.h>
#include "util/near_name.h"

enum { NEAR_MAX_LEN = 64 };

static int min3(int a, int b, int c) { return a < b ? (a < c ? a : c) : (b < c ? b : c); }

/* Edits turning a into b; NEAR_MAX_LEN + 1 when either is too long to be
 * a name worth comparing. */
static int distance(const char *a, const char *b)
{
    size_t m = strlen(a), n = strlen(b);
    if (m > NEAR_MAX_LEN || n > NEAR_MAX_LEN)
        return NEAR_MAX_LEN + 1;
    int d[NEAR_MAX_LEN + 1][NEAR_MAX_LEN + 1];
    for (size_t i = 0; i <= m; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= n; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= m; i++)
        for (size_t j = 1; j <= n; j++) {
            int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
            d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + !same);
            if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) && d[i - 2][j - 2] + 1 < d[i][j])
                d[i][j] = d[i - 2][j - 2] + 1;
        }
    return d[m][n];
}

void near_name_start(struct near_name *n, const char *word)
{
    *n = (struct near_name){.word = word, .best = NULL, .best_distance = NEAR_MAX_LEN + 1};
}

void near_name_offer(struct near_name *n, const char *name)
{
    int d = distance(n->word, name);
    if (d < n->best_distance) {
        n->best = name;
        n->best_distance = d;
    }
}

const char *near_name_best(const struct near_name *n)
{
    int allowed = strlen(n->word) <= 4 ? 1 : 2;
    return n->best && n->best_distance <= allowed ? n->best : NULL;
}
