/*
 * claims_cite.c - citations found through the reporter table: cases,
 * journals, statutes and regulations, full, short and parallel.
 *
 * A reporter is recognised by table lookup, not by one regular expression
 * per reporter: after a volume the next few words are joined without spaces
 * and looked up longest first, so "U. S.", "U.S." and "U.\nS." all meet the
 * same entry and a new reporter in reporters-db needs no code.
 */
#include <stdlib.h>
#include <string.h>

#include "claims/claims_int.h"

/* -------------------------------------------------------------- reporters */

struct rep_words {
	size_t s[SW__CLAIMS_REP_WORDS], e[SW__CLAIMS_REP_WORDS];
	size_t n;
};

static bool word_byte(int c)
{
	return c > ' ' && c != ',' && c != ';' && c != ':' && c != '[' && c != ']' &&
	       c != '(' && c != ')' && c != '"' && c != 0x7f;
}

/* Read the words that may spell a reporter, from i. */
static void read_rep_words(const struct sw__claims_scan *sc, size_t i, struct rep_words *w)
{
	w->n = 0;
	while (w->n < SW__CLAIMS_REP_WORDS && i < sc->n) {
		if (w->n) {
			size_t k = sw__claims_ws(sc, i);
			if (k == i && sw__claims_at(sc, i) != '(')
				break;
			i = k;
		}
		size_t s = i;
		int c = sw__claims_at(sc, i);
		if (c == '(' && w->n) {
			/* (1st), (CCH), (N.S.): a short parenthesised part */
			size_t k = i + 1;
			while (k < sc->n && k < i + 12 && (sw__claims_alnum(sw__claims_at(sc, k)) ||
			       sw__claims_at(sc, k) == '.' || sw__claims_at(sc, k) == ' '))
				k++;
			if (sw__claims_at(sc, k) != ')' || k == i + 1)
				break;
			i = k + 1;
		} else if (sw__claims_alpha(c) || (w->n && sw__claims_digit(c))) {
			bool letters = false;
			while (i < sc->n) {
				int d = sw__claims_at(sc, i);
				if (d == 0xE2 && sw__claims_at(sc, i + 1) == 0x80 &&
				    (sw__claims_at(sc, i + 2) == 0x9C || sw__claims_at(sc, i + 2) == 0x9D ||
				     sw__claims_at(sc, i + 2) == 0x94 || sw__claims_at(sc, i + 2) == 0x93 ||
				     sw__claims_at(sc, i + 2) == 0x8B))
					break;
				if (!word_byte(d) || sw__claims_space_len(sc, i))
					break;
				if (sw__claims_alpha(d))
					letters = true;
				i++;
			}
			if (!letters)
				break;
			if (sw__claims_word_is(sc, s, i, "at"))
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
static size_t make_key(const struct sw__claims_scan *sc, const struct rep_words *w,
		       size_t k, char *key)
{
	size_t n = 0;
	for (size_t j = 0; j < k; j++)
		for (size_t i = w->s[j]; i < w->e[j]; i++) {
			if (n >= SW__CLAIMS_KEY_MAX)
				return 0;
			if (sw__claims_at(sc, i) == 0xE2 && sw__claims_at(sc, i + 1) == 0x80 &&
			    sw__claims_at(sc, i + 2) == 0x99) {
				key[n++] = '\'';
				i += 2;
			} else {
				key[n++] = sc->t[i];
			}
		}
	return n;
}

/* ------------------------------------------------------------------- pins */

static size_t try_core(struct sw__claims_scan *sc, size_t p, bool probe, struct sw__claims_builder *b,
		       size_t *resume);

/* A digit run at i that starts another citation (a parallel cite)? */
bool sw__claims_starts_cite(struct sw__claims_scan *sc, size_t i)
{
	if (!sw__claims_digit(sw__claims_at(sc, i)) || sc->depth >= 2)
		return false;
	size_t resume;
	struct sw__claims_builder tmp;
	/* try_core reads pins, which ask this again: the depth bound keeps a
	 * hostile chain of cites from recursing without end */
	sc->depth++;
	bool yes = try_core(sc, i, true, &tmp, &resume) != 0;
	sc->depth--;
	return yes;
}

/* A list of pins from i: "347-348", "at 62-63, 67-68", "2277, 2278". */
size_t sw__claims_read_pins(struct sw__claims_scan *sc, size_t i, bool allow_at)
{
	size_t k = i, e, end = 0;
	if (allow_at && (e = sw__claims_word(sc, k, "at")))
		k = sw__claims_ws(sc, e);
	for (int n = 0; n < 64; n++) {
		if (n && sw__claims_starts_cite(sc, k))
			break;
		e = sw__claims_read_pin_item(sc, k);
		if (!e)
			break;
		end = e;
		/* another item after ", " or " & " / " and " */
		size_t j = e;
		if (sw__claims_at(sc, j) == ',')
			j = sw__claims_ws(sc, j + 1);
		else if ((e = sw__claims_lit(sc, sw__claims_ws(sc, j), "&")) || (e = sw__claims_word(sc, sw__claims_ws(sc, j), "and")))
			j = sw__claims_ws(sc, e);
		else
			break;
		if (j == end)
			break;
		k = j;
	}
	return end;
}

/* ------------------------------------------------------------- cite cores */

/* Pick the edition among forms [first, first + count) of src that fits the
 * year, or the default (the first of src). */
static const struct sw__claims_reporter *pick(size_t first, size_t count, int src, int year,
					  bool *ambiguous)
{
	const struct sw__claims_reporter *def = NULL, *fit = NULL;
	int nfit = 0, ncanon = 0;
	for (size_t i = first; i < first + count; i++) {
		const struct sw__claims_reporter *r = sw__claims_rep(i);
		if (r->src != src)
			continue;
		if (!def)
			def = r;
		bool seen = false;
		for (size_t k = first; k < i; k++)
			if (sw__claims_rep(k)->src == src &&
			    !strcmp(sw__claims_rep(k)->canonical, r->canonical))
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

/* A section marker at i: § §§ sec. Sec. Section(s) s. */
static size_t section_marker(const struct sw__claims_scan *sc, size_t i)
{
	size_t e;
	if (sw__claims_at(sc, i) == 0xC2 && sw__claims_at(sc, i + 1) == 0xA7) {
		e = i + 2;
		if (sw__claims_at(sc, e) == 0xC2 && sw__claims_at(sc, e + 1) == 0xA7)
			e += 2;
		return e;
	}
	if ((e = sw__claims_word(sc, i, "Sections")) || (e = sw__claims_word(sc, i, "Section")) ||
	    (e = sw__claims_word(sc, i, "sections")) || (e = sw__claims_word(sc, i, "section")) ||
	    (e = sw__claims_lit(sc, i, "secs.")) || (e = sw__claims_lit(sc, i, "sec.")) ||
	    (e = sw__claims_lit(sc, i, "Sec.")) || (e = sw__claims_word(sc, i, "S.")))
		return e;
	return 0;
}

/* Everything one core citation holds, before it becomes a claim. */
struct core {
	const struct sw__claims_reporter *rep;
	size_t first, count;
	size_t vol_s, vol_e, rep_s, rep_e, page_s, page_e, pin_s, pin_e;
	size_t title_s, title_e, chap_s, chap_e;
	size_t start, end;
	bool is_short, blank;
	int src;
};

/* Complete a citation after a reporter [rep_s, rep_e) found with forms
 * [first, first+count).  vol is the number before it (or empty). */
static size_t complete(struct sw__claims_scan *sc, struct core *c, size_t j)
{
	size_t k, e;
	const struct sw__claims_reporter *r = sw__claims_rep(c->first);
	/* laws first when a section marker follows */
	for (size_t i = c->first; i < c->first + c->count; i++) {
		const struct sw__claims_reporter *x = sw__claims_rep(i);
		bool has_vol = c->vol_e > c->vol_s;
		if (x->src == SW__CLAIMS_SRC_LAW) {
			k = j;
			if (sw__claims_at(sc, k) == ',')
				k++;
			k = sw__claims_ws(sc, k);
			if (x->shape == SW__CLAIMS_SHAPE_LAW_VOLPAGE) {
				if (!has_vol)
					continue;
				bool blank;
				e = sw__claims_read_page(sc, k, true, &blank);
				if (!e || blank)
					continue;
				c->page_s = k;
				c->page_e = e;
			} else {
				if (has_vol != (x->shape == SW__CLAIMS_SHAPE_LAW_TITLE))
					continue;
				size_t t;
				if ((t = sw__claims_lit(sc, k, "ch.")) || (t = sw__claims_lit(sc, k, "tit."))) {
					size_t d = sw__claims_ws(sc, t), de = sw__claims_digits(sc, d);
					if (de == d)
						continue;
					c->chap_s = d;
					c->chap_e = de;
					if (sw__claims_at(sc, t - 3) == 't') { /* tit. */
						c->title_s = d;
						c->title_e = de;
						c->chap_s = c->chap_e = 0;
					}
					k = sw__claims_ws(sc, sw__claims_at(sc, de) == ',' ? de + 1 : de);
				}
				size_t m = section_marker(sc, k);
				if (!m)
					continue;
				k = sw__claims_ws(sc, m);
				size_t sec_e, pin_e;
				e = sw__claims_read_section(sc, k, &sec_e, &pin_e);
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
			c->src = SW__CLAIMS_SRC_LAW;
			c->end = e;
			return e;
		}
		if (!has_vol && x->shape != SW__CLAIMS_SHAPE_PARA && x->shape != SW__CLAIMS_SHAPE_NOVOL &&
		    x->shape != SW__CLAIMS_SHAPE_YEARPAGE)
			continue;
		if (has_vol && (x->shape == SW__CLAIMS_SHAPE_NOVOL || x->shape == SW__CLAIMS_SHAPE_YEARPAGE ||
				x->shape == SW__CLAIMS_SHAPE_DASH))
			continue;
		k = j;
		if (sw__claims_at(sc, k) == ',')
			k++;
		size_t sp = sw__claims_ws(sc, k);
		if (x->shape == SW__CLAIMS_SHAPE_YEARPAGE) {
			size_t ye;
			if (!sw__claims_year(sc, sp, &ye) || sw__claims_at(sc, ye) != '-' || !sw__claims_digit(sw__claims_at(sc, ye + 1)))
				continue;
			e = sw__claims_digits(sc, ye + 1);
			if (sw__claims_alnum(sw__claims_at(sc, e)))
				continue;
			c->vol_s = sp;
			c->vol_e = ye;
			c->page_s = ye + 1;
			c->page_e = e;
		} else if (x->shape == SW__CLAIMS_SHAPE_PARA && !has_vol) {
			size_t m = sp;
			if (sw__claims_at(sc, m) == 'P' && sw__claims_digit(sw__claims_at(sc, m + 1)))
				m++;
			else if (sw__claims_at(sc, m) == 0xC2 && sw__claims_at(sc, m + 1) == 0xB6)
				m = sw__claims_ws(sc, m + 2);
			else if ((e = sw__claims_lit(sc, m, "para.")) || (e = sw__claims_lit(sc, m, "par.")))
				m = sw__claims_ws(sc, e);
			bool blank;
			e = sw__claims_read_page(sc, m, true, &blank);
			if (!e || blank)
				continue;
			c->page_s = m;
			c->page_e = e;
		} else {
			if (sp == k && !(x->shape == SW__CLAIMS_SHAPE_PARA))
				continue; /* a page needs a space before it */
			if ((e = sw__claims_word(sc, sp, "at"))) {
				size_t m = sw__claims_ws(sc, e);
				size_t pe = sw__claims_read_pins(sc, m, false);
				size_t pg = m;
				if ((e = sw__claims_lit(sc, pg, "pp.")) || (e = sw__claims_lit(sc, pg, "p.")))
					pg = sw__claims_ws(sc, e);
				else if ((e = sw__claims_word(sc, pg, "page")))
					pg = sw__claims_ws(sc, e);
				if (sw__claims_at(sc, pg) == '*')
					pg++;
				if (!pe || !sw__claims_digit(sw__claims_at(sc, pg)))
					continue;
				c->is_short = true;
				c->page_s = pg;
				c->page_e = sw__claims_digits(sc, pg);
				c->pin_s = m;
				c->pin_e = pe;
				c->rep = x;
				c->src = x->src;
				c->end = pe;
				return pe;
			}
			bool blank;
			e = sw__claims_read_page(sc, sp, x->shape == SW__CLAIMS_SHAPE_PARA, &blank);
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

/* The core of a citation at p (digits [p, q) are the volume or title):
 * reporter, page or section, short form.  With probe, only says whether
 * one is there. */
static size_t try_core(struct sw__claims_scan *sc, size_t p, bool probe, struct sw__claims_builder *b,
		       size_t *resume)
{
	(void)b;
	(void)resume;
	(void)probe;
	struct core c;
	memset(&c, 0, sizeof(c));
	size_t q = sw__claims_digits(sc, p);
	if (q == p || q - p > 5)
		return 0;
	size_t r = sw__claims_ws(sc, q);
	if (sw__claims_at(sc, q) == ',')
		r = sw__claims_ws(sc, q + 1); /* 21, United States Code */
	if (r == q)
		return 0;
	struct rep_words w;
	read_rep_words(sc, r, &w);
	char key[SW__CLAIMS_KEY_MAX];
	for (size_t k = w.n; k > 0; k--) {
		size_t len = make_key(sc, &w, k, key), first, count;
		if (!len || !sw__claims_reporter_lookup(key, len, &first, &count))
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

static void add_post_fields(struct sw__claims_scan *sc, struct sw__claims_builder *b, const struct sw__claims_post *po)
{
	if (po->court_e > po->court_s)
		sw__claims_field(b, "court", sc->t + po->court_s, po->court_e - po->court_s);
	if (po->year)
		sw__claims_fieldi(b, "year", po->year);
	if (po->month_e > po->month_s) {
		sw__claims_field(b, "month", sc->t + po->month_s, po->month_e - po->month_s);
		sw__claims_field(b, "day", sc->t + po->day_s, po->day_e - po->day_s);
	}
	if (po->paren_e > po->paren_s)
		sw__claims_field(b, "parenthetical", sc->t + po->paren_s, po->paren_e - po->paren_s);
}

static enum sw_claim_kind kind_of(int src)
{
	return src == SW__CLAIMS_SRC_LAW ? SW_CLAIM_STATUTE :
	       src == SW__CLAIMS_SRC_JOURNAL ? SW_CLAIM_JOURNAL : SW_CLAIM_CASE;
}

static void core_fields(struct sw__claims_scan *sc, struct sw__claims_builder *b, const struct core *c,
			int year)
{
	bool ambiguous = false;
	const struct sw__claims_reporter *r = pick(c->first, c->count, c->src, year, &ambiguous);
	if (!r)
		r = c->rep;
	if (ambiguous)
		sw__claims_fieldz(b, "ambiguous", "true");
	if (c->src == SW__CLAIMS_SRC_LAW) {
		if (c->vol_e > c->vol_s && r->shape == SW__CLAIMS_SHAPE_LAW_TITLE)
			sw__claims_field(b, "title", sc->t + c->vol_s, c->vol_e - c->vol_s);
		else if (c->vol_e > c->vol_s)
			sw__claims_field(b, "volume", sc->t + c->vol_s, c->vol_e - c->vol_s);
		if (c->title_e > c->title_s)
			sw__claims_field(b, "title", sc->t + c->title_s, c->title_e - c->title_s);
		sw__claims_field(b, "reporter", sc->t + c->rep_s, c->rep_e - c->rep_s);
		sw__claims_fieldz(b, "code", r->canonical);
		if (c->chap_e > c->chap_s)
			sw__claims_field(b, "chapter", sc->t + c->chap_s, c->chap_e - c->chap_s);
		sw__claims_field(b, r->shape == SW__CLAIMS_SHAPE_LAW_VOLPAGE ? "page" : "section",
			 sc->t + c->page_s, c->page_e - c->page_s);
		if (c->pin_e > c->pin_s) {
			size_t s = c->pin_s, e = c->pin_e;
			s = sw__claims_ws(sc, s);
			sw__claims_field(b, "pin", sc->t + s, e - s);
		}
		return;
	}
	if (c->vol_e > c->vol_s)
		sw__claims_field(b, "volume", sc->t + c->vol_s, c->vol_e - c->vol_s);
	sw__claims_field(b, "reporter", sc->t + c->rep_s, c->rep_e - c->rep_s);
	sw__claims_fieldz(b, "canonical", r->canonical);
	if (!c->blank)
		sw__claims_field(b, "page", sc->t + c->page_s, c->page_e - c->page_s);
	if (c->pin_e > c->pin_s)
		sw__claims_field(b, "pin", sc->t + c->pin_s, c->pin_e - c->pin_s);
	if (r->flags & SW__CLAIMS_REP_SCOTUS)
		sw__claims_fieldz(b, "court_implied", "scotus");
}

/* Any citation: volume-first (from a number) or reporter-first (from a
 * capitalised word, vol empty). */
static size_t make_cite(struct sw__claims_scan *sc, struct core *first_core)
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
			if (sw__claims_at(sc, k) == ',') {
				size_t m = sw__claims_ws(sc, k + 1);
				if (!sw__claims_starts_cite(sc, m) && c->src != SW__CLAIMS_SRC_LAW) {
					size_t pe = sw__claims_read_pins(sc, m, true);
					if (pe) {
						c->pin_s = m;
						c->pin_e = pe;
						c->end = end = pe;
						k = end;
					}
				}
			}
			if (sw__claims_at(sc, k) == ',' && ng < SW_ARRAY_LEN(group) && c->src == SW__CLAIMS_SRC_CASE) {
				size_t m = sw__claims_ws(sc, k + 1), resume;
				struct sw__claims_builder tmp;
				if (try_core(sc, m, false, &tmp, &resume)) {
					/* re-run to get the core itself */
					struct core nc;
					memset(&nc, 0, sizeof(nc));
					size_t q = sw__claims_digits(sc, m), r = sw__claims_ws(sc, q);
					struct rep_words w;
					read_rep_words(sc, r, &w);
					char key[SW__CLAIMS_KEY_MAX];
					bool ok = false;
					for (size_t n = w.n; n > 0 && !ok; n--) {
						size_t len = make_key(sc, &w, n, key), f, cnt;
						if (!len || !sw__claims_reporter_lookup(key, len, &f, &cnt))
							continue;
						nc.vol_s = nc.start = m;
						nc.vol_e = q;
						nc.rep_s = w.s[0];
						nc.rep_e = w.e[n - 1];
						nc.first = f;
						nc.count = cnt;
						ok = complete(sc, &nc, nc.rep_e) != 0;
					}
					if (ok && !nc.is_short && nc.src == SW__CLAIMS_SRC_CASE) {
						group[ng++] = nc;
						end = nc.end;
						continue;
					}
				}
			}
			break;
		}
	}
	struct sw__claims_post po;
	sw__claims_parse_post(sc, end, &po);
	if (po.end > end)
		end = po.end;

	struct sw__claims_name nm;
	memset(&nm, 0, sizeof(nm));
	nm.start = first_core->start;
	size_t a_s = 0, a_e = 0;
	bool ante = false;
	if (first_core->src != SW__CLAIMS_SRC_LAW) {
		if (first_core->is_short)
			ante = sw__claims_find_antecedent(sc, first_core->start, &a_s, &a_e);
		else
			sw__claims_find_name(sc, first_core->start, &nm);
	}
	int year = po.year ? po.year : nm.year;

	long first_idx = -1;
	for (size_t g = 0; g < ng; g++) {
		struct core *c = &group[g];
		struct sw__claims_builder b;
		sw__claims_begin(&b, kind_of(c->src), c->is_short ? SW_FORM_SHORT : SW_FORM_FULL,
			 c->start, c->pin_e > c->end ? c->pin_e : c->end);
		b.cite_start = c->start;
		b.cite_end = c->page_e > c->start ? c->page_e : c->end;
		if (c->src == SW__CLAIMS_SRC_LAW)
			b.cite_end = c->pin_e > c->page_e ? c->pin_e : c->page_e;
		if (g == 0 && nm.start < c->start)
			b.start = nm.start;
		if (g == 0 && ante && a_s < c->start)
			b.start = a_s;
		if (g + 1 == ng && po.full_end > b.end)
			b.end = po.full_end;
		core_fields(sc, &b, c, year);
		if (nm.pl_e > nm.pl_s)
			sw__claims_field(&b, "plaintiff", sc->t + nm.pl_s, nm.pl_e - nm.pl_s);
		if (nm.df_e > nm.df_s)
			sw__claims_field(&b, "defendant", sc->t + nm.df_s, nm.df_e - nm.df_s);
		if (nm.pl_e > nm.pl_s && nm.df_e > nm.df_s)
			sw__claims_field(&b, "name", sc->t + nm.pl_s, nm.df_e - nm.pl_s);
		else if (nm.df_e > nm.df_s)
			sw__claims_field(&b, "name", sc->t + nm.start, nm.df_e - nm.start);
		if (nm.ante_e > nm.ante_s)
			sw__claims_field(&b, "antecedent", sc->t + nm.ante_s, nm.ante_e - nm.ante_s);
		if (ante)
			sw__claims_field(&b, "antecedent", sc->t + a_s, a_e - a_s);
		if (nm.year && !po.year)
			sw__claims_fieldi(&b, "year", nm.year);
		add_post_fields(sc, &b, &po);
		if (c->src == SW__CLAIMS_SRC_LAW && po.court_e > po.court_s) {
			/* (West 2009): a publisher, not a court */
			sw__claims_field(&b, "publisher", sc->t + po.court_s, po.court_e - po.court_s);
			b.nf--;
			for (size_t f = 0; f < b.nf; f++)
				if (!strcmp(b.f[f].name, "court"))
					b.f[f] = b.f[b.nf];
		}
		if (g > 0)
			b.parallel_to = first_idx;
		long idx = sw__claims_push(sc, &b);
		if (g == 0)
			first_idx = idx;
		if (idx < 0)
			return 0;
	}
	sc->done = end;
	return end;
}

/* ------------------------------------------------------------- triggers */

/* The citation that starts at start with a reporter spelled by words w,
 * longest spelling first.  The volume is [start, vol_e), empty for a
 * reporter named first; with law_only, only codes may follow. */
static size_t cite_from_words(struct sw__claims_scan *sc, const struct rep_words *w,
			      size_t start, size_t vol_e, bool law_only)
{
	char key[SW__CLAIMS_KEY_MAX];
	for (size_t k = w->n; k > 0; k--) {
		size_t len = make_key(sc, w, k, key), first, count;
		if (!len || !sw__claims_reporter_lookup(key, len, &first, &count))
			continue;
		if (law_only && sw__claims_rep(first)->src != SW__CLAIMS_SRC_LAW)
			continue;
		struct core c;
		memset(&c, 0, sizeof(c));
		if (vol_e > start) {
			c.vol_s = start;
			c.vol_e = vol_e;
		}
		c.rep_s = w->s[0];
		c.rep_e = w->e[k - 1];
		c.first = first;
		c.count = count;
		c.start = start;
		if (complete(sc, &c, c.rep_e))
			return make_cite(sc, &c);
	}
	return 0;
}

static size_t try_neutral_dash(struct sw__claims_scan *sc, size_t p, size_t q)
{
	/* 2006-Ohio-2095, 2007-NMCERT-008 */
	size_t r = q + 1, e = r;
	while (e < sc->n && e < r + 16 && (sw__claims_alpha(sw__claims_at(sc, e)) || sw__claims_at(sc, e) == '.'))
		e++;
	if (e == r || sw__claims_at(sc, e) != '-' || !sw__claims_digit(sw__claims_at(sc, e + 1)))
		return 0;
	size_t first, count;
	if (!sw__claims_reporter_lookup(sc->t + r, e - r, &first, &count))
		return 0;
	size_t pe = sw__claims_digits(sc, e + 1);
	if (sw__claims_alnum(sw__claims_at(sc, pe)))
		return 0;
	struct core c;
	memset(&c, 0, sizeof(c));
	c.first = first;
	c.count = count;
	c.rep = sw__claims_rep(first);
	c.src = SW__CLAIMS_SRC_CASE;
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

size_t sw__claims_try_number(struct sw__claims_scan *sc, size_t p, size_t q)
{
	if (p < sc->done)
		return 0;
	int before = p ? (unsigned char)sc->t[p - 1] : 0;
	if (sw__claims_alpha(before) || before == '$' || before == '*' ||
	    ((before == '.' || before == ',' || before == '-' || before == ':' || before == '/') &&
	     p >= 2 && sw__claims_digit((unsigned char)sc->t[p - 2])))
		return 0;
	if (sw__claims_at(sc, q) == '-' && q - p == 4) {
		size_t e = try_neutral_dash(sc, p, q);
		if (e)
			return e;
	}
	if (q - p <= 2) {
		size_t e = sw__claims_try_month(sc, p, q, 0);
		if (e)
			return e;
	}
	if (q - p > 5 || sw__claims_at(sc, p) == '0')
		return 0;
	size_t r = sw__claims_ws(sc, q);
	if (sw__claims_at(sc, q) == ',')
		r = sw__claims_ws(sc, q + 1);
	if (r == q || !sw__claims_rep_maybe(sc, r))
		return q - p == 4 ? sw__claims_try_year(sc, p, q) : 0;
	struct rep_words w;
	read_rep_words(sc, r, &w);
	/* "21, United States Code": a comma after the number is for codes only */
	size_t e = cite_from_words(sc, &w, p, q, sw__claims_at(sc, q) == ',');
	return e ? e : q - p == 4 ? sw__claims_try_year(sc, p, q) : 0;
}

size_t sw__claims_try_lead(struct sw__claims_scan *sc, size_t p, size_t q)
{
	if (p < sc->done || !sw__claims_boundary_before(sc, p))
		return 0;
	/* an exhibit with the party in its letters and the number glued on:
	 * PX12, DX3 */
	size_t wq = q > p && sc->t[q - 1] == '.' ? q - 1 : q;
	if (wq - p >= 3 && wq - p <= 6 && sw__claims_at(sc, p + 1) == 'X' && strchr("PDJG", sc->t[p]) &&
	    sw__claims_digits(sc, p + 2) == wq) {
		size_t e = sw__claims_try_record(sc, p, p + 2, SW__CLAIMS_KW_EXHIBIT);
		if (e)
			return e;
	}
	/* Bates numbers written as one word: ACME0000123 */
	size_t l = p;
	while (l < q && sw__claims_upper(sw__claims_at(sc, l)))
		l++;
	if (l < q && sw__claims_digit(sw__claims_at(sc, l)) && l - p >= 2) {
		size_t e = sw__claims_try_bates(sc, p, q);
		if (e)
			return e;
	}
	uint32_t h = sw__claims_hash(sc->t + p, q - p) | 1, i = h & sw__claims_lead_mask;
	while (sw__claims_lead_hashes[i] && sw__claims_lead_hashes[i] != h)
		i = (i + 1) & sw__claims_lead_mask;
	if (!sw__claims_lead_hashes[i])
		return 0;
	struct rep_words w;
	read_rep_words(sc, p, &w);
	return cite_from_words(sc, &w, p, p, false);
}
