#include "engine/spec/link.hpp"

#include "engine/base/base64url.hpp"
#include "engine/spec/result_files.hpp"
#include "engine/spec/spec_migrations.hpp"

namespace {

constexpr const char* kPrefix = "s=";
constexpr const char* kResultPart = "&r=";

LinkResult failed(const std::string& why) {
  LinkResult r;
  r.errors.push_back("link: " + why);
  return r;
}

// True when `bytes` is well-formed UTF-8 (no overlong forms, no surrogates, at most U+10FFFF): a link's text
// ends up in the page's widgets and files, which should never carry broken characters.
bool valid_utf8(const std::string& bytes) {
  const size_t n = bytes.size();
  for (size_t i = 0; i < n;) {
    const unsigned char c = static_cast<unsigned char>(bytes[i]);
    if (c < 0x80) { i++; continue; }
    size_t extra;
    unsigned cp, min;
    if ((c & 0xe0) == 0xc0) { extra = 1; cp = c & 0x1fu; min = 0x80; }
    else if ((c & 0xf0) == 0xe0) { extra = 2; cp = c & 0x0fu; min = 0x800; }
    else if ((c & 0xf8) == 0xf0) { extra = 3; cp = c & 0x07u; min = 0x10000; }
    else return false;
    if (i + extra >= n) return false;
    for (size_t k = 1; k <= extra; k++) {
      const unsigned char d = static_cast<unsigned char>(bytes[i + k]);
      if ((d & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3fu);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000)) return false;
    i += extra + 1;
  }
  return true;
}

}  // namespace

json::Value fields_differing_from(const json::Value& doc, const json::Value& base) {
  json::Value out = json::Value::make_object();
  for (const auto& [key, value] : doc.object) {
    const json::Value* b = base.find(key);
    if (b && value.is_object() && b->is_object()) {
      json::Value inner = fields_differing_from(value, *b);
      if (!inner.object.empty()) out.set(key, inner);
    } else if (!b || json::write(value) != json::write(*b)) {
      out.set(key, value);
    }
  }
  return out;
}

std::string spec_to_link(const ExperimentSpec& spec) {
  // The version travels in the prefix, so it is left out of the data (it always equals the default's).
  ExperimentSpec base;
  // A transformer's sub-objects are diffed against their own defaults; the kinds that switch them on always
  // travel, since the reader starts from the MLP defaults.
  const bool transformer = is_transformer(spec.model.kind);
  const bool anchor = spec.task.kind == TaskKind::anchor;
  if (transformer) base.model.kind = spec.model.kind;
  if (anchor) base.task.kind = TaskKind::anchor;
  json::Value diff = fields_differing_from(spec_to_json(spec), spec_to_json(base));
  auto keep_kind = [&](const char* object, const char* kind) {
    json::Value o = diff.find(object) ? *diff.find(object) : json::Value::make_object();
    o.set("kind", json::Value::make_string(kind));
    diff.set(object, o);
  };
  if (transformer) keep_kind("model", model_kind_name(spec.model.kind));
  if (anchor) keep_kind("task", task_name(spec.task.kind));
  return kPrefix + std::to_string(spec.version) + "." + base64url_encode(json::write(diff)) + kResultPart +
         std::to_string(kResultVersion);
}

LinkResult spec_from_link(const std::string& fragment, const SpecLimits& limits) {
  const size_t start = !fragment.empty() && fragment[0] == '#' ? 1 : 0;
  const size_t length = fragment.size() - start;
  if (length > kMaxLinkChars)
    return failed("is " + std::to_string(length) + " characters long, more than the limit of " +
                  std::to_string(kMaxLinkChars) + " (no spec needs that many)");
  if (fragment.compare(start, 2, kPrefix) != 0)
    return failed("does not start with \"#s=\", so it is not a share link of this site");
  // The spec version: digits up to the '.', at most 6 of them (no hostile 10^300-digit numbers to convert).
  size_t pos = start + 2, digits = 0;
  int version = 0;
  for (; pos < fragment.size() && fragment[pos] >= '0' && fragment[pos] <= '9'; pos++, digits++)
    if (digits < 6) version = version * 10 + (fragment[pos] - '0');
  if (digits == 0 || pos >= fragment.size() || fragment[pos] != '.')
    return failed("has no spec version after \"#s=\" (expected e.g. \"#s=" + std::to_string(kSpecVersion) + ".\")");
  if (digits > 6) return failed("has a spec version of " + std::to_string(digits) + " digits (corrupted?)");
  pos++;
  // The result version, after the data: "&r=" and 1 to 6 digits, last.
  int result_version = 1;
  size_t data_end = fragment.find('&', pos);
  if (data_end != std::string::npos) {
    const size_t r = data_end + 3;
    if (fragment.compare(data_end, 3, kResultPart) != 0 || r == fragment.size() || fragment.size() - r > 6 ||
        fragment.find_first_not_of("0123456789", r) != std::string::npos)
      return failed("ends in \"" + fragment.substr(data_end, 12) + "\" where \"&r=\" and a result version were "
                    "expected (corrupted?)");
    result_version = std::stoi(fragment.substr(r));
    if (result_version < 1) return failed("has result version 0 (they start at 1; corrupted?)");
  } else {
    data_end = fragment.size();
  }
  if (version > kSpecVersion)
    return failed("was made by a newer build (spec version " + std::to_string(version) + "; this build reads versions " +
                  std::to_string(kOldestSpecVersion) + " to " + std::to_string(kSpecVersion) + ")");
  std::string bytes, error;
  if (!base64url_decode(fragment.substr(pos, data_end - pos), bytes, error)) return failed("data " + error);
  json::ParseResult parsed = json::parse(bytes);
  if (!parsed.ok()) return failed("data is not JSON (truncated or corrupted?): " + parsed.error);
  json::Value& doc = parsed.value;
  if (!doc.is_object()) return failed(std::string("data is a JSON ") + json::type_name(doc.type) + ", not a spec");
  if (!valid_utf8(json::write(doc))) return failed("data holds text that is not valid UTF-8 (corrupted?)");
  // The prefix's version is the document's: first, as in a spec file.
  for (auto it = doc.object.begin(); it != doc.object.end(); ++it)
    if (it->first == "version") { doc.object.erase(it); break; }
  doc.object.insert(doc.object.begin(), {"version", json::Value::make_number(version)});
  LinkResult out;
  static_cast<SpecResult&>(out) = read_spec_document(doc, limits);
  out.result_version = result_version;
  return out;
}
