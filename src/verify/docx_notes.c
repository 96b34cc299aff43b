/* docx_notes.c - sw_verify_docx: a Word comment for each claim of a report
 * that did not pass, written by the module sworn-verify.so (docx_int.h),
 * which this file loads the first time a document is written. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "verify/docx_int.h"
#include "verify/report_int.h"

#define MAX_EVIDENCE 3 /* pieces of evidence a comment names */

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const struct sw__verify_docx *writer; /* NULL: load_err says why */
static struct sw_err load_err;

static void load(void)
{
	void *p = NULL;
	if (sw_module_load(&p, "verify", SW__VERIFY_DOCX_SYMBOL, &load_err) != 0)
		return;
	const struct sw__verify_docx *w = p;
	const size_t sizes[] = { sizeof(struct sw_buf), sizeof(struct sw_err),
				 sizeof(struct sw__docx_note), sizeof(struct sw__docx_job) };
	if (sw_module_check("verify", w->abi, SW__VERIFY_DOCX_ABI, w->version, w->sizes, sizes,
			    SW_ARRAY_LEN(sizes), &load_err) != 0)
		return;
	writer = w;
}

/* The comment on claim i: its verdict, its reason, the pages behind it. */
static char *claim_note(const struct sw_verify_report *r, size_t i)
{
	const struct sw_claim_verdict *v = &r->verdicts[i];
	struct sw_buf b = SW_BUF_INIT;
	const char *kind = sw_claim_kind_name(r->claims.v[i].kind);
	sw_buf_addf(&b, "%s %s", sw_verdict_name(v->verdict), kind);
	if (v->verdict == SW_VERDICT_UNVERIFIABLE && r->lenient)
		sw_buf_adds(&b, " (passes: lenient)");
	sw_buf_addf(&b, "\n%s", v->reason);
	for (size_t k = 0; k < v->nevidence && k < MAX_EVIDENCE; k++) {
		const struct sw_evidence *e = &v->evidence[k];
		char *where = sw__verify_report_where(e);
		sw_buf_addf(&b, "\n%s %s", v->verdict == SW_VERDICT_CONTRADICTED ? "Contradicted by"
										   : "See", where);
		if (e->excerpt && *e->excerpt)
			sw_buf_addf(&b, ": \u201c%s\u201d", e->excerpt);
		free(where);
	}
	for (size_t k = 0; k < v->nfacts; k++) {
		const struct sw_fact_verdict *f = &v->facts[k];
		if (f->page_says && f->page)
			sw_buf_addf(&b, "\n%s says: \u201c%s\u201d", f->page, f->page_says);
	}
	return sw_buf_detach(&b, NULL);
}

/* Claims that did not pass, and uncited sentences that block. */
static size_t make_notes(struct sw__docx_note **out, const struct sw_verify_report *r)
{
	size_t n = 0;
	struct sw__docx_note *v = sw_xmalloc((r->claims.n + r->nuncited + 1) * sizeof(*v));
	for (size_t i = 0; i < r->claims.n && n < SW__DOCX_MAX_NOTES; i++) {
		if (r->verdicts[i].verdict == SW_VERDICT_SUPPORTED)
			continue;
		v[n++] = (struct sw__docx_note){ r->claims.v[i].start, r->claims.v[i].end,
						 claim_note(r, i) };
	}
	for (size_t i = 0; i < r->nuncited && n < SW__DOCX_MAX_NOTES; i++) {
		if (r->uncited_mode != SW_UNCITED_BLOCK)
			break;
		v[n++] = (struct sw__docx_note){
			r->uncited[i].start, r->uncited[i].end,
			sw_xasprintf("uncited\nStates %s and cites nothing: cite the record "
				     "page that shows it.", r->uncited[i].facts) };
	}
	*out = v;
	return n;
}

int sw_verify_docx(struct sw_buf *out, size_t *comments, size_t *anchored,
		   const struct sw_verify_report *r, const char *docx, size_t len,
		   struct sw_err *err)
{
	struct sw__docx_note *notes = NULL;
	int rc;

	*comments = *anchored = 0;
	pthread_once(&once, load);
	if (!writer)
		return sw_err_set(err, load_err.code, "%s", load_err.msg);
	size_t n = make_notes(&notes, r);
	struct sw__docx_job job = {
		.text = r->text,
		.len = r->len,
		.notes = notes,
		.nnotes = n,
		.author = "sworn",
		.date = r->audit ? r->audit->time : NULL,
	};
	if (docx) {
		rc = writer->annotate(out, anchored, docx, len, &job, err);
	} else {
		rc = writer->create(out, &job, err);
		*anchored = n;
	}
	if (rc == 0)
		*comments = n;
	for (size_t i = 0; i < n; i++)
		free(notes[i].text);
	free(notes);
	return rc;
}
