#include "hw/ocs/clos_fabric.h"

#include <climits>
#include <stdexcept>

namespace kairo::ocs {
namespace {

std::string shape_error(const ClosShape& s) {
  const int n = s.switch_ports, m = s.banks;
  if (n < 1)
    return "ocs.switch_ports = " + std::to_string(n) + ": a MEMS bank needs at least 1 port per side";
  if (m < 1)
    return "ocs.banks = " + std::to_string(m) + ": the fabric needs at least 1 ingress and 1 egress bank";
  if (n % m != 0)
    return "ocs.banks = " + std::to_string(m) + " must divide ocs.switch_ports = " + std::to_string(n) +
           ": each ingress bank has ocs.switch_ports / ocs.banks fibers to each middle bank";
  if (s.middle_banks < 1)
    return "ocs.middle_banks = " + std::to_string(s.middle_banks) +
           ": need at least 1 middle bank (ocs.middle_banks = ocs.banks = " + std::to_string(m) +
           " gives the rearrangeably non-blocking 3m-bank fabric)";
  if (static_cast<long long>(n) * m > INT_MAX / 2 || static_cast<long long>(n) * s.middle_banks > INT_MAX / 2)
    return "ocs.banks = " + std::to_string(m) + " and ocs.middle_banks = " + std::to_string(s.middle_banks) +
           " with ocs.switch_ports = " + std::to_string(n) +
           " is too large a fabric to number its ports; use fewer or smaller banks";
  return {};
}

ConnectResult refusal(ClosFailure why, std::string reason) {
  ConnectResult r;
  r.failure = why;
  r.reason = std::move(reason);
  return r;
}

std::string port_text(const char* side, int port) {
  return std::string(side) + " port " + std::to_string(port);
}

}  // namespace

ClosFabric::ClosFabric(const ClosShape& shape, ClosMode mode) : shape_(shape), mode_(mode) {
  if (std::string err = shape_error(shape); !err.empty()) throw std::invalid_argument(err);
  fibers_ = shape.switch_ports / shape.banks;
  paths_ = shape.middle_banks * fibers_;
  const std::size_t ports = std::size_t(endpoints());
  out_of_.assign(ports, -1);
  path_of_.assign(ports, -1);
  in_of_.assign(ports, -1);
  ingress_use_.assign(std::size_t(shape.banks) * paths_, -1);
  egress_use_.assign(std::size_t(shape.banks) * paths_, -1);
}

std::string ClosFabric::describe() const {
  const std::string n = std::to_string(shape_.switch_ports);
  std::string d = std::to_string(shape_.banks) + " ingress + " + std::to_string(shape_.middle_banks) +
                  " middle + " + std::to_string(shape_.banks) + " egress = " + std::to_string(bank_count()) +
                  " banks of " + n + "x" + n + " MEMS switches, " + std::to_string(endpoints()) +
                  " endpoints, " + std::to_string(fibers_) + " fibers per bank pair, " +
                  std::to_string(paths_) + " middle paths per bank: ";
  if (rearrangeably_nonblocking())
    d += "rearrangeably non-blocking";
  else
    d += "blocking (" + std::to_string(paths_) + " paths for " + n + " ports per bank)";
  d += mode_ == ClosMode::kRearrangeable ? ", circuits may be moved" : ", circuits never moved";
  return d;
}

ConnectResult ClosFabric::connect(int in, int out) {
  ConnectResult r = refuse_busy_or_range(in, out);
  if (r.failure != ClosFailure::kNone) return r;
  return place(in, out);
}

ConnectResult ClosFabric::refuse_busy_or_range(int in, int out) const {
  auto range = [&] { return " is not an endpoint port (0.." + std::to_string(endpoints() - 1) + ")"; };
  if (!valid_port(in)) return refusal(ClosFailure::kPortOutOfRange, port_text("input", in) + range());
  if (!valid_port(out)) return refusal(ClosFailure::kPortOutOfRange, port_text("output", out) + range());
  if (out_of_[in] >= 0)
    return refusal(ClosFailure::kInputBusy, port_text("input", in) + " already has a circuit (to " +
                                                port_text("output", out_of_[in]) + ")");
  if (in_of_[out] >= 0)
    return refusal(ClosFailure::kOutputBusy, port_text("output", out) +
                                                 " already in use (by the circuit from " +
                                                 port_text("input", in_of_[out]) + ")");
  return {};
}

// First fit: the lowest middle path free at both banks. Otherwise a is the
// lowest path free at the ingress bank and b the lowest free at the egress
// bank; Paull's chain frees a at the egress bank by swapping a and b along the
// circuits that use them, and the new circuit takes a.
ConnectResult ClosFabric::place(int in, int out) {
  const int ib = ingress_bank_of(in), eb = egress_bank_of(out);
  auto what = [&] { return " (" + port_text("input", in) + " -> " + port_text("output", out) + ")"; };
  int a = -1, b = -1;
  for (int v = 0; v < paths_; ++v) {
    const bool free_in = ingress_user(ib, v) < 0, free_out = egress_user(eb, v) < 0;
    if (free_in && free_out) {
      occupy(in, out, v);
      ConnectResult r;
      r.ok = true;
      r.middle_path = v;
      return r;
    }
    if (free_in && a < 0) a = v;
    if (free_out && b < 0) b = v;
  }
  auto all = [&] { return " (all " + std::to_string(paths_) + " in use)" + what(); };
  if (a < 0)
    return refusal(ClosFailure::kNoPathAtIngress,
                   "no middle path free at ingress bank " + std::to_string(ib) + all());
  if (b < 0)
    return refusal(ClosFailure::kNoPathAtEgress,
                   "no middle path free at egress bank " + std::to_string(eb) + all());
  if (mode_ == ClosMode::kNonRearrangeable)
    return refusal(ClosFailure::kBlocked, "no middle path free between ingress bank " + std::to_string(ib) +
                                              " and egress bank " + std::to_string(eb) +
                                              " without rearranging" + what());

  ConnectResult r;
  const std::vector<int> chain = paull_chain(eb, a, b);
  for (int c : chain) {
    const int from = path_of_[c];
    r.moved.push_back({c, out_of_[c], from, from == a ? b : a});
  }
  // Tear every moved circuit down before setting any up: a circuit's new path
  // is still held by its successor in the chain until then.
  for (const CircuitMove& mv : r.moved) release(mv.input);
  for (const CircuitMove& mv : r.moved) occupy(mv.input, mv.output, mv.to_path);
  occupy(in, out, a);
  r.ok = true;
  r.middle_path = a;
  return r;
}

// The circuits on paths a and b form chains through the banks (each bank has
// at most one circuit on a and one on b). Start at the egress bank, which has a
// circuit on a and none on b: the circuit c1 on a moves to b, so its ingress
// bank must give up b: the circuit c2 there moves to a, so its egress bank
// must give up a, and so on. Egress banks are entered on b and left on a,
// ingress banks entered on a and left on b, so the chain never returns to the
// starting egress bank (no b there) nor reaches the new circuit's ingress
// bank (no a there), and it ends at a bank where the freed path was idle.
std::vector<int> ClosFabric::paull_chain(int egress_bank, int a, int b) const {
  std::vector<int> chain;
  int bank = egress_bank;
  for (;;) {
    const int c_on_a = egress_user(bank, a);
    if (c_on_a < 0) break;
    chain.push_back(c_on_a);
    const int c_on_b = ingress_user(ingress_bank_of(c_on_a), b);
    if (c_on_b < 0) break;
    chain.push_back(c_on_b);
    bank = egress_bank_of(out_of_[c_on_b]);
    if (chain.size() > std::size_t(2 * shape_.banks))
      throw std::logic_error("ClosFabric: Paull chain longer than the fabric (" + check() + ")");
  }
  return chain;
}

void ClosFabric::occupy(int in, int out, int path) {
  out_of_[in] = out;
  path_of_[in] = path;
  in_of_[out] = in;
  ingress_slot(ingress_bank_of(in), path) = in;
  egress_slot(egress_bank_of(out), path) = in;
  ++circuits_;
}

void ClosFabric::release(int in) {
  const int out = out_of_[in], path = path_of_[in];
  ingress_slot(ingress_bank_of(in), path) = -1;
  egress_slot(egress_bank_of(out), path) = -1;
  in_of_[out] = -1;
  out_of_[in] = -1;
  path_of_[in] = -1;
  --circuits_;
}

bool ClosFabric::disconnect(int in) {
  if (!valid_port(in) || out_of_[in] < 0) return false;
  release(in);
  return true;
}

std::optional<int> ClosFabric::output_of(int in) const {
  if (!valid_port(in) || out_of_[in] < 0) return std::nullopt;
  return out_of_[in];
}

std::optional<int> ClosFabric::middle_of(int in) const {
  if (!valid_port(in) || path_of_[in] < 0) return std::nullopt;
  return path_of_[in];
}

std::optional<int> ClosFabric::input_of(int out) const {
  if (!valid_port(out) || in_of_[out] < 0) return std::nullopt;
  return in_of_[out];
}

std::string ClosFabric::check() const {
  int counted = 0;
  for (int in = 0; in < endpoints(); ++in) {
    if (std::string err = check_circuit(in); !err.empty()) return err;
    if (out_of_[in] >= 0) ++counted;
  }
  for (int out = 0; out < endpoints(); ++out) {
    const int in = in_of_[out];
    if (in >= 0 && (!valid_port(in) || out_of_[in] != out))
      return port_text("output", out) + " names " + port_text("input", in) + ", whose circuit goes elsewhere";
  }
  if (counted != circuits_)
    return std::to_string(counted) + " circuits in the tables but circuits() says " +
           std::to_string(circuits_);
  return check_bank_slots();
}

std::string ClosFabric::check_circuit(int in) const {
  const int out = out_of_[in], path = path_of_[in];
  const std::string who = port_text("input", in);
  if (out < 0)
    return path < 0 ? std::string() : who + " is idle but holds middle path " + std::to_string(path);
  if (!valid_port(out) || in_of_[out] != in)
    return who + " -> " + port_text("output", out) + " is not mirrored";
  if (path < 0 || path >= paths_) return who + " has no valid middle path (" + std::to_string(path) + ")";
  if (ingress_user(ingress_bank_of(in), path) != in)
    return who + ": middle path " + std::to_string(path) + " not held at its ingress bank";
  if (egress_user(egress_bank_of(out), path) != in)
    return who + ": middle path " + std::to_string(path) + " not held at egress bank " +
           std::to_string(egress_bank_of(out));
  return {};
}

// A slot names one circuit, and that circuit must name the slot back; so no
// middle path can be used twice at one bank.
std::string ClosFabric::check_bank_slots() const {
  for (int bank = 0; bank < shape_.banks; ++bank) {
    for (int v = 0; v < paths_; ++v) {
      auto where = [&] { return " of bank " + std::to_string(bank) + " path " + std::to_string(v); };
      const int ci = ingress_user(bank, v), ce = egress_user(bank, v);
      if (ci >= 0 && (!valid_port(ci) || ingress_bank_of(ci) != bank || path_of_[ci] != v))
        return "ingress slot" + where() + " names " + port_text("input", ci) + ", which is elsewhere";
      if (ce >= 0 &&
          (!valid_port(ce) || out_of_[ce] < 0 || egress_bank_of(out_of_[ce]) != bank || path_of_[ce] != v))
        return "egress slot" + where() + " names " + port_text("input", ce) + ", which is elsewhere";
    }
  }
  return {};
}

}  // namespace kairo::ocs
