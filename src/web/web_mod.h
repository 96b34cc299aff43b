/*
 * web_mod.h - the table of the module sworn-web.so.  web/ links
 * libmicrohttpd (with GnuTLS and its libraries), poppler and cairo, which
 * sworn does not: binding them cost over 10 ms of every start.  So the
 * whole of web/ but web_load.c is built into the module sworn-web.so
 * (compiled with hidden visibility, so that its functions bind to
 * themselves, not to the stubs of the same names), whose one export is the
 * table below (web_mod.c); web_load.c's sw_web_* in the binary load it on
 * first use (base.h's sw_module_load), check it is this build's and call
 * through it.  The module's calls into the other subsystems go to sworn's
 * own copies, which sworn exports.
 */
#ifndef SW_WEB_MOD_H
#define SW_WEB_MOD_H

#include "web/web.h"

#define SW__WEB_MODULE_ABI 2 /* bump when the table or a struct it passes changes */
#define SW__WEB_MODULE_SYMBOL "sw__web_module_v1"

struct sw__web_module {
	unsigned abi;
	const char *version; /* SW_VERSION */
	size_t sizes[3];     /* sizeof sw_web_opts, sw_workspace, sw_err */
	int (*token)(char out[SW_WEB_TOKEN_HEX + 1], const char *ws_root, bool rotate,
		     struct sw_err *err);
	int (*start)(struct sw_web **out, const struct sw_web_opts *o, struct sw_err *err);
	unsigned (*port)(const struct sw_web *w);
	const char *(*host)(const struct sw_web *w);
	bool (*addr_is_loopback)(const char *addr);
	void (*stop)(struct sw_web *w);
};

#endif /* SW_WEB_MOD_H */
