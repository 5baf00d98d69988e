// SPDX-License-Identifier: GPL-2.0-only
/*
 * agewalk report RUN.json -o REPORT.html: the HTML page (replay/report_html.h)
 * of a `run --json` or `replay --json` report.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report_html.h"

struct report {
	const char *in, *out;
};

static const struct aw_po_option options[] = {
	{ "output", 'o', AW_PO_STRING, "REPORT.html", .off = offsetof(struct report, out), .flags = AW_PO_NEEDED,
	  .syn = "-o REPORT.html" },
	{ .kind = AW_PO_END },
};

const struct aw_po_cmd aw_report_cmd = {
	.name = "report", .args = "RUN.json", .opts = options, .one = "report", .one_off = offsetof(struct report, in),
	.notes =
	"  RUN.json ('-': stdin) from either of\n"
	"       agewalk run --json FILE.aws >RUN.json\n"
	"       agewalk replay --json FILE.dat >RUN.json\n"
	"  Writes one self-contained HTML page (inline SVG: per node and pass the\n"
	"  figures of every variant, the regions' residency and young heatmaps,\n"
	"  the findings, khugepaged); hover a point for its exact figures\n",
};

int aw_cmd_report(int argc, char **argv)
{
	struct report r = { 0 };
	char err[512];
	uint8_t *text;
	size_t len;
	int ret = aw_po_parse(&aw_report_cmd, &r, argc, argv);

	if (ret)
		return ret == AW_PO_HELP ? 0 : 2;
	if (!r.in || !r.out)
		return aw_usage_error("report", !r.in ? "no RUN.json" : "no -o REPORT.html");
	text = aw_slurp(r.in, AW_REPORT_MAX_BYTES, &len);
	if (!text) {
		fprintf(stderr, "agewalk report: %s: cannot read: %s\n", r.in, errno ? strerror(errno) : "too large");
		return 2;
	}
	ret = aw_report_html_write(r.in, (const char *)text, len, r.out, err, sizeof(err));
	free(text);
	if (ret)
		fprintf(stderr, "agewalk report: %s\n", err);
	return ret;
}
