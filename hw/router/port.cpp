// A port's credit bookkeeping (hw/router/port.h), out of
// line: credits come due far less often than an allocation round looks.
#include "hw/router/port.h"

namespace kairo::router {

void Port::apply_due_credits(VcTime* zero, sim::Time now) {
  std::int32_t* c = credits();
  while (!returning.empty() && returning.front().at <= now) {
    const hw::PendingCredit& r = returning.front();
    if (c[r.vc] == 0 && r.flits > 0 && zero) {
      VcTime& z = zero[r.vc];
      z.zero_ps += r.at - z.zero_since;
      z.zero_since = sim::kNever;
    }
    c[r.vc] += r.flits;
    returning.pop();
  }
}

}  // namespace kairo::router
