// Throughput measurements shared by `pincer bench` and the tests.
#pragma once

#include <vector>

#include "engine/game.h"
#include "nn/model.h"

namespace pincer {

// `count` encoded positions from random games (count * input_size floats).
std::vector<float> random_encoded_positions(const Game& game, int count, uint64_t seed);

struct RawThroughput {
  int batch = 0;
  double evals_per_s = 0;
  double ms_per_batch = 0;
  // Evaluations per second of this process's CPU time (all its threads): what the network
  // reaches per core while it has one, much less skewed by other processes than wall time.
  double evals_per_cpu_s = 0;
};

// Runs the network on batches of `batch` positions for about `seconds` (after a warm-up) on the
// calling thread, with its current torch thread setting.
RawThroughput measure_raw_throughput(Model& model, const std::vector<float>& positions, int batch,
                                     double seconds);

}  // namespace pincer
