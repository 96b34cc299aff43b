/* report_html.c - the gate's HTML page: the draft rendered from its markup
 * view (or as preformatted text) with each claim coloured by its verdict,
 * the evidence or reason of each beside it, and the audit stamp. */
#include <stdlib.h>
#include <string.h>

#include "markup/markup.h"
#include "verify/report_int.h"

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

static const char *const tag_names[] = {
	[SW_MARKUP_P] = "p", [SW_MARKUP_HEADING] = "h", [SW_MARKUP_UL] = "ul",
	[SW_MARKUP_OL] = "ol", [SW_MARKUP_LI] = "li", [SW_MARKUP_QUOTE] = "blockquote",
	[SW_MARKUP_CODEBLOCK] = "pre", [SW_MARKUP_HR] = "hr", [SW_MARKUP_TABLE] = "table",
	[SW_MARKUP_TR] = "tr", [SW_MARKUP_TH] = "th", [SW_MARKUP_TD] = "td",
	[SW_MARKUP_FOOTNOTE] = "div", [SW_MARKUP_EM] = "em", [SW_MARKUP_STRONG] = "strong",
	[SW_MARKUP_DEL] = "del", [SW_MARKUP_CODE] = "code", [SW_MARKUP_LINK] = "span",
	[SW_MARKUP_BR] = "br", [SW_MARKUP_FNREF] = "sup",
};

static void label(FILE *f, const struct sw_markup *v, const struct sw_markup_event *e)
{
	if (e->label <= v->src_len && e->label_len <= v->src_len - e->label)
		html_escape(f, v->src + e->label, e->label_len);
}

static void put_tag(FILE *f, const struct sw_markup *v, const struct sw_markup_event *e)
{
	if (e->tag >= SW_ARRAY_LEN(tag_names))
		return;
	const char *name = tag_names[e->tag];
	if (e->tag == SW_MARKUP_HEADING) {
		unsigned lv = e->level >= 1 && e->level <= 6 ? e->level : 2;
		fprintf(f, e->open ? "<h%u>" : "</h%u>\n", lv);
		return;
	}
	if (!e->open) {
		fprintf(f, "</%s>", name);
		if (e->tag != SW_MARKUP_EM && e->tag != SW_MARKUP_STRONG && e->tag != SW_MARKUP_DEL &&
		    e->tag != SW_MARKUP_CODE && e->tag != SW_MARKUP_LINK)
			fputc('\n', f);
		return;
	}
	switch (e->tag) {
	case SW_MARKUP_FOOTNOTE:
		fputs("<div class=\"fn\"><sup>", f);
		label(f, v, e);
		fputs("</sup> ", f);
		return;
	case SW_MARKUP_FNREF:
		fputs("<sup class=\"fnref\">", f);
		label(f, v, e);
		fputs("</sup>", f);
		return;
	case SW_MARKUP_LINK:
		fputs("<span class=\"link\">", f);
		return;
	case SW_MARKUP_HR:
		fputs("<hr>\n", f);
		return;
	case SW_MARKUP_BR:
		fputs("<br>", f);
		return;
	default:
		fprintf(f, "<%s>", name);
	}
}

/* The claims' marks: the innermost element, closed before any tag and
 * opened again before the text that follows it, so that a claim across
 * an element's boundary stays well nested. */
struct marks {
	FILE *f;
	const struct sw_verify_report *r;
	long active;   /* the claim being marked, or -1 */
	long prop;     /* the proposition (a sentence) the text is in, or -1 */
	bool open;     /* its <a> is open */
	int tables;    /* tables open */
	int cells;     /* th and td open */
};

/* The view's text between the cells of a table (", " that the scanner
 * reads between them, line breaks) is not content: HTML has no place for
 * text in a row outside its cells. */
static void track(struct marks *k, const struct sw_markup_event *e)
{
	int d = e->open ? 1 : -1;
	if (e->tag == SW_MARKUP_TABLE)
		k->tables += d;
	else if (e->tag == SW_MARKUP_TH || e->tag == SW_MARKUP_TD)
		k->cells += d;
}

static void mark_close(struct marks *k)
{
	if (k->open)
		fputs("</a>", k->f);
	k->open = false;
}

static void put_text(struct marks *k, size_t from, size_t to)
{
	if (to <= from || (k->tables > 0 && k->cells <= 0))
		return;
	if (k->active >= 0 && !k->open) {
		size_t i = (size_t)k->active;
		fprintf(k->f, "<a class=\"c %s\" href=\"#c%zu\" title=\"",
			sw_claim_verdict_name(&k->r->verdicts[i]), i + 1);
		html_str(k->f, k->r->verdicts[i].reason);
		fputs("\">", k->f);
		k->open = true;
	}
	if (k->prop < 0) {
		html_escape(k->f, k->r->text + from, to - from);
		return;
	}
	/* a proposition underlines its sentence piece by piece, each piece
	 * inside whatever claim or element holds it */
	size_t i = (size_t)k->prop;
	fprintf(k->f, "<span class=\"p %s\" title=\"", sw_claim_verdict_name(&k->r->verdicts[i]));
	html_str(k->f, k->r->verdicts[i].reason);
	fputs("\">", k->f);
	html_escape(k->f, k->r->text + from, to - from);
	fputs("</span>", k->f);
}

