# Finds every tool and library the build needs and says which one is missing
# (with the Debian package that provides it) instead of failing later.
find_package(PkgConfig)
if(NOT PKG_CONFIG_FOUND)
  message(FATAL_ERROR "pkg-config not found: apt-get install pkg-config (or run packaging/deps.sh)")
endif()

function(as_require_program var names package)
  find_program(${var} NAMES ${names})
  if(NOT ${var})
    message(FATAL_ERROR "${names} not found: apt-get install ${package} (or run packaging/deps.sh)")
  endif()
endfunction()

function(as_require_pkg prefix module package)
  pkg_check_modules(${prefix} IMPORTED_TARGET ${module})
  if(NOT ${prefix}_FOUND)
    message(FATAL_ERROR "${module} not found: apt-get install ${package} (or run packaging/deps.sh)")
  endif()
endfunction()

as_require_program(BPF_CLANG "clang;clang-16;clang-15;clang-14" clang)
as_require_program(BPFTOOL "bpftool;/usr/sbin/bpftool" bpftool)
as_require_pkg(LIBBPF libbpf libbpf-dev)
as_require_pkg(LIBELF libelf libelf-dev)
as_require_pkg(ZLIB zlib zlib1g-dev)
as_require_pkg(YAML yaml-0.1 libyaml-dev)
