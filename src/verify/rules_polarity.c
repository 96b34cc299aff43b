/*
 * rules_polarity.c - a cited sentence that denies what its page affirms,
 * or affirms what it denies.  The page's passage that says the sentence's
 * content words (a transcript's cited lines; else the page sentence that
 * shares the most of them, and clearly: three or more, or two that are
 * most of the sentence's) is read for a negation ("not", "no", "never",
 * "none", "without", "denied", "n't"); when the sentence and that passage
 * differ, the sentence is contradicted, quoting the passage.  A sentence
 * whose passage is not clear is left alone: the rule only speaks when the
 * page plainly says the same words the other way.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verify/rules_int.h"


/* Whether the line that ends at p[j] (a '\n') or the next is a header's
 * ("From: ...", "Re: ...") or a short heading: no sentence runs over it. */
static bool label_line(const char *p, size_t j)
{
	size_t ls = j;
	while (ls > 0 && p[ls - 1] != '\n')
		ls--;
	if (j - ls < 40)
		return true;
	for (size_t i = ls; i < j && i < ls + 24; i++)
		if (p[i] == ':')
			return true;
	size_t ne = j + 1;
	for (size_t i = ne; p[i] && p[i] != '\n' && i < ne + 24; i++)
		if (p[i] == ':')
			return true;
	return false;
}

/* Transcript lines p[0, n) as words: line numbers, margins and line ends
 * gone, for a reason's quotation.  Caller frees. */
static char *without_numbers(const char *p, size_t n)
{
	struct sw_buf b = SW_BUF_INIT;
	for (size_t i = 0; i < n;) {
		size_t le = i;
		while (le < n && p[le] != '\n')
			le++;
		size_t k = sw__verify_line_words(p, i, le);
		if (k < le) {
			if (b.len)
				sw_buf_addc(&b, ' ');
			sw_buf_add(&b, p + k, le - k);
		}
		i = le + 1;
	}
	return sw_buf_detach(&b, NULL);
}

/* Whether the sentence has a quotation: its words are checked as written. */
static bool quotes(const struct sw__verify_run *u, const struct sw_claim *c)
{
	const struct sw_claims *cl = &u->r->claims;
	size_t k0, k1;
	sw__verify_claims_near(u, c, &k0, &k1);
	for (size_t k = k0; k < k1; k++)
		if (cl->v[k].kind == SW_CLAIM_QUOTE && cl->v[k].start < c->end &&
		    c->start < cl->v[k].end)
			return true;
	return false;
}

/* In a transcript's lines [s, e): the end of an answer's first sentence
 * ("A. No.", "A. Keel Transport's drivers.") when the witness goes on
 * ("... We don't drive."), so that the answer's first words stay with the
 * question they answer and what follows is a passage of its own; e when
 * there is none. */
static size_t answer_split(const char *p, size_t s, size_t e)
{
	for (size_t i = s; i + 4 < e; i++) {
		if (p[i] != 'A' || p[i + 1] != '.' || (i > s && isalpha((unsigned char)p[i - 1])))
			continue;
		/* the answer's first sentence ends at a stop and a blank */
		size_t k = i + 2, end = 0;
		for (; k + 1 < e; k++)
			if ((p[k] == '.' || p[k] == '?' || p[k] == '!') &&
			    (p[k + 1] == ' ' || p[k + 1] == '\n')) {
				end = k + 1;
				break;
			}
		if (!end)
			return e;
		size_t words = 0;
		for (size_t q = end; q < e; q++)
			words += isalpha((unsigned char)p[q]) && !isalpha((unsigned char)p[q - 1]);
		return words >= 2 ? end : e;
	}
	return e;
}

/* Whether transcript lines p[s, e) open with a question of who, what,
 * when, where, why, which or how. */
static bool wh_question(const char *p, size_t s, size_t e)
{
	static const char *const wh[] = { "who", "what", "when", "where", "why", "which", "how",
					  "whom", "whose" };
	size_t le = s;
	while (le < e && p[le] != '\n')
		le++;
	size_t a = sw__verify_line_words(p, s, le);
	if (le - a < 3 || p[a] != 'Q' || p[a + 1] != '.')
		return false;
	a += 2;
	while (a < le && p[a] == ' ')
		a++;
	for (size_t k = 0; k < SW_ARRAY_LEN(wh); k++) {
		size_t n = strlen(wh[k]);
		if (le - a > n && strncasecmp(p + a, wh[k], n) == 0 &&
		    !isalpha((unsigned char)p[a + n]))
			return true;
	}
	return false;
}

