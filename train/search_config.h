// The run config's search settings (proto SearchConfig) as mcts::SearchConfig.
#pragma once

#include "mcts/search.h"
#include "proto/run_config.pb.h"

namespace pincer {

// For play and gating: no noise, no playout cap, the most visited move.
mcts::SearchConfig play_search_config(const SearchConfig& s, uint64_t seed);
// For self-play: noise, playout cap and temperature from `sp`.
mcts::SearchConfig selfplay_search_config(const SelfPlayConfig& sp, uint64_t seed);

}  // namespace pincer
