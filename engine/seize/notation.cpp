#include "engine/seize/notation.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "engine/game.h"
#include "engine/text.h"

namespace pincer::seize {

namespace {

[[noreturn]] void fail(const std::string& what) { throw GameError(what); }

char power_suffix(Power p) { return p == kPlus ? '+' : p == kCross ? 'x' : p == kCrown ? '*' : 0; }

int side_from_text(const Rules& r, const std::string& s) {
  for (int p = 0; p < 2; ++p) {
    if (s == r.side_name[p] || s == std::string(1, r.side_name[p][0])) return p;
  }
  return -1;
}

struct BitWriter {
  std::vector<uint8_t> bytes;
  int pos = 0;
  explicit BitWriter(int size) : bytes(size, 0) {}
  void put(uint32_t value, int bits) {
    for (int i = 0; i < bits; ++i, ++pos) {
      if ((value >> i) & 1) bytes[pos >> 3] |= static_cast<uint8_t>(1u << (pos & 7));
    }
  }
};

struct BitReader {
  const std::vector<uint8_t>& bytes;
  int pos = 0;
  uint32_t get(int bits) {
    uint32_t v = 0;
    for (int i = 0; i < bits; ++i, ++pos)
      v |= static_cast<uint32_t>((bytes[pos >> 3] >> (pos & 7)) & 1) << i;
    return v;
  }
};

constexpr int kMaxPieces = 16;
constexpr int kCounterBits = 10;  // halfmove and ply, up to 1023
constexpr int kPointsBits = 5;

int payload_bits(const Rules& r) {
  int bits = 60 + 4 * kMaxPieces + 1;
  if (r.tokens_consumed) bits += popcount(r.marked_squares());
  if (r.halfmove_limit) bits += kCounterBits;
  if (r.total_plies) bits += kCounterBits;
  if (r.keeps_points()) bits += 2 * kPointsBits;
  return bits;
}

const char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

}  // namespace

std::string long_move(Move m) { return square_name(m.from) + "-" + square_name(m.to); }

std::string short_move(const Position& pos, Move m) {
  MoveList list;
  pos.generate(list);
  int same_to = 0, same_file = 0, same_rank = 0;
  for (const Move& o : list) {
    if (o.to != m.to) continue;
    ++same_to;
    same_file += file_of(o.from) == file_of(m.from);
    same_rank += rank_of(o.from) == rank_of(m.from);
  }
  const std::string to = square_name(m.to), from = square_name(m.from);
  if (same_to <= 1) return to;
  if (same_file <= 1) return from.substr(0, 1) + to;
  if (same_rank <= 1) return from.substr(1, 1) + to;
  return from + to;
}

Move parse_move(const Position& pos, std::string_view raw) {
  std::string text;
  for (char c : raw)
    if (!std::isspace(static_cast<unsigned char>(c)))
      text += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string shown = quoted(raw);
  std::string from_text, to_text;
  if (text.size() == 5 && text[2] == '-') {
    from_text = text.substr(0, 2), to_text = text.substr(3);
  } else if (text.size() >= 2 && text.size() <= 4) {
    to_text = text.substr(text.size() - 2);
    from_text = text.substr(0, text.size() - 2);
  } else {
    fail("cannot read move " + shown + " (forms: c3-c2, c1b2, cb2, 1b2, b2)");
  }
  const int to = parse_square(to_text);
  if (to < 0)
    fail("cannot read move " + shown + ": '" + to_text + "' is not a square of the board");
  int from = -1, from_file = -1, from_rank = -1;
  if (from_text.size() == 2) {
    from = parse_square(from_text);
    if (from < 0)
      fail("cannot read move " + shown + ": '" + from_text + "' is not a square of the board");
  } else if (from_text.size() == 1) {
    const char c = from_text[0];
    if (c >= 'a' && c <= 'h')
      from_file = c - 'a';
    else if (c >= '1' && c <= '8')
      from_rank = c - '1';
    else
      fail("cannot read move " + shown + ": '" + from_text + "' is neither a file nor a rank");
  }
  MoveList list;
  pos.generate(list);
  std::vector<Move> found;
  for (const Move& m : list) {
    if (m.to != to) continue;
    if (from >= 0 && m.from != from) continue;
    if (from_file >= 0 && file_of(m.from) != from_file) continue;
    if (from_rank >= 0 && rank_of(m.from) != from_rank) continue;
    found.push_back(m);
  }
  if (found.size() == 1) return found[0];
  if (found.empty())
    fail("illegal move " + shown + ": no piece of " + pos.rules().side_name[pos.to_move()] +
         " can make it");
  std::vector<std::string> names;
  for (const Move& m : found) names.push_back(long_move(m));
  std::sort(names.begin(), names.end());
  std::string cands;
  for (const std::string& n : names) cands += (cands.empty() ? "" : ", ") + n;
  fail("ambiguous move " + shown + ": candidates " + cands);
}

std::string to_sfen(const Position& pos) {
  const Rules& r = pos.rules();
  std::ostringstream out;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const int sq = make_square(file, rank);
      const int owner = pos.owner(sq);
      if (owner < 0) {
        ++empty;
        continue;
      }
      if (empty) out << empty, empty = 0;
      const char letter = pos.is_boss(sq) ? 'b' : 'g';
      out << static_cast<char>(owner == kBottom ? std::toupper(letter) : letter);
      if (const char s = power_suffix(pos.power_at(sq))) out << s;
    }
    if (empty) out << empty;
    if (rank) out << '/';
  }
  out << ' ' << r.side_name[pos.to_move()][0];
  if (r.tokens_consumed) {
    out << ' ';
    if (!pos.tokens()) out << '-';
    for (Bitboard b = pos.tokens(); b;) {
      const int sq = pop_lsb(b);
      out << ((r.plus_squares & bit(sq)) ? '+' : 'x') << square_name(sq);
    }
  }
  if (r.halfmove_limit) out << ' ' << pos.halfmove();
  if (r.total_plies) out << ' ' << pos.ply();
  if (r.keeps_points()) out << ' ' << pos.points(kBottom) << '-' << pos.points(kTop);
  return out.str();
}

