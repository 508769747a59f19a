/* macho_dylibs: what a Mach-O file is and what it loads, read from its
 * header and load commands (no otool on Linux), for the check of the
 * macOS cross-build (tests/macos_build_check.sh). Prints
 *   macho CPU TYPE      (arm64 or the cputype in hex; execute, dylib or the filetype)
 *   dylib NAME          (each library it loads, weak or not)
 *   rpath PATH          (each run-path entry)
 * Exit 1 with a message for a file that is not a 64-bit little-endian
 * Mach-O (a Linux ELF, say). Usage: macho_dylibs FILE. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    MH_MAGIC_64 = 0xfeedfacf,
    CPU_ARM64 = 0x0100000c,
    MH_EXECUTE = 2,
    MH_DYLIB = 6,
    HEADER_SIZE = 32,
};

/* The load commands that name a library, and the one that names a run path. */
static const uint32_t dylib_commands[] = {0xc, 0x20, 0x80000018, 0x8000001f, 0x80000023};
static const uint32_t rpath_command = 0x8000001c;

static uint32_t u32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v); /* little-endian, as the file and the hosts it is read on */
    return v;
}

static int names_dylib(uint32_t cmd)
{
    for (size_t i = 0; i < sizeof dylib_commands / sizeof dylib_commands[0]; i++)
        if (dylib_commands[i] == cmd)
            return 1;
    return 0;
}

/* The string at offset within a command of size bytes (NUL-ended inside it). */
static void print_name(const char *what, const unsigned char *command, uint32_t size)
{
    uint32_t at = u32(command + 8);
    if (at < 12 || at >= size || !memchr(command + at, '\0', size - at)) {
        printf("%s (bad name offset)\n", what);
        return;
    }
    printf("%s %s\n", what, (const char *)command + at);
}

static int read_all(const char *path, unsigned char **data, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0)
        return -1;
    long size = ftell(f);
    rewind(f);
    *data = size > 0 ? malloc((size_t)size) : NULL;
    *n = *data ? fread(*data, 1, (size_t)size, f) : 0;
    fclose(f);
    return *data && *n == (size_t)size ? 0 : -1;
}

int main(int argc, char **argv)
{
    unsigned char *d = NULL;
    size_t n = 0;
    if (argc != 2 || read_all(argv[1], &d, &n) != 0) {
        fprintf(stderr, "macho_dylibs: usage: macho_dylibs FILE (a readable file)\n");
        free(d);
        return 1;
    }
    if (n < HEADER_SIZE || u32(d) != MH_MAGIC_64) {
        fprintf(stderr, "macho_dylibs: %s: not a 64-bit Mach-O file\n", argv[1]);
        free(d);
        return 1;
    }
    uint32_t cpu = u32(d + 4), type = u32(d + 12), ncmds = u32(d + 16);
    if (cpu == CPU_ARM64)
        printf("macho arm64 ");
    else
        printf("macho 0x%x ", cpu);
    if (type == MH_EXECUTE || type == MH_DYLIB)
        printf("%s\n", type == MH_EXECUTE ? "execute" : "dylib");
    else
        printf("0x%x\n", type);
    size_t at = HEADER_SIZE;
    for (uint32_t i = 0; i < ncmds && at + 12 <= n; i++) {
        uint32_t cmd = u32(d + at), size = u32(d + at + 4);
        if (size < 8 || at + size > n)
            break;
        if (names_dylib(cmd))
            print_name("dylib", d + at, size);
        else if (cmd == rpath_command)
            print_name("rpath", d + at, size);
        at += size;
    }
    free(d);
    return 0;
}
