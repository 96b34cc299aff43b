/*
 * gpu_health.c - the GPUs right now: read through NVML or else nvidia-smi
 * (the dispatcher), the proof that a server's model sits on its GPUs (the
 * memory its process holds there against the plan), and the health of
 * each GPU of a fleet for `fleet status` and `doctor` (memory the server
 * holds, temperature, power against its limit, throttle reasons,
 * uncorrected ECC errors; a GPU the inventory names that the driver does
 * not list is missing).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fleet/fleet_int.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

int sw_fleet_gpus_read(struct sw_fleet_gpus_now *out, struct sw_err *err)
{
	struct sw_err nerr = { 0 }, serr = { 0 };

	if (sw__fleet_gpus_nvml(out, &nerr) == 0)
		return 0;
	if (sw__fleet_gpus_smi(out, &serr) == 0)
		return 0;
	return sw_err_set(err, SW_EIO, "cannot read the GPUs: %s; nvidia-smi: %s", nerr.msg,
			  serr.msg);
}

const struct sw_fleet_gpu_now *sw_fleet_gpus_find(const struct sw_fleet_gpus_now *g, int index)
{
	for (size_t i = 0; g && i < g->n; i++)
		if (g->gpus[i].index == index)
			return &g->gpus[i];
	return NULL;
}

uint64_t sw_fleet_gpu_used_by(const struct sw_fleet_gpu_now *gpu, int pid)
{
	uint64_t sum = 0;
	for (size_t i = 0; gpu && i < gpu->nprocs; i++)
		if (gpu->procs[i].pid == pid)
			sum += gpu->procs[i].used;
	return sum;
}

/* NVML's clocks-event reasons.  Idle, the application clock setting and
 * the display clock are not slowdowns. */
static const struct {
	long long bit;
	const char *name;
} reasons[] = {
	{ 0x4, "power cap" },
	{ 0x8, "hardware slowdown" },
	{ 0x10, "sync boost" },
	{ 0x20, "thermal (software)" },
	{ 0x40, "thermal (hardware)" },
	{ 0x80, "power brake" },
};

void sw_fleet_throttle_text(char *out, size_t outsz, long long bits)
{
	size_t len = 0;
	if (bits < 0) {
		snprintf(out, outsz, "-");
		return;
	}
	out[0] = '\0';
	for (size_t i = 0; i < SW_ARRAY_LEN(reasons); i++)
		if ((bits & reasons[i].bit) && len < outsz) {
			int k = snprintf(out + len, outsz - len, "%s%s", len ? ", " : "",
					 reasons[i].name);
			len += k > 0 ? (size_t)k : 0;
		}
	if (len == 0)
		snprintf(out, outsz, "none");
}

int sw_fleet_offload_check(char *why, size_t whysz, const struct sw_fleet_gpus_now *now, int pid,
			   const int *idx, const uint64_t *planned, size_t n)
{
	int worst = -1;
	double worst_ratio = 2;
	for (size_t d = 0; d < n; d++) {
		const struct sw_fleet_gpu_now *g = sw_fleet_gpus_find(now, idx[d]);
		if (!g || !g->procs_known) {
			snprintf(why, whysz, "offload not measured: %s does not list the processes"
				 " of GPU %d", now ? now->source : "the driver", idx[d]);
			return -1;
		}
		if (planned[d] == 0)
			continue;
		double ratio = (double)sw_fleet_gpu_used_by(g, pid) / (double)planned[d];
		if (ratio < worst_ratio) {
			worst_ratio = ratio;
			worst = (int)d;
		}
	}
	if (worst < 0 || worst_ratio >= 0.5) {
		snprintf(why, whysz, "on its GPUs as planned (%s)", now->source);
		return 0;
	}
	const struct sw_fleet_gpu_now *g = sw_fleet_gpus_find(now, idx[worst]);
	snprintf(why, whysz, "model on the CPU: %.1f GiB of %.1f GiB on GPU %d (%s: the server"
		 " holds less than half of what the plan puts there)",
		 sw_fleet_gpu_used_by(g, pid) / GIB, planned[worst] / GIB, idx[worst], now->source);
	return 1;
}

