/*
 * llm_stream.c - the measuring half of bench/llm: stream tokens from the
 * fake llama-server on loopback and report the client's CPU time per token
 * and each token's delivery latency.
 *
 *   llm_stream sworn PORT TOKENS   through sworn's client (sw_llm_chat)
 *   llm_stream raw PORT TOKENS     through a bare socket read loop: the floor
 *
 * The fake runs with --fake-endless --fake-stamp, so every token's text is
 * the CLOCK_MONOTONIC time the server sent it; the arrival time minus that
 * stamp is the token's delivery latency (both clocks are the same clock on
 * one machine).  CPU time is getrusage(RUSAGE_SELF) around the call: the
 * server is another process and is not counted.
 *
 * Output: one line of key=value pairs, for the script to collect.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "llm/llm.h"

#define MAX_TOKENS 1000000

struct lat {
	double *v;
	size_t n, cap;
	struct sw_buf carry; /* raw mode: bytes of an unfinished event */
};

static void add_stamp(struct lat *l, const char *s, size_t len, double now)
{
	char num[40];
	if (len == 0 || len >= sizeof(num))
		return;
	memcpy(num, s, len);
	num[len] = '\0';
	char *end = NULL;
	double t = strtod(num, &end);
	if (end == num)
		return;
	l->v = sw_xgrow(l->v, &l->cap, l->n + 1, sizeof(double));
	l->v[l->n++] = now - t;
}

static void on_text(void *user, const char *text, size_t len)
{
	add_stamp(user, text, len, sw_now());
}

static double cpu_now(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int run_sworn(unsigned port, long tokens, struct lat *l)
{
	struct sw_llm_endpoint ep = { 0 };
	struct sw_llm_config cfg = { 0 };
	struct sw_llm_client *c = NULL;
	struct sw_llm_result r;
	struct sw_llm_request rq;
	struct sw_err err = { 0 };
	static const struct sw_llm_message m[] = { { "user", "count" } };
	int rc;

	ep.name = "bench";
	ep.url = sw_xasprintf("http://127.0.0.1:%u", port);
	ep.host = "127.0.0.1";
	cfg.path = "bench";
	cfg.endpoints = &ep;
	cfg.n_endpoints = 1;
	if ((rc = sw_llm_client_new(&c, &cfg, "bench", &err)) != 0)
		goto done;
	sw_llm_request_init(&rq);
	rq.messages = m;
	rq.n_messages = 1;
	rq.max_tokens = tokens;
	rq.on_text = on_text;
	rq.user = l;
	rc = sw_llm_chat(&r, c, &rq, &err);
	if (rc == 0 && r.timings.predicted_n != tokens)
		fprintf(stderr, "llm_stream: the server sent %ld tokens\n", r.timings.predicted_n);
	sw_llm_result_release(&r);
done:
	if (rc != 0)
		fprintf(stderr, "llm_stream: %s\n", err.msg);
	sw_llm_client_free(c);
	free(ep.url);
	return rc;
}

/* The least a client can do: read the socket and find each token's text. */
static void raw_scan(struct lat *l, double now)
{
	static const char key[] = "\"content\":\"";
	char *p = l->carry.data;
	char *end;
	while ((end = strstr(p, "\n\n")) != NULL) {
		*end = '\0';
		char *k = strstr(p, key);
		if (k) {
			k += sizeof(key) - 1;
			char *q = strchr(k, '"');
			if (q)
				add_stamp(l, k, (size_t)(q - k), now);
		}
		p = end + 2;
	}
	size_t left = strlen(p);
	memmove(l->carry.data, p, left + 1);
	l->carry.len = left;
}

static int run_raw(unsigned port, long tokens, struct lat *l)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	char buf[65536];
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		perror("llm_stream: connect");
		return 1;
	}
	char *body = sw_xasprintf("{\"messages\":[{\"role\":\"user\",\"content\":\"count\"}],"
				  "\"stream\":true,\"max_tokens\":%ld}", tokens);
	char *req = sw_xasprintf("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
				 "Content-Type: application/json\r\nContent-Length: %zu\r\n"
				 "Connection: close\r\n\r\n%s", strlen(body), body);
	if (write(fd, req, strlen(req)) != (ssize_t)strlen(req)) {
		perror("llm_stream: write");
		return 1;
	}
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		double now = sw_now();
		/* Chunked-encoding size lines sit between events; they contain no
		 * "content" key, so the scan ignores them. */
		sw_buf_add(&l->carry, buf, (size_t)n);
		raw_scan(l, now);
	}
	close(fd);
	free(body);
	free(req);
	return 0;
}

int main(int argc, char **argv)
{
	struct lat l = { 0 };
	uint64_t port = 0, tokens = 0;

	if (argc != 4 || !sw_parse_u64(argv[2], strlen(argv[2]), &port) ||
	    !sw_parse_u64(argv[3], strlen(argv[3]), &tokens) || tokens == 0 || tokens > MAX_TOKENS ||
	    (strcmp(argv[1], "sworn") != 0 && strcmp(argv[1], "raw") != 0)) {
		fprintf(stderr, "usage: llm_stream sworn|raw PORT TOKENS\n");
		return 2;
	}
	sw_buf_init(&l.carry);
	if (sw_llm_global_init(NULL) != 0)
		return 1;
	double c0 = cpu_now(), w0 = sw_now();
	int rc = strcmp(argv[1], "sworn") == 0 ? run_sworn((unsigned)port, (long)tokens, &l)
					       : run_raw((unsigned)port, (long)tokens, &l);
	double cpu = cpu_now() - c0, wall = sw_now() - w0;
	if (rc != 0 || l.n == 0)
		return 1;
	qsort(l.v, l.n, sizeof(double), cmp);
	printf("client=%s tokens=%zu cpu_us_per_token=%.2f wall_s=%.3f latency_us_p50=%.1f "
	       "latency_us_p90=%.1f latency_us_p99=%.1f\n",
	       argv[1], l.n, cpu * 1e6 / (double)l.n, wall, l.v[l.n / 2] * 1e6,
	       l.v[(size_t)((double)l.n * 0.9)] * 1e6, l.v[(size_t)((double)l.n * 0.99)] * 1e6);
	free(l.v);
	sw_buf_release(&l.carry);
	return 0;
}
