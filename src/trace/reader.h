/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The record loop of one trace ingestion (reader.c): each buffer's format
 * resolved against the event table (tev.h) once per (re)open, then every
 * record dispatched by its event id to the table's handler.  tracedat.c
 * sets the reader up and runs it.
 */
#ifndef AW_READER_H
#define AW_READER_H

#include <stddef.h>
#include <stdint.h>

#include "source.h"
#include "tev.h"

struct aw_reader {
	struct aw_ingest in;
	struct aw_tsource src;
	struct aw_tres *res;			/* the current record's buffer's */
	char *err;
	size_t errlen;
	uint64_t progress_at;
	double started;
};

/* buf's format against the table, once per (re)open of its file: 0, or -1 out of memory. */
int aw_reader_resolve_buf(struct aw_reader *r, struct aw_tbuf *buf);
/* Every record of every input, in replay order: 0, or -1 with r->err set. */
int aw_reader_read(struct aw_reader *r);
/* The comm the saved cmdlines give pid, NULL if none (the ingest's comm_of, ctx = the reader). */
const char *aw_reader_comm(void *ctx, int pid);
/* Each buffer's resolved format freed. */
void aw_reader_free(struct aw_reader *r);

#endif /* AW_READER_H */
