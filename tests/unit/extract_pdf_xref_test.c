/* extract_pdf_xref_test.c - what a PDF's bytes declare of their object
 * table (pdf_xref.c), and that sw__extract_pdf refuses, before poppler
 * opens them, files that declare far more objects than their size holds:
 * the two shapes the pdf fuzzer found (a trailer's /Size of twenty million
 * in 5 KB, which held 1.8 GB; an object numbered 21,541 in 3 KB, which
 * made every stream without a good /Length cost the whole table per
 * token), and the other places poppler sizes its table from. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include <jansson.h>

#include "base/base.h"
#include "extract/extract_int.h"
#include "extract/pdf_walk.h"

static struct sw__extract_pdf_declared scan(const char *s)
{
	struct sw__extract_pdf_declared d;
	sw__extract_pdf_declared_objects(s, strlen(s), NULL, &d);
	return d;
}

/* Each place a table size is declared, read as poppler reads it; what
 * must not count; what must not hide one.  what NULL: not checked. */
static const struct {
	const char *in;
	long long objects;
	const char *what;
} cases[] = {
	{ "trailer\n<< /Size 26 /Root 1 0 R >>\n", 26, "/Size" },
	/* An xref table: heads "first count", entries "offset gen n|f"; an
	 * entry's offset is no object count, a second section's head is. */
	{ "xref\n0 3\n0000000000 65535 f \n0000999999 00000 n \n"
	  "0000000100 00000 n \ntrailer\n<< /Root 1 0 R >>",
	  3, "an xref section" },
	{ "xref\n0 1\n0000000000 65535 f \n7 2\n0000000100 00000 n \n"
	  "0000000200 00000 n \ntrailer\n",
	  9, NULL },
	{ "xref\n0 1\n0000000000 65535 f \n0 20000000\ntrailer", 20000000, NULL },
	{ "xref 0 20000000", 20000000, NULL },
	/* An xref stream's /Index pairs. */
	{ "<< /Type /XRef /Index [0 5 1000000 9000000] /W [1 2 1] >>", 10000000, "/Index" },
	{ "<< /Index [0 5] /Size 5 >>", 5, NULL },
	/* Object numbers, as a damaged table is rebuilt from them. */
	{ "1 0 obj\n<< >>\nendobj\n21541 0 obj\n<< >>\nendobj\n", 21542, "an object number" },
	{ "21541\n0\nobj", 21542, NULL },
	/* References and plain numbers declare nothing. */
	{ "<< /Kids [99999999 0 R] >> 5000000 6000000 Td endobj", 0, "" },
	/* Nothing hides a declaration: not a string that never closes, not a
	 * comment, not binary bytes, not a sign or a fraction. */
	{ "stream\n\x01(\xff\xfe unclosed /Size 30000000 endstream", 30000000, NULL },
	{ "% /Size 30000000\n", 30000000, NULL },
	{ "/Size +30000000", 30000000, NULL },
	{ "/Size 30000000.5", 30000000, NULL },
	/* A name or keyword that only begins like one is not one. */
	{ "/Sizes 30000000 /Size2 30000000 xrefs 0 30000000", 0, NULL },
};

static void test_declarations(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sw__extract_pdf_declared d = scan(cases[i].in);
		if (d.objects != cases[i].objects)
			fail_msg("case %zu: %lld objects, not %lld", i, d.objects, cases[i].objects);
		if (cases[i].what)
			assert_string_equal(d.what, cases[i].what);
	}
	/* Where: the offset of the declaring number. */
	assert_int_equal(scan(cases[0].in).at, strlen("trailer\n<< /Size "));
	assert_int_equal(scan(cases[7].in).at, strlen("1 0 obj\n<< >>\nendobj\n"));
	/* Numbers past any table saturate, still over every bound. */
	assert_true(scan("/Size 99999999999999999999999999").objects >= 1000000000000LL);
}

