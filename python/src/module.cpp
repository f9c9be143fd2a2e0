// The `pincer._core` extension: rules, records and play (docs/python.md). Errors in what Python
// code passes come back as pincer.GameError / pincer.RecordError (both ValueError) or ValueError.
#include <pybind11/pybind11.h>

#include "python/src/bindings.h"
#include "store/records.h"

namespace py = pybind11;

PYBIND11_MODULE(_core, m) {
  m.doc() = "pincer's rules, records, players and search (docs/python.md)";
  py::register_exception<pincer::GameError>(m, "GameError", PyExc_ValueError);
  py::register_exception<pincer::RecordError>(m, "RecordError", PyExc_ValueError);
  pincer::python::bind_game(m);
  pincer::python::bind_records(m);
  pincer::python::bind_play(m);
}
