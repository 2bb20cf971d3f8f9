//! The `#[hdl_gen]` kernel of the mapping cache: request pipeline (accept, S1 tag check, S2 hit
//! response) and the miss engine. See the parent module for the rules it implements.

use super::{EngineState, MapCache, MSHRS};
use rust_hdl::prelude::*;

impl<
        const SB: usize,
        const OB: usize,
        const IB: usize,
        const LB: usize,
        const W: usize,
        const WB: usize,
        const PB: usize,
    > Logic for MapCache<SB, OB, IB, LB, W, WB, PB>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- clocks and register holds ----
        for w in 0..W {
            self.tag_ram[w].read_clock.next = self.clock.val();
            self.tag_ram[w].write_clock.next = self.clock.val();
            self.data_ram[w].read_clock.next = self.clock.val();
            self.data_ram[w].write_clock.next = self.clock.val();
        }
        self.valid_ram.read_clock.next = self.clock.val();
        self.valid_ram.write_clock.next = self.clock.val();
        self.dirty_ram.read_clock.next = self.clock.val();
        self.dirty_ram.write_clock.next = self.clock.val();
        self.plru_ram.read_clock.next = self.clock.val();
        self.plru_ram.write_clock.next = self.clock.val();
        self.slot_tp_ram.read_clock.next = self.clock.val();
        self.slot_tp_ram.write_clock.next = self.clock.val();
        self.slot_dirty_ram.read_clock.next = self.clock.val();
        self.slot_dirty_ram.write_clock.next = self.clock.val();
        dff_setup!(
            self, clock, s1_valid, s1_lpn, s1_upd, s1_value, s1_id, s2_valid, s2_upd, s2_value,
            s2_id, s2_way_oh, fwd_valid, fwd_set_eq, fwd_tag_eq, fwd_vbits, fwd_dbits, fwd_plru,
            fwd_tag_we, fwd_tag, held, hold_valid, hold_dirty, hold_plru, m_head, m_tail, state,
            eng_wb, eng_lpn, ev_tp, ev_dirty, eng_data
        );
        for w in 0..W {
            self.hold_tag[w].clock.next = self.clock.val();
            self.hold_tag[w].d.next = self.hold_tag[w].q.val();
            self.hold_tag_eq[w].clock.next = self.clock.val();
            self.hold_tag_eq[w].d.next = self.hold_tag_eq[w].q.val();
        }
        for m in 0..MSHRS {
            self.m_valid[m].clock.next = self.clock.val();
            self.m_valid[m].d.next = self.m_valid[m].q.val();
            self.m_lpn[m].clock.next = self.clock.val();
            self.m_lpn[m].d.next = self.m_lpn[m].q.val();
            self.m_way[m].clock.next = self.clock.val();
            self.m_way[m].d.next = self.m_way[m].q.val();
            self.m_vlpn[m].clock.next = self.clock.val();
            self.m_vlpn[m].d.next = self.m_vlpn[m].q.val();
            self.m_vdirty[m].clock.next = self.clock.val();
            self.m_vdirty[m].d.next = self.m_vdirty[m].q.val();
            self.m_upd[m].clock.next = self.clock.val();
            self.m_upd[m].d.next = self.m_upd[m].q.val();
            self.m_value[m].clock.next = self.clock.val();
            self.m_value[m].d.next = self.m_value[m].q.val();
            self.m_id[m].clock.next = self.clock.val();
            self.m_id[m].d.next = self.m_id[m].q.val();
        }

        // ---- MSHR at the head (the miss engine's current entry) ----
        self.h_valid.next = false;
        self.h_lpn.next = self.m_lpn[0].q.val();
        self.h_way.next = self.m_way[0].q.val();
        self.h_vlpn.next = self.m_vlpn[0].q.val();
        self.h_vdirty.next = self.m_vdirty[0].q.val();
        self.h_upd.next = self.m_upd[0].q.val();
        self.h_value.next = self.m_value[0].q.val();
        self.h_id.next = self.m_id[0].q.val();
        self.mshr_full.next = false;
        for m in 0..MSHRS {
            if self.m_head.q.val() == self.c_midx[m].val() {
                self.h_valid.next = self.m_valid[m].q.val();
                self.h_lpn.next = self.m_lpn[m].q.val();
                self.h_way.next = self.m_way[m].q.val();
                self.h_vlpn.next = self.m_vlpn[m].q.val();
                self.h_vdirty.next = self.m_vdirty[m].q.val();
                self.h_upd.next = self.m_upd[m].q.val();
                self.h_value.next = self.m_value[m].q.val();
                self.h_id.next = self.m_id[m].q.val();
            }
            if self.m_tail.q.val() == self.c_midx[m].val() {
                self.mshr_full.next = self.m_valid[m].q.val();
            }
        }
        self.eng_next.next = self.eng_lpn.q.val() + self.c_one32.val();
        self.eng_tp.next = self.eng_lpn.q.val().get_bits::<22>(10);
        self.eng_slot.next = self.eng_lpn.q.val().get_bits::<LB>(10);
        // The engine owns the data RAM ports in these cycles; S1 waits.
        self.eng_owns.next = (self.state.q.val() == EngineState::WbRead)
            || (self.state.q.val() == EngineState::WbData)
            || (self.state.q.val() == EngineState::Respond)
            || ((self.state.q.val() == EngineState::FillData) && self.dram_rdata_valid.val());

        // ---- S1: tag check ----
        self.s1_set.next = self.s1_lpn.q.val().get_bits::<SB>(self.c_ob.val().index());
        self.s1_tagw.next = self.s1_lpn.q.val() & self.c_tag_mask.val();
        self.s1_idx.next = self.s1_lpn.q.val().get_bits::<IB>(0);
        // The bypass registers hold the previous request's writes, and S1 holds the request
        // accepted in the cycle that request went (go implies ready): their set and tag compares
        // were made then, from the input port, and registered.
        self.fwd_hit.next = self.fwd_valid.q.val() && self.fwd_set_eq.q.val();
        self.eff_valid.next = self.valid_ram.read_data.val();
        self.eff_dirty.next = self.dirty_ram.read_data.val();
        self.eff_plru.next = self.plru_ram.read_data.val();
        if self.fwd_hit.val() {
            self.eff_valid.next = self.fwd_vbits.q.val();
            self.eff_dirty.next = self.fwd_dbits.q.val();
            self.eff_plru.next = self.fwd_plru.q.val();
        }
        // A request kept in S1 sees last cycle's state of its set again: nothing was written in a
        // cycle without a decision, so the RAMs need no second read at S1's set (their read
        // address is always the input's).
        if self.held.q.val() {
            self.eff_valid.next = self.hold_valid.q.val();
            self.eff_dirty.next = self.hold_dirty.q.val();
            self.eff_plru.next = self.hold_plru.q.val();
        }
        self.hold_valid.d.next = self.eff_valid.val();
        self.hold_dirty.d.next = self.eff_dirty.val();
        self.hold_plru.d.next = self.eff_plru.val();
        self.hit_oh.next = self.c_zero_w.val();
        self.inv_oh.next = self.c_zero_w.val();
        self.inv_found.next = false;
        for w in 0..W {
            self.eff_tag[w].next = self.tag_ram[w].read_data.val();
            if self.fwd_hit.val() && self.fwd_tag_we.q.val().get_bit(w) {
                self.eff_tag[w].next = self.fwd_tag.q.val();
            }
            if self.held.q.val() {
                self.eff_tag[w].next = self.hold_tag[w].q.val();
            }
            self.hold_tag[w].d.next = self.eff_tag[w].val();
            // Compare first, then pick the bypass, so no mux sits before the 32-bit compare.
            self.tag_eq[w].next = self.tag_ram[w].read_data.val() == self.s1_tagw.val();
            if self.fwd_hit.val() && self.fwd_tag_we.q.val().get_bit(w) {
                self.tag_eq[w].next = self.fwd_tag_eq.q.val();
            }
            if self.held.q.val() {
                self.tag_eq[w].next = self.hold_tag_eq[w].q.val();
            }
            self.hold_tag_eq[w].d.next = self.tag_eq[w].val();
            if self.eff_valid.val().get_bit(w) && self.tag_eq[w].val() {
                self.hit_oh.next = self.hit_oh.val() | self.c_oh[w].val();
            }
            if !self.inv_found.val() && !self.eff_valid.val().get_bit(w) {
                self.inv_oh.next = self.c_oh[w].val();
                self.inv_found.next = true;
            }
        }
        self.hit.next = self.hit_oh.val().any();
        // Tree-PLRU victim: the way whose root-to-leaf path the state bits point along.
        self.plru_oh.next = self.c_oh[0].val();
        for w in 0..W {
            if (self.eff_plru.val() & self.c_path_mask[w].val()) == self.c_path_val[w].val() {
                self.plru_oh.next = self.c_oh[w].val();
            }
        }
        if self.hit.val() {
            self.way_oh.next = self.hit_oh.val();
        } else if self.inv_found.val() {
            self.way_oh.next = self.inv_oh.val();
        } else {
            self.way_oh.next = self.plru_oh.val();
        }
        self.way_idx.next = self.c_idx[0].val();
        self.new_plru.next = self.eff_plru.val();
        for w in 0..W {
            if self.way_oh.val().get_bit(w) {
                self.way_idx.next = self.c_idx[w].val();
                self.new_plru.next =
                    (self.eff_plru.val() & self.c_plru_keep[w].val()) | self.c_plru_set[w].val();
            }
        }
        // A miss evicts only when no way is invalid, and then its way is the PLRU victim: the
        // victim's tag and dirty bit come from the PLRU way, off the tag compare's path.
        self.vtag.next = self.eff_tag[0].val();
        for w in 0..W {
            if self.plru_oh.val().get_bit(w) {
                self.vtag.next = self.eff_tag[w].val();
            }
        }
        self.evict.next = !self.hit.val() && !self.inv_found.val();
        self.vdirty.next = self.evict.val() && (self.eff_dirty.val() & self.plru_oh.val()).any();
        self.vlpn.next = self.vtag.val() | (self.s1_lpn.q.val() & self.c_set_mask.val());
        self.upd_oh.next = self.c_zero_w.val();
        if self.s1_upd.q.val() {
            self.upd_oh.next = self.way_oh.val();
        }
        // A decided way whose fill is still pending makes the request wait (decision unchanged).
        // The ways of this set with a pending MSHR are found from registers, beside the tag
        // compare; the decided way only selects among them.
        self.pend_way.next = self.c_zero_w.val();
        for m in 0..MSHRS {
            self.m_set_hit[m].next = self.m_valid[m].q.val()
                && (self.m_lpn[m]
                    .q
                    .val()
                    .get_bits::<SB>(self.c_ob.val().index())
                    == self.s1_set.val());
            for w in 0..W {
                if self.m_set_hit[m].val() && (self.m_way[m].q.val() == self.c_idx[w].val()) {
                    self.pend_way.next = self.pend_way.val() | self.c_oh[w].val();
                }
            }
        }
        self.pend.next = (self.pend_way.val() & self.way_oh.val()).any();
        self.go.next = self.s1_valid.q.val()
            && !self.pend.val()
            && !self.eng_owns.val()
            && (self.hit.val() || !self.mshr_full.val());

        // Decision trace.
        self.dec_valid.next = self.go.val();
        self.dec_id.next = self.s1_id.q.val();
        self.dec_hit.next = self.hit.val();
        self.dec_way.next = self.way_idx.val();
        self.dec_evict.next = self.evict.val();
        self.dec_evict_lpn.next = self.vlpn.val();
        self.dec_evict_dirty.next = self.vdirty.val();

        // Meta/tag RAM writes and their one-deep bypass.
        self.in_set.next = self.req_lpn.val().get_bits::<SB>(self.c_ob.val().index());
        self.in_tagw.next = self.req_lpn.val() & self.c_tag_mask.val();
        self.req_ready.next = !self.s1_valid.q.val() || self.go.val();
        self.valid_ram.write_address.next = self.s1_set.val();
        self.dirty_ram.write_address.next = self.s1_set.val();
        self.plru_ram.write_address.next = self.s1_set.val();
        self.valid_ram.write_data.next = self.eff_valid.val() | self.way_oh.val();
        self.dirty_ram.write_data.next =
            (self.eff_dirty.val() & !self.way_oh.val()) | self.upd_oh.val();
        if self.hit.val() {
            self.dirty_ram.write_data.next = self.eff_dirty.val() | self.upd_oh.val();
        }
        self.plru_ram.write_data.next = self.new_plru.val();
        self.valid_ram.write_enable.next = self.go.val();
        self.dirty_ram.write_enable.next = self.go.val();
        self.plru_ram.write_enable.next = self.go.val();
        self.fwd_valid.d.next = self.go.val();
        self.fwd_set_eq.d.next = self.in_set.val() == self.s1_set.val();
        self.fwd_tag_eq.d.next = self.in_tagw.val() == self.s1_tagw.val();
        self.fwd_vbits.d.next = self.valid_ram.write_data.val();
        self.fwd_dbits.d.next = self.dirty_ram.write_data.val();
        self.fwd_plru.d.next = self.new_plru.val();
        self.fwd_tag.d.next = self.s1_tagw.val();
        self.fwd_tag_we.d.next = self.c_zero_w.val();
        if !self.hit.val() {
            self.fwd_tag_we.d.next = self.way_oh.val();
        }
        self.held.d.next = !self.req_ready.val();
        self.valid_ram.read_address.next = self.in_set.val();
        self.dirty_ram.read_address.next = self.in_set.val();
        self.plru_ram.read_address.next = self.in_set.val();
        for w in 0..W {
            self.tag_ram[w].read_address.next = self.in_set.val();
            self.tag_ram[w].write_address.next = self.s1_set.val();
            self.tag_ram[w].write_data.next = self.s1_tagw.val();
            self.tag_ram[w].write_enable.next =
                self.go.val() && !self.hit.val() && self.way_oh.val().get_bit(w);
            // Data RAM: S1 hit access, unless the engine owns the ports (then S1 is stalled).
            self.data_ram[w].read_address.next = self.s1_idx.val();
            self.data_ram[w].write_address.next = self.s1_idx.val();
            self.data_ram[w].write_data.next = self.s1_value.q.val();
            self.data_ram[w].write_enable.next = self.go.val()
                && self.hit.val()
                && self.s1_upd.q.val()
                && self.way_oh.val().get_bit(w);
        }

        // Accept into S1; hand hits to S2; allocate MSHRs for misses.
        if self.req_ready.val() {
            self.s1_valid.d.next = self.req_valid.val();
            self.s1_lpn.d.next = self.req_lpn.val();
            self.s1_upd.d.next = self.req_update.val();
            self.s1_value.d.next = self.req_value.val();
            self.s1_id.d.next = self.req_id.val();
        }
        self.s2_valid.d.next = self.go.val() && self.hit.val();
        self.s2_upd.d.next = self.s1_upd.q.val();
        self.s2_value.d.next = self.s1_value.q.val();
        self.s2_id.d.next = self.s1_id.q.val();
        self.s2_way_oh.d.next = self.way_oh.val();
        // The free tail MSHR takes S1's fields every cycle (nothing reads a free entry); only its
        // valid bit and the tail pointer wait for the decision.
        for m in 0..MSHRS {
            if (self.m_tail.q.val() == self.c_midx[m].val()) && !self.m_valid[m].q.val() {
                self.m_lpn[m].d.next = self.s1_lpn.q.val();
                self.m_way[m].d.next = self.way_idx.val();
                self.m_vlpn[m].d.next = self.vlpn.val();
                self.m_vdirty[m].d.next = self.vdirty.val();
                self.m_upd[m].d.next = self.s1_upd.q.val();
                self.m_value[m].d.next = self.s1_value.q.val();
                self.m_id[m].d.next = self.s1_id.q.val();
            }
        }
        if self.go.val() && !self.hit.val() {
            for m in 0..MSHRS {
                if self.m_tail.q.val() == self.c_midx[m].val() {
                    self.m_valid[m].d.next = true;
                }
            }
            self.m_tail.d.next = self.m_tail.q.val() + self.c_one2.val();
        }

        // ---- S2: hit response (has priority over the engine's miss response) ----
        self.resp_valid.next = self.s2_valid.q.val();
        self.resp_id.next = self.s2_id.q.val();
        self.resp_data.next = self.s2_value.q.val();
        if !self.s2_upd.q.val() {
            for w in 0..W {
                if self.s2_way_oh.q.val().get_bit(w) {
                    self.resp_data.next = self.data_ram[w].read_data.val();
                }
            }
        }

        // ---- Miss engine ----
        self.dram_cmd_valid.next = false;
        self.dram_cmd_write.next = false;
        self.dram_cmd_addr.next = self.eng_lpn.q.val() & self.c_dram_mask.val();
        self.dram_wdata_valid.next = false;
        self.dram_wdata.next = self.data_ram[0].read_data.val();
        for w in 0..W {
            if self.h_way.val() == self.c_idx[w].val() {
                self.dram_wdata.next = self.data_ram[w].read_data.val();
            }
        }
        self.tp_req_valid.next = false;
        self.tp_req_tp.next = self.eng_tp.val();
        self.tp_req_slot.next = self.eng_slot.val();
        self.tp_req_evict_tp.next = self.ev_tp.q.val();
        self.tp_req_evict_dirty.next = self.ev_dirty.q.val();
        self.slot_tp_ram.read_address.next = self.eng_slot.val();
        self.slot_dirty_ram.read_address.next = self.eng_slot.val();
        self.slot_tp_ram.write_address.next = self.eng_slot.val();
        self.slot_dirty_ram.write_address.next = self.eng_slot.val();
        self.slot_tp_ram.write_data.next = self.eng_tp.val();
        self.slot_dirty_ram.write_data.next = self.eng_wb.q.val();
        self.slot_tp_ram.write_enable.next = false;
        self.slot_dirty_ram.write_enable.next = false;
        match self.state.q.val() {
            EngineState::Idle => {
                if self.h_valid.val() {
                    self.eng_wb.d.next = self.h_vdirty.val();
                    self.eng_lpn.d.next = self.h_lpn.val() & self.c_line_mask.val();
                    if self.h_vdirty.val() {
                        self.eng_lpn.d.next = self.h_vlpn.val();
                    }
                    self.state.d.next = EngineState::SlotRead;
                }
            }
            EngineState::SlotRead => {
                self.state.d.next = EngineState::SlotCheck;
            }
            EngineState::SlotCheck => {
                if self.slot_tp_ram.read_data.val() == self.eng_tp.val() {
                    // Resident. A write-back makes the page dirty.
                    self.slot_dirty_ram.write_enable.next = self.eng_wb.q.val();
                    if self.eng_wb.q.val() {
                        self.state.d.next = EngineState::WbCmd;
                    } else {
                        self.state.d.next = EngineState::FillCmd;
                    }
                } else {
                    self.ev_tp.d.next = self.slot_tp_ram.read_data.val();
                    self.ev_dirty.d.next = self.slot_dirty_ram.read_data.val();
                    self.state.d.next = EngineState::TpWait;
                }
            }
            EngineState::TpWait => {
                self.tp_req_valid.next = true;
                if self.tp_done.val() {
                    self.slot_tp_ram.write_enable.next = true;
                    self.slot_dirty_ram.write_enable.next = true;
                    if self.eng_wb.q.val() {
                        self.state.d.next = EngineState::WbCmd;
                    } else {
                        self.state.d.next = EngineState::FillCmd;
                    }
                }
            }
            EngineState::WbCmd => {
                self.dram_cmd_valid.next = true;
                self.dram_cmd_write.next = true;
                if self.dram_cmd_ready.val() {
                    self.state.d.next = EngineState::WbRead;
                }
            }
            EngineState::WbRead => {
                for w in 0..W {
                    self.data_ram[w].read_address.next = self.eng_lpn.q.val().get_bits::<IB>(0);
                }
                self.state.d.next = EngineState::WbData;
            }
            EngineState::WbData => {
                self.dram_wdata_valid.next = true;
                for w in 0..W {
                    self.data_ram[w].read_address.next = self.eng_lpn.q.val().get_bits::<IB>(0);
                    if self.dram_wdata_ready.val() {
                        self.data_ram[w].read_address.next = self.eng_next.val().get_bits::<IB>(0);
                    }
                }
                if self.dram_wdata_ready.val() {
                    self.eng_lpn.d.next = self.eng_next.val();
                    if self.eng_lpn.q.val().get_bits::<OB>(0) == self.c_last_beat.val() {
                        self.eng_wb.d.next = false;
                        self.eng_lpn.d.next = self.h_lpn.val() & self.c_line_mask.val();
                        self.state.d.next = EngineState::SlotRead;
                    }
                }
            }
            EngineState::FillCmd => {
                self.dram_cmd_valid.next = true;
                if self.dram_cmd_ready.val() {
                    self.state.d.next = EngineState::FillData;
                }
            }
            EngineState::FillData => {
                if self.dram_rdata_valid.val() {
                    for w in 0..W {
                        self.data_ram[w].write_address.next =
                            self.eng_lpn.q.val().get_bits::<IB>(0);
                        self.data_ram[w].write_data.next = self.dram_rdata.val();
                        self.data_ram[w].write_enable.next =
                            self.h_way.val() == self.c_idx[w].val();
                    }
                    if self.eng_lpn.q.val().get_bits::<OB>(0) == self.h_lpn.val().get_bits::<OB>(0)
                    {
                        self.eng_data.d.next = self.dram_rdata.val();
                        if self.h_upd.val() {
                            self.eng_data.d.next = self.h_value.val();
                            for w in 0..W {
                                self.data_ram[w].write_data.next = self.h_value.val();
                            }
                        }
                    }
                    self.eng_lpn.d.next = self.eng_next.val();
                    if self.eng_lpn.q.val().get_bits::<OB>(0) == self.c_last_beat.val() {
                        self.state.d.next = EngineState::Respond;
                    }
                }
            }
            EngineState::Respond => {
                // S1 is held this cycle, so S2 is empty at the latest in the next one.
                if !self.s2_valid.q.val() {
                    self.resp_valid.next = true;
                    self.resp_id.next = self.h_id.val();
                    self.resp_data.next = self.eng_data.q.val();
                    for m in 0..MSHRS {
                        if self.m_head.q.val() == self.c_midx[m].val() {
                            self.m_valid[m].d.next = false;
                        }
                    }
                    self.m_head.d.next = self.m_head.q.val() + self.c_one2.val();
                    self.state.d.next = EngineState::Idle;
                }
            }
            _ => {
                self.state.d.next = EngineState::Idle;
            }
        }
        self.busy.next = self.s1_valid.q.val()
            || self.s2_valid.q.val()
            || self.h_valid.val()
            || (self.state.q.val() != EngineState::Idle);
    }
}
