/*
 * place.c - assign models to groups, one model per group, never across.
 *
 * Every (model, group) pair is fitted once; the assignment is then a small
 * search over that table.  The score, compared in order: models placed;
 * models at or above the decode floor; fewest GPUs held by models that meet
 * the floor (the smallest group that is fast enough, leaving big boards to
 * models that need them); the speed of models below the floor (placed
 * where they run fastest).  Candidates are tried best-first, so the first
 * complete assignment is the greedy one; the search stops after a node
 * budget and keeps the best found, which bounds planning time on large
 * boxes.
 */
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet_int.h"

#define SEARCH_BUDGET 200000u

struct score {
	size_t placed, met;
	long gpus;      /* negated GPU count of floor-meeting models */
	double slow;    /* sum of speeds of models below the floor */
};

static int cmp_score(const struct score *a, const struct score *b)
{
	if (a->placed != b->placed) return a->placed > b->placed ? 1 : -1;
	if (a->met != b->met) return a->met > b->met ? 1 : -1;
	if (a->gpus != b->gpus) return a->gpus > b->gpus ? 1 : -1;
	if (a->slow > b->slow * 1.000001) return 1;
	if (b->slow > a->slow * 1.000001) return -1;
	return 0;
}

struct search {
	const struct sw_fleet_plan *p;
	struct sw_fleet_fit *fits;  /* nmodels x ngroups */
	size_t ngroups;
	size_t order[SW_FLEET_MAX_MODELS];
	int cand[SW_FLEET_MAX_MODELS][SW_FLEET_MAX_GROUPS];
	size_t ncand[SW_FLEET_MAX_MODELS];
	int cur[SW_FLEET_MAX_MODELS], best[SW_FLEET_MAX_MODELS];
	struct score best_score;
	bool have_best;
	uint64_t taken;            /* groups in use */
	size_t nodes;
};

static struct sw_fleet_fit *fit_at(const struct search *s, size_t m, size_t g)
{
	return &s->fits[m * s->ngroups + g];
}

static bool meets(const struct search *s, size_t m, size_t g)
{
	return fit_at(s, m, g)->decode_tps >= s->p->opts.floor_tps;
}

static void evaluate(struct search *s)
{
	struct score sc = { 0 };
	for (size_t m = 0; m < s->p->nmodels; m++) {
		int g = s->cur[m];
		if (g < 0)
			continue;
		sc.placed++;
		if (meets(s, m, (size_t)g)) {
			sc.met++;
			sc.gpus -= (long)s->p->hw->groups[g].n;
		} else {
			sc.slow += fit_at(s, m, (size_t)g)->decode_tps;
		}
	}
	if (!s->have_best || cmp_score(&sc, &s->best_score) > 0) {
		s->best_score = sc;
		memcpy(s->best, s->cur, sizeof(s->best));
		s->have_best = true;
	}
}

static void dfs(struct search *s, size_t k)
{
	if (s->nodes++ > SEARCH_BUDGET && s->have_best)
		return;
	if (k == s->p->nmodels) {
		evaluate(s);
		return;
	}
	size_t m = s->order[k];
	for (size_t i = 0; i < s->ncand[m]; i++) {
		int g = s->cand[m][i];
		if (s->taken >> g & 1)
			continue;
		s->taken |= UINT64_C(1) << g;
		s->cur[m] = g;
		dfs(s, k + 1);
		s->taken &= ~(UINT64_C(1) << g);
	}
	s->cur[m] = -1;
	dfs(s, k + 1);
}

/* Candidate order for one model: floor-meeting groups smallest first (then
 * fastest), then the rest fastest first. */
static int cmp_cand(const struct search *s, size_t sort_model, int ga, int gb)
{
	bool ma = meets(s, sort_model, (size_t)ga), mb = meets(s, sort_model, (size_t)gb);
	if (ma != mb)
		return ma ? -1 : 1;
	const struct sw_fleet_group *x = &s->p->hw->groups[ga], *y = &s->p->hw->groups[gb];
	double sa = fit_at(s, sort_model, (size_t)ga)->decode_tps;
	double sb = fit_at(s, sort_model, (size_t)gb)->decode_tps;
	if (ma && x->n != y->n)
		return x->n < y->n ? -1 : 1;
	if (sa != sb)
		return sa > sb ? -1 : 1;
	return ga - gb;
}