Position parse_sfen(const Rules& r, std::string_view text) {
  const std::vector<std::string> fields = split_words(text);
  std::vector<std::string> names = {"board", "side"};
  if (r.tokens_consumed) names.push_back("tokens");
  if (r.halfmove_limit) names.push_back("halfmove");
  if (r.total_plies) names.push_back("ply");
  if (r.keeps_points()) names.push_back("points");
  if (fields.size() != names.size()) {
    std::string want;
    for (const auto& n : names) want += (want.empty() ? "" : " ") + n;
    fail("SFEN under these rules has " + std::to_string(names.size()) + " fields (" + want +
         "), got " + std::to_string(fields.size()));
  }
  const int side = side_from_text(r, fields[1]);
  if (side < 0)
    fail("SFEN side to move '" + fields[1] + "' is not " + r.side_name[0] + " or " +
         r.side_name[1]);
  Position pos = Position::empty(r, side);

  // Board: ranks 8 to 1.
  const std::string& board = fields[0];
  int rank = 7, file = 0;
  for (size_t i = 0; i < board.size(); ++i) {
    const char c = board[i];
    if (c == '/') {
      if (file != 8)
        fail("SFEN rank " + std::to_string(rank + 1) + " has " + std::to_string(file) +
             " squares, not 8");
      if (--rank < 0) fail("SFEN board has more than 8 ranks");
      file = 0;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
      if (file > 8) fail("SFEN rank " + std::to_string(rank + 1) + " has more than 8 squares");
    } else if (c == 'g' || c == 'G' || c == 'b' || c == 'B') {
      if (file >= 8) fail("SFEN rank " + std::to_string(rank + 1) + " has more than 8 squares");
      const int sq = make_square(file, rank);
      if (!(kBoard & bit(sq))) fail("SFEN puts a piece on the removed corner " + square_name(sq));
      Power power = kNoPower;
      if (i + 1 < board.size()) {
        const char s = board[i + 1];
        power = s == '+' ? kPlus : (s == 'x' || s == 'X') ? kCross : s == '*' ? kCrown : kNoPower;
        if (power != kNoPower) ++i;
      }
      pos.put(sq, std::isupper(static_cast<unsigned char>(c)) ? kBottom : kTop,
              c == 'b' || c == 'B', power);
      ++file;
    } else {
      fail(std::string("SFEN board has an unexpected character '") + c + "'");
    }
  }
  if (rank != 0 || file != 8) fail("SFEN board must have 8 ranks of 8 squares");

  size_t next = 2;
  if (r.tokens_consumed) {
    const std::string& t = fields[next++];
    Bitboard tokens = 0;
    if (t != "-") {
      if (t.size() % 3) fail("SFEN tokens '" + t + "' must be '-' or a list like +f1xc1");
      for (size_t i = 0; i < t.size(); i += 3) {
        const int sq = parse_square(t.substr(i + 1, 2));
        const char k = t[i];
        const Bitboard want = k == '+'                 ? r.plus_squares
                              : (k == 'x' || k == 'X') ? r.cross_squares
                                                       : 0;
        if (sq < 0 || !(want & bit(sq)))
          fail("SFEN token '" + t.substr(i, 3) + "' is not a marked square of its kind");
        if (tokens & bit(sq)) fail("SFEN lists the token on " + square_name(sq) + " twice");
        tokens |= bit(sq);
      }
    }
    pos.set_tokens(tokens);
  } else {
    pos.set_tokens(r.marked_squares());
  }
  int halfmove = 0, ply = 0, pb = 0, pt = 0;
  if (r.halfmove_limit && !parse_uint(fields[next++], 1023, halfmove))
    fail("SFEN halfmove clock '" + fields[next - 1] + "' must be a number from 0 to 1023");
  if (r.total_plies && !parse_uint(fields[next++], 1023, ply))
    fail("SFEN ply count '" + fields[next - 1] + "' must be a number from 0 to 1023");
  if (r.keeps_points()) {
    const std::string& p = fields[next++];
    const size_t dash = p.find('-');
    if (dash == std::string::npos || !parse_uint(p.substr(0, dash), 31, pb) ||
        !parse_uint(p.substr(dash + 1), 31, pt))
      fail("SFEN points '" + p + "' must be two numbers from 0 to 31 like 3-1");
  }
  pos.set_counters(halfmove, ply, pb, pt);
  validate(pos);
  return pos;
}

