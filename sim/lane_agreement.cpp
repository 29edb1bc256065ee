#include "sim/lane_agreement.hpp"

namespace warpdiv::sim {

const char* name(Agreement agreement) {
  switch (agreement) {
    case Agreement::none: return "no lane passes";
    case Agreement::divergent: return "divergent";
    case Agreement::all: return "all lanes pass";
  }
  return "invalid record";
}

}  // namespace warpdiv::sim
