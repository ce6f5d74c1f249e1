#include "web/draw/i18n.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <set>
#include <unordered_map>

#include "engine/base/json.hpp"

namespace {

// A catalogue entry with `{name}` placeholders, split into its literal pieces: literals[0] {a} literals[1] {b} ...
struct Pattern {
  std::vector<std::string> literals, names;
  std::string translation;
};

struct Catalogue {
  Language language = Language::en;
  int changes = 0;
  std::unordered_map<std::string, std::string> texts;
  std::vector<Pattern> patterns;
  std::unordered_map<std::string, std::string> labels, messages;  // answers kept: the same texts come every frame
  std::set<std::string> missing;
};

// Messages kept translated, at most: the same few are drawn every frame, and those with changing values are not kept
// forever.
constexpr size_t kKeptMessages = 1000;

Catalogue& catalogue() {
  static Catalogue c;
  return c;
}

bool is_name_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }

// Splits "{field}: {value} is above {max}" into literals and names; false when the text has no placeholder.
bool split_pattern(const std::string& text, Pattern& p) {
  std::string literal;
  for (size_t i = 0; i < text.size(); ++i) {
    size_t end = i + 1;
    while (text[i] == '{' && end < text.size() && is_name_char(text[end])) ++end;
    if (text[i] == '{' && end > i + 1 && end < text.size() && text[end] == '}') {
      p.literals.push_back(literal);
      p.names.push_back(text.substr(i + 1, end - i - 1));
      literal.clear();
      i = end;
    } else {
      literal += text[i];
    }
  }
  p.literals.push_back(literal);
  return !p.names.empty();
}

// Matches `text` from `pos` against the pattern's pieces from piece `k`, each placeholder taking at least one byte;
// fills `values`. Backtracks, so "{a} and {b}" finds the split that lets the rest match.
bool match_from(const Pattern& p, size_t k, const std::string& text, size_t pos, std::vector<std::string>& values) {
  const std::string& literal = p.literals[k];
  if (text.compare(pos, literal.size(), literal) != 0) return false;
  pos += literal.size();
  if (k == p.names.size()) return pos == text.size();
  for (size_t end = pos + 1; end <= text.size(); ++end) {
    values[k] = text.substr(pos, end - pos);
    if (match_from(p, k + 1, text, end, values)) return true;
  }
  return false;
}

size_t literal_size(const Pattern& p) {
  size_t n = 0;
  for (const std::string& literal : p.literals) n += literal.size();
  return n;
}

std::string translate_quietly(const Catalogue& c, const std::string& english, int depth);

// The translation with each placeholder's value, itself translated where the catalogue knows it (a message quoted
// inside another: "Nothing was started: {problem}").
std::string fill(const Catalogue& c, const Pattern& p, const std::vector<std::string>& values, int depth) {
  std::string out = p.translation;
  for (size_t k = 0; k < p.names.size(); ++k) {
    const std::string placeholder = "{" + p.names[k] + "}";
    const std::string value = translate_quietly(c, values[k], depth + 1);
    for (size_t at = out.find(placeholder); at != std::string::npos; at = out.find(placeholder, at + value.size())) {
      out.replace(at, placeholder.size(), value);
    }
  }
  return out;
}

// The catalogue's text for `english`, or the most specific pattern's (the most literal text) filled in; `english`
// itself when nothing matches. A message quotes others only a few levels deep (a link's problem quotes the decoder's,
// which quotes the JSON parser's).
constexpr int kQuotedLevels = 8;
std::string translate_quietly(const Catalogue& c, const std::string& english, int depth) {
  auto exact = c.texts.find(english);
  if (exact != c.texts.end()) return exact->second;
  const Pattern* best = nullptr;
  std::vector<std::string> best_values;
  for (const Pattern& p : c.patterns) {
    std::vector<std::string> values(p.names.size());
    if ((!best || literal_size(p) > literal_size(*best)) && match_from(p, 0, english, 0, values)) {
      best = &p;
      best_values = std::move(values);
    }
  }
  return best && depth < kQuotedLevels ? fill(c, *best, best_values, depth) : english;
}

