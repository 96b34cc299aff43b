/*
 * claims_cite_parts.c - the text around a citation's core: word tests
 * going backwards, pages and pins, law section numbers, parentheses, the
 * court and year parenthesis, and the case name or short name before a cite.
 *
 * Everything here only reads the text; claims_cite.c and
 * claims_cite_other.c decide what becomes a claim.
 */
#include <string.h>

#include "claims/claims_int.h"

/* ------------------------------------------------------------ small parts */

static bool is_space_before(const struct sw__claims_scan *sc, size_t j)
{
	int c = sw__claims_at(sc, j - 1);
	if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')
		return true;
	if (j >= 2 && c == 0xA0 && sw__claims_at(sc, j - 2) == 0xC2)
		return true;
	return j >= 3 && sw__claims_at(sc, j - 3) == 0xE2 && sw__claims_at(sc, j - 2) == 0x80 &&
	       (c == 0x89 || c == 0x8A || c == 0x8B || c == 0xAF);
}

/* The word ending at or before i (after skipping spaces back): [*ws, *we).
 * False at floor. */
bool sw__claims_prev_word(const struct sw__claims_scan *sc, size_t i, size_t floor,
		  size_t *ws, size_t *we)
{
	size_t e = sw__claims_ws_back(sc, i, floor);
	if (e <= floor)
		return false;
	size_t s = e;
	while (s > floor && !is_space_before(sc, s))
		s--;
	*ws = s;
	*we = e;
	return s < e;
}

/* A curly or straight quotation mark ending at e (for words like Foo,”). */
bool sw__claims_ends_with_quote(const struct sw__claims_scan *sc, size_t s, size_t e)
{
	if (e > s && (sw__claims_at(sc, e - 1) == '"'))
		return true;
	return e >= s + 3 && sw__claims_at(sc, e - 3) == 0xE2 && sw__claims_at(sc, e - 2) == 0x80 &&
	       (sw__claims_at(sc, e - 1) == 0x9D || sw__claims_at(sc, e - 1) == 0x9C);
}

/* Length of an opening mark at s: ( [ " “ */
size_t sw__claims_open_mark(const struct sw__claims_scan *sc, size_t s)
{
	int c = sw__claims_at(sc, s);
	if (c == '(' || c == '[' || c == '"')
		return 1;
	if (c == 0xE2 && sw__claims_at(sc, s + 1) == 0x80 && sw__claims_at(sc, s + 2) == 0x9C)
		return 3;
	return 0;
}

bool sw__claims_word_is(const struct sw__claims_scan *sc, size_t s, size_t e, const char *w)
{
	if (e <= s || sc->t[s] != w[0])
		return false; /* most words differ at once: skip the strlen */
	size_t n = strlen(w);
	return e - s == n && memcmp(sc->t + s, w, n) == 0;
}

bool sw__claims_word_in(const struct sw__claims_scan *sc, size_t s, size_t e,
		const char *const *list)
{
	for (; *list; list++)
		if (sw__claims_word_is(sc, s, e, *list))
			return true;
	return false;
}

/* Words that end a case name going backwards: signals and connectives. */
const char *const sw__claims_stop_words[] = {
	"See", "see", "See,", "see,", "Cf.", "cf.", "In", "in", "Compare", "compare",
	"But", "but", "Also", "also", "And", "and", "E.g.,", "e.g.,", "Accord", "accord",
	"Citing", "citing", "Quoting", "quoting", "with", "With", "under", "Under",
	"Contra", "contra", "Following", "following", "v.", "v", "vs.", "The", "the",
	"that", "This", "this", "Per", "per", "by", "of", "on", "as", "from", "to",
	"at", "is", "was", "were", "where", "when", "id.", "Id.", "supra", "supra,",
	"overruling", "overruled", "citing,", "quoting,", NULL,
};

/* Lower-case words that may sit inside a party's name. */
static const char *const name_lower[] = {
	"ex", "rel.", "of", "the", "de", "del", "la", "van", "von", "da", "du", "&",
	"on", "for", NULL,
};

