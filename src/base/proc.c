/* proc.c - child processes: start a program with extra environment and
 * its output appended to a log (supervisors), or with its output on a pipe
 * (a streaming reader, or captured whole with a size limit and a timeout);
 * wait with a timeout, stop it politely then firmly, and tell a live
 * process from a recycled pid.  Every child starts the same way (one
 * spawn()): stdin from /dev/null or a named file, no descriptor of ours
 * beyond 0-2, default signal dispositions. */
#define _GNU_SOURCE /* posix_spawn_file_actions_addclosefrom_np (glibc 2.34) */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"

extern char **environ;

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* The environment: the current one without the names spec sets, then the
 * spec's entries.  Borrowed strings; the array is the caller's to free. */
static char **make_env(const char *const *extra)
{
	size_t n = 0, k = 0, nx = 0;
	while (environ && environ[n])
		n++;
	while (extra && extra[nx])
		nx++;
	char **env = sw_xcalloc(n + nx + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(environ[i], '=');
		size_t len = eq ? (size_t)(eq - environ[i]) : strlen(environ[i]);
		bool replaced = false;
		for (size_t j = 0; j < nx && !replaced; j++)
			replaced = strncmp(extra[j], environ[i], len) == 0 && extra[j][len] == '=';
		if (!replaced)
			env[k++] = environ[i];
	}
	for (size_t j = 0; j < nx; j++)
		env[k++] = (char *)(uintptr_t)extra[j];
	env[k] = NULL;
	return env;
}

/* Start spec.  stdout_fd < 0: stdout and stderr both go to the log (or
 * /dev/null); otherwise stdout is stdout_fd (a pipe's write end) and
 * stderr the log. */
static int spawn(int *out_pid, const struct sw_proc_spec *spec, int stdout_fd,
		 struct sw_err *err)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	pid_t pid = -1;
	int e;

	*out_pid = -1;
	if (!spec->argv || !spec->argv[0])
		return sw_err_set(err, SW_EUSAGE, "no program to run");
	for (size_t j = 0; spec->env && spec->env[j]; j++)
		if (!strchr(spec->env[j], '=') || spec->env[j][0] == '=')
			return sw_err_set(err, SW_EUSAGE, "bad environment entry '%s'", spec->env[j]);
	if (spec->stdin_path) {
		/* Opened here, not in the child, so that a missing file is this
		 * call's error rather than a child that dies at once. */
		int fd = open(spec->stdin_path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return sw_err_set(err, errno == ENOENT ? SW_ENOTFOUND : SW_EIO,
					  "cannot open '%s': %s", spec->stdin_path, strerror(errno));
		close(fd);
	}
	if (posix_spawn_file_actions_init(&fa) != 0)
		return sw_err_set(err, SW_EIO, "cannot run %s", spec->argv[0]);
	if (posix_spawnattr_init(&attr) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		return sw_err_set(err, SW_EIO, "cannot run %s", spec->argv[0]);
	}
	posix_spawn_file_actions_addopen(&fa, 0, spec->stdin_path ? spec->stdin_path : "/dev/null",
					 O_RDONLY, 0);
	const char *log = spec->log_path ? spec->log_path : "/dev/null";
	if (stdout_fd < 0) {
		posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0600);
		posix_spawn_file_actions_adddup2(&fa, 1, 2);
	} else {
		posix_spawn_file_actions_adddup2(&fa, stdout_fd, 1);
		posix_spawn_file_actions_addopen(&fa, 2, log, O_WRONLY | O_CREAT | O_APPEND, 0600);
	}
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
	/* The child gets nothing else of ours: no sockets, no databases. */
	posix_spawn_file_actions_addclosefrom_np(&fa, 3);
#endif
	short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
	sigset_t none, all;
	sigemptyset(&none);
	sigfillset(&all);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &all);
	if (spec->own_group) {
		flags |= POSIX_SPAWN_SETPGROUP;
		posix_spawnattr_setpgroup(&attr, 0);
	}
	posix_spawnattr_setflags(&attr, flags);
	char **env = make_env(spec->env);
	/* posix_spawn's argv is not const for historical reasons only. */
	char *const *argv = (char *const *)(uintptr_t)spec->argv;
	if (strchr(spec->argv[0], '/'))
		e = posix_spawn(&pid, spec->argv[0], &fa, &attr, argv, env);
	else
		e = posix_spawnp(&pid, spec->argv[0], &fa, &attr, argv, env);
	free(env);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	if (e != 0)
		return sw_err_set(err, e == ENOENT ? SW_ENOTFOUND : SW_EIO, "cannot run %s: %s",
				  spec->argv[0], strerror(e));
	*out_pid = (int)pid;
	return 0;
}

int sw_proc_spawn(int *out_pid, const struct sw_proc_spec *spec, struct sw_err *err)
{
	return spawn(out_pid, spec, -1, err);
}

static int exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 255;
}

int sw_proc_wait(int *code, int pid, unsigned timeout_ms)
{
	double until = sw_now() + timeout_ms / 1000.0;
	unsigned nap = 5;
	for (;;) {
		int status = 0;
		pid_t r = waitpid((pid_t)pid, &status, WNOHANG);
		if (r == (pid_t)pid) {
			if (code)
				*code = exit_code(status);
			return 1;
		}
		if (r < 0 && errno != EINTR)
			return errno == ECHILD ? SW_ENOTFOUND : SW_EIO;
		if (sw_now() >= until)
			return 0;
		sleep_ms(nap);
		if (nap < 50)
			nap *= 2;
	}
}

