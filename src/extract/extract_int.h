/*
 * extract_int.h - internals shared by the files of extract/.  The public
 * contract is extract.h; the format extractors below are reached through
 * its registry (format.c).
 */
#ifndef SW_EXTRACT_INT_H
#define SW_EXTRACT_INT_H

#include "extract/extract.h"

/* The arena block size for parsing an input of len bytes: the strings take
 * about as many bytes as the input, and a small input should not pay for a
 * large block. */
size_t sw__extract_arena_block(size_t len);

void sw__extract_warn(struct sw_extract *x, const char *fmt, ...) SW_PRINTF(2, 3);

/* An attachment's name as stored (eml.c): its last path part, made UTF-8,
 * control bytes replaced, cut to 200 bytes on a character boundary;
 * "attachment-N" when nothing is left (or name is NULL, "." or "..").
 * Caller frees.  The e-mail and Outlook readers both use it. */
char *sw__extract_attachment_name(const char *name, size_t n);

/* Read text (text and Markdown): decoded as sw_extract_decode does, split
 * into pages on form feeds (a final one adds no empty page), a warning
 * when it was read as Windows-1252. */
int sw__extract_text(struct sw_extract *out, const char *data, size_t len,
		     const struct sw_extract_opts *opts, struct sw_err *err) SW_MUST_USE;

/* Extract a PDF: one page of text per PDF page, metadata (title, author,
 * dates, producer...).  An encrypted, damaged or empty PDF fails with
 * SW_EINPUT and a one-line reason. */
int sw__extract_pdf(struct sw_extract *out, const char *data, size_t len,
		    const struct sw_extract_opts *opts, struct sw_err *err) SW_MUST_USE;

/* The most objects the bytes of a PDF declare (pdf_xref.c): the largest
 * table size any /Size, xref section head, /Index pair or "N G obj" would
 * make poppler allocate, where it is (a byte offset) and what it is.  A
 * file that declares more than sw__extract_pdf_objects_max(len) is not opened:
 * poppler would allocate some 40 bytes an entry at once, and some of its
 * searches walk the whole table for each token.  A real PDF spends far
 * more than SW_PDF_OBJECT_BYTES on each object (77 to 600 bytes in the
 * PDFs measured, object streams and linearized files among them). */
struct sw__extract_pdf_declared {
	long long objects;
	size_t at;
	const char *what; /* "/Size", "/Index", "an xref section", "an object number" */
	size_t looked;    /* bytes the scan looked at: at most twice len (a
			   * number that is not one is read again as a word),
			   * for tests that prove the one pass by a count */
};
#define SW_PDF_OBJECTS_MIN 1024LL
#define SW_PDF_OBJECT_BYTES 4
/* The scan is one pass over every byte.  When data lies in map (a file
 * mapped with sw_file_map; NULL: a buffer of the caller's), each
 * SW_PDF_SCAN_WINDOW bytes scanned are dropped from memory behind the
 * scan, so that a long file's pages do not all count against the process
 * before its reading starts. */
#define SW_PDF_SCAN_WINDOW ((size_t)8 << 20)
void sw__extract_pdf_declared_objects(const char *data, size_t len, const struct sw_map *map,
				      struct sw__extract_pdf_declared *d);
long long sw__extract_pdf_objects_max(size_t len);

/* Whether the PDF's end names where its cross-reference table is, and one
 * is there: a startxref in its last 1,024 bytes (where poppler looks) whose
 * offset holds "xref" or an object's head ("N G obj", an xref stream).
 * Without one poppler rebuilds the table by reading every byte of the
 * file, all of them resident at once; a file over SW_PDF_WHOLE_BYTES (what
 * sworn reads whole of other formats) is not opened so. */
bool sw__extract_pdf_xref_found(const char *data, size_t len);
#define SW_PDF_WHOLE_BYTES SW_EXTRACT_MAX_FILE_BYTES

/* The text layer of the npages pages of the PDF in data (len bytes, which
 * must outlive the reader), a chunk of pages at a time in page order
 * (pdf_pages.c).  A long document is read by walks that build and drop
 * each page (pdf_walk.h), ahead on threads (threads: 0 for one per core)
 * unless one reader or one core; one that no walk reads, by catalog
 * readers of the threads' own within a page-tree budget; a short one, or
 * any when alone, by one catalog reader on the caller's thread.  Each call
 * to next fills the next chunk: text[k] (g_malloc'd, the caller's; NULL
 * for a page poppler cannot read) and mark[k] (SW_PDF_CAND: no text but
 * images, a page for OCR; SW_PDF_CUT: the text stopped at the page bounds,
 * pdf_walk.h; NULL: the defaults), for min(chunk, pages left) entries.  The page text is
 * the same whichever reader read it. */
struct sw__extract_pdf_reader;
struct sw__extract_pdf_bounds;
struct sw__extract_pdf_reader *
sw__extract_pdf_reader_new(const char *data, size_t len, int npages, int chunk, unsigned threads,
			   bool alone, const struct sw__extract_pdf_bounds *bounds);
void sw__extract_pdf_reader_next(struct sw__extract_pdf_reader *r, char **text,
				 unsigned char *mark);
void sw__extract_pdf_reader_free(struct sw__extract_pdf_reader *r);

/* Extract a .docx: the paragraphs and tables of word/document.xml in
 * reading order, one page per explicit page break; tracked changes and
 * comments are listed in a marked section at the end and in the metadata. */
