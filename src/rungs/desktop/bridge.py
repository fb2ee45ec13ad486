#!/usr/bin/python3
"""Lift's bridge to AT-SPI: a long-lived worker that speaks JSON lines on stdin/stdout.

It talks AT-SPI's own D-Bus protocol through Gio (python3-gi) instead of libatspi's
per-property calls: a tree read sends every node's requests at once, level by level, so
one read of a whole window costs a few waves of round trips, and nothing is served from a
cache that could be stale. Events (state, text, children changed) are counted per program
so that `wait` can tell when a window has changed and held still. Keys go through the
registry daemon (XTest); X11 focus is set with Xlib through ctypes.

Requests: {"id": N, "op": NAME, ...}. Answers: {"id": N, "ok": true, "result": ...} or
{"id": N, "ok": false, "error": {"kind": ..., "message": ...}}. One request at a time.
"""
import ctypes
import json
import re
import sys
import time

import gi

gi.require_version('Atspi', '2.0')
from gi.repository import Atspi, Gio, GLib  # noqa: E402

ACCESSIBLE = 'org.a11y.atspi.Accessible'
REGISTRY = 'org.a11y.atspi.Registry'
ROOT = '/org/a11y/atspi/accessible/root'
DEC = '/org/a11y/atspi/registry/deviceeventcontroller'
CALL_MS = 2000
# Rows of a long list beyond this are left out of a read (the answer says it was truncated).
MAX_CHILDREN = 60
MAX_LIST_ROWS = 12
LIST_ROLES = {'list', 'list box', 'tree', 'tree table'}
# Roles whose children repeat what the control itself says (a button's label).
LEAF_ROLES = {'push button', 'toggle button', 'check box', 'radio button', 'menu item', 'label',
              'check menu item', 'radio menu item', 'link', 'spin button', 'slider', 'icon',
              'scroll bar', 'combo box'}
# GTK 4 names a control after its widget class when it has no label of its own.
CLASS_NAME = re.compile(r'^(Gtk|Adw|Gdk)[A-Z][A-Za-z]*$')
STRUCTURE_EVENTS = {'ChildrenChanged', 'PropertyChange', 'Create', 'Destroy'}
STRUCTURE_STATES = {'showing', 'visible', 'defunct', 'sensitive', 'enabled'}
EVENTS = ['object:state-changed', 'object:children-changed', 'object:property-change',
          'object:text-changed', 'object:text-caret-moved', 'object:selection-changed',
          'object:active-descendant-changed', 'object:value-changed', 'window:create',
          'window:destroy', 'window:activate']


class BridgeError(Exception):
    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


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


class Bus:
    """The accessibility bus, with a batch of concurrent calls as its main primitive."""

    def __init__(self):
        session = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        address = None
        for _attempt in range(100):  # the bus launcher may still be starting
            try:
                address = session.call_sync('org.a11y.Bus', '/org/a11y/bus', 'org.a11y.Bus', 'GetAddress', None,
                                            GLib.VariantType('(s)'), 0, CALL_MS, None).unpack()[0]
                break
            except GLib.Error:
                time.sleep(0.1)
        if not address:
            raise BridgeError('no_display', 'the accessibility bus did not start')
        flags = (Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT
                 | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION)
        self.connection = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
        self.context = GLib.MainContext.default()

    def call(self, name, path, interface, method, args=None):
        try:
            reply = self.connection.call_sync(name, path, interface, method, args, None, 0, CALL_MS, None)
        except GLib.Error as error:
            raise BridgeError('call_failed', f'{interface}.{method} on {path}: {error.message}')
        return reply.unpack()

    def start(self, name, path, interface, method, args, done):
        """Sends one call; `done(value or None)` runs when its answer (or error) arrives."""
        def finish(connection, result):
            try:
                done(connection.call_finish(result).unpack())
            except GLib.Error:
                done(None)
        self.connection.call(name, path, interface, method, args, None, 0, CALL_MS, None, finish)

    def run_until(self, predicate, deadline):
        while not predicate():
            if time.monotonic() >= deadline:
                raise BridgeError('timeout', 'the program did not answer before the deadline')
            self.context.iteration(True)

    def drain(self):
        while self.context.pending():
            self.context.iteration(False)


