/* module.c - sworn's own shared modules.  The code that needs the large
 * native libraries (poppler, cairo, GMime, libgsf...) is built as a module,
 * sworn-NAME.so, that sworn loads with dlopen() the first time a command
 * needs it: binding those libraries costs about 20 ms of every start, which
 * a command that reads only text (sworn claims, verify, search) need not
 * pay.  Modules live beside the executable that runs (found through
 * /proc/self/exe, not PATH or the current folder), so a build folder and an
 * installation each load their own. */
#include <dlfcn.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"

/* The module folder relative to the installed bindir (CMakeLists.txt sets
 * it from GNUInstallDirs); the fallback keeps a hand-built file compiling. */
#ifndef SW_MODULE_REL
#define SW_MODULE_REL "../lib/sworn"
#endif

/* Where to look, relative to the executable's folder: the installed layout,
 * then the build folder's (CMake writes modules to BUILD/lib/sworn; sworn
 * runs from BUILD/, the tests from BUILD/tests/). */
static const char *const rels[] = { SW_MODULE_REL, "lib/sworn", "../lib/sworn" };

static bool exe_dir(char *out, size_t outsz)
{
	ssize_t n = readlink("/proc/self/exe", out, outsz - 1);
	if (n <= 0 || (size_t)n >= outsz - 1)
		return false;
	out[n] = '\0';
	char *slash = strrchr(out, '/');
	if (!slash)
		return false;
	*slash = '\0';
	return true;
}

int sw_module_load(void **out, const char *name, const char *symbol, struct sw_err *err)
{
	char dir[PATH_MAX], path[PATH_MAX + 64];

	*out = NULL;
	if (!exe_dir(dir, sizeof(dir)))
		return sw_err_set(err, SW_EIO, "cannot load sworn-%s.so: cannot read /proc/self/exe",
				  name);
	for (size_t i = 0; i < SW_ARRAY_LEN(rels); i++) {
		bool seen = false;
		for (size_t j = 0; j < i; j++)
			seen = seen || !strcmp(rels[i], rels[j]);
		if (seen)
			continue;
		int n = snprintf(path, sizeof(path), "%s/%s/sworn-%s.so", dir, rels[i], name);
		if (n < 0 || (size_t)n >= sizeof(path) || access(path, F_OK) != 0)
			continue;
		void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			const char *e = dlerror();
			return sw_err_set(err, SW_EIO, "cannot load %s: %s", path, e ? e : "dlopen failed");
		}
		/* Never closed: its functions and data are used until exit. */
		void *sym = dlsym(h, symbol);
		if (!sym)
			return sw_err_set(err, SW_EIO, "cannot load %s: it has no %s (a module of "
					  "another sworn build?)", path, symbol);
		*out = sym;
		return 0;
	}
	return sw_err_set(err, SW_ENOTFOUND,
			  "cannot load sworn-%s.so: it is not in %s/%s (sworn is not fully "
			  "installed)", name, dir, SW_MODULE_REL);
}

int sw_module_check(const char *name, unsigned abi, unsigned want_abi, const char *version,
		    const size_t *sizes, const size_t *want_sizes, size_t nsizes,
		    struct sw_err *err)
{
	if (abi == want_abi && version && strcmp(version, SW_VERSION) == 0 &&
	    memcmp(sizes, want_sizes, nsizes * sizeof(*sizes)) == 0)
		return 0;
	return sw_err_set(err, SW_EIO, "cannot use sworn-%s.so: it is from sworn %s, not this "
			  "sworn %s (reinstall sworn)", name, version ? version : "(unknown)",
			  SW_VERSION);
}
