/* CSV row readers (libseer/csv_rows.c, over csv.c's tokenizer): every error
 * path, quoting, real data. */
#include <stdlib.h>
#include <unistd.h>
#include "test.h"
#include "csv.h"

#define CONV_HDR "gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,groups,algo"
#define CONV_ROW "t4,fwd,fp32,nchw,8,64,56,56,64,3,3,1,1,1,1,1,1,1"
#define GEMM_HDR "gpu,op,dtype,batch,m,n,k,trans_a,trans_b,bias,time_ms"
#define KERN_HDR CONV_HDR ",call_id,kernel_index,kernel_name,grid_x,grid_y,grid_z,block_x,block_y," \
    "block_z,regs_per_thread,smem_static,smem_dynamic,time_ms"

static seer_handle_t H;

static seer_handle_t handle(void)
{
    if (!H) seer_create(&H);
    return H;
}

static int msg_has(const char *s) { return strstr(seer_get_last_error(handle()), s) != NULL; }

static seer_status_t conv(const char *text, seer_conv_row_t **rows, size_t *n)
{
    return seer_conv_csv_parse(handle(), "t.csv", text, strlen(text), rows, n);
}

/* Parse text expecting an error; rows must stay untouched. */
static seer_status_t conv_err(const char *text)
{
    seer_conv_row_t *rows = (seer_conv_row_t *)&H;
    size_t n = 12345;
    seer_status_t st = conv(text, &rows, &n);
    CHECK(rows == (seer_conv_row_t *)&H);
    CHECK(n == 12345);
    if (st == SEER_STATUS_SUCCESS) free(rows);
    return st;
}

TEST(csv_tokenizer_quotes_and_newlines)
{
    const char *text = "\xEF\xBB\xBF" "a,b,c\r\n"
                       "\r\n"
                       "1,\"x, y\",\"say \"\"hi\"\"\"\r\n"
                       "\n"
                       "2,\"two\nlines\",\"crlf\r\ninside\"\n"
                       "3,,\"\"\n"
                       "4,last,\"no newline at end\"";
    seer_csv_t *c;
    CHECK_STATUS(seer_csv_open_buffer(handle(), "q.csv", text, strlen(text), &c), SEER_STATUS_SUCCESS);
    REQUIRE(c);
    CHECK(seer_csv_ncols(c) == 3);
    CHECK(seer_csv_col(c, "a") == 0);     /* the BOM is not part of the name */
    CHECK(seer_csv_col(c, "c") == 2);
    CHECK(seer_csv_col(c, "C") == -1);
    CHECK(strcmp(seer_csv_name(c), "q.csv") == 0);
    int eof = 0;
    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_SUCCESS);
    CHECK(!eof && seer_csv_line(c) == 3);
    CHECK(strcmp(seer_csv_field(c, 1), "x, y") == 0);
    CHECK(strcmp(seer_csv_field(c, 2), "say \"hi\"") == 0);
    CHECK(strcmp(seer_csv_field(c, -1), "") == 0);
    CHECK(strcmp(seer_csv_field(c, 3), "") == 0);
    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_SUCCESS);
    CHECK(!eof && seer_csv_line(c) == 5);
    CHECK(strcmp(seer_csv_field(c, 1), "two\nlines") == 0);
    CHECK(strcmp(seer_csv_field(c, 2), "crlf\r\ninside") == 0);
    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_SUCCESS);
    CHECK(!eof && seer_csv_line(c) == 8);   /* lines inside quotes counted */
    CHECK(strcmp(seer_csv_field(c, 1), "") == 0 && strcmp(seer_csv_field(c, 2), "") == 0);
    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_SUCCESS);
    CHECK(!eof && seer_csv_line(c) == 9);
    CHECK(strcmp(seer_csv_field(c, 2), "no newline at end") == 0);
    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_SUCCESS);
    CHECK(eof);
    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_SUCCESS);
    CHECK(eof);
    seer_csv_close(c);
    seer_csv_close(NULL);
}

TEST(csv_tokenizer_long_field)
{
    /* No fixed field length: a 200 kB field comes back whole. */
    size_t len = 200000;
    char *text = malloc(len + 32);
    REQUIRE(text);
    strcpy(text, "x\n\"");
    memset(text + 3, 'k', len);
    strcpy(text + 3 + len, "\"\n");
    seer_csv_t *c;
    CHECK_STATUS(seer_csv_open_buffer(handle(), "long", text, strlen(text), &c), SEER_STATUS_SUCCESS);
    int eof;
    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_SUCCESS);
    CHECK(!eof && strlen(seer_csv_field(c, 0)) == len);
    seer_csv_close(c);
    free(text);
}

TEST(csv_tokenizer_syntax_errors)
{
    seer_csv_t *c;
    int eof;
    /* Unterminated quote: names the line where the quote opened. */
    const char *t1 = "a,b\n1,2\n3,\"open\nmore\nstill\n";
    CHECK_STATUS(seer_csv_open_buffer(handle(), "u.csv", t1, strlen(t1), &c), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_CSV_SYNTAX);
    CHECK(msg_has("u.csv:3:") && msg_has("unterminated"));
    /* Sticky: the reader stays failed. */
    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_CSV_SYNTAX);
    seer_csv_close(c);

    /* Field count: names the line and both counts. */
    const char *t2 = "a,b,c\n1,2,3\n\n4,5\n";
    CHECK_STATUS(seer_csv_open_buffer(handle(), "f.csv", t2, strlen(t2), &c), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_CSV_SYNTAX);
    CHECK(msg_has("f.csv:4:") && msg_has("2 fields") && msg_has("has 3"));
    seer_csv_close(c);

    /* NUL byte. */
    const char t3[] = "a,b\n1,2\n3,x\0y\n";
    CHECK_STATUS(seer_csv_open_buffer(handle(), "z.csv", t3, sizeof t3 - 1, &c), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_CSV_SYNTAX);
    CHECK(msg_has("z.csv:3:") && msg_has("NUL"));
    seer_csv_close(c);

    /* Text after a closing quote. */
    const char *t4 = "a,b\n\"x\"y,2\n";
    CHECK_STATUS(seer_csv_open_buffer(handle(), "t.csv", t4, strlen(t4), &c), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_CSV_SYNTAX);
    CHECK(msg_has("t.csv:2:") && msg_has("after the closing quote"));
    seer_csv_close(c);

    /* A syntax error in the header fails the open. */
    c = NULL;
    const char *t5 = "a,\"b\n";
    CHECK_STATUS(seer_csv_open_buffer(handle(), "h.csv", t5, strlen(t5), &c), SEER_STATUS_CSV_SYNTAX);
    CHECK(c == NULL && msg_has("h.csv:1:"));
}

