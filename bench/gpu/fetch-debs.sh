#!/usr/bin/env bash
# bench/gpu/fetch-debs.sh: downloads (here, where Debian's mirror answers)
# the Debian packages that bench/gpu/check.sh unpacks on a GPU machine
# without network: GSL, libcsv and jansson with their -dev packages, and
# make. gnuplot is optional there and left out (its libraries are many).
# The .deb files go to bench/gpu/debs/ (ignored by git: not committed);
# carry that folder with the check. About 3 MB.
set -euo pipefail
dir=$(cd "$(dirname "$0")" && pwd)/debs
packages=(libgsl27 libgslcblas0 libgsl-dev libcsv3 libcsv-dev libjansson4 libjansson-dev make)
mkdir -p "$dir"
cd "$dir"
rm -f ./*.deb
apt-get download "${packages[@]}"
ls -l "$dir"
