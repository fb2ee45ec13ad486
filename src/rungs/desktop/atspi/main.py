#!/usr/bin/python3
"""Lift's bridge to AT-SPI: a long-lived worker that speaks JSON lines on stdin/stdout.

It talks AT-SPI's own D-Bus protocol through Gio (python3-gi) instead of libatspi's
per-property calls. A tree read takes what each node is from the program's object cache in
one call and asks the rest of a level's nodes at once (tree.py); what can change (names,
states, texts, values) is asked at every read, and only what an object keeps for its life (its
action names, its id) is kept between reads. Events (state, text, children
changed) are counted per program so that a wait can tell when a window has changed and held
still (wait.py). Keys go through the registry daemon (XTest); X11 focus is set with Xlib.

Requests: {"id": N, "op": NAME, ...}. Answers: {"id": N, "ok": true, "result": ...} or
{"id": N, "ok": false, "error": {"kind": ..., "message": ...}}. One request at a time.
"""
import json
import sys
import time

from bus import ACCESSIBLE, PROPERTIES, READ_CHARS, REGISTRY, ROOT, Bus, BridgeError
from events import Events
from gi.repository import GLib
from keys import combination_events, send_keyboard_events, typing_events
from names import role_name, states_of
from timing import TIMING
from tree import Tree
from wait import wait_for_window
from x11 import X11


