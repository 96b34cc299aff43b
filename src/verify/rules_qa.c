/*
 * rules_qa.c - a witness's yes or no.  A transcript's cited lines hold
 * questions a witness answers "Yes", "No", "I did", "I didn't": the answer
 * says the question's content is so, or is not ("Q. Did you tell Carver
 * that?  A. I didn't.").  A sentence that says every content word of such a
 * question (two or more; of the witness when the question asks "you") the
 * other way from the answer is contradicted, quoting both.  An answer that
 * is no plain yes or no ("I don't recall", "Keel Transport's drivers"), a
 * question of alternatives or a negated one, and a sentence whose negation
 * bears on other words are left alone: the rule speaks only when the page
 * plainly answers the sentence's own question the other way.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verify/rules_int.h"

#define QA_BACK 4    /* lines read back for the question of a cited answer */
#define QA_PAIRS 16  /* question-and-answer pairs read of one citation */
#define QA_QUOTE 160 /* bytes of a question or answer quoted */

struct qa {
	size_t qs, qe, as, ae; /* the question's and the answer's words, in the page */
};

/* The first word of p[i, e), folded, into w. */
static size_t first_word(const char *p, size_t i, size_t e, char *w, size_t cap)
{
	while (i < e && !isalpha((unsigned char)p[i]))
		i++;
	size_t k = 0, b = i;
	while (i < e && (isalpha((unsigned char)p[i]) || p[i] == '\'')) {
		if (k + 1 < cap)
			w[k++] = (char)tolower((unsigned char)p[i]);
		i++;
	}
	w[k] = '\0';
	return i > b ? i : e;
}

static bool word_in(const char *w, const char *const *list, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (strcmp(w, list[k]) == 0)
			return true;
	return false;
}

/* Whether p[s, e) holds word w (folded) as a whole word. */
static bool has_word(const char *p, size_t s, size_t e, const char *w)
{
	size_t n = strlen(w);
	for (size_t i = s; i + n <= e; i++)
		if ((i == s || !isalpha((unsigned char)p[i - 1])) &&
		    strncasecmp(p + i, w, n) == 0 &&
		    (i + n == e || !isalpha((unsigned char)p[i + n])))
			return true;
	return false;
}

/* Whether question p[s, e) asks yes or no: "Did ...", "Was ...", and
 * not "... or ...?" (which of two) nor "Didn't you ...?". */
static bool yes_no(const char *p, size_t s, size_t e)
{
	static const char *const aux[] = { "did",  "do",    "does",  "was",  "were",
					   "is",   "are",   "has",   "have", "had",
					   "will", "would", "could", "can",  "should" };
	char w[16];
	first_word(p, s, e, w, sizeof(w));
	return word_in(w, aux, SW_ARRAY_LEN(aux)) && !has_word(p, s, e, "or") &&
	       !has_word(p, s, e, "not") && !strstr(w, "n't");
}

/* The answer p[s, e)'s first clause as a yes (1), a no (-1) or neither
 * (0): "No, none." and "I didn't." are no, "Yes, on March 3" and "I did."
 * yes, "I don't recall" and "Keel Transport's drivers" neither. */
