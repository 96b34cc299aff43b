/* pdf_walk.cc - a PDF's pages read in order, each built and dropped again.
 *
 * poppler-glib reaches page N only through its catalog, which builds and
 * keeps a Page object for every page up to N (about 1.7 KB each: 85 MB at
 * 50,000 pages, again for every reading thread's document).  This reader
 * uses poppler's own classes (libpoppler-private-dev) instead.  It walks
 * the page tree itself, in the catalog's order.  For each range of pages
 * it puts a pruned copy of each Pages node on the way (copied whole, its
 * Kids cut to the range's) into that node's own cross-reference entry, and
 * lets a catalog of its own build the range's pages from the document
 * catalog's /Pages: poppler's own inheritance of boxes, rotation and
 * resources, from the same dictionaries.  It reads each page's text as
 * poppler_page_get_text() does, drops the catalog and its pages, and puts
 * the nodes back.  Pages it only passes on the way to its range cost a
 * dictionary fetch each.  (While a range is read, an object that names a
 * Pages node of the range as, say, a resource sees the pruned copy: only
 * a hostile file does that, and it changes nothing but that file's text.)
 *
 * It reads a tree only while the tree is one it follows exactly as the
 * catalog does: the catalog's Pages a dictionary by reference, every kid a
 * reference to a Page or Pages dictionary, Kids arrays, no loop, at most
 * MAX_DEPTH levels, no Pages node under two parents, every page built.  At
 * the first node that is anything else it stops and says so; the caller
 * reads the pages from there with a catalog reader (sw__extract_pdf_catalog_new:
 * the document's own catalog, which copes with such trees in ways of its
 * own, as poppler-glib reads).  A linearized file is not walked at all:
 * the catalog reads its pages through the hint tables.
 *
 * The text of a page is the same whichever reader read it, and the same
 * as poppler_page_get_text() gives: the same TextOutputDev settings, the
 * same crop box and rotation for the selection rectangle, the same Gfx.
 * Both readers draw a page within bounds (PageText, Budget) that
 * poppler-glib does not have.  tests/unit/extract_pdf_walk_test.c
 * compares them with poppler-glib page by page. */
#include <atomic>
#include <ctime>
#include <memory>
#include <optional>
#include <vector>

#include <glib.h>

#include <GlobalParams.h>
#include <Gfx.h>
#include <Array.h>
#include <Catalog.h>
#include <Dict.h>
#include <Error.h>
#include <Object.h>
#include <OutputDev.h>
#include <PDFDoc.h>
#include <Page.h>
#include <Stream.h>
#include <TextOutputDev.h>
#include <XRef.h>

#include "extract/pdf_walk.h"

namespace {

/* sw__extract_pdf_counts_get()'s totals. */
std::atomic<long> n_opened{ 0 }, n_forms{ 0 }, n_forms_over{ 0 };

/* How much a page has drawn, against its bounds (pdf_walk.h): Gfx asks
 * whether to stop about every ten operators (tick), and each form drawn
 * sets up its resources (its fonts) anew, 0.2 ms or so each, which a form
 * drawing a form ten times makes hours.  Gfx asks only within a content
 * stream that has run more than ten operators since it began, and each
 * form's stream starts the count again, so a tree of short forms is never
 * asked to stop: once over, a device answers useDrawForm() and draws no
 * form at all (DRAW_NO_FORMS), and every stream then runs to its next
 * check or its end. */
#define DRAW_NO_FORMS                                                   \
	bool useDrawForm() override { return budget.over; }              \
	void drawForm(Ref id) override { budget.stub(id); }

/* obj into ref's cross-reference entry, where fetches find it.  The entry
 * is not left marked as changed: poppler refuses to rebuild a damaged
 * file's table (when a fetch first fails) once any entry is, and the
 * fetches of the range would then fail where poppler-glib's succeed.  A
 * rebuild drops obj; the document's callback says so (rebuilt). */
void set_entry(XRef *xref, Ref ref, const Object &obj)
{
	xref->setModifiedObject(&obj, ref);
	XRefEntry *e = xref->getEntry(ref.num, false);
	if (e)
		e->setFlag(XRefEntry::Updated, false);
}

/* Milliseconds on a clock. */
long clock_ms(clockid_t id)
{
	struct timespec t;
	if (clock_gettime(id, &t) != 0)
		return 0;
	return static_cast<long>(t.tv_sec) * 1000 + t.tv_nsec / 1000000;
}

/* The time bound is the reading thread's CPU time, so that a loaded
 * machine cuts no page; it is read (a system call) only when the coarse
 * clock (vDSO, a few nanoseconds) has moved 20 ms since the last read, so
 * that checking at every tick costs nothing a page would notice. */
struct Budget {
	const sw__extract_pdf_bounds &bounds;
	XRef *xref;
	long checks = 0;
	long forms = 0;
	long cpu0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);
	long wall = clock_ms(CLOCK_MONOTONIC_COARSE);
	bool over = false;
	std::vector<std::pair<Ref, Object>> stubs; /* entries, what they held */

