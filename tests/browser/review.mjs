// The review in a browser, end to end: Debian's chromium, headless, driven by
// playwright-core against a real `sworn serve` (started by run.sh on a
// workspace seeded by seed.sh through the CLI).
//   node review.mjs URL OUTDIR
// URL is the token URL sworn serve printed; screenshots go to OUTDIR.
// Exit status 0 when every check passed; each failure is printed.
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [url, outDir] = process.argv.slice(2);
if (!url || !outDir) {
	console.error('usage: node review.mjs URL OUTDIR');
	process.exit(2);
}
const executablePath = process.env.SW_CHROMIUM || '/usr/bin/chromium';
if (!fs.existsSync(executablePath)) {
	console.error(`FAIL: ${executablePath} is missing: run scripts/install-deps (Debian's chromium)`);
	process.exit(1);
}
fs.mkdirSync(outDir, { recursive: true });
const origin = new URL(url).origin;
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'sworn-chromium-'));

let failures = 0, checks = 0;
function check(what, ok, detail) {
	checks++;
	if (!ok) {
		failures++;
		console.log(`FAIL: ${what}${detail !== undefined ? ': ' + JSON.stringify(detail) : ''}`);
	} else {
		console.log(`ok: ${what}`);
	}
}
const shot = (page, name) => page.screenshot({ path: path.join(outDir, name) });

const ctx = await chromium.launchPersistentContext(profile, {
	executablePath,
	headless: true,
	args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
		'--disable-background-networking', '--disable-component-update', '--disable-sync'],
	viewport: { width: 1280, height: 800 },
});
ctx.setDefaultTimeout(15000);
const problems = [];
function watch(page, name) {
	page.on('pageerror', (e) => problems.push(`${name}: page error: ${e.message}`));
	page.on('console', (m) => {
		// the 409 of the conflict below and the 413 of the page that draws
		// without end are expected; nothing else is
		if ((m.type() === 'error' && !/status of (409|413)/.test(m.text())) || /Content.Security.Policy/i.test(m.text()))
			problems.push(`${name}: console ${m.type()}: ${m.text()}`);
	});
	page.on('dialog', (d) => { problems.push(`${name}: dialog: ${d.message()}`); d.dismiss(); });
}

