"""Key names as X keysyms, and keyboard events sent through the registry daemon (XTest)."""

KEY_NAMES = {'enter': 'Return', 'return': 'Return', 'esc': 'Escape', 'escape': 'Escape', 'tab': 'Tab',
             'backspace': 'BackSpace', 'delete': 'Delete', 'del': 'Delete', 'space': 'space',
             'up': 'Up', 'down': 'Down', 'left': 'Left', 'right': 'Right', 'home': 'Home', 'end': 'End',
             'pageup': 'Prior', 'pagedown': 'Next', 'insert': 'Insert', 'ctrl': 'Control_L',
             'control': 'Control_L', 'shift': 'Shift_L', 'alt': 'Alt_L', 'super': 'Super_L',
             'meta': 'Meta_L', 'win': 'Super_L', 'plus': 'plus', 'minus': 'minus'}
MODIFIERS = {'Control_L', 'Shift_L', 'Alt_L', 'Super_L', 'Meta_L'}


def keysym_name(part):
    lower = part.lower()
    if lower in KEY_NAMES:
        return KEY_NAMES[lower]
    if lower[:1] == 'f' and lower[1:].isdigit():
        return 'F' + lower[1:]
    return part


KEY_PRESS, KEY_RELEASE, KEY_PRESSRELEASE, KEY_STRING = 0, 1, 2, 4
