/* One RFC 4180 field out, quoted only when it holds a comma, quote, CR or
 * LF.  Header-only because seer-bench, which writes the CSV files libseer
 * reads, links no libseer (the GPU machines need no LIBSVM); the CLI
 * uses the same function. */
#ifndef SEER_CSV_FIELD_H
#define SEER_CSV_FIELD_H
#include <stdio.h>
#include <string.h>

static inline void seer_csv_write_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}
#endif
