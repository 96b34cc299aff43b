/* draw_load.c - sw_fleet_plan_svg and sw_fleet_plan_png, which load the
 * module sworn-fleet.so the first time a plan is drawn and call draw.c's
 * code in it (fleet_int.h says why it is not linked in). */
#include <pthread.h>
#include <string.h>

#include "fleet/fleet_int.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const struct sw__fleet_draw *draw; /* NULL: load_err says why */
static struct sw_err load_err;

static void load(void)
{
	void *p = NULL;
	if (sw_module_load(&p, "fleet", SW__FLEET_DRAW_SYMBOL, &load_err) != 0)
		return;
	const struct sw__fleet_draw *d = p;
	const size_t sizes[] = { sizeof(struct sw_fleet_plan), sizeof(struct sw_buf),
				 sizeof(struct sw_err) };
	if (sw_module_check("fleet", d->abi, SW__FLEET_DRAW_ABI, d->version, d->sizes, sizes,
			    SW_ARRAY_LEN(sizes), &load_err) != 0)
		return;
	draw = d;
}

void sw_fleet_plan_svg(struct sw_buf *out, const struct sw_fleet_plan *p)
{
	pthread_once(&once, load);
	/* The contract has no error: without its module sworn is not
	 * installed, and the command stops saying so. */
	if (!draw)
		sw_die("%s", load_err.msg);
	draw->svg(out, p);
}

int sw_fleet_plan_png(const struct sw_fleet_plan *p, const char *path, struct sw_err *err)
{
	pthread_once(&once, load);
	if (!draw)
		return sw_err_set(err, load_err.code, "%s", load_err.msg);
	return draw->png(p, path, err);
}
