# add_seqpar_library(name sources... [TEST]
#   [DEPENDS tablegen targets...]
#   [LINK_LIBS seqpar libraries...]
#   [MLIR_LIBS MLIR libraries...])
#
# A static seqpar library. MLIR libraries go through mlir_target_link_libraries
# so they resolve to the single libMLIR.so (MLIR_LINK_MLIR_DYLIB) and never
# drag static MLIR archives into consumers. The library joins the SeqParTargets
# export set that `cmake --install` writes for find_package(SeqPar CONFIG),
# except a TEST library (test/lib), which is neither installed nor exported.
function(add_seqpar_library name)
  cmake_parse_arguments(ARG "TEST" "" "DEPENDS;LINK_LIBS;MLIR_LIBS" ${ARGN})
  add_mlir_library(${name} ${ARG_UNPARSED_ARGUMENTS}
    EXCLUDE_FROM_LIBMLIR
    DISABLE_INSTALL
    DEPENDS ${ARG_DEPENDS}
    LINK_LIBS PUBLIC ${ARG_LINK_LIBS})
  mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  if(ARG_TEST)
    return()
  endif()
  set_target_properties(${name} PROPERTIES EXPORT_NAME ${name})
  install(TARGETS ${name} EXPORT SeqParTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endfunction()
