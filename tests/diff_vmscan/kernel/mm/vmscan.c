// SPDX-License-Identifier: GPL-2.0-only
/*
 * A toy stand-in for mm/vmscan.c for tools/diff-vmscan's test: written
 * for the test, not kernel text.  Its shape is what the tool relies on:
 * functions outside and inside a CONFIG_LRU_GEN section, one name defined
 * twice under #ifdef (the longer definition is the one compared).
 */

static int outside_helper(int x)
{
	return x;
}

#ifdef CONFIG_LRU_GEN

static int count_widgets(int *w, int n)
{
	int i, sum = 0;

	for (i = 0; i < n; i++)
		sum += w[i];
	return sum;
}

#ifdef CONFIG_TOY_FULL
static bool pick_box(int a, int b)
{
	if (a > b)
		return true;
	if (a == b)
		return false;
	if (b - a < 2)
		return false;
	return true;
}
#else
static bool pick_box(int a, int b)
{
	return false;
}
#endif

static void kernel_only_thing(void)
{
}

#else /* !CONFIG_LRU_GEN */

static void stub_outside(void)
{
}

#endif /* CONFIG_LRU_GEN */
