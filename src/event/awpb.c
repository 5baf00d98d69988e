// SPDX-License-Identifier: GPL-2.0-only
/*
 * .awpb reader and writer on top of protobuf-c (agewalk.pb-c.h is generated
 * by protoc-c at build time from agewalk.proto).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "agewalk.pb-c.h"
#include "awpb.h"

/* ---- framing ---------------------------------------------------------- */

static int put_varint(FILE *f, uint64_t v)
{
	uint8_t b[10];
	int n = 0;

	do {
		b[n] = v & 0x7f;
		v >>= 7;
		if (v)
			b[n] |= 0x80;
		n++;
	} while (v);
	return fwrite(b, 1, n, f) == (size_t)n ? 0 : -1;
}

static int put_message(FILE *f, const ProtobufCMessage *m)
{
	size_t len = protobuf_c_message_get_packed_size(m);
	uint8_t stack[256], *buf = len <= sizeof(stack) ? stack : malloc(len);
	int ret = -1;

	if (!buf)
		return -1;
	protobuf_c_message_pack(m, buf);
	if (!put_varint(f, len) && fwrite(buf, 1, len, f) == len)
		ret = 0;
	if (buf != stack)
		free(buf);
	return ret;
}

/* ---- writing ---------------------------------------------------------- */

int aw_awpb_write_header(FILE *f, const struct aw_scenario *sc)
{
	const struct aw_config *cfg = &sc->cfg;
	Agewalk__Header h = AGEWALK__HEADER__INIT;
	Agewalk__EmptyContract ec = AGEWALK__EMPTY_CONTRACT__INIT;
	Agewalk__Node nodes[AW_MAX_NODES], *nodep[AW_MAX_NODES];
	Agewalk__Memcg memcgs[AW_MAX_MEMCGS], *memcgp[AW_MAX_MEMCGS];
	Agewalk__Expect *ex = NULL, **exp = NULL;
	Agewalk__Condition *conds = NULL, **condp = NULL;
	char **rnames = NULL, **pnames = NULL;
	int ret = -1, nc = 0;

	h.format_major = AW_AWPB_MAJOR;
	h.format_minor = AW_AWPB_MINOR;
	h.producer = "agewalk 0.1.0";
	for (int n = 0; n < cfg->nr_nodes; n++) {
		agewalk__node__init(&nodes[n]);
		nodes[n].mem_bytes = cfg->node[n].mem_bytes;
		nodes[n].cpu_mask = cfg->node[n].cpu_mask;
		nodep[n] = &nodes[n];
	}
	h.n_nodes = cfg->nr_nodes;
	h.nodes = nodep;
	h.nr_memcgs = cfg->nr_memcgs;
	for (int m = 0; m < cfg->nr_memcgs; m++) {
		if (!cfg->memcg_limit[m])
			continue;
		agewalk__memcg__init(&memcgs[h.n_memcgs]);
		memcgs[h.n_memcgs].id = m;
		memcgs[h.n_memcgs].limit_bytes = cfg->memcg_limit[m];
		memcgp[h.n_memcgs] = &memcgs[h.n_memcgs];
		h.n_memcgs++;
	}
	h.memcgs = memcgp;
	h.thp = (Agewalk__ThpMode)cfg->thp;
	h.thp_modes = cfg->thp_modes;
	h.swap_bytes = cfg->swap_bytes;
	h.mmap_base = cfg->mmap_base;
	h.skip_empty = cfg->skip_empty;
	if (!aw_empty_contract_is_default(&cfg->empty)) {
		ec.place = cfg->empty.place;
		ec.empty = cfg->empty.pred;
		ec.clock = cfg->empty.clock;
		ec.clear = cfg->empty.clear;
		h.empty_contract = &ec;
	}
	h.layout = (Agewalk__Layout)cfg->layout;
	h.kernel = (Agewalk__KernelProfile)cfg->kernel;
	h.khugepaged_rev = cfg->khugepaged_rev;
	h.khugepaged_prctl_enter = cfg->khugepaged_prctl_enter;

	rnames = calloc(sc->nr_regions + 1, sizeof(*rnames));
	pnames = calloc(sc->nr_procs + 1, sizeof(*pnames));
	ex = calloc(sc->nr_expects + 1, sizeof(*ex));
	exp = calloc(sc->nr_expects + 1, sizeof(*exp));
	conds = calloc((size_t)sc->nr_expects * AW_EXPECT_MAX_CONDS + 1, sizeof(*conds));
	condp = calloc((size_t)sc->nr_expects * AW_EXPECT_MAX_CONDS + 1, sizeof(*condp));
	if (!rnames || !pnames || !ex || !exp || !conds || !condp)
		goto out;
	for (int i = 0; i < sc->nr_regions; i++)
		rnames[i] = sc->region_name ? sc->region_name[i] : "";
	for (int i = 0; i < sc->nr_procs; i++)
		pnames[i] = sc->proc_name ? sc->proc_name[i] : "";
	h.n_region_names = sc->nr_regions;
	h.region_names = rnames;
	h.n_proc_names = sc->nr_procs;
	h.proc_names = pnames;
	for (int i = 0; i < sc->nr_expects; i++) {
		const struct aw_expect *e = &sc->expects[i];

		agewalk__expect__init(&ex[i]);
		ex[i].line = e->line;
		ex[i].thp = e->thp;
		ex[i].pass_lo = e->pass_lo;
		ex[i].pass_hi = e->pass_hi;
		ex[i].variant = (char *)e->var;
		ex[i].node = e->node;
		ex[i].region = e->region;
		ex[i].conds = &condp[nc];
		for (int c = 0; c < e->nr_conds; c++, nc++) {
			agewalk__condition__init(&conds[nc]);
			conds[nc].key = (char *)e->cond[c].key;
			conds[nc].op = e->cond[c].op;
			conds[nc].value = e->cond[c].value;
			condp[nc] = &conds[nc];
		}
		ex[i].n_conds = e->nr_conds;
		exp[i] = &ex[i];
	}
	h.n_expects = sc->nr_expects;
	h.expects = exp;
	if (fwrite(AW_AWPB_MAGIC, 1, AW_AWPB_MAGIC_LEN, f) == AW_AWPB_MAGIC_LEN)
		ret = put_message(f, &h.base);
out:
	free(rnames);
	free(pnames);
	free(ex);
	free(exp);
	free(conds);
	free(condp);
	return ret;
}