static int answer_sign(const char *p, size_t s, size_t e)
{
	static const char *const unsure[] = { "recall",	  "remember", "know",	  "sure",
					      "think",	  "believe",  "aware",	  "guess",
					      "maybe",	  "probably", "possibly", "depends",
					      "sometimes" };
	static const char *const yes[] = { "yes",   "yeah", "yep",	  "correct",
					   "right", "sure", "absolutely", "certainly" };
	static const char *const subj[] = { "i", "we", "he", "she", "it", "they" };
	static const char *const verb[] = { "did", "do",  "does", "was", "were",
					    "is",  "are", "have", "has", "had" };
	/* "No, I don't recall": unsure anywhere in the first sentence */
	size_t stop = s;
	while (stop < e && p[stop] != '.' && p[stop] != '?' && p[stop] != '!')
		stop++;
	char w[24], w2[24];
	for (size_t i = s; i < stop;) {
		size_t n = first_word(p, i, stop, w, sizeof(w));
		if (!w[0])
			break;
		if (word_in(w, unsure, SW_ARRAY_LEN(unsure)))
			return 0;
		i = n;
	}
	size_t c = s;
	while (c < stop && p[c] != ',' && p[c] != ';')
		c++;
	/* "No.", "No one from Carver came", "Never.": a no from its first word */
	size_t n = first_word(p, s, c, w, sizeof(w));
	if (!w[0])
		return 0;
	if (sw__verify_negation(p, n, c, w) || !strcmp(w, "nope"))
		return -1;
	if (word_in(w, yes, SW_ARRAY_LEN(yes)))
		return 1;
	/* a short clause: "I didn't.", "It was not.", "I did.", "We have." */
	size_t words = 0;
	for (size_t i = s; i < c;) {
		size_t x = first_word(p, i, c, w2, sizeof(w2));
		if (!w2[0])
			break;
		if (sw__verify_negation(p, x, c, w2))
			return words < 3 ? -1 : 0;
		words++;
		i = x;
	}
	first_word(p, n, c, w2, sizeof(w2));
	return words == 2 && word_in(w, subj, SW_ARRAY_LEN(subj)) &&
	       word_in(w2, verb, SW_ARRAY_LEN(verb));
}

/* Whether line words p[a, le) go on with the question before them: the
 * examiner's "You may answer." after an objection. */
static bool go_on(const char *p, size_t a, size_t le)
{
	static const char *const on[] = { "you may answer", "you can answer", "go ahead",
					  "please answer" };
	for (size_t k = 0; k < SW_ARRAY_LEN(on); k++) {
		size_t n = strlen(on[k]);
		if (le - a >= n && strncasecmp(p + a, on[k], n) == 0)
			return true;
	}
	return false;
}

/* The question-and-answer pairs of transcript text p[s, e), in *out. */
static size_t pairs(const char *p, size_t s, size_t e, struct qa *out, size_t max)
{
	size_t n = 0;
	struct qa cur = { 0 };
	int in = 0; /* 1: in a question, 2: in its answer */
	for (size_t i = s; i < e && n < max;) {
		size_t le = i;
		while (le < e && p[le] != '\n')
			le++;
		size_t a = sw__verify_line_words(p, i, le);
		bool q = le - a > 2 && p[a] == 'Q' && p[a + 1] == '.';
		bool ans = le - a > 2 && p[a] == 'A' && p[a + 1] == '.';
		/* "MR. DUNN:  Objection, form.": colloquy, no one's answer */
		const char *colon = a < le ? memchr(p + a, ':', le - a) : NULL;
		bool talk = !q && !ans && colon && colon - (p + a) < 24 &&
			    isupper((unsigned char)p[a]) && isupper((unsigned char)p[a + 1]);
		if (q && in == 1 && go_on(p, a + 2 + (p[a + 2] == ' '), le)) {
			/* the question stands; its answer is next */
		} else if (q) {
			if (in == 2)
				out[n++] = cur;
			cur = (struct qa){ .qs = a + 2, .qe = le };
			in = 1;
		} else if (ans && in == 1) {
			cur.as = a + 2;
			cur.ae = le;
			in = 2;
		} else if (ans || talk) {
			if (in == 2)
				out[n++] = cur;
			in = talk && in == 1 ? 1 : 0;
		} else if (in == 1 && !talk) {
			cur.qe = le;
		} else if (in == 2) {
			cur.ae = le;
		}
		i = le < e ? le + 1 : e;
	}
	if (in == 2 && n < max)
		out[n++] = cur;
	return n;
}

/* Bytes [s, e) of p as one line of words, without margins and line
 * numbers, at most QA_QUOTE bytes, into b. */
