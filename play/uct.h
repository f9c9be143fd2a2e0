// Monte Carlo tree search without a network: UCT (UCB1 selection) with uniformly random
// rollouts, for any Game. A rollout longer than `rollout_plies` is scored by the game's
// Heuristic (a win for the side it favours), so games without a natural end still finish.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "engine/heuristic.h"
#include "play/players.h"

namespace pincer {

struct UctOptions {
  int simulations = 400;
  double exploration = 1.0;  // c in W/N + c * sqrt(ln N_parent / N)
  int rollout_plies = 200;
  double seconds = 0;  // 0: no time limit
  // Tactics through State::winning_actions(): rollouts play a win at once when there is one, and
  // a new node whose next mover can win at once counts as decided (never played at the root
  // while another move is left).
  bool tactics = true;
};

class Uct {
 public:
  Uct(const Game& game, UctOptions options, uint64_t seed);
  // `root` is not over. Returns the most visited action.
  Action search(const State& root);
  int last_simulations() const { return last_sims_; }
  // The root's moves after search(): every legal move with its visits (0 for those never
  // tried), most visited first; a move that loses at once is left out while another is left.
  struct RootMove {
    Action action;
    int visits;
  };
  std::vector<RootMove> root_moves() const;
  double last_value() const { return last_value_; }  // root player's expected score

 private:
  struct Node {
    int parent = -1;
    Action action = -1;
    int mover = 0;  // who played `action` (the player whose view `wins` is in)
    int to_move = 0;
    bool terminal = false;
    double terminal_value = 0;  // for `mover`, when terminal
    int visits = 0;
    double wins = 0;  // for `mover`
    std::vector<Action> untried;
    std::vector<int> children;
  };
  // Plays random moves from `state` to the end or the rollout limit; score for each player.
  std::array<double, 2> rollout(State& state);

  const Game& game_;
  const Heuristic& heuristic_;
  UctOptions options_;
  Rng rng_;
  std::vector<Node> nodes_;
  std::vector<Action> scratch_;
  int last_sims_ = 0;
  double last_value_ = 0.5;
};

}  // namespace pincer