/* A blank page or volume: ___ or — or ---- (a cite not yet paginated). */
static bool is_blank(const struct sw__claims_scan *sc, size_t s, size_t e)
{
	while (e > s && (sw__claims_at(sc, e - 1) == ',' || sw__claims_at(sc, e - 1) == ';'))
		e--;
	if (e <= s)
		return false;
	size_t i = s;
	bool any = false;
	while (i < e) {
		if (sw__claims_at(sc, i) == '_' || sw__claims_at(sc, i) == '-') {
			i++;
			any = true;
		} else if (sw__claims_at(sc, i) == 0xE2 && sw__claims_at(sc, i + 1) == 0x80 &&
			   (sw__claims_at(sc, i + 2) == 0x94 || sw__claims_at(sc, i + 2) == 0x93)) {
			i += 3;
			any = true;
		} else {
			return false;
		}
	}
	/* a single hyphen is punctuation, not a blank */
	return any && !(e - s == 1 && sw__claims_at(sc, s) == '-');
}

/* "(2007)" as a whole word: the year, else 0. */
static int paren_year(const struct sw__claims_scan *sc, size_t s, size_t e)
{
	while (e > s && sw__claims_at(sc, e - 1) == ',')
		e--;
	if (e - s != 6 || (sw__claims_at(sc, s) != '(' && sw__claims_at(sc, s) != '[') ||
	    (sw__claims_at(sc, e - 1) != ')' && sw__claims_at(sc, e - 1) != ']'))
		return 0;
	size_t ye;
	int y = sw__claims_year(sc, s + 1, &ye);
	return ye == e - 1 ? y : 0;
}

/* ------------------------------------------------------------------ pages */

/* A page at i: digits (with a -B or -U suffix), lower-case roman numerals,
 * or a blank.  Sets *blank for a blank page.  Returns the end or 0. */
size_t sw__claims_read_page(const struct sw__claims_scan *sc, size_t i, bool commas, bool *blank)
{
	*blank = false;
	int c = sw__claims_at(sc, i);
	if (sw__claims_digit(c)) {
		size_t e = sw__claims_digits(sc, i);
		while (commas && sw__claims_at(sc, e) == ',' && sw__claims_digit(sw__claims_at(sc, e + 1)))
			e = sw__claims_digits(sc, e + 1);
		if (sw__claims_at(sc, e) == '-' && sw__claims_upper(sw__claims_at(sc, e + 1)) &&
		    !sw__claims_alnum(sw__claims_at(sc, e + 2)))
			e += 2;
		else if (commas && sw__claims_upper(sw__claims_at(sc, e)) && !sw__claims_alnum(sw__claims_at(sc, e + 1)))
			e++;
		if (sw__claims_alnum(sw__claims_at(sc, e)))
			return 0;
		return e;
	}
	if (c == '_' || c == '-' || c == 0xE2) {
		size_t e = i;
		while (e < sc->n && !sw__claims_space_len(sc, e) && sw__claims_at(sc, e) != ',' &&
		       sw__claims_at(sc, e) != ';' && sw__claims_at(sc, e) != '.' && sw__claims_at(sc, e) != ')')
			e++;
		if (is_blank(sc, i, e)) {
			*blank = true;
			return e;
		}
		return 0;
	}
	if (c == 'i' || c == 'v' || c == 'x' || c == 'l' || c == 'c') {
		size_t e = i;
		while (strchr("ivxlc", sw__claims_at(sc, e)) && sw__claims_at(sc, e))
			e++;
		if (e - i < 2 || e - i > 8 || sw__claims_alnum(sw__claims_at(sc, e)) || sw__claims_at(sc, e) == '.')
			return 0;
		return e;
	}
	return 0;
}

