/*
 * record_opt_test.c - Opticon .OPT image cross-references: document breaks,
 * page counts, paths as written, and malformed lines that are counted and
 * skipped rather than trusted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "extract/extract.h"

#define TMPDIR_TAG "opt"
#include "tmpdir.h"

#define BYTES(lit) lit, sizeof(lit) - 1

static void parse_ok(struct sw_opt *o, const char *data, size_t len)
{
	struct sw_err err = { 0 };
	int rc = sw_opt_parse(o, data, len, &err);
	if (rc != 0)
		fail_msg("parse failed (%d): %s", rc, err.msg);
}

/* Page i of o, read again from its bytes (valid until the next call). */
static struct sw_opt_range rg;

static const struct sw_opt_page *page(const struct sw_opt *o, size_t i)
{
	struct sw_err err = { 0 };
	if (sw_opt_read(&rg, o, i, 1, &err) != 0 || rg.n != 1)
		fail_msg("cannot read page %zu again: %s", i, err.msg);
	return &rg.pages[0];
}

static void done(struct sw_opt *o)
{
	sw_opt_release(o);
	sw_opt_range_release(&rg);
}

static void check_page(const struct sw_opt *o, size_t i, const char *key,
		       const char *volume, const char *image, bool doc_break,
		       uint32_t page_count, int line)
{
	assert_true(i < o->n);
	const struct sw_opt_page *p = page(o, i);
	assert_string_equal(p->key, key);
	assert_string_equal(p->volume, volume);
	assert_string_equal(p->image, image);
	assert_int_equal(p->doc_break, doc_break);
	assert_int_equal(p->page_count, page_count);
	assert_int_equal(p->line, line);
}

static void test_three_documents(void **state)
{
	(void)state;
	static const char opt[] =
		"ABC0001,VOL01,D:\\IMAGES\\001\\ABC0001.TIF,Y,,,3\r\n"
		"ABC0002,VOL01,D:\\IMAGES\\001\\ABC0002.TIF,,,,\r\n"
		"ABC0003,VOL01,D:\\IMAGES\\001\\ABC0003.TIF,,,,\r\n"
		"ABC0004,VOL01,D:\\IMAGES\\001\\ABC0004.TIF,Y,,,1\r\n"
		"ABC0005,VOL01,D:\\IMAGES\\001\\ABC0005.TIF,Y,,,2\r\n"
		"ABC0006,VOL01,D:\\IMAGES\\001\\ABC0006.TIF,,,,\r\n";
	struct sw_opt o;
	parse_ok(&o, BYTES(opt));
	assert_int_equal(o.n, 6);
	assert_int_equal(o.nbad, 0);
	assert_null(o.first_error);
	check_page(&o, 0, "ABC0001", "VOL01", "D:\\IMAGES\\001\\ABC0001.TIF", true, 3, 1);
	check_page(&o, 1, "ABC0002", "VOL01", "D:\\IMAGES\\001\\ABC0002.TIF", false, 0, 2);
	check_page(&o, 3, "ABC0004", "VOL01", "D:\\IMAGES\\001\\ABC0004.TIF", true, 1, 4);
	check_page(&o, 4, "ABC0005", "VOL01", "D:\\IMAGES\\001\\ABC0005.TIF", true, 2, 5);
	check_page(&o, 5, "ABC0006", "VOL01", "D:\\IMAGES\\001\\ABC0006.TIF", false, 0, 6);
	done(&o);
}

static void test_missing_page_count(void **state)
{
	(void)state;
	/* LF endings, no trailing newline, short lines without the last
	 * commas, and a stray count on a later page. */
	static const char opt[] = "P1,V,img\\p1.tif,Y,,,\n"
				  "P2,V,img\\p2.tif,,,,7\n"
				  "P3,V,img\\p3.tif,Y\n"
				  "P4,,img\\p4.tif,y,,";
	struct sw_opt o;
	parse_ok(&o, BYTES(opt));
	assert_int_equal(o.n, 4);
	assert_int_equal(o.nbad, 0);
	check_page(&o, 0, "P1", "V", "img\\p1.tif", true, 0, 1);
	check_page(&o, 1, "P2", "V", "img\\p2.tif", false, 0, 2);
	check_page(&o, 2, "P3", "V", "img\\p3.tif", true, 0, 3);
	check_page(&o, 3, "P4", "", "img\\p4.tif", true, 0, 4);
	done(&o);
}

