/* hosts.c - the Host values sworn serve answers (DNS rebinding: a page of
 * another site that points its own name at this machine still sends that
 * name): the bind address, and what names this machine by the address it
 * listens on.  Bound to a wildcard address (0.0.0.0, ::), that is every
 * address of its interfaces and its host name, not the wildcard alone.
 * Whether an address is loopback is told here too. */
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "web/web_int.h"

bool sw_web_addr_is_loopback(const char *addr)
{
	struct in_addr a4;
	struct in6_addr a6;
	if (!addr)
		return false;
	if (inet_pton(AF_INET, addr, &a4) == 1)
		return (ntohl(a4.s_addr) >> 24) == 127;
	if (inet_pton(AF_INET6, addr, &a6) == 1) {
		if (IN6_IS_ADDR_LOOPBACK(&a6))
			return true;
		return IN6_IS_ADDR_V4MAPPED(&a6) && a6.s6_addr[12] == 127;
	}
	return false;
}

/* name:port (brackets: [name]:port, an IPv6 address) unless it is there. */
static void add(struct sw_web *w, bool brackets, const char *name)
{
	char v[sizeof(w->hosts[0])];
	snprintf(v, sizeof(v), brackets ? "[%s]" : "%s", name);
	size_t n = strlen(v);
	snprintf(v + n, sizeof(v) - n, ":%u", w->port);
	for (size_t i = 0; i < w->nhosts; i++)
		if (strcasecmp(w->hosts[i], v) == 0)
			return;
	if (w->nhosts < SW__WEB_HOSTS)
		memcpy(w->hosts[w->nhosts++], v, sizeof(v));
}

static void add_interfaces(struct sw_web *w, bool v4, bool v6)
{
	struct ifaddrs *all = NULL;
	char a[INET6_ADDRSTRLEN];
	if (getifaddrs(&all) != 0)
		return;
	for (struct ifaddrs *i = all; i; i = i->ifa_next) {
		if (!i->ifa_addr)
			continue;
		if (v4 && i->ifa_addr->sa_family == AF_INET) {
			const struct sockaddr_in *s = (const void *)i->ifa_addr;
			if (inet_ntop(AF_INET, &s->sin_addr, a, sizeof(a)))
				add(w, false, a);
		} else if (v6 && i->ifa_addr->sa_family == AF_INET6) {
			const struct sockaddr_in6 *s = (const void *)i->ifa_addr;
			/* a link-local address needs its zone, which no Host holds */
			if (!IN6_IS_ADDR_LINKLOCAL(&s->sin6_addr) &&
			    inet_ntop(AF_INET6, &s->sin6_addr, a, sizeof(a)))
				add(w, true, a);
		}
	}
	freeifaddrs(all);
}

void sw__web_hosts_fill(struct sw_web *w, const char *bind)
{
	struct in_addr a4;
	struct in6_addr a6;
	bool any4 = inet_pton(AF_INET, bind, &a4) == 1 && a4.s_addr == htonl(INADDR_ANY);
	bool any6 = inet_pton(AF_INET6, bind, &a6) == 1 && IN6_IS_ADDR_UNSPECIFIED(&a6);

	w->nhosts = 0;
	add(w, false, w->host);
	if (sw_web_addr_is_loopback(bind) || any4 || any6) {
		add(w, false, "localhost");
		add(w, false, "127.0.0.1");
		if (any6 || strchr(bind, ':'))
			add(w, true, "::1");
	}
	if (any4 || any6)
		add_interfaces(w, true, any6);
	if (!sw_web_addr_is_loopback(bind)) {
		/* the names a person on the network types for this machine */
		char name[256];
		if (gethostname(name, sizeof(name) - 1) == 0) {
			name[sizeof(name) - 1] = '\0';
			if (name[0] && strlen(name) < SW__WEB_HOST_MAX)
				add(w, false, name);
		}
	}
}

bool sw__web_host_ok(const struct sw_web *w, const char *host)
{
	if (!host)
		return false;
	for (size_t i = 0; i < w->nhosts; i++)
		if (strcasecmp(host, w->hosts[i]) == 0)
			return true;
	return false;
}
