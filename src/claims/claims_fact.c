/*
 * claims_fact.c - the fact rules: the checkable facts a text states (money,
 * quantities with their unit word, percentages, identifiers), read through
 * sw_claims_next_fact() from a draft's sentence and from a record's page
 * alike, so that a verifier finds a page's facts exactly as the draft's are
 * found.  Numbers in digits and in words ("two hundred and twelve"),
 * counts before a name ("six Tallgrass laborers") or of a set ("three of
 * the five lots"), spans joined by a hyphen ("a 17-day extension"), labels
 * that count nothing ("Sequence 1", "Crew 4").
 */
#include <stdlib.h>
#include <string.h>

#include "claims/claims_int.h"

#define FACT_MAX_DIGITS 15 /* digits of a number read (hundredths fit in int64) */

static bool up(int c) { return c >= 'A' && c <= 'Z'; }
static bool low(int c) { return c >= 'a' && c <= 'z'; }
static bool dig(int c) { return c >= '0' && c <= '9'; }
static bool alnum(int c) { return up(c) || low(c) || dig(c); }
static int fold(int c) { return up(c) ? c - 'A' + 'a' : c; }

struct rd {
	const char *t;
	size_t n;
};

static int at(const struct rd *r, size_t i) { return i < r->n ? (unsigned char)r->t[i] : 0; }

/* The word of letters (and inner hyphens) at i, folded into buf; its end, or i. */
static size_t word_at(const struct rd *r, size_t i, char *buf, size_t cap)
{
	size_t k = 0, e = i;
	while (e < r->n && (up(at(r, e)) || low(at(r, e)) ||
			    (at(r, e) == '-' && e > i && low(fold(at(r, e + 1)))))) {
		if (k + 1 < cap)
			buf[k++] = (char)fold(at(r, e));
		e++;
	}
	buf[k] = '\0';
	return e;
}

static size_t blanks(const struct rd *r, size_t i)
{
	while (i < r->n && (at(r, i) == ' ' || at(r, i) == '\t' || at(r, i) == '\n'))
		i++;
	return i;
}

static bool in_list(const char *w, const char *const *list)
{
	for (; *list; list++)
		if (w[0] == (*list)[0] && strcmp(w, *list) == 0)
			return true;
	return false;
}

/* Words after a number that are no unit. */
static const char *const filler[] = {
	"a", "an", "and", "are", "as", "at", "be", "been", "before", "but", "by", "each",
	"for", "from", "had", "has", "have", "in", "into", "is", "it", "its", "more", "not",
	"of", "on", "or", "over", "per", "than", "that", "the", "their", "this", "to",
	"under", "was", "were", "which", "with", "within", "after", "total", "through",
	"until", "thru", NULL,
};

/* Words before a number that make it a reference, not a fact. */
static const char *const refword[] = {
	"section", "sections", "page", "pages", "paragraph", "paragraphs", "rule", "rules",
	"article", "clause", "item", "exhibit", "ex", "p", "pp", "line", "lines", "chapter",
	"note", "footnote", "tab", "schedule", "appendix", "dep", "tr", "ecf", "dkt",
	"docket", "id", "at", "version", "step", "part", "no", "nos", "count", NULL,
};

/* Words that lead an identifier, and the class each gives. */
static const struct { const char *w, *cls; } idword[] = {
	{ "po", "po" }, { "p.o.", "po" }, { "invoice", "inv" }, { "invoices", "inv" },
	{ "inv", "inv" }, { "lot", "lot" }, { "lots", "lot" }, { "order", "order" },
	{ "ncr", "ncr" }, { "ticket", "ticket" }, { "account", "account" },
	{ "acct", "account" }, { "batch", "lot" }, { "serial", "serial" },
	{ "contract", "contract" }, { "shipment", "shipment" }, { "bol", "bol" },
	{ "rma", "rma" }, { "claim", "claim" }, { "case", "case" }, { "agreement", "contract" },
	{ "grid", "grid" },
};

static const char *id_class(const char *w)
{
	for (size_t i = 0; i < SW_ARRAY_LEN(idword); i++)
		if (w[0] == idword[i].w[0] && strcmp(w, idword[i].w) == 0)
			return idword[i].cls;
	return NULL;
}

