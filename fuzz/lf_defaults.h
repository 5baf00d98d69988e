/* SPDX-License-Identifier: GPL-2.0-only */
/* libFuzzer feature settings added to the command line (lf_defaults.c). */
#ifndef AW_FUZZ_LF_DEFAULTS_H
#define AW_FUZZ_LF_DEFAULTS_H

/*
 * Add agewalk's libFuzzer settings that *argv does not set itself, after
 * argv[0]; *argc and *argv are replaced (the old array is left alone).
 * Nothing with AGEWALK_LIBFUZZER_DEFAULTS=0, or out of memory.
 */
void aw_lf_add_defaults(int *argc, char ***argv);

#endif /* AW_FUZZ_LF_DEFAULTS_H */
