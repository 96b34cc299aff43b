/* sworn serve: the matters (#/) and a matter's documents with search
 * (#/m/NAME); the documents as the other views look them up. */

import {
	api, byteMap, clear, el, enc, failed, fmt, generation, link, live, marked, mpath, page
} from './core.js';

var docsCache = {};     /* matter -> documents (for evidence look-ups) */

/* ------------------------------------------------------------ matters */

export function viewMatters() {
	var root = page('Matters');
	var gen = generation;
	api('/api/matters').then(function (r) {
		if (!live(gen))
			return;
		var ms = r.data.matters || [];
		if (!ms.length) {
			root.appendChild(el('p', null, 'No matters yet: sworn matter new NAME.'));
			return;
		}
		var tb = el('tbody');
		ms.forEach(function (m) {
			tb.appendChild(el('tr', null,
				el('td', null, link('#/m/' + enc(m.name), m.name)),
				el('td', { class: 'num' }, fmt(m.documents)),
				el('td', { class: 'num' }, fmt(m.pages)),
				el('td', null, link('#/m/' + enc(m.name) + '/runs', 'runs'))));
		});
		root.appendChild(el('table', { class: 'grid' },
			el('caption', null, 'Matters of this workspace'),
			el('thead', null, el('tr', null, el('th', { scope: 'col' }, 'Matter'),
				el('th', { scope: 'col', class: 'num' }, 'Documents'),
				el('th', { scope: 'col', class: 'num' }, 'Pages'),
				el('th', { scope: 'col' }, 'Runs'))),
			tb));
	}).catch(failed);
	return true;
}

/* ------------------------------------------------------------ documents */

export function docsOf(m) {
	if (docsCache[m])
		return Promise.resolve(docsCache[m]);
	return api(mpath(m) + '/docs').then(function (r) {
		docsCache[m] = r.data.documents || [];
		return docsCache[m];
	});
}

export function begBates(d) { return d.beg_bates || d.begin_bates || null; }

export function viewDocs(m) {
	var root = page('Documents of ' + m);
	var gen = generation;
	var input = el('input', { type: 'search', id: 'q', name: 'q', autocomplete: 'off',
		placeholder: 'words, a Bates number, "a phrase", custodian:NAME, from:NAME, date:2021-03..2021-06' });
	var hits = el('section', { class: 'hits', 'aria-live': 'polite', 'aria-label': 'Search results' });
	var form = el('form', { class: 'search', role: 'search', on: { submit: function (e) {
		e.preventDefault();
		var q = input.value.trim();
		if (!q)
			return;
		clear(hits).appendChild(el('p', null, 'Searching\u2026'));
		api(mpath(m) + '/search?limit=50&q=' + enc(q)).then(function (r) {
			if (!live(gen))
				return;
			clear(hits);
			var hs = r.data.hits || [];
			hits.appendChild(el('h2', null, hs.length + ' hit' + (hs.length === 1 ? '' : 's') + ' for \u201c' + q + '\u201d'));
			var ol = el('ol', { class: 'hitlist' });
			hs.forEach(function (h) {
				var f = byteMap(h.snippet || '');
				var mk = (h.marks || []).map(function (p) { return [f(p[0]), f(p[1])]; });
				ol.appendChild(el('li', null,
					link('#/m/' + enc(m) + '/doc/' + enc(h.doc_id) + '/' + enc(h.page || 1),
						(h.bates || h.doc) + (h.bates ? '' : ' p. ' + h.page)),
					' ', el('span', { class: 'muted' }, h.doc),
					el('div', { class: 'snippet' }, marked(h.snippet || '', mk))));
			});
			hits.appendChild(ol);
		}).catch(function (e) { clear(hits); failed(e); });
	} } },
		el('label', { for: 'q' }, 'Search the record'), input,
		el('button', { type: 'submit' }, 'Search'));
	root.appendChild(form);
	root.appendChild(hits);
	var table = el('section', { 'aria-label': 'Documents' }, el('p', null, 'Loading\u2026'));
	root.appendChild(table);
	delete docsCache[m];
	docsOf(m).then(function (docs) {
		if (!live(gen))
			return;
		clear(table);
		var tb = el('tbody');
		/* a production's load-file metadata, when any document has it */
		var withMeta = docs.some(function (d) { return d.metadata && Object.keys(d.metadata).length; });
		docs.forEach(function (d) {
			var range = begBates(d) ? begBates(d) + (d.end_bates && d.end_bates !== begBates(d) ? '\u2013' + d.end_bates : '') : '\u2013';
			var md = d.metadata || {};
			tb.appendChild(el('tr', { class: d.status === 'active' ? null : 'quarantined' },
				el('td', null, link('#/m/' + enc(m) + '/doc/' + enc(d.id) + '/1', d.name)),
				el('td', null, d.origin),
				el('td', null, d.status === 'active' ? 'active' : el('strong', { class: 'warn' }, '\u26a0 ' + d.status)),
				el('td', { class: 'mono' }, range),
				el('td', { class: 'num' }, fmt(d.pages)),
				withMeta ? el('td', { class: 'mono' }, metaDate(md)) : null,
				withMeta ? el('td', null, md.custodian || '') : null,
				withMeta ? el('td', null, md.title || '') : null,
				el('td', { class: 'src' }, d.source || '')));
		});
		var heads = ['Document', 'Origin', 'Quarantine', 'Bates', 'Pages'].concat(
			withMeta ? ['Date', 'Custodian', 'Title'] : [], ['Source']);
		table.appendChild(el('table', { class: 'grid' },
			el('caption', null, docs.length + ' documents'),
			el('thead', null, el('tr', null,
				heads.map(function (t) {
					return el('th', { scope: 'col', class: t === 'Pages' ? 'num' : null }, t);
				}))),
			tb));
	}).catch(failed);
	setTimeout(function () { input.focus(); }, 0);
	return true;
}

function metaDate(md) {
	var d = md.sent || md.received || md.docdate;
	return d ? (d.date || d.as_written) : '';
}
