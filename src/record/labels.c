/* labels.c - record-citation labels: "Ex. 12", "ECF No. 45", "Smith Dep."
 * tied to the documents they name, from a CSV of label,target. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "record/record_int.h"

/* Abbreviations that name the same kind of record, folded to one word so
 * that the verifier can match a cite however the draft spells it. */
static const struct {
	const char *word;
	const char *as;
} aliases[] = {
	{ "exhibit", "ex" }, { "exh", "ex" }, { "ex", "ex" },
	{ "ecf", "ecf" }, { "dkt", "ecf" }, { "docket", "ecf" }, { "doc", "ecf" },
	{ "deposition", "dep" }, { "depo", "dep" }, { "dep", "dep" },
	{ "transcript", "tr" }, { "tr", "tr" },
	{ "declaration", "decl" }, { "decl", "decl" },
	{ "affidavit", "aff" }, { "aff", "aff" },
};

char *sw_label_normalize(const char *label)
{
	struct sw_buf out = SW_BUF_INIT;
	const char *p = label;
	bool after_ecf = false;
	while (*p) {
		while (*p && (isspace((unsigned char)*p) || *p == '.' || *p == ','))
			p++;
		const char *w = p;
		while (*p && !isspace((unsigned char)*p) && *p != '.' && *p != ',')
			p++;
		if (p == w)
			break;
		char word[64];
		size_t n = (size_t)(p - w) < sizeof(word) - 1 ? (size_t)(p - w) : sizeof(word) - 1;
		for (size_t i = 0; i < n; i++)
			word[i] = (char)tolower((unsigned char)w[i]);
		word[n] = '\0';
		/* "ECF No. 45": the "No." says nothing the number does not. */
		if (after_ecf && (strcmp(word, "no") == 0 || strcmp(word, "nos") == 0))
			continue;
		const char *as = word;
		for (size_t i = 0; i < SW_ARRAY_LEN(aliases); i++)
			if (strcmp(word, aliases[i].word) == 0)
				as = aliases[i].as;
		after_ecf = strcmp(as, "ecf") == 0;
		if (out.len)
			sw_buf_addc(&out, ' ');
		sw_buf_adds(&out, as);
	}
	return sw_buf_detach(&out, NULL);
}

/* Split one CSV line (RFC 4180 quotes) into at most two fields. */
static int csv_fields(char *out[2], char *line)
{
	int n = 0;
	char *p = line;
	while (n < 2) {
		char *start = p, *w = p;
		if (*p == '"') {
			p++;
			for (;;) {
				if (*p == '\0')
					return -1;
				if (*p == '"' && p[1] == '"') {
					*w++ = '"';
					p += 2;
				} else if (*p == '"') {
					p++;
					break;
				} else {
					*w++ = *p++;
				}
			}
			while (*p && *p != ',')
				p++;
		} else {
			while (*p && *p != ',')
				p++;
			w = p;
		}
		char sep = *p;
		*w = '\0';
		out[n++] = sw_trim(start);
		if (sep != ',')
			break;
		p++;
	}
	return n;
}

static int find_target(int64_t *out, sqlite3 *db, const char *target, struct sw_err *err)
{
	static const char *const sql[] = {
		"SELECT id FROM documents WHERE beg_bates = ?1 ORDER BY id LIMIT 1",
		"SELECT doc_id FROM pages WHERE bates = ?1 AND page_no = 1 LIMIT 1",
		"SELECT id FROM documents WHERE name = ?1 ORDER BY id LIMIT 1",
	};
	for (size_t i = 0; i < SW_ARRAY_LEN(sql); i++) {
		sqlite3_stmt *st = NULL;
		if (sqlite3_prepare_v2(db, sql[i], -1, &st, NULL) != SQLITE_OK)
			return sw__record_sqlerr(err, db, "cannot look up a label target");
		sqlite3_bind_text(st, 1, target, -1, SQLITE_STATIC);
		int s = sqlite3_step(st);
		if (s == SQLITE_ROW)
			*out = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
		if (s == SQLITE_ROW)
			return 0;
		if (s != SQLITE_DONE)
			return sw__record_sqlerr(err, db, "cannot look up a label target");
	}
	return SW_ENOTFOUND;
}

int sw__ingest_labels(struct sw__ingest *in, const char *path)
{
	struct sw_buf raw = SW_BUF_INIT;
	struct sw_err err = { 0 };
	sqlite3_stmt *ins = NULL;
	sqlite3 *db = in->m->db;
	char now[21];
	int rc = 0, lineno = 0;

	sw_utc_now(now);
	if (sw_file_read(&raw, path, SW_RECORD_MAX_LABEL_BYTES, &err) != 0) {
		sw__ingest_event(in, SW_INGEST_FAILED, path, "%s", err.msg);
		goto cleanup;
	}
	if (!sw_utf8_valid(raw.data, raw.len) || memchr(raw.data, '\0', raw.len)) {
		sw__ingest_event(in, SW_INGEST_FAILED, path, "labels file is not UTF-8 text");
		goto cleanup;
	}
	if (sqlite3_prepare_v2(db,
			       "INSERT INTO labels (norm, label, target, doc_id, created_at)"
			       " VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (norm) DO UPDATE SET"
			       " label = excluded.label, target = excluded.target,"
			       " doc_id = excluded.doc_id, created_at = excluded.created_at",
			       -1, &ins, NULL) != SQLITE_OK) {
		rc = sw__record_sqlerr(&in->fatal, db, "cannot store labels");
		goto cleanup;
	}
	for (char *line = raw.data; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		lineno++;
		char *f[2] = { NULL, NULL };
		char where[64];
		snprintf(where, sizeof(where), "%s:%d", sw_path_base(path), lineno);
		char *cur = line;
		line = nl ? nl + 1 : NULL;
		if (cur[0] == '\0' || (cur[0] == '\r' && cur[1] == '\0') || cur[0] == '#')
			continue;
		int n = csv_fields(f, cur);
		if (n != 2 || !f[0][0] || !f[1][0]) {
			sw__ingest_event(in, SW_INGEST_FAILED, where,
					 "expected 'label,target' (e.g. 'Ex. 12,ACME0000123')");
			continue;
		}
		if (lineno == 1 && sw_streq_ci(f[0], "label") && sw_streq_ci(f[1], "target"))
			continue;
		int64_t doc = 0;
		int frc = find_target(&doc, db, f[1], &in->fatal);
		if (frc == SW_ENOTFOUND) {
			sw__ingest_event(in, SW_INGEST_FAILED, where,
					 "label '%s': no imported document starts at Bates '%s' or is named '%s'",
					 f[0], f[1], f[1]);
			continue;
		}
		if (frc) {
			rc = frc;
			goto cleanup;
		}
		char *norm = sw_label_normalize(f[0]);
		sqlite3_bind_text(ins, 1, norm, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(ins, 2, f[0], -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 3, f[1], -1, SQLITE_STATIC);
		sqlite3_bind_int64(ins, 4, doc);
		sqlite3_bind_text(ins, 5, now, -1, SQLITE_STATIC);
		free(norm);
		int s = sqlite3_step(ins);
		sqlite3_reset(ins);
		if (s != SQLITE_DONE) {
			rc = sw__record_sqlerr(&in->fatal, db, "cannot store a label");
			goto cleanup;
		}
		in->sum->labels++;
	}
cleanup:
	sqlite3_finalize(ins);
	sw_buf_release(&raw);
	return rc;
}