class Events:
    """Counts AT-SPI events per program (bus name): any change, and changes of structure."""

    def __init__(self, bus):
        self.any = {}
        self.inserts = {}
        self.structure = {}
        self.last = {}
        self.watched = None
        for interface in ('org.a11y.atspi.Event.Object', 'org.a11y.atspi.Event.Window'):
            bus.connection.signal_subscribe(None, interface, None, None, None, 0, self.on_event)
        for event in EVENTS:
            try:
                bus.call(REGISTRY, '/org/a11y/atspi/registry', 'org.a11y.atspi.Registry', 'RegisterEvent',
                         GLib.Variant('(sass)', (event, [], '')))
            except BridgeError:
                pass

    def on_event(self, connection, sender, path, interface, member, parameters):
        now = time.monotonic()
        self.any[sender] = self.any.get(sender, 0) + 1
        self.last[sender] = now
        detail = parameters.unpack()[0] if member in ('StateChanged', 'PropertyChange', 'TextChanged') else ''
        if member == 'TextChanged' and detail.startswith('insert'):
            self.inserts[sender] = self.inserts.get(sender, 0) + 1
        if member in STRUCTURE_EVENTS or (member == 'StateChanged' and detail in STRUCTURE_STATES):
            self.structure[sender] = self.structure.get(sender, 0) + 1
        if self.watched is not None and path == self.watched['path'] and sender == self.watched['app']:
            self.watched['last'] = now

    def stamp(self, app):
        return {'any': self.any.get(app, 0), 'structure': self.structure.get(app, 0),
                'inserts': self.inserts.get(app, 0)}


class XWindowAttributes(ctypes.Structure):
    _fields_ = [('x', ctypes.c_int), ('y', ctypes.c_int), ('width', ctypes.c_int), ('height', ctypes.c_int),
                ('border_width', ctypes.c_int), ('depth', ctypes.c_int), ('visual', ctypes.c_void_p),
                ('root', ctypes.c_ulong), ('c_class', ctypes.c_int), ('bit_gravity', ctypes.c_int),
                ('win_gravity', ctypes.c_int), ('backing_store', ctypes.c_int), ('backing_planes', ctypes.c_ulong),
                ('backing_pixel', ctypes.c_ulong), ('save_under', ctypes.c_int), ('colormap', ctypes.c_ulong),
                ('map_installed', ctypes.c_int), ('map_state', ctypes.c_int), ('all_event_masks', ctypes.c_long),
                ('your_event_mask', ctypes.c_long), ('do_not_propagate_mask', ctypes.c_long),
                ('override_redirect', ctypes.c_int), ('screen', ctypes.c_void_p)]


IS_VIEWABLE = 2
X_ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)


@X_ERROR_HANDLER
def ignore_x_error(_display, _event):
    return 0  # a window that went away between two requests: not a reason to exit


