// The page files compiled into the binary (serve/web/, embedded by cmake/embed.cmake).
#pragma once

#include "engine/embedded.h"

namespace pincer {
const std::vector<EmbeddedFile>& embedded_web();
}
