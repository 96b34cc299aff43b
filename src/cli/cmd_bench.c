/* cmd_bench.c - `sworn bench [ENDPOINT]`: measured prompt and decode speed
 * at several context depths against the prediction. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "fleet/fleet.h"
#include "llm/llm.h"

struct bench_opts {
	const char *svg, *save_calibration, *model, *hardware, *group, *calibration;
	long long tokens, max_depth, timeout; /* 0: the defaults */
	bool json;
};

#define AT(f) offsetof(struct bench_opts, f)
static const struct cli_opt opts[] = {
	{ "json", 0, NULL, "print the measurements as JSON", CLI_FLAG, AT(json) },
	{ "svg", 0, "OUT", "plot tok/s against context depth, measured and predicted, to OUT",
	  CLI_PATH, AT(svg) },
	{ "save-calibration", 0, "FILE", "write speed constants scaled to this measurement to FILE",
	  CLI_PATH, AT(save_calibration) },
	{ "model", 0, "GGUF", "the model the server runs, for the prediction (FILE[:ctx=..,kv=..])",
	  CLI_PATH, AT(model) },
	{ "hardware", 'H', "FILE", "the inventory, for the prediction", CLI_PATH, AT(hardware) },
	{ "group", 0, "NAME", "the group of GPUs the server runs on, for the prediction", CLI_STRING,
	  AT(group) },
	{ "calibration", 0, "FILE", "speed constants to predict with instead of the built-in ones",
	  CLI_PATH, AT(calibration) },
	{ "tokens", 0, "N", "tokens to generate at each depth (default 64)", CLI_INT, AT(tokens), 1,
	  4096 },
	{ "max-depth", 0, "N", "stop at this context depth (default: as the context allows)", CLI_INT,
	  AT(max_depth), 1, SW_FLEET_MAX_CTX },
	{ "timeout", 0, "S", "seconds one request may take (default 600)", CLI_INT, AT(timeout), 1,
	  86400 },
};

static void bench_text(FILE *f, const void *ud)
{
	struct sw_buf out = SW_BUF_INIT;
	sw_fleet_bench_text(&out, ud);
	fputs(out.data, f);
	sw_buf_release(&out);
}

