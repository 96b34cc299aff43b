/*
 * fake_llama.h - what the fake llama-server's two halves share: its options
 * (fake_llama_args.c reads them from the command line and the script) and
 * the HTTP side that answers by them (fake_llama_server.c).  Test code only.
 */
#ifndef SWORN_TESTS_FAKE_LLAMA_H
#define SWORN_TESTS_FAKE_LLAMA_H

#include <stdbool.h>
#include <stddef.h>

enum mode {
	M_OK, M_PING, M_SLOW, M_HANG, M_RESET, M_ERROR_BEFORE, M_ERROR_MID, M_NO_DONE,
	M_BUSY, M_TOO_LONG, M_GARBAGE, M_HUGE, M_REDIRECT,
};

struct answer {
	long seq;      /* 0: any */
	char *match;   /* NULL: any */
	char *text;
	int mode;      /* -1: the server's */
	char *finish;
	char *reasoning;     /* thinking sent before the text, or NULL */
	char *reasoning_key; /* its key: reasoning_content (the default) or
				reasoning */
};

struct fake_opt {
	const char *host;
	unsigned port;
	const char *model;
	const char *alias;
	long n_ctx;
	long n_parallel;
	char *api_key;
	bool metrics, slots, props;
	long listen_delay_ms, loading_ms, loading_requests;
	bool old_health, load_fail, endless, stamp;
	bool template_caps; /* /props lists chat_template_caps */
	long token_delay_us;
	enum mode mode;
	long token_delay_ms;
	const char *log_path;
	const char *port_file;
	const char *peak_path;
	const char *cut_path;
	struct answer *answers;
	size_t n_answers;
};

/* The options, set once by fake_parse_args before the server starts. */
extern struct fake_opt opt;

/* Reads llama-server's command line and the --fake-* flags into opt; prints
 * --version or --help and exits, and exits 2 with a one-line message on a
 * bad value, an unknown --fake-* flag or a bad script. */
void fake_parse_args(int argc, char **argv);

#endif
