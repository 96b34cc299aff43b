/*
 * fleet_draw_test.c - the plan's picture: every text element of the SVG
 * lies inside the box that holds it (its extents measured again here with
 * cairo from the element's own font size and weight), bars are scaled to
 * each GPU's memory, roles, the risk of a full GPU and the models not
 * placed (with the reason) are drawn, and the PNG is a PNG.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cairo.h>
#include <cmocka.h>

#include "fleet/fleet.h"
#include "fleet_fixtures.h"

static char *dir;

struct box {
	double x, y, w, h;
};

static bool attr(const char *el, const char *name, char *out, size_t n)
{
	char key[32];
	snprintf(key, sizeof(key), " %s=\"", name);
	const char *p = strstr(el, key);
	const char *end = strchr(el, '>');
	if (!p || (end && p > end))
		return false;
	p += strlen(key);
	size_t len = strcspn(p, "\"");
	if (len >= n)
		len = n - 1;
	memcpy(out, p, len);
	out[len] = '\0';
	return true;
}

static double num(const char *el, const char *name)
{
	char v[64];
	if (!attr(el, name, v, sizeof(v)))
		fail_msg("no %s in %.80s", name, el);
	return strtod(v, NULL);
}

/* The text of an element, entities undone (&amp; &lt; &gt; &quot;). */
static char *content(const char *el)
{
	const char *b = strchr(el, '>') + 1, *e = strstr(b, "</text>");
	struct sw_buf t = SW_BUF_INIT;
	for (const char *p = b; p < e; p++) {
		static const char *const ent[][2] = { { "&amp;", "&" }, { "&lt;", "<" },
						      { "&gt;", ">" }, { "&quot;", "\"" } };
		bool done = false;
		for (size_t k = 0; k < 4 && !done; k++)
			if (strncmp(p, ent[k][0], strlen(ent[k][0])) == 0) {
				sw_buf_adds(&t, ent[k][1]);
				p += strlen(ent[k][0]) - 1;
				done = true;
			}
		if (!done)
			sw_buf_addc(&t, *p);
	}
	return sw_buf_detach(&t, NULL);
}

static void check_svg(const char *svg, size_t *ntext)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 8, 8);
	cairo_t *cr = cairo_create(s);
	struct box boxes[256];
	size_t nb = 0;
	const char *root = strstr(svg, "<svg ");
	assert_non_null(root);
	struct box canvas = { 0, 0, num(root, "width"), num(root, "height") };
	/* Boxes: the rounded rects. */
	for (const char *p = strstr(svg, "<rect "); p; p = strstr(p + 1, "<rect ")) {
		char rx[16];
		if (attr(p, "rx", rx, sizeof(rx)) && nb < 256)
			boxes[nb++] = (struct box){ num(p, "x"), num(p, "y"), num(p, "width"),
						    num(p, "height") };
	}
	assert_true(nb >= 4);
	*ntext = 0;
	for (const char *p = strstr(svg, "<text "); p; p = strstr(p + 1, "<text ")) {
		char weight[16] = "", anchor[16] = "";
		double size = num(p, "font-size"), x = num(p, "x"), y = num(p, "y");
		bool bold = attr(p, "font-weight", weight, sizeof(weight));
		attr(p, "text-anchor", anchor, sizeof(anchor));
		char *t = content(p);
		cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
				       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
		cairo_set_font_size(cr, size);
		cairo_text_extents_t te;
		cairo_font_extents_t fe;
		cairo_text_extents(cr, t, &te);
		cairo_font_extents(cr, &fe);
		double w = te.x_advance > te.x_bearing + te.width ? te.x_advance
								  : te.x_bearing + te.width;
		double left = strcmp(anchor, "middle") == 0 ? x - w / 2 : x;
		double right = left + w, top = y - fe.ascent, bottom = y + fe.descent;
		/* The innermost box holding its anchor point, else the canvas. */
		const struct box *in = &canvas;
		for (size_t b = 0; b < nb; b++)
			if (x >= boxes[b].x && x <= boxes[b].x + boxes[b].w && y >= boxes[b].y &&
			    y <= boxes[b].y + boxes[b].h && boxes[b].w * boxes[b].h < in->w * in->h)
				in = &boxes[b];
		if (left < in->x || right > in->x + in->w || top < in->y ||
		    bottom > in->y + in->h)
			fail_msg("'%s' (%.1f-%.1f x %.1f-%.1f) leaves its box (%.1f-%.1f x %.1f-%.1f)",
				 t, left, right, top, bottom, in->x, in->x + in->w, in->y,
				 in->y + in->h);
		free(t);
		(*ntext)++;
	}
	cairo_destroy(cr);
	cairo_surface_destroy(s);
}