static void test_lowercase_and_relative(void **state)
{
	(void)state;
	static const char opt[] = "X001,VOL 1,.\\IMAGES\\001\\X001.tif,y,,,2\n"
				  "X002,VOL 1,..\\Images\\My Docs\\X002.TIF ,,,,\n"
				  "X003,VOL 1,IMAGES/003/X003.pdf,n,,,\n";
	struct sw_opt o;
	parse_ok(&o, BYTES(opt));
	assert_int_equal(o.n, 3);
	check_page(&o, 0, "X001", "VOL 1", ".\\IMAGES\\001\\X001.tif", true, 2, 1);
	/* Paths are kept exactly, spaces included: they name a file. */
	check_page(&o, 1, "X002", "VOL 1", "..\\Images\\My Docs\\X002.TIF ", false, 0, 2);
	check_page(&o, 2, "X003", "VOL 1", "IMAGES/003/X003.pdf", false, 0, 3);
	done(&o);
}

static void test_malformed_lines(void **state)
{
	(void)state;
	static const char opt[] = "A1,V,a1.tif,Y,,,2\r\n"
				  "A2,V,a2.tif,,,,\r\n"
				  "\r\n"
				  "just some text\r\n"
				  "A3,V,a3.tif\r\n"
				  ",V,a4.tif,Y,,,1\r\n"
				  "A5,V,a5.tif,Y,,,two\r\n"
				  "A6,V,a6.tif,Y,,,-1\r\n"
				  "A7,V,a7.tif,Y,,,99999999999\r\n"
				  "   \r\n"
				  "A8,V,a8.tif,Y,,,1\r\n";
	struct sw_opt o;
	parse_ok(&o, BYTES(opt));
	assert_int_equal(o.n, 3);
	assert_int_equal(o.nbad, 6);
	assert_string_equal(o.first_error, "line 4: expected 7 comma-separated fields");
	check_page(&o, 0, "A1", "V", "a1.tif", true, 2, 1);
	check_page(&o, 1, "A2", "V", "a2.tif", false, 0, 2);
	check_page(&o, 2, "A8", "V", "a8.tif", true, 1, 11);
	done(&o);

	parse_ok(&o, BYTES(",V,a.tif,Y,,,1\nB,V,b.tif,Y,,,1\n"));
	assert_int_equal(o.n, 1);
	assert_int_equal(o.nbad, 1);
	assert_string_equal(o.first_error, "line 1: empty image key");
	done(&o);

	parse_ok(&o, BYTES("N1,V,n1.tif,Y,,,1\n\0N2,V,n2.tif,Y,,,1\n"));
	assert_int_equal(o.n, 1);
	assert_int_equal(o.nbad, 1);
	assert_string_equal(o.first_error, "line 2: NUL byte in the line");
	done(&o);

	parse_ok(&o, BYTES("C,V,c.tif,Y,,,x1\n"));
	assert_int_equal(o.n, 0);
	assert_string_equal(o.first_error, "line 1: the page count is not a number");
	done(&o);
}

static void test_commas_in_path(void **state)
{
	(void)state;
	static const char opt[] = "K1,V,D:\\Smith, John\\K1.tif,Y,,,2\n"
				  "K2,V,D:\\Smith, John\\K2.tif,,,,\n"
				  "K3,V,k3.tif,Y,,,1,,\n";
	struct sw_opt o;
	parse_ok(&o, BYTES(opt));
	assert_int_equal(o.n, 3);
	check_page(&o, 0, "K1", "V", "D:\\Smith, John\\K1.tif", true, 2, 1);
	check_page(&o, 1, "K2", "V", "D:\\Smith, John\\K2.tif", false, 0, 2);
	/* Trailing empty fields are not part of the path. */
	check_page(&o, 2, "K3", "V", "k3.tif", true, 1, 3);
	done(&o);
}