static void render_draft(FILE *f, const struct sw_verify_report *r)
{
	const struct sw_markup *v = r->view;
	const struct sw_markup_event *ev = v ? v->events : NULL;
	size_t nev = v ? v->nevents : 0, ei = 0, ci = 0, pos = 0, active_end = 0;
	struct marks k = { f, r, -1, -1, false, 0, 0 };
	/* the claims in order of start, then the propositions (claims.h), in
	 * sentence order: marked apart, as sentences */
	size_t nc = 0;
	while (nc < r->claims.n && r->claims.v[nc].kind != SW_CLAIM_PROPOSITION)
		nc++;
	size_t pi = nc;
	for (;;) {
		size_t next = r->len;
		if (ei < nev && ev[ei].at < next)
			next = ev[ei].at;
		if (k.active >= 0 && active_end < next)
			next = active_end;
		if (k.prop >= 0 && r->claims.v[k.prop].end < next)
			next = r->claims.v[k.prop].end;
		if (k.prop < 0 && pi < r->claims.n && r->claims.v[pi].start > pos &&
		    r->claims.v[pi].start < next)
			next = r->claims.v[pi].start;
		if (k.active < 0) {
			/* a claim inside one already marked (a quote's cite) is not
			 * marked again */
			while (ci < nc && r->claims.v[ci].start < pos)
				ci++;
			if (ci < nc && r->claims.v[ci].start < next)
				next = r->claims.v[ci].start;
		}
		if (next < pos)
			next = pos;
		put_text(&k, pos, next);
		pos = next;
		if (k.active >= 0 && active_end <= pos) {
			mark_close(&k);
			k.active = -1;
		}
		if (k.prop >= 0 && r->claims.v[k.prop].end <= pos)
			k.prop = -1;
		if (k.prop < 0) {
			while (pi < r->claims.n && r->claims.v[pi].end <= pos)
				pi++;
			if (pi < r->claims.n && r->claims.v[pi].start <= pos)
				k.prop = (long)pi++;
		}
		while (ei < nev && ev[ei].at <= pos) {
			mark_close(&k);
			track(&k, &ev[ei]);
			put_tag(f, v, &ev[ei++]);
		}
		if (k.active < 0) {
			while (ci < nc && r->claims.v[ci].start < pos)
				ci++;
			if (ci < nc && r->claims.v[ci].start == pos) {
				k.active = (long)ci;
				active_end = r->claims.v[ci].end;
				ci++;
			}
		}
		if (pos >= r->len && ei >= nev) {
			mark_close(&k);
			break;
		}
	}
}

static void audit_row(FILE *f, const char *name, const char *value)
{
	if (!value)
		return;
	fprintf(f, "<tr><th>%s</th><td>", name);
	html_str(f, value);
	fputs("</td></tr>\n", f);
}

static void render_audit(FILE *f, const struct sw_verify_audit *a)
{
	char docs[32];
	snprintf(docs, sizeof(docs), "%llu", (unsigned long long)a->record_documents);
	fputs("<table class=\"audit\">\n", f);
	audit_row(f, "matter", a->matter);
	audit_row(f, "checked", a->time);
	audit_row(f, "sworn", a->version);
	audit_row(f, "commit", a->commit);
	audit_row(f, "draft SHA-256", a->draft_sha256);
	audit_row(f, "read as", a->format);
	audit_row(f, "record documents", docs);
	audit_row(f, "last import", a->record_last_import);
	audit_row(f, "authorities updated", a->authorities_updated);
	fputs("</table>\n", f);
}

static const char style[] =
	"body{font-family:Georgia,serif;margin:0;display:flex;gap:2em;padding:1.5em;background:#fafafa}\n"
	"#draft{flex:3;line-height:1.6;background:#fff;padding:1.5em;border:1px solid #ddd}\n"
	"#draft.pre{white-space:pre-wrap}\n"
	"#draft blockquote{margin:0 2em;padding-left:1em;border-left:3px solid #ccc}\n"
	"#draft table{border-collapse:collapse}#draft td,#draft th{border:1px solid #ccc;padding:2px 6px}\n"
	"#draft .fn{font-size:90%;border-top:1px solid #eee;margin-top:.5em}\n"
	"#draft .fn>p:first-of-type{display:inline}\n"
	"#side{flex:2;font-family:sans-serif;font-size:13px}\n"
	".c{border-radius:3px;padding:0 2px;text-decoration:none;color:inherit}\n"
	".supported{background:#d9f2d9}.unsupported{background:#ffd6d6}\n"
	".contradicted{background:#ff9e9e;font-weight:bold}.unverifiable{background:#fff1b8}\n"
	".waived{background:#ead9f7}.item.waived{border-color:#74a}\n"
	".item{border-left:4px solid #ccc;padding:4px 8px;margin:6px 0;background:#fff}\n"
	".item.supported{border-color:#3a3}.item.unsupported{border-color:#d33}\n"
	".item.contradicted{border-color:#900}.item.unverifiable{border-color:#cc0}\n"
	".p.unsupported{text-decoration:underline wavy #d33}\n"
	".p.contradicted{text-decoration:underline wavy #900}\n"
	".p.unverifiable{text-decoration:underline dotted #cc0}\n"
	".ev{color:#555;font-size:12px}.gate{font-size:18px;font-weight:bold}\n"
	".at{color:#777;font-size:11px}\n"
	".audit{font-size:11px;color:#444;border-collapse:collapse;margin-bottom:1em}\n"
	".audit th{text-align:left;padding-right:1em;font-weight:normal;color:#777}\n"
	".audit td{word-break:break-all}\n"
	"@media print{\n"
	"body{display:block;background:#fff;padding:0;font-size:11pt}\n"
	"#draft{border:none;padding:0}\n"
	"#side{font-size:9pt;break-before:page}\n"
	".c,.item{-webkit-print-color-adjust:exact;print-color-adjust:exact}\n"
	".c{border-bottom:1px solid #888}\n"
	".item{break-inside:avoid}\n"
	"}\n";

