/* api_verify.c - the verifier for a draft pasted or uploaded (.md, .txt,
 * .docx, .pdf), and the one way every handler verifies a text: the whole
 * `sworn verify --json` object, its offsets into the text sent back; and
 * the same draft answered as a Word document with comments (api_docx.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "web/web_int.h"
#include "claims/claims.h"
#include "extract/extract.h"
#include "markup/markup.h"
#include "pipeline/pipeline.h"
#include "verify/verify.h"

#define MAX_NAME 255

int sw__web_verify_bounds(struct sw_matter *m, const char *text, size_t len, struct sw_err *err)
{
	if (len > SW_WEB_MAX_DRAFT)
		return sw_err_set(err, SW_ELIMIT,
				  "the draft is %zu bytes of text: the page verifies at most %zu "
				  "at once; run sworn verify -m %s FILE for a longer one",
				  len, SW_WEB_MAX_DRAFT, sw_matter_name(m));
	/* the claims are what verifying costs: counted first (a scan is cheap
	 * next to checking each against the record) */
	struct sw_claims c;
	memset(&c, 0, sizeof(c));
	int rc = sw_claims_scan_terminated(&c, text, len, err);
	size_t n = c.n;
	sw_claims_release(&c);
	if (rc != 0)
		return rc;
	if (n > SW_WEB_MAX_CLAIMS)
		return sw_err_set(err, SW_ELIMIT,
				  "the draft has %zu claims: the page verifies at most %d at once; "
				  "run sworn verify -m %s FILE for a longer one",
				  n, SW_WEB_MAX_CLAIMS, sw_matter_name(m));
	return 0;
}

int sw__web_verify_json(json_t **report, const struct sw_web *w, struct sw_matter *m,
			struct sw_authority *auth, const char *src, size_t len, int kind,
			const char *name, const char *format_name, struct sw_err *err)
{
	struct sw_markup view;
	struct sw_verify_report rep;
	struct sw_waivers waivers = { 0 };
	char *last_import = NULL;
	char sha[SW_SHA256_HEX_LEN + 1], now[21];
	int rc;

	*report = NULL;
	memset(&view, 0, sizeof(view));
	memset(&rep, 0, sizeof(rep));
	if ((rc = sw_markup_parse(&view, (enum sw_markup_kind)kind, src, len, err)) != 0) {
		sw_err_wrap(err, rc, "cannot read the draft");
		goto cleanup;
	}
	if ((rc = sw__web_verify_bounds(m, view.text, view.len, err)) != 0)
		goto cleanup;
	struct sw_verify_opts vo = { .lenient = false };
	if ((rc = sw_verify(&rep, m, auth, view.text, view.len, &vo, err)) != 0 ||
	    (rc = sw_waivers_load(&waivers, m, err)) != 0)
		goto cleanup;
	/* the matter's waivers hold here as in sworn verify */
	sw_waivers_apply(&rep, &waivers);
	sw_sha256_hex(sha, src, len);
	sw_utc_now(now);
	struct sw_verify_audit audit = {
		.matter = sw_matter_name(m),
		.time = now,
		.version = SW_VERSION,
		.commit = w->commit,
		.draft_sha256 = sha,
		.format = format_name ? format_name : sw_markup_kind_name(view.kind),
	};
	if ((rc = sw_record_import_stamp(&audit.record_documents, &last_import, m, err)) != 0)
		goto cleanup;
	audit.record_last_import = last_import;
	rep.view = &view;
	rep.audit = &audit;
	*report = sw_verify_json(&rep, name);
	rep.view = NULL;
	rep.audit = NULL;
cleanup:
	sw_verify_release(&rep);
	sw_waivers_release(&waivers);
	sw_markup_release(&view);
	free(last_import);
	return rc;
}

/* An upload's extension: one of the four the page offers, lower case. */
static const char *upload_ext(const char *file_name)
{
	static const char *const ok[] = { "md", "txt", "docx", "pdf" };
	char ext[8];
	sw_path_ext(ext, sizeof(ext), file_name);
	for (size_t i = 0; i < SW_ARRAY_LEN(ok); i++)
		if (strcmp(ext, ok[i]) == 0)
			return ok[i];
	return NULL;
}

/* The text of an uploaded .docx or PDF, through extract/'s draft reader
 * (which reads files): the bytes go to a private folder inside the
 * matter, never outside it, for as long as the reading takes. */
static int extract_upload(struct sw_buf *text, struct sw_matter *m, const char *ext,
			  const char *shown, const struct sw_buf *bytes, struct sw_err *err)
{
	char *dir = sw_xasprintf("%s/.upload-XXXXXX", sw_matter_dir(m));
	char *path = NULL;
	int rc = 0, fd = -1;

	if (!mkdtemp(dir)) {
		rc = sw_err_set(err, SW_EIO, "cannot make a folder for the upload: %s",
				strerror(errno));
		free(dir);
		return rc;
	}
	path = sw_xasprintf("%s/draft.%s", dir, ext);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, bytes->data, bytes->len) != (ssize_t)bytes->len) {
		rc = sw_err_set(err, SW_EIO, "cannot keep the upload: %s", strerror(errno));
		goto cleanup;
	}
	close(fd);
	fd = -1;
	if ((rc = sw_extract_draft_text(text, path, err)) != 0) {
		/* the message names the temporary file: name the upload */
		const char *p = strstr(err->msg, path);
		if (p) {
			char msg[SW_ERR_MSG_MAX];
			snprintf(msg, sizeof(msg), "%.*s%s%s", (int)(p - err->msg), err->msg, shown,
				 p + strlen(path));
			snprintf(err->msg, sizeof(err->msg), "%s", msg);
		}
	}