static void test_encoding(void **state)
{
	(void)state;
	struct sw_opt o;
	struct sw_err err = { 0 };

	parse_ok(&o, BYTES("\xef\xbb\xbfR1,V,Ren\xe9" "e\\r1.tif,Y,,,1\n"));
	assert_int_equal(o.n, 1);
	check_page(&o, 0, "R1", "V", "Ren\xc3\xa9" "e\\r1.tif", true, 1, 1);
	done(&o);

	parse_ok(&o, BYTES("\xef\xbb\xbfR1,V,Ren\xc3\xa9" "e\\r1.tif,Y,,,1\n"));
	check_page(&o, 0, "R1", "V", "Ren\xc3\xa9" "e\\r1.tif", true, 1, 1);
	done(&o);

	/* A "Unicode" export: UTF-16 LE with a BOM, Windows paths. */
	parse_ok(&o, BYTES("\xff\xfe" "A\0" "1\0" ",\0" "V\0" ",\0" "I\0" "\\\0" "a\0" ".\0"
			   "t\0" "i\0" "f\0" ",\0" "Y\0" ",\0" ",\0" ",\0" "1\0" "\r\0" "\n\0"));
	assert_int_equal(o.n, 1);
	check_page(&o, 0, "A1", "V", "I\\a.tif", true, 1, 1);
	done(&o);
	assert_int_equal(sw_opt_parse(&o, BYTES("\xff\xfe" "A\0\0\0"), &err), SW_EINPUT);
	assert_non_null(strstr(err.msg, "binary"));
	done(&o);

	parse_ok(&o, "", 0);
	assert_int_equal(o.n, 0);
	assert_int_equal(o.nbad, 0);
	done(&o);
}

static void test_limits(void **state)
{
	(void)state;
	struct sw_buf b = SW_BUF_INIT;
	struct sw_opt o;
	struct sw_err err = { 0 };

	sw_buf_adds(&b, "L1,V,");
	while (b.len <= SW_OPT_MAX_LINE)
		sw_buf_addc(&b, 'x');
	sw_buf_adds(&b, ",Y,,,1\n");
	assert_int_equal(sw_opt_parse(&o, b.data, b.len, &err), SW_ELIMIT);
	assert_non_null(strstr(err.msg, "SW_OPT_MAX_LINE"));
	assert_string_equal(err.msg,
			    "line 1 is longer than 8192 bytes (limit SW_OPT_MAX_LINE)");
	assert_int_equal(o.n, 0);

	/* A line of exactly the limit is fine. */
	sw_buf_reset(&b);
	sw_buf_adds(&b, "L1,V,,Y,,,1");
	while (b.len < SW_OPT_MAX_LINE)
		sw_buf_addc(&b, ' ');
	sw_buf_adds(&b, "\r\n");
	parse_ok(&o, b.data, b.len);
	assert_int_equal(o.n, 1);
	assert_int_equal(page(&o, 0)->page_count, 1);
	done(&o);
	sw_buf_release(&b);
}

/* sw_opt_find: every key found by its index, the first of repeated keys,
 * nothing for a key the file lacks; a line not UTF-8 in a UTF-8 file is
 * decoded on its own. */
static void test_find(void **state)
{
	(void)state;
	struct sw_buf b = SW_BUF_INIT;
	struct sw_opt o;
	for (int i = 5000; i-- > 0;) /* keys in descending order */
		sw_buf_addf(&b, "K%06d,V,%d.tif,%s,,,\n", i, i, i % 5 ? "" : "Y");
	sw_buf_adds(&b, "K000007,V,again.tif,Y,,,\n");
	sw_buf_adds(&b, "Z1,V,Ren\xc3\xa9" "e.tif,Y,,,\nZ2,V,Caf\xe9.tif,,,,\n");
	parse_ok(&o, b.data, b.len);
	assert_int_equal(o.n, 5003);
	for (int i = 0; i < 5000; i += 37) {
		char key[16];
		snprintf(key, sizeof(key), "K%06d", i);
		size_t at = sw_opt_find(&o, key);
		assert_int_equal(at, (size_t)(4999 - i));
	}
	assert_int_equal(sw_opt_find(&o, "K000007"), 4999 - 7);
	assert_int_equal(sw_opt_find(&o, "K999999"), SIZE_MAX);
	assert_int_equal(sw_opt_find(&o, ""), SIZE_MAX);
	assert_string_equal(page(&o, 5001)->image, "Ren\xc3\xa9" "e.tif");
	assert_string_equal(page(&o, 5002)->image, "Caf\xc3\xa9.tif");
	assert_int_equal(o.ncp1252, 1);
	assert_int_equal(o.first_cp1252_line, 5003);
	done(&o);
	sw_buf_release(&b);
}

