# -DCLUSTERLENS_FUZZ=ON: every target is compiled with libFuzzer's coverage instrumentation, ASan and
# UBSan (UBSan aborting on its first report, so that libFuzzer records it as a crash); the fuzz
# targets of tests/fuzz link libFuzzer's main. clang only (scripts/fuzz.sh configures it).
if(CLUSTERLENS_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "CLUSTERLENS_FUZZ needs clang: configure with CC=clang CXX=clang++")
  endif()
  add_compile_options($<$<COMPILE_LANGUAGE:C,CXX>:-fsanitize=fuzzer-no-link,address,undefined>
                      $<$<COMPILE_LANGUAGE:C,CXX>:-fno-sanitize-recover=undefined>
                      $<$<COMPILE_LANGUAGE:C,CXX>:-fno-omit-frame-pointer>)
  add_link_options(-fsanitize=address,undefined)
endif()
