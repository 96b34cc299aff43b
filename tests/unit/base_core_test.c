/* Unit tests of base/: errors, buffers, arenas, files, SHA-256, text
 * helpers and the fault seam. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/base.h"

static void test_err_set_and_wrap(void **state)
{
	(void)state;
	struct sw_err err = { 0 };
	assert_int_equal(sw_err_set(&err, SW_EINPUT, "cannot open '%s':\nbad", "x.pdf"), SW_EINPUT);
	assert_string_equal(err.msg, "cannot open 'x.pdf': bad");
	assert_int_equal(sw_err_wrap(&err, SW_EIO, "ingest %d", 3), SW_EINPUT);
	assert_string_equal(err.msg, "ingest 3: cannot open 'x.pdf': bad");
	assert_int_equal(sw_err_set(NULL, SW_ELIMIT, "ignored"), SW_ELIMIT);
	char big[2 * SW_ERR_MSG_MAX];
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	sw_err_set(&err, SW_EIO, "%s", big);
	assert_int_equal(strlen(err.msg), SW_ERR_MSG_MAX - 1);
	sw_err_wrap(&err, SW_EIO, "%s", "prefix");
	assert_int_equal(strlen(err.msg), SW_ERR_MSG_MAX - 1); /* truncated, still terminated */
	assert_memory_equal(err.msg, "prefix: aaa", 11);
	sw_err_clear(&err);
	assert_int_equal(err.code, 0);
	assert_string_equal(err.msg, "");
	assert_string_equal(sw_err_name(SW_ENOTFOUND), "not found");
}

static void test_buf(void **state)
{
	(void)state;
	struct sw_buf b = SW_BUF_INIT;
	assert_string_equal(b.data, "");
	for (int i = 0; i < 1000; i++)
		sw_buf_addf(&b, "%d,", i);
	assert_int_equal(b.len, strlen(b.data));
	assert_memory_equal(b.data, "0,1,2,", 6);
	assert_memory_equal(b.data + b.len - 4, "999,", 4);
	sw_buf_truncate(&b, 2);
	assert_string_equal(b.data, "0,");
	char long_s[600];
	memset(long_s, 'x', sizeof(long_s) - 1);
	long_s[599] = '\0';
	sw_buf_addf(&b, "[%s]", long_s); /* past the small-format path */
	assert_int_equal(b.len, 2 + 601);
	assert_int_equal(b.data[b.len - 1], ']');
	size_t n;
	char *s = sw_buf_detach(&b, &n);
	assert_int_equal(n, 603);
	assert_string_equal(b.data, "");
	free(s);
	sw_buf_addc(&b, 'z');
	sw_buf_add(&b, "\0y", 2);
	assert_int_equal(b.len, 3);
	sw_buf_release(&b);
	sw_buf_release(&b); /* twice is fine */
	char *d = sw_buf_detach(&b, NULL); /* an empty buffer detaches as "" */
	assert_string_equal(d, "");
	free(d);
}

static void test_arena(void **state)
{
	(void)state;
	struct sw_arena a;
	sw_arena_init(&a, 256);
	char *ptrs[500];
	for (int i = 0; i < 500; i++) {
		ptrs[i] = sw_arena_alloc(&a, (size_t)(i % 37) + 1);
		assert_int_equal((uintptr_t)ptrs[i] % 16, 0);
		memset(ptrs[i], i & 0xff, (size_t)(i % 37) + 1);
	}
	for (int i = 0; i < 500; i++)
		assert_int_equal((unsigned char)ptrs[i][0], i & 0xff);
	char *big = sw_arena_alloc(&a, 10000); /* a block of its own */
	memset(big, 1, 10000);
	char *after = sw_arena_alloc(&a, 8);
	assert_non_null(after);
	assert_string_equal(sw_arena_strndup(&a, "hello world", 5), "hello");
	sw_arena_release(&a);
	sw_arena_release(&a);
}

