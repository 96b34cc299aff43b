/* sworn serve: the verifier for a pasted or uploaded draft
 * (#/m/NAME/verify), shown in the review (review.js); nothing is stored. */

import {
	api, clear, el, failed, fmt, generation, live, mpath, page, say, session
} from './core.js';
import { Review } from './review.js';

export function viewVerify(m) {
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
