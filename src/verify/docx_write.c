/* docx_write.c - the module sworn-verify.so: a .docx with Word comments on
 * the claims that did not pass (docx_int.h).
 *
 * Annotating copies the archive entry by entry, each as it was stored (no
 * recompression, the order kept), and replaces only the parts a comment
 * needs: word/document.xml (docx_splice.c), word/comments.xml (the
 * document's own comments kept, sworn's after them, numbered above every
 * id the document uses), and, when they lack them, the content type of
 * the comments part and the document's relationship to it.  The comments
 * of an earlier annotation (sworn's) are taken out first, so that checking
 * a reviewed document again replaces them.  Creating
 * writes the five parts a word processor needs for a text with comments.
 * Every part read is bounded (SW__DOCX_MAX_PART) before it is read. */
#include <stdlib.h>
#include <string.h>

#include <zip.h>

#include "verify/docx_int.h"

#define NS_W "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
#define NS_REL "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
#define CT_COMMENTS "application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"
#define REL_COMMENTS NS_REL "/comments"
#define XML_DECL "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"

/* The w:comment elements of the notes that have an id. */
static void comments_body(struct sw_buf *out, const struct sw__docx_job *job, const long *ids)
{
	for (size_t i = 0; i < job->nnotes; i++) {
		if (ids[i] < 0)
			continue;
		sw_buf_addf(out, "<w:comment w:id=\"%ld\" w:author=\"", ids[i]);
		sw__docx_esc(out, job->author, strlen(job->author));
		sw_buf_adds(out, "\" w:initials=\"sw\"");
		if (job->date) {
			sw_buf_adds(out, " w:date=\"");
			sw__docx_esc(out, job->date, strlen(job->date));
			sw_buf_adds(out, "\"");
		}
		sw_buf_adds(out, ">");
		const char *s = job->notes[i].text;
		bool first = true;
		for (;;) {
			const char *nl = strchr(s, '\n');
			size_t n = nl ? (size_t)(nl - s) : strlen(s);
			sw_buf_adds(out, "<w:p>");
			if (first)
				sw_buf_adds(out, "<w:r><w:annotationRef/></w:r>");
			sw_buf_adds(out, "<w:r><w:t xml:space=\"preserve\">");
			sw__docx_esc(out, s, n);
			sw_buf_adds(out, "</w:t></w:r></w:p>");
			first = false;
			if (!nl)
				break;
			s = nl + 1;
		}
		sw_buf_adds(out, "</w:comment>");
	}
}

/* xml with text inserted before its root's end tag (the last "</"). */
static int insert_before_end(struct sw_buf *out, const char *part, const char *xml, size_t len,
			     const char *text, size_t tlen, struct sw_err *err)
{
	size_t at = len;
	while (at >= 2 && !(xml[at - 2] == '<' && xml[at - 1] == '/'))
		at--;
	if (at < 2)
		return sw_err_set(err, SW_EINPUT, "%s has no end tag: the .docx is damaged", part);
	sw_buf_add(out, xml, at - 2);
	sw_buf_add(out, text, tlen);
	sw_buf_add(out, xml + at - 2, len - (at - 2));
	return 0;
}

/* The whole of the entry named name, bounded; *found false when the archive
 * has none. */
static int read_entry(struct sw_buf *out, bool *found, zip_t *za, const char *name,
		      struct sw_err *err)
{
	zip_stat_t st;
	zip_file_t *zf = NULL;
	int rc = 0;
	*found = false;
	zip_int64_t i = zip_name_locate(za, name, 0);
	if (i < 0)
		return 0;
	zip_stat_init(&st);
	if (zip_stat_index(za, (zip_uint64_t)i, 0, &st) != 0 || !(st.valid & ZIP_STAT_SIZE))
		return sw_err_set(err, SW_EINPUT, "cannot read %s: %s", name, zip_strerror(za));
	if (st.size > SW__DOCX_MAX_PART)
		return sw_err_set(err, SW_ELIMIT, "%s is over %zu bytes uncompressed", name,
				  SW__DOCX_MAX_PART);
	if (!(zf = zip_fopen_index(za, (zip_uint64_t)i, 0)))
		return sw_err_set(err, SW_EINPUT, "cannot read %s: %s", name, zip_strerror(za));
	sw_buf_grow(out, (size_t)st.size);
	zip_int64_t n = zip_fread(zf, out->data, st.size);
	if (n < 0 || (zip_uint64_t)n != st.size) {
		rc = sw_err_set(err, SW_EINPUT, "cannot read %s: %s", name, zip_file_strerror(zf));
		goto cleanup;
	}
	out->len = (size_t)n;
	out->data[out->len] = '\0';
	*found = true;
cleanup:
	zip_fclose(zf);
	return rc;
}