static int run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	(void)cmd;
	const struct bench_opts *o = a->opts;
	struct sw_err err = { 0 };
	struct sw_llm_config cfg = { 0 };
	struct sw_llm_client *client = NULL;
	struct sw_fleet_bench b = { 0 };
	struct sw_fleet_hw hw = { 0 };
	struct sw_fleet_model model = { 0 };
	struct sw_fleet_request req = { 0 };
	struct sw_fleet_calib *cal = NULL;
	struct sw_fleet_bench_opts bo = {
		.group = -1,
		.gen_tokens = (unsigned)o->tokens,
		.max_depth = (uint32_t)o->max_depth,
		.timeout_s = (unsigned)o->timeout,
	};
	struct sw_fleet_state st = { 0 };
	struct sw_fleet_bench_target t;
	bool have_st = false;
	char *fleet_dir = sw_path_join(ctx->ws.root, "fleet");
	char *model_path = NULL;
	const char *want = a->npos ? a->pos[0] : NULL;
	bool have_model = false, have_hw = false;
	int rc = CLI_OK;

	if (cli_llm_config_load(ctx, &cfg, &err) != 0) {
		rc = cli_fail(&err);
		goto done;
	}
	/* Without a fleet here, endpoints of sworn.conf only. */
	have_st = sw_fleet_state_here(&st, &ctx->ws.config, ctx->ws.root) == 0;
	if (sw_fleet_bench_target(&t, &cfg, have_st ? &st : NULL, want, &err) != 0) {
		rc = cli_fail(&err);
		goto done;
	}
	const char *endpoint = t.endpoint;
	/* The prediction: options first, then what the fleet started. */
	const char *mspec = o->model;
	const char *hwfile = o->hardware;
	const char *group = o->group;
	if (!mspec)
		mspec = t.spec;
	if (!hwfile)
		hwfile = t.hardware;
	if (!group)
		group = t.group;
	if (mspec && hwfile && group && *group) {
		if (sw_fleet_spec_parse(&model_path, &req, mspec, &err) != 0 ||
		    sw_fleet_model_load(&model, model_path, &err) != 0) {
			rc = cli_fail(&err);
			goto done;
		}
		have_model = true;
		if (sw_fleet_hw_load(&hw, hwfile, &err) != 0 ||
		    sw_fleet_calib_load(&cal, o->calibration, &err) != 0) {
			rc = cli_fail(&err);
			goto done;
		}
		have_hw = true;
		bo.group = sw_fleet_hw_find_group(&hw, group);
		if (bo.group < 0) {
			cli_error("no group '%s' in %s", group, hwfile);
			rc = CLI_USAGE;
			goto done;
		}
		bo.model = &model;
		bo.hw = &hw;
		bo.req = &req;
		bo.cal = cal;
	} else if (o->model || o->hardware || o->group) {
		cli_error("a prediction needs --model, --hardware and --group together");
		rc = CLI_USAGE;
		goto done;
	}
	if (sw_llm_client_new(&client, &cfg, endpoint, &err) != 0 ||
	    sw_fleet_bench_run(&b, client, endpoint, &bo, &err) != 0) {
		rc = cli_fail(&err);
		goto done;
	}
	const char *svg = o->svg;
	if (svg) {
		struct sw_buf s = SW_BUF_INIT;
		sw_fleet_bench_svg(&s, &b);
		int e = sw_file_write_atomic(svg, s.data, s.len, &err);
		sw_buf_release(&s);
		if (e != 0) {
			rc = cli_fail(&err);
			goto done;
		}
	}
	const char *save = o->save_calibration;
	if (save) {
		struct sw_buf base = SW_BUF_INIT, c = SW_BUF_INIT;
		const char *calfile = o->calibration;
		int e = calfile ? sw_file_read(&base, calfile, 1u << 20, &err) : 0;
		if (e == 0)
			e = sw_fleet_bench_calibration(&c, &b, calfile ? base.data : NULL, &err);
		if (e == 0)
			e = sw_file_write_atomic(save, c.data, c.len, &err);
		sw_buf_release(&base);
		sw_buf_release(&c);
		if (e != 0) {
			rc = cli_fail(&err);
			goto done;
		}
	}
	json_t *doc = sw_fleet_bench_json(&b);
	rc = cli_emit(o->json, json_incref(doc), bench_text, &b, CLI_OK);
	/* Every benchmark joins the fleet history. */
	json_object_set_new(doc, "event", json_string("bench"));
	if (t.server) {
		/* The fleet server measured: its history lines share the name. */
		json_object_set_new(doc, "server", sw_json_str(t.server->name));
		json_object_set_new(doc, "model_file", sw_json_str(sw_path_base(t.server->model)));
	}
	if (sw_fleet_history_append(fleet_dir, doc, &err) != 0)
		cli_error("cannot record the benchmark: %s", err.msg);
	json_decref(doc);
done:
	sw_fleet_bench_release(&b);
	sw_llm_client_free(client);
	sw_llm_config_release(&cfg);
	if (have_model)
		sw_fleet_model_release(&model);
	free((char *)req.role);
	free((char *)req.group);
	if (have_hw)
		sw_fleet_hw_release(&hw);
	sw_fleet_calib_free(cal);
	if (have_st)
		sw_fleet_state_release(&st);
	free(fleet_dir);
	free(model_path);
	return rc;
}

const struct cli_command cli_cmd_bench = {
	.name = "bench",
	.usage = "[ENDPOINT|URL] [--json] [--svg OUT] [--save-calibration FILE] "
		 "[--model GGUF --hardware FILE --group NAME]",
	.summary = "measured prompt and decode speed at several context depths vs the prediction",
	.description =
		"Sends generated legal prose at context depths of 1k, 4k, 16k and 32k tokens\n"
		"(those the server's context allows) and reads the server's own timings:\n"
		"prompt tokens/s and decode tokens/s at that depth.  Works against any\n"
		"server with llama-server's API (ik_llama.cpp's too).  ENDPOINT is an\n"
		"endpoint of sworn.conf, a server of `sworn fleet`, or a URL; without it the\n"
		"first ready fleet server.  For a fleet server the prediction comes from its\n"
		"plan; otherwise give --model, --hardware and --group.  The result joins the\n"
		"fleet history.  --save-calibration writes a calibration file (syntax of\n"
		"data/fleet/calibration.ini) whose constants reproduce this measurement, for\n"
		"`sworn plan --calibration`.",
	.opts = opts,
	.nopts = SW_ARRAY_LEN(opts),
	.opts_size = sizeof(struct bench_opts),
	.min_pos = 0,
	.max_pos = 1,
	.flags = CLI_NEEDS_WORKSPACE,
	.run = run,
};
