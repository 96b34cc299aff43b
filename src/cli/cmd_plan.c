/* cmd_plan.c - `sworn plan`: fit, speed and placement of models on GPU
 * groups, with the llama-server commands and sworn.conf sections. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/cli_plan.h"
#include "fleet/fleet.h"

struct plan_opts {
	struct cli_paths hardware; /* one inventory per host */
	const char *svg, *png, *calibration, *server, *write_inventory;
	double floor;     /* 0: the default */
	long long port;   /* 0: the default */
	bool detect, strict_floor, json, commands, conf, explain, allow_rpc;
	/* --train */
	struct cli_paths boards;
	const char *method, *target, *matter;
	long long rank, seq, micro_batch, grad_accum;
	bool train, compare, no_checkpointing, chunked_loss;
};

#define AT(f) offsetof(struct plan_opts, f)
static const struct cli_opt opts[] = {
	{ "hardware", 'H', "FILE", "the GPU inventory (INI: [gpu \"N\"] and [group \"NAME\"]); "
	  "once per host", CLI_PATHS, AT(hardware) },
	{ "detect", 0, NULL, "read the GPUs and NVLink boards from nvidia-smi instead", CLI_FLAG,
	  AT(detect) },
	{ "write-inventory", 0, "FILE", "with --detect: write this machine's inventory to FILE",
	  CLI_PATH, AT(write_inventory) },
	{ "allow-rpc", 0, NULL, "a model too large for any group may span hosts over llama.cpp's RPC",
	  CLI_FLAG, AT(allow_rpc) },
	{ "floor", 0, "TOK/S", "decode floor a group must meet to be preferred (default 40)",
	  CLI_DOUBLE, AT(floor), 0.01, 99999 },
	{ "strict-floor", 0, NULL, "leave a model unplaced rather than below the floor", CLI_FLAG,
	  AT(strict_floor) },
	{ "json", 0, NULL, "print the plan as JSON", CLI_FLAG, AT(json) },
	{ "svg", 0, "OUT", "draw the boards, the models on them and each GPU's memory to OUT",
	  CLI_PATH, AT(svg) },
	{ "png", 0, "OUT", "draw the same picture as a PNG image to OUT", CLI_PATH, AT(png) },
	{ "explain", 0, NULL, "after the plan, say what its terms mean (KV cache, slots, context, ...)",
	  CLI_FLAG, AT(explain) },
	{ "commands", 0, NULL, "print only the llama-server commands, one per line", CLI_FLAG,
	  AT(commands) },
	{ "conf", 0, NULL, "print only the sworn.conf endpoint and role sections", CLI_FLAG, AT(conf) },
	{ "calibration", 0, "FILE", "speed constants to use instead of the built-in ones", CLI_PATH,
	  AT(calibration) },
	{ "port", 0, "N", "first port for the servers (default 8081)", CLI_INT, AT(port), 1024, 65535 },
	{ "server", 0, "PATH", "llama-server binary named in the commands (default llama-server)",
	  CLI_PATH, AT(server) },
	{ "train", 0, NULL, "plan a fine-tune instead: memory per GPU, tokens/s, hours per epoch",
	  CLI_FLAG, AT(train) },
	{ "board", 0, "NAME", "with --train: a group of the inventory to train on; repeatable "
	  "(default: every group)", CLI_PATHS, AT(boards) },
	{ "compare", 0, NULL, "with --train: one table of every model on every board", CLI_FLAG,
	  AT(compare) },
	{ "method", 0, "M", "with --train: qlora (4-bit base, default), lora (16-bit base) or full",
	  CLI_STRING, AT(method), .values = "qlora lora full" },
	{ "rank", 0, "N", "with --train: LoRA rank (default 16)", CLI_INT, AT(rank), 1,
	  SW_FLEET_TRAIN_MAX_RANK },
	{ "target", 0, "LIST",
	  "with --train: modules to adapt, q,k,v,o,gate,up,down,experts "
	  "(default all but experts)",
	  CLI_STRING, AT(target) },
	{ "seq", 0, "N",
	  "with --train: sequence length (default: the longest correction that fits, "
	  "else the 95th percentile)",
	  CLI_INT, AT(seq), 16, SW_FLEET_TRAIN_MAX_SEQ },
	{ "micro-batch", 0, "N", "with --train: sequences per GPU per step (default 1)", CLI_INT,
	  AT(micro_batch), 1, 1024 },
	{ "grad-accum", 0, "N", "with --train: gradient accumulation steps (default 8)", CLI_INT,
	  AT(grad_accum), 1, 65536 },
	{ "no-checkpointing", 0, NULL,
	  "with --train: keep every layer's activations (faster, "
	  "more memory)",
	  CLI_FLAG, AT(no_checkpointing) },
	{ "chunked-loss", 0, NULL,
	  "with --train: the trainer computes the loss in chunks (Liger, "
	  "Unsloth, Cut Cross-Entropy), so the logits are never whole",
	  CLI_FLAG, AT(chunked_loss) },
	{ "matter", 'm', "MATTER",
	  "with --train: the matter whose corrections set the sequence "
	  "length and the epoch",
	  CLI_STRING, AT(matter) },
};

