/* docx.c - Word .docx files with libzip and expat: the text of
 * word/document.xml in reading order (paragraphs; tables row by row, cells
 * separated by tabs), a new page at each explicit page break, tracked
 * changes and comments listed in a marked section at the end.
 *
 * The text is the document as it reads with its tracked changes accepted:
 * insertions are in it, deletions are not; both are also noted, so nothing
 * a reviewer wrote is lost.  The XML is streamed, never held whole; a
 * DOCTYPE is refused (a .docx has none, and entities are an attack).
 *
 * A change or comment becomes a note only once it has text (an empty
 * w:ins, of which a hostile file can hold millions, changes nothing and is
 * not listed), and the list is bounded in count and bytes: past either
 * limit the changes are counted and said to be "not listed", so a small
 * file cannot grow into a huge text or metadata row. */
#include <stdlib.h>
#include <string.h>

#include <expat.h>
#include <jansson.h>
#include <zip.h>

#include "extract/extract_int.h"

#define W_NS "http://schemas.openxmlformats.org/wordprocessingml/2006/main|"
#define CHUNK 65536
#define MAX_NOTE_BYTES 4096 /* of one tracked change or comment */
#define MAX_AUTHOR_BYTES 200
#define MAX_NOTES 1000                   /* listed, of all kinds together */
#define MAX_NOTES_BYTES ((size_t)256 << 10) /* of all listed notes' text */

struct note {
	const char *what; /* "inserted", "deleted", "comment" */
	char *author;
	struct sw_buf text;
};

struct docx {
	struct sw_extract *x;
	XML_Parser parser;
	bool refused;          /* a DOCTYPE: parsing was stopped */
	int in_text;           /* inside w:t or w:delText */
	int del, ins;          /* nesting of w:del and w:ins */
	int cell;              /* nesting of w:tc */
	struct note *notes;
	size_t nnotes, capnotes;
	struct note *cur;      /* the tracked change or comment being read */
	/* The change or comment begun but not yet noted (it has no text yet):
	 * what it is, and its author, bounded. */
	const char *pend_what;
	char pend_author[MAX_AUTHOR_BYTES + 1];
	bool pend_over;        /* the pending one was counted as not listed */
	size_t notes_bytes;    /* text of all listed notes */
	size_t unlisted;       /* changes and comments with text past the limits */
	size_t insertions, deletions, comments;
	/* docProps/core.xml */
	json_t *meta;
	const char *meta_key;
	struct sw_buf meta_val;
};

static const char *wname(const char *name)
{
	return strncmp(name, W_NS, sizeof(W_NS) - 1) == 0 ? name + sizeof(W_NS) - 1 : NULL;
}

static const char *attr(const char **atts, const char *local)
{
	for (size_t i = 0; atts[i]; i += 2) {
		const char *n = wname(atts[i]);
		if (n && strcmp(n, local) == 0)
			return atts[i + 1];
	}
	return NULL;
}

/* A change or comment starts: remembered, not yet a note. */
static void begin_note(struct docx *d, const char *what, const char **atts)
{
	const char *a = attr(atts, "author");
	if (!a || !*a)
		a = "unknown";
	size_t n = sw_utf8_cut(a, strnlen(a, MAX_AUTHOR_BYTES + 1), MAX_AUTHOR_BYTES);
	memcpy(d->pend_author, a, n);
	d->pend_author[n] = '\0';
	d->pend_what = what;
	d->pend_over = false;
	d->cur = NULL;
}

static void end_note(struct docx *d)
{
	d->cur = NULL;
	d->pend_what = NULL;
}

/* Text of the pending change or comment arrived: the first makes it a note
 * (and counts it), unless the list is full. */
