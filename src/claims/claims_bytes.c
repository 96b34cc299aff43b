/* claims_bytes.c - the byte helpers every reader of a claim calls: spaces,
 * digits, literals, words, dashes, numbers and years.  A leaf: it calls
 * nothing else in claims/. */
#include <stdlib.h>
#include <string.h>

#include "claims/claims_int.h"

size_t sw__claims_space_len(const struct sw__claims_scan *sc, size_t i)
{
	int c = sw__claims_at(sc, i);
	if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')
		return 1;
	if (c == 0xC2 && sw__claims_at(sc, i + 1) == 0xA0)
		return 2; /* no-break space */
	if (c == 0xE2 && sw__claims_at(sc, i + 1) == 0x80) {
		int d = sw__claims_at(sc, i + 2);
		/* thin, hair, narrow no-break and zero-width spaces: word
		 * processors put them inside citations */
		if (d == 0x89 || d == 0x8A || d == 0x8B || d == 0xAF)
			return 3;
	}
	return 0;
}

size_t sw__claims_ws(const struct sw__claims_scan *sc, size_t i)
{
	size_t k;
	while (i < sc->n && (k = sw__claims_space_len(sc, i)) > 0)
		i += k;
	return i;
}

size_t sw__claims_ws_back(const struct sw__claims_scan *sc, size_t i, size_t floor)
{
	while (i > floor) {
		int c = sw__claims_at(sc, i - 1);
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')
			i--;
		else if (i - floor >= 2 && c == 0xA0 && sw__claims_at(sc, i - 2) == 0xC2)
			i -= 2;
		else if (i - floor >= 3 && sw__claims_at(sc, i - 3) == 0xE2 &&
			 sw__claims_at(sc, i - 2) == 0x80 &&
			 (c == 0x89 || c == 0x8A || c == 0x8B || c == 0xAF))
			i -= 3;
		else
			break;
	}
	return i;
}

size_t sw__claims_blanks(const struct sw__claims_scan *sc, size_t i)
{
	while (i < sc->n && (sc->t[i] == ' ' || sc->t[i] == '\t'))
		i++;
	return i;
}

size_t sw__claims_digits(const struct sw__claims_scan *sc, size_t i)
{
	while (i < sc->n && sw__claims_digit((unsigned char)sc->t[i]))
		i++;
	return i;
}

size_t sw__claims_lit(const struct sw__claims_scan *sc, size_t i, const char *lit)
{
	size_t n = strlen(lit);
	if (i > sc->n || sc->n - i < n || memcmp(sc->t + i, lit, n) != 0)
		return 0;
	return i + n;
}

size_t sw__claims_word(const struct sw__claims_scan *sc, size_t i, const char *lit)
{
	size_t e = sw__claims_lit(sc, i, lit);
	if (!e || sw__claims_alnum(sw__claims_at(sc, e)))
		return 0;
	return e;
}

bool sw__claims_boundary_before(const struct sw__claims_scan *sc, size_t i)
{
	return i == 0 || !sw__claims_alnum((unsigned char)sc->t[i - 1]);
}

size_t sw__claims_dash(const struct sw__claims_scan *sc, size_t i)
{
	int c = sw__claims_at(sc, i);
	if (c == '-')
		return i + 1;
	if (c == 0xE2 && sw__claims_at(sc, i + 1) == 0x80 &&
	    (sw__claims_at(sc, i + 2) == 0x93 || sw__claims_at(sc, i + 2) == 0x94 ||
	     sw__claims_at(sc, i + 2) == 0x91))
		return i + 3;
	return 0;
}

long sw__claims_num(const struct sw__claims_scan *sc, size_t i, size_t e)
{
	long v = 0;
	/* Nine digits at most: every number a claim holds is smaller, and the
	 * value never overflows. */
	for (size_t k = i; k < e && k < i + 9; k++)
		v = v * 10 + (sc->t[k] - '0');
	return v;
}

int sw__claims_year(const struct sw__claims_scan *sc, size_t i, size_t *end)
{
	size_t e = sw__claims_digits(sc, i);
	if (e - i != 4)
		return 0;
	int y = (int)sw__claims_num(sc, i, e);
	if (y < 1600 || y > 2099)
		return 0;
	if (end)
		*end = e;
	return y;
}
