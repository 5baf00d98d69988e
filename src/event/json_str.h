/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A JSON string literal, for the reports every layer writes (`agewalk run
 * --json`, `agewalk-exec --json`): the base layer holds it so that the
 * model's report and the real kernel's, which must read alike, escape alike.
 */
#ifndef AW_JSON_STR_H
#define AW_JSON_STR_H

#include <stdio.h>

/* s as a quoted JSON string: '"' and '\' escaped, control bytes as \u00XX; NULL is "". */
void aw_json_str(FILE *out, const char *s);

#endif /* AW_JSON_STR_H */
