/*
 * extract.h - file bytes to pages and metadata, with no database: the one
 * registry of the formats sworn reads (text, Markdown, PDF with OCR, e-mail,
 * .docx, Concordance load files, Opticon image lists), the pure parsers of
 * load files, Bates numbers and deposition transcripts, and the decoding of
 * text files.  record/ stores what these give; nothing here knows a matter.
 *
 * Every input is hostile; every count and length is checked against the
 * SW_*_MAX limits below before anything is allocated, and each parser has a
 * libFuzzer target in tests/fuzz/.
 */
#ifndef SW_EXTRACT_H
#define SW_EXTRACT_H

#include "base/base.h"

struct json_t;

/* Pages in one document and bytes in one file (record.h's
 * SW_RECORD_MAX_PAGES and SW_RECORD_MAX_FILE_BYTES are the same). */
#define SW_EXTRACT_MAX_PAGES 200000
#define SW_EXTRACT_MAX_FILE_BYTES ((size_t)512 << 20)

/* ------------------------------------------------ Concordance .DAT files */

#define SW_DAT_MAX_BYTES ((size_t)2 << 30)     /* whole file */
#define SW_DAT_MAX_FIELDS 1000                 /* columns */
#define SW_DAT_MAX_RECORDS 10000000            /* rows */
#define SW_DAT_MAX_FIELD_BYTES ((size_t)16 << 20)

enum sw_dat_encoding { SW_DAT_UTF8, SW_DAT_LATIN1, SW_DAT_UTF16 };

/* One row.  When error is not NULL the row was malformed (wrong field count,
 * unterminated qualifier, over a limit) and values is NULL; the rest of the
 * file is still parsed. */
struct sw_dat_record {
	char **values; /* nfields UTF-8 strings, owned by the sw_dat */
	int line;      /* 1-based line of the file where the row starts */
	char *error;   /* one-line reason, or NULL */
	char *warning; /* a value not UTF-8 in a UTF-8 file, read as 1252; or NULL */
};

/* A parsed load file.  Field names are trimmed and upper-cased; values are
 * converted to UTF-8, with the newline-in-field mark (®) turned into '\n'. */
struct sw_dat {
	enum sw_dat_encoding encoding;
	bool bom;                  /* the file began with a UTF-8 BOM */
	bool cr_line_ends;         /* lines ended by CR alone, read as LF */
	char separator[4];         /* as UTF-8: "\x14", "\xc2\xb6", ",", ... */
	char qualifier[4];         /* as UTF-8: "\xc3\xbe" (þ), "\"" or "" */
	size_t nfields;
	char **names;
	struct sw_dat_record *records;
	size_t nrecords;
	size_t nbad;               /* rows with an error */
	size_t ncp1252;            /* rows with a warning (values read as 1252) */
	struct sw_arena arena;     /* owns every string */
};

/* Parse a .DAT.  The encoding (UTF-8 with or without BOM, else Latin-1 /
 * Windows-1252; a file mostly of UTF-8 with stray 1252 bytes is UTF-8, each
 * value that is not read as 1252 with its row's warning) and the separator and qualifier are detected from the header
 * row.  Fails (SW_EINPUT) only when there is no usable header row or a limit
 * is passed; malformed data rows are reported in their record. */
int sw_dat_parse(struct sw_dat *out, const char *data, size_t len,
		 struct sw_err *err) SW_MUST_USE;
void sw_dat_release(struct sw_dat *d);

/* Index of the column named name (case-insensitive), or -1. */
int sw_dat_field(const struct sw_dat *d, const char *name);

/* ----------------------------------------------- Opticon .OPT image files */

#define SW_OPT_MAX_PAGES 50000000
#define SW_OPT_MAX_LINE 8192

/* An .OPT is read in bounded memory: the parse keeps, per page, one bit
 * (its DocBreak) and, per block of SW_OPT_BLOCK pages, where the block
 * starts in the bytes, its line number and a hash of its bytes; no page's
 * strings.  A page's fields are read again from the bytes when asked for
 * (sw_opt_read), and a block whose bytes no longer hash as they did fails
 * (the file changed while it was read).  Only the keys the caller names
 * are indexed (a load file's BEGBATES and ENDBATES), so the index grows
 * with the .DAT, not the .OPT: about 0.9 bytes a page in all. */
#define SW_OPT_BLOCK 32