/* The height of the outlined bar drawn right above the label GPUn. */
static double bar_height(const char *svg, int gpu)
{
	char label[32];
	snprintf(label, sizeof(label), ">GPU%d</text>", gpu);
	const char *l = strstr(svg, label);
	assert_non_null(l);
	double h = -1;
	for (const char *p = strstr(svg, "stroke=\"#333\""); p && p < l;
	     p = strstr(p + 1, "stroke=\"#333\"")) {
		const char *r = p;
		while (r > svg && strncmp(r, "<rect ", 6) != 0)
			r--;
		h = num(r, "height");
	}
	return h;
}

static void test_svg(void **state)
{
	(void)state;
	struct sw_err err = { 0 };
	struct sw_fleet_hw hw;
	struct sw_fleet_calib *cal = NULL;
	const char *d = getenv("SW_TEST_DATA");
	char *inv = sw_xasprintf("%s/../../examples/hardware/v100x12.ini", d ? d : "tests/data");
	assert_int_equal(sw_fleet_hw_load(&hw, inv, &err), 0);
	assert_int_equal(sw_fleet_calib_load(&cal, NULL, &err), 0);
	const struct fx_spec *specs[] = { &fx_qwen35_122b_a10b, &fx_gemma4_26b_a4b,
					  &fx_mistral_128b, &fx_qwen3_32b };
	static const char *const roles[] = { "reasoner", "drafter", "reviewer", NULL };
	struct sw_fleet_model m[4];
	struct sw_fleet_request r[4];
	for (size_t i = 0; i < 4; i++) {
		char name[16];
		snprintf(name, sizeof(name), "m%zu.gguf", i);
		char *path = fx_make(dir, name, specs[i]);
		if (sw_fleet_model_load(&m[i], path, &err) != 0)
			fail_msg("%s", err.msg);
		free(path);
		r[i] = (struct sw_fleet_request){ .ctx = i == 0 ? 16384 : 32768, .kv = SW_KV_Q8_0,
						  .slots = 1, .role = roles[i] };
	}
	struct sw_fleet_plan p;
	struct sw_fleet_plan_opts po = { 0 };
	assert_int_equal(sw_fleet_plan_make(&p, &hw, m, r, 4, &po, cal, &err), 0);
	assert_int_equal(sw_fleet_plan_unplaced(&p), 1);
	struct sw_buf svg = SW_BUF_INIT;
	sw_fleet_plan_svg(&svg, &p);
	size_t ntext = 0;
	check_svg(svg.data, &ntext);
	assert_true(ntext > 30);
	/* Roles, the model not placed with its reason, a full GPU's risk. */
	assert_non_null(strstr(svg.data, ">role drafter</text>"));
	assert_non_null(strstr(svg.data, ">role reasoner</text>"));
	assert_non_null(strstr(svg.data, ">Not placed</text>"));
	assert_non_null(strstr(svg.data, ">Mistral-Medium-3.5-128B, role reviewer</text>"));
	assert_non_null(strstr(svg.data, "bits/weight"));
	assert_non_null(strstr(svg.data, "full: risk</text>"));
	/* Bars to scale: GPU3 has 16 GB, GPU2 32 GB. */
	double h2 = bar_height(svg.data, 2), h3 = bar_height(svg.data, 3);
	assert_true(h2 > 0 && h3 > 0);
	assert_true(h3 * 2 > h2 - 1 && h3 * 2 < h2 + 1);
	/* The PNG of the same picture. */
	char *png = sw_xasprintf("%s/plan.png", dir);
	assert_int_equal(sw_fleet_plan_png(&p, png, &err), 0);
	struct sw_buf b = SW_BUF_INIT;
	assert_int_equal(sw_file_read(&b, png, 16 << 20, &err), 0);
	assert_true(b.len > 1000);
	assert_memory_equal(b.data, "\x89PNG\r\n\x1a\n", 8);
	char *bad = sw_xasprintf("%s/no/such/dir/plan.png", dir);
	assert_int_equal(sw_fleet_plan_png(&p, bad, &err), SW_EIO);
	free(bad);
	sw_buf_release(&b);
	free(png);
	sw_buf_release(&svg);
	sw_fleet_plan_release(&p);
	for (size_t i = 0; i < 4; i++)
		sw_fleet_model_release(&m[i]);
	sw_fleet_calib_free(cal);
	sw_fleet_hw_release(&hw);
	free(inv);
}

static int setup(void **state)
{
	(void)state;
	dir = fx_tmpdir();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char *cmd = sw_xasprintf("rm -rf '%s'", dir);
	int rc = system(cmd);
	free(cmd);
	free(dir);
	return rc == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_svg),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
