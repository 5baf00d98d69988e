// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writing a .awpb whose header is known only at the end: a replayed trace
 * names its processes as it meets them (and renames them at exec), and the
 * header, which holds the names, comes first in the file.  So the events
 * are written as they come to a spool file next to the output, and the
 * commit writes header and events into a temporary file that is renamed
 * over the output.  Memory stays that of one event; disk holds the stream
 * twice for a moment.  A reader never sees a half-written file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "awpb.h"

int aw_awpb_spool_open(struct aw_awpb_spool *s, const char *path)
{
	memset(s, 0, sizeof(*s));
	s->path = path;
	snprintf(s->events_tmp, sizeof(s->events_tmp), "%s.events.tmp.%ld", path, (long)getpid());
	s->events = fopen(s->events_tmp, "w+b");
	return s->events ? 0 : -1;
}

int aw_awpb_spool_event(struct aw_awpb_spool *s, const struct aw_event *ev, uint32_t line)
{
	if (s->failed || aw_awpb_write_event(s->events, ev, line)) {
		s->failed = true;
		return -1;
	}
	return 0;
}

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

int aw_awpb_spool_commit(struct aw_awpb_spool *s, const struct aw_scenario *sc)
{
	char tmp[sizeof(s->events_tmp) + 8];
	FILE *f;
	int ret = -1;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", s->path, (long)getpid());
	f = s->failed ? NULL : fopen(tmp, "wb");
	if (f && !aw_awpb_write_header(f, sc) && !copy(s->events, f) && !fflush(f) && !fsync(fileno(f))) {
		ret = fclose(f);
		f = NULL;
		if (!ret)
			ret = rename(tmp, s->path);
	}
	if (f)
		fclose(f);
	if (ret)
		unlink(tmp);
	aw_awpb_spool_abort(s);
	return ret;
}

void aw_awpb_spool_abort(struct aw_awpb_spool *s)
{
	if (s->events) {
		fclose(s->events);
		unlink(s->events_tmp);
		s->events = NULL;
	}
}