class Bridge:
    def __init__(self):
        self.bus = Bus()
        self.events = Events(self.bus)
        self.tree = Tree(self.bus)
        self.x11 = X11()
        self.interfaces = {}

    # -- reading
    def op_apps(self, request, deadline):
        """The programs on the bus with their process ids and windows (title, role, states):
        three waves of calls, each to every program at once."""
        registered = [(name, path) for name, path in self.bus.call(REGISTRY, ROOT, ACCESSIBLE, 'GetChildren')[0]]
        first = self.bus.batch([call for name, path in registered for call in (
            (name, path, PROPERTIES, 'Get', GLib.Variant('(ss)', (ACCESSIBLE, 'Name'))),
            ('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'GetConnectionUnixProcessID',
             GLib.Variant('(s)', (name,))),
            (name, path, ACCESSIBLE, 'GetChildren', None))], deadline)
        apps = []
        for index, (name, _path) in enumerate(registered):
            title, pid, children = first[3 * index:3 * index + 3]
            if title is not None and pid is not None and children is not None:  # else it left while we looked
                apps.append({'app': name, 'name': title[0], 'pid': pid[0], 'windows': [
                    {'path': child} for _bus, child in children[0]]})
        windows = [(app['app'], window) for app in apps for window in app['windows']]
        second = self.bus.batch([call for name, window in windows for call in (
            (name, window['path'], PROPERTIES, 'Get', GLib.Variant('(ss)', (ACCESSIBLE, 'Name'))),
            (name, window['path'], ACCESSIBLE, 'GetRole', None),
            (name, window['path'], ACCESSIBLE, 'GetState', None))], deadline)
        for index, (_name, window) in enumerate(windows):
            title, role, states = second[3 * index:3 * index + 3]
            if title is not None and role is not None and states is not None:  # else it closed while we looked
                window.update(title=title[0], role=role_name(role[0]), states=states_of(states[0]))
        for app in apps:
            app['windows'] = [window for window in app['windows'] if 'title' in window]
        return apps

    def op_tree(self, request, deadline):
        self.bus.drain()
        stamp = self.events.stamp(request['app'])
        # `cache: false` asks every node for itself (a check of what the program's cache says).
        nodes, truncated = self.tree.read(request['app'], request['path'], request.get('limit', 2000), deadline,
                                          use_cache=request.get('cache', True))
        return {'nodes': nodes, 'truncated': truncated, 'stamp': stamp}

    def op_stamp(self, request, deadline):
        self.bus.drain()
        return self.events.stamp(request['app'])

    def op_read(self, request, deadline):
        """The text a person sees in each named node: its Text, else its value, else its name."""
        out = []
        for path in request['paths']:
            out.append(self.read_one(request['app'], path))
        return out

    def read_one(self, app, path):
        # A node's interfaces never change: asked once per node, not on every read.
        interfaces = self.interfaces.get((app, path))
        if interfaces is None:
            interfaces = self.bus.call(app, path, ACCESSIBLE, 'GetInterfaces')[0]
            if len(self.interfaces) > 5000:
                self.interfaces.clear()
            self.interfaces[(app, path)] = interfaces
        if 'org.a11y.atspi.Text' in interfaces:
            return self.bus.call(app, path, 'org.a11y.atspi.Text', 'GetText', GLib.Variant('(ii)', (0, READ_CHARS)))[0]
        if 'org.a11y.atspi.Value' in interfaces:
            value = self.bus.call(app, path, 'org.freedesktop.DBus.Properties', 'Get',
                                  GLib.Variant('(ss)', ('org.a11y.atspi.Value', 'CurrentValue')))[0]
            return str(value)
        return self.bus.call(app, path, 'org.freedesktop.DBus.Properties', 'Get',
                             GLib.Variant('(ss)', (ACCESSIBLE, 'Name')))[0]

    def changed(self, app, known):
        """Whether a window may no longer be as a read saw it: its program's structure changed
        since the read's stamp (or the stamp is another bridge's), or it is gone or hidden."""
        self.bus.drain()
        stamp = self.events.stamp(app)
        if stamp['epoch'] != known['epoch'] or stamp['structure'] != known['structure']:
            return True
        try:
            states = self.op_states({'app': app, 'path': known['path']}, None)
        except BridgeError:
            return True
        return 'visible' not in states or 'defunct' in states

    def op_states(self, request, deadline):
        return states_of(self.bus.call(request['app'], request['path'], ACCESSIBLE, 'GetState')[0])

    # -- acting
    def op_do_action(self, request, deadline):
        app, path = request['app'], request['path']
        actions = self.bus.call(app, path, 'org.a11y.atspi.Action', 'GetActions')[0]
        names = [name for name, _d, _k in actions]
        index = next((names.index(n) for n in request.get('prefer', []) if n in names), 0 if names else -1)
        if index < 0:
            raise BridgeError('no_action', 'the control offers no action')
        done = self.bus.call(app, path, 'org.a11y.atspi.Action', 'DoAction', GLib.Variant('(i)', (index,)))[0]
        return {'action': names[index], 'done': bool(done)}

    def op_set_text(self, request, deadline):
        done = self.bus.call(request['app'], request['path'], 'org.a11y.atspi.EditableText', 'SetTextContents',
                             GLib.Variant('(s)', (request['text'],)))[0]
        return {'done': bool(done)}

    def op_set_value(self, request, deadline):
        self.bus.call(request['app'], request['path'], 'org.freedesktop.DBus.Properties', 'Set',
                      GLib.Variant('(ssv)', ('org.a11y.atspi.Value', 'CurrentValue',
                                             GLib.Variant('d', float(request['value'])))))
        return {'done': True}

    def op_focus(self, request, deadline):
        """Keyboard to the program's window, then (when named) to one of its controls."""
        focused = self.x11.focus(request['pid'], request.get('title'))
        if request.get('path'):
            try:
                self.bus.call(request['app'], request['path'], 'org.a11y.atspi.Component', 'GrabFocus')
            except BridgeError:
                pass  # GTK 4 answers an error here; the window's own focus then decides
        return {'window': focused}

    def op_type(self, request, deadline):
        send_keyboard_events(self.bus, typing_events(request['text'], self.x11.keycode), deadline)
        return {'typed': len(request['text'])}

    def op_key(self, request, deadline):
        parts, key_events = combination_events(request['keys'], self.x11.keycode)
        send_keyboard_events(self.bus, key_events, deadline)
        return {'keys': parts}

    def prepared(self, request, deadline, handler):
        """Runs a request, first doing what it asks for in the same round trip: act only if a
        window is as it was (`unless_changed`: else answer `stale` and do nothing), give the
        keyboard to a window (`focus`), press keys that need no wait (`keys_first`), note the
        event counts (`stamp_app`), read a node (`read_before`); and afterwards wait for the
        window as `then_wait` says (the arguments of op_wait)."""
        extra = {}
        if request.get('unless_changed') and self.changed(request['stamp_app'], request['unless_changed']):
            return {'stale': True}
        if request.get('focus'):
            since = time.monotonic()
            self.x11.focus(request['focus']['pid'], request['focus'].get('title'))
            TIMING.add('focus', since)
        if request.get('keys_first'):
            since = time.monotonic()
            first = [event for keys in request['keys_first'] for event in combination_events(keys, self.x11.keycode)[1]]
            send_keyboard_events(self.bus, first, deadline)
            TIMING.add('keys_first', since)
        if request.get('stamp_app'):
            self.bus.drain()
            extra['stamp'] = self.events.stamp(request['stamp_app'])
        if request.get('read_before'):
            since = time.monotonic()
            extra['before'] = self.read_one(request['stamp_app'], request['read_before'])
            TIMING.add('before', since)
        since = time.monotonic()
        result = handler(request, deadline)
        TIMING.add('act', since)
        if request.get('then_wait'):
            # Acting and watching in one round trip: the wait starts from the stamp taken
            # just before the action, and may watch the node read before it for a change.
            wait = {**request['then_wait'], 'stamp': extra['stamp']}
            if wait.pop('expect_change_of_read', False) and 'before' in extra:
                wait['expect'] = {'path': request['read_before'], 'from': extra['before']}
            since = time.monotonic()
            extra['settled'] = self.op_wait(wait, deadline)
            TIMING.add('wait', since)
        if extra:
            result = {**result, **extra} if isinstance(result, dict) else {'value': result, **extra}
        return result

    # -- settling
    def op_wait(self, request, deadline):
        return wait_for_window(self.bus, self.events, self.read_one, request, deadline)


def main():
    try:
        bridge = Bridge()
    except Exception as error:  # nothing to serve: say why, once
        print(json.dumps({'ready': False, 'message': str(error)}), flush=True)
        return 1
    print(json.dumps({'ready': True}), flush=True)
    for line in sys.stdin:
        try:
            request = json.loads(line)
        except ValueError:
            continue
        answer = {'id': request.get('id')}
        TIMING.reset()
        deadline = time.monotonic() + min(request.get('deadline_ms', 10000), 120000) / 1000
        try:
            handler = getattr(bridge, 'op_' + str(request.get('op')), None)
            if handler is None:
                raise BridgeError('bad_request', f"unknown op {request.get('op')!r}")
            answer.update(ok=True, result=bridge.prepared(request, deadline, handler))
        except BridgeError as error:
            answer.update(ok=False, error={'kind': error.kind, 'message': str(error)})
        except Exception as error:  # a bug in this bridge, reported rather than fatal
            answer.update(ok=False, error={'kind': 'bridge_bug', 'message': f'{type(error).__name__}: {error}'})
        answer['timing'] = TIMING.report()
        print(json.dumps(answer), flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
