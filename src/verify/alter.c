/* alter.c - what a quotation's alterations may do (quote_find.c matches, this
 * judges): which words are negations, which an insertion in brackets may
 * stand for, and the words a reason gives for an alteration ("the ellipsis
 * omits \"not\"", "[the carrier] stands for \"it\""). */
#include <string.h>

#include "verify/quote_int.h"

static const char *const negations[] = { "not", "no", "never", "cannot", "nor", "neither",
					 "without", "none", "nothing", "nobody" };

/* Whether folded word s (n bytes) is a negation: one of the list, or a
 * word ending in "n't" ("won't", "isn't"). */
static bool negation(const char *s, size_t n)
{
	for (size_t k = 0; k < SW_ARRAY_LEN(negations); k++)
		if (strlen(negations[k]) == n && memcmp(s, negations[k], n) == 0)
			return true;
	return n >= 4 && s[n - 1] == 't' && s[n - 2] == '\'' && s[n - 3] == 'n';
}

bool sw__verify_words_negated(const struct sw__words *w, size_t a, size_t b)
{
	for (size_t k = a; k < b && k < w->n; k++)
		if (negation(w->text + w->w[k].s, w->w[k].e - w->w[k].s))
			return true;
	return false;
}

bool sw__verify_text_negated(const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t l = sw__verify_quote_word_char(s + i, n - i);
		if (!l) {
			i++;
			continue;
		}
		size_t e = sw__verify_quote_word_end(s, n, i);
		if (negation(s + i, e - i))
			return true;
		i = e;
	}
	return false;
}

/* Words a bracketed insertion may stand for whatever it says: pronouns and
 * articles ("[the carrier]" for "it"), auxiliaries a change of tense
 * replaces ("[was]" for "is", "[could]" for "can"). */
static const char *const standins[] = { "he",    "she",   "it",    "they", "them", "his",
					"her",   "hers",  "its",   "their", "theirs", "this",
					"that",  "these", "those", "we",   "us",   "our",
					"ours",  "you",   "your",  "i",    "me",   "my",
					"him",   "who",   "whom",  "which", "there", "here",
					"the",   "a",     "an",    "one",  "such", "said",
					"is",    "was",   "are",   "were", "be",   "been",
					"has",   "have",  "had",   "do",   "does", "did",
					"can",   "could", "will",  "would", "shall", "should",
					"may",   "might", "must" };

static bool standin(const char *s, size_t n)
{
	for (size_t k = 0; k < SW_ARRAY_LEN(standins); k++)
		if (strlen(standins[k]) == n && memcmp(s, standins[k], n) == 0)
			return true;
	return false;
}

/* Whether folded word s (n) shares its stem with a word of bracket text b
 * (bn): "[approved]" for "approves", "[denied]" for "denies". */
static bool stem_in(const char *s, size_t n, const char *b, size_t bn)
{
	for (size_t i = 0; i < bn;) {
		size_t l = sw__verify_quote_word_char(b + i, bn - i);
		if (!l) {
			i++;
			continue;
		}
		size_t e = sw__verify_quote_word_end(b, bn, i), m = 0;
		while (m < n && i + m < e && s[m] == b[i + m])
			m++;
		if (m >= 4 || (m >= 3 && (m == n || i + m == e)))
			return true;
		i = e;
	}
	return false;
}

bool sw__verify_alter_may_stand_for(const struct sw__verify_item *it, const struct sw__words *w, size_t a,
			  size_t b)
{
	if (it->name)
		return true;
	bool all = true;
	for (size_t k = a; k < b; k++) {
		const char *x = w->text + w->w[k].s;
		size_t n = w->w[k].e - w->w[k].s;
		if (stem_in(x, n, it->p, it->plen))
			return true;
		all &= standin(x, n);
	}
	return all;
}

/* Words [a, b) of w as the text writes them, whitespace collapsed. */
static void add_words(struct sw_buf *b, const struct sw__words *w, const char *text, size_t a,
		      size_t e)
{
	if (a >= e)
		return;
	size_t s = w->map[w->w[a].s], t = sw__verify_words_end(w, e - 1);
	/* "Rule 56(c)": a parenthesis opened in the words closes with them. */
	long open = 0;
	for (size_t i = s; i < t; i++)
		open += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
	while (open-- > 0 && t < w->map[w->len] && text[t] == ')')
		t++;
	bool space = false;
	for (size_t i = s; i < t && b->len < 4096; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			space = true;
			continue;
		}
		if (space)
			sw_buf_addc(b, ' ');
		space = false;
		sw_buf_addc(b, (char)c);
	}
}

char *sw__verify_alter_describe(const struct sw__verify_pattern *p, const struct sw__words *w,
			 const char *text, const struct sw__verify_alter *a)
{
	const struct sw__verify_item *it = &p->it[a->gi];
	struct sw_buf b = SW_BUF_INIT;
	if (it->ellipsis) {
		sw_buf_adds(&b, "the ellipsis omits \"");
		add_words(&b, w, text, a->ws, a->we);
		sw_buf_adds(&b, "\" \xe2\x80\x94 the omission reverses the sentence");
		return sw_buf_detach(&b, NULL);
	}
	sw_buf_add(&b, p->quote + it->qs, it->qe - it->qs);
	if (a->ws == a->we) {
		sw_buf_adds(&b, " is not in the original");
	} else {
		sw_buf_adds(&b, " stands for \"");
		add_words(&b, w, text, a->ws, a->we);
		sw_buf_adds(&b, "\"");
	}
	bool bneg = sw__verify_text_negated(it->p, it->plen);
	if (bneg != sw__verify_words_negated(w, a->ws, a->we))
		sw_buf_adds(&b, bneg ? " \xe2\x80\x94 the bracket adds a negation"
				     : " \xe2\x80\x94 the bracket drops a negation");
	return sw_buf_detach(&b, NULL);
}