struct sw_opt_page {
	char *key;        /* ImageKey: the page's Bates number */
	char *volume;
	char *image;      /* ImagePath as written */
	bool doc_break;   /* a document starts here: 'Y' in DocBreak, or set by
			   * sw_opt_set_doc_break */
	uint32_t page_count; /* PageCount on a page with 'Y' in DocBreak, else 0 */
	int line;
};

struct sw_opt_block; /* opt.c */
struct sw_opt_keys;  /* opt.c */

struct sw_opt {
	size_t n;         /* pages */
	size_t nbreaks;   /* pages with 'Y' in DocBreak */
	size_t nbad;      /* malformed lines skipped */
	char *first_error; /* the first malformed line's reason, or NULL */
	size_t ncp1252;   /* lines not valid UTF-8 (their other bytes read as 1252) */
	int first_cp1252_line;
	/* The rest is opt.c's. */
	uint64_t *breaks; /* a bit per page */
	struct sw_opt_block *blocks;
	size_t nblocks, capblocks, capbreaks;
	struct sw_opt_keys *keys;
	const char *data; /* the bytes read again: borrowed, or owned */
	char *owned;
	int fd;           /* or, when file, the file's, open until sw_opt_release */
	bool file;
	uint64_t end;     /* where the last line ends */
	bool mixed;
	struct sw_arena arena;
};

/* Parse the .OPT in data, every key indexed.  data is borrowed until
 * sw_opt_release (pages are read again from it). */
int sw_opt_parse(struct sw_opt *out, const char *data, size_t len,
		 struct sw_err *err) SW_MUST_USE;
/* The same, reading the file at path a chunk at a time (a UTF-16 file
 * whole, converted), so that memory holds neither the file's bytes nor its
 * pages; the file stays open until sw_opt_release.  Only the nkeys keys
 * (borrowed until sw_opt_release) are indexed for sw_opt_find; keys NULL
 * indexes every key (as many entries as pages).  SW_ELIMIT past limit
 * bytes. */
int sw_opt_parse_file(struct sw_opt *out, const char *path, size_t limit,
		      const char *const *keys, size_t nkeys, struct sw_err *err) SW_MUST_USE;
/* The index of the first page whose key is key, or SIZE_MAX (also for a
 * key the parse was not asked to index). */
size_t sw_opt_find(const struct sw_opt *o, const char *key);
/* Whether page i starts a document, and marking it so. */
bool sw_opt_doc_break(const struct sw_opt *o, size_t i);
void sw_opt_set_doc_break(struct sw_opt *o, size_t i);
/* The first page at or after from that starts a document, or o->n. */
size_t sw_opt_next_break(const struct sw_opt *o, size_t from);

/* Pages of an .OPT read again: pages[0..n), their strings in arena. */
struct sw_opt_range {
	struct sw_opt_page *pages;
	size_t n;
	struct sw_arena arena;
};
/* Read pages first..first+count (cut at o->n) into out (replacing what it
 * held; zero it before the first use).  SW_EIO when the bytes cannot be
 * read, SW_EINPUT when they are not what the parse read. */
int sw_opt_read(struct sw_opt_range *out, const struct sw_opt *o, size_t first,
		size_t count, struct sw_err *err) SW_MUST_USE;
void sw_opt_range_release(struct sw_opt_range *r);
void sw_opt_release(struct sw_opt *o);

/* ---------------------------------------------------------- Bates numbers */

#define SW_BATES_PREFIX_MAX 48
#define SW_BATES_MAX_DIGITS 9  /* longer runs move digits into the prefix */

/* A Bates number split as review platforms do: the prefix is everything
 * before the number (separator included, "ABC-"), the number is the longest
 * digit run of at least three digits (the first of equal ones), width its
 * zero-padded length, and a suffix anything after (attachment "_003" style
 * is kept in suffix).  A run longer than SW_BATES_MAX_DIGITS keeps its last
 * digits as the number and the rest joins the prefix, so "20140904_PROD_
 * PAGE_1" is prefix "", number 20140904, suffix "_PROD_PAGE_1". */
struct sw_bates {
	char prefix[SW_BATES_PREFIX_MAX];
	uint64_t number;
	int width;
	char suffix[16];
};

/* The longest text sw_bates_parse can accept: a full prefix, the counter and
 * a full suffix.  Longer digit runs end up in the prefix, so this holds for
 * them too, and lets a caller refuse a hostile megabyte before looking. */
#define SW_BATES_TEXT_MAX \
	(SW_BATES_PREFIX_MAX - 1 + SW_BATES_MAX_DIGITS + \
	 sizeof(((struct sw_bates *)0)->suffix) - 1)

