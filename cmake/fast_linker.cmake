# LLVM's lld where the compiler can use it: GNU ld spends most of a link reading the debug and
# sanitizer sections again for every test program (an ASan test program of the window: 5.3 s of
# CPU with GNU ld, 1.7 s with lld). The programs are the same; only the link is faster.
option(FUSESCOPE_LLD "Link with lld where the compiler accepts -fuse-ld=lld" ON)
if(FUSESCOPE_LLD)
  include(CheckLinkerFlag)
  check_linker_flag(CXX -fuse-ld=lld fusescope_have_lld)
  if(fusescope_have_lld)
    add_link_options($<$<LINK_LANGUAGE:CXX>:-fuse-ld=lld>)
  endif()
endif()
