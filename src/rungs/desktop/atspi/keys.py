"""Key names as X keysyms, and keyboard events sent through the registry daemon (XTest)."""
from bus import REGISTRY, BridgeError
from gi.repository import GLib

DEC = '/org/a11y/atspi/registry/deviceeventcontroller'

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


def typing_events(text, keycode):
    """The keyboard events that type `text`: each character as itself, a newline as Return."""
    return [(keycode('Return'), '', KEY_PRESSRELEASE) if char == '\n' else (0, char, KEY_STRING)
            for char in text]


def combination_events(keys, keycode):
    """The keyboard events of a combination: modifiers held, the other keys pressed, modifiers
    released in reverse order. Returns the keysym names and the events."""
    parts = [keysym_name(part) for part in keys]
    codes = [keycode(name) for name in parts]
    held = [code for name, code in zip(parts, codes) if name in MODIFIERS]
    pressed = [code for name, code in zip(parts, codes) if name not in MODIFIERS]
    return parts, ([(code, '', KEY_PRESS) for code in held]
                   + [(code, '', KEY_PRESSRELEASE) for code in pressed]
                   + [(code, '', KEY_RELEASE) for code in reversed(held)])


def send_keyboard_events(bus, key_events, deadline):
    """Sends keyboard events to the registry daemon back to back and then waits for all its
    answers: it injects them (XTest) in the order they arrive, so waiting for each answer before
    sending the next one only added a round trip per key."""
    failed = []
    pending = [len(key_events)]

    def done(value):
        pending[0] -= 1
        if value is None:
            failed.append(True)

    for code, string, kind in key_events:
        bus.start(REGISTRY, DEC, 'org.a11y.atspi.DeviceEventController', 'GenerateKeyboardEvent',
                  GLib.Variant('(isu)', (code, string, kind)), done)
    bus.run_until(lambda: pending[0] == 0, deadline)
    if failed:
        raise BridgeError('call_failed', f'the registry daemon refused {len(failed)} of {len(key_events)} keyboard events')