static int cmp_order(const struct search *s, size_t ma, size_t mb)
{
	if (s->ncand[ma] != s->ncand[mb])
		return s->ncand[ma] < s->ncand[mb] ? -1 : 1;
	uint64_t wa = s->p->models[ma].weight_bytes, wb = s->p->models[mb].weight_bytes;
	if (wa != wb)
		return wa > wb ? -1 : 1;
	return ma < mb ? -1 : 1;
}

static void shell_quote(struct sw_buf *b, const char *s)
{
	bool plain = *s != '\0';
	for (const char *p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      strchr("-_./:=,+@%", *p)))
			plain = false;
	if (plain) {
		sw_buf_adds(b, s);
		return;
	}
	sw_buf_addc(b, '\'');
	for (const char *p = s; *p; p++) {
		if (*p == '\'')
			sw_buf_adds(b, "'\\''");
		else
			sw_buf_addc(b, *p);
	}
	sw_buf_addc(b, '\'');
}

static char *command(const struct sw_fleet_plan *p, size_t i)
{
	const struct sw_fleet_placement *pl = &p->placed[i];
	const struct sw_fleet_group *g = &p->hw->groups[pl->group];
	const struct sw_fleet_model *m = &p->models[i];
	const struct sw_fleet_request *r = &p->reqs[i];
	struct sw_buf b = SW_BUF_INIT;
	sw_buf_adds(&b, "CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=");
	for (size_t d = 0; d < g->n; d++)
		sw_buf_addf(&b, "%s%d", d ? "," : "", p->hw->gpus[g->gpu[d]].index);
	sw_buf_addc(&b, ' ');
	shell_quote(&b, p->opts.server);
	sw_buf_adds(&b, " -m ");
	shell_quote(&b, m->path);
	sw_buf_adds(&b, " --host ");
	shell_quote(&b, p->hw->hosts && p->hw->hosts[g->host].address ? p->hw->hosts[g->host].address
								      : p->opts.host);
	sw_buf_addf(&b, " --port %u -ngl %u -sm layer -ts ", pl->port, m->n_layer_all + 1);
	for (size_t d = 0; d < pl->fit.ndev; d++)
		sw_buf_addf(&b, "%s%u", d ? "," : "", pl->fit.layers[d]);
	const char *kv = sw_fleet_kv_name(r->kv);
	const struct sw_fleet_server_caps *caps = p->opts.caps;
	bool known = caps && caps->known;
	sw_buf_addf(&b, " %s -ctk %s -ctv %s -c %u -np %u%s", !known || caps->fa_value ? "-fa on" : "-fa",
		    kv, kv, pl->fit.ctx, r->slots ? r->slots : 1, !known || caps->fit ? " --fit off" : "");
	if (pl->rpc_group >= 0)
		sw__fleet_rpc_flag(&b, p, i);
	return sw_buf_detach(&b, NULL);
}

