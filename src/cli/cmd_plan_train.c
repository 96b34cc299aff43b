/* cmd_plan_train.c - `sworn plan --train`: will a fine-tune of these
 * models fit these boards, how fast, and what breaks there; with
 * --compare, one table of every model on every board. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/cli_plan.h"
#include "fleet/fleet.h"
#include "pipeline/pipeline.h"

/* Chat-template tokens around each message (role markers, separators). */
#define TEMPLATE_TOKENS 6

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Tokens of one exported line: every message's content in "prompt" and
 * "completion", estimated, plus the template's markers. */
static uint32_t line_tokens(json_t *line)
{
	static const char *const parts[] = { "prompt", "completion" };
	size_t n = 0;
	for (size_t i = 0; i < SW_ARRAY_LEN(parts); i++) {
		json_t *msgs = json_object_get(line, parts[i]), *m;
		size_t k;
		json_array_foreach(msgs, k, m) {
			const char *c = json_string_value(json_object_get(m, "content"));
			n += TEMPLATE_TOKENS + (c ? sw_tokens_estimate(c, strlen(c)) : 0);
		}
	}
	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

/* The matter's corrections as a fine-tune sees them: its SFT export. */
static int corrections_data(struct sw_fleet_train_data *out, struct cli_ctx *ctx,
			    const char *matter, struct sw_err *err)
{
	struct sw_matter *m = NULL;
	char *buf = NULL;
	size_t len = 0, written = 0, skipped = 0, cap = 0, n = 0;
	uint32_t *lens = NULL;
	FILE *f = NULL;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!ctx->have_ws) {
		if ((rc = sw_workspace_open(&ctx->ws, ctx->dir, err)) != 0)
			return rc;
		ctx->have_ws = true;
	}
	if ((rc = cli_matter_open(&m, ctx, matter, err)) != 0)
		return rc;
	if (!(f = open_memstream(&buf, &len))) {
		rc = sw_err_set(err, SW_EIO, "cannot read the corrections: out of memory");
		goto cleanup;
	}
	rc = sw_corrections_export(f, &written, &skipped, m, SW_EXPORT_SFT, SW_EXPORT_TRL, err);
	fclose(f);
	if (rc != 0)
		goto cleanup;
	for (char *p = buf; p && *p;) {
		char *nl = strchr(p, '\n');
		size_t ll = nl ? (size_t)(nl - p) : strlen(p);
		json_t *line = json_loadb(p, ll, 0, NULL);
		if (line) {
			lens = sw_xgrow(lens, &cap, n + 1, sizeof(*lens));
			lens[n] = line_tokens(line);
			out->tokens += lens[n];
			n++;
			json_decref(line);
		}
		p += ll + (nl ? 1 : 0);
	}
	out->examples = n;
	if (n) {
		qsort(lens, n, sizeof(*lens), cmp_u32);
		out->longest = lens[n - 1];
		out->p95 = lens[(n * 95 + 99) / 100 - 1];
	}
cleanup:
	free(lens);
	free(buf);
	sw_matter_close(m);
	return rc;
}

static bool parse_method(enum sw_fleet_train_method *out, const char *s)
{
	static const char *const names[] = { "qlora", "lora", "full" };
	for (size_t i = 0; i < SW_ARRAY_LEN(names); i++)
		if (strcmp(s, names[i]) == 0) {
			*out = (enum sw_fleet_train_method)i;
			return true;
		}
	return false;
}

struct report {
	const struct cli_plan_train *o;
	struct sw_fleet_train_shape *shapes;
	size_t nshapes;
	const struct sw_fleet_hw *hw;
	int *groups;
	size_t ngroups;
	struct sw_fleet_train_fit *fits;
	const struct sw_fleet_train_request *req;
};

static void report_text(FILE *f, const void *ud)
{
	const struct report *r = ud;
	struct sw_buf out = SW_BUF_INIT;
	if (r->o->compare || r->nshapes * r->ngroups > 1)
		sw_fleet_train_compare_text(&out, r->shapes, r->nshapes, r->hw, r->groups,
					    r->ngroups, r->fits);
	if (!r->o->compare)
		for (size_t i = 0; i < r->nshapes; i++)
			for (size_t j = 0; j < r->ngroups; j++)
				sw_fleet_train_fit_text(&out, &r->shapes[i], r->hw, r->groups[j],
							r->req, &r->fits[i * r->ngroups + j]);
	fputs(out.data ? out.data : "", f);
	sw_buf_release(&out);
}

