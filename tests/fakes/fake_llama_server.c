/*
 * fake_llama_server.c - a stand-in for llama.cpp's `llama-server`, for
 * tests only.  It speaks the protocol sworn relies on (reference:
 * llama-server.md §1) and reproduces its failure modes on demand, so that
 * the client, the supervisor and the pipeline can be tested without a model,
 * a GPU or a network.
 *
 * It accepts llama-server's command line (--host, --port, -m, -a, -c, -np,
 * --api-key, --api-key-file, --metrics, --no-slots, --props; any other flag
 * is ignored together with its value), so a supervisor can start it in
 * place of the real binary.  --host ending in ".sock" listens on a Unix
 * socket, as newer llama-server builds do.  It always binds where it is
 * told, normally 127.0.0.1: nothing here may listen on other interfaces in
 * tests.
 *
 * --version and --help print what a recent build prints (abridged) and exit.
 *
 * Its own flags, all --fake-*:
 *   --fake-listen-delay MS   sleep before listening (connections refused)
 *   --fake-loading MS        answer 503 "Loading model" for MS after listening
 *   --fake-loading-requests N  answer 503 to the first N chat requests
 *   --fake-old-health        early-2024 /health shapes ({"status":...})
 *   --fake-load-fail         log a model loading error and exit 1
 *   --fake-mode MODE         how chat requests are answered when no script
 *                            answer says otherwise: ok, ping, slow, hang,
 *                            reset, error-before, error-mid, no-done, busy,
 *                            too-long, garbage, huge, redirect (a 302 to
 *                            elsewhere, with no body)
 *   --fake-token-delay MS    delay before each token (slow mode: 100 ms)
 *   --fake-script FILE       scripted answers (below)
 *   --fake-endless           the default answer runs until max_tokens
 *   --fake-template-caps     /props lists chat_template_caps (builds that
 *                            take chat_template_kwargs per request)
 *   --fake-stamp             each endless token is " <CLOCK_MONOTONIC seconds
 *                            when sent>", for measuring delivery latency
 *   --fake-token-delay-us US delay before each token, in microseconds
 *   --fake-log FILE          append each request as one JSON line
 *   --fake-port-file FILE    write the bound port there once listening
 *   --fake-cut-file FILE     append a line for each chat answer the client
 *                            closed before its end ("cut after N tokens")
 *   --fake-peak-file FILE    keep there the most chat answers that were being
 *                            streamed at one moment (overlap as a count, for
 *                            tests that must not time a busy machine)
 *
 * A script is an INI file of [answer "NAME"] sections, tried in order:
 *   seq = N        answers the Nth chat request (counting from 1)
 *   match = TEXT   answers a request whose messages contain TEXT
 *   text = ...     the answer (\n, \t and \\ are escapes)
 *   file = PATH    the answer is this file's text (PATH relative to the
 *                  script's folder), for answers longer than a line
 *   mode = MODE    as --fake-mode, for this answer only
 *   finish = stop  the finish_reason
 *   reasoning = ... thinking sent before the text, under reasoning_key
 *   reasoning_key = reasoning_content (the default, llama.cpp's) or
 *                  reasoning (other servers'); a <think> block is text =
 * A section with neither seq nor match answers anything.  Without a
 * matching answer the text is a fixed sentence (or endless filler).
 *
 * Once listening it prints llama-server's own log line "main: server is
 * listening on http://HOST:PORT - starting the main loop" to stderr.
 * SIGTERM or SIGINT stops it with status 0.
 *
 * This file is the HTTP side; the command line and the script are read in
 * fake_llama_args.c.
 */
#define _GNU_SOURCE /* prctl's PR_SET_PDEATHSIG */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <microhttpd.h>

#include "base/base.h"
#include "fake_llama.h"

#define MAX_REQUEST_BODY (8u << 20)
#define HANG_MAX_S 60.0
#define BUILD_INFO "b0000-fake"

static double ready_at;              /* monotonic time loading ends */
static atomic_bool stopping;
static atomic_long chat_requests;
static atomic_long busy_slots;
static atomic_long prompt_tokens_total, predicted_tokens_total;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* ---------------------------------------------------------------- answers */

static const char default_text[] =
	"The fake llama-server answers every prompt with this sentence.";
static const char *const filler[] = {
	" lorem", " ipsum", " dolor", " sit", " amet,", " consectetur", " adipiscing", " elit.",
};