/* Parse len bytes as one Bates number.  One space is allowed, right before
 * the number ("ABC 0001234"; it stays in the prefix).  A purely numeric text
 * parses with an empty prefix; callers decide whether that will do.  Returns
 * 0, or SW_EINPUT when the text does not look like one (no 3+ digit run,
 * prefix or suffix too long, other spaces, control bytes, invalid UTF-8);
 * out is zeroed then. */
int sw_bates_parse(struct sw_bates *out, const char *s, size_t len);

/* Format b with its number replaced by number (same prefix, width, suffix).
 * Returns the length written (snprintf rules). */
int sw_bates_format(char *out, size_t outsz, const struct sw_bates *b,
		    uint64_t number);

/* Find the Bates stamp of a page: a Bates-looking token on one of the first
 * or last three non-empty lines, possibly beside a confidentiality legend
 * ("CONFIDENTIAL", "HIGHLY CONFIDENTIAL - ATTORNEYS' EYES ONLY").  The
 * prefix must start with a letter and hold two or more, all upper case, the
 * counter five digits or four zero-padded ones, the suffix only "_003"
 * style; lines of prose (over eight words besides the legend) are skipped,
 * and the footer wins over the header.  On success
 * fills out and the byte range of the token and returns 0; SW_ENOTFOUND
 * when there is no stamp. */
int sw_bates_find_stamp(struct sw_bates *out, size_t *start, size_t *end,
			const char *page, size_t len);

/* The canonical form of a prefix as written ("BLT-" gives "BLT": case
 * folded, separators dropped) into out, which has room for
 * SW_BATES_CANON_MAX bytes.  record.h declares it too, for the users of
 * its Bates queries. */
#define SW_BATES_CANON_MAX 48   /* canonical prefix, with its NUL */
void sw_bates_canon_prefix(char *out, const char *prefix, size_t len);

/* ------------------------------------------------- deposition transcripts */

#define SW_TR_MAX_LINE_NO 50
#define SW_TR_MAX_PAGE_NO 999999

/* One numbered line of a transcript page. */
struct sw_tr_line {
	uint32_t page;  /* transcript page number ("Page 12" header) */
	uint32_t line;  /* 1..25 typically */
	size_t start;   /* byte range of the line's text (after the number) */
	size_t end;     /* within the page text given */
};

/* Parse one page of text as a transcript page: a "Page N" header ("Page N
 * of M", "- N -", a bare page number alone on the first line, or a running
 * header ending in "Page N") and lines that start with their line number
 * (a video time stamp "10:14:32" after the number is margin, outside the
 * line's range).  Returns the number of numbered lines found (0 when it is
 * not a transcript page) and sets *page_no (0 when it is not); lines are
 * appended to *lines (grown with sw_xgrow, *cap tracked by the caller) only
 * for a transcript page.  It is one when the header is the first non-empty
 * line and at least five numbered lines follow it from 1 upwards (blank
 * lines between them are skipped, one missing number is forgiven); the
 * first other line ends the page's lines.  A text without form feeds may
 * hold more transcript pages: each header within three lines after the
 * lines before (a footer, a margin), with a higher page number and five
 * lines or more, adds its lines (each line carries its page). */
size_t sw_transcript_page(uint32_t *page_no, struct sw_tr_line **lines,
			  size_t *n, size_t *cap, const char *text, size_t len);

/* ------------------------------------------------------- native formats */

#define SW_PDF_OCR_DPI 300              /* page images rendered for OCR */
#define SW_OCR_MAX_THREADS 64
#define SW_DOCX_MAX_XML_BYTES ((size_t)256 << 20) /* one part, uncompressed */
#define SW_EML_MAX_PARTS 10000          /* MIME parts in one message */
#define SW_EML_MAX_DEPTH 32             /* nesting of multiparts */
#define SW_MSG_MAX_ATTACH 10000         /* attachments of one Outlook message */
#define SW_EXTRACT_MAX_WARNINGS 16

/* One page of extracted text: a byte range of sw_extract.text. */
struct sw_xpage {
	size_t start, len;
	bool ocr;             /* read by OCR */
	float confidence;     /* OCR mean confidence, 0-100 */
	bool image_only;      /* no text layer and OCR was not run */
	bool over_budget;     /* image_only because the OCR budget was spent */
};

/* A file attached to an e-mail: imported as a child document. */
struct sw_xattach {
	char *name;           /* file name (sanitised), never NULL */
	char *mime;           /* content type, lower case */
	struct sw_buf data;   /* decoded bytes */
};