/* One pin: "at"? "p."|"pp."? then *12, 12-14, 12 n.3, ¶ 7, 119:12-14. */
size_t sw__claims_read_pin_item(const struct sw__claims_scan *sc, size_t i)
{
	size_t k = i, e;
	if ((e = sw__claims_lit(sc, k, "pp.")) || (e = sw__claims_lit(sc, k, "p.")))
		k = sw__claims_ws(sc, e);
	if (sw__claims_at(sc, k) == 0xC2 && sw__claims_at(sc, k + 1) == 0xB6) {
		k += 2;
		if (sw__claims_at(sc, k) == 0xC2 && sw__claims_at(sc, k + 1) == 0xB6)
			k += 2;
		k = sw__claims_ws(sc, k);
	}
	if (sw__claims_at(sc, k) == '*')
		k++;
	if (!sw__claims_digit(sw__claims_at(sc, k)))
		return 0;
	e = sw__claims_digits(sc, k);
	if (sw__claims_at(sc, e) == ':' && sw__claims_digit(sw__claims_at(sc, e + 1)))
		e = sw__claims_digits(sc, e + 1);
	size_t d = sw__claims_dash(sc, e);
	if (d) {
		if (sw__claims_at(sc, d) == '*')
			d++;
		if (sw__claims_digit(sw__claims_at(sc, d)))
			e = sw__claims_digits(sc, d);
	}
	if (sw__claims_alpha(sw__claims_at(sc, e)) && !(sw__claims_at(sc, e) == 'n' && sw__claims_at(sc, e + 1) == '.'))
		return 0;
	/* footnotes: 12 n.3, 12 & n. 4, 12 nn.3-4 */
	size_t f = sw__claims_ws(sc, e), g;
	if ((g = sw__claims_lit(sc, f, "n.")) || (g = sw__claims_lit(sc, f, "nn."))) {
		g = sw__claims_ws(sc, g);
		if (sw__claims_digit(sw__claims_at(sc, g))) {
			e = sw__claims_digits(sc, g);
			if ((d = sw__claims_dash(sc, e)) && sw__claims_digit(sw__claims_at(sc, d)))
				e = sw__claims_digits(sc, d);
		}
	}
	return e;
}

/* A balanced parenthesis at i: the end after ')' or 0. */
size_t sw__claims_balanced(const struct sw__claims_scan *sc, size_t i, size_t *in_s, size_t *in_e)
{
	int open = sw__claims_at(sc, i), close = open == '(' ? ')' : ']';
	if (open != '(' && open != '[')
		return 0;
	int depth = 0;
	for (size_t k = i; k < sc->n && k < i + SW__CLAIMS_PAREN_MAX; k++) {
		int c = sw__claims_at(sc, k);
		if (c == open)
			depth++;
		else if (c == close && --depth == 0) {
			*in_s = i + 1;
			*in_e = k;
			return k + 1;
		} else if (c == '\n' && sw__claims_at(sc, sw__claims_blanks(sc, k + 1)) == '\n')
			return 0; /* a paragraph break ends any parenthesis */
	}
	return 0;
}

/* ---------------------------------------------------------------- sections */

/* Law sections: 1332, 120.68, 21-3516, 36-3701, 1981-1983, then (a)(1). */
size_t sw__claims_read_section(const struct sw__claims_scan *sc, size_t i, size_t *sec_e,
			       size_t *pin_e)
{
	if (!sw__claims_digit(sw__claims_at(sc, i)))
		return 0;
	size_t e = sw__claims_digits(sc, i), d;
	for (int g = 0; g < 4; g++) {
		int c = sw__claims_at(sc, e);
		if ((c == '.' || c == ':' || c == '-') &&
		    sw__claims_digit(sw__claims_at(sc, e + 1)))
			e = sw__claims_digits(sc, e + 1);
		else if ((d = sw__claims_dash(sc, e)) && d > e + 1 &&
			 sw__claims_digit(sw__claims_at(sc, d)))
			e = sw__claims_digits(sc, d);
		else
			break;
	}
	if (sw__claims_alpha(sw__claims_at(sc, e)) && !sw__claims_alpha(sw__claims_at(sc, e + 1)))
		e++; /* § 1983a */
	*sec_e = e;
	/* subsections (a)(1)(A), "and (d)", "et seq." */
	size_t k = e;
	for (int g = 0; g < 8; g++) {
		if (sw__claims_at(sc, k) != '(')
			break;
		size_t m = k + 1;
		while (m < k + 6 && sw__claims_alnum(sw__claims_at(sc, m)))
			m++;
		if (m == k + 1 || sw__claims_at(sc, m) != ')')
			break;
		k = m + 1;
		size_t a;
		if (sw__claims_at(sc, k) != '(' &&
		    (a = sw__claims_word(sc, sw__claims_ws(sc, k), "and")) &&
		    sw__claims_at(sc, sw__claims_ws(sc, a)) == '(')
			k = sw__claims_ws(sc, a);
	}
	size_t a = sw__claims_ws(sc, k);
	if ((d = sw__claims_lit(sc, a, "et seq.")))
		k = d;
	*pin_e = k;
	return k;
}

