// A player that searches with a network: mcts::Search over an Evaluator (normally the batching
// inference service of a model). Used by the gatekeeper and, as the player kind
// "net:model=PATH,sims=N[,time=S][,threads=T]", everywhere players are named by spec.
#pragma once

#include <memory>
#include <string>

#include "mcts/search.h"
#include "nn/inference.h"
#include "play/player.h"

namespace pincer {

struct NetPlayerOptions {
  mcts::SearchConfig search;
  // > 0: a move's search also stops after this many seconds (at least one simulation).
  double time_s = 0;
  // Strength level 1..10 (play/levels.h): search.simulations is already scaled to it; the pick
  // among the searched moves follows its temperature and policy noise. 10: the full search.
  int level = 10;
  std::string spec;
};

std::unique_ptr<Player> make_net_player(GamePtr game, std::shared_ptr<Evaluator> evaluator,
                                        NetPlayerOptions options);

// An inference service for a model file, shared by every player made for the same file (and
// device) in this process, so that their requests share batches.
std::shared_ptr<InferenceService> shared_inference_service(const GamePtr& game,
                                                           const std::string& model_path,
                                                           const std::string& device);

// Registers the "net" player kind (play/player.h). Arguments: model (path, required), sims
// (default 200), time (seconds per move, default 0: none), cpuct (1.5), leaves (4), device (cpu),
// solver (1: MCTS-Solver on, 0 off), tactics (1; 0, 1 or 2, docs/search.md) and level (1..10,
// default 10: the full search; lower levels search a fraction of sims and pick more loosely,
// play/levels.h).
void register_net_player_kind();

}  // namespace pincer
