/* Unit tests of record/'s native formats, on generated fixtures: PDF text,
 * Bates stamps and metadata; encrypted, damaged and empty PDFs; scanned
 * pages read by OCR; .docx paragraphs, tables, tracked changes, comments;
 * e-mail headers, bodies and attachments as child documents; a load file
 * whose rows point at PDF natives; drafts read as text.
 *
 * Run as `record_formats_test --write-drafts DIR` it only writes the draft
 * fixtures (.docx, PDF, and the same small draft as .md and .docx) to DIR,
 * for the black-box tests of `sworn claims` and `sworn verify`. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "extract/extract_int.h"
#include "record_fixtures.h"

#define HAS(hay, needle) do { \
	if (!strstr((hay), (needle))) \
		fail_msg("'%s' lacks '%s'", (hay), (needle)); \
} while (0)

static void eq_sql(struct fx_ws *w, const char *matter, const char *sql, const char *want)
{
	char *got = fx_sql(w, matter, sql);
	if (strcmp(got, want) != 0)
		fail_msg("%s: got '%s', expected '%s'", sql, got, want);
	free(got);
}

static void test_pdf_pages_and_bates(void **state)
{
	(void)state;
	struct fx_ws w;
	fx_ws_new(&w);
	char *pdf = fx_path(&w, "prod.pdf");
	const char *pages[] = {
		"Letter from Acme to Widget Co.\nThe shipment of 3 March 2021 was late.\n\nCONFIDENTIAL ABC0000001",
		"Second page: \xe2\x80\x9cpayment is due\xe2\x80\x9d under \xc2\xa7 4.2.\n\nABC0000002",
		"Third page, its stamp skips a number.\n\nABC0000004",
	};
	fx_pdf(pdf, pages, 3, "Acme letter");
	struct sw_ingest_summary s = fx_ingest(&w, "a", pdf, true, SW_ORIGIN_EVIDENCE);
	assert_int_equal(s.imported, 1);
	assert_int_equal(s.failed, 0);
	assert_int_equal(s.pages, 3);
	eq_sql(&w, "a", "SELECT group_concat(bates, ' ') FROM (SELECT bates FROM pages ORDER BY page_no)",
	       "ABC0000001 ABC0000002 ABC0000004");
	eq_sql(&w, "a", "SELECT kind || ' ' || page_count FROM documents", "pdf 3");
	eq_sql(&w, "a", "SELECT json_extract(meta, '$.title') FROM documents", "Acme letter");
	eq_sql(&w, "a", "SELECT instr(text, '\xe2\x80\x9cpayment is due\xe2\x80\x9d') > 0 FROM pages WHERE page_no = 2", "1");
	eq_sql(&w, "a", "SELECT DISTINCT text_source FROM pages", "text");
	HAS(w.events.data, "Bates gap: 1 number(s) missing: ABC0000003");
	HAS(w.events.data, "pdf, 3 page(s), Bates ABC0000001-ABC0000004");
	/* The original is kept under the PDF's own hash. */
	eq_sql(&w, "a", "SELECT original = sha256 FROM documents", "1");
	free(pdf);
	fx_ws_free(&w);
}

/* An /Encrypt dictionary whose user password is not empty. */
/* A PDF long enough for the text to be read ahead on threads
 * (pdf_pages.c): read with one, two and three threads and by default,
 * every page is there in order with the same text as read by the caller's
 * one document alone. */