/* Whether the comma list of indices holds index. */
static bool in_list(const char *list, int index)
{
	const char *p = list;
	while (p && *p) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p)
			return false;
		if (v == index)
			return true;
		p = *end == ',' ? end + 1 : NULL;
	}
	return false;
}

static void put_server(struct sw_fleet_gpu_health *h, const struct sw_fleet_state *st)
{
	for (size_t i = 0; st && i < st->nservers; i++) {
		const struct sw_fleet_state_server *s = &st->servers[i];
		if (!s->gpus || !in_list(s->gpus, h->index))
			continue;
		snprintf(h->server, sizeof(h->server), "%s", s->name);
		if (h->now && h->now->procs_known && s->pid > 0 && s->process_running) {
			h->server_bytes = sw_fleet_gpu_used_by(h->now, s->pid);
			h->server_known = true;
		}
		return;
	}
}

void sw_fleet_gpu_health(struct sw_fleet_gpu_health **out, size_t *n,
			 const struct sw_fleet_hw *inv, const struct sw_fleet_gpus_now *now,
			 const struct sw_fleet_state *st)
{
	size_t cap = inv ? inv->ngpus : now ? now->n : 0;
	struct sw_fleet_gpu_health *rows = sw_xcalloc(cap ? cap : 1, sizeof(*rows));
	size_t k = 0;

	if (inv) {
		/* The driver's GPUs as an inventory, for the presence check. */
		struct sw_fleet_gpu *have = sw_xcalloc(now && now->n ? now->n : 1, sizeof(*have));
		struct sw_fleet_hw hw = { 0 };
		struct sw_fleet_presence pr;
		for (size_t i = 0; now && i < now->n; i++) {
			have[i].index = now->gpus[i].index;
			have[i].name = now->gpus[i].name[0] ? (char *)now->gpus[i].name : NULL;
			have[i].pci = now->gpus[i].pci[0] ? (char *)now->gpus[i].pci : NULL;
		}
		hw.gpus = have;
		hw.ngpus = now ? now->n : 0;
		sw_fleet_presence_check(&pr, inv, &hw);
		for (size_t i = 0; i < inv->ngpus && i < SW_FLEET_MAX_GPUS; i++) {
			const struct sw_fleet_gpu *g = &inv->gpus[i];
			struct sw_fleet_gpu_health *h = &rows[k++];
			h->index = pr.now_index[i] >= 0 ? pr.now_index[i] : g->index;
			snprintf(h->name, sizeof(h->name), "%s", g->name ? g->name : "");
			if (g->group >= 0)
				snprintf(h->group, sizeof(h->group), "%s",
					 inv->groups[g->group].name);
			h->missing = pr.now_index[i] < 0;
			h->now = h->missing ? NULL : sw_fleet_gpus_find(now, pr.now_index[i]);
			put_server(h, st);
		}
		sw_fleet_presence_release(&pr);
		free(have);
	} else {
		for (size_t i = 0; now && i < now->n; i++) {
			struct sw_fleet_gpu_health *h = &rows[k++];
			h->index = now->gpus[i].index;
			snprintf(h->name, sizeof(h->name), "%s", now->gpus[i].name);
			h->now = &now->gpus[i];
			put_server(h, st);
		}
	}
	*out = rows;
	*n = k;
}