/* A column named twice: seer_csv_col would take the first and drop the
 * other without a word, so every format refuses the header. */
TEST(csv_duplicate_column_names)
{
    seer_csv_t *c = NULL;
    const char *t = "\n a,b , a\n1,2,3\n";
    CHECK_STATUS(seer_csv_open_buffer(handle(), "d.csv", t, strlen(t), &c), SEER_STATUS_CSV_SYNTAX);
    CHECK(c == NULL && msg_has("d.csv:2: column 'a' appears twice in the header (columns 1 and 3)"));
    /* case matters, as for seer_csv_col; empty names may repeat */
    const char *ok = "a,A,,b,\n1,2,3,4,5\n";
    CHECK_STATUS(seer_csv_open_buffer(handle(), "ok.csv", ok, strlen(ok), &c), SEER_STATUS_SUCCESS);
    seer_csv_close(c);

    CHECK(conv_err(CONV_HDR ",gpu\n" CONV_ROW ",,v100\n") == SEER_STATUS_CSV_SYNTAX);
    CHECK(msg_has("t.csv:1: column 'gpu' appears twice"));
    /* an extra column no reader wants, twice */
    CHECK(conv_err(CONV_HDR ",note,note\n" CONV_ROW ",,x,y\n") == SEER_STATUS_CSV_SYNTAX);
    CHECK(msg_has("column 'note' appears twice"));
    seer_gemm_row_t *g = NULL;
    size_t n = 0;
    const char *gt = GEMM_HDR ",m\nt4,linear,fp32,1,64,64,64,0,0,0,0.1,128\n";
    CHECK_STATUS(seer_gemm_csv_parse(handle(), "g.csv", gt, strlen(gt), &g, &n), SEER_STATUS_CSV_SYNTAX);
    CHECK(g == NULL && msg_has("g.csv:1: column 'm' appears twice"));
    seer_kernel_row_t *k = NULL;
    const char *kt = KERN_HDR ",kernel_name\n" CONV_ROW ",,1,0,k,1,1,1,1,1,1,32,0,0,0.1,k\n";
    CHECK_STATUS(seer_kernel_csv_parse(handle(), "k.csv", kt, strlen(kt), &k, &n), SEER_STATUS_CSV_SYNTAX);
    CHECK(k == NULL && msg_has("k.csv:1: column 'kernel_name' appears twice"));
}

TEST(csv_empty_inputs)
{
    seer_csv_t *c = NULL;
    CHECK_STATUS(seer_csv_open_buffer(handle(), "e.csv", "", 0, &c), SEER_STATUS_CSV_EMPTY);
    CHECK_STATUS(seer_csv_open_buffer(handle(), "e.csv", NULL, 0, &c), SEER_STATUS_CSV_EMPTY);
    CHECK_STATUS(seer_csv_open_buffer(handle(), "e.csv", "\xEF\xBB\xBF\r\n\n", 5, &c), SEER_STATUS_CSV_EMPTY);
    CHECK(c == NULL && msg_has("e.csv"));
    CHECK_STATUS(seer_csv_open_buffer(handle(), "e.csv", NULL, 1, &c), SEER_STATUS_BAD_PARAM);

    /* Header only: the row readers have nothing to return. */
    CHECK(conv_err(CONV_HDR "\n") == SEER_STATUS_CSV_EMPTY);
    CHECK(msg_has("t.csv") && msg_has("no data rows"));
    CHECK(conv_err(CONV_HDR "\n\n\r\n") == SEER_STATUS_CSV_EMPTY);
    CHECK(conv_err("") == SEER_STATUS_CSV_EMPTY);
    seer_gemm_row_t *g = NULL;
    size_t n = 0;
    CHECK_STATUS(seer_gemm_csv_parse(handle(), "g", GEMM_HDR, strlen(GEMM_HDR), &g, &n),
                 SEER_STATUS_CSV_EMPTY);
    seer_kernel_row_t *k = NULL;
    CHECK_STATUS(seer_kernel_csv_parse(handle(), "k", KERN_HDR, strlen(KERN_HDR), &k, &n),
                 SEER_STATUS_CSV_EMPTY);
    CHECK(g == NULL && k == NULL);
}

TEST(csv_math_type_keeps_the_framework_twin)
{
    /* seer-bench times an algorithm once per math type: FP16 under
     * DEFAULT ran SIMT kernels, under TENSOR_OP tensor cores.  The
     * framework's twin stays, the other goes; an algorithm measured under
     * one math type only, and rows with no math type, stay. */
    const char *t = CONV_HDR ",time_ms,math_type\n"
        "h200,fwd,fp16,nhwc,8,64,56,56,64,3,3,1,1,1,1,1,1,1,IMPLICIT_PRECOMP_GEMM,0.5,DEFAULT\n"
        "h200,fwd,fp16,nhwc,8,64,56,56,64,3,3,1,1,1,1,1,1,1,IMPLICIT_PRECOMP_GEMM,0.1,TENSOR_OP\n"
        "h200,fwd,fp16,nhwc,8,64,56,56,64,3,3,1,1,1,1,1,1,1,IMPLICIT_GEMM,0.7,DEFAULT\n"
        "h200,fwd,tf32,nhwc,8,64,56,56,64,3,3,1,1,1,1,1,1,1,IMPLICIT_PRECOMP_GEMM,0.2,TENSOR_OP\n"
        "h200,fwd,tf32,nhwc,8,64,56,56,64,3,3,1,1,1,1,1,1,1,IMPLICIT_PRECOMP_GEMM,0.21,DEFAULT\n"
        "h200,fwd,fp32,nhwc,8,64,56,56,64,3,3,1,1,1,1,1,1,1,IMPLICIT_PRECOMP_GEMM,0.9,FMA\n"
        "h200,fwd,fp16,nhwc,4,64,56,56,64,3,3,1,1,1,1,1,1,1,IMPLICIT_PRECOMP_GEMM,0.3,DEFAULT\n"
        "h200,fwd,fp16,nhwc,8,64,56,56,64,3,3,1,1,1,1,1,1,1,IMPLICIT_PRECOMP_GEMM,0.4,\n";
    seer_conv_row_t *rows = NULL;
    size_t n = 0;
    CHECK_STATUS(conv(t, &rows, &n), SEER_STATUS_SUCCESS);
    REQUIRE(n == 8);
    CHECK(rows[0].math == SEER_CSV_MATH_DEFAULT && rows[1].math == SEER_CSV_MATH_TENSOR_OP &&
          rows[5].math == SEER_CSV_MATH_FMA && rows[7].math == SEER_CSV_MATH_NONE);
    CHECK_STATUS(seer_conv_rows_framework_math(handle(), rows, &n), SEER_STATUS_SUCCESS);
    static const long kept[] = {3, 4, 6, 7, 8, 9}; /* lines, in file order */
    CHECK(n == 6);
    for (size_t i = 0; i < n && i < 6; i++) CHECK(rows[i].line == kept[i]);
    free(rows);
    /* a math type cuDNN does not have is named with its line */
    const char *bad = CONV_HDR ",time_ms,math_type\n" CONV_ROW ",IMPLICIT_GEMM,0.5,FAST\n";
    CHECK(conv_err(bad) == SEER_STATUS_CSV_BAD_VALUE);
    CHECK(msg_has("t.csv:2") && msg_has("math_type") && msg_has("FAST"));
}