	Budget(const sw__extract_pdf_bounds &b, XRef *x) : bounds(b), xref(x) { }
	Budget(const Budget &) = delete;
	Budget &operator=(const Budget &) = delete;
	~Budget()
	{
		for (auto it = stubs.rbegin(); it != stubs.rend(); ++it)
			set_entry(xref, it->first, it->second);
	}
	/* Over its bounds a page draws no form, but poppler still fetches
	 * (parses) each form a page names before it asks whether to draw it,
	 * and asks the page to stop only every eleven operators of the stream
	 * that is running, a count a form's own drawing can set back by up to
	 * 20,000: a page of a thousand draws of one form whose /Length is
	 * wrong (each fetch a search for its end) went on for a minute past its
	 * time.  So a form named once the page is over is stubbed: its
	 * cross-reference entry holds a number, which poppler fetches at once
	 * and does not draw, until the page is done. */
	void stub(Ref id)
	{
		n_forms_over.fetch_add(1, std::memory_order_relaxed);
		if (!xref || id.num < 0 || id.num >= xref->getNumObjects() || stubs.size() >= 10000)
			return;
		XRefEntry *e = xref->getEntry(id.num, false);
		stubs.emplace_back(id, e ? e->obj.copy() : Object(objNull));
		set_entry(xref, id, Object(0));
	}
	bool tick()
	{
		if (++checks > bounds.ops / 10)
			over = true;
		timed();
		return over;
	}
	void form()
	{
		n_forms.fetch_add(1, std::memory_order_relaxed);
		if (++forms > bounds.forms)
			over = true;
		timed();
	}
	void timed()
	{
		long now = clock_ms(CLOCK_MONOTONIC_COARSE);
		if (over || now - wall < 20)
			return;
		wall = now;
		if (clock_ms(CLOCK_THREAD_CPUTIME_ID) - cpu0 > bounds.ms)
			over = true;
	}
};

/* Whether a page draws an image, told as poppler-glib's image mapping
 * (CairoImageOutputDev) tells it: every image drawn, masked or used as a
 * soft mask counts; tiling patterns, shadings and Type 3 glyphs are not
 * entered.  The page is drawn to its end (or its Budget): a page found to
 * draw an image is rendered whole for OCR next, and one that draws more
 * than its bounds is not rendered at all. */
class ImageProbe : public OutputDev
{
public:
	bool found = false;
	Budget budget;

	ImageProbe(const sw__extract_pdf_bounds &b, XRef *x) : budget(b, x) { }
	DRAW_NO_FORMS
	void beginForm(Ref) override { budget.form(); }
	bool upsideDown() override { return true; }
	bool useDrawChar() override { return false; }
	bool interpretType3Chars() override { return false; }
	bool needNonText() override { return true; }
	bool useTilingPatternFill() override { return true; }
	bool tilingPatternFill(GfxState *, Gfx *, Catalog *, GfxTilingPattern *, const double *,
			       int, int, int, int, double, double) override
	{
		return true;
	}
	bool useShadedFills(int type) override { return type <= 7; }
	bool functionShadedFill(GfxState *, GfxFunctionShading *) override { return true; }
	bool axialShadedFill(GfxState *, GfxAxialShading *, double, double) override
	{
		return true;
	}
	bool radialShadedFill(GfxState *, GfxRadialShading *, double, double) override
	{
		return true;
	}
	bool gouraudTriangleShadedFill(GfxState *, GfxGouraudTriangleShading *) override
	{
		return true;
	}
	bool patchMeshShadedFill(GfxState *, GfxPatchMeshShading *) override { return true; }
	void drawImageMask(GfxState *, Object *, Stream *, int, int, bool, bool, bool) override
	{
		found = true;
	}
	void setSoftMaskFromImageMask(GfxState *, Object *, Stream *, int, int, bool, bool,
				      double *) override
	{
		found = true;
	}
	void unsetSoftMaskFromImageMask(GfxState *, double *) override { }
	void drawImage(GfxState *, Object *, Stream *, int, int, GfxImageColorMap *, bool,
		       const int *, bool) override
	{
		found = true;
	}
	void drawMaskedImage(GfxState *, Object *, Stream *, int, int, GfxImageColorMap *, bool,
			     Stream *, int, int, bool, bool) override
	{
		found = true;
	}
	void drawSoftMaskedImage(GfxState *, Object *, Stream *, int, int, GfxImageColorMap *,
				 bool, Stream *, int, int, GfxImageColorMap *, bool) override
	{
		found = true;
	}
};

