/* docx_splice.c - Word comments spliced into word/document.xml (part of
 * the module sworn-verify.so; docx_int.h).
 *
 * The part is read with expat the way extract/docx.c reads it (the text of
 * w:t outside w:del, a tab for w:tab, a line for w:br, a page for a page
 * break, paragraphs and table cells and rows as it ends them), and each
 * byte of that text remembers where its character stands in the XML.  The
 * text must be the verified text, so that a claim's offsets are the same
 * characters here: a draft edited since, or another file, is refused
 * rather than commented in the wrong place.
 *
 * A comment is anchored on exactly its claim's characters: the run that
 * holds the claim's first character is cut before it (the w:t and the w:r
 * closed, w:commentRangeStart, a new w:r with the same w:rPr), and the one
 * holding its last after it (w:commentRangeEnd and a run with
 * w:commentReference).  Nothing else of the part changes, except a cut
 * w:t's xml:space="preserve", without which Word would drop the spaces at
 * the cut. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <expat.h>

#include "verify/docx_int.h"

#define W_NS "http://schemas.openxmlformats.org/wordprocessingml/2006/main|"
#define XML_SPACE "http://www.w3.org/XML/1998/namespace|space"
#define NO_POS ((size_t)-1)
_Static_assert(SW__DOCX_MAX_PART < UINT32_MAX, "XML offsets fit 32 bits");

void sw__docx_esc(struct sw_buf *out, const char *s, size_t len)
{
	struct sw_buf clean = SW_BUF_INIT;
	sw_term_clean(&clean, s, len);
	for (size_t i = 0; i < clean.len; i++) {
		char c = clean.data[i];
		switch (c) {
		case '&': sw_buf_adds(out, "&amp;"); break;
		case '<': sw_buf_adds(out, "&lt;"); break;
		case '>': sw_buf_adds(out, "&gt;"); break;
		case '"': sw_buf_adds(out, "&quot;"); break;
		case '\n': case '\t': sw_buf_addc(out, ' '); break;
		default: sw_buf_addc(out, c);
		}
	}
	sw_buf_release(&clean);
}

/* A w:t (or w:delText) element: its start tag and the run around it. */
struct wt {
	size_t tag, tag_len;  /* the start tag's bytes */
	bool preserve;        /* it has xml:space="preserve" */
	bool cut;             /* a comment cuts it: written with preserve */
	long run;             /* index into runs, or -1 */
	long cell;            /* the table cell it is in (a number), or -1 */
};

/* A w:r: where its w:rPr's bytes are (rpr_len 0: none), and, when it holds
 * the reference of a comment being dropped, where that is and whether the
 * run holds anything else. */
struct run {
	size_t start;
	size_t rpr, rpr_len;
	int depth;
	bool content;
	size_t ref, ref_len;  /* ref_len 0: no dropped reference */
};

/* A change to the part: del bytes at pos replaced by ins (may be NULL). */
struct edit {
	size_t pos, del;
	char *ins;
	size_t order;
};

struct splice {
	const char *xml;
	size_t len;
	XML_Parser parser;
	bool refused;
	struct sw_buf text;
	/* Per text byte: its character's XML bytes (NO_POS: none), and its
	 * w:t (-1: none); 32 bits, as a part is at most SW__DOCX_MAX_PART. */
	uint32_t *beg, *end;
	int32_t *of;
	size_t limit;         /* text past this many bytes is not the job's: stop */
	bool over;
	size_t cap;
	struct wt *wts;
	size_t nwts, capwts;
	struct run *runs;
	size_t nruns, capruns;
	long runstack[64];    /* open w:r elements (a text box's run nests) */
	int nrunstack;
	long cellstack[64];   /* open w:tc elements, by number */
	int ncellstack;
	long ncells;
	int depth;
	long cur_wt;          /* the w:t being read, or -1 */
	int in_text, del, cell;
	long max_id;          /* of the comments the part already has */
	const long *drop;     /* ids of comments to take out (sworn's earlier ones) */
	size_t ndrop;
	struct edit *edits;
	size_t nedits, capedits;
};

