// Registers the "net:model=PATH,sims=N[,time=S]" player kind in the `pincer` executable, so that
// `pincer match`, `play` and the rest accept trained models (train/net_player.h), with an opening
// book when given book=PATH (book/player.h).
#include "book/player.h"
#include "train/net_player.h"

namespace pincer::cli {
namespace {

struct RegisterNet {
  RegisterNet() {
    register_net_player_kind();
    book::add_book_to_player_kind("net");
  }
} register_net;

}  // namespace
}  // namespace pincer::cli