/* Where the next question of transcript lines p[s, e) starts, past the
 * line at s: its line's start, or e. */
static size_t next_question(const char *p, size_t s, size_t e)
{
	size_t i = s;
	while (i < e && p[i] != '\n')
		i++;
	while (i < e) {
		i++;
		size_t le = i;
		while (le < e && p[le] != '\n')
			le++;
		size_t a = sw__verify_line_words(p, i, le);
		if (le - a > 2 && p[a] == 'Q' && p[a + 1] == '.')
			return i;
		i = le;
	}
	return e;
}

/* Where the first answer of transcript lines p[s, e) starts: past its
 * "A."; e when there is none. */
static size_t answer_at(const char *p, size_t s, size_t e)
{
	for (size_t i = s; i < e;) {
		size_t le = i;
		while (le < e && p[le] != '\n')
			le++;
		size_t a = sw__verify_line_words(p, i, le);
		if (le - a > 2 && p[a] == 'A' && p[a + 1] == '.')
			return a + 2;
		i = le + 1;
	}
	return e;
}

/* Where a clause of t ends at i: ", and ", ", but ", "; " (a sentence of
 * two clauses says two things, each with its own polarity).  The length of
 * the separator, or 0. */
static size_t clause_break(const char *t, size_t i, size_t e)
{
	static const char *const seps[] = { ", and ", ", but ", "; ", ", while ", ", whereas " };
	for (size_t k = 0; k < SW_ARRAY_LEN(seps); k++) {
		size_t n = strlen(seps[k]);
		if (i + n <= e && strncmp(t + i, seps[k], n) == 0)
			return n;
	}
	return 0;
}

static char *polarity_span(struct sw__verify_run *u, const struct sw_claim *c, size_t cs,
			   size_t ce, const int64_t *pages, size_t np,
			   const struct sw__verify_range *sp, size_t nsp);

char *sw__verify_polarity(struct sw__verify_run *u, const struct sw_claim *c, const int64_t *pages,
			  size_t np, const struct sw__verify_sentence *sn)
{
	/* each clause on its own: "X, and Redhawk has no contract with Y"
	 * denies only the contract */
	const char *t = u->r->text;
	size_t s = c->start;
	char *why = NULL;
	for (size_t i = c->start; i <= c->end && !why && !u->err.code; i++) {
		size_t n = i < c->end ? clause_break(t, i, c->end) : 0;
		if (i < c->end && !n)
			continue;
		why = polarity_span(u, c, s, i, pages, np, sn->sp, sn->nsp);
		s = i + n;
		i = s > i ? s - 1 : i;
	}
	return why;
}

/* Up to max stems of the content words after word w in t[s, e), into st;
 * false when w is not there. */
static bool stems_after(const char *t, size_t s, size_t e, const char *w, size_t max,
			struct sw__verify_stems *st)
{
	size_t n = strlen(w);
	st->n = 0;
	for (size_t i = s; i + n <= e; i++) {
		if (strncasecmp(t + i, w, n) != 0 || (i > s && isalpha((unsigned char)t[i - 1])) ||
		    (i + n < e && isalpha((unsigned char)t[i + n])))
			continue;
		sw__verify_stems_of(t, i + n, e, max, st);
		return true;
	}
	return false;
}

/* Whether the sentence t[s, e) does "without" what passage p makes a
 * condition ("unless", "except", "only if"): two of the words after
 * each the same. */
static bool waived(const char *t, size_t s, size_t e, const char *p)
{
	static const char *const conds[] = { "unless", "except", "only if", "only by",
					     "only with", "only upon" };
	/* "no credit without notice" denies as the page does */
	for (size_t i = s; i < e;) {
		while (i < e && !isalpha((unsigned char)t[i]))
			i++;
		size_t b = i;
		while (i < e && (isalpha((unsigned char)t[i]) || t[i] == '\''))
			i++;
		char word[16];
		size_t l = i - b < sizeof(word) - 1 ? i - b : sizeof(word) - 1;
		for (size_t x = 0; x < l; x++)
			word[x] = (char)tolower((unsigned char)t[b + x]);
		word[l] = '\0';
		if (l && strcmp(word, "without") != 0 && sw__verify_negation(t, i, e, word))
			return false;
	}
	struct sw__verify_stems *w = sw_xcalloc(2, sizeof(*w)), *c = w + 1;
	bool hit = false;
	if (stems_after(t, s, e, "without", 4, w))
		for (size_t k = 0; k < SW_ARRAY_LEN(conds) && !hit; k++)
			hit = stems_after(p, 0, strlen(p), conds[k], 8, c) &&
			      sw__verify_shared_stems(w, c) >= 2;
	free(w);
	return hit;
}

