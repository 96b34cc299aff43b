/* report.c - the gate's reports: the terminal table, DESIGN.md's JSON and
 * a self-contained HTML page (the draft rendered in report_html.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "markup/markup.h"
#include "verify/verify_int.h"
#include "verify/report_int.h"

/* A waived claim's waiver, with the verdict it set aside. */
static json_t *waiver_json(const struct sw_claim_verdict *v)
{
	json_t *o = json_object();
	json_object_set_new(o, "verdict", json_string(sw_verdict_name(v->verdict)));
	json_object_set_new(o, "reason", sw_json_str(v->waiver->reason));
	json_object_set_new(o, "by", sw_json_str(v->waiver->by));
	json_object_set_new(o, "at", sw_json_str(v->waiver->at));
	if (v->waiver->id)
		json_object_set_new(o, "id", json_integer((json_int_t)v->waiver->id));
	return o;
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

struct sw__verify_report_pos *sw__verify_report_positions(const struct sw_verify_report *r)
{
	struct sw__verify_report_pos *p = sw_xcalloc(r->claims.n ? r->claims.n : 1, sizeof(*p));
	struct sw_markup_cursor cur = { 0 };
	size_t line = 1, col = 1, at = 0;
	/* the claims in order of start, then the propositions, which come
	 * after them (claims.h) and are in order of start among themselves */
	for (size_t i = 0, pass = 0; pass < 2; i++) {
		if (i == r->claims.n) {
			pass++;
			i = (size_t)-1;
			line = col = 1;
			at = 0;
			memset(&cur, 0, sizeof(cur));
			continue;
		}
		const struct sw_claim *c = &r->claims.v[i];
		if ((c->kind == SW_CLAIM_PROPOSITION) != (pass == 1))
			continue;
		if (r->view) {
			const struct sw_markup *v = r->view;
			p[i].start = sw_markup_src(v, c->start);
			p[i].end = sw_markup_src_end(v, c->end);
			p[i].cite_start = sw_markup_src(v, c->cite_start);
			p[i].cite_end = sw_markup_src_end(v, c->cite_end);
			sw_markup_line_col(v, &cur, p[i].start, &p[i].line, &p[i].col);
			continue;
		}
		/* claims are in order of start: one pass over the text */
		for (; at < c->start && at < r->len; at++) {
			if (r->text[at] == '\n') {
				line++;
				col = 1;
			} else if (((unsigned char)r->text[at] & 0xC0) != 0x80) {
				col++;
			}
		}
		p[i] = (struct sw__verify_report_pos){ c->start, c->end, c->cite_start, c->cite_end, line, col };
	}
	return p;
}

static json_t *audit_json(const struct sw_verify_audit *a)
{
	json_t *o = json_object();
	const char *keys[] = { "matter", "time", "sworn_version", "commit", "draft_sha256",
			       "format", "record_last_import", "authorities_updated" };
	const char *vals[] = { a->matter, a->time, a->version, a->commit, a->draft_sha256,
			       a->format, a->record_last_import, a->authorities_updated };
	for (size_t i = 0; i < SW_ARRAY_LEN(keys); i++)
		if (vals[i])
			json_object_set_new(o, keys[i], sw_json_str(vals[i]));
	json_object_set_new(o, "record_documents", json_integer((json_int_t)a->record_documents));
	return o;
}

/* The verdict of the claim other than a proposition that covers [s, e) of
 * sentence `sentence` (a date, a cited Bates number), or unverifiable: the
 * first such claim.  The claims other than propositions come first, in
 * order of start (claims.h), so the search is by halves and then back
 * over the sentence's claims alone: a scan of every claim for each fact
 * made a report's JSON quadratic in the draft. */
static enum sw_verdict own_verdict(const struct sw_verify_report *r, size_t sentence, size_t s,
				   size_t e)
{
	const struct sw_claims *cl = &r->claims;
	size_t lo = 0, hi = cl->n, found = cl->n;
	while (lo < hi) { /* the first proposition */
		size_t mid = lo + (hi - lo) / 2;
		if (cl->v[mid].kind == SW_CLAIM_PROPOSITION)
			hi = mid;
		else
			lo = mid + 1;
	}
	hi = lo;
	lo = 0;
	while (lo < hi) { /* the first claim that starts after s */
		size_t mid = lo + (hi - lo) / 2;
		if (cl->v[mid].start <= s)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t from = sentence < cl->nsentences ? cl->sentences[sentence].start : 0;
	for (size_t k = lo; k-- > 0 && cl->v[k].start >= from;) {
		const struct sw_claim *x = &cl->v[k];
		if (x->sentence == sentence && x->start <= s && e <= x->end)
			found = k;
	}
	return found < cl->n ? r->verdicts[found].verdict : SW_VERDICT_UNVERIFIABLE;
}

/* A proposition's "facts" with each one's verdict and where it is. */
static json_t *facts_json(const struct sw_verify_report *r, size_t i)
{
	const struct sw_claim *c = &r->claims.v[i];
	const struct sw_claim_verdict *v = &r->verdicts[i];
	json_t *claim_facts = sw_claims_facts_json(c, r->text), *arr = json_array();
	for (size_t k = 0; k < v->nfacts; k++) {
		const struct sw_fact_verdict *f = &v->facts[k];
		json_t *o = f->fact >= 0 ? json_incref(json_array_get(claim_facts, (size_t)f->fact))
					 : NULL;
		if (!o)
			o = json_pack("{s:s, s:o}", "kind", f->kind, "text",
				      sw_json_strn(r->text + f->start, f->end - f->start));
		enum sw_verdict fvv = f->own_claim ? own_verdict(r, c->sentence, f->start, f->end)
						   : f->verdict;
		json_object_set_new(o, "verdict", json_string(sw_verdict_name(fvv)));
		if (f->own_claim)
			json_object_set_new(o, "own_claim", json_true());
		if (f->page)
			json_object_set_new(o, "page", sw_json_str(f->page));
		json_t *on = json_array();
		if (f->found_on)
			json_array_append_new(on, sw_json_str(f->found_on));
		json_object_set_new(o, "found_on", on);
		if (f->page_says)
			json_object_set_new(o, "page_says", sw_json_str(f->page_says));
		json_array_append_new(arr, o);
	}
	json_decref(claim_facts);
	return arr;
}

/* Claim i of r as an element of the report's "claims": the claim as
 * claims/ gives it (sw_claims_claim_json), where it is in the draft's
 * source, its verdict, reason and evidence.  The one builder of a claim's
 * JSON: the whole document and the stream both use it. */
static json_t *claim_json(const struct sw_verify_report *r, size_t i,
			  const struct sw__verify_report_pos *pos)
{
	json_t *c = sw_claims_claim_json(&r->claims, i, r->text);
	const struct sw_claim_verdict *v = &r->verdicts[i];
	json_object_set_new(c, "start", json_integer((json_int_t)pos[i].start));
	json_object_set_new(c, "end", json_integer((json_int_t)pos[i].end));
	json_object_set_new(c, "cite_start", json_integer((json_int_t)pos[i].cite_start));
	json_object_set_new(c, "cite_end", json_integer((json_int_t)pos[i].cite_end));
	json_object_set_new(c, "line", json_integer((json_int_t)pos[i].line));
	json_object_set_new(c, "column", json_integer((json_int_t)pos[i].col));
	json_object_set_new(c, "verdict", json_string(sw_claim_verdict_name(v)));
	json_object_set_new(c, "reason", sw_json_str(v->reason));
	char fp[SW_SHA256_HEX_LEN + 1];
	sw_claim_fingerprint(fp, r, i);
	json_object_set_new(c, "fingerprint", json_string(fp));
	if (v->waiver)
		json_object_set_new(c, "waiver", waiver_json(v));
	json_t *ev = json_array();
	for (size_t k = 0; k < v->nevidence; k++)
		json_array_append_new(ev, evidence_json(&v->evidence[k]));
	json_object_set_new(c, "evidence", ev);
	if (r->claims.v[i].kind == SW_CLAIM_PROPOSITION && v->facts)
		json_object_set_new(c, "facts", facts_json(r, i));
	return c;
}

/* The report's document around claims (stolen): "draft", "claims", then
 * the summary, the uncited sentences, the gate and the audit stamp. */
static json_t *doc_json(const struct sw_verify_report *r, const char *draft, json_t *claims)
{
	json_t *root = json_pack("{s:o, s:o}", "draft", sw_json_str(draft), "claims", claims);
	json_t *sum = json_object();
	json_object_set_new(sum, "claims", json_integer((json_int_t)r->claims.n));
	for (int v = 0; v < SW_VERDICT_COUNT; v++)
		json_object_set_new(sum, sw_verdict_name((enum sw_verdict)v),
				    json_integer((json_int_t)r->counts[v]));
	json_object_set_new(sum, "waived", json_integer((json_int_t)r->nwaived));
	json_object_set_new(sum, "uncited", json_integer((json_int_t)r->nuncited));
	json_object_set_new(root, "summary", sum);
	json_object_set_new(root, "lenient", json_boolean(r->lenient));
	json_object_set_new(root, "uncited_mode",
			    json_string(sw_uncited_mode_name(r->uncited_mode)));
	json_t *un = json_array();
	for (size_t k = 0; k < r->nuncited; k++) {
		const struct sw_verify_uncited *x = &r->uncited[k];
		json_array_append_new(un, json_pack("{s:s, s:I, s:I, s:s%, s:s, s:b}", "verdict",
						    "uncited", "start", (json_int_t)x->start, "end",
						    (json_int_t)x->end, "text", r->text + x->start,
						    x->end - x->start, "facts", x->facts, "blocks",
						    r->uncited_mode == SW_UNCITED_BLOCK));
	}
	json_object_set_new(root, "uncited", un);
	json_t *miss = json_array();
	for (size_t k = 0; k < r->nmissing; k++)
		json_array_append_new(miss, json_string(r->missing[k]));
	json_object_set_new(root, "missing_elements", miss);
	json_object_set_new(root, "no_record_citation", json_boolean(r->no_record));
	json_object_set_new(root, "gate", json_string(r->pass ? "pass" : "blocked"));
	if (r->audit)
		json_object_set_new(root, "audit", audit_json(r->audit));
	return root;
}

json_t *sw_verify_json(const struct sw_verify_report *r, const char *draft)
{
	struct sw__verify_report_pos *pos = sw__verify_report_positions(r);
	json_t *claims = json_array();
	for (size_t i = 0; i < r->claims.n; i++)
		json_array_append_new(claims, claim_json(r, i, pos));
	free(pos);
	return doc_json(r, draft, claims);
}

#define JSON_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY)

int sw_verify_json_write(FILE *f, const struct sw_verify_report *r, const char *draft,
			 const struct json_t *before, const struct json_t *after,
			 struct sw_err *err)
{
	/* The document with no claims, laid out as sw_json_print() would,
	 * cut where its empty "claims" is; the claims go between, one at a
	 * time, each indented as the whole document's would be. */
	static const char mark[] = "\n  \"claims\": []";
	json_t *doc = json_object(), *env = doc_json(r, draft, json_array());
	if (before)
		json_object_update(doc, (json_t *)before);
	json_object_update_missing(doc, env);
	if (after)
		json_object_update_missing(doc, (json_t *)after);
	json_decref(env);
	char *s = json_dumps(doc, JSON_FLAGS), *cut = s ? strstr(s, mark) : NULL;
	json_decref(doc);
	if (!cut)
		SW_BUG("sw_verify_json_write: no claims in the report's document");
	struct sw__verify_report_pos *pos = sw__verify_report_positions(r);
	cut += sizeof(mark) - 3; /* at the "[]" */
	fwrite(s, 1, (size_t)(cut - s), f);
	fputc('[', f);
	int rc = 0;
	for (size_t i = 0; i < r->claims.n && rc == 0; i++) {
		json_t *c = claim_json(r, i, pos);
		fputs(i ? ",\n    " : "\n    ", f);
		rc = sw_claims_json_value_write(f, c, 2, err);
		json_decref(c);
	}
	fputs(r->claims.n ? "\n  ]" : "]", f);
	fputs(cut + 2, f);
	fputc('\n', f);
	free(pos);
	free(s);
	if (rc != 0)
		return rc;
	errno = 0;
	if (fflush(f) != 0 || ferror(f))
		return sw_err_set(err, SW_EIO, "cannot write JSON output: %s",
				  errno ? strerror(errno) : "write failed");
	return 0;
}

/* The claim's text on one line, cut to max bytes on a character boundary. */
static void one_line(char *out, size_t outsz, const char *s, size_t n, size_t max)
{
	size_t o = 0;
	n = sw_utf8_cut(s, n, max);
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

char *sw__verify_report_where(const struct sw_evidence *e)
{
	if (!e->document)
		return sw_xasprintf("%s%s%s", e->name ? e->name : "", e->name && e->cite ? " " : "",
				    e->cite ? e->cite : "");
	const char *label = e->cite && *e->cite ? e->cite : e->bates;
	if (label && *label && strcasecmp(label, e->document) != 0)
		return sw_xasprintf("%s (%s p. %u)", label, e->document, e->page);
	return sw_xasprintf("%s p. %u", e->document, e->page);
}

static void print_row(FILE *f, const struct sw_verify_report *r, size_t i,
		      const struct sw__verify_report_pos *pos, bool colour)
{
	const struct sw_claim *c = &r->claims.v[i];
	const struct sw_claim_verdict *v = &r->verdicts[i];
	char text[256], at[48];
	one_line(text, sizeof(text), r->text + c->start, c->end - c->start, 60);
	snprintf(at, sizeof(at), "%zu:%zu", pos[i].line, pos[i].col);
	/* The draft's text, the reasons (which quote the record) and the
	 * excerpts are outside text: cleaned of control sequences (base.h),
	 * the verdict's colour written around them. */
	fprintf(f, "%4zu  %s%-12s%s  %-11s %-8s ", i + 1,
		!colour ? "" : v->waiver ? "\033[35m" : colour_of(v->verdict),
		sw_claim_verdict_name(v), colour ? "\033[0m" : "", sw_claim_kind_name(c->kind), at);
	sw_term_printf(f, "%s\n", text);
	if (v->waiver)
		sw_term_printf(f, "      waived by %s on %s: %s (was %s)\n", v->waiver->by,
			       v->waiver->at, v->waiver->reason, sw_verdict_name(v->verdict));
	sw_term_printf(f, "      %s %s\n",
		       v->verdict == SW_VERDICT_SUPPORTED ? "\xe2\x9c\x93" : "\xe2\x86\x92", v->reason);
	if (v->nfacts) {
		/* a proposition's facts, compactly: "$52,850.00 ✓ ACME0000006" */
		fputs("      facts:", f);
		for (size_t k = 0; k < v->nfacts; k++) {
			const struct sw_fact_verdict *fv = &v->facts[k];
			char ft[96];
			one_line(ft, sizeof(ft), r->text + fv->start, fv->end - fv->start, 40);
			const char *mark = fv->own_claim ? "(own claim)" :
					   fv->verdict == SW_VERDICT_SUPPORTED ? "\xe2\x9c\x93" :
					   fv->verdict == SW_VERDICT_CONTRADICTED ? "\xe2\x89\xa0" :
					   fv->verdict == SW_VERDICT_UNSUPPORTED ? "\xe2\x9c\x97" : "-";
			sw_term_printf(f, "%s %s %s", k ? ";" : "", ft, mark);
			if (fv->found_on && !fv->own_claim)
				sw_term_printf(f, " %s%s",
					       fv->verdict == SW_VERDICT_SUPPORTED ? "" : "on ",
					       fv->found_on);
		}
		fputc('\n', f);
	}
	for (size_t k = 0; k < v->nevidence && v->verdict == SW_VERDICT_SUPPORTED; k++) {
		const struct sw_evidence *e = &v->evidence[k];
		if (e->excerpt && e->document) {
			char *where = sw__verify_report_where(e);
			sw_term_printf(f, "        %s: %s\n", where, e->excerpt);
			free(where);
		}
	}
}

void sw_verify_print(FILE *f, const struct sw_verify_report *r, bool colour)
{
	struct sw__verify_report_pos *pos = sw__verify_report_positions(r);
	size_t nblocked = 0;
	for (size_t i = 0; i < r->claims.n; i++)
		nblocked += sw__verify_claim_blocks(r, &r->verdicts[i]);
	if (nblocked) {
		fprintf(f, "blocked claims (%zu):\n", nblocked);
		for (size_t i = 0; i < r->claims.n; i++)
			if (sw__verify_claim_blocks(r, &r->verdicts[i]))
				print_row(f, r, i, pos, colour);
		fputc('\n', f);
	}
	if (r->nwaived) {
		fprintf(f, "waived claims (%zu):\n", r->nwaived);
		for (size_t i = 0; i < r->claims.n; i++)
			if (r->verdicts[i].waiver)
				print_row(f, r, i, pos, colour);
		fputc('\n', f);
	}
	if (r->claims.n > nblocked + r->nwaived) {
		fprintf(f, "passing claims (%zu):\n", r->claims.n - nblocked - r->nwaived);
		for (size_t i = 0; i < r->claims.n; i++)
			if (!sw__verify_claim_blocks(r, &r->verdicts[i]) && !r->verdicts[i].waiver)
				print_row(f, r, i, pos, colour);
		fputc('\n', f);
	}
	if (r->nuncited) {
		fprintf(f, "uncited facts (%zu, %s):\n", r->nuncited,
			r->uncited_mode == SW_UNCITED_BLOCK ? "blocking" : "listed, not blocking");
		for (size_t k = 0; k < r->nuncited; k++) {
			const struct sw_verify_uncited *x = &r->uncited[k];
			int n = (int)(x->end - x->start);
			fprintf(f, "  uncited  %.*s%s\n           states %s with no citation\n",
				n > 90 ? 90 : n, r->text + x->start, n > 90 ? "..." : "", x->facts);
		}
		fputc('\n', f);
	}
	for (size_t k = 0; k < r->nmissing; k++)
		fprintf(f, "missing: the task requires %s; the draft has none\n", r->missing[k]);
	if (r->no_record)
		fprintf(f, "missing: the task expects record support; the draft cites no record\n");
	fprintf(f, "%zu claims: %zu supported, %zu unsupported, %zu contradicted, %zu unverifiable",
		r->claims.n, r->counts[SW_VERDICT_SUPPORTED], r->counts[SW_VERDICT_UNSUPPORTED],
		r->counts[SW_VERDICT_CONTRADICTED], r->counts[SW_VERDICT_UNVERIFIABLE]);
	if (r->nwaived)
		fprintf(f, ", %zu waived", r->nwaived);
	fprintf(f, "%s\n", r->lenient ? " (lenient: unverifiable claims pass)" : "");
	fprintf(f, "gate: %s%s%s\n", colour ? (r->pass ? "\033[1;32m" : "\033[1;31m") : "",
		r->pass ? "pass" : "blocked", colour ? "\033[0m" : "");
	free(pos);
}