static void note_text(struct docx *d, const char *s, size_t len)
{
	if (!d->cur && d->pend_what && !d->pend_over) {
		const char *what = d->pend_what;
		if (what[0] == 'i')
			d->insertions++;
		else if (what[0] == 'd')
			d->deletions++;
		else
			d->comments++;
		if (d->nnotes >= MAX_NOTES || d->notes_bytes >= MAX_NOTES_BYTES) {
			d->unlisted++;
			d->pend_over = true;
			return;
		}
		d->notes = sw_xgrow(d->notes, &d->capnotes, d->nnotes + 1, sizeof(*d->notes));
		struct note *n = &d->notes[d->nnotes++];
		memset(n, 0, sizeof(*n));
		n->what = what;
		n->author = sw_xstrdup(d->pend_author);
		d->cur = n;
	}
	if (!d->cur || d->cur->text.len + len > MAX_NOTE_BYTES ||
	    d->notes_bytes + len > MAX_NOTES_BYTES)
		return;
	sw_buf_add(&d->cur->text, s, len);
	d->notes_bytes += len;
}

static void trim_end(struct sw_buf *b)
{
	while (b->len && (b->data[b->len - 1] == '\t' || b->data[b->len - 1] == ' '))
		b->len--;
	if (b->data)
		b->data[b->len] = '\0';
}

static void XMLCALL on_start(void *user, const char *name, const char **atts)
{
	struct docx *d = user;
	const char *n = wname(name);
	if (!n)
		return;
	struct sw_buf *t = &d->x->text;
	if (!strcmp(n, "t") || !strcmp(n, "delText")) {
		d->in_text++;
	} else if (!strcmp(n, "tab")) {
		if (!d->del)
			sw_buf_addc(t, '\t');
	} else if (!strcmp(n, "br") || !strcmp(n, "cr")) {
		const char *type = attr(atts, "type");
		if (d->del)
			return;
		if (type && !strcmp(type, "page"))
			sw_extract_page(d->x);
		else
			sw_buf_addc(t, '\n');
	} else if (!strcmp(n, "del")) {
		if (d->del++ == 0 && !d->ins)
			begin_note(d, "deleted", atts);
	} else if (!strcmp(n, "ins")) {
		if (d->ins++ == 0 && !d->del)
			begin_note(d, "inserted", atts);
	} else if (!strcmp(n, "tc")) {
		d->cell++;
	}
}

static void XMLCALL on_end(void *user, const char *name)
{
	struct docx *d = user;
	const char *n = wname(name);
	if (!n)
		return;
	struct sw_buf *t = &d->x->text;
	if (!strcmp(n, "t") || !strcmp(n, "delText")) {
		d->in_text--;
	} else if (!strcmp(n, "p")) {
		if (d->cell)
			sw_buf_addc(t, ' ');
		else
			sw_buf_addc(t, '\n');
	} else if (!strcmp(n, "tc")) {
		d->cell--;
		trim_end(t);
		sw_buf_addc(t, '\t');
	} else if (!strcmp(n, "tr")) {
		trim_end(t);
		sw_buf_addc(t, '\n');
	} else if (!strcmp(n, "del")) {
		if (d->del > 0 && --d->del == 0 && !d->ins)
			end_note(d);
	} else if (!strcmp(n, "ins")) {
		if (d->ins > 0 && --d->ins == 0 && !d->del)
			end_note(d);
	}
}

static void XMLCALL on_text(void *user, const char *s, int len)
{
	struct docx *d = user;
	if (!d->in_text || len <= 0)
		return;
	if (d->del || d->ins)
		note_text(d, s, (size_t)len);
	if (!d->del)
		sw_buf_add(&d->x->text, s, (size_t)len);
}

/* Comments (word/comments.xml): each w:comment's text is one note, but
 * those sworn verify --annotate wrote (author "sworn", initials "sw"):
 * they are sworn's verdicts, not the document's, and read as text they
 * would be claims of their own when the annotated draft is checked again. */
static void XMLCALL on_comment_start(void *user, const char *name, const char **atts)
{
	struct docx *d = user;
	const char *n = wname(name);
	if (!n)
		return;
	if (!strcmp(n, "comment")) {
		const char *author = attr(atts, "author"), *initials = attr(atts, "initials");
		if (author && initials && !strcmp(author, "sworn") && !strcmp(initials, "sw")) {
			end_note(d);
			d->pend_over = true; /* its text is not noted */
			d->pend_what = "comment";
			return;
		}
		begin_note(d, "comment", atts);
	} else if (!strcmp(n, "t")) {
		d->in_text++;
	}
}

