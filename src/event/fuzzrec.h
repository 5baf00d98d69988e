/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The byte layout of a fuzz input (fuzzin.h says what the fields mean):
 * a 16-byte header, then fixed 16-byte records.  The decoder, the encoder
 * and the mutators all read and write the bytes through the names and
 * helpers here, so that a field moved or widened is moved in one place
 * and the three cannot drift apart.
 *
 * Everything is static inline: the decoder reads a record per event on
 * the fuzz targets' hot path, and each helper must compile to the plain
 * byte load or store it replaces.
 */
#ifndef AW_FUZZREC_H
#define AW_FUZZREC_H

#include <stddef.h>
#include <stdint.h>

#define AW_FUZZ_HEADER		16
#define AW_FUZZ_RECORD		16

/* Header fields: byte offsets, one byte each. */
enum aw_fuzz_hdr_field {
	AW_FH_NODES = 0,	/* 2 + b % 2 nodes */
	AW_FH_THP = 1,		/* THP mode b % 3 (the khugepaged target folds never) */
	AW_FH_VARIANT = 2,	/* patched variant b % 3: pud, emptymap, rfc */
	AW_FH_SKIP_EMPTY = 3,	/* skip_empty 1 + b % 8 */
	AW_FH_MEMCG_LIMIT = 4,	/* memcg limit in 4 MiB units, b % 64 (0 = none) */
	AW_FH_SWAP = 5,		/* b % 4 == 0: no swap, else 512 MiB */
	AW_FH_EMPTY_CONTRACT = 6,	/* the empty-mm contract, bits below (0: the default) */
	AW_FH_KERNEL = 7,	/* kernel profile b % 3: mainline, 6.12, 6.1 (enum aw_kernel_profile) */
	AW_FH_KHUGEPAGED = 8,	/* bit 0: khugepaged series v8; bit 1: prctl enabling THP registers */
	AW_FH_NR_USED = 9,	/* bytes 9-15 are reserved: kept by the mutator, ignored */
};

/*
 * Record fields: byte offsets.  OFF and LEN are little-endian u16; the
 * kinds that need a wider argument read ARG and REPEAT as one u16 (mremap's
 * new size) or LEN as a value (a khugepaged knob store): the aliases name
 * those readings.
 */
enum aw_fuzz_rec_field {
	AW_FR_KIND = 0,		/* b % AW_FUZZ_NR_KINDS */
	AW_FR_FLAGS = 1,
	AW_FR_PROC = 2,		/* process b % AW_FUZZ_PROCS (pid - 1) */
	AW_FR_REGION = 3,	/* region b % AW_FUZZ_REGIONS (region - 1) */
	AW_FR_NODE = 4,
	AW_FR_CPU = 5,
	AW_FR_OFF = 6,		/* u16: page offset */
	AW_FR_LEN = 8,		/* u16: length in pages - 1 */
	AW_FR_ARG = 10,		/* advice, prot, lock, limit, knob... */
	AW_FR_REPEAT = 11,
	AW_FR_RESERVED = 12,	/* bytes 12-15: kept by the mutator, ignored */

	AW_FR_NEWSIZE = AW_FR_ARG,	/* u16 (ARG low, REPEAT high): mremap's new size - 1 */
	AW_FR_KH_VALUE = AW_FR_LEN,	/* u16: a khugepaged knob store's value */
};

_Static_assert(AW_FR_OFF + 2 == AW_FR_LEN && AW_FR_LEN + 2 == AW_FR_ARG &&
	       AW_FR_ARG + 1 == AW_FR_REPEAT && AW_FR_RESERVED + 4 == AW_FUZZ_RECORD,
	       "fuzz record fields overlap or leave a gap");
_Static_assert(AW_FH_NR_USED <= AW_FUZZ_HEADER, "fuzz header fields beyond the header");

