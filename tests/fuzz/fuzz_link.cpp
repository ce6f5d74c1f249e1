// libFuzzer target: the share-link decoder (engine/spec/link.hpp) on arbitrary bytes, as a page's URL fragment could
// be. It must never crash, hang or leak, must say why it refuses a link, and a link it opens must be shareable again:
// encoding the spec and decoding that gives the same spec.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/spec/link.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string fragment(reinterpret_cast<const char*>(data), size);
  const SpecResult r = spec_from_link(fragment);
  if (!r.ok()) {
    if (r.errors.empty() || r.errors[0].empty()) std::abort();  // a refusal always says why
    return 0;
  }
  const std::string once = json::write(spec_to_json(r.spec));
  const SpecResult again = spec_from_link(spec_to_link(r.spec));
  if (!again.ok() || json::write(spec_to_json(again.spec)) != once) {
    std::fprintf(stderr, "link round trip changed the spec:\n%s\n", once.c_str());
    std::abort();
  }
  return 0;
}
