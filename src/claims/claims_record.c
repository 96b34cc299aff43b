/*
 * claims_record.c - citations to the record: exhibits, docket entries
 * (ECF, Dkt., Doc.), depositions and transcripts (page:line), declarations
 * (¶), the record on appeal (R.), joint appendix (J.A.), appendix (App.),
 * and Bates numbers and ranges.
 *
 * The verifier ties each to a document of the matter, so the fields keep
 * what it needs to find one: the number as written and the pages, lines
 * or paragraphs as numbers.
 */
#include <string.h>

#include "claims/claims_int.h"

static bool is_para_sign(const struct sw__claims_scan *sc, size_t i)
{
	return sw__claims_at(sc, i) == 0xC2 && sw__claims_at(sc, i + 1) == 0xB6;
}

/* digits, then optional dash and digits: [i, *end); the dash part in
 * [*d_s, *end) if any */
static size_t num_range(const struct sw__claims_scan *sc, size_t i, size_t *lo_e, size_t *hi_s)
{
	if (!sw__claims_digit(sw__claims_at(sc, i)))
		return 0;
	size_t e = sw__claims_digits(sc, i), d;
	*lo_e = e;
	*hi_s = 0;
	if ((d = sw__claims_dash(sc, e)) && sw__claims_digit(sw__claims_at(sc, d))) {
		*hi_s = d;
		e = sw__claims_digits(sc, d);
	}
	return e;
}

/* page:line[-line] or page:line-page:line; fields into b. */
static size_t page_line(struct sw__claims_scan *sc, size_t i, struct sw__claims_builder *b)
{
	if (!sw__claims_digit(sw__claims_at(sc, i)))
		return 0;
	size_t pe = sw__claims_digits(sc, i);
	sw__claims_field(b, "page", sc->t + i, pe - i);
	if (sw__claims_at(sc, pe) != ':' || !sw__claims_digit(sw__claims_at(sc, pe + 1))) {
		size_t d = sw__claims_dash(sc, pe);
		if (d && sw__claims_digit(sw__claims_at(sc, d))) {
			size_t e = sw__claims_digits(sc, d);
			sw__claims_field(b, "page_end", sc->t + d, e - d);
			return e;
		}
		return sw__claims_alpha(sw__claims_at(sc, pe)) ? 0 : pe;
	}
	size_t ls = pe + 1, le = sw__claims_digits(sc, ls);
	sw__claims_field(b, "line", sc->t + ls, le - ls);
	size_t d = sw__claims_dash(sc, le);
	if (d && sw__claims_digit(sw__claims_at(sc, d))) {
		size_t e = sw__claims_digits(sc, d);
		if (sw__claims_at(sc, e) == ':' && sw__claims_digit(sw__claims_at(sc, e + 1))) {
			/* 45:3-46:2 */
			sw__claims_field(b, "page_end", sc->t + d, e - d);
			size_t e2 = sw__claims_digits(sc, e + 1);
			sw__claims_field(b, "line_end", sc->t + e + 1, e2 - e - 1);
			return e2;
		}
		sw__claims_field(b, "line_end", sc->t + d, e - d);
		return e;
	}
	return le;
}

/* " at 3", ", at 3-4", ", p. 3", " ¶ 7": pages or paragraphs after a
 * document's number. */
static size_t doc_pin(struct sw__claims_scan *sc, size_t i, struct sw__claims_builder *b)
{
	size_t k = i, e, lo, hi;
	if (sw__claims_at(sc, k) == ',')
		k++;
	k = sw__claims_ws(sc, k);
	if ((e = sw__claims_word(sc, k, "at")) || (e = sw__claims_lit(sc, k, "pp.")) || (e = sw__claims_lit(sc, k, "p.")) ||
	    (e = sw__claims_word(sc, k, "page")) || (e = sw__claims_word(sc, k, "pages"))) {
		size_t m = sw__claims_ws(sc, e), end;
		if (sw__claims_at(sc, m) == '*')
			m++;
		if ((end = num_range(sc, m, &lo, &hi)) && !sw__claims_alpha(sw__claims_at(sc, end))) {
			sw__claims_field(b, "page", sc->t + m, lo - m);
			if (hi)
				sw__claims_field(b, "page_end", sc->t + hi, end - hi);
			return end;
		}
		return i;
	}
	if (is_para_sign(sc, k)) {
		size_t m = k + 2;
		if (is_para_sign(sc, m))
			m += 2;
		m = sw__claims_ws(sc, m);
		size_t end = num_range(sc, m, &lo, &hi);
		if (end) {
			sw__claims_field(b, "paragraph", sc->t + m, lo - m);
			if (hi)
				sw__claims_field(b, "paragraph_end", sc->t + hi, end - hi);
			return end;
		}
	}
	return i;
}

