// Game review (serve/review.h): marks by the drop in the mover's expected score, the best move
// and the exemptions (the best move itself, a forced move), the sides' sums, the annotated SGN
// (read back by the SGN reader), and a review run on a real engine.
#include "serve/review.h"

#include <gtest/gtest.h>

#include "engine/record.h"
#include "tests/serve/support.h"

namespace pincer::testing {
namespace {

// An analysis response for `state`: the side to move's win probability `win` and `best` first.
serve::Json analysis(double win, const std::string& best) {
  return {
      {"rootInfo", {{"win", win}, {"draw", 0.0}, {"loss", 1 - win}}},
      {"moveInfos",
       serve::Json::array(
           {{{"move", best}, {"win", win}, {"draw", 0.0}, {"pv", serve::Json::array({best})}}})}};
}

struct Line {
  GamePtr game = load_game("seize-reference");
  std::unique_ptr<State> start = game->initial_state();
  std::vector<Action> actions;
  std::vector<std::string> texts;  // short texts
  // Plays the first legal move `n` times.
  explicit Line(int n) {
    auto s = start->clone();
    std::vector<Action> legal;
    for (int i = 0; i < n; ++i) {
      s->legal_actions(legal);
      texts.push_back(game->action_text(*s, legal[1], true));
      actions.push_back(legal[1]);
      s->apply(legal[1]);
    }
  }
  // A legal move of turn t other than the one played.
  std::string other(int t) const {
    auto s = start->clone();
    for (int i = 0; i < t; ++i) s->apply(actions[i]);
    std::vector<Action> legal;
    s->legal_actions(legal);
    return game->action_text(*s, legal[0], true);
  }
};

TEST(Review, MarksByTheMoversDropAndShowsTheBestMove) {
  Line line(4);
  serve::ReviewOptions o;
  // Turn values for the side to move (sides alternate): the mover's before and after are
  // turn t's value and 1 - turn t+1's.
  std::vector<serve::Json> a = {
      analysis(0.60, line.other(0)),  // move 1: 0.60 -> 1 - 0.75 = 0.25, drop 0.35: blunder
      analysis(0.75, line.other(1)),  // move 2: 0.75 -> 1 - 0.30 = 0.70, drop 0.05: nothing
      analysis(0.30, line.other(2)),  // move 3: 0.30 -> 1 - 0.85 = 0.15, drop 0.15: inaccuracy
      analysis(0.85, line.texts[3]),  // move 4: the best move, drop 0.25 by noise: nothing
      analysis(0.40, line.other(4)),
  };
  const serve::Json r = serve::review_from_analyses(*line.game, *line.start, line.actions, a, o);
  ASSERT_EQ(r["moves"].size(), 4u);
  const serve::Json& m = r["moves"];
  EXPECT_EQ(m[0]["mark"], "blunder");
  EXPECT_EQ(m[0]["best"], line.other(0));
  EXPECT_EQ(m[0]["move"], line.texts[0]);
  EXPECT_NEAR(m[0]["drop"].get<double>(), 0.35, 1e-9);
  EXPECT_FALSE(m[1].contains("mark"));
  EXPECT_EQ(m[2]["mark"], "inaccuracy");
  EXPECT_FALSE(m[3].contains("mark"));
  EXPECT_TRUE(m[3]["isBest"].get<bool>());
  EXPECT_EQ(m[3]["drop"], 0.0);
  const std::string first = line.game->side_name(line.start->to_move());
  const std::string second = line.game->side_name(1 - line.start->to_move());
  EXPECT_EQ(m[0]["side"], first);
  EXPECT_EQ(r["sides"][first]["blunders"], 1);
  EXPECT_EQ(r["sides"][first]["inaccuracies"], 1);
  EXPECT_EQ(r["sides"][second]["blunders"], 0);
  EXPECT_EQ(r["sides"][second]["moves"], 2);
  // Accuracy: 100 for no drop, lower for a larger one.
  EXPECT_EQ(r["sides"][second]["accuracy"], 89.9);  // (79.8 for a drop of 0.05 + 100) / 2
  EXPECT_LT(r["sides"][first]["accuracy"].get<double>(), 60);
  // The graph: the first side's expected score at every turn.
  ASSERT_EQ(r["graph"].size(), 5u);
  const double g0 = line.start->to_move() == 0 ? 0.60 : 0.40;
  EXPECT_NEAR(r["graph"][0].get<double>(), g0, 1e-9);
}

TEST(Review, LeavesMovesNextToAMissingAnalysisUnjudged) {
  Line line(2);
  std::vector<serve::Json> a = {analysis(0.6, line.other(0)), serve::Json(),
                                analysis(0.5, line.other(2))};
  const serve::Json r =
      serve::review_from_analyses(*line.game, *line.start, line.actions, a, serve::ReviewOptions{});
  EXPECT_FALSE(r["moves"][0]["judged"].get<bool>());
  EXPECT_FALSE(r["moves"][1]["judged"].get<bool>());
  EXPECT_TRUE(r["graph"][1].is_null());
  EXPECT_FALSE(r.contains("expectedPoints"));  // no analysis gave any
  for (const auto& [side, s] : r["sides"].items()) EXPECT_TRUE(s["accuracy"].is_null());
}

TEST(Review, AnnotatedRecordReadsBackWithTheSameMoves) {
  Line line(5);
  std::vector<serve::Json> a;
  for (int t = 0; t <= 5; ++t) a.push_back(analysis(t % 2 ? 0.9 : 0.5, line.other(t)));
  const serve::Json r =
      serve::review_from_analyses(*line.game, *line.start, line.actions, a, serve::ReviewOptions{});
  const std::string sgn =
      serve::annotated_sgn(*line.game, *line.start, line.actions, r, {{"Event", "review test"}});
  EXPECT_NE(sgn.find("{blunder: "), std::string::npos) << sgn;
  EXPECT_NE(sgn.find("; best " + line.other(0)), std::string::npos) << sgn;
  EXPECT_NE(sgn.find("[Annotator \"pincer review"), std::string::npos) << sgn;
  const std::vector<SgnRecord> back = parse_sgn(sgn);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].moves, line.texts);
  EXPECT_EQ(back[0].header("Event"), "review test");
  EXPECT_NO_THROW(replay_record(back[0]));
}

