#include "serve/review_route.h"

#include <httplib.h>

#include <set>

#include "serve/json_limits.h"
#include "serve/review.h"

namespace pincer::serve {

void add_review_route(httplib::Server& http, std::shared_ptr<AnalysisEngine> engine,
                      const ServerOptions& options) {
  http.Post("/api/review", [engine, options](const httplib::Request& req, httplib::Response& res) {
    // Depth checked before parsing (serve/json_limits.h): nothing recursive walks deep user data.
    const Json body = req.body.empty() ? Json::object() : parse_json_limited(req.body);
    if (!body.is_object()) throw QueryError("", "the request body must be a JSON object");
    static const std::set<std::string> known = {"rules", "position", "moves", "visits", "seconds"};
    for (auto it = body.begin(); it != body.end(); ++it) {
      if (!known.count(it.key())) throw QueryError(it.key(), "\"" + it.key() + "\" is not a field");
    }
    ReviewGame g;
    if (body.contains("rules")) {
      if (!body["rules"].is_string()) throw QueryError("rules", "\"rules\" must be text");
      g.rules = body["rules"].get<std::string>();
    }
    if (body.contains("position")) {
      if (!body["position"].is_string()) throw QueryError("position", "\"position\" must be text");
      g.position = body["position"].get<std::string>();
    }
    if (!body.contains("moves") || !body["moves"].is_array()) {
      throw QueryError("moves", "\"moves\" (a list of move texts) is required");
    }
    for (const Json& m : body["moves"]) {
      if (!m.is_string()) throw QueryError("moves", "\"moves\" must be a list of move texts");
      g.moves.push_back(m.get<std::string>());
    }
    if (g.moves.size() + 1 > static_cast<size_t>(options.max_query_turns)) {
      throw QueryError(
          "moves", "at most " + std::to_string(options.max_query_turns - 1) + " moves per review");
    }
    ReviewOptions o;
    o.seconds = std::min(0.5, options.max_query_seconds);
    if (body.contains("visits")) {
      const Json& v = body["visits"];
      if (!v.is_number_integer() || v.get<int>() < 1 || v.get<int>() > 100000) {
        throw QueryError("visits", "\"visits\" must be an integer in 1..100000");
      }
      o.visits = v.get<int>();
    }
    if (body.contains("seconds")) {
      const Json& s = body["seconds"];
      if (!s.is_number() || !(s.get<double>() > 0) || s.get<double>() > options.max_query_seconds) {
        throw QueryError("seconds", "\"seconds\" (a turn's time) must be in (0, " +
                                        std::to_string(options.max_query_seconds) + "]");
      }
      o.seconds = s.get<double>();
    }
    // Every turn one after the other, plus slack: the most a review can take.
    const double wait = (g.moves.size() + 1) * o.seconds + options.bot.wait_slack_s;
    const Json review = review_game(*engine, g, o, wait);
    res.status = 200;
    res.set_content(review.dump(-1, ' ', false, Json::error_handler_t::replace),
                    "application/json");
  });
}

}  // namespace pincer::serve
