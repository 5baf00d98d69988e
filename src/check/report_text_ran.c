// SPDX-License-Identifier: GPL-2.0-only
/*
 * Proof that the kernel text ran: what each kernel-text variant's text
 * executed (its aging passes, split steps, evictions, look-arounds and
 * reclaim, counted on the text's side of the seam, src/kbind), in the
 * table, in the JSON, and a warning when a pair ran the model alone.
 *
 * A pair in which the text did nothing compares nothing: the agreement
 * oracle looks only after the text aged or evicted, so such a run passes
 * whatever the model does (issue 30).  The corpus keeps every scenario
 * exercising the text (kbind.corpus_exercises).
 */
#include <stdio.h>
#include <string.h>

#include "json_str.h"
#include "lockstep.h"

static bool text_ran(const struct aw_lockstep *ls, int v, struct aw_text_ran *r)
{
	if (!ls->variant[v]->text_ran)
		return false;
	ls->variant[v]->text_ran(ls->k[v], r);
	return true;
}

void aw_report_text_ran_table(FILE *out, const struct aw_lockstep *ls, int v)
{
	struct aw_text_ran r;

	if (!text_ran(ls, v, &r))
		return;
	fprintf(out, "\nvariant %s: the kernel text executed", ls->variant[v]->name);
	for (int i = 0; i < r.nr; i++)
		fprintf(out, "%s %lu %s", i ? "," : ":", r.value[i], r.label[i]);
	fputc('\n', out);
}

void aw_report_text_ran_json(FILE *out, const struct aw_lockstep *ls, int v)
{
	struct aw_text_ran r;

	if (!text_ran(ls, v, &r))
		return;
	fputs(",\"text_ran\":{", out);
	for (int i = 0; i < r.nr; i++) {
		if (i)
			fputc(',', out);
		aw_json_str(out, r.key[i]);
		fprintf(out, ":%lu", r.value[i]);
	}
	fprintf(out, ",\"idle\":%s}", r.idle ? "true" : "false");
}

int aw_report_text_idle(FILE *out, const struct aw_lockstep *ls, bool error)
{
	int idle = 0;

	for (int v = 0; v < ls->nr_variants; v++) {
		struct aw_text_ran r;
		unsigned long refused = 0;

		if (!text_ran(ls, v, &r) || !r.idle)
			continue;
		idle++;
		if (ls->variant[v]->khugepaged) {
			fprintf(out, "agewalk: %s: %s ran no khugepaged text on %s thp=%s: no range scanned, no "
				"MADV_COLLAPSE\n", error ? "error" : "warning", ls->variant[v]->name,
				ls->sc->path ? ls->sc->path : "-", aw_thp_mode_name(ls->thp));
			continue;
		}
		for (int i = 0; i < r.nr; i++)
			if (!strcmp(r.key[i], "aging_refused_ERANGE"))
				refused = r.value[i];
		fprintf(out, "agewalk: %s: %s ran no kernel text on %s thp=%s: no aging pass, no eviction, "
			"no reclaim (%lu aging commands refused -ERANGE)\n", error ? "error" : "warning",
			ls->variant[v]->name, ls->sc->path ? ls->sc->path : "-", aw_thp_mode_name(ls->thp),
			refused);
	}
	return idle;
}
