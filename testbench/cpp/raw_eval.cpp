// Raw evaluation rate of the Verilated datapath `ssdlab_datapath` (out/verilog/datapath.v) (issue #9 speed ceiling): the model alone
// in a C++ loop, no Rust, no FFI, no device models. Inputs idle (links ready, NAND ready, DRAM
// ready), or with `traffic` = 1 pseudo-random mapping requests and DRAM read beats each cycle.
// One cycle = clock high + eval, clock low + eval. With `nand_ps` > 0 (a datapath whose NAND
// sequencers have a clock of their own, e.g. 5000 for 200 MHz) `nand_clock` rises too, at its
// own period from time 0 against the 4000 ps PCIe clock: alone (its own high + low evals)
// between two PCIe edges, in the same eval at a coincident edge. Prints PCIe cycles per
// wall-second and per CPU-second (the latter is unaffected by other load on a shared machine).
// Built and run by testbench/cpp/raw_eval.sh.
#include "Vtop.h"
#include "verilated.h"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>

static double cpu_s() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char** argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  int traffic = argc > 2 ? atoi(argv[2]) : 0;
  long nand_ps = argc > 3 ? atol(argv[3]) : 0;
  VerilatedContext* c = new VerilatedContext;
  Vtop* m = new Vtop{c, "top"};
  m->cc_tready = 1; m->rq_tready = 1; m->mps_code = 1; m->mrrs_code = 2;
  m->phy_0_rb_n = 0xff; m->phy_1_rb_n = 0xff; m->phy_2_rb_n = 0xff; m->phy_3_rb_n = 0xff;
  m->phy_4_rb_n = 0xff; m->phy_5_rb_n = 0xff; m->phy_6_rb_n = 0xff; m->phy_7_rb_n = 0xff;
  m->dram_cmd_ready = 1; m->dram_wdata_ready = 1;
  m->clock = 0;
  m->eval();
  auto t0 = std::chrono::steady_clock::now();
  double c0 = cpu_s();
  unsigned r = 1;
  for (long i = 0; i < n; i++) {
    if (traffic) {
      r = r * 1103515245u + 12345u;
      m->map_req_valid = (r >> 16) & 1; m->map_req_lpn = (r >> 8) & 0x3ff; m->map_req_id = (r >> 20) & 0xf;
      m->dram_rdata_valid = (r >> 24) & 1; m->dram_rdata = r;
    }
    long start = 4000 * i, end = start + 4000;
    long e = nand_ps > 0 ? (start / nand_ps + 1) * nand_ps : -1;
    if (e > 0 && e < end) {
      m->nand_clock = 1; m->eval();
      m->nand_clock = 0; m->eval();
    }
    m->clock = 1; if (e == end) m->nand_clock = 1; m->eval();
    m->clock = 0; m->nand_clock = 0; m->eval();
  }
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double cs = cpu_s() - c0;
  printf("%ld cycles (traffic %d, nand_clock period %ld ps): %.0f cycles per wall-second, %.0f per CPU-second\n", n, traffic, nand_ps, n / s, n / cs);
  m->final();
  delete m;
  delete c;
  return 0;
}
