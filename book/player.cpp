#include "book/player.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>

#include "engine/random.h"

namespace pincer::book {
namespace {

class BookPlayer : public Player {
 public:
  BookPlayer(std::shared_ptr<const OpeningBook> book, std::unique_ptr<Player> inner,
             BookPlayOptions options, std::string spec)
      : book_(std::move(book)),
        inner_(std::move(inner)),
        options_(options),
        spec_(std::move(spec)),
        rng_(mix_seed(options.seed, 0xb00c)) {}

  std::string spec() const override { return spec_; }
  void new_game() override {
    inner_->new_game();
    in_book_ = false;
  }

  Action choose(const State& state) override {
    const Action a = book_move(*book_, state, options_, rng_.uniform());
    in_book_ = a >= 0;
    if (in_book_) {
      const BookPosition* p = book_->find(state.hash());
      for (const BookMove& m : p->moves()) {
        if (m.action() == a) {
          char buf[96];
          std::snprintf(buf, sizeof buf, "book: value %+.3f, %d moves", move_value(*book_, *p, m),
                        p->moves_size());
          info_ = buf;
        }
      }
      return a;
    }
    return inner_->choose(state);
  }

  std::string last_info() const override { return in_book_ ? info_ : inner_->last_info(); }

 private:
  std::shared_ptr<const OpeningBook> book_;
  std::unique_ptr<Player> inner_;
  BookPlayOptions options_;
  std::string spec_, info_;
  Rng rng_;
  bool in_book_ = false;
};

}  // namespace

Action book_move(const OpeningBook& book, const State& state, const BookPlayOptions& options,
                 double uniform) {
  const BookPosition* p = book.find(state.hash());
  if (!p || !p->searched() || p->moves().empty()) return -1;
  std::vector<float> values;
  float best = -3.0f;
  int best_i = -1;
  for (int i = 0; i < p->moves_size(); ++i) {
    const BookMove& m = p->moves(i);
    values.push_back(move_value(book, *p, m));
    if (values[i] > best || (values[i] == best && m.visits() > p->moves(best_i).visits())) {
      best = values[i];
      best_i = i;
    }
  }
  int pick = best_i;
  if (options.temperature > 0) {
    std::vector<double> weights(values.size(), 0.0);
    double total = 0;
    for (size_t i = 0; i < values.size(); ++i) {
      const double d = best - values[i];
      if (d <= 4 * options.temperature) weights[i] = std::exp(-d / options.temperature);
      total += weights[i];
    }
    double x = uniform * total;
    for (size_t i = 0; i < weights.size(); ++i) {
      if (weights[i] <= 0) continue;
      pick = static_cast<int>(i);
      if ((x -= weights[i]) < 0) break;
    }
  }
  const Action a = p->moves(pick).action();
  std::vector<Action> legal;
  state.legal_actions(legal);
  if (std::find(legal.begin(), legal.end(), a) == legal.end()) {
    spdlog::warn("book move {} is not legal in {}: not playing from the book here",
                 p->moves(pick).text(), state.to_text());
    return -1;
  }
  return a;
}

std::unique_ptr<Player> make_book_player(std::shared_ptr<const OpeningBook> book,
                                         std::unique_ptr<Player> inner, BookPlayOptions options,
                                         std::string spec) {
  return std::make_unique<BookPlayer>(std::move(book), std::move(inner), options, std::move(spec));
}

std::shared_ptr<const OpeningBook> shared_book(const std::string& path, const Game& game) {
  static std::mutex mu;
  static std::map<std::string, std::weak_ptr<const OpeningBook>> books;
  const std::string key = game.fingerprint() + "|" + path;
  std::lock_guard<std::mutex> lock(mu);
  if (auto b = books[key].lock()) return b;
  auto b = std::make_shared<const OpeningBook>(OpeningBook::load(path, game));
  books[key] = b;
  return b;
}

PlayerFactory with_book(PlayerFactory inner) {
  return [inner](const GamePtr& game, const PlayerSpec& spec, uint64_t seed) {
    if (!spec.args.count("book")) {
      if (spec.args.count("book_temperature")) {
        throw std::invalid_argument("player \"" + to_string(spec) +
                                    "\": book_temperature needs book=PATH");
      }
      return inner(game, spec, seed);
    }
    PlayerSpec rest = spec;
    rest.args.erase("book");
    rest.args.erase("book_temperature");
    PlayerSpec own{spec.kind, {}};
    for (const char* key : {"book", "book_temperature"}) {
      auto it = spec.args.find(key);
      if (it != spec.args.end()) own.args[key] = it->second;
    }
    SpecArgs args(own);
    const std::string path = args.get_string("book", "");
    BookPlayOptions o;
    o.temperature = args.get_double("book_temperature", 0, 0, 100);
    o.seed = seed;
    args.finish();
    if (path.empty()) {
      throw std::invalid_argument("player \"" + to_string(spec) + "\": book= needs a file");
    }
    std::shared_ptr<const OpeningBook> book;
    try {
      book = shared_book(path, *game);
    } catch (const std::exception& e) {
      throw std::invalid_argument("player \"" + to_string(spec) + "\": " + e.what());
    }
    return make_book_player(book, inner(game, rest, seed), o, to_string(spec));
  };
}

void add_book_to_player_kind(const std::string& kind) {
  PlayerFactory inner = player_kind_factory(kind);
  if (inner) register_player_kind(kind, with_book(std::move(inner)));
}

}  // namespace pincer::book
