# Embeds text files (rulesets, run configs) into the binary so that `--rules seize-v0` works from
# any directory. The generated source defines pincer::embedded_files().
function(pincer_embed_files target kind)
  set(out ${CMAKE_BINARY_DIR}/gen/embedded_${kind}.cpp)
  string(REPLACE ";" "|" files_arg "${ARGN}")
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DKIND=${kind} "-DFILES=${files_arg}"
            -P ${CMAKE_SOURCE_DIR}/cmake/embed_run.cmake
    DEPENDS ${ARGN} ${CMAKE_SOURCE_DIR}/cmake/embed_run.cmake
    COMMENT "embedding ${kind}"
    VERBATIM)
  target_sources(${target} PRIVATE ${out})
endfunction()
