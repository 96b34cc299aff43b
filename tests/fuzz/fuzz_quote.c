/*
 * fuzz_quote.c - hostile quotations and pages through quotation matching
 * (verify/quote.c), the closest passage (closest.c) and case-name matching
 * (authority/names.c).  The input is a quotation, a byte 0x01, then the
 * page.  Besides memory errors it checks what callers rely on: a match and
 * a closest passage lie inside the page, in order, and every difference
 * has words on at least one side.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "authority/authority.h"
#include "verify/verify_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_quote: %s", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *d = (const char *)data;
	const char *sep = memchr(d, 0x01, size);
	size_t qlen = sep ? (size_t)(sep - d) : size / 4;
	const char *text = sep ? sep + 1 : d + qlen;
	size_t len = size - qlen - (sep ? 1 : 0);
	size_t s = 0, e = 0;
	if (sw_verify_quote_in(d, qlen, text, len, &s, &e))
		check(s < e && e <= len, "a match outside the page");
	/* Every third byte of the page skipped, joined or not. */
	struct sw__verify_skip sk[4] = {
		{ len / 4, len / 3, false }, { len / 2, len / 2 + 3, true },
		{ 0, len / 8, false }, { len / 3, len / 2, false },
	};
	if (sw__verify_quote_find(d, qlen, text, len, sk, 4, &s, &e))
		check(s < e && e <= len, "a match outside the page");
	struct sw__verify_closest c;
	if (sw__verify_closest(&c, d, qlen, text, len, NULL, 0)) {
		check(c.start < c.end && c.end <= len, "a closest passage outside the page");
		check(c.same <= c.words, "more words the same than words");
		for (size_t k = 0; k < c.ndiffs; k++)
			check(c.diff[k].draft || c.diff[k].page, "a difference of nothing");
		free(sw__verify_closest_describe(&c, text, len));
	}
	sw__verify_closest_release(&c);
	char *q = sw_xstrndup(d, qlen < 4096 ? qlen : 4096);
	char *t = sw_xstrndup(text, len < 4096 ? len : 4096);
	(void)sw_authority_names_match(q, t);
	(void)sw_authority_name_readable(q);
	free(sw_authority_name_clean(q));
	free(q);
	free(t);
	return 0;
}
