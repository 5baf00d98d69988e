// SPDX-License-Identifier: GPL-2.0-only
/*
 * The HTML report (`agewalk report RUN.json -o report.html`, and --html
 * of run and replay): one self-contained page (inline
 * SVG and CSS, no script, nothing fetched) from a `run --json` or
 * `replay --json` report, for a review without a terminal.  Per node, a
 * chart per figure (leaf entries, young, PMD slots read, PUDs skipped,
 * walks, evictions and refaults until the next pass) with one series per
 * variant and one point per pass, variants that coincide drawn so that
 * each stays visible and named under the chart, then each variant's
 * difference from base per figure; per variant,
 * a residency and a young heatmap of the regions over the passes; the
 * findings, each with its event and reproducer; the khugepaged block; for
 * a replay the policy line, and the passes after lost events shaded.
 * Every point and cell has a hover title with the exact figures.
 *
 * The page is written to a temporary file and renamed: a bad or truncated
 * input never leaves half a page.  Input that is not an agewalk report
 * (not JSON, JSON of another shape, a report of another version) is one
 * line on stderr and exit 2.
 */
#include <errno.h>
#include <stdbool.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report_html.h"
#include "lockstep.h"
#include "output.h"

/* The charts: JSON key, title; one chart per node and key. */
static const char *const charts[][2] = {
	{ "leaf_total", "leaf entries read (T)" },
	{ "young", "young entries (Y)" },
	{ "pmd_entries_read", "PMD slots read (P)" },
	{ "pud_skipped", "PUDs skipped by the filter (S)" },
	{ "walks", "mm walks" },
	{ "evicted", "folios evicted until the next pass" },
	{ "refaults", "refaults until the next pass" },
};
#define NR_CHARTS	(sizeof(charts) / sizeof(charts[0]))

static const char *const palette[] = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b" };

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static long long num(json_object *o, const char *key)
{
	json_object *v = get(o, key);

	return v && (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)) ?
	       json_object_get_int64(v) : 0;
}

