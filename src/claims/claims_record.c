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

static bool is_para_sign(const struct claims_scan *sc, size_t i)
{
	return cl_at(sc, i) == 0xC2 && cl_at(sc, i + 1) == 0xB6;
}

/* digits, then optional dash and digits: [i, *end); the dash part in
 * [*d_s, *end) if any */
static size_t num_range(const struct claims_scan *sc, size_t i, size_t *lo_e, size_t *hi_s)
{
	if (!cl_digit(cl_at(sc, i)))
		return 0;
	size_t e = cl_digits(sc, i), d;
	*lo_e = e;
	*hi_s = 0;
	if ((d = cl_dash(sc, e)) && cl_digit(cl_at(sc, d))) {
		*hi_s = d;
		e = cl_digits(sc, d);
	}
	return e;
}

/* page:line[-line] or page:line-page:line; fields into b. */
static size_t page_line(struct claims_scan *sc, size_t i, struct claims_builder *b)
{
	if (!cl_digit(cl_at(sc, i)))
		return 0;
	size_t pe = cl_digits(sc, i);
	cl_field(b, "page", sc->t + i, pe - i);
	if (cl_at(sc, pe) != ':' || !cl_digit(cl_at(sc, pe + 1))) {
		size_t d = cl_dash(sc, pe);
		if (d && cl_digit(cl_at(sc, d))) {
			size_t e = cl_digits(sc, d);
			cl_field(b, "page_end", sc->t + d, e - d);
			return e;
		}
		return cl_alpha(cl_at(sc, pe)) ? 0 : pe;
	}
	size_t ls = pe + 1, le = cl_digits(sc, ls);
	cl_field(b, "line", sc->t + ls, le - ls);
	size_t d = cl_dash(sc, le);
	if (d && cl_digit(cl_at(sc, d))) {
		size_t e = cl_digits(sc, d);
		if (cl_at(sc, e) == ':' && cl_digit(cl_at(sc, e + 1))) {
			/* 45:3-46:2 */
			cl_field(b, "page_end", sc->t + d, e - d);
			size_t e2 = cl_digits(sc, e + 1);
			cl_field(b, "line_end", sc->t + e + 1, e2 - e - 1);
			return e2;
		}
		cl_field(b, "line_end", sc->t + d, e - d);
		return e;
	}
	return le;
}

/* " at 3", ", at 3-4", ", p. 3", " ¶ 7": pages or paragraphs after a
 * document's number. */
static size_t doc_pin(struct claims_scan *sc, size_t i, struct claims_builder *b)
{
	size_t k = i, e, lo, hi;
	if (cl_at(sc, k) == ',')
		k++;
	k = cl_ws(sc, k);
	if ((e = cl_word(sc, k, "at")) || (e = cl_lit(sc, k, "pp.")) || (e = cl_lit(sc, k, "p.")) ||
	    (e = cl_word(sc, k, "page")) || (e = cl_word(sc, k, "pages"))) {
		size_t m = cl_ws(sc, e), end;
		if (cl_at(sc, m) == '*')
			m++;
		if ((end = num_range(sc, m, &lo, &hi)) && !cl_alpha(cl_at(sc, end))) {
			cl_field(b, "page", sc->t + m, lo - m);
			if (hi)
				cl_field(b, "page_end", sc->t + hi, end - hi);
			return end;
		}
		return i;
	}
	if (is_para_sign(sc, k)) {
		size_t m = k + 2;
		if (is_para_sign(sc, m))
			m += 2;
		m = cl_ws(sc, m);
		size_t end = num_range(sc, m, &lo, &hi);
		if (end) {
			cl_field(b, "paragraph", sc->t + m, lo - m);
			if (hi)
				cl_field(b, "paragraph_end", sc->t + hi, end - hi);
			return end;
		}
	}
	return i;
}

