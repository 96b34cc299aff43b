/*
 * rules_rowstate.c - what a list's row says of the one thing the sentence
 * names.  A page that lists things of one kind a row each ("NCR-041  Panel
 * P-20-03 ... Rejected", "NCR-042  Panel P-20-11 ... Repair and accept")
 * says each one's state on its own row.  A sentence that names one of
 * them and gives it a word its row lacks while a sibling's row has it
 * ("rejects panel P-20-11") takes the sibling's state: contradicted,
 * quoting both rows.  A sentence naming two of them, or words no sibling
 * row holds, is left alone.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verify/rules_int.h"

#define ROW_QUOTE 100 /* bytes of a row quoted */

/* The line of p[0, len) holding w (n bytes, case folded, not inside a
 * longer token) from *from on: its bounds, or false. */
static bool line_with(const char *p, size_t len, const char *w, size_t n, size_t *from, size_t *ls,
		      size_t *le)
{
	for (size_t i = *from; i + n <= len; i++) {
		if (strncasecmp(p + i, w, n) != 0 || (i > 0 && isalnum((unsigned char)p[i - 1])) ||
		    (i + n < len && isalnum((unsigned char)p[i + n])))
			continue;
		size_t a = i, b = i;
		while (a > 0 && p[a - 1] != '\n')
			a--;
		while (b < len && p[b] != '\n')
			b++;
		*ls = a;
		*le = b;
		*from = b;
		return true;
	}
	return false;
}

/* Whether line p[s, e) reads as a table's row: cells apart by a tab, a
 * pipe or two blanks, between words. */
static bool row_like(const char *p, size_t s, size_t e)
{
	size_t a = s;
	while (a < e && (p[a] == ' ' || p[a] == '\t'))
		a++;
	for (size_t i = a + 1; i + 2 < e; i++)
		if (p[i] == '\t' || p[i] == '|' ||
		    (p[i] == ' ' && p[i + 1] == ' ' && p[i - 1] != ' '))
			return true;
	return false;
}

/* Whether line p[s, e) holds a token that starts with prefix (n bytes)
 * and goes on with a digit: a sibling's name ("P-20-03" for "P-20-"). */
static bool sibling(const char *p, size_t s, size_t e, const char *prefix, size_t n)
{
	for (size_t i = s; i + n < e; i++)
		if ((i == s || !isalnum((unsigned char)p[i - 1])) &&
		    strncasecmp(p + i, prefix, n) == 0 && isdigit((unsigned char)p[i + n]))
			return true;
	return false;
}

char *sw__verify_row_state(struct sw__verify_run *u, const struct sw_claim *c, const int64_t *pages,
			   size_t np, const struct sw__verify_sentence *sn)
{
	const char *t = u->r->text;
	const struct sw_claim_fact *id = NULL;
	/* one identifier with a numbered last part ("P-20-11"), no other of
	 * its kind in the sentence */
	for (size_t k = 0; k < c->nfacts; k++) {
		const struct sw_claim_fact *f = &c->facts[k];
		const char *dash = f->kind == SW_FACT_IDENTIFIER ? strrchr(f->id, '-') : NULL;
		if (!dash || !isdigit((unsigned char)dash[1]))
			continue;
		if (id && strncmp(id->id, f->id, (size_t)(strrchr(id->id, '-') - id->id)) == 0)
			return NULL;
		if (!id)
			id = f;
	}
	if (!id)
		return NULL;
	/* its written prefix: "P-20-" of "P-20-11" */
	size_t pe = id->end;
	while (pe > id->start && isdigit((unsigned char)t[pe - 1]))
		pe--;
	if (pe == id->end || pe == id->start || isalnum((unsigned char)t[pe - 1]))
		return NULL;
	const struct sw__verify_reading *sent = &sn->rd;
	struct sw__verify_reading *rd = sw_xcalloc(2, sizeof(*rd)), *own = rd + 1;
	char *why = NULL;
	for (size_t q = 0; q < np && !why && !u->err.code; q++) {
		struct sw_err e = { 0 };
		char witness[48];
		if (sw__verify_witness(u, pages[q], witness, sizeof(witness)) ||
		    !sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e), &e))
			continue; /* a transcript's lines are no table's rows */
		const char *p = u->page.data;
		size_t len = u->page.len, from = 0, os, oe;
		if (!line_with(p, len, t + id->start, id->end - id->start, &from, &os, &oe) ||
		    !row_like(p, os, oe))
			continue;
		sw__verify_read_words(p, os, oe, NULL, 0, own, NULL, 0);
		/* the sentence's words (no names) its row lacks */
		for (size_t w = 0; w < sent->st.n && !why; w++) {
			const char *stem = sent->st.w[w];
			if (sw__verify_has_stem(&sent->named, stem) ||
			    sw__verify_has_stem(&own->st, stem))
				continue;
			for (size_t i = 0; i < len && !why;) {
				size_t le = i;
				while (le < len && p[le] != '\n')
					le++;
				if (i != os && row_like(p, i, le) &&
				    sibling(p, i, le, t + id->start, pe - id->start)) {
					sw__verify_read_words(p, i, le, NULL, 0, rd, NULL, 0);
					if (sw__verify_has_stem(&rd->st, stem)) {
						char *pn = sw__verify_page_name(u, pages[q]);
						size_t a = os, b = i;
						while (a < oe && p[a] == ' ')
							a++;
						while (b < le && p[b] == ' ')
							b++;
						why = sw_xasprintf(
							"on %s the row of %.*s does not say it, "
							"another's "
							"does: \"%.*s\"; \"%.*s\"",
							pn, (int)(id->end - id->start),
							t + id->start,
							(int)(oe - a < ROW_QUOTE ? oe - a
										 : ROW_QUOTE),
							p + a,
							(int)(le - b < ROW_QUOTE ? le - b
										 : ROW_QUOTE),
							p + b);
						free(pn);
					}
				}
				i = le < len ? le + 1 : len;
			}
		}
	}
	free(rd);
	return why;
}
