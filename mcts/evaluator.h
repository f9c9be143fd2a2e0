// The Evaluator interface: how search asks for a position's prior policy and value. Search
// never includes torch; nn/ implements this with a batching inference service, and tests fake it.
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "engine/game.h"

namespace pincer {

struct Evaluation {
  // Prior probability of each legal action, in the order of the `legal` vector given (exactly
  // one per legal action; search renormalizes them, and treats all-zero priors as uniform).
  std::vector<float> priors;
  // Win, draw, loss probabilities for the player to move in the evaluated state.
  std::array<float, 3> wdl{0.0f, 1.0f, 0.0f};
  // Expected final points difference (player to move minus opponent), where the evaluator
  // predicts it (a network with a points head).
  std::optional<float> points;
};

struct EvalRequest {
  const State* state = nullptr;
  const std::vector<Action>* legal = nullptr;  // the state's legal actions, non-empty
};

class Evaluator {
 public:
  virtual ~Evaluator() = default;
  // Evaluates a batch; resizes `out` to requests.size() and out[i] answers requests[i]. The
  // request pointers are valid only during the call. Must be safe to call from several threads at
  // once (a batching implementation merges concurrent calls into larger network batches).
  virtual void evaluate(const std::vector<EvalRequest>& requests, std::vector<Evaluation>& out) = 0;
};

}  // namespace pincer