bool probe_done(void *data)
{
	return static_cast<ImageProbe *>(data)->budget.tick();
}

/* One Pages node on the way down: its dictionary, its Kids, the next kid,
 * and its pruned copy for the range being read (none until a page of the
 * range is under it). */
struct Level {
	Object node;
	Object kids;
	Ref ref;
	int next;
	Object copy; /* the pruned copy: a dictionary, or null */
	Array *copy_kids;
};

/* The error callback sworn's GlobalParamsIniters name: silent, as
 * poppler-glib's own is (it logs at glib's INFO level, which glib does not
 * print).  Whoever sets poppler up first installs theirs; once
 * sw__extract_pdf_poppler_hold has run there is none, and errors are quiet. */
void quiet(ErrorCategory, Goffset, const char *) { }

} // namespace

struct sw__extract_pdf_walk {
	/* poppler's global state lives while any holder of one of these does:
	 * the walk holds its own, for the caller may close its document (the
	 * last poppler-glib one) while walks read.  Declared first, it goes
	 * last. */
	std::unique_ptr<GlobalParamsIniter> initer;
	std::unique_ptr<PDFDoc> doc;
	std::vector<Level> stack;
	/* The Pages nodes whose cross-reference entries hold a pruned copy
	 * while a range is read, with what the entry held before (null for a
	 * node read from the file) to put back after. */
	std::vector<std::pair<Ref, Object>> changed;
	Object root;            /* the pruned copy of the root Pages node */
	int pos = 0;            /* pages passed so far */
	int npages = 0;
	bool broken = false;    /* a node the walk does not follow: stop */
	bool catalog = false;   /* not a walk: the document's catalog reads */
	sw__extract_pdf_bounds bounds = {};
	/* poppler rebuilds a damaged file's cross-reference table when a
	 * fetch first fails, which drops the pruned copies in it: a range read
	 * across that is not the range.  Set by the document's callback. */
	bool rebuilt = false;
};

/* Pages nodes deeper than this are left to the catalog: real trees are a
 * few levels deep, and each kid is checked against every node above it. */
#define MAX_DEPTH 64

/* Push a Pages node; false when its Kids is not an array or the tree is
 * too deep. */
static bool push(sw__extract_pdf_walk *w, Object &&node, Ref ref)
{
	if (w->stack.size() >= MAX_DEPTH)
		return false;
	Level l;
	l.kids = node.dictLookup("Kids");
	if (!l.kids.isArray())
		return false;
	l.node = std::move(node);
	l.ref = ref;
	l.next = 0;
	l.copy_kids = nullptr;
	w->stack.push_back(std::move(l));
	return true;
}

/* The next page of the tree into *ref (its parent is the top of the
 * stack); false at the end of the tree or at a node not followed
 * (w->broken). */
static bool next_page(sw__extract_pdf_walk *w, Ref *ref)
{
	while (!w->stack.empty()) {
		Level &top = w->stack.back();
		if (top.next >= top.kids.arrayGetLength()) {
			w->stack.pop_back();
			if (!w->stack.empty())
				w->stack.back().next++;
			continue;
		}
		const Object &kref = top.kids.arrayGetNF(top.next);
		if (!kref.isRef()) {
			w->broken = true;
			return false;
		}
		for (const Level &l : w->stack)
			if (l.ref.num == kref.getRefNum()) {
				w->broken = true; /* a loop: the catalog skips it */
				return false;
			}
		Object k = top.kids.arrayGet(top.next);
		if (k.isDict("Page") || (k.isDict() && !k.getDict()->hasKey("Kids"))) {
			*ref = kref.getRef();
			top.next++;
			return true;
		}
		if (!k.isDict() || !push(w, std::move(k), kref.getRef())) {
			w->broken = true;
			return false;
		}
	}
	return false;
}

