// How a network searches when it plays or analyses and the caller sets nothing else: the `net:`
// player (train/net_player.cpp) and the model analysers of `pincer analyze` and `pincer serve`
// (serve/backends.cpp), whose bots play the web page's games. Self-play, gating and the anchors
// take theirs from the run config (train/config.cpp) instead.
//
// Each value is the one that played the shipped SE!ZE model best against alphabeta:time=0.1 at
// 200 simulations; docs/training.md ("The recipe in force") has one line of why each, and:
// - two leaves a request, capture-search weight 0.3:
//   docs/experiments/2026-12-02-net-play-settings.md
// - heuristic priors 0.5 (none for a game without a heuristic):
//   docs/experiments/2026-12-03-heuristic-priors.md
// - capture priors 0.15, c_puct 1.0 (with heuristic priors):
//   docs/experiments/2026-12-03-cprior-cpuct.md
#pragma once

namespace pincer {

constexpr int kNetPlayLeavesPerBatch = 2;
constexpr float kNetPlayQuiescenceWeight = 0.3f;
constexpr float kNetPlayHeuristicPrior = 0.5f;
constexpr float kNetPlayCapturePrior = 0.15f;
constexpr float kNetPlayCPuct = 1.0f;

}  // namespace pincer
