// Player specs: parsing, argument checks and the errors for bad ones.
#include <gtest/gtest.h>

#include <stdexcept>

#include "engine/registry.h"
#include "play/player.h"

namespace pincer {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(PlayerSpec, ParsesKindAndArguments) {
  const PlayerSpec s = parse_player_spec("alphabeta:depth=4,hash=8");
  EXPECT_EQ(s.kind, "alphabeta");
  ASSERT_EQ(s.args.size(), 2u);
  EXPECT_EQ(s.args.at("depth"), "4");
  EXPECT_EQ(s.args.at("hash"), "8");
  EXPECT_EQ(to_string(s), "alphabeta:depth=4,hash=8");
  EXPECT_EQ(parse_player_spec("random").kind, "random");
  EXPECT_TRUE(parse_player_spec("random").args.empty());
  // A value keeps everything after the first '=' (paths).
  EXPECT_EQ(parse_player_spec("net:model=/a/b=c.pt").args.at("model"), "/a/b=c.pt");
}

TEST(PlayerSpec, SplitsListsOfSpecs) {
  using V = std::vector<std::string>;
  EXPECT_EQ(split_player_specs("random,alphabeta:depth=3,hash=8,greedy"),
            (V{"random", "alphabeta:depth=3,hash=8", "greedy"}));
  EXPECT_EQ(split_player_specs("mcts:sims=400"), (V{"mcts:sims=400"}));
  EXPECT_EQ(split_player_specs("net:model=C:/m.pt,sims=20,random"),
            (V{"net:model=C:/m.pt,sims=20", "random"}));
  // Empty pieces stay, so that make_player refuses them by name.
  EXPECT_EQ(split_player_specs("random,,greedy"), (V{"random", "", "greedy"}));
}

TEST(PlayerSpec, RefusesMalformedText) {
  for (const char* bad : {"", ":depth=1", "alphabeta:", "alphabeta:depth",
                          "alphabeta:depth=", "alphabeta:=3", "alphabeta:depth=1,,hash=2",
                          "alphabeta:depth=1,", "alpha beta", "alphabeta:depth=1,depth=2"}) {
    const std::string e = error_of([&] { parse_player_spec(bad); });
    EXPECT_NE(e.find("bad player spec"), std::string::npos) << bad << ": " << e;
  }
  EXPECT_NE(error_of([] { parse_player_spec("alphabeta:depth=1,depth=2"); }).find("given twice"),
            std::string::npos);
}

TEST(PlayerSpec, MakesEveryBuiltInKind) {
  const GamePtr game = load_game("seize-reference");
  for (const char* spec : {"random", "greedy", "alphabeta:depth=2", "alphabeta:time=0.05",
                           "alphabeta:depth=3,time=1,hash=1,qdepth=4", "mcts:sims=10",
                           "mcts:sims=5,c=0.7,rollout=50"}) {
    auto p = make_player(game, spec, 1);
    ASSERT_NE(p, nullptr) << spec;
    EXPECT_EQ(p->spec(), to_string(parse_player_spec(spec)));
  }
}

TEST(PlayerSpec, UnknownKindListsTheKnownOnes) {
  const GamePtr game = load_game("seize-reference");
  const std::string e = error_of([&] { make_player(game, "stockfish:depth=3", 1); });
  EXPECT_NE(e.find("unknown player kind 'stockfish'"), std::string::npos) << e;
  for (const char* kind : {"random", "greedy", "alphabeta", "mcts"}) {
    EXPECT_NE(e.find(kind), std::string::npos) << e;
  }
}

TEST(PlayerSpec, BadArgumentsAreNamed) {
  const GamePtr game = load_game("seize-reference");
  std::string e = error_of([&] { make_player(game, "alphabeta:speed=3", 1); });
  EXPECT_NE(e.find("unknown argument 'speed'"), std::string::npos) << e;
  EXPECT_NE(e.find("depth"), std::string::npos) << e;  // lists what it accepts
  e = error_of([&] { make_player(game, "alphabeta:depth=abc", 1); });
  EXPECT_NE(e.find("depth must be a whole number"), std::string::npos) << e;
  e = error_of([&] { make_player(game, "alphabeta:depth=0", 1); });
  EXPECT_NE(e.find("depth must be in"), std::string::npos) << e;
  e = error_of([&] { make_player(game, "alphabeta:time=-1", 1); });
  EXPECT_NE(e.find("time must be in"), std::string::npos) << e;
  e = error_of([&] { make_player(game, "mcts:sims=lots", 1); });
  EXPECT_NE(e.find("sims must be a whole number"), std::string::npos) << e;
  e = error_of([&] { make_player(game, "random:depth=2", 1); });
  EXPECT_NE(e.find("random accepts none"), std::string::npos) << e;
}

TEST(PlayerSpec, RegisteredKindsAreUsable) {
  class Fixed : public Player {
   public:
    std::string spec() const override { return "first"; }
    Action choose(const State& s) override {
      std::vector<Action> a;
      s.legal_actions(a);
      return a.front();
    }
  };
  register_player_kind("first", [](const GamePtr&, const PlayerSpec& spec, uint64_t) {
    SpecArgs(spec).finish();
    return std::make_unique<Fixed>();
  });
  const GamePtr game = load_game("seize-reference");
  EXPECT_EQ(make_player(game, "first", 0)->spec(), "first");
  const auto kinds = registered_player_kinds();
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "first"), kinds.end());
  EXPECT_THROW(register_player_kind("bad kind", nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace pincer
