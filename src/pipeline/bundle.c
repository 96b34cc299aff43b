/*
 * bundle.c - evidence bundles: the record pages a step's window gets, found
 * from the words of its sources and framed as data.
 *
 * Queries.  The sources (a brief, an outline's item, a topic) are cut into
 * words; stop words, one- and two-letter words and single digits are
 * dropped; Bates numbers, identifiers ("INV-10236", "PO 4471"), numbers
 * and names are kept, most distinctive first (SW_BUNDLE_TERMS at most).
 * A Bates number a source names, found as a page by record/'s Bates look-
 * up, enters first, before anything the search ranks.  The other words go
 * to record/'s search as one FTS5 OR of quoted terms: bm25 then ranks a
 * page by how many of the words it holds and how rare each is, where an
 * AND of the words finds only pages holding all of them (on the example
 * matter, none for a real brief) and one query per word ranks a page that
 * holds one rare word above one that holds ten.  Every term is quoted with
 * any '"' dropped, so nothing a brief or a model's outline says is FTS5
 * syntax.
 *
 * Only record/'s evidence queries are used (sw_search without include_all,
 * sw_record_page_by_bates, sw_record_doc_page, sw_record_page_text): a
 * quarantined page or a model's output cannot be found, so cannot be
 * framed.
 *
 * Bounds: a source is read for its first SOURCE_MAX bytes, TERMS_SEEN
 * distinct words are weighed, BATES_LOOKUPS words are tried as Bates
 * numbers and BATES_REFS of them looked up (BATES_PER_REF pages each), the
 * query holds SW_BUNDLE_TERMS words within SW_SEARCH_MAX_QUERY bytes.
 *
 * Framing.  Each page is
 *   <<<EVIDENCE document="NAME" bates="ACME0000004" page="1">>>
 *   ...the page's text...
 *   <<<END EVIDENCE>>>
 * and, when its document's load file gave them, title="...",
 * date="2021-03-15" and custodian="..." after page (inside the frame, so
 * that the context audit counts them as evidence), with attribute values
 * escaped (&quot; &lt; &gt; &amp;) and any "<<<" in
 * the page's text broken up ("<< <"), so that no page can close its frame
 * or open another.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline.h"

#define SW_BUNDLE_TERMS 32        /* words in the search query */
#define DEFAULT_PAGES 12
#define TERM_MAX 64               /* bytes of one term; longer words are dropped */
#define TERMS_SEEN 1024           /* distinct words considered per bundle */
#define BATES_PER_REF 20          /* pages of one named Bates range */
#define BATES_REFS 16             /* Bates numbers looked up per bundle */
#define ATTR_MAX 256              /* bytes of an attribute value */

/* Classes of terms, most distinctive first. */
enum term_class { T_IDENT, T_NUMBER, T_NAME, T_WORD };

struct term {
	char *text;   /* as written (first spelling seen) */
	char *key;    /* ASCII lower case, for duplicates */
	enum term_class cls;
	size_t count; /* occurrences in the sources */
	size_t first; /* order of first occurrence */
};

#define TERM_SLOTS 2048          /* hash slots: twice TERMS_SEEN */
#define SOURCE_MAX ((size_t)1 << 20) /* bytes of one source read for words */
#define BATES_LOOKUPS 256         /* words tried as Bates numbers per bundle */

struct terms {
	struct term *t;
	size_t n, cap, seen;
	int32_t slot[TERM_SLOTS]; /* index + 1 into t, by hash of the key */
	size_t lookups;           /* Bates look-ups made */
	struct sw_bates_ref refs[BATES_REFS]; /* Bates numbers named, once each */
	size_t nrefs;
};

/* A page found, before packing. */
struct cand {
	int64_t page_id, doc_id;
	uint32_t page_no;
	char *document, *bates;
	double score;
	bool bates_named; /* named in a source: ranked first */
	size_t order;     /* when found */
};

