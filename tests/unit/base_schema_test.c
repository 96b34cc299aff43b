/*
 * base_schema_test.c - configuration checked against a schema: unknown keys
 * and sections with a "did you mean", types and ranges, where values go,
 * the reference text; and the bounded number parsers under it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/base.h"

struct box {
	char *name;
	uint16_t port;
	int32_t offset;
	double ratio;
	unsigned wait_ms;
	bool on;
	int colour;
	int custom_calls;
};

struct world {
	struct box boxes[4];
	size_t n;
	struct box global;
};

static int set_even(void *obj, const struct sw_config_entry *e, void *user, struct sw_err *err)
{
	struct box *b = obj;
	long long v;
	(void)user;
	if (!sw_parse_int(e->value, 0, 100, &v) || v % 2)
		return sw_err_set(err, SW_EINPUT, "bad even '%s': not an even number", e->value);
	b->custom_calls++;
	return 0;
}

static const char *const colours[] = { "red", "green", "blue", NULL };

static const struct sw_config_section sections[] = {
	{ "box", true, "one box" },
	{ "global", false, "everything else" },
};

#define BOX(m) SW_CONFIG_AT(struct box, m)

static const struct sw_config_key keys[] = {
	{ .section = "box", .key = "name", .type = SW_CONFIG_STRING, BOX(name), .help = "its name" },
	{ .section = "box", .key = "port", .type = SW_CONFIG_INT, BOX(port), .min = 1024,
	  .max = 65535, .help = "where it listens" },
	{ .section = "box", .key = "offset", .type = SW_CONFIG_INT, BOX(offset), .min = -100,
	  .max = 100 },
	{ .section = "box", .key = "ratio", .type = SW_CONFIG_DOUBLE, BOX(ratio), .min = 0,
	  .max = 1, .flags = SW_CONFIG_ABOVE_MIN },
	{ .section = "box", .key = "wait", .type = SW_CONFIG_MS, BOX(wait_ms), .min = 0,
	  .max = 60 },
	{ .section = "box", .key = "enabled", .type = SW_CONFIG_BOOL, BOX(on) },
	{ .section = "box", .key = "colour", .type = SW_CONFIG_ENUM, BOX(colour), .choices = colours },
	{ .section = "box", .key = "even", .type = SW_CONFIG_CUSTOM, .set = set_even,
	  .expect = "an even number" },
	{ .section = "global", .key = "bandwidth_gbs", .type = SW_CONFIG_DOUBLE,
	  SW_CONFIG_AT(struct box, ratio), .min = 1, .max = 100000, .help = "GB/s" },
};

static const struct sw_config_schema closed = {
	.file = "test.ini", .sections = sections, .nsections = 2, .keys = keys,
	.nkeys = SW_ARRAY_LEN(keys), .closed = true,
};

static const struct sw_config_schema open_schema = {
	.file = "test.ini", .sections = sections, .nsections = 2, .keys = keys,
	.nkeys = SW_ARRAY_LEN(keys), .closed = false,
};

static void *target(void *user, const struct sw_config_entry *e, struct sw_err *err)
{
	struct world *w = user;
	if (strcmp(e->section, "global") == 0)
		return &w->global;
	if (strcmp(e->subsection, "full") == 0) {
		sw_err_set(err, SW_ELIMIT, "no room for box '%s'", e->subsection);
		return NULL;
	}
	size_t i = (size_t)(e->subsection[0] - 'a');
	if (i >= SW_ARRAY_LEN(w->boxes))
		i = 0;
	if (i >= w->n)
		w->n = i + 1;
	return &w->boxes[i];
}

static void release(struct world *w)
{
	for (size_t i = 0; i < SW_ARRAY_LEN(w->boxes); i++)
		free(w->boxes[i].name);
	free(w->global.name);
}

static int apply(struct world *w, const struct sw_config_schema *s, const char *text,
		 struct sw_err *err)
{
	struct sw_config cfg;
	memset(w, 0, sizeof(*w));
	int rc = sw_config_parse(&cfg, text, strlen(text), "t.ini", err);
	assert_int_equal(rc, 0);
	rc = sw_config_apply(s, &cfg, target, w, err);
	sw_config_release(&cfg);
	return rc;
}

static void test_store(void **state)
{
	(void)state;
	struct world w;
	struct sw_err err = { 0 };
	const char *text =
		"[box \"a\"]\nname = first\nname = second\nport = 8081\noffset = -7\n"
		"ratio = 0.25\nwait = 1.5\nenabled = yes\ncolour = blue\neven = 4\n"
		"[box \"b\"]\nwait = 0.0001\nenabled = false\n[other]\nx = 1\n"
		"[global]\nbandwidth_gbs = 900\n";
	assert_int_equal(apply(&w, &open_schema, text, &err), 0);
	assert_string_equal(w.boxes[0].name, "second");
	assert_int_equal(w.boxes[0].port, 8081);
	assert_int_equal(w.boxes[0].offset, -7);
	assert_true(w.boxes[0].ratio == 0.25);
	assert_int_equal(w.boxes[0].wait_ms, 1500);
	assert_true(w.boxes[0].on);
	assert_int_equal(w.boxes[0].colour, 2);
	assert_int_equal(w.boxes[0].custom_calls, 1);
	/* A positive time never rounds down to "no limit". */
	assert_int_equal(w.boxes[1].wait_ms, 1);
	assert_false(w.boxes[1].on);
	assert_true(w.global.ratio == 900);
	release(&w);
}

