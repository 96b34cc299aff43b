/* corrections.c - the lawyer's corrections as JSON Lines for fine-tuning,
 * in the field names a trainer loads as they are (TRL, Axolotl,
 * LLaMA-Factory): SFT (the window that produced the draft, answered with
 * the human final) or DPO (the same prompt, the final chosen over the
 * draft).
 *
 * Export is a matter's explicit choice (client confidentiality), and a
 * correction leaves only when everything in it is still what it was when
 * it was made: its draft and final not quarantined, and every page of
 * evidence that any step of its run was given still active evidence (a
 * removed memo's words reach the final step through the earlier drafts and
 * the verifier's reasons).  A page later found to be a model's output
 * re-imported, or clawed back with matter rm, takes its corrections out;
 * what already left is logged, for corrections export --audit. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline_int.h"

#define EXPORT_KEY "corrections.export"

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
			json_object_set_new(o, "completion",
					    json_pack("[o]", message("assistant", final)));
		} else {
			json_object_set_new(o, "chosen",
					    json_pack("[o]", message("assistant", final)));
			json_object_set_new(o, "rejected",
					    json_pack("[o]", message("assistant", draft)));
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
static int consent(bool *on, char **set_at, struct sw_matter *m, struct sw_err *err)
{
	char *v = NULL;
	int rc = sw_matter_setting_get_at(&v, set_at, m, EXPORT_KEY, err);
	*on = rc == 0 && v && strcmp(v, "yes") == 0;
	if (!*set_at)
		*set_at = sw_xstrdup("");
	free(v);
	return rc;
}

struct export {
	FILE *f;
	struct sw_matter *m;
	enum sw_export_kind kind;
	enum sw_export_format fmt;
	const char *set_at;
	size_t *written, *skipped;
	int64_t **ids;
	size_t *nids, cap;
	struct sw_err *err;
};

static int export_one(const struct sw__journal_correction *c, void *ctx)
{
	struct export *x = ctx;
	struct window w;
	json_t *msgs = NULL;

	if (!c->clean || !window(&w, &msgs, c->messages)) {
		json_decref(msgs);
		(*x->skipped)++;
		return 0;
	}
	json_t *line = line_of(&w, c->draft, c->final, x->kind, x->fmt);
	json_decref(msgs);
	json_object_set_new(line, "metadata",
		json_pack("{s:I, s:o, s:o, s:o, s:s, s:{s:s, s:s}, s:o}",
			  "run", (json_int_t)c->run_id, "task", sw_json_str(c->task),
			  "step", sw_json_str(c->step_key),
			  "model", c->model ? sw_json_str(c->model) : json_null(),
			  "matter", sw_matter_name(x->m),
			  "export_consent", EXPORT_KEY, "yes", "set_at", x->set_at,
			  "created_at", sw_json_str(c->created_at)));
	/* the decisions behind the final: who approved it, an override's
	 * reason, the waivers that let its claims pass */
	json_t *meta = json_object_get(line, "metadata");
	json_t *wv = c->waivers ? json_loads(c->waivers, 0, NULL) : NULL;
	json_object_set_new(meta, "approved_by", c->by ? sw_json_str(c->by) : json_null());
	json_object_set_new(meta, "override", c->override ? sw_json_str(c->override) : json_null());
	json_object_set_new(meta, "waivers", wv ? wv : json_array());
	char *text = json_dumps(line, JSON_COMPACT);
	json_decref(line);
	bool fail = !text || fputs(text, x->f) == EOF || fputc('\n', x->f) == EOF;
	free(text);
	if (fail)
		return sw_err_set(x->err, SW_EIO, "cannot write the corrections");
	(*x->written)++;
	if (x->ids) {
		*x->ids = sw_xgrow(*x->ids, &x->cap, *x->nids + 1, sizeof(**x->ids));
		(*x->ids)[(*x->nids)++] = c->id;
	}
	return 0;
}

int sw_corrections_export(FILE *f, size_t *written, size_t *skipped, struct sw_matter *m,
			  enum sw_export_kind kind, enum sw_export_format fmt, struct sw_err *err)
{
	return sw_corrections_export_ids(f, written, skipped, NULL, NULL, m, kind, fmt, err);
}

int sw_corrections_export_ids(FILE *f, size_t *written, size_t *skipped, int64_t **ids,
			      size_t *nids, struct sw_matter *m, enum sw_export_kind kind,
			      enum sw_export_format fmt, struct sw_err *err)
{
	char *set_at = NULL;
	bool on;
	int rc;

	*written = *skipped = 0;
	if (ids) {
		*ids = NULL;
		*nids = 0;
	}
	if ((rc = consent(&on, &set_at, m, err)) != 0) {
		free(set_at);
		return rc;
	}
	if (!on) {
		free(set_at);
		return sw_err_set(err, SW_EUSAGE,
				  "corrections export is off for matter %s (client "
				  "confidentiality); turn it on with: sworn matter set -m %s "
				  EXPORT_KEY "=yes",
				  sw_matter_name(m), sw_matter_name(m));
	}
	struct export x = { f, m, kind, fmt, set_at, written, skipped, ids, nids, 0, err };
	rc = sw__journal_corrections_each(m, export_one, &x, err);
	free(set_at);
	return rc;
}

int sw_corrections_log_export(struct sw_matter *m, const int64_t *ids, size_t n,
			      enum sw_export_kind kind, enum sw_export_format fmt, const char *dest,
			      struct sw_err *err)
{
	static const char *const kinds[] = { "sft", "dpo" };
	static const char *const formats[] = { "trl", "axolotl", "llamafactory" };
	return sw__journal_export_log(m, ids, n, kinds[kind == SW_EXPORT_DPO],
				      formats[(unsigned)fmt < 3 ? fmt : 0], dest, err);
}
