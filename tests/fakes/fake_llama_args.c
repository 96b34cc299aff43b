/*
 * fake_llama_args.c - the fake llama-server's command line and answer
 * script (see fake_llama_server.c for both), read into opt.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "fake_llama.h"

static const char *const mode_names[] = {
	"ok", "ping", "slow", "hang", "reset", "error-before", "error-mid", "no-done",
	"busy", "too-long", "garbage", "huge", "redirect",
};

struct fake_opt opt = {
	.host = "127.0.0.1", .port = 8080, .model = "models/fake-7b-q4_k_m.gguf",
	.n_ctx = 4096, .n_parallel = 1, .slots = true, .mode = M_OK,
};

static int parse_mode(const char *s)
{
	for (size_t i = 0; i < SW_ARRAY_LEN(mode_names); i++)
		if (strcmp(s, mode_names[i]) == 0)
			return (int)i;
	return -1;
}

static long num(const char *flag, const char *v)
{
	char *end = NULL;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (errno != 0 || end == v || *end != '\0') {
		fprintf(stderr, "fake-llama-server: %s wants a number, not '%s'\n", flag, v);
		exit(2);
	}
	return n;
}

static char *unescape(const char *s)
{
	struct sw_buf b = SW_BUF_INIT;
	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			sw_buf_addc(&b, *s == 'n' ? '\n' : *s == 't' ? '\t' : *s);
		} else {
			sw_buf_addc(&b, *s);
		}
	}
	return sw_buf_detach(&b, NULL);
}

static void load_script(const char *path)
{
	struct sw_config cfg;
	struct sw_err err = { 0 };

	if (sw_config_load(&cfg, path, &err) != 0) {
		fprintf(stderr, "fake-llama-server: %s\n", err.msg);
		exit(2);
	}
	for (size_t i = 0; i < cfg.n; i++) {
		const struct sw_config_entry *e = &cfg.entries[i];
		if (strcmp(e->section, "answer") != 0 || !e->subsection)
			continue;
		/* One answer per section, in the order the sections appear. */
		struct answer *a = NULL;
		if (opt.n_answers > 0 && i > 0 && cfg.entries[i - 1].subsection &&
		    strcmp(cfg.entries[i - 1].section, "answer") == 0 &&
		    strcmp(cfg.entries[i - 1].subsection, e->subsection) == 0)
			a = &opt.answers[opt.n_answers - 1];
		if (!a) {
			opt.answers = sw_xrealloc(opt.answers, (opt.n_answers + 1) * sizeof(*a));
			a = &opt.answers[opt.n_answers++];
			memset(a, 0, sizeof(*a));
			a->mode = -1;
		}
		if (strcmp(e->key, "seq") == 0)
			a->seq = num("seq", e->value);
		else if (strcmp(e->key, "match") == 0)
			a->match = unescape(e->value);
		else if (strcmp(e->key, "text") == 0)
			a->text = unescape(e->value);
		else if (strcmp(e->key, "file") == 0) {
			/* the answer's text from a file beside the script */
			struct sw_buf t = SW_BUF_INIT;
			struct sw_err ferr = { 0 };
			char *dir = sw_path_dir(path);
			char *fp = e->value[0] == '/' ? sw_xstrdup(e->value) : sw_path_join(dir, e->value);
			if (sw_file_read(&t, fp, 1u << 20, &ferr) != 0) {
				fprintf(stderr, "fake-llama-server: %s:%d: %s\n", path, e->line, ferr.msg);
				exit(2);
			}
			free(dir);
			free(fp);
			free(a->text);
			a->text = sw_buf_detach(&t, NULL);
		} else if (strcmp(e->key, "finish") == 0)
			a->finish = sw_xstrdup(e->value);
		else if (strcmp(e->key, "reasoning") == 0)
			a->reasoning = unescape(e->value);
		else if (strcmp(e->key, "reasoning_key") == 0)
			a->reasoning_key = sw_xstrdup(e->value);
		else if (strcmp(e->key, "mode") == 0 && (a->mode = parse_mode(e->value)) < 0) {
			fprintf(stderr, "fake-llama-server: %s:%d: unknown mode '%s'\n", path,
				e->line, e->value);
			exit(2);
		}
	}
	sw_config_release(&cfg);
}

/* A value follows an unknown flag unless the next word is itself a flag
 * (negative numbers are values: --sse-ping-interval -1). */
static bool is_value(const char *s)
{
	return s && (s[0] != '-' || (s[1] >= '0' && s[1] <= '9'));
}

/* --version and --help as a recent llama-server prints them (on stderr),
 * abridged to the flags a supervisor asks about. */
