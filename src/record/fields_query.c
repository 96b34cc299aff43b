/* fields_query.c - the field terms of a search: "custodian:whitfield",
 * "from:harlow", "doctype:email", "title:\"board minutes\"",
 * "date:2021-03..2021-06", "sent:2021-03-15".
 *
 * A term is NAME:VALUE where NAME is a field (sw_doc_field_find) or
 * "date" (any of sent, received and the document's date); VALUE is a run
 * of non-blanks or a "quoted" run.  A text field matches a document whose
 * field holds every word of VALUE (folded as doc_terms keeps them; a
 * final '*' makes the last word a prefix); a date field, a day in the
 * range: A, A..B, A.. or ..B, each bound YYYY, YYYY-MM or YYYY-MM-DD (or a
 * whole date as a load file writes it), B included to its end.  Words that
 * look so but name no field ("re:", "http://...") stay words.  Every term
 * becomes an IN over doc_terms' or doc_fields' index; the terms are ANDed. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "record/record_int.h"

#define FIELD_TERMS_MAX 16 /* field terms in one query */
#define WORDS_MAX 16       /* words of one field term's value */

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static void bind_add(struct sw__record_field_query *q, const char *s, size_t n)
{
	q->binds = sw_xrealloc(q->binds, (q->nbinds + 1) * sizeof(*q->binds));
	q->binds[q->nbinds++] = sw_xstrndup(s, n);
}

/* One bound of a date range into out: YYYY, YYYY-MM, YYYY-MM-DD as they
 * are, else a whole date in any spelling sw_date_normalize reads. */
static bool date_bound(char out[SW_DATE_LEN + 1], const char *s, size_t n)
{
	static const char *const shapes[] = { "dddd", "dddd-dd", "dddd-dd-dd" };
	for (size_t i = 0; i < SW_ARRAY_LEN(shapes); i++) {
		const char *p = shapes[i];
		if (strlen(p) != n)
			continue;
		bool ok = true;
		for (size_t k = 0; k < n && ok; k++)
			ok = p[k] == 'd' ? isdigit((unsigned char)s[k]) != 0 : s[k] == p[k];
		if (ok) {
			memcpy(out, s, n);
			out[n] = '\0';
			return true;
		}
	}
	return sw_date_normalize(out, s, n);
}

static int date_term(struct sw__record_field_query *q, int field, const char *v, size_t n,
		     struct sw_err *err)
{
	char lo[SW_DATE_LEN + 1] = "0000", hi[SW_DATE_LEN + 2] = "9999";
	const char *dots = NULL;
	for (size_t i = 0; i + 1 < n; i++)
		if (v[i] == '.' && v[i + 1] == '.') {
			dots = v + i;
			break;
		}
	size_t nlo = dots ? (size_t)(dots - v) : n;
	const char *b = dots ? dots + 2 : v;
	size_t nhi = dots ? n - nlo - 2 : n;
	if ((!dots && n == 0) || (dots && nlo == 0 && nhi == 0) ||
	    (nlo && !date_bound(lo, v, nlo)) || (nhi && !date_bound(hi, b, nhi)))
		return sw_err_set(err, SW_EUSAGE,
				  "bad date '%.*s': give YYYY, YYYY-MM or YYYY-MM-DD, or a range"
				  " FROM..TO (date:2021-03..2021-06)", (int)n, v);
	/* "2021-06" ends after every day of June: '~' sorts after digits. */
	size_t h = strlen(hi);
	hi[h] = '~';
	hi[h + 1] = '\0';
	sw_buf_addf(&q->sql, " AND d.id IN (SELECT doc_id FROM doc_fields WHERE day >= ?%zu"
		    " AND day <= ?%zu AND field ", q->nbinds + 1, q->nbinds + 2);
	bind_add(q, lo, strlen(lo));
	bind_add(q, hi, strlen(hi));
	if (field < 0)
		sw_buf_addf(&q->sql, "IN ('%s', '%s', '%s'))", sw_doc_field_name(SW_FIELD_SENT),
			    sw_doc_field_name(SW_FIELD_RECEIVED),
			    sw_doc_field_name(SW_FIELD_DOCDATE));
	else
		sw_buf_addf(&q->sql, "= '%s')", sw_doc_field_name((enum sw_doc_field)field));
	return 0;
}

