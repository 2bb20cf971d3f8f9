void* vr_new() {
  H* h = new H;
  h->c = new VerilatedContext;
#if VR_TRACE
  h->c->traceEverOn(true);
  h->tfp = nullptr;
#endif
  h->m = new Vtop{h->c, "top"};
  vr_ranges(h);
  return h;
}
void vr_free(void* p) {
  H* h = (H*)p;
#if VR_TRACE
  if (h->tfp) { h->tfp->close(); delete h->tfp; }
#endif
  h->m->final(); delete h->m; delete h->c; delete h;
}
void vr_eval(void* p) { ((H*)p)->m->eval(); }
int vr_trace_open(void* p, const char* path) {
#if VR_TRACE
  H* h = (H*)p; h->tfp = new VerilatedVcdC; h->m->trace(h->tfp, 99); h->tfp->open(path); return h->tfp->isOpen() ? 0 : 1;
#else
  (void)p; (void)path; return 1;
#endif
}
void vr_trace_dump(void* p, uint64_t time) { vr_dump((H*)p, time); }
// One cycle boundary: with `clk` >= 0 first a rising edge (port `clk` set to 1, the other
// inputs as they were; dumped at 2t+1), then the inputs of `in` (clock low), settle (dumped at
// 2t+2 after an edge), outputs to `out`.
void vr_io(void* p, int32_t clk, const uint32_t* in, uint32_t* out, uint64_t t) {
  H* h = (H*)p;
  if (clk >= 0) {
    const uint32_t one = 1;
    vr_set(p, (uint32_t)clk, &one);
    h->m->eval();
    vr_dump(h, 2 * t + 1);
  }
  vr_put(h->m, in);
  h->m->eval();
  if (clk >= 0) vr_dump(h, 2 * t + 2);
  vr_take(h->m, out);
}
// A second clock's edge in main-clock cycle `c`: the main clock's cycle c spans (c per, (c+1)
// per] ps and the second clock (period `nper` ps) rises at every multiple of nper. 0: none; 1:
// one strictly inside the cycle (clocked on its own before the cycle's main edge); 2: one
// coincident with the main edge (both rise in one evaluation). At most one: nper >= per.
static int vr_second_edge(uint64_t c, uint64_t per, uint64_t nper) {
  if (nper == 0) return 0;
  uint64_t start = c * per, end = start + per, e = (start / nper + 1) * nper;
  return e < end ? 1 : e == end ? 2 : 0;
}
// Clocks up to `max` cycles with the inputs of `in` (already applied by vr_io, clock low) while
// no output bit of `nz` is 1 and no output bit of `chg` differs from its value at entry; returns
// the cycles clocked (edges taken; cycle numbers t0, t0+1, ... for the trace). With `nclk` >= 0
// the port `nclk` is a second, slower clock (see vr_second_edge; `c0` is the first cycle's
// number on the shared timeline): a rising edge inside a cycle is clocked on its own (high,
// settle, low, settle) before the cycle's main edge, a coincident one with it.
// With `ff`, a quiescent design (see shim.rs) is fast-forwarded to `max`. A step is one edge
// evaluation (main, second, or both); the design is at a fixed point once, since its last state
// change, every clock has had a quiescent step, and then every clock again (the second round sees
// the memory writes of the first: with one clock, two quiescent cycles). `out` holds the final
// outputs.
uint64_t vr_run(void* p, int32_t clk, const uint32_t* in, uint32_t* out, const uint32_t* nz, const uint32_t* chg, uint64_t max, uint64_t t0, int32_t ff, int32_t nclk, uint64_t c0, uint64_t per, uint64_t nper) {
  H* h = (H*)p;
  uint32_t first[VR_NOUT > 0 ? VR_NOUT : 1];
  memcpy(first, out, sizeof(uint32_t) * VR_NOUT);
  uint32_t ca[16], cb[16];
  uint64_t n = 0;
  // Clocks with a quiescent step in this round (bit 0 main, bit 1 second), rounds completed.
  const int all = nclk >= 0 ? 3 : 1;
  int seen = 0, rounds = 0;
  // Steps clocked before the next snapshot: 8 at entry (a short run, the common case between
  // two bench cycles, copies no state), and after a change 1, 2, 4 ... up to 64 while the design
  // keeps changing (a busy stretch costs few comparisons). The fixed point is still only found
  // from a snapshot and the steps compared after it.
  int wait = 8, backoff = 1;
  if (nclk < 0) nper = 0;
  // After a step of clocks `k` (the counters advance on main edges only): at a fixed point?
  auto step = [&](int k) -> bool {
    if (wait > 0) {
      if (--wait == 0) { vr_state(h, false); vr_counters(h, ca); }
      return false;
    }
    int nc = vr_counters(h, cb);
    bool q = vr_guards_zero(h) && vr_state(h, true);
    const uint32_t inc = (k & 1) ? 1u : 0u;
#define VR_STEP1(q_, d_, w) { uint32_t mask = (w) == 32 ? 0xffffffffu : ((1u << (w)) - 1); q = q && cb[ci] == ((ca[ci] + inc) & mask); ci++; }
    { int ci = 0; VR_COUNTERS(VR_STEP1) (void)ci; }
    memcpy(ca, cb, sizeof(uint32_t) * nc);
    if (!q) {
      seen = 0; rounds = 0;
      wait = backoff; backoff = std::min(2 * backoff, 64);
      return false;
    }
    seen |= k;
    if (seen == all) { rounds++; seen = 0; }
    return rounds >= 2;
  };
  while (n < max) {
    for (int k = 0; k < VR_NOUT; k++) {
      if ((out[k] & nz[k]) | ((out[k] ^ first[k]) & chg[k])) return n;
    }
    const int e2 = vr_second_edge(c0 + n, per, nper);
    const uint32_t one = 1, zero = 0;
    if (e2 == 1) {
      vr_set(p, (uint32_t)nclk, &one);
      h->m->eval();
      vr_set(p, (uint32_t)nclk, &zero);
      h->m->eval();
      if (ff) step(2);
    } else if (e2 == 2) {
      vr_set(p, (uint32_t)nclk, &one);  // lowered again by vr_io's inputs
    }
    vr_io(p, clk, in, out, t0 + n);
    n++;
    if (ff && step(e2 == 2 ? 3 : 1)) {
      vr_advance(h, max - n);
      return max;
    }
  }
  return n;
}
