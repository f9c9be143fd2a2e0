// The game interface: everything search, training and tools know about a game.
//
// A Game is one game under one ruleset (SE!ZE under seize-v0, Seega 5x5, ...). A State is a
// position of that game. Players are numbered 0 and 1; the game names them (side_name). Nothing
// here assumes that players alternate: the same player may act twice in a row (Seega's
// placement), so search must always ask to_move().
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace google::protobuf {
class Message;
}

namespace pincer {

// An action is an integer id in [0, Game::num_actions()), fixed for the game and ruleset, so a
// policy head has one output per id.
using Action = int32_t;

// Thrown for any bad input a game is given: position text, move text, a ruleset.
class GameError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Outcome {
  bool over = false;
  int winner = -1;          // 0 or 1; -1 for a draw (only meaningful when over)
  const char* reason = "";  // e.g. "crowns", "stalemate", "draw"; static storage

  bool is_draw() const { return over && winner < 0; }
  // Score for `player`: 1 win, 0.5 draw, 0 loss. Only meaningful when over.
  double score_for(int player) const { return winner < 0 ? 0.5 : (winner == player ? 1.0 : 0.0); }
};

// Shape of the network input planes: channels x height x width floats.
// How a game's policy indices lie on its board, for a network that computes the policy with a
// convolution instead of a dense layer: policy index i is cell map[i] % (H * W) (in encode()'s
// cell order) of plane map[i] / (H * W), among `planes` planes of the input's height H and width
// W. Distinct indices map to distinct cells. planes == 0: the game provides no such layout.
struct PolicyPlanes {
  int planes = 0;
  std::vector<int> map;  // num_actions() entries
};

struct InputShape {
  int channels = 0;
  int height = 0;
  int width = 0;
  int size() const { return channels * height * width; }
};

class Game;
class Heuristic;  // engine/heuristic.h

// How to draw the game's board (Game::board_layout), so that tools (the web page of `pincer
// serve`) draw any game without code per game. A game that provides none returns an empty layout.
struct BoardCell {
  std::string name;  // the square's name in the game's notation, e.g. "c3"
  int column = 0;    // 0 = leftmost as drawn
  int row = 0;       // 0 = top as drawn
  std::string mark;  // "" or the name of a marked square kind (see BoardLayout::marks)
  // "" a tile of the grid at (column, row); "point": the crossing at the top-left corner of tile
  // (column, row), where four tiles meet (column and row may then equal columns and rows).
  std::string shape;
};
struct PieceKind {
  std::string name;   // e.g. "guard", "boss+plus", "token-plus"
  int owner = -1;     // 0 or 1; -1: a marker lying on a cell (a token), owned by nobody
  std::string glyph;  // short text drawn on the piece, e.g. "B", "+"
  int points = 0;     // what capturing it scores where the ruleset counts points; else 0
  std::string shape;  // "" a disc; "die": a die showing `pips` pips (0: the glyph instead)
  int pips = 0;
};
struct BoardLayout {
  int columns = 0;
  int rows = 0;
  std::vector<BoardCell> cells;  // the playable cells; empty: no layout provided
  std::vector<PieceKind> kinds;  // indexed by BoardView::piece and ::marker
  // Marked square kinds, name -> what it means, e.g. {"crown", "a boss here wins"}.
  std::vector<std::pair<std::string, std::string>> marks;
  std::array<std::string, 2> side_colors;  // CSS colours of the players' pieces
  bool provided() const { return !cells.empty(); }
};
// What lies on each cell of the layout (State::board_view).
struct BoardView {
  std::vector<int> piece;   // per cell: index into BoardLayout::kinds, or -1; empty: not provided
  std::vector<int> marker;  // per cell: a marker kind lying there, or -1 (may be empty)
  bool provided() const { return !piece.empty(); }
};
// The cells an action moves between, for highlighting (State::action_cells): indices into
// BoardLayout::cells, -1 where there is none (a placement has no `from`; a game with no layout
// has neither).
// An action that leaves its piece's cell and puts pieces elsewhere (a divide) has `to` equal to
// `from` and those cells in `also`. Every legal action of a state has its own cells (from, to,
// also), so a page can tell them apart by clicks.
struct ActionCells {
  int from = -1;
  int to = -1;
  std::vector<int> also;
};

class State {
 public:
  virtual ~State() = default;
  virtual const Game& game() const = 0;
  virtual std::unique_ptr<State> clone() const = 0;

