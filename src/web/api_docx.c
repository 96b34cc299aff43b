/* api_docx.c - drafts as Word documents with a comment on each claim that
 * does not pass, as `sworn verify --annotate` writes them (verify.h's
 * sw_verify_docx): GET /api/m/MATTER/runs/RUN/draft.docx, the run's current
 * draft (the saved edit, else its own) checked as the draft view checks
 * it; and the reply of POST /api/m/MATTER/verify.docx (api_verify.c). */
#include <stdlib.h>
#include <string.h>

#include "web/web_int.h"
#include "markup/markup.h"
#include "pipeline/pipeline.h"
#include "verify/verify.h"

#define DOCX_TYPE "application/vnd.openxmlformats-officedocument.wordprocessingml.document"

/* The draft as the draft view shows it: the saved edit, else the run's. */
static int draft_text(char **text, struct sw_matter *m, int64_t id, struct sw_err *err)
{
	char *draft = NULL;
	int64_t version = 0;
	int rc;
	*text = NULL;
	if ((rc = sw_run_draft(&draft, m, id, err)) != 0)
		return rc;
	if ((rc = sw_run_edit_get(text, &version, m, id, err)) != 0 || *text)
		free(draft);
	else
		*text = draft;
	return rc;
}

void sw__web_reply_docx(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m,
			const char *src, size_t len, int kind, const char *docx, size_t docx_len)
{
	struct sw_err err = { 0 };
	struct sw_markup view;
	struct sw_verify_report rep;
	struct sw_authority *auth = NULL;
	struct sw_buf out = SW_BUF_INIT;
	char now[21];
	size_t comments = 0, anchored = 0;
	bool ok;

	memset(&view, 0, sizeof(view));
	memset(&rep, 0, sizeof(rep));
	auth = sw__web_authorities(q, r, &ok);
	if (!ok)
		goto cleanup;
	struct sw_verify_opts vo = { .lenient = false };
	sw_utc_now(now);
	struct sw_verify_audit audit = { .matter = sw_matter_name(m), .time = now };
	if (sw_markup_parse(&view, (enum sw_markup_kind)kind, src, len, &err) != 0 ||
	    sw_verify(&rep, m, auth, view.text, view.len, &vo, &err) != 0) {
		sw__web_reply_err(r, &err);
		goto cleanup;
	}
	rep.view = &view;
	rep.audit = &audit;
	if (sw_verify_docx(&out, &comments, &anchored, &rep, docx, docx_len, &err) != 0) {
		sw__web_reply_err(r, &err);
		goto cleanup;
	}
	r->status = 200;
	r->type = DOCX_TYPE;
	sw_buf_release(&r->body);
	r->body = out;
	sw_buf_init(&out);
cleanup:
	rep.view = NULL;
	rep.audit = NULL;
	sw_verify_release(&rep);
	sw_markup_release(&view);
	sw_authority_close(auth);
	sw_buf_release(&out);
}

void sw__web_draft_docx(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m,
			int64_t id)
{
	struct sw_err err = { 0 };
	char *text = NULL;
	if (draft_text(&text, m, id, &err) != 0) {
		sw__web_reply_err(r, &err);
		return;
	}
	size_t len = strlen(text);
	/* A draft reads as pipeline/ reads a final: Markdown, or HTML. */
	enum sw_markup_kind kind = sw_markup_kind_for(NULL, text, len) == SW_MARKUP_HTML
					   ? SW_MARKUP_HTML : SW_MARKUP_MARKDOWN;
	sw__web_reply_docx(q, r, m, text, len, (int)kind, NULL, 0);
	free(text);
}
