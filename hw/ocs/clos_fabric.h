// The OCS fabric of Takizawa et al. 2008 (section 2): a three-stage Clos network of MEMS
// optical circuit switches, modeled at the level of circuit placement. Pure
// C++, no SystemC, no timing: the circuit controller charges the
// reconfiguration delay for every circuit this class sets up, tears down or
// moves.
//
// Shape. `banks` (m) ingress banks and m egress banks, each an N x N MEMS
// crossbar (N = `switch_ports`), and a middle stage of `middle_banks` N x N
// banks. Endpoint port e (0 <= e < m*N) is the transmit fiber on input e % N of
// ingress bank e / N and the receive fiber on output e % N of egress bank e / N.
// Each ingress bank is joined to each middle bank by N/m parallel fibers, and
// each middle bank to each egress bank by N/m fibers, so m must divide N.
// m = 1 is three crossbars in series. The fabric is 2m + middle_banks banks of
// N x N; the seed's "3m banks ... supporting m x N compute nodes" is
// middle_banks == m.
//
// Middle paths. Fiber j (0 <= j < N/m) of middle bank b is middle path
// v = b*(N/m) + j, the same index on the ingress and the egress side. A
// circuit in -> out holds one middle path v, which it uses at in's ingress
// bank and at out's egress bank; a path is used by at most one circuit per
// bank. This is conservative: each path is treated as if it were its own
// m x m switch, although a real middle bank could also cross fibers
// (ingress fiber j to egress fiber j').
//
// Blocking. Each ingress bank sees middle_banks*N/m paths. With
// middle_banks >= m that is at least N, i.e. at least a Clos(n = N, k = N,
// r = m) network, which is rearrangeably non-blocking (Slepian-Duguid): an
// idle input can always reach an idle output if existing circuits may move.
// kRearrangeable moves them with Paull's algorithm; kNonRearrangeable never
// moves a circuit and refuses a request that first-fit cannot place ("OCS
// pathway assignment failure"). With middle_banks < m (the cheaper build) an
// ingress or egress bank can hold at most middle_banks*N/m < N circuits, so
// not every permutation fits, in either mode.
//
// Not modeled: insertion loss, crosstalk, failed mirrors, the time a move
// takes (the controller's job), multicast.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace kairo::ocs {

struct ClosShape {
  int switch_ports = 0;  // N, ports per side of every MEMS bank
  int banks = 0;         // m, ingress banks (= egress banks)
  int middle_banks = 0;  // middle stage; == banks for the seed's 3m-bank fabric

  // The seed's rearrangeably non-blocking fabric: 3m banks of N x N.
  static ClosShape full(int switch_ports, int banks) { return {switch_ports, banks, banks}; }
};

enum class ClosMode { kRearrangeable, kNonRearrangeable };

// Why connect() refused a request.
enum class ClosFailure {
  kNone,
  kPortOutOfRange,   // in or out is not an endpoint port
  kInputBusy,        // in already transmits on a circuit
  kOutputBusy,       // out already receives a circuit
  kNoPathAtIngress,  // every middle path of in's ingress bank is in use
  kNoPathAtEgress,   // every middle path of out's egress bank is in use
  kBlocked,          // no path free at both banks, and moving circuits is not allowed
};

// A circuit that connect() had to tear down and set up again on another
// middle path (same input and output).
struct CircuitMove {
  int input = -1;
  int output = -1;
  int from_path = -1;
  int to_path = -1;
};

struct ConnectResult {
  bool ok = false;
  ClosFailure failure = ClosFailure::kNone;
  std::string reason;              // empty when ok; names the port(s) and bank(s) otherwise
  int middle_path = -1;            // the new circuit's middle path when ok
  std::vector<CircuitMove> moved;  // in the order Paull's chain visited them
  explicit operator bool() const { return ok; }
};

class ClosFabric {
 public:
  // Throws std::invalid_argument naming the parameter (ocs.switch_ports,
  // ocs.banks, ocs.middle_banks) and what was expected.
  ClosFabric(const ClosShape& shape, ClosMode mode);

  const ClosShape& shape() const { return shape_; }
  ClosMode mode() const { return mode_; }
  int endpoints() const { return shape_.banks * shape_.switch_ports; }
  int bank_count() const { return 2 * shape_.banks + shape_.middle_banks; }
  int fibers_per_bank_pair() const { return fibers_; }  // N/m
  int paths_per_bank() const { return paths_; }         // middle_banks * N/m
  bool rearrangeably_nonblocking() const { return paths_ >= shape_.switch_ports; }
  // "2 ingress + 2 middle + 2 egress = 6 banks of 4x4 MEMS switches, ..."
  std::string describe() const;

  int ingress_bank_of(int port) const { return port / shape_.switch_ports; }
  int egress_bank_of(int port) const { return port / shape_.switch_ports; }
  int middle_bank_of_path(int path) const { return path / fibers_; }
  int fiber_of_path(int path) const { return path % fibers_; }

  // Sets up a circuit in -> out; see the header comment for the policy.
  ConnectResult connect(int in, int out);
  // Tears down the circuit from `in`. False if `in` is out of range or idle.
  bool disconnect(int in);

  std::optional<int> output_of(int in) const;  // nullopt: out of range or idle
  std::optional<int> middle_of(int in) const;  // the circuit's middle path
  std::optional<int> input_of(int out) const;  // which input feeds `out`
  int circuits() const { return circuits_; }

  // Internal consistency, for tests: empty when every middle path is used at
  // most once per bank and the input/output/path tables agree; otherwise the
  // first violation found.
  std::string check() const;

 private:
  bool valid_port(int port) const { return port >= 0 && port < endpoints(); }
  int& ingress_slot(int bank, int path) { return ingress_use_[std::size_t(bank) * paths_ + path]; }
  int& egress_slot(int bank, int path) { return egress_use_[std::size_t(bank) * paths_ + path]; }
  int ingress_user(int bank, int path) const { return ingress_use_[std::size_t(bank) * paths_ + path]; }
  int egress_user(int bank, int path) const { return egress_use_[std::size_t(bank) * paths_ + path]; }

  ConnectResult refuse_busy_or_range(int in, int out) const;
  ConnectResult place(int in, int out);
  std::vector<int> paull_chain(int egress_bank, int a, int b) const;
  void occupy(int in, int out, int path);
  void release(int in);
  std::string check_circuit(int in) const;
  std::string check_bank_slots() const;

  ClosShape shape_;
  ClosMode mode_;
  int fibers_ = 0;  // N/m
  int paths_ = 0;   // middle paths seen by each ingress/egress bank
  int circuits_ = 0;
  // Per endpoint port, -1 when idle.
  std::vector<int> out_of_;   // by input port
  std::vector<int> path_of_;  // by input port
  std::vector<int> in_of_;    // by output port
  // [bank * paths_ + path] -> input port of the circuit using it, or -1.
  std::vector<int> ingress_use_;
  std::vector<int> egress_use_;
};

}  // namespace kairo::ocs
