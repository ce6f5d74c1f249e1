// Share links (engine/spec/link.hpp): base64url, exact round trips, short links, stored links of older versions,
// and a precise message for every kind of bad link.
#include <gtest/gtest.h>

#include "engine/base/base64url.hpp"
#include "engine/spec/link.hpp"
#include "engine/spec/presets.hpp"

namespace {

const std::string kFixtures = std::string(MUPLAY_EXAMPLES_DIR) + "/../tests/fixtures";

std::string canonical(const ExperimentSpec& s) { return json::write(spec_to_json(s)); }

std::string all_errors(const SpecResult& r) {
  std::string all;
  for (const auto& e : r.errors) all += e + "\n";
  return all;
}

void expect_link_error(const std::string& link, const std::string& needle) {
  SpecResult r = spec_from_link(link);
  ASSERT_FALSE(r.ok()) << "accepted: " << link.substr(0, 200);
  EXPECT_NE(all_errors(r).find(needle), std::string::npos) << all_errors(r) << "wanted: " << needle;
}

std::string link_of_json(int version, const std::string& json_text) {
  return "#s=" + std::to_string(version) + "." + base64url_encode(json_text);
}

}  // namespace

TEST(Base64url, MatchesRfc4648TestVectorsWithoutPadding) {
  const std::pair<const char*, const char*> vectors[] = {
      {"", ""}, {"f", "Zg"}, {"fo", "Zm8"}, {"foo", "Zm9v"}, {"foob", "Zm9vYg"}, {"fooba", "Zm9vYmE"}, {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : vectors) {
    EXPECT_EQ(base64url_encode(plain), encoded);
    std::string out, error;
    ASSERT_TRUE(base64url_decode(encoded, out, error)) << error;
    EXPECT_EQ(out, plain);
  }
}

TEST(Base64url, RoundTripsEveryByteAndUsesOnlyUrlSafeCharacters) {
  std::string bytes;
  for (int i = 0; i < 256; i++) bytes += char(i);
  for (size_t n = 0; n <= bytes.size(); n += 37) {
    const std::string encoded = base64url_encode(bytes.substr(0, n));
    EXPECT_EQ(encoded.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
              std::string::npos);
    std::string out, error;
    ASSERT_TRUE(base64url_decode(encoded, out, error)) << error;
    EXPECT_EQ(out, bytes.substr(0, n));
  }
}

TEST(Base64url, RejectsBadCharactersAndImpossibleLengthsWithPosition) {
  std::string out, error;
  EXPECT_FALSE(base64url_decode("Zm9v+", out, error));
  EXPECT_FALSE(base64url_decode("Zm+v", out, error));
  EXPECT_EQ(error, "has '+' at character 3, which is not base64url");
  EXPECT_FALSE(base64url_decode("Zm9vY", out, error));
  EXPECT_NE(error.find("truncated"), std::string::npos);
  EXPECT_FALSE(base64url_decode(std::string("Zm\x01v"), out, error));
  EXPECT_EQ(error, "has byte 0x01 at character 3, which is not base64url");
}

TEST(Link, TheDefaultSpecIsTheShortestLink) {
  EXPECT_EQ(spec_to_link(ExperimentSpec{}), "s=1.e30&r=1");  // base64url("{}"), result version 1
  LinkResult r = spec_from_link("#s=1.e30&r=1");
  ASSERT_TRUE(r.ok()) << all_errors(r);
  EXPECT_EQ(canonical(r.spec), canonical(ExperimentSpec{}));
  EXPECT_EQ(r.result_version, 1);
}

TEST(Link, CarriesTheResultVersionAndThePinnedBackend) {
  // Links from before the result version was written stand for version 1.
  EXPECT_EQ(spec_from_link("#s=1.e30").result_version, 1);
  // A link of another version opens; it is for the reader to say that the numbers may differ.
  LinkResult newer = spec_from_link("#s=1.e30&r=7");
  ASSERT_TRUE(newer.ok()) << all_errors(newer);
  EXPECT_EQ(newer.result_version, 7);
  // backend and precision travel when set: a pinned cpu (not the default auto) and float32.
  ExperimentSpec s;
  s.backend = Backend::cpu;
  s.precision = Precision::float32;
  const std::string link = spec_to_link(s);
  std::string data, error;
  ASSERT_TRUE(base64url_decode(link.substr(4, link.find('&') - 4), data, error)) << error;
  EXPECT_EQ(data, R"({"backend":"cpu","precision":"float32"})");
  LinkResult back = spec_from_link(link);
  ASSERT_TRUE(back.ok()) << all_errors(back);
  EXPECT_EQ(back.spec.backend, Backend::cpu);
  EXPECT_EQ(back.spec.precision, Precision::float32);
}

TEST(Link, EveryPresetRoundTripsExactlyAndHoldsOnlyItsChangedFields) {
  SpecLimits limits;
  limits.fashion_mnist_dir = MUPLAY_FASHION_MNIST_DIR;  // presets 15-* validate only where their data is
  const std::vector<PresetFile> presets = list_presets(MUPLAY_EXAMPLES_DIR, limits);
  ASSERT_FALSE(presets.empty());
  for (const PresetFile& p : presets) {
    SpecResult spec = parse_spec_text(p.text, limits);
    ASSERT_TRUE(spec.ok()) << p.path;
    const std::string link = spec_to_link(spec.spec);
    SpecResult back = spec_from_link("#" + link, limits);
    ASSERT_TRUE(back.ok()) << p.path << ": " << all_errors(back);
    EXPECT_EQ(canonical(back.spec), canonical(spec.spec)) << p.path;
    // Only what differs from the defaults is in the data: e.g. no "activation": "relu", no "version".
    std::string data, error;
    ASSERT_TRUE(base64url_decode(link.substr(4, link.find('&') - 4), data, error));
    EXPECT_EQ(data.find("\"version\""), std::string::npos) << data;
    if (spec.spec.model.activation == Activation::relu) EXPECT_EQ(data.find("\"activation\""), std::string::npos) << data;
  }
}

TEST(Link, ASpecWithEveryFieldChangedRoundTripsBitExactly) {
  SpecResult r = parse_spec_text(R"({"version":1,"name":"every field \"quoted\" é ∞","description":"line\nbreak\ttab",
      "model":{"widths":[3,5],"activation":"gelu","input_bias":true,"biases":true},
      "parametrization":{"preset":"custom","theta":0.1,"custom":[{"a":0,"b":0.1,"c":1e-9},{"a":0.5,"b":0,"c":0},{"a":0.5,"b":0,"c":0.3}]},
      "task":{"kind":"sectors","input_dim":2,"classes":4,"twist":1.5,"seed":9007199254740991,"train_size":40,"test_size":30,"frequency":0.3},
      "optimizer":{"kind":"adamw","lr":0.0030000000000000001,"momentum":0.5,"beta1":0.8,"beta2":0.99,"eps":1e-7,"weight_decay":0.01},
      "schedule":{"steps":77,"batch_size":8,"record_every":7,"divergence_loss":1000},
      "sweep":{"width":[4,8],"lr":[0.1,0.01],"seeds":[1,2,3]},
      "metrics":["train_loss","test_accuracy","act_rms"]})");
  ASSERT_TRUE(r.ok()) << all_errors(r);
  SpecResult back = spec_from_link(spec_to_link(r.spec));
  ASSERT_TRUE(back.ok()) << all_errors(back);
  EXPECT_EQ(canonical(back.spec), canonical(r.spec));
  EXPECT_EQ(back.spec.optimizer.lr, r.spec.optimizer.lr);
  EXPECT_EQ(back.spec.task.seed, 9007199254740991u);
  EXPECT_TRUE(back.spec.model.biases);
}

