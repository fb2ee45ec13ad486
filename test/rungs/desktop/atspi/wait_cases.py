#!/usr/bin/python3
"""The bridge's settle wait (src/rungs/desktop/atspi/wait.py) decided on scripted programs.

Each case scripts when a program's text changes and when its AT-SPI events reach the bridge,
on a clock the test moves, so that orders of arrival that a real program shows only now and
then (GTK 4 reporting a change tens of milliseconds after making it) are tried every time.
Run by wait.test.ts; prints unittest's report and exits non-zero on a failure.
"""
import os
import sys
import unittest
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../../src/rungs/desktop/atspi'))
import events as events_module  # noqa: E402
import wait as wait_module  # noqa: E402
from gi.repository import GLib  # noqa: E402

APP = ':1.9'
NODE = '/org/a11y/atspi/accessible/display'
ELSEWHERE = '/org/a11y/atspi/accessible/history'


class Clock:
    def __init__(self):
        self.now = 1000.0

    def monotonic(self):
        return self.now


class Program:
    """What a program shows over time (ms from the start) and the events it sends."""

    def __init__(self, text, read_ms=5):
        self.texts = [(0, text)]
        self.events = []
        self.read_ms = read_ms
        self.reads = 0

    def shows(self, at_ms, text):
        self.texts.append((at_ms, text))
        return self

    def emits(self, at_ms, member, path=NODE, detail='', text=''):
        self.events.append((at_ms, member, path, detail, text))
        self.events.sort(key=lambda event: event[0])
        return self

    def text_at(self, ms):
        return [text for at, text in self.texts if at <= ms][-1]


class ScriptedBus:
    """The bridge's Bus as the wait uses it: events arrive as the clock reaches them."""

    class Connection:
        def signal_subscribe(self, *args):
            return 0

    def __init__(self, clock, program):
        self.clock = clock
        self.program = program
        self.begun = clock.now
        self.connection = self.Connection()
        self.events = None
        self.sent = 0
        self.answers = []  # (due ms, value, done) of reads sent without waiting

    def call(self, *args):
        return ()

    def start(self, _name, _path, _interface, method, _args, done):
        """A read sent without waiting: answered with what the program shows as it gets it,
        `read_ms` later."""
        assert method == 'GetText'
        self.program.reads += 1
        self.answers.append((self.ms() + self.program.read_ms, (self.program.text_at(self.ms()),), done))

    def ms(self):
        return round((self.clock.now - self.begun) * 1000, 6)  # whole ms despite float seconds

    def drain(self):
        while self.sent < len(self.program.events) and self.program.events[self.sent][0] <= self.ms():
            _at, member, path, detail, text = self.program.events[self.sent]
            self.sent += 1
            parameters = GLib.Variant('(siiva{sv})', (detail, 0, 0, GLib.Variant('s', text), {}))
            self.events.on_event(None, APP, path, 'org.a11y.atspi.Event.Object', member, parameters)
        for answer in [answer for answer in self.answers if answer[0] <= self.ms()]:
            self.answers.remove(answer)
            answer[2](answer[1])

    def sleep_until(self, moment):
        upcoming = [self.begun + at / 1000 for at, *_rest in self.program.events[self.sent:]]
        upcoming += [self.begun + due / 1000 for due, _value, _done in self.answers]
        self.clock.now = max(self.clock.now, min([moment] + upcoming))

    def read(self, _app, _path):
        """A read answers what the program shows as it handles it, then takes `read_ms`."""
        self.program.reads += 1
        text = self.program.text_at(self.ms())
        self.clock.now += self.program.read_ms / 1000
        return text


