/* sworn serve: the highlight layer of the draft view (review.js's Review).
 *
 * The draft's text sits in a text area; behind it a layer holds the same
 * text, its claims marked by verdict.  The layer is one block per line of
 * the text, so that an edit re-marks only the lines it touched: the browser
 * lays out a changed block again, not the whole draft (a 1,000-claim draft
 * as one block cost 200-370 ms a keystroke).  Text goes in as text nodes
 * only, never as HTML.
 *
 *   SwornMarks.shift(oldText, newText, claims)  claims after an edit
 *   SwornMarks.worst(claims, rank)              the claim whose verdict shows
 *   SwornMarks.layer(target, st, visible)       {paint(), patch(edit)}
 *
 * A claim is {c: the verify JSON's claim, s, e: its text indices, stale}.
 * st is the view's state: text, claims, current (index), marksOf (index ->
 * its <mark>s, kept for the hidden layer only).
 */
'use strict';

window.SwornMarks = (function () {
	/* After an edit: claims before it stay, after it shift, inside it go
	 * stale.  Returns the edit (old [p, oe) became new [p, p + ins), d the
	 * change of length) and the indices of the claims it touched. */
	function shift(oldText, newText, claims) {
		var p = 0, ol = oldText.length, nl = newText.length;
		while (p < ol && p < nl && oldText.charCodeAt(p) === newText.charCodeAt(p))
			p++;
		var s = 0;
		while (s < ol - p && s < nl - p && oldText.charCodeAt(ol - 1 - s) === newText.charCodeAt(nl - 1 - s))
			s++;
		var oe = ol - s, d = nl - ol, ins = nl - s - p, touched = [];
		claims.forEach(function (k, i) {
			/* typing right after an edited claim extends it */
			var grows = k.stale && p === oe && k.e === p;
			if (k.e < p || (k.e === p && !grows))
				return;
			if (k.s >= oe) {
				k.s += d;
				k.e += d;
				return;
			}
			/* touched: it covers what was typed over it, until Verify */
			k.stale = true;
			k.s = Math.min(k.s, p);
			k.e = Math.max(k.e + d, p + ins);
			if (k.e <= k.s)
				k.e = Math.min(nl, k.s + 1);
			k.s = Math.min(k.s, Math.max(0, k.e - 1));
			touched.push(i);
		});
		return { p: p, oe: oe, d: d, ins: ins, touched: touched };
	}

	function worst(ks, rank) {
		var best = null;
		ks.forEach(function (k) {
			var r = k.stale ? 0 : rank[k.c.verdict] || 0;
			if (!best || r > best.r || (r === best.r && (k.e - k.s) < (best.k.e - best.k.s)))
				best = { r: r, k: k };
		});
		return best.k;
	}

	var RANK = { contradicted: 4, unsupported: 3, unverifiable: 2, supported: 1 };

	function layer(target, st, visible) {
		var lines = []; /* {s, e (the '\n' or the end), node}, in order */

		/* The line blocks of text [a, b) (a at a line's start, b at a line's
		 * end), with the marks of claims idx (those that overlap it). */
		function build(a, b, idx) {
			var text = st.text, out = [];
			var byStart = idx.slice().sort(function (x, y) { return st.claims[x].s - st.claims[y].s; });
			var cuts = [];
			idx.forEach(function (j) {
				var k = st.claims[j];
				if (k.s > a && k.s < b)
					cuts.push(k.s);
				if (k.e > a && k.e < b)
					cuts.push(k.e);
			});
			for (var q = text.indexOf('\n', a); q >= 0 && q < b; q = text.indexOf('\n', q + 1))
				cuts.push(q, q + 1);
			cuts.push(a, b);
			cuts.sort(function (x, y) { return x - y; });
			var next = 0, active = [], div = null, ls = a;
			function open(at) {
				div = document.createElement('div');
				ls = at;
			}
			function close(at) {
				if (!div.firstChild)
					div.appendChild(document.createTextNode('\u200b')); /* an empty line's height */
				out.push({ s: ls, e: at, node: div });
				div = null;
			}
			open(a);
			for (var i = 0; i + 1 < cuts.length; i++) {
				var x = cuts[i], y = cuts[i + 1];
				if (y <= x)
					continue;
				if (text.charCodeAt(x) === 10 && y === x + 1) {
					close(x);
					open(y);
					continue;
				}
				while (next < byStart.length && st.claims[byStart[next]].s <= x)
					active.push(byStart[next++]);
				active = active.filter(function (j) { return st.claims[j].e > x; });
				var cover = active.filter(function (j) { return st.claims[j].e >= y; });
				var piece = text.slice(x, y);
				if (!cover.length) {
					div.appendChild(document.createTextNode(piece));
					continue;
				}
				var ks = cover.map(function (j) { return st.claims[j]; });
				var w = worst(ks, RANK);
				var props = ks.every(function (k) { return k.c.kind === 'proposition'; });
				var mk = document.createElement('mark');
				mk.className = 'hl ' + (w.stale ? 'v-stale' : 'v-' + w.c.verdict) + (props ? ' prop' : '') +
					(cover.indexOf(st.current) >= 0 ? ' current' : '');
				mk.setAttribute('data-claim', String(w.c.id));
				if (visible)
					mk.title = (w.stale ? 'edited' : w.c.verdict) + ': ' + (w.c.reason || '');
				else
					cover.forEach(function (j) { (st.marksOf[j] || (st.marksOf[j] = [])).push(mk); });
				mk.appendChild(document.createTextNode(piece));
				div.appendChild(mk);
			}
			close(b);
			return out;
		}

		function paint() {
			if (!visible)
				st.marksOf = [];
			lines = build(0, st.text.length, st.claims.map(function (k, i) { return i; }));
			var frag = document.createDocumentFragment();
			lines.forEach(function (l) { frag.appendChild(l.node); });
			target.textContent = '';
			target.appendChild(frag);
		}

		/* The first line whose end is at or after position at. */
		function lineAt(at) {
			var lo = 0, hi = lines.length - 1;
			while (lo < hi) {
				var mid = (lo + hi) >> 1;
				if (lines[mid].e < at)
					lo = mid + 1;
				else
					hi = mid;
			}
			return lo;
		}

		/* After shift() gave edit: the lines of the edit and of the claims
		 * it touched are built again; the lines after them move by d. */
		function patch(edit) {
			if (!lines.length)
				return paint();
			var lo = edit.p, hi = edit.p + edit.ins;
			edit.touched.forEach(function (i) {
				lo = Math.min(lo, st.claims[i].s);
				hi = Math.max(hi, st.claims[i].e);
			});
			/* old coordinates: before the edit they are the same; after it, less d */
			var i0 = lineAt(Math.min(lo, edit.p)), oldHi = hi <= edit.p + edit.ins ? edit.oe : hi - edit.d;
			var i1 = lineAt(Math.max(oldHi, edit.oe));
			var a = lines[i0].s, b = lines[i1].e + edit.d;
			var text = st.text;
			if (b > text.length || (b < text.length && text.charCodeAt(b) !== 10) || a > b)
				return paint(); /* the lines no longer line up: all again */
			var after = i1 + 1 < lines.length ? lines[i1 + 1].node : null;
			for (var i = i0; i <= i1; i++)
				target.removeChild(lines[i].node);
			var idx = [];
			st.claims.forEach(function (k, j) {
				if (k.e >= a && k.s <= b) {
					idx.push(j);
					if (!visible && st.marksOf[j])
						st.marksOf[j] = st.marksOf[j].filter(function (m) { return m.isConnected; });
				}
			});
			var fresh = build(a, b, idx);
			var frag = document.createDocumentFragment();
			fresh.forEach(function (l) { frag.appendChild(l.node); });
			target.insertBefore(frag, after);
			for (var j = i1 + 1; j < lines.length; j++) {
				lines[j].s += edit.d;
				lines[j].e += edit.d;
			}
			Array.prototype.splice.apply(lines, [i0, i1 - i0 + 1].concat(fresh));
		}

		return { paint: paint, patch: patch, lines: function () { return lines.length; } };
	}

	return { shift: shift, worst: worst, layer: layer, RANK: RANK };
})();