/* Split text into "tokens": a run of spaces with the word after it, or one
 * punctuation mark.  Roughly what a BPE vocabulary does to English. */
static size_t split_tokens(const char *s, size_t **out_starts)
{
	size_t n = 0, cap = 0, len = strlen(s), i = 0;
	size_t *st = NULL;
	while (i < len) {
		st = sw_xgrow(st, &cap, n + 2, sizeof(*st));
		st[n++] = i;
		while (i < len && (s[i] == ' ' || s[i] == '\n'))
			i++;
		if (i < len && strchr(".,;:!?()\"", s[i]))
			i++;
		else
			while (i < len && !strchr(" \n.,;:!?()\"", s[i]))
				i++;
	}
	st = sw_xgrow(st, &cap, n + 1, sizeof(*st));
	st[n] = len;
	*out_starts = st;
	return n;
}

static size_t count_tokens(const char *s)
{
	size_t *st = NULL;
	size_t n = split_tokens(s, &st);
	free(st);
	return n;
}

static void log_request(const char *method, const char *url, const char *body, size_t len)
{
	if (!opt.log_path)
		return;
	json_t *j = json_pack("{s:s, s:s, s:o}", "method", method, "path", url, "body",
			      sw_json_strn(body, len));
	char *line = json_dumps(j, JSON_COMPACT);
	pthread_mutex_lock(&log_lock);
	FILE *f = fopen(opt.log_path, "a");
	if (f) {
		fprintf(f, "%s\n", line);
		fclose(f);
	}
	pthread_mutex_unlock(&log_lock);
	free(line);
	json_decref(j);
}

/* A new high of answers streamed at once, written where --fake-peak-file
 * says; the lock orders the writes so the file never goes down. */
static void note_peak(long busy)
{
	static long peak;
	if (!opt.peak_path)
		return;
	pthread_mutex_lock(&log_lock);
	if (busy > peak) {
		peak = busy;
		FILE *f = fopen(opt.peak_path, "w");
		if (f) {
			fprintf(f, "%ld\n", peak);
			fclose(f);
		}
	}
	pthread_mutex_unlock(&log_lock);
}

/* ------------------------------------------------------------------- HTTP */

struct conn {
	struct sw_buf body;
};

static enum MHD_Result send_json(struct MHD_Connection *c, unsigned status, json_t *j)
{
	char *s = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(s), s, MHD_RESPMEM_MUST_FREE);
	MHD_add_response_header(r, "Content-Type", "application/json; charset=utf-8");
	enum MHD_Result ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result send_error(struct MHD_Connection *c, unsigned status, const char *type,
				  const char *msg)
{
	return send_json(c, status, json_pack("{s:{s:i, s:s, s:s}}", "error", "code", (int)status,
					      "message", msg, "type", type));
}

static enum MHD_Result send_text(struct MHD_Connection *c, unsigned status, const char *type,
				 const char *text)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), (void *)(uintptr_t)text,
								 MHD_RESPMEM_MUST_COPY);
	MHD_add_response_header(r, "Content-Type", type);
	enum MHD_Result ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static const char *model_id(void)
{
	return opt.alias ? opt.alias : opt.model;
}

static json_t *timings_json(long prompt_n, long predicted_n, double predicted_ms)
{
	double prompt_ms = 0.25 * (double)prompt_n + 1.0;
	if (predicted_ms <= 0)
		predicted_ms = 0.001;
	return json_pack("{s:i, s:I, s:f, s:f, s:f, s:I, s:f, s:f, s:f}", "cache_n", 0,
			 "prompt_n", (json_int_t)prompt_n, "prompt_ms", prompt_ms,
			 "prompt_per_token_ms", prompt_ms / (double)(prompt_n ? prompt_n : 1),
			 "prompt_per_second", (double)prompt_n * 1000.0 / prompt_ms,
			 "predicted_n", (json_int_t)predicted_n, "predicted_ms", predicted_ms,
			 "predicted_per_token_ms", predicted_ms / (double)(predicted_n ? predicted_n : 1),
			 "predicted_per_second", (double)predicted_n * 1000.0 / predicted_ms);
}

/* The state of one streamed answer, driven by MHD's content reader. */
enum phase { P_PINGS, P_ROLE, P_TOKENS, P_ERROR, P_FINISH, P_USAGE, P_DONE, P_END, P_HANG, P_RESET };

