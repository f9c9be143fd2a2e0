// The HTTP server end to end over loopback with cpp-httplib's client: pages, games, bot moves,
// analysis (JSON and SSE), status codes and JSON errors, and many games at once.
#include "serve/server.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <thread>

#include "tests/serve/support.h"

namespace pincer::testing {
namespace {

using serve::Json;

class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<std::shared_ptr<serve::Analyzer>> analyzers;
    analyzers.push_back(
        serve::make_player_analyzer(load_game("seize-reference"), "alphabeta:depth=1", 1));
    analyzers.push_back(serve::make_player_analyzer(load_game("seega-5x5"), "mcts:sims=20", 1));
    serve::EngineOptions eo;
    eo.threads = 2;
    engine_ = std::make_shared<serve::AnalysisEngine>(std::move(analyzers), eo);
    serve::ServerOptions so;
    so.port = 0;
    so.bot.untimed_seconds = 0.2;
    so.bot.full_visits = 40;
    server_ = std::make_unique<serve::Server>(engine_, so);
    port_ = server_->bind();
    thread_ = std::thread([this] { server_->run(); });
  }
  void TearDown() override {
    server_->stop();
    thread_.join();
  }
  httplib::Client client() {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(30);
    return c;
  }
  // Status and JSON body of a request.
  std::pair<int, Json> post(const std::string& path, const std::string& body) {
    auto r = client().Post(path.c_str(), body, "application/json");
    if (!r) return {0, nullptr};
    return {r->status, Json::parse(r->body, nullptr, false)};
  }
  std::pair<int, Json> get(const std::string& path) {
    auto r = client().Get(path.c_str());
    if (!r) return {0, nullptr};
    return {r->status, Json::parse(r->body, nullptr, false)};
  }

  std::shared_ptr<serve::AnalysisEngine> engine_;
  std::unique_ptr<serve::Server> server_;
  int port_ = 0;
  std::thread thread_;
};

TEST_F(ServerTest, PagesAndInfo) {
  auto page = client().Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("<script type=\"module\" src=\"/app.js\">"), std::string::npos);
  auto js = client().Get("/board.js");
  ASSERT_TRUE(js);
  EXPECT_EQ(js->get_header_value("Content-Type"), "text/javascript; charset=utf-8");
  const auto [status, info] = get("/api/info");
  EXPECT_EQ(status, 200);
  ASSERT_EQ(info["rulesets"].size(), 2u);
  EXPECT_EQ(info["rulesets"][0]["layout"]["cells"].size(), 60u);
  EXPECT_TRUE(info["rulesets"][0]["countsPoints"]);
  EXPECT_FALSE(info["rulesets"][1]["countsPoints"]);
  EXPECT_EQ(get("/nope").first, 404);
}

TEST_F(ServerTest, PlayAGameAgainstTheBot) {
  auto [status, g] = post("/api/game", R"({"rules":"seize-reference","human":"red","level":1})");
  ASSERT_EQ(status, 201) << g.dump();
  const std::string id = g["id"];
  EXPECT_EQ(g["toMove"], "red");
  // Not the bot's turn yet.
  EXPECT_EQ(post("/api/game/" + id + "/bot", "{}").first, 409);
  auto [bad, err] = post("/api/game/" + id + "/move", R"({"move":"a1-a2"})");
  EXPECT_EQ(bad, 400);
  EXPECT_EQ(err["field"], "move");
  const std::string first = g["legal"][0]["move"];
  auto [ok, after] = post("/api/game/" + id + "/move", Json{{"move", first}}.dump());
  ASSERT_EQ(ok, 200);
  EXPECT_EQ(after["toMove"], "gold");
  auto [bs, bot] = post("/api/game/" + id + "/bot", "{}");
  ASSERT_EQ(bs, 200) << bot.dump();
  EXPECT_EQ(bot["game"]["moves"].size(), 2u);
  EXPECT_EQ(bot["how"], "search");
  // A reload finds the same game.
  auto [gs, again] = get("/api/game/" + id);
  EXPECT_EQ(gs, 200);
  EXPECT_EQ(again["moves"], bot["game"]["moves"]);
  auto [rs, resigned] = post("/api/game/" + id + "/resign", R"({"side":"red"})");
  EXPECT_EQ(rs, 200);
  EXPECT_EQ(resigned["result"]["winner"], "gold");
  EXPECT_EQ(resigned["result"]["reason"], "resignation");
  // A finished game's move is a 409 (docs/serve.md), not a bad request.
  EXPECT_EQ(post("/api/game/" + id + "/move", Json{{"move", first}}.dump()).first, 409);
  auto record = client().Get(("/api/game/" + id + "/record").c_str());
  ASSERT_TRUE(record);
  EXPECT_NE(record->body.find("[Ruleset \"seize-reference\"]"), std::string::npos);
  // The record reads back as the same moves.
  auto [ls, loaded] = post("/api/record", Json{{"text", record->body}}.dump());
  ASSERT_EQ(ls, 200) << loaded.dump();
  ASSERT_EQ(loaded["moves"].size(), 2u);
  EXPECT_EQ(loaded["moves"][0], first);
}

