/* certify_render.c - the certificate (certify.c's JSON) written for a
 * reader: Markdown, and a self-contained HTML page that prints on one or
 * two pages.  Both are built from one list of blocks, so the two say the
 * same; the PDF (sworn-pipeline.so) lays out the Markdown's text. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pipeline/pipeline_int.h"

enum block_kind { B_TITLE, B_HEAD, B_PARA, B_ITEM, B_EDIT, B_STAMP };

struct out {
	struct sw_buf *b;
	bool html;
	bool in_list; /* the last block was an item */
};

static const char *s_of(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "-";
}

static void esc(struct sw_buf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': sw_buf_adds(b, "&lt;"); break;
		case '>': sw_buf_adds(b, "&gt;"); break;
		case '&': sw_buf_adds(b, "&amp;"); break;
		case '"': sw_buf_adds(b, "&quot;"); break;
		default: sw_buf_addc(b, *s);
		}
	}
}

/* Markdown: text whose characters Markdown would read as markup are
 * escaped; one line (a claim's text may hold newlines). */
static void md_text(struct sw_buf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '\n' || *s == '\r' || *s == '\t')
			sw_buf_addc(b, ' ');
		else {
			if (strchr("\\`*_[]<>#|", *s))
				sw_buf_addc(b, '\\');
			sw_buf_addc(b, *s);
		}
	}
}

static void block(struct out *o, enum block_kind k, const char *text)
{
	static const char *const tags[] = { "h1", "h2", "p", "li", "p", "p" };
	if (o->html) {
		if (k == B_EDIT)
			sw_buf_adds(o->b, "<p class=\"edit\" contenteditable=\"true\">");
		else if (k == B_STAMP)
			sw_buf_adds(o->b, "<p class=\"stamp\">");
		else
			sw_buf_addf(o->b, "<%s>", tags[k]);
		esc(o->b, text);
		sw_buf_addf(o->b, "</%s>\n", k == B_EDIT || k == B_STAMP ? "p" : tags[k]);
		return;
	}
	/* a list ends with a blank line, or the next paragraph continues it */
	if (o->in_list && k != B_ITEM)
		sw_buf_addc(o->b, '\n');
	o->in_list = k == B_ITEM;
	switch (k) {
	case B_TITLE: sw_buf_adds(o->b, "# "); break;
	case B_HEAD: sw_buf_adds(o->b, "## "); break;
	case B_ITEM: sw_buf_adds(o->b, "- "); break;
	case B_EDIT: sw_buf_adds(o->b, "> "); break;
	default: break;
	}
	if (k == B_STAMP)
		sw_buf_addf(o->b, "`%s`", text);
	else
		md_text(o->b, text);
	sw_buf_adds(o->b, k == B_ITEM ? "\n" : "\n\n");
}

SW_PRINTF(3, 4)
static void blockf(struct out *o, enum block_kind k, const char *fmt, ...)
{
	struct sw_buf t = SW_BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sw_buf_vaddf(&t, fmt, ap);
	va_end(ap);
	block(o, k, t.data ? t.data : "");
	sw_buf_release(&t);
}

static void claims_part(struct out *o, const json_t *v)
{
	blockf(o, B_HEAD, "Verification of the final");
	blockf(o, B_PARA,
	       "Verified again at %s by sworn %s (commit %s) against the record (%lld "
	       "documents, last import %s) and %s%s: %lld claims, %lld waived; the gate %s.",
	       s_of(v, "at"), s_of(v, "version"), s_of(v, "commit"),
	       (long long)json_integer_value(json_object_get(v, "record_documents")),
	       s_of(v, "record_last_import"),
	       json_is_string(json_object_get(v, "authorities_updated"))
		       ? "the authority table updated "
	       : json_is_true(json_object_get(v, "authorities"))
		       ? "the authority table"
		       : "no authority table (case, statute and rule claims unverifiable)",
	       json_is_string(json_object_get(v, "authorities_updated"))
		       ? s_of(v, "authorities_updated")
		       : "",
	       (long long)json_integer_value(json_object_get(v, "claims")),
	       (long long)json_integer_value(json_object_get(v, "waived")),
	       strcmp(s_of(v, "gate"), "pass") == 0 ? "passes" : "blocks");
	const char *kind;
	json_t *row;
	json_object_foreach((json_t *)json_object_get(v, "by_kind"), kind, row)
	{
		struct sw_buf t = SW_BUF_INIT;
		const char *verdict;
		json_t *n;
		sw_buf_addf(&t, "%s:", kind);
		json_object_foreach(row, verdict, n)
			sw_buf_addf(&t, " %lld %s", (long long)json_integer_value(n), verdict);
		block(o, B_ITEM, t.data);
		sw_buf_release(&t);
	}
}