/* Capitalised words just before i: the witness of "Smith Dep." */
static bool witness_before(const struct sw__claims_scan *sc, size_t i, size_t *w_s, size_t *w_e)
{
	size_t e = sw__claims_ws_back(sc, i, sc->done), s = e, start = 0;
	bool found = false;
	if (e == i && i > 0 && sw__claims_at(sc, i - 1) != '(')
		return false; /* "Dep." glued to a word */
	for (int words = 0; words < 3 && s > sc->done; words++) {
		size_t ws = s;
		while (ws > sc->done && (sw__claims_alpha(sw__claims_at(sc, ws - 1)) || sw__claims_at(sc, ws - 1) == '\'' ||
					 sw__claims_at(sc, ws - 1) == '-' || sw__claims_at(sc, ws - 1) == '.'))
			ws--;
		if (ws == s || !sw__claims_upper(sw__claims_at(sc, ws)))
			break;
		/* stop at words that are not names */
		static const char *const not_names[] = { "See", "Cf.", "In", "The", "Supp.", "Suppl.",
							 "Second", "Third", "Hr'g", "Trial", "Id.", NULL };
		bool stop = false;
		for (const char *const *n = not_names; *n; n++)
			if (s - ws == strlen(*n) && !memcmp(sc->t + ws, *n, s - ws))
				stop = true;
		if (stop)
			break;
		start = ws;
		found = true;
		size_t b = ws;
		while (b > sc->done && (sw__claims_at(sc, b - 1) == ' '))
			b--;
		if (b == ws)
			break;
		s = b;
	}
	if (!found)
		return false;
	*w_s = start;
	*w_e = e;
	return true;
}

/* The party an exhibit label names before "Ex." / "Exhibit": "Def. Ex. 3",
 * "Pls.' Ex. 3", "Plaintiff's Exhibit 3".  Returns the party's start (or p)
 * and its normalised name in *party. */
static size_t party_before(const struct sw__claims_scan *sc, size_t p, const char **party)
{
	static const struct { const char *w; const char *party; } words[] = {
		{ "Def.", "defendant" }, { "Defs.", "defendant" }, { "Def.'s", "defendant" },
		{ "Defs.'", "defendant" }, { "Def.\xE2\x80\x99s", "defendant" },
		{ "Defs.\xE2\x80\x99", "defendant" }, { "Defendant", "defendant" },
		{ "Defendant's", "defendant" }, { "Defendants'", "defendant" },
		{ "Defendant\xE2\x80\x99s", "defendant" }, { "Defendants\xE2\x80\x99", "defendant" },
		{ "Pl.", "plaintiff" }, { "Pls.", "plaintiff" }, { "Pl.'s", "plaintiff" },
		{ "Pls.'", "plaintiff" }, { "Pl.\xE2\x80\x99s", "plaintiff" },
		{ "Pls.\xE2\x80\x99", "plaintiff" }, { "Plaintiff", "plaintiff" },
		{ "Plaintiff's", "plaintiff" }, { "Plaintiffs'", "plaintiff" },
		{ "Plaintiff\xE2\x80\x99s", "plaintiff" }, { "Plaintiffs\xE2\x80\x99", "plaintiff" },
		{ "Pltf.", "plaintiff" }, { "Joint", "joint" }, { "Gov't", "government" },
		{ "Gov\xE2\x80\x99t", "government" }, { "Govt.", "government" },
		{ "Government", "government" }, { "Pet.", "petitioner" }, { "Resp.", "respondent" },
	};
	*party = NULL;
	size_t e = p;
	while (e > sc->done && (sw__claims_at(sc, e - 1) == ' ' || sw__claims_at(sc, e - 1) == '\t'))
		e--;
	if (e == p || e <= sc->done)
		return p;
	size_t best = p;
	for (size_t i = 0; i < SW_ARRAY_LEN(words); i++) {
		size_t n = strlen(words[i].w);
		if (e - sc->done < n || memcmp(sc->t + e - n, words[i].w, n) != 0 ||
		    !sw__claims_boundary_before(sc, e - n))
			continue;
		if (e - n < best) {
			best = e - n;
			*party = words[i].party;
		}
	}
	return best;
}