  // The player who acts now (0 or 1).
  virtual int to_move() const = 0;
  // Legal actions, in no particular order; empty when the game is over.
  virtual void legal_actions(std::vector<Action>& out) const = 0;
  // Plays a legal action. Passing an illegal action is a programming error (checked in debug).
  virtual void apply(Action action) = 0;
  virtual Outcome outcome() const = 0;
  // The legal actions after which the player to move has won at once (the game over, with
  // to_move() the winner), into `out` (cleared first). Search uses it to see shallow tactics.
  // The default plays each legal action on a copy and asks outcome(); games override it with
  // something cheaper.
  virtual void winning_actions(std::vector<Action>& out) const;
  // Whether winning_actions() would find one (an override may stop at the first).
  virtual bool has_winning_action() const;

  // Zobrist hash of everything that decides the legal moves and the result (counters excepted).
  virtual uint64_t hash() const = 0;
  // Key of everything encode() reads as well as hash(): states with equal keys give the network
  // the same input and have the same legal moves, so an evaluation cache may answer one for the
  // other. The default hashes the encoded planes (XXH64 seeded with hash()); games override it
  // with hash() mixed with the counters their encoding reads.
  virtual uint64_t eval_key() const;
  // The game's one-line position text (SFEN for SE!ZE); Game::parse_state reads it back.
  virtual std::string to_text() const = 0;
  // A compact one-word form (base64url of a fixed-size binary position) for corpora and URLs,
  // or "" where the game has none. Game::parse_state accepts it too.
  virtual std::string to_compact() const { return ""; }
  // A multi-line picture of the board for people.
  virtual std::string to_diagram() const = 0;
  // Squares whose pieces the last action captured, in the game's square names.
  virtual std::vector<std::string> last_captured() const = 0;
  // Points of each player as the ruleset counts them (all zero where it counts none).
  virtual std::array<int, 2> points() const = 0;

  // Network input from the point of view of the player to move; writes input_shape().size().
  virtual void encode(float* planes) const = 0;
  // The policy output index of an action, in the same point of view as encode(). Identity by
  // default; a game whose encoding turns the board for one player turns its actions too.
  virtual int policy_index(Action action) const { return action; }
  // Who holds each cell of the input grid (H x W of Game::input_shape()), for the ownership
  // target of training (a KataGo-style auxiliary target): writes H * W values, +1 where a piece
  // of `player` stands, -1 where one of the other player's stands, 0 elsewhere (empty, a marker
  // owned by nobody, a cell off the board), each at the cell where encode() puts that square's
  // piece planes when `player` is the player to move: the same orientation, so a target read at
  // a later ply lines up with the earlier position's input. Moved by Game::apply_symmetry_plane.
  // Returns false (and writes nothing) where the game provides no ownership; a game that
  // provides it does so for every state.
  virtual bool ownership(int player, float* cells) const {
    (void)player, (void)cells;
    return false;
  }

  virtual bool equals(const State& other) const = 0;

  // The pieces on the board by cell of Game::board_layout(); empty where the game provides none.
  virtual BoardView board_view() const { return {}; }
  // The cells `action` (legal here) goes from and to; {-1, -1} where the game provides none.
  virtual ActionCells action_cells(Action action) const {
    (void)action;
    return {};
  }
};

class Game {
 public:
  virtual ~Game() = default;

  virtual std::string game_name() const = 0;     // registry name, e.g. "seize"
  virtual std::string ruleset_name() const = 0;  // e.g. "seize-v0"
  virtual std::string fingerprint() const = 0;   // 16 hex digits
  // The whole ruleset file as loaded (header, rules and notes): the game's own ruleset message.
  virtual const google::protobuf::Message& ruleset() const = 0;
  virtual std::string side_name(int player) const = 0;
  // Parses a side name as the game writes it (full name or its one-letter form); -1 if unknown.
  virtual int parse_side(std::string_view text) const = 0;

