/* fields.c - a document's metadata as fields: which load-file columns hold
 * the custodian, type, title, from, to, cc, dates and confidentiality,
 * and their rows in doc_fields and doc_terms.
 *
 * The columns are found by name in documents.meta (a load file's columns
 * as written, or an e-mail's headers): names are compared with case,
 * blanks, '_', '-' and '.' ignored, so "Email From", "EMAIL_FROM" and
 * "EmailFrom" are one name; each field takes the first of its names, in
 * the order below, whose value is not empty.
 *
 * The mapping is C, but the rows are written by SQL (sw__record_fields_sql
 * with the functions sw_meta_fields and sw_field_terms registered on every
 * matter connection), so that the migration that adds the tables fills
 * them from an older matter's meta with the same code an import runs. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "record/record_int.h"

struct field_def {
	const char *name, *label;
	bool date;
	const char *const *aliases; /* canonical: upper case, no blanks or _-. */
};

static const char *const custodian_names[] = { "CUSTODIAN", "CUSTODIANNAME", "CUSTODIANS",
	"ALLCUSTODIANS", "ALLCUSTODIAN", "DUPLICATECUSTODIANS", NULL };
static const char *const doctype_names[] = { "DOCTYPE", "DOCUMENTTYPE", "RECORDTYPE",
	"FILETYPE", "DOCKIND", "DOCCATEGORY", NULL };
static const char *const title_names[] = { "TITLE", "DOCTITLE", "DOCUMENTTITLE", "SUBJECT",
	"EMAILSUBJECT", "SUBJECTLINE", NULL };
static const char *const from_names[] = { "FROM", "EMAILFROM", "SENDER", "EMAILSENDER",
	"AUTHOR", NULL };
static const char *const to_names[] = { "TO", "EMAILTO", "RECIPIENTS", "RECIPIENT", NULL };
static const char *const cc_names[] = { "CC", "EMAILCC", NULL };
static const char *const sent_names[] = { "DATESENT", "SENTDATE", "EMAILSENTDATE",
	"EMAILDATESENT", "DATETIMESENT", "SENTON", "SENT", NULL };
static const char *const received_names[] = { "DATERECEIVED", "RECEIVEDDATE", "DATERCVD",
	"DATERECVD", "RCVDDATE", "EMAILRECEIVEDDATE", "DATETIMERECEIVED", "RECEIVED", NULL };
static const char *const docdate_names[] = { "DOCDATE", "DOCUMENTDATE", "DATECREATED",
	"CREATEDATE", "CREATEDDATE", "DATE", NULL };
static const char *const conf_names[] = { "CONFIDENTIALITY", "CONFIDENTIALITYDESIGNATION",
	"CONFIDENTIALITYLEVEL", "DESIGNATION", "PRODUCTIONDESIGNATION", "CONFIDENTIAL", NULL };

static const struct field_def fields[SW_DOC_FIELDS] = {
	[SW_FIELD_CUSTODIAN] = { "custodian", "Custodian", false, custodian_names },
	[SW_FIELD_DOCTYPE] = { "doctype", "Type", false, doctype_names },
	[SW_FIELD_TITLE] = { "title", "Title", false, title_names },
	[SW_FIELD_FROM] = { "from", "From", false, from_names },
	[SW_FIELD_TO] = { "to", "To", false, to_names },
	[SW_FIELD_CC] = { "cc", "Cc", false, cc_names },
	[SW_FIELD_SENT] = { "sent", "Sent", true, sent_names },
	[SW_FIELD_RECEIVED] = { "received", "Received", true, received_names },
	[SW_FIELD_DOCDATE] = { "docdate", "Date", true, docdate_names },
	[SW_FIELD_CONFIDENTIALITY] = { "confidentiality", "Confidentiality", false, conf_names },
};

#define TERMS_MAX 64  /* words of one field indexed */
#define TERM_MAX SW__RECORD_TERM_MAX

const char *sw_doc_field_name(enum sw_doc_field f)
{
	return (unsigned)f < SW_DOC_FIELDS ? fields[f].name : "";
}

const char *sw_doc_field_label(enum sw_doc_field f)
{
	return (unsigned)f < SW_DOC_FIELDS ? fields[f].label : "";
}

bool sw_doc_field_is_date(enum sw_doc_field f)
{
	return (unsigned)f < SW_DOC_FIELDS && fields[f].date;
}

int sw_doc_field_find(const char *name, size_t len)
{
	for (int i = 0; i < SW_DOC_FIELDS; i++)
		if (strlen(fields[i].name) == len && strncasecmp(fields[i].name, name, len) == 0)
			return i;
	return -1;
}

