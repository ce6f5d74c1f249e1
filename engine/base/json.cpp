#include "engine/base/json.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace json {

Value Value::make_bool(bool b) { Value v; v.type = Type::boolean; v.boolean = b; return v; }
Value Value::make_number(double x) { Value v; v.type = Type::number; v.number = x; return v; }
Value Value::make_string(std::string s) { Value v; v.type = Type::string; v.string = std::move(s); return v; }
Value Value::make_array() { Value v; v.type = Type::array; return v; }
Value Value::make_object() { Value v; v.type = Type::object; return v; }

const Value* Value::find(const std::string& key) const {
  for (const auto& kv : object)
    if (kv.first == key) return &kv.second;
  return nullptr;
}

Value& Value::set(const std::string& key, Value v) {
  for (auto& kv : object)
    if (kv.first == key) return kv.second = std::move(v);
  object.emplace_back(key, std::move(v));
  return object.back().second;
}

Value& Value::push(Value v) {
  array.push_back(std::move(v));
  return array.back();
}

const char* type_name(Type t) {
  switch (t) {
    case Type::null: return "null";
    case Type::boolean: return "boolean";
    case Type::number: return "number";
    case Type::string: return "string";
    case Type::array: return "array";
    case Type::object: return "object";
  }
  return "?";
}

namespace {

struct Parser {
  const std::string& s;
  size_t i = 0;
  std::string error;

