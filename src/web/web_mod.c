/* web_mod.c - the table that the module sworn-web.so exports (web_mod.h).
 * Built into the module only, never into the binary. */
#include "web/web_mod.h"

__attribute__((visibility("default")))
extern const struct sw__web_module sw__web_module_v1;

__attribute__((visibility("default")))
const struct sw__web_module sw__web_module_v1 = {
	.abi = SW__WEB_MODULE_ABI,
	.version = SW_VERSION,
	.sizes = { sizeof(struct sw_web_opts), sizeof(struct sw_workspace), sizeof(struct sw_err) },
	.token = sw_web_token,
	.start = sw_web_start,
	.port = sw_web_port,
	.host = sw_web_host,
	.addr_is_loopback = sw_web_addr_is_loopback,
	.stop = sw_web_stop,
};
