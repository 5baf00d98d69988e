/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * .awpb event streams (src/event/agewalk.proto, docs/format.md): magic,
 * a length-delimited Header, then length-delimited Events.  Reading is
 * incremental: one event in memory at a time, never more than
 * AW_AWPB_MAX_MSG bytes allocated from a length the file claims.
 */
#ifndef AW_AWPB_H
#define AW_AWPB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "scenario.h"

#define AW_AWPB_MAGIC		"AWPB\x01\r\n\x1a"
#define AW_AWPB_MAGIC_LEN	8
#define AW_AWPB_MAJOR		1
#define AW_AWPB_MINOR		4	/* 1.1: Header.layout; 1.2: Header.kernel; 1.3: Header.khugepaged_*;
					   1.4: Event.fdio */
#define AW_AWPB_MAX_MSG		(1U << 20)	/* 1 MiB per message */

struct aw_awpb_reader {
	FILE *f;
	const char *name;		/* for messages */
	uint64_t offset;		/* bytes consumed so far */
	uint64_t index;			/* events read so far */
	const struct aw_scenario *sc;	/* the header's config, for validation */
	uint8_t *buf;
	size_t cap;
};

/* Writing: the header (config, names, expectations), then events. */
int aw_awpb_write_header(FILE *f, const struct aw_scenario *sc);
int aw_awpb_write_event(FILE *f, const struct aw_event *ev, uint32_t line);
int aw_awpb_write(FILE *f, const struct aw_scenario *sc);

/*
 * A stream whose header is final only at the end (awpb_spool.c): events
 * spooled into an unnamed scratch file beside PATH as they come, then
 * header + events written to PATH through output.h by commit().  Each
 * returns 0 or -1; after -1, err holds "PATH: reason" (the disk's errno
 * for a failed write).  abort() drops the spool.
 */
struct aw_awpb_spool {
	const char *path;
	FILE *events;
	const struct aw_scenario *sc;	/* commit's header */
	bool failed;
	char err[512];
};
int aw_awpb_spool_open(struct aw_awpb_spool *s, const char *path);
int aw_awpb_spool_event(struct aw_awpb_spool *s, const struct aw_event *ev, uint32_t line);
int aw_awpb_spool_commit(struct aw_awpb_spool *s, const struct aw_scenario *sc);
void aw_awpb_spool_abort(struct aw_awpb_spool *s);

/*
 * Reading.  Errors are one line "NAME: byte OFFSET: message" or
 * "NAME: event INDEX (byte OFFSET): message" in err; the functions return -1.
 */
int aw_awpb_open(struct aw_awpb_reader *r, FILE *f, const char *name, struct aw_scenario *sc,
		 char *err, size_t errlen);
/* 1: an event was read; 0: clean end of stream; -1: error */
int aw_awpb_next(struct aw_awpb_reader *r, struct aw_event *ev, uint32_t *line, char *err, size_t errlen);
void aw_awpb_close(struct aw_awpb_reader *r);
/* Whole file into a scenario (events included). */
int aw_awpb_read_file(const char *path, struct aw_scenario *sc, char *err, size_t errlen);

/*
 * Range and identity checks every decoded event passes before the model
 * sees it (src/event/validate.c).  Returns 0, or -1 with a reason in why.
 */
int aw_event_validate(const struct aw_config *cfg, int nr_regions, const struct aw_event *ev,
		      char *why, size_t whylen);

#endif /* AW_AWPB_H */
