/*
 * record_fields_test.c - load-file metadata: dates in the formats review
 * platforms export made YYYY-MM-DD (and what is not a date left alone),
 * the field names vendors give their columns, the folded words a field
 * search looks up, a field query's terms taken out of a search, and the
 * documents' JSON that sworn matter docs --json and the web API share.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "record/record_int.h"

static const char *norm(const char *s)
{
	static char out[SW_DATE_LEN + 1];
	if (!sw_date_normalize(out, s, strlen(s)))
		return "-";
	return out;
}

static void test_dates(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		{ "03/15/2021", "2021-03-15" },
		{ "3/5/2021", "2021-03-05" },
		{ "3/15/21", "2021-03-15" },
		{ "12/31/99", "1999-12-31" },
		{ "03/15/2021 10:42 AM", "2021-03-15" },
		{ "03-15-2021", "2021-03-15" },
		{ "15/03/2021", "2021-03-15" },   /* 15 cannot be a month */
		{ "2021-03-15", "2021-03-15" },
		{ "2021/03/15", "2021-03-15" },
		{ "2021-03-15T10:42:00Z", "2021-03-15" },
		{ "2021-03-15 10:42:00.000", "2021-03-15" },
		{ "20210315", "2021-03-15" },
		{ "20210315104200", "2021-03-15" },
		{ "15-Mar-2021", "2021-03-15" },
		{ "15 March 2021", "2021-03-15" },
		{ "March 15, 2021", "2021-03-15" },
		{ "Sept 1, 2021", "2021-09-01" },
		{ "Mon, 15 Mar 2021 10:42:00 -0500", "2021-03-15" },
		{ "Monday, March 15, 2021 10:42 AM", "2021-03-15" },
		{ " 02/29/2020 ", "2020-02-29" },
		/* not dates: kept as written, no day */
		{ "02/29/2021", "-" },
		{ "00/00/0000", "-" },
		{ "13/13/2021", "-" },
		{ "2021", "-" },
		{ "Q1 2021", "-" },
		{ "March 2021", "-" },
		{ "", "-" },
		{ "N/A", "-" },
		{ "2021-3-15x", "2021-03-15" },
		{ "99999999", "-" },
		{ "01/01/1700", "-" },
	};
	for (size_t i = 0; i < SW_ARRAY_LEN(cases); i++)
		if (strcmp(norm(cases[i][0]), cases[i][1]) != 0)
			fail_msg("'%s' gave %s, want %s", cases[i][0], norm(cases[i][0]),
				 cases[i][1]);
}

static void test_names(void **state)
{
	(void)state;
	assert_int_equal(sw_doc_field_find("custodian", 9), SW_FIELD_CUSTODIAN);
	assert_int_equal(sw_doc_field_find("FROM", 4), SW_FIELD_FROM);
	assert_int_equal(sw_doc_field_find("date", 4), -1); /* any date: the query's own */
	assert_true(sw_doc_field_is_date(SW_FIELD_SENT));
	assert_false(sw_doc_field_is_date(SW_FIELD_TITLE));
	assert_string_equal(sw_doc_field_label(SW_FIELD_DOCDATE), "Date");
}

static void test_words(void **state)
{
	(void)state;
	char w[8][SW__RECORD_TERM_MAX + 1];
	const char *s = "Whitfield, Renée <RWhitfield@Acme.com>";
	size_t n = sw__record_field_words(w, 8, s, strlen(s));
	assert_int_equal(n, 5);
	assert_string_equal(w[0], "whitfield");
	assert_string_equal(w[1], "renee");
	assert_string_equal(w[2], "rwhitfield");
	assert_string_equal(w[4], "com");
	assert_int_equal(sw__record_field_words(w, 2, s, strlen(s)), 2);
}