static void test_pdf_parallel_pages(void **state)
{
	(void)state;
	struct fx_ws w;
	fx_ws_new(&w);
	char *pdf = fx_path(&w, "long.pdf");
	enum { N = 300 };
	char **pages = calloc(N, sizeof(*pages));
	assert_non_null(pages);
	for (size_t i = 0; i < N; i++)
		pages[i] = sw_xasprintf("Page marker%zu of the long exhibit.\nPAR%07zu", i + 1, i + 1);
	fx_pdf(pdf, (const char *const *)pages, N, NULL);
	struct sw_buf raw = SW_BUF_INIT;
	struct sw_err err = { 0 };
	assert_int_equal(sw_file_read(&raw, pdf, (size_t)1 << 30, &err), 0);
	struct sw_extract one;
	sw_extract_init(&one);
	struct sw_extract_opts o1 = { .text_alone = true };
	assert_int_equal(sw_format_by_name("pdf")->extract(&one, raw.data, raw.len, &o1, &err), 0);
	assert_int_equal(one.npages, N);
	for (size_t i = 0; i < N; i++) {
		char want[64];
		snprintf(want, sizeof(want), "marker%zu of", i + 1);
		assert_non_null(strstr(one.text.data + one.pages[i].start, want));
	}
	for (unsigned t = 0; t <= 3; t++) {
		struct sw_extract x;
		sw_extract_init(&x);
		struct sw_extract_opts o = { .text_threads = t };
		assert_int_equal(sw_format_by_name("pdf")->extract(&x, raw.data, raw.len, &o, &err), 0);
		assert_int_equal(x.npages, N);
		assert_int_equal(x.text.len, one.text.len);
		assert_memory_equal(x.text.data, one.text.data, one.text.len);
		for (size_t i = 0; i < N; i++) {
			assert_int_equal(x.pages[i].start, one.pages[i].start);
			assert_int_equal(x.pages[i].len, one.pages[i].len);
		}
		sw_extract_release(&x);
	}
	sw_extract_release(&one);
	sw_buf_release(&raw);
	for (size_t i = 0; i < N; i++)
		free(pages[i]);
	free(pages);
	free(pdf);
	fx_ws_free(&w);
}

static const char encrypted_pdf[] =
	"%PDF-1.4\n"
	"1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n"
	"2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n"
	"3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj\n"
	"4 0 obj << /Filter /Standard /V 1 /R 2 /P -4\n"
	" /O <0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef>\n"
	" /U <fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210> >> endobj\n"
	"trailer << /Root 1 0 R /Size 5 /Encrypt 4 0 R\n"
	" /ID [<00112233445566778899aabbccddeeff> <00112233445566778899aabbccddeeff>] >>\n"
	"%%EOF\n";

static const char empty_pdf[] =
	"%PDF-1.4\n"
	"1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n"
	"2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n"
	"trailer << /Root 1 0 R /Size 3 >>\n"
	"%%EOF\n";

static void test_pdf_errors(void **state)
{
	(void)state;
	struct fx_ws w;
	fx_ws_new(&w);
	char *dir = fx_path(&w, "bad");
	assert_int_equal(mkdir(dir, 0700), 0);
	char *enc = sw_path_join(dir, "encrypted.pdf");
	char *dmg = sw_path_join(dir, "damaged.pdf");
	char *zero = sw_path_join(dir, "zero.pdf");
	char *junk = sw_path_join(dir, "junk.pdf");
	char *good = sw_path_join(dir, "good.pdf");
	fx_write(enc, encrypted_pdf);
	fx_write(zero, empty_pdf);
	fx_write(junk, "this is no PDF at all\n");
	const char *pages[] = { "A good page beside the bad ones." };
	fx_pdf(good, pages, 1, NULL);
	/* A real PDF cut off after its first kilobyte. */
	fx_pdf(dmg, pages, 1, NULL);
	assert_int_equal(truncate(dmg, 400), 0);

	struct sw_ingest_summary s = fx_ingest(&w, "a", dir, true, SW_ORIGIN_EVIDENCE);
	assert_int_equal(s.imported, 1);
	assert_int_equal(s.failed, 4);
	HAS(w.events.data, "encrypted.pdf: the PDF is encrypted");
	HAS(w.events.data, "damaged.pdf: damaged PDF");
	HAS(w.events.data, "zero.pdf: ");
	HAS(w.events.data, "junk.pdf: not a PDF: no %PDF header");
	/* Each failure is one line. */
	for (const char *l = w.events.data; (l = strstr(l, "failed ")) != NULL; l++) {
		const char *nl = strchr(l, '\n');
		assert_non_null(nl);
	}
	eq_sql(&w, "a", "SELECT count(*) FROM documents", "1");
	char *zero_line = strstr(w.events.data, "zero.pdf: ");
	assert_true(strncmp(zero_line, "zero.pdf: the PDF has no pages", 30) == 0 ||
		    strncmp(zero_line, "zero.pdf: damaged PDF", 21) == 0);
	free(enc);
	free(dmg);
	free(zero);
	free(junk);
	free(good);
	free(dir);
	fx_ws_free(&w);
}

