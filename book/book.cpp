#include "book/book.h"

#include <algorithm>
#include <vector>

#include "engine/atomic_file.h"

namespace pincer::book {

OpeningBook::OpeningBook(const Game& game) {
  header_.set_format_version(kBookFormatVersion);
  header_.set_game(game.game_name());
  header_.set_ruleset_name(game.ruleset_name());
  header_.set_fingerprint(game.fingerprint());
}

namespace {

Book parse_file(const std::string& path) {
  std::string bytes;
  try {
    bytes = read_whole_file(path);
  } catch (const std::exception& e) {
    throw BookError(e.what());
  }
  Book book;
  if (!book.ParseFromString(bytes) || book.header().format_version() == 0) {
    throw BookError("book " + path + ": not a pincer book file (or damaged)");
  }
  if (book.header().format_version() != kBookFormatVersion) {
    throw BookError("book " + path + ": format version " +
                    std::to_string(book.header().format_version()) + ", this build reads " +
                    std::to_string(kBookFormatVersion));
  }
  return book;
}

}  // namespace

BookHeader OpeningBook::read_header(const std::string& path) { return parse_file(path).header(); }

OpeningBook OpeningBook::load(const std::string& path, const Game& game) {
  Book file = parse_file(path);
  const BookHeader& h = file.header();
  if (h.game() != game.game_name() || h.fingerprint() != game.fingerprint()) {
    throw BookError("book " + path + " was made for " + h.game() + " " + h.ruleset_name() +
                    " (fingerprint " + h.fingerprint() + "), not " + game.game_name() + " " +
                    game.ruleset_name() + " (fingerprint " + game.fingerprint() + ")");
  }
  OpeningBook book(game);
  book.header_ = h;
  for (BookPosition& p : *file.mutable_positions()) {
    const uint64_t hash = p.hash();
    // Side names and every per-side count index by it: 0 or 1, or the file is damaged.
    if (p.to_move() != 0 && p.to_move() != 1) {
      throw BookError("book " + path + ": damaged: position " + p.text() + " has side to move " +
                      std::to_string(p.to_move()));
    }
    if (!book.positions_.emplace(hash, std::move(p)).second) {
      throw BookError("book " + path + ": position " + std::to_string(hash) + " appears twice");
    }
  }
  return book;
}

void OpeningBook::save(const std::string& path) const {
  Book file;
  *file.mutable_header() = header_;
  std::vector<uint64_t> hashes;
  hashes.reserve(positions_.size());
  for (const auto& [hash, p] : positions_) hashes.push_back(hash);
  std::sort(hashes.begin(), hashes.end());
  for (uint64_t hash : hashes) *file.add_positions() = positions_.at(hash);
  std::string bytes;
  if (!file.SerializeToString(&bytes)) throw BookError("book " + path + ": cannot serialize");
  atomic_write_file(path, bytes);
}

const BookPosition* OpeningBook::find(uint64_t hash) const {
  auto it = positions_.find(hash);
  return it == positions_.end() ? nullptr : &it->second;
}

BookPosition* OpeningBook::find(uint64_t hash) {
  auto it = positions_.find(hash);
  return it == positions_.end() ? nullptr : &it->second;
}

BookPosition& OpeningBook::at(const State& state) {
  BookPosition* p = find(state.hash());
  return p ? *p : at_hash(state.hash(), state.to_text(), state.to_move());
}

BookPosition& OpeningBook::at_hash(uint64_t hash, const std::string& text, int to_move) {
  auto [it, added] = positions_.try_emplace(hash);
  if (added) {
    it->second.set_hash(hash);
    it->second.set_text(text);
    it->second.set_to_move(to_move);
  }
  return it->second;
}

size_t OpeningBook::searched() const {
  size_t n = 0;
  for (const auto& [hash, p] : positions_) n += p.searched() || p.terminal();
  return n;
}

uint64_t root_hash(const OpeningBook& book, const Game& game) {
  if (!book.header().root().empty()) return book.header().root_hash();
  return game.random_start() ? 0 : game.initial_state()->hash();
}

float move_value(const OpeningBook& book, const BookPosition& pos, const BookMove& move) {
  const BookPosition* child = book.find(move.child_hash());
  if (!child || !(child->searched() || child->terminal())) return move.q();
  return child->to_move() == pos.to_move() ? child->value() : -child->value();
}

}  // namespace pincer::book