/* A new part (or a replaced one) of za: the bytes stay b's until
 * zip_close, which reads them. */
static int put(zip_t *za, const char *name, const struct sw_buf *b, struct sw_err *err)
{
	zip_source_t *s = zip_source_buffer(za, b->data, b->len, 0);
	if (!s || zip_file_add(za, name, s, ZIP_FL_OVERWRITE | ZIP_FL_ENC_UTF_8) < 0) {
		if (s)
			zip_source_free(s);
		return sw_err_set(err, SW_EIO, "cannot write %s: %s", name, zip_strerror(za));
	}
	return 0;
}

/* An archive written into memory: open it, fill it, then finish(). */
struct mem_zip {
	zip_source_t *src;
	zip_t *za;
};

static int mem_open(struct mem_zip *m, struct sw_err *err)
{
	zip_error_t ze;
	zip_error_init(&ze);
	m->src = zip_source_buffer_create(NULL, 0, 0, &ze);
	if (m->src && !(m->za = zip_open_from_source(m->src, ZIP_TRUNCATE, &ze))) {
		zip_source_free(m->src);
		m->src = NULL;
	}
	int rc = m->za ? 0 : sw_err_set(err, SW_EIO, "cannot make a .docx: %s",
					 zip_error_strerror(&ze));
	zip_error_fini(&ze);
	return rc;
}

/* Close the archive and copy its bytes to out. */
static int mem_finish(struct mem_zip *m, struct sw_buf *out, struct sw_err *err)
{
	zip_stat_t st;
	int rc = 0;
	zip_source_keep(m->src);
	if (zip_close(m->za) != 0) {
		rc = sw_err_set(err, SW_EIO, "cannot write the .docx: %s", zip_strerror(m->za));
		zip_discard(m->za);
		m->za = NULL;
		goto cleanup;
	}
	m->za = NULL;
	zip_stat_init(&st);
	if (zip_source_stat(m->src, &st) != 0 || zip_source_open(m->src) != 0) {
		rc = sw_err_set(err, SW_EIO, "cannot write the .docx: its bytes cannot be read");
		goto cleanup;
	}
	sw_buf_grow(out, (size_t)st.size);
	zip_int64_t n = zip_source_read(m->src, out->data + out->len, st.size);
	zip_source_close(m->src);
	if (n < 0 || (zip_uint64_t)n != st.size) {
		rc = sw_err_set(err, SW_EIO, "cannot write the .docx: its bytes cannot be read");
		goto cleanup;
	}
	out->len += (size_t)n;
	out->data[out->len] = '\0';
cleanup:
	zip_source_free(m->src);
	m->src = NULL;
	return rc;
}

static void mem_abandon(struct mem_zip *m)
{
	if (m->za)
		zip_discard(m->za); /* frees its source */
	else if (m->src)
		zip_source_free(m->src);
	m->za = NULL;
	m->src = NULL;
}

static const char *const replaced[] = { "word/document.xml", "word/comments.xml",
					"[Content_Types].xml", "word/_rels/document.xml.rels" };

static bool is_replaced(const char *name)
{
	for (size_t i = 0; i < SW_ARRAY_LEN(replaced); i++)
		if (!strcmp(name, replaced[i]))
			return true;
	return false;
}

/* The parts the annotated document replaces, in replaced[]'s order. */
struct parts {
	struct sw_buf v[4];
};

static int build_parts(struct parts *np, long *ids, zip_t *in, const struct sw__docx_job *job,
		       struct sw_err *err)
{
	struct sw_buf doc = SW_BUF_INIT, com = SW_BUF_INIT, ct = SW_BUF_INIT, rels = SW_BUF_INIT;
	struct sw_buf body = SW_BUF_INIT, kept = SW_BUF_INIT;
	bool have_doc, have_com, have_ct, have_rels;
	long *drop = NULL;
	size_t ndrop = 0;
	int rc;

