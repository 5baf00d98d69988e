# SPDX-License-Identifier: GPL-2.0-only
#
# Installing agewalk and packaging it as a .deb.
#
#   cmake --install build [--prefix DIR]     the program, agewalk(1), bash completion
#   cd build && cpack                         build/agewalk_VERSION_ARCH.deb
#
# The man page and the completion are generated at build time from the
# program's own texts (tools/agewalk-man: the --help texts;
# tools/agewalk-completion: agewalk --dump-options), both made from the
# commands' option tables (src/cli/parse_options.h): they cannot drift from
# what the commands parse.  bench/deb-check builds the .deb,
# installs it into a throwaway root and runs it; CTest `install.files`
# installs into a temporary DESTDIR and renders the page.
include(GNUInstallDirs)

set(AW_MAN ${CMAKE_BINARY_DIR}/man/agewalk.1)
set(AW_COMPLETION ${CMAKE_BINARY_DIR}/completion/agewalk)
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/man ${CMAKE_BINARY_DIR}/completion)
find_program(GZIP gzip REQUIRED)
# gzip -n: no name or time stamp in the .gz, so two builds give the same
# bytes.  In sanitizer builds the program is instrumented: no leak check
# while it prints its texts (as for the fuzz seeds, fuzz/CMakeLists.txt).
set(AW_RUN_TEXTS ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0)
add_custom_command(OUTPUT ${AW_MAN} ${AW_MAN}.gz
  COMMAND ${AW_RUN_TEXTS} ${PROJECT_SOURCE_DIR}/tools/agewalk-man $<TARGET_FILE:agewalk-cli> ${AW_MAN}
  COMMAND ${GZIP} -9nkf ${AW_MAN}
  DEPENDS agewalk-cli ${PROJECT_SOURCE_DIR}/tools/agewalk-man
  COMMENT "agewalk(1) from agewalk's --help texts")
add_custom_command(OUTPUT ${AW_COMPLETION}
  COMMAND ${AW_RUN_TEXTS} ${PROJECT_SOURCE_DIR}/tools/agewalk-completion $<TARGET_FILE:agewalk-cli>
          ${AW_COMPLETION}
  DEPENDS agewalk-cli ${PROJECT_SOURCE_DIR}/tools/agewalk-completion
  COMMENT "bash completion from agewalk's option tables")
add_custom_target(agewalk-man ALL DEPENDS ${AW_MAN}.gz ${AW_COMPLETION})

install(TARGETS agewalk-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${AW_MAN}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
# where bash-completion looks for a command's file, under any prefix in XDG_DATA_DIRS
install(FILES ${AW_COMPLETION} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)

# The .deb.  Depends names the packages of the libraries the program links
# (readelf -d: libtracecmd.so.1, libtraceevent.so.1, libprotobuf-c.so.1,
# libc.so.6; dpkg -S names their packages) with the lower bounds
# dpkg-shlibdeps derives from their symbols files on Debian 12 (for
# libtraceevent1 it derives "5.4", below the package's epoch 1: any
# libtraceevent1 will do).  bench/deb-check checks that every NEEDED
# library belongs to a package named here and compares with dpkg-shlibdeps.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME agewalk)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "agewalk maintainers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "model of Linux MGLRU aging, eviction and khugepaged for reviewing walk-skipping patches")
set(CPACK_PACKAGE_DESCRIPTION
    "agewalk runs the mainline MGLRU walker and patched walkers (PUD-level Bloom filter,
empty-mm skip, changed khugepaged) side by side over .aws scenarios, .awpb streams
and trace.dat recordings, checks invariants after every event and reports what
each walked, skipped, promoted and evicted.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libc6 (>= 2.34), libjson-c5 (>= 0.15), libprotobuf-c1 (>= 1.3.1), libtracecmd1 (>= 3.1.4), libtraceevent1")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "trace-cmd, bash-completion, man-db")
include(CPack)
