// The `net:model=PATH,...` player kind in the torch-free executable: a stand-in that loads the
// torch half of pincer (cli/support/torch_plugin.h) the first time a spec asks for it. The
// library's own registration (cli/torch/player_net.cpp) then replaces it.
#include "cli/support/torch_plugin.h"
#include "play/player.h"

namespace pincer::cli {
namespace {

struct RegisterLazyNet {
  RegisterLazyNet() {
    register_player_kind("net", [](const GamePtr& game, const PlayerSpec& spec, uint64_t seed) {
      if (torch_library_loaded()) {
        throw std::invalid_argument("the network part of pincer did not register the net player");
      }
      try {
        load_torch_library("player \"" + to_string(spec) + "\"");
      } catch (const std::runtime_error& e) {
        throw std::invalid_argument(e.what());
      }
      return make_player(game, to_string(spec), seed);
    });
  }
} register_lazy_net;

}  // namespace
}  // namespace pincer::cli