int cli_plan_train(struct cli_ctx *ctx, const struct cli_plan_train *o, char *const *models,
		   size_t nmodels)
{
	struct sw_err err = { 0 };
	struct sw_fleet_hw hw = { 0 };
	struct sw_fleet_train_request req = {
		.rank = (uint32_t)o->rank, .seq = (uint32_t)o->seq,
		.micro_batch = (uint32_t)o->micro_batch, .grad_accum = (uint32_t)o->grad_accum,
		.no_checkpointing = o->no_checkpointing, .chunked_loss = o->chunked_loss,
	};
	struct report rep = { .o = o, .hw = &hw, .req = &req };
	int rc = CLI_OK;

	if (nmodels == 0) {
		cli_error("no model to train: give config.json files or GGUFs, e.g. sworn plan "
			  "--train "
			  "-H boards.ini --board NAME qwen3-14b/config.json");
		return CLI_USAGE;
	}
	if (nmodels > SW_FLEET_MAX_MODELS) {
		cli_error("%zu models: at most %u at once", nmodels, SW_FLEET_MAX_MODELS);
		return CLI_USAGE;
	}
	if (o->hardware->n == 0) {
		cli_error("--train needs the boards: give --hardware FILE (the inventory) and "
			  "--board NAME");
		return CLI_USAGE;
	}
	if (o->method && !parse_method(&req.method, o->method)) {
		cli_error("bad --method '%s': give qlora, lora or full", o->method);
		return CLI_USAGE;
	}
	if (o->target) {
		const char *bad = "";
		size_t badlen = 0;
		if (!sw_fleet_train_targets_parse(&req.targets, o->target, &bad, &badlen)) {
			cli_error("bad --target '%.*s': give a comma list of q, k, v, o, gate, up, "
				  "down, "
				  "experts (or all, attention, mlp)",
				  (int)badlen, bad);
			return CLI_USAGE;
		}
	}
	if (sw_fleet_hw_load_all(&hw, o->hardware->v, o->hardware->n, &err) != 0)
		return cli_fail(&err);
	rep.ngroups = o->boards->n ? o->boards->n : hw.ngroups;
	rep.groups = sw_xcalloc(rep.ngroups, sizeof(*rep.groups));
	for (size_t j = 0; j < rep.ngroups; j++) {
		rep.groups[j] =
			o->boards->n ? sw_fleet_hw_find_group(&hw, o->boards->v[j]) : (int)j;
		if (rep.groups[j] < 0) {
			cli_error("no board '%s' in %s: give a [group] name of the inventory",
				  o->boards->v[j], hw.source);
			rc = CLI_USAGE;
			goto cleanup;
		}
	}
	/* The sequence length comes from the corrections unless given; a
	 * folder that is no workspace just has none. */
	if (o->matter || !o->seq) {
		struct sw_err e2 = { 0 };
		if (corrections_data(&req.data, ctx, o->matter, &e2) != 0) {
			if (o->matter) {
				rc = cli_fail(&e2);
				goto cleanup;
			}
			/* A workspace whose corrections cannot be read: say why the
			 * length is the default. */
			if (ctx->have_ws && !cli_globals.quiet)
				fprintf(stderr,
					"sworn: no corrections read (%s): planning --seq 4096\n",
					e2.msg);
		}
	}
	rep.shapes = sw_xcalloc(nmodels, sizeof(*rep.shapes));
	for (size_t i = 0; i < nmodels; i++) {
		if (sw_fleet_train_shape_load(&rep.shapes[i], models[i], &err) != 0) {
			rc = cli_fail(&err);
			goto cleanup;
		}
		rep.nshapes++;
	}
	rep.fits = sw_xcalloc(rep.nshapes * rep.ngroups, sizeof(*rep.fits));
	size_t fitting = 0;
	for (size_t i = 0; i < rep.nshapes; i++)
		for (size_t j = 0; j < rep.ngroups; j++) {
			struct sw_fleet_train_fit *f = &rep.fits[i * rep.ngroups + j];
			sw_fleet_train_plan(f, &rep.shapes[i], &hw, rep.groups[j], &req);
			fitting += f->fits;
		}
	json_t *doc = NULL;
	if (o->json) {
		json_t *plans = json_array();
		for (size_t i = 0; i < rep.nshapes; i++)
			for (size_t j = 0; j < rep.ngroups; j++)
				json_array_append_new(
					plans, sw_fleet_train_fit_json(
						       &rep.shapes[i], &hw, rep.groups[j], &req,
						       &rep.fits[i * rep.ngroups + j]));
		doc = json_pack("{s:o, s:o, s:I}", "hardware", sw_json_str(hw.source), "plans",
				plans, "fitting", (json_int_t)fitting);
	}
	/* 1 when nothing fits anywhere: the question's "no". */
	rc = cli_emit(o->json, doc, report_text, &rep, fitting ? CLI_OK : CLI_NO);
cleanup:
	for (size_t i = 0; i < rep.nshapes; i++)
		sw_fleet_train_shape_release(&rep.shapes[i]);
	free(rep.shapes);
	free(rep.fits);
	free(rep.groups);
	sw_fleet_hw_release(&hw);
	return rc;
}