/* PX, DX, JX, GX: the party in the letter. */
static const char *party_letter(int c)
{
	return c == 'P' ? "plaintiff" : c == 'D' ? "defendant" : c == 'J' ? "joint" :
	       c == 'G' ? "government" : NULL;
}

/* Whether the exhibit word at [p, q) with its number ending at n names a
 * part of a document rather than cites the record: "Exhibit C to the
 * Subcontract", "Exhibit B of this Agreement", "the Exhibit C date". */
static bool exhibit_of_document(const struct sw__claims_scan *sc, size_t p, size_t q, size_t n)
{
	static const char *const of[] = { " to the ", " to this ", " of the ", " of this ",
					   " attached to ", " to our ", " to its " };
	if (q - p < 7 || strncmp(sc->t + p, "Exhibit", 7) != 0)
		return false; /* "Ex. 4", "PX12": citation forms */
	for (size_t k = 0; k < SW_ARRAY_LEN(of); k++) {
		size_t l = strlen(of[k]);
		if (n + l <= sc->n && strncmp(sc->t + n, of[k], l) == 0)
			return true;
	}
	/* "the Exhibit C date": an article before, a noun after */
	if (p >= 4 &&
	    (strncmp(sc->t + p - 4, "the ", 4) == 0 || strncmp(sc->t + p - 4, "The ", 4) == 0) &&
	    n + 2 < sc->n && sc->t[n] == ' ' && sw__claims_lower(sw__claims_at(sc, n + 1)) &&
	    strncmp(sc->t + n + 1, "at ", 3) != 0)
		return true;
	return false;
}