  virtual int num_actions() const = 0;
  // The start. For a random-start game, the start drawn from seed 0 (see below).
  virtual std::unique_ptr<State> initial_state() const = 0;

  // Random starts. Most games have one fixed start. A random-start game (the dice game rolls its
  // back rows) draws its start from a seed and names each start by a setup string. A fixed-start
  // game draws "" for every seed and accepts only "" (its one start) as a setup.
  virtual bool random_start() const { return false; }
  // The setup string `seed` draws ("354K612/216K543" for the dice game; "" for a fixed start).
  virtual std::string draw_setup(uint64_t seed) const {
    (void)seed;
    return "";
  }
  // The start of a setup string; throws GameError naming the problem.
  virtual std::unique_ptr<State> setup_state(std::string_view setup) const;
  // The start drawn from `seed` (initial_state() for a fixed-start game).
  std::unique_ptr<State> start_state(uint64_t seed) const { return setup_state(draw_setup(seed)); }
  // A start given as a setup string (random-start games: one or two words) or a whole position
  // text (State::to_text()), for --position options and records. "" or "startpos" is the fixed
  // start, and an error for a random-start game.
  std::unique_ptr<State> parse_start(std::string_view text) const;
  // Reads State::to_text(); throws GameError naming what is wrong.
  virtual std::unique_ptr<State> parse_state(std::string_view text) const = 0;

  // Text of a legal action in `state`: long form (unambiguous on its own, e.g. "c3-c2") or the
  // shortest unambiguous short form among state's legal actions.
  virtual std::string action_text(const State& state, Action action, bool short_form) const = 0;
  // Reads any accepted form of a move in `state`; throws GameError for illegal or ambiguous text
  // (listing the candidates when ambiguous).
  virtual Action parse_action(const State& state, std::string_view text) const = 0;

  virtual InputShape input_shape() const = 0;
  virtual int encoding_version() const = 0;
  // Board symmetries usable for data augmentation (1 = identity only). Symmetry 0 is identity.
  virtual int num_symmetries() const { return 1; }
  // Applies symmetry `sym` in place to encoded planes and to a policy vector indexed by
  // policy_index. Only called with 0 < sym < num_symmetries().
  virtual void apply_symmetry(int sym, float* planes, float* policy) const {
    (void)sym, (void)planes, (void)policy;
  }

  // Applies symmetry `sym` (0 < sym < num_symmetries()) in place to one H x W plane laid out
  // like the input's piece planes (State::ownership), as apply_symmetry moves those planes. The
  // default moves it as apply_symmetry moves plane 0 of the input (a piece plane in every game
  // here); a game whose plane 0 lies otherwise overrides it.
  virtual void apply_symmetry_plane(int sym, float* plane) const;
  // Whether the game's states provide State::ownership (asked of the initial state).
  bool provides_ownership() const;

  // The policy's layout on the board (see PolicyPlanes); none by default.
  virtual PolicyPlanes policy_planes() const { return {}; }

  // Leaf count of the game tree to `depth` plies (a finished game has no children). Games
  // override this with a fast path; the default walks the interface.
  virtual uint64_t perft(const State& state, int depth) const;

  // Hand-made knowledge for the classical players (evaluation, capture values); nullptr for a
  // game without one (they fall back to points and mobility). Owned by the game.
  virtual const Heuristic* heuristic() const { return nullptr; }

  // Who wins when a game that counts points is decided on points and they are equal (e.g. a
  // game clock runs out): 0 or 1, or -1 for a draw (the default).
  virtual int points_tie_winner() const { return -1; }

  // How to draw the board (cells, marked squares, piece kinds and glyphs); empty (not provided)
  // by default. State::board_view and State::action_cells index into it.
  virtual BoardLayout board_layout() const { return {}; }
};

using GamePtr = std::shared_ptr<const Game>;

}  // namespace pincer