TEST(csv_typed_fields)
{
    const char *t = "i,d\n42,0.25\n-7,1e-3\nabc,x\n 1,inf\n99999999999,nan\n,0x10\n+5,1e999\n1.5, 2\n";
    seer_csv_t *c;
    int eof, v;
    double d;
    CHECK_STATUS(seer_csv_open_buffer(handle(), "n.csv", t, strlen(t), &c), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_csv_int(handle(), c, 0, "i", 0, 100, &v), SEER_STATUS_SUCCESS);
    CHECK(v == 42);
    CHECK_STATUS(seer_csv_dbl(handle(), c, 1, "d", &d), SEER_STATUS_SUCCESS);
    CHECK(d == 0.25);
    CHECK_STATUS(seer_csv_int(handle(), c, 0, "i", 0, 10, &v), SEER_STATUS_CSV_BAD_VALUE);
    CHECK(msg_has("n.csv:2: column 'i': '42' is out of range [0, 10]"));
    CHECK_STATUS(seer_csv_int(handle(), c, -1, "absent", 0, 10, &v), SEER_STATUS_CSV_BAD_VALUE);
    CHECK(msg_has("n.csv:2: column 'absent': empty"));

    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_csv_int(handle(), c, 0, "i", -10, 10, &v), SEER_STATUS_SUCCESS);
    CHECK(v == -7);
    CHECK_STATUS(seer_csv_dbl(handle(), c, 1, "d", &d), SEER_STATUS_SUCCESS);
    CHECK(d == 1e-3);

    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_SUCCESS);
    v = 77;
    CHECK_STATUS(seer_csv_int(handle(), c, 0, "n", 0, 10, &v), SEER_STATUS_CSV_BAD_VALUE);
    CHECK(v == 77);
    CHECK(msg_has("n.csv:4: column 'n': 'abc' is not an integer"));
    CHECK_STATUS(seer_csv_dbl(handle(), c, 1, "d", &d), SEER_STATUS_CSV_BAD_VALUE);
    CHECK(msg_has("n.csv:4: column 'd': 'x' is not a number"));

    /* " 1": the blank around a field is not part of it (the tokenizer) */
    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_csv_int(handle(), c, 0, "i", 0, 10, &v), SEER_STATUS_SUCCESS);
    CHECK(v == 1);
    CHECK_STATUS(seer_csv_dbl(handle(), c, 1, "d", &d), SEER_STATUS_CSV_BAD_VALUE);

    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_csv_int(handle(), c, 0, "i", 0, 2147483647L, &v), SEER_STATUS_CSV_BAD_VALUE);
    CHECK(msg_has("out of range"));
    CHECK_STATUS(seer_csv_dbl(handle(), c, 1, "d", &d), SEER_STATUS_CSV_BAD_VALUE);

    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_csv_int(handle(), c, 0, "i", 0, 10, &v), SEER_STATUS_CSV_BAD_VALUE);
    CHECK(msg_has("n.csv:7: column 'i': empty"));
    CHECK_STATUS(seer_csv_dbl(handle(), c, 1, "d", &d), SEER_STATUS_CSV_BAD_VALUE);

    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_csv_int(handle(), c, 0, "i", 0, 10, &v), SEER_STATUS_SUCCESS);
    CHECK(v == 5);
    CHECK_STATUS(seer_csv_dbl(handle(), c, 1, "d", &d), SEER_STATUS_CSV_BAD_VALUE);
    CHECK(msg_has("out of range"));

    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_csv_int(handle(), c, 0, "i", 0, 10, &v), SEER_STATUS_CSV_BAD_VALUE);
    CHECK_STATUS(seer_csv_dbl(handle(), c, 1, "d", &d), SEER_STATUS_SUCCESS);
    CHECK(d == 2);
    seer_csv_close(c);

    /* ", " between fields, blanks and tabs around them, in the header too;
     * a quoted field keeps its own blanks, and blanks inside a field stay */
    const char *b = "a , b,\tc\n 1 ,\" x y \" , p q\t\n";
    CHECK_STATUS(seer_csv_open_buffer(handle(), "b.csv", b, strlen(b), &c), SEER_STATUS_SUCCESS);
    CHECK(seer_csv_col(c, "a") == 0 && seer_csv_col(c, "b") == 1 && seer_csv_col(c, "c") == 2);
    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_SUCCESS);
    CHECK(!strcmp(seer_csv_field(c, 0), "1") && !strcmp(seer_csv_field(c, 1), " x y ") &&
          !strcmp(seer_csv_field(c, 2), "p q"));
    seer_csv_close(c);
    /* a line of only blanks is a blank line, at the end too */
    const char *bl = "a,b\n1,2\n  \t \r\n3,4\n \t";
    CHECK_STATUS(seer_csv_open_buffer(handle(), "bl.csv", bl, strlen(bl), &c), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_SUCCESS);
    CHECK(!eof && !strcmp(seer_csv_field(c, 0), "1"));
    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_SUCCESS);
    CHECK(!eof && !strcmp(seer_csv_field(c, 1), "4") && seer_csv_line(c) == 4);
    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_SUCCESS);
    CHECK(eof);
    seer_csv_close(c);
    /* what the writer quotes reads back as written: blanks at a field's
     * ends are quoted (a bare one is trimmed) */
    static const char *const fields[] = {" 1", "x\t", "a b", "p,q", "\"", ""};
    char buf[256];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    REQUIRE(f);
    fputs("h0,h1,h2,h3,h4,h5\n", f);
    for (int i = 0; i < 6; i++) {
        if (i) fputc(',', f);
        seer_csv_write_field(f, fields[i]);
    }
    fputc('\n', f);
    fclose(f);
    CHECK_STATUS(seer_csv_open_buffer(handle(), "w.csv", buf, strlen(buf), &c), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_csv_next(handle(), c, &eof), SEER_STATUS_SUCCESS);
    for (int i = 0; i < 6; i++) CHECK(!strcmp(seer_csv_field(c, i), fields[i]));
    seer_csv_close(c);
}

