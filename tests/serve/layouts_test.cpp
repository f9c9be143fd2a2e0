// The server's games of corners and dice: their layouts in /api/info (point cells, dice kinds),
// a divide's extra cells among the legal moves, and a random-start game drawing its own start
// for every new game (a setup string as `position` still chooses one).
#include <gtest/gtest.h>
#include <httplib.h>

#include <set>
#include <thread>

#include "serve/server.h"
#include "tests/serve/support.h"

namespace pincer::testing {
namespace {

using serve::Json;

TEST(ServerLayouts, CornersAndDice) {
  std::vector<std::shared_ptr<serve::Analyzer>> analyzers;
  analyzers.push_back(serve::make_player_analyzer(load_game("corners"), "alphabeta:depth=1", 1));
  analyzers.push_back(serve::make_player_analyzer(load_game("dice-7x7"), "alphabeta:depth=1", 1));
  auto engine =
      std::make_shared<serve::AnalysisEngine>(std::move(analyzers), serve::EngineOptions{});
  serve::ServerOptions so;
  so.port = 0;
  serve::Server server(engine, so);
  const int port = server.bind();
  std::thread run([&] { server.run(); });
  httplib::Client c("127.0.0.1", port);
  c.set_read_timeout(30);
  auto post = [&](const std::string& path, const Json& body) {
    auto r = c.Post(path.c_str(), body.dump(), "application/json");
    return r ? Json::parse(r->body, nullptr, false) : Json();
  };

  auto info = c.Get("/api/info");
  ASSERT_TRUE(info);
  const Json j = Json::parse(info->body);
  const Json& corners = j["rulesets"][0]["layout"];
  ASSERT_EQ(corners["cells"].size(), 113u);
  EXPECT_FALSE(corners["cells"][0].contains("shape"));
  EXPECT_EQ(corners["cells"][64]["shape"], "point");
  const Json& dice = j["rulesets"][1]["layout"];
  EXPECT_EQ(dice["cells"].size(), 49u);
  EXPECT_EQ(dice["kinds"][3]["shape"], "die");
  EXPECT_EQ(dice["kinds"][3]["pips"], 3);
  EXPECT_FALSE(dice["kinds"][0].contains("pips"));  // the King shows its glyph

  // A divide's placements are listed with its move.
  const Json pos = post("/api/position",
                        {{"rules", "corners"},
                         {"position",
                          "......../B......./......../......../......../......../......../"
                          ".......W ......./......./......./...W.../......./......./....... w 2 "
                          "15 10"}});
  bool found = false;
  for (const Json& m : pos["legal"]) {
    if (m["move"] != "d4'*d4e5") continue;
    found = true;
    EXPECT_EQ(m["from"], m["to"]);
    EXPECT_EQ(m["also"].size(), 2u);
  }
  EXPECT_TRUE(found) << pos.dump();

  // New dice games draw their own starts; a setup string picks one.
  std::set<std::string> starts;
  for (int i = 0; i < 6; ++i) {
    starts.insert(post("/api/game", {{"rules", "dice-7x7"}, {"human", "both"}})["start"]);
  }
  EXPECT_GE(starts.size(), 2u);
  const Json fixed = post("/api/game", {{"rules", "dice-7x7"}, {"position", "354K612/216K543 b"}});
  EXPECT_EQ(fixed["toMove"], "black") << fixed.dump();
  server.stop();
  run.join();
}

}  // namespace
}  // namespace pincer::testing
