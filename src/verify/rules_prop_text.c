/*
 * rules_prop_text.c - what the proposition rules (rules_prop.c) read in
 * words: a transcript's pinned lines as one run, a number as a page may
 * write it in words, a document's headings, a name no page holds, the
 * cited pages' names with their pins, and a sentence that denies a page
 * mentions a fact.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "verify/rules_int.h"

void sw__verify_lines_read(struct sw__verify_lines *l, const char *p, size_t s, size_t e)
{
	l->text = sw_xmalloc(e - s + 1);
	l->map = sw_xcalloc(e - s + 1, sizeof(*l->map));
	l->len = 0;
	for (size_t i = s; i < e;) {
		size_t le = i;
		while (le < e && p[le] != '\n')
			le++;
		size_t k = sw__verify_line_words(p, i, le);
		size_t te = le;
		while (te > k && p[te - 1] == ' ')
			te--;
		if (te > k && l->len) {
			l->map[l->len] = k;
			l->text[l->len++] = ' ';
		}
		for (; k < te; k++) {
			l->map[l->len] = k;
			l->text[l->len++] = p[k];
		}
		i = le + 1;
	}
	l->map[l->len] = e;
	l->text[l->len] = '\0';
}

void sw__verify_lines_release(struct sw__verify_lines *l)
{
	free(l->text);
	free(l->map);
	memset(l, 0, sizeof(*l));
}

/* The words a page may write fact f's whole number with, as the search
 * tokenizer cuts them ("fifty-two thousand" is "fifty two thousand"), into
 * b; nothing for an identifier, cents or a number under two. */
static void words_of(struct sw_buf *b, int64_t n)
{
	static const char *const ones[] = {
		"", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
		"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
		"eighteen", "nineteen",
	};
	static const char *const tens[] = { "", "", "twenty", "thirty", "forty", "fifty",
					    "sixty", "seventy", "eighty", "ninety" };
	static const struct { int64_t v; const char *w; } scales[] = {
		{ 1000000000, "billion" }, { 1000000, "million" }, { 1000, "thousand" },
		{ 100, "hundred" },
	};
	for (size_t k = 0; k < SW_ARRAY_LEN(scales); k++)
		if (n >= scales[k].v) {
			words_of(b, n / scales[k].v);
			sw_buf_addf(b, " %s", scales[k].w);
			n %= scales[k].v;
		}
	if (n >= 20) {
		sw_buf_addf(b, "%s%s", b->len ? " " : "", tens[n / 10]);
		n %= 10;
	}
	if (n > 0)
		sw_buf_addf(b, "%s%s", b->len ? " " : "", ones[n]);
}

void sw__verify_fact_words(struct sw_buf *b, const struct sw_claim_fact *f)
{
	if (f->kind != SW_FACT_IDENTIFIER && f->kind != SW_FACT_DATE && f->value % 100 == 0 &&
	    f->value >= 200 && f->value < (int64_t)1000000000000 * 100)
		words_of(b, f->value / 100);
}

/* Whether [at, ...) of page text p is in a heading of its document: one of
 * the first three lines of its first page ("INVOICE 8812"), or a line of a
 * label and its value ("Purchase order: PO 4471", "Re: ...", "Subject:
 * ..."), where a document names what it is about. */
bool sw__verify_heading(const char *p, size_t len, size_t at, bool first_page)
{
	if (at > len)
		return false;
	size_t ls = at;
	while (ls > 0 && p[ls - 1] != '\n')
		ls--;
	if (first_page) {
		size_t lines = 0;
		for (size_t i = 0; i < ls; i++)
			if (p[i] == '\n' && i > 0 && p[i - 1] != '\n')
				lines++;
		if (lines < 3)
			return true;
	}
	size_t i = ls, words = 0;
	while (i < at && i < ls + 32 && p[i] == ' ')
		i++;
	while (i < at && i < ls + 32) {
		if (p[i] == ':')
			return words > 0 && words <= 3;
		if (isalpha((unsigned char)p[i]) && (i == ls || p[i - 1] == ' '))
			words++;
		else if (!isalpha((unsigned char)p[i]) && p[i] != ' ')
			return false;
		i++;
	}
	return false;
}

/* Whether name nm (of two words or more, each of two letters or more) has
 * no word that any evidence page holds. */
