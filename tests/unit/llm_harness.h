/*
 * llm_harness.h - helpers for the llm tests: an isolated network namespace,
 * the fake llama-server ($SW_FAKE_LLAMA) as a child process, temporary
 * files, and configurations built from text.  Header-only: each test
 * program includes it once.
 *
 * The network namespace is the safety net under the policy tests: inside it
 * only loopback exists, so even a policy check that wrongly lets a public
 * address through cannot put a packet on a real network.
 */
#ifndef SW_LLM_HARNESS_H
#define SW_LLM_HARNESS_H

#include <errno.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"
#include "llm/llm_int.h"

extern char **environ;

#define SKIP_CODE 77

static bool h_in_netns;

/* Bring lo up without needing ip(8). */
static inline bool lo_up(void)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	bool ok = false;
	if (fd < 0)
		return false;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		ok = ioctl(fd, SIOCSIFFLAGS, &ifr) == 0;
	}
	close(fd);
	return ok;
}

/* Only "lo" may exist in the namespace. */
static inline bool only_loopback(void)
{
	struct if_nameindex *ifs = if_nameindex();
	bool ok = ifs != NULL;
	for (struct if_nameindex *i = ifs; ok && i->if_index != 0; i++)
		ok = strcmp(i->if_name, "lo") == 0;
	if (ifs)
		if_freenameindex(ifs);
	return ok;
}

/* Move this process into a fresh network namespace holding only loopback.
 * When that is impossible and required, say so loudly and exit 77, which
 * CTest reports as skipped (never as passed). */
static inline void h_netns_enter(bool required, const char *test)
{
	const char *why = NULL;
	/* For checking the skip path itself. */
	if (getenv("SW_TEST_FORCE_NO_NETNS"))
		why = "SW_TEST_FORCE_NO_NETNS is set";
	else if (unshare(CLONE_NEWNET) != 0) {
		int e1 = errno;
		/* Unprivileged users may still own a user namespace. */
		if (unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0)
			why = strerror(e1);
	}
	if (!why && !lo_up())
		why = "cannot bring up loopback in the new namespace";
	if (!why && !only_loopback())
		why = "the new namespace has interfaces other than lo";
	if (!why) {
		h_in_netns = true;
		return;
	}
	if (!required)
		return;
	fprintf(stderr,
		"\n"
		"**************************************************************\n"
		"*** SKIPPED: %s\n"
		"*** cannot make an isolated network namespace: %s\n"
		"*** The policy tests run only where no packet can leave the\n"
		"*** machine (run as root, or allow unprivileged user\n"
		"*** namespaces).  THESE TESTS DID NOT RUN.\n"
		"**************************************************************\n\n",
		test, why);
	exit(SKIP_CODE);
}

/* A fresh temporary folder; caller removes it with h_rmdir. */
static inline char *h_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	char *dir = sw_xasprintf("%s/sworn-llm-XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(dir))
		SW_BUG("mkdtemp: %s", strerror(errno));
	return dir;
}

static inline void h_rmdir(const char *dir)
{
	char *cmd = sw_xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	free(cmd);
}

static inline char *h_write(const char *dir, const char *name, const char *text)
{
	char *path = sw_path_join(dir, name);
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) == EOF || fclose(f) != 0)
		SW_BUG("cannot write %s", path);
	return path;
}

static inline void h_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

struct h_fake {
	pid_t pid;
	unsigned port;
	char *port_file;
	char *log;    /* the request log */
	char *sock;   /* when listening on a Unix socket */
};

/* Start the fake with extra arguments (NULL-terminated) on 127.0.0.1 and
 * an ephemeral port, or on dir/fake.sock when unix is set.  Waits until it
 * listens, or until wait_listen is false. */
static inline void h_fake_start_ex(struct h_fake *f, const char *dir, bool unix_sock, bool wait_listen,
			    const char *const *args)
{
	const char *bin = getenv("SW_FAKE_LLAMA");
	const char *argv[64];
	int n = 0;

	if (!bin)
		SW_BUG("SW_FAKE_LLAMA is not set (run the tests through ctest)");
	memset(f, 0, sizeof(*f));
	f->port_file = sw_path_join(dir, "fake.port");
	f->log = sw_path_join(dir, "fake.log");
	unlink(f->port_file);
	unlink(f->log);
	argv[n++] = bin;
	argv[n++] = "--host";
	if (unix_sock) {
		f->sock = sw_path_join(dir, "fake.sock");
		argv[n++] = f->sock;
	} else {
		argv[n++] = "127.0.0.1";
	}
	argv[n++] = "--port";
	argv[n++] = "0";
	argv[n++] = "--fake-port-file";
	argv[n++] = f->port_file;
	argv[n++] = "--fake-log";
	argv[n++] = f->log;
	for (int i = 0; args && args[i] && n < 62; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	if (posix_spawn(&f->pid, bin, NULL, NULL, (char *const *)argv, environ) != 0)
		SW_BUG("cannot start %s", bin);
	if (!wait_listen)
		return;
	for (int i = 0; i < 500; i++) {
		struct sw_buf b = SW_BUF_INIT;
		if (sw_file_read(&b, f->port_file, 64, NULL) == 0 && b.len > 0) {
			uint64_t port = 0;
			sw_parse_u64(b.data, strcspn(b.data, "\n"), &port);
			f->port = (unsigned)port;
			sw_buf_release(&b);
			return;
		}
		sw_buf_release(&b);
		h_sleep_ms(10);
	}
	SW_BUG("the fake llama-server did not start");
}

static inline void h_fake_start(struct h_fake *f, const char *dir, const char *const *args)
{
	h_fake_start_ex(f, dir, false, true, args);
}

/* Stop the fake; returns its exit status (or 128 + signal). */
static inline int h_fake_stop(struct h_fake *f)
{
	int st = 0;
	if (f->pid > 0) {
		kill(f->pid, SIGTERM);
		waitpid(f->pid, &st, 0);
	}
	free(f->port_file);
	free(f->log);
	free(f->sock);
	memset(f, 0, sizeof(*f));
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Load an llm configuration from text (a sworn.conf) written into dir. */
static inline int h_config(struct sw_llm_config *out, const char *dir, const char *text,
		    struct sw_err *err)
{
	struct sw_config cfg;
	char *path = h_write(dir, "sworn.conf", text);
	int rc = sw_config_load(&cfg, path, err);
	if (rc == 0)
		rc = sw_llm_config_load(out, &cfg, err);
	sw_config_release(&cfg);
	free(path);
	return rc;
}

/* The test group's scratch folder: h_group_setup() makes it,
 * h_group_teardown() removes it. */
static char *dir;

static inline int h_group_setup(void **state)
{
	(void)state;
	dir = h_tmpdir();
	return 0;
}

static inline int h_group_teardown(void **state)
{
	(void)state;
	h_rmdir(dir);
	free(dir);
	return 0;
}

#endif /* SW_LLM_HARNESS_H */