static const char *str(json_object *o, const char *key)
{
	json_object *v = get(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
}

static size_t len_of(json_object *a)
{
	return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

/* Text into HTML (element content and attribute values alike). */
static void esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

/*
 * Whether a figure is counted: present and not null.  A variant's code
 * that does not count a figure writes null (the kernel text lacks the
 * model's own walk instrumentation), and the page says so instead of
 * drawing it as 0.
 */
static bool counted(json_object *o, const char *key)
{
	json_object *v = get(o, key);

	return v && !json_object_is_type(v, json_type_null);
}

/* Whether a variant's passes count key (null at its first pass: none of them does). */
static bool series_counted(json_object *pp, const char *key)
{
	return !len_of(pp) || counted(json_object_array_get_idx(pp, 0), key);
}

/* A figure in a cell or a title: the number, or a dash where it is not counted. */
static void put_num(FILE *f, json_object *o, const char *key)
{
	if (counted(o, key) || !get(o, key))
		fprintf(f, "%lld", num(o, key));
	else
		fputs("&ndash;", f);
}

/* Under a chart: the variants whose code does not count its figure. */
static void uncounted_note(FILE *f, json_object *vs, size_t n, const char *key, size_t skip_base)
{
	size_t first = 1;

	for (size_t v = 0; v < len_of(vs); v++) {
		json_object *var = json_object_array_get_idx(vs, v);

		if (v == skip_base || series_counted(get(json_object_array_get_idx(get(var, "nodes"), n),
							  "per_pass"), key))
			continue;
		fprintf(f, "%s", first ? "<p class=\"uncounted\" data-metric=\"" : ", ");
		if (first)
			fprintf(f, "%s\">Not counted (null in the JSON), so not drawn: ", key);
		esc(f, str(var, "name"));
		first = 0;
	}
	if (!first)
		fputs(".</p>\n", f);
}

/*
 * Is this the report of this agewalk?  The keys every report has, with
 * their types, and per variant and node what the charts read: a report of
 * another version lacks one of them, and says which.
 */
static int check_shape(json_object *root, char *why, size_t len)
{
	static const char *const top[] = { "input", "thp", "kernel", "events", "variants", "findings" };
	json_object *vs;

	if (!json_object_is_type(root, json_type_object)) {
		snprintf(why, len, "not an agewalk report (JSON, but not an object)");
		return -1;
	}
	for (size_t i = 0; i < sizeof(top) / sizeof(top[0]); i++)
		if (!get(root, top[i])) {
			snprintf(why, len, "not an agewalk run report, or one of another version: no \"%s\"", top[i]);
			return -1;
		}
	vs = get(root, "variants");
	if (!json_object_is_type(vs, json_type_array) || !len_of(vs)) {
		snprintf(why, len, "not an agewalk run report: \"variants\" is not a list of variants");
		return -1;
	}
	for (size_t v = 0; v < len_of(vs); v++) {
		json_object *var = json_object_array_get_idx(vs, v), *nodes = get(var, "nodes");

		if (!json_object_is_type(nodes, json_type_array) || !get(var, "name")) {
			snprintf(why, len, "a report of another agewalk version: variant %zu has no \"name\" or "
				 "\"nodes\" list", v);
			return -1;
		}
		for (size_t n = 0; n < len_of(nodes); n++)
			if (!json_object_is_type(get(json_object_array_get_idx(nodes, n), "per_pass"),
						 json_type_array)) {
				snprintf(why, len, "a report of another agewalk version: variant %s node %zu has no "
					 "\"per_pass\" list", str(var, "name"), n);
				return -1;
			}
	}
	return 0;
}

/* ---- the page ---------------------------------------------------------------------- */

static void head(FILE *f, json_object *root)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>agewalk: ", f);
	esc(f, str(root, "input"));
	fputs("</title>\n<style>\n"
	      "body{font:14px/1.4 sans-serif;margin:1.5em;color:#222}h1{font-size:1.4em}h2{font-size:1.15em;"
	      "margin-top:1.6em;border-bottom:1px solid #ccc}h3{font-size:1em}.meta,.policy{font-family:monospace}"
	      ".charts{display:flex;flex-wrap:wrap;gap:1em}figure{margin:0}figcaption{font-weight:bold}"
	      "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
	      "th:first-child,td:first-child{text-align:left}.legend .key{margin-right:1.2em}"
	      ".swatch{vertical-align:middle;margin-right:0.3em}.legend small{color:#555}"
	      ".coincide{font-size:12px;color:#444;max-width:360px;margin:2px 0 0}.nodiff,.samefigs{color:#444}"
	      ".finding{margin-bottom:0.6em}.sig{font-family:monospace}.lostnote{color:#8a4b00}\n"
	      "</style></head>\n<body>\n<h1>agewalk: ", f);
	esc(f, str(root, "input"));
	fprintf(f, "</h1>\n<p class=\"meta\">thp=");
	esc(f, str(root, "thp"));
	fputs(" kernel=", f);
	esc(f, str(root, "kernel"));
	fputs(" empty-contract=", f);
	esc(f, str(root, "empty_contract"));
	fprintf(f, " events=%lld</p>\n", num(root, "events"));
	if (get(root, "policy")) {
		fputs("<p class=\"policy\">policy: ", f);
		esc(f, str(root, "policy"));
		fputs("</p>\n", f);
	}
}

/*
 * Series that coincide.  Two variants whose figure is equal at every pass
 * draw the same line, and the one drawn last used to hide the other: on
 * s3-cold-pud base lay under emptymap and pud under rfc, and a reader saw
 * two variants where four ran.  What a kernel developer reading the chart
 * should see is the plain fact, so:
 *  - each variant keeps its colour and has its own dash pattern (base
 *    solid), the same in every chart and in the legend above the charts;
 *  - the series of a group that coincide are drawn on their common line
 *    like the layers of a cable: the first variant widest, underneath,
 *    each next one narrower on top, so every colour shows as a band along
 *    the line and the upper ones' dashes let the lower ones through;
 *  - a point several variants share at a pass (coinciding or crossing)
 *    is concentric dots, the first variant's the largest;
 *  - under the chart one line, computed from the data, names the groups:
 *    "identical at every pass: base = emptymap; pud = rfc".
 * No offset or jitter: a line moved sideways or up shows a pass or a value
 * the model did not produce, and this reader reads the axes.  The widths
 * only say "more than one variant here"; the line under the chart says
 * which, so nobody has to decode equality from a stroke width.
 */
static const char *const dashes[] = { "", "7 4", "2 3", "10 3 2 3", "4 2 1 2", "12 5" };
#define NR_STYLES	(sizeof(palette) / sizeof(palette[0]))

static const char *colour(size_t v)
{
	return palette[v % NR_STYLES];
}

/* Beyond the palette the colours repeat, but not with the same dashes. */
static const char *dash(size_t v)
{
	return dashes[(v + v / NR_STYLES) % NR_STYLES];
}

static void stroke(FILE *f, size_t v, double width)
{
	fprintf(f, " stroke=\"%s\" stroke-width=\"%.1f\"", colour(v), width);
	if (*dash(v))
		fprintf(f, " stroke-dasharray=\"%s\"", dash(v));
}

static void legend(FILE *f, json_object *vs)
{
	fputs("<p class=\"legend\">", f);
	for (size_t v = 0; v < len_of(vs); v++) {
		fputs("<span class=\"key\" data-variant=\"", f);
		esc(f, str(json_object_array_get_idx(vs, v), "name"));
		fputs("\"><svg class=\"swatch\" width=\"32\" height=\"10\" aria-hidden=\"true\">"
		      "<line x1=\"0\" y1=\"5\" x2=\"32\" y2=\"5\"", f);
		stroke(f, v, 2);
		fputs("/></svg>", f);
		esc(f, str(json_object_array_get_idx(vs, v), "name"));
		fputs("</span>", f);
	}
	fputs("<br><small>Variants whose figure is equal at every pass share one line, the first variant widest, "
	      "underneath, the next ones narrower on top; the line under the chart names them. Variants equal at "
	      "one pass are concentric dots there.</small></p>\n", f);
}

/* Lost events and where they put the passes' figures in doubt (replay). */
static void lost(FILE *f, json_object *root)
{
	json_object *t = get(root, "trace"), *ranges = get(t, "lost_ranges");

	if (!t || !num(t, "lost_places"))
		return;
	fprintf(f, "<p class=\"lostnote\">The recording lost events in %lld place%s (ring-buffer overruns): ",
		num(t, "lost_places"), num(t, "lost_places") == 1 ? "" : "s");
	for (size_t i = 0; i < len_of(ranges); i++) {
		json_object *r = json_object_array_get_idx(ranges, i);

		fprintf(f, "%scpu %lld %.6f-%.6f s (", i ? "; " : "", num(r, "cpu"), num(r, "from_ns") / 1e9,
			num(r, "to_ns") / 1e9);
		if (num(r, "events") >= 0)
			fprintf(f, "%lld events)", num(r, "events"));
		else
			fputs("count unknown)", f);
	}
	fputs(". The passes after them are shaded in the charts.</p>\n", f);
}

#define CW	360	/* chart width, height, margins */
#define CH	200
#define ML	56
#define MB	28
#define MT	10
#define MR	10

/* One series of a chart: a variant's figure on a node per pass, or its difference from base's. */
struct series {
	json_object *var;	/* the variant */
	json_object *pp;	/* its per_pass on the node */
	json_object *base;	/* a difference chart: base's per_pass on the node; else NULL */
	size_t idx;		/* the variant's index: its colour and dashes */
	size_t n;		/* its points: its passes (a difference: the passes both have) */
	size_t group;		/* the first series it coincides with, itself if none before it */
};

static long long value(const struct series *s, size_t p, const char *key)
{
	long long y = num(json_object_array_get_idx(s->pp, p), key);

	return s->base ? y - num(json_object_array_get_idx(s->base, p), key) : y;
}

/* Two series coincide when they have the same points, every one equal. */
static bool coincide(const struct series *a, const struct series *b, const char *key)
{
	if (a->n != b->n)
		return false;
	for (size_t p = 0; p < a->n; p++)
		if (value(a, p, key) != value(b, p, key))
			return false;
	return true;
}

static bool all_zero(const struct series *s, const char *key)
{
	for (size_t p = 0; p < s->n; p++)
		if (value(s, p, key))
			return false;
	return true;
}

static double ypos(long long y, long long lo, long long hi)
{
	return CH - MB - (double)(CH - MT - MB) * (double)(y - lo) / (double)(hi - lo);
}

/* The passes after lost events, shaded (every variant marks the same passes: one stream). */
static void shade(FILE *f, json_object *pp, double pw)
{
	for (size_t p = 0; p < len_of(pp); p++) {
		json_object *u = get(json_object_array_get_idx(pp, p), "unreliable");

		if (u && json_object_get_boolean(u)) {
			double band = pw ? pw : 12, x = ML + pw * p - band / 2, w = band;

			if (x < ML) {		/* the first pass: half a band, inside the axes */
				w -= ML - x;
				x = ML;
			}
			fprintf(f, "<rect class=\"lost\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
				"fill=\"#f6d7b0\"><title>pass %zu follows events the recording lost: "
				"unreliable</title></rect>\n", x, MT, w, CH - MT - MB, p + 1);
		}
	}
}

/*
 * The groups of coinciding series (more than one variant each), as "a=b c=d"
 * (an attribute) or "a = b; c = d" (text); f NULL: only whether there is
 * one.  In a difference chart the group on 0 is left out: it is named as
 * equal to base.
 */
static bool groups(FILE *f, const struct series *s, size_t ns, const char *key, bool text)
{
	bool any = false;

	for (size_t i = 0; i < ns; i++) {
		size_t m = 0;

		for (size_t j = i; j < ns; j++)
			m += s[j].group == i;
		if (s[i].group != i || m < 2 || (s[i].base && all_zero(&s[i], key)))
			continue;
		if (!f)
			return true;
		if (any)
			fputs(text ? "; " : " ", f);
		any = true;
		for (size_t j = i, first = 1; j < ns; j++)
			if (s[j].group == i) {
				if (!first)
					fputs(text ? " = " : "=", f);
				first = 0;
				esc(f, str(s[j].var, "name"));
			}
	}
	return any;
}

/* The series equal to base at every pass (a difference chart): "a b" or "a, b"; f NULL: whether any. */
static bool zeros(FILE *f, const struct series *s, size_t ns, const char *key, bool text)
{
	bool any = false;

	for (size_t i = 0; i < ns; i++)
		if (s[i].base && s[i].n == len_of(s[i].base) && s[i].n == len_of(s[i].pp) && all_zero(&s[i], key)) {
			if (!f)
				return true;
			if (any)
				fputs(text ? ", " : " ", f);
			any = true;
			esc(f, str(s[i].var, "name"));
		}
	return any;
}

/* Under a chart: which series coincide, from the data (nothing if none). */
static void coincidences(FILE *f, const struct series *s, size_t ns, const char *key)
{
	bool g = groups(NULL, s, ns, key, true), z = zeros(NULL, s, ns, key, true);

	if (!g && !z)
		return;
	fputs("<p class=\"coincide\" data-coincide=\"", f);
	groups(f, s, ns, key, false);
	fputs("\" data-zero=\"", f);
	zeros(f, s, ns, key, false);
	fputs("\">", f);
	if (g) {
		fputs("identical at every pass: ", f);
		groups(f, s, ns, key, true);
	}
	if (z) {
		fputs(g ? "; equal to base at every pass (on 0): " : "equal to base at every pass (on 0): ", f);
		zeros(f, s, ns, key, true);
	}
	fputs("</p>\n", f);
}

/* A point's hover title: its exact figures, and who else has the same value at this pass. */
static void point_title(FILE *f, const struct series *s, size_t ns, size_t i, size_t node, size_t p, const char *key)
{
	json_object *ps = json_object_array_get_idx(s[i].pp, p);
	bool same = false;

	fputs("<title>", f);
	esc(f, str(s[i].var, "name"));
	if (s[i].base) {
		fprintf(f, " &minus; base, node %zu, pass %lld: %s %+lld (", node, num(ps, "pass"), key,
			value(&s[i], p, key));
		esc(f, str(s[i].var, "name"));
		fprintf(f, " %lld, base %lld)", num(ps, key), num(json_object_array_get_idx(s[i].base, p), key));
	} else {
		static const char *const also[][2] = { { "walks", "walks" }, { "T", "leaf_total" }, { "Y", "young" },
						       { "P", "pmd_entries_read" }, { "S", "pud_skipped" } };

		fprintf(f, ", node %zu, pass %lld%s: %s %lld (", node, num(ps, "pass"),
			get(ps, "forced") && json_object_get_boolean(get(ps, "forced")) ? " (forced)" : "", key,
			num(ps, key));
		for (size_t a = 0; a < sizeof(also) / sizeof(also[0]); a++) {
			fprintf(f, "%s%s ", a ? ", " : "", also[a][0]);
			put_num(f, ps, also[a][1]);
		}
		fputc(')', f);
	}
	for (size_t j = 0; j < ns; j++)
		if (j != i && p < s[j].n && value(&s[j], p, key) == value(&s[i], p, key)) {
			fputs(same ? ", " : "; the same at this pass: ", f);
			same = true;
			esc(f, str(s[j].var, "name"));
		}
	fputs("</title>", f);
}

/*
 * One chart of figure key on node n, a series per entry of s and a point
 * per pass; diff: the entries are differences from base, and 0 is marked.
 */
static void plot(FILE *f, size_t n, const char *key, const char *title, struct series *s, size_t ns, bool diff)
{
	size_t passes = 0;
	long long lo = 0, hi = 0;
	double pw;

	for (size_t i = 0; i < ns; i++) {
		passes = s[i].n > passes ? s[i].n : passes;
		for (size_t p = 0; p < s[i].n; p++) {
			long long y = value(&s[i], p, key);

			lo = y < lo ? y : lo;
			hi = y > hi ? y : hi;
		}
		s[i].group = i;
		for (size_t j = 0; j < i; j++)
			if (s[j].group == j && coincide(&s[j], &s[i], key)) {
				s[i].group = j;
				break;
			}
	}
	if (hi == lo)
		hi = lo + 1;
	pw = passes > 1 ? (double)(CW - ML - MR) / (double)(passes - 1) : 0;
	fprintf(f, "<figure class=\"%s\" data-node=\"%zu\" data-metric=\"%s\" data-lo=\"%lld\" data-hi=\"%lld\">"
		"<figcaption>node %zu: %s%s</figcaption>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"role=\"img\">\n", diff ? "diffchart" : "chart", n, key, lo, hi, n, title,
		diff ? ", variant &minus; base" : "", CW, CH, CW, CH);
	if (ns)
		shade(f, diff ? s[0].base : s[0].pp, pw);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>"
		"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>\n",
		ML, CH - MB, CW - MR, CH - MB, ML, MT, ML, CH - MB);
	fprintf(f, diff && hi > 0 ? "<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"end\">%+lld</text>" :
		"<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"end\">%lld</text>", ML - 4, MT + 10, hi);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"end\">%lld</text>"
		"<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">pass 1..%zu</text>\n",
		ML - 4, CH - MB, lo, (ML + CW - MR) / 2, CH - 8, passes);
	if (lo < 0)			/* the line of "equal to base" */
		fprintf(f, "<line class=\"zero\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#888\" "
			"stroke-dasharray=\"1 2\"/>\n", ML, ypos(0, lo, hi), CW - MR, ypos(0, lo, hi));
	if (lo < 0 && hi > 0)		/* 0 inside the axis: labelled (at an end, the end's label says it) */
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">0</text>\n", ML - 4,
			ypos(0, lo, hi) + 3);
	for (size_t i = 0; i < ns; i++) {
		size_t m = 0, k = 0;
		double width;

		for (size_t j = 0; j < ns; j++)
			if (s[j].group == s[i].group) {
				m++;
				k += j < i;
			}
		width = 1.5 + 2.0 * (double)(m - 1 - k);	/* the first of a group widest, underneath */
		fputs("<g class=\"series\" data-variant=\"", f);
		esc(f, str(s[i].var, "name"));
		fprintf(f, "\" data-points=\"%zu\" data-group=\"", s[i].n);
		esc(f, str(s[s[i].group].var, "name"));
		fputs("\">\n<polyline class=\"line\" fill=\"none\" stroke-linejoin=\"round\"", f);
		stroke(f, s[i].idx, width);
		fputs(" points=\"", f);
		for (size_t p = 0; p < s[i].n; p++)
			fprintf(f, "%s%.1f,%.1f", p ? " " : "", ML + pw * p, ypos(value(&s[i], p, key), lo, hi));
		fputs("\"/>\n", f);
		for (size_t p = 0; p < s[i].n; p++) {
			size_t above = 0;	/* the variants drawn later with the same value here */

			for (size_t j = i + 1; j < ns; j++)
				above += p < s[j].n && value(&s[j], p, key) == value(&s[i], p, key);
			fprintf(f, "<circle class=\"point\" data-pass=\"%lld\" data-value=\"%lld\" cx=\"%.1f\" "
				"cy=\"%.1f\" r=\"%.1f\" fill=\"%s\">",
				num(json_object_array_get_idx(s[i].pp, p), "pass"), value(&s[i], p, key), ML + pw * p,
				ypos(value(&s[i], p, key), lo, hi), 2.5 + 1.5 * (double)above, colour(s[i].idx));
			point_title(f, s, ns, i, n, p, key);
			fputs("</circle>\n", f);
		}
		fputs("</g>\n", f);
	}
	fputs("</svg>\n", f);
	coincidences(f, s, ns, key);
	fputs("</figure>\n", f);
}

