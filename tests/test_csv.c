/* The CSV tokenizer and typed fields (libseer/csv.c) through their own
 * API; tests/test_csv_rows.c reads the row formats built on them. */
#include <stdlib.h>
#include "test.h"
#include "csv.h"

TEST(csv_records_fields_and_lines)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    const char text[] = "a,b,\"c,d\"\r\n1,\"x\"\"y\",\"multi\nline\"\n\n2,3,4\n";
    seer_csv_t *c = NULL;
    REQUIRE(seer_csv_open_buffer(h, "t.csv", text, sizeof text - 1, &c) == SEER_STATUS_SUCCESS);
    CHECK(seer_csv_ncols(c) == 3 && seer_csv_col(c, "c,d") == 2 && seer_csv_col(c, "z") < 0);
    CHECK(seer_csv_header_line(c) == 1 && !strcmp(seer_csv_name(c), "t.csv"));
    int eof = 0;
    CHECK_STATUS(seer_csv_next(h, c, &eof), SEER_STATUS_SUCCESS);
    REQUIRE(!eof);
    CHECK(!strcmp(seer_csv_field(c, 1), "x\"y") && !strcmp(seer_csv_field(c, 2), "multi\nline"));
    CHECK(seer_csv_line(c) == 2);
    long v = 0;
    int iv = 0;
    CHECK_STATUS(seer_csv_long(h, c, 0, "a", 0, 10, &v), SEER_STATUS_SUCCESS);
    CHECK(v == 1);
    CHECK_STATUS(seer_csv_int(h, c, 1, "b", 0, 10, &iv), SEER_STATUS_CSV_BAD_VALUE);
    CHECK(strstr(seer_get_last_error(h), "t.csv:2: column 'b'") != NULL);
    CHECK_STATUS(seer_csv_next(h, c, &eof), SEER_STATUS_SUCCESS);
    REQUIRE(!eof);
    CHECK(seer_csv_line(c) == 5); /* the quoted newline and the blank line are counted */
    CHECK_STATUS(seer_csv_long(h, c, 2, "c,d", 0, 3, &v), SEER_STATUS_CSV_BAD_VALUE);
    CHECK(strstr(seer_get_last_error(h), "t.csv:5:") != NULL);
    CHECK_STATUS(seer_csv_bad_value(h, c, "x", "y", "is odd"), SEER_STATUS_CSV_BAD_VALUE);
    CHECK(strstr(seer_get_last_error(h), "t.csv:5: column 'x': 'y' is odd") != NULL);
    CHECK_STATUS(seer_csv_empty_value(h, c, "x"), SEER_STATUS_CSV_BAD_VALUE);
    CHECK(strstr(seer_get_last_error(h), "column 'x': empty") != NULL);
    CHECK_STATUS(seer_csv_next(h, c, &eof), SEER_STATUS_SUCCESS);
    CHECK(eof);
    seer_csv_close(c);
    seer_csv_close(NULL);
    seer_destroy(h);
}