struct stream {
	struct MHD_Connection *conn;
	enum mode mode;
	enum phase phase;
	char *text;
	size_t *starts;
	size_t ntok;
	size_t next;          /* tokens sent */
	long max_tokens;      /* 0: no limit */
	bool endless;
	char *finish;
	const struct answer *a; /* the script's answer, or NULL */
	long prompt_n;
	double t_start;
	int pings_left;
	struct sw_buf out;
	size_t off;
	bool counted_busy;
};

/* The slot is free once generation ends (llama-server frees it then), before
 * the last events are sent: a client that starts its next request on
 * reading them is never counted twice (the peak file counts slots, not
 * connections the server has yet to tidy up). */
static void free_slot(struct stream *s)
{
	if (s->counted_busy)
		atomic_fetch_sub(&busy_slots, 1);
	s->counted_busy = false;
}

static void stream_free(void *cls)
{
	struct stream *s = cls;
	free_slot(s);
	if (opt.cut_path && s->phase != P_END) {
		pthread_mutex_lock(&log_lock);
		FILE *f = fopen(opt.cut_path, "a");
		if (f) {
			fprintf(f, "cut after %zu tokens\n", s->next);
			fclose(f);
		}
		pthread_mutex_unlock(&log_lock);
	}
	free(s->text);
	free(s->starts);
	free(s->finish);
	sw_buf_release(&s->out);
	free(s);
}

static void add_event(struct sw_buf *out, json_t *j)
{
	char *s = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	sw_buf_adds(out, "data: ");
	sw_buf_adds(out, s);
	sw_buf_adds(out, "\n\n");
	free(s);
}

static json_t *chunk(json_t *choices)
{
	return json_pack("{s:o, s:I, s:s, s:s, s:s, s:s}", "choices", choices, "created",
			 (json_int_t)time(NULL), "id", "chatcmpl-fake", "model", model_id(),
			 "system_fingerprint", BUILD_INFO, "object", "chat.completion.chunk");
}

static bool more_tokens(const struct stream *s)
{
	if (s->max_tokens > 0 && (long)s->next >= s->max_tokens)
		return false;
	return s->endless || s->next < s->ntok;
}

