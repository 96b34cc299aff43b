/*
 * claims_cite_other.c - citations to authority that no reporter anchors:
 * id., supra, bare sections (§ 1983) and court rules.  The law section
 * numbers they share with code citations are read in claims_cite_parts.c.
 */
#include <string.h>

#include "claims/claims_int.h"

/* A parenthetical right after [.., i): its text, and where it ends. */
static size_t parenthetical(struct sw__claims_scan *sc, size_t i, struct sw__claims_builder *b)
{
	size_t k = sw__claims_ws(sc, i), s, e;
	size_t end = sw__claims_balanced(sc, k, &s, &e);
	if (!end || sw__claims_at(sc, k) != '(' || e <= s)
		return i;
	size_t ye;
	if (sw__claims_year(sc, s, &ye) && ye == e)
		return end; /* (2016): a year, not an explanation */
	sw__claims_field(b, "parenthetical", sc->t + s, e - s);
	return end;
}

size_t sw__claims_try_id(struct sw__claims_scan *sc, size_t p, size_t q)
{
	if (p < sc->done || !sw__claims_boundary_before(sc, p))
		return 0;
	struct sw__claims_builder b;
	size_t j = q;
	if (sw__claims_at(sc, j) == ',')
		j++;
	size_t k = sw__claims_ws(sc, j), pin_s = 0, pin_e = 0, e;
	if (k > q || sw__claims_at(sc, j) == ',') {
		if ((e = sw__claims_word(sc, k, "at"))) {
			size_t pe = sw__claims_read_pins(sc, sw__claims_ws(sc, e), false);
			if (pe) {
				pin_s = k;
				pin_e = pe;
			}
		} else if (sw__claims_at(sc, k) == 0xC2 && sw__claims_at(sc, k + 1) == 0xB6) {
			size_t pe = sw__claims_read_pins(sc, k, false);
			if (pe) {
				pin_s = k;
				pin_e = pe;
			}
		} else if (sw__claims_digit(sw__claims_at(sc, k))) {
			size_t d = sw__claims_digits(sc, k);
			if (sw__claims_at(sc, d) == ':' && (pin_e = sw__claims_read_pin_item(sc, k)))
				pin_s = k;
		}
	}
	/* a transcript range across a page break: Id. at 12:25-13:2 */
	if (pin_e && sw__claims_at(sc, pin_e) == ':' && sw__claims_digit(sw__claims_at(sc, pin_e + 1)) &&
	    memchr(sc->t + pin_s, ':', pin_e - pin_s))
		pin_e = sw__claims_digits(sc, pin_e + 1);
	size_t cite_end = pin_e ? pin_e : q;
	sw__claims_begin(&b, SW_CLAIM_CASE, SW_FORM_ID, p, cite_end);
	if (pin_e)
		sw__claims_field(&b, "pin", sc->t + pin_s, pin_e - pin_s);
	size_t end = parenthetical(sc, cite_end, &b);
	b.end = end;
	if (sw__claims_push(sc, &b) < 0)
		return 0;
	sc->done = cite_end;
	return cite_end;
}

size_t sw__claims_try_supra(struct sw__claims_scan *sc, size_t p, size_t q)
{
	if (p < sc->done || !sw__claims_boundary_before(sc, p))
		return 0;
	size_t j = q, pin_s = 0, pin_e = 0, e;
	if (sw__claims_at(sc, j) != '.') {
		size_t k = j;
		if (sw__claims_at(sc, k) == ',')
			k++;
		k = sw__claims_ws(sc, k);
		if (sw__claims_starts_cite(sc, k))
			return 0; /* Kaiser, supra, 13 Cal.App.5th at 1146: a short cite */
		if ((e = sw__claims_word(sc, k, "at"))) {
			size_t pe = sw__claims_read_pins(sc, sw__claims_ws(sc, e), false);
			if (pe) {
				pin_s = k;
				pin_e = pe;
			}
		}
	}
	size_t cite_end = pin_e ? pin_e : q;
	struct sw__claims_builder b;
	sw__claims_begin(&b, SW_CLAIM_CASE, SW_FORM_SUPRA, p, cite_end);
	if (pin_e)
		sw__claims_field(&b, "pin", sc->t + pin_s, pin_e - pin_s);
	/* the word before: a volume ("123 supra") and the short name */
	size_t floor = sc->done, s, w_e;
	size_t i = p;
	if (sw__claims_prev_word(sc, i, floor, &s, &w_e)) {
		size_t we2 = w_e;
		if (sw__claims_at(sc, we2 - 1) == ',')
			we2--;
		if (sw__claims_digits(sc, s) == we2 && we2 > s) {
			sw__claims_field(&b, "volume", sc->t + s, we2 - s);
			b.start = s;
			i = s;
			if (!sw__claims_prev_word(sc, i, floor, &s, &w_e))
				s = w_e = 0;
			we2 = w_e;
			if (we2 > s && sw__claims_at(sc, we2 - 1) == ',')
				we2--;
		}
		size_t o = we2 > s ? sw__claims_open_mark(sc, s) : 0;
		if (we2 > s + o && sw__claims_alpha(sw__claims_at(sc, s + o)) && !sw__claims_ends_with_quote(sc, s, we2) &&
		    !sw__claims_word_in(sc, s + o, we2, sw__claims_stop_words)) {
			sw__claims_field(&b, "antecedent", sc->t + s + o, we2 - s - o);
			b.start = s + o;
		}
	}
	b.end = parenthetical(sc, cite_end, &b);
	if (sw__claims_push(sc, &b) < 0)
		return 0;
	sc->done = cite_end;
	return cite_end;
}

