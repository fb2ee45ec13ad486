"""Where one request's time went, carried in its answer: milliseconds per phase (focus, act,
wait, tree reads...) and the number of D-Bus calls the bridge sent for it."""
import time


class Timing:
    def __init__(self):
        self.reset()

    def reset(self):
        self.started = time.monotonic()
        self.phases = {}
        self.calls = 0

    def add(self, phase, since):
        """Adds the time from `since` (a time.monotonic()) to now to the phase."""
        self.phases[phase] = self.phases.get(phase, 0) + (time.monotonic() - since) * 1000

    def report(self):
        out = {'ms': round((time.monotonic() - self.started) * 1000, 2), 'calls': self.calls}
        out.update((phase, round(ms, 2)) for phase, ms in self.phases.items())
        return out


# The bridge answers one request at a time: one timing, reset as each request starts.
TIMING = Timing()
