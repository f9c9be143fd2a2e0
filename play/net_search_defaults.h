// How a network searches when it plays or analyses and the caller sets nothing else: the `net:`
// player (train/net_player.cpp) and the model analysers of `pincer analyze` and `pincer serve`
// (serve/backends.cpp), whose bots play the web page's games. Self-play, gating and the anchors
// take theirs from the run config (train/config.cpp) instead.
//
// Measured against alphabeta:time=0.1 with two SE!ZE models at 200 simulations
// (docs/search.md, "The net's play settings"): two leaves per network request and the leaf
// capture search at weight 0.3 scored 247/640 = 0.39 where the search's own defaults (four
// leaves, weight 0.5) scored 202/640 = 0.32, on 16 seeds' openings (the model shipped on 1 Dec,
// step 39,000, on all of them; the one shipped since on four).
//
// Priors shaped by the heuristic (SearchConfig::heuristic_prior, 3 Dec 2026, docs/search.md,
// "Heuristic priors"): half of the network's prior mass given to the softmax of each move's
// capture-search score took the shipped SE!ZE model from 204/480 = 0.425 to 274/480 = 0.571
// against alphabeta:time=0.1 at 200 simulations. A game without a heuristic searches as before.
//
// With them, an even capture share of 0.15 instead of 0.3 and c_puct 1.0 instead of 1.5 (3 Dec
// 2026, evening, docs/search.md "Heuristic priors"): 301/480 = 0.627 on the same 12 openings
// (248/400 on the 10 not used to choose them).
#pragma once

namespace pincer {

constexpr int kNetPlayLeavesPerBatch = 2;
constexpr float kNetPlayQuiescenceWeight = 0.3f;
constexpr float kNetPlayHeuristicPrior = 0.5f;
constexpr float kNetPlayCapturePrior = 0.15f;
constexpr float kNetPlayCPuct = 1.0f;

}  // namespace pincer
