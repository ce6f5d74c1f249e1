// The page's two languages. The code is written in English; Chinese comes from one catalogue, web/i18n/zh.json: an
// object from each English text, exactly as the code passes it to tr(), to its Chinese. Keying by the English keeps a
// view readable where it draws ("Run", not a key's name) and makes a stale translation visible: change the English and
// its entry no longer matches (tests/node/i18n_catalogue.test.mjs lists every text the code translates and checks the
// catalogue against it). printf directives (%d, %.3g) and `{name}` placeholders appear in both texts in the same order.
//
// The catalogue is not inside the module: web/js/language.js fetches it with the Chinese font only when the page turns
// to Chinese, writes both into the module's file system and calls muplay_set_language.
#pragma once
#include <string>
#include <vector>

enum class Language { en, zh };

// Switches the page's language. For zh, `catalogue` is the text of web/i18n/zh.json; returns why it cannot be used
// ("" when it can), leaving the language as it was.
std::string set_page_language(Language language, const std::string& catalogue);
Language page_language();
// Counts the switches, so that the font and anything cached per language can follow.
int page_language_changes();

// `english` in the page's language: the catalogue's text, or `english` itself when it has none (noted as missing).
const char* tr(const char* english);
std::string tr(const std::string& english);

// printf into a string, with the format (a literal: "%d of %d runs") in the page's language. The Chinese keeps
// the English's directives in the same order (tests/node/i18n_catalogue.test.mjs checks it).
std::string trf(const char* english_format, ...) __attribute__((format(printf, 1, 2)));

// Marks a text the code keeps in a table and translates where it draws it, with tr(): the catalogue's test finds the
// texts the page translates by these three names.
constexpr const char* translatable(const char* english) { return english; }

// An ImGui label in the page's language that keeps its widget's id in both ("运行###Run"), so switching the language
// keeps the selected tab, an open tree node or a scrolled list. Only the visible part (before "##") is translated.
// For fixed labels: each one is kept (a label with a number in it belongs in a tr()'d format, then "##" + its id).
const char* tr_label(const char* label);

// A message the engine wrote in English with values in it ("model.width: 5000 is above 4096"), in the page's language:
// the catalogue's entries with `{name}` placeholders are patterns, each placeholder matching any text, which the
// translation repeats, itself translated where the catalogue knows it (a message quoting another). Where several
// patterns match, the one with the most literal text wins. Returns `english` when nothing matches (noted as missing).
std::string tr_message(const std::string& english);

// Whether `text` has CJK ideographs or CJK punctuation (U+3000 to U+9FFF).
bool has_chinese(const std::string& text);

// Every text looked up in Chinese since the last call that the catalogue lacks, sorted (for the tests).
std::vector<std::string> take_missing_translations();