TEST(csv_conv_rows)
{
    const char *t =
        CONV_HDR ",time_ms,main_kernel,grid_x,grid_y,grid_z,block_x,block_y,block_z,kernels,source,extra\n"
        CONV_ROW ",IMPLICIT_GEMM,0.5,\"k<float, 1>\",4,2,1,256,1,1,\"a<x, y>;b;c<1, 2>\",test,ignored\n"
        CONV_ROW ",,1.25,,,,,,,,,,\n"
        CONV_ROW ",MIXED,2,,,,,,,,,,\n"
        CONV_ROW ",LICIT_PRECOMP_GEMM,3,,,,,,,,\"\",,\n"
        "t4,bwd_data,fp16,nhwc,8,64,56,56,64,3,3,1,1,1,1,1,1,1,ALGO_1,,,,,,,,,\"only;\",,\n";
    seer_conv_row_t *rows = NULL;
    size_t n = 0;
    CHECK_STATUS(conv(t, &rows, &n), SEER_STATUS_SUCCESS);
    REQUIRE(rows && n == 5);
    CHECK(strcmp(rows[0].gpu, "t4") == 0);
    CHECK(rows[0].dir == SEER_DIR_FWD && rows[0].dtype == SEER_DTYPE_FP32);
    CHECK(rows[0].layout == SEER_LAYOUT_NCHW);
    CHECK(rows[0].shape.n == 8 && rows[0].shape.c == 64 && rows[0].shape.h == 56 && rows[0].shape.w == 56);
    CHECK(rows[0].shape.k == 64 && rows[0].shape.r == 3 && rows[0].shape.s == 3 && rows[0].shape.groups == 1);
    CHECK(rows[0].algo == SEER_FWD_ALGO_IMPLICIT_GEMM);
    CHECK(rows[0].time_ms == 0.5);
    CHECK(strcmp(rows[0].main_kernel, "k<float, 1>") == 0);
    CHECK(rows[0].grid[0] == 4 && rows[0].grid[1] == 2 && rows[0].block[0] == 256);
    CHECK(rows[0].n_kernels == 3);
    CHECK(strcmp(rows[0].source, "test") == 0);
    CHECK(rows[0].line == 2);
    CHECK(rows[1].algo == SEER_ALGO_NONE && rows[1].time_ms == 1.25);
    CHECK(rows[1].grid[0] == 0 && rows[1].block[2] == 0 && rows[1].n_kernels == 0);
    CHECK(rows[2].algo == SEER_ALGO_UNKNOWN);
    CHECK(rows[3].algo == SEER_ALGO_BAD_NAME);
    CHECK_STATUS(seer_conv_row_algo_error(handle(), "x.csv", &rows[3]), SEER_STATUS_CSV_BAD_VALUE);
    CHECK(msg_has("x.csv:5: column 'algo': 'LICIT_PRECOMP_GEMM' is not a fwd algorithm"));
    CHECK_STATUS(seer_conv_row_algo_error(handle(), "x.csv", &rows[2]), SEER_STATUS_SUCCESS);
    CHECK(rows[4].dir == SEER_DIR_BWD_DATA && rows[4].algo == SEER_BWD_DATA_ALGO_1);
    CHECK(rows[4].dtype == SEER_DTYPE_FP16 && rows[4].layout == SEER_LAYOUT_NHWC);
    CHECK(rows[4].time_ms < 0 && rows[4].n_kernels == 1 && rows[4].line == 6);
    free(rows);

    /* time_ms absent entirely: a prediction input. */
    const char *t2 = CONV_HDR "\n" CONV_ROW ",WINOGRAD\n";
    CHECK_STATUS(conv(t2, &rows, &n), SEER_STATUS_SUCCESS);
    REQUIRE(n == 1);
    CHECK(rows[0].time_ms < 0 && rows[0].algo == SEER_FWD_ALGO_WINOGRAD);
    free(rows);

    /* cuDNN's choice as seer predict names it reads as the empty column */
    const char *t3 = CONV_HDR "\n" CONV_ROW ",CUDNN_CHOICE\n";
    CHECK_STATUS(conv(t3, &rows, &n), SEER_STATUS_SUCCESS);
    REQUIRE(n == 1);
    CHECK(rows[0].algo == SEER_ALGO_NONE);
    free(rows);
}

TEST(csv_conv_long_strings_truncate)
{
    char big[3001];
    memset(big, 'm', 3000);
    big[3000] = 0;
    char t[8192];
    snprintf(t, sizeof t, CONV_HDR ",main_kernel,source\n" CONV_ROW ",GEMM,\"%s\",%s\n", big, big);
    seer_conv_row_t *rows = NULL;
    size_t n = 0;
    CHECK_STATUS(conv(t, &rows, &n), SEER_STATUS_SUCCESS);
    REQUIRE(n == 1);
    CHECK(strlen(rows[0].main_kernel) == sizeof rows[0].main_kernel - 1);
    CHECK(strlen(rows[0].source) == sizeof rows[0].source - 1);
    free(rows);
}