static void decisions_part(struct out *o, const json_t *c)
{
	const json_t *a = json_object_get(c, "approval");
	blockf(o, B_HEAD, "Decisions");
	bool mail = json_is_string(json_object_get(a, "email"));
	blockf(o, B_PARA, "Approved at %s by %s%s%s%s.", s_of(a, "at"),
	       json_is_string(json_object_get(a, "by")) ? s_of(a, "by") : "(nobody recorded)",
	       mail ? " <" : "", mail ? s_of(a, "email") : "", mail ? ">" : "");
	if (json_is_string(json_object_get(a, "bar_number")))
		blockf(o, B_PARA, "Bar number: %s.", s_of(a, "bar_number"));
	if (json_is_string(json_object_get(a, "override"))) {
		const json_t *ov = json_object_get(a, "overridden");
		blockf(o, B_PARA,
		       "Override: approved despite %zu blocked claims, for this reason: %s",
		       json_array_size(ov), s_of(a, "override"));
		size_t i;
		json_t *x;
		json_array_foreach(ov, i, x)
			blockf(o, B_ITEM, "overridden: %s (%s: %s)", s_of(x, "claim"),
			       s_of(x, "verdict"), s_of(x, "reason"));
	} else {
		blockf(o, B_PARA, "No override: the gate passed on approval.");
	}
	const json_t *w = json_object_get(c, "waivers");
	if (json_array_size(w) == 0)
		blockf(o, B_PARA, "No claim of the final is waived.");
	size_t i;
	json_t *x;
	json_array_foreach(w, i, x)
		blockf(o, B_ITEM, "waived %s %s (was %s) by %s at %s: %s", s_of(x, "kind"),
		       s_of(x, "claim"), s_of(x, "verdict"), s_of(x, "by"), s_of(x, "at"),
		       s_of(x, "reason"));
}

static void models_part(struct out *o, const json_t *c)
{
	blockf(o, B_HEAD, "Models and endpoints");
	size_t i, nlocal = 0, n = json_array_size(json_object_get(c, "steps"));
	json_t *x;
	json_array_foreach(json_object_get(c, "steps"), i, x)
		nlocal += strcmp(s_of(x, "verdict"), "local") == 0;
	blockf(o, B_PARA, "%s (the local-only policy as sworn.conf says now).",
	       nlocal == n ? "Every step ran on this office's own machines"
			   : "Not every step's endpoint is local: see below");
	json_array_foreach(json_object_get(c, "steps"), i, x)
	{
		if (!json_is_string(json_object_get(x, "endpoint"))) {
			blockf(o, B_ITEM, "%s: sworn's own check, no model", s_of(x, "key"));
			continue;
		}
		blockf(o, B_ITEM, "%s: role %s, model %s, endpoint %s (%s)%s%s: %s, %s",
		       s_of(x, "key"), s_of(x, "role"), s_of(x, "model"), s_of(x, "endpoint"),
		       s_of(x, "url"), json_is_string(json_object_get(x, "host")) ? " on " : "",
		       json_is_string(json_object_get(x, "host")) ? s_of(x, "host") : "",
		       s_of(x, "verdict"), s_of(x, "why"));
	}
	const json_t *ca = json_object_get(c, "context_audit");
	json_int_t v = json_integer_value(json_object_get(ca, "violations"));
	blockf(o, B_HEAD, "Context audit");
	if (v == 0)
		blockf(o, B_PARA, "No text that is not evidence was presented to a model as "
				  "evidence (%lld sections of the windows of %lld steps checked).",
		       (long long)json_integer_value(json_object_get(ca, "sections")),
		       (long long)json_integer_value(json_object_get(ca, "steps")));
	else
		blockf(o, B_PARA, "%lld sections presented text that is not evidence as evidence: "
				  "see sworn run context %lld.",
		       (long long)v, (long long)json_integer_value(json_object_get(c, "run")));
}

