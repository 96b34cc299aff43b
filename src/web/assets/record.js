/* sworn serve: the record viewer, one page of a document with its text,
 * its load-file metadata and its image (#/m/NAME/doc/ID/PAGE, and
 * #/m/NAME/bates/NUMBER, which goes there), and the page boxes the review
 * shows as evidence, with the claim's words marked. */

import {
	api, authHeaders, cleanup, clear, el, enc, failed, fmt, generation, link, live, marked,
	mpath, page
} from './core.js';
import { docsOf } from './docs.js';

/* The metadata's fields in the order a reviewer reads them, with their
 * labels; dates are {date, as_written}. */
var META_FIELDS = [['custodian', 'Custodian'], ['doctype', 'Type'], ['title', 'Title'],
	['from', 'From'], ['to', 'To'], ['cc', 'Cc'], ['sent', 'Sent'], ['received', 'Received'],
	['docdate', 'Date'], ['confidentiality', 'Confidentiality']];

/* metaList(md): a <dl> of a document's metadata, or null when it has none. */
function metaList(md) {
	var dl = el('dl', { class: 'docmeta', 'aria-label': 'Load-file metadata' });
	var n = 0;
	META_FIELDS.forEach(function (f) {
		var v = md && md[f[0]];
		if (v === undefined || v === null)
			return;
		var text = typeof v === 'string' ? v
			: (v.date ? v.date + (v.as_written && v.as_written !== v.date ? ' (as written: ' + v.as_written + ')' : '')
				: v.as_written + ' (not read as a date)');
		dl.appendChild(el('dt', null, f[1]));
		dl.appendChild(el('dd', { 'data-field': f[0] }, text));
		n++;
	});
	return n ? dl : null;
}

/* pageBox(m, ref, words): a page of the record: its text with the words
 * marked, and its image when the record holds the PDF.  ref is {doc, page}
 * or {bates}. */
export function pageBox(m, ref, excerpt, words, cite) {
	var box = el('div', { class: 'pagebox' }, el('p', { class: 'muted' }, 'Loading the page\u2026'));
	var q = ref.bates ? 'bates=' + enc(ref.bates) : 'doc=' + enc(ref.doc) + '&page=' + enc(ref.page || 1);
	api(mpath(m) + '/page?' + q).then(function (r) {
		var p = r.data;
		clear(box);
		/* every page shown links to the record viewer */
		box.appendChild(el('p', { class: 'pagehead' },
			el('strong', null, p.document_id ? link('#/m/' + enc(m) + '/doc/' + enc(p.document_id) + '/' + enc(p.page || 1),
				p.document || String(p.document_id), { title: 'Open the page in the record' }) : p.document || ''), ' \u00b7 ', p.bates ? 'Bates ' + p.bates + ' \u00b7 ' : '',
			'page ' + fmt(p.page), cite ? ' \u00b7 ' + cite : '',
			p.origin && p.origin !== 'evidence' ? ' \u00b7 ' + p.origin : ''));
		var meta = metaList(p.metadata);
		if (meta)
			box.appendChild(meta);
		var text = p.text || '';
		box.appendChild(el('pre', { class: 'pagetext', tabindex: '0', 'aria-label': 'Text of the page' },
			marked(text, findMarks(text, excerpt, words))));
		if (p.has_image) {
			var img = el('img', { class: 'pageimg', alt: 'Image of page ' + p.page + ' of ' + p.document });
			box.appendChild(img);
			pageImage(img, mpath(m) + '/page.png?doc=' + enc(p.document_id) + '&page=' + enc(p.page));
		}
	}).catch(function (e) {
		clear(box).appendChild(el('p', { class: 'bad' }, 'The page could not be read: ' + e.message));
	});
	return box;
}

/* An image of the API into img: fetched with the tab's credential (an
 * <img src> could send none) and shown from a blob: URL; when the server
 * will not draw it, its one line in place of the image. */