int sw_verify_html(FILE *f, const struct sw_verify_report *r, const char *draft,
		   struct sw_err *err)
{
	struct sw__verify_report_pos *pos = sw__verify_report_positions(r);
	bool markup = r->view && r->view->kind != SW_MARKUP_TEXT;
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>sworn verify: ", f);
	html_str(f, draft);
	fprintf(f, "</title>\n<style>\n%s</style></head><body>\n<div id=\"draft\"%s>", style,
		markup ? "" : " class=\"pre\"");
	render_draft(f, r);
	fputs("</div>\n<div id=\"side\">\n<p class=\"gate\">gate: ", f);
	fputs(r->pass ? "pass" : "blocked", f);
	fprintf(f,
		"</p><p>%zu claims: %zu supported, %zu unsupported, %zu contradicted, %zu "
		"unverifiable",
		r->claims.n, r->counts[SW_VERDICT_SUPPORTED], r->counts[SW_VERDICT_UNSUPPORTED],
		r->counts[SW_VERDICT_CONTRADICTED], r->counts[SW_VERDICT_UNVERIFIABLE]);
	if (r->nwaived)
		fprintf(f, ", %zu waived", r->nwaived);
	fprintf(f, "%s</p>\n", r->lenient ? " (lenient)" : "");
	if (r->audit)
		render_audit(f, r->audit);
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < r->claims.n; i++) {
			const struct sw_claim *c = &r->claims.v[i];
			const struct sw_claim_verdict *v = &r->verdicts[i];
			if (sw__verify_claim_blocks(r, v) != (pass == 0))
				continue;
			fprintf(f, "<div class=\"item %s\" id=\"c%zu\"><b>%zu %s</b> %s "
				"<span class=\"at\">%zu:%zu</span>: ",
				sw_claim_verdict_name(v), i + 1, i + 1, sw_claim_verdict_name(v),
				sw_claim_kind_name(c->kind), pos[i].line, pos[i].col);
			html_escape(f, r->text + c->start, c->end - c->start);
			fputs("<br>", f);
			if (v->waiver) {
				fputs("<i>waived by ", f);
				html_str(f, v->waiver->by);
				fputs(" on ", f);
				html_str(f, v->waiver->at);
				fputs(": ", f);
				html_str(f, v->waiver->reason);
				fprintf(f, "</i> (was %s) ", sw_verdict_name(v->verdict));
			}
			html_str(f, v->reason);
			for (size_t q = 0; q < v->nfacts; q++) {
				/* a proposition's facts, each with its verdict */
				const struct sw_fact_verdict *fv = &v->facts[q];
				fprintf(f, "%s<span class=\"c %s\">", q ? " " : "<div class=\"ev\">facts: ",
					fv->own_claim ? "" : sw_verdict_name(fv->verdict));
				html_escape(f, r->text + fv->start, fv->end - fv->start);
				fputs("</span>", f);
				if (fv->found_on && !fv->own_claim) {
					fputs(" (", f);
					html_str(f, fv->found_on);
					fputs(")", f);
				}
				if (q + 1 == v->nfacts)
					fputs("</div>", f);
			}
			for (size_t e = 0; e < v->nevidence; e++) {
				const struct sw_evidence *ev = &v->evidence[e];
				fputs("<div class=\"ev\">", f);
				char *where = sw__verify_report_where(ev);
				html_str(f, where);
				free(where);
				if (ev->excerpt) {
					fputs(": \xe2\x80\x9c", f);
					html_str(f, ev->excerpt);
					fputs("\xe2\x80\x9d", f);
				}
				fputs("</div>", f);
			}
			fputs("</div>\n", f);
		}
	}
	fputs("</div>\n</body></html>\n", f);
	free(pos);
	if (ferror(f))
		return sw_err_set(err, SW_EIO, "cannot write the HTML report");
	return 0;
}
