/* fault.c - the fault seam: SWORN_FAULT="site:N[:crash|:pause]" makes the
 * Nth call of sw_fault(site) fail, kill the process as a power cut would,
 * or wait for a release file (a race made to happen).  It
 * exists for tests of error paths and crash recovery; with the variable
 * unset it costs one getenv per process.  SWORN_FAULT_MARK=FILE makes the
 * firing create FILE, so a loop over N knows when N has gone past the last
 * call of an operation (tests/cli/fault_loop.sh). */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"

static struct {
	bool parsed;
	char site[64];
	uint64_t nth;
	bool crash, pause;
	uint64_t hits;
} fault;

static void parse_env(void)
{
	fault.parsed = true;
	const char *v = getenv("SWORN_FAULT");
	if (!v)
		return;
	const char *c1 = strchr(v, ':');
	if (!c1 || (size_t)(c1 - v) >= sizeof(fault.site))
		return;
	const char *c2 = strchr(c1 + 1, ':');
	size_t nlen = c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1);
	if (!sw_parse_u64(c1 + 1, nlen, &fault.nth) || fault.nth == 0)
		return;
	memcpy(fault.site, v, (size_t)(c1 - v));
	fault.site[c1 - v] = '\0';
	fault.crash = c2 && strcmp(c2 + 1, "crash") == 0;
	fault.pause = c2 && strcmp(c2 + 1, "pause") == 0;
}

bool sw_fault(const char *site)
{
	if (!fault.parsed)
		parse_env();
	if (!fault.site[0] || strcmp(site, fault.site) != 0)
		return false;
	if (++fault.hits != fault.nth)
		return false;
	const char *mark = getenv("SWORN_FAULT_MARK");
	if (mark) {
		int fd = open(mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
		if (fd >= 0)
			close(fd);
	}
	if (fault.crash)
		kill(getpid(), SIGKILL);
	if (fault.pause) {
		const char *release = getenv("SWORN_FAULT_RELEASE");
		const struct timespec tick = { 0, 10 * 1000 * 1000 };
		for (int i = 0; release && i < 6000 && access(release, F_OK) != 0; i++)
			nanosleep(&tick, NULL);
		return false;
	}
	return true;
}