static const char *wname(const char *name)
{
	return strncmp(name, W_NS, sizeof(W_NS) - 1) == 0 ? name + sizeof(W_NS) - 1 : NULL;
}

static void add(struct splice *p, const char *s, size_t n, size_t beg, bool plain)
{
	size_t need = p->text.len + n;
	if (p->over)
		return;
	if (need > p->limit) {
		p->over = true;
		XML_StopParser(p->parser, XML_FALSE);
		return;
	}
	if (need > p->cap) {
		size_t cap = p->cap;
		p->beg = sw_xgrow(p->beg, &cap, need, sizeof(*p->beg));
		cap = p->cap;
		p->end = sw_xgrow(p->end, &cap, need, sizeof(*p->end));
		cap = p->cap;
		p->of = sw_xgrow(p->of, &cap, need, sizeof(*p->of));
		p->cap = cap;
	}
	for (size_t i = 0; i < n; i++) {
		size_t at = p->text.len + i;
		if (beg == NO_POS) {
			p->beg[at] = p->end[at] = UINT32_MAX;
			p->of[at] = -1;
		} else if (plain) {
			p->beg[at] = (uint32_t)(beg + i);
			p->end[at] = (uint32_t)(beg + i + 1);
			p->of[at] = (int32_t)p->cur_wt;
		} else { /* an entity or a line end: one indivisible piece */
			p->beg[at] = (uint32_t)beg;
			p->end[at] = (uint32_t)(beg + (size_t)XML_GetCurrentByteCount(p->parser));
			p->of[at] = (int32_t)p->cur_wt;
		}
	}
	sw_buf_add(&p->text, s, n);
}

static void addc(struct splice *p, char c)
{
	add(p, &c, 1, NO_POS, false);
}

static void trim_end(struct splice *p)
{
	size_t n = p->text.len;
	while (n && (p->text.data[n - 1] == '\t' || p->text.data[n - 1] == ' '))
		n--;
	sw_buf_truncate(&p->text, n);
}

static void add_edit(struct splice *p, size_t pos, size_t del, char *ins)
{
	p->edits = sw_xgrow(p->edits, &p->capedits, p->nedits + 1, sizeof(*p->edits));
	p->edits[p->nedits] = (struct edit){ pos, del, ins, p->nedits };
	p->nedits++;
}

static bool dropped(const struct splice *p, long id)
{
	for (size_t i = 0; i < p->ndrop; i++)
		if (p->drop[i] == id)
			return true;
	return false;
}

/* A comment's mark: its id counted; a mark of a comment being dropped is
 * taken out (a reference with the run around it when the run holds
 * nothing else, at its end). */
static void note_id(struct splice *p, const char *n, const char **atts, size_t at,
		    size_t count)
{
	bool reference = !strcmp(n, "commentReference");
	if (strcmp(n, "commentRangeStart") && strcmp(n, "commentRangeEnd") && !reference &&
	    strcmp(n, "comment"))
		return;
	long v = -1;
	for (size_t i = 0; atts[i]; i += 2) {
		const char *a = wname(atts[i]);
		if (a && !strcmp(a, "id")) {
			v = strtol(atts[i + 1], NULL, 10);
			if (v > p->max_id && v < 0x7fffffffL)
				p->max_id = v;
		}
	}
	/* Only an empty element (<w:commentRangeStart .../>) is taken out. */
	if (v < 0 || !dropped(p, v) || count < 2 || p->xml[at + count - 2] != '/')
		return;
	if (reference && p->nrunstack > 0 && p->nrunstack <= (int)SW_ARRAY_LEN(p->runstack)) {
		struct run *r = &p->runs[p->runstack[p->nrunstack - 1]];
		r->ref = at;
		r->ref_len = count;
	} else if (!reference) {
		add_edit(p, at, count, NULL);
	}
}

