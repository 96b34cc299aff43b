/* corrections.c - the lawyer's corrections as JSON Lines for fine-tuning,
 * in the field names a trainer loads as they are (TRL, Axolotl,
 * LLaMA-Factory): SFT (the window that produced the draft, answered with
 * the human final) or DPO (the same prompt, the final chosen over the
 * draft).
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

/* The window that produced the draft: an optional system message and one
 * user message, borrowed from *in (the stored messages, parsed; the caller
 * json_decref()s it).  False when the messages are not that: every chat
 * template and LLaMA-Factory's sharegpt take one user turn before the
 * answer, and two in a row are refused by the stricter templates. */
struct window {
	const char *system, *user;
};

static bool window(struct window *w, json_t **in, const char *messages)
{
	size_t i;
	json_t *msg;
	*w = (struct window){ 0 };
	*in = json_loads(messages ? messages : "", 0, NULL);
	if (!json_is_array(*in))
		return false;
	json_array_foreach(*in, i, msg) {
		const char *role = json_string_value(json_object_get(msg, "role"));
		const char *content = json_string_value(json_object_get(msg, "content"));
		if (!role || !content)
			return false;
		if (strcmp(role, "system") == 0 && i == 0)
			w->system = content;
		else if (strcmp(role, "user") == 0 && !w->user)
			w->user = content;
		else if (strcmp(role, "system") == 0 || strcmp(role, "user") == 0)
			return false;
		else
			break; /* the answer and whatever follows it */
	}
	return w->user != NULL;
}

static json_t *message(const char *role, const char *content)
{
	return json_pack("{s:s, s:o}", "role", role, "content", sw_json_str(content));
}

/* The window as role/content messages. */
static json_t *prompt(const struct window *w)
{
	json_t *a = json_array();
	if (w->system)
		json_array_append_new(a, message("system", w->system));
	json_array_append_new(a, message("user", w->user));
	return a;
}

static json_t *sharegpt(const char *from, const char *value)
{
	return json_pack("{s:s, s:o}", "from", from, "value", sw_json_str(value));
}

/* One line of the export, without its metadata. */
static json_t *line_of(const struct window *w, const char *draft, const char *final,
		       enum sw_export_kind kind, enum sw_export_format fmt)
{
	bool sft = kind == SW_EXPORT_SFT;
	json_t *o = json_object(), *a;
	switch (fmt) {
	case SW_EXPORT_TRL:
		/* Conversational prompt-completion: TRL computes the loss on the
		 * completion only (completion_only_loss); preference with
		 * explicit prompt. */
		json_object_set_new(o, "prompt", prompt(w));
		if (sft) {
			json_object_set_new(o, "completion", json_pack("[o]", message("assistant", final)));
		} else {
			json_object_set_new(o, "chosen", json_pack("[o]", message("assistant", final)));
			json_object_set_new(o, "rejected", json_pack("[o]", message("assistant", draft)));
		}
		break;
	case SW_EXPORT_AXOLOTL:
		/* type chat_template trains the assistant turns only (its default
		 * roles_to_train); chat_template.default takes one assistant
		 * message each for chosen and rejected. */
		a = prompt(w);
		if (sft)
			json_array_append_new(a, message("assistant", final));
		json_object_set_new(o, "messages", a);
		if (!sft) {
			json_object_set_new(o, "chosen", message("assistant", final));
			json_object_set_new(o, "rejected", message("assistant", draft));
		}
		break;
	case SW_EXPORT_LLAMAFACTORY:
		/* sharegpt: the system prompt in its own column, human and gpt
		 * turns alternating from a human one. */
		a = json_pack("[o]", sharegpt("human", w->user));
		if (sft)
			json_array_append_new(a, sharegpt("gpt", final));
		json_object_set_new(o, "conversations", a);
		if (!sft) {
			json_object_set_new(o, "chosen", sharegpt("gpt", final));
			json_object_set_new(o, "rejected", sharegpt("gpt", draft));
		}
		if (w->system)
			json_object_set_new(o, "system", sw_json_str(w->system));
		break;
	}
	return o;
}

