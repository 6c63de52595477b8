"""Prints every value change of a VCD file as `time signal value` lines,
read with pyvcd's tokenizer: a VCD reader independent of kairo's writer and
of GTKWave (tests/observe/test_waveforms.cpp compares its output with the FST)."""
import sys

from vcd.reader import TokenKind, tokenize

scopes, names, time = [], {}, 0
with open(sys.argv[1], "rb") as f:
    for tok in tokenize(f):
        k = tok.kind
        if k is TokenKind.SCOPE:
            scopes.append(tok.scope.ident)
        elif k is TokenKind.UPSCOPE:
            scopes.pop()
        elif k is TokenKind.VAR:
            names[tok.var.id_code] = ".".join(scopes + [tok.var.reference])
        elif k is TokenKind.CHANGE_TIME:
            time = tok.time_change
        elif k is TokenKind.CHANGE_SCALAR:
            print(time, names[tok.scalar_change.id_code], int(tok.scalar_change.value))
        elif k is TokenKind.CHANGE_VECTOR:
            print(time, names[tok.vector_change.id_code], int(tok.vector_change.value))