cleanup:
	if (fd >= 0)
		close(fd);
	unlink(path);
	rmdir(dir);
	free(path);
	free(dir);
	return rc;
}

/* A draft as sent to /verify: its text and how to read it, its name, and
 * for an upload its bytes and extension.  False with the reply set when
 * the body is not one. */
struct sent {
	struct sw_buf bytes, text;
	enum sw_markup_kind kind;
	const char *name, *format, *ext;
	json_t *body;
};

static bool read_sent(struct sent *d, struct sw__web_req *q, struct sw__web_reply *r,
		      struct sw_matter *m)
{
	struct sw_err err = { 0 };
	sw_buf_init(&d->bytes);
	sw_buf_init(&d->text);
	d->kind = SW_MARKUP_MARKDOWN;
	d->name = "pasted draft";
	d->format = d->ext = NULL;
	if (!(d->body = sw__web_body_json(q, r)))
		return false;
	json_t *body = d->body;
	const char *pasted = json_string_value(json_object_get(body, "text"));
	const char *file_name = json_string_value(json_object_get(body, "file_name"));
	const char *b64 = json_string_value(json_object_get(body, "content_base64"));

	if (pasted) {
		sw_buf_add(&d->text, pasted, json_string_length(json_object_get(body, "text")));
		/* pasted text reads as a model's draft does: Markdown, unless
		 * it is an HTML page */
		if (sw_markup_kind_for(NULL, d->text.data, d->text.len) == SW_MARKUP_HTML)
			d->kind = SW_MARKUP_HTML;
		return true;
	}
	if (!file_name || !b64) {
		sw__web_reply_error(r, 400, "give \"text\", or \"file_name\" and \"content_base64\"");
		return false;
	}
	const char *ext = upload_ext(file_name);
	if (strlen(file_name) > MAX_NAME || strchr(file_name, '/') || !ext) {
		sw__web_reply_error(r, 400, "give a .md, .txt, .docx or .pdf file");
		return false;
	}
	d->name = file_name;
	d->ext = ext;
	if (sw__web_base64_decode(&d->bytes, b64,
				  json_string_length(json_object_get(body, "content_base64")),
				  SW_WEB_MAX_BODY, &err) != 0) {
		sw__web_reply_err(r, &err);
		return false;
	}
	if (!strcmp(ext, "md") || !strcmp(ext, "txt")) {
		if (!sw_utf8_valid(d->bytes.data ? d->bytes.data : "", d->bytes.len)) {
			sw__web_reply_error(r, 400, "'%s' is not UTF-8 text", file_name);
			return false;
		}
		sw_buf_add(&d->text, d->bytes.data ? d->bytes.data : "", d->bytes.len);
		d->kind = !strcmp(ext, "md") ? SW_MARKUP_MARKDOWN : SW_MARKUP_TEXT;
		return true;
	}
	if (extract_upload(&d->text, m, ext, file_name, &d->bytes, &err) != 0) {
		sw__web_reply_err(r, &err);
		return false;
	}
	d->kind = SW_MARKUP_TEXT;
	d->format = "extracted text";
	return true;
}

static void sent_release(struct sent *d)
{
	sw_buf_release(&d->bytes);
	sw_buf_release(&d->text);
	json_decref(d->body);
}

void sw__web_verify(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m)
{
	struct sent d;
	struct sw_authority *auth = NULL;
	struct sw_err err = { 0 };
	json_t *report = NULL;
	bool ok;

	if (!read_sent(&d, q, r, m))
		goto cleanup;
	auth = sw__web_authorities(q, r, &ok);
	if (!ok)
		goto cleanup;
	if (sw__web_verify_json(&report, q->w, m, auth, d.text.data ? d.text.data : "", d.text.len,
				d.kind, d.name, d.format, &err) != 0) {
		sw__web_reply_err(r, &err);
		goto cleanup;
	}
	sw__web_reply_json(r, 200,
			   json_pack("{s:o, s:o}", "text",
				     sw_json_strn(d.text.data ? d.text.data : "", d.text.len),
				     "report", report));
cleanup:
	sw_authority_close(auth);
	sent_release(&d);
}

void sw__web_verify_docx(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m)
{
	struct sent d;
	if (read_sent(&d, q, r, m)) {
		bool docx = d.ext && !strcmp(d.ext, "docx");
		sw__web_reply_docx(q, r, m, d.text.data ? d.text.data : "", d.text.len, (int)d.kind,
				   docx ? d.bytes.data : NULL, docx ? d.bytes.len : 0);
	}
	sent_release(&d);
}