/* Number words: value, and whether it multiplies what came before. */
static const struct { const char *w; int64_t v; int mul; } numword[] = {
	{ "zero", 0, 0 }, { "one", 1, 0 }, { "two", 2, 0 }, { "three", 3, 0 }, { "four", 4, 0 },
	{ "five", 5, 0 }, { "six", 6, 0 }, { "seven", 7, 0 }, { "eight", 8, 0 },
	{ "nine", 9, 0 }, { "ten", 10, 0 }, { "eleven", 11, 0 }, { "twelve", 12, 0 },
	{ "thirteen", 13, 0 }, { "fourteen", 14, 0 }, { "fifteen", 15, 0 },
	{ "sixteen", 16, 0 }, { "seventeen", 17, 0 }, { "eighteen", 18, 0 },
	{ "nineteen", 19, 0 }, { "twenty", 20, 0 }, { "thirty", 30, 0 }, { "forty", 40, 0 },
	{ "fifty", 50, 0 }, { "sixty", 60, 0 }, { "seventy", 70, 0 }, { "eighty", 80, 0 },
	{ "ninety", 90, 0 }, { "hundred", 100, 1 }, { "thousand", 1000, 2 },
	{ "million", 1000000, 2 }, { "billion", 1000000000, 2 },
};

static int numword_of(const char *w, int64_t *v)
{
	for (size_t i = 0; i < SW_ARRAY_LEN(numword); i++)
		if (w[0] == numword[i].w[0] && strcmp(w, numword[i].w) == 0) {
			*v = numword[i].v;
			return numword[i].mul + 1;
		}
	return 0;
}

/* A multiplier word at i ("million"): its factor (1 when none), end in *e. */
static int64_t scale_at(const struct rd *r, size_t i, size_t *e)
{
	char w[16];
	size_t b = blanks(r, i), we = word_at(r, b, w, sizeof(w));
	*e = i;
	if (we == b)
		return 1;
	int64_t f = !strcmp(w, "thousand") ? 1000 : !strcmp(w, "million") ? 1000000 :
		    !strcmp(w, "billion") ? 1000000000 : 1;
	if (f > 1)
		*e = we;
	return f;
}

/* v times a scale word's factor f, at most INT64_MAX: "$99,999,999,999,999
 * billion" is past what a value holds, and stays a fact (one that no real
 * record supports) rather than wrapping round to another number. */
static int64_t scaled(int64_t v, int64_t f)
{
	return v > INT64_MAX / f ? INT64_MAX : v * f;
}

/* Digits with comma groups and an optional decimal part at i: the value in
 * hundredths; the end, or i when there is no number. */
static size_t read_number(const struct rd *r, size_t i, int64_t *out)
{
	int64_t v = 0;
	size_t e = i, nd = 0;
	while (e < r->n) {
		int c = at(r, e);
		if (dig(c)) {
			if (nd++ < FACT_MAX_DIGITS)
				v = v * 10 + (c - '0');
			e++;
		} else if (c == ',' && dig(at(r, e + 1)) && dig(at(r, e + 2)) &&
			   dig(at(r, e + 3)) && !dig(at(r, e + 4))) {
			e++;
		} else {
			break;
		}
	}
	if (e == i)
		return i;
	v *= 100;
	if (at(r, e) == '.' && dig(at(r, e + 1))) {
		size_t d = e + 1;
		int64_t frac = (at(r, d) - '0') * 10;
		if (dig(at(r, d + 1)))
			frac += at(r, d + 1) - '0';
		d++;
		while (dig(at(r, d)))
			d++;
		v += frac;
		e = d;
	}
	*out = v;
	return e;
}

/* Number words at i ("fifty-two thousand"): the value in hundredths; the
 * end, or i.  A lone "one" or "zero" is no number of a fact. */
