// SPDX-License-Identifier: GPL-2.0-only
/*
 * .awpb codec: a round trip, and every kind of bad input the format issue
 * names, each rejected with its position (byte offset or event index).
 */
#include <stdlib.h>
#include <string.h>

#include "aw_test.h"
#include "awpb.h"

static const char *const src =
	"topology T2\nswap 8G\nthp always\nlayout small\nkernel 6.12\nkhugepaged_rev v8\nkhugepaged_prctl_enter on\nmemcg 1 limit 2G\n"
	"proc P cpu 2 memcg 1\nmmap P C 1G at 0x7f0000000000\nwrite P C stride 2M repeat 3\n"
	"age node 1 memcg 1 force 1 swappiness 100\nexpect var=pud node=1 region=C pass=2.. young==0\n";

/* Encode the scenario above into a heap buffer. */
static uint8_t *encode(size_t *len)
{
	struct aw_scenario sc;
	char err[256], *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	aw_scenario_init(&sc);
	CHECK_EQ(aw_aws_parse_string("t.aws", src, &sc, err, sizeof(err)), 0);
	CHECK_EQ(aw_awpb_write(f, &sc), 0);
	fclose(f);
	aw_scenario_free(&sc);
	*len = n;
	return (uint8_t *)buf;
}

static int decode(const uint8_t *buf, size_t len, struct aw_scenario *sc, char *err, size_t errlen)
{
	FILE *f = fmemopen((void *)buf, len, "rb");
	struct aw_awpb_reader r;
	struct aw_event ev;
	uint32_t line;
	int got;

	if (!f)
		return -2;
	if (aw_awpb_open(&r, f, "t.awpb", sc, err, errlen)) {
		aw_awpb_close(&r);
		fclose(f);
		return -1;
	}
	while ((got = aw_awpb_next(&r, &ev, &line, err, errlen)) > 0)
		aw_scenario_push(sc, &ev, line);
	aw_awpb_close(&r);
	fclose(f);
	return got;
}

static void test_round_trip(void)
{
	size_t len;
	uint8_t *buf = encode(&len);
	struct aw_scenario a, b;
	char err[256];

	aw_scenario_init(&a);
	aw_scenario_init(&b);
	CHECK_EQ(aw_aws_parse_string("t.aws", src, &a, err, sizeof(err)), 0);
	CHECK_EQ(decode(buf, len, &b, err, sizeof(err)), 0);
	CHECK_EQ(b.nr_events, a.nr_events);
	CHECK(!memcmp(a.events, b.events, a.nr_events * sizeof(*a.events)));
	CHECK(!memcmp(&a.cfg, &b.cfg, sizeof(a.cfg)));
	CHECK_EQ(b.nr_expects, 1);
	CHECK_STR(b.expects[0].var, "pud");
	CHECK_EQ(b.expects[0].pass_lo, 2);
	CHECK_EQ(b.expects[0].pass_hi, -1);
	CHECK_STR(b.region_name[0], "C");
	CHECK_EQ(b.event_line[2], 11);	/* the write is on line 11 */
	CHECK_EQ(b.cfg.kernel, AW_KERNEL_6_12);
	CHECK_EQ(b.cfg.khugepaged_rev, 1);
	CHECK(b.cfg.khugepaged_prctl_enter);
	aw_scenario_free(&a);
	aw_scenario_free(&b);
	free(buf);
}

/* Decode and expect an error whose text contains want. */
static void expect_error(const uint8_t *buf, size_t len, const char *want)
{
	struct aw_scenario sc;
	char err[256] = "";
	int got;

	aw_scenario_init(&sc);
	got = decode(buf, len, &sc, err, sizeof(err));
	CHECK_EQ(got, -1);
	if (!strstr(err, want))
		fprintf(stderr, "  got error '%s', wanted '%s'\n", err, want);
	CHECK(strstr(err, want) != NULL);
	aw_scenario_free(&sc);
}

static void test_bad_magic(void)
{
	size_t len;
	uint8_t *buf = encode(&len);

	buf[0] = 'X';
	expect_error(buf, len, "byte 0: not an .awpb stream (bad magic)");
	expect_error(buf, 3, "bad magic");	/* shorter than the magic */
	free(buf);
}