int aw_awpb_write_event(FILE *f, const struct aw_event *ev, uint32_t line)
{
	Agewalk__Event e = AGEWALK__EVENT__INIT;
	Agewalk__Args a = AGEWALK__ARGS__INIT;

	a.flags = ev->flags;
	a.region = ev->region;
	a.node = ev->node;
	a.cpu = ev->cpu;
	a.memcg = ev->memcg;
	a.swappiness = ev->swappiness;
	a.pid = ev->pid;
	a.pid2 = ev->pid2;
	a.arg = ev->arg;
	a.repeat = ev->repeat;
	a.addr = ev->addr;
	a.len = ev->len;
	a.stride = ev->stride;
	a.addr2 = ev->addr2;
	a.line = line;
	/* the oneof case number is the kind; every member is an Args */
	e.kind_case = (Agewalk__Event__KindCase)ev->kind;
	e.proc = &a;
	return put_message(f, &e.base);
}

int aw_awpb_write(FILE *f, const struct aw_scenario *sc)
{
	if (aw_awpb_write_header(f, sc))
		return -1;
	for (size_t i = 0; i < sc->nr_events; i++)
		if (aw_awpb_write_event(f, &sc->events[i], sc->event_line ? sc->event_line[i] : 0))
			return -1;
	return fflush(f) ? -1 : 0;
}

/* ---- reading ---------------------------------------------------------- */