static size_t read_words(const struct rd *r, size_t i, int64_t *out)
{
	/* "a single charge", "both panels": a count said without a number
	 * word (sw_fact_soft: checked against what the page lists only) */
	{
		char w[8];
		size_t we = word_at(r, i, w, sizeof(w));
		bool one = !strcmp(w, "single") && i >= 2 && fold(at(r, i - 2)) == 'a' &&
			   at(r, i - 1) == ' ' && (i == 2 || !alnum(at(r, i - 3)));
		if ((one || !strcmp(w, "both")) && at(r, we) == ' ') {
			*out = one ? 100 : 200;
			return we;
		}
	}
	int64_t total = 0, cur = 0;
	size_t e = i, k = i, words = 0;
	bool last_mul = false;
	for (int guard = 0; guard < 8; guard++) {
		char w[16];
		size_t s = k, we;
		/* "fifty-two": the hyphen joins two number words */
		size_t x = s;
		while (x < r->n && low(fold(at(r, x))) && x - s < 15)
			x++;
		if (x == s || alnum(at(r, x)))
			break;
		size_t len = x - s;
		for (size_t j = 0; j < len; j++)
			w[j] = (char)fold(at(r, s + j));
		w[len] = '\0';
		we = x;
		int64_t v;
		/* "three hundred and forty": "and" after a multiplier joins */
		if (!strcmp(w, "and") && words && last_mul && at(r, we) == ' ') {
			k = we + 1;
			last_mul = false;
			continue;
		}
		int kind = numword_of(w, &v);
		if (!kind)
			break;
		last_mul = kind > 1;
		if (kind == 1)
			cur += v;
		else if (kind == 2)
			cur = (cur ? cur : 1) * v;
		else {
			total += (cur ? cur : 1) * v;
			cur = 0;
		}
		words++;
		e = we;
		if (at(r, we) == '-' && low(fold(at(r, we + 1))))
			k = we + 1;
		else if (at(r, we) == ' ')
			k = we + 1;
		else if (kind == 3 && at(r, we) == ',' && at(r, we + 1) == ' ')
			k = we + 2; /* "fifty-two thousand, eight hundred" */
		else
			break;
	}
	total += cur;
	/* "only one panel", "just one", "exactly one": a count of one */
	bool counted = false;
	if (total == 1 && words == 1) {
		static const char *const lead[] = { "only ", "just ", "exactly ", "Only ",
						    "Just ", "Exactly " };
		for (size_t q = 0; q < SW_ARRAY_LEN(lead) && !counted; q++) {
			size_t n = strlen(lead[q]);
			counted = i >= n && strncmp(r->t + i - n, lead[q], n) == 0;
		}
	}
	if (!words || (total < 2 && !counted))
		return i;
	*out = total * 100;
	return e;
}

static void put_id(char *id, size_t *k, const char *s, size_t len)
{
	for (size_t j = 0; j < len && *k + 2 < SW_FACT_ID_MAX; j++)
		id[(*k)++] = s[j];
	id[*k] = '\0';
}

/* The parts of a token [s, e) of letters, digits and separators into id
 * after what it holds: letters folded, numbers without leading zeros. */
static void id_parts(const struct rd *r, size_t s, size_t e, char *id, size_t *k)
{
	size_t i = s;
	while (i < e) {
		if (!alnum(at(r, i))) {
			i++;
			continue;
		}
		if (*k)
			put_id(id, k, "-", 1);
		if (dig(at(r, i))) {
			while (i + 1 < e && at(r, i) == '0' && dig(at(r, i + 1)))
				i++;
			while (i < e && dig(at(r, i))) {
				char c = (char)at(r, i++);
				put_id(id, k, &c, 1);
			}
		} else {
			while (i < e && (up(at(r, i)) || low(at(r, i)))) {
				char c = (char)fold(at(r, i++));
				put_id(id, k, &c, 1);
			}
		}
	}
}

/* An identifier token at i: letters and digits joined by '-', '_' or '/',
 * holding a digit; its end, or i. */
static size_t id_token(const struct rd *r, size_t i, bool need_letters)
{
	size_t e = i, letters = 0, digits = 0;
	while (e < r->n && e - i < 40) {
		int c = at(r, e);
		if (dig(c))
			digits++;
		else if (up(c) || low(c))
			letters++;
		else if ((c == '-' || c == '_' || c == '/') && alnum(at(r, e + 1)) && e > i)
			;
		else
			break;
		e++;
	}
	if (!digits || (need_letters && !letters))
		return i;
	return e;
}

/* The word before i (folded, '.' kept inside "p.o."), into w. */
static void prev_word(const struct rd *r, size_t i, char *w, size_t cap)
{
	size_t e = i;
	while (e > 0 && (at(r, e - 1) == ' ' || at(r, e - 1) == '#' || at(r, e - 1) == ':'))
		e--;
	if (e > 0 && at(r, e - 1) == '.')
		e--;
	size_t s = e;
	while (s > 0 && e - s < cap - 1 &&
	       (up(at(r, s - 1)) || low(at(r, s - 1)) || at(r, s - 1) == '.'))
		s--;
	size_t k = 0;
	for (size_t j = s; j < e && k + 1 < cap; j++)
		if (at(r, j) != '.')
			w[k++] = (char)fold(at(r, j));
	w[k] = '\0';
}

/* Capitalised words that lead a count rather than name a thing ("Only 2
 * men", "About 40 loads"). */
static const char *const count_lead[] = {
	"only", "about", "approximately", "nearly", "over", "under", "some", "exactly",
	"just", "roughly", "almost", "around", "another", "all", "the", "those", "these",
	"its", "their", "his", "her", "our", "my", "we", "i", "they", "he", "she", "it",
	"total", "additional", "further", "least", "than", "and", "or", "of", "at", "by",
	"for", "in", "on", "to", "with", "from", "after", "before", "within", "each",
	"every", "more", "less", "fewer", "up", "down", "paid", "owed", "due", NULL,
};

