/* cmd_certify.c - `sworn certify RUN`: the verification certificate of an
 * approved run (pipeline.h, "the certificate"), and `sworn certify --check
 * CERT FINAL`. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "authority/authority.h"
#include "cli/cli.h"
#include "cli/cli_draft.h"
#include "cli/cli_signoff.h"
#include "llm/llm.h"
#include "pipeline/pipeline.h"

struct certify_opts {
	const char *matter, *format, *out;
	bool check, json;
};

#define AT(f) offsetof(struct certify_opts, f)
static const struct cli_opt opts[] = {
	{ "matter", 'm', "MATTER", "the run's matter (default: the default matter)", CLI_STRING,
	  AT(matter) },
	{ "format", 0, "FORMAT", "md (the default), html or pdf (pdf needs -o)", CLI_STRING,
	  AT(format), .values = "md html pdf" },
	{ "out", 'o', "FILE", "write the certificate to FILE instead of standard output",
	  CLI_PATH, AT(out) },
	{ "check", 0, NULL, "check a certificate: sworn certify --check CERT FINAL", CLI_FLAG,
	  AT(check) },
	{ "json", 0, NULL, "print the certificate's content (or the check) as JSON", CLI_FLAG,
	  AT(json) },
};

static void print_check(FILE *f, const void *ud)
{
	const struct sw_certify_check *c = ud;
	fprintf(f, "final: %s\n", c->file_matches ? "the certified final (its SHA-256 matches)"
						  : "NOT the certified final: its SHA-256 differs");
	if (!c->approved) {
		fputs("journal: the run is not approved\n", f);
	} else {
		fprintf(f, "journal's final: %s\n",
			c->journal_final_matches ? "matches" : "DIFFERS from the certificate's");
		fprintf(f, "waivers listed: %s\n",
			c->waivers_found ? "all in the journal" : "NOT all in the journal");
		fprintf(f, "journal: %s\n", c->journal_matches
						    ? "says what the certificate says"
						    : "DIFFERS from what the certificate says");
	}
	fprintf(f, "certificate: %s\n", c->ok ? "valid" : "does not match");
}

static int check(struct cli_ctx *ctx, const struct certify_opts *o, const char *cert_path,
		 const char *final_path)
{
	struct sw_err err = { 0 };
	struct cli_draft cert = { 0 };
	struct sw_buf final = SW_BUF_INIT;
	struct sw_certify_stamp st;
	struct sw_certify_check c;
	struct sw_matter *m = NULL;
	int rc = CLI_USAGE;

	/* Its text, as a draft's is read: a PDF's from its text layer. */
	if (cli_draft_read(&cert, cert_path, "text", &err) != 0 ||
	    sw_certify_stamp_parse(&st, cert.view.text, &err) != 0) {
		sw_err_wrap(&err, err.code, "cannot read the certificate '%s'", cert_path);
		cli_fail(&err);
		goto cleanup;
	}
	if (sw_file_read(&final, final_path, SW_DIFF_MAX_BYTES, &err) != 0) {
		cli_fail(&err);
		goto cleanup;
	}
	if (o->matter && strcmp(o->matter, st.matter) != 0) {
		cli_error("the certificate is of matter %s, not %s", st.matter, o->matter);
		goto cleanup;
	}
	if (cli_matter_open(&m, ctx, st.matter, &err) != 0) {
		cli_fail(&err);
		goto cleanup;
	}
	if (sw_certify_check(&c, m, &st, final.data ? final.data : "", final.len, &err) != 0) {
		rc = cli_fail(&err);
		if (rc == CLI_NO)
			rc = CLI_USAGE;
		goto cleanup;
	}
	json_t *doc = NULL;
	if (o->json)
		doc = json_pack("{s:s, s:I, s:b, s:s, s:b, s:b, s:b, s:b, s:b}", "matter",
				st.matter, "run", (json_int_t)st.run, "valid", c.ok, "final_sha256",
				c.file_sha256, "final_matches", c.file_matches, "approved",
				c.approved, "journal_final_matches", c.journal_final_matches,
				"waivers_found", c.waivers_found, "journal_matches",
				c.journal_matches);
	rc = cli_emit(o->json, doc, print_check, &c, c.ok ? CLI_OK : CLI_NO);
cleanup:
	sw_matter_close(m);
	sw_buf_release(&final);
	cli_draft_release(&cert);
	return rc;
}

