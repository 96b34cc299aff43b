/* prompt.c - a step instance's user message from its template, and the
 * window's sections for the context audit: which stretch of the prompt is
 * the system's own text, the lawyer's brief, a page of evidence or an
 * earlier output of a model. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pipeline/pipeline_int.h"

struct lookup_ctx {
	const struct sw__pipeline_fill *fill;
	char **fields;    /* item.KEY values looked up (owned) */
	size_t nfields, capfields;
	char namebuf[80];
};

static bool name_is(const char *name, size_t len, const char *what)
{
	return strlen(what) == len && !memcmp(name, what, len);
}

static const char *lookup(void *ud, const char *name, size_t len, const char **key_out)
{
	struct lookup_ctx *c = ud;
	const struct sw__pipeline_fill *f = c->fill;
	static const struct {
		const char *name;
		size_t off;
	} plain[] = {
		{ "brief", offsetof(struct sw__pipeline_fill, brief) },
		{ "matter", offsetof(struct sw__pipeline_fill, matter) },
		{ "task", offsetof(struct sw__pipeline_fill, task) },
		{ "date", offsetof(struct sw__pipeline_fill, date) },
		{ "item", offsetof(struct sw__pipeline_fill, item) },
		{ "evidence", offsetof(struct sw__pipeline_fill, evidence) },
		{ "draft", offsetof(struct sw__pipeline_fill, draft) },
		{ "findings", offsetof(struct sw__pipeline_fill, findings) },
		{ "verifier", offsetof(struct sw__pipeline_fill, verifier) },
		{ "round", offsetof(struct sw__pipeline_fill, round) },
	};

	for (size_t i = 0; i < SW_ARRAY_LEN(plain); i++)
		if (name_is(name, len, plain[i].name)) {
			*key_out = plain[i].name;
			const char *v = *(const char *const *)((const char *)f + plain[i].off);
			/* evidence with no bundle is an empty bundle, not an
			 * unfillable placeholder */
			if (!v && !strcmp(plain[i].name, "evidence"))
				v = "(no record pages matched this step's queries)";
			return v;
		}
	if (len > 5 && !memcmp(name, "step.", 5)) {
		for (size_t i = 0; i < f->n_steps; i++)
			if (strlen(f->step_names[i]) == len - 5 &&
			    !memcmp(f->step_names[i], name + 5, len - 5)) {
				*key_out = "step";
				return f->step_outputs[i];
			}
		return NULL;
	}
	if (len > 5 && !memcmp(name, "item.", 5) && f->item) {
		json_t *item = json_loads(f->item, JSON_DECODE_ANY, NULL);
		char *v;
		snprintf(c->namebuf, sizeof(c->namebuf), "%.*s", (int)(len - 5), name + 5);
		json_t *field = json_is_object(item) ? json_object_get(item, c->namebuf) : NULL;
		if (json_is_string(field))
			v = sw_xstrdup(json_string_value(field));
		else if (field)
			v = json_dumps(field, JSON_ENCODE_ANY | JSON_COMPACT);
		else
			v = sw_xstrdup("");
		json_decref(item);
		c->fields = sw_xgrow(c->fields, &c->capfields, c->nfields + 1, sizeof(*c->fields));
		c->fields[c->nfields++] = v;
		*key_out = "item";
		return v;
	}
	return NULL;
}

/* The section kind and origin of a placeholder's value. */
static void span_kind(const char *key, const char **kind, const char **origin)
{
	if (!strcmp(key, "brief")) {
		*kind = "brief";
		*origin = "human";
	} else if (!strcmp(key, "evidence")) {
		*kind = "evidence";
		*origin = "evidence";
	} else if (!strcmp(key, "step") || !strcmp(key, "draft")) {
		*kind = "prior_draft";
		*origin = "model";
	} else if (!strcmp(key, "item")) {
		*kind = "item";
		*origin = "model";
	} else if (!strcmp(key, "findings")) {
		*kind = "findings";
		*origin = "model";
	} else if (!strcmp(key, "verifier")) {
		*kind = "verifier";
		*origin = "template";
	} else {
		*kind = "instructions";
		*origin = "template";
	}
}

static size_t count_tokens(const char *text, size_t len, bool *estimated,
			   sw_token_count_fn count, void *ud)
{
	size_t n = 0;
	bool est = false;
	if (!count || count(&n, &est, text, len, ud) != 0) {
		n = sw_tokens_estimate(text, len);
		est = true;
	}
	if (est)
		*estimated = true;
	return n;
}

