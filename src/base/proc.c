/* proc.c - process spawning for supervisors: start a program with extra
 * environment and its output appended to a log, wait with a timeout, stop
 * it politely then firmly, and tell a live process from a recycled pid. */
#define _GNU_SOURCE /* posix_spawn_file_actions_addclosefrom_np (glibc 2.34) */
#include <errno.h>
#include <fcntl.h>
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

int sw_proc_spawn(int *out_pid, const struct sw_proc_spec *spec, struct sw_err *err)
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
	if (posix_spawn_file_actions_init(&fa) != 0)
		return sw_err_set(err, SW_EIO, "cannot run %s", spec->argv[0]);
	if (posix_spawnattr_init(&attr) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		return sw_err_set(err, SW_EIO, "cannot run %s", spec->argv[0]);
	}
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, spec->log_path ? spec->log_path : "/dev/null",
					 O_WRONLY | O_CREAT | O_APPEND, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
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
