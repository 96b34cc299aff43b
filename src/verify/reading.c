/* reading.c - the record as the record rules read it: the matter's Bates
 * series and labels (read once per run), names of pages for reasons, and a
 * page read as words: a transcript page without its line numbers, header
 * and margins, a page joined to the next one of its document, with a map
 * back to the stored pages, their offsets and transcript lines. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verify/rules_int.h"

#define MAX_LABELS 20000 /* labels read for reasons and transcript names */
#define EDGE_LINES 3     /* stamp lines looked for where two pages meet */

/* ------------------------------------------------------------ run state */

struct sw__verify_rec *sw__verify_rec(struct sw__verify_run *u)
{
	if (!u->rec)
		u->rec = sw_xcalloc(1, sizeof(*u->rec));
	return u->rec;
}

void sw__verify_rec_free(struct sw__verify_run *u)
{
	struct sw__verify_rec *r = u->rec;
	if (!r)
		return;
	sw_record_series_free(r->series, r->nseries);
	sw_record_labels_free(r->labels, r->nlabels);
	free(r->spans);
	free(r->productions);
	free(r);
	u->rec = NULL;
}

void sw__verify_set_span(struct sw__verify_run *u, size_t i, const struct sw__verify_span *sp)
{
	struct sw__verify_rec *r = sw__verify_rec(u);
	if (!r->spans) {
		r->nspans = u->r->claims.n;
		r->spans = sw_xcalloc(r->nspans ? r->nspans : 1, sizeof(*r->spans));
	}
	if (i < r->nspans) {
		r->spans[i] = *sp;
		r->spans[i].set = true;
	}
}

const struct sw__verify_span *sw__verify_span_of(struct sw__verify_run *u, size_t i)
{
	const struct sw__verify_rec *r = u->rec;
	if (!r || !r->spans || i >= r->nspans || !r->spans[i].set)
		return NULL;
	return &r->spans[i];
}

static void load_series(struct sw__verify_run *u)
{
	struct sw__verify_rec *r = sw__verify_rec(u);
	if (r->have_series)
		return;
	r->have_series = true;
	struct sw_err e = { 0 };
	if (sw_record_bates_series(&r->series, &r->nseries, u->m, &e) != 0) {
		if (!u->err.code)
			u->err = e;
		r->series = NULL;
		r->nseries = 0;
	}
}

const struct sw_record_series *sw__verify_series(struct sw__verify_run *u, const char *canon)
{
	load_series(u);
	const struct sw__verify_rec *r = u->rec;
	for (size_t k = 0; k < r->nseries; k++)
		if (strcmp(r->series[k].prefix, canon) == 0)
			return &r->series[k];
	return NULL;
}

const char *sw__verify_productions(struct sw__verify_run *u)
{
	load_series(u);
	struct sw__verify_rec *r = u->rec;
	if (r->productions)
		return r->productions;
	struct sw_buf b = SW_BUF_INIT;
	for (size_t k = 0; k < r->nseries && k < 8; k++) {
		const struct sw_record_series *s = &r->series[k];
		const char *lo = s->first ? s->first : s->prefix, *hi = s->last ? s->last : lo;
		sw_buf_addf(&b, "%s%s", k ? ", " : "", lo);
		if (strcmp(lo, hi) != 0)
			sw_buf_addf(&b, "\u2013%s", hi);
	}
	if (r->nseries > 8)
		sw_buf_addf(&b, " and %zu more series", r->nseries - 8);
	if (b.len == 0)
		sw_buf_adds(&b, "no page of the matter is Bates-numbered");
	r->productions = sw_buf_detach(&b, NULL);
	return r->productions;
}

static void load_labels(struct sw__verify_run *u)
{
	struct sw__verify_rec *r = sw__verify_rec(u);
	if (r->have_labels)
		return;
	r->have_labels = true;
	struct sw_err e = { 0 };
	if (sw_record_labels(&r->labels, &r->nlabels, u->m, MAX_LABELS, &e) != 0) {
		if (!u->err.code)
			u->err = e;
		r->labels = NULL;
		r->nlabels = 0;
	}
}

