// The gatekeeper: plays a candidate model (models/model-NNNNNN.pt) against the current best
// (models/best.pt) with search on both sides, colours alternated in pairs of games from the same
// random opening (play/match.h), and promotes it (copies it over models/best.pt, atomically)
// as gating.promotion says (gate_promotes): by score, by the SPRT alone, or always (no gate).
// Every gate's result goes to gating.textproto.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "engine/game.h"
#include "play/sprt.h"
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
  // gating.promotion "always": the candidate becomes the best without games.
  GateResult promote_unplayed(const std::string& candidate_path);
  // Sets r's best_elo and time, promotes the candidate if r says so, and appends r to the log.
  void record(const std::string& candidate_path, GateResult& r);

  GamePtr game_;
  RunConfig cfg_;
  RunDir dir_;
};

// The gate's decision from a finished match (`sprt`: the SPRT's decision, kContinue when it has
// none or did not decide): "score" promotes on H1, refuses on H0, else on score >= threshold;
// "sprt" promotes on H1 alone; "always" promotes.
bool gate_promotes(const GatingConfig& g, double score, SprtDecision sprt);

}  // namespace pincer