static void expect(const struct sw_config_schema *s, const char *text, int code,
		   const char *want)
{
	struct world w;
	struct sw_err err = { 0 };
	assert_int_equal(apply(&w, s, text, &err), code);
	if (strcmp(err.msg, want) != 0)
		fail_msg("got  '%s'\nwant '%s'", err.msg, want);
	release(&w);
}

static void test_errors(void **state)
{
	(void)state;
	/* Unknown keys: the closest known one, or the list. */
	expect(&closed, "[global]\nbandwith_gbs = 900\n", SW_EINPUT,
	       "t.ini:2: unknown key 'bandwith_gbs' in [global]: did you mean bandwidth_gbs?");
	expect(&closed, "[box \"a\"]\nprot = 1\n", SW_EINPUT,
	       "t.ini:2: unknown key 'prot' in [box \"a\"]: did you mean port?");
	expect(&closed, "[box \"a\"]\nsize = 1\n", SW_EINPUT,
	       "t.ini:2: unknown key 'size' in [box \"a\"] (known: name, port, offset, ratio, "
	       "wait, enabled, colour, even)");
	/* Sections: unknown ones in a closed schema, and the naming rules. */
	expect(&closed, "[bxo \"a\"]\nport = 1\n", SW_EINPUT,
	       "t.ini:2: unknown section [bxo]: did you mean [box]?");
	expect(&closed, "[zzz]\nport = 1\n", SW_EINPUT,
	       "t.ini:2: unknown section [zzz] (known: [box], [global])");
	expect(&closed, "[box]\nport = 1\n", SW_EINPUT,
	       "t.ini:2: [box] needs a name: [box \"NAME\"]");
	expect(&closed, "[global \"x\"]\nbandwidth_gbs = 1\n", SW_EINPUT,
	       "t.ini:2: [global] takes no name");
	/* Types and ranges. */
	expect(&closed, "[box \"a\"]\n\nport = 80\n", SW_EINPUT,
	       "t.ini:3: bad port '80': expected 1024 to 65535");
	expect(&closed, "[box \"a\"]\nport = 8o81\n", SW_EINPUT,
	       "t.ini:2: bad port '8o81': expected 1024 to 65535");
	expect(&closed, "[box \"a\"]\noffset = -101\n", SW_EINPUT,
	       "t.ini:2: bad offset '-101': expected -100 to 100");
	expect(&closed, "[box \"a\"]\nratio = 0\n", SW_EINPUT,
	       "t.ini:2: bad ratio '0': expected more than 0, at most 1");
	expect(&closed, "[box \"a\"]\nratio = nan\n", SW_EINPUT,
	       "t.ini:2: bad ratio 'nan': expected more than 0, at most 1");
	expect(&closed, "[box \"a\"]\nwait = soon\n", SW_EINPUT,
	       "t.ini:2: bad wait 'soon': expected seconds from 0 (no limit) to 60");
	expect(&closed, "[box \"a\"]\nenabled = maybe\n", SW_EINPUT,
	       "t.ini:2: bad enabled 'maybe': expected yes or no");
	expect(&closed, "[box \"a\"]\ncolour = Red\n", SW_EINPUT,
	       "t.ini:2: bad colour 'Red': expected red, green or blue");
	expect(&closed, "[box \"a\"]\neven = 3\n", SW_EINPUT,
	       "t.ini:2: bad even '3': not an even number");
	expect(&closed, "[global]\nbandwidth_gbs = 0.5\n", SW_EINPUT,
	       "t.ini:2: bad bandwidth_gbs '0.5': expected 1 to 100000");
	/* The target's own error gets the place too. */
	expect(&closed, "[box \"full\"]\nport = 2000\n", SW_ELIMIT,
	       "t.ini:2: no room for box 'full'");
}

