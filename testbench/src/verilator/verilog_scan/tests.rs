use super::*;

/// rust_hdl 0.46's RAM (`ramrom/ram.rs`) as it appears in the datapath's top.v, with the
/// initialiser block rust_hdl writes for a RAM built from values.
const SYNC_RAM: &str = "module top$map$slot_tp_ram(read_address,read_clock,read_data,write_address,write_clock,write_data,write_enable);
    input wire  [7:0] read_address;
    input wire  read_clock;
    output reg  [21:0] read_data;
    input wire  [7:0] write_address;
    input wire  write_clock;
    input wire  [21:0] write_data;
    input wire  write_enable;
    // Update code (custom)
    reg[21:0] mem[255:0];
    initial begin
    mem[8'h0] = 22'h0;
    mem[8'h1] = 22'h1;
    end
    always @(posedge read_clock) begin
       read_data <= mem[read_address];
    end
    always @(posedge write_clock) begin
       if (write_enable) begin
          mem[write_address] <= write_data;
       end
    end
endmodule // top$map$slot_tp_ram
";

fn module(body: &str) -> String {
    format!("module top$rom(clock, a, d);\n    input wire clock;\n    input wire [3:0] a;\n    output reg [7:0] d;\n    reg [7:0] mem [15:0];\n{body}endmodule\n")
}

#[test]
fn synchronous_reads_and_initialisers_pass() {
    assert_eq!(async_memory_reads(SYNC_RAM), vec![]);
    // rust_hdl's SyncROM spells the declaration `reg[7:0] mem [15:0];` (space before the depth).
    let rom = "module r(clock, address, data);\nreg[7:0] mem [15:0];\ninitial begin\nmem[0] = 8'h5;\nend\nalways @(posedge clock) begin\n   data <= mem[address];\nend\nendmodule\n";
    assert_eq!(async_memory_reads(rom), vec![]);
}

#[test]
fn a_continuous_read_is_caught_with_module_memory_and_line() {
    // Line 1 module, 2-4 ports, 5 the memory, 6 the assign.
    let v = module("    assign d = mem[a];\n");
    let got = async_memory_reads(&v);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(
        (
            got[0].module.as_str(),
            got[0].memory.as_str(),
            got[0].line,
            got[0].text.as_str()
        ),
        ("top$rom", "mem", 6, "assign d = mem[a];")
    );
    let msg = got[0].to_string();
    assert!(
        msg.contains("top$rom") && msg.contains("`mem`") && msg.contains("line 6"),
        "{msg}"
    );
}

#[test]
fn a_read_in_a_combinational_always_is_caught() {
    for head in ["always @(*) begin", "always @* begin", "always @(a) begin"] {
        let v = module(&format!("    {head}\n        d = mem[a];\n    end\n"));
        let got = async_memory_reads(&v);
        assert_eq!(
            got.iter().map(|r| r.line).collect::<Vec<_>>(),
            vec![7],
            "{head}: {got:?}"
        );
    }
    // After the combinational block ends, a clocked load is fine again.
    let v = module("    always @(*) begin\n        d = mem[a];\n    end\n    always @(posedge clock) begin\n        d <= mem[a];\n    end\n");
    assert_eq!(async_memory_reads(&v).len(), 1);
}

#[test]
fn memory_to_memory_and_conditions_in_a_clocked_block_are_caught() {
    // mem[a] + 1 written back each cycle changes memory with every register unchanged.
    let v = module("    always @(posedge clock) begin\n        mem[a] <= mem[a] + 8'h1;\n        if (mem[a] == 8'h0) begin\n            d <= 8'h1;\n        end\n    end\n");
    let got = async_memory_reads(&v);
    assert_eq!(
        got.iter().map(|r| (r.line, r.why)).collect::<Vec<_>>(),
        vec![(7, "into another memory's write"), (8, got[1].why)],
        "{got:?}"
    );
    assert!(got[1].why.contains("condition"), "{got:?}");
}

#[test]
fn vectors_comments_and_other_modules_are_not_memories() {
    // `mem` is a plain vector in the second module: a bit select, not a memory read.
    let v = format!("{SYNC_RAM}module top$b(x, y);\n    wire [7:0] mem;\n    assign y = mem[3];\n    // assign y = mem[a];\n    /* assign y =\n       mem[a]; */\nendmodule\n");
    assert_eq!(async_memory_reads(&v), vec![]);
}