/* Whether export is on, and since when (caller frees *set_at). */
static int consent(bool *on, char **set_at, sqlite3 *db, struct sw_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = 0, s;
	*on = false;
	*set_at = NULL;
	if (sqlite3_prepare_v2(db, "SELECT value, set_at FROM settings WHERE key = '" EXPORT_KEY "'",
			       -1, &st, NULL) != SQLITE_OK)
		return sw_db_error(err, db, "cannot read the matter's settings");
	if ((s = sqlite3_step(st)) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 0);
		const char *at = (const char *)sqlite3_column_text(st, 1);
		*on = v && strcmp(v, "yes") == 0;
		*set_at = sw_xstrdup(at ? at : "");
	} else if (s != SQLITE_DONE) {
		rc = sw_db_error(err, db, "cannot read the matter's settings");
	}
	sqlite3_finalize(st);
	return rc;
}

int sw_corrections_export(FILE *f, size_t *written, size_t *skipped, struct sw_matter *m,
			  enum sw_export_kind kind, enum sw_export_format fmt, struct sw_err *err)
{
	static const char sql[] =
		"SELECT c.run_id, c.step_key, c.messages, c.draft, c.final,"
		"  ifnull(c.draft_doc_id, 0), ifnull(c.final_doc_id, 0), c.created_at, r.task,"
		"  (SELECT s.model FROM run_steps s WHERE s.run_id = c.run_id AND s.key = c.step_key)"
		" FROM corrections c JOIN runs r ON r.id = c.run_id ORDER BY c.id";
	sqlite3 *db = sw_matter_db(m);
	sqlite3_stmt *st = NULL;
	char *set_at = NULL;
	bool on;
	int rc, s;

	*written = *skipped = 0;
	if ((rc = consent(&on, &set_at, db, err)) != 0)
		return rc;
	if (!on) {
		free(set_at);
		return sw_err_set(err, SW_EUSAGE,
				  "corrections export is off for matter %s (client "
				  "confidentiality); turn it on with: sworn matter set -m %s "
				  EXPORT_KEY "=yes",
				  sw_matter_name(m), sw_matter_name(m));
	}
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		rc = sw_db_error(err, db, "cannot read the corrections");
		goto cleanup;
	}
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t run_id = sqlite3_column_int64(st, 0);
		const char *key = (const char *)sqlite3_column_text(st, 1);
		const char *draft = (const char *)sqlite3_column_text(st, 3);
		const char *final = (const char *)sqlite3_column_text(st, 4);
		const char *created = (const char *)sqlite3_column_text(st, 7);
		const char *task = (const char *)sqlite3_column_text(st, 8);
		const char *model = (const char *)sqlite3_column_text(st, 9);
		struct window w;
		json_t *msgs = NULL;
		bool ok = false;
		if ((rc = clean(&ok, db, run_id, key, sqlite3_column_int64(st, 5),
				sqlite3_column_int64(st, 6), err)) != 0)
			goto cleanup;
		if (!ok || !window(&w, &msgs, (const char *)sqlite3_column_text(st, 2))) {
			json_decref(msgs);
			(*skipped)++;
			continue;
		}
		json_t *line = line_of(&w, draft, final, kind, fmt);
		json_decref(msgs);
		json_object_set_new(line, "metadata",
			json_pack("{s:I, s:o, s:o, s:o, s:s, s:{s:s, s:s}, s:o}",
				  "run", (json_int_t)run_id, "task", sw_json_str(task),
				  "step", sw_json_str(key),
				  "model", model ? sw_json_str(model) : json_null(),
				  "matter", sw_matter_name(m),
				  "export_consent", EXPORT_KEY, "yes", "set_at", set_at,
				  "created_at", sw_json_str(created)));
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
	free(set_at);
	return rc;
}