TEST(Link, TheLongestValidSpecFitsUnderTheLengthLimit) {
  ExperimentSpec s;
  s.name = std::string(200, '\x01');         // every character written as \u0001
  s.description = std::string(4000, '\x02');
  ASSERT_TRUE(check_spec(s).empty());
  const std::string link = spec_to_link(s);
  EXPECT_LT(link.size(), kMaxLinkChars);
  SpecResult back = spec_from_link(link);
  ASSERT_TRUE(back.ok()) << all_errors(back);
  EXPECT_EQ(back.spec.description, s.description);
}

TEST(Link, StoredLinksOfOlderVersionsOpenTheSpecTheyWereMadeFor) {
  std::string text;
  ASSERT_TRUE(read_text_file(kFixtures + "/stored_links.json", text));
  json::ParseResult stored = json::parse(text);
  ASSERT_TRUE(stored.ok()) << stored.error;
  int versions_seen[2] = {0, 0};
  for (const json::Value& item : stored.value.array) {
    const std::string& link = item.find("link")->string;
    SpecResult r = spec_from_link(link);
    ASSERT_TRUE(r.ok()) << link << "\n" << all_errors(r);
    EXPECT_EQ(json::write(spec_to_json(r.spec), 2), json::write(*item.find("spec"), 2)) << item.find("note")->string;
    versions_seen[link.compare(0, 5, "#s=0.") == 0 ? 0 : 1]++;
  }
  EXPECT_GE(versions_seen[0], 1);
  EXPECT_GE(versions_seen[1], 3);
}

