#include <gtest/gtest.h>

#include "engine/base/json.hpp"

TEST(Json, ParsesAndWritesBackTheSameDocument) {
  const std::string text = R"({"a":1,"b":[true,false,null],"c":{"d":"x\ny\u00e9"},"e":-2.5e-3})";
  json::ParseResult r = json::parse(text);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(json::write(r.value), text.substr(0, text.find("\\u00e9")) + "\xc3\xa9\"},\"e\":-0.0025}");
  json::ParseResult again = json::parse(json::write(r.value, 2));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(json::write(again.value), json::write(r.value));
}

TEST(Json, NumbersRoundTripBitExactly) {
  for (double x : {0.1, 1.0 / 3.0, 6.02214076e23, -1e-300, 123456789.0}) {
    json::ParseResult r = json::parse(json::write(json::Value::make_number(x)));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.value.number, x);
  }
}

TEST(Json, KeepsKeyOrder) {
  json::ParseResult r = json::parse(R"({"z":1,"a":2})");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value.object[0].first, "z");
}

TEST(Json, RejectsMalformedTextWithPosition) {
  for (const char* bad : {"", "{", "[1,]", "{\"a\" 1}", "tru", "\"abc", "1 2", "{\"a\":1,\"a\":2}", "01x",
                          "[1e999]", "\"\\x\""}) {
    json::ParseResult r = json::parse(bad);
    EXPECT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.error.find("at byte"), std::string::npos) << r.error;
  }
}

TEST(Json, CapsNestingDepth) {
  std::string deep(json::kMaxDepth + 5, '[');
  deep += std::string(json::kMaxDepth + 5, ']');
  json::ParseResult r = json::parse(deep);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error.find("nesting"), std::string::npos);
  std::string ok(20, '[');
  ok += std::string(20, ']');
  EXPECT_TRUE(json::parse(ok).ok());
}

TEST(Json, CapsTextSize) {
  std::string huge = "\"" + std::string(json::kMaxTextBytes + 10, 'a') + "\"";
  json::ParseResult r = json::parse(huge);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error.find("limit"), std::string::npos);
}