static void disclosure_part(struct out *o, const json_t *c)
{
	const json_t *a = json_object_get(c, "approval");
	const json_t *v = json_object_get(c, "verification");
	blockf(o, B_HEAD, "Disclosure (a template: edit it to the court's order)");
	blockf(o, B_EDIT,
	       "[Name of counsel], counsel for [party], certifies that language models run on "
	       "[firm]'s own computers assisted in drafting this [filing]; no part of the record "
	       "or of the filing was sent to an outside service. Every citation of authority and "
	       "of the record in it, and every quotation, was checked by sworn %s against the "
	       "record produced in this action and a table of published authorities on %s; "
	       "%lld were checked, %lld were waived after counsel checked them by hand%s. "
	       "Counsel has read the filing and the authorities it cites, and takes "
	       "responsibility for its contents.",
	       s_of(v, "version"), s_of(v, "at"),
	       (long long)json_integer_value(json_object_get(v, "claims")),
	       (long long)json_integer_value(json_object_get(v, "waived")),
	       json_is_string(json_object_get(a, "override"))
		       ? ", and counsel approved it over the remaining objections, for the reason "
			 "recorded"
		       : "");
}

static void stamp_part(struct out *o, const json_t *c)
{
	const json_t *st = json_object_get(c, "stamp");
	struct sw_buf ids = SW_BUF_INIT;
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(c, "waivers"), i, x)
		sw_buf_addf(&ids, "%s%lld", i ? "," : "",
			    (long long)json_integer_value(json_object_get(x, "id")));
	blockf(o, B_HEAD, "Stamp");
	blockf(o, B_PARA, "sworn certify --check CERTIFICATE FINAL confirms the final and the "
			  "journal still say what this certificate says.");
	blockf(o, B_STAMP, "%s v1 matter=%s run=%lld waivers=%s", SW_CERTIFY_STAMP,
	       s_of(c, "matter"), (long long)json_integer_value(json_object_get(c, "run")),
	       ids.len ? ids.data : "");
	blockf(o, B_STAMP, "final-sha256=%s", s_of(st, "final_sha256"));
	blockf(o, B_STAMP, "journal-sha256=%s", s_of(st, "journal_sha256"));
	sw_buf_release(&ids);
}

static void render(struct out *o, const json_t *c)
{
	const json_t *f = json_object_get(c, "final");
	blockf(o, B_TITLE, "Verification certificate");
	blockf(o, B_PARA, "Matter %s, run %lld (task %s).", s_of(c, "matter"),
	       (long long)json_integer_value(json_object_get(c, "run")), s_of(c, "task"));
	blockf(o, B_PARA, "The final: %s, %lld bytes, SHA-256 %s.", s_of(c, "final_path"),
	       (long long)json_integer_value(json_object_get(f, "size")), s_of(f, "sha256"));
	claims_part(o, json_object_get(c, "verification"));
	decisions_part(o, c);
	models_part(o, c);
	disclosure_part(o, c);
	stamp_part(o, c);
}

void sw_certify_markdown(struct sw_buf *out, const struct json_t *cert)
{
	struct out o = { out, false, false };
	render(&o, cert);
}

void sw_certify_html(struct sw_buf *out, const struct json_t *cert)
{
	struct out o = { out, true, false };
	sw_buf_adds(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
			 "<title>Verification certificate</title>\n<style>\n"
			 "body{font-family:Georgia,serif;max-width:48em;margin:2em auto;"
			 "line-height:1.45;font-size:11pt}\n"
			 "h1{font-size:18pt}h2{font-size:13pt;margin:1.2em 0 .3em}\n"
			 "li{margin:.15em 0}.edit{border:1px dashed #999;padding:.5em}\n"
			 ".stamp{font-family:monospace;font-size:8pt;margin:.1em 0;"
			 "word-break:break-all}\n"
			 "@media print{body{margin:0;font-size:9.5pt}.edit{border:none}}\n"
			 "</style></head><body>\n");
	render(&o, cert);
	sw_buf_adds(out, "</body></html>\n");
}