TEST(Link, NamesEveryKindOfBadLink) {
  expect_link_error("", "does not start with \"#s=\"");
  expect_link_error("#view=plot", "not a share link of this site");
  expect_link_error("#s=", "has no spec version");
  expect_link_error("#s=1", "has no spec version");
  expect_link_error("#s=x.e30", "has no spec version");
  expect_link_error("#s=12345678901234567890.e30", "spec version of 20 digits");
  expect_link_error("#s=2.e30", "made by a newer build (spec version 2; this build reads versions 0 to 1)");
  expect_link_error("#s=1.e30A", "truncated");
  expect_link_error("#s=1.e3*0", "'*' at character 3, which is not base64url");
  expect_link_error("#s=1.e3%200", "'%' at character 3");
  expect_link_error("#s=1.e30&r=", "where \"&r=\" and a result version were expected");
  expect_link_error("#s=1.e30&r=x", "where \"&r=\" and a result version were expected");
  expect_link_error("#s=1.e30&q=1", "ends in \"&q=1\"");
  expect_link_error("#s=1.e30&r=1234567", "result version were expected");
  expect_link_error("#s=1.e30&r=0", "result version 0");
  // A link cut short mid-way: the JSON inside ends early.
  const std::string full = spec_to_link(parse_spec_text(R"({"version":1,"name":"cut","schedule":{"steps":9}})").spec);
  expect_link_error(full.substr(0, full.find('&') - 8), "not JSON (truncated or corrupted?)");
  expect_link_error(link_of_json(1, "[1,2]"), "data is a JSON array, not a spec");
  expect_link_error(link_of_json(1, "{\"name\":\"\xff\xfe\"}"), "not valid UTF-8");
  expect_link_error(link_of_json(1, "{\"name\":\"\\ud800\"}"), "not valid UTF-8");
  // Valid JSON, invalid spec: the field is named with its path.
  expect_link_error(link_of_json(1, R"({"model":{"widths":[8,0]}})"), "model.widths[1]: 0 is not in [1, 16384]");
  expect_link_error(link_of_json(1, R"({"colour":1})"), "colour: unknown field");
}

TEST(Link, HostileLinksAreRefusedQuicklyWithAReason) {
  expect_link_error(link_of_json(1, R"({"optimizer":{"lr":1e999}})"), "number out of range");
  expect_link_error(link_of_json(1, R"({"optimizer":{"lr":1e300}})"), "optimizer.lr: 1e+300 is not in");
  expect_link_error(link_of_json(1, R"({"schedule":{"steps":1e15}})"), "schedule.steps: 1e+15 is not in");
  expect_link_error(link_of_json(1, R"({"model":{"widths":[16384,16384,16384]},"sweep":{"width":[16384]}})"),
                    "more than the limit");  // the memory budget
  expect_link_error(link_of_json(1, "{\"a\":" + std::string(5000, '[') + std::string(5000, ']') + "}"),
                    "nesting deeper than 64");
  std::string many = "{\"model\":{\"widths\":[1";
  for (int i = 0; i < 20000; i++) many += ",1";
  expect_link_error(link_of_json(1, many + "]}}"), "model.widths: 20001 items, more than 16");
  expect_link_error("#s=1." + std::string(3 << 20, 'A'), "is 3145732 characters long, more than the limit of 65536");
  expect_link_error(link_of_json(1, "{\"name\":\"" + std::string(60000, 'x') + "\"}"), "more than the limit");
  expect_link_error(link_of_json(1, "{\"name\":\"" + std::string(1000, 'x') + "\"}"), "name: longer than 200 characters");
}