/* Put the page ref under the pruned copies of the nodes above it, copying
 * those not copied yet for this range.  A pruned copy takes its node's own
 * cross-reference entry, so that the catalog, which reaches the root by
 * the document catalog's /Pages, finds the pruned tree, and no object
 * number the file does not use gains an object.  False when a node is
 * reached twice in one range (a Pages node that two parents share): its
 * one entry cannot hold two copies. */
static bool keep(sw__extract_pdf_walk *w, Ref page)
{
	XRef *xref = w->doc->getXRef();
	for (size_t d = 0; d < w->stack.size(); d++) {
		Level &l = w->stack[d];
		if (l.copy.isDict())
			continue;
		for (const auto &c : w->changed)
			if (c.first == l.ref)
				return false;
		Dict *c = l.node.getDict()->copy(xref);
		l.copy_kids = new Array(xref);
		c->set("Kids", Object(l.copy_kids));
		l.copy = Object(c);
		XRefEntry *e = xref->getEntry(l.ref.num, false);
		w->changed.emplace_back(l.ref, e ? e->obj.copy() : Object(objNull));
		set_entry(xref, l.ref, l.copy);
		if (d > 0)
			w->stack[d - 1].copy_kids->add(Object(l.ref));
		else
			w->root = l.copy.copy();
	}
	w->stack.back().copy_kids->add(Object(page));
	return true;
}

/* Put back what the nodes' entries held and forget the pruned copies: the
 * next range makes its own.  An entry must not be left holding its node:
 * poppler hands an entry's object to a fetch of any generation, where one
 * read from the file must match the reference's, so a later kid that names
 * the node with another generation would reach it here and not in
 * poppler-glib. */
static void unkeep(sw__extract_pdf_walk *w)
{
	XRef *xref = w->doc->getXRef();
	for (const auto &c : w->changed)
		set_entry(xref, c.first, c.second);
	w->changed.clear();
	for (Level &l : w->stack) {
		l.copy.setToNull();
		l.copy_kids = nullptr;
	}
	w->root.setToNull();
}

namespace {

/* poppler's text device, bounded: a page keeps at most its bounds' chars
 * characters and draws within its Budget, after which drawing stops and
 * the page is marked cut.  Without bounds, 66 KB of compressed "(a) Tj"
 * held 812 MB while its 1.5 million characters were laid out, and a form
 * drawn by a form drawn by a form multiplies without end (a 2 KB file
 * held 1.4 GB at 100 s, still drawing). */
class PageText : public TextOutputDev
{
public:
	long chars = 0;
	Budget budget;

	PageText(const sw__extract_pdf_bounds &b, XRef *x)
	    : TextOutputDev(nullptr, true, 0, false, false), budget(b, x)
	{
	}
	DRAW_NO_FORMS

	void drawChar(GfxState *state, double x, double y, double dx, double dy, double ox,
		      double oy, CharCode c, int nBytes, const Unicode *u, int uLen) override
	{
		if (chars >= budget.bounds.chars) {
			budget.over = true;
			return;
		}
		chars++;
		TextOutputDev::drawChar(state, x, y, dx, dy, ox, oy, c, nBytes, u, uLen);
	}
	void beginForm(Ref id) override
	{
		budget.form();
		TextOutputDev::beginForm(id);
	}
	/* The span's text replaces its glyphs when the span ends: it counts
	 * here (the span is still begun, to be ended in step). */
	void beginActualText(GfxState *state, const GooString *span) override
	{
		chars += span ? span->getLength() : 0;
		if (chars > budget.bounds.chars)
			budget.over = true;
		TextOutputDev::beginActualText(state, span);
	}
};

bool text_done(void *data)
{
	return static_cast<PageText *>(data)->budget.tick();
}

} // namespace