const char *sw__verify_doc_label(struct sw__verify_run *u, int64_t doc_id)
{
	load_labels(u);
	const struct sw__verify_rec *r = u->rec;
	const char *any = NULL;
	for (size_t k = 0; k < r->nlabels; k++) {
		if (r->labels[k].doc_id != doc_id)
			continue;
		/* A transcript is named as a deposition or transcript. */
		if (strstr(r->labels[k].norm, "dep") || strstr(r->labels[k].norm, "tr"))
			return r->labels[k].label;
		if (!any)
			any = r->labels[k].label;
	}
	return any;
}

/* ------------------------------------------------------------ page names */

/* The transcript pages a stored page holds, as "12" or "12-13" (empty when
 * none). */
static void tr_pages(struct sw__verify_run *u, int64_t id, char *out, size_t outsz)
{
	struct sw_record_tline *l = NULL;
	size_t n = 0;
	out[0] = '\0';
	struct sw_err le = {0};
	if (sw__verify_found(u, sw_record_page_lines(&l, &n, u->m, id, &le), &le) && n) {
		if (l[0].tr_page == l[n - 1].tr_page)
			snprintf(out, outsz, "%u", l[0].tr_page);
		else
			snprintf(out, outsz, "%u-%u", l[0].tr_page, l[n - 1].tr_page);
	}
	free(l);
}

char *sw__verify_page_name(struct sw__verify_run *u, int64_t id)
{
	struct sw_record_page p = { 0 };
	char tp[32], *s;
	struct sw_err pe = {0};
	if (!sw__verify_found(u, sw_record_page_by_id(&p, u->m, id, &pe), &pe))
		return sw_xstrdup("?");
	tr_pages(u, id, tp, sizeof(tp));
	if (tp[0]) {
		const char *label = sw__verify_doc_label(u, p.doc_id);
		s = sw_xasprintf("%s %s", label ? label : p.document, tp);
	} else if (p.bates) {
		s = sw_xstrdup(p.bates);
	} else {
		s = sw_xasprintf("%s p. %u", p.document, p.page_no);
	}
	sw_record_page_release(&p);
	return s;
}

char *sw__verify_pages_name(struct sw__verify_run *u, const int64_t *pages, size_t n)
{
	struct sw_buf b = SW_BUF_INIT;
	for (size_t k = 0; k < n && k < 4; k++) {
		char *s = sw__verify_page_name(u, pages[k]);
		sw_buf_addf(&b, "%s%s", k ? ", " : "", s);
		free(s);
	}
	if (n > 4)
		sw_buf_addf(&b, " and %zu more", n - 4);
	if (b.len == 0)
		sw_buf_adds(&b, "no page");
	return sw_buf_detach(&b, NULL);
}

/* ------------------------------------------------------ the reading text */

void sw__verify_text_init(struct sw__verify_text *t)
{
	memset(t, 0, sizeof(*t));
	sw_buf_init(&t->text);
}

void sw__verify_text_release(struct sw__verify_text *t)
{
	sw_buf_release(&t->text);
	free(t->segs);
	memset(t, 0, sizeof(*t));
}

static void add_seg(struct sw__verify_text *t, const char *src, size_t orig, size_t len,
		    int64_t page, int64_t doc, uint32_t tr_page, uint32_t line)
{
	t->segs = sw_xgrow(t->segs, &t->cap, t->nsegs + 1, sizeof(*t->segs));
	t->segs[t->nsegs++] = (struct sw__verify_seg){ .at = t->text.len, .len = len, .page = page,
						       .doc_id = doc, .orig = orig,
						       .tr_page = tr_page, .line = line };
	sw_buf_add(&t->text, src + orig, len);
}

/* Whether line [s, e) of a page is a stamp line: no lower-case letter and
 * at most six words (a Bates number, a legend, "PAGE 3 OF 7", a bare page
 * number), or "Page 3 of 7" itself. */