size_t sw__claims_try_section(struct sw__claims_scan *sc, size_t p, size_t q)
{
	if (p < sc->done)
		return 0;
	size_t k = sw__claims_ws(sc, q), sec_e, pin_e;
	size_t e = sw__claims_read_section(sc, k, &sec_e, &pin_e);
	if (!e)
		return 0;
	struct sw__claims_builder b;
	sw__claims_begin(&b, SW_CLAIM_STATUTE, SW_FORM_BARE, p, pin_e);
	sw__claims_field(&b, "section", sc->t + k, sec_e - k);
	if (pin_e > sec_e)
		sw__claims_field(&b, "pin", sc->t + sec_e, pin_e - sec_e);
	if (sw__claims_push(sc, &b) < 0)
		return 0;
	sc->done = pin_e;
	return pin_e;
}

size_t sw__claims_try_rule(struct sw__claims_scan *sc, size_t p, size_t q, bool local)
{
	if (p < sc->done || !sw__claims_boundary_before(sc, p))
		return 0;
	size_t k = sw__claims_ws(sc, q);
	if (!sw__claims_digit(sw__claims_at(sc, k)))
		return 0;
	size_t e = sw__claims_digits(sc, k);
	while ((sw__claims_at(sc, e) == '.' || sw__claims_at(sc, e) == '-') && sw__claims_digit(sw__claims_at(sc, e + 1)))
		e = sw__claims_digits(sc, e + 1);
	if (sw__claims_alpha(sw__claims_at(sc, e)) && !sw__claims_alnum(sw__claims_at(sc, e + 1)))
		e++; /* Local Rule 56.1a */
	/* SEC Rule 10b-5, Rule 14a-8: a letter, a dash and a number */
	if (sw__claims_lower(sw__claims_at(sc, e - 1)) && sw__claims_at(sc, e) == '-' && sw__claims_digit(sw__claims_at(sc, e + 1)))
		e = sw__claims_digits(sc, e + 1);
	if (sw__claims_alnum(sw__claims_at(sc, e)))
		return 0;
	size_t rule_e = e, pin = e;
	for (int g = 0; g < 8 && sw__claims_at(sc, pin) == '('; g++) {
		size_t m = pin + 1;
		while (m < pin + 6 && sw__claims_alnum(sw__claims_at(sc, m)))
			m++;
		if (m == pin + 1 || sw__claims_at(sc, m) != ')')
			break;
		pin = m + 1;
	}
	struct sw__claims_builder b;
	bool bare = local && sw__claims_word_is(sc, p, q, "Rule");
	sw__claims_begin(&b, SW_CLAIM_RULE, bare ? SW_FORM_BARE : SW_FORM_FULL, p, pin);
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
		sw__claims_fieldz(&b, "code", code);
	else
		sw__claims_field(&b, "code", sc->t + p, q - p);
	if (local && !bare)
		sw__claims_fieldz(&b, "local", "true");
	sw__claims_field(&b, "rule", sc->t + k, rule_e - k);
	if (pin > rule_e)
		sw__claims_field(&b, "pin", sc->t + rule_e, pin - rule_e);
	if (sw__claims_push(sc, &b) < 0)
		return 0;
	sc->done = pin;
	return pin;
}
