/* sworn serve: the review of a draft, a run's or one given to the
 * verifier: its text with the claims marked by verdict behind it
 * (marks.js), the claims list, the evidence of the selected claim,
 * autosave, verify, waive and approve. */

import {
	ICON, RANK, add, api, blocked, byteMap, cleanup, clear, download, el, enc, failed, fmt,
	lf, live, mpath, say, verdictTag
} from './core.js';
import { begBates, docsOf } from './docs.js';
import { batesLink, pageBox } from './record.js';

/* Review(root, o): the draft with its claims.  o: matter, run (null for
 * a pasted draft: no saving, no approval), text, report (VERIFY), version. */
export function Review(root, o) {
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
