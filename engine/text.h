// Small text helpers shared by the games' parsers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pincer {

// Splits on any whitespace, dropping empty words.
std::vector<std::string> split_words(std::string_view text);
// Whether `text` ends with `tail` (std::string::ends_with is C++20).
inline bool ends_with(std::string_view text, std::string_view tail) {
  return text.size() >= tail.size() && text.substr(text.size() - tail.size()) == tail;
}
// A decimal number of at most six digits in [0, max]; false for anything else.
bool parse_uint(std::string_view text, int max, int& out);
// The text in single quotes with bytes outside printable ASCII shown as \xNN, for error messages
// that must stay readable whatever the input was.
std::string quoted(std::string_view text);
// Exact matches for strings and literals, so that a file that also sees std::quoted (<iomanip>,
// found by argument-dependent lookup) still calls this one.
inline std::string quoted(const std::string& text) { return quoted(std::string_view(text)); }
inline std::string quoted(const char* text) { return quoted(std::string_view(text)); }

}  // namespace pincer
