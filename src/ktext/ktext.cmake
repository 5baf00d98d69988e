# SPDX-License-Identifier: GPL-2.0-only
#
# Kernel-text variants (docs/ktext.md): the MGLRU code of real kernel trees,
# extracted at build time by tools/ktext-extract and compiled against the
# shim in this folder, one object per tree with the tree's own prefix.
#
#   -DAGEWALK_KERNEL_TREES=auto
#       Debian's linux-source-6.12 and linux-source-6.1 tarballs (installed
#       with apt-get when missing and the build runs as root): the variants
#       k6.12, k6.12+pud (the ported series in src/ktext/series/pud-v3) and
#       k6.1, and the khugepaged-only tree k6.12+khugepaged (the port in
#       src/ktext/series/khugepaged-v7).
#   -DAGEWALK_KERNEL_TREES="NAME=PATH[+SERIES];..."
#       PATH is a kernel tree or a linux-source tarball; SERIES a folder of
#       patches with a quilt `series` file, applied before extraction: a
#       name under src/ktext/series/, or a path (it has a '/') to the
#       user's own.  A series folder with a file `khugepaged-only` makes a
#       khugepaged-only tree: its khugepaged text joins aw_kh_variants[],
#       and no MGLRU variant is made (its MGLRU text is the tree's own;
#       tools/ktext-extract --kh-only checks that).
#
# Without the option the library has no variants and test_ktext skips.
set(AGEWALK_KERNEL_TREES "" CACHE STRING
    "Kernel trees to build kernel-text variants from: auto, or NAME=PATH[+SERIES];...")
set(AGEWALK_KTEXT_CACHE "$ENV{HOME}/.cache/agewalk-ktext" CACHE PATH
    "Where files extracted from linux-source tarballs are kept between builds")
# bench/ktext-coverage: gcov counters on the generated per-tree files only
# (the kernel's text and the shim fragments they include), in a build
# directory of its own
option(AGEWALK_KTEXT_COVERAGE "Build the kernel-text variants with --coverage (bench/ktext-coverage)" OFF)
if(AGEWALK_KTEXT_COVERAGE)
  add_link_options(--coverage)
endif()

set(AW_KTEXT_DIR ${PROJECT_SOURCE_DIR}/src/ktext)
set(AW_KTEXT_OUT ${CMAKE_BINARY_DIR}/ktext)
file(MAKE_DIRECTORY ${AW_KTEXT_OUT})

# The Debian package for a /usr/src/linux-source-X.Y.tar.xz that is missing.
function(aw_ktext_fetch tarball)
  if(EXISTS ${tarball})
    return()
  endif()
  string(REGEX MATCH "linux-source-[0-9.]+" pkg ${tarball})
  find_program(APT_GET apt-get)
  execute_process(COMMAND id -u OUTPUT_VARIABLE uid OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT pkg OR NOT APT_GET OR NOT uid STREQUAL "0")
    message(FATAL_ERROR "AGEWALK_KERNEL_TREES=auto: ${tarball} is missing; "
            "install it (apt-get install ${pkg}) or name your own trees")
  endif()
  message(STATUS "agewalk: apt-get install ${pkg}")
  execute_process(COMMAND ${APT_GET} install -y -qq ${pkg} RESULT_VARIABLE rc OUTPUT_QUIET)
  if(NOT rc EQUAL 0 OR NOT EXISTS ${tarball})
    message(FATAL_ERROR "AGEWALK_KERNEL_TREES=auto: apt-get install ${pkg} failed (${rc}); "
            "run apt-get update, or name your own trees")
  endif()
endfunction()