static const char *const stop_words[] = {
	"about", "above", "after", "again", "against", "all", "also", "and", "any", "are",
	"because", "been", "before", "being", "below", "between", "both", "but", "can",
	"could", "did", "does", "doing", "down", "during", "each", "either", "every", "few",
	"for", "from", "further", "had", "has", "have", "having", "her", "here", "hers",
	"herself", "him", "himself", "his", "how", "into", "its", "itself", "just", "may",
	"might", "more", "most", "much", "must", "myself", "neither", "nor", "not", "now",
	"off", "once", "only", "other", "ought", "our", "ours", "ourselves", "out", "over",
	"own", "same", "shall", "she", "should", "some", "such", "than", "that", "the",
	"their", "theirs", "them", "themselves", "then", "there", "these", "they", "this",
	"those", "through", "too", "under", "until", "upon", "very", "was", "were", "what",
	"when", "where", "whether", "which", "while", "who", "whom", "whose", "why", "will",
	"with", "within", "without", "would", "yet", "you", "your", "yours", "yourself",
	/* words of a request to draft, not of its subject */
	"cite", "citing", "draft", "drafting", "write", "writing", "prepare", "please",
	"include", "including", "describe", "explain", "summarize", "summarise", "state",
	"using", "use", "based", "record", "records", "evidence", "bates", "number",
	"numbers", "page", "pages", "document", "documents", "section", "sections",
	"paragraph", "paragraphs", "fact", "facts", "show", "shows", "shown", "per",
	"via", "etc", "make", "made", "give", "given", "set", "forth", "one", "two",
	"declaration", "motion", "chronology", "summary", "argument", "statement",
};

static bool is_stop(const char *key)
{
	for (size_t i = 0; i < SW_ARRAY_LEN(stop_words); i++)
		if (!strcmp(stop_words[i], key))
			return true;
	return false;
}

/* The bytes of the letter or digit at s[i], or 0 when none starts there.
 * Any character past ASCII is a letter except the punctuation blocks a
 * brief uses between words: U+0080-U+00BF (no-break space, section sign,
 * guillemets), U+2000-U+206F (dashes, curly quotes, zero-width spaces),
 * U+3000-U+303F and the byte-order mark. */
static size_t wchar_len(const char *str, size_t len, size_t i)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char c = s[i];
	if (c < 0x80)
		return isalnum(c) ? 1 : 0;
	size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
	if (n == 0 || len - i < n)
		return 0;
	for (size_t k = 1; k < n; k++)
		if ((s[i + k] & 0xC0) != 0x80)
			return 0;
	if (c == 0xC2 || (c == 0xE2 && (s[i + 1] == 0x80 || s[i + 1] == 0x81)) ||
	    (c == 0xE3 && s[i + 1] == 0x80) || (c == 0xEF && s[i + 1] == 0xBB && s[i + 2] == 0xBF))
		return 0;
	return n;
}

size_t sw_tokens_estimate(const char *text, size_t len)
{
	(void)text;
	return (len + 3) / 4;
}

/* ------------------------------------------------------------------ terms */

