/* report.c - the gate's reports: the terminal table, DESIGN.md's JSON and
 * a self-contained HTML page. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "verify/verify_int.h"

static bool blocks(const struct sw_verify_report *r, enum sw_verdict v)
{
	return v == SW_VERDICT_UNSUPPORTED || v == SW_VERDICT_CONTRADICTED ||
	       (v == SW_VERDICT_UNVERIFIABLE && !r->lenient);
}

static json_t *evidence_json(const struct sw_evidence *e)
{
	json_t *o = json_object();
	json_object_set_new(o, "source", json_string(e->source));
	if (e->document)
		json_object_set_new(o, "document", sw_json_str(e->document));
	if (e->bates)
		json_object_set_new(o, "bates", sw_json_str(e->bates));
	if (e->page)
		json_object_set_new(o, "page", json_integer(e->page));
	if (e->cite)
		json_object_set_new(o, "cite", sw_json_str(e->cite));
	if (e->name)
		json_object_set_new(o, "name", sw_json_str(e->name));
	if (e->excerpt)
		json_object_set_new(o, "excerpt", sw_json_str(e->excerpt));
	return o;
}

json_t *sw_verify_json(const struct sw_verify_report *r, const char *draft)
{
	json_t *root = sw_claims_json(&r->claims, r->text, draft);
	json_t *claims = json_object_get(root, "claims");
	for (size_t i = 0; i < json_array_size(claims) && i < r->claims.n; i++) {
		json_t *c = json_array_get(claims, i);
		const struct sw_claim_verdict *v = &r->verdicts[i];
		json_object_set_new(c, "verdict", json_string(sw_verdict_name(v->verdict)));
		json_object_set_new(c, "reason", sw_json_str(v->reason));
		json_t *ev = json_array();
		for (size_t k = 0; k < v->nevidence; k++)
			json_array_append_new(ev, evidence_json(&v->evidence[k]));
		json_object_set_new(c, "evidence", ev);
	}
	json_t *sum = json_object();
	json_object_set_new(sum, "claims", json_integer((json_int_t)r->claims.n));
	for (int v = 0; v < SW_VERDICT_COUNT; v++)
		json_object_set_new(sum, sw_verdict_name((enum sw_verdict)v),
				    json_integer((json_int_t)r->counts[v]));
	json_object_set_new(root, "summary", sum);
	json_object_set_new(root, "lenient", json_boolean(r->lenient));
	json_object_set_new(root, "gate", json_string(r->pass ? "pass" : "blocked"));
	return root;
}

/* The claim's text on one line, cut to max bytes on a character boundary. */
static void one_line(char *out, size_t outsz, const char *s, size_t n, size_t max)
{
	size_t o = 0;
	if (n > max) {
		n = max;
		while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
	}
	for (size_t i = 0; i < n && o + 4 < outsz; i++)
		out[o++] = (s[i] == '\n' || s[i] == '\t' || s[i] == '\r') ? ' ' : s[i];
	if (n == max && o + 4 < outsz) {
		memcpy(out + o, "\xe2\x80\xa6", 3);
		o += 3;
	}
	out[o] = '\0';
}

static const char *colour_of(enum sw_verdict v)
{
	switch (v) {
	case SW_VERDICT_SUPPORTED: return "\033[32m";
	case SW_VERDICT_UNSUPPORTED: return "\033[31m";
	case SW_VERDICT_CONTRADICTED: return "\033[1;31m";
	case SW_VERDICT_UNVERIFIABLE: return "\033[33m";
	}
	return "";
}

static void print_row(FILE *f, const struct sw_verify_report *r, size_t i, bool colour)
{
	const struct sw_claim *c = &r->claims.v[i];
	const struct sw_claim_verdict *v = &r->verdicts[i];
	char text[256];
	one_line(text, sizeof(text), r->text + c->start, c->end - c->start, 60);
	fprintf(f, "%4zu  %s%-12s%s  %-7s %s\n", i + 1, colour ? colour_of(v->verdict) : "",
		sw_verdict_name(v->verdict), colour ? "\033[0m" : "", sw_claim_kind_name(c->kind), text);
	fprintf(f, "      %s %s\n", v->verdict == SW_VERDICT_SUPPORTED ? "\xe2\x9c\x93" : "\xe2\x86\x92",
		v->reason);
	for (size_t k = 0; k < v->nevidence && v->verdict == SW_VERDICT_SUPPORTED; k++) {
		const struct sw_evidence *e = &v->evidence[k];
		if (e->excerpt && e->document && e->bates && strcmp(e->bates, e->document) != 0)
			fprintf(f, "        %s (%s p. %u): %s\n", e->bates, e->document, e->page, e->excerpt);
		else if (e->excerpt && e->document)
			fprintf(f, "        %s p. %u: %s\n", e->document, e->page, e->excerpt);
	}
}