class X11:
    """Keyboard focus and key codes through Xlib (no window manager runs on Lift's display)."""

    def __init__(self):
        self.lib = ctypes.cdll.LoadLibrary('libX11.so.6')
        self.lib.XSetErrorHandler(ignore_x_error)
        self.lib.XGetWindowAttributes.argtypes = [ctypes.c_void_p, ctypes.c_ulong,
                                                  ctypes.POINTER(XWindowAttributes)]
        self.lib.XOpenDisplay.restype = ctypes.c_void_p
        self.lib.XOpenDisplay.argtypes = [ctypes.c_char_p]
        self.lib.XDefaultRootWindow.restype = ctypes.c_ulong
        self.lib.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        self.lib.XInternAtom.restype = ctypes.c_ulong
        self.lib.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        self.lib.XKeysymToKeycode.restype = ctypes.c_ubyte
        self.lib.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        self.lib.XStringToKeysym.restype = ctypes.c_ulong
        self.lib.XStringToKeysym.argtypes = [ctypes.c_char_p]
        self.lib.XQueryTree.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_ulong),
                                        ctypes.POINTER(ctypes.c_ulong),
                                        ctypes.POINTER(ctypes.POINTER(ctypes.c_ulong)),
                                        ctypes.POINTER(ctypes.c_uint)]
        self.lib.XGetWindowProperty.argtypes = [
            ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_long, ctypes.c_long, ctypes.c_int,
            ctypes.c_ulong, ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_int),
            ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_ulong),
            ctypes.POINTER(ctypes.POINTER(ctypes.c_ubyte))]
        self.lib.XSetInputFocus.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_ulong]
        self.lib.XRaiseWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        self.lib.XGetInputFocus.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_ulong),
                                            ctypes.POINTER(ctypes.c_int)]
        self.lib.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
        self.lib.XFree.argtypes = [ctypes.c_void_p]
        self.lib.XFetchName.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_char_p)]
        self.display = self.lib.XOpenDisplay(None)
        if not self.display:
            raise BridgeError('no_display', 'cannot open the X display named by DISPLAY')
        self.root = self.lib.XDefaultRootWindow(self.display)
        self.pid_atom = self.lib.XInternAtom(self.display, b'_NET_WM_PID', 0)

    def keycode(self, keysym_name):
        keysym = self.lib.XStringToKeysym(keysym_name.encode())
        if keysym == 0 and len(keysym_name) == 1:
            keysym = ord(keysym_name)
        code = self.lib.XKeysymToKeycode(self.display, keysym) if keysym else 0
        if not code:
            raise BridgeError('bad_key', f'no key on this keyboard makes "{keysym_name}"')
        return code

    def windows_of(self, pid):
        root, parent = ctypes.c_ulong(), ctypes.c_ulong()
        children, count = ctypes.POINTER(ctypes.c_ulong)(), ctypes.c_uint()
        self.lib.XQueryTree(self.display, self.root, ctypes.byref(root), ctypes.byref(parent),
                            ctypes.byref(children), ctypes.byref(count))
        found = []
        for index in range(count.value):
            window = children[index]
            if self.window_pid(window) == pid and self.viewable(window):
                found.append(window)
        if children:
            self.lib.XFree(children)
        return found

    def viewable(self, window):
        attributes = XWindowAttributes()
        if not self.lib.XGetWindowAttributes(self.display, window, ctypes.byref(attributes)):
            return False
        return attributes.map_state == IS_VIEWABLE

    def window_pid(self, window):
        actual, fmt = ctypes.c_ulong(), ctypes.c_int()
        items, after = ctypes.c_ulong(), ctypes.c_ulong()
        data = ctypes.POINTER(ctypes.c_ubyte)()
        status = self.lib.XGetWindowProperty(self.display, window, self.pid_atom, 0, 1, 0, 6,
                                             ctypes.byref(actual), ctypes.byref(fmt), ctypes.byref(items),
                                             ctypes.byref(after), ctypes.byref(data))
        pid = None
        if status == 0 and items.value == 1 and data:
            pid = ctypes.cast(data, ctypes.POINTER(ctypes.c_ulong))[0]
        if data:
            self.lib.XFree(data)
        return pid

    def focused(self):
        window, revert = ctypes.c_ulong(), ctypes.c_int()
        self.lib.XGetInputFocus(self.display, ctypes.byref(window), ctypes.byref(revert))
        return window.value

    def title_of(self, window):
        name = ctypes.c_char_p()
        if not self.lib.XFetchName(self.display, window, ctypes.byref(name)) or not name.value:
            return ''
        title = name.value.decode('utf-8', 'replace')
        return title

    def focus(self, pid, title=None):
        """Gives the keyboard to the window of `pid` with that title (else its topmost one)."""
        windows = self.windows_of(pid)
        if not windows:
            return False
        titled = [window for window in windows if title and self.title_of(window) == title]
        # The last child of the root is the top of the stacking order, usually the one on screen.
        window = (titled or windows)[-1]
        if self.focused() == window:
            return True
        self.lib.XRaiseWindow(self.display, window)
        self.lib.XSetInputFocus(self.display, window, 2, 0)
        self.lib.XSync(self.display, 0)
        return True