TEST(csv_conv_errors)
{
    CHECK(conv_err("gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,groups\n"
                   CONV_ROW "\n") == SEER_STATUS_CSV_MISSING_COLUMN);
    CHECK(msg_has("t.csv:1:") && msg_has("'algo'"));
    CHECK(conv_err("gpu,direction,dtype,layout,n,c,h,w,k,r,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,groups,algo\n"
                   "t4,fwd,fp32,nchw,8,64,56,56,64,3,1,1,1,1,1,1,1,\n") == SEER_STATUS_CSV_MISSING_COLUMN);
    CHECK(msg_has("'s'"));

    CHECK(conv_err(CONV_HDR "\n" CONV_ROW ",\n" "t4,fwd,fp32,nchw,x,64,56,56,64,3,3,1,1,1,1,1,1,1,\n")
          == SEER_STATUS_CSV_BAD_VALUE);
    CHECK(msg_has("t.csv:3: column 'n': 'x' is not an integer"));
    CHECK(conv_err(CONV_HDR "\n" "t4,sideways,fp32,nchw,8,64,56,56,64,3,3,1,1,1,1,1,1,1,\n")
          == SEER_STATUS_CSV_BAD_VALUE);
    CHECK(msg_has("t.csv:2: column 'direction': 'sideways'"));
    CHECK(conv_err(CONV_HDR "\n" "t4,fwd,fp64,nchw,8,64,56,56,64,3,3,1,1,1,1,1,1,1,\n")
          == SEER_STATUS_CSV_BAD_VALUE);
    CHECK(msg_has("column 'dtype'"));
    CHECK(conv_err(CONV_HDR "\n" "t4,fwd,fp32,chwn,8,64,56,56,64,3,3,1,1,1,1,1,1,1,\n")
          == SEER_STATUS_CSV_BAD_VALUE);
    CHECK(msg_has("column 'layout'"));
    CHECK(conv_err(CONV_HDR "\n" ",fwd,fp32,nchw,8,64,56,56,64,3,3,1,1,1,1,1,1,1,\n")
          == SEER_STATUS_CSV_BAD_VALUE);
    CHECK(msg_has("column 'gpu': empty"));
    CHECK(conv_err(CONV_HDR "\n" "a-gpu-name-that-is-far-too-long-for-the-table,fwd,fp32,nchw,8,64,56,56,64,3,3,1,1,1,1,1,1,1,\n")
          == SEER_STATUS_CSV_BAD_VALUE);
    CHECK(msg_has("column 'gpu'"));
    CHECK(conv_err(CONV_HDR ",time_ms\n" CONV_ROW ",,0\n") == SEER_STATUS_CSV_BAD_VALUE);
    CHECK(msg_has("t.csv:2: column 'time_ms'"));
    CHECK(conv_err(CONV_HDR ",time_ms\n" CONV_ROW ",,-1\n") == SEER_STATUS_CSV_BAD_VALUE);
    CHECK(conv_err(CONV_HDR ",time_ms\n" CONV_ROW ",,fast\n") == SEER_STATUS_CSV_BAD_VALUE);
    CHECK(conv_err(CONV_HDR ",grid_x\n" CONV_ROW ",,-4\n") == SEER_STATUS_CSV_BAD_VALUE);
    CHECK(msg_has("column 'grid_x'"));

    /* Shape validation from seer_conv_init, with the place prefixed. */
    CHECK(conv_err(CONV_HDR "\n" CONV_ROW ",\n" "t4,fwd,fp32,nchw,0,64,56,56,64,3,3,1,1,1,1,1,1,1,\n")
          == SEER_STATUS_BAD_SHAPE);
    CHECK(msg_has("t.csv:3: "));
    CHECK(conv_err(CONV_HDR "\n" "t4,fwd,fp32,nchw,8,64,56,56,64,3,3,1,1,1,1,1,1,3,\n")
          == SEER_STATUS_BAD_GROUPS);
    CHECK(msg_has("t.csv:2: "));

    /* Syntax errors come through the row readers too. */
    CHECK(conv_err(CONV_HDR "\n" CONV_ROW "\n") == SEER_STATUS_CSV_SYNTAX);
    CHECK(msg_has("t.csv:2:") && msg_has("18 fields") && msg_has("19"));
    CHECK(conv_err(CONV_HDR ",source\n" CONV_ROW ",,\"never closed\n\n") == SEER_STATUS_CSV_SYNTAX);
    CHECK(msg_has("t.csv:2:"));

    /* NULL outputs. */
    size_t n;
    seer_conv_row_t *rows;
    CHECK_STATUS(seer_conv_csv_parse(handle(), "t", "a", 1, NULL, &n), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_conv_csv_parse(handle(), "t", "a", 1, &rows, NULL), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_conv_csv_read(handle(), "/nonexistent/dir/x.csv", &rows, &n), SEER_STATUS_IO_ERROR);
    CHECK(msg_has("/nonexistent/dir/x.csv"));
    /* A NULL handle is allowed: just no message. */
    CHECK_STATUS(seer_conv_csv_parse(NULL, "t", "", 0, &rows, &n), SEER_STATUS_CSV_EMPTY);
    const char *zero = CONV_HDR "\n" "t4,fwd,fp32,nchw,0,64,56,56,64,3,3,1,1,1,1,1,1,1,\n";
    CHECK_STATUS(seer_conv_csv_parse(NULL, NULL, zero, strlen(zero), &rows, &n), SEER_STATUS_BAD_SHAPE);
}

TEST(csv_kernel_rows)
{
    const char *t =
        KERN_HDR ",dram_read_bytes,dram_write_bytes,sm_pct,dram_pct,occupancy_pct,tensor_pct,source\n"
        CONV_ROW ",IMPLICIT_PRECOMP_GEMM,7,0,\"void conv<float, 128>(int, float*)\",10,2,1,256,1,1,"
        "96,1024,4096,0.125,1e6,2e6,55.5,30,45,0,seer-bench:t4:1\n"
        CONV_ROW ",IMPLICIT_PRECOMP_GEMM,7,1,reduce,1,1,1,32,1,1,16,0,0,0.01,,,,,,,seer-bench:t4:1\n";
    seer_kernel_row_t *rows = NULL;
    size_t n = 0;
    CHECK_STATUS(seer_kernel_csv_parse(handle(), "k.csv", t, strlen(t), &rows, &n), SEER_STATUS_SUCCESS);
    REQUIRE(rows && n == 2);
    CHECK(rows[0].call_id == 7 && rows[0].kernel_index == 0 && rows[1].kernel_index == 1);
    CHECK(strcmp(rows[0].kernel_name, "void conv<float, 128>(int, float*)") == 0);
    CHECK(rows[0].conv.grid[0] == 10 && rows[0].conv.grid[1] == 2 && rows[0].conv.block[0] == 256);
    CHECK(rows[0].regs_per_thread == 96 && rows[0].smem_bytes == 1024 + 4096);
    CHECK(rows[0].conv.time_ms == 0.125 && rows[0].conv.algo == SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM);
    CHECK(rows[0].dram_read_bytes == 1e6 && rows[0].dram_write_bytes == 2e6);
    CHECK(rows[0].sm_pct == 55.5 && rows[0].dram_pct == 30 && rows[0].occupancy_pct == 45);
    CHECK(rows[0].tensor_pct == 0);
    CHECK(rows[1].dram_read_bytes < 0 && rows[1].sm_pct < 0 && rows[1].tensor_pct < 0);
    CHECK(rows[1].conv.line == 3 && strcmp(rows[1].conv.source, "seer-bench:t4:1") == 0);
    free(rows);

    /* Metric columns may be missing altogether. */
    const char *t2 = KERN_HDR "\n" CONV_ROW ",,1,0,k,1,1,1,32,1,1,16,0,0,0.01\n";
    CHECK_STATUS(seer_kernel_csv_parse(handle(), "k.csv", t2, strlen(t2), &rows, &n), SEER_STATUS_SUCCESS);
    REQUIRE(n == 1);
    CHECK(rows[0].dram_read_bytes < 0 && rows[0].occupancy_pct < 0);
    free(rows);

    /* Errors. */
    rows = NULL;
    const char *e1 = CONV_HDR ",call_id,kernel_index,kernel_name,grid_x,grid_y,grid_z,block_x,block_y,"
                     "block_z,regs_per_thread,smem_static,time_ms\n" CONV_ROW ",,1,0,k,1,1,1,32,1,1,16,0,0.01\n";
    CHECK_STATUS(seer_kernel_csv_parse(handle(), "k.csv", e1, strlen(e1), &rows, &n),
                 SEER_STATUS_CSV_MISSING_COLUMN);
    CHECK(msg_has("'smem_dynamic'"));
    const char *e2 = KERN_HDR "\n" CONV_ROW ",,1,0,k,1,1,1,32,1,1,16,0,0,\n";
    CHECK_STATUS(seer_kernel_csv_parse(handle(), "k.csv", e2, strlen(e2), &rows, &n),
                 SEER_STATUS_CSV_BAD_VALUE);
    CHECK(msg_has("k.csv:2: column 'time_ms': empty"));
    const char *e3 = KERN_HDR "\n" CONV_ROW ",,1,0,k,,1,1,32,1,1,16,0,0,0.1\n";
    CHECK_STATUS(seer_kernel_csv_parse(handle(), "k.csv", e3, strlen(e3), &rows, &n),
                 SEER_STATUS_CSV_BAD_VALUE);
    CHECK(msg_has("column 'grid_x'"));
    const char *e4 = KERN_HDR "\n" CONV_ROW ",,-1,0,k,1,1,1,32,1,1,16,0,0,0.1\n";
    CHECK_STATUS(seer_kernel_csv_parse(handle(), "k.csv", e4, strlen(e4), &rows, &n),
                 SEER_STATUS_CSV_BAD_VALUE);
    CHECK(msg_has("column 'call_id'"));
    const char *e5 = KERN_HDR "\n" CONV_ROW ",,1,0,k,1,1,1,32,1,1,16,2147483647,1,0.1\n";
    CHECK_STATUS(seer_kernel_csv_parse(handle(), "k.csv", e5, strlen(e5), &rows, &n),
                 SEER_STATUS_CSV_BAD_VALUE);
    const char *e6 = KERN_HDR ",sm_pct\n" CONV_ROW ",,1,0,k,1,1,1,32,1,1,16,0,0,0.1,-3\n";
    CHECK_STATUS(seer_kernel_csv_parse(handle(), "k.csv", e6, strlen(e6), &rows, &n),
                 SEER_STATUS_CSV_BAD_VALUE);
    CHECK(msg_has("column 'sm_pct'"));
    const char *e7 = KERN_HDR "\n" CONV_ROW ",,1,0,,1,1,1,32,1,1,16,0,0,0.1\n";
    CHECK_STATUS(seer_kernel_csv_parse(handle(), "k.csv", e7, strlen(e7), &rows, &n),
                 SEER_STATUS_CSV_BAD_VALUE);
    CHECK(msg_has("column 'kernel_name'"));
    CHECK(rows == NULL);
}

