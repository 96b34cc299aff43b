/* docx.c - Word .docx files with libzip and expat: the text of
 * word/document.xml in reading order (paragraphs; tables row by row, cells
 * separated by tabs), a new page at each explicit page break, tracked
 * changes and comments listed in a marked section at the end.
 *
 * The text is the document as it reads with its tracked changes accepted:
 * insertions are in it, deletions are not; both are also noted, so nothing
 * a reviewer wrote is lost.  The XML is streamed, never held whole; a
 * DOCTYPE is refused (a .docx has none, and entities are an attack). */
#include <stdlib.h>
#include <string.h>

#include <expat.h>
#include <jansson.h>
#include <zip.h>

#include "extract/extract_int.h"

#define W_NS "http://schemas.openxmlformats.org/wordprocessingml/2006/main|"
#define CHUNK 65536
#define MAX_NOTE_BYTES 4096 /* of one tracked change or comment */

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

static void begin_note(struct docx *d, const char *what, const char **atts)
{
	d->notes = sw_xgrow(d->notes, &d->capnotes, d->nnotes + 1, sizeof(*d->notes));
	struct note *n = &d->notes[d->nnotes++];
	memset(n, 0, sizeof(*n));
	n->what = what;
	const char *a = attr(atts, "author");
	n->author = sw_xstrdup(a ? a : "unknown");
	d->cur = n;
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
		if (d->del++ == 0 && !d->ins) {
			begin_note(d, "deleted", atts);
			d->deletions++;
		}
	} else if (!strcmp(n, "ins")) {
		if (d->ins++ == 0 && !d->del) {
			begin_note(d, "inserted", atts);
			d->insertions++;
		}
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
		if (--d->del == 0 && !d->ins)
			d->cur = NULL;
	} else if (!strcmp(n, "ins")) {
		if (--d->ins == 0 && !d->del)
			d->cur = NULL;
	}
}

static void XMLCALL on_text(void *user, const char *s, int len)
{
	struct docx *d = user;
	if (!d->in_text || len <= 0)
		return;
	if (d->cur && d->cur->text.len + (size_t)len <= MAX_NOTE_BYTES)
		sw_buf_add(&d->cur->text, s, (size_t)len);
	if (!d->del)
		sw_buf_add(&d->x->text, s, (size_t)len);
}

/* Comments (word/comments.xml): each w:comment's text is one note. */
static void XMLCALL on_comment_start(void *user, const char *name, const char **atts)
{
	struct docx *d = user;
	const char *n = wname(name);
	if (!n)
		return;
	if (!strcmp(n, "comment")) {
		begin_note(d, "comment", atts);
		d->comments++;
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
		d->cur = NULL;
	else if (!strcmp(n, "t"))
		d->in_text--;
	else if (!strcmp(n, "p") && d->cur && d->cur->text.len < MAX_NOTE_BYTES)
		sw_buf_addc(&d->cur->text, ' ');
}

static void XMLCALL on_comment_text(void *user, const char *s, int len)
{
	struct docx *d = user;
	if (d->in_text && d->cur && len > 0 && d->cur->text.len + (size_t)len <= MAX_NOTE_BYTES)
		sw_buf_add(&d->cur->text, s, (size_t)len);
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

/* Stream one part of the archive through a fresh namespace parser. */
static int parse_part(struct docx *d, zip_t *za, zip_int64_t index, const char *part,
		      XML_StartElementHandler start, XML_EndElementHandler end,
		      XML_CharacterDataHandler chars, struct sw_err *err)
{
	zip_file_t *zf = NULL;
	char *buf = NULL;
	size_t total = 0;
	int rc = 0;

	d->parser = XML_ParserCreateNS(NULL, '|');
	if (!d->parser)
		SW_BUG("expat cannot allocate a parser");
	XML_SetUserData(d->parser, d);
	XML_SetElementHandler(d->parser, start, end);
	XML_SetCharacterDataHandler(d->parser, chars);
	XML_SetStartDoctypeDeclHandler(d->parser, on_doctype);
	d->in_text = 0;
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
		if (XML_Parse(d->parser, buf, (int)n, n == 0) == XML_STATUS_ERROR) {
			if (d->refused)
				rc = sw_err_set(err, SW_EINPUT, "%s has a DOCTYPE, which a .docx never has",
						part);
			else
				rc = sw_err_set(err, SW_EINPUT, "%s is not well-formed XML: %s at line %lu",
						part, XML_ErrorString(XML_GetErrorCode(d->parser)),
						(unsigned long)XML_GetCurrentLineNumber(d->parser));
			goto cleanup;
		}
		if (n == 0)
			break;
	}
cleanup:
	free(buf);
	if (zf)
		zip_fclose(zf);
	XML_ParserFree(d->parser);
	d->parser = NULL;
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
	if (d->nnotes)
		json_object_set_new(x->meta, "revisions", arr);
	else
		json_decref(arr);
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
	if ((rc = parse_part(&d, za, doc, "word/document.xml", on_start, on_end, on_text, err)) != 0)
		goto cleanup;
	sw_extract_page(x);
	zip_int64_t com = zip_name_locate(za, "word/comments.xml", 0);
	if (com >= 0) {
		d.cur = NULL;
		struct sw_err cerr = { 0 };
		if (parse_part(&d, za, com, "word/comments.xml", on_comment_start, on_comment_end,
			       on_comment_text, &cerr) != 0)
			sw__extract_warn(x, "comments not read: %s", cerr.msg);
	}
	zip_int64_t core = zip_name_locate(za, "docProps/core.xml", 0);
	if (core >= 0) {
		struct sw_err cerr = { 0 };
		if (parse_part(&d, za, core, "docProps/core.xml", on_core_start, on_core_end,
			       on_core_text, &cerr) != 0)
			sw__extract_warn(x, "document properties not read: %s", cerr.msg);
	}
	if (d.nnotes) {
		/* The notes extend the last page. */
		add_notes(&d);
		x->pages[x->npages - 1].len = x->text.len - x->pages[x->npages - 1].start;
	}
	json_object_set_new(x->meta, "tracked_insertions", json_integer((json_int_t)d.insertions));
	json_object_set_new(x->meta, "tracked_deletions", json_integer((json_int_t)d.deletions));
	json_object_set_new(x->meta, "comments", json_integer((json_int_t)d.comments));
	if (d.insertions || d.deletions || d.comments)
		sw__extract_warn(x, "has %zu tracked insertion(s), %zu deletion(s) and %zu comment(s):"
				 " the text reads with changes accepted; all are listed at its end",
				 d.insertions, d.deletions, d.comments);
cleanup:
	if (za)
		zip_discard(za);
	for (size_t i = 0; i < d.nnotes; i++) {
		free(d.notes[i].author);
		sw_buf_release(&d.notes[i].text);
	}
	free(d.notes);
	sw_buf_release(&d.meta_val);
	return rc;
}
