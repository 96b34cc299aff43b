/* web_load.c - sworn serve's entry points in the binary: each loads the
 * module sworn-web.so the first time it is called and calls the module's
 * function (web_mod.h says why web/ is not linked in). */
#include <pthread.h>
#include <string.h>

#include "web/web_mod.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const struct sw__web_module *web; /* NULL: load_err says why */
static struct sw_err load_err;

static void load(void)
{
	void *p = NULL;
	if (sw_module_load(&p, "web", SW__WEB_MODULE_SYMBOL, &load_err) != 0)
		return;
	const struct sw__web_module *m = p;
	const size_t sizes[] = { sizeof(struct sw_web_opts), sizeof(struct sw_workspace),
				 sizeof(struct sw_err) };
	if (sw_module_check("web", m->abi, SW__WEB_MODULE_ABI, m->version, m->sizes, sizes,
			    SW_ARRAY_LEN(sizes), &load_err) != 0)
		return;
	web = m;
}

static const struct sw__web_module *get(struct sw_err *err)
{
	pthread_once(&once, load);
	if (!web)
		sw_err_set(err, load_err.code, "%s", load_err.msg);
	return web;
}

/* For the calls whose contract has no error: without its module sworn is
 * not installed, and the command stops saying so. */
static const struct sw__web_module *need(void)
{
	pthread_once(&once, load);
	if (!web)
		sw_die("%s", load_err.msg);
	return web;
}

int sw_web_token(char out[SW_WEB_TOKEN_HEX + 1], const char *ws_root, bool rotate,
		 struct sw_err *err)
{
	const struct sw__web_module *m = get(err);
	return m ? m->token(out, ws_root, rotate, err) : load_err.code;
}

int sw_web_start(struct sw_web **out, const struct sw_web_opts *o, struct sw_err *err)
{
	const struct sw__web_module *m = get(err);
	if (!m) {
		*out = NULL;
		return load_err.code;
	}
	return m->start(out, o, err);
}

unsigned sw_web_port(const struct sw_web *w)
{
	return need()->port(w);
}

const char *sw_web_host(const struct sw_web *w)
{
	return need()->host(w);
}

bool sw_web_addr_is_loopback(const char *addr)
{
	return need()->addr_is_loopback(addr);
}

void sw_web_stop(struct sw_web *w)
{
	if (w)
		need()->stop(w);
}
