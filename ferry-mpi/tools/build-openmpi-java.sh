#!/usr/bin/env bash
# Builds the Open MPI Java bindings (libmpi_java and mpi.jar) from Debian's openmpi source package,
# for the side-by-side benchmark (not CI): configure --enable-mpi-java, make, make install into PREFIX.
# Takes 30-40 minutes on 2 cores. Usage: build-openmpi-java.sh PREFIX [WORK]
set -euo pipefail
prefix=${1:?usage: build-openmpi-java.sh PREFIX [WORK]}
work=${2:-$(mktemp -d)}
jdk=${JDK:-$(ls -d /usr/lib/jvm/java-17-openjdk-* | head -1)}
mkdir -p "$work/apt/lists"
cd "$work"
echo "deb-src http://deb.debian.org/debian bookworm main" > apt/sources.list
apt_opts=(-o Dir::Etc::sourcelist="$work/apt/sources.list" -o Dir::Etc::sourceparts=- -o Dir::State::Lists="$work/apt/lists" -o APT::Get::List-Cleanup=0)
apt-get "${apt_opts[@]}" update -qq
apt-get "${apt_opts[@]}" source --download-only openmpi=4.1.4-3 >/dev/null
tar xf openmpi_4.1.4.orig.tar.xz
cd openmpi-4.1.4
./configure --prefix="$prefix" --enable-mpi-java --with-jdk-dir="$jdk" --disable-mpi-fortran --disable-oshmem \
  --without-ucx --without-verbs --without-ofi --without-psm2 --disable-man-pages > "$work/configure.log"
make -j"$(nproc)" > "$work/make.log"
make install > "$work/install.log"
ls "$prefix/lib/mpi.jar" "$prefix/lib/libmpi_java.so"