/* Whether passage s sets a condition: "when", "upon", "unless",
 * "provided", "only if", "until". */
static bool conditional(const char *s)
{
	static const char *const words[] = { "when", "upon", "unless", "provided", "until",
					     "conditioned", "contingent", "only if" };
	return sw__verify_has_any(s, strlen(s), words, SW_ARRAY_LEN(words));
}

/* A line of a cited page that labels a thing of the sentence with none
 * of it ("Crane: not used", "Credit applied: none"): the reason, or NULL. */
static char *none_line(struct sw__verify_run *u, const int64_t *pages, size_t np,
		       const struct sw__verify_reading *sent)
{
	static const char *const nones[] = { "none", "not used", "no", "n/a", "not applicable",
					     "nil", "not provided", "not performed" };
	for (size_t q = 0; q < np && !u->err.code; q++) {
		struct sw_err e = { 0 };
		if (!sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e), &e))
			continue;
		const char *p = u->page.data;
		size_t len = u->page.len;
		for (size_t i = 0; i < len;) {
			size_t le = i;
			while (le < len && p[le] != '\n')
				le++;
			size_t a = i;
			while (a < le && p[a] == ' ')
				a++;
			const char *colon = memchr(p + a, ':', le - a);
			size_t z = le;
			while (z > a && (p[z - 1] == ' ' || p[z - 1] == '\r' || p[z - 1] == '.'))
				z--;
			if (colon && (size_t)(colon - p) - a <= 30 && colon > p + a) {
				size_t v = (size_t)(colon - p) + 1;
				while (v < z && p[v] == ' ')
					v++;
				bool none = false;
				for (size_t k = 0; k < SW_ARRAY_LEN(nones) && !none; k++)
					none = z - v == strlen(nones[k]) &&
					       strncasecmp(p + v, nones[k], z - v) == 0;
				/* the label's words, one of them a content word of
				 * the sentence that names no one */
				bool ours = false;
				for (size_t w = a; none && w < (size_t)(colon - p) && !ours;) {
					while (w < (size_t)(colon - p) &&
					       !isalpha((unsigned char)p[w]))
						w++;
					size_t we = w;
					while (we < (size_t)(colon - p) &&
					       isalpha((unsigned char)p[we]))
						we++;
					char wd[24];
					size_t n =
						we - w < sizeof(wd) - 1 ? we - w : sizeof(wd) - 1;
					for (size_t k = 0; k < n; k++)
						wd[k] = (char)tolower((unsigned char)p[w + k]);
					wd[n] = '\0';
					if (n >= 4) {
						sw__verify_stem(wd);
						ours = sw__verify_has_stem(&sent->st, wd) &&
						       !sw__verify_has_stem(&sent->named, wd);
					}
					w = we;
				}
				if (none && ours) {
					char *pn = sw__verify_page_name(u, pages[q]);
					char *why = sw_xasprintf(
						"the sentence affirms what %s denies: \"%.*s\"", pn,
						(int)(z - a), p + a);
					free(pn);
					return why;
				}
			}
			i = le < len ? le + 1 : len;
		}
	}
	return NULL;
}