/* Whether the number at i follows a capitalised word of letters across one
 * space ("Crew 4"), a thing's name rather than a count's lead word. */
static bool label_before(const struct rd *r, size_t i)
{
	if (i < 3 || at(r, i - 1) != ' ')
		return false;
	size_t e = i - 1, s = e;
	while (s > 0 && (up(at(r, s - 1)) || low(at(r, s - 1))))
		s--;
	if (e - s < 2 || e - s > 20 || !up(at(r, s)) || (s > 0 && alnum(at(r, s - 1))))
		return false;
	if (s > 0 && (at(r, s - 1) == '\'' || at(r, s - 1) == '-' || at(r, s - 1) == '$'))
		return false;
	char w[24];
	size_t k = 0;
	for (size_t j = s; j < e; j++)
		w[k++] = (char)fold(at(r, j));
	w[k] = '\0';
	return !in_list(w, count_lead) && !in_list(w, filler);
}

/* A rate at i: "to a truck", "to an hour", "per truck": its unit ("per
 * truck") into out and the end, or i when none. */
static size_t rate_at(const struct rd *r, size_t i, struct sw_fact_token *out)
{
	char w[8], w2[SW_FACT_UNIT_MAX - 5];
	size_t b = i < r->n && at(r, i) == ' ' ? i + 1 : i;
	size_t we = word_at(r, b, w, sizeof(w)), k;
	if (!strcmp(w, "to") && at(r, we) == ' ') {
		char a[4];
		size_t ae = word_at(r, we + 1, a, sizeof(a));
		if (strcmp(a, "a") != 0 && strcmp(a, "an") != 0)
			return i;
		k = ae;
	} else if (!strcmp(w, "per")) {
		k = we;
	} else {
		return i;
	}
	if (at(r, k) != ' ' || !low(at(r, k + 1)))
		return i;
	size_t e2 = word_at(r, k + 1, w2, sizeof(w2)), l2 = strlen(w2);
	if (l2 < 3 || e2 - k - 1 != l2 || !strcmp(w2, "cent"))
		return i;
	if (l2 > 3 && w2[l2 - 1] == 's' && w2[l2 - 2] != 's')
		w2[l2 - 1] = '\0';
	snprintf(out->unit, sizeof(out->unit), "per %s", w2);
	return e2;
}

/* After a number ending at e: percent, dollars, or a unit word.  Fills
 * out's kind and unit; returns the fact's end. */