/* Produce the next piece of the stream into s->out. */
static ssize_t produce(struct stream *s)
{
	switch (s->phase) {
	case P_PINGS:
		if (s->pings_left-- > 0) {
			sleep_ms(20);
			sw_buf_adds(&s->out, ":\n\n");
			return 0;
		}
		s->phase = P_ROLE;
		/* fall through */
	case P_ROLE:
		add_event(&s->out, chunk(json_pack("[{s:n, s:i, s:{s:s, s:n}}]", "finish_reason",
						   "index", 0, "delta", "role", "assistant",
						   "content")));
		if (s->a && s->a->reasoning)
			add_event(&s->out, chunk(json_pack("[{s:n, s:i, s:{s:s}}]", "finish_reason",
				"index", 0, "delta", s->a->reasoning_key ? s->a->reasoning_key
				: "reasoning_content", s->a->reasoning)));
		s->phase = s->mode == M_HANG ? P_HANG : P_TOKENS;
		s->t_start = sw_now();
		return 0;
	case P_TOKENS:
		if ((s->mode == M_ERROR_MID || s->mode == M_RESET) && s->next == 3) {
			s->phase = s->mode == M_RESET ? P_RESET : P_ERROR;
			return produce(s);
		}
		if (!more_tokens(s)) {
			s->phase = P_FINISH;
			return produce(s);
		}
		if (opt.token_delay_ms > 0 || s->mode == M_SLOW)
			sleep_ms(opt.token_delay_ms > 0 ? opt.token_delay_ms : 100);
		if (opt.token_delay_us > 0) {
			struct timespec ts = { opt.token_delay_us / 1000000,
					       (opt.token_delay_us % 1000000) * 1000L };
			nanosleep(&ts, NULL);
		}
		if (s->mode == M_GARBAGE && s->next == 2) {
			sw_buf_adds(&s->out, "data: {\"choices\":[{\"delta\":{\"content\":\"oops\"\n\n");
			s->next++;
			return 0;
		}
		{
			const char *tok;
			size_t len;
			char stamp[32];
			if (s->endless && opt.stamp) {
				/* Taken last, just before the bytes go out. */
				len = (size_t)snprintf(stamp, sizeof(stamp), " %.9f", sw_now());
				tok = stamp;
			} else if (s->endless) {
				tok = filler[s->next % SW_ARRAY_LEN(filler)];
				len = strlen(tok);
			} else {
				tok = s->text + s->starts[s->next];
				len = s->starts[s->next + 1] - s->starts[s->next];
			}
			s->next++;
			add_event(&s->out, chunk(json_pack("[{s:n, s:i, s:{s:o}}]", "finish_reason",
							   "index", 0, "delta", "content",
							   sw_json_strn(tok, len))));
		}
		return 0;
	case P_ERROR:
		free_slot(s);
		add_event(&s->out, json_pack("{s:{s:i, s:s, s:s}}", "error", "code", 500, "message",
					     "simulated failure mid-stream", "type", "server_error"));
		s->phase = P_END;
		return 0;
	case P_FINISH: {
		bool cut = s->max_tokens > 0 && (long)s->next >= s->max_tokens &&
			   (s->endless || s->next < s->ntok);
		const char *fin = s->finish ? s->finish : cut ? "length" : "stop";
		free_slot(s);
		add_event(&s->out, chunk(json_pack("[{s:s, s:i, s:{}}]", "finish_reason", fin,
						   "index", 0, "delta")));
		s->phase = P_USAGE;
		return 0;
	}
	case P_USAGE: {
		double ms = (sw_now() - s->t_start) * 1000.0;
		json_t *c = chunk(json_array());
		json_object_set_new(c, "usage", json_pack("{s:I, s:I, s:I, s:{s:i}}",
			"completion_tokens", (json_int_t)s->next, "prompt_tokens", (json_int_t)s->prompt_n,
			"total_tokens", (json_int_t)(s->next + (size_t)s->prompt_n),
			"prompt_tokens_details", "cached_tokens", 0));
		json_object_set_new(c, "timings", timings_json(s->prompt_n, (long)s->next, ms));
		add_event(&s->out, c);
		atomic_fetch_add(&predicted_tokens_total, (long)s->next);
		s->phase = s->mode == M_NO_DONE ? P_END : P_DONE;
		return 0;
	}
	case P_DONE:
		sw_buf_adds(&s->out, "data: [DONE]\n\n");
		s->phase = P_END;
		return 0;
	case P_END:
		return MHD_CONTENT_READER_END_OF_STREAM;
	case P_HANG: {
		double until = sw_now() + HANG_MAX_S;
		while (!atomic_load(&stopping) && sw_now() < until)
			sleep_ms(10);
		return MHD_CONTENT_READER_END_WITH_ERROR;
	}
	case P_RESET: {
		/* A zero linger makes the close below a TCP reset, as a crashed
		 * server's would be. */
		const union MHD_ConnectionInfo *ci =
			MHD_get_connection_info(s->conn, MHD_CONNECTION_INFO_CONNECTION_FD);
		if (ci) {
			struct linger lg = { 1, 0 };
			setsockopt(ci->connect_fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
			shutdown(ci->connect_fd, SHUT_RDWR);
		}
		return MHD_CONTENT_READER_END_WITH_ERROR;
	}
	}
	return MHD_CONTENT_READER_END_WITH_ERROR;
}

static ssize_t reader(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct stream *s = cls;
	(void)pos;
	while (s->off >= s->out.len) {
		sw_buf_reset(&s->out);
		s->off = 0;
		if (atomic_load(&stopping))
			return MHD_CONTENT_READER_END_WITH_ERROR;
		ssize_t r = produce(s);
		if (r < 0)
			return r;
	}
	size_t n = s->out.len - s->off;
	if (n > max)
		n = max;
	memcpy(buf, s->out.data + s->off, n);
	s->off += n;
	return (ssize_t)n;
}

static const struct answer *pick_answer(long seq, const char *all_text)
{
	for (size_t i = 0; i < opt.n_answers; i++) {
		const struct answer *a = &opt.answers[i];
		if (a->seq && a->seq != seq)
			continue;
		if (a->match && !strstr(all_text, a->match))
			continue;
		return a;
	}
	return NULL;
}

static enum MHD_Result chat(struct MHD_Connection *c, const char *body, size_t len)
{
	json_error_t jerr;
	json_t *req = json_loadb(body, len, 0, &jerr);
	struct sw_buf all = SW_BUF_INIT;
	enum MHD_Result ret;
	long seq = atomic_fetch_add(&chat_requests, 1) + 1;

	if (!json_is_object(req) || !json_is_array(json_object_get(req, "messages"))) {
		json_decref(req);
		return send_error(c, 400, "invalid_request_error",
				  "expected a JSON object with a messages array");
	}
	if (seq <= opt.loading_requests) {
		json_decref(req);
		return send_error(c, 503, "unavailable_error", "Loading model");
	}
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(req, "messages"), i, m) {
		const json_t *ct = json_object_get(m, "content");
		if (json_is_string(ct)) {
			sw_buf_adds(&all, json_string_value(ct));
			sw_buf_addc(&all, '\n');
		}
	}
	const struct answer *a = pick_answer(seq, all.data);
	enum mode mode = a && a->mode >= 0 ? (enum mode)a->mode : opt.mode;
	bool stream = json_is_true(json_object_get(req, "stream"));
	long max_tokens = (long)json_integer_value(json_object_get(req, "max_tokens"));
	if (!max_tokens)
		max_tokens = (long)json_integer_value(json_object_get(req, "n_predict"));
	long prompt_n = (long)count_tokens(all.data);
	atomic_fetch_add(&prompt_tokens_total, prompt_n);

	if (mode == M_ERROR_BEFORE) {
		ret = send_error(c, 500, "server_error", "simulated failure before the answer");
		goto cleanup;
	}
	if (mode == M_BUSY) {
		ret = send_error(c, 503, "unavailable_error", "no slot available");
		goto cleanup;
	}
	if (mode == M_REDIRECT) {
		struct MHD_Response *r = MHD_create_response_from_buffer(0, (void *)"",
									 MHD_RESPMEM_PERSISTENT);
		MHD_add_response_header(r, "Location", "http://203.0.113.7:8080/v1/chat/completions");
		ret = MHD_queue_response(c, 302, r);
		MHD_destroy_response(r);
		goto cleanup;
	}
	if (mode == M_TOO_LONG) {
		ret = send_error(c, 400, "exceed_context_size_error",
				 "the request exceeds the available context size");
		goto cleanup;
	}
	struct stream *s = sw_xcalloc(1, sizeof(*s));
	s->conn = c;
	s->mode = mode;
	s->text = sw_xstrdup(a && a->text ? a->text : default_text);
	s->ntok = split_tokens(s->text, &s->starts);
	s->endless = opt.endless && !(a && a->text);
	s->max_tokens = max_tokens;
	s->finish = a && a->finish ? sw_xstrdup(a->finish) : NULL;
	s->a = a;
	s->prompt_n = prompt_n;
	s->pings_left = mode == M_PING ? 3 : 0;
	s->phase = P_PINGS;
	sw_buf_init(&s->out);
	if (!stream) {
		if (mode == M_HANG) {
			double until = sw_now() + HANG_MAX_S;
			while (!atomic_load(&stopping) && sw_now() < until)
				sleep_ms(10);
		}
		struct sw_buf text = SW_BUF_INIT;
		s->t_start = sw_now();
		while (more_tokens(s)) {
			if (s->endless)
				sw_buf_adds(&text, filler[s->next % SW_ARRAY_LEN(filler)]);
			else
				sw_buf_add(&text, s->text + s->starts[s->next],
					   s->starts[s->next + 1] - s->starts[s->next]);
			s->next++;
		}
		json_t *resp = json_pack("{s:[{s:s, s:i, s:{s:s, s:o}}], s:I, s:s, s:s, s:s, s:{s:I, s:I, s:I}}",
			"choices", "finish_reason", s->finish ? s->finish : "stop", "index", 0, "message",
			"role", "assistant", "content", sw_json_strn(text.data, text.len),
			"created", (json_int_t)time(NULL), "model", model_id(), "id", "chatcmpl-fake",
			"object", "chat.completion", "usage", "completion_tokens", (json_int_t)s->next,
			"prompt_tokens", (json_int_t)prompt_n, "total_tokens",
			(json_int_t)(s->next + (size_t)prompt_n));
		if (a && a->reasoning)
			json_object_set_new(json_object_get(json_array_get(json_object_get(resp,
				"choices"), 0), "message"), a->reasoning_key ? a->reasoning_key
				: "reasoning_content", json_string(a->reasoning));
		json_object_set_new(resp, "timings", timings_json(prompt_n, (long)s->next,
								  (sw_now() - s->t_start) * 1000.0));
		atomic_fetch_add(&predicted_tokens_total, (long)s->next);
		sw_buf_release(&text);
		stream_free(s);
		ret = send_json(c, 200, resp);
		goto cleanup;
	}
	if (mode == M_HUGE) {
		/* One line past any sane limit: 2 MiB of content in one event. */
		struct sw_buf big = SW_BUF_INIT;
		for (int k = 0; k < (2 << 20) / 8; k++)
			sw_buf_adds(&big, "abcdefgh");
		free(s->text);
		free(s->starts);
		s->text = sw_buf_detach(&big, NULL);
		s->starts = sw_xcalloc(2, sizeof(size_t));
		s->starts[1] = strlen(s->text);
		s->ntok = 1;
	}
	note_peak(atomic_fetch_add(&busy_slots, 1) + 1);
	s->counted_busy = true;
	struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16384, reader,
								   s, stream_free);
	MHD_add_response_header(r, "Content-Type", "text/event-stream");
	MHD_add_response_header(r, "Cache-Control", "no-cache");
	MHD_add_response_header(r, "X-Accel-Buffering", "no");
	ret = MHD_queue_response(c, 200, r);
	MHD_destroy_response(r);
