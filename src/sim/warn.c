// SPDX-License-Identifier: GPL-2.0-only
/* Warning state of one simulated kernel (warn.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warn.h"

/* Remember the site; false if it had printed before. */
static bool first_at_site(struct aw_warn *w, const char *file, int line)
{
	for (int i = 0; i < w->nr_sites; i++)
		if (w->sites[i].line == line && !strcmp(w->sites[i].file, file))
			return false;
	/* a site the table has no room for prints at every hit: never silent */
	if (w->nr_sites < AW_WARN_SITES)
		w->sites[w->nr_sites++] = (struct aw_warn_site){ .file = file, .line = line };
	return true;
}

static void warn_hit(struct aw_warn *w, const char *cond, const char *file, int line, bool print)
{
	if (!w->count++)
		snprintf(w->first, sizeof(w->first), "%s:%d: %s", file, line, cond);
	if (!print)
		return;
	fprintf(stderr, "agewalk: WARNING: %s:%d: %s\n", file, line, cond);
	if (w->abort) {
		fflush(stderr);
		abort();
	}
}

void aw_warn(struct aw_warn *w, const char *cond, const char *file, int line)
{
	warn_hit(w, cond, file, line, first_at_site(w, file, line));
}

void aw_warn_always(struct aw_warn *w, const char *cond, const char *file, int line)
{
	warn_hit(w, cond, file, line, true);
}
