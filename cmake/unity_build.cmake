# Unity builds (CMAKE_UNITY_BUILD, the ci, asan and fuzz presets): each target's C++ files are
# compiled in batches of eight, so the test command's builds parse the shared headers and
# instantiate the shared templates once a batch instead of once a file. In a batch, the files
# share one translation unit: two file-local helpers of the same name (in an anonymous namespace, or
# `static`) collide there. The files below define such a helper and are compiled on their own.
# GCC's -Wsubobject-linkage takes a class in an included file for a class in a header, and every
# file of a batch is included: a test's fixture in an anonymous namespace would be reported.
set(fusescope_unity_own_files
  app/model/pipeline_description_json.cpp
  app/model/sweep_comparison.cpp
  app/model/tile_sweep_json_reader.cpp
  app/ui/explorer/tile_roofline.cpp
  app/ui/explorer/tile_sweep_view.cpp
  app/ui/run/measurement_panel.cpp
  app/ui/run/run_panel_problem.cpp
  app/ui/text_fit/text_item_placement.cpp
  app/worker/run_controller.cpp
  kernels/expr/cpu_kernel.cpp
  kernels/expr/expression_pipeline.cpp
  kernels/expr/ledger.cpp
  kernels/pipelines/described_pipeline.cpp
  kernels/pipelines/element_program.cpp
  kernels/pipelines/runtime_registry.cpp
  kernels/pipelines/mlp/mlp_lesson_tiled.cpp
  kernels/pipelines/mlp/mlp_pipeline.cpp
  kernels/pipelines/mlp/mlp_production_tiled.cpp
  tests/expr/cpu_execution_test.cpp
  tests/expr/expression_pipeline_test.cpp
  tests/lab/learner_run_test.cpp
  tests/model/hostile_files_test.cpp
  tests/model/recording_json_test.cpp)

function(fusescope_unity_exclude_colliding_files)
  if(NOT CMAKE_UNITY_BUILD)
    return()
  endif()
  set(own "")
  foreach(file IN LISTS fusescope_unity_own_files)
    list(APPEND own ${PROJECT_SOURCE_DIR}/${file})
  endforeach()
  fusescope_targets_below(${PROJECT_SOURCE_DIR} targets)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "INTERFACE_LIBRARY" OR type STREQUAL "UTILITY")
      continue()
    endif()
    target_compile_options(${target} PRIVATE
      $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-Wno-subobject-linkage>)
    get_target_property(source_dir ${target} SOURCE_DIR)
    get_target_property(sources ${target} SOURCES)
    foreach(source IN LISTS sources)
      get_filename_component(path ${source} ABSOLUTE BASE_DIR ${source_dir})
      if(path IN_LIST own)
        set_source_files_properties(${path} TARGET_DIRECTORY ${target}
                                    PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
      endif()
    endforeach()
  endforeach()
endfunction()