/* --------------------------------------------------------- court and year */

static bool is_month_word(const struct sw__claims_scan *sc, size_t s, size_t e)
{
	static const char *const m[] = {
		"Jan.", "Feb.", "Mar.", "Apr.", "May", "June", "July", "Aug.", "Sept.",
		"Sep.", "Oct.", "Nov.", "Dec.", "January", "February", "March", "April",
		"Jun.", "Jul.", "August", "September", "October", "November", "December", NULL,
	};
	return sw__claims_word_in(sc, s, e, m);
}

/* Inside a court/date parenthesis [s, e): the year at its end, the court
 * before, and a month and day if given.  False when there is no year. */
static bool parse_court_year(const struct sw__claims_scan *sc, size_t s, size_t e, struct sw__claims_post *po)
{
	size_t k = e;
	while (k > s && (sw__claims_at(sc, k - 1) == ' '))
		k--;
	/* a year range: 1993-94, 2005-06 */
	size_t ye = k, ys;
	ys = ye;
	while (ys > s && sw__claims_digit(sw__claims_at(sc, ys - 1)))
		ys--;
	if (ye - ys == 2 && ys > s && sw__claims_at(sc, ys - 1) == '-') {
		ye = ys - 1;
		ys = ye;
		while (ys > s && sw__claims_digit(sw__claims_at(sc, ys - 1)))
			ys--;
	}
	if (ye - ys != 4)
		return false;
	size_t yend;
	int y = sw__claims_year(sc, ys, &yend);
	if (!y || (ys > s && sw__claims_alnum(sw__claims_at(sc, ys - 1)) && sw__claims_at(sc, ys - 1) != '.'))
		return false;
	po->year = y;
	size_t c = ys;
	/* a date before it: "Feb. 9, 2017" or "12/15/95" */
	size_t w = c;
	while (w > s && sw__claims_at(sc, w - 1) == ' ')
		w--;
	if (w > s && sw__claims_at(sc, w - 1) == ',') {
		size_t d = w - 1, ds = d;
		while (ds > s && sw__claims_digit(sw__claims_at(sc, ds - 1)))
			ds--;
		if (d - ds >= 1 && d - ds <= 2) {
			size_t me = ds;
			while (me > s && sw__claims_at(sc, me - 1) == ' ')
				me--;
			size_t ms = me;
			while (ms > s && (sw__claims_alpha(sw__claims_at(sc, ms - 1)) || sw__claims_at(sc, ms - 1) == '.'))
				ms--;
			if (is_month_word(sc, ms, me)) {
				po->month_s = ms;
				po->month_e = me;
				po->day_s = ds;
				po->day_e = d;
				c = ms;
			}
		}
	}
	while (c > s && (sw__claims_at(sc, c - 1) == ' ' || sw__claims_at(sc, c - 1) == ','))
		c--;
	if (c > s) {
		po->court_s = s;
		po->court_e = c;
	}
	return true;
}

/* After a citation's last pin: the court and year in parentheses, then an
 * explanatory parenthetical.  i is where to look. */
void sw__claims_parse_post(struct sw__claims_scan *sc, size_t i, struct sw__claims_post *po)
{
	memset(po, 0, sizeof(*po));
	po->end = po->full_end = i;
	size_t k = sw__claims_ws(sc, i), s, e;
	size_t end = sw__claims_balanced(sc, k, &s, &e);
	if (end && sw__claims_digit(sw__claims_at(sc, sw__claims_ws(sc, s))) && !parse_court_year(sc, s, e, po))
		return; /* (198⁴), (3 Atl. 33): neither court nor parenthetical */
	if (end && po->year) {
		po->end = po->full_end = end;
		k = sw__claims_ws(sc, end);
		end = sw__claims_balanced(sc, k, &s, &e);
	} else if (end && parse_court_year(sc, s, e, po)) {
		po->end = po->full_end = end;
		k = sw__claims_ws(sc, end);
		end = sw__claims_balanced(sc, k, &s, &e);
	}
	if (end && sw__claims_at(sc, k) == '(' && e > s) {
		po->paren_s = s;
		po->paren_e = e;
		po->full_end = end;
	}
}

/* --------------------------------------------------------------- names */

