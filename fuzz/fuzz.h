/* Fuzz target glue.  A target file defines seer_fuzz_NAME and ends with
 * SEER_FUZZ_TARGET(NAME): with -DSEER_LIBFUZZER that becomes libFuzzer's
 * entry point; otherwise a test that replays fuzz/corpus/NAME/. */
#ifndef SEER_FUZZ_H
#define SEER_FUZZ_H
#include <stddef.h>
#include <stdint.h>

#ifdef SEER_LIBFUZZER
#define SEER_FUZZ_TARGET(name)                                           \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);        \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)         \
    { return seer_fuzz_##name(data, size); }
#else
#include "../tests/test.h"
/* Runs fn on every file of fuzz/corpus/<name>; fails if the directory is
 * empty or missing.  Defined in tests/runner.c. */
void test_replay_corpus(const char *name, int (*fn)(const uint8_t *, size_t));
#define SEER_FUZZ_TARGET(name)                                           \
    TEST(fuzz_replay_##name) { test_replay_corpus(#name, seer_fuzz_##name); }
#endif
#endif
