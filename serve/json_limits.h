// Limits on JSON from clients, checked on the text before it is parsed: nesting depth. A
// document nested deeper than the limit is refused without building it, so nothing recursive
// (a copy, a dump, a destructor) ever walks user data of unbounded depth.
#pragma once

#include <string_view>

#include "serve/query.h"

namespace pincer::serve {

constexpr int kMaxJsonDepth = 64;

// The deepest nesting of arrays and objects in `text`, counting brackets outside strings (the
// text need not be valid JSON); stops counting once past `stop_after`.
int json_depth(std::string_view text, int stop_after = kMaxJsonDepth);

// Parses `text` as JSON after checking its depth; throws QueryError(field, ...) when it is
// nested deeper than kMaxJsonDepth or is not JSON.
Json parse_json_limited(std::string_view text, const std::string& field = "");

}  // namespace pincer::serve