def settle(program, expect=None, quiet_ms=10, idle_ms=200, inserts=0, poll=False):
    clock = Clock()
    with mock.patch.object(events_module, 'time', clock), mock.patch.object(wait_module, 'time', clock):
        bus = ScriptedBus(clock, program)
        events = events_module.Events(bus)
        bus.events = events
        request = {'app': APP, 'stamp': events.stamp(APP), 'quiet_ms': quiet_ms, 'idle_ms': idle_ms,
                   'within_ms': 5000, 'inserts': inserts, 'poll': poll}
        if expect:
            request['expect'] = {'path': NODE, **expect}
        return wait_module.wait_for_window(bus, events, bus.read, request, clock.now + 10)


class TheAnswerOfALastStep(unittest.TestCase):
    """expect {from}: the control that shows the answer changes from what it showed."""

    def test_the_late_report_of_the_text_just_read_is_no_new_change(self):
        # GTK 4: the answer shows at 40 ms; the removal of the old text is reported at 50 ms,
        # the insertion of the new one only at 100 ms.
        program = (Program('100+7').shows(40, '107')
                   .emits(50, 'TextChanged', detail='delete', text='100+7')
                   .emits(60, 'TextCaretMoved')
                   .emits(100, 'TextChanged', detail='insert', text='107'))
        settled = settle(program, {'from': '100+7'})
        self.assertEqual((settled['shown'], settled['expected'], settled['settled']), ('107', True, True))
        self.assertLess(settled['ms'], 100)
        self.assertEqual(program.reads, 1)

    def test_a_text_set_and_reported_whole_needs_no_read(self):
        # GTK 3 reports setting a text as it happens: the old text removed, the new one inserted.
        program = (Program('100+7').shows(40, '107')
                   .emits(40, 'TextChanged', detail='delete', text='100+7')
                   .emits(40, 'TextChanged', detail='insert', text='107'))
        settled = settle(program, {'from': '100+7'})
        self.assertEqual((settled['shown'], settled['expected'], settled['ms']), ('107', True, 50))
        self.assertEqual(program.reads, 0)

    def test_changes_that_do_not_say_the_whole_text_are_read(self):
        program = (Program('100+7').shows(40, '107')
                   .emits(40, 'TextChanged', detail='delete', text='+7')
                   .emits(40, 'TextChanged', detail='insert', text='7'))
        settled = settle(program, {'from': '100+7'})
        self.assertEqual((settled['shown'], settled['expected']), ('107', True))
        self.assertEqual(program.reads, 1)

    def test_a_change_after_the_read_is_read_again(self):
        program = (Program('100+7').shows(40, 'Calculating')
                   .emits(50, 'TextChanged', detail='delete', text='100+7')
                   .emits(51, 'TextChanged', detail='insert', text='Calculating')
                   .shows(57, '107')
                   .emits(58, 'TextChanged', detail='delete', text='Calculating')
                   .emits(58, 'TextChanged', detail='insert', text='107'))
        settled = settle(program, {'from': '100+7'})
        self.assertEqual((settled['shown'], settled['expected']), ('107', True))
        self.assertGreaterEqual(settled['ms'], 68)  # held still 10 ms after the last change

    def test_an_empty_text_between_removal_and_insertion_is_not_the_answer(self):
        program = (Program('100+7').shows(40, '')
                   .emits(40, 'TextChanged', detail='delete', text='100+7')
                   .shows(70, '107')
                   .emits(70, 'TextChanged', detail='insert', text='107'))
        settled = settle(program, {'from': '100+7'})
        self.assertEqual((settled['shown'], settled['expected']), ('107', True))

    def test_a_node_that_reports_nothing_is_read_once_the_program_holds_still(self):
        program = Program('100+7').shows(40, '107').emits(45, 'ChildrenChanged', path=ELSEWHERE)
        settled = settle(program, {'from': '100+7'})
        self.assertEqual((settled['shown'], settled['expected']), ('107', True))
        self.assertGreaterEqual(settled['ms'], 55)

    def test_a_read_kept_on_its_way_sees_the_answer_before_its_late_report(self):
        # GTK 4 draws before it reports: the answer shows at 40 ms, its report comes at 90.
        program = (Program('100+7', read_ms=2).shows(40, '107')
                   .emits(90, 'TextChanged', detail='delete', text='100+7')
                   .emits(100, 'TextChanged', detail='insert', text='107'))
        settled = settle(program, {'from': '100+7'}, poll=True)
        self.assertEqual((settled['shown'], settled['expected'], settled['changed']), ('107', True, True))
        self.assertLess(settled['ms'], 60)  # seen at 42, then held still 10 ms
        # One read at a time, each sent 5 ms after the last answered (in 2): no busy loop.
        self.assertLessEqual(program.reads, settled['ms'] // 7 + 1)

    def test_a_read_kept_on_its_way_still_reads_a_change_reported_after_it(self):
        # GTK 4 reports a removal as it makes it, an insertion later.
        program = (Program('100+7', read_ms=2).shows(40, 'Calculating')
                   .emits(40, 'TextChanged', detail='delete', text='100+7')
                   .shows(46, '107')
                   .emits(46, 'TextChanged', detail='delete', text='Calculating')
                   .emits(80, 'TextChanged', detail='insert', text='Calculating')
                   .emits(80, 'TextChanged', detail='insert', text='107'))
        settled = settle(program, {'from': '100+7'}, poll=True)
        self.assertEqual((settled['shown'], settled['expected']), ('107', True))

    def test_a_read_kept_on_its_way_gives_up_idle_after_the_last_event_when_nothing_changes(self):
        program = Program('5', read_ms=2).emits(30, 'TextChanged', detail='insert', text='5')
        settled = settle(program, {'from': '5'}, poll=True)
        self.assertEqual((settled['changed'], settled['expected']), (True, False))
        self.assertGreaterEqual(settled['ms'], 230)

    def test_an_answer_that_never_changes_gives_up_idle_after_the_last_event(self):
        program = Program('5').emits(30, 'TextChanged', detail='insert', text='5')
        settled = settle(program, {'from': '5'})
        self.assertEqual((settled['changed'], settled['expected']), (True, False))
        self.assertGreaterEqual(settled['ms'], 230)


class AnExpectation(unittest.TestCase):
    """expect {text}: the named control shows a text."""

    def test_the_text_found_once_the_node_holds_still(self):
        program = (Program('12+30').shows(30, '42')
                   .emits(30, 'TextChanged', detail='delete', text='12+30')
                   .emits(30, 'TextChanged', detail='insert', text='42'))
        settled = settle(program, {'text': '42'})
        self.assertEqual((settled['shown'], settled['expected'], settled['changed']), ('42', True, True))
        self.assertEqual(program.reads, 1)  # the first, before anything changed

    def test_the_wrong_text_gives_up_idle_after_the_last_event(self):
        program = (Program('12+30').shows(30, '42')
                   .emits(30, 'TextChanged', detail='delete', text='12+30')
                   .emits(31, 'TextChanged', detail='insert', text='42'))
        settled = settle(program, {'text': '99'})
        self.assertEqual((settled['shown'], settled['expected']), ('42', False))
        self.assertGreaterEqual(settled['ms'], 231)


class AWindowWithoutExpectation(unittest.TestCase):
    def test_nothing_changed_after_idle_without_an_event(self):
        settled = settle(Program('x'))
        self.assertEqual((settled['changed'], settled['settled'], settled['events']), (False, True, 0))
        self.assertEqual(settled['ms'], 200)

    def test_typed_text_waits_for_every_insertion(self):
        program = (Program('').emits(10, 'TextChanged', detail='insert', text='1')
                   .emits(20, 'TextChanged', detail='insert', text='2')
                   .emits(150, 'TextChanged', detail='insert', text='3'))
        settled = settle(program, quiet_ms=0, inserts=3)
        self.assertEqual((settled['changed'], settled['settled']), (True, True))
        self.assertGreaterEqual(settled['ms'], 150)


if __name__ == '__main__':
    unittest.main(verbosity=2)