static void quote_of(struct sw_buf *b, const char *p, size_t s, size_t e)
{
	sw_buf_reset(b);
	for (size_t i = s; i < e;) {
		size_t le = i;
		while (le < e && p[le] != '\n')
			le++;
		size_t k = i == s ? s : sw__verify_line_words(p, i, le);
		while (k < le && p[k] == ' ')
			k++;
		if (k < le) {
			if (b->len)
				sw_buf_addc(b, ' ');
			sw_buf_add(b, p + k, le - k);
		}
		i = le + 1;
	}
	if (b->len > QA_QUOTE) {
		b->len = QA_QUOTE;
		sw_buf_adds(b, "...");
	}
}

/* Whether the sentence t[s, e) (its stems st) says every stem of q: a
 * word the reading leaves out as a report's ("wrote" of "Smith wrote
 * that") is the question's content when the question asks it ("Did you
 * write ..."). */
static bool all_said(const char *t, size_t s, size_t e, const struct sw__verify_stems *q,
		     const struct sw__verify_stems *st)
{
	struct sw__verify_stems all = { 0 };
	sw__verify_stems_of(t, s, e, SW__VERIFY_STEMS, &all);
	for (size_t k = 0; k < q->n; k++)
		if (!sw__verify_has_stem(st, q->w[k]) && !sw__verify_has_stem(&all, q->w[k]))
			return false;
	return true;
}

/* Whether the sentence t[s, e) speaks of the witness: the name, or "I",
 * "we", "he", "she". */
static bool of_witness(const char *t, size_t s, size_t e, const char *witness)
{
	static const char *const pron[] = { "i", "we", "he", "she", "witness", "deponent" };
	if (witness[0] && has_word(t, s, e, witness))
		return true;
	for (size_t k = 0; k < SW_ARRAY_LEN(pron); k++)
		if (has_word(t, s, e, pron[k]))
			return true;
	return false;
}

/* The word after first ("Park" of "Nina Park") on a page of page's
 * document, into last; false when the document writes first alone. */
static bool full_name(struct sw__verify_run *u, int64_t page, const char *first, char *last,
		      size_t cap)
{
	struct sw_record_page pg = { 0 };
	struct sw_err e = { 0 };
	if (!sw__verify_found(u, sw_record_page_by_id(&pg, u->m, page, &e), &e))
		return false;
	int64_t doc = pg.doc_id;
	uint32_t count = pg.page_count;
	sw_record_page_release(&pg);
	size_t fl = strlen(first);
	for (uint32_t n = 1; n <= count && n <= 40 && !u->err.code; n++) {
		struct sw_record_page x = { 0 };
		bool ok = sw__verify_found(u, sw_record_doc_page(&x, u->m, doc, n, &e), &e) &&
			  sw__verify_found(u, sw_record_page_text(&u->page, u->m, x.id, &e), &e);
		sw_record_page_release(&x);
		const char *p = u->page.data;
		size_t len = ok ? u->page.len : 0;
		for (size_t i = 0; i + fl + 2 < len; i++) {
			if (strncmp(p + i, first, fl) != 0 ||
			    (i > 0 && isalpha((unsigned char)p[i - 1])) || p[i + fl] != ' ' ||
			    !isupper((unsigned char)p[i + fl + 1]))
				continue;
			size_t b = i + fl + 1, z = b;
			while (z < len && isalpha((unsigned char)p[z]))
				z++;
			if (z - b >= 2 && z - b < cap && islower((unsigned char)p[b + 1])) {
				snprintf(last, cap, "%.*s", (int)(z - b), p + b);
				return true;
			}
		}
	}
	return false;
}

/* Whether the sentence names someone (a name of two words or more) other
 * than by first. */
static bool names_another(const char *t, const struct sw__verify_sentence *sn, const char *first)
{
	for (size_t k = 0; k < sn->nnm; k++)
		if (sn->nm[k].n >= 2 && !has_word(t, sn->nm[k].s, sn->nm[k].e, first))
			return true;
	return false;
}