/* The text of page and its marks (SW_PDF_CAND: blank with images, as
 * poppler_page_get_text() and poppler_page_get_image_mapping() tell;
 * SW_PDF_CUT: the text stopped at the bounds of PageText). */
static void read_page(Page *page, const sw__extract_pdf_bounds &bounds, char **text,
		      unsigned char *mark)
{
	XRef *xref = page->getDoc()->getXRef();
	auto dev = std::make_unique<PageText>(bounds, xref);
	std::unique_ptr<Gfx> gfx(page->createGfx(dev.get(), 72.0, 72.0, 0, false, true, -1, -1,
						 -1, -1, false, text_done, dev.get()));
	page->display(gfx.get());
	dev->endPage();
	*mark = dev->budget.over ? SW_PDF_CUT : 0;
	TextPage *tp = dev->takeText();
	gfx.reset();
	dev.reset();
	PDFRectangle all;
	all.x1 = 0;
	all.y1 = 0;
	if (page->getRotate() == 90 || page->getRotate() == 270) {
		all.x2 = page->getCropHeight();
		all.y2 = page->getCropWidth();
	} else {
		all.x2 = page->getCropWidth();
		all.y2 = page->getCropHeight();
	}
	std::unique_ptr<GooString> s(tp->getSelectionText(&all, selectionStyleGlyph));
	tp->decRefCnt();
	*text = g_strdup(s->c_str());
	bool blank = true;
	for (const char *p = *text; *p && blank; p++)
		blank = *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f';
	if (blank && !(*mark & SW_PDF_CUT)) {
		ImageProbe probe(bounds, xref);
		std::unique_ptr<Gfx> g(page->createGfx(&probe, 72.0, 72.0, 0, false, true, -1, -1,
						       -1, -1, false, probe_done, &probe));
		page->display(g.get());
		if (probe.budget.over)
			*mark |= SW_PDF_CUT; /* not to be rendered for OCR */
		else if (probe.found)
			*mark |= SW_PDF_CAND;
	}
}

/* Read the k pages kept: a catalog over the pruned tree builds them. */
static bool read_kept(sw__extract_pdf_walk *w, int k, char **text, unsigned char *mark)
{
	if (!w->root.isDict())
		return false;
	w->root.dictSet("Count", Object(k));
	Catalog pruned(w->doc.get());
	if (!pruned.isOk() || pruned.getNumPages() != k)
		return false;
	for (int j = 0; j < k; j++) {
		Page *page = pruned.getPage(j + 1);
		if (!page)
			return false;
		read_page(page, w->bounds, &text[j], &mark[j]);
	}
	return true;
}

sw__extract_pdf_bounds sw__extract_pdf_bounds_fill(const sw__extract_pdf_bounds *b)
{
	sw__extract_pdf_bounds r = {SW_PDF_PAGE_CHARS, SW_PDF_PAGE_OPS, SW_PDF_PAGE_FORMS,
				    SW_PDF_PAGE_MS};
	if (b && b->ms > 0)
		r.ms = b->ms;
	if (b && b->chars > 0)
		r.chars = b->chars;
	if (b && b->ops > 0)
		r.ops = b->ops;
	if (b && b->forms > 0)
		r.forms = b->forms;
	return r;
}

/* A reader over data with npages pages, its document open; null when
 * poppler is not set up or the document has another page count. */
static std::unique_ptr<sw__extract_pdf_walk> open_walk(const char *data, size_t len, int npages,
						       const sw__extract_pdf_bounds *bounds)
{
	if (!globalParams || npages <= 0)
		return nullptr;
	auto w = std::make_unique<sw__extract_pdf_walk>();
	w->bounds = sw__extract_pdf_bounds_fill(bounds);
	w->initer = std::make_unique<GlobalParamsIniter>(quiet);
	Object none;
	sw__extract_pdf_walk *self = w.get();
	w->doc = std::make_unique<PDFDoc>(
		new MemStream(data, 0, static_cast<Goffset>(len), std::move(none)),
		std::optional<GooString>(), std::optional<GooString>(), nullptr,
		[self]() { self->rebuilt = true; });
	n_opened.fetch_add(1, std::memory_order_relaxed);
	if (!w->doc->isOk() || w->doc->getNumPages() != npages)
		return nullptr;
	w->npages = npages;
	return w;
}

