// SPDX-License-Identifier: GPL-2.0-only
/* The toy model side of tools/diff-vmscan's test (see ../kernel/mm/vmscan.c). */

static int count_widgets(const int *w, int n)
{
	int sum = 0;

	for (int i = 0; i < n; i++)
		sum   +=   w[i];
	return sum;
}

static bool pick_box(int a, int b)
{
	if (a > b)
		return true;
	return false;
}

/* the model's own: never compared */
static int aw_own_helper(void)
{
	return 0;
}
