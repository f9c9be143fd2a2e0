# Compiles .proto files with paths rooted at the source tree, so that a file imports another as
# "proto/ruleset.proto" and includes its header as "proto/ruleset.pb.h".
set(PINCER_GEN_DIR ${CMAKE_BINARY_DIR}/gen)
file(MAKE_DIRECTORY ${PINCER_GEN_DIR})

function(pincer_proto_library target)
  set(srcs)
  # ARGN: absolute paths of .proto files under the source tree.
  foreach(proto ${ARGN})
    file(RELATIVE_PATH rel ${CMAKE_SOURCE_DIR} ${proto})
    string(REGEX REPLACE "\\.proto$" "" stem ${rel})
    set(out_cc ${PINCER_GEN_DIR}/${stem}.pb.cc)
    set(out_h ${PINCER_GEN_DIR}/${stem}.pb.h)
    add_custom_command(
      OUTPUT ${out_cc} ${out_h}
      COMMAND protobuf::protoc --proto_path=${CMAKE_SOURCE_DIR} --cpp_out=${PINCER_GEN_DIR} ${rel}
      DEPENDS ${proto} protobuf::protoc
      WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
      COMMENT "protoc ${rel}")
    list(APPEND srcs ${out_cc})
  endforeach()
  add_library(${target} STATIC ${srcs})
  target_include_directories(${target} PUBLIC ${PINCER_GEN_DIR})
  target_link_libraries(${target} PUBLIC protobuf::libprotobuf)
  # Generated code is not ours to warn about.
  target_compile_options(${target} PRIVATE -w)
  # protoc's files each define the same file-local tables: never one unity source.
  set_target_properties(${target} PROPERTIES UNITY_BUILD OFF)
endfunction()
