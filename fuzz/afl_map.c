// SPDX-License-Identifier: GPL-2.0-only
/*
 * AFL++'s coverage map read as edge flags (issue 32, docs/fuzzing.md
 * "AFL++"): the counterpart of libFuzzer's -use_counters=0
 * (lf_defaults.c).  AFL++ reads each map entry's hit count in buckets
 * (1, 2, 3, 4-7, ... 128+), and the model's loops run once per page or
 * PTE, so every table size an input made was new coverage and the queue
 * filled with inputs that differed only in how many pages they touched.
 * With AGEWALK_AFL_EDGE_FLAGS=1, state_features.c calls aw_afl_map_flags()
 * at the end of each input, after the last instrumented edge of the model
 * has run: every entry that was hit reads 1.  Not the default: in
 * bench/time-to-bug it found no planted bug more often than AFL++'s own
 * hit counts did (docs/fuzzing.md "AFL++").
 *
 * Built with the plain host compiler, not afl-clang-fast: that compiler's
 * pass adds its own declaration of __afl_area_ptr to every module it
 * instruments, and a second one (the one below) is renamed apart and
 * left unresolved.  The map and its last index are afl-compiler-rt's
 * (AFL++ 4.x): __afl_area_ptr, and __afl_final_loc, which the
 * forkserver reported to afl-fuzz as the map's size less one.
 */
#include <stdint.h>

extern uint8_t *__afl_area_ptr;
extern uint32_t __afl_final_loc;

void aw_afl_map_flags(void);

void aw_afl_map_flags(void)
{
	uint8_t *map = __afl_area_ptr;

	for (uint32_t i = 0; i <= __afl_final_loc; i++)
		map[i] = map[i] != 0;
}