TEST(csv_gemm_rows)
{
    const char *t = GEMM_HDR ",main_kernel,grid_x,grid_y,grid_z,block_x,block_y,block_z,kernels,source\n"
                    "t4,linear,fp32,1,58,141,13,N,T,1,0.05,sgemm_tn,5,1,1,256,1,1,sgemm_tn,neusight\n"
                    "t4,BMM,fp16,16,64,64,64,t,n,0,2.5E-2,,,,,,,,,\"deepbench:x, y\"\n";
    seer_gemm_row_t *rows = NULL;
    size_t n = 0;
    CHECK_STATUS(seer_gemm_csv_parse(handle(), "g.csv", t, strlen(t), &rows, &n), SEER_STATUS_SUCCESS);
    REQUIRE(rows && n == 2);
    CHECK(strcmp(rows[0].op, "linear") == 0 && rows[0].dtype == SEER_DTYPE_FP32);
    CHECK(rows[0].batch == 1 && rows[0].m == 58 && rows[0].n == 141 && rows[0].k == 13);
    CHECK(rows[0].trans_a == 0 && rows[0].trans_b == 1 && rows[0].bias == 1);
    CHECK(rows[0].time_ms == 0.05 && rows[0].grid[0] == 5 && rows[0].block[0] == 256);
    CHECK(strcmp(rows[0].main_kernel, "sgemm_tn") == 0 && strcmp(rows[0].source, "neusight") == 0);
    CHECK(strcmp(rows[1].op, "bmm") == 0 && rows[1].dtype == SEER_DTYPE_FP16);
    CHECK(rows[1].trans_a == 1 && rows[1].trans_b == 0 && rows[1].bias == 0);
    CHECK(rows[1].time_ms == 2.5e-2 && rows[1].grid[0] == 0 && rows[1].line == 3);
    CHECK(strcmp(rows[1].source, "deepbench:x, y") == 0);
    free(rows);

    rows = NULL;
    static const struct { const char *row, *msg; seer_status_t st; } bad[] = {
        {"t4,conv,fp32,1,2,3,4,N,N,0,1", "column 'op'", SEER_STATUS_CSV_BAD_VALUE},
        {"t4,gemm,int8,1,2,3,4,N,N,0,1", "column 'dtype'", SEER_STATUS_CSV_BAD_VALUE},
        {"t4,gemm,fp32,0,2,3,4,N,N,0,1", "column 'batch'", SEER_STATUS_CSV_BAD_VALUE},
        {"t4,gemm,fp32,1,2,3,4.5,N,N,0,1", "column 'k': '4.5' is not an integer", SEER_STATUS_CSV_BAD_VALUE},
        {"t4,gemm,fp32,1,2,3,4,X,N,0,1", "column 'trans_a'", SEER_STATUS_CSV_BAD_VALUE},
        {"t4,gemm,fp32,1,2,3,4,N,NT,0,1", "column 'trans_b'", SEER_STATUS_CSV_BAD_VALUE},
        {"t4,gemm,fp32,1,2,3,4,N,N,2,1", "column 'bias': '2' is not 0 or 1 (or false/true)", SEER_STATUS_CSV_BAD_VALUE},
        {"t4,gemm,fp32,1,2,3,4,N,N,yes,1", "column 'bias': 'yes' is not 0 or 1 (or false/true)",
         SEER_STATUS_CSV_BAD_VALUE},
        {"t4,gemm,fp32,1,2,3,4,N,N,,1", "column 'bias': empty", SEER_STATUS_CSV_BAD_VALUE},
        {"t4,gemm,fp32,1,2,3,4,N,N,0,0", "column 'time_ms'", SEER_STATUS_CSV_BAD_VALUE},
        {"t4,gemm,fp32,1,2,3,4,N,N,0", "10 fields", SEER_STATUS_CSV_SYNTAX},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char buf[512];
        snprintf(buf, sizeof buf, GEMM_HDR "\nt4,gemm,fp32,1,2,3,4,N,N,0,1\n%s\n", bad[i].row);
        CHECK_STATUS(seer_gemm_csv_parse(handle(), "g.csv", buf, strlen(buf), &rows, &n), bad[i].st);
        CHECK(msg_has("g.csv:3:") && msg_has(bad[i].msg));
        CHECK(rows == NULL);
    }
    const char *mc = "gpu,op,dtype,batch,m,n,k,trans_a,bias,time_ms\nt4,gemm,fp32,1,2,3,4,N,0,1\n";
    CHECK_STATUS(seer_gemm_csv_parse(handle(), "g.csv", mc, strlen(mc), &rows, &n),
                 SEER_STATUS_CSV_MISSING_COLUMN);
    CHECK(msg_has("'trans_b'"));
    /* PyTorch's names of the calls, transposes as flags */
    const char *pt = GEMM_HDR "\nt4,addmm,float32,1,2,3,4,false,true,1,0.5\nt4,BADDBMM,fp16,2,2,3,4,1,0,0,0.5\n"
                              "t4,matmul,fp32,1,2,3,4,N,T,0,0.5\n";
    CHECK_STATUS(seer_gemm_csv_parse(handle(), "g.csv", pt, strlen(pt), &rows, &n), SEER_STATUS_SUCCESS);
    REQUIRE(rows && n == 3);
    CHECK(!strcmp(rows[0].op, "linear") && rows[0].trans_a == 0 && rows[0].trans_b == 1 && rows[0].dtype == SEER_DTYPE_FP32);
    CHECK(!strcmp(rows[1].op, "bmm") && rows[1].trans_a == 1 && rows[1].trans_b == 0);
    CHECK(!strcmp(rows[2].op, "gemm"));
    for (int i = 0; i < 3; i++) CHECK(rows[i].op_kind == i && !strcmp(seer_gemm_op_names[i], rows[i].op));
    free(rows);
    rows = NULL;
    /* time_ms, as a conv row's, may be empty or absent: not recorded, a
     * prediction input (time_ms < 0) */
    const char *untimed[] = {GEMM_HDR "\nt4,gemm,fp32,1,2,3,4,N,N,0,\nt4,gemm,fp32,1,2,3,4,N,N,0,0.5\n",
                             "gpu,op,dtype,batch,m,n,k,trans_a,trans_b,bias\nt4,gemm,fp32,1,2,3,4,N,N,0\n"};
    for (int i = 0; i < 2; i++) {
        CHECK_STATUS(seer_gemm_csv_parse(handle(), "g.csv", untimed[i], strlen(untimed[i]), &rows, &n),
                     SEER_STATUS_SUCCESS);
        REQUIRE(rows && n == (size_t)(2 - i));
        CHECK(rows[0].time_ms < 0 && rows[0].k == 4);
        CHECK(i || rows[1].time_ms == 0.5);
        free(rows);
        rows = NULL;
    }
}

