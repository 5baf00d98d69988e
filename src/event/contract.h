/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The RFC's empty-mm skip has no code, and its cover letter leaves four
 * choices open; the model makes each an option (docs/oracles.md, "The
 * RFC's empty-mm skip").  The defaults are the contract the model has
 * always implemented:
 *
 *   place  where the skip sits: inside get_next_mm(), before the mm is
 *          handed out (get-next-mm), or after it, by the walker (after);
 *   empty  what a walk must find for the mark: no leaf associated with the
 *          lruvec (associated: MM_LEAF_ASSOCIATED == 0), or no leaf at all
 *          (no-leaves: MM_LEAF_TOTAL == 0, the seed's v3 1/4 gate);
 *   clock  what counts the skip_empty passes: one counter per (mm, node),
 *          advanced by each pass that considers the mm (mm), or the node's
 *          own passes since the mark (pass);
 *   clear  what clears the marks, for every node: major faults always,
 *          and any of migration (default), huge (a THP's first-touch
 *          fault), minor (a small page's first-touch fault), collapse
 *          (khugepaged or MADV_COLLAPSE made a THP of the mm's pages).
 *
 * Text form, one word per key, keys in any order and each optional:
 * "place=after empty=no-leaves clock=pass clear=major+huge+collapse"
 * (`empty_contract` in .aws; commas for spaces in --empty-contract).
 */
#ifndef AW_CONTRACT_H
#define AW_CONTRACT_H

#include <stddef.h>
#include <stdint.h>

enum aw_empty_place { AW_EMPTY_IN_GET_NEXT_MM, AW_EMPTY_AFTER_GET_NEXT_MM };
enum aw_empty_pred { AW_EMPTY_NO_ASSOCIATED, AW_EMPTY_NO_LEAVES };
enum aw_empty_clock { AW_EMPTY_CLOCK_MM, AW_EMPTY_CLOCK_PASS };

/* what clears the marks besides a major fault (bits of .clear) */
#define AW_EMPTY_CLEAR_MIGRATION	0x1
#define AW_EMPTY_CLEAR_HUGE		0x2
#define AW_EMPTY_CLEAR_MINOR		0x4
#define AW_EMPTY_CLEAR_COLLAPSE		0x8
#define AW_EMPTY_CLEAR_ALL		0xf

struct aw_empty_contract {
	uint8_t place, pred, clock, clear;
};

#define AW_EMPTY_CONTRACT_DEFAULT \
	((struct aw_empty_contract){ .clear = AW_EMPTY_CLEAR_MIGRATION })

/*
 * Parse words separated by sep (' ' or ',') into *c, starting from the
 * default; 0, or -1 with a one-line message naming the word in err.
 */
int aw_empty_contract_parse(const char *s, char sep, struct aw_empty_contract *c, char *err, size_t errlen);
/* The full text form, keys in the order above, words separated by sep. */
void aw_empty_contract_format(const struct aw_empty_contract *c, char sep, char *buf, size_t len);
int aw_empty_contract_is_default(const struct aw_empty_contract *c);

#endif /* AW_CONTRACT_H */