/* The bound: a fixed floor, then a share of the file's size. */
static void test_bound(void **state)
{
	(void)state;
	assert_int_equal(sw__extract_pdf_objects_max(0), SW_PDF_OBJECTS_MIN);
	assert_int_equal(sw__extract_pdf_objects_max(4000),
			 SW_PDF_OBJECTS_MIN + 4000 / SW_PDF_OBJECT_BYTES);
}

/* Every real PDF the tests and examples hold is well inside the bound. */
static void test_real_files(void **state)
{
	(void)state;
	const char *dir = getenv("SW_TEST_DATA");
	assert_non_null(dir);
	const char *names[] = { "pdf/objstm.pdf",  "pdf/lin-objstm-aes256.pdf",
				"pdf/rc4.pdf",     "pdf/aes128.pdf",
				"pdf/aes256.pdf",  "pdf/linearized.pdf" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		struct sw_buf b;
		sw_buf_init(&b);
		struct sw_err err = { 0 };
		assert_int_equal(sw_file_read(&b, path, 1u << 26, &err), 0);
		struct sw__extract_pdf_declared d;
		sw__extract_pdf_declared_objects(b.data, b.len, NULL, &d);
		assert_true(d.objects > 10);
		assert_true(d.objects * 50 < (long long)b.len);
		sw_buf_release(&b);
	}
}

/* A small well-formed PDF of one page whose trailer says size; poppler
 * reads it (its table is fine) and would make size entries. */
static void one_page(struct sw_buf *b, const char *size, const char *extra)
{
	sw_buf_init(b);
	size_t off[5];
	sw_buf_adds(b, "%PDF-1.4\n");
	const char *objs[] = {
		NULL,
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
		"/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont "
		"/Helvetica >> >> >> >>",
	};
	const char *content = "BT /F1 12 Tf 72 700 Td (Exhibit 12) Tj ET";
	for (int k = 1; k <= 4; k++) {
		off[k] = b->len;
		if (k < 4)
			sw_buf_addf(b, "%d 0 obj\n%s\nendobj\n", k, objs[k]);
		else
			sw_buf_addf(b, "4 0 obj\n<< /Length %zu >>\nstream\n%s\nendstream\nendobj\n",
				    strlen(content), content);
	}
	sw_buf_adds(b, extra);
	size_t xref = b->len;
	sw_buf_adds(b, "xref\n0 5\n0000000000 65535 f \n");
	for (int k = 1; k <= 4; k++)
		sw_buf_addf(b, "%010zu 00000 n \n", off[k]);
	sw_buf_addf(b, "trailer\n<< /Size %s /Root 1 0 R >>\nstartxref\n%zu\n%%%%EOF\n", size,
		    xref);
}

/* *opened gets the documents poppler opened for it. */
static int extract(const struct sw_buf *b, struct sw_err *err, long *opened)
{
	struct sw_extract x;
	struct sw_extract_opts opts = { .ocr = false, .threads = 1 };
	struct sw__extract_pdf_counts c0, c1;
	sw_extract_init(&x);
	sw__extract_pdf_counts_get(&c0);
	int rc = sw__extract_pdf(&x, b->data, b->len, &opts, err);
	sw__extract_pdf_counts_get(&c1);
	*opened = c1.opened - c0.opened;
	if (rc == 0) {
		assert_int_equal(x.npages, 1);
		assert_non_null(strstr(x.text.data, "Exhibit 12"));
	}
	sw_extract_release(&x);
	return rc;
}

