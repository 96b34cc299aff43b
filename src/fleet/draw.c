/*
 * draw.c - the plan as a picture: each board a box of its GPUs' memory bars
 * (each bar as tall as its GPU's memory), the model it serves with its role
 * and speed, a GPU past 97% marked as a risk, and the models not placed with
 * the reason.  Every label is measured with cairo before the boxes are
 * sized, so none is clipped; the same layout is written as SVG (text kept
 * as text) and painted as PNG by cairo.  Built into the module
 * sworn-fleet.so, never into the binary (fleet_int.h, draw_load.c).
 */
#include <cairo.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet_int.h"

#define MIB (1024.0 * 1024.0)
#define GIB (MIB * 1024.0)
#define FONT "sans-serif"
#define RISK_FILL 0.97
#define MAX_ITEMS 4096
#define WRAP_W 860.0   /* a reason wraps at this width */
#define SVG_SLACK 1.08 /* a viewer's sans-serif may be a little wider */

enum { R_BOX, R_BAR, R_PART };

struct item {
	bool text;
	double x, y, w, h;  /* rect; text: x, baseline y, measured w */
	double size;        /* font size */
	bool bold, middle;
	const char *fill, *stroke;
	double rx;
	char *s;            /* text, or a rect's <title> */
};

struct scene {
	struct item *it;
	size_t n, cap;
	cairo_t *m;         /* for measuring */
	cairo_surface_t *ms;
	double width, height;
};

