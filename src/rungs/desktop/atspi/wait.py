"""Waiting for a window to change and hold still, on the program's AT-SPI events, never a sleep."""
import time

from bus import READ_CHARS
from gi.repository import GLib
from timing import TIMING

# How soon after a read kept on its way answered the next is sent (`poll`).
POLL_MS = 5


class WatchedText:
    """What the wait knows of the watched node's text: the text last known (read, or followed
    from the changes the node reported), whether it is the one expected, the program's event
    count then, and how many of the node's reported changes it already follows."""

    def __init__(self, events, read, app, expect):
        self.events, self.read_text, self.app, self.expect = events, read, app, expect
        self.changes = events.watch(app, expect['path'])['changes']
        self.shown, self.holds, self.was_read = None, False, False
        self.at, self.after = None, 0
        self.seen_at = None  # when a read kept on its way (ask) showed the change, before any report
        self.asking = False
        self.next_ask = time.monotonic()

    def wanted(self, text):
        if 'from' in self.expect:
            return text != self.expect['from'] and text.strip() != ''
        return self.expect['text'] in text

    def know(self, text, was_read, at, after):
        self.shown, self.holds, self.was_read = text, self.wanted(text), was_read
        self.at, self.after = at, after

    def read(self):
        at, after = self.events.any.get(self.app, 0), len(self.changes)
        started = time.monotonic()
        self.know(self.read_text(self.app, self.expect['path']), True, at, after)
        TIMING.add('wait_read', started)

    def ask(self, bus):
        """Sends a read without waiting for it (`poll`), POLL_MS after the last one answered. The
        program answers it at its first turn to the bus after changing the text, before it
        redraws; a read sent only once the change is reported queues behind the redraw (tens of
        ms on a loaded machine), and GTK 4 reports an insertion later still. A read shows every
        change reported before it was sent."""
        self.asking = True
        at, after = self.events.any.get(self.app, 0), len(self.changes)

        def done(answer):
            self.asking = False
            self.next_ask = time.monotonic() + POLL_MS / 1000
            if answer is not None and not self.holds and self.after <= after and self.wanted(answer[0]):
                self.know(answer[0], True, at, after)
                self.seen_at = time.monotonic()

        bus.start(self.app, self.expect['path'], 'org.a11y.atspi.Text', 'GetText',
                  GLib.Variant('(ii)', (0, READ_CHARS)), done)

    def news(self):
        """The node's changes since the text was known, but for the mere report of that text:
        GTK 4 reports a change tens of milliseconds after making it, so a read may already show
        a text whose insertion (or the removal of the text it replaced) is reported after."""
        return [(at, kind, text) for at, kind, text in self.changes[self.after:]
                if not (self.holds and ((kind == 'insert' and text == self.shown)
                                        or (kind == 'delete' and text == self.expect.get('from'))))]

    def follow(self, news):
        """The text after `news` when they say it exactly, else None: the removal of the whole
        text known, then an insertion into the emptied node, is how setting a text is reported
        (a calculator's answer), and needs no read of a program still busy drawing."""
        text = self.shown if self.shown is not None else self.expect.get('from')
        if text is None or len(text) >= READ_CHARS:
            return None
        for _at, kind, changed in news:
            if kind == 'delete' and changed == text:
                text = ''
            elif kind == 'insert' and text == '' and isinstance(changed, str):
                text = changed
            else:
                return None
        return text

    def changed_at(self):
        """When the known text was last seen to change (None: not yet): the last change it
        follows was reported, or a read kept on its way showed it."""
        moments = ([self.changes[self.after - 1][0]] if self.after > 0 else []) + \
            ([self.seen_at] if self.seen_at is not None else [])
        return max(moments) if moments else None