// The red of a blocked claim: its background's red well above green and blue.
function reddish(rgb) {
	const m = /rgba?\((\d+), (\d+), (\d+)/.exec(rgb || '');
	return !!m && +m[1] > +m[2] + 25 && +m[1] > +m[3] + 25;
}

async function draftState(page) {
	return page.evaluate(() => {
		const items = [...document.querySelectorAll('#claim-list li')];
		const marks = [...document.querySelectorAll('.backdrop mark.hl')];
		return {
			blockedFlags: items.map((li) => li.classList.contains('blocked')),
			texts: items.map((li) => li.textContent),
			bad: marks.filter((m) => m.classList.contains('v-unsupported') || m.classList.contains('v-contradicted'))
				.map((m) => ({ text: m.textContent, bg: getComputedStyle(m).backgroundColor,
					deco: getComputedStyle(m).textDecorationStyle })),
			good: marks.filter((m) => m.classList.contains('v-supported')).length,
			gate: document.querySelector('#gate') ? document.querySelector('#gate').className : '',
			saved: (document.querySelector('#saved') || {}).textContent,
		};
	});
}

// replaceIn(page, from, to): select FROM in the draft's text area and type TO
// over it, key by key (what a lawyer does).
async function replaceIn(page, from, to) {
	const found = await page.evaluate((f) => {
		const ta = document.querySelector('#draft-text');
		const i = ta.value.indexOf(f);
		if (i < 0)
			return false;
		ta.focus();
		ta.setSelectionRange(i, i + f.length);
		return true;
	}, from);
	check(`the draft holds "${from}"`, found);
	if (found)
		await page.keyboard.type(to, { delay: 5 });
}

// liveRun(page): draft run 3 through the CLI against a slow test double and
// watch its page update (polled every second) until it is verified, without
// a reload.
async function liveRun(page) {
	const ws = process.env.SW_WS, script = process.env.SW_BOARD_SCRIPT;
	if (!ws || !script || !process.env.SWORN || !process.env.SW_FAKE_LLAMA) {
		check('SW_WS, SW_BOARD_SCRIPT, SWORN and SW_FAKE_LLAMA are set for the live run', false);
		return;
	}
	const portFile = path.join(outDir, '.live-port');
	fs.rmSync(portFile, { force: true });
	const fake = spawn(process.env.SW_FAKE_LLAMA, ['--port', '0', '--fake-port-file', portFile,
		'--fake-script', script, '-a', 'fake-model-35b', '--fake-token-delay', '30'], { stdio: 'ignore' });
	try {
		for (let i = 0; i < 200 && !(fs.existsSync(portFile) && fs.readFileSync(portFile, 'utf8').trim()); i++)
			await new Promise((r) => setTimeout(r, 50));
		const port = fs.readFileSync(portFile, 'utf8').trim();
		const conf = path.join(ws, 'sworn.conf');
		fs.writeFileSync(conf, fs.readFileSync(conf, 'utf8').replace(
			/(\[endpoint "board"\]\nurl = )[^\n]*/, `$1http://127.0.0.1:${port}`));
		await page.goto(origin + '/#/m/acme/runs');
		await page.waitForSelector('table.grid tbody tr');
		const draft = spawn(process.env.SWORN, ['draft', '-m', 'acme', '--task', 'declaration', '--brief', 'brief.md'],
			{ cwd: ws, stdio: 'ignore' });
		const done = new Promise((r) => draft.on('exit', (code) => r(code)));
		// the runs list shows run 3 once the CLI has journaled it
		let listed = false;
		for (let i = 0; i < 100 && !listed; i++) {
			await page.reload();
			await page.waitForSelector('table.grid tbody tr');
			listed = await page.locator('table.grid a[href$="/runs/3"]').count() > 0;
			if (!listed)
				await page.waitForTimeout(100);
		}
		check('the new run is listed', listed);
		await page.click('table.grid a[href$="/runs/3"]');
		await page.waitForSelector('#steps');
		await page.evaluate(() => { window.__sworn_same_page = true; });
		const first = await page.evaluate(() => ({
			status: document.querySelector('.runhead').textContent,
			rows: document.querySelectorAll('#steps tbody tr').length,
		}));
		await shot(page, 'run-live.png');
		await page.waitForFunction(() => /verified/.test(document.querySelector('.runhead').textContent), null,
			{ timeout: 60000, polling: 250 });
		const last = await page.evaluate(() => ({
			same: window.__sworn_same_page === true,
			rows: document.querySelectorAll('#steps tbody tr').length,
		}));
		check('the run was seen running', /running/.test(first.status), first);
		check('its page updated itself until verified', last.same && last.rows > first.rows, [first, last]);
		check('sworn draft finished', (await done) === 0);
	} finally {
		fake.kill();
	}
}

try {
	const page = ctx.pages()[0] || await ctx.newPage();
	watch(page, 'tab 1');

	// ------------------------- the token, then a session in the tab (no cookie)
	const first = await page.goto(url);
	check('the token URL opens the page', first && first.ok(), first && first.status());
	await page.waitForFunction(() => !location.search.includes('token=') &&
		/^[0-9a-f]{64}$/.test(sessionStorage.getItem('sworn.session') || ''));
	check('the token is taken out of the address bar', !page.url().includes('token='), page.url());
	const cookies = await ctx.cookies();
	check('no cookie is set (a cookie reaches every port of 127.0.0.1)', cookies.length === 0, cookies);
	const sess = await page.evaluate(() => sessionStorage.getItem('sworn.session'));
	const noCred = await fetch(origin + '/api/session');
	check('without a session or token the API refuses (403)', noCred.status === 403, noCred.status);
	const bySession = await fetch(origin + '/api/matters', { headers: { Authorization: 'Bearer ' + sess } });
	check('the session, sent as a header, is the credential', bySession.status === 200, bySession.status);
	const asCookie = await fetch(origin + '/api/matters', { headers: { Cookie: 'sworn_session=' + sess } });
	check('the session as a cookie is not', asCookie.status === 403, asCookie.status);

	// ---------------------------------------------------------- runs
	await page.goto(origin + '/#/m/acme/runs');
	await page.waitForSelector('table.grid tbody tr');
	const runRows = await page.locator('table.grid tbody tr').allTextContents();
	check('the runs are listed with their status', runRows.some((r) => /blocked/.test(r)) &&
		runRows.some((r) => /verified/.test(r)), runRows);
	await page.goto(origin + '/#/m/acme/runs/1');
	await page.waitForSelector('#steps tbody tr');
	const steps = await page.locator('#steps tbody tr').allTextContents();
	check('the run shows its steps with tokens/s', steps.length >= 5 && /drafter/.test(steps[0]) &&
		/\d+\.\d/.test(steps[0]), steps.slice(0, 2));
	check('tokens/s per endpoint', /board/.test(await page.locator('#endpoints').textContent()));
	// seed.sh gave one step a server's 1e300 tokens/s: three digits, not 300
	const steps1 = await page.locator('#steps').textContent();
	check('an absurd timing is printed short', steps1.includes('1.00e+300') && !/\d{40}/.test(steps1),
		steps1.slice(0, 400));
	await shot(page, 'run.png');

	// ---------------------------------------------------------- context audit
	await page.click('#steps a[href$="/context/draft"]');
	await page.waitForSelector('svg.bars rect');
	const bars = await page.locator('svg.bars rect').count();
	const label = await page.locator('svg.bars').getAttribute('aria-label');
	check('the context audit draws a bar per origin', bars >= 2 && /evidence/.test(label), label);
	await shot(page, 'context.png');

	// ---------------------------------------------------------- the draft view
	await page.goto(origin + '/#/m/acme/runs/1/draft');
	await page.waitForSelector('#claim-list li');
	let s = await draftState(page);
	const nBlocked = s.blockedFlags.filter(Boolean).length;
	check('the run\'s draft has blocked claims', nBlocked >= 2, s.texts);
	check('blocked claims are listed first', s.blockedFlags.indexOf(false) === -1 ||
		s.blockedFlags.slice(s.blockedFlags.indexOf(false)).every((b) => !b), s.blockedFlags);
	check('blocked claims are red in the text', s.bad.length >= 2 && s.bad.every((m) => reddish(m.bg)), s.bad);
	check('blocked claims are wavy-underlined too (not colour alone)', s.bad.every((m) => m.deco === 'wavy'), s.bad);
	check('the invented Bates number is marked', s.bad.some((m) => m.text.includes('ACME0000999')), s.bad);
	check('supported claims are marked', s.good > 0, s.good);
	check('the gate says blocked', /gate-blocked/.test(s.gate), s.gate);
	await shot(page, 'draft-blocked.png');

	// click the contradicted date: its reason and the page behind it
	await page.locator('#claim-list li.blocked button')
		.filter({ has: page.locator('.kind', { hasText: /^date$/ }) })
		.filter({ hasText: 'April 9, 2021' }).first().click();
	await page.waitForSelector('#claim-detail .pagetext');
	const reason = await page.locator('#claim-reason').textContent();
	check('the reason is shown', /^the cited page \(ACME0000004\) gives "March 31, 2021"/.test(reason), reason);
	const pageHead = await page.locator('#claim-detail .pagehead').first().textContent();
	check('the evidence names the document and Bates', /ACME0000004/.test(pageHead), pageHead);
	// the page route's document_id and document (record's sw_shown_page_json)
	const docLink = page.locator('#claim-detail .pagehead a[href*="/doc/"]').first();
	check('the evidence links its document', await docLink.count() === 1 &&
		/\S/.test(await docLink.textContent()), pageHead);
	const marks = await page.locator('#claim-detail .pagetext mark').allTextContents();
	check('the matched words are marked on the page', marks.some((t) => /March\s+31,\s+2021/.test(t)), marks);
	await shot(page, 'draft-evidence.png');

	// n / p step between blocked claims (focus outside the text)
	await page.locator('#claim-list li.current button').focus();
	const before = await page.locator('#claim-list li.current').textContent();
	await page.keyboard.press('n');
	const afterN = await page.locator('#claim-list li.current').textContent();
	check('n moves to the next blocked claim', afterN !== before && /unsupported|contradicted/.test(afterN), [before, afterN]);
	await page.keyboard.press('p');
	check('p moves back', (await page.locator('#claim-list li.current').textContent()) === before);

	// ---------------------------------------------------------- edit, autosave
	await replaceIn(page, 'April 9, 2021', 'March 31, 2021');
	await replaceIn(page, 'Brightline sent a cure notice (ACME0000999)', 'Acme sent a notice of breach (ACME0000007)');
	s = await draftState(page);
	check('edited claims show as stale until verified', await page.locator('.backdrop mark.v-stale').count() > 0);
	await page.keyboard.press('Escape');
	check('Esc leaves the text for the claims list', await page.evaluate(() =>
		document.activeElement && document.activeElement.matches('#claim-list button')));
	await page.waitForFunction(() => /Saved \(version \d+\)/.test(document.querySelector('#saved').textContent));
	const savedText = await page.locator('#saved').textContent();
	check('the edit is saved as it is made', /Saved \(version [1-9]/.test(savedText), savedText);

	// ---------------------------------------- a second tab: the conflict is shown
	const tab2 = await ctx.newPage();
	watch(tab2, 'tab 2');
	// sessionStorage is the tab's: a new tab opens with the printed URL
	await tab2.goto(url + '#/m/acme/runs/1/draft');
	await tab2.waitForSelector('#claim-list li');
	const t2text = await tab2.locator('#draft-text').inputValue();
	check('the other tab opens the saved edit', t2text.includes('March 31, 2021') && t2text.includes('ACME0000007'));
	await tab2.evaluate(() => {
		const ta = document.querySelector('#draft-text');
		ta.focus();
		ta.setSelectionRange(ta.value.length, ta.value.length);
	});
	await tab2.keyboard.type('\nSigned in Springfield.');
	await tab2.waitForFunction(() => /Saved \(version \d+\)/.test(document.querySelector('#saved').textContent));
	await page.bringToFront();
	await replaceIn(page, 'general counsel', 'General Counsel');
	await page.waitForSelector('#conflict:not([hidden])');
	const conflictText = await page.locator('#conflict').textContent();
	check('a conflicting edit from another tab is shown', /another tab/.test(conflictText), conflictText);
	check('it is not saved over the other', /Not saved/.test(await page.locator('#saved').textContent()));
	await shot(page, 'conflict.png');
	await page.click('#conflict-mine');
	await page.waitForFunction(() => /Saved \(version \d+\)/.test(document.querySelector('#saved').textContent));
	const kept = await page.locator('#draft-text').inputValue();
	check('keeping mine saves it as a new version', kept.includes('General Counsel') && !kept.includes('Springfield'));
	await tab2.close();

	// ---------------------------------------------------------- verify
	await page.click('#verify');
	await page.waitForSelector('#gate.gate-pass');
	s = await draftState(page);
	check('after the fix the gate passes', s.blockedFlags.every((b) => !b) && s.bad.length === 0, s);
	await shot(page, 'draft-verified.png');

	// ---------------------------------------------------------- approve
	await page.click('#approve');
	await page.waitForSelector('#approve-result strong');
	const approved = await page.locator('#approve-result').textContent();
	check('the draft is approved', /Approved/.test(approved) && !/override/.test(approved), approved);
	await shot(page, 'approved.png');

	// a failing draft needs an override reason (run 2, made to fail)
	await page.goto(origin + '/#/m/acme/runs/2/draft');
	await page.waitForSelector('#claim-list li');
	await replaceIn(page, '(ACME0000005)', '(ACME0000998)');
	await page.click('#approve');
	await page.waitForSelector('#override-box:not([hidden]) #override-reason');
	s = await draftState(page);
	check('approving a failing draft asks for an override and marks the claim', s.bad.some((m) => m.text.includes('ACME0000998')), s.bad);
	await page.fill('#override-reason', 'ACME0000998 is in the supplemental production');
	await page.click('#override-approve');
	await page.waitForSelector('#approve-result strong');
	check('approved with override', /override/.test(await page.locator('#approve-result').textContent()));
	// an approved run is frozen in the page: read-only, Approve off, a new version offered
	await page.waitForSelector('#new-version');
	check('an approved run is read-only', await page.$eval('#draft-text', (e) => e.readOnly));
	check('an approved run has no Approve', await page.$eval('#approve', (e) => e.disabled));
	// (its "Edit a new version" is tested through the API in tests/cli/certify.sh:
	// a run made here would renumber the runs the next checks start)

	// ---------------------------------------------- hostile document text stays text
	await page.goto(origin + '/#/m/acme');
	await page.waitForSelector('table.grid tbody tr');
	await page.locator('table.grid a', { hasText: 'hostile-note.txt' }).click();
	await page.waitForSelector('.pagetext');
	await page.waitForTimeout(300);
	const hostile = await page.locator('.pagetext').textContent();
	check('the <script> of a document is shown as text', hostile.includes('<script>window.__sworn_xss = 1</script>'), hostile);
	check('the onerror attribute is shown as text', hostile.includes('"><img src=x onerror='), hostile);
	check('no element is made from document text', await page.locator('.pagebox img, .pagebox script, .pagebox b').count() === 0);
	await shot(page, 'hostile.png');
	// and in search results
	await page.goto(origin + '/#/m/acme');
	await page.fill('#q', 'onerror');
	await page.press('#q', 'Enter');
	await page.waitForSelector('.hitlist li');
	const snippet = await page.locator('.hitlist .snippet').first().textContent();
	check('a search snippet shows the markup as text', /onerror|<script>/.test(snippet), snippet);
	check('no element is made from a snippet', await page.locator('.hits img, .hits script, .hits b').count() === 0);
	await page.waitForTimeout(300);
	check('the document\'s script never ran', await page.evaluate(() => window.__sworn_xss === undefined));

	// ---------------------------------------------- load-file metadata: seen and searched
	await page.goto(origin + '/#/m/acme');
	await page.waitForSelector('table.grid tbody tr');
	const heads = await page.locator('table.grid thead th').allTextContents();
	check('the document list has the load file\'s date, custodian and title', ['Date', 'Custodian', 'Title'].every((h) => heads.includes(h)), heads);
	await page.fill('#q', 'custodian:smith date:2021-03..2021-04');
	await page.press('#q', 'Enter');
	await page.waitForSelector('.hitlist li');
	const metaHits = await page.locator('.hitlist li a').allTextContents();
	check('a search by custodian and dates finds that document alone', metaHits.length === 1 && metaHits[0] === 'ACME0000003', metaHits);
	await page.fill('#q', 'custodian:roe notice');
	await page.press('#q', 'Enter');
	await page.waitForFunction(() => /custodian:roe notice/.test(document.querySelector('.hits h2')?.textContent || ''));
	const withWords = await page.locator('.hitlist li a').allTextContents();
	check('a field with a word finds the page holding it', withWords.length >= 1 && withWords.every((t) => /^ACME000000[78]$/.test(t)), withWords);
	await page.fill('#q', 'custodian:smith date:2021-03..2021-04');
	await page.press('#q', 'Enter');
	await page.waitForFunction(() => /custodian:smith/.test(document.querySelector('.hits h2')?.textContent || ''));
	await page.locator('.hitlist li a').first().click();
	await page.waitForSelector('dl.docmeta');
	const meta = await page.evaluate(() => Object.fromEntries(Array.from(document.querySelectorAll('dl.docmeta dd')).map((d) => [d.dataset.field, d.textContent])));
	check('the document view shows its metadata', meta.custodian === 'Smith, Tom' && meta.title === 'RE: PO 4471 delivery date' &&
		meta.sent === '2021-03-03 (as written: 03/03/2021)', meta);
	await shot(page, 'metadata.png');

	// ---------------------------------------------- a PDF page: its image too
	await page.goto(origin + '/#/m/acme');
	await page.locator('table.grid a', { hasText: 'purchase-order-4471.pdf' }).click();
	await page.waitForSelector('img.pageimg');
	await page.waitForFunction(() => {
		const i = document.querySelector('img.pageimg');
		return i && i.src.startsWith('blob:') && i.complete;
	});
	const img = await page.evaluate(() => {
		const i = document.querySelector('img.pageimg');
		return { w: i.naturalWidth, h: i.naturalHeight, alt: i.alt };
	});
	check('a PDF page shows its image (page.png)', img.w > 300 && /page 1/.test(img.alt), img);

	// ------------------- a page that draws without end: its text, no image
	await page.goto(origin + '/#/m/acme');
	await page.locator('table.grid a', { hasText: 'exhibit-7.pdf' }).click();
	await page.waitForSelector('.pageimg-error', { timeout: 120000 });
	const endless = await page.evaluate(() => ({
		text: document.querySelector('pre.pagetext').textContent,
		note: document.querySelector('.pageimg-error').textContent,
		img: !!document.querySelector('img.pageimg'),
	}));
	check('a page past the drawing bounds: its text, and why no image',
		/Exhibit 7/.test(endless.text) && /more than a page may/.test(endless.note) && !endless.img,
		endless);
	const after = await page.evaluate(async () => (await fetch('/api/matters', {
		headers: { Authorization: 'Bearer ' + sessionStorage.getItem('sworn.session') } })).status);
	check('the server answers after it', after === 200, after);
	await shot(page, 'pdf-page.png');

	// ------------------------------ production QC: the volume, its findings, CSV
	await page.goto(origin + '/#/m/acme/qc');
	await page.waitForSelector('section.qc-volume');
	const qc = await page.evaluate(() => ({
		nav: [...document.querySelectorAll('#nav a')].some((a) => a.textContent === 'Production QC' &&
			a.getAttribute('aria-current') === 'page'),
		name: document.querySelector('section.qc-volume h2').textContent,
		totals: document.querySelector('.qc-totals').textContent,
		kinds: [...document.querySelectorAll('h3.qc-kind')].map((h) => h.textContent),
		fix: document.querySelector('.qc-fix').textContent,
		rows: [...document.querySelectorAll('section.qc-volume tbody tr')].map((tr) => tr.textContent),
	}));
	check('the QC view lists the volume with its totals', qc.nav && qc.name === 'VOL001' &&
		/^4 documents, 8 pages, 0 natives, 0 images; text for 4 of 4 documents \(100%\)$/.test(qc.totals), qc);
	check('the QC view lists each finding with its Bates number and what to fix',
		qc.kinds.join('|') === 'Missing images (8)' && /^To fix: produce the page images/.test(qc.fix) &&
		qc.rows.length === 8 && qc.rows[0].includes('ACME0000001') && qc.rows[0].includes('not found'), qc);
	const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#qc-csv')]);
	const csv = fs.readFileSync(await dl.path(), 'utf8');
	check('the QC findings download as CSV', dl.suggestedFilename() === 'acme-qc.csv' &&
		csv.startsWith('volume,kind,line,bates,detail,fix\n') &&
		csv.split('\n').filter((l) => l.startsWith('"VOL001","no_image",')).length === 8, csv.slice(0, 300));
	await shot(page, 'qc.png');

	// ---------------------------------------------------------- the verifier
	await page.goto(origin + '/#/m/acme/verify');
	await page.fill('#paste', 'The order shipped on April 9, 2021 (ACME0000004).\n');
	await page.click('.verify-form button[type=submit]');
	await page.waitForSelector('#claim-list li');
	s = await draftState(page);
	check('a pasted draft is verified with the same view', s.bad.some((m) => m.text.includes('April 9, 2021')), s.bad);
	check('the pasted draft has no Approve', await page.locator('#approve').count() === 0);
	await shot(page, 'verify-pasted.png');
	await page.goto(origin + '/#/');
	await page.goto(origin + '/#/m/acme/verify');
	await page.setInputFiles('#upload', { name: 'letter.txt', mimeType: 'text/plain',
		buffer: Buffer.from('To file.\r\n\r\nBrightline sent a cure notice (ACME0000999).\r\n') });
	await page.click('.verify-form button[type=submit]');
	await page.waitForSelector('#claim-list li');
	s = await draftState(page);
	// CRLF line ends: the marks still fall on the claim's own characters
	check('an uploaded draft (CRLF) is verified with the same view', s.bad.some((m) => m.text === 'ACME0000999'), s.bad);

	// ---------------------------------------------- a run seen live as it runs
	await liveRun(page);

	// 13-inch screen and print
	await page.setViewportSize({ width: 1366, height: 768 });
	await page.goto(origin + '/#/m/acme/runs/1/draft');
	await page.waitForSelector('#claim-list li');
	const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
	check('no sideways scrolling on a 13-inch screen', overflow <= 0, overflow);
	await page.emulateMedia({ media: 'print' });
	const printView = await page.evaluate(() => {
		const p = document.querySelector('.printview');
		return { shown: getComputedStyle(p).display, draft: p.textContent.includes('DECLARATION'),
			editor: getComputedStyle(document.querySelector('.editor')).display, text: p.textContent.slice(0, 80) };
	});
	check('the print view shows the draft, not the editor', printView.shown !== 'none' && printView.draft &&
		printView.editor === 'none', printView);
	await page.emulateMedia({ media: 'screen' });

	check('no script error and no CSP violation in the page', problems.length === 0, problems);
} catch (e) {
	failures++;
	console.log('FAIL: ' + (e && e.stack ? e.stack : e));
	try { await ctx.pages()[0].screenshot({ path: path.join(outDir, 'failure.png') }); } catch (e2) { /* none */ }
} finally {
	await ctx.close();
	fs.rmSync(profile, { recursive: true, force: true });
}
console.log(`${checks} checks, ${failures} failures; screenshots in ${outDir}`);
process.exit(failures ? 1 : 0);
