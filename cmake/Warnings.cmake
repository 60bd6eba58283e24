# One warning set for every target of the project.
add_library(clusterlens_warnings INTERFACE)
target_compile_options(clusterlens_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${CLUSTERLENS_WERROR}>>:-Werror>
  # GCC 12 reports -Wrestrict false positives inside std::string concatenation at -O2 (GCC bug 105651).
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-Wno-restrict>
  # CUDA files: the host compiler gets the host code's warnings (not -Wpedantic: nvcc's generated
  # host stubs use GNU extensions); nvcc's own warnings and the host's fail the build alike.
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra,-Wshadow,-Wnon-virtual-dtor>
  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${CLUSTERLENS_WERROR}>>:-Werror=all-warnings -Xcompiler=-Werror>)

if(CLUSTERLENS_SANITIZE)
  # float-cast-overflow is not part of GCC's "undefined"; no recovery, so that any report fails the test.
  # -Wno-maybe-uninitialized: with the sanitizers' instrumentation g++ 12 reports variables inside
  # std::regex and std::function as maybe uninitialised (e.g. tests/cli/cli_plot_decision_test.cpp),
  # which -Werror turns into failures; the normal builds keep the warning, and ASan itself finds the
  # reads it stands for.
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=address,undefined,float-cast-overflow>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-sanitize-recover=undefined,float-cast-overflow>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-omit-frame-pointer>
                      $<$<COMPILE_LANGUAGE:CXX>:-Wno-maybe-uninitialized>)
  # CUDA sources keep nvcc's uninstrumented host code; the final link (done by the C++ compiler) pulls
  # in the runtimes. HOST_LINK keeps the flag away from nvcc's device link step.
  add_link_options($<HOST_LINK:-fsanitize=address$<COMMA>undefined$<COMMA>float-cast-overflow>)
  # The sanitizer builds link some sixty executables against the instrumented static libraries: lld
  # links one in a third of the time of GNU ld (a GUI test on the 2-core VM: 2.2 s against 6.8 s).
  include(CheckLinkerFlag)
  check_linker_flag(CXX -fuse-ld=lld CLUSTERLENS_LINKER_LLD)
  if(CLUSTERLENS_LINKER_LLD)
    add_link_options($<HOST_LINK:-fuse-ld=lld>)
  endif()
endif()
