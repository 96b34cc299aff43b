/* cmd_plan.c - `sworn plan`: fit, speed and placement of models on GPU
 * groups, with the llama-server commands and sworn.conf sections. */
#include <errno.h>
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

static bool parse_num(const char *s, uint64_t max, uint64_t *out)
{
	size_t len = strlen(s);
	uint64_t mult = 1;
	if (len && (s[len - 1] == 'k' || s[len - 1] == 'K')) {
		mult = 1024;
		len--;
	}
	uint64_t v;
	if (!sw_parse_u64(s, len, &v) || v > max / mult)
		return false;
	*out = v * mult;
	return true;
}

/* "model.gguf:ctx=32k,kv=q8_0,role=drafter,np=2,group=board-a,port=8090".
 * The options start at the first ':' that is followed by a known key, so
 * paths with colons still work.  path is a fresh string; caller frees. */
static int parse_spec(char **path, struct sw_fleet_request *r, const char *spec, struct sw_err *err)
{
	static const char *const keys[] = { "ctx=", "kv=", "role=", "np=", "slots=", "group=", "port=" };
	const char *opt = NULL;
	memset(r, 0, sizeof(*r));
	r->kv = SW_KV_Q8_0;
	r->slots = 1;
	for (const char *c = strchr(spec, ':'); c && !opt; c = strchr(c + 1, ':'))
		for (size_t k = 0; k < SW_ARRAY_LEN(keys); k++)
			if (strncmp(c + 1, keys[k], strlen(keys[k])) == 0)
				opt = c;
	*path = opt ? sw_xstrndup(spec, (size_t)(opt - spec)) : sw_xstrdup(spec);
	if (!opt)
		return 0;
	char *list = sw_xstrdup(opt + 1), *p = list;
	int rc = 0;
	while (p && rc == 0) {
		char *next = strchr(p, ',');
		if (next)
			*next++ = '\0';
		char *eq = strchr(p, '=');
		uint64_t v;
		if (!eq) {
			rc = sw_err_set(err, SW_EUSAGE, "'%s': expected key=value in '%s'", spec, p);
			break;
		}
		*eq = '\0';
		const char *val = eq + 1;
		if (strcmp(p, "ctx") == 0 && parse_num(val, SW_FLEET_MAX_CTX, &v) && v > 0)
			r->ctx = (uint32_t)v;
		else if (strcmp(p, "kv") == 0 && sw_fleet_kv_parse(&r->kv, val))
			;
		else if (strcmp(p, "role") == 0 && *val)
			r->role = val;
		else if ((strcmp(p, "np") == 0 || strcmp(p, "slots") == 0) &&
			 parse_num(val, SW_FLEET_MAX_SLOTS, &v) && v > 0)
			r->slots = (uint32_t)v;
		else if (strcmp(p, "group") == 0 && *val)
			r->group = val;
		else if (strcmp(p, "port") == 0 && parse_num(val, 65535, &v) && v >= 1024)
			r->port = (uint16_t)v;
		else
			rc = sw_err_set(err, SW_EUSAGE,
					"'%s': bad option '%s=%s' (ctx=N[k], kv=f16|q8_0|q4_0|..., role=NAME, "
					"np=N, group=NAME, port=N)", spec, p, val);
		p = next;
	}
	/* role and group point into list, freed below: the request gets its
	 * own copies, which run() frees. */
	if (rc == 0) {
		if (r->role)
			r->role = sw_xstrdup(r->role);
		if (r->group)
			r->group = sw_xstrdup(r->group);
	}
	free(list);
	return rc;
}

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
		char *end;
		errno = 0;
		po.floor_tps = strtod(floor, &end);
		if (errno || *end || !(po.floor_tps > 0 && po.floor_tps < 100000)) {
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
		int e = parse_spec(&path, &reqs[i], a->pos[i], &err);
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
