/* conf.c - sworn.conf's [ingest] section: the OCR budget of an import, its
 * threads and its batches.  Flags of sworn ingest override these. */
#include <string.h>

#include "ingest/ingest.h"

static const struct sw_config_section sections[] = {
	{ "ingest", false, "how sworn ingest reads scanned pages (OCR) and stores documents" },
};

#define OPT(m) SW_CONFIG_AT(struct sw_ingest_opts, m)

static const struct sw_config_key keys[] = {
	{ .section = "ingest", .key = "ocr_pages", .type = SW_CONFIG_INT, OPT(ocr_max_pages),
	  .min = 0, .max = 1e12,
	  .help = "pages one import reads by OCR at most; the rest are kept without text (0: no limit)" },
	{ .section = "ingest", .key = "ocr_seconds", .type = SW_CONFIG_DOUBLE, OPT(ocr_max_seconds),
	  .min = 0, .max = 1e9,
	  .help = "seconds of OCR one import may spend, from its first page (0: no limit)" },
	{ .section = "ingest", .key = "ocr_threads", .type = SW_CONFIG_INT, OPT(ocr_threads),
	  .min = 0, .max = 64, .help = "pages read by OCR at a time (0: one per core)" },
	{ .section = "ingest", .key = "batch_pages", .type = SW_CONFIG_INT, OPT(batch_pages),
	  .min = 0, .max = 1e7,
	  .help = "pages stored in one transaction at most (0: 1000; 1: one per document);"
		  " a crash loses the open batch, which the next import stores again" },
};

const struct sw_config_schema sw_ingest_conf_schema = {
	.file = "sworn.conf",
	.sections = sections,
	.nsections = SW_ARRAY_LEN(sections),
	.keys = keys,
	.nkeys = SW_ARRAY_LEN(keys),
	.closed = false,
};

int sw_ingest_conf_load(struct sw_ingest_opts *opts, const struct sw_config *cfg,
			struct sw_err *err)
{
	return sw_config_apply(&sw_ingest_conf_schema, cfg, sw_config_target_user, opts, err);
}