cleanup:
	sw_buf_release(&all);
	json_decref(req);
	return ret;
}

static enum MHD_Result tokenize(struct MHD_Connection *c, const char *body, size_t len)
{
	json_t *req = json_loadb(body, len, 0, NULL);
	const json_t *content = json_object_get(req, "content");
	bool pieces = json_is_true(json_object_get(req, "with_pieces"));
	if (!json_is_string(content)) {
		json_decref(req);
		return send_error(c, 400, "invalid_request_error", "content must be a string");
	}
	const char *s = json_string_value(content);
	size_t *st = NULL;
	size_t n = split_tokens(s, &st);
	json_t *toks = json_array();
	for (size_t i = 0; i < n; i++) {
		/* A stable fake id: the piece's bytes hashed small. */
		unsigned id = 7;
		for (size_t k = st[i]; k < st[i + 1]; k++)
			id = id * 31 + (unsigned char)s[k];
		id %= 32000;
		if (pieces)
			json_array_append_new(toks, json_pack("{s:i, s:o}", "id", (int)id, "piece",
							      sw_json_strn(s + st[i], st[i + 1] - st[i])));
		else
			json_array_append_new(toks, json_integer(id));
	}
	free(st);
	json_decref(req);
	return send_json(c, 200, json_pack("{s:o}", "tokens", toks));
}