void validate(const Position& pos) {
  const Rules& r = pos.rules();
  if (pos.occupied() & kCorners) fail("a piece stands on a removed corner");
  for (int p = 0; p < 2; ++p) {
    const int bosses = popcount(pos.pieces(p) & pos.bosses());
    const int pieces = popcount(pos.pieces(p));
    const int start_bosses = popcount(r.start_bosses[p]);
    const int start_pieces = start_bosses + popcount(r.start_guards[p]);
    if (bosses > start_bosses)
      fail(r.side_name[p] + " has " + std::to_string(bosses) + " bosses; the rules start with " +
           std::to_string(start_bosses));
    if (pieces > start_pieces)
      fail(r.side_name[p] + " has " + std::to_string(pieces) + " pieces; the rules start with " +
           std::to_string(start_pieces));
  }
  const Bitboard powered = pos.powered(kPlus) | pos.powered(kCross) | pos.powered(kCrown);
  if ((pos.powered(kPlus) | pos.powered(kCross)) && !r.marked_squares())
    fail("a piece carries a + or x power, but these rules have no marked squares");
  if (pos.powered(kCrown) && !r.crown_cap)
    fail("a piece wears the boss cap (*), which these rules do not have");
  if (pos.powered(kCrown) & pos.bosses())
    fail("a boss wears the boss cap (*); only guards take it");
  if ((powered & pos.bosses()) && !r.boss_takes_power)
    fail("a boss carries a power; under these rules bosses never do");
  if (pos.tokens() & ~r.marked_squares()) fail("a token lies on a square that is not marked");
  if (!r.tokens_consumed && pos.tokens() != r.marked_squares())
    fail("under these rules the marked squares never run out");
  if (!r.halfmove_limit && pos.halfmove()) fail("these rules keep no halfmove clock");
  if (!r.total_plies && pos.ply()) fail("these rules keep no ply count");
  if (!r.keeps_points() && (pos.points(0) || pos.points(1))) fail("these rules keep no points");
  if (pos.halfmove() > 1023 || pos.ply() > 1023) fail("counters go up to 1023");
  if (pos.points(0) > 31 || pos.points(1) > 31) fail("points go up to 31");
}

int binary_size(const Rules& r) { return (payload_bits(r) + 7) / 8; }