void sw_fleet_gpu_health_text(struct sw_buf *out, const struct sw_fleet_gpu_health *rows,
			      size_t n, const char *source)
{
	size_t missing = 0;
	sw_buf_addf(out, "GPUs (%s):\n%-4s %-8s %-12s %-32s %10s %6s %15s  %-18s %s\n",
		    source ? source : "not read", "GPU", "STATE", "GROUP", "SERVER", "SERVER MEM",
		    "TEMP", "POWER", "THROTTLE", "ECC");
	for (size_t i = 0; i < n; i++) {
		const struct sw_fleet_gpu_health *h = &rows[i];
		const struct sw_fleet_gpu_now *u = h->now;
		char mem[32] = "-", temp[16] = "-", power[32] = "-", thr[128] = "-", ecc[32] = "-";
		if (h->server_known)
			snprintf(mem, sizeof(mem), "%.1f GiB", h->server_bytes / GIB);
		if (u && u->temp_c >= 0)
			snprintf(temp, sizeof(temp), "%d C", u->temp_c);
		if (u && u->power_w >= 0)
			snprintf(power, sizeof(power),
				 u->power_limit_w > 0 ? "%.0f/%.0f W" : "%.0f W", u->power_w,
				 u->power_limit_w);
		if (u)
			sw_fleet_throttle_text(thr, sizeof(thr), u->throttle);
		if (u && u->ecc_uncorrected >= 0)
			snprintf(ecc, sizeof(ecc), "%lld", u->ecc_uncorrected);
		missing += h->missing;
		sw_buf_addf(out, "%-4d %-8s %-12s %-32s %10s %6s %15s  %-18s %s\n", h->index,
			    h->missing ? "missing"
			    : u	       ? "ok"
				       : "unread",
			    h->group[0] ? h->group : "-", h->server[0] ? h->server : "-", mem, temp,
			    power, thr, ecc);
	}
	for (size_t i = 0; i < n; i++)
		if (rows[i].missing)
			sw_buf_addf(out,
				    "GPU %d (%s) of group %s is missing: the driver does not list"
				    " it, so the group is degraded (its model is not started).\n",
				    rows[i].index, rows[i].name[0] ? rows[i].name : "unnamed",
				    rows[i].group[0] ? rows[i].group : "-");
	if (missing)
		sw_buf_adds(
			out,
			"  fix: a card lost on a warm reboot usually comes back with a cold"
			" one (power off, then on); when nvidia-smi lists it again, run 'sworn"
			" fleet down' and 'sworn fleet up'.  If it is gone for good, take it out"
			" of the inventory and plan again ('sworn plan').\n");
}

json_t *sw_fleet_gpu_health_json(const struct sw_fleet_gpu_health *rows, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++) {
		const struct sw_fleet_gpu_health *h = &rows[i];
		const struct sw_fleet_gpu_now *u = h->now;
		char thr[128] = "-";
		if (u)
			sw_fleet_throttle_text(thr, sizeof(thr), u->throttle);
		json_t *o = json_pack("{s:i, s:s, s:o, s:o, s:s}", "index", h->index, "state",
				      h->missing ? "missing" : u ? "ok" : "unread", "name",
				      sw_json_str(h->name), "group",
				      h->group[0] ? sw_json_str(h->group) : json_null(), "pci",
				      u ? u->pci : "");
		json_object_set_new(o, "server",
				    h->server[0] ? sw_json_str(h->server) : json_null());
		json_object_set_new(o, "server_bytes",
				    h->server_known ? json_integer((json_int_t)h->server_bytes)
						    : json_null());
		json_object_set_new(o, "temperature_c", u && u->temp_c >= 0
					   ? json_integer(u->temp_c) : json_null());
		json_object_set_new(o, "power_w", u && u->power_w >= 0 ? json_real(u->power_w)
								     : json_null());
		json_object_set_new(o, "power_limit_w", u && u->power_limit_w >= 0
					   ? json_real(u->power_limit_w) : json_null());
		json_object_set_new(o, "throttle", u && u->throttle >= 0 ? json_string(thr)
									   : json_null());
		json_object_set_new(o, "ecc_uncorrected", u && u->ecc_uncorrected >= 0
					   ? json_integer(u->ecc_uncorrected) : json_null());
		json_array_append_new(a, o);
	}
	return a;
}