int sw__extract_docx(struct sw_extract *out, const char *data, size_t len,
		     const struct sw_extract_opts *opts, struct sw_err *err) SW_MUST_USE;

/* The XML reading of a .docx without the archive: document (word/document.xml)
 * and comments (word/comments.xml, may be NULL) as bytes, read as
 * sw__extract_docx reads them (the fuzz target's way past the zip checks). */
int sw__extract_docx_xml(struct sw_extract *out, const char *document, size_t doclen,
			 const char *comments, size_t comlen, struct sw_err *err) SW_MUST_USE;

/* Extract an e-mail: From/To/Cc/Date/Subject as metadata and as the head of
 * the text, the text body (HTML reduced to text), the attachments. */
int sw__extract_eml(struct sw_extract *out, const char *data, size_t len,
		    const struct sw_extract_opts *opts, struct sw_err *err) SW_MUST_USE;

/* Extract an Outlook .msg (MAPI properties in an OLE2 compound file) as
 * sw__extract_eml does an .eml: sender, recipients, date and subject, the
 * body (plain, else HTML reduced to text), the attachments.  A file that
 * is not an OLE2 message fails with SW_EINPUT. */
int sw__extract_msg(struct sw_extract *out, const char *data, size_t len,
		    const struct sw_extract_opts *opts, struct sw_err *err) SW_MUST_USE;

/* Reduce HTML to text: tags dropped, block elements to line breaks,
 * script and style skipped, character references decoded. */
void sw__extract_html_to_text(struct sw_buf *out, const char *html, size_t len);

/* OCR of gray page images (one byte a pixel) with tesseract, loaded on
 * first use with OMP_THREAD_LIMIT=1 (parallel pages instead of parallel
 * threads in one page).  SW_ENOTFOUND when tesseract cannot be loaded. */
struct sw_ocr;
int sw__extract_ocr_new(struct sw_ocr **out, struct sw_err *err) SW_MUST_USE;
int sw__extract_ocr_page(struct sw_ocr *o, struct sw_buf *text, float *confidence,
		 const unsigned char *gray, int width, int height, int stride,
		 int dpi, struct sw_err *err) SW_MUST_USE;
void sw__extract_ocr_free(struct sw_ocr *o);
/* An engine from pool (NULL: a new one), and back into it (NULL: freed). */
int sw__extract_ocr_take(struct sw_ocr **out, struct sw_ocr_pool *pool,
			 struct sw_err *err) SW_MUST_USE;
void sw__extract_ocr_give(struct sw_ocr_pool *pool, struct sw_ocr *o);
/* Run worker(arg) for n pages on threads threads (0: one per core), at
 * most n and at most SW_OCR_MAX_THREADS, and wait for them; worker takes
 * pages until none is left.  On this thread when none starts. */
void sw__extract_ocr_run(unsigned threads, size_t n, void *(*worker)(void *), void *arg);
/* OCR page index (from 0) of an image file leptonica decodes (TIFF pages
 * by index; any other format has page 0 only).  SW_ENOTFOUND for a page
 * the file does not have (or leptonica missing), SW_ELIMIT past
 * SW_IMAGE_MAX_PIXELS, SW_EINPUT for bytes that do not decode (with what
 * leptonica said). */
int sw__extract_ocr_image(struct sw_ocr *o, struct sw_buf *text, float *confidence,
			  const unsigned char *data, size_t len, size_t index,
			  struct sw_err *err) SW_MUST_USE;

/* ------------------------------------------------------- the native module */

/* pdf.c, pdf_pages.c, docx.c, eml.c and msg.c, with the libraries they link (poppler,
 * cairo, GMime, libgsf, libzip, expat), are built into the module
 * sworn-extract.so, whose table below is its one export (native_mod.c).
 * The registry holds the stubs of native_load.c instead, which load the
 * module on first use, check that it is this build's (abi, version, the
 * sizes of the structs that cross) and call through the table.  What
 * crosses is plain structs, malloc'd memory and jansson objects (one libc,
 * one libjansson in the process); the module's calls into base/ and the
 * rest of extract/ (ocr.c, image.c, pages.c) go to sworn's own copies,
 * which sworn exports.  Tests and fuzzers that call sw__extract_pdf and the
 * others directly link them in (the sw_extract_impl library). */
#define SW__EXTRACT_NATIVE_ABI 1 /* bump when the table or a struct it passes changes */
#define SW__EXTRACT_NATIVE_SYMBOL "sw__extract_native_v1"

typedef int sw__extract_fn(struct sw_extract *out, const char *data, size_t len,
			   const struct sw_extract_opts *opts, struct sw_err *err);

struct sw__extract_native {
	unsigned abi;
	const char *version;   /* SW_VERSION */
	size_t sizes[4];       /* sizeof sw_extract, sw_extract_opts, sw_err, sw_buf */
	sw__extract_fn *pdf, *docx, *eml, *msg;
	void (*libs)(struct sw_extract_libs *out);
};

extern const struct sw__extract_native sw__extract_native_v1;

/* The registry's entries for the native formats (native_load.c). */
sw__extract_fn sw__extract_lazy_pdf, sw__extract_lazy_docx, sw__extract_lazy_eml,
	sw__extract_lazy_msg;

#endif /* SW_EXTRACT_INT_H */