size_t sw__claims_try_record(struct sw__claims_scan *sc, size_t p, size_t q, enum sw__claims_record_kw kw)
{
	if (p < sc->done || !sw__claims_boundary_before(sc, p))
		return 0;
	struct sw__claims_builder b;
	size_t k = sw__claims_ws(sc, q), e, end = 0, w_s = 0, w_e = 0;
	sw__claims_begin(&b, SW_CLAIM_RECORD, SW_FORM_FULL, p, q);
	sw__claims_field(&b, "label", sc->t + p, q - p);

	switch (kw) {
	case SW__CLAIMS_KW_EXHIBIT: {
		/* PX12, PX-12, Ex. 12, Exhibit B, Ex. A-3 */
		size_t m = k;
		if (m == q && sw__claims_at(sc, m) == '-')
			m++;
		if (m == q && !sw__claims_digit(sw__claims_at(sc, m)))
			return 0;
		if ((e = sw__claims_lit(sc, m, "No.")))
			m = sw__claims_ws(sc, e);
		size_t n = m;
		while (n < sc->n && n < m + 6 && (sw__claims_digit(sw__claims_at(sc, n)) || sw__claims_upper(sw__claims_at(sc, n))))
			n++;
		if (n == m)
			return 0;
		if (sw__claims_at(sc, n) == '-' && sw__claims_alnum(sw__claims_at(sc, n + 1))) {
			n++;
			while (n < sc->n && sw__claims_alnum(sw__claims_at(sc, n)))
				n++;
		}
		if (sw__claims_lower(sw__claims_at(sc, n)) || (n - m > 1 && !sw__claims_digit(sw__claims_at(sc, m)) &&
					      !sw__claims_digit(sw__claims_at(sc, n - 1)) && sw__claims_at(sc, m + 1) != '-'))
			return 0; /* "Exhibit AB" is a word, "Ex. Bx" prose */
		if (exhibit_of_document(sc, p, q, n))
			return 0; /* "Exhibit C to the Subcontract": a part of a document */
		sw__claims_fieldz(&b, "form", "exhibit");
		sw__claims_field(&b, "number", sc->t + m, n - m);
		const char *party = NULL;
		if (q - p == 2 && sc->t[p + 1] == 'X') {
			party = party_letter(sc->t[p]);
		} else {
			size_t ps = party_before(sc, p, &party);
			if (party) {
				b.start = b.cite_start = ps;
				sw__claims_field(&b, "label", sc->t + ps, q - ps);
			}
		}
		if (party)
			sw__claims_fieldz(&b, "party", party);
		end = doc_pin(sc, n, &b);
		break;
	}
	case SW__CLAIMS_KW_ECF:
	case SW__CLAIMS_KW_DKT: {
		size_t m = k;
		if ((e = sw__claims_lit(sc, m, "Nos.")) || (e = sw__claims_lit(sc, m, "No.")) || (e = sw__claims_lit(sc, m, "no.")) ||
		    (e = sw__claims_lit(sc, m, "Entry")))
			m = sw__claims_ws(sc, e);
		if (m == q || !sw__claims_digit(sw__claims_at(sc, m)))
			return 0;
		size_t n = sw__claims_digits(sc, m);
		if (sw__claims_alpha(sw__claims_at(sc, n)))
			return 0;
		sw__claims_fieldz(&b, "form", "ecf");
		sw__claims_field(&b, "number", sc->t + m, n - m);
		if (sw__claims_at(sc, n) == '-' && sw__claims_digit(sw__claims_at(sc, n + 1))) {
			size_t a = sw__claims_digits(sc, n + 1);
			sw__claims_field(&b, "attachment", sc->t + n + 1, a - n - 1);
			n = a;
		}
		end = doc_pin(sc, n, &b);
		break;
	}
	case SW__CLAIMS_KW_DEP:
	case SW__CLAIMS_KW_TR: {
		bool wit = witness_before(sc, p, &w_s, &w_e);
		size_t m = k;
		if (kw == SW__CLAIMS_KW_DEP && (e = sw__claims_lit(sc, m, "Tr.")))
			m = sw__claims_ws(sc, e);
		if ((e = sw__claims_word(sc, m, "at")))
			m = sw__claims_ws(sc, e);
		if (m == q)
			return 0;
		sw__claims_fieldz(&b, "form", kw == SW__CLAIMS_KW_DEP ? "deposition" : "transcript");
		end = page_line(sc, m, &b);
		if (!end)
			return 0;
		if (wit) {
			sw__claims_field(&b, "witness", sc->t + w_s, w_e - w_s);
			b.start = w_s;
		}
		break;
	}
	case SW__CLAIMS_KW_DECL: {
		bool wit = witness_before(sc, p, &w_s, &w_e);
		sw__claims_fieldz(&b, "form", "declaration");
		end = doc_pin(sc, q, &b);
		bool abbrev = sw__claims_at(sc, q - 1) == '.';
		if (end == q && !(abbrev && wit))
			return 0;
		if (wit) {
			sw__claims_field(&b, "witness", sc->t + w_s, w_e - w_s);
			b.start = w_s;
		}
		break;
	}
	case SW__CLAIMS_KW_R:
	case SW__CLAIMS_KW_JA:
	case SW__CLAIMS_KW_APP: {
		size_t m = k, lo, hi;
		if ((e = sw__claims_word(sc, m, "at")))
			m = sw__claims_ws(sc, e);
		if (m == q)
			return 0;
		end = num_range(sc, m, &lo, &hi);
		/* appendix pages may carry a letter: Pet. App. 12a */
		if (end && kw == SW__CLAIMS_KW_APP && sw__claims_lower(sw__claims_at(sc, end)) && !sw__claims_alpha(sw__claims_at(sc, end + 1)))
			end++;
		if (!end || sw__claims_alpha(sw__claims_at(sc, end)))
			return 0;
		sw__claims_fieldz(&b, "form", kw == SW__CLAIMS_KW_R ? "record" : kw == SW__CLAIMS_KW_JA ?
			  "joint_appendix" : "appendix");
		sw__claims_field(&b, "page", sc->t + m, lo - m);
		if (hi)
			sw__claims_field(&b, "page_end", sc->t + hi, end - hi);
		if (kw == SW__CLAIMS_KW_APP) {
			size_t s, pe = sw__claims_ws_back(sc, p, sc->done);
			s = pe > sc->done && sw__claims_at(sc, pe - 1) == '.' ? pe - 1 : pe;
			while (s > sc->done && sw__claims_alpha(sw__claims_at(sc, s - 1)))
				s--;
			if (pe > s && sw__claims_at(sc, pe - 1) == '.' && pe - s >= 3 && sw__claims_upper(sw__claims_at(sc, s))) {
				b.start = s; /* Pet. App., Resp. App. */
				sw__claims_field(&b, "label", sc->t + s, q - s);
			}
		}
		break;
	}
	}
	if (!end || end <= p)
		return 0;
	b.end = b.cite_end = end;
	if (sw__claims_push(sc, &b) < 0)
		return 0;
	sc->done = end;
	return end;
}

