"""The accessibility bus: blocking calls, and batches of concurrent calls answered through
the main loop. Every call goes to one program's accessible objects over AT-SPI's D-Bus protocol."""
import time

import gi

gi.require_version('Atspi', '2.0')
from gi.repository import Gio, GLib  # noqa: E402
from timing import TIMING  # noqa: E402

ACCESSIBLE = 'org.a11y.atspi.Accessible'
REGISTRY = 'org.a11y.atspi.Registry'
ROOT = '/org/a11y/atspi/accessible/root'
PROPERTIES = 'org.freedesktop.DBus.Properties'
CALL_MS = 2000
# The most of a node's text a read asks for (Text.GetText from 0 to this).
READ_CHARS = 2000


class BridgeError(Exception):
    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


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
        TIMING.calls += 1
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
        TIMING.calls += 1
        self.connection.call(name, path, interface, method, args, None, 0, CALL_MS, None, finish)

    def batch(self, calls, deadline):
        """Sends calls (name, path, interface, method, args) at once; their answers in the same
        order (None for one that failed). A program answers in the order it was asked."""
        answers = [None] * len(calls)
        pending = [len(calls)]

        def keep(index):
            def done(value):
                pending[0] -= 1
                answers[index] = value
            return done

        for index, (name, path, interface, method, args) in enumerate(calls):
            self.start(name, path, interface, method, args, keep(index))
        self.run_until(lambda: pending[0] == 0, deadline)
        return answers

    def run_until(self, predicate, deadline):
        while not predicate():
            if time.monotonic() >= deadline:
                raise BridgeError('timeout', 'the program did not answer before the deadline')
            self.context.iteration(True)

    def sleep_until(self, moment):
        """Runs the main loop until something arrives (an answer, an event) or `moment` comes."""
        fired = []

        def ring():
            fired.append(True)
            return False  # a one-shot timer

        source = GLib.timeout_add(max(1, round((moment - time.monotonic()) * 1000)), ring)
        self.context.iteration(True)
        if not fired:
            GLib.source_remove(source)

    def drain(self):
        while self.context.pending():
            self.context.iteration(False)