static void XMLCALL on_comment_end(void *user, const char *name)
{
	struct docx *d = user;
	const char *n = wname(name);
	if (!n)
		return;
	if (!strcmp(n, "comment"))
		end_note(d);
	else if (!strcmp(n, "t"))
		d->in_text--;
	else if (!strcmp(n, "p") && d->cur)
		note_text(d, " ", 1);
}

static void XMLCALL on_comment_text(void *user, const char *s, int len)
{
	struct docx *d = user;
	if (d->in_text && len > 0)
		note_text(d, s, (size_t)len);
}

/* docProps/core.xml: Dublin Core title, creator, dates. */
static const char *const core_keys[][2] = {
	{ "http://purl.org/dc/elements/1.1/|title", "title" },
	{ "http://purl.org/dc/elements/1.1/|subject", "subject" },
	{ "http://purl.org/dc/elements/1.1/|creator", "author" },
	{ "http://schemas.openxmlformats.org/package/2006/metadata/core-properties|lastModifiedBy",
	  "last_modified_by" },
	{ "http://purl.org/dc/terms/|created", "created" },
	{ "http://purl.org/dc/terms/|modified", "modified" },
};

static void XMLCALL on_core_start(void *user, const char *name, const char **atts)
{
	struct docx *d = user;
	(void)atts;
	d->meta_key = NULL;
	for (size_t i = 0; i < SW_ARRAY_LEN(core_keys); i++)
		if (!strcmp(name, core_keys[i][0]))
			d->meta_key = core_keys[i][1];
	sw_buf_reset(&d->meta_val);
}

static void XMLCALL on_core_end(void *user, const char *name)
{
	struct docx *d = user;
	(void)name;
	if (d->meta_key && d->meta_val.len)
		json_object_set_new(d->meta, d->meta_key, sw_json_strn(d->meta_val.data,
								       d->meta_val.len));
	d->meta_key = NULL;
}

static void XMLCALL on_core_text(void *user, const char *s, int len)
{
	struct docx *d = user;
	if (d->meta_key && len > 0 && d->meta_val.len + (size_t)len <= MAX_NOTE_BYTES)
		sw_buf_add(&d->meta_val, s, (size_t)len);
}

static void XMLCALL on_doctype(void *user, const XML_Char *name, const XML_Char *sysid,
			       const XML_Char *pubid, int has_internal_subset)
{
	struct docx *d = user;
	(void)name;
	(void)sysid;
	(void)pubid;
	(void)has_internal_subset;
	d->refused = true;
	XML_StopParser(d->parser, XML_FALSE);
}

/* The handlers of one part. */
struct part_reader {
	XML_StartElementHandler start;
	XML_EndElementHandler end;
	XML_CharacterDataHandler chars;
};

static const struct part_reader document_reader = { on_start, on_end, on_text };
static const struct part_reader comments_reader = { on_comment_start, on_comment_end,
						    on_comment_text };
static const struct part_reader core_reader = { on_core_start, on_core_end, on_core_text };

/* A fresh namespace parser for one part. */
static void xml_begin(struct docx *d, const struct part_reader *r)
{
	d->parser = XML_ParserCreateNS(NULL, '|');
	if (!d->parser)
		SW_BUG("expat cannot allocate a parser");
	XML_SetUserData(d->parser, d);
	XML_SetElementHandler(d->parser, r->start, r->end);
	XML_SetCharacterDataHandler(d->parser, r->chars);
	XML_SetStartDoctypeDeclHandler(d->parser, on_doctype);
	d->in_text = 0;
	d->cur = NULL;
	d->pend_what = NULL;
}