/* Capitalised words just before i: the witness of "Smith Dep." */
static bool witness_before(const struct claims_scan *sc, size_t i, size_t *w_s, size_t *w_e)
{
	size_t e = cl_ws_back(sc, i, sc->done), s = e, start = 0;
	bool found = false;
	if (e == i && i > 0 && cl_at(sc, i - 1) != '(')
		return false; /* "Dep." glued to a word */
	for (int words = 0; words < 3 && s > sc->done; words++) {
		size_t ws = s;
		while (ws > sc->done && (cl_alpha(cl_at(sc, ws - 1)) || cl_at(sc, ws - 1) == '\'' ||
					 cl_at(sc, ws - 1) == '-' || cl_at(sc, ws - 1) == '.'))
			ws--;
		if (ws == s || !cl_upper(cl_at(sc, ws)))
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
		while (b > sc->done && (cl_at(sc, b - 1) == ' '))
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
static size_t party_before(const struct claims_scan *sc, size_t p, const char **party)
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
	while (e > sc->done && (cl_at(sc, e - 1) == ' ' || cl_at(sc, e - 1) == '\t'))
		e--;
	if (e == p || e <= sc->done)
		return p;
	size_t best = p;
	for (size_t i = 0; i < SW_ARRAY_LEN(words); i++) {
		size_t n = strlen(words[i].w);
		if (e - sc->done < n || memcmp(sc->t + e - n, words[i].w, n) != 0 ||
		    !cl_boundary_before(sc, e - n))
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

size_t claims_try_record(struct claims_scan *sc, size_t p, size_t q, enum claims_record_kw kw)
{
	if (p < sc->done || !cl_boundary_before(sc, p))
		return 0;
	struct claims_builder b;
	size_t k = cl_ws(sc, q), e, end = 0, w_s = 0, w_e = 0;
	cl_begin(&b, SW_CLAIM_RECORD, SW_FORM_FULL, p, q);
	cl_field(&b, "label", sc->t + p, q - p);

	switch (kw) {
	case CLAIMS_KW_EXHIBIT: {
		/* PX12, PX-12, Ex. 12, Exhibit B, Ex. A-3 */
		size_t m = k;
		if (m == q && cl_at(sc, m) == '-')
			m++;
		if (m == q && !cl_digit(cl_at(sc, m)))
			return 0;
		if ((e = cl_lit(sc, m, "No.")))
			m = cl_ws(sc, e);
		size_t n = m;
		while (n < sc->n && n < m + 6 && (cl_digit(cl_at(sc, n)) || cl_upper(cl_at(sc, n))))
			n++;
		if (n == m)
			return 0;
		if (cl_at(sc, n) == '-' && cl_alnum(cl_at(sc, n + 1))) {
			n++;
			while (n < sc->n && cl_alnum(cl_at(sc, n)))
				n++;
		}
		if (cl_lower(cl_at(sc, n)) || (n - m > 1 && !cl_digit(cl_at(sc, m)) &&
					      !cl_digit(cl_at(sc, n - 1)) && cl_at(sc, m + 1) != '-'))
			return 0; /* "Exhibit AB" is a word, "Ex. Bx" prose */
		cl_fieldz(&b, "form", "exhibit");
		cl_field(&b, "number", sc->t + m, n - m);
		const char *party = NULL;
		if (q - p == 2 && sc->t[p + 1] == 'X') {
			party = party_letter(sc->t[p]);
		} else {
			size_t ps = party_before(sc, p, &party);
			if (party) {
				b.start = b.cite_start = ps;
				cl_field(&b, "label", sc->t + ps, q - ps);
			}
		}
		if (party)
			cl_fieldz(&b, "party", party);
		end = doc_pin(sc, n, &b);
		break;
	}
	case CLAIMS_KW_ECF:
	case CLAIMS_KW_DKT: {
		size_t m = k;
		if ((e = cl_lit(sc, m, "Nos.")) || (e = cl_lit(sc, m, "No.")) || (e = cl_lit(sc, m, "no.")) ||
		    (e = cl_lit(sc, m, "Entry")))
			m = cl_ws(sc, e);
		if (m == q || !cl_digit(cl_at(sc, m)))
			return 0;
		size_t n = cl_digits(sc, m);
		if (cl_alpha(cl_at(sc, n)))
			return 0;
		cl_fieldz(&b, "form", "ecf");
		cl_field(&b, "number", sc->t + m, n - m);
		if (cl_at(sc, n) == '-' && cl_digit(cl_at(sc, n + 1))) {
			size_t a = cl_digits(sc, n + 1);
			cl_field(&b, "attachment", sc->t + n + 1, a - n - 1);
			n = a;
		}
		end = doc_pin(sc, n, &b);
		break;
	}
	case CLAIMS_KW_DEP:
	case CLAIMS_KW_TR: {
		bool wit = witness_before(sc, p, &w_s, &w_e);
		size_t m = k;
		if (kw == CLAIMS_KW_DEP && (e = cl_lit(sc, m, "Tr.")))
			m = cl_ws(sc, e);
		if ((e = cl_word(sc, m, "at")))
			m = cl_ws(sc, e);
		if (m == q)
			return 0;
		cl_fieldz(&b, "form", kw == CLAIMS_KW_DEP ? "deposition" : "transcript");
		end = page_line(sc, m, &b);
		if (!end)
			return 0;
		if (wit) {
			cl_field(&b, "witness", sc->t + w_s, w_e - w_s);
			b.start = w_s;
		}
		break;
	}
	case CLAIMS_KW_DECL: {
		bool wit = witness_before(sc, p, &w_s, &w_e);
		cl_fieldz(&b, "form", "declaration");
		end = doc_pin(sc, q, &b);
		bool abbrev = cl_at(sc, q - 1) == '.';
		if (end == q && !(abbrev && wit))
			return 0;
		if (wit) {
			cl_field(&b, "witness", sc->t + w_s, w_e - w_s);
			b.start = w_s;
		}
		break;
	}
	case CLAIMS_KW_R:
	case CLAIMS_KW_JA:
	case CLAIMS_KW_APP: {
		size_t m = k, lo, hi;
		if ((e = cl_word(sc, m, "at")))
			m = cl_ws(sc, e);
		if (m == q)
			return 0;
		end = num_range(sc, m, &lo, &hi);
		/* appendix pages may carry a letter: Pet. App. 12a */
		if (end && kw == CLAIMS_KW_APP && cl_lower(cl_at(sc, end)) && !cl_alpha(cl_at(sc, end + 1)))
			end++;
		if (!end || cl_alpha(cl_at(sc, end)))
			return 0;
		cl_fieldz(&b, "form", kw == CLAIMS_KW_R ? "record" : kw == CLAIMS_KW_JA ?
			  "joint_appendix" : "appendix");
		cl_field(&b, "page", sc->t + m, lo - m);
		if (hi)
			cl_field(&b, "page_end", sc->t + hi, end - hi);
		if (kw == CLAIMS_KW_APP) {
			size_t s, pe = cl_ws_back(sc, p, sc->done);
			s = pe > sc->done && cl_at(sc, pe - 1) == '.' ? pe - 1 : pe;
			while (s > sc->done && cl_alpha(cl_at(sc, s - 1)))
				s--;
			if (pe > s && cl_at(sc, pe - 1) == '.' && pe - s >= 3 && cl_upper(cl_at(sc, s))) {
				b.start = s; /* Pet. App., Resp. App. */
				cl_field(&b, "label", sc->t + s, q - s);
			}
		}
		break;
	}
	}
	if (!end || end <= p)
		return 0;
	b.end = b.cite_end = end;
	if (cl_push(sc, &b) < 0)
		return 0;
	sc->done = end;
	return end;
}

/* ------------------------------------------------------------------ Bates */

static bool excluded_prefix(const struct claims_scan *sc, size_t s, size_t e)
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
static size_t bates_sep(const struct claims_scan *sc, size_t k)
{
	int c = cl_at(sc, k);
	if (c == '-' || c == '_' || c == ' ')
		return 1;
	if (c == 0xE2 && cl_at(sc, k + 1) == 0x80 &&
	    (cl_at(sc, k + 2) == 0x90 || cl_at(sc, k + 2) == 0x91))
		return 3;
	return 0;
}

/* A Bates-shaped token at i: PREFIX[sep]DIGITS, at least two capitals
 * (or a capital and digits before a hyphen) and at least three digits.
 * Named things have this shape too (RTX 3090, PO 4471): the position
 * field, set once sentences are known, says where it stands. */
static bool read_bates(const struct claims_scan *sc, size_t i, struct bates *bt)
{
	size_t k = i;
	while (k < sc->n && k < i + 12 && (cl_upper(cl_at(sc, k)) ||
					   (k > i && cl_digit(cl_at(sc, k)) && cl_upper(cl_at(sc, k - 1)) &&
					    (cl_at(sc, k + 1) == '-' || cl_at(sc, k + 1) == '_'))))
		k++;
	if (k == i || !cl_upper(cl_at(sc, i)))
		return false;
	size_t pre_e = k, sep = bates_sep(sc, k);
	size_t ds = k + sep, de = cl_digits(sc, ds);
	size_t nd = de - ds;
	if (cl_alnum(cl_at(sc, de)))
		return false;
	if ((!sep || cl_at(sc, k) == ' ') && pre_e - i < 2)
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

size_t claims_try_bates(struct claims_scan *sc, size_t p, size_t q)
{
	(void)q;
	if (p < sc->done || !cl_boundary_before(sc, p))
		return 0;
	struct bates a, z;
	char endbuf[64]; /* the end of a short range, alive until the push */
	/* record words in capitals whose number the Bates rule took: PX 12,
	 * ECF 45 */
	if (q - p >= 4 && cl_at(sc, p + 2) == ' ' && cl_at(sc, p + 1) == 'X' && strchr("PDJG", sc->t[p]))
		return claims_try_record(sc, p, p + 2, CLAIMS_KW_EXHIBIT);
	if (cl_lit(sc, p, "ECF") && !cl_alnum(cl_at(sc, p + 3)))
		return claims_try_record(sc, p, p + 3, CLAIMS_KW_ECF);
	if (!read_bates(sc, p, &a))
		return 0;
	struct claims_builder b;
	cl_begin(&b, SW_CLAIM_BATES, SW_FORM_FULL, a.s, a.e);
	cl_field(&b, "prefix", sc->t + a.pre_s, a.pre_e - a.pre_s);
	if (a.num_s > a.pre_e)
		cl_field(&b, "separator", sc->t + a.pre_e, a.num_s - a.pre_e);
	cl_field(&b, "number", sc->t + a.num_s, a.num_e - a.num_s);
	cl_field(&b, "start", sc->t + a.s, a.e - a.s);
	char w[8];
	snprintf(w, sizeof(w), "%zu", a.num_e - a.num_s);
	cl_fieldz(&b, "width", w);
	size_t end = a.e;

	/* a range: - – — to through, then a whole number or its last digits */
	size_t k = cl_ws(sc, a.e), d;
	if (!(d = cl_dash(sc, k)) && !(d = cl_word(sc, k, "to")) && !(d = cl_word(sc, k, "through")) &&
	    !(d = cl_word(sc, k, "thru")))
		d = 0;
	if (d) {
		size_t m = cl_ws(sc, d);
		size_t nd = a.num_e - a.num_s;
		if (read_bates(sc, m, &z) && z.pre_e - z.pre_s == a.pre_e - a.pre_s &&
		    !memcmp(sc->t + z.pre_s, sc->t + a.pre_s, a.pre_e - a.pre_s)) {
			if (z.num_e - z.num_s == nd && memcmp(sc->t + z.num_s, sc->t + a.num_s, nd) >= 0) {
				cl_field(&b, "end", sc->t + z.s, z.e - z.s);
				end = z.e;
			}
		} else if (cl_digit(cl_at(sc, m)) && m == d) {
			/* short form ACME0000123-25: the last digits change */
			size_t se = cl_digits(sc, m), sn = se - m;
			if (sn <= nd && !cl_alnum(cl_at(sc, se)) && a.e - a.s < sizeof(endbuf)) {
				memcpy(endbuf, sc->t + a.s, a.e - a.s);
				memcpy(endbuf + (a.e - a.s) - sn, sc->t + m, sn);
				if (memcmp(endbuf + (a.num_s - a.s), sc->t + a.num_s, nd) >= 0) {
					cl_field(&b, "end", endbuf, a.e - a.s);
					end = se;
				}
			}
		}
	}
	/* NCR-2021-0147, CVE-2021-44228: more groups in the same spelling that
	 * make no range are one identifier, not a Bates number and a stray */
	if (end == a.e && a.num_s > a.pre_e && sc->t[a.pre_e] != ' ') {
		size_t t = end;
		while (cl_at(sc, t) == (unsigned char)sc->t[a.pre_e] && cl_digit(cl_at(sc, t + 1)))
			t = cl_digits(sc, t + 1);
		if (t > end && !cl_alnum(cl_at(sc, t))) {
			cl_field(&b, "rest", sc->t + end, t - end);
			end = t;
		}
	}
	b.end = b.cite_end = end;
	if (cl_push(sc, &b) < 0)
		return 0;
	sc->done = end;
	return end;
}
