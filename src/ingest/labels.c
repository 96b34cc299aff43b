/* labels.c - sworn ingest --labels: a labels CSV read by extract/,
 * each row's target looked up among the documents and stored (record/),
 * each row that cannot be reported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest_int.h"

int sw__ingest_labels(struct sw__ingest *in, const char *path)
{
	struct sw_buf raw = SW_BUF_INIT, text = SW_BUF_INIT;
	struct sw_err err = { 0 };
	struct sw_record_label_writer lw = { 0 };
	int rc = 0;

	if (sw_file_read(&raw, path, SW_RECORD_MAX_LABEL_BYTES, &err) != 0) {
		sw__ingest_event(in, SW_INGEST_FAILED, path, "%s", err.msg);
		goto cleanup;
	}
	/* Excel writes a UTF-8 BOM ("CSV UTF-8"), UTF-16 ("Unicode text") or
	 * Windows-1252 ("CSV"): all read as UTF-8 text. */
	bool latin1 = false, truncated = false;
	if (sw_extract_decode(&text, &latin1, &truncated, raw.data, raw.len, &err) != 0) {
		sw__ingest_event(in, SW_INGEST_FAILED, path, "labels file is not text: %s", err.msg);
		goto cleanup;
	}
	if ((rc = sw_record_labels_open(&lw, in->m, &in->fatal)) != 0)
		goto cleanup;
	struct sw_labels rows;
	sw_labels_parse(&rows, text.data ? text.data : "", text.len);
	for (size_t i = 0; i < rows.n; i++) {
		const struct sw_label_row *row = &rows.rows[i];
		char where[64];
		snprintf(where, sizeof(where), "%s:%d", sw_path_base(path), row->line);
		if (!row->label) {
			sw__ingest_event(in, SW_INGEST_FAILED, where,
					 "expected 'label,target' (e.g. 'Ex. 12,ACME0000123')");
			continue;
		}
		const char *f[2] = { row->label, row->target };
		/* A label of no letters or digits ("--", "§") would be one key
		 * for them all, each overwriting the last. */
		char *norm = sw_label_normalize(f[0]);
		bool empty = !norm || !*norm;
		free(norm);
		if (empty) {
			sw__ingest_event(in, SW_INGEST_FAILED, where,
					 "label '%s' has no letters or digits to be cited by", f[0]);
			continue;
		}
		if (row->extra)
			sw__ingest_event(in, SW_INGEST_WARNING, where,
					 "label '%s': %zu field(s) after the target ignored", f[0],
					 row->extra);
		int64_t doc = 0;
		int frc = sw_record_label_target(&doc, in->m, f[1], &in->fatal);
		if (frc == SW_ENOTFOUND) {
			sw__ingest_event(in, SW_INGEST_FAILED, where,
					 "label '%s': no imported document starts at Bates '%s' or is named '%s'",
					 f[0], f[1], f[1]);
			continue;
		}
		if (frc) {
			rc = frc;
			break;
		}
		if ((rc = sw_record_label_put(&lw, f[0], f[1], doc, &in->fatal)) != 0)
			break;
		in->sum->labels++;
	}
	sw_labels_release(&rows);
cleanup:
	sw_record_labels_close(&lw);
	sw_buf_release(&raw);
	sw_buf_release(&text);
	return rc;
}
