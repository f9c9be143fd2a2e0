// Reading protobuf text format (ruleset files, run configs, gate logs) with the position of the
// first problem, so every reader names the line and column the same way.
#pragma once

#include <google/protobuf/text_format.h>

#include <string>

namespace pincer {

// The first error the parser reported; line and column count from 0, -1 when none was reported.
struct TextFormatError {
  int line = -1;
  int column = -1;
  std::string message;
  // "line L:C: message" (counting from 1), or "cannot parse" when the parser said nothing.
  std::string describe() const;
};

struct TextFormatOptions {
  bool allow_unknown_fields = false;
  // Where each parsed field stood in the text, for readers that need it (base rulesets).
  google::protobuf::TextFormat::ParseInfoTree* locations = nullptr;
};

// Parses `text` into `out`; false (and `error` filled in) when it is not valid for `out`.
bool parse_text_format(const std::string& text, google::protobuf::Message& out,
                       TextFormatError& error, const TextFormatOptions& options = {});

}  // namespace pincer