void sw_verify_print(FILE *f, const struct sw_verify_report *r, bool colour)
{
	size_t nblocked = 0;
	for (size_t i = 0; i < r->claims.n; i++)
		nblocked += blocks(r, r->verdicts[i].verdict);
	if (nblocked) {
		fprintf(f, "blocked claims (%zu):\n", nblocked);
		for (size_t i = 0; i < r->claims.n; i++)
			if (blocks(r, r->verdicts[i].verdict))
				print_row(f, r, i, colour);
		fputc('\n', f);
	}
	if (r->claims.n > nblocked) {
		fprintf(f, "passing claims (%zu):\n", r->claims.n - nblocked);
		for (size_t i = 0; i < r->claims.n; i++)
			if (!blocks(r, r->verdicts[i].verdict))
				print_row(f, r, i, colour);
		fputc('\n', f);
	}
	fprintf(f, "%zu claims: %zu supported, %zu unsupported, %zu contradicted, %zu unverifiable%s\n",
		r->claims.n, r->counts[SW_VERDICT_SUPPORTED], r->counts[SW_VERDICT_UNSUPPORTED],
		r->counts[SW_VERDICT_CONTRADICTED], r->counts[SW_VERDICT_UNVERIFIABLE],
		r->lenient ? " (lenient: unverifiable claims pass)" : "");
	fprintf(f, "gate: %s%s%s\n", colour ? (r->pass ? "\033[1;32m" : "\033[1;31m") : "",
		r->pass ? "pass" : "blocked", colour ? "\033[0m" : "");
}

static void html_escape(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(s[i], f);
		}
	}
}

static void html_str(FILE *f, const char *s)
{
	if (s)
		html_escape(f, s, strlen(s));
}

int sw_verify_html(FILE *f, const struct sw_verify_report *r, const char *draft,
		   struct sw_err *err)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>sworn verify: ", f);
	html_str(f, draft);
	fputs("</title>\n<style>\n"
	      "body{font-family:Georgia,serif;margin:0;display:flex;gap:2em;padding:1.5em;background:#fafafa}\n"
	      "#draft{flex:3;white-space:pre-wrap;line-height:1.6;background:#fff;padding:1.5em;border:1px solid #ddd}\n"
	      "#side{flex:2;font-family:sans-serif;font-size:13px}\n"
	      ".c{border-radius:3px;padding:0 2px;text-decoration:none;color:inherit}\n"
	      ".supported{background:#d9f2d9}.unsupported{background:#ffd6d6}\n"
	      ".contradicted{background:#ff9e9e;font-weight:bold}.unverifiable{background:#fff1b8}\n"
	      ".item{border-left:4px solid #ccc;padding:4px 8px;margin:6px 0;background:#fff}\n"
	      ".item.supported{border-color:#3a3}.item.unsupported{border-color:#d33}\n"
	      ".item.contradicted{border-color:#900}.item.unverifiable{border-color:#cc0}\n"
	      ".ev{color:#555;font-size:12px}.gate{font-size:18px;font-weight:bold}\n"
	      "</style></head><body>\n<div id=\"draft\">", f);
	size_t pos = 0;
	for (size_t i = 0; i < r->claims.n; i++) {
		const struct sw_claim *c = &r->claims.v[i];
		if (c->start < pos)
			continue; /* inside a claim already marked (a quote's cite) */
		html_escape(f, r->text + pos, c->start - pos);
		/* A quotation that holds later claims is marked up to its end. */
		fprintf(f, "<a class=\"c %s\" href=\"#c%zu\" title=\"",
			sw_verdict_name(r->verdicts[i].verdict), i + 1);
		html_str(f, r->verdicts[i].reason);
		fputs("\">", f);
		html_escape(f, r->text + c->start, c->end - c->start);
		fputs("</a>", f);
		pos = c->end;
	}
	html_escape(f, r->text + pos, r->len - pos);
	fputs("</div>\n<div id=\"side\">\n<p class=\"gate\">gate: ", f);
	fputs(r->pass ? "pass" : "blocked", f);
	fprintf(f, "</p><p>%zu claims: %zu supported, %zu unsupported, %zu contradicted, %zu unverifiable%s</p>\n",
		r->claims.n, r->counts[SW_VERDICT_SUPPORTED], r->counts[SW_VERDICT_UNSUPPORTED],
		r->counts[SW_VERDICT_CONTRADICTED], r->counts[SW_VERDICT_UNVERIFIABLE],
		r->lenient ? " (lenient)" : "");
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < r->claims.n; i++) {
			const struct sw_claim *c = &r->claims.v[i];
			const struct sw_claim_verdict *v = &r->verdicts[i];
			if (blocks(r, v->verdict) != (pass == 0))
				continue;
			fprintf(f, "<div class=\"item %s\" id=\"c%zu\"><b>%zu %s</b> %s: ",
				sw_verdict_name(v->verdict), i + 1, i + 1, sw_verdict_name(v->verdict),
				sw_claim_kind_name(c->kind));
			html_escape(f, r->text + c->start, c->end - c->start);
			fputs("<br>", f);
			html_str(f, v->reason);
			for (size_t k = 0; k < v->nevidence; k++) {
				const struct sw_evidence *e = &v->evidence[k];
				fputs("<div class=\"ev\">", f);
				if (e->document) {
					html_str(f, e->bates);
					fputs(e->bates ? " " : "", f);
					html_str(f, e->document);
					fprintf(f, " p. %u", e->page);
				} else {
					html_str(f, e->name);
					fputs(" ", f);
					html_str(f, e->cite);
				}
				if (e->excerpt) {
					fputs(": \xe2\x80\x9c", f);
					html_str(f, e->excerpt);
					fputs("\xe2\x80\x9d", f);
				}
				fputs("</div>", f);
			}
			fputs("</div>\n", f);
		}
	}
	fputs("</div>\n</body></html>\n", f);
	if (ferror(f))
		return sw_err_set(err, SW_EIO, "cannot write the HTML report");
	return 0;
}