bool sw__verify_unknown_name(struct sw__verify_run *u, const char *t, const struct sw__verify_name *nm)
{
	size_t words = 0;
	for (size_t k = 0; k < nm->n; k++)
		words += nm->te[k] - nm->ts[k] >= 2;
	if (words < 2 || words != nm->n)
		return false;
	for (size_t k = 0; k < nm->n && !u->err.code; k++) {
		char w[32];
		size_t n = 0;
		for (size_t j = nm->ts[k]; j < nm->te[k] && n + 1 < sizeof(w); j++)
			if (isalpha((unsigned char)t[j]))
				w[n++] = (char)tolower((unsigned char)t[j]);
		w[n] = '\0';
		const char *ph[1] = { w };
		int64_t *hits = NULL;
		size_t nh = 0;
		struct sw_err e = { 0 };
		bool ok = sw__verify_found(u, sw_record_find_pages(&hits, &nh, u->m, ph, 1, 1, &e), &e);
		free(hits);
		if (!ok || nh > 0)
			return false;
	}
	return !u->err.code;
}

/* The cited pages' names for reasons, a transcript page with the lines
 * its citation pins ("Smith Dep. 4:14-15").  Caller frees. */
char *sw__verify_where(struct sw__verify_run *u, const struct sw_claim *c, const int64_t *pages,
		      size_t np)
{
	struct sw_buf b = SW_BUF_INIT;
	bool pinned = false;
	for (size_t q = 0; q < np && q < 4 && !u->err.code; q++) {
		struct sw_err e = { 0 };
		char *pn = sw__verify_page_name(u, pages[q]);
		long l0 = 0, l1 = 0;
		size_t s, en;
		bool pin = sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e), &e) &&
			   sw__verify_pin(u, c, pages[q], u->page.data, u->page.len, &s, &en, &l0, &l1) &&
			   l0 > 0 && l1 < 100000;
		pinned |= pin;
		sw_buf_addf(&b, "%s%s", b.len ? ", " : "", pn ? pn : "?");
		if (pin && l1 > l0)
			sw_buf_addf(&b, ":%ld-%ld", l0, l1);
		else if (pin)
			sw_buf_addf(&b, ":%ld", l0);
		free(pn);
	}
	if (!pinned) {
		sw_buf_release(&b);
		return sw__verify_pages_name(u, pages, np);
	}
	if (np > 4)
		sw_buf_addf(&b, " and %zu more", np - 4);
	return sw_buf_detach(&b, NULL);
}

/* Whether the sentence denies that its page mentions fact f: "does not
 * reference PO 4471", "never mentions", "doesn't list". */
bool sw__verify_denied_mention(const char *t, size_t s, const struct sw_claim_fact *f)
{
	static const char *const verbs[] = {
		"reference", "references", "mention", "mentions", "list", "lists", "show", "shows",
		"include", "includes", "name", "names", "identify", "identifies", "cite", "cites",
		"contain", "contains", NULL,
	};
	size_t i = f->start, words = 0;
	char w[2][16];
	while (words < 2 && i > s) {
		while (i > s && t[i - 1] == ' ')
			i--;
		if (words == 0 && i > s + 3 && (t[i - 1] == 'o' && t[i - 2] == 't' && t[i - 3] == ' '))
			i -= 3; /* "refer to" */
		size_t e = i;
		while (i > s && (isalpha((unsigned char)t[i - 1]) || t[i - 1] == '\''))
			i--;
		if (e == i || e - i >= sizeof(w[0]))
			return false;
		for (size_t k = 0; k < e - i; k++)
			w[words][k] = (char)tolower((unsigned char)t[i + k]);
		w[words][e - i] = '\0';
		if (words == 0 && !strcmp(w[0], "refer")) {
			words++;
			snprintf(w[0], sizeof(w[0]), "reference");
			continue;
		}
		words++;
	}
	if (words < 2)
		return false;
	bool verb = false;
	for (const char *const *v = verbs; *v && !verb; v++)
		verb = !strcmp(w[0], *v);
	size_t n = strlen(w[1]);
	return verb && (!strcmp(w[1], "not") || !strcmp(w[1], "never") ||
			(n > 3 && !strcmp(w[1] + n - 3, "n't")));
}
