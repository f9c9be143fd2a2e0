// Leaf values mixed with a capture search (SearchConfig::quiescence_*): the mixing formula, the
// effect on a SE!ZE position where a move hangs material to a capture sequence, and validation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/capture_search.h"
#include "engine/registry.h"
#include "mcts/evaluators.h"
#include "mcts/search.h"
#include "tests/mcts/fakes.h"
#include "tests/support/tictactoe.h"

namespace pincer::mcts {
namespace {

using testing::ScriptedEvaluator;

// Red to move; e5-g5 lets gold capture 7 points' worth with a sequence of captures (the capture
// search scores it -710 for red), while the best moves keep the material level (+54).
constexpr const char* kHangs = "8/2g5/1g1g1gg1/2gbb3/1GGBBG2/3GG3/7G/8 r 10 0-0";
constexpr const char* kBlunder = "e5-g5";

// The value of playing `a` in `s` for s's mover, by the capture search.
// `plies` full-width plies under the move before the captures.
int capture_value_after(const Heuristic& h, const State& s, Action a, int plies = 0) {
  CaptureSearch cs(h, 8);
  auto c = s.clone();
  c->apply(a);
  const int v = cs.value(*c, plies);
  return c->to_move() == s.to_move() ? v : -v;
}

SearchResult run_on(const GamePtr& game, const State& s, SearchConfig config, Evaluator& eval) {
  Search search(game, config);
  search.reset(s);
  return search.run(eval);
}

TEST(LeafCaptureSearch, AvoidsTheMoveThatHangsMaterialWhichThePlainSearchPlays) {
  const GamePtr game = load_game("seize-reference");
  const auto start = game->parse_state(kHangs);
  const Action blunder = game->parse_action(*start, kBlunder);
  const Heuristic& h = *game->heuristic();
  ASSERT_LE(capture_value_after(h, *start, blunder), -500);
  // A network that likes the blunder and sees nothing in any position (a draw everywhere).
  ScriptedEvaluator eval(nullptr, [blunder](const State&, const std::vector<Action>& legal) {
    std::vector<float> p(legal.size(), 0.05f);
    for (size_t i = 0; i < legal.size(); ++i) {
      if (legal[i] == blunder) p[i] = 1.0f;
    }
    return p;
  });
  SearchConfig config;
  config.simulations = 200;
  config.quiescence_weight = 0;  // the plain search
  config.capture_prior = 0;
  const SearchResult plain = run_on(game, *start, config, eval);
  EXPECT_EQ(plain.action, blunder) << "the plain search follows the prior";
  config.quiescence_weight = 0.5f;
  const SearchResult hybrid = run_on(game, *start, config, eval);
  EXPECT_NE(hybrid.action, blunder);
  EXPECT_GE(capture_value_after(h, *start, hybrid.action), 0) << "keeps the material";
  // The blunder's value as searched is bad for the mover.
  const size_t i =
      std::find(hybrid.actions.begin(), hybrid.actions.end(), blunder) - hybrid.actions.begin();
  ASSERT_LT(i, hybrid.actions.size());
  EXPECT_LT(hybrid.q[i], -0.15f);
  EXPECT_GT(hybrid.visits[i], 0u);
  const SearchStats st = [&] {
    Search s(game, config);
    s.reset(*start);
    s.run(eval);
    return s.stats();
  }();
  EXPECT_GT(st.capture_nodes, st.evaluations);  // at least one node per evaluated leaf
  // The defaults (capture search and capture priors on) avoid it too.
  SearchConfig defaults;
  defaults.simulations = 200;
  EXPECT_NE(run_on(game, *start, defaults, eval).action, blunder);
}

TEST(LeafCaptureSearch, MixesTheNetworkAndTheCaptureSearchValues) {
  const GamePtr game = load_game("seize-reference");
  const auto start = game->parse_state(kHangs);
  const Heuristic& h = *game->heuristic();
  ScriptedEvaluator eval([](const State&) { return std::array<float, 3>{0.2f, 0.5f, 0.3f}; });
  SearchConfig config;
  config.simulations = 60;
  config.tactics = 0;
  config.solver = false;
  config.quiescence_weight = 0.25f;
  config.quiescence_scale = 300.0f;
  config.capture_prior = 0;
  const SearchResult r = run_on(game, *start, config, eval);
  int checked = 0;
  for (size_t i = 0; i < r.actions.size(); ++i) {
    if (r.visits[i] != 1) continue;  // a leaf visited once holds its own value
    auto child = start->clone();
    child->apply(r.actions[i]);
    CaptureSearch cs(h, config.quiescence_depth);
    const double p = score_win_probability(cs.value(*child), 300.0);
    const double w = 0.75 * 0.2 + 0.25 * p, l = 0.75 * 0.3 + 0.25 * (1 - p);
    const double q_child_mover = w - l;
    const double expected = child->to_move() == start->to_move() ? q_child_mover : -q_child_mover;
    EXPECT_NEAR(r.q[i], expected, 1e-4) << game->action_text(*start, r.actions[i], false);
    ++checked;
  }
  EXPECT_GT(checked, 5);
  // The root's own value stays the network's.
  EXPECT_NEAR(r.nn_wdl[0], 0.2f, 1e-6);
}

TEST(LeafCaptureSearch, CapturePriorMovesPriorMassToCaptures) {
  const GamePtr game = load_game("seize-reference");
  auto start = game->parse_state(kHangs);
  start->apply(game->parse_action(*start, kBlunder));  // gold to move, with captures
  std::vector<Action> legal;
  start->legal_actions(legal);
  std::vector<int> caps;
  game->heuristic()->capture_points(*start, legal, caps);
  const int captures =
      static_cast<int>(std::count_if(caps.begin(), caps.end(), [](int c) { return c > 0; }));
  ASSERT_GT(captures, 0);
  ASSERT_LT(captures, static_cast<int>(legal.size()));
  SearchConfig config;
  config.simulations = 1;
  config.capture_prior = 0.5f;
  UniformEvaluator eval;
  const SearchResult r = run_on(game, *start, config, eval);
  const float uniform = 1.0f / legal.size();
  for (size_t i = 0; i < r.actions.size(); ++i) {
    const size_t j = std::find(legal.begin(), legal.end(), r.actions[i]) - legal.begin();
    const float want = 0.5f * uniform + (caps[j] > 0 ? 0.5f / captures : 0.0f);
    EXPECT_NEAR(r.prior[i], want, 2e-3f) << game->action_text(*start, r.actions[i], false);
  }
}

TEST(LeafCaptureSearch, HeuristicPriorIsTheSoftmaxOfEachMovesCaptureSearchScore) {
  const GamePtr game = load_game("seize-reference");
  const auto start = game->parse_state(kHangs);
  const Action blunder = game->parse_action(*start, kBlunder);
  const Heuristic& h = *game->heuristic();
  std::vector<Action> legal;
  start->legal_actions(legal);
  std::vector<double> want(legal.size());
  double sum = 0;
  for (size_t i = 0; i < legal.size(); ++i) {
    sum += want[i] = std::exp(capture_value_after(h, *start, legal[i]) / 100.0);
  }
  SearchConfig config;
  config.simulations = 1;
  config.capture_prior = 0;
  config.heuristic_prior = 0.5f;
  config.heuristic_prior_scale = 100;
  UniformEvaluator eval;
  const SearchResult r = run_on(game, *start, config, eval);
  ASSERT_EQ(r.actions.size(), legal.size());
  const float uniform = 1.0f / legal.size();
  float blunder_prior = 1, best_prior = 0;
  for (size_t i = 0; i < r.actions.size(); ++i) {
    const size_t j = std::find(legal.begin(), legal.end(), r.actions[i]) - legal.begin();
    EXPECT_NEAR(r.prior[i], 0.5f * uniform + 0.5f * want[j] / sum, 2e-3f)
        << game->action_text(*start, r.actions[i], false);
    if (r.actions[i] == blunder) blunder_prior = r.prior[i];
    best_prior = std::max(best_prior, r.prior[i]);
  }
  // The move that hangs 7 points keeps only (about) half the uniform share; the best ones gain.
  EXPECT_NEAR(blunder_prior, 0.5f * uniform, 1e-3f);
  EXPECT_GT(best_prior, 1.25f * uniform);

  // With capture priors too, the capture share stays whole:
  // P' = (1 - c) * ((1 - h) * P + h * softmax) + c * [capture] / captures.
  auto after = start->clone();
  after->apply(blunder);  // gold to move, with captures
  std::vector<Action> replies;
  after->legal_actions(replies);
  std::vector<int> caps;
  h.capture_points(*after, replies, caps);
  const int captures =
      static_cast<int>(std::count_if(caps.begin(), caps.end(), [](int c) { return c > 0; }));
  ASSERT_GT(captures, 0);
  std::vector<double> soft(replies.size());
  double total = 0;
  for (size_t i = 0; i < replies.size(); ++i) {
    total += soft[i] = std::exp(capture_value_after(h, *after, replies[i]) / 100.0);
  }
  config.capture_prior = 0.3f;
  const SearchResult both = run_on(game, *after, config, eval);
  ASSERT_EQ(both.actions.size(), replies.size());
  for (size_t i = 0; i < both.actions.size(); ++i) {
    const size_t j = std::find(replies.begin(), replies.end(), both.actions[i]) - replies.begin();
    const double want =
        0.7 * (0.5 / replies.size() + 0.5 * soft[j] / total) + (caps[j] > 0 ? 0.3 / captures : 0.0);
    EXPECT_NEAR(both.prior[i], want, 2e-3) << game->action_text(*after, both.actions[i], false);
  }
}

// The softmax of each legal move's capture-search score `plies` deep, scale 100, in legal order.
std::vector<double> heuristic_softmax(const Heuristic& h, const State& s,
                                      const std::vector<Action>& legal, int plies) {
  std::vector<double> p(legal.size());
  double sum = 0;
  for (size_t i = 0; i < legal.size(); ++i) {
    sum += p[i] =
        std::exp(std::clamp(capture_value_after(h, s, legal[i], plies), -3000, 3000) / 100.0);
  }
  for (double& x : p) x /= sum;
  return p;
}

// Expects r's priors to be half uniform, half `soft` (in `legal` order); returns the largest
// difference between `soft` and `other`, to show that the two depths disagree somewhere.
double expect_half_uniform_half(const SearchResult& r, const std::vector<Action>& legal,
                                const std::vector<double>& soft, const std::vector<double>& other) {
  EXPECT_EQ(r.actions.size(), legal.size());
  double differ = 0;
  for (size_t i = 0; i < r.actions.size(); ++i) {
    const size_t j = std::find(legal.begin(), legal.end(), r.actions[i]) - legal.begin();
    EXPECT_NEAR(r.prior[i], 0.5 / legal.size() + 0.5 * soft[j], 2e-3) << i;
    differ = std::max(differ, std::abs(soft[j] - other[j]));
  }
  return differ;
}

TEST(LeafCaptureSearch, HeuristicRootPliesShapeTheRootWithADeeperSearch) {
  const GamePtr game = load_game("seize-reference");
  const auto start = game->parse_state(kHangs);
  const Heuristic& h = *game->heuristic();
  std::vector<Action> legal;
  start->legal_actions(legal);
  SearchConfig config;
  config.simulations = 400;
  config.capture_prior = 0;
  config.heuristic_prior = 0.5f;
  config.heuristic_prior_root_plies = 1;
  UniformEvaluator eval;
  Search search(game, config);
  search.reset(*start);
  const SearchResult r = search.run(eval);
  // A fresh root: (1 - h) * P + h * softmax of the two-ply scores, not of the one-ply ones.
  EXPECT_GT(expect_half_uniform_half(r, legal, heuristic_softmax(h, *start, legal, 1),
                                     heuristic_softmax(h, *start, legal, 0)),
            0.02);

  // A move whose node was shaped one ply deep as an inner node (at least 10 simulations went
  // through it), the one where the two depths disagree most: as the next root, kept by tree
  // reuse, its shallow share is swapped for the deeper one.
  double most = 0;
  Action move = r.action;
  for (size_t i = 0; i < r.actions.size(); ++i) {
    if (r.visits[i] < 10) continue;
    auto child = start->clone();
    child->apply(r.actions[i]);
    std::vector<Action> moves;
    child->legal_actions(moves);
    const std::vector<double> deep = heuristic_softmax(h, *child, moves, 1);
    const std::vector<double> shallow = heuristic_softmax(h, *child, moves, 0);
    for (size_t j = 0; j < moves.size(); ++j) {
      if (std::abs(deep[j] - shallow[j]) > most) {
        most = std::abs(deep[j] - shallow[j]);
        move = r.actions[i];
      }
    }
  }
  ASSERT_GT(most, 0.02);
  auto next = start->clone();
  next->apply(move);
  std::vector<Action> replies;
  next->legal_actions(replies);
  search.advance(move);
  const SearchResult r2 = search.run(eval);
  expect_half_uniform_half(r2, replies, heuristic_softmax(h, *next, replies, 1),
                           heuristic_softmax(h, *next, replies, 0));
}

TEST(LeafCaptureSearch, ImplicitMinimaxSeesTheReplyThatCaptures) {
  // The same blunder with a network that likes it and leaves the values alone (a draw): the
  // leaves' capture searches alone (quiescence_weight 0) backed up by minimax steer away from it.
  const GamePtr game = load_game("seize-reference");
  const auto start = game->parse_state(kHangs);
  const Action blunder = game->parse_action(*start, kBlunder);
  ScriptedEvaluator eval(nullptr, [blunder](const State&, const std::vector<Action>& legal) {
    std::vector<float> p(legal.size(), 0.05f);
    for (size_t i = 0; i < legal.size(); ++i) {
      if (legal[i] == blunder) p[i] = 1.0f;
    }
    return p;
  });
  SearchConfig config;
  config.simulations = 200;
  config.quiescence_weight = 0;  // the minimax alone
  config.capture_prior = 0;
  config.minimax_weight = 0.5f;
  const SearchResult r = run_on(game, *start, config, eval);
  EXPECT_NE(r.action, blunder);
  EXPECT_GE(capture_value_after(*game->heuristic(), *start, r.action), 0);
}

TEST(LeafCaptureSearch, AGameWithoutAHeuristicSearchesAsWithout) {
  const GamePtr game = testing::make_tictactoe();
  ASSERT_EQ(game->heuristic(), nullptr);
  SearchConfig config;
  config.simulations = 50;
  config.quiescence_weight = 0;
  config.capture_prior = 0;
  UniformEvaluator eval;
  const SearchResult plain = run_on(game, *game->initial_state(), config, eval);
  config.quiescence_weight = 1.0f;
  config.capture_prior = 1.0f;
  config.minimax_weight = 1.0f;
  config.heuristic_prior = 1.0f;
  const SearchResult mixed = run_on(game, *game->initial_state(), config, eval);
  EXPECT_EQ(plain.visits, mixed.visits);
  EXPECT_EQ(plain.action, mixed.action);
}

TEST(LeafCaptureSearch, ConfigIsValidated) {
  auto refusal = [](auto change) {
    SearchConfig c;
    change(c);
    try {
      c.validate();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(refusal([](SearchConfig& c) { c.quiescence_weight = -0.1f; }).find("quiescence_weight"),
            std::string::npos);
  EXPECT_NE(refusal([](SearchConfig& c) { c.quiescence_weight = 1.5f; }).find("quiescence_weight"),
            std::string::npos);
  EXPECT_NE(refusal([](SearchConfig& c) { c.quiescence_scale = 0; }).find("quiescence_scale"),
            std::string::npos);
  EXPECT_NE(refusal([](SearchConfig& c) {
              c.quiescence_scale = std::numeric_limits<float>::quiet_NaN();
            }).find("quiescence_scale"),
            std::string::npos);
  EXPECT_NE(refusal([](SearchConfig& c) { c.quiescence_depth = 33; }).find("quiescence_depth"),
            std::string::npos);
  EXPECT_NE(refusal([](SearchConfig& c) { c.quiescence_plies = -1; }).find("quiescence_plies"),
            std::string::npos);
  EXPECT_NE(refusal([](SearchConfig& c) { c.capture_prior = 2; }).find("capture_prior"),
            std::string::npos);
  EXPECT_NE(refusal([](SearchConfig& c) { c.minimax_weight = -1; }).find("minimax_weight"),
            std::string::npos);
  EXPECT_NE(refusal([](SearchConfig& c) { c.heuristic_prior = 1.5f; }).find("heuristic_prior"),
            std::string::npos);
  EXPECT_NE(
      refusal([](SearchConfig& c) { c.heuristic_prior_scale = 0; }).find("heuristic_prior_scale"),
      std::string::npos);
  EXPECT_NE(refusal([](SearchConfig& c) {
              c.heuristic_prior_root_plies = 5;
            }).find("heuristic_prior_root_plies"),
            std::string::npos);
  EXPECT_EQ(refusal([](SearchConfig& c) {
              c.quiescence_weight = 1;
              c.quiescence_depth = 0;
              c.quiescence_plies = 4;
            }),
            "");
}

}  // namespace
}  // namespace pincer::mcts
