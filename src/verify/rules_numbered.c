/*
 * rules_numbered.c - a numbered thing the sentence names ("Pay Application
 * No. 5", "Change Order No. 7", "Meeting No. 12") against the cited page.
 * When the page numbers the same thing ("PAY APPLICATION NO. 4") and
 * never with the sentence's number, the sentence names another one of
 * them: contradicted, saying which the page is.  A page that numbers no
 * such thing leaves the sentence alone: a numbered name is no fact a page
 * must repeat.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verify/rules_int.h"

#define NUM_LABEL 64 /* bytes of a label kept ("Pay Application") */

/* After "No." at i (or "No", "#", "Number"): the number's digits [*ds,
 * *de); false when none. */
static bool number_after(const char *p, size_t len, size_t i, size_t *ds, size_t *de)
{
	if (i < len && p[i] == '#') {
		i++;
	} else if (i + 6 <= len && strncasecmp(p + i, "number", 6) == 0) {
		i += 6;
	} else if (i + 2 <= len && strncasecmp(p + i, "no", 2) == 0 &&
		   (i + 2 == len || !isalpha((unsigned char)p[i + 2]))) {
		i += 2;
		if (i < len && p[i] == '.')
			i++;
	} else {
		return false;
	}
	while (i < len && p[i] == ' ')
		i++;
	size_t d = i;
	while (d < len && isdigit((unsigned char)p[d]) && d - i < 12)
		d++;
	if (d == i || (d < len && isalnum((unsigned char)p[d])))
		return false;
	*ds = i;
	*de = d;
	return true;
}

/* Whether p[i..] holds label words lw (n words) with any run of blanks
 * between them; the end in *e. */
static bool label_at(const char *p, size_t len, size_t i, char lw[][NUM_LABEL], size_t n, size_t *e)
{
	if (i > 0 && isalpha((unsigned char)p[i - 1]))
		return false;
	for (size_t k = 0; k < n; k++) {
		size_t l = strlen(lw[k]);
		if (i + l > len || strncasecmp(p + i, lw[k], l) != 0 ||
		    (i + l < len && isalpha((unsigned char)p[i + l])))
			return false;
		i += l;
		if (k + 1 < n) {
			size_t b = i;
			while (i < len && (p[i] == ' ' || p[i] == '\t'))
				i++;
			if (i == b)
				return false;
		}
	}
	while (i < len && p[i] == ' ')
		i++;
	*e = i;
	return true;
}

char *sw__verify_numbered(struct sw__verify_run *u, const struct sw_claim *c, const int64_t *pages,
			  size_t np, const struct sw__verify_sentence *sn)
{
	const char *t = u->r->text;
	for (size_t i = c->start; i < c->end && !u->err.code; i++) {
		size_t ds, de;
		if (!(i > c->start && t[i - 1] == ' ') || !number_after(t, c->end, i, &ds, &de))
			continue;
		bool inside = false;
		for (size_t k = 0; k < sn->nsp && !inside; k++)
			inside = sn->sp[k].s <= i && i < sn->sp[k].e;
		if (inside)
			continue;
		/* the capitalised words before: "Pay Application" */
		char lw[3][NUM_LABEL];
		size_t n = 0, b = i - 1, first = i;
		while (n < 3 && b > c->start) {
			size_t we = b;
			size_t ws = we;
			while (ws > c->start && isalpha((unsigned char)t[ws - 1]))
				ws--;
			if (ws == we || !isupper((unsigned char)t[ws]) || we - ws >= NUM_LABEL)
				break;
			first = ws;
			n++;
			if (ws == c->start || t[ws - 1] != ' ')
				break;
			b = ws - 1;
		}
		/* the words in order, past a leading word that names nothing
		 * ("At Meeting No. 12", "Under Change Order No. 7") */
		static const char *const lead[] = { "The",    "At",  "Under", "In", "On",
						    "By",     "For", "From",  "To", "After",
						    "Before", "See", "Per" };
		size_t w = 0;
		for (size_t x = first; x < i && w < n;) {
			size_t xe = x;
			while (xe < i && isalpha((unsigned char)t[xe]))
				xe++;
			bool skip = false;
			for (size_t k = 0; k < SW_ARRAY_LEN(lead) && !skip && !w; k++)
				skip = xe - x == strlen(lead[k]) &&
				       !strncmp(t + x, lead[k], xe - x);
			if (!skip) {
				memcpy(lw[w], t + x, xe - x);
				lw[w][xe - x] = '\0';
				w++;
			} else {
				first = xe + 1;
			}
			x = xe;
			while (x < i && t[x] == ' ')
				x++;
		}
		if (!w)
			continue; /* "No. 4 shipped": no label */
		for (size_t q = 0; q < np && !u->err.code; q++) {
			struct sw_err e = { 0 };
			if (!sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e),
					      &e))
				continue;
			const char *p = u->page.data;
			size_t len = u->page.len, other = 0, oe = 0;
			bool same = false;
			for (size_t x = 0; x < len && !same; x++) {
				size_t le, ps, pe;
				if (!label_at(p, len, x, lw, w, &le) ||
				    !number_after(p, len, le, &ps, &pe))
					continue;
				same = pe - ps == de - ds && strncmp(p + ps, t + ds, de - ds) == 0;
				if (!same && !oe) {
					other = x;
					oe = pe;
				}
			}
			if (same || !oe)
				continue;
			char *pn = sw__verify_page_name(u, pages[q]);
			char *why = sw_xasprintf("%s is %.*s, not %.*s", pn, (int)(oe - other),
						 p + other, (int)(de - first), t + first);
			free(pn);
			return why;
		}
	}
	return NULL;
}