TEST_F(ServerTest, BadRequestsGetJsonErrors) {
  EXPECT_EQ(post("/api/game", "not json").first, 400);
  auto [s1, e1] = post("/api/game", R"({"rules":"chess"})");
  EXPECT_EQ(s1, 400);
  EXPECT_EQ(e1["field"], "rules");
  auto [s2, e2] = post("/api/game", R"({"rules":"seega-5x5","level":11})");
  EXPECT_EQ(s2, 400);
  EXPECT_EQ(e2["field"], "level");
  auto [s3, e3] = post("/api/game", R"({"rules":"seega-5x5","clock":"side"})");
  EXPECT_EQ(s3, 400);
  EXPECT_EQ(e3["field"], "minutes");
  auto [s4, e4] = post("/api/game", R"({"rules":"seega-5x5","colour":"dark"})");
  EXPECT_EQ(e4["field"], "colour");
  EXPECT_EQ(get("/api/game/0123456789abcdef").first, 404);
  auto [s5, e5] = post("/api/analyze", R"({"rules":"seega-5x5","moves":["z9"]})");
  EXPECT_EQ(s5, 400);
  EXPECT_EQ(e5["field"], "moves");
  auto [s6, e6] = post("/api/analyze", R"({"action":"terminate_all"})");
  EXPECT_EQ(s6, 400);
}

TEST_F(ServerTest, AnalysisAsJsonAndAsEvents) {
  auto [s, r] =
      post("/api/analyze", R"({"rules":"seega-5x5","analyzeTurns":[0,1],"moves":["c2"]})");
  ASSERT_EQ(s, 200) << r.dump();
  ASSERT_EQ(r["responses"].size(), 2u);
  for (const Json& x : r["responses"]) EXPECT_FALSE(x["moveInfos"].empty());
  const std::string q = R"({"rules":"seize-reference","reportDuringSearchEvery":0.05})";
  std::string body;
  auto res =
      client().Get(("/api/analyze/stream?query=" + httplib::detail::encode_query_param(q)).c_str(),
                   [&](const char* data, size_t n) {
                     body.append(data, n);
                     return true;
                   });
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_NE(body.find("data: {\"id\":"), std::string::npos);
  EXPECT_NE(body.find("\"isDuringSearch\":false"), std::string::npos);
  EXPECT_NE(body.find("event: end"), std::string::npos);
}

TEST_F(ServerTest, ManyGamesAtOnce) {
  std::vector<std::thread> players;
  std::atomic<int> errors{0}, moves{0};
  for (int k = 0; k < 8; ++k) {
    players.emplace_back([&, k] {
      const char* rules = k % 2 ? "seega-5x5" : "seize-reference";
      auto [s, g] =
          post("/api/game", Json{{"rules", rules}, {"human", "none"}, {"level", 1 + k}}.dump());
      if (s != 201) return void(++errors);
      for (int i = 0; i < 6 && g["result"].is_null(); ++i) {
        auto [bs, b] = post("/api/game/" + g["id"].get<std::string>() + "/bot", "{}");
        if (bs != 200) return void(++errors);
        g = b["game"];
        ++moves;
      }
    });
  }
  for (auto& t : players) t.join();
  EXPECT_EQ(errors.load(), 0);
  EXPECT_EQ(moves.load(), 48);
}

}  // namespace
}  // namespace pincer::testing