static void test_pdf_mixed_scan(void **state)
{
	(void)state;
	struct fx_ws w;
	fx_ws_new(&w);
	char *pdf = fx_path(&w, "mixed.pdf");
	cairo_surface_t *s = cairo_pdf_surface_create(pdf, 360, 108);
	cairo_t *cr = cairo_create(s);
	cairo_set_font_size(cr, 10);
	cairo_move_to(cr, 20, 30);
	cairo_show_text(cr, "A typed page with a text layer.");
	cairo_move_to(cr, 260, 96); /* the stamp in the footer, on its own line */
	cairo_show_text(cr, "XYZ0000010");
	cairo_show_page(cr);
	const char *lines[] = { "Invoice paid on March 3, 2021", "XYZ0000011" };
	fx_scan_page(cr, lines, 2);
	cairo_show_page(cr);
	cairo_destroy(cr);
	cairo_surface_destroy(s);

	/* Without OCR the scanned page is kept, empty, and said so. */
	struct sw_ingest_summary sum = fx_ingest(&w, "b", pdf, true, SW_ORIGIN_EVIDENCE);
	assert_int_equal(sum.imported, 1);
	HAS(w.events.data, "1 page(s) have no text layer and were not read by OCR");
	eq_sql(&w, "b", "SELECT length(text) FROM pages WHERE page_no = 2", "0");

	sum = fx_ingest(&w, "a", pdf, false, SW_ORIGIN_EVIDENCE);
	assert_int_equal(sum.imported, 1);
	assert_int_equal(sum.ocr_pages, 1);
	eq_sql(&w, "a", "SELECT text_source FROM pages WHERE page_no = 1", "text");
	eq_sql(&w, "a", "SELECT text_source FROM pages WHERE page_no = 2", "ocr");
	eq_sql(&w, "a", "SELECT ocr_confidence > 60 FROM pages WHERE page_no = 2", "1");
	eq_sql(&w, "a", "SELECT instr(text, 'Invoice paid on March 3, 2021') > 0 FROM pages WHERE page_no = 2", "1");
	eq_sql(&w, "a", "SELECT group_concat(bates, ' ') FROM (SELECT bates FROM pages ORDER BY page_no)",
	       "XYZ0000010 XYZ0000011");
	HAS(w.events.data, "1 read by OCR");
	free(pdf);
	fx_ws_free(&w);
}

/* A long PDF (read by page walks, ahead on threads) with a scanned page
 * deep inside: its text layer comes from the walks, the scanned page from
 * OCR of a poppler-glib document opened for it, and every page keeps its
 * place and its stamp. */
static void test_long_pdf_with_scan(void **state)
{
	(void)state;
	enum { N = 200, SCAN = 170 };
	struct fx_ws w;
	fx_ws_new(&w);
	char *pdf = fx_path(&w, "long-mixed.pdf");
	cairo_surface_t *s = cairo_pdf_surface_create(pdf, 360, 108);
	cairo_t *cr = cairo_create(s);
	cairo_set_font_size(cr, 10);
	for (int p = 1; p <= N; p++) {
		char stamp[16];
		snprintf(stamp, sizeof(stamp), "XYZ%07d", p); /* a prefix tesseract reads */
		if (p == SCAN) {
			const char *lines[] = { "Invoice paid on March 3, 2021", stamp };
			fx_scan_page(cr, lines, 2);
		} else {
			char line[64];
			snprintf(line, sizeof(line), "Typed page marker%d of the binder.", p);
			cairo_move_to(cr, 20, 30);
			cairo_show_text(cr, line);
			cairo_move_to(cr, 260, 96);
			cairo_show_text(cr, stamp);
		}
		cairo_show_page(cr);
	}
	cairo_destroy(cr);
	cairo_surface_destroy(s);

	struct sw_ingest_summary sum = fx_ingest(&w, "a", pdf, false, SW_ORIGIN_EVIDENCE);
	assert_int_equal(sum.imported, 1);
	assert_int_equal(sum.ocr_pages, 1);
	eq_sql(&w, "a", "SELECT count(*) FROM pages", "200");
	eq_sql(&w, "a", "SELECT count(*) FROM pages WHERE page_no <> 170 AND text_source = 'text'"
			" AND instr(text, 'marker' || page_no || ' of') > 0", "199");
	eq_sql(&w, "a", "SELECT text_source || ':' || (instr(text, 'Invoice paid on March 3, 2021') > 0)"
			" FROM pages WHERE page_no = 170", "ocr:1");
	eq_sql(&w, "a", "SELECT count(*) FROM pages WHERE bates = printf('XYZ%07d', page_no)", "200");
	free(pdf);
	fx_ws_free(&w);
}

