/*
 * pipeline_signoff_test.c - who decides (sw_person_resolve: --by, the
 * workspace's [user], the user's own user.conf, in that order; bad values
 * refused with their line) and the certificate's stamp as --check reads it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "pipeline/pipeline.h"

#define TMPDIR_TAG "signoff"
#include "tmpdir.h"

/* The scratch folder stands for $XDG_CONFIG_HOME. */
static int group_setup(void **state)
{
	if (setup(state) != 0)
		return -1;
	char *s = sw_path_join(dir, "sworn");
	int rc = mkdir(s, 0700);
	free(s);
	setenv("XDG_CONFIG_HOME", dir, 1);
	return rc;
}

static void user_conf(const char *text)
{
	char *p = sw_xasprintf("%s/sworn/user.conf", dir);
	if (text) {
		FILE *f = fopen(p, "w");
		assert_non_null(f);
		fputs(text, f);
		fclose(f);
	} else {
		remove(p);
	}
	free(p);
}

static void ws(struct sw_config *c, const char *text)
{
	struct sw_err err = { 0 };
	assert_int_equal(sw_config_parse(c, text, strlen(text), "sworn.conf", &err), 0);
}

static void test_nobody(void **state)
{
	(void)state;
	struct sw_person p;
	struct sw_err err = { 0 };
	user_conf(NULL);
	assert_int_equal(sw_person_resolve(&p, NULL, NULL, &err), SW_ENOTFOUND);
	assert_non_null(strstr(err.msg, "--by NAME"));
	assert_non_null(strstr(err.msg, "/sworn/user.conf"));
	assert_null(p.name);
}

static void test_order(void **state)
{
	(void)state;
	struct sw_person p;
	struct sw_err err = { 0 };
	struct sw_config c;
	user_conf("[user]\nname = Ann Lee\nemail = ann@firm.example\nbar_number = CA 123456\n");
	assert_int_equal(sw_person_resolve(&p, NULL, NULL, &err), 0);
	assert_string_equal(p.name, "Ann Lee");
	assert_string_equal(p.bar_number, "CA 123456");
	assert_non_null(strstr(p.source, "user.conf"));
	char *label = sw_person_label(&p);
	assert_string_equal(label, "Ann Lee <ann@firm.example>, bar no. CA 123456");
	free(label);
	sw_person_release(&p);

	/* the workspace speaks first; an address of another person is not taken */
	ws(&c, "[user]\nname = Cy Dee\n");
	assert_int_equal(sw_person_resolve(&p, &c, NULL, &err), 0);
	assert_string_equal(p.name, "Cy Dee");
	assert_null(p.email);
	assert_string_equal(p.source, "sworn.conf");
	sw_person_release(&p);

	/* --by first; the same person's address comes with the name */
	assert_int_equal(sw_person_resolve(&p, &c, "Bo Chen", &err), 0);
	assert_string_equal(p.name, "Bo Chen");
	assert_null(p.email);
	assert_string_equal(p.source, "--by");
	sw_person_release(&p);
	assert_int_equal(sw_person_resolve(&p, &c, "Ann Lee", &err), 0);
	assert_string_equal(p.email, "ann@firm.example");
	sw_person_release(&p);
	sw_config_release(&c);
}

static void test_refused(void **state)
{
	(void)state;
	struct sw_person p;
	struct sw_err err = { 0 };
	struct sw_config c;
	user_conf("[user]\nnmae = Ann\n");
	assert_int_equal(sw_person_resolve(&p, NULL, NULL, &err), SW_EINPUT);
	assert_non_null(strstr(err.msg, "user.conf:2: unknown key 'nmae' in [user]"));
	user_conf("[policy]\nmode = local-only\n");
	assert_int_equal(sw_person_resolve(&p, NULL, NULL, &err), SW_EINPUT);
	assert_non_null(strstr(err.msg, "unknown section"));
	user_conf(NULL);
	char big[400];
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(sw_person_resolve(&p, NULL, big, &err), SW_EINPUT);
	assert_non_null(strstr(err.msg, "one line of at most"));
	ws(&c, "[user]\nname = A\nemail = a\tb\n");
	assert_int_equal(sw_person_resolve(&p, &c, NULL, &err), SW_EINPUT);
	sw_config_release(&c);
	assert_null(p.name);
}

static void test_stamp(void **state)
{
	(void)state;
	static const char hex[] =
		"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
	struct sw_certify_stamp st;
	struct sw_err err = { 0 };
	char *text = sw_xasprintf("x\n`sworn-certificate: v1 matter=acme run=7 waivers=3,12`\n"
				  "final-sha256=%s\njournal-sha256=%s\n", hex, hex);
	assert_int_equal(sw_certify_stamp_parse(&st, text, &err), 0);
	assert_string_equal(st.matter, "acme");
	assert_int_equal(st.run, 7);
	assert_int_equal(st.nwaivers, 2);
	assert_int_equal(st.waivers[1], 12);
	assert_string_equal(st.final_sha256, hex);
	free(text);
	assert_int_equal(sw_certify_stamp_parse(&st, "a letter", &err), SW_EINPUT);
	assert_non_null(strstr(err.msg, "no 'sworn-certificate:' stamp"));
	assert_int_equal(sw_certify_stamp_parse(&st, "sworn-certificate: v1 matter=a run=1 "
						 "final-sha256=abc", &err), SW_EINPUT);
	assert_non_null(strstr(err.msg, "damaged"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nobody),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_stamp),
	};
	return cmocka_run_group_tests(tests, group_setup, teardown);
}