static void test_refused(void **state)
{
	(void)state;
	struct sw_buf b;
	struct sw_err err = { 0 };
	long opened;

	/* The same file with a true /Size reads. */
	one_page(&b, "5", "");
	assert_int_equal(extract(&b, &err, &opened), 0);
	assert_true(opened >= 1);
	sw_buf_release(&b);

	/* Twenty million entries, some 800 MB, for a file of 700 bytes:
	 * refused before poppler opens it (opening it made the table), a
	 * count where this test once bounded the CPU time. */
	one_page(&b, "20000773", "");
	assert_int_equal(extract(&b, &err, &opened), SW_ELIMIT);
	fprintf(stderr, "%s\n", err.msg);
	assert_non_null(strstr(err.msg, "20000773 objects (/Size at byte"));
	assert_non_null(strstr(err.msg, "re-save it"));
	assert_null(strchr(err.msg, '\n'));
	assert_int_equal(opened, 0);
	sw_buf_release(&b);

	/* An object numbered far past what the file could hold. */
	memset(&err, 0, sizeof err);
	one_page(&b, "5", "21541 0 obj\nnull\nendobj\n");
	assert_int_equal(extract(&b, &err, &opened), SW_ELIMIT);
	assert_non_null(strstr(err.msg, "21542 objects (an object number at byte"));
	assert_int_equal(opened, 0);
	sw_buf_release(&b);

	/* Up to the bound, it is read. */
	char size[32];
	one_page(&b, "5", "");
	snprintf(size, sizeof size, "%lld", sw__extract_pdf_objects_max(b.len));
	sw_buf_release(&b);
	one_page(&b, size, "");
	assert_true(sw__extract_pdf_objects_max(b.len) >= atoll(size));
	assert_int_equal(extract(&b, &err, &opened), 0);
	sw_buf_release(&b);
}

/* Whether a file's end leads to its table: a good file's does; one cut
 * short, or whose startxref points elsewhere, does not (poppler would
 * rebuild the table from every byte). */
static void test_xref_found(void **state)
{
	(void)state;
	struct sw_buf b;
	one_page(&b, "5", "");
	assert_true(sw__extract_pdf_xref_found(b.data, b.len));
	assert_false(sw__extract_pdf_xref_found(b.data, b.len - 30)); /* no startxref */
	char *sx = strstr(b.data, "startxref\n");
	assert_non_null(sx);
	char *digit = sx + strlen("startxref\n");
	*digit = *digit == '9' ? '8' : '9'; /* another offset: no "xref" there */
	assert_false(sw__extract_pdf_xref_found(b.data, b.len));
	sw_buf_release(&b);
	const char *stream = "%PDF-1.5\n7 0 obj\n<< /Type /XRef >>\nstream\nendstream\nendobj\n"
			     "startxref\n9\n%%EOF\n";
	assert_true(sw__extract_pdf_xref_found(stream, strlen(stream)));
	assert_false(sw__extract_pdf_xref_found("%PDF-1.4\n", 9));
}

/* A form whose /Length is wrong, drawn a thousand times, in a file whose
 * object table is large but within the bound: poppler searches each fetch
 * of the form for its end token by token, each token a walk over the
 * table (some 0.2 s a fetch under ASan here).  The page's time bound cuts
 * it after its milliseconds; then the form is stubbed where poppler
 * fetches it, so the page's last thousand names of it cost nothing:
 * without that, each was fetched (searched) before the page was asked to
 * stop, and the page went on for minutes.  Counts, not a clock: the page
 * stops drawing early (its forms bound, or its time on a slower machine,
 * cuts it after at most FORMS + 1 draws) and, over its bounds, names the
 * slow form to a device at most once (a thousand times less its draws
 * before the stub). */