static void test_truncated(void)
{
	size_t len;
	uint8_t *buf = encode(&len);
	struct aw_scenario sc;
	char err[256];

	/* cutting the last byte cuts the last event's message short */
	expect_error(buf, len - 1, "event 3 (byte");
	expect_error(buf, len - 1, "cut short by the end of the file");
	/* a stream that ends right after a whole event is fine */
	aw_scenario_init(&sc);
	CHECK_EQ(decode(buf, len, &sc, err, sizeof(err)), 0);
	CHECK_EQ(sc.nr_events, 4);
	aw_scenario_free(&sc);
	/* the header itself cut short */
	expect_error(buf, AW_AWPB_MAGIC_LEN + 2, "byte 8: message of");
	free(buf);
}

/* Append one raw event message (kind case, args bytes) to a valid header. */
static uint8_t *with_event(const uint8_t *ev, size_t evlen, size_t *len)
{
	size_t n;
	uint8_t *base = encode(&n), *hdr_end;
	uint8_t *out;
	uint64_t hlen = 0;
	int shift = 0, i = AW_AWPB_MAGIC_LEN;

	/* keep magic + header only */
	do {
		hlen |= (uint64_t)(base[i] & 0x7f) << shift;
		shift += 7;
	} while (base[i++] & 0x80);
	hdr_end = base + i + hlen;
	n = (size_t)(hdr_end - base);
	out = malloc(n + 1 + evlen);
	memcpy(out, base, n);
	out[n] = (uint8_t)evlen;
	memcpy(out + n + 1, ev, evlen);
	*len = n + 1 + evlen;
	free(base);
	return out;
}

static void test_bad_events(void)
{
	size_t len;
	uint8_t *buf;
	/* field 40 (not in the oneof): kind not set */
	static const uint8_t unknown[] = { 0xc2, 0x02, 0x00 };
	/* age (21) with node = 7: node not in a 2-node topology */
	static const uint8_t bad_node[] = { 0xaa, 0x01, 0x02, 0x18, 0x07 };
	/* access (15) pid 1, addr = 2^47 */
	static const uint8_t bad_addr[] = { 0x7a, 0x0c, 0x38, 0x01, 0x58, 0x80, 0x80, 0x80, 0x80,
					    0x80, 0x80, 0x20, 0x60, 0x01 };
	/* munmap (9) pid 1, len 0 */
	static const uint8_t zero_len[] = { 0x4a, 0x02, 0x38, 0x01 };
	/* a length prefix claiming 100 MB */
	static const uint8_t huge[] = { 0x80, 0x80, 0x80, 0x30 };

	buf = with_event(unknown, sizeof(unknown), &len);
	expect_error(buf, len, "event 0 (byte");
	expect_error(buf, len, "unknown event kind");
	free(buf);
	buf = with_event(bad_node, sizeof(bad_node), &len);
	expect_error(buf, len, "node 7 is not in the topology");
	free(buf);
	buf = with_event(bad_addr, sizeof(bad_addr), &len);
	expect_error(buf, len, "beyond the 47-bit user address space");
	free(buf);
	buf = with_event(zero_len, sizeof(zero_len), &len);
	expect_error(buf, len, "munmap of length 0");
	free(buf);
	/* the huge prefix replaces the event: with_event writes its own length byte,
	 * so build this one by hand after a valid header */
	buf = with_event(huge, 0, &len);
	buf = realloc(buf, len - 1 + sizeof(huge));
	memcpy(buf + len - 1, huge, sizeof(huge));
	expect_error(buf, len - 1 + sizeof(huge), "larger than the 1048576-byte limit");
	free(buf);
}

static void test_newer_major(void)
{
	/* magic + header { format_major: 2, nodes {mem 16G} nr_memcgs 1 } */
	static const uint8_t hdr[] = { 'A', 'W', 'P', 'B', 0x01, '\r', '\n', 0x1a,
				       0x0b, 0x08, 0x02, 0x22, 0x05, 0x08, 0x80, 0x80, 0x80, 0x40, 0x28, 0x01 };

	expect_error(hdr, sizeof(hdr), "format version is newer");
}

int main(void)
{
	RUN(test_round_trip);
	RUN(test_bad_magic);
	RUN(test_truncated);
	RUN(test_bad_events);
	RUN(test_newer_major);
	return aw_test_report("test_awpb");
}
