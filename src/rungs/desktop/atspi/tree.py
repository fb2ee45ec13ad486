"""One read of a window's accessibility tree."""
import re
import time

from bus import ACCESSIBLE, PROPERTIES, READ_CHARS
from gi.repository import GLib
from names import role_name, states_of
from timing import TIMING

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
CACHE = '/org/a11y/atspi/cache'
# Facts kept per object beyond this many are dropped all at once (the next read asks again).
MAX_FIXED = 5000
# A program whose cache holds more objects than this (a document's every cell) is asked node by
# node instead: its whole cache would cost more than the few nodes a read opens.
MAX_CACHE_ITEMS = 5000


class Tree:
    """One read of a window, breadth first, as few calls as the program allows.

    What each node is (role, name, description, states, interfaces, parent, place among its
    siblings) comes for the whole program in one call, the object cache AT-SPI defines
    (Cache.GetItems, answered fresh by GTK 3 and GTK 4); a node it does not hold is asked for
    itself, all of a level at once. Children are listed in the order GetChildren gives, the
    window's own order: the cache's numbering is used instead only for a program whose first
    reads showed it to agree with GetChildren everywhere (GTK 4 does; GTK 3 lists a window's
    menu bar second but numbers it 0). An object's action names and id, which do not change
    while its path names it, are asked once and kept (checked against its role); texts and
    values are read every time."""

    def __init__(self, bus):
        self.bus = bus
        self.fixed = {}  # (app, path) -> {'role': number, 'actions': [...] or None, 'id': str or None}
        # app -> True once its cache's order agreed with GetChildren, False once it did not.
        self.cache_order = {}
        self.cache_too_large = set()  # apps

    def read(self, app, path, limit, deadline, use_cache=True):
        since = time.monotonic()
        cached = self.cached_items(app, deadline) if use_cache else {'items': {}, 'children': {}}
        TIMING.add('tree_items', since)
        since = time.monotonic()
        nodes = self.walk(app, path, limit, cached, deadline)
        TIMING.add('tree_walk', since)
        since = time.monotonic()
        self.details(app, nodes, deadline, use_cache)
        TIMING.add('tree_details', since)
        return [compact(node) for node in nodes], len(nodes) >= limit

    def cached_items(self, app, deadline):
        """The program's object cache: each node as {path: node}, and its children where the
        cache lists all of them with their places ({path: [child paths in order]})."""
        if app in self.cache_too_large:
            return {'items': {}, 'children': {}}
        answer = self.batch(app, [(CACHE, 'org.a11y.atspi.Cache', 'GetItems', None)], deadline)[0]
        if answer and len(answer[0]) > MAX_CACHE_ITEMS:
            self.cache_too_large.add(app)
        items = {}
        for (bus_name, path), _app, (_parent_bus, parent), index, count, interfaces, name, role, description, \
                states in (answer[0] if answer else []):
            if bus_name == app:
                items[path] = {'parent': parent, 'index': index, 'count': count, 'interfaces': interfaces,
                               'name': name, 'role': role, 'description': description, 'states': states}
        places = {}
        for path, item in items.items():
            places.setdefault(item['parent'], []).append((item['index'], path))
        children = {}
        for path, item in items.items():
            listed = sorted(places.get(path, []))
            if item['count'] >= 0 and [index for index, _path in listed] == list(range(item['count'])):
                children[path] = [child for _index, child in listed]
        return {'items': items, 'children': children}

    def walk(self, app, root, limit, cached, deadline):
        nodes, seen = [], set()
        level = []

        def visit(path, parent, depth):
            if path not in seen and len(nodes) < limit:
                seen.add(path)
                node = {'path': path, 'parent': parent, 'depth': depth, 'index': len(nodes)}
                nodes.append(node)
                level.append(node)

        visit(root, -1, 0)
        while level:
            current, level = level, []
            self.describe(app, current, cached['items'], deadline)
            opened = [node for node in current if opens(node)]
            listed = self.children(app, opened, cached['children'], deadline)
            for node in opened:
                children = listed.get(node['path'], [])
                # A list that grows (a history, a log) shows its newest rows; others their first ones.
                rows = children[-MAX_LIST_ROWS:] if node['role'] in LIST_ROLES else children[:MAX_CHILDREN]
                for child in rows:
                    visit(child, node['index'], node['depth'] + 1)
        return nodes

    def children(self, app, opened, cached, deadline):
        """The children of each opened node, in order: from the cache for a program whose cache
        order is known to agree, else asked (and, until known, compared with the cache)."""
        trusted = self.cache_order.get(app) is True
        asked = [node for node in opened if not (trusted and node['path'] in cached)]
        answers = self.batch(app, [(node['path'], ACCESSIBLE, 'GetChildren', None) for node in asked], deadline)
        listed = {node['path']: cached[node['path']] for node in opened if trusted and node['path'] in cached}
        for node, answer in zip(asked, answers):
            listed[node['path']] = [child for bus_name, child in (answer[0] if answer else []) if bus_name == app]
            if self.cache_order.get(app) is None and answer and node['path'] in cached:
                if cached[node['path']] != listed[node['path']]:
                    self.cache_order[app] = False
        if self.cache_order.get(app) is None and any(len(cached.get(node['path'], [])) > 1 for node in asked):
            self.cache_order[app] = True
        return listed

    def describe(self, app, level, items, deadline):
        """Role, name, description, states and interfaces of a level's nodes: from the cache, else asked."""
        unknown = [node for node in level if node['path'] not in items]
        calls = []
        for node in unknown:
            calls += [(node['path'], PROPERTIES, 'GetAll', GLib.Variant('(s)', (ACCESSIBLE,))),
                      (node['path'], ACCESSIBLE, 'GetRole', None), (node['path'], ACCESSIBLE, 'GetState', None),
                      (node['path'], ACCESSIBLE, 'GetInterfaces', None)]
        answers = iter(self.batch(app, calls, deadline))
        for node in unknown:
            props, role, state, interfaces = (next(answers) for _call in range(4))
            props = props[0] if props else {}
            node.update(name=props.get('Name', '') or '', description=props.get('Description', '') or '',
                        role_number=role[0] if role else None, states=states_of(state[0]) if state else [],
                        interfaces=interfaces[0] if interfaces else [])
            node['id'] = props.get('AccessibleId', '') or ''
        for node in level:
            item = items.get(node['path'])
            if item is not None:
                node.update(name=item['name'], description=item['description'], role_number=item['role'],
                            states=states_of(item['states']), interfaces=item['interfaces'])
            node['role'] = role_name(node['role_number']) if node['role_number'] is not None else 'unknown'

    def details(self, app, nodes, deadline, use_cache):
        """Action names and ids (asked once per object), texts and values (asked every time)."""
        if len(self.fixed) > MAX_FIXED:
            self.fixed.clear()
        calls, wanted = [], []
        for node in nodes:
            fixed = self.fixed.get((app, node['path'])) if use_cache else None
            if fixed is None or fixed['role'] != node['role_number']:
                fixed = {'role': node['role_number'], 'actions': None, 'id': node.get('id')}
                if use_cache:
                    self.fixed[(app, node['path'])] = fixed
            node['fixed'] = fixed
            interfaces = node['interfaces']
            if 'org.a11y.atspi.Action' in interfaces and fixed['actions'] is None:
                calls.append((node['path'], 'org.a11y.atspi.Action', 'GetActions', None))
                wanted.append((node, 'actions'))
            if fixed['id'] is None:
                calls.append((node['path'], PROPERTIES, 'Get', GLib.Variant('(ss)', (ACCESSIBLE, 'AccessibleId'))))
                wanted.append((node, 'id'))
            if 'org.a11y.atspi.Text' in interfaces:
                calls.append((node['path'], 'org.a11y.atspi.Text', 'GetText', GLib.Variant('(ii)', (0, READ_CHARS))))
                wanted.append((node, 'text'))
            if 'org.a11y.atspi.Value' in interfaces:
                calls.append((node['path'], PROPERTIES, 'GetAll', GLib.Variant('(s)', ('org.a11y.atspi.Value',))))
                wanted.append((node, 'value'))
        for (node, key), answer in zip(wanted, self.batch(app, calls, deadline)):
            if key == 'actions':
                node['fixed']['actions'] = [name for name, _description, _keys in answer[0]] if answer else None
            elif key == 'id':
                node['fixed']['id'] = (answer[0] if answer else '') or ''
            elif answer is not None:
                node[key] = answer[0]

    def batch(self, app, calls, deadline):
        """Sends calls (path, interface, method, args) to the program at once; answers in order."""
        return self.bus.batch([(app, *call) for call in calls], deadline)