/* What an extractor found in a native file.  Owns everything. */
struct sw_extract {
	struct sw_buf text;
	struct sw_xpage *pages;
	size_t npages, cappages;
	struct json_t *meta;  /* a JSON object of the file's metadata */
	struct sw_xattach *attach;
	size_t nattach, capattach;
	char *warnings[SW_EXTRACT_MAX_WARNINGS];
	size_t nwarnings;
	size_t ocr_pages;     /* pages read by OCR */
	/* When sink is set (PDF only), each page is handed to it as soon as
	 * it is read, in order, and dropped: text and pages hold one page at
	 * a time, so a document of any length takes bounded memory.  A
	 * non-zero return (err filled) stops the extraction with that code. */
	int (*sink)(void *ctx, const struct sw_xpage *page, const char *text, size_t len,
		    struct sw_err *err);
	void *sink_ctx;
};

void sw_extract_init(struct sw_extract *x);
void sw_extract_release(struct sw_extract *x);
/* End the current page at the end of x->text and start a new one. */
void sw_extract_page(struct sw_extract *x);

/* Append the pages of x to out joined by form feeds (the form the text
 * importer splits again), with any text after the last page kept. */
void sw_extract_join(struct sw_buf *out, const struct sw_extract *x);

/* ------------------------------------------------------ labels CSV files */

/* One row of a labels file.  label and target are NULL for a row that
 * does not hold two non-empty fields; later fields are ignored. */
struct sw_label_row {
	int line;           /* 1-based line of the file */
	const char *label;  /* trimmed, quotes undone; owned by the sw_labels */
	const char *target;
	size_t extra;       /* later fields that were not empty (ignored) */
};

struct sw_labels {
	struct sw_label_row *rows;
	size_t n, cap;
	struct sw_buf text; /* owns the strings */
};

/* Parse a labels CSV already decoded to text (sw_extract_decode).  The
 * separator is the first line's comma, semicolon (Excel where the comma is
 * the decimal mark) or tab ("Unicode text"), whichever is most outside
 * quotes.  Blank lines, '#' comments, a spreadsheet's empty rows and a
 * header row ("Label,Target", "Exhibit,Bates") give no row. */
void sw_labels_parse(struct sw_labels *out, const char *text, size_t len);
void sw_labels_release(struct sw_labels *l);

/* ------------------------------------------------------------- text */

/* Decode file bytes as text: strip a UTF-8 BOM; UTF-16 (see below) is
 * converted; bytes that are not valid UTF-8 are read as Windows-1252, line
 * by line as sw_extract_decode_text says (*latin1 set).  A lone
 * truncated sequence at the very end is dropped (*truncated set).  Returns
 * SW_EINPUT for binary data: NUL bytes, or as sw_extract_decode_text says. */
int sw_extract_decode(struct sw_buf *out, bool *latin1, bool *truncated,
		      const char *data, size_t len, struct sw_err *err);

/* What sw_extract_decode_text found. */
struct sw_decoded {
	bool truncated;       /* a sequence cut short at the very end, dropped */
	size_t cp1252_lines;  /* lines that are not valid UTF-8 */
	size_t first_line;    /* 1-based, the first of them */
	size_t cp1252_bytes;  /* bytes of theirs read as Windows-1252 */
};

/* Decode as sw_extract_decode does, but line by line: a line of valid
 * UTF-8 stays as it is, and in another only the bytes that are not part of
 * a valid sequence are read as Windows-1252 (d says which lines).  Also
 * SW_EINPUT for bytes that have no NUL but are no text either (over a
 * sixteenth control bytes, or nine tenths not UTF-8), with the reason. */
int sw_extract_decode_text(struct sw_buf *out, struct sw_decoded *d, const char *data,
			   size_t len, struct sw_err *err) SW_MUST_USE;

/* A one-line warning naming the lines d found not UTF-8, into buf. */
void sw_extract_decoded_note(char *buf, size_t n, const struct sw_decoded *d);

/* Append len bytes to out: valid UTF-8 sequences as they are, every other
 * byte read as Windows-1252.  Returns how many bytes were read so. */
size_t sw_extract_mixed_to_utf8(struct sw_buf *out, const char *s, size_t len);

/* Count the valid multi-byte UTF-8 sequences and the bytes that belong to
 * none (which encoding a file mostly is). */
void sw_extract_utf8_census(const char *s, size_t len, size_t *multibyte, size_t *invalid);

