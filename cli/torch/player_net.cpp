// Registers the "net:model=PATH,sims=N[,time=S]" player kind in the `pincer` executable, so that
// `pincer match`, `play` and the rest accept trained models (train/net_player.h).
#include "train/net_player.h"

namespace pincer::cli {
namespace {

struct RegisterNet {
  RegisterNet() { register_net_player_kind(); }
} register_net;

}  // namespace
}  // namespace pincer::cli
