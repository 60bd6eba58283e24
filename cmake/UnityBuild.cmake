# Unity builds of the engine, the views, the GUI library and the CLI: their sources are compiled eight
# to a translation unit. A views source in the sanitizer build spent about half of its compile time on
# what every source repeats (loading the precompiled header, instantiating and instrumenting Qt's and
# the standard library's inline code): eight views sources took 10-29 s together against 20-64 s one by
# one. Tests and benchmarks stay one source per unit (their many file-local helpers share names).
# Every build uses it alike, as the precompiled headers, so two file-local names that collide in a
# batch fail everywhere: names in anonymous namespaces are unique within each of these targets.
# CUDA sources are never batched (each is a separate nvcc invocation with its own kernels).
option(CLUSTERLENS_UNITY_BUILD "Compile the engine, views, GUI and CLI sources eight to a translation unit" ON)

function(clusterlens_unity_build target)
  if(NOT CLUSTERLENS_UNITY_BUILD)
    return()
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  get_target_property(sources ${target} SOURCES)
  foreach(source IN LISTS sources)
    if(source MATCHES "\\.cu$")
      set_source_files_properties(${source} TARGET_DIRECTORY ${target} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
    endif()
  endforeach()
endfunction()
