/* cmd_matter_qc.c - `sworn matter qc -m MATTER [VOLUME...] [--format
 * text|csv|html] [--json]`: the production QC report of the load-file
 * volumes a matter imported, as the import kept it (record/qc.c), for the
 * deficiency letter to the producing party. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"

enum qc_format { QC_TEXT, QC_CSV, QC_HTML };

static size_t count_kind(const struct sw_qc_volume *v, enum sw_qc_kind k)
{
	size_t n = 0;
	for (size_t i = 0; i < v->nfindings; i++)
		n += v->findings[i].kind == k;
	return n;
}

static void print_text(FILE *f, const struct sw_qc_volume *v)
{
	sw_term_printf(f, "%s  %s%s%s, imported %s\n", v->name, v->dat, v->opt ? " with " : "",
		       v->opt ? v->opt : "", v->imported_at ? v->imported_at : "?");
	sw_term_printf(f, "  %llu documents, %llu pages, %llu natives, %llu images;"
		       " text for %llu of %llu documents (%u%%)\n",
		       (unsigned long long)v->documents, (unsigned long long)v->pages,
		       (unsigned long long)v->natives, (unsigned long long)v->images,
		       (unsigned long long)v->texts, (unsigned long long)v->documents,
		       sw_qc_text_coverage(v));
	if (!v->nfindings && !v->unlisted) {
		fputs("  no problems found\n", f);
		return;
	}
	for (int k = 0; k < SW_QC_KINDS; k++) {
		size_t n = count_kind(v, (enum sw_qc_kind)k);
		if (!n)
			continue;
		sw_term_printf(f, "  %s (%zu)\n    fix: %s\n", sw_qc_kind_title((enum sw_qc_kind)k),
			       n, sw_qc_kind_fix((enum sw_qc_kind)k));
		for (size_t i = 0; i < v->nfindings; i++) {
			const struct sw_qc_finding *q = &v->findings[i];
			if (q->kind != (enum sw_qc_kind)k)
				continue;
			char line[24] = "";
			if (q->line)
				snprintf(line, sizeof(line), "line %d", q->line);
			sw_term_printf(f, "    %-10s %-24s %s\n", line, q->bates ? q->bates : "",
				       q->detail);
		}
	}
	if (v->unlisted)
		sw_term_printf(f, "  and %llu more finding(s) not listed (over %d)\n",
			       (unsigned long long)v->unlisted, SW_QC_MAX_FINDINGS);
}

static void html_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

static void print_html(FILE *f, const struct sw_qc_volume *v)
{
	fputs("<section>\n<h2>", f);
	html_text(f, v->name);
	fputs("</h2>\n<p>", f);
	html_text(f, v->dat);
	if (v->opt) {
		fputs(" with ", f);
		html_text(f, v->opt);
	}
	fputs(", imported ", f);
	html_text(f, v->imported_at);
	fprintf(f, "</p>\n<p>%llu documents, %llu pages, %llu natives, %llu images; text for %llu"
		" of %llu documents (%u%%)</p>\n", (unsigned long long)v->documents,
		(unsigned long long)v->pages, (unsigned long long)v->natives,
		(unsigned long long)v->images, (unsigned long long)v->texts,
		(unsigned long long)v->documents, sw_qc_text_coverage(v));
	if (!v->nfindings && !v->unlisted)
		fputs("<p>No problems found.</p>\n", f);
	for (int k = 0; k < SW_QC_KINDS; k++) {
		size_t n = count_kind(v, (enum sw_qc_kind)k);
		if (!n)
			continue;
		fprintf(f, "<h3>%s (%zu)</h3>\n<p class=\"fix\">To fix: ",
			sw_qc_kind_title((enum sw_qc_kind)k), n);
		html_text(f, sw_qc_kind_fix((enum sw_qc_kind)k));
		fputs("</p>\n<table>\n<tr><th>DAT line</th><th>Bates</th><th>Problem</th></tr>\n",
		      f);
		for (size_t i = 0; i < v->nfindings; i++) {
			const struct sw_qc_finding *q = &v->findings[i];
			if (q->kind != (enum sw_qc_kind)k)
				continue;
			fputs("<tr><td>", f);
			if (q->line)
				fprintf(f, "%d", q->line);
			fputs("</td><td>", f);
			html_text(f, q->bates);
			fputs("</td><td>", f);
			html_text(f, q->detail);
			fputs("</td></tr>\n", f);
		}
		fputs("</table>\n", f);
	}
	if (v->unlisted)
		fprintf(f, "<p>And %llu more finding(s) not listed.</p>\n",
			(unsigned long long)v->unlisted);
	fputs("</section>\n", f);
}

struct shown {
	const struct sw_qc_volume *v;
	size_t n;
	enum qc_format format;
	const char *matter;
};

static void print_report(FILE *f, const void *ud)
{
	const struct shown *s = ud;
	if (s->format == QC_CSV) {
		struct sw_buf b = SW_BUF_INIT;
		sw_qc_report_csv(&b, s->v, s->n);
		fwrite(b.data, 1, b.len, f);
		sw_buf_release(&b);
		return;
	}
	if (s->format == QC_HTML) {
		fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Production QC: ",
		      f);
		html_text(f, s->matter);
		fputs("</title><style>body{font-family:sans-serif}table{border-collapse:collapse}"
		      "td,th{border:1px solid #999;padding:2px 6px;text-align:left}"
		      ".fix{font-style:italic}</style></head><body>\n<h1>Production QC: ", f);
		html_text(f, s->matter);
		fputs("</h1>\n", f);
	}
	if (!s->n && s->format == QC_TEXT)
		fprintf(f,
			"no load-file volume imported into '%s' yet (sworn ingest -m %s VOLUME)\n",
			s->matter, s->matter);
	for (size_t i = 0; i < s->n; i++) {
		if (s->format == QC_HTML)
			print_html(f, &s->v[i]);
		else
			print_text(f, &s->v[i]);
	}
	if (s->format == QC_HTML)
		fputs("</body></html>\n", f);
}

struct qc_opts {
	const char *matter, *format;
	bool json;
};

static const struct cli_opt qc_opts[] = {
	{ "matter", 'm', "MATTER", "the matter whose load-file volumes to report", CLI_STRING,
	  offsetof(struct qc_opts, matter) },
	{ "format", 0, "FORMAT", "text (default), csv or html, for the deficiency letter",
	  CLI_STRING, offsetof(struct qc_opts, format), .values = "text csv html" },
	{ "json", 0, NULL, "print the report as JSON", CLI_FLAG, offsetof(struct qc_opts, json) },
};

static int qc_run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	(void)cmd;
	const struct qc_opts *o = a->opts;
	const char *matter = o->matter, *format = o->format;
	const char *const *names = (const char *const *)a->pos;
	size_t n = (size_t)a->npos;
	bool json = o->json;
	struct sw_err err = { 0 };
	struct sw_matter *m = NULL;
	struct shown s = { .format = QC_TEXT };
	struct sw_qc_volume *vols = NULL;
	size_t nv = 0;

	if (format && !strcmp(format, "csv"))
		s.format = QC_CSV;
	else if (format && !strcmp(format, "html"))
		s.format = QC_HTML;
	else if (format && strcmp(format, "text") != 0) {
		cli_error("bad --format '%s': give text, csv or html (or --json)", format);
		return CLI_USAGE;
	}
	if (json && s.format != QC_TEXT) {
		cli_error("--json and --format %s: choose one", format);
		return CLI_USAGE;
	}
	if (cli_matter_open(&m, ctx, matter, &err) != 0 ||
	    sw_record_qc_load(&vols, &nv, m, names, n, &err) != 0) {
		sw_matter_close(m);
		return cli_fail(&err);
	}
	s.v = vols;
	s.n = nv;
	s.matter = sw_matter_name(m);
	json_t *doc = NULL;
	if (json)
		doc = sw_qc_report_json(s.matter, vols, nv);
	int rc = cli_emit(json, doc, print_report, &s, CLI_OK);
	sw_qc_volumes_free(vols, nv);
	sw_matter_close(m);
	return rc;
}

const struct cli_subcommand cli_sub_matter_qc = {
	.name = "qc",
	.usage = "-m MATTER [VOLUME...] [--format text|csv|html] [--json]",
	.summary = "the production QC report of the load-file volumes imported",
	.opts = qc_opts,
	.nopts = SW_ARRAY_LEN(qc_opts),
	.opts_size = sizeof(struct qc_opts),
	.max_pos = -1,
	.run = qc_run,
};
