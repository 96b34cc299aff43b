/* sworn serve: production QC (#/m/NAME/qc). */

import { api, download, el, failed, fmt, generation, live, mpath, page, say } from './core.js';

/* ------------------------------------------------------ production QC */

/* What import found wrong with each load-file volume (GET /qc, the JSON
 * of sworn matter qc --json): totals, then each kind of problem with
 * what the producing party should fix and its DAT lines and Bates
 * numbers; the findings as CSV (GET /qc.csv) for the deficiency letter. */
export function viewQc(m) {
	var root = page('Production QC of ' + m);
	var gen = generation;
	var box = el('div', { id: 'qc' });
	root.appendChild(box);
	api(mpath(m) + '/qc').then(function (r) {
		if (!live(gen))
			return;
		var vols = r.data.volumes || [];
		if (!vols.length) {
			box.appendChild(el('p', null, 'No load-file volume imported yet: sworn ingest -m ' + m + ' VOLUME.'));
			return;
		}
		box.appendChild(el('p', { class: 'tools noprint' }, el('button', { type: 'button', id: 'qc-csv',
			on: { click: function () {
				download(mpath(m) + '/qc.csv', m + '-qc.csv').then(function () { say('Saved ' + m + '-qc.csv.'); }).catch(failed);
			} } }, 'Download findings (.csv)')));
		vols.forEach(function (v) { box.appendChild(qcVolume(v)); });
	}).catch(failed);
	return true;
}

function qcVolume(v) {
	var t = v.totals || {};
	var sec = el('section', { class: 'qc-volume', 'aria-label': 'Volume ' + v.name },
		el('h2', null, v.name),
		el('p', null, v.dat + (v.opt ? ' with ' + v.opt : '') + ', imported ' + (v.imported_at || '?')),
		el('p', { class: 'qc-totals' }, fmt(t.documents) + ' documents, ' + fmt(t.pages) + ' pages, ' +
			fmt(t.natives) + ' natives, ' + fmt(t.images) + ' images; text for ' + fmt(t.texts) +
			' of ' + fmt(t.documents) + ' documents (' + fmt(t.text_coverage_percent) + '%)'));
	var findings = v.findings || [];
	if (!findings.length && !v.unlisted) {
		sec.appendChild(el('p', { class: 'qc-clean' }, 'No problems found.'));
		return sec;
	}
	var kinds = [];
	var byKind = {};
	findings.forEach(function (f) {
		if (!byKind[f.kind]) {
			byKind[f.kind] = [];
			kinds.push(f.kind);
		}
		byKind[f.kind].push(f);
	});
	kinds.forEach(function (k) {
		var list = byKind[k];
		var tb = el('tbody');
		list.forEach(function (f) {
			tb.appendChild(el('tr', null,
				el('td', { class: 'num' }, f.line === null ? '' : String(f.line)),
				el('td', null, f.bates || ''),
				el('td', null, f.detail)));
		});
		sec.appendChild(el('h3', { class: 'qc-kind', 'data-kind': k }, list[0].title + ' (' + list.length + ')'));
		sec.appendChild(el('p', { class: 'qc-fix' }, 'To fix: ' + list[0].fix));
		sec.appendChild(el('table', { class: 'grid' },
			el('thead', null, el('tr', null, ['DAT line', 'Bates', 'Problem'].map(function (h) {
				return el('th', { scope: 'col' }, h);
			}))), tb));
	});
	if (v.unlisted)
		sec.appendChild(el('p', null, 'And ' + fmt(v.unlisted) + ' more finding(s) not listed.'));
	return sec;
}
