/* render.c - the originals' pages drawn outside the server: poppler runs in
 * a child process with limits, one child per page, so that a page that
 * draws without end costs that child and nothing else.
 *
 * sw_web_start forks a helper (the "spawner") before the server's threads
 * start; it does nothing but fork one worker per request.  A request
 * thread sends the spawner what to do and one end of a fresh socket pair;
 * the worker sets its limits (CPU time, address space, no core file),
 * writes its pid, does the work (page_image.c) and writes the answer.  The
 * thread waits on its end of the pair, in slices, and kills the worker
 * when the server stops or the worker runs past its wall-clock bound.  No
 * lock is held while it waits; at most SW__WEB_RENDERS workers draw at
 * once and a request beyond that is told to try again. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "web/web_int.h"

#if defined(__SANITIZE_ADDRESS__)
#define NO_AS_LIMIT 1 /* ASan reserves terabytes of address space */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_AS_LIMIT 1
#endif
#endif

enum { JOB_PAGES = 1, JOB_RENDER = 2 };

/* What the spawner is sent, with the answer socket as SCM_RIGHTS. */
struct job {
	int kind;
	unsigned page;
	unsigned cpu_s;
	char path[4096];
};

/* A worker's answer, after its pid: rc (0 or SW_E*), value (the page
 * count), len bytes (the PNG, or the error's message). */
struct answer {
	int32_t rc;
	uint32_t value;
	uint32_t len;
};

#define ANSWER_MAX ((size_t)64 << 20)

static bool write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t k = write(fd, c, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		c += k;
		n -= (size_t)k;
	}
	return true;
}

static void limit(int res, rlim_t soft, rlim_t hard)
{
	struct rlimit rl = { soft, hard };
	(void)setrlimit(res, &rl);
}

/* The worker: limits, its pid, the job, the answer; never returns. */
static void work(int fd, const struct job *j)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	prctl(PR_SET_NAME, "sworn-render");
	limit(RLIMIT_CPU, j->cpu_s, j->cpu_s + 1);
	limit(RLIMIT_CORE, 0, 0);
#ifndef NO_AS_LIMIT
	limit(RLIMIT_AS, SW__WEB_RENDER_AS, SW__WEB_RENDER_AS);
#endif
	uint32_t pid = (uint32_t)getpid();
	if (!write_all(fd, &pid, sizeof(pid)))
		_exit(1);
	struct sw_err err = { 0 };
	struct sw_buf out = SW_BUF_INIT;
	struct answer a = { 0 };
	unsigned pages = 0;
	if (j->kind == JOB_PAGES)
		a.rc = sw__web_pdf_pages(&pages, j->path, &err);
	else
		/* the draw's own time bound comes before the kill's */
		a.rc = sw__web_page_render(&out, j->path, j->page, (long)j->cpu_s * 800, &err);
	a.value = pages;
	if (a.rc != 0) {
		sw_buf_reset(&out);
		sw_buf_adds(&out, err.msg);
	}
	a.len = (uint32_t)out.len;
	if (!write_all(fd, &a, sizeof(a)) || (out.len && !write_all(fd, out.data, out.len)))
		_exit(1);
	_exit(0);
}

/* The spawner: a worker per job until the server closes its end. */
static void spawner(int ctl)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGCHLD, SIG_IGN); /* workers are reaped as they end */
	for (;;) {
		struct job j;
		char cbuf[CMSG_SPACE(sizeof(int))];
		struct iovec iov = { &j, sizeof(j) };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
				      .msg_controllen = sizeof(cbuf) };
		ssize_t k = recvmsg(ctl, &msg, MSG_CMSG_CLOEXEC);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			_exit(0);
		struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
		if (!cm || cm->cmsg_type != SCM_RIGHTS)
			continue;
		int fd;
		memcpy(&fd, CMSG_DATA(cm), sizeof(fd));
		if ((size_t)k == sizeof(j)) {
			j.path[sizeof(j.path) - 1] = '\0';
			pid_t pid = fork();
			if (pid == 0) {
				close(ctl);
				work(fd, &j);
			}
		}
		close(fd);
	}
}

int sw__web_render_start(struct sw_web *w, struct sw_err *err)
{
	int sv[2];
	w->render_ctl = -1;
	w->render_pid = -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
		return sw_err_set(err, SW_EIO, "cannot make a socket pair: %s", strerror(errno));
	pid_t pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return sw_err_set(err, SW_EIO, "cannot start the page renderer: %s",
				  strerror(errno));
	}
	if (pid == 0) {
		close(sv[0]);
		spawner(sv[1]);
	}
	close(sv[1]);
	w->render_ctl = sv[0];
	w->render_pid = pid;
	return 0;
}

