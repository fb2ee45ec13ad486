"""AT-SPI events, counted per program, so that a wait can tell when a window changed and held still."""
import time
import uuid

from bus import REGISTRY, BridgeError
from gi.repository import GLib

STRUCTURE_EVENTS = {'ChildrenChanged', 'PropertyChange', 'Create', 'Destroy'}
STRUCTURE_STATES = {'showing', 'visible', 'defunct', 'sensitive', 'enabled'}
EVENTS = ['object:state-changed', 'object:children-changed', 'object:property-change',
          'object:text-changed', 'object:text-caret-moved', 'object:selection-changed',
          'object:active-descendant-changed', 'object:value-changed', 'window:create',
          'window:destroy', 'window:activate']
DETAILED = {'StateChanged', 'PropertyChange', 'TextChanged'}
# Events that change what a node shows (a caret move or new bounds do not).
CONTENT_EVENTS = {'TextChanged', 'PropertyChange', 'ValueChanged'}


class Events:
    """Counts AT-SPI events per program (bus name): any change, and changes of structure."""

    def __init__(self, bus):
        self.any = {}
        self.inserts = {}
        self.structure = {}
        self.last = {}
        self.watched = None
        # Counts start again with each bridge: a stamp from another one compares as changed.
        self.epoch = uuid.uuid4().hex[:12]
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
        detail = parameters.get_child_value(0).get_string() if member in DETAILED else ''
        if member == 'TextChanged' and detail.startswith('insert'):
            self.inserts[sender] = self.inserts.get(sender, 0) + 1
        if member in STRUCTURE_EVENTS or (member == 'StateChanged' and detail in STRUCTURE_STATES):
            self.structure[sender] = self.structure.get(sender, 0) + 1
        watched = self.watched
        if watched is not None and path == watched['path'] and sender == watched['app']:
            watched['last'] = now
            watched['count'] += 1
            if member in CONTENT_EVENTS:
                text = parameters.get_child_value(3).get_variant() if member == 'TextChanged' else None
                watched['changes'].append((now, detail.split(':')[0], text.unpack() if text else None))

    def watch(self, app, path):
        """Follows one node until `watched` is cleared: when its last event came, how many came,
        and the changes of its content (time, 'insert' or 'delete' or a property, the text)."""
        self.watched = {'app': app, 'path': path, 'last': None, 'count': 0, 'changes': []}
        return self.watched

    def stamp(self, app):
        return {'any': self.any.get(app, 0), 'structure': self.structure.get(app, 0),
                'inserts': self.inserts.get(app, 0), 'epoch': self.epoch}
