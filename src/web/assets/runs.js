/* sworn serve: a matter's runs (#/m/NAME/runs), a run with its steps and
 * timings (.../runs/ID, polled while it runs), the context audit of a step
 * (.../runs/ID/context/KEY) and the run's draft in the review
 * (.../runs/ID/draft, review.js). */

import {
	api, cleanup, clear, el, enc, failed, fmt, generation, link, live, mpath, page, svg
} from './core.js';
import { Review } from './review.js';

/* ------------------------------------------------------------ runs */

export function viewRuns(m) {
	var root = page('Runs of ' + m);
	var gen = generation;
	var box = el('section', { 'aria-label': 'Runs' });
	root.appendChild(box);
	function load() {
		api(mpath(m) + '/runs').then(function (r) {
			if (!live(gen))
				return;
			var runs = r.data.runs || [];
			clear(box);
			if (!runs.length) {
				box.appendChild(el('p', null, 'No runs yet: sworn draft -m ' + m + ' --task TASK --brief FILE.'));
				return;
			}
			var tb = el('tbody');
			runs.forEach(function (x) {
				var base = '#/m/' + enc(m) + '/runs/' + enc(x.id);
				tb.appendChild(el('tr', null,
					el('td', { class: 'num' }, link(base, String(x.id))),
					el('td', null, x.task),
					el('td', null, statusTag(x.status)),
					el('td', null, x.reason || ''),
					el('td', { class: 'num' }, fmt(x.steps_done) + '/' + fmt(x.steps)),
					el('td', { class: 'num' }, fmt(x.wall_s, 1) + ' s'),
					el('td', null, x.created_at || ''),
					el('td', null, link(base + '/draft', 'review the draft'))));
			});
			box.appendChild(el('table', { class: 'grid' },
				el('caption', null, runs.length + ' runs'),
				el('thead', null, el('tr', null,
					['Run', 'Task', 'Status', 'Reason', 'Steps', 'Time', 'Started', 'Draft'].map(function (t) {
						return el('th', { scope: 'col' }, t);
					}))), tb));
			/* every second while a run runs, else every 5 s for new runs */
			timer(load, runs.some(function (x) { return x.status === 'running'; }) ? 1000 : 5000, gen);
		}).catch(failed);
	}
	load();
	return true;
}

function timer(f, ms, gen) {
	var t = setTimeout(function () { if (live(gen)) f(); }, ms);
	cleanup.push(function () { clearTimeout(t); });
}

function statusTag(s) {
	return el('span', { class: 'run-' + s }, s);
}

export function viewRun(m, id) {
	var root = page('Run ' + id);
	var gen = generation;
	var head = el('section', { 'aria-live': 'polite' });
	var body = el('section');
	root.appendChild(head);
	root.appendChild(body);
	function load() {
		api(mpath(m) + '/runs/' + enc(id)).then(function (r) {
			if (!live(gen))
				return;
			var x = r.data;
			clear(head);
			head.appendChild(el('p', { class: 'runhead' },
				'Task ', el('strong', null, x.task || ''), ' \u00b7 status ', statusTag(x.status),
				x.reason ? ' \u00b7 ' + x.reason : '',
				' \u00b7 ' + fmt(x.wall_s, 2) + ' s', x.running ? '' : '',
				x.status === 'running' ? el('span', { class: 'muted' }, ' (updating every second)') : ''));
			decisions(head, x);
			head.appendChild(el('p', null,
				link('#/m/' + enc(m) + '/runs/' + enc(id) + '/draft', 'Review the draft', { class: 'button' }),
				x.final_path ? el('span', { class: 'muted' }, ' final: ' + x.final_path) : ''));
			clear(body);
			body.appendChild(stepsTable(m, id, x.steps || []));
			body.appendChild(endpointTable(x.steps || []));
			if (x.status === 'running')
				timer(load, 1000, gen);
		}).catch(failed);
	}
	load();
	return true;
}

