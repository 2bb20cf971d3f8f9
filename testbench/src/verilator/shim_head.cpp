#include "Vtop.h"
#include "Vtop___024root.h"
#include "verilated.h"
#include "vr_state.h"
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>
#if VR_TRACE
#include "verilated_vcd_c.h"
#endif
// The handle: model, context, optional VCD, and the fast-forward state table (byte ranges of
// the root struct compared between cycles: everything but memories and counters).
struct H {
  VerilatedContext* c;
  Vtop* m;
#if VR_TRACE
  VerilatedVcdC* tfp;
#endif
  std::vector<std::pair<size_t, size_t>> ranges;
  std::vector<char> prev;
};
static void vr_ranges(H* h) {
  Vtop___024root* r = h->m->rootp;
  const char* base = (const char*)r;
  std::vector<std::pair<size_t, size_t>> ex;
#define VR_EX(name) ex.push_back({(size_t)((const char*)&r->name - base), sizeof(r->name)});
#define VR_EX_MEM(name) VR_EX(name)
#define VR_EX_CTR(q, d, w) VR_EX(q) VR_EX(d)
  VR_MEMS(VR_EX_MEM)
  VR_COUNTERS(VR_EX_CTR)
  std::sort(ex.begin(), ex.end());
  size_t at = 0;
  for (auto& e : ex) {
    if (e.first > at) h->ranges.push_back({at, e.first - at});
    at = std::max(at, e.first + e.second);
  }
  if (at < sizeof(Vtop___024root)) h->ranges.push_back({at, sizeof(Vtop___024root) - at});
  size_t n = 0;
  for (auto& g : h->ranges) n += g.second;
  h->prev.resize(n);
}
// Copies the compared state to `dst`, or compares it with `dst` (true: equal).
static bool vr_state(H* h, bool compare) {
  const char* base = (const char*)h->m->rootp;
  char* d = h->prev.data();
  for (auto& g : h->ranges) {
    if (compare) {
      if (memcmp(d, base + g.first, g.second) != 0) return false;
    } else {
      memcpy(d, base + g.first, g.second);
    }
    d += g.second;
  }
  return true;
}
static bool vr_guards_zero(H* h) {
  Vtop___024root* r = h->m->rootp;
  bool z = true;
#define VR_GZ(name) z = z && (r->name == 0);
  VR_GUARDS(VR_GZ)
  (void)r;
  return z;
}
// Counter values (q) packed for the +1 check, at most 16 counters.
static int vr_counters(H* h, uint32_t* v) {
  Vtop___024root* r = h->m->rootp;
  int n = 0;
#define VR_CV(q, d, w) v[n++] = (uint32_t)r->q;
  VR_COUNTERS(VR_CV)
  (void)r;
  return n;
}
static void vr_advance(H* h, uint64_t k) {
  Vtop___024root* r = h->m->rootp;
#define VR_ADV(q, d, w) { uint64_t mask = (w) == 32 ? 0xffffffffull : ((1ull << (w)) - 1); r->q = (uint32_t)(((uint64_t)r->q + k) & mask); r->d = (uint32_t)(((uint64_t)r->q + 1) & mask); }
  VR_COUNTERS(VR_ADV)
  (void)r; (void)k;
}
static void vr_dump(H* h, uint64_t t) {
#if VR_TRACE
  if (h->tfp) h->tfp->dump(t);
#endif
  (void)h; (void)t;
}