static int rerr(struct aw_awpb_reader *r, char *err, size_t errlen, uint64_t at, bool event,
		const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (event)
		snprintf(err, errlen, "%s: event %llu (byte %llu): %s", r->name,
			 (unsigned long long)r->index, (unsigned long long)at, msg);
	else
		snprintf(err, errlen, "%s: byte %llu: %s", r->name, (unsigned long long)at, msg);
	return -1;
}

/*
 * Read one length prefix.  Returns 1 with *len, 0 at a clean end of file
 * (no byte of a prefix read), -1 on a truncated or overlong prefix.
 */
static int get_varint(struct aw_awpb_reader *r, uint64_t *len)
{
	uint64_t v = 0;

	for (int shift = 0; shift < 64; shift += 7) {
		int c = fgetc(r->f);

		if (c == EOF)
			return shift ? -1 : 0;
		r->offset++;
		v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80)) {
			*len = v;
			return 1;
		}
	}
	return -1;
}

/* Read one framed message into r->buf.  Returns 1, 0 at clean EOF, -1. */
static int get_message(struct aw_awpb_reader *r, size_t *len, bool event, char *err, size_t errlen)
{
	uint64_t at = r->offset, n;
	int got = get_varint(r, &n);

	if (got == 0)
		return 0;
	if (got < 0)
		return rerr(r, err, errlen, at, event, "truncated length prefix");
	if (n > AW_AWPB_MAX_MSG)
		return rerr(r, err, errlen, at, event, "message length %llu is larger than the %u-byte limit",
			    (unsigned long long)n, AW_AWPB_MAX_MSG);
	if (n > r->cap) {
		uint8_t *b = realloc(r->buf, n);

		if (!b)
			return rerr(r, err, errlen, at, event, "out of memory");
		r->buf = b;
		r->cap = n;
	}
	if (n && fread(r->buf, 1, n, r->f) != n)
		return rerr(r, err, errlen, at, event,
			    "message of %llu bytes is cut short by the end of the file", (unsigned long long)n);
	r->offset += n;
	*len = n;
	return 1;
}

static int name_table(char (**tab)[AW_MAX_NAME], size_t n, char **src)
{
	*tab = calloc(n ? n : 1, sizeof(**tab));
	if (!*tab)
		return -1;
	for (size_t i = 0; i < n; i++)
		snprintf((*tab)[i], AW_MAX_NAME, "%s", src[i] ? src[i] : "");
	return 0;
}

