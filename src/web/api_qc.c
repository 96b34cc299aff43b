/* api_qc.c - the production QC report through the browser: GET
 * /api/m/MATTER/qc answers the JSON of `sworn matter qc --json`, and GET
 * /api/m/MATTER/qc.csv the CSV of `--format csv`, both written by the
 * record (qc_report.c) so that the page and the command agree.  An
 * optional ?volume=NAME narrows either to one volume, as the command's
 * VOLUME argument does. */
#include <string.h>

#include "web/web_int.h"

/* The volumes the request asks for into *out; false with a reply when
 * there are none of that name. */
static bool load(struct sw_qc_volume **out, size_t *n, struct sw__web_req *q,
		 struct sw__web_reply *r, struct sw_matter *m)
{
	struct sw_err err = { 0 };
	const char *volume = sw__web_arg(q, "volume");
	const char *names[1] = { volume };
	if (volume && (!*volume || !sw_utf8_valid(volume, strlen(volume)))) {
		sw__web_reply_error(r, 400, "'volume' is empty or not UTF-8: give a volume's folder"
				    " or its .DAT's name, or leave it out for all");
		return false;
	}
	if (sw_record_qc_load(out, n, m, names, volume ? 1 : 0, &err) != 0) {
		sw__web_reply_err(r, &err);
		return false;
	}
	return true;
}

void sw__web_qc(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m)
{
	struct sw_qc_volume *v = NULL;
	size_t n = 0;
	if (!load(&v, &n, q, r, m))
		return;
	sw__web_reply_json(r, 200, sw_qc_report_json(sw_matter_name(m), v, n));
	sw_qc_volumes_free(v, n);
}

void sw__web_qc_csv(struct sw__web_req *q, struct sw__web_reply *r, struct sw_matter *m)
{
	struct sw_qc_volume *v = NULL;
	size_t n = 0;
	if (!load(&v, &n, q, r, m))
		return;
	r->status = 200;
	r->type = "text/csv; charset=utf-8";
	sw_buf_release(&r->body);
	sw_qc_report_csv(&r->body, v, n);
	sw_qc_volumes_free(v, n);
}