static int run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	(void)cmd;
	const struct certify_opts *o = a->opts;
	struct sw_err err = { 0 };
	struct sw_matter *m = NULL;
	struct sw_authority *auth = NULL;
	struct sw_llm_config llm = { 0 };
	struct sw_buf text = SW_BUF_INIT;
	json_t *cert = NULL;
	char *updated = NULL;
	long long id = 0;
	int rc = CLI_USAGE;

	if (o->check) {
		if (a->npos != 2 || o->format || o->out) {
			cli_error("usage: sworn certify --check CERTIFICATE FINAL");
			return CLI_USAGE;
		}
		return check(ctx, o, a->pos[0], a->pos[1]);
	}
	const char *format = o->format ? o->format : "md";
	if (a->npos != 1 || !sw_parse_int(a->pos[0], 1, INT64_MAX, &id)) {
		cli_error("usage: sworn certify RUN [--format md|html|pdf] [-o FILE] (RUN: the "
			  "run's number, sworn run list)");
		return CLI_USAGE;
	}
	if (strcmp(format, "md") && strcmp(format, "html") && strcmp(format, "pdf")) {
		cli_error("bad --format '%s': give md, html or pdf", format);
		return CLI_USAGE;
	}
	if (!strcmp(format, "pdf") && !o->out && !o->json) {
		cli_error("--format pdf needs -o FILE (a PDF is not for a terminal)");
		return CLI_USAGE;
	}
	if (cli_matter_open(&m, ctx, o->matter, &err) != 0 ||
	    cli_authority_open(&auth, &updated, ctx, &err) != 0 ||
	    sw_llm_config_load(&llm, &ctx->ws.config, &err) != 0) {
		cli_fail(&err);
		goto cleanup;
	}
	struct sw_certify_opts co = { .auth = auth, .authorities_updated = updated,
				      .version = SW_VERSION, .commit = cli_build_commit,
				      .llm = &llm };
	if (sw_certify(&cert, m, id, &co, &err) != 0) {
		rc = cli_fail(&err);
		if (rc == CLI_NO)
			rc = CLI_USAGE;
		goto cleanup;
	}
	if (o->json) {
		rc = cli_emit(true, json_incref(cert), NULL, NULL, CLI_OK);
		goto cleanup;
	}
	if (!strcmp(format, "pdf")) {
		sw_certify_markdown(&text, cert);
		if (sw_certify_pdf(text.data, text.len, o->out, &err) != 0) {
			rc = cli_fail(&err);
			goto cleanup;
		}
	} else {
		if (!strcmp(format, "html"))
			sw_certify_html(&text, cert);
		else
			sw_certify_markdown(&text, cert);
		if (o->out ? sw_file_write_atomic(o->out, text.data, text.len, &err) != 0
			   : fwrite(text.data, 1, text.len, stdout) != text.len) {
			if (!err.code)
				sw_err_set(&err, SW_EIO, "cannot write the certificate");
			rc = cli_fail(&err);
			goto cleanup;
		}
	}
	if (o->out && !cli_globals.quiet)
		fprintf(stderr, "sworn certify: run %lld's certificate is in %s\n", id, o->out);
	rc = CLI_OK;
cleanup:
	json_decref(cert);
	sw_buf_release(&text);
	sw_llm_config_release(&llm);
	sw_authority_close(auth);
	sw_matter_close(m);
	free(updated);
	return rc;
}

const struct cli_command cli_cmd_certify = {
	.name = "certify",
	.usage = "RUN [-m MATTER] [--format md|html|pdf] [-o FILE] [--json] | --check CERTIFICATE "
		 "FINAL",
	.summary = "a verification certificate of an approved run, and its check",
	.description =
		"Writes the certificate of an approved run, for a court that requires a\n"
		"disclosure or certification of AI use: the matter and run; the final's\n"
		"SHA-256 and size; the final verified again now (sworn's version and\n"
		"commit, the authority table's date, the record's document count, the\n"
		"claims by kind and verdict); every waiver and the override with its\n"
		"reason, person and time; the model and endpoint of every step with the\n"
		"local-only policy's verdict on it; the context audit's result; and a\n"
		"disclosure paragraph to edit.  Markdown by default, --format html (prints\n"
		"on one or two pages) or pdf (-o FILE).  It ends with a stamp: the\n"
		"final's SHA-256 and that of the journal's facts it certifies.\n"
		"--check CERTIFICATE FINAL hashes FINAL again and reads the journal again:\n"
		"exit 0 when both still say what the certificate says, 1 when not.\n\n"
		"Exit status: 0 written or valid, 1 the check failed, 2 usage or input error.",
	.opts = opts,
	.nopts = SW_ARRAY_LEN(opts),
	.opts_size = sizeof(struct certify_opts),
	.min_pos = 1,
	.max_pos = 2,
	.flags = CLI_NEEDS_WORKSPACE,
	.run = run,
};
