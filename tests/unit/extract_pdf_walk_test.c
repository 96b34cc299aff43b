/* extract_pdf_walk_test.c - the page walk (pdf_walk.cc) and the reader over
 * it (pdf_pages.c) against poppler-glib read page by page: the same pages,
 * in the same order, with the same text and the same OCR candidates, for
 * page trees as the world writes them (nested Pages nodes that pass down
 * boxes, rotation and fonts; pages overriding them; Pages nodes without a
 * /Type; image-only and blank pages; cairo's own files) and for the broken
 * trees poppler's catalog copes with in its own way (a loop, a kid that is
 * no reference, a kid that is no dictionary, a /Count above or below the
 * pages there are), where the walk must stop and the reader go on with a
 * catalog reader from there; and the bounds of one page's drawing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <cairo-pdf.h>
#include <cairo.h>
#include <jansson.h>
#include <poppler.h>

#include "base/base.h"
#include "extract/extract_int.h"
#include "extract/pdf_walk.h"

/* ---- a PDF written object by object ---- */

struct pdf {
	struct sw_buf body;
	size_t off[4096];
	int n; /* objects so far; object k is off[k] */
};

static void pdf_begin(struct pdf *p)
{
	memset(p, 0, sizeof(*p));
	sw_buf_init(&p->body);
	sw_buf_adds(&p->body, "%PDF-1.4\n");
}

/* Object number k (set in order: 1, 2, ...) with the text in fmt. */
static void pdf_obj(struct pdf *p, int k, const char *fmt, ...) SW_PRINTF(3, 4);
static void pdf_obj(struct pdf *p, int k, const char *fmt, ...)
{
	assert_true(k == p->n + 1 && k < 4096);
	p->n = k;
	p->off[k] = p->body.len;
	sw_buf_addf(&p->body, "%d 0 obj\n", k);
	va_list ap;
	va_start(ap, fmt);
	char tmp[8192];
	int len = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	assert_true(len > 0 && (size_t)len < sizeof(tmp));
	sw_buf_add(&p->body, tmp, (size_t)len);
	sw_buf_adds(&p->body, "\nendobj\n");
}

/* A content stream as object k. */
static void pdf_stream(struct pdf *p, int k, const char *content)
{
	char *s = sw_xasprintf("<< /Length %zu >>\nstream\n%s\nendstream", strlen(content),
			       content);
	pdf_obj(p, k, "%s", s);
	free(s);
}

/* The cross-reference table and trailer, root object root. */
static void pdf_end(struct pdf *p, int root)
{
	size_t x = p->body.len;
	sw_buf_addf(&p->body, "xref\n0 %d\n0000000000 65535 f \n", p->n + 1);
	for (int k = 1; k <= p->n; k++)
		sw_buf_addf(&p->body, "%010zu 00000 n \n", p->off[k]);
	sw_buf_addf(&p->body, "trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%zu\n%%%%EOF\n",
		    p->n + 1, root, x);
}

/* ---- what poppler-glib reads, and what the walk and the reader read ---- */

struct pages {
	int n;
	char **text;
	unsigned char *mark; /* SW_PDF_CAND, SW_PDF_CUT */
};

static void pages_free(struct pages *g)
{
	for (int i = 0; i < g->n; i++)
		g_free(g->text[i]);
	free(g->text);
	free(g->mark);
}

static bool blank(const char *s)
{
	for (; s && *s; s++)
		if (!strchr(" \t\n\r\f", *s))
			return false;
	return true;
}

static PopplerDocument *open_doc(const struct sw_buf *b, GBytes **bytes)
{
	*bytes = g_bytes_new_static(b->data, b->len);
	PopplerDocument *doc = poppler_document_new_from_bytes(*bytes, NULL, NULL);
	assert_non_null(doc);
	return doc;
}

/* Every page through poppler-glib, one document read from start to end. */
static struct pages read_glib(const struct sw_buf *b)
{
	GBytes *bytes;
	PopplerDocument *doc = open_doc(b, &bytes);
	struct pages g = { .n = poppler_document_get_n_pages(doc) };
	g.text = sw_xcalloc((size_t)g.n + 1, sizeof(*g.text));
	g.mark = sw_xcalloc((size_t)g.n + 1, 1);
	for (int i = 0; i < g.n; i++) {
		PopplerPage *page = poppler_document_get_page(doc, i);
		if (!page)
			continue;
		g.text[i] = poppler_page_get_text(page);
		if (blank(g.text[i])) {
			GList *images = poppler_page_get_image_mapping(page);
			g.mark[i] = images != NULL ? SW_PDF_CAND : 0;
			poppler_page_free_image_mapping(images);
		}
		g_object_unref(page);
	}
	g_object_unref(doc);
	g_bytes_unref(bytes);
	return g;
}

