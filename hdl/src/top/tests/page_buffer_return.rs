//! The page buffer across the PHY's read return (rust_hdl, hand-derived cycles): a way's words
//! still coming back while the next way's beats are on the bus land where their beats' tags
//! say, and a word out of step with its beat is an error. Helpers from `page_buffer.rs`.

use super::page_buffer::{beat, word, Pb, RETURN};
use rust_hdl::prelude::*;

/// The read return (11 cycles) outlasts the RE# postamble: way 1's last words come back while
/// way 2's beats are on the bus. Way 1 beats at cycles 0..7, way 2 at 10..17; their words
/// arrive at 11..18 and 21..28, and each lands in the region of the beat it answers.
#[test]
fn words_coming_back_during_the_next_phase_land_in_their_beats_way() {
    let mut pb = Pb::new();
    let c = 6usize;
    pb.op(c, 1, 0);
    pb.op(c, 2, 0);
    let of_beat = |k: u32| match k {
        0..=7 => Some((1usize, k)),
        10..=17 => Some((2, k - 10)),
        _ => None,
    };
    for k in 0..18 + RETURN {
        pb.idle();
        let beat = of_beat(k);
        pb.u.data_way[c].next = bits::<3>(if k < 8 { 1 } else { 2 });
        pb.u.rd_beat[c].next = beat.is_some();
        if let Some((w, n)) = k.checked_sub(RETURN).and_then(of_beat) {
            (pb.u.rd_valid[c].next, pb.u.rd_data[c].next) =
                (true, bits::<32>(word(c, w, n) as u64));
        }
        pb.clock();
    }
    for w in [1usize, 2] {
        pb.take(c, w, true, 0, 32);
        let got: Vec<u128> = pb.read_beats(2).into_iter().map(|g| g.1).collect();
        assert_eq!(got, vec![beat(c, w, 0), beat(c, w, 1)], "way {w}'s words");
        pb.done();
    }
    assert!(!pb.err_after_sync());
}

/// The read return is fixed: a word one cycle early or late (no beat `RETURN` cycles before
/// it) is flagged, as is a beat whose word does not come; on time it is not.
#[test]
fn a_read_word_out_of_step_with_its_beat_is_flagged() {
    for (at, flagged) in [(RETURN - 1, true), (RETURN, false), (RETURN + 1, true)] {
        let mut pb = Pb::new();
        pb.op(2, 0, 0);
        for k in 0..=RETURN + 1 {
            pb.idle();
            pb.u.rd_beat[2].next = k == 0;
            if k == at {
                (pb.u.rd_valid[2].next, pb.u.rd_data[2].next) = (true, bits::<32>(5));
            }
            pb.clock();
        }
        assert_eq!(
            pb.err_after_sync(),
            flagged,
            "word {at} cycles after its beat"
        );
    }
}
