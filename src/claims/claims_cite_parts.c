/*
 * claims_cite_parts.c - the text around a citation's core: word tests
 * going backwards, pages and pins, parentheses, the court and year
 * parenthesis, and the case name or short name before a cite.
 *
 * Everything here only reads the text; claims_cite.c and
 * claims_cite_other.c decide what becomes a claim.
 */
#include <string.h>

#include "claims/claims_int.h"

/* ------------------------------------------------------------ small parts */

static bool is_space_before(const struct claims_scan *sc, size_t j)
{
	int c = cl_at(sc, j - 1);
	if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')
		return true;
	if (j >= 2 && c == 0xA0 && cl_at(sc, j - 2) == 0xC2)
		return true;
	return j >= 3 && cl_at(sc, j - 3) == 0xE2 && cl_at(sc, j - 2) == 0x80 &&
	       (c == 0x89 || c == 0x8A || c == 0x8B || c == 0xAF);
}

/* The word ending at or before i (after skipping spaces back): [*ws, *we).
 * False at floor. */
bool cl_prev_word(const struct claims_scan *sc, size_t i, size_t floor,
		  size_t *ws, size_t *we)
{
	size_t e = cl_ws_back(sc, i, floor);
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
bool cl_ends_with_quote(const struct claims_scan *sc, size_t s, size_t e)
{
	if (e > s && (cl_at(sc, e - 1) == '"'))
		return true;
	return e >= s + 3 && cl_at(sc, e - 3) == 0xE2 && cl_at(sc, e - 2) == 0x80 &&
	       (cl_at(sc, e - 1) == 0x9D || cl_at(sc, e - 1) == 0x9C);
}

/* Length of an opening mark at s: ( [ " “ */
size_t cl_open_mark(const struct claims_scan *sc, size_t s)
{
	int c = cl_at(sc, s);
	if (c == '(' || c == '[' || c == '"')
		return 1;
	if (c == 0xE2 && cl_at(sc, s + 1) == 0x80 && cl_at(sc, s + 2) == 0x9C)
		return 3;
	return 0;
}

bool cl_word_is(const struct claims_scan *sc, size_t s, size_t e, const char *w)
{
	if (e <= s || sc->t[s] != w[0])
		return false; /* most words differ at once: skip the strlen */
	size_t n = strlen(w);
	return e - s == n && memcmp(sc->t + s, w, n) == 0;
}

bool cl_word_in(const struct claims_scan *sc, size_t s, size_t e,
		const char *const *list)
{
	for (; *list; list++)
		if (cl_word_is(sc, s, e, *list))
			return true;
	return false;
}

/* Words that end a case name going backwards: signals and connectives. */
const char *const cl_stop_words[] = {
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
static bool is_blank(const struct claims_scan *sc, size_t s, size_t e)
{
	while (e > s && (cl_at(sc, e - 1) == ',' || cl_at(sc, e - 1) == ';'))
		e--;
	if (e <= s)
		return false;
	size_t i = s;
	bool any = false;
	while (i < e) {
		if (cl_at(sc, i) == '_' || cl_at(sc, i) == '-') {
			i++;
			any = true;
		} else if (cl_at(sc, i) == 0xE2 && cl_at(sc, i + 1) == 0x80 &&
			   (cl_at(sc, i + 2) == 0x94 || cl_at(sc, i + 2) == 0x93)) {
			i += 3;
			any = true;
		} else {
			return false;
		}
	}
	/* a single hyphen is punctuation, not a blank */
	return any && !(e - s == 1 && cl_at(sc, s) == '-');
}

/* "(2007)" as a whole word: the year, else 0. */
static int paren_year(const struct claims_scan *sc, size_t s, size_t e)
{
	while (e > s && cl_at(sc, e - 1) == ',')
		e--;
	if (e - s != 6 || (cl_at(sc, s) != '(' && cl_at(sc, s) != '[') ||
	    (cl_at(sc, e - 1) != ')' && cl_at(sc, e - 1) != ']'))
		return 0;
	size_t ye;
	int y = cl_year(sc, s + 1, &ye);
	return ye == e - 1 ? y : 0;
}

/* ------------------------------------------------------------------ pages */

/* A page at i: digits (with a -B or -U suffix), lower-case roman numerals,
 * or a blank.  Sets *blank for a blank page.  Returns the end or 0. */
size_t cl_read_page(const struct claims_scan *sc, size_t i, bool commas, bool *blank)
{
	*blank = false;
	int c = cl_at(sc, i);
	if (cl_digit(c)) {
		size_t e = cl_digits(sc, i);
		while (commas && cl_at(sc, e) == ',' && cl_digit(cl_at(sc, e + 1)))
			e = cl_digits(sc, e + 1);
		if (cl_at(sc, e) == '-' && cl_upper(cl_at(sc, e + 1)) &&
		    !cl_alnum(cl_at(sc, e + 2)))
			e += 2;
		else if (commas && cl_upper(cl_at(sc, e)) && !cl_alnum(cl_at(sc, e + 1)))
			e++;
		if (cl_alnum(cl_at(sc, e)))
			return 0;
		return e;
	}
	if (c == '_' || c == '-' || c == 0xE2) {
		size_t e = i;
		while (e < sc->n && !cl_space_len(sc, e) && cl_at(sc, e) != ',' &&
		       cl_at(sc, e) != ';' && cl_at(sc, e) != '.' && cl_at(sc, e) != ')')
			e++;
		if (is_blank(sc, i, e)) {
			*blank = true;
			return e;
		}
		return 0;
	}
	if (c == 'i' || c == 'v' || c == 'x' || c == 'l' || c == 'c') {
		size_t e = i;
		while (strchr("ivxlc", cl_at(sc, e)) && cl_at(sc, e))
			e++;
		if (e - i < 2 || e - i > 8 || cl_alnum(cl_at(sc, e)) || cl_at(sc, e) == '.')
			return 0;
		return e;
	}
	return 0;
}

/* One pin: "at"? "p."|"pp."? then *12, 12-14, 12 n.3, ¶ 7, 119:12-14. */
size_t cl_read_pin_item(const struct claims_scan *sc, size_t i)
{
	size_t k = i, e;
	if ((e = cl_lit(sc, k, "pp.")) || (e = cl_lit(sc, k, "p.")))
		k = cl_ws(sc, e);
	if (cl_at(sc, k) == 0xC2 && cl_at(sc, k + 1) == 0xB6) {
		k += 2;
		if (cl_at(sc, k) == 0xC2 && cl_at(sc, k + 1) == 0xB6)
			k += 2;
		k = cl_ws(sc, k);
	}
	if (cl_at(sc, k) == '*')
		k++;
	if (!cl_digit(cl_at(sc, k)))
		return 0;
	e = cl_digits(sc, k);
	if (cl_at(sc, e) == ':' && cl_digit(cl_at(sc, e + 1)))
		e = cl_digits(sc, e + 1);
	size_t d = cl_dash(sc, e);
	if (d) {
		if (cl_at(sc, d) == '*')
			d++;
		if (cl_digit(cl_at(sc, d)))
			e = cl_digits(sc, d);
	}
	if (cl_alpha(cl_at(sc, e)) && !(cl_at(sc, e) == 'n' && cl_at(sc, e + 1) == '.'))
		return 0;
	/* footnotes: 12 n.3, 12 & n. 4, 12 nn.3-4 */
	size_t f = cl_ws(sc, e), g;
	if ((g = cl_lit(sc, f, "n.")) || (g = cl_lit(sc, f, "nn."))) {
		g = cl_ws(sc, g);
		if (cl_digit(cl_at(sc, g))) {
			e = cl_digits(sc, g);
			if ((d = cl_dash(sc, e)) && cl_digit(cl_at(sc, d)))
				e = cl_digits(sc, d);
		}
	}
	return e;
}

/* A balanced parenthesis at i: the end after ')' or 0. */
size_t cl_balanced(const struct claims_scan *sc, size_t i, size_t *in_s, size_t *in_e)
{
	int open = cl_at(sc, i), close = open == '(' ? ')' : ']';
	if (open != '(' && open != '[')
		return 0;
	int depth = 0;
	for (size_t k = i; k < sc->n && k < i + CLAIMS_PAREN_MAX; k++) {
		int c = cl_at(sc, k);
		if (c == open)
			depth++;
		else if (c == close && --depth == 0) {
			*in_s = i + 1;
			*in_e = k;
			return k + 1;
		} else if (c == '\n' && cl_at(sc, cl_blanks(sc, k + 1)) == '\n')
			return 0; /* a paragraph break ends any parenthesis */
	}
	return 0;
}

/* --------------------------------------------------------- court and year */

static bool is_month_word(const struct claims_scan *sc, size_t s, size_t e)
{
	static const char *const m[] = {
		"Jan.", "Feb.", "Mar.", "Apr.", "May", "June", "July", "Aug.", "Sept.",
		"Sep.", "Oct.", "Nov.", "Dec.", "January", "February", "March", "April",
		"Jun.", "Jul.", "August", "September", "October", "November", "December", NULL,
	};
	return cl_word_in(sc, s, e, m);
}

/* Inside a court/date parenthesis [s, e): the year at its end, the court
 * before, and a month and day if given.  False when there is no year. */
static bool parse_court_year(const struct claims_scan *sc, size_t s, size_t e, struct claims_post *po)
{
	size_t k = e;
	while (k > s && (cl_at(sc, k - 1) == ' '))
		k--;
	/* a year range: 1993-94, 2005-06 */
	size_t ye = k, ys;
	ys = ye;
	while (ys > s && cl_digit(cl_at(sc, ys - 1)))
		ys--;
	if (ye - ys == 2 && ys > s && cl_at(sc, ys - 1) == '-') {
		ye = ys - 1;
		ys = ye;
		while (ys > s && cl_digit(cl_at(sc, ys - 1)))
			ys--;
	}
	if (ye - ys != 4)
		return false;
	size_t yend;
	int y = cl_year(sc, ys, &yend);
	if (!y || (ys > s && cl_alnum(cl_at(sc, ys - 1)) && cl_at(sc, ys - 1) != '.'))
		return false;
	po->year = y;
	size_t c = ys;
	/* a date before it: "Feb. 9, 2017" or "12/15/95" */
	size_t w = c;
	while (w > s && cl_at(sc, w - 1) == ' ')
		w--;
	if (w > s && cl_at(sc, w - 1) == ',') {
		size_t d = w - 1, ds = d;
		while (ds > s && cl_digit(cl_at(sc, ds - 1)))
			ds--;
		if (d - ds >= 1 && d - ds <= 2) {
			size_t me = ds;
			while (me > s && cl_at(sc, me - 1) == ' ')
				me--;
			size_t ms = me;
			while (ms > s && (cl_alpha(cl_at(sc, ms - 1)) || cl_at(sc, ms - 1) == '.'))
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
	while (c > s && (cl_at(sc, c - 1) == ' ' || cl_at(sc, c - 1) == ','))
		c--;
	if (c > s) {
		po->court_s = s;
		po->court_e = c;
	}
	return true;
}

/* After a citation's last pin: the court and year in parentheses, then an
 * explanatory parenthetical.  i is where to look. */
void cl_parse_post(struct claims_scan *sc, size_t i, struct claims_post *po)
{
	memset(po, 0, sizeof(*po));
	po->end = po->full_end = i;
	size_t k = cl_ws(sc, i), s, e;
	size_t end = cl_balanced(sc, k, &s, &e);
	if (end && cl_digit(cl_at(sc, cl_ws(sc, s))) && !parse_court_year(sc, s, e, po))
		return; /* (198⁴), (3 Atl. 33): neither court nor parenthetical */
	if (end && po->year) {
		po->end = po->full_end = end;
		k = cl_ws(sc, end);
		end = cl_balanced(sc, k, &s, &e);
	} else if (end && parse_court_year(sc, s, e, po)) {
		po->end = po->full_end = end;
		k = cl_ws(sc, end);
		end = cl_balanced(sc, k, &s, &e);
	}
	if (end && cl_at(sc, k) == '(' && e > s) {
		po->paren_s = s;
		po->paren_e = e;
		po->full_end = end;
	}
}

/* --------------------------------------------------------------- names */

/* The case name before a full citation at p: "Foo v. Bar, " or "In re Foo". */
void cl_find_name(struct claims_scan *sc, size_t p, struct claims_name *nm)
{
	size_t floor = sc->done, ws[CLAIMS_NAME_WORDS], we[CLAIMS_NAME_WORDS], n = 0;
	memset(nm, 0, sizeof(*nm));
	nm->start = p;
	if (p > CLAIMS_NAME_BACK && floor < p - CLAIMS_NAME_BACK)
		floor = p - CLAIMS_NAME_BACK;
	size_t i = p;
	while (i > floor && (cl_at(sc, i - 1) == '(' || cl_at(sc, i - 1) == '['))
		i--;
	while (n < CLAIMS_NAME_WORDS && cl_prev_word(sc, i, floor, &ws[n], &we[n])) {
		size_t s = ws[n], e = we[n];
		/* a semicolon or colon ends the previous citation or clause */
		if (cl_at(sc, e - 1) == ';' || cl_at(sc, e - 1) == ':')
			break;
		/* a paragraph break ends the search */
		size_t gap = e;
		bool para = false;
		for (size_t g = e; g < i && g < e + 8; g++)
			if (cl_at(sc, g) == '\n' && cl_at(sc, cl_blanks(sc, g + 1)) == '\n')
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
		if (cl_word_is(sc, ws[k], we[k], "v.") || cl_word_is(sc, ws[k], we[k], "v") ||
		    cl_word_is(sc, ws[k], we[k], "vs.") || cl_word_is(sc, ws[k], we[k], "V.")) {
			v = k;
			break;
		}
	size_t re = n;
	if (v == n)
		for (size_t k = 1; k < n; k++)
			if (cl_word_is(sc, ws[k], we[k], "re") &&
			    (cl_word_is(sc, ws[k + 1 < n ? k + 1 : k], we[k + 1 < n ? k + 1 : k], "In") ||
			     cl_word_is(sc, ws[k + 1 < n ? k + 1 : k], we[k + 1 < n ? k + 1 : k], "in") ||
			     (k + 1 < n && cl_at(sc, we[k + 1] - 1) == 'n' &&
			      cl_word_is(sc, ws[k + 1] + 1, we[k + 1], "In")))) {
				re = k;
				break;
			}
	size_t lim = v < n ? v : re;
	if (lim == n) {
		/* no v.: "Foo, 1 U.S. 1" names the case by a short name */
		if (n && cl_at(sc, we[0] - 1) == ',' && !cl_ends_with_quote(sc, ws[0], we[0] - 1)) {
			size_t s = ws[0], e = we[0] - 1, a = 0;
			for (size_t k = 0; k < n && k < 4; k++) {
				size_t a_s = ws[k], a_e = k ? we[k] : e, o = cl_open_mark(sc, a_s);
				if (cl_word_in(sc, a_s + o, a_e, cl_stop_words) ||
				    !cl_upper(cl_at(sc, a_s + o)) || (k && cl_at(sc, a_e - 1) == '.') ||
				    (k && cl_at(sc, a_e - 1) == ','))
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
		if (is_blank(sc, ws[k], we[k]) || cl_at(sc, ws[k]) == '[')
			break;
		if (d_e == we[lim])
			d_s = ws[k];
		d_e = we[k];
	}
	while (d_e > d_s && (cl_at(sc, d_e - 1) == ',' || cl_at(sc, d_e - 1) == ' '))
		d_e--;
	if (d_e <= d_s)
		return;
	nm->df_s = d_s;
	nm->df_e = d_e;
	if (re < n) {
		nm->start = ws[re + 1 < n ? re + 1 : re];
		if (cl_open_mark(sc, nm->start))
			nm->start += cl_open_mark(sc, nm->start);
		return;
	}
	/* plaintiff: words before v., backwards, until a stop */
	size_t p_s = 0, p_e = 0;
	for (size_t k = v + 1; k < n && k < v + 1 + 10; k++) {
		size_t s = ws[k], e = we[k], o = cl_open_mark(sc, s);
		/* a word ending in a period stops the name unless it is a short
		 * abbreviation (Atl., Corp., Cmty.): longer ones end a sentence */
		if (cl_ends_with_quote(sc, s, e) || (k > v + 1 && cl_at(sc, e - 1) == '.' &&
		    !cl_word_is(sc, s, e, "rel.") && (e - s > 6 || !cl_upper(cl_at(sc, s)))))
			break;
		if (cl_word_in(sc, s + o, e, cl_stop_words))
			break;
		int c = cl_at(sc, s + o);
		if (cl_lower(c) && !cl_word_in(sc, s + o, e, name_lower))
			break;
		/* letters of other scripts may start a name; dashes and
		 * quotation marks (U+2000 block) do not */
		if ((!cl_alnum(c) && c != '&' && c < 0x80) || c == 0xE2)
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
		while (e < p_e && !cl_space_len(sc, e))
			e++;
		if (e < p_e && cl_word_in(sc, p_s, e, name_lower))
			p_s = cl_ws(sc, e);
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
bool cl_find_antecedent(struct claims_scan *sc, size_t p, size_t *a_s, size_t *a_e)
{
	size_t floor = sc->done, s, e;
	if (p > CLAIMS_NAME_BACK && floor < p - CLAIMS_NAME_BACK)
		floor = p - CLAIMS_NAME_BACK;
	size_t i = p;
	while (i > floor && (cl_at(sc, i - 1) == '(' || cl_at(sc, i - 1) == '['))
		i--;
	if (!cl_prev_word(sc, i, floor, &s, &e))
		return false;
	if (cl_word_is(sc, s, e, "supra,") || cl_word_is(sc, s, e, "supra")) {
		i = s;
		if (!cl_prev_word(sc, i, floor, &s, &e))
			return false;
	}
	if (cl_at(sc, e - 1) == ',')
		e--;
	if (cl_ends_with_quote(sc, s, e))
		return false;
	size_t first_e = e, start = 0;
	bool found = false;
	for (int k = 0; k < 4; k++) {
		size_t o = cl_open_mark(sc, s);
		if (cl_word_in(sc, s + o, e, cl_stop_words) || !cl_upper(cl_at(sc, s + o)) ||
		    (k && (cl_at(sc, e - 1) == '.' || cl_at(sc, e - 1) == ',' ||
			   cl_at(sc, e - 1) == ';' || cl_at(sc, e - 1) == ':')))
			break;
		start = s + o;
		found = true;
		if (o)
			break;
		i = s;
		if (!cl_prev_word(sc, i, floor, &s, &e))
			break;
	}
	if (!found)
		return false;
	*a_s = start;
	*a_e = first_e;
	return true;
}