class Tree:
    """One read of a window: every node's requests sent at once, level by level."""

    def __init__(self, bus):
        self.bus = bus

    def read(self, app, path, limit, deadline):
        nodes = []
        by_path = {}
        pending = [0]

        def request(node, interface, method, key, args=None):
            pending[0] += 1

            def done(value):
                pending[0] -= 1
                node[key] = value
                if key == 'children' and value is not None:
                    children_of(node, value[0])
            self.bus.start(app, node['path'], interface, method, args, done)

        def visit(child_path, parent, depth):
            if child_path in by_path or len(nodes) >= limit:
                return
            node = {'path': child_path, 'parent': parent, 'depth': depth}
            by_path[child_path] = node
            nodes.append(node)
            request(node, 'org.freedesktop.DBus.Properties', 'GetAll', 'props', GLib.Variant('(s)', (ACCESSIBLE,)))
            request(node, ACCESSIBLE, 'GetRole', 'role')
            request(node, ACCESSIBLE, 'GetState', 'state')
            request(node, ACCESSIBLE, 'GetInterfaces', 'interfaces')
            request(node, ACCESSIBLE, 'GetChildren', 'children')

        def children_of(node, children):
            # Replies come back in the order the program answered them: role and state are known.
            role = role_name(node['role'][0]) if node.get('role') else 'unknown'
            states = states_of(node['state'][0]) if node.get('state') else []
            name = ((node.get('props') or [{}])[0]).get('Name', '')
            if role in LEAF_ROLES and name and not CLASS_NAME.match(name):
                return  # the children only repeat the control's own name
            if 'visible' not in states and node['depth'] > 0:
                return
            if 'manages-descendants' in states:
                return  # a grid that makes its cells on demand: walking it would make them all
            if role == 'menu' and not {'selected', 'expanded'} & set(states):
                return  # a closed menu: its items are not on screen
            # A list that grows (a history, a log) shows its newest rows; others their first ones.
            rows = children[-MAX_LIST_ROWS:] if role in LIST_ROLES else children[:MAX_CHILDREN]
            for bus_name, child_path in rows:
                if bus_name == app:
                    visit(child_path, nodes.index(node), node['depth'] + 1)

        visit(path, -1, 0)
        self.bus.run_until(lambda: pending[0] == 0, deadline)
        self.details(app, nodes, deadline)
        return [compact(node) for node in nodes], len(nodes) >= limit

    def details(self, app, nodes, deadline):
        """Second wave: action names, text and value of the nodes that have them."""
        pending = [0]

        def request(node, interface, method, key, args=None):
            pending[0] += 1

            def done(value):
                pending[0] -= 1
                node[key] = value
            self.bus.start(app, node['path'], interface, method, args, done)

        for node in nodes:
            interfaces = (node.get('interfaces') or [[]])[0]
            if 'org.a11y.atspi.Action' in interfaces:
                request(node, 'org.a11y.atspi.Action', 'GetActions', 'actions')
            if 'org.a11y.atspi.Text' in interfaces:
                request(node, 'org.a11y.atspi.Text', 'GetText', 'text', GLib.Variant('(ii)', (0, 2000)))
            if 'org.a11y.atspi.Value' in interfaces:
                request(node, 'org.freedesktop.DBus.Properties', 'GetAll', 'value',
                        GLib.Variant('(s)', ('org.a11y.atspi.Value',)))
        self.bus.run_until(lambda: pending[0] == 0, deadline)