/* When data is UTF-16 (a byte-order mark, or without one the NUL bytes of
 * ASCII text in UTF-16 LE or BE), convert it to UTF-8 into out (replacing
 * its contents; the mark dropped, bad surrogates as U+FFFD) and return
 * true; else leave out alone and return false. */
bool sw_extract_utf16_to_utf8(struct sw_buf *out, const char *data, size_t len);

/* The pages of a text split on form feeds, one at a time: start with *pos
 * 0; each call that returns true gives the next page's byte range (*start,
 * *n).  An empty text is one empty page; a final form feed adds no empty
 * page. */
bool sw_extract_ff_page(const char *text, size_t len, size_t *pos, size_t *start,
			size_t *n);

/* ------------------------------------------------------ the format registry */

/* An OCR budget for one import: pages and seconds of OCR it may spend.
 * Every page about to be read by OCR takes one page from it first; once a
 * limit is reached no page is taken again and the rest are kept without
 * text (struct sw_xpage's over_budget).  Zero limits mean none.  Filled by
 * the caller (limits) and kept by the extractors (the rest); taken from
 * any thread. */
struct sw_ocr_budget {
	uint64_t max_pages;   /* 0: no page limit */
	double max_seconds;   /* 0: no time limit; counted from the first page */
	uint64_t used;        /* pages taken */
	uint64_t refused;     /* pages left without text because it was spent */
	double started;       /* sw_now() of the first page taken, 0 before */
	bool reached;         /* a limit was reached (by_time: the time limit) */
	bool by_time;
};

/* Take one page from b (NULL: no budget, always true).  False, and
 * b->refused counted, once a limit is reached. */
bool sw_ocr_budget_take(struct sw_ocr_budget *b);

/* Tesseract engines kept for a whole import: starting one (loading its
 * English data) takes most of a second, more than reading a small page, so
 * a volume of one-page documents would spend its time starting engines.
 * Each OCR thread takes an engine from the pool and gives it back; the
 * pool holds as many as were ever used at once.  Thread-safe. */
struct sw_ocr_pool;
struct sw_ocr_pool *sw_ocr_pool_new(void);
void sw_ocr_pool_free(struct sw_ocr_pool *pool); /* NULL is fine */

struct sw_extract_opts {
	bool ocr;             /* OCR PDF pages that have no text layer */
	bool progress;        /* an OCR progress line on a terminal */
	unsigned threads;     /* OCR threads; 0 = one per core */
	unsigned text_threads; /* readers of a long PDF's text (page walks, one
				* thread each, ahead of the caller); 0 = one per
				* core; one (or one core) = a walk on the caller's
				* thread, no read-ahead */
	unsigned text_chunk;  /* pages read per round, 1 to 64; 0 = 64 (a PDF of
				* more than two rounds is read by walks) */
	bool text_alone;      /* read a PDF's text on the caller's thread through
				* the document's catalog, as poppler-glib does,
				* no walk, no read-ahead (the reference the
				* others equal) */
	/* What one PDF page may draw before its text stops there (the page
	 * marked, the import warned): characters, content operators, forms
	 * drawn, milliseconds of its reading thread's CPU time; 0 = the
	 * defaults (a hundred thousand characters, ten million operators, ten
	 * thousand forms, thirty seconds: src/extract/pdf_walk.h).  Tests and
	 * fuzzers set less. */
	long pdf_page_chars, pdf_page_ops, pdf_page_forms, pdf_page_ms;
	struct sw_ocr_budget *budget; /* shared by an import; NULL: none */
	struct sw_ocr_pool *pool;     /* engines kept across documents; NULL:
				       * started and ended by each call */
	/* The mapping data lies in (sw_file_map), or NULL: a PDF's bytes read
	 * once before its pages (the object-table scan) are then dropped from
	 * memory behind the read, never held whole. */
	const struct sw_map *map;
};

/* ------------------------------------------------------- page images */

#define SW_IMAGE_MAX_PIXELS ((uint64_t)120000000) /* one page image, decoded */

/* One scanned page: page index (from 0) of an image file -- TIFF (one
 * page or many), JPEG, PNG, or another format leptonica reads. */
struct sw_image_page {
	const unsigned char *data; /* the file's bytes, borrowed */
	size_t len;
	size_t index;
	const char *name;          /* the file as written, for messages */
};

