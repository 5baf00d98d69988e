# SPDX-License-Identifier: GPL-2.0-only
# agewalk-exec: a scenario on the real kernel it runs on (docs/lab.md,
# "The executor").  Static, so the lab's initramfs needs nothing else; it
# parses scenarios with the project's own parser and never links the model.
find_library(AW_PROTOBUF_C_STATIC NAMES libprotobuf-c.a)
add_library(agewalk_lab STATIC
  src/lab/exec_lrugen.c
  src/lab/exec_knobs.c
  src/lab/exec_pagemap.c
  src/lab/exec_machine.c
  src/lab/exec_worker.c
  src/lab/exec_file.c
  src/lab/exec_aging.c
  src/lab/exec_memstat.c
  src/lab/exec_plan.c
  src/lab/exec_place.c
  src/lab/exec_kprobe.c
  src/lab/exec_khtrace.c
  src/lab/exec_json.c
)
# the event layer's headers only: its link interface names the shared
# protobuf-c, which a static link cannot take
target_include_directories(agewalk_lab PUBLIC src/lab
  $<TARGET_PROPERTY:agewalk_event,INTERFACE_INCLUDE_DIRECTORIES>)
add_dependencies(agewalk_lab agewalk_event)

add_executable(agewalk-exec src/lab/exec_main.c)
# A sanitizer runtime does not link statically: not with AGEWALK_SANITIZE,
# nor with -fsanitize in CFLAGS (the ClusterFuzzLite build.sh); those
# builds are never booted in the lab.
if(AW_PROTOBUF_C_STATIC AND NOT AGEWALK_SANITIZE AND NOT CMAKE_C_FLAGS MATCHES "-fsanitize")
  target_link_options(agewalk-exec PRIVATE -static)
  target_link_libraries(agewalk-exec PRIVATE agewalk_lab $<TARGET_FILE:agewalk_event>
                        $<TARGET_FILE:agewalk_proto> ${AW_PROTOBUF_C_STATIC})
else()
  target_link_libraries(agewalk-exec PRIVATE agewalk_lab agewalk_event)
endif()
add_dependencies(agewalk-exec agewalk_event agewalk_proto)