static void test_query(void **state)
{
	(void)state;
	struct sw__record_field_query q;
	struct sw_err err = { 0 };
	assert_int_equal(sw__record_field_query_parse(&q, "custodian:\"Whitfield, Dana\" late "
						      "\"date:x y\" date:2021-03..2021-06 re:x",
						      &err), 0);
	assert_int_equal(q.nterms, 2);
	assert_string_equal(q.rest.data, " late \"date:x y\"  re:x");
	assert_int_equal(q.nbinds, 4);
	assert_string_equal(q.binds[0], "whitfield");
	assert_string_equal(q.binds[1], "dana");
	assert_string_equal(q.binds[2], "2021-03");
	assert_string_equal(q.binds[3], "2021-06~");
	sw__record_field_query_release(&q);

	assert_int_equal(sw__record_field_query_parse(&q, "sent:03/15/2021.. from:harl*", &err), 0);
	assert_string_equal(q.binds[0], "2021-03-15");
	assert_string_equal(q.binds[1], "9999~");
	assert_string_equal(q.binds[2], "harl*");
	sw__record_field_query_release(&q);

	assert_int_equal(sw__record_field_query_parse(&q, "date:2021-13x", &err), SW_EUSAGE);
	assert_non_null(strstr(err.msg, "bad date '2021-13x'"));
	assert_int_equal(sw__record_field_query_parse(&q, "date:..", &err), SW_EUSAGE);
	assert_int_equal(sw__record_field_query_parse(&q, "custodian:,,", &err), SW_EUSAGE);
}

/* A writable copy of a literal (the rows own char *, as read). */
#define W(lit) ((char[]){ lit })

/* One JSON of the documents for the CLI and the web: every key, absent
 * values null, a parent only when there is one, dates read and as written. */
static void test_rows_json(void **state)
{
	(void)state;
	struct sw_doc_row rows[2] = { 0 };
	rows[0] = (struct sw_doc_row){ .id = 3,
				       .name = W("a.pdf"),
				       .kind = W("pdf"),
				       .origin = W("evidence"),
				       .status = W("active"),
				       .beg_bates = W("X-1"),
				       .end_bates = W("X-2"),
				       .pages = 2,
				       .source = W("in/a.pdf"),
				       .imported_at = W("2026-01-02") };
	rows[0].meta.value[SW_FIELD_CUSTODIAN] = W("Kim");
	rows[0].meta.value[SW_FIELD_SENT] = W("3/4/2021");
	memcpy(rows[0].meta.day[SW_FIELD_SENT], "2021-03-04", sizeof("2021-03-04"));
	rows[1] = (struct sw_doc_row){ .id = 4, .name = W("b.txt"), .kind = W("text"),
		.origin = W("pleading"), .status = W("removed"), .pages = 1, .parent_id = 3 };
	json_t *j = sw_doc_rows_json("acme", rows, 2);
	char *s = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);
	assert_string_equal(s,
		"{\"documents\":[{\"beg_bates\":\"X-1\",\"end_bates\":\"X-2\",\"id\":3,"
		"\"imported_at\":\"2026-01-02\",\"kind\":\"pdf\",\"metadata\":{\"custodian\":"
		"\"Kim\",\"sent\":{\"as_written\":\"3/4/2021\",\"date\":\"2021-03-04\"}},"
		"\"name\":\"a.pdf\",\"origin\":\"evidence\",\"pages\":2,\"parent_id\":null,"
		"\"source\":\"in/a.pdf\",\"status\":\"active\"},{\"beg_bates\":null,"
		"\"end_bates\":null,\"id\":4,\"imported_at\":null,\"kind\":\"text\","
		"\"metadata\":{},\"name\":\"b.txt\",\"origin\":\"pleading\",\"pages\":1,"
		"\"parent_id\":3,\"source\":null,\"status\":\"removed\"}],\"matter\":\"acme\"}");
	free(s);
	json_decref(j);
	j = sw_doc_rows_json("empty", NULL, 0);
	s = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);
	assert_string_equal(s, "{\"documents\":[],\"matter\":\"empty\"}");
	free(s);
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dates),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_query),
		cmocka_unit_test(test_rows_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
