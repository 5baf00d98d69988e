// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writing a .awpb whose header is known only at the end: a replayed trace
 * names its processes as it meets them (and renames them at exec), and the
 * header, which holds the names, comes first in the file.  So the events
 * are written as they come to a scratch file next to the output (unnamed:
 * it vanishes with the process), and the commit writes header and events
 * to the output through output.h, which replaces it only once all of it
 * is on disk.  Memory stays that of one event; disk holds the stream twice
 * for a moment.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "awpb.h"
#include "output.h"

int aw_awpb_spool_open(struct aw_awpb_spool *s, const char *path)
{
	memset(s, 0, sizeof(*s));
	s->path = path;
	s->events = aw_output_scratch(path, s->err, sizeof(s->err));
	return s->events ? 0 : -1;
}

int aw_awpb_spool_event(struct aw_awpb_spool *s, const struct aw_event *ev, uint32_t line)
{
	if (s->failed)
		return -1;
	errno = 0;
	if (aw_awpb_write_event(s->events, ev, line)) {
		/* fwrite's errno is fresh here: ENOSPC names the disk, not memory */
		snprintf(s->err, sizeof(s->err), "%s: %s", s->path, strerror(errno ? errno : EIO));
		s->failed = true;
		return -1;
	}
	return 0;
}

/* the spooled events after the header: 0, or -1 with errno */
static int copy(FILE *from, FILE *to)
{
	char buf[1 << 16];
	size_t n;

	if (fflush(from) || fseek(from, 0, SEEK_SET))
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), from)) > 0)
		if (fwrite(buf, 1, n, to) != n)
			return -1;
	return ferror(from) ? -1 : 0;
}

static int write_stream(FILE *f, void *arg)
{
	struct aw_awpb_spool *s = arg;

	return aw_awpb_write_header(f, s->sc) || copy(s->events, f) ? -1 : 0;
}

int aw_awpb_spool_commit(struct aw_awpb_spool *s, const struct aw_scenario *sc)
{
	int ret = -1;

	if (!s->failed) {
		s->sc = sc;
		ret = aw_output_write(s->path, write_stream, s, s->err, sizeof(s->err));
	}
	aw_awpb_spool_abort(s);
	return ret;
}

void aw_awpb_spool_abort(struct aw_awpb_spool *s)
{
	if (s->events) {
		fclose(s->events);
		s->events = NULL;
	}
}