static void same(const struct pages *want, const struct pages *got, const char *how)
{
	assert_int_equal(want->n, got->n);
	for (int i = 0; i < want->n; i++) {
		const char *w = want->text[i], *g = got->text[i];
		if ((w == NULL) != (g == NULL) || (w && strcmp(w, g) != 0) ||
		    want->mark[i] != got->mark[i]) {
			fprintf(stderr, "%s: page %d: want [%s] %d, got [%s] %d\n", how, i + 1,
				w ? w : "(none)", want->mark[i], g ? g : "(none)", got->mark[i]);
			fail();
		}
	}
}

/* A walk (or a catalog reader) alone, chunk pages at a time; how many
 * chunks it read. */
static int read_alone(const struct sw_buf *b, int n, int chunk, bool catalog,
		      struct pages *got)
{
	sw__extract_pdf_poppler_hold(); /* sets up poppler's globals, as pdf.c does */
	struct sw__extract_pdf_walk *w =
		catalog ? sw__extract_pdf_catalog_new(b->data, b->len, n, NULL)
			: sw__extract_pdf_walk_new(b->data, b->len, n, NULL);
	got->n = n;
	got->text = sw_xcalloc((size_t)n + 1, sizeof(*got->text));
	got->mark = sw_xcalloc((size_t)n + 1, 1);
	int read = 0;
	for (int c0 = 0; w && c0 < n; c0 += chunk) {
		int c1 = c0 + chunk < n ? c0 + chunk : n;
		if (sw__extract_pdf_walk_read(w, c0, c1, got->text + c0, got->mark + c0) != 0)
			break;
		read++;
	}
	sw__extract_pdf_walk_free(w);
	return read;
}

static int read_walk(const struct sw_buf *b, int n, int chunk, struct pages *got)
{
	return read_alone(b, n, chunk, false, got);
}

/* The reader as pdf.c uses it: threads (0: one per core), alone, chunk. */
static struct pages read_reader(const struct sw_buf *b, int chunk, unsigned threads, bool alone)
{
	GBytes *bytes;
	PopplerDocument *doc = open_doc(b, &bytes);
	struct pages g = { .n = poppler_document_get_n_pages(doc) };
	g_object_unref(doc); /* as pdf.c does: the reader has its own */
	g_bytes_unref(bytes);
	g.text = sw_xcalloc((size_t)g.n + 1, sizeof(*g.text));
	g.mark = sw_xcalloc((size_t)g.n + 1, 1);
	struct sw__extract_pdf_reader *r =
		sw__extract_pdf_reader_new(b->data, b->len, g.n, chunk, threads, alone, NULL);
	for (int c0 = 0; c0 < g.n; c0 += chunk)
		sw__extract_pdf_reader_next(r, g.text + c0, g.mark + c0);
	sw__extract_pdf_reader_free(r);
	return g;
}

/* The reader, every way pdf.c may use it, gives want. */
static void check_readers(const struct sw_buf *b, const struct pages *want)
{
	const struct {
		int chunk;
		unsigned threads;
		bool alone;
	} ways[] = { { 3, 2, false }, { 4, 3, false }, { 2, 1, false }, { 2, 1, true },
		     { 5, 0, false } };
	for (size_t k = 0; k < sizeof(ways) / sizeof(ways[0]); k++) {
		struct pages got = read_reader(b, ways[k].chunk, ways[k].threads, ways[k].alone);
		char how[64];
		snprintf(how, sizeof(how), "reader, chunk %d, %u threads%s", ways[k].chunk,
			 ways[k].threads, ways[k].alone ? ", alone" : "");
		same(want, &got, how);
		pages_free(&got);
	}
}

/* Every way of reading b gives what poppler-glib gives; the walk reads
 * whole_chunks chunks of 5 (-1: all) before it stops. */