static void XMLCALL on_start(void *user, const char *name, const char **atts)
{
	struct splice *p = user;
	const char *n = wname(name);
	p->depth++;
	if (!n)
		return;
	size_t at = (size_t)XML_GetCurrentByteIndex(p->parser);
	size_t count = (size_t)XML_GetCurrentByteCount(p->parser);
	/* What a run holds besides its properties and a reference. */
	if (p->nrunstack > 0 && p->nrunstack <= (int)SW_ARRAY_LEN(p->runstack)) {
		struct run *r = &p->runs[p->runstack[p->nrunstack - 1]];
		if (r->depth + 1 == p->depth && strcmp(n, "rPr") && strcmp(n, "commentReference"))
			r->content = true;
	}
	note_id(p, n, atts, at, count);
	if (!strcmp(n, "r")) {
		p->runs = sw_xgrow(p->runs, &p->capruns, p->nruns + 1, sizeof(*p->runs));
		p->runs[p->nruns] = (struct run){ .start = at, .depth = p->depth };
		if (p->nrunstack < (int)SW_ARRAY_LEN(p->runstack))
			p->runstack[p->nrunstack] = (long)p->nruns;
		p->nrunstack++;
		p->nruns++;
	} else if (!strcmp(n, "rPr")) {
		if (p->nrunstack > 0 && p->nrunstack <= (int)SW_ARRAY_LEN(p->runstack)) {
			struct run *r = &p->runs[p->runstack[p->nrunstack - 1]];
			if (r->depth + 1 == p->depth) {
				r->rpr = at;
				/* An empty <w:rPr/> ends with its start tag. */
				r->rpr_len =
					count >= 2 && p->xml[at + count - 2] == '/' ? count : 0;
			}
		}
	} else if (!strcmp(n, "t") || !strcmp(n, "delText")) {
		p->in_text++;
		p->wts = sw_xgrow(p->wts, &p->capwts, p->nwts + 1, sizeof(*p->wts));
		struct wt *w = &p->wts[p->nwts];
		*w = (struct wt){ .tag = at, .tag_len = count, .run = -1 };
		for (size_t i = 0; atts[i]; i += 2)
			if (!strcmp(atts[i], XML_SPACE) && !strcmp(atts[i + 1], "preserve"))
				w->preserve = true;
		if (p->nrunstack > 0 && p->nrunstack <= (int)SW_ARRAY_LEN(p->runstack))
			w->run = p->runstack[p->nrunstack - 1];
		w->cell = p->ncellstack > 0 && p->ncellstack <= (int)SW_ARRAY_LEN(p->cellstack)
				  ? p->cellstack[p->ncellstack - 1] : -1;
		p->cur_wt = (long)p->nwts++;
	} else if (!strcmp(n, "tab")) {
		if (!p->del)
			addc(p, '\t');
	} else if (!strcmp(n, "br") || !strcmp(n, "cr")) {
		const char *type = NULL;
		for (size_t i = 0; atts[i]; i += 2) {
			const char *a = wname(atts[i]);
			if (a && !strcmp(a, "type"))
				type = atts[i + 1];
		}
		if (!p->del)
			addc(p, type && !strcmp(type, "page") ? '\f' : '\n');
	} else if (!strcmp(n, "del")) {
		p->del++;
	} else if (!strcmp(n, "tc")) {
		p->cell++;
		if (p->ncellstack < (int)SW_ARRAY_LEN(p->cellstack))
			p->cellstack[p->ncellstack] = p->ncells;
		p->ncellstack++;
		p->ncells++;
	}
}

