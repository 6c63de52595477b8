// Separable input-first switch allocator with round-robin arbiters: the RTL
// twin of kairo::router::RoundRobinAllocator (hw/router/round_robin_allocator.h),
// same request/grant semantics, cycle for cycle.
//
//   Stage 1 (input rank): per input port, a VCS-input round-robin arbiter
//   picks one requesting VC; only its requested output goes forward.
//   Stage 2 (output rank): per output port, an INPUTS-input round-robin
//   arbiter picks one of the inputs whose stage-1 winner requests it.
//   An arbiter grants the first requester at or after its priority pointer,
//   wrapping round. On a clock edge with `alloc` high, the pointers of both
//   arbiters on every granted path move to one past the winner; a stage-1
//   winner that lost stage 2 keeps its priority.
//
// The grants are combinational from the requests and the pointers: drive the
// requests, read the grants, then clock once with `alloc` high to commit.
// Port vectors are flat, index i*VCS+v for (input i, VC v).
`default_nettype none

module sep_alloc_rr #(
    parameter int INPUTS = 16,
    parameter int VCS = 8,
    parameter int OUTPUTS = 16,
    localparam int VW = (VCS > 1) ? $clog2(VCS) : 1,
    localparam int IW = (INPUTS > 1) ? $clog2(INPUTS) : 1,
    localparam int OW = (OUTPUTS > 1) ? $clog2(OUTPUTS) : 1
) (
    input  wire                      clk,
    input  wire                      rst_n,
    input  wire                      alloc,
    input  wire [INPUTS*VCS-1:0]     req_valid,
    input  wire [INPUTS*VCS*OW-1:0]  req_out,
    output logic [INPUTS-1:0]        grant_valid,
    output logic [INPUTS*VW-1:0]     grant_vc,
    output logic [INPUTS*OW-1:0]     grant_out,
    // Visible for waveforms: the stage-1 winners and both pointer banks.
    output logic [INPUTS-1:0]        stage1_valid,
    output logic [INPUTS*VW-1:0]     stage1_vc,
    output logic [INPUTS*VW-1:0]     vc_ptr_q,
    output logic [OUTPUTS*IW-1:0]    in_ptr_q
);

  logic [VW-1:0] vc_ptr[INPUTS];
  logic [IW-1:0] in_ptr[OUTPUTS];
  logic [VW-1:0] s1_vc[INPUTS];
  logic          s1_valid[INPUTS];
  logic [OW-1:0] s1_out[INPUTS];
  logic [IW-1:0] s2_in[OUTPUTS];
  logic          s2_valid[OUTPUTS];

  // The two ranks of round-robin arbiters are written out rather than shared
  // through one function: Verilator 5.006 makes code half again as slow of
  // the function form (measured on the 8x8 torus run of docs/rtl.md).

  // Stage 1: per input, the first requesting VC at or after the pointer.
  always_comb begin
    for (int i = 0; i < INPUTS; i++) begin
      s1_valid[i] = 1'b0;
      s1_vc[i] = '0;
      for (int k = 0; k < VCS; k++) begin
        int v;
        v = int'(vc_ptr[i]) + k;
        if (v >= VCS) v = v - VCS;
        if (!s1_valid[i] && req_valid[i*VCS+v]) begin
          s1_valid[i] = 1'b1;
          s1_vc[i] = VW'(v);
        end
      end
      s1_out[i] = req_out[(i*VCS+int'(s1_vc[i]))*OW+:OW];
    end
  end

  // Stage 2: per output, the first input at or after the pointer whose
  // stage-1 winner requests it.
  always_comb begin
    for (int o = 0; o < OUTPUTS; o++) begin
      s2_valid[o] = 1'b0;
      s2_in[o] = '0;
      for (int k = 0; k < INPUTS; k++) begin
        int i;
        i = int'(in_ptr[o]) + k;
        if (i >= INPUTS) i = i - INPUTS;
        if (!s2_valid[o] && s1_valid[i] && int'(s1_out[i]) == o) begin
          s2_valid[o] = 1'b1;
          s2_in[o] = IW'(i);
        end
      end
    end
  end

  // Grants per input.
  always_comb begin
    for (int i = 0; i < INPUTS; i++) begin
      grant_valid[i] = 1'b0;
      grant_vc[i*VW+:VW] = s1_vc[i];
      grant_out[i*OW+:OW] = '0;
      stage1_valid[i] = s1_valid[i];
      stage1_vc[i*VW+:VW] = s1_vc[i];
      vc_ptr_q[i*VW+:VW] = vc_ptr[i];
    end
    for (int o = 0; o < OUTPUTS; o++) begin
      in_ptr_q[o*IW+:IW] = in_ptr[o];
      if (s2_valid[o]) begin
        grant_valid[s2_in[o]] = 1'b1;
        grant_out[int'(s2_in[o])*OW+:OW] = OW'(o);
      end
    end
  end

  // Pointers: one past the winner on every granted path.
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      for (int i = 0; i < INPUTS; i++) vc_ptr[i] <= '0;
      for (int o = 0; o < OUTPUTS; o++) in_ptr[o] <= '0;
    end else if (alloc) begin
      for (int o = 0; o < OUTPUTS; o++) begin
        if (s2_valid[o]) begin
          in_ptr[o] <= (int'(s2_in[o]) + 1 == INPUTS) ? '0 : IW'(int'(s2_in[o]) + 1);
          vc_ptr[s2_in[o]] <= (int'(s1_vc[s2_in[o]]) + 1 == VCS) ? '0 : VW'(int'(s1_vc[s2_in[o]]) + 1);
        end
      end
    end
  end

endmodule

`default_nettype wire