std::vector<uint8_t> to_binary(const Position& pos) {
  const Rules& r = pos.rules();
  validate(pos);
  BitWriter w(binary_size(r));
  const Bitboard occ = pos.occupied();
  for (int sq = 0; sq < 64; ++sq)
    if (kBoard & bit(sq)) w.put((occ >> sq) & 1, 1);
  int pieces = 0;
  for (Bitboard b = occ; b; ++pieces) {
    const int sq = pop_lsb(b);
    w.put(static_cast<uint32_t>(pos.owner(sq)) | (pos.is_boss(sq) ? 2u : 0u) |
              (static_cast<uint32_t>(pos.power_at(sq)) << 2),
          4);
  }
  if (pieces > kMaxPieces) fail("more than 16 pieces have no binary form");
  w.pos = 60 + 4 * kMaxPieces;
  w.put(static_cast<uint32_t>(pos.to_move()), 1);
  if (r.tokens_consumed) {
    for (Bitboard b = r.marked_squares(); b;) w.put((pos.tokens() >> pop_lsb(b)) & 1, 1);
  }
  if (r.halfmove_limit) w.put(static_cast<uint32_t>(pos.halfmove()), kCounterBits);
  if (r.total_plies) w.put(static_cast<uint32_t>(pos.ply()), kCounterBits);
  if (r.keeps_points()) {
    w.put(static_cast<uint32_t>(pos.points(0)), kPointsBits);
    w.put(static_cast<uint32_t>(pos.points(1)), kPointsBits);
  }
  return w.bytes;
}

Position from_binary(const Rules& r, const std::vector<uint8_t>& bytes) {
  const int size = binary_size(r);
  if (static_cast<int>(bytes.size()) != size)
    fail("a binary position under these rules has " + std::to_string(size) + " bytes, not " +
         std::to_string(bytes.size()));
  BitReader in{bytes};
  Bitboard occ = 0;
  for (int sq = 0; sq < 64; ++sq)
    if ((kBoard & bit(sq)) && in.get(1)) occ |= bit(sq);
  if (popcount(occ) > kMaxPieces) fail("binary position has more than 16 pieces");
  std::vector<std::pair<int, uint32_t>> pieces;
  for (Bitboard b = occ; b;) pieces.emplace_back(pop_lsb(b), in.get(4));
  for (size_t i = pieces.size(); i < kMaxPieces; ++i)
    if (in.get(4)) fail("binary position has stray bits after its pieces");
  Position pos = Position::empty(r, static_cast<int>(in.get(1)));
  for (const auto& [sq, code] : pieces)
    pos.put(sq, static_cast<int>(code & 1), code & 2, static_cast<Power>(code >> 2));
  Bitboard tokens = r.marked_squares();
  if (r.tokens_consumed) {
    tokens = 0;
    for (Bitboard b = r.marked_squares(); b;) {
      const int sq = pop_lsb(b);
      if (in.get(1)) tokens |= bit(sq);
    }
  }
  pos.set_tokens(tokens);
  const int halfmove = r.halfmove_limit ? static_cast<int>(in.get(kCounterBits)) : 0;
  const int ply = r.total_plies ? static_cast<int>(in.get(kCounterBits)) : 0;
  int pb = 0, pt = 0;
  if (r.keeps_points())
    pb = static_cast<int>(in.get(kPointsBits)), pt = static_cast<int>(in.get(kPointsBits));
  pos.set_counters(halfmove, ply, pb, pt);
  if (in.get(size * 8 - in.pos)) fail("binary position has stray bits at its end");
  validate(pos);
  return pos;
}

std::string to_base64(const Position& pos) {
  const std::vector<uint8_t> bytes = to_binary(pos);
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (uint8_t b : bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 6) out += kBase64[(acc >> (bits -= 6)) & 63];
  }
  if (bits) out += kBase64[(acc << (6 - bits)) & 63];
  return out;
}

Position from_base64(const Rules& r, std::string_view text) {
  const int size = binary_size(r);
  const size_t want = (static_cast<size_t>(size) * 8 + 5) / 6;
  if (text.size() != want)
    fail("a base64 position under these rules has " + std::to_string(want) + " characters, not " +
         std::to_string(text.size()));
  std::vector<uint8_t> bytes;
  uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    const char* p = std::find(kBase64, kBase64 + 64, c);
    if (p == kBase64 + 64) fail(std::string("'") + c + "' is not a base64url character");
    acc = (acc << 6) | static_cast<uint32_t>(p - kBase64);
    bits += 6;
    if (bits >= 8)
      bytes.push_back(static_cast<uint8_t>(acc >> (bits -= 8))), acc &= (1u << bits) - 1;
  }
  if (acc) fail("base64 position has stray bits at its end");
  return from_binary(r, bytes);
}

}  // namespace pincer::seize
