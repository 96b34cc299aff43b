/* corrections.c - the lawyer's corrections as JSON Lines for fine-tuning:
 * SFT (the window that produced the draft, answered with the human
 * final) or DPO (the same prompt, the final chosen over the draft).
 *
 * Export is a matter's explicit choice (client confidentiality), and a
 * correction leaves only when everything in it is still what it was when
 * it was made: its draft and final not quarantined, and every page of
 * evidence its window held still active evidence.  A page later found to
 * be a model's output re-imported, for one, takes its corrections out. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline_int.h"

#define EXPORT_KEY "corrections.export"

/* Whether the correction's documents and window are all still clean. */
static int clean(bool *ok, sqlite3 *db, int64_t run_id, const char *key, int64_t draft_doc,
		 int64_t final_doc, struct sw_err *err)
{
	static const char sql[] =
		"SELECT (SELECT count(*) FROM documents WHERE id IN (?3, ?4)"
		"        AND status = 'active') = (CASE WHEN ?3 = ?4 THEN 1 ELSE 2 END)"
		"   AND NOT EXISTS (SELECT 1 FROM run_sections s"
		"        JOIN run_steps st ON st.id = s.step_id"
		"        WHERE st.run_id = ?1 AND st.key = ?2 AND s.kind = 'evidence'"
		"          AND (s.doc_id IS NULL OR NOT EXISTS (SELECT 1 FROM documents d"
		"               WHERE d.id = s.doc_id AND d.origin = 'evidence'"
		"                 AND d.status = 'active')))";
	sqlite3_stmt *st = NULL;
	int rc = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return sw_db_error(err, db, "cannot check a correction");
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, draft_doc);
	sqlite3_bind_int64(st, 4, final_doc);
	if (sqlite3_step(st) == SQLITE_ROW)
		*ok = sqlite3_column_int(st, 0) != 0;
	else
		rc = sw_db_error(err, db, "cannot check a correction");
	sqlite3_finalize(st);
	return rc;
}

static json_t *message(const char *role, const char *content)
{
	return json_pack("{s:s, s:o}", "role", role, "content", sw_json_str(content));
}

/* The window's messages (system and user, in order); NULL when the stored
 * messages are not that. */
static json_t *window(const char *messages)
{
	json_t *in = json_loads(messages, 0, NULL), *out = json_array();
	size_t i;
	json_t *msg;
	if (!json_is_array(in) || json_array_size(in) == 0)
		goto bad;
	json_array_foreach(in, i, msg) {
		const char *role = json_string_value(json_object_get(msg, "role"));
		const char *content = json_string_value(json_object_get(msg, "content"));
		if (!role || !content)
			goto bad;
		if (strcmp(role, "system") != 0 && strcmp(role, "user") != 0)
			break; /* the answer and whatever follows it */
		json_array_append_new(out, message(role, content));
	}
	if (json_array_size(out) == 0)
		goto bad;
	json_decref(in);
	return out;
bad:
	json_decref(in);
	json_decref(out);
	return NULL;
}

int sw_corrections_export(FILE *f, size_t *written, size_t *skipped, struct sw_matter *m,
			  enum sw_export_format fmt, struct sw_err *err)
{
	static const char sql[] =
		"SELECT c.run_id, c.step_key, c.messages, c.draft, c.final,"
		"  ifnull(c.draft_doc_id, 0), ifnull(c.final_doc_id, 0), c.created_at, r.task"
		" FROM corrections c JOIN runs r ON r.id = c.run_id ORDER BY c.id";
	sqlite3 *db = sw_matter_db(m);
	sqlite3_stmt *st = NULL;
	char *setting = NULL;
	int rc, s;

	*written = *skipped = 0;
	if ((rc = sw_matter_setting_get(&setting, m, EXPORT_KEY, err)) != 0)
		return rc;
	bool on = setting && strcmp(setting, "yes") == 0;
	free(setting);
	if (!on)
		return sw_err_set(err, SW_EUSAGE,
				  "corrections export is off for matter %s (client "
				  "confidentiality); turn it on with: sworn matter set -m %s "
				  EXPORT_KEY "=yes",
				  sw_matter_name(m), sw_matter_name(m));
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return sw_db_error(err, db, "cannot read the corrections");
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t run_id = sqlite3_column_int64(st, 0);
		const char *key = (const char *)sqlite3_column_text(st, 1);
		const char *messages = (const char *)sqlite3_column_text(st, 2);
		const char *draft = (const char *)sqlite3_column_text(st, 3);
		const char *final = (const char *)sqlite3_column_text(st, 4);
		const char *created = (const char *)sqlite3_column_text(st, 7);
		const char *task = (const char *)sqlite3_column_text(st, 8);
		bool ok = false;
		if ((rc = clean(&ok, db, run_id, key, sqlite3_column_int64(st, 5),
				sqlite3_column_int64(st, 6), err)) != 0)
			goto cleanup;
		json_t *win = ok ? window(messages) : NULL;
		if (!win) {
			(*skipped)++;
			continue;
		}
		json_t *meta = json_pack("{s:I, s:o, s:s, s:o}", "run", (json_int_t)run_id, "task",
					 sw_json_str(task), "matter", sw_matter_name(m),
					 "created_at", sw_json_str(created));
		json_t *line;
		if (fmt == SW_EXPORT_SFT) {
			json_array_append_new(win, message("assistant", final));
			line = json_pack("{s:o, s:o}", "messages", win, "metadata", meta);
		} else {
			line = json_pack("{s:o, s:o, s:o, s:o}", "prompt", win, "chosen",
					 sw_json_str(final), "rejected", sw_json_str(draft),
					 "metadata", meta);
		}
		char *text = json_dumps(line, JSON_COMPACT);
		json_decref(line);
		bool fail = fputs(text, f) == EOF || fputc('\n', f) == EOF;
		free(text);
		if (fail) {
			rc = sw_err_set(err, SW_EIO, "cannot write the corrections");
			goto cleanup;
		}
		(*written)++;
	}
	if (s != SQLITE_DONE)
		rc = sw_db_error(err, db, "cannot read the corrections");
cleanup:
	sqlite3_finalize(st);
	return rc;
}
