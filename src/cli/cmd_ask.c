/* cmd_ask.c - `sworn ask ROLE PROMPT`: one streamed completion from the
 * endpoint of a role, with the server's timings at the end. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "llm/llm.h"

/* A prompt from stdin is typed or piped by a person; more is a mistake. */
#define ASK_MAX_PROMPT (8u << 20)
#define ASK_MAX_SCHEMA (1u << 20)

struct ask_opts {
	const char *system, *schema;
	long long max_tokens; /* 0: the role's */
	double temperature;   /* < 0: the role's */
	bool no_stream, json;
};

static const struct ask_opts defaults = { .temperature = -1 };

#define AT(f) offsetof(struct ask_opts, f)
static const struct cli_opt opts[] = {
	{ "system", 's', "TEXT", "a system message before the prompt", CLI_STRING, AT(system) },
	{ "max-tokens", 'n', "N", "stop after N tokens (default: the role's max_tokens)", CLI_INT,
	  AT(max_tokens), 1, 10000000 },
	{ "temperature", 't', "T", "sampling temperature (default: the role's)", CLI_DOUBLE,
	  AT(temperature), 0, 5 },
	{ "schema", 0, "FILE", "a JSON Schema the answer must follow", CLI_PATH, AT(schema) },
	{ "no-stream", 0, NULL, "wait for the whole answer instead of streaming it", CLI_FLAG,
	  AT(no_stream) },
	{ "json", 0, NULL, "print the answer and its record as JSON (no streaming)", CLI_FLAG,
	  AT(json) },
};

/* Ctrl-C cancels the call (the flag is an atomic store, safe in a handler)
 * so the timings of what arrived can still be printed. */
static struct sw_llm_cancel cancel;

static void on_sigint(int sig)
{
	(void)sig;
	sw_llm_cancel_request(&cancel);
}

/* The answer as it streams: a model's text, cleaned of control sequences
 * (base.h, "terminal"). */
struct shown {
	struct sw_term_stream clean;
	bool ends_nl;
};

static void on_text(void *user, const char *text, size_t len)
{
	struct shown *sh = user;
	sw_term_stream_write(&sh->clean, stdout, text, len);
	fflush(stdout);
	sh->ends_nl = text[len - 1] == '\n';
}

static void print_timings(const struct sw_llm_result *r)
{
	const struct sw_llm_timings *t = &r->timings;
	if (cli_globals.quiet)
		return; /* timings are chatter, not the answer */
	fprintf(stderr, "sworn: %s%s", r->endpoint ? r->endpoint : "?",
		r->fell_back ? " (fallback)" : "");
	if (t->have)
		fprintf(stderr, " · prompt %ld tok in %.0f ms (%.1f tok/s) · answer %ld tok in %.0f ms (%.1f tok/s)",
			t->prompt_n, t->prompt_ms, t->prompt_per_second, t->predicted_n,
			t->predicted_ms, t->predicted_per_second);
	else
		fputs(" · the server sent no timings", stderr);
	fprintf(stderr, " · %s · %.2f s\n", r->finish_reason ? r->finish_reason : "unfinished",
		r->total_s);
	if (r->reasoning_note)
		fprintf(stderr, "sworn: %s\n", r->reasoning_note);
}

/* The text mode's end: the answer has streamed; its timings go to stderr. */
static void timings_text(FILE *f, const void *ud)
{
	(void)f;
	print_timings(ud);
}

static json_t *result_json(const char *role, const struct sw_llm_result *r)
{
	const struct sw_llm_timings *t = &r->timings;
	json_t *j = json_pack("{s:o, s:o, s:b, s:o, s:o, s:o, s:o, s:o, s:i, s:f, s:f}",
		"role", sw_json_str(role),
		"endpoint", r->endpoint ? sw_json_str(r->endpoint) : json_null(),
		"fell_back", r->fell_back,
		"address", r->address ? sw_json_str(r->address) : json_null(),
		"model", r->model ? sw_json_str(r->model) : json_null(),
		"content", sw_json_strn(r->content ? r->content : "", r->content_len),
		"reasoning", r->reasoning ? sw_json_str(r->reasoning) : json_null(),
		"finish_reason", r->finish_reason ? sw_json_str(r->finish_reason) : json_null(),
		"attempts", (int)r->attempts, "first_text_s", r->first_text_s, "total_s", r->total_s);
	json_object_set_new(j, "timings", t->have ? json_pack(
		"{s:I, s:I, s:f, s:f, s:I, s:f, s:f}", "cache_n", (json_int_t)t->cache_n,
		"prompt_n", (json_int_t)t->prompt_n, "prompt_ms", t->prompt_ms,
		"prompt_per_second", t->prompt_per_second, "predicted_n", (json_int_t)t->predicted_n,
		"predicted_ms", t->predicted_ms, "predicted_per_second", t->predicted_per_second)
		: json_null());
	json_object_set_new(j, "reasoning_note",
			    r->reasoning_note ? sw_json_str(r->reasoning_note) : json_null());
	json_object_set_new(j, "usage", r->usage.have ? json_pack("{s:I, s:I, s:I}",
		"prompt_tokens", (json_int_t)r->usage.prompt_tokens,
		"completion_tokens", (json_int_t)r->usage.completion_tokens,
		"total_tokens", (json_int_t)r->usage.total_tokens) : json_null());
	return j;
}

