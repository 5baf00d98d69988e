/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Circular doubly linked lists with the names and meaning of
 * include/linux/list.h, for the model's lists: the generation lists
 * (lrugen->folios[gen][type], linked through folio->lru), the per-memcg mm
 * lists and khugepaged's mm slots.  Our own text; only what the model uses.
 *
 * Kernel text that walks these lists (list_add(&folio->lru, ...),
 * lru_to_folio(), list_for_each_entry_safe_reverse()) reads the same here,
 * so that the kernel's own functions can one day run on the model's
 * folios.  One difference: list_del() leaves the entry pointing at itself
 * (list_del_init()) instead of poisoning it, so list_empty(&folio->lru)
 * tells whether a folio is on a list, and deleting an entry that is on none
 * does nothing.
 */
#ifndef AW_LIST_H
#define AW_LIST_H

#include <stdbool.h>
#include <stddef.h>

struct list_head {
	struct list_head *next, *prev;
};

#ifndef container_of
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
#endif

static inline void INIT_LIST_HEAD(struct list_head *h) { h->next = h->prev = h; }

/* Link n in between two neighbours that are next to each other. */
static inline void __list_add(struct list_head *n, struct list_head *prev, struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

/* right after h: the head end of a list (a stack) */
static inline void list_add(struct list_head *n, struct list_head *h) { __list_add(n, h, h->next); }
/* right before h: the tail end of a list (a queue) */
static inline void list_add_tail(struct list_head *n, struct list_head *h) { __list_add(n, h->prev, h); }

/* Unlink n; it is left an empty list of its own (see the comment at the top). */
static inline void list_del_init(struct list_head *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	INIT_LIST_HEAD(n);
}
static inline void list_del(struct list_head *n) { list_del_init(n); }

static inline void list_move(struct list_head *n, struct list_head *h)
{
	list_del_init(n);
	list_add(n, h);
}
static inline void list_move_tail(struct list_head *n, struct list_head *h)
{
	list_del_init(n);
	list_add_tail(n, h);
}

static inline bool list_empty(const struct list_head *h) { return h->next == h; }

/* Move every entry of list (in order) to the tail end of h; list is left empty. */
static inline void list_splice_tail_init(struct list_head *list, struct list_head *h)
{
	if (list_empty(list))
		return;
	list->next->prev = h->prev;
	h->prev->next = list->next;
	list->prev->next = h;
	h->prev = list->prev;
	INIT_LIST_HEAD(list);
}

#define list_entry(ptr, type, member)		container_of(ptr, type, member)
#define list_first_entry(h, type, member)	list_entry((h)->next, type, member)
#define list_last_entry(h, type, member)	list_entry((h)->prev, type, member)
#define list_next_entry(pos, member)		list_entry((pos)->member.next, __typeof__(*(pos)), member)
#define list_prev_entry(pos, member)		list_entry((pos)->member.prev, __typeof__(*(pos)), member)
#define list_entry_is_head(pos, h, member)	(&(pos)->member == (h))

/* from the head end to the tail end */
#define list_for_each_entry(pos, h, member)					\
	for (pos = list_first_entry(h, __typeof__(*(pos)), member);		\
	     !list_entry_is_head(pos, h, member);				\
	     pos = list_next_entry(pos, member))

/* from the tail end back, pos may be unlinked or moved in the body */
#define list_for_each_entry_safe_reverse(pos, n, h, member)			\
	for (pos = list_last_entry(h, __typeof__(*(pos)), member),		\
	     n = list_prev_entry(pos, member);					\
	     !list_entry_is_head(pos, h, member);				\
	     pos = n, n = list_prev_entry(n, member))

#endif /* AW_LIST_H */