/* A column name made canonical: upper case, blanks, '_', '-', '.' dropped. */
static void canon_name(char *out, size_t cap, const char *s)
{
	size_t n = 0;
	for (; *s && n + 1 < cap; s++)
		if (*s != ' ' && *s != '_' && *s != '-' && *s != '.' && *s != '\t')
			out[n++] = (char)toupper((unsigned char)*s);
	out[n] = '\0';
}

int sw_doc_field_of_column(const char *column)
{
	char c[64];
	canon_name(c, sizeof(c), column);
	for (int f = 0; f < SW_DOC_FIELDS; f++)
		for (size_t a = 0; fields[f].aliases[a]; a++)
			if (strcmp(c, fields[f].aliases[a]) == 0)
				return f;
	return -1;
}

/* The value of field f in the meta object o, or NULL. */
static const char *pick(json_t *o, const char *const *aliases)
{
	for (size_t a = 0; aliases[a]; a++) {
		const char *key;
		json_t *v;
		json_object_foreach(o, key, v) {
			char c[64];
			canon_name(c, sizeof(c), key);
			if (strcmp(c, aliases[a]) != 0 || !json_is_string(v))
				continue;
			const char *s = json_string_value(v);
			while (*s == ' ' || *s == '\t')
				s++;
			if (*s)
				return s;
		}
	}
	return NULL;
}

/* sw_meta_fields(META): a JSON array of [field, value, day or null] for
 * each field the metadata names; NULL for metadata that is not an object. */
static void meta_fields_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	const unsigned char *meta = sqlite3_value_text(argv[0]);
	json_t *o = meta ? json_loads((const char *)meta, 0, NULL) : NULL;
	if (!json_is_object(o)) {
		json_decref(o);
		sqlite3_result_null(ctx);
		return;
	}
	json_t *rows = json_array();
	for (int f = 0; f < SW_DOC_FIELDS; f++) {
		const char *v = pick(o, fields[f].aliases);
		if (!v)
			continue;
		size_t n = strlen(v);
		while (n && (v[n - 1] == ' ' || v[n - 1] == '\t' || v[n - 1] == '\r'))
			n--;
		n = sw_utf8_cut(v, n, SW_FIELD_MAX_BYTES);
		char day[SW_DATE_LEN + 1];
		json_t *d = fields[f].date && sw_date_normalize(day, v, n) ? json_string(day)
									 : json_null();
		json_array_append_new(rows, json_pack("[s, o, o]", fields[f].name,
						      sw_json_strn(v, n), d));
	}
	char *s = json_dumps(rows, JSON_COMPACT);
	json_decref(rows);
	json_decref(o);
	if (s)
		sqlite3_result_text(ctx, s, -1, free);
	else
		sqlite3_result_error_nomem(ctx);
}

size_t sw__record_field_words(char (*out)[TERM_MAX + 1], size_t max, const char *s, size_t len)
{
	struct sw_fold f;
	size_t n = 0;
	sw_fold(&f, s, len, SW_FOLD_CASE | SW_FOLD_MARKS);
	for (size_t i = 0; i < f.len && n < max;) {
		unsigned char c = (unsigned char)f.text[i];
		if (!(isalnum(c) || c >= 0x80)) {
			i++;
			continue;
		}
		size_t j = i;
		while (j < f.len &&
		       (isalnum((unsigned char)f.text[j]) || (unsigned char)f.text[j] >= 0x80))
			j++;
		size_t w = sw_utf8_cut(f.text + i, j - i, TERM_MAX);
		memcpy(out[n], f.text + i, w);
		out[n++][w] = '\0';
		i = j;
	}
	sw_fold_release(&f);
	return n;
}

/* sw_field_terms(FIELD, VALUE): a JSON array of the value's folded words
 * ("Whitfield, Dana <DWhitfield@acme.com>": whitfield, dana, dwhitfield,
 * acme, com); a document type that names e-mail in any spelling ("E-Mail",
 * "Outlook Message", "MSG") also "email".  Dates have none. */
static void field_terms_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	const unsigned char *field = sqlite3_value_text(argv[0]);
	const unsigned char *v = sqlite3_value_text(argv[1]);
	int f = field ? sw_doc_field_find((const char *)field, strlen((const char *)field)) : -1;
	if (f < 0 || fields[f].date || !v) {
		sqlite3_result_text(ctx, "[]", -1, SQLITE_STATIC);
		return;
	}
	char (*w)[TERM_MAX + 1] = sw_xmalloc(TERMS_MAX * sizeof(*w));
	size_t n = sw__record_field_words(w, TERMS_MAX, (const char *)v,
					  (size_t)sqlite3_value_bytes(argv[1]));
	json_t *a = json_array();
	bool mail = false;
	for (size_t i = 0; i < n; i++) {
		json_array_append_new(a, sw_json_str(w[i]));
		if (f == SW_FIELD_DOCTYPE &&
		    (!strcmp(w[i], "email") || !strcmp(w[i], "mail") || !strcmp(w[i], "msg") ||
		     !strcmp(w[i], "eml") || !strcmp(w[i], "message")))
			mail = true;
	}
	if (mail)
		json_array_append_new(a, json_string("email"));
	free(w);
	char *s = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	if (s)
		sqlite3_result_text(ctx, s, -1, free);
	else
		sqlite3_result_error_nomem(ctx);
}

