/*
 * fuzz_fields.c - hostile text through the metadata readers: the date
 * normaliser (a load file's date values), the folded words of a field and
 * a search's field terms (what a user or a page sends).  Besides memory
 * errors it checks what callers rely on: a date is YYYY-MM-DD or empty, a
 * word is bounded and terminated, the query's rest is no longer than it.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record/record_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_fields: %s", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char day[SW_DATE_LEN + 1];
	char words[8][SW__RECORD_TERM_MAX + 1];
	const char *s = (const char *)data;

	if (sw_date_normalize(day, s, size)) {
		check(strlen(day) == SW_DATE_LEN && day[4] == '-' && day[7] == '-', "date shape");
		for (size_t i = 0; i < SW_DATE_LEN; i++)
			check(i == 4 || i == 7 || isdigit((unsigned char)day[i]), "date digits");
	} else {
		check(day[0] == '\0', "no date left a value");
	}
	size_t n = sw__record_field_words(words, 8, s, size);
	check(n <= 8, "too many words");
	for (size_t i = 0; i < n; i++)
		check(words[i][0] && strlen(words[i]) <= SW__RECORD_TERM_MAX, "word length");

	char *q = malloc(size + 1);
	if (!q)
		return 0;
	memcpy(q, data, size);
	q[size] = '\0';
	struct sw__record_field_query fq;
	struct sw_err err = { 0 };
	int rc = sw__record_field_query_parse(&fq, q, &err);
	check(rc == 0 || rc == SW_EUSAGE || rc == SW_ELIMIT, "query error code");
	if (rc == 0) {
		check(fq.rest.len <= strlen(q), "rest longer than the query");
		check(fq.nterms == 0 || fq.sql.len > 0, "terms without SQL");
		sw__record_field_query_release(&fq);
	}
	free(q);
	return 0;
}