/* The terms of the report, for a reader who has never run llama-server. */
static const char explain_text[] =
	"\nWhat the terms mean:\n"
	"  tokens/s      how fast a model writes its answer: a token is about three\n"
	"                quarters of an English word, so 40 tokens/s is a page of text\n"
	"                in about ten seconds.  \"prompt\" tokens/s is how fast it reads\n"
	"                what it is given (the brief and the evidence) before answering.\n"
	"  context       how much text a model can hold at once (prompt and answer\n"
	"                together), in tokens.  \"@1k\" and \"@16k\" are the writing\n"
	"                speed with 1,000 or 16,000 tokens already in it (about 2 and\n"
	"                30 pages): a model slows as its context fills.\n"
	"  slots         how many requests a server answers at the same time (-np).\n"
	"                The context is shared: 32k over 2 slots is 16k for each.\n"
	"  KV cache      the model's working memory of the context it holds, kept on\n"
	"                the GPUs beside the weights; it grows with context and slots.\n"
	"  kv=q8_0       the KV cache's quantisation: stored in 8 bits (q8_0) or 4\n"
	"                (q4_0) instead of 16 (f16), which halves or quarters its\n"
	"                memory at a small cost in accuracy.\n"
	"  weights       the model itself, as stored in its GGUF file (Q8_0: about 8\n"
	"                bits per parameter).\n"
	"  tensor split  how the model's layers are divided among the GPUs of its\n"
	"                group (-ts), so that each GPU's share fits its memory.\n"
	"  compute, reserve  working buffers, and memory kept free for the GPU\n"
	"                driver and a safety margin.\n"
	"  floor         the writing speed a group must reach to be preferred; below\n"
	"                it, drafting feels slow.\n"
	"  risk          a GPU more than 97% full: a longer prompt or a driver that\n"
	"                keeps more for itself may not fit, and the server would fail.\n"
	"  not placed    the model does not fit any group as asked; the reason says\n"
	"                what would make it fit, and no speed is given for it.\n";

static int write_file(const char *path, const struct sw_buf *b, struct sw_err *err)
{
	return sw_file_write_atomic(path, b->data, b->len, err);
}