static void term_add(struct terms *ts, const char *w, size_t len, bool sentence_start)
{
	bool digits = false, letters = false, upper = isupper((unsigned char)w[0]), all_upper = true;
	size_t ndigits = 0, nletters = 0;
	if (len > TERM_MAX)
		return;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)w[i];
		if (isdigit(c)) {
			digits = true;
			ndigits++;
		} else if (isalpha(c) || c >= 0x80) {
			letters = true;
			nletters++;
			if (islower(c))
				all_upper = false;
		}
	}
	char *key = sw_xstrndup(w, len);
	for (char *p = key; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	enum term_class cls;
	if (digits && letters)
		cls = T_IDENT;
	else if (digits && !(len == 4 && (key[0] == '1' || key[0] == '2') &&
			     (key[1] == '9' || key[1] == '0')))
		cls = T_NUMBER; /* a year (19xx, 20xx) is on most pages: a plain word */
	else if (digits)
		cls = T_WORD;
	else if ((upper && !sentence_start) || (all_upper && nletters >= 3))
		cls = T_NAME;
	else
		cls = T_WORD;
	if ((cls == T_NUMBER && ndigits < 2) || (!digits && nletters < 3) ||
	    (cls != T_IDENT && cls != T_NUMBER && is_stop(key))) {
		free(key);
		return;
	}
	uint32_t h = 2166136261u; /* FNV-1a */
	for (const char *p = key; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	size_t at = h % TERM_SLOTS;
	for (; ts->slot[at]; at = (at + 1) % TERM_SLOTS) {
		struct term *t = &ts->t[ts->slot[at] - 1];
		if (!strcmp(t->key, key)) {
			t->count++;
			if (cls < t->cls)
				t->cls = cls;
			free(key);
			return;
		}
	}
	if (ts->n >= TERMS_SEEN) {
		free(key);
		return;
	}
	ts->t = sw_xgrow(ts->t, &ts->cap, ts->n + 1, sizeof(*ts->t));
	ts->t[ts->n++] = (struct term){ sw_xstrndup(w, len), key, cls, 1, ts->seen++ };
	ts->slot[at] = (int32_t)ts->n;
}

static int term_cmp(const void *a, const void *b)
{
	const struct term *x = a, *y = b;
	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	size_t lx = strlen(x->text), ly = strlen(y->text);
	if (lx != ly)
		return lx > ly ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

static void terms_release(struct terms *ts)
{
	for (size_t i = 0; i < ts->n; i++) {
		free(ts->t[i].text);
		free(ts->t[i].key);
	}
	free(ts->t);
}

/* The end of the word at s[i] (letters and digits, with '-', '_', '/'
 * between them, and ',' or '.' between digits: "INV-10236", "3,060.00"). */
static size_t word_end(const char *s, size_t len, size_t i)
{
	while (i < len) {
		size_t n = wchar_len(s, len, i);
		if (n) {
			i += n;
			continue;
		}
		unsigned char c = (unsigned char)s[i];
		bool inner = i + 1 < len && i > 0 && isalnum((unsigned char)s[i - 1]) &&
			     isalnum((unsigned char)s[i + 1]);
		bool digit_sep = inner && (c == ',' || c == '.') && isdigit((unsigned char)s[i - 1]) &&
				 isdigit((unsigned char)s[i + 1]);
		if (inner && (c == '-' || c == '_' || c == '/' || digit_sep)) {
			i++;
			continue;
		}
		break;
	}
	return i;
}

/* ------------------------------------------------------------ candidates */

static void cands_free(struct cand *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(c[i].document);
		free(c[i].bates);
	}
	free(c);
}

struct cands {
	struct cand *c;
	size_t n, cap;
};

/* Add a page, or keep its best score when it is there. */
static void cand_put(struct cands *cs, int64_t page_id, int64_t doc_id, uint32_t page_no,
		     const char *document, const char *bates, double score, bool named)
{
	for (size_t i = 0; i < cs->n; i++)
		if (cs->c[i].page_id == page_id) {
			if (score < cs->c[i].score)
				cs->c[i].score = score;
			cs->c[i].bates_named |= named;
			return;
		}
	cs->c = sw_xgrow(cs->c, &cs->cap, cs->n + 1, sizeof(*cs->c));
	cs->c[cs->n] = (struct cand){ page_id, doc_id, page_no,
				      sw_xstrdup(document ? document : ""),
				      bates ? sw_xstrdup(bates) : NULL, score, named, cs->n };
	cs->n++;
}

static int cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	if (x->bates_named != y->bates_named)
		return x->bates_named ? -1 : 1;
	if (!x->bates_named && x->score != y->score)
		return x->score < y->score ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void add_query(struct sw_bundle *b, const char *q, size_t len)
{
	b->queries = sw_xrealloc(b->queries, (b->n_queries + 1) * sizeof(*b->queries));
	b->queries[b->n_queries++] = sw_xstrndup(q, len);
}

/* The pages of a Bates number or range named in a source. */
static int bates_pages(struct cands *cs, struct sw_matter *m, const struct sw_bates_ref *ref,
		       struct sw_err *err)
{
	uint64_t last = ref->last;
	if (last - ref->first >= BATES_PER_REF)
		last = ref->first + BATES_PER_REF - 1;
	for (uint64_t num = ref->first; num <= last; num++) {
		struct sw_record_page p = { 0 };
		int rc = sw_record_page_by_bates(&p, m, ref->prefix, num, err);
		if (rc == SW_ENOTFOUND) {
			sw_err_clear(err);
			continue;
		}
		if (rc != 0)
			return rc;
		cand_put(cs, p.id, p.doc_id, p.page_no, p.document, p.bates, 0.0, true);
		sw_record_page_release(&p);
	}
	return 0;
}

/* Whether s[0..len) names evidence pages by Bates number; *ref gets it. */
static bool bates_named(struct sw_bates_ref *ref, struct terms *ts, struct sw_matter *m,
			const char *s, size_t len)
{
	uint64_t have = 0;
	struct sw_err e = { 0 };
	if (ts->lookups >= BATES_LOOKUPS || sw_bates_ref_parse(ref, s, len) != 0)
		return false;
	ts->lookups++;
	if (sw_record_bates_lookup(&have, NULL, m, ref, &e) != 0)
		return false;
	return have > 0;
}

/* The blanks and range word or dash after a Bates number, up to the next
 * word: " - ", "–", " to ", " through ".  Returns where the next word
 * starts, or 0 when none follows so. */
static size_t range_joint(const char *s, size_t len, size_t i)
{
	size_t j = i;
	while (j < len && (s[j] == ' ' || s[j] == '\t'))
		j++;
	if (j < len && s[j] == '-')
		j++;
	else if (len - j >= 3 && (unsigned char)s[j] == 0xE2 && (unsigned char)s[j + 1] == 0x80 &&
		 ((unsigned char)s[j + 2] == 0x93 || (unsigned char)s[j + 2] == 0x94))
		j += 3;
	else if (len - j >= 3 && !strncmp(s + j, "to ", 3))
		j += 2;
	else if (len - j >= 8 && !strncmp(s + j, "through ", 8))
		j += 7;
	else if (len - j >= 5 && !strncmp(s + j, "thru ", 5))
		j += 4;
	else if (j == i || j >= len || !isdigit((unsigned char)s[j]))
		return 0; /* "BLT 000007": a blank, then the number */
	else
		return j;
	while (j < len && (s[j] == ' ' || s[j] == '\t'))
		j++;
	return j < len && j - i <= 12 && wchar_len(s, len, j) ? j : 0;
}

/* Cut one source into terms; Bates numbers it names are looked up. */
static bool ref_seen(const struct terms *ts, const struct sw_bates_ref *r)
{
	for (size_t i = 0; i < ts->nrefs; i++)
		if (!strcmp(ts->refs[i].prefix, r->prefix) && ts->refs[i].first == r->first &&
		    ts->refs[i].last == r->last)
			return true;
	return false;
}

static int source_terms(struct terms *ts, struct cands *cs, struct sw_bundle *b,
			struct sw_matter *m, const char *s, struct sw_err *err)
{
	size_t len = strnlen(s, SOURCE_MAX);
	bool sentence_start = true;
	for (size_t i = 0; i < len;) {
		unsigned char c = (unsigned char)s[i];
		if (!wchar_len(s, len, i)) {
			if (c == '.' || c == '!' || c == '?' || c == ':' || c == '\n' || c == '#' ||
			    c == '*' || c == '"')
				sentence_start = true;
			i++;
			continue;
		}
		size_t end = word_end(s, len, i);
		struct sw_bates_ref ref;
		size_t span = 0;
		/* The longest Bates spelling starting here: a range, a number
		 * written with a blank, or the word alone. */
		size_t j = range_joint(s, len, end);
		if (j) {
			size_t e2 = word_end(s, len, j);
			if (bates_named(&ref, ts, m, s + i, e2 - i))
				span = e2;
		}
		if (!span && bates_named(&ref, ts, m, s + i, end - i))
			span = end;
		if (span && !ref_seen(ts, &ref) && ts->nrefs < BATES_REFS) {
			ts->refs[ts->nrefs++] = ref;
			add_query(b, s + i, span - i);
			int rc = bates_pages(cs, m, &ref, err);
			if (rc != 0)
				return rc;
		}
		if (span) {
			/* one word ("ACME0000004") is searched too: the pages
			 * that cite it */
			if (span == end)
				term_add(ts, s + i, end - i, false);
			i = span;
			sentence_start = false;
			continue;
		}
		term_add(ts, s + i, end - i, sentence_start);
		sentence_start = false;
		i = end;
	}
	return 0;
}

/* ---------------------------------------------------------------- framing */

static void add_attr(struct sw_buf *out, const char *name, const char *v)
{
	size_t n = strlen(v);
	n = sw_utf8_cut(v, n, ATTR_MAX);
	sw_buf_addf(out, " %s=\"", name);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)v[i];
		switch (c) {
		case '"': sw_buf_adds(out, "&quot;"); break;
		case '&': sw_buf_adds(out, "&amp;"); break;
		case '<': sw_buf_adds(out, "&lt;"); break;
		case '>': sw_buf_adds(out, "&gt;"); break;
		default: sw_buf_addc(out, c < 0x20 || c == 0x7f ? ' ' : (char)c);
		}
	}
	sw_buf_addc(out, '"');
}

