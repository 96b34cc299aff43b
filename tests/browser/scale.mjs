// The review page at real sizes (issue 39, part 4), in Debian's chromium
// driven headless by playwright-core against a real `sworn serve` on the
// workspace seed.sh made (run.sh starts both).
//   node scale.mjs URL OUTDIR
// It writes a draft of more than 1,000 claims, opens it in the verifier's
// view and measures with the performance API: opening (to the first frame),
// a keystroke (the key's handlers and the frame it causes) and how many
// claims the list shows.  The timings are printed as a benchmark ("BENCH");
// with SWORN_BROWSER_BENCH=1 (by hand) they fail beyond 3x their target.
// Then: n / p and the jump list move between blocked claims with one tab
// stop in the list; a blocked claim shows the page its reason names, marked;
// a blocked quotation its closest passage; a cited page links to the viewer.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [url, outDir] = process.argv.slice(2);
if (!url || !outDir) {
	console.error('usage: node scale.mjs URL OUTDIR');
	process.exit(2);
}
const executablePath = process.env.SW_CHROMIUM || '/usr/bin/chromium';
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
// A timing against its target: printed.  A failure past 3x the target only
// when SWORN_BROWSER_BENCH=1 asks for it (by hand, on a quiet machine): no
// test of make check asserts a time, which a busy machine can break.
function bench(what, ms, target) {
	const over = ms >= 3 * target;
	console.log(`BENCH ${what}: ${ms.toFixed(1)} ms (target < ${target} ms)` +
		(over ? ` OVER 3x the target` : ''));
	if (process.env.SWORN_BROWSER_BENCH === '1')
		check(`${what} within 3x its target (${3 * target} ms)`, !over, ms.toFixed(1));
}

// The draft: numbered paragraphs of the Acme record, one in three with a
// claim that blocks (a wrong date, an invented Bates number, a quotation
// not on its page, an amount that is on another page).
const GOOD = [
	'On March 3, 2021, Tom Smith wrote that Brightline would not make the March 10 date for PO 4471 (ACME0000003).',
	'The invoice for PO 4471 shows that the order shipped on March 31, 2021 (ACME0000004).',
];
const BAD = [
	'The order shipped on April 9, 2021 (ACME0000004).',
	'Brightline sent a cure notice (ACME0000999).',
	'Tom Smith wrote that "the earliest we can ship is April 30, 2021" (ACME0000003).',
	'The invoice for PO 4471 totals $52,850.00 (ACME0000003).',
];
function bigDraft(paragraphs) {
	const out = ['DECLARATION OF JANE ROE', '', 'I, Jane Roe, declare as follows:', ''];
	for (let i = 0; i < paragraphs; i++) {
		const text = i % 3 === 2 ? BAD[Math.floor(i / 3) % BAD.length] : GOOD[i % 2];
		out.push(`${i + 1}. ${text}`, '');
	}
	out.push('I declare under penalty of perjury that the foregoing is true and correct.');
	return out.join('\n') + '\n';
}

