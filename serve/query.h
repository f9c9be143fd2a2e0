// The analysis protocol's input: one JSON object per query or action (docs/analysis.md). Parsing
// checks every field's type and range and refuses unknown fields; it knows nothing of games, so
// moves and turn numbers are checked later against the position (serve/engine.h).
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace pincer::serve {

using Json = nlohmann::ordered_json;

// A bad query: what is wrong and the field it is about ("" when it is the whole line).
class QueryError : public std::runtime_error {
 public:
  QueryError(std::string field, const std::string& message)
      : std::runtime_error(message), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

struct Query {
  Json id;               // string or number, echoed in every response
  std::string rules;     // ruleset name or fingerprint; "" = the only one loaded
  std::string position;  // position text; "" = the start
  std::vector<std::string> moves;
  std::vector<int> analyze_turns;  // empty = the last turn (moves.size())
  int max_visits = 0;              // 0 = the engine's default
  double max_time = 0;             // seconds; 0 = none (then max_visits bounds the search)
  bool include_policy = false;
  bool include_pv = true;
  double report_every = 0;  // seconds between isDuringSearch reports; 0 = none
  int priority = 0;         // higher runs first
  // Not part of the protocol: set by the server's bot (serve/analyzer.h TurnRequest).
  bool early_stop = false;
  // Not part of the protocol: who asked (the server sets the client's address), for the
  // engine's per-client share; "" = no share (bot moves, `pincer analyze`).
  std::string client;
};

struct ActionRequest {
  Json id;
  std::string action;             // terminate, terminate_all, query_version, clear_cache
  Json terminate_id;              // for terminate
  std::vector<int> turn_numbers;  // for terminate: only these turns (empty = all)
};

struct Request {
  bool is_action = false;
  Query query;
  ActionRequest action;
};

// Limits on what a query may ask for.
constexpr int kMaxVisitsLimit = 10'000'000;
constexpr double kMaxTimeLimit = 3600;
constexpr size_t kMaxMoves = 10'000;
constexpr size_t kMaxLineBytes = 1 << 20;
constexpr int kMaxPriority = 1'000'000;  // a query's priority is in [-kMaxPriority, kMaxPriority]
// The priority of the server's bot moves: above any query's, so they run first.
constexpr int kBotPriority = 2'000'000;

// Parses one request line. Throws QueryError; the id is filled in `id_out` as soon as it is
// known, so that the error response can carry it.
Request parse_request(const std::string& line, Json& id_out);
Request parse_request_json(const Json& j, Json& id_out);

// Field readers for JSON requests: throw QueryError naming `field` when the value has the
// wrong type or is out of range (integers are checked before they are narrowed).
std::string string_field(const Json& v, const std::string& field);
int64_t integer_field(const Json& v, const std::string& field, int64_t min, int64_t max);
double number_field(const Json& v, const std::string& field, double min, double max);
// Throws QueryError naming the first field of `body` (an object) that is not in `known`.
void check_fields(const Json& body, const std::set<std::string>& known);

// {"id":..,"error":..,"field":..} (field left out when empty).
Json error_response(const Json& id, const std::string& message, const std::string& field);

}  // namespace pincer::serve