/* ------------------------------------------------------------------ Bates */

static bool excluded_prefix(const struct sw__claims_scan *sc, size_t s, size_t e)
{
	static const char *const no[] = { "WL", "LEXIS", "ECF", "USC", "CFR", "COVID", "ISO",
					  "FRCP", "SB", "HB", "AB", "HR", "PL", "NO", NULL };
	for (const char *const *x = no; *x; x++)
		if (e - s == strlen(*x) && !memcmp(sc->t + s, *x, e - s))
			return true;
	return false;
}

struct bates {
	size_t s, e;          /* the whole number as written */
	size_t pre_s, pre_e;  /* prefix */
	size_t num_s, num_e;  /* digits */
};

/* The length of a Bates separator at k: - _ space, or a Unicode hyphen
 * (U+2010, U+2011, which word processors put in for "-"); 0 for none. */
static size_t bates_sep(const struct sw__claims_scan *sc, size_t k)
{
	int c = sw__claims_at(sc, k);
	if (c == '-' || c == '_' || c == ' ')
		return 1;
	if (c == 0xE2 && sw__claims_at(sc, k + 1) == 0x80 &&
	    (sw__claims_at(sc, k + 2) == 0x90 || sw__claims_at(sc, k + 2) == 0x91))
		return 3;
	return 0;
}

/* A Bates-shaped token at i: PREFIX[sep]DIGITS, at least two capitals
 * (or a capital and digits before a hyphen) and at least three digits.
 * Named things have this shape too (RTX 3090, PO 4471): the position
 * field, set once sentences are known, says where it stands. */
static bool read_bates(const struct sw__claims_scan *sc, size_t i, struct bates *bt)
{
	size_t k = i;
	while (k < sc->n && k < i + 12 && (sw__claims_upper(sw__claims_at(sc, k)) ||
					   (k > i && sw__claims_digit(sw__claims_at(sc, k)) && sw__claims_upper(sw__claims_at(sc, k - 1)) &&
					    (sw__claims_at(sc, k + 1) == '-' || sw__claims_at(sc, k + 1) == '_'))))
		k++;
	if (k == i || !sw__claims_upper(sw__claims_at(sc, i)))
		return false;
	size_t pre_e = k, sep = bates_sep(sc, k);
	size_t ds = k + sep, de = sw__claims_digits(sc, ds);
	size_t nd = de - ds;
	if (sw__claims_alnum(sw__claims_at(sc, de)))
		return false;
	if ((!sep || sw__claims_at(sc, k) == ' ') && pre_e - i < 2)
		return false;
	if (nd < 3 || nd > 12 || excluded_prefix(sc, i, pre_e))
		return false;
	bt->s = i;
	bt->e = de;
	bt->pre_s = i;
	bt->pre_e = pre_e;
	bt->num_s = ds;
	bt->num_e = de;
	return true;
}

