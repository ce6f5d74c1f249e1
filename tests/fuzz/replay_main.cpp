// Replays saved inputs through a fuzz target without libFuzzer: every crash the fuzzers ever found is kept in
// tests/fuzz/regressions/<target>/ and runs as an ordinary test (under the sanitizers in scripts/test-robustness).
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  int replayed = 0;
  for (int i = 1; i < argc; i++) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(argv[i], ec)) {
      if (!entry.is_regular_file()) continue;  // examples/ holds a folder of command-line presets
      std::ifstream in(entry.path(), std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
      replayed++;
    }
  }
  std::printf("replayed %d inputs\n", replayed);
  return 0;
}