def opens(node):
    """Whether a read goes on into the node's children."""
    role, states, name = node['role'], node['states'], node['name']
    if role in LEAF_ROLES and name and not CLASS_NAME.match(name):
        return False  # the children only repeat the control's own name
    if 'visible' not in states and node['depth'] > 0:
        return False
    if 'manages-descendants' in states:
        return False  # a grid that makes its cells on demand: walking it would make them all
    if role == 'menu' and not {'selected', 'expanded'} & set(states):
        return False  # a closed menu: its items are not on screen
    return True


def compact(node):
    fixed = node['fixed']
    out = {
        'path': node['path'],
        'parent': node['parent'],
        'role': node['role'],
        'name': node['name'],
        'states': node['states'],
        'interfaces': [name.rsplit('.', 1)[-1] for name in node['interfaces'] if name != ACCESSIBLE],
    }
    if fixed['id']:
        out['id'] = fixed['id']
    if node['description']:
        out['description'] = node['description'][:200]
    if fixed['actions'] is not None:
        out['actions'] = fixed['actions'][:12]
    if node.get('text') is not None:
        out['text'] = node['text']
    if node.get('value'):
        value = node['value']
        out['value'] = {key: value.get(key) for key in ('CurrentValue', 'MinimumValue', 'MaximumValue')}
    return out
