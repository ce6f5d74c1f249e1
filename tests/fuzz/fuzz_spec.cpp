// libFuzzer target: the spec JSON parser and validator on arbitrary bytes.
// It must never crash, hang or leak (ASan/UBSan are on), and must keep its promises:
// a spec it accepts writes back to JSON that it accepts again, unchanged.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/spec/spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const SpecResult r = parse_spec_text(text);
  if (!r.ok()) {
    if (r.errors.empty() || r.errors[0].empty()) std::abort();  // a rejection always says why
    return 0;
  }
  const std::string once = json::write(spec_to_json(r.spec));
  const SpecResult again = parse_spec_text(once);
  if (!again.ok() || json::write(spec_to_json(again.spec)) != once) {
    std::fprintf(stderr, "round trip changed the spec:\n%s\n", once.c_str());
    std::abort();
  }
  return 0;
}
