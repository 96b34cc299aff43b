/* qc_report.c - the production QC report's machine forms: the JSON of
 * `sworn matter qc --json` and of the browser's GET /api/m/NAME/qc, and
 * the CSV of `--format csv` and of the browser's download.  One writer for
 * both, so that the page and the command never disagree. */
#include <stdio.h>

#include <jansson.h>

#include "record/record_int.h"

unsigned sw_qc_text_coverage(const struct sw_qc_volume *v)
{
	return v->documents ? (unsigned)(v->texts * 100 / v->documents) : 0;
}

static json_t *opt_str(const char *s)
{
	return s ? sw_json_str(s) : json_null();
}

static json_t *volume_json(const struct sw_qc_volume *v)
{
	json_t *list = json_array();
	for (size_t i = 0; i < v->nfindings; i++) {
		const struct sw_qc_finding *q = &v->findings[i];
		json_array_append_new(list, json_pack("{s:s, s:s, s:o, s:o, s:o, s:s}",
			"kind", sw_qc_kind_name(q->kind), "title", sw_qc_kind_title(q->kind),
			"line", q->line ? json_integer(q->line) : json_null(),
			"bates", opt_str(q->bates), "detail", sw_json_str(q->detail),
			"fix", sw_qc_kind_fix(q->kind)));
	}
	json_t *j = json_pack("{s:o, s:o, s:o, s:o}", "name", sw_json_str(v->name),
			      "dat", sw_json_str(v->dat), "opt", opt_str(v->opt),
			      "imported_at", sw_json_str(v->imported_at ? v->imported_at : ""));
	json_object_set_new(j, "totals", json_pack("{s:I, s:I, s:I, s:I, s:I, s:i}",
		"documents", (json_int_t)v->documents, "pages", (json_int_t)v->pages,
		"natives", (json_int_t)v->natives, "images", (json_int_t)v->images,
		"texts", (json_int_t)v->texts, "text_coverage_percent",
		(int)sw_qc_text_coverage(v)));
	json_object_set_new(j, "findings", list);
	json_object_set_new(j, "unlisted", json_integer((json_int_t)v->unlisted));
	return j;
}

json_t *sw_qc_report_json(const char *matter, const struct sw_qc_volume *v, size_t n)
{
	json_t *list = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(list, volume_json(&v[i]));
	return json_pack("{s:o, s:o}", "matter", sw_json_str(matter), "volumes", list);
}

/* A CSV cell: quoted, quotes doubled; a leading = + - @ is prefixed with
 * an apostrophe so that a spreadsheet does not run it as a formula. */
static void csv_cell(struct sw_buf *b, const char *s, bool last)
{
	sw_buf_addc(b, '"');
	if (s && (*s == '=' || *s == '+' || *s == '-' || *s == '@'))
		sw_buf_addc(b, '\'');
	for (; s && *s; s++) {
		if (*s == '"')
			sw_buf_addc(b, '"');
		sw_buf_addc(b, *s);
	}
	sw_buf_adds(b, last ? "\"\n" : "\",");
}

void sw_qc_report_csv(struct sw_buf *out, const struct sw_qc_volume *v, size_t n)
{
	sw_buf_adds(out, "volume,kind,line,bates,detail,fix\n");
	for (size_t k = 0; k < n; k++) {
		for (size_t i = 0; i < v[k].nfindings; i++) {
			const struct sw_qc_finding *q = &v[k].findings[i];
			char line[24] = "";
			if (q->line)
				snprintf(line, sizeof(line), "%d", q->line);
			csv_cell(out, v[k].name, false);
			csv_cell(out, sw_qc_kind_name(q->kind), false);
			csv_cell(out, line, false);
			csv_cell(out, q->bates, false);
			csv_cell(out, q->detail, false);
			csv_cell(out, sw_qc_kind_fix(q->kind), true);
		}
	}
}
