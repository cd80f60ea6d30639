/* One RFC 4180 field out, quoted only when it holds a comma, quote, CR or
 * LF, or starts or ends with a space or tab (which the reader trims from
 * a bare field).  Header-only because seer-bench, which writes the CSV files libseer
 * reads, links no libseer (the GPU machines need no LIBSVM); the CLI
 * uses the same function. */
#ifndef SEER_CSV_FIELD_H
#define SEER_CSV_FIELD_H
#include <stdio.h>
#include <string.h>

static inline void seer_csv_write_field(FILE *f, const char *s)
{
    size_t n = strlen(s);
    int blank_end = n && (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' || s[n - 1] == '\t');
    if (!blank_end && !strpbrk(s, ",\"\r\n")) {
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