static void test_docx(void **state)
{
	(void)state;
	struct fx_ws w;
	fx_ws_new(&w);
	char *docx = fx_path(&w, "memo.docx");
	char *bad = fx_path(&w, "nodoc.docx");
	char *notzip = fx_path(&w, "notzip.docx");
	fx_docx(docx,
		"<w:p><w:r><w:t>Memorandum</w:t></w:r></w:p>"
		"<w:p><w:r><w:t xml:space=\"preserve\">The parties </w:t></w:r>"
		"<w:ins w:author=\"Ann\"><w:r><w:t>never </w:t></w:r></w:ins>"
		"<w:r><w:t>agreed</w:t></w:r>"
		"<w:del w:author=\"Bob\"><w:r><w:delText> in writing</w:delText></w:r></w:del>"
		"<w:r><w:t>.</w:t><w:tab/><w:t>End.</w:t></w:r></w:p>"
		"<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Date</w:t></w:r></w:p></w:tc>"
		"<w:tc><w:p><w:r><w:t>Event</w:t></w:r></w:p></w:tc></w:tr>"
		"<w:tr><w:tc><w:p><w:r><w:t>2021-03-03</w:t></w:r></w:p></w:tc>"
		"<w:tc><w:p><w:r><w:t>Shipment</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"
		"<w:p><w:r><w:t>ACME0000001</w:t></w:r></w:p>"
		"<w:p><w:r><w:br w:type=\"page\"/><w:t>Page two.</w:t></w:r></w:p>",
		"<w:comment w:id=\"0\" w:author=\"Cy\"><w:p><w:r><w:t>Check this date</w:t></w:r></w:p></w:comment>");
	fx_docx(bad, NULL, NULL);
	fx_write(notzip, "PK but not really");

	struct sw_ingest_summary s = fx_ingest(&w, "a", w.dir, true, SW_ORIGIN_EVIDENCE);
	assert_int_equal(s.imported, 1);
	assert_int_equal(s.failed, 2);
	HAS(w.events.data, "nodoc.docx: not a Word document: the archive has no word/document.xml");
	HAS(w.events.data, "notzip.docx: not a .docx");
	HAS(w.events.data, "1 tracked insertion(s), 1 deletion(s) and 1 comment(s)");
	eq_sql(&w, "a", "SELECT page_count FROM documents WHERE kind = 'docx'", "2");
	char *p1 = fx_sql(&w, "a", "SELECT text FROM pages WHERE page_no = 1");
	HAS(p1, "Memorandum\nThe parties never agreed.\tEnd.\n");
	HAS(p1, "Date\tEvent\n2021-03-03\tShipment\n");
	free(p1);
	char *p2 = fx_sql(&w, "a", "SELECT text FROM pages WHERE page_no = 2");
	HAS(p2, "Page two.\n");
	HAS(p2, "[Tracked changes and comments]");
	HAS(p2, "text inserted by Ann: \"never \"");
	HAS(p2, "text deleted by Bob: \" in writing\"");
	HAS(p2, "comment by Cy: \"Check this date");
	free(p2);
	eq_sql(&w, "a", "SELECT bates FROM pages WHERE page_no = 1", "ACME0000001");
	free(docx);
	free(bad);
	free(notzip);
	fx_ws_free(&w);
}