static int header_to_scenario(const Agewalk__Header *h, struct aw_scenario *sc, const char **why)
{
	struct aw_config *cfg = &sc->cfg;

	if (h->format_major > AW_AWPB_MAJOR) {
		*why = "format version is newer than this agewalk reads";
		return -1;
	}
	if (h->n_nodes < 1 || h->n_nodes > AW_MAX_NODES) {
		*why = "topology needs 1 to 8 nodes";
		return -1;
	}
	if (h->nr_memcgs < 1 || h->nr_memcgs > AW_MAX_MEMCGS) {
		*why = "between 1 and 16 memcgs";
		return -1;
	}
	cfg->nr_nodes = (int)h->n_nodes;
	for (size_t n = 0; n < h->n_nodes; n++) {
		if (h->nodes[n]->mem_bytes < (2U << 20) || h->nodes[n]->mem_bytes > (1ULL << 43)) {
			*why = "node memory out of range (2 MiB .. 8 TiB)";
			return -1;
		}
		cfg->node[n].mem_bytes = h->nodes[n]->mem_bytes;
		cfg->node[n].cpu_mask = h->nodes[n]->cpu_mask;
	}
	cfg->nr_memcgs = (int)h->nr_memcgs;
	for (size_t m = 0; m < h->n_memcgs; m++) {
		if (h->memcgs[m]->id >= h->nr_memcgs) {
			*why = "memcg limit for an undeclared memcg";
			return -1;
		}
		cfg->memcg_limit[h->memcgs[m]->id] = h->memcgs[m]->limit_bytes;
	}
	if ((unsigned)h->thp >= AW_THP_NR_MODES || (unsigned)h->layout >= AW_LAYOUT_NR ||
	    (unsigned)h->kernel >= AW_KERNEL_NR || h->khugepaged_rev > 1 || h->skip_empty > 64 || h->mmap_base >= (1ULL << 47) ||
	    h->swap_bytes > (1ULL << 44) || h->n_region_names > 65535 || h->n_proc_names > 1000000) {
		*why = "header field out of range";
		return -1;
	}
	cfg->thp = (enum aw_thp_mode)h->thp;
	cfg->thp_modes = h->thp_modes & 7;
	cfg->swap_bytes = h->swap_bytes;
	cfg->mmap_base = h->mmap_base;
	cfg->skip_empty = h->skip_empty ? (int)h->skip_empty : 4;
	if (h->empty_contract) {
		const Agewalk__EmptyContract *ec = h->empty_contract;

		if (ec->place > 1 || ec->empty > 1 || ec->clock > 1 || ec->clear > AW_EMPTY_CLEAR_ALL) {
			*why = "empty-mm contract out of range";
			return -1;
		}
		cfg->empty = (struct aw_empty_contract){ (uint8_t)ec->place, (uint8_t)ec->empty,
							 (uint8_t)ec->clock, (uint8_t)ec->clear };
	}
	cfg->layout = (enum aw_layout)h->layout;
	cfg->kernel = (enum aw_kernel_profile)h->kernel;
	cfg->khugepaged_rev = (uint8_t)h->khugepaged_rev;
	cfg->khugepaged_prctl_enter = h->khugepaged_prctl_enter;
	sc->nr_regions = (int)h->n_region_names;
	sc->nr_procs = (int)h->n_proc_names;
	if (name_table(&sc->region_name, h->n_region_names, h->region_names) ||
	    name_table(&sc->proc_name, h->n_proc_names, h->proc_names)) {
		*why = "out of memory";
		return -1;
	}
	sc->expects = calloc(h->n_expects ? h->n_expects : 1, sizeof(*sc->expects));
	if (!sc->expects) {
		*why = "out of memory";
		return -1;
	}
	sc->cap_expects = (int)h->n_expects;
	for (size_t i = 0; i < h->n_expects; i++) {
		const Agewalk__Expect *e = h->expects[i];
		struct aw_expect *x = &sc->expects[i];

		if (e->n_conds > AW_EXPECT_MAX_CONDS || e->region > h->n_region_names || e->thp > 2 ||
		    e->thp < -1) {
			*why = "expectation out of range";
			return -1;
		}
		x->line = (int)e->line;
		x->thp = e->thp;
		x->pass_lo = e->pass_lo;
		x->pass_hi = e->pass_hi;
		snprintf(x->var, sizeof(x->var), "%s", e->variant ? e->variant : "");
		x->node = e->node;
		x->region = (int)e->region;
		x->nr_conds = (int)e->n_conds;
		for (size_t c = 0; c < e->n_conds; c++) {
			snprintf(x->cond[c].key, sizeof(x->cond[c].key), "%s", e->conds[c]->key);
			x->cond[c].op = e->conds[c]->op <= AW_CMP_GT ? (enum aw_cmp)e->conds[c]->op : AW_CMP_EQ;
			x->cond[c].value = e->conds[c]->value;
		}
		sc->nr_expects++;
	}
	return 0;
}

int aw_awpb_open(struct aw_awpb_reader *r, FILE *f, const char *name, struct aw_scenario *sc,
		 char *err, size_t errlen)
{
	char magic[AW_AWPB_MAGIC_LEN];
	Agewalk__Header *h;
	const char *why = NULL;
	size_t len;
	int got, ret;

	memset(r, 0, sizeof(*r));
	r->f = f;
	r->name = name;
	r->sc = sc;
	if (fread(magic, 1, sizeof(magic), f) != sizeof(magic) ||
	    memcmp(magic, AW_AWPB_MAGIC, AW_AWPB_MAGIC_LEN))
		return rerr(r, err, errlen, 0, false, "not an .awpb stream (bad magic)");
	r->offset = AW_AWPB_MAGIC_LEN;
	got = get_message(r, &len, false, err, errlen);
	if (got <= 0)
		return got < 0 ? -1 : rerr(r, err, errlen, r->offset, false, "no header");
	h = agewalk__header__unpack(NULL, len, r->buf);
	if (!h)
		return rerr(r, err, errlen, AW_AWPB_MAGIC_LEN, false, "header is not a valid Header message");
	ret = header_to_scenario(h, sc, &why);
	agewalk__header__free_unpacked(h, NULL);
	if (ret)
		return rerr(r, err, errlen, AW_AWPB_MAGIC_LEN, false, "%s", why);
	return 0;
}

