// Small text helpers shared by the games' parsers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pincer {

// Splits on any whitespace, dropping empty words.
std::vector<std::string> split_words(std::string_view text);
// A decimal number of at most six digits in [0, max]; false for anything else.
bool parse_uint(std::string_view text, int max, int& out);
// The text in single quotes with bytes outside printable ASCII shown as \xNN, for error messages
// that must stay readable whatever the input was.
std::string quoted(std::string_view text);

}  // namespace pincer
