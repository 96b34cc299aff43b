/*
 * fuzz_conf.c - a hostile sworn.conf through the INI reader and the two
 * readers of its sections: [policy]/[endpoint]/[role] (llm/) and [fleet]
 * (fleet/).  Checks: a failure has a message; a loaded endpoint has a url
 * and a host, and no url holds userinfo (an '@' before the path).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"
#include "llm/llm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
	if (!ok)
		SW_BUG("fuzz_conf: %s", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sw_config cfg;
	struct sw_err err = { 0 };
	if (sw_config_parse(&cfg, (const char *)data, size, "sworn.conf", &err) != 0) {
		check(err.msg[0] != '\0', "failure without a message");
		return 0;
	}
	struct sw_llm_config llm;
	if (sw_llm_config_load(&llm, &cfg, &err) == 0) {
		for (size_t i = 0; i < llm.n_endpoints; i++) {
			const struct sw_llm_endpoint *e = &llm.endpoints[i];
			check(e->url && e->host, "an endpoint without a url or host");
			/* Userinfo is an '@' in the authority; one in the path is a path. */
			const char *auth = strstr(e->url, "://");
			auth = auth ? auth + 3 : e->url;
			check(!memchr(auth, '@', strcspn(auth, "/?#")), "userinfo in a url");
		}
		sw_llm_config_release(&llm);
	} else {
		check(err.msg[0] != '\0', "llm: failure without a message");
	}
	struct sw_fleet_conf fc;
	memset(&fc, 0, sizeof(fc));
	err.msg[0] = '\0';
	int rc = sw_fleet_conf_load(&fc, &cfg, "/ws", &err);
	if (rc == 0)
		sw_fleet_conf_release(&fc);
	else
		check(rc == SW_ENOTFOUND || err.msg[0] != '\0', "fleet: failure without a message");
	sw_config_release(&cfg);
	return 0;
}