/* sw_opt_parse_file reads a chunk at a time: lines cut by a chunk's end,
 * CRLF, a BOM, a last line without its end, all as sw_opt_parse gives
 * them; a repeated volume kept once; limits as before. */
static void test_parse_file(void **state)
{
	(void)state;
	struct sw_buf b = SW_BUF_INIT;
	struct sw_opt a, f;
	struct sw_err err = { 0 };
	sw_buf_adds(&b, "\xef\xbb\xbf");
	for (int i = 0; i < 40000; i++) /* about 1.8 MB: two chunk ends */
		sw_buf_addf(&b, "F%07d,VOL%d,IMAGES\\%07d\\page.tif,%s,,,%s\r\n", i, i / 30000, i,
			    i % 7 ? "" : "Y", i % 7 ? "" : "7");
	sw_buf_adds(&b, "LAST,V,Caf\xe9.tif,Y,,,1");
	char *path = sw_xasprintf("%s/p.opt", dir);
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(b.data, 1, b.len, fp), b.len);
	fclose(fp);
	parse_ok(&a, b.data, b.len);
	assert_int_equal(sw_opt_parse_file(&f, path, b.len, NULL, 0, &err), 0);
	assert_int_equal(f.n, a.n);
	assert_int_equal(f.n, 40001);
	struct sw_opt_range fr = { 0 }, ar = { 0 };
	assert_int_equal(sw_opt_read(&fr, &f, 0, f.n, &err), 0);
	assert_int_equal(sw_opt_read(&ar, &a, 0, a.n + 5, &err), 0);
	assert_int_equal(fr.n, f.n);
	assert_int_equal(ar.n, a.n);
	for (size_t i = 0; i < f.n; i++) {
		assert_string_equal(fr.pages[i].key, ar.pages[i].key);
		assert_string_equal(fr.pages[i].volume, ar.pages[i].volume);
		assert_string_equal(fr.pages[i].image, ar.pages[i].image);
		assert_int_equal(fr.pages[i].doc_break, ar.pages[i].doc_break);
		assert_int_equal(fr.pages[i].page_count, ar.pages[i].page_count);
		assert_int_equal(fr.pages[i].line, ar.pages[i].line);
	}
	assert_string_equal(fr.pages[40000].image, "Caf\xc3\xa9.tif");
	assert_int_equal(sw_opt_find(&f, "F0039999"), 39999);
	/* Ranges that start and end inside blocks read the same pages. */
	for (size_t first = 0; first < 200; first += 13)
		for (size_t count = 1; count < 70; count += 17) {
			assert_int_equal(sw_opt_read(&fr, &f, first, count, &err), 0);
			assert_int_equal(fr.n, count);
			for (size_t i = 0; i < count; i++) {
				char key[16];
				snprintf(key, sizeof(key), "F%07zu", first + i);
				assert_string_equal(fr.pages[i].key, key);
				assert_int_equal(fr.pages[i].line, (int)(first + i + 1));
			}
		}
	assert_int_equal(sw_opt_read(&fr, &f, 39998, 10, &err), 0);
	assert_int_equal(fr.n, 3);
	assert_string_equal(fr.pages[2].key, "LAST");
	assert_int_equal(sw_opt_read(&fr, &f, 40001, 1, &err), 0);
	assert_int_equal(fr.n, 0);
	sw_opt_range_release(&fr);
	sw_opt_range_release(&ar);
	done(&a);
	done(&f);
	assert_int_equal(sw_opt_parse_file(&f, path, b.len - 1, NULL, 0, &err), SW_ELIMIT);
	done(&f);

	/* A line past SW_OPT_MAX_LINE across a chunk end fails as before. */
	sw_buf_reset(&b);
	for (size_t i = 0; i < ((size_t)1 << 20) - 10; i++)
		sw_buf_addc(&b, i % 64 == 63 ? '\n' : 'k');
	for (int i = 0; i <= SW_OPT_MAX_LINE; i++)
		sw_buf_addc(&b, 'x');
	fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(b.data, 1, b.len, fp), b.len);
	fclose(fp);
	assert_int_equal(sw_opt_parse_file(&f, path, b.len, NULL, 0, &err), SW_ELIMIT);
	assert_non_null(strstr(err.msg, "SW_OPT_MAX_LINE"));
	assert_int_equal(f.n, 0);
	done(&f);
	free(path);
	sw_buf_release(&b);
}

