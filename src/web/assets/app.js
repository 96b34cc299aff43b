/* sworn serve: the review page.  Plain JavaScript, no framework, nothing
 * loaded from outside the binary.  Every piece of record or draft text is put
 * into the page with textContent (never as HTML), so a document holding
 * <script> shows those characters and runs nothing.
 *
 * Views (hash routes):
 *   #/                          matters
 *   #/m/NAME                    a matter's documents, with search
 *   #/m/NAME/doc/ID/PAGE        one page of a document (text, image)
 *   #/m/NAME/bates/NUMBER       the page of a Bates number (goes to doc/ID/PAGE)
 *   #/m/NAME/runs               runs
 *   #/m/NAME/runs/ID            a run: status, steps, timings (polled while running)
 *   #/m/NAME/runs/ID/draft      the draft: claims by verdict, evidence, edit, verify, approve
 *   #/m/NAME/runs/ID/context/K  the context audit of step K
 *   #/m/NAME/verify             the verifier for a pasted or uploaded draft
 *   #/m/NAME/qc                 production QC: each load-file volume's totals and findings
 */
'use strict';

(function () {
	var session = null;     /* GET /api/session */
	var SESSION_KEY = 'sworn.session'; /* sessionStorage: this tab's session, no cookie */
	var generation = 0;     /* bumped by every route change: stale timers and replies stop */
	var cleanup = [];       /* functions to run when the route changes */
	var docsCache = {};     /* matter -> documents (for evidence look-ups) */

	/* ------------------------------------------------------------ DOM */

	/* el(tag, attrs, children...): attrs are attributes (strings), except
	 * on: {event: handler}; children are nodes or strings (text nodes). */
	function el(tag, attrs) {
		var n = document.createElement(tag);
		if (attrs) {
			Object.keys(attrs).forEach(function (k) {
				var v = attrs[k];
				if (v === null || v === undefined || v === false)
					return;
				if (k === 'on') {
					Object.keys(v).forEach(function (ev) { n.addEventListener(ev, v[ev]); });
				} else {
					n.setAttribute(k, v === true ? '' : String(v));
				}
			});
		}
		for (var i = 2; i < arguments.length; i++)
			add(n, arguments[i]);
		return n;
	}

	function add(n, c) {
		if (c === null || c === undefined || c === false)
			return;
		if (Array.isArray(c)) {
			c.forEach(function (x) { add(n, x); });
			return;
		}
		n.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
	}

	function svg(tag, attrs) {
		var n = document.createElementNS('http://www.w3.org/2000/svg', tag);
		Object.keys(attrs || {}).forEach(function (k) { n.setAttribute(k, String(attrs[k])); });
		for (var i = 2; i < arguments.length; i++) {
			var c = arguments[i];
			if (c !== null && c !== undefined)
				n.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
		}
		return n;
	}

	function clear(n) {
		n.textContent = ''; /* drops every child at once */
		return n;
	}

	function main() { return document.getElementById('main'); }

	function say(text, kind) {
		var s = document.getElementById('status');
		s.textContent = text || '';
		s.className = 'status' + (kind ? ' ' + kind : '');
	}

	/* A number as a person reads it: what a server reports is not trusted
	 * to be sane (1e300 tokens a second), so past a billion, or not finite,
	 * it is written with three significant digits, never three hundred. */
	function fmt(x, digits) {
		if (x === null || x === undefined || x === '')
			return '–';
		if (typeof x === 'number') {
			if (!isFinite(x))
				return '–';
			if (Math.abs(x) >= 1e9)
				return x.toPrecision(3);
			return digits === undefined ? String(x) : x.toFixed(digits);
		}
		return String(x);
	}

	function link(href, text, attrs) {
		var a = attrs || {};
		a.href = href;
		return el('a', a, text);
	}

	function enc(s) { return encodeURIComponent(s); }

	/* ------------------------------------------------------------ API */

	/* The credential of this tab: its session (or, for the first call, the
	 * token of the URL), sent as a header; no cookie is ever sent. */
	function authHeaders(bearer) {
		var cred = bearer || sessionStorage.getItem(SESSION_KEY) || '';
		return cred ? { Authorization: 'Bearer ' + cred } : {};
	}

	function api(path, body, opts) {
		var init = { credentials: 'omit', headers: authHeaders(opts && opts.bearer) };
		if (body !== undefined) {
			init.method = 'POST';
			init.headers['Content-Type'] = 'application/json';
			init.headers['X-CSRF-Token'] = session ? session.csrf : '';
			init.body = JSON.stringify(body);
			if (opts && opts.keepalive)
				init.keepalive = true;
		}
		return fetch(path, init).then(function (r) {
			return r.text().then(function (t) {
				var data = null;
				try { data = t ? JSON.parse(t) : {}; } catch (e) { data = { error: t.slice(0, 200) }; }
				if (!r.ok && !(opts && opts.allow && opts.allow.indexOf(r.status) >= 0)) {
					var err = new Error((data && data.error) || ('HTTP ' + r.status));
					err.status = r.status;
					err.data = data;
					throw err;
				}
				return { status: r.status, data: data };
			});
		});
	}

	function mpath(m) { return '/api/m/' + enc(m); }

	/* GET path (POST body, when given) and save the answer as a file
	 * called name (the reviewed draft as .docx). */
	function download(path, name, body) {
		var init = { credentials: 'omit', headers: authHeaders() };
		if (body !== undefined) {
			init.method = 'POST';
			init.headers['Content-Type'] = 'application/json';
			init.headers['X-CSRF-Token'] = session ? session.csrf : '';
			init.body = JSON.stringify(body);
		}
		return fetch(path, init).then(function (r) {
			if (!r.ok)
				return r.text().then(function (t) {
					var msg = 'HTTP ' + r.status;
					try { msg = JSON.parse(t).error || msg; } catch (e) { /* not JSON */ }
					throw new Error(msg);
				});
			return r.blob();
		}).then(function (b) {
			var u = URL.createObjectURL(b);
			var a = el('a', { href: u, download: name, hidden: true });
			document.body.appendChild(a);
			a.click();
			a.remove();
			setTimeout(function () { URL.revokeObjectURL(u); }, 10000);
		});
	}

	function failed(err) {
		say(String(err && err.message ? err.message : err), 'bad');
	}

	/* ------------------------------------------- UTF-8 offsets to JS indices */

	/* The verifier's offsets count UTF-8 bytes; JavaScript strings count UTF-16
	 * units.  Returns f(byte) -> index (a byte inside a character maps to it). */
	function byteMap(text) {
		var bytes = [];
		var i = 0;
		while (i < text.length) {
			var cp = text.codePointAt(i);
			var n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
			for (var k = 0; k < n; k++)
				bytes.push(i);
			i += cp > 0xffff ? 2 : 1;
		}
		bytes.push(text.length);
		return function (b) {
			if (typeof b !== 'number' || b < 0)
				return 0;
			return b >= bytes.length ? text.length : bytes[b];
		};
	}

	/* A text area holds line ends as \n only (it turns \r\n and \r into \n):
	 * lf(raw) gives that text and at(i), raw index -> its index. */
	function lf(raw) {
		if (raw.indexOf('\r') < 0)
			return { text: raw, at: function (i) { return i; } };
		var out = [], idx = new Array(raw.length + 1), o = 0;
		for (var i = 0; i < raw.length; i++) {
			idx[i] = o;
			var ch = raw[i];
			if (ch === '\r' && raw[i + 1] === '\n')
				continue; /* the \n that follows stands for both */
			out.push(ch === '\r' ? '\n' : ch);
			o++;
		}
		idx[raw.length] = o;
		return { text: out.join(''), at: function (j) { return idx[Math.max(0, Math.min(raw.length, j))]; } };
	}

	/* ------------------------------------------------------------ verdicts */

	var RANK = { contradicted: 4, unsupported: 3, unverifiable: 2, supported: 1 };
	var ICON = { contradicted: '\u2716', unsupported: '\u2716', unverifiable: '?', supported: '\u2714',
		waived: '\u270b' };
	var LABEL = {
		contradicted: 'contradicted', unsupported: 'unsupported',
		unverifiable: 'unverifiable', supported: 'supported', waived: 'waived'
	};

	function blocked(v) { return v !== 'supported' && v !== 'waived'; }

	function verdictTag(v, stale) {
		if (stale)
			return el('span', { class: 'tag v-stale' }, '\u2026 edited, verify again');
		return el('span', { class: 'tag v-' + v }, (ICON[v] || '') + ' ' + (LABEL[v] || v));
	}

	/* ------------------------------------------------------------ router */

	function route() {
		generation++;
		cleanup.splice(0).forEach(function (f) { try { f(); } catch (e) { /* keep going */ } });
		say('');
		var h = location.hash.replace(/^#\/?/, '');
		var parts = h.split('/').map(function (p) {
			try { return decodeURIComponent(p); } catch (e) { return p; }
		});
		var view;
		if (parts[0] === 'm' && parts[1]) {
			var m = parts[1];
			nav(m, parts[2] || 'docs');
			if (!parts[2])
				view = viewDocs(m);
			else if (parts[2] === 'doc')
				view = viewPage(m, parts[3], parseInt(parts[4] || '1', 10));
			else if (parts[2] === 'bates' && parts[3])
				view = viewBates(m, parts[3]);
			else if (parts[2] === 'runs' && !parts[3])
				view = viewRuns(m);
			else if (parts[2] === 'runs' && parts[4] === 'draft')
				view = viewRunDraft(m, parts[3]);
			else if (parts[2] === 'runs' && parts[4] === 'context')
				view = viewContext(m, parts[3], parts[5] || '');
			else if (parts[2] === 'runs')
				view = viewRun(m, parts[3]);
			else if (parts[2] === 'verify')
				view = viewVerify(m);
			else if (parts[2] === 'qc')
				view = viewQc(m);
		} else {
			nav(null, '');
			view = viewMatters();
		}
		if (!view) {
			clear(main()).appendChild(el('h1', null, 'Not found'));
			return;
		}
	}

	function nav(m, current) {
		var n = clear(document.getElementById('nav'));
		var items = [['#/', 'Matters', '']];
		if (m) {
			items.push(['#/m/' + enc(m), 'Documents', 'docs']);
			items.push(['#/m/' + enc(m) + '/runs', 'Runs', 'runs']);
			items.push(['#/m/' + enc(m) + '/verify', 'Verify a draft', 'verify']);
			items.push(['#/m/' + enc(m) + '/qc', 'Production QC', 'qc']);
		}
		var ul = el('ul');
		items.forEach(function (it) {
			var here = m && (it[2] === current || (it[2] === 'docs' && current === 'doc'));
			ul.appendChild(el('li', null, link(it[0], it[1], here ? { 'aria-current': 'page' } : null)));
		});
		if (m)
			ul.appendChild(el('li', { class: 'matter' }, 'matter: ', el('strong', null, m)));
		n.appendChild(ul);
	}

	function page(title) {
		var root = clear(main());
		var h = el('h1', null, title);
		root.appendChild(h);
		document.title = title + ' \u2014 sworn';
		return root;
	}

	function live(gen) { return gen === generation; }

	/* ------------------------------------------------------------ matters */

	function viewMatters() {
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

	function docsOf(m) {
		if (docsCache[m])
			return Promise.resolve(docsCache[m]);
		return api(mpath(m) + '/docs').then(function (r) {
			docsCache[m] = r.data.documents || [];
			return docsCache[m];
		});
	}

	function begBates(d) { return d.beg_bates || d.begin_bates || null; }

	/* marked(text, marks, map): a span of text with <mark>s at [start,end) pairs
	 * (indices after map). */
	function marked(text, marks, cls) {
		var out = el('span');
		var at = 0;
		(marks || []).slice().sort(function (a, b) { return a[0] - b[0]; }).forEach(function (mk) {
			var s = Math.max(mk[0], at), e = Math.min(mk[1], text.length);
			if (e <= s)
				return;
			add(out, text.slice(at, s));
			out.appendChild(el('mark', { class: cls || 'hit' }, text.slice(s, e)));
			at = e;
		});
		add(out, text.slice(at));
		return out;
	}

	function viewDocs(m) {
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

	/* The metadata's fields in the order a reviewer reads them, with their
	 * labels; dates are {date, as_written}. */
	var META_FIELDS = [['custodian', 'Custodian'], ['doctype', 'Type'], ['title', 'Title'],
		['from', 'From'], ['to', 'To'], ['cc', 'Cc'], ['sent', 'Sent'], ['received', 'Received'],
		['docdate', 'Date'], ['confidentiality', 'Confidentiality']];

	function metaDate(md) {
		var d = md.sent || md.received || md.docdate;
		return d ? (d.date || d.as_written) : '';
	}

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
	function pageBox(m, ref, excerpt, words, cite) {
		var box = el('div', { class: 'pagebox' }, el('p', { class: 'muted' }, 'Loading the page\u2026'));
		var q = ref.bates ? 'bates=' + enc(ref.bates) : 'doc=' + enc(ref.doc) + '&page=' + enc(ref.page || 1);
		api(mpath(m) + '/page?' + q).then(function (r) {
			var p = r.data;
			clear(box);
			/* every page shown links to the record viewer */
			box.appendChild(el('p', { class: 'pagehead' },
				el('strong', null, p.doc_id ? link('#/m/' + enc(m) + '/doc/' + enc(p.doc_id) + '/' + enc(p.page || 1),
					p.doc || String(p.doc_id), { title: 'Open the page in the record' }) : p.doc || ''), ' \u00b7 ', p.bates ? 'Bates ' + p.bates + ' \u00b7 ' : '',
				'page ' + fmt(p.page), cite ? ' \u00b7 ' + cite : '',
				p.origin && p.origin !== 'evidence' ? ' \u00b7 ' + p.origin : ''));
			var meta = metaList(p.metadata);
			if (meta)
				box.appendChild(meta);
			var text = p.text || '';
			box.appendChild(el('pre', { class: 'pagetext', tabindex: '0', 'aria-label': 'Text of the page' },
				marked(text, findMarks(text, excerpt, words))));
			if (p.has_image) {
				var img = el('img', { class: 'pageimg', alt: 'Image of page ' + p.page + ' of ' + p.doc });
				box.appendChild(img);
				pageImage(img, mpath(m) + '/page.png?doc=' + enc(p.doc_id) + '&page=' + enc(p.page));
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
	function viewBates(m, bates) {
		page('Bates ' + bates);
		var gen = generation;
		api(mpath(m) + '/page?bates=' + enc(bates)).then(function (r) {
			if (live(gen))
				location.replace('#/m/' + enc(m) + '/doc/' + enc(r.data.doc_id) + '/' + enc(r.data.page || 1));
		}).catch(failed);
		return true;
	}

	/* A page named by a reason or a fact: a link to the viewer when it is
	 * a Bates number, else its name as text. */
	function batesLink(m, name) {
		return /^[A-Za-z][A-Za-z0-9_.-]*\d$/.test(name) ?
			link('#/m/' + enc(m) + '/bates/' + enc(name), name, { class: 'bates' }) : name;
	}

	function viewPage(m, docId, pg) {
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

	/* ------------------------------------------------------------ runs */

	function viewRuns(m) {
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

	/* ------------------------------------------------------ production QC */

	/* What import found wrong with each load-file volume (GET /qc, the JSON
	 * of sworn matter qc --json): totals, then each kind of problem with
	 * what the producing party should fix and its DAT lines and Bates
	 * numbers; the findings as CSV (GET /qc.csv) for the deficiency letter. */
	function viewQc(m) {
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

	function timer(f, ms, gen) {
		var t = setTimeout(function () { if (live(gen)) f(); }, ms);
		cleanup.push(function () { clearTimeout(t); });
	}

	function statusTag(s) {
		return el('span', { class: 'run-' + s }, s);
	}

	function viewRun(m, id) {
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

	function viewContext(m, id, key) {
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

	function viewRunDraft(m, id) {
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

	function viewVerify(m) {
		var root = page('Verify a draft');
		var gen = generation;
		var ta = el('textarea', { id: 'paste', rows: '12', spellcheck: 'false',
			placeholder: 'Paste a draft here (Markdown or plain text)\u2026' });
		var file = el('input', { type: 'file', id: 'upload', accept: '.md,.txt,.docx,.pdf' });
		var out = el('section', { 'aria-label': 'Verified draft' });
		function show(r) {
			if (!live(gen))
				return;
			clear(out);
			Review(out, { matter: m, run: null, text: r.data.text || '', report: r.data.report, version: 0, gen: gen,
				sent: sent });
			form.hidden = true;
		}
		var sent = null; /* what was verified, for the .docx download */
		var form = el('form', { class: 'verify-form', on: { submit: function (e) {
			e.preventDefault();
			var f = file.files && file.files[0];
			say('Verifying\u2026');
			if (f) {
				if (f.size > 12 * 1024 * 1024) {
					say('The file is larger than 12 MiB.', 'bad');
					return;
				}
				f.arrayBuffer().then(function (buf) {
					sent = { file_name: f.name, content_base64: base64(buf) };
					return api(mpath(m) + '/verify', sent);
				}).then(function (r) { say(''); show(r); }).catch(failed);
			} else if (ta.value.trim()) {
				sent = { text: ta.value };
				api(mpath(m) + '/verify', sent).then(function (r) { say(''); show(r); }).catch(failed);
			} else {
				say('Paste a draft or choose a file first.', 'bad');
			}
		} } },
			el('p', null, 'The verifier checks every citation, quotation, date and fact of a draft against the record of ',
				el('strong', null, m), ' and the table of authorities. Nothing is stored.'),
			session && session.limits ? el('p', { class: 'muted', id: 'verify-limits' },
				'One request verifies at most ' + fmt(Math.round(session.limits.draft_bytes / 1024)) +
				' KB of text and ' + fmt(session.limits.claims) +
				' claims; for a longer draft run sworn verify.') : null,
			el('label', { for: 'paste' }, 'Draft text'), ta,
			el('p', null, el('label', { for: 'upload' }, 'or a file (.md, .txt, .docx, .pdf): '), file),
			el('button', { type: 'submit', class: 'primary' }, 'Verify'));
		root.appendChild(form);
		root.appendChild(out);
		return true;
	}

	function base64(buf) {
		var bytes = new Uint8Array(buf), s = '', CH = 0x8000;
		for (var i = 0; i < bytes.length; i += CH)
			s += String.fromCharCode.apply(null, bytes.subarray(i, i + CH));
		return btoa(s);
	}

	/* Review(root, o): the draft with its claims.  o: matter, run (null for
	 * a pasted draft: no saving, no approval), text, report (VERIFY), version. */
	function Review(root, o) {
		var st = {
			text: lf(o.text).text, version: o.version, claims: [], report: null, current: -1,
			dirty: false, saving: false, conflict: null, saveTimer: null,
			marksOf: [], items: [], /* by claim index: its marks, its list item */
			touched: {} /* claims edited since the list was drawn */
		};
		var opened = performance.now();
		var m = o.matter;
		var base = o.run !== null ? mpath(m) + '/runs/' + enc(o.run) : null;

		var summary = el('div', { class: 'summary', role: 'status', 'aria-live': 'polite', id: 'gate' });
		var saved = el('span', { class: 'saved', id: 'saved', 'aria-live': 'polite' });
		var banner = el('div', { class: 'conflict', id: 'conflict', role: 'alert', hidden: true });
		var verifyBtn = el('button', { type: 'button', id: 'verify', class: 'primary', on: { click: verify } }, 'Verify');
		var approveBtn = o.run !== null ? el('button', { type: 'button', id: 'approve', on: { click: function () { approve(null); } } }, 'Approve') : null;
		var printBtn = el('button', { type: 'button', id: 'print', on: { click: function () { window.print(); } } }, 'Print');
		/* A run's draft as it is saved; a draft sent to the verifier as sent
		 * (an uploaded .docx comes back itself, with comments) until it is
		 * edited here, then as its text. */
		var sentText = lf(o.text).text;
		var docxBtn = o.run !== null || o.sent ? el('button', { type: 'button', id: 'download-docx',
			title: 'The draft as a Word document, with a comment on each claim that does not pass',
			on: { click: function () {
				var done = o.run !== null
					? download(base + '/draft.docx', 'run-' + o.run + '-draft.docx')
					: download(mpath(m) + '/verify.docx',
						(o.sent.file_name || 'draft').replace(/\.[^.]*$/, '') + '-reviewed.docx',
						st.text === sentText ? o.sent : { text: st.text });
				done.catch(failed);
			} } }, 'Download .docx') : null;
		var overrideBox = el('div', { class: 'override', id: 'override-box', hidden: true });
		var result = el('div', { class: 'result', id: 'approve-result', role: 'status', 'aria-live': 'polite' });
		var tools = el('div', { class: 'tools noprint' }, verifyBtn, approveBtn, printBtn, docxBtn, saved,
			el('span', { class: 'keys muted' }, 'Keys: n / p next / previous blocked claim, e edit, Esc leave the text, Alt+Enter verify'));

		var back = el('div', { class: 'ed-text backdrop', 'aria-hidden': 'true' });
		var ta = el('textarea', { class: 'ed-text', id: 'draft-text', spellcheck: 'false',
			'aria-label': 'Draft text (claims are marked by verdict behind the text)',
			'aria-describedby': 'gate' });
		var printView = el('div', { class: 'printview', 'aria-hidden': 'true' });
		/* printed before the marked draft: an approved run's certificate */
		var certView = el('div', { class: 'certview', 'aria-hidden': 'true' });
		function loadCertificate() {
			if (base)
				api(base + '/certificate', undefined, { allow: [404, 409] }).then(function (r) {
					certView.textContent = r.status === 200 ? r.data.markdown : '';
					if (r.status === 200)
						frozen();
				}).catch(function () { certView.textContent = ''; });
		}
		/* An approved run is frozen, as its certificate states it: nothing to
		 * edit or approve here; editing again is a new version of the run. */
		function frozen() {
			ta.readOnly = true;
			if (approveBtn)
				approveBtn.disabled = true;
			clear(banner);
			banner.hidden = false;
			banner.appendChild(el('p', null, 'This run is approved: its draft is frozen as approved. ',
				el('button', { type: 'button', id: 'new-version', on: { click: function () {
					api(base + '/version', {}).then(function (r) {
						location.hash = '#/m/' + enc(m) + '/runs/' + enc(r.data.run) + '/draft';
					}).catch(failed);
				} } }, 'Edit a new version')));
		}
		var editor = el('div', { class: 'editor' }, back, ta);
		var list = el('ol', { class: 'claims', id: 'claim-list', 'aria-label': 'Claims, blocked first' });
		var jump = el('select', { id: 'jump', class: 'jump', 'aria-label': 'Jump to a blocked claim',
			on: { change: function () {
				if (jump.value === '')
					return;
				select(+jump.value, true);
				focusItem(+jump.value);
			} } });
		list.addEventListener('click', function (e) {
			var b = e.target.closest('button.claim');
			if (b)
				select(+b.getAttribute('data-i'), true);
		});
		list.addEventListener('keydown', function (e) {
			var b = e.target.closest('button.claim'), to = null;
			if (!b)
				return;
			if (e.key === 'ArrowDown')
				to = b.parentNode.nextElementSibling;
			else if (e.key === 'ArrowUp')
				to = b.parentNode.previousElementSibling;
			else if (e.key === 'Home')
				to = list.firstElementChild;
			else if (e.key === 'End')
				to = list.lastElementChild;
			else
				return;
			e.preventDefault();
			if (to) {
				select(+to.firstChild.getAttribute('data-i'), true);
				to.firstChild.focus();
			}
		});
		var detail = el('section', { class: 'detail', id: 'claim-detail', 'aria-live': 'polite', 'aria-label': 'The selected claim' },
			el('p', { class: 'muted' }, 'Select a claim in the list, or put the cursor in a marked passage.'));
		var side = el('aside', { class: 'side', 'aria-label': 'Claims and evidence' },
			el('h2', null, 'Claims'), jump, list, el('h2', null, 'Evidence'), detail);
		var legend = el('p', { class: 'legend noprint' },
			el('span', { class: 'tag v-supported' }, ICON.supported + ' supported'), ' ',
			el('span', { class: 'tag v-unsupported' }, ICON.unsupported + ' unsupported / contradicted'), ' ',
			el('span', { class: 'tag v-unverifiable' }, '? unverifiable'), ' ',
			el('span', { class: 'tag v-stale' }, '\u2026 edited since the last check'));

		root.appendChild(el('div', { class: 'review' },
			el('div', { class: 'doc' }, summary, banner, tools, overrideBox, result, legend, editor, certView, printView), side));
		ta.value = st.text;

		/* claims from a VERIFY report against raw (the text its offsets
		 * count in); returns that text as the text area holds it */
		function load(report, raw) {
			st.report = report || { claims: [], summary: {} };
			var f = byteMap(raw), n = lf(raw);
			st.claims = (st.report.claims || []).map(function (c) {
				return { c: c, s: n.at(f(c.start)), e: n.at(f(c.end)), stale: false };
			}).filter(function (k) { return k.e > k.s; });
			st.current = -1;
			st.summaryKey = st.jumpKey = null; /* a new report: both drawn again */
			return n.text;
		}

		/* the layer behind the text area and the print view's (marks.js) */
		var backLayer = SwornMarks.layer(back, st, false), printLayer = SwornMarks.layer(printView, st, true);
		function shift(oldText, newText) { return SwornMarks.shift(oldText, newText, st.claims); }
		function worst(ks) { return SwornMarks.worst(ks, RANK); }

		/* The current claim's marks and list item, without redrawing. */
		function markCurrent(prev, cur) {
			(st.marksOf[prev] || []).forEach(function (mk) { mk.classList.remove('current'); });
			(st.marksOf[cur] || []).forEach(function (mk) { mk.classList.add('current'); });
			var a = st.items[prev], b = st.items[cur];
			if (a) {
				a.classList.remove('current');
				a.firstChild.removeAttribute('aria-current');
				a.firstChild.tabIndex = -1;
			}
			if (b) {
				/* the list's one tab stop moves with the current claim */
				var stop = list.querySelector('button[tabindex="0"]');
				if (stop && stop !== b.firstChild)
					stop.tabIndex = -1;
				b.classList.add('current');
				b.firstChild.setAttribute('aria-current', 'true');
				b.firstChild.tabIndex = 0;
			}
		}

		function order() {
			var idx = st.claims.map(function (k, i) { return i; });
			idx.sort(function (x, y) {
				var a = st.claims[x], b = st.claims[y];
				var ba = blocked(a.c.verdict) && !a.stale ? 1 : 0, bb = blocked(b.c.verdict) && !b.stale ? 1 : 0;
				if (ba !== bb)
					return bb - ba;
				return a.s - b.s || b.e - a.e;
			});
			return idx;
		}

		function blockedIdx() {
			return order().filter(function (i) { return blocked(st.claims[i].c.verdict) && !st.claims[i].stale; });
		}

		function renderSummary() {
			var sm = st.report.summary || {};
			var nb = st.claims.filter(function (k) { return blocked(k.c.verdict) && !k.stale; }).length;
			var stale = st.claims.some(function (k) { return k.stale; }) || st.textVerified !== st.text;
			/* after a keystroke it is mostly the same: redrawn only when not */
			var key = [nb, stale, sm.claims].join();
			if (key === st.summaryKey)
				return;
			st.summaryKey = key;
			clear(summary);
			summary.className = 'summary ' + (nb ? 'gate-blocked' : stale ? 'gate-stale' : 'gate-pass');
			summary.appendChild(el('strong', null, nb ? '\u2716 Blocked: ' + nb + ' claim' + (nb === 1 ? '' : 's') + ' to fix' :
				stale ? '\u2026 Edited: press Verify to check the draft again' : '\u2714 Every claim is supported: the gate passes'));
			summary.appendChild(document.createTextNode(' \u00b7 ' + fmt(sm.claims, undefined) + ' claims: ' +
				fmt(sm.supported) + ' supported, ' + fmt(sm.unsupported) + ' unsupported, ' +
				fmt(sm.contradicted) + ' contradicted, ' + fmt(sm.unverifiable) + ' unverifiable'));
			if (stale)
				summary.appendChild(el('span', { class: 'muted' }, ' \u00b7 edited since this check: press Verify'));
		}

		/* The claims list: one tab stop (the current claim's button; the
		 * arrows, Home and End move in it, n / p between blocked claims) and
		 * a jump list of the blocked claims. */
		function renderList() {
			clear(list);
			st.items = [];
			st.touched = {};
			var frag = document.createDocumentFragment(), first = true;
			order().forEach(function (i) {
				var li = el('li', null, el('button', { type: 'button', class: 'claim', 'data-i': String(i),
					'data-claim': String(st.claims[i].c.id) }));
				itemContent(li, i, first && st.current < 0);
				first = false;
				st.items[i] = li;
				frag.appendChild(li);
			});
			list.appendChild(frag);
			renderJump();
		}

		function itemContent(li, i, tabStop) {
			var k = st.claims[i], btn = li.firstChild;
			var b = blocked(k.c.verdict) && !k.stale;
			li.className = (b ? 'blocked ' : '') + (i === st.current ? 'current' : '');
			btn.tabIndex = i === st.current || tabStop ? 0 : -1;
			if (i === st.current)
				btn.setAttribute('aria-current', 'true');
			clear(btn);
			add(btn, [verdictTag(k.c.verdict, k.stale), ' ', el('span', { class: 'kind' }, k.c.kind), ' ',
				el('span', { class: 'ctext' }, clip(st.text.slice(k.s, Math.min(k.e, k.s + 200)), 90)),
				b ? el('span', { class: 'preason' }, k.c.reason || '') : null]);
		}

		/* After typing: the items of the claims the edit touched, in place
		 * (the list keeps its order until the next Verify). */
		function patchList() {
			Object.keys(st.touched).forEach(function (i) {
				if (st.items[i])
					itemContent(st.items[i], +i, st.items[i].firstChild.tabIndex === 0);
			});
			st.touched = {};
			renderJump();
		}

		function renderJump() {
			var b = blockedIdx(), key = b.join();
			if (key === st.jumpKey)
				return;
			st.jumpKey = key;
			clear(jump);
			jump.appendChild(el('option', { value: '' }, b.length ? 'Jump to one of ' + b.length +
				' blocked claims…' : 'No blocked claim'));
			b.forEach(function (i) {
				var k = st.claims[i];
				jump.appendChild(el('option', { value: String(i) }, (k.c.line ? 'line ' + k.c.line + ': ' : '') +
					k.c.kind + ' – ' + clip(st.text.slice(k.s, Math.min(k.e, k.s + 120)), 60)));
			});
			jump.disabled = !b.length;
		}

		function focusItem(i) {
			var li = st.items[i];
			if (li)
				li.firstChild.focus();
		}

		function clip(s, n) { s = s.replace(/\s+/g, ' '); return s.length > n ? s.slice(0, n - 1) + '\u2026' : s; }

		function renderAll() {
			backLayer.paint();
			renderSummary();
			renderList();
			fit();
			/* the print view: its text now (it is not laid out on screen), its
			 * marks after the page is drawn (and before printing) */
			printView.textContent = st.text;
			clearTimeout(st.printTimer);
			st.printTimer = setTimeout(function () { printLayer.paint(); }, 300);
		}

		/* The text area grows with its text (the page scrolls, not the
		 * area), so the highlight layer behind it needs no scroll sync. */
		function refit() { fit(); }

		function fit(shrunk) {
			if (shrunk === false && ta.scrollHeight <= ta.clientHeight)
				return; /* nothing to grow: no layout forced */
			var y = window.scrollY;
			ta.style.height = 'auto';
			ta.style.height = Math.max(ta.scrollHeight, 200) + 'px';
			if (window.scrollY !== y)
				window.scrollTo(window.scrollX, y);
		}

		function select(i, moveCaret) {
			if (i < 0 || i >= st.claims.length)
				return;
			var prev = st.current;
			st.current = i;
			var k = st.claims[i];
			markCurrent(prev, i);
			showDetail(k);
			if (moveCaret) {
				ta.setSelectionRange(k.s, k.e);
				/* The window scrolls to the passage; neither layer scrolls
				 * (scrollIntoView would scroll the clipped layer itself). */
				ta.scrollTop = 0;
				back.scrollTop = 0;
				var mk = back.querySelector('mark.current');
				if (mk) {
					var r = mk.getBoundingClientRect();
					if (r.top < 60 || r.bottom > window.innerHeight - 40)
						window.scrollBy(0, r.top - window.innerHeight / 3);
				}
				var li = list.querySelector('li.current');
				if (li) {
					var lr = li.getBoundingClientRect(), orr = list.getBoundingClientRect();
					if (lr.top < orr.top || lr.bottom > orr.bottom)
						list.scrollTop += lr.top - orr.top - 8;
				}
			}
		}

		// A lawyer who checked a blocked claim by hand waives it with a
		// reason, on the record as the person sworn serve runs for.
		function waiveForm(c) {
			var why = el('input', { type: 'text', id: 'waive-reason', size: '40', required: true });
			return el('form', { class: 'waive', on: { submit: function (e) {
				e.preventDefault();
				api(mpath(m) + '/waive', { text: st.text, claim: c.fingerprint, reason: why.value,
					run: o.run === undefined ? null : o.run }).then(function () {
					say('Waived; checking again\u2026');
					return verify();
				}).catch(failed);
			} } }, el('label', { for: 'waive-reason' }, 'Checked by hand? Waive it: '), why, ' ',
				el('button', { type: 'submit', id: 'waive' }, 'Waive'));
		}

		function showDetail(k) {
			var c = k.c;
			clear(detail);
			detail.appendChild(el('p', null, verdictTag(c.verdict, k.stale), ' ', el('span', { class: 'kind' }, c.kind),
				c.line ? el('span', { class: 'muted' }, ' line ' + c.line + ', column ' + c.column) : ''));
			if (c.kind === 'proposition' || c.kind === 'quote')
				detail.appendChild(el('blockquote', { class: 'claimtext' }, clip(st.text.slice(k.s, k.e), 400)));
			else
				detail.appendChild(el('p', { class: 'claimtext' }, el('strong', null, st.text.slice(k.s, k.e))));
			detail.appendChild(el('p', { class: 'reason', id: 'claim-reason' }, c.reason || ''));
			if (c.waiver)
				detail.appendChild(el('p', { class: 'waived', id: 'claim-waiver' }, 'Waived by ' + c.waiver.by +
					' on ' + c.waiver.at + ': ' + c.waiver.reason + ' (was ' + c.waiver.verdict + ')'));
			else if (blocked(c.verdict) && !k.stale && c.fingerprint)
				detail.appendChild(waiveForm(c));
			if (k.stale)
				detail.appendChild(el('p', { class: 'muted' }, 'This passage was edited after the check: press Verify.'));
			namedPlaces(c).forEach(function (pl) {
				var box = el('div', { class: 'evidence' }, el('p', { class: 'named' }, pl.label));
				var holder = el('div');
				box.appendChild(holder);
				refOfName(pl.where).then(function (ref) {
					holder.appendChild(ref ? pageBox(m, ref, null, pl.words) :
						el('p', { class: 'muted' }, 'Not a page this view can open: ' + pl.where));
				});
				detail.appendChild(box);
			});
			if (c.facts && c.facts.length) {
				var ul = el('ul', { class: 'facts' });
				c.facts.forEach(function (f) {
					ul.appendChild(el('li', null, verdictTag(f.verdict), ' ', f.kind + ': ', el('strong', null, f.text),
						f.page ? [' (page ', batesLink(m, f.page), ')'] : '',
						f.found_on && f.found_on.length ? [' found on ', f.found_on.map(function (w, i) {
							return [i ? ', ' : '', batesLink(m, w)];
						})] : ''));
				});
				detail.appendChild(ul);
			}
			var ev = c.evidence || [];
			/* a proposition without evidence of its own leans on its citation's */
			if (!ev.length && c.resolves_to) {
				var cited = st.claims.filter(function (x) { return x.c.id === c.resolves_to; })[0];
				if (cited && cited.c.evidence && cited.c.evidence.length) {
					ev = cited.c.evidence;
					detail.appendChild(el('p', { class: 'muted' }, 'Evidence of its citation, ' + cited.c.text + ':'));
				}
			}
			if (!ev.length)
				detail.appendChild(el('p', { class: 'muted' }, 'No page of the record supports this claim.'));
			var words = claimWords(c);
			ev.forEach(function (e) {
				var box = el('div', { class: 'evidence' });
				if (e.source === 'authority') {
					box.appendChild(el('p', null, el('strong', null, 'Authority: '), e.name ? el('em', null, e.name) : '',
						e.cite ? ', ' + e.cite : ''));
					if (e.excerpt)
						box.appendChild(el('p', { class: 'excerpt' }, e.excerpt));
				} else {
					var head = el('p', null, el('strong', null, 'Document ' + (e.document || '')),
						e.bates ? ' \u00b7 Bates ' + e.bates : '', e.page ? ' \u00b7 page ' + e.page : '',
						e.cite ? ' \u00b7 ' + e.cite : '');
					var holder = el('div');
					box.appendChild(holder);
					refOf(e).then(function (ref) {
						if (ref) {
							holder.appendChild(pageBox(m, ref, e.excerpt, words, e.cite));
						} else {
							holder.appendChild(head);
							if (e.excerpt)
								holder.appendChild(el('p', { class: 'excerpt' }, e.excerpt));
						}
					});
				}
				detail.appendChild(box);
			});
		}

		/* The pages a blocked claim's reason names, to show marked: where a
		 * fact is instead ("… is not on X; it is on ACME0000021") and the
		 * passage closest to a quotation ("closest on X: "…passage…" —").
		 * Returns [{where, label, words}]. */
		function namedPlaces(c) {
			var r = c.reason || '', out = [], mt;
			if (!blocked(c.verdict) || c.waiver)
				return out;
			var closest = /closest on ([^:;]+?): "(.*?)"(?= \u2014 |;|$)/g;
			while ((mt = closest.exec(r))) {
				var parts = mt[2].split('\u2026').map(function (x) { return x.trim(); }).filter(function (x) {
					return x.length > 3;
				});
				out.push({ where: mt[1], label: 'The closest passage found, on ' + mt[1] + ':', words: parts });
			}
			var elsewhere = /(?:^|; )([^;]*?) is not (?:on|named on) [^;]*?; it is on ([^;]+)|\(([^()]*?) is on ([^()]+)\)/g;
			while ((mt = elsewhere.exec(r))) {
				var on = mt[1] !== undefined ? [mt[0], mt[1], mt[2]] : [mt[0], mt[3], mt[4]];
				on[2].split(/, | and /).forEach(function (w) {
					var words = [on[1]];
					(c.facts || []).forEach(function (f) {
						if ((f.found_on || []).indexOf(w) >= 0 && f.verdict !== 'supported')
							words.push(f.text);
					});
					out.push({ where: w, label: on[1] + ' is on ' + w + ':', words: words });
				});
			}
			return out;
		}

		/* A page named in a reason: a Bates number, or "document p. N". */
		function refOfName(where) {
			if (/^[A-Za-z][A-Za-z0-9_.-]*\d$/.test(where))
				return Promise.resolve({ bates: where });
			var dp = /^(.+) p\. (\d+)$/.exec(where);
			if (!dp)
				return Promise.resolve(null);
			return refOf({ document: dp[1], page: +dp[2] });
		}

		/* The words of the claim to mark on its page. */
		function claimWords(c) {
			var w = [];
			if (c.fields && c.fields.quoted)
				w.push(c.fields.quoted.replace(/[.,;:]+$/, ''));
			else if (c.kind === 'date' || c.kind === 'bates')
				w.push(c.text);
			(c.facts || []).forEach(function (f) { if (f.verdict === 'supported' && f.text) w.push(f.text); });
			if (c.reason) {
				var q = /gives "([^"]+)"/.exec(c.reason);
				if (q)
					w.push(q[1]);
			}
			return w;
		}

		/* A page reference for an evidence item: by Bates, or by the document's
		 * name and the page number. */
		function refOf(e) {
			if (e.bates)
				return Promise.resolve({ bates: e.bates });
			if (!e.document || !e.page)
				return Promise.resolve(null);
			return docsOf(m).then(function (docs) {
				var d = docs.filter(function (x) { return x.name === e.document || begBates(x) === e.document; })[0];
				return d ? { doc: d.id, page: e.page } : null;
			}).catch(function () { return null; });
		}

		function caretClaim() {
			var pos = ta.selectionStart;
			var inside = st.claims.map(function (k, i) { return i; }).filter(function (i) {
				return st.claims[i].s <= pos && pos <= st.claims[i].e;
			});
			if (!inside.length)
				return;
			var best = worst(inside.map(function (i) { return st.claims[i]; }));
			var i = st.claims.indexOf(best);
			if (i !== st.current)
				select(i, false);
		}

		function step(dir) {
			var b = blockedIdx();
			if (!b.length) {
				say('No blocked claim left.');
				return;
			}
			var at = b.indexOf(st.current);
			var next = at < 0 ? (dir > 0 ? 0 : b.length - 1) : (at + dir + b.length) % b.length;
			select(b[next], true);
			var btn = list.querySelector('li.current button');
			if (btn)
				btn.focus();
		}

		/* ---- autosave */

		function schedule() {
			if (base === null)
				return;
			st.dirty = true;
			saved.textContent = 'Unsaved changes\u2026';
			clearTimeout(st.saveTimer);
			st.saveTimer = setTimeout(save, 700);
		}

		function save(opts) {
			clearTimeout(st.saveTimer);
			if (base === null || !st.dirty || st.conflict)
				return Promise.resolve();
			if (st.saving) {
				st.saveTimer = setTimeout(save, 300);
				return st.saving;
			}
			var text = st.text;
			st.saving = api(base + '/draft', { text: text, base_version: st.version },
				{ allow: [409], keepalive: opts && opts.keepalive }).then(function (r) {
				st.saving = false;
				if (r.status === 409) {
					conflict(r.data);
					return;
				}
				st.version = r.data.version;
				if (st.text === text)
					st.dirty = false;
				saved.textContent = st.dirty ? 'Unsaved changes\u2026' : 'Saved (version ' + st.version + ')';
			}).catch(function (e) {
				st.saving = false;
				saved.textContent = 'Not saved: ' + e.message;
				saved.className = 'saved bad';
			});
			return st.saving;
		}

		function conflict(d) {
			st.conflict = d;
			clear(banner);
			banner.hidden = false;
			banner.appendChild(el('p', null, el('strong', null, 'This draft was changed in another tab or window'),
				' (now version ' + fmt(d.version) + '). Your text here was not saved; nothing was overwritten.'));
			banner.appendChild(el('details', null, el('summary', null, 'Show the other version'),
				el('pre', { class: 'othertext' }, d.text || '')));
			banner.appendChild(el('p', null,
				el('button', { type: 'button', id: 'conflict-theirs', on: { click: function () {
					var old = st.text;
					st.text = ta.value = lf(d.text || '').text;
					shift(old, st.text);
					st.version = d.version;
					st.dirty = false;
					st.conflict = null;
					banner.hidden = true;
					saved.textContent = 'Loaded version ' + st.version;
					renderAll();
				} } }, 'Use the other version'), ' ',
				el('button', { type: 'button', id: 'conflict-mine', on: { click: function () {
					st.version = d.version;
					st.conflict = null;
					banner.hidden = true;
					st.dirty = true;
					save();
				} } }, 'Keep mine (save it as a new version)')));
			saved.textContent = 'Not saved: conflict';
		}

		/* ---- verify and approve */

		function verify() {
			var text = st.text;
			verifyBtn.disabled = true;
			say('Verifying\u2026');
			var t0 = performance.now();
			return api(mpath(m) + '/verify', { text: text }).then(function (r) {
				verifyBtn.disabled = false;
				var vt = load(r.data.report, typeof r.data.text === 'string' ? r.data.text : text);
				st.textVerified = vt;
				if (st.text !== vt) {
					shift(vt, st.text);
				}
				renderAll();
				var nb = blockedIdx().length;
				say('Verified in ' + Math.round(performance.now() - t0) + ' ms: ' +
					(nb ? nb + ' blocked claim' + (nb === 1 ? '' : 's') : 'the gate passes'), nb ? 'bad' : 'good');
			}).catch(function (e) { verifyBtn.disabled = false; failed(e); });
		}

		function approve(reason) {
			if (!approveBtn)
				return;
			if (st.conflict) {
				say('Settle the conflict with the other tab first.', 'bad');
				banner.scrollIntoView({ block: 'nearest' });
				return;
			}
			approveBtn.disabled = true;
			var body = { text: st.text };
			if (reason)
				body.override = reason;
			save().then(function () {
				return api(base + '/approve', body, { allow: [409] });
			}).then(function (r) {
				approveBtn.disabled = false;
				if (r.status === 409) {
					if (r.data.report) {
						load(r.data.report, st.text);
						st.textVerified = st.text;
						renderAll();
					}
					askOverride(r.data.error);
					return;
				}
				var a = r.data;
				overrideBox.hidden = true;
				clear(result);
				result.className = 'result good';
				result.appendChild(el('p', null, el('strong', null, a.overridden ? '\u2714 Approved with override' : '\u2714 Approved'),
					' \u00b7 ' + fmt(a.claims) + ' claims, ' + fmt(a.blocked) + ' blocked' +
					(a.correction ? ' \u00b7 correction ' + a.correction + ' stored' : '') +
					(a.final ? ' \u00b7 final: ' + a.final : '')));
				say('Approved.', 'good');
				loadCertificate();
			}).catch(function (e) { approveBtn.disabled = false; failed(e); });
		}

		function askOverride(msg) {
			clear(overrideBox);
			overrideBox.hidden = false;
			var input = el('input', { type: 'text', id: 'override-reason', size: '60', required: true,
				'aria-describedby': 'override-why' });
			overrideBox.appendChild(el('form', { on: { submit: function (e) {
				e.preventDefault();
				if (!input.value.trim()) {
					input.focus();
					return;
				}
				approve(input.value.trim());
			} } },
				el('p', { id: 'override-why', class: 'bad' }, (msg || 'The draft fails the gate.') +
					' Approve it anyway only with a reason, which is recorded with the approval.'),
				el('label', { for: 'override-reason' }, 'Override reason '), input, ' ',
				el('button', { type: 'submit', id: 'override-approve' }, 'Approve with override'), ' ',
				el('button', { type: 'button', on: { click: function () { overrideBox.hidden = true; } } }, 'Cancel')));
			input.focus();
		}

		/* ---- events */

		ta.addEventListener('input', function () {
			var old = st.text;
			st.text = ta.value;
			/* only the lines the edit touched are marked again; the area's
			 * height is fitted at the next frame */
			var edit = shift(old, st.text);
			backLayer.patch(edit);
			edit.touched.forEach(function (i) { st.touched[i] = true; });
			var shrunk = st.text.length < old.length;
			if (!st.fitting) {
				st.fitting = true;
				requestAnimationFrame(function () { st.fitting = false; fit(shrunk ? true : false); });
			}
			clearTimeout(st.listTimer);
			st.listTimer = setTimeout(function () {
				var t = performance.now();
				renderSummary();
				patchList();
				performance.measure('sworn:after-typing', { start: t }); /* tests/browser */
			}, 250);
			schedule();
		});
		['click', 'keyup', 'select'].forEach(function (ev) { ta.addEventListener(ev, caretClaim); });
		ta.addEventListener('keydown', function (e) {
			if (e.key === 'Enter' && e.altKey) {
				e.preventDefault();
				verify();
			} else if (e.key === 'Escape') {
				/* out of the text, to the claims (where n / p work) */
				e.preventDefault();
				var b = list.querySelector('li.current button') || list.querySelector('button');
				if (b)
					b.focus();
			}
		});
		function onKey(e) {
			var t = e.target;
			if (e.ctrlKey || e.metaKey || e.altKey)
				return;
			if (t && (t.tagName === 'TEXTAREA' || t.tagName === 'INPUT' || t.tagName === 'SELECT' ||
				t.isContentEditable))
				return;
			if (e.key === 'n') {
				e.preventDefault();
				step(1);
			} else if (e.key === 'p') {
				e.preventDefault();
				step(-1);
			} else if (e.key === 'e') {
				e.preventDefault();
				ta.focus();
			}
		}
		document.addEventListener('keydown', onKey);
		function flush() {
			if (document.visibilityState === 'hidden' && st.dirty)
				save({ keepalive: true });
		}
		document.addEventListener('visibilitychange', flush);
		window.addEventListener('pagehide', flush);
		window.addEventListener('resize', refit);
		cleanup.push(function () {
			document.removeEventListener('keydown', onKey);
			document.removeEventListener('visibilitychange', flush);
			window.removeEventListener('pagehide', flush);
			window.removeEventListener('resize', refit);
			if (st.dirty)
				save({ keepalive: true });
		});
		window.addEventListener('beforeunload', function (e) {
			if (st.dirty && live(o.gen)) {
				save({ keepalive: true });
			}
			void e;
		});

		load(o.report, o.text);
		st.textVerified = st.text;
		renderAll();
		/* what opening cost, to the first frame drawn (tests/browser) */
		requestAnimationFrame(function () {
			setTimeout(function () { performance.measure('sworn:review-open', { start: opened }); }, 0);
		});
		/* the print view: the highlighted text itself */
		window.addEventListener('beforeprint', function () { printLayer.paint(); });
		loadCertificate();
		if (o.edited)
			saved.textContent = 'Your saved edit (version ' + st.version + ')';
		if (!o.report)
			verify();
	}

	/* ------------------------------------------------------------ start */

	function start() {
		var skip = document.querySelector('.skip');
		if (skip)
			skip.addEventListener('click', function (e) { e.preventDefault(); main().focus(); });
		/* The first visit's ?token= is swapped for a session and taken out
		 * of the address bar (and the history) at once. */
		var token = new URLSearchParams(location.search).get('token');
		if (token !== null)
			history.replaceState(null, '', location.pathname + location.hash);
		api('/api/session', undefined, { bearer: token || undefined }).then(function (r) {
			session = r.data;
			sessionStorage.setItem(SESSION_KEY, session.session);
			// who decides here: approvals made in this page are recorded as theirs
			var nav = document.getElementById('nav');
			if (nav && nav.parentNode)
				nav.parentNode.insertBefore(el('span', { class: 'user', id: 'user' },
					session.user ? 'Signing off as ' + session.user :
						'Nobody named: set [user] name in sworn.conf'), nav.nextSibling);
			window.addEventListener('hashchange', route);
			if ((!location.hash || location.hash === '#' || location.hash === '#/') && session.matter)
				location.hash = '#/m/' + enc(session.matter) + '/runs';
			else
				route();
		}).catch(function (e) {
			sessionStorage.removeItem(SESSION_KEY);
			clear(main()).appendChild(el('p', { class: 'bad' },
				'Not signed in (' + e.message + '): open the address sworn serve printed, with its token.'));
		});
	}

	if (document.readyState === 'loading')
		document.addEventListener('DOMContentLoaded', start);
	else
		start();
})();
