# Sourced by versus_rvo2.sh and many_cores.sh (from the repository's root): RVO2's source,
# cloned once into target/rvo2/RVO2 from RVO2_SOURCE (default https://github.com/snape/RVO2; a
# local mirror on a machine without the network) and checked out at the commit every figure in
# BENCHMARKS.md was measured with. Sets `src` to its folder.
src=target/rvo2/RVO2
if [ ! -d "$src" ]; then
    mkdir -p target/rvo2
    git clone -q "${RVO2_SOURCE:-https://github.com/snape/RVO2}" "$src"
fi
git -C "$src" checkout -q 1c25b27258d191e26c2df83ff6e31abc8efbdaed
