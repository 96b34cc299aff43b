/*
 * sv_say.c - the supervisor's two leaf helpers: its log lines and its
 * sleeps.  supervise.c (the loop) and state.c (the state file it writes)
 * both call them, so they live in neither.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "fleet/fleet_int.h"

void sw__fleet_sleep_ms(unsigned ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

void sw__fleet_sv_say(const struct sw__fleet_server *s, const char *fmt, ...)
{
	char now[21];
	va_list ap;
	sw_utc_now(now);
	printf("%s %s: ", now, s ? s->name : "fleet");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}