static void test_email(void **state)
{
	(void)state;
	struct fx_ws w;
	fx_ws_new(&w);
	char *dir = fx_path(&w, "mail");
	assert_int_equal(mkdir(dir, 0700), 0);
	char *eml = sw_path_join(dir, "msg.eml");
	char *broken = sw_path_join(dir, "broken.eml");
	char *junk = sw_path_join(dir, "junk.eml");
	fx_write(eml,
		 "From: =?UTF-8?Q?Ren=C3=A9e_Smith?= <renee@acme.example>\r\n"
		 "To: Bob Jones <bob@widget.example>\r\n"
		 "Cc: legal@acme.example\r\n"
		 "Date: Wed, 03 Mar 2021 10:15:00 -0500\r\n"
		 "Subject: =?UTF-8?Q?The_=E2=80=9Ccontract=E2=80=9D?=\r\n"
		 "Message-ID: <abc123@acme.example>\r\n"
		 "MIME-Version: 1.0\r\n"
		 "Content-Type: multipart/mixed; boundary=\"XX\"\r\n\r\n"
		 "--XX\r\n"
		 "Content-Type: multipart/alternative; boundary=\"YY\"\r\n\r\n"
		 "--YY\r\n"
		 "Content-Type: text/plain; charset=utf-8\r\n"
		 "Content-Transfer-Encoding: quoted-printable\r\n\r\n"
		 "Bob, the shipment was late. Caf=C3=A9 meeting at noon.\r\n"
		 "--YY\r\n"
		 "Content-Type: text/html; charset=utf-8\r\n\r\n"
		 "<p>Bob, the shipment was <b>late</b>.</p>\r\n"
		 "--YY--\r\n"
		 "--XX\r\n"
		 "Content-Type: text/plain; name=\"notes.txt\"\r\n"
		 "Content-Disposition: attachment; filename=\"notes.txt\"\r\n"
		 "Content-Transfer-Encoding: base64\r\n\r\n"
		 "QXR0YWNoZWQgbm90ZXM6IHRoZSBpbnZvaWNlIHdhcyBwYWlkLgo=\r\n"
		 "--XX\r\n"
		 "Content-Type: image/png\r\n"
		 "Content-Disposition: attachment; filename=\"../../logo.png\"\r\n"
		 "Content-Transfer-Encoding: base64\r\n\r\n"
		 "iVBORw0KGgo=\r\n"
		 "--XX--\r\n");
	fx_write(broken,
		 "From: a@example.com\r\nSubject: cut\r\n"
		 "Content-Type: multipart/mixed; boundary=\"NEVER\"\r\n\r\n"
		 "The body whose boundary never comes.\r\n");
	fx_write(junk, "\x01\x02 no headers here\n\nat all\n");

	struct sw_ingest_summary s = fx_ingest(&w, "a", dir, true, SW_ORIGIN_EVIDENCE);
	assert_int_equal(s.failed, 1);
	assert_int_equal(s.imported, 4); /* two messages, two attachments */
	HAS(w.events.data, "junk.eml: not an e-mail message");
	HAS(w.events.data, "broken.eml: malformed MIME");
	HAS(w.events.data, "msg.eml > notes.txt: text, 1 page(s), attached to document");
	HAS(w.events.data, "msg.eml > logo.png: kept without text");
	eq_sql(&w, "a", "SELECT json_extract(meta, '$.from') FROM documents WHERE name = 'msg.eml'",
	       "Ren\xc3\xa9" "e Smith <renee@acme.example>");
	eq_sql(&w, "a", "SELECT json_extract(meta, '$.subject') FROM documents WHERE name = 'msg.eml'",
	       "The \xe2\x80\x9c" "contract\xe2\x80\x9d");
	eq_sql(&w, "a", "SELECT json_extract(meta, '$.date') FROM documents WHERE name = 'msg.eml'",
	       "2021-03-03T10:15:00-05:00");
	char *t = fx_sql(&w, "a", "SELECT text FROM pages p JOIN documents d ON d.id = p.doc_id WHERE d.name = 'msg.eml'");
	HAS(t, "From: Ren\xc3\xa9" "e Smith <renee@acme.example>\nTo: Bob Jones <bob@widget.example>\nCc: legal@acme.example\n");
	HAS(t, "Bob, the shipment was late. Caf\xc3\xa9 meeting at noon.");
	HAS(t, "Attachments: notes.txt, logo.png");
	free(t);
	eq_sql(&w, "a", "SELECT count(*) FROM documents c JOIN documents p ON c.parent_id = p.id"
			" WHERE p.name = 'msg.eml'", "2");
	eq_sql(&w, "a", "SELECT text FROM pages p JOIN documents d ON d.id = p.doc_id WHERE d.name = 'notes.txt'",
	       "Attached notes: the invoice was paid.\n");
	char *b = fx_sql(&w, "a", "SELECT text FROM pages p JOIN documents d ON d.id = p.doc_id WHERE d.name = 'broken.eml'");
	HAS(b, "The body whose boundary never comes.");
	free(b);
	/* Headers are searchable. */
	struct sw_matter *m = NULL;
	struct sw_err err = { 0 };
	struct sw_search_hit *hits = NULL;
	size_t n = 0;
	struct sw_search_opts so = { 0 };
	assert_int_equal(sw_matter_open(&m, &w.ws, "a", &err), 0);
	assert_int_equal(sw_search(&hits, &n, m, "renee contract", &so, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(hits[0].document, "msg.eml");
	sw_search_hits_free(hits, n);
	sw_matter_close(m);
	free(eml);
	free(broken);
	free(junk);
	free(dir);
	fx_ws_free(&w);
}

/* An attachment's name as stored: its last path part, controls as '_',
 * at most 200 bytes of whole characters; a name of no letters is
 * numbered. */
static void test_attachment_names(void **state)
{
	(void)state;
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "Vertragsentwurf M\xC3\xBCller", "Vertragsentwurf M\xC3\xBCller" },
		{ "\xE5\xA5\x91\xE7\xB4\x84\xE6\x9B\xB8", "\xE5\xA5\x91\xE7\xB4\x84\xE6\x9B\xB8" },
		{ "C:\\Users\\pat\\R\xC3\xA9sum\xC3\xA9", "R\xC3\xA9sum\xC3\xA9" },
		{ "../../etc/passwd", "passwd" },
		{ "tab\there", "tab_here" },
		{ "..", "attachment-3" },
		{ "", "attachment-3" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = sw__extract_attachment_name(cases[i].in, 3);
		assert_string_equal(got, cases[i].want);
		free(got);
	}
	/* 198 bytes and an accent fill the 200 whole; one more byte and the
	 * accent does not fit. */
	char in[256];
	memset(in, 'a', 198);
	memcpy(in + 198, "\xC3\xA9", 3);
	char *got = sw__extract_attachment_name(in, 1);
	assert_string_equal(got, in);
	free(got);
	memset(in, 'a', 199);
	memcpy(in + 199, "\xC3\xA9", 3);
	got = sw__extract_attachment_name(in, 1);
	assert_int_equal(strlen(got), 199);
	assert_int_equal(got[198], 'a');
	free(got);
}

static void test_html_to_text(void **state)
{
	(void)state;
	struct sw_buf b = SW_BUF_INIT;
	const char *h = "<html><style>p{x:1}</style><p>One &amp; two&nbsp;<b>three</b></p>"
			"<script>var a = '<p>';</script><div>&#8220;four&#x201d; &bogus; &#0;</div>";
	sw__extract_html_to_text(&b, h, strlen(h));
	assert_string_equal(b.data, "\nOne & two\xc2\xa0three\n\xe2\x80\x9c" "four\xe2\x80\x9d &bogus; \xef\xbf\xbd\n");
	sw_buf_release(&b);
}

/* A production folder prod/ of w with a NATIVES/ folder and a DAT naming
 * NATIVES\BEGIN.pdf for Bates begin..end; the PDF's path (for the caller
 * to write) is returned, the folder's in *dir. */
static char *native_volume(struct fx_ws *w, const char *begin, const char *end, char **dir)
{
	*dir = fx_path(w, "prod");
	char *natives = sw_path_join(*dir, "NATIVES");
	assert_int_equal(mkdir(*dir, 0700), 0);
	assert_int_equal(mkdir(natives, 0700), 0);
	char *name = sw_xasprintf("%s.pdf", begin);
	char *pdf = sw_path_join(natives, name);
	char *dat = sw_path_join(*dir, "prod.dat");
	char *rows = sw_xasprintf(
		"\xc3\xbe" "BEGBATES\xc3\xbe\x14\xc3\xbe" "ENDBATES\xc3\xbe\x14\xc3\xbe" "NATIVEPATH\xc3\xbe\x14\xc3\xbe" "TEXTPATH\xc3\xbe\r\n"
		"\xc3\xbe%s\xc3\xbe\x14\xc3\xbe%s\xc3\xbe\x14\xc3\xbe" "NATIVES\\%s\xc3\xbe\x14\xc3\xbe\xc3\xbe\r\n",
		begin, end, name);
	fx_write(dat, rows);
	free(rows);
	free(dat);
	free(name);
	free(natives);
	return pdf;
}

static void test_loadfile_pdf_native(void **state)
{
	(void)state;
	struct fx_ws w;
	fx_ws_new(&w);
	char *dir;
	char *pdf = native_volume(&w, "PRD0000001", "PRD0000002", &dir);
	const char *pages[] = { "Native page one", "Native page two" };
	fx_pdf(pdf, pages, 2, NULL);
	struct sw_ingest_summary s = fx_ingest(&w, "a", dir, true, SW_ORIGIN_EVIDENCE);
	assert_int_equal(s.imported, 1);
	assert_int_equal(s.failed, 0);
	eq_sql(&w, "a", "SELECT count(*) FROM documents", "1");
	eq_sql(&w, "a", "SELECT bates || ':' || trim(text) FROM pages WHERE page_no = 2", "PRD0000002:Native page two");
	free(pdf);
	free(dir);
	fx_ws_free(&w);
}

/* An uncompressed PDF of n pages, page k reading "Long native page k",
 * each content stream padded with a comment of pad bytes (so that the
 * file passes the size from which it is mapped). */
static void write_padded_pdf(const char *path, size_t n, size_t pad)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	long *off = calloc(4 + 2 * n, sizeof(*off));
	assert_non_null(off);
	char *padding = malloc(pad + 1);
	assert_non_null(padding);
	memset(padding, 'x', pad);
	padding[pad] = '\0';
	fputs("%PDF-1.4\n", f);
	off[1] = ftell(f);
	fputs("1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n", f);
	off[2] = ftell(f);
	fprintf(f, "2 0 obj << /Type /Pages /Count %zu /Kids [", n);
	for (size_t p = 0; p < n; p++)
		fprintf(f, "%zu 0 R ", 4 + 2 * p);
	fputs("] >> endobj\n", f);
	off[3] = ftell(f);
	fputs("3 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj\n", f);
	for (size_t p = 0; p < n; p++) {
		char *s = sw_xasprintf("%%%s\nBT /F1 12 Tf 50 700 Td (Long native page %zu) Tj ET",
				       padding, p + 1);
		off[4 + 2 * p] = ftell(f);
		fprintf(f, "%zu 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]"
			   " /Resources << /Font << /F1 3 0 R >> >> /Contents %zu 0 R >> endobj\n",
			4 + 2 * p, 5 + 2 * p);
		off[5 + 2 * p] = ftell(f);
		fprintf(f, "%zu 0 obj << /Length %zu >>\nstream\n%s\nendstream\nendobj\n", 5 + 2 * p,
			strlen(s), s);
		free(s);
	}
	long xref = ftell(f);
	fprintf(f, "xref\n0 %zu\n0000000000 65535 f \n", 4 + 2 * n);
	for (size_t i = 1; i < 4 + 2 * n; i++)
		fprintf(f, "%010ld 00000 n \n", off[i]);
	fprintf(f, "trailer << /Size %zu /Root 1 0 R >>\nstartxref\n%ld\n%%%%EOF\n", 4 + 2 * n,
		xref);
	assert_int_equal(fclose(f), 0);
	free(padding);
	free(off);
}