def wait_for_window(bus, events, read, request, deadline):
    """Waits until the program sent events after `stamp` and then none for `quiet_ms` (with
    `expect`: and the named node's text contains `text`, or differs `from`). `idle_ms` without
    any event means nothing changed; a wrong text gives up `idle_ms` after the last event.

    With `expect`, "held still" is about the watched node: a program may go on updating other
    parts of its window (a history list, a status bar) long after the answer shows. The node's
    text is followed from the changes it reports when they say it whole, else read as soon as
    it changes (or once the program holds still, for a node that reports nothing); it has held
    still once no change the known text does not explain came for `quiet_ms`. A wrong text is
    only ever concluded from a read. With `poll` (a change `from` a text), a read of the node
    is kept on its way until it shows the change, which it then does before any report."""
    app = request['app']
    since = request['stamp']['any']
    quiet = request.get('quiet_ms', 60) / 1000
    idle = request.get('idle_ms', 400) / 1000
    expect = request.get('expect')
    # Typed text has landed once the program reported as many insertions as characters.
    inserts = request.get('inserts', 0)
    started = time.monotonic()
    until = min(deadline, started + request.get('within_ms', 5000) / 1000)
    text = WatchedText(events, read, app, expect) if expect else None
    # With `poll`, a read of the node to change is kept on its way until it shows the change.
    polling = bool(request.get('poll')) and expect is not None and 'from' in expect

    def answer(changed, settled, expected=None):
        out = {'changed': changed, 'settled': settled, 'events': events.any.get(app, 0) - since,
               'ms': round((time.monotonic() - started) * 1000, 1)}
        if expected is not None:
            out['expected'] = expected
        if text is not None and text.shown is not None:
            out['shown'] = text.shown  # the watched node's text as the wait ended
        return out

    try:
        # A text to find may show already; the text to change from is known to show now.
        if expect and 'from' not in expect:
            text.read()
        while True:
            bus.drain()
            now = time.monotonic()
            count = events.any.get(app, 0)
            if polling and not text.holds and not text.asking and now >= text.next_ask:
                text.ask(bus)
            # The moment the next read may be sent, while one is to be sent.
            ask_at = [text.next_ask] if polling and not text.holds and not text.asking else []
            if count == since and (text is None or text.seen_at is None):
                if now >= started + idle:
                    return answer(False, True, text.holds if expect else None)
                if now >= until:
                    return answer(False, False, text.holds if expect else None)
                bus.sleep_until(min([moment for moment in [started + idle] + ask_at if moment > now] + [until]))
                continue
            # Each test compares `now` with the very moment the wait would wake for, so that a
            # moment is either reached or still ahead (never missed by a rounding).
            last = events.last.get(app, text.seen_at if text else now)
            held, idled = now >= last + quiet, now >= last + idle
            moments = [last + quiet, last + idle] + ask_at
            typed = events.inserts.get(app, 0) - request['stamp'].get('inserts', 0) >= inserts
            current = True
            if expect:
                news = text.news()
                followed = text.follow(news) if news else None
                if followed is not None and text.wanted(followed):
                    text.know(followed, False, count, len(text.changes))
                    continue
                changed_at = text.changed_at()
                # The node changed, or (reporting nothing) the program held still: read it, unless a
                # read kept on its way (`poll`) will tell first.
                if not (polling and not text.holds) and (
                        news or (count != text.at and held and not (text.holds and changed_at is not None))):
                    text.read()
                    continue  # judge again with what came during the read
                if text.holds and typed and changed_at is not None:
                    if now >= changed_at + quiet:
                        return answer(True, True, True)
                    moments.append(changed_at + quiet)
                current = count == text.at
            if held and (not expect or text.holds) and (typed or idled) and current:
                return answer(True, True, True if expect else None)
            if expect and not text.holds and idled and current:
                if not text.was_read:
                    text.read()
                    continue
                return answer(True, True, False)
            if now >= until:
                return answer(True, False, text.holds if expect else None)
            bus.sleep_until(min([moment for moment in moments if moment > now] + [until]))
    finally:
        events.watched = None

