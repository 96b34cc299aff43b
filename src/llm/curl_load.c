/* curl_load.c - libcurl, loaded the first time sworn talks to a server.
 * Linking libcurl would bind it and its thirty-odd libraries (TLS,
 * Kerberos, LDAP, HTTP/2...) at every start, about 6 ms, which the
 * commands that never open a connection (sworn claims, verify, search) need
 * not pay.  So sworn does not link it: each libcurl function llm/ (and
 * sworn version) calls is defined here with libcurl's own name and
 * prototype, from <curl/curl.h>, and calls the real one, looked up with
 * dlsym() once.  A function used elsewhere must be added to the list below
 * (the link fails until it is).  Without libcurl (the package depends on
 * it) sworn stops with one line saying so. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>

/* The type-checking macros would rename the definitions below. */
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>

#include "base/base.h"

/* Set by CMakeLists.txt; the fallback keeps a hand-built file compiling. */
#ifndef SW_CURL_SONAME
#define SW_CURL_SONAME "libcurl.so.4"
#endif

/* The functions that return nothing: name, parameters, arguments. */
#define SW_CURL_VOID_FUNCTIONS(V) \
	V(curl_global_cleanup, (void), ()) \
	V(curl_free, (void *p), (p)) \
	V(curl_slist_free_all, (struct curl_slist *l), (l)) \
	V(curl_easy_cleanup, (CURL *h), (h)) \
	V(curl_easy_reset, (CURL *h), (h)) \
	V(curl_url_cleanup, (CURLU *u), (u))

/* The others: name, return type, parameters, arguments. */
#define SW_CURL_FUNCTIONS(X) \
	X(curl_global_init, CURLcode, (long flags), (flags)) \
	X(curl_version_info, curl_version_info_data *, (CURLversion v), (v)) \
	X(curl_slist_append, struct curl_slist *, (struct curl_slist *l, const char *s), (l, s)) \
	X(curl_easy_init, CURL *, (void), ()) \
	X(curl_easy_strerror, const char *, (CURLcode c), (c)) \
	X(curl_multi_init, CURLM *, (void), ()) \
	X(curl_multi_cleanup, CURLMcode, (CURLM *m), (m)) \
	X(curl_multi_add_handle, CURLMcode, (CURLM *m, CURL *h), (m, h)) \
	X(curl_multi_remove_handle, CURLMcode, (CURLM *m, CURL *h), (m, h)) \
	X(curl_multi_perform, CURLMcode, (CURLM *m, int *running), (m, running)) \
	X(curl_multi_poll, CURLMcode, (CURLM *m, struct curl_waitfd extra[], unsigned int nextra, \
				       int timeout_ms, int *ret), (m, extra, nextra, timeout_ms, ret)) \
	X(curl_multi_info_read, CURLMsg *, (CURLM *m, int *queued), (m, queued)) \
	X(curl_multi_strerror, const char *, (CURLMcode c), (c)) \
	X(curl_url, CURLU *, (void), ()) \
	X(curl_url_get, CURLUcode, (CURLU *u, CURLUPart what, char **part, unsigned int flags), \
	  (u, what, part, flags)) \
	X(curl_url_set, CURLUcode, (CURLU *u, CURLUPart what, const char *part, unsigned int flags), \
	  (u, what, part, flags)) \
	X(curl_url_strerror, const char *, (CURLUcode c), (c))

static struct {
#define X(name, ret, params, args) ret(*name) params;
#define V(name, params, args) void(*name) params;
	SW_CURL_FUNCTIONS(X)
	SW_CURL_VOID_FUNCTIONS(V)
#undef X
#undef V
	CURLcode (*curl_easy_setopt)(CURL *h, CURLoption o, ...);
	CURLcode (*curl_easy_getinfo)(CURL *h, CURLINFO i, ...);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;

/* POSIX guarantees the conversion from dlsym's void *; the union keeps
 * -Wpedantic quiet. */
static void *sym(void *lib, const char *name)
{
	void *p = dlsym(lib, name);
	if (!p)
		sw_die("%s lacks %s (libcurl too old?)", SW_CURL_SONAME, name);
	return p;
}

#define SW_CURL_BIND(field, name) \
	do { \
		union { \
			void *p; \
			__typeof__(api.field) fn; \
		} u = { .p = sym(lib, name) }; \
		api.field = u.fn; \
	} while (0)

static void load(void)
{
	void *lib = dlopen(SW_CURL_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		const char *e = dlerror();
		sw_die("cannot load libcurl, which sworn needs to talk to a server: %s",
		       e ? e : SW_CURL_SONAME);
	}
#define X(name, ret, params, args) SW_CURL_BIND(name, #name);
#define V(name, params, args) SW_CURL_BIND(name, #name);
	SW_CURL_FUNCTIONS(X)
	SW_CURL_VOID_FUNCTIONS(V)
#undef X
#undef V
	SW_CURL_BIND(curl_easy_setopt, "curl_easy_setopt");
	SW_CURL_BIND(curl_easy_getinfo, "curl_easy_getinfo");
}

#define X(name, ret, params, args) \
	ret(name) params \
	{ \
		pthread_once(&once, load); \
		return api.name args; \
	}
#define V(name, params, args) \
	void(name) params \
	{ \
		pthread_once(&once, load); \
		api.name args; \
	}
SW_CURL_FUNCTIONS(X)
SW_CURL_VOID_FUNCTIONS(V)
#undef X
#undef V

/* The option's type is in its number (CURLOPTTYPE_*): a long, a pointer
 * (object or function), a curl_off_t or a blob pointer. */
CURLcode(curl_easy_setopt)(CURL *h, CURLoption option, ...)
{
	va_list ap;
	CURLcode rc;

	pthread_once(&once, load);
	va_start(ap, option);
	if (option < CURLOPTTYPE_OBJECTPOINT) {
		long v = va_arg(ap, long);
		rc = api.curl_easy_setopt(h, option, v);
	} else if (option >= CURLOPTTYPE_OFF_T && option < CURLOPTTYPE_BLOB) {
		curl_off_t v = va_arg(ap, curl_off_t);
		rc = api.curl_easy_setopt(h, option, v);
	} else {
		void *v = va_arg(ap, void *);
		rc = api.curl_easy_setopt(h, option, v);
	}
	va_end(ap);
	return rc;
}

/* Every CURLINFO_* value is read through a pointer. */
CURLcode(curl_easy_getinfo)(CURL *h, CURLINFO info, ...)
{
	va_list ap;
	pthread_once(&once, load);
	va_start(ap, info);
	void *p = va_arg(ap, void *);
	va_end(ap);
	return api.curl_easy_getinfo(h, info, p);
}
