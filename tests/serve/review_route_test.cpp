// POST /api/review over loopback: the review of a short game, and its bad requests (400 with
// the field at fault). A file of its own, beside server_test.cpp.
#include <gtest/gtest.h>
#include <httplib.h>

#include <thread>

#include "serve/server.h"
#include "tests/serve/support.h"

namespace pincer::testing {
namespace {

using serve::Json;

class ReviewRouteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<std::shared_ptr<serve::Analyzer>> analyzers;
    analyzers.push_back(
        serve::make_player_analyzer(load_game("seize-reference"), "alphabeta:depth=1", 1));
    serve::EngineOptions eo;
    eo.threads = 2;
    engine_ = std::make_shared<serve::AnalysisEngine>(std::move(analyzers), eo);
    serve::ServerOptions so;
    so.port = 0;
    so.max_query_turns = 12;
    server_ = std::make_unique<serve::Server>(engine_, so);
    port_ = server_->bind();
    thread_ = std::thread([this] { server_->run(); });
  }
  void TearDown() override {
    server_->stop();
    thread_.join();
  }
  std::pair<int, Json> post(const std::string& body) {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(60);
    auto r = c.Post("/api/review", body, "application/json");
    if (!r) return {0, nullptr};
    return {r->status, Json::parse(r->body, nullptr, false)};
  }

  std::shared_ptr<serve::AnalysisEngine> engine_;
  std::unique_ptr<serve::Server> server_;
  int port_ = 0;
  std::thread thread_;
};

TEST_F(ReviewRouteTest, ReviewsAGame) {
  auto [s, r] = post(R"({"rules":"seize-reference","moves":["ef7","ef2","g4","b5"]})");
  ASSERT_EQ(s, 200) << r.dump();
  EXPECT_EQ(r["moves"].size(), 4u);
  EXPECT_EQ(r["graph"].size(), 5u);
  EXPECT_EQ(r["moves"][0]["side"], "red");
  EXPECT_EQ(r["moves"][0]["move"], "ef7");
  EXPECT_TRUE(r["sides"].contains("gold") && r["sides"].contains("red")) << r.dump();
  EXPECT_EQ(r["thresholds"]["blunder"], 0.3);
  EXPECT_EQ(r["analyzer"], "alphabeta:depth=1");
  for (const Json& m : r["moves"]) EXPECT_TRUE(m.contains("drop")) << m.dump();
}

TEST_F(ReviewRouteTest, BadRequestsNameTheirField) {
  const auto field = [&](const std::string& body) {
    auto [s, e] = post(body);
    EXPECT_EQ(s, 400) << body << " " << e.dump();
    return e.value("field", std::string("?"));
  };
  EXPECT_EQ(field(R"({"rules":"seize-reference"})"), "moves");
  EXPECT_EQ(field(R"({"rules":"seize-reference","moves":["zz9"]})"), "moves");
  EXPECT_EQ(field(R"({"rules":"chess","moves":[]})"), "rules");
  EXPECT_EQ(field(R"({"rules":"seize-reference","moves":[],"bogus":1})"), "bogus");
  EXPECT_EQ(field(R"({"rules":"seize-reference","moves":[],"visits":0})"), "visits");
  EXPECT_EQ(field(R"({"rules":"seize-reference","moves":[],"seconds":1000})"), "seconds");
  // More turns than a query may analyse (max_query_turns 12: 11 moves at most).
  Json moves = Json::array();
  for (int i = 0; i < 6; ++i) {
    moves.push_back("ef7");
    moves.push_back("fe2");
  }
  EXPECT_EQ(field(Json{{"rules", "seize-reference"}, {"moves", moves}}.dump()), "moves");
  auto [s, e] = post("[1]");
  EXPECT_EQ(s, 400);
  // Deep JSON (the crash of issue 41's finding 1) is refused before it is parsed.
  const std::string deep = R"({"rules":"seize-reference","moves":)" + std::string(80000, '[') +
                           std::string(80000, ']') + "}";
  auto [ds, de] = post(deep);
  EXPECT_EQ(ds, 400) << de.dump();
  EXPECT_NE(de.dump().find("nested deeper"), std::string::npos) << de.dump();
  // Still serving.
  EXPECT_EQ(field(R"({"rules":"seize-reference"})"), "moves");
}

}  // namespace
}  // namespace pincer::testing