static size_t after_number(const struct rd *r, size_t e, struct sw_fact_token *out, bool money)
{
	char w[SW_FACT_UNIT_MAX];
	out->kind = money ? SW_FACT_MONEY : SW_FACT_QUANTITY;
	out->unit[0] = '\0';
	/* "braced twenty to a truck": a count of each, per truck */
	if (!money) {
		size_t re = rate_at(r, e, out);
		if (re > e)
			return re;
	}
	if (at(r, e) == '%')
		return out->kind = SW_FACT_PERCENT, e + 1;
	size_t b = blanks(r, e);
	if (b > e + 2 && !money)
		return e;
	if (at(r, e) == '-' && low(fold(at(r, e + 1))))
		b = e + 1; /* a 30-day period */
	size_t we = word_at(r, b, w, sizeof(w));
	if (we == b)
		return e;
	if (!strcmp(w, "percent") || !strcmp(w, "pct"))
		return out->kind = SW_FACT_PERCENT, we;
	if (!strcmp(w, "per") && at(r, we) == ' ') {
		char w2[16];
		size_t e2 = word_at(r, we + 1, w2, sizeof(w2));
		if (!strcmp(w2, "cent"))
			return out->kind = SW_FACT_PERCENT, e2;
	}
	if (!strcmp(w, "usd") || !strcmp(w, "dollars") || !strcmp(w, "dollar"))
		return out->kind = SW_FACT_MONEY, we;
	/* words about the document, not the world: "four pages" */
	static const char *const meta[] = { "page", "pages", "line", "lines", "paragraph",
					    "paragraphs", "sentence", "sentences", "word", "words",
					    "time", "times", "exhibit", "exhibits", NULL };
	/* "three of the five lots", "two of its trucks": the count is of the
	 * lots, the trucks */
	if (!strcmp(w, "of") && !money && at(r, we) == ' ') {
		char w2[SW_FACT_UNIT_MAX];
		size_t k = we + 1, e2 = word_at(r, k, w2, sizeof(w2));
		if (!strcmp(w2, "the") || !strcmp(w2, "its") || !strcmp(w2, "their") ||
		    !strcmp(w2, "our") || !strcmp(w2, "those") || !strcmp(w2, "these")) {
			k = e2 + (at(r, e2) == ' ');
			int64_t skip;
			size_t ne = read_words(r, k, &skip);
			if (ne == k)
				ne = read_number(r, k, &skip);
			if (ne > k && at(r, ne) == ' ')
				k = ne + 1;
			e2 = word_at(r, k, w2, sizeof(w2));
			/* "two of the logged days": past one word that says which */
			size_t l0 = e2 - k;
			if (l0 > 3 && l0 < sizeof(w2) && w2[l0 - 1] == 'd' && w2[l0 - 2] == 'e' &&
			    at(r, e2) == ' ' && low(at(r, e2 + 1))) {
				k = e2 + 1;
				e2 = word_at(r, k, w2, sizeof(w2));
			}
			/* a word longer than the buffer is no unit */
			size_t l2 = e2 - k < sizeof(w2) ? e2 - k : 0;
			if (l2 > 3 && low(at(r, k)) && w2[l2 - 1] == 's' && !in_list(w2, filler)) {
				w2[l2 - 1] = '\0';
				memcpy(out->unit, w2, l2);
				return e2;
			}
		}
	}
	/* "six Tallgrass laborers", "forty Lot 20 panels": the count is of
	 * the laborers, the panels */
	if (up(at(r, b)) && !money) {
		size_t nb = we;
		/* "six Keel Transport trucks": past a name of up to three words */
		for (int more = 0; more < 2 && at(r, nb) == ' ' && up(at(r, nb + 1)); more++) {
			char wn[SW_FACT_UNIT_MAX];
			size_t ne = word_at(r, nb + 1, wn, sizeof(wn));
			if (ne == nb + 1)
				break;
			nb = ne;
		}
		if (at(r, nb) == '\'' && at(r, nb + 1) == 's')
			nb += 2;
		if (at(r, nb) == ' ' && dig(at(r, nb + 1))) {
			size_t d = nb + 1;
			while (dig(at(r, d)))
				d++;
			if (d - nb <= 4 && at(r, d) == ' ')
				nb = d;
		}
		char w2[SW_FACT_UNIT_MAX];
		size_t b2 = nb < r->n && at(r, nb) == ' ' ? nb + 1 : nb;
		size_t e2 = b2 > nb ? word_at(r, b2, w2, sizeof(w2)) : b2;
		/* a word longer than the buffer is no unit */
		size_t l2 = e2 - b2 < sizeof(w2) ? e2 - b2 : 0;
		if (l2 > 3 && low(at(r, b2)) && w2[l2 - 1] == 's' && w2[l2 - 2] != 's' &&
		    !in_list(w2, filler) && !in_list(w2, meta)) {
			w2[l2 - 1] = '\0';
			memcpy(out->unit, w2, l2);
			return e2;
		}
		/* "only one Lot 20 panel": a count of one names its noun singular */
		if (out->value == 100 && l2 > 3 && low(at(r, b2)) && w2[l2 - 1] != 's' &&
		    !in_list(w2, filler) && !in_list(w2, meta)) {
			memcpy(out->unit, w2, l2 + 1);
			return e2;
		}
	}
	/* "both damaged panels": past one word that says which */
	size_t wl = strlen(w);
	if (!money && wl > 4 && w[wl - 1] == 'd' && w[wl - 2] == 'e' && at(r, we) == ' ' &&
	    low(at(r, we + 1))) {
		char w2[SW_FACT_UNIT_MAX];
		size_t e2 = word_at(r, we + 1, w2, sizeof(w2));
		size_t l2 = e2 - we - 1 < sizeof(w2) ? e2 - we - 1 : 0;
		if (l2 > 3 && w2[l2 - 1] == 's' && w2[l2 - 2] != 's' && !in_list(w2, filler) &&
		    !in_list(w2, meta)) {
			w2[l2 - 1] = '\0';
			memcpy(out->unit, w2, l2);
			return e2;
		}
	}
	/* "four line items": items, not lines of the document */
	if (!money && !strcmp(w, "line") && at(r, we) == ' ') {
		char w2[SW_FACT_UNIT_MAX];
		size_t e2 = word_at(r, we + 1, w2, sizeof(w2));
		if (!strcmp(w2, "item") || !strcmp(w2, "items")) {
			memcpy(out->unit, "item", 5);
			return e2;
		}
	}
	if (money || in_list(w, filler) || in_list(w, meta) || up(at(r, b)))
		return e; /* "1 Brightline": a footnote's number, no unit */
	/* "seven calendar days" are days; "ten business days" and "nine
	 * working days" are workdays, counted Monday to Friday */
	if ((!strcmp(w, "business") || !strcmp(w, "calendar") || !strcmp(w, "working")) &&
	    at(r, we) == ' ') {
		char w2[SW_FACT_UNIT_MAX];
		size_t e2 = word_at(r, we + 1, w2, sizeof(w2));
		if (!strcmp(w2, "day") || !strcmp(w2, "days")) {
			memcpy(out->unit, w[0] == 'c' ? "day" : "workday",
			       w[0] == 'c' ? 4 : 8);
			return e2;
		}
	}
	/* "twelve panels to a truck": the count of each, per truck */
	{
		struct sw_fact_token rt = { 0 };
		size_t re = rate_at(r, we, &rt);
		if (re > we) {
			memcpy(out->unit, rt.unit, sizeof(out->unit));
			return re;
		}
	}
	size_t len = strlen(w);
	if (len > 4 && strcmp(w + len - 3, "ies") == 0)
		memcpy(w + len - 3, "y", 2); /* deliveries: delivery */
	else if (len > 3 && w[len - 1] == 's' && w[len - 2] != 's')
		w[len - 1] = '\0';
	memcpy(out->unit, w, strlen(w) + 1);
	return we;
}

