/* argv_print: writes its arguments (argv[1] on), each followed by a NUL,
 * to the file named by $ARGV_OUT: what a command job really received,
 * byte for byte, whatever the bytes. Exits 0, or 1 when it cannot write. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *path = getenv("ARGV_OUT");
    FILE *out = path ? fopen(path, "w") : NULL;
    if (!out)
        return 1;
    for (int i = 1; i < argc; i++)
        fwrite(argv[i], 1, strlen(argv[i]) + 1, out);
    return fclose(out) == 0 ? 0 : 1;
}
