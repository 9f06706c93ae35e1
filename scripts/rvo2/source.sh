# Sourced by versus_rvo2.sh and many_cores.sh (from the repository's root): RVO2's source,
# cloned once into target/rvo2/RVO2 from RVO2_SOURCE (default https://github.com/snape/RVO2; a
# local mirror on a machine without the network) and checked out at the commit every figure in
# BENCHMARKS.md was measured with. Sets `src` to its folder and defines `build_harness FLAGS...`,
# which builds scripts/rvo2/harness.cc against it (`-O3 -DNDEBUG` and FLAGS, `-o` among them).
src=target/rvo2/RVO2
if [ ! -d "$src" ]; then
    mkdir -p target/rvo2
    git clone -q "${RVO2_SOURCE:-https://github.com/snape/RVO2}" "$src"
fi
git -C "$src" checkout -q 1c25b27258d191e26c2df83ff6e31abc8efbdaed
build_harness() {
    g++ -std=c++17 -O3 -DNDEBUG "$@" -I "$src/src" "$src"/src/*.cc scripts/rvo2/harness.cc
}