const ctx = await chromium.launchPersistentContext(profile, {
	executablePath,
	headless: true,
	args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
		'--disable-background-networking', '--disable-component-update', '--disable-sync'],
	viewport: { width: 1366, height: 768 },
});
ctx.setDefaultTimeout(30000);
const problems = [];
try {
	const page = ctx.pages()[0] || await ctx.newPage();
	page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
	page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
	await page.goto(url);
	await page.waitForFunction(() => /^[0-9a-f]{64}$/.test(sessionStorage.getItem('sworn.session') || ''));

	// ------------------------------------------------ open a 1,000-claim draft
	await page.goto(origin + '/#/m/acme/verify');
	await page.waitForSelector('#paste');
	await page.evaluate((t) => { document.querySelector('#paste').value = t; }, bigDraft(330));
	const t0 = Date.now();
	await page.click('.verify-form button[type=submit]');
	await page.waitForSelector('#claim-list li');
	await page.waitForFunction(() => performance.getEntriesByName('sworn:review-open').length > 0);
	const withServer = Date.now() - t0;
	const opened = await page.evaluate(() => ({
		ms: performance.getEntriesByName('sworn:review-open')[0].duration,
		claims: document.querySelectorAll('#claim-list li').length,
		blocked: document.querySelectorAll('#claim-list li.blocked').length,
		gate: document.querySelector('#gate').textContent,
	}));
	check('the draft has more than 1,000 claims', opened.claims >= 1000, opened.claims);
	check('a tenth of them or more are blocked', opened.blocked * 10 >= opened.claims, opened.blocked);
	bench(`open a ${opened.claims}-claim draft (the page's work, to its first frame)`, opened.ms, 500);
	console.log(`BENCH the same, with the server's verification and the transfer: ${withServer} ms (not a target)`);
	await page.screenshot({ path: path.join(outDir, 'scale-open.png') });

	// the list: a screenful of claims, one tab stop
	const list = await page.evaluate(() => {
		const ol = document.querySelector('#claim-list'), r = ol.getBoundingClientRect();
		const shown = [...ol.querySelectorAll('li')].filter((li) => {
			const b = li.getBoundingClientRect();
			return b.top >= r.top - 1 && b.bottom <= r.bottom + 1;
		}).length;
		const stops = [...ol.querySelectorAll('button')].filter((b) => b.tabIndex >= 0).length;
		return { shown, stops };
	});
	console.log(`BENCH the claims list shows ${list.shown} claims at 1366x768 (was about 6)`);
	check('the claims list shows a screenful (12 or more)', list.shown >= 12, list.shown);
	check('the claims list is one tab stop, not one per claim', list.stops === 1, list.stops);

	// ------------------------------------------------ keystrokes
	// A key's cost: its handlers (keydown to the end of input) plus the frame
	// it causes (from the frame's start to after its paint), so that the wait
	// for the next frame is not counted.
	await page.evaluate(() => {
		const ta = document.querySelector('#draft-text');
		window.__keys = [];
		window.__long = 0;
		new PerformanceObserver((l) => { window.__long += l.getEntries().length; }).observe({ type: 'longtask' });
		let cur = null;
		ta.addEventListener('keydown', () => {
			const k = cur = { t0: performance.now() };
			requestAnimationFrame(() => {
				k.f0 = performance.now();
				const mc = new MessageChannel();
				mc.port1.onmessage = () => { k.f1 = performance.now(); window.__keys.push(k); };
				mc.port2.postMessage(0);
			});
		}, true);
		ta.addEventListener('input', () => { if (cur) cur.t1 = performance.now(); });
		const i = ta.value.indexOf('165. ');
		ta.focus();
		ta.setSelectionRange(i + 12, i + 12); /* inside its claims */
	});
	await page.keyboard.type('In the middle of a long draft, ', { delay: 40 });
	await page.keyboard.press('Enter');
	await page.keyboard.type('a new line. ', { delay: 40 });
	await page.keyboard.press('Backspace');
	await page.keyboard.press('Backspace');
	await page.waitForTimeout(600);
	const keys = await page.evaluate(() => ({
		costs: window.__keys.filter((k) => k.t1 && k.f1).map((k) => (k.t1 - k.t0) + (k.f1 - k.f0)),
		long: window.__long,
	}));
	const sorted = keys.costs.slice().sort((a, b) => a - b);
	const med = sorted[Math.floor(sorted.length / 2)] || 0, p90 = sorted[Math.floor(sorted.length * 0.9)] || 0;
	check('the keystrokes were measured', sorted.length >= 30, sorted.length);
	bench(`a keystroke in a ${opened.claims}-claim draft (median of ${sorted.length})`, med, 16);
	console.log(`BENCH the same, 90th percentile ${p90.toFixed(1)} ms, worst ${(sorted[sorted.length - 1] || 0).toFixed(1)} ms; ` +
		`${keys.long} tasks over 50 ms while typing`);
	// And the work deferred to a pause in typing (the summary, the touched
	// items of the list, the jump list: performance.measure
	// sworn:after-typing), keys 400 ms apart so that it runs after each.
	await page.evaluate(() => { window.__keys = []; performance.clearMeasures('sworn:after-typing'); });
	for (const ch of 'and then a pause ') {
		await page.keyboard.press(ch === ' ' ? 'Space' : ch);
		await page.waitForTimeout(400);
	}
	const slow = await page.evaluate(() => ({
		keys: window.__keys.filter((k) => k.t1 && k.f1).map((k) => (k.t1 - k.t0) + (k.f1 - k.f0)),
		after: performance.getEntriesByName('sworn:after-typing').map((e) => e.duration),
	}));
	const mid = (xs) => xs.slice().sort((x, y) => x - y)[Math.floor(xs.length / 2)] || 0;
	check('the deferred work ran after each key', slow.after.length >= 15, slow.after.length);
	bench(`a keystroke typed after a pause (median of ${slow.keys.length})`, mid(slow.keys), 16);
	bench(`the work deferred to a pause in typing (median of ${slow.after.length})`, mid(slow.after), 16);
	const typed = await page.evaluate(() => {
		const back = document.querySelector('.backdrop'), ta = document.querySelector('#draft-text');
		return { same: back.textContent.replace(/\u200b/g, '').replace(/\n/g, '') === ta.value.replace(/\n/g, ''),
			lines: back.children.length, want: ta.value.split('\n').length, stale: back.querySelectorAll('mark.v-stale').length };
	});
	check('the marks layer holds the typed text, a block a line', typed.same && typed.lines === typed.want, typed);
	check('the edited claim shows as edited', typed.stale > 0, typed.stale);
	await page.screenshot({ path: path.join(outDir, 'scale-typed.png') });

	// ------------------------------------------------ n / p and the jump list
	await page.keyboard.press('Escape');
	const tabStops = () => page.evaluate(() =>
		[...document.querySelectorAll('#claim-list button')].filter((b) => b.tabIndex >= 0).length);
	const cur = () => page.evaluate(() => {
		const li = document.querySelector('#claim-list li.current');
		return li ? { text: li.textContent, blocked: li.classList.contains('blocked'),
			focused: document.activeElement === li.firstChild } : null;
	});
	await page.keyboard.press('n');
	const n1 = await cur();
	await page.keyboard.press('n');
	const n2 = await cur();
	await page.keyboard.press('p');
	const p1 = await cur();
	check('n moves to a blocked claim and focuses it', n1 && n1.blocked && n1.focused, n1);
	check('n again to the next, p back', n2 && n2.blocked && n2.text !== n1.text && p1.text === n1.text, [n1, n2, p1]);
	await page.keyboard.press('ArrowDown');
	const down = await cur();
	check('an arrow moves in the list', down && down.text !== p1.text && down.focused, down);
	const stops = await tabStops();
	check('still one tab stop in the list', stops === 1, stops);
	const options = await page.locator('#jump option').count();
	check('the jump list lists the blocked claims', options >= opened.blocked / 2, options);
	const target = await page.locator('#jump option').nth(7).getAttribute('value');
	await page.selectOption('#jump', target);
	const jumped = await page.evaluate((i) => {
		const li = document.querySelector('#claim-list li.current');
		return li && li.firstChild.getAttribute('data-i') === i && li.classList.contains('blocked');
	}, target);
	check('the jump list moves to the claim chosen', jumped);
	check('one tab stop after the jump', await tabStops() === 1);

	// ------------------------------------------------ the page a reason names
	async function openClaim(kind, has) {
		const opt = await page.evaluate(([k, h]) => {
			const o = [...document.querySelectorAll('#jump option')].find((x) => x.textContent.includes(k + ' \u2013') &&
				x.textContent.includes(h));
			return o ? o.value : null;
		}, [kind, has]);
		check(`the jump list has the ${kind} "${has}"`, opt !== null);
		if (opt === null)
			return null;
		await page.selectOption('#jump', opt);
		await page.waitForSelector('#claim-detail .pagetext');
		await page.waitForFunction(() => !/Loading the page/.test(document.querySelector('#claim-detail').textContent));
		return page.evaluate(() => ({
			reason: document.querySelector('#claim-reason').textContent,
			heads: [...document.querySelectorAll('#claim-detail .pagehead')].map((h) => h.textContent),
			links: [...document.querySelectorAll('#claim-detail .pagehead a')].map((a) => a.getAttribute('href')),
			marks: [...document.querySelectorAll('#claim-detail .pagetext mark')].map((m) => m.textContent),
			notes: [...document.querySelectorAll('#claim-detail .named')].map((m) => m.textContent),
		}));
	}
	const elsewhere = await openClaim('proposition', '$52,850.00');
	if (elsewhere) {
		check('its reason names the page it is on', /it is on ACME0000005/.test(elsewhere.reason), elsewhere.reason);
		check('that page is shown', elsewhere.heads.some((h) => /ACME0000005/.test(h)), elsewhere.heads);
		check('the amount is marked on it', elsewhere.marks.some((m) => /\$52,850\.00/.test(m)), elsewhere.marks);
		check('each page shown links to the record viewer', elsewhere.links.length === elsewhere.heads.length &&
			elsewhere.links.every((h) => /^#\/m\/acme\/doc\/\d+\/\d+$/.test(h)), elsewhere.links);
	}
	await page.screenshot({ path: path.join(outDir, 'scale-elsewhere.png') });
	const factLink = await page.evaluate(() => [...document.querySelectorAll('#claim-detail .facts a.bates')]
		.map((a) => a.getAttribute('href')));
	check('the pages a fact is found on link to the viewer', factLink.includes('#/m/acme/bates/ACME0000005'), factLink);
	const quote = await openClaim('quote', 'the earliest we can ship');
	if (quote) {
		check('a blocked quotation names its closest passage', /closest on ACME0000003/.test(quote.reason), quote.reason);
		check('the closest passage is shown, marked on its page', quote.heads.some((h) => /ACME0000003/.test(h)) &&
			quote.marks.some((m) => /earliest we can ship is March 31, 2021/i.test(m.replace(/\s+/g, ' '))), quote);
	}
	await page.screenshot({ path: path.join(outDir, 'scale-closest.png') });
	const link = await page.locator('#claim-detail .pagehead a').first();
	await link.click();
	await page.waitForSelector('.pagebox.wide .pagetext');
	check('the link opens the page in the record viewer', /#\/m\/acme\/doc\/\d+\/\d+$/.test(page.url()) &&
		/ACME0000003/.test(await page.locator('.pagebox.wide .pagehead').textContent()), page.url());
	await page.goto(origin + '/#/m/acme/bates/ACME0000005');
	await page.waitForFunction(() => /#\/m\/acme\/doc\/\d+\/\d+$/.test(location.hash));
	await page.waitForSelector('.pagebox.wide .pagehead');
	check('a Bates link opens its page in the viewer',
		/ACME0000005/.test(await page.locator('.pagebox.wide .pagehead').textContent()), page.url());
	check('no script error in the page', problems.length === 0, problems);
} catch (e) {
	failures++;
	console.log('FAIL: ' + (e && e.stack ? e.stack : e));
	try { await ctx.pages()[0].screenshot({ path: path.join(outDir, 'scale-failure.png') }); } catch (e2) { /* none */ }
} finally {
	await ctx.close();
	fs.rmSync(profile, { recursive: true, force: true });
}
console.log(`${checks} checks, ${failures} failures (the review page at real sizes)`);
process.exit(failures ? 1 : 0);