/* Whether "percent" or "per cent" follows a number ending at e ("at 5 percent"). */
static bool percent_word(const struct rd *r, size_t e)
{
	char w[16];
	size_t b = blanks(r, e);
	if (b == e || b > e + 2)
		return false;
	word_at(r, b, w, sizeof(w));
	return !strcmp(w, "percent") || !strcmp(w, "pct") || !strcmp(w, "per");
}

const char *sw_fact_kind_name(enum sw_fact_kind kind)
{
	static const char *const names[] = { "money", "quantity", "percent", "identifier",
					     "date" };
	return (size_t)kind < SW_ARRAY_LEN(names) ? names[kind] : "unknown";
}

/* One fact starting at i, or false (and *next where to look on). */
static bool fact_at(const struct rd *r, size_t i, struct sw_fact_token *out, size_t *next)
{
	int c = at(r, i);
	char w[24];
	*next = i + 1;
	memset(out, 0, sizeof(*out));
	out->start = i;
	if (i > 0 &&
	    (alnum(at(r, i - 1)) ||
	     (dig(c) && (at(r, i - 1) == '.' || at(r, i - 1) == ',' || at(r, i - 1) == '-' ||
			 at(r, i - 1) == '/' || at(r, i - 1) == ':'))))
		return false;
	/* $52,850.00, US$ 3,060 */
	if (c == '$' || (c == 'U' && at(r, i + 1) == 'S' && at(r, i + 2) == '$')) {
		size_t d = blanks(r, i + (c == '$' ? 1 : 3));
		int64_t v;
		size_t e = read_number(r, d, &v);
		if (e == d)
			return false;
		size_t se;
		out->value = scaled(v, scale_at(r, e, &se));
		out->kind = SW_FACT_MONEY;
		out->end = se;
		*next = se;
		return true;
	}
	/* USD 52,850 */
	if (c == 'U' && at(r, i + 1) == 'S' && at(r, i + 2) == 'D' && at(r, i + 3) == ' ' &&
	    dig(at(r, i + 4))) {
		int64_t v;
		size_t e = read_number(r, i + 4, &v), se;
		out->value = scaled(v, scale_at(r, e, &se));
		out->kind = SW_FACT_MONEY;
		out->end = *next = se;
		return true;
	}
	if (dig(c)) {
		/* a number inside an identifier: 4471-A, 2021-0147 */
		size_t te = id_token(r, i, true);
		if (te > i && te - i > 0) {
			size_t de = i;
			while (dig(at(r, de)))
				de++;
			if (de < te && (at(r, de) == '-' || up(at(r, de)) || low(at(r, de)))) {
				/* "a 17-day extension", "a 30-day notice": a span */
				static const char *const spans[] = { "day", "week", "month", "year",
								     "hour" };
				for (size_t q = 0; q < SW_ARRAY_LEN(spans); q++) {
					size_t sl = strlen(spans[q]);
					if (at(r, de) == '-' && te - de - 1 == sl &&
					    strncmp(r->t + de + 1, spans[q], sl) == 0 &&
					    de - i <= 4) {
						int64_t v;
						read_number(r, i, &v);
						out->kind = SW_FACT_QUANTITY;
						out->value = v;
						memcpy(out->unit, spans[q], sl + 1);
						out->end = *next = te;
						return true;
					}
				}
				*next = te;
				return false; /* a part of something else: a date, a code */
			}
		}
		int64_t v;
		size_t e = read_number(r, i, &v);
		if (dig(at(r, e)) || at(r, e) == ':' || (at(r, e) == '/' && dig(at(r, e + 1))) ||
		    (at(r, e) == '-' && dig(at(r, e + 1)))) {
			*next = e + 1;
			while (*next < r->n && alnum(at(r, *next)))
				(*next)++;
			return false; /* a time, a range or a fraction */
		}
		char pw[24];
		prev_word(r, i, pw, sizeof(pw));
		const char *cls = id_class(pw);
		if (cls && at(r, e) == ' ') {
			/* "the order 27 days late": a count of something, no number
			 * of the order */
			struct sw_fact_token q = { 0 };
			if (after_number(r, e, &q, false) > e && q.unit[0])
				cls = NULL;
		}
		if (cls) {
			size_t k = 0;
			size_t te2 = id_token(r, i, false);
			put_id(out->id, &k, cls, strlen(cls));
			id_parts(r, i, te2, out->id, &k);
			out->kind = SW_FACT_IDENTIFIER;
			out->end = *next = te2;
			return true;
		}
		/* "Sequence 1", "Crew 4", "Level 2", "Tier 1", "Top 40": a
		 * capitalised word and a small number name a thing; the number
		 * counts nothing ("Sequence 1 steel" is not one steel) */
		if (v < 1000000 && v % 100 == 0 && at(r, e) != '%' && !percent_word(r, e) &&
		    label_before(r, i)) {
			*next = e;
			return false;
		}
		/* "section 4", but "Note: 24 pallets" is a label, not a reference */
		size_t lb = i;
		while (lb > 0 && at(r, lb - 1) == ' ')
			lb--;
		if (in_list(pw, refword) && !(lb > 0 && at(r, lb - 1) == ':') &&
		    at(r, e) != '%' && !percent_word(r, e)) {
			*next = e;
			return false;
		}
		size_t se;
		int64_t f = scale_at(r, e, &se);
		out->value = scaled(v, f);
		size_t fe = after_number(r, se, out, false);
		if (out->kind == SW_FACT_QUANTITY && !out->unit[0] &&
		    (out->value < 10000 || (f == 1 && e - i == 4 && v >= 190000 && v <= 209900))) {
			*next = e;
			return false; /* a small bare number or a year */
		}
		out->end = *next = fe > se ? fe : se;
		return true;
	}
	if (up(c) || low(c)) {
		size_t we = word_at(r, i, w, sizeof(w));
		/* PO 4471, Invoice No. 8812, P.O. #4471 */
		const char *cls = id_class(w);
		if (!cls && !strcmp(w, "p") && at(r, we) == '.' && fold(at(r, we + 1)) == 'o' &&
		    at(r, we + 2) == '.') {
			cls = "po";
			we += 3;
		}
		/* C.A. No. 21-1187, Case No. 21-1187, Civil Action No. 21-1187:
		 * the case's number (the word alone, "this case", is none) */
		if (!cls && !strcmp(w, "c") && at(r, we) == '.' && fold(at(r, we + 1)) == 'a' &&
		    at(r, we + 2) == '.') {
			cls = "case";
			we += 3;
		}
		if (!cls && (!strcmp(w, "case") || !strcmp(w, "action")) && at(r, we) == ' ' &&
		    fold(at(r, we + 1)) == 'n' && fold(at(r, we + 2)) == 'o' &&
		    (at(r, we + 3) == '.' || at(r, we + 3) == ' '))
			cls = "case";
		/* "Line 3", "Dock 2", "Rev. 3": capitalised, a thing's name
		 * (lower case "line 12" points into a document) */
		if (!cls && up(c) && (!strcmp(w, "line") || !strcmp(w, "dock") ||
				      !strcmp(w, "rev") || !strcmp(w, "revision")))
			cls = w[0] == 'r' ? "rev" : w;
		if (!cls && !strcmp(w, "purchase") && at(r, we) == ' ') {
			char w2[16];
			size_t e2 = word_at(r, we + 1, w2, sizeof(w2));
			if (!strcmp(w2, "order")) {
				cls = "po";
				we = e2;
			}
		}
		if (cls) {
			size_t k = blanks(r, we);
			if (at(r, k) == '.')
				k = blanks(r, k + 1);
			char w3[16];
			size_t n3 = word_at(r, k, w3, sizeof(w3));
			bool numbered = false; /* "Order No. 4": a name, never a count */
			if (!strcmp(w3, "no") || !strcmp(w3, "number") || !strcmp(w3, "nos")) {
				k = blanks(r, n3 + (at(r, n3) == '.'));
				numbered = true;
			}
			if (at(r, k) == '#' || at(r, k) == ':') {
				k = blanks(r, k + 1);
				numbered = true;
			}
			size_t te = id_token(r, k, false);
			struct sw_fact_token q = { 0 };
			bool digits = true;
			for (size_t d = k; d < te; d++)
				digits &= dig(at(r, d));
			/* "the order 27 days late": a count of something */
			bool count = !numbered && te > k && digits && cls == id_class("order") &&
				     at(r, te) == ' ' && after_number(r, te, &q, false) > te &&
				     q.unit[0];
			if (te > k && dig(at(r, k)) && !count) {
				size_t n = 0;
				put_id(out->id, &n, cls, strlen(cls));
				id_parts(r, k, te, out->id, &n);
				out->kind = SW_FACT_IDENTIFIER;
				out->end = *next = te;
				return true;
			}
			if (te > k && up(at(r, k))) {
				size_t n = 0;
				/* "Grid F/7": a grid's coordinates name a place only
				 * with the word */
				if (!strcmp(cls, "grid"))
					put_id(out->id, &n, cls, strlen(cls));
				id_parts(r, k, te, out->id, &n);
				out->kind = SW_FACT_IDENTIFIER;
				out->start = k;
				out->end = *next = te;
				return true;
			}
		}
		/* INV-10236, NCR-2021-0147 */
		if (up(c)) {
			size_t te = id_token(r, i, true), l = i;
			while (up(at(r, l)) || low(at(r, l)))
				l++;
			/* "P-20-11": one letter when two numbered parts follow */
			size_t dashes = 0;
			for (size_t d = l; d < te; d++)
				dashes += at(r, d) == '-';
			bool one = l - i == 1 && at(r, l) == '-' && dig(at(r, l + 1)) && dashes >= 2;
			if (te > i && (l - i >= 2 || one) && l - i <= 6 && l < te &&
			    (at(r, l) == '-' || at(r, l) == '_' || dig(at(r, l)))) {
				size_t n = 0;
				id_parts(r, i, te, out->id, &n);
				out->kind = SW_FACT_IDENTIFIER;
				out->end = *next = te;
				return true;
			}
		}
		/* fifty-two thousand dollars, six percent, thirty days */
		int64_t v;
		size_t e = read_words(r, i, &v);
		if (e > i) {
			/* "thirty (30) days": the numeral repeats the words */
			size_t pe = blanks(r, e);
			if (at(r, pe) == '(' && dig(at(r, pe + 1))) {
				size_t q = pe + 1;
				while (dig(at(r, q)))
					q++;
				if (at(r, q) == ')')
					e = q + 1;
			}
			out->value = v;
			size_t fe = after_number(r, e, out, false);
			*next = e;
			if (fe == e)
				return false; /* a number word alone is no fact */
			/* "four dollars and twenty-five cents" */
			if (out->kind == SW_FACT_MONEY && !strncmp(r->t + fe, " and ", 5) &&
			    fe + 5 < r->n) {
				int64_t cv;
				size_t ce = read_words(r, fe + 5, &cv);
				char cw[8];
				size_t cb = blanks(r, ce);
				size_t cwe = ce > fe + 5 ? word_at(r, cb, cw, sizeof(cw)) : cb;
				if (ce > fe + 5 && cwe > cb && !strcmp(cw, "cents") && cv < 10000) {
					out->value += cv / 100;
					fe = cwe;
				}
			}
			out->end = *next = fe;
			return true;
		}
		*next = we > i ? we : i + 1;
		return false;
	}
	return false;
}

bool sw_claims_next_fact(struct sw_fact_token *out, const char *text, size_t len, size_t *pos)
{
	struct rd r = { text, len };
	size_t i = *pos;
	while (i < len) {
		int c = at(&r, i);
		if (!(dig(c) || up(c) || low(c) || c == '$')) {
			i++;
			continue;
		}
		size_t next;
		if (fact_at(&r, i, out, &next)) {
			*pos = next > i ? next : i + 1;
			return true;
		}
		if (next <= i)
			next = i + 1;
		/* skip the rest of the word */
		while (next < len && alnum(at(&r, next)) && next > i)
			next++;
		i = next;
	}
	*pos = len;
	return false;
}