	if ((rc = read_entry(&doc, &have_doc, in, "word/document.xml", err)) != 0 ||
	    (rc = read_entry(&com, &have_com, in, "word/comments.xml", err)) != 0 ||
	    (rc = read_entry(&ct, &have_ct, in, "[Content_Types].xml", err)) != 0 ||
	    (rc = read_entry(&rels, &have_rels, in, "word/_rels/document.xml.rels", err)) != 0)
		goto cleanup;
	if (!have_doc || !have_ct) {
		rc = sw_err_set(err, SW_EINPUT, "not a Word document: the archive has no %s",
				have_doc ? "[Content_Types].xml" : "word/document.xml");
		goto cleanup;
	}
	/* The comments of an earlier annotation go: these replace them. */
	if (have_com && (rc = sw__docx_drop_comments(&kept, &drop, &ndrop, com.data, com.len,
						     err)) != 0)
		goto cleanup;
	long first = have_com ? sw__docx_max_comment_id(com.data, com.len) + 1 : 0;
	if ((rc = sw__docx_splice(&np->v[0], ids, doc.data, doc.len, job, first, drop, ndrop,
				  err)) != 0)
		goto cleanup;
	comments_body(&body, job, ids);
	if (have_com) {
		if ((rc = insert_before_end(&np->v[1], "word/comments.xml", kept.data, kept.len,
					    body.data, body.len, err)) != 0)
			goto cleanup;
	} else {
		sw_buf_addf(&np->v[1], XML_DECL "<w:comments xmlns:w=\"%s\">%s</w:comments>", NS_W,
			    body.data);
	}
	if (strstr(ct.data, "/word/comments.xml")) {
		sw_buf_add(&np->v[2], ct.data, ct.len);
	} else {
		static const char over[] = "<Override PartName=\"/word/comments.xml\" "
					   "ContentType=\"" CT_COMMENTS "\"/>";
		if ((rc = insert_before_end(&np->v[2], "[Content_Types].xml", ct.data, ct.len,
					    over, sizeof(over) - 1, err)) != 0)
			goto cleanup;
	}
	if (have_rels &&
	    (strstr(rels.data, REL_COMMENTS "\"") || strstr(rels.data, REL_COMMENTS "'"))) {
		sw_buf_add(&np->v[3], rels.data, rels.len);
	} else {
		char id[32];
		for (unsigned n = 1;; n++) {
			char quoted[40];
			snprintf(id, sizeof(id), "rIdSworn%u", n);
			snprintf(quoted, sizeof(quoted), "\"%s\"", id);
			if (!have_rels || !strstr(rels.data, quoted))
				break;
		}
		struct sw_buf rel = SW_BUF_INIT;
		sw_buf_addf(&rel, "<Relationship Id=\"%s\" Type=\"" REL_COMMENTS
			    "\" Target=\"comments.xml\"/>", id);
		if (have_rels)
			rc = insert_before_end(&np->v[3], "word/_rels/document.xml.rels", rels.data,
					       rels.len, rel.data, rel.len, err);
		else
			sw_buf_addf(&np->v[3],
				    XML_DECL "<Relationships xmlns=\"http://schemas."
					     "openxmlformats.org/package/2006/relationships\">%s</"
					     "Relationships>",
				    rel.data);
		sw_buf_release(&rel);
	}
cleanup:
	sw_buf_release(&doc);
	sw_buf_release(&com);
	sw_buf_release(&ct);
	sw_buf_release(&rels);
	sw_buf_release(&body);
	sw_buf_release(&kept);
	free(drop);
	return rc;
}

