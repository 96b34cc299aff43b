/* cmd_plan.c - `sworn plan`: fit, speed and placement of models on GPU
 * groups, with the llama-server commands and sworn.conf sections. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "fleet/fleet.h"

static const struct cli_opt opts[] = {
	{ "hardware", 'H', "FILE", "the GPU inventory (INI: [gpu \"N\"] and [group \"NAME\"])" },
	{ "detect", 0, NULL, "read the GPUs and NVLink boards from nvidia-smi instead" },
	{ "floor", 0, "TOK/S", "decode floor a group must meet to be preferred (default 40)" },
	{ "strict-floor", 0, NULL, "leave a model unplaced rather than below the floor" },
	{ "json", 0, NULL, "print the plan as JSON" },
	{ "svg", 0, "OUT", "draw the boards, the models on them and each GPU's memory to OUT" },
	{ "commands", 0, NULL, "print only the llama-server commands, one per line" },
	{ "conf", 0, NULL, "print only the sworn.conf endpoint and role sections" },
	{ "calibration", 0, "FILE", "speed constants to use instead of the built-in ones" },
	{ "port", 0, "N", "first port for the servers (default 8081)" },
	{ "server", 0, "PATH", "llama-server binary named in the commands (default llama-server)" },
};

static int write_file(const char *path, const struct sw_buf *b, struct sw_err *err)
{
	return sw_file_write_atomic(path, b->data, b->len, err);
}

static int run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	struct sw_err err = { 0 };
	struct sw_fleet_hw hw = { 0 };
	struct sw_fleet_calib *cal = NULL;
	struct sw_fleet_model *models = NULL;
	struct sw_fleet_request *reqs = NULL;
	struct sw_fleet_plan plan = { 0 };
	struct sw_buf out = SW_BUF_INIT;
	size_t n = (size_t)a->npos;
	const char *hwfile = cli_value(cmd, a, "hardware");
	const char *floor = cli_value(cmd, a, "floor");
	const char *port = cli_value(cmd, a, "port");
	struct sw_fleet_plan_opts po = {
		.strict_floor = cli_flag(cmd, a, "strict-floor"),
		.server = cli_value(cmd, a, "server"),
	};
	int rc = CLI_OK;
	(void)ctx;

	if (!hwfile == !cli_flag(cmd, a, "detect")) {
		cli_error("give the GPUs with --hardware FILE or --detect (one of them)");
		return CLI_USAGE;
	}
	if (floor) {
		if (!sw_parse_double(floor, 0, 100000, &po.floor_tps) || po.floor_tps <= 0 ||
		    po.floor_tps >= 100000) {
			cli_error("bad --floor '%s': give tokens per second, e.g. 40", floor);
			return CLI_USAGE;
		}
	}
	if (port) {
		uint64_t v;
		if (!sw_parse_u64(port, strlen(port), &v) || v < 1024 || v + n > 65535) {
			cli_error("bad --port '%s': give a port from 1024 to %zu", port, 65535 - n);
			return CLI_USAGE;
		}
		po.base_port = (uint16_t)v;
	}
	if (n > SW_FLEET_MAX_MODELS) {
		cli_error("%zu models: at most %u can be planned at once", n, SW_FLEET_MAX_MODELS);
		return CLI_USAGE;
	}
	if ((hwfile ? sw_fleet_hw_load(&hw, hwfile, &err) : sw_fleet_hw_detect(&hw, &err)) != 0 ||
	    sw_fleet_calib_load(&cal, cli_value(cmd, a, "calibration"), &err) != 0) {
		rc = cli_fail(&err);
		goto cleanup;
	}
	models = sw_xcalloc(n, sizeof(*models));
	reqs = sw_xcalloc(n, sizeof(*reqs));
	for (size_t i = 0; i < n; i++) {
		char *path = NULL;
		int e = sw_fleet_spec_parse(&path, &reqs[i], a->pos[i], &err);
		if (e == 0)
			e = sw_fleet_model_load(&models[i], path, &err);
		free(path);
		if (e != 0) {
			rc = cli_fail(&err);
			goto cleanup;
		}
	}
	if (sw_fleet_plan_make(&plan, &hw, models, reqs, n, &po, cal, &err) != 0) {
		rc = cli_fail(&err);
		goto cleanup;
	}
	const char *svg = cli_value(cmd, a, "svg");
	if (svg) {
		struct sw_buf s = SW_BUF_INIT;
		sw_fleet_plan_svg(&s, &plan);
		int e = write_file(svg, &s, &err);
		sw_buf_release(&s);
		if (e != 0) {
			rc = cli_fail(&err);
			goto cleanup;
		}
	}
	if (cli_flag(cmd, a, "json")) {
		json_t *doc = sw_fleet_plan_json(&plan);
		if (sw_json_print(stdout, doc, &err) != 0)
			rc = cli_fail(&err);
		json_decref(doc);
	} else if (cli_flag(cmd, a, "commands")) {
		for (size_t i = 0; i < n; i++)
			if (plan.placed[i].command)
				printf("%s\n", plan.placed[i].command);
	} else if (cli_flag(cmd, a, "conf")) {
		sw_fleet_plan_conf(&out, &plan);
		fputs(out.data, stdout);
	} else {
		sw_fleet_plan_text(&out, &plan);
		if (plan.nmodels > sw_fleet_plan_unplaced(&plan)) {
			sw_buf_adds(&out, "\nsworn.conf sections:\n\n");
			sw_fleet_plan_conf(&out, &plan);
		}
		fputs(out.data, stdout);
	}
	for (size_t i = 0; i < n; i++)
		if (plan.placed[i].group < 0)
			fprintf(stderr, "sworn: %s not placed: %s\n", models[i].name, plan.placed[i].reason);
	if (rc == CLI_OK && sw_fleet_plan_unplaced(&plan) > 0)
		rc = CLI_NO;
cleanup:
	sw_fleet_plan_release(&plan);
	for (size_t i = 0; i < n && models; i++)
		sw_fleet_model_release(&models[i]);
	for (size_t i = 0; i < n && reqs; i++) {
		free((char *)reqs[i].role);
		free((char *)reqs[i].group);
	}
	free(models);
	free(reqs);
	sw_fleet_calib_free(cal);
	sw_fleet_hw_release(&hw);
	sw_buf_release(&out);
	return rc;
}

const struct cli_command cli_cmd_plan = {
	.name = "plan",
	.usage = "(--hardware FILE | --detect) [--json] [--svg OUT] MODEL.gguf[:ctx=N,kv=T,role=R,np=N,group=G]...",
	.summary = "fit, speed and placement of models on GPU boards; llama-server commands",
	.description =
		"Each model goes to one group of GPUs (an NVLink board), never across groups,\n"
		"and each group serves one model.  Among the groups a model fits, the\n"
		"smallest that meets the decode floor is preferred; a model that meets the\n"
		"floor nowhere goes where it runs fastest, with a warning (or stays unplaced\n"
		"with --strict-floor).  Per model: ctx (total context, e.g. 32k; default 32k\n"
		"or the trained context), kv (cache type, default q8_0), np (slots), role\n"
		"(drafter, reasoner, reviewer: adds a [role] section), group (pin), port.\n\n"
		"Exit status: 0 every model placed, 1 some model not placed, 2 usage or input error.",
	.opts = opts,
	.nopts = SW_ARRAY_LEN(opts),
	.min_pos = 1,
	.max_pos = -1,
	.flags = 0,
	.run = run,
};