static void version_or_help(const char *a)
{
	if (!strcmp(a, "--version")) {
		fputs("version: 0 (fake)\nbuilt with a C compiler for the tests\n", stderr);
		exit(0);
	}
	if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
		fputs("----- common params -----\n\n"
		      "-c,    --ctx-size N                     size of the prompt context\n"
		      "-np,   --parallel N                     number of server slots\n"
		      "-fa,   --flash-attn [on|off|auto]       set Flash Attention use ('on', 'off', or 'auto', default: 'auto')\n"
		      "-ctk,  --cache-type-k TYPE              KV cache data type for K\n"
		      "-ts,   --tensor-split N0,N1,N2,...      fraction of the model to offload to each GPU\n"
		      "-fit,  --fit [on|off]                   whether to adjust unset arguments to fit in device memory\n"
		      "--host HOST                             ip address to listen\n"
		      "--port PORT                             port to listen (default: 8080)\n"
		      "-rea,  --reasoning [on|off|auto]        Use reasoning/thinking in the chat\n"
		      "--reasoning-budget N                    token budget for thinking: -1 for "
		      "unrestricted\n",
		      stderr);
		exit(0);
	}
}

void fake_parse_args(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		bool has_v = is_value(v);
		version_or_help(a);
		if (!strcmp(a, "--host") && has_v) {
			opt.host = v;
			i++;
		} else if (!strcmp(a, "--port") && has_v) {
			opt.port = (unsigned)num(a, v);
			i++;
		} else if ((!strcmp(a, "-m") || !strcmp(a, "--model")) && has_v) {
			opt.model = v;
			i++;
		} else if ((!strcmp(a, "-a") || !strcmp(a, "--alias")) && has_v) {
			opt.alias = v;
			i++;
		} else if ((!strcmp(a, "-c") || !strcmp(a, "--ctx-size")) && has_v) {
			opt.n_ctx = num(a, v);
			i++;
		} else if ((!strcmp(a, "-np") || !strcmp(a, "--parallel")) && has_v) {
			opt.n_parallel = num(a, v) > 0 ? num(a, v) : 1;
			i++;
		} else if (!strcmp(a, "--api-key") && has_v) {
			opt.api_key = sw_xstrdup(v);
			i++;
		} else if (!strcmp(a, "--api-key-file") && has_v) {
			struct sw_buf b = SW_BUF_INIT;
			struct sw_err err = { 0 };
			if (sw_file_read(&b, v, 4096, &err) != 0) {
				fprintf(stderr, "fake-llama-server: %s\n", err.msg);
				exit(1);
			}
			opt.api_key = sw_xstrdup(sw_trim(b.data));
			sw_buf_release(&b);
			i++;
		} else if (!strcmp(a, "--metrics"))
			opt.metrics = true;
		else if (!strcmp(a, "--no-slots"))
			opt.slots = false;
		else if (!strcmp(a, "--slots"))
			opt.slots = true;
		else if (!strcmp(a, "--props"))
			opt.props = true;
		else if (!strcmp(a, "--fake-listen-delay") && v) {
			opt.listen_delay_ms = num(a, v);
			i++;
		} else if (!strcmp(a, "--fake-loading") && v) {
			opt.loading_ms = num(a, v);
			i++;
		} else if (!strcmp(a, "--fake-loading-requests") && v) {
			opt.loading_requests = num(a, v);
			i++;
		} else if (!strcmp(a, "--fake-old-health"))
			opt.old_health = true;
		else if (!strcmp(a, "--fake-load-fail"))
			opt.load_fail = true;
		else if (!strcmp(a, "--fake-template-caps"))
			opt.template_caps = true;
		else if (!strcmp(a, "--fake-endless"))
			opt.endless = true;
		else if (!strcmp(a, "--fake-stamp"))
			opt.stamp = true;
		else if (!strcmp(a, "--fake-token-delay-us") && v) {
			opt.token_delay_us = num(a, v);
			i++;
		} else if (!strcmp(a, "--fake-mode") && v) {
			int m = parse_mode(v);
			if (m < 0) {
				fprintf(stderr, "fake-llama-server: unknown mode '%s'\n", v);
				exit(2);
			}
			opt.mode = (enum mode)m;
			i++;
		} else if (!strcmp(a, "--fake-token-delay") && v) {
			opt.token_delay_ms = num(a, v);
			i++;
		} else if (!strcmp(a, "--fake-script") && v) {
			load_script(v);
			i++;
		} else if (!strcmp(a, "--fake-log") && v) {
			opt.log_path = v;
			i++;
		} else if (!strcmp(a, "--fake-cut-file") && v) {
			opt.cut_path = v;
			i++;
		} else if (!strcmp(a, "--fake-peak-file") && v) {
			opt.peak_path = v;
			i++;
		} else if (!strcmp(a, "--fake-port-file") && v) {
			opt.port_file = v;
			i++;
		} else if (!strncmp(a, "--fake-", 7)) {
			fprintf(stderr, "fake-llama-server: unknown option '%s'\n", a);
			exit(2);
		} else if (a[0] == '-' && has_v)
			i++; /* a llama-server flag we do not model, with its value */
	}
}
