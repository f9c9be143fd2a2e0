// The run config's search settings (proto SearchConfig) as mcts::SearchConfig.
#pragma once

#include "mcts/search.h"
#include "proto/run_config.pb.h"

namespace pincer {

// For play and gating: no noise, no playout cap, the most visited move.
mcts::SearchConfig play_search_config(const SearchConfig& s, uint64_t seed);
// For self-play: noise, playout cap and temperature from `sp`.
mcts::SearchConfig selfplay_search_config(const SelfPlayConfig& sp, uint64_t seed);

// selfplay.heuristic_anneal_steps: the share of the configured heuristic (quiescence_weight,
// capture_prior, heuristic_prior) self-play keeps when its model has trained `model_step` steps,
// 1 - step / anneal_steps clamped to [0, 1], in steps of 1/20 (so that searches are remade
// rarely), never below selfplay.heuristic_floor; 1 when annealing is off.
double heuristic_share(const SelfPlayConfig& sp, int64_t model_step);
// Scales the search's heuristic weights by `share`.
void scale_heuristic(mcts::SearchConfig& c, double share);

}  // namespace pincer