static void test_shared_file(void **state)
{
	(void)state;
	static const struct sw_config_section other_sections[] = { { "fleet", false, NULL } };
	static const struct sw_config_schema other = { .sections = other_sections, .nsections = 1 };
	const struct sw_config_schema *const both[] = { &open_schema, &other };
	struct sw_config cfg;
	struct sw_err err = { 0 };
	const char *good = "[box \"a\"]\nport = 2000\n[fleet]\nx = 1\n";
	assert_int_equal(sw_config_parse(&cfg, good, strlen(good), "s.conf", &err), 0);
	assert_int_equal(sw_config_check_sections(&cfg, both, 2, &err), 0);
	sw_config_release(&cfg);
	const char *typo = "[box \"a\"]\nport = 2000\n[flet]\nx = 1\n";
	assert_int_equal(sw_config_parse(&cfg, typo, strlen(typo), "s.conf", &err), 0);
	assert_int_equal(sw_config_check_sections(&cfg, both, 2, &err), SW_EINPUT);
	assert_string_equal(err.msg, "s.conf:4: unknown section [flet]: did you mean [fleet]?");
	sw_config_release(&cfg);
}

static void test_doc(void **state)
{
	(void)state;
	struct sw_buf b = SW_BUF_INIT;
	sw_config_schema_doc(&b, &closed);
	assert_non_null(strstr(b.data, "[box \"NAME\"]  one box\n"));
	assert_non_null(strstr(b.data, "[global]  everything else\n"));
	assert_non_null(strstr(b.data, "  port                 where it listens (integer 1024 to 65535)\n"));
	assert_non_null(strstr(b.data, "  colour               (red, green or blue)\n"));
	assert_non_null(strstr(b.data, "  even                 (an even number)\n"));
	sw_buf_reset(&b);
	sw_config_known(&b, &closed, "global");
	assert_string_equal(b.data, "bandwidth_gbs");
	sw_buf_release(&b);
}

static void test_distance(void **state)
{
	(void)state;
	assert_int_equal(sw_edit_distance("bandwith_gbs", "bandwidth_gbs", 2), 1);
	assert_int_equal(sw_edit_distance("url", "url", 2), 0);
	assert_int_equal(sw_edit_distance("prot", "port", 2), 1); /* a swap is one edit */
	assert_int_equal(sw_edit_distance("kitten", "sitting", 5), 3);
	assert_int_equal(sw_edit_distance("kitten", "sitting", 2), 3); /* past max: max + 1 */
	assert_int_equal(sw_edit_distance("", "abc", 5), 3);
	assert_int_equal(sw_edit_distance("a", "abcdefgh", 2), 3);
}

static void test_numbers(void **state)
{
	(void)state;
	long long n;
	double d;
	assert_true(sw_parse_int("42", 0, 100, &n));
	assert_int_equal(n, 42);
	assert_true(sw_parse_int("-5", -10, 10, &n));
	assert_int_equal(n, -5);
	assert_false(sw_parse_int("101", 0, 100, &n));
	assert_false(sw_parse_int(" 4", 0, 100, &n));
	assert_false(sw_parse_int("4 ", 0, 100, &n));
	assert_false(sw_parse_int("4x", 0, 100, &n));
	assert_false(sw_parse_int("", 0, 100, &n));
	assert_false(sw_parse_int("99999999999999999999", 0, INT64_MAX, &n));
	assert_true(sw_parse_int("9223372036854775807", 0, INT64_MAX, &n));
	assert_true(sw_parse_double("0.5", 0, 1, &d));
	assert_true(d == 0.5);
	assert_true(sw_parse_double("1e3", 0, 1000, &d));
	assert_false(sw_parse_double("1e3", 0, 999, &d));
	assert_false(sw_parse_double("inf", 0, 1e308, &d));
	assert_false(sw_parse_double("nan", -1, 1, &d));
	assert_false(sw_parse_double("1.5 GB", 0, 10, &d));
	assert_false(sw_parse_double(" 1", 0, 10, &d));
	assert_false(sw_parse_double("", 0, 10, &d));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_shared_file),
		cmocka_unit_test(test_doc),
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_numbers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
