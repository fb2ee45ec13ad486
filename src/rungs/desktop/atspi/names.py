"""AT-SPI's numbers as the words Lift shows: role names and state nicks."""
import gi

gi.require_version('Atspi', '2.0')
from gi.repository import Atspi  # noqa: E402


def role_name(number):
    try:
        return Atspi.role_get_name(Atspi.Role(number)) or 'unknown'
    except Exception:
        return 'unknown'


STATE_NAMES = {}
for index in range(64):
    try:
        STATE_NAMES[index] = Atspi.StateType(index).value_nick
    except Exception:
        pass


def states_of(words):
    names = []
    for word_index, word in enumerate(words):
        for bit in range(32):
            if word & (1 << bit):
                name = STATE_NAMES.get(word_index * 32 + bit)
                if name:
                    names.append(name)
    return names