/* The document's date for a frame: as read (YYYY-MM-DD), else as written. */
static const char *frame_date(const struct sw_doc_meta *meta)
{
	static const enum sw_doc_field order[] = { SW_FIELD_SENT, SW_FIELD_RECEIVED,
		SW_FIELD_DOCDATE };
	const char *d = sw_doc_meta_date(meta);
	for (size_t i = 0; !*d && i < SW_ARRAY_LEN(order); i++)
		if (meta->value[order[i]])
			d = meta->value[order[i]];
	return d;
}

/* Frame one page into out (appended), with its document's title, date and
 * custodian when the load file gave them. */
static void frame_page(struct sw_buf *out, const struct cand *c, const struct sw_doc_meta *meta,
		       const char *text, size_t len)
{
	sw_buf_adds(out, "<<<EVIDENCE");
	add_attr(out, "document", c->document);
	if (c->bates)
		add_attr(out, "bates", c->bates);
	sw_buf_addf(out, " page=\"%u\"", (unsigned)c->page_no);
	if (meta->value[SW_FIELD_TITLE])
		add_attr(out, "title", meta->value[SW_FIELD_TITLE]);
	if (*frame_date(meta))
		add_attr(out, "date", frame_date(meta));
	if (meta->value[SW_FIELD_CUSTODIAN])
		add_attr(out, "custodian", meta->value[SW_FIELD_CUSTODIAN]);
	sw_buf_adds(out, ">>>\n");
	size_t body = out->len;
	for (size_t i = 0; i < len; i++) {
		char ch = text[i];
		if (ch == '\r') {
			if (i + 1 < len && text[i + 1] == '\n')
				continue;
			ch = '\n';
		} else if (ch == '\f' || ch == '\v') {
			ch = '\n';
		} else if ((unsigned char)ch < 0x20 && ch != '\n' && ch != '\t') {
			ch = ' ';
		}
		if (ch == '<' && out->len - body >= 2 && out->data[out->len - 1] == '<' &&
		    out->data[out->len - 2] == '<')
			sw_buf_addc(out, ' ');
		sw_buf_addc(out, ch);
	}
	if (out->len == body || out->data[out->len - 1] != '\n')
		sw_buf_addc(out, '\n');
	sw_buf_adds(out, "<<<END EVIDENCE>>>\n");
}

