"""Waiting for a window to change and hold still, on the program's AT-SPI events, never a sleep."""
import time

from timing import TIMING


def wait_for_window(bus, events, read, request, deadline):
    """Waits until the program sent events after `stamp` and then none for `quiet_ms` (with
    `expect`: and the named node's text contains `text`, or differs `from`). `idle_ms` without
    any event means nothing changed; a wrong text gives up `idle_ms` after the last event.

    With `expect`, "held still" is about the watched node: a program may go on updating other
    parts of its window (a history list, a status bar) long after the answer shows. The node
    is read as soon as its content changes (else once the program holds still), and it has
    held still once no change the read does not already explain came for `quiet_ms`: GTK 4
    reports a text change tens of milliseconds after making it, so the report of the very
    text just read (its insertion, or the removal of the text it replaced) is no new change."""
    app = request['app']
    since = request['stamp']['any']
    quiet = request.get('quiet_ms', 60) / 1000
    idle = request.get('idle_ms', 400) / 1000
    expect = request.get('expect')
    # Typed text has landed once the program reported as many insertions as characters.
    inserts = request.get('inserts', 0)
    started = time.monotonic()
    until = min(deadline, started + request.get('within_ms', 5000) / 1000)
    watched = events.watch(app, expect['path']) if expect else None
    # What the last read saw, the program's event count then, and how many of the node's changes it follows.
    seen = {'shown': None, 'holds': False, 'at': None, 'after': 0}

    def read_now():
        seen['at'], seen['after'] = events.any.get(app, 0), len(watched['changes'])
        read_started = time.monotonic()
        seen['shown'] = read(app, expect['path'])
        TIMING.add('wait_read', read_started)
        if 'from' in expect:
            seen['holds'] = seen['shown'] != expect['from'] and seen['shown'].strip() != ''
        else:
            seen['holds'] = expect['text'] in seen['shown']

    def explained(change):
        """A change after the read that only reports the text the read saw."""
        _at, kind, text = change
        return seen['holds'] and ((kind == 'insert' and text == seen['shown'])
                                  or (kind == 'delete' and text == expect.get('from')))

    def answer(changed, settled, expected=None):
        out = {'changed': changed, 'settled': settled, 'events': events.any.get(app, 0) - since,
               'ms': round((time.monotonic() - started) * 1000, 1)}
        if expected is not None:
            out['expected'] = expected
        if seen['shown'] is not None:
            out['shown'] = seen['shown']  # the watched node's text as the wait ended
        return out

    try:
        # A text to find may show already; the text to change from is known to show now.
        if expect and 'from' not in expect:
            read_now()
        while True:
            bus.drain()
            now = time.monotonic()
            count = events.any.get(app, 0)
            if count == since:
                if now - started >= idle:
                    return answer(False, True, seen['holds'] if expect else None)
                if now >= until:
                    return answer(False, False, seen['holds'] if expect else None)
                bus.sleep_until(min(started + idle, until))
                continue
            last = events.last[app]
            quiet_for = now - last
            moments = [last + quiet, last + idle]
            typed = events.inserts.get(app, 0) - request['stamp'].get('inserts', 0) >= inserts
            read_is_current = True
            if expect:
                news = [change for change in watched['changes'][seen['after']:] if not explained(change)]
                if news or (count != seen['at'] and quiet_for >= quiet):
                    read_now()
                    continue  # judge again with what came during the read
                # Every change up to the read is real; those after it are all explained (no news).
                followed = watched['changes'][:seen['after']]
                changed_at = followed[-1][0] if followed else None
                if seen['holds'] and typed and changed_at is not None and now - changed_at >= quiet:
                    return answer(True, True, True)
                if changed_at is not None:
                    moments.append(changed_at + quiet)
                read_is_current = count == seen['at']
            if quiet_for >= quiet and (seen['holds'] or not expect) and (typed or quiet_for >= idle) \
                    and read_is_current:
                return answer(True, True, True if expect else None)
            if expect and not seen['holds'] and quiet_for >= idle and read_is_current:
                return answer(True, True, False)
            if now >= until:
                return answer(True, False, seen['holds'] if expect else None)
            bus.sleep_until(min([moment for moment in moments if moment > now] + [until]))
    finally:
        events.watched = None