void sw__web_render_stop(struct sw_web *w)
{
	if (w->render_ctl >= 0)
		close(w->render_ctl); /* the spawner reads its end and exits */
	w->render_ctl = -1;
	if (w->render_pid > 0) {
		int st;
		while (waitpid(w->render_pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	w->render_pid = -1;
}

/* Read n bytes from fd into p before deadline (sw_now()); false at EOF,
 * an error, the deadline or the server stopping (*why says which). */
static bool read_bounded(int fd, void *p, size_t n, double deadline, const struct sw_web *w,
			 const char **why)
{
	char *c = p;
	while (n) {
		if (atomic_load(&w->stopping)) {
			*why = "stopping";
			return false;
		}
		double left = deadline - sw_now();
		if (left <= 0) {
			*why = "time";
			return false;
		}
		struct pollfd pf = { fd, POLLIN, 0 };
		int slice = left > 0.2 ? 200 : (int)(left * 1000) + 1;
		int r = poll(&pf, 1, slice);
		if (r < 0 && errno != EINTR) {
			*why = "poll";
			return false;
		}
		if (r <= 0)
			continue;
		ssize_t k = read(fd, c, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			*why = "ended";
			return false;
		}
		c += k;
		n -= (size_t)k;
	}
	return true;
}

/* Run one job in a worker: 0 with *out / *value, or SW_E* with err. */
static int call(struct sw_buf *out, unsigned *value, struct sw_web *w, int kind,
		const char *path, unsigned page, struct sw_err *err)
{
	struct job j = { .kind = kind, .page = page, .cpu_s = w->render_cpu_s };
	int sv[2], rc = 0;
	uint32_t pid = 0;
	struct answer a;
	const char *why = NULL;

	if (strlen(path) >= sizeof(j.path))
		return sw_err_set(err, SW_ELIMIT, "the original's path is too long to draw");
	memcpy(j.path, path, strlen(path) + 1);
	/* a count is cheap to ask, and has_image needs it: only drawing is
	 * rationed */
	bool gated = kind == JOB_RENDER;
	if (gated && atomic_fetch_add(&w->renders, 1) >= SW__WEB_RENDERS) {
		atomic_fetch_sub(&w->renders, 1);
		return sw_err_set(err, SW_ECANCEL, "the server is drawing %d pages already: try "
				  "again in a moment", SW__WEB_RENDERS);
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		rc = sw_err_set(err, SW_EIO, "cannot make a socket pair: %s", strerror(errno));
		goto done;
	}
	char cbuf[CMSG_SPACE(sizeof(int))];
	memset(cbuf, 0, sizeof(cbuf));
	struct iovec iov = { &j, sizeof(j) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &sv[1], sizeof(int));
	ssize_t k;
	while ((k = sendmsg(w->render_ctl, &msg, MSG_NOSIGNAL)) < 0 && errno == EINTR)
		;
	close(sv[1]);
	if (k != (ssize_t)sizeof(j)) {
		close(sv[0]);
		rc = sw_err_set(err, SW_EIO, "the page renderer is gone: restart sworn serve");
		goto done;
	}
	/* CPU time bounds the worker; the wall clock only a worker that
	 * waits (a loaded machine gets twice its CPU time and ten seconds) */
	double deadline = sw_now() + 2.0 * w->render_cpu_s + 10.0;
	if (!read_bounded(sv[0], &pid, sizeof(pid), deadline, w, &why) ||
	    !read_bounded(sv[0], &a, sizeof(a), deadline, w, &why)) {
		if (pid && strcmp(why, "ended") != 0)
			kill((pid_t)pid, SIGKILL);
		if (!strcmp(why, "stopping"))
			rc = sw_err_set(err, SW_ECANCEL, "the server is stopping");
		else
			rc = sw_err_set(err, SW_ELIMIT,
					"page %u of the original takes more than a page may "
					"to draw (%u s of CPU, %u MiB): its text is shown, "
					"not its image",
					page, w->render_cpu_s, (unsigned)(SW__WEB_RENDER_AS >> 20));
		close(sv[0]);
		goto done;
	}
	if (a.len > ANSWER_MAX) {
		kill((pid_t)pid, SIGKILL);
		close(sv[0]);
		rc = sw_err_set(err, SW_ELIMIT, "page %u's image is over %zu bytes", page,
				ANSWER_MAX);
		goto done;
	}
	sw_buf_reset(out);
	sw_buf_grow(out, (size_t)a.len + 1);
	if (a.len && !read_bounded(sv[0], out->data, a.len, deadline, w, &why)) {
		if (strcmp(why, "ended") != 0)
			kill((pid_t)pid, SIGKILL);
		close(sv[0]);
		rc = sw_err_set(err, SW_EIO, "the page renderer stopped mid-answer");
		goto done;
	}
	out->len = a.len;
	out->data[out->len] = '\0';
	close(sv[0]);
	if (a.rc != 0) {
		rc = sw_err_set(err, a.rc < 0 && a.rc >= SW_EFAULT ? a.rc : SW_EIO, "%s",
				out->data);
		sw_buf_reset(out);
	}
	*value = a.value;
done:
	if (gated)
		atomic_fetch_sub(&w->renders, 1);
	return rc;
}

int sw__web_render_pages(unsigned *pages, struct sw_web *w, const char *path,
			 struct sw_err *err)
{
	struct sw_buf none = SW_BUF_INIT;
	*pages = 0;
	int rc = call(&none, pages, w, JOB_PAGES, path, 0, err);
	sw_buf_release(&none);
	return rc;
}

int sw__web_render_png(struct sw_buf *out, struct sw_web *w, const char *path,
		       unsigned page_no, struct sw_err *err)
{
	unsigned unused = 0;
	return call(out, &unused, w, JOB_RENDER, path, page_no, err);
}
