/*
 * rules_place.c - a place the page names otherwise.  A sentence that puts
 * something in a city of a state ("taken in Newark, Delaware") cited to a
 * page that names another city of that state ("Wilmington, Delaware") and
 * never the sentence's is contradicted, quoting the page's.  A city the
 * page names too, or a page that names no city of the state, leaves the
 * sentence alone.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verify/rules_int.h"

static const char *const states[] = {
	"Alabama",	 "Alaska",	"Arizona",	  "Arkansas",	   "California",
	"Colorado",	 "Connecticut", "Delaware",	  "Florida",	   "Georgia",
	"Hawaii",	 "Idaho",	"Illinois",	  "Indiana",	   "Iowa",
	"Kansas",	 "Kentucky",	"Louisiana",	  "Maine",	   "Maryland",
	"Massachusetts", "Michigan",	"Minnesota",	  "Mississippi",   "Missouri",
	"Montana",	 "Nebraska",	"Nevada",	  "New Hampshire", "New Jersey",
	"New Mexico",	 "New York",	"North Carolina", "North Dakota",  "Ohio",
	"Oklahoma",	 "Oregon",	"Pennsylvania",	  "Rhode Island",  "South Carolina",
	"South Dakota",	 "Tennessee",	"Texas",	  "Utah",	   "Vermont",
	"Virginia",	 "Washington",	"West Virginia",  "Wisconsin",	   "Wyoming",
};

/* Whether ", <a state>" stands at i of p: the state's end in *e. */
static const char *state_at(const char *p, size_t len, size_t i, size_t *e)
{
	if (i + 2 >= len || p[i] != ',' || p[i + 1] != ' ')
		return NULL;
	for (size_t k = 0; k < SW_ARRAY_LEN(states); k++) {
		size_t n = strlen(states[k]);
		if (i + 2 + n <= len && strncmp(p + i + 2, states[k], n) == 0 &&
		    (i + 2 + n == len || !isalpha((unsigned char)p[i + 2 + n]))) {
			*e = i + 2 + n;
			return states[k];
		}
	}
	return NULL;
}

/* The capitalised words (one or two) that end at i ("Wilmington",
 * "Newark", "Salt Lake"): their start, or i. */
static size_t city_before(const char *p, size_t i)
{
	size_t b = i;
	while (b > 0 && isalpha((unsigned char)p[b - 1]))
		b--;
	if (b == i || !isupper((unsigned char)p[b]))
		return i;
	/* "Salt Lake": one capitalised word before it joins */
	if (b >= 2 && p[b - 1] == ' ' && isalpha((unsigned char)p[b - 2])) {
		size_t a = b - 1;
		while (a > 0 && isalpha((unsigned char)p[a - 1]))
			a--;
		if (isupper((unsigned char)p[a]) && b - 1 - a > 2)
			return a;
	}
	return b;
}

char *sw__verify_place(struct sw__verify_run *u, const struct sw_claim *c, const int64_t *pages,
		       size_t np, const struct sw__verify_sentence *sn)
{
	(void)sn; /* the sentence's text is read as written */
	const char *t = u->r->text;
	for (size_t i = c->start; i < c->end; i++) {
		size_t se;
		const char *state = state_at(t, c->end, i, &se);
		if (!state)
			continue;
		size_t cs = city_before(t, i);
		if (cs == i)
			continue;
		size_t cn = i - cs;
		for (size_t q = 0; q < np && !u->err.code; q++) {
			struct sw_err e = { 0 };
			if (!sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e),
					      &e))
				continue;
			const char *p = u->page.data;
			size_t len = u->page.len, other = 0, oe = 0;
			bool same = false;
			for (size_t x = 0; x < len && !same; x++) {
				size_t pe;
				const char *ps = state_at(p, len, x, &pe);
				if (!ps || ps != state)
					continue;
				size_t pcs = city_before(p, x);
				if (pcs == x)
					continue;
				same = x - pcs == cn && strncmp(p + pcs, t + cs, cn) == 0;
				if (!same && !oe) {
					other = pcs;
					oe = pe;
				}
			}
			/* the sentence's city anywhere on the page is no rival */
			for (size_t x = 0; x + cn <= len && !same && oe; x++)
				same = strncmp(p + x, t + cs, cn) == 0 &&
				       (x == 0 || !isalpha((unsigned char)p[x - 1])) &&
				       (x + cn == len || !isalpha((unsigned char)p[x + cn]));
			if (same || !oe)
				continue;
			char *pn = sw__verify_page_name(u, pages[q]);
			char *why = sw_xasprintf("%s names %.*s, not %.*s", pn, (int)(oe - other),
						 p + other, (int)(se - cs), t + cs);
			free(pn);
			return why;
		}
	}
	return NULL;
}
