# SPDX-License-Identifier: GPL-2.0-only
# The lab guest's /init (src/lab/lab_init.c, docs/lab.md): a static
# program, since the initramfs has no libraries.  Not with the sanitizers
# or a fuzz engine's instrumentation, whose runtimes do not link
# statically; those builds are for the model, never booted.
if(AGEWALK_FUZZ_ENGINE STREQUAL "none")
  add_executable(agewalk-lab-init src/lab/lab_init.c)
  target_compile_options(agewalk-lab-init PRIVATE -fno-sanitize=all)
  target_link_options(agewalk-lab-init PRIVATE -static -fno-sanitize=all)
endif()
