// KataGo's forced playouts and policy target pruning (Wu 2019, "Accelerating Self-Play Learning
// in Go", section 3.1): in a self-play full search every root child that has been visited gets
// at least sqrt(k * P * N) visits, so that moves the noise favours are looked at enough to be
// judged; the training target then takes those extra visits back from every child but the most
// visited, as far as they were not earned, so that the policy learns the search's judgement and
// not the noise. SearchConfig::forced_playouts is k (0 = off).
#pragma once

#include <cstdint>
#include <vector>

namespace pincer::mcts {

// The visits a root child with prior `prior` is owed after `parent_visits` visits of the root:
// sqrt(k * prior * parent_visits).
float forced_visits(float k, float prior, float parent_visits);

// The pruned visit distribution of a root (vectors indexed alike): the most visited child keeps
// its visits; every other child c gives back up to forced_visits(c) visits while its PUCT score
// Q(c) + c_scaled * P(c) / (1 + n) stays below the most visited child's (c_scaled = c *
// sqrt(N)); a child left with one visit or fewer gets none. Normalised to sum 1; all zeros when
// nothing was visited. `q` is each child's value in [-1, 1] for the player to move.
std::vector<float> pruned_visit_policy(const std::vector<uint32_t>& visits,
                                       const std::vector<float>& q, const std::vector<float>& prior,
                                       float c_scaled, float k);

}  // namespace pincer::mcts