/* Read n page images by OCR (tesseract, the pages in parallel as
 * opts->threads says), appending n pages to out in order, each marked ocr
 * with its confidence.  A page the budget leaves unread (over_budget),
 * and every page without opts->ocr or without tesseract, is an empty page
 * marked image_only (OCR not run); one whose image cannot be decoded (no
 * such page in the file, an unknown format, over SW_IMAGE_MAX_PIXELS) is
 * an empty page only.  Each case has a warning in out naming the file
 * (except --no-ocr's).  What tesseract and the image libraries print is
 * captured: a decoding error's message becomes the page's warning, the
 * rest is dropped.
 * Returns 0; the failures are per page. */
int sw_extract_image_pages(struct sw_extract *out, const struct sw_image_page *pages,
			   size_t n, const struct sw_extract_opts *opts,
			   struct sw_err *err) SW_MUST_USE;

/* One format sworn reads.  A document format has an extract function: the
 * file's pages, metadata and (e-mail) attachments.  The load-file formats
 * have none: their driver reads them with sw_dat_parse and sw_opt_parse. */
struct sw_format {
	const char *name;              /* "text", "markdown", "pdf", "email",
					* "docx", "loadfile", "opt" */
	const char *const *extensions; /* lower case, NULL-terminated */
	const char *mime;              /* an e-mail attachment's type, or NULL */
	bool native;                   /* not read as text: its own extractor */
	/* Whether data starts as this format does; NULL: no magic. */
	bool (*sniff)(const char *data, size_t len);
	int (*extract)(struct sw_extract *out, const char *data, size_t len,
		       const struct sw_extract_opts *opts, struct sw_err *err);
};

/* The format whose extensions hold path's (case-insensitive), or NULL. */
const struct sw_format *sw_format_by_ext(const char *path);

/* The document format of an e-mail attachment: the first, in the order
 * PDF, .docx, e-mail, text, Markdown, whose extensions hold name's or
 * whose type is mime (may be NULL); NULL when none. */
const struct sw_format *sw_format_of_attachment(const char *name, const char *mime);

/* The format whose magic data starts with, or NULL. */
const struct sw_format *sw_format_sniff(const char *data, size_t len);

/* The format called name, or NULL. */
const struct sw_format *sw_format_by_name(const char *name);

/* The native formats (PDF, .docx, e-mail, Outlook) are read by code built
 * into sworn's module sworn-extract.so (base.h's sw_module_load), loaded
 * the first time one is read: a command that reads no native file starts
 * without poppler, cairo, GMime or libgsf.  A native extract function whose
 * module cannot be loaded fails with SW_ENOTFOUND or SW_EIO and says why.
 *
 * The versions of poppler and GMime that the module runs on, as loaded
 * (sworn version).  Loads the module; its errors when it cannot be. */
struct sw_extract_libs {
	char poppler[32];
	char gmime[32];
};
int sw_extract_libs(struct sw_extract_libs *out, struct sw_err *err) SW_MUST_USE;

/* ------------------------------------------------------- drafts as text */

/* The text of a draft file, for the claim scanner and the gate (which read
 * text only).  By extension, and by content when the extension says
 * nothing: .pdf gives the text layer of each page, pages joined by form
 * feeds (no OCR: a draft is written, not scanned, so pages without a text
 * layer give no text); .docx the paragraphs and tables in reading order,
 * with tracked changes and comments in a marked section at the end; .eml
 * the From/To/Cc/Date/Subject headers and the text body (attachments are
 * not read).  Anything else must be UTF-8 text and is returned as is.
 * Claim offsets into a .docx, PDF or e-mail draft therefore refer to this
 * extracted text, not to the file's bytes.
 *
 * Replaces out's contents.  Files over SW_EXTRACT_MAX_FILE_BYTES fail with
 * SW_ELIMIT; unreadable files with SW_EIO; a damaged, encrypted or
 * non-text file with SW_EINPUT; each with a one-line message that names
 * the file ("cannot read 'x.pdf': the PDF is encrypted"). */
int sw_extract_draft_text(struct sw_buf *out, const char *path,
			  struct sw_err *err) SW_MUST_USE;

/* The same for a draft already read: len bytes at data, read from path
 * (whose extension, and then the bytes, decide the format; it names the
 * file in messages).  *extracted is true when out holds the text extracted
 * from a native format; false when the bytes are UTF-8 text to be read as
 * they are, and out is left empty (the caller keeps data, with no copy).
 * Errors as sw_extract_draft_text's, but for reading the file. */
int sw_extract_draft_data(struct sw_buf *out, bool *extracted, const char *path,
			  const char *data, size_t len, struct sw_err *err) SW_MUST_USE;

#endif /* SW_EXTRACT_H */