TEST(Review, OnAnEngineARandomMoverBlundersMoreThanTheSearch) {
  // Gold: alpha-beta at depth 2; red: the first legal move, which hangs pieces. Reviewed by
  // alpha-beta at depth 2.
  auto engine = classical_engine("seize-reference", "alphabeta:depth=2");
  const GamePtr game = load_game("seize-reference");
  auto state = game->initial_state();
  serve::ReviewGame g;
  g.rules = "seize-reference";
  std::vector<Action> legal;
  for (int ply = 0; ply < 24 && !state->outcome().over; ++ply) {
    state->legal_actions(legal);
    Action a = legal[0];
    if (state->to_move() == 0) {
      serve::TurnRequest req;
      req.include_pv = false;
      const serve::Json r = engine->analyzers()[0]->analyze(*state, req);
      a = game->parse_action(*state, r["moveInfos"][0]["move"].get<std::string>());
    }
    g.moves.push_back(game->action_text(*state, a, false));
    state->apply(a);
  }
  serve::ReviewOptions o;
  o.seconds = 0;
  const serve::Json r = serve::review_game(*engine, g, o, 120);
  const serve::Json& gold = r["sides"]["gold"];
  const serve::Json& red = r["sides"]["red"];
  EXPECT_GE(red["blunders"].get<int>() + red["mistakes"].get<int>(), 1) << r.dump();
  EXPECT_LT(gold["blunders"].get<int>(), red["blunders"].get<int>() + red["mistakes"].get<int>());
  EXPECT_GT(gold["accuracy"].get<double>(), red["accuracy"].get<double>());
  for (const serve::Json& m : r["moves"]) {
    if (m.contains("mark")) {
      EXPECT_TRUE(m.contains("best")) << m.dump();
    }
  }
  EXPECT_EQ(r["analyzer"], "alphabeta:depth=2");
  // Alpha-beta's expected final points, per turn.
  ASSERT_EQ(r["expectedPoints"].size(), r["graph"].size());
  EXPECT_TRUE(r["expectedPoints"][0]["expectedPoints"].contains("gold")) << r["expectedPoints"][0];
  EXPECT_THROW(serve::review_game(*engine, {"seize-reference", "", {"zz9"}}, o, 10),
               serve::QueryError);
}

}  // namespace
}  // namespace pincer::testing
