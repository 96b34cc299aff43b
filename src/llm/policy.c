/*
 * policy.c - the local-only policy, decided on a socket address.
 *
 * The check runs on the address libcurl is about to connect to, so it sees
 * through DNS, /etc/hosts and resolve overrides alike: a friendly name that
 * resolves to a public address is refused however it got there.  An
 * IPv4-mapped IPv6 address is judged by its IPv4 part, or ::ffff:8.8.8.8
 * would pass as "IPv6, not loopback" under some other rule and slip by.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/un.h>

#include "llm/llm_int.h"

static enum sw__llm_addr_class classify_v4(const unsigned char b[4])
{
	if (!b[0] && !b[1] && !b[2] && !b[3])
		return SW__LLM_ADDR_UNSPECIFIED;
	if (b[0] == 127)
		return SW__LLM_ADDR_LOOPBACK;
	if (b[0] == 10 || (b[0] == 172 && (b[1] & 0xf0) == 16) ||
	    (b[0] == 192 && b[1] == 168))
		return SW__LLM_ADDR_PRIVATE;
	if (b[0] == 169 && b[1] == 254)
		return SW__LLM_ADDR_LINK_LOCAL;
	return SW__LLM_ADDR_PUBLIC;
}

enum sw__llm_addr_class sw__llm_addr_classify(const struct sockaddr *sa, socklen_t len)
{
	if (!sa || len < (socklen_t)sizeof(sa_family_t))
		return SW__LLM_ADDR_PUBLIC;
	if (sa->sa_family == AF_UNIX)
		return SW__LLM_ADDR_UNIX;
	if (sa->sa_family == AF_INET && len >= (socklen_t)sizeof(struct sockaddr_in)) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)(const void *)sa;
		return classify_v4((const unsigned char *)&in->sin_addr);
	}
	if (sa->sa_family == AF_INET6 && len >= (socklen_t)sizeof(struct sockaddr_in6)) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)(const void *)sa;
		const unsigned char *b = in6->sin6_addr.s6_addr;
		static const unsigned char mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
		static const unsigned char loop[16] = { [15] = 1 };
		static const unsigned char any[16] = { 0 };
		if (memcmp(b, mapped, 12) == 0)
			return classify_v4(b + 12);
		if (memcmp(b, any, 16) == 0)
			return SW__LLM_ADDR_UNSPECIFIED;
		if (memcmp(b, loop, 16) == 0)
			return SW__LLM_ADDR_LOOPBACK;
		if ((b[0] & 0xfe) == 0xfc)
			return SW__LLM_ADDR_PRIVATE;
		if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80)
			return SW__LLM_ADDR_LINK_LOCAL;
	}
	return SW__LLM_ADDR_PUBLIC;
}

const char *sw__llm_addr_class_name(enum sw__llm_addr_class c)
{
	switch (c) {
	case SW__LLM_ADDR_LOOPBACK: return "loopback";
	case SW__LLM_ADDR_PRIVATE: return "a private address";
	case SW__LLM_ADDR_LINK_LOCAL: return "link-local";
	case SW__LLM_ADDR_UNIX: return "a unix socket";
	case SW__LLM_ADDR_UNSPECIFIED: return "the unspecified address";
	case SW__LLM_ADDR_PUBLIC: return "a public address";
	}
	return "unknown";
}

const char *sw_llm_address_class(const char *addr, bool *local)
{
	struct sockaddr_in in = { .sin_family = AF_INET };
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6 };
	enum sw__llm_addr_class c;
	if (addr && inet_pton(AF_INET, addr, &in.sin_addr) == 1)
		c = sw__llm_addr_classify((const struct sockaddr *)(const void *)&in, sizeof(in));
	else if (addr && inet_pton(AF_INET6, addr, &in6.sin6_addr) == 1)
		c = sw__llm_addr_classify((const struct sockaddr *)(const void *)&in6, sizeof(in6));
	else
		return NULL;
	if (local)
		*local = c != SW__LLM_ADDR_PUBLIC && c != SW__LLM_ADDR_UNSPECIFIED;
	return sw__llm_addr_class_name(c);
}

void sw__llm_addr_format(char *out, size_t outsz, const struct sockaddr *sa, socklen_t len)
{
	char host[INET6_ADDRSTRLEN];

	if (!sa || len < (socklen_t)sizeof(sa_family_t)) {
		snprintf(out, outsz, "(no address)");
	} else if (sa->sa_family == AF_UNIX) {
		const struct sockaddr_un *un = (const struct sockaddr_un *)(const void *)sa;
		size_t max = (size_t)len > offsetof(struct sockaddr_un, sun_path)
				     ? (size_t)len - offsetof(struct sockaddr_un, sun_path)
				     : 0;
		if (max > sizeof(un->sun_path))
			max = sizeof(un->sun_path);
		snprintf(out, outsz, "unix:%.*s", (int)strnlen(un->sun_path, max), un->sun_path);
	} else if (sa->sa_family == AF_INET && len >= (socklen_t)sizeof(struct sockaddr_in)) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)(const void *)sa;
		inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
		snprintf(out, outsz, "%s:%u", host, (unsigned)ntohs(in->sin_port));
	} else if (sa->sa_family == AF_INET6 && len >= (socklen_t)sizeof(struct sockaddr_in6)) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)(const void *)sa;
		inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
		snprintf(out, outsz, "[%s]:%u", host, (unsigned)ntohs(in6->sin6_port));
	} else {
		snprintf(out, outsz, "(address family %d)", (int)sa->sa_family);
	}
}

static bool allowed_host(const struct sw_llm_policy *p, const char *host)
{
	for (size_t i = 0; host && i < p->n_allow; i++)
		if (sw_streq_ci(p->allow_hosts[i], host))
			return true;
	return false;
}

int sw__llm_policy_check(const struct sw_llm_policy *p, bool force_local,
		     const char *endpoint, const char *host,
		     const struct sockaddr *sa, socklen_t len, char *why,
		     size_t whysz, struct sw_err *err)
{
	char addr[INET6_ADDRSTRLEN + 16];
	enum sw__llm_addr_class cls = sw__llm_addr_classify(sa, len);

	sw__llm_addr_format(addr, sizeof(addr), sa, len);
	if (cls != SW__LLM_ADDR_PUBLIC && cls != SW__LLM_ADDR_UNSPECIFIED) {
		snprintf(why, whysz, "%s is %s", addr, sw__llm_addr_class_name(cls));
		return 0;
	}
	if (!force_local && allowed_host(p, host)) {
		snprintf(why, whysz, "%s is in allow_hosts", host);
		return 0;
	}
	if (!force_local && p->mode == SW_LLM_ALLOW_REMOTE) {
		snprintf(why, whysz, "%s is %s, and the policy is allow-remote", addr,
			 sw__llm_addr_class_name(cls));
		return 0;
	}
	/* The refusal never suggests allow-listing what it refuses: a name
	 * that resolves to a public address is what an attacker would want
	 * trusted. */
	if (force_local)
		return sw_err_set(err, SW_EPOLICY,
				  "endpoint '%s' refused: '%s' connects to %s, %s, and a "
				  "fallback endpoint must be local; name a loopback, private or "
				  "unix-socket endpoint as the role's fallback",
				  endpoint, host ? host : "?", addr, sw__llm_addr_class_name(cls));
	return sw_err_set(err, SW_EPOLICY,
			  "endpoint '%s' refused by the local-only policy: '%s' connects to %s, "
			  "%s; sworn sends matter text only to models on this network "
			  "(loopback, private addresses, unix sockets)",
			  endpoint, host ? host : "?", addr, sw__llm_addr_class_name(cls));
}