static size_t count_tokens(bool *estimated, const struct sw_bundle_opts *o, const char *text,
			   size_t len)
{
	size_t n = 0;
	bool est = false;
	if (o->count && o->count(&n, &est, text, len, o->count_ud) == 0) {
		*estimated = est;
		return n;
	}
	*estimated = true;
	return sw_tokens_estimate(text, len);
}

/* ------------------------------------------------------------------ build */

void sw_bundle_release(struct sw_bundle *b)
{
	if (!b)
		return;
	free(b->text);
	for (size_t i = 0; i < b->n_pages; i++) {
		free(b->pages[i].document);
		free(b->pages[i].bates);
	}
	free(b->pages);
	for (size_t i = 0; i < b->n_queries; i++)
		free(b->queries[i]);
	free(b->queries);
	sw_inject_flags_free(b->flags, b->n_flags);
	memset(b, 0, sizeof(*b));
}

/* The search of the terms: one FTS5 OR of quoted terms. */
static int search_terms(struct cands *cs, struct sw_bundle *b, struct sw_matter *m,
			struct terms *ts, unsigned max_pages, struct sw_err *err)
{
	struct sw_buf q = SW_BUF_INIT;
	struct sw_search_hit *hits = NULL;
	size_t nhits = 0;
	int rc = 0;

