# Installation of what the binaries' own CMakeLists do not install (the
# configuration, the systemd unit, agent-sentinel's man page, the Debian
# documents) and the Debian package (CPack DEB). Included at the end of the
# top-level CMakeLists.txt.
#
# Layout (with CMAKE_INSTALL_PREFIX=/usr, as the package is built):
#   /usr/bin/agent-sentinel, /usr/bin/agent-bwrap, /usr/bin/agent-egress
#   /usr/libexec/agent-sentinel/agent-bwrap-init  agent-bwrap's in-sandbox init
#   /usr/share/agent-sentinel/rules/         shipped rules, replaced on upgrade
#   /usr/share/agent-sentinel/seccomp/       agent-bwrap's profile
#   /etc/agent-sentinel/agent-sentinel.yaml  the configuration (a conffile)
#   /etc/agent-sentinel/egress.yaml          agent-egress's allowlist (a conffile)
#   /etc/agent-sentinel/rules.d/             local rules, loaded after the shipped ones
#   /lib/systemd/system/agent-sentinel.service, agent-egress.service
#   /usr/share/man/man8/agent-sentinel.8.gz, agent-egress.8.gz, man1/agent-bwrap.1.gz
#
# The shipped rules are deliberately not copied into /etc: as conffiles they
# would stop updating (and prompt) on every host where someone edited them.
# Local changes go to rules.d/, where Falco's append/override semantics apply.
#
#   cmake -S . -B build-deb -DCMAKE_INSTALL_PREFIX=/usr -DBUILD_TESTING=OFF
#   cmake --build build-deb && (cd build-deb && cpack -G DEB)
include(GNUInstallDirs)

set(AS_PKG_DIR ${CMAKE_CURRENT_LIST_DIR}/../packaging)
get_filename_component(AS_PKG_DIR ${AS_PKG_DIR} ABSOLUTE)

# /etc when installing to /usr (GNUInstallDirs' rule), else PREFIX/etc.
set(AS_CONF_DIR ${CMAKE_INSTALL_FULL_SYSCONFDIR}/agent-sentinel)
# The unit: /lib/systemd/system for the /usr prefix (Debian 12's place),
# else under the prefix (a /usr/local install must not write into /lib).
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(AS_UNIT_DIR /lib/systemd/system)
else()
  set(AS_UNIT_DIR ${CMAKE_INSTALL_PREFIX}/lib/systemd/system)
endif()

install(FILES ${AS_PKG_DIR}/agent-sentinel.yaml DESTINATION ${AS_CONF_DIR}
  PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
install(DIRECTORY DESTINATION ${AS_CONF_DIR}/rules.d
  DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
  WORLD_READ WORLD_EXECUTE)
install(FILES ${AS_PKG_DIR}/agent-egress.yaml DESTINATION ${AS_CONF_DIR} RENAME egress.yaml
  PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
install(FILES ${AS_PKG_DIR}/systemd/agent-sentinel.service ${AS_PKG_DIR}/systemd/agent-egress.service
  DESTINATION ${AS_UNIT_DIR})
install(FILES ${AS_PKG_DIR}/man/agent-sentinel.8 ${AS_PKG_DIR}/man/agent-egress.8
  DESTINATION ${CMAKE_INSTALL_MANDIR}/man8)
install(FILES ${AS_PKG_DIR}/debian/copyright ${CMAKE_SOURCE_DIR}/README.md
  DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${AS_PKG_DIR}/debian/lintian-overrides
  DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides RENAME agent-sentinel)

# ---- the Debian package ----
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME agent-sentinel)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "agent-sentinel")
# Who builds the package answers for it: -DAS_DEB_MAINTAINER="Name <address>".
set(AS_DEB_MAINTAINER "agent-sentinel maintainers <maintainers@agent-sentinel.example.org>"
  CACHE STRING "Maintainer field of the Debian package")
set(CPACK_PACKAGE_CONTACT "${AS_DEB_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "eBPF runtime monitor for hosts that run AI coding agents")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
# The summary is the first line of the Description; this is the extended part.
set(CPACK_PACKAGE_DESCRIPTION
  "agent-sentinel attaches CO-RE eBPF programs to process, file, network and
credential tracepoints, evaluates Falco-compatible rules on every event and
writes Falco's JSON alerts to stdout, a file, syslog, a program or an HTTP
endpoint such as Falcosidekick, for a SIEM.

agent-bwrap starts an AI coding agent inside bubblewrap with a seccomp
profile, Landlock, a cgroup and a session id that every alert of its
processes carries. agent-egress is the allowlisting HTTP proxy its
sandboxes reach the network through, one Falco JSON line per decision.")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# dlopen()ed by the HTTP output (user/outputs/curl_dl.c): shlibdeps cannot see it
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libcurl4 (>= 7.80)")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "bubblewrap")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
  ${AS_PKG_DIR}/debian/conffiles
  ${AS_PKG_DIR}/debian/postinst
  ${AS_PKG_DIR}/debian/prerm
  ${AS_PKG_DIR}/debian/postrm)
# Debian policy: man pages and the changelog gzip -9n compressed in the
# package (both binaries' pages, whichever CMakeLists installed them).
set(AS_DEB_CHANGELOG ${CMAKE_BINARY_DIR}/changelog.Debian)
string(TIMESTAMP AS_DEB_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
file(WRITE ${AS_DEB_CHANGELOG}
  "agent-sentinel (${PROJECT_VERSION}-1) unstable; urgency=medium\n\n"
  "  * Package built from the agent-sentinel source tree.\n\n"
  " -- ${CPACK_PACKAGE_CONTACT}  ${AS_DEB_DATE}\n")
set(CPACK_PRE_BUILD_SCRIPTS ${CMAKE_CURRENT_LIST_DIR}/PackagingDebFixup.cmake)
set(AS_DEB_DOCDIR share/doc/agent-sentinel)
# read by PackagingDebFixup.cmake through CPackConfig.cmake
set(CPACK_AS_DEB_CHANGELOG ${AS_DEB_CHANGELOG})
set(CPACK_AS_DEB_DOCDIR ${AS_DEB_DOCDIR})

include(CPack)