static void add_section(struct sw__pipeline_section **secs, size_t *n, size_t *cap,
			const struct sw__pipeline_section *s)
{
	/* consecutive stretches of the system's own text are one section */
	if (*n > 0 && !strcmp(s->kind, "instructions") &&
	    !strcmp((*secs)[*n - 1].kind, "instructions")) {
		(*secs)[*n - 1].tokens += s->tokens;
		(*secs)[*n - 1].estimated |= s->estimated;
		return;
	}
	*secs = sw_xgrow(*secs, cap, *n + 1, sizeof(**secs));
	(*secs)[(*n)++] = *s;
}

static void text_section(struct sw__pipeline_section **secs, size_t *n, size_t *cap,
			 const char *kind, const char *origin, const char *text, size_t len,
			 sw_token_count_fn count, void *ud)
{
	struct sw__pipeline_section s = { .kind = kind, .origin = origin };
	if (len == 0)
		return;
	s.tokens = count_tokens(text, len, &s.estimated, count, ud);
	add_section(secs, n, cap, &s);
}

int sw__pipeline_prompt(struct sw_buf *out, struct sw__pipeline_section **secs, size_t *nsecs,
		    const char *tmpl, const char *tmpl_name, const struct sw__pipeline_fill *fill,
		    const struct sw_bundle *bundle, sw_token_count_fn count, void *count_ud,
		    struct sw_err *err)
{
	struct lookup_ctx c = { .fill = fill };
	struct sw_tmpl_span *spans = NULL;
	size_t nspans = 0, cap = *nsecs, pos = 0;
	int rc;

	rc = sw_tmpl_render(out, &spans, &nspans, tmpl, tmpl_name, lookup, &c, err);
	for (size_t i = 0; i < c.nfields; i++)
		free(c.fields[i]);
	free(c.fields);
	if (rc != 0) {
		free(spans);
		return rc;
	}
	for (size_t i = 0; i <= nspans; i++) {
		size_t start = i < nspans ? spans[i].start : out->len;
		if (start > pos)
			text_section(secs, nsecs, &cap, "instructions", "template", out->data + pos,
				     start - pos, count, count_ud);
		if (i == nspans)
			break;
		const char *kind, *origin;
		span_kind(spans[i].name, &kind, &origin);
		if (!strcmp(kind, "evidence") && bundle && bundle->n_pages > 0) {
			/* one section per page; what is around them (the
			 * frames' gaps) is the system's */
			for (size_t p = 0; p < bundle->n_pages; p++) {
				const struct sw_bundle_page *bp = &bundle->pages[p];
				struct sw__pipeline_section s = {
					.kind = "evidence",
					.origin = "evidence",
					.doc_id = bp->doc_id,
					.document = bp->document,
					.bates = bp->bates,
					.page_no = bp->page_no,
					.tokens = bp->tokens,
					.estimated = bp->estimated,
				};
				add_section(secs, nsecs, &cap, &s);
			}
		} else if (!strcmp(kind, "evidence")) {
			text_section(secs, nsecs, &cap, "instructions", "template",
				     out->data + spans[i].start, spans[i].len, count, count_ud);
		} else {
			text_section(secs, nsecs, &cap, kind, origin, out->data + spans[i].start,
				     spans[i].len, count, count_ud);
		}
		pos = spans[i].start + spans[i].len;
	}
	free(spans);
	return 0;
}

char *sw__pipeline_findings_text(const char *review_json, size_t *count)
{
	json_t *root = review_json ? json_loads(review_json, 0, NULL) : NULL;
	json_t *list = json_is_array(root) ? root : json_object_get(root, "findings");
	struct sw_buf b;
	size_t i, k = 0;
	json_t *f;

	sw_buf_init(&b);
	json_array_foreach(list, i, f) {
		const char *kind = json_string_value(json_object_get(f, "kind"));
		const char *passage = json_string_value(json_object_get(f, "passage"));
		const char *why = json_string_value(json_object_get(f, "why"));
		if (!passage && !why)
			continue;
		k++;
		sw_buf_addf(&b, "%zu. [%s] \"%s\": %s\n", k, kind ? kind : "finding",
			    passage ? passage : "", why ? why : "");
	}
	json_decref(root);
	*count = k;
	if (k == 0)
		sw_buf_adds(&b, "(the reviewer raised no findings)\n");
	return sw_buf_detach(&b, NULL);
}