// Who approved, an override's reason and the run's waivers, on the
// record: a waived claim is the lawyer's decision, never "supported".
function decisions(into, x) {
	var a = x.approval;
	if (a)
		into.appendChild(el('p', { class: 'decision' }, el('strong', null,
			a.override ? '\u2714 Approved with override' : '\u2714 Approved'),
			' by ' + (a.by || 'nobody named') + ' on ' + a.at,
			a.override ? el('span', null, ' \u00b7 override: ' + a.override) : ''));
	if (!x.waivers || !x.waivers.length)
		return;
	var ul = el('ul', { class: 'waivers' });
	x.waivers.forEach(function (w) {
		ul.appendChild(el('li', null, el('span', { class: 'waived' }, 'waived'), ' ' + w.kind + ' ',
			el('q', null, w.claim), ' (was ' + w.verdict + ') by ' + w.by + ' on ' + w.at + ': ' +
			w.reason));
	});
	into.appendChild(el('div', null, el('p', null, 'Waived claims (' + x.waivers.length + ')'), ul));
}

function stepsTable(m, id, steps) {
	var tb = el('tbody');
	steps.forEach(function (s) {
		var ctx = s.endpoint ? link('#/m/' + enc(m) + '/runs/' + enc(id) + '/context/' + enc(s.key), 'context') : '';
		var detail = s.detail && s.detail.claims !== undefined ?
			s.detail.claims + ' claims, ' + s.detail.blocked + ' blocked' :
			s.detail && s.detail.findings !== undefined ? s.detail.findings + ' findings' : '';
		tb.appendChild(el('tr', { class: 'step-' + s.status },
			el('td', { class: 'mono' }, s.key),
			el('td', null, s.role || ''),
			el('td', null, s.endpoint || ''),
			el('td', null, s.model || ''),
			el('td', null, statusTag(s.status), s.error ? el('div', { class: 'bad' }, s.error) : ''),
			el('td', { class: 'num' }, fmt(s.wall_s, 2)),
			el('td', { class: 'num' }, fmt(s.prompt_tokens)),
			el('td', { class: 'num' }, fmt(s.completion_tokens)),
			el('td', { class: 'num' }, fmt(s.prompt_per_s, 0)),
			el('td', { class: 'num' }, fmt(s.predicted_per_s, 1)),
			el('td', null, detail),
			el('td', null, ctx)));
	});
	return el('table', { class: 'grid', id: 'steps' },
		el('caption', null, 'Steps'),
		el('thead', null, el('tr', null,
			['Step', 'Role', 'Endpoint', 'Model', 'Status', 'Wall s', 'Prompt tok', 'Output tok',
				'Prompt tok/s', 'Output tok/s', 'Result', 'Context audit'].map(function (t) {
				return el('th', { scope: 'col' }, t);
			}))), tb);
}

/* Tokens and rates summed per endpoint: output tokens over the time spent
 * producing them. */
function endpointTable(steps) {
	var by = {};
	steps.forEach(function (s) {
		if (!s.endpoint)
			return;
		var e = by[s.endpoint] || (by[s.endpoint] = { steps: 0, prompt: 0, out: 0, gen_s: 0, wall: 0 });
		e.steps++;
		e.prompt += s.prompt_tokens || 0;
		e.out += s.completion_tokens || 0;
		if (s.completion_tokens && s.predicted_per_s)
			e.gen_s += s.completion_tokens / s.predicted_per_s;
		e.wall += s.wall_s || 0;
	});
	var tb = el('tbody');
	Object.keys(by).sort().forEach(function (k) {
		var e = by[k];
		tb.appendChild(el('tr', null, el('td', null, k), el('td', { class: 'num' }, e.steps),
			el('td', { class: 'num' }, e.prompt), el('td', { class: 'num' }, e.out),
			el('td', { class: 'num' }, e.gen_s > 0 ? (e.out / e.gen_s).toFixed(1) : '\u2013'),
			el('td', { class: 'num' }, e.wall.toFixed(2))));
	});
	return el('table', { class: 'grid', id: 'endpoints' },
		el('caption', null, 'By endpoint'),
		el('thead', null, el('tr', null, ['Endpoint', 'Steps', 'Prompt tok', 'Output tok', 'Output tok/s', 'Wall s'].map(function (t) {
			return el('th', { scope: 'col' }, t);
		}))), tb);
}

/* ------------------------------------------------------------ context audit */

var ORIGIN_CLASS = ['evidence', 'human', 'template', 'model', 'authority'];