static int annotate(struct sw_buf *out, size_t *anchored, const char *docx, size_t len,
		    const struct sw__docx_job *job, struct sw_err *err)
{
	struct parts np;
	struct mem_zip m = { 0 };
	zip_source_t *src = NULL;
	zip_t *in = NULL;
	zip_error_t ze;
	long *ids = sw_xmalloc((job->nnotes + 1) * sizeof(*ids));
	int rc = 0;

	for (size_t i = 0; i < SW_ARRAY_LEN(np.v); i++)
		sw_buf_init(&np.v[i]);
	*anchored = 0;
	zip_error_init(&ze);
	if (!(src = zip_source_buffer_create(docx, len, 0, &ze)) ||
	    !(in = zip_open_from_source(src, ZIP_RDONLY, &ze))) {
		if (src)
			zip_source_free(src);
		rc = sw_err_set(err, SW_EINPUT, "not a .docx: %s", zip_error_strerror(&ze));
		goto cleanup;
	}
	if ((rc = build_parts(&np, ids, in, job, err)) != 0 || (rc = mem_open(&m, err)) != 0)
		goto cleanup;
	zip_int64_t n = zip_get_num_entries(in, 0);
	for (zip_int64_t i = 0; i < n; i++) {
		const char *name = zip_get_name(in, (zip_uint64_t)i, 0);
		if (!name) {
			rc = sw_err_set(err, SW_EINPUT, "not a .docx: %s", zip_strerror(in));
			goto cleanup;
		}
		if (is_replaced(name)) {
			for (size_t k = 0; k < SW_ARRAY_LEN(replaced); k++)
				if (!strcmp(name, replaced[k]) &&
				    (rc = put(m.za, name, &np.v[k], err)) != 0)
					goto cleanup;
			continue;
		}
		zip_source_t *s = zip_source_zip(m.za, in, (zip_uint64_t)i, 0, 0, -1);
		if (!s || zip_file_add(m.za, name, s, ZIP_FL_ENC_UTF_8) < 0) {
			if (s)
				zip_source_free(s);
			rc = sw_err_set(err, SW_EIO, "cannot copy %s: %s", name,
					zip_strerror(m.za));
			goto cleanup;
		}
	}
	/* The parts the document did not have. */
	for (size_t k = 1; k < SW_ARRAY_LEN(replaced); k++)
		if (zip_name_locate(in, replaced[k], 0) < 0 &&
		    (rc = put(m.za, replaced[k], &np.v[k], err)) != 0)
			goto cleanup;
	if ((rc = mem_finish(&m, out, err)) != 0)
		goto cleanup;
	for (size_t i = 0; i < job->nnotes; i++)
		*anchored += ids[i] >= 0;
cleanup:
	mem_abandon(&m);
	if (in)
		zip_discard(in);
	zip_error_fini(&ze);
	for (size_t i = 0; i < SW_ARRAY_LEN(np.v); i++)
		sw_buf_release(&np.v[i]);
	free(ids);
	return rc;
}

/* ------------------------------------------------------ a new document */

struct mark {
	size_t pos;
	bool start;
	long id;
};

