// SPDX-License-Identifier: GPL-2.0-only
/* The toy model side of tools/diff-vmscan's test: a function the kernel lacks. */

static int model_only_helper(void)
{
	return 1;
}
