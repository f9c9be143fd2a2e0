// The query parser: every field's type and range, unknown fields, actions, bad JSON.
#include "serve/query.h"

#include <gtest/gtest.h>

namespace pincer::serve {
namespace {

std::pair<std::string, std::string> error_of(const std::string& line) {
  Json id;
  try {
    parse_request(line, id);
  } catch (const QueryError& e) {
    return {e.field(), e.what()};
  }
  return {"", ""};
}

TEST(QueryParse, ReadsEveryField) {
  Json id;
  const Request r = parse_request(
      R"({"id":"q1","rules":"seize-v0","position":"x","moves":["c2","b6"],"analyzeTurns":[0,2],)"
      R"("maxVisits":50,"maxTime":1.5,"includePolicy":true,"includePV":false,)"
      R"("reportDuringSearchEvery":0.5,"priority":3})",
      id);
  ASSERT_FALSE(r.is_action);
  const Query& q = r.query;
  EXPECT_EQ(q.id, "q1");
  EXPECT_EQ(q.rules, "seize-v0");
  EXPECT_EQ(q.position, "x");
  EXPECT_EQ(q.moves, (std::vector<std::string>{"c2", "b6"}));
  EXPECT_EQ(q.analyze_turns, (std::vector<int>{0, 2}));
  EXPECT_EQ(q.max_visits, 50);
  EXPECT_DOUBLE_EQ(q.max_time, 1.5);
  EXPECT_TRUE(q.include_policy);
  EXPECT_FALSE(q.include_pv);
  EXPECT_DOUBLE_EQ(q.report_every, 0.5);
  EXPECT_EQ(q.priority, 3);
}

TEST(QueryParse, IntegerIdsAndActions) {
  Json id;
  Request r = parse_request(R"({"id":12,"action":"terminate","terminateId":"q1"})", id);
  ASSERT_TRUE(r.is_action);
  EXPECT_EQ(id, 12);
  EXPECT_EQ(r.action.action, "terminate");
  EXPECT_EQ(r.action.terminate_id, "q1");
  r = parse_request(R"({"id":"v","action":"query_version"})", id);
  EXPECT_EQ(r.action.action, "query_version");
}

TEST(QueryParse, NamesTheBadField) {
  EXPECT_EQ(error_of("{nope").first, "");
  EXPECT_NE(error_of("{nope").second.find("not valid JSON"), std::string::npos);
  EXPECT_EQ(error_of("[1,2]").second, "a query must be a JSON object");
  EXPECT_EQ(error_of(R"({"moves":[]})").first, "id");
  EXPECT_EQ(error_of(R"({"id":[1]})").first, "id");
  EXPECT_EQ(error_of(R"({"id":"a","bogus":1})").first, "bogus");
  EXPECT_EQ(error_of(R"({"id":"a","moves":"c2"})").first, "moves");
  EXPECT_EQ(error_of(R"({"id":"a","moves":["c2",3]})").first, "moves");
  EXPECT_EQ(error_of(R"({"id":"a","maxVisits":0})").first, "maxVisits");
  EXPECT_EQ(error_of(R"({"id":"a","maxVisits":1.5})").first, "maxVisits");
  EXPECT_EQ(error_of(R"({"id":"a","maxVisits":99999999999999999999})").first, "maxVisits");
  EXPECT_EQ(error_of(R"({"id":"a","maxTime":-1})").first, "maxTime");
  EXPECT_EQ(error_of(R"({"id":"a","maxTime":"1"})").first, "maxTime");
  EXPECT_EQ(error_of(R"({"id":"a","analyzeTurns":[]})").first, "analyzeTurns");
  EXPECT_EQ(error_of(R"({"id":"a","analyzeTurns":[-1]})").first, "analyzeTurns");
  EXPECT_EQ(error_of(R"({"id":"a","includePV":1})").first, "includePV");
  EXPECT_EQ(error_of(R"({"id":"a","action":"explode"})").first, "action");
  EXPECT_EQ(error_of(R"({"id":"a","action":"terminate"})").first, "terminateId");
  EXPECT_EQ(error_of(R"({"id":"a","action":"clear_cache","moves":[]})").first, "moves");
}

TEST(QueryParse, ErrorResponseShape) {
  const Json e = error_response("q", "bad", "moves");
  EXPECT_EQ(e.dump(), R"({"id":"q","error":"bad","field":"moves"})");
  EXPECT_EQ(error_response(nullptr, "bad", "").dump(), R"({"id":null,"error":"bad"})");
}

}  // namespace
}  // namespace pincer::serve
