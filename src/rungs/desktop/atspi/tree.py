"""One read of a window's accessibility tree."""
import re

from bus import ACCESSIBLE
from gi.repository import GLib
from names import role_name, states_of

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