static int text_term(struct sw__record_field_query *q, int field, const char *v, size_t n,
		     struct sw_err *err)
{
	char words[WORDS_MAX][SW__RECORD_TERM_MAX + 1];
	bool prefix = n && v[n - 1] == '*';
	size_t nw = sw__record_field_words(words, WORDS_MAX, v, n);
	if (nw == 0)
		return sw_err_set(err, SW_EUSAGE, "%s: has no words to look for: give one"
				  " (%s:whitfield)", sw_doc_field_name((enum sw_doc_field)field),
				  sw_doc_field_name((enum sw_doc_field)field));
	for (size_t i = 0; i < nw; i++) {
		bool pre = prefix && i + 1 == nw;
		sw_buf_addf(&q->sql, " AND d.id IN (SELECT doc_id FROM doc_terms WHERE field = '%s'"
			    " AND term %s ?%zu)", sw_doc_field_name((enum sw_doc_field)field),
			    pre ? "GLOB" : "=", q->nbinds + 1);
		if (pre) {
			char g[SW__RECORD_TERM_MAX + 2];
			size_t w = strlen(words[i]);
			memcpy(g, words[i], w);
			g[w] = '*';
			bind_add(q, g, w + 1);
		} else {
			bind_add(q, words[i], strlen(words[i]));
		}
	}
	return 0;
}

int sw__record_field_query_parse(struct sw__record_field_query *out, const char *query,
				 struct sw_err *err)
{
	memset(out, 0, sizeof(*out));
	out->sql = (struct sw_buf)SW_BUF_INIT;
	out->rest = (struct sw_buf)SW_BUF_INIT;
	sw_buf_adds(&out->sql, "SELECT d.id FROM documents AS d WHERE 1");
	const char *p = query;
	int rc = 0;
	while (*p && rc == 0) {
		if (blank(*p)) {
			sw_buf_addc(&out->rest, *p++);
			continue;
		}
		/* A quoted phrase is words, whatever it holds. */
		const char *start = p;
		if (*p == '"') {
			for (p++; *p && *p != '"'; p++)
				;
			if (*p)
				p++;
			sw_buf_add(&out->rest, start, (size_t)(p - start));
			continue;
		}
		const char *colon = start;
		while (*colon && !blank(*colon) && *colon != ':' && *colon != '"')
			colon++;
		size_t nname = (size_t)(colon - start);
		int field = *colon == ':' ? sw_doc_field_find(start, nname) : -1;
		bool any_date = *colon == ':' && nname == 4 && strncasecmp(start, "date", 4) == 0;
		if (field < 0 && !any_date) {
			while (*p && !blank(*p))
				p++;
			sw_buf_add(&out->rest, start, (size_t)(p - start));
			continue;
		}
		const char *v = colon + 1, *end;
		if (*v == '"') {
			v++;
			for (end = v; *end && *end != '"'; end++)
				;
			p = *end ? end + 1 : end;
		} else {
			for (end = v; *end && !blank(*end); end++)
				;
			p = end;
		}
		if (++out->nterms > FIELD_TERMS_MAX) {
			rc = sw_err_set(err, SW_ELIMIT, "more than %d field terms in one search",
					FIELD_TERMS_MAX);
			break;
		}
		if (any_date || sw_doc_field_is_date((enum sw_doc_field)field))
			rc = date_term(out, field, v, (size_t)(end - v), err);
		else
			rc = text_term(out, field, v, (size_t)(end - v), err);
	}
	if (rc != 0)
		sw__record_field_query_release(out);
	return rc;
}

void sw__record_field_query_bind(const struct sw__record_field_query *q, sqlite3_stmt *st,
				 int first)
{
	for (size_t i = 0; i < q->nbinds; i++)
		sqlite3_bind_text(st, first + (int)i, q->binds[i], -1, SQLITE_STATIC);
}

void sw__record_field_query_release(struct sw__record_field_query *q)
{
	if (!q)
		return;
	for (size_t i = 0; i < q->nbinds; i++)
		free(q->binds[i]);
	free(q->binds);
	sw_buf_release(&q->sql);
	sw_buf_release(&q->rest);
	memset(q, 0, sizeof(*q));
}
