/*
 * claims_scan.re - the scanner: one pass of a re2c DFA over the text that
 * stops only where a claim may begin and hands over to a trigger function
 * (claims_int.h).  re2c turns this file into claims_scan.c in the build
 * folder.
 *
 * Whole words are consumed by one rule each, so a trigger never fires in
 * the middle of a word ("f24601", "paid.").  Literal rules are listed before
 * the general word rules: for matches of equal length re2c takes the first.
 */
#include "claims/claims_int.h"

void sw__claims_run(struct sw__claims_scan *sc)
{
	const unsigned char *base = (const unsigned char *)sc->t;
	const unsigned char *cur = base, *lim = base + sc->n, *mar = base, *ctx = base, *tok;
	size_t p, q, e;

#define POS(x) ((size_t)((x) - base))
/* After a citation trigger: resume after what it consumed. */
#define RESUME(end) do { e = (end); if (e > POS(cur)) cur = base + e; } while (0)

	/* A text that opens with a block quotation has no newline before it. */
	if (sc->n && (base[0] == '>' || base[0] == ' ' || base[0] == '\t'))
		RESUME(sw__claims_try_block(sc, 0));

	for (;;) {
		if (sc->failed)
			return;
		tok = cur;
		p = POS(tok);
		/*!re2c
		re2c:define:YYCTYPE = "unsigned char";
		re2c:define:YYCURSOR = cur;
		re2c:define:YYMARKER = mar;
		re2c:define:YYCTXMARKER = ctx;
		re2c:define:YYLIMIT = lim;
		re2c:yyfill:enable = 0;
		re2c:eof = 0;

		digit = [0-9];
		sp = [ ]+;
		ordw = "first" | "second" | "third" | "fourth" | "fifth" | "sixth"
		     | "seventh" | "eighth" | "ninth" | "tenth" | "eleventh"
		     | "twelfth" | "thirteenth" | "fourteenth" | "fifteenth"
		     | "sixteenth" | "seventeenth" | "eighteenth" | "nineteenth"
		     | "twentieth" | "twenty-" ("first" | "second" | "third" | "fourth"
		       | "fifth" | "sixth" | "seventh" | "eighth" | "ninth")
		     | "thirtieth" | "thirty-first"
		     | [0-9]{1,2} ("st" | "nd" | "rd" | "th");

		$ { return; }

		digit{1,2} "/" digit{1,2} "/" (digit{4} | digit{2}) {
			q = POS(cur);
			RESUME(sw__claims_try_numeric_date(sc, p, q, false));
			continue;
		}
		digit{1,2} "/" digit{1,2} {
			/* 3/24 after a date word; else the first number as any */
			q = POS(cur);
			e = sw__claims_try_monthday(sc, p, q);
			if (e) {
				RESUME(e);
				continue;
			}
			for (q = p; q < sc->n && base[q] >= '0' && base[q] <= '9'; q++)
				;
			cur = base + q;
			RESUME(sw__claims_try_number(sc, p, q));
			continue;
		}
		digit{1,2} "-" ("Jan" | "Feb" | "Mar" | "Apr" | "May" | "Jun" | "Jul" | "Aug"
				| "Sep" | "Oct" | "Nov" | "Dec") "-" (digit{4} | digit{2}) {
			q = POS(cur);
			e = sw__claims_try_dmy_dash(sc, p, q);
			if (e) {
				RESUME(e);
				continue;
			}
			for (q = p; q < sc->n && base[q] >= '0' && base[q] <= '9'; q++)
				;
			cur = base + q;
			RESUME(sw__claims_try_number(sc, p, q));
			continue;
		}
		digit{4} "-" digit{2} "-" digit{2} {
			q = POS(cur);
			RESUME(sw__claims_try_numeric_date(sc, p, q, true));
			continue;
		}
		digit+ {
			q = POS(cur);
			RESUME(sw__claims_try_number(sc, p, q));
			continue;
		}

		"\xC2\xA7" "\xC2\xA7"? { RESUME(sw__claims_try_section(sc, p, POS(cur))); continue; }

		("Id." | "id." | "Ibid." | "ibid.") { RESUME(sw__claims_try_id(sc, p, POS(cur))); continue; }
		"supra" { RESUME(sw__claims_try_supra(sc, p, POS(cur))); continue; }
		("at" | "p.") / sp "*"? digit { sw__claims_note_at(sc, p, p); continue; }

		("The" | "the") sp ordw (sp "day")? sp "of" sp {
			RESUME(sw__claims_try_ordinal_date(sc, p, POS(cur), 0));
			continue;
		}

		"January" { RESUME(sw__claims_try_month(sc, p, POS(cur), 1)); continue; }
		"February" { RESUME(sw__claims_try_month(sc, p, POS(cur), 2)); continue; }
		"March" { RESUME(sw__claims_try_month(sc, p, POS(cur), 3)); continue; }
		"April" { RESUME(sw__claims_try_month(sc, p, POS(cur), 4)); continue; }
		"May" { RESUME(sw__claims_try_month(sc, p, POS(cur), 5)); continue; }
		"June" { RESUME(sw__claims_try_month(sc, p, POS(cur), 6)); continue; }
		"July" { RESUME(sw__claims_try_month(sc, p, POS(cur), 7)); continue; }
		"August" { RESUME(sw__claims_try_month(sc, p, POS(cur), 8)); continue; }
		"September" { RESUME(sw__claims_try_month(sc, p, POS(cur), 9)); continue; }
		"October" { RESUME(sw__claims_try_month(sc, p, POS(cur), 10)); continue; }
		"November" { RESUME(sw__claims_try_month(sc, p, POS(cur), 11)); continue; }
		"December" { RESUME(sw__claims_try_month(sc, p, POS(cur), 12)); continue; }
		"Jan" "."? { RESUME(sw__claims_try_month(sc, p, POS(cur), 1)); continue; }
		"Feb" "."? { RESUME(sw__claims_try_month(sc, p, POS(cur), 2)); continue; }
		"Mar" "."? { RESUME(sw__claims_try_month(sc, p, POS(cur), 3)); continue; }
		"Apr" "."? { RESUME(sw__claims_try_month(sc, p, POS(cur), 4)); continue; }
		"Jun" "."? { RESUME(sw__claims_try_month(sc, p, POS(cur), 6)); continue; }
		"Jul" "."? { RESUME(sw__claims_try_month(sc, p, POS(cur), 7)); continue; }
		"Aug" "."? { RESUME(sw__claims_try_month(sc, p, POS(cur), 8)); continue; }
		("Sep" | "Sept") "."? { RESUME(sw__claims_try_month(sc, p, POS(cur), 9)); continue; }
		"Oct" "."? { RESUME(sw__claims_try_month(sc, p, POS(cur), 10)); continue; }
		"Nov" "."? { RESUME(sw__claims_try_month(sc, p, POS(cur), 11)); continue; }
		"Dec" "."? { RESUME(sw__claims_try_month(sc, p, POS(cur), 12)); continue; }

		"Fed." [ ]* "R." [ ]* ("Civ." [ ]* "P." | "Evid." | "App." [ ]* "P."
			| "Crim." [ ]* "P." | "Bankr." [ ]* "P.") {
			RESUME(sw__claims_try_rule(sc, p, POS(cur), false));
			continue;
		}
		("L." [ ]* "R." | "L." [ ]* "Civ." [ ]* "R." | "Civ." [ ]* "L." [ ]* "R."
			| "Local" sp ("Civil" sp)? "Rule" | "LR" | "Rule") / sp? digit {
			RESUME(sw__claims_try_rule(sc, p, POS(cur), true));
			continue;
		}

		("Ex." | "Exs." | "Exh." | "Exhs." | "Exhibit" | "Exhibits" | "PX" | "DX" | "JX" | "GX") {
			RESUME(sw__claims_try_record(sc, p, POS(cur), SW__CLAIMS_KW_EXHIBIT));
			continue;
		}
		"ECF" { RESUME(sw__claims_try_record(sc, p, POS(cur), SW__CLAIMS_KW_ECF)); continue; }
		("Dkt." | "Dkt" | "Docket" | "Doc." | "D.E.") {
			RESUME(sw__claims_try_record(sc, p, POS(cur), SW__CLAIMS_KW_DKT));
			continue;
		}
		("Dep." | "Depo." | "Deposition") {
			RESUME(sw__claims_try_record(sc, p, POS(cur), SW__CLAIMS_KW_DEP));
			continue;
		}
		"Tr." { RESUME(sw__claims_try_record(sc, p, POS(cur), SW__CLAIMS_KW_TR)); continue; }
		("Decl." | "Aff." | "Declaration" | "Affidavit") {
			RESUME(sw__claims_try_record(sc, p, POS(cur), SW__CLAIMS_KW_DECL));
			continue;
		}
		"R." { RESUME(sw__claims_try_record(sc, p, POS(cur), SW__CLAIMS_KW_R)); continue; }
		"J.A." { RESUME(sw__claims_try_record(sc, p, POS(cur), SW__CLAIMS_KW_JA)); continue; }
		"App." { RESUME(sw__claims_try_record(sc, p, POS(cur), SW__CLAIMS_KW_APP)); continue; }

		[A-Z] [A-Z0-9]* ([-_] | "\xE2\x80" [\x90\x91]) digit{3,} | [A-Z]{2,} " " digit{3,} {
			RESUME(sw__claims_try_bates(sc, p, POS(cur)));
			continue;
		}
		[A-Z] [A-Za-z0-9]* "."? {
			q = POS(cur);
			RESUME(sw__claims_try_lead(sc, p, q));
			continue;
		}
		[a-z] [A-Za-z0-9]* { continue; }

		"\"" | "\xE2\x80\x9C" { sw__claims_try_quote(sc, p, POS(cur)); continue; }
		"\n" [ \t]* {
			RESUME(sw__claims_try_block(sc, p + 1));
			continue;
		}
		[ \t\r]+ { continue; }
		* { continue; }
		*/
	}
#undef POS
#undef RESUME
}