static char *polarity_span(struct sw__verify_run *u, const struct sw_claim *c, size_t cs,
			   size_t ce, const int64_t *pages, size_t np,
			   const struct sw__verify_range *sp, size_t nsp)
{
	const char *t = u->r->text;
	struct sw__verify_reading *sent = sw_xcalloc(3, sizeof(*sent)), *best_rd = sent + 1, *rd = sent + 2;
	size_t best = 0, best_plain = 0;
	int64_t bpage = -1;
	char *said = NULL, *why = NULL, *wait = NULL;
	int64_t wait_page = -1;
	struct sw__verify_name nm[8];
	size_t nnm = sw__verify_names(t, cs, ce, sp, nsp, nm, SW_ARRAY_LEN(nm));
	struct sw__verify_text tx;
	struct sw_buf joined = SW_BUF_INIT, pinbuf = SW_BUF_INIT;
	sw__verify_text_init(&tx);
	sw__verify_read_words(t, cs, ce, sp, nsp, sent, nm, nnm);
	if (sent->st.n < 2 || sent->cond || quotes(u, c))
		goto done;
	/* a pin across a page break (5:24-6:3): its lines read as one run, so
	 * that the question on one page meets its answer on the next */
	bool multi = np > 1;
	for (size_t q = 0; q < np && multi && !u->err.code; q++) {
		long l0, l1;
		struct sw_err e = { 0 };
		size_t s0 = 0, e0 = 0;
		multi = sw__verify_pin_of(u, c, pages[q], &l0, &l1) &&
			sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e),
					 &e) &&
			sw__verify_lines_of(u->page.data, u->page.len, l0, l1, &s0, &e0);
		if (multi) {
			sw_buf_add(&pinbuf, u->page.data + s0, e0 - s0);
			sw_buf_addc(&pinbuf, '\n');
		}
	}
	for (size_t q = 0; q < (multi ? 1 : np) && !u->err.code; q++) {
		struct sw_err e = { 0 };
		long l0 = 0, l1 = 0;
		bool pinned = multi || sw__verify_pin_of(u, c, pages[q], &l0, &l1);
		const char *p;
		size_t len, s = 0, en = 0; /* s, en: set when sw__verify_lines_of says yes */
		if (multi) {
			p = pinbuf.data;
			len = pinbuf.len;
		} else if (!pinned && np > 1 && sw__verify_text_read(u, &tx, pages[q], true)) {
			/* pages cited together: a sentence runs on to the next
			 * (the join's blank lines are no paragraph end) */
			size_t fl = tx.first_len, a = fl, b = fl;
			while (a > 0 && isspace((unsigned char)tx.text.data[a - 1]))
				a--;
			while (b < tx.text.len && isspace((unsigned char)tx.text.data[b]))
				b++;
			sw_buf_reset(&joined);
			sw_buf_add(&joined, tx.text.data, a);
			if (b < tx.text.len) {
				sw_buf_addc(&joined, ' ');
				sw_buf_add(&joined, tx.text.data + b, tx.text.len - b);
			}
			p = joined.data;
			len = joined.len;
		} else if (sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e), &e)) {
			p = u->page.data;
			len = u->page.len;
		} else {
			continue;
		}
		/* a transcript's pin: each question with its answer is a unit,
		 * cut after a bare "A. No." that the answer goes on from */
		bool started = false, second = false;
		size_t unit_end = 0;
		for (size_t i = 0; i < len;) {
			size_t j = i;
			if (pinned) {
				if (!started) {
					if (multi) {
						s = 0;
						en = len;
					} else if (!sw__verify_lines_of(p, len, l0, l1, &s, &en)) {
						break;
					}
					i = s;
					started = true;
				}
				if (!second) {
					unit_end = next_question(p, i, en);
					j = answer_split(p, i, unit_end);
				} else {
					j = unit_end; /* what the answer goes on to say */
				}
			} else {
				/* a passage runs over its line ends (a sentence
				 * wrapped), not over a blank line or a header's */
				while (j < len && !(p[j] == '\n' && (j + 1 == len || p[j + 1] == '\n' ||
								   label_line(p, j))) &&
				       !((p[j] == '.' || p[j] == '?' || p[j] == '!' || p[j] == ';') &&
					 (j + 1 == len || p[j + 1] == ' ' || p[j + 1] == '\n')) &&
				       !(p[j] == ',' && clause_break(p, j, len)))
					j++;
			}
			/* "Q. Who drove the trucks?  A. Keel Transport's
			 * drivers.": a question of who or what asserts
			 * nothing; its answer's words are the passage */
			size_t i0 = i;
			if (pinned && !second && wh_question(p, i, j))
				i = answer_at(p, i, j);
			size_t n = sw__verify_shared(&sent->st, p, i, j, rd);
			size_t plain_n = n - sw__verify_shared_stems(&sent->named, &rd->st);
			/* the passage that shares the most, then the most that
			 * are no names */
			/* "will not erect them until your engineer inspects
			 * them": the sentence's act, made to wait */
			if (!wait && rd->neg && rd->until && sent->already && !sent->neg &&
			    sw__verify_shared_stems(&rd->targets, &sent->st) > 0) {
				wait = pinned ? without_numbers(p + i0, j - i0) :
						sw_xstrndup(p + i, j - i);
				wait_page = pages[q];
			}
			if (n > best || (n == best && n && plain_n > best_plain)) {
				best = n;
				best_plain = plain_n;
				bpage = pages[q];
				*best_rd = *rd;
				free(said);
				said = pinned ? without_numbers(p + i0, j - i0) :
						sw_xstrndup(p + i, j - i);
			}
			if (pinned && !second && j < unit_end) {
				second = true;
				i = j;
				continue;
			}
			if (pinned && unit_end < en) {
				second = false;
				i = unit_end;
				continue;
			}
			if (pinned)
				break;
			i = j + 1;
		}
	}
	if (wait && !u->err.code) {
		char *pn = sw__verify_page_name(u, wait_page);
		char *ex = sw__verify_excerpt(wait, strlen(wait), 0, strlen(wait));
		why = sw_xasprintf("the sentence says done what %s says waits: \"%s\"", pn, ex);
		free(ex);
		free(pn);
		goto done;
	}
	size_t plain_stems = sent->st.n - sent->named.n;
	bool clear = best_plain >= 1 && (best >= 3 || (best >= 2 && best * 2 >= plain_stems));
	/* "Crane: not used" on the page, the sentence's "worked with the
	 * crane": a labelled line that says none of a thing the sentence has */
	if (!sent->neg && !u->err.code && (why = none_line(u, pages, np, sent)) != NULL)
		goto done;
	if (!said || !clear)
		goto done;
	/* "did not condition payment on a release" and the page's "will pay
	 * ... when Redhawk delivers ... a release": a condition denied that
	 * the page sets */
	if (sent->neg && sw__verify_has_stem(&sent->targets, "condit") && conditional(said)) {
		char *pn = sw__verify_page_name(u, bpage);
		char *ex = sw__verify_excerpt(said, strlen(said), 0, strlen(said));
		why = sw_xasprintf("the sentence denies a condition %s sets: \"%s\"", pn, ex);
		free(ex);
		free(pn);
		goto done;
	}
	/* "no credit until they pay" and the sentence's "credit before they
	 * paid": the one thing a condition plainly denies */
	bool before = best_rd->until && sent->before && !sent->neg;
	/* "binds without a written change order" and the page's "no change
	 * binds unless ... in a written change order": the condition waived */
	if (best_rd->cond && best_rd->neg && waived(t, cs, ce, said)) {
		char *pn = sw__verify_page_name(u, bpage);
		char *ex = sw__verify_excerpt(said, strlen(said), 0, strlen(said));
		why = sw_xasprintf("the sentence does without what %s requires: \"%s\"", pn, ex);
		free(ex);
		free(pn);
		goto done;
	}
	if (best_rd->cond && !before)
		goto done;
	/* a negation counts when the other side says the word it bears on */
	bool sneg = sent->neg && sw__verify_shared_stems(&sent->targets, &best_rd->st) > 0;
	bool pneg = best_rd->neg &&
		    (best_rd->all || sw__verify_shared_stems(&best_rd->targets, &sent->st) > 0);
	bool flip = sw__verify_opposed(&sent->st, &best_rd->st) > 0 && sent->neg == best_rd->neg;
	if (before || flip) {
		char *pn = sw__verify_page_name(u, bpage);
		char *ex = sw__verify_excerpt(said, strlen(said), 0, strlen(said));
		why = before ? sw_xasprintf("the sentence says before what %s makes wait until: "
					    "\"%s\"", pn, ex)
			     : sw_xasprintf("the sentence says the opposite of what %s says: \"%s\"",
					    pn, ex);
		free(ex);
		free(pn);
	} else if ((sneg && !best_rd->neg) || (pneg && !sent->neg)) {
		char *pn = sw__verify_page_name(u, bpage);
		char *ex = sw__verify_excerpt(said, strlen(said), 0, strlen(said));
		why = sw_xasprintf("the sentence %s what %s %s: \"%s\"",
				   sneg ? "denies" : "affirms", pn, sneg ? "says" : "denies", ex);
		free(ex);
		free(pn);
	}
done:
	sw__verify_text_release(&tx);
	sw_buf_release(&joined);
	sw_buf_release(&pinbuf);
	free(said);
	free(wait);
	free(sent);
	return why;
}