static bool key_ok(struct MHD_Connection *c)
{
	if (!opt.api_key)
		return true;
	const char *auth = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Authorization");
	const char *xkey = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Api-Key");
	if (auth && strncmp(auth, "Bearer ", 7) == 0 && strcmp(auth + 7, opt.api_key) == 0)
		return true;
	return xkey && strcmp(xkey, opt.api_key) == 0;
}

static enum MHD_Result route(struct MHD_Connection *c, const char *url, const char *method,
			     const char *body, size_t len)
{
	bool get = strcmp(method, "GET") == 0;
	bool post = strcmp(method, "POST") == 0;
	bool is_health = !strcmp(url, "/health") || !strcmp(url, "/v1/health");
	bool is_models = !strcmp(url, "/models") || !strcmp(url, "/v1/models");
	bool loading = sw_now() < ready_at;

	log_request(method, url, body, len);
	if (loading) {
		if (opt.old_health && is_health)
			return send_json(c, 503, json_pack("{s:s}", "status", "loading model"));
		return send_error(c, 503, "unavailable_error", "Loading model");
	}
	if (!is_health && !is_models && !key_ok(c))
		return send_error(c, 401, "authentication_error", "Invalid API Key");
	if (is_health && get) {
		if (opt.old_health)
			return send_json(c, 200, json_pack("{s:s, s:I, s:I}", "status", "ok", "slots_idle",
				(json_int_t)(opt.n_parallel - atomic_load(&busy_slots)),
				"slots_processing", (json_int_t)atomic_load(&busy_slots)));
		return send_json(c, 200, json_pack("{s:s}", "status", "ok"));
	}
	if (is_models && get) {
		json_t *entry = json_pack("{s:s, s:s, s:s, s:I, s:{s:i, s:i, s:I, s:I}}", "id", model_id(),
			"object", "model", "owned_by", "llamacpp", "created", (json_int_t)time(NULL),
			"meta", "vocab_type", 2, "n_vocab", 32000, "n_ctx_train", (json_int_t)opt.n_ctx,
			"n_params", (json_int_t)7000000000LL);
		return send_json(c, 200, json_pack("{s:s, s:[O], s:[{s:s, s:s}]}", "object", "list",
			"data", entry, "models", "name", model_id(), "model", model_id()));
	}
	if (!strcmp(url, "/props")) {
		if (post && !opt.props)
			return send_error(c, 501, "not_supported_error",
					  "This server does not support changing global properties. Start it with `--props`");
		json_t *props = json_pack(
			"{s:{s:I, s:{}}, s:I, s:s, s:s, s:{s:b}, s:s, s:b, s:s, s:s}",
			"default_generation_settings", "n_ctx", (json_int_t)(opt.n_ctx / opt.n_parallel),
			"params", "total_slots", (json_int_t)opt.n_parallel, "model_alias", model_id(),
			"model_path", opt.model, "modalities", "vision", 0, "build_info", BUILD_INFO,
			"is_sleeping", 0, "chat_template", "{{ messages }}", "bos_token", "<s>");
		if (opt.template_caps)
			json_object_set_new(props, "chat_template_caps",
					    json_pack("{s:b, s:b}", "supports_system_role", 1,
						      "supports_tools", 0));
		return send_json(c, 200, props);
	}
	if (!strcmp(url, "/slots") && get) {
		if (!opt.slots)
			return send_error(c, 501, "not_supported_error", "This server does not support slots endpoint.");
		long busy = atomic_load(&busy_slots);
		const char *fail = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "fail_on_no_slot");
		if (fail && busy >= opt.n_parallel)
			return send_error(c, 503, "unavailable_error", "no slot available");
		json_t *arr = json_array();
		for (long i = 0; i < opt.n_parallel; i++)
			json_array_append_new(arr, json_pack("{s:I, s:I, s:I, s:b}", "id", (json_int_t)i,
				"id_task", (json_int_t)-1, "n_ctx", (json_int_t)(opt.n_ctx / opt.n_parallel),
				"is_processing", i < busy));
		return send_json(c, 200, arr);
	}
	if (!strcmp(url, "/metrics") && get) {
		if (!opt.metrics)
			return send_error(c, 501, "not_supported_error",
					  "This server does not support metrics endpoint. Start it with `--metrics`");
		char *text = sw_xasprintf(
			"# HELP llamacpp:prompt_tokens_total Number of prompt tokens processed.\n"
			"# TYPE llamacpp:prompt_tokens_total counter\n"
			"llamacpp:prompt_tokens_total %ld\n"
			"# HELP llamacpp:tokens_predicted_total Number of generation tokens processed.\n"
			"# TYPE llamacpp:tokens_predicted_total counter\n"
			"llamacpp:tokens_predicted_total %ld\n"
			"# HELP llamacpp:requests_processing Number of requests processing.\n"
			"# TYPE llamacpp:requests_processing gauge\n"
			"llamacpp:requests_processing %ld\n",
			atomic_load(&prompt_tokens_total), atomic_load(&predicted_tokens_total),
			atomic_load(&busy_slots));
		enum MHD_Result ret = send_text(c, 200, "text/plain; version=0.0.4", text);
		free(text);
		return ret;
	}
	if (!strcmp(url, "/tokenize") && post)
		return tokenize(c, body, len);
	if ((!strcmp(url, "/v1/chat/completions") || !strcmp(url, "/chat/completions")) && post)
		return chat(c, body, len);
	return send_error(c, 404, "not_found_error", "File Not Found");
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **con_cls)
{
	struct conn *st = *con_cls;
	(void)cls;
	(void)version;
	if (!st) {
		st = sw_xcalloc(1, sizeof(*st));
		sw_buf_init(&st->body);
		*con_cls = st;
		return MHD_YES;
	}
	if (*upload_size) {
		if (st->body.len + *upload_size > MAX_REQUEST_BODY)
			return MHD_NO;
		sw_buf_add(&st->body, upload, *upload_size);
		*upload_size = 0;
		return MHD_YES;
	}
	return route(c, url, method, st->body.data, st->body.len);
}

