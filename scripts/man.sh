#!/bin/sh
# Writes pkc's man page (roff, section 1) to stdout from `pkc help`,
# `pkc help COMMAND` and the tables `pkc help environment|exit-status|files`,
# so that the page and the help text never differ.
# Usage: man.sh PATH/TO/pkc > pkc.1
set -eu
pkc=$1

# roff-safe text: backslashes, a leading . or ', and option dashes (\-, so
# that copied options stay ASCII; hyphens inside words are left alone).
esc() {
  sed -e 's/\\/\\e/g' -e "s/^[.']/\\\\\\&&/" \
      -e ':a' -e 's/\(^\|[^A-Za-z0-9\\]\)-/\1\\-/' -e 'ta'
}

help=$("$pkc" help)
version=$(printf '%s\n' "$help" | sed -n '1s/^pkc \([^ ]*\) .*/\1/p')
summary=$(printf '%s\n' "$help" | sed -n '1s/^pkc [^ ]* - //p')
# the usage block: from "usage:" to the first blank line, indentation dropped
usage=$(printf '%s\n' "$help" | sed -n '/^usage:/,/^$/{/^usage:/d;/^$/d;s/^  //;p;}')
# its commands: "pkc NAME ..." lines, not the "pkc --version" line
commands=$(printf '%s\n' "$usage" | sed -n 's/^pkc \([a-z][a-z]*\).*/\1/p')
options=$(printf '%s\n' "$help" | sed -n '/^options: /,/^Run /{/^Run /d;s/^options: //;p;}')

cat <<EOF
.TH PKC 1 "" "pkc $version" "User Commands"
.nh
.ad l
.SH NAME
pkc \\- $summary
.SH SYNOPSIS
.nf
EOF
printf '%s\n' "$usage" | esc
cat <<EOF
.fi
.SH DESCRIPTION
pkc translates the annotated kernels of a Python file (the PyKokkos dialect:
\\fB@pk.workunit\\fR, \\fB@pk.functor\\fR, \\fBpk.View\\fR, ...) into C++ Kokkos
code behind a plain C ABI and builds it with CMake into one shared library per
file. Python programs load it through the \\fBpykokkos\\fR shim; C programs
through libpkcrt (\\fBpkg\\-config \\-\\-cflags \\-\\-libs pkcrt\\fR, or CMake's
\\fBfind_package(pkc)\\fR with \\fBpkc_add_module\\fR).
.SH COMMANDS
EOF
for c in $commands; do
  text=$("$pkc" help "$c")
  printf '.SS %s\n.nf\n' "$c"
  printf '%s\n' "$text" | sed -n '1,/^$/{/^$/d;s/^usage: //;s/^  //;p;}' | esc
  printf '.fi\n.PP\n'
  printf '%s\n' "$text" | sed '1,/^$/d' | esc
done
cat <<EOF
.SH OPTIONS
EOF
printf '%s\n' "$options" | esc
# `pkc help environment|exit-status|files`: a name line, then its text
# indented by 4 (the tables of cmd/options.c): one .TP entry each.
table() {
  "$pkc" help "$1" | esc | sed -e 's/^    //;t' -e 's/^/.TP\n.B /'
}
printf '.SH ENVIRONMENT\n'
table environment
printf '.SH EXIT STATUS\n'
table exit-status
printf '.SH FILES\n'
table files
cat <<EOF
.SH SEE ALSO
\\fBpkc help\\fR \\fICOMMAND\\fR; the README.md of pkc.
EOF
