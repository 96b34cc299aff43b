/*
 * rules_count.c - a count the cited page gives by listing, not by a
 * number: "five photographs" against "Photographs: IMG_2201, ..., IMG_2205",
 * "four people attended" against the attendance line, "three lots" against
 * Lot 17, Lot 18 and Lot 19 named on the page or a register's rows (those
 * of a party the sentence names when it names one: "Keel Transport hauled
 * two of the five lots").  Each answer says what was counted.  And a count
 * a page states in a labelled line ("Welds tested ...... 52").
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verify/rules_int.h"

#define COUNT_LABELS 64 /* distinct "Lot 17" labels counted on a page */

/* The words a list of f's unit is headed by ("people": Attendees). */
static size_t heads_of(const char *unit, const char *out[4])
{
	size_t n = 0;
	out[n++] = unit;
	if (!strcmp(unit, "people") || !strcmp(unit, "person")) {
		out[n++] = "attendee";
		out[n++] = "present";
		out[n++] = "participant";
	}
	return n;
}

/* Items of a list line "Label: a, b; c and d" whose label holds one of
 * heads: how many, or 0. */
static size_t list_items(const char *p, size_t len, const char *const *heads, size_t nh)
{
	for (size_t i = 0; i < len;) {
		size_t le = i;
		while (le < len && p[le] != '\n')
			le++;
		const char *colon = memchr(p + i, ':', le - i);
		if (colon && (size_t)(colon - p) - i <= 40) {
			size_t ce = (size_t)(colon - p);
			bool ours = false;
			for (size_t h = 0; h < nh && !ours; h++) {
				size_t hl = strlen(heads[h]);
				for (size_t k = i; k + hl <= ce && !ours; k++)
					ours = strncasecmp(p + k, heads[h], hl) == 0 &&
					       (k == i || !isalpha((unsigned char)p[k - 1]));
			}
			if (ours) {
				size_t items = 0, nums = 0;
				bool in = false;
				for (size_t k = ce + 1; k < le; k++) {
					bool sep = p[k] == ',' || p[k] == ';';
					if (!sep && k + 5 <= le && strncmp(p + k, " and ", 5) == 0)
						sep = true;
					if (sep) {
						in = false;
					} else if (isalnum((unsigned char)p[k]) && !in) {
						in = true;
						items++;
						nums += isdigit((unsigned char)p[k]) != 0;
					}
				}
				/* "Panels received: 48" states a count (a labelled
				 * value), it lists nothing */
				if (items == 1 && nums == 1)
					items = 0;
				/* "Nonconformance reports:" and its lines below, to a
				 * blank line */
				if (!items && !nums)
					for (size_t k = le + 1; k < len && items < 200;) {
						size_t ke = k;
						while (ke < len && p[ke] != '\n')
							ke++;
						size_t a = k;
						while (a < ke && isspace((unsigned char)p[a]))
							a++;
						if (a == ke)
							break;
						items++;
						k = ke + 1;
					}
				if (items)
					return items;
			}
		}
		i = le < len ? le + 1 : len;
	}
	return 0;
}

/* Lines of p that end in an amount ("Freight ........ $1,850.00"), none
 * a total's ("Total due", "Less retainage (10%)", "Net due"): the charges
 * of an invoice, the items of a pay application. */
static size_t charge_lines(const char *p, size_t len)
{
	static const char *const totals[] = { "total", "subtotal", "less", "net", "balance",
					      "amount due", "due", "paid", "retainage", "tax" };
	size_t n = 0;
	for (size_t i = 0, a, le; sw__verify_line_next(p, len, &i, &a, &le);) {
		size_t z = le;
		while (z > a && (p[z - 1] == ' ' || p[z - 1] == '\r'))
			z--;
		size_t d = z;
		while (d > a && (isdigit((unsigned char)p[d - 1]) || p[d - 1] == ',' || p[d - 1] == '.'))
			d--;
		bool amount = d > a && d < z && p[d - 1] == '$' && d - 1 > a;
		bool total = false;
		for (size_t k = 0; k < SW_ARRAY_LEN(totals) && amount && !total; k++)
			total = strncasecmp(p + a, totals[k], strlen(totals[k])) == 0;
		n += amount && !total;
	}
	return n;
}