/* ---- the real shared data ---- */

static int data_path(char *buf, size_t size, const char *rel)
{
    snprintf(buf, size, "%s/%s", test_data_dir(), rel);
    FILE *f = fopen(buf, "rb");
    if (!f) return 0;
    fclose(f);
    return 1;
}

TEST(csv_real_conv_data)
{
    static const struct { const char *file; size_t rows; } files[] = {
        {"conv/a100-pcie-80gb.csv", 3787}, {"conv/gtx1080ti.csv", 282}, {"conv/t4.csv", 3977},
        {"conv/v100-pcie-32gb.csv", 3949}, {"conv/v100-sxm2-16gb.csv", 544},
    };
    char path[1024];
    int found = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        if (!data_path(path, sizeof path, files[i].file)) continue;
        found++;
        seer_conv_row_t *rows = NULL;
        size_t n = 0;
        seer_status_t st = seer_conv_csv_read(handle(), path, &rows, &n);
        if (st) printf("\n    %s: %s\n", path, seer_get_last_error(handle()));
        CHECK_STATUS(st, SEER_STATUS_SUCCESS);
        CHECK(n == files[i].rows);
        for (size_t j = 0; j < n; j++) CHECK(rows[j].time_ms > 0);
        if (strstr(files[i].file, "v100-sxm2") && n) {
            int licit = 0;
            for (size_t j = 0; j < n; j++)
                if (rows[j].line == 438 || rows[j].line == 444) {
                    CHECK(rows[j].algo == SEER_ALGO_BAD_NAME); /* damaged in the published data */
                    CHECK(rows[j].dir == SEER_DIR_FWD && rows[j].shape.k == (rows[j].line == 438 ? 256 : 512));
                    licit++;
                }
            CHECK(licit == 2);
        }
        if (strstr(files[i].file, "a100") && n >= 2) {
            /* Line 2: one kernel whose quoted name holds commas; line 3: four. */
            CHECK(rows[0].n_kernels == 1 && rows[1].n_kernels == 4);
            CHECK(strcmp(rows[0].main_kernel,
                         "implicit_convolve_sgemm<float, float, 128, 5, 5, 3, 3, 3, 1, false, false, true>") == 0);
            CHECK(rows[0].algo == SEER_FWD_ALGO_IMPLICIT_GEMM && rows[0].grid[0] == 30);
            CHECK(strcmp(rows[0].source, "neusight") == 0);
        }
        free(rows);
    }
    if (!found) SKIP("shared conv data not found (set SEER_DATA)");
}

TEST(csv_real_gemm_data)
{
    static const struct { const char *file; size_t rows; } files[] = {
        {"gemm/a100-pcie-40gb.csv", 23121}, {"gemm/gtx1080ti.csv", 160}, {"gemm/t4.csv", 24155},
        {"gemm/v100-pcie-32gb.csv", 24154}, {"gemm/v100-sxm2-16gb.csv", 320},
    };
    char path[1024];
    int found = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        if (!data_path(path, sizeof path, files[i].file)) continue;
        found++;
        seer_gemm_row_t *rows = NULL;
        size_t n = 0;
        seer_status_t st = seer_gemm_csv_read(handle(), path, &rows, &n);
        if (st) printf("\n    %s: %s\n", path, seer_get_last_error(handle()));
        CHECK_STATUS(st, SEER_STATUS_SUCCESS);
        CHECK(n == files[i].rows);
        free(rows);
    }
    if (!found) SKIP("shared gemm data not found (set SEER_DATA)");
}

TEST(csv_conv_reader_rejects_gemm_file)
{
    char path[1024];
    if (!data_path(path, sizeof path, "gemm/gtx1080ti.csv")) SKIP("shared gemm data not found");
    seer_conv_row_t *rows = NULL;
    size_t n = 0;
    CHECK_STATUS(seer_conv_csv_read(handle(), path, &rows, &n), SEER_STATUS_CSV_MISSING_COLUMN);
    CHECK(msg_has("gtx1080ti.csv:1:") && msg_has("'direction'"));
    CHECK(rows == NULL);
}