/* The case name before a full citation at p: "Foo v. Bar, " or "In re Foo". */
void sw__claims_find_name(struct sw__claims_scan *sc, size_t p, struct sw__claims_name *nm)
{
	size_t floor = sc->done, ws[SW__CLAIMS_NAME_WORDS], we[SW__CLAIMS_NAME_WORDS], n = 0;
	memset(nm, 0, sizeof(*nm));
	nm->start = p;
	if (p > SW__CLAIMS_NAME_BACK && floor < p - SW__CLAIMS_NAME_BACK)
		floor = p - SW__CLAIMS_NAME_BACK;
	size_t i = p;
	while (i > floor && (sw__claims_at(sc, i - 1) == '(' || sw__claims_at(sc, i - 1) == '['))
		i--;
	while (n < SW__CLAIMS_NAME_WORDS && sw__claims_prev_word(sc, i, floor, &ws[n], &we[n])) {
		size_t s = ws[n], e = we[n];
		/* a semicolon or colon ends the previous citation or clause */
		if (sw__claims_at(sc, e - 1) == ';' || sw__claims_at(sc, e - 1) == ':')
			break;
		/* a paragraph break ends the search */
		size_t gap = e;
		bool para = false;
		for (size_t g = e; g < i && g < e + 8; g++)
			if (sw__claims_at(sc, g) == '\n' && sw__claims_at(sc, sw__claims_blanks(sc, g + 1)) == '\n')
				para = true;
		(void)gap;
		if (para)
			break;
		n++;
		i = s;
	}
	/* the nearest v. */
	size_t v = n;
	for (size_t k = 0; k < n; k++)
		if (sw__claims_word_is(sc, ws[k], we[k], "v.") || sw__claims_word_is(sc, ws[k], we[k], "v") ||
		    sw__claims_word_is(sc, ws[k], we[k], "vs.") || sw__claims_word_is(sc, ws[k], we[k], "V.")) {
			v = k;
			break;
		}
	size_t re = n;
	if (v == n)
		for (size_t k = 1; k < n; k++)
			if (sw__claims_word_is(sc, ws[k], we[k], "re") &&
			    (sw__claims_word_is(sc, ws[k + 1 < n ? k + 1 : k], we[k + 1 < n ? k + 1 : k], "In") ||
			     sw__claims_word_is(sc, ws[k + 1 < n ? k + 1 : k], we[k + 1 < n ? k + 1 : k], "in") ||
			     (k + 1 < n && sw__claims_at(sc, we[k + 1] - 1) == 'n' &&
			      sw__claims_word_is(sc, ws[k + 1] + 1, we[k + 1], "In")))) {
				re = k;
				break;
			}
	size_t lim = v < n ? v : re;
	if (lim == n) {
		/* no v.: "Foo, 1 U.S. 1" names the case by a short name */
		if (n && sw__claims_at(sc, we[0] - 1) == ',' && !sw__claims_ends_with_quote(sc, ws[0], we[0] - 1)) {
			size_t s = ws[0], e = we[0] - 1, a = 0;
			for (size_t k = 0; k < n && k < 4; k++) {
				size_t a_s = ws[k], a_e = k ? we[k] : e, o = sw__claims_open_mark(sc, a_s);
				if (sw__claims_word_in(sc, a_s + o, a_e, sw__claims_stop_words) ||
				    !sw__claims_upper(sw__claims_at(sc, a_s + o)) || (k && sw__claims_at(sc, a_e - 1) == '.') ||
				    (k && sw__claims_at(sc, a_e - 1) == ','))
					break;
				s = a_s + o;
				a = k + 1;
				if (o)
					break;
			}
			if (a) {
				nm->ante_s = s;
				nm->ante_e = e;
			}
		}
		return;
	}
	/* defendant: the words after v. (or re) up to the cite */
	size_t d_s = we[lim], d_e = we[lim];
	for (size_t k = lim; k-- > 0;) {
		int y = paren_year(sc, ws[k], we[k]);
		if (y) {
			nm->year = y;
			break;
		}
		if (is_blank(sc, ws[k], we[k]) || sw__claims_at(sc, ws[k]) == '[')
			break;
		if (d_e == we[lim])
			d_s = ws[k];
		d_e = we[k];
	}
	while (d_e > d_s && (sw__claims_at(sc, d_e - 1) == ',' || sw__claims_at(sc, d_e - 1) == ' '))
		d_e--;
	if (d_e <= d_s)
		return;
	nm->df_s = d_s;
	nm->df_e = d_e;
	if (re < n) {
		nm->start = ws[re + 1 < n ? re + 1 : re];
		if (sw__claims_open_mark(sc, nm->start))
			nm->start += sw__claims_open_mark(sc, nm->start);
		return;
	}
	/* plaintiff: words before v., backwards, until a stop */
	size_t p_s = 0, p_e = 0;
	for (size_t k = v + 1; k < n && k < v + 1 + 10; k++) {
		size_t s = ws[k], e = we[k], o = sw__claims_open_mark(sc, s);
		/* a word ending in a period stops the name unless it is a short
		 * abbreviation (Atl., Corp., Cmty.): longer ones end a sentence */
		if (sw__claims_ends_with_quote(sc, s, e) || (k > v + 1 && sw__claims_at(sc, e - 1) == '.' &&
		    !sw__claims_word_is(sc, s, e, "rel.") && (e - s > 6 || !sw__claims_upper(sw__claims_at(sc, s)))))
			break;
		if (sw__claims_word_in(sc, s + o, e, sw__claims_stop_words))
			break;
		int c = sw__claims_at(sc, s + o);
		if (sw__claims_lower(c) && !sw__claims_word_in(sc, s + o, e, name_lower))
			break;
		/* letters of other scripts may start a name; dashes and
		 * quotation marks (U+2000 block) do not */
		if ((!sw__claims_alnum(c) && c != '&' && c < 0x80) || c == 0xE2)
			break;
		p_s = s + o;
		if (!p_e)
			p_e = e;
		if (o)
			break;
	}
	/* a name does not start with a connective: "of Foo" */
	while (p_e > p_s && p_s) {
		size_t e = p_s;
		while (e < p_e && !sw__claims_space_len(sc, e))
			e++;
		if (e < p_e && sw__claims_word_in(sc, p_s, e, name_lower))
			p_s = sw__claims_ws(sc, e);
		else
			break;
	}
	if (p_e > p_s) {
		nm->pl_s = p_s;
		nm->pl_e = p_e;
		nm->start = p_s;
	} else {
		/* "v. Bar, 1 U.S. 1": only the other party is named */
		nm->ante_s = d_s;
		nm->ante_e = d_e;
		nm->df_s = nm->df_e = 0;
		nm->start = ws[v];
	}
}