static void XMLCALL on_end(void *user, const char *name)
{
	struct splice *p = user;
	const char *n = wname(name);
	p->depth--;
	if (!n)
		return;
	if (!strcmp(n, "r")) {
		if (p->nrunstack > 0 && p->nrunstack <= (int)SW_ARRAY_LEN(p->runstack)) {
			struct run *r = &p->runs[p->runstack[p->nrunstack - 1]];
			size_t end = (size_t)XML_GetCurrentByteIndex(p->parser) +
				     (size_t)XML_GetCurrentByteCount(p->parser);
			if (r->ref_len && !r->content)
				add_edit(p, r->start, end - r->start, NULL);
			else if (r->ref_len)
				add_edit(p, r->ref, r->ref_len, NULL);
		}
		p->nrunstack--;
	} else if (!strcmp(n, "rPr")) {
		if (p->nrunstack > 0 && p->nrunstack <= (int)SW_ARRAY_LEN(p->runstack)) {
			struct run *r = &p->runs[p->runstack[p->nrunstack - 1]];
			if (r->depth == p->depth && r->rpr_len == 0)
				r->rpr_len = (size_t)XML_GetCurrentByteIndex(p->parser) +
					     (size_t)XML_GetCurrentByteCount(p->parser) - r->rpr;
		}
	} else if (!strcmp(n, "t") || !strcmp(n, "delText")) {
		p->in_text--;
		p->cur_wt = -1;
	} else if (!strcmp(n, "p")) {
		addc(p, p->cell ? ' ' : '\n');
	} else if (!strcmp(n, "tc")) {
		p->cell--;
		p->ncellstack--;
		trim_end(p);
		addc(p, '\t');
	} else if (!strcmp(n, "tr")) {
		trim_end(p);
		addc(p, '\n');
	} else if (!strcmp(n, "del")) {
		if (p->del > 0)
			p->del--;
	}
}

static void XMLCALL on_text(void *user, const char *s, int len)
{
	struct splice *p = user;
	if (!p->in_text || p->del || len <= 0)
		return;
	size_t at = (size_t)XML_GetCurrentByteIndex(p->parser);
	size_t count = (size_t)XML_GetCurrentByteCount(p->parser);
	bool plain = count == (size_t)len && at + count <= p->len &&
		     memcmp(p->xml + at, s, (size_t)len) == 0;
	add(p, s, (size_t)len, at, plain);
}

static void XMLCALL on_doctype(void *user, const XML_Char *name, const XML_Char *sysid,
			       const XML_Char *pubid, int has_internal_subset)
{
	struct splice *p = user;
	(void)name;
	(void)sysid;
	(void)pubid;
	(void)has_internal_subset;
	p->refused = true;
	XML_StopParser(p->parser, XML_FALSE);
}

/* A place to cut: before (start) or after (end) a note's characters. */
struct cut {
	size_t pos;
	long wt;
	bool start;
	long id;
};

static int cut_cmp(const void *a, const void *b)
{
	const struct cut *x = a, *y = b;
	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	if (x->start != y->start)
		return x->start ? 1 : -1; /* a range that ends here closes first */
	return x->id < y->id ? -1 : x->id > y->id;
}

/* The namespace prefix the part's w:t is written with ("w:"), or false. */
static bool prefix_of(char out[32], const struct splice *p, const struct wt *w)
{
	const char *tag = p->xml + w->tag + 1;
	size_t n = 0;
	while (n < w->tag_len && n < 31 && tag[n] != ':' && tag[n] != '>' && tag[n] != ' ')
		n++;
	if (n >= 31 || tag[n] != ':')
		return false;
	memcpy(out, tag, n + 1);
	out[n + 1] = '\0';
	return true;
}

/* The markup a group of cuts at one place becomes: the w:t and w:r
 * closed, the comments' marks, the run opened again as it was. */
static char *cuts_markup(const struct splice *p, const struct cut *c, size_t n, const char *w)
{
	struct sw_buf b = SW_BUF_INIT;
	const struct wt *t = &p->wts[c[0].wt];
	const struct run *r = &p->runs[t->run];
	sw_buf_addf(&b, "</%st></%sr>", w, w);
	for (size_t i = 0; i < n; i++) {
		if (c[i].start)
			sw_buf_addf(&b, "<%scommentRangeStart %sid=\"%ld\"/>", w, w, c[i].id);
		else
			sw_buf_addf(&b, "<%scommentRangeEnd %sid=\"%ld\"/><%sr><%scommentReference "
				    "%sid=\"%ld\"/></%sr>", w, w, c[i].id, w, w, w, c[i].id, w);
	}
	sw_buf_addf(&b, "<%sr>", w);
	if (r->rpr_len)
		sw_buf_add(&b, p->xml + r->rpr, r->rpr_len);
	sw_buf_addf(&b, "<%st xml:space=\"preserve\">", w);
	return sw_buf_detach(&b, NULL);
}

