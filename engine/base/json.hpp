// A small JSON value, parser and writer.
//
// Why our own: the project's dependency list is Eigen, Dear ImGui and GLFW only, and specs are tiny.
// Objects keep their key order so a spec written back out reads like the file it came from.
// The parser never aborts: bad text gives an error with the byte offset. Depth and size are capped
// so a hostile share link cannot exhaust the stack or memory.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace json {

enum class Type { null, boolean, number, string, array, object };

struct Value {
  Type type = Type::null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Value> array;
  std::vector<std::pair<std::string, Value>> object;

  static Value make_bool(bool b);
  static Value make_number(double x);
  static Value make_string(std::string s);
  static Value make_array();
  static Value make_object();

  // Object access: find returns nullptr when the key is absent.
  const Value* find(const std::string& key) const;
  Value& set(const std::string& key, Value v);  // replaces or appends
  Value& push(Value v);                         // array append

  bool is_number() const { return type == Type::number; }
  bool is_string() const { return type == Type::string; }
  bool is_array() const { return type == Type::array; }
  bool is_object() const { return type == Type::object; }
};

const char* type_name(Type t);

struct ParseResult {
  Value value;
  std::string error;  // empty on success
  bool ok() const { return error.empty(); }
};

constexpr int kMaxDepth = 64;
constexpr size_t kMaxTextBytes = 4 << 20;

ParseResult parse(const std::string& text);

// indent < 0: compact one line; otherwise pretty-printed with that many spaces.
// Numbers are written with 17 significant digits so they read back bit-identical.
std::string write(const Value& v, int indent = -1);

}  // namespace json
