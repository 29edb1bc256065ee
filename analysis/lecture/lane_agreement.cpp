#include "analysis/lecture/lane_agreement.hpp"

namespace warpdiv::lecture {

const char* name(Agreement agreement) {
  switch (agreement) {
    case Agreement::none: return "no lane passes";
    case Agreement::divergent: return "divergent";
    case Agreement::all: return "all lanes pass";
  }
  return "invalid record";
}

}  // namespace warpdiv::lecture