	if (ts->n)
		qsort(ts->t, ts->n, sizeof(*ts->t), term_cmp);
	for (size_t i = 0, used = 0; i < ts->n && used < SW_BUNDLE_TERMS; i++) {
		const char *w = ts->t[i].text;
		size_t need = strlen(w) + 6;
		if (q.len + need > SW_SEARCH_MAX_QUERY)
			break;
		if (used++)
			sw_buf_adds(&q, " OR ");
		sw_buf_addc(&q, '"');
		for (; *w; w++)
			if (*w != '"')
				sw_buf_addc(&q, *w);
		sw_buf_addc(&q, '"');
	}
	if (q.len == 0)
		goto cleanup;
	add_query(b, q.data, q.len);
	struct sw_search_opts so = { .limit = (size_t)max_pages * 4, .raw = true,
				     .include_all = false };
	if ((rc = sw_search(&hits, &nhits, m, q.data, &so, err)) != 0)
		goto cleanup;
	for (size_t i = 0; i < nhits; i++) {
		struct sw_record_page p = { 0 };
		int prc = sw_record_doc_page(&p, m, hits[i].doc_id, hits[i].page, err);
		if (prc == SW_ENOTFOUND) {
			sw_err_clear(err);
			continue;
		}
		if (prc != 0) {
			rc = prc;
			goto cleanup;
		}
		cand_put(cs, p.id, p.doc_id, p.page_no, p.document, p.bates, hits[i].score, false);
		sw_record_page_release(&p);
	}
cleanup:
	sw_search_hits_free(hits, nhits);
	sw_buf_release(&q);
	return rc;
}

int sw_bundle_build(struct sw_bundle *out, struct sw_matter *m, const struct sw_bundle_opts *o,
		    struct sw_err *err)
{
	struct terms *ts = sw_xcalloc(1, sizeof(*ts));
	struct cands cs = { 0 };
	struct sw_buf text = SW_BUF_INIT, page = SW_BUF_INIT;
	size_t cap = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	unsigned max_pages = o->max_pages ? o->max_pages : DEFAULT_PAGES;
	if (max_pages > SW_BUNDLE_MAX_PAGES)
		max_pages = SW_BUNDLE_MAX_PAGES;

	for (size_t i = 0; i < o->n_sources; i++)
		if (o->sources[i] &&
		    (rc = source_terms(ts, &cs, out, m, o->sources[i], err)) != 0)
			goto cleanup;
	if ((rc = search_terms(&cs, out, m, ts, max_pages, err)) != 0)
		goto cleanup;
	if (cs.n)
		qsort(cs.c, cs.n, sizeof(*cs.c), cand_cmp);
	out->candidates = cs.n;

	for (size_t i = 0; i < cs.n; i++) {
		const struct cand *c = &cs.c[i];
		if (out->n_pages >= max_pages) {
			out->left_out++;
			continue;
		}
		if ((rc = sw_record_page_text(&page, m, c->page_id, err)) == SW_ENOTFOUND) {
			sw_err_clear(err); /* gone since the search: not evidence now */
			rc = 0;
			out->left_out++;
			continue;
		}
		if (rc != 0)
			goto cleanup;
		struct sw_doc_meta meta;
		if ((rc = sw_record_doc_meta(&meta, m, c->doc_id, err)) != 0)
			goto cleanup;
		size_t start = text.len;
		frame_page(&text, c, &meta, page.data, page.len);
		sw_doc_meta_release(&meta);
		bool est = false;
		size_t tokens = count_tokens(&est, o, text.data + start, text.len - start);
		if (out->tokens + tokens > o->budget_tokens) {
			/* over the budget: a smaller page further down may fit */
			sw_buf_truncate(&text, start);
			out->left_out++;
			continue;
		}
		out->pages = sw_xgrow(out->pages, &cap, out->n_pages + 1, sizeof(*out->pages));
		out->pages[out->n_pages++] = (struct sw_bundle_page){
			.page_id = c->page_id, .doc_id = c->doc_id, .page_no = c->page_no,
			.document = sw_xstrdup(c->document),
			.bates = c->bates ? sw_xstrdup(c->bates) : NULL,
			.start = start, .len = text.len - start, .tokens = tokens,
			.estimated = est, .score = c->score,
		};
		out->tokens += tokens;
		out->estimated |= est;
		sw_inject_scan(&out->flags, &out->n_flags, page.data, page.len, c->doc_id,
			       c->document, c->bates, c->page_no);
	}
	out->text = sw_buf_detach(&text, &out->len);
cleanup:
	if (rc != 0)
		sw_bundle_release(out);
	terms_release(ts);
	free(ts);
	cands_free(cs.c, cs.n);
	sw_buf_release(&text);
	sw_buf_release(&page);
	return rc;
}
