// The Gumbel root's per-move state (mcts/gumbel_root.cpp), shared with the Search's life cycle.
#pragma once

#include <cstdint>
#include <vector>

#include "mcts/search.h"

namespace pincer::mcts {

struct Search::Gumbel {
  std::vector<float> noise;   // Gumbel(0, 1) per root edge (0 outside self-play)
  std::vector<float> logits;  // log prior per root edge
  // The training target's logits: the network's own log priors (gumbel_raw_policy_target, where
  // known), else `logits`.
  std::vector<float> target_logits;
  std::vector<uint32_t> base;          // root child visits when the move began (tree reuse)
  std::vector<int> sequence;           // considered visit count per simulation
  std::vector<float> improved, score;  // scratch of select_gumbel_root()
};

// For each simulation of a Gumbel root with m considered actions and n simulations, the visit
// count (this move) that the action it goes to must have.
std::vector<int> considered_visit_sequence(int m, int n);

}  // namespace pincer::mcts
