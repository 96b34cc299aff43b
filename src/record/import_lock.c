/* import_lock.c - one import at a time per matter: an exclusive flock on
 * matters/<name>/import.lock.  Two imports into one matter would each find
 * a document missing, and the slower would fail on the unique identity the
 * faster just stored; with the lock the second waits (or gives up) and then
 * finds everything already there.  The kernel drops a flock when its
 * process dies, so a kill -9 never leaves the matter locked.  The holder's
 * pid is written in the file only to name it in the message. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/record_int.h"

/* The pid the holder wrote, or 0. */
static long holder_pid(int fd)
{
	char buf[24];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	char *end;
	long pid = strtol(buf, &end, 10);
	return pid > 0 && (*end == '\n' || *end == '\0') ? pid : 0;
}

static int take(int fd, int how)
{
	int r;
	do
		r = flock(fd, how);
	while (r != 0 && errno == EINTR);
	return r;
}

int sw_record_import_lock(int *out_fd, struct sw_matter *m, bool wait,
			  void (*waiting)(void *user, long pid), void *user,
			  struct sw_err *err)
{
	*out_fd = -1;
	char *path = sw_path_join(m->dir, "import.lock");
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		int e = errno;
		sw_err_set(err, SW_EIO, "cannot open %s: %s", path, strerror(e));
		free(path);
		return SW_EIO;
	}
	free(path);
	if (take(fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno != EWOULDBLOCK) {
			int e = errno;
			close(fd);
			return sw_err_set(err, SW_EIO, "cannot lock matter '%s' for the import: %s",
					  m->name, strerror(e));
		}
		long pid = holder_pid(fd);
		if (!wait) {
			close(fd);
			if (pid)
				return sw_err_set(err, SW_EEXIST,
						  "another import into matter '%s' is running (pid %ld);"
						  " try again when it ends", m->name, pid);
			return sw_err_set(err, SW_EEXIST,
					  "another import into matter '%s' is running; try again when it ends",
					  m->name);
		}
		if (waiting)
			waiting(user, pid);
		if (take(fd, LOCK_EX) != 0) {
			int e = errno;
			close(fd);
			return sw_err_set(err, SW_EIO, "cannot lock matter '%s' for the import: %s",
					  m->name, strerror(e));
		}
	}
	char pid[24];
	int n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
		/* Only the message of a waiting import would lack the pid. */
	}
	*out_fd = fd;
	return 0;
}

void sw_record_import_unlock(int fd)
{
	if (fd < 0)
		return;
	/* Emptied first, so a later waiter names no pid that is gone. */
	if (ftruncate(fd, 0) != 0) {
		/* best effort: the pid is only ever shown */
	}
	close(fd);
}