/* "Q. Who drove the trucks?  A. Keel Transport's drivers.": when the
 * sentence says every content word of a question of who (two or more) and
 * none of the name the answer opens with (two capitalised words or more),
 * the reason; else NULL.  A sentence that asks who itself is left alone. */
static char *who_answer(struct sw__verify_run *u, const struct sw_claim *c, int64_t page,
			const char *p, const struct qa *x, const struct sw__verify_sentence *sn,
			struct sw__verify_reading *qr)
{
	static const char *const not_names[] = { "I",  "We",  "Our",  "No", "Nobody", "The", "My",
						 "He", "She", "They", "It", "Yes",    "None" };
	const char *t = u->r->text;
	char w[16];
	first_word(p, x->qs, x->qe, w, sizeof(w));
	if (strcmp(w, "who") != 0 || has_word(t, c->start, c->end, "who") ||
	    has_word(t, c->start, c->end, "whether"))
		return NULL;
	sw__verify_read_words(p, x->qs, x->qe, NULL, 0, qr, NULL, 0);
	if (qr->st.n < 2 || !all_said(t, c->start, c->end, &qr->st, &sn->rd.st))
		return NULL;
	/* the answer's opening name: "Keel Transport's drivers" */
	size_t a = x->as;
	while (a < x->ae && !isalpha((unsigned char)p[a]))
		a++;
	size_t words = 0, i = a;
	bool named = false;
	while (i < x->ae && isupper((unsigned char)p[i])) {
		size_t b = i;
		while (i < x->ae && isalpha((unsigned char)p[i]))
			i++;
		bool plain = false;
		for (size_t k = 0; k < SW_ARRAY_LEN(not_names) && !plain; k++)
			plain = i - b == strlen(not_names[k]) &&
				!strncmp(p + b, not_names[k], i - b);
		if (plain)
			return NULL;
		char nw[32];
		size_t n = i - b < sizeof(nw) - 1 ? i - b : sizeof(nw) - 1;
		memcpy(nw, p + b, n);
		nw[n] = '\0';
		named |= n >= 3 && has_word(t, c->start, c->end, nw);
		words++;
		if (i + 2 < x->ae && p[i] == '\'' && p[i + 1] == 's')
			i += 2;
		if (i + 1 < x->ae && p[i] == ' ' && isupper((unsigned char)p[i + 1]))
			i++;
		else
			break;
	}
	/* "Nina did.": one word is a name when the transcript writes it with
	 * another ("Nina Park"), and then the sentence must name another */
	if (words == 1 && !named) {
		size_t b = a;
		while (b < x->ae && isalpha((unsigned char)p[b]))
			b++;
		char first[32];
		snprintf(first, sizeof(first), "%.*s", (int)(b - a), p + a);
		char last[32];
		bool full = full_name(u, page, first, last, sizeof(last));
		/* u->page held other pages: the pair's own again, for the
		 * caller as for the quotation */
		struct sw_err e = { 0 };
		if (!sw__verify_found(u, sw_record_page_text(&u->page, u->m, page, &e), &e))
			return NULL;
		p = u->page.data;
		if (!full || has_word(t, c->start, c->end, last) || !names_another(t, sn, first))
			return NULL;
	} else if (words < 2 || named) {
		return NULL;
	}
	struct sw_buf qb = SW_BUF_INIT, ab = SW_BUF_INIT;
	quote_of(&qb, p, x->qs, x->qe);
	quote_of(&ab, p, x->as, x->ae);
	char *pn = sw__verify_page_name(u, page);
	char *why = sw_xasprintf("the witness names another on %s: \"%s\" \"%s\"", pn, qb.data,
				 ab.data);
	free(pn);
	sw_buf_release(&qb);
	sw_buf_release(&ab);
	return why;
}

