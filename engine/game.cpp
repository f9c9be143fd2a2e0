// Defaults of the game interface (engine/game.h) that work through the interface itself.
#include "engine/game.h"

#include <xxhash.h>

#include <vector>

namespace pincer {

uint64_t State::eval_key() const {
  std::vector<float> planes(static_cast<size_t>(game().input_shape().size()));
  encode(planes.data());
  return XXH64(planes.data(), planes.size() * sizeof(float), hash());
}

}  // namespace pincer
