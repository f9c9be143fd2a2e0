// gating.textproto (proto GateLog): every gate's result, as text. Torch-free, so that its fuzz
// target needs no LibTorch.
#pragma once

#include <string>

#include "proto/train_state.pb.h"

namespace pincer {

// Parses a gate log; throws std::runtime_error naming `origin` (and the line) when damaged.
GateLog parse_gate_log(const std::string& text, const std::string& origin);

}  // namespace pincer