/* A native PDF over 1 MiB named by a load file is mapped and its pages
 * joined as read (loadfile.c): every page in order with its text, the
 * original kept whole under the file's hash. */
static void test_loadfile_long_pdf_native(void **state)
{
	(void)state;
	enum { N = 150 };
	struct fx_ws w;
	fx_ws_new(&w);
	char *dir;
	char *pdf = native_volume(&w, "LNG0000001", "LNG0000150", &dir);
	write_padded_pdf(pdf, N, 8000);
	struct sw_buf raw = SW_BUF_INIT;
	struct sw_err err = { 0 };
	assert_int_equal(sw_file_read(&raw, pdf, (size_t)1 << 30, &err), 0);
	assert_true(raw.len > ((size_t)1 << 20));
	char sha[SW_SHA256_HEX_LEN + 1];
	sw_sha256_hex(sha, raw.data, raw.len);
	struct sw_ingest_summary s = fx_ingest(&w, "a", dir, true, SW_ORIGIN_EVIDENCE);
	assert_int_equal(s.imported, 1);
	assert_int_equal(s.failed, 0);
	eq_sql(&w, "a", "SELECT count(*) FROM pages", "150");
	eq_sql(&w, "a", "SELECT count(*) FROM pages WHERE trim(text) = 'Long native page ' || page_no"
			" AND bates = printf('LNG%07d', page_no)", "150");
	char *q = sw_xasprintf("SELECT original = '%s' AND bytes = %zu FROM documents", sha, raw.len);
	eq_sql(&w, "a", q, "1");
	free(q);
	char *kept = sw_xasprintf("%s/matters/a/files/%.2s/%s", w.dir, sha, sha);
	struct sw_buf back = SW_BUF_INIT;
	assert_int_equal(sw_file_read(&back, kept, (size_t)1 << 30, &err), 0);
	assert_int_equal(back.len, raw.len);
	assert_memory_equal(back.data, raw.data, raw.len);
	sw_buf_release(&back);
	sw_buf_release(&raw);
	free(kept);
	free(pdf);
	free(dir);
	fx_ws_free(&w);
}

