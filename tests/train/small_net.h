// A small network and a direct forward pass, for the tests of nn/ (torch-free: nn/model.h).
#pragma once

#include <string>
#include <vector>

#include "engine/game.h"
#include "nn/model.h"

namespace pincer::testing {

inline NetworkConfig small_net() {
  NetworkConfig n;
  n.set_blocks(1);
  n.set_channels(8);
  return n;
}

inline std::vector<float> run(Model& m, const Game& game, const std::vector<std::string>& positions,
                              std::vector<float>* wdl_out = nullptr) {
  const int size = m.input_size();
  std::vector<float> input(positions.size() * size);
  for (size_t i = 0; i < positions.size(); ++i) {
    game.parse_state(positions[i])->encode(input.data() + i * size);
  }
  std::vector<float> logits(positions.size() * m.num_actions()), wdl(positions.size() * 3);
  m.infer(input.data(), static_cast<int>(positions.size()), logits.data(), wdl.data());
  if (wdl_out) *wdl_out = wdl;
  return logits;
}

}  // namespace pincer::testing