static int run(struct cli_ctx *ctx, const struct cli_command *cmd, const struct cli_args *a)
{
	(void)cmd;
	const struct ask_opts *o = a->opts;
	struct sw_err err = { 0 };
	struct sw_llm_config cfg = { 0 };
	struct sw_llm_result r = { 0 };
	struct sw_llm_request rq;
	struct sw_buf prompt = SW_BUF_INIT, schema = SW_BUF_INIT;
	struct sigaction sa, old_sa;
	const char *role = a->pos[0];
	bool json = o->json;
	struct shown shown = { .ends_nl = true };
	char *speed_log = NULL;
	int rc = CLI_OK;

	sw_llm_request_init(&rq);
	if (o->max_tokens)
		rq.max_tokens = (long)o->max_tokens;
	if (o->temperature >= 0)
		rq.temperature = o->temperature;
	for (int i = 1; i < a->npos; i++) {
		if (i > 1)
			sw_buf_addc(&prompt, ' ');
		sw_buf_adds(&prompt, a->pos[i]);
	}
	if (strcmp(prompt.data, "-") == 0) {
		sw_buf_reset(&prompt);
		if (cli_read_stdin(&prompt, ASK_MAX_PROMPT, "the prompt", &err) != 0) {
			rc = cli_fail(&err);
			goto cleanup;
		}
	}
	if (prompt.len == 0) {
		cli_error("the prompt is empty");
		rc = CLI_USAGE;
		goto cleanup;
	}
	if (o->schema) {
		if (sw_file_read(&schema, o->schema, ASK_MAX_SCHEMA, &err) != 0) {
			rc = cli_fail(&err);
			goto cleanup;
		}
		rq.json_schema = schema.data;
	}
	if (cli_llm_config_load(ctx, &cfg, &err) != 0) {
		rc = cli_fail(&err);
		goto cleanup;
	}

	struct sw_llm_message msgs[2];
	size_t n = 0;
	if (o->system)
		msgs[n++] = (struct sw_llm_message){ "system", o->system };
	msgs[n++] = (struct sw_llm_message){ "user", prompt.data };
	rq.messages = msgs;
	rq.n_messages = n;
	rq.stream = !json && !o->no_stream;
	rq.cancel = &cancel;
	if (!json) {
		rq.on_text = on_text;
		rq.user = &shown;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_sa);
	int crc = sw_llm_chat_role(&r, &cfg, role, &rq, &err);
	sigaction(SIGINT, &old_sa, NULL);
	sw_term_stream_end(&shown.clean, stdout);
	if (!json && !shown.ends_nl)
		putchar('\n');
	fflush(stdout);

	speed_log = sw_path_join(ctx->ws.root, "llm-speed.log");
	if (crc == 0) {
		struct sw_err serr = { 0 };
		/* A speedometer that cannot write is no reason to fail the answer. */
		if (sw_llm_stats_append(speed_log, &r, &serr) != 0)
			cli_error("warning: %s", serr.msg);
	}
	if (crc != 0) {
		if (r.content_len > 0)
			print_timings(&r);
		rc = cli_fail(&err);
	} else {
		rc = cli_emit(json, json ? result_json(role, &r) : NULL, timings_text, &r, CLI_OK);
	}
cleanup:
	free(speed_log);
	sw_llm_result_release(&r);
	sw_llm_config_release(&cfg);
	sw_buf_release(&prompt);
	sw_buf_release(&schema);
	return rc;
}

const struct cli_command cli_cmd_ask = {
	.name = "ask",
	.usage = "[--system TEXT] [--max-tokens N] [--schema FILE] [--json] ROLE PROMPT...",
	.summary = "one streamed completion from a role's endpoint, with its timings",
	.description =
		"ROLE is a [role \"NAME\"] section of sworn.conf (drafter, reasoner,\n"
		"reviewer, or your own).  The answer streams to stdout; the endpoint, the\n"
		"server's prompt and decode timings and the finish reason follow on stderr.\n"
		"PROMPT '-' reads the prompt from stdin.  Ctrl-C stops the answer.\n\n"
		"The endpoint must pass the local-only policy ([policy] in sworn.conf);\n"
		"nothing else is ever tried unless the role names a local fallback.\n\n"
		"Exit status: 0 answered, 1 refused by the policy or no such role,\n"
		"2 on a usage error or a failed call.",
	.opts = opts,
	.nopts = SW_ARRAY_LEN(opts),
	.opts_size = sizeof(struct ask_opts),
	.opts_init = &defaults,
	.min_pos = 2,
	.max_pos = -1,
	.flags = CLI_NEEDS_WORKSPACE,
	.run = run,
};