  bool fail(const std::string& what) {
    if (error.empty()) error = what + " at byte " + std::to_string(i);
    return false;
  }
  void skip_ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) i++;
  }
  bool literal(const char* word) {
    size_t n = 0;
    while (word[n]) n++;
    if (s.compare(i, n, word) != 0) return fail("invalid literal");
    i += n;
    return true;
  }

  bool value(Value& out, int depth) {
    if (depth > kMaxDepth) return fail("nesting deeper than " + std::to_string(kMaxDepth));
    skip_ws();
    if (i >= s.size()) return fail("unexpected end of text");
    char c = s[i];
    if (c == '{') return object(out, depth);
    if (c == '[') return array(out, depth);
    if (c == '"') { out.type = Type::string; return string(out.string); }
    if (c == 't') { out = Value::make_bool(true); return literal("true"); }
    if (c == 'f') { out = Value::make_bool(false); return literal("false"); }
    if (c == 'n') { out = Value(); return literal("null"); }
    if (c == '-' || (c >= '0' && c <= '9')) return number(out);
    return fail(std::string("unexpected character '") + c + "'");
  }

  bool number(Value& out) {
    size_t start = i;
    if (s[i] == '-') i++;
    auto digits = [&] { size_t d = i; while (i < s.size() && s[i] >= '0' && s[i] <= '9') i++; return i > d; };
    if (!digits()) return fail("invalid number");
    if (i < s.size() && s[i] == '.') { i++; if (!digits()) return fail("invalid number"); }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
      i++;
      if (i < s.size() && (s[i] == '+' || s[i] == '-')) i++;
      if (!digits()) return fail("invalid number");
    }
    std::string text = s.substr(start, i - start);
    double x = std::strtod(text.c_str(), nullptr);
    if (!std::isfinite(x)) return fail("number out of range");
    out = Value::make_number(x);
    return true;
  }

  static void append_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) out += char(cp);
    else if (cp < 0x800) { out += char(0xC0 | (cp >> 6)); out += char(0x80 | (cp & 0x3F)); }
    else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12)); out += char(0x80 | ((cp >> 6) & 0x3F)); out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18)); out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F)); out += char(0x80 | (cp & 0x3F));
    }
  }

  bool hex4(unsigned& cp) {
    cp = 0;
    if (i + 4 > s.size()) return fail("truncated \\u escape");
    for (int k = 0; k < 4; k++) {
      char h = s[i++];
      cp <<= 4;
      if (h >= '0' && h <= '9') cp |= unsigned(h - '0');
      else if (h >= 'a' && h <= 'f') cp |= unsigned(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') cp |= unsigned(h - 'A' + 10);
      else return fail("invalid \\u escape");
    }
    return true;
  }

  bool string(std::string& out) {
    i++;  // opening quote
    out.clear();
    while (i < s.size()) {
      char c = s[i++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return fail("control character in string");
      if (c != '\\') { out += c; continue; }
      if (i >= s.size()) break;
      char e = s[i++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned cp = 0;
          if (!hex4(cp)) return false;
          if (cp >= 0xD800 && cp < 0xDC00 && i + 1 < s.size() && s[i] == '\\' && s[i + 1] == 'u') {
            i += 2;
            unsigned lo = 0;
            if (!hex4(lo)) return false;
            if (lo < 0xDC00 || lo > 0xDFFF) return fail("invalid surrogate pair");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          append_utf8(out, cp);
          break;
        }
        default: return fail("invalid escape");
      }
    }
    return fail("unterminated string");
  }

  bool array(Value& out, int depth) {
    out = Value::make_array();
    i++;
    skip_ws();
    if (i < s.size() && s[i] == ']') { i++; return true; }
    while (true) {
      Value item;
      if (!value(item, depth + 1)) return false;
      out.array.push_back(std::move(item));
      skip_ws();
      if (i < s.size() && s[i] == ',') { i++; continue; }
      if (i < s.size() && s[i] == ']') { i++; return true; }
      return fail("expected ',' or ']'");
    }
  }

  bool object(Value& out, int depth) {
    out = Value::make_object();
    i++;
    skip_ws();
    if (i < s.size() && s[i] == '}') { i++; return true; }
    while (true) {
      skip_ws();
      if (i >= s.size() || s[i] != '"') return fail("expected a quoted key");
      std::string key;
      if (!string(key)) return false;
      if (out.find(key)) return fail("duplicate key \"" + key + "\"");
      skip_ws();
      if (i >= s.size() || s[i] != ':') return fail("expected ':'");
      i++;
      Value item;
      if (!value(item, depth + 1)) return false;
      out.object.emplace_back(std::move(key), std::move(item));
      skip_ws();
      if (i < s.size() && s[i] == ',') { i++; continue; }
      if (i < s.size() && s[i] == '}') { i++; return true; }
      return fail("expected ',' or '}'");
    }
  }
};

void write_string(std::string& out, const std::string& s) {
  out += '"';
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

void write_number(std::string& out, double x) {
  if (!std::isfinite(x)) { out += "null"; return; }  // JSON has no inf/NaN
  char buf[32];
  // Shortest of %.15g / %.17g that reads back exactly: keeps files readable and round trips exact.
  std::snprintf(buf, sizeof buf, "%.15g", x);
  if (std::strtod(buf, nullptr) != x) std::snprintf(buf, sizeof buf, "%.17g", x);
  out += buf;
}

void write_value(std::string& out, const Value& v, int indent, int level) {
  auto newline = [&](int lvl) {
    if (indent < 0) return;
    out += '\n';
    out.append(size_t(indent * lvl), ' ');
  };
  switch (v.type) {
    case Type::null: out += "null"; break;
    case Type::boolean: out += v.boolean ? "true" : "false"; break;
    case Type::number: write_number(out, v.number); break;
    case Type::string: write_string(out, v.string); break;
    case Type::array: {
      // Arrays of plain numbers stay on one line: series and width lists read better that way.
      bool flat = true;
      for (const auto& x : v.array) flat = flat && (x.type == Type::number || x.type == Type::null);
      out += '[';
      for (size_t k = 0; k < v.array.size(); k++) {
        if (k) out += flat || indent < 0 ? (indent < 0 ? "," : ", ") : ",";
        if (!flat) newline(level + 1);
        write_value(out, v.array[k], indent, level + 1);
      }
      if (!flat && !v.array.empty()) newline(level);
      out += ']';
      break;
    }
    case Type::object: {
      out += '{';
      for (size_t k = 0; k < v.object.size(); k++) {
        if (k) out += ',';
        newline(level + 1);
        write_string(out, v.object[k].first);
        out += indent < 0 ? ":" : ": ";
        write_value(out, v.object[k].second, indent, level + 1);
      }
      if (!v.object.empty()) newline(level);
      out += '}';
      break;
    }
  }
}

}  // namespace

ParseResult parse(const std::string& text) {
  ParseResult r;
  if (text.size() > kMaxTextBytes) {
    r.error = "text is " + std::to_string(text.size()) + " bytes, more than the limit of " +
              std::to_string(kMaxTextBytes);
    return r;
  }
  Parser p{text, 0, {}};
  if (p.value(r.value, 0)) {
    p.skip_ws();
    if (p.i != text.size()) p.fail("trailing characters");
  }
  r.error = p.error;
  if (!r.ok()) r.value = Value();
  return r;
}

std::string write(const Value& v, int indent) {
  std::string out;
  write_value(out, v, indent, 0);
  return out;
}

}  // namespace json