/* The figure key of every variant's passes on node n. */
static void chart(FILE *f, json_object *vs, struct series *s, size_t n, const char *key, const char *title)
{
	size_t ns = 0;

	for (size_t v = 0; v < len_of(vs); v++) {
		json_object *var = json_object_array_get_idx(vs, v);
		json_object *pp = get(json_object_array_get_idx(get(var, "nodes"), n), "per_pass");

		if (series_counted(pp, key))
			s[ns++] = (struct series){ .var = var, .pp = pp, .idx = v, .n = len_of(pp) };
	}
	if (ns)
		plot(f, n, key, title, s, ns, false);
	uncounted_note(f, vs, n, key, len_of(vs));
}

/*
 * Per node, each variant's difference from base: its figure minus base's,
 * pass by pass.  One difference chart per figure, the figures of the
 * charts above: they count different things on different scales (leaf
 * entries by the thousand, PUDs skipped by the unit), so one chart of
 * them all would flatten the small ones to nothing, and one chart of a
 * single "key" figure would hide what another variant changes elsewhere
 * (emptymap changes the leaf entries read, pud the PMD slots and PUDs).
 * A figure where every variant equals base at every pass gets no chart of
 * flat zeros but one line naming it: on s3-cold-pud four of the seven, and
 * the page stays readable.  A variant equal to base in a drawn figure is
 * still a series (on 0) and is named under the chart.
 */
