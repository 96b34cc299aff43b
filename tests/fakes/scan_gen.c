/* scan_gen - writes page images as a scanner would, for the tests of
 * image-only productions: each TEXT argument is one page, its lines (split
 * on '|') drawn with cairo and written with leptonica at 300 dpi.
 *
 *   scan_gen OUT.tif TEXT...   one TIFF, bilevel (CCITT G4), a page each
 *   scan_gen OUT.jpg TEXT      one JPEG, gray
 *   scan_gen OUT.png TEXT      one PNG, gray
 *   scan_gen OUT.pdf TEXT...   a scanned PDF: each page one image, no text
 *
 * No Debian package here writes a TIFF from text (no ImageMagick, no PIL). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <cairo.h>
#include <cairo-pdf.h>
#include <leptonica/allheaders.h>

#define WIDTH 1400
#define LINE_HEIGHT 90
#define MARGIN 60

static cairo_surface_t *draw(const char *text)
{
	char buf[4096];
	int nlines = 1;
	snprintf(buf, sizeof(buf), "%s", text);
	for (const char *s = buf; *s; s++)
		nlines += *s == '|';
	int height = 2 * MARGIN + nlines * LINE_HEIGHT;
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, WIDTH, height);
	cairo_t *cr = cairo_create(s);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, 50);
	int y = MARGIN + LINE_HEIGHT - 25;
	for (char *line = buf, *next; line; line = next, y += LINE_HEIGHT) {
		next = strchr(line, '|');
		if (next)
			*next++ = '\0';
		cairo_move_to(cr, MARGIN, y);
		cairo_show_text(cr, line);
	}
	cairo_destroy(cr);
	cairo_surface_flush(s);
	return s;
}

static PIX *render(const char *text)
{
	cairo_surface_t *s = draw(text);
	int height = cairo_image_surface_get_height(s);
	PIX *pix = pixCreate(WIDTH, height, 8);
	const unsigned char *px = cairo_image_surface_get_data(s);
	int stride = cairo_image_surface_get_stride(s);
	for (int yy = 0; yy < height; yy++)
		for (int x = 0; x < WIDTH; x++) {
			unsigned p = (unsigned)px[(size_t)yy * (size_t)stride + (size_t)x * 4 + 1];
			pixSetPixel(pix, x, yy, p); /* green: the text is gray */
		}
	cairo_surface_destroy(s);
	pixSetResolution(pix, 300, 300);
	return pix;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: scan_gen OUT.tif|OUT.jpg|OUT.png TEXT...\n");
		return 2;
	}
	const char *out = argv[1];
	const char *dot = strrchr(out, '.');
	const char *ext = dot ? dot + 1 : "";
	bool tiff = !strcmp(ext, "tif") || !strcmp(ext, "tiff");
	if (!strcmp(ext, "pdf")) {
		/* Points at 72 a inch: a 300 dpi image is scaled by 72/300. */
		cairo_surface_t *pdf = cairo_pdf_surface_create(out, WIDTH * 0.24, 100);
		cairo_t *cr = cairo_create(pdf);
		for (int i = 2; i < argc; i++) {
			cairo_surface_t *img = draw(argv[i]);
			int h = cairo_image_surface_get_height(img);
			cairo_pdf_surface_set_size(pdf, WIDTH * 0.24, h * 0.24);
			cairo_save(cr);
			cairo_scale(cr, 0.24, 0.24);
			cairo_set_source_surface(cr, img, 0, 0);
			cairo_paint(cr);
			cairo_restore(cr);
			cairo_show_page(cr);
			cairo_surface_destroy(img);
		}
		cairo_destroy(cr);
		cairo_surface_finish(pdf);
		int bad = cairo_surface_status(pdf) != CAIRO_STATUS_SUCCESS;
		cairo_surface_destroy(pdf);
		return bad;
	}
	if (!tiff && argc != 3) {
		fprintf(stderr, "scan_gen: only a TIFF holds more than one page\n");
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		PIX *pix = render(argv[i]);
		l_ok rc;
		if (tiff) {
			PIX *bw = pixConvertTo1(pix, 128);
			pixSetResolution(bw, 300, 300);
			rc = pixWriteTiff(out, bw, IFF_TIFF_G4, i == 2 ? "w" : "a");
			pixDestroy(&bw);
		} else if (!strcmp(ext, "jpg") || !strcmp(ext, "jpeg")) {
			rc = pixWriteJpeg(out, pix, 90, 0);
		} else {
			rc = pixWrite(out, pix, IFF_PNG);
		}
		pixDestroy(&pix);
		if (rc != 0) {
			fprintf(stderr, "scan_gen: cannot write %s\n", out);
			return 1;
		}
	}
	return 0;
}