static void check_all(const struct sw_buf *b, int whole_chunks)
{
	struct pages want = read_glib(b);
	assert_true(want.n > 0);
	/* Not a comparison of nothing: most pages have text, and one an
	 * image alone when the file has one. */
	int texts = 0;
	for (int i = 0; i < want.n; i++)
		texts += !blank(want.text[i]);
	assert_true(texts > want.n / 3);
	int chunks = (want.n + 4) / 5;
	struct pages got;
	int read = read_walk(b, want.n, 5, &got);
	if (whole_chunks < 0) {
		assert_int_equal(read, chunks);
		same(&want, &got, "walk, 5 a time");
	} else {
		assert_int_equal(read, whole_chunks);
	}
	pages_free(&got);
	if (whole_chunks < 0) {
		read_walk(b, want.n, 1, &got);
		same(&want, &got, "walk, 1 a time");
		pages_free(&got);
		read_walk(b, want.n, want.n, &got);
		same(&want, &got, "walk, all at once");
		pages_free(&got);
	}
	/* The catalog reader, whatever the tree, reads as poppler-glib does. */
	assert_int_equal(read_alone(b, want.n, 5, true, &got), chunks);
	same(&want, &got, "catalog reader, 5 a time");
	pages_free(&got);
	check_readers(b, &want);
	pages_free(&want);
}

/* ---- the trees ---- */

#define FONT 2     /* Helvetica */
#define IMAGE_PAGE "q 100 0 0 100 50 50 cm BI /W 2 /H 2 /CS /G /BPC 8 ID \x80\x40\x20\x10 EI Q"

/* Page k's content: its number where the crop boxes below keep it, and a
 * line only a page that is not cropped shows. */
static char *page_content(int k)
{
	if (k % 11 == 5)
		return sw_xstrdup(IMAGE_PAGE);
	if (k % 13 == 7)
		return sw_xstrdup(""); /* blank, no image: not for OCR */
	return sw_xasprintf("BT /F1 12 Tf 100 300 Td (Page %d of the production) Tj ET\n"
			    "BT /F1 9 Tf 20 760 Td (Header outside a small crop box %d) Tj ET\n"
			    "BT /F1 10 Tf 100 150 Td (Second line, page %d) Tj ET",
			    k, k, k);
}

/* A three-level tree of fan-out 4 (64 pages) over which the boxes, the
 * rotation and the fonts are passed down and overridden; broken says how to
 * break it: 0 not, 1 a loop, 2 a direct kid, 3 a kid that is null,
 * 4 a Count above the pages, 5 a Count below, 6 a Pages node under two
 * parents (its pages read twice, with each parent's boxes and rotation),
 * 7 the same second kid with the wrong generation (no object for poppler). */
