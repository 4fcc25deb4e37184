#!/usr/bin/env bash
# Makes an MPJ_HOME for MPJ Express from Debian's libmpj-java and the jars it links (nothing is
# installed): the side-by-side benchmark runs its multicore device from there.
# Usage: mpj-express-home.sh DIR
set -euo pipefail
home=${1:?usage: mpj-express-home.sh DIR}
work=$(mktemp -d)
cd "$work"
apt-get download -qq libmpj-java liblog4j1.2-java libcommons-cli-java libcommons-codec-java libcommons-io-java
for d in *.deb; do dpkg -x "$d" x; done
mkdir -p "$home/lib" "$home/conf"
cp -L x/usr/share/mpj/lib/*.jar "$home/lib/"
cp x/etc/mpj/*.conf "$home/conf/"
cp x/usr/share/java/commons-*.jar "$home/lib/"
cp "$(ls x/usr/share/java/log4j-1.2-*.jar | head -1)" "$home/lib/log4j-1.2.jar"
ls "$home/lib/starter.jar" "$home/lib/mpj.jar"
