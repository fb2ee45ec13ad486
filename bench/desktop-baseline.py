#!/usr/bin/python3
"""The desktop bench's baseline: a hand-written pyatspi script that does what the learned
calculator skill does (Escape, type "A+B", Enter) and reads the answer from the display.

It finds the calculator and its display once, outside the timing, then for each line
"A B" on stdin presses the same keys, polls the display until it shows the expression,
presses Enter and polls until it shows something else, and prints {"ms": ..., "result": ...}.
"""
import json
import sys
import time

import pyatspi


def find(node, predicate):
    if predicate(node):
        return node
    for child in node:
        if child is not None:
            found = find(child, predicate)
            if found is not None:
                return found
    return None


desktop = pyatspi.Registry.getDesktop(0)
app = next(app for app in desktop if app is not None and app.name == 'gnome-calculator')
display = find(app, lambda node: node.getRoleName() == 'text' and node.name == 'GtkSourceView')
text = display.queryText()
print(json.dumps({'ready': True}), flush=True)

for line in sys.stdin:
    a, b = line.split()
    started = time.perf_counter()
    pyatspi.Registry.generateKeyboardEvent(0xFF1B, None, pyatspi.KEY_SYM)  # Escape
    for char in f'{a}+{b}':
        pyatspi.Registry.generateKeyboardEvent(0, char, pyatspi.KEY_STRING)
    expression = f'{a}+{b}'
    # The keys land asynchronously: Enter only once the display shows the whole expression.
    while text.getText(0, -1) != expression and time.perf_counter() - started < 5:
        pass
    pyatspi.Registry.generateKeyboardEvent(0xFF0D, None, pyatspi.KEY_SYM)  # Enter
    shown = expression
    while shown == expression and time.perf_counter() - started < 5:
        shown = text.getText(0, -1)
    print(json.dumps({'ms': (time.perf_counter() - started) * 1000, 'result': shown}), flush=True)