/* The record kinds (appended only, so that old inputs keep their meaning). */
enum aw_fuzz_kind {
	AW_FK_READ, AW_FK_WRITE, AW_FK_AGE, AW_FK_AGE_FORCED, AW_FK_EVICT, AW_FK_MMAP,
	AW_FK_MUNMAP, AW_FK_MADVISE, AW_FK_MIGRATE, AW_FK_RUN, AW_FK_FORK, AW_FK_EXIT,
	AW_FK_PROC, AW_FK_AGE_BEGIN, AW_FK_AGE_STEP, AW_FK_AGE_END, AW_FK_CONTEND,
	AW_FK_MPROTECT, AW_FK_MREMAP, AW_FK_LIMIT, AW_FK_TIME,
	AW_FK_KHUGEPAGED, AW_FK_KH_SET, AW_FK_PRCTL,
	AW_FK_PREAD, AW_FK_PWRITE,
	AW_FUZZ_NR_KINDS
};

/*
 * AW_FH_EMPTY_CONTRACT: bit 0 place after get_next_mm(), bit 1 "empty" is
 * no leaves, bit 2 the node's pass clock, bit 3 migrations do NOT clear,
 * bits 4-6 huge, minor and collapse clear (so that 0, the byte of every
 * input made before it, is the default contract).
 */
#define AW_FH_EC_AFTER		0x01
#define AW_FH_EC_NO_LEAVES	0x02
#define AW_FH_EC_PASS_CLOCK	0x04
#define AW_FH_EC_NO_MIGRATION	0x08
#define AW_FH_EC_CLEAR_SHIFT	4	/* bits 4-6: AW_EMPTY_CLEAR_{HUGE,MINOR,COLLAPSE} >> 1 */

#define AW_FUZZ_EXACT		0x08	/* record flag: mmap/madvise ranges as given */
#define AW_FUZZ_DROPPABLE	0x10	/* record flag: mmap MAP_DROPPABLE */

/* Whole records after the header in size bytes (a partial one does not count). */
static inline size_t aw_fuzz_nr_records(size_t size)
{
	return size > AW_FUZZ_HEADER ? (size - AW_FUZZ_HEADER) / AW_FUZZ_RECORD : 0;
}

/* Record i of an input; callers keep i below aw_fuzz_nr_records(). */
static inline uint8_t *aw_fuzz_rec(uint8_t *data, size_t i)
{
	return data + AW_FUZZ_HEADER + i * AW_FUZZ_RECORD;
}

static inline const uint8_t *aw_fuzz_rec_const(const uint8_t *data, size_t i)
{
	return data + AW_FUZZ_HEADER + i * AW_FUZZ_RECORD;
}

static inline uint8_t aw_fuzz_hdr_get(const uint8_t *hdr, enum aw_fuzz_hdr_field f)
{
	return hdr[f];
}

static inline void aw_fuzz_hdr_set(uint8_t *hdr, enum aw_fuzz_hdr_field f, uint32_t v)
{
	hdr[f] = (uint8_t)v;
}

static inline uint8_t aw_fuzz_rec_get(const uint8_t *rec, enum aw_fuzz_rec_field f)
{
	return rec[f];
}

/* Stores the low byte of v. */
static inline void aw_fuzz_rec_set(uint8_t *rec, enum aw_fuzz_rec_field f, uint32_t v)
{
	rec[f] = (uint8_t)v;
}

static inline uint16_t aw_fuzz_rec_get_u16(const uint8_t *rec, enum aw_fuzz_rec_field f)
{
	return (uint16_t)(rec[f] | rec[f + 1] << 8);
}

/* Stores the low 16 bits of v, little-endian. */
static inline void aw_fuzz_rec_set_u16(uint8_t *rec, enum aw_fuzz_rec_field f, uint32_t v)
{
	rec[f] = (uint8_t)v;
	rec[f + 1] = (uint8_t)(v >> 8);
}

/* The kind a record decodes as (the kind byte folded into range). */
static inline enum aw_fuzz_kind aw_fuzz_rec_kind(const uint8_t *rec)
{
	return (enum aw_fuzz_kind)(rec[AW_FR_KIND] % AW_FUZZ_NR_KINDS);
}

#endif /* AW_FUZZREC_H */
