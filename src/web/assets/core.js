/* sworn serve: what the views of the review page share (app.js routes to
 * them).  The tab's state: its session, the route's generation and what a
 * route change cleans up.  Nodes: el, svg and marked put text in as text
 * nodes, never as HTML.  The API: this tab's session as a Bearer
 * credential, never a cookie.  UTF-8 offsets to string indices, verdicts,
 * the navigation and a view's page.
 */

export var session = null;     /* GET /api/session */
export var SESSION_KEY = 'sworn.session'; /* sessionStorage: this tab's session, no cookie */
export var generation = 0;     /* bumped by every route change: stale timers and replies stop */
export var cleanup = [];       /* functions to run when the route changes */

/* The tab's session, once GET /api/session gave it. */
export function setSession(s) { session = s; }

/* A route change: the previous view's timers, listeners and replies stop. */
export function leave() {
	generation++;
	cleanup.splice(0).forEach(function (f) { try { f(); } catch (e) { /* keep going */ } });
}

/* ------------------------------------------------------------ DOM */

/* el(tag, attrs, children...): attrs are attributes (strings), except
 * on: {event: handler}; children are nodes or strings (text nodes). */
export function el(tag, attrs) {
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

export function add(n, c) {
	if (c === null || c === undefined || c === false)
		return;
	if (Array.isArray(c)) {
		c.forEach(function (x) { add(n, x); });
		return;
	}
	n.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
}

export function svg(tag, attrs) {
	var n = document.createElementNS('http://www.w3.org/2000/svg', tag);
	Object.keys(attrs || {}).forEach(function (k) { n.setAttribute(k, String(attrs[k])); });
	for (var i = 2; i < arguments.length; i++) {
		var c = arguments[i];
		if (c !== null && c !== undefined)
			n.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
	}
	return n;
}

export function clear(n) {
	n.textContent = ''; /* drops every child at once */
	return n;
}

export function main() { return document.getElementById('main'); }

export function say(text, kind) {
	var s = document.getElementById('status');
	s.textContent = text || '';
	s.className = 'status' + (kind ? ' ' + kind : '');
}

/* A number as a person reads it: what a server reports is not trusted
 * to be sane (1e300 tokens a second), so past a billion, or not finite,
 * it is written with three significant digits, never three hundred. */
export function fmt(x, digits) {
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

export function link(href, text, attrs) {
	var a = attrs || {};
	a.href = href;
	return el('a', a, text);
}

export function enc(s) { return encodeURIComponent(s); }

/* marked(text, marks, map): a span of text with <mark>s at [start,end) pairs
 * (indices after map). */
export function marked(text, marks, cls) {
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

/* ------------------------------------------------------------ API */

/* The credential of this tab: its session (or, for the first call, the
 * token of the URL), sent as a header; no cookie is ever sent. */
export function authHeaders(bearer) {
	var cred = bearer || sessionStorage.getItem(SESSION_KEY) || '';
	return cred ? { Authorization: 'Bearer ' + cred } : {};
}

export function api(path, body, opts) {
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

export function mpath(m) { return '/api/m/' + enc(m); }

/* GET path (POST body, when given) and save the answer as a file
 * called name (the reviewed draft as .docx). */
export function download(path, name, body) {
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

export function failed(err) {
	say(String(err && err.message ? err.message : err), 'bad');
}

/* ------------------------------------------- UTF-8 offsets to JS indices */

/* The verifier's offsets count UTF-8 bytes; JavaScript strings count UTF-16
 * units.  Returns f(byte) -> index (a byte inside a character maps to it). */
export function byteMap(text) {
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
export function lf(raw) {
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

export var RANK = { contradicted: 4, unsupported: 3, unverifiable: 2, supported: 1 };
export var ICON = { contradicted: '\u2716', unsupported: '\u2716', unverifiable: '?', supported: '\u2714',
	waived: '\u270b' };
var LABEL = {
	contradicted: 'contradicted', unsupported: 'unsupported',
	unverifiable: 'unverifiable', supported: 'supported', waived: 'waived'
};

export function blocked(v) { return v !== 'supported' && v !== 'waived'; }

export function verdictTag(v, stale) {
	if (stale)
		return el('span', { class: 'tag v-stale' }, '\u2026 edited, verify again');
	return el('span', { class: 'tag v-' + v }, (ICON[v] || '') + ' ' + (LABEL[v] || v));
}

/* ------------------------------------------------------------ the page */

export function nav(m, current) {
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

export function page(title) {
	var root = clear(main());
	var h = el('h1', null, title);
	root.appendChild(h);
	document.title = title + ' \u2014 sworn';
	return root;
}

export function live(gen) { return gen === generation; }
