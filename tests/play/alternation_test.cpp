// Searches must never assume that players alternate. A toy misère Nim in which taking three stones
// earns another move: alphabeta and the other players are checked against a brute-force solution.
// (A search that negates every child would, for one, think 4 stones a win: taking three leaves
// one, but to the same player, who must take it and lose.)
#include <gtest/gtest.h>

#include "engine/ruleset.h"
#include "play/alphabeta.h"
#include "play/match.h"
#include "play/player.h"

namespace pincer {
namespace {

class NimGame;

// `stones` left; take 1, 2 or 3 (actions 0, 1, 2); whoever takes the last stone loses; taking
// three stones (and leaving some) gives the same player another move.
class NimState : public State {
 public:
  NimState(const NimGame& game, int stones, int to_move)
      : game_(&game), stones_(stones), to_move_(to_move) {}
  const Game& game() const override;
  std::unique_ptr<State> clone() const override { return std::make_unique<NimState>(*this); }
  int to_move() const override { return to_move_; }
  void legal_actions(std::vector<Action>& out) const override {
    out.clear();
    if (winner_ >= 0) return;
    for (int take = 1; take <= 3 && take <= stones_; ++take) out.push_back(take - 1);
  }
  void apply(Action a) override {
    const int take = a + 1;
    stones_ -= take;
    if (stones_ == 0)
      winner_ = to_move_ ^ 1;
    else if (take != 3)
      to_move_ ^= 1;
  }
  Outcome outcome() const override {
    return winner_ >= 0 ? Outcome{true, winner_, "last stone"} : Outcome{};
  }
  uint64_t hash() const override {
    return (static_cast<uint64_t>(stones_) * 4 + to_move_ * 2 + (winner_ >= 0)) *
           0x9e3779b97f4a7c15ULL;
  }
  std::string to_text() const override {
    return std::to_string(stones_) + " " + std::to_string(to_move_);
  }
  std::string to_diagram() const override { return to_text() + "\n"; }
  std::vector<std::string> last_captured() const override { return {}; }
  std::array<int, 2> points() const override { return {0, 0}; }
  void encode(float* planes) const override { planes[0] = static_cast<float>(stones_); }
  bool equals(const State& other) const override { return other.to_text() == to_text(); }

 private:
  const NimGame* game_;
  int stones_;
  int to_move_;
  int winner_ = -1;
};

class NimGame : public Game {
 public:
  NimGame() { header_.set_game("nim"); }
  std::string game_name() const override { return "nim"; }
  std::string ruleset_name() const override { return "nim"; }
  std::string fingerprint() const override { return "0000000000000000"; }
  const google::protobuf::Message& ruleset() const override { return header_; }
  std::string side_name(int p) const override { return p ? "second" : "first"; }
  int parse_side(std::string_view t) const override {
    return t == "first" ? 0 : t == "second" ? 1 : -1;
  }
  int num_actions() const override { return 3; }
  std::unique_ptr<State> initial_state() const override {
    return std::make_unique<NimState>(*this, 15, 0);
  }
  std::unique_ptr<State> parse_state(std::string_view text) const override {
    const std::string s(text);
    const size_t space = s.find(' ');
    return std::make_unique<NimState>(*this, std::stoi(s.substr(0, space)),
                                      std::stoi(s.substr(space + 1)));
  }
  std::string action_text(const State&, Action a, bool) const override {
    return "take" + std::to_string(a + 1);
  }
  Action parse_action(const State&, std::string_view text) const override {
    return text.back() - '1';
  }
  InputShape input_shape() const override { return {1, 1, 1}; }
  int encoding_version() const override { return 1; }

 private:
  RulesetHeader header_;
};

const Game& NimState::game() const { return *game_; }

// Does the player to move win with `stones` left?
bool wins(int stones) {
  for (int take = 1; take <= 3 && take <= stones; ++take) {
    const int left = stones - take;
    if (left == 0) continue;  // taking the last stone loses
    if (take == 3 ? wins(left) : !wins(left)) return true;
  }
  return false;
}

TEST(Alternation, AlphaBetaSolvesNimWithExtraTurns) {
  const auto game = std::make_shared<NimGame>();
  int extra_turn_wins = 0;
  for (int stones = 2; stones <= 15; ++stones) {  // 1: one legal move, no search
    for (int mover = 0; mover < 2; ++mover) {
      const auto s = game->parse_state(std::to_string(stones) + " " + std::to_string(mover));
      AlphaBetaOptions o;
      o.max_depth = 20;
      AlphaBeta search(*game, o);
      const SearchInfo info = search.search(*s);
      const bool expected = wins(stones);
      EXPECT_EQ(info.score > 0, expected) << stones << " stones, player " << mover;
      EXPECT_TRUE(AlphaBeta::is_win(info.score)) << stones;
      if (expected) {
        // The chosen move keeps the win for the same player, whoever moves next.
        auto child = s->clone();
        child->apply(info.best);
        const Outcome out = child->outcome();
        const bool kept = out.over ? out.winner == mover
                                   : (child->to_move() == mover) == wins(stones - info.best - 1);
        EXPECT_TRUE(kept) << stones << " stones: took " << info.best + 1;
        extra_turn_wins += !out.over && child->to_move() == mover;
      }
    }
  }
  EXPECT_GT(extra_turn_wins, 0);  // some wins need the extra turn
}

TEST(Alternation, PlayersAndMatchesFollowTheMover) {
  const GamePtr game = std::make_shared<NimGame>();
  ASSERT_FALSE(wins(4));
  ASSERT_TRUE(wins(5));
  MatchOptions o;
  o.games = 10;
  o.opening_plies = 1;
  const MatchResult r = run_match(game, "alphabeta:depth=20", "random", o);
  ASSERT_EQ(r.games.size(), 10u);
  for (const MatchGame& g : r.games) {
    // After the one-ply opening, the side that can force a win must have won when it was A.
    auto s = game->initial_state();
    s->apply(g.actions[0]);
    const int stones = 15 - g.actions[0] - 1;
    const int winning_side = wins(stones) ? s->to_move() : 1 - s->to_move();
    if (winning_side == g.a_player) {
      EXPECT_EQ(g.score_a, 1.0) << "game " << g.index;
    }
  }
  // Two stones: only taking one wins (taking both takes the last one).
  const auto two = game->parse_state("2 1");
  for (const char* spec : {"mcts:sims=300", "alphabeta:depth=3", "alphabeta:time=0.01"}) {
    EXPECT_EQ(make_player(game, spec, 1)->choose(*two), 0) << spec;
  }
  // Five stones: take one (the opponent is left with 4) or take three and move again with 2.
  AlphaBetaOptions deep;
  deep.max_depth = 10;
  AlphaBeta search(*game, deep);
  const SearchInfo info = search.search(*game->parse_state("5 0"));
  EXPECT_TRUE(info.best == 0 || info.best == 2);
  EXPECT_GT(info.score, 0);
}

}  // namespace
}  // namespace pincer
