/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A replay: a trace.dat recording (or several) ingested under stated
 * policies (src/trace, tracedat.h), the converted events run by the
 * variants in lockstep as they are made (pipeline.h), and the report side
 * by side with what the recording itself says: a text table, or JSON,
 * and optionally an HTML page (report_html.h), the converted stream
 * (.awpb) and a walk log.  `agewalk replay` (src/cli/replay_cmd.c) is its
 * command line.
 */
#ifndef AW_REPLAY_H
#define AW_REPLAY_H

#include <stdbool.h>

#include "lockstep.h"
#include "tracedat.h"

struct aw_replay_opts {
	struct aw_trace_opts t;		/* the inputs and the ingestion's policies */
	/*
	 * The model options of the command line (variants, planted bugs,
	 * kernel profile ...: aw_model_opts_apply()); the replay sets thp,
	 * oracles, keep_going and walk_log itself.
	 */
	struct aw_lockstep_opts model;
	bool json, keep_going;
	bool mem_stats;			/* --mem-stats: where the memory went, one line on stderr */
	/*
	 * 1: inline; 2: reading and the run on two threads; 3: the variants
	 * split over two of them as well (pipeline.h), where they can be
	 */
	int threads;
	const char *save, *walk_log, *html;	/* --save-stream, --walk-log, --html: NULL for none */
};

/*
 * Replay o's recording and print the report on stdout (findings on
 * stderr with --json).  The exit status: 0, 1 a finding, 2 bad input,
 * AW_EXIT_OUTPUT an output that cannot be written; one line on stderr.
 */
int aw_replay(const struct aw_replay_opts *o);

#endif /* AW_REPLAY_H */