/* The first and last bytes of [start, end) that stand in a w:t of a run. */
static bool anchor(const struct splice *p, size_t start, size_t end, size_t *first,
		   size_t *last)
{
	if (end > p->text.len)
		end = p->text.len;
	size_t a = start, b = end;
	while (a < end && (p->of[a] < 0 || p->wts[p->of[a]].run < 0))
		a++;
	while (b > a && (p->of[b - 1] < 0 || p->wts[p->of[b - 1]].run < 0))
		b--;
	if (a >= b)
		return false;
	/* A range that starts in a table cell and ends outside it (a sentence
	 * the scanner ran on from a table) is one word processors drop: it
	 * starts where its end's cell, or the body, does. */
	long cell = p->wts[p->of[b - 1]].cell;
	while (a < b && (p->of[a] < 0 || p->wts[p->of[a]].run < 0 || p->wts[p->of[a]].cell != cell))
		a++;
	*first = a;
	*last = b - 1;
	return true;
}

static int edit_cmp(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;
	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The part with its edits: the comments' cuts, the cut w:t tags made to
 * preserve their spaces, the dropped comments' marks taken out. */
static void emit(struct sw_buf *out, long *ids, struct splice *p,
		 const struct sw__docx_job *job, long first_id)
{
	struct cut *cuts = sw_xmalloc((job->nnotes * 2 + 1) * sizeof(*cuts));
	size_t ncuts = 0;
	char w[32] = "";
	long id = first_id > p->max_id ? first_id : p->max_id + 1;
	for (size_t i = 0; i < job->nnotes; i++) {
		size_t a, b;
		ids[i] = -1;
		if (!anchor(p, job->notes[i].start, job->notes[i].end, &a, &b) ||
		    !prefix_of(w, p, &p->wts[p->of[a]]))
			continue;
		ids[i] = id++;
		cuts[ncuts++] = (struct cut){ p->beg[a], p->of[a], true, ids[i] };
		cuts[ncuts++] = (struct cut){ p->end[b], p->of[b], false, ids[i] };
	}
	qsort(cuts, ncuts, sizeof(*cuts), cut_cmp);
	for (size_t i = 0; i < ncuts;) {
		size_t n = 1;
		while (i + n < ncuts && cuts[i + n].pos == cuts[i].pos)
			n++;
		if (!prefix_of(w, p, &p->wts[cuts[i].wt]))
			SW_BUG("a cut in a w:t without a prefix");
		p->wts[cuts[i].wt].cut = true;
		add_edit(p, cuts[i].pos, 0, cuts_markup(p, &cuts[i], n, w));
		i += n;
	}
	for (size_t t = 0; t < p->nwts; t++) {
		struct wt *x = &p->wts[t];
		if (!x->cut || x->preserve)
			continue;
		if (!prefix_of(w, p, x))
			SW_BUG("a cut w:t without a prefix");
		/* Its other attributes, if any, are kept. */
		size_t name = strlen(w) + 2; /* "<w:t" */
		add_edit(p, x->tag, x->tag_len,
			 sw_xasprintf("%.*s xml:space=\"preserve\"%.*s", (int)name, p->xml + x->tag,
				      (int)(x->tag_len - name), p->xml + x->tag + name));
	}
	qsort(p->edits, p->nedits, sizeof(*p->edits), edit_cmp);
	size_t from = 0;
	for (size_t i = 0; i < p->nedits; i++) {
		const struct edit *e = &p->edits[i];
		if (e->pos < from) /* inside a range already taken out */
			continue;
		sw_buf_add(out, p->xml + from, e->pos - from);
		if (e->ins)
			sw_buf_adds(out, e->ins);
		from = e->pos + e->del;
	}
	sw_buf_add(out, p->xml + from, p->len - from);
	free(cuts);
}

static void release(struct splice *p)
{
	sw_buf_release(&p->text);
	free(p->beg);
	free(p->end);
	free(p->of);
	free(p->wts);
	free(p->runs);
	for (size_t i = 0; i < p->nedits; i++)
		free(p->edits[i].ins);
	free(p->edits);
	if (p->parser)
		XML_ParserFree(p->parser);
}

/* Read the part into p (its text and where each byte stands). */
static int read_part(struct splice *p, const char *xml, size_t len, struct sw_err *err)
{
	p->xml = xml;
	p->len = len;
	p->cur_wt = -1;
	p->max_id = -1;
	if (!p->limit)
		p->limit = SIZE_MAX;
	p->parser = XML_ParserCreateNS(NULL, '|');
	if (!p->parser)
		SW_BUG("expat cannot allocate a parser");
	XML_SetUserData(p->parser, p);
	XML_SetElementHandler(p->parser, on_start, on_end);
	XML_SetCharacterDataHandler(p->parser, on_text);
	XML_SetStartDoctypeDeclHandler(p->parser, on_doctype);
	if (len > SW__DOCX_MAX_PART)
		return sw_err_set(err, SW_ELIMIT, "word/document.xml is over %zu bytes",
				  SW__DOCX_MAX_PART);
	if (XML_Parse(p->parser, xml, (int)len, XML_TRUE) == XML_STATUS_ERROR) {
		if (p->over)
			return 0; /* the caller finds it is not the text it has */
		if (p->refused)
			return sw_err_set(
				err, SW_EINPUT,
				"word/document.xml has a DOCTYPE, which a .docx never has");
		return sw_err_set(err, SW_EINPUT,
				  "word/document.xml is not well-formed XML: %s at line %lu",
				  XML_ErrorString(XML_GetErrorCode(p->parser)),
				  (unsigned long)XML_GetCurrentLineNumber(p->parser));
	}
	return 0;
}

int sw__docx_splice(struct sw_buf *out, long *ids, const char *xml, size_t len,
		    const struct sw__docx_job *job, long first_id, const long *drop, size_t ndrop,
		    struct sw_err *err)
{
	struct splice p = { .text = SW_BUF_INIT, .drop = drop, .ndrop = ndrop,
			    .limit = job->len + 1 };
	int rc = read_part(&p, xml, len, err);
	if (rc != 0)
		goto cleanup;
	/* The verified text is this part's, perhaps followed by the reader's
	 * list of tracked changes and comments; or it is the part's but the
	 * end of its last paragraph (a text without a final newline). */
	size_t n = p.text.len;
	if (n == job->len + 1 && p.text.data[n - 1] == '\n')
		n--;
	if (p.over || job->len < n || memcmp(job->text, p.text.data, n) != 0 ||
	    (job->len > n && !strstr(job->text + n, "[Tracked changes and comments]"))) {
		rc = sw_err_set(err, SW_EINPUT,
				"the .docx does not hold the text that was verified "
				"(was it changed meanwhile?): verify it again");
		goto cleanup;
	}
	emit(out, ids, &p, job, first_id);
cleanup:
	release(&p);
	return rc;
}

int sw__docx_text(struct sw_buf *out, const char *xml, size_t len, struct sw_err *err)
{
	struct splice p = { .text = SW_BUF_INIT };
	int rc = read_part(&p, xml, len, err);
	if (rc == 0)
		sw_buf_add(out, p.text.data, p.text.len);
	release(&p);
	return rc;
}

long sw__docx_max_comment_id(const char *xml, size_t len)
{
	struct splice p = { .text = SW_BUF_INIT };
	long max = -1;
	if (read_part(&p, xml, len, NULL) == 0)
		max = p.max_id;
	release(&p);
	return max;
}

/* ------------------------------------------- sworn's earlier comments */

struct drop {
	XML_Parser parser;
	bool refused;
	long *ids;
	size_t nids, capids;
	size_t *ranges;       /* start, end pairs of the comments taken out */
	size_t nranges, capranges;
	int depth, in;        /* the depth of the comment being taken out, or 0 */
};

static void XMLCALL drop_start(void *user, const char *name, const char **atts)
{
	struct drop *d = user;
	const char *n = wname(name);
	d->depth++;
	if (!n || strcmp(n, "comment") != 0 || d->in)
		return;
	const char *author = NULL, *initials = NULL, *id = NULL;
	for (size_t i = 0; atts[i]; i += 2) {
		const char *a = wname(atts[i]);
		if (a && !strcmp(a, "author"))
			author = atts[i + 1];
		else if (a && !strcmp(a, "initials"))
			initials = atts[i + 1];
		else if (a && !strcmp(a, "id"))
			id = atts[i + 1];
	}
	if (!author || !initials || !id || strcmp(author, "sworn") || strcmp(initials, "sw"))
		return;
	d->ids = sw_xgrow(d->ids, &d->capids, d->nids + 1, sizeof(*d->ids));
	d->ids[d->nids++] = strtol(id, NULL, 10);
	d->ranges = sw_xgrow(d->ranges, &d->capranges, d->nranges + 2, sizeof(*d->ranges));
	d->ranges[d->nranges++] = (size_t)XML_GetCurrentByteIndex(d->parser);
	d->ranges[d->nranges++] = (size_t)XML_GetCurrentByteIndex(d->parser) +
				  (size_t)XML_GetCurrentByteCount(d->parser);
	d->in = d->depth;
}

static void XMLCALL drop_end(void *user, const char *name)
{
	struct drop *d = user;
	(void)name;
	if (d->in && d->depth == d->in) {
		d->ranges[d->nranges - 1] = (size_t)XML_GetCurrentByteIndex(d->parser) +
					    (size_t)XML_GetCurrentByteCount(d->parser);
		d->in = 0;
	}
	d->depth--;
}

static void XMLCALL drop_doctype(void *user, const XML_Char *name, const XML_Char *sysid,
				 const XML_Char *pubid, int has_internal_subset)
{
	struct drop *d = user;
	(void)name;
	(void)sysid;
	(void)pubid;
	(void)has_internal_subset;
	d->refused = true;
	XML_StopParser(d->parser, XML_FALSE);
}

int sw__docx_drop_comments(struct sw_buf *out, long **ids, size_t *nids, const char *xml,
			   size_t len, struct sw_err *err)
{
	struct drop d = { 0 };
	int rc = 0;
	*ids = NULL;
	*nids = 0;
	if (len > SW__DOCX_MAX_PART)
		return sw_err_set(err, SW_ELIMIT, "word/comments.xml is over %zu bytes",
				  SW__DOCX_MAX_PART);
	d.parser = XML_ParserCreateNS(NULL, '|');
	if (!d.parser)
		SW_BUG("expat cannot allocate a parser");
	XML_SetUserData(d.parser, &d);
	XML_SetElementHandler(d.parser, drop_start, drop_end);
	XML_SetStartDoctypeDeclHandler(d.parser, drop_doctype);
	if (XML_Parse(d.parser, xml, (int)len, XML_TRUE) == XML_STATUS_ERROR) {
		rc = sw_err_set(err, SW_EINPUT, "word/comments.xml is not well-formed XML%s",
				d.refused ? " (it has a DOCTYPE)" : "");
		goto cleanup;
	}
	size_t from = 0;
	for (size_t i = 0; i + 1 < d.nranges; i += 2) {
		sw_buf_add(out, xml + from, d.ranges[i] - from);
		from = d.ranges[i + 1];
	}
	sw_buf_add(out, xml + from, len - from);
	*ids = d.ids;
	*nids = d.nids;
	d.ids = NULL;
cleanup:
	XML_ParserFree(d.parser);
	free(d.ids);
	free(d.ranges);
	return rc;
}