static double measure(struct scene *sc, const char *s, double size, bool bold)
{
	cairo_text_extents_t e;
	cairo_select_font_face(sc->m, FONT, CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(sc->m, size);
	cairo_text_extents(sc->m, s, &e);
	/* The advance, or the ink where it reaches further. */
	double w = e.x_advance;
	if (e.x_bearing + e.width > w)
		w = e.x_bearing + e.width;
	return w * SVG_SLACK;
}

static struct item *add(struct scene *sc)
{
	if (sc->n >= MAX_ITEMS)
		return NULL;
	if (sc->n == sc->cap) {
		sc->cap = sc->cap ? sc->cap * 2 : 64;
		sc->it = sw_xrealloc(sc->it, sc->cap * sizeof(*sc->it));
	}
	struct item *i = &sc->it[sc->n++];
	memset(i, 0, sizeof(*i));
	return i;
}

static void rect(struct scene *sc, double x, double y, double w, double h, const char *fill,
		 const char *stroke, double rx, char *title)
{
	struct item *i = add(sc);
	if (!i) {
		free(title);
		return;
	}
	*i = (struct item){ .x = x, .y = y, .w = w, .h = h, .fill = fill, .stroke = stroke,
			    .rx = rx, .s = title };
}

/* A label whose left edge (or centre) is x and baseline y; its width. */
static double text(struct scene *sc, double x, double y, double size, bool bold, bool middle,
		   const char *fill, const char *s)
{
	double w = measure(sc, s, size, bold);
	struct item *i = add(sc);
	if (!i)
		return w;
	*i = (struct item){ .text = true, .x = x, .y = y, .w = w, .size = size, .bold = bold,
			    .middle = middle, .fill = fill, .s = sw_xstrdup(s) };
	return w;
}

/* Words of s in lines of at most WRAP_W; how many lines were written. */
static int wrapped(struct scene *sc, double x, double y, double size, const char *s,
		   double *widest)
{
	struct sw_buf line = SW_BUF_INIT;
	int lines = 0;
	const char *p = s;
	while (*p) {
		size_t n = strcspn(p, " ");
		size_t old = line.len;
		if (line.len)
			sw_buf_addc(&line, ' ');
		sw_buf_add(&line, p, n);
		if (old && measure(sc, line.data, size, false) > WRAP_W) {
			line.data[old] = '\0';
			line.len = old;
			double w = text(sc, x, y + lines * size * 1.35, size, false, false, "#333",
					line.data);
			*widest = fmax(*widest, w);
			lines++;
			line.len = 0;
			line.data[0] = '\0';
			sw_buf_add(&line, p, n);
		}
		p += n;
		while (*p == ' ')
			p++;
	}
	if (line.len) {
		double w = text(sc, x, y + lines * size * 1.35, size, false, false, "#333", line.data);
		*widest = fmax(*widest, w);
		lines++;
	}
	sw_buf_release(&line);
	return lines;
}

static double used_of(const struct sw_fleet_fit *f, size_t d)
{
	return (double)(f->weights[d] + f->kv[d] + f->compute[d] + f->reserve[d]);
}

static const char *const colours[] = { "#3b6fb6", "#4caf50", "#f0a030", "#9e9e9e" };
static const char *const labels[] = { "weights", "KV cache", "compute", "reserve" };

static void layout(struct scene *sc, const struct sw_fleet_plan *p)
{
	enum { PAD = 14, GAP = 12, BAR_H = 220, ROW_W = 1180 };
	const struct sw_fleet_hw *hw = p->hw;
	double maxmem = 1;
	for (size_t g = 0; g < hw->ngpus; g++)
		maxmem = fmax(maxmem, (double)hw->gpus[g].memory_mib * MIB);
	char buf[1024];

	snprintf(buf, sizeof(buf), "sworn plan: %s", hw->source);
	double right = 10 + text(sc, 10, 24, 16, true, false, "#000", buf);
	double x = 10, y = 40, row_h = 0, bottom = y;

	for (size_t gi = 0; gi < hw->ngroups; gi++) {
		const struct sw_fleet_group *g = &hw->groups[gi];
		int owner = -1;
		for (size_t i = 0; i < p->nmodels; i++)
			if (p->placed[i].group == (int)gi)
				owner = (int)i;
		const struct sw_fleet_placement *pl = owner >= 0 ? &p->placed[owner] : NULL;
		/* The lines of the box's head, measured first. */
		char head[3][512];
		snprintf(head[0], sizeof(head[0]), "%s (%s)", g->name, g->nvlink ? "NVLink" : "PCIe");
		if (pl)
			snprintf(head[1], sizeof(head[1]), "%s, %.0f tok/s%s", p->models[owner].name,
				 pl->fit.decode_tps, pl->below_floor ? " (below floor)" : "");
		else
			snprintf(head[1], sizeof(head[1]), "free");
		head[2][0] = '\0';
		if (pl && p->reqs[owner].role)
			snprintf(head[2], sizeof(head[2]), "role %s", p->reqs[owner].role);
		double hw0 = measure(sc, head[0], 13, true);
		double hw1 = measure(sc, head[1], 11, false), hw2 = measure(sc, head[2], 11, false);
		/* Each column as wide as its widest label. */
		double colw[SW_FLEET_MAX_GPUS], cols = 0;
		char lab[SW_FLEET_MAX_GPUS][3][64];
		for (size_t d = 0; d < g->n; d++) {
			const struct sw_fleet_gpu *gpu = &hw->gpus[g->gpu[d]];
			double cap = (double)gpu->memory_mib * MIB;
			double used = pl && d < pl->fit.ndev ? used_of(&pl->fit, d) : 0;
			snprintf(lab[d][0], sizeof(lab[d][0]), "GPU%d", gpu->index);
			snprintf(lab[d][1], sizeof(lab[d][1]), "%.1f/%.0f GiB", used / GIB, cap / GIB);
			if (cap > 0 && used / cap > RISK_FILL)
				snprintf(lab[d][2], sizeof(lab[d][2]), "%.0f%% full: risk",
					 100.0 * used / cap);
			else
				lab[d][2][0] = '\0';
			colw[d] = fmax(48, fmax(measure(sc, lab[d][0], 11, false),
					  fmax(measure(sc, lab[d][1], 10, false),
					       measure(sc, lab[d][2], 10, true))) + 6);
			cols += colw[d] + (d ? GAP : 0);
		}
		double inner = fmax(cols, fmax(hw0, fmax(hw1, hw2)));
		double w = inner + 2 * PAD;
		double head_h = 74; /* the same in every box: bars line up */
		double h = head_h + BAR_H + 52;
		if (x + w > ROW_W && x > 10) {
			x = 10;
			y += row_h + 14;
			row_h = 0;
		}
		rect(sc, x, y, w, h, pl ? "#f4f8ff" : "#fafafa", "#555", 8, NULL);
		text(sc, x + PAD, y + 20, 13, true, false, "#000", head[0]);
		text(sc, x + PAD, y + 38, 11, false, false, pl && pl->below_floor ? "#b00" : "#000",
		     head[1]);
		if (head[2][0])
			text(sc, x + PAD, y + 54, 11, false, false, "#000", head[2]);
		double bx = x + PAD + (inner - cols) / 2;
		for (size_t d = 0; d < g->n; d++) {
			const struct sw_fleet_gpu *gpu = &hw->gpus[g->gpu[d]];
			double cap = (double)gpu->memory_mib * MIB;
			/* Bars to scale: a 16 GB GPU's bar is half a 32 GB one's. */
			double bh = BAR_H * cap / maxmem, by = y + head_h + (BAR_H - bh);
			rect(sc, bx, by, colw[d], bh, "#fff", "#333", 0, NULL);
			double top = by + bh;
			double part[4] = { 0 };
			if (pl && d < pl->fit.ndev) {
				part[0] = (double)pl->fit.weights[d];
				part[1] = (double)pl->fit.kv[d];
				part[2] = (double)pl->fit.compute[d];
				part[3] = (double)pl->fit.reserve[d];
			}
			for (int k = 0; k < 4; k++) {
				double ph = cap > 0 ? part[k] / cap * bh : 0;
				if (top - ph < by)
					ph = top - by;
				if (ph <= 0)
					continue;
				top -= ph;
				rect(sc, bx, top, colw[d], ph, colours[k], NULL, 0,
				     sw_xasprintf("%s %.1f GiB", labels[k], part[k] / GIB));
			}
			double ly = y + head_h + BAR_H;
			text(sc, bx + colw[d] / 2, ly + 14, 11, false, true, "#000", lab[d][0]);
			text(sc, bx + colw[d] / 2, ly + 28, 10, false, true, "#000", lab[d][1]);
			if (lab[d][2][0])
				text(sc, bx + colw[d] / 2, ly + 42, 10, true, true, "#c00", lab[d][2]);
			bx += colw[d] + GAP;
		}
		x += w + 14;
		right = fmax(right, x);
		row_h = fmax(row_h, h);
		bottom = fmax(bottom, y + h);
	}
	y = bottom + 24;
	/* Models that run nowhere, with the reason. */
	bool any = false;
	for (size_t i = 0; i < p->nmodels; i++) {
		if (p->placed[i].group >= 0)
			continue;
		if (!any)
			right = fmax(right, 10 + text(sc, 10, y, 13, true, false, "#000", "Not placed"));
		any = true;
		y += 18;
		snprintf(buf, sizeof(buf), "%s%s%s", p->models[i].name,
			 p->reqs[i].role ? ", role " : "", p->reqs[i].role ? p->reqs[i].role : "");
		right = fmax(right, 10 + text(sc, 10, y, 11, true, false, "#b00", buf));
		double widest = 0;
		int n = wrapped(sc, 24, y + 15, 11, p->placed[i].reason, &widest);
		right = fmax(right, 24 + widest);
		y += 15 + n * 11 * 1.35;
	}
	if (any)
		y += 10;
	double lx = 10;
	for (int k = 0; k < 4; k++) {
		rect(sc, lx, y, 12, 12, colours[k], NULL, 0, NULL);
		lx += 16 + text(sc, lx + 16, y + 10, 11, false, false, "#000", labels[k]) + 18;
	}
	right = fmax(right, lx);
	sc->width = ceil(right + 10);
	sc->height = ceil(y + 26);
}

static void scene_init(struct scene *sc)
{
	memset(sc, 0, sizeof(*sc));
	sc->ms = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 8, 8);
	sc->m = cairo_create(sc->ms);
}