static void differences(FILE *f, json_object *vs, struct series *s, size_t n)
{
	size_t nv = len_of(vs), b = nv, ns = 0, same = 0;
	json_object *bp;

	for (size_t v = 0; v < nv && b == nv; v++)
		if (!strcmp(str(json_object_array_get_idx(vs, v), "name"), "base"))
			b = v;
	fprintf(f, "<h3 id=\"node-%zu-diff\">Node %zu: difference from base</h3>\n", n, n);
	if (b == nv || nv < 2) {
		fputs("<p class=\"nodiff\">No difference charts: ", f);
		if (b == nv) {
			fputs("base is not among the variants (", f);
			for (size_t v = 0; v < nv; v++) {
				fputs(v ? ", " : "", f);
				esc(f, str(json_object_array_get_idx(vs, v), "name"));
			}
			fputs(").</p>\n", f);
		} else {
			fputs("base is the only variant.</p>\n", f);
		}
		return;
	}
	bp = get(json_object_array_get_idx(get(json_object_array_get_idx(vs, b), "nodes"), n), "per_pass");
	for (size_t v = 0; v < nv; v++) {
		json_object *var = json_object_array_get_idx(vs, v);
		json_object *pp = get(json_object_array_get_idx(get(var, "nodes"), n), "per_pass");

		if (v == b)
			continue;
		s[ns++] = (struct series){ .var = var, .pp = pp, .base = bp, .idx = v,
					   .n = len_of(pp) < len_of(bp) ? len_of(pp) : len_of(bp) };
		if (len_of(pp) != len_of(bp)) {
			fputs("<p class=\"diffnote\">", f);
			esc(f, str(var, "name"));
			fprintf(f, " made %zu passes on this node, base %zu: the differences of the first %zu.</p>\n",
				len_of(pp), len_of(bp), s[ns - 1].n);
		}
	}
	fputs("<p class=\"diffnote\">Each variant's figure minus base's at the same pass: above 0 the variant "
	      "counts more than base, below 0 fewer.</p>\n<div class=\"charts\">\n", f);
	for (size_t c = 0; c < NR_CHARTS; c++) {
		const char *key = charts[c][0];
		struct series *t = s + nv;	/* the series that count key, after s[0..ns) */
		size_t nt = 0;
		bool differ = false;

		if (!series_counted(bp, key))
			continue;		/* base counts everything it has; a figure it lacks has no difference */
		for (size_t i = 0; i < ns; i++)
			if (series_counted(s[i].pp, key))
				t[nt++] = s[i];
		for (size_t i = 0; i < nt && !differ; i++)
			differ = t[i].n != len_of(t[i].pp) || t[i].n != len_of(bp) || !all_zero(&t[i], key);
		if (differ)
			plot(f, n, key, charts[c][1], t, nt, true);
		else if (nt)
			same |= 1UL << c;
		uncounted_note(f, vs, n, key, b);
	}
	fputs("</div>\n", f);
	if (same) {
		fputs("<p class=\"samefigs\" data-metrics=\"", f);
		for (size_t c = 0, first = 1; c < NR_CHARTS; c++)
			if (same & (1UL << c)) {
				fprintf(f, "%s%s", first ? "" : " ", charts[c][0]);
				first = 0;
			}
		fputs("\">Every variant equal to base at every pass (no chart): ", f);
		for (size_t c = 0, first = 1; c < NR_CHARTS; c++)
			if (same & (1UL << c)) {
				fprintf(f, "%s%s", first ? "" : ", ", charts[c][1]);
				first = 0;
			}
		fputs(".</p>\n", f);
	}
}

