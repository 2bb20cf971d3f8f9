#!/usr/bin/env python3
"""Cost centres of the Verilated datapath (issue #9): aggregates perf samples of raw_eval, already
resolved to generated C++ lines (`count file:line` per input line, see eval_profile.sh), by the
Verilog hierarchy each line assigns (Verilator names `top.pb.chans$3.fill` as
`top__DOT__pb__DOT__chans__0243__DOT__fill`; instance indices are folded to $N) and by the
Verilator region function (ico = input-combinational, run on every eval() call; act; nba).
Usage: eval_profile.py OBJ_DIR LINES_FILE [DEPTH]"""
import collections
import os
import re
import sys

FUNC = re.compile(r'^(?:VL_INLINE_OPT |VL_ATTR_COLD )?\w+ (Vtop\w*)\(.*\{')
NAME = re.compile(r'((?:vlSelf->)?(?:top|ssdlab_[a-z0-9]+(?:_[a-z0-9]+)*?)__DOT__\w+|vlSelf->(?!__V)\w+)')


def index_file(path, cache):
    """Per line of a generated file: (function, last hierarchical name referenced at or above)."""
    if path not in cache:
        keys, funcs, last, fn = [], [], None, None
        with open(path) as f:
            for line in f:
                m = FUNC.match(line)
                if m:
                    fn, last = m.group(1).replace('Vtop___024root___', ''), None
                m = NAME.search(line)
                if m:
                    last = m.group(1)
                keys.append(last)
                funcs.append(fn)
        cache[path] = (keys, funcs)
    return cache[path]


def origin(name, depth):
    if name is None:
        return '(no signal)'
    name = name.replace('vlSelf->', '')
    if '__DOT__' not in name:
        return 'port ' + name
    s = '.'.join(name.split('__DOT__')[1:depth + 1]).replace('__024', '$')
    return re.sub(r'(\$|__)\d+', '$N', s)


def main():
    if len(sys.argv) < 3:
        sys.exit('usage: eval_profile.py OBJ_DIR LINES_FILE [DEPTH]')
    obj, lines, depth = sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 3
    cache = {}
    by_origin, by_func, by_region = collections.Counter(), collections.Counter(), collections.Counter()
    total = 0
    with open(lines) as f:
        for row in f:
            count, loc = row.split(None, 1)
            count, (path, _, ln) = int(count), loc.strip().rpartition(':')
            ln = re.sub(r'\D.*', '', ln)
            total += count
            if 'Vtop___024root__DepSet' not in path or not ln:
                by_origin['(outside the model: ' + os.path.basename(path) + ')'] += count
                continue
            keys, funcs = index_file(os.path.join(obj, os.path.basename(path)), cache)
            i = int(ln) - 1
            fn = funcs[i] or '?'
            by_origin[origin(keys[i], depth)] += count
            by_func[fn] += count
            by_region[fn.split('_')[0] or fn] += count
    assert total > 0, 'no samples in ' + lines
    for title, table, n in (('Verilog origin (depth %d)' % depth, by_origin, 30),
                            ('Verilator function', by_func, 15), ('Verilator region', by_region, 6)):
        print('--- by %s, %% of %d samples' % (title, total))
        for k, v in table.most_common(n):
            print('%5.1f%%  %s' % (100.0 * v / total, k))


if __name__ == '__main__':
    main()
