// The gatekeeper: plays a candidate model (models/model-NNNNNN.pt) against the current best
// (models/best.pt) with search on both sides, colours alternated in pairs of games from the same
// random opening (play/match.h), and promotes it (copies it over models/best.pt, atomically)
// when its score reaches the threshold, or when the SPRT accepts it. Every gate's result goes to
// gating.textproto.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "engine/game.h"
#include "proto/run_config.pb.h"
#include "proto/train_state.pb.h"
#include "store/run_dir.h"

namespace pincer {

class Gatekeeper {
 public:
  Gatekeeper(GamePtr game, const RunConfig& config, const RunDir& dir);

  // The newest model under models/ that is due for a gate (every_checkpoints), newer than the
  // best and not gated yet; "" if none.
  std::string next_candidate() const;
  // Plays the gate, records it and promotes the candidate if it passed.
  GateResult gate(const std::string& candidate_path);

 private:
  GamePtr game_;
  RunConfig cfg_;
  RunDir dir_;
};

}  // namespace pincer