static void test_slow_form(void **state)
{
	(void)state;
	enum { OBJS = 3005 };
	struct sw_buf b, page;
	sw_buf_init(&b);
	sw_buf_init(&page);
	size_t *off = calloc(OBJS + 1, sizeof *off);
	assert_non_null(off);
	for (int i = 0; i < 1000; i++)
		sw_buf_adds(&page, "/X Do ");
	sw_buf_adds(&b, "%PDF-1.4\n");
	for (int k = 1; k <= OBJS; k++) {
		off[k] = b.len;
		sw_buf_addf(&b, "%d 0 obj\n", k);
		if (k == 1)
			sw_buf_adds(&b, "<< /Type /Catalog /Pages 2 0 R >>");
		else if (k == 2)
			sw_buf_adds(&b, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
		else if (k == 3)
			sw_buf_adds(&b, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
					"/Contents 4 0 R /Resources << /XObject << /X 5 0 R >> >> >>");
		else if (k == 4)
			sw_buf_addf(&b, "<< /Length %zu >>\nstream\n%s\nendstream", page.len,
				    page.data);
		else if (k == 5) {
			sw_buf_adds(&b, "<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] "
					"/Length 0 >>\nstream\n");
			for (int i = 0; i < 5000; i++)
				sw_buf_adds(&b, "0 0 m ");
			sw_buf_adds(&b, "\nendstream");
		} else {
			sw_buf_adds(&b, "null"); /* objects after the form: the table */
		}
		sw_buf_adds(&b, "\nendobj\n");
	}
	size_t xref = b.len;
	sw_buf_addf(&b, "xref\n0 %d\n0000000000 65535 f \n", OBJS + 1);
	for (int k = 1; k <= OBJS; k++)
		sw_buf_addf(&b, "%010zu 00000 n \n", off[k]);
	sw_buf_addf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%zu\n%%%%EOF\n",
		    OBJS + 1, xref);
	free(off);

	enum { FORMS = 20 };
	struct sw_extract x;
	struct sw_extract_opts opts = {
		.ocr = false, .threads = 1, .pdf_page_ms = 300, .pdf_page_forms = FORMS
	};
	struct sw_err err = { 0 };
	struct sw__extract_pdf_counts c0, c1;
	sw_extract_init(&x);
	sw__extract_pdf_counts_get(&c0);
	assert_int_equal(sw__extract_pdf(&x, b.data, b.len, &opts, &err), 0);
	sw__extract_pdf_counts_get(&c1);
	fprintf(stderr, "a slow form named 1,000 times: %ld drawn, %ld named over the bounds\n",
		c1.forms - c0.forms, c1.forms_over - c0.forms_over);
	assert_true(c1.forms - c0.forms >= 1);
	assert_true(c1.forms - c0.forms <= FORMS + 1);
	assert_true(c1.forms_over - c0.forms_over <= 1);
	assert_int_equal(x.npages, 1);
	assert_int_equal(json_integer_value(json_object_get(x.meta, "text_cut_pages")), 1);
	assert_true(x.nwarnings >= 1);
	sw_extract_release(&x);
	sw_buf_release(&page);
	sw_buf_release(&b);
}

/* One pass: sixteen megabytes of bytes that are all tokens are each
 * looked at once, twice for the bytes of a would-be number read again as
 * a word ("1.x"), never once per token or per object (a count the scan
 * keeps, where this test once bounded the CPU time). */
static void test_linear(void **state)
{
	(void)state;
	size_t n = 16u << 20;
	char *s = malloc(n);
	assert_non_null(s);
	for (size_t i = 0; i < n; i++)
		s[i] = "1 0/[(x"[i % 7];
	struct sw__extract_pdf_declared d;
	sw__extract_pdf_declared_objects(s, n, NULL, &d);
	fprintf(stderr, "16 MiB scanned: %zu bytes looked at\n", d.looked);
	assert_int_equal(d.looked, n);
	for (size_t i = 0; i < n; i++)
		s[i] = "1.x 12.5y "[i % 10];
	sw__extract_pdf_declared_objects(s, n, NULL, &d);
	assert_true(d.looked > n);
	assert_true(d.looked <= 2 * n);
	free(s);
}

/* The process's resident memory, in KiB (VmRSS). */
static long rss_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kib = -1;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
			break;
	fclose(f);
	assert_true(kib > 0);
	return kib;
}

/* The process's peak resident memory since the last peak_reset(), in KiB
 * (VmHWM; writing 5 to clear_refs sets the peak to what is resident). */
static void peak_reset(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "w");
	assert_non_null(f);
	assert_true(fputs("5", f) >= 0);
	assert_int_equal(fclose(f), 0);
}

static long peak_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kib = -1;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld kB", &kib) == 1)
			break;
	fclose(f);
	assert_true(kib > 0);
	return kib;
}

/* One token may be a run of many windows: a stream of zeros (blanks to the
 * scan; here a hole of a sparse file, as a 640 MiB one-page PDF padded
 * with nothing held the whole file in memory while the scan skipped it),
 * a number of megabytes that turns out a word and is read again.  The
 * scan drops them behind it inside the run too: at its peak, at most
 * about two windows were resident (a count of the kernel's, not a time). */