int sw_proc_reader_open(struct sw_proc_reader *out, const struct sw_proc_spec *spec,
			struct sw_err *err)
{
	int fds[2];
	out->fd = -1;
	out->pid = -1;
	if (pipe2(fds, O_CLOEXEC) != 0)
		return sw_err_set(err, SW_EIO, "cannot run %s: %s",
				  spec->argv && spec->argv[0] ? spec->argv[0] : "a program",
				  strerror(errno));
	int rc = spawn(&out->pid, spec, fds[1], err);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		return rc;
	}
	out->fd = fds[0];
	return 0;
}

int sw_proc_reader_close(struct sw_proc_reader *r, int *code)
{
	int status = 0, rc = 0;
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	if (r->pid > 0) {
		pid_t w;
		while ((w = waitpid((pid_t)r->pid, &status, 0)) < 0 && errno == EINTR)
			;
		if (w < 0)
			rc = SW_ENOTFOUND;
		else if (code)
			*code = exit_code(status);
	}
	r->pid = -1;
	return rc;
}

/* Kill a reader's child that went past a limit, and reap it. */
static void kill_reader(struct sw_proc_reader *r)
{
	if (r->pid > 0)
		kill((pid_t)r->pid, SIGKILL);
	(void)sw_proc_reader_close(r, NULL);
}

int sw_proc_capture(struct sw_buf *out, int *code, const struct sw_proc_spec *spec,
		    size_t limit, unsigned timeout_ms, struct sw_err *err)
{
	struct sw_proc_reader r;
	double until = sw_now() + timeout_ms / 1000.0;
	char buf[4096];
	int rc;

	sw_buf_reset(out);
	if ((rc = sw_proc_reader_open(&r, spec, err)) != 0)
		return rc;
	for (;;) {
		int wait_ms = -1;
		if (timeout_ms > 0) {
			double left = until - sw_now();
			if (left <= 0) {
				kill_reader(&r);
				return sw_err_set(err, SW_EIO, "%s did not finish within %.1f s",
						  spec->argv[0], timeout_ms / 1000.0);
			}
			wait_ms = (int)(left * 1000.0) + 1;
		}
		struct pollfd p = { .fd = r.fd, .events = POLLIN };
		int n = poll(&p, 1, wait_ms);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = sw_err_set(err, SW_EIO, "cannot read from %s: %s", spec->argv[0],
					strerror(errno));
			kill_reader(&r);
			return rc;
		}
		if (n == 0)
			continue; /* the deadline check above ends it */
		ssize_t got = read(r.fd, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			rc = sw_err_set(err, SW_EIO, "cannot read from %s: %s", spec->argv[0],
					strerror(errno));
			kill_reader(&r);
			return rc;
		}
		if (got == 0)
			break;
		if (out->len + (size_t)got > limit) {
			kill_reader(&r);
			return sw_err_set(err, SW_ELIMIT, "%s printed more than %zu bytes", spec->argv[0],
					  limit);
		}
		sw_buf_add(out, buf, (size_t)got);
	}
	int status = 0;
	if (sw_proc_reader_close(&r, &status) != 0)
		return sw_err_set(err, SW_EIO, "%s: lost the child process", spec->argv[0]);
	if (code)
		*code = status;
	return 0;
}

unsigned long long sw_proc_start_ticks(int pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* "pid (comm) S ppid ...": comm may hold spaces and parentheses, so
	 * count fields from the last ')'.  Field 3 is the state, 22 the start
	 * time. */
	char *p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X')
		return 0; /* gone, or a zombie: not running */
	p += 2;
	for (int field = 3; field < 22; field++) {
		p = strchr(p, ' ');
		if (!p)
			return 0;
		p++;
	}
	uint64_t v;
	size_t len = strcspn(p, " ");
	return sw_parse_u64(p, len, &v) ? (unsigned long long)v : 0;
}

bool sw_proc_running(int pid, unsigned long long start_ticks)
{
	if (pid <= 0)
		return false;
	unsigned long long t = sw_proc_start_ticks(pid);
	return t != 0 && (start_ticks == 0 || t == start_ticks);
}

/* Gone: reaped if it is our child, or no longer running otherwise. */
static bool gone(int pid)
{
	int status;
	pid_t r = waitpid((pid_t)pid, &status, WNOHANG);
	if (r == (pid_t)pid)
		return true;
	if (r < 0 && errno == ECHILD)
		return sw_proc_start_ticks(pid) == 0;
	return false;
}

int sw_proc_stop(int pid, unsigned grace_ms, struct sw_err *err)
{
	if (pid <= 0)
		return sw_err_set(err, SW_EUSAGE, "no process to stop");
	if (kill((pid_t)pid, SIGTERM) != 0 && errno == ESRCH) {
		(void)gone(pid);
		return 0;
	}
	double until = sw_now() + grace_ms / 1000.0;
	while (sw_now() < until) {
		if (gone(pid))
			return 0;
		sleep_ms(10);
	}
	if (kill((pid_t)pid, SIGKILL) != 0 && errno == ESRCH) {
		(void)gone(pid);
		return 0;
	}
	until = sw_now() + 5.0;
	while (sw_now() < until) {
		if (gone(pid))
			return 1;
		sleep_ms(10);
	}
	return sw_err_set(err, SW_EIO, "process %d does not stop even after SIGKILL", pid);
}

int sw_proc_daemonize(const char *log_path, struct sw_err *err)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return sw_err_set(err, SW_EIO, "cannot fork: %s", strerror(errno));
	if (pid > 0)
		return (int)pid;
	(void)setsid();
	int in = open("/dev/null", O_RDONLY);
	int out = open(log_path ? log_path : "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0600);
	if (in >= 0) {
		dup2(in, 0);
		if (in > 2)
			close(in);
	}
	if (out >= 0) {
		dup2(out, 1);
		dup2(out, 2);
		if (out > 2)
			close(out);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	return 0;
}
