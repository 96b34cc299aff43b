/*
 * tmpdir.h - a scratch folder per test program, for cmocka group setup and
 * teardown.  Include it in one test file; define TMPDIR_TAG first to name
 * the folder (/tmp/sw-<tag>.XXXXXX).  `dir` holds the path once setup ran.
 */
#ifndef SW_TEST_TMPDIR_H
#define SW_TEST_TMPDIR_H

#include <stdlib.h>

#include "base/base.h"

static char dir[] = "/tmp/sw-" TMPDIR_TAG ".XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char *cmd = sw_xasprintf("rm -rf '%s'", dir);
	int rc = system(cmd);
	free(cmd);
	return rc == 0 ? 0 : -1;
}

#endif /* SW_TEST_TMPDIR_H */
