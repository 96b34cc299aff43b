/* page_draw.cc - a PDF page drawn within the bounds a page's text import
 * has (operators, forms drawn, CPU time), with poppler's own classes: the
 * glib binding's poppler_page_render takes no bound at all, and a page of
 * forms drawing forms draws for hours.  Splash draws into its own bitmap,
 * copied into the caller's cairo image; Gfx asks whether to stop about
 * every ten operators (the operator count and the time), and once over,
 * the device answers useDrawForm() and draws no form at all (a tree of
 * short forms is never asked to stop otherwise: each form's stream starts
 * Gfx's count again).  Runs in the renderer's worker process, whose
 * RLIMIT_CPU is the last word. */
#include <ctime>
#include <memory>

#include <GlobalParams.h>
#include <goo/GooString.h>
#include <PDFDoc.h>
#include <SplashOutputDev.h>
#include <splash/SplashBitmap.h>

#include "web/page_draw.h"

namespace {

long cpu_ms()
{
	struct timespec t;
	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0)
		return 0;
	return static_cast<long>(t.tv_sec) * 1000 + t.tv_nsec / 1000000;
}

class BoundedSplash : public SplashOutputDev
{
public:
	sw__web_draw_bounds bounds;
	long ticks = 0, forms = 0, cpu0 = cpu_ms();
	bool over = false;

	BoundedSplash(const sw__web_draw_bounds &b, SplashColorPtr paper)
		: SplashOutputDev(splashModeRGB8, 4, false, paper), bounds(b)
	{
	}
	bool useDrawForm() override { return over; }
	void drawForm(Ref) override { }
	void beginForm(Ref id) override
	{
		if (++forms > bounds.forms)
			over = true;
		timed();
		SplashOutputDev::beginForm(id);
	}
	bool tick()
	{
		if (++ticks > bounds.ops / 10)
			over = true;
		if (!over && (ticks & 63) == 0)
			timed();
		return over;
	}
	void timed()
	{
		if (cpu_ms() - cpu0 > bounds.ms)
			over = true;
	}
};

bool stop(void *data)
{
	return static_cast<BoundedSplash *>(data)->tick();
}

} // namespace

int sw__web_page_draw(const char *path, int page_no, double dpi, unsigned char *dst, int w,
		      int h, int stride, const struct sw__web_draw_bounds *b)
{
	if (!globalParams)
		globalParams = std::make_unique<GlobalParams>();
	auto doc = std::make_unique<PDFDoc>(std::make_unique<GooString>(path));
	if (!doc->isOk() || page_no < 1 || page_no > doc->getNumPages())
		return -1;
	SplashColor paper;
	paper[0] = paper[1] = paper[2] = 0xff;
	BoundedSplash dev(*b, paper);
	dev.setFontAntialias(true);
	dev.setVectorAntialias(true);
	dev.startDoc(doc.get());
	doc->displayPageSlice(&dev, page_no, dpi, dpi, 0, false, true, false, -1, -1, -1, -1, stop,
			      &dev);
	SplashBitmap *bmp = dev.getBitmap();
	if (!bmp)
		return -1;
	int bw = bmp->getWidth() < w ? bmp->getWidth() : w;
	int bh = bmp->getHeight() < h ? bmp->getHeight() : h;
	const unsigned char *src = bmp->getDataPtr();
	for (int y = 0; y < bh; y++) {
		const unsigned char *s = src + static_cast<long>(y) * bmp->getRowSize();
		unsigned char *d = dst + static_cast<long>(y) * stride;
		for (int x = 0; x < bw; x++) {
			d[4 * x] = s[3 * x + 2];
			d[4 * x + 1] = s[3 * x + 1];
			d[4 * x + 2] = s[3 * x];
			d[4 * x + 3] = 0xff;
		}
	}
	return dev.over ? 1 : 0;
}
