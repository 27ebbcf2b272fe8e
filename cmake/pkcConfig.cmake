# pkcConfig.cmake - find_package(pkc CONFIG) for an installed pkc
# (`make install` puts this file in <prefix>/lib/cmake/pkc/).
#
# Provides
#   pkc::pkcrt        imported library: libpkcrt.so and <prefix>/include/pkc
#                     (pkcrt.h, pkc_abi.h, dlpack/dlpack.h)
#   PKC_EXECUTABLE    the pkc compiler (cache variable, <prefix>/bin/pkc)
#   pkc_add_module(<target> <file.py> [BACKEND openmp|serial|cuda|hip]
#                  [KOKKOS_ROOT dir] [OUTPUT_DIR dir] [SPECIALIZE sig...])
#                     runs `pkc build` on file.py at build time; see below.
#
# Every path is found from this file's own place, so the install may be
# moved (or staged under DESTDIR) as a whole.
cmake_minimum_required(VERSION 3.16)

get_filename_component(_pkc_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

set(PKC_EXECUTABLE "${_pkc_prefix}/bin/pkc" CACHE FILEPATH "the pkc compiler")

if(NOT TARGET pkc::pkcrt)
  add_library(pkc::pkcrt SHARED IMPORTED)
  # libpkcrt has no SONAME: linked as -lpkcrt, so executables record
  # "libpkcrt.so", not the path it had at build time.
  set_target_properties(pkc::pkcrt PROPERTIES
    IMPORTED_LOCATION "${_pkc_prefix}/lib/libpkcrt.so"
    IMPORTED_NO_SONAME TRUE
    INTERFACE_INCLUDE_DIRECTORIES "${_pkc_prefix}/include/pkc")
endif()

foreach(_pkc_file "${PKC_EXECUTABLE}" "${_pkc_prefix}/lib/libpkcrt.so"
        "${_pkc_prefix}/include/pkc/pkcrt.h")
  if(NOT EXISTS "${_pkc_file}")
    set(pkc_FOUND FALSE)
    set(pkc_NOT_FOUND_MESSAGE "pkc: ${_pkc_file} is missing (reinstall with `make install`)")
    return()
  endif()
endforeach()

# The module name pkc gives a source file (the shim's _loader.module_name):
# the file name up to its first '.', other characters than [A-Za-z0-9_]
# made '_', and 'm_' in front of a leading digit.
function(_pkc_module_name source out)
  get_filename_component(name "${source}" NAME)
  string(REGEX REPLACE "\\..*$" "" name "${name}")
  string(REGEX REPLACE "[^A-Za-z0-9_]" "_" name "${name}")
  if(name MATCHES "^[0-9]")
    set(name "m_${name}")
  endif()
  set(${out} "${name}" PARENT_SCOPE)
endfunction()

# Where `pkc build --specialize SIG` puts a signature's module: DIR/spec/
# <kernel>-<first 16 hex digits of SIG's SHA-256>/ (backends/cache.c).
function(_pkc_spec_module dir name backend sig out)
  string(REGEX MATCH "^[ \t]*[A-Za-z_][A-Za-z0-9_]*" kernel "${sig}")
  string(STRIP "${kernel}" kernel)
  string(SHA256 hash "${sig}")
  string(SUBSTRING "${hash}" 0 16 hash)
  set(${out} "${dir}/spec/${kernel}-${hash}/${name}.${backend}.so" PARENT_SCOPE)
endfunction()

# pkc_add_module(<target> <file.py> [BACKEND b] [KOKKOS_ROOT dir]
#                [OUTPUT_DIR dir] [SPECIALIZE sig...])
#
# Builds file.py's kernels into DIR/<name>.<backend>.so with `pkc build`
# when the build needs it: the module depends on file.py (and on its
# <stem>.pkc-signatures sidecar when there is one at configure time, and on
# pkc itself), so editing file.py rebuilds it and nothing else does.
#   BACKEND      openmp (default), serial, cuda or hip
#   KOKKOS_ROOT  the Kokkos install (--kokkos-root); default: the variable
#                PKC_KOKKOS_ROOT, else Kokkos_ROOT, else pkc's own default
#   OUTPUT_DIR   DIR; default <stem>.pk beside file.py, where pkc build and
#                the Python shim put and look for it (so `python3 file.py`
#                runs the same module)
#   SPECIALIZE   run-time signatures to build as well, e.g.
#                "scale(x: pk.View1D[pk.float32], a: float)"
# <target> is a custom target (in ALL) with the properties
#   PKC_MODULE       the module's path (for pkr_open: libpkcrt loads it)
#   PKC_MODULE_DIR   DIR
#   PKC_SPEC_MODULES the specializations' module paths, in SPECIALIZE order
#   PKC_BACKEND, PKC_SOURCE
# e.g. target_compile_definitions(app PRIVATE
#        APP_MODULE="$<TARGET_PROPERTY:kernels,PKC_MODULE>")
#      add_dependencies(app kernels)
function(pkc_add_module target source)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "BACKEND;KOKKOS_ROOT;OUTPUT_DIR" "SPECIALIZE")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "pkc_add_module: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  set(backend openmp)
  if(arg_BACKEND)
    set(backend "${arg_BACKEND}")
  endif()
  if(NOT backend MATCHES "^(openmp|serial|cuda|hip)$")
    message(FATAL_ERROR "pkc_add_module: unknown BACKEND '${backend}' (use openmp, serial, cuda or hip)")
  endif()
  get_filename_component(src "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  get_filename_component(srcdir "${src}" DIRECTORY)
  get_filename_component(file "${src}" NAME)
  string(REGEX REPLACE "\\.py$" "" stem "${file}")
  _pkc_module_name("${src}" name)

  set(dir "${srcdir}/${stem}.pk")
  if(arg_OUTPUT_DIR)
    get_filename_component(dir "${arg_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  set(kokkos "${arg_KOKKOS_ROOT}")
  if(NOT kokkos AND PKC_KOKKOS_ROOT)
    set(kokkos "${PKC_KOKKOS_ROOT}")
  elseif(NOT kokkos AND Kokkos_ROOT)
    set(kokkos "${Kokkos_ROOT}")
  endif()

  set(build "${PKC_EXECUTABLE}" build "${src}" --backend ${backend} -o "${dir}")
  if(kokkos)
    get_filename_component(kokkos "${kokkos}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND build --kokkos-root "${kokkos}")
  endif()
  set(so "${dir}/${name}.${backend}.so")
  set(commands COMMAND ${build})
  set(specs "")
  if(arg_SPECIALIZE)
    set(spec_build ${build})
    foreach(sig IN LISTS arg_SPECIALIZE)
      list(APPEND spec_build --specialize "${sig}")
      _pkc_spec_module("${dir}" "${name}" "${backend}" "${sig}" spec_so)
      list(APPEND specs "${spec_so}")
    endforeach()
    list(APPEND commands COMMAND ${spec_build})
  endif()
  # pkc build leaves a fresh module untouched: touch it, so that the build
  # tool sees the output newer than file.py and stops asking
  foreach(out "${so}" ${specs})
    list(APPEND commands COMMAND "${CMAKE_COMMAND}" -E touch_nocreate "${out}")
  endforeach()

  set(depends "${src}" "${PKC_EXECUTABLE}")
  if(EXISTS "${srcdir}/${stem}.pkc-signatures")
    list(APPEND depends "${srcdir}/${stem}.pkc-signatures")
  endif()
  add_custom_command(OUTPUT "${so}" ${specs}
    ${commands}
    DEPENDS ${depends}
    WORKING_DIRECTORY "${srcdir}"
    COMMENT "pkc: building ${name}.${backend}.so from ${file}"
    VERBATIM)
  add_custom_target(${target} ALL DEPENDS "${so}" ${specs})
  set_target_properties(${target} PROPERTIES
    PKC_MODULE "${so}"
    PKC_MODULE_DIR "${dir}"
    PKC_SPEC_MODULES "${specs}"
    PKC_BACKEND "${backend}"
    PKC_SOURCE "${src}")
endfunction()

set(pkc_FOUND TRUE)