const char *sw_fleet_gpu_health_line(char *out, size_t outsz, const struct sw_fleet_gpu_health *h)
{
	const struct sw_fleet_gpu_now *u = h->now;
	struct sw_buf b = SW_BUF_INIT;
	const char *verdict = "ok";
	char thr[128];

	if (h->missing) {
		snprintf(out, outsz,
			 "%s of group %s is missing: the driver does not list it, so the"
			 " group is degraded (its model is not started); a cold boot (power off, "
			 "then"
			 " on) usually brings back a card a warm reboot lost, then 'sworn fleet "
			 "down'"
			 " and 'sworn fleet up'; if it is gone for good, take it out of the "
			 "inventory"
			 " and plan again",
			 h->name[0] ? h->name : "the GPU", h->group[0] ? h->group : "-");
		return "FAIL";
	}
	if (!u) {
		snprintf(out, outsz, "not read");
		return "warn";
	}
	sw_buf_addf(&b, "%s", u->name);
	if (u->temp_c >= 0)
		sw_buf_addf(&b, ", %d C", u->temp_c);
	if (u->power_w >= 0)
		sw_buf_addf(&b, u->power_limit_w > 0 ? ", %.0f of %.0f W" : ", %.0f W", u->power_w,
			    u->power_limit_w);
	sw_fleet_throttle_text(thr, sizeof(thr), u->throttle);
	if (u->throttle >= 0)
		sw_buf_addf(&b, ", throttle %s", thr);
	if (u->ecc_uncorrected >= 0)
		sw_buf_addf(&b, ", %lld uncorrected ECC error%s", u->ecc_uncorrected,
			    u->ecc_uncorrected == 1 ? "" : "s");
	if (h->server[0] && h->server_known)
		sw_buf_addf(&b, "; %s holds %.1f GiB", h->server, h->server_bytes / GIB);
	/* Slowed by heat or power, or memory errors: the plan's speeds do not
	 * hold, and a failing card gets worse. */
	if ((u->throttle > 0 && strcmp(thr, "none") != 0) || u->ecc_uncorrected > 0 ||
	    u->temp_c >= 85) {
		verdict = "warn";
		sw_buf_adds(&b, u->ecc_uncorrected > 0
				? "; uncorrected memory errors: have the card checked"
				: "; it is slowed: check its cooling and power");
	}
	snprintf(out, outsz, "%s", b.data ? b.data : "");
	sw_buf_release(&b);
	return verdict;
}

void sw_fleet_gpu_report(struct sw_fleet_gpu_report *out, const char *inventory,
			 const struct sw_fleet_state *st)
{
	struct sw_err err = { 0 };
	memset(out, 0, sizeof(*out));
	if (sw_fleet_gpus_read(&out->now, &err) != 0) {
		snprintf(out->error, sizeof(out->error), "%s", err.msg);
		return;
	}
	out->have_inv =
		inventory && *inventory && sw_fleet_hw_load(&out->inv, inventory, NULL) == 0;
	sw_fleet_gpu_health(&out->rows, &out->n, out->have_inv ? &out->inv : NULL, &out->now, st);
	for (size_t i = 0; i < out->n; i++)
		out->missing += out->rows[i].missing;
}

void sw_fleet_gpu_report_release(struct sw_fleet_gpu_report *r)
{
	if (!r)
		return;
	free(r->rows);
	sw_fleet_gpus_release(&r->now);
	if (r->have_inv)
		sw_fleet_hw_release(&r->inv);
	memset(r, 0, sizeof(*r));
}

void sw_fleet_gpu_report_text(struct sw_buf *out, const struct sw_fleet_gpu_report *r)
{
	if (r->error[0])
		sw_buf_addf(out, "GPUs: not read (%s)\n", r->error);
	else
		sw_fleet_gpu_health_text(out, r->rows, r->n, r->now.source);
}

json_t *sw_fleet_gpu_report_json(const struct sw_fleet_gpu_report *r)
{
	return json_pack("{s:o, s:o, s:o}", "source",
			 r->now.source ? json_string(r->now.source) : json_null(), "gpus",
			 sw_fleet_gpu_health_json(r->rows, r->n), "error",
			 r->error[0] ? sw_json_str(r->error) : json_null());
}