static void on_done(void *cls, struct MHD_Connection *c, void **con_cls,
		    enum MHD_RequestTerminationCode toe)
{
	struct conn *st = *con_cls;
	(void)cls;
	(void)c;
	(void)toe;
	if (st) {
		sw_buf_release(&st->body);
		free(st);
		*con_cls = NULL;
	}
}

/* ------------------------------------------------------------------- main */

static int listen_on(const char *host, unsigned port, unsigned *bound)
{
	size_t hl = strlen(host);
	int fd = -1;

	if (hl > 5 && strcmp(host + hl - 5, ".sock") == 0) {
		struct sockaddr_un un = { .sun_family = AF_UNIX };
		if (hl >= sizeof(un.sun_path))
			return -1;
		memcpy(un.sun_path, host, hl + 1);
		unlink(host);
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (fd < 0 || bind(fd, (struct sockaddr *)&un, sizeof(un)) != 0 || listen(fd, 64) != 0)
			return -1;
		*bound = 0;
		return fd;
	}
	struct sockaddr_storage ss;
	socklen_t sl;
	memset(&ss, 0, sizeof(ss));
	struct sockaddr_in *in = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
	if (inet_pton(AF_INET, host, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		in->sin_port = htons((uint16_t)port);
		sl = sizeof(*in);
	} else if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)port);
		sl = sizeof(*in6);
	} else if (strcmp(host, "localhost") == 0) {
		in->sin_family = AF_INET;
		in->sin_port = htons((uint16_t)port);
		in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		sl = sizeof(*in);
	} else {
		fprintf(stderr, "fake-llama-server: --host must be an address or a .sock path\n");
		return -1;
	}
	fd = socket(ss.ss_family, SOCK_STREAM, 0);
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (fd < 0 || bind(fd, (struct sockaddr *)&ss, sl) != 0 || listen(fd, 64) != 0)
		return -1;
	sl = sizeof(ss);
	getsockname(fd, (struct sockaddr *)&ss, &sl);
	*bound = ntohs(ss.ss_family == AF_INET ? in->sin_port : in6->sin6_port);
	return fd;
}

