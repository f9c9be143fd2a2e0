// An opening book in memory: positions keyed by State::hash() (transpositions are one entry), the
// header naming the ruleset fingerprint and the evaluator. Stored as proto/book.proto, written
// atomically, and refused under another ruleset fingerprint.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "engine/game.h"
#include "proto/book.pb.h"

namespace pincer::book {

constexpr int kBookFormatVersion = 1;

class BookError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class OpeningBook {
 public:
  // An empty book for `game`.
  explicit OpeningBook(const Game& game);

  // Reads a book file; throws BookError naming the file when it is unreadable, malformed (a side
  // to move other than 0 or 1 too), of an unknown format version, or made under another game or
  // ruleset fingerprint (naming both).
  static OpeningBook load(const std::string& path, const Game& game);
  // Only the header of a book file (to find its ruleset before loading the game).
  static BookHeader read_header(const std::string& path);
  // Writes the book atomically (positions sorted by hash, so equal books give equal files).
  void save(const std::string& path) const;

  BookHeader& header() { return header_; }
  const BookHeader& header() const { return header_; }
  const BookPosition* find(uint64_t hash) const;
  BookPosition* find(uint64_t hash);
  // The position of `state`, created (unsearched, with its text) when absent.
  BookPosition& at(const State& state);
  // The position of `hash`, created (unsearched) with this text and side to move when absent.
  BookPosition& at_hash(uint64_t hash, const std::string& text, int to_move);
  size_t size() const { return positions_.size(); }
  size_t searched() const;
  const std::unordered_map<uint64_t, BookPosition>& positions() const { return positions_; }

 private:
  BookHeader header_;
  std::unordered_map<uint64_t, BookPosition> positions_;
};

// The hash of the book's root: the header's (the first build's root), else, for a book with game
// statistics only, the game's start (0 for a random-start game: no one start).
uint64_t root_hash(const OpeningBook& book, const Game& game);

// The value of a move for the side to move at `pos`: the child's book value when the child is
// searched or terminal in `book` (negated when the other side moves there), else the searched q.
float move_value(const OpeningBook& book, const BookPosition& pos, const BookMove& move);

}  // namespace pincer::book
