// HTML text escaping for the pages pincer writes (run reports, ladders, book reports).
#pragma once

#include <string>
#include <string_view>

namespace pincer {

// `text` safe inside an HTML element or a double-quoted attribute: & < > " as entities.
inline std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace pincer