char *sw__verify_qa(struct sw__verify_run *u, const struct sw_claim *c, const int64_t *pages,
		    size_t np, const struct sw__verify_sentence *sn)
{
	const char *t = u->r->text;
	const struct sw__verify_reading *sent = &sn->rd;
	struct sw__verify_reading *qr = sw_xcalloc(1, sizeof(*qr));
	struct sw_buf qb = SW_BUF_INIT, ab = SW_BUF_INIT;
	char *why = NULL;
	if (sent->cond || sent->st.n < 2)
		goto done;
	for (size_t q = 0; q < np && !why && !u->err.code; q++) {
		long l0, l1;
		char witness[48];
		struct sw_err e = { 0 };
		size_t s, en;
		if (!sw__verify_pin_of(u, c, pages[q], &l0, &l1) ||
		    !sw__verify_witness(u, pages[q], witness, sizeof(witness)) ||
		    !sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e), &e))
			continue;
		const char *p = u->page.data;
		size_t len = u->page.len;
		/* a pin to an answer reads the question it answers too */
		long from = l0 > QA_BACK ? l0 - QA_BACK : 1;
		if (!sw__verify_lines_of(p, len, l0, l1, &s, &en))
			continue;
		size_t s0 = s, e0;
		for (long l = l0 - 1; l >= from; l--) {
			if (!sw__verify_lines_of(p, len, l, l, &s0, &e0))
				break;
			size_t a = sw__verify_line_words(p, s0, e0);
			if (e0 - a > 2 && p[a] == 'A' && p[a + 1] == '.')
				break;
			if (e0 - a > 2 && p[a] == 'Q' && p[a + 1] == '.') {
				s = s0;
				break;
			}
		}
		struct qa qa[QA_PAIRS];
		size_t n = pairs(p, s, en, qa, QA_PAIRS);
		for (size_t k = 0; k < n && !why; k++) {
			if (!sent->neg && (why = who_answer(u, c, pages[q], p, &qa[k], sn, qr)))
				break;
			/* who_answer may have read other pages of the transcript */
			p = u->page.data;
			if (!yes_no(p, qa[k].qs, qa[k].qe))
				continue;
			int sign = answer_sign(p, qa[k].as, qa[k].ae);
			if (!sign)
				continue;
			sw__verify_read_words(p, qa[k].qs, qa[k].qe, NULL, 0, qr, NULL, 0);
			/* "your" is the witness, no content */
			size_t keep = 0;
			for (size_t w = 0; w < qr->st.n; w++)
				if (strncmp(qr->st.w[w], "your", 4) != 0)
					memmove(qr->st.w[keep++], qr->st.w[w], sizeof(qr->st.w[0]));
			qr->st.n = keep;
			if (qr->st.n < 2 || !all_said(t, c->start, c->end, &qr->st, &sn->rd.st))
				continue;
			bool you = has_word(p, qa[k].qs, qa[k].qe, "you") ||
				   has_word(p, qa[k].qs, qa[k].qe, "your");
			if (you && !of_witness(t, c->start, c->end, witness))
				continue;
			bool sneg =
				sent->neg && sw__verify_shared_stems(&sent->targets, &qr->st) > 0;
			if (sent->neg && !sneg)
				continue; /* a negation of something else: not plain */
			if ((sneg ? -1 : 1) == sign)
				continue;
			char *pn = sw__verify_page_name(u, pages[q]);
			quote_of(&qb, p, qa[k].qs, qa[k].qe);
			quote_of(&ab, p, qa[k].as, qa[k].ae);
			why = sw_xasprintf("the sentence %s what the witness %s on %s: \"%s\" "
					   "\"%s\"",
					   sneg ? "denies" : "affirms", sneg ? "affirms" : "denies",
					   pn, qb.data, ab.data);
			free(pn);
		}
	}
done:
	sw_buf_release(&qb);
	sw_buf_release(&ab);
	free(qr);
	return why;
}
