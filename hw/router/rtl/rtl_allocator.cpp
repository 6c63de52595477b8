#include "hw/router/rtl/rtl_allocator.h"

#include <stdexcept>
#include <systemc>

#include "Vsep_alloc_rr.h"
#include "Vsep_alloc_rr__Syms.h"
#include "Vsep_alloc_rr___024root.h"

// The Verilated model's evaluation routines (generated, external linkage).
// A SystemC model keeps eval() private and runs it as an SC_METHOD on its
// input events; the router needs the settled outputs within one of its own
// events, so the adapter runs the same steps as Vsep_alloc_rr::eval_step()
// directly (Verilator 5.006's generated code).
void Vsep_alloc_rr___024root___eval_static(Vsep_alloc_rr___024root* vlSelf);
void Vsep_alloc_rr___024root___eval_initial(Vsep_alloc_rr___024root* vlSelf);
void Vsep_alloc_rr___024root___eval_settle(Vsep_alloc_rr___024root* vlSelf);
void Vsep_alloc_rr___024root___eval(Vsep_alloc_rr___024root* vlSelf);

namespace kairo::router {

namespace {
constexpr int kOutBits = 4;  // log2(kMaxOutputs)
constexpr int kVcBits = 3;   // log2(kMaxVcs)
constexpr int kInBits = 4;   // log2(kMaxInputs)

// A pin of the Verilated model: a signal whose value changes at once when
// set (the model reads it in its next evaluation), and whose latest written
// value can be read right after the evaluation that wrote it.
template <class T>
class Pin : public sc_core::sc_signal<T, sc_core::SC_MANY_WRITERS> {
 public:
  explicit Pin(const char* name) : sc_core::sc_signal<T, sc_core::SC_MANY_WRITERS>(name) {}
  void set(const T& v) { this->m_cur_val = this->m_new_val = v; }
  const T& latest() const { return this->m_new_val; }
};
}  // namespace

// The wires between the router and the RTL: <router>.alloc_<pin>.
struct RtlSeparableAllocator::Pins {
  Pin<bool> clk{"alloc_clk"}, rst_n{"alloc_rst_n"}, alloc{"alloc_alloc"};
  Pin<sc_dt::sc_bv<kMaxInputs * kMaxVcs>> req_valid{"alloc_req_valid"};
  Pin<sc_dt::sc_bv<kMaxInputs * kMaxVcs * kOutBits>> req_out{"alloc_req_out"};
  Pin<std::uint32_t> grant_valid{"alloc_grant_valid"}, stage1_valid{"alloc_stage1_valid"};
  Pin<std::uint64_t> grant_vc{"alloc_grant_vc"}, grant_out{"alloc_grant_out"}, stage1_vc{"alloc_stage1_vc"},
      vc_ptr{"alloc_vc_ptr"}, in_ptr{"alloc_in_ptr"};
};

struct RtlSeparableAllocator::Bits {
  sc_dt::sc_bv<kMaxInputs * kMaxVcs> valid;
  sc_dt::sc_bv<kMaxInputs * kMaxVcs * kOutBits> out;
};

RtlSeparableAllocator::RtlSeparableAllocator(int inputs, int vcs, int outputs)
    : Allocator(inputs, vcs, outputs) {
  if (inputs < 1 || vcs < 1 || outputs < 1 || inputs > kMaxInputs || vcs > kMaxVcs || outputs > kMaxOutputs)
    throw std::invalid_argument("rtl_separable_rr switch allocator: the RTL is built for 1 to " +
                                std::to_string(kMaxInputs) + " ports and 1 to " + std::to_string(kMaxVcs) +
                                " VCs, got " + shape_text(inputs, vcs, outputs) +
                                " (use router.allocator: round_robin for larger routers)");
  pins_ = std::make_unique<Pins>();
  bits_ = std::make_unique<Bits>();
  rtl_ = std::make_unique<Vsep_alloc_rr>("alloc");  // a child of the module being built (the router)
  Vsep_alloc_rr& m = *rtl_;
  Pins& p = *pins_;
  m.clk(p.clk), m.rst_n(p.rst_n), m.alloc(p.alloc), m.req_valid(p.req_valid), m.req_out(p.req_out);
  m.grant_valid(p.grant_valid), m.stage1_valid(p.stage1_valid), m.grant_vc(p.grant_vc),
      m.grant_out(p.grant_out);
  m.stage1_vc(p.stage1_vc), m.vc_ptr_q(p.vc_ptr), m.in_ptr_q(p.in_ptr);
  grant_vc_.assign(std::size_t(inputs), -1);
  grant_out_.assign(std::size_t(inputs), -1);
  requested_.assign(std::size_t(inputs * vcs), -1);
  listed_.reserve(std::size_t(inputs * vcs));
}

RtlSeparableAllocator::~RtlSeparableAllocator() = default;

void RtlSeparableAllocator::eval() {
  Vsep_alloc_rr___024root* root = rtl_->rootp;
  if (!root->vlSymsp->__Vm_didInit) {
    root->vlSymsp->__Vm_didInit = true;
    Vsep_alloc_rr___024root___eval_static(root);
    Vsep_alloc_rr___024root___eval_initial(root);
    Vsep_alloc_rr___024root___eval_settle(root);
  }
  Vsep_alloc_rr___024root___eval(root);
}

// Reset once, on first use: the ports are bound by then.
void RtlSeparableAllocator::start() {
  if (!sc_core::sc_get_curr_simcontext()->elaboration_done())
    throw std::logic_error(
        "rtl_separable_rr: the Verilated allocator runs once the SystemC simulation has started (sc_start)");
  started_ = true;
  pins_->rst_n.set(false);
  eval();
  pins_->rst_n.set(true);
  eval();
}

void RtlSeparableAllocator::clear() {
  for (int k : listed_) {  // lower the wires this round raised
    const int slot = k / vcs() * kMaxVcs + k % vcs();
    bits_->valid[slot] = false;
    for (int b = 0; b < kOutBits; ++b) bits_->out[slot * kOutBits + b] = false;
    requested_[std::size_t(k)] = -1;
  }
  listed_.clear();
  std::fill(grant_vc_.begin(), grant_vc_.end(), -1);
  std::fill(grant_out_.begin(), grant_out_.end(), -1);
}

void RtlSeparableAllocator::add_request(int input, int vc, int output, std::uint64_t) {
  if (input < 0 || input >= inputs() || vc < 0 || vc >= vcs() || output < 0 || output >= outputs())
    reject_request(kName, input, vc, output, false);
  int& slot = requested_[std::size_t(input * vcs() + vc)];
  if (slot >= 0) reject_request(kName, input, vc, output, true);
  slot = output;
  listed_.push_back(input * vcs() + vc);
}

// One allocation: drive the request wires, settle, read the grants, then
// one clock edge with `alloc` high to move the pointers.
void RtlSeparableAllocator::allocate() {
  if (!started_) start();
  Pins& p = *pins_;
  for (int k : listed_) {
    const int i = k / vcs(), v = k % vcs(), slot = i * kMaxVcs + v, o = requested_[std::size_t(k)];
    bits_->valid[slot] = true;
    for (int b = 0; b < kOutBits; ++b) bits_->out[slot * kOutBits + b] = bool((o >> b) & 1);
  }
  p.req_valid.set(bits_->valid);
  p.req_out.set(bits_->out);
  eval();
  const std::uint32_t gv = p.grant_valid.latest();
  const std::uint64_t gvc = p.grant_vc.latest(), gout = p.grant_out.latest();
  for (int i = 0; i < inputs(); ++i) {
    const bool g = (gv >> i) & 1;
    grant_vc_[std::size_t(i)] = g ? int((gvc >> (i * kVcBits)) & ((1u << kVcBits) - 1)) : -1;
    grant_out_[std::size_t(i)] = g ? int((gout >> (i * kOutBits)) & ((1u << kOutBits) - 1)) : -1;
  }
  if (trace_) record();
  p.alloc.set(true);
  p.clk.set(true);
  eval();
  p.clk.set(false);
  p.alloc.set(false);
  eval();
  ++cycles_;
}

bool RtlSeparableAllocator::trace(sim::Trace* t, const std::string& scope, const sim::EventQueue* q) {
  trace_ = t;
  queue_ = q;
  signals_.clear();
  if (!t) return false;
  const std::string s = scope + ".";
  signals_ = {t->add(s + "clk", 1),
              t->add(s + "grant_valid", kMaxInputs),
              t->add(s + "grant_vc", kMaxInputs * kVcBits),
              t->add(s + "grant_out", kMaxInputs * kOutBits),
              t->add(s + "stage1_valid", kMaxInputs),
              t->add(s + "stage1_vc", kMaxInputs * kVcBits),
              t->add(s + "vc_ptr", kMaxInputs * kVcBits),
              t->add(s + "in_ptr", kMaxOutputs * kInBits)};
  return true;
}

// The wires as they are during this allocation (before the clock edge).
void RtlSeparableAllocator::record() {
  const Pins& p = *pins_;
  const sim::Time t = queue_->now();
  trace_->set(signals_[0], t, 1);
  trace_->set(signals_[1], t, p.grant_valid.latest());
  trace_->set(signals_[2], t, p.grant_vc.latest());
  trace_->set(signals_[3], t, p.grant_out.latest());
  trace_->set(signals_[4], t, p.stage1_valid.latest());
  trace_->set(signals_[5], t, p.stage1_vc.latest());
  trace_->set(signals_[6], t, p.vc_ptr.latest());
  trace_->set(signals_[7], t, p.in_ptr.latest());
  trace_->set(signals_[0], t + 1, 0);
}

}  // namespace kairo::router