export function viewContext(m, id, key) {
	var root = page('Context of run ' + id + ', step ' + key);
	var gen = generation;
	root.appendChild(el('p', null, link('#/m/' + enc(m) + '/runs/' + enc(id), '\u2190 run ' + id)));
	api(mpath(m) + '/runs/' + enc(id) + '/context?step=' + enc(key)).then(function (r) {
		if (!live(gen))
			return;
		var c = r.data;
		var by = c.by_origin || {};
		var names = Object.keys(by).sort(function (a, b) { return (by[b].tokens || 0) - (by[a].tokens || 0); });
		root.appendChild(el('p', null, fmt(c.tokens) + ' tokens in the window of ' + key + '.'));
		var w = 640, row = 30, lw = 110;
		var chart = svg('svg', { class: 'bars', role: 'img', viewBox: '0 0 ' + w + ' ' + (names.length * row + 4),
			width: w, height: names.length * row + 4,
			'aria-label': 'Shares of the window by origin: ' + names.map(function (n) {
				return n + ' ' + fmt(by[n].percent, 1) + '%';
			}).join(', ') });
		names.forEach(function (n, i) {
			var share = Math.max(0, Math.min(1, by[n].share !== undefined ? by[n].share : (by[n].percent || 0) / 100));
			var pct = by[n].percent !== undefined ? by[n].percent : share * 100;
			var y = i * row + 2;
			var cls = ORIGIN_CLASS.indexOf(n) >= 0 ? n : 'other';
			chart.appendChild(svg('text', { x: 0, y: y + 19, class: 'blabel' }, n));
			chart.appendChild(svg('rect', { x: lw, y: y + 4, height: row - 10, width: Math.max(1, (w - lw - 150) * pct / 100),
				class: 'bar o-' + cls }));
			chart.appendChild(svg('text', { x: lw + (w - lw - 150) * pct / 100 + 6, y: y + 19, class: 'bvalue' },
				fmt(pct, 1) + '% \u00b7 ' + fmt(by[n].tokens) + ' tok'));
		});
		root.appendChild(el('figure', { class: 'chart' }, chart,
			el('figcaption', null, 'Share of the model\u2019s window by origin of the text')));
		(c.violations || []).forEach(function (v) {
			root.appendChild(el('p', { class: 'bad' }, '\u26a0 ' + (typeof v === 'string' ? v : JSON.stringify(v))));
		});
		(c.flags || []).forEach(function (v) {
			root.appendChild(el('p', { class: 'warn' }, '\u26a0 ' + (typeof v === 'string' ? v :
				(v.reason || v.kind || '') + ' ' + (v.document || ''))));
		});
		var steps = c.steps || [];
		steps.forEach(function (s) {
			var tb = el('tbody');
			(s.sections || []).forEach(function (sec) {
				var docLink = sec.doc_id ? link('#/m/' + enc(m) + '/doc/' + enc(sec.doc_id) + '/' + enc(sec.page || 1),
					sec.document || String(sec.doc_id)) : (sec.document || '');
				tb.appendChild(el('tr', null, el('td', { class: 'num' }, fmt(sec.seq)), el('td', null, sec.kind),
					el('td', null, el('span', { class: 'swatch o-' + (ORIGIN_CLASS.indexOf(sec.origin) >= 0 ? sec.origin : 'other') }), ' ', sec.origin),
					el('td', null, docLink), el('td', { class: 'num' }, fmt(sec.page)), el('td', { class: 'mono' }, sec.bates || ''),
					el('td', { class: 'num' }, fmt(sec.tokens) + (sec.estimated ? ' (est.)' : ''))));
			});
			root.appendChild(el('table', { class: 'grid' },
				el('caption', null, 'Sections of ' + s.key + (s.endpoint ? ' (' + s.role + ' on ' + s.endpoint + ')' : '')),
				el('thead', null, el('tr', null, ['#', 'Kind', 'Origin', 'Document', 'Page', 'Bates', 'Tokens'].map(function (t) {
					return el('th', { scope: 'col' }, t);
				}))), tb));
		});
	}).catch(failed);
	return true;
}

/* ------------------------------------------------------------ the draft view */

export function viewRunDraft(m, id) {
	var root = page('Draft of run ' + id);
	var gen = generation;
	root.appendChild(el('p', { class: 'noprint' }, link('#/m/' + enc(m) + '/runs/' + enc(id), '\u2190 run ' + id)));
	api(mpath(m) + '/runs/' + enc(id) + '/draft').then(function (r) {
		if (!live(gen))
			return;
		Review(root, {
			matter: m, run: id, text: r.data.text || '', report: r.data.report,
			version: r.data.version || 0, edited: !!r.data.edited, gen: gen
		});
	}).catch(failed);
	return true;
}