/* Signature lines of p: under "IN WITNESS WHEREOF", "sign below" or
 * "Signatures", the lines "By: ...", "/s/ ..." or "Jane Roe, General
 * Counsel, ..." before the next other line.  How many. */
static size_t signers(const char *p, size_t len)
{
	static const char *const heads[] = { "witness whereof", "sign below", "signatures",
					     "signed below", "executed" };
	bool under = false;
	size_t n = 0;
	for (size_t i = 0, a, le; sw__verify_line_next(p, len, &i, &a, &le);) {
		if (!under) {
			for (size_t k = 0; k < SW_ARRAY_LEN(heads) && !under; k++)
				for (size_t x = a; x + strlen(heads[k]) <= le && !under; x++)
					under = strncasecmp(p + x, heads[k], strlen(heads[k])) == 0;
		} else if (a < le) {
			/* "Jane Roe," or "By:" or "/s/" */
			size_t w = a, words = 0;
			while (w < le && isupper((unsigned char)p[w]) && words < 4) {
				while (w < le && (isalpha((unsigned char)p[w]) || p[w] == '.'))
					w++;
				words++;
				if (w < le && p[w] == ' ')
					w++;
			}
			bool sig = (words >= 2 && w < le && p[w - (p[w - 1] == ' ')] == ',') ||
				   (le - a > 3 && (strncasecmp(p + a, "by:", 3) == 0 ||
						   strncmp(p + a, "/s/", 3) == 0));
			if (sig)
				n++;
			else if (n)
				break;
		}
	}
	return n;
}

/* Lines of p that hold a word of the sentence t[s, e) ending in "ed"
 * (the state it counts: "rejected" of "only one panel was rejected"),
 * the word that some line holds: how many lines, or 0. */
static size_t lines_saying(const char *p, size_t len, const char *t, size_t s, size_t e)
{
	size_t best = 0;
	for (size_t i = s; i < e;) {
		while (i < e && !isalpha((unsigned char)t[i]))
			i++;
		size_t b = i;
		while (i < e && isalpha((unsigned char)t[i]))
			i++;
		size_t n = i - b;
		if (n < 6 || !islower((unsigned char)t[b]) || t[i - 1] != 'd' || t[i - 2] != 'e')
			continue;
		size_t stem = n - 1; /* "rejecte": "Rejected" and "rejected" */
		size_t lines = 0;
		for (size_t x = 0; x < len;) {
			size_t le = x;
			while (le < len && p[le] != '\n')
				le++;
			bool has = false;
			for (size_t y = x; y + stem <= le && !has; y++)
				has = strncasecmp(p + y, t + b, stem) == 0 &&
				      (y == x || !isalpha((unsigned char)p[y - 1]));
			lines += has;
			x = le < len ? le + 1 : len;
		}
		if (lines > best)
			best = lines;
	}
	return best;
}

bool sw__verify_soft_count(const char *t, const struct sw_claim_fact *f)
{
	return f->kind == SW_FACT_QUANTITY && (strncasecmp(t + f->start, "single ", 7) == 0 ||
					       strncasecmp(t + f->start, "both ", 5) == 0);
}

/* Whether sentence c counts what a log shows ("appear on the receiving
 * log", "the register lists"). */
static bool names_a_log(const char *t, const struct sw_claim *c)
{
	static const char *const logs[] = { "log", "register", "ledger", "schedule", "table" };
	return sw__verify_has_any(t + c->start, c->end - c->start, logs, SW_ARRAY_LEN(logs));
}

/* Distinct labels "Word N" of page p whose word is unit ("Lot 17"). */
static size_t labels_named(const char *p, size_t len, const char *unit)
{
	long seen[COUNT_LABELS];
	size_t n = 0, ul = strlen(unit);
	for (size_t i = 0; i + ul + 2 <= len && n < COUNT_LABELS; i++) {
		if (strncasecmp(p + i, unit, ul) != 0 ||
		    (i > 0 && isalpha((unsigned char)p[i - 1])) || !isupper((unsigned char)p[i]))
			continue;
		size_t k = i + ul;
		if (k < len && p[k] == 's')
			k++;
		if (k >= len || p[k] != ' ' || k + 1 >= len || !isdigit((unsigned char)p[k + 1]))
			continue;
		long v = 0;
		size_t d = k + 1;
		while (d < len && isdigit((unsigned char)p[d]) && v < 100000000)
			v = v * 10 + (p[d++] - '0');
		bool dup = false;
		for (size_t q = 0; q < n && !dup; q++)
			dup = seen[q] == v;
		if (!dup)
			seen[n++] = v;
	}
	return n;
}