static void reason(struct sw_fleet_plan *p, struct search *s, size_t m)
{
	struct sw_fleet_placement *pl = &p->placed[m];
	const struct sw_fleet_hw *hw = p->hw;
	char *r = pl->reason;
	size_t n = 0, cap = sizeof(pl->reason);
#define ADD(...) do { if (n < cap) n += (size_t)snprintf(r + n, cap - n, __VA_ARGS__); } while (0)
	if (pl->group >= 0) {
		const struct sw_fleet_group *g = &hw->groups[pl->group];
		if (!pl->below_floor) {
			ADD("smallest free group that fits and meets the %.0f tok/s floor (%zu GPU%s, predicted %.0f tok/s)",
			    p->opts.floor_tps, g->n, g->n == 1 ? "" : "s", pl->fit.decode_tps);
		} else {
			ADD("meets the %.0f tok/s floor on no free group; placed where it runs fastest "
			    "(predicted %.1f tok/s)", p->opts.floor_tps, pl->fit.decode_tps);
		}
		/* Name a better group that another model holds. */
		for (size_t i = 0; i < s->ncand[m]; i++) {
			int c = s->cand[m][i];
			if (c == pl->group)
				break;
			for (size_t o = 0; o < p->nmodels; o++)
				if (o != m && p->placed[o].group == c) {
					ADD("; %s was preferred (%.1f tok/s) but serves %s", hw->groups[c].name,
					    fit_at(s, m, (size_t)c)->decode_tps, p->models[o].name);
					i = s->ncand[m];
					break;
				}
		}
		return;
	}
	if (s->ncand[m] == 0) {
		/* Fits nowhere: explain on the largest group it was tried on. */
		int big = -1;
		const char *pin = p->reqs[m].group;
		for (size_t g = 0; g < s->ngroups; g++) {
			if (pin && strcmp(hw->groups[g].name, pin) != 0)
				continue;
			if (big < 0 || hw->groups[g].n > hw->groups[big].n)
				big = (int)g;
		}
		const struct sw_fleet_fit *f = fit_at(s, m, (size_t)big);
		if (f->fits && p->opts.strict_floor)
			ADD("meets the %.0f tok/s floor on no group (best here %.1f tok/s on %s) and "
			    "--strict-floor is set", p->opts.floor_tps, f->decode_tps, hw->groups[big].name);
		else
			ADD("fits no group; on %s: %s", hw->groups[big].name, f->why);
		return;
	}
	ADD("every group it fits is serving another model:");
	for (size_t i = 0; i < s->ncand[m]; i++) {
		int c = s->cand[m][i];
		for (size_t o = 0; o < p->nmodels; o++)
			if (p->placed[o].group == c)
				ADD(" %s (%s)", hw->groups[c].name, p->models[o].name);
	}
#undef ADD
}