static void test_sha256(void **state)
{
	(void)state;
	char hex[SW_SHA256_HEX_LEN + 1];
	sw_sha256_hex(hex, "abc", 3);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	struct sw_sha256 h;
	sw_sha256_init(&h);
	sw_sha256_update(&h, "a", 1);
	sw_sha256_update(&h, "bc", 2);
	char hex2[SW_SHA256_HEX_LEN + 1];
	sw_sha256_final_hex(&h, hex2);
	assert_string_equal(hex, hex2);
	sw_sha256_hex(hex, "", 0);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

static void test_files(void **state)
{
	(void)state;
	char dir[] = "/tmp/sworn-base-XXXXXX";
	assert_non_null(mkdtemp(dir));
	struct sw_err err = { 0 };
	struct sw_buf b = SW_BUF_INIT;
	char *nested = sw_path_join(dir, "a/b/c");
	assert_int_equal(sw_mkdir_p(nested, 0700, &err), 0);
	assert_true(sw_path_is_dir(nested));
	char *file = sw_path_join(nested, "f.txt");
	assert_int_equal(sw_file_write_atomic(file, "hello", 5, &err), 0);
	assert_int_equal(sw_file_read(&b, file, 100, &err), 0);
	assert_string_equal(b.data, "hello");
	assert_int_equal(sw_file_read(&b, file, 4, &err), SW_ELIMIT);
	assert_non_null(strstr(err.msg, "f.txt"));
	assert_int_equal(b.len, 0);
	assert_int_equal(sw_file_read(&b, nested, 100, &err), SW_EINPUT);
	char *none = sw_path_join(dir, "none");
	assert_int_equal(sw_file_read(&b, none, 100, &err), SW_ENOTFOUND);
	assert_non_null(strstr(err.msg, "cannot open"));
	/* A file in the way of a folder. */
	char *blocked = sw_path_join(file, "x");
	assert_int_not_equal(sw_mkdir_p(blocked, 0700, &err), 0);

	assert_string_equal(sw_path_base("/a/b/c.txt"), "c.txt");
	assert_string_equal(sw_path_base("c.txt"), "c.txt");
	char *d1 = sw_path_dir("/a/b/c.txt"), *d2 = sw_path_dir("c.txt"), *d3 = sw_path_dir("/c");
	assert_string_equal(d1, "/a/b");
	assert_string_equal(d2, ".");
	assert_string_equal(d3, "/");
	char ext[8];
	sw_path_ext(ext, sizeof(ext), "x/ACME.DAT");
	assert_string_equal(ext, "dat");
	sw_path_ext(ext, sizeof(ext), ".hidden");
	assert_string_equal(ext, "");
	char *j = sw_path_join("a/", "/abs");
	assert_string_equal(j, "/abs");
	free(j);
	j = sw_path_join("a//", "b");
	assert_string_equal(j, "a/b");

	char *cmd = sw_xasprintf("rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(j);
	free(d1);
	free(d2);
	free(d3);
	free(blocked);
	free(none);
	free(file);
	free(nested);
	sw_buf_release(&b);
}

static void test_text(void **state)
{
	(void)state;
	uint64_t v = 0;
	assert_true(sw_parse_u64("0012", 4, &v));
	assert_int_equal(v, 12);
	assert_true(sw_parse_u64("18446744073709551615", 20, &v));
	assert_true(v == UINT64_MAX);
	assert_false(sw_parse_u64("18446744073709551616", 20, &v));
	assert_false(sw_parse_u64("", 0, &v));
	assert_false(sw_parse_u64("-1", 2, &v));
	assert_false(sw_parse_u64("1 ", 2, &v));
	char s[] = "  \t trimmed \r\n";
	assert_string_equal(sw_trim(s), "trimmed");
	assert_true(sw_streq_ci("BegBates", "BEGBATES"));
	assert_false(sw_streq_ci("BEGBATES", "BEGBATE"));
}

static void test_fault_seam(void **state)
{
	(void)state;
	/* main() set SWORN_FAULT: the variable is read on the first call of
	 * the process, and other tests call sw_fault() too. */
	assert_false(sw_fault("other-site"));
	assert_false(sw_fault("unit-site"));
	assert_false(sw_fault("unit-site"));
	assert_true(sw_fault("unit-site"));
	assert_false(sw_fault("unit-site"));
}

int main(void)
{
	setenv("SWORN_FAULT", "unit-site:3", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_err_set_and_wrap),
		cmocka_unit_test(test_buf),
		cmocka_unit_test(test_arena),
		cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_fault_seam),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
