# bpf_skeleton(NAME SOURCES...)
# Compiles each .bpf.c against the pinned vmlinux.h, links the objects into
# NAME.bpf.o with bpftool, generates NAME.skel.h, and exposes it as the
# INTERFACE target NAME_skel that carries the include path and libbpf link.
# Everything generated lands in the build tree, never in the sources.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  set(BPF_ARCH x86)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "aarch64|arm64")
  set(BPF_ARCH arm64)
else()
  message(FATAL_ERROR "no pinned vmlinux.h for ${CMAKE_SYSTEM_PROCESSOR}: see vmlinux/README.md")
endif()
set(BPF_VMLINUX_DIR ${CMAKE_SOURCE_DIR}/vmlinux/${BPF_ARCH})
if(NOT EXISTS ${BPF_VMLINUX_DIR}/vmlinux.h)
  message(FATAL_ERROR "missing ${BPF_VMLINUX_DIR}/vmlinux.h: see vmlinux/README.md")
endif()

function(bpf_skeleton name)
  set(objs)
  set(outdir ${CMAKE_CURRENT_BINARY_DIR}/bpf)
  file(MAKE_DIRECTORY ${outdir})
  file(GLOB bpf_headers ${CMAKE_SOURCE_DIR}/bpf/*.h)
  foreach(src ${ARGN})
    get_filename_component(base ${src} NAME_WE)
    set(obj ${outdir}/${base}.bpf.o)
    add_custom_command(OUTPUT ${obj}
      COMMAND ${BPF_CLANG} -g -O2 -target bpf -D__TARGET_ARCH_${BPF_ARCH}
              -Wall -Werror -I${BPF_VMLINUX_DIR} -I${CMAKE_SOURCE_DIR}/bpf
              -c ${CMAKE_SOURCE_DIR}/${src} -o ${obj}
      DEPENDS ${CMAKE_SOURCE_DIR}/${src} ${bpf_headers} ${BPF_VMLINUX_DIR}/vmlinux.h
      COMMENT "BPF ${src}"
      VERBATIM)
    list(APPEND objs ${obj})
  endforeach()
  set(linked ${outdir}/${name}.bpf.o)
  set(skel ${outdir}/${name}.skel.h)
  add_custom_command(OUTPUT ${linked} ${skel}
    COMMAND ${BPFTOOL} gen object ${linked} ${objs}
    COMMAND ${BPFTOOL} gen skeleton ${linked} name ${name}_bpf > ${skel}
    DEPENDS ${objs}
    COMMENT "BPF link and skeleton ${name}"
    VERBATIM)
  add_custom_target(${name}_skel_gen DEPENDS ${skel})
  add_library(${name}_skel INTERFACE)
  add_dependencies(${name}_skel ${name}_skel_gen)
  target_include_directories(${name}_skel INTERFACE ${outdir})
  target_link_libraries(${name}_skel INTERFACE PkgConfig::LIBBPF PkgConfig::LIBELF PkgConfig::ZLIB)
endfunction()
