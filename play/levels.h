// Strength levels 1..10: how much a bot searches and how freely it picks among its candidates,
// so that people can play an opponent of their strength. Level 10 is the full search. The same
// table drives `net:...,level=N` and the bots of `pincer serve`; docs/players.md has the table and
// the strength measured for each level.
#pragma once

#include <cstdint>
#include <vector>

namespace pincer {

constexpr int kMinLevel = 1;
constexpr int kMaxLevel = 10;

struct LevelSetting {
  int level = kMaxLevel;
  // Search visits per move as a fraction of the full search's (1 = all of them); at least 1
  // (0: one visit, the network's favourite move with the search's tactics).
  double visit_fraction = 1.0;
  // Temperature of the pick among the searched moves: 0 plays the best; T > 0 picks move i with
  // weight visits_i^(1/T) (MCTS) or exp((value_i - best) / (0.1 T)) (values in [0, 1]).
  double temperature = 0.0;
  // Probability that the move is drawn from the priors (policy) alone instead, a human-like slip.
  double policy_noise = 0.0;
  // Probability that the move is any legal move, all equally likely: a blunder whose cost does
  // not depend on the model, which sets the strength of the lowest levels.
  double random_move = 0.0;
};

// Throws std::invalid_argument for a level outside 1..10.
LevelSetting level_setting(int level);
// Visits at `level` for a full search of `full_visits` (at least 1).
int level_visits(const LevelSetting& s, int full_visits);

// One searched candidate, as a level sees it.
struct Candidate {
  double visits = 0;  // search visits (MCTS) or 0 where there are none (alpha-beta)
  double value = 0;   // expected score in [0, 1] for the mover: win + draw / 2
  double prior = 0;   // the policy's prior
};
// Index of the candidate a bot at setting `s` plays; `candidates` is ordered best first, not
// empty, and holds every legal move (unsearched ones with 0 visits) so that a random move can be
// any of them. `u1`, `u2` are uniform numbers in [0, 1) (the caller's generator, for
// reproducibility): u1 < random_move plays candidate floor(u2 * n), else u1 < random_move +
// policy_noise draws by prior, else the temperature decides.
int pick_candidate(const LevelSetting& s, const std::vector<Candidate>& candidates, double u1,
                   double u2);

}  // namespace pincer