/* A draft with a case citation, a Bates cite and a date, on two PDF pages. */
static const char *const draft_pages[] = {
	"As held in Bell Atl. Corp. v. Twombly, 550 U.S. 544, 556 (2007),\n"
	"a claim must be plausible.",
	"The order was placed on March 3, 2021. ACME0000003.",
};

/* A small draft of the example matter: one claim the record supports,
 * two it does not, one case the authority table knows. */
static const char small_draft[] =
	"On March 3, 2021, Tom Smith wrote to Jane Roe that \"[t]he earliest we can ship is March 31, 2021.\" ACME0000003.\n"
	"Summary judgment is appropriate. Celotex Corp. v. Catrett, 477 U.S. 317, 322 (1986).\n"
	"The carrier said \"we guarantee delivery by March 5, 2021.\" ACME0000003.\n"
	"ACME0000012 shows the delay.\n";

static int write_drafts(const char *dir)
{
	char *path = sw_xasprintf("%s/draft.pdf", dir);
	fx_pdf(path, draft_pages, SW_ARRAY_LEN(draft_pages), NULL);
	free(path);
	char *text = sw_xasprintf("%s\n%s\n", draft_pages[0], draft_pages[1]);
	char *body = fx_docx_body(text);
	path = sw_xasprintf("%s/draft.docx", dir);
	fx_docx(path, body, NULL);
	free(path);
	free(body);
	free(text);
	body = fx_docx_body(small_draft);
	path = sw_xasprintf("%s/small.docx", dir);
	fx_docx(path, body, NULL);
	free(path);
	free(body);
	path = sw_xasprintf("%s/small.md", dir);
	fx_write(path, small_draft);
	free(path);
	return 0;
}