function pageImage(img, path) {
	fetch(path, { credentials: 'omit', headers: authHeaders() }).then(function (r) {
		if (!r.ok) {
			return r.text().then(function (t) {
				var msg = 'HTTP ' + r.status;
				try { msg = JSON.parse(t).error || msg; } catch (e) { /* not JSON */ }
				throw new Error(msg);
			});
		}
		return r.blob();
	}).then(function (b) {
		var u = URL.createObjectURL(b);
		cleanup.push(function () { URL.revokeObjectURL(u); });
		img.src = u;
	}).catch(function (e) {
		if (img.parentNode)
			img.parentNode.replaceChild(el('p', { class: 'note pageimg-error' },
				'No image of this page: ' + e.message), img);
	});
}

function escapeRe(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); }

/* A regular expression for a run of words, any white space between them
 * and straight or curly quotes alike. */
function wordsRe(s) {
	var ws = s.split(/\s+/).filter(Boolean).slice(0, 80).map(function (w) {
		return escapeRe(w).replace(/['\u2018\u2019]/g, "['\u2018\u2019]").replace(/["\u201c\u201d]/g, '["\u201c\u201d]');
	});
	return ws.length ? ws.join('\\s+') : null;
}

/* The ranges of page text to mark: the evidence excerpt (without its
 * ellipses) and the claim's own words. */
function findMarks(text, excerpt, words) {
	var marks = [];
	function find(s, all) {
		var re = s && wordsRe(s);
		if (!re)
			return;
		var rx = new RegExp(re, 'gi'), m, n = 0;
		while ((m = rx.exec(text)) && n < 50) {
			if (!m[0].length)
				break;
			marks.push([m.index, m.index + m[0].length]);
			n++;
			if (!all)
				break;
		}
	}
	(words || []).forEach(function (w) { find(w, true); });
	if (!marks.length && excerpt)
		find(excerpt.replace(/^\s*(\u2026|\.\.\.)\s*/, '').replace(/\s*(\u2026|\.\.\.)\s*$/, ''), false);
	/* overlaps merged */
	marks.sort(function (a, b) { return a[0] - b[0]; });
	var out = [];
	marks.forEach(function (mk) {
		var last = out[out.length - 1];
		if (last && mk[0] <= last[1])
			last[1] = Math.max(last[1], mk[1]);
		else
			out.push(mk.slice());
	});
	return out;
}

/* #/m/NAME/bates/NUMBER: the page of that Bates number in the viewer */
export function viewBates(m, bates) {
	page('Bates ' + bates);
	var gen = generation;
	api(mpath(m) + '/page?bates=' + enc(bates)).then(function (r) {
		if (live(gen))
			location.replace('#/m/' + enc(m) + '/doc/' + enc(r.data.document_id) + '/' + enc(r.data.page || 1));
	}).catch(failed);
	return true;
}

/* A page named by a reason or a fact: a link to the viewer when it is
 * a Bates number, else its name as text. */
export function batesLink(m, name) {
	return /^[A-Za-z][A-Za-z0-9_.-]*\d$/.test(name) ?
		link('#/m/' + enc(m) + '/bates/' + enc(name), name, { class: 'bates' }) : name;
}

export function viewPage(m, docId, pg) {
	var root = page('Document ' + docId + ', page ' + pg);
	var gen = generation;
	var bar = el('p', { class: 'pager' });
	root.appendChild(bar);
	var box = pageBox(m, { doc: docId, page: pg }, null, []);
	box.classList.add('wide');
	root.appendChild(box);
	docsOf(m).then(function (docs) {
		if (!live(gen))
			return;
		var d = docs.filter(function (x) { return String(x.id) === String(docId); })[0];
		if (!d)
			return;
		root.querySelector('h1').textContent = d.name + ', page ' + pg + ' of ' + d.pages;
		if (pg > 1)
			bar.appendChild(link('#/m/' + enc(m) + '/doc/' + enc(docId) + '/' + (pg - 1), '\u2190 previous page', { rel: 'prev' }));
		if (pg < d.pages)
			bar.appendChild(link('#/m/' + enc(m) + '/doc/' + enc(docId) + '/' + (pg + 1), 'next page \u2192', { rel: 'next' }));
		bar.appendChild(link('#/m/' + enc(m), 'all documents'));
	}).catch(failed);
	return true;
}
