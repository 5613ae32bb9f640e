# CPACK_PRE_BUILD_SCRIPTS of the Debian package: runs on the staging tree
# after the install step. Compresses the man pages (gzip -9n, as Debian policy
# asks, whichever CMakeLists installed them) and adds changelog.Debian.gz.
if(NOT CPACK_TEMPORARY_INSTALL_DIRECTORY)
  message(FATAL_ERROR "PackagingDebFixup: CPACK_TEMPORARY_INSTALL_DIRECTORY not set")
endif()
set(root ${CPACK_TEMPORARY_INSTALL_DIRECTORY})
find_program(AS_GZIP gzip REQUIRED)

file(GLOB_RECURSE pages LIST_DIRECTORIES false ${root}/*/share/man/man*/*)
foreach(page ${pages})
  if(NOT page MATCHES "\\.gz$")
    execute_process(COMMAND ${AS_GZIP} -9nf ${page} RESULT_VARIABLE rc)
    if(rc)
      message(FATAL_ERROR "gzip ${page} failed")
    endif()
  endif()
endforeach()

file(GLOB docdirs LIST_DIRECTORIES true ${root}/*/${CPACK_AS_DEB_DOCDIR})
foreach(d ${docdirs})
  file(COPY_FILE ${CPACK_AS_DEB_CHANGELOG} ${d}/changelog.Debian)
  execute_process(COMMAND ${AS_GZIP} -9nf ${d}/changelog.Debian RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "gzip ${d}/changelog.Debian failed")
  endif()
endforeach()
