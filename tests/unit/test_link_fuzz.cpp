// Randomized mutation test of the share-link decoder: tens of thousands of links derived from real ones by
// truncation, byte flips, insertions, deletions, repeats, version changes and edits of the JSON inside.
// The decoder must never crash or hang, and must return either a valid spec (which then round-trips) or errors.
// (A coverage-guided libFuzzer target can reuse mutate(); this one needs no special compiler.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <iterator>
#include <random>

#include "engine/base/base64url.hpp"
#include "engine/spec/link.hpp"
#include "engine/spec/presets.hpp"

namespace {

constexpr int kLinks = 30000;

std::vector<std::string> seed_links() {
  std::vector<std::string> links{"#s=1.e30"};
  for (const PresetFile& p : list_presets(MUPLAY_EXAMPLES_DIR))
    if (p.errors.empty()) links.push_back("#" + spec_to_link(parse_spec_text(p.text).spec));
  std::string stored;
  if (read_text_file(std::string(MUPLAY_EXAMPLES_DIR) + "/../tests/fixtures/stored_links.json", stored))
    for (const json::Value& item : json::parse(stored).value.array) links.push_back(item.find("link")->string);
  return links;
}

// Text that JSON-level mutations splice in: hostile numbers, nesting, wrong types, unknown and duplicate keys.
const char* const kJsonBits[] = {
    "1e308", "-1e308", "1e999", "-0", "0.5", "9007199254740993", "1e-320", "NaN", "null", "true", "\"\"", "[]", "{}",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "\"\\ud800\"", "\"\\u0000\"",
    "{\"version\":2}", ",\"x\":1", ",\"name\":\"dup\"", "\"widths\":[0]", "\"steps\":1000000", "\"custom\":[{}]",
    "\"width\":[16384,16384]", "\"preset\":\"custom\"", "\"kind\":\"sectors\"", "\"lr\":[1e6]"};

std::string mutate_json(std::mt19937_64& rng, std::string text) {
  auto pick = [&](size_t n) { return size_t(rng() % (n ? n : 1)); };
  const size_t at = pick(text.size() + 1);
  switch (rng() % 4) {
    case 0: return text.insert(at, kJsonBits[pick(std::size(kJsonBits))]);
    case 1: {  // replace a number-ish run of characters
      size_t end = at;
      while (end < text.size() && (isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.')) end++;
      return text.replace(at, end - at, kJsonBits[pick(8)]);
    }
    case 2: return text.erase(at, pick(12));
    default: return text.substr(0, at) + text.substr(pick(text.size() + 1));  // cut and splice
  }
}

std::string mutate(std::mt19937_64& rng, std::string link) {
  auto pick = [&](size_t n) { return size_t(rng() % (n ? n : 1)); };
  switch (rng() % 9) {
    case 0: return link.substr(0, pick(link.size() + 1));  // truncated
    case 1: if (!link.empty()) link[pick(link.size())] = char(rng()); return link;  // any byte
    case 2: return link.insert(pick(link.size() + 1), std::string(1 + pick(4), "A-_*%= #.s0&r"[pick(13)]));
    case 3: return link.erase(pick(link.size() + 1), 1 + pick(40));
    case 4: {  // a piece repeated, sometimes many times (towards the length limit and beyond)
      const size_t from = pick(link.size() + 1), len = pick(64);
      const std::string piece = link.substr(from, len);
      std::string repeated;
      for (size_t k = 0, n = rng() % 16 == 0 ? 5000 : 1 + pick(4); k < n; k++) repeated += piece;
      return link.insert(from, repeated);
    }
    case 5: {  // another version number
      const size_t dot = link.find('.');
      const char* versions[] = {"0", "1", "2", "9", "01", "999999", "1000000", "-1", ""};
      return dot == std::string::npos ? link : "#s=" + std::string(versions[pick(9)]) + link.substr(dot);
    }
    default: {  // edit the JSON inside, then encode it again: gets past base64 into the parser and validator
      const size_t dot = link.find('.'), end = std::min(link.find('&'), link.size());  // the data ends at "&r="
      std::string data, error;
      if (dot == std::string::npos || dot > end || !base64url_decode(link.substr(dot + 1, end - dot - 1), data, error))
        return link;
      return link.substr(0, dot + 1) + base64url_encode(mutate_json(rng, data)) + link.substr(end);
    }
  }
}

}  // namespace

TEST(LinkFuzz, MutatedLinksGiveAValidSpecOrErrorsNeverACrash) {
  const std::vector<std::string> seeds = seed_links();
  ASSERT_GE(seeds.size(), 4u);
  std::mt19937_64 rng(20261122);
  int valid = 0, rejected = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kLinks; i++) {
    std::string link = seeds[size_t(rng() % seeds.size())];
    for (int k = 0, n = 1 + int(rng() % 3); k < n; k++) link = mutate(rng, link);
    SpecResult r = spec_from_link(link);
    if (r.ok()) {
      valid++;
      ASSERT_TRUE(check_spec(r.spec).empty()) << link;
      SpecResult again = spec_from_link(spec_to_link(r.spec));  // whatever opened must be shareable again
      ASSERT_TRUE(again.ok()) << link;
      ASSERT_EQ(json::write(spec_to_json(again.spec)), json::write(spec_to_json(r.spec))) << link;
    } else {
      rejected++;
      for (const std::string& e : r.errors) ASSERT_FALSE(e.empty()) << link;
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("link fuzz: %d mutated links, %d opened as valid specs, %d refused with errors, %.2f s\n", kLinks, valid,
              rejected, seconds);
  EXPECT_EQ(valid + rejected, kLinks);
  EXPECT_GT(valid, kLinks / 50);     // the mutations reach valid specs too, not only the first error path
  EXPECT_GT(rejected, kLinks / 2);
}