struct sw__extract_pdf_walk *sw__extract_pdf_catalog_new(const char *data, size_t len, int npages,
							 const sw__extract_pdf_bounds *bounds)
{
	try {
		auto w = open_walk(data, len, npages, bounds);
		if (w)
			w->catalog = true;
		return w.release();
	} catch (...) {
		return nullptr;
	}
}

struct sw__extract_pdf_walk *sw__extract_pdf_walk_new(const char *data, size_t len, int npages,
						      const sw__extract_pdf_bounds *bounds)
{
	try {
		auto w = open_walk(data, len, npages, bounds);
		if (!w || w->doc->isLinearized())
			return nullptr;
		XRef *xref = w->doc->getXRef();
		Object cat = xref->getCatalog();
		if (!cat.isDict())
			return nullptr;
		const Object &pref = cat.dictLookupNF("Pages");
		if (!pref.isRef() || pref.getRefNum() < 0 || pref.getRefNum() >= xref->getNumObjects())
			return nullptr;
		Ref root = pref.getRef();
		Object pages = cat.dictLookup("Pages");
		if (!pages.isDict() || !push(w.get(), std::move(pages), root))
			return nullptr;
		return w.release();
	} catch (...) {
		return nullptr;
	}
}

int sw__extract_pdf_walk_read(struct sw__extract_pdf_walk *w, int c0, int c1, char **text,
			      unsigned char *mark)
{
	for (int i = c0; i < c1; i++) {
		text[i - c0] = nullptr;
		mark[i - c0] = 0;
	}
	if (w->catalog && c0 >= 0 && c0 < c1 && c1 <= w->npages) {
		/* as poppler-glib: a page not built has no text */
		try {
			for (int i = c0; i < c1; i++)
				if (Page *page = w->doc->getPage(i + 1))
					read_page(page, w->bounds, &text[i - c0], &mark[i - c0]);
		} catch (...) {
			/* out of memory: the pages not read have no text */
		}
		return 0;
	}
	if (w->catalog || w->broken || c0 < w->pos || c1 > w->npages || c0 >= c1)
		return -1;
	bool ok = false;
	w->rebuilt = false;
	try {
		bool whole = true;
		unkeep(w);
		while (whole && w->pos < c1) {
			Ref ref;
			if (!next_page(w, &ref))
				break;
			if (w->pos++ >= c0)
				whole = keep(w, ref);
		}
		ok = whole && w->pos == c1 && read_kept(w, c1 - c0, text, mark) && !w->rebuilt;
	} catch (...) {
		ok = false;
	}
	unkeep(w);
	if (ok)
		return 0;
	/* Stopped short (a node not followed, a page not built, the tree
	 * ended before the count, the cross-reference table rebuilt under
	 * the range): what was read is dropped and the range
	 * and every later one go to a catalog reader. */
	w->broken = true;
	for (int i = c0; i < c1; i++) {
		g_free(text[i - c0]);
		text[i - c0] = nullptr;
		mark[i - c0] = 0;
	}
	return -1;
}

void sw__extract_pdf_walk_free(struct sw__extract_pdf_walk *w)
{
	delete w;
}

void sw__extract_pdf_poppler_hold(void)
{
	try {
		/* Made once (C++ makes a local static thread-safely), never
		 * freed.  Then no error callback and errors quiet: poppler's
		 * error() returns at once, where with any callback it first
		 * formats the message and escapes it byte by byte.  A damaged
		 * file reports an error for each bad token, and that was a
		 * third of the pdf fuzzer's time. */
		static GlobalParamsIniter *const held = [] {
			auto *g = new GlobalParamsIniter(quiet);
			setErrorCallback(nullptr);
			if (globalParams)
				globalParams->setErrQuiet(true);
			return g;
		}();
		(void)held;
	} catch (...) {
		/* out of memory: poppler-glib sets itself up as before */
	}
}

void sw__extract_pdf_count_open(void)
{
	n_opened.fetch_add(1, std::memory_order_relaxed);
}

void sw__extract_pdf_counts_get(struct sw__extract_pdf_counts *out)
{
	out->opened = n_opened.load(std::memory_order_relaxed);
	out->forms = n_forms.load(std::memory_order_relaxed);
	out->forms_over = n_forms_over.load(std::memory_order_relaxed);
}
