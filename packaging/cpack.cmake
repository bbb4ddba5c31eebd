# Install rules and a Debian package (CPack DEB) for the GUI `fusescope` and the CLI
# `fusescope-cli`. Included once from the top-level CMakeLists.txt, after app/ is added.
#   cmake --build build/release --target package      -> build/release/fusescope_<ver>_amd64.deb
include(GNUInstallDirs)
# Debian wants the documentation folder named after the package, not the project.
set(fusescope_docdir ${CMAKE_INSTALL_DATADIR}/doc/fusescope)

set(fusescope_programs fusescope fusescope-cli)

# CUPTI has no static library: the measurement layer keeps it in a module (fusescope_cupti,
# installed by kernels/measure into lib/fusescope, where the programs look for it) that is loaded
# at run time. The package carries CUPTI privately beside that module (no clash with a system
# toolkit); the portable bundle (make-bundle.sh) leaves CUPTI out and uses the machine's.
set(fusescope_private_libdir lib/fusescope)
set(fusescope_cupti_libraries "")
if(FUSESCOPE_HAVE_CUDA AND TARGET fusescope_cupti AND TARGET CUDA::cupti)
  foreach(name libcupti.so.13 libnvperf_host.so libnvperf_target.so)
    find_file(fusescope_${name}_path ${name}
      HINTS ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_TARGET_DIR}/lib ${CUDAToolkit_TARGET_DIR}/lib64
      NO_DEFAULT_PATH)
    if(fusescope_${name}_path)
      list(APPEND fusescope_cupti_libraries ${fusescope_${name}_path})
    endif()
  endforeach()
  set_target_properties(fusescope_cupti PROPERTIES INSTALL_RPATH "$ORIGIN")
  install(FILES ${fusescope_cupti_libraries} DESTINATION ${fusescope_private_libdir})
endif()

foreach(program IN LISTS fusescope_programs)
  install(TARGETS ${program} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endforeach()

install(FILES ${PROJECT_SOURCE_DIR}/resources/fusescope.desktop
  DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${PROJECT_SOURCE_DIR}/resources/fusescope.svg
  DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
install(FILES ${PROJECT_SOURCE_DIR}/resources/fusescope.metainfo.xml
  DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
# The file type of recordings and sweeps (*.fusescope.json) for file managers; dpkg's
# shared-mime-info trigger updates the database.
install(FILES ${PROJECT_SOURCE_DIR}/resources/fusescope-mime.xml
  DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages RENAME fusescope.xml)
# Recordings made on a real GPU (runs, size and tile sweeps), for machines without one: the
# programs look for them in share/fusescope/recordings beside their bin/ folder
# (model/recording_catalog.h).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/recordings/
  DESTINATION ${CMAKE_INSTALL_DATADIR}/fusescope/recordings
  OPTIONAL FILES_MATCHING PATTERN "*.json")
# Lesson plans (docs/lesson-plans.md), found in share/fusescope/lessons the same way.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/lessons/
  DESTINATION ${CMAKE_INSTALL_DATADIR}/fusescope/lessons
  FILES_MATCHING PATTERN "*.lesson.md")
# The learner kernels lesson steps open in the Lab (its starters and the lab's solution), in
# share/fusescope/lab.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/lab/
  DESTINATION ${CMAKE_INSTALL_DATADIR}/fusescope/lab
  FILES_MATCHING PATTERN "*.cu")
install(FILES ${PROJECT_SOURCE_DIR}/packaging/debian/copyright
  ${PROJECT_SOURCE_DIR}/packaging/THIRD-PARTY-LICENSES
  DESTINATION ${fusescope_docdir})

# Manual pages, gzipped reproducibly as Debian wants them.
foreach(page fusescope.1 fusescope-cli.1)
  set(fusescope_page_gz ${CMAKE_CURRENT_BINARY_DIR}/${page}.gz)
  add_custom_command(OUTPUT ${fusescope_page_gz}
    COMMAND gzip -9 -n -c ${PROJECT_SOURCE_DIR}/packaging/man/${page} > ${fusescope_page_gz}
    DEPENDS ${PROJECT_SOURCE_DIR}/packaging/man/${page} VERBATIM)
  list(APPEND fusescope_man_pages ${fusescope_page_gz})
endforeach()
add_custom_target(fusescope_man_pages ALL DEPENDS ${fusescope_man_pages})
install(FILES ${fusescope_man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

install(FILES ${PROJECT_SOURCE_DIR}/packaging/debian/lintian-overrides
  DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides RENAME fusescope)

# Debian wants a gzipped changelog in the doc folder; make it reproducibly (-n: no timestamp).
set(fusescope_changelog_gz ${CMAKE_CURRENT_BINARY_DIR}/changelog.Debian.gz)
add_custom_command(OUTPUT ${fusescope_changelog_gz}
  COMMAND gzip -9 -n -c ${PROJECT_SOURCE_DIR}/packaging/debian/changelog > ${fusescope_changelog_gz}
  DEPENDS ${PROJECT_SOURCE_DIR}/packaging/debian/changelog VERBATIM)
add_custom_target(fusescope_changelog ALL DEPENDS ${fusescope_changelog_gz})
install(FILES ${fusescope_changelog_gz} DESTINATION ${fusescope_docdir})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME fusescope)
set(CPACK_PACKAGE_VENDOR "FuseScope")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "makes GPU memory passes visible")
set(CPACK_PACKAGE_INSTALL_DIRECTORY fusescope)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# A Debian revision makes this a non-native package, whose changelog is changelog.Debian.gz.
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "FuseScope maintainers <fusescope@example.org>")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://example.org/fusescope")
# CPack puts the summary on the first line and indents these lines; an empty line becomes " .".
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "FuseScope runs the fusion lessons' pipelines (an affine chain, the SwiGLU
activation and a Transformer's SwiGLU MLP) in unfused and fused variants as real
CUDA kernels, or on the CPU, checks them
against a CPU reference and shows what moved through memory: passes and bytes
by a pass model, measured times against the copy roofline, and the allocation
in flight, as tables and charts that can be exported for lessons.

The package holds the Qt 6 GUI (fusescope) and the command line program
(fusescope-cli), whose JSON recordings open in the GUI on any machine.")
# Computes Depends from the programs' libraries; CUDA's runtime is static and the driver's
# libcuda.so.1 is found at run time (it belongs to the NVIDIA driver, not to Debian's archive).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(fusescope_shlibdeps_private_dirs "")
if(fusescope_cupti_libraries)
  list(APPEND fusescope_shlibdeps_private_dirs ${CUDAToolkit_LIBRARY_DIR})
  # CPack adds ldconfig calls for libraries below /usr/lib; lintian-overrides explains them.
endif()
if(FUSESCOPE_HAVE_CUDA AND EXISTS ${CUDAToolkit_LIBRARY_DIR}/stubs/libcuda.so)
  # dpkg-shlibdeps looks libcuda.so.1 up by its SONAME; the toolkit's stub answers for it.
  set(fusescope_driver_stub_dir ${CMAKE_CURRENT_BINARY_DIR}/driver-stub)
  file(MAKE_DIRECTORY ${fusescope_driver_stub_dir})
  file(CREATE_LINK ${CUDAToolkit_LIBRARY_DIR}/stubs/libcuda.so
    ${fusescope_driver_stub_dir}/libcuda.so.1 SYMBOLIC)
  list(APPEND fusescope_shlibdeps_private_dirs ${fusescope_driver_stub_dir})
endif()
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${fusescope_shlibdeps_private_dirs})
include(CPack)
