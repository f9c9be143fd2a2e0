// Analysers: what looks at one position and reports its candidate moves. One per ruleset; one
// object serves every concurrent query (analyse() is called from several threads at once).
//   - MCTS over an Evaluator: a trained network (through the factory of serve/model.h) or random
//     rollouts (the classical "mcts:" player spec); move infos come from the search's visits.
//     A network with a points head also gives the expected final points difference
//     (expectedPointsDiff): its predictions for the root and the searched moves' positions,
//     weighted like the root's value (one for the root, a move's visits for its position).
//     Otherwise (no points head, or rollouts), where the game counts points, a short alpha-beta
//     search (a small fixed depth, a few ms at most, inside the request's time) gives each
//     side's expected final points: those at the end of its principal variation.
//   - Alpha-beta (the "alphabeta:" spec): no visits exist, so every root move is searched on its
//     own to a fixed depth and its score is turned into a win probability (docs/analysis.md).
//     Its expected points (per side and their difference) are those at the end of its
//     principal variation.
// rootInfo.pointsSource says which: "model" (a points head) or "alphabeta" (a line's end).
#pragma once

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "engine/game.h"
#include "mcts/evaluator.h"
#include "play/net_search_defaults.h"
#include "serve/query.h"

namespace pincer::serve {

// What one turn's analysis may use, and how it reports.
struct TurnRequest {
  int max_visits = 0;  // 0: the analyser's default
  double max_time = 0;
  bool include_policy = false;
  bool include_pv = true;
  int pv_length = 16;
  double report_every = 0;  // seconds; 0: no reports during the search
  uint64_t seed = 1;
  // Stop as soon as the most visited move cannot be overtaken within the visits left (a bot
  // playing a move, not an analysis that reports every candidate's numbers).
  bool early_stop = false;
  const std::atomic<bool>* stop = nullptr;  // set: finish as soon as possible
  // Called with partial results (rootInfo, moveInfos) during the search.
  std::function<void(Json)> report;
};

class Analyzer {
 public:
  virtual ~Analyzer() = default;
  virtual const GamePtr& game() const = 0;
  // What analyses: the player spec or the model path.
  virtual std::string description() const = 0;
  // {"rootInfo":..,"moveInfos":[..], "policy":..} for `state` (not over). Thread-safe.
  virtual Json analyze(const State& state, const TurnRequest& request) = 0;
  virtual void clear_cache() {}
};

// rootInfo.expectedPoints, by side name like rootInfo.points (which the engine adds): the points
// each side is expected to hold at the end of the game; and expectedPointsDiff, the side to move's
// minus the other's; pointsSource "alphabeta".
void add_expected_points(Json& root_info, const Game& game, const State& state,
                         const std::array<double, 2>& expected);

// The expected points without a points head: a short alpha-beta search of the root, its figure
// the points at the end of the principal variation.
struct PointsFallback {
  int depth = 3;  // plies (0: no fallback)
  // Time caps: at most `seconds`, and at most `share` of the request's max_time where it has one
  // (the rest is the main search's). The depth ends it first in all but the busiest positions.
  double seconds = 0.05;
  double share = 0.1;
  int hash_mb = 1;  // one table per concurrent search
};

struct MctsAnalyzerOptions {
  int default_visits = 200;
  // The evaluator predicts final points differences (Evaluation::points: a network with a points
  // head): report rootInfo.expectedPointsDiff where the game counts points.
  bool predicts_points = false;
  // Where it does not and the game counts points: the alpha-beta fallback, searched before the
  // main search and counted in its time (rootInfo.expectedPoints and expectedPointsDiff).
  PointsFallback points_fallback;
  double default_time = 0;
  // A network's play settings (play/net_search_defaults.h).
  float c_puct = kNetPlayCPuct;
  float capture_prior = kNetPlayCapturePrior;
  int leaves_per_batch = kNetPlayLeavesPerBatch;
  float quiescence_weight = kNetPlayQuiescenceWeight;
  float heuristic_prior = kNetPlayHeuristicPrior;
  size_t cache_entries = 1 << 18;  // 0: no cache
  std::string description;
};
std::unique_ptr<Analyzer> make_mcts_analyzer(GamePtr game, std::shared_ptr<Evaluator> evaluator,
                                             MctsAnalyzerOptions options);

// An analyser for a classical player spec: "alphabeta:depth=D|time=S[,hash=MB]" or
// "mcts:sims=N[,rollout=PLIES,time=S]". Throws std::invalid_argument for other specs.
std::unique_ptr<Analyzer> make_player_analyzer(GamePtr game, const std::string& spec,
                                               uint64_t seed);

// The win probability of an alpha-beta score (hundredths of a piece, engine/heuristic.h):
// 1 / (1 + exp(-score / 400)); won and lost scores give 1 and 0.
double score_to_win(int score);

// The json text of a side-to-move WDL triple, rounded to 4 decimals.
Json wdl_json(double win, double draw, double loss);

}  // namespace pincer::serve