static bool stamp_line(const char *p, size_t s, size_t e)
{
	size_t words = 0;
	bool in = false, lower = false, any = false;
	for (size_t i = s; i < e; i++) {
		unsigned char c = (unsigned char)p[i];
		bool w = !isspace(c);
		if (w && !in)
			words++;
		in = w;
		any |= w;
		lower |= islower(c) != 0;
	}
	if (!any)
		return true; /* blank lines go with the stamps */
	if (words > 6)
		return false;
	if (!lower)
		return true;
	/* "Page 3 of 7", "Page 3": the word, then numbers and "of" only. */
	size_t i = s;
	while (i < e && isspace((unsigned char)p[i]))
		i++;
	if (e - i < 5 || strncasecmp(p + i, "page ", 5) != 0)
		return false;
	for (i += 5; i < e;) {
		while (i < e && isspace((unsigned char)p[i]))
			i++;
		size_t w = i;
		while (i < e && !isspace((unsigned char)p[i]))
			i++;
		bool num = i > w;
		for (size_t k = w; k < i; k++)
			num = num && isdigit((unsigned char)p[k]);
		if (i > w && !num && !(i - w == 2 && strncasecmp(p + w, "of", 2) == 0))
			return false;
	}
	return true;
}

/* [*s, *e) of page text p less its stamp lines at the top (top) or the
 * bottom (!top), at most EDGE_LINES non-blank ones. */
static void trim_edge(const char *p, size_t *s, size_t *e, bool top)
{
	for (int k = 0; k < EDGE_LINES + 4 && *s < *e; k++) {
		if (top) {
			const char *nl = memchr(p + *s, '\n', *e - *s);
			size_t le = nl ? (size_t)(nl - p) : *e;
			if (!stamp_line(p, *s, le))
				return;
			*s = nl ? le + 1 : *e;
		} else {
			size_t le = *e;
			while (le > *s && (p[le - 1] == '\n' || p[le - 1] == '\r'))
				le--;
			size_t ls = le;
			while (ls > *s && p[ls - 1] != '\n')
				ls--;
			if (!stamp_line(p, ls, le))
				return;
			*e = ls;
		}
	}
}

/* Whether line [ls, le) of p, blanks trimmed, is one of the first four
 * non-blank lines of prev[0, plen). */
static bool header_of(const char *p, size_t ls, size_t le, const char *prev, size_t plen)
{
	while (ls < le && (p[ls] == ' ' || p[ls] == '\t'))
		ls++;
	while (le > ls && (p[le - 1] == ' ' || p[le - 1] == '\r'))
		le--;
	if (le - ls < 8)
		return false;
	size_t i = 0;
	for (int n = 0; n < 4 && i < plen;) {
		const char *nl = memchr(prev + i, '\n', plen - i);
		size_t a = i, b = nl ? (size_t)(nl - prev) : plen;
		i = nl ? b + 1 : plen;
		while (a < b && (prev[a] == ' ' || prev[a] == '\t'))
			a++;
		while (b > a && (prev[b - 1] == ' ' || prev[b - 1] == '\r'))
			b--;
		if (a == b)
			continue;
		n++;
		if (b - a == le - ls && memcmp(prev + a, p + ls, le - ls) == 0)
			return true;
	}
	return false;
}

/* Past the running header at the top of a page joined to the one before:
 * its first lines that the page before also opens with ("Tallgrass
 * Builders, Inc. - Subcontract No. TB-2207-05"), and blank lines. */
static void trim_running(const char *p, size_t *s, size_t e, const char *prev, size_t plen)
{
	if (!prev || !plen)
		return;
	size_t i = *s;
	for (int k = 0; k < 6 && i < e; k++) {
		const char *nl = memchr(p + i, '\n', e - i);
		size_t le = nl ? (size_t)(nl - p) : e, a = i;
		while (a < le && (p[a] == ' ' || p[a] == '\r' || p[a] == '\t'))
			a++;
		if (a < le && !header_of(p, i, le, prev, plen))
			break;
		i = nl ? le + 1 : e;
		if (a < le)
			*s = i;
	}
}

/* Append stored page id (its text in buf) to t; top/bottom: drop the stamp
 * lines there. */