static int run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	const struct plan_opts *o = a->opts;
	struct sw_err err = { 0 };
	struct sw_fleet_hw hw = { 0 };
	struct sw_fleet_calib *cal = NULL;
	struct sw_fleet_model *models = NULL;
	struct sw_fleet_request *reqs = NULL;
	struct sw_fleet_plan plan = { 0 };
	struct sw_buf out = SW_BUF_INIT;
	size_t n = (size_t)a->npos;
	bool hwfile = o->hardware.n > 0;
	struct sw_fleet_plan_opts po = {
		.allow_rpc = o->allow_rpc,
		.strict_floor = o->strict_floor,
		.server = o->server,
		.floor_tps = o->floor,
		.base_port = (uint16_t)o->port,
	};
	json_t *doc = NULL;
	int rc = CLI_OK;

	if (o->train) {
		struct cli_plan_train t = {
			.hardware = &o->hardware, .boards = &o->boards, .method = o->method,
			.target = o->target, .matter = o->matter, .rank = o->rank, .seq = o->seq,
			.micro_batch = o->micro_batch, .grad_accum = o->grad_accum,
			.no_checkpointing = o->no_checkpointing, .chunked_loss = o->chunked_loss,
			.compare = o->compare, .json = o->json,
		};
		return cli_plan_train(ctx, &t, a->pos, n);
	}
	if (o->boards.n || o->compare || o->method || o->target || o->matter || o->rank || o->seq ||
	    o->micro_batch || o->grad_accum || o->no_checkpointing || o->chunked_loss) {
		cli_error("--board, --compare, --method, --rank, --target, --seq, --micro-batch, "
			  "--grad-accum, --no-checkpointing, --chunked-loss and --matter plan a "
			  "fine-tune: add --train");
		return CLI_USAGE;
	}
	if (!hwfile == !o->detect) {
		cli_error("give the GPUs with --hardware FILE or --detect (one of them; --hardware once "
			  "per host)");
		return CLI_USAGE;
	}
	if (o->write_inventory && !o->detect) {
		cli_error("--write-inventory writes what --detect reads: give --detect");
		return CLI_USAGE;
	}
	if (n == 0 && !o->write_inventory) {
		cli_error("no model to plan: usage: sworn plan %s", cmd->usage);
		return CLI_USAGE;
	}
	/* One port per model, all below 65536. */
	if (o->port && (size_t)o->port + n > 65535) {
		cli_error("bad --port '%lld': give a port from 1024 to %zu", o->port, 65535 - n);
		return CLI_USAGE;
	}
	if (n > SW_FLEET_MAX_MODELS) {
		cli_error("%zu models: at most %u can be planned at once", n, SW_FLEET_MAX_MODELS);
		return CLI_USAGE;
	}
	if ((hwfile ? sw_fleet_hw_load_all(&hw, o->hardware.v, o->hardware.n, &err)
		    : sw_fleet_hw_detect(&hw, &err)) != 0 ||
	    sw_fleet_calib_load(&cal, o->calibration, &err) != 0) {
		rc = cli_fail(&err);
		goto cleanup;
	}
	if (o->write_inventory) {
		sw_fleet_hw_inventory_text(&out, &hw);
		if (write_file(o->write_inventory, &out, &err) != 0) {
			rc = cli_fail(&err);
			goto cleanup;
		}
		if (!cli_globals.quiet)
			fprintf(stderr, "sworn: wrote the inventory of %zu GPUs to %s: set [host] address "
				"there, then plan with one --hardware per host\n", hw.ngpus,
				o->write_inventory);
		sw_buf_reset(&out);
		if (n == 0)
			goto cleanup;
	}
	/* The commands fit the build that will run them: its own --help says
	 * which flags it knows.  None to read: the plan says what they need. */
	struct sw_fleet_server_caps caps;
	if (sw_fleet_server_caps_read(&caps, o->server ? o->server : "llama-server", NULL) == 0)
		po.caps = &caps;
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
	const char *svg = o->svg;
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
	if (o->png && sw_fleet_plan_png(&plan, o->png, &err) != 0) {
		rc = cli_fail(&err);
		goto cleanup;
	}
	if (o->json) {
		doc = sw_fleet_plan_json(&plan);
	} else if (o->commands) {
		for (size_t i = 0; i < n; i++)
			if (plan.placed[i].command)
				sw_term_printf(stdout, "%s\n", plan.placed[i].command);
	} else if (o->conf) {
		sw_fleet_plan_conf(&out, &plan);
		sw_term_write(stdout, out.data, out.len);
	} else {
		sw_fleet_plan_text(&out, &plan);
		if (plan.nmodels > sw_fleet_plan_unplaced(&plan)) {
			sw_buf_adds(&out, "\nsworn.conf sections:\n\n");
			sw_fleet_plan_conf(&out, &plan);
		}
		if (o->explain)
			sw_buf_adds(&out, explain_text);
		/* Model names and paths come from the GGUF files. */
		sw_term_write(stdout, out.data, out.len);
	}
	rc = cli_emit(o->json, doc, NULL, NULL, sw_fleet_plan_unplaced(&plan) > 0 ? CLI_NO : CLI_OK);
	for (size_t i = 0; i < n; i++)
		if (plan.placed[i].group < 0)
			sw_term_printf(stderr, "sworn: %s not placed: %s\n", models[i].name,
				       plan.placed[i].reason);
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
	.usage = "(--hardware FILE... | --detect [--write-inventory FILE]) [--allow-rpc] [--json] "
		 "[--explain] [--svg OUT] [--png OUT] "
		 "MODEL.gguf[:ctx=N,kv=T,role=R,np=N,group=G]... | --train --hardware FILE "
		 "[--board NAME]... [--compare] MODEL(config.json|.gguf)...",
	.summary = "fit, speed and placement of models on GPU boards; llama-server commands",
	.description =
		"Each model goes to one group of GPUs (an NVLink board), never across groups,\n"
		"and each group serves one model.  Among the groups a model fits, the\n"
		"smallest that meets the decode floor is preferred; a model that meets the\n"
		"floor nowhere goes where it runs fastest, with a warning (or stays unplaced\n"
		"with --strict-floor).  With one --hardware per host, a group stays on its\n"
		"host and each server's command and sworn.conf section use that host's\n"
		"address; --allow-rpc lets a model that fits no group span two hosts through\n"
		"llama.cpp's rpc-server, slower by the network link the inventories give\n"
		"([link \"box1-box2\"]).  Per model: ctx (total context, e.g. 32k; default 32k\n"
		"or the trained context), kv (cache type, default q8_0), np (slots), role\n"
		"(drafter, reasoner, reviewer: adds a [role] section), group (pin), port.\n\n"
		"With --train it plans a fine-tune instead (QLoRA by default) of each model\n"
		"(its Hugging Face config.json, or a GGUF for the shapes) on each --board:\n"
		"memory per GPU by term, data parallel or a layer split, the attention\n"
		"kernel and precision the GPUs run, tokens/s and hours per epoch of the\n"
		"matter's corrections (whose longest, or 95th percentile, sets --seq), with\n"
		"warnings for bf16 models on fp16-only GPUs, MoE experts and Volta support.\n"
		"--compare prints one table of every model on every board.\n\n"
		"Exit status: 0 every model placed (--train: some model fits), 1 some model\n"
		"not placed (--train: none fits), 2 usage or input error.",
	.opts = opts,
	.nopts = SW_ARRAY_LEN(opts),
	.opts_size = sizeof(struct plan_opts),
	.min_pos = 0,
	.max_pos = -1,
	.flags = 0,
	.run = run,
};