static void scene_release(struct scene *sc)
{
	for (size_t i = 0; i < sc->n; i++)
		free(sc->it[i].s);
	free(sc->it);
	cairo_destroy(sc->m);
	cairo_surface_destroy(sc->ms);
}

static void xml(struct sw_buf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': sw_buf_adds(b, "&lt;"); break;
		case '>': sw_buf_adds(b, "&gt;"); break;
		case '&': sw_buf_adds(b, "&amp;"); break;
		case '"': sw_buf_adds(b, "&quot;"); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\t')
				sw_buf_addc(b, *s);
		}
	}
}

void sw__fleet_draw_svg(struct sw_buf *out, const struct sw_fleet_plan *p)
{
	struct scene sc;
	scene_init(&sc);
	layout(&sc, p);
	sw_buf_addf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		    "font-family=\"%s\" font-size=\"13\">\n", sc.width, sc.height, FONT);
	for (size_t i = 0; i < sc.n; i++) {
		const struct item *it = &sc.it[i];
		if (it->text) {
			sw_buf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\"%s%s fill=\"%s\" "
				    "data-width=\"%.1f\">", it->x, it->y, it->size,
				    it->bold ? " font-weight=\"bold\"" : "",
				    it->middle ? " text-anchor=\"middle\"" : "", it->fill, it->w);
			xml(out, it->s);
			sw_buf_adds(out, "</text>\n");
			continue;
		}
		sw_buf_addf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"", it->x,
			    it->y, it->w, it->h);
		if (it->rx > 0)
			sw_buf_addf(out, " rx=\"%.0f\"", it->rx);
		sw_buf_addf(out, " fill=\"%s\"", it->fill);
		if (it->stroke)
			sw_buf_addf(out, " stroke=\"%s\"", it->stroke);
		if (it->s) {
			sw_buf_adds(out, "><title>");
			xml(out, it->s);
			sw_buf_adds(out, "</title></rect>\n");
		} else {
			sw_buf_adds(out, "/>\n");
		}
	}
	sw_buf_adds(out, "</svg>\n");
	scene_release(&sc);
}

