#include "serve/json_limits.h"

namespace pincer::serve {

int json_depth(std::string_view text, int stop_after) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > stop_after) return deepest;
    } else if (c == ']' || c == '}') {
      if (depth > 0) --depth;
    }
  }
  return deepest;
}

Json parse_json_limited(std::string_view text, const std::string& field) {
  const std::string where = field.empty() ? "" : "\"" + field + "\": ";
  if (json_depth(text) > kMaxJsonDepth) {
    throw QueryError(
        field, where + "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  }
  Json j = Json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded()) throw QueryError(field, where + "not valid JSON");
  return j;
}

}  // namespace pincer::serve
