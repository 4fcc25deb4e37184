#!/usr/bin/env bash
# Regenerates the signature lists of the two reference Java MPI APIs that ApiCompatibilityTest
# compares the mpi package with, from the real artifacts:
#  - the Open MPI Java bindings: Debian's openmpi source packages (ompi/mpi/java/java/*.java) of bookworm
#    (4.1.4) and trixie (5.0.7), compiled here;
#  - mpiJava 1.2 as MPJ Express implements it: Debian's libmpj-java jar (with log4j, which it links).
# Needs apt-get (a private deb-src list under the work directory; nothing is installed) and a JDK 25.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../src/test/resources/mpi/reference"
work=${WORK:-$(mktemp -d)}
java=${JAVA:-$(ls -d /usr/lib/jvm/*25*/bin/java 2>/dev/null | head -1)}
javac=$(dirname "$java")/javac
mkdir -p "$work/apt/lists" "$out"
cd "$work"
printf '%s\n' "deb-src http://deb.debian.org/debian bookworm main" "deb-src http://deb.debian.org/debian trixie main" > apt/sources.list
apt_opts=(-o Dir::Etc::sourcelist="$work/apt/sources.list" -o Dir::Etc::sourceparts=- -o Dir::State::Lists="$work/apt/lists" -o APT::Get::List-Cleanup=0)
apt-get "${apt_opts[@]}" update -qq
apt-get "${apt_opts[@]}" source --download-only openmpi=4.1.4-3 >/dev/null
apt-get "${apt_opts[@]}" source --download-only openmpi=5.0.7-1 >/dev/null
for v in 4.1.4 5.0.7; do
  tar xf openmpi_$v.orig.tar.xz --wildcards '*/ompi/mpi/java/java/*.java'
  mkdir -p ompi-classes-$v
  "$javac" -nowarn -d ompi-classes-$v openmpi-$v/ompi/mpi/java/java/*.java
done
apt-get download -qq libmpj-java liblog4j1.2-java
dpkg -x libmpj-java_*.deb mpj
dpkg -x liblog4j1.2-java_*.deb log4j
mpj_cp=$(ls mpj/usr/share/mpj/lib/*.jar | tr '\n' ':')$(ls log4j/usr/share/java/log4j-1.2-*.jar | head -1)

for v in 4.1.4 5.0.7; do
  "$java" -cp ompi-classes-$v "$here/SignatureDump.java" mpi.MPI mpi.Comm mpi.Intracomm mpi.Intercomm mpi.CartComm mpi.CartParms \
    mpi.GraphComm mpi.GraphParms mpi.DistGraphNeighbors mpi.ShiftParms mpi.Group mpi.Request mpi.Prequest mpi.Status mpi.Message \
    mpi.Datatype mpi.Op mpi.UserFunction mpi.Win mpi.Info mpi.Errhandler mpi.MPIException mpi.Freeable mpi.Count mpi.Version \
    mpi.Struct mpi.Int2 mpi.ShortInt mpi.LongInt mpi.FloatInt mpi.DoubleInt mpi.FloatComplex mpi.DoubleComplex \
    > "$out/openmpi-$v.sig"
done
# mpiJava 1.2's public classes (MPJ Express's jar also holds its implementation's own)
"$java" -cp "$mpj_cp" "$here/SignatureDump.java" mpi.MPI mpi.Comm mpi.Intracomm mpi.Intercomm mpi.Cartcomm mpi.Graphcomm \
  mpi.Group mpi.Request mpi.Prequest mpi.Status mpi.Datatype mpi.Op mpi.User_function mpi.Errhandler mpi.MPIException \
  mpi.CartParms mpi.GraphParms mpi.ShiftParms \
  > "$out/mpj-express-0.44.sig"
wc -l "$out"/*.sig