static void add_page(struct sw__verify_run *u, struct sw__verify_text *t, int64_t id, int64_t doc,
		     const struct sw_buf *buf, bool top, bool bottom)
{
	struct sw_record_tline *l = NULL;
	size_t n = 0;
	struct sw_err le = {0};
	if (sw__verify_found(u, sw_record_page_lines(&l, &n, u->m, id, &le), &le) && n) {
		for (size_t k = 0; k < n; k++) {
			if (l[k].end > buf->len || l[k].start > l[k].end)
				continue;
			size_t s = l[k].start, e = l[k].end;
			while (e > s && (buf->data[e - 1] == '\r' || buf->data[e - 1] == ' '))
				e--;
			if (t->text.len)
				sw_buf_addc(&t->text, '\n');
			add_seg(t, buf->data, s, e - s, id, doc, l[k].tr_page, l[k].line);
		}
		free(l);
		return;
	}
	free(l);
	size_t s = 0, e = buf->len;
	if (top) {
		trim_edge(buf->data, &s, &e, true);
		trim_running(buf->data, &s, e, t->text.data, t->first_len);
	}
	if (bottom)
		trim_edge(buf->data, &s, &e, false);
	if (t->text.len)
		sw_buf_addc(&t->text, '\n');
	add_seg(t, buf->data, s, e - s, id, doc, 0, 0);
}

bool sw__verify_text_read(struct sw__verify_run *u, struct sw__verify_text *t, int64_t id,
			  bool next)
{
	struct sw_record_page p = { 0 }, q = { 0 };
	bool ok = false, joined = false;
	sw_buf_reset(&t->text);
	t->nsegs = 0;
	t->first_len = 0;
	struct sw_err pe = {0};
	if (!sw__verify_found(u, sw_record_page_by_id(&p, u->m, id, &pe), &pe) ||
	    !sw__verify_found(u, sw_record_page_text(&u->page, u->m, id, &pe), &pe))
		goto done;
	if (next && p.page_no < p.page_count &&
	    sw__verify_found(u, sw_record_doc_page(&q, u->m, p.doc_id, p.page_no + 1, &pe), &pe))
		joined = true;
	add_page(u, t, id, p.doc_id, &u->page, false, joined);
	t->first_len = t->text.len;
	if (joined && sw__verify_found(u, sw_record_page_text(&u->page, u->m, q.id, &pe), &pe))
		add_page(u, t, q.id, q.doc_id, &u->page, true, false);
	ok = true;
done:
	sw_record_page_release(&p);
	sw_record_page_release(&q);
	return ok;
}

/* Whether transcript line (p, l) lies in span sp. */
static bool in_span(const struct sw__verify_span *sp, uint32_t p, uint32_t l)
{
	if (p < sp->p0 || p > sp->p1)
		return false;
	if (p == sp->p0 && sp->l0 && l < sp->l0)
		return false;
	if (p == sp->p1 && sp->l1 && l > sp->l1)
		return false;
	return true;
}

/* Whether transcript line (p, l) comes after span sp. */
static bool after_span(const struct sw__verify_span *sp, uint32_t p, uint32_t l)
{
	return p > sp->p1 || (p == sp->p1 && sp->l1 && l > sp->l1);
}

bool sw__verify_text_read_span(struct sw__verify_run *u, struct sw__verify_text *t,
			       const int64_t *pages, size_t npages,
			       const struct sw__verify_span *sp, size_t extra)
{
	bool any = false;
	int64_t list[SW_VERIFY_MAX_PAGES + 1];
	size_t n = 0, ext = 0;
	sw_buf_reset(&t->text);
	t->nsegs = 0;
	t->first_len = 0;
	for (size_t k = 0; k < npages && n < SW_VERIFY_MAX_PAGES; k++)
		list[n++] = pages[k];
	/* the lines after the span may be on the next transcript page */
	if (extra && sp->p1 < UINT32_MAX) {
		struct sw_record_page q = { 0 };
		uint32_t found = 0;
		struct sw_err le = {0};
		if (sw__verify_found(u,
				     sw_record_transcript_lines(&found, &q, u->m, sp->doc,
								sp->p1 + 1, 1, (uint32_t)extra,
								&le),
				     &le) &&
		    found) {
			bool dup = false;
			for (size_t k = 0; k < n; k++)
				dup |= list[k] == q.id;
			if (!dup)
				list[n++] = q.id;
		}
		sw_record_page_release(&q);
	}
	for (size_t k = 0; k < n; k++) {
		struct sw_record_tline *l = NULL;
		size_t nl = 0;
		struct sw_err te = {0};
		if (!sw__verify_found(u, sw_record_page_text(&u->page, u->m, list[k], &te), &te) ||
		    !sw__verify_found(u, sw_record_page_lines(&l, &nl, u->m, list[k], &te), &te)) {
			free(l);
			continue;
		}
		for (size_t q = 0; q < nl; q++) {
			bool in = in_span(sp, l[q].tr_page, l[q].line);
			bool more = !in && after_span(sp, l[q].tr_page, l[q].line) && ext < extra;
			if ((!in && !more) || l[q].end > u->page.len || l[q].start > l[q].end)
				continue;
			ext += more;
			size_t s = l[q].start, e = l[q].end;
			while (e > s && (u->page.data[e - 1] == '\r' || u->page.data[e - 1] == ' '))
				e--;
			if (t->text.len)
				sw_buf_addc(&t->text, '\n');
			add_seg(t, u->page.data, s, e - s, list[k], sp->doc, l[q].tr_page, l[q].line);
			if (in)
				t->first_len = t->text.len;
			any |= in;
		}
		free(l);
	}
	return any;
}