static void nested(struct sw_buf *out, int broken)
{
	struct pdf p;
	pdf_begin(&p);
	int count = broken == 4 ? 70 : broken == 5 ? 50 : broken >= 6 ? 68 : 64;
	/* 1 catalog, 2 font, 3 root; then for each of 4 middle nodes its
	 * object, 4 low nodes each, 4 pages each with a content stream. */
	pdf_obj(&p, 1, "<< /Type /Catalog /Pages 3 0 R >>");
	pdf_obj(&p, FONT, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
	pdf_obj(&p, 3, "<< /Type /Pages /Kids [4 0 R 89 0 R 174 0 R 259 0 R] /Count %d "
		       "/MediaBox [0 0 612 792] /Resources << /Font << /F1 2 0 R >> >> >>",
		count);
	int page = 0;
	for (int m = 0; m < 4; m++) {
		int mid = 4 + m * 85;
		const char *mattrs[] = { "", "/Rotate 90", "/CropBox [50 50 562 700]",
					 "/MediaBox [0 0 792 612] /Rotate 270" };
		char kids[128];
		snprintf(kids, sizeof(kids), "%d 0 R %d 0 R %d 0 R %d 0 R", mid + 1, mid + 22,
			 mid + 43, mid + 64);
		if (broken == 1 && m == 2) /* a kid that is its own grandparent */
			snprintf(kids, sizeof(kids), "%d 0 R %d 0 R 3 0 R %d 0 R %d 0 R", mid + 1,
				 mid + 22, mid + 43, mid + 64);
		if (broken >= 6 && m == 3) /* m=2's first low node, a second time */
			snprintf(kids, sizeof(kids), "%d 0 R %d 0 R %d 0 R %d 0 R %d %d R", mid + 1,
				 mid + 22, mid + 43, mid + 64, 4 + 2 * 85 + 1, broken == 7 ? 7 : 0);
		/* m == 1 has no /Type: a Pages node all the same, having Kids */
		pdf_obj(&p, mid, "<< %s /Kids [%s] /Count 16 /Parent 3 0 R %s >>",
			m == 1 ? "" : "/Type /Pages", kids, mattrs[m]);
		for (int l = 0; l < 4; l++) {
			int low = mid + 1 + l * 21;
			struct sw_buf lk = SW_BUF_INIT;
			for (int q = 0; q < 4; q++) {
				if (broken == 2 && m == 1 && l == 3 && q == 1)
					sw_buf_adds(&lk, "<< /Type /Page >> ");
				else if (broken == 3 && m == 3 && l == 0 && q == 2)
					sw_buf_addf(&lk, "%d 0 R ", low + 3 + q * 5); /* a null */
				else
					sw_buf_addf(&lk, "%d 0 R ", low + 1 + q * 5);
			}
			pdf_obj(&p, low, "<< /Type /Pages /Kids [%s] /Count 4 /Parent %d 0 R %s >>",
				lk.data, mid, l == 2 ? "/Rotate 180" : "");
			sw_buf_release(&lk);
			for (int q = 0; q < 4; q++) {
				int obj = low + 1 + q * 5;
				char *c = page_content(++page);
				/* Some pages carry their own boxes; one has no /Type. */
				const char *own = q == 3 ? "/MediaBox [0 0 300 400]"
					: q == 2 && l == 1 ? "/CropBox [0 0 400 400] /Rotate 0" : "";
				pdf_obj(&p, obj, "<< %s /Parent %d 0 R /Contents %d 0 R %s >>",
					q == 1 && l == 3 ? "" : "/Type /Page", low, obj + 1, own);
				pdf_stream(&p, obj + 1, c);
				free(c);
				/* three unused objects keep the numbering regular */
				for (int u = 2; u < 5; u++)
					pdf_obj(&p, obj + u, "null");
			}
		}
	}
	pdf_end(&p, 1);
	*out = p.body;
}

static void test_nested_tree(void **state)
{
	(void)state;
	struct sw_buf b;
	nested(&b, 0);
	check_all(&b, -1);
	sw_buf_release(&b);
}

/* Each broken tree: the walk reads the chunks before the break and stops;
 * every reader gives poppler-glib's pages all the same. */
static void test_broken_trees(void **state)
{
	(void)state;
	/* The chunks of 5 read before each break (chunk k holds pages
	 * 5k+1..5k+5): the loop follows m=2's first two low nodes (pages
	 * 33-40), so page 41 (chunk 8) is the first after it; the direct kid
	 * is page 30 (m=1 l=3 q=1, chunk 5); the number, page 51 (m=3 l=0
	 * q=2, chunk 10); with Count 70 the 64 pages end inside chunk 12;
	 * Count 50: no break, 50 pages; the wrong generation of a node read
	 * before (pages 33-36), once its 64 pages are read: chunk 13. */
	const struct {
		int broken, stop;
	} trees[] = { { 1, 8 }, { 2, 5 }, { 3, 10 }, { 4, 12 }, { 5, -1 }, { 7, 12 } };
	for (size_t k = 0; k < sizeof(trees) / sizeof(trees[0]); k++) {
		struct sw_buf b;
		nested(&b, trees[k].broken);
		check_all(&b, trees[k].stop);
		sw_buf_release(&b);
	}
}

/* A Pages node under two parents: poppler's catalog reads its pages twice,
 * inheriting from each parent in turn.  Walked a chunk at a time, the two
 * visits fall in different ranges, and the walk gives the same pages; in
 * one range holding both, the node's one entry cannot hold two pruned
 * copies, so the walk stops, and the readers still give poppler-glib's. */
static void test_shared_node(void **state)
{
	(void)state;
	struct sw_buf b;
	nested(&b, 6);
	struct pages want = read_glib(&b);
	assert_int_equal(want.n, 68);
	assert_string_equal(want.text[64], want.text[32]); /* page 33 again... */
	struct pages got;
	assert_int_equal(read_walk(&b, want.n, 5, &got), 14);
	same(&want, &got, "walk, 5 a time");
	pages_free(&got);
	assert_int_equal(read_walk(&b, want.n, want.n, &got), 0);
	pages_free(&got);
	check_readers(&b, &want);
	pages_free(&want);
	sw_buf_release(&b);
}

/* A tree 70 levels deep (each Pages node a page and the next node): the
 * walk stops at its depth limit of 64 (the 64 pages above it are 12 whole
 * chunks of 5 and part of the 13th), and the catalog reader reads on. */
static void test_deep_tree(void **state)
{
	(void)state;
	struct pdf p;
	pdf_begin(&p);
	pdf_obj(&p, 1, "<< /Type /Catalog /Pages 3 0 R >>");
	pdf_obj(&p, FONT, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
	/* node k is object 3 + 3k, its page 4 + 3k, the page's content 5 + 3k */
	for (int k = 0; k < 70; k++) {
		int node = 3 + 3 * k;
		if (k < 69)
			pdf_obj(&p, node, "<< /Type /Pages /Kids [%d 0 R %d 0 R] /Count %d %s >>",
				node + 1, node + 3, 70 - k,
				k ? "" : "/MediaBox [0 0 612 792] /Resources << /Font << /F1 2 0 R >> >>");
		else
			pdf_obj(&p, node, "<< /Type /Pages /Kids [%d 0 R] /Count 1 >>", node + 1);
		pdf_obj(&p, node + 1, "<< /Type /Page /Parent %d 0 R /Contents %d 0 R >>", node,
			node + 2);
		char *c = sw_xasprintf("BT /F1 12 Tf 100 300 Td (Level %d) Tj ET", k + 1);
		pdf_stream(&p, node + 2, c);
		free(c);
	}
	pdf_end(&p, 1);
	check_all(&p.body, 12);
	sw_buf_release(&p.body);
}

static cairo_status_t to_buf(void *closure, const unsigned char *data, unsigned int len)
{
	sw_buf_add(closure, data, len);
	return CAIRO_STATUS_SUCCESS;
}

/* cairo's own files, as a print-to-PDF production is: text pages, a
 * scanned page, a blank one, pages of other sizes. */
static void test_cairo_file(void **state)
{
	(void)state;
	struct sw_buf b;
	sw_buf_init(&b);
	cairo_surface_t *s = cairo_pdf_surface_create_for_stream(to_buf, &b, 612, 792);
	cairo_t *cr = cairo_create(s);
	cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, 10);
	for (int i = 1; i <= 23; i++) {
		if (i % 7 == 3)
			cairo_pdf_surface_set_size(s, 842, 595);
		if (i % 5 == 2) {
			cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 40, 20);
			cairo_set_source_surface(cr, img, 10, 10);
			cairo_paint(cr);
			cairo_surface_destroy(img);
			cairo_set_source_rgb(cr, 0, 0, 0);
		} else if (i != 17) {
			char line[64];
			snprintf(line, sizeof(line), "ABC%07d  Deposition of R. Smith, page %d", i, i);
			cairo_move_to(cr, 40, 60);
			cairo_show_text(cr, line);
			cairo_move_to(cr, 40, 74);
			cairo_show_text(cr, "Q. And then? A. I sent the invoice.");
		}
		cairo_show_page(cr);
		cairo_pdf_surface_set_size(s, 612, 792);
	}
	cairo_destroy(cr);
	cairo_surface_destroy(s);
	check_all(&b, -1);
	sw_buf_release(&b);
}