static int mark_cmp(const void *a, const void *b)
{
	const struct mark *x = a, *y = b;
	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	if (x->start != y->start)
		return x->start ? 1 : -1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* word/document.xml of the text: a paragraph per line, a page break per
 * form feed, the notes' ranges at their offsets. */
static void document_of(struct sw_buf *out, const struct sw__docx_job *job, long *ids)
{
	struct mark *marks = sw_xmalloc((job->nnotes * 2 + 1) * sizeof(*marks));
	size_t nmarks = 0;
	long id = 0;
	for (size_t i = 0; i < job->nnotes; i++) {
		size_t a = job->notes[i].start, b = job->notes[i].end;
		ids[i] = -1;
		if (b > job->len)
			b = job->len;
		if (a >= b)
			continue;
		ids[i] = id++;
		marks[nmarks++] = (struct mark){ a, true, ids[i] };
		marks[nmarks++] = (struct mark){ b, false, ids[i] };
	}
	qsort(marks, nmarks, sizeof(*marks), mark_cmp);
	sw_buf_addf(out, XML_DECL "<w:document xmlns:w=\"%s\"><w:body><w:p>", NS_W);
	bool open = false;
	size_t mi = 0, from = 0;
	for (size_t i = 0; i <= job->len; i++) {
		char c = i < job->len ? job->text[i] : '\0';
		bool special = i == job->len || c == '\n' || c == '\f' || c == '\t' ||
			       (mi < nmarks && marks[mi].pos == i);
		if (!special)
			continue;
		if (i > from) {
			if (!open)
				sw_buf_adds(out, "<w:r><w:t xml:space=\"preserve\">");
			sw__docx_esc(out, job->text + from, i - from);
			open = true;
		}
		if (open)
			sw_buf_adds(out, "</w:t></w:r>");
		open = false;
		for (; mi < nmarks && marks[mi].pos == i; mi++) {
			if (marks[mi].start)
				sw_buf_addf(out, "<w:commentRangeStart w:id=\"%ld\"/>",
					    marks[mi].id);
			else
				sw_buf_addf(
					out,
					"<w:commentRangeEnd w:id=\"%ld\"/><w:r><w:commentReference "
					"w:id=\"%ld\"/></w:r>",
					marks[mi].id, marks[mi].id);
		}
		from = i;
		if (i == job->len)
			break;
		if (c == '\n' || c == '\f' || c == '\t') {
			from = i + 1;
			/* The last paragraph ends with the document. */
			if (c == '\n') {
				if (i + 1 < job->len)
					sw_buf_adds(out, "</w:p><w:p>");
			} else {
				sw_buf_adds(out, c == '\f' ? "<w:r><w:br w:type=\"page\"/></w:r>"
							   : "<w:r><w:tab/></w:r>");
			}
		}
	}
	sw_buf_adds(out, "</w:p></w:body></w:document>");
	free(marks);
}

static int create(struct sw_buf *out, const struct sw__docx_job *job, struct sw_err *err)
{
	struct sw_buf v[5];
	struct mem_zip m = { 0 };
	long *ids = sw_xmalloc((job->nnotes + 1) * sizeof(*ids));
	int rc;
	static const char *const names[] = { "[Content_Types].xml", "_rels/.rels",
					     "word/document.xml", "word/_rels/document.xml.rels",
					     "word/comments.xml" };

	for (size_t i = 0; i < SW_ARRAY_LEN(v); i++)
		sw_buf_init(&v[i]);
	sw_buf_adds(&v[0], XML_DECL "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/"
		    "content-types\"><Default Extension=\"rels\" ContentType=\"application/"
		    "vnd.openxmlformats-package.relationships+xml\"/><Default Extension=\"xml\" "
		    "ContentType=\"application/xml\"/><Override PartName=\"/word/document.xml\" "
		    "ContentType=\"application/vnd.openxmlformats-officedocument.wordprocessingml."
		    "document.main+xml\"/><Override PartName=\"/word/comments.xml\" ContentType=\""
		    CT_COMMENTS "\"/></Types>");
	sw_buf_adds(&v[1], XML_DECL "<Relationships xmlns=\"http://schemas.openxmlformats.org/"
		    "package/2006/relationships\"><Relationship Id=\"rId1\" Type=\"" NS_REL
		    "/officeDocument\" Target=\"word/document.xml\"/></Relationships>");
	document_of(&v[2], job, ids);
	sw_buf_adds(&v[3], XML_DECL "<Relationships xmlns=\"http://schemas.openxmlformats.org/"
		    "package/2006/relationships\"><Relationship Id=\"rId1\" Type=\"" REL_COMMENTS
		    "\" Target=\"comments.xml\"/></Relationships>");
	sw_buf_addf(&v[4], XML_DECL "<w:comments xmlns:w=\"%s\">", NS_W);
	comments_body(&v[4], job, ids);
	sw_buf_adds(&v[4], "</w:comments>");
	if ((rc = mem_open(&m, err)) != 0)
		goto cleanup;
	for (size_t i = 0; i < SW_ARRAY_LEN(v); i++)
		if ((rc = put(m.za, names[i], &v[i], err)) != 0)
			goto cleanup;
	rc = mem_finish(&m, out, err);
cleanup:
	mem_abandon(&m);
	for (size_t i = 0; i < SW_ARRAY_LEN(v); i++)
		sw_buf_release(&v[i]);
	free(ids);
	return rc;
}

__attribute__((visibility("default")))
const struct sw__verify_docx sw__verify_docx_v1 = {
	.abi = SW__VERIFY_DOCX_ABI,
	.version = SW_VERSION,
	.sizes = { sizeof(struct sw_buf), sizeof(struct sw_err), sizeof(struct sw__docx_note),
		   sizeof(struct sw__docx_job) },
	.annotate = annotate,
	.create = create,
};