static void node_totals(FILE *f, json_object *vs, size_t n)
{
	static const char *const keys[] = { "passes", "walks", "leaf_total", "young", "pmd_entries_read",
					     "pud_skipped", "evicted", "hot_evicted", "refaults", "oom_kills",
					     "promoted" };

	fputs("<table class=\"totals\"><tr><th>variant</th>", f);
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		fprintf(f, "<th>%s</th>", keys[k]);
	fputs("</tr>\n", f);
	for (size_t v = 0; v < len_of(vs); v++) {
		json_object *var = json_object_array_get_idx(vs, v);
		json_object *node = json_object_array_get_idx(get(var, "nodes"), n);

		fputs("<tr><td>", f);
		esc(f, str(var, "name"));
		fputs("</td>", f);
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			fputs("<td>", f);
			put_num(f, node, keys[k]);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* Rows: regions; columns: their per-pass entries (node, pass); colour: key against its maximum. */
static void heatmap(FILE *f, json_object *var, const char *key, const char *title)
{
	json_object *regions = get(var, "regions");
	size_t cols = 0;
	long long max = 1;
	const int cw = 14, rh = 16, lw = 120;

	for (size_t r = 0; r < len_of(regions); r++)
		if (!series_counted(get(json_object_array_get_idx(regions, r), "per_pass"), key)) {
			fputs("<p class=\"uncounted\" data-variant=\"", f);
			esc(f, str(var, "name"));
			fprintf(f, "\" data-metric=\"%s\">", key);
			esc(f, str(var, "name"));
			fprintf(f, ": %s per region not counted (null in the JSON).</p>\n", title);
			return;
		}
	for (size_t r = 0; r < len_of(regions); r++) {
		json_object *pp = get(json_object_array_get_idx(regions, r), "per_pass");

		cols = len_of(pp) > cols ? len_of(pp) : cols;
		for (size_t c = 0; c < len_of(pp); c++)
			max = num(json_object_array_get_idx(pp, c), key) > max ?
			      num(json_object_array_get_idx(pp, c), key) : max;
	}
	fputs("<figure class=\"heatmap\" data-variant=\"", f);
	esc(f, str(var, "name"));
	fprintf(f, "\" data-metric=\"%s\"><figcaption>", key);
	esc(f, str(var, "name"));
	fprintf(f, ": %s per region and pass (darker: more, up to %lld)</figcaption>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%zu\" height=\"%zu\" role=\"img\">\n", title, max,
		lw + cols * cw + 4, len_of(regions) * rh + 4);
	for (size_t r = 0; r < len_of(regions); r++) {
		json_object *reg = json_object_array_get_idx(regions, r), *pp = get(reg, "per_pass");

		fprintf(f, "<text x=\"0\" y=\"%zu\" font-size=\"11\">", r * rh + 12);
		esc(f, str(reg, "name"));
		fputs("</text>\n", f);
		for (size_t c = 0; c < len_of(pp); c++) {
			json_object *e = json_object_array_get_idx(pp, c);
			int shade = (int)(235 - 200 * (double)num(e, key) / (double)max);

			fprintf(f, "<rect x=\"%zu\" y=\"%zu\" width=\"%d\" height=\"%d\" fill=\"rgb(%d,%d,255)\">"
				"<title>", lw + c * cw, r * rh + 2, cw - 1, rh - 2, shade, shade);
			esc(f, str(reg, "name"));
			fprintf(f, ", node %lld, pass %lld: resident %lld, young ", num(e, "node"), num(e, "pass"),
				num(e, "resident"));
			put_num(f, e, "young");
			fputs(", T ", f);
			put_num(f, e, "leaf_total");
			fputs(", P ", f);
			put_num(f, e, "pmd_entries_read");
			fputs(", S ", f);
			put_num(f, e, "pud_skipped");
			fputs("</title></rect>\n", f);
		}
	}
	fputs("</svg></figure>\n", f);
}

static void findings(FILE *f, json_object *root)
{
	json_object *fs = get(root, "findings");

	fprintf(f, "<h2 id=\"findings\">Findings (%zu)</h2>\n", len_of(fs));
	if (!len_of(fs))
		fputs("<p>No oracle found anything.</p>\n", f);
	for (size_t i = 0; i < len_of(fs); i++) {
		json_object *x = json_object_array_get_idx(fs, i), *known = get(x, "known");

		fprintf(f, "<div class=\"finding\" id=\"finding-%zu\"><div class=\"sig\">", i + 1);
		esc(f, str(x, "signature"));
		fprintf(f, "</div>at event %lld", num(x, "event"));
		if (num(x, "line"))
			fprintf(f, " (line %lld)", num(x, "line"));
		fputs(": <code>", f);
		esc(f, str(x, "event_text"));
		fputs("</code><br>", f);
		esc(f, str(x, "explanation"));
		if (known && json_object_is_type(known, json_type_object)) {
			fputs("<br>known finding; reproducer <a href=\"", f);
			esc(f, str(known, "reproducer"));
			fputs("\">", f);
			esc(f, str(known, "reproducer"));
			fputs("</a>: ", f);
			esc(f, str(known, "explanation"));
		}
		fputs("</div>\n", f);
	}
}

static void khugepaged(FILE *f, json_object *vs)
{
	static const char *const keys[] = { "wakeups", "calls", "full_scans", "progress", "collapsed",
					     "madv_collapsed", "lazyfree_skips" };
	bool any = false;

	for (size_t v = 0; v < len_of(vs); v++)
		any |= num(get(json_object_array_get_idx(vs, v), "khugepaged"), "calls") > 0 ||
		       num(get(json_object_array_get_idx(vs, v), "khugepaged"), "madv_collapsed") > 0;
	if (!any)
		return;
	fputs("<h2>khugepaged</h2>\n<table class=\"khugepaged\"><tr><th>variant</th><th>patched</th>", f);
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		fprintf(f, "<th>%s</th>", keys[k]);
	fputs("</tr>\n", f);
	for (size_t v = 0; v < len_of(vs); v++) {
		json_object *var = json_object_array_get_idx(vs, v), *kh = get(var, "khugepaged");

		fputs("<tr><td>", f);
		esc(f, str(var, "name"));
		fprintf(f, "</td><td>%s</td>", get(kh, "patched") && json_object_get_boolean(get(kh, "patched")) ?
			"yes" : "no");
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			fprintf(f, "<td>%lld</td>", num(kh, keys[k]));
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static int page(FILE *f, json_object *root)
{
	json_object *vs = get(root, "variants");
	size_t nodes = len_of(get(json_object_array_get_idx(vs, 0), "nodes"));
	/* a chart's series, one per variant at most, and a difference chart's filtered copy after them */
	struct series *s = calloc(2 * len_of(vs), sizeof(*s));

	if (!s)
		return -1;
	head(f, root);
	lost(f, root);
	findings(f, root);
	for (size_t n = 0; n < nodes; n++) {
		fprintf(f, "<h2 id=\"node-%zu\">Node %zu</h2>\n", n, n);
		if (!len_of(get(json_object_array_get_idx(get(json_object_array_get_idx(vs, 0), "nodes"), n),
				"per_pass"))) {
			fputs("<p>No aging pass on this node.</p>\n", f);
			continue;
		}
		legend(f, vs);
		fputs("<div class=\"charts\">\n", f);
		for (size_t c = 0; c < NR_CHARTS; c++)
			chart(f, vs, s, n, charts[c][0], charts[c][1]);
		fputs("</div>\n", f);
		node_totals(f, vs, n);
		differences(f, vs, s, n);
	}
	free(s);
	if (len_of(get(json_object_array_get_idx(vs, 0), "regions"))) {
		fputs("<h2 id=\"regions\">Regions</h2>\n<div class=\"charts\">\n", f);
		for (size_t v = 0; v < len_of(vs); v++) {
			heatmap(f, json_object_array_get_idx(vs, v), "resident", "resident pages");
			heatmap(f, json_object_array_get_idx(vs, v), "young", "young entries");
		}
		fputs("</div>\n", f);
	}
	khugepaged(f, vs);
	fputs("</body></html>\n", f);
	return ferror(f) ? -1 : 0;
}

/* ---- the command ------------------------------------------------------------------- */

/* Parse text as one JSON value; on error the byte where it went wrong. */
static json_object *parse(const char *path, const char *text, size_t len, char *why, size_t whylen)
{
	struct json_tokener *tok = json_tokener_new();
	json_object *root;
	enum json_tokener_error e;

	if (!tok) {
		snprintf(why, whylen, "%s: out of memory", path);
		return NULL;
	}
	root = json_tokener_parse_ex(tok, text, (int)len);
	e = json_tokener_get_error(tok);
	if (!root || e != json_tokener_success) {
		snprintf(why, whylen, "%s: byte %zu: not JSON (%s)", path, json_tokener_get_parse_end(tok),
			 e == json_tokener_continue ? "it ends early: truncated" : json_tokener_error_desc(e));
		json_object_put(root);
		root = NULL;
	} else if (json_tokener_get_parse_end(tok) < len && text[json_tokener_get_parse_end(tok)] &&
		   strspn(text + json_tokener_get_parse_end(tok), " \t\r\n") < len - json_tokener_get_parse_end(tok)) {
		snprintf(why, whylen, "%s: byte %zu: more after the JSON report", path, json_tokener_get_parse_end(tok));
		json_object_put(root);
		root = NULL;
	}
	json_tokener_free(tok);
	return root;
}

static int write_page(FILE *f, void *root)
{
	return page(f, root);
}

int aw_report_html_write(const char *json_path, const char *text, size_t len, const char *out, char *err,
			 size_t errlen)
{
	json_object *root = parse(json_path, text, len, err, errlen);
	char why[256];
	int ret = 2;

	if (!root)
		return 2;
	if (check_shape(root, why, sizeof(why)))
		snprintf(err, errlen, "%s: %s", json_path, why);
	else
		ret = aw_output_write(out, write_page, root, err, errlen) ? AW_EXIT_OUTPUT : 0;
	json_object_put(root);
	return ret;
}

int aw_report_html_of(const struct aw_lockstep *ls, const char *extra, const char *name, const char *out,
		      char *err, size_t errlen)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	int ret = AW_EXIT_OUTPUT;

	snprintf(err, errlen, "%s: out of memory", out);
	if (f) {
		aw_report_json(f, ls, extra);
		if (!fclose(f))
			ret = aw_report_html_write(name, buf, n, out, err, errlen);
	}
	free(buf);
	return ret;
}