int sw__record_fields_register(sqlite3 *db, struct sw_err *err)
{
	if (sqlite3_create_function_v2(db, "sw_meta_fields", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
				       NULL, meta_fields_fn, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_create_function_v2(db, "sw_field_terms", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
				       NULL, field_terms_fn, NULL, NULL, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, db, "cannot register the metadata functions");
	return 0;
}

/* The rows of one document (?1) again from its meta; the migration runs
 * the same statements without the document's condition. */
static const char *const refresh[] = {
	"DELETE FROM doc_terms WHERE doc_id = ?1",
	"DELETE FROM doc_fields WHERE doc_id = ?1",
	SW__RECORD_FIELDS_INSERT " AND d.id = ?1",
	SW__RECORD_TERMS_INSERT " WHERE x.doc_id = ?1",
};

int sw__record_fields_refresh(struct sw_matter *m, int64_t doc_id, struct sw_err *err)
{
	int rc = 0;
	for (size_t i = 0; i < SW_ARRAY_LEN(refresh) && rc == 0; i++) {
		sqlite3_stmt *st = NULL;
		if (sqlite3_prepare_v2(m->db, refresh[i], -1, &st, NULL) != SQLITE_OK)
			return sw__record_sqlerr(err, m->db,
						 "cannot store the document's metadata");
		sqlite3_bind_int64(st, 1, doc_id);
		rc = sw__record_step_done(st, m->db, "cannot store the document's metadata", err);
		sqlite3_finalize(st);
	}
	return rc;
}

/* ------------------------------------------------------------------ reading */

void sw_doc_meta_release(struct sw_doc_meta *meta)
{
	if (!meta)
		return;
	for (int f = 0; f < SW_DOC_FIELDS; f++)
		free(meta->value[f]);
	memset(meta, 0, sizeof(*meta));
}

bool sw_doc_meta_any(const struct sw_doc_meta *meta)
{
	for (int f = 0; f < SW_DOC_FIELDS; f++)
		if (meta->value[f])
			return true;
	return false;
}

const char *sw_doc_meta_date(const struct sw_doc_meta *meta)
{
	static const enum sw_doc_field order[] = { SW_FIELD_SENT, SW_FIELD_RECEIVED,
		SW_FIELD_DOCDATE };
	for (size_t i = 0; i < SW_ARRAY_LEN(order); i++)
		if (meta->day[order[i]][0])
			return meta->day[order[i]];
	return "";
}

void sw__record_meta_put(struct sw_doc_meta *meta, const char *field, const char *value,
			 const char *day)
{
	int f = field ? sw_doc_field_find(field, strlen(field)) : -1;
	if (f < 0 || !value || meta->value[f])
		return;
	meta->value[f] = sw_xstrdup(value);
	if (day && strlen(day) == SW_DATE_LEN)
		memcpy(meta->day[f], day, SW_DATE_LEN + 1);
}

int sw_record_doc_meta(struct sw_doc_meta *out, struct sw_matter *m, int64_t doc_id,
		       struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int step;
	memset(out, 0, sizeof(*out));
	if (sqlite3_prepare_v2(m->db, "SELECT field, value, day FROM doc_fields WHERE doc_id = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return sw__record_sqlerr(err, m->db, "cannot read the document's metadata");
	sqlite3_bind_int64(st, 1, doc_id);
	while ((step = sqlite3_step(st)) == SQLITE_ROW)
		sw__record_meta_put(out, (const char *)sqlite3_column_text(st, 0),
				    (const char *)sqlite3_column_text(st, 1),
				    (const char *)sqlite3_column_text(st, 2));
	sqlite3_finalize(st);
	if (step != SQLITE_DONE) {
		sw_doc_meta_release(out);
		return sw__record_sqlerr(err, m->db, "cannot read the document's metadata");
	}
	return 0;
}

struct json_t *sw_doc_meta_json(const struct sw_doc_meta *meta)
{
	json_t *o = json_object();
	for (int f = 0; f < SW_DOC_FIELDS; f++) {
		if (!meta->value[f])
			continue;
		if (fields[f].date)
			json_object_set_new(o, fields[f].name,
					    json_pack("{s:o, s:o}", "date",
						      meta->day[f][0] ? json_string(meta->day[f])
								      : json_null(),
						      "as_written", sw_json_str(meta->value[f])));
		else
			json_object_set_new(o, fields[f].name, sw_json_str(meta->value[f]));
	}
	return o;
}