static void test_draft_text(void **state)
{
	(void)state;
	struct fx_ws w;
	struct sw_buf text = SW_BUF_INIT;
	struct sw_err err = { 0 };
	fx_ws_new(&w);
	assert_int_equal(write_drafts(w.dir), 0);

	char *pdf = fx_path(&w, "draft.pdf");
	assert_int_equal(sw_extract_draft_text(&text, pdf, &err), 0);
	HAS(text.data, "550 U.S. 544");
	HAS(text.data, "plausible.\fThe order"); /* pages joined by a form feed */
	HAS(text.data, "ACME0000003");

	char *docx = fx_path(&w, "draft.docx");
	assert_int_equal(sw_extract_draft_text(&text, docx, &err), 0);
	HAS(text.data, "Bell Atl. Corp. v. Twombly");
	HAS(text.data, "March 3, 2021");

	char *md = fx_path(&w, "small.md");
	assert_int_equal(sw_extract_draft_text(&text, md, &err), 0);
	assert_string_equal(text.data, small_draft);

	char *bad = fx_path(&w, "bad.pdf");
	fx_write(bad, "not a pdf at all");
	assert_int_equal(sw_extract_draft_text(&text, bad, &err), SW_EINPUT);
	HAS(err.msg, "cannot read '");
	HAS(err.msg, "bad.pdf': ");
	assert_int_equal(text.len, 0);

	char *bin = fx_path(&w, "latin1.txt");
	fx_write(bin, "caf\xe9");
	assert_int_equal(sw_extract_draft_text(&text, bin, &err), SW_EINPUT);
	HAS(err.msg, "not UTF-8 text");

	free(pdf);
	free(docx);
	free(md);
	free(bad);
	free(bin);
	sw_buf_release(&text);
	fx_ws_free(&w);
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--write-drafts") == 0)
		return write_drafts(argv[2]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pdf_pages_and_bates),
		cmocka_unit_test(test_attachment_names),
		cmocka_unit_test(test_pdf_parallel_pages),
		cmocka_unit_test(test_pdf_errors),
		cmocka_unit_test(test_pdf_mixed_scan),
		cmocka_unit_test(test_long_pdf_with_scan),
		cmocka_unit_test(test_docx),
		cmocka_unit_test(test_email),
		cmocka_unit_test(test_html_to_text),
		cmocka_unit_test(test_loadfile_pdf_native),
		cmocka_unit_test(test_loadfile_long_pdf_native),
		cmocka_unit_test(test_draft_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