set(aw_trees ${AGEWALK_KERNEL_TREES})
if(aw_trees STREQUAL "auto")
  aw_ktext_fetch(/usr/src/linux-source-6.12.tar.xz)
  aw_ktext_fetch(/usr/src/linux-source-6.1.tar.xz)
  set(aw_trees "k6.12=/usr/src/linux-source-6.12.tar.xz")
  if(EXISTS ${AW_KTEXT_DIR}/series/pud-v3/series)
    list(APPEND aw_trees "k6.12+pud=/usr/src/linux-source-6.12.tar.xz+pud-v3")
  endif()
  if(EXISTS ${AW_KTEXT_DIR}/series/khugepaged-v7/series)
    list(APPEND aw_trees "k6.12+khugepaged=/usr/src/linux-source-6.12.tar.xz+khugepaged-v7")
  endif()
  list(APPEND aw_trees "k6.1=/usr/src/linux-source-6.1.tar.xz")
endif()

set(aw_objects)
set(aw_decls)
set(aw_refs)
set(aw_kh_decls)
set(aw_kh_refs)
set(aw_names)
set(aw_kh_names)
set(AW_KTEXT_NAMES)	# the variants built, for the tests
set(AW_KTEXT_KH_NAMES)	# the trees with khugepaged text (the variants and the khugepaged-only trees)
if(aw_trees)
  find_package(Python3 COMPONENTS Interpreter REQUIRED)
  foreach(prog ctags unifdef patch)
    find_program(AW_${prog} ${prog})
    if(NOT AW_${prog})
      message(FATAL_ERROR "AGEWALK_KERNEL_TREES needs ${prog} (Debian: universal-ctags, unifdef, patch)")
    endif()
  endforeach()
  file(GLOB aw_shim ${AW_KTEXT_DIR}/*.h ${AW_KTEXT_DIR}/*.inc.c)
  file(GLOB_RECURSE aw_kapi ${PROJECT_SOURCE_DIR}/src/kapi/*.h)
  list(APPEND aw_shim ${aw_kapi})
endif()
foreach(entry ${aw_trees})
  if(NOT entry MATCHES "^([A-Za-z0-9.+_-]+)=([^+]+)(\\+(.+))?$")
    message(FATAL_ERROR "AGEWALK_KERNEL_TREES: '${entry}' is not NAME=PATH[+SERIES]")
  endif()
  set(name ${CMAKE_MATCH_1})
  get_filename_component(tree ${CMAKE_MATCH_2} ABSOLUTE)
  set(series ${CMAKE_MATCH_4})
  set(kh_only OFF)
  if(NOT EXISTS ${tree})
    message(FATAL_ERROR "AGEWALK_KERNEL_TREES: ${name}: ${tree}: no such tree or tarball")
  endif()
  string(MAKE_C_IDENTIFIER ${name} cname)
  set(args --tree ${tree} --name ${name} --shim ${AW_KTEXT_DIR} --kapi ${PROJECT_SOURCE_DIR}/src/kapi --roots ${AW_KTEXT_DIR}/roots.txt
      --cache ${AGEWALK_KTEXT_CACHE} --cc ${CMAKE_C_COMPILER})
  # khugepaged's text (mm/khugepaged.c) goes into a file of its own per tree
  set(kh_out ${AW_KTEXT_OUT}/${cname}_kh.c)
  list(APPEND args --kh-roots ${AW_KTEXT_DIR}/roots-khugepaged.txt --kh-out ${kh_out})
  set(deps ${PROJECT_SOURCE_DIR}/tools/ktext-extract ${AW_KTEXT_DIR}/roots.txt
      ${AW_KTEXT_DIR}/roots-khugepaged.txt ${aw_shim})
  if(NOT IS_DIRECTORY ${tree})
    list(APPEND deps ${tree})
  endif()
  if(series)
    # a folder of src/ktext/series/ by name, or a path (the user's own series)
    if(series MATCHES "/")
      get_filename_component(sdir ${series} ABSOLUTE)
    else()
      set(sdir ${AW_KTEXT_DIR}/series/${series})
    endif()
    if(NOT EXISTS ${sdir}/series)
      message(FATAL_ERROR "AGEWALK_KERNEL_TREES: ${name}: no series '${series}' (a folder of "
              "src/ktext/series/, or a path to a folder with a quilt series file)")
    endif()
    file(GLOB spatches ${sdir}/*.patch)
    list(APPEND args --series ${sdir})
    list(APPEND deps ${sdir}/series ${spatches})
    if(EXISTS ${sdir}/khugepaged-only)
      set(kh_only ON)
      list(APPEND deps ${sdir}/khugepaged-only)
    endif()
  endif()
  set(out ${AW_KTEXT_OUT}/${cname}.c)
  if(kh_only)
    # khugepaged text only: no MGLRU file, no MGLRU variant (its text is the tree's own)
    set(out)
    list(APPEND args --kh-only)
  else()
    list(APPEND args --out ${out})
  endif()
  add_custom_command(OUTPUT ${out} ${kh_out}
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/ktext-extract ${args}
    DEPENDS ${deps}
    COMMENT "ktext-extract ${name}"
    VERBATIM)
  # kernel text is built with the kernel's own warnings, not the project's,
  # and outside link-time optimization (clang 14's ThinLTO linker crashed
  # linking it into the agewalk command)
  # -fno-sanitize=pointer-overflow: the kernel steps a NULL pte pointer on
  # purpose (6.12's __collapse_huge_page_swapin(): "if (!pte++)"), as its
  # own build (no UBSan pointer-overflow) allows
  set_source_files_properties(${out} ${kh_out} PROPERTIES COMPILE_OPTIONS
    "-fno-sanitize=pointer-overflow;-Wno-sign-compare;-Wno-unused-function;-Wno-shadow;-Wno-missing-field-initializers;-Wno-unused-variable;-Wno-unused-but-set-variable;-fno-lto")
  if(AGEWALK_KTEXT_COVERAGE)
    # every extracted function emitted, called or not: a line never run is counted
    set_property(SOURCE ${out} ${kh_out} APPEND PROPERTY COMPILE_OPTIONS
                 "--coverage;-O0;-fkeep-static-functions;-fkeep-inline-functions")
  endif()
  list(APPEND aw_objects ${out} ${kh_out})
  string(APPEND aw_kh_decls "extern const struct aw_kh_ops aw_${cname}_kh_ops;\n")
  string(APPEND aw_kh_refs "\t&aw_${cname}_kh_ops,\n")
  string(REGEX REPLACE "^k" "kh" khname ${name})
  string(APPEND aw_kh_names ", ${khname}")
  list(APPEND AW_KTEXT_KH_NAMES ${name})
  if(NOT kh_only)
    string(APPEND aw_decls "extern const struct aw_ktext_ops aw_${cname}_ops;\n")
    string(APPEND aw_refs "\t&aw_${cname}_ops,\n")
    string(APPEND aw_names ", ${name}")
    list(APPEND AW_KTEXT_NAMES ${name})
  endif()
endforeach()

set(aw_registry ${AW_KTEXT_OUT}/ktext_variants.c)
file(CONFIGURE OUTPUT ${aw_registry} CONTENT
"/* generated by src/ktext/ktext.cmake from AGEWALK_KERNEL_TREES */
#include <stddef.h>
#include \"ktext_variants.h\"
#include \"ktext_kh_api.h\"
${aw_decls}${aw_kh_decls}
const struct aw_ktext_ops *const aw_ktext_variants[] = {
${aw_refs}\tNULL
};

const char aw_ktext_variant_names[] = \"${aw_names}\";

/* khugepaged's text of each tree (ktext_kh_api.h) */
const struct aw_kh_ops *const aw_kh_variants[] = {
${aw_kh_refs}\tNULL
};

const char aw_kh_variant_names[] = \"${aw_kh_names}\";
const char aw_kbind_variant_names[] = \"${aw_names}${aw_kh_names}\";
")
add_library(agewalk_ktext STATIC ${aw_objects} ${aw_registry} ${AW_KTEXT_DIR}/ktext_find.c)
target_include_directories(agewalk_ktext PUBLIC ${AW_KTEXT_DIR})
# split aging runs the text's try_to_inc_max_seq() on a walker thread (ktext_bind.inc.c)
find_package(Threads REQUIRED)
target_link_libraries(agewalk_ktext PUBLIC agewalk_kapi Threads::Threads)