/* The short name before a short cite or supra: "Twombly, " -> Twombly. */
bool sw__claims_find_antecedent(struct sw__claims_scan *sc, size_t p, size_t *a_s, size_t *a_e)
{
	size_t floor = sc->done, s, e;
	if (p > SW__CLAIMS_NAME_BACK && floor < p - SW__CLAIMS_NAME_BACK)
		floor = p - SW__CLAIMS_NAME_BACK;
	size_t i = p;
	while (i > floor && (sw__claims_at(sc, i - 1) == '(' || sw__claims_at(sc, i - 1) == '['))
		i--;
	if (!sw__claims_prev_word(sc, i, floor, &s, &e))
		return false;
	if (sw__claims_word_is(sc, s, e, "supra,") || sw__claims_word_is(sc, s, e, "supra")) {
		i = s;
		if (!sw__claims_prev_word(sc, i, floor, &s, &e))
			return false;
	}
	if (sw__claims_at(sc, e - 1) == ',')
		e--;
	if (sw__claims_ends_with_quote(sc, s, e))
		return false;
	size_t first_e = e, start = 0;
	bool found = false;
	for (int k = 0; k < 4; k++) {
		size_t o = sw__claims_open_mark(sc, s);
		if (sw__claims_word_in(sc, s + o, e, sw__claims_stop_words) || !sw__claims_upper(sw__claims_at(sc, s + o)) ||
		    (k && (sw__claims_at(sc, e - 1) == '.' || sw__claims_at(sc, e - 1) == ',' ||
			   sw__claims_at(sc, e - 1) == ';' || sw__claims_at(sc, e - 1) == ':')))
			break;
		start = s + o;
		found = true;
		if (o)
			break;
		i = s;
		if (!sw__claims_prev_word(sc, i, floor, &s, &e))
			break;
	}
	if (!found)
		return false;
	*a_s = start;
	*a_e = first_e;
	return true;
}