const struct sw__verify_seg *sw__verify_text_seg(const struct sw__verify_text *t, size_t off)
{
	if (t->nsegs == 0)
		return NULL;
	size_t lo = 0, hi = t->nsegs;
	/* The last segment that starts at or before off. */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->segs[mid].at <= off)
			lo = mid;
		else
			hi = mid;
	}
	return &t->segs[lo];
}

/* "12:8", "12:8-9", "12:25-13:2" for the transcript lines of [s, e), or
 * false when they are no transcript lines. */
static bool lines_cite(const struct sw__verify_text *t, size_t s, size_t e, char *out,
		       size_t outsz)
{
	const struct sw__verify_seg *a = sw__verify_text_seg(t, s);
	const struct sw__verify_seg *z = sw__verify_text_seg(t, e > s ? e - 1 : s);
	if (!a || !z || !a->tr_page || !z->tr_page)
		return false;
	if (a->tr_page == z->tr_page && a->line == z->line)
		snprintf(out, outsz, "%u:%u", a->tr_page, a->line);
	else if (a->tr_page == z->tr_page)
		snprintf(out, outsz, "%u:%u-%u", a->tr_page, a->line, z->line);
	else
		snprintf(out, outsz, "%u:%u-%u:%u", a->tr_page, a->line, z->tr_page, z->line);
	return true;
}

void sw__verify_text_evidence(struct sw__verify_run *u, size_t i, const struct sw__verify_text *t,
			      size_t s, size_t e)
{
	const struct sw__verify_seg *a = sw__verify_text_seg(t, s);
	struct sw_record_page p = { 0 };
	struct sw_err pe = {0};
	if (!a || !sw__verify_found(u, sw_record_page_by_id(&p, u->m, a->page, &pe), &pe))
		return;
	char *ex = sw__verify_excerpt(t->text.data, t->text.len, s, e);
	sw__verify_add_page_evidence(u, i, &p, ex);
	free(ex);
	char lc[48];
	if (lines_cite(t, s, e, lc, sizeof(lc))) {
		struct sw_claim_verdict *cv = &u->r->verdicts[i];
		const char *label = sw__verify_doc_label(u, p.doc_id);
		cv->evidence[cv->nevidence - 1].cite =
			sw_xasprintf("%s %s", label ? label : p.document, lc);
	}
	sw_record_page_release(&p);
}

char *sw__verify_text_where(struct sw__verify_run *u, const struct sw__verify_text *t, size_t s,
			    size_t e)
{
	const struct sw__verify_seg *a = sw__verify_text_seg(t, s);
	char lc[48];
	if (!a)
		return sw_xstrdup("?");
	if (lines_cite(t, s, e, lc, sizeof(lc))) {
		struct sw_record_page p = { 0 };
		char *out;
		struct sw_err pe = {0};
		if (!sw__verify_found(u, sw_record_page_by_id(&p, u->m, a->page, &pe), &pe))
			return sw_xstrdup(lc);
		const char *label = sw__verify_doc_label(u, p.doc_id);
		out = sw_xasprintf("%s %s", label ? label : p.document, lc);
		sw_record_page_release(&p);
		return out;
	}
	return sw__verify_page_name(u, a->page);
}