char *sw__verify_count(struct sw__verify_run *u, const struct sw_claim *c,
		       const struct sw_claim_fact *f, const int64_t *pages, size_t np,
		       int64_t *page, size_t *listed)
{
	*listed = 0;
	bool soft = sw__verify_soft_count(u->r->text, f);
	if (f->kind != SW_FACT_QUANTITY || f->value % 100 || f->value <= 0 || strlen(f->unit) < 3)
		return NULL;
	size_t want = (size_t)(f->value / 100);
	const char *t = u->r->text;
	/* days a log's rows give: "its two days", "five logged days" */
	bool days = !strcmp(f->unit, "day");
	if (!days && f->end < c->end) {
		size_t a0 = f->end;
		while (a0 < c->end && t[a0] == ' ')
			a0++;
		days = c->end - a0 >= 4 && strncmp(t + a0, "days", 4) == 0;
	}
	/* "five days late" is a span, not a count of the log's days */
	if (days) {
		static const char *const spans[] = { "late",	 "later",  "after", "before",
						     "earlier",	 "behind", "ahead", "early",
						     "of delay", "delay" };
		/* the word after "days" (the fact's own, or the next word) */
		size_t a0 = f->end;
		if (!(f->end - f->start >= 4 && strncmp(t + f->end - 4, "days", 4) == 0)) {
			while (a0 < c->end && t[a0] == ' ')
				a0++;
			while (a0 < c->end && isalpha((unsigned char)t[a0]))
				a0++;
		}
		while (a0 < c->end && t[a0] == ' ')
			a0++;
		for (size_t k = 0; k < SW_ARRAY_LEN(spans) && days; k++) {
			size_t n = strlen(spans[k]);
			days = !(c->end - a0 >= n && strncasecmp(t + a0, spans[k], n) == 0 &&
				 (a0 + n == c->end || !isalpha((unsigned char)t[a0 + n])));
		}
	}
	if (days) {
		for (size_t q = 0; q < np && !u->err.code; q++) {
			struct sw_err e = { 0 };
			size_t all = 0, lab = 0;
			if (sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e),
					     &e) &&
			    sw__verify_table_days(u->page.data, u->page.len, t, c->start, c->end,
						  &all, &lab) &&
			    (all == want || lab == want)) {
				*page = pages[q];
				return sw_xasprintf(
					"%.*s (%s)", (int)(f->end - f->start), t + f->start,
					lab == want ? "the days of its rows" : "the log's days");
			}
		}
	}
	if (sw__verify_is_duration(f))
		return NULL;
	/* the noun the count is of: the unit, or the word after it ("five
	 * delivery tickets") */
	char nouns[3][24];
	size_t nn = 0;
	snprintf(nouns[nn++], sizeof(nouns[0]), "%s", f->unit);
	size_t ul = strlen(f->unit);
	if (ul > 3 && strcmp(f->unit + ul - 3, "men") == 0 && ul < sizeof(nouns[0])) {
		/* foremen: foreman */
		snprintf(nouns[nn], sizeof(nouns[0]), "%s", f->unit);
		nouns[nn++][ul - 2] = 'a';
	}
	size_t a = f->end;
	while (a < c->end && t[a] == ' ')
		a++;
	size_t b = a;
	while (b < c->end && isalpha((unsigned char)t[b]))
		b++;
	if (b - a >= 4 && b - a < sizeof(nouns[0]) && islower((unsigned char)t[a])) {
		size_t l = b - a;
		memcpy(nouns[nn], t + a, l);
		nouns[nn][l - (t[b - 1] == 's' && l > 4)] = '\0';
		nn++;
	}
	/* a party the sentence names, to count its rows */
	struct sw__verify_name nm[4];
	size_t nnm = sw__verify_names(t, c->start, c->end, NULL, 0, nm, 4);
	char must[64] = "";
	for (size_t k = 0; k < nnm && !must[0]; k++)
		if (nm[k].n >= 2 && nm[k].e - nm[k].s < sizeof(must))
			snprintf(must, sizeof(must), "%.*s", (int)(nm[k].e - nm[k].s), t + nm[k].s);
	for (size_t q = 0; q < np && !u->err.code; q++) {
		struct sw_err e = { 0 };
		if (!sw__verify_found(u, sw_record_page_text(&u->page, u->m, pages[q], &e), &e))
			continue;
		const char *p = u->page.data;
		size_t len = u->page.len;
		for (size_t k = 0; k < nn; k++) {
			const char *heads[4];
			size_t nh = heads_of(nouns[k], heads);
			size_t all = 0, named = 0, dn = 0, n;
			const char *how = NULL;
			bool table = false;
			size_t listn = list_items(p, len, heads, nh), ch = 0, sg = 0;
			bool charges = !strcmp(nouns[k], "charge") || !strcmp(nouns[k], "item") ||
				       !strcmp(nouns[k], "entry") || !strcmp(nouns[k], "fee");
			bool signing = (!strcmp(nouns[k], "people") || !strcmp(nouns[k], "person") ||
					!strcmp(nouns[k], "party") || !strcmp(nouns[k], "signatory")) &&
				       sw__verify_has_any(t + c->start, c->end - c->start,
							  (const char *const[]){ "signed", "sign",
										 "signs" },
							  3);
			if ((n = listn) == want)
				how = "items listed";
			else if (charges && (ch = charge_lines(p, len)) == want)
				how = "lines with an amount";
			else if (signing && (sg = signers(p, len)) == want)
				how = "signature lines";
			else if ((n = labels_named(p, len, nouns[k])) == want && n > 1)
				how = "named on the page";
			else if ((table = sw__verify_table_count(p, len, nouns[k],
								 must[0] ? must : NULL, &all,
								 &named, &dn)) &&
				 (all == want || dn == want || (must[0] && named == want)))
				how = named == want && must[0] ? "rows of the party" :
				      dn == want && all != want ? "distinct in its column" : "rows";
			if (!how && table && !*listed && dn)
				*listed = dn;
			/* a list, the charges or the signatures that count
			 * otherwise: what the page counts */
			if (!how && !*listed)
				*listed = listn ? listn : ch ? ch : sg;
			/* "only one panel was rejected": the lines that say it */
			size_t say = !how ? lines_saying(p, len, t, c->start, c->end) : 0;
			if (say == want && k == 0)
				how = "lines that say it";
			else if (say && soft && !*listed)
				*listed = say;
			/* "two deliveries appear on the receiving log": the log's rows */
			if (!how && !table && k == 0 && names_a_log(t, c)) {
				size_t rows = sw__verify_table_rows(p, len);
				if (rows == want)
					how = "the log's rows";
				else if (rows && !*listed)
					*listed = rows;
			}
			if (how) {
				*page = pages[q];
				return sw_xasprintf("%.*s (%s)", (int)(f->end - f->start),
						    t + f->start, how);
			}
		}
	}
	return NULL;
}