TEST(csv_file_readers)
{
    char path[] = "/tmp/seer-test-csv-XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    REQUIRE(f);
    fputs("\xEF\xBB\xBF" GEMM_HDR "\r\nt4,gemm,fp32,1,2,3,4,N,T,0,0.5\r\n\r\n", f);
    fclose(f);
    seer_gemm_row_t *g = NULL;
    size_t n = 0;
    CHECK_STATUS(seer_gemm_csv_read(handle(), path, &g, &n), SEER_STATUS_SUCCESS);
    CHECK(n == 1 && g && g->trans_b == 1 && g->line == 2);
    free(g);
    seer_kernel_row_t *k = NULL;
    CHECK_STATUS(seer_kernel_csv_read(handle(), path, &k, &n), SEER_STATUS_CSV_MISSING_COLUMN);
    CHECK(msg_has(path) && k == NULL);
    remove(path);

    CHECK_STATUS(seer_kernel_csv_read(handle(), path, &k, &n), SEER_STATUS_IO_ERROR);
    CHECK(msg_has(path) && msg_has("cannot open"));
    CHECK_STATUS(seer_gemm_csv_read(handle(), "/", &g, &n), SEER_STATUS_IO_ERROR);
    CHECK_STATUS(seer_gemm_csv_read(handle(), NULL, &g, &n), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_gemm_csv_read(handle(), path, NULL, &n), SEER_STATUS_BAD_PARAM);

    /* The 1 GiB limit is checked before the data is touched. */
    seer_csv_t *c = NULL;
    CHECK_STATUS(seer_csv_open_buffer(handle(), "huge", "x", ((size_t)1 << 30) + 1, &c),
                 SEER_STATUS_IO_ERROR);
    CHECK(c == NULL && msg_has("huge") && msg_has("1 GiB"));
}

/* A trace read per call (what seer train fits and seer eval scores): the
 * kernels of a call summed, the longest one its main kernel, the row's
 * line its first kernel's; a conv CSV through the same reader is read
 * as it is. */
TEST(csv_kernel_rows_per_call)
{
    char path[64];
    REQUIRE(test_write_temp(path, KERN_HDR "\n"
                            CONV_ROW ",GEMM,7,0,short,1,1,1,32,1,1,16,0,0,0.25\n"
                            CONV_ROW ",GEMM,7,1,long,8,2,1,256,1,1,96,1024,4096,1.5\n"
                            CONV_ROW ",GEMM,7,2,tail,1,1,1,32,1,1,16,0,0,0.25\n"
                            CONV_ROW ",FFT,9,0,only,4,1,1,128,1,1,32,0,0,0.5\n"));
    seer_conv_row_t *rows = NULL;
    size_t n = 0;
    CHECK_STATUS(seer_kernel_csv_read_calls(handle(), path, &rows, &n), SEER_STATUS_SUCCESS);
    REQUIRE(rows && n == 2);
    CHECK(rows[0].time_ms == 2.0 && rows[0].n_kernels == 3 && rows[0].line == 2);
    CHECK(strcmp(rows[0].main_kernel, "long") == 0 && rows[0].grid[0] == 8 && rows[0].block[0] == 256);
    CHECK(rows[0].regs_per_thread == 96 && rows[0].smem_bytes == 1024 + 4096);
    CHECK(rows[1].time_ms == 0.5 && rows[1].n_kernels == 1 && rows[1].line == 5);
    CHECK(rows[1].algo == SEER_FWD_ALGO_FFT);
    free(rows);
    rows = NULL;
    CHECK_STATUS(seer_conv_rows_read(handle(), path, 1, &rows, &n), SEER_STATUS_SUCCESS);
    CHECK(rows && n == 2 && rows[0].time_ms == 2.0);
    free(rows);
    unlink(path);

    REQUIRE(test_write_temp(path, CONV_HDR ",time_ms\n" CONV_ROW ",GEMM,1.5\n" CONV_ROW ",FFT,0.5\n"));
    rows = NULL;
    CHECK_STATUS(seer_conv_rows_read(handle(), path, 0, &rows, &n), SEER_STATUS_SUCCESS);
    CHECK(rows && n == 2 && rows[0].time_ms == 1.5 && rows[1].time_ms == 0.5);
    free(rows);
    unlink(path);
}

/* The format is told by the header's column names wherever they stand,
 * as the readers find columns: `op` first or last, blanks or quotes
 * around a name, a byte order mark, blank lines before the header (a
 * substring test for ",op," read such GEMM files as conv timings). */
static int kind_of(const char *text)
{
    char path[] = "/tmp/seer-test-kind-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return -1;
    FILE *f = fdopen(fd, "wb");
    if (!f) return -1;
    fputs(text, f);
    fclose(f);
    int k = seer_csv_kind(path);
    remove(path);
    return k;
}

TEST(csv_kind_by_column_names)
{
    CHECK(kind_of(GEMM_HDR "\n") == 'g');
    CHECK(kind_of("op,gpu,dtype,batch,m,n,k,trans_a,trans_b,bias\n") == 'g');
    CHECK(kind_of("gpu,dtype,batch,m,n,k,trans_a,trans_b,bias,op\r\n") == 'g');
    CHECK(kind_of("gpu, op , dtype, batch, m, n, k, trans_a, trans_b, bias\n") == 'g');
    CHECK(kind_of("\"op\",gpu,dtype,batch,m,n,k,\"trans_a\",trans_b,bias\n") == 'g');
    CHECK(kind_of("\xEF\xBB\xBFop,gpu,dtype,batch,m,n,k,trans_a,trans_b,bias\n") == 'g');
    CHECK(kind_of("\n  \t\n" GEMM_HDR "\n") == 'g');
    /* the reader drops the BOM, then skips the blank lines after it */
    CHECK(kind_of("\xEF\xBB\xBF\n\n" GEMM_HDR "\n") == 'g');
    CHECK(kind_of("\xEF\xBB\xBF \r\n" KERN_HDR "\n") == 'k');
    CHECK(kind_of(KERN_HDR "\n") == 'k');
    CHECK(kind_of("call_id,kernel_index," CONV_HDR "\n") == 'k');
    CHECK(kind_of(CONV_HDR "\n") == 'c');
    /* names that only contain the keys are other columns */
    CHECK(kind_of(CONV_HDR ",loop,trans_ab,my_call_id,kernel_index_x\n") == 'c');
    CHECK(kind_of("") == 'c');
    CHECK(kind_of("\n\n") == 'c');
    /* a quoted comma is inside a name, as the reader tokenizes it: one
     * column "trans_a,op" is neither (a split at each comma found both) */
    CHECK(kind_of("gpu,dtype,\"trans_a,op\",m\n") == 'c');
    CHECK(kind_of("\"gpu,x\",dtype,batch,m,n,k,trans_a,trans_b,bias,op\n") == 'g');
}
