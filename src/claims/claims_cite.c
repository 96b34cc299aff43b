/*
 * claims_cite.c - citations to authority: cases, journals, statutes and
 * regulations, court rules, id., supra and bare sections.
 *
 * A reporter is recognised by table lookup, not by one regular expression
 * per reporter: after a volume the next few words are joined without spaces
 * and looked up longest first, so "U. S.", "U.S." and "U.\nS." all meet the
 * same entry and a new reporter in reporters-db needs no code.
 */
#include <stdlib.h>
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
static bool prev_word(const struct claims_scan *sc, size_t i, size_t floor,
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
static bool ends_with_quote(const struct claims_scan *sc, size_t s, size_t e)
{
	if (e > s && (cl_at(sc, e - 1) == '"'))
		return true;
	return e >= s + 3 && cl_at(sc, e - 3) == 0xE2 && cl_at(sc, e - 2) == 0x80 &&
	       (cl_at(sc, e - 1) == 0x9D || cl_at(sc, e - 1) == 0x9C);
}

/* Length of an opening mark at s: ( [ " “ */
static size_t open_mark(const struct claims_scan *sc, size_t s)
{
	int c = cl_at(sc, s);
	if (c == '(' || c == '[' || c == '"')
		return 1;
	if (c == 0xE2 && cl_at(sc, s + 1) == 0x80 && cl_at(sc, s + 2) == 0x9C)
		return 3;
	return 0;
}

static bool word_is(const struct claims_scan *sc, size_t s, size_t e, const char *w)
{
	if (e <= s || sc->t[s] != w[0])
		return false; /* most words differ at once: skip the strlen */
	size_t n = strlen(w);
	return e - s == n && memcmp(sc->t + s, w, n) == 0;
}

static bool word_in(const struct claims_scan *sc, size_t s, size_t e,
		    const char *const *list)
{
	for (; *list; list++)
		if (word_is(sc, s, e, *list))
			return true;
	return false;
}

/* Words that end a case name going backwards: signals and connectives. */
static const char *const stop_words[] = {
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

/* -------------------------------------------------------------- reporters */

struct rep_words {
	size_t s[CLAIMS_REP_WORDS], e[CLAIMS_REP_WORDS];
	size_t n;
};

static bool word_byte(int c)
{
	return c > ' ' && c != ',' && c != ';' && c != ':' && c != '[' && c != ']' &&
	       c != '(' && c != ')' && c != '"' && c != 0x7f;
}

/* Read the words that may spell a reporter, from i. */
static void read_rep_words(const struct claims_scan *sc, size_t i, struct rep_words *w)
{
	w->n = 0;
	while (w->n < CLAIMS_REP_WORDS && i < sc->n) {
		if (w->n) {
			size_t k = cl_ws(sc, i);
			if (k == i && cl_at(sc, i) != '(')
				break;
			i = k;
		}
		size_t s = i;
		int c = cl_at(sc, i);
		if (c == '(' && w->n) {
			/* (1st), (CCH), (N.S.): a short parenthesised part */
			size_t k = i + 1;
			while (k < sc->n && k < i + 12 && (cl_alnum(cl_at(sc, k)) ||
			       cl_at(sc, k) == '.' || cl_at(sc, k) == ' '))
				k++;
			if (cl_at(sc, k) != ')' || k == i + 1)
				break;
			i = k + 1;
		} else if (cl_alpha(c) || (w->n && cl_digit(c))) {
			bool letters = false;
			while (i < sc->n) {
				int d = cl_at(sc, i);
				if (d == 0xE2 && cl_at(sc, i + 1) == 0x80 &&
				    (cl_at(sc, i + 2) == 0x9C || cl_at(sc, i + 2) == 0x9D ||
				     cl_at(sc, i + 2) == 0x94 || cl_at(sc, i + 2) == 0x93 ||
				     cl_at(sc, i + 2) == 0x8B))
					break;
				if (!word_byte(d) || cl_space_len(sc, i))
					break;
				if (cl_alpha(d))
					letters = true;
				i++;
			}
			if (!letters)
				break;
			if (word_is(sc, s, i, "at"))
				break;
		} else {
			break;
		}
		w->s[w->n] = s;
		w->e[w->n] = i;
		w->n++;
	}
}

/* Join words [0, k) without spaces, ’ as '. */
static size_t make_key(const struct claims_scan *sc, const struct rep_words *w,
		       size_t k, char *key)
{
	size_t n = 0;
	for (size_t j = 0; j < k; j++)
		for (size_t i = w->s[j]; i < w->e[j]; i++) {
			if (n >= CLAIMS_KEY_MAX)
				return 0;
			if (cl_at(sc, i) == 0xE2 && cl_at(sc, i + 1) == 0x80 &&
			    cl_at(sc, i + 2) == 0x99) {
				key[n++] = '\'';
				i += 2;
			} else {
				key[n++] = sc->t[i];
			}
		}
	return n;
}

/* ------------------------------------------------------------------ pages */

/* A page at i: digits (with a -B or -U suffix), lower-case roman numerals,
 * or a blank.  Sets *blank for a blank page.  Returns the end or 0. */
static size_t read_page(const struct claims_scan *sc, size_t i, bool commas, bool *blank)
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
static size_t read_pin_item(const struct claims_scan *sc, size_t i)
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

static size_t try_core(struct claims_scan *sc, size_t p, bool probe, struct claims_builder *b,
		       size_t *resume);

/* A digit run at i that starts another citation (a parallel cite)? */
static bool starts_cite(struct claims_scan *sc, size_t i)
{
	if (!cl_digit(cl_at(sc, i)) || sc->depth >= 2)
		return false;
	size_t resume;
	struct claims_builder tmp;
	/* try_core reads pins, which ask this again: the depth bound keeps a
	 * hostile chain of cites from recursing without end */
	sc->depth++;
	bool yes = try_core(sc, i, true, &tmp, &resume) != 0;
	sc->depth--;
	return yes;
}

/* A list of pins from i: "347-348", "at 62-63, 67-68", "2277, 2278". */
static size_t read_pins(struct claims_scan *sc, size_t i, bool allow_at)
{
	size_t k = i, e, end = 0;
	if (allow_at && (e = cl_word(sc, k, "at")))
		k = cl_ws(sc, e);
	for (int n = 0; n < 64; n++) {
		if (n && starts_cite(sc, k))
			break;
		e = read_pin_item(sc, k);
		if (!e)
			break;
		end = e;
		/* another item after ", " or " & " / " and " */
		size_t j = e;
		if (cl_at(sc, j) == ',')
			j = cl_ws(sc, j + 1);
		else if ((e = cl_lit(sc, cl_ws(sc, j), "&")) || (e = cl_word(sc, cl_ws(sc, j), "and")))
			j = cl_ws(sc, e);
		else
			break;
		if (j == end)
			break;
		k = j;
	}
	return end;
}

/* A balanced parenthesis at i: the end after ')' or 0. */
static size_t balanced(const struct claims_scan *sc, size_t i, size_t *in_s, size_t *in_e)
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

struct post {
	size_t court_s, court_e;     /* court text, or empty */
	size_t month_s, month_e, day_s, day_e;
	int year;
	size_t paren_s, paren_e;     /* explanatory parenthetical, or empty */
	size_t end;                  /* end of the court/year parenthesis */
	size_t full_end;             /* end including the parenthetical */
	size_t pub_s, pub_e;         /* publisher of a code: (West 2009) */
};

static bool is_month_word(const struct claims_scan *sc, size_t s, size_t e)
{
	static const char *const m[] = {
		"Jan.", "Feb.", "Mar.", "Apr.", "May", "June", "July", "Aug.", "Sept.",
		"Sep.", "Oct.", "Nov.", "Dec.", "January", "February", "March", "April",
		"Jun.", "Jul.", "August", "September", "October", "November", "December", NULL,
	};
	return word_in(sc, s, e, m);
}

/* Inside a court/date parenthesis [s, e): the year at its end, the court
 * before, and a month and day if given.  False when there is no year. */
static bool parse_court_year(const struct claims_scan *sc, size_t s, size_t e, struct post *po)
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
static void parse_post(struct claims_scan *sc, size_t i, struct post *po)
{
	memset(po, 0, sizeof(*po));
	po->end = po->full_end = i;
	size_t k = cl_ws(sc, i), s, e;
	size_t end = balanced(sc, k, &s, &e);
	if (end && cl_digit(cl_at(sc, cl_ws(sc, s))) && !parse_court_year(sc, s, e, po))
		return; /* (198⁴), (3 Atl. 33): neither court nor parenthetical */
	if (end && po->year) {
		po->end = po->full_end = end;
		k = cl_ws(sc, end);
		end = balanced(sc, k, &s, &e);
	} else if (end && parse_court_year(sc, s, e, po)) {
		po->end = po->full_end = end;
		k = cl_ws(sc, end);
		end = balanced(sc, k, &s, &e);
	}
	if (end && cl_at(sc, k) == '(' && e > s) {
		po->paren_s = s;
		po->paren_e = e;
		po->full_end = end;
	}
}

/* --------------------------------------------------------------- names */

struct name {
	size_t pl_s, pl_e, df_s, df_e, ante_s, ante_e;
	size_t start;  /* where the name starts, or the cite's start */
	int year;      /* (2007) between the name and the cite */
};

/* The case name before a full citation at p: "Foo v. Bar, " or "In re Foo". */
static void find_name(struct claims_scan *sc, size_t p, struct name *nm)
{
	size_t floor = sc->done, ws[CLAIMS_NAME_WORDS], we[CLAIMS_NAME_WORDS], n = 0;
	memset(nm, 0, sizeof(*nm));
	nm->start = p;
	if (p > CLAIMS_NAME_BACK && floor < p - CLAIMS_NAME_BACK)
		floor = p - CLAIMS_NAME_BACK;
	size_t i = p;
	while (i > floor && (cl_at(sc, i - 1) == '(' || cl_at(sc, i - 1) == '['))
		i--;
	while (n < CLAIMS_NAME_WORDS && prev_word(sc, i, floor, &ws[n], &we[n])) {
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
		if (word_is(sc, ws[k], we[k], "v.") || word_is(sc, ws[k], we[k], "v") ||
		    word_is(sc, ws[k], we[k], "vs.") || word_is(sc, ws[k], we[k], "V.")) {
			v = k;
			break;
		}
	size_t re = n;
	if (v == n)
		for (size_t k = 1; k < n; k++)
			if (word_is(sc, ws[k], we[k], "re") &&
			    (word_is(sc, ws[k + 1 < n ? k + 1 : k], we[k + 1 < n ? k + 1 : k], "In") ||
			     word_is(sc, ws[k + 1 < n ? k + 1 : k], we[k + 1 < n ? k + 1 : k], "in") ||
			     (k + 1 < n && cl_at(sc, we[k + 1] - 1) == 'n' &&
			      word_is(sc, ws[k + 1] + 1, we[k + 1], "In")))) {
				re = k;
				break;
			}
	size_t lim = v < n ? v : re;
	if (lim == n) {
		/* no v.: "Foo, 1 U.S. 1" names the case by a short name */
		if (n && cl_at(sc, we[0] - 1) == ',' && !ends_with_quote(sc, ws[0], we[0] - 1)) {
			size_t s = ws[0], e = we[0] - 1, a = 0;
			for (size_t k = 0; k < n && k < 4; k++) {
				size_t a_s = ws[k], a_e = k ? we[k] : e, o = open_mark(sc, a_s);
				if (word_in(sc, a_s + o, a_e, stop_words) ||
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
		if (open_mark(sc, nm->start))
			nm->start += open_mark(sc, nm->start);
		return;
	}
	/* plaintiff: words before v., backwards, until a stop */
	size_t p_s = 0, p_e = 0;
	for (size_t k = v + 1; k < n && k < v + 1 + 10; k++) {
		size_t s = ws[k], e = we[k], o = open_mark(sc, s);
		/* a word ending in a period stops the name unless it is a short
		 * abbreviation (Atl., Corp., Cmty.): longer ones end a sentence */
		if (ends_with_quote(sc, s, e) || (k > v + 1 && cl_at(sc, e - 1) == '.' &&
		    !word_is(sc, s, e, "rel.") && (e - s > 6 || !cl_upper(cl_at(sc, s)))))
			break;
		if (word_in(sc, s + o, e, stop_words))
			break;
		int c = cl_at(sc, s + o);
		if (cl_lower(c) && !word_in(sc, s + o, e, name_lower))
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
		if (e < p_e && word_in(sc, p_s, e, name_lower))
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
static bool find_antecedent(struct claims_scan *sc, size_t p, size_t *a_s, size_t *a_e)
{
	size_t floor = sc->done, s, e;
	if (p > CLAIMS_NAME_BACK && floor < p - CLAIMS_NAME_BACK)
		floor = p - CLAIMS_NAME_BACK;
	size_t i = p;
	while (i > floor && (cl_at(sc, i - 1) == '(' || cl_at(sc, i - 1) == '['))
		i--;
	if (!prev_word(sc, i, floor, &s, &e))
		return false;
	if (word_is(sc, s, e, "supra,") || word_is(sc, s, e, "supra")) {
		i = s;
		if (!prev_word(sc, i, floor, &s, &e))
			return false;
	}
	if (cl_at(sc, e - 1) == ',')
		e--;
	if (ends_with_quote(sc, s, e))
		return false;
	size_t first_e = e, start = 0;
	bool found = false;
	for (int k = 0; k < 4; k++) {
		size_t o = open_mark(sc, s);
		if (word_in(sc, s + o, e, stop_words) || !cl_upper(cl_at(sc, s + o)) ||
		    (k && (cl_at(sc, e - 1) == '.' || cl_at(sc, e - 1) == ',' ||
			   cl_at(sc, e - 1) == ';' || cl_at(sc, e - 1) == ':')))
			break;
		start = s + o;
		found = true;
		if (o)
			break;
		i = s;
		if (!prev_word(sc, i, floor, &s, &e))
			break;
	}
	if (!found)
		return false;
	*a_s = start;
	*a_e = first_e;
	return true;
}

/* ------------------------------------------------------------- cite cores */

/* Pick the edition among forms [first, first + count) of src that fits the
 * year, or the default (the first of src). */
static const struct claims_reporter *pick(size_t first, size_t count, int src, int year,
					  bool *ambiguous)
{
	const struct claims_reporter *def = NULL, *fit = NULL;
	int nfit = 0, ncanon = 0;
	for (size_t i = first; i < first + count; i++) {
		const struct claims_reporter *r = &claims_reporters[i];
		if (r->src != src)
			continue;
		if (!def)
			def = r;
		bool seen = false;
		for (size_t k = first; k < i; k++)
			if (claims_reporters[k].src == src &&
			    !strcmp(claims_reporters[k].canonical, r->canonical))
				seen = true;
		ncanon += !seen;
		if (year && (!r->start_year || r->start_year <= year) &&
		    (!r->end_year || year <= r->end_year)) {
			if (!fit || strcmp(fit->canonical, r->canonical) != 0)
				nfit++;
			if (!fit)
				fit = r;
		}
	}
	/* several editions share the abbreviation and the year does not
	 * choose: the verifier must not trust the default reading */
	*ambiguous = ncanon > 1 && (year ? nfit > 1 : true);
	return nfit == 1 ? fit : def;
}

static size_t read_section(const struct claims_scan *sc, size_t i, size_t *sec_e, size_t *pin_e);

/* A section marker at i: § §§ sec. Sec. Section(s) s. */
static size_t section_marker(const struct claims_scan *sc, size_t i)
{
	size_t e;
	if (cl_at(sc, i) == 0xC2 && cl_at(sc, i + 1) == 0xA7) {
		e = i + 2;
		if (cl_at(sc, e) == 0xC2 && cl_at(sc, e + 1) == 0xA7)
			e += 2;
		return e;
	}
	if ((e = cl_word(sc, i, "Sections")) || (e = cl_word(sc, i, "Section")) ||
	    (e = cl_word(sc, i, "sections")) || (e = cl_word(sc, i, "section")) ||
	    (e = cl_lit(sc, i, "secs.")) || (e = cl_lit(sc, i, "sec.")) ||
	    (e = cl_lit(sc, i, "Sec.")) || (e = cl_word(sc, i, "S.")))
		return e;
	return 0;
}

/* Everything one core citation holds, before it becomes a claim. */
struct core {
	const struct claims_reporter *rep;
	size_t first, count;
	size_t vol_s, vol_e, rep_s, rep_e, page_s, page_e, pin_s, pin_e;
	size_t title_s, title_e, chap_s, chap_e;
	size_t start, end;
	bool is_short, blank;
	int src;
};

/* Complete a citation after a reporter [rep_s, rep_e) found with forms
 * [first, first+count).  vol is the number before it (or empty). */
static size_t complete(struct claims_scan *sc, struct core *c, size_t j)
{
	size_t k, e;
	const struct claims_reporter *r = &claims_reporters[c->first];
	/* laws first when a section marker follows */
	for (size_t i = c->first; i < c->first + c->count; i++) {
		const struct claims_reporter *x = &claims_reporters[i];
		bool has_vol = c->vol_e > c->vol_s;
		if (x->src == CLAIMS_SRC_LAW) {
			k = j;
			if (cl_at(sc, k) == ',')
				k++;
			k = cl_ws(sc, k);
			if (x->shape == CLAIMS_SHAPE_LAW_VOLPAGE) {
				if (!has_vol)
					continue;
				bool blank;
				e = read_page(sc, k, true, &blank);
				if (!e || blank)
					continue;
				c->page_s = k;
				c->page_e = e;
			} else {
				if (has_vol != (x->shape == CLAIMS_SHAPE_LAW_TITLE))
					continue;
				size_t t;
				if ((t = cl_lit(sc, k, "ch.")) || (t = cl_lit(sc, k, "tit."))) {
					size_t d = cl_ws(sc, t), de = cl_digits(sc, d);
					if (de == d)
						continue;
					c->chap_s = d;
					c->chap_e = de;
					if (cl_at(sc, t - 3) == 't') { /* tit. */
						c->title_s = d;
						c->title_e = de;
						c->chap_s = c->chap_e = 0;
					}
					k = cl_ws(sc, cl_at(sc, de) == ',' ? de + 1 : de);
				}
				size_t m = section_marker(sc, k);
				if (!m)
					continue;
				k = cl_ws(sc, m);
				size_t sec_e, pin_e;
				e = read_section(sc, k, &sec_e, &pin_e);
				if (!e)
					continue;
				c->page_s = k;
				c->page_e = sec_e;
				if (pin_e > sec_e) {
					c->pin_s = sec_e;
					c->pin_e = pin_e;
				}
				e = pin_e;
			}
			c->rep = x;
			c->src = CLAIMS_SRC_LAW;
			c->end = e;
			return e;
		}
		if (!has_vol && x->shape != CLAIMS_SHAPE_PARA && x->shape != CLAIMS_SHAPE_NOVOL &&
		    x->shape != CLAIMS_SHAPE_YEARPAGE)
			continue;
		if (has_vol && (x->shape == CLAIMS_SHAPE_NOVOL || x->shape == CLAIMS_SHAPE_YEARPAGE ||
				x->shape == CLAIMS_SHAPE_DASH))
			continue;
		k = j;
		if (cl_at(sc, k) == ',')
			k++;
		size_t sp = cl_ws(sc, k);
		if (x->shape == CLAIMS_SHAPE_YEARPAGE) {
			size_t ye;
			if (!cl_year(sc, sp, &ye) || cl_at(sc, ye) != '-' || !cl_digit(cl_at(sc, ye + 1)))
				continue;
			e = cl_digits(sc, ye + 1);
			if (cl_alnum(cl_at(sc, e)))
				continue;
			c->vol_s = sp;
			c->vol_e = ye;
			c->page_s = ye + 1;
			c->page_e = e;
		} else if (x->shape == CLAIMS_SHAPE_PARA && !has_vol) {
			size_t m = sp;
			if (cl_at(sc, m) == 'P' && cl_digit(cl_at(sc, m + 1)))
				m++;
			else if (cl_at(sc, m) == 0xC2 && cl_at(sc, m + 1) == 0xB6)
				m = cl_ws(sc, m + 2);
			else if ((e = cl_lit(sc, m, "para.")) || (e = cl_lit(sc, m, "par.")))
				m = cl_ws(sc, e);
			bool blank;
			e = read_page(sc, m, true, &blank);
			if (!e || blank)
				continue;
			c->page_s = m;
			c->page_e = e;
		} else {
			if (sp == k && !(x->shape == CLAIMS_SHAPE_PARA))
				continue; /* a page needs a space before it */
			if ((e = cl_word(sc, sp, "at"))) {
				size_t m = cl_ws(sc, e);
				size_t pe = read_pins(sc, m, false);
				size_t pg = m;
				if ((e = cl_lit(sc, pg, "pp.")) || (e = cl_lit(sc, pg, "p.")))
					pg = cl_ws(sc, e);
				else if ((e = cl_word(sc, pg, "page")))
					pg = cl_ws(sc, e);
				if (cl_at(sc, pg) == '*')
					pg++;
				if (!pe || !cl_digit(cl_at(sc, pg)))
					continue;
				c->is_short = true;
				c->page_s = pg;
				c->page_e = cl_digits(sc, pg);
				c->pin_s = m;
				c->pin_e = pe;
				c->rep = x;
				c->src = x->src;
				c->end = pe;
				return pe;
			}
			bool blank;
			e = read_page(sc, sp, x->shape == CLAIMS_SHAPE_PARA, &blank);
			if (!e)
				continue;
			c->blank = blank;
			c->page_s = sp;
			c->page_e = e;
		}
		c->rep = x;
		c->src = x->src;
		c->end = e;
		(void)r;
		return e;
	}
	return 0;
}

/* Law sections: 1332, 120.68, 21-3516, 36-3701, 1981-1983, then (a)(1). */
static size_t read_section(const struct claims_scan *sc, size_t i, size_t *sec_e, size_t *pin_e)
{
	if (!cl_digit(cl_at(sc, i)))
		return 0;
	size_t e = cl_digits(sc, i), d;
	for (int g = 0; g < 4; g++) {
		int c = cl_at(sc, e);
		if ((c == '.' || c == ':' || c == '-') && cl_digit(cl_at(sc, e + 1)))
			e = cl_digits(sc, e + 1);
		else if ((d = cl_dash(sc, e)) && d > e + 1 && cl_digit(cl_at(sc, d)))
			e = cl_digits(sc, d);
		else
			break;
	}
	if (cl_alpha(cl_at(sc, e)) && !cl_alpha(cl_at(sc, e + 1)))
		e++; /* § 1983a */
	*sec_e = e;
	/* subsections (a)(1)(A), "and (d)", "et seq." */
	size_t k = e;
	for (int g = 0; g < 8; g++) {
		if (cl_at(sc, k) != '(')
			break;
		size_t m = k + 1;
		while (m < k + 6 && cl_alnum(cl_at(sc, m)))
			m++;
		if (m == k + 1 || cl_at(sc, m) != ')')
			break;
		k = m + 1;
		size_t a;
		if (cl_at(sc, k) != '(' && (a = cl_word(sc, cl_ws(sc, k), "and")) &&
		    cl_at(sc, cl_ws(sc, a)) == '(')
			k = cl_ws(sc, a);
	}
	size_t a = cl_ws(sc, k);
	if ((d = cl_lit(sc, a, "et seq.")))
		k = d;
	*pin_e = k;
	return k;
}

/* The core of a citation at p (digits [p, q) are the volume or title):
 * reporter, page or section, short form.  With probe, only says whether
 * one is there. */
static size_t try_core(struct claims_scan *sc, size_t p, bool probe, struct claims_builder *b,
		       size_t *resume)
{
	(void)b;
	(void)resume;
	(void)probe;
	struct core c;
	memset(&c, 0, sizeof(c));
	size_t q = cl_digits(sc, p);
	if (q == p || q - p > 5)
		return 0;
	size_t r = cl_ws(sc, q);
	if (cl_at(sc, q) == ',')
		r = cl_ws(sc, q + 1); /* 21, United States Code */
	if (r == q)
		return 0;
	struct rep_words w;
	read_rep_words(sc, r, &w);
	char key[CLAIMS_KEY_MAX];
	for (size_t k = w.n; k > 0; k--) {
		size_t len = make_key(sc, &w, k, key), first, count;
		if (!len || !cl_reporter_lookup(key, len, &first, &count))
			continue;
		c.vol_s = p;
		c.vol_e = q;
		c.rep_s = w.s[0];
		c.rep_e = w.e[k - 1];
		c.first = first;
		c.count = count;
		if (complete(sc, &c, c.rep_e))
			return c.end;
	}
	return 0;
}

/* ------------------------------------------------------- making the claim */

static void add_post_fields(struct claims_scan *sc, struct claims_builder *b, const struct post *po)
{
	if (po->court_e > po->court_s)
		cl_field(b, "court", sc->t + po->court_s, po->court_e - po->court_s);
	if (po->year)
		cl_fieldi(b, "year", po->year);
	if (po->month_e > po->month_s) {
		cl_field(b, "month", sc->t + po->month_s, po->month_e - po->month_s);
		cl_field(b, "day", sc->t + po->day_s, po->day_e - po->day_s);
	}
	if (po->paren_e > po->paren_s)
		cl_field(b, "parenthetical", sc->t + po->paren_s, po->paren_e - po->paren_s);
}

static enum sw_claim_kind kind_of(int src)
{
	return src == CLAIMS_SRC_LAW ? SW_CLAIM_STATUTE :
	       src == CLAIMS_SRC_JOURNAL ? SW_CLAIM_JOURNAL : SW_CLAIM_CASE;
}

static void core_fields(struct claims_scan *sc, struct claims_builder *b, const struct core *c,
			int year)
{
	bool ambiguous = false;
	const struct claims_reporter *r = pick(c->first, c->count, c->src, year, &ambiguous);
	if (!r)
		r = c->rep;
	if (ambiguous)
		cl_fieldz(b, "ambiguous", "true");
	if (c->src == CLAIMS_SRC_LAW) {
		if (c->vol_e > c->vol_s && r->shape == CLAIMS_SHAPE_LAW_TITLE)
			cl_field(b, "title", sc->t + c->vol_s, c->vol_e - c->vol_s);
		else if (c->vol_e > c->vol_s)
			cl_field(b, "volume", sc->t + c->vol_s, c->vol_e - c->vol_s);
		if (c->title_e > c->title_s)
			cl_field(b, "title", sc->t + c->title_s, c->title_e - c->title_s);
		cl_field(b, "reporter", sc->t + c->rep_s, c->rep_e - c->rep_s);
		cl_fieldz(b, "code", r->canonical);
		if (c->chap_e > c->chap_s)
			cl_field(b, "chapter", sc->t + c->chap_s, c->chap_e - c->chap_s);
		cl_field(b, r->shape == CLAIMS_SHAPE_LAW_VOLPAGE ? "page" : "section",
			 sc->t + c->page_s, c->page_e - c->page_s);
		if (c->pin_e > c->pin_s) {
			size_t s = c->pin_s, e = c->pin_e;
			s = cl_ws(sc, s);
			cl_field(b, "pin", sc->t + s, e - s);
		}
		return;
	}
	if (c->vol_e > c->vol_s)
		cl_field(b, "volume", sc->t + c->vol_s, c->vol_e - c->vol_s);
	cl_field(b, "reporter", sc->t + c->rep_s, c->rep_e - c->rep_s);
	cl_fieldz(b, "canonical", r->canonical);
	if (!c->blank)
		cl_field(b, "page", sc->t + c->page_s, c->page_e - c->page_s);
	if (c->pin_e > c->pin_s)
		cl_field(b, "pin", sc->t + c->pin_s, c->pin_e - c->pin_s);
	if (r->flags & CLAIMS_REP_SCOTUS)
		cl_fieldz(b, "court_implied", "scotus");
}

/* Any citation: volume-first (from a number) or reporter-first (from a
 * capitalised word, vol empty). */
static size_t make_cite(struct claims_scan *sc, struct core *first_core)
{
	struct core group[8];
	size_t ng = 0;
	group[ng++] = *first_core;
	size_t end = first_core->end;

	/* pins, then parallel citations */
	if (!first_core->is_short) {
		for (;;) {
			struct core *c = &group[ng - 1];
			size_t k = end;
			if (cl_at(sc, k) == ',') {
				size_t m = cl_ws(sc, k + 1);
				if (!starts_cite(sc, m) && c->src != CLAIMS_SRC_LAW) {
					size_t pe = read_pins(sc, m, true);
					if (pe) {
						c->pin_s = m;
						c->pin_e = pe;
						c->end = end = pe;
						k = end;
					}
				}
			}
			if (cl_at(sc, k) == ',' && ng < SW_ARRAY_LEN(group) && c->src == CLAIMS_SRC_CASE) {
				size_t m = cl_ws(sc, k + 1), resume;
				struct claims_builder tmp;
				if (try_core(sc, m, false, &tmp, &resume)) {
					/* re-run to get the core itself */
					struct core nc;
					memset(&nc, 0, sizeof(nc));
					size_t q = cl_digits(sc, m), r = cl_ws(sc, q);
					struct rep_words w;
					read_rep_words(sc, r, &w);
					char key[CLAIMS_KEY_MAX];
					bool ok = false;
					for (size_t n = w.n; n > 0 && !ok; n--) {
						size_t len = make_key(sc, &w, n, key), f, cnt;
						if (!len || !cl_reporter_lookup(key, len, &f, &cnt))
							continue;
						nc.vol_s = nc.start = m;
						nc.vol_e = q;
						nc.rep_s = w.s[0];
						nc.rep_e = w.e[n - 1];
						nc.first = f;
						nc.count = cnt;
						ok = complete(sc, &nc, nc.rep_e) != 0;
					}
					if (ok && !nc.is_short && nc.src == CLAIMS_SRC_CASE) {
						group[ng++] = nc;
						end = nc.end;
						continue;
					}
				}
			}
			break;
		}
	}
	struct post po;
	parse_post(sc, end, &po);
	if (po.end > end)
		end = po.end;

	struct name nm;
	memset(&nm, 0, sizeof(nm));
	nm.start = first_core->start;
	size_t a_s = 0, a_e = 0;
	bool ante = false;
	if (first_core->src != CLAIMS_SRC_LAW) {
		if (first_core->is_short)
			ante = find_antecedent(sc, first_core->start, &a_s, &a_e);
		else
			find_name(sc, first_core->start, &nm);
	}
	int year = po.year ? po.year : nm.year;

	long first_idx = -1;
	for (size_t g = 0; g < ng; g++) {
		struct core *c = &group[g];
		struct claims_builder b;
		cl_begin(&b, kind_of(c->src), c->is_short ? SW_FORM_SHORT : SW_FORM_FULL,
			 c->start, c->pin_e > c->end ? c->pin_e : c->end);
		b.cite_start = c->start;
		b.cite_end = c->page_e > c->start ? c->page_e : c->end;
		if (c->src == CLAIMS_SRC_LAW)
			b.cite_end = c->pin_e > c->page_e ? c->pin_e : c->page_e;
		if (g == 0 && nm.start < c->start)
			b.start = nm.start;
		if (g == 0 && ante && a_s < c->start)
			b.start = a_s;
		if (g + 1 == ng && po.full_end > b.end)
			b.end = po.full_end;
		core_fields(sc, &b, c, year);
		if (nm.pl_e > nm.pl_s)
			cl_field(&b, "plaintiff", sc->t + nm.pl_s, nm.pl_e - nm.pl_s);
		if (nm.df_e > nm.df_s)
			cl_field(&b, "defendant", sc->t + nm.df_s, nm.df_e - nm.df_s);
		if (nm.pl_e > nm.pl_s && nm.df_e > nm.df_s)
			cl_field(&b, "name", sc->t + nm.pl_s, nm.df_e - nm.pl_s);
		else if (nm.df_e > nm.df_s)
			cl_field(&b, "name", sc->t + nm.start, nm.df_e - nm.start);
		if (nm.ante_e > nm.ante_s)
			cl_field(&b, "antecedent", sc->t + nm.ante_s, nm.ante_e - nm.ante_s);
		if (ante)
			cl_field(&b, "antecedent", sc->t + a_s, a_e - a_s);
		if (nm.year && !po.year)
			cl_fieldi(&b, "year", nm.year);
		add_post_fields(sc, &b, &po);
		if (c->src == CLAIMS_SRC_LAW && po.court_e > po.court_s) {
			/* (West 2009): a publisher, not a court */
			cl_field(&b, "publisher", sc->t + po.court_s, po.court_e - po.court_s);
			b.nf--;
			for (size_t f = 0; f < b.nf; f++)
				if (!strcmp(b.f[f].name, "court"))
					b.f[f] = b.f[b.nf];
		}
		if (g > 0)
			b.parallel_to = first_idx;
		long idx = cl_push(sc, &b);
		if (g == 0)
			first_idx = idx;
		if (idx < 0)
			return 0;
	}
	sc->done = end;
	return end;
}

/* ------------------------------------------------------------- triggers */

static size_t try_neutral_dash(struct claims_scan *sc, size_t p, size_t q)
{
	/* 2006-Ohio-2095, 2007-NMCERT-008 */
	size_t r = q + 1, e = r;
	while (e < sc->n && e < r + 16 && (cl_alpha(cl_at(sc, e)) || cl_at(sc, e) == '.'))
		e++;
	if (e == r || cl_at(sc, e) != '-' || !cl_digit(cl_at(sc, e + 1)))
		return 0;
	size_t first, count;
	if (!cl_reporter_lookup(sc->t + r, e - r, &first, &count))
		return 0;
	size_t pe = cl_digits(sc, e + 1);
	if (cl_alnum(cl_at(sc, pe)))
		return 0;
	struct core c;
	memset(&c, 0, sizeof(c));
	c.first = first;
	c.count = count;
	c.rep = &claims_reporters[first];
	c.src = CLAIMS_SRC_CASE;
	c.vol_s = p;
	c.vol_e = q;
	c.rep_s = r;
	c.rep_e = e;
	c.page_s = e + 1;
	c.page_e = pe;
	c.start = p;
	c.end = pe;
	return make_cite(sc, &c);
}

size_t claims_try_number(struct claims_scan *sc, size_t p, size_t q)
{
	if (p < sc->done)
		return 0;
	int before = p ? (unsigned char)sc->t[p - 1] : 0;
	if (cl_alpha(before) || before == '$' || before == '*' ||
	    ((before == '.' || before == ',' || before == '-' || before == ':' || before == '/') &&
	     p >= 2 && cl_digit((unsigned char)sc->t[p - 2])))
		return 0;
	if (cl_at(sc, q) == '-' && q - p == 4) {
		size_t e = try_neutral_dash(sc, p, q);
		if (e)
			return e;
	}
	if (q - p <= 2) {
		size_t e = claims_try_month(sc, p, q, 0);
		if (e)
			return e;
	}
	if (q - p > 5 || cl_at(sc, p) == '0')
		return 0;
	size_t r = cl_ws(sc, q);
	if (cl_at(sc, q) == ',')
		r = cl_ws(sc, q + 1);
	if (r == q)
		return 0;
	struct rep_words w;
	read_rep_words(sc, r, &w);
	char key[CLAIMS_KEY_MAX];
	for (size_t k = w.n; k > 0; k--) {
		size_t len = make_key(sc, &w, k, key), first, count;
		if (!len || !cl_reporter_lookup(key, len, &first, &count))
			continue;
		struct core c;
		memset(&c, 0, sizeof(c));
		c.vol_s = p;
		c.vol_e = q;
		c.rep_s = w.s[0];
		c.rep_e = w.e[k - 1];
		c.first = first;
		c.count = count;
		c.start = p;
		if (cl_at(sc, q) == ',' && claims_reporters[first].src != CLAIMS_SRC_LAW)
			continue; /* "21, United States Code" is for codes only */
		if (complete(sc, &c, c.rep_e))
			return make_cite(sc, &c);
	}
	return 0;
}

size_t claims_try_lead(struct claims_scan *sc, size_t p, size_t q)
{
	if (p < sc->done || !cl_boundary_before(sc, p))
		return 0;
	/* Bates numbers written as one word: ACME0000123 */
	size_t l = p;
	while (l < q && cl_upper(cl_at(sc, l)))
		l++;
	if (l < q && cl_digit(cl_at(sc, l)) && l - p >= 2) {
		size_t e = claims_try_bates(sc, p, q);
		if (e)
			return e;
	}
	uint32_t h = claims_hash(sc->t + p, q - p) | 1, i = h & claims_lead_mask;
	while (claims_lead_hashes[i] && claims_lead_hashes[i] != h)
		i = (i + 1) & claims_lead_mask;
	if (!claims_lead_hashes[i])
		return 0;
	struct rep_words w;
	read_rep_words(sc, p, &w);
	char key[CLAIMS_KEY_MAX];
	for (size_t k = w.n; k > 0; k--) {
		size_t len = make_key(sc, &w, k, key), first, count;
		if (!len || !cl_reporter_lookup(key, len, &first, &count))
			continue;
		struct core c;
		memset(&c, 0, sizeof(c));
		c.rep_s = p;
		c.rep_e = w.e[k - 1];
		c.first = first;
		c.count = count;
		c.start = p;
		if (complete(sc, &c, c.rep_e))
			return make_cite(sc, &c);
	}
	return 0;
}

/* A parenthetical right after [.., i): its text, and where it ends. */
static size_t parenthetical(struct claims_scan *sc, size_t i, struct claims_builder *b)
{
	size_t k = cl_ws(sc, i), s, e;
	size_t end = balanced(sc, k, &s, &e);
	if (!end || cl_at(sc, k) != '(' || e <= s)
		return i;
	size_t ye;
	if (cl_year(sc, s, &ye) && ye == e)
		return end; /* (2016): a year, not an explanation */
	cl_field(b, "parenthetical", sc->t + s, e - s);
	return end;
}

size_t claims_try_id(struct claims_scan *sc, size_t p, size_t q)
{
	if (p < sc->done || !cl_boundary_before(sc, p))
		return 0;
	struct claims_builder b;
	size_t j = q;
	if (cl_at(sc, j) == ',')
		j++;
	size_t k = cl_ws(sc, j), pin_s = 0, pin_e = 0, e;
	if (k > q || cl_at(sc, j) == ',') {
		if ((e = cl_word(sc, k, "at"))) {
			size_t pe = read_pins(sc, cl_ws(sc, e), false);
			if (pe) {
				pin_s = k;
				pin_e = pe;
			}
		} else if (cl_at(sc, k) == 0xC2 && cl_at(sc, k + 1) == 0xB6) {
			size_t pe = read_pins(sc, k, false);
			if (pe) {
				pin_s = k;
				pin_e = pe;
			}
		} else if (cl_digit(cl_at(sc, k))) {
			size_t d = cl_digits(sc, k);
			if (cl_at(sc, d) == ':' && (pin_e = read_pin_item(sc, k)))
				pin_s = k;
		}
	}
	size_t cite_end = pin_e ? pin_e : q;
	cl_begin(&b, SW_CLAIM_CASE, SW_FORM_ID, p, cite_end);
	if (pin_e)
		cl_field(&b, "pin", sc->t + pin_s, pin_e - pin_s);
	size_t end = parenthetical(sc, cite_end, &b);
	b.end = end;
	if (cl_push(sc, &b) < 0)
		return 0;
	sc->done = cite_end;
	return cite_end;
}

size_t claims_try_supra(struct claims_scan *sc, size_t p, size_t q)
{
	if (p < sc->done || !cl_boundary_before(sc, p))
		return 0;
	size_t j = q, pin_s = 0, pin_e = 0, e;
	if (cl_at(sc, j) != '.') {
		size_t k = j;
		if (cl_at(sc, k) == ',')
			k++;
		k = cl_ws(sc, k);
		if (starts_cite(sc, k))
			return 0; /* Kaiser, supra, 13 Cal.App.5th at 1146: a short cite */
		if ((e = cl_word(sc, k, "at"))) {
			size_t pe = read_pins(sc, cl_ws(sc, e), false);
			if (pe) {
				pin_s = k;
				pin_e = pe;
			}
		}
	}
	size_t cite_end = pin_e ? pin_e : q;
	struct claims_builder b;
	cl_begin(&b, SW_CLAIM_CASE, SW_FORM_SUPRA, p, cite_end);
	if (pin_e)
		cl_field(&b, "pin", sc->t + pin_s, pin_e - pin_s);
	/* the word before: a volume ("123 supra") and the short name */
	size_t floor = sc->done, s, w_e;
	size_t i = p;
	if (prev_word(sc, i, floor, &s, &w_e)) {
		size_t we2 = w_e;
		if (cl_at(sc, we2 - 1) == ',')
			we2--;
		if (cl_digits(sc, s) == we2 && we2 > s) {
			cl_field(&b, "volume", sc->t + s, we2 - s);
			b.start = s;
			i = s;
			if (!prev_word(sc, i, floor, &s, &w_e))
				s = w_e = 0;
			we2 = w_e;
			if (we2 > s && cl_at(sc, we2 - 1) == ',')
				we2--;
		}
		size_t o = we2 > s ? open_mark(sc, s) : 0;
		if (we2 > s + o && cl_alpha(cl_at(sc, s + o)) && !ends_with_quote(sc, s, we2) &&
		    !word_in(sc, s + o, we2, stop_words)) {
			cl_field(&b, "antecedent", sc->t + s + o, we2 - s - o);
			b.start = s + o;
		}
	}
	b.end = parenthetical(sc, cite_end, &b);
	if (cl_push(sc, &b) < 0)
		return 0;
	sc->done = cite_end;
	return cite_end;
}

size_t claims_try_section(struct claims_scan *sc, size_t p, size_t q)
{
	if (p < sc->done)
		return 0;
	size_t k = cl_ws(sc, q), sec_e, pin_e;
	size_t e = read_section(sc, k, &sec_e, &pin_e);
	if (!e)
		return 0;
	struct claims_builder b;
	cl_begin(&b, SW_CLAIM_STATUTE, SW_FORM_BARE, p, pin_e);
	cl_field(&b, "section", sc->t + k, sec_e - k);
	if (pin_e > sec_e)
		cl_field(&b, "pin", sc->t + sec_e, pin_e - sec_e);
	if (cl_push(sc, &b) < 0)
		return 0;
	sc->done = pin_e;
	return pin_e;
}

size_t claims_try_rule(struct claims_scan *sc, size_t p, size_t q, bool local)
{
	if (p < sc->done || !cl_boundary_before(sc, p))
		return 0;
	size_t k = cl_ws(sc, q);
	if (!cl_digit(cl_at(sc, k)))
		return 0;
	size_t e = cl_digits(sc, k);
	while ((cl_at(sc, e) == '.' || cl_at(sc, e) == '-') && cl_digit(cl_at(sc, e + 1)))
		e = cl_digits(sc, e + 1);
	if (cl_alpha(cl_at(sc, e)) && !cl_alnum(cl_at(sc, e + 1)))
		e++; /* Local Rule 56.1a */
	if (cl_alnum(cl_at(sc, e)))
		return 0;
	size_t rule_e = e, pin = e;
	for (int g = 0; g < 8 && cl_at(sc, pin) == '('; g++) {
		size_t m = pin + 1;
		while (m < pin + 6 && cl_alnum(cl_at(sc, m)))
			m++;
		if (m == pin + 1 || cl_at(sc, m) != ')')
			break;
		pin = m + 1;
	}
	struct claims_builder b;
	bool bare = local && word_is(sc, p, q, "Rule");
	cl_begin(&b, SW_CLAIM_RULE, bare ? SW_FORM_BARE : SW_FORM_FULL, p, pin);
	/* The code as Bluebook writes it, whatever the spacing in the text. */
	static const struct { const char *has, *code; } fed[] = {
		{ "Civ", "Fed. R. Civ. P." }, { "Evid", "Fed. R. Evid." },
		{ "App", "Fed. R. App. P." }, { "Crim", "Fed. R. Crim. P." },
		{ "Bankr", "Fed. R. Bankr. P." },
	};
	const char *code = NULL;
	if (!local)
		for (size_t i = 0; i < SW_ARRAY_LEN(fed) && !code; i++)
			for (size_t s = p; s + strlen(fed[i].has) <= q; s++)
				if (!memcmp(sc->t + s, fed[i].has, strlen(fed[i].has))) {
					code = fed[i].code;
					break;
				}
	if (code)
		cl_fieldz(&b, "code", code);
	else
		cl_field(&b, "code", sc->t + p, q - p);
	if (local && !bare)
		cl_fieldz(&b, "local", "true");
	cl_field(&b, "rule", sc->t + k, rule_e - k);
	if (pin > rule_e)
		cl_field(&b, "pin", sc->t + rule_e, pin - rule_e);
	if (cl_push(sc, &b) < 0)
		return 0;
	sc->done = pin;
	return pin;
}
