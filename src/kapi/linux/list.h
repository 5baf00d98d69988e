/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Circular doubly linked lists with the names and meaning of
 * include/linux/list.h, for the model's lists (the generation lists
 * lrugen->folios[gen][type], linked through folio->lru, the per-memcg mm
 * lists, khugepaged's mm slots) and for kernel text, which walks the same
 * lists on the model's folios (list_add(&folio->lru, ...), lru_to_folio(),
 * list_for_each_entry_safe_reverse()).  Our own text.
 *
 * One difference: list_del() leaves the entry pointing at itself
 * (list_del_init()) instead of poisoning it, so list_empty(&folio->lru)
 * tells the model whether a folio is on a list, and deleting an entry that
 * is on none does nothing.  Kernel text cannot tell: it never reads an
 * entry after list_del() (in the kernel that faults on the poison).
 */
#ifndef AW_KAPI_LINUX_LIST_H
#define AW_KAPI_LINUX_LIST_H

#include <stdbool.h>

#include "linux/compiler.h"
#include "linux/container_of.h"

struct list_head {
	struct list_head *next, *prev;
};

/* include/linux/list_nulls.h: the types only (kernel text's lru_gen_mm_walk names them) */
struct hlist_nulls_node {
	struct hlist_nulls_node *next, **pprev;
};
struct hlist_nulls_head {
	struct hlist_nulls_node *first;
};

#define LIST_HEAD_INIT(name)	{ &(name), &(name) }
#define LIST_HEAD(name)		struct list_head name = LIST_HEAD_INIT(name)

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

/* Unlink e from its neighbours; e itself is left as it was. */
static inline void __list_del_entry(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
}

static inline void list_del_init(struct list_head *e)
{
	__list_del_entry(e);
	INIT_LIST_HEAD(e);
}
/* Unlink e; it is left an empty list of its own (see the comment at the top). */
static inline void list_del(struct list_head *e) { list_del_init(e); }

static inline void list_move(struct list_head *e, struct list_head *h)
{
	__list_del_entry(e);
	list_add(e, h);
}
static inline void list_move_tail(struct list_head *e, struct list_head *h)
{
	__list_del_entry(e);
	list_add_tail(e, h);
}

static inline bool list_empty(const struct list_head *h) { return READ_ONCE(h->next) == h; }
static inline bool list_is_singular(const struct list_head *h) { return !list_empty(h) && h->next == h->prev; }

/* Move every entry of list (in order) to the head end of h; list is left as it was. */
static inline void list_splice(const struct list_head *list, struct list_head *head)
{
	if (!list_empty(list)) {
		struct list_head *first = list->next, *last = list->prev, *at = head->next;

		first->prev = head;
		head->next = first;
		last->next = at;
		at->prev = last;
	}
}
static inline void list_splice_init(struct list_head *list, struct list_head *head)
{
	list_splice(list, head);
	INIT_LIST_HEAD(list);
}

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

#endif /* AW_KAPI_LINUX_LIST_H */