static void colour(cairo_t *cr, const char *hex)
{
	unsigned v = (unsigned)strtoul(hex + 1, NULL, 16);
	if (strlen(hex) == 4)
		v = ((v >> 8 & 0xf) * 0x110000) | ((v >> 4 & 0xf) * 0x1100) | ((v & 0xf) * 0x11);
	cairo_set_source_rgb(cr, (v >> 16 & 0xff) / 255.0, (v >> 8 & 0xff) / 255.0,
			     (v & 0xff) / 255.0);
}

int sw__fleet_draw_png(const struct sw_fleet_plan *p, const char *path, struct sw_err *err)
{
	struct scene sc;
	scene_init(&sc);
	layout(&sc, p);
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)sc.width,
							(int)sc.height);
	cairo_t *cr = cairo_create(s);
	colour(cr, "#fff");
	cairo_paint(cr);
	for (size_t i = 0; i < sc.n; i++) {
		const struct item *it = &sc.it[i];
		if (it->text) {
			cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL,
					       it->bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
			cairo_set_font_size(cr, it->size);
			colour(cr, it->fill);
			cairo_move_to(cr, it->middle ? it->x - it->w / SVG_SLACK / 2 : it->x, it->y);
			cairo_show_text(cr, it->s);
			continue;
		}
		cairo_new_path(cr);
		if (it->rx > 0) {
			double r = it->rx, x = it->x, y = it->y, w = it->w, h = it->h;
			cairo_arc(cr, x + w - r, y + r, r, -M_PI / 2, 0);
			cairo_arc(cr, x + w - r, y + h - r, r, 0, M_PI / 2);
			cairo_arc(cr, x + r, y + h - r, r, M_PI / 2, M_PI);
			cairo_arc(cr, x + r, y + r, r, M_PI, 3 * M_PI / 2);
			cairo_close_path(cr);
		} else {
			cairo_rectangle(cr, it->x, it->y, it->w, it->h);
		}
		colour(cr, it->fill);
		if (it->stroke) {
			cairo_fill_preserve(cr);
			colour(cr, it->stroke);
			cairo_set_line_width(cr, 1);
			cairo_stroke(cr);
		} else {
			cairo_fill(cr);
		}
	}
	cairo_destroy(cr);
	cairo_status_t st = cairo_surface_write_to_png(s, path);
	cairo_surface_destroy(s);
	scene_release(&sc);
	if (st != CAIRO_STATUS_SUCCESS)
		return sw_err_set(err, SW_EIO, "cannot write %s: %s", path, cairo_status_to_string(st));
	return 0;
}

__attribute__((visibility("default")))
const struct sw__fleet_draw sw__fleet_draw_v1 = {
	.abi = SW__FLEET_DRAW_ABI,
	.version = SW_VERSION,
	.sizes = { sizeof(struct sw_fleet_plan), sizeof(struct sw_buf), sizeof(struct sw_err) },
	.svg = sw__fleet_draw_svg,
	.png = sw__fleet_draw_png,
};
