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
// Clocks up to `max` cycles with the inputs of `in` (already applied by vr_io, clock low) while
// no output bit of `nz` is 1 and no output bit of `chg` differs from its value at entry; returns
// the cycles clocked (edges taken; cycle numbers t0, t0+1, ... for the trace). With `ff`, a
// quiescent design (see shim.rs) is fast-forwarded to `max`. `out` holds the final outputs.
uint64_t vr_run(void* p, int32_t clk, const uint32_t* in, uint32_t* out, const uint32_t* nz, const uint32_t* chg, uint64_t max, uint64_t t0, int32_t ff) {
  H* h = (H*)p;
  uint32_t first[VR_NOUT > 0 ? VR_NOUT : 1];
  memcpy(first, out, sizeof(uint32_t) * VR_NOUT);
  uint32_t ca[16], cb[16];
  uint64_t n = 0;
  int same = 0;
  if (ff) { vr_state(h, false); vr_counters(h, ca); }
  while (n < max) {
    for (int k = 0; k < VR_NOUT; k++) {
      if ((out[k] & nz[k]) | ((out[k] ^ first[k]) & chg[k])) return n;
    }
    vr_io(p, clk, in, out, t0 + n);
    n++;
    if (!ff) continue;
    int nc = vr_counters(h, cb);
    bool step = vr_guards_zero(h) && vr_state(h, true);
#define VR_STEP1(q, d, w) { uint32_t mask = (w) == 32 ? 0xffffffffu : ((1u << (w)) - 1); step = step && cb[ci] == ((ca[ci] + 1) & mask); ci++; }
    { int ci = 0; VR_COUNTERS(VR_STEP1) (void)ci; }
    same = step ? same + 1 : 0;
    if (same >= 2) {
      vr_advance(h, max - n);
      return max;
    }
    vr_state(h, false);
    memcpy(ca, cb, sizeof(uint32_t) * nc);
  }
  return n;
}