/* Only the keys asked for are indexed; blank and malformed lines between
 * pages, across block ends, are read again as the parse read them; the
 * breaks set after the parse are seen by later reads. */
static void test_keys_asked_and_blocks(void **state)
{
	(void)state;
	struct sw_buf b = SW_BUF_INIT;
	struct sw_opt o;
	struct sw_opt_range r = { 0 };
	struct sw_err err = { 0 };
	for (int i = 0; i < 1000; i++) {
		sw_buf_addf(&b, "Q%04d,V,q%d.tif,%s,,,\r\n", i, i, i % 100 ? "" : "Y");
		if (i % 31 == 0)
			sw_buf_adds(&b, "\r\nnot a page\r\n   \r\n");
	}
	char *path = sw_xasprintf("%s/k.opt", dir);
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(b.data, 1, b.len, fp), b.len);
	fclose(fp);
	const char *keys[] = { "Q0500", "Q0999", "Q0500", "nowhere", "", NULL };
	assert_int_equal(sw_opt_parse_file(&o, path, b.len, keys, 6, &err), 0);
	assert_int_equal(o.n, 1000);
	assert_int_equal(o.nbad, 33);
	assert_int_equal(o.nbreaks, 10);
	assert_int_equal(sw_opt_find(&o, "Q0500"), 500);
	assert_int_equal(sw_opt_find(&o, "Q0999"), 999);
	assert_int_equal(sw_opt_find(&o, "Q0501"), SIZE_MAX); /* not asked */
	assert_int_equal(sw_opt_find(&o, "nowhere"), SIZE_MAX);
	assert_int_equal(sw_opt_next_break(&o, 1), 100);
	assert_int_equal(sw_opt_next_break(&o, 901), 1000);
	sw_opt_set_doc_break(&o, 130);
	assert_int_equal(sw_opt_next_break(&o, 101), 130);
	assert_true(sw_opt_doc_break(&o, 130));
	assert_false(sw_opt_doc_break(&o, 131));
	assert_false(sw_opt_doc_break(&o, 5000));
	assert_int_equal(sw_opt_read(&r, &o, 120, 40, &err), 0);
	assert_int_equal(r.n, 40);
	for (size_t i = 0; i < r.n; i++) {
		char key[16];
		snprintf(key, sizeof(key), "Q%04zu", 120 + i);
		assert_string_equal(r.pages[i].key, key);
		assert_int_equal(r.pages[i].doc_break, 120 + i == 130);
	}

	/* The file changed after the parse: a read again says so. */
	b.data[b.len - 8] = 'Z';
	fp = fopen(path, "r+b");
	assert_non_null(fp);
	assert_int_equal(fwrite(b.data, 1, b.len, fp), b.len);
	fclose(fp);
	assert_int_equal(sw_opt_read(&r, &o, 0, 10, &err), 0);
	assert_int_equal(sw_opt_read(&r, &o, 990, 2, &err), 0); /* its block is whole */
	assert_int_equal(sw_opt_read(&r, &o, 995, 2, &err), SW_EINPUT);
	assert_non_null(strstr(err.msg, "the .OPT changed while it was read"));
	assert_int_equal(r.n, 0);
	fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(b.data, 1, 100, fp), 100);
	fclose(fp);
	assert_int_equal(sw_opt_read(&r, &o, 500, 1, &err), SW_EINPUT);
	sw_opt_range_release(&r);
	done(&o);
	free(path);
	sw_buf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_three_documents),
		cmocka_unit_test(test_missing_page_count),
		cmocka_unit_test(test_lowercase_and_relative),
		cmocka_unit_test(test_malformed_lines),
		cmocka_unit_test(test_commas_in_path),
		cmocka_unit_test(test_encoding),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_parse_file),
		cmocka_unit_test(test_keys_asked_and_blocks),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
