# Precompiled headers for a cold build (CI, a fresh clone): most of the compile time of a Qt file
# is spent parsing QtWidgets, QCustomPlot and QtCore again in every file. Each C++ target that
# links Qt or GoogleTest reuses one of a few shared headers, chosen by what it links: with
# Widgets and QCustomPlot, with QtCore only, with GoogleTest and QtCore, or with GoogleTest alone
# (the flags and Qt's QT_*_LIB macros of a shared header must match its users').
#
# Off by default where a compiler launcher such as ccache is set (ccache does not cache a file
# built with a precompiled header unless its sloppiness is changed, and a warm cache beats it)
# and for the fuzzing build (clang, checked without them).

set(fusescope_pch_default ON)
if(CMAKE_CXX_COMPILER_LAUNCHER OR FUSESCOPE_FUZZ)
  set(fusescope_pch_default OFF)
endif()
option(FUSESCOPE_PRECOMPILED_HEADERS "Share precompiled Qt, QCustomPlot and GoogleTest headers"
       ${fusescope_pch_default})

# A target whose only job is to build one shared header with the libraries' usage requirements.
function(fusescope_pch_producer name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "HEADERS;LIBRARIES")
  set(anchor ${CMAKE_BINARY_DIR}/precompiled/${name}.cpp)
  file(CONFIGURE OUTPUT ${anchor} CONTENT "// The shared precompiled header's own file.\n")
  add_library(${name} OBJECT ${anchor})
  set_target_properties(${name} PROPERTIES AUTOMOC OFF AUTOUIC OFF AUTORCC OFF)
  target_link_libraries(${name} PRIVATE ${arg_LIBRARIES} fusescope_warnings)
  target_precompile_headers(${name} PRIVATE ${arg_HEADERS})
endfunction()

function(fusescope_use_precompiled_headers)
  if(NOT FUSESCOPE_PRECOMPILED_HEADERS)
    return()
  endif()
  set(std_headers <algorithm> <chrono> <cmath> <cstdint> <functional> <map> <memory>
                  <optional> <string> <utility> <vector>)
  # The QtCore headers most files include, not all of QtCore: a larger header costs every file
  # that loads it. Widget files include so much of QtWidgets that all of it is cheaper.
  set(qt_core_headers <QByteArray> <QDir> <QElapsedTimer> <QFile> <QFileInfo> <QJsonArray>
                      <QJsonDocument> <QJsonObject> <QObject> <QRegularExpression> <QString>
                      <QStringList> <QTemporaryDir> <QVector>)
  set(qt_widget_headers ${qt_core_headers} <QtWidgets/QtWidgets> <qcustomplot.h>)
  set(gtest_headers <gtest/gtest.h>)

  fusescope_targets_below(${PROJECT_SOURCE_DIR} targets)
  foreach(group widgets core gtest_core gtest)
    set(users_${group} "")
  endforeach()
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
      continue()
    endif()
    get_target_property(sources ${target} SOURCES)
    list(FILTER sources INCLUDE REGEX "\\.cpp$")
    if(NOT sources)
      continue()
    endif()
    # The widget header is built with QCustomPlot's Qt modules; GCC refuses it where a module's
    # QT_*_LIB macro is missing (the memory stage has no PrintSupport), so those files go without.
    fusescope_links(${target} Qt6::Widgets widgets)
    fusescope_links(${target} Qt6::PrintSupport print_support)
    fusescope_links(${target} Qt6::Core core)
    fusescope_links(${target} GTest::gtest gtest)
    if(widgets AND print_support)
      list(APPEND users_widgets ${target})
    elseif(widgets)
      continue()
    elseif(core AND gtest)
      list(APPEND users_gtest_core ${target})
    elseif(core)
      list(APPEND users_core ${target})
    elseif(gtest)
      list(APPEND users_gtest ${target})
    endif()
  endforeach()

  # Each group's shared header: what it includes and the libraries whose flags it is built with.
  set(headers_widgets ${std_headers} ${qt_widget_headers})
  set(libraries_widgets Qt6::Widgets Qt6::PrintSupport QCustomPlotQt6::QCustomPlotQt6)
  set(headers_core ${std_headers} ${qt_core_headers})
  set(libraries_core Qt6::Core)
  set(headers_gtest_core ${std_headers} ${qt_core_headers} ${gtest_headers})
  set(libraries_gtest_core Qt6::Core GTest::gtest)
  set(headers_gtest ${std_headers} ${gtest_headers})
  set(libraries_gtest GTest::gtest)
  set(groups "")
  foreach(group widgets core gtest_core gtest)
    if(users_${group})
      fusescope_pch_producer(fusescope_pch_${group}
        HEADERS ${headers_${group}} LIBRARIES ${libraries_${group}})
      list(APPEND groups ${group})
    endif()
  endforeach()

  foreach(group IN LISTS groups)
    foreach(target IN LISTS users_${group})
      target_precompile_headers(${target} REUSE_FROM fusescope_pch_${group})
      # Where GCC refuses a shared header (a flag or a macro of the user differs) it would parse
      # everything again and lose the whole saving in silence: -Winvalid-pch names the reason,
      # and warnings are errors. (`-H` on one compile shows `! ...gch` where the header is used.)
      target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Winvalid-pch>)
      # A program's moc output is included by its own .cpp, which leaves the generated
      # mocs_compilation.cpp empty: loading a shared header there would cost up to 3 s for nothing.
      get_target_property(type ${target} TYPE)
      if(type STREQUAL "EXECUTABLE")
        get_target_property(binary_dir ${target} BINARY_DIR)
        set_source_files_properties(${binary_dir}/${target}_autogen/mocs_compilation.cpp
          TARGET_DIRECTORY ${target} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
      endif()
    endforeach()
  endforeach()
endfunction()
