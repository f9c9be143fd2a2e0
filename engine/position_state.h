// The State of a game whose rules live in a value-type Position (corners, dice, Seega): what
// every such game's State otherwise copies. The Position supplies to_move(), generate(ActionList&),
// is_legal(), apply(), result() (a Result with over(), winner and reason) and ==; the game's
// namespace supplies reason_name(Reason). `Derived` is the game's State class (for clone() and
// equals()); it adds what is the game's own: text, diagram, encoding, captures.
#pragma once

#include <cassert>
#include <memory>
#include <vector>

#include "engine/game.h"

namespace pincer {

template <typename Derived, typename GameT, typename PositionT, typename ActionListT>
class PositionState : public State {
 public:
  PositionState(const GameT& game, const PositionT& pos) : game_(&game), pos_(pos) {}

  const Game& game() const override { return *game_; }
  std::unique_ptr<State> clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }
  int to_move() const override { return pos_.to_move(); }
  void legal_actions(std::vector<Action>& out) const override {
    ActionListT list;
    pos_.generate(list);
    out.assign(list.begin(), list.end());
  }
  void apply(Action action) override {
    assert(pos_.is_legal(action));
    pos_.apply(action);
  }
  Outcome outcome() const override {
    const auto r = pos_.result();
    return Outcome{r.over(), r.winner, reason_name(r.reason)};
  }
  // The same position under the same rules (by fingerprint).
  bool equals(const State& other) const override {
    const auto* o = dynamic_cast<const Derived*>(&other);
    return o && o->game_->fingerprint() == game_->fingerprint() && o->pos_ == pos_;
  }

  const PositionT& position() const { return pos_; }

 protected:
  const GameT* game_;
  PositionT pos_;
};

}  // namespace pincer