/* n more bytes of the part (the last call has final set). */
static int xml_feed(struct docx *d, const char *part, const char *buf, size_t n, bool final,
		    struct sw_err *err)
{
	if (XML_Parse(d->parser, buf, (int)n, final) != XML_STATUS_ERROR)
		return 0;
	if (d->refused)
		return sw_err_set(err, SW_EINPUT, "%s has a DOCTYPE, which a .docx never has", part);
	return sw_err_set(err, SW_EINPUT, "%s is not well-formed XML: %s at line %lu", part,
			  XML_ErrorString(XML_GetErrorCode(d->parser)),
			  (unsigned long)XML_GetCurrentLineNumber(d->parser));
}

static void xml_end(struct docx *d)
{
	XML_ParserFree(d->parser);
	d->parser = NULL;
	d->cur = NULL;
	d->pend_what = NULL;
}

/* Stream one part of the archive through a fresh namespace parser. */
static int parse_part(struct docx *d, zip_t *za, zip_int64_t index, const char *part,
		      const struct part_reader *r, struct sw_err *err)
{
	zip_file_t *zf = NULL;
	char *buf = NULL;
	size_t total = 0;
	int rc = 0;

	xml_begin(d, r);
	zf = zip_fopen_index(za, (zip_uint64_t)index, 0);
	if (!zf) {
		rc = sw_err_set(err, SW_EINPUT, "cannot read %s: %s", part,
				zip_strerror(za));
		goto cleanup;
	}
	buf = sw_xmalloc(CHUNK);
	for (;;) {
		zip_int64_t n = zip_fread(zf, buf, CHUNK);
		if (n < 0) {
			rc = sw_err_set(err, SW_EINPUT, "cannot read %s: %s", part,
					zip_file_strerror(zf));
			goto cleanup;
		}
		total += (size_t)n;
		if (total > SW_DOCX_MAX_XML_BYTES) {
			rc = sw_err_set(err, SW_ELIMIT, "%s is over %zu bytes uncompressed", part,
					SW_DOCX_MAX_XML_BYTES);
			goto cleanup;
		}
		if ((rc = xml_feed(d, part, buf, (size_t)n, n == 0, err)) != 0)
			goto cleanup;
		if (n == 0)
			break;
	}
cleanup:
	free(buf);
	if (zf)
		zip_fclose(zf);
	xml_end(d);
	return rc;
}

/* A part held in memory (the fuzz target's way in), fed in pieces as the
 * archive's are. */
static int parse_buffer(struct docx *d, const char *part, const struct part_reader *r,
			const char *data, size_t len, struct sw_err *err)
{
	int rc = 0;
	xml_begin(d, r);
	for (size_t off = 0;;) {
		size_t n = len - off < CHUNK ? len - off : CHUNK;
		if ((rc = xml_feed(d, part, data + off, n, n == 0, err)) != 0 || n == 0)
			break;
		off += n;
	}
	xml_end(d);
	return rc;
}

static void add_notes(struct docx *d)
{
	struct sw_extract *x = d->x;
	json_t *arr = json_array();
	bool heading = false;
	for (size_t i = 0; i < d->nnotes; i++) {
		struct note *n = &d->notes[i];
		json_array_append_new(arr, json_pack("{s:s, s:o, s:o}", "type", n->what,
						     "author", sw_json_str(n->author),
						     "text", sw_json_strn(n->text.data ? n->text.data : "",
									  n->text.len)));
		if (!heading) {
			if (x->text.len && x->text.data[x->text.len - 1] != '\n')
				sw_buf_addc(&x->text, '\n');
			sw_buf_adds(&x->text, "\n[Tracked changes and comments]\n");
			heading = true;
		}
		sw_buf_addf(&x->text, "%s%s by %s: \"", n->what[0] == 'c' ? "" : "text ",
			    n->what, n->author);
		sw_buf_add(&x->text, n->text.data ? n->text.data : "", n->text.len);
		sw_buf_adds(&x->text, "\"\n");
	}
	if (d->unlisted)
		sw_buf_addf(&x->text, "%zu more tracked change(s) and comment(s) not listed\n",
			    d->unlisted);
	if (d->nnotes)
		json_object_set_new(x->meta, "revisions", arr);
	else
		json_decref(arr);
	if (d->unlisted)
		json_object_set_new(x->meta, "revisions_not_listed",
				    json_integer((json_int_t)d->unlisted));
}