/* A linearized file is left to the catalog, which reads it by its hint
 * tables: no walk opens, and the reader still gives poppler-glib's pages. */
static void test_linearized(void **state)
{
	(void)state;
	struct pdf p;
	pdf_begin(&p);
	/* The linearization dictionary is the first object and gives the
	 * file's length (written last, into ten digits kept for it). */
	pdf_obj(&p, 1, "<< /Linearized 1 /L 0000000000 /N 14 /T 0 /O 4 /E 0 /H [0 0] >>");
	pdf_obj(&p, 2, "<< /Type /Catalog /Pages 3 0 R >>");
	struct sw_buf kids = SW_BUF_INIT;
	for (int k = 0; k < 14; k++)
		sw_buf_addf(&kids, "%d 0 R ", 5 + 2 * k);
	pdf_obj(&p, 3, "<< /Type /Pages /Kids [%s] /Count 14 /MediaBox [0 0 612 792] "
		       "/Resources << /Font << /F1 4 0 R >> >> >>", kids.data);
	sw_buf_release(&kids);
	pdf_obj(&p, 4, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
	for (int k = 0; k < 14; k++) {
		pdf_obj(&p, 5 + 2 * k, "<< /Type /Page /Parent 3 0 R /Contents %d 0 R >>", 6 + 2 * k);
		char *c = page_content(k + 1);
		pdf_stream(&p, 6 + 2 * k, c);
		free(c);
	}
	pdf_end(&p, 2);
	char *l = strstr(p.body.data, "/L 0000000000");
	assert_non_null(l);
	char digits[11];
	snprintf(digits, sizeof(digits), "%010zu", p.body.len);
	memcpy(l + 3, digits, 10);
	check_all(&p.body, 0);
	sw_buf_release(&p.body);
}

/* PDFs as other tools write them (tests/data/pdf/SOURCE.md: qpdf's object
 * streams, AES and RC4 encryption under an owner password, linearization
 * with hint tables): walked whole where walked at all, and read by the
 * reader as poppler-glib reads them. */
static void test_tool_files(void **state)
{
	(void)state;
	const char *data = getenv("SW_TEST_DATA");
	assert_non_null(data); /* set by CTest: tests/data */
	const struct {
		const char *name;
		int walked; /* -1: every chunk; 0: no walk (linearized) */
	} files[] = {
		{ "objstm.pdf", -1 },    { "aes128.pdf", -1 },    { "aes256.pdf", -1 },
		{ "rc4.pdf", -1 },       { "linearized.pdf", 0 }, { "lin-objstm-aes256.pdf", 0 },
	};
	for (size_t k = 0; k < sizeof(files) / sizeof(files[0]); k++) {
		char *path = sw_xasprintf("%s/pdf/%s", data, files[k].name);
		struct sw_buf b = SW_BUF_INIT;
		struct sw_err err = { 0 };
		assert_int_equal(sw_file_read(&b, path, (size_t)1 << 24, &err), 0);
		fprintf(stderr, "%s\n", files[k].name);
		check_all(&b, files[k].walked);
		sw_buf_release(&b);
		free(path);
	}
}

/* ---- the bounds of a page ---- */

/* Object k: a stream of any length, its dictionary dict without /Length. */
static void pdf_big_stream(struct pdf *p, int k, const char *dict, const char *content)
{
	assert_true(k == p->n + 1 && k < 4096);
	p->n = k;
	p->off[k] = p->body.len;
	size_t len = strlen(content);
	sw_buf_addf(&p->body, "%d 0 obj\n<< %s /Length %zu >>\nstream\n", k, dict, len);
	sw_buf_add(&p->body, content, len);
	sw_buf_adds(&p->body, "\nendstream\nendobj\n");
}

/* A form XObject as object k: content, drawing form `inner` (0: none). */
static void pdf_form(struct pdf *p, int k, int inner, const char *content)
{
	char *d = sw_xasprintf("/Type /XObject /Subtype /Form /BBox [0 0 612 792] "
			       "/Resources << /Font << /F1 %d 0 R >> /XObject << /X %d 0 R >> >>",
			       FONT, inner ? inner : k);
	pdf_big_stream(p, k, d, content);
	free(d);
}

static size_t count_chars(const char *s, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		n += s[i] != ' ' && s[i] != '\n' && s[i] != '\r' && s[i] != '\f';
	return n;
}

/* Pages that draw without end, as a hostile production's do: 256,000
 * characters in tiny type (of which poppler keeps 50,000); forms drawing
 * forms drawing text (a million draws of two characters) and drawing paths
 * (ten to the eighth power operators in ten thousand draws, no text at
 * all), the paths after an image (no page to render for OCR: the render
 * would draw them all).  Each stops at the bounds of pdf_walk.h, keeps its
 * text up to there, and says so; pages after them read as ever.  Unbounded, such
 * forms draw for hours (a 2 KB file of them held 1.4 GB at 100 s). */
static void test_page_bounds(void **state)
{
	(void)state;
	struct pdf p;
	pdf_begin(&p);
	pdf_obj(&p, 1, "<< /Type /Catalog /Pages 3 0 R >>");
	pdf_obj(&p, FONT, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
	pdf_obj(&p, 3, "<< /Type /Pages /Kids [4 0 R 5 0 R 6 0 R 7 0 R 25 0 R 26 0 R] /Count 6 "
		       "/MediaBox [0 0 612 792] /Resources << /Font << /F1 2 0 R >> >> >>");
	pdf_obj(&p, 4, "<< /Type /Page /Parent 3 0 R /Contents 8 0 R >>");
	pdf_obj(&p, 5, "<< /Type /Page /Parent 3 0 R /Contents 9 0 R "
		       "/Resources << /XObject << /X 18 0 R >> >> >>");
	pdf_obj(&p, 6, "<< /Type /Page /Parent 3 0 R /Contents 10 0 R "
		       "/Resources << /XObject << /X 24 0 R >> >> >>");
	pdf_obj(&p, 7, "<< /Type /Page /Parent 3 0 R /Contents 11 0 R >>");
	struct sw_buf c = SW_BUF_INIT;
	sw_buf_adds(&c, "BT /F1 1 Tf 5 780 Td 1.2 TL\n");
	for (int line = 0; line < 640; line++) {
		sw_buf_adds(&c, "(");
		for (int k = 0; k < 40; k++)
			sw_buf_addf(&c, "L%04dw%03d ", line, k); /* 10 characters, 9 not blank */
		sw_buf_adds(&c, ") Tj T*\n");
	}
	sw_buf_adds(&c, "ET");
	pdf_big_stream(&p, 8, "", c.data);
	sw_buf_release(&c);
	pdf_stream(&p, 9, "/X Do");
	pdf_stream(&p, 10, "/X Do");
	pdf_stream(&p, 11, "BT /F1 12 Tf 100 700 Td (An ordinary page) Tj ET");
	/* 12: two characters; 13-18 each draw the one below ten times */
	const char *ten = "/X Do /X Do /X Do /X Do /X Do /X Do /X Do /X Do /X Do /X Do";
	pdf_form(&p, 12, 0, "BT /F1 12 Tf 100 600 Td (ab) Tj ET");
	for (int k = 13; k <= 18; k++)
		pdf_form(&p, k, k - 1, ten);
	/* 19: ten thousand path operators; 20-23 each draw the one below ten
	 * times (24 draws 23 once) */
	struct sw_buf path = SW_BUF_INIT;
	for (int k = 0; k < 2500; k++)
		sw_buf_adds(&path, "10 10 m 20 20 l 30 10 l S\n");
	pdf_form(&p, 19, 0, path.data);
	sw_buf_release(&path);
	for (int k = 20; k <= 23; k++)
		pdf_form(&p, k, k - 1, ten);
	pdf_form(&p, 24, 23, "/X Do");
	/* 25: an image, then the paths (not a page to render for OCR);
	 * 26: an image alone (one) */
	pdf_obj(&p, 25, "<< /Type /Page /Parent 3 0 R /Contents 27 0 R "
			"/Resources << /XObject << /X 24 0 R >> >> >>");
	pdf_obj(&p, 26, "<< /Type /Page /Parent 3 0 R /Contents 28 0 R >>");
	pdf_stream(&p, 27, IMAGE_PAGE " /X Do");
	pdf_stream(&p, 28, IMAGE_PAGE);
	pdf_end(&p, 1);

	struct sw_extract x;
	struct sw_extract_opts opts = { .ocr = false, .threads = 1, .text_alone = true };
	struct sw_err err = { 0 };
	sw_extract_init(&x);
	assert_int_equal(sw__extract_pdf(&x, p.body.data, p.body.len, &opts, &err), 0);
	assert_int_equal(x.npages, 6);
	size_t first = count_chars(x.text.data + x.pages[0].start, x.pages[0].len);
	fprintf(stderr, "page 1: %zu characters kept\n", first);
	assert_true(first > 0 && first <= SW_PDF_PAGE_CHARS);
	assert_non_null(strstr(x.text.data + x.pages[0].start, "L0000w000"));
	assert_true(x.pages[1].len > 0); /* the forms' text up to the bound */
	assert_true(count_chars(x.text.data + x.pages[2].start, x.pages[2].len) == 0);
	assert_non_null(strstr(x.text.data + x.pages[3].start, "An ordinary page"));
	assert_false(x.pages[4].image_only);
	assert_true(x.pages[5].image_only);
	for (size_t i = 0; i < 5; i++)
		assert_false(x.pages[i].image_only);
	bool said = false;
	for (size_t i = 0; i < x.nwarnings; i++) {
		said = said || (strstr(x.warnings[i], "4 page(s) draw more") &&
				strstr(x.warnings[i], "first page 1"));
	}
	assert_true(said);
	assert_int_equal(json_integer_value(json_object_get(x.meta, "text_cut_pages")), 4);
	sw_extract_release(&x);

	/* Bounds of the caller's: five characters (the space one of them) cut
	 * the ordinary page too. */
	opts.pdf_page_chars = 5;
	sw_extract_init(&x);
	assert_int_equal(sw__extract_pdf(&x, p.body.data, p.body.len, &opts, &err), 0);
	assert_int_equal(x.npages, 6);
	assert_int_equal(count_chars(x.text.data + x.pages[3].start, x.pages[3].len), 4);
	assert_memory_equal(x.text.data + x.pages[3].start, "An or", 5);
	assert_int_equal(json_integer_value(json_object_get(x.meta, "text_cut_pages")), 5);
	sw_extract_release(&x);
	sw_buf_release(&p.body);
}

/* Forms too short for poppler to ask whether to stop (Gfx asks only in a
 * stream that has run more than ten operators since it began, and each
 * form's stream begins again): two path operators drawn by seven levels
 * of forms that each draw the one below ten times, ten million draws (a
 * fuzzer's find, as a mutation of the form bomb above).  Over its bounds
 * the page draws no more forms; before, it drew every one (11,111,110
 * forms, some 0.03 ms each under ASan: five minutes).  Counted, not timed:
 * at most the bound's forms and one more are drawn, and each of the eight
 * forms is named to the device at most once over the bounds (then stubbed). */
static void test_short_forms(void **state)
{
	(void)state;
	struct pdf p;
	pdf_begin(&p);
	pdf_obj(&p, 1, "<< /Type /Catalog /Pages 3 0 R >>");
	pdf_obj(&p, FONT, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
	pdf_obj(&p, 3, "<< /Type /Pages /Kids [4 0 R] /Count 1 /MediaBox [0 0 612 792] >>");
	pdf_obj(&p, 4, "<< /Type /Page /Parent 3 0 R /Contents 5 0 R "
		       "/Resources << /XObject << /X 13 0 R >> >> >>");
	pdf_stream(&p, 5, "/X Do");
	pdf_form(&p, 6, 0, "10 10 m S");
	for (int k = 7; k <= 13; k++)
		pdf_form(&p, k, k - 1, "/X Do /X Do /X Do /X Do /X Do /X Do /X Do /X Do /X Do /X Do");
	pdf_end(&p, 1);
	struct sw_extract x;
	struct sw_extract_opts opts = { .ocr = false, .threads = 1, .text_alone = true };
	struct sw_err err = { 0 };
	struct sw__extract_pdf_counts c0, c1;
	sw_extract_init(&x);
	sw__extract_pdf_counts_get(&c0);
	assert_int_equal(sw__extract_pdf(&x, p.body.data, p.body.len, &opts, &err), 0);
	sw__extract_pdf_counts_get(&c1);
	fprintf(stderr, "short forms: %ld drawn, %ld named over the bounds\n", c1.forms - c0.forms,
		c1.forms_over - c0.forms_over);
	/* (Its time bound may cut it first on a slow machine: fewer.) */
	assert_true(c1.forms - c0.forms >= 1);
	assert_true(c1.forms - c0.forms <= SW_PDF_PAGE_FORMS + 1);
	assert_true(c1.forms_over - c0.forms_over <= 8);
	assert_int_equal(x.npages, 1);
	assert_int_equal(json_integer_value(json_object_get(x.meta, "text_cut_pages")), 1);
	sw_extract_release(&x);
	sw_buf_release(&p.body);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nested_tree),
		cmocka_unit_test(test_broken_trees),
		cmocka_unit_test(test_shared_node),
		cmocka_unit_test(test_deep_tree),
		cmocka_unit_test(test_cairo_file),
		cmocka_unit_test(test_linearized),
		cmocka_unit_test(test_tool_files),
		cmocka_unit_test(test_page_bounds),
		cmocka_unit_test(test_short_forms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