def compact(node):
    props = (node.get('props') or [{}])[0]
    interfaces = (node.get('interfaces') or [[]])[0]
    out = {
        'path': node['path'],
        'parent': node['parent'],
        'role': role_name(node['role'][0]) if node.get('role') else 'unknown',
        'name': props.get('Name', '') or '',
        'states': states_of(node['state'][0]) if node.get('state') else [],
        'interfaces': [name.rsplit('.', 1)[-1] for name in interfaces if name != ACCESSIBLE],
    }
    if props.get('AccessibleId'):
        out['id'] = props['AccessibleId']
    if props.get('Description'):
        out['description'] = props['Description'][:200]
    if node.get('actions'):
        out['actions'] = [name for name, _description, _keys in node['actions'][0]][:12]
    if node.get('text') is not None:
        out['text'] = node['text'][0]
    if node.get('value'):
        value = node['value'][0]
        out['value'] = {key: value.get(key) for key in ('CurrentValue', 'MinimumValue', 'MaximumValue')}
    return out


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


class Bridge:
    def __init__(self):
        self.bus = Bus()
        self.events = Events(self.bus)
        self.tree = Tree(self.bus)
        self.x11 = X11()
        self.interfaces = {}

    # -- reading
    def op_apps(self, request, deadline):
        apps = []
        for bus_name, path in self.bus.call(REGISTRY, ROOT, ACCESSIBLE, 'GetChildren')[0]:
            try:
                name = self.bus.call(bus_name, path, 'org.freedesktop.DBus.Properties', 'Get',
                                     GLib.Variant('(ss)', (ACCESSIBLE, 'Name')))[0]
                pid = self.bus.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus',
                                    'GetConnectionUnixProcessID', GLib.Variant('(s)', (bus_name,)))[0]
                windows = []
                for _child_bus, child in self.bus.call(bus_name, path, ACCESSIBLE, 'GetChildren')[0]:
                    title = self.bus.call(bus_name, child, 'org.freedesktop.DBus.Properties', 'Get',
                                          GLib.Variant('(ss)', (ACCESSIBLE, 'Name')))[0]
                    role = role_name(self.bus.call(bus_name, child, ACCESSIBLE, 'GetRole')[0])
                    states = states_of(self.bus.call(bus_name, child, ACCESSIBLE, 'GetState')[0])
                    windows.append({'path': child, 'title': title, 'role': role, 'states': states})
                apps.append({'app': bus_name, 'name': name, 'pid': pid, 'windows': windows})
            except BridgeError:
                continue  # a program that left while we looked
        return apps

    def op_tree(self, request, deadline):
        self.bus.drain()
        stamp = self.events.stamp(request['app'])
        nodes, truncated = self.tree.read(request['app'], request['path'], request.get('limit', 2000), deadline)
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
            return self.bus.call(app, path, 'org.a11y.atspi.Text', 'GetText', GLib.Variant('(ii)', (0, 2000)))[0]
        if 'org.a11y.atspi.Value' in interfaces:
            value = self.bus.call(app, path, 'org.freedesktop.DBus.Properties', 'Get',
                                  GLib.Variant('(ss)', ('org.a11y.atspi.Value', 'CurrentValue')))[0]
            return str(value)
        return self.bus.call(app, path, 'org.freedesktop.DBus.Properties', 'Get',
                             GLib.Variant('(ss)', (ACCESSIBLE, 'Name')))[0]

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
        for char in request['text']:
            if char == '\n':
                self.key_event(self.x11.keycode('Return'), '', KEY_PRESSRELEASE)
            else:
                self.key_event(0, char, KEY_STRING)
        return {'typed': len(request['text'])}

    def op_key(self, request, deadline):
        parts = [keysym_name(part) for part in request['keys']]
        codes = [self.x11.keycode(name) for name in parts]
        held = [code for name, code in zip(parts, codes) if name in MODIFIERS]
        main = [code for name, code in zip(parts, codes) if name not in MODIFIERS]
        for code in held:
            self.key_event(code, '', KEY_PRESS)
        for code in main:
            self.key_event(code, '', KEY_PRESSRELEASE)
        for code in reversed(held):
            self.key_event(code, '', KEY_RELEASE)
        return {'keys': parts}

    def key_event(self, code, string, kind):
        self.bus.call(REGISTRY, DEC, 'org.a11y.atspi.DeviceEventController', 'GenerateKeyboardEvent',
                      GLib.Variant('(isu)', (code, string, kind)))

    def prepared(self, request, deadline, handler):
        """Runs a request, first doing what it asks for in the same round trip: give the keyboard
        to a window (`focus`), note the event counts (`stamp_app`), read a node (`read_before`);
        and afterwards wait for the window as `then_wait` says (the arguments of op_wait)."""
        extra = {}
        if request.get('focus'):
            self.x11.focus(request['focus']['pid'], request['focus'].get('title'))
        if request.get('stamp_app'):
            self.bus.drain()
            extra['stamp'] = self.events.stamp(request['stamp_app'])
        if request.get('read_before'):
            extra['before'] = self.read_one(request['stamp_app'], request['read_before'])
        result = handler(request, deadline)
        if request.get('then_wait'):
            # Acting and watching in one round trip: the wait starts from the stamp taken
            # just before the action, and may watch the node read before it for a change.
            wait = {**request['then_wait'], 'stamp': extra['stamp']}
            if wait.pop('expect_change_of_read', False) and 'before' in extra:
                wait['expect'] = {'path': request['read_before'], 'from': extra['before']}
            extra['settled'] = self.op_wait(wait, deadline)
        if extra:
            result = {**result, **extra} if isinstance(result, dict) else {'value': result, **extra}
        return result

    # -- settling
    def op_wait(self, request, deadline):
        """Waits until the program sent events after `stamp` and then none for `quiet_ms`
        (with `expect`: and the named node's text contains `text`, or differs `from`). `idle_ms`
        without any event means nothing changed; a wrong text gives up `idle_ms` after the
        last event."""
        app = request['app']
        since = request['stamp']['any']
        quiet = request.get('quiet_ms', 60) / 1000
        idle = request.get('idle_ms', 400) / 1000
        expect = request.get('expect')
        # Typed text has landed once the program reported as many insertions as characters.
        inserts = request.get('inserts', 0)
        started = time.monotonic()
        until = min(deadline, started + request.get('within_ms', 5000) / 1000)
        seen = -1
        holds = False
        # With a watched node, "held still" is about that node: a program may go on updating
        # other parts of its window (a history list, a status bar) long after the answer shows.
        watched = {'app': app, 'path': expect['path'], 'last': None} if expect else None
        self.events.watched = watched

        shown = [None]

        def answer(changed, settled, expected=None):
            out = {'changed': changed, 'settled': settled, 'events': self.events.any.get(app, 0) - since,
                   'ms': round((time.monotonic() - started) * 1000, 1)}
            if expected is not None:
                out['expected'] = expected
            if shown[0] is not None:
                out['shown'] = shown[0]  # the watched node's text as the wait ended
            return out

        while True:
            self.bus.drain()
            now = time.monotonic()
            count = self.events.any.get(app, 0)
            if expect and count != seen:
                seen = count
                shown[0] = self.read_one(app, expect['path'])
                if 'from' in expect:
                    holds = shown[0] != expect['from'] and shown[0].strip() != ''
                else:
                    holds = expect['text'] in shown[0]
            typed = self.events.inserts.get(app, 0) - request['stamp'].get('inserts', 0) >= inserts
            if count > since:
                quiet_for = now - self.events.last.get(app, now)
                if holds and typed and watched['last'] is not None and now - watched['last'] >= quiet:
                    return answer(True, True, True)
                if quiet_for >= quiet and (holds or not expect) and (typed or quiet_for >= idle):
                    return answer(True, True, True if expect else None)
                if expect and not holds and quiet_for >= idle:
                    return answer(True, True, False)
            elif now - started >= idle:
                return answer(False, True, holds if expect else None)
            if now >= until:
                return answer(count > since, False, holds if expect else None)
            # Wake within 5 ms even when no event comes; the source removes itself.
            GLib.timeout_add(5, lambda: False)
            self.bus.context.iteration(True)


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
        print(json.dumps(answer), flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