/* After the parts: the notes, the counts and the warning. */
static void finish(struct docx *d)
{
	struct sw_extract *x = d->x;
	if (d->nnotes) {
		/* The notes extend the last page. */
		add_notes(d);
		x->pages[x->npages - 1].len = x->text.len - x->pages[x->npages - 1].start;
	}
	json_object_set_new(x->meta, "tracked_insertions", json_integer((json_int_t)d->insertions));
	json_object_set_new(x->meta, "tracked_deletions", json_integer((json_int_t)d->deletions));
	json_object_set_new(x->meta, "comments", json_integer((json_int_t)d->comments));
	if (d->insertions || d->deletions || d->comments)
		sw__extract_warn(x, "has %zu tracked insertion(s), %zu deletion(s) and %zu comment(s):"
				 " the text reads with changes accepted; %s",
				 d->insertions, d->deletions, d->comments,
				 d->unlisted ? "the first are listed at its end" :
					       "all are listed at its end");
}

static void release(struct docx *d)
{
	for (size_t i = 0; i < d->nnotes; i++) {
		free(d->notes[i].author);
		sw_buf_release(&d->notes[i].text);
	}
	free(d->notes);
	sw_buf_release(&d->meta_val);
}

int sw__extract_docx_xml(struct sw_extract *x, const char *document, size_t doclen,
			 const char *comments, size_t comlen, struct sw_err *err)
{
	struct docx d = { .x = x, .meta = x->meta };
	int rc = parse_buffer(&d, "word/document.xml", &document_reader, document, doclen, err);
	if (rc == 0) {
		sw_extract_page(x);
		struct sw_err cerr = { 0 };
		if (comments && parse_buffer(&d, "word/comments.xml", &comments_reader, comments,
					     comlen, &cerr) != 0)
			sw__extract_warn(x, "comments not read: %s", cerr.msg);
		finish(&d);
	}
	release(&d);
	return rc;
}

int sw__extract_docx(struct sw_extract *x, const char *data, size_t len,
		     const struct sw_extract_opts *opts, struct sw_err *err)
{
	(void)opts;
	struct docx d = { .x = x, .meta = x->meta };
	zip_error_t zerr;
	zip_source_t *src = NULL;
	zip_t *za = NULL;
	int rc = 0;

	zip_error_init(&zerr);
	src = zip_source_buffer_create(data, len, 0, &zerr);
	if (!src) {
		rc = sw_err_set(err, SW_EINPUT, "cannot read the .docx: %s", zip_error_strerror(&zerr));
		goto cleanup;
	}
	za = zip_open_from_source(src, ZIP_RDONLY, &zerr);
	if (!za) {
		zip_source_free(src);
		rc = sw_err_set(err, SW_EINPUT, "not a .docx: %s", zip_error_strerror(&zerr));
		goto cleanup;
	}
	zip_int64_t doc = zip_name_locate(za, "word/document.xml", 0);
	if (doc < 0) {
		rc = sw_err_set(err, SW_EINPUT,
				"not a Word document: the archive has no word/document.xml");
		goto cleanup;
	}
	if ((rc = parse_part(&d, za, doc, "word/document.xml", &document_reader, err)) != 0)
		goto cleanup;
	sw_extract_page(x);
	zip_int64_t com = zip_name_locate(za, "word/comments.xml", 0);
	if (com >= 0) {
		struct sw_err cerr = { 0 };
		if (parse_part(&d, za, com, "word/comments.xml", &comments_reader, &cerr) != 0)
			sw__extract_warn(x, "comments not read: %s", cerr.msg);
	}
	zip_int64_t core = zip_name_locate(za, "docProps/core.xml", 0);
	if (core >= 0) {
		struct sw_err cerr = { 0 };
		if (parse_part(&d, za, core, "docProps/core.xml", &core_reader, &cerr) != 0)
			sw__extract_warn(x, "document properties not read: %s", cerr.msg);
	}
	finish(&d);
cleanup:
	if (za)
		zip_discard(za);
	release(&d);
	return rc;
}
