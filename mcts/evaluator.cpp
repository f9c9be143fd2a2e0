#include "mcts/evaluator.h"