int aw_awpb_next(struct aw_awpb_reader *r, struct aw_event *ev, uint32_t *line, char *err, size_t errlen)
{
	uint64_t at = r->offset;
	Agewalk__Event *e;
	const Agewalk__Args *a;
	size_t len;
	char why[200];
	int got = get_message(r, &len, true, err, errlen);

	if (got <= 0)
		return got;
	e = agewalk__event__unpack(NULL, len, r->buf);
	if (!e)
		return rerr(r, err, errlen, at, true, "not a valid Event message");
	if (e->kind_case == AGEWALK__EVENT__KIND__NOT_SET || (unsigned)e->kind_case >= AW_EV_NR) {
		agewalk__event__free_unpacked(e, NULL);
		return rerr(r, err, errlen, at, true, "unknown event kind");
	}
	a = e->proc;	/* every member of the oneof is an Args */
	memset(ev, 0, sizeof(*ev));
	ev->kind = (uint8_t)e->kind_case;
	if (a->flags > 0xff || a->region > 0xffff || a->node > 0xffff || a->cpu > 0xffff ||
	    a->memcg > 0xffff || a->swappiness > 0xffff) {
		agewalk__event__free_unpacked(e, NULL);
		return rerr(r, err, errlen, at, true, "field wider than the event record");
	}
	ev->flags = (uint8_t)a->flags;
	ev->region = (uint16_t)a->region;
	ev->node = (uint16_t)a->node;
	ev->cpu = (uint16_t)a->cpu;
	ev->memcg = (uint16_t)a->memcg;
	ev->swappiness = (uint16_t)a->swappiness;
	ev->pid = a->pid;
	ev->pid2 = a->pid2;
	ev->arg = a->arg;
	ev->repeat = a->repeat;
	ev->addr = a->addr;
	ev->len = a->len;
	ev->stride = a->stride;
	ev->addr2 = a->addr2;
	if (line)
		*line = a->line;
	agewalk__event__free_unpacked(e, NULL);
	if (aw_event_validate(&r->sc->cfg, r->sc->nr_regions, ev, why, sizeof(why)))
		return rerr(r, err, errlen, at, true, "%s", why);
	r->index++;
	return 1;
}

void aw_awpb_close(struct aw_awpb_reader *r)
{
	free(r->buf);
	r->buf = NULL;
}

int aw_awpb_read_file(const char *path, struct aw_scenario *sc, char *err, size_t errlen)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	struct aw_awpb_reader r;
	struct aw_event ev;
	uint32_t line = 0;	/* set by every aw_awpb_next() that returns > 0; gcc -O3 cannot see it */
	int got;

	if (!f) {
		snprintf(err, errlen, "%s: cannot open", path);
		return -1;
	}
	sc->path = strdup(path);
	if (aw_awpb_open(&r, f, path, sc, err, errlen)) {
		aw_awpb_close(&r);
		if (f != stdin)
			fclose(f);
		return -1;
	}
	while ((got = aw_awpb_next(&r, &ev, &line, err, errlen)) > 0) {
		if (aw_scenario_push(sc, &ev, line)) {
			snprintf(err, errlen, "%s: out of memory at event %llu", path,
				 (unsigned long long)r.index);
			got = -1;
			break;
		}
	}
	aw_awpb_close(&r);
	if (f != stdin)
		fclose(f);
	return got < 0 ? -1 : 0;
}