static void test_scan_drops_long_runs(void **state)
{
	(void)state;
	size_t half = (size_t)32 << 20, len = 2 * half;
	FILE *tf = tmpfile();
	assert_non_null(tf);
	int fd = fileno(tf);
	assert_int_equal(ftruncate(fd, (off_t)len), 0); /* all a hole */
	assert_int_equal(pwrite(fd, "%PDF-1.4\n", 9, 0), 9);
	char block[1 << 16];
	memset(block, '7', sizeof(block));
	for (size_t done = half; done < len; done += sizeof(block))
		assert_int_equal(pwrite(fd, block, sizeof(block), (off_t)done), sizeof(block));
	assert_int_equal(pwrite(fd, "x /Size 5", 9, (off_t)(len - 9)), 9);
	char *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	assert_true(p != MAP_FAILED);
	struct sw_map map = { .data = p, .len = len, .fd = fd };

	peak_reset();
	long base = peak_kib();
	struct sw__extract_pdf_declared d;
	sw__extract_pdf_declared_objects(map.data, map.len, &map, &d);
	long peak = peak_kib() - base;
	fprintf(stderr, "32 MiB of blanks and a 32 MiB word: peak grew %ld KiB\n", peak);
	assert_int_equal(d.objects, 5);
	assert_true(peak < (long)(3 * SW_PDF_SCAN_WINDOW / 1024) + 4096);
	assert_int_equal(p[half], '7'); /* read back from the file */
	munmap(p, len);
	fclose(tf);
}

/* A mapped file is scanned in windows, each dropped from memory behind the
 * scan: 64 MiB scanned leave at most two windows resident (the whole file
 * did before, and a 50,000-page PDF's import peaked at 226-265 MiB).  The
 * bytes stay the file's: dropped pages read back from it.  A measure of
 * memory, not of time. */
static void test_scan_drops_behind(void **state)
{
	(void)state;
	const char *unit = "1 0 obj\n<< /A 1 >>\nendobj\n";
	size_t ul = strlen(unit), len = (size_t)64 << 20;
	char block[1 << 16];
	for (size_t i = 0; i < sizeof(block); i++)
		block[i] = unit[i % ul];
	FILE *tf = tmpfile();
	assert_non_null(tf);
	for (size_t done = 0; done < len; done += sizeof(block))
		assert_int_equal(fwrite(block, 1, sizeof(block), tf), sizeof(block));
	assert_int_equal(fflush(tf), 0);
	int fd = fileno(tf);
	void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	assert_true(p != MAP_FAILED);
	struct sw_map map = { .data = p, .len = len, .fd = fd };

	long before = rss_kib();
	struct sw__extract_pdf_declared d;
	sw__extract_pdf_declared_objects(map.data, map.len, &map, &d);
	long grew = rss_kib() - before;
	fprintf(stderr, "64 MiB scanned: resident memory grew %ld KiB\n", grew);
	assert_int_equal(d.objects, 2);
	assert_true(grew < (long)(2 * SW_PDF_SCAN_WINDOW / 1024) + 4096);
	assert_memory_equal(map.data, block, 4096); /* read back from the file */
	assert_memory_equal(map.data + len - 4096, block + sizeof(block) - 4096, 4096);

	/* Without the mapping the caller's bytes are left alone. */
	before = rss_kib();
	sw__extract_pdf_declared_objects(map.data, map.len, NULL, &d);
	grew = rss_kib() - before;
	fprintf(stderr, "64 MiB scanned, no mapping given: grew %ld KiB\n", grew);
	assert_true(grew > (long)(32 << 10));
	munmap(p, len);
	fclose(tf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_declarations), cmocka_unit_test(test_bound),
		cmocka_unit_test(test_real_files),   cmocka_unit_test(test_refused),
		cmocka_unit_test(test_slow_form),    cmocka_unit_test(test_linear),
		cmocka_unit_test(test_scan_drops_behind),
		cmocka_unit_test(test_scan_drops_long_runs),
		cmocka_unit_test(test_xref_found),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