size_t sw__claims_try_bates(struct sw__claims_scan *sc, size_t p, size_t q)
{
	(void)q;
	if (p < sc->done || !sw__claims_boundary_before(sc, p))
		return 0;
	struct bates a, z;
	char endbuf[64]; /* the end of a short range, alive until the push */
	/* record words in capitals whose number the Bates rule took: PX 12,
	 * ECF 45 */
	if (q - p >= 4 && sw__claims_at(sc, p + 2) == ' ' && sw__claims_at(sc, p + 1) == 'X' && strchr("PDJG", sc->t[p]))
		return sw__claims_try_record(sc, p, p + 2, SW__CLAIMS_KW_EXHIBIT);
	if (sw__claims_lit(sc, p, "ECF") && !sw__claims_alnum(sw__claims_at(sc, p + 3)))
		return sw__claims_try_record(sc, p, p + 3, SW__CLAIMS_KW_ECF);
	if (!read_bates(sc, p, &a))
		return 0;
	struct sw__claims_builder b;
	sw__claims_begin(&b, SW_CLAIM_BATES, SW_FORM_FULL, a.s, a.e);
	sw__claims_field(&b, "prefix", sc->t + a.pre_s, a.pre_e - a.pre_s);
	if (a.num_s > a.pre_e)
		sw__claims_field(&b, "separator", sc->t + a.pre_e, a.num_s - a.pre_e);
	sw__claims_field(&b, "number", sc->t + a.num_s, a.num_e - a.num_s);
	sw__claims_field(&b, "start", sc->t + a.s, a.e - a.s);
	char w[8];
	snprintf(w, sizeof(w), "%zu", a.num_e - a.num_s);
	sw__claims_fieldz(&b, "width", w);
	size_t end = a.e;

	/* a range: - – — to through, then a whole number or its last digits */
	size_t k = sw__claims_ws(sc, a.e), d;
	if (!(d = sw__claims_dash(sc, k)) && !(d = sw__claims_word(sc, k, "to")) && !(d = sw__claims_word(sc, k, "through")) &&
	    !(d = sw__claims_word(sc, k, "thru")))
		d = 0;
	if (d) {
		size_t m = sw__claims_ws(sc, d);
		size_t nd = a.num_e - a.num_s;
		if (read_bates(sc, m, &z) && z.pre_e - z.pre_s == a.pre_e - a.pre_s &&
		    !memcmp(sc->t + z.pre_s, sc->t + a.pre_s, a.pre_e - a.pre_s)) {
			if (z.num_e - z.num_s == nd && memcmp(sc->t + z.num_s, sc->t + a.num_s, nd) >= 0) {
				sw__claims_field(&b, "end", sc->t + z.s, z.e - z.s);
				end = z.e;
			}
		} else if (sw__claims_digit(sw__claims_at(sc, m)) && m == d) {
			/* short form ACME0000123-25: the last digits change */
			size_t se = sw__claims_digits(sc, m), sn = se - m;
			if (sn <= nd && !sw__claims_alnum(sw__claims_at(sc, se)) && a.e - a.s < sizeof(endbuf)) {
				memcpy(endbuf, sc->t + a.s, a.e - a.s);
				memcpy(endbuf + (a.e - a.s) - sn, sc->t + m, sn);
				if (memcmp(endbuf + (a.num_s - a.s), sc->t + a.num_s, nd) >= 0) {
					sw__claims_field(&b, "end", endbuf, a.e - a.s);
					end = se;
				}
			}
		}
	}
	/* NCR-2021-0147, CVE-2021-44228: more groups in the same spelling that
	 * make no range are one identifier, not a Bates number and a stray */
	if (end == a.e && a.num_s > a.pre_e && sc->t[a.pre_e] != ' ') {
		size_t t = end;
		while (sw__claims_at(sc, t) == (unsigned char)sc->t[a.pre_e] && sw__claims_digit(sw__claims_at(sc, t + 1)))
			t = sw__claims_digits(sc, t + 1);
		if (t > end && !sw__claims_alnum(sw__claims_at(sc, t))) {
			sw__claims_field(&b, "rest", sc->t + end, t - end);
			end = t;
		}
	}
	b.end = b.cite_end = end;
	if (sw__claims_push(sc, &b) < 0)
		return 0;
	sc->done = end;
	return end;
}
