/* code_texts.c - the texts of code sections and rules: imported from a
 * cite,text CSV or JSON Lines, looked up by code, title and section, so
 * that a quotation of a statute or rule can be checked against its words.
 * A section is keyed as the code table keys it (the code compared without
 * spaces or case). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "authority/authority_int.h"

/* A JSON Lines line longer than this (a text and its escapes) is skipped. */
#define MAX_LINE (SW_AUTHORITY_MAX_FIELD * 2 + 4096)

struct texts {
	struct sw_authority *a;
	struct sw_authority_import_summary *sum;
	bool (*parse)(void *ud, const char *cite, struct sw_authority_section *out);
	void *ud;
	sqlite3_stmt *text, *code;
};

static int prepare(struct texts *t, struct sw_err *err)
{
	if (sqlite3_prepare_v2(t->a->db,
			       "INSERT INTO code_texts (code_key, title, section, text)"
			       " VALUES (?1, ?2, ?3, ?4) ON CONFLICT (code_key, title, section)"
			       " DO UPDATE SET text = excluded.text",
			       -1, &t->text, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(t->a->db,
			       "INSERT OR IGNORE INTO codes (code_key, title, section)"
			       " VALUES (?1, ?2, ?3)", -1, &t->code, NULL) != SQLITE_OK)
		return sw__authority_sqlerr(err, t->a->db, "cannot store a section's text");
	return 0;
}

/* One row: stored, or skipped (a cite not read, no text, too long). */
static int store(struct texts *t, const char *cite, const char *text, size_t len,
		 struct sw_err *err)
{
	struct sw_authority_section sec;
	char key[128];
	t->sum->rows++;
	memset(&sec, 0, sizeof(sec));
	size_t n = len;
	while (n && (text[n - 1] == ' ' || text[n - 1] == '\n' || text[n - 1] == '\r'))
		n--;
	if (n == 0 || len > SW_AUTHORITY_MAX_FIELD || !sw_utf8_valid(text, len) ||
	    !t->parse(t->ud, cite, &sec) || !sec.code[0] || !sec.section[0]) {
		t->sum->skipped++;
		return 0;
	}
	sw__authority_reporter_key(key, sizeof(key), sec.code);
	sqlite3_stmt *sts[2] = { t->text, t->code };
	for (size_t i = 0; i < 2; i++) {
		sqlite3_reset(sts[i]);
		sqlite3_bind_text(sts[i], 1, key, -1, SQLITE_STATIC);
		sqlite3_bind_text(sts[i], 2, sec.title, -1, SQLITE_STATIC);
		sqlite3_bind_text(sts[i], 3, sec.section, -1, SQLITE_STATIC);
		if (i == 0)
			sqlite3_bind_text(sts[i], 4, text, (int)n, SQLITE_STATIC);
		if (sqlite3_step(sts[i]) != SQLITE_DONE)
			return sw__authority_sqlerr(err, t->a->db, "cannot store a section's text");
	}
	t->sum->stored++;
	return 0;
}

static int from_csv(struct texts *t, const char *path, struct sw_err *err)
{
	struct sw__authority_csv c;
	int rc = sw__authority_csv_open(&c, path, err);
	if (rc != 0)
		return rc;
	long cite = -1, text = -1;
	if ((rc = sw__authority_csv_next(&c, err)) == 1) {
		for (size_t i = 0; i < c.nfields; i++) {
			const char *f = sw__authority_csv_field(&c, i);
			if (!strcmp(f, "cite") || !strcmp(f, "\xef\xbb\xbf" "cite"))
				cite = (long)i;
			else if (!strcmp(f, "text"))
				text = (long)i;
		}
	}
	if (rc >= 0 && (cite < 0 || text < 0)) {
		rc = sw_err_set(err, SW_EINPUT, "'%s': a texts file is a CSV with the columns cite "
				"and text, or JSON Lines of {\"cite\": ..., \"text\": ...}", path);
		goto cleanup;
	}
	while (rc >= 0 && (rc = sw__authority_csv_next(&c, err)) == 1) {
		if (c.over) {
			t->sum->rows++;
			t->sum->skipped++;
			continue;
		}
		const char *tx = sw__authority_csv_field(&c, (size_t)text);
		if ((rc = store(t, sw__authority_csv_field(&c, (size_t)cite), tx, strlen(tx),
				err)) != 0)
			break;
		rc = 1;
	}
cleanup:;
	int crc = sw__authority_csv_close(&c, rc < 0 ? NULL : err);
	return rc < 0 ? rc : crc;
}

/* One JSON Lines line (without its newline). */
static int json_line(struct texts *t, const char *line, size_t len, struct sw_err *err)
{
	size_t k = 0;
	while (k < len && (line[k] == ' ' || line[k] == '\t' || line[k] == '\r'))
		k++;
	if (k == len)
		return 0;
	json_t *o = json_loadb(line, len, 0, NULL);
	const char *cite = json_string_value(json_object_get(o, "cite"));
	json_t *tv = json_object_get(o, "text");
	int rc = 0;
	if (!cite || !json_is_string(tv)) {
		t->sum->rows++;
		t->sum->skipped++;
	} else {
		rc = store(t, cite, json_string_value(tv), json_string_length(tv), err);
	}
	json_decref(o);
	return rc;
}

static int from_jsonl(struct texts *t, const char *path, struct sw_err *err)
{
	FILE *f = fopen(path, "re");
	struct sw_buf line = SW_BUF_INIT;
	bool over = false;
	int rc = 0, ch;
	if (!f)
		return sw_err_set(err, SW_EIO, "cannot open '%s': %s", path, strerror(errno));
	while ((ch = getc(f)) != EOF) {
		if (ch != '\n') {
			if (line.len < MAX_LINE)
				sw_buf_addc(&line, (char)ch);
			else
				over = true;
			continue;
		}
		if (over) {
			t->sum->rows++;
			t->sum->skipped++;
		} else if ((rc = json_line(t, line.data, line.len, err)) != 0) {
			break;
		}
		sw_buf_reset(&line);
		over = false;
	}
	if (rc == 0 && ferror(f))
		rc = sw_err_set(err, SW_EIO, "cannot read '%s': %s", path, strerror(errno));
	if (rc == 0 && line.len && !over)
		rc = json_line(t, line.data, line.len, err);
	sw_buf_release(&line);
	fclose(f);
	return rc;
}

/* JSON Lines when the first byte that is not blank is '{'. */
static bool is_jsonl(const char *path)
{
	FILE *f = fopen(path, "re");
	int ch = EOF;
	if (!f)
		return false;
	while ((ch = getc(f)) != EOF && (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t'))
		;
	fclose(f);
	return ch == '{';
}

int sw_authority_import_code_texts(struct sw_authority_import_summary *out,
				   struct sw_authority *a, const char *path,
				   bool (*parse)(void *ud, const char *cite,
						 struct sw_authority_section *out),
				   void *ud, struct sw_err *err)
{
	struct texts t = { .a = a, .sum = out, .parse = parse, .ud = ud };
	int rc;
	memset(out, 0, sizeof(*out));
	out->format = SW_AUTHORITY_CODE_TEXTS;
	double t0 = sw_now();
	if (!sw_path_is_file(path))
		return sw_err_set(err, SW_ENOTFOUND, "cannot open '%s': no such file", path);
	if ((rc = prepare(&t, err)) != 0)
		goto cleanup;
	if (sqlite3_exec(a->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
		rc = sw__authority_sqlerr(err, a->db, "cannot import texts");
		goto cleanup;
	}
	rc = is_jsonl(path) ? from_jsonl(&t, path, err) : from_csv(&t, path, err);
	if (rc == 0 && sqlite3_exec(a->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		rc = sw__authority_sqlerr(err, a->db, "cannot import texts");
	if (rc != 0)
		sqlite3_exec(a->db, "ROLLBACK", NULL, NULL, NULL);
cleanup:
	sqlite3_finalize(t.text);
	sqlite3_finalize(t.code);
	out->seconds = sw_now() - t0;
	return rc;
}

int sw_authority_code_text(struct sw_buf *out, struct sw_authority *a, const char *code,
			   const char *title, const char *section, struct sw_err *err)
{
	char key[128];
	sqlite3_stmt *st = NULL;
	int rc;
	sw__authority_reporter_key(key, sizeof(key), code);
	if (sqlite3_prepare_v2(a->db, "SELECT text FROM code_texts"
			       " WHERE code_key = ?1 AND title = ?2 AND section = ?3",
			       -1, &st, NULL) != SQLITE_OK) {
		rc = sw__authority_sqlerr(err, a->db, "cannot read a section's text");
		goto cleanup;
	}
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, title ? title : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, section, -1, SQLITE_STATIC);
	int s = sqlite3_step(st);
	if (s == SQLITE_ROW) {
		sw_buf_reset(out);
		sw_buf_add(out, sqlite3_column_text(st, 0), (size_t)sqlite3_column_bytes(st, 0));
		rc = 0;
	} else if (s == SQLITE_DONE) {
		rc = sw_err_set(err, SW_ENOTFOUND, "no text of that section is stored");
	} else {
		rc = sw__authority_sqlerr(err, a->db, "cannot read a section's text");
	}
cleanup:
	sqlite3_finalize(st);
	return rc;
}
