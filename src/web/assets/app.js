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
 *
 * The page is ES modules (index.html loads this one; the CSP's
 * script-src 'self' allows them): this module routes and starts; core.js
 * holds what every view shares; docs.js the matters and documents,
 * record.js a page of the record, runs.js runs and the context audit,
 * qc.js production QC, verify.js the verifier, review.js the draft with
 * its claims (for runs.js and verify.js).  marks.js, a classic script
 * loaded before them, is the review's highlight layer.
 */

import {
	SESSION_KEY, api, clear, el, enc, leave, main, nav, say, session, setSession
} from './core.js';
import { viewDocs, viewMatters } from './docs.js';
import { viewBates, viewPage } from './record.js';
import { viewQc } from './qc.js';
import { viewContext, viewRun, viewRunDraft, viewRuns } from './runs.js';
import { viewVerify } from './verify.js';

/* ------------------------------------------------------------ router */

function route() {
	leave();
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
		setSession(r.data);
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