int sw_fleet_plan_make(struct sw_fleet_plan *out, const struct sw_fleet_hw *hw,
		       const struct sw_fleet_model *models, const struct sw_fleet_request *reqs,
		       size_t nmodels, const struct sw_fleet_plan_opts *opts,
		       const struct sw_fleet_calib *cal, struct sw_err *err)
{
	struct sw_fleet_plan *p = out;
	struct search *s = NULL;
	double t0 = sw_now();
	int rc = 0;

	memset(p, 0, sizeof(*p));
	p->hw = hw;
	p->models = models;
	p->reqs = reqs;
	p->nmodels = nmodels;
	p->opts = *opts;
	if (p->opts.floor_tps <= 0)
		p->opts.floor_tps = 40;
	if (!p->opts.base_port)
		p->opts.base_port = 8081;
	if (!p->opts.server)
		p->opts.server = "llama-server";
	if (!p->opts.host)
		p->opts.host = "127.0.0.1";
	if (nmodels > SW_FLEET_MAX_MODELS)
		return sw_err_set(err, SW_EUSAGE, "%zu models: at most %u can be planned at once", nmodels,
				  SW_FLEET_MAX_MODELS);
	if (hw->ngroups == 0 || hw->ngroups > SW_FLEET_MAX_GROUPS)
		return sw_err_set(err, SW_EUSAGE, "the inventory has no groups");
	for (size_t m = 0; m < nmodels; m++)
		if (reqs[m].group && sw_fleet_hw_find_group(hw, reqs[m].group) < 0)
			return sw_err_set(err, SW_EUSAGE, "%s: no group called '%s' in %s", models[m].name,
					  reqs[m].group, hw->source);

	s = sw_xcalloc(1, sizeof(*s));
	s->p = p;
	s->ngroups = hw->ngroups;
	s->fits = sw_xcalloc(nmodels * hw->ngroups + 1, sizeof(*s->fits));
	p->placed = sw_xcalloc(nmodels + 1, sizeof(*p->placed));
	for (size_t m = 0; m < nmodels; m++) {
		for (size_t g = 0; g < hw->ngroups; g++) {
			if (reqs[m].group && strcmp(hw->groups[g].name, reqs[m].group) != 0)
				continue;
			struct sw_fleet_fit *f = fit_at(s, m, g);
			sw__fleet_fit(f, &models[m], hw, (int)g, &reqs[m], cal, false);
			if (f->fits && (!p->opts.strict_floor || meets(s, m, g)))
				s->cand[m][s->ncand[m]++] = (int)g;
		}
		/* Insertion sorts: at most 64 items, and no global for qsort. */
		for (size_t i = 1; i < s->ncand[m]; i++)
			for (size_t j = i; j > 0 && cmp_cand(s, m, s->cand[m][j], s->cand[m][j - 1]) < 0; j--) {
				int t = s->cand[m][j];
				s->cand[m][j] = s->cand[m][j - 1];
				s->cand[m][j - 1] = t;
			}
		s->order[m] = m;
		s->cur[m] = s->best[m] = -1;
	}
	for (size_t i = 1; i < nmodels; i++)
		for (size_t j = i; j > 0 && cmp_order(s, s->order[j], s->order[j - 1]) < 0; j--) {
			size_t t = s->order[j];
			s->order[j] = s->order[j - 1];
			s->order[j - 1] = t;
		}
	dfs(s, 0);

	uint16_t port = p->opts.base_port;
	for (size_t m = 0; m < nmodels; m++) {
		struct sw_fleet_placement *pl = &p->placed[m];
		pl->model = m;
		pl->rpc_group = -1;
		pl->group = s->have_best ? s->best[m] : -1;
		if (pl->group >= 0) {
			pl->fit = *fit_at(s, m, (size_t)pl->group);
			pl->below_floor = !meets(s, m, (size_t)pl->group);
			pl->port = reqs[m].port ? reqs[m].port : port++;
		} else {
			/* Keep the fit on the largest group for the report. */
			int big = 0;
			for (size_t g = 0; g < hw->ngroups; g++)
				if (hw->groups[g].n > hw->groups[big].n)
					big = (int)g;
			if (reqs[m].group)
				big = sw_fleet_hw_find_group(hw, reqs[m].group);
			/* Only now say what would make it fit there. */
			sw_fleet_fit(fit_at(s, m, (size_t)big), &models[m], hw, big, &reqs[m], cal);
			pl->fit = *fit_at(s, m, (size_t)big);
		}
	}
	for (size_t m = 0; m < nmodels; m++)
		reason(p, s, m);
	/* What fits no group may span two hosts, when allowed; its reason
	 * then says what that costs. */
	sw__fleet_plan_rpc(p, cal, &port);
	for (size_t m = 0; m < nmodels; m++)
		if (p->placed[m].group >= 0)
			p->placed[m].command = command(p, m);
	p->elapsed_ms = (sw_now() - t0) * 1e3;
	if (s) {
		free(s->fits);
		free(s);
	}
	return rc;
}

void sw_fleet_plan_release(struct sw_fleet_plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; p->placed && i < p->nmodels; i++) {
		free(p->placed[i].command);
		free(p->placed[i].rpc_commands);
	}
	free(p->placed);
	memset(p, 0, sizeof(*p));
}

int sw_fleet_placement_gpu(const struct sw_fleet_plan *p, size_t i, size_t d)
{
	const struct sw_fleet_placement *pl = &p->placed[i];
	int g = pl->group;
	if (g < 0)
		return -1;
	const struct sw_fleet_group *main = &p->hw->groups[g];
	if (d < main->n)
		return main->gpu[d];
	if (pl->rpc_group < 0)
		return -1;
	const struct sw_fleet_group *help = &p->hw->groups[pl->rpc_group];
	return d - main->n < help->n ? help->gpu[d - main->n] : -1;
}

size_t sw_fleet_plan_unplaced(const struct sw_fleet_plan *p)
{
	size_t n = 0;
	for (size_t i = 0; i < p->nmodels; i++)
		if (p->placed[i].group < 0)
			n++;
	return n;
}

char *sw_fleet_endpoint_name(const struct sw_fleet_plan *p, size_t i)
{
	char slug[48];
	const struct sw_fleet_placement *pl = &p->placed[i];
	sw__fleet_slug(slug, sizeof(slug), p->models[i].name);
	if (pl->group < 0)
		return sw_xstrdup(slug);
	return sw_xasprintf("%s-%s", p->hw->groups[pl->group].name, slug);
}