int main(int argc, char **argv)
{
	sigset_t sigs;
	unsigned port = 0;
	int sig;

	/* A test that dies (a failed assertion skips its teardown) must not
	 * leave a server behind holding ctest's output pipe open. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	fake_parse_args(argc, argv);
	/* Signals go to the main thread's sigwait, never to MHD's threads. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);

	fprintf(stderr, "build: 0 (fake) with a test double for sworn\n");
	if (opt.listen_delay_ms > 0)
		sleep_ms(opt.listen_delay_ms);
	if (opt.load_fail) {
		if (opt.loading_ms > 0)
			sleep_ms(opt.loading_ms);
		fprintf(stderr, "llama_model_load: error loading model: failed to open %s\n", opt.model);
		fprintf(stderr, "main: exiting due to model loading error\n");
		return 1;
	}
	int fd = listen_on(opt.host, opt.port, &port);
	if (fd < 0) {
		fprintf(stderr, "fake-llama-server: cannot listen on %s:%u: %s\n", opt.host, opt.port,
			strerror(errno));
		return 1;
	}
	ready_at = sw_now() + opt.loading_ms / 1000.0;
	struct MHD_Daemon *d = MHD_start_daemon(
		MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_ERROR_LOG,
		0, NULL, NULL, on_request, NULL, MHD_OPTION_LISTEN_SOCKET, fd,
		MHD_OPTION_NOTIFY_COMPLETED, on_done, NULL, MHD_OPTION_CONNECTION_TIMEOUT,
		(unsigned)120, MHD_OPTION_END);
	if (!d) {
		fprintf(stderr, "fake-llama-server: cannot start the HTTP daemon\n");
		return 1;
	}
	if (opt.port_file) {
		char num[16];
		struct sw_err err = { 0 };
		int n = snprintf(num, sizeof(num), "%u\n", port);
		if (sw_file_write_atomic(opt.port_file, num, (size_t)n, &err) != 0)
			fprintf(stderr, "fake-llama-server: %s\n", err.msg);
	}
	fprintf(stderr, "main: server is listening on http://%s:%u - starting the main loop\n",
		opt.host, port);
	sigwait(&sigs, &sig);
	atomic_store(&stopping, true);
	MHD_stop_daemon(d);
	for (size_t i = 0; i < opt.n_answers; i++) {
		free(opt.answers[i].match);
		free(opt.answers[i].text);
		free(opt.answers[i].finish);
	}
	free(opt.answers);
	free(opt.api_key);
	return 0;
}
