#include "serve/query.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "serve/json_limits.h"

namespace pincer::serve {
namespace {

const std::set<std::string> kQueryFields = {
    "id",        "rules",   "position",      "moves",     "analyzeTurns",
    "maxVisits", "maxTime", "includePolicy", "includePV", "reportDuringSearchEvery",
    "priority"};
const std::set<std::string> kActionFields = {"id", "action", "terminateId", "turnNumbers"};

std::string type_name(const Json& v) { return v.type_name(); }

[[noreturn]] void bad(const std::string& field, const std::string& why) {
  throw QueryError(field, "\"" + field + "\" " + why);
}

std::string get_string(const Json& v, const std::string& field) {
  if (!v.is_string()) bad(field, "must be a string, not " + type_name(v));
  return v.get<std::string>();
}

bool get_bool(const Json& v, const std::string& field) {
  if (!v.is_boolean()) bad(field, "must be true or false, not " + type_name(v));
  return v.get<bool>();
}

int64_t get_int(const Json& v, const std::string& field, int64_t min, int64_t max) {
  if (v.is_number_integer() || v.is_number_unsigned()) {
    if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(max)) {
      bad(field, "must be at most " + std::to_string(max));
    }
    const int64_t x = v.get<int64_t>();
    if (x < min || x > max) {
      bad(field, "must be in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
    }
    return x;
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && d >= double(min) && d <= double(max)) {
      return static_cast<int64_t>(d);
    }
  }
  bad(field, "must be an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
}

double get_number(const Json& v, const std::string& field, double min, double max) {
  if (!v.is_number()) bad(field, "must be a number, not " + type_name(v));
  const double d = v.get<double>();
  if (!std::isfinite(d) || d < min || d > max) {
    bad(field, "must be in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  }
  return d;
}

std::vector<int> get_turns(const Json& v, const std::string& field) {
  if (!v.is_array()) bad(field, "must be a list of turn numbers");
  if (v.size() > kMaxMoves + 1) bad(field, "has too many entries");
  std::vector<int> out;
  for (const Json& t : v) out.push_back(static_cast<int>(get_int(t, field, 0, kMaxMoves)));
  return out;
}

// Turn numbers, each at most once.
std::vector<int> get_distinct_turns(const Json& v, const std::string& field) {
  std::vector<int> out = get_turns(v, field);
  std::vector<int> sorted = out;
  std::sort(sorted.begin(), sorted.end());
  const auto dup = std::adjacent_find(sorted.begin(), sorted.end());
  if (dup != sorted.end()) bad(field, "lists turn " + std::to_string(*dup) + " twice");
  return out;
}

}  // namespace

std::string string_field(const Json& v, const std::string& field) { return get_string(v, field); }

int64_t integer_field(const Json& v, const std::string& field, int64_t min, int64_t max) {
  return get_int(v, field, min, max);
}

double number_field(const Json& v, const std::string& field, double min, double max) {
  return get_number(v, field, min, max);
}

void check_fields(const Json& body, const std::set<std::string>& known) {
  for (auto it = body.begin(); it != body.end(); ++it) {
    if (known.count(it.key())) continue;
    std::string list;
    for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
    throw QueryError(
        it.key(), "\"" + it.key() + "\" is not a field of this request (its fields: " + list + ")");
  }
}

Json error_response(const Json& id, const std::string& message, const std::string& field) {
  Json out;
  out["id"] = id;
  out["error"] = message;
  if (!field.empty()) out["field"] = field;
  return out;
}

Request parse_request(const std::string& line, Json& id_out) {
  id_out = nullptr;
  if (line.size() > kMaxLineBytes) throw QueryError("", "query longer than 1 MiB");
  return parse_request_json(parse_json_limited(line), id_out);
}

Request parse_request_json(const Json& j, Json& id_out) {
  id_out = nullptr;
  if (!j.is_object()) throw QueryError("", "a query must be a JSON object");
  if (j.contains("id")) {
    const Json& id = j["id"];
    if (id.is_string() || id.is_number_integer() || id.is_number_unsigned()) id_out = id;
  }
  if (!j.contains("id")) throw QueryError("id", "\"id\" is required");
  if (id_out.is_null()) bad("id", "must be a string or an integer");

  Request r;
  if (j.contains("action")) {
    r.is_action = true;
    ActionRequest& a = r.action;
    a.id = id_out;
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (!kActionFields.count(it.key())) bad(it.key(), "is not a field of an action");
    }
    a.action = get_string(j["action"], "action");
    if (a.action == "terminate") {
      if (!j.contains("terminateId")) bad("terminateId", "is required by terminate");
      const Json& t = j["terminateId"];
      if (!(t.is_string() || t.is_number_integer() || t.is_number_unsigned())) {
        bad("terminateId", "must be a string or an integer");
      }
      a.terminate_id = t;
      if (j.contains("turnNumbers")) {
        a.turn_numbers = get_distinct_turns(j["turnNumbers"], "turnNumbers");
      }
    } else if (a.action == "terminate_all" || a.action == "query_version" ||
               a.action == "clear_cache") {
      if (j.contains("terminateId")) bad("terminateId", "belongs to terminate only");
      if (j.contains("turnNumbers")) bad("turnNumbers", "belongs to terminate only");
    } else {
      bad("action", "must be terminate, terminate_all, query_version or clear_cache, not \"" +
                        a.action + "\"");
    }
    return r;
  }

  Query& q = r.query;
  q.id = id_out;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!kQueryFields.count(it.key())) bad(it.key(), "is not a field of a query");
  }
  if (j.contains("rules")) q.rules = get_string(j["rules"], "rules");
  if (j.contains("position")) q.position = get_string(j["position"], "position");
  if (j.contains("moves")) {
    const Json& m = j["moves"];
    if (!m.is_array()) bad("moves", "must be a list of move texts");
    if (m.size() > kMaxMoves) bad("moves", "has more than 10000 moves");
    for (size_t i = 0; i < m.size(); ++i) {
      if (!m[i].is_string()) {
        throw QueryError("moves", "\"moves\" entry " + std::to_string(i) + " must be a string");
      }
      q.moves.push_back(m[i].get<std::string>());
    }
  }
  if (j.contains("analyzeTurns")) {
    q.analyze_turns = get_distinct_turns(j["analyzeTurns"], "analyzeTurns");
    if (q.analyze_turns.empty()) bad("analyzeTurns", "must not be empty");
  }
  if (j.contains("maxVisits")) {
    q.max_visits = static_cast<int>(get_int(j["maxVisits"], "maxVisits", 1, kMaxVisitsLimit));
  }
  if (j.contains("maxTime")) q.max_time = get_number(j["maxTime"], "maxTime", 0.001, kMaxTimeLimit);
  if (j.contains("includePolicy")) q.include_policy = get_bool(j["includePolicy"], "includePolicy");
  if (j.contains("includePV")) q.include_pv = get_bool(j["includePV"], "includePV");
  if (j.contains("reportDuringSearchEvery")) {
    q.report_every =
        get_number(j["reportDuringSearchEvery"], "reportDuringSearchEvery", 0.01, kMaxTimeLimit);
  }
  if (j.contains("priority")) {
    q.priority = static_cast<int>(get_int(j["priority"], "priority", -kMaxPriority, kMaxPriority));
  }
  return r;
}

}  // namespace pincer::serve