const std::string* find_text(const std::string& english) {
  Catalogue& c = catalogue();
  auto it = c.texts.find(english);
  if (it != c.texts.end()) return &it->second;
  c.missing.insert(english);
  return nullptr;
}

// A text worth translating has a letter: "0.001", "η*" or "" stand as they are.
bool has_words(const std::string& text) {
  return std::any_of(text.begin(), text.end(),
                     [](char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); });
}

}  // namespace

// U+3000 to U+9FFF are three UTF-8 bytes led by 0xE3 to 0xE9.
bool has_chinese(const std::string& text) {
  return std::any_of(text.begin(), text.end(), [](char ch) {
    const auto byte = static_cast<unsigned char>(ch);
    return byte >= 0xE3 && byte <= 0xE9;
  });
}

std::string set_page_language(Language language, const std::string& catalogue_text) {
  Catalogue next;
  next.language = language;
  next.changes = catalogue().changes + 1;
  if (language == Language::zh) {
    const json::ParseResult parsed = json::parse(catalogue_text);
    if (!parsed.ok()) return "the Chinese catalogue is not JSON: " + parsed.error;
    if (!parsed.value.is_object()) return "the Chinese catalogue is not a JSON object";
    for (const auto& [english, chinese] : parsed.value.object) {
      if (!chinese.is_string()) return "the Chinese catalogue's entry \"" + english + "\" is not a string";
      next.texts[english] = chinese.string;
      Pattern p;
      if (split_pattern(english, p)) {
        p.translation = chinese.string;
        next.patterns.push_back(std::move(p));
      }
    }
  }
  catalogue() = std::move(next);
  return "";
}

Language page_language() { return catalogue().language; }
int page_language_changes() { return catalogue().changes; }

const char* tr(const char* english) {
  if (catalogue().language == Language::en || !has_words(english)) return english;
  const std::string* found = find_text(english);
  return found ? found->c_str() : english;
}

std::string tr(const std::string& english) { return tr(english.c_str()); }

std::string trf(const char* english_format, ...) {
  const char* format = tr(english_format);
  va_list args, again;
  va_start(args, english_format);
  va_copy(again, args);
  const int size = std::vsnprintf(nullptr, 0, format, args);
  std::string out(size > 0 ? size_t(size) : 0, '\0');
  if (size > 0) std::vsnprintf(out.data(), out.size() + 1, format, again);
  va_end(again);
  va_end(args);
  return out;
}

const char* tr_label(const char* label) {
  Catalogue& c = catalogue();
  auto kept = c.labels.find(label);
  if (kept != c.labels.end()) return kept->second.c_str();
  const std::string whole = label;
  const size_t hashes = whole.find("##");
  const std::string visible = whole.substr(0, hashes);
  // "###" keeps the id whatever is drawn; a label that already has "###" keeps its own.
  const bool own_id = hashes != std::string::npos && whole.compare(hashes, 3, "###") == 0;
  std::string shown = tr(visible);
  std::string answer = own_id ? shown + whole.substr(hashes) : shown + "###" + whole;
  return c.labels.emplace(whole, std::move(answer)).first->second.c_str();
}

std::string tr_message(const std::string& english) {
  Catalogue& c = catalogue();
  // Text with ideographs is already in Chinese (a reason web/js/ translated).
  if (c.language == Language::en || !has_words(english) || has_chinese(english)) return english;
  auto kept = c.messages.find(english);
  if (kept != c.messages.end()) return kept->second;
  std::string answer = translate_quietly(c, english, 0);
  if (answer == english) c.missing.insert(english);
  if (c.messages.size() >= kKeptMessages) c.messages.clear();  // messages with values in them need not pile up
  return c.messages.emplace(english, std::move(answer)).first->second;
}

std::vector<std::string> take_missing_translations() {
  std::vector<std::string> list(catalogue().missing.begin(), catalogue().missing.end());
  catalogue().missing.clear();
  return list;
}