/* ------------------------------------------------------- labelled values */

/* Whether word w (n bytes, folded) stands in [s, e) of p, a word's start
 * and its first five letters enough ("tested" for "test"). */
static bool label_has(const char *p, size_t s, size_t e, const char *w, size_t n)
{
	size_t cmp = n > 5 ? 5 : n;
	for (size_t i = s; i + cmp <= e; i++) {
		if (i > s && isalpha((unsigned char)p[i - 1]))
			continue;
		if (strncasecmp(p + i, w, cmp) != 0)
			continue;
		size_t k = i;
		while (k < e && isalpha((unsigned char)p[k]))
			k++;
		if (n <= 5 ? (k - i == n ||
			      (k - i == n + 1 && tolower((unsigned char)p[k - 1]) == 's'))
			   : k - i >= 5)
			return true;
	}
	return false;
}

int sw__verify_labelled(const char *p, size_t len, const char *t, size_t cs,
			const struct sw_claim_fact *f, char **says)
{
	*says = NULL;
	if (f->kind != SW_FACT_QUANTITY)
		return 0;
	/* the words that say what is counted: the one before the number
	 * ("tested 45 welds") and the unit */
	static const char *const stop[] = { "with", "that", "this", "from", "into", "than",
					    "were", "was", "have", "been", "about", "only", "over",
					    "under", "after", "before", "each", "some" };
	char words[3][24];
	size_t nw = 0;
	size_t b = f->start;
	/* up to two content words before the number, within its clause
	 * ("charges the weather with 5 days": weather, charges) */
	for (int guard = 0; guard < 4 && nw < 2 && b > cs; guard++) {
		while (b > cs && !isalpha((unsigned char)t[b - 1]) && t[b - 1] != ',' &&
		       t[b - 1] != ';' && t[b - 1] != '(')
			b--;
		if (b == cs || !isalpha((unsigned char)t[b - 1]))
			break;
		size_t a = b;
		while (a > cs && isalpha((unsigned char)t[a - 1]))
			a--;
		bool skip = b - a < 4 || b - a >= sizeof(words[0]);
		for (size_t k = 0; k < SW_ARRAY_LEN(stop) && !skip; k++)
			skip = b - a == strlen(stop[k]) && strncasecmp(t + a, stop[k], b - a) == 0;
		if (!skip) {
			memcpy(words[nw], t + a, b - a);
			words[nw++][b - a] = '\0';
		}
		b = a;
	}
	if (strlen(f->unit) >= 4)
		snprintf(words[nw++], sizeof(words[0]), "%s", f->unit);
	if (!nw)
		return 0;
	int best = 0, ties = 0;
	int64_t best_v = 0;
	size_t bls = 0, ble = 0, bvs = 0, bve = 0;
	for (size_t i = 0; i < len;) {
		size_t le = i;
		while (le < len && p[le] != '\n' && p[le] != '\f')
			le++;
		/* a line that ends in a number after leader dots, a colon or a
		 * run of blanks: "Welds tested ...... 52", "Weather   WX   1" */
		size_t z = le;
		while (z > i && (p[z - 1] == ' ' || p[z - 1] == '\r'))
			z--;
		size_t ns = z;
		while (ns > i && (isdigit((unsigned char)p[ns - 1]) || p[ns - 1] == '.' ||
				  p[ns - 1] == ','))
			ns--;
		if (ns > i && p[ns - 1] == '-')
			ns--;
		size_t lb = ns;
		while (lb > i && (p[lb - 1] == ' ' || p[lb - 1] == '.' || p[lb - 1] == ':'))
			lb--;
		int64_t v = 0;
		size_t dots = 0, colon = 0, blanks = 0, caps = 0, letters = 0;
		for (size_t x = lb; x < ns; x++) {
			dots += p[x] == '.';
			colon += p[x] == ':';
			blanks += p[x] == ' ';
		}
		for (size_t x = i; x < lb; x++)
			if (isalpha((unsigned char)p[x])) {
				letters++;
				caps += isupper((unsigned char)p[x]) != 0;
			}
		/* leader dots, a colon or a column's blanks; a heading in
		 * capitals ("TICKET NO. 1041") is no labelled count */
		bool sep = dots >= 3 || colon || blanks >= 3;
		if (sep && caps * 10 < letters * 8 && ns < z && lb > i &&
		    isdigit((unsigned char)p[z - 1]) &&
		    isdigit((unsigned char)p[ns + (p[ns] == '-')])) {
			/* the line's number */
			size_t k = ns + (p[ns] == '-');
			int64_t n = 0;
			while (k < z && (isdigit((unsigned char)p[k]) || p[k] == ','))
				if (p[k++] != ',' && n < INT64_MAX / 100)
					n = n * 10 + (p[k - 1] - '0');
			v = n * 100;
			int score = 0;
			for (size_t q = 0; q < nw; q++)
				score += label_has(p, i, lb, words[q], strlen(words[q]));
			if (score > best) {
				best = score;
				ties = 0;
				best_v = v;
				bls = i;
				ble = lb;
				bvs = ns;
				bve = z;
			} else if (score == best && score) {
				ties++;
			}
		}
		i = le < len ? le + 1 : len;
	}
	if (!best || ties)
		return 0;
	if (best_v == f->value)
		return 1;
	while (bls < ble && p[bls] == ' ')
		bls++;
	*says = sw_xasprintf("%.*s %.*s", (int)(ble - bls), p + bls, (int)(bve - bvs), p + bvs);
	return -1;
}
